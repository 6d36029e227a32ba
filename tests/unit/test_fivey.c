/*
 * test_fivey.c — FIVEY (rulebook 004): the rulebook's worked examples and tables with scripted
 * dice (the ★ DC table, skills, advantage odds of a natural 20, passive scores, defense class,
 * leveling, inspiration for XP, the random-encounter chance, the reaction table, the monster
 * tables), the distributions of each check against exact enumerations (and against deliberately
 * wrong rules, which must be rejected), the sample sheets, each bad field and bad parameter.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fivey/fivey.h"
#include "rng.h"
#include "system.h"
#include "rules_util.h"
#include "stats.h"

/* ---- helpers ---- */
/* Scripted checks, result fields, samples and error checks are shared (rules_util.h). The
 * distribution tests compare STAT_ROLLS seeded rolls with exact enumerations using
 * stats_assert_fits_only (stats.h): sparse categories pooled into one bin, Wilson-Hilferty
 * p = 0.001 with df clamped to >= 1. */

/* Runs `fivey CHECK` with scripted faces; the script must not run out (rules_util.h). */
static json_t *run_scripted(const char *check, const char *params, const int *faces, size_t n)
{
    return ru_run_scripted("fivey", check, params, faces, n);
}

/* ---- worked examples (004) ---- */

/* 004:87-92 a typical person (+1) succeeds 50% at ★ (DC 12), 40% ★★, 30% ★★★, 20% ★★★★, 10%
 * ★★★★★: every d20 face, scripted. */
START_TEST(example_star_difficulty_table)
{
    static const int want_pct[] = {50, 40, 30, 20, 10};
    for (int stars = 1; stars <= 5; stars++) {
        ck_assert_int_eq(fivey_dc_for_stars(stars), 10 + 2 * stars);
        int wins = 0;
        for (int face = 1; face <= 20; face++) {
            char params[64];
            snprintf(params, sizeof params, "{\"stat\":1,\"dc\":%d}", fivey_dc_for_stars(stars));
            json_t *r = run_scripted("check", params, &face, 1);
            ck_assert_int_eq(ru_ival(r, "dc"), 10 + 2 * stars);
            wins += ru_bval(r, "success");
            json_decref(r);
        }
        ck_assert_int_eq(wins * 5, want_pct[stars - 1]);
    }
}
END_TEST

/* 004:83 "meets or exceeds"; 004:120 "+4 charisma ... double their bonus and so add +8". */
START_TEST(example_skill_doubles_the_bonus)
{
    int f[] = {6};
    json_t *r = run_scripted("check", "{\"stat\":4,\"dc\":14,\"skilled\":1}", f, 1);
    ck_assert_int_eq(ru_ival(r, "bonus"), 8);
    ck_assert_int_eq(ru_ival(r, "total"), 14);
    ck_assert(ru_bval(r, "success"));
    json_decref(r);
    r = run_scripted("check", "{\"stat\":4,\"dc\":14}", f, 1);
    ck_assert_int_eq(ru_ival(r, "total"), 10);
    ck_assert(!ru_bval(r, "success"));
    json_decref(r);
    /* 004:124 skills do not stack: doubled once, never quadrupled */
    ck_assert_int_eq(fivey_bonus(4, 1), 8);
    ck_assert_int_eq(fivey_bonus(4, 0), 4);
}
END_TEST

/* 004:98 advantage takes the best of 2d20, disadvantage the worst. */
START_TEST(example_advantage_and_disadvantage)
{
    int f[] = {4, 17};
    json_t *r = run_scripted("check", "{\"stat\":2,\"dc\":12,\"adv\":1}", f, 2);
    ck_assert_int_eq(ru_ival(r, "natural"), 17);
    ck_assert(ru_bval(r, "success"));
    ck_assert_int_eq((int)json_array_size(json_object_get(r, "dice")), 2);
    json_decref(r);
    r = run_scripted("check", "{\"stat\":2,\"dc\":12,\"dis\":1}", f, 2);
    ck_assert_int_eq(ru_ival(r, "natural"), 4);
    ck_assert(!ru_bval(r, "success"));
    json_decref(r);
}
END_TEST

/* 004:150 "a 5% chance each stat check of rolling a natural 20, or about a 10% chance if the
 * player rolls with advantage": exactly 20 of 400 and 39 of 400 over every pair of faces. */
