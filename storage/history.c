#include "history.h"

#include <stdio.h>
#include <string.h>

#include "store_internal.h"

static const char TABLE[] = "CREATE TABLE IF NOT EXISTS tabled_meta ("
                            "  key TEXT PRIMARY KEY,"
                            "  value TEXT NOT NULL"
                            ") WITHOUT ROWID";

static int history__exec(sqlite3 *db, const char *sql, tb_err *err)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        tb_fail(err, TB_INTERNAL, "storage: history: %s", msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        return TB_INTERNAL;
    }
    return TB_OK;
}

/* The value of key in tabled_meta into out ("" when absent). */
static int history__get(sqlite3 *db, const char *key, char *out, size_t n, tb_err *err)
{
    sqlite3_stmt *s = NULL;
    out[0] = '\0';
    if (sqlite3_prepare_v2(db, "SELECT value FROM tabled_meta WHERE key = ?1", -1, &s, NULL) !=
        SQLITE_OK)
        return tb_fail(err, TB_INTERNAL, "storage: history: %s", sqlite3_errmsg(db));
    sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        snprintf(out, n, "%s", (const char *)sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return tb_fail(err, TB_INTERNAL, "storage: history: %s", sqlite3_errmsg(db));
    return TB_OK;
}

int store_history(store *st, const char *fresh, char out[STORE_HISTORY_MAX], tb_err *err)
{
    sqlite3 *db = store__sqlite(st);
    char copy[8];
    out[0] = '\0';
    if (history__exec(db, "BEGIN IMMEDIATE", err))
        return TB_INTERNAL;
    int r = history__exec(db, TABLE, err);
    if (!r)
        r = history__get(db, "history", out, STORE_HISTORY_MAX, err);
    if (!r)
        r = history__get(db, "copy", copy, sizeof copy, err);
    if (!r && (!out[0] || copy[0])) {
        sqlite3_stmt *s = NULL;
        if (sqlite3_prepare_v2(db,
                               "INSERT OR REPLACE INTO tabled_meta (key, value) VALUES "
                               "('history', ?1)",
                               -1, &s, NULL) != SQLITE_OK) {
            r = tb_fail(err, TB_INTERNAL, "storage: history: %s", sqlite3_errmsg(db));
        } else {
            sqlite3_bind_text(s, 1, fresh, -1, SQLITE_STATIC);
            if (sqlite3_step(s) != SQLITE_DONE)
                r = tb_fail(err, TB_INTERNAL, "storage: history: %s", sqlite3_errmsg(db));
            sqlite3_finalize(s);
        }
        if (!r)
            r = history__exec(db, "DELETE FROM tabled_meta WHERE key = 'copy'", err);
        if (!r)
            snprintf(out, STORE_HISTORY_MAX, "%s", fresh);
    }
    if (!r)
        r = history__exec(db, "COMMIT", err);
    if (r) {
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        out[0] = '\0';
    }
    return r;
}

int store_history_mark_copy(sqlite3 *db, tb_err *err)
{
    if (history__exec(db, TABLE, err) ||
        history__exec(db, "INSERT OR REPLACE INTO tabled_meta (key, value) VALUES ('copy', '1')",
                      err))
        return TB_INTERNAL;
    return TB_OK;
}
