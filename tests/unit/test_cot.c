/*
 * test_cot.c — City of Thieves (rulebook 000, cited 000:LINE): the keep-pool roll with dice fed
 * in, opposed rolls, guard scores, the sheet, and statistical tests of each check against an
 * exact distribution enumerated here (independently of rules/cot/cot.c).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cot/cot.h"
#include "rng.h"
#include "system.h"
#include "rules_util.h"
#include "stats.h"

/* Runs `cot CHECK` with scripted faces; the script must be used up exactly (rules_util.h). */
static json_t *run_scripted(const char *check, const char *params, const int *faces, size_t n)
{
    return ru_run_scripted_exact("cot", check, params, faces, n);
}

/* ---- the pool, dice fed in ---- */

START_TEST(pool_keeps_the_ability_many_highest_issue_example)
{
    /* 000:9; the issue's line "5k2 → 6 5 [4 2 1] = 11 vs 9: success" */
    const int faces[] = {4, 6, 1, 5, 2};
    json_t *r = run_scripted("pool", "{\"skill\":3,\"ability\":2}", faces, 5);
    ck_assert_int_eq(ru_ival(r, "total"), 11);
    ck_assert_int_eq(ru_bval(r, "success"), 1);
    ck_assert_int_eq(ru_bval(r, "catastrophe"), 0);
    ck_assert_int_eq(ru_ival(r, "difficulty"), 9); /* 000:13 base difficulty */
    json_t *kept = json_object_get(r, "kept");
    ck_assert_int_eq(json_array_size(kept), 2);
    ck_assert_int_eq(json_integer_value(json_array_get(kept, 0)), 6);
    ck_assert_int_eq(json_integer_value(json_array_get(kept, 1)), 5);
    /* every die in roll order with kept flags */
    json_t *dice = json_object_get(r, "dice");
    ck_assert_int_eq(json_array_size(dice), 5);
    const int want_kept[] = {0, 1, 0, 1, 0};
    for (int i = 0; i < 5; i++) {
        json_t *d = json_array_get(dice, (size_t)i);
        ck_assert_int_eq(ru_ival(d, "sides"), 6);
        ck_assert_int_eq(ru_ival(d, "value"), faces[i]);
        ck_assert_int_eq(ru_bval(d, "kept"), want_kept[i]);
    }
    ru_assert_line(r, "5k2 → 6 5 [4 2 1] = 11 vs 9: success");
    json_decref(r);
}
END_TEST

START_TEST(pool_meeting_the_difficulty_succeeds_one_below_fails)
{
    /* 000:9,13 compare to the difficulty; met or exceeded succeeds */
    const int meet[] = {5, 4, 1};
    json_t *r = run_scripted("pool", "{\"skill\":1,\"ability\":2}", meet, 3);
    ck_assert_int_eq(ru_ival(r, "total"), 9);
    ck_assert_int_eq(ru_bval(r, "success"), 1);
    json_decref(r);
    const int below[] = {4, 4, 3};
    r = run_scripted("pool", "{\"skill\":1,\"ability\":2}", below, 3);
    ck_assert_int_eq(ru_ival(r, "total"), 8);
    ck_assert_int_eq(ru_bval(r, "success"), 0);
    ru_assert_line(r, "3k2 → 4 4 [3] = 8 vs 9: failure");
    json_decref(r);
    const int hard[] = {6, 6, 6};
    r = run_scripted("pool", "{\"skill\":1,\"ability\":2,\"difficulty\":13}", hard, 3);
    ck_assert_int_eq(ru_bval(r, "success"), 0);
    json_decref(r);
}
END_TEST

START_TEST(pool_all_ones_is_a_catastrophe_and_always_fails)
{
    /* 000:9 "Rolling all 1s is a Catastrophe" — even against difficulty 0 */
    const int ones[] = {1, 1, 1, 1};
    json_t *r = run_scripted("pool", "{\"skill\":2,\"ability\":2,\"difficulty\":0}", ones, 4);
    ck_assert_int_eq(ru_ival(r, "total"), 2);
    ck_assert_int_eq(ru_bval(r, "catastrophe"), 1);
    ck_assert_int_eq(ru_bval(r, "success"), 0);
    ru_assert_line(r, "4k2 → 1 1 [1 1] = 2 vs 0: catastrophe");
    json_decref(r);
    /* one dropped die that is not a 1: no catastrophe */
    const int almost[] = {1, 1, 2};
    r = run_scripted("pool", "{\"skill\":2,\"ability\":1,\"difficulty\":0}", almost, 3);
    ck_assert_int_eq(ru_bval(r, "catastrophe"), 0);
    ck_assert_int_eq(ru_ival(r, "total"), 2);
    ck_assert_int_eq(ru_bval(r, "success"), 1);
    json_decref(r);
}
END_TEST

