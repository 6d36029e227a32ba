#include "store.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"
#include "sha256.h"
#include "store_internal.h"

/* Migrations: MIGRATIONS[i] takes the schema from user_version i to i + 1. Each runs in its own
 * transaction together with the PRAGMA user_version bump, so a crash mid-migration leaves the
 * previous version intact. Never edit a shipped migration; append a new one. */
static const char *const MIGRATIONS[] = {
    /* 0 -> 1: the foundation */
    "CREATE TABLE campaigns ("
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
    "CREATE INDEX tokens_by_seat ON tokens (campaign, seat);",
};
#define N_MIGRATIONS (sizeof MIGRATIONS / sizeof MIGRATIONS[0])

enum stmt_id {
    S_BEGIN,
    S_COMMIT,
    S_ROLLBACK,
    S_CAMPAIGN_INSERT,
    S_CAMPAIGN_IDS,
    S_EVENT_APPEND,
    S_EVENT_LAST,
    S_EVENTS_RANGE,
    S_IDEM_GET,
    S_IDEM_PUT,
    S_SNAP_PUT,
    S_SNAP_PRUNE,
    S_SNAP_LATEST,
    S_TOKEN_PUT,
    S_TOKEN_FIND,
    S_TOKEN_REVOKE,
    S__COUNT
};

static const char *const SQL[S__COUNT] = {
    [S_BEGIN] = "BEGIN IMMEDIATE",
    [S_COMMIT] = "COMMIT",
    [S_ROLLBACK] = "ROLLBACK",
    [S_CAMPAIGN_INSERT] = "INSERT INTO campaigns (id, created_ms) VALUES (?1, ?2)",
    [S_CAMPAIGN_IDS] = "SELECT id FROM campaigns ORDER BY created_ms, id",
    [S_EVENT_APPEND] = "INSERT INTO events (campaign, seq, seat, op, args, result, patch, at_ms)"
                       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    [S_EVENT_LAST] = "SELECT coalesce(max(seq), 0) FROM events WHERE campaign = ?1",
    [S_EVENTS_RANGE] = "SELECT seq, seat, op, args, result, patch, at_ms FROM events"
                       " WHERE campaign = ?1 AND seq > ?2 AND seq <= ?3 ORDER BY seq",
    [S_IDEM_GET] = "SELECT reply FROM idempotency WHERE campaign = ?1 AND seat = ?2 AND cmd_id = ?3",
    [S_IDEM_PUT] = "INSERT INTO idempotency (campaign, seat, cmd_id, reply) VALUES (?1, ?2, ?3, ?4)",
    [S_SNAP_PUT] = "INSERT OR REPLACE INTO snapshots (campaign, seq, state) VALUES (?1, ?2, ?3)",
    [S_SNAP_PRUNE] = "DELETE FROM snapshots WHERE campaign = ?1 AND seq NOT IN"
                     " (SELECT seq FROM snapshots WHERE campaign = ?1 ORDER BY seq DESC LIMIT 2)",
    [S_SNAP_LATEST] = "SELECT seq, state FROM snapshots WHERE campaign = ?1 ORDER BY seq DESC LIMIT 1",
    [S_TOKEN_PUT] = "INSERT INTO tokens (hash, campaign, seat, created_ms) VALUES (?1, ?2, ?3, ?4)",
    [S_TOKEN_FIND] = "SELECT campaign, seat FROM tokens WHERE hash = ?1",
    [S_TOKEN_REVOKE] = "DELETE FROM tokens WHERE campaign = ?1 AND seat = ?2",
};

struct store {
    sqlite3 *db;
    sqlite3_stmt *stmt[S__COUNT];
    int in_tx;
    int full; /* the last failure was SQLITE_FULL (disk full); cleared by a commit */
};

static int db_fail(store *st, tb_err *err, const char *what)
{
    st->full = sqlite3_errcode(st->db) == SQLITE_FULL;
    return tb_fail(err, TB_INTERNAL, "storage: %s: %s", what, sqlite3_errmsg(st->db));
}

