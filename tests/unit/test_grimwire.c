/*
 * test_grimwire.c — GRIMWIRE (rulebook 002): every worked example of the rulebook with scripted
 * dice, the shape of each check's result, the distributions of check/assist/versus against exact
 * enumerations (and against deliberately wrong rules, which must be rejected), the sample sheets,
 * each kind of bad sheet field, and each kind of bad parameter.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grimwire/grimwire.h"
#include "rng.h"
#include "system.h"
#include "rules_util.h"
#include "stats.h"

/* ---- helpers ---- */
/* Scripted checks, result fields, samples and error checks are shared (rules_util.h). The
 * distribution tests compare STAT_ROLLS seeded rolls with exact enumerations using
 * stats_assert_fits_only (stats.h): sparse categories pooled into one bin, Wilson-Hilferty
 * p = 0.001 with df clamped to >= 1. */

/* Runs `grimwire CHECK` with scripted faces; the script must not run out (rules_util.h). */
static json_t *run_scripted(const char *check, const char *params, const int *faces, size_t n)
{
    return ru_run_scripted("grimwire", check, params, faces, n);
}

/* ---- worked examples (002) ---- */

/* 002:31-51: AGL 15, +4 AGL: "you'd have to roll an 11 or higher"; after drinking (-2 AGL)
 * "it would be 13", and "I rolled an 11" fails. */
START_TEST(example_rope_climb)
{
    int f11[] = {11};
    json_t *r = run_scripted("check", "{\"attr\":4,\"tn\":15}", f11, 1);
    ck_assert_int_eq(ru_ival(r, "total"), 15);
    ck_assert(ru_bval(r, "success"));
    json_decref(r);
    int f10[] = {10};
    r = run_scripted("check", "{\"attr\":4,\"tn\":15}", f10, 1);
    ck_assert(!ru_bval(r, "success"));
    json_decref(r);
    r = run_scripted("check", "{\"attr\":4,\"mod\":-2,\"tn\":15}", f11, 1);
    ck_assert_int_eq(ru_ival(r, "natural"), 11);
    ck_assert_int_eq(ru_ival(r, "total"), 13);
    ck_assert(!ru_bval(r, "success"));
    ck_assert(!ru_bval(r, "critical"));
    json_decref(r);
    int f13[] = {13};
    r = run_scripted("check", "{\"attr\":4,\"mod\":-2,\"tn\":15}", f13, 1);
    ck_assert(ru_bval(r, "success"));
    json_decref(r);
}
END_TEST

/* 002:59 a natural 20 on an attack always succeeds and doubles the damage. */
START_TEST(example_natural_20_attack_always_hits)
{
    int f[] = {20};
    json_t *r = run_scripted("check", "{\"attr\":0,\"tn\":40,\"attack\":1}", f, 1);
    ck_assert(ru_bval(r, "success"));
    ck_assert(ru_bval(r, "critical"));
    ck_assert_int_eq(ru_ival(r, "natural"), 20);
    json_decref(r);
    ck_assert_int_eq(grimwire_melee_damage(4, 2, 1), 12);
    ck_assert_int_eq(grimwire_melee_damage(4, 2, 0), 6);
}
END_TEST

/* 002:61 "The target number is INT 25. The character has 4 INT. In this case, rolling a 20 would
 * only be 24, not enough to succeed." */
START_TEST(example_natural_20_task_does_not_always_succeed)
{
    int f[] = {20};
    json_t *r = run_scripted("check", "{\"attr\":4,\"tn\":25}", f, 1);
    ck_assert_int_eq(ru_ival(r, "total"), 24);
    ck_assert(!ru_bval(r, "success"));
    ck_assert(!ru_bval(r, "critical"));
    json_decref(r);
}
END_TEST

