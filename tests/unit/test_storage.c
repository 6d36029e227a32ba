/*
 * test_storage.c — storage/: SHA-256 against the FIPS 180-4 vectors and its padding boundaries;
 * the SQLite store on a real file in a temporary directory: migrations, WAL, the event log and
 * replay, explicit transactions, idempotency rows, snapshots + tail replay, hashed tokens and the
 * integrity check. A separate sqlite3 handle looks at the file behind the store's back.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include <check.h>
#include <dirent.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "err.h"
#include "sha256.h"
#include "store.h"
#include "store_view.h"

/* ---- fixture: one fresh temporary directory per test, holding the database file ---- */

static char g_dir[64];
static char g_path[128];

static void setup_dir(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/tabled-storage-XXXXXX");
    ck_assert_msg(mkdtemp(g_dir) != NULL, "mkdtemp failed");
    snprintf(g_path, sizeof g_path, "%s/tabled.db", g_dir);
}

static void teardown_dir(void)
{
    store_view_rmdir(g_dir);
}

/* ---- helpers ---- */

static store *open_store(void)
{
    store *st = NULL;
    tb_err err = {0};
    int rc = store_open(g_path, 0, &st, &err);
    ck_assert_msg(rc == TB_OK, "store_open: %d %s", rc, err.msg);
    ck_assert_ptr_nonnull(st);
    return st;
}

/* A second, independent connection to the same file. */
static sqlite3 *raw_open(void)
{
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(g_path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    ck_assert_msg(rc == SQLITE_OK, "sqlite3_open_v2: %s", db ? sqlite3_errmsg(db) : "?");
    sqlite3_busy_timeout(db, 5000);
    return db;
}

static void raw_exec(sqlite3 *db, const char *sql)
{
    char *msg = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    ck_assert_msg(rc == SQLITE_OK, "%s: %s", sql, msg ? msg : "?");
    sqlite3_free(msg);
}

/* The host file with the campaign files attached, read through views of the single file's shape
 * (store_view.h). */
static sqlite3 *raw_view(void)
{
    return store_view_open(g_path, SQLITE_OPEN_READWRITE);
}

/* One campaign's own file. */
static sqlite3 *raw_open_campaign(const char *id)
{
    char path[256];
    snprintf(path, sizeof path, "%s.campaigns/%s.db", g_path, id);
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL);
    ck_assert_msg(rc == SQLITE_OK, "sqlite3_open_v2 %s: %s", path, db ? sqlite3_errmsg(db) : "?");
    sqlite3_busy_timeout(db, 5000);
    return db;
}

/* The integer in the first column of the first row of sql. */
static int64_t raw_int(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *s = NULL;
    ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK, "%s: %s", sql,
                  sqlite3_errmsg(db));
    ck_assert_msg(sqlite3_step(s) == SQLITE_ROW, "%s: no row", sql);
    int64_t v = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return v;
}

/* The text in the first column of the first row of sql, copied into buf. */
static const char *raw_text(sqlite3 *db, const char *sql, char *buf, size_t cap)
{
    sqlite3_stmt *s = NULL;
    ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK, "%s: %s", sql,
                  sqlite3_errmsg(db));
    ck_assert_msg(sqlite3_step(s) == SQLITE_ROW, "%s: no row", sql);
    const char *t = (const char *)sqlite3_column_text(s, 0);
    snprintf(buf, cap, "%s", t ? t : "(null)");
    sqlite3_finalize(s);
    return buf;
}

static json_t *parse(const char *text)
{
    json_error_t je;
    json_t *v = json_loads(text, JSON_DECODE_ANY, &je);
    ck_assert_msg(v != NULL, "bad JSON in the test itself: %s (%s)", text, je.text);
    return v;
}

/* Asserts got equals the JSON in expected (json_equal), printing both on failure. */
static void assert_json(const json_t *got, const char *expected)
{
    json_t *want = parse(expected);
    char *g = got ? json_dumps(got, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY) : NULL;
    int eq = got && json_equal(got, want);
    ck_assert_msg(eq, "JSON differs:\n  got:  %s\n  want: %s", g ? g : "(NULL)", expected);
    free(g);
    json_decref(want);
}

/* Appends an event whose patch is the JSON text patch; returns the store's code. */
static int append_ev(store *st, const char *campaign, int64_t seq, const char *patch, tb_err *err)
{
    json_t *p = parse(patch);
    json_t *args = json_pack("{s:I}", "n", (json_int_t)seq);
    store_event ev = {
        .campaign = campaign,
        .seq = seq,
        .seat = "gm",
        .op = "test.step",
        .args = args,
        .result = NULL,
        .patch = p,
        .at_ms = 1000 + seq,
    };
    int rc = store_event_append(st, &ev, err);
    json_decref(p);
    json_decref(args);
    return rc;
}

static void append_ok(store *st, const char *campaign, int64_t seq, const char *patch)
{
    tb_err err = {0};
    int rc = append_ev(st, campaign, seq, patch, &err);
    ck_assert_msg(rc == TB_OK, "append %s#%lld: %d %s", campaign, (long long)seq, rc, err.msg);
}

static void load_ok(store *st, const char *campaign, int from_zero, const char *expected,
                    int64_t expected_seq)
{
    json_t *state = NULL;
    int64_t seq = -1;
    tb_err err = {0};
    int rc = store_campaign_load(st, campaign, from_zero, &state, &seq, &err);
    ck_assert_msg(rc == TB_OK, "load %s (from_zero=%d): %d %s", campaign, from_zero, rc, err.msg);
    assert_json(state, expected);
    ck_assert_int_eq(seq, expected_seq);
    json_decref(state);
}

static void snapshot_ok(store *st, const char *campaign, int64_t seq, const char *state_text)
{
    json_t *state = parse(state_text);
    tb_err err = {0};
    int rc = store_snapshot_put(st, campaign, seq, state, &err);
    ck_assert_msg(rc == TB_OK, "snapshot_put: %d %s", rc, err.msg);
    json_decref(state);
}

static int64_t last_seq(store *st, const char *campaign)
{
    int64_t seq = -1;
    tb_err err = {0};
    ck_assert_int_eq(store_last_seq(st, campaign, &seq, &err), TB_OK);
    return seq;
}

/* The six events of a small campaign and the state after each (index = seq). */
static const char *const PARTY_PATCHES[] = {
    NULL,
    "[{\"op\":\"add\",\"path\":\"/party\",\"value\":{}},"
    " {\"op\":\"add\",\"path\":\"/round\",\"value\":1}]",
    "[{\"op\":\"add\",\"path\":\"/party/pcs\",\"value\":[]},"
    " {\"op\":\"add\",\"path\":\"/party/pcs/0\",\"value\":{\"name\":\"Ana\",\"hp\":10}}]",
    "[{\"op\":\"add\",\"path\":\"/party/pcs/1\",\"value\":{\"name\":\"Bo\",\"hp\":8}},"
    " {\"op\":\"replace\",\"path\":\"/round\",\"value\":2}]",
    "[{\"op\":\"replace\",\"path\":\"/party/pcs/0/hp\",\"value\":7},"
    " {\"op\":\"add\",\"path\":\"/party/pcs/1/conditions\",\"value\":[\"prone\"]},"
    " {\"op\":\"add\",\"path\":\"/gm\",\"value\":{\"secret\":{\"dc\":15}}}]",
    "[{\"op\":\"add\",\"path\":\"/party/pcs/1/conditions/0\",\"value\":\"dazed\"},"
    " {\"op\":\"remove\",\"path\":\"/round\"}]",
    "[{\"op\":\"remove\",\"path\":\"/party/pcs/1/conditions/1\"},"
    " {\"op\":\"replace\",\"path\":\"/gm/secret/dc\",\"value\":12},"
    " {\"op\":\"add\",\"path\":\"/log\",\"value\":[\"a\",\"b\"]}]",
};
static const char *const PARTY_STATES[] = {
    "{}",
    "{\"party\":{},\"round\":1}",
    "{\"party\":{\"pcs\":[{\"name\":\"Ana\",\"hp\":10}]},\"round\":1}",
    "{\"party\":{\"pcs\":[{\"name\":\"Ana\",\"hp\":10},{\"name\":\"Bo\",\"hp\":8}]},\"round\":2}",
    "{\"party\":{\"pcs\":[{\"name\":\"Ana\",\"hp\":7},"
    "{\"name\":\"Bo\",\"hp\":8,\"conditions\":[\"prone\"]}]},"
    "\"round\":2,\"gm\":{\"secret\":{\"dc\":15}}}",
    "{\"party\":{\"pcs\":[{\"name\":\"Ana\",\"hp\":7},"
    "{\"name\":\"Bo\",\"hp\":8,\"conditions\":[\"dazed\",\"prone\"]}]},"
    "\"gm\":{\"secret\":{\"dc\":15}}}",
    "{\"party\":{\"pcs\":[{\"name\":\"Ana\",\"hp\":7},"
    "{\"name\":\"Bo\",\"hp\":8,\"conditions\":[\"dazed\"]}]},"
    "\"gm\":{\"secret\":{\"dc\":12}},\"log\":[\"a\",\"b\"]}",
};
#define PARTY_N 6

static void append_party(store *st, const char *campaign, int from, int to)
{
    for (int i = from; i <= to; i++)
        append_ok(st, campaign, i, PARTY_PATCHES[i]);
}

/* ============ SHA-256 (the libcrypto wrapper that hashes tokens: standard digests) ============ */

static void check_hex(const void *data, size_t len, const char *expected)
{
    char hex[65];
    memset(hex, 'X', sizeof hex);
    sha256_hex(data, len, hex);
    ck_assert_int_eq(hex[64], '\0');
    ck_assert_str_eq(hex, expected);

    /* the binary digest is the same value */
    uint8_t d[32];
    sha256(data, len, d);
    for (int i = 0; i < 32; i++) {
        unsigned byte;
        ck_assert_int_eq(sscanf(expected + 2 * i, "%2x", &byte), 1);
        ck_assert_msg(d[i] == byte, "digest byte %d: %02x != %02x", i, d[i], byte);
    }
}

