#!/usr/bin/env bash
# Builds the libFuzzer targets of the engine (rlbarcode-fuzz) and of the
# element (rlbarcode-fuzz-element) and runs each for a given time, one
# after the other.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# SECONDS (default 60) is the time per target; `scripts/fuzz.sh 5` is a
# smoke run. RUNS=N in the environment also stops a target after N
# executions (`RUNS=10000000 scripts/fuzz.sh 3600`: ten million or an hour,
# whichever comes first). TARGETs default to all of them: the engine's
# stages (Sources/RLBarcodeFuzzing/FuzzEntryPoints.swift), `scanner-video`
# (Sources/rlbarcode-fuzz/ScannerVideoTarget.swift) and `element-frames`,
# `element-props` (Sources/rlbarcode-fuzz-element). Prints per target the
# executed inputs and whether it crashed; exits non-zero when any target
# crashed, leaked, ran out of memory or hung on an input. `scanner-video`
# also counts the scans that ran past their time limit by more than
# RLBARCODE_FUZZ_MARGIN_MS (default 250) and keeps those inputs with the
# artifacts; OVERRUN_FAILS=1 makes them fail the run too.
#
# FUZZ_BUILD picks the build:
#   checked (default)  .build-fuzz/: debug configuration with -O, so that
#                      the bounds and overflow checks stay on
#   release            .build-fuzz-release/: the release configuration
#                      (the engine with -Ounchecked, as it ships, for the
#                      CPU of scripts/swift-flags.sh), with ASan as well
# Both link -sanitize=fuzzer,address. Each run grows the corpus in
# SCRATCH/corpus/TARGET, seeded by scripts/fuzz-seeds.py with symbols zint
# makes at fuzz time; findings go to SCRATCH/artifacts/TARGET/. Replay one
# with the normal build:
#   RLBARCODE_FUZZ_TARGET=TARGET swift run rlbarcode-fuzz FILE
#   RLBARCODE_FUZZ_TARGET=element-frames swift run rlbarcode-fuzz-element FILE
# and keep it in Tests/ElementTests/Fuzz/Inputs/TARGET/ (replayed by
# Tests/ElementTests/Fuzz/FuzzReplayTests.swift).
set -euo pipefail

cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
all=(qr-matrix qr-bitstream dm-matrix dm-bitstream aztec-matrix aztec-bitstream
     pdf417-codewords pdf417-bitstream micropdf417-codewords linear text scanner scanner-video
     element-frames element-props)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")

case ${FUZZ_BUILD:-checked} in
    checked) scratch=.build-fuzz; config=(-c debug); optimise=(-Xswiftc -O) ;;
    release) scratch=.build-fuzz-release; config=(-c release --disable-local-rpath); config+=($(bash scripts/swift-flags.sh)); optimise=() ;;
    *) echo "fuzz.sh: FUZZ_BUILD is checked or release" >&2; exit 2 ;;
esac
need_element=0
for t in "${targets[@]}"; do case $t in element-*) need_element=1 ;; esac; done
products=(rlbarcode-fuzz)
[ $need_element -eq 1 ] && products+=(rlbarcode-fuzz-element)
start=$(date +%s)
mkdir -p "$scratch/logs"
for product in "${products[@]}"; do
    if ! swift build "${config[@]}" --product "$product" --scratch-path "$scratch" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -DRLBARCODE_FUZZ "${optimise[@]}" >"$scratch/logs/build-$product.log" 2>&1; then
        grep -v "Cannot export local symbol" "$scratch/logs/build-$product.log" >&2
        echo "fuzz.sh: the fuzz build of $product failed" >&2
        exit 1
    fi
done
bin=$(swift build "${config[@]}" --scratch-path "$scratch" --show-bin-path)
echo "fuzz build (${FUZZ_BUILD:-checked}): $(( $(date +%s) - start )) s"

