/*
 * grimwire_enc.h — what the GRIMWIRE encounter modules share (internal to rules/grimwire/; the
 * rulebook 002_c1f3df0ad7b1e31f.txt is cited 002:LINE). The module files (conflict.c, between.c)
 * call down into these; these call rules/encounter.h and grimwire.h, never a module file:
 *
 *   conflict*.c  grimwire.conflict: its action table, each action's check and resolve
 *                (conflict.h); between.c grimwire.between
 *   strike.c     an attack's and a shove's or grapple's dice once they are allowed (gw_attack_*)
 *   rounds.c     initiative, the order, the beginning and end of turns (gw_next_turn, ...)
 *   fight.c      stats, status effects, rolls, damage, burnout, dying, grapples, spending
 *
 * Readers take a const rules_enc and write nothing (a check may call them); writers say so.
 * Numbers go to the log with their audience: an NPC's are the GM's (rules_enc_aud_of).
 */
#ifndef TABLED_RULES_GRIMWIRE_ENC_H
#define TABLED_RULES_GRIMWIRE_ENC_H

#include "encounter.h"
#include "grimwire.h"

#define GW_CAUSE_MAX 160 /* the longest "Cyrus's Machete" a damage line names */

/* ---- reading a combatant (stats.c; pure) ---- */

/* cid's stats (public for a PC, /gm/enc for an NPC) or NULL; creates nothing. */
json_t *gw_stats(const rules_enc *e, const char *cid);
int gw_geti(const json_t *o, const char *key, int def);
int gw_attr(const rules_enc *e, const char *cid, const char *name);
int gw_cond_cur(const rules_enc *e, const char *cid);
int gw_burnout(const rules_enc *e, const char *cid);
/* Whether cid has the status (rules_enc_cond_has). */
int gw_has(const rules_enc *e, const char *cid, const char *status);
int gw_npc(const rules_enc *e, const char *cid);
int gw_dying(const rules_enc *e, const char *cid);
const char *gw_nm(const rules_enc *e, const char *cid);
/* The public combatant object (borrowed) or NULL. */
json_t *gw_comb(const rules_enc *e, const char *cid);
/* cid's GM-only object (/gm/enc/combatants/<cid>) or NULL; creates nothing. */
json_t *gw_hidden_get(const rules_enc *e, const char *cid);
/* The object parent[key], created (an empty object) when missing. */
json_t *gw_obj(json_t *parent, const char *key);

/* ---- in a conflict (fight.c; pure) ---- */

/* The round whose action ("action" or "aux") cid last used up (002:439). */
int gw_spent(const rules_enc *e, const char *cid, const char *kind);
/* Why cid cannot do anything at all ("dying", "out_cold", "out of the fight", ...) or NULL
 * (002:256, 002:865-878). */
const char *gw_incapacity(const rules_enc *e, const char *cid);
/* A stunned PER roll, a paralysed TOG/COR/AGL roll fail (002:824, 002:828). */
int gw_auto_fails(const rules_enc *e, const char *cid, const char *a);
/* The better of TOG (STR, grimwire reading 1) and COR: "a STR or COR roll". */
const char *gw_tog_or_cor(const rules_enc *e, const char *cid);
/* "tog", "agl", ... ; NULL-terminated */
extern const char *const GW_ATTRS[];

/* ---- status effects (stats.c) ---- */

/* One of the status effects of 002:779-876 (the sheet's `status` names). */
int gw_is_status(const char *s);
/* The words of status s after "is" ("in agony", "knocked down"), or NULL for no status. */
const char *gw_status_said(const char *s);
/* The sheet's `status` follows the encounter's conditions (writes every combatant's stats). */
void gw_sync_status(rules_enc *e);

/* ---- the sheet copy between the scenes (stats.c) ---- */

