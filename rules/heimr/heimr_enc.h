/*
 * heimr_enc.h — what the Heimr encounter modules share, internal to rules/heimr/ (rulebook
 * 001_660a93111b0de833.txt, cited 001:LINE). The modules are combat.c (heimr.combat), chase.c
 * (heimr.chase) and between.c (heimr.between); each calls what is declared here and
 * rules/encounter.h, never another module.
 *
 * The files behind this header are layers, each calling only the ones above it:
 *   heimr_enc.c  the sheet in a combatant's stats, abilities and items, body parts, rolls,
 *                fatigue, the turn's limits
 *   grip.c       grabs (the brawl attack's bind), guards, moving someone
 *   body.c       injuries and their effects, damage, the effects the GM applies
 *   defence.c    the ground a combatant stands on, pre-rolled defences
 *   attack.c     an attack from the roll to the hit, readied attacks
 *   turns.c      initiative, the start and the end of a turn, delaying
 *   choices.c    what the moves offer for each parameter (the modules' choices hooks)
 *
 * Secrets: an NPC's numbers (stats, initiative score, pre-rolled defence, readied action) live in
 * /gm/enc/combatants/<cid> (heimr_priv); a PC's on its public combatant object (a PC's sheet is
 * public). Every function taking a `const rules_enc *` only reads (the actions' checks use them).
 */
#ifndef TABLED_RULES_HEIMR_ENC_H
#define TABLED_RULES_HEIMR_ENC_H

#include <stddef.h>

#include "encounter.h"
#include "heimr.h"

/* The modules (registered once, in rules_system_heimr.modules: heimr.c). */
extern const rules_module rules_module_heimr_combat;  /* combat.c */
extern const rules_module rules_module_heimr_chase;   /* chase.c */
extern const rules_module rules_module_heimr_between; /* between.c */

#define HEIMR_TURN_SECONDS 2 /* 001:238 "Every turn lasts two seconds" */
#define HEIMR_ROUNDS_PER_MINUTE (60 / HEIMR_TURN_SECONDS)
#define HEIMR_HP_FLOOR                                                                             \
    (-5) /* 001:163-166 end at mutilated (-4 or -5); RULES.md heimr reading 12                     \
          */

/* ---- heimr_enc.c: small helpers ---- */

/* The object holding what players must not see of cid: the combatant itself for a PC, its
 * /gm/enc object for an NPC (created if missing). Borrowed. */
json_t *heimr_priv(rules_enc *e, const char *cid);
/* The same without creating anything: NULL when it does not exist. */
json_t *heimr_priv_of(const rules_enc *e, const char *cid);
int heimr_is_true(const json_t *o, const char *key);
/* Sets o[key] = true, or removes it. */
void heimr_set_bool(json_t *o, const char *key, int v);
/* s in lower case into out (n bytes): the keys of stats.abilities and stats.items. */
void heimr_lower_key(const char *s, char *out, size_t n);
/* cid's stats object (public for a PC, GM-only for an NPC) without creating it, or NULL. */
json_t *heimr_stats_of(const rules_enc *e, const char *cid);
/* An integer stat of cid, def when absent (rules_enc_stat without creating anything). */
int heimr_stat(const rules_enc *e, const char *cid, const char *key, int def);

/* ---- heimr_enc.c: body parts (001:409-414) ---- */

/* 001:413-414 the part a d6 hits (index d6 - 1) */
extern const char *const HEIMR_PART_BY_D6[6];
int heimr_is_part(const char *s);
/* A body part as the table says it ("sword arm"). */
const char *heimr_part_words(const char *part);
/* ---- heimr_enc.c: rolls ---- */

/* A challenge (001:71-81) with consistency c and potential p; a consistency beyond
 * +-HEIMR_MAX_C after every penalty rolls as +-HEIMR_MAX_C (RULES.md, heimr encounter reading
 * 21), so an encounter's roll never fails. */
