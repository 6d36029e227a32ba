/*
 * legacy.c — the single-file layout of schema 1: every campaign's events, idempotency rows and
 * snapshots in one file. tabled wrote it up to issue 26/28; a backup still is one (backup.h), so
 * that a copy is one file a server starts from. Opening one splits it into a campaign file each
 * (store.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store_internal.h"

const char LEGACY_SCHEMA_1[] = "CREATE TABLE campaigns ("
                               "  id TEXT PRIMARY KEY,"
                               "  created_ms INTEGER NOT NULL"
                               ");"
                               "CREATE TABLE events ("
                               "  campaign TEXT NOT NULL,"
                               "  seq INTEGER NOT NULL,"
                               "  seat TEXT NOT NULL,"
                               "  op TEXT NOT NULL,"
                               "  args TEXT NOT NULL,"
                               "  result TEXT NOT NULL,"
                               "  patch TEXT NOT NULL,"
                               "  at_ms INTEGER NOT NULL,"
                               "  PRIMARY KEY (campaign, seq)"
                               ") WITHOUT ROWID;"
                               "CREATE TABLE idempotency ("
                               "  campaign TEXT NOT NULL,"
                               "  seat TEXT NOT NULL,"
                               "  cmd_id TEXT NOT NULL,"
                               "  reply TEXT NOT NULL,"
                               "  PRIMARY KEY (campaign, seat, cmd_id)"
                               ") WITHOUT ROWID;"
                               "CREATE TABLE snapshots ("
                               "  campaign TEXT NOT NULL,"
                               "  seq INTEGER NOT NULL,"
                               "  state TEXT NOT NULL,"
                               "  PRIMARY KEY (campaign, seq)"
                               ") WITHOUT ROWID;"
                               "CREATE TABLE tokens ("
                               "  hash TEXT PRIMARY KEY,"
                               "  campaign TEXT NOT NULL,"
                               "  seat TEXT NOT NULL,"
                               "  created_ms INTEGER NOT NULL"
                               ") WITHOUT ROWID;"
                               "CREATE INDEX tokens_by_seat ON tokens (campaign, seat);";

static int legacy__fail(sqlite3 *db, tb_err *err, const char *what)
{
    return tb_fail(err, TB_INTERNAL, "storage: splitting the database: %s: %s", what,
                   sqlite3_errmsg(db));
}

/*
 * The idempotency rows of campaign id go to its file: an ack that is exactly what the event it
 * names rebuilds (store__ack_text) becomes that event's cmd_id; any other reply (a refusal, or an
 * ack that would not come back byte for byte) goes to the replies table as it was. new is the
 * campaign file's connection, with the old file attached as "legacy" and a transaction open.
 */