START_TEST(example_natural_20_odds)
{
    int n20 = 0, n20adv = 0;
    for (int a = 1; a <= 20; a++) {
        json_t *r = run_scripted("check", "{\"stat\":1,\"dc\":12}", &a, 1);
        n20 += ru_ival(r, "natural") == 20;
        json_decref(r);
        for (int b = 1; b <= 20; b++) {
            int f[] = {a, b};
            r = run_scripted("check", "{\"stat\":1,\"dc\":12,\"adv\":1}", f, 2);
            n20adv += ru_ival(r, "natural") == 20;
            json_decref(r);
        }
    }
    ck_assert_int_eq(n20, 1);     /* 1 in 20 = 5% */
    ck_assert_int_eq(n20adv, 39); /* 39 in 400 = 9.75%, "about a 10% chance" */
}
END_TEST

/* 004:104 cooperation: two checks, one success needed. */
START_TEST(example_cooperation)
{
    int f[] = {3, 15};
    json_t *r = run_scripted("cooperate", "{\"stat\":2,\"stat2\":1,\"dc\":16}", f, 2);
    ck_assert(ru_bval(r, "success"));
    json_t *rolls = json_object_get(r, "rolls");
    ck_assert(!ru_bval(json_array_get(rolls, 0), "success"));
    ck_assert(ru_bval(json_array_get(rolls, 1), "success"));
    json_decref(r);
    int g[] = {3, 5};
    r = run_scripted("cooperate", "{\"stat\":2,\"stat2\":1,\"dc\":16}", g, 2);
    ck_assert(!ru_bval(r, "success"));
    json_decref(r);
}
END_TEST

/* 004:108 contests: "two characters arm-wrestling might contest their strength"; the highest
 * wins; a tie has no winner (RULES.md fivey reading 3). */
START_TEST(example_contest)
{
    int f[] = {11, 9};
    json_t *r = run_scripted("contest", "{\"stat\":2,\"opp_stat\":3}", f, 2);
    ck_assert_int_eq(ru_ival(r, "total"), 13);
    ck_assert_int_eq(ru_ival(json_object_get(r, "opponent"), "total"), 12);
    ck_assert_str_eq(json_string_value(json_object_get(r, "winner")), "actor");
    ck_assert(ru_bval(r, "success"));
    json_decref(r);
    int g[] = {10, 9};
    r = run_scripted("contest", "{\"stat\":2,\"opp_stat\":3}", g, 2);
    ck_assert_str_eq(json_string_value(json_object_get(r, "winner")), "tie");
    ck_assert(!ru_bval(r, "success"));
    json_decref(r);
}
END_TEST

/* 004:112 "10 plus the dragon's stat"; 004:246 the breath's "DC equal to 10 plus the user's
 * STR". */
START_TEST(example_passive_scores)
{
    ck_assert_int_eq(fivey_passive(3), 13);
    ck_assert_int_eq(fivey_passive(fivey_bonus(3, 1)), 16);
    int f[] = {10};
    json_t *r = run_scripted("check", "{\"stat\":2,\"dc\":13}", f, 1);
    ck_assert(!ru_bval(r, "success"));
    json_decref(r);
}
END_TEST

/* 004:146 one inspiration d6 added "after casting the die". */
START_TEST(example_inspiration_die)
{
    int f[] = {9, 4};
    json_t *r = run_scripted("check", "{\"stat\":2,\"dc\":14,\"inspiration\":1}", f, 2);
    ck_assert_int_eq(ru_ival(r, "natural"), 9);
    ck_assert_int_eq(ru_ival(r, "inspiration"), 4);
    ck_assert_int_eq(ru_ival(r, "total"), 15);
    ck_assert(ru_bval(r, "success"));
    ru_assert_line(r, "d20 9 +2 +d6 4 = 15 vs DC 14: success");
    json_decref(r);
}
END_TEST

/* 004:402 "a level 1 character who ends a session with 2 inspiration dice may roll both but can
 * only count the higher of the two". */
START_TEST(example_inspiration_for_xp)
{
    int f[] = {2, 5};
    json_t *r = run_scripted("xp", "{\"dice\":2,\"level\":1}", f, 2);
    ck_assert_int_eq(ru_ival(r, "total"), 5);
    ck_assert(json_is_null(json_object_get(r, "success")));
    json_decref(r);
    int g[] = {2, 5, 3};
    r = run_scripted("xp", "{\"dice\":3,\"level\":3}", g, 3);
    ck_assert_int_eq(ru_ival(r, "total"), 10);
    json_decref(r);
}
END_TEST

