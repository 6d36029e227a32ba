/* Shared helpers for the rule-system Check suites (cot, heimr, grimwire, tenacity, fivey and
 * rules_core): scripted checks, typed result fields, sample sheets, sheet and parameter errors,
 * and running a suite.
 *
 * Header only: every function is static inline, so a suite includes this file and needs no
 * extra source in tests/meson.build. It does need TB_SOURCE_ROOT (tb_source_root_dep in
 * tests/meson.build) to find the sample sheets, so a suite binary works from any directory.
 *
 * Where the suites' private copies differed in what they assert, each behaviour has its own
 * function below, so no suite got stricter or looser by sharing this code:
 *
 *   ru_run_scripted        the script must not run out                 (grimwire, tenacity,
 *                                                                        fivey)
 *   ru_run_scripted_exact  ... and must be used up exactly             (cot, heimr)
 *
 *   ru_assert_sheet_invalid             validation fails with the message       (heimr)
 *   ru_assert_sheet_invalid_underivable ... and rules_sheet_derive refuses it   (cot, grimwire,
 *                                                                                  tenacity, fivey)
 *
 * Every helper reports a failure with ck_assert*, which ends the test at once.
 */
#ifndef TB_TESTS_UNIT_RULES_UTIL_H
#define TB_TESTS_UNIT_RULES_UTIL_H

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "system.h"

#ifndef TB_SOURCE_ROOT
#error "rules_util.h needs TB_SOURCE_ROOT: add tb_source_root_dep to the suite in tests/meson.build"
#endif

/* Number of elements of an array (not a pointer). */
#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* Seeded rolls per distribution test in grimwire, tenacity and fivey (cot and heimr use their
 * own ROLLS). Every wrong reading a test names is rejected by a wide margin at this size: at
 * 100000 rolls the smallest wrong-rule statistic was 267 times its p = 0.001 critical value, and
 * a statistic against a wrong distribution grows with the sample, so at 20000 it is still about
 * 50 times (measured session 4; the rest were thousands of times, or an impossible outcome).
 * Fewer rolls keep the sanitized suites well inside their timeouts on a loaded machine. */
#define STAT_ROLLS 20000

/*
 * ru_load_json - the JSON file at path. Fails the test, naming the file, the parser's message
 * and the line, if it cannot be read or parsed. The caller owns (decrefs) the result.
 */
static inline json_t *ru_load_json(const char *path)
{
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    ck_assert_msg(j != NULL, "%s: %s (line %d)", path, je.text, je.line);
    return j;
}

/*
 * ru_load_sample - the sample sheet TB_SOURCE_ROOT/rules/SYSTEM/samples/FILE, loaded with
 * ru_load_json (the test fails if it is missing or not JSON). The caller owns the result.
 */
static inline json_t *ru_load_sample(const char *system, const char *file)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/rules/%s/samples/%s", TB_SOURCE_ROOT, system, file);
    return ru_load_json(path);
}

/* The shared body of ru_run_scripted and ru_run_scripted_exact; use those. */
static inline json_t *ru_run_scripted_impl(const char *system, const char *check,
                                           const char *params, const int *faces, size_t n,
                                           int exact)
{
    json_t *p = json_loads(params, 0, NULL);
    ck_assert_msg(p != NULL, "bad test params %s", params);
    rules_rng *rng = rules_rng_scripted(faces, n);
    json_t *r = NULL;
    tb_err err = {0};
    int rc = rules_check_run(system, check, p, rng, &r, &err);
    ck_assert_msg(rc == 0, "%s %s %s: %s", system, check, params, err.msg);
    ck_assert_msg(!rules_rng_exhausted(rng), "%s %s %s: script too short", system, check, params);
    if (exact) {
        (void)rules_rng_die(rng, 6); /* one more draw must run the script out */
        ck_assert_msg(rules_rng_exhausted(rng), "%s %s %s: script too long", system, check, params);
    }
    rules_rng_destroy(rng);
    json_decref(p);
    return r;
}

