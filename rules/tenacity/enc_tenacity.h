/*
 * enc_tenacity.h — internal to the tenacity encounter modules tenacity.spotlight and
 * tenacity.social (not a public surface: only rules/tenacity/enc_tenacity.c, spotlight.c and
 * social.c include it).
 *
 * social.c: the social scene module tenacity.social (003:49, 003:70): the standing scales, on the
 *           contest and the hooks below ("what tenacity.spotlight shares").
 * spotlight.c: who holds the spotlight and who goes next (003:84-92): initiative, passing, the
 *              end of a turn, responses for 10acity/spin, round resets, group initiative.
 * enc_tenacity.c: the rolls, stress and wounds, conditions, the actions and the module table.
 *
 * The module's own state (documented in rules/RULES.md, "Encounters (module tenacity.spotlight)"):
 *   /enc: spotlight (cid|null), acted [cid], cue [cid], recalled [cid], responder (cid|null),
 *         choosing (bool), opening (bool); group mode: groups [side], group (index), edge [cid]
 *   combatant: init (PCs), overflow ("wound"|"unconscious"), coup {target, stage, done}
 *   stats: skills {name: [dice, rank, impact_bonus]} and the sheet's stress, wounds, tenacity,
 *          spin, unconscious, conditions; a sheetless NPC: challenge_dice, challenge_bonus,
 *          impact_dice, impact_bonus, stress, wounds
 *   /gm/enc/combatants/<cid>: init (NPCs), conds {<condition name>: challenge}
 */
#ifndef TABLED_RULES_TENACITY_ENC_H
#define TABLED_RULES_TENACITY_ENC_H

#include "encounter.h"
#include "tenacity.h"

/* ---- small JSON helpers over /enc ---- */
/* The array /enc/<key> (created if missing). Borrowed. */
json_t *ten_list(rules_enc *e, const char *key);
int ten_has(const json_t *list, const char *cid);
void ten_put(json_t *list, const char *cid); /* appends unless there */
void ten_drop(json_t *list, const char *cid);
/* /enc/<key> as a string (NULL when absent or null) and setting it (NULL: json null). */
const char *ten_str(const rules_enc *e, const char *key);
void ten_set_str(rules_enc *e, const char *key, const char *v);
int ten_flag(const rules_enc *e, const char *key);
void ten_set_flag(rules_enc *e, const char *key, int v);
/* Start option `name` (enc.start options) is on. */
int ten_option(const rules_enc *e, const char *name);

/* The spotlight holder, or NULL. */
const char *ten_holder(const rules_enc *e);
int ten_acted(rules_enc *e, const char *cid);
/* Different sides (003:87 "an opposing character"). */
int ten_opposed(const rules_enc *e, const char *a, const char *b);
int ten_unconscious(rules_enc *e, const char *cid);

/* ---- spotlight.c ---- */
/* Puts cid in the spotlight: a fresh turn (budget, damage conditions, end of full defence), or,
 * when cid has already acted this round, only the choice of who goes next (003:89). */
void ten_start_turn(rules_enc *e, const char *cid);
/* A new round: nobody has acted (003:90). */
void ten_new_round(rules_enc *e);
/* A holder's action affected cid: cid enters the spotlight (003:84, 003:87) and, if it has
 * already acted, may respond (003:91). */
void ten_bring(rules_enc *e, const char *cid);
/* Spends the actor's action (003:82); returns 1 (an extra advantage die) when it is the group
 * initiative's second group's first action this round (003:92), 0, or -1 with err set. */
int ten_take_action(rules_enc *e, const char *cid, tb_err *err);
/* After every action: the responder's response is over once its action is spent. */
void ten_after(rules_enc *e);

int ten_may_act(rules_enc *e, const char *cid, tb_err *err);
int ten_act_initiative(rules_enc *e, const rules_args *a, tb_err *err);
int ten_act_pass(rules_enc *e, const rules_args *a, tb_err *err);
int ten_act_end(rules_enc *e, const rules_args *a, tb_err *err);
int ten_act_respond(rules_enc *e, const rules_args *a, tb_err *err);
int ten_act_spotlight(rules_enc *e, const rules_args *a, tb_err *err);