START_TEST(pool_bonus_is_plus_b_k0)
{
    /* 000:27 "+1k0": one more die rolled, none more kept */
    const int faces[] = {2, 3, 6, 1, 5, 4};
    json_t *r = run_scripted("pool", "{\"skill\":3,\"ability\":2,\"bonus\":1}", faces, 6);
    ck_assert_int_eq(ru_ival(r, "rolled"), 6);
    ck_assert_int_eq(ru_ival(r, "keep"), 2);
    ck_assert_int_eq(ru_ival(r, "total"), 11);
    ru_assert_line(r, "6k2 → 6 5 [4 3 2 1] = 11 vs 9: success");
    json_decref(r);
    /* kept_bonus: +0k1 keeps one more */
    const int f2[] = {2, 3, 6};
    r = run_scripted("pool", "{\"skill\":1,\"ability\":2,\"kept_bonus\":1}", f2, 3);
    ck_assert_int_eq(ru_ival(r, "keep"), 3);
    ck_assert_int_eq(ru_ival(r, "total"), 11);
    json_decref(r);
}
END_TEST

START_TEST(pool_negative_bonus_removes_dice_and_keeps_all_left)
{
    /* 000:11 factors "subtract from the dice pool"; fewer dice than the ability: all kept
     * (RULES.md cot reading 2) */
    const int faces[] = {3, 5};
    json_t *r = run_scripted("pool", "{\"skill\":0,\"ability\":3,\"bonus\":-1}", faces, 2);
    ck_assert_int_eq(ru_ival(r, "rolled"), 2);
    ck_assert_int_eq(ru_ival(r, "keep"), 2);
    ck_assert_int_eq(ru_ival(r, "total"), 8);
    json_decref(r);
    ck_assert_int_eq(
        ru_param_error("cot", "pool", "{\"skill\":0,\"ability\":2,\"bonus\":-2}", "at least 1 die"),
        TB_BAD_REQUEST);
}
END_TEST

START_TEST(opposed_opponent_rolls_first_and_sets_the_difficulty)
{
    /* 000:13: opponent 3k2 rolls 4 3 1 = 7; actor 3k2 rolls 5 2 2 = 7: met -> success */
    const int faces[] = {4, 3, 1, 5, 2, 2};
    json_t *r = run_scripted(
        "opposed", "{\"skill\":1,\"ability\":2,\"opp_skill\":1,\"opp_ability\":2}", faces, 6);
    ck_assert_int_eq(ru_ival(r, "difficulty"), 7);
    ck_assert_int_eq(ru_ival(r, "total"), 7);
    ck_assert_int_eq(ru_bval(r, "success"), 1);
    json_t *dice = json_object_get(r, "dice");
    ck_assert_int_eq(json_array_size(dice), 6);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(dice, 0), "by")), "opponent");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(dice, 3), "by")), "actor");
    ck_assert_int_eq(ru_ival(json_object_get(r, "opponent"), "total"), 7);
    ru_assert_line(r, "opponent 3k2 → 4 3 [1] = 7; 3k2 → 5 2 [2] = 7 vs 7: success");
    json_decref(r);
    const int lose[] = {6, 6, 1, 6, 5, 1};
    r = run_scripted("opposed", "{\"skill\":1,\"ability\":2,\"opp_skill\":1,\"opp_ability\":2}",
                     lose, 6);
    ck_assert_int_eq(ru_bval(r, "success"), 0);
    json_decref(r);
}
END_TEST

