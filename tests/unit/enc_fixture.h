/*
 * enc_fixture.h — THE Check fixture for driving one encounter module as server/ops_enc.c drives
 * it (issue 23): the module started on a fresh /enc and /gm/enc with its parsed options,
 * combatants made as enc.add makes them (the public object, the sheet_stats copied from the
 * sheet, then the join hook), and every action run through rules_enc_act, the server's one path:
 * who may act (and the module's may_act), the parameters, the action's check, then its resolve.
 * Every efx_act also asserts the property of that path (tests/fuzz/README.md, "Properties"): the
 * steps before the resolve draw no die and change nothing, and an action whose check passed is
 * not refused by its resolve.
 * A refused action leaves every tree and the logs as they were (the server drops its working
 * copy). The dice are scripted: any draw beyond the script marks it exhausted.
 *
 * Header only (static inline); a suite includes it and needs nothing more in tests/meson.build.
 * Unlike the server it does not write stats back to sheets: a suite reads the combatant's stats
 * (the sheet copy the module changed); the integration tests check the sheets themselves.
 *
 *   efx_start / efx_init   the encounter, started         efx_free
 *   efx_combatant          the public object (id from next_id when cid is NULL)
 *   efx_join / efx_add_sheet
 *                          sheet_stats copied, then the join hook
 *   efx_dice, EFX_DICE     the next dice, exactly         efx_dice_bad, efx_dice_used_all
 *   efx_act, EFX_OK        enc.act as the server runs it  efx_refused (refused, no die, no change)
 *   efx_stat, efx_last_text, efx_last_entry               reading what happened
 */
#ifndef TB_TESTS_UNIT_ENC_FIXTURE_H
#define TB_TESTS_UNIT_ENC_FIXTURE_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encounter.h"

typedef struct efx {
    rules_enc e;
    json_t *enc, *hidden, *priv; /* /enc, /gm/enc, /private */
    rules_rng *rng;
    const rules_module *m;
    tb_err err;     /* the last action's refusal */
    json_t *params; /* the last action's params (its parsed arguments borrow from it) */
} efx;

/* Starts module m with its enc.start options (a JSON text, NULL for none), as enc.start does:
 * /enc {module, name, round 0, turn -1, order, combatants, next_id, options}, then the module's
 * start hook with the parsed options. Free with efx_free. */
static inline void efx_start_module(efx *f, const rules_module *m, const char *options_json)
{
    memset(f, 0, sizeof *f);
    f->m = m;
    json_t *opts = json_loads(options_json ? options_json : "{}", 0, NULL);
    ck_assert_msg(json_is_object(opts), "bad options %s", options_json ? options_json : "{}");
    f->enc = json_pack("{s:s, s:s, s:i, s:i, s:[], s:{}, s:i, s:O}", "module", f->m->id, "name",
                       f->m->name, "round", 0, "turn", -1, "order", "combatants", "next_id", 1,
                       "options", opts);
    f->hidden = json_pack("{s:{}}", "combatants");
    f->priv = json_object();
    f->rng = rules_rng_scripted(NULL, 0);
    f->e = (rules_enc){.mod = f->m,
                       .enc = f->enc,
                       .hidden = f->hidden,
                       .priv = f->priv,
                       .rng = f->rng,
                       .seat = "gm",
                       .is_gm = 1,
                       .log = json_array(),
                       .gm_log = json_array(),
                       .seat_log = json_array()};
    rules_args a;
    ck_assert_msg(rules_args_parse("enc.start", f->m->options, opts, &a, &f->err) == 0, "%s",
                  f->err.msg);
    if (f->m->start)
        ck_assert_msg(f->m->start(&f->e, &a, &f->err) == 0, "%s", f->err.msg);
    json_decref(opts);
}

/* The same for a registered module, by its id. */
static inline void efx_start(efx *f, const char *id, const char *options_json)
{
    const rules_module *m = rules_module_find(id);
    ck_assert_msg(m != NULL, "no module %s", id);
    efx_start_module(f, m, options_json);
}

/* Starts module `id` with no options. */
static inline void efx_init(efx *f, const char *id)
{
    efx_start(f, id, NULL);
}

