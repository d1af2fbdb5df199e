#!/usr/bin/env bash
# Sets up the machine (scripts/setup.sh), builds the release plugin and
# command-line tool once, and runs every test with `swift test`:
#   RLBarcodeTests  the decoding engine
#   ElementTests    the plugin in real pipelines (the debug build's plugin)
#   CLITests        rlbarcode-scan and the pipelines/ scripts (the release build)
#   CorpusTests     the release build scored on ../shared/corpus with
#                   ../shared/tools/corpus_eval.py (skipped when that is absent)
# and, when no options are given, a 5-second run of every fuzz target and a
# ThreadSanitizer run of the tests that change properties while frames flow
# (scripts/tsan.sh).
# Exits non-zero when a build or a test fails, or when the run left files
# that git shows (untracked or changed) which were not there before.
#
# Usage: scripts/test.sh [swift test options]   e.g. scripts/test.sh --filter CorpusTests
# Environment: RLBARCODE_SKIP_SETUP=1 skips the package installation.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${RLBARCODE_SKIP_SETUP:-0}" != 1 ]; then
    bash scripts/setup.sh
fi

# What git shows before the tests run: the tests write only to temporary
# folders and the ignored build folders, so this must not change.
tree_before=$(git status --porcelain --untracked-files=all 2>/dev/null || true)

# For this machine's x86-64 level (RLBARCODE_CPU, see scripts/swift-flags.sh).
cpu_flags=$(bash scripts/swift-flags.sh)
# shellcheck disable=SC2086 # one option a word
swift build -c release --disable-local-rpath $cpu_flags
# rlbarcode-scan and libgstrlbarcode.so of the release build, for the
# command-line, pipeline and corpus tests.
export RLBARCODE_RELEASE_BIN="$PWD/.build/release"
# The element tests load the plugin that `swift test` builds next to the test
# bundle (the debug build).
export RLBARCODE_PLUGIN_DIR="$PWD/.build/debug"

# When every test is asked for: the style check first (swift format with the
# checked-in .swift-format; `swift format -i -r Sources Tests Package.swift`
# fixes what it finds), then the size lint (no Swift file in Sources over 800
# lines, no function over 120, but for the exceptions listed in the script)
# and that lint's own tests.
if [ $# -eq 0 ]; then
    swift format lint --strict -r Sources Tests Package.swift
    /usr/bin/python3 scripts/check-sizes.py
    /usr/bin/python3 -B scripts/test_check_sizes.py
fi

# When every test is asked for: a smoke run of each fuzz target (5 s each,
# see scripts/fuzz.sh), which fails on any crash, leak or hang.
if [ $# -eq 0 ]; then
    bash scripts/fuzz.sh 5
    bash scripts/tsan.sh
fi

# The fleet service and archive job against real mosquitto brokers and Dask
# clusters (fleet/tests, pytest), with the release plugin; a failure stops here.
if [ $# -eq 0 ]; then
    /usr/bin/python3 -m pytest -q -p no:cacheprovider fleet/tests
fi

# Every test is an XCTest case; the summary that closes the output is XCTest's.
swift test --disable-swift-testing "$@"

tree_after=$(git status --porcelain --untracked-files=all 2>/dev/null || true)
if [ "$tree_after" != "$tree_before" ]; then
    echo "test.sh: the tests changed what git shows (write scratch files to a temporary folder):" >&2
    diff <(printf '%s\n' "$tree_before") <(printf '%s\n' "$tree_after") | sed -n 's/^> /  /p' >&2
    exit 1
fi
