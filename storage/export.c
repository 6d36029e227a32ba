/*
 * export.c — one campaign as a JSON document, and back (the contract is in backup.h).
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backup.h"
#include "protocol.h"
#include "store_internal.h"

#define EXPORT_FORMAT "tabled-campaign"
#define EXPORT_VERSION 1

static json_t *export__json_col(sqlite3_stmt *s, int i)
{
    const char *text = (const char *)sqlite3_column_text(s, i);
    json_t *v = text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
    return v ? v : json_null();
}

/* Runs sql with text bound as ?1 (may be NULL: nothing bound) and appends one object per row to
 * arr, built by row. */
typedef json_t *(*export_row_fn)(sqlite3_stmt *s);

static int export__rows(sqlite3 *db, const char *sql, const char *text, json_t *arr,
                        export_row_fn row, tb_err *err)
{
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        return tb_fail(err, TB_INTERNAL, "export: %s", sqlite3_errmsg(db));
    if (text)
        sqlite3_bind_text(s, 1, text, -1, SQLITE_TRANSIENT);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        json_array_append_new(arr, row(s));
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE)
        return tb_fail(err, TB_INTERNAL, "export: %s", sqlite3_errmsg(db));
    return TB_OK;
}

static json_t *export__event(sqlite3_stmt *s)
{
    return json_pack("{s:I, s:s, s:s, s:o, s:o, s:o, s:I}", "seq",
                     (json_int_t)sqlite3_column_int64(s, 0), "seat", sqlite3_column_text(s, 1),
                     "op", sqlite3_column_text(s, 2), "args", export__json_col(s, 3), "result",
                     export__json_col(s, 4), "patch", export__json_col(s, 5), "at_ms",
                     (json_int_t)sqlite3_column_int64(s, 6));
}

static json_t *export__idem(sqlite3_stmt *s)
{
    return json_pack("{s:s, s:s, s:s}", "seat", sqlite3_column_text(s, 0), "cmd_id",
                     sqlite3_column_text(s, 1), "reply", sqlite3_column_text(s, 2));
}

/* An event's command as the idempotency row the export format keeps: its ack, rebuilt. */
static json_t *export__ack(sqlite3_stmt *s)
{
    json_t *result = export__json_col(s, 3);
    char *ack = store__ack_text((const char *)sqlite3_column_text(s, 2), sqlite3_column_int64(s, 4),
                                json_is_null(result) ? NULL : result, sqlite3_column_int64(s, 5));
    json_decref(result);
    json_t *row = json_pack("{s:s, s:s, s:s}", "seat", sqlite3_column_text(s, 1), "cmd_id",
                            sqlite3_column_text(s, 2), "reply", ack);
    free(ack);
    return row;
}

static json_t *export__campaign(sqlite3_stmt *s)
{
    return json_pack("{s:s, s:I}", "id", sqlite3_column_text(s, 0), "created_ms",
                     (json_int_t)sqlite3_column_int64(s, 1));
}

static json_t *export__token(sqlite3_stmt *s)
{
    return json_pack("{s:s, s:s, s:I}", "hash", sqlite3_column_text(s, 0), "seat",
                     sqlite3_column_text(s, 1), "created_ms",
                     (json_int_t)sqlite3_column_int64(s, 2));
}

