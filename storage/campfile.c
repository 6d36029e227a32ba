/*
 * campfile.c — one campaign's file: its event log in seq order, the replies kept for refused
 * commands, its snapshots, and the in-memory index that recognises a re-sent command (store.h).
 *
 * Why this shape (issue 26): the events table's key is the seq itself (the rowid), so an append
 * writes at the right edge of one B-tree — one run of pages per commit, nothing scattered. A
 * command's idempotency id is a column of its own event, and its reply is rebuilt from the event
 * (the ack is {"t":"ack","id","seq","result"}, all in the row), so idempotency costs no second
 * table, no second index and no copy of the result. Refusals, which are no event, go to the
 * replies table, also keyed by an increasing rowid. The lookup index lives in memory: 16 bytes
 * per command (a 64-bit hash of seat and id, and the row it names), built when the file is opened
 * from the newest rows; a hit is confirmed by reading the row it names.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "protocol.h"
#include "store_internal.h"

/* 1: s5-store's first layout; 2: events.ack_seq and events.ack_entry (the acks of issue 27's two
 * counts), added to a schema-1 file when it is opened. */
#define CAMPFILE_SCHEMA 2

static const char CAMPFILE_TABLES[] =
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;"
    "CREATE TABLE events ("
    "  seq INTEGER PRIMARY KEY,"
    "  at_ms INTEGER NOT NULL,"
    "  seat TEXT NOT NULL,"
    "  op TEXT NOT NULL,"
    "  cmd_id TEXT,"
    "  args TEXT NOT NULL,"
    "  result TEXT NOT NULL,"
    "  patch TEXT NOT NULL,"
    "  ack_seq INTEGER,"  /* the seq the command's ack carries when not seq (a player's) */
    "  ack_entry INTEGER" /* the entry the command's ack carries (the GM's) */
    ");"
    "CREATE TABLE replies ("
    "  id INTEGER PRIMARY KEY,"
    "  at_ms INTEGER NOT NULL,"
    "  seat TEXT NOT NULL,"
    "  cmd_id TEXT NOT NULL,"
    "  reply TEXT NOT NULL"
    ");"
    "CREATE TABLE snapshots ("
    "  seq INTEGER PRIMARY KEY,"
    "  state TEXT NOT NULL"
    ");";

enum fstmt {
    F_BEGIN,
    F_COMMIT,
    F_ROLLBACK,
    F_APPEND,
    F_LAST,
    F_EVENT_ONE,
    F_REPLY_PUT,
    F_REPLY_ONE,
    F_SNAP_PUT,
    F_SNAP_PRUNE,
    F_SNAP_LATEST,
    F__COUNT
};

static const char *const FSQL[F__COUNT] = {
    [F_BEGIN] = "BEGIN IMMEDIATE",
    [F_COMMIT] = "COMMIT",
    [F_ROLLBACK] = "ROLLBACK",
    [F_APPEND] = "INSERT INTO events (seq, at_ms, seat, op, cmd_id, args, result, patch, ack_seq,"
                 " ack_entry) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    [F_LAST] = "SELECT coalesce(max(seq), 0) FROM events",
    [F_EVENT_ONE] = "SELECT seat, cmd_id, result, ack_seq, ack_entry FROM events WHERE seq = ?1",
    [F_REPLY_PUT] = "INSERT INTO replies (at_ms, seat, cmd_id, reply) VALUES (?1, ?2, ?3, ?4)",
    [F_REPLY_ONE] = "SELECT seat, cmd_id, reply FROM replies WHERE id = ?1",
    [F_SNAP_PUT] = "INSERT OR REPLACE INTO snapshots (seq, state) VALUES (?1, ?2)",
    [F_SNAP_PRUNE] = "DELETE FROM snapshots WHERE seq < (SELECT seq FROM snapshots"
                     " ORDER BY seq DESC LIMIT 1 OFFSET 1)",
    [F_SNAP_LATEST] = "SELECT seq, state FROM snapshots ORDER BY seq DESC LIMIT 1",
};

/* One recognised command: the hash of (seat, id) and the row that holds its reply: an event's seq
 * (> 0) or minus a replies rowid (< 0). */
typedef struct idem_ent {
    uint64_t h;
    int64_t ref;
} idem_ent;

/* The newest STORE_IDEM_KEEP entries, oldest first, in a ring; slots is an open-addressing table
 * (linear probing, a power of two, at least twice the ring) of ring positions + 1 (0: empty). */
