#!/usr/bin/env bash
# Live preview from a camera with the codes rlbarcode finds outlined:
#   v4l2src ! videoconvert ! rlbarcode draw=true ! videoconvert ! autovideosink
# and a line per `barcode` message on the terminal.
#
# Usage: pipelines/webcam-preview.sh [--test | --file CLIP] [PROPERTY=VALUE...]
#   --test       use a live test pattern (videotestsrc is-live=true) instead of a camera
#   --file CLIP  play a video file in real time as if it came from a camera
# Environment:
#   DEVICE       the camera (default /dev/video0)
#   NUM_BUFFERS  stop after this many frames (default: run until Ctrl-C)
#   SINK         the video sink (default autovideosink; fakesink when there is no display)
#   RLBARCODE_SOURCE=test  same as --test
#   GST_PLUGIN_PATH        default: the repository's .build/release
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

MODE="${RLBARCODE_SOURCE:-camera}"
CLIP=""
case "${1:-}" in
    --test) MODE=test; shift ;;
    --file) MODE=file; CLIP="${2:?--file needs a CLIP}"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
require_rlbarcode

NB=()
[ -n "${NUM_BUFFERS:-}" ] && NB=(num-buffers="$NUM_BUFFERS")
case "$MODE" in
    test) SRC=(videotestsrc is-live=true pattern=smpte "${NB[@]}" ! video/x-raw,width=1280,height=720,framerate=30/1) ;;
    file) SRC=(filesrc location="$CLIP" ! decodebin ! videoconvert)
          [ -n "${NUM_BUFFERS:-}" ] && SRC+=(! identity eos-after="$NUM_BUFFERS") ;;
    *)    DEV="${DEVICE:-/dev/video0}"
          if [ ! -e "$DEV" ]; then
              echo "webcam-preview.sh: no camera at $DEV (set DEVICE, or use --test or --file CLIP)" >&2
              exit 1
          fi
          SRC=(v4l2src device="$DEV" "${NB[@]}") ;;
esac

SINK_NAME="${SINK:-autovideosink}"
if [ -z "${SINK:-}" ] && [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    echo "webcam-preview.sh: no display; showing nothing (fakesink). Set SINK to choose a sink." >&2
    SINK_NAME=fakesink
fi
# A file plays at its own pace (sync=true) so that it behaves like a camera.
# shellcheck disable=SC2206  # SINK may carry properties
SINK_WORDS=($SINK_NAME sync=true)

gst_launch -m -e \
    "${SRC[@]}" ! videoconvert ! rlbarcode draw=true "$@" \
    ! videoconvert ! "${SINK_WORDS[@]}" \
    | barcode_messages