START_TEST(opposed_opponent_catastrophe_still_sets_its_total)
{
    /* RULES.md cot reading 4: the opponent's Catastrophe total (2) is the difficulty */
    const int faces[] = {1, 1, 1, 2, 1};
    json_t *r = run_scripted(
        "opposed", "{\"skill\":1,\"ability\":1,\"opp_skill\":1,\"opp_ability\":2}", faces, 5);
    ck_assert_int_eq(ru_ival(r, "difficulty"), 2);
    ck_assert_int_eq(ru_bval(json_object_get(r, "opponent"), "catastrophe"), 1);
    ck_assert_int_eq(ru_bval(r, "success"), 1);
    json_decref(r);
    /* the actor's catastrophe fails even against a lower total */
    const int f2[] = {1, 1, 1, 1, 1};
    r = run_scripted("opposed",
                     "{\"skill\":1,\"ability\":1,\"opp_skill\":0,\"opp_ability\":1,\"bonus\":1}",
                     f2, 4);
    ck_assert_int_eq(ru_ival(r, "difficulty"), 1);
    ck_assert_int_eq(ru_bval(r, "catastrophe"), 1);
    ck_assert_int_eq(ru_bval(r, "success"), 0);
    json_decref(r);
}
END_TEST

START_TEST(guard_scores_are_three_per_kept_die_plus_one_per_extra)
{
    /* 000:196 "Score= 3x Kept Dice +(1 per additional rolled die)" */
    ck_assert_int_eq(cot_guard_score(5, 2), 9);
    ck_assert_int_eq(cot_guard_score(3, 3), 9);
    ck_assert_int_eq(cot_guard_score(6, 1), 8);
    /* 000:197-198 Awareness Brains+Lookout, Training Muscle+Resist */
    json_t *sheet = json_loads("{\"name\":\"Guard\",\"abilities\":{\"muscle\":2,\"fingers\":1,"
                               "\"brains\":1,\"it\":1},\"skills\":{\"lookout\":2,\"resist\":3}}",
                               0, NULL);
    json_t *d = rules_sheet_derive("cot", sheet);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(ru_ival(d, "awareness"), 3 * 1 + 2);
    ck_assert_int_eq(ru_ival(d, "training"), 3 * 2 + 3);
    ck_assert_int_eq(ru_ival(d, "foresight_max"), 1);
    json_t *ini = json_object_get(json_object_get(d, "initiative"), "social");
    ck_assert_str_eq(json_string_value(json_object_get(ini, "pool")), "It+Size Up");
    json_decref(d);
    json_decref(sheet);
}
END_TEST

START_TEST(cover_pool_adds_armour_bonus)
{
    /* 000:123 Resist "with any armour bonuses" */
    json_t *sheet = json_loads(
        "{\"name\":\"T\",\"abilities\":{\"muscle\":3,\"fingers\":1,\"brains\":1,\"it\":1},"
        "\"skills\":{\"resist\":2},\"gear\":[{\"name\":\"coat\",\"kind\":\"armour\",\"bonus\":1},"
        "{\"name\":\"knife\",\"kind\":\"weapon\",\"bonus\":1}]}",
        0, NULL);
    json_t *d = rules_sheet_derive("cot", sheet);
    json_t *cover = json_object_get(d, "cover");
    ck_assert_int_eq(ru_ival(cover, "rolled"), 6);
    ck_assert_int_eq(ru_ival(cover, "keep"), 3);
    json_decref(d);
    json_decref(sheet);
}
END_TEST

START_TEST(param_errors_name_the_parameter)
{
    ck_assert_int_eq(ru_param_error("cot", "pool", "{\"ability\":2}", "'skill'"), TB_BAD_REQUEST);
    ck_assert_int_eq(
        ru_param_error("cot", "pool", "{\"skill\":2,\"ability\":0}", "'ability' must be in 1..10"),
        TB_BAD_REQUEST);
    ck_assert_int_eq(
        ru_param_error("cot", "pool", "{\"skill\":2,\"ability\":2,\"luck\":1}", "'luck'"),
        TB_BAD_REQUEST);
    ck_assert_int_eq(ru_param_error("cot", "pool", "{\"skill\":\"2\",\"ability\":2}",
                                    "'skill' must be an integer"),
                     TB_BAD_REQUEST);
    ck_assert_int_eq(ru_param_error("cot", "pool", "{\"skill\":2.5,\"ability\":2}", "'skill'"),
                     TB_BAD_REQUEST);
    ck_assert_int_eq(ru_param_error("cot", "pool", "{\"skill\":2,\"ability\":2,\"difficulty\":-1}",
                                    "'difficulty'"),
                     TB_BAD_REQUEST);
    ck_assert_int_eq(ru_param_error("cot", "opposed", "{\"skill\":2,\"ability\":2}", "'opp_skill'"),
                     TB_BAD_REQUEST);
    ck_assert_int_eq(ru_param_error("cot", "nosuch", "{}", "no check 'nosuch'"), TB_NOT_FOUND);
}
END_TEST

