/*
 * between_build.c — building and crafting in grimwire.between (rulebook 002_c1f3df0ad7b1e31f.txt,
 * cited 002:LINE, 002:336-385): the GM's hidden numbers of a build, the MND and COR rolls, the
 * quality and the instability die, using an unstable object. Each action a check (pure, before
 * any die) and a resolve, in the order of the module's table (between.c). Calls grimwire_enc.h.
 */
#include <stdio.h>
#include <string.h>

#include "between.h"

/* ---- building and crafting (002:336-385) ---- */

/* The GM sets the target numbers of cid's next build (002:344, 002:356: "based on the complexity
 * of the object"); they stay in /gm/enc until the build (002:53: target numbers are the GM's). */
int gw_chk_set_build(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = rules_arg_str(a, "target");
    if (gw_npc(e, cid))
        return rules_enc_rule(err, "%s is not a player's character", gw_nm(e, cid));
    return 0;
}

int gw_act_set_build(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *cid = rules_arg_str(a, "target");
    json_t *tns = json_pack("{s:i}", "cor_tn", rules_arg_int(a, "cor_tn"));
    if (rules_arg_given(a, "mnd_tn"))
        json_object_set_new(tns, "mnd_tn", json_integer(rules_arg_int(a, "mnd_tn")));
    json_object_set_new(rules_enc_hidden_of(e, cid), "build", tns);
    rules_enc_log_gm(e, "set_build", NULL, json_pack("{s:s, s:O}", "target", cid, "tn", tns),
                     "The GM sets the numbers of %s's next build: COR %d%s", gw_nm(e, cid),
                     rules_arg_int(a, "cor_tn"),
                     rules_arg_given(a, "mnd_tn") ? ", and MND for a new kind of object" : "");
    return 0;
}

/* A target number of the build: the GM's parameter, else the one set with set_build; -1 none. */
static int build_tn(const rules_enc *e, const rules_args *a, const char *key)
{
    if (rules_arg_given(a, key))
        return rules_arg_int(a, key);
    json_t *v = json_object_get(json_object_get(gw_hidden_get(e, e->actor), "build"), key);
    return json_is_integer(v) ? (int)json_integer_value(v) : -1;
}

/* The kind of object a build makes: `kind`, else the item's name. */
static const char *build_kind(const rules_args *a)
{
    return rules_arg_str(a, "kind") ? rules_arg_str(a, "kind") : rules_arg_str(a, "item");
}

int gw_chk_craft(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *know = build_kind(a), *name = gw_nm(e, e->actor);
    if (gw_pc_only(e, err))
        return err->code;
    if ((rules_arg_given(a, "mnd_tn") || rules_arg_given(a, "cor_tn")) && !e->is_gm)
        return tb_fail(err, TB_FORBIDDEN, "only the GM sets target numbers");
    int known = gw_list_find(gw_stat_list_get(e, cid, "blueprints"), know) >= 0;
    if (build_tn(e, a, "cor_tn") < 0)
        return rules_enc_rule(err, "the GM has not set the numbers of %s's build yet", name);
    if (!known && build_tn(e, a, "mnd_tn") < 0)
        return rules_enc_rule(err,
                              "%s has never built a %s: the GM sets the MND number for it "
                              "first",
                              name, know);
    if (json_array_size(gw_stat_list_get(e, cid, "items")) >= 100)
        return rules_enc_rule(err, "%s carries 100 objects already", name);
    if (!known && json_array_size(gw_stat_list_get(e, cid, "blueprints")) >= 200)
        return rules_enc_rule(err, "%s knows 200 kinds of object already", name);
    return 0;
}

static const char *quality(int mnd_ok, int cor_ok)
{
    /* 002:364 both: well made; neither: fails; one but not the other: unstable */
    return mnd_ok && cor_ok ? "well made" : !mnd_ok && !cor_ok ? "failed" : "unstable";
}

