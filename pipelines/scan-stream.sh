#!/usr/bin/env bash
# Scans a network stream (RTSP, HTTP or any other URI GStreamer can play)
# with the rlbarcode element and prints a line per `barcode` message:
#   uridecodebin uri=URI ! videoconvert ! rlbarcode ! fakesink
#
# Usage: pipelines/scan-stream.sh URI [PROPERTY=VALUE...]
#   e.g. pipelines/scan-stream.sh rtsp://192.168.1.20:8554/stream symbologies=qr-code
#        pipelines/scan-stream.sh http://127.0.0.1:8000/demo.mp4
# Environment:
#   DURATION     stop after this many seconds (a live stream otherwise runs until Ctrl-C)
#   LATENCY      RTSP jitter-buffer latency in ms (default 200)
#   GST_PLUGIN_PATH        default: the repository's .build/release
#   RLBARCODE_RAW_MESSAGES=1 to print the whole messages
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

usage_or_go 1 15 "$@"
URI="$1"; shift
case "$URI" in
    *://*) ;;
    *) echo "scan-stream.sh: '$URI' is not a URI (rtsp://..., http://...; for a file use scan-file.sh)" >&2; exit 2 ;;
esac
require_rlbarcode

# With DURATION, gst-launch gets SIGINT after that time, as on Ctrl-C, and
# stops. (No -e: an EOS sent into rtspsrc does not come out at the sink.)
LIMIT=()
[ -n "${DURATION:-}" ] && LIMIT=(timeout --foreground -s INT "$DURATION")
# uridecodebin picks rtspsrc, souphttpsrc, ... by the URI's scheme; the
# source-setup hook is not reachable from gst-launch, so RTSP latency is set
# through the rtspsrc child by name.
SRC=(uridecodebin uri="$URI")
case "$URI" in
    rtsp://*|rtsps://*|rtspt://*) SRC=(rtspsrc location="$URI" latency="${LATENCY:-200}" ! decodebin) ;;
esac

status=0
"${LIMIT[@]}" stdbuf -oL gst-launch-1.0 -m \
    "${SRC[@]}" ! videoconvert \
    ! rlbarcode "$@" ! fakesink sync=false \
    | barcode_messages || status=$?
# 124: DURATION ran out, which is how a live stream is meant to end here.
[ "$status" = 124 ] && status=0
exit "$status"
