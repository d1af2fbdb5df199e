#!/usr/bin/env bash
# Prints the `swift build` options for the CPU the release build targets,
# one per line (none for the baseline), for the scripts and the Meson build:
#   swift build -c release $(scripts/swift-flags.sh)
#
# RLBARCODE_CPU (default host):
#   host       the x86-64 level of this machine (from /proc/cpuinfo, where
#              SSE3 is "pni" and LZCNT "abm"): x86-64-v3 when it has AVX2,
#              FMA, BMI1/2, F16C, LZCNT and MOVBE (and the system saves AVX
#              state), else x86-64-v2 when it has SSE4.2, SSSE3, POPCNT and
#              CMPXCHG16B, else the baseline
#   x86-64-v3  Haswell's instruction set (Intel 2013, AMD 2015 and later)
#   x86-64-v2  Nehalem's (Intel 2008, AMD 2011 and later)
#   baseline   any x86-64 CPU (and any other architecture)
# A plugin or tool built for a level that the CPU running it lacks refuses
# to start, with a message (Sources/CGStreamer/cpu.h). Other architectures
# than x86-64 always get the baseline.
set -euo pipefail
level="${RLBARCODE_CPU:-host}"
if [ "$(uname -m)" != x86_64 ]; then
    exit 0
fi
case "$level" in
    host)
        flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2) "
        has() { for f in "$@"; do case "$flags" in *" $f "*) ;; *) return 1 ;; esac; done; }
        if has pni ssse3 sse4_1 sse4_2 popcnt cx16; then
            if has avx avx2 fma bmi1 bmi2 f16c abm movbe xsave; then level=x86-64-v3; else level=x86-64-v2; fi
        else
            level=baseline
        fi
        ;;
    x86-64-v3 | x86-64-v2 | baseline) ;;
    *)
        echo "swift-flags.sh: unknown RLBARCODE_CPU '$level' (host, x86-64-v3, x86-64-v2 or baseline)" >&2
        exit 2
        ;;
esac
# Swift's compiler names the levels by their first CPUs.
case "$level" in
    x86-64-v3) printf '%s\n' -Xswiftc -target-cpu -Xswiftc haswell ;;
    x86-64-v2) printf '%s\n' -Xswiftc -target-cpu -Xswiftc nehalem ;;
esac
