/*
 * joinlimit.h — failed join attempts, limited with growing delays (issue 12: join-code guessing).
 *
 * A join code has 40 bits; a limit per connection alone let one client try ~5 500 codes a second.
 * The limiter keeps, per key (a remote address, or the server-wide key for every campaign), the
 * failures seen recently. The first `free_fails` failures of a key cost nothing; after that every
 * failure makes the key wait before its next attempt, twice as long each time (base_ms, 2×, 4×…,
 * at most max_ms). A key with no failure for `forget_ms` is forgotten, and a successful join
 * forgets its address. Pure bookkeeping: the caller passes the clock, so tests drive it directly.
 *
 * Not thread-safe (one limiter on the loop's thread).
 */
#ifndef TABLED_JOINLIMIT_H
#define TABLED_JOINLIMIT_H

#include <stdint.h>

typedef struct joinlimit joinlimit;

typedef struct joinlimit_opts {
    int free_fails;    /* failures before the first delay */
    int64_t base_ms;   /* the first delay */
    int64_t max_ms;    /* the longest delay */
    int64_t forget_ms; /* quiet time after which a key's failures are forgotten */
    int max_keys;      /* keys remembered at most; the stalest is dropped first */
} joinlimit_opts;

/* A new limiter (caller owns it: joinlimit_destroy). opts is copied. */
joinlimit *joinlimit_create(const joinlimit_opts *opts);
void joinlimit_destroy(joinlimit *jl);

/* Milliseconds `key` must still wait before its next attempt at time now_ms (0: it may try). */
int64_t joinlimit_wait_ms(joinlimit *jl, const char *key, int64_t now_ms);

/* Failures of `key` not yet forgotten at now_ms (0 for a key with none). */
int joinlimit_fails(joinlimit *jl, const char *key, int64_t now_ms);

/* Records a failed attempt of `key` at now_ms. */
void joinlimit_fail(joinlimit *jl, const char *key, int64_t now_ms);

/* Forgets `key` (a successful join from that address). */
void joinlimit_forget(joinlimit *jl, const char *key);

#endif
