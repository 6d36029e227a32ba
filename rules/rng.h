/*
 * rng.h — the injected random source of rules/.
 *
 * Rule code never calls rand(), reads /dev/urandom or looks at a clock: every die is asked of a
 * rules_rng that the caller owns and passes in. Three kinds exist:
 *
 *   - seeded:   deterministic xoshiro256** whose 256-bit state is filled by splitmix64 from one
 *               64-bit seed (tests, `tabled roll --seed N`). Same seed, same sequence, on every
 *               platform.
 *   - source:   any uniform 64-bit source supplied as a callback, e.g. the server's CSPRNG fed by
 *               getrandom(2). rules/ stays pure because the callback lives outside it.
 *   - scripted: returns a fixed list of die faces in order, so a test can say exactly which faces
 *               a roll sees.
 *
 * Every kind maps its raw output to a range without bias (rejection sampling, see rng.c).
 * An rng is not thread-safe; one owner uses it at a time.
 */
#ifndef TABLED_RULES_RNG_H
#define TABLED_RULES_RNG_H

#include <stddef.h>
#include <stdint.h>

typedef struct rules_rng rules_rng; /* opaque */

/*
 * A deterministic generator: xoshiro256** (Blackman & Vigna) with its state filled by four
 * successive splitmix64 outputs starting from `seed`. Any seed is valid, 0 included.
 * Returns a new rng owned by the caller (rules_rng_destroy); never NULL (aborts on OOM).
 */
rules_rng *rules_rng_seeded(uint64_t seed);

/*
 * A generator over a caller-supplied uniform 64-bit source: each call of next64(ctx) must return
 * 64 independent uniform bits. next64 must not be NULL. ctx is borrowed: it must outlive the rng,
 * and the rng never frees it. Returns a new rng owned by the caller; never NULL.
 */
rules_rng *rules_rng_from_source(uint64_t (*next64)(void *ctx), void *ctx);

/*
 * A scripted rng for tests: rules_rng_die returns faces[0], faces[1], ... in order. The n faces
 * are copied (faces may be NULL when n == 0). Asking for a die past the end of the script, or
 * meeting a scripted face outside 1..sides, returns 1 and sets the exhausted flag (see
 * rules_rng_exhausted). rules_rng_below(rng, n) consumes one face f too and returns f - 1 (so a
 * face is always "the die showing f"); a face outside 1..n gives 0 and sets the flag.
 * Returns a new rng owned by the caller; never NULL.
 */
rules_rng *rules_rng_scripted(const int *faces, size_t n);

/*
 * One die: a uniform integer in 1..sides, without modulo bias. sides must be >= 1; a smaller
 * value returns 1 without consuming randomness. A d1 always returns 1 (it still consumes one
 * draw, so sequences do not depend on the special case).
 */
int rules_rng_die(rules_rng *rng, int sides);

/*
 * A uniform integer in 0..n-1, without modulo bias (draws below 2^64 mod n are rejected and
 * drawn again). n == 0 returns 0 without consuming randomness.
 */
uint64_t rules_rng_below(rules_rng *rng, uint64_t n);

/*
 * Scripted rngs: 1 once a value was asked for past the end of the script, or a scripted face did
 * not fit the die it was asked for (the value returned then was 1 for a die, 0 for _below).
 * The flag is sticky. Seeded and source rngs: always 0.
 */
int rules_rng_exhausted(const rules_rng *rng);

/* Frees rng and everything it owns (not a source's ctx). NULL is a no-op. */
void rules_rng_destroy(rules_rng *rng);

#endif
