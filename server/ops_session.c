/*
 * ops_session.c — sessions of play: the GM begins one (session.begin), which numbers it and opens
 * "the beginning of a session" until the GM closes it (session.close) or the first scene starts
 * (enc.start calls ops_session_scene_starts); while it is open a character's player (or the GM)
 * may change what the campaign's rule system lets a character change then, once
 * (session.alter: the system's session_alter hook, system.h; City of Thieves: one Loyalty,
 * 000:237 "A Character may alter one of their Loyalties in the same way at the beginning of a
 * session"). Rows of
 * OPS_SESSION; see ops.h for the handler contract and protocol/PROTOCOL.md for the wire shapes.
 *
 * Where things live (every part public: the session and who altered are table facts, never what):
 *   /session = {number, open, altered: {<char id>: <session number>}}
 * A campaign saved before sessions existed has no /session: it reads as no session yet (number 0,
 * closed), and the first session.begin creates it; nothing stored has to be rewritten.
 * The change lands on the PC's sheet: its private fields (the system's sheet_private: cot's
 * Loyalties) on /private/<seat>/sheets/<id>, the others on the public sheet; the public log says
 * what the system's words for the table say (cot: that one of the character's Loyalties
 * changed), the GM's log what it became.
 */
#include <stdio.h>
#include <string.h>

#include "ops.h"
#include "system.h"

/* /session (borrowed), or NULL before the first session. */
static json_t *session_of(json_t *state)
{
    json_t *s = json_object_get(state, "session");
    return json_is_object(s) ? s : NULL;
}

static json_int_t session_number(json_t *state)
{
    return json_integer_value(json_object_get(session_of(state), "number"));
}

/* Appends a log entry {seq, at, seat, kind: "session", text} to /log, or /gm/log when gm. */
static void session_log(const op_ctx *ctx, json_t *state, int gm, const char *text)
{
    ops_log_append(state, gm,
                   json_pack("{s:I, s:I, s:s, s:s, s:s}", "seq", (json_int_t)ctx->seq, "at",
                             (json_int_t)ctx->now_ms, "seat", ctx->seat, "kind", "session", "text",
                             text),
                   ctx->log_cap);
}

void ops_session_scene_starts(json_t *state)
{
    json_t *s = session_of(state);
    if (!json_is_true(json_object_get(s, "open")))
        return;
    /* the committed /session is shared with the working copy: replace it, never edit it */
    json_t *copy = json_deep_copy(s);
    json_object_set_new(copy, "open", json_false());
    json_object_set_new(state, "session", copy);
}

static int op_session_begin(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                            tb_err *err)
{
    (void)args;
    (void)err;
    json_int_t n = session_number(state) + 1;
    json_object_set_new(state, "session",
                        json_pack("{s:I, s:b, s:{}}", "number", n, "open", 1, "altered"));
    char text[120];
    snprintf(text, sizeof text, "Session %lld begins", (long long)n);
    session_log(ctx, state, 0, text);
    *result = json_pack("{s:I, s:b}", "number", n, "open", 1);
    return TB_OK;
}

static int op_session_close(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                            tb_err *err)
{
    (void)args;
    json_t *s = session_of(state);
    if (!s)
        return tb_fail(err, TB_RULE, "no session has begun yet: begin one first");
    if (!json_is_true(json_object_get(s, "open")))
        return tb_fail(err, TB_RULE, "the beginning of session %lld is already over",
                       (long long)session_number(state));
    json_object_set_new(s, "open", json_false());
    char text[120];
    snprintf(text, sizeof text, "Session %lld: play begins, Loyalties stay as they are",
             (long long)session_number(state));
    session_log(ctx, state, 0, text);
    *result = json_pack("{s:I, s:b}", "number", session_number(state), "open", 0);
    return TB_OK;
}

/* Whether character id is a combatant of a running scene (/enc or /scenes/<sid>). */
static int in_a_scene(json_t *state, const char *id)
{
    json_t *scenes = json_deep_copy(json_object_get(state, "scenes"));
    if (!json_is_object(scenes)) {
        json_decref(scenes);
        scenes = json_object();
    }
    if (json_is_object(json_object_get(state, "enc")))
        json_object_set(scenes, "enc", json_object_get(state, "enc"));
    const char *sid, *cid;
    json_t *pub, *c;
    int found = 0;
    json_object_foreach(scenes, sid, pub)
    {
        json_object_foreach(json_object_get(pub, "combatants"), cid, c)
        {
            const char *ch = json_string_value(json_object_get(c, "char"));
            found |= ch && strcmp(ch, id) == 0;
        }
    }
    json_decref(scenes);
    return found;
}

/* Whether key is one of the system's private sheet fields (system.h, sheet_private). */
static int is_private(const rules_system *rs, const char *key)
{
    for (const char *const *k = rs->sheet_private; k && *k; k++)
        if (strcmp(*k, key) == 0)
            return 1;
    return 0;
}