/* ---- statistics ---- */
/* stats.h: stats_chi2_merge_smallest (sparse categories merged, smallest first) against the
 * Wilson-Hilferty p = 0.001 value stats_chi2_p001_wh. */

#define NCAT 256
/* Decisive at this size (measured session 4 at 200000, scaled): each wrong rule's statistic is at
 * least 48 times the critical value, or it sees an outcome that rule calls impossible. */
#define ROLLS 25000

/* Category of a pool result: total (0..60) x success x catastrophe. */
static int cat_of(int total, int success, int catastrophe)
{
    return (total * 2 + success) * 2 + catastrophe;
}

typedef struct pool_rule {
    int highest; /* 1 keep highest (the rule), 0 keep lowest (a wrong rule) */
    int ge;      /* 1 met-or-exceeded (the rule), 0 strictly exceeded */
} pool_rule;

/* Exact distribution of (total, success, catastrophe) for n d6 keep k vs difficulty d,
 * enumerated over all 6^n outcomes. Independent of the implementation. */
static void enumerate_pool(int n, int k, int d, pool_rule rule, double *prob)
{
    int faces[16];
    long outcomes = 1;
    for (int i = 0; i < n; i++) {
        faces[i] = 1;
        outcomes *= 6;
    }
    memset(prob, 0, NCAT * sizeof *prob);
    for (long o = 0; o < outcomes; o++) {
        int sorted[16];
        memcpy(sorted, faces, sizeof sorted);
        for (int i = 1; i < n; i++)
            for (int j = i; j > 0 && sorted[j] > sorted[j - 1]; j--) {
                int t = sorted[j];
                sorted[j] = sorted[j - 1];
                sorted[j - 1] = t;
            }
        int total = 0, ones = 0;
        for (int i = 0; i < k && i < n; i++)
            total += rule.highest ? sorted[i] : sorted[n - 1 - i];
        for (int i = 0; i < n; i++)
            ones += faces[i] == 1;
        int cat = ones == n;
        int success = !cat && (rule.ge ? total >= d : total > d);
        prob[cat_of(total, success, cat)] += 1.0 / (double)outcomes;
        for (int i = 0; i < n; i++) { /* next outcome */
            if (++faces[i] <= 6)
                break;
            faces[i] = 1;
        }
    }
}

START_TEST(pool_distribution_matches_enumeration)
{
    /* skill 3 + ability 2 + bonus 1: 6k2 vs 9 */
    static long obs[NCAT];
    static double want[NCAT], wrong[NCAT];
    memset(obs, 0, sizeof obs);
    rules_rng *rng = rules_rng_seeded(20240601);
    json_t *params = json_loads("{\"skill\":3,\"ability\":2,\"bonus\":1}", 0, NULL);
    const rules_system *s = rules_system_find("cot");
    const rules_check *c = rules_check_find(s, "pool");
    for (long i = 0; i < ROLLS; i++) {
        json_t *r;
        ck_assert_int_eq(rules_check_run_with(s, c, params, rng, &r, NULL), 0);
        obs[cat_of(ru_ival(r, "total"), ru_bval(r, "success"), ru_bval(r, "catastrophe"))]++;
        json_decref(r);
    }
    int df;
    enumerate_pool(6, 2, 9, (pool_rule){1, 1}, want);
    double chi = stats_chi2_merge_smallest(obs, want, NCAT, ROLLS, &df);
    ck_assert_msg(chi < stats_chi2_p001_wh(df), "chi2 %.1f >= %.1f (df %d)", chi,
                  stats_chi2_p001_wh(df), df);
    /* the same sample rejects the wrong rules */
    enumerate_pool(6, 2, 9, (pool_rule){0, 1}, wrong); /* keep lowest */
    ck_assert_double_gt(stats_chi2_merge_smallest(obs, wrong, NCAT, ROLLS, &df),
                        stats_chi2_p001_wh(df));
    enumerate_pool(6, 2, 9, (pool_rule){1, 0}, wrong); /* > instead of >= */
    ck_assert_double_gt(stats_chi2_merge_smallest(obs, wrong, NCAT, ROLLS, &df),
                        stats_chi2_p001_wh(df));
    enumerate_pool(5, 2, 9, (pool_rule){1, 1}, wrong); /* the +1k0 bonus missing */
    ck_assert_double_gt(stats_chi2_merge_smallest(obs, wrong, NCAT, ROLLS, &df),
                        stats_chi2_p001_wh(df));
    json_decref(params);
    rules_rng_destroy(rng);
}
END_TEST

