/*
 * encounter.h — the machinery every encounter module shares (DESIGN.md, "Rule systems and
 * modules"): the encounter and its combatants, sides, rounds, the order and the turn pointer,
 * per-turn budgets of actions, conditions with durations, damage tracks (stats) and the log entry
 * of an action. A system's module (rules/<system>/enc_<system>.c) supplies only what is its own:
 * how the order is made, its actions and their rules.
 *
 * THE STATE (all JSON, in the campaign state; the server glue in server/ops_enc.c owns the paths)
 *   /enc         public:  {module, name, round, turn, order, combatants:{<cid>: combatant}, ...}
 *   /gm/enc      GM only: {combatants:{<cid>:{stats}}, ...} — NPC numbers, pre-rolled values,
 *                          target numbers: whatever players must not see until the GM reveals it
 *   combatant = {id, name, side, seat, npc, char, conditions:[...], budget:{...}, out,
 *                stats:{...} (PCs only: an NPC's stats live in /gm/enc/combatants/<cid>/stats)}
 *   - `order` is an array of combatant ids (or, for modules that need it, of objects: cot slots);
 *     `turn` is the index of the current entry, or -1 before the first round / between rounds.
 *   - `round` counts from 0 (not started) upward.
 *   Modules may add their own keys at the top of /enc and /gm/enc and on combatants (keep names
 *   short and document them in rules/RULES.md).
 *
 * HOW A MODULE PLUGS IN
 *   1. rules/<system>/<module>.c defines `const rules_module rules_module_<system>_<name>`
 *      (non-static) with its action table (each action a pure check and a resolve), its choices
 *      hook and its phrasings, and rules/<system>/meson.build adds the file.
 *   2. Its pointer goes in its system's `modules` list (system.h): the one registration.
 *   Nothing else: the server runs every module through the same ops (enc.start, enc.add, enc.act,
 *   enc.moves, enc.set, enc.end) and rules_enc_act checks `who`, the parameters and the action's
 *   check before its resolve runs.
 *
 * Purity: no I/O, no clock, no globals; every die comes from e->rng. Errors: 0 or a tb_code with
 * err filled: TB_RULE when the rules forbid it (the message names the rule and, where it helps,
 * the rulebook line, which the nack carries in `cite`, not in its message: proto_msg_nack),
 * TB_FORBIDDEN when the caller does
 * not control the combatant, TB_BAD_REQUEST/TB_NOT_FOUND for malformed input. On error the server
 * discards the whole working copy, so a function may fail after changing things.
 */
#ifndef TABLED_RULES_ENCOUNTER_H
#define TABLED_RULES_ENCOUNTER_H

#include <jansson.h>

#include "err.h"
#include "rng.h"
#include "system.h"

typedef struct rules_enc rules_enc;

/* Who may take an action. The GM may always take every action (for NPCs and to fix things). */
typedef enum rules_enc_who {
    RULES_ENC_GM = 1, /* the GM only (setup, NPC-only rolls, advancing) */
    RULES_ENC_TURN,   /* whoever controls `actor`, and only when the module's may_act hook (the
                         default: actor is the current entry of the order) says it may act now;
                         `actor` defaults to the current combatant */
    RULES_ENC_OWNER,  /* whoever controls `actor`, at any time (reactions, claims); the module
                         checks the timing itself */
    RULES_ENC_ANY,    /* any seat; no actor needed */
} rules_enc_who;

/* An action's resolve: rolls the dice and writes the state. The engine calls it only after the
 * action's check passed (and the who-check, the parameter parse and the target check), so it
 * never refuses for a reason the check could have seen: over every state the tests and the
 * fuzzer reach, check passes => resolve returns 0 (tests/unit/test_module_props.c). */
typedef int (*rules_enc_fn)(rules_enc *e, const rules_args *a, tb_err *err);
/* An action's check: the arguments against the state, before any die. Pure: reads e (e->actor is
 * the acting combatant, already who-checked; e->seat/e->is_gm the caller), draws nothing from
 * e->rng and writes nothing (not /enc, /gm/enc, /private, the log). 0, or the refusal in the
 * table's words: TB_RULE (the rules forbid it now), TB_BAD_REQUEST/TB_NOT_FOUND (an argument
 * names nothing usable). */