/* 002:63 "Rolling a 1 always fails"; on an attack it may hit an ally (002:553). */
START_TEST(example_natural_1_always_fails)
{
    int f[] = {1};
    json_t *r = run_scripted("check", "{\"attr\":10,\"tn\":2}", f, 1);
    ck_assert_int_eq(ru_ival(r, "total"), 11);
    ck_assert(!ru_bval(r, "success"));
    ck_assert(!ru_bval(r, "collateral"));
    json_decref(r);
    r = run_scripted("check", "{\"attr\":10,\"tn\":2,\"attack\":1}", f, 1);
    ck_assert(!ru_bval(r, "success"));
    ck_assert(ru_bval(r, "collateral"));
    json_decref(r);
}
END_TEST

/* 002:535-539 Cyrus (+3 COR) rolls 8 = 11; Aune (+3 AGL) rolls 13 = 16: Aune ducks. */
START_TEST(example_player_vs_player_punch)
{
    int f[] = {8, 13};
    json_t *r = run_scripted("versus", "{\"attr\":3,\"def\":3,\"attack\":1}", f, 2);
    ck_assert_int_eq(ru_ival(r, "total"), 11);
    ck_assert_int_eq(ru_ival(json_object_get(r, "defender"), "total"), 16);
    ck_assert(!ru_bval(r, "success"));
    ck_assert(!ru_bval(r, "tie"));
    json_decref(r);
}
END_TEST

/* 002:541 ties: attack/defense -> the defender takes half damage; other rolls: the GM decides. */
START_TEST(example_player_vs_player_ties)
{
    int f[] = {10, 10};
    json_t *r = run_scripted("versus", "{\"attr\":3,\"def\":3,\"attack\":1}", f, 2);
    ck_assert(ru_bval(r, "success"));
    ck_assert(ru_bval(r, "tie"));
    ck_assert(ru_bval(r, "half_damage"));
    json_decref(r);
    r = run_scripted("versus", "{\"attr\":3,\"def\":3}", f, 2);
    ck_assert(json_is_null(json_object_get(r, "success")));
    ck_assert(ru_bval(r, "tie"));
    ck_assert(!ru_bval(r, "half_damage"));
    json_decref(r);
}
END_TEST

/* 002:81 assisting: "The highest result is used." */
START_TEST(example_assisting_uses_the_highest)
{
    int f[] = {5, 12, 3};
    json_t *r = run_scripted("assist", "{\"attr\":2,\"attr2\":0,\"attr3\":4,\"tn\":12}", f, 3);
    ck_assert_int_eq(ru_ival(r, "total"), 12);
    ck_assert_int_eq(ru_ival(r, "used"), 1);
    ck_assert(ru_bval(r, "success"));
    ck_assert_int_eq((int)json_array_size(json_object_get(r, "rolls")), 3);
    ck_assert_int_eq((int)json_array_size(json_object_get(r, "dice")), 3);
    json_decref(r);
    /* a natural 1 is never the result used (002:63; RULES.md grimwire reading 3) */
    int g[] = {1, 2};
    r = run_scripted("assist", "{\"attr\":10,\"attr2\":0,\"tn\":5}", g, 2);
    ck_assert_int_eq(ru_ival(r, "used"), 1);
    ck_assert_int_eq(ru_ival(r, "total"), 2);
    ck_assert(!ru_bval(r, "success"));
    json_decref(r);
}
END_TEST

/* 002:569-579 light-weapon attacks per turn by COR. */
START_TEST(example_light_weapon_attacks_table)
{
    static const int want[] = {1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4}; /* COR 0..10 */
    for (int cor = 0; cor <= 10; cor++)
        ck_assert_int_eq(grimwire_light_attacks(cor), want[cor]);
    ck_assert_int_eq(grimwire_light_attacks(-3), 1);
}
END_TEST

/* 002:751 "A PC has 3 Armor. They are hit for 5 damage ... they take only 2 damage. They are then
 * hit again for 2 damage ... they take 1 damage." */
START_TEST(example_armor)
{
    ck_assert_int_eq(grimwire_armor(5, 3), 2);
    ck_assert_int_eq(grimwire_armor(2, 3), 1);
    ck_assert_int_eq(grimwire_armor(0, 3), 0);
    /* 002:108, 002:563 TOG adds to damage, never below 1 */
    ck_assert_int_eq(grimwire_melee_damage(2, -4, 0), 1);
}
END_TEST

