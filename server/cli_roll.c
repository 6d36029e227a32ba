/*
 * cli_roll.c — `tabled roll`: argument parsing and printing around rules_check_run_with, so the
 * shell and the table op `roll.check` share one path (same parameter names, same results).
 */
#include "cli_roll.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "err.h"
#include "osrand.h"
#include "rng.h"
#include "system.h"

#define ROLL_MAX_TIMES 1000000

/* ---- parsing ---- */

/* Strict decimal integer: optional sign, digits only, no spaces, within [lo, hi]. */
static int parse_ll(const char *s, long long lo, long long hi, long long *out)
{
    if (!s || !*s)
        return -1;
    const char *p = s;
    if (*p == '-' || *p == '+')
        p++;
    if (!*p)
        return -1;
    for (const char *q = p; *q; q++)
        if (*q < '0' || *q > '9')
            return -1;
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s)
        return -1;
    for (const char *q = s; *q; q++)
        if (*q < '0' || *q > '9')
            return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

static const rules_param *find_param(const rules_check *c, const char *name, size_t len)
{
    for (const rules_param *p = c->params; p && p->name; p++)
        if (strlen(p->name) == len && strncmp(p->name, name, len) == 0)
            return p;
    return NULL;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: tabled roll SYSTEM CHECK [name=value ...] [--seed N] [--times N] "
               "[--json]\n       tabled roll dice EXPR\n\nchecks:\n");
    const rules_system *s;
    for (size_t i = 0; (s = rules_system_at(i)); i++) {
        for (const rules_check *c = s->checks; c && c->name; c++) {
            fprintf(f, "  %s %s", s->id, c->name);
            for (const rules_param *p = c->params; p && p->name; p++) {
                const char *open = (p->flags & RULES_PARAM_REQUIRED) ? "" : "[";
                const char *close = (p->flags & RULES_PARAM_REQUIRED) ? "" : "]";
                if (p->flags & RULES_PARAM_POSITIONAL)
                    fprintf(f, " %s%s%s", open, "EXPR", close);
                else if (p->type == RULES_PARAM_BOOL)
                    fprintf(f, " %s%s=0|1%s", open, p->name, close);
                else if (p->type == RULES_PARAM_STRING)
                    fprintf(f, " %s%s=TEXT%s", open, p->name, close);
                else
                    fprintf(f, " %s%s=%d..%d%s", open, p->name, p->min, p->max, close);
            }
            fprintf(f, "\n      %s\n", c->summary ? c->summary : "");
        }
    }
}

/* Prints "tabled roll: <message>" to stderr; returns the exit code 2. */
static int roll_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int roll_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tabled roll: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    return 2;
}