typedef int (*rules_enc_check_fn)(const rules_enc *e, const rules_args *a, tb_err *err);

/* rules_enc_action.flags */
enum {
    RULES_ENC_RARE = 1 << 0,    /* seldom used: the table folds it away (still offered) */
    RULES_ENC_CONFIRM = 1 << 1, /* the table asks "are you sure?" first (choosing to die) */
};

/* One action of a module. The field order keeps older positional tables compiling:
 * {name, label, who, params, resolve, cite, check, flags}. */
typedef struct rules_enc_action {
    const char *name;  /* "attack": the `action` of enc.act */
    const char *label; /* button text: "Attack" */
    rules_enc_who who;
    const rules_param *params; /* ends with {0}; a STRING parameter named "target" (or
                                  "target2") must name a combatant: checked before check runs */
    rules_enc_fn resolve;      /* rolls and writes (was `fn`) */
    const char *cite;          /* rulebook file:line */
    rules_enc_check_fn check;  /* may be NULL only when nothing can refuse beyond who/params */
    unsigned flags;            /* RULES_ENC_RARE, RULES_ENC_CONFIRM */
} rules_enc_action;

typedef struct rules_module {
    const char *id;     /* "cot.initiative" */
    const char *system; /* "cot" */
    const char *name;   /* "Initiative slots" */
    const char *cite;
    const rules_param
        *options; /* enc.start options (stage type, ...); ends with {0}; may be NULL */
    /* After /enc and /gm/enc were created, with the parsed options. May be NULL. */
    int (*start)(rules_enc *e, const rules_args *options, tb_err *err);
    /* A combatant joined: its public object and stats exist (stats copied from the sheet's
     * `sheet_stats` fields); `sheet` is its character sheet (NULL for a quick NPC). Set budgets,
     * tracks, pre-rolled values. May be NULL. */
    int (*join)(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err);
    /* Whether combatant cid may take a RULES_ENC_TURN action now; NULL = "cid is the current
     * entry of the order". Fail with TB_RULE naming whose turn it is. */
    int (*may_act)(rules_enc *e, const char *cid, tb_err *err);
    /* The GM ends the encounter (enc.end), before /enc is removed: what the rules say happens
     * after a fight (e.g. tenacity's positive spin is lost). Stats it changes are written back
     * to the sheets. May be NULL. */
    int (*end)(rules_enc *e, tb_err *err);
    const rules_enc_action *actions; /* ends with {0} */
    /* Top-level sheet fields copied into a combatant's stats when it joins, and written back to
     * its sheet after every action (damage and conditions land on the sheets). NULL-terminated;
     * may be NULL. */
    const char *const *sheet_stats;
    /* What the GM may set with enc.set beyond the fields every module has (rules_enc_editable:
     * see "What the GM may edit" below); ends with {0}; may be NULL. */
    const struct rules_enc_field *editable;
    /* The module's own part of rules_enc_check: whether it can use the state (its own keys,
     * non-string order entries). Reads only; TB_RULE naming the damaged part. May be NULL (the
     * module adds nothing to the shared checks). */
    int (*check)(const rules_enc *e, tb_err *err);
    /* ---- progress that outlives the scene (rules/RULES.md, "Between the scenes: what carries
     * over") ----
     * Top-level keys of /enc (carry) and of /gm/enc (carry_gm) that the server keeps when the
     * scene ends and puts back when the next scene of this module starts (after the start hook;
     * an enc.start option of the same name replaces the kept value); keys on a PC's combatant
     * (carry_each) and on its GM-only object (carry_each_gm) kept per character and put back
     * when that character joins (after the join hook). Combatant ids inside kept values are
     * translated to the characters they stand for and back. Each NULL-terminated; may be NULL. */
    const char *const *carry;
    const char *const *carry_gm;
    const char *const *carry_each;
    const char *const *carry_each_gm;
    /* What the module counts on the campaign clock (days, site turns): count what passed from
     * e->since_s to e->now_s, then set e->since_s = e->now_s. The server calls it after every
     * action that succeeded and when the scene starts (so time another scene took, a fight in
     * between, is counted too); an action may call it itself first. Pure; may roll dice (a
     * healer's day). May be NULL. */
    void (*catch_up)(rules_enc *e);
    /* ---- moves and words (issue 23; see "Moves" and "The log" below) ---- */
    /* The choices of parameter p of action a for actor (NULL for an action without one), as the
     * state holds them: see rules_enc_choices_fn. May be NULL (the engine's defaults only). */
    int (*choices)(const rules_enc *e, const char *actor, const rules_enc_action *a,
                   const rules_param *p, json_t *out);
    /* The module's phrasings (see "The log"); ends with {0}; the system's and the common ones
     * are looked up after it. */
    const struct rules_phrase *phrases;
} rules_module;