/* 004:373, 004:414-422 defense class: 10 + DEX unarmored, the armor's otherwise, +1 shield. */
START_TEST(example_defense_class)
{
    ck_assert_int_eq(fivey_defense_class(2, NULL, 0), 12);
    ck_assert_int_eq(fivey_defense_class(2, "none", 1), 13);
    ck_assert_int_eq(fivey_defense_class(5, "leather", 0), 12);
    ck_assert_int_eq(fivey_defense_class(1, "scale", 0), 13);
    ck_assert_int_eq(fivey_defense_class(1, "chain", 1), 15);
    ck_assert_int_eq(fivey_defense_class(1, "ring", 0), 15);
    ck_assert_int_eq(fivey_defense_class(1, "plate", 1), 17);
    ck_assert_int_eq(fivey_armor_str("plate"), 5);
    ck_assert_int_eq(fivey_armor_str("leather"), 1);
}
END_TEST

/* 004:385-393 "Level 1 characters start with 100 experience points" and the level table. */
START_TEST(example_levels)
{
    static const int xp[] = {0, 100, 300, 600, 1000, 1500};
    for (int l = 0; l <= 5; l++)
        ck_assert_int_eq(fivey_level_xp(l), xp[l]);
    ck_assert_int_eq(fivey_level_xp(6), -1);
}
END_TEST

/* 004:533 "if a hex took 4 hours to traverse, that chance would be 4-in-20": an encounter on 1..4
 * (the printed "roll 5 or more" would be 16-in-20; RULES.md fivey reading 6). */
START_TEST(example_random_encounter_chance)
{
    int hits = 0;
    for (int face = 1; face <= 20; face++) {
        json_t *r = run_scripted("encounter", "{\"chance\":4}", &face, 1);
        hits += ru_bval(r, "encounter");
        if (face == 4)
            ck_assert(ru_bval(r, "encounter"));
        if (face == 5)
            ck_assert(!ru_bval(r, "encounter"));
        json_decref(r);
    }
    ck_assert_int_eq(hits, 4);
}
END_TEST

/* 004:653-656 the initial NPC reaction table. */
START_TEST(example_reaction_table)
{
    static const struct {
        int face;
        const char *reaction;
    } rows[] = {{1, "hostile"},    {6, "hostile"},   {7, "uncertain"},
                {14, "uncertain"}, {15, "friendly"}, {20, "friendly"}};
    for (size_t i = 0; i < N_ELEMS(rows); i++) {
        json_t *r = run_scripted("reaction", "{}", &rows[i].face, 1);
        ck_assert_str_eq(json_string_value(json_object_get(r, "reaction")), rows[i].reaction);
        json_decref(r);
    }
    int f[] = {3, 16};
    json_t *r = run_scripted("reaction", "{\"adv\":1}", f, 2);
    ck_assert_str_eq(json_string_value(json_object_get(r, "reaction")), "friendly");
    json_decref(r);
}
END_TEST

/* 004:720-724 brackets and 004:736-740 XP; every example monster of 004:748-767 fits them. */
START_TEST(example_monster_tables)
{
    static const struct {
        const char *name;
        int xp, hd, dc, ga;
    } m[] = {
        {"Bear", 12, 4, 12, 3},           {"Berserker", 8, 2, 12, 2},
        {"Bugbear", 15, 4, 14, 3},        {"Commoner", 4, 1, 12, 1},
        {"Dragon, Infant", 12, 2, 16, 2}, {"Dragon, Young", 18, 4, 16, 3},
        {"Dragon, Adult", 24, 8, 16, 4},  {"Dragon, Elder", 30, 16, 16, 5},
        {"Ghoul", 12, 4, 12, 3},          {"Giant", 25, 16, 14, 5},
        {"Goblin", 5, 1, 14, 1},          {"Hobgoblin", 10, 2, 14, 2},
        {"Ogre", 15, 4, 14, 3},           {"Orc", 10, 2, 14, 2},
        {"Skeleton", 4, 1, 12, 1},        {"Troll", 20, 8, 14, 4},
        {"Vampire", 30, 16, 16, 5},       {"Wraith", 16, 8, 12, 4},
        {"Zombie", 8, 2, 12, 2},
    };
    const char *brackets = "MGELB";
    for (size_t i = 0; i < N_ELEMS(m); i++) {
        char b = 0;
        for (int k = 0; k < 5; k++)
            if (fivey_monster_hd(brackets[k]) == m[i].hd)
                b = brackets[k];
        ck_assert_msg(b != 0, "%s: no bracket with %d HD", m[i].name, m[i].hd);
        ck_assert_int_eq(fivey_monster_ga(b), m[i].ga);
        ck_assert_msg(fivey_monster_xp(b, m[i].dc) == m[i].xp, "%s: XP %d, table says %d",
                      m[i].name, m[i].xp, fivey_monster_xp(b, m[i].dc));
    }
    ck_assert_int_eq(fivey_monster_xp('B', 20), 50);
    ck_assert_int_eq(fivey_monster_xp('M', 18), 8);
    ck_assert_int_eq(fivey_monster_xp('X', 12), -1);
    ck_assert_int_eq(fivey_monster_xp('M', 13), -1);
}
END_TEST

