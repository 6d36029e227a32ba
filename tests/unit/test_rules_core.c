/*
 * test_rules_core.c — rules/system.h: the registry, parameter validation, result shape, the
 * shared mechanisms (pools, comparisons, modifiers, formatting), the dice pseudo-system, and the
 * `tabled roll` command line (server/cli_roll.c, compiled into this suite).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rng.h"
#include "system.h"
#include "rules_util.h"
#include "stats.h"

/* The CLI is tested in-process: its one public function and its statics come with it. */
#include "../../server/cli_roll.c"

/* ---- registry ---- */

START_TEST(registry_finds_systems_and_checks)
{
    ck_assert_ptr_nonnull(rules_system_find("dice"));
    ck_assert_ptr_nonnull(rules_system_find("cot"));
    ck_assert_ptr_nonnull(rules_system_find("heimr"));
    ck_assert_ptr_null(rules_system_find("gurps"));
    ck_assert_ptr_null(rules_system_find(NULL));
    ck_assert_ptr_nonnull(rules_check_find(rules_system_find("cot"), "pool"));
    ck_assert_ptr_null(rules_check_find(rules_system_find("cot"), "nope"));
    ck_assert_ptr_null(rules_check_find(NULL, "pool"));
    const rules_system *s;
    size_t n = 0;
    for (size_t i = 0; (s = rules_system_at(i)); i++, n++) {
        ck_assert_ptr_eq(rules_system_find(s->id), s); /* ids are unique */
        ck_assert_ptr_nonnull(s->name);
        ck_assert_ptr_nonnull(s->checks);
        ck_assert_ptr_nonnull(s->checks[0].name);
        ck_assert_ptr_nonnull(s->modules);
        for (const rules_check *c = s->checks; c->name; c++) {
            int np = 0;
            for (const rules_param *p = c->params; p && p->name; p++)
                np++;
            ck_assert_int_le(np, RULES_MAX_PARAMS);
            ck_assert_ptr_nonnull(c->roll);
        }
        if (s->sheet) {
            json_t *schema = rules_sheet_schema(s->id);
            ck_assert_ptr_nonnull(schema);
            ck_assert_int_gt(json_array_size(json_object_get(schema, "fields")), 0);
            json_decref(schema);
        }
    }
    ck_assert_int_ge(n, 3);
    ck_assert_ptr_null(rules_system_at(n));
    ck_assert_ptr_null(rules_sheet_schema("nope"));
}
END_TEST

/* Every check of every system, run with small valid parameters: the common result shape. */
START_TEST(every_check_gives_the_common_result_shape)
{
    const rules_system *s;
    rules_rng *rng = rules_rng_seeded(3);
    for (size_t i = 0; (s = rules_system_at(i)); i++) {
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
            for (int k = 0; k < 50; k++) {
                json_t *r = NULL;
                tb_err err = {0};
                int rc = rules_check_run(s->id, c->name, params, rng, &r, &err);
                if (rc) { /* a cross-parameter rule of another helper's check: say so */
                    ck_assert_int_eq(rc, TB_BAD_REQUEST);
                    ck_assert_msg(strcmp(s->id, "cot") && strcmp(s->id, "heimr") &&
                                      strcmp(s->id, "dice"),
                                  "%s %s: %s", s->id, c->name, err.msg);
                    break;
                }
                ck_assert_str_eq(json_string_value(json_object_get(r, "system")), s->id);
                ck_assert_str_eq(json_string_value(json_object_get(r, "check")), c->name);
                ck_assert(json_is_object(json_object_get(r, "params")));
                json_t *dice = json_object_get(r, "dice");
                ck_assert(json_is_array(dice));
                ck_assert_int_gt(json_array_size(dice), 0);
                size_t j;
                json_t *d;
                json_array_foreach(dice, j, d)
                {
                    int sides = ru_ival(d, "sides"), v = ru_ival(d, "value");
                    ck_assert_int_ge(v, 1);
                    ck_assert_int_le(v, sides);
                    ck_assert(json_is_boolean(json_object_get(d, "kept")));
                }
                ck_assert(json_is_integer(json_object_get(r, "total")));
                json_t *succ = json_object_get(r, "success");
                ck_assert(json_is_boolean(succ) || json_is_null(succ));
                char *line = rules_result_format(r);
                ck_assert_int_gt(strlen(line), 0);
                free(line);
                json_decref(r);
            }
            json_decref(params);
        }
    }
    rules_rng_destroy(rng);
}
END_TEST

