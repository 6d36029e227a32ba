/*
 * system.h — the rule-system interface: what every rule system (cot, heimr, grimwire, tenacity,
 * fivey, and the pseudo-system "dice") provides, the registry that finds them, and the shared
 * mechanisms (dice pools with keep/drop, modifiers, target comparison, opposed rolls, result
 * building, the human-readable line) that every system uses instead of copying.
 *
 * HOW A SYSTEM PLUGS IN (its folder and one word: nothing outside rules/<id>/ names it)
 *   1. rules/<id>/<id>.c defines `const rules_system rules_system_<id> = {...}` (non-static):
 *      its id, name, summary, sheet field table, validate/derive callbacks, check table, its
 *      encounter modules (pointers: the one registration of a module), the clock of its scenes,
 *      its shared phrasings and what changes at a session's beginning.
 *      Every table below ends with an all-zero sentinel entry ({0}).
 *   2. Each check is a row of rules_check: name, parameter table (rules_param), a roll function
 *      and an optional formatter. The roll function gets already-validated arguments
 *      (rules_args: every parameter is known, present or defaulted, typed and in range) and a
 *      result object that already holds "system", "check" and an empty "dice" array. It rolls with
 *      the injected rng only, appends every die to "dice" (rules_result_die / rules_pool_to_json),
 *      and must set "total" (integer) and "success" (true/false, or null when there is nothing to
 *      compare against), plus its own fields. Cross-parameter rules (e.g. "adv and dis are
 *      exclusive") are the roll function's job: return TB_BAD_REQUEST naming the parameters.
 *   3. rules/<id>/meson.build adds its sources (`rules_src += files(...)`), and its id is one
 *      word of `rule_systems` in rules/meson.build: the registry (rules/registry.c.in) and the
 *      build are generated from that list. tests/toy/ shows a whole system made that way.
 *   4. Sheets: a rules_field table describes the character sheet (the browser builds a form from
 *      rules_sheet_schema); rules_sheet_validate checks the table generically (types, ranges,
 *      required, unknown keys, enum choices) and then calls the system's validate callback for
 *      cross-field rules. derive() computes values that are never stored (guard scores, base
 *      fatigue, ...) from a sheet that already passed validation.
 *   Cite the rulebook (file:line) next to every rule.
 *
 * Purity: nothing here does I/O, reads a clock or holds mutable globals; all tables are const.
 * Ownership (jansson): functions returning json_t * return a NEW reference the caller owns;
 * json_t * parameters are borrowed unless the comment says "steals".
 * Errors: 0 on success, else a tb_code with err filled (see protocol/err.h).
 */
#ifndef TABLED_RULES_SYSTEM_H
#define TABLED_RULES_SYSTEM_H

#include <stddef.h>

#include <jansson.h>

#include "err.h"
#include "rng.h"

/* ------------------------------------------------------------------------------------------ */
/* Check parameters                                                                           */
/* ------------------------------------------------------------------------------------------ */

typedef enum rules_param_type {
    RULES_PARAM_INT,    /* a JSON integer in min..max */
    RULES_PARAM_BOOL,   /* a JSON integer 0 or 1 (`attack=1` on the CLI); JSON true/false too */
    RULES_PARAM_STRING, /* a JSON string of 1..max bytes (min/max are lengths) */
} rules_param_type;

enum {
    RULES_PARAM_REQUIRED = 1 << 0,   /* must be given; otherwise `def` is used */
    RULES_PARAM_POSITIONAL = 1 << 1, /* the CLI takes it as a bare argument (`roll dice 2d6`) */
    RULES_PARAM_SECRET = 1 << 2,     /* GM-only by default (e.g. a grimwire target number):
                                        the engine keeps it, and result fields named the same,
                                        under /gm unless revealed */
};

typedef struct rules_param {
    const char *name; /* the name=value key, also the JSON key of `params` */
    rules_param_type type;
    int min, max; /* inclusive; INT: value range, BOOL: ignored (0..1), STRING: length range */
    int def;      /* default of an optional INT/BOOL that is not given */
    unsigned flags;
    const char *label; /* one short line for forms and usage messages */
} rules_param;

#define RULES_MAX_PARAMS 16 /* per check */