START_TEST(pool_catastrophe_rate_matches_enumeration)
{
    /* 1k1 + 1 skill: 2 dice keep 1, catastrophe 1/36 — small pools make catastrophes common */
    static long obs[NCAT];
    static double want[NCAT], wrong[NCAT];
    memset(obs, 0, sizeof obs);
    rules_rng *rng = rules_rng_seeded(7);
    json_t *params = json_loads("{\"skill\":1,\"ability\":1,\"difficulty\":1}", 0, NULL);
    for (long i = 0; i < ROLLS; i++) {
        json_t *r;
        ck_assert_int_eq(rules_check_run("cot", "pool", params, rng, &r, NULL), 0);
        obs[cat_of(ru_ival(r, "total"), ru_bval(r, "success"), ru_bval(r, "catastrophe"))]++;
        json_decref(r);
    }
    int df;
    enumerate_pool(2, 1, 1, (pool_rule){1, 1}, want);
    double chi = stats_chi2_merge_smallest(obs, want, NCAT, ROLLS, &df);
    ck_assert_msg(chi < stats_chi2_p001_wh(df), "chi2 %.1f >= %.1f (df %d)", chi,
                  stats_chi2_p001_wh(df), df);
    enumerate_pool(2, 1, 1, (pool_rule){0, 1}, wrong);
    ck_assert_double_gt(stats_chi2_merge_smallest(obs, wrong, NCAT, ROLLS, &df),
                        stats_chi2_p001_wh(df));
    json_decref(params);
    rules_rng_destroy(rng);
}
END_TEST

START_TEST(opposed_distribution_matches_enumeration)
{
    /* actor 2k2 (skill 0, ability 2) vs opponent 3k2 (skill 1, ability 2): category = actor
     * total x success x actor catastrophe */
    static long obs[NCAT];
    static double want[NCAT], wrong[NCAT], opp[NCAT];
    memset(obs, 0, sizeof obs);
    rules_rng *rng = rules_rng_seeded(99);
    json_t *params =
        json_loads("{\"skill\":0,\"ability\":2,\"opp_skill\":1,\"opp_ability\":2}", 0, NULL);
    for (long i = 0; i < ROLLS; i++) {
        json_t *r;
        ck_assert_int_eq(rules_check_run("cot", "opposed", params, rng, &r, NULL), 0);
        obs[cat_of(ru_ival(r, "total"), ru_bval(r, "success"), ru_bval(r, "catastrophe"))]++;
        json_decref(r);
    }
    for (int rule = 0; rule < 2; rule++) {
        double *dst = rule ? wrong : want;
        memset(dst, 0, NCAT * sizeof *dst);
        /* opponent totals (difficulty 0: success column ignored) */
        enumerate_pool(3, 2, 0, (pool_rule){1, 1}, opp);
        for (int oc = 0; oc < NCAT; oc++) {
            if (opp[oc] == 0)
                continue;
            int ot = oc / 4;
            double act[NCAT];
            enumerate_pool(2, 2, ot, (pool_rule){1, rule == 0}, act);
            for (int a = 0; a < NCAT; a++)
                dst[a] += opp[oc] * act[a];
        }
    }
    int df;
    double chi = stats_chi2_merge_smallest(obs, want, NCAT, ROLLS, &df);
    ck_assert_msg(chi < stats_chi2_p001_wh(df), "chi2 %.1f >= %.1f (df %d)", chi,
                  stats_chi2_p001_wh(df), df);
    ck_assert_double_gt(stats_chi2_merge_smallest(obs, wrong, NCAT, ROLLS, &df),
                        stats_chi2_p001_wh(df)); /* ties lost */
    json_decref(params);
    rules_rng_destroy(rng);
}
END_TEST

/* ---- sheets ---- */

/* A sheet saved by the version before issue 16 (no heat, no resources) still validates and
 * reads them as 0; the new fields are checked like the others. */