/* ---- parameters, through a check defined here ---- */

static int probe_roll(const rules_args *a, rules_rng *rng, json_t *result, tb_err *err)
{
    int rc = rules_args_exclusive(a, "flag", "other", err);
    if (rc)
        return rc;
    int v = rules_roll_die(rng, 6, json_object_get(result, "dice"));
    int total = v + rules_result_modifier(result, "n", rules_arg_int(a, "n"));
    rules_result_outcome(result, total, rules_arg_given(a, "target"), rules_arg_int(a, "target"),
                         RULES_CMP_GE);
    json_object_set_new(result, "flag", json_integer(rules_arg_int(a, "flag")));
    const char *t = rules_arg_str(a, "text");
    json_object_set_new(result, "text", t ? json_string(t) : json_null());
    return 0;
}

static int broken_roll(const rules_args *a, rules_rng *rng, json_t *result, tb_err *err)
{
    return 0; /* forgets total and success */
}

static const rules_param probe_params[] = {
    {"n", RULES_PARAM_INT, -3, 3, 0, RULES_PARAM_REQUIRED, "a number"},
    {"target", RULES_PARAM_INT, 0, 20, 0, 0, "target"},
    {"flag", RULES_PARAM_BOOL, 0, 1, 0, 0, "a flag"},
    {"other", RULES_PARAM_BOOL, 0, 1, 0, 0, "another flag"},
    {"text", RULES_PARAM_STRING, 1, 5, 0, 0, "some text"},
    {0},
};

static const rules_check probe_checks[] = {
    {"probe", "test", probe_params, probe_roll, NULL},
    {"broken", "test", probe_params, broken_roll, NULL},
    {0},
};

static const struct rules_module *const no_modules[] = {NULL};
static const rules_system probe_system = {
    .id = "probe", .name = "Probe", .checks = probe_checks, .modules = no_modules};

static int probe(const char *params_text, json_t **r, tb_err *err)
{
    const int faces[] = {4};
    rules_rng *rng = rules_rng_scripted(faces, 1);
    json_t *p = params_text ? json_loads(params_text, 0, NULL) : NULL;
    int rc = rules_check_run_with(&probe_system, &probe_checks[0], p, rng, r, err);
    json_decref(p);
    rules_rng_destroy(rng);
    return rc;
}