/* ---- distributions ---- */

enum {
    F_RIGHT,
    F_GT,
    F_NOT_DOUBLED,
    F_DOUBLED,
    F_DIS,
    F_ADV,
    F_STACK,
    F_NO_INSP,
    F_TIE_ACTOR,
    F_BOTH,
    F_SUM_ALL,
    F_LOWEST,
    F_FIVE_PLUS
};
static const char *const fnames[] = {"right",
                                     "> instead of >=",
                                     "skill not doubled",
                                     "doubled when not skilled",
                                     "disadvantage instead of advantage",
                                     "advantage instead of disadvantage",
                                     "advantage stacking (best of 3d20)",
                                     "inspiration not added",
                                     "ties to the actor",
                                     "both cooperators must succeed",
                                     "every die counts",
                                     "lowest kept",
                                     "5 or more on a d20"};

/* check: category = total (0..60) x success */
static int cat_total(const json_t *r)
{
    return ru_ival(r, "total") * 2 + ru_bval(r, "success");
}

/* Adds the exact distribution of one check to dist (categories of cat_total). */
static void check_dist(double *dist, int stat, int skilled, int edge, int insp, int dc, int v)
{
    int nd = (v == F_STACK) ? 3 : (edge ? 2 : 1);
    int combos = 1;
    for (int i = 0; i < nd; i++)
        combos *= 20;
    int isides = insp ? 6 : 1;
    for (int code = 0; code < combos; code++) {
        int c = code, best = 0, worst = 21;
        for (int i = 0; i < nd; i++) {
            int f = c % 20 + 1;
            c /= 20;
            best = f > best ? f : best;
            worst = f < worst ? f : worst;
        }
        int e = edge;
        if (v == F_DIS && e == 1)
            e = -1;
        if (v == F_ADV && e == -1)
            e = 1;
        int nat = e < 0 ? worst : best;
        int bonus = (skilled && v != F_NOT_DOUBLED) || v == F_DOUBLED ? 2 * stat : stat;
        for (int i = 1; i <= isides; i++) {
            int total = nat + bonus + (insp && v != F_NO_INSP ? i : 0);
            int ok = v == F_GT ? total > dc : total >= dc;
            dist[total * 2 + ok] += 1.0 / combos / isides;
        }
    }
}

static const struct {
    const char *params;
    int stat, skilled, edge, insp, dc;
    int wrong[3];
} check_cases[] = {
    {"{\"stat\":3,\"dc\":14,\"skilled\":1,\"adv\":1}",
     3,
     1,
     1,
     0,
     14,
     {F_GT, F_NOT_DOUBLED, F_DIS}},
    {"{\"stat\":2,\"dc\":12}", 2, 0, 0, 0, 12, {F_DOUBLED, F_GT, -1}},
    {"{\"stat\":4,\"dc\":16,\"adv\":1}", 4, 0, 1, 0, 16, {F_STACK, F_DIS, -1}},
    {"{\"stat\":3,\"dc\":18,\"dis\":1,\"inspiration\":1}", 3, 0, -1, 1, 18, {F_ADV, F_NO_INSP, -1}},
};

START_TEST(dist_check_matches_exact_distribution)
{
    enum { K = 2 * 50 };
    long counts[K];
    ru_sample_counts("fivey", "check", check_cases[_i].params, 4083 + _i, cat_total, counts, K);
    double right[K] = {0}, wrong[3][K];
    memset(wrong, 0, sizeof wrong);
    check_dist(right, check_cases[_i].stat, check_cases[_i].skilled, check_cases[_i].edge,
               check_cases[_i].insp, check_cases[_i].dc, F_RIGHT);
    const double *wp[3];
    const char *wn[3];
    int nw = 0;
    for (int w = 0; w < 3 && check_cases[_i].wrong[w] >= 0; w++) {
        check_dist(wrong[w], check_cases[_i].stat, check_cases[_i].skilled, check_cases[_i].edge,
                   check_cases[_i].insp, check_cases[_i].dc, check_cases[_i].wrong[w]);
        wp[nw] = wrong[w];
        wn[nw++] = fnames[check_cases[_i].wrong[w]];
    }
    stats_assert_fits_only(check_cases[_i].params, counts, STAT_ROLLS, right, wp, wn, nw, K);
}
END_TEST

