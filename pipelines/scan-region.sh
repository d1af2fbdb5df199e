#!/usr/bin/env bash
# Scans only one region of the frame: codes outside it are never reported.
#   ... ! rlbarcode active-region=X,Y,W,H region-only=true ! ...
# and prints a line per `barcode` message.
#
# Usage: pipelines/scan-region.sh FILE X,Y,W,H [PROPERTY=VALUE...]
#   X,Y,W,H  the region as fractions of the frame (0 to 1), e.g. 0.25,0.25,0.5,0.5
#            for the middle quarter; 0,0,0.5,1 for the left half
#   e.g. pipelines/scan-region.sh media/demo.mp4 0,0,0.45,0.6 symbologies=ean-13
# With OUT=FILE.mp4 in the environment the video is also written, the region's
# codes outlined and labelled.
# Environment: GST_PLUGIN_PATH (default: the repository's .build/release),
#   RLBARCODE_RAW_MESSAGES=1 to print the whole messages.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

usage_or_go 2 13 "$@"
IN="$1"; REGION="$2"; shift 2
[ -r "$IN" ] || { echo "scan-region.sh: cannot read $IN" >&2; exit 1; }
require_rlbarcode

if [ -n "${OUT:-}" ]; then
    ENCODER="$(h264_encoder)"
    # shellcheck disable=SC2206  # ENCODER is a list of words
    SINK=(videoconvert ! $ENCODER ! h264parse ! mp4mux ! filesink location="$OUT")
    DRAW=(draw=true)
else
    SINK=(fakesink sync=false)
    DRAW=()
fi

# The element refuses a malformed region with a warning and keeps the whole
# frame; check it here so that a typo stops the script instead.
if ! [[ "$REGION" =~ ^[0-9.]+,[0-9.]+,[0-9.]+,[0-9.]+$ ]]; then
    echo "scan-region.sh: '$REGION' is not X,Y,W,H (fractions of the frame, e.g. 0.25,0.25,0.5,0.5)" >&2
    exit 2
fi

gst_launch -m -e \
    filesrc location="$IN" ! decodebin ! videoconvert \
    ! rlbarcode active-region="$REGION" region-only=true "${DRAW[@]}" "$@" \
    ! "${SINK[@]}" \
    | barcode_messages