int gw_act_craft(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *cid = e->actor, *item = rules_arg_str(a, "item"), *know = build_kind(a);
    const char *name = gw_nm(e, cid);
    int mnd_tn = build_tn(e, a, "mnd_tn"), cor_tn = build_tn(e, a, "cor_tn");
    int extended = rules_arg_int(a, "extended"), consumable = rules_arg_int(a, "consumable");
    json_t *blueprints = gw_stat_list(e, cid, "blueprints"), *items = gw_stat_list(e, cid, "items");
    int known = gw_list_find(blueprints, know) >= 0;
    /* the totals and outcomes are the table's; the numbers they met, the GM's */
    rules_enc_entry *x = rules_enc_entry_begin(e, "craft");
    json_t *dice = json_array();
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, "%s builds %s: ", name, item);
    /* 002:344 the MND roll only the first time; a failure still builds, unstable */
    int mnd_ok = 1;
    if (!known) {
        grimwire_roll m = gw_sheet_roll(e, cid, "mnd", mnd_tn, dice);
        mnd_ok = m.success;
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, "MND %d, %s", m.total,
                            mnd_ok ? "understood" : "not understood");
        rules_enc_entry_say(x, RULES_AUD_GM, " (against %d)", mnd_tn);
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, "; ");
        rules_enc_entry_set(x, RULES_AUD_PUBLIC, "mnd_total", json_integer(m.total));
        rules_enc_entry_set(x, RULES_AUD_GM, "mnd_tn", json_integer(mnd_tn));
    } else {
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, "knows how; ");
    }
    /* 002:356 the COR roll; 002:360 a long build: 2 of 3 COR rolls */
    int rolls = extended ? 3 : 1, wins = 0;
    json_t *totals = json_array();
    for (int i = 0; i < rolls; i++) {
        grimwire_roll c = gw_sheet_roll(e, cid, "cor", cor_tn, dice);
        wins += c.success;
        json_array_append_new(totals, json_integer(c.total));
    }
    int cor_ok = extended ? wins >= 2 : wins == 1;
    if (extended)
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, "COR %d, %d, %d: %d of 3 phases go right",
                            (int)json_integer_value(json_array_get(totals, 0)),
                            (int)json_integer_value(json_array_get(totals, 1)),
                            (int)json_integer_value(json_array_get(totals, 2)), wins);
    else
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, "COR %d, %s",
                            (int)json_integer_value(json_array_get(totals, 0)),
                            cor_ok ? "assembled" : "badly assembled");
    rules_enc_entry_say(x, RULES_AUD_GM, " (against %d)", cor_tn);
    const char *q = quality(mnd_ok, cor_ok);
    int unstable = strcmp(q, "unstable") == 0, die = consumable ? 10 : 20; /* 002:368, 002:375 */
    rules_enc_entry_say(
        x, RULES_AUD_PUBLIC, " — %s%s", strcmp(q, "failed") == 0 ? "it does not come together" : q,
        unstable ? (consumable ? " (instability die d10)" : " (instability die d20)") : "");
    rules_enc_entry_dice(x, RULES_AUD_PUBLIC, dice);
    json_decref(dice);
    rules_enc_entry_merge(x, RULES_AUD_PUBLIC,
                          json_pack("{s:s, s:s, s:b, s:b, s:s, s:i, s:o}", "who", cid, "item", item,
                                    "mnd_ok", mnd_ok, "cor_ok", cor_ok, "quality", q,
                                    "unstable_die", unstable ? die : 0, "cor_totals", totals));
    rules_enc_entry_set(x, RULES_AUD_GM, "cor_tn", json_integer(cor_tn));
    rules_enc_entry_end(x);
    if (!known && mnd_ok)
        json_array_append_new(blueprints, json_string(know));
    if (strcmp(q, "failed") != 0) {
        json_t *o = json_pack("{s:s}", "name", item);
        if (unstable)
            json_object_set_new(o, "unstable_die", json_integer(die));
        if (consumable)
            json_object_set_new(o, "consumable", json_true());
        json_array_append_new(items, o);
    }
    /* the numbers were for this build */
    json_object_del(rules_enc_hidden_of(e, cid), "build");
    return 0;
}

/* The first of cid's objects named `item` (its index through *at), or NULL. */
static json_t *item_of(const rules_enc *e, const char *cid, const char *item, size_t *at)
{
    json_t *it;
    size_t i;
    json_array_foreach(gw_stat_list_get(e, cid, "items"), i, it)
    {
        if (rules_enc_streq(json_string_value(json_object_get(it, "name")), item)) {
            *at = i;
            return it;
        }
    }
    return NULL;
}

/* Uses an unstable object: its instability die (002:366-379). */
int gw_chk_use(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *item = rules_arg_str(a, "item");
    size_t at;
    if (gw_pc_only(e, err))
        return err->code;
    json_t *o = item_of(e, e->actor, item, &at);
    if (!o)
        return rules_enc_rule(err, "%s has no %s", gw_nm(e, e->actor), item);
    if (json_is_true(json_object_get(o, "broken")))
        return rules_enc_rule(err, "%s is broken: it needs repairing first", item);
    return 0;
}

int gw_act_use(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *cid = e->actor, *item = rules_arg_str(a, "item");
    json_t *items = gw_stat_list(e, cid, "items");
    size_t at = 0;
    json_t *o = item_of(e, cid, item, &at);
    int die = (int)json_integer_value(json_object_get(o, "unstable_die"));
    int consumable = json_is_true(json_object_get(o, "consumable"));
    if (die <= 0) {
        if (consumable)
            json_array_remove(items, at);
        rules_enc_log(e, "use", NULL, NULL, "%s uses %s: it works", gw_nm(e, cid), item);
        return 0;
    }
    int v = rules_rng_die(e->rng, die);
    json_t *dice = json_array();
    rules_result_die(dice, die, v, 1);
    const char *what;
    if (consumable) {
        /* 002:376 2 or 3: doesn't work, can't be reused; 002:377 1: harmful, the GM says how */
        what = v == 1   ? "it goes wrong: something harmful happens (the GM says what)"
               : v <= 3 ? "it does not work and is wasted"
                        : "it works";
        json_array_remove(items, at); /* used up either way */
    } else if (v == 1) {
        what = "it breaks for good and may hurt someone nearby"; /* 002:371 */
        json_array_remove(items, at);
    } else if (v == 2) {
        what = "it breaks, but can be repaired"; /* 002:370 */
        json_object_set_new(o, "broken", json_true());
    } else {
        what = v == 3 ? "it does not work this time" : "it works"; /* 002:369 */
    }
    rules_enc_log(e, "use", dice, json_pack("{s:s, s:s, s:i}", "who", cid, "item", item, "roll", v),
                  "%s uses %s (instability d%d: %d): %s", gw_nm(e, cid), item, die, v, what);
    return 0;
}
