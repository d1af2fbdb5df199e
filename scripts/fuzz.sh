#!/usr/bin/env bash
# Builds the libFuzzer targets of the engine (rlbarcode-fuzz) and runs each
# for a given time, one after the other.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# SECONDS (default 60) is the time per target; `scripts/fuzz.sh 5` is a
# smoke run. RUNS=N in the environment also stops a target after N
# executions (`RUNS=10000000 scripts/fuzz.sh 3600`: ten million or an hour,
# whichever comes first). TARGETs default to all of them (see
# Sources/RLBarcodeFuzzing/FuzzEntryPoints.swift). Prints per target the executed
# inputs and whether it crashed; exits non-zero when any target crashed,
# leaked, ran out of memory or hung on an input.
#
# The build goes to .build-fuzz/ (debug configuration with -O: the
# engine's bounds and overflow checks stay on; the release configuration
# builds it with -Ounchecked). Each run grows the corpus in
# .build-fuzz/corpus/TARGET, seeded by scripts/fuzz-seeds.py with symbols
# zint makes at fuzz time; findings go to .build-fuzz/artifacts/TARGET/.
# Replay one with the normal build:
#   RLBARCODE_FUZZ_TARGET=TARGET swift run rlbarcode-fuzz FILE
set -euo pipefail

cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
all=(qr-matrix qr-bitstream dm-matrix dm-bitstream aztec-matrix aztec-bitstream
     pdf417-codewords pdf417-bitstream micropdf417-codewords linear text scanner)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")

scratch=.build-fuzz
start=$(date +%s)
mkdir -p "$scratch/logs"
if ! swift build -c debug --product rlbarcode-fuzz --scratch-path "$scratch" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DRLBARCODE_FUZZ -Xswiftc -O >"$scratch/logs/build.log" 2>&1; then
    grep -v "Cannot export local symbol" "$scratch/logs/build.log" >&2
    echo "fuzz.sh: the fuzz build failed" >&2
    exit 1
fi
fuzzer=$(swift build -c debug --scratch-path "$scratch" --show-bin-path)/rlbarcode-fuzz
echo "fuzz build: $(( $(date +%s) - start )) s"

seeds="$scratch/seeds"
rm -rf "$seeds"
python3 scripts/fuzz-seeds.py "$seeds"

# The longest input of a target: a 255x255 module matrix, a 256x256
# picture with some stride, a line of 8192 pixels, 928 PDF417 codewords.
max_len() {
    case $1 in
        *-matrix) echo 8200 ;;
        scanner) echo 70000 ;;
        linear) echo 8200 ;;
        *) echo 2048 ;;
    esac
}

failed=0
printf '\n%-18s %12s %8s  %s\n' target executed seconds status
for t in "${targets[@]}"; do
    corpus="$scratch/corpus/$t"
    artifacts="$scratch/artifacts/$t"
    log="$scratch/logs/$t.log"
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
    [ -d "$seeds/$t" ] && cp -n "$seeds/$t"/* "$corpus"/ 2>/dev/null || true
    t0=$(date +%s)
    set +e
    RLBARCODE_FUZZ_TARGET=$t ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0 \
        "$fuzzer" "$corpus" -max_total_time="$seconds" -runs="${RUNS:--1}" -print_final_stats=1 \
        -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 -max_len="$(max_len "$t")" \
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
    printf '%-18s %12s %8s  %s\n' "$t" "${executed:-?}" "$(( $(date +%s) - t0 ))" "$status"
done

if [ $failed -ne 0 ]; then
    echo "fuzz.sh: a target failed" >&2
    exit 1
fi
echo "fuzz.sh: no crash, leak, excessive allocation or hang"
