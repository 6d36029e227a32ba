/*
 * store.c — the store: the host file, the campaign files it opens on first use, and the batch
 * that commits them (store.h for the contract, storage/README.md for the why).
 */
#include "store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "protocol.h"
#include "sha256.h"
#include "store_internal.h"

/* Host statements. */
enum stmt_id {
    S_BEGIN,
    S_COMMIT,
    S_ROLLBACK,
    S_CAMPAIGN_INSERT,
    S_CAMPAIGN_IDS,
    S_CAMPAIGN_COUNT,
    S_CAMPAIGN_EXISTS,
    S_SUMMARY_PUT,
    S_SUMMARY_ALL,
    S_BY_JOIN,
    S_IDEM_GET,
    S_IDEM_PUT,
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
    [S_CAMPAIGN_COUNT] = "SELECT count(*) FROM campaigns",
    [S_CAMPAIGN_EXISTS] = "SELECT 1 FROM campaigns WHERE id = ?1",
    [S_SUMMARY_PUT] = "UPDATE campaigns SET name = ?2, system = ?3, join_code = ?4, seq = ?5,"
                      " seats = ?6 WHERE id = ?1",
    [S_SUMMARY_ALL] = "SELECT id, name, system, join_code, seq, seats FROM campaigns"
                      " ORDER BY created_ms, id",
    [S_BY_JOIN] = "SELECT id FROM campaigns"
                  " WHERE upper(replace(replace(join_code, '-', ''), ' ', '')) = ?1 LIMIT 1",
    [S_IDEM_GET] =
        "SELECT reply FROM idempotency WHERE campaign = '' AND seat = ?1 AND cmd_id = ?2",
    [S_IDEM_PUT] =
        "INSERT INTO idempotency (campaign, seat, cmd_id, reply) VALUES ('', ?1, ?2, ?3)",
    [S_TOKEN_PUT] = "INSERT INTO tokens (hash, campaign, seat, created_ms) VALUES (?1, ?2, ?3, ?4)",
    [S_TOKEN_FIND] = "SELECT campaign, seat FROM tokens WHERE hash = ?1",
    [S_TOKEN_REVOKE] = "DELETE FROM tokens WHERE campaign = ?1 AND seat = ?2",
};

/* An open campaign file and what the store knows of it. */
typedef struct cslot {
    campfile *f;
    uint64_t batch_gen; /* the batch that last wrote to it */
    int failed;         /* that batch's commit failed */
    size_t batch_ix;    /* its place in that batch (store_commit_start's files commit in order) */
    int decided;        /* committed or failed (after store_commit_start: under the mutex) */
    uint64_t dirty_gen; /* store_take_dirty round it was listed in */
    struct cslot *next; /* hash chain */
} cslot;

struct store {
    char *path; /* the host file */
    char *dir;  /* PATH.campaigns */
    int sync_full;
    sqlite3 *db;
    sqlite3_stmt *stmt[S__COUNT];
    /* open campaign files: a chained hash table by id */
    cslot **tab;
    size_t ntab, nopen;
    /* the batch */
    int in_batch;
    uint64_t gen;
    cslot **batch;
    size_t nbatch, capbatch;
    int host_tx;     /* the host file has a transaction in this batch */
    int host_failed; /* the last batch's host commit failed */
    int full;        /* the last failure was SQLITE_FULL */
    /* files committed to since the last store_take_dirty */
    uint64_t dirty_gen;
    char **dirty;
    size_t ndirty, capdirty;
    int host_dirty;
    int dir_sync_due; /* a campaign file was created in the batch: sync the directory at commit */
    /* the committer: a thread that commits a batch's campaign files while the loop delivers */
    struct {
        pthread_t t;
        int started, quit;
        pthread_mutex_t mu;
        pthread_cond_t go, step;
        size_t n;      /* the batch's files to commit (store_commit_start) */
        size_t next;   /* the first of them nobody has taken yet */
        size_t err_ix; /* the first file in batch order that failed (n: none), and its error */
        tb_err err;
    } cm;
    int async;    /* store_commit_start handed the batch's files to the committer */
    char *tmpdir; /* store_open_reader's copy of a single-file database, removed at close */
};

static void committer_stop(store *st);

/* ---- shared helpers (store_internal.h) ----------------------------------------------------- */

int store__open_db(const char *path, int flags, sqlite3 **db, tb_err *err)
{
    *db = NULL;
    if (sqlite3_open_v2(path, db, flags, store__vfs()) != SQLITE_OK) {
        tb_fail(err, TB_INTERNAL, "storage: cannot open %s: %s", path,
                *db ? sqlite3_errmsg(*db) : "out of memory");
        sqlite3_close(*db);
        *db = NULL;
        return TB_INTERNAL;
    }
    sqlite3_busy_timeout(*db, 5000);
    return TB_OK;
}

int store__step_in(sqlite3_stmt *s, tb_err *err, const char *campaign, const char *what,
                   int *full)
{
    int rc = sqlite3_step(s);
    while (rc == SQLITE_ROW)
        rc = sqlite3_step(s);
    int r = TB_OK;
    const char *in = campaign ? "campaign " : "", *id = campaign ? campaign : "",
               *sep = campaign ? ": " : "";
    if (rc == SQLITE_CONSTRAINT) {
        r = tb_fail(err, TB_CONFLICT, "storage: %s%s%s%s: already exists", in, id, sep, what);
    } else if (rc != SQLITE_DONE) {
        sqlite3 *db = sqlite3_db_handle(s);
        *full = sqlite3_errcode(db) == SQLITE_FULL;
        r = tb_fail(err, TB_INTERNAL, "storage: %s%s%s%s: %s", in, id, sep, what,
                    sqlite3_errmsg(db));
    }
    sqlite3_reset(s);
    return r;
}