/* stats[obj][key] and stats[key] (0 / def when absent); pure. */
int gw_sub_int(const rules_enc *e, const char *cid, const char *obj, const char *key);
int gw_stat_int(const rules_enc *e, const char *cid, const char *key, int def);
/* stats[obj][key] = v (the object created when missing). */
void gw_sub_set(rules_enc *e, const char *cid, const char *obj, const char *key, int v);
/* The combatant's own integer / true key; setting one (v stolen). */
int gw_comb_int(const rules_enc *e, const char *cid, const char *key);
int gw_comb_true(const rules_enc *e, const char *cid, const char *key);
void gw_comb_set(rules_enc *e, const char *cid, const char *key, json_t *v);
/* The stats list `key`: created empty when missing (borrowed), or NULL without creating. */
json_t *gw_stat_list(rules_enc *e, const char *cid, const char *key);
json_t *gw_stat_list_get(const rules_enc *e, const char *cid, const char *key);
/* Index of string s in array l, or -1; whether s is in a NULL-terminated list. */
int gw_list_find(const json_t *l, const char *s);
int gw_in_list(const char *s, const char *const *list);
/* Refuses an NPC actor: between the scenes is for the players' characters. */
int gw_pc_only(const rules_enc *e, tb_err *err);
/* gw_pc_only, and the actor is not dying (002:256): 0 or the refusal. */
int gw_able(const rules_enc *e, tb_err *err);
/* cid's d20 + attribute + burnout penalty + the status effects of its sheet's `status` against tn
 * (002:19-21, 002:244-248); the die to dice. */
grimwire_roll gw_sheet_roll(rules_enc *e, const char *cid, const char *attr, int tn, json_t *dice);

/* ---- damage types and dice (fight.c) ---- */

/* One roll of a damage expression already parsed: at least 1 (0 when it does not parse). */
int gw_roll_plain(rules_enc *e, const char *expr, json_t *dice);
/* Whether a damage expression parses (no die). */
int gw_damage_check(const char *expr, tb_err *err);

/* A damage type or a family ("physical", "energetic") of 002:691-721. */
int gw_known_type(const char *t);

/* ---- rolls (fight.c) ---- */

/* A d20 roll of cid's attribute `a` made for `use` (+ extra: burnout and status effects added)
 * against tn, appended to dice. */
grimwire_roll gw_roll_attr(rules_enc *e, const char *cid, const char *a, grimwire_roll_use use,
                           int extra, int tn, int attack, int ff, json_t *dice);
/* {natural, success[, attr, mod, total][, critical, collateral]} (new); never the number. */
json_t *gw_roll_json(const grimwire_roll *r, int secret_numbers);
/* An opposed roll (002:657-682, reading G8): see fight.c; its values into x (nat_key and
 * total_key name the other side's natural and total). Returns 1 when cid wins. */
int gw_opposed(rules_enc *e, const char *cid, const char *aa, int extra, const char *t,
               const char *ta, int t_extra, const char *nat_key, const char *total_key,
               json_t *dice, rules_log *x, int *at, int *tt);
/* A grappled cid's roll to act or move (002:678-679): 1 when it may go on. */
int gw_grapple_roll(rules_enc *e, const char *cid, int moving);

/* ---- Condition, burnout, the end of a status (fight.c; writers) ---- */

void gw_cond_set(rules_enc *e, const char *cid, int v);
/* One more level of burnout; `why` is the phrasing of its cause ("why.dying", ...: phrases.c). */
void gw_burnout_up(rules_enc *e, const char *cid, const char *why);
void gw_check_dying(rules_enc *e, const char *cid);
/* Where damage comes from, for the words: the phrasing of its source ("src.gm", "src.weapon",
 * ...: phrases.c) and, for a weapon or a stray hit, who wields it and the weapon's name. */
typedef struct gw_source {
    const char *word;
    const char *by;     /* a combatant id, or NULL */
    const char *weapon; /* a weapon's name, or NULL */
} gw_source;
/* Damage of type t (NULL: untyped) from src; with nonlethal a drop to 0 or below leaves cid at 1
 * and out cold (002:649). Returns what was taken. */
int gw_take_damage(rules_enc *e, const char *cid, int dmg, const char *t, gw_source src,
                   int nonlethal);
/* cid lets go of everyone it grapples; `why` the phrasing of why ("end.out_cold", ...). */
void gw_grapples_end(rules_enc *e, const char *cid, const char *why);
/* 002:805 agony's temporary level of burnout comes (none at level 4 already), and goes. */
void gw_agony_begins(rules_enc *e, const char *cid);
void gw_agony_ends(rules_enc *e, const char *cid);
/* Counts cid's timed conditions down and ends what expired with them. */
void gw_tick(rules_enc *e, const char *cid);
/* The damage of the area cid stands in (002:727). */
void gw_area_hurts(rules_enc *e, const char *cid);
/* The revived state of 002:260. */
void gw_revive(rules_enc *e, const char *t);