void heimr_enc_roll(int c, int p, rules_rng *rng, heimr_roll *out);
/* heimr_roll_recast at consistency c, clamped the same way. */
void heimr_enc_recast(heimr_roll *r, int c, rules_rng *rng);
/* Appends the roll's dice to `dice` ({sides, value, kept}, the d6 first; `by` (may be NULL)
 * names what the dice are for). */
void heimr_roll_dice(json_t *dice, const heimr_roll *r, const char *by);
/* The roll as a new object {consistency, potential, result, d6, d10s, die, bonus, penalty,
 * before_potential}. */
json_t *heimr_roll_json(const heimr_roll *r);

/* ---- heimr_enc.c: the turn's limits ---- */

/* 001:128, 001:280 a dazed combatant takes no action, only ends its turn: TB_RULE. */
int heimr_can_act_check(const rules_enc *e, const char *cid, tb_err *err);
void heimr_mark_acted(rules_enc *e, const char *cid);
/* Whether cid has n of budget `kind` left: TB_RULE in rules_enc_spend's words when not. */
int heimr_budget_check(const rules_enc *e, const char *cid, const char *kind, tb_err *err);
/* 001:325 a free action once a turn: TB_RULE when cid has used `name` (any case) this turn. */
int heimr_free_check(const rules_enc *e, const char *cid, const char *name, tb_err *err);
/* Marks the free action `name` used this turn, in lower case (and cid as having acted). */
void heimr_free_use(rules_enc *e, const char *cid, const char *name);

/* ---- heimr_enc.c: the sheet in the stats, and what a roll is made with ---- */

/* What every Heimr encounter puts in a joining combatant's stats: the sheet's defaults for a
 * quick NPC, dexterity, base fatigue (001:294-296) and stats.abilities {lower-case name: {name,
 * c, p, physical}} and stats.items {lower-case name: {name, ability, c, p}} from `sheet` (NULL
 * for a quick NPC). */
void heimr_join_stats(rules_enc *e, const char *cid, const json_t *sheet);

/* Whether attribute attr ("str" ...) is physical (001:31-34: str, dex, sta). */
int heimr_is_physical(const char *attr);
/* The attribute of standard ability `ability` (any case: "Brawl" → "str", 001:201-209), or
 * NULL. */
const char *heimr_standard_attr(const char *ability);
/* The standard ability `ability` as the book writes it ("brawl" → "Brawl"), or NULL. */
const char *heimr_standard_name(const char *ability);

/* What a roll is made with: an ability (and item) of the sheet, or c/p given outright. */
typedef struct heimr_spec {
    char ability[64]; /* the name as written on the sheet ("" for c/p given) */
    char item[104];
    int c, p, phys;
} heimr_spec;

/* Fills *out from cid's ability (any case; NULL: the item's ability), item (may be NULL) or,
 * with has_cp, the GM's c and p. TB_RULE naming what the sheet lacks. Reads only. */
int heimr_spec_resolve(const rules_enc *e, const char *cid, const char *ability, const char *item,
                       int has_cp, int c, int p, heimr_spec *out, tb_err *err);

/* The scene is over (heimr.combat's and heimr.chase's end hook): everyone's fatigue returns to
 * its base (001:292, 001:304; RULES.md heimr reading 23), said for each one it changed (an NPC's
 * to the GM only). */
void heimr_breath_back(rules_enc *e);

/* 001:286 the d6 below fatigue raises it by one, 001:310 at most once from the start of cid's
 * turn to the next (`fatigue_rose`). Returns 1 when it rose. */
int heimr_fatigue_rise(rules_enc *e, const char *cid, int d6);

/* ---- heimr_enc.c: choices for the moves (rules/encounter.h, rules_enc_choices_fn) ---- */

/* Appends {value, label} to out; value stolen (NULL: null, leave the parameter out). */
void heimr_choice(json_t *out, json_t *value, const char *label);
/* cid's abilities by name, the sheet's own first, then the standard ones; physical ones only
 * with phys. */