/* The context an action runs in. The server fills it; modules read and write through it. */
struct rules_enc {
    const rules_module *mod;
    json_t *enc;      /* /enc (mutable) */
    json_t *hidden;   /* /gm/enc (mutable) */
    rules_rng *rng;   /* every die */
    const char *seat; /* the caller's seat ("gm", "p1", ...) */
    int is_gm;
    const char *actor; /* the acting combatant id (NULL for RULES_ENC_ANY without one) */
    json_t *log;       /* public log entries of this command (array; the server stamps them) */
    json_t *gm_log;    /* GM-only log entries of this command (array) */
    json_t *seat_log;  /* one seat's log entries of this command (array; each names its seat in
                          `for`: the server writes it to /private/<for>/log); NULL drops them */
    json_t *priv;      /* /private (mutable; may be NULL): what one seat knows, by path
                          /private/<seat>/... (a social call's learned knowledge: cot.social) */
    /* The campaign clock (rules/clock.h), in seconds: the campaign time the action happens at
     * (now_s: the later of the campaign's time and the scene's own), the time the module last
     * counted up to (since_s: catch_up), and the in-world time the action took (took_s,
     * rules_enc_take_time; the server moves the scene's time on by it). */
    long now_s, since_s, took_s;
    /* Where rules_enc_who_check keeps the acting combatant's id that e->actor points to (the
     * default actor is read from the order, which the action may replace). */
    char actor_id[40];
    int log_refs; /* events logged by this command so far (rules_log_end: each entry's `ref`) */
    /* The scene's map (issue 30): the shown tokens of /maps/<scene>/tokens, {<id>: {id, x, y,
     * cid?}} (borrowed, read only; a fighter's token has its combatant's id), or NULL when no map
     * is shown. Only what the players see is here: no rule reads a hidden token's square. */
    const json_t *squares;
    /* That map's grid, {cols, rows} (borrowed), or NULL when no map is shown: a square the rules
     * are given must lie on it (rules_grid_inside). */
    const json_t *grid;
};

/* The action took `seconds` (> 0) of in-world time (a rest, a day's travel, a round of work):
 * now_s and took_s move on by it. The server puts the scene at now_s on the campaign clock. */
void rules_enc_take_time(rules_enc *e, long seconds);

/* ---- registry ---- */
const rules_module *rules_module_find(const char *id);
/* The i-th module (0-based), NULL past the end. */
const rules_module *rules_module_at(size_t i);
const rules_enc_action *rules_module_action(const rules_module *m, const char *name);
/* {id, name, system, cite, options:[params], actions:[{name,label,who,params,cite}]} */
json_t *rules_module_describe(const rules_module *m);

/* ---- combatants ---- */
/* The public combatant object, or NULL. */
json_t *rules_enc_combatant(const rules_enc *e, const char *cid);
/* Its name ("?" if none): for messages and log lines. */
const char *rules_enc_name(const rules_enc *e, const char *cid);
const char *rules_enc_side(const rules_enc *e, const char *cid);
int rules_enc_is_npc(const rules_enc *e, const char *cid);
/* The combatant's stats object (created if missing): public for a PC, /gm/enc for an NPC. */
json_t *rules_enc_stats(rules_enc *e, const char *cid);
/* The same, read without creating anything (NULL when it has none): for checks and choices,
 * which take a const rules_enc and write nothing. */
