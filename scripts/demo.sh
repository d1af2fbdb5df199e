#!/usr/bin/env bash
# Sets up the machine (scripts/setup.sh), builds the release plugin and
# command-line tool once, then runs the demo: pipelines/demo.sh plays
# pipelines/media/demo.mp4 through rlbarcode, prints each code it reports and
# writes an annotated copy.
#
# Usage: scripts/demo.sh [OUTPUT.mp4]     (default /tmp/rlbarcode-demo.mp4)
# Environment: RLBARCODE_SKIP_SETUP=1 skips the package installation.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${RLBARCODE_SKIP_SETUP:-0}" != 1 ]; then
    bash scripts/setup.sh
fi
# For this machine's x86-64 level (RLBARCODE_CPU, see scripts/swift-flags.sh).
cpu_flags=$(bash scripts/swift-flags.sh)
# shellcheck disable=SC2086 # one option a word
swift build -c release --disable-local-rpath $cpu_flags
export GST_PLUGIN_PATH="$PWD/.build/release"
pipelines/demo.sh "$@"
echo
echo "The same clip through the command-line tool (.build/release/rlbarcode-scan):"
.build/release/rlbarcode-scan --no-progress pipelines/media/demo.mp4
