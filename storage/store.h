/*
 * store.h — tabled's storage: the whole surface of storage/.
 *
 * A store is a data directory of SQLite files, each in WAL mode (storage/README.md says why):
 *   PATH                    the host file: the campaign registry (id, name, system, the join
 *                           code, seq and seats, for listing and for finding a campaign by its
 *                           join code without loading it), every seat token's SHA-256 with its
 *                           campaign and seat, and the host's own idempotency rows;
 *   PATH.campaigns/<id>.db  one file per campaign: its event log in seq order (the idempotency id
 *                           of the command in the event's row), the replies kept for refused
 *                           commands, and its snapshots.
 * So a campaign is its own unit: its own WAL and commits, its own backup and export (a consistent
 * copy of one file), and a damaged file takes down that campaign alone. A campaign file is opened
 * on first use (any call that names the campaign) and closed by store_campaign_close; a server that
 * holds 100 000 campaigns opens only the host file at start.
 *
 * PATH of a database in the single-file layout of tabled before this one (schema 1: every
 * campaign's events, idempotency rows and snapshots in PATH) is split into that layout when it is
 * opened: each campaign's file is written and renamed into place first, then PATH drops what moved,
 * in one transaction, so a crash at any moment leaves either the old file whole or the new layout.
 * The single-file layout stays the format of backups (backup.h): one file to copy.
 *
 * Transactions: store_begin opens a batch. Each write opens a transaction on the file it goes to
 * (the campaign's, or the host's) the first time it writes in the batch; store_commit commits every
 * campaign file of the batch, each in its own COMMIT (group commit: all the commands of a loop turn
 * share one per campaign), then the host file — only when every campaign file committed, so a host
 * row (a token, a registration) never outlives a campaign write that failed. store_batch_ok says
 * afterwards what became durable. Reads inside an open batch see its uncommitted rows.
 *
 * Idempotency: an event appended with a cmd_id is its own idempotency record: the reply to a
 * re-sent id is the ack rebuilt from the event (byte for byte what was sent: {"t":"ack","id","seq",
 * "result"[,"entry"]}, the seq and entry the event row keeps: store_event.ack_seq, ack_entry). Other replies (refusals) go to the campaign's replies table. Lookups use an index
 * held in memory, built when the campaign file is opened, of the newest STORE_IDEM_KEEP commands
 * and refusals of the campaign (protocol/PROTOCOL.md, "Idempotency": how long a client may
 * re-send); older rows stay on disk but are no longer recognised.
 *
 * Crash reasoning: every write goes through SQLite's WAL. With synchronous=NORMAL a COMMIT is in
 * the WAL (OS page cache) when sqlite3_step returns, so a killed process (kill -9) loses nothing
 * that was committed; only a power loss can lose the last transactions, which synchronous=FULL
 * (`--sync full`) prevents at the cost of an fsync per commit (per file). Under NORMAL the server
 * also runs store_checkpoint (backup.h) on every file that committed, once a second off the loop,
 * which syncs its WAL: a power loss then loses about the last second at most. The files are
 * opened through the VFS of walvfs.c (SQLite's, a WAL frame written in one call instead of two:
 * storage/README.md): what is written before a call returns is what SQLite's own VFS writes.
 *
 * Errors: every function returns 0 (TB_OK) or a tb_code with *err filled; SQLite failures are
 * TB_INTERNAL with SQLite's message. Strings are borrowed unless the comment says otherwise.
 * Not thread-safe: one store is used from one thread (the loop).
 */
#ifndef TABLED_STORE_H
#define TABLED_STORE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define STORE_HOST ""          /* the campaign key of host-level rows */
#define STORE_SCHEMA_VERSION 2 /* of the host file; campaign files have their own (store.c) */
#define STORE_IDEM_KEEP 10000  /* commands and refusals per campaign recognised when re-sent */

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
    const char *cmd_id;     /* the client's command id: the event is that command's idempotency
                               record (store_idem_get rebuilds its ack); NULL for none */
    int64_t ack_seq;        /* the seq its ack carries when not the event's own (a player's ack
                               carries the player seq: server/playerseq.h); 0: seq */
    int64_t ack_entry;      /* the `entry` its ack carries (the GM's ack); 0: none */
    const char *patch_text; /* patch already encoded as compact JSON (patch_len bytes), written
                               as it is; NULL: patch is encoded */
    size_t patch_len;
    const char *result_text; /* result already encoded as compact JSON (result_len bytes), written
                                as it is; NULL: result is encoded */
    size_t result_len;
} store_event;

