/*
 * ops_chat.c — table talk: messages to everyone, to the GM, to one seat; rolls in a message
 * (`/roll`, `/gmroll`, inline `[[2d6+1]]`); the GM deletes a message. Rows of OPS_CHAT; see ops.h
 * for the handler contract and protocol/PROTOCOL.md ("Table talk") for the wire shapes.
 *
 * Where a message lives decides who reads it (visibility is by path alone, DESIGN.md):
 *   to everyone                 /chat
 *   a player to the GM          /private/<sender>/chat          (the sender and the GM)
 *   a whisper to seat B         /private/<sender>/chat and /private/<B>/chat (the GM reads both;
 *                               the GM's own whisper lands only at /private/<B>/chat)
 *   a player's /gmroll          /gm/chat (the roll, for the GM) and /private/<sender>/chat (the
 *                               sender's copy says what was rolled, never the number)
 *   the GM's /gmroll            /gm/chat alone
 * Every copy of one message has the same `id`, so a reader who sees two copies (the GM) shows one:
 * "m<seq>" for a message to everyone (seq: the event's public count, server/playerseq.h); for one
 * that some seats alone read, their seats and a count are added, "m<seq>-<seat>[-<seat>]-<n>"
 * (ops_audience_id: a whisper moves nobody else's numbers, issue 29). A message only the GM reads
 * (the GM's own /gmroll) is "g<event seq>". Each list keeps its newest CHAT_CAP messages. A
 * message:
 *   {id, seq, at, from: <seat>, to: "all" | "gm" | <seat>, text, rolls?: [roll...],
 *    hidden?: true}     (hidden: the sender's copy of a /gmroll: rolls hold only {expr})
 * `text` keeps the inline rolls' `[[...]]` in place; rolls[i] is the i-th of them (or the roll of
 * /roll and /gmroll, whose text is empty). Every expression is parsed before the first die
 * (a refused message draws nothing and stores nothing).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "dice.h"
#include "ops.h"

#define CHAT_CAP 200       /* messages kept per list */
#define CHAT_MAX_TEXT 2000 /* characters of one message */
#define CHAT_MAX_ROLLS 10  /* rolls in one message */

/* ---- where messages go ---- */

/* Appends msg (stolen) to the array at parent[key], replacing the array (the committed one is
 * shared with the working copy) and keeping the newest CHAT_CAP. */
static void chat_append(json_t *parent, const char *key, json_t *msg)
{
    json_t *old = json_object_get(parent, key);
    json_t *list = json_array();
    size_t n = json_is_array(old) ? json_array_size(old) : 0;
    for (size_t i = n >= CHAT_CAP ? n - CHAT_CAP + 1 : 0; i < n; i++)
        json_array_append(list, json_array_get(old, i));
    json_array_append_new(list, msg);
    json_object_set_new(parent, key, list);
}

/* /private/<seat> as a fresh shallow copy put back in place (the handler may replace /private's
 * members, never change one in place: ops.h). */
static json_t *private_of(json_t *state, const char *seat)
{
    json_t *priv = ops_child(state, "private");
    json_t *old = json_object_get(priv, seat);
    json_t *mine = json_is_object(old) ? json_copy(old) : json_object();
    json_object_set_new(priv, seat, mine);
    return mine;
}

/* /gm as a fresh shallow copy put back in place. */
static json_t *gm_of(json_t *state)
{
    json_t *old = json_object_get(state, "gm");
    json_t *gm = json_is_object(old) ? json_copy(old) : json_object();
    json_object_set_new(state, "gm", gm);
    return gm;
}

/* ---- who a message is for ---- */

/*
 * The seat named by name (case-insensitive; "GM" is the GM; a character's name names its
 * player's seat too), written to out (>= 40 bytes). TB_NOT_FOUND naming who is at the table, or
 * TB_BAD_REQUEST when two seats answer to it.
 */