int store__step(sqlite3_stmt *s, tb_err *err, const char *what, int *full)
{
    return store__step_in(s, err, NULL, what, full);
}

int store__run1(sqlite3 *db, const char *sql, const char *text, tb_err *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        return tb_fail(err, TB_INTERNAL, "storage: %s", sqlite3_errmsg(db));
    if (text)
        sqlite3_bind_text(s, 1, text, -1, SQLITE_TRANSIENT);
    int full = 0, r = store__step(s, err, "a statement", &full);
    sqlite3_finalize(s);
    return r;
}

int store__exec(sqlite3 *db, const char *sql, tb_err *err)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        tb_fail(err, TB_INTERNAL, "storage: %s", msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        return TB_INTERNAL;
    }
    return TB_OK;
}

int64_t store__int(sqlite3 *db, const char *sql, int64_t def)
{
    sqlite3_stmt *s;
    int64_t v = def;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        return def;
    if (sqlite3_step(s) == SQLITE_ROW)
        v = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return v;
}

int store__pragmas(sqlite3 *db, int sync_full, tb_err *err)
{
    return store__exec(db, "PRAGMA journal_mode = WAL", err) ||
           store__exec(db, sync_full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL",
                       err) ||
           /* WAL bound: after a checkpoint that reaches the end of the WAL (the next writer then
            * starts it over), a WAL that grew while a reader held it back (a backup) is
            * truncated to 16 MiB instead of keeping its largest size forever. */
           store__exec(db, "PRAGMA journal_size_limit = 16777216", err);
}

int store__fsync_path(const char *path, int dir, tb_err *err)
{
    int fd = open(path, dir ? O_RDONLY | O_DIRECTORY : O_RDONLY);
    if (fd < 0 || fsync(fd) != 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return tb_fail(err, TB_INTERNAL, "cannot sync %s: %s", path, strerror(e));
    }
    close(fd);
    return TB_OK;
}

char *store__ack_text(const char *cmd_id, int64_t seq, const json_t *result, int64_t entry)
{
    json_t *msg = proto_msg_ack(cmd_id, seq, result ? json_incref((json_t *)result) : NULL);
    if (entry > 0)
        json_object_set_new(msg, "entry", json_integer(entry));
    char *s = proto_json_dump(msg, NULL);
    json_decref(msg);
    return s;
}

int store__id_ok(const char *id)
{
    size_t n = id ? strlen(id) : 0;
    if (n < 1 || n > 32)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((id[i] >= 'a' && id[i] <= 'z') || (id[i] >= '0' && id[i] <= '9') ||
              (id[i] == '-' && i > 0))) /* "<shard>-c…": server/route.h */
            return 0;
    return 1;
}

sqlite3 *store__sqlite(store *st)
{
    return st->db;
}

const char *store__path(const store *st)
{
    return st->path;
}

/* ---- host helpers ------------------------------------------------------------------------- */

static int db_fail(store *st, tb_err *err, const char *what)
{
    st->full = sqlite3_errcode(st->db) == SQLITE_FULL;
    return tb_fail(err, TB_INTERNAL, "storage: %s: %s", what, sqlite3_errmsg(st->db));
}

/* Returns the cached host statement, reset and with its bindings cleared. */
static sqlite3_stmt *stmt(store *st, enum stmt_id id)
{
    sqlite3_stmt *s = st->stmt[id];
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return s;
}

/* Runs a host statement that returns no rows (or whose rows are ignored). */
static int step_done(store *st, sqlite3_stmt *s, tb_err *err, const char *what)
{
    return store__step(s, err, what, &st->full);
}

static void bind_text(sqlite3_stmt *s, int i, const char *v)
{
    if (v)
        sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(s, i);
}

/* Before a write to the host file: inside a batch, its transaction is opened on the first one;
 * outside, the write commits by itself and the file is due for a sync. */
static int host_w(store *st, tb_err *err)
{
    if (!st->in_batch) {
        st->host_dirty = 1;
        return TB_OK;
    }
    if (st->host_tx)
        return TB_OK;
    int r = step_done(st, stmt(st, S_BEGIN), err, "begin");
    if (!r)
        st->host_tx = 1;
    return r;
}

int store__host_w(store *st, tb_err *err)
{
    return host_w(st, err);
}

/* ---- the campaign files ------------------------------------------------------------------- */

static size_t id_hash(const char *id)
{
    size_t h = 5381;
    for (; *id; id++)
        h = h * 33 + (unsigned char)*id;
    return h;
}

static cslot *slot_find(const store *st, const char *id)
{
    if (!st->ntab)
        return NULL;
    for (cslot *s = st->tab[id_hash(id) % st->ntab]; s; s = s->next)
        if (strcmp(campfile_id(s->f), id) == 0)
            return s;
    return NULL;
}

static void slot_insert(store *st, cslot *s)
{
    if (st->nopen + 1 > st->ntab) {
        size_t n = st->ntab ? st->ntab * 2 : 64;
        cslot **tab = xcalloc(n, sizeof *tab);
        for (size_t i = 0; i < st->ntab; i++)
            for (cslot *c = st->tab[i], *next; c; c = next) {
                next = c->next;
                size_t b = id_hash(campfile_id(c->f)) % n;
                c->next = tab[b];
                tab[b] = c;
            }
        free(st->tab);
        st->tab = tab;
        st->ntab = n;
    }
    size_t b = id_hash(campfile_id(s->f)) % st->ntab;
    s->next = st->tab[b];
    st->tab[b] = s;
    st->nopen++;
}