/* contest stat=2 skilled=1 vs opp_stat=4: winner actor / opponent / tie. */
static int cat_winner(const json_t *r)
{
    const char *w = json_string_value(json_object_get(r, "winner"));
    return strcmp(w, "actor") == 0 ? 0 : (strcmp(w, "opponent") == 0 ? 1 : 2);
}

START_TEST(dist_contest_highest_wins)
{
    enum { K = 3 };
    long counts[K];
    ru_sample_counts("fivey", "contest", "{\"stat\":2,\"skilled\":1,\"opp_stat\":4}", 4108,
                     cat_winner, counts, K);
    double right[K] = {0}, notdbl[K] = {0}, tie_actor[K] = {0};
    for (int a = 1; a <= 20; a++)
        for (int b = 1; b <= 20; b++) {
            int ta = a + 4, tb = b + 4;
            right[ta > tb ? 0 : (ta < tb ? 1 : 2)] += 1.0 / 400;
            tie_actor[ta >= tb ? 0 : 1] += 1.0 / 400;
            int tn = a + 2;
            notdbl[tn > tb ? 0 : (tn < tb ? 1 : 2)] += 1.0 / 400;
        }
    const double *wp[2] = {notdbl, tie_actor};
    const char *wn[2] = {fnames[F_NOT_DOUBLED], fnames[F_TIE_ACTOR]};
    stats_assert_fits_only("contest 2 skilled vs 4", counts, STAT_ROLLS, right, wp, wn, 2, K);
}
END_TEST

/* cooperate stat=1 stat2=3 dc=17: success. */
static int cat_success(const json_t *r)
{
    return ru_bval(r, "success");
}

START_TEST(dist_cooperation_one_success_is_enough)
{
    enum { K = 2 };
    long counts[K];
    ru_sample_counts("fivey", "cooperate", "{\"stat\":1,\"stat2\":3,\"dc\":17}", 4104, cat_success,
                     counts, K);
    double right[K] = {0}, both[K] = {0};
    for (int a = 1; a <= 20; a++)
        for (int b = 1; b <= 20; b++) {
            int s1 = a + 1 >= 17, s2 = b + 3 >= 17;
            right[s1 || s2] += 1.0 / 400;
            both[s1 && s2] += 1.0 / 400;
        }
    const double *wp[1] = {both};
    const char *wn[1] = {fnames[F_BOTH]};
    stats_assert_fits_only("cooperate 1 + 3 vs 17", counts, STAT_ROLLS, right, wp, wn, 1, K);
}
END_TEST

/* xp dice=3 level=2: the sum of the 2 highest d6. */
static int cat_total_only(const json_t *r)
{
    return ru_ival(r, "total");
}

START_TEST(dist_inspiration_xp_keeps_the_highest)
{
    enum { K = 19 };
    long counts[K];
    ru_sample_counts("fivey", "xp", "{\"dice\":3,\"level\":2}", 4402, cat_total_only, counts, K);
    double dist[3][K];
    memset(dist, 0, sizeof dist);
    for (int a = 1; a <= 6; a++)
        for (int b = 1; b <= 6; b++)
            for (int c = 1; c <= 6; c++) {
                int lo = a < b ? (a < c ? a : c) : (b < c ? b : c);
                int hi = a > b ? (a > c ? a : c) : (b > c ? b : c);
                dist[0][a + b + c - lo] += 1.0 / 216;
                dist[1][a + b + c] += 1.0 / 216;
                dist[2][a + b + c - hi] += 1.0 / 216;
            }
    const double *wp[2] = {dist[1], dist[2]};
    const char *wn[2] = {fnames[F_SUM_ALL], fnames[F_LOWEST]};
    stats_assert_fits_only("xp dice=3 level=2", counts, STAT_ROLLS, dist[0], wp, wn, 2, K);
}
END_TEST

/* encounter chance=4: 4-in-20. */
static int cat_encounter(const json_t *r)
{
    return ru_bval(r, "encounter");
}