START_TEST(a_sheet_from_before_heat_and_resources_still_works)
{
    json_t *old =
        json_loads("{\"name\":\"Vera\",\"abilities\":{\"muscle\":1,\"fingers\":3,\"brains\":2,"
                   "\"it\":2},\"skills\":{\"planning\":1},\"reputation\":4,\"foresight\":1}",
                   0, NULL);
    ck_assert_ptr_nonnull(old);
    tb_err err = {0};
    ck_assert_msg(rules_sheet_validate("cot", old, &err) == 0, "%s", err.msg);
    json_t *d = rules_sheet_derive("cot", old);
    json_t *crew = json_object_get(d, "crew");
    ck_assert_int_eq(ru_ival(crew, "heat"), 0);
    ck_assert_int_eq(ru_ival(crew, "resources"), 0);
    ck_assert_int_eq(ru_ival(crew, "reputation"), 4);
    json_decref(d);
    json_object_set_new(old, "heat", json_integer(-1));
    ck_assert_int_ne(rules_sheet_validate("cot", old, &err), 0);
    json_object_set_new(old, "heat", json_integer(2));
    json_object_set_new(old, "resources", json_integer(30));
    ck_assert_msg(rules_sheet_validate("cot", old, &err) == 0, "%s", err.msg);
    json_decref(old);
}
END_TEST

START_TEST(every_sample_character_passes)
{
    ck_assert_int_ge(ru_assert_every_sample_valid("cot"), 3);
}
END_TEST

static const char *BASE = "{\"name\":\"X\",\"abilities\":{\"muscle\":2,\"fingers\":2,\"brains\":2,"
                          "\"it\":2},\"skills\":{\"planning\":1}";

static void sheet_fails(const char *rest, const char *needle)
{
    char text[1024];
    snprintf(text, sizeof text, "%s%s}", BASE, rest);
    json_t *sheet = json_loads(text, 0, NULL);
    ck_assert_msg(sheet != NULL, "bad test JSON %s", text);
    ru_assert_sheet_invalid_underivable("cot", sheet, needle);
    json_decref(sheet);
}

START_TEST(bad_sheets_fail_with_their_message)
{
    tb_err err = {0};
    json_t *ok = json_loads("{\"name\":\"X\",\"abilities\":{\"muscle\":2,\"fingers\":2,"
                            "\"brains\":2,\"it\":2},\"skills\":{}}",
                            0, NULL);
    ck_assert_int_eq(rules_sheet_validate("cot", ok, &err), 0);
    json_decref(ok);
    json_t *arr = json_array();
    ck_assert_int_eq(rules_sheet_validate("cot", arr, &err), TB_BAD_REQUEST);
    ck_assert_ptr_nonnull(strstr(err.msg, "must be a JSON object"));
    json_decref(arr);
    json_t *noname = json_loads("{\"abilities\":{\"muscle\":2,\"fingers\":2,\"brains\":2,"
                                "\"it\":2},\"skills\":{}}",
                                0, NULL);
    ck_assert_int_eq(rules_sheet_validate("cot", noname, &err), TB_BAD_REQUEST);
    ck_assert_ptr_nonnull(strstr(err.msg, "missing required field 'name'"));
    json_decref(noname);
    json_t *noab = json_loads("{\"name\":\"X\",\"abilities\":{\"muscle\":2,\"fingers\":2,"
                              "\"brains\":2},\"skills\":{}}",
                              0, NULL);
    ck_assert_int_eq(rules_sheet_validate("cot", noab, &err), TB_BAD_REQUEST);
    ck_assert_ptr_nonnull(strstr(err.msg, "'abilities.it'"));
    json_decref(noab);
    ck_assert_int_eq(rules_sheet_validate("nosuch", NULL, &err), TB_NOT_FOUND);

    sheet_fails(",\"xp\":3", "unknown field 'xp'");
    sheet_fails(",\"reputation\":-1", "field 'reputation' must be in 0..1000 (got -1)");
    sheet_fails(",\"reputation\":\"lots\"", "field 'reputation' must be an integer");
    sheet_fails(",\"wounded\":1", "field 'wounded' must be true or false");
    sheet_fails(",\"notes\":5", "field 'notes' must be a string");
    sheet_fails(",\"loyalties\":{}", "field 'loyalties' must be a list");
    sheet_fails(",\"loyalties\":[{\"kind\":\"Hated\",\"target\":\"Police\",\"prime\":true},"
                "{\"kind\":\"Desire\",\"target\":\"Gold\",\"prime\":true}]",
                "exactly one Prime Loyalty (has 2) (000:227)");
    sheet_fails(",\"loyalties\":[{\"kind\":\"Hated\",\"target\":\"Police\"}]",
                "exactly one Prime Loyalty (has 0)");
    sheet_fails(",\"loyalties\":[{\"kind\":\"A\",\"target\":\"a\",\"prime\":true},"
                "{\"kind\":\"B\",\"target\":\"b\"},{\"kind\":\"C\",\"target\":\"c\"},"
                "{\"kind\":\"D\",\"target\":\"d\"},{\"kind\":\"E\",\"target\":\"e\"}]",
                "field 'loyalties' must have 0..4 entries (got 5)");
    sheet_fails(",\"loyalties\":[{\"kind\":\"\",\"target\":\"a\",\"prime\":true}]",
                "field 'loyalties[0].kind' must be 1..40 characters long");
    sheet_fails(",\"loyalties\":[{\"target\":\"a\",\"prime\":true}]",
                "missing required field 'loyalties[0].kind'");
    sheet_fails(",\"foresight\":4", "field 'foresight' must be at most Brains+Planning = 3");
    sheet_fails(",\"recovery_days\":2", "'recovery_days' needs 'wounded': true");
    sheet_fails(",\"gear\":[{\"name\":\"gun\",\"kind\":\"cannon\"}]",
                "field 'gear[0].kind' must be one of: weapon, armour, vehicle, tool");
    sheet_fails(",\"gear\":[{\"name\":\"gun\",\"kind\":\"weapon\",\"speed\":3}]",
                "only a vehicle has speed or body");
    /* skills are checked by name and range */
    json_t *s = json_loads("{\"name\":\"X\",\"abilities\":{\"muscle\":2,\"fingers\":2,"
                           "\"brains\":2,\"it\":11},\"skills\":{\"stealth\":1}}",
                           0, NULL);
    ck_assert_int_eq(rules_sheet_validate("cot", s, &err), TB_BAD_REQUEST);
    ck_assert_ptr_nonnull(strstr(err.msg, "field 'abilities.it' must be in 1..10 (got 11)"));
    json_object_set_new(json_object_get(s, "abilities"), "it", json_integer(2));
    ck_assert_int_eq(rules_sheet_validate("cot", s, &err), TB_BAD_REQUEST);
    ck_assert_ptr_nonnull(strstr(err.msg, "unknown field 'skills.stealth'"));
    json_object_del(json_object_get(s, "skills"), "stealth");
    json_object_set_new(json_object_get(s, "skills"), "sneak", json_integer(11));
    ck_assert_int_eq(rules_sheet_validate("cot", s, &err), TB_BAD_REQUEST);
    ck_assert_ptr_nonnull(strstr(err.msg, "field 'skills.sneak' must be in 0..10 (got 11)"));
    json_decref(s);
}
END_TEST