void heimr_choose_abilities(const rules_enc *e, const char *cid, int phys, json_t *out);
/* cid's items by name (with armed: those naming an ability, weapons and shields); how many. */
int heimr_choose_items(const rules_enc *e, const char *cid, int armed, json_t *out);
/* The body parts (001:413), in words. */
void heimr_choose_parts(json_t *out);
/* The combatants other than cid: its foes, its allies (which: HEIMR_FOES, HEIMR_ALLIES; foes
 * first unless HEIMR_ALLIES_FIRST), those out of the fight last and only with HEIMR_OUT. */
enum { HEIMR_FOES = 1, HEIMR_ALLIES = 2, HEIMR_OUT = 4, HEIMR_ALLIES_FIRST = 8 };
void heimr_choose_combatants(const rules_enc *e, const char *cid, unsigned which, json_t *out);

/* ---- heimr_enc.c: log helpers (the words are in words.c and the modules' phrasings) ---- */

/* A public event of `event` (for `action`) about cid ({who}) and other ({whom}; may be NULL). */
void heimr_tell(rules_enc *e, const char *action, const char *event, const char *cid,
                const char *other);
/* The roll's dice (each with `by` when not NULL) and numbers as values of x for aud:
 * {consistency, potential, result, d6, d10s, die, bonus, penalty, before_potential}. */
void heimr_log_roll(rules_log *x, const heimr_roll *r, const char *by, rules_aud aud);
/* The names of n combatants as a list a person reads ("Ann, Bob and Cat"; without `and`: "Ann,
 * Bob, Cat") into out (cap bytes). */
void heimr_names_join(const rules_enc *e, const char *const *ids, int n, int and, char *out,
                      size_t cap);
/* The system's phrasings (words.c): the events of the shared layers. */
extern const rules_phrase heimr_phrases[];

/* ---- grip.c: grabs, guards, moving someone (001:130-135, 345, 401, 407, 448-465) ---- */

/* Who holds cid (NULL: nobody), and by which body part. */
const char *heimr_holder_of(const rules_enc *e, const char *cid);
const char *heimr_held_part(const rules_enc *e, const char *cid);
/* 001:134-135 held by the legs or the body: cid cannot move. */
int heimr_held_in_place(const rules_enc *e, const char *cid);
/* TB_RULE when cid is held in place. */
int heimr_may_move_check(const rules_enc *e, const char *cid, tb_err *err);
/* Ends holder's grab (if any), saying why: the word "release.<why>" of words.c. */
void heimr_bind_end(rules_enc *e, const char *holder, const char *why);
/* Grabs whose holder or held one is out, gone or dazed end. */
void heimr_restraint_tidy(rules_enc *e);
/* 001:407 the holder of `bound` rolls Brawl: *cr the requirement (0: none). */
void heimr_hold_stop(rules_enc *e, const char *bound, int *cr);
/* The guard of target that meets attacker's attack (001:452), counting the initiative order from
 * combatant `from` (the attacker, or where a readied attacker will stand); NULL for none. */
const char *heimr_guard_for(const rules_enc *e, const char *attacker, const char *target,
                            const char *from);
/* Breaking free (heimr.combat's break_free, its checks passed): the holder's Brawl first
 * (heimr_hold_stop), then cid's roll with s; passing both, and the fatigue requirement, ends
 * the grab. */
void heimr_break_free(rules_enc *e, const char *cid, const heimr_spec *s);
/* How willing the one moved is (001:460-465), in the words of a refusal and of the log. */
#define HEIMR_CARRY_NEITHER "can neither stand nor resist"
#define HEIMR_CARRY_LEG "is willing, with an injured leg"
#define HEIMR_CARRY_WILLING "is willing"
#define HEIMR_CARRY_HELD "is unwilling and held"
#define HEIMR_CARRY_UNWILLING "is unwilling"
/* 001:460-465 moving tgt: the helpers named (names or ids, separated by commas) into ids
 * (n_out), the hands it takes and why (the word "carry.*" of words.c); TB_* when a helper cannot
 * help or there are too few. */
#define HEIMR_MAX_HELPERS 8
int heimr_carry_check(const rules_enc *e, const char *cid, const char *tgt, const char *helpers,
                      char ids[HEIMR_MAX_HELPERS][40], int *n_out, int *need, const char **why,
                      tb_err *err);
