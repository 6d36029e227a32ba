/*
 * test_tenacity.c — 10acity Tactics (rulebook 003): the rulebook's worked examples with scripted
 * dice (hero dice, ties, criticals, doubles, fumbles, pushing, impact, piloting, wounds), the
 * distributions of the check against exact enumerations (and against deliberately wrong rules,
 * which must be rejected), the sample sheets, each kind of bad field and of bad parameter.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "system.h"
#include "tenacity/tenacity.h"
#include "rules_util.h"
#include "stats.h"

/* ---- helpers ---- */
/* Scripted checks, result fields, samples and error checks are shared (rules_util.h). The
 * distribution tests compare STAT_ROLLS seeded rolls with exact enumerations using
 * stats_assert_fits_only (stats.h): sparse categories pooled into one bin, Wilson-Hilferty
 * p = 0.001 with df clamped to >= 1. */

/* Runs `tenacity CHECK` with scripted faces; the script must not run out (rules_util.h). */
static json_t *run_scripted(const char *check, const char *params, const int *faces, size_t n)
{
    return ru_run_scripted("tenacity", check, params, faces, n);
}

/* ---- worked examples (003) ---- */

/* 003:18-20 2d10 for Investigation (rank 2): "if they rolled a 3 and a 6, they would take the 6
 * and then add the rank ... a total value of 8". "if the challenge roll was 7 or less, then the
 * character would succeed ... If the challenge roll was 8 or greater, then the character would
 * fail". */
START_TEST(example_investigation_check)
{
    int f[] = {3, 6, 2}; /* hero 3, 6; impact d4 (rank 2 -> 1 die) */
    json_t *r = run_scripted("check", "{\"dice\":2,\"rank\":2,\"challenge\":7}", f, 3);
    ck_assert_int_eq(ru_ival(r, "highest"), 6);
    ck_assert_int_eq(ru_ival(r, "total"), 8);
    ck_assert(ru_bval(r, "success"));
    ck_assert_int_eq(ru_ival(r, "impact_dice"), 1);
    ck_assert_int_eq(ru_ival(r, "impact"), 2);
    json_t *d0 = json_array_get(json_object_get(r, "dice"), 0);
    ck_assert(!json_is_true(json_object_get(d0, "kept")));
    json_decref(r);
    r = run_scripted("check", "{\"dice\":2,\"rank\":2,\"challenge\":8}", f, 2);
    ck_assert_int_eq(ru_ival(r, "total"), 8);
    ck_assert(!ru_bval(r, "success"));
    ck_assert(json_is_null(json_object_get(r, "impact")));
    json_decref(r);
}
END_TEST

/* 003:13 challenge dice summed; 003:14 "+1 and a +3 to the challenge roll". */
START_TEST(example_challenge_dice_are_summed)
{
    int f[] = {9, 4, 3, 1}; /* hero 9; challenge 4 + 3 (+1) = 8; impact d4 1 */
    json_t *r = run_scripted(
        "check", "{\"dice\":1,\"rank\":2,\"challenge_dice\":2,\"challenge_bonus\":1}", f, 4);
    ck_assert_int_eq(ru_ival(r, "challenge"), 8);
    ck_assert_int_eq(ru_ival(r, "total"), 11);
    ck_assert(ru_bval(r, "success"));
    json_decref(r);
    int g[] = {6, 4, 3}; /* 6 + 2 = 8 vs 8: the tie goes to the defender */
    r = run_scripted("check", "{\"dice\":1,\"rank\":2,\"challenge_dice\":2,\"challenge_bonus\":1}",
                     g, 3);
    ck_assert(!ru_bval(r, "success"));
    json_decref(r);
}
END_TEST

/* 003:28 a natural 10: an extra hero die added to the check "in case your natural 10 was not
 * high enough to succeed on its own", or an extra impact die. */