/* 002:639-643 "PC1 has 2 COR so the target number is 9 (11 minus 2)." */
START_TEST(example_friendly_fire_target_number)
{
    ck_assert_int_eq(grimwire_collateral_tn(2), 9);
    ck_assert_int_eq(grimwire_collateral_tn(0), 11);
}
END_TEST

/* 002:593 "A PC with 1 TOG uses a weapon that requires 3 TOG. Rolling a natural 3 or below can
 * cause the PC to hit an unintended target ... regardless of the PCs COR modifier." */
START_TEST(example_heavy_weapon_friendly_fire_range)
{
    ck_assert_int_eq(grimwire_ff_range(1, 3, 0), 3);
    ck_assert_int_eq(grimwire_ff_range(3, 3, 0), 1);
    ck_assert_int_eq(grimwire_ff_range(5, 3, 0), 1);
    ck_assert_int_eq(grimwire_ff_range(1, 0, 1), 6); /* 002:813 frenzy +5 */
    int f3[] = {3}, f4[] = {4};
    json_t *r = run_scripted("check", "{\"attr\":10,\"tn\":5,\"attack\":1,\"ff\":3}", f3, 1);
    ck_assert(ru_bval(r, "collateral"));
    ck_assert(!ru_bval(r, "success"));
    json_decref(r);
    r = run_scripted("check", "{\"attr\":10,\"tn\":5,\"attack\":1,\"ff\":3}", f4, 1);
    ck_assert(!ru_bval(r, "collateral"));
    ck_assert(ru_bval(r, "success"));
    json_decref(r);
}
END_TEST

/* 002:767-777 shield: "AGL 14 to evade. Player rolls a 12, failing the roll", "+2 shielding"
 * avoids the damage; then "rolls an 11, and the hammer is not broken" (d20 > 3, 002:368-371). */
START_TEST(example_shielding_yourself)
{
    int f[] = {12};
    json_t *r = run_scripted("check", "{\"attr\":0,\"tn\":14}", f, 1);
    ck_assert(!ru_bval(r, "success"));
    json_decref(r);
    r = run_scripted("check", "{\"attr\":0,\"mod\":2,\"tn\":14}", f, 1);
    ck_assert(ru_bval(r, "success"));
    json_decref(r);
}
END_TEST

/* 002:302 "at 7 Focus max a PC would have 3 special techniques." */
START_TEST(example_technique_slots)
{
    ck_assert_int_eq(grimwire_technique_slots(7), 3);
    ck_assert_int_eq(grimwire_technique_slots(8), 4);
    ck_assert_int_eq(grimwire_technique_slots(0), 0);
}
END_TEST

/* 002:310-314 Throwing Expert: effort 15, COR 3, 8 learning hours: 5 hours, 3 remain. */
START_TEST(example_learning_a_technique)
{
    ck_assert_int_eq(grimwire_learning_hours(15, 3), 5);
    ck_assert_int_eq(8 - grimwire_learning_hours(15, 3), 3);
    ck_assert_int_eq(grimwire_learning_hours(16, 3), 6);
    ck_assert_int_eq(grimwire_learning_hours(15, 0), -1);
}
END_TEST

/* 002:200 "max Focus of 15 and current Focus of -5, resting would only restore their Focus to
 * 10"; 002:208 a short rest gives half the max. */
START_TEST(example_resting_focus)
{
    ck_assert_int_eq(grimwire_rest_focus(-5, 15, 1), 10);
    ck_assert_int_eq(grimwire_rest_focus(3, 15, 1), 15);
    ck_assert_int_eq(grimwire_rest_focus(3, 15, 0), 10);
    ck_assert_int_eq(grimwire_rest_focus(-5, 15, 0), 2);
}
END_TEST