typedef struct idem_map {
    idem_ent *ring;
    size_t cap, head, n;
    uint32_t *slots;
    size_t nslots;
} idem_map;

/* An event appended in the open transaction, not yet written (campfile_append): one block, its
 * texts after it. */
typedef struct cf_row {
    struct cf_row *next;
    int64_t seq, at_ms, ack_seq, ack_entry;
    const char *seat, *op, *cmd_id, *args, *result, *patch; /* cmd_id may be NULL */
    int result_len, patch_len;
} cf_row;

struct campfile {
    char *id;
    char *path;
    sqlite3 *db;
    sqlite3_stmt *stmt[F__COUNT];
    int in_tx;
    int begun;                /* the open transaction's BEGIN IMMEDIATE has run (cf_write) */
    cf_row *rows, **rows_end; /* its appended events not yet written, oldest first */
    int full;
    int64_t last_seq; /* the highest seq, committed or in the open transaction */
    idem_map idem;
    int wal_fd; /* the WAL, opened at its first sync (campfile_sync_wal); -1 until then */
};

static int cf_write(campfile *f, tb_err *err);

/* ---- helpers ------------------------------------------------------------------------------ */

static int cf_fail(campfile *f, tb_err *err, const char *what)
{
    f->full = sqlite3_errcode(f->db) == SQLITE_FULL;
    return tb_fail(err, TB_INTERNAL, "storage: campaign %s: %s: %s", f->id, what,
                   sqlite3_errmsg(f->db));
}

/* The statement, prepared on first use (a file that only serves reads never prepares the
 * writes), reset and with its bindings cleared. NULL with *err set when it cannot be prepared. */
static sqlite3_stmt *cf_stmt_as(campfile *f, enum fstmt id, int clear, tb_err *err)
{
    sqlite3_stmt *s = f->stmt[id];
    if (!s) {
        if (sqlite3_prepare_v3(f->db, FSQL[id], -1, SQLITE_PREPARE_PERSISTENT, &f->stmt[id],
                               NULL) != SQLITE_OK) {
            cf_fail(f, err, "preparing a statement");
            return NULL;
        }
        return f->stmt[id];
    }
    sqlite3_reset(s);
    if (clear)
        sqlite3_clear_bindings(s);
    return s;
}

/* The prepared statement id, reset, its parameters null. */
static sqlite3_stmt *cf_stmt(campfile *f, enum fstmt id, tb_err *err)
{
    return cf_stmt_as(f, id, 1, err);
}

/* Steps s to its end; a failure names the campaign (store__step_in). */
static int cf_done(campfile *f, sqlite3_stmt *s, tb_err *err, const char *what)
{
    return store__step_in(s, err, f->id, what, &f->full);
}

static json_t *column_json(sqlite3_stmt *s, int i)
{
    const char *text = (const char *)sqlite3_column_text(s, i);
    int n = sqlite3_column_bytes(s, i);
    return text ? json_loadb(text, (size_t)n, JSON_DECODE_ANY, NULL) : NULL;
}

/* ---- the idempotency index ---------------------------------------------------------------- */

static uint64_t idem_hash(const char *seat, const char *cmd_id)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (const char *p = seat; *p; p++)
        h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
    h = (h ^ 0xff) * 0x100000001b3ull; /* never a byte of a string: "a"+"bc" != "ab"+"c" */
    for (const char *p = cmd_id; *p; p++)
        h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
    h ^= h >> 31;
    h *= 0x94d049bb133111ebull;
    return h ^ (h >> 29);
}

static void idem_clear(idem_map *m)
{
    free(m->ring);
    free(m->slots);
    memset(m, 0, sizeof *m);
}

static void idem_slot_add(idem_map *m, size_t pos)
{
    size_t mask = m->nslots - 1, s = m->ring[pos].h & mask;
    while (m->slots[s])
        s = (s + 1) & mask;
    m->slots[s] = (uint32_t)pos + 1;
}

/* (Re)builds the slots for a ring of m->cap entries. */
static void idem_reslot(idem_map *m)
{
    size_t want = 16;
    while (want < 2 * m->cap)
        want *= 2;
    free(m->slots);
    m->nslots = want;
    m->slots = xcalloc(want, sizeof *m->slots);
    for (size_t i = 0; i < m->n; i++)
        idem_slot_add(m, (m->head + i) % m->cap);
}

