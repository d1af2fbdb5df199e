#!/bin/sh
# Builds the rlbarcode GStreamer plugin with SwiftPM and copies it to OUTPUT.
# Run by meson (see meson.build); SwiftPM's own build is incremental, so
# running it on every `meson compile` costs little when nothing changed.
#
# Usage: swiftpm-build.sh SWIFT PACKAGE_PATH SCRATCH_PATH OUTPUT [CPU]
# CPU: the x86-64 level to build for (RLBARCODE_CPU of scripts/swift-flags.sh:
# host, x86-64-v3, x86-64-v2 or baseline; default host).
set -eu
SWIFT="$1"; PACKAGE="$2"; SCRATCH="$3"; OUTPUT="$4"; CPU="${5:-host}"
CPU_FLAGS=$(RLBARCODE_CPU="$CPU" bash "$PACKAGE/scripts/swift-flags.sh")
set -- -c release --disable-local-rpath --package-path "$PACKAGE" --scratch-path "$SCRATCH"
# shellcheck disable=SC2086 # one option a word
"$SWIFT" build "$@" $CPU_FLAGS --product gstrlbarcode
BIN="$("$SWIFT" build "$@" --show-bin-path)"
cp -f "$BIN/libgstrlbarcode.so" "$OUTPUT.tmp"
mv -f "$OUTPUT.tmp" "$OUTPUT"