/* 002:244-250 burnout penalties and caps (rounded down); 002:268-298 the XP column. */
START_TEST(example_burnout_and_levels)
{
    ck_assert_int_eq(grimwire_burnout_penalty(0), 0);
    ck_assert_int_eq(grimwire_burnout_penalty(1), -1);
    ck_assert_int_eq(grimwire_burnout_penalty(2), -3);
    ck_assert_int_eq(grimwire_burnout_penalty(3), -5);
    ck_assert_int_eq(grimwire_condition_cap(13, 1), 13);
    ck_assert_int_eq(grimwire_condition_cap(13, 2), 10);
    ck_assert_int_eq(grimwire_condition_cap(13, 3), 6);
    static const int xp[] = {0, 20, 60, 120, 200, 300, 420, 580, 780, 1000};
    for (int l = 1; l <= 10; l++)
        ck_assert_int_eq(grimwire_level_xp(l), xp[l - 1]);
    ck_assert_int_eq(grimwire_level_xp(11), -1);
}
END_TEST

/* ---- result shape and secrecy ---- */

START_TEST(check_result_has_the_documented_fields)
{
    int f[] = {7};
    json_t *r = run_scripted("check", "{\"attr\":2,\"tn\":9}", f, 1);
    ck_assert_str_eq(json_string_value(json_object_get(r, "system")), "grimwire");
    ck_assert_str_eq(json_string_value(json_object_get(r, "check")), "check");
    json_t *dice = json_object_get(r, "dice");
    ck_assert_int_eq((int)json_array_size(dice), 1);
    ck_assert_int_eq((int)json_integer_value(json_object_get(json_array_get(dice, 0), "sides")),
                     20);
    ck_assert_int_eq(ru_ival(r, "natural"), 7);
    ck_assert_int_eq(ru_ival(r, "total"), 9);
    ck_assert_int_eq(ru_ival(r, "tn"), 9);
    ck_assert(ru_bval(r, "success"));
    ck_assert(!ru_bval(r, "critical"));
    /* the TN is reported only under the secret parameter's name, never as "target" (002:53) */
    ck_assert_ptr_null(json_object_get(r, "target"));
    ru_assert_line(r, "d20 7 +2 = 9 vs TN 9: success");
    json_decref(r);
}
END_TEST

START_TEST(tn_parameter_is_secret)
{
    const rules_check *c = rules_check_find(rules_system_find("grimwire"), "check");
    ck_assert_ptr_nonnull(c);
    int found = 0;
    for (const rules_param *p = c->params; p->name; p++)
        if (strcmp(p->name, "tn") == 0)
            found = (p->flags & RULES_PARAM_SECRET) && (p->flags & RULES_PARAM_REQUIRED);
    ck_assert(found);
}
END_TEST

/* ---- distributions ---- */

/* Outcome of one d20 under a rule variant (independent of the implementation). */
enum { V_RIGHT, V_GT, V_NO_ATTR, V_NO_NAT20, V_NAT1_OK, V_LOWEST, V_FIRST };

static int judge(int nat, int attr, int tn, int attack, int v)
{
    int total = nat + (v == V_NO_ATTR ? 0 : attr);
    int ok = v == V_GT ? total > tn : total >= tn;
    if (attack && nat == 20 && v != V_NO_NAT20)
        ok = 1;
    if (nat == 1 && v != V_NAT1_OK)
        ok = 0;
    return ok;
}

/* Category of a check result: natural (1..20) x success (0/1). */
static int check_cat(int nat, int ok)
{
    return (nat - 1) * 2 + ok;
}

static void sample_check(const char *params, long *counts, int ncat)
{
    json_t *p = json_loads(params, 0, NULL);
    rules_rng *rng = rules_rng_seeded(20020019);
    memset(counts, 0, sizeof(long) * (size_t)ncat);
    for (long i = 0; i < STAT_ROLLS; i++) {
        json_t *r = NULL;
        tb_err err;
        ck_assert_int_eq(rules_check_run("grimwire", "check", p, rng, &r, &err), 0);
        counts[check_cat(ru_ival(r, "natural"), ru_bval(r, "success"))]++;
        json_decref(r);
    }
    rules_rng_destroy(rng);
    json_decref(p);
}