/* Drops the oldest entry: its slot goes, and the entries after it in the probe run move back
 * (deletion in linear probing without tombstones). */
static void idem_drop_oldest(idem_map *m)
{
    size_t mask = m->nslots - 1, s = m->ring[m->head].h & mask;
    while (m->slots[s] != m->head + 1)
        s = (s + 1) & mask;
    m->slots[s] = 0;
    for (size_t j = (s + 1) & mask; m->slots[j]; j = (j + 1) & mask) {
        size_t home = m->ring[m->slots[j] - 1].h & mask;
        /* the entry at j may fill the hole at s when its home is not in (s, j] */
        if ((j > s && (home <= s || home > j)) || (j < s && (home <= s && home > j))) {
            m->slots[s] = m->slots[j];
            m->slots[j] = 0;
            s = j;
        }
    }
    m->head = (m->head + 1) % m->cap;
    m->n--;
}

static void idem_add(idem_map *m, uint64_t h, int64_t ref)
{
    if (m->n == STORE_IDEM_KEEP)
        idem_drop_oldest(m);
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        if (cap > STORE_IDEM_KEEP)
            cap = STORE_IDEM_KEEP;
        idem_ent *ring = xmalloc(cap * sizeof *ring);
        for (size_t i = 0; i < m->n; i++)
            ring[i] = m->ring[(m->head + i) % m->cap];
        free(m->ring);
        m->ring = ring;
        m->cap = cap;
        m->head = 0;
        idem_reslot(m);
    }
    size_t pos = (m->head + m->n) % m->cap;
    m->ring[pos] = (idem_ent){h, ref};
    m->n++;
    idem_slot_add(m, pos);
}

/* The rows an index entry may stand for, in the order they were written. */
typedef struct idem_row {
    int64_t at_ms, order, ref;
    uint64_t h;
} idem_row;

static int idem_row_cmp(const void *a, const void *b)
{
    const idem_row *x = a, *y = b;
    if (x->at_ms != y->at_ms)
        return x->at_ms < y->at_ms ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Builds the index from the newest STORE_IDEM_KEEP commands and refusals of the file. */
static int idem_load(campfile *f, tb_err *err)
{
    static const char *const SQL[2] = {
        "SELECT seq, seat, cmd_id, at_ms FROM events WHERE cmd_id IS NOT NULL"
        " ORDER BY seq DESC LIMIT ?1",
        "SELECT id, seat, cmd_id, at_ms FROM replies ORDER BY id DESC LIMIT ?1",
    };
    idem_clear(&f->idem);
    idem_row *rows = NULL;
    size_t n = 0, cap = 0;
    int r = TB_OK;
    for (int k = 0; k < 2 && !r; k++) {
        sqlite3_stmt *s;
        if (sqlite3_prepare_v2(f->db, SQL[k], -1, &s, NULL) != SQLITE_OK) {
            r = cf_fail(f, err, "reading the idempotency ids");
            break;
        }
        sqlite3_bind_int(s, 1, STORE_IDEM_KEEP);
        int rc;
        while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
            if (n == cap) {
                cap = cap ? cap * 2 : 256;
                rows = xrealloc(rows, cap * sizeof *rows);
            }
            int64_t id = sqlite3_column_int64(s, 0);
            rows[n++] = (idem_row){
                .at_ms = sqlite3_column_int64(s, 3),
                .order = k == 0 ? id * 2 : id * 2 + 1,
                .ref = k == 0 ? id : -id,
                .h = idem_hash((const char *)sqlite3_column_text(s, 1),
                               (const char *)sqlite3_column_text(s, 2)),
            };
        }
        if (rc != SQLITE_DONE)
            r = cf_fail(f, err, "reading the idempotency ids");
        sqlite3_finalize(s);
    }
    if (!r && n) {
        qsort(rows, n, sizeof *rows, idem_row_cmp);
        for (size_t i = n > STORE_IDEM_KEEP ? n - STORE_IDEM_KEEP : 0; i < n; i++)
            idem_add(&f->idem, rows[i].h, rows[i].ref);
    }
    free(rows);
    return r;
}

/* ---- open / close ------------------------------------------------------------------------- */

