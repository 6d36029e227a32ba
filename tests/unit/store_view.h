/*
 * store_view.h — for the Check suites that look at the database behind the store's back: opens
 * the host file of a data directory with every campaign file attached, and temp views that give
 * them the shape the single file had before issue 26/28 (storage/README.md): events, snapshots
 * and idempotency with a campaign column. So an assertion's SQL reads the data directory as it
 * read the one file. At most 9 campaign files (SQLite attaches 10 databases).
 */
#ifndef TABLED_TEST_STORE_VIEW_H
#define TABLED_TEST_STORE_VIEW_H

#include <check.h>
#include <dirent.h>
#include <stdarg.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Appends printf-formatted text to the growing buffer *buf. */
static void store_view__cat(char **buf, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void store_view__cat(char **buf, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    *buf = realloc(*buf, *len + (size_t)n + 1);
    ck_assert_ptr_nonnull(*buf);
    va_start(ap, fmt);
    vsnprintf(*buf + *len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    *len += (size_t)n;
}

/* A connection to host_path (opened with flags) with the campaign files of host_path.campaigns/
 * attached and the views of the single-file layout created. */
static sqlite3 *store_view_open(const char *host_path, int flags)
{
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(host_path, &db, flags, NULL);
    ck_assert_msg(rc == SQLITE_OK, "sqlite3_open_v2: %s", db ? sqlite3_errmsg(db) : "?");
    sqlite3_busy_timeout(db, 5000);
    char dir[512], ids[9][40];
    int n = 0;
    snprintf(dir, sizeof dir, "%s.campaigns", host_path);
    DIR *d = opendir(dir);
    for (struct dirent *de; d && (de = readdir(d));) {
        size_t l = strlen(de->d_name);
        if (l < 4 || l > 35 || strcmp(de->d_name + l - 3, ".db") != 0)
            continue;
        ck_assert_msg(n < 9, "more than 9 campaign files in %s", dir);
        snprintf(ids[n], sizeof ids[n], "%.*s", (int)(l - 3), de->d_name);
        n++;
    }
    if (d)
        closedir(d);
    char *sql = NULL;
    size_t len = 0;
    for (int i = 0; i < n; i++)
        store_view__cat(&sql, &len, "ATTACH DATABASE '%s/%s.db' AS c%d;", dir, ids[i], i);
    store_view__cat(&sql, &len, "CREATE TEMP VIEW events AS ");
    for (int i = 0; i < n; i++)
        store_view__cat(&sql, &len,
                        "SELECT '%s' AS campaign, seq, seat, op, args, result, patch, at_ms"
                        " FROM c%d.events UNION ALL ",
                        ids[i], i);
    store_view__cat(&sql, &len,
                    "SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL WHERE 0;"
                    "CREATE TEMP VIEW snapshots AS ");
    for (int i = 0; i < n; i++)
        store_view__cat(&sql, &len,
                        "SELECT '%s' AS campaign, seq, state FROM c%d.snapshots UNION ALL ", ids[i],
                        i);
    store_view__cat(&sql, &len,
                    "SELECT NULL, NULL, NULL WHERE 0;"
                    "CREATE TEMP VIEW idempotency AS SELECT campaign, seat, cmd_id, reply"
                    " FROM main.idempotency");
    for (int i = 0; i < n; i++)
        store_view__cat(&sql, &len,
                        " UNION ALL SELECT '%s', seat, cmd_id, reply FROM c%d.replies"
                        " UNION ALL SELECT '%s', seat, cmd_id, CASE WHEN ack_entry IS NULL"
                        " THEN json_object('t', 'ack', 'id', cmd_id, 'seq', coalesce(ack_seq, seq),"
                        " 'result', json(result)) ELSE json_object('t', 'ack', 'id', cmd_id, 'seq',"
                        " coalesce(ack_seq, seq), 'result', json(result), 'entry', ack_entry) END "
                        "FROM c%d.events"
                        " WHERE cmd_id IS NOT NULL",
                        ids[i], i, ids[i], i);
    store_view__cat(&sql, &len, ";");
    char *msg = NULL;
    rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    ck_assert_msg(rc == SQLITE_OK, "the views of %s: %s", host_path, msg ? msg : "?");
    free(sql);
    return db;
}

/* Removes dir and what it holds, one level of subdirectories deep (a data directory: the host
 * file and its campaigns directory). */
static void store_view_rmdir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *de;
        char p[1024];
        while ((de = readdir(d)) != NULL) {
            if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                continue;
            snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
            if (unlink(p) != 0) {
                DIR *sub = opendir(p);
                struct dirent *se;
                char q[1536];
                while (sub && (se = readdir(sub)) != NULL) {
                    snprintf(q, sizeof q, "%s/%s", p, se->d_name);
                    unlink(q);
                }
                if (sub)
                    closedir(sub);
                rmdir(p);
            }
        }
        closedir(d);
    }
    rmdir(dir);
}

#endif