static int seat_by_name(json_t *state, const char *name, char out[40], tb_err *err)
{
    if (strcasecmp(name, "gm") == 0) {
        snprintf(out, 40, "gm");
        return TB_OK;
    }
    const char *key, *found = NULL;
    json_t *v;
    int hits = 0;
    json_object_foreach(json_object_get(state, "seats"), key, v)
    {
        const char *n = json_string_value(json_object_get(v, "name"));
        if ((n && strcasecmp(n, name) == 0) || strcasecmp(key, name) == 0) {
            if (!found || strcmp(found, key) != 0)
                hits++;
            found = key;
        }
    }
    json_object_foreach(json_object_get(state, "chars"), key, v)
    {
        const char *n = json_string_value(json_object_get(v, "name"));
        const char *owner = json_string_value(json_object_get(v, "seat"));
        if (n && owner && strcasecmp(n, name) == 0 && (!found || strcmp(found, owner) != 0)) {
            hits++;
            found = owner;
        }
    }
    if (hits > 1)
        return tb_fail(err, TB_BAD_REQUEST, "more than one person at the table answers to '%.40s'",
                       name);
    if (!found)
        return tb_fail(err, TB_NOT_FOUND, "nobody at the table is called '%.40s'", name);
    snprintf(out, 40, "%s", found);
    return TB_OK;
}

/* ---- the words of a message ---- */

typedef struct chat_msg {
    char to[40];      /* "all", "gm" or a seat */
    const char *text; /* borrowed: what remains after the command */
    int gmroll;       /* /gmroll: the roll is the GM's */
    int nexpr;        /* expressions to roll */
    char expr[CHAT_MAX_ROLLS][RULES_DICE_MAX_LEN + 1];
    rules_dice_expr *parsed[CHAT_MAX_ROLLS];
} chat_msg;

static void chat_msg_free(chat_msg *m)
{
    for (int i = 0; i < m->nexpr; i++)
        rules_dice_free(m->parsed[i]);
}

/* Reads one word (or a "quoted name") at *p into out; moves *p past it and the spaces after. */
static int chat_word(const char **p, char *out, size_t cap)
{
    const char *s = *p;
    size_t n = 0;
    if (*s == '"') {
        s++;
        while (*s && *s != '"' && n + 1 < cap)
            out[n++] = *s++;
        if (*s != '"')
            return 0;
        s++;
    } else {
        while (*s && *s != ' ' && n + 1 < cap)
            out[n++] = *s++;
    }
    out[n] = '\0';
    while (*s == ' ')
        s++;
    *p = s;
    return n > 0;
}

/* Adds expression text[0..len) to m, parsed (validated before any die). */
static int chat_add_expr(chat_msg *m, const char *text, size_t len, tb_err *err)
{
    if (m->nexpr == CHAT_MAX_ROLLS)
        return tb_fail(err, TB_BAD_REQUEST, "at most %d rolls in one message", CHAT_MAX_ROLLS);
    if (len > RULES_DICE_MAX_LEN)
        return tb_fail(err, TB_BAD_REQUEST, "a roll in a message is at most %d characters",
                       RULES_DICE_MAX_LEN);
    memcpy(m->expr[m->nexpr], text, len);
    m->expr[m->nexpr][len] = '\0';
    if (rules_dice_parse(m->expr[m->nexpr], &m->parsed[m->nexpr], err))
        return err->code;
    m->nexpr++;
    return TB_OK;
}

/*
 * Reads the message: a command (/roll, /r, /gmroll, /gr, /w NAME) or plain text with inline
 * [[...]] rolls; `to` from the arguments ("all" when absent) unless /w or /gmroll says otherwise.
 * Every expression is parsed here, before any die.
 */