/* Creates the schema of a new file (inside one transaction) and records whose file it is. */
static int cf_create_schema(campfile *f, tb_err *err)
{
    char sql[256];
    snprintf(sql, sizeof sql,
             "PRAGMA application_id = %d; PRAGMA user_version = %d;"
             " INSERT INTO meta (key, value) VALUES ('campaign', '%s');",
             CAMPFILE_APP_ID, CAMPFILE_SCHEMA, f->id); /* the id is checked: [a-z0-9] */
    if (store__exec(f->db, "BEGIN IMMEDIATE", err))
        return TB_INTERNAL;
    if (store__exec(f->db, CAMPFILE_TABLES, err) || store__exec(f->db, sql, err)) {
        store__exec(f->db, "ROLLBACK", NULL);
        return TB_INTERNAL;
    }
    return store__exec(f->db, "COMMIT", err);
}

/* Checks that an existing file is this campaign's file, of a schema this tabled reads. */
static int cf_check(campfile *f, tb_err *err)
{
    int64_t app = store__int(f->db, "PRAGMA application_id", -1);
    int64_t ver = store__int(f->db, "PRAGMA user_version", -1);
    if (app == 0 && ver == 0)
        return tb_fail(err, TB_INTERNAL,
                       "storage: the file of campaign %s (%s) is empty: restore it from a backup",
                       f->id, f->path);
    if (app != CAMPFILE_APP_ID)
        return tb_fail(err, TB_INTERNAL, "storage: %s is not a tabled campaign file", f->path);
    if (ver > CAMPFILE_SCHEMA)
        return tb_fail(err, TB_INTERNAL,
                       "storage: %s has campaign schema %lld, newer than this tabled (%d)", f->path,
                       (long long)ver, CAMPFILE_SCHEMA);
    sqlite3_stmt *s;
    int r = TB_OK;
    if (sqlite3_prepare_v2(f->db, "SELECT value FROM meta WHERE key = 'campaign'", -1, &s, NULL) !=
        SQLITE_OK)
        return cf_fail(f, err, "reading the file's campaign");
    if (sqlite3_step(s) != SQLITE_ROW ||
        strcmp((const char *)sqlite3_column_text(s, 0), f->id) != 0)
        r = tb_fail(err, TB_INTERNAL, "storage: %s is not the file of campaign %s", f->path, f->id);
    sqlite3_finalize(s);
    return r;
}

/* Brings a schema-1 file to CAMPFILE_SCHEMA in one transaction: its acks carry their event's seq
 * and no entry, which the new columns say by being null. */
static int cf_upgrade(campfile *f, tb_err *err)
{
    char sql[128];
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d;", CAMPFILE_SCHEMA);
    if (store__exec(f->db, "BEGIN IMMEDIATE", err))
        return TB_INTERNAL;
    if (store__exec(f->db,
                    "ALTER TABLE events ADD COLUMN ack_seq INTEGER;"
                    " ALTER TABLE events ADD COLUMN ack_entry INTEGER;",
                    err) ||
        store__exec(f->db, sql, err)) {
        store__exec(f->db, "ROLLBACK", NULL);
        return TB_INTERNAL;
    }
    return store__exec(f->db, "COMMIT", err);
}

int campfile_open(const char *path, const char *id, int create, int sync_full, campfile **out,
                  tb_err *err)
{
    *out = NULL;
    campfile *f = xcalloc(1, sizeof *f);
    f->id = xstrdup(id);
    f->path = xstrdup(path);
    f->wal_fd = -1;
    f->rows_end = &f->rows;
    int r;
    if (!create && access(path, F_OK) != 0) {
        r = tb_fail(err, TB_NOT_FOUND, "storage: campaign %s has no file", id);
        goto fail;
    }
    /* NOMUTEX: one thread at a time uses the connection (the loop's, or the store's committer
     * while the loop's thread leaves the batch's files alone: store.c; the checkpoints and
     * backups open the file on their own connections; the commit's sync threads only fsync the
     * WAL), so SQLite need not lock it around every call (issue 26: 20 locks fewer per command) */
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0);
    if ((r = store__open_db(path, flags, &f->db, err)))
        goto fail;
    /* A campaign's hot pages are the end of its log; a small cache keeps an idle campaign small
     * (SQLite allocates cache pages only as they are used). */
    if ((r = store__pragmas(f->db, sync_full, err)) ||
        (r = store__exec(f->db, "PRAGMA cache_size = -512", err)))
        goto fail;
    int64_t app = store__int(f->db, "PRAGMA application_id", -1);
    int64_t ver = store__int(f->db, "PRAGMA user_version", -1);
    if (app == 0 && ver == 0 && create)
        r = cf_create_schema(f, err); /* new, or its creation was cut short by a crash */
    else if (!(r = cf_check(f, err)) && ver < CAMPFILE_SCHEMA)
        r = cf_upgrade(f, err);
    if (r || (r = idem_load(f, err)))
        goto fail;
    sqlite3_stmt *s = cf_stmt(f, F_LAST, err);
    if (!s || sqlite3_step(s) != SQLITE_ROW) {
        r = s ? cf_fail(f, err, "reading the last seq") : TB_INTERNAL;
        goto fail;
    }
    f->last_seq = sqlite3_column_int64(s, 0);
    sqlite3_reset(s);
    *out = f;
    return TB_OK;
