#include "backup.h"
#include "history.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store_internal.h"

/* Opens db_path on a connection of its own (a long busy wait: a server may be writing). */
static int backup__open(const char *path, int flags, sqlite3 **db, tb_err *err)
{
    int r = store__open_db(path, flags, db, err);
    if (!r)
        sqlite3_busy_timeout(*db, 10000);
    return r;
}

/* The directory part of path ("." when none), into out. */
static void backup__dirname(const char *path, char *out, size_t n)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(out, n, ".");
    else if (slash == path)
        snprintf(out, n, "/");
    else
        snprintf(out, n, "%.*s", (int)(slash - path), path);
}

/* Checks a finished copy: it opens, passes integrity_check, has tabled's schema version. */
static int backup__verify(const char *path, tb_err *err)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *s = NULL;
    int r = backup__open(path, SQLITE_OPEN_READONLY, &db, err);
    if (r)
        return r;
    r = TB_INTERNAL;
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &s, NULL) != SQLITE_OK ||
        sqlite3_step(s) != SQLITE_ROW) {
        tb_fail(err, TB_INTERNAL, "cannot check the copy: %s", sqlite3_errmsg(db));
        goto out;
    }
    const char *res = (const char *)sqlite3_column_text(s, 0);
    if (!res || strcmp(res, "ok") != 0) {
        tb_fail(err, TB_INTERNAL, "the copy failed its integrity check: %.120s",
                res ? res : "(no answer)");
        goto out;
    }
    sqlite3_finalize(s);
    s = NULL;
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &s, NULL) != SQLITE_OK ||
        sqlite3_step(s) != SQLITE_ROW || sqlite3_column_int(s, 0) < 1) {
        tb_fail(err, TB_INTERNAL, "the copy is not a tabled database");
        goto out;
    }
    r = TB_OK;
out:
    sqlite3_finalize(s);
    sqlite3_close(db);
    return r;
}

/* The acks of campaign id's commands (attached as c) as the single file kept them: one
 * idempotency row each, rebuilt from its event (store__ack_text). */