static int chat_parse(json_t *state, const char *text, const char *to, chat_msg *m, tb_err *err)
{
    memset(m, 0, sizeof *m);
    snprintf(m->to, sizeof m->to, "%s", to ? to : "all");
    const char *p = text;
    while (*p == ' ')
        p++;
    if (*p == '/') {
        char cmd[16], who[64];
        p++;
        if (!chat_word(&p, cmd, sizeof cmd))
            return tb_fail(err, TB_BAD_REQUEST, "a message cannot be only '/'");
        if (strcasecmp(cmd, "roll") == 0 || strcasecmp(cmd, "r") == 0 ||
            strcasecmp(cmd, "gmroll") == 0 || strcasecmp(cmd, "gr") == 0) {
            m->gmroll = cmd[0] == 'g' || cmd[0] == 'G';
            if (m->gmroll)
                snprintf(m->to, sizeof m->to, "gm");
            if (!*p)
                return tb_fail(err, TB_BAD_REQUEST, "/%s needs dice to roll, e.g. /%s 1d20+2", cmd,
                               cmd);
            m->text = "";
            return chat_add_expr(m, p, strlen(p), err);
        }
        if (strcasecmp(cmd, "w") == 0 || strcasecmp(cmd, "whisper") == 0) {
            if (!chat_word(&p, who, sizeof who))
                return tb_fail(err, TB_BAD_REQUEST, "/w needs a name: /w Ann see you later");
            if (seat_by_name(state, who, m->to, err))
                return err->code;
        } else {
            return tb_fail(err, TB_BAD_REQUEST,
                           "unknown command /%.15s: try /roll, /gmroll or /w followed by a name",
                           cmd);
        }
    }
    m->text = p;
    if (!*p)
        return tb_fail(err, TB_BAD_REQUEST, "the message is empty");
    for (const char *s = strstr(p, "[["); s; s = strstr(s, "[[")) {
        const char *end = strstr(s + 2, "]]");
        if (!end)
            return tb_fail(err, TB_BAD_REQUEST, "an inline roll '[[' is not closed with ']]'");
        if (chat_add_expr(m, s + 2, (size_t)(end - s - 2), err))
            return err->code;
        s = end + 2;
    }
    return TB_OK;
}

/* ---- chat.send ---- */

static int op_chat_send(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                        tb_err *err)
{
    const char *text = json_string_value(json_object_get(args, "text"));
    const char *to = json_string_value(json_object_get(args, "to"));
    chat_msg m;
    if (to && strcmp(to, "all") != 0 && strcmp(to, "gm") != 0 &&
        !json_object_get(json_object_get(state, "seats"), to)) {
        return tb_fail(err, TB_NOT_FOUND, "no seat '%.32s' at the table", to);
    }
    int rc = chat_parse(state, text, to, &m, err);
    if (rc) {
        chat_msg_free(&m);
        return rc;
    }
    /* (the GM's own /gmroll is "to" the GM's seat: a roll the GM keeps, not a whisper) */
    if (!m.gmroll && strcmp(m.to, ctx->seat) == 0) {
        chat_msg_free(&m);
        return tb_fail(err, TB_BAD_REQUEST, "a whisper goes to someone else");
    }
    /* the id: the public count of the event for a public message, plus its audience for one
     * some seats alone read (ops_audience_id), the campaign seq for the GM's own /gmroll */
    char *id;
    if (m.gmroll && ctx->is_gm) {
        id = xmalloc(32);
        snprintf(id, 32, "g%lld", (long long)ctx->event_seq);
    } else if (strcmp(m.to, "all") == 0) {
        id = xmalloc(32);
        snprintf(id, 32, "m%lld", (long long)ctx->seq);
    } else {
        json_t *audience = json_pack("[s, s]", ctx->seat, m.gmroll ? ctx->seat : m.to);
        id = ops_audience_id(ctx, state, "m", audience);
        json_decref(audience);
    }
    json_t *msg =
        json_pack("{s:s, s:I, s:I, s:s, s:s, s:s}", "id", id, "seq", (json_int_t)ctx->seq, "at",
                  (json_int_t)ctx->now_ms, "from", ctx->seat, "to", m.to, "text", m.text);
    free(id);
    json_t *rolls = json_array(), *shown = json_array();
    for (int i = 0; i < m.nexpr; i++) {
        json_array_append_new(rolls, rules_dice_roll(m.parsed[i], ctx->dice));
        json_array_append_new(shown, json_pack("{s:s}", "expr", rules_dice_canonical(m.parsed[i])));
    }
    chat_msg_free(&m);
    if (json_array_size(rolls))
        json_object_set(msg, "rolls", rolls);

    if (strcmp(m.to, "all") == 0) {
        chat_append(state, "chat", json_incref(msg));
    } else if (m.gmroll) {
        /* the GM reads the roll; the sender reads that they rolled (not the number) */
        chat_append(gm_of(state), "chat", json_incref(msg));
        if (!ctx->is_gm) {
            json_t *own = json_copy(msg);
            json_object_set(own, "rolls", shown);
            json_object_set_new(own, "hidden", json_true());
            chat_append(private_of(state, ctx->seat), "chat", own);
        }
    } else {
        if (!ctx->is_gm)
            chat_append(private_of(state, ctx->seat), "chat", json_incref(msg));
        if (strcmp(m.to, "gm") != 0)
            chat_append(private_of(state, m.to), "chat", json_incref(msg));
    }
    /* the sender's reply holds what the sender may read: a /gmroll's number is the GM's */
    if (m.gmroll && !ctx->is_gm) {
        json_t *own = json_copy(msg);
        json_object_set(own, "rolls", shown);
        json_object_set_new(own, "hidden", json_true());
        *result = own;
        json_decref(msg);
    } else {
        *result = msg;
    }
    json_decref(rolls);
    json_decref(shown);
    return TB_OK;
}

