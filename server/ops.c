#include "ops.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "dice.h"
#include "roster.h"
#include "system.h"
#include "workcopy.h"

#define MAX_ASKS 50 /* player checks waiting for the GM's number at once (roll.check) */

/* ---- shared state helpers ---------------------------------------------------------------- */

/* Appends entry (stolen) to the array at state[key] (or state.gm[key] when gm), dropping the
 * oldest entries beyond cap. */
void ops_log_append(json_t *state, int gm, json_t *entry, int cap)
{
    ops_log_append_at(state, gm ? (const char *const[]){"gm", NULL} : (const char *const[]){NULL},
                      entry, cap);
}

void ops_log_append_at(json_t *state, const char *const *at, json_t *entry, int cap)
{
    const char *keys[OPS_LOG_DEPTH + 2];
    size_t n = 0;
    for (; at[n]; n++) {
        if (n == OPS_LOG_DEPTH) {
            fprintf(stderr, "tabled: a log's path is deeper than OPS_LOG_DEPTH (server/ops.h)\n");
            abort();
        }
        keys[n] = at[n];
    }
    keys[n] = "log";
    keys[n + 1] = NULL;
    json_t *log = workcopy_own_path(state, keys); /* a log is copied when first written */
    if (!json_is_array(log)) {
        json_t *parent = state; /* made private on the way by workcopy_own_path, or made here */
        workcopy_own_path(state, at);
        for (size_t i = 0; i < n; i++)
            parent = ops_child(parent, at[i]);
        log = json_array();
        json_object_set_new(parent, "log", log);
    }
    json_array_append_new(log, entry);
    while (cap > 0 && json_array_size(log) > (size_t)cap)
        json_array_remove(log, 0);
}

const char *ops_campaign_system(const json_t *state)
{
    const char *s =
        json_string_value(json_object_get(json_object_get(state, "campaign"), "system"));
    return s ? s : "generic";
}

json_t *ops_child(json_t *parent, const char *key)
{
    json_t *o = json_object_get(parent, key);
    if (!json_is_object(o)) {
        o = json_object();
        json_object_set_new(parent, key, o);
    }
    return o;
}

static int ops__cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char *ops_audience_id(const op_ctx *ctx, json_t *state, const char *prefix, const json_t *seats)
{
    size_t n = json_array_size(seats), k = 0, len = strlen(prefix) + 48;
    const char **list = xmalloc(sizeof *list * (n ? n : 1));
    for (size_t i = 0; i < n; i++) {
        const char *s = json_string_value(json_array_get(seats, i));
        if (s && strcmp(s, "gm") != 0)
            list[k++] = s;
    }
    qsort(list, k, sizeof *list, ops__cmp_str);
    for (size_t i = 0; i < k; i++)
        len += strlen(list[i]) + 1;
    char *audience = xmalloc(len), *id = xmalloc(len + 24);
    size_t at = (size_t)snprintf(audience, len, "%s", prefix);
    for (size_t i = 0; i < k; i++)
        if (i == 0 || strcmp(list[i], list[i - 1]) != 0)
            at += (size_t)snprintf(audience + at, len - at, "-%s", list[i]);
    free(list);
    /* /gm/ids {seq, <audience>: count}: the counts of this number only */
    json_t *gm = ops_child(state, "gm");
    json_t *old = json_object_get(gm, "ids");
    json_t *ids = json_is_object(old) && json_integer_value(json_object_get(old, "seq")) == ctx->seq
                      ? json_copy(old)
                      : json_pack("{s:I}", "seq", (json_int_t)ctx->seq);
    json_int_t count = json_integer_value(json_object_get(ids, audience)) + 1;
    json_object_set_new(ids, audience, json_integer(count));
    json_object_set_new(gm, "ids", ids);
    const char *dash = strchr(audience, '-');
    snprintf(id, len + 24, "%s%lld%s-%lld", prefix, (long long)ctx->seq, dash ? dash : "",
             (long long)count);
    free(audience);
    return id;
}

static json_t *seats_of(json_t *state)
{
    return ops_child(state, "seats");
}

/* Two names are the same seat name when they match ignoring ASCII case and runs of white space
 * ("Ann", " ann", "ANN"). (Look-alike letters of other scripts are not folded.) */
static int seat_names_clash(const char *a, const char *b);

/* The sequence seat_names_clash compares, written out: a white-space character followed by another
 * or by the end is skipped, the others become ' ', every other byte its tolower. */
