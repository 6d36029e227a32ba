/*
 * moved.c — campaigns this process gave away (moved.h).
 */
#include "moved.h"

#include <stdio.h>
#include <string.h>

#include "store_internal.h"

static const char TABLE[] = "CREATE TABLE IF NOT EXISTS moved ("
                            "  campaign TEXT PRIMARY KEY,"
                            "  to_where TEXT NOT NULL,"
                            "  at_ms INTEGER NOT NULL"
                            ") WITHOUT ROWID";

/* Prepares sql into *s; 1 when the table does not exist yet (a host file of before: nothing has
 * moved), 0 when prepared, -1 on another error. */
static int moved__prepare(sqlite3 *db, const char *sql, sqlite3_stmt **s, tb_err *err)
{
    if (sqlite3_prepare_v2(db, sql, -1, s, NULL) == SQLITE_OK)
        return 0;
    if (strstr(sqlite3_errmsg(db), "no such table"))
        return 1;
    tb_fail(err, TB_INTERNAL, "storage: moved: %s", sqlite3_errmsg(db));
    return -1;
}

int store_moved_put(store *st, const char *id, const char *to, int64_t at_ms, tb_err *err)
{
    sqlite3 *db = store__sqlite(st);
    sqlite3_stmt *s = NULL;
    int r = store__host_w(st, err);
    if (r || (r = store__exec(db, TABLE, err)))
        return r;
    if (moved__prepare(
            db, "INSERT OR IGNORE INTO moved (campaign, to_where, at_ms) VALUES (?1, ?2, ?3)", &s,
            err))
        return TB_INTERNAL;
    sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, to ? to : "", -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 3, at_ms);
    int full = 0;
    r = store__step(s, err, "moved", &full);
    sqlite3_finalize(s);
    return r;
}

int store_moved_find(store *st, const char *id, char *to, unsigned long cap, tb_err *err)
{
    sqlite3_stmt *s = NULL;
    int r = moved__prepare(store__sqlite(st), "SELECT to_where FROM moved WHERE campaign = ?1", &s,
                           err);
    if (r)
        return r > 0 ? 0 : -1;
    sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
    int found = sqlite3_step(s) == SQLITE_ROW;
    if (found && to && cap)
        snprintf(to, cap, "%s", (const char *)sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
    return found;
}