/*
 * What the campaign's rule system lets PC args.char change at the beginning of a session
 * (rules_system.session_alter: cot's one Loyalty, 000:237), once per session, while its
 * beginning is open. Checked before anything changes: the system has such a rule, the character
 * exists and is the caller's (or the caller is the GM), the window is open, the character has
 * not changed anything this session and is in no running scene (whose copy of its sheet would go
 * stale), the system accepts the change and the sheet still validates.
 */
static int op_session_alter(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                            tb_err *err)
{
    const char *id = json_string_value(json_object_get(args, "char"));
    const rules_system *rs = rules_system_find(ops_campaign_system(state));
    if (!rs || !rs->session_alter)
        return tb_fail(err, TB_RULE,
                       "%s has nothing a character changes at the beginning of a "
                       "session",
                       rs ? rs->name : "a campaign without a rule system");
    json_t *c = json_object_get(json_object_get(state, "chars"), id);
    const char *seat = json_string_value(json_object_get(c, "seat"));
    if (!c || !seat)
        return tb_fail(err, TB_NOT_FOUND, "no player character '%.32s' in this campaign", id);
    const char *name = json_string_value(json_object_get(c, "name"));
    if (!ctx->is_gm && strcmp(seat, ctx->seat) != 0)
        return tb_fail(err, TB_FORBIDDEN,
                       "%s belongs to another seat; only its player or the GM "
                       "may change its Loyalties",
                       name);
    json_t *s = session_of(state);
    if (!s)
        return tb_fail(err, TB_RULE,
                       "a Loyalty changes at the beginning of a session: the GM "
                       "begins one first");
    if (!json_is_true(json_object_get(s, "open")))
        return tb_fail(err, TB_RULE,
                       "a Loyalty changes at the beginning of a session, and "
                       "session %lld is already under way",
                       (long long)session_number(state));
    if (json_object_get(json_object_get(s, "altered"), id))
        return tb_fail(err, TB_RULE,
                       "%s already changed a Loyalty at the beginning of this "
                       "session: one a session",
                       name);
    if (in_a_scene(state, id))
        return tb_fail(err, TB_RULE,
                       "%s is in a running scene: a Loyalty changes at the "
                       "beginning of a session, before play",
                       name);
    /* the whole sheet as its player keeps it: public fields plus the private ones */
    json_t *priv = ops_child(ops_child(ops_child(ops_child(state, "private"), seat), "sheets"), id);
    json_t *full = json_deep_copy(json_object_get(c, "sheet"));
    json_object_update_missing(full, priv);
    rules_session_change change = {.result = NULL};
    int rc = rs->session_alter(full, args, name, &change, err);
    if (!rc)
        rc = rules_sheet_validate(rs->id, full, err);
    if (rc) {
        json_decref(change.result);
        json_decref(full);
        return rc;
    }
    /* each changed field lands where it lives; the derived values never read a private one */
    json_t *pub = json_object_get(c, "sheet");
    const char *k;
    json_t *v;
    int pub_changed = 0;
    json_object_foreach(full, k, v)
    {
        json_t *where = is_private(rs, k) ? priv : pub;
        if (!json_equal(json_object_get(where, k), v)) {
            json_object_set(where, k, v);
            pub_changed |= where == pub;
        }
    }
    if (pub_changed)
        json_object_set_new(c, "derived", rules_sheet_derive(rs->id, pub));
    json_object_set_new(json_object_get(s, "altered"), id, json_integer(session_number(state)));
    session_log(ctx, state, 0, change.public_text);
    session_log(ctx, state, 1, change.gm_text);
    *result = change.result ? change.result : json_object();
    json_object_set_new(*result, "char", json_string(id));
    json_decref(full);
    return TB_OK;
}

static const op_arg ARGS_NONE[] = {
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_ALTER[] = {
    {"char", ARG_STRING, 1, 1, 32},
    {"loyalty", ARG_INT, 1, 1, 4},
    {"to", ARG_STRING, 0, 3, 150},
    {"prime", ARG_BOOL, 0, 0, 0},
    {NULL, 0, 0, 0, 0},
};

/* session.begin and session.close write one public line (session_log with gm 0): only /log is
 * copied (issue 26); session.alter writes a line to each log. */
static const op_write W_SESSION[] = {{"/session", 0}, {"/log", OP_WRITE_LOG}, {NULL, 0}};
static const op_write W_ALTER[] = {
    {"/session", 0}, {"/private", 0}, {"/chars", 0}, OP_WRITES_LOGS, {NULL, 0}};

const op_def OPS_SESSION[] = {
    {"session.begin", op_session_begin, WHO_GM, 0, ARGS_NONE, W_SESSION},
    {"session.close", op_session_close, WHO_GM, 0, ARGS_NONE, W_SESSION},
    {"session.alter", op_session_alter, WHO_ANY, 0, ARGS_ALTER, W_ALTER},
    {NULL, NULL, 0, 0, NULL, NULL},
};