void ops_seat_name_key(const char *name, char *out)
{
    for (;; name++) {
        while (isspace((unsigned char)*name) &&
               (name[1] == '\0' || isspace((unsigned char)name[1])))
            name++;
        *out++ = (char)(isspace((unsigned char)*name) ? ' ' : tolower((unsigned char)*name));
        if (!*name)
            return;
    }
}

static int seat_names_clash(const char *a, const char *b)
{
    for (;;) {
        while (isspace((unsigned char)*a) && (a[1] == '\0' || isspace((unsigned char)a[1])))
            a++;
        while (isspace((unsigned char)*b) && (b[1] == '\0' || isspace((unsigned char)b[1])))
            b++;
        int ca = isspace((unsigned char)*a) ? ' ' : tolower((unsigned char)*a);
        int cb = isspace((unsigned char)*b) ? ' ' : tolower((unsigned char)*b);
        if (ca != cb)
            return 0;
        if (!ca)
            return 1;
        a++;
        b++;
    }
}

/* Issue 27 item 13: a player seat may not take the name of another seat, nor a name the table
 * reads as the GM's or the server's, so nobody can pass for the GM or for another player in the
 * log and the roster. `seat` is the seat taking the name (NULL for a seat not made yet), gm
 * whether it is the GM's own seat. 0, or TB_CONFLICT with a sentence a person can read. */
static int seat_name_free(json_t *state, const roster *names, const char *seat, int gm,
                          const char *name, tb_err *err)
{
    static const char *const RESERVED[] = {"GM", "Game Master", "Host", "Server", NULL};
    for (int i = 0; !gm && RESERVED[i]; i++)
        if (seat_names_clash(name, RESERVED[i]))
            return tb_fail(err, TB_CONFLICT,
                           "\"%s\" is kept for the game master; pick another name", RESERVED[i]);
    /* the index of the names (seat.join, issue 26): no walk unless some seat may have it */
    if (names && !seat &&
        json_object_size(roster_seats(names)) == json_object_size(seats_of(state)) &&
        !roster_name_taken(names, name))
        return TB_OK;
    const char *id;
    json_t *v;
    json_object_foreach(seats_of(state), id, v)
    {
        const char *other = json_string_value(json_object_get(v, "name"));
        if ((!seat || strcmp(id, seat) != 0) && other && seat_names_clash(name, other))
            return tb_fail(err, TB_CONFLICT,
                           "another seat at this table is already called %.40s; pick another name",
                           other);
    }
    return TB_OK;
}

/* ---- core ops ----------------------------------------------------------------------------- */

static int op_roll(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                   tb_err *err)
{
    const char *expr = json_string_value(json_object_get(args, "expr"));
    int secret = json_is_true(json_object_get(args, "secret"));
    if (secret && !ctx->is_gm)
        return tb_fail(err, TB_FORBIDDEN, "only the GM may roll in secret");
    json_t *roll;
    if (rules_dice_roll_text(expr, ctx->dice, &roll, err))
        return err->code;
    /* the caller's object: the roll's members (shared, never changed) and "secret"; the log
     * keeps its own. Walked with the iterator (json_copy looks every key up again). */
    json_t *res = json_object();
    for (void *it = json_object_iter(roll); it; it = json_object_iter_next(roll, it))
        json_object_setn_nocheck(res, json_object_iter_key(it), json_object_iter_key_len(it),
                                 json_object_iter_value(it));
    json_object_set_new_nocheck(res, "secret", json_boolean(secret));
    /* built directly, not with json_pack (which read its format each time: 4.6 k instructions
     * of a roll's, issue 26); the same members in the same order */
    json_t *entry = json_object();
    json_object_set_new_nocheck(entry, "seq", json_integer((json_int_t)ctx->seq));
    json_object_set_new_nocheck(entry, "at", json_integer((json_int_t)ctx->now_ms));
    json_object_set_new_nocheck(entry, "seat", json_string(ctx->seat));
    json_object_set_new_nocheck(entry, "kind", json_string_nocheck("roll"));
    json_object_set_new_nocheck(entry, "roll", roll);
    ops_log_append(state, secret, entry, ctx->log_cap);
    *result = res;
    return TB_OK;
}