int store_export_campaign(store *st, const char *campaign, json_t **out, tb_err *err)
{
    sqlite3 *db = store__sqlite(st);
    *out = NULL;
    json_t *camp = json_array(), *events = json_array(), *idem = json_array(),
           *tokens = json_array();
    int r = export__rows(db, "SELECT id, created_ms FROM campaigns WHERE id = ?1", campaign, camp,
                         export__campaign, err);
    if (!r && json_array_size(camp) == 0)
        r = tb_fail(err, TB_NOT_FOUND, "no campaign '%.40s' in this database", campaign);
    campfile *f = NULL;
    if (!r)
        r = store__campfile(st, campaign, 0, &f, err);
    if (r)
        goto out;
    /* One read transaction on the campaign's file: a consistent campaign while a server keeps
     * writing. (The tokens come from the host file: they change only when a seat joins, leaves or
     * a GM link is made.) */
    sqlite3 *cdb = campfile_sqlite(f);
    if (sqlite3_exec(cdb, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
        r = tb_fail(err, TB_INTERNAL, "export: %s", sqlite3_errmsg(cdb));
        goto out;
    }
    r = export__rows(cdb,
                     "SELECT seq, seat, op, args, result, patch, at_ms FROM events ORDER BY seq",
                     NULL, events, export__event, err);
    if (!r)
        r = export__rows(
            cdb,
            "SELECT seq, seat, cmd_id, result, coalesce(ack_seq, seq),"
            " coalesce(ack_entry, 0) FROM events WHERE cmd_id IS NOT NULL ORDER BY seq",
            NULL, idem, export__ack, err);
    if (!r)
        r = export__rows(cdb, "SELECT seat, cmd_id, reply FROM replies ORDER BY id", NULL, idem,
                         export__idem, err);
    sqlite3_exec(cdb, "COMMIT", NULL, NULL, NULL);
    if (!r)
        r = export__rows(db,
                         "SELECT hash, seat, created_ms FROM tokens WHERE campaign = ?1"
                         " ORDER BY created_ms, hash",
                         campaign, tokens, export__token, err);
out:
    if (!r) {
        *out = json_pack("{s:s, s:i, s:i, s:O, s:o, s:o, s:o}", "format", EXPORT_FORMAT, "version",
                         EXPORT_VERSION, "schema", STORE_SCHEMA_VERSION, "campaign",
                         json_array_get(camp, 0), "events", events, "idempotency", idem, "tokens",
                         tokens);
        events = idem = tokens = NULL;
    }
    json_decref(camp);
    json_decref(events);
    json_decref(idem);
    json_decref(tokens);
    return r;
}

static int export__is_str(const json_t *o, const char *k)
{
    return json_is_string(json_object_get(o, k));
}

/* Checks the shape of an export and that its patches rebuild a state; *state gets it (new ref).
 * TB_BAD_REQUEST with the first problem found. */
static int import__check(const json_t *doc, json_t **state, tb_err *err)
{
    *state = NULL;
    const char *format = json_string_value(json_object_get(doc, "format"));
    if (!json_is_object(doc) || !format || strcmp(format, EXPORT_FORMAT) != 0)
        return tb_fail(err, TB_BAD_REQUEST, "not a tabled campaign export (no \"format\": \"%s\")",
                       EXPORT_FORMAT);
    if (json_integer_value(json_object_get(doc, "version")) != EXPORT_VERSION)
        return tb_fail(err, TB_BAD_REQUEST,
                       "export version %lld is not supported (this tabled "
                       "reads version %d)",
                       (long long)json_integer_value(json_object_get(doc, "version")),
                       EXPORT_VERSION);
    json_t *schema = json_object_get(doc, "schema");
    if (!json_is_integer(schema) || json_integer_value(schema) > STORE_SCHEMA_VERSION)
        return tb_fail(err, TB_BAD_REQUEST,
                       "the export comes from a newer tabled (schema %lld, this one has %d)",
                       (long long)json_integer_value(schema), STORE_SCHEMA_VERSION);
    json_t *camp = json_object_get(doc, "campaign");
    if (!store__id_ok(json_string_value(json_object_get(camp, "id"))) ||
        !json_is_integer(json_object_get(camp, "created_ms")))
        return tb_fail(err, TB_BAD_REQUEST, "the export has no valid campaign id");
    json_t *events = json_object_get(doc, "events");
    if (!json_is_array(events) || json_array_size(events) == 0)
        return tb_fail(err, TB_BAD_REQUEST, "the export has no events");
    json_t *idem = json_object_get(doc, "idempotency"), *tokens = json_object_get(doc, "tokens");
    if (!json_is_array(idem) || !json_is_array(tokens))
        return tb_fail(err, TB_BAD_REQUEST, "the export lacks its idempotency or tokens list");
    json_t *s = json_object();
    size_t i;
    json_t *ev;
    json_array_foreach(events, i, ev)
    {
        if (json_integer_value(json_object_get(ev, "seq")) != (json_int_t)i + 1 ||
            !export__is_str(ev, "seat") || !export__is_str(ev, "op") ||
            !json_object_get(ev, "args") || !json_is_integer(json_object_get(ev, "at_ms"))) {
            json_decref(s);
            return tb_fail(err, TB_BAD_REQUEST,
                           "event %zu of the export is malformed (events "
                           "must be numbered from 1 without gaps)",
                           i + 1);
        }
        tb_err perr;
        json_t *next = proto_patch_apply(s, json_object_get(ev, "patch"), &perr);
        json_decref(s);
        if (!next)
            return tb_fail(err, TB_BAD_REQUEST, "event %zu of the export does not apply: %.120s",
                           i + 1, perr.msg);
        s = next;
    }
    json_t *row;
    json_array_foreach(idem, i, row)
    {
        if (!export__is_str(row, "seat") || !export__is_str(row, "cmd_id") ||
            !export__is_str(row, "reply")) {
            json_decref(s);
            return tb_fail(err, TB_BAD_REQUEST, "idempotency row %zu is malformed", i + 1);
        }
    }
    json_array_foreach(tokens, i, row)
    {
        const char *h = json_string_value(json_object_get(row, "hash"));
        if (!h || strlen(h) != 64 || strspn(h, "0123456789abcdef") != 64 ||
            !export__is_str(row, "seat") || !json_is_integer(json_object_get(row, "created_ms"))) {
            json_decref(s);
            return tb_fail(err, TB_BAD_REQUEST, "token row %zu is malformed", i + 1);
        }
    }
    *state = s;
    return TB_OK;
}

static int import__token(sqlite3 *db, const char *campaign, const json_t *row, tb_err *err)
{
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(db,
                           "INSERT INTO tokens (hash, campaign, seat, created_ms)"
                           " VALUES (?1, ?2, ?3, ?4)",
                           -1, &s, NULL) != SQLITE_OK)
        return tb_fail(err, TB_INTERNAL, "import: %s", sqlite3_errmsg(db));
    sqlite3_bind_text(s, 1, json_string_value(json_object_get(row, "hash")), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 2, campaign, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 3, json_string_value(json_object_get(row, "seat")), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(s, 4, json_integer_value(json_object_get(row, "created_ms")));
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    if (rc == SQLITE_CONSTRAINT)
        return tb_fail(err, TB_CONFLICT,
                       "a seat token of this campaign is already in the database");
    if (rc != SQLITE_DONE)
        return tb_fail(err, TB_INTERNAL, "import: %s", sqlite3_errmsg(db));
    return TB_OK;
}

/* Which events of the export carry their command's id: an idempotency row whose reply is exactly
 * the ack its event rebuilds (store__ack_text) is kept as that event's cmd_id; every other row
 * is returned in *rest (a new array) to be kept as a reply of its own. *ids is a new array, one
 * string or null per event. */
static void import__split_idem(const json_t *doc, json_t **ids, json_t **rest)
{
    json_t *events = json_object_get(doc, "events");
    *ids = json_array();
    *rest = json_array();
    for (size_t i = 0; i < json_array_size(events); i++)
        json_array_append_new(*ids, json_null());
    size_t i;
    json_t *row;
    json_array_foreach(json_object_get(doc, "idempotency"), i, row)
    {
        const char *seat = json_string_value(json_object_get(row, "seat"));
        const char *cmd_id = json_string_value(json_object_get(row, "cmd_id"));
        const char *reply = json_string_value(json_object_get(row, "reply"));
        json_t *msg = json_loads(reply, 0, NULL);
        json_int_t seq = json_integer_value(json_object_get(msg, "seq"));
        const char *t = json_string_value(json_object_get(msg, "t"));
        json_t *ev = json_array_get(events, (size_t)(seq - 1));
        int kept = 0;
        if (t && strcmp(t, "ack") == 0 && seq >= 1 && ev &&
            json_is_null(json_array_get(*ids, (size_t)(seq - 1))) &&
            strcmp(json_string_value(json_object_get(ev, "seat")), seat) == 0) {
            json_t *result = json_object_get(ev, "result");
            char *ack = store__ack_text(cmd_id, seq, json_is_null(result) ? NULL : result, 0);
            if (strcmp(ack, reply) == 0) {
                json_array_set_new(*ids, (size_t)(seq - 1), json_string(cmd_id));
                kept = 1;
            }
            free(ack);
        }
        json_decref(msg);
        if (!kept)
            json_array_append(*rest, row);
    }
}

int store_import_campaign(store *st, const json_t *doc, tb_err *err)
{
    json_t *state = NULL, *ids = NULL, *rest = NULL;
    int r = import__check(doc, &state, err);
    if (r)
        return r;
    json_t *camp = json_object_get(doc, "campaign");
    const char *id = json_string_value(json_object_get(camp, "id"));
    json_t *events = json_object_get(doc, "events");
    char path[4096];
    if ((r = store_campaign_path(st, id, path, sizeof path, err)))
        goto out;
    int known = store_campaign_exists(st, id, err);
    if (known < 0) {
        r = TB_INTERNAL;
        goto out;
    }
    if (known) {
        r = tb_fail(err, TB_CONFLICT, "campaign %s is already in this database", id);
        goto out;
    }
    if (access(path, F_OK) == 0) {
        r = tb_fail(err, TB_CONFLICT,
                    "%s exists but names no campaign of this database: move it away first", path);
        goto out;
    }
    import__split_idem(doc, &ids, &rest);
    if ((r = store_begin(st, err)))
        goto out;
    r = store_campaign_insert(st, id, json_integer_value(json_object_get(camp, "created_ms")), err);
    size_t i;
    json_t *v;
    json_array_foreach(events, i, v)
    {
        if (r)
            break;
        json_t *result = json_object_get(v, "result");
        store_event ev = {.campaign = id,
                          .seq = json_integer_value(json_object_get(v, "seq")),
                          .seat = json_string_value(json_object_get(v, "seat")),
                          .op = json_string_value(json_object_get(v, "op")),
                          .args = json_object_get(v, "args"),
                          .result = json_is_null(result) ? NULL : result,
                          .patch = json_object_get(v, "patch"),
                          .at_ms = json_integer_value(json_object_get(v, "at_ms")),
                          .cmd_id = json_string_value(json_array_get(ids, i))};
        r = store_event_append(st, &ev, err);
    }
    json_array_foreach(rest, i, v)
    {
        if (r)
            break;
        r = store_idem_put(st, id, json_string_value(json_object_get(v, "seat")),
                           json_string_value(json_object_get(v, "cmd_id")),
                           json_string_value(json_object_get(v, "reply")), err);
    }
    if (!r)
        r = store__host_w(st, err);
    json_array_foreach(json_object_get(doc, "tokens"), i, v)
    {
        if (r)
            break;
        r = import__token(store__sqlite(st), id, v, err);
    }
    if (!r)
        r = store_snapshot_put(st, id, (int64_t)json_array_size(events), state, err);
    if (!r) {
        store_summary sum;
        store_summary_of_state(state, (int64_t)json_array_size(events), &sum);
        r = store_campaign_summary_put(st, id, &sum, err);
    }
    if (!r)
        r = store_commit(st, err);
    else
        store_rollback(st);
out:
    json_decref(state);
    json_decref(ids);
    json_decref(rest);
    return r;
}