/* SQLite's process-wide settings, called first thing in main (before any other SQLite call; later
 * it changes nothing): no memory statistics, which nothing here reads and which made every
 * allocation of SQLite's take a global mutex (issue 26: ~1.2 k instructions per command). */
void store_process_init(void);

/* Opens (creating if needed) the store whose host file is path, migrating it to
 * STORE_SCHEMA_VERSION (splitting a single-file database, above). sync_full selects
 * synchronous=FULL instead of NORMAL for every file. *out is owned by the caller (store_close). */
int store_open(const char *path, int sync_full, store **out, tb_err *err);

/* Opens the store whose host file is path for reading, without changing what is on disk: a
 * missing path is TB_NOT_FOUND (nothing is created), and a database in the single-file layout (a
 * backup) is read through a split copy in a temporary directory, removed by store_close. For the
 * tools (replay, export). */
int store_open_reader(const char *path, store **out, tb_err *err);

/* Closes every file. NULL is a no-op. Rolls back an open batch. */
void store_close(store *st);

/* The schema version of the host file (PRAGMA user_version). */
int store_schema_version(store *st);

/* The directory of the campaign files (borrowed, valid until store_close). */
const char *store_campaign_dir(const store *st);

/* Writes the path of campaign's file into out (cap bytes). 0, or TB_BAD_REQUEST for an id that
 * is not 1-32 characters of [a-z0-9]. */
int store_campaign_path(const store *st, const char *campaign, char *out, size_t cap, tb_err *err);

/* Batches (above). store_begin fails with TB_CONFLICT when one is already open. store_commit
 * returns TB_OK when every file committed, else the first failure's error (what committed stays
 * committed: store_batch_ok). store_rollback drops every uncommitted write of the batch. */
int store_begin(store *st, tb_err *err);
int store_commit(store *st, tb_err *err);
void store_rollback(store *st);
int store_in_transaction(const store *st);

/* Starts committing the batch's campaign files on the store's committer thread, in the order
 * they joined the batch, and returns 1; or returns 0 and does nothing (under --sync full, when the
 * batch created a file, or wrote fewer than STORE_COMMIT_ASYNC_MIN files: store_commit commits
 * them). Until store_commit (or store_rollback), which waits for the rest and then commits the
 * host file, the caller makes no other store call than store_batch_ok for a campaign: it waits
 * for that file alone, so the replies of the files decided first can go while the others commit
 * (issue 26: the loop's thread delivers while the COMMITs run). A started commit is not taken
 * back: store_rollback then commits every campaign file and rolls back only the host file. */
#define STORE_COMMIT_ASYNC_MIN 2
int store_commit_start(store *st);

/* After store_commit (until the next store_begin): 1 when what the batch wrote to campaign's file
 * (STORE_HOST: the host file) is durable, 0 when it was rolled back. A file the batch did not write
 * to answers 1. After store_commit_start, a campaign's answer waits until its file is decided. */
int store_batch_ok(store *st, const char *campaign);

/* ---- the registry (host file) ------------------------------------------------------------- */

/* Registers a new campaign id (its file is created by its first write). TB_CONFLICT when the id
 * exists. */
int store_campaign_insert(store *st, const char *id, int64_t at_ms, tb_err *err);

/* Every campaign id, oldest first. *ids is a new reference to a JSON array of strings. */
int store_campaign_ids(store *st, json_t **ids, tb_err *err);

/* How many campaigns are registered. */
int store_campaign_count(store *st, int64_t *n, tb_err *err);

/* What the registry keeps of a campaign besides its id: a summary of its state the engine writes
 * when it changes (name, system, join code) or when the campaign is put away (seq, seats). Strings
 * may be NULL (unknown, or joining closed for the join code). */
typedef struct store_summary {
    const char *name;
    const char *system;
    const char *join_code;
    int64_t seq;
    int64_t seats;
} store_summary;

/* Writes the summary of a registered campaign (in the batch's host transaction when a batch is
 * open, else on its own). TB_NOT_FOUND for an unknown id. */
int store_campaign_summary_put(store *st, const char *id, const store_summary *s, tb_err *err);

/* The summary of a campaign's state at seq (/campaign/name, /campaign/system, /gm/join when open,
 * the number of /seats): strings borrowed from state. */
void store_summary_of_state(const json_t *state, int64_t seq, store_summary *out);

/* Calls fn for every registered campaign, oldest first, with its summary (strings borrowed for the
 * call). A non-zero return from fn stops the walk and is returned. */