START_TEST(test_sha256_empty_input_matches_fips_vector)
{
    check_hex("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}
END_TEST

START_TEST(test_sha256_abc_matches_fips_vector)
{
    check_hex("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}
END_TEST

START_TEST(test_sha256_448_bit_message_matches_fips_vector)
{
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    ck_assert_uint_eq(strlen(m), 56);
    check_hex(m, strlen(m), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}
END_TEST

START_TEST(test_sha256_one_million_a_matches_fips_vector)
{
    size_t n = 1000000;
    char *m = malloc(n);
    ck_assert_ptr_nonnull(m);
    memset(m, 'a', n);
    check_hex(m, n, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(m);
}
END_TEST

/* Message i of length n is bytes (i * 31 + 7) & 0xff; digests pinned from coreutils sha256sum. */
static const struct {
    size_t len;
    const char *hex;
} PADDING_VECTORS[] = {
    {55, "8aa994584139d128848eeebc4e815639ba5ab6e6e39574195a63ac4f14f7c43b"},
    {56, "ad574708f75c044c9b85de64cb568ee7711ff4f36448c6242f053ba8f6cc2b63"},
    {63, "280ed3e8ff1df845b2e7dfe6ac6cee817bef20e783cc65abc41b818b4d2fe076"},
    {64, "c6ab9724ade5b6a7a1edfffb12f3aa9181351355af8fd08c919952ad211339dd"},
    {65, "788367c73c7ddf4c53f65e68cc0d943e6227ab55b0e78ba63ace822b1c6301c0"},
    {119, "3d610547d68216dedf7435a4fb6260353911f6b3fd3f18805ddb8be285d726fe"},
    {120, "1f80156a804cb7862ad113e8200e9d74499723e7c7854d5f48776d3148e09656"},
};
#define N_PADDING_VECTORS (int)(sizeof PADDING_VECTORS / sizeof PADDING_VECTORS[0])

START_TEST(test_sha256_padding_boundaries_match_pinned_digests)
{
    size_t n = PADDING_VECTORS[_i].len;
    /* exact-size heap buffer: ASan catches a read past the message */
    uint8_t *m = malloc(n);
    ck_assert_ptr_nonnull(m);
    for (size_t i = 0; i < n; i++)
        m[i] = (uint8_t)((i * 31 + 7) & 0xff);
    check_hex(m, n, PADDING_VECTORS[_i].hex);
    free(m);
}
END_TEST

/* ===================================== migrations ===================================== */

START_TEST(test_new_file_is_migrated_to_current_schema_with_all_tables)
{
    ck_assert_int_eq(access(g_path, F_OK), -1);
    store *st = open_store();
    ck_assert_int_eq(access(g_path, F_OK), 0);
    ck_assert_int_eq(store_schema_version(st), STORE_SCHEMA_VERSION);

    sqlite3 *db = raw_open();
    ck_assert_int_eq(raw_int(db, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
    const char *tables[] = {"campaigns", "idempotency", "tokens"};
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        char sql[160];
        snprintf(sql, sizeof sql,
                 "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '%s'",
                 tables[i]);
        ck_assert_msg(raw_int(db, sql) == 1, "table %s missing", tables[i]);
    }
    sqlite3_close(db);
    store_close(st);
}
END_TEST

START_TEST(test_reopen_keeps_data_and_does_not_rerun_migrations)
{
    tb_err err = {0};
    store *st = open_store();
    ck_assert_int_eq(store_campaign_insert(st, "c1", 5, &err), TB_OK);
    append_party(st, "c1", 1, 2);
    ck_assert_int_eq(store_idem_put(st, "c1", "gm", "x1", "{\"ok\":1}", &err), TB_OK);
    store_close(st);

    sqlite3 *db = raw_open();
    int64_t objects = raw_int(db, "SELECT count(*) FROM sqlite_master");
    char schema1[4096];
    raw_text(db, "SELECT group_concat(sql, ';') FROM (SELECT sql FROM sqlite_master ORDER BY name)",
             schema1, sizeof schema1);
    sqlite3_close(db);

    for (int round = 0; round < 2; round++) {
        st = open_store();
        ck_assert_int_eq(store_schema_version(st), STORE_SCHEMA_VERSION);
        ck_assert_int_eq(last_seq(st, "c1"), 2);
        load_ok(st, "c1", 1, PARTY_STATES[2], 2);
        json_t *ids = NULL;
        ck_assert_int_eq(store_campaign_ids(st, &ids, &err), TB_OK);
        assert_json(ids, "[\"c1\"]");
        json_decref(ids);
        char *reply = NULL;
        ck_assert_int_eq(store_idem_get(st, "c1", "gm", "x1", &reply, &err), TB_OK);
        ck_assert_ptr_nonnull(reply);
        ck_assert_str_eq(reply, "{\"ok\":1}");
        free(reply);
        store_close(st);
    }

    db = raw_open();
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM sqlite_master"), objects);
    char schema2[4096];
    raw_text(db, "SELECT group_concat(sql, ';') FROM (SELECT sql FROM sqlite_master ORDER BY name)",
             schema2, sizeof schema2);
    ck_assert_str_eq(schema1, schema2);
    ck_assert_int_eq(raw_int(db, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
    sqlite3_close(db);
}
END_TEST

START_TEST(test_newer_schema_version_is_refused_with_clear_message)
{
    sqlite3 *db = raw_open();
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d", STORE_SCHEMA_VERSION + 1);
    raw_exec(db, sql);
    sqlite3_close(db);

    store *st = (store *)&g_dir; /* not NULL: store_open must reset it */
    tb_err err = {0};
    int rc = store_open(g_path, 0, &st, &err);
    ck_assert_int_ne(rc, TB_OK);
    ck_assert_int_eq(err.code, rc);
    ck_assert_ptr_null(st);
    ck_assert_msg(strstr(err.msg, "newer") != NULL, "message does not say newer: %s", err.msg);
    char v[16];
    snprintf(v, sizeof v, "%d", STORE_SCHEMA_VERSION + 1);
    ck_assert_msg(strstr(err.msg, v) != NULL, "message does not name version %s: %s", v, err.msg);

    /* nothing was migrated into the newer file */
    db = raw_open();
    ck_assert_int_eq(raw_int(db, "PRAGMA user_version"), STORE_SCHEMA_VERSION + 1);
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM sqlite_master"), 0);
    sqlite3_close(db);
}
END_TEST

START_TEST(test_database_is_in_wal_mode)
{
    store *st = open_store();
    sqlite3 *db = raw_open();
    char mode[32];
    raw_text(db, "PRAGMA journal_mode", mode, sizeof mode);
    ck_assert_str_eq(mode, "wal");
    sqlite3_close(db);
    store_close(st);
}
END_TEST

START_TEST(test_sync_full_store_opens_and_persists)
{
    store *st = NULL;
    tb_err err = {0};
    ck_assert_int_eq(store_open(g_path, 1, &st, &err), TB_OK);
    ck_assert_int_eq(store_begin(st, &err), TB_OK);
    append_party(st, "c", 1, 1);
    ck_assert_int_eq(store_commit(st, &err), TB_OK);
    store_close(st);

    st = open_store();
    load_ok(st, "c", 1, PARTY_STATES[1], 1);
    store_close(st);
}
END_TEST

START_TEST(test_open_in_missing_directory_fails_without_store)
{
    char path[256];
    snprintf(path, sizeof path, "%s/no/such/dir/tabled.db", g_dir);
    store *st = (store *)&g_dir; /* not NULL: store_open must reset it */
    tb_err err = {0};
    int rc = store_open(path, 0, &st, &err);
    ck_assert_int_eq(rc, TB_INTERNAL);
    ck_assert_int_eq(err.code, TB_INTERNAL);
    ck_assert_ptr_null(st);
    ck_assert_msg(err.msg[0] != '\0', "empty message");
}
END_TEST

START_TEST(test_open_refuses_file_that_is_not_a_database)
{
    FILE *f = fopen(g_path, "wb");
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i < 512; i++)
        fputs("this is not an sqlite database\n", f);
    fclose(f);

    store *st = (store *)&g_dir; /* not NULL: store_open must reset it */
    tb_err err = {0};
    int rc = store_open(g_path, 0, &st, &err);
    ck_assert_int_eq(rc, TB_INTERNAL);
    ck_assert_ptr_null(st);
    ck_assert_msg(err.msg[0] != '\0', "empty message");
}
END_TEST

START_TEST(test_close_null_is_a_noop)
{
    store_close(NULL);
}
END_TEST

/* ===================================== events ===================================== */

START_TEST(test_load_replays_patches_into_nested_state_and_seq)
{
    store *st = open_store();
    append_party(st, "c", 1, PARTY_N);
    ck_assert_int_eq(last_seq(st, "c"), PARTY_N);
    load_ok(st, "c", 1, PARTY_STATES[PARTY_N], PARTY_N);
    load_ok(st, "c", 0, PARTY_STATES[PARTY_N], PARTY_N);
    store_close(st);

    st = open_store();
    load_ok(st, "c", 0, PARTY_STATES[PARTY_N], PARTY_N);
    store_close(st);
}
END_TEST

START_TEST(test_load_of_campaign_without_events_is_empty_object_at_seq_zero)
{
    store *st = open_store();
    ck_assert_int_eq(last_seq(st, "nobody"), 0);
    load_ok(st, "nobody", 0, "{}", 0);
    load_ok(st, "nobody", 1, "{}", 0);
    store_close(st);
}
END_TEST

struct collect {
    int64_t seqs[64];
    int n;
    int stop_at; /* seq at which to return stop_value; 0 = never */
    int stop_value;
    store *st;           /* when set: read back from the store inside the callback */
    int64_t nested_last; /* store_last_seq seen inside the callback */
    json_t *first;       /* copy of the first event seen, as an object */
};

static int collect_fn(void *ctx, const store_event *ev)
{
    struct collect *c = ctx;
    ck_assert_int_lt(c->n, 64);
    c->seqs[c->n++] = ev->seq;
    if (c->n == 1) {
        c->first =
            json_pack("{s:s, s:I, s:s, s:s, s:O, s:O, s:O, s:I}", "campaign", ev->campaign, "seq",
                      (json_int_t)ev->seq, "seat", ev->seat, "op", ev->op, "args",
                      (json_t *)ev->args, "result", ev->result ? (json_t *)ev->result : json_null(),
                      "patch", (json_t *)ev->patch, "at_ms", (json_int_t)ev->at_ms);
        ck_assert_ptr_nonnull(c->first);
    }
    if (c->st) {
        tb_err err = {0};
        ck_assert_int_eq(store_last_seq(c->st, ev->campaign, &c->nested_last, &err), TB_OK);
    }
    if (c->stop_at && ev->seq == c->stop_at)
        return c->stop_value;
    return 0;
}

static void walk(store *st, const char *campaign, int64_t after, int64_t upto, struct collect *c)
{
    tb_err err = {0};
    int rc = store_events_each(st, campaign, after, upto, collect_fn, c, &err);
    ck_assert_msg(rc == TB_OK, "events_each: %d %s", rc, err.msg);
}

static void assert_seqs(const struct collect *c, int64_t from, int64_t to)
{
    int want = to >= from ? (int)(to - from + 1) : 0;
    ck_assert_int_eq(c->n, want);
    for (int i = 0; i < c->n; i++)
        ck_assert_int_eq(c->seqs[i], from + i);
}

START_TEST(test_events_each_respects_after_and_upto_bounds_in_seq_order)
{
    store *st = open_store();
    /* appended out of order: the walk must still be in seq order */
    for (int i = 10; i >= 1; i--)
        append_ok(st, "c", i, "[]");

    struct collect c = {0};
    walk(st, "c", 0, -1, &c);
    assert_seqs(&c, 1, 10);
    json_decref(c.first);

    memset(&c, 0, sizeof c);
    walk(st, "c", 3, 7, &c);
    assert_seqs(&c, 4, 7);
    json_decref(c.first);

    memset(&c, 0, sizeof c);
    walk(st, "c", 9, -1, &c);
    assert_seqs(&c, 10, 10);
    json_decref(c.first);

    memset(&c, 0, sizeof c);
    walk(st, "c", 0, 1, &c);
    assert_seqs(&c, 1, 1);
    json_decref(c.first);

    memset(&c, 0, sizeof c);
    walk(st, "c", 5, 5, &c);
    assert_seqs(&c, 1, 0);

    memset(&c, 0, sizeof c);
    walk(st, "c", 10, -1, &c);
    assert_seqs(&c, 1, 0);

    memset(&c, 0, sizeof c);
    walk(st, "c", 0, 0, &c);
    assert_seqs(&c, 1, 0);

    memset(&c, 0, sizeof c);
    walk(st, "c", 7, 3, &c);
    assert_seqs(&c, 1, 0);

    memset(&c, 0, sizeof c);
    walk(st, "c", 8, 100, &c);
    assert_seqs(&c, 9, 10);
    json_decref(c.first);
    store_close(st);
}
END_TEST

START_TEST(test_events_each_stops_early_and_returns_callback_value)
{
    store *st = open_store();
    append_party(st, "c", 1, PARTY_N);
    struct collect c = {.stop_at = 3, .stop_value = 42};
    tb_err err = {0};
    int rc = store_events_each(st, "c", 0, -1, collect_fn, &c, &err);
    ck_assert_int_eq(rc, 42);
    assert_seqs(&c, 1, 3);
    json_decref(c.first);

    memset(&c, 0, sizeof c);
    c.stop_at = 1;
    c.stop_value = -7;
    rc = store_events_each(st, "c", 0, -1, collect_fn, &c, &err);
    ck_assert_int_eq(rc, -7);
    assert_seqs(&c, 1, 1);
    json_decref(c.first);

    /* the store is still usable after an aborted walk */
    ck_assert_int_eq(last_seq(st, "c"), PARTY_N);
    load_ok(st, "c", 1, PARTY_STATES[PARTY_N], PARTY_N);
    store_close(st);
}
END_TEST

START_TEST(test_events_each_hands_back_every_stored_field)
{
    store *st = open_store();
    tb_err err = {0};
    json_t *args = parse("{\"skill\":\"Athletics\",\"bonus\":-2,\"ratio\":0.1,"
                         "\"big\":9007199254740993,\"text\":\"caf\\u00e9 \\\"q\\\"\"}");
    json_t *result = parse("{\"dice\":[3,6],\"kept\":[6],\"total\":4,\"outcome\":\"partial\"}");
    json_t *patch = parse("[{\"op\":\"add\",\"path\":\"/x\",\"value\":[1,{\"y\":null}]}]");
    store_event ev = {
        .campaign = "camp",
        .seq = 1,
        .seat = "seat-7",
        .op = "cot.check",
        .args = args,
        .result = result,
        .patch = patch,
        .at_ms = 1700000000123LL,
    };
    ck_assert_int_eq(store_event_append(st, &ev, &err), TB_OK);
    ev.seq = 2;
    ev.result = NULL; /* stored as null */
    ev.patch = parse("[]");
    ck_assert_int_eq(store_event_append(st, &ev, &err), TB_OK);
    json_decref((json_t *)ev.patch);
    store_close(st);

    st = open_store();
    struct collect c = {0};
    walk(st, "camp", 0, 1, &c);
    ck_assert_int_eq(c.n, 1);
    json_t *want =
        json_pack("{s:s, s:I, s:s, s:s, s:O, s:O, s:O, s:I}", "campaign", "camp", "seq",
                  (json_int_t)1, "seat", "seat-7", "op", "cot.check", "args", args, "result",
                  result, "patch", patch, "at_ms", (json_int_t)1700000000123LL);
    char *w = json_dumps(want, JSON_COMPACT | JSON_SORT_KEYS);
    assert_json(c.first, w);
    free(w);
    json_decref(want);
    json_decref(c.first);

    memset(&c, 0, sizeof c);
    walk(st, "camp", 1, 2, &c);
    ck_assert_int_eq(c.n, 1);
    json_t *r = json_object_get(c.first, "result");
    ck_assert_msg(json_is_null(r), "a NULL result must come back as null");
    json_decref(c.first);

    json_decref(args);
    json_decref(result);
    json_decref(patch);
    store_close(st);
}
END_TEST

START_TEST(test_events_each_callback_may_read_the_store)
{
    store *st = open_store();
    append_party(st, "c", 1, 3);
    struct collect c = {.st = st};
    walk(st, "c", 0, -1, &c);
    assert_seqs(&c, 1, 3);
    ck_assert_int_eq(c.nested_last, 3);
    json_decref(c.first);
    store_close(st);
}
END_TEST

START_TEST(test_duplicate_campaign_seq_is_conflict_and_keeps_first_event)
{
    store *st = open_store();
    append_party(st, "c", 1, 2);
    tb_err err = {0};
    int rc = append_ev(st, "c", 2, "[{\"op\":\"add\",\"path\":\"/evil\",\"value\":1}]", &err);
    ck_assert_int_eq(rc, TB_CONFLICT);
    ck_assert_int_eq(err.code, TB_CONFLICT);
    ck_assert_msg(err.msg[0] != '\0', "empty message");

    /* the same seq in another campaign is fine */
    append_ok(st, "other", 2, "[]");

    ck_assert_int_eq(last_seq(st, "c"), 2);
    load_ok(st, "c", 1, PARTY_STATES[2], 2);
    /* and the store keeps working */
    append_party(st, "c", 3, 3);
    load_ok(st, "c", 1, PARTY_STATES[3], 3);
    store_close(st);
}
END_TEST

START_TEST(test_events_of_two_campaigns_do_not_mix)
{
    store *st = open_store();
    /* interleaved appends */
    for (int i = 1; i <= 4; i++) {
        append_ok(st, "alpha", i, PARTY_PATCHES[i]);
        char p[96];
        snprintf(p, sizeof p, "[{\"op\":\"add\",\"path\":\"/b%d\",\"value\":%d}]", i, i * 10);
        append_ok(st, "beta", i, p);
    }
    append_ok(st, "beta", 5, "[{\"op\":\"remove\",\"path\":\"/b1\"}]");

    ck_assert_int_eq(last_seq(st, "alpha"), 4);
    ck_assert_int_eq(last_seq(st, "beta"), 5);
    load_ok(st, "alpha", 1, PARTY_STATES[4], 4);
    load_ok(st, "beta", 1, "{\"b2\":20,\"b3\":30,\"b4\":40}", 5);

    struct collect c = {0};
    walk(st, "alpha", 0, -1, &c);
    assert_seqs(&c, 1, 4);
    ck_assert_str_eq(json_string_value(json_object_get(c.first, "campaign")), "alpha");
    assert_json(json_object_get(c.first, "patch"), PARTY_PATCHES[1]);
    json_decref(c.first);

    /* a prefix of a campaign id is another campaign */
    ck_assert_int_eq(last_seq(st, "alph"), 0);
    ck_assert_int_eq(last_seq(st, ""), 0);
    store_close(st);
}
END_TEST

START_TEST(test_gap_in_seqs_is_reported_by_load)
{
    store *st = open_store();
    append_party(st, "c", 1, 2);
    /* seq 3 is missing; seq 4's patch would apply cleanly, so only the gap can fail the load */
    append_ok(st, "c", 4, "[{\"op\":\"add\",\"path\":\"/after_gap\",\"value\":1}]");
    json_t *state = NULL;
    int64_t seq = -1;
    tb_err err = {0};
    int rc = store_campaign_load(st, "c", 1, &state, &seq, &err);
    ck_assert_int_ne(rc, TB_OK);
    ck_assert_int_eq(err.code, rc);
    ck_assert_msg(err.msg[0] != '\0', "empty message");
    ck_assert_ptr_null(state);
    store_close(st);
}
END_TEST

START_TEST(test_log_not_starting_at_one_is_reported_by_load)
{
    store *st = open_store();
    append_ok(st, "c", 2, PARTY_PATCHES[1]);
    json_t *state = NULL;
    int64_t seq = -1;
    tb_err err = {0};
    int rc = store_campaign_load(st, "c", 1, &state, &seq, &err);
    ck_assert_int_ne(rc, TB_OK);
    ck_assert_int_eq(err.code, rc);
    ck_assert_ptr_null(state);
    store_close(st);
}
END_TEST

START_TEST(test_patch_that_does_not_apply_fails_load)
{
    store *st = open_store();
    append_party(st, "c", 1, 1);
    append_ok(st, "c", 2, "[{\"op\":\"replace\",\"path\":\"/missing/deep\",\"value\":1}]");
    json_t *state = NULL;
    int64_t seq = -1;
    tb_err err = {0};
    int rc = store_campaign_load(st, "c", 1, &state, &seq, &err);
    ck_assert_int_ne(rc, TB_OK);
    ck_assert_int_eq(err.code, rc);
    ck_assert_ptr_null(state);
    store_close(st);
}
END_TEST

START_TEST(test_campaign_ids_oldest_first_and_duplicate_is_conflict)
{
    store *st = open_store();
    tb_err err = {0};
    json_t *ids = NULL;
    ck_assert_int_eq(store_campaign_ids(st, &ids, &err), TB_OK);
    assert_json(ids, "[]");
    json_decref(ids);

    ck_assert_int_eq(store_campaign_insert(st, "b", 100, &err), TB_OK);
    ck_assert_int_eq(store_campaign_insert(st, "a", 200, &err), TB_OK);
    ck_assert_int_eq(store_campaign_insert(st, "c", 50, &err), TB_OK);
    ck_assert_int_eq(store_campaign_insert(st, "a", 1, &err), TB_CONFLICT);
    ck_assert_int_eq(err.code, TB_CONFLICT);

    ck_assert_int_eq(store_campaign_ids(st, &ids, &err), TB_OK);
    assert_json(ids, "[\"c\",\"b\",\"a\"]");
    json_decref(ids);
    store_close(st);
}
END_TEST

/* ===================================== transactions ===================================== */

START_TEST(test_rollback_discards_rows_appended_in_transaction)
{
    store *st = open_store();
    tb_err err = {0};
    append_party(st, "c", 1, 1);
    ck_assert_int_eq(store_in_transaction(st), 0);
    ck_assert_int_eq(store_begin(st, &err), TB_OK);
    ck_assert_int_eq(store_in_transaction(st), 1);
    append_party(st, "c", 2, 4);
    ck_assert_int_eq(store_idem_put(st, "c", "gm", "k", "{}", &err), TB_OK);
    ck_assert_int_eq(store_token_put(st, "tok", "c", "gm", 1, &err), TB_OK);
    snapshot_ok(st, "c", 4, "{}");
    store_rollback(st);
    ck_assert_int_eq(store_in_transaction(st), 0);

    ck_assert_int_eq(last_seq(st, "c"), 1);
    load_ok(st, "c", 0, PARTY_STATES[1], 1);
    char *reply = (char *)"sentinel";
    ck_assert_int_eq(store_idem_get(st, "c", "gm", "k", &reply, &err), TB_OK);
    ck_assert_ptr_null(reply);
    char *camp = NULL, *seat = NULL;
    ck_assert_int_eq(store_token_find(st, "tok", &camp, &seat, &err), TB_UNAUTHORIZED);
    store_close(st);

    st = open_store();
    ck_assert_int_eq(last_seq(st, "c"), 1);
    store_close(st);
}
END_TEST

/* The store writes a WAL frame's header and page in one call (storage/walvfs.c). What a killed
 * writer leaves must be a WAL that SQLite's own VFS recovers whole: a child commits KILL_N events,
 * one batch each, some spanning several pages, and kills itself (no close: no checkpoint); with
 * the -shm removed, a plain connection rebuilds the WAL index from the frames' checksums and must
 * find every event, byte for byte. */
#define KILL_N 40
START_TEST(test_killed_writer_leaves_a_wal_plain_sqlite_recovers_whole)
{
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        store *st = NULL;
        tb_err err = {0};
        if (store_open(g_path, 0, &st, &err))
            _exit(2);
        char patch[3000];
        for (int i = 1; i <= KILL_N; i++) {
            snprintf(patch, sizeof patch, "[{\"op\":\"add\",\"path\":\"/e%d\",\"value\":\"%0*d\"}]",
                     i, i % 5 == 0 ? 2500 : 300, i); /* every fifth one overflows its page */
            if (store_begin(st, &err) || append_ev(st, "c", i, patch, &err) ||
                store_commit(st, &err))
                _exit(3);
        }
        kill(getpid(), SIGKILL);
        _exit(4);
    }
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "child: status %d", status);
    char wal[256], shm[256];
    snprintf(wal, sizeof wal, "%s.campaigns/c.db-wal", g_path);
    snprintf(shm, sizeof shm, "%s.campaigns/c.db-shm", g_path);
    struct stat sb;
    ck_assert_int_eq(stat(wal, &sb), 0);
    ck_assert_msg(sb.st_size > 32 + KILL_N * (24 + 4096), "the events are not in the WAL: %lld",
                  (long long)sb.st_size);
    ck_assert_int_eq(unlink(shm), 0);
    sqlite3 *db = raw_open_campaign("c");
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM events"), KILL_N);
    ck_assert_int_eq(raw_int(db, "SELECT max(seq) FROM events"), KILL_N);
    char buf[3000], want[3000];
    snprintf(want, sizeof want, "[{\"op\":\"add\",\"path\":\"/e%d\",\"value\":\"%0*d\"}]", KILL_N,
             2500, KILL_N);
    ck_assert_str_eq(raw_text(db, "SELECT patch FROM events WHERE seq = 40", buf, sizeof buf),
                     want);
    char ok[16];
    ck_assert_str_eq(raw_text(db, "PRAGMA integrity_check", ok, sizeof ok), "ok");
    sqlite3_close(db);
}
END_TEST

START_TEST(test_commit_persists_across_close_and_reopen)
{
    store *st = open_store();
    tb_err err = {0};
    ck_assert_int_eq(store_begin(st, &err), TB_OK);
    append_party(st, "c", 1, PARTY_N);
    ck_assert_int_eq(store_idem_put(st, "c", "gm", "k", "{\"seq\":6}", &err), TB_OK);
    ck_assert_int_eq(store_commit(st, &err), TB_OK);
    ck_assert_int_eq(store_in_transaction(st), 0);
    store_close(st);

    sqlite3 *db = raw_view();
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM events WHERE campaign = 'c'"), PARTY_N);
    sqlite3_close(db);

    st = open_store();
    load_ok(st, "c", 1, PARTY_STATES[PARTY_N], PARTY_N);
    char *reply = NULL;
    ck_assert_int_eq(store_idem_get(st, "c", "gm", "k", &reply, &err), TB_OK);
    ck_assert_ptr_nonnull(reply);
    ck_assert_str_eq(reply, "{\"seq\":6}");
    free(reply);
    store_close(st);
}
END_TEST

START_TEST(test_reads_inside_transaction_see_uncommitted_rows_others_do_not)
{
    store *st = open_store();
    tb_err err = {0};
    ck_assert_int_eq(store_begin(st, &err), TB_OK);
    append_party(st, "c", 1, 3);
    ck_assert_int_eq(store_idem_put(st, "c", "s1", "k", "reply-1", &err), TB_OK);

    ck_assert_int_eq(last_seq(st, "c"), 3);
    load_ok(st, "c", 1, PARTY_STATES[3], 3);
    char *reply = NULL;
    ck_assert_int_eq(store_idem_get(st, "c", "s1", "k", &reply, &err), TB_OK);
    ck_assert_ptr_nonnull(reply);
    ck_assert_str_eq(reply, "reply-1");
    free(reply);
    struct collect c = {0};
    walk(st, "c", 0, -1, &c);
    assert_seqs(&c, 1, 3);
    json_decref(c.first);

    /* another connection does not see them before COMMIT */
    sqlite3 *db = raw_view();
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM events"), 0);
    ck_assert_int_eq(store_commit(st, &err), TB_OK);
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM events"), 3);
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM idempotency"), 1);
    sqlite3_close(db);
    store_close(st);
}
END_TEST

START_TEST(test_begin_twice_is_conflict_and_keeps_first_transaction)
{
    store *st = open_store();
    tb_err err = {0};
    ck_assert_int_eq(store_begin(st, &err), TB_OK);
    append_party(st, "c", 1, 1);
    tb_err err2 = {0};
    ck_assert_int_eq(store_begin(st, &err2), TB_CONFLICT);
    ck_assert_int_eq(err2.code, TB_CONFLICT);
    ck_assert_msg(err2.msg[0] != '\0', "empty message");
    ck_assert_int_eq(store_in_transaction(st), 1);
    append_party(st, "c", 2, 2);
    store_rollback(st);
    /* both appends were in the first transaction */
    ck_assert_int_eq(last_seq(st, "c"), 0);
    store_close(st);
}
END_TEST

START_TEST(test_commit_without_transaction_fails)
{
    store *st = open_store();
    tb_err err = {0};
    ck_assert_int_ne(store_commit(st, &err), TB_OK);
    ck_assert_int_eq(store_in_transaction(st), 0);
    /* a stray rollback is harmless */
    store_rollback(st);
    ck_assert_int_eq(store_begin(st, &err), TB_OK);
    ck_assert_int_eq(store_commit(st, &err), TB_OK);
    store_close(st);
}
END_TEST

START_TEST(test_close_rolls_back_open_transaction)
{
    store *st = open_store();
    tb_err err = {0};
    append_party(st, "c", 1, 1);
    ck_assert_int_eq(store_begin(st, &err), TB_OK);
    append_party(st, "c", 2, 3);
    store_close(st);

    st = open_store();
    ck_assert_int_eq(last_seq(st, "c"), 1);
    ck_assert_int_eq(store_in_transaction(st), 0);
    store_close(st);
}
END_TEST

START_TEST(test_conflict_inside_transaction_keeps_the_rest_of_the_batch)
{
    store *st = open_store();
    tb_err err = {0};
    ck_assert_int_eq(store_begin(st, &err), TB_OK);
    append_party(st, "c", 1, 1);
    ck_assert_int_eq(append_ev(st, "c", 1, "[]", &err), TB_CONFLICT);
    ck_assert_int_eq(store_idem_put(st, "c", "gm", "k", "a", &err), TB_OK);
    ck_assert_int_eq(store_idem_put(st, "c", "gm", "k", "b", &err), TB_CONFLICT);
    ck_assert_int_eq(store_in_transaction(st), 1);
    append_party(st, "c", 2, 2);
    ck_assert_int_eq(store_commit(st, &err), TB_OK);
    store_close(st);

    st = open_store();
    load_ok(st, "c", 1, PARTY_STATES[2], 2);
    char *reply = NULL;
    ck_assert_int_eq(store_idem_get(st, "c", "gm", "k", &reply, &err), TB_OK);
    ck_assert_ptr_nonnull(reply);
    ck_assert_str_eq(reply, "a");
    free(reply);
    store_close(st);
}
END_TEST

/* ===================================== idempotency ===================================== */

START_TEST(test_idem_get_before_put_is_null)
{
    store *st = open_store();
    tb_err err = {0};
    char *reply = (char *)"sentinel";
    ck_assert_int_eq(store_idem_get(st, "c", "s", "id", &reply, &err), TB_OK);
    ck_assert_ptr_null(reply);
    store_close(st);
}
END_TEST

START_TEST(test_idem_put_then_get_returns_exact_reply_bytes)
{
    store *st = open_store();
    tb_err err = {0};
    const char *small = "{\"t\":\"ack\",\"id\":\"c-1\",\"seq\":12,\"result\":{\"roll\":[6,1],"
                        "\"note\":\"caf\xc3\xa9 \\\"quoted\\\" \\n tab\\t\"}}  ";
    ck_assert_int_eq(store_idem_put(st, "c", "s", "c-1", small, &err), TB_OK);

    size_t n = 200000;
    char *big = malloc(n + 1);
    ck_assert_ptr_nonnull(big);
    for (size_t i = 0; i < n; i++)
        big[i] = (char)('!' + (i * 7) % 90);
    big[n] = '\0';
    ck_assert_int_eq(store_idem_put(st, "c", "s", "c-2", big, &err), TB_OK);

    char *reply = NULL;
    ck_assert_int_eq(store_idem_get(st, "c", "s", "c-1", &reply, &err), TB_OK);
    ck_assert_ptr_nonnull(reply);
    ck_assert_uint_eq(strlen(reply), strlen(small));
    ck_assert_mem_eq(reply, small, strlen(small) + 1);
    free(reply);

    reply = NULL;
    ck_assert_int_eq(store_idem_get(st, "c", "s", "c-2", &reply, &err), TB_OK);
    ck_assert_ptr_nonnull(reply);
    ck_assert_uint_eq(strlen(reply), n);
    ck_assert_int_eq(memcmp(reply, big, n + 1), 0);
    free(reply);
    free(big);
    store_close(st);
}
END_TEST

START_TEST(test_idem_duplicate_put_is_conflict_and_keeps_first_reply)
{
    store *st = open_store();
    tb_err err = {0};
    ck_assert_int_eq(store_idem_put(st, "c", "s", "id", "first", &err), TB_OK);
    ck_assert_int_eq(store_idem_put(st, "c", "s", "id", "second", &err), TB_CONFLICT);
    ck_assert_int_eq(err.code, TB_CONFLICT);
    char *reply = NULL;
    ck_assert_int_eq(store_idem_get(st, "c", "s", "id", &reply, &err), TB_OK);
    ck_assert_ptr_nonnull(reply);
    ck_assert_str_eq(reply, "first");
    free(reply);
    store_close(st);
}
END_TEST

START_TEST(test_idem_keys_differ_by_campaign_seat_and_id)
{
    store *st = open_store();
    tb_err err = {0};
    static const char *const keys[][4] = {
        {"c", "s", "id", "r-c-s-id"},      {"c2", "s", "id", "r-c2-s-id"},
        {"c", "s2", "id", "r-c-s2-id"},    {"c", "s", "id2", "r-c-s-id2"},
        {STORE_HOST, "s", "id", "r-host"}, {"cs", "", "id", "r-cs--id"},
        {"c", "sid", "", "r-c-sid-"},
    };
    size_t nk = sizeof keys / sizeof keys[0];
    for (size_t i = 0; i < nk; i++)
        ck_assert_msg(store_idem_put(st, keys[i][0], keys[i][1], keys[i][2], keys[i][3], &err) ==
                          TB_OK,
                      "put %zu: %s", i, err.msg);
    for (size_t i = 0; i < nk; i++) {
        char *reply = NULL;
        ck_assert_int_eq(store_idem_get(st, keys[i][0], keys[i][1], keys[i][2], &reply, &err),
                         TB_OK);
        ck_assert_ptr_nonnull(reply);
        ck_assert_str_eq(reply, keys[i][3]);
        free(reply);
    }
    char *reply = (char *)"sentinel";
    ck_assert_int_eq(store_idem_get(st, "c2", "s2", "id", &reply, &err), TB_OK);
    ck_assert_ptr_null(reply);
    store_close(st);
}
END_TEST

START_TEST(test_idem_rows_survive_reopen)
{
    store *st = open_store();
    tb_err err = {0};
    ck_assert_int_eq(store_idem_put(st, "c", "s", "id", "{\"t\":\"ack\"}", &err), TB_OK);
    store_close(st);

    st = open_store();
    char *reply = NULL;
    ck_assert_int_eq(store_idem_get(st, "c", "s", "id", &reply, &err), TB_OK);
    ck_assert_ptr_nonnull(reply);
    ck_assert_str_eq(reply, "{\"t\":\"ack\"}");
    free(reply);
    ck_assert_int_eq(store_idem_put(st, "c", "s", "id", "again", &err), TB_CONFLICT);
    store_close(st);
}
END_TEST

/* ===================================== snapshots ===================================== */

START_TEST(test_snapshot_plus_tail_equals_full_replay)
{
    store *st = open_store();
    append_party(st, "c", 1, 3);
    json_t *at3 = NULL;
    int64_t seq = 0;
    tb_err err = {0};
    ck_assert_int_eq(store_campaign_load(st, "c", 1, &at3, &seq, &err), TB_OK);
    ck_assert_int_eq(seq, 3);
    ck_assert_int_eq(store_snapshot_put(st, "c", 3, at3, &err), TB_OK);
    json_decref(at3);
    append_party(st, "c", 4, PARTY_N);

    load_ok(st, "c", 0, PARTY_STATES[PARTY_N], PARTY_N);
    load_ok(st, "c", 1, PARTY_STATES[PARTY_N], PARTY_N);
    store_close(st);

    st = open_store();
    load_ok(st, "c", 0, PARTY_STATES[PARTY_N], PARTY_N);
    load_ok(st, "c", 1, PARTY_STATES[PARTY_N], PARTY_N);
    store_close(st);
}
END_TEST

START_TEST(test_load_starts_from_newest_snapshot_and_applies_only_later_events)
{
    /* The snapshot deliberately differs from what the log gives at its seq: load(from_zero=0)
     * must start from it (and skip the events up to its seq), load(from_zero=1) must ignore it. */
    store *st = open_store();
    append_party(st, "c", 1, 3);
    snapshot_ok(st, "c", 2, "{\"old\":true}");
    snapshot_ok(st, "c", 3,
                "{\"marker\":\"snap3\",\"party\":{\"pcs\":[{\"hp\":0},{}]},\"round\":9}");
    append_party(st, "c", 4, PARTY_N);

    load_ok(st, "c", 0,
            "{\"marker\":\"snap3\",\"party\":{\"pcs\":[{\"hp\":7},"
            "{\"conditions\":[\"dazed\"]}]},"
            "\"gm\":{\"secret\":{\"dc\":12}},\"log\":[\"a\",\"b\"]}",
            PARTY_N);
    load_ok(st, "c", 1, PARTY_STATES[PARTY_N], PARTY_N);
    store_close(st);
}
END_TEST

START_TEST(test_snapshot_without_later_events_loads_at_its_seq)
{
    store *st = open_store();
    append_party(st, "c", 1, 4);
    snapshot_ok(st, "c", 4, PARTY_STATES[4]);
    load_ok(st, "c", 0, PARTY_STATES[4], 4);
    store_close(st);
}
END_TEST

START_TEST(test_gap_after_snapshot_is_reported_by_load)
{
    store *st = open_store();
    append_party(st, "c", 1, 3);
    snapshot_ok(st, "c", 3, PARTY_STATES[3]);
    /* seq 4 is missing; seq 5's patch would apply cleanly */
    append_ok(st, "c", 5, "[{\"op\":\"add\",\"path\":\"/after_gap\",\"value\":1}]");
    json_t *state = NULL;
    int64_t seq = -1;
    tb_err err = {0};
    int rc = store_campaign_load(st, "c", 0, &state, &seq, &err);
    ck_assert_int_ne(rc, TB_OK);
    ck_assert_ptr_null(state);
    store_close(st);
}
END_TEST

START_TEST(test_only_newest_two_snapshots_are_kept_per_campaign)
{
    store *st = open_store();
    snapshot_ok(st, "other", 1, "{\"o\":1}");
    snapshot_ok(st, "other", 2, "{\"o\":2}");
    for (int k = 1; k <= 5; k++) {
        char s[32];
        snprintf(s, sizeof s, "{\"k\":%d}", k);
        snapshot_ok(st, "c", k * 10, s);
    }
    /* an older seq written last must not evict the newer ones */
    snapshot_ok(st, "c", 5, "{\"k\":0}");
    store_close(st);

    sqlite3 *db = raw_view();
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM snapshots WHERE campaign = 'c'"), 2);
    ck_assert_int_eq(raw_int(db, "SELECT min(seq) FROM snapshots WHERE campaign = 'c'"), 40);
    ck_assert_int_eq(raw_int(db, "SELECT max(seq) FROM snapshots WHERE campaign = 'c'"), 50);
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM snapshots WHERE campaign = 'other'"), 2);
    sqlite3_close(db);

    st = open_store();
    load_ok(st, "c", 0, "{\"k\":5}", 50);
    load_ok(st, "other", 0, "{\"o\":2}", 2);
    store_close(st);
}
END_TEST

START_TEST(test_snapshot_at_same_seq_replaces)
{
    store *st = open_store();
    snapshot_ok(st, "c", 3, "{\"v\":1}");
    snapshot_ok(st, "c", 3, "{\"v\":2}");
    load_ok(st, "c", 0, "{\"v\":2}", 3);
    sqlite3 *db = raw_view();
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM snapshots WHERE campaign = 'c'"), 1);
    sqlite3_close(db);
    store_close(st);
}
END_TEST

/* Bad JSON written over a snapshot row: truncated, trailing garbage, empty, not JSON at all. */
static const char *const BAD_SNAPSHOTS[] = {
    "UPDATE snapshots SET state = '{\"party\": [1, 2'",
    "UPDATE snapshots SET state = '{\"party\": {}} trailing'",
    "UPDATE snapshots SET state = ''",
    "UPDATE snapshots SET state = x'00ff00'",
};
#define N_BAD_SNAPSHOTS (int)(sizeof BAD_SNAPSHOTS / sizeof BAD_SNAPSHOTS[0])

START_TEST(test_corrupted_snapshot_is_an_error_not_a_crash)
{
    store *st = open_store();
    append_party(st, "c", 1, 3);
    snapshot_ok(st, "c", 3, PARTY_STATES[3]);
    store_close(st);

    sqlite3 *db = raw_open_campaign("c");
    raw_exec(db, BAD_SNAPSHOTS[_i]);
    sqlite3_close(db);

    st = open_store();
    json_t *state = NULL;
    int64_t seq = -1;
    tb_err err = {0};
    int rc = store_campaign_load(st, "c", 0, &state, &seq, &err);
    ck_assert_int_ne(rc, TB_OK);
    ck_assert_int_eq(err.code, rc);
    ck_assert_msg(err.msg[0] != '\0', "empty message");
    ck_assert_ptr_null(state);
    /* the log itself is intact */
    load_ok(st, "c", 1, PARTY_STATES[3], 3);
    store_close(st);
}
END_TEST

START_TEST(test_corrupted_event_patch_is_an_error_not_a_crash)
{
    store *st = open_store();
    append_party(st, "c", 1, 3);
    store_close(st);

    sqlite3 *db = raw_open_campaign("c");
    raw_exec(db, "UPDATE events SET patch = 'not json' WHERE seq = 2");
    sqlite3_close(db);

    st = open_store();
    json_t *state = NULL;
    int64_t seq = -1;
    tb_err err = {0};
    int rc = store_campaign_load(st, "c", 1, &state, &seq, &err);
    ck_assert_int_ne(rc, TB_OK);
    ck_assert_int_eq(err.code, rc);
    ck_assert_ptr_null(state);
    struct collect c = {0};
    rc = store_events_each(st, "c", 0, -1, collect_fn, &c, &err);
    ck_assert_int_ne(rc, TB_OK);
    ck_assert_int_eq(c.n, 1); /* event 1 was delivered, then the walk stopped */
    json_decref(c.first);
    store_close(st);
}
END_TEST

/* ===================================== tokens ===================================== */

static char *read_file(const char *path, size_t *len)
{
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    ck_assert_ptr_nonnull(buf);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            ck_assert_ptr_nonnull(buf);
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Whether needle occurs in the database file or its -wal / -shm companions. */
static int db_files_contain(const char *needle)
{
    static const char *const suffixes[] = {"", "-wal", "-shm", "-journal"};
    int found = 0;
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        char p[160];
        snprintf(p, sizeof p, "%s%s", g_path, suffixes[i]);
        size_t len;
        char *bytes = read_file(p, &len);
        if (bytes && memmem(bytes, len, needle, strlen(needle)))
            found = 1;
        free(bytes);
    }
    return found;
}

START_TEST(test_token_put_then_find_returns_campaign_and_seat)
{
    store *st = open_store();
    tb_err err = {0};
    ck_assert_int_eq(store_token_put(st, "tok-gm", "camp", "gm", 10, &err), TB_OK);
    ck_assert_int_eq(store_token_put(st, "tok-p1", "camp", "p1", 11, &err), TB_OK);
    ck_assert_int_eq(store_token_put(st, "tok-host", STORE_HOST, "host", 12, &err), TB_OK);
    store_close(st);

    st = open_store();
    static const char *const want[][3] = {
        {"tok-gm", "camp", "gm"}, {"tok-p1", "camp", "p1"}, {"tok-host", "", "host"}};
    for (size_t i = 0; i < 3; i++) {
        char *camp = NULL, *seat = NULL;
        int rc = store_token_find(st, want[i][0], &camp, &seat, &err);
        ck_assert_msg(rc == TB_OK, "find %s: %d %s", want[i][0], rc, err.msg);
        ck_assert_ptr_nonnull(camp);
        ck_assert_ptr_nonnull(seat);
        ck_assert_str_eq(camp, want[i][1]);
        ck_assert_str_eq(seat, want[i][2]);
        free(camp);
        free(seat);
    }
    store_close(st);
}
END_TEST

START_TEST(test_raw_token_never_reaches_the_file_only_its_sha256_hex)
{
    const char *token = "tbk_Zq8vR3xL9mP2wN7sK4fJ6hD1cB5yT0uE";
    char hex[65];
    sha256_hex(token, strlen(token), hex);

    store *st = open_store();
    tb_err err = {0};
    ck_assert_int_eq(store_token_put(st, token, "camp", "p1", 10, &err), TB_OK);

    /* while open: the row is in the WAL */
    ck_assert_msg(!db_files_contain(token), "raw token found in the database files");
    ck_assert_msg(db_files_contain(hex), "sha256 hex of the token not found in the files");

    sqlite3 *db = raw_open();
    char stored[80];
    raw_text(db, "SELECT hash FROM tokens WHERE seat = 'p1'", stored, sizeof stored);
    ck_assert_str_eq(stored, hex);
    sqlite3_close(db);
    store_close(st);

    /* after close (checkpointed into the main file) */
    ck_assert_msg(!db_files_contain(token), "raw token found in the database files");
    ck_assert_msg(db_files_contain(hex), "sha256 hex of the token not found in the files");
}
END_TEST

START_TEST(test_unknown_token_is_unauthorized_with_fixed_message)
{
    store *st = open_store();
    tb_err err = {0};
    ck_assert_int_eq(store_token_put(st, "known", "camp", "p1", 10, &err), TB_OK);
    char *camp = NULL, *seat = NULL;
    int rc = store_token_find(st, "unknown-secret-value", &camp, &seat, &err);
    ck_assert_int_eq(rc, TB_UNAUTHORIZED);
    ck_assert_int_eq(err.code, TB_UNAUTHORIZED);
    ck_assert_str_eq(err.msg, "unknown or revoked token");
    ck_assert_ptr_null(camp);
    ck_assert_ptr_null(seat);
    /* a prefix of a real token is not the token */
    rc = store_token_find(st, "know", &camp, &seat, &err);
    ck_assert_int_eq(rc, TB_UNAUTHORIZED);
    rc = store_token_find(st, "", &camp, &seat, &err);
    ck_assert_int_eq(rc, TB_UNAUTHORIZED);
    store_close(st);
}
END_TEST

static int token_ok(store *st, const char *token, const char *campaign, const char *seat)
{
    char *c = NULL, *s = NULL;
    tb_err err = {0};
    int rc = store_token_find(st, token, &c, &s, &err);
    int ok = rc == TB_OK && strcmp(c, campaign) == 0 && strcmp(s, seat) == 0;
    if (rc != TB_OK)
        ck_assert_int_eq(rc, TB_UNAUTHORIZED);
    free(c);
    free(s);
    return ok;
}

START_TEST(test_revoke_seat_removes_only_that_seats_tokens)
{
    store *st = open_store();
    tb_err err = {0};
    ck_assert_int_eq(store_token_put(st, "a-p1-one", "A", "p1", 1, &err), TB_OK);
    ck_assert_int_eq(store_token_put(st, "a-p1-two", "A", "p1", 2, &err), TB_OK);
    ck_assert_int_eq(store_token_put(st, "a-p2", "A", "p2", 3, &err), TB_OK);
    ck_assert_int_eq(store_token_put(st, "b-p1", "B", "p1", 4, &err), TB_OK);
    ck_assert_int_eq(store_token_put(st, "a-gm", "A", "gm", 5, &err), TB_OK);

    ck_assert_int_eq(store_token_revoke_seat(st, "A", "p1", &err), TB_OK);
    ck_assert_int_eq(token_ok(st, "a-p1-one", "A", "p1"), 0);
    ck_assert_int_eq(token_ok(st, "a-p1-two", "A", "p1"), 0);
    ck_assert_int_eq(token_ok(st, "a-p2", "A", "p2"), 1);
    ck_assert_int_eq(token_ok(st, "b-p1", "B", "p1"), 1);
    ck_assert_int_eq(token_ok(st, "a-gm", "A", "gm"), 1);

    /* revoking a seat without tokens is not an error */
    ck_assert_int_eq(store_token_revoke_seat(st, "A", "p1", &err), TB_OK);
    store_close(st);

    st = open_store();
    ck_assert_int_eq(token_ok(st, "a-p1-one", "A", "p1"), 0);
    ck_assert_int_eq(token_ok(st, "b-p1", "B", "p1"), 1);
    sqlite3 *db = raw_open();
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM tokens"), 3);
    sqlite3_close(db);
    store_close(st);
}
END_TEST

/* ===================================== integrity ===================================== */

START_TEST(test_integrity_check_ok_on_fresh_store)
{
    store *st = open_store();
    tb_err err = {0};
    ck_assert_int_eq(store_integrity_check(st, &err), TB_OK);
    store_close(st);
}
END_TEST

START_TEST(test_integrity_check_ok_after_mixed_workload_and_reopen)
{
    store *st = open_store();
    tb_err err = {0};
    ck_assert_int_eq(store_campaign_insert(st, "c", 1, &err), TB_OK);
    for (int round = 0; round < 20; round++) {
        ck_assert_int_eq(store_begin(st, &err), TB_OK);
        char id[32];
        snprintf(id, sizeof id, "cmd-%d", round);
        ck_assert_int_eq(store_idem_put(st, "c", "gm", id, "{\"t\":\"ack\"}", &err), TB_OK);
        if (round < PARTY_N)
            append_party(st, "c", round + 1, round + 1);
        if (round % 2)
            store_rollback(st);
        else
            ck_assert_int_eq(store_commit(st, &err), TB_OK);
    }
    ck_assert_int_eq(store_integrity_check(st, &err), TB_OK);
    store_close(st);

    st = open_store();
    ck_assert_int_eq(store_integrity_check(st, &err), TB_OK);
    /* only the committed (even) rounds are there: events 1, 3, 5 and 10 idempotency rows */
    ck_assert_int_eq(last_seq(st, "c"), 5);
    struct collect c = {0};
    walk(st, "c", 0, -1, &c);
    ck_assert_int_eq(c.n, 3);
    ck_assert_int_eq(c.seqs[0], 1);
    ck_assert_int_eq(c.seqs[1], 3);
    ck_assert_int_eq(c.seqs[2], 5);
    json_decref(c.first);
    sqlite3 *db = raw_view();
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM idempotency"), 10);
    sqlite3_close(db);
    store_close(st);
}
END_TEST

/* ============== the data directory: a file per campaign (issue 26/28) ============== */

static int exists_in_dir(const char *name)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", g_dir, name);
    return access(p, F_OK) == 0;
}

/* Appends event seq of campaign with the command id cmd_id and a result {"n": seq}. */
static void append_cmd(store *st, const char *campaign, int64_t seq, const char *seat,
                       const char *cmd_id)
{
    json_t *patch =
        json_pack("[{s:s, s:s, s:I}]", "op", "add", "path", "/n", "value", (json_int_t)seq);
    json_t *args = json_object(), *result = json_pack("{s:I}", "n", (json_int_t)seq);
    store_event ev = {.campaign = campaign,
                      .seq = seq,
                      .seat = seat,
                      .op = "roll",
                      .args = args,
                      .result = result,
                      .patch = patch,
                      .at_ms = 1000 + seq,
                      .cmd_id = cmd_id};
    tb_err err = {0};
    ck_assert_msg(store_event_append(st, &ev, &err) == TB_OK, "append: %s", err.msg);
    json_decref(patch);
    json_decref(args);
    json_decref(result);
}

static char *idem(store *st, const char *campaign, const char *seat, const char *cmd_id)
{
    char *reply = NULL;
    tb_err err = {0};
    ck_assert_int_eq(store_idem_get(st, campaign, seat, cmd_id, &reply, &err), TB_OK);
    return reply;
}

START_TEST(test_each_campaign_has_a_file_of_its_own_and_the_host_file_none_of_its_rows)
{
    store *st = open_store();
    append_party(st, "alpha", 1, 2);
    append_ok(st, "beta", 1, PARTY_PATCHES[1]);
    ck_assert(exists_in_dir("tabled.db.campaigns/alpha.db"));
    ck_assert(exists_in_dir("tabled.db.campaigns/beta.db"));
    ck_assert_int_eq(store_open_campaigns(st), 2);
    store_close(st);

    sqlite3 *db = raw_open();
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM sqlite_master WHERE name IN "
                                 "('events', 'snapshots')"),
                     0);
    sqlite3_close(db);
    db = raw_open_campaign("alpha");
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM events"), 2);
    const char *tables[] = {"events", "replies", "snapshots", "meta"};
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        char sql[160];
        snprintf(sql, sizeof sql, "SELECT count(*) FROM sqlite_master WHERE name = '%s'",
                 tables[i]);
        ck_assert_msg(raw_int(db, sql) == 1, "table %s missing", tables[i]);
    }
    char who[64];
    ck_assert_str_eq(raw_text(db, "SELECT value FROM meta WHERE key = 'campaign'", who, sizeof who),
                     "alpha");
    sqlite3_close(db);

    /* closed, then opened again by the next call that names it */
    st = open_store();
    ck_assert_int_eq(store_open_campaigns(st), 0);
    load_ok(st, "alpha", 1, PARTY_STATES[2], 2);
    ck_assert_int_eq(store_open_campaigns(st), 1);
    tb_err err = {0};
    ck_assert_int_eq(store_campaign_close(st, "alpha", &err), TB_OK);
    ck_assert_int_eq(store_open_campaigns(st), 0);
    ck_assert_int_eq(last_seq(st, "alpha"), 2);
    /* a read of a campaign without a file creates none */
    ck_assert_int_eq(last_seq(st, "nobody"), 0);
    ck_assert(!exists_in_dir("tabled.db.campaigns/nobody.db"));
    store_close(st);
}
END_TEST

/* store.h: an event with a cmd_id is its command's idempotency record; the reply is the ack
 * rebuilt from it, byte for byte, also after a reopen; another seat's id is another command. */
START_TEST(test_a_commands_event_is_its_idempotency_record)
{
    store *st = open_store();
    append_cmd(st, "c", 1, "p1", "x\"1");
    char *reply = idem(st, "c", "p1", "x\"1");
    ck_assert_ptr_nonnull(reply);
    ck_assert_str_eq(reply, "{\"t\":\"ack\",\"id\":\"x\\\"1\",\"seq\":1,\"result\":{\"n\":1}}");
    free(reply);
    ck_assert_ptr_null(idem(st, "c", "p2", "x\"1"));
    ck_assert_ptr_null(idem(st, "c", "p1", "x"));
    tb_err err = {0};
    ck_assert_int_eq(store_idem_put(st, "c", "p1", "x\"1", "other", &err), TB_CONFLICT);
    store_close(st);
    st = open_store();
    reply = idem(st, "c", "p1", "x\"1");
    ck_assert_ptr_nonnull(reply);
    ck_assert_str_eq(reply, "{\"t\":\"ack\",\"id\":\"x\\\"1\",\"seq\":1,\"result\":{\"n\":1}}");
    free(reply);
    store_close(st);
}
END_TEST

/* store.h, STORE_IDEM_KEEP: the newest 10 000 commands of a campaign are recognised, the one
 * before them no longer (also after a reopen); its row stays on disk. */
START_TEST(test_the_newest_idem_keep_commands_are_recognised)
{
    store *st = open_store();
    tb_err err = {0};
    ck_assert_int_eq(store_begin(st, &err), TB_OK);
    char id[32];
    for (int i = 0; i <= STORE_IDEM_KEEP; i++) {
        snprintf(id, sizeof id, "k%d", i);
        append_cmd(st, "c", i + 1, i % 2 ? "p1" : "p2", id);
    }
    ck_assert_int_eq(store_commit(st, &err), TB_OK);
    for (int round = 0; round < 2; round++) {
        ck_assert_ptr_null(idem(st, "c", "p2", "k0"));
        char *r = idem(st, "c", "p1", "k1");
        ck_assert_ptr_nonnull(r);
        free(r);
        snprintf(id, sizeof id, "k%d", STORE_IDEM_KEEP);
        r = idem(st, "c", "p2", id);
        ck_assert_ptr_nonnull(r);
        free(r);
        store_close(st);
        st = open_store();
    }
    sqlite3 *db = raw_open_campaign("c");
    ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM events WHERE cmd_id = 'k0'"), 1);
    sqlite3_close(db);
    store_close(st);
}
END_TEST

/* A rollback forgets the ids and the seq its batch recorded; store_batch_ok says what is
 * durable: the files the batch wrote to are not, the others are. */
START_TEST(test_rollback_forgets_the_ids_it_recorded_and_batch_ok_says_what_is_durable)
{
    store *st = open_store();
    tb_err err = {0};
    append_cmd(st, "c", 1, "p1", "a");
    append_ok(st, "d", 1, PARTY_PATCHES[1]);
    ck_assert_int_eq(store_begin(st, &err), TB_OK);
    append_cmd(st, "c", 2, "p1", "b");
    ck_assert_int_eq(store_idem_put(st, "c", "p1", "n", "{\"t\":\"nack\"}", &err), TB_OK);
    ck_assert_int_eq(store_token_put(st, "TOKEN-0123456789abcdefgh", "c", "p1", 1, &err), TB_OK);
    char *r = idem(st, "c", "p1", "b");
    ck_assert_ptr_nonnull(r);
    free(r);
    store_rollback(st);
    ck_assert_ptr_null(idem(st, "c", "p1", "b"));
    ck_assert_ptr_null(idem(st, "c", "p1", "n"));
    r = idem(st, "c", "p1", "a");
    ck_assert_ptr_nonnull(r);
    free(r);
    ck_assert_int_eq(last_seq(st, "c"), 1);
    ck_assert_int_eq(store_batch_ok(st, "c"), 0);
    ck_assert_int_eq(store_batch_ok(st, STORE_HOST), 0);
    ck_assert_int_eq(store_batch_ok(st, "d"), 1);
    char *camp = NULL, *seat = NULL;
    ck_assert_int_eq(store_token_find(st, "TOKEN-0123456789abcdefgh", &camp, &seat, &err),
                     TB_UNAUTHORIZED);

    ck_assert_int_eq(store_begin(st, &err), TB_OK);
    append_cmd(st, "c", 2, "p1", "b");
    ck_assert_int_eq(store_commit(st, &err), TB_OK);
    ck_assert_int_eq(store_batch_ok(st, "c"), 1);
    ck_assert_int_eq(store_batch_ok(st, STORE_HOST), 1);
    ck_assert_int_eq(last_seq(st, "c"), 2);
    store_close(st);
}
END_TEST

/* Issue 26: a batch of many files is committed by the store's committer and the caller's thread
 * together (store_commit_start): not for a batch that creates a file (its directory is synced
 * first) or writes fewer than STORE_COMMIT_ASYNC_MIN files; store_batch_ok of any file, in any
 * order, waits for that file to be decided; after store_commit every file's rows are durable and
 * the index knows their ids; a rollback after the start does not take the files' commits back. */
START_TEST(test_a_batch_of_many_files_commits_on_the_committer_too)
{
    enum { N = STORE_COMMIT_ASYNC_MIN + 3 };
    store *st = open_store();
    tb_err err = {0};
    char id[N][8];
    for (int i = 0; i < N; i++)
        snprintf(id[i], sizeof id[i], "k%d", i);
    ck_assert_int_eq(store_begin(st, &err), TB_OK); /* creates the files: synced as before */
    for (int i = 0; i < N; i++)
        append_cmd(st, id[i], 1, "p1", "a");
    ck_assert_int_eq(store_commit_start(st), 0);
    ck_assert_int_eq(store_commit(st, &err), TB_OK);

    ck_assert_int_eq(store_begin(st, &err), TB_OK); /* too few files */
    for (int i = 0; i < STORE_COMMIT_ASYNC_MIN - 1; i++)
        append_cmd(st, id[i], 2, "p1", "b");
    ck_assert_int_eq(store_commit_start(st), 0);
    ck_assert_int_eq(store_commit(st, &err), TB_OK);

    for (int round = 0; round < 20; round++) {
        int64_t seq = 3 + round;
        char cmd[16];
        snprintf(cmd, sizeof cmd, "c%d", round);
        ck_assert_int_eq(store_begin(st, &err), TB_OK);
        for (int i = 0; i < N; i++)
            append_cmd(st, id[i], seq - (i < STORE_COMMIT_ASYNC_MIN - 1 ? 0 : 1), "p1", cmd);
        ck_assert_int_eq(store_commit_start(st), 1);
        for (int i = N - 1; i >= 0; i -= 2) /* asked out of order: each waits for its own */
            ck_assert_int_eq(store_batch_ok(st, id[i]), 1);
        ck_assert_int_eq(store_commit(st, &err), TB_OK);
        for (int i = 0; i < N; i++)
            ck_assert_int_eq(store_batch_ok(st, id[i]), 1);
    }
    for (int i = 0; i < N; i++) {
        sqlite3 *db = raw_open_campaign(id[i]);
        ck_assert_int_eq(raw_int(db, "SELECT count(*) FROM events"),
                         i < STORE_COMMIT_ASYNC_MIN - 1 ? 22 : 21);
        sqlite3_close(db);
        char *r = idem(st, id[i], "p1", "c19");
        ck_assert_ptr_nonnull(r);
        free(r);
    }

    ck_assert_int_eq(store_begin(st, &err), TB_OK); /* a rollback once started */
    for (int i = 0; i < N; i++)
        append_cmd(st, id[i], 30, "p1", "z");
    ck_assert_int_eq(store_commit_start(st), 1);
    store_rollback(st);
    store_close(st); /* stops the committer */
    st = open_store();
    for (int i = 0; i < N; i++) /* a started commit is not taken back */
        ck_assert_int_eq(last_seq(st, id[i]), 30);
    store_close(st);
}
END_TEST

/* Issue 27 item 7, here for the data directory: a host file that is gone (or empty) beside a
 * campaigns directory is refused, not started over as a new database; a campaign file that is
 * empty is refused for that campaign alone. */
START_TEST(test_a_lost_host_file_is_refused_and_an_empty_campaign_file_takes_down_only_its_campaign)
{
    store *st = open_store();
    append_party(st, "alpha", 1, 3);
    append_party(st, "beta", 1, 2);
    store_close(st);

    char p[256];
    snprintf(p, sizeof p, "%s/tabled.db.campaigns/alpha.db", g_dir);
    FILE *f = fopen(p, "w"); /* what a copy onto a full disk leaves */
    ck_assert_ptr_nonnull(f);
    fclose(f);
    st = open_store();
    json_t *state = NULL;
    int64_t seq;
    tb_err err = {0};
    ck_assert_int_eq(store_campaign_load(st, "alpha", 0, &state, &seq, &err), TB_INTERNAL);
    ck_assert_msg(strstr(err.msg, "empty") != NULL, "%s", err.msg);
    load_ok(st, "beta", 0, PARTY_STATES[2], 2);
    store_close(st);

    for (int k = 0; k < 2; k++) {
        if (k == 0) {
            unlink(g_path);
        } else {
            f = fopen(g_path, "w");
            ck_assert_ptr_nonnull(f);
            fclose(f);
        }
        st = (store *)&g_dir;
        ck_assert_int_eq(store_open(g_path, 0, &st, &err), TB_INTERNAL);
        ck_assert_ptr_null(st);
        ck_assert_msg(strstr(err.msg, "missing or empty") != NULL, "%s", err.msg);
    }
    struct stat sb;
    ck_assert_int_eq(stat(g_path, &sb), 0);
    ck_assert_int_eq(sb.st_size, 0); /* nothing was written into it */
}
END_TEST

/* store.h: a database in the single-file layout (fixtures/store_v1.db, written by main 1b6115d)
 * is split at open; a split cut short by a crash (a stray temporary file, a damaged campaign
 * file renamed into place) is done again over it. */
START_TEST(test_a_single_file_database_is_split_and_a_cut_split_is_redone)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "cp %s/tests/integration/fixtures/store_v1.db %s", TB_SOURCE_ROOT,
             g_path);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd,
             "mkdir %s.campaigns && echo junk > %s.campaigns/cr4pknt7v8.db && "
             "echo junk > %s.campaigns/cr4pknt7v8.db.tmp-1",
             g_path, g_path, g_path);
    ck_assert_int_eq(system(cmd), 0);
    store *st = open_store();
    ck_assert_int_eq(store_schema_version(st), STORE_SCHEMA_VERSION);
    json_t *ids = NULL;
    tb_err err = {0};
    ck_assert_int_eq(store_campaign_ids(st, &ids, &err), TB_OK);
    ck_assert_int_eq(json_array_size(ids), 3);
    json_decref(ids);
    ck_assert_int_eq(last_seq(st, "cr4pknt7v8"), 17);
    char *r = idem(st, "cr4pknt7v8", "p1", "ann-roll-3");
    ck_assert_ptr_nonnull(r);
    ck_assert_ptr_nonnull(strstr(r, "\"seq\":8"));
    free(r);
    r = idem(st, "cr4pknt7v8", "p1", "ann-bad-1");
    ck_assert_ptr_nonnull(r);
    ck_assert_ptr_nonnull(strstr(r, "\"t\":\"nack\""));
    free(r);
    json_t *state = NULL;
    int64_t seq;
    ck_assert_int_eq(store_campaign_load(st, "cr4pknt7v8", 1, &state, &seq, &err), TB_OK);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(state, "campaign"), "name")),
                     "Old fivey table");
    json_decref(state);
    ck_assert_int_eq(store_integrity_check(st, &err), TB_OK);
    store_close(st);
}
END_TEST

