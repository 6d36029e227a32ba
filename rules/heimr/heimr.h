/*
 * heimr.h — Heimr Tabletop RPG Core (rulebook 001_660a93111b0de833.txt, cited as 001:LINE): the
 * consistency/potential dice challenge, fatigue and the character tables, as plain C for the
 * encounter modules (initiative, attacks against pre-rolled defences, fatigue per turn).
 *
 * The rule system itself (checks "challenge", "opposed", "initiative"; the sheet) is
 * rules_system_heimr, found through rules/system.h.
 */
#ifndef TABLED_RULES_HEIMR_H
#define TABLED_RULES_HEIMR_H

#include "system.h"

#define HEIMR_FATIGUE_MIN 1  /* 001:286 */
#define HEIMR_FATIGUE_MAX 20 /* 001:286 */
#define HEIMR_MAX_C 40       /* |consistency| after penalties: d10s rolled */

/* One dice challenge (001:71-81). */
typedef struct heimr_roll {
    int c, p;             /* consistency (after situational penalties) and potential */
    int d6;               /* the one d6, rolled first */
    int n10;              /* |c| */
    int d10[HEIMR_MAX_C]; /* in roll order */
    int die;              /* the highest (c > 0), lowest (c < 0) die, or the d6 (c == 0) */
    int bonus;            /* c > 0: dice showing 10, minus one (001:75) */
    int penalty;          /* c < 0: dice showing 1, minus one (001:75) */
    int before_potential; /* die + bonus - penalty: what fatigue is checked against (001:284) */
    int result;           /* before_potential + p */
} heimr_roll;

/* Rolls a challenge with consistency c (|c| <= HEIMR_MAX_C) and potential p; rng borrowed.
 * TB_BAD_REQUEST when |c| is too large. */
int heimr_challenge_roll(int c, int p, rules_rng *rng, heimr_roll *out, tb_err *err);

/* Computes die, bonus, penalty, before_potential and result of *out from its c, p, d6, n10 and
 * d10s (n10 == |c|), as heimr_challenge_roll does after rolling. */
void heimr_roll_eval(heimr_roll *out);

/*
 * A roll already made, read again at consistency c (a penalty that arrived, or went, after it
 * was rolled: 001:326, 001:434). The d6 and the first |c| d10s in roll order are kept; d10s
 * missing are rolled from rng (borrowed); the rest are dropped. TB_BAD_REQUEST when |c| is too
 * large (nothing changed).
 */
int heimr_roll_recast(heimr_roll *r, int c, rules_rng *rng, tb_err *err);

/* Which of the roll's dice count toward the result: kept[0] is the d6, kept[1+i] d10[i]. */
void heimr_roll_kept(const heimr_roll *r, unsigned char *kept);

/* The fatigue check (001:286): fatigue + 1 when the d6 shows less than fatigue, within 1..20. */
int heimr_fatigue_after(int fatigue, int d6);

/* Physical rolls must reach fatigue before potential (001:284). */
int heimr_fatigue_passes(const heimr_roll *r, int fatigue);

/* Base fatigue: 4 - stamina, never below 1 (001:294-296). */
int heimr_base_fatigue(int stamina);

/* Ability base potential: the average of its n >= 1 attributes, rounded down (001:191-193);
 * rounded toward minus infinity for negative averages (RULES.md, "heimr", reading 6). */
int heimr_base_potential(const int *attributes, int n);

/* XP for raising an ability training to `level` (>= 1): 5, 10, then the sum of the previous
 * two (001:219-223). heimr_xp_total: the sum for levels 1..level (0 for level <= 0). */
long heimr_xp_cost(int level);
long heimr_xp_total(int level);

/* Attribute progress required to reach attribute value `new_value` (001:231-232). */
int heimr_attribute_progress_required(int new_value);

/* An attribute of a sheet (borrowed; NULL or missing: 0), "str" ... "emp" (001:29-37). */
int heimr_attr(const json_t *sheet, const char *name);

/* The injury level of hp hit points (001:145, 163-166): NULL uninjured, "bloodied" (0, -1),
 * "mangled" (-2, -3), "mutilated" (-4 and below). */
const char *heimr_injury_level(long long hp);

/* The body parts of 001:413 as the sheet and the encounter name them, NULL-terminated. */
extern const char *const heimr_parts[];

#endif
