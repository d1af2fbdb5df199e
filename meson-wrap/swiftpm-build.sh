#!/bin/sh
# Builds the rlbarcode GStreamer plugin with SwiftPM and copies it to OUTPUT.
# Run by meson (see meson.build); SwiftPM's own build is incremental, so
# running it on every `meson compile` costs little when nothing changed.
#
# Usage: swiftpm-build.sh SWIFT PACKAGE_PATH SCRATCH_PATH OUTPUT
set -eu
SWIFT="$1"; PACKAGE="$2"; SCRATCH="$3"; OUTPUT="$4"
set -- -c release --disable-local-rpath --package-path "$PACKAGE" --scratch-path "$SCRATCH"
"$SWIFT" build "$@" --product gstrlbarcode
BIN="$("$SWIFT" build "$@" --show-bin-path)"
cp -f "$BIN/libgstrlbarcode.so" "$OUTPUT.tmp"
mv -f "$OUTPUT.tmp" "$OUTPUT"