const json_t *rules_enc_stats_peek(const rules_enc *e, const char *cid);
/* An integer stat read without creating anything (def when absent): for checks. */
int rules_enc_stat_peek(const rules_enc *e, const char *cid, const char *key, int def);
/* An integer stat (def when absent) and setting one. */
int rules_enc_stat(rules_enc *e, const char *cid, const char *key, int def);
void rules_enc_stat_set(rules_enc *e, const char *cid, const char *key, int value);
/* Adds delta to an integer stat, clamped to lo..hi; returns the new value. */
int rules_enc_stat_add(rules_enc *e, const char *cid, const char *key, int delta, int lo, int hi);
/* The GM-only object of a combatant (/gm/enc/combatants/<cid>, created if missing). */
json_t *rules_enc_hidden_of(rules_enc *e, const char *cid);
/* Whether the caller controls cid: the GM controls everything; a seat its own PCs. */
int rules_enc_controls(const rules_enc *e, const char *cid);
/* Marks a combatant out of the fight (dead, fled, unconscious: `why`), or back in (why NULL).
 * The turn pointer skips combatants that are out. */
void rules_enc_set_out(rules_enc *e, const char *cid, const char *why);
int rules_enc_is_out(const rules_enc *e, const char *cid);

#define RULES_ENC_MAX_COMBATANTS 60
/* The most rounds an encounter counts (rules_enc_check refuses more: the count never overflows). */
#define RULES_ENC_MAX_ROUND 100000
/* The largest magnitude of any number in /enc and /gm/enc (rules_enc_check). */
#define RULES_ENC_MAX_NUMBER 10000000
/*
 * Adds a combatant {id, name, side, seat, npc, conditions: []} with the next id ("e1", "e2", ...:
 * /enc/next_id), written to cid (>= 24 bytes). It is not put in the order (the module decides
 * where it acts) and the module's join hook is not run (server/ops_enc.c does both for enc.add).
 * TB_RULE when the encounter already holds RULES_ENC_MAX_COMBATANTS.
 */
int rules_enc_add_combatant(rules_enc *e, const char *name, const char *side, const char *seat,
                            int npc, char cid[24], tb_err *err);

/* Iteration over combatants in a stable order (by id): `for (i = 0; (cid = rules_enc_cid_at(e,
 * i)); i++)`. */
const char *rules_enc_cid_at(const rules_enc *e, size_t i);

/* ---- order and turns ---- */
/* One entry to rank: id and up to 4 keys compared in order, highest first; `coin` breaks a full
 * tie (highest first; roll it with e->rng when the rulebook says "roll off", or leave it 0 to keep
 * the input order). */
typedef struct rules_rank {
    const char *id;
    int key[4];
    int coin;
} rules_rank;
/* Sorts n entries (stable) and writes /enc/order as the array of their ids; turn = -1. */
void rules_enc_order_set(rules_enc *e, rules_rank *r, int n);
/* The current entry of the order (a string id, or the entry object), or NULL. */
json_t *rules_enc_current_entry(const rules_enc *e);
/* The current combatant id when the order holds ids, else NULL. */
const char *rules_enc_current(const rules_enc *e);
int rules_enc_round(const rules_enc *e);
/* Position of id in the order, -1 when absent (string entries only). */
int rules_enc_order_index(const rules_enc *e, const char *cid);
/* Moves the entry at index from to index to (the others shift); keeps the turn pointer on the
 * same current entry unless it was the moved one. */
void rules_enc_order_move(rules_enc *e, int from, int to);
/*
 * Ends the current turn and moves the pointer to the next entry whose combatant is not out (for
 * string entries). Past the end: a new round starts (round + 1, turn 0) and 1 is returned; the
 * module then resets what resets per round. At the start of each combatant's turn its budget is
 * reset to the module's per-turn budget (rules_enc_budget_default). Returns 0 otherwise; -1 when
 * nobody is left to act.
 */
