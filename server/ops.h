/*
 * ops.h — command tables: what a campaign can be asked to do.
 *
 * Each op is one row: name, handler, who may call it, read-only or not, and its argument schema.
 * The engine does every check a row declares (op exists, caller allowed, arguments present and
 * of the right type and size) once, before any handler runs (STYLE.md, "One command table").
 *
 * Handlers are pure: they get a context (actor seat, RNGs, time, the seq the event will get) and
 * a working copy of the campaign state, and either fail with a code + message (the copy is then
 * discarded) or mutate the copy and set *result (a new reference, or leave it NULL). They never
 * do I/O. Whatever a handler writes under /gm or /private/<seat> is filtered by path when sent;
 * the result goes only to the caller, so it must hold nothing the caller may not see.
 *
 * The working copy is copy-on-write (server/workcopy.h), not a copy of the world: a command costs
 * what it touches, not the size of the campaign (issue 10). Each row declares in `writes` the
 * subtrees its handler may change (e.g. enc.act: /enc, /gm/enc, /chars, /gm/npcs, /log, /gm/log).
 * The engine gives the handler a state whose containers on the way down to each declared path are
 * fresh shallow copies and whose declared subtrees have private copies of every object and array
 * (scalars are shared: replace them, never change one in place with json_integer_set and the
 * like); every other subtree is shared, by reference, with the committed state and MUST NOT be
 * changed. A subtree declared shallow is copied shallowly: the handler may add, drop or replace
 * its members, never edit one. A log (/log, /gm/log: OP_WRITE_LOG) is copied only when first
 * written, by ops_log_append (workcopy_own_path, workcopy.h), the one way to write one. Reading
 * anything is
 * always fine, and so is adding or replacing a key of the root (it is always a private copy).
 * The sanitizer build checks every command against this contract (the committed state must be
 * unchanged byte for byte after the handler ran, whatever it returned) and aborts naming the op.
 * A row with writes == NULL gets a deep copy of the whole state (correct, and slow).
 * Declared paths of one row must not be prefixes of one another (test_engine checks the tables).
 */
#ifndef TABLED_OPS_H
#define TABLED_OPS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "rng.h"

typedef enum op_who {
    WHO_ANY = 1,    /* any seat of the campaign */
    WHO_GM,         /* the campaign's GM seat */
    WHO_SELF_OR_GM, /* the GM, or the seat named by the "seat" argument */
    WHO_INTERNAL,   /* never callable by a client (e.g. seat.join, run by the engine on join) */
    WHO_HOST,       /* the host token (campaign.create, campaign.list: server/engine.c) */
} op_who;

typedef enum op_arg_type {
    ARG_STRING = 1, /* min/max: length in characters (code points) */
    ARG_NAME,       /* a person-facing name: trimmed, min..max characters, no control characters */
    ARG_INT,        /* min/max: value */
    ARG_BOOL,
    ARG_OBJECT,
    ARG_ANY, /* any JSON value but null (gm.set, enc.set) */
} op_arg_type;

typedef struct op_arg {
    const char *name;
    op_arg_type type;
    int required;
    long long min, max;
} op_arg;

typedef struct op_ctx {
    const char *seat; /* the actor's seat id */
    int is_gm;
    rules_rng *dice;   /* every die a handler rolls */
    rules_rng *secret; /* join codes and other values players must not predict */
    int64_t now_ms;
    int64_t seq;       /* the number of the event players know (its public count + 1,
                          server/playerseq.h): log entries, keys and ids carry it. An event that no
                          public change follows shares it with the next public one, so an item only the
                          GM reads that must be unique uses event_seq, one only some seats read
                          ops_audience_id */
    int64_t event_seq; /* the campaign seq the event will get: write it only where players never
                          read (under /gm): it counts the GM's secret events */
    int log_cap;       /* newest entries kept in /log and /gm/log */
    const struct roster *names; /* seat.join: the seat names of the state's /seats (roster.h),
                                   or NULL (every seat is looked at) */
} op_ctx;

typedef int (*op_handler)(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                          tb_err *err);