int store_campaign_path(const store *st, const char *campaign, char *out, size_t cap, tb_err *err)
{
    if (!store__id_ok(campaign))
        return tb_fail(err, TB_BAD_REQUEST, "storage: '%.40s' is not a campaign id", campaign);
    if ((size_t)snprintf(out, cap, "%s/%s.db", st->dir, campaign) >= cap)
        return tb_fail(err, TB_INTERNAL, "storage: the path of campaign %s is too long", campaign);
    return TB_OK;
}

/* The open file of campaign id, opened now if needed: created (with the directory) when create
 * is set, else TB_NOT_FOUND when it has no file. */
static int camp_get(store *st, const char *id, int create, cslot **out, tb_err *err)
{
    cslot *s = slot_find(st, id);
    if (s) {
        *out = s;
        return TB_OK;
    }
    char path[4096];
    int r = store_campaign_path(st, id, path, sizeof path, err);
    if (r)
        return r;
    int fresh = create && access(path, F_OK) != 0;
    if (fresh && mkdir(st->dir, 0700) != 0 && errno != EEXIST)
        return tb_fail(err, TB_INTERNAL, "storage: cannot create %s: %s", st->dir, strerror(errno));
    campfile *f;
    /* synchronous=NORMAL even under --sync full: store_commit syncs the WALs itself, all the
     * batch's files at once (sync_wals) */
    if ((r = campfile_open(path, id, create, 0, &f, err)))
        return r;
    /* A new file's name must survive a power loss as its first commit does: the directory is
     * synced now, or once for every file a batch created, when it commits. */
    if (fresh && st->in_batch) {
        st->dir_sync_due = 1;
    } else if (fresh && (r = store__fsync_path(st->dir, 1, err))) {
        campfile_close(f);
        return r;
    }
    s = xcalloc(1, sizeof *s);
    s->f = f;
    slot_insert(st, s);
    *out = s;
    return TB_OK;
}

static void mark_dirty(store *st, cslot *s)
{
    if (s->dirty_gen == st->dirty_gen + 1)
        return;
    s->dirty_gen = st->dirty_gen + 1;
    if (st->ndirty + 2 > st->capdirty) {
        st->capdirty = st->capdirty ? st->capdirty * 2 : 16;
        st->dirty = xrealloc(st->dirty, st->capdirty * sizeof *st->dirty);
    }
    st->dirty[st->ndirty++] = xstrdup(campfile_path(s->f));
}

/* The file of campaign id for a write: created on its first one; inside a batch, its
 * transaction is opened on the first write of the batch. */
static int camp_w(store *st, const char *id, campfile **out, tb_err *err)
{
    cslot *s;
    int r = camp_get(st, id, 1, &s, err);
    if (r)
        return r;
    *out = s->f;
    if (!st->in_batch) {
        mark_dirty(st, s);
        return TB_OK;
    }
    if (campfile_in_tx(s->f))
        return TB_OK;
    if ((r = campfile_begin(s->f, err)))
        return r;
    s->batch_gen = st->gen;
    s->failed = 0;
    s->batch_ix = st->nbatch;
    if (st->nbatch == st->capbatch) {
        st->capbatch = st->capbatch ? st->capbatch * 2 : 16;
        st->batch = xrealloc(st->batch, st->capbatch * sizeof *st->batch);
    }
    st->batch[st->nbatch++] = s;
    return TB_OK;
}

/* The file of campaign id for a read: NULL in *out (and 0) when it has none. */
static int camp_r(store *st, const char *id, campfile **out, tb_err *err)
{
    cslot *s;
    *out = NULL;
    if (!store__id_ok(id))
        return TB_OK; /* no campaign has that id, so none has a file */
    tb_err why = {0};
    int r = camp_get(st, id, 0, &s, &why);
    if (r == TB_NOT_FOUND)
        return TB_OK;
    if (r) {
        if (err)
            *err = why;
        return r;
    }
    *out = s->f;
    return TB_OK;
}

int store__campfile(store *st, const char *id, int create, campfile **out, tb_err *err)
{
    cslot *s;
    int r = camp_get(st, id, create, &s, err);
    *out = r ? NULL : s->f;
    return r;
}

/* ---- open, migrate, close ----------------------------------------------------------------- */

int store_schema_version(store *st)
{
    return (int)store__int(st->db, "PRAGMA user_version", -1);
}

/* 1 when dir holds a campaign file. */
static int dir_has_campaigns(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int found = 0;
    for (struct dirent *de; !found && (de = readdir(d));) {
        size_t l = strlen(de->d_name);
        found = l > 3 && strcmp(de->d_name + l - 3, ".db") == 0;
    }
    closedir(d);
    return found;
}

/* Brings the host file to STORE_SCHEMA_VERSION. 0 -> 1 creates the single-file layout (which a
 * backup still uses); 1 -> 2 splits it into campaign files (legacy.c). Each step is atomic: a
 * crash mid-migration leaves the previous version whole. */
