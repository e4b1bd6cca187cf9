#include "crc32c.h"

#include <pthread.h>
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <nmmintrin.h>
#elif defined(__aarch64__)
#include <arm_acle.h>
#if defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_CRC32
#define HWCAP_CRC32 (1 << 7)
#endif
#endif
#endif

static uint32_t table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void build_table(void) {
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t crc = n;
        for (int k = 0; k < 8; k++) crc = (crc & 1) ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
        table[0][n] = crc;
    }
    for (uint32_t n = 0; n < 256; n++) {
        for (int k = 1; k < 8; k++) table[k][n] = (table[k - 1][n] >> 8) ^ table[0][table[k - 1][n] & 0xFF];
    }
}

static uint64_t load64(const unsigned char *p) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

uint32_t healthlog_crc32c_table(uint32_t seed, const void *bytes, size_t count) {
    pthread_once(&table_once, build_table);
    const unsigned char *p = bytes;
    uint32_t crc = ~seed;
    while (count >= 8) {
        uint64_t v = load64(p) ^ crc;
        crc = table[7][v & 0xFF] ^ table[6][(v >> 8) & 0xFF] ^ table[5][(v >> 16) & 0xFF] ^ table[4][(v >> 24) & 0xFF]
            ^ table[3][(v >> 32) & 0xFF] ^ table[2][(v >> 40) & 0xFF] ^ table[1][(v >> 48) & 0xFF] ^ table[0][v >> 56];
        p += 8;
        count -= 8;
    }
    while (count--) crc = table[0][(crc ^ *p++) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

#if defined(__x86_64__)

/* The instruction takes three cycles and can start one a cycle, so a long input is taken as
   three runs side by side, each with a CRC of its own, which are then joined: the CRC so far
   is shifted over the run's length of zero bytes (a linear map, applied a byte at a time
   from a table) and the next run's CRC added. */
enum { LONG_RUN = 8192, SHORT_RUN = 256 };
/* The shift tables, computed ahead by tools/crc32c-shifts: built at run time they would cost
   about 63,000 instructions of every process that checks a long input. */
#include "crc32c_shifts.h"

static uint32_t apply_shift(const uint32_t shift[4][256], uint32_t crc) {
    return shift[0][crc & 0xFF] ^ shift[1][(crc >> 8) & 0xFF] ^ shift[2][(crc >> 16) & 0xFF] ^ shift[3][crc >> 24];
}

/* The CRC `crc` continued over three runs of `run` bytes from `*at`, which moves past them. */
__attribute__((target("sse4.2"))) static uint64_t three_runs(uint64_t crc, const unsigned char **at, size_t run, const uint32_t shift[4][256]) {
    const unsigned char *p = *at;
    uint64_t second = 0, third = 0;
    for (const unsigned char *end = p + run; p < end; p += 8) {
        crc = _mm_crc32_u64(crc, load64(p));
        second = _mm_crc32_u64(second, load64(p + run));
        third = _mm_crc32_u64(third, load64(p + 2 * run));
    }
    crc = apply_shift(shift, (uint32_t)crc) ^ second;
    crc = apply_shift(shift, (uint32_t)crc) ^ third;
    *at = p + 2 * run;
    return crc;
}

__attribute__((target("sse4.2"))) static uint32_t crc32c_instruction(uint32_t seed, const void *bytes, size_t count) {
    const unsigned char *p = bytes;
    uint64_t crc = ~seed;
    if (count >= 3 * SHORT_RUN) {
        for (; count >= 3 * LONG_RUN; count -= 3 * LONG_RUN) crc = three_runs(crc, &p, LONG_RUN, shift_long);
        for (; count >= 3 * SHORT_RUN; count -= 3 * SHORT_RUN) crc = three_runs(crc, &p, SHORT_RUN, shift_short);
    }
    while (count >= 8) {
        crc = _mm_crc32_u64(crc, load64(p));
        p += 8;
        count -= 8;
    }
    uint32_t crc32 = (uint32_t)crc;
    while (count--) crc32 = _mm_crc32_u8(crc32, *p++);
    return ~crc32;
}

static int cpu_has_instruction(void) {
    unsigned int eax, ebx, ecx, edx;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_SSE4_2) != 0;
}

#elif defined(__aarch64__)

__attribute__((target("crc"))) static uint32_t crc32c_instruction(uint32_t seed, const void *bytes, size_t count) {
    const unsigned char *p = bytes;
    uint32_t crc = ~seed;
    while (count >= 8) {
        crc = __crc32cd(crc, load64(p));
        p += 8;
        count -= 8;
    }
    while (count--) crc = __crc32cb(crc, *p++);
    return ~crc;
}

static int cpu_has_instruction(void) {
#if defined(__linux__)
    return (getauxval(AT_HWCAP) & HWCAP_CRC32) != 0;
#else
    return 1;
#endif
}

#else

static uint32_t crc32c_instruction(uint32_t seed, const void *bytes, size_t count) {
    return healthlog_crc32c_table(seed, bytes, count);
}

static int cpu_has_instruction(void) { return 0; }

#endif

static int has_instruction;
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;

static void probe(void) { has_instruction = cpu_has_instruction(); }

int healthlog_crc32c_uses_instruction(void) {
    pthread_once(&probe_once, probe);
    return has_instruction;
}

uint32_t healthlog_crc32c(uint32_t seed, const void *bytes, size_t count) {
    return healthlog_crc32c_uses_instruction() ? crc32c_instruction(seed, bytes, count) : healthlog_crc32c_table(seed, bytes, count);
}
