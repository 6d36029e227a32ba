/*
 * invites.c — creation codes (invites.h).
 */
#include "invites.h"

#include <string.h>

#include "store_internal.h"

static const char TABLE[] = "CREATE TABLE IF NOT EXISTS invites ("
                            "  id TEXT PRIMARY KEY,"
                            "  left INTEGER NOT NULL,"
                            "  made INTEGER NOT NULL DEFAULT 0,"
                            "  note TEXT,"
                            "  at_ms INTEGER NOT NULL"
                            ") WITHOUT ROWID";

/* The table (made on first use: a host file of before has none), then sql prepared into *s. */
static int invites__prepare(store *st, const char *sql, sqlite3_stmt **s, tb_err *err)
{
    sqlite3 *db = store__sqlite(st);
    if (store__exec(db, TABLE, err))
        return TB_INTERNAL;
    if (sqlite3_prepare_v2(db, sql, -1, s, NULL) != SQLITE_OK)
        return tb_fail(err, TB_INTERNAL, "storage: invites: %s", sqlite3_errmsg(db));
    return TB_OK;
}

/* Steps a write statement and finalizes it; *changed: rows it changed. */
static int invites__write(store *st, sqlite3_stmt *s, int *changed, tb_err *err)
{
    int full = 0, r = store__step(s, err, "invites", &full);
    if (changed)
        *changed = sqlite3_changes(store__sqlite(st));
    sqlite3_finalize(s);
    return r;
}

int store_invite_put(store *st, const char *id, int campaigns, const char *note, int64_t at_ms,
                     tb_err *err)
{
    sqlite3_stmt *s = NULL;
    int r = store__host_w(st, err);
    if (r || (r = invites__prepare(st,
                                   "INSERT INTO invites (id, left, note, at_ms) VALUES "
                                   "(?1, ?2, ?3, ?4)",
                                   &s, err)))
        return r;
    sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 2, campaigns);
    if (note)
        sqlite3_bind_text(s, 3, note, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 4, at_ms);
    return invites__write(st, s, NULL, err);
}

int store_invite_take(store *st, const char *id, int *left, tb_err *err)
{
    sqlite3_stmt *s = NULL;
    int changed = 0;
    int r = store__host_w(st, err);
    if (r || (r = invites__prepare(st,
                                   "UPDATE invites SET left = left - 1, made = made + 1 "
                                   "WHERE id = ?1 AND left > 0",
                                   &s, err)))
        return r;
    sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
    if ((r = invites__write(st, s, &changed, err)))
        return r;
    if (changed != 1)
        return tb_fail(err, TB_FORBIDDEN,
                       "this invitation has made every campaign it may make (ask the host for "
                       "another)");
    if (invites__prepare(st, "SELECT left FROM invites WHERE id = ?1", &s, err))
        return TB_INTERNAL;
    sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
    *left = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int(s, 0) : 0;
    sqlite3_finalize(s);
    return TB_OK;
}

int store_invite_revoke(store *st, const char *id, tb_err *err)
{
    sqlite3_stmt *s = NULL;
    int changed = 0;
    int r = store__host_w(st, err);
    if (r || (r = invites__prepare(st, "UPDATE invites SET left = 0 WHERE id = ?1", &s, err)))
        return r;
    sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
    if ((r = invites__write(st, s, &changed, err)))
        return r;
    return changed == 1 ? TB_OK : tb_fail(err, TB_NOT_FOUND, "no invitation '%.32s'", id);
}

int store_invites_json(store *st, json_t **out, tb_err *err)
{
    sqlite3_stmt *s = NULL;
    *out = NULL;
    if (invites__prepare(st, "SELECT id, left, made, note, at_ms FROM invites ORDER BY at_ms, id",
                         &s, err))
        return TB_INTERNAL;
    json_t *list = json_array();
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        json_t *one =
            json_pack("{s:s, s:i, s:i, s:I}", "invite", (const char *)sqlite3_column_text(s, 0),
                      "left", sqlite3_column_int(s, 1), "made", sqlite3_column_int(s, 2), "at_ms",
                      (json_int_t)sqlite3_column_int64(s, 4));
        if (sqlite3_column_type(s, 3) == SQLITE_TEXT) /* the host's note, when it gave one */
            json_object_set_new(one, "note", json_string((const char *)sqlite3_column_text(s, 3)));
        json_array_append_new(list, one);
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE) {
        json_decref(list);
        return tb_fail(err, TB_INTERNAL, "storage: invites: %s", sqlite3_errmsg(store__sqlite(st)));
    }
    *out = list;
    return TB_OK;
}