static int legacy__replies(sqlite3 *new, const char *id, tb_err *err)
{
    sqlite3_stmt *rows = NULL, *ev = NULL, *set = NULL, *put = NULL;
    int r = TB_INTERNAL;
    if (sqlite3_prepare_v2(new,
                           "SELECT seat, cmd_id, reply FROM legacy.idempotency WHERE campaign = ?1",
                           -1, &rows, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(new, "SELECT seat, result, at_ms FROM events WHERE seq = ?1", -1, &ev,
                           NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(new, "UPDATE events SET cmd_id = ?2 WHERE seq = ?1 AND cmd_id IS NULL",
                           -1, &set, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(
            new, "INSERT INTO replies (at_ms, seat, cmd_id, reply) VALUES (?1, ?2, ?3, ?4)", -1,
            &put, NULL) != SQLITE_OK) {
        legacy__fail(new, err, "reading idempotency");
        goto out;
    }
    sqlite3_bind_text(rows, 1, id, -1, SQLITE_TRANSIENT);
    int rc;
    while ((rc = sqlite3_step(rows)) == SQLITE_ROW) {
        const char *seat = (const char *)sqlite3_column_text(rows, 0);
        const char *cmd_id = (const char *)sqlite3_column_text(rows, 1);
        const char *reply = (const char *)sqlite3_column_text(rows, 2);
        json_t *msg = json_loads(reply, 0, NULL);
        json_t *seqv = json_object_get(msg, "seq");
        const char *t = json_string_value(json_object_get(msg, "t"));
        int64_t at_ms = 0;
        int matched = 0;
        if (t && strcmp(t, "ack") == 0 && json_is_integer(seqv)) {
            sqlite3_reset(ev);
            sqlite3_bind_int64(ev, 1, json_integer_value(seqv));
            if (sqlite3_step(ev) == SQLITE_ROW) {
                at_ms = sqlite3_column_int64(ev, 2);
                json_t *result =
                    json_loads((const char *)sqlite3_column_text(ev, 1), JSON_DECODE_ANY, NULL);
                if (result && strcmp((const char *)sqlite3_column_text(ev, 0), seat) == 0) {
                    char *ack = store__ack_text(cmd_id, json_integer_value(seqv),
                                                json_is_null(result) ? NULL : result, 0);
                    if (strcmp(ack, reply) == 0) {
                        sqlite3_reset(set);
                        sqlite3_bind_int64(set, 1, json_integer_value(seqv));
                        sqlite3_bind_text(set, 2, cmd_id, -1, SQLITE_TRANSIENT);
                        matched = sqlite3_step(set) == SQLITE_DONE && sqlite3_changes(new) == 1;
                    }
                    free(ack);
                }
                json_decref(result);
            }
        }
        json_decref(msg);
        if (!matched) {
            sqlite3_reset(put);
            sqlite3_bind_int64(put, 1, at_ms);
            sqlite3_bind_text(put, 2, seat, -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(put, 3, cmd_id, -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(put, 4, reply, -1, SQLITE_TRANSIENT);
            if (sqlite3_step(put) != SQLITE_DONE) {
                legacy__fail(new, err, "writing a reply");
                goto out;
            }
        }
    }
    if (rc != SQLITE_DONE) {
        legacy__fail(new, err, "reading idempotency");
        goto out;
    }
    r = TB_OK;
out:
    sqlite3_finalize(rows);
    sqlite3_finalize(ev);
    sqlite3_finalize(set);
    sqlite3_finalize(put);
    return r;
}

/* Writes campaign id's file from the old file at old_path, under a temporary name, synced, then
 * renamed into place; *summary gets the summary of its state (a new object). */
static int legacy__one(const char *old_path, const char *dir, const char *id, json_t **summary,
                       tb_err *err)
{
    char path[4096], tmp[4200];
    *summary = NULL;
    if (!store__id_ok(id))
        return tb_fail(err, TB_INTERNAL, "storage: splitting the database: bad campaign id %.40s",
                       id);
    snprintf(path, sizeof path, "%s/%s.db", dir, id);
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid());
    char side[4300];
    unlink(tmp); /* left by an earlier attempt of this pid */
    snprintf(side, sizeof side, "%s-wal", tmp);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", tmp);
    unlink(side);
    campfile *f = NULL;
    int r = campfile_open(tmp, id, 1, 0, &f, err);
    if (r)
        return r;
    sqlite3 *db = campfile_sqlite(f);
    if ((r = store__run1(db, "ATTACH DATABASE ?1 AS legacy", old_path, err)))
        goto out;
    if ((r = store__exec(db, "BEGIN IMMEDIATE", err)))
        goto detach;
    if ((r = store__run1(db,
                         "INSERT INTO events (seq, at_ms, seat, op, cmd_id, args, result, patch)"
                         " SELECT seq, at_ms, seat, op, NULL, args, result, patch"
                         " FROM legacy.events WHERE campaign = ?1 ORDER BY seq",
                         id, err)) ||
        (r = store__run1(db,
                         "INSERT INTO snapshots (seq, state) SELECT seq, state"
                         " FROM legacy.snapshots WHERE campaign = ?1",
                         id, err)) ||
        (r = legacy__replies(db, id, err))) {
        store__exec(db, "ROLLBACK", NULL);
        goto detach;
    }
    r = store__exec(db, "COMMIT", err);
detach:
    store__exec(db, "DETACH DATABASE legacy", NULL);
    if (r)
        goto out;
    json_t *state = NULL;
    int64_t seq = 0;
    if ((r = campfile_load(f, 0, &state, &seq, err)))
        goto out;
    store_summary sum;
    store_summary_of_state(state, seq, &sum);
    *summary = json_pack("{s:s, s:s?, s:s?, s:s?, s:I, s:I}", "id", id, "name", sum.name, "system",
                         sum.system, "join_code", sum.join_code, "seq", (json_int_t)sum.seq,
                         "seats", (json_int_t)sum.seats);
    json_decref(state);
out:
    campfile_close(f); /* the last connection: the WAL is checkpointed into the file and removed */
    if (!r && (r = store__fsync_path(tmp, 0, err)) == TB_OK && rename(tmp, path) != 0)
        r = tb_fail(err, TB_INTERNAL, "storage: cannot rename %s: %s", tmp, strerror(errno));
    if (r) {
        json_decref(*summary);
        *summary = NULL;
        unlink(tmp);
    }
    return r;
}

int legacy_split(sqlite3 *db, const char *dir, int sync_full, tb_err *err)
{
    (void)sync_full; /* each file is synced by hand before it is renamed into place */
    const char *old_path = sqlite3_db_filename(db, "main");
    json_t *sums = json_array();
    sqlite3_stmt *s = NULL;
    int r = TB_OK;
    if (sqlite3_prepare_v2(db, "SELECT id FROM campaigns ORDER BY created_ms, id", -1, &s, NULL) !=
        SQLITE_OK) {
        r = legacy__fail(db, err, "listing campaigns");
        goto out;
    }
    json_t *ids = json_array();
    while (sqlite3_step(s) == SQLITE_ROW)
        json_array_append_new(ids, json_string((const char *)sqlite3_column_text(s, 0)));
    sqlite3_finalize(s);
    s = NULL;
    if (json_array_size(ids) && mkdir(dir, 0700) != 0 && errno != EEXIST)
        r = tb_fail(err, TB_INTERNAL, "storage: cannot create %s: %s", dir, strerror(errno));
    size_t i;
    json_t *v;
    json_array_foreach(ids, i, v)
    {
        json_t *sum;
        if (r || (r = legacy__one(old_path, dir, json_string_value(v), &sum, err)))
            break;
        json_array_append_new(sums, sum);
    }
    json_decref(ids);
    /* Every file's name is durable before the old copy of its rows goes. */
    if (!r && json_array_size(sums))
        r = store__fsync_path(dir, 1, err);
    if (r)
        goto out;
    char bump[160];
    snprintf(bump, sizeof bump, "PRAGMA application_id = %d; PRAGMA user_version = 2;",
             HOSTFILE_APP_ID);
    if ((r = store__exec(db, "BEGIN IMMEDIATE", err)))
        goto out;
    r = store__exec(db,
                    "ALTER TABLE campaigns ADD COLUMN name TEXT;"
                    "ALTER TABLE campaigns ADD COLUMN system TEXT;"
                    "ALTER TABLE campaigns ADD COLUMN join_code TEXT;"
                    "ALTER TABLE campaigns ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;"
                    "ALTER TABLE campaigns ADD COLUMN seats INTEGER NOT NULL DEFAULT 0;"
                    "DELETE FROM idempotency WHERE campaign <> '';"
                    "DROP TABLE events;"
                    "DROP TABLE snapshots;"
                    "CREATE INDEX campaigns_by_join ON campaigns"
                    " (upper(replace(replace(join_code, '-', ''), ' ', '')));",
                    err);
    if (!r && sqlite3_prepare_v2(db,
                                 "UPDATE campaigns SET name = ?2, system = ?3, join_code = ?4,"
                                 " seq = ?5, seats = ?6 WHERE id = ?1",
                                 -1, &s, NULL) != SQLITE_OK)
        r = legacy__fail(db, err, "writing the registry");
    json_array_foreach(sums, i, v)
    {
        if (r)
            break;
        sqlite3_reset(s);
        const char *keys[] = {"id", "name", "system", "join_code"};
        for (int k = 0; k < 4; k++) {
            const char *t = json_string_value(json_object_get(v, keys[k]));
            if (t)
                sqlite3_bind_text(s, k + 1, t, -1, SQLITE_TRANSIENT);
            else
                sqlite3_bind_null(s, k + 1);
        }
        sqlite3_bind_int64(s, 5, json_integer_value(json_object_get(v, "seq")));
        sqlite3_bind_int64(s, 6, json_integer_value(json_object_get(v, "seats")));
        if (sqlite3_step(s) != SQLITE_DONE)
            r = legacy__fail(db, err, "writing the registry");
    }
    sqlite3_finalize(s);
    s = NULL;
    if (!r)
        r = store__exec(db, bump, err);
    if (r) {
        store__exec(db, "ROLLBACK", NULL);
        goto out;
    }
    if ((r = store__exec(db, "COMMIT", err)))
        goto out;
    /* What moved out leaves free pages behind: give them back once. */
    if (json_array_size(sums))
        store__exec(db, "VACUUM", NULL);
out:
    sqlite3_finalize(s);
    json_decref(sums);
    return r;
}