START_TEST(dist_encounter_is_x_in_20)
{
    enum { K = 2 };
    long counts[K];
    ru_sample_counts("fivey", "encounter", "{\"chance\":4}", 4533, cat_encounter, counts, K);
    double right[K] = {0.8, 0.2}, printed[K] = {0.2, 0.8};
    const double *wp[1] = {printed};
    const char *wn[1] = {fnames[F_FIVE_PLUS]};
    stats_assert_fits_only("encounter chance=4", counts, STAT_ROLLS, right, wp, wn, 1, K);
}
END_TEST

/* ---- sheets ---- */

static const char *const sample_files[] = {"vesper.json", "brunhild.json", "sylla.json"};

static json_t *sample(int i)
{
    return ru_load_sample("fivey", sample_files[i]);
}

START_TEST(every_sample_sheet_validates)
{
    ru_assert_sample_valid("fivey", sample_files[_i]);
}
END_TEST

/* 004:622-629: an institution's level by its capital (10, 30, 120, 240, 360, then massive every
 * 120 more) and its line of credit a tennite (1, 5, 20, 50, 100, +50 a massive level). */
START_TEST(institution_levels_and_credit)
{
    static const struct {
        int capital, level, credit;
        const char *name;
    } rows[] = {
        {0, 0, 0, "dreamstuff"},     {9, 0, 0, "dreamstuff"},   {10, 1, 1, "insignificant"},
        {29, 1, 1, "insignificant"}, {30, 2, 5, "small"},       {119, 2, 5, "small"},
        {120, 3, 20, "middling"},    {240, 4, 50, "ascendant"}, {359, 4, 50, "ascendant"},
        {360, 5, 100, "large"},      {479, 5, 100, "large"},    {480, 6, 150, "massive"},
        {600, 7, 200, "massive"},    {719, 7, 200, "massive"},
    };
    for (size_t i = 0; i < N_ELEMS(rows); i++) {
        int level = fivey_institution_level(rows[i].capital);
        ck_assert_int_eq(level, rows[i].level);
        ck_assert_int_eq(fivey_institution_credit(level), rows[i].credit);
        ck_assert_str_eq(fivey_institution_name(level), rows[i].name);
    }
}
END_TEST

START_TEST(derived_values_of_the_samples)
{
    json_t *s = sample(0); /* Vesper: unarmored DEX 1, CHA 4, level 2, 340 XP, 3 damage */
    json_t *d = rules_sheet_derive("fivey", s);
    ck_assert_int_eq(ru_ival(d, "defense_class"), 11);
    ck_assert_int_eq(ru_ival(json_object_get(d, "passive"), "cha"), 14);
    ck_assert_int_eq(ru_ival(json_object_get(d, "passive_skilled"), "cha"), 18);
    ck_assert_int_eq(ru_ival(d, "hp_left"), 8);
    ck_assert(!ru_bval(d, "dead"));
    ck_assert_int_eq(ru_ival(d, "next_level_xp"), 600);
    ck_assert(!ru_bval(d, "level_up_due"));
    ck_assert_str_eq(json_string_value(json_object_get(d, "healing_rate")), "1d6+2");
    json_t *dagger = json_array_get(json_object_get(d, "weapons"), 0);
    ck_assert_int_eq(ru_ival(dagger, "attack_bonus"), 8);
    ck_assert_str_eq(json_string_value(json_object_get(dagger, "damage")), "1d6+4");
    json_decref(d);
    json_decref(s);
    s = sample(1); /* Brunhild: chain + shield, STR 3 */
    d = rules_sheet_derive("fivey", s);
    ck_assert_int_eq(ru_ival(d, "defense_class"), 15);
    /* Battle-Hardened: a d8 healing rate (004:337; issue 25 item 20) */
    ck_assert_str_eq(json_string_value(json_object_get(d, "healing_rate")), "1d8+1");
    ck_assert_int_eq(ru_ival(d, "movement"), 6);
    json_decref(d);
    json_decref(s);
    s = sample(2); /* Sylla: leather, attuned to her bow (not proficient) */
    d = rules_sheet_derive("fivey", s);
    ck_assert_int_eq(ru_ival(d, "defense_class"), 12);
    ck_assert_int_eq(ru_ival(json_array_get(json_object_get(d, "weapons"), 0), "attack_bonus"), 4);
    ck_assert_int_eq(ru_ival(d, "trait_slots"), 1);
    ck_assert_int_eq(ru_ival(d, "inspiration_start"), 0);
    json_decref(d);
    json_decref(s);
}
END_TEST

/* Spells (004:481-505, reading 12): a caster's spell attack is INT (004:680), the DC of a save
 * against it 10 + INT (004:112), and the casts left; a sheet without spells (every sheet saved
 * before them) still validates and has none of these. */