START_TEST(sheet_schema_describes_every_skill_with_its_group)
{
    json_t *schema = rules_sheet_schema("cot");
    ck_assert_ptr_nonnull(schema);
    json_t *fields = json_object_get(schema, "fields");
    size_t i;
    json_t *f, *skills = NULL;
    json_array_foreach(fields, i, f) if (strcmp(json_string_value(json_object_get(f, "name")),
                                                "skills") == 0) skills = f;
    ck_assert_ptr_nonnull(skills);
    json_t *sub = json_object_get(skills, "fields");
    ck_assert_int_eq(json_array_size(sub), 24);
    json_t *lp = json_array_get(sub, 10);
    ck_assert_str_eq(json_string_value(json_object_get(lp, "name")), "lockpicking");
    ck_assert_str_eq(json_string_value(json_object_get(lp, "group")), "Fingers");
    ck_assert_int_eq(json_integer_value(json_object_get(lp, "max")), 10);
    ck_assert_str_eq(json_string_value(json_object_get(lp, "cite")), "000:67");
    json_decref(schema);
}
END_TEST

/* 000:237 the alteration of one Loyalty, in a Social Call or at the beginning of a session: to
 * "Kind: Target" or swapped with the Prime; every refusal leaves the Loyalties as they were. */
START_TEST(a_loyalty_changes_or_swaps_with_the_prime_and_refusals_change_nothing)
{
    static const struct {
        int n;
        const char *to;
        int prime;
        int code;
        const char *says; /* part of the refusal, or of the altered Loyalty's text */
        int was_prime;
    } cases[] = {
        {2, "Desire: Ruth the Flapper", 0, 0, "Desire: Ruth the Flapper", 0},
        {2, "  Hated :  Police  ", 0, 0, "Hated: Police", 0},
        {2, NULL, 1, 0, "Hatred: Germans (Prime)", 1},
        {1, NULL, 1, TB_RULE, "already is Ann's Prime", 0},
        /* issue 25: the Prime itself is not rewritten (000:237 "changing the regular
         * Loyalties"; the Prime only trades places) */
        {1, "Desire: Money", 0, TB_RULE, "the Prime", 0},
        {3, NULL, 1, TB_RULE, "Ann has no Loyalty 3", 0},
        {0, "Desire: Money", 0, TB_RULE, "no Loyalty 0", 0},
        {2, NULL, 0, TB_BAD_REQUEST, "one of the two", 0},
        {2, "Desire: Money", 1, TB_BAD_REQUEST, "one of the two", 0},
        {2, "Money", 0, TB_BAD_REQUEST, "Kind: Target", 0},
        {2, ": Money", 0, TB_BAD_REQUEST, "Kind: Target", 0},
        {2, "Desire:  ", 0, TB_BAD_REQUEST, "Kind: Target", 0},
        {2, "An extremely long kind of relationship, longer than forty: x", 0, TB_BAD_REQUEST,
         "at most 40", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *loy = json_pack("[{s:s, s:s, s:b}, {s:s, s:s}]", "kind", "Devoted", "target",
                                "Husband", "prime", 1, "kind", "Hatred", "target", "Germans");
        json_t *before = json_deep_copy(loy);
        tb_err err = {0};
        int was = -1;
        int rc = cot_loyalty_alter(loy, cases[i].n, cases[i].to, cases[i].prime, "Ann", &was, &err);
        ck_assert_msg(rc == cases[i].code, "case %zu: code %d, want %d (%s)", i, rc, cases[i].code,
                      err.msg);
        if (rc) {
            ck_assert_msg(strstr(err.msg, cases[i].says), "case %zu: '%s' lacks '%s'", i, err.msg,
                          cases[i].says);
            ck_assert_msg(json_equal(loy, before), "case %zu: a refusal changed the Loyalties", i);
        } else {
            char txt[160];
            cot_loyalty_text(json_array_get(loy, (size_t)cases[i].n - 1), txt, sizeof txt);
            ck_assert_str_eq(txt, cases[i].says);
            ck_assert_int_eq(was, cases[i].was_prime);
            /* still exactly one Prime (000:227) */
            json_t *sheet = json_pack("{s:s, s:{s:i, s:i, s:i, s:i}, s:{}, s:O}", "name", "Ann",
                                      "abilities", "muscle", 1, "fingers", 1, "brains", 1, "it", 1,
                                      "skills", "loyalties", loy);
            ck_assert_int_eq(rules_sheet_validate("cot", sheet, &err), 0);
            json_decref(sheet);
        }
        json_decref(loy);
        json_decref(before);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cot");
    TCase *ex = tcase_create("rulebook");
    tcase_add_test(ex, pool_keeps_the_ability_many_highest_issue_example);
    tcase_add_test(ex, pool_meeting_the_difficulty_succeeds_one_below_fails);
    tcase_add_test(ex, pool_all_ones_is_a_catastrophe_and_always_fails);
    tcase_add_test(ex, pool_bonus_is_plus_b_k0);
    tcase_add_test(ex, pool_negative_bonus_removes_dice_and_keeps_all_left);
    tcase_add_test(ex, opposed_opponent_rolls_first_and_sets_the_difficulty);
    tcase_add_test(ex, opposed_opponent_catastrophe_still_sets_its_total);
    tcase_add_test(ex, guard_scores_are_three_per_kept_die_plus_one_per_extra);
    tcase_add_test(ex, cover_pool_adds_armour_bonus);
    tcase_add_test(ex, param_errors_name_the_parameter);
    suite_add_tcase(s, ex);
    TCase *st = tcase_create("statistics");
    tcase_set_timeout(st, 300);
    tcase_add_test(st, pool_distribution_matches_enumeration);
    tcase_add_test(st, pool_catastrophe_rate_matches_enumeration);
    tcase_add_test(st, opposed_distribution_matches_enumeration);
    suite_add_tcase(s, st);
    TCase *sh = tcase_create("sheets");
    tcase_add_test(sh, every_sample_character_passes);
    tcase_add_test(sh, a_sheet_from_before_heat_and_resources_still_works);
    tcase_add_test(sh, bad_sheets_fail_with_their_message);
    tcase_add_test(sh, sheet_schema_describes_every_skill_with_its_group);
    tcase_add_test(sh, a_loyalty_changes_or_swaps_with_the_prime_and_refusals_change_nothing);
    suite_add_tcase(s, sh);
    return ru_run_suite(s);
}