/*
 * ru_run_scripted - runs SYSTEM's CHECK with params (a JSON text, which must parse) and the
 * dice faces[0..n) fed in order. Asserts the check succeeds (rc 0) and did not ask for more
 * faces than scripted; faces left over are allowed. Returns the result (caller decrefs).
 */
static inline json_t *ru_run_scripted(const char *system, const char *check, const char *params,
                                      const int *faces, size_t n)
{
    return ru_run_scripted_impl(system, check, params, faces, n, 0);
}

/*
 * ru_run_scripted_exact - ru_run_scripted, and also asserts that every scripted face was asked
 * for: the script must be used up exactly. Returns the result (caller decrefs).
 */
static inline json_t *ru_run_scripted_exact(const char *system, const char *check,
                                            const char *params, const int *faces, size_t n)
{
    return ru_run_scripted_impl(system, check, params, faces, n, 1);
}

/*
 * ru_ival - the integer field k of the object o. Fails the test if it is missing or not a JSON
 * integer (a real, a string or a boolean is a failure, not a conversion).
 */
static inline int ru_ival(const json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    ck_assert_msg(json_is_integer(v), "field '%s' is not an integer", k);
    return (int)json_integer_value(v);
}

/*
 * ru_bval - the boolean field k of the object o, as 1 or 0. Fails the test if it is missing or
 * not a JSON boolean (0/1 integers are a failure).
 */
static inline int ru_bval(const json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    ck_assert_msg(json_is_boolean(v), "field '%s' is not a boolean", k);
    return json_is_true(v);
}

/*
 * ru_assert_line - asserts that the human line of result r (rules_result_format) is exactly
 * want.
 */
static inline void ru_assert_line(const json_t *r, const char *want)
{
    char *line = rules_result_format(r);
    ck_assert_str_eq(line, want);
    free(line);
}

/*
 * ru_param_error - runs SYSTEM's CHECK with params (a JSON text, which must parse) and a seeded
 * rng, expecting a parameter error: asserts no result is given (the result pointer is reset to
 * NULL even though it starts non-NULL) and that the error message contains needle. Returns the
 * code, for the caller to assert (suites differ: exactly TB_BAD_REQUEST, TB_NOT_FOUND, or
 * merely non-zero).
 */
static inline int ru_param_error(const char *system, const char *check, const char *params,
                                 const char *needle)
{
    json_t *p = json_loads(params, 0, NULL);
    ck_assert_msg(p != NULL, "bad test params %s", params);
    rules_rng *rng = rules_rng_seeded(1);
    json_t *r = (json_t *)1;
    tb_err err = {0};
    int rc = rules_check_run(system, check, p, rng, &r, &err);
    ck_assert_ptr_null(r);
    ck_assert_msg(strstr(err.msg, needle) != NULL, "got '%s', want '%s'", err.msg, needle);
    rules_rng_destroy(rng);
    json_decref(p);
    return rc;
}

/*
 * ru_assert_sheet_valid - asserts that SYSTEM accepts the sheet (rules_sheet_validate returns
 * 0; label names it in the failure message) and derives values from it.
 */
static inline void ru_assert_sheet_valid(const char *system, const json_t *sheet, const char *label)
{
    tb_err err = {0};
    ck_assert_msg(rules_sheet_validate(system, sheet, &err) == 0, "%s: %s", label, err.msg);
    json_t *d = rules_sheet_derive(system, sheet);
    ck_assert_ptr_nonnull(d);
    json_decref(d);
}

/*
 * ru_assert_sample_valid - loads the sample sheet FILE of SYSTEM (ru_load_sample) and asserts
 * ru_assert_sheet_valid on it, naming FILE in a failure.
 */
static inline void ru_assert_sample_valid(const char *system, const char *file)
{
    json_t *sheet = ru_load_sample(system, file);
    ru_assert_sheet_valid(system, sheet, file);
    json_decref(sheet);
}