START_TEST(spell_fields_are_optional_and_derived)
{
    json_t *s = sample(0); /* Vesper: INT 1, two spells, 2 casts */
    json_object_set_new(json_object_get(s, "spell_slots"), "used", json_integer(1));
    tb_err err;
    ck_assert_int_eq(rules_sheet_validate("fivey", s, &err), 0);
    json_t *d = rules_sheet_derive("fivey", s);
    ck_assert_int_eq(ru_ival(d, "spell_attack"), 1);
    ck_assert_int_eq(ru_ival(d, "spell_dc"), 11);
    ck_assert_int_eq(ru_ival(d, "spell_slots_left"), 1);
    json_decref(d);
    json_object_del(s, "spells");
    json_object_del(s, "spell_slots");
    ck_assert_int_eq(rules_sheet_validate("fivey", s, &err), 0);
    d = rules_sheet_derive("fivey", s);
    ck_assert_ptr_null(json_object_get(d, "spell_dc"));
    ck_assert_ptr_null(json_object_get(d, "spell_slots_left"));
    json_decref(d);
    json_decref(s);
    ck_assert_ptr_null(fivey_spell_named("Magic Missile"));
    ck_assert_int_eq(fivey_spell_named("Fire Ball")->kind, FIVEY_SPELL_SAVE);
    ck_assert_int_eq(fivey_spell_named("Charm")->kind, FIVEY_SPELL_MENTAL);
}
END_TEST

static const struct {
    const char *patch; /* merged into Brunhild (null deletes) */
    const char *message;
} bad_sheets[] = {
    {"{\"class\":\"fighter\"}", "unknown field 'class'"},
    {"{\"stats\":null}", "missing required field 'stats'"},
    {"{\"stats\":{\"cha\":1,\"dex\":0,\"int\":1,\"str\":3}}",
     "field 'stats.dex' must be in 1..5 (got 0)"},
    {"{\"stats\":{\"cha\":2,\"dex\":1,\"int\":1,\"str\":3}}",
     "field 'stats' totals +7; a level 1 character has at most +6"},
    {"{\"level\":2}", "field 'xp' (100) is below the 300 XP that level 2 needs"},
    {"{\"level\":6}", "field 'level' must be in 0..5 (got 6)"},
    {"{\"skills\":[\"a\",\"b\",\"c\"]}",
     "field 'skills' has 3 entries; a level 1 character has 2 slots"},
    {"{\"feats\":[\"a\",\"b\",\"c\"]}", "field 'feats' has 3 entries"},
    {"{\"armor\":\"mithril\"}",
     "field 'armor' must be one of: none, leather, scale, chain, ring, plate"},
    {"{\"attuned\":\"Crown of Stars\"}", "field 'attuned': 'Crown of Stars' is not among"},
    {"{\"weapons\":[{\"name\":\"Club\",\"damage\":\"d\",\"stat\":\"str\"}]}",
     "field 'weapons[0].damage'"},
    {"{\"weapons\":[{\"name\":\"Club\",\"damage\":\"1d6\",\"stat\":\"wis\"}]}",
     "field 'weapons[0].stat' must be one of: cha, dex, int, str"},
    {"{\"inventory\":[\"1\",\"2\",\"3\",\"4\",\"5\",\"6\",\"7\",\"8\",\"9\",\"10\",\"11\",\"12\","
     "\"13\",\"14\",\"15\",\"16\",\"17\",\"18\",\"19\",\"20\",\"21\"]}",
     "field 'inventory' must have 0..20 entries (got 21)"},
    {"{\"hp\":{\"max\":0,\"damage\":0}}", "field 'hp.max' must be in 1..999 (got 0)"},
    {"{\"inspiration\":-1}", "field 'inspiration' must be in 0..99"},
    /* spells (004:481-505, reading 12) */
    {"{\"spells\":[{\"name\":\"Fire Ball\"}]}", "field 'spell_slots' is needed when the sheet "
                                                "lists spells"},
    {"{\"spells\":[{\"name\":\"Magic Missile\"}],\"spell_slots\":{\"max\":1,\"used\":0}}",
     "field 'spells[0].name' must be one of: Attract, Charm, Feather Fall"},
    {"{\"spells\":[{\"name\":\"Knock\",\"level\":6}],\"spell_slots\":{\"max\":1,\"used\":0}}",
     "field 'spells[0].level' must be in 1..5 (got 6)"},
    {"{\"spells\":[{\"name\":\"Knock\"}],\"spell_slots\":{\"max\":1,\"used\":2}}",
     "field 'spell_slots.used' (2) is more than 'spell_slots.max' (1)"},
};

