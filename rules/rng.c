/*
 * rng.c — seeded (xoshiro256** via splitmix64), source-backed and scripted random sources.
 *
 * References: Blackman & Vigna, "Scrambled linear pseudorandom number generators" and their
 * public-domain xoshiro256starstar.c / splitmix64.c (https://prng.di.unimi.it/). The unit test
 * checks this transcription against the published output vectors.
 */
#include "rng.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"

typedef enum rng_kind {
    RNG_SEEDED,
    RNG_SOURCE,
    RNG_SCRIPTED,
} rng_kind;

struct rules_rng {
    rng_kind kind;
    uint64_t s[4];                 /* RNG_SEEDED: xoshiro256** state */
    uint64_t (*next64)(void *ctx); /* RNG_SOURCE */
    void *ctx;                     /* RNG_SOURCE, borrowed */
    int *faces;                    /* RNG_SCRIPTED, owned */
    size_t nfaces;
    size_t pos;
    int exhausted;
};

static uint64_t splitmix64_next(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t xoshiro256ss_next(uint64_t s[4])
{
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;

    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* One raw 64-bit draw; only for the seeded and source kinds. */
static uint64_t raw64(rules_rng *rng)
{
    if (rng->kind == RNG_SOURCE)
        return rng->next64(rng->ctx);
    return xoshiro256ss_next(rng->s);
}

/* The next scripted face, or 0 (and the flag set) when the script is used up. */
static int next_face(rules_rng *rng)
{
    if (rng->pos >= rng->nfaces) {
        rng->exhausted = 1;
        return 0;
    }
    return rng->faces[rng->pos++];
}

static rules_rng *rng_new(rng_kind kind)
{
    rules_rng *rng = xcalloc(1, sizeof *rng);
    rng->kind = kind;
    return rng;
}

rules_rng *rules_rng_seeded(uint64_t seed)
{
    rules_rng *rng = rng_new(RNG_SEEDED);
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix64_next(&x);
    return rng;
}

rules_rng *rules_rng_from_source(uint64_t (*next64)(void *ctx), void *ctx)
{
    rules_rng *rng = rng_new(RNG_SOURCE);
    rng->next64 = next64;
    rng->ctx = ctx;
    return rng;
}

rules_rng *rules_rng_scripted(const int *faces, size_t n)
{
    rules_rng *rng = rng_new(RNG_SCRIPTED);
    rng->faces = xmalloc(n * sizeof *rng->faces);
    if (n > 0)
        memcpy(rng->faces, faces, n * sizeof *rng->faces);
    rng->nfaces = n;
    return rng;
}

/*
 * Unbiased reduction to 0..n-1: 2^64 mod n of the 2^64 possible draws would make the low
 * results more likely under plain modulo, so draws below that threshold are rejected. The
 * accepted range [threshold, 2^64) has a length divisible by n. For every n a draw is rejected
 * with probability < n / 2^64, so for dice the loop practically never repeats.
 */
uint64_t rules_rng_below(rules_rng *rng, uint64_t n)
{
    if (n == 0)
        return 0;
    if (rng->kind == RNG_SCRIPTED) {
        int f = next_face(rng);
        if (f < 1 || (uint64_t)f > n) {
            rng->exhausted = 1;
            return 0;
        }
        return (uint64_t)f - 1;
    }
    const uint64_t threshold = (0 - n) % n; /* == 2^64 mod n */
    uint64_t x;
    do {
        x = raw64(rng);
    } while (x < threshold);
    return x % n;
}

int rules_rng_die(rules_rng *rng, int sides)
{
    if (sides < 1)
        return 1;
    if (rng->kind == RNG_SCRIPTED) {
        int f = next_face(rng);
        if (f < 1 || f > sides) {
            rng->exhausted = 1;
            return 1;
        }
        return f;
    }
    return (int)rules_rng_below(rng, (uint64_t)sides) + 1;
}

int rules_rng_exhausted(const rules_rng *rng)
{
    return rng->kind == RNG_SCRIPTED && rng->exhausted;
}

void rules_rng_destroy(rules_rng *rng)
{
    if (!rng)
        return;
    free(rng->faces);
    free(rng);
}