static int op_seat_rename(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                          tb_err *err)
{
    const char *seat = json_string_value(json_object_get(args, "seat"));
    const char *name = json_string_value(json_object_get(args, "name"));
    json_t *entry = json_object_get(seats_of(state), seat);
    if (!entry)
        return tb_fail(err, TB_NOT_FOUND, "no seat '%.40s' in this campaign", seat);
    const char *role = json_string_value(json_object_get(entry, "role"));
    if (seat_name_free(state, NULL, seat, role && strcmp(role, "gm") == 0, name, err))
        return err->code;
    json_object_set_new(entry, "name", json_string(name));
    *result = json_pack("{s:s, s:s}", "seat", seat, "name", name);
    return TB_OK;
}

static int op_seat_remove(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                          tb_err *err)
{
    const char *seat = json_string_value(json_object_get(args, "seat"));
    json_t *seats = seats_of(state);
    json_t *entry = json_object_get(seats, seat);
    if (!entry)
        return tb_fail(err, TB_NOT_FOUND, "no seat '%.40s' in this campaign", seat);
    if (strcmp(json_string_value(json_object_get(entry, "role")), "gm") == 0)
        return tb_fail(err, TB_RULE, "the GM seat cannot be removed");
    json_object_del(seats, seat);
    json_object_del(json_object_get(state, "private"), seat);
    *result = json_pack("{s:s}", "seat", seat);
    return TB_OK;
}

static int op_join_rotate(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                          tb_err *err)
{
    char code[10];
    ops_join_code(ctx->secret, code);
    json_t *gm = json_object_get(state, "gm");
    json_object_set_new(gm, "join", json_pack("{s:s, s:b}", "code", code, "open", 1));
    *result = json_pack("{s:s}", "join_code", code);
    return TB_OK;
}

static int op_join_close(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                         tb_err *err)
{
    json_t *join = json_object_get(json_object_get(state, "gm"), "join");
    if (!json_is_object(join))
        return tb_fail(err, TB_INTERNAL, "campaign state has no /gm/join");
    json_object_set_new(join, "open", json_false());
    *result = json_object();
    return TB_OK;
}

/* Run by the engine when someone joins with a valid code: adds a player seat. The seat id comes
 * from /next_seat, so ids are never reused (a removed seat's /private area stays gone). */
static int op_seat_join(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                        tb_err *err)
{
    if (seat_name_free(state, ctx->names, NULL, 0, json_string_value(json_object_get(args, "name")),
                       err))
        return err->code;
    json_int_t n = json_integer_value(json_object_get(state, "next_seat"));
    if (n < 1)
        n = 1;
    char id[32];
    snprintf(id, sizeof id, "p%lld", (long long)n);
    json_object_set_new(
        seats_of(state), id,
        json_pack("{s:O, s:s}", "name", json_object_get(args, "name"), "role", "player"));
    json_object_set_new(state, "next_seat", json_integer(n + 1));
    *result = json_pack("{s:s}", "seat", id);
    return TB_OK;
}

/* Removes from a check result what the rulebook keeps from players (parameters flagged
 * RULES_PARAM_SECRET, e.g. a grimwire target number, 002 "hidden by default") and returns it as a
 * new object, or NULL when the check has nothing secret. */
static json_t *split_hidden(const rules_check *c, json_t *result)
{
    json_t *hidden = NULL;
    json_t *params = json_object_get(result, "params");
    for (const rules_param *p = c->params; p->name; p++) {
        if (!(p->flags & RULES_PARAM_SECRET))
            continue;
        if (!hidden)
            hidden = json_object();
        json_t *v = json_object_get(params, p->name);
        if (v) {
            json_object_set(hidden, p->name, v);
            json_object_del(params, p->name);
        }
        if ((v = json_object_get(result, p->name))) {
            json_object_set(hidden, p->name, v);
            json_object_del(result, p->name);
        }
    }
    /* The target and the margin give a secret target number away. */
    static const char *const DERIVED[] = {"target", "margin", NULL};
    for (int i = 0; hidden && DERIVED[i]; i++) {
        json_t *v = json_object_get(result, DERIVED[i]);
        if (v) {
            json_object_set(hidden, DERIVED[i], v);
            json_object_del(result, DERIVED[i]);
        }
    }
    return hidden;
}