/* A subtree a handler may change: a JSON pointer of object keys, and how: shallow = 1 when the
 * handler only adds, removes or replaces the container's direct members and never changes one in
 * place (a log, /seats for seat.join), so only the container is copied and its members are shared;
 * 0 when it may change anything below (every object and array of the subtree is copied);
 * OP_WRITE_COMBATANTS for an object of characters (/chars, /gm/npcs) of which a handler changes
 * a few (enc.*: the combatants' sheets; char.update: one): nothing is copied until it takes the
 * one it changes with workcopy_own_path (workcopy.h), the one way to write one (issue 26: an
 * encounter's action costs what it changes, not the campaign's cast). */
#define OP_WRITE_COMBATANTS 2
/* OP_WRITE_LOG for a log (/log, /gm/log: an array of entries that never change once written),
 * which only ops_log_append writes: left the committed state's until that first append takes it
 * with workcopy_own_path (issue 26: most commands write one log or none, and a copy is a new table
 * of its 200 entries, diffed and freed after). */
#define OP_WRITE_LOG 3
typedef struct op_write {
    const char *path;
    int shallow;
} op_write;

typedef struct op_def {
    const char *name;
    op_handler fn;
    op_who who;
    int readonly;
    const op_arg *args;     /* terminated by a row with name == NULL */
    const op_write *writes; /* terminated by a row with path == NULL; NULL = the whole state */
    /* Optional: the part of writes that a call with these (normalized) args may write, so that
     * the rest is not copied (issue 26: a public roll copies /log, not /gm/log too). */
    const op_write *(*writes_of)(const json_t *args);
} op_def;

/* The logs, shared by every row that writes a log entry. */
#define OP_WRITES_LOGS {"/log", OP_WRITE_LOG}, {"/gm/log", OP_WRITE_LOG}

/* The tables of ops_play.c (characters, GM notes, system.describe, campaign.rename) and
 * ops_enc.c (encounters); ops_find searches them after the core table. */
extern const op_def OPS_PLAY[];
extern const op_def OPS_ENC[];
/* The sessions of play (ops_session.c): session.begin, session.close, session.alter. */
extern const op_def OPS_SESSION[];
/* Table talk (ops_chat.c): chat.send, chat.delete. */
extern const op_def OPS_CHAT[];
/* The journal of the evening (ops_journal.c): journal.export. */
extern const op_def OPS_JOURNAL[];
/* Handouts (ops_handout.c): handout.add, handout.show, handout.hide, handout.delete. */
extern const op_def OPS_HANDOUT[];
/* The scene map (ops_map.c): map.set, map.show, map.hide, map.clear, map.token, map.move,
 * map.remove, map.image, map.zone, map.unzone. */
extern const op_def OPS_MAP[];
/* After an encounter op: every shown map draws the zones its scene now lets the table see (a
 * zone bound to a cot heist zone appears once the crew knows that zone, and goes when the scene
 * ends) and which seat may move each token now (`by`: a turn moved, a fighter left, the scene
 * ended). Replaces /maps/<sid> when either changes, so the op declares /maps shallow. Returns 1
 * when a map changed (ops_state_upgrade: a campaign saved before `by` gets it on load). */
int ops_map_follow(json_t *state);

/* A data URL of a PNG, JPEG, WebP or GIF image in base64 (no SVG: it could carry a script), or
 * TB_BAD_REQUEST: a handout's picture and a scene map's (ops_handout.c). */
int ops_check_image(const char *url, tb_err *err);

/* A scene starts (enc.start): the beginning of the session, if open, is over (ops_session.c).
 * Replaces /session (a root key) rather than changing the committed object. */
void ops_session_scene_starts(json_t *state);

/* Appends entry (stolen) to /log, or /gm/log when gm, keeping the newest cap entries. */
void ops_log_append(json_t *state, int gm, json_t *entry, int cap);
/* The same for the log of the object at the path of object keys `at` (NULL-terminated, at most
 * OPS_LOG_DEPTH of them; the log and the objects on the way made when missing): /private/<seat>
 * is {"private", seat, NULL}. A container on the way that is still the committed state's is
 * copied first (workcopy_own_path), so the committed state is never written. */