fail:
    campfile_close(f);
    return r ? r : TB_INTERNAL;
}

void campfile_close(campfile *f)
{
    if (!f)
        return;
    if (f->in_tx)
        campfile_rollback(f);
    for (int i = 0; i < F__COUNT; i++)
        sqlite3_finalize(f->stmt[i]);
    sqlite3_close(f->db);
    if (f->wal_fd >= 0)
        close(f->wal_fd);
    idem_clear(&f->idem);
    free(f->id);
    free(f->path);
    free(f);
}

const char *campfile_id(const campfile *f)
{
    return f->id;
}

const char *campfile_path(const campfile *f)
{
    return f->path;
}

sqlite3 *campfile_sqlite(campfile *f)
{
    tb_err ignored; /* its users run outside batches: nothing is queued (a failure stays queued) */
    cf_write(f, &ignored);
    return f->db;
}

int campfile_full(const campfile *f)
{
    return f->full;
}

/* ---- transactions ------------------------------------------------------------------------- */

/* Inserts one appended event (bound from its texts). */
static int cf_insert(campfile *f, const cf_row *row, tb_err *err)
{
    sqlite3_stmt *s = cf_stmt_as(f, F_APPEND, 0, err); /* every parameter bound below */
    if (!s)
        return TB_INTERNAL;
    sqlite3_bind_int64(s, 1, row->seq);
    sqlite3_bind_int64(s, 2, row->at_ms);
    sqlite3_bind_text(s, 3, row->seat, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 4, row->op, -1, SQLITE_STATIC);
    if (row->cmd_id)
        sqlite3_bind_text(s, 5, row->cmd_id, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(s, 5);
    sqlite3_bind_text(s, 6, row->args, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 7, row->result, row->result_len, SQLITE_STATIC);
    sqlite3_bind_text(s, 8, row->patch, row->patch_len, SQLITE_STATIC);
    if (row->cmd_id && row->ack_seq > 0)
        sqlite3_bind_int64(s, 9, row->ack_seq);
    else
        sqlite3_bind_null(s, 9);
    if (row->cmd_id && row->ack_entry > 0)
        sqlite3_bind_int64(s, 10, row->ack_entry);
    else
        sqlite3_bind_null(s, 10);
    int r = cf_done(f, s, err, "appending an event");
    sqlite3_clear_bindings(s); /* the row's texts are about to be freed */
    return r;
}

static void cf_rows_free(campfile *f)
{
    for (cf_row *row = f->rows, *next; row; row = next) {
        next = row->next;
        free(row);
    }
    f->rows = NULL;
    f->rows_end = &f->rows;
}

/* Writes what the open transaction holds so far: its BEGIN IMMEDIATE, then the events appended
 * since (issue 26: an append only queues its event, so that the SQLite work of a turn's appends
 * runs with its COMMIT, on the committer when the store starts one: store.c). Called before any
 * other statement on the file, so a read sees every append. 0, or the first failure (the
 * transaction is then rolled back by whoever ends it). */
static int cf_write(campfile *f, tb_err *err)
{
    if (!f->in_tx)
        return TB_OK;
    if (!f->begun) {
        sqlite3_stmt *s = cf_stmt(f, F_BEGIN, err);
        int r = s ? cf_done(f, s, err, "begin") : TB_INTERNAL;
        if (r)
            return r;
        f->begun = 1;
    }
    while (f->rows) {
        cf_row *row = f->rows;
        int r = cf_insert(f, row, err);
        if (r)
            return r;
        f->rows = row->next;
        if (!f->rows)
            f->rows_end = &f->rows;
        free(row);
    }
    return TB_OK;
}

int campfile_begin(campfile *f, tb_err *err)
{
    if (f->in_tx)
        return tb_fail(err, TB_CONFLICT, "storage: a transaction is already open");
    f->in_tx = 1; /* its BEGIN runs with its first statement (cf_write) */
    f->begun = 0;
    return TB_OK;
}

int campfile_commit(campfile *f, tb_err *err)
{
    if (!f->in_tx)
        return tb_fail(err, TB_CONFLICT, "storage: no transaction is open");
    int r = cf_write(f, err);
    if (!r && f->begun) {
        sqlite3_stmt *s = cf_stmt(f, F_COMMIT, err);
        r = s ? cf_done(f, s, err, "commit") : TB_INTERNAL;
    }
    if (r) {
        /* A failed COMMIT (disk full, I/O error) may leave the transaction open: end it, so the
         * next batch starts clean. Nothing of this transaction is durable. */
        campfile_rollback(f);
        return TB_INTERNAL;
    }
    f->in_tx = 0;
    f->begun = 0;
    f->full = 0;
    return TB_OK;
}

void campfile_rollback(campfile *f)
{
    cf_rows_free(f);
    f->begun = 0;
    if (!sqlite3_get_autocommit(f->db)) {
        sqlite3_stmt *s = cf_stmt(f, F_ROLLBACK, NULL);
        if (s)
            cf_done(f, s, NULL, "rollback");
    }
    f->in_tx = 0;
    /* What the transaction added to the index and to the last seq is gone with it: read both
     * again (a rollback is the failure path, not the hot one). */
    tb_err ignored;
    idem_load(f, &ignored);
    sqlite3_stmt *s = cf_stmt(f, F_LAST, NULL);
    if (s && sqlite3_step(s) == SQLITE_ROW)
        f->last_seq = sqlite3_column_int64(s, 0);
    if (s)
        sqlite3_reset(s);
}

int campfile_in_tx(const campfile *f)
{
    return f->in_tx;
}

int campfile_sync_wal(campfile *f)
{
    if (f->wal_fd < 0) {
        char path[4200];
        snprintf(path, sizeof path, "%s-wal", f->path);
        f->wal_fd = open(path, O_RDONLY | O_CLOEXEC);
        if (f->wal_fd < 0)
            return errno == ENOENT ? 0 : -1; /* nothing written through a WAL yet */
    }
    return fsync(f->wal_fd);
}

/* ---- events ------------------------------------------------------------------------------- */

/* Copies n bytes of src and a NUL to *at, moves *at past them; returns the copy. */
static const char *cf_put(char **at, const char *src, size_t n)
{
    char *copy = *at;
    memcpy(copy, src, n);
    copy[n] = '\0';
    *at += n + 1;
    return copy;
}

int campfile_append(campfile *f, const store_event *ev, tb_err *err)
{
    char *args = ev->args ? proto_json_dump(ev->args, NULL) : NULL;
    char *result = ev->result_text || !ev->result ? NULL : proto_json_dump(ev->result, NULL);
    char *patch = ev->patch_text || !ev->patch ? NULL : proto_json_dump(ev->patch, NULL);
    const char *args_t = args ? args : "null";
    const char *result_t = ev->result_text ? ev->result_text : result ? result : "null";
    const char *patch_t = ev->patch_text ? ev->patch_text : patch ? patch : "null";
    size_t result_len = ev->result_text ? ev->result_len : strlen(result_t);
    size_t patch_len = ev->patch_text ? ev->patch_len : strlen(patch_t);
    size_t seat_len = strlen(ev->seat), op_len = strlen(ev->op), args_len = strlen(args_t),
           cmd_len = ev->cmd_id ? strlen(ev->cmd_id) : 0;
    cf_row *row =
        xmalloc(sizeof *row + seat_len + op_len + cmd_len + args_len + result_len + patch_len + 6);
    char *at = (char *)(row + 1);
    *row = (cf_row){.seq = ev->seq,
                    .at_ms = ev->at_ms,
                    .ack_seq = ev->ack_seq,
                    .ack_entry = ev->ack_entry,
                    .result_len = (int)result_len,
                    .patch_len = (int)patch_len};
    row->seat = cf_put(&at, ev->seat, seat_len);
    row->op = cf_put(&at, ev->op, op_len);
    row->cmd_id = ev->cmd_id ? cf_put(&at, ev->cmd_id, cmd_len) : NULL;
    row->args = cf_put(&at, args_t, args_len);
    row->result = cf_put(&at, result_t, result_len);
    row->patch = cf_put(&at, patch_t, patch_len);
    free(args);
    free(result);
    free(patch);
    if (f->in_tx && ev->seq > f->last_seq) {
        /* at the log's right edge, in a transaction: nothing there to conflict with; written with
         * the transaction's next statement or its COMMIT (cf_write) */
        *f->rows_end = row;
        f->rows_end = &row->next;
    } else { /* outside a batch, or a seq that may be taken: written now, its error now */
        int r = cf_write(f, err);
        if (!r)
            r = cf_insert(f, row, err);
        free(row);
        if (r)
            return r;
    }
    if (ev->seq > f->last_seq)
        f->last_seq = ev->seq;
    if (ev->cmd_id)
        idem_add(&f->idem, idem_hash(ev->seat, ev->cmd_id), ev->seq);
    return TB_OK;
}

int campfile_last_seq(campfile *f, int64_t *seq, tb_err *err)
{
    (void)err;
    *seq = f->last_seq;
    return TB_OK;
}

int campfile_events_each(campfile *f, int64_t after, int64_t upto, store_event_fn fn, void *ctx,
                         tb_err *err)
{
    if (cf_write(f, err))
        return TB_INTERNAL;
    /* A statement of its own per walk: fn may call back into the store (nested reads). */
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(f->db,
                           "SELECT seq, seat, op, args, result, patch, at_ms, cmd_id FROM events"
                           " WHERE seq > ?1 AND seq <= ?2 ORDER BY seq",
                           -1, &s, NULL) != SQLITE_OK)
        return cf_fail(f, err, "reading events");
    sqlite3_bind_int64(s, 1, after);
    sqlite3_bind_int64(s, 2, upto < 0 ? INT64_MAX : upto);
    int rc, r = TB_OK;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        json_t *args = column_json(s, 3), *result = column_json(s, 4), *patch = column_json(s, 5);
        store_event ev = {
            .campaign = f->id,
            .seq = sqlite3_column_int64(s, 0),
            .seat = (const char *)sqlite3_column_text(s, 1),
            .op = (const char *)sqlite3_column_text(s, 2),
            .args = args,
            .result = result,
            .patch = patch,
            .at_ms = sqlite3_column_int64(s, 6),
            .cmd_id = (const char *)sqlite3_column_text(s, 7),
        };
        if (!args || !patch)
            r = tb_fail(err, TB_INTERNAL, "storage: event %lld of %s is not valid JSON",
                        (long long)ev.seq, f->id);
        else
            r = fn(ctx, &ev);
        json_decref(args);
        json_decref(result);
        json_decref(patch);
        if (r)
            break;
    }
    if (!r && rc != SQLITE_DONE)
        r = cf_fail(f, err, "reading events");
    sqlite3_finalize(s);
    return r;
}