int rules_enc_advance(rules_enc *e);
/* Starts round 1 (or the next round) at the first entry of the order that may act. */
void rules_enc_begin_round(rules_enc *e);

/* ---- budgets (per turn or per round: the module resets them) ---- */
/* Sets the default budget new turns start with ({"action":1,"move":1}), stored in /enc/budget. */
void rules_enc_budget_default(rules_enc *e, json_t *budget /* stolen */);
/* Resets cid's budget to the default. */
void rules_enc_budget_reset(rules_enc *e, const char *cid);
int rules_enc_budget_left(rules_enc *e, const char *cid, const char *kind);
/* Spends n of kind; TB_RULE "<name> has no <kind> left this turn" when fewer are left. */
int rules_enc_spend(rules_enc *e, const char *cid, const char *kind, int n, tb_err *err);
void rules_enc_budget_set(rules_enc *e, const char *cid, const char *kind, int n);

/* ---- conditions ---- */
/* Adds (or replaces) a condition {name, turns?, level?}; turns <= 0 means "until removed".
 * Returns the condition object (borrowed; NULL if cid is unknown) for extra fields ("by"). */
json_t *rules_enc_cond_add(rules_enc *e, const char *cid, const char *name, int turns, int level);
/* The condition object or NULL. */
json_t *rules_enc_cond(const rules_enc *e, const char *cid, const char *name);
int rules_enc_cond_has(const rules_enc *e, const char *cid, const char *name);
/* Removes it; returns 1 if it was there. */
int rules_enc_cond_remove(rules_enc *e, const char *cid, const char *name);
/* Counts down every timed condition of cid by one turn and removes the expired ones, logging
 * "<name> is no longer <condition>". Returns how many expired. */
int rules_enc_cond_tick(rules_enc *e, const char *cid);

/* ---- the log (OLD: free text; being replaced by rules_log_* below, and removed when every
 * module has moved: issue 23) ---- */
/* ---- what the GM may edit, and what a module can use ---- */
/*
 * One field the GM may set with enc.set, typed like an action parameter (rules_param: INT in
 * min..max, BOOL, STRING of min..max bytes). `path` is a pattern of the JSON pointer below the
 * campaign state where a segment that is a lone asterisk stands for the id of a combatant that
 * exists (a combatant's side: /enc/combatants/<asterisk>/side). A path "stats/<key>" declares a
 * stat of every combatant: it is set with either /enc/combatants/<cid>/stats/<key> or
 * /gm/enc/combatants/<cid>/stats/<key> and lands where that combatant's stats live
 * (rules_enc_stats: public for a PC, GM-only for an NPC). `label` names the field for a person
 * ("hit points").
 */
typedef struct rules_enc_field {
    const char *path;
    rules_param_type type;
    int min, max;
    const char *label;
} rules_enc_field;

/* The fields every module shares (round, turn, names, sides, GM notes); ends with {0}. */
extern const rules_enc_field rules_enc_fields_common[];

/*
 * Finds the field that `path` names for this encounter's module (its own table first, then the
 * common one) and checks `value` (borrowed) against its type and range. 0 with *field set and,
 * for a path naming a combatant, cid (>= 24 bytes) holding its id (else ""); TB_BAD_REQUEST with a
 * message naming the field in plain words when the path is not editable or the value does not fit.
 */
int rules_enc_editable(const rules_enc *e, const char *path, const json_t *value,
                       const rules_enc_field **field, char cid[24], tb_err *err);

/*
 * Whether the module can use the state in e: the shared shape (round, turn within the order,
 * order entries, every combatant's id, name, side, seat, npc, conditions, budget and stats, the
 * GM-only half), every editable field present has its declared type, no number is beyond
 * +-RULES_ENC_MAX_NUMBER, then the module's own check hook. Reads only. 0, or TB_RULE with a
 * message that says what is damaged and that the GM can end the encounter (enc.end). The server
 * runs it before a module sees the state (enc.add, enc.act) and after enc.set, so a damaged state
 * is refused, never committed, and one committed by an older build is refused instead of crashing a
 * module.
 */