/* ---- enc_tenacity.c ---- */
/* One side of a roll: hero dice (003:11) or a sheetless NPC's challenge d6s (003:13-14). */
typedef struct ten_side {
    const char *cid;
    int hero; /* 1: hero dice; 0: challenge dice */
    tenacity_roll r;
    int total;
    int rank;   /* the skill's rank (impact dice 003:15); a sheetless NPC: its impact dice x 2 */
    int ibonus; /* the skill's equipment impact bonus (003:12) */
} ten_side;

/* 0 when cid can roll skill (it is on its sheet; a sheetless NPC rolls any), else TB_BAD_REQUEST
 * naming it: what ten_roll checks, for callers that must check every side before any die. */
int ten_skill_check(rules_enc *e, const char *cid, const char *skill, tb_err *err);
/* Rolls cid's skill with adv extra dice and bonus (minus a matching hinder penalty, 003:99);
 * every die goes to `dice` tagged with role and cid. TB_BAD_REQUEST when cid has no such skill. */
int ten_roll(rules_enc *e, const char *cid, const char *skill, int adv, int bonus, const char *role,
             json_t *dice, ten_side *s, tb_err *err);
/* The skills map a sheet rolls (new reference): {name: [attribute dice, rank, best equipment
 * impact bonus (003:119), attribute name]}. */
json_t *ten_skills_of_sheet(const json_t *sheet);
/* Adds n stress to cid; over the maximum: a wound or unconsciousness (003:66, 003:106), or in
 * hardcore mode a wound or death (003:109). Logs it. */
void ten_stress(rules_enc *e, const char *cid, int n, const char *why);
/* Stats helpers. */
int ten_spin(rules_enc *e, const char *cid);
void ten_spin_add(rules_enc *e, const char *cid, int delta);
/* The shake-off roll (003:97) of condition `cond` with skill; action: 1 when it is the action. */
int ten_shake(rules_enc *e, const char *cid, const char *cond, const char *skill, int action,
              tb_err *err);
/* Fails cid's coup de grâce in progress (003:107: forced to do anything else). */
void ten_coup_fail(rules_enc *e, const char *cid, const char *why);
/* The target of a completed coup de grâce perishes at the end of the turn (003:107). */
void ten_coup_finish(rules_enc *e, const char *cid);

/* ---- what tenacity.spotlight shares with tenacity.social (social.c) ----
 * One roll's log: a shared audience entry (rules/encounter.h) where what an NPC rolls, its totals
 * and its skill names are the GM's. */
typedef struct ten_log {
    rules_enc_entry *x;
} ten_log;

/* An opposed check of an actor against a defender (003:66, 003:68). */
typedef struct ten_contest {
    ten_side atk, def;
    int success;
    int impact;   /* rolled on a success (003:5, 003:45) */
    char took[8]; /* the critical's die: "hero", "impact" or "" */
} ten_contest;

/*
 * The contest every tenacity check is (enc_tenacity.c `contest`): actor's `skill` against target's
 * `def_skill` (Reaction) with a's roll parameters (adv, bonus, def_adv, def_bonus, crit, push,
 * push_with, impact_bonus); ties to the defender (003:68), spin and pushes paid with spin, 10acity
 * or negative spin (003:30-37), the critical's die (003:28) and, on a success, the impact. Every
 * parameter and both skills are checked before the first die (a refused contest draws nothing).
 * Fills c and the log l (begun with ten_log_begin; the caller writes or drops it).
 */
int ten_contest_roll(rules_enc *e, const char *actor, const char *target, const char *skill,
                     const rules_args *a, ten_contest *c, ten_log *l, tb_err *err);