/* ---- idempotency -------------------------------------------------------------------------- */

/* The reply the index entry ref stands for if its row is (seat, cmd_id): a new malloc'd string
 * into *reply, or NULL when the row is another command's (a hash collision). */
static int idem_reply_of(campfile *f, int64_t ref, const char *seat, const char *cmd_id,
                         char **reply, tb_err *err)
{
    if (cf_write(f, err))
        return TB_INTERNAL;
    sqlite3_stmt *s = cf_stmt(f, ref > 0 ? F_EVENT_ONE : F_REPLY_ONE, err);
    if (!s)
        return TB_INTERNAL;
    sqlite3_bind_int64(s, 1, ref > 0 ? ref : -ref);
    int rc = sqlite3_step(s);
    int r = TB_OK;
    *reply = NULL;
    if (rc == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(s, 0), seat) == 0 &&
        strcmp((const char *)sqlite3_column_text(s, 1), cmd_id) == 0) {
        if (ref < 0) {
            *reply = xstrdup((const char *)sqlite3_column_text(s, 2));
        } else {
            json_t *result = column_json(s, 2);
            if (!result)
                r = tb_fail(err, TB_INTERNAL, "storage: event %lld of %s is not valid JSON",
                            (long long)ref, f->id);
            else
                *reply = store__ack_text(
                    cmd_id,
                    sqlite3_column_type(s, 3) == SQLITE_NULL ? ref : sqlite3_column_int64(s, 3),
                    json_is_null(result) ? NULL : result, sqlite3_column_int64(s, 4));
            json_decref(result);
        }
    } else if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        r = cf_fail(f, err, "reading idempotency");
    }
    sqlite3_reset(s);
    return r;
}