START_TEST(example_critical_extra_hero_or_impact_die)
{
    int f[] = {10, 4, 5, 3, 2}; /* 10 + 2 = 12 vs 15 fails: auto takes the hero die 5 -> 17 */
    json_t *r = run_scripted("check", "{\"dice\":2,\"rank\":2,\"challenge\":15}", f, 4);
    ck_assert(ru_bval(r, "critical"));
    ck_assert_str_eq(json_string_value(json_object_get(r, "crit")), "hero");
    ck_assert_int_eq(ru_ival(r, "total"), 17);
    ck_assert(ru_bval(r, "success"));
    ck_assert_int_eq(ru_ival(r, "impact_dice"), 1);
    ck_assert_int_eq(ru_ival(r, "impact"), 3);
    json_decref(r);
    int g[] = {10, 4, 3, 2}; /* 12 vs 5 succeeds: auto takes the impact die: 2 d4 */
    r = run_scripted("check", "{\"dice\":2,\"rank\":2,\"challenge\":5}", g, 4);
    ck_assert_str_eq(json_string_value(json_object_get(r, "crit")), "impact");
    ck_assert_int_eq(ru_ival(r, "total"), 12);
    ck_assert_int_eq(ru_ival(r, "impact_dice"), 2);
    ck_assert_int_eq(ru_ival(r, "impact"), 5);
    json_decref(r);
    /* the player may choose: crit=hero even when already succeeding */
    int h[] = {10, 4, 1, 4};
    r = run_scripted("check", "{\"dice\":2,\"rank\":2,\"challenge\":5,\"crit\":\"hero\"}", h, 4);
    ck_assert_int_eq(ru_ival(r, "total"), 13);
    ck_assert_int_eq(ru_ival(r, "impact_dice"), 1);
    json_decref(r);
}
END_TEST

/* 003:29 doubles give a point of spin; 003:95 also a failed action; only on actions. */
START_TEST(example_doubles_and_failure_give_spin)
{
    int f[] = {4, 4, 1};
    json_t *r = run_scripted("check", "{\"dice\":2,\"rank\":2,\"challenge\":3}", f, 3);
    ck_assert(ru_bval(r, "doubles"));
    ck_assert_int_eq(ru_ival(r, "spin"), 1);
    json_decref(r);
    r = run_scripted("check", "{\"dice\":2,\"rank\":2,\"challenge\":3,\"action\":0}", f, 3);
    ck_assert_int_eq(ru_ival(r, "spin"), 0);
    json_decref(r);
    int g[] = {2, 5};
    r = run_scripted("check", "{\"dice\":2,\"rank\":0,\"challenge\":9}", g, 2);
    ck_assert(!ru_bval(r, "success"));
    ck_assert(!ru_bval(r, "doubles"));
    ck_assert_int_eq(ru_ival(r, "spin"), 1);
    json_decref(r);
}
END_TEST

/* 003:30 "If your highest die value on your hero dice is a 1 ... a point of negative spin. You can
 * still succeed ... but you cannot accrue spin on any action which results in a fumble." */
START_TEST(example_fumble_gives_negative_spin)
{
    int f[] = {1, 1, 3, 2};
    json_t *r = run_scripted("check", "{\"dice\":2,\"rank\":5,\"challenge\":3}", f, 4);
    ck_assert(ru_bval(r, "fumble"));
    ck_assert(ru_bval(r, "doubles"));
    ck_assert(ru_bval(r, "success"));
    ck_assert_int_eq(ru_ival(r, "total"), 6);
    ck_assert_int_eq(ru_ival(r, "spin"), -1);
    json_decref(r);
    int g[] = {1};
    r = run_scripted("check", "{\"dice\":1,\"rank\":0,\"challenge\":3}", g, 1);
    ck_assert(ru_bval(r, "fumble"));
    ck_assert(!ru_bval(r, "success"));
    ck_assert_int_eq(ru_ival(r, "spin"), -1);
    json_decref(r);
}
END_TEST

/* 003:32-37 pushing a failure: spin and 10acity +1 each, then negative spin +1 each, never more
 * than 10 negative spin. */