/* The impact dice of side s (half its rank in d4 plus its equipment bonus, 003:12, 003:15), each
 * die appended to dice (borrowed); what a failed check's opponent rolls (003:49). */
int ten_impact(rules_enc *e, ten_side *s, json_t *dice);
/* Before anything is rolled: actor can act (`what` names the action: not unconscious, no coup de
 * grâce under way), target is someone else and not out, no condition stops the skill (003:102). */
int ten_require_contest(rules_enc *e, const char *actor, const char *target, const char *what,
                        const char *skill, tb_err *err);
/* The `skill` parameter, "-" when absent (a sheetless NPC rolls its challenge dice). */
const char *ten_skill_arg(const rules_args *a);
void ten_log_begin(rules_enc *e, ten_log *l, const char *action);
void ten_log_drop(ten_log *l);
void ten_log_write(ten_log *l);
/* Files one side's dice (borrowed) and total under key, for cid's audience. */
void ten_log_side(rules_enc *e, ten_log *l, json_t *dice, const char *cid, const char *key,
                  int total);
/* " with <skill>" and the two totals for the GM's text where one is hidden. */
void ten_log_roll(rules_enc *e, ten_log *l, const char *actor, const char *target,
                  const char *skill, const ten_contest *c);
/* ---- the social standing scale (003:49, 003:70), one for both modules ----
 * /enc/standing/<who>/<eyes>: who's standing in the eyes of eyes, an integer 0..10, public (the
 * scale is on the table). */
#define TEN_STANDING_TOP 10  /* 003:70 "reach the top of the scale (usually 10)" */
#define TEN_STANDING_START 5 /* 003:70 "a neutral position such as 5" */
/* The standing of who in eyes's eyes, or def when none is recorded. */
int ten_standing_of(rules_enc *e, const char *who, const char *eyes, int def);
/* Records it (v is not clamped: callers pass 0..TEN_STANDING_TOP). */
void ten_standing_set(rules_enc *e, const char *who, const char *eyes, int v);
/* Moves the standing from `from` by delta, clamped to 0..TEN_STANDING_TOP (003:70: 10 wins, 0
 * loses all credibility; it goes no further), records it and returns where it lands. */
int ten_standing_move(rules_enc *e, const char *who, const char *eyes, int from, int delta);

/* After a successful action: conditions mirrored to the sheets, a response closed. */
void ten_done(rules_enc *e);
/* The module hooks and tables both modules use: a combatant's skills and NPC card (join), the
 * end of a scene (positive spin lost, 003:94), what the GM may set, what lands on the sheets. */
int ten_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err);
int ten_end(rules_enc *e, tb_err *err);
extern const rules_enc_field ten_editable[];
extern const char *const ten_sheet_stats[];

/* ---- the fight's options (options.c, 003:39, 003:57, 003:79-81, 003:104-123) ----
 * State (rules/RULES.md, "Combat options"): combatant: cover ("partial"|"full"|"soft"), prone,
 * elevated, size (steps, 0 = 1x1), grip {by, locked} on the one held, gripping (cid) on the
 * holder, held {what, trigger (PCs)}, helped_by (cid), offer {negative, cost}, resist {type: n}
 * (PCs); /enc parted [cid]; /gm/enc/combatants/<cid>: resist {type: n} and held_trigger (NPCs),
 * conds {grappled|locked: the holder's roll}. */
#define TEN_GRAPPLED "grappled"
#define TEN_LOCKED "locked"

/* What the states add to a contest's two sides (options.c ten_fight_mods) and whether it is a
 * reaction (no spin from it, 003:95). */
typedef struct ten_mods {
    int atk_adv, atk_bonus, def_adv, def_bonus;
    int reaction;
} ten_mods;

/* The advantage (or, negative, disadvantage) dice cid's roll of skill for `role` gets from its
 * states: elevation on Perception (003:116), a helper's die on its next action roll (003:57,
 * consumed), a lock's disadvantage die on its action rolls (003:105). */