/* Returns the cached statement, reset and with its bindings cleared. */
static sqlite3_stmt *stmt(store *st, enum stmt_id id)
{
    sqlite3_stmt *s = st->stmt[id];
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return s;
}

/* Runs a statement that returns no rows (or whose rows are ignored). */
static int step_done(store *st, sqlite3_stmt *s, tb_err *err, const char *what)
{
    int rc = sqlite3_step(s);
    while (rc == SQLITE_ROW)
        rc = sqlite3_step(s);
    if (rc == SQLITE_CONSTRAINT) {
        sqlite3_reset(s);
        return tb_fail(err, TB_CONFLICT, "storage: %s: already exists", what);
    }
    if (rc != SQLITE_DONE) {
        int r = db_fail(st, err, what);
        sqlite3_reset(s);
        return r;
    }
    sqlite3_reset(s);
    return TB_OK;
}

static void bind_text(sqlite3_stmt *s, int i, const char *v)
{
    sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
}

/* Binds a JSON value as compact text (null when v is NULL). */
static void bind_json(sqlite3_stmt *s, int i, const json_t *v)
{
    char *text = v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
    if (text)
        sqlite3_bind_text(s, i, text, -1, free);
    else
        sqlite3_bind_text(s, i, "null", -1, SQLITE_STATIC);
}

static json_t *column_json(sqlite3_stmt *s, int i)
{
    const char *text = (const char *)sqlite3_column_text(s, i);
    int n = sqlite3_column_bytes(s, i);
    return text ? json_loadb(text, (size_t)n, JSON_DECODE_ANY, NULL) : NULL;
}

static int exec(store *st, const char *sql, tb_err *err)
{
    char *msg = NULL;
    if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        tb_fail(err, TB_INTERNAL, "storage: %s", msg ? msg : sqlite3_errmsg(st->db));
        sqlite3_free(msg);
        return TB_INTERNAL;
    }
    return TB_OK;
}

int store_schema_version(store *st)
{
    sqlite3_stmt *s;
    int v = -1;
    if (sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &s, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_step(s) == SQLITE_ROW)
        v = sqlite3_column_int(s, 0);
    sqlite3_finalize(s);
    return v;
}

static int migrate(store *st, tb_err *err)
{
    int v = store_schema_version(st);
    if (v < 0)
        return db_fail(st, err, "reading the schema version");
    if ((size_t)v > N_MIGRATIONS)
        return tb_fail(err, TB_INTERNAL,
                       "storage: the database has schema version %d, newer than this tabled (%d)",
                       v, (int)N_MIGRATIONS);
    for (size_t i = (size_t)v; i < N_MIGRATIONS; i++) {
        char bump[64];
        snprintf(bump, sizeof bump, "PRAGMA user_version = %zu", i + 1);
        if (exec(st, "BEGIN IMMEDIATE", err))
            return TB_INTERNAL;
        if (exec(st, MIGRATIONS[i], err) || exec(st, bump, err)) {
            exec(st, "ROLLBACK", NULL);
            return TB_INTERNAL;
        }
        if (exec(st, "COMMIT", err))
            return TB_INTERNAL;
    }
    return TB_OK;
}

