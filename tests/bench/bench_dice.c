/*
 * bench_dice.c — how fast rules/dice parses once and rolls many times, result JSON included.
 *
 * Not a test: it asserts nothing and is never run by `meson test` (see README.md). Usage:
 *     bench_dice [ITERATIONS]       default: each expression's own count below
 * Prints one line per expression:
 *     dice <expr>: <N> rolls in <s> s = <rolls/s> rolls/s
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "dice.h"

static const struct {
    const char *expr;
    long iterations;
} cases[] = {
    {"d20+5", 1000000},
    {"4d6kh3+2", 1000000},
    {"100d1000", 20000},
};

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    long override = 0;
    if (argc > 1) {
        char *end;
        override = strtol(argv[1], &end, 10);
        if (*end != '\0' || override < 1) {
            fprintf(stderr, "usage: %s [ITERATIONS]\n", argv[0]);
            return 2;
        }
    }

    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        tb_err err;
        rules_dice_expr *e;
        if (rules_dice_parse(cases[c].expr, &e, &err)) {
            fprintf(stderr, "bench_dice: %s: %s\n", cases[c].expr, err.msg);
            return 1;
        }
        rules_rng *rng = rules_rng_seeded(12345);
        long n = override ? override : cases[c].iterations;
        long long checksum = 0; /* keeps the rolls observable */

        double t0 = now_seconds();
        for (long i = 0; i < n; i++) {
            json_t *r = rules_dice_roll(e, rng);
            checksum += json_integer_value(json_object_get(r, "total"));
            json_decref(r);
        }
        double secs = now_seconds() - t0;

        printf("dice %s: %ld rolls in %.3f s = %.0f rolls/s\n", cases[c].expr, n, secs,
               secs > 0 ? (double)n / secs : 0.0);
        if (checksum == -1)
            printf("(checksum %lld)\n", checksum);
        rules_rng_destroy(rng);
        rules_dice_free(e);
    }
    return 0;
}
