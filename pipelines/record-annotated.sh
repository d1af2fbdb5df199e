#!/usr/bin/env bash
# Records a video file with the codes rlbarcode finds outlined and labelled,
# as H.264 in MP4, and prints a line per `barcode` message.
#
# Usage: pipelines/record-annotated.sh IN OUT.mp4 [PROPERTY=VALUE...]
#   e.g. pipelines/record-annotated.sh shelf.mp4 /tmp/shelf-annotated.mp4 effort=thorough
# Environment: GST_PLUGIN_PATH (default: the repository's .build/release).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

if [ $# -lt 2 ]; then
    sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
IN="$1"; OUT="$2"; shift 2
[ -r "$IN" ] || { echo "record-annotated.sh: cannot read $IN" >&2; exit 1; }
require_rlbarcode
ENCODER="$(h264_encoder)"

# shellcheck disable=SC2086  # ENCODER is a list of words
gst_launch -m -e \
    filesrc location="$IN" ! decodebin ! videoconvert \
    ! rlbarcode draw=true draw-labels=true "$@" \
    ! videoconvert ! $ENCODER ! h264parse ! mp4mux ! filesink location="$OUT" \
    | barcode_messages
echo "record-annotated.sh: wrote $OUT" >&2
