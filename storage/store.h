/*
 * store.h — tabled's SQLite storage: the whole surface of storage/.
 *
 * One store = one SQLite file in WAL mode. It holds, per campaign: the event log (seq, seat, op,
 * args, result, patch), the idempotency rows (the reply sent for a (campaign, seat, cmd id)),
 * snapshots of the state, and the seat tokens (only their SHA-256). Host-level rows (campaign
 * creation commands, the host token) use the campaign key "" (STORE_HOST).
 *
 * Transactions are explicit: the engine calls store_begin, appends any number of events and
 * idempotency rows (group commit), then store_commit or store_rollback. Reads inside an open
 * transaction see its uncommitted rows (same connection).
 *
 * Crash reasoning: every write goes through SQLite's WAL. With synchronous=NORMAL a COMMIT is in
 * the WAL (OS page cache) when sqlite3_step returns, so a killed process (kill -9) loses nothing
 * that was committed; only a power loss can lose the last transactions, which synchronous=FULL
 * (`--sync full`) prevents at the cost of an fsync per commit. Under NORMAL the server also runs
 * store_checkpoint (backup.h) once a second off the loop, which syncs the WAL: a power loss then
 * loses about the last second at most (tests/integration/crash.test.mjs).
 *
 * Errors: every function returns 0 (TB_OK) or a tb_code with *err filled; SQLite failures are
 * TB_INTERNAL with SQLite's message. Strings are borrowed unless the comment says otherwise.
 * Not thread-safe: one store is used from one thread (the loop).
 */
#ifndef TABLED_STORE_H
#define TABLED_STORE_H

#include <jansson.h>
#include <stdint.h>

#include "err.h"

#define STORE_HOST "" /* the campaign key of host-level rows */
#define STORE_SCHEMA_VERSION 1

typedef struct store store;

typedef struct store_event {
    const char *campaign;
    int64_t seq;
    const char *seat;
    const char *op;
    const json_t *args;
    const json_t *result; /* may be NULL (stored as null) */
    const json_t *patch;  /* a JSON Patch array */
    int64_t at_ms;
} store_event;

/* Opens (creating if needed) the database at path and migrates it to STORE_SCHEMA_VERSION.
 * sync_full selects synchronous=FULL instead of NORMAL. *out is owned by the caller
 * (store_close). */
int store_open(const char *path, int sync_full, store **out, tb_err *err);

/* Closes the database. NULL is a no-op. Rolls back an open transaction. */
void store_close(store *st);

/* The schema version on disk (PRAGMA user_version). */
int store_schema_version(store *st);

/* Transactions. store_begin fails with TB_CONFLICT when one is already open. */
int store_begin(store *st, tb_err *err);
int store_commit(store *st, tb_err *err);
void store_rollback(store *st);
int store_in_transaction(const store *st);

/* Registers a new campaign id. TB_CONFLICT when it exists. */
int store_campaign_insert(store *st, const char *id, int64_t at_ms, tb_err *err);

/* Every campaign id, oldest first. *ids is a new reference to a JSON array of strings. */
int store_campaign_ids(store *st, json_t **ids, tb_err *err);

/* Appends one event. TB_CONFLICT when (campaign, seq) exists. */
int store_event_append(store *st, const store_event *ev, tb_err *err);

/* The highest seq of a campaign's events, 0 when it has none. */
int store_last_seq(store *st, const char *campaign, int64_t *seq, tb_err *err);

/* Calls fn for each event of campaign with after < seq <= upto (upto < 0: no upper bound), in
 * seq order. The event and its JSON values are borrowed for the duration of the call. A non-zero
 * return from fn stops the walk and is returned. */
typedef int (*store_event_fn)(void *ctx, const store_event *ev);
int store_events_each(store *st, const char *campaign, int64_t after, int64_t upto,
                      store_event_fn fn, void *ctx, tb_err *err);

/* Idempotency. store_idem_get sets *reply to a new malloc'd string (caller frees) holding the
 * stored reply, or to NULL when (campaign, seat, id) was never recorded. */
int store_idem_get(store *st, const char *campaign, const char *seat, const char *cmd_id,
                   char **reply, tb_err *err);
int store_idem_put(store *st, const char *campaign, const char *seat, const char *cmd_id,
                   const char *reply, tb_err *err);

/* Writes a snapshot of state at seq and keeps only the newest two of the campaign. */
int store_snapshot_put(store *st, const char *campaign, int64_t seq, const json_t *state,
                       tb_err *err);

/* Rebuilds a campaign: its newest snapshot (or {} at seq 0 when from_zero is set or there is
 * none) plus every later event's patch, applied in order. *state is a new reference. */
int store_campaign_load(store *st, const char *campaign, int from_zero, json_t **state,
                        int64_t *seq, tb_err *err);

/* Tokens: only sha256(token) is stored. store_token_find sets *campaign and *seat to new
 * malloc'd strings (caller frees) or fails with TB_UNAUTHORIZED. */
int store_token_put(store *st, const char *token, const char *campaign, const char *seat,
                    int64_t at_ms, tb_err *err);
int store_token_find(store *st, const char *token, char **campaign, char **seat, tb_err *err);
/* Deletes every token of a seat (the seat was removed). */
int store_token_revoke_seat(store *st, const char *campaign, const char *seat, tb_err *err);

/* 1 when the last failed write failed because the disk is full (SQLITE_FULL), until the next
 * successful commit: the engine tells the sender so, instead of a bare "could not save". */
int store_disk_full(const store *st);

/* PRAGMA integrity_check; TB_INTERNAL with its first line when not "ok". */
int store_integrity_check(store *st, tb_err *err);

#endif