static int backup__acks(sqlite3 *out, const char *id, tb_err *err)
{
    sqlite3_stmt *acks = NULL, *put = NULL;
    int rc = SQLITE_ERROR;
    if (sqlite3_prepare_v2(out,
                           "SELECT seq, seat, cmd_id, result, coalesce(ack_seq, seq),"
                           " coalesce(ack_entry, 0) FROM c.events"
                           " WHERE cmd_id IS NOT NULL ORDER BY seq",
                           -1, &acks, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(out,
                           "INSERT OR IGNORE INTO idempotency (campaign, seat, cmd_id, reply)"
                           " VALUES (?1, ?2, ?3, ?4)",
                           -1, &put, NULL) != SQLITE_OK)
        goto out;
    while ((rc = sqlite3_step(acks)) == SQLITE_ROW) {
        json_t *result =
            json_loads((const char *)sqlite3_column_text(acks, 3), JSON_DECODE_ANY, NULL);
        char *ack = store__ack_text(
            (const char *)sqlite3_column_text(acks, 2), sqlite3_column_int64(acks, 4),
            json_is_null(result) ? NULL : result, sqlite3_column_int64(acks, 5));
        json_decref(result);
        sqlite3_reset(put);
        sqlite3_bind_text(put, 1, id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(put, 2, (const char *)sqlite3_column_text(acks, 1), -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(put, 3, (const char *)sqlite3_column_text(acks, 2), -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(put, 4, ack, -1, free);
        if (sqlite3_step(put) != SQLITE_DONE) {
            rc = SQLITE_ERROR;
            break;
        }
    }
out:
    if (rc != SQLITE_DONE)
        tb_fail(err, TB_INTERNAL, "cannot write the backup: %s", sqlite3_errmsg(out));
    sqlite3_finalize(acks);
    sqlite3_finalize(put);
    return rc == SQLITE_DONE ? TB_OK : TB_INTERNAL;
}

/* Copies campaign id's file at path into out, inside one read transaction of that file. */
static int backup__campaign(sqlite3 *out, const char *id, const char *path, tb_err *err)
{
    int r = store__run1(out, "ATTACH DATABASE ?1 AS c", path, err);
    if (r)
        return r;
    char sql[1024];
    snprintf(sql, sizeof sql,
             "BEGIN;"
             "INSERT INTO events SELECT '%s', seq, seat, op, args, result, patch, at_ms"
             " FROM c.events ORDER BY seq;"
             "INSERT INTO snapshots SELECT '%s', seq, state FROM c.snapshots;"
             "INSERT OR IGNORE INTO idempotency SELECT '%s', seat, cmd_id, reply FROM c.replies;",
             id, id, id); /* the id is checked: [a-z0-9] */
    r = store__exec(out, sql, err);
    if (!r)
        r = backup__acks(out, id, err);
    if (!r)
        r = store__exec(out, "COMMIT", err);
    else
        store__exec(out, "ROLLBACK", NULL);
    store__exec(out, "DETACH DATABASE c", NULL);
    return r;
}

/* Copies the store whose host file is db_path into out, a new file with the schema-1 tables
 * (legacy.c): the host's rows, then each campaign's file attached in turn and copied inside one
 * read transaction of its own (a consistent campaign while the server keeps writing). An event
 * that carries its command's id gives back the ack row the single file kept for it. */
static int backup__bundle(sqlite3 *out, const char *db_path, tb_err *err)
{
    int r;
    if ((r = store__exec(out, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF", err)) ||
        (r = store__exec(out, LEGACY_SCHEMA_1, err)) ||
        (r = store__exec(out, "PRAGMA user_version = 1", err)) ||
        (r = store__run1(out, "ATTACH DATABASE ?1 AS h", db_path, err)))
        return r;
    r = store__exec(out,
                    "BEGIN;"
                    "INSERT INTO campaigns (id, created_ms) SELECT id, created_ms FROM h.campaigns;"
                    "INSERT INTO tokens SELECT hash, campaign, seat, created_ms FROM h.tokens;"
                    "INSERT INTO idempotency SELECT campaign, seat, cmd_id, reply"
                    " FROM h.idempotency WHERE campaign = '';"
                    "COMMIT;",
                    err);
    store__exec(out, "DETACH DATABASE h", NULL);
    if (r)
        return r;
    /* The ids first: a statement still running keeps the read transaction DETACH refuses. */
    json_t *ids = json_array();
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(out, "SELECT id FROM campaigns ORDER BY created_ms, id", -1, &s, NULL) !=
        SQLITE_OK) {
        json_decref(ids);
        return tb_fail(err, TB_INTERNAL, "cannot write the backup: %s", sqlite3_errmsg(out));
    }
    while (sqlite3_step(s) == SQLITE_ROW)
        json_array_append_new(ids, json_string((const char *)sqlite3_column_text(s, 0)));
    sqlite3_finalize(s);
    size_t i;
    json_t *v;
    json_array_foreach(ids, i, v)
    {
        const char *id = json_string_value(v);
        char path[4300];
        snprintf(path, sizeof path, "%s.campaigns/%s.db", db_path, id);
        if (!store__id_ok(id) || access(path, F_OK) != 0)
            continue; /* registered, never written */
        if ((r = backup__campaign(out, id, path, err)))
            break;
    }
    json_decref(ids);
    return r;
}

int store_backup(const char *db_path, const char *dest, tb_err *err)
{
    struct stat sb;
    if (stat(dest, &sb) == 0)
        return tb_fail(err, TB_CONFLICT, "%s already exists; choose a new name", dest);
    if (stat(db_path, &sb) != 0)
        return tb_fail(err, TB_NOT_FOUND, "no database at %s", db_path);
    size_t n = strlen(dest) + 32;
    char *tmp = xmalloc(n);
    snprintf(tmp, n, "%s.tmp-%ld", dest, (long)getpid());
    unlink(tmp); /* left by an earlier run of this pid that crashed */
    sqlite3 *db = NULL;
    sqlite3_stmt *s = NULL;
    int r = backup__open(db_path, SQLITE_OPEN_READWRITE, &db, err);
    if (r)
        goto out;
    sqlite3_busy_timeout(db, 10000);
    int64_t version = store__int(db, "PRAGMA user_version", -1);
    if (version < 1) {
        r = tb_fail(err, TB_BAD_REQUEST, "%s is not a tabled database", db_path);
        goto out;
    }
    if (version == 1) {
        /* The single-file layout: one read transaction gives a consistent snapshot of the whole
         * file, while a server keeps committing. */
        if (sqlite3_prepare_v2(db, "VACUUM INTO ?1", -1, &s, NULL) != SQLITE_OK) {
            r = tb_fail(err, TB_INTERNAL, "cannot back up %s: %s", db_path, sqlite3_errmsg(db));
            goto out;
        }
        sqlite3_bind_text(s, 1, tmp, -1, SQLITE_STATIC);
        if (sqlite3_step(s) != SQLITE_DONE) {
            r = tb_fail(err, TB_INTERNAL, "cannot write the backup %s: %s", dest,
                        sqlite3_errmsg(db));
            goto out;
        }
        sqlite3_finalize(s);
        s = NULL;
    } else {
        sqlite3 *out = NULL;
        if ((r = backup__open(tmp, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &out, err)))
            goto out;
        r = backup__bundle(out, db_path, err);
        sqlite3_close(out);
        if (r)
            goto out;
    }
    sqlite3_close(db);
    db = NULL;
    /* the copy is another history from here on (history.h): the first server to open it says so */
    if ((r = backup__open(tmp, SQLITE_OPEN_READWRITE, &db, err)))
        goto out;
    if ((r = store_history_mark_copy(db, err)) ||
        sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL) != SQLITE_OK) {
        r = r ? r : tb_fail(err, TB_INTERNAL, "cannot mark the backup: %s", sqlite3_errmsg(db));
        goto out;
    }
    sqlite3_close(db);
    db = NULL;
    char dir[4096];
    backup__dirname(dest, dir, sizeof dir);
    if ((r = backup__verify(tmp, err)) || (r = store__fsync_path(tmp, 0, err)))
        goto out;
    if (rename(tmp, dest) != 0) {
        r = tb_fail(err, TB_INTERNAL, "cannot rename the backup to %s: %s", dest, strerror(errno));
        goto out;
    }
    r = store__fsync_path(dir, 1, err);
out:
    sqlite3_finalize(s);
    sqlite3_close(db);
    if (r)
        unlink(tmp);
    free(tmp);
    return r;
}

/* A rolling backup's place in the order of writing: the N of "<prefix><stamp>-n<N>.db", 0 for a
 * name without one (written by an older tabled: older than every numbered one). */
static unsigned long long backup__number(const char *name)
{
    const char *dot = strrchr(name, '.');
    const char *n = dot;
    while (n && n > name && n[-1] >= '0' && n[-1] <= '9')
        n--;
    if (!n || n == dot || n - name < 2 || n[-1] != 'n' || n[-2] != '-')
        return 0;
    return strtoull(n, NULL, 10);
}

typedef struct backup__file {
    char *name;
    unsigned long long number;
} backup__file;

static int backup__by_age(const void *a, const void *b)
{
    const backup__file *x = a, *y = b;
    if (x->number != y->number)
        return x->number < y->number ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* The rolling backups dir/<prefix>*.db, oldest first (by number, then by name), into *out (the
 * caller frees each name and the array). */
static int backup__list(const char *dir, const char *prefix, backup__file **out, size_t *n_out,
                        tb_err *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return tb_fail(err, TB_INTERNAL, "cannot list %s: %s", dir, strerror(errno));
    backup__file *files = NULL;
    size_t n = 0, cap = 0, plen = strlen(prefix);
    for (struct dirent *de; (de = readdir(d));) {
        size_t l = strlen(de->d_name);
        if (l < plen + 3 || strncmp(de->d_name, prefix, plen) != 0 ||
            strcmp(de->d_name + l - 3, ".db") != 0)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            files = xrealloc(files, cap * sizeof *files);
        }
        files[n].name = xstrdup(de->d_name);
        files[n].number = backup__number(de->d_name);
        n++;
    }
    closedir(d);
    if (n)
        qsort(files, n, sizeof *files, backup__by_age);
    *out = files;
    *n_out = n;
    return TB_OK;
}

/* Deletes the oldest dir/<prefix>*.db beyond the newest keep. Issue 27 item 6: "oldest" is the
 * order of writing (the number in the name), not the time stamp: after a clock that ran ahead
 * was set back, stamps no longer sort, and pruning by them deleted every new backup. */
static int backup__prune(const char *dir, const char *prefix, int keep, tb_err *err)
{
    backup__file *files;
    size_t n;
    int r = backup__list(dir, prefix, &files, &n, err);
    if (r)
        return r;
    for (size_t i = 0; i < n; i++) {
        if (keep >= 0 && i + (size_t)keep < n && !r) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, files[i].name);
            if (unlink(path) != 0)
                r = tb_fail(err, TB_INTERNAL, "cannot delete the old backup %s: %s", path,
                            strerror(errno));
        }
        free(files[i].name);
    }
    free(files);
    return r;
}

int store_backup_rolling(const char *db_path, const char *dir, const char *prefix, int keep,
                         char **written, tb_err *err)
{
    if (written)
        *written = NULL;
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return tb_fail(err, TB_INTERNAL, "cannot create %s: %s", dir, strerror(errno));
    /* the next number: one past the newest backup's */
    backup__file *files;
    size_t n;
    int r = backup__list(dir, prefix, &files, &n, err);
    if (r)
        return r;
    unsigned long long next = n ? files[n - 1].number + 1 : 1;
    for (size_t i = 0; i < n; i++)
        free(files[i].name);
    free(files);
    char stamp[48], path[4096];
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    size_t sl = strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    snprintf(stamp + sl, sizeof stamp - sl, "-%03ld", ts.tv_nsec / 1000000);
    struct stat sb;
    snprintf(path, sizeof path, "%s/%s%s-n%llu.db", dir, prefix, stamp, next);
    for (int i = 2; stat(path, &sb) == 0 && i < 100; i++)
        snprintf(path, sizeof path, "%s/%s%s-%02d-n%llu.db", dir, prefix, stamp, i, next);
    r = store_backup(db_path, path, err);
    if (r)
        return r;
    if (written)
        *written = xstrdup(path);
    r = backup__prune(dir, prefix, keep, err);
    if (!r && stat(path, &sb) != 0)
        r = tb_fail(err, TB_INTERNAL, "the new backup %s was deleted while old ones were pruned",
                    path);
    return r;
}

int store_checkpoint(const char *db_path, int *wal_frames, int *done, tb_err *err)
{
    sqlite3 *db = NULL;
    int r = backup__open(db_path, SQLITE_OPEN_READWRITE, &db, err);
    if (r)
        return r;
    int log = 0, ckpt = 0;
    /* A connection finds the database in WAL mode on its first read: before it, a checkpoint
     * is a silent no-op. */
    if (sqlite3_exec(db, "PRAGMA schema_version", NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_PASSIVE, &log, &ckpt) != SQLITE_OK)
        r = tb_fail(err, TB_INTERNAL, "checkpoint of %s failed: %s", db_path, sqlite3_errmsg(db));
    sqlite3_close(db);
    if (wal_frames)
        *wal_frames = log;
    if (done)
        *done = ckpt;
    return r;
}