/*
 * ru_assert_every_sample_valid - every *.json file in TB_SOURCE_ROOT/rules/SYSTEM/samples is
 * loaded and passes ru_assert_sheet_valid. Fails if the directory cannot be opened. Returns
 * how many sheets were checked, for the caller to assert a minimum.
 */
static inline int ru_assert_every_sample_valid(const char *system)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/rules/%s/samples", TB_SOURCE_ROOT, system);
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot open %s", dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        json_t *sheet = ru_load_json(path);
        ru_assert_sheet_valid(system, sheet, path);
        json_decref(sheet);
        n++;
    }
    closedir(d);
    return n;
}

/*
 * ru_assert_sheet_invalid - asserts that SYSTEM rejects the sheet with TB_BAD_REQUEST and an
 * error message containing needle. Says nothing about rules_sheet_derive.
 */
static inline void ru_assert_sheet_invalid(const char *system, const json_t *sheet,
                                           const char *needle)
{
    tb_err err = {0};
    ck_assert_int_eq(rules_sheet_validate(system, sheet, &err), TB_BAD_REQUEST);
    ck_assert_msg(strstr(err.msg, needle) != NULL, "got '%s', want '%s'", err.msg, needle);
}

/*
 * ru_assert_sheet_invalid_underivable - ru_assert_sheet_invalid, and also asserts that
 * rules_sheet_derive refuses the sheet (returns NULL).
 */
static inline void ru_assert_sheet_invalid_underivable(const char *system, const json_t *sheet,
                                                       const char *needle)
{
    ru_assert_sheet_invalid(system, sheet, needle);
    ck_assert_ptr_null(rules_sheet_derive(system, sheet));
}

/*
 * ru_merge_patch - merges the JSON object text patch (which must parse) into the object s, one
 * level deep: each key replaces s's value, and a null value deletes the key.
 */
static inline void ru_merge_patch(json_t *s, const char *patch)
{
    json_t *p = json_loads(patch, 0, NULL);
    ck_assert_ptr_nonnull(p);
    const char *k;
    json_t *v;
    json_object_foreach(p, k, v)
    {
        if (json_is_null(v))
            json_object_del(s, k);
        else
            json_object_set(s, k, v);
    }
    json_decref(p);
}

/*
 * ru_sample_counts - runs SYSTEM's CHECK with params (a JSON text) STAT_ROLLS times from
 * rules_rng_seeded(seed), and counts[c] is how many results cat() put in category c. Every run
 * must succeed and every category must be in 0..k-1; counts[0..k) is zeroed first.
 */
static inline void ru_sample_counts(const char *system, const char *check, const char *params,
                                    long seed, int (*cat)(const json_t *), long *counts, int k)
{
    json_t *p = json_loads(params, 0, NULL);
    rules_rng *rng = rules_rng_seeded((uint64_t)seed);
    memset(counts, 0, sizeof(long) * (size_t)k);
    for (long i = 0; i < STAT_ROLLS; i++) {
        json_t *r = NULL;
        tb_err err;
        ck_assert_int_eq(rules_check_run(system, check, p, rng, &r, &err), 0);
        int c = cat(r);
        ck_assert(c >= 0 && c < k);
        counts[c]++;
        json_decref(r);
    }
    rules_rng_destroy(rng);
    json_decref(p);
}

/*
 * ru_last_entry - the last entry of an encounter log array (borrowed) whose "action" is `action`,
 * or NULL: the entry one module action wrote, among the lines it and the server add.
 */
static inline json_t *ru_last_entry(json_t *log, const char *action)
{
    for (size_t i = json_array_size(log); i-- > 0;) {
        json_t *x = json_array_get(log, i);
        if (strcmp(json_string_value(json_object_get(x, "action")), action) == 0)
            return x;
    }
    return NULL;
}

/*
 * ru_run_suite - runs every test of s (CK_NORMAL output, ending in "Checks: N"), frees the
 * runner, and returns the exit status for main: EXIT_FAILURE if any test failed.
 */
static inline int ru_run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