int rules_enc_check(const rules_enc *e, tb_err *err);

/* Sets the stat at sub-path sub ("hp/damage": objects on the way are created) of cid to value
 * (stolen), where cid's stats live (rules_enc_stats). */
void rules_enc_stat_put(rules_enc *e, const char *cid, const char *sub, json_t *value);

/* 1 when a and b are both non-NULL and equal: for ids and names read from the state, which may
 * be missing. */
int rules_enc_streq(const char *a, const char *b);

/* ---- log entries whose values carry their audience ----
 *
 * THE RULE FOR MODULES: whatever an entry says about a roll is put in with its audience, and the
 * text a player reads is rendered from the public pieces only. A module never formats a hidden
 * number into public text; it says it to RULES_AUD_GM (or to rules_enc_aud_of(npc)), and the
 * entry renders two texts from the same pieces:
 *   - the public entry (/log): the public pieces, dice and values, written when any public piece
 *     exists (its text starts with a capital letter);
 *   - the GM entry (/gm/log): every piece, die and value, written only when something in the
 *     entry is GM-only (so a PC's open roll is logged once, as before).
 * A public entry about an NPC's roll says what the table legitimately sees: the outcome, and the
 * NPC's dice only where rules/RULES.md ("What the table sees") says the rulebook opens them.
 * Outcomes a player sees anyway (hit or miss, damage taken by a PC) are public; whether a public
 * piece may depend on a hidden comparison (a tie) is the module's care, and the non-interference
 * test (tests/integration/noninterference.test.mjs) checks it.
 */
typedef enum rules_aud {
    RULES_AUD_PUBLIC = 0, /* every seat */
    RULES_AUD_GM,         /* the GM only */
    RULES_AUD_SEAT,       /* the entry's seat (rules_log_seat) and the GM: rules_log_* only */
} rules_aud;

/* The audience of what cid rolls, owns or is hit with: public for a PC, the GM's for an NPC. */
rules_aud rules_enc_aud_of(const rules_enc *e, const char *cid);

/* ---- running an action: the one path (server, Check fixture, fuzzer, moves) ----
 *
 * rules_enc_act runs action `action` of e->mod for the caller (e->seat, e->is_gm) with `actor`
 * (NULL: the current combatant for a RULES_ENC_TURN action) and `params` (a JSON object,
 * borrowed; NULL = {}), in this order, stopping at the first refusal:
 *   1. the action exists;                       TB_NOT_FOUND
 *   2. who may take it (rules_enc_who_check);   TB_FORBIDDEN / TB_RULE / TB_BAD_REQUEST
 *   3. the parameters parse (rules_args_parse) and every "target"/"target2" names a combatant;
 *   4. the action's check;
 *   5. the action's resolve.
 * Steps 1-4 draw no die and write nothing: a refusal before 5 leaves e->rng and every tree of e
 * exactly as they were. Sets e->actor. 0 or the tb_code with err filled.
 */
int rules_enc_act(rules_enc *e, const char *action, const char *actor, const json_t *params,
                  tb_err *err);
/* Steps 1-4 only (no die, no write): whether the caller may take the action with these
 * arguments now. On success *a holds the parsed arguments (strings borrowed from params). */
int rules_enc_act_check(rules_enc *e, const rules_enc_action *act, const char *actor,
                        const json_t *params, rules_args *a, tb_err *err);
/* Steps 3-4 only, after rules_enc_who_check set e->actor (the moves try many arguments for one
 * actor). */
int rules_enc_args_check(rules_enc *e, const rules_enc_action *act, const json_t *params,
                         rules_args *a, tb_err *err);
/* Step 2: the GM may take every action; RULES_ENC_GM only the GM; RULES_ENC_TURN/OWNER only
 * whoever controls actor, RULES_ENC_TURN only when the module's may_act (default: actor is the
 * current entry) allows it now. Sets e->actor (actor, or the current combatant). */
