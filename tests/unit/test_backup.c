/*
 * test_backup.c — storage/backup.h on real SQLite files: a backup is a complete, checked copy
 * that never overwrites; rolling backups keep the newest N; a campaign exported and imported
 * into another database loads to the same state with its idempotency rows and token hashes;
 * an import that is refused (already there, damaged) writes nothing.
 */
#include <check.h>
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backup.h"
#include "store.h"

static char g_dir[64];

static void setup_dir(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/tabled-backup-XXXXXX");
    ck_assert_msg(mkdtemp(g_dir) != NULL, "mkdtemp failed");
}

/* Removes g_dir and what is in it, one level of subdirectories deep. */
static void rm_tree(const char *dir, int depth)
{
    DIR *d = opendir(dir);
    if (d) {
        for (struct dirent *e; (e = readdir(d));) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char p[512];
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            if (unlink(p) != 0 && depth > 0)
                rm_tree(p, depth - 1);
        }
        closedir(d);
    }
    rmdir(dir);
}

static void teardown_dir(void)
{
    rm_tree(g_dir, 1);
}

static const char *path_in(const char *name)
{
    static char buf[4][256];
    static int i;
    i = (i + 1) % 4;
    snprintf(buf[i], sizeof buf[i], "%s/%s", g_dir, name);
    return buf[i];
}

static store *open_at(const char *path)
{
    store *st = NULL;
    tb_err err = {0};
    ck_assert_msg(store_open(path, 0, &st, &err) == TB_OK, "store_open: %s", err.msg);
    return st;
}

/* A campaign "c1" with n events (each adds /n<i>), one idempotency row and one token. */
static void fill(store *st, const char *campaign, int n)
{
    tb_err err = {0};
    ck_assert_int_eq(store_begin(st, &err), TB_OK);
    ck_assert_int_eq(store_campaign_insert(st, campaign, 1000, &err), TB_OK);
    for (int i = 1; i <= n; i++) {
        char key[16];
        snprintf(key, sizeof key, "/n%d", i);
        json_t *patch = i == 1
                            ? json_pack("[{s:s, s:s, s:{}}]", "op", "add", "path", "", "value")
                            : json_pack("[{s:s, s:s, s:i}]", "op", "add", "path", key, "value", i);
        json_t *args = json_pack("{s:i}", "i", i);
        store_event ev = {.campaign = campaign,
                          .seq = i,
                          .seat = "gm",
                          .op = "test.step",
                          .args = args,
                          .result = NULL,
                          .patch = patch,
                          .at_ms = 2000 + i};
        ck_assert_int_eq(store_event_append(st, &ev, &err), TB_OK);
        json_decref(patch);
        json_decref(args);
    }
    ck_assert_int_eq(store_idem_put(st, campaign, "p1", "cmd-1", "{\"t\":\"ack\"}", &err), TB_OK);
    ck_assert_int_eq(store_token_put(st, "TOKEN-of-p1-0123456789", campaign, "p1", 5, &err), TB_OK);
    ck_assert_int_eq(store_commit(st, &err), TB_OK);
}

static json_t *load(store *st, const char *campaign, int64_t *seq)
{
    json_t *state = NULL;
    tb_err err = {0};
    ck_assert_msg(store_campaign_load(st, campaign, 1, &state, seq, &err) == TB_OK, "%s", err.msg);
    return state;
}

START_TEST(test_backup_is_a_complete_copy_and_never_overwrites)
{
    store *st = open_at(path_in("a.db"));
    fill(st, "c1", 30);
    tb_err err = {0};
    /* the store stays open (a server serving the file) while the copy is made */
    ck_assert_int_eq(store_backup(path_in("a.db"), path_in("copy.db"), &err), TB_OK);
    store *cp = open_at(path_in("copy.db"));
    int64_t s1, s2;
    json_t *a = load(st, "c1", &s1), *b = load(cp, "c1", &s2);
    ck_assert_int_eq(s1, 30);
    ck_assert_int_eq(s2, 30);
    ck_assert(json_equal(a, b));
    ck_assert_int_eq(store_integrity_check(cp, &err), TB_OK);
    json_decref(a);
    json_decref(b);
    store_close(cp);
    ck_assert_int_eq(store_backup(path_in("a.db"), path_in("copy.db"), &err), TB_CONFLICT);
    ck_assert_ptr_nonnull(strstr(err.msg, "already exists"));
    ck_assert_int_eq(store_backup(path_in("none.db"), path_in("x.db"), &err), TB_NOT_FOUND);
    struct stat sb;
    ck_assert_int_ne(stat(path_in("x.db"), &sb), 0);
    store_close(st);
}
END_TEST