START_TEST(example_pushing_a_failure)
{
    int f[] = {5, 2}; /* 5 + 2 = 7 vs 9: 3 short; spin 1, 10acity 1, 1 negative; impact 2 */
    json_t *r = run_scripted(
        "check", "{\"dice\":1,\"rank\":2,\"challenge\":9,\"push\":1,\"spin\":1,\"tenacity\":1}", f,
        2);
    ck_assert(ru_bval(r, "success"));
    ck_assert_int_eq(ru_ival(r, "total"), 10);
    json_t *p = json_object_get(r, "push");
    ck_assert_int_eq(ru_ival(p, "spin"), 1);
    ck_assert_int_eq(ru_ival(p, "tenacity"), 1);
    ck_assert_int_eq(ru_ival(p, "negative"), 1);
    ck_assert_int_eq(ru_ival(r, "spin"), 0);
    json_decref(r);
    /* at -9 spin only one more negative point fits: a 3-point push is refused */
    int g[] = {5};
    r = run_scripted("check", "{\"dice\":1,\"rank\":2,\"challenge\":9,\"push\":1,\"spin\":-9}", g,
                     1);
    ck_assert(!ru_bval(r, "success"));
    ck_assert_ptr_null(json_object_get(r, "push"));
    json_decref(r);
    tenacity_push pp;
    ck_assert_int_eq(tenacity_push_plan(1, -9, 0, 0, &pp), 0);
    ck_assert_int_eq(pp.negative, 1);
    ck_assert_int_eq(tenacity_push_plan(2, -9, 0, 0, &pp), -1);
    /* negative spin blocks spending spin; a fumble's own point counts against the 10 */
    ck_assert_int_eq(tenacity_push_plan(3, 0, 5, 0, &pp), 0);
    ck_assert_int_eq(pp.tenacity, 3);
    ck_assert_int_eq(tenacity_push_plan(10, 0, 0, -1, &pp), -1);
    ck_assert_int_eq(tenacity_push_plan(9, 0, 0, -1, &pp), 0);
}
END_TEST

/* 003:9, 003:15 impact d4s = half the rank rounded down; 003:12 plus equipment bonuses. */
START_TEST(example_impact_dice)
{
    ck_assert_int_eq(tenacity_impact_dice(0), 0);
    ck_assert_int_eq(tenacity_impact_dice(1), 0);
    ck_assert_int_eq(tenacity_impact_dice(5), 2);
    ck_assert_int_eq(tenacity_impact_dice(10), 5);
    int f[] = {7, 4, 1};
    json_t *r =
        run_scripted("check", "{\"dice\":1,\"rank\":5,\"challenge\":6,\"impact_bonus\":2}", f, 3);
    ck_assert_int_eq(ru_ival(r, "impact_dice"), 2);
    ck_assert_int_eq(ru_ival(r, "impact"), 7);
    json_decref(r);
}
END_TEST

/* 003:66-68 attack vs the defender's hero dice; ties to the defender. */
START_TEST(example_opposed_ties_to_defender)
{
    int f[] = {7, 5, 2}; /* actor 7+1 = 8 vs defender 5+3 = 8 */
    json_t *r =
        run_scripted("opposed", "{\"dice\":1,\"rank\":1,\"def_dice\":1,\"def_rank\":3}", f, 2);
    ck_assert_int_eq(ru_ival(r, "total"), 8);
    ck_assert_int_eq(ru_ival(json_object_get(r, "defence"), "total"), 8);
    ck_assert(!ru_bval(r, "success"));
    json_decref(r);
    int g[] = {8, 5, 2}; /* 9 vs 8: hit, impact d4 = 2 */
    r = run_scripted("opposed", "{\"dice\":1,\"rank\":1,\"def_dice\":1,\"def_rank\":3}", g, 2);
    ck_assert(ru_bval(r, "success"));
    ck_assert_int_eq(ru_ival(r, "impact_dice"), 0);
    json_decref(r);
}
END_TEST

/* 003:67 "1 spin ... for every 2 points of impact generated (minimum 1)" */
START_TEST(example_create_an_advantage)
{
    ck_assert_int_eq(tenacity_advantage_spin(1), 1);
    ck_assert_int_eq(tenacity_advantage_spin(5), 2);
    ck_assert_int_eq(tenacity_advantage_spin(6), 3);
}
END_TEST

/* 003:74 "if a character has 3 points of wound, it would require 15 recovery to heal the first
 * ... Then 10 ... and 5 ... for a grand total of 30 recovery." */
START_TEST(example_wound_recovery)
{
    ck_assert_int_eq(tenacity_wound_recovery(3), 15);
    ck_assert_int_eq(tenacity_wound_recovery(2), 10);
    ck_assert_int_eq(tenacity_wound_recovery(1), 5);
    ck_assert_int_eq(
        tenacity_wound_recovery(3) + tenacity_wound_recovery(2) + tenacity_wound_recovery(1), 30);
}
END_TEST

/* 003:78 Missa, pilot 1, ship maneuverability 3: "a total of +2"; pilot 3, ship 1: "the 1 rank
 * from the ship then another +1". */
