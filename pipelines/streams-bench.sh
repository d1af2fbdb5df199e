#!/usr/bin/env bash
# Live 1080p30 streams through N rlbarcode elements of one process, beside
# zbar and zxing: the largest N that every stream holds in real time
# (fleet/bench/streams_per_process.py; docs/FLEET.md#measured).
#
# Usage: pipelines/streams-bench.sh [OPTIONS...]
#   e.g. pipelines/streams-bench.sh --streams 8 --seconds 60 --scene demo --frames 0
#        pipelines/streams-bench.sh --streams 4 --seconds 60 --scene photos --frames 0
# Environment: GST_PLUGIN_PATH (default: the repository's .build/release).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

require_rlbarcode
exec /usr/bin/python3 "$ROOT/fleet/bench/streams_per_process.py" "$@"
