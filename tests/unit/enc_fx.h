/*
 * enc_fx.h — a test fixture for one encounter module driven directly, as server/ops_enc.c drives
 * it: the module started on empty /enc and /gm/enc, combatants added from sample sheets
 * (sheet_stats copied, then the join hook), actions run with the who-check, the parameters parsed
 * and the state restored when the action fails (the server discards its working copy), and the
 * dice scripted. Header only (static inline), like rules_util.h, which it needs.
 */
#ifndef TB_TESTS_UNIT_ENC_FX_H
#define TB_TESTS_UNIT_ENC_FX_H

#include <check.h>
#include <string.h>

#include "encounter.h"
#include "rules_util.h"

typedef struct efx {
    rules_enc e;
    json_t *enc, *hidden;
    rules_rng *rng;
    const rules_module *m;
    tb_err err;
} efx;

/* Starts module `id` with no options. Free with efx_free. */
static inline void efx_init(efx *f, const char *id)
{
    memset(f, 0, sizeof *f);
    f->m = rules_module_find(id);
    ck_assert_msg(f->m != NULL, "no module %s", id);
    f->enc = json_pack("{s:s, s:i, s:i, s:[], s:{}, s:{}}", "module", id, "round", 0, "turn", -1,
                       "order", "combatants", "options");
    f->hidden = json_pack("{s:{}}", "combatants");
    f->e = (rules_enc){.mod = f->m,
                       .enc = f->enc,
                       .hidden = f->hidden,
                       .seat = "gm",
                       .is_gm = 1,
                       .log = json_array(),
                       .gm_log = json_array()};
    if (f->m->start)
        ck_assert_int_eq(f->m->start(&f->e, NULL, &f->err), 0);
}

static inline void efx_free(efx *f)
{
    json_decref(f->enc);
    json_decref(f->hidden);
    json_decref(f->e.log);
    json_decref(f->e.gm_log);
    rules_rng_destroy(f->rng);
}

/* Adds a PC (npc 0) from `sheet` (borrowed; NULL: a sheetless NPC) as enc.add does. */
static inline void efx_add_sheet(efx *f, const char *cid, const char *name, const char *seat,
                                 int npc, const json_t *sheet)
{
    json_object_set_new(json_object_get(f->enc, "combatants"), cid,
                        json_pack("{s:s, s:s, s:s, s:s, s:b, s:[]}", "id", cid, "name", name,
                                  "side", "party", "seat", seat, "npc", npc, "conditions"));
    json_t *stats = rules_enc_stats(&f->e, cid);
    for (const char *const *k = f->m->sheet_stats; sheet && k && *k; k++)
        if (json_object_get(sheet, *k))
            json_object_set_new(stats, *k, json_deep_copy(json_object_get(sheet, *k)));
    f->e.actor = cid;
    if (f->m->join)
        ck_assert_int_eq(f->m->join(&f->e, cid, sheet, &f->err), 0);
    f->e.actor = NULL;
}

/* Replaces the dice with a script (faces in the order they are asked for). */
static inline void efx_dice(efx *f, const int *faces, size_t n)
{
    rules_rng_destroy(f->rng);
    f->rng = rules_rng_scripted(faces, n);
    f->e.rng = f->rng;
}

/* Whether the script ran out or met a face it could not show. */
static inline int efx_dice_bad(efx *f)
{
    return rules_rng_exhausted(f->rng);
}

/* Runs action `name` as `seat` for `actor` with JSON params; returns the code (f->err). */
static inline int efx_act(efx *f, const char *seat, const char *actor, const char *name,
                          const char *params)
{
    json_t *enc0 = json_deep_copy(f->enc), *hid0 = json_deep_copy(f->hidden);
    const rules_enc_action *a = rules_module_action(f->m, name);
    ck_assert_msg(a != NULL, "no action %s", name);
    f->e.seat = seat;
    f->e.is_gm = strcmp(seat, "gm") == 0;
    memset(&f->err, 0, sizeof f->err);
    int rc = 0;
    if (a->who == RULES_ENC_GM && !f->e.is_gm)
        rc = tb_fail(&f->err, TB_FORBIDDEN, "only the GM");
    if (!rc && (a->who == RULES_ENC_TURN || a->who == RULES_ENC_OWNER) &&
        !rules_enc_controls(&f->e, actor))
        rc = tb_fail(&f->err, TB_FORBIDDEN, "%s is not your character",
                     rules_enc_name(&f->e, actor));
    f->e.actor = actor;
    rules_args pa;
    json_t *p = json_loads(params ? params : "{}", 0, NULL);
    ck_assert_msg(p != NULL, "bad params %s", params);
    if (!rc)
        rc = rules_args_parse(name, a->params, p, &pa, &f->err);
    const char *t = NULL;
    for (const rules_param *q = a->params; !rc && q && q->name; q++)
        if (strcmp(q->name, "target") == 0)
            t = rules_arg_str(&pa, "target");
    if (!rc && t && !rules_enc_combatant(&f->e, t))
        rc = tb_fail(&f->err, TB_NOT_FOUND, "no combatant %s", t);
    if (!rc)
        rc = a->resolve(&f->e, &pa, &f->err);
    json_decref(p);
    if (rc) {
        json_object_clear(f->enc);
        json_object_update(f->enc, enc0);
        json_object_clear(f->hidden);
        json_object_update(f->hidden, hid0);
    }
    json_decref(enc0);
    json_decref(hid0);
    return rc;
}

#define EFX_OK(f, seat, actor, name, params)                                                       \
    do {                                                                                           \
        int rc_ = efx_act(f, seat, actor, name, params);                                           \
        ck_assert_msg(rc_ == 0, "%s: %s", name, (f)->err.msg);                                     \
    } while (0)

/* The action is refused with `code` and a message holding `needle`, nothing changes and no die
 * is drawn (the scripted rng is left empty by the caller: any draw would mark it exhausted). */
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

/* The text of the last public log entry. */
static inline const char *efx_last_text(efx *f)
{
    json_t *l = json_array_get(f->e.log, json_array_size(f->e.log) - 1);
    return json_string_value(json_object_get(l, "text"));
}

#endif
