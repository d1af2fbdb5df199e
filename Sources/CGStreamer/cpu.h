#ifndef RLBARCODE_CGSTREAMER_CPU_H
#define RLBARCODE_CGSTREAMER_CPU_H
/* Whether this CPU runs what the build was compiled for.
 *
 * scripts/swift-flags.sh builds for the x86-64 level of the machine that
 * builds (RLBARCODE_CPU, default "host"): x86-64-v3 (AVX2, FMA, BMI2) or
 * x86-64-v2 (SSE4.2, POPCNT) when it has them. A plugin or tool so built
 * and then moved to a CPU without them would stop at the first such
 * instruction; the entry points check first and refuse with a message.
 * The level asked for is the compiler's: __AVX2__ or __SSE4_2__ is
 * defined when the build targets such a CPU.
 *
 * Integer code only (the check runs before any instruction of the level). */
#include <stdio.h>
#if defined(__x86_64__)
#include <cpuid.h>

/* The x86-64 micro-architecture level this CPU and system support: 1, 2 or 3. */
static inline unsigned rlbarcode_x86_64_level(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 1;
    const unsigned c1 = c;
    const unsigned v2 = bit_SSE3 | bit_SSSE3 | bit_SSE4_1 | bit_SSE4_2 | bit_POPCNT | bit_CMPXCHG16B;
    if ((c1 & v2) != v2) return 1;
    const unsigned v3 = bit_FMA | bit_MOVBE | bit_F16C | bit_AVX | bit_OSXSAVE;
    if ((c1 & v3) != v3) return 2;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6) != 6) return 2; /* the system saves no AVX state */
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 2;
    if ((b & (bit_AVX2 | bit_BMI | bit_BMI2)) != (bit_AVX2 | bit_BMI | bit_BMI2)) return 2;
    if (!__get_cpuid(0x80000001, &a, &b, &c, &d) || !(c & bit_LZCNT)) return 2;
    return 3;
}
#endif

/* The x86-64 level this build needs (0: none beyond the baseline). */
static inline unsigned rlbarcode_x86_64_level_needed(void) {
#if defined(__x86_64__) && defined(__AVX2__)
    return 3;
#elif defined(__x86_64__) && defined(__SSE4_2__)
    return 2;
#else
    return 0;
#endif
}

/* True when a CPU of x86-64 level `have` runs a build of level `needed`;
 * otherwise prints why on stderr, with `who` first, and returns false. */
static inline int rlbarcode_cpu_runs(const char *who, unsigned needed, unsigned have) {
    if (needed > 1 && have < needed) {
        fprintf(stderr, "%s: this build needs an x86-64-v%u CPU (%s), which this one is not; "
                        "rebuild it with RLBARCODE_CPU=baseline (see README.md, Building for a CPU)\n",
                who, needed, needed == 3 ? "AVX2, FMA, BMI2" : "SSE4.2, POPCNT");
        return 0;
    }
    return 1;
}

/* True when this CPU runs the build (rlbarcode_cpu_runs). */
static inline int rlbarcode_cpu_check(const char *who) {
#if defined(__x86_64__)
    const unsigned needed = rlbarcode_x86_64_level_needed();
    return needed > 1 ? rlbarcode_cpu_runs(who, needed, rlbarcode_x86_64_level()) : 1;
#else
    (void)who;
    return 1;
#endif
}
#endif