int ten_roll_edges(rules_enc *e, const char *cid, const char *skill, const char *role);
/* cid's resistance to `type` (003:120): 0 when none or type is NULL. */
int ten_resist_of(rules_enc *e, const char *cid, const char *type);
/* Whether condition `name` is a grapple or a lock (003:104-105). */
int ten_grip_cond(const char *name);
/* Before a roll to shake condition name off: a lock is broken only with an action, a grapple
 * under a lock only after the lock (003:105). 0 or TB_RULE. */
int ten_grip_may_shake(rules_enc *e, const char *cid, const char *name, int action, tb_err *err);
/* After name was shaken off: a broken lock reverts to a grapple, an escaped grapple ends. */
void ten_grip_shaken(rules_enc *e, const char *cid, const char *name);
/* cid fell unconscious or (dead) perished: whoever it held is free; a dead character is held by
 * nobody (reading O3). */
void ten_grip_lost(rules_enc *e, const char *cid, int dead);
/* A fresh turn of cid: its unused hold lapses, its help lapses, nobody has struck it in parting. */
void ten_options_turn(rules_enc *e, const char *cid);
/* The attack action (003:45, 003:66) and the parting strike (003:111, reaction 1), with cover,
 * prone, size, flanking and resistances. */
int ten_act_attack(rules_enc *e, const rules_args *a, tb_err *err);
int ten_act_parting(rules_enc *e, const rules_args *a, tb_err *err);
/* The options' actions (their parameters: the table in enc_tenacity.c). */
int ten_act_grapple(rules_enc *e, const rules_args *a, tb_err *err);
int ten_act_lock(rules_enc *e, const rules_args *a, tb_err *err);
int ten_act_escape(rules_enc *e, const rules_args *a, tb_err *err);
int ten_act_hold(rules_enc *e, const rules_args *a, tb_err *err);
int ten_act_release(rules_enc *e, const rules_args *a, tb_err *err);
int ten_act_help(rules_enc *e, const rules_args *a, tb_err *err);
int ten_act_state(rules_enc *e, const rules_args *a, tb_err *err);
int ten_act_resist(rules_enc *e, const rules_args *a, tb_err *err);
int ten_act_offer(rules_enc *e, const rules_args *a, tb_err *err);
int ten_act_accept(rules_enc *e, const rules_args *a, tb_err *err);
int ten_act_decline(rules_enc *e, const rules_args *a, tb_err *err);
int ten_act_die(rules_enc *e, const rules_args *a, tb_err *err);

/* The pieces of enc_tenacity.c the options use. */
int ten_contest_mods(rules_enc *e, const char *actor, const char *target, const char *skill,
                     const rules_args *a, const ten_mods *m, int want_impact, ten_contest *c,
                     ten_log *l, tb_err *err);
/* The roll parameters' checks that need no die (crit, push, push_with). */
int ten_roll_params(const rules_args *a, tb_err *err);
int ten_require_able(rules_enc *e, const char *cid, const char *action, tb_err *err);
int ten_require_target(rules_enc *e, const char *actor, const char *target, tb_err *err);
int ten_require_skill_free(rules_enc *e, const char *cid, const char *skill, tb_err *err);
/* The impact of side s: its dice (+1 d4 for a critical's impact die) + bonus + its equipment. */
int ten_impact_roll(rules_enc *e, ten_side *s, int crit_die, int bonus, json_t *dice);
/* ten_stress, where quiet keeps an NPC's number out of the public text (a resistance, 003:120). */
void ten_stress_quiet(rules_enc *e, const char *cid, int n, const char *why, int quiet);
void ten_perish(rules_enc *e, const char *cid, const char *why);
/* /gm/enc/combatants/<cid>/conds (created if missing). Borrowed. */
json_t *ten_cond_challenges(rules_enc *e, const char *cid);
void ten_tag_last(json_t *dice, const char *role, const char *cid);
/* The string parameter `name`, NULL when absent or not in the action's table. */
const char *ten_arg_str(const rules_args *a, const char *name);

#endif