static int migrate(store *st, tb_err *err)
{
    int v = store_schema_version(st);
    if (v < 0)
        return db_fail(st, err, "reading the schema version");
    if (v > STORE_SCHEMA_VERSION)
        return tb_fail(err, TB_INTERNAL,
                       "storage: the database has schema version %d, newer than this tabled (%d)",
                       v, STORE_SCHEMA_VERSION);
    int64_t app = store__int(st->db, "PRAGMA application_id", -1);
    if (app == CAMPFILE_APP_ID)
        return tb_fail(err, TB_INTERNAL,
                       "storage: %s is a campaign's file, not a tabled database (give --db the "
                       "file beside the .campaigns directory)",
                       st->path);
    if (v == 0) {
        if (store__exec(st->db, "BEGIN IMMEDIATE", err))
            return TB_INTERNAL;
        if (store__exec(st->db, LEGACY_SCHEMA_1, err) ||
            store__exec(st->db, "PRAGMA user_version = 1", err)) {
            store__exec(st->db, "ROLLBACK", NULL);
            return TB_INTERNAL;
        }
        if (store__exec(st->db, "COMMIT", err))
            return TB_INTERNAL;
        v = 1;
    }
    if (v == 1)
        return legacy_split(st->db, st->dir, st->sync_full, err);
    return TB_OK;
}

void store_process_init(void)
{
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); /* SQLITE_MISUSE after the first call: harmless */
}