typedef int (*store_summary_fn)(void *ctx, const char *id, const store_summary *s);
int store_campaigns_each(store *st, store_summary_fn fn, void *ctx, tb_err *err);

/* The campaign whose join code, without its dashes and spaces and in upper case, is key (the
 * normalized form the engine compares): its id into id (33 bytes), 0; TB_NOT_FOUND when none. */
int store_campaign_by_join(store *st, const char *key, char id[33], tb_err *err);

/* 1 when id is registered, 0 when not, or a negative number with *err set. */
int store_campaign_exists(store *st, const char *id, tb_err *err);

/* ---- a campaign's file --------------------------------------------------------------------- */

/* Appends one event to ev->campaign's file (creating the file on its first write). TB_CONFLICT
 * when the seq exists. */
int store_event_append(store *st, const store_event *ev, tb_err *err);

/* The highest seq of a campaign's events, 0 when it has none (or no file). */
int store_last_seq(store *st, const char *campaign, int64_t *seq, tb_err *err);

/* Calls fn for each event of campaign with after < seq <= upto (upto < 0: no upper bound), in
 * seq order. The event and its JSON values are borrowed for the duration of the call. A non-zero
 * return from fn stops the walk and is returned. */
typedef int (*store_event_fn)(void *ctx, const store_event *ev);
int store_events_each(store *st, const char *campaign, int64_t after, int64_t upto,
                      store_event_fn fn, void *ctx, tb_err *err);

/* Idempotency (above). store_idem_get sets *reply to a new malloc'd string (caller frees) holding
 * the reply of (campaign, seat, cmd_id), or to NULL when it was never recorded or is too old to
 * be kept. store_idem_put records a reply that is not an event's ack (a refusal; any reply of the
 * host, campaign STORE_HOST). TB_CONFLICT when the id is recorded already. */
int store_idem_get(store *st, const char *campaign, const char *seat, const char *cmd_id,
                   char **reply, tb_err *err);
int store_idem_put(store *st, const char *campaign, const char *seat, const char *cmd_id,
                   const char *reply, tb_err *err);

/* Writes a snapshot of state at seq and keeps only the newest two of the campaign.
 * store_snapshot_put_text does the same with the state already encoded (compact JSON, len bytes):
 * the encoding can then run off the loop. */
int store_snapshot_put(store *st, const char *campaign, int64_t seq, const json_t *state,
                       tb_err *err);
int store_snapshot_put_text(store *st, const char *campaign, int64_t seq, const char *text,
                            size_t len, tb_err *err);

/* Rebuilds a campaign: its newest snapshot (or {} at seq 0 when from_zero is set or there is
 * none) plus every later event's patch, applied in order. *state is a new reference. A campaign
 * without a file is {} at seq 0. */
int store_campaign_load(store *st, const char *campaign, int from_zero, json_t **state,
                        int64_t *seq, tb_err *err);

/* Closes campaign's file (it is idle); the next call naming the campaign opens it again. Refused
 * (TB_CONFLICT) while a batch has written to it. No-op when it is not open. */
int store_campaign_close(store *st, const char *campaign, tb_err *err);

/* How many campaign files are open. */
int store_open_campaigns(const store *st);

/* The paths of every file committed to since the last call (the host file's included), for the
 * WAL's sync off the loop (store_checkpoint): a new NULL-terminated array of malloc'd strings,
 * freed with store_paths_free; NULL when there is none. */
char **store_take_dirty(store *st);
void store_paths_free(char **paths);

/* ---- tokens (host file) -------------------------------------------------------------------- */

/* Tokens: only sha256(token) is stored. store_token_find sets *campaign and *seat to new
 * malloc'd strings (caller frees) or fails with TB_UNAUTHORIZED. */
int store_token_put(store *st, const char *token, const char *campaign, const char *seat,
                    int64_t at_ms, tb_err *err);
int store_token_find(store *st, const char *token, char **campaign, char **seat, tb_err *err);
/* Deletes every token of a seat (the seat was removed). */
int store_token_revoke_seat(store *st, const char *campaign, const char *seat, tb_err *err);

/* ---- health -------------------------------------------------------------------------------- */

/* 1 when the last failed write failed because the disk is full (SQLITE_FULL), until the next
 * successful commit: the engine tells the sender so, instead of a bare "could not save". */
int store_disk_full(const store *st);

/* PRAGMA integrity_check of the host file and of every registered campaign's file (that exists);
 * TB_INTERNAL with the first problem found (naming the file) when one is not "ok". */
int store_integrity_check(store *st, tb_err *err);

#endif
