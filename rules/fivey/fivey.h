/*
 * fivey.h — FIVEY (rulebook 004_110cc4af3ff93059.txt, cited as 004:LINE): the d20 + stat check
 * (doubled when skilled) against a DC, advantage and disadvantage, contests, passive scores,
 * inspiration dice, defense class, levels and the monster tables, as plain C for the encounter
 * modules (rules/fivey/fivey_enc.h), which roll without going through JSON parameters.
 *
 * The rule system itself (checks "check", "contest", "cooperate", "xp", "encounter",
 * "reaction"; the sheet) is rules_system_fivey, found through rules/system.h. Readings of
 * unclear passages: rules/RULES.md, "## fivey".
 */
#ifndef TABLED_RULES_FIVEY_H
#define TABLED_RULES_FIVEY_H

#include "system.h"

#define FIVEY_STAT_MIN 1  /* 004:21 "stat bonuses from 1-5", 004:169 "a minimum stat of +1" */
#define FIVEY_STAT_MAX 5  /* 004:399 "to a maximum of +5" */
#define FIVEY_LEVEL_MAX 5 /* 004:387-393 */
#define FIVEY_BASE_MOVE 6 /* 004:379 paces */

typedef enum fivey_edge {
    FIVEY_EDGE_NONE,
    FIVEY_EDGE_ADV, /* best of 2d20 (004:98) */
    FIVEY_EDGE_DIS, /* worst of 2d20 (004:98) */
} fivey_edge;

/* One stat check roll (004:83). */
typedef struct fivey_roll {
    rules_pool d20; /* one d20, or two with advantage/disadvantage (one kept) */
    int natural;    /* the kept d20 */
    int bonus;      /* stat, doubled when skilled (004:120) */
    int mod;        /* situational modifier */
    int insp;       /* the inspiration d6 added, 0 when none (004:146) */
    int total;      /* natural + bonus + mod + insp */
} fivey_roll;

/* The bonus added to a d20: the stat, doubled when skilled; skills never stack (004:120-124). */
int fivey_bonus(int stat, int skilled);

/*
 * Rolls a check's d20(s) with rng (borrowed), keeping the best/worst of two under an edge
 * (004:98), then one inspiration d6 when `inspiration` (004:146), and appends every die to
 * `dice` (may be NULL).
 */
void fivey_roll_check(fivey_roll *r, rules_rng *rng, json_t *dice, int bonus, fivey_edge edge,
                      int inspiration, int mod);

/* Success: the total meets or exceeds the DC (004:83). */
int fivey_meets(int total, int dc);
/* DC of a ★ rank 1..5: 12, 14, 16, 18, 20 (004:87-92). */
int fivey_dc_for_stars(int stars);
/* A bonus as a difficulty class: 10 + bonus (004:112). */
int fivey_passive(int bonus);

/* The initial NPC reaction a d20 gives: "hostile", "uncertain" or "friendly" (004:653-656).
 * Static storage. */
const char *fivey_reaction(int natural);

/* XP that level 0..5 starts at (004:387-393); -1 outside. */
int fivey_level_xp(int level);

/* Institutions (004:616-633): the level a capital reaches (0 dreamstuff, 1 insignificant at 10,
 * 2 small at 30, 3 middling at 120, 4 ascendant at 240, 5 large at 360, then massive: a level
 * more every 120), its line of credit a tennite (0, 1, 5, 20, 50, 100 crowns, +50 a massive
 * level) and its name ("middling"; "massive" from level 6). */
int fivey_institution_level(int capital);
int fivey_institution_credit(int level);
const char *fivey_institution_name(int level);

/* Armor kinds of 004:416-421; NULL/"none" is unarmored. DC 0 and STR 0 for unknown names. */
int fivey_armor_dc(const char *armor);
int fivey_armor_str(const char *armor);
/* Defense class: the armor's, else 10 + DEX (skills never apply), +1 with a shield
 * (004:373, 004:414-422). */
int fivey_defense_class(int dex, const char *armor, int shield);

/* ---- spells (004:481-505) ---- */

/* What a spell does when cast (004:487-505), as the server runs it (rules/RULES.md, fivey,
 * "Spells"). */
typedef enum fivey_spell_kind {
    FIVEY_SPELL_EFFECT, /* no roll but its duration: [L]d6 of `unit` (or none: Knock) */
    FIVEY_SPELL_SAVE,   /* [L]d6 damage to each target; a save (d20 + DEX vs the caster's spell
                           DC) halves it (Fire Ball, Lightning Bolt) */
    FIVEY_SPELL_MENTAL, /* d20 + INT against 10 + the target's CHA (004:680); on a hit the
                           target is charmed for [L]d6 `unit` (Charm) */
    FIVEY_SPELL_UNDEAD, /* [L]d6 hit dice worth of undead turn away (Turn Undead) */
} fivey_spell_kind;

typedef struct fivey_spell {
    const char *name; /* as the book prints it: "Fire Ball" */
    fivey_spell_kind kind;
    const char *unit; /* the duration's unit for [L]d6 ("minutes", "hours"...), NULL if none */
    const char *cite; /* its line in the book */
} fivey_spell;

/* The spell of that name (exact, as printed), or NULL. Static storage. */
const fivey_spell *fivey_spell_named(const char *name);
/* The spell attack bonus: INT (004:680); the spell DC a save is rolled against: 10 + INT
 * (004:112). */
int fivey_spell_dc(int intelligence);

/* Monster brackets (004:715-724): 'M','G','E','L','B'. HD, GA and XP by defense class
 * (004:736-740; DC 12..20 even). -1 for an unknown bracket or DC. */
int fivey_monster_hd(char bracket);
int fivey_monster_ga(char bracket);
int fivey_monster_xp(char bracket, int dc);

#endif