int store_open(const char *path, int sync_full, store **out, tb_err *err)
{
    store *st = xcalloc(1, sizeof *st);
    *out = NULL;
    st->path = xstrdup(path);
    size_t n = strlen(path) + 16;
    st->dir = xmalloc(n);
    snprintf(st->dir, n, "%s.campaigns", st->path);
    st->sync_full = sync_full;
    /* No silent new database where one was: a missing or empty host file beside campaign files
     * is a lost file, not a fresh start (issue 27, item 7). */
    struct stat sb;
    if ((stat(path, &sb) != 0 || sb.st_size == 0) && dir_has_campaigns(st->dir)) {
        tb_fail(err, TB_INTERNAL,
                "storage: %s is missing or empty but %s holds campaigns: restore %s from a "
                "backup (tabled backup) instead of starting a new database",
                path, st->dir, path);
        goto fail;
    }
    if (store__open_db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &st->db, err))
        goto fail;
    if (store__pragmas(st->db, sync_full, err) ||
        store__exec(st->db, "PRAGMA foreign_keys = ON", err) || migrate(st, err))
        goto fail;
    for (int i = 0; i < S__COUNT; i++) {
        if (sqlite3_prepare_v3(st->db, SQL[i], -1, SQLITE_PREPARE_PERSISTENT, &st->stmt[i], NULL) !=
            SQLITE_OK) {
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

/* Removes dir, its files and its campaigns directory's files (a reader's temporary copy). */
static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    for (struct dirent *de; d && (de = readdir(d));) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (unlink(path) != 0)
            remove_tree(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

int store_open_reader(const char *path, store **out, tb_err *err)
{
    *out = NULL;
    struct stat sb;
    if (stat(path, &sb) != 0)
        return tb_fail(err, TB_NOT_FOUND, "no database at %s", path);
    sqlite3 *db = NULL;
    int r = store__open_db(path, SQLITE_OPEN_READWRITE, &db, err);
    if (r)
        return r;
    int64_t version = store__int(db, "PRAGMA user_version", -1);
    if (version >= 2 || version < 1) {
        sqlite3_close(db);
        return version < 1 ? tb_fail(err, TB_BAD_REQUEST, "%s is not a tabled database", path)
                           : store_open(path, 0, out, err);
    }
    /* The single-file layout: a consistent copy (one read transaction) to split, in a directory
     * of our own. */
    char tmpl[] = "/tmp/tabled-read-XXXXXX";
    char copy[64];
    if (!mkdtemp(tmpl)) {
        sqlite3_close(db);
        return tb_fail(err, TB_INTERNAL, "cannot create a temporary directory: %s",
                       strerror(errno));
    }
    snprintf(copy, sizeof copy, "%s/t.db", tmpl);
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(db, "VACUUM INTO ?1", -1, &s, NULL) != SQLITE_OK ||
        sqlite3_bind_text(s, 1, copy, -1, SQLITE_STATIC) != SQLITE_OK ||
        sqlite3_step(s) != SQLITE_DONE)
        r = tb_fail(err, TB_INTERNAL, "cannot read %s: %s", path, sqlite3_errmsg(db));
    sqlite3_finalize(s);
    sqlite3_close(db);
    if (!r)
        r = store_open(copy, 0, out, err);
    if (r) {
        remove_tree(tmpl);
        return r;
    }
    (*out)->tmpdir = xstrdup(tmpl);
    return TB_OK;
}

void store_close(store *st)
{
    if (!st)
        return;
    if (st->in_batch)
        store_rollback(st);
    committer_stop(st);
    for (size_t i = 0; i < st->ntab; i++)
        for (cslot *s = st->tab[i], *next; s; s = next) {
            next = s->next;
            campfile_close(s->f);
            free(s);
        }
    free(st->tab);
    free(st->batch);
    for (size_t i = 0; i < st->ndirty; i++)
        free(st->dirty[i]);
    free(st->dirty);
    for (int i = 0; i < S__COUNT; i++)
        sqlite3_finalize(st->stmt[i]);
    sqlite3_close(st->db);
    if (st->tmpdir)
        remove_tree(st->tmpdir);
    free(st->tmpdir);
    free(st->path);
    free(st->dir);
    free(st);
}

const char *store_campaign_dir(const store *st)
{
    return st->dir;
}

/* ---- batches ------------------------------------------------------------------------------ */

/* Under --sync full every campaign file a batch committed must have its WAL on the disk before
 * the batch's replies go. SQLite's synchronous=FULL would sync them one after the other, one
 * fsync per file; sync_wals syncs them from up to SYNC_THREADS threads at once, which the file
 * system merges into about one journal commit (measured here: 100 files, one thread 280-490 ms,
 * 32 threads 25-33 ms). A failed fsync stops the process: what reached the disk is unknown, and
 * a restart rebuilds every campaign from what the disk holds (as PostgreSQL does). */
#define SYNC_THREADS 16

typedef struct syncjob {
    cslot **files;
    size_t n;
    size_t next; /* the next file to sync (taken under mu) */
    pthread_mutex_t mu;
} syncjob;

static void sync_one(campfile *f)
{
    if (campfile_sync_wal(f) != 0) {
        fprintf(stderr,
                "tabled: fsync of %s-wal failed: %s; stopping (nothing acknowledged is "
                "lost: restart tabled)\n",
                campfile_path(f), strerror(errno));
        abort();
    }
}

static void *sync_worker(void *arg)
{
    syncjob *j = arg;
    for (;;) {
        pthread_mutex_lock(&j->mu);
        size_t i = j->next++;
        pthread_mutex_unlock(&j->mu);
        if (i >= j->n)
            return NULL;
        if (!j->files[i]->failed)
            sync_one(j->files[i]->f);
    }
}

static void sync_wals(cslot **files, size_t n)
{
    if (n == 1) {
        if (!files[0]->failed)
            sync_one(files[0]->f);
        return;
    }
    syncjob j = {.files = files, .n = n, .next = 0};
    pthread_mutex_init(&j.mu, NULL);
    pthread_t t[SYNC_THREADS];
    size_t k = n < SYNC_THREADS ? n : SYNC_THREADS, started = 0;
    while (started < k && pthread_create(&t[started], NULL, sync_worker, &j) == 0)
        started++;
    sync_worker(&j); /* the loop's thread takes its share too (and all of it if none started) */
    for (size_t i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    pthread_mutex_destroy(&j.mu);
}

/* ---- the committer ---------------------------------------------------------------------------
 * With many tables, a turn writes many campaign files, and their COMMITs were a tenth of the
 * loop's thread (issue 26, 100 tables: a COMMIT is SQLite's work on the file plus 2 fcntl and the
 * WAL's pwrite). A file's replies may go as soon as its own COMMIT returned, so after
 * store_commit_start the batch's files are committed in batch order by two threads at once: the
 * store's committer, and the loop's thread whenever it asks for a file not yet decided
 * (store_batch_ok takes the next file nobody took until the one it wants is decided, and waits
 * only for a file the committer is in the middle of). So the loop's thread delivers the replies
 * of the files decided first while the committer commits the next ones, and never waits for the
 * committer to wake. A file is committed by one thread, once (taken under the mutex); nothing
 * else touches the batch's files until store_commit has seen every one decided (the engine only
 * delivers in between). */

/* Commits the batch file taken at i and marks it decided (called without the mutex). */
static void committer_commit(store *st, size_t i)
{
    cslot *slot = st->batch[i];
    tb_err why;
    int failed = campfile_commit(slot->f, &why) != TB_OK;
    pthread_mutex_lock(&st->cm.mu);
    if (failed && i < st->cm.err_ix) { /* store_commit reports it, as it would have */
        st->cm.err_ix = i;
        st->cm.err = why;
    }
    slot->failed = failed;
    slot->decided = 1;
    pthread_cond_broadcast(&st->cm.step);
    pthread_mutex_unlock(&st->cm.mu);
}

static void *committer_main(void *arg)
{
    store *st = arg;
    pthread_mutex_lock(&st->cm.mu);
    for (;;) {
        while (!st->cm.quit && st->cm.next >= st->cm.n)
            pthread_cond_wait(&st->cm.go, &st->cm.mu);
        if (st->cm.quit)
            break;
        size_t i = st->cm.next++;
        pthread_mutex_unlock(&st->cm.mu);
        committer_commit(st, i);
        pthread_mutex_lock(&st->cm.mu);
    }
    pthread_mutex_unlock(&st->cm.mu);
    return NULL;
}

/* On the loop's thread: returns once the batch's files up to index upto (exclusive) are decided,
 * committing itself each one the committer has not taken yet. */
static void committer_wait(store *st, size_t upto)
{
    pthread_mutex_lock(&st->cm.mu);
    for (size_t want = 0; want < upto;) {
        if (st->batch[want]->decided) {
            want++;
        } else if (st->cm.next < st->cm.n) {
            size_t i = st->cm.next++;
            pthread_mutex_unlock(&st->cm.mu);
            committer_commit(st, i);
            pthread_mutex_lock(&st->cm.mu);
        } else {
            pthread_cond_wait(&st->cm.step, &st->cm.mu); /* the committer is on it */
        }
    }
    pthread_mutex_unlock(&st->cm.mu);
}

static void committer_stop(store *st)
{
    if (!st->cm.started)
        return;
    pthread_mutex_lock(&st->cm.mu);
    st->cm.quit = 1;
    pthread_cond_signal(&st->cm.go);
    pthread_mutex_unlock(&st->cm.mu);
    pthread_join(st->cm.t, NULL);
    pthread_cond_destroy(&st->cm.go);
    pthread_cond_destroy(&st->cm.step);
    pthread_mutex_destroy(&st->cm.mu);
    st->cm.started = 0;
}

int store_commit_start(store *st)
{
    /* --sync full syncs every WAL at once after the COMMITs (sync_wals), and a new file's
     * directory is synced before any: both stay store_commit's. One file has nothing to overlap. */
    if (!st->in_batch || st->async || st->sync_full || st->dir_sync_due ||
        st->nbatch < STORE_COMMIT_ASYNC_MIN)
        return 0;
    if (!st->cm.started) {
        pthread_mutex_init(&st->cm.mu, NULL);
        pthread_cond_init(&st->cm.go, NULL);
        pthread_cond_init(&st->cm.step, NULL);
        st->cm.quit = 0;
        st->cm.n = st->cm.next = 0;
        if (pthread_create(&st->cm.t, NULL, committer_main, st) != 0) {
            pthread_cond_destroy(&st->cm.go);
            pthread_cond_destroy(&st->cm.step);
            pthread_mutex_destroy(&st->cm.mu);
            return 0; /* store_commit commits them on the loop's thread */
        }
        st->cm.started = 1;
    }
    for (size_t i = 0; i < st->nbatch; i++)
        st->batch[i]->decided = 0;
    pthread_mutex_lock(&st->cm.mu);
    st->cm.next = 0;
    st->cm.n = st->nbatch;
    st->cm.err_ix = st->nbatch;
    pthread_cond_signal(&st->cm.go);
    pthread_mutex_unlock(&st->cm.mu);
    st->async = 1;
    return 1;
}

int store_begin(store *st, tb_err *err)
{
    if (st->in_batch)
        return tb_fail(err, TB_CONFLICT, "storage: a transaction is already open");
    st->in_batch = 1;
    st->gen++;
    st->nbatch = 0;
    st->host_tx = 0;
    st->host_failed = 0;
    return TB_OK;
}

int store_commit(store *st, tb_err *err)
{
    if (!st->in_batch)
        return tb_fail(err, TB_CONFLICT, "storage: no transaction is open");
    int r = TB_OK, any_full = 0;
    if (st->dir_sync_due) {
        st->dir_sync_due = 0;
        if ((r = store__fsync_path(st->dir, 1, err))) {
            store_rollback(st); /* the batch's new campaigns could be lost: nothing is durable */
            return r;
        }
    }
    int async = st->async;
    if (async) {
        committer_wait(st, st->nbatch);
        st->async = 0;
    }
    for (size_t i = 0; i < st->nbatch; i++) {
        cslot *s = st->batch[i];
        tb_err why;
        if (async ? !s->failed : campfile_commit(s->f, &why) == TB_OK) {
            mark_dirty(st, s);
            continue;
        }
        s->failed = 1;
        any_full |= campfile_full(s->f);
        if (!r) {
            const tb_err *first = async ? &st->cm.err : &why; /* the first failure either way */
            r = tb_fail(err, first->code, "%s", first->msg);
        }
    }
    if (st->sync_full && st->nbatch)
        sync_wals(st->batch, st->nbatch);
    if (st->host_tx) {
        if (r) {
            /* A host row (a token, a registration) never outlives a campaign write that failed. */
            step_done(st, stmt(st, S_ROLLBACK), NULL, "rollback");
            st->host_failed = 1;
        } else if (step_done(st, stmt(st, S_COMMIT), err, "commit") != TB_OK) {
            any_full |= st->full;
            if (!sqlite3_get_autocommit(st->db))
                step_done(st, stmt(st, S_ROLLBACK), NULL, "rollback");
            st->host_failed = 1;
            r = TB_INTERNAL;
        } else {
            st->host_dirty = 1;
        }
    }
    st->in_batch = 0;
    st->host_tx = 0;
    st->full = any_full;
    return r;
}

void store_rollback(store *st)
{
    if (st->async) { /* a started commit is not taken back: every campaign file commits (the
                      * loop's thread takes those nobody took); the host file rolls back */
        committer_wait(st, st->nbatch);
        st->async = 0;
    }
    st->dir_sync_due = 0;
    for (size_t i = 0; i < st->nbatch; i++) {
        if (campfile_in_tx(st->batch[i]->f))
            campfile_rollback(st->batch[i]->f);
        st->batch[i]->failed = 1;
    }
    if (st->host_tx || !sqlite3_get_autocommit(st->db))
        step_done(st, stmt(st, S_ROLLBACK), NULL, "rollback");
    if (st->host_tx)
        st->host_failed = 1;
    st->in_batch = 0;
    st->host_tx = 0;
}

int store_in_transaction(const store *st)
{
    return st->in_batch;
}

int store_batch_ok(store *st, const char *campaign)
{
    if (strcmp(campaign, STORE_HOST) == 0)
        return !st->host_failed;
    cslot *s = slot_find(st, campaign);
    if (!s || s->batch_gen != st->gen)
        return 1;
    if (st->async)
        committer_wait(st, s->batch_ix + 1);
    return !s->failed;
}

char **store_take_dirty(store *st)
{
    if (st->host_dirty) {
        if (st->ndirty + 2 > st->capdirty) {
            st->capdirty = st->capdirty ? st->capdirty * 2 : 16;
            st->dirty = xrealloc(st->dirty, st->capdirty * sizeof *st->dirty);
        }
        st->dirty[st->ndirty++] = xstrdup(st->path);
        st->host_dirty = 0;
    }
    if (!st->ndirty)
        return NULL;
    st->dirty[st->ndirty] = NULL;
    char **out = st->dirty;
    st->dirty = NULL;
    st->ndirty = st->capdirty = 0;
    st->dirty_gen++;
    return out;
}

void store_paths_free(char **paths)
{
    if (!paths)
        return;
    for (char **p = paths; *p; p++)
        free(*p);
    free(paths);
}

int store_open_campaigns(const store *st)
{
    return (int)st->nopen;
}

int store_campaign_close(store *st, const char *campaign, tb_err *err)
{
    cslot *s = slot_find(st, campaign);
    if (!s)
        return TB_OK;
    if (campfile_in_tx(s->f))
        return tb_fail(err, TB_CONFLICT, "storage: campaign %s has writes in the open batch",
                       campaign);
    size_t b = id_hash(campaign) % st->ntab;
    for (cslot **pp = &st->tab[b]; *pp; pp = &(*pp)->next)
        if (*pp == s) {
            *pp = s->next;
            break;
        }
    st->nopen--;
    campfile_close(s->f);
    free(s);
    return TB_OK;
}

/* ---- the registry ------------------------------------------------------------------------- */

int store_campaign_insert(store *st, const char *id, int64_t at_ms, tb_err *err)
{
    if (!store__id_ok(id))
        return tb_fail(err, TB_BAD_REQUEST, "storage: '%.40s' is not a campaign id", id);
    int r = host_w(st, err);
    if (r)
        return r;
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

int store_campaign_count(store *st, int64_t *n, tb_err *err)
{
    sqlite3_stmt *s = stmt(st, S_CAMPAIGN_COUNT);
    if (sqlite3_step(s) != SQLITE_ROW) {
        sqlite3_reset(s);
        return db_fail(st, err, "counting campaigns");
    }
    *n = sqlite3_column_int64(s, 0);
    sqlite3_reset(s);
    return TB_OK;
}

int store_campaign_exists(store *st, const char *id, tb_err *err)
{
    sqlite3_stmt *s = stmt(st, S_CAMPAIGN_EXISTS);
    bind_text(s, 1, id);
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    if (rc == SQLITE_ROW)
        return 1;
    if (rc == SQLITE_DONE)
        return 0;
    db_fail(st, err, "looking up a campaign");
    return -1;
}

int store_campaign_summary_put(store *st, const char *id, const store_summary *sum, tb_err *err)
{
    int r = host_w(st, err);
    if (r)
        return r;
    sqlite3_stmt *s = stmt(st, S_SUMMARY_PUT);
    bind_text(s, 1, id);
    bind_text(s, 2, sum->name);
    bind_text(s, 3, sum->system);
    bind_text(s, 4, sum->join_code);
    sqlite3_bind_int64(s, 5, sum->seq);
    sqlite3_bind_int64(s, 6, sum->seats);
    if ((r = step_done(st, s, err, "updating a campaign's summary")))
        return r;
    if (sqlite3_changes(st->db) == 0)
        return tb_fail(err, TB_NOT_FOUND, "storage: no campaign '%.40s'", id);
    return TB_OK;
}

int store_campaigns_each(store *st, store_summary_fn fn, void *ctx, tb_err *err)
{
    /* a statement of its own: fn may call back into the store */
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(st->db, SQL[S_SUMMARY_ALL], -1, &s, NULL) != SQLITE_OK)
        return db_fail(st, err, "listing campaigns");
    int rc, r = TB_OK;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        store_summary sum = {
            .name = (const char *)sqlite3_column_text(s, 1),
            .system = (const char *)sqlite3_column_text(s, 2),
            .join_code = (const char *)sqlite3_column_text(s, 3),
            .seq = sqlite3_column_int64(s, 4),
            .seats = sqlite3_column_int64(s, 5),
        };
        if ((r = fn(ctx, (const char *)sqlite3_column_text(s, 0), &sum)))
            break;
    }
    if (!r && rc != SQLITE_DONE)
        r = db_fail(st, err, "listing campaigns");
    sqlite3_finalize(s);
    return r;
}

int store_campaign_by_join(store *st, const char *key, char id[33], tb_err *err)
{
    sqlite3_stmt *s = stmt(st, S_BY_JOIN);
    bind_text(s, 1, key);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        snprintf(id, 33, "%s", (const char *)sqlite3_column_text(s, 0));
    sqlite3_reset(s);
    if (rc == SQLITE_ROW)
        return TB_OK;
    if (rc != SQLITE_DONE)
        return db_fail(st, err, "looking up a join code");
    return tb_fail(err, TB_NOT_FOUND, "unknown or closed join code");
}

/* ---- a campaign's file -------------------------------------------------------------------- */

/* Under --sync full a campaign write outside a batch is a batch of its own, so that its WAL is
 * synced (store_commit): opens it when needed; end_implicit commits it. */
static int begin_implicit(store *st, tb_err *err)
{
    if (st->in_batch || !st->sync_full)
        return 0;
    return store_begin(st, err) == TB_OK ? 1 : -1;
}

static int end_implicit(store *st, int implicit, int r, tb_err *err)
{
    if (implicit != 1)
        return r;
    if (r) {
        store_rollback(st);
        return r;
    }
    return store_commit(st, err);
}

int store_event_append(store *st, const store_event *ev, tb_err *err)
{
    campfile *f;
    int implicit = begin_implicit(st, err);
    if (implicit < 0)
        return TB_INTERNAL;
    int r = camp_w(st, ev->campaign, &f, err);
    if (!r)
        r = campfile_append(f, ev, err);
    return end_implicit(st, implicit, r, err);
}

int store_last_seq(store *st, const char *campaign, int64_t *seq, tb_err *err)
{
    campfile *f;
    *seq = 0;
    int r = camp_r(st, campaign, &f, err);
    return r || !f ? r : campfile_last_seq(f, seq, err);
}

int store_events_each(store *st, const char *campaign, int64_t after, int64_t upto,
                      store_event_fn fn, void *ctx, tb_err *err)
{
    campfile *f;
    int r = camp_r(st, campaign, &f, err);
    return r || !f ? r : campfile_events_each(f, after, upto, fn, ctx, err);
}

int store_idem_get(store *st, const char *campaign, const char *seat, const char *cmd_id,
                   char **reply, tb_err *err)
{
    *reply = NULL;
    if (strcmp(campaign, STORE_HOST) != 0) {
        campfile *f;
        int r = camp_r(st, campaign, &f, err);
        return r || !f ? r : campfile_idem_get(f, seat, cmd_id, reply, err);
    }
    sqlite3_stmt *s = stmt(st, S_IDEM_GET);
    bind_text(s, 1, seat);
    bind_text(s, 2, cmd_id);
    int rc = sqlite3_step(s);
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
    int r;
    if (strcmp(campaign, STORE_HOST) != 0) {
        campfile *f;
        int implicit = begin_implicit(st, err);
        if (implicit < 0)
            return TB_INTERNAL;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        r = camp_w(st, campaign, &f, err);
        if (!r)
            r = campfile_idem_put(f, seat, cmd_id, reply,
                                  (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000, err);
        return end_implicit(st, implicit, r, err);
    }
    if ((r = host_w(st, err)))
        return r;
    sqlite3_stmt *s = stmt(st, S_IDEM_PUT);
    bind_text(s, 1, seat);
    bind_text(s, 2, cmd_id);
    bind_text(s, 3, reply);
    return step_done(st, s, err, "recording idempotency");
}

int store_snapshot_put_text(store *st, const char *campaign, int64_t seq, const char *text,
                            size_t len, tb_err *err)
{
    campfile *f;
    int implicit = begin_implicit(st, err);
    if (implicit < 0)
        return TB_INTERNAL;
    int r = camp_w(st, campaign, &f, err);
    if (!r)
        r = campfile_snapshot_put(f, seq, text, len, err);
    return end_implicit(st, implicit, r, err);
}

int store_snapshot_put(store *st, const char *campaign, int64_t seq, const json_t *state,
                       tb_err *err)
{
    size_t len;
    char *text = proto_json_dump(state, &len);
    int r = store_snapshot_put_text(st, campaign, seq, text, len, err);
    free(text);
    return r;
}

int store_campaign_load(store *st, const char *campaign, int from_zero, json_t **state,
                        int64_t *seq, tb_err *err)
{
    campfile *f;
    int r = camp_r(st, campaign, &f, err);
    if (r)
        return r;
    if (!f) {
        *state = json_object();
        *seq = 0;
        return TB_OK;
    }
    return campfile_load(f, from_zero, state, seq, err);
}

/* ---- tokens ------------------------------------------------------------------------------- */

int store_token_put(store *st, const char *token, const char *campaign, const char *seat,
                    int64_t at_ms, tb_err *err)
{
    char hex[65];
    sha256_hex(token, strlen(token), hex);
    int r = host_w(st, err);
    if (r)
        return r;
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
    int r = host_w(st, err);
    if (r)
        return r;
    sqlite3_stmt *s = stmt(st, S_TOKEN_REVOKE);
    bind_text(s, 1, campaign);
    bind_text(s, 2, seat);
    return step_done(st, s, err, "revoking tokens");
}

/* ---- health ------------------------------------------------------------------------------- */

int store_disk_full(const store *st)
{
    return st->full;
}

int store__check_file(sqlite3 *db, const char *path, tb_err *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &s, NULL) != SQLITE_OK)
        return tb_fail(err, TB_INTERNAL, "storage: integrity check of %s: %s", path,
                       sqlite3_errmsg(db));
    int r = TB_OK;
    if (sqlite3_step(s) == SQLITE_ROW) {
        const char *res = (const char *)sqlite3_column_text(s, 0);
        if (!res || strcmp(res, "ok") != 0)
            r = tb_fail(err, TB_INTERNAL, "storage: integrity check of %s: %s", path,
                        res ? res : "?");
    } else {
        r = tb_fail(err, TB_INTERNAL, "storage: integrity check of %s: %s", path,
                    sqlite3_errmsg(db));
    }
    sqlite3_finalize(s);
    return r;
}

int store_integrity_check(store *st, tb_err *err)
{
    int r = store__check_file(st->db, st->path, err);
    json_t *ids = NULL;
    if (r || (r = store_campaign_ids(st, &ids, err)))
        return r;
    size_t i;
    json_t *v;
    json_array_foreach(ids, i, v)
    {
        campfile *f;
        if ((r = camp_r(st, json_string_value(v), &f, err)))
            break;
        if (f && (r = campfile_integrity_check(f, err)))
            break;
    }
    json_decref(ids);
    return r;
}

void store_summary_of_state(const json_t *state, int64_t seq, store_summary *out)
{
    json_t *camp = json_object_get(state, "campaign");
    json_t *join = json_object_get(json_object_get(state, "gm"), "join");
    out->name = json_string_value(json_object_get(camp, "name"));
    out->system = json_string_value(json_object_get(camp, "system"));
    out->join_code = json_is_true(json_object_get(join, "open"))
                         ? json_string_value(json_object_get(join, "code"))
                         : NULL;
    out->seq = seq;
    out->seats = (int64_t)json_object_size(json_object_get(state, "seats"));
}