/* ===================================== runner ===================================== */

static Suite *storage_suite(void)
{
    Suite *s = suite_create("storage");

    TCase *tc = tcase_create("sha256");
    tcase_add_test(tc, test_sha256_empty_input_matches_fips_vector);
    tcase_add_test(tc, test_sha256_abc_matches_fips_vector);
    tcase_add_test(tc, test_sha256_448_bit_message_matches_fips_vector);
    tcase_add_test(tc, test_sha256_one_million_a_matches_fips_vector);
    tcase_add_loop_test(tc, test_sha256_padding_boundaries_match_pinned_digests, 0,
                        N_PADDING_VECTORS);
    suite_add_tcase(s, tc);

    tc = tcase_create("migrations");
    tcase_add_checked_fixture(tc, setup_dir, teardown_dir);
    tcase_add_test(tc, test_new_file_is_migrated_to_current_schema_with_all_tables);
    tcase_add_test(tc, test_reopen_keeps_data_and_does_not_rerun_migrations);
    tcase_add_test(tc, test_newer_schema_version_is_refused_with_clear_message);
    tcase_add_test(tc, test_database_is_in_wal_mode);
    tcase_add_test(tc, test_sync_full_store_opens_and_persists);
    tcase_add_test(tc, test_open_in_missing_directory_fails_without_store);
    tcase_add_test(tc, test_open_refuses_file_that_is_not_a_database);
    tcase_add_test(tc, test_close_null_is_a_noop);
    suite_add_tcase(s, tc);

    tc = tcase_create("layout");
    tcase_add_checked_fixture(tc, setup_dir, teardown_dir);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_each_campaign_has_a_file_of_its_own_and_the_host_file_none_of_its_rows);
    tcase_add_test(tc, test_a_commands_event_is_its_idempotency_record);
    tcase_add_test(tc, test_the_newest_idem_keep_commands_are_recognised);
    tcase_add_test(tc, test_rollback_forgets_the_ids_it_recorded_and_batch_ok_says_what_is_durable);
    tcase_add_test(tc, test_a_batch_of_many_files_commits_on_the_committer_too);
    tcase_add_test(
        tc,
        test_a_lost_host_file_is_refused_and_an_empty_campaign_file_takes_down_only_its_campaign);
    tcase_add_test(tc, test_a_single_file_database_is_split_and_a_cut_split_is_redone);
    suite_add_tcase(s, tc);

    tc = tcase_create("events");
    tcase_add_checked_fixture(tc, setup_dir, teardown_dir);
    tcase_add_test(tc, test_load_replays_patches_into_nested_state_and_seq);
    tcase_add_test(tc, test_load_of_campaign_without_events_is_empty_object_at_seq_zero);
    tcase_add_test(tc, test_events_each_respects_after_and_upto_bounds_in_seq_order);
    tcase_add_test(tc, test_events_each_stops_early_and_returns_callback_value);
    tcase_add_test(tc, test_events_each_hands_back_every_stored_field);
    tcase_add_test(tc, test_events_each_callback_may_read_the_store);
    tcase_add_test(tc, test_duplicate_campaign_seq_is_conflict_and_keeps_first_event);
    tcase_add_test(tc, test_events_of_two_campaigns_do_not_mix);
    tcase_add_test(tc, test_gap_in_seqs_is_reported_by_load);
    tcase_add_test(tc, test_log_not_starting_at_one_is_reported_by_load);
    tcase_add_test(tc, test_patch_that_does_not_apply_fails_load);
    tcase_add_test(tc, test_campaign_ids_oldest_first_and_duplicate_is_conflict);
    suite_add_tcase(s, tc);

    tc = tcase_create("transactions");
    tcase_add_checked_fixture(tc, setup_dir, teardown_dir);
    tcase_add_test(tc, test_rollback_discards_rows_appended_in_transaction);
    tcase_add_test(tc, test_commit_persists_across_close_and_reopen);
    tcase_add_test(tc, test_killed_writer_leaves_a_wal_plain_sqlite_recovers_whole);
    tcase_add_test(tc, test_reads_inside_transaction_see_uncommitted_rows_others_do_not);
    tcase_add_test(tc, test_begin_twice_is_conflict_and_keeps_first_transaction);
    tcase_add_test(tc, test_commit_without_transaction_fails);
    tcase_add_test(tc, test_close_rolls_back_open_transaction);
    tcase_add_test(tc, test_conflict_inside_transaction_keeps_the_rest_of_the_batch);
    suite_add_tcase(s, tc);

    tc = tcase_create("idempotency");
    tcase_add_checked_fixture(tc, setup_dir, teardown_dir);
    tcase_add_test(tc, test_idem_get_before_put_is_null);
    tcase_add_test(tc, test_idem_put_then_get_returns_exact_reply_bytes);
    tcase_add_test(tc, test_idem_duplicate_put_is_conflict_and_keeps_first_reply);
    tcase_add_test(tc, test_idem_keys_differ_by_campaign_seat_and_id);
    tcase_add_test(tc, test_idem_rows_survive_reopen);
    suite_add_tcase(s, tc);

    tc = tcase_create("snapshots");
    tcase_add_checked_fixture(tc, setup_dir, teardown_dir);
    tcase_add_test(tc, test_snapshot_plus_tail_equals_full_replay);
    tcase_add_test(tc, test_load_starts_from_newest_snapshot_and_applies_only_later_events);
    tcase_add_test(tc, test_snapshot_without_later_events_loads_at_its_seq);
    tcase_add_test(tc, test_gap_after_snapshot_is_reported_by_load);
    tcase_add_test(tc, test_only_newest_two_snapshots_are_kept_per_campaign);
    tcase_add_test(tc, test_snapshot_at_same_seq_replaces);
    tcase_add_loop_test(tc, test_corrupted_snapshot_is_an_error_not_a_crash, 0, N_BAD_SNAPSHOTS);
    tcase_add_test(tc, test_corrupted_event_patch_is_an_error_not_a_crash);
    suite_add_tcase(s, tc);

    tc = tcase_create("tokens");
    tcase_add_checked_fixture(tc, setup_dir, teardown_dir);
    tcase_add_test(tc, test_token_put_then_find_returns_campaign_and_seat);
    tcase_add_test(tc, test_raw_token_never_reaches_the_file_only_its_sha256_hex);
    tcase_add_test(tc, test_unknown_token_is_unauthorized_with_fixed_message);
    tcase_add_test(tc, test_revoke_seat_removes_only_that_seats_tokens);
    suite_add_tcase(s, tc);

    tc = tcase_create("integrity");
    tcase_add_checked_fixture(tc, setup_dir, teardown_dir);
    tcase_add_test(tc, test_integrity_check_ok_on_fresh_store);
    tcase_add_test(tc, test_integrity_check_ok_after_mixed_workload_and_reopen);
    suite_add_tcase(s, tc);

    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(storage_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