/* Keeps /gm/hidden/<seq> to the newest cap entries. */
static void hidden_put(json_t *state, int64_t seq, json_t *hidden, int cap)
{
    json_t *gm = json_object_get(state, "gm");
    json_t *all = json_object_get(gm, "hidden");
    if (!json_is_object(all)) {
        all = json_object();
        json_object_set_new(gm, "hidden", all);
    }
    char key[24];
    snprintf(key, sizeof key, "%lld", (long long)seq);
    json_object_set_new(all, key, hidden);
    while (cap > 0 && json_object_size(all) > (size_t)cap) {
        const char *k, *oldest = NULL;
        json_t *v;
        json_object_foreach(all, k, v)
        {
            if (!oldest || strtoll(k, NULL, 10) < strtoll(oldest, NULL, 10))
                oldest = k;
        }
        json_object_del(all, oldest);
    }
}

/* Rolls check rc of rs with params (borrowed) as seat's roll and logs it: /log with the secret
 * parameters moved to /gm/hidden/<seq>, or /gm/log when secret; `ask` (may be NULL) is the key of
 * the waiting roll it answers (roll.answer), kept in the entry so the asking player's page finds
 * its outcome; `who` (borrowed, may be NULL) says whose roll it is (roll__who). *result is the
 * full result (new reference). Validates every parameter before a die is rolled. */
static int roll__check_log(const op_ctx *ctx, json_t *state, const rules_system *rs,
                           const rules_check *rc, const json_t *params, const char *seat,
                           const char *ask, const json_t *who, int secret, json_t **result,
                           tb_err *err)
{
    json_t *res;
    if (rules_check_run_with(rs, rc, params, ctx->dice, &res, err))
        return err->code;
    json_t *full = json_deep_copy(res);
    json_t *hidden = secret ? NULL : split_hidden(rc, res);
    json_t *entry = json_pack("{s:I, s:I, s:s, s:s, s:o}", "seq", (json_int_t)ctx->seq, "at",
                              (json_int_t)ctx->now_ms, "seat", seat, "kind", "check", "check", res);
    if (ask)
        json_object_set_new(entry, "ask", json_string(ask));
    json_object_update(entry, (json_t *)who); /* char, name, label (roll__who) */
    ops_log_append(state, secret, entry, ctx->log_cap);
    if (hidden)
        hidden_put(state, ctx->seq, hidden, ctx->log_cap);
    json_object_set_new(full, "secret", json_boolean(secret));
    *result = full;
    return TB_OK;
}

/*
 * Who rolls and what, for the log (issue 15: a log line names the character and the skill, not
 * the player): {char, name, label} from the optional args `char` (a player character's id: a
 * player's own; the GM's any) and `label` ("Sneak", "AGL +3"). 0 with *who a new object (empty
 * when neither is given); TB_NOT_FOUND for an unknown character, TB_FORBIDDEN for another seat's.
 */
static int roll__who(const op_ctx *ctx, json_t *state, const json_t *args, json_t **who,
                     tb_err *err)
{
    const char *id = json_string_value(json_object_get(args, "char"));
    const char *label = json_string_value(json_object_get(args, "label"));
    *who = json_object();
    if (id) {
        /* a player character only: an NPC's name in the public log would tell the table who
         * the GM rolls for */
        json_t *c = json_object_get(json_object_get(state, "chars"), id);
        if (!c) {
            json_decref(*who);
            return tb_fail(err, TB_NOT_FOUND, "no character '%.32s' to roll for", id);
        }
        const char *owner = json_string_value(json_object_get(c, "seat"));
        if (!ctx->is_gm && (!owner || strcmp(owner, ctx->seat) != 0)) {
            json_decref(*who);
            return tb_fail(err, TB_FORBIDDEN, "you can roll only for your own character");
        }
        json_object_set_new(*who, "char", json_string(id));
        json_object_set(*who, "name", json_object_get(c, "name"));
    }
    if (label)
        json_object_set_new(*who, "label", json_string(label));
    return TB_OK;
}

/* The names of rc's required GM-only parameters (a grimwire target number) missing from params
 * (borrowed), as a new array; empty when none is missing. */
static json_t *roll__missing_secrets(const rules_check *rc, const json_t *params)
{
    json_t *need = json_array();
    for (const rules_param *p = rc->params; p && p->name; p++) {
        json_t *v = json_object_get(params, p->name);
        if ((p->flags & RULES_PARAM_SECRET) && (p->flags & RULES_PARAM_REQUIRED) &&
            (!v || json_is_null(v)))
            json_array_append_new(need, json_string(p->name));
    }
    return need;
}