int campfile_idem_get(campfile *f, const char *seat, const char *cmd_id, char **reply, tb_err *err)
{
    *reply = NULL;
    idem_map *m = &f->idem;
    if (!m->n)
        return TB_OK;
    uint64_t h = idem_hash(seat, cmd_id);
    size_t mask = m->nslots - 1;
    for (size_t s = h & mask; m->slots[s]; s = (s + 1) & mask) {
        const idem_ent *e = &m->ring[m->slots[s] - 1];
        if (e->h != h)
            continue;
        int r = idem_reply_of(f, e->ref, seat, cmd_id, reply, err);
        if (r || *reply)
            return r;
    }
    return TB_OK;
}

int campfile_idem_put(campfile *f, const char *seat, const char *cmd_id, const char *reply,
                      int64_t at_ms, tb_err *err)
{
    char *have = NULL;
    int r = campfile_idem_get(f, seat, cmd_id, &have, err);
    free(have);
    if (r)
        return r;
    if (have)
        return tb_fail(err, TB_CONFLICT, "storage: recording idempotency: already exists");
    if (cf_write(f, err))
        return TB_INTERNAL;
    sqlite3_stmt *s = cf_stmt(f, F_REPLY_PUT, err);
    if (!s)
        return TB_INTERNAL;
    sqlite3_bind_int64(s, 1, at_ms);
    sqlite3_bind_text(s, 2, seat, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 3, cmd_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 4, reply, -1, SQLITE_STATIC);
    if ((r = cf_done(f, s, err, "recording idempotency")))
        return r;
    idem_add(&f->idem, idem_hash(seat, cmd_id), -sqlite3_last_insert_rowid(f->db));
    return TB_OK;
}