int store_open(const char *path, int sync_full, store **out, tb_err *err)
{
    store *st = xcalloc(1, sizeof *st);
    *out = NULL;
    if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
        SQLITE_OK) {
        tb_fail(err, TB_INTERNAL, "storage: cannot open %s: %s", path,
                st->db ? sqlite3_errmsg(st->db) : "out of memory");
        goto fail;
    }
    sqlite3_busy_timeout(st->db, 5000);
    if (exec(st, "PRAGMA journal_mode = WAL", err) ||
        exec(st, sync_full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL", err) ||
        exec(st, "PRAGMA foreign_keys = ON", err) ||
        /* WAL bound: after a checkpoint that reaches the end of the WAL (the next writer then
         * starts it over), a WAL that grew while a reader held it back (a backup) is truncated
         * to 16 MiB instead of keeping its largest size forever. */
        exec(st, "PRAGMA journal_size_limit = 16777216", err) || migrate(st, err))
        goto fail;
    for (int i = 0; i < S__COUNT; i++) {
        if (sqlite3_prepare_v3(st->db, SQL[i], -1, SQLITE_PREPARE_PERSISTENT, &st->stmt[i],
                               NULL) != SQLITE_OK) {
            db_fail(st, err, SQL[i]);
            goto fail;
        }
    }
    *out = st;
    return TB_OK;
fail:
    store_close(st);
    return err ? (int)err->code : TB_INTERNAL;
}

void store_close(store *st)
{
    if (!st)
        return;
    if (st->in_tx)
        store_rollback(st);
    for (int i = 0; i < S__COUNT; i++)
        sqlite3_finalize(st->stmt[i]);
    sqlite3_close(st->db);
    free(st);
}

int store_begin(store *st, tb_err *err)
{
    if (st->in_tx)
        return tb_fail(err, TB_CONFLICT, "storage: a transaction is already open");
    int r = step_done(st, stmt(st, S_BEGIN), err, "begin");
    if (r == TB_OK)
        st->in_tx = 1;
    return r;
}

int store_commit(store *st, tb_err *err)
{
    if (!st->in_tx)
        return tb_fail(err, TB_CONFLICT, "storage: no transaction is open");
    int r = step_done(st, stmt(st, S_COMMIT), err, "commit");
    if (r != TB_OK) {
        /* A failed COMMIT (disk full, I/O error) may leave the transaction open: end it so the
         * next batch starts clean. Nothing of this batch is durable. */
        store_rollback(st);
        return TB_INTERNAL;
    }
    st->in_tx = 0;
    st->full = 0;
    return TB_OK;
}

void store_rollback(store *st)
{
    if (!sqlite3_get_autocommit(st->db))
        step_done(st, stmt(st, S_ROLLBACK), NULL, "rollback");
    st->in_tx = 0;
}

int store_in_transaction(const store *st)
{
    return st->in_tx;
}

int store_campaign_insert(store *st, const char *id, int64_t at_ms, tb_err *err)
{
    sqlite3_stmt *s = stmt(st, S_CAMPAIGN_INSERT);
    bind_text(s, 1, id);
    sqlite3_bind_int64(s, 2, at_ms);
    return step_done(st, s, err, "inserting a campaign");
}

int store_campaign_ids(store *st, json_t **ids, tb_err *err)
{
    sqlite3_stmt *s = stmt(st, S_CAMPAIGN_IDS);
    json_t *arr = json_array();
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        json_array_append_new(arr, json_string((const char *)sqlite3_column_text(s, 0)));
    sqlite3_reset(s);
    if (rc != SQLITE_DONE) {
        json_decref(arr);
        return db_fail(st, err, "listing campaigns");
    }
    *ids = arr;
    return TB_OK;
}

int store_event_append(store *st, const store_event *ev, tb_err *err)
{
    sqlite3_stmt *s = stmt(st, S_EVENT_APPEND);
    bind_text(s, 1, ev->campaign);
    sqlite3_bind_int64(s, 2, ev->seq);
    bind_text(s, 3, ev->seat);
    bind_text(s, 4, ev->op);
    bind_json(s, 5, ev->args);
    bind_json(s, 6, ev->result);
    bind_json(s, 7, ev->patch);
    sqlite3_bind_int64(s, 8, ev->at_ms);
    return step_done(st, s, err, "appending an event");
}

