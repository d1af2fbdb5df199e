#!/usr/bin/env bash
# ThreadSanitizer run of the element tests that set properties and emit
# action signals from another thread while frames flow.
#
#   scripts/tsan.sh [TEST...]
#
# TESTs are XCTest names (Module.Class/method or Module.Class); the default
# is the tests that change properties while playing and those of frames
# analysed ahead on the element's analysis threads (not the flushing-seek
# test: its filesrc task thread comes from GLib's thread pool, whose
# hand-over is a futex the runtime does not see, so the element's first
# event there reads as racing with the element's creation). The plugin is built
# with `-sanitize=thread` in .build-tsan/ and loaded by the normal debug
# test bundle with the ThreadSanitizer runtime preloaded, so every access
# the plugin makes (its streaming thread, the application's property and
# signal calls) is checked, and GStreamer's locks are seen through the
# runtime's pthread interceptors. Exits non-zero when a test fails or
# ThreadSanitizer reports anything; the reports are in
# .build-tsan/logs/.
set -euo pipefail
cd "$(dirname "$0")/.."

tests=("$@")
[ ${#tests[@]} -eq 0 ] && tests=(
    ElementTests.ElementTests/testPropertyChangesWhilePlayingFromAnotherThread
    ElementTests.HostileInputTests/testGarbageForEveryPropertyWhilePlaying
    ElementTests.SessionTests
    ElementTests.AheadTests/testAheadAndOneAtATimeGiveTheSameFramesMetadataAndMessages
    ElementTests.AheadTests/testEachFrameLeavesWithoutWaitingForTheNext
)

scratch=.build-tsan
mkdir -p "$scratch/logs"
if ! swift build -c debug --product gstrlbarcode --scratch-path "$scratch" --sanitize=thread \
    >"$scratch/logs/build.log" 2>&1; then
    cat "$scratch/logs/build.log" >&2
    echo "tsan.sh: the ThreadSanitizer build of the plugin failed" >&2
    exit 1
fi
swift build --build-tests >"$scratch/logs/build-tests.log" 2>&1 || {
    cat "$scratch/logs/build-tests.log" >&2; echo "tsan.sh: the test build failed" >&2; exit 1; }

toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
runtime=$(ls "$toolchain"/lib/clang/*/lib/linux/libclang_rt.tsan-x86_64.so 2>/dev/null | head -1)
dispatch="$toolchain/lib/swift/linux/libdispatch.so"
if [ -z "$runtime" ] || [ ! -f "$dispatch" ]; then
    echo "tsan.sh: no ThreadSanitizer runtime or libdispatch in $toolchain" >&2
    exit 1
fi
bundle=$(swift build --show-bin-path)/rlbarcodePackageTests.xctest

failed=0
for t in "${tests[@]}"; do
    log="$scratch/logs/$(echo "$t" | tr '/' '_').log"
    set +e
    # In-process plugin loading (a forked gst-plugin-scanner has no
    # ThreadSanitizer runtime) with a registry of its own.
    GST_REGISTRY_FORK=no GST_REGISTRY="$scratch/registry.bin" \
        RLBARCODE_PLUGIN_DIR="$PWD/$scratch/debug" \
        TSAN_OPTIONS="halt_on_error=0 exitcode=66 second_deadlock_stack=1" \
        LD_PRELOAD="$dispatch $runtime" "$bundle" "$t" >"$log" 2>&1
    rc=$?
    set -e
    reports=$(grep -c "WARNING: ThreadSanitizer" "$log" || true)
    executed=$(grep -Eo "Executed [0-9]+ tests?, with [0-9]+ failures?" "$log" | tail -1)
    if [ $rc -ne 0 ] || [ "$reports" -ne 0 ] || [ -z "$executed" ]; then
        failed=1
        echo "$t: FAILED (exit $rc, $reports ThreadSanitizer reports; log $log)"
        # The log stays on the machine: the reports' first lines go to the output.
        grep -A40 "WARNING: ThreadSanitizer" "$log" | head -200 || true
        grep "SUMMARY: ThreadSanitizer" "$log" || true
    else
        echo "$t: ok ($executed, no ThreadSanitizer report)"
    fi
done
[ $failed -eq 0 ] || { echo "tsan.sh: a test failed or ThreadSanitizer reported a race" >&2; exit 1; }
echo "tsan.sh: no ThreadSanitizer report"
