/*
 * backup.h — copies of a tabled store a GM can trust, and moving one campaign between servers.
 *
 * A backup is one file: the single-file layout of schema 1 (store.h), which `tabled serve --db`
 * starts from (it splits it into the data directory at open) and `tabled replay` reads. It is
 * written on connections of its own, the host file's rows first, then each campaign's file
 * attached in turn and copied inside a read transaction of its own: every campaign in the copy is
 * consistent, while the server keeps writing (WAL: a reader never blocks the writer). The copy is
 * written under a temporary name, checked (integrity_check and schema version), fsync'd and only
 * then renamed into place, with the directory fsync'd. So a backup either exists complete or not
 * at all, and a crash mid-backup leaves at most a stray "*.tmp-<pid>" file.
 *
 * The backup functions open their own SQLite connections and touch no store: a worker thread may
 * run them while the loop's store keeps serving (SQLite connections are independent across
 * threads).
 *
 * Errors: 0 (TB_OK) or a tb_code with *err filled; TB_CONFLICT when the destination exists,
 * TB_INTERNAL for SQLite or file-system failures (with their message).
 */
#ifndef TABLED_BACKUP_H
#define TABLED_BACKUP_H

#include <jansson.h>

#include "err.h"
#include "store.h"

/* Writes a complete, checked copy of the store whose host file is db_path (or of a single-file
 * database) to dest, which must not exist. */
int store_backup(const char *db_path, const char *dest, tb_err *err);

/* Rolling backups: writes dir/<prefix>YYYYmmdd-HHMMSS-mmm-n<N>.db (UTC, milliseconds; N one past
 * the newest backup's there) and then deletes the oldest files dir/<prefix>*.db beyond the newest
 * `keep`, oldest by N (a name without one, from an older tabled, is older than all): the time
 * stamp is for people, and a wall clock that jumps cannot reorder them. dir is created when
 * missing. *written (may be NULL) gets the new file's path, malloc'd. */
int store_backup_rolling(const char *db_path, const char *dir, const char *prefix, int keep,
                         char **written, tb_err *err);

/* A passive checkpoint of one file (the host file or a campaign's) on a connection of its own:
 * syncs its WAL and copies what it can into the file without waiting for (or blocking) the
 * writer. *wal_frames / *done (may be NULL) get
 * the WAL's frames and how many are checkpointed. */
int store_checkpoint(const char *db_path, int *wal_frames, int *done, tb_err *err);

/* Export of one campaign as JSON (a new reference in *out):
 *   {"format": "tabled-campaign", "version": 1, "schema": STORE_SCHEMA_VERSION,
 *    "campaign": {"id", "created_ms"}, "events": [{seq, seat, op, args, result, patch, at_ms}],
 *    "idempotency": [{seat, cmd_id, reply}], "tokens": [{hash, seat, created_ms}]}
 * Every event from seq 1 (the state is rebuilt from them on import), the idempotency rows (a
 * client's re-sent command still gets its ack on the new server) and the tokens as the database
 * keeps them: SHA-256 hashes only, never a token, so every seat's saved link keeps working on the
 * new server and no secret that is not already in the database is put in the file. The file still
 * holds the GM's secrets (/gm/...): keep it as private as the database. TB_NOT_FOUND for an
 * unknown campaign. */
int store_export_campaign(store *st, const char *campaign, json_t **out, tb_err *err);

/* Imports a document made by store_export_campaign into st, in one transaction: either all of it
 * or nothing. Checks the format, that the campaign id is free (TB_CONFLICT otherwise), that the
 * events are numbered 1..n, and that their patches apply in order. A snapshot of the rebuilt
 * state is written. TB_BAD_REQUEST for a document that is not a valid export. */
int store_import_campaign(store *st, const json_t *doc, tb_err *err);

#endif