START_TEST(test_rolling_backups_keep_the_newest_n)
{
    store *st = open_at(path_in("a.db"));
    fill(st, "c1", 3);
    tb_err err = {0};
    char *last = NULL;
    for (int i = 0; i < 5; i++) {
        free(last);
        ck_assert_int_eq(
            store_backup_rolling(path_in("a.db"), path_in("bk"), "tabled-", 2, &last, &err), TB_OK);
    }
    int n = 0, found_last = 0;
    DIR *d = opendir(path_in("bk"));
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        n++;
        found_last |= strstr(last, e->d_name) != NULL;
    }
    closedir(d);
    ck_assert_int_eq(n, 2);
    ck_assert_msg(found_last, "the newest backup %s is kept", last);
    free(last);
    store_close(st);
}
END_TEST

/* Issue 27 item 6: a clock that ran ahead left backups stamped in the future; pruning by the stamp
 * then deleted every new backup the moment it was written. The order of writing counts. */
START_TEST(test_rolling_backups_survive_a_clock_that_ran_ahead)
{
    store *st = open_at(path_in("a.db"));
    fill(st, "c1", 3);
    tb_err err = {0};
    mkdir(path_in("bk"), 0700);
    static const char *const FUTURE[] = {"tabled-29991231-235959-997.db",
                                         "tabled-29991231-235959-998.db",
                                         "tabled-29991231-235959-999-n7.db", NULL};
    for (int i = 0; FUTURE[i]; i++) {
        char p[600];
        snprintf(p, sizeof p, "%s/%s", path_in("bk"), FUTURE[i]);
        FILE *f = fopen(p, "w");
        ck_assert_ptr_nonnull(f);
        fclose(f);
    }
    char *written[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(
            store_backup_rolling(path_in("a.db"), path_in("bk"), "tabled-", 2, &written[i], &err),
            TB_OK);
    ck_assert_msg(strstr(written[0], "-n8.db"), "numbered after the newest: %s", written[0]);
    ck_assert_msg(strstr(written[2], "-n10.db"), "%s", written[2]);
    int n = 0;
    DIR *d = opendir(path_in("bk"));
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        n++;
        ck_assert_msg(strstr(e->d_name, "-n9.db") || strstr(e->d_name, "-n10.db"),
                      "only the two newest written are kept, not %s", e->d_name);
    }
    closedir(d);
    ck_assert_int_eq(n, 2);
    for (int i = 0; i < 3; i++)
        free(written[i]);
    store_close(st);
}
END_TEST

START_TEST(test_export_then_import_loads_the_same_campaign_with_idem_and_tokens)
{
    store *a = open_at(path_in("a.db"));
    fill(a, "c1", 12);
    tb_err err = {0};
    json_t *doc = NULL;
    ck_assert_int_eq(store_export_campaign(a, "c1", &doc, &err), TB_OK);
    char *text = json_dumps(doc, JSON_COMPACT);
    ck_assert_ptr_null(strstr(text, "TOKEN-of-p1")); /* hashes only */
    free(text);
    store *b = open_at(path_in("b.db"));
    ck_assert_int_eq(store_import_campaign(b, doc, &err), TB_OK);
    int64_t s1, s2;
    json_t *x = load(a, "c1", &s1), *y = load(b, "c1", &s2);
    ck_assert_int_eq(s1, s2);
    ck_assert(json_equal(x, y));
    json_decref(x);
    json_decref(y);
    char *reply = NULL, *camp = NULL, *seat = NULL;
    ck_assert_int_eq(store_idem_get(b, "c1", "p1", "cmd-1", &reply, &err), TB_OK);
    ck_assert_str_eq(reply, "{\"t\":\"ack\"}");
    ck_assert_int_eq(store_token_find(b, "TOKEN-of-p1-0123456789", &camp, &seat, &err), TB_OK);
    ck_assert_str_eq(camp, "c1");
    ck_assert_str_eq(seat, "p1");
    free(reply);
    free(camp);
    free(seat);
    /* a second import is refused and changes nothing */
    ck_assert_int_eq(store_import_campaign(b, doc, &err), TB_CONFLICT);
    ck_assert_int_eq(store_export_campaign(a, "nope", &x, &err), TB_NOT_FOUND);
    json_decref(doc);
    store_close(a);
    store_close(b);
}
END_TEST

