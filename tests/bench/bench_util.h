/*
 * bench_util.h — the small helpers the benchmarks share (bench_engine.c, bench_curves.c,
 * bench_load.c).
 */
#ifndef TABLED_BENCH_UTIL_H
#define TABLED_BENCH_UTIL_H

#include <string.h>
#include <time.h>

/* Seconds on clock id (CLOCK_MONOTONIC for wall time, CLOCK_PROCESS_CPUTIME_ID for CPU). */
static inline double bench_clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Whether name is in the comma list only (NULL: every name). */
static inline int bench_wants(const char *only, const char *name)
{
    if (!only)
        return 1;
    size_t n = strlen(name);
    for (const char *p = only; (p = strstr(p, name)); p += n)
        if ((p == only || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

/* n base64 characters from a fixed sequence into dst (not terminated): the picture of a scene map
 * in the benchmarks (issue 30), the same bytes in every run. */
static inline void bench_base64_fill(char *dst, size_t n)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    unsigned x = 12345;
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        dst[i] = b64[(x >> 16) & 63];
    }
}

#endif