static inline void efx_free(efx *f)
{
    json_decref(f->enc);
    json_decref(f->hidden);
    json_decref(f->priv);
    json_decref(f->e.log);
    json_decref(f->e.gm_log);
    json_decref(f->e.seat_log);
    json_decref(f->params);
    rules_rng_destroy(f->rng);
}

/* Replaces the dice with a script (faces in the order they are asked for). */
static inline void efx_dice(efx *f, const int *faces, size_t n)
{
    rules_rng_destroy(f->rng);
    f->rng = rules_rng_scripted(faces, n);
    f->e.rng = f->rng;
}

#define EFX_DICE(f, ...)                                                                           \
    do {                                                                                           \
        static const int faces_[] = {__VA_ARGS__};                                                 \
        efx_dice(f, faces_, sizeof faces_ / sizeof faces_[0]);                                     \
    } while (0)

/* Replaces the dice with a seeded generator (for a test that does not count them). */
static inline void efx_dice_seeded(efx *f, uint64_t seed)
{
    rules_rng_destroy(f->rng);
    f->rng = rules_rng_seeded(seed);
    f->e.rng = f->rng;
}

/* Whether the script ran out or met a face it could not show. */
static inline int efx_dice_bad(efx *f)
{
    return rules_rng_exhausted(f->rng);
}

/* Every scripted die was used, and none more (draws one die to see that the script is empty). */
static inline void efx_dice_used_all(efx *f, const char *what)
{
    ck_assert_msg(!rules_rng_exhausted(f->rng), "%s: the step wanted more dice than scripted",
                  what);
    (void)rules_rng_die(f->rng, 6);
    ck_assert_msg(rules_rng_exhausted(f->rng), "%s: the step rolled fewer dice than scripted",
                  what);
}

/* The public object of a new combatant {id, name, side, seat, npc, conditions: []} (borrowed),
 * its id cid, or the next id of /enc/next_id when cid is NULL. The join hook is not run. */
static inline json_t *efx_combatant(efx *f, const char *cid, const char *name, const char *side,
                                    const char *seat, int npc)
{
    char made[24];
    if (!cid) {
        json_int_t n = json_integer_value(json_object_get(f->enc, "next_id"));
        snprintf(made, sizeof made, "e%lld", (long long)(n < 1 ? 1 : n));
        json_object_set_new(f->enc, "next_id", json_integer((n < 1 ? 1 : n) + 1));
        cid = made;
    }
    json_t *c = json_pack("{s:s, s:s, s:s, s:s, s:b, s:[]}", "id", cid, "name", name, "side", side,
                          "seat", seat, "npc", npc, "conditions");
    json_object_set_new(json_object_get(f->enc, "combatants"), cid, c);
    return c;
}

/* The id of a combatant object made by efx_combatant (borrowed from the state). */
static inline const char *efx_cid(const json_t *c)
{
    return json_string_value(json_object_get(c, "id"));
}

/* As enc.add goes on after making the combatant: the module's sheet_stats copied from `sheet`
 * (borrowed; NULL: a sheetless NPC) into its stats, then the join hook, run by the GM with the
 * combatant as actor (it must succeed). */
static inline void efx_join(efx *f, const char *cid, const json_t *sheet)
{
    json_t *stats = rules_enc_stats(&f->e, cid);
    for (const char *const *k = f->m->sheet_stats; sheet && k && *k; k++)
        if (json_object_get(sheet, *k))
            json_object_set_new(stats, *k, json_deep_copy(json_object_get(sheet, *k)));
    f->e.seat = "gm";
    f->e.is_gm = 1;
    f->e.actor = cid;
    if (f->m->join)
        ck_assert_msg(f->m->join(&f->e, cid, sheet, &f->err) == 0, "join %s: %s", cid, f->err.msg);
}

/* A combatant on side "party" from `sheet` (borrowed; NULL: a sheetless NPC), as enc.add does. */
static inline void efx_add_sheet(efx *f, const char *cid, const char *name, const char *seat,
                                 int npc, const json_t *sheet)
{
    efx_combatant(f, cid, name, "party", seat, npc);
    efx_join(f, cid, sheet);
    f->e.actor = NULL;
}

/* Restores tree `now` to `was` in place (the rules_enc keeps pointing at the same object); a
 * tree the refusal did not change is left alone, so what a test holds of it stays valid. */