/* ---- chat.delete ---- */

/* Removes message id from the array at parent[key] (replacing the array); 1 if it was there. */
static int chat_drop(json_t *parent, const char *key, const char *id)
{
    json_t *old = json_object_get(parent, key);
    if (!json_is_array(old))
        return 0;
    json_t *list = json_array();
    size_t i;
    json_t *v;
    int hit = 0;
    json_array_foreach(old, i, v)
    {
        const char *vid = json_string_value(json_object_get(v, "id"));
        if (vid && strcmp(vid, id) == 0)
            hit = 1;
        else
            json_array_append(list, v);
    }
    if (hit)
        json_object_set_new(parent, key, list);
    else
        json_decref(list);
    return hit;
}

static int op_chat_delete(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                          tb_err *err)
{
    (void)ctx;
    const char *id = json_string_value(json_object_get(args, "id"));
    int hit = chat_drop(state, "chat", id);
    json_t *gm = json_object_get(state, "gm");
    if (json_is_object(gm) && json_is_array(json_object_get(gm, "chat")))
        hit |= chat_drop(gm_of(state), "chat", id);
    const char *seat;
    json_t *v;
    void *tmp;
    json_object_foreach_safe(json_object_get(state, "private"), tmp, seat, v)
    {
        if (json_is_array(json_object_get(v, "chat")))
            hit |= chat_drop(private_of(state, seat), "chat", id);
    }
    if (!hit)
        return tb_fail(err, TB_NOT_FOUND, "no message '%.32s' to delete", id);
    *result = json_pack("{s:s}", "deleted", id);
    return TB_OK;
}

static const op_arg ARGS_SEND[] = {
    {"text", ARG_STRING, 1, 1, CHAT_MAX_TEXT},
    {"to", ARG_STRING, 0, 1, 32},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_DELETE[] = {
    {"id", ARG_STRING, 1, 1, 32},
    {NULL, 0, 0, 0, 0},
};

static const op_write W_CHAT[] = {{"/chat", 1}, {"/private", 1}, {"/gm", 1}, {NULL, 0}};

const op_def OPS_CHAT[] = {
    {"chat.send", op_chat_send, WHO_ANY, 0, ARGS_SEND, W_CHAT},
    {"chat.delete", op_chat_delete, WHO_GM, 0, ARGS_DELETE, W_CHAT},
    {NULL, NULL, 0, 0, NULL, NULL},
};
