/*
 * grimwire.h — GRIMWIRE (rulebook 002_c1f3df0ad7b1e31f.txt, cited as 002:LINE): the d20 +
 * attribute roll against a target number, natural 20s and 1s, assisting, player-vs-player rolls,
 * and the small tables (light-weapon attacks by COR, armor, burnout, levels) as plain C for the
 * encounter module grimwire.conflict, which rolls without going through JSON parameters.
 *
 * The rule system itself (checks "check", "assist", "versus"; the sheet) is rules_system_grimwire,
 * found through rules/system.h. Readings of unclear passages: rules/RULES.md, "## grimwire".
 */
#ifndef TABLED_RULES_GRIMWIRE_H
#define TABLED_RULES_GRIMWIRE_H

#include "system.h"

#define GRIMWIRE_ATTR_MAX 10      /* 002:91 "10 is the maximum for any attribute" */
#define GRIMWIRE_ATTR_MIN (-10)   /* not in the rulebook: RULES.md, grimwire reading 2 */
#define GRIMWIRE_COLLATERAL_TN 11 /* 002:557, 002:635 */
#define GRIMWIRE_DEAD_BELOW (-10) /* 002:256 "falls below -10 Condition, they are dead" */
#define GRIMWIRE_LEVEL_MAX 10     /* 002:268-298 */
#define GRIMWIRE_BURNOUT_MAX 4    /* 002:242 */

/* One d20 roll against a target number (002:19-21, 002:59-63). */
typedef struct grimwire_roll {
    int natural;    /* the d20 face */
    int attr;       /* the attribute added (002:21) */
    int mod;        /* situational bonuses and penalties (002:33-45) */
    int total;      /* natural + attr + mod */
    int tn;         /* target number */
    int attack;     /* 1: an attack roll (002:59) */
    int ff;         /* attacks: naturals 1..ff hit an unintended target (002:633); >= 1 */
    int success;    /* total >= tn, or a natural 20 attack; never on a natural 1 */
    int critical;   /* natural 20 on an attack: hits and doubles the damage (002:59) */
    int collateral; /* attack with natural <= ff: a random target may be hit (002:553, 633) */
} grimwire_roll;

/*
 * Judges r->natural with r->attr, r->mod, r->tn, r->attack and r->ff already set: fills total,
 * success, critical and collateral. Pure; no dice.
 */
void grimwire_judge(grimwire_roll *r);

/* Rolls the d20 with rng (borrowed), appends it to `dice` (may be NULL) and judges it. */
void grimwire_roll_d20(grimwire_roll *r, rules_rng *rng, json_t *dice);

/* Attacks per turn with light weapons by COR (002:569-579); 1 below COR 1 (reading 5). */
int grimwire_light_attacks(int cor);

/* Damage after armor: each point reduces it by 1, never below 1 (002:749-751). Damage of 0 or
 * less (no hit) stays 0. */
int grimwire_armor(int damage, int armor);

/* AGL modifier of armor whose TOG requirement is above the wearer's TOG (002:753 "Not meeting the
 * requirement causes a penalty to the PCs AGL"; its size is not given: minus the shortfall,
 * reading 10); 0 otherwise. */
int grimwire_armor_agl(int tog, int armor_tog);

/* Melee/thrown damage: weapon roll + TOG, never below 1 (002:108, 002:563); doubled on a
 * critical (002:59) before armor (reading 6). */
int grimwire_melee_damage(int weapon_roll, int tog, int critical);

/* Target number of the unintended target's AGL roll: 11 minus the attacker's COR (002:557-559,
 * 002:643). */
int grimwire_collateral_tn(int attacker_cor);

/* Friendly-fire range of an attack: 1, widened by the TOG shortfall under a weapon's requirement
 * (002:589-593, reading 4), +5 in frenzy (002:813). */
int grimwire_ff_range(int tog, int tog_requirement, int frenzy);

/* Burnout: penalty to all rolls (0, -1, -3, -5; level 4 is dying) (002:244-250). */
int grimwire_burnout_penalty(int level);

/* What a d20 roll of an attribute is for: the status effects that change it depend on it. */
typedef enum grimwire_roll_use {
    GRIMWIRE_USE_PLAIN = 0,   /* any roll of the attribute */
    GRIMWIRE_USE_PAIN_TERROR, /* MND to resist pain and terror (inebriated: +3, 002:790) */
    GRIMWIRE_USE_ATTACK,      /* an attack (sensory impairment: -5, 002:832) */
    GRIMWIRE_USE_EVASION,     /* evading an attack (sensory impairment: -5, 002:832) */
} grimwire_roll_use;

/*
 * The one table of status-effect modifiers to a roll of attribute `attr` ("tog", "agl", ...)
 * made for `use` (burnout not included): inebriated +1 TOG, -3 the others, but +3 and no
 * penalty on MND against pain and terror (002:787-790); knocked down -3 AGL (002:798); grappled
 * -5 AGL (002:681); stunned -3 AGL and MND (002:824); sensory impairment -5 PER and -5 on
 * attacks and evasion (002:832). has(ctx, status) tells whether the character has a status
 * (the sheet's `status` list, or an encounter's conditions). Used by the sheet's derived
 * `roll_mod` and by the encounter, so both say the same.
 */
int grimwire_status_mod(const char *attr, grimwire_roll_use use,
                        int (*has)(const void *ctx, const char *status), const void *ctx);
/* Max Condition under burnout: 80% (level 2), 50% (level 3), rounded down (002:246-248). */
int grimwire_condition_cap(int max_condition, int burnout);

/* Total XP that level 1..10 starts at (002:268-298); -1 outside 1..10. */
int grimwire_level_xp(int level);
/* Special techniques available: half the max Focus, rounded down (002:302). */
int grimwire_technique_slots(int max_focus);
/* Learning hours for a technique: effort / multiplier attribute, rounded up (002:308-312);
 * -1 when the attribute is below 1 (no points to put in). */
int grimwire_learning_hours(int effort, int attr);
/* Focus after resting (002:200, 002:208, 002:212): long rest gives Focus equal to max (a
 * negative Focus is not cleared), short rest half of max (rounded down); never above max. */
int grimwire_rest_focus(int focus, int max_focus, int long_rest);

/* The rewards of reaching `level` 2..10 (002:268-298): attribute increases, the rise of max
 * Condition and of max Focus (each), and specialty learning hours. 0, or -1 outside 2..10. */
typedef struct grimwire_reward {
    int attributes, condition_focus, hours;
} grimwire_reward;
int grimwire_level_reward(int level, grimwire_reward *out);
/* Condition after resting (002:208 short: 20% of max; 002:212 long: half of max; both rounded
 * down, RULES.md grimwire reading), never above the max that burnout leaves (002:246-248); a
 * Condition already above it (temporary Condition) is kept. */
int grimwire_rest_condition(int current, int max_condition, int burnout, int long_rest);

#endif
