#!/usr/bin/env bash
# Scans a video with the codes outlined and labelled with their decoded text
# (draw=true draw-labels=true), stamps the time in the corner, and saves a
# PNG snapshot of the labelled video every few seconds; prints a line per
# `barcode` message.
#   ... ! rlbarcode draw=true draw-labels=true ! timeoverlay ! videorate ! pngenc ! multifilesink
#
# Usage: pipelines/overlay-labels.sh IN OUTDIR [PROPERTY=VALUE...]
#   writes OUTDIR/frame-00000.png, frame-00001.png, ...
#   e.g. pipelines/overlay-labels.sh media/demo.mp4 /tmp/labels outline-color=0xFFFF8000
# Environment: EVERY  seconds between snapshots (default 1),
#   GST_PLUGIN_PATH (default: the repository's .build/release).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

usage_or_go 2 12 "$@"
IN="$1"; OUTDIR="$2"; shift 2
[ -r "$IN" ] || { echo "overlay-labels.sh: cannot read $IN" >&2; exit 1; }
EVERY="${EVERY:-1}"
[[ "$EVERY" =~ ^[1-9][0-9]*$ ]] || { echo "overlay-labels.sh: EVERY must be a whole number of seconds" >&2; exit 2; }
require_rlbarcode
mkdir -p "$OUTDIR"

# Every frame goes through rlbarcode (so codes are followed from frame to
# frame); only the snapshots are thinned out, after it.
gst_launch -m -e \
    filesrc location="$IN" ! decodebin ! videoconvert \
    ! rlbarcode draw=true draw-labels=true "$@" \
    ! timeoverlay halignment=right valignment=bottom font-desc="Sans 16" \
    ! videorate drop-only=true ! "video/x-raw,framerate=1/$EVERY" \
    ! videoconvert ! pngenc ! multifilesink location="$OUTDIR/frame-%05d.png" \
    | barcode_messages
echo "overlay-labels.sh: wrote $(find "$OUTDIR" -maxdepth 1 -name 'frame-*.png' | wc -l) snapshot(s) to $OUTDIR" >&2