static inline void efx__restore(json_t *now, const json_t *was)
{
    if (json_equal(now, was))
        return;
    json_object_clear(now);
    json_object_update(now, (json_t *)was);
}

static inline void efx__truncate(json_t *log, size_t n)
{
    while (json_array_size(log) > n)
        json_array_remove(log, json_array_size(log) - 1);
}

/* Fails the test on an entry of log from index `from` on that no phrasing rendered
 * (encounter.h, "The log": a programming error the production build hides). */
static inline void efx_assert_phrased(const json_t *log, size_t from, const char *what)
{
    for (size_t i = from; i < json_array_size(log); i++) {
        const char *ev = json_string_value(json_object_get(json_array_get(log, i), "unphrased"));
        ck_assert_msg(ev == NULL, "%s: no phrasing renders the event '%s'", what, ev);
    }
}

/*
 * enc.act as the server runs it: action `name` as `seat` ("gm" is the GM) for `actor` (NULL: the
 * current combatant of a turn action, or none) with params (a JSON text, NULL for none), through
 * rules_enc_act. On a refusal /enc, /gm/enc, /private and both logs are put back as they were.
 * Returns 0 or the tb_code; f->err holds the message.
 */
static inline int efx_act(efx *f, const char *seat, const char *actor, const char *name,
                          const char *params)
{
    ck_assert_msg(rules_module_action(f->m, name) != NULL, "no action %s", name);
    json_decref(f->params);
    f->params = json_loads(params ? params : "{}", 0, NULL);
    ck_assert_msg(f->params != NULL, "bad params %s", params);
    json_t *enc0 = json_deep_copy(f->enc), *hid0 = json_deep_copy(f->hidden),
           *priv0 = json_deep_copy(f->priv);
    size_t logs = json_array_size(f->e.log), gm_logs = json_array_size(f->e.gm_log),
           seat_logs = json_array_size(f->e.seat_log);
    f->e.seat = seat;
    f->e.is_gm = strcmp(seat, "gm") == 0;
    memset(&f->err, 0, sizeof f->err);
    /* the property of running an action (encounter.h): the steps before the resolve draw no
     * die and change nothing, and when an action's check passes its resolve does not refuse */
    const rules_enc_action *a = rules_module_action(f->m, name);
    rules_rng *dice = f->e.rng, *none = rules_rng_scripted(NULL, 0);
    f->e.rng = none;
    rules_args pa;
    tb_err perr = {0};
    int checked = rules_enc_act_check(&f->e, a, actor, f->params, &pa, &perr);
    ck_assert_msg(!rules_rng_exhausted(none), "%s: the steps before the resolve drew a die", name);
    ck_assert_msg(json_equal(enc0, f->enc) && json_equal(hid0, f->hidden) &&
                      json_equal(priv0, f->priv) && json_array_size(f->e.log) == logs &&
                      json_array_size(f->e.gm_log) == gm_logs &&
                      json_array_size(f->e.seat_log) == seat_logs,
                  "%s: the steps before the resolve changed the state", name);
    f->e.rng = dice;
    rules_rng_destroy(none);
    int rc = rules_enc_act(&f->e, name, actor, f->params, &f->err);
    ck_assert_msg(!(checked == 0 && a->check && rc != 0),
                  "%s: the check passed, then the resolve refused: %s", name, f->err.msg);
    if (rc) {
        efx__restore(f->enc, enc0);
        efx__restore(f->hidden, hid0);
        efx__restore(f->priv, priv0);
        efx__truncate(f->e.log, logs);
        efx__truncate(f->e.gm_log, gm_logs);
        efx__truncate(f->e.seat_log, seat_logs);
    }
    efx_assert_phrased(f->e.log, logs, name);
    if (getenv("ENC_DEBUG")) {
        char *dump = json_dumps(f->e.log, JSON_INDENT(1));
        fprintf(stderr, "%s %s -> %d %s\n%s\n", name, params ? params : "", rc, f->err.msg, dump);
        free(dump);
    }
    json_decref(enc0);
    json_decref(hid0);
    json_decref(priv0);
    return rc;
}

