/*
 * osrand.h — the production random source: bytes from getrandom(2) (the kernel's CSPRNG),
 * buffered. Plugs into rules_rng_from_source (rules/rng.h), which keeps rules/ free of syscalls.
 */
#ifndef TABLED_OSRAND_H
#define TABLED_OSRAND_H

#include <stdint.h>

typedef struct osrand {
    uint8_t buf[256];
    unsigned pos;
} osrand;

/* A uniform 64-bit value. ctx is an osrand (zero-initialized before first use is fine: an empty
 * buffer is refilled). Aborts if getrandom fails, which on Linux ≥ 3.17 it does not. */
uint64_t osrand_next64(void *ctx);

#endif