/*
 * A player's check whose hidden number only the GM knows (issue 15, item 5; 002:53 "usually the
 * GM will not disclose the target number"): the player is not asked for it. Every other parameter
 * is validated now (a placeholder stands in for the missing ones); nothing is rolled. The ask is
 * kept at /gm/asks/<seq> {seat, system, check, params, need} for the GM, who answers with
 * roll.answer; /asks/<seq> {seat, check} tells the table a roll is waiting, without a number. The
 * dice are rolled when the GM answers, so the GM names the number without seeing them.
 */
static int roll__ask(const op_ctx *ctx, json_t *state, const rules_system *rs,
                     const rules_check *rc, const json_t *params, json_t *need, const json_t *who,
                     json_t **result, tb_err *err)
{
    json_t *probe = json_is_object(params) ? json_deep_copy(params) : json_object();
    size_t i;
    json_t *n;
    json_array_foreach(need, i, n)
    {
        const rules_param *p = rc->params;
        while (strcmp(p->name, json_string_value(n)) != 0)
            p++;
        json_object_set_new(probe, p->name, json_integer(p->min));
    }
    rules_args a;
    char what[80];
    snprintf(what, sizeof what, "%s %s", rs->id, rc->name);
    int rc_ = rules_args_parse(what, rc->params, probe, &a, err);
    json_decref(probe);
    if (rc_) {
        json_decref(need);
        return rc_;
    }
    if (json_object_size(json_object_get(state, "asks")) >= MAX_ASKS) {
        json_decref(need);
        return tb_fail(err, TB_CONFLICT,
                       "%d rolls are already waiting for the GM; wait until the GM answers them",
                       MAX_ASKS);
    }
    char key[24];
    snprintf(key, sizeof key, "%lld", (long long)ctx->seq);
    json_t *pub = json_pack("{s:s, s:s, s:I}", "seat", ctx->seat, "check", rc->name, "at",
                            (json_int_t)ctx->now_ms);
    json_object_update(pub, (json_t *)who);
    json_object_set_new(ops_child(state, "asks"), key, pub);
    json_t *given = json_is_object(params) ? json_deep_copy(params) : json_object();
    json_t *q = json_pack("{s:s, s:s, s:s, s:o, s:O}", "seat", ctx->seat, "system", rs->id, "check",
                          rc->name, "params", given, "need", need);
    if (json_object_size(who))
        json_object_set_new(q, "who", json_deep_copy(who));
    json_object_set_new(ops_child(ops_child(state, "gm"), "asks"), key, q);
    *result = json_pack("{s:s, s:o}", "asked", key, "need", need);
    return TB_OK;
}

/* roll.check: one op for every system's checks (rules/system.h), with the same parameter names as
 * `tabled roll`. The campaign's system is the default; a generic campaign names one. A player who
 * leaves out a GM-only number the check needs asks the GM for it (roll__ask). */
static int op_roll_check(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                         tb_err *err)
{
    const char *sys = json_string_value(json_object_get(args, "system"));
    const char *check = json_string_value(json_object_get(args, "check"));
    int secret = json_is_true(json_object_get(args, "secret"));
    if (!sys)
        sys = ops_campaign_system(state);
    if (strcmp(sys, "generic") == 0)
        return tb_fail(err, TB_BAD_REQUEST,
                       "roll.check: 'system' is required in a generic campaign");
    if (secret && !ctx->is_gm)
        return tb_fail(err, TB_FORBIDDEN, "only the GM may roll in secret");
    const rules_system *rs = rules_system_find(sys);
    const rules_check *rc = rs ? rules_check_find(rs, check) : NULL;
    if (!rc)
        return tb_fail(err, TB_NOT_FOUND, "roll.check: no check '%.32s' in system '%.32s'", check,
                       sys);
    json_t *who;
    if (roll__who(ctx, state, args, &who, err))
        return err->code;
    const json_t *params = json_object_get(args, "params");
    int rc_;
    json_t *need = !ctx->is_gm && (!params || json_is_object(params))
                       ? roll__missing_secrets(rc, params)
                       : json_array();
    if (json_array_size(need)) {
        rc_ = roll__ask(ctx, state, rs, rc, params, need, who, result, err);
    } else {
        json_decref(need);
        rc_ =
            roll__check_log(ctx, state, rs, rc, params, ctx->seat, NULL, who, secret, result, err);
    }
    json_decref(who);
    return rc_;
}

/* roll.answer: the GM gives the numbers a player's check waits for (roll__ask); the check is
 * rolled as that player's, logged like any check (the numbers kept under /gm/hidden), and the ask
 * is gone. */