START_TEST(example_piloting)
{
    ck_assert_int_eq(tenacity_pilot_bonus(1, 3), 2);
    ck_assert_int_eq(tenacity_pilot_bonus(3, 1), 2);
    ck_assert_int_eq(tenacity_pilot_bonus(2, 2), 2);
    ck_assert_int_eq(tenacity_pilot_bonus(0, 5), 2);
}
END_TEST

/* 003:65 Missa's 3 impact and a teammate's 2 make a pool of 5; 003:106 waking alone needs 2d6 +
 * 1d6 per wound. */
START_TEST(example_explore_pool_and_unconscious)
{
    int f[] = {9, 2, 1}; /* Missa: 2d10 Awareness, Investigation 2: 9 -> 11 vs 6; impact d4 */
    json_t *r = run_scripted("check", "{\"dice\":2,\"rank\":2,\"challenge\":6}", f, 3);
    int pool = ru_ival(r, "impact") + 2;
    ck_assert_int_eq(pool, 3);
    json_decref(r);
    ck_assert_int_eq(tenacity_unconscious_dice(0), 2);
    ck_assert_int_eq(tenacity_unconscious_dice(3), 5);
}
END_TEST

START_TEST(result_shape_and_format)
{
    int f[] = {3, 6, 2};
    json_t *r = run_scripted("check", "{\"dice\":2,\"rank\":2,\"challenge\":7}", f, 3);
    json_t *dice = json_object_get(r, "dice");
    ck_assert_int_eq((int)json_array_size(dice), 3);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(dice, 2), "role")), "impact");
    ck_assert_int_eq(ru_ival(r, "challenge"), 7);
    ru_assert_line(r, "hero [3] 6; impact 2 → 8 vs 7: success, impact 2");
    json_decref(r);
}
END_TEST

/* ---- distributions ---- */

enum {
    T_RIGHT,
    T_LOWEST,
    T_TIES_ACTOR,
    T_NO_RANK,
    T_CRIT_KEEP,
    T_D6_HIGHEST,
    T_NO_CBONUS,
    T_ROUND_UP,
    T_NO_CRIT_DIE,
    T_NO_IBONUS,
    T_PAIR_TOP,
    T_ANY_ONE
};
static const char *const tnames[] = {"right",
                                     "keep lowest",
                                     "ties to the actor",
                                     "rank not added",
                                     "critical die kept, not added",
                                     "challenge = highest d6",
                                     "challenge bonus missing",
                                     "impact dice rounded up",
                                     "no critical impact die",
                                     "impact bonus missing",
                                     "doubles = two highest equal",
                                     "any 1 is a fumble"};

/* A: dice=3 rank=2 challenge=8 crit=impact; category highest x success. */
static int cat_a(const json_t *r)
{
    return (ru_ival(r, "highest") - 1) * 2 + ru_bval(r, "success");
}

START_TEST(dist_keep_highest_add_rank_beat_challenge)
{
    enum { K = 20 };
    long counts[K];
    ru_sample_counts("tenacity", "check",
                     "{\"dice\":3,\"rank\":2,\"challenge\":8,\"crit\":\"impact\"}", 3011, cat_a,
                     counts, K);
    int vs[] = {T_RIGHT, T_LOWEST, T_TIES_ACTOR, T_NO_RANK};
    double dist[4][K];
    memset(dist, 0, sizeof dist);
    for (int v = 0; v < 4; v++)
        for (int a = 1; a <= 10; a++)
            for (int b = 1; b <= 10; b++)
                for (int c = 1; c <= 10; c++) {
                    int hi = a > b ? a : b;
                    hi = hi > c ? hi : c;
                    int lo = a < b ? a : b;
                    lo = lo < c ? lo : c;
                    int die = vs[v] == T_LOWEST ? lo : hi;
                    int total = die + (vs[v] == T_NO_RANK ? 0 : 2);
                    int ok = vs[v] == T_TIES_ACTOR ? total >= 8 : total > 8;
                    dist[v][(die - 1) * 2 + ok] += 1e-3;
                }
    const double *wp[3] = {dist[1], dist[2], dist[3]};
    const char *wn[3] = {tnames[T_LOWEST], tnames[T_TIES_ACTOR], tnames[T_NO_RANK]};
    stats_assert_fits_only("check dice=3 rank=2 challenge=8", counts, STAT_ROLLS, dist[0], wp, wn,
                           3, K);
}
END_TEST