#define EFX_OK(f, seat, actor, name, params)                                                       \
    do {                                                                                           \
        int rc_ = efx_act(f, seat, actor, name, params);                                           \
        ck_assert_msg(rc_ == 0, "%s: %s", name, (f)->err.msg);                                     \
    } while (0)

/* The action is refused with `code` and a message holding `needle`, no die is drawn (the dice
 * are emptied first: any draw marks the script exhausted) and nothing changes. */
static inline void efx_refused(efx *f, const char *seat, const char *actor, const char *name,
                               const char *params, int code, const char *needle)
{
    json_t *before = json_deep_copy(f->enc);
    efx_dice(f, NULL, 0);
    int rc = efx_act(f, seat, actor, name, params);
    ck_assert_msg(rc == code, "%s should fail with %d, got %d (%s)", name, code, rc, f->err.msg);
    ck_assert_msg(strstr(f->err.msg, needle) != NULL, "message '%s' lacks '%s'", f->err.msg,
                  needle);
    ck_assert_msg(json_equal(before, f->enc), "%s changed the state", name);
    ck_assert_msg(!efx_dice_bad(f), "%s drew a die before refusing", name);
    json_decref(before);
}

/* cid's stat at sub-path "hp/damage" as an int (0 when absent). */
static inline int efx_stat(efx *f, const char *cid, const char *sub)
{
    const json_t *v = rules_enc_stats(&f->e, cid);
    char buf[64];
    snprintf(buf, sizeof buf, "%s", sub);
    for (char *s = buf, *slash; v; s = slash + 1) {
        slash = strchr(s, '/');
        if (slash)
            *slash = 0;
        v = json_object_get(v, s);
        if (!slash)
            break;
    }
    return (int)json_integer_value(v);
}

/* The last entry of log (f->e.log or f->e.gm_log) whose action is `action` (any when NULL), or
 * NULL. */
static inline json_t *efx_last_entry(const json_t *log, const char *action)
{
    for (size_t i = json_array_size(log); i-- > 0;) {
        json_t *x = json_array_get(log, i);
        if (!action || rules_enc_streq(json_string_value(json_object_get(x, "action")), action))
            return x;
    }
    return NULL;
}

/* The text of the last public log entry. */
static inline const char *efx_last_text(efx *f)
{
    return json_string_value(json_object_get(efx_last_entry(f->e.log, NULL), "text"));
}

/* ---- the short names (heimr.combat and the between suites): #define ENC_FIXTURE_SHORT_NAMES
 * before including. The seat of f->e acts (the GM unless a test sets it); each action's dice
 * are given with it and must be used up
 * exactly, a refusal's too (so a refusal rolls nothing). ---- */
#ifdef ENC_FIXTURE_SHORT_NAMES
typedef efx fixture;

static inline void fx_init_module(fixture *f, const char *id, const char *options)
{
    efx_start(f, id, options);
}

static inline void fx_free(fixture *f)
{
    efx_free(f);
}

/* A combatant on side party (a PC) or foes (an NPC) from sh (stolen), as enc.add makes it. */
static inline void fx_add(fixture *f, const char *cid, const char *name, const char *seat, int npc,
                          json_t *sh)
{
    efx_combatant(f, cid, name, npc ? "foes" : "party", seat, npc);
    efx_join(f, cid, sh);
    json_decref(sh);
}

/* Runs action `name` as the seat of f->e (the GM unless the test changed it) for `actor` with
 * params (JSON text) and the scripted faces; returns its code, err holding the message. The
 * script must be used up exactly. */
static inline int fx_act(fixture *f, const char *actor, const char *name, const char *params,
                         const int *faces, size_t n, tb_err *err)
{
    efx_dice(f, faces, n);
    int rc = efx_act(f, f->e.seat, actor, name, params);
    *err = f->err;
    efx_dice_used_all(f, name);
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

/* The text and the result object of the last public log entry of `action` (NULL if none). */
static inline const char *fx_last_text(fixture *f, const char *action)
{
    return json_string_value(json_object_get(efx_last_entry(f->e.log, action), "text"));
}

static inline json_t *fx_last_result(fixture *f, const char *action)
{
    return json_object_get(efx_last_entry(f->e.log, action), "result");
}
#endif /* ENC_FIXTURE_SHORT_NAMES */

#endif