static int op_roll_answer(const op_ctx *ctx, json_t *state, const json_t *args, json_t **result,
                          tb_err *err)
{
    const char *key = json_string_value(json_object_get(args, "ask"));
    json_t *gm_asks = json_object_get(json_object_get(state, "gm"), "asks");
    json_t *ask = json_object_get(gm_asks, key);
    if (!ask)
        return tb_fail(err, TB_NOT_FOUND, "no roll is waiting for the GM under '%.24s'", key);
    const char *sys = json_string_value(json_object_get(ask, "system"));
    const rules_system *rs = rules_system_find(sys ? sys : "");
    const rules_check *rc =
        rs ? rules_check_find(rs, json_string_value(json_object_get(ask, "check"))) : NULL;
    if (!rc)
        return tb_fail(err, TB_INTERNAL,
                       "the waiting roll names a check this server does not have");
    const json_t *given = json_object_get(args, "params");
    json_t *params = json_deep_copy(json_object_get(ask, "params"));
    size_t i;
    json_t *n;
    json_array_foreach(json_object_get(ask, "need"), i, n)
    {
        json_t *v = json_object_get(given, json_string_value(n));
        if (!v) {
            json_decref(params);
            return tb_fail(err, TB_BAD_REQUEST,
                           "roll.answer: give '%s', the number the roll waits for",
                           json_string_value(n));
        }
        json_object_set(params, json_string_value(n), v);
    }
    const char *seat = json_string_value(json_object_get(ask, "seat"));
    char seat_copy[40];
    snprintf(seat_copy, sizeof seat_copy, "%s", seat ? seat : "gm");
    int rc_ = roll__check_log(ctx, state, rs, rc, params, seat_copy, key,
                              json_object_get(ask, "who"), 0, result, err);
    json_decref(params);
    if (rc_)
        return rc_;
    json_object_set_new(*result, "ask", json_string(key));
    json_object_del(json_object_get(state, "asks"), key);
    json_object_del(gm_asks, key);
    return TB_OK;
}