int store_last_seq(store *st, const char *campaign, int64_t *seq, tb_err *err)
{
    sqlite3_stmt *s = stmt(st, S_EVENT_LAST);
    bind_text(s, 1, campaign);
    int rc = sqlite3_step(s);
    if (rc != SQLITE_ROW) {
        sqlite3_reset(s);
        return db_fail(st, err, "reading the last seq");
    }
    *seq = sqlite3_column_int64(s, 0);
    sqlite3_reset(s);
    return TB_OK;
}

int store_events_each(store *st, const char *campaign, int64_t after, int64_t upto,
                      store_event_fn fn, void *ctx, tb_err *err)
{
    /* A dedicated statement per walk: fn may call back into the store (e.g. nested reads). */
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(st->db, SQL[S_EVENTS_RANGE], -1, &s, NULL) != SQLITE_OK)
        return db_fail(st, err, "reading events");
    bind_text(s, 1, campaign);
    sqlite3_bind_int64(s, 2, after);
    sqlite3_bind_int64(s, 3, upto < 0 ? INT64_MAX : upto);
    int rc, r = TB_OK;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        json_t *args = column_json(s, 3), *result = column_json(s, 4), *patch = column_json(s, 5);
        store_event ev = {
            .campaign = campaign,
            .seq = sqlite3_column_int64(s, 0),
            .seat = (const char *)sqlite3_column_text(s, 1),
            .op = (const char *)sqlite3_column_text(s, 2),
            .args = args,
            .result = result,
            .patch = patch,
            .at_ms = sqlite3_column_int64(s, 6),
        };
        if (!args || !patch)
            r = tb_fail(err, TB_INTERNAL, "storage: event %lld of %s is not valid JSON",
                        (long long)ev.seq, campaign);
        else
            r = fn(ctx, &ev);
        json_decref(args);
        json_decref(result);
        json_decref(patch);
        if (r)
            break;
    }
    if (!r && rc != SQLITE_DONE)
        r = db_fail(st, err, "reading events");
    sqlite3_finalize(s);
    return r;
}

