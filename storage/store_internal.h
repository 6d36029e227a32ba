/*
 * store_internal.h — for storage/ only, not part of the surface: one campaign's file
 * (campfile.c), the single-file layout of schema 1 (legacy.c) and the helpers the files of
 * storage/ share.
 */
#ifndef TABLED_STORE_INTERNAL_H
#define TABLED_STORE_INTERNAL_H

#include <sqlite3.h>
#include <stdint.h>

#include "store.h"

typedef struct campfile campfile;

/* The host file's connection (borrowed). */
sqlite3 *store__sqlite(store *st);

/* The host file's path (borrowed). */
const char *store__path(const store *st);

/* The file of campaign id (opened if needed; created when create is set, else TB_NOT_FOUND when
 * it has none), borrowed until store_campaign_close or store_close. */
int store__campfile(store *st, const char *id, int create, campfile **out, tb_err *err);

/* Before a write to the host file by hand (store__sqlite): opens the batch's host transaction. */
int store__host_w(store *st, tb_err *err);

/* Opens path with flags through the store's VFS (store__vfs), busy timeout set; TB_INTERNAL with
 * SQLite's message on failure. */
int store__open_db(const char *path, int flags, sqlite3 **db, tb_err *err);

/* The name of the VFS the store's files are opened with (walvfs.c: SQLite's unix VFS, a WAL
 * frame written in one call instead of two), registered on first use; NULL (SQLite's default)
 * when it could not be registered. */
#define STORE_VFS "tabled-wal"
const char *store__vfs(void);

/* Steps s to its end (rows are ignored) and resets it: 0; TB_CONFLICT for a constraint; else
 * TB_INTERNAL "storage: WHAT: sqlite's message", *full set to whether the disk is full. */
int store__step(sqlite3_stmt *s, tb_err *err, const char *what, int *full);
/* The same for a statement of campaign `campaign`'s file: a failure reads "storage: campaign ID:
 * what: why", formatted only then (a label made for every statement cost ~1 000 instructions of
 * each of a command's three, issue 26). */
int store__step_in(sqlite3_stmt *s, tb_err *err, const char *campaign, const char *what,
                   int *full);

/* PRAGMA integrity_check of db (the file at path): 0, or TB_INTERNAL naming the file and the
 * first problem. */
int store__check_file(sqlite3 *db, const char *path, tb_err *err);

/* Runs the one statement sql with ?1 bound to text (NULL: nothing bound). */
int store__run1(sqlite3 *db, const char *sql, const char *text, tb_err *err);

/* Runs sql (several statements allowed); TB_INTERNAL with SQLite's message on failure. */
int store__exec(sqlite3 *db, const char *sql, tb_err *err);

/* The first column of the first row of sql as an integer (def when there is no row). */
int64_t store__int(sqlite3 *db, const char *sql, int64_t def);

/* The connection settings every file of a store runs with: WAL, synchronous, the WAL's bound. */
int store__pragmas(sqlite3 *db, int sync_full, tb_err *err);

/* fsync of a file or directory by path. */
int store__fsync_path(const char *path, int dir, tb_err *err);

/* The ack a command's event stands for, as it was sent: {"t":"ack","id","seq","result"} compact,
 * with "entry" last when entry > 0 (the GM's ack: server/run_op.c); a new malloc'd string. seq is
 * the seq the ack carries (a player's: its player seq); result may be NULL (null). */
char *store__ack_text(const char *cmd_id, int64_t seq, const json_t *result, int64_t entry);

/* Whether id is a campaign id this store accepts (1-32 characters of [a-z0-9]). */
int store__id_ok(const char *id);

/* ---- one campaign's file (campfile.c) ------------------------------------------------------- */

#define CAMPFILE_APP_ID 0x74626c63 /* PRAGMA application_id of a campaign file: "tblc" */
#define HOSTFILE_APP_ID 0x74626c68 /* of a host file: "tblh" */

/* Opens the campaign file at path for campaign id. With create, a missing file is created with
 * its schema; without, a missing file is TB_NOT_FOUND. A file that is not a campaign file, or
 * another campaign's, is TB_INTERNAL. The idempotency index is built (the newest
 * STORE_IDEM_KEEP commands and refusals). *out owned by the caller (campfile_close). */
int campfile_open(const char *path, const char *id, int create, int sync_full, campfile **out,
                  tb_err *err);
void campfile_close(campfile *f);
const char *campfile_id(const campfile *f);
const char *campfile_path(const campfile *f);
sqlite3 *campfile_sqlite(campfile *f);

/* Transactions: campfile_begin opens one (TB_CONFLICT if open), campfile_commit commits it (on
 * failure it is rolled back), campfile_rollback drops it (and what it added to the index). */
int campfile_begin(campfile *f, tb_err *err);
int campfile_commit(campfile *f, tb_err *err);
void campfile_rollback(campfile *f);
int campfile_in_tx(const campfile *f);
/* fsync of the file's WAL (the file runs synchronous=NORMAL: its commits are durable once this
 * returned 0). 0, or -1 with errno. Safe to call from another thread than the file's user while
 * that one waits for it. */
int campfile_sync_wal(campfile *f);

/* 1 when the last failure of this file was SQLITE_FULL. */
int campfile_full(const campfile *f);

int campfile_append(campfile *f, const store_event *ev, tb_err *err);
int campfile_last_seq(campfile *f, int64_t *seq, tb_err *err);
int campfile_events_each(campfile *f, int64_t after, int64_t upto, store_event_fn fn, void *ctx,
                         tb_err *err);
int campfile_idem_get(campfile *f, const char *seat, const char *cmd_id, char **reply, tb_err *err);
int campfile_idem_put(campfile *f, const char *seat, const char *cmd_id, const char *reply,
                      int64_t at_ms, tb_err *err);
int campfile_snapshot_put(campfile *f, int64_t seq, const char *text, size_t len, tb_err *err);
int campfile_load(campfile *f, int from_zero, json_t **state, int64_t *seq, tb_err *err);
int campfile_integrity_check(campfile *f, tb_err *err);

/* ---- the single-file layout of schema 1 (legacy.c) ------------------------------------------ */

/* The schema-1 tables (the first migration of the host file; a backup holds exactly these). */
extern const char LEGACY_SCHEMA_1[];

/* Splits a host file of schema 1 (db, inside no transaction) into campaign files under dir and
 * brings the host file to schema 2 (store.h, "PATH of a database in the single-file layout").
 * Each campaign's file is written under a temporary name, synced and renamed into place before the
 * host file changes, in one transaction at the end. */
int legacy_split(sqlite3 *db, const char *dir, int sync_full, tb_err *err);

#endif