/* B: dice=2 rank=1 challenge=12 (crit auto): only a natural 10 plus its added hero die can win. */
START_TEST(dist_critical_hero_die_is_added)
{
    enum { K = 20 };
    long counts[K];
    ru_sample_counts("tenacity", "check", "{\"dice\":2,\"rank\":1,\"challenge\":12}", 3028, cat_a,
                     counts, K);
    double dist[2][K];
    memset(dist, 0, sizeof dist);
    for (int v = 0; v < 2; v++)
        for (int a = 1; a <= 10; a++)
            for (int b = 1; b <= 10; b++)
                for (int x = 1; x <= 10; x++) {
                    int hi = a > b ? a : b;
                    int total = hi + 1;
                    if (hi == 10) /* 11 <= 12: the auto choice is the hero die */
                        total = v == 0 ? total + x : (x > hi ? x : hi) + 1;
                    dist[v][(hi - 1) * 2 + (total > 12)] += 1e-3;
                }
    const double *wp[1] = {dist[1]};
    const char *wn[1] = {tnames[T_CRIT_KEEP]};
    stats_assert_fits_only("check dice=2 rank=1 challenge=12", counts, STAT_ROLLS, dist[0], wp, wn,
                           1, K);
}
END_TEST

/* C: dice=2 rank=3 challenge_dice=2 challenge_bonus=1 crit=impact: total (4..13) x success. */
static int cat_c(const json_t *r)
{
    return ru_ival(r, "total") * 2 + ru_bval(r, "success");
}

START_TEST(dist_challenge_dice_sum_ties_to_defender)
{
    enum { K = 28 };
    long counts[K];
    ru_sample_counts(
        "tenacity", "check",
        "{\"dice\":2,\"rank\":3,\"challenge_dice\":2,\"challenge_bonus\":1,\"crit\":\"impact\"}",
        3013, cat_c, counts, K);
    int vs[] = {T_RIGHT, T_TIES_ACTOR, T_D6_HIGHEST, T_NO_CBONUS};
    double dist[4][K];
    memset(dist, 0, sizeof dist);
    for (int v = 0; v < 4; v++)
        for (int a = 1; a <= 10; a++)
            for (int b = 1; b <= 10; b++)
                for (int c = 1; c <= 6; c++)
                    for (int d = 1; d <= 6; d++) {
                        int total = (a > b ? a : b) + 3;
                        int ch = vs[v] == T_D6_HIGHEST ? (c > d ? c : d) : c + d;
                        ch += vs[v] == T_NO_CBONUS ? 0 : 1;
                        int ok = vs[v] == T_TIES_ACTOR ? total >= ch : total > ch;
                        dist[v][total * 2 + ok] += 1.0 / 3600;
                    }
    const double *wp[3] = {dist[1], dist[2], dist[3]};
    const char *wn[3] = {tnames[T_TIES_ACTOR], tnames[T_D6_HIGHEST], tnames[T_NO_CBONUS]};
    stats_assert_fits_only("check dice=2 rank=3 challenge_dice=2+1", counts, STAT_ROLLS, dist[0],
                           wp, wn, 3, K);
}
END_TEST

/* D: dice=1 rank=5 challenge=0 impact_bonus=1: impact = 2d4 (+1d4 on a natural 10) + 1. */
static int cat_d(const json_t *r)
{
    return ru_ival(r, "impact");
}

START_TEST(dist_impact_half_rank_d4_plus_bonus)
{
    enum { K = 18 };
    long counts[K];
    ru_sample_counts("tenacity", "check",
                     "{\"dice\":1,\"rank\":5,\"challenge\":0,\"impact_bonus\":1}", 3009, cat_d,
                     counts, K);
    int vs[] = {T_RIGHT, T_ROUND_UP, T_NO_CRIT_DIE, T_NO_IBONUS};
    double dist[4][K];
    memset(dist, 0, sizeof dist);
    for (int v = 0; v < 4; v++)
        for (int h = 1; h <= 10; h++) {
            int n = (vs[v] == T_ROUND_UP ? 3 : 2) + (h == 10 && vs[v] != T_NO_CRIT_DIE);
            /* enumerate n d4 (n <= 4) */
            int faces = 1;
            for (int i = 0; i < n; i++)
                faces *= 4;
            for (int code = 0; code < faces; code++) {
                int sum = 0, c = code;
                for (int i = 0; i < n; i++) {
                    sum += c % 4 + 1;
                    c /= 4;
                }
                sum += vs[v] == T_NO_IBONUS ? 0 : 1;
                dist[v][sum] += 0.1 / faces;
            }
        }
    const double *wp[3] = {dist[1], dist[2], dist[3]};
    const char *wn[3] = {tnames[T_ROUND_UP], tnames[T_NO_CRIT_DIE], tnames[T_NO_IBONUS]};
    stats_assert_fits_only("impact rank=5 impact_bonus=1", counts, STAT_ROLLS, dist[0], wp, wn, 3,
                           K);
}
END_TEST