int rules_enc_who_check(rules_enc *e, const rules_enc_action *act, const char *actor, tb_err *err);

/* ---- moves: what a seat may do now ----
 *
 * A module's choices hook lists, for one parameter, the values the state holds for it, most
 * likely first, as objects {"value": <string|integer|null>, "label": "words a person reads"}
 * (null: leave the parameter out). It returns
 *   RULES_CHOICES_NONE    nothing to add: the engine's default applies: a STRING parameter named
 *                         target/target2 picks among the combatants not out (foes of actor
 *                         first), BOOL picks no/yes, INT is a number field in min..max with
 *                         `def` as default, any other STRING is free text a person types (only
 *                         for what the game cannot know: a name, a description);
 *   RULES_CHOICES_PICK    the parameter is a pick among out;
 *   RULES_CHOICES_DEFAULT out[0].value is the default of an open field (an INT the state
 *                         suggests, e.g. the Need of a task).
 * Pure, like a check. */
enum { RULES_CHOICES_NONE = 0, RULES_CHOICES_PICK = 1, RULES_CHOICES_DEFAULT = 2 };
typedef int (*rules_enc_choices_fn)(const rules_enc *e, const char *actor,
                                    const rules_enc_action *a, const rules_param *p, json_t *out);

/*
 * The moves open to the caller (e->seat, e->is_gm) now, as a new array (caller owns):
 *   [{"action", "label", "actor"?, "actor_name"?, "who", "cite"?, "rare"?, "confirm"?,
 *     "params": [{name, type, label, min, max, required, secret, "pick": bool,
 *                 "choices"?: [{value, label}], "default"?: value}],
 *     "args": {the defaults as enc.act's params: sending it as it is passes the check}}]
 * For each action and each actor the caller may act for (RULES_ENC_TURN and RULES_ENC_OWNER: those
 * rules_enc_who_check accepts now: for an owner action every combatant the caller controls, one
 * who is out too, whom the action's check refuses where the rules say; GM and ANY actions: no
 * actor), the engine searches the choices (first choices first, a bounded number of
 * tries) for arguments that pass rules_enc_act_check; an (action, actor) with none is not
 * offered. A required free-text parameter (no choices: a name, a description) is searched with
 * its own name as a stand-in and left out of args: the person types it. For the GM the moves of
 * the combatant whose turn it is come first. Pure: draws no die, writes nothing (e->actor is put
 * back). The server delivers them on request: the read-only op enc.moves (server/ops_enc.c;
 * their cost: tests/bench/README.md, bench_moves). Properties (tests/unit/test_module_props.c, over
 * every state the scenario tests and the fuzzer reach): every offered move's args pass the check;
 * every (action, actor) whose check passes with some arguments is offered.
 */
json_t *rules_enc_moves(rules_enc *e);

/* ---- the log: values with their audience, words from a table ----
 *
 * A log entry is an event of a kind (its phrase key, e.g. "sprint") with values, each for an
 * audience; the words are rendered from the values a reader may see by one renderer
 * (rules/log.c), from the phrasings of the module (rules_module.phrases), then of its system
 * (rules_system.phrases), then the common ones (rules/log.c). A phrasing is a template:
 *   {"sprint", "{actor} sprints: {spaces} more spaces of movement this round{spin?}"},
 *   {"sprint", "{actor} sprints"},
 *   {"sprint.spin+", ", +1 spin"},
 * `{key}` is a value that must be visible to the reader for the phrasing to be used; `{key?}`
 * renders as nothing when the value is absent or not visible; `{key+}` (`{key+?}`) renders an int
 * with its sign ("+3", "-2", "+0"). For each reader the renderer
 * takes the first phrasing of the event whose required values it may all see. An int renders
 * in decimal, a combatant (rules_log_who) as its name, a name as itself, a word as the phrasing
 * it names (rendered for the same reader). No phrasing holds a printf conversion; no module
 * formats a number into a string it logs (tests/unit/test_log_words.c checks both).
 *
 * What is written (the server stamps seq, at, seat, scene; every rendering of one event carries
 * the same `ref`, its index among the command's events):
 *   /log                        the public rendering, when some phrasing renders for everyone;
 *   /private/<seat>/log         the seat's rendering (public + that seat's values), when the
 *                               entry holds a value for the seat (rules_log_seat);
 *   /gm/log                     the GM's rendering (every value), when a value is the GM's.
 * Each entry: {kind:"enc", module, round, actor?, action, event, ref, text, cite?, dice?,
 * result?}: `result` holds the int and json values the reader may see, `dice` the dice. The
 * entry's seat is the GM's when rules_log_seat named none (or "gm"): its RULES_AUD_SEAT values
 * are then the GM's.
 *
 * An event that no phrasing renders even with every value (none written for it: a programming
 * error) is logged publicly as "<actor's name>: <the action's label>" with `unphrased` naming the
 * event; the Check fixture (tests/unit/enc_fixture.h) and the fuzzer fail on such an entry.
 */