int cli_roll_main(int argc, char **argv)
{
    static const struct option LONG[] = {{"seed", required_argument, NULL, 's'},
                                         {"times", required_argument, NULL, 't'},
                                         {"json", no_argument, NULL, 'j'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    /* Options may come anywhere ("--seed=3" or "--seed 3"); the other words, in order, are the
     * system, the check and its name=value parameters ("-" first in the option string keeps
     * them in order; after "--" every word is one, `tabled roll dice -- --weird`). */
    const char **words = xcalloc((size_t)argc + 1, sizeof *words);
    /* A word that starts with '-' and a digit is a (negative) expression or number, not an
     * option: getopt sees it with a leading space, taken off below. */
    char **args = xcalloc((size_t)argc + 1, sizeof *args);
    for (int i = 0; i < argc; i++) {
        int negative = i > 0 && argv[i][0] == '-' && argv[i][1] >= '0' && argv[i][1] <= '9';
        size_t n = strlen(argv[i]) + 2;
        args[i] = xmalloc(n);
        snprintf(args[i], n, "%s%s", negative ? " " : "", argv[i]);
    }
    argv = args;
    int n_words = 0, as_json = 0, seeded = 0, rc = 0, opt;
    uint64_t seed = 0;
    long long times = 1;
    json_t *params = json_object();
    optind = 0; /* GNU getopt: start over (main may have parsed before) */
    opterr = 0;
    while ((opt = getopt_long(argc, argv, "-:h", LONG, NULL)) != -1) {
        switch (opt) {
        case 1:
            words[n_words++] = optarg[0] == ' ' ? optarg + 1 : optarg;
            break;
        case 'h':
            usage(stdout);
            goto out;
        case 'j':
            as_json = 1;
            break;
        case 's':
            if (parse_u64(optarg, &seed)) {
                rc = roll_fail("--seed must be an integer in 0..18446744073709551615 (got '%s')",
                               optarg);
                goto out;
            }
            seeded = 1;
            break;
        case 't':
            if (parse_ll(optarg, 1, ROLL_MAX_TIMES, &times)) {
                rc = roll_fail("--times must be an integer in 1..1000000 (got '%s')", optarg);
                goto out;
            }
            break;
        case ':':
            rc = roll_fail("option '%s' needs a value", argv[optind - 1]);
            goto out;
        default:
            rc = roll_fail("unknown option '%s' (try `tabled roll --help`)", argv[optind - 1]);
            goto out;
        }
    }
    for (; optind < argc; optind++)
        words[n_words++] = argv[optind][0] == ' ' ? argv[optind] + 1 : argv[optind];
    if (n_words < 2) {
        usage(stderr);
        rc = 2;
        goto out;
    }
    const rules_system *sys = rules_system_find(words[0]);
    if (!sys) {
        rc = roll_fail("unknown system '%s' (try `tabled roll --help`)", words[0]);
        goto out;
    }
    int argi = 1;
    const rules_check *chk = rules_check_find(sys, words[1]);
    if (chk) {
        argi = 2;
    } else if (sys->checks && sys->checks[0].name && !sys->checks[1].name) {
        chk = &sys->checks[0]; /* a one-check system: `tabled roll dice 2d6` */
    } else {
        rc = roll_fail("%s has no check '%s' (try `tabled roll --help`)", sys->id, words[1]);
        goto out;
    }

    for (int i = argi; i < n_words; i++) {
        const char *arg = words[i];
        const char *eq = strchr(arg, '=');
        const rules_param *p = eq ? find_param(chk, arg, (size_t)(eq - arg)) : NULL;
        if (!p) {
            /* a bare argument fills the first positional parameter not yet given */
            const rules_param *pos = NULL;
            for (const rules_param *q = chk->params; q && q->name; q++)
                if ((q->flags & RULES_PARAM_POSITIONAL) && !json_object_get(params, q->name)) {
                    pos = q;
                    break;
                }
            if (pos && (!eq || pos->type == RULES_PARAM_STRING)) {
                json_object_set_new(params, pos->name, json_string(arg));
                continue;
            }
            if (eq) {
                char name[64];
                snprintf(name, sizeof name, "%.*s", (int)(eq - arg) > 60 ? 60 : (int)(eq - arg),
                         arg);
                rc = roll_fail("unknown parameter '%s' for %s (try `tabled roll --help`)", name,
                               chk->name);
            } else {
                rc = roll_fail("unexpected argument '%s': parameters are name=value", arg);
            }
            goto out;
        }
        if (json_object_get(params, p->name)) {
            rc = roll_fail("parameter '%s' given twice", p->name);
            goto out;
        }
        const char *val = eq + 1;
        if (p->type == RULES_PARAM_STRING) {
            json_object_set_new(params, p->name, json_string(val));
        } else {
            long long v;
            if (parse_ll(val, -1000000000LL, 1000000000LL, &v)) {
                rc = roll_fail("parameter '%s' must be an integer (got '%s')", p->name, val);
                goto out;
            }
            json_object_set_new(params, p->name, json_integer(v));
        }
    }

    osrand osr = {0};
    rules_rng *rng = seeded ? rules_rng_seeded(seed) : rules_rng_from_source(osrand_next64, &osr);
    for (long long t = 0; t < times; t++) {
        json_t *result = NULL;
        tb_err err = {0};
        if (rules_check_run_with(sys, chk, params, rng, &result, &err)) {
            fprintf(stderr, "tabled roll: %s\n", err.msg);
            rc = 2;
            break;
        }
        if (as_json) {
            char *s = json_dumps(result, JSON_COMPACT);
            puts(s);
            free(s);
        } else {
            char *s = rules_result_format(result);
            puts(s);
            free(s);
        }
        json_decref(result);
    }
    rules_rng_destroy(rng);
    if (fflush(stdout) != 0 && rc == 0)
        rc = roll_fail("cannot write the output");
out:
    json_decref(params);
    free(words);
    for (int i = 0; i < argc; i++)
        free(args[i]);
    free(args);
    return rc;
}