/* E: dice=3 rank=0, no challenge: highest x doubles x spin (-1, 0, +1). */
static int cat_e(const json_t *r)
{
    return ((ru_ival(r, "highest") - 1) * 2 + ru_bval(r, "doubles")) * 3 + ru_ival(r, "spin") + 1;
}

START_TEST(dist_doubles_and_fumbles)
{
    enum { K = 60 };
    long counts[K];
    ru_sample_counts("tenacity", "check", "{\"dice\":3,\"rank\":0}", 3029, cat_e, counts, K);
    int vs[] = {T_RIGHT, T_PAIR_TOP, T_ANY_ONE};
    double dist[3][K];
    memset(dist, 0, sizeof dist);
    for (int v = 0; v < 3; v++)
        for (int a = 1; a <= 10; a++)
            for (int b = 1; b <= 10; b++)
                for (int c = 1; c <= 10; c++) {
                    int f[3] = {a, b, c};
                    /* sort high to low */
                    for (int i = 0; i < 3; i++)
                        for (int j = i + 1; j < 3; j++)
                            if (f[j] > f[i]) {
                                int t = f[i];
                                f[i] = f[j];
                                f[j] = t;
                            }
                    int dbl = vs[v] == T_PAIR_TOP ? f[0] == f[1] : (f[0] == f[1] || f[1] == f[2]);
                    int fum = vs[v] == T_ANY_ONE ? f[2] == 1 : f[0] == 1;
                    int spin = fum ? -1 : dbl;
                    dist[v][((f[0] - 1) * 2 + dbl) * 3 + spin + 1] += 1e-3;
                }
    const double *wp[2] = {dist[1], dist[2]};
    const char *wn[2] = {tnames[T_PAIR_TOP], tnames[T_ANY_ONE]};
    stats_assert_fits_only("doubles/fumble dice=3", counts, STAT_ROLLS, dist[0], wp, wn, 2, K);
}
END_TEST

/* ---- sheets ---- */

static const char *const sample_files[] = {"missa.json", "brakka.json", "odessa.json"};

static json_t *sample(int i)
{
    return ru_load_sample("tenacity", sample_files[i]);
}

START_TEST(every_sample_sheet_validates)
{
    ru_assert_sample_valid("tenacity", sample_files[_i]);
}
END_TEST

START_TEST(derived_values_of_the_samples)
{
    json_t *s = sample(0); /* Missa */
    json_t *d = rules_sheet_derive("tenacity", s);
    json_t *inv = json_object_get(json_object_get(d, "skills"), "Investigation");
    ck_assert_str_eq(json_string_value(json_object_get(inv, "attribute")), "Awareness");
    ck_assert_int_eq(ru_ival(inv, "dice"), 2);
    ck_assert_int_eq(ru_ival(inv, "rank"), 2);
    ck_assert_int_eq(ru_ival(inv, "impact_dice"), 1);
    ck_assert_str_eq(json_string_value(json_object_get(inv, "rating")), "trained");
    ck_assert_int_eq(
        ru_ival(json_object_get(json_object_get(d, "skills"), "Crafting"), "impact_bonus"), 1);
    ck_assert(ru_bval(d, "can_generate_spin"));
    json_decref(d);
    json_decref(s);
    s = sample(1); /* Brakka: 1 wound, -2 spin, Expert melee */
    d = rules_sheet_derive("tenacity", s);
    json_t *melee = json_object_get(json_object_get(d, "skills"), "Melee Combat");
    ck_assert_str_eq(json_string_value(json_object_get(melee, "rating")), "expert");
    ck_assert_int_eq(ru_ival(melee, "impact_dice"), 3);
    ck_assert_int_eq(ru_ival(melee, "impact_bonus"), 2);
    ck_assert_int_eq(ru_ival(d, "spin_usable"), 0);
    ck_assert_int_eq(ru_ival(d, "negative_spin"), 2);
    ck_assert_int_eq(ru_ival(d, "wound_recovery_needed"), 5);
    ck_assert_int_eq(ru_ival(d, "unconscious_challenge_dice"), 3);
    json_decref(d);
    json_decref(s);
    s = sample(2); /* Odessa: Legendary Deception */
    d = rules_sheet_derive("tenacity", s);
    ck_assert_str_eq(json_string_value(json_object_get(
                         json_object_get(json_object_get(d, "skills"), "Deception"), "rating")),
                     "legendary");
    ck_assert(ru_bval(d, "can_recover_tenacity"));
    json_decref(d);
    json_decref(s);
}
END_TEST