/* ---- what every check of the conflict asks first (fight.c; pure) ---- */

/* Refused while a player's attack waits for the GM's target number (reading G4). */
int gw_ready(const rules_enc *e, tb_err *err);
/* gw_ready, and a turn action waits while its actor stands in a lasting area (002:727). */
int gw_turn_ready(const rules_enc *e, tb_err *err);
/* Refused when the actor is out of the fight (an action taken at any time: release, swap). */
int gw_actor_in(const rules_enc *e, tb_err *err);
/* Not oneself (`what`: "trip"), not someone out of the fight. */
int gw_on_other(const rules_enc *e, const char *t, const char *what, tb_err *err);
/* What cid's budget holds of kind ("action", "move", "aux"). */
int gw_budget_left(const rules_enc *e, const char *cid, const char *kind);

/* ---- spending a turn (fight.c) ---- */

/* Whether cid may spend its action / movement now: 0 or the refusal (002:437-439, 002:465,
 * 002:824, 002:828, 002:854). Pure. */
int gw_action_check(const rules_enc *e, const char *cid, tb_err *err);
int gw_move_check(const rules_enc *e, const char *cid, tb_err *err);
/* Spend them (after the check passed). */
void gw_use_action(rules_enc *e, const char *cid);
void gw_use_move(rules_enc *e, const char *cid);
/* The aux action, and "did something this turn". */
void gw_use_aux(rules_enc *e, const char *cid);
void gw_mark_used(rules_enc *e, const char *cid);
void gw_spent_set(rules_enc *e, const char *cid, const char *kind, int round);
/* The round whose action (aux) a reaction of cid takes now (002:433-451), or -1 with err set. */
int gw_reaction_round(const rules_enc *e, const char *cid, int aux, tb_err *err);
void gw_reaction_spend(rules_enc *e, const char *cid, int aux, int uses);
/* Whether cid may use technique `name` for `cost` Focus (002:198, 002:248, 002:302, 002:815). */
int gw_focus_check(const rules_enc *e, const char *cid, const char *name, tb_err *err);
void gw_pay_focus(rules_enc *e, const char *cid, int cost);
/* The light-weapon attacks cid has left this turn (002:567-579), and whether any were counted
 * (-1: none; the first attack of the turn is the action's). An NPC's count is the GM's: it would
 * give its COR away (/gm/enc/combatants/<cid>/budget). */
int gw_attacks_left(const rules_enc *e, const char *cid);
void gw_attacks_set(rules_enc *e, const char *cid, int n);
/* A new turn: the count goes. */
void gw_attacks_reset(rules_enc *e, const char *cid);

/* ---- the turn (rounds.c) ---- */

/* Rolls everyone's initiative and sets the order (002:401-403); returns nothing refusable. */
void gw_roll_order(rules_enc *e, const char *surprise, int alert);
/* The first round begins after gw_roll_order: its first turn, or the next one who can act. */
void gw_first_round(rules_enc *e);
/* Rolls a latecomer's initiative and puts it at its rank. */
void gw_join_order(rules_enc *e, const char *cid);
/* The beginning of cid's turn; 1 when cid may take it (see rounds.c). */
int gw_turn_begins(rules_enc *e, const char *cid);
/* Ends `ending`'s turn (its conditions tick when tick_it) and moves the turn on. */
void gw_next_turn(rules_enc *e, const char *ending, int tick_it);
/* The current turn index / its setter / whether an entry after the current one may act. */
int gw_turn(const rules_enc *e);
void gw_turn_set(rules_enc *e, int t);
int gw_more_this_round(const rules_enc *e);
/* cid's initiative total (hidden for an NPC) and its index in /enc/initiative (-1). */
int gw_init_of(const rules_enc *e, const char *cid);
int gw_base_index(const rules_enc *e, const char *cid);
/* What cid's budget holds after the per-turn reset (reactions, stun, terror). */
void gw_budget_adjust(rules_enc *e, const char *cid);

/* ---- attacks (strike.c) ---- */

