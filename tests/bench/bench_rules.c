/*
 * bench_rules.c — rolls per second of every rule-system check through rules_check_run_with
 * (parameter validation, the roll, and building/freeing the JSON result: the path of
 * `tabled roll` and of the table op roll.check), plus the plain-C paths the encounter modules use.
 *
 * Not a test: it asserts nothing and is never run by `meson test`. Usage:
 *     bench_rules [ITERATIONS]       default 200000 per check
 * Prints one line per check:
 *     <system> <check> <params>: <N> rolls in <s> s = <rolls/s> rolls/s
 * Checks of systems not listed below are run with each required integer parameter at 1 (or its
 * minimum) and strings as "1d6".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cot/cot.h"
#include "heimr/heimr.h"
#include "rng.h"
#include "system.h"

static const struct {
    const char *system, *check, *params;
} cases[] = {
    {"dice", "dice", "{\"expr\":\"4d6kh3+2\"}"},
    {"cot", "pool", "{\"skill\":3,\"ability\":2}"},
    {"cot", "pool", "{\"skill\":10,\"ability\":10,\"bonus\":20}"},
    {"cot", "opposed", "{\"skill\":3,\"ability\":2,\"opp_skill\":2,\"opp_ability\":3}"},
    {"heimr", "challenge", "{\"c\":3,\"p\":2,\"cr\":10,\"fatigue\":4}"},
    {"heimr", "challenge", "{\"c\":-20,\"p\":2,\"cr\":10,\"willpower\":3}"},
    {"heimr", "opposed", "{\"c\":2,\"p\":1,\"opp_c\":1,\"opp_p\":2}"},
    {"heimr", "initiative", "{\"dex\":2,\"willpower\":3}"},
};

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void bench(const rules_system *s, const rules_check *c, json_t *params, long n)
{
    rules_rng *rng = rules_rng_seeded(12345);
    tb_err err = {0};
    double t0 = now_seconds();
    for (long i = 0; i < n; i++) {
        json_t *r;
        if (rules_check_run_with(s, c, params, rng, &r, &err)) {
            printf("%s %s: error: %s\n", s->id, c->name, err.msg);
            rules_rng_destroy(rng);
            return;
        }
        json_decref(r);
    }
    double dt = now_seconds() - t0;
    char *ptext = json_dumps(params, JSON_COMPACT);
    printf("%s %s %s: %ld rolls in %.3f s = %.0f rolls/s\n", s->id, c->name, ptext, n, dt,
           (double)n / dt);
    free(ptext);
    rules_rng_destroy(rng);
}

static int listed(const char *system)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (strcmp(cases[i].system, system) == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    long n = 200000;
    if (argc > 1) {
        char *end;
        n = strtol(argv[1], &end, 10);
        if (*end != '\0' || n < 1) {
            fprintf(stderr, "usage: %s [ITERATIONS]\n", argv[0]);
            return 2;
        }
    }
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const rules_system *s = rules_system_find(cases[i].system);
        const rules_check *c = rules_check_find(s, cases[i].check);
        json_t *params = json_loads(cases[i].params, 0, NULL);
        if (s && c && params)
            bench(s, c, params, n);
        json_decref(params);
    }
    const rules_system *s;
    for (size_t i = 0; (s = rules_system_at(i)); i++) {
        if (listed(s->id))
            continue;
        for (const rules_check *c = s->checks; c->name; c++) {
            json_t *params = json_object();
            for (const rules_param *p = c->params; p && p->name; p++) {
                if (!(p->flags & RULES_PARAM_REQUIRED))
                    continue;
                if (p->type == RULES_PARAM_STRING)
                    json_object_set_new(params, p->name, json_string("1d6"));
                else
                    json_object_set_new(params, p->name,
                                        json_integer(p->min <= 1 && 1 <= p->max ? 1 : p->min));
            }
            bench(s, c, params, n);
            json_decref(params);
        }
    }

    /* the plain-C paths (no JSON) */
    rules_rng *rng = rules_rng_seeded(12345);
    long sink = 0;
    double t0 = now_seconds();
    for (long i = 0; i < n * 10; i++) {
        cot_roll r;
        cot_pool_roll(&(cot_pool_spec){3, 2, 0, 0}, rng, &r, NULL);
        sink += r.total;
    }
    double dt = now_seconds() - t0;
    printf("cot_pool_roll 5k2 (C, no JSON): %ld rolls in %.3f s = %.0f rolls/s\n", n * 10, dt,
           (double)(n * 10) / dt);
    t0 = now_seconds();
    for (long i = 0; i < n * 10; i++) {
        heimr_roll r;
        heimr_challenge_roll(3, 2, rng, &r, NULL);
        sink += r.result;
    }
    dt = now_seconds() - t0;
    printf("heimr_challenge_roll C3 P2 (C, no JSON): %ld rolls in %.3f s = %.0f rolls/s\n", n * 10,
           dt, (double)(n * 10) / dt);
    rules_rng_destroy(rng);
    return sink == 42 ? 1 : 0; /* keep the loops */
}
