#!/usr/bin/env bash
# Scans a video (or picture) file with the rlbarcode element, as fast as it
# decodes, and prints a line per `barcode` message.
#
# Usage: pipelines/scan-file.sh FILE [PROPERTY=VALUE...]
#   e.g. pipelines/scan-file.sh clip.mp4 symbologies=ean-13 report=every-frame
# Environment: GST_PLUGIN_PATH (default: the repository's .build/release),
#   RLBARCODE_RAW_MESSAGES=1 to print the whole messages.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

usage_or_go 1 8 "$@"
IN="$1"; shift
[ -r "$IN" ] || { echo "scan-file.sh: cannot read $IN" >&2; exit 1; }
require_rlbarcode

gst_launch -m \
    filesrc location="$IN" ! decodebin ! videoconvert \
    ! rlbarcode "$@" ! fakesink sync=false \
    | barcode_messages