START_TEST(params_are_validated_and_defaulted)
{
    json_t *r;
    tb_err err = {0};
    ck_assert_int_eq(probe("{\"n\":2,\"target\":6,\"flag\":true,\"text\":\"hi\"}", &r, &err), 0);
    ck_assert_int_eq(ru_ival(r, "total"), 6);
    ck_assert(json_is_true(json_object_get(r, "success")));
    ck_assert_int_eq(ru_ival(r, "target"), 6);
    ck_assert_int_eq(ru_ival(r, "flag"), 1);
    ck_assert_str_eq(json_string_value(json_object_get(r, "text")), "hi");
    json_t *mods = json_object_get(r, "modifiers");
    ck_assert_int_eq(json_array_size(mods), 1);
    ck_assert_int_eq(ru_ival(json_array_get(mods, 0), "value"), 2);
    /* params echo what was given */
    ck_assert_int_eq(json_object_size(json_object_get(r, "params")), 4);
    json_decref(r);

    ck_assert_int_eq(probe("{\"n\":-3,\"flag\":0}", &r, &err), 0);
    ck_assert(json_is_null(json_object_get(r, "success"))); /* no target */
    ck_assert_int_eq(ru_ival(r, "total"), 1);
    json_decref(r);

    const char *bad[][2] = {
        {NULL, "missing required parameter 'n' (a number, -3..3)"},
        {"[1]", "params must be an object"},
        {"{\"n\":4}", "parameter 'n' must be in -3..3 (got 4)"},
        {"{\"n\":\"1\"}", "parameter 'n' must be an integer in -3..3"},
        {"{\"n\":1.0}", "parameter 'n' must be an integer"},
        {"{\"n\":1,\"flag\":2}", "parameter 'flag' must be 0 or 1"},
        {"{\"n\":1,\"text\":3}", "parameter 'text' must be a string"},
        {"{\"n\":1,\"text\":\"toolong\"}", "parameter 'text' must be 1..5 characters long (got 7)"},
        {"{\"n\":1,\"x\":1}", "unknown parameter 'x' (parameters: n, target, flag, other, text)"},
        {"{\"n\":1,\"flag\":1,\"other\":0}", "parameters 'flag' and 'other' are exclusive"},
        {"{\"n\":99999999999999}", "(got 99999999999999)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r = (json_t *)1;
        ck_assert_int_eq(probe(bad[i][0], &r, &err), TB_BAD_REQUEST);
        ck_assert_ptr_null(r);
        ck_assert_msg(strstr(err.msg, bad[i][1]) != NULL, "'%s' lacks '%s'", err.msg, bad[i][1]);
    }
    /* a check that forgets total/success is an internal error, not a result */
    rules_rng *rng = rules_rng_seeded(1);
    json_t *n1 = json_pack("{s:i}", "n", 1);
    ck_assert_int_eq(rules_check_run_with(&probe_system, &probe_checks[1], n1, rng, &r, &err),
                     TB_INTERNAL);
    json_decref(n1);
    rules_rng_destroy(rng);
}
END_TEST

START_TEST(unknown_system_or_check_is_not_found)
{
    json_t *r;
    tb_err err = {0};
    rules_rng *rng = rules_rng_seeded(1);
    ck_assert_int_eq(rules_check_run("gurps", "pool", NULL, rng, &r, &err), TB_NOT_FOUND);
    ck_assert_ptr_nonnull(strstr(err.msg, "unknown rule system 'gurps'"));
    ck_assert_int_eq(rules_check_run("cot", "pol", NULL, rng, &r, &err), TB_NOT_FOUND);
    ck_assert_ptr_nonnull(strstr(err.msg, "cot has no check 'pol' (checks: pool, opposed)"));
    rules_rng_destroy(rng);
}
END_TEST

/* ---- pools ---- */

START_TEST(pool_keeps_highest_with_earliest_among_equals)
{
    const int faces[] = {6, 2, 6, 5, 1};
    rules_rng *rng = rules_rng_scripted(faces, 5);
    rules_pool p;
    ck_assert_int_eq(rules_pool_roll(&p, rng, 5, 6, 1, RULES_KEEP_HIGHEST, NULL), 0);
    ck_assert_int_eq(p.sum_kept, 6);
    ck_assert_int_eq(p.kept[0], 1);
    ck_assert_int_eq(p.kept[2], 0);
    rules_pool_select(&p, 3, RULES_KEEP_HIGHEST);
    ck_assert_int_eq(p.sum_kept, 17);
    rules_pool_select(&p, 2, RULES_KEEP_LOWEST);
    ck_assert_int_eq(p.sum_kept, 3);
    ck_assert_int_eq(p.kept[1] + p.kept[4], 2);
    rules_pool_select(&p, 9, RULES_KEEP_LOWEST); /* clamped */
    ck_assert_int_eq(p.keep, 5);
    ck_assert_int_eq(p.sum_kept, 20);
    rules_pool_select(&p, -1, RULES_KEEP_LOWEST);
    ck_assert_int_eq(p.keep, 0);
    ck_assert_int_eq(p.sum_kept, 0);
    ck_assert_int_eq(rules_pool_count(&p, 6), 2);
    ck_assert_int_eq(rules_pool_max(&p), 6);
    ck_assert_int_eq(rules_pool_min(&p), 1);
    rules_pool_select(&p, 2, RULES_KEEP_HIGHEST);
    json_t *dice = json_array();
    rules_pool_to_json(&p, dice);
    ck_assert_int_eq(json_array_size(dice), 5);
    ck_assert(json_is_true(json_object_get(json_array_get(dice, 0), "kept")));
    ck_assert(json_is_false(json_object_get(json_array_get(dice, 1), "kept")));
    ck_assert(json_is_true(json_object_get(json_array_get(dice, 2), "kept")));
    json_decref(dice);
    json_t *kept = rules_pool_kept_json(&p);
    ck_assert_int_eq(json_array_size(kept), 2);
    json_decref(kept);
    tb_err err = {0};
    ck_assert_int_eq(rules_pool_roll(&p, rng, RULES_POOL_MAX + 1, 6, 1, RULES_KEEP_HIGHEST, &err),
                     TB_BAD_REQUEST);
    ck_assert_int_eq(rules_pool_roll(&p, rng, 2, 0, 1, RULES_KEEP_HIGHEST, &err), TB_BAD_REQUEST);
    ck_assert_int_eq(rules_rng_exhausted(rng), 0);
    rules_rng_destroy(rng);
    rules_pool empty = {.sides = 6};
    ck_assert_int_eq(rules_pool_max(&empty), 0);
}
END_TEST

START_TEST(comparisons_and_opposed_ties)
{
    ck_assert(rules_meets(9, 9, RULES_CMP_GE));
    ck_assert(!rules_meets(9, 9, RULES_CMP_GT));
    ck_assert(rules_meets(10, 9, RULES_CMP_GT));
    ck_assert(rules_opposed(7, 7, RULES_TIE_ACTOR));
    ck_assert(!rules_opposed(7, 7, RULES_TIE_DEFENDER));
    ck_assert(rules_opposed(8, 7, RULES_TIE_DEFENDER));
    ck_assert(!rules_opposed(6, 7, RULES_TIE_ACTOR));
}
END_TEST

/* n d6, keep k (highest or lowest), by enumeration: prob[sum] — independent of system.c. */
static void enumerate_keep(int n, int k, int highest, double *prob, int size)
{
    int f[8];
    long total = 1;
    for (int i = 0; i < n; i++) {
        f[i] = 1;
        total *= 6;
    }
    memset(prob, 0, (size_t)size * sizeof *prob);
    for (long o = 0; o < total; o++) {
        int s[8];
        memcpy(s, f, sizeof s);
        for (int i = 1; i < n; i++)
            for (int j = i; j > 0 && s[j] < s[j - 1]; j--) {
                int t = s[j];
                s[j] = s[j - 1];
                s[j - 1] = t;
            }
        int sum = 0;
        for (int i = 0; i < k; i++)
            sum += highest ? s[n - 1 - i] : s[i];
        prob[sum] += 1.0 / (double)total;
        for (int i = 0; i < n; i++) {
            if (++f[i] <= 6)
                break;
            f[i] = 1;
        }
    }
}

START_TEST(pool_distributions_match_enumeration)
{
    enum { N = 200000, SZ = 40 };
    static long obs_hi[SZ], obs_lo[SZ];
    static double want[SZ];
    memset(obs_hi, 0, sizeof obs_hi);
    memset(obs_lo, 0, sizeof obs_lo);
    rules_rng *rng = rules_rng_seeded(11);
    rules_pool p;
    for (long i = 0; i < N; i++) {
        rules_pool_roll(&p, rng, 4, 6, 3, RULES_KEEP_HIGHEST, NULL);
        obs_hi[p.sum_kept]++;
        rules_pool_roll(&p, rng, 3, 6, 2, RULES_KEEP_LOWEST, NULL);
        obs_lo[p.sum_kept]++;
    }
    rules_rng_destroy(rng);
    int df; /* sums are ordered: sparse neighbours are merged */
    enumerate_keep(4, 3, 1, want, SZ);
    double c = stats_chi2_merge_adjacent(obs_hi, want, SZ, N, &df);
    ck_assert_msg(c < stats_chi2_p001_wh(df), "4d6kh3: chi2 %.1f (df %d)", c, df);
    enumerate_keep(4, 3, 0, want, SZ);
    ck_assert_double_gt(stats_chi2_merge_adjacent(obs_hi, want, SZ, N, &df),
                        stats_chi2_p001_wh(df));
    enumerate_keep(3, 2, 0, want, SZ);
    c = stats_chi2_merge_adjacent(obs_lo, want, SZ, N, &df);
    ck_assert_msg(c < stats_chi2_p001_wh(df), "3d6kl2: chi2 %.1f (df %d)", c, df);
    enumerate_keep(3, 2, 1, want, SZ);
    ck_assert_double_gt(stats_chi2_merge_adjacent(obs_lo, want, SZ, N, &df),
                        stats_chi2_p001_wh(df));
}
END_TEST

/* ---- formatting ---- */

START_TEST(default_format_and_strings)
{
    json_t *r =
        json_pack("{s:s,s:s,s:[{s:i,s:i,s:b},{s:i,s:i,s:b}],s:i,s:i,s:b}", "system", "probe",
                  "check", "probe", "dice", "sides", 20, "value", 14, "kept", 1, "sides", 20,
                  "value", 3, "kept", 0, "total", 17, "target", 15, "success", 1);
    char *line = rules_result_format(r);
    ck_assert_str_eq(line, "14 [3] = 17 vs 15: success");
    free(line);
    json_object_set_new(r, "success", json_null());
    json_object_del(r, "target");
    line = rules_result_format(r);
    ck_assert_str_eq(line, "14 [3] = 17");
    free(line);
    json_decref(r);
    rules_str b = {0};
    for (int i = 0; i < 100; i++)
        rules_str_printf(&b, "%d,", i);
    ck_assert_int_eq(b.len, strlen(b.s));
    ck_assert(strncmp(b.s, "0,1,2,", 6) == 0);
    rules_str_free(&b);
    ck_assert_ptr_null(b.s);
}
END_TEST

/* ---- the dice pseudo-system ---- */

START_TEST(dice_check_wraps_expressions)
{
    const int faces[] = {1, 5, 3, 6};
    rules_rng *rng = rules_rng_scripted(faces, 4);
    json_t *r;
    tb_err err = {0};
    json_t *e1 = json_pack("{s:s}", "expr", "4d6kh3+2"), *e2 = json_pack("{s:s}", "expr", "4x6");
    ck_assert_int_eq(rules_check_run("dice", "dice", e1, rng, &r, &err), 0);
    ck_assert_int_eq(ru_ival(r, "total"), 16);
    ck_assert(json_is_null(json_object_get(r, "success")));
    ck_assert_str_eq(json_string_value(json_object_get(r, "expr")), "4d6kh3+2");
    ck_assert_int_eq(json_array_size(json_object_get(r, "dice")), 4);
    char *line = rules_result_format(r);
    ck_assert_str_eq(line, "4d6kh3+2 → ([1] 5 3 6) + 2 = 16");
    free(line);
    json_decref(r);
    rules_rng_destroy(rng);
    rng = rules_rng_seeded(1);
    ck_assert_int_eq(rules_check_run("dice", "dice", e2, rng, &r, &err), TB_BAD_REQUEST);
    json_decref(e1);
    json_decref(e2);
    ck_assert_int_eq(rules_check_run("dice", "dice", NULL, rng, &r, &err), TB_BAD_REQUEST);
    ck_assert_ptr_nonnull(strstr(err.msg, "'expr'"));
    rules_rng_destroy(rng);
}
END_TEST

/* ---- the command line ---- */

typedef struct cli_out {
    int rc;
    char out[65536], err[4096];
} cli_out;

static void slurp(FILE *f, char *buf, size_t n)
{
    rewind(f);
    size_t got = fread(buf, 1, n - 1, f);
    buf[got] = '\0';
}

/* Runs cli_roll_main with stdout and stderr captured. */
static void cli(cli_out *o, int argc, const char **argv)
{
    fflush(stdout);
    fflush(stderr);
    FILE *fo = tmpfile(), *fe = tmpfile();
    int so = dup(1), se = dup(2);
    dup2(fileno(fo), 1);
    dup2(fileno(fe), 2);
    o->rc = cli_roll_main(argc, (char **)argv);
    fflush(stdout);
    fflush(stderr);
    dup2(so, 1);
    dup2(se, 2);
    close(so);
    close(se);
    slurp(fo, o->out, sizeof o->out);
    slurp(fe, o->err, sizeof o->err);
    fclose(fo);
    fclose(fe);
}

#define CLI(o, ...)                                                                                \
    do {                                                                                           \
        const char *argv_[] = {"roll", __VA_ARGS__};                                               \
        cli(o, (int)(sizeof argv_ / sizeof argv_[0]), argv_);                                      \
    } while (0)

START_TEST(cli_human_line_is_deterministic_with_seed)
{
    static cli_out a, b;
    CLI(&a, "cot", "pool", "skill=3", "ability=2", "--seed", "42");
    CLI(&b, "cot", "pool", "skill=3", "ability=2", "--seed=42");
    ck_assert_int_eq(a.rc, 0);
    ck_assert_str_eq(a.out, b.out);
    ck_assert_ptr_nonnull(strstr(a.out, "5k2 → "));
    ck_assert_ptr_nonnull(strstr(a.out, " vs 9: "));
    ck_assert_str_eq(a.err, "");
}
END_TEST

START_TEST(cli_json_prints_one_object_per_roll)
{
    static cli_out a;
    CLI(&a, "heimr", "challenge", "c=3", "p=2", "cr=10", "fatigue=4", "--times", "5", "--json",
        "--seed", "7");
    ck_assert_int_eq(a.rc, 0);
    int lines = 0;
    for (char *line = strtok(a.out, "\n"); line; line = strtok(NULL, "\n"), lines++) {
        json_t *j = json_loads(line, 0, NULL);
        ck_assert_ptr_nonnull(j);
        ck_assert_str_eq(json_string_value(json_object_get(j, "system")), "heimr");
        ck_assert_str_eq(json_string_value(json_object_get(j, "check")), "challenge");
        ck_assert_int_eq(ru_ival(j, "result"), ru_ival(j, "total"));
        ck_assert(json_is_boolean(json_object_get(j, "fatigue_increased")));
        json_decref(j);
    }
    ck_assert_int_eq(lines, 5);
}
END_TEST

START_TEST(cli_dice_takes_the_expression_positionally)
{
    static cli_out a, b;
    CLI(&a, "dice", "2d6+1", "--seed", "3");
    CLI(&b, "dice", "dice", "expr=2d6+1", "--seed", "3");
    ck_assert_int_eq(a.rc, 0);
    ck_assert_str_eq(a.out, b.out);
    ck_assert(strncmp(a.out, "2d6+1 → (", 9) == 0);
    CLI(&a, "dice", "--seed", "3", "--", "-1d4+3");
    ck_assert_int_eq(a.rc, 0);
    CLI(&a, "dice", "-1d4+3", "--json");
    ck_assert_int_eq(a.rc, 0); /* CSPRNG path */
    ck_assert(strncmp(a.out, "{\"system\":\"dice\"", 16) == 0);
}
END_TEST

START_TEST(cli_errors_exit_2_with_a_message)
{
    static cli_out a;
    struct {
        const char *argv[8];
        int argc;
        const char *needle;
    } cases[] = {
        {{"roll", "cot", "pool", "skill=3x", "ability=2"}, 5, "'skill' must be an integer"},
        {{"roll", "cot", "pool", "skill= 3", "ability=2"}, 5, "'skill' must be an integer"},
        {{"roll", "cot", "pool", "skill=3", "ability=2", "--times", "0"}, 7, "--times"},
        {{"roll", "cot", "pool", "skill=3", "ability=2", "--times", "1000001"}, 7, "1..1000000"},
        {{"roll", "cot", "pool", "skill=3", "ability=2", "--seed", "-1"}, 7, "--seed"},
        {{"roll", "cot", "pool", "skill=3", "ability=2", "--seed"}, 6, "needs a value"},
        {{"roll", "cot", "pool", "skill=3", "ability=2", "--fast"}, 6, "unknown option"},
        {{"roll", "cot", "pool", "skill=3", "ability=2", "skill=4"}, 6, "given twice"},
        {{"roll", "cot", "pool", "skill=3", "ability=2", "luck=4"}, 6, "unknown parameter 'luck'"},
        {{"roll", "cot", "pool", "skill=3", "ability=2", "7"}, 6, "unexpected argument '7'"},
        {{"roll", "cot", "pool", "skill=3"}, 4, "missing required parameter 'ability'"},
        {{"roll", "cot", "pool", "skill=3", "ability=11"}, 5, "'ability' must be in 1..10"},
        {{"roll", "cot", "punch"}, 3, "cot has no check 'punch'"},
        {{"roll", "gurps", "pool"}, 3, "unknown system 'gurps'"},
        {{"roll", "dice", "2d"}, 3, "tabled roll:"},
        {{"roll", "cot"}, 2, "usage:"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cli(&a, cases[i].argc, cases[i].argv);
        ck_assert_int_eq(a.rc, 2);
        ck_assert_msg(strstr(a.err, cases[i].needle) != NULL, "case %zu: '%s' lacks '%s'", i, a.err,
                      cases[i].needle);
        ck_assert_str_eq(a.out, "");
    }
    const char *help[] = {"roll", "--help"};
    cli(&a, 2, help);
    ck_assert_int_eq(a.rc, 0);
    ck_assert_ptr_nonnull(strstr(a.out, "cot pool skill=0..10 ability=1..10"));
    ck_assert_ptr_nonnull(strstr(a.out, "dice dice EXPR"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rules_core");
    TCase *t = tcase_create("core");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, registry_finds_systems_and_checks);
    tcase_add_test(t, every_check_gives_the_common_result_shape);
    tcase_add_test(t, params_are_validated_and_defaulted);
    tcase_add_test(t, unknown_system_or_check_is_not_found);
    tcase_add_test(t, pool_keeps_highest_with_earliest_among_equals);
    tcase_add_test(t, comparisons_and_opposed_ties);
    tcase_add_test(t, pool_distributions_match_enumeration);
    tcase_add_test(t, default_format_and_strings);
    tcase_add_test(t, dice_check_wraps_expressions);
    suite_add_tcase(s, t);
    TCase *c = tcase_create("cli");
    tcase_add_test(c, cli_human_line_is_deterministic_with_seed);
    tcase_add_test(c, cli_json_prints_one_object_per_roll);
    tcase_add_test(c, cli_dice_takes_the_expression_positionally);
    tcase_add_test(c, cli_errors_exit_2_with_a_message);
    suite_add_tcase(s, c);
    return ru_run_suite(s);
}