#define OPS_LOG_DEPTH 4
void ops_log_append_at(json_t *state, const char *const *at, json_t *entry, int cap);

/* The key two seat names share when they clash (ops.c seat_names_clash: ASCII case and runs of
 * white space ignored) into out, which has room for strlen(name) + 1 bytes. */
void ops_seat_name_key(const char *name, char *out);

/* The campaign's rule system id (/campaign/system), "generic" when it has none. */
const char *ops_campaign_system(const json_t *state);

/* The id of something made by the event ctx (a message, a handout's key) that only the GM and the
 * player seats in `seats` (an array of seat ids; "gm" and repeats are ignored) read: prefix, the
 * event's number (ctx->seq: the public count + 1, server/playerseq.h), the seats sorted, and a
 * count of the ids made for exactly that audience at that number: "m12-p1-p3-1". Built only from
 * what every seat of the audience sees (the public count and their own items), so nobody outside
 * the audience moves it and it tells nobody inside about anyone else; the count is kept at
 * /gm/ids, which the handler must declare writable (a shallow /gm). A new string (free it). */
char *ops_audience_id(const op_ctx *ctx, json_t *state, const char *prefix, const json_t *seats);

/* The object at state[key] (created if missing; borrowed). */
json_t *ops_child(json_t *parent, const char *key);

/* Sets doc at the JSON pointer path to value (stolen), creating missing objects on the way; 0 or
 * TB_BAD_REQUEST when the path is malformed or runs through a scalar. (ops_play.c) */
int ops_pointer_set(json_t *doc, const char *path, json_t *value, tb_err *err);

/* What a rule system offers the browser (system.describe): a new object, NULL if unknown. Its
 * texts (summaries, labels) hold no rulebook line reference: those are in the `cite` beside them.
 */
json_t *ops_system_describe(const char *system);

/* The op named name in the command table of a campaign of the given system, or NULL. Every
 * system's table starts with the core ops (roll, seat.*, join.*). */
const op_def *ops_find(const char *system, const char *name);

/* The i-th row of all the command tables (0-based, core first), or NULL past the last: for
 * tests that check every row. */
const op_def *ops_row_at(size_t i);

/* Checks args against def's schema and returns a normalized copy (names trimmed) as a new
 * reference in *out; unknown or ill-typed arguments fail with TB_BAD_REQUEST naming the field. */
int ops_check_args(const op_def *def, const json_t *args, json_t **out, tb_err *err);

/* A person-facing name: trims surrounding white space; 1..max code points, no control
 * characters. Returns a new malloc'd string or NULL with err set (TB_BAD_REQUEST). */
char *ops_normalize_name(const char *name, int max, tb_err *err);

/* The state of a new campaign (a new reference). join_code may be NULL (closed). */
json_t *ops_campaign_initial(const char *id, const char *name, const char *system,
                             const char *join_code);

/* Brings a stored campaign's state to the current shape: a cot PC's Loyalties move from its
 * public sheet to /private/<seat>/sheets/<id> (issue 11); a shown map's tokens get `by`
 * (ops_map_follow; saved before session 9). Returns 1 when state changed (the
 * engine records the change as an event of its own), 0 when it was current. (ops_play.c) */
int ops_state_upgrade(json_t *state);

/* Whether system names a system a campaign may be created with ("generic" or a rule system). */
int ops_system_known(const char *system);
/* The systems a campaign may run, for the campaign picker: a new array (caller owns) of {id,
 * name, summary?}, "generic" first, then the rule systems in registry order. */
json_t *ops_systems_json(void);

/* Writes a fresh join code ("K7QF-2M9X": Crockford base32, no I L O U) to buf (>= 10 bytes). */
void ops_join_code(rules_rng *secret, char buf[10]);

/* Canonical form of a typed join code for comparison: upper case, without '-' and spaces,
 * written to buf (>= 33 bytes); returns 0 if the text is not a plausible code. */
int ops_join_code_normalize(const char *text, char buf[33]);

#endif