/* Each mutation is applied to Missa by a small function; `message` must appear in the error. */
typedef void (*mutate_fn)(json_t *s);

static json_t *attr_at(json_t *s, size_t i)
{
    return json_array_get(json_object_get(s, "attributes"), i);
}

static void m_unknown(json_t *s)
{
    json_object_set_new(s, "level", json_integer(3));
}
static void m_five_attributes(json_t *s)
{
    json_array_remove(json_object_get(s, "attributes"), 5);
}
static void m_three_skills(json_t *s)
{
    json_array_remove(json_object_get(attr_at(s, 2), "skills"), 0);
}
static void m_rank_11(json_t *s)
{
    json_object_set_new(json_array_get(json_object_get(attr_at(s, 0), "skills"), 1), "rank",
                        json_integer(11));
}
static void m_zero_dice(json_t *s)
{
    json_object_set_new(attr_at(s, 1), "dice", json_integer(0));
}
static void m_dup_attribute(json_t *s)
{
    json_object_set_new(attr_at(s, 1), "name", json_string("Might"));
}
static void m_dup_skill(json_t *s)
{
    json_object_set_new(json_array_get(json_object_get(attr_at(s, 1), "skills"), 0), "name",
                        json_string("Athletics"));
}
static void m_stress_over(json_t *s)
{
    json_object_set_new(json_object_get(s, "stress"), "current", json_integer(11));
}
static void m_wounds_over(json_t *s)
{
    json_object_set_new(json_object_get(s, "wounds"), "current", json_integer(4));
}
static void m_negative_spin(json_t *s)
{
    json_object_set_new(s, "spin", json_integer(-11));
}
static void m_hinder_zero(json_t *s)
{
    json_t *c = json_loads("[{\"kind\":\"hinder\",\"what\":\"legs\"}]", 0, NULL);
    json_object_set_new(s, "conditions", c);
}
static void m_condition_kind(json_t *s)
{
    json_t *c = json_loads("[{\"kind\":\"slow\",\"what\":\"legs\",\"value\":1}]", 0, NULL);
    json_object_set_new(s, "conditions", c);
}
static void m_equipment_skill(json_t *s)
{
    json_t *e = json_loads("[{\"name\":\"Sword\",\"skill\":\"Swordplay\"}]", 0, NULL);
    json_object_set_new(s, "equipment", e);
}
static void m_missing_stress(json_t *s)
{
    json_object_del(s, "stress");
}

static const struct {
    mutate_fn mutate;
    const char *message;
} bad_sheets[] = {
    {m_unknown, "unknown field 'level'"},
    {m_five_attributes, "field 'attributes' must have 6..6 entries (got 5)"},
    {m_three_skills, "field 'attributes[2].skills' must have 4..4 entries (got 3)"},
    {m_rank_11, "field 'attributes[0].skills[1].rank' must be in 0..10 (got 11)"},
    {m_zero_dice, "field 'attributes[1].dice' must be in 1..10 (got 0)"},
    {m_dup_attribute, "field 'attributes[1].name': 'Might' is used twice"},
    {m_dup_skill, "skill 'Athletics' is listed twice"},
    {m_stress_over, "field 'stress.current' (11) is over 'stress.max' (10)"},
    {m_wounds_over, "field 'wounds.current' (4) is over 'wounds.max' (3)"},
    {m_negative_spin, "field 'spin' must be in -10..99 (got -11)"},
    {m_hinder_zero, "field 'conditions[0].value': a hinder condition needs a penalty"},
    {m_condition_kind, "field 'conditions[0].kind' must be one of: hinder, stop, damage"},
    {m_equipment_skill, "field 'equipment[0].skill': no skill named 'Swordplay'"},
    {m_missing_stress, "missing required field 'stress'"},
};