int store_idem_get(store *st, const char *campaign, const char *seat, const char *cmd_id,
                   char **reply, tb_err *err)
{
    sqlite3_stmt *s = stmt(st, S_IDEM_GET);
    bind_text(s, 1, campaign);
    bind_text(s, 2, seat);
    bind_text(s, 3, cmd_id);
    int rc = sqlite3_step(s);
    *reply = NULL;
    if (rc == SQLITE_ROW)
        *reply = xstrdup((const char *)sqlite3_column_text(s, 0));
    sqlite3_reset(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return db_fail(st, err, "reading idempotency");
    return TB_OK;
}

int store_idem_put(store *st, const char *campaign, const char *seat, const char *cmd_id,
                   const char *reply, tb_err *err)
{
    sqlite3_stmt *s = stmt(st, S_IDEM_PUT);
    bind_text(s, 1, campaign);
    bind_text(s, 2, seat);
    bind_text(s, 3, cmd_id);
    bind_text(s, 4, reply);
    return step_done(st, s, err, "recording idempotency");
}

int store_snapshot_put(store *st, const char *campaign, int64_t seq, const json_t *state,
                       tb_err *err)
{
    sqlite3_stmt *s = stmt(st, S_SNAP_PUT);
    bind_text(s, 1, campaign);
    sqlite3_bind_int64(s, 2, seq);
    bind_json(s, 3, state);
    int r = step_done(st, s, err, "writing a snapshot");
    if (r)
        return r;
    s = stmt(st, S_SNAP_PRUNE);
    bind_text(s, 1, campaign);
    return step_done(st, s, err, "pruning snapshots");
}

struct replay {
    json_t *state;
    int64_t seq;
    tb_err *err;
};

static int replay_one(void *ctx, const store_event *ev)
{
    struct replay *rp = ctx;
    if (ev->seq != rp->seq + 1)
        return tb_fail(rp->err, TB_INTERNAL, "storage: event log of %s jumps from %lld to %lld",
                       ev->campaign, (long long)rp->seq, (long long)ev->seq);
    tb_err why = {0};
    json_t *next = proto_patch_apply(rp->state, ev->patch, &why);
    if (!next)
        return tb_fail(rp->err, TB_INTERNAL, "storage: event %lld of %s does not apply: %s",
                       (long long)ev->seq, ev->campaign, why.msg);
    json_decref(rp->state);
    rp->state = next;
    rp->seq = ev->seq;
    return TB_OK;
}

int store_campaign_load(store *st, const char *campaign, int from_zero, json_t **state,
                        int64_t *seq, tb_err *err)
{
    struct replay rp = {.state = NULL, .seq = 0, .err = err};
    if (!from_zero) {
        sqlite3_stmt *s = stmt(st, S_SNAP_LATEST);
        bind_text(s, 1, campaign);
        int rc = sqlite3_step(s);
        if (rc == SQLITE_ROW) {
            rp.seq = sqlite3_column_int64(s, 0);
            rp.state = column_json(s, 1);
        }
        sqlite3_reset(s);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            return db_fail(st, err, "reading a snapshot");
        if (rc == SQLITE_ROW && !rp.state)
            return tb_fail(err, TB_INTERNAL, "storage: snapshot %lld of %s is not valid JSON",
                           (long long)rp.seq, campaign);
    }
    if (!rp.state) {
        rp.state = json_object();
        rp.seq = 0;
    }
    int r = store_events_each(st, campaign, rp.seq, -1, replay_one, &rp, err);
    if (r) {
        json_decref(rp.state);
        return r;
    }
    *state = rp.state;
    *seq = rp.seq;
    return TB_OK;
}

int store_token_put(store *st, const char *token, const char *campaign, const char *seat,
                    int64_t at_ms, tb_err *err)
{
    char hex[65];
    sha256_hex(token, strlen(token), hex);
    sqlite3_stmt *s = stmt(st, S_TOKEN_PUT);
    bind_text(s, 1, hex);
    bind_text(s, 2, campaign);
    bind_text(s, 3, seat);
    sqlite3_bind_int64(s, 4, at_ms);
    return step_done(st, s, err, "storing a token");
}

int store_token_find(store *st, const char *token, char **campaign, char **seat, tb_err *err)
{
    char hex[65];
    *campaign = *seat = NULL;
    sha256_hex(token, strlen(token), hex);
    sqlite3_stmt *s = stmt(st, S_TOKEN_FIND);
    bind_text(s, 1, hex);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        *campaign = xstrdup((const char *)sqlite3_column_text(s, 0));
        *seat = xstrdup((const char *)sqlite3_column_text(s, 1));
    }
    sqlite3_reset(s);
    if (rc == SQLITE_ROW)
        return TB_OK;
    if (rc != SQLITE_DONE)
        return db_fail(st, err, "looking up a token");
    return tb_fail(err, TB_UNAUTHORIZED, "unknown or revoked token");
}

int store_token_revoke_seat(store *st, const char *campaign, const char *seat, tb_err *err)
{
    sqlite3_stmt *s = stmt(st, S_TOKEN_REVOKE);
    bind_text(s, 1, campaign);
    bind_text(s, 2, seat);
    return step_done(st, s, err, "revoking tokens");
}

int store_integrity_check(store *st, tb_err *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(st->db, "PRAGMA integrity_check", -1, &s, NULL) != SQLITE_OK)
        return db_fail(st, err, "integrity check");
    int r = TB_OK;
    if (sqlite3_step(s) == SQLITE_ROW) {
        const char *res = (const char *)sqlite3_column_text(s, 0);
        if (!res || strcmp(res, "ok") != 0)
            r = tb_fail(err, TB_INTERNAL, "storage: integrity check: %s", res ? res : "?");
    } else {
        r = db_fail(st, err, "integrity check");
    }
    sqlite3_finalize(s);
    return r;
}

sqlite3 *store__sqlite(store *st)
{
    return st->db;
}

int store_disk_full(const store *st)
{
    return st->full;
}