seeds="$scratch/seeds"
rm -rf "$seeds"
python3 scripts/fuzz-seeds.py "$seeds"

# The longest input of a target: a 255x255 module matrix, a 256x256
# picture with some stride, a line of 8192 pixels, 928 PDF417 codewords.
max_len() {
    case $1 in
        *-matrix) echo 8200 ;;
        scanner) echo 70000 ;;
        scanner-video | element-*) echo 4096 ;;
        linear) echo 8200 ;;
        *) echo 2048 ;;
    esac
}

# libFuzzer's limit per input, seconds (time on the clock): scanner-video's
# scans past their own limit are kept as overruns (counted below) unless
# they pass this; the element's inputs have a CPU-time budget of their own
# (5 s), and this catches one that waits for good, with room for a fuzzer
# at low priority that waits for a core.
timeout_of() {
    case $1 in
        scanner-video | element-*) echo 60 ;;
        *) echo 10 ;;
    esac
}

# Leak checks per input: off for the element's targets, where LeakSanitizer
# takes the element and the GLib type tables that live as long as the
# process for leaks (scripts/soak.py measures the element's memory).
leaks_of() {
    case $1 in
        element-*) echo 0 ;;
        *) echo 1 ;;
    esac
}

failed=0
printf '\n%-18s %12s %8s  %s\n' target executed seconds status
for t in "${targets[@]}"; do
    corpus="$scratch/corpus/$t"
    artifacts="$scratch/artifacts/$t"
    log="$scratch/logs/$t.log"
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
    touch "$log.start"
    [ -d "$seeds/$t" ] && cp -n "$seeds/$t"/* "$corpus"/ 2>/dev/null || true
    fuzzer=$bin/rlbarcode-fuzz
    case $t in element-*) fuzzer=$bin/rlbarcode-fuzz-element ;; esac
    t0=$(date +%s)
    set +e
    RLBARCODE_FUZZ_TARGET=$t RLBARCODE_FUZZ_OVERRUN_DIR=$artifacts SWIFT_BACKTRACE=enable=no \
        ASAN_OPTIONS=detect_leaks="$(leaks_of "$t")":allocator_may_return_null=0 \
        "$fuzzer" "$corpus" -max_total_time="$seconds" -runs="${RUNS:--1}" -print_final_stats=1 -detect_leaks="$(leaks_of "$t")" \
        -timeout="$(timeout_of "$t")" -rss_limit_mb=2048 -malloc_limit_mb=512 -max_len="$(max_len "$t")" \
        -artifact_prefix="$artifacts/" -close_fd_mask=1 >"$log" 2>&1
    rc=$?
    set -e
    executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    status=ok
    if [ $rc -ne 0 ]; then
        failed=1
        kind=$(grep -Eo 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer): [a-z-]+' "$log" | head -1)
        [ -z "$kind" ] && kind=$(grep -Eo 'Fatal error|deadly signal|out-of-memory|timeout' "$log" | head -1)
        status="FAILED (exit $rc${kind:+, $kind}; log $log, input in $artifacts/)"
    fi
    overruns=$(find "$artifacts" -name 'overrun-*' -newer "$log.start" 2>/dev/null | wc -l)
    if [ "$overruns" -gt 0 ]; then
        status="$status, $overruns scans over their time limit (inputs in $artifacts/overrun-*)"
        [ "${OVERRUN_FAILS:-0}" = 1 ] && failed=1
    fi
    summary=$(grep -m1 '^scanner-video: [0-9]* inputs' "$log" || true)
    [ -n "$summary" ] && status="$status; ${summary#scanner-video: }"
    printf '%-18s %12s %8s  %s\n' "$t" "${executed:-?}" "$(( $(date +%s) - t0 ))" "$status"
done

if [ $failed -ne 0 ]; then
    echo "fuzz.sh: a target failed" >&2
    exit 1
fi
echo "fuzz.sh: no crash, leak, excessive allocation or hang"