static const op_arg ARGS_ROLL_CHECK[] = {
    {"system", ARG_STRING, 0, 1, 32},
    {"check", ARG_STRING, 1, 1, 32},
    {"params", ARG_OBJECT, 0, 0, 0},
    {"secret", ARG_BOOL, 0, 0, 0},
    {"char", ARG_STRING, 0, 1, 32},
    {"label", ARG_NAME, 0, 1, 60},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_ROLL_ANSWER[] = {
    {"ask", ARG_STRING, 1, 1, 24},
    {"params", ARG_OBJECT, 1, 0, 0},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_ROLL[] = {
    {"expr", ARG_STRING, 1, 1, 200},
    {"secret", ARG_BOOL, 0, 0, 0},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_SEAT_RENAME[] = {
    {"seat", ARG_STRING, 1, 1, 32},
    {"name", ARG_NAME, 1, 1, 40},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_SEAT[] = {
    {"seat", ARG_STRING, 1, 1, 32},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_NAME[] = {
    {"name", ARG_NAME, 1, 1, 40},
    {NULL, 0, 0, 0, 0},
};
static const op_arg ARGS_NONE[] = {
    {NULL, 0, 0, 0, 0},
};

/* What each handler may change (ops.h, "copy-on-write"). */
static const op_write W_LOGS[] = {OP_WRITES_LOGS, {NULL, 0}};
static const op_write W_LOG_PUBLIC[] = {{"/log", OP_WRITE_LOG}, {NULL, 0}};
static const op_write W_LOG_GM[] = {{"/gm/log", OP_WRITE_LOG}, {NULL, 0}};

/* A roll writes the one log its secret flag names (op_roll): the other is not copied. */
static const op_write *roll_writes(const json_t *args)
{
    return json_is_true(json_object_get(args, "secret")) ? W_LOG_GM : W_LOG_PUBLIC;
}

static const op_write W_CHECK[] = {
    OP_WRITES_LOGS, {"/gm/hidden", 1}, {"/asks", 1}, {"/gm/asks", 1}, {NULL, 0}};
/* A check that is not secret, and the GM's answer to a waiting one (roll__check_log with secret
 * 0): the public log, the hidden numbers, the asks; never /gm/log. */
static const op_write W_CHECK_PUBLIC[] = {
    {"/log", OP_WRITE_LOG}, {"/gm/hidden", 1}, {"/asks", 1}, {"/gm/asks", 1}, {NULL, 0}};

/* A secret check (the GM's: op_roll_check refuses a player's first) writes /gm/log alone. */
static const op_write *check_writes(const json_t *args)
{
    return json_is_true(json_object_get(args, "secret")) ? W_LOG_GM : W_CHECK_PUBLIC;
}
static const op_write W_SEATS[] = {{"/seats", 0}, {NULL, 0}};
static const op_write W_SEAT_REMOVE[] = {{"/seats", 1}, {"/private", 1}, {NULL, 0}};
static const op_write W_JOIN[] = {{"/gm/join", 0}, {NULL, 0}};
static const op_write W_SEAT_JOIN[] = {{"/seats", 1}, {"/next_seat", 0}, {NULL, 0}};

static const op_def OPS_CORE[] = {
    {"roll", op_roll, WHO_ANY, 0, ARGS_ROLL, W_LOGS, roll_writes},
    {"roll.check", op_roll_check, WHO_ANY, 0, ARGS_ROLL_CHECK, W_CHECK, check_writes},
    {"roll.answer", op_roll_answer, WHO_GM, 0, ARGS_ROLL_ANSWER, W_CHECK_PUBLIC},
    {"seat.rename", op_seat_rename, WHO_SELF_OR_GM, 0, ARGS_SEAT_RENAME, W_SEATS},
    {"seat.remove", op_seat_remove, WHO_GM, 0, ARGS_SEAT, W_SEAT_REMOVE},
    {"join.rotate", op_join_rotate, WHO_GM, 0, ARGS_NONE, W_JOIN},
    {"join.close", op_join_close, WHO_GM, 0, ARGS_NONE, W_JOIN},
    {"seat.join", op_seat_join, WHO_INTERNAL, 0, ARGS_NAME, W_SEAT_JOIN},
    {NULL, NULL, 0, 0, NULL, NULL},
};

/* A campaign runs "generic" (free dice only) or one of the registered rule systems
 * (rules/meson.build); the "dice" pseudo-system is not a campaign system. */
int ops_system_known(const char *system)
{
    if (strcmp(system, "generic") == 0)
        return 1;
    return strcmp(system, "dice") != 0 && rules_system_find(system) != NULL;
}

json_t *ops_systems_json(void)
{
    json_t *out = json_pack("[{s:s, s:s, s:s}]", "id", "generic", "name", "Free dice only",
                            "summary", "Dice rolls and notes, no rule system");
    const rules_system *s;
    for (size_t i = 0; (s = rules_system_at(i)); i++)
        if (ops_system_known(s->id) && strcmp(s->id, "generic") != 0) {
            json_t *o = json_pack("{s:s, s:s}", "id", s->id, "name", s->name);
            if (s->summary)
                json_object_set_new(o, "summary", json_string(s->summary));
            json_array_append_new(out, o);
        }
    return out;
}

static const op_def *const TABLES[] = {OPS_CORE,    OPS_PLAY,    OPS_ENC, OPS_SESSION, OPS_CHAT,
                                       OPS_JOURNAL, OPS_HANDOUT, OPS_MAP, NULL};

const op_def *ops_row_at(size_t i)
{
    for (int t = 0; TABLES[t]; t++)
        for (const op_def *d = TABLES[t]; d->name; d++)
            if (i-- == 0)
                return d;
    return NULL;
}

const op_def *ops_find(const char *system, const char *name)
{
    (void)system; /* every campaign has every table; encounter ops check the module's system */
    for (int t = 0; TABLES[t]; t++)
        for (const op_def *d = TABLES[t]; d->name; d++)
            if (strcmp(d->name, name) == 0)
                return d;
    return NULL;
}

/* ---- argument checks ---------------------------------------------------------------------- */

/* Number of UTF-8 code points (jansson has already rejected invalid UTF-8). */
static size_t utf8_len(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            n++;
    return n;
}

char *ops_normalize_name(const char *name, int max, tb_err *err)
{
    while (*name && isspace((unsigned char)*name))
        name++;
    size_t len = strlen(name);
    while (len > 0 && isspace((unsigned char)name[len - 1]))
        len--;
    char *out = xmalloc(len + 1);
    memcpy(out, name, len);
    out[len] = '\0';
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)out[i];
        if (ch < 0x20 || ch == 0x7f) {
            free(out);
            tb_fail(err, TB_BAD_REQUEST, "a name may not contain control characters");
            return NULL;
        }
    }
    size_t n = utf8_len(out);
    if (n < 1 || n > (size_t)max) {
        free(out);
        tb_fail(err, TB_BAD_REQUEST, "a name must be 1 to %d characters long", max);
        return NULL;
    }
    return out;
}

int ops_check_args(const op_def *def, const json_t *args, json_t **out, tb_err *err)
{
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)args, key, value)
    {
        const op_arg *a = def->args;
        while (a->name && strcmp(a->name, key) != 0)
            a++;
        if (!a->name)
            return tb_fail(err, TB_BAD_REQUEST, "%s: unknown argument '%.40s'", def->name, key);
    }
    json_t *norm = json_object();
    for (const op_arg *a = def->args; a->name; a++) {
        json_t *v = json_object_get(args, a->name);
        if (!v || json_is_null(v)) {
            if (a->required) {
                json_decref(norm);
                return tb_fail(err, TB_BAD_REQUEST, "%s: missing argument '%s'", def->name,
                               a->name);
            }
            continue;
        }
        int ok = 1;
        switch (a->type) {
        case ARG_STRING:
            ok = json_is_string(v) && utf8_len(json_string_value(v)) >= (size_t)a->min &&
                 utf8_len(json_string_value(v)) <= (size_t)a->max;
            if (ok)
                json_object_set(norm, a->name, v);
            else if (json_is_string(v)) {
                json_decref(norm);
                return tb_fail(err, TB_BAD_REQUEST, "%s: '%s' must be %lld to %lld characters",
                               def->name, a->name, a->min, a->max);
            }
            break;
        case ARG_NAME:
            ok = json_is_string(v);
            if (ok) {
                char *name = ops_normalize_name(json_string_value(v), (int)a->max, err);
                if (!name) {
                    json_decref(norm);
                    return TB_BAD_REQUEST;
                }
                json_object_set_new(norm, a->name, json_string(name));
                free(name);
            }
            break;
        case ARG_INT:
            ok = json_is_integer(v);
            if (ok && (json_integer_value(v) < a->min || json_integer_value(v) > a->max)) {
                json_decref(norm);
                return tb_fail(err, TB_BAD_REQUEST, "%s: '%s' must be between %lld and %lld",
                               def->name, a->name, a->min, a->max);
            }
            if (ok)
                json_object_set(norm, a->name, v);
            break;
        case ARG_BOOL:
            ok = json_is_boolean(v);
            if (ok)
                json_object_set(norm, a->name, v);
            break;
        case ARG_OBJECT:
            ok = json_is_object(v);
            if (ok)
                json_object_set(norm, a->name, v);
            break;
        case ARG_ANY:
            json_object_set(norm, a->name, v);
            break;
        }
        if (!ok) {
            static const char *const TYPE_NAMES[] = {"",           "a string",  "a name (string)",
                                                     "an integer", "a boolean", "an object",
                                                     "a value"};
            json_decref(norm);
            return tb_fail(err, TB_BAD_REQUEST, "%s: '%s' must be %s", def->name, a->name,
                           TYPE_NAMES[a->type]);
        }
    }
    *out = norm;
    return TB_OK;
}

/* ---- campaigns and join codes -------------------------------------------------------------- */

json_t *ops_campaign_initial(const char *id, const char *name, const char *system,
                             const char *join_code)
{
    return json_pack("{s:{s:s, s:s, s:s}, s:{s:{s:s, s:s}}, s:i, s:[], s:{s:{s:s?, s:b}, s:[]},"
                     " s:{}}",
                     "campaign", "id", id, "name", name, "system", system,              /* */
                     "seats", "gm", "name", "GM", "role", "gm",                         /* */
                     "next_seat", 1,                                                    /* */
                     "log",                                                             /* */
                     "gm", "join", "code", join_code, "open", join_code != NULL, "log", /* */
                     "private");
}

static const char CROCKFORD[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

void ops_join_code(rules_rng *secret, char buf[10])
{
    int j = 0;
    for (int i = 0; i < 8; i++) {
        if (i == 4)
            buf[j++] = '-';
        buf[j++] = CROCKFORD[rules_rng_below(secret, 32)];
    }
    buf[j] = '\0';
}

int ops_join_code_normalize(const char *text, char buf[33])
{
    size_t n = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '-' || *p == ' ')
            continue;
        if (n >= 32 || !isalnum((unsigned char)*p))
            return 0;
        buf[n++] = (char)toupper((unsigned char)*p);
    }
    buf[n] = '\0';
    return n > 0;
}