static const struct {
    const char *params;
    int attr, tn, attack;
    int wrong[3];
} check_cases[] = {
    /* >= vs >, and the attribute must be added */
    {"{\"attr\":3,\"tn\":14,\"attack\":1}", 3, 14, 1, {V_GT, V_NO_ATTR, -1}},
    /* only a natural 20 attack can hit */
    {"{\"attr\":3,\"tn\":25,\"attack\":1}", 3, 25, 1, {V_NO_NAT20, -1, -1}},
    /* a natural 1 fails even when the total would succeed */
    {"{\"attr\":3,\"tn\":3}", 3, 3, 0, {V_NAT1_OK, V_NO_ATTR, -1}},
};

static const char *const variant_names[] = {"right",
                                            "> instead of >=",
                                            "attribute not added",
                                            "no natural-20 hit",
                                            "natural 1 may succeed",
                                            "lowest instead of highest",
                                            "first roll only"};

START_TEST(dist_check_matches_exact_distribution)
{
    enum { K = 40 };
    long counts[K];
    sample_check(check_cases[_i].params, counts, K);
    double right[K] = {0}, wrong[3][K];
    const double *wp[3];
    const char *wn[3];
    int nw = 0;
    memset(wrong, 0, sizeof wrong);
    for (int nat = 1; nat <= 20; nat++)
        right[check_cat(nat, judge(nat, check_cases[_i].attr, check_cases[_i].tn,
                                   check_cases[_i].attack, V_RIGHT))] += 1.0 / 20;
    for (int w = 0; w < 3 && check_cases[_i].wrong[w] >= 0; w++) {
        for (int nat = 1; nat <= 20; nat++)
            wrong[w][check_cat(nat, judge(nat, check_cases[_i].attr, check_cases[_i].tn,
                                          check_cases[_i].attack, check_cases[_i].wrong[w]))] +=
                1.0 / 20;
        wp[nw] = wrong[w];
        wn[nw++] = variant_names[check_cases[_i].wrong[w]];
    }
    stats_assert_fits_only(check_cases[_i].params, counts, STAT_ROLLS, right, wp, wn, nw, K);
}
END_TEST

/* assist attr=2 attr2=5 tn=15: category = highest usable total (2..26 -> index) x success. */
static int assist_outcome(int n1, int n2, int v, int *total)
{
    int t1 = n1 + 2, t2 = n2 + 5;
    int u1 = n1 != 1, u2 = n2 != 1;
    int pick; /* 0: first, 1: second */
    if (v == V_FIRST)
        pick = 0;
    else if (v == V_LOWEST)
        pick = (u1 != u2) ? (u1 ? 0 : 1) : (t2 < t1);
    else
        pick = (u1 != u2) ? (u1 ? 0 : 1) : (t2 > t1);
    int nat = pick ? n2 : n1;
    *total = pick ? t2 : t1;
    return nat != 1 && *total >= 15;
}

START_TEST(dist_assist_matches_exact_distribution)
{
    enum { K = 2 * 30 };
    long counts[K] = {0};
    json_t *p = json_loads("{\"attr\":2,\"attr2\":5,\"tn\":15}", 0, NULL);
    rules_rng *rng = rules_rng_seeded(20020081);
    for (long i = 0; i < STAT_ROLLS; i++) {
        json_t *r = NULL;
        tb_err err;
        ck_assert_int_eq(rules_check_run("grimwire", "assist", p, rng, &r, &err), 0);
        counts[ru_ival(r, "total") * 2 + ru_bval(r, "success")]++;
        json_decref(r);
    }
    rules_rng_destroy(rng);
    json_decref(p);
    double dist[3][K];
    memset(dist, 0, sizeof dist);
    int variants[3] = {V_RIGHT, V_LOWEST, V_FIRST};
    for (int v = 0; v < 3; v++)
        for (int a = 1; a <= 20; a++)
            for (int b = 1; b <= 20; b++) {
                int t;
                int ok = assist_outcome(a, b, variants[v], &t);
                dist[v][t * 2 + ok] += 1.0 / 400;
            }
    const double *wp[2] = {dist[1], dist[2]};
    const char *wn[2] = {variant_names[V_LOWEST], variant_names[V_FIRST]};
    stats_assert_fits_only("assist attr=2 attr2=5 tn=15", counts, STAT_ROLLS, dist[0], wp, wn, 2,
                           K);
}
END_TEST

