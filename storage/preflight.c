#include "preflight.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* Size of path, -1 when it does not exist (or cannot be looked at). */
static long long preflight__size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* Runs a one-row, one-column pragma into out. 0, or SQLite's error code. */
static int preflight__pragma(sqlite3 *db, const char *sql, char *out, size_t n)
{
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &s, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(s);
        if (rc == SQLITE_ROW) {
            const unsigned char *t = sqlite3_column_text(s, 0);
            snprintf(out, n, "%s", t ? (const char *)t : "");
            rc = SQLITE_OK;
        }
    }
    sqlite3_finalize(s);
    return rc;
}

int store_preflight(const char *path, int flags, tb_err *err)
{
    char wal[4096];
    snprintf(wal, sizeof wal, "%s-wal", path);
    long long size = preflight__size(path), wal_size = preflight__size(wal);
    if (size <= 0 && wal_size > 0)
        return tb_fail(err, TB_CONFLICT,
                       "%s is %s but %s holds %lld bytes of its latest changes: opening it would "
                       "start a new, empty database. Put the whole database back (restore it "
                       "from a backup, or copy %s and %s together), or move %s away if you "
                       "really want to start over",
                       path, size < 0 ? "missing" : "empty", wal, wal_size, path, wal, wal);
    if (size < 0) {
        if (flags & STORE_PREFLIGHT_MUST_EXIST)
            return tb_fail(err, TB_NOT_FOUND, "there is no database at %s", path);
        return TB_OK;
    }
    if (size == 0)
        return TB_OK; /* a new, empty file: store_open makes it a database */
    sqlite3 *db = NULL;
    char res[256] = "";
    int r = TB_OK;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        r = tb_fail(err, TB_INTERNAL, "cannot open %s: %s", path,
                    db ? sqlite3_errmsg(db) : "out of memory");
        goto out;
    }
    sqlite3_busy_timeout(db, 10000);
    /* quick_check: every page of every b-tree read and checked, without the slower index
     * cross-checks of integrity_check; a start reads the whole file once. */
    int rc = preflight__pragma(db, "PRAGMA quick_check", res, sizeof res);
    if (rc != SQLITE_OK || strcmp(res, "ok") != 0) {
        r = tb_fail(err, TB_INTERNAL,
                    "%s failed its integrity check (%.160s): it is damaged or not a database. "
                    "Nothing was changed; start from your newest backup (README, \"Backups\")",
                    path, rc != SQLITE_OK ? sqlite3_errmsg(db) : res);
        goto out;
    }
    char version[32] = "", tables[32] = "";
    if (preflight__pragma(db, "PRAGMA user_version", version, sizeof version) != SQLITE_OK ||
        preflight__pragma(db, "SELECT count(*) FROM sqlite_schema", tables, sizeof tables) !=
            SQLITE_OK) {
        r = tb_fail(err, TB_INTERNAL, "cannot read %s: %s", path, sqlite3_errmsg(db));
        goto out;
    }
    if (strcmp(version, "0") == 0 && strcmp(tables, "0") != 0)
        r = tb_fail(err, TB_INTERNAL,
                    "%s is an SQLite database, but not a tabled one; nothing was changed", path);
out:
    sqlite3_close(db);
    return r;
}