/* Damaged exports: each is refused with bad_request and leaves the target empty. */
START_TEST(test_damaged_imports_are_refused_and_write_nothing)
{
    store *a = open_at(path_in("a.db"));
    fill(a, "c1", 5);
    tb_err err = {0};
    json_t *doc = NULL;
    ck_assert_int_eq(store_export_campaign(a, "c1", &doc, &err), TB_OK);
    store *b = open_at(path_in("b.db"));
    for (int k = 0; k < 6; k++) {
        json_t *bad = json_deep_copy(doc);
        json_t *events = json_object_get(bad, "events");
        switch (k) {
        case 0:
            json_object_set_new(bad, "format", json_string("other"));
            break;
        case 1:
            json_array_remove(events, 2);
            break; /* a gap */
        case 2:    /* a patch that does not apply */
            json_object_set_new(json_array_get(events, 3), "patch",
                                json_pack("[{s:s, s:s}]", "op", "remove", "path", "/missing"));
            break;
        case 3:
            json_object_set_new(json_object_get(bad, "campaign"), "id", json_string("../x"));
            break;
        case 4:
            json_object_set_new(json_array_get(json_object_get(bad, "tokens"), 0), "hash",
                                json_string("not-a-hash"));
            break;
        case 5:
            json_object_set_new(bad, "schema", json_integer(STORE_SCHEMA_VERSION + 1));
            break;
        }
        ck_assert_msg(store_import_campaign(b, bad, &err) == TB_BAD_REQUEST, "case %d: %s", k,
                      err.msg);
        ck_assert_msg(strlen(err.msg) > 10, "case %d: a message", k);
        json_decref(bad);
    }
    json_t *ids = NULL;
    ck_assert_int_eq(store_campaign_ids(b, &ids, &err), TB_OK);
    ck_assert_int_eq(json_array_size(ids), 0);
    json_decref(ids);
    json_decref(doc);
    store_close(a);
    store_close(b);
}
END_TEST

START_TEST(test_checkpoint_on_its_own_connection_copies_the_wal)
{
    store *st = open_at(path_in("a.db"));
    fill(st, "c1", 20);
    tb_err err = {0};
    int frames = -1, done = -1;
    ck_assert_int_eq(store_checkpoint(path_in("a.db"), &frames, &done, &err), TB_OK);
    ck_assert_int_gt(frames, 0);
    ck_assert_int_eq(done, frames);
    store_close(st);
}
END_TEST

static Suite *backup_suite(void)
{
    Suite *s = suite_create("backup");
    TCase *tc = tcase_create("backup");
    tcase_add_checked_fixture(tc, setup_dir, teardown_dir);
    tcase_add_test(tc, test_backup_is_a_complete_copy_and_never_overwrites);
    tcase_add_test(tc, test_rolling_backups_keep_the_newest_n);
    tcase_add_test(tc, test_rolling_backups_survive_a_clock_that_ran_ahead);
    tcase_add_test(tc, test_export_then_import_loads_the_same_campaign_with_idem_and_tokens);
    tcase_add_test(tc, test_damaged_imports_are_refused_and_write_nothing);
    tcase_add_test(tc, test_checkpoint_on_its_own_connection_copies_the_wal);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(backup_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