/* versus attr=3 def=1 attack=1: category = 0 failure, 1 success, 2 tie with half damage. */
static int versus_outcome(int a, int d, int tie_to_defender)
{
    if (a == 1)
        return 0;
    if (a == 20 || d == 1)
        return 1;
    int ta = a + 3, td = d + 1;
    if (ta == td)
        return tie_to_defender ? 0 : 2;
    return ta > td;
}

START_TEST(dist_versus_matches_exact_distribution)
{
    enum { K = 3 };
    long counts[K] = {0};
    json_t *p = json_loads("{\"attr\":3,\"def\":1,\"attack\":1}", 0, NULL);
    rules_rng *rng = rules_rng_seeded(20020531);
    for (long i = 0; i < STAT_ROLLS; i++) {
        json_t *r = NULL;
        tb_err err;
        ck_assert_int_eq(rules_check_run("grimwire", "versus", p, rng, &r, &err), 0);
        int cat = ru_bval(r, "half_damage") ? 2 : ru_bval(r, "success");
        counts[cat]++;
        json_decref(r);
    }
    rules_rng_destroy(rng);
    json_decref(p);
    double right[K] = {0}, wrong[K] = {0};
    for (int a = 1; a <= 20; a++)
        for (int d = 1; d <= 20; d++) {
            right[versus_outcome(a, d, 0)] += 1.0 / 400;
            wrong[versus_outcome(a, d, 1)] += 1.0 / 400;
        }
    const double *wp[1] = {wrong};
    const char *wn[1] = {"ties to the defender without half damage"};
    stats_assert_fits_only("versus attr=3 def=1 attack=1", counts, STAT_ROLLS, right, wp, wn, 1, K);
}
END_TEST

/* ---- sheets ---- */

static const char *const sample_files[] = {"cyrus.json", "aune.json", "vex9.json"};

static json_t *sample(int i)
{
    return ru_load_sample("grimwire", sample_files[i]);
}

/* One table for the sheet and the encounter (002:787-790, 002:832): inebriated and sensory
 * impaired Cyrus: MND -3 on ordinary rolls but +3 against pain and terror; PER -3 -5; attacks
 * and evasion -5 more than COR and AGL's -3. (Before issue 16 the sheet had only the -3 MND and
 * no attack or evasion entry.) */
START_TEST(derived_roll_mod_knows_terror_attack_and_evasion)
{
    json_t *s = sample(0);
    json_object_set_new(s, "status", json_pack("[s, s]", "inebriated", "sensory"));
    json_t *d = rules_sheet_derive("grimwire", s);
    ck_assert_ptr_nonnull(d);
    json_t *m = json_object_get(d, "roll_mod");
    int bp = ru_ival(d, "burnout_penalty");
    ck_assert_int_eq(ru_ival(m, "tog"), bp + 1);
    ck_assert_int_eq(ru_ival(m, "mnd"), bp - 3);
    ck_assert_int_eq(ru_ival(m, "mnd_pain_terror"), bp + 3);
    ck_assert_int_eq(ru_ival(m, "per"), bp - 8);
    ck_assert_int_eq(ru_ival(m, "cor"), bp - 3);
    ck_assert_int_eq(ru_ival(m, "attack"), bp - 8);
    ck_assert_int_eq(ru_ival(m, "evasion"), bp - 8);
    json_decref(d);
    json_decref(s);
}
END_TEST

START_TEST(every_sample_sheet_validates)
{
    ru_assert_sample_valid("grimwire", sample_files[_i]);
}
END_TEST