START_TEST(bad_sheet_field_fails_with_its_message)
{
    json_t *s = sample(1);
    ru_merge_patch(s, bad_sheets[_i].patch);
    ru_assert_sheet_invalid_underivable("fivey", s, bad_sheets[_i].message);
    json_decref(s);
}
END_TEST

/* ---- parameter errors ---- */

static const struct {
    const char *check, *params, *message;
} bad_params[] = {
    {"check", "{\"stat\":2,\"dc\":12,\"wis\":1}", "unknown parameter 'wis'"},
    {"check", "{\"dc\":12}", "missing required parameter 'stat'"},
    {"check", "{\"stat\":2}", "missing required parameter 'dc'"},
    {"check", "{\"stat\":6,\"dc\":12}", "parameter 'stat' must be in 1..5 (got 6)"},
    {"check", "{\"stat\":2,\"dc\":41}", "parameter 'dc' must be in 0..40 (got 41)"},
    {"check", "{\"stat\":2,\"dc\":12,\"adv\":1,\"dis\":1}",
     "parameters 'adv' and 'dis' are exclusive"},
    {"check", "{\"stat\":2,\"dc\":12,\"inspiration\":2}", "parameter 'inspiration' must be 0 or 1"},
    {"check", "{\"stat\":2,\"dc\":12,\"skilled\":true,\"adv\":\"yes\"}",
     "parameter 'adv' must be 0 or 1"},
    {"contest", "{\"stat\":2,\"opp_stat\":2,\"opp_adv\":1,\"opp_dis\":1}",
     "parameters 'opp_adv' and 'opp_dis' are exclusive"},
    {"cooperate", "{\"stat\":2,\"dc\":12}", "missing required parameter 'stat2'"},
    {"xp", "{\"dice\":2,\"level\":6}", "parameter 'level' must be in 0..5"},
    {"encounter", "{\"chance\":0}", "parameter 'chance' must be in 1..20"},
};

START_TEST(bad_parameter_is_a_clear_error)
{
    int rc = ru_param_error("fivey", bad_params[_i].check, bad_params[_i].params,
                            bad_params[_i].message);
    ck_assert_int_eq(rc, TB_BAD_REQUEST);
}
END_TEST

static Suite *fivey_suite(void)
{
    Suite *s = suite_create("fivey");
    TCase *tc = tcase_create("examples");
    tcase_add_test(tc, example_star_difficulty_table);
    tcase_add_test(tc, example_skill_doubles_the_bonus);
    tcase_add_test(tc, example_advantage_and_disadvantage);
    tcase_add_test(tc, example_natural_20_odds);
    tcase_add_test(tc, example_cooperation);
    tcase_add_test(tc, example_contest);
    tcase_add_test(tc, example_passive_scores);
    tcase_add_test(tc, example_inspiration_die);
    tcase_add_test(tc, example_inspiration_for_xp);
    tcase_add_test(tc, example_defense_class);
    tcase_add_test(tc, example_levels);
    tcase_add_test(tc, example_random_encounter_chance);
    tcase_add_test(tc, example_reaction_table);
    tcase_add_test(tc, example_monster_tables);
    suite_add_tcase(s, tc);

    tc = tcase_create("distributions");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, dist_check_matches_exact_distribution, 0, (int)N_ELEMS(check_cases));
    tcase_add_test(tc, dist_contest_highest_wins);
    tcase_add_test(tc, dist_cooperation_one_success_is_enough);
    tcase_add_test(tc, dist_inspiration_xp_keeps_the_highest);
    tcase_add_test(tc, dist_encounter_is_x_in_20);
    suite_add_tcase(s, tc);

    tc = tcase_create("sheets");
    tcase_add_loop_test(tc, every_sample_sheet_validates, 0, (int)N_ELEMS(sample_files));
    tcase_add_test(tc, derived_values_of_the_samples);
    tcase_add_test(tc, institution_levels_and_credit);
    tcase_add_test(tc, spell_fields_are_optional_and_derived);
    tcase_add_loop_test(tc, bad_sheet_field_fails_with_its_message, 0, (int)N_ELEMS(bad_sheets));
    suite_add_tcase(s, tc);

    tc = tcase_create("params");
    tcase_add_loop_test(tc, bad_parameter_is_a_clear_error, 0, (int)N_ELEMS(bad_params));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return ru_run_suite(fivey_suite());
}