START_TEST(bad_sheet_field_fails_with_its_message)
{
    json_t *s = sample(0);
    bad_sheets[_i].mutate(s);
    ru_assert_sheet_invalid_underivable("tenacity", s, bad_sheets[_i].message);
    json_decref(s);
}
END_TEST

/* ---- parameter errors ---- */

static const struct {
    const char *check, *params, *message;
} bad_params[] = {
    {"check", "{\"dice\":2,\"rank\":1,\"skill\":3}", "unknown parameter 'skill'"},
    {"check", "{\"rank\":1}", "missing required parameter 'dice'"},
    {"check", "{\"dice\":2}", "missing required parameter 'rank'"},
    {"check", "{\"dice\":0,\"rank\":1}", "parameter 'dice' must be in 1..10 (got 0)"},
    {"check", "{\"dice\":2,\"rank\":11}", "parameter 'rank' must be in 0..10 (got 11)"},
    {"check", "{\"dice\":2,\"rank\":1,\"challenge\":5,\"challenge_dice\":2}",
     "parameters 'challenge' and 'challenge_dice' are exclusive"},
    {"check", "{\"dice\":2,\"rank\":1,\"challenge\":5,\"challenge_bonus\":2}",
     "parameter 'challenge_bonus' needs 'challenge_dice'"},
    {"check", "{\"dice\":2,\"rank\":1,\"challenge_dice\":2,\"challenge_bonus\":4}",
     "parameter 'challenge_bonus' must be in 1..3 (got 4)"},
    {"check", "{\"dice\":2,\"rank\":1,\"crit\":\"both\"}",
     "parameter 'crit' must be auto, hero or impact"},
    {"check", "{\"dice\":2,\"rank\":1,\"spin\":-11}", "parameter 'spin' must be in -10..99"},
    {"opposed", "{\"dice\":2,\"rank\":1,\"def_dice\":2}", "missing required parameter 'def_rank'"},
};

START_TEST(bad_parameter_is_a_clear_error)
{
    int rc = ru_param_error("tenacity", bad_params[_i].check, bad_params[_i].params,
                            bad_params[_i].message);
    ck_assert_int_ne(rc, 0);
}
END_TEST

static Suite *tenacity_suite(void)
{
    Suite *s = suite_create("tenacity");
    TCase *tc = tcase_create("examples");
    tcase_add_test(tc, example_investigation_check);
    tcase_add_test(tc, example_challenge_dice_are_summed);
    tcase_add_test(tc, example_critical_extra_hero_or_impact_die);
    tcase_add_test(tc, example_doubles_and_failure_give_spin);
    tcase_add_test(tc, example_fumble_gives_negative_spin);
    tcase_add_test(tc, example_pushing_a_failure);
    tcase_add_test(tc, example_impact_dice);
    tcase_add_test(tc, example_opposed_ties_to_defender);
    tcase_add_test(tc, example_create_an_advantage);
    tcase_add_test(tc, example_wound_recovery);
    tcase_add_test(tc, example_piloting);
    tcase_add_test(tc, example_explore_pool_and_unconscious);
    tcase_add_test(tc, result_shape_and_format);
    suite_add_tcase(s, tc);

    tc = tcase_create("distributions");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, dist_keep_highest_add_rank_beat_challenge);
    tcase_add_test(tc, dist_critical_hero_die_is_added);
    tcase_add_test(tc, dist_challenge_dice_sum_ties_to_defender);
    tcase_add_test(tc, dist_impact_half_rank_d4_plus_bonus);
    tcase_add_test(tc, dist_doubles_and_fumbles);
    suite_add_tcase(s, tc);

    tc = tcase_create("sheets");
    tcase_add_loop_test(tc, every_sample_sheet_validates, 0, (int)N_ELEMS(sample_files));
    tcase_add_test(tc, derived_values_of_the_samples);
    tcase_add_loop_test(tc, bad_sheet_field_fails_with_its_message, 0, (int)N_ELEMS(bad_sheets));
    suite_add_tcase(s, tc);

    tc = tcase_create("params");
    tcase_add_loop_test(tc, bad_parameter_is_a_clear_error, 0, (int)N_ELEMS(bad_params));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return ru_run_suite(tenacity_suite());
}