START_TEST(derived_values_of_the_samples)
{
    json_t *s = sample(0); /* Cyrus: COR 3, TOG 2, Focus 8, level 2 with 35 XP */
    json_t *d = rules_sheet_derive("grimwire", s);
    ck_assert_int_eq(ru_ival(d, "light_attacks"), 2);
    ck_assert_int_eq(ru_ival(d, "technique_slots"), 4);
    ck_assert_int_eq(ru_ival(d, "collateral_tn"), 8);
    ck_assert_int_eq(ru_ival(d, "next_level_xp"), 60);
    ck_assert(!ru_bval(d, "level_up_due"));
    ck_assert(!ru_bval(d, "dying"));
    ck_assert_int_eq(ru_ival(d, "magic_range_m"), 16);
    json_t *hammer = json_array_get(json_object_get(d, "weapons"), 2);
    ck_assert(ru_bval(hammer, "tog_roll_needed"));
    ck_assert_int_eq(ru_ival(hammer, "ff"), 2);
    ck_assert_int_eq(ru_ival(hammer, "attacks"), 1);
    ck_assert_int_eq(ru_ival(hammer, "damage_bonus"), 2);
    json_decref(d);
    json_decref(s);

    s = sample(2); /* VEX-9: burnout 2, knocked down, COR 6, negative Focus */
    d = rules_sheet_derive("grimwire", s);
    ck_assert_int_eq(ru_ival(d, "condition_max"), 17);
    ck_assert_int_eq(ru_ival(d, "burnout_penalty"), -3);
    ck_assert_int_eq(ru_ival(json_object_get(d, "roll_mod"), "agl"), -6);
    ck_assert_int_eq(ru_ival(json_object_get(d, "roll_mod"), "cor"), -3);
    ck_assert(!ru_bval(d, "specialty_techniques"));
    ck_assert(ru_bval(d, "crawl_only"));
    ck_assert_int_eq(ru_ival(d, "light_attacks"), 3);
    json_decref(d);
    json_decref(s);
}
END_TEST

static const struct {
    const char *patch;   /* JSON object merged into Cyrus (null deletes the key) */
    const char *message; /* expected substring of the error */
} bad_sheets[] = {
    {"{\"strength\":3}", "unknown field 'strength'"},
    {"{\"name\":null}", "missing required field 'name'"},
    {"{\"attributes\":{\"tog\":11,\"agl\":1,\"cor\":3,\"mnd\":0,\"per\":2,\"rsn\":-1}}",
     "field 'attributes.tog' must be in -10..10"},
    {"{\"attributes\":{\"tog\":1,\"agl\":1,\"cor\":3,\"mnd\":0,\"per\":2}}",
     "missing required field 'attributes.rsn'"},
    {"{\"level\":3}", "field 'xp' (35) is below the 60 XP that level 3 needs"},
    {"{\"level\":0}", "field 'level' must be in 1..10"},
    {"{\"burnout\":2,\"condition\":{\"current\":14,\"max\":16}}",
     "field 'condition.current' (14) is above the max Condition 12"},
    {"{\"burnout\":4}", "must be 0 or below at burnout level 4"},
    {"{\"burnout\":5}", "field 'burnout' must be in 0..4"},
    {"{\"focus\":{\"current\":9,\"max\":8}}", "field 'focus.current' (9) is above 'focus.max'"},
    {"{\"focus\":{\"current\":2,\"max\":3}}", "field 'techniques' has 2 entries; half the max "
                                              "Focus allows 1"},
    {"{\"status\":[\"sleepy\"]}", "field 'status[0]': unknown status effect 'sleepy'"},
    {"{\"status\":[\"stun\",\"stun\"]}", "field 'status[1]': 'stun' is listed twice"},
    {"{\"weapons\":[{\"name\":\"Bat\",\"kind\":\"light\",\"damage\":\"1d\"}]}",
     "field 'weapons[0].damage'"},
    {"{\"weapons\":[{\"name\":\"Bat\",\"kind\":\"medium\",\"damage\":\"1d6\"}]}",
     "field 'weapons[0].kind' must be one of: light, heavy, ranged, supernatural"},
    {"{\"armor\":-1}", "field 'armor' must be in 0..50"},
    {"{\"techniques\":\"Kneecap\"}", "field 'techniques' must be a list"},
};