/* Moves tgt `to` somewhere (may be NULL) with the helpers heimr_carry_check found: each
 * helper's next standard action goes into it (`lending`). */
void heimr_carry(rules_enc *e, const char *cid, const char *tgt, const char *to,
                 char ids[HEIMR_MAX_HELPERS][40], int n, int need, const char *why);

/* ---- body.c: injuries, damage, effects (001:119-168) ---- */

/* Adds an effect condition; an effect without an end (from an injury) is not shortened by a
 * timed one of the same name. */
void heimr_add_effect(rules_enc *e, const char *cid, const char *name, int turns, int level);
/* After cid's HP changed: the injury level and the dying clock (001:165-166). */
void heimr_update_injury(rules_enc *e, const char *cid);
/* A joining combatant's injuries keep their effects (001:153); its injury level. */
void heimr_join_injuries(rules_enc *e, const char *cid);
/* 001:327 an upcoming action is interrupted by an attack or an effect. */
void heimr_interrupt_upcoming(rules_enc *e, const char *cid);
/* Loses dmg HP, injuring `part` (may be NULL) at zero or less. What the table reads of it goes
 * into x, the event of the hit (which names cid {whom} and the HP lost {damage}): a PC's HP
 * (word {hurt}: {hp_was}, {hp}) and the injury (word {injured}: {at}, {injury}). Returns the
 * new HP. */
int heimr_take_damage(rules_enc *e, const char *cid, int dmg, const char *part, rules_log *x);
/* The GM's effect `eff` (hit, drain or one of the timed ones) on tgt: value is its seconds or
 * points (0: the default, 2 seconds or 1 point), part the body part a hit injures (may be NULL).
 * heimr_effect_check says whether eff and part are known. */
int heimr_effect_check(const char *eff, const char *part, tb_err *err);
void heimr_effect(rules_enc *e, const char *tgt, const char *eff, int value, const char *part);

/* ---- defence.c: the ground and pre-rolled defences (001:418-446, 467-552) ---- */

/* A number of the ground cid stands on (`ground` {height, concealment, difficult}), 0 unset. */
int heimr_ground(const rules_enc *e, const char *cid, const char *key);
/* Whether cid can make a defensive roll now (001:280, 407, 435-437). */
int heimr_can_defend(const rules_enc *e, const char *cid);
/* What heimr_defence_check leaves out: the defence held (the Dodge action replaces it), or also
 * whether cid can defend now (at the end of its turn, heimr_finish_check sees to both). */
enum { HEIMR_DEF_REPLACING = 1, HEIMR_DEF_TURN_END = 2 };
/* The checks of a defence roll of `kind` before any die: kind, cid able to defend, a defence
 * already held, parry uses, the ability or item it needs and has (`skip`: HEIMR_DEF_*). */
int heimr_defence_check(const rules_enc *e, const char *cid, const char *kind, const char *ability,
                        const char *item, unsigned skip, tb_err *err);
/* Pre-rolls cid's defence (heimr_defence_check first; 0 when it passed). */
int heimr_defence_roll(rules_enc *e, const char *cid, const char *kind, const char *ability,
                       const char *item, int situational, int extra_p, tb_err *err);
/* Reads the pre-rolled defence d at `delta` less consistency (the blind spot). */
void heimr_defence_recast(rules_enc *e, json_t *d, int delta);
/* The defence tgt meets an attack with: *def (borrowed, NULL: none) in slot *slot; a dodge is
 * rolled when none fits (001:420-422, 446). */
void heimr_defence_pick(rules_enc *e, const char *tgt, int ranged, json_t **def, const char **slot);

/* ---- attack.c: an attack (001:393-446) ---- */

/* A weapon (or brawl) attack, as the parameters give it. */
typedef struct heimr_attack {
    char target[40], ability[64], item[104], aim[16];
    int has_cp, c, p, penalty, damage, ranged, brawl, bind, blind_spot;
} heimr_attack;

void heimr_attack_from_args(const rules_args *a, heimr_attack *k);
json_t *heimr_attack_json(const heimr_attack *k);
void heimr_attack_from_json(const json_t *o, heimr_attack *k);
/* Whether cid can make attack k now, before anything is rolled; the guard order counts from
 * `from` (heimr_guard_for). */
