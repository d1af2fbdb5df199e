#!/usr/bin/env bash
# Sets up, builds the release plugin and CLI once, and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build -c release --disable-local-rpath
export RLBARCODE_RELEASE_BIN="$PWD/.build/release"
swift test