START_TEST(bad_sheet_field_fails_with_its_message)
{
    json_t *s = sample(0);
    ru_merge_patch(s, bad_sheets[_i].patch);
    ru_assert_sheet_invalid_underivable("grimwire", s, bad_sheets[_i].message);
    json_decref(s);
}
END_TEST

/* ---- parameter errors ---- */

static const struct {
    const char *check, *params, *message;
} bad_params[] = {
    {"check", "{\"attr\":1,\"tn\":10,\"dc\":3}", "unknown parameter 'dc'"},
    {"check", "{\"attr\":1}", "missing required parameter 'tn'"},
    {"check", "{\"tn\":10}", "missing required parameter 'attr'"},
    {"check", "{\"attr\":11,\"tn\":10}", "parameter 'attr' must be in -10..10 (got 11)"},
    {"check", "{\"attr\":1,\"tn\":0}", "parameter 'tn' must be in 1..60 (got 0)"},
    {"check", "{\"attr\":1,\"tn\":10,\"attack\":2}", "parameter 'attack' must be 0 or 1"},
    {"check", "{\"attr\":1,\"tn\":10,\"ff\":3}",
     "parameter 'ff' (friendly-fire range) needs "
     "attack=1"},
    {"check", "{\"attr\":\"4\",\"tn\":10}", "parameter 'attr' must be an integer"},
    {"assist", "{\"attr\":1,\"tn\":10}", "missing required parameter 'attr2'"},
    {"versus", "{\"attr\":1}", "missing required parameter 'def'"},
    {"nosuch", "{}", "grimwire has no check 'nosuch'"},
};

START_TEST(bad_parameter_is_a_clear_error)
{
    int rc = ru_param_error("grimwire", bad_params[_i].check, bad_params[_i].params,
                            bad_params[_i].message);
    ck_assert_int_ne(rc, 0);
}
END_TEST

static Suite *grimwire_suite(void)
{
    Suite *s = suite_create("grimwire");
    TCase *tc = tcase_create("examples");
    tcase_add_test(tc, example_rope_climb);
    tcase_add_test(tc, example_natural_20_attack_always_hits);
    tcase_add_test(tc, example_natural_20_task_does_not_always_succeed);
    tcase_add_test(tc, example_natural_1_always_fails);
    tcase_add_test(tc, example_player_vs_player_punch);
    tcase_add_test(tc, example_player_vs_player_ties);
    tcase_add_test(tc, example_assisting_uses_the_highest);
    tcase_add_test(tc, example_light_weapon_attacks_table);
    tcase_add_test(tc, example_armor);
    tcase_add_test(tc, example_friendly_fire_target_number);
    tcase_add_test(tc, example_heavy_weapon_friendly_fire_range);
    tcase_add_test(tc, example_shielding_yourself);
    tcase_add_test(tc, example_technique_slots);
    tcase_add_test(tc, example_learning_a_technique);
    tcase_add_test(tc, example_resting_focus);
    tcase_add_test(tc, example_burnout_and_levels);
    tcase_add_test(tc, check_result_has_the_documented_fields);
    tcase_add_test(tc, tn_parameter_is_secret);
    suite_add_tcase(s, tc);

    tc = tcase_create("distributions");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, dist_check_matches_exact_distribution, 0, (int)N_ELEMS(check_cases));
    tcase_add_test(tc, dist_assist_matches_exact_distribution);
    tcase_add_test(tc, dist_versus_matches_exact_distribution);
    suite_add_tcase(s, tc);

    tc = tcase_create("sheets");
    tcase_add_loop_test(tc, every_sample_sheet_validates, 0, (int)N_ELEMS(sample_files));
    tcase_add_test(tc, derived_values_of_the_samples);
    tcase_add_test(tc, derived_roll_mod_knows_terror_attack_and_evasion);
    tcase_add_loop_test(tc, bad_sheet_field_fails_with_its_message, 0, (int)N_ELEMS(bad_sheets));
    suite_add_tcase(s, tc);

    tc = tcase_create("params");
    tcase_add_loop_test(tc, bad_parameter_is_a_clear_error, 0, (int)N_ELEMS(bad_params));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return ru_run_suite(grimwire_suite());
}
