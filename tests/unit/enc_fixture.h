/* An encounter module driven directly, as server/ops_enc.c drives it, with scripted dice: for
 * test_enc_heimr.c and the between-scenes suites (test_between_heimr.c, test_between_grimwire.c).
 * Header only (static inline functions); a suite includes it and needs nothing more in
 * tests/meson.build.
 *
 * Unlike the server it does not write stats back to sheets: a suite reads the combatant's stats
 * (the sheet copy the module changed); the integration tests check the sheets themselves. */
#ifndef TB_TESTS_UNIT_ENC_FIXTURE_H
#define TB_TESTS_UNIT_ENC_FIXTURE_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encounter.h"

typedef struct fixture {
    rules_enc e;
    json_t *enc, *hidden;
    rules_rng *rng;
    const rules_module *m;
} fixture;

/* Starts module `id` with its start options (JSON text, NULL for none). */
static inline void fx_init_module(fixture *f, const char *id, const char *options)
{
    memset(f, 0, sizeof *f);
    f->m = rules_module_find(id);
    ck_assert_ptr_nonnull(f->m);
    f->enc = json_pack("{s:s, s:i, s:i, s:[], s:{}}", "module", id, "round", 0, "turn", -1, "order",
                       "combatants");
    f->hidden = json_pack("{s:{}}", "combatants");
    f->rng = rules_rng_scripted(NULL, 0);
    f->e = (rules_enc){.mod = f->m,
                       .enc = f->enc,
                       .hidden = f->hidden,
                       .rng = f->rng,
                       .seat = "gm",
                       .is_gm = 1,
                       .log = json_array(),
                       .gm_log = json_array()};
    tb_err err = {0};
    rules_args a;
    json_t *o = json_loads(options ? options : "{}", 0, NULL);
    ck_assert_int_eq(rules_args_parse("start", f->m->options, o, &a, &err), 0);
    if (f->m->start)
        ck_assert_msg(f->m->start(&f->e, &a, &err) == 0, "%s", err.msg);
    json_decref(o);
}

static inline void fx_free(fixture *f)
{
    json_decref(f->enc);
    json_decref(f->hidden);
    json_decref(f->e.log);
    json_decref(f->e.gm_log);
    rules_rng_destroy(f->rng);
}

/* Adds a combatant as server/ops_enc.c does: the public object, the sheet_stats copied, join. */
static inline void fx_add(fixture *f, const char *cid, const char *name, const char *seat, int npc,
                          json_t *sh /* stolen */)
{
    json_object_set_new(json_object_get(f->enc, "combatants"), cid,
                        json_pack("{s:s, s:s, s:s, s:s, s:b, s:[]}", "id", cid, "name", name,
                                  "side", npc ? "foes" : "party", "seat", seat, "npc", npc,
                                  "conditions"));
    json_t *stats = rules_enc_stats(&f->e, cid);
    for (const char *const *k = f->m->sheet_stats; *k; k++) {
        json_t *v = json_object_get(sh, *k);
        if (v)
            json_object_set_new(stats, *k, json_deep_copy(v));
    }
    tb_err err = {0};
    f->e.actor = cid;
    if (f->m->join)
        ck_assert_int_eq(f->m->join(&f->e, cid, sh, &err), 0);
    json_decref(sh);
}

/* Runs action `name` for `actor` with params (JSON text) and the scripted faces; returns its
 * code. On success the script must be used up exactly; a refusal must roll nothing (validate
 * before rolling). */
static inline int fx_act(fixture *f, const char *actor, const char *name, const char *params,
                         const int *faces, size_t n, tb_err *err)
{
    rules_rng_destroy(f->rng);
    f->rng = f->e.rng = rules_rng_scripted(faces, n);
    const rules_enc_action *a = rules_module_action(f->m, name);
    ck_assert_msg(a != NULL, "no action %s", name);
    json_t *p = json_loads(params ? params : "{}", 0, NULL);
    ck_assert_msg(p != NULL, "bad params %s", params);
    rules_args args;
    memset(err, 0, sizeof *err);
    int rc = rules_args_parse(name, a->params, p, &args, err);
    f->e.actor = actor;
    if (rc == 0)
        rc = a->resolve(&f->e, &args, err);
    if (getenv("ENC_DEBUG")) {
        char *dump = json_dumps(f->e.log, JSON_INDENT(1));
        fprintf(stderr, "%s\n", dump);
        free(dump);
    }
    ck_assert_msg(!rules_rng_exhausted(f->rng), "%s: the dice script is too short", name);
    rules_rng_die(f->rng, 6);
    ck_assert_msg(rules_rng_exhausted(f->rng), "%s: the dice script is too long", name);
    json_decref(p);
    return rc;
}

#define ACT_OK(f, actor, name, params, ...)                                                        \
    do {                                                                                           \
        static const int faces_[] = {__VA_ARGS__};                                                 \
        tb_err e_ = {0};                                                                           \
        int rc_ = fx_act(f, actor, name, params, faces_, sizeof faces_ / sizeof faces_[0], &e_);   \
        ck_assert_msg(rc_ == 0, "%s: %s", name, e_.msg);                                           \
    } while (0)
#define ACT_NODICE(f, actor, name, params)                                                         \
    do {                                                                                           \
        tb_err e_ = {0};                                                                           \
        int rc_ = fx_act(f, actor, name, params, NULL, 0, &e_);                                    \
        ck_assert_msg(rc_ == 0, "%s: %s", name, e_.msg);                                           \
    } while (0)

/* Asserts that the action is refused with a message containing needle, rolling nothing, and
 * returns its code. */
static inline int refused(fixture *f, const char *actor, const char *name, const char *params,
                          const char *needle)
{
    tb_err err = {0};
    int rc = fx_act(f, actor, name, params, NULL, 0, &err);
    ck_assert_msg(rc != 0, "%s should be refused", name);
    ck_assert_msg(strstr(err.msg, needle) != NULL, "'%s' does not say '%s'", err.msg, needle);
    return rc;
}

/* cid's stats (the sheet copy) and an integer in it, or in its sub-object obj. */
static inline json_t *fx_stats(fixture *f, const char *cid)
{
    return rules_enc_stats(&f->e, cid);
}

static inline int fx_stat(fixture *f, const char *cid, const char *obj, const char *key)
{
    json_t *o = fx_stats(f, cid);
    if (obj)
        o = json_object_get(o, obj);
    json_t *v = json_object_get(o, key);
    ck_assert_msg(json_is_integer(v), "%s: %s.%s is not an integer", cid, obj ? obj : "", key);
    return (int)json_integer_value(v);
}

/* The text of the last log entry of `action` (NULL if none). */
static inline const char *fx_last_text(fixture *f, const char *action)
{
    const char *t = NULL;
    size_t i;
    json_t *v;
    json_array_foreach(
        f->e.log, i,
        v) if (rules_enc_streq(json_string_value(json_object_get(v, "action")), action)) t =
        json_string_value(json_object_get(v, "text"));
    return t;
}

/* The result object of the last log entry of `action` (NULL if none). */
static inline json_t *fx_last_result(fixture *f, const char *action)
{
    json_t *r = NULL;
    size_t i;
    json_t *v;
    json_array_foreach(f->e.log, i,
                       v) if (rules_enc_streq(json_string_value(json_object_get(v, "action")),
                                              action)) r = json_object_get(v, "result");
    return r;
}

#endif