/* A check's parsed arguments, indexed like its parameter table. Built by rules_check_run. */
typedef struct rules_args {
    const struct rules_check *check; /* NULL when parsed by rules_args_parse (encounter actions) */
    const rules_param *params;       /* the table the values are indexed by */
    const char *what;                /* "cot roll" / "enc.act attack": error message prefix */
    unsigned char given[RULES_MAX_PARAMS]; /* 1 when the caller gave it (not defaulted) */
    int ival[RULES_MAX_PARAMS];            /* INT/BOOL value (default when not given) */
    const char *sval[RULES_MAX_PARAMS];    /* STRING value, borrowed from params; NULL if absent */
} rules_args;

/* Value of INT/BOOL parameter `name` (its default when not given). Aborts if the check has no
 * such parameter: that is a programming error, not a user error. */
int rules_arg_int(const rules_args *a, const char *name);
/* 1 when the caller gave parameter `name`, 0 when it was defaulted/absent. */
int rules_arg_given(const rules_args *a, const char *name);
/* STRING parameter `name`, borrowed; NULL when absent. */
const char *rules_arg_str(const rules_args *a, const char *name);
/*
 * Parses a JSON object of name: value (borrowed; NULL = {}) against a parameter table (ends with
 * {0}, at most RULES_MAX_PARAMS). 0, or TB_BAD_REQUEST with a message that starts with `what`
 * and names the parameter (unknown, missing, wrong type, out of range). STRING values are
 * borrowed from obj, which must outlive *a.
 */
int rules_args_parse(const char *what, const rules_param *params, const json_t *obj, rules_args *a,
                     tb_err *err);
/* The given parameters of a as a new JSON object (defaults left out). */
json_t *rules_args_json(const rules_args *a);
/* The parameter table as JSON for forms: [{name,type,min,max,default,required,secret,label}]. */
json_t *rules_params_json(const rules_param *params);

/* TB_BAD_REQUEST "parameters 'a' and 'b' are exclusive" if both were given, else 0. */
int rules_args_exclusive(const rules_args *a, const char *p1, const char *p2, tb_err *err);

/* ------------------------------------------------------------------------------------------ */
/* A growable string (for formatters)                                                         */
/* ------------------------------------------------------------------------------------------ */

typedef struct rules_str {
    char *s; /* NUL-terminated, owned; NULL until the first append */
    size_t len, cap;
} rules_str;