/* The weapon an attack uses: the sheet's, a damage expression, or bare hands (002:597). */
typedef struct gw_weapon {
    char name[64];
    char damage[48];
    char kind[16];
    int tog_req;
} gw_weapon;

/* Reads the weapon of an attack's arguments and parses its damage (no die). 0 or the refusal. */
int gw_pick_weapon(const rules_enc *e, const char *cid, const rules_args *a, gw_weapon *w,
                   tb_err *err);
/* The damage type of an attack: its `type`, else by the weapon's kind. */
const char *gw_attack_type(const rules_args *a, const gw_weapon *w);

enum { GW_HIT_WAIT = -1 };
/* How a hit of cid on t is judged (see strike.c): 0 with *tn, GW_HIT_WAIT when a player's roll
 * waits for the GM's number, or TB_RULE when the GM's own roll has no number. Pure. */
int gw_hit_tn(const rules_enc *e, const rules_args *a, const char *cid, const char *t, int *tn,
              int *pc_vs_pc, int *evade, tb_err *err);
/* The dice of an attack that was allowed and spent (strike.c). */
void gw_attack_resolve(rules_enc *e, const rules_args *a, const char *cid, const char *t,
                       const gw_weapon *w, int first, int tn, int pc_vs_pc, int evade);
/* A shove's or a grapple's dice (name "shove" or "grapple"). */
void gw_maneuver_resolve(rules_enc *e, const char *name, const rules_args *a, const char *cid,
                         const char *t, int tn, int pc_vs_pc, int evade);
/* A player's attack that waits for the GM's target number (reading G4). */
void gw_attack_wait(rules_enc *e, const char *action, const rules_args *a, const char *cid,
                    const char *t, int first);
/* Whether the waiting attack can be rolled against target t's `tn` now (set_tn's check). */
int gw_attack_resume_check(const rules_enc *e, tb_err *err);
/* Rolls it (after gw_attack_resume_check passed). */
void gw_attack_resume(rules_enc *e);
/* Who may be hit by the pending natural 1 (002:553-559): nobody (t NULL) or t. */
void gw_collateral(rules_enc *e, const char *t, int spare_given, int spare);
/* ---- the moves (choices.c) ---- */

/* The choices hooks of grimwire.conflict and grimwire.between (rules_module.choices). */
int gw_conflict_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                        const rules_param *p, json_t *out);
int gw_between_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                       const rules_param *p, json_t *out);

/* ---- the log (words.c; the phrasings: phrases.c) ---- */

/* The phrasings of grimwire.conflict and grimwire.between (rules_module.phrases). */
extern const rules_phrase gw_system_phrases[];
extern const rules_phrase gw_conflict_phrases[];
extern const rules_phrase gw_between_phrases[];

/* Every key of res (stolen) as a `result` value of x for aud (result only, never in the words). */
void gw_log_res(rules_log *x, json_t *res, rules_aud aud);
/* A roll as gw_roll_json says it: natural, success[, attr, mod, total][, critical, collateral];
 * the ints render ({natural}, {total}...). */
void gw_log_roll(rules_log *x, const grimwire_roll *r, int secret_numbers, rules_aud aud);
/* An event whose words name one combatant ({who}; `result` {target}), public. */
void gw_log_who(rules_enc *e, const char *action, const char *event, const char *cid);
/* An event naming cid ({who}) with the damage `rolled` (public; `result` {target, rolled}) and
 * its dice (stolen, may be NULL). */
void gw_log_rolled(rules_enc *e, const char *action, const char *event, const char *cid, int rolled,
                   json_t *dice);
/* An event whose words name the actor ({who}), no result. */
void gw_log_actor(rules_enc *e, const char *action, const char *event);
/* An event naming cid ({who}) and t ({other}); `result` {target: t}; public. */
void gw_log_pair(rules_enc *e, const char *action, const char *event, const char *cid,
                 const char *t);
/* Says who reads x: its phrasing ends with {aud} (renders nothing), so only aud reads it (the GM,
 * for a line about an NPC's hidden numbers whose words name no hidden number). */
void gw_log_for(rules_log *x, rules_aud aud);
/* The source of damage: {src} (the word), {by} and {weapon}. */
void gw_log_source(rules_log *x, gw_source src, rules_aud aud);

#endif