/* ---- snapshots and the rebuild ------------------------------------------------------------ */

int campfile_snapshot_put(campfile *f, int64_t seq, const char *text, size_t len, tb_err *err)
{
    if (cf_write(f, err))
        return TB_INTERNAL;
    sqlite3_stmt *s = cf_stmt(f, F_SNAP_PUT, err);
    if (!s)
        return TB_INTERNAL;
    sqlite3_bind_int64(s, 1, seq);
    sqlite3_bind_text(s, 2, text, (int)len, SQLITE_STATIC);
    int r = cf_done(f, s, err, "writing a snapshot");
    if (r)
        return r;
    s = cf_stmt(f, F_SNAP_PRUNE, err);
    return s ? cf_done(f, s, err, "pruning snapshots") : TB_INTERNAL;
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

int campfile_load(campfile *f, int from_zero, json_t **state, int64_t *seq, tb_err *err)
{
    struct replay rp = {.state = NULL, .seq = 0, .err = err};
    if (cf_write(f, err))
        return TB_INTERNAL;
    if (!from_zero) {
        sqlite3_stmt *s = cf_stmt(f, F_SNAP_LATEST, err);
        if (!s)
            return TB_INTERNAL;
        int rc = sqlite3_step(s);
        if (rc == SQLITE_ROW) {
            rp.seq = sqlite3_column_int64(s, 0);
            rp.state = column_json(s, 1);
        }
        sqlite3_reset(s);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            return cf_fail(f, err, "reading a snapshot");
        if (rc == SQLITE_ROW && !rp.state)
            return tb_fail(err, TB_INTERNAL, "storage: snapshot %lld of %s is not valid JSON",
                           (long long)rp.seq, f->id);
    }
    if (!rp.state) {
        rp.state = json_object();
        rp.seq = 0;
    }
    int r = campfile_events_each(f, rp.seq, -1, replay_one, &rp, err);
    if (r) {
        json_decref(rp.state);
        return r;
    }
    *state = rp.state;
    *seq = rp.seq;
    return TB_OK;
}

int campfile_integrity_check(campfile *f, tb_err *err)
{
    if (cf_write(f, err))
        return TB_INTERNAL;
    return store__check_file(f->db, f->path, err);
}