typedef struct rules_phrase {
    const char *event; /* "sprint"; a word's key ("sprint.spin+") */
    const char *text;  /* the template; a rulebook reference "(003:72)" in it goes to `cite` */
} rules_phrase;

typedef struct rules_log rules_log;
/* Starts an event of `event` for action `action` (both borrowed, static). Owned by the caller
 * until rules_log_end / rules_log_drop. Aborts on allocation failure. */
rules_log *rules_log_begin(rules_enc *e, const char *action, const char *event);
/* A combatant (its name renders; public: names are on the table). */
void rules_log_who(rules_log *x, const char *key, const char *cid);
void rules_log_int(rules_log *x, const char *key, int v, rules_aud aud);
/* An int the words say but `result` leaves out (a count said in passing). */
void rules_log_count(rules_log *x, const char *key, int v, rules_aud aud);
/* A name the state holds (a character's, a task's, a skill's), copied: never a formatted
 * number. */
void rules_log_name(rules_log *x, const char *key, const char *s, rules_aud aud);
/* The faces of a rolled pool as log.c writes dice: the kept high to low, then the dropped high
 * to low in brackets ("6 5 [3 1]"; no brackets when none was dropped). Words only. */
void rules_log_pool(rules_log *x, const char *key, const rules_pool *p, rules_aud aud);
/* A list (items stolen: an array of objects {key: int or string}) rendered item by item with
 * the phrasing item_event, whose {keys} are read from the item, joined by ", ". Words only. */
void rules_log_list(rules_log *x, const char *key, const char *item_event, json_t *items,
                    rules_aud aud);
/* A word: the phrasing `event` renders in its place (same reader). */
void rules_log_word(rules_log *x, const char *key, const char *event, rules_aud aud);
/* A structured value for `result` only (never in the words); stolen. */
void rules_log_json(rules_log *x, const char *key, json_t *v, rules_aud aud);
/* Dice (borrowed array of {sides,value,kept,...}), for aud. */
void rules_log_dice(rules_log *x, const json_t *dice, rules_aud aud);
/* Dice each for the audience of the combatant its `key` field names (an NPC's die is the
 * GM's); dice naming no combatant go to `other`. */
void rules_log_dice_by(rules_log *x, const json_t *dice, const char *key, rules_aud other);
/* The seat RULES_AUD_SEAT values are for. */
void rules_log_seat(rules_log *x, const char *seat);
/* Renders and writes the entries (above), frees x; returns the public entry (borrowed) or
 * NULL. */
json_t *rules_log_end(rules_log *x);
/* Frees x without writing anything. NULL is fine. */
void rules_log_drop(rules_log *x);
/* The common phrasings (join, leave, start, end, adjust, expire...), after the module's and the
 * system's; ends with {0}. */
const rules_phrase *rules_log_common(void);

/* Common failures: TB_RULE with the message. A rulebook line reference in it ("(004:666)") stays
 * in err->msg for the server's own use and leaves on the wire in the nack's `cite`. */
int rules_enc_rule(tb_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
