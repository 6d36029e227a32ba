/*
 * fivey_enc.h — what the FIVEY encounter modules share (internal to rules/fivey/): a combatant's
 * numbers (the join every module runs: a sheet's stats, defense class and weapons, or an example
 * monster's, 004:715-773), damage and death (004:367), the collective morale check (004:670),
 * the party's contests (004:645, 004:666) and the spells (004:481-505). Rulebook
 * 004_110cc4af3ff93059.txt, cited as 004:LINE; readings in rules/RULES.md, "## fivey".
 *
 * The modules (combat.c: fivey.combat, social.c: fivey.social, between.c: fivey.between) call
 * this header and rules/encounter.h, never each other. Its code: fivey_enc.c (reading the state,
 * combatants, damage, morale), monsters.c (the monster tables, spawn, bracket), contests.c
 * (surprise, initiative) and spells.c (casting); these call only each other's declarations here
 * and encounter.h, never a module.
 *
 * Checks read through rules_enc_stats_peek / rules_enc_stat_peek, which never create what is
 * missing: a check is pure (encounter.h, rules_enc_check_fn), and rules_enc_stats creates the
 * stats object it does not find.
 */
#ifndef TABLED_RULES_FIVEY_ENC_H
#define TABLED_RULES_FIVEY_ENC_H

#include "encounter.h"
#include "fivey.h"

#define FIVEY_BUDGET "actions" /* the ◆ of 004:674 */

/* ---- reading the state (pure) ---- */

/* The adventuring party's side (/enc/party, default "party"). */
const char *fivey_party_side(const rules_enc *e);
int fivey_in_party(const rules_enc *e, const char *cid);
/* One of the four stats (004:81) of cid: the encounter's copy (fivey.combat and fivey.social
 * keep them at the top of its stats), else the sheet's (fivey.between keeps stats.stats), else
 * +1, the least (004:169). */
int fivey_stat_of(const rules_enc *e, const char *cid, const char *stat);
/* 0 when cid has n ◆ left this turn, else TB_RULE in rules_enc_spend's words. */
int fivey_budget_check(const rules_enc *e, const char *cid, int n, tb_err *err);
/* The rounded-down average of `stat` over the standing combatants on side `side`
 * (members_of_side 1) or on every other side (0); -1 when there is none. */
int fivey_group_average(const rules_enc *e, const char *side, int members_of_side,
                        const char *stat);
/* The four stats' keys, NULL-terminated: "str", "dex", "int", "cha" (004:81). */
extern const char *const FIVEY_STATS[];
/* cid's stat `stat` from the sheet's stats object (stats.stats: fivey.between's copy), 0 when
 * absent. */
int fivey_sheet_stat(const rules_enc *e, const char *cid, const char *stat);
/* How many times cid is in the array /enc/<key> (who has rested tonight, ...). */
int fivey_listed(const rules_enc *e, const char *key, const char *cid);
/* Whether cid's sheet (stats.feats, as fivey.between copies it) lists the feat, whatever its
 * case ("Battle-Hardened", 004:337). */
int fivey_has_feat(const rules_enc *e, const char *cid, const char *feat);
/* The array /enc/<key>, created if missing. Borrowed. */
json_t *fivey_list(rules_enc *e, const char *key);
/* TB_BAD_REQUEST when both `adv` and `dis` of a are set (rules_args_exclusive's words; a form
 * sends both, one of them false), else 0. */
int fivey_edge_exclusive(const rules_args *a, tb_err *err);
/* TB_RULE when cid is out of the encounter (dead, fled): a check's first word for what only a
 * standing character does (the moves offer no action to a combatant that is out). */
int fivey_standing(const rules_enc *e, const char *cid, tb_err *err);
/* 1 when the value s is one of the NULL-terminated list. */
int fivey_one_of(const char *s, const char *const *list);
/* Appends the choice {value (stolen; NULL: JSON null, leave the parameter out), label} to out
 * (a choices hook's array, encounter.h "Moves"). */
void fivey_choice(json_t *out, json_t *value, const char *label);
/* Appends the standing combatants of side (others_too 0) or of every other side first and then
 * of side (others_too 1) as target choices, PCs before NPCs. */
void fivey_choose_side(const rules_enc *e, json_t *out, const char *side, int others_too);
/* Appends every side with somebody standing (the party's too unless skip_party), once each, in
 * the order their first members joined. */
void fivey_choose_sides(const rules_enc *e, json_t *out, int skip_party);
/* Appends the four stats as choices labelled with cid's values ("STR +3"; fivey_sheet_stat),
 * only those below +5 when below_max. */
void fivey_choose_stats(const rules_enc *e, const char *cid, json_t *out, int below_max);

/* ---- monsters (004:715-767) ---- */