int heimr_attack_check(const rules_enc *e, const char *cid, const heimr_attack *k, const char *from,
                       tb_err *err);
/* Makes the attack (heimr_attack_check passed); `how` starts the public words. */
void heimr_attack_run(rules_enc *e, const char *cid, const heimr_attack *k, const char *how);
/* 001:248 cid readies `what` (NULL: the attack k) until `trigger` (its checks passed). */
void heimr_ready(rules_enc *e, const char *cid, const char *what, const char *trigger,
                 const heimr_attack *k);
/* The readied attack `ready` holds, as it fires when `by` triggers it: its target is whoever
 * triggered it when it names none. */
void heimr_readied_attack(const json_t *ready, const char *by, heimr_attack *k);
/* 001:250 `by` triggers cid's readied action: cid moves to just before `by` and acts (its
 * checks passed). */
void heimr_trigger(rules_enc *e, const char *cid, const char *by);

/* ---- turns.c: initiative, the start and the end of a turn (001:238-250, 270, 395) ---- */

/* 001:242 rolls cid's initiative into rank and its `init`. */
void heimr_initiative(rules_enc *e, const char *cid, rules_rank *rank);
/* A round starts (`seconds`, the dying clocks of 001:165-166). */
void heimr_round_start(rules_enc *e);
/* What happens at the start of cid's turn (defences restored, readied action lost, ...). */
void heimr_turn_start(rules_enc *e, const char *cid);
/* Moves the pointer on and runs the round and turn starts. */
void heimr_next_turn(rules_enc *e);
/* 001:383-384 fatigue -2, not below base; returns the new fatigue. */
int heimr_breather(rules_enc *e, const char *cid);
/* Logs cid's breather (event "breather" or "breather-done") with its fatigue f, cid's
 * number. */
void heimr_log_breather(rules_enc *e, const char *cid, const char *event, int f);
/* 001:246 where cid moves in the order to act `when` ("before"/"after") tgt: *to the index it
 * moves to, *from where it is; or the refusal. */
int heimr_delay_place(const rules_enc *e, const char *cid, const char *tgt, const char *when,
                      int *from, int *to, tb_err *err);
/* cid delays (heimr_delay_place passed): it moves, the turn passes on. */
void heimr_delay(rules_enc *e, const char *cid, const char *tgt, const char *when, int from,
                 int to);
/* Whether ending cid's turn with a defence of kind/ability/item can go through (the defence it
 * would pre-roll, heimr_defence_check). */
int heimr_finish_check(const rules_enc *e, const char *cid, const char *kind, const char *ability,
                       const char *item, tb_err *err);
/* Ends cid's turn (heimr_finish_check passed). */
void heimr_finish_turn(rules_enc *e, const char *cid, const char *kind, const char *ability,
                       const char *item);

/* ---- choices.c: the moves' choices of the modules (rules_module.choices) ---- */

/* The type (standard, free, ongoing, upcoming) of action `what`: `type` when given, else the
 * book's for an action of 001:335-391 (any case), else NULL. */
const char *heimr_act_type(const char *type, const char *what);
int heimr_combat_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                         const rules_param *p, json_t *out);
int heimr_chase_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                        const rules_param *p, json_t *out);
int heimr_between_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                          const rules_param *p, json_t *out);

/* ---- the grid (grid.c: positions read from the scene's map, issue 30) ---- */
/* 001:264 "Movement is only possible along horizontal or vertical axes": |dx| + |dy| squares. */
int heimr_grid_distance(int ax, int ay, int bx, int by);
/* The distance between combatants a and b on the map, or -1 when either is not on it. */
int heimr_grid_between(const rules_enc *e, const char *a, const char *b);
/* Whether cid may charge at (NULL: none named): an opponent in a square next to cid's along an
 * axis when both are on the map (001:61, 001:344); 0, or the refusal in err. */
int heimr_charge_check(const rules_enc *e, const char *cid, const char *at, tb_err *err);

#endif