/* Appends printf-formatted text (aborts on OOM). */
void rules_str_printf(rules_str *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Frees the buffer and resets *b. */
void rules_str_free(rules_str *b);

/* ------------------------------------------------------------------------------------------ */
/* Checks                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/*
 * Rolls the check. `result` (borrowed, the caller owns it) already holds "system", "check" and
 * "dice": []; add fields with json_object_set_new. Return 0, or a tb_code with err filled (the
 * result is then discarded).
 */
typedef int (*rules_roll_fn)(const rules_args *args, rules_rng *rng, json_t *result, tb_err *err);

/* Appends the human line for a result of this check to out (no trailing newline). */
typedef void (*rules_format_fn)(const json_t *result, rules_str *out);

typedef struct rules_check {
    const char *name;
    const char *summary;       /* one line for usage/help */
    const rules_param *params; /* ends with {0}; at most RULES_MAX_PARAMS */
    rules_roll_fn roll;
    rules_format_fn format; /* NULL: rules_format_default */
} rules_check;

/* ------------------------------------------------------------------------------------------ */
/* Character sheets                                                                           */
/* ------------------------------------------------------------------------------------------ */

typedef enum rules_field_type {
    RULES_FIELD_INT,    /* integer in min..max */
    RULES_FIELD_BOOL,   /* true/false */
    RULES_FIELD_STRING, /* string of min..max bytes */
    RULES_FIELD_ENUM,   /* string, one of `choices` */
    RULES_FIELD_OBJECT, /* object with the fixed sub-fields `fields` */
    RULES_FIELD_LIST,   /* array of min..max objects, each with the sub-fields `fields` */
    RULES_FIELD_STRINGS /* array of min..max strings of 1..100 bytes (e.g. skill names) */
} rules_field_type;

typedef struct rules_field {
    const char *name; /* JSON key */
    rules_field_type type;
    int min, max; /* see the type */
    int required; /* 1: must be present */
    int def;      /* INT default for a new sheet (schema only) */
    const char *label;
    const char *group;                /* form group ("Abilities", "Skills: Muscle", ...) */
    const char *const *choices;       /* ENUM: NULL-terminated */
    const struct rules_field *fields; /* OBJECT/LIST: sub-fields, ends with {0} */
    const char *cite;                 /* rulebook file:line the field comes from */
} rules_field;

/* Cross-field validation of a sheet that passed the table checks. Returns 0 or TB_BAD_REQUEST
 * with a message naming the field path and the rule. */
typedef int (*rules_validate_fn)(const json_t *sheet, tb_err *err);
/* Derived values of a valid sheet: a new object owned by the caller. */
typedef json_t *(*rules_derive_fn)(const json_t *sheet);

/* ------------------------------------------------------------------------------------------ */
/* A rule system                                                                              */
/* ------------------------------------------------------------------------------------------ */

/* What session.alter reports of a change (rules_system.session_alter): the words the table reads
 * and those the GM reads, and the result fields beside `char` (a new object). */
typedef struct rules_session_change {
    char public_text[200];
    char gm_text[300];
    json_t *result;
} rules_session_change;

typedef struct rules_system {
    const char *id;             /* "cot", "heimr", ..., "dice" */
    const char *name;           /* "City of Thieves" */
    const char *rulebook;       /* "000_d2a475e9ec148dd1.txt" (NULL for dice) */
    const rules_field *sheet;   /* ends with {0}; NULL: the system has no sheet (dice) */
    rules_validate_fn validate; /* may be NULL */
    rules_derive_fn derive;     /* may be NULL (derive then returns {}) */
    const rules_check *checks;  /* ends with {0} */
    /* The system's encounter modules (encounter.h), NULL-terminated; the order is the order of
     * rules_module_at and of the pickers. The one place a module is registered. */
    const struct rules_module *const *modules;
    /* Top-level sheet fields only a PC's player and the GM see: the server keeps them at
     * /private/<seat>/sheets/<char id>, not in the public sheet. NULL-terminated; may be NULL. */
    const char *const *sheet_private;
    /* ---- issue 23: everything system-specific the server core and the client need comes from
     * here (the core holds no list of system ids) ---- */
    const char *summary;                /* one line for the campaign picker */
    const struct rules_phrase *phrases; /* the system's shared phrasings (encounter.h, "The log") */
    /* How long a round of its scenes lasts on the campaign clock (clock.h): rows {id, label,
     * unit_s, cite, module, word}, the first row whose module (NULL: any) and stage word (the
     * scene's /enc/stage; NULL: any, or none) match; ends with {0}. NULL or no match: a
     * one-minute "Round". */
    const struct rules_clock_stage *clock;
    /* What a character may change at the beginning of a session (session.alter; cot 000:237:
     * one Loyalty): applies args (the op's {loyalty, to?, prime?}) to the character's whole sheet
     * (public and private fields, changed in place; `name` is the character's), and fills
     * *change. 0 or a tb_code with err filled (nothing the caller keeps changed). NULL: nothing
     * changes at a session's beginning in this system (session.alter refuses). */
    int (*session_alter)(json_t *sheet, const json_t *args, const char *name,
                         struct rules_session_change *change, tb_err *err);
} rules_system;

/* ------------------------------------------------------------------------------------------ */
/* Registry and entry points                                                                  */
/* ------------------------------------------------------------------------------------------ */

/* The system with this id, or NULL. Static data, never freed. */
const rules_system *rules_system_find(const char *id);
/* The i-th registered system (0-based), NULL past the end: `for (i=0; (s=rules_system_at(i));
 * i++)`. */
const rules_system *rules_system_at(size_t i);
/* The check `name` of system s, or NULL. */
const rules_check *rules_check_find(const rules_system *s, const char *name);

/*
 * Runs check `check` of system `system` with `params` (a JSON object, borrowed; NULL = {}) and
 * rng (borrowed). On success returns 0 and sets *result to a new object owned by the caller:
 *   {"system","check","params":{the parameters given, validated},"dice":[{sides,value,kept}..],
 *    "total", "success": true|false|null, ...the check's own fields}
 * Errors (*result = NULL): TB_NOT_FOUND unknown system or check; TB_BAD_REQUEST params not an
 * object, unknown parameter, missing required, wrong type, out of range (message names the
 * parameter and its range), or a cross-parameter rule of the check.
 */
int rules_check_run(const char *system, const char *check, const json_t *params, rules_rng *rng,
                    json_t **result, tb_err *err);

/* Same, with an already-found check (the engine/bench path; no lookup). */
int rules_check_run_with(const rules_system *s, const rules_check *c, const json_t *params,
                         rules_rng *rng, json_t **result, tb_err *err);

/*
 * The human line for a result of rules_check_run ("5k2 → 6 5 [4 2 1] = 11 vs 9: success"),
 * using the check's formatter. Returns a new NUL-terminated string owned by the caller (free()).
 */
char *rules_result_format(const json_t *result);

/* Default formatter: "<dice, dropped in brackets> = total[ vs target]: success|failure". It
 * reads an integer "target" field when present. */
void rules_format_default(const json_t *result, rules_str *out);

/* Sheet schema for the browser: {"system","name","fields":[{name,type,label,group,min,max,
 * required,default,choices?,fields?,cite}]}. New reference; NULL for an unknown system. */
json_t *rules_sheet_schema(const char *system);

/*
 * Validates a sheet: TB_NOT_FOUND unknown system; TB_BAD_REQUEST with a message naming the field
 * path ("skills.lockpicking", "loyalties[2].kind") and the rule it breaks.
 */
int rules_sheet_validate(const char *system, const json_t *sheet, tb_err *err);

/* Derived values of a sheet (never stored): a new object owned by the caller, or NULL when the
 * system is unknown or the sheet does not validate. */
json_t *rules_sheet_derive(const char *system, const json_t *sheet);

/* ------------------------------------------------------------------------------------------ */
/* Shared mechanisms                                                                          */
/* ------------------------------------------------------------------------------------------ */

#define RULES_POOL_MAX 64 /* dice in one pool */

typedef enum rules_keep {
    RULES_KEEP_HIGHEST, /* keep the `keep` highest; among equal faces the earliest rolled */
    RULES_KEEP_LOWEST,  /* keep the `keep` lowest; among equal faces the earliest rolled */
} rules_keep;

/* A rolled pool of same-sided dice: values in roll order, which were kept. Plain value type. */
typedef struct rules_pool {
    int sides;
    int n;    /* dice rolled */
    int keep; /* dice kept (min(requested keep, n)) */
    int value[RULES_POOL_MAX];
    unsigned char kept[RULES_POOL_MAX];
    int sum_kept;
} rules_pool;

/*
 * Rolls n dice of `sides` with rng and keeps `keep` of them (clamped to 0..n) by `mode`.
 * TB_BAD_REQUEST when n is outside 0..RULES_POOL_MAX or sides < 1.
 */
int rules_pool_roll(rules_pool *p, rules_rng *rng, int n, int sides, int keep, rules_keep mode,
                    tb_err *err);
/* Marks which dice are kept for values already in p (p->n, p->value, p->sides set); fills kept,
 * keep and sum_kept. Used by rules_pool_roll and by re-rolls that change values. */
void rules_pool_select(rules_pool *p, int keep, rules_keep mode);
/* Number of dice in p showing face f (all dice, kept or not). */
int rules_pool_count(const rules_pool *p, int face);
/* Highest / lowest face among all dice (0 for an empty pool). */
int rules_pool_max(const rules_pool *p);
int rules_pool_min(const rules_pool *p);
/* Appends every die of p to the JSON array `dice` as {sides,value,kept}, in roll order. */
void rules_pool_to_json(const rules_pool *p, json_t *dice);
/* Kept values sorted high to low (ints, new array) — handy for result fields like "kept". */
json_t *rules_pool_kept_json(const rules_pool *p);

/* Rolls one die, appends {sides,value,kept:true} to `dice` (may be NULL), returns the face. */
int rules_roll_die(rules_rng *rng, int sides, json_t *dice);
/* Appends one die object {sides,value,kept} to `dice`. */
void rules_result_die(json_t *dice, int sides, int value, int kept);

/* Modifiers: appends {"source","value"} to result's "modifiers" array (created on first use)
 * and returns value, so `total += rules_result_modifier(r, "weapon", 2);`. */
int rules_result_modifier(json_t *result, const char *source, int value);

/* Target comparison. */
typedef enum rules_cmp {
    RULES_CMP_GE, /* met or exceeded: total >= target */
    RULES_CMP_GT, /* exceeded: total > target */
} rules_cmp;
int rules_meets(int total, int target, rules_cmp cmp);

/* Opposed rolls: which side wins a comparison of two totals, with the tie rule. */
typedef enum rules_tie {
    RULES_TIE_ACTOR,    /* a tie goes to the actor (the side rolling against the other's result) */
    RULES_TIE_DEFENDER, /* a tie goes to the defender */
} rules_tie;
/* 1 when the actor wins, 0 when the defender wins. */
int rules_opposed(int actor_total, int defender_total, rules_tie tie);

/* Sets "total" and "success" (cmp of total vs target, or null when has_target is 0) and
 * "target" (when has_target) on result. */
void rules_result_outcome(json_t *result, int total, int has_target, int target, rules_cmp cmp);

#endif