/* 'M','G','E','L','B' from "M", "mook", "Grunt", "elites", ...; 0 if none. */
char fivey_bracket_letter(const char *s);
/* One example monster of 004:748-767. */
typedef struct fivey_monster {
    const char *name;
    int xp, hd, dc, ga;
} fivey_monster;
/* The example monster a name starts with ("Goblin", "goblin archer", "Orc 2"; the longest match:
 * "Hobgoblin" is not a "Goblin"), or NULL. Static storage. */
const fivey_monster *fivey_monster_named(const char *name);
/* Row i of the table; NULL past the end. */
const fivey_monster *fivey_monster_at(size_t i);
/* The bracket of a number of hit dice (004:720-724) and its name ("grunt"). */
char fivey_bracket_of_hd(int hd);
const char *fivey_bracket_name(char b);
/*
 * Sets an NPC's numbers from a bracket (004:715-742): hit points = HD d6 unless hp > 0 (004:728),
 * GA as every stat, the bracket's damage die, XP by bracket and defense class. The HP dice are
 * appended to `dice` (borrowed; GM-only).
 */
void fivey_set_bracket(rules_enc *e, const char *cid, char b, int dc, int hp, json_t *dice);

/* ---- the words ---- */

/* The phrasings of the events this header's code logs (the system's table: rules_system_fivey
 * .phrases; encounter.h, "The log"). */
extern const rules_phrase fivey_enc_phrases[];
/*
 * Starts the GM's entry of a monster's numbers (004:426: an NPC's numbers are the GM's) for
 * action "bracket", event `event`: its hit dice `dice` (borrowed), `who`, its stats as values
 * (the entry's result), `defense` and `hp_max`. The caller adds the event's own words and ends
 * it (rules_log_end).
 */
rules_log *fivey_log_bracket(rules_enc *e, const char *event, const char *cid, const json_t *dice);

/* ---- joining, damage, morale ---- */

/*
 * The join hook of fivey.combat and fivey.social: a combatant's numbers from its fivey sheet
 * (stats, defense class, move, weapons), or a quick NPC's from the example monster it is named
 * after, else a grunt (004:715-773). Returns 0.
 */
int fivey_enc_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err);
/* The hit points object {max, damage} of cid (created if missing). Borrowed. */
json_t *fivey_hp(rules_enc *e, const char *cid);
/* Adds dmg (negative: heals) to cid's running tally; at damage >= hit points the combatant dies
 * (004:367, reading 5), an NPC's XP goes to /gm/enc/xp and its side may be due a morale check
 * (004:670). Returns 1 when it died now. */
int fivey_apply_damage(rules_enc *e, const char *cid, int dmg);
/* One d20 + bonus for a whole party (004:645, 004:666), its dice appended to `dice` marked
 * "by": by. Returns the total. */
int fivey_party_roll(rules_enc *e, int bonus, json_t *dice, const char *by);
/*
 * The collective morale check (004:670) of side `side` (NULL: the side due one) with the
 * parameters `wis` and `dc` of a: fivey_morale_check refuses before any die (TB_RULE for the
 * party's side or a side with nobody standing, TB_BAD_REQUEST when no side is named or due);
 * fivey_morale rolls d20 + wisdom against DC 14, then 16, then 18, and on a failure every
 * standing member flees. fivey_morale returns 0 after a passed check.
 */
int fivey_morale_check(const rules_enc *e, const char *side, const rules_args *a, tb_err *err);
int fivey_morale(rules_enc *e, const char *side, const rules_args *a, tb_err *err);
/* The choices of the morale action's parameter p (encounter.h, "Moves"): the sides that may
 * check (default_side names the one taken when none is given), the wisdom and DC left out. */
int fivey_morale_choices(const rules_enc *e, const rules_param *p, const char *default_side,
                         json_t *out);

/* ---- the GM's monster actions (monsters.c), actions of fivey.combat ---- */

/* spawn {name, monster?, bracket?, dc?, hp?, side?}: a new NPC from an example monster or a
 * bracket in one step (004:715-767). */
int fivey_spawn_check(const rules_enc *e, const rules_args *a, tb_err *err);
int fivey_spawn(rules_enc *e, const rules_args *a, tb_err *err);
/* bracket {target, bracket, dc, hp}: an NPC's numbers from a bracket (004:715-742). */
int fivey_bracket_check(const rules_enc *e, const rules_args *a, tb_err *err);
int fivey_bracket(rules_enc *e, const rules_args *a, tb_err *err);
/* The choices of their parameter p (encounter.h, "Moves"). */
int fivey_monster_choices(const rules_enc *e, const rules_enc_action *a, const rules_param *p,
                          json_t *out);

