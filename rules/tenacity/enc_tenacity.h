/*
 * enc_tenacity.h — internal to the tenacity encounter module tenacity.spotlight (not a public
 * surface: only rules/tenacity/enc_tenacity.c and rules/tenacity/spotlight.c include it).
 *
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
/* The impact of s's success (003:9, 003:15): half the rank in d4 plus the skill's equipment bonus
 * and `bonus`, at least 0; every die goes to `dice`. */
int ten_impact(rules_enc *e, ten_side *s, int bonus, json_t *dice);
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

#endif
