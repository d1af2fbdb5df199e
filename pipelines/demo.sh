#!/usr/bin/env bash
# Plays the demo clip (pipelines/media/demo.mp4) through rlbarcode with
# outlines drawn (draw=true), prints a line per `barcode` message, and writes
# the annotated video as MP4.
#
# Usage: pipelines/demo.sh [OUTPUT.mp4] [PROPERTY=VALUE...]
#   OUTPUT.mp4      default /tmp/rlbarcode-demo.mp4
#   PROPERTY=VALUE  extra rlbarcode properties, e.g. symbologies=ean-13+upc-a
# Environment: GST_PLUGIN_PATH (default: the repository's .build/release),
#   RLBARCODE_RAW_MESSAGES=1 to print the whole messages.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

OUT="${1:-/tmp/rlbarcode-demo.mp4}"
shift || true
IN="$MEDIA/demo.mp4"
[ -f "$IN" ] || { echo "demo.sh: $IN is missing (make it: /usr/bin/python3 scripts/make-demo-video.py)" >&2; exit 1; }
require_rlbarcode
ENCODER="$(h264_encoder)"

echo "demo.sh: $IN -> $OUT" >&2
# shellcheck disable=SC2086  # ENCODER is a list of words
gst_launch -m -e \
    filesrc location="$IN" ! decodebin ! videoconvert \
    ! rlbarcode draw=true "$@" \
    ! videoconvert ! $ENCODER ! h264parse ! mp4mux ! filesink location="$OUT" \
    | barcode_messages
echo "demo.sh: wrote $OUT" >&2