/* ---- the party's contests (contests.c), actions of fivey.combat ---- */

/* surprise {side?, wis?}: before round 1, each standing member of the surprising side rolls
 * d20 + DEX against one d20 + the other party's wisdom; the winners take a free turn (004:645). */
int fivey_surprise_check(const rules_enc *e, const rules_args *a, tb_err *err);
int fivey_surprise(rules_enc *e, const rules_args *a, tb_err *err);
/* initiative {opp?}: each standing member of the party rolls d20 + DEX against one d20 + the
 * opposition's DEX; the winners act before it; a round starts (004:666-668). */
int fivey_initiative_check(const rules_enc *e, const rules_args *a, tb_err *err);
int fivey_initiative(rules_enc *e, const rules_args *a, tb_err *err);
/* The choices of their parameter p (encounter.h, "Moves"). */
int fivey_contest_choices(const rules_enc *e, const rules_enc_action *a, const rules_param *p,
                          json_t *out);

/* ---- downtime (downtime.c), the action of fivey.between ---- */

/* How long a downtime round runs (004:574): a tennite, a season (3 downtime turns, the lifestyle
 * paid twice) or a year (12 turns, paid ten times). */
typedef struct fivey_span {
    const char *name;  /* "tennite", "season", "year" */
    const char *label; /* "A season (3 tennites)" */
    int turns;         /* downtime turns: 1, 3, 12 */
    int cost_times;    /* the lifestyle's cost multiplied: 1, 2, 10 */
} fivey_span;
/* The span called name (NULL: a tennite), or NULL for a name the book does not have. */
const fivey_span *fivey_span_named(const char *name);
/* The i-th span, NULL past the end. */
const fivey_span *fivey_span_at(size_t i);
/* The span of the downtime round running (/enc/span; a tennite when none is set). */
const fivey_span *fivey_span_of(const rules_enc *e);

/* downtime {lifestyle, activity, stat?, skilled?, settlement?, event?} (004:562-639): once a
 * downtime round (/enc/downtime), the lifestyle paid for the round's span, its activity or a
 * lesser one's, once for each of the span's turns. */
int fivey_downtime_check(const rules_enc *e, const rules_args *a, tb_err *err);
int fivey_downtime(rules_enc *e, const rules_args *a, tb_err *err);
/* cid's institution {capital, level, credit} (004:616-633), created if missing: on a PC's
 * combatant (public, kept between scenes: carry_each), on an NPC's GM-only object. Borrowed. */
json_t *fivey_institution(rules_enc *e, const char *cid);
/* A tennite begins: every institution of level 1 or more offers its line of credit, which
 * replaces what was left of the last (004:618 "cannot be accumulated"); logged per owner. */
void fivey_institutions_credit(rules_enc *e);
/* The choices of its parameter p (encounter.h, "Moves"). */
int fivey_downtime_choices(const rules_enc *e, const char *actor, const rules_param *p,
                           json_t *out);

/* ---- spells (spells.c; 004:481-505, 004:680, 004:701) ---- */

/* The spell entry named `name` among cid's stats.spells (borrowed), or NULL. */
json_t *fivey_spell_carried(const rules_enc *e, const char *cid, const char *name);
/*
 * Casting: the parameters `spell` and `target`..`target4` of a. fivey_cast_check refuses before
 * any die: a spell the book does not have or the caster does not carry, no cast left, a bolt
 * without a target, Charm on other than one creature or on the caster, a target named twice or
 * out; `cost` ◆ must be left (0: no budget, outside a fight). fivey_cast spends the ◆ and a cast
 * (stats.spell_slots.used) and resolves the spell (rules/RULES.md, readings 12 and 13).
 */
int fivey_cast_check(const rules_enc *e, const rules_args *a, int cost, tb_err *err);
int fivey_cast(rules_enc *e, const rules_args *a, int cost, tb_err *err);
/* The parameters of every module's `cast`: spell, target..target4. */
extern const rules_param fivey_cast_params[];
/* `cast` in a fight's turn (fivey.combat): the same at ◆◆ (004:701). */
int fivey_cast_turn_check(const rules_enc *e, const rules_args *a, tb_err *err);
int fivey_cast_turn(rules_enc *e, const rules_args *a, tb_err *err);
/* `cast` outside a fight (fivey.social, fivey.between; rules/RULES.md reading 14): the same with
 * no ◆ to spend. */
int fivey_cast_free_check(const rules_enc *e, const rules_args *a, tb_err *err);
int fivey_cast_free(rules_enc *e, const rules_args *a, tb_err *err);
/* The choices of its parameter p (encounter.h, "Moves"): the spells actor carries, targets. */
int fivey_cast_choices(const rules_enc *e, const char *actor, const rules_param *p, json_t *out);

#endif
