/*
 * tenacity.h — 10acity Tactics (rulebook 003_632e2c704060b738.txt, cited as 003:LINE): hero dice
 * (N d10, highest + skill rank), challenge d6s, impact d4s, criticals, doubles and spin, fumbles
 * and negative spin, pushing a failure, as plain C for the encounter module tenacity.spotlight,
 * which rolls without going through JSON parameters.
 *
 * The rule system itself (checks "check", "opposed"; the sheet) is rules_system_tenacity, found
 * through rules/system.h. Readings of unclear passages: rules/RULES.md, "## tenacity".
 */
#ifndef TABLED_RULES_TENACITY_H
#define TABLED_RULES_TENACITY_H

#include "system.h"

#define TENACITY_NEGATIVE_SPIN_MAX                                                                 \
    10                       /* 003:37 "never have more than 10 points of negative spin"           \
                              */
#define TENACITY_RANK_MAX 10 /* 003:27 Legendary: rank 10 */

/* What a critical (a natural 10, 003:28) buys. */
typedef enum tenacity_crit {
    TENACITY_CRIT_AUTO,   /* the hero die when the check fails without it, else the impact die */
    TENACITY_CRIT_HERO,   /* an extra d10 added to the check */
    TENACITY_CRIT_IMPACT, /* an extra d4 added to the impact */
} tenacity_crit;

/* One hero-dice roll (003:11, 003:16). */
typedef struct tenacity_roll {
    rules_pool hero; /* attribute dice + advantage dice, the highest kept */
    int rank;        /* skill rank added to the highest die */
    int bonus;       /* special abilities, situational +/- */
    int highest;     /* the highest hero die */
    int critical;    /* some hero die shows 10 (003:28) */
    int doubles;     /* two hero dice show the same face (003:29) */
    int fumble;      /* the highest die is 1 (003:30) */
    int extra_hero;  /* the critical's extra d10 when taken, else 0 (003:28) */
    int total;       /* highest + rank + bonus + extra_hero */
} tenacity_roll;

/*
 * Rolls dice + adv d10s (advantage dice are extra hero dice, 003:57, 003:79) and judges them:
 * fills everything but extra_hero (0). TB_BAD_REQUEST when dice + adv is outside 1..64.
 */
int tenacity_hero_roll(tenacity_roll *r, rules_rng *rng, int dice, int adv, int rank, int bonus,
                       tb_err *err);
/* (Re)computes highest, critical, doubles, fumble and total from r->hero, rank, bonus and
 * extra_hero. Pure. */
void tenacity_judge(tenacity_roll *r);

/* The actor beats a challenge or defence only when higher: ties to the defender (003:8, 003:20,
 * 003:68). */
int tenacity_beats(int total, int defence);

/* Impact dice of a skill: half the rank, rounded down (003:9, 003:15). */
int tenacity_impact_dice(int rank);

/* Spin from a roll (003:29-30, 003:95): -1 on a fumble; +1 on an action that rolled doubles or
 * failed; else 0. `failed` is the final outcome (after pushing). */
int tenacity_spin_gain(const tenacity_roll *r, int failed, int action);

/* Pushing a failure (003:31-37): the cheapest plan that adds `needed` points. */
typedef struct tenacity_push {
    int spin;     /* positive spin spent, +1 each (003:36); only when spin > 0 (003:38) */
    int tenacity; /* 10acity points spent, +1 each (003:36) */
    int negative; /* negative spin taken, +1 each (003:37) */
} tenacity_push;

/*
 * Plans a push of `needed` (>= 1) points from current spin `spin` (negative = negative spin),
 * `tenacity` points and negative spin, spending spin first (it is lost after the encounter,
 * 003:94), then 10acity, then negative spin, keeping the spin after the roll's own gain
 * `gain` at or above -10 (003:37). Returns 0 and fills *out, or -1 when even the most negative
 * spin allowed is not enough (*out then holds the largest push possible).
 */
int tenacity_push_plan(int needed, int spin, int tenacity, int gain, tenacity_push *out);

/* The resources a player lets a push spend (003:31-37: the player chooses among them). */
enum {
    TENACITY_PUSH_SPIN = 1,
    TENACITY_PUSH_TENACITY = 2,
    TENACITY_PUSH_NEGATIVE = 4,
    TENACITY_PUSH_ANY = 7,
};

/*
 * tenacity_push_plan restricted to the resources in `allowed` (TENACITY_PUSH_* bits), in the
 * same order (spin, 10acity, negative spin). Same returns: 0 and *out filled, or -1 when the
 * allowed resources cannot reach `needed` (nothing is to be spent).
 */
int tenacity_push_plan_with(int needed, int spin, int tenacity, int gain, int allowed,
                            tenacity_push *out);

/* The TENACITY_PUSH_* bit of a resource's name ("spin", "tenacity", "negative"), ANY for NULL,
 * 0 for an unknown name. */
int tenacity_push_resource(const char *name);

/* Create an advantage: 1 spin per 2 impact, at least 1 (003:46, 003:67). */
int tenacity_advantage_spin(int impact);
/* Recovery needed to heal the next wound: 5 x current wounds (003:74). */
int tenacity_wound_recovery(int wounds);
/* Piloting bonus: the lower of skill and vehicle rank, +1 per 2 ranks of difference
 * (003:77-78). */
int tenacity_pilot_bonus(int skill, int vehicle);
/* Challenge d6s to wake from unconsciousness alone: 2 + 1 per wound (003:106). */
int tenacity_unconscious_dice(int wounds);

#endif
