/*
 * between_skills.c — what a character learns and makes in grimwire.between (rulebook
 * 002_c1f3df0ad7b1e31f.txt, cited 002:LINE, 002:300-385): studying techniques with learning hours
 * and exchanging them on a long rest; the GM's hidden numbers of a build, the MND and COR rolls,
 * the quality and the instability die, using an unstable object. Each action a check (pure,
 * before any die) and a resolve, in the order of the module's table (between.c). Calls
 * grimwire_enc.h.
 */
#include <stdio.h>
#include <string.h>

#include "between.h"

/* ---- techniques (002:300-316) ---- */

/* A study session (002:306-316): each hour adds the multiplier attribute to the technique's
 * effort; hours beyond what the effort needs are not spent (002:310-314). */
typedef struct study {
    int entry;        /* index in `learning`, -1 for a new technique */
    const char *mult; /* the multiplier attribute */
    int effort, points, av, have, hours;
} study;

static int study_of(const rules_enc *e, const rules_args *a, study *s, tb_err *err)
{
    const char *cid = e->actor, *tech = rules_arg_str(a, "technique");
    const char *attr = rules_arg_str(a, "attribute");
    if (gw_list_find(gw_stat_list_get(e, cid, "learned"), tech) >= 0 ||
        gw_list_find(gw_stat_list_get(e, cid, "techniques"), tech) >= 0)
        return rules_enc_rule(err, "%s already knows %s", gw_nm(e, cid), tech);
    json_t *learning = gw_stat_list_get(e, cid, "learning"), *it, *entry = NULL;
    size_t i;
    s->entry = -1;
    json_array_foreach(learning, i, it)
    {
        if (rules_enc_streq(json_string_value(json_object_get(it, "name")), tech)) {
            entry = it;
            s->entry = (int)i;
        }
    }
    if (!entry && (!attr || !gw_in_list(attr, GW_ATTRS) || !rules_arg_given(a, "effort")))
        return tb_fail(err, TB_BAD_REQUEST,
                       "a new technique needs its 'attribute' (tog, agl, cor, mnd, per, rsn) and "
                       "'effort'");
    if (!entry && json_array_size(learning) >= 50)
        return rules_enc_rule(err, "%s is learning 50 techniques already", gw_nm(e, cid));
    s->mult = entry ? json_string_value(json_object_get(entry, "attribute")) : attr;
    s->effort = entry ? (int)json_integer_value(json_object_get(entry, "effort"))
                      : rules_arg_int(a, "effort");
    s->points = entry ? (int)json_integer_value(json_object_get(entry, "points")) : 0;
    s->av = gw_sub_int(e, cid, "attributes", s->mult);
    int need = grimwire_learning_hours(s->effort - s->points, s->av);
    if (need < 0)
        return rules_enc_rule(err, "%s has no points in %s to put toward %s", gw_nm(e, cid),
                              s->mult, tech);
    s->have = gw_stat_int(e, cid, "learning_hours", 0);
    s->hours = rules_arg_given(a, "hours") ? rules_arg_int(a, "hours") : need;
    if (s->hours > need)
        s->hours = need;
    if (s->hours > s->have)
        return rules_enc_rule(err, "%s has %d learning hour%s left; %d needed", gw_nm(e, cid),
                              s->have, s->have == 1 ? "" : "s", s->hours);
    return 0;
}

int gw_chk_learn(const rules_enc *e, const rules_args *a, tb_err *err)
{
    study s;
    if (gw_able(e, err) || study_of(e, a, &s, err))
        return err->code;
    return 0;
}

int gw_act_learn(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *tech = rules_arg_str(a, "technique");
    study s;
    study_of(e, a, &s, err);
    json_t *mult = json_string(s.mult); /* s.mult is borrowed from an entry that may go */
    json_t *learned = gw_stat_list(e, cid, "learned");
    gw_stat_list(e, cid, "techniques");
    json_t *learning = gw_stat_list(e, cid, "learning");
    int points = s.points + s.hours * s.av, done = points >= s.effort;
    rules_enc_stat_set(e, cid, "learning_hours", s.have - s.hours);
    if (done) {
        if (s.entry >= 0)
            json_array_remove(learning, (size_t)s.entry);
        json_array_append_new(learned, json_string(tech));
    } else if (s.entry >= 0) {
        json_object_set_new(json_array_get(learning, (size_t)s.entry), "points",
                            json_integer(points));
    } else {
        json_array_append_new(learning, json_pack("{s:s, s:s, s:i, s:i}", "name", tech, "attribute",
                                                  json_string_value(mult), "effort", s.effort,
                                                  "points", points));
    }
    rules_log *x = rules_log_begin(e, "learn", "learn");
    rules_log_json(x, "who", json_string(cid), RULES_AUD_PUBLIC);
    rules_log_json(x, "technique", json_string(tech), RULES_AUD_PUBLIC);
    rules_log_int(x, "hours", s.hours, RULES_AUD_PUBLIC);
    rules_log_int(x, "points", done ? s.effort : points, RULES_AUD_PUBLIC);
    rules_log_int(x, "effort", s.effort, RULES_AUD_PUBLIC);
    rules_log_json(x, "learned", json_boolean(done), RULES_AUD_PUBLIC);
    rules_log_who(x, "pc", cid);
    rules_log_name(x, "tname", tech, RULES_AUD_PUBLIC);
    rules_log_name(x, "mult", json_string_value(mult), RULES_AUD_PUBLIC);
    json_decref(mult);
    rules_log_count(x, "per_hour", s.av, RULES_AUD_PUBLIC);
    rules_log_count(x, "left", s.have - s.hours, RULES_AUD_PUBLIC);
    rules_log_word(x, "hrs", s.hours == 1 ? "w.hour" : "w.hours", RULES_AUD_PUBLIC);
    rules_log_word(x, "left_hrs", s.have - s.hours == 1 ? "w.hour" : "w.hours", RULES_AUD_PUBLIC);
    rules_log_word(x, "done", done ? "learn.done" : "learn.still", RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/* Exchanges an active technique for a learned one during today's long rest (002:304); with no
 * `drop`, adds one while the slots allow (002:302). */
int gw_chk_exchange(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *take = rules_arg_str(a, "take"), *drop = rules_arg_str(a, "drop");
    if (gw_able(e, err))
        return err->code;
    if (!gw_comb_true(e, cid, "long_rest"))
        return rules_enc_rule(err,
                              "techniques are exchanged during a rest of 5 hours or longer: "
                              "%s takes a long rest first",
                              gw_nm(e, cid));
    json_t *active = gw_stat_list_get(e, cid, "techniques");
    if (gw_list_find(gw_stat_list_get(e, cid, "learned"), take) < 0)
        return rules_enc_rule(err, "%s has not learned %s", gw_nm(e, cid), take);
    if (drop && gw_list_find(active, drop) < 0)
        return rules_enc_rule(err, "%s is not one of %s's active techniques", drop, gw_nm(e, cid));
    int slots = grimwire_technique_slots(gw_sub_int(e, cid, "focus", "max"));
    if (!drop && (int)json_array_size(active) >= slots)
        return rules_enc_rule(err,
                              "%s has %d active techniques, all that half the max Focus "
                              "allows: name one to drop",
                              gw_nm(e, cid), slots);
    return 0;
}

int gw_act_exchange(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *cid = e->actor, *take = rules_arg_str(a, "take"), *drop = rules_arg_str(a, "drop");
    json_t *learned = gw_stat_list(e, cid, "learned"), *active = gw_stat_list(e, cid, "techniques");
    int ti = gw_list_find(learned, take), di = drop ? gw_list_find(active, drop) : -1;
    json_array_remove(learned, (size_t)ti);
    if (drop) {
        json_array_append_new(learned, json_string(drop));
        json_array_set_new(active, (size_t)di, json_string(take));
    } else {
        json_array_append_new(active, json_string(take));
    }
    rules_log *x = rules_log_begin(e, "exchange", "exchange");
    gw_log_res(x, json_pack("{s:s, s:s, s:s?}", "who", cid, "take", take, "drop", drop),
               RULES_AUD_PUBLIC);
    rules_log_who(x, "pc", cid);
    rules_log_name(x, "tname", take, RULES_AUD_PUBLIC);
    if (drop) {
        rules_log_name(x, "dname", drop, RULES_AUD_PUBLIC);
        rules_log_word(x, "instead", "exchange.instead", RULES_AUD_PUBLIC);
    }
    rules_log_end(x);
    return 0;
}

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
    if (rules_arg_given(a, "rsn_tn"))
        json_object_set_new(tns, "rsn_tn", json_integer(rules_arg_int(a, "rsn_tn")));
    json_object_set_new(rules_enc_hidden_of(e, cid), "build", tns);
    rules_log *x = rules_log_begin(e, "set_build", "set_build");
    rules_log_json(x, "target", json_string(cid), RULES_AUD_GM);
    rules_log_json(x, "tn", json_deep_copy(tns), RULES_AUD_GM);
    rules_log_who(x, "pc", cid);
    rules_log_count(x, "cor", rules_arg_int(a, "cor_tn"), RULES_AUD_GM);
    if (rules_arg_given(a, "mnd_tn"))
        rules_log_word(x, "mnd", "build.mnd_too", RULES_AUD_GM);
    rules_log_end(x);
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

/* Which of cid's objects item_of finds. */
enum { ITEM_ANY, ITEM_BROKEN, ITEM_WHOLE };

/* The first of cid's objects named `item` (of `which`), its index through *at; NULL if none. */
static json_t *item_of(const rules_enc *e, const char *cid, const char *item, int which, size_t *at)
{
    json_t *it;
    size_t i;
    json_array_foreach(gw_stat_list_get(e, cid, "items"), i, it)
    {
        int broken = json_is_true(json_object_get(it, "broken"));
        if (rules_enc_streq(json_string_value(json_object_get(it, "name")), item) &&
            (which == ITEM_ANY || broken == (which == ITEM_BROKEN))) {
            *at = i;
            return it;
        }
    }
    return NULL;
}

/* The numbers of the GM's a build still lacks (of enum need): COR always, MND for a kind new to
 * the builder (002:344), RSN for a supernatural object (002:340). */
enum { NEED_MND = 1, NEED_COR = 2, NEED_RSN = 4 };
static const char *const NEED_KEYS[] = {"mnd_tn", "cor_tn", "rsn_tn"};

static int build_needs(const rules_enc *e, const rules_args *a, const char *know, int supernatural)
{
    int known = gw_list_find(gw_stat_list_get(e, e->actor, "blueprints"), know) >= 0;
    return (!known && build_tn(e, a, "mnd_tn") < 0 ? NEED_MND : 0) |
           (build_tn(e, a, "cor_tn") < 0 ? NEED_COR : 0) |
           (supernatural && build_tn(e, a, "rsn_tn") < 0 ? NEED_RSN : 0);
}

/* The builder whose build waits for the GM's numbers (/gm/enc/waiting), or NULL (also when the
 * builder has left the scene: the wait is void, the next one replaces it). */
static const char *build_waiting(const rules_enc *e)
{
    const char *cid =
        json_string_value(json_object_get(json_object_get(e->hidden, "waiting"), "builder"));
    return cid && rules_enc_combatant(e, cid) ? cid : NULL;
}

/* What a build or a repair of `kind` needs before any die (`resumed`: the GM's answer gives the
 * numbers, gw_act_answer_build): an able builder, no number named by a player, and the GM's
 * numbers. A player's build the GM's numbers are missing for is not refused: it waits for them
 * (build_wait), one build at a time. 0 or the refusal. */
static int build_ready(const rules_enc *e, const rules_args *a, const char *know, int supernatural,
                       int resumed, tb_err *err)
{
    const char *cid = e->actor, *name = gw_nm(e, cid);
    if (gw_able(e, err))
        return err->code;
    if ((rules_arg_given(a, "mnd_tn") || rules_arg_given(a, "cor_tn") ||
         rules_arg_given(a, "rsn_tn")) &&
        !e->is_gm)
        return tb_fail(err, TB_FORBIDDEN, "only the GM sets target numbers");
    if (resumed)
        return 0;
    const char *w = build_waiting(e);
    if (w && rules_enc_streq(w, cid))
        return rules_enc_rule(err, "%s's build already waits for the GM's numbers", name);
    int needs = build_needs(e, a, know, supernatural);
    if (needs && !e->is_gm)
        return w ? rules_enc_rule(err, "%s's build waits for the GM's numbers first", gw_nm(e, w))
                 : 0;
    if (needs & NEED_COR)
        return rules_enc_rule(err, "the GM has not set the numbers of %s's build yet", name);
    if (needs & NEED_MND)
        return rules_enc_rule(err,
                              "%s has never built a %s: the GM sets the MND number for it "
                              "first",
                              name, know);
    if (needs & NEED_RSN)
        return rules_enc_rule(err, "a supernatural object needs a RSN roll: the GM sets its number "
                                   "first");
    return 0;
}

/* The words of the numbers a waiting build needs (build.need.<bits>). */
static const char *const NEED_WORDS[] = {
    NULL,           "build.need.1", "build.need.2", "build.need.3",
    "build.need.4", "build.need.5", "build.need.6", "build.need.7",
};

/*
 * A player's build or repair the GM has not given the numbers for (issue 24 item 2): checked like
 * any build, no die rolled; it waits in /gm/enc/waiting {builder, action, params, needs} (the
 * GM's question: the numbers it needs) and /enc/waiting {builder, action, item} (the table sees
 * it wait, never a number) until the GM's `answer` rolls it. 1 when it waits.
 */
static int build_wait(rules_enc *e, const char *action, const rules_args *a, const char *item,
                      const char *know, int supernatural)
{
    int needs = build_needs(e, a, know, supernatural);
    if (!needs || e->is_gm)
        return 0;
    const char *cid = e->actor;
    json_t *keys = json_array();
    for (int k = 0; k < 3; k++)
        if (needs & (1 << k))
            json_array_append_new(keys, json_string(NEED_KEYS[k]));
    json_object_set_new(e->hidden, "waiting",
                        json_pack("{s:s, s:s, s:o, s:o}", "builder", cid, "action", action,
                                  "params", rules_args_json(a), "needs", keys));
    json_object_set_new(
        e->enc, "waiting",
        json_pack("{s:s, s:s, s:s}", "builder", cid, "action", action, "item", item));
    rules_log *x = rules_log_begin(e, action, "build_waits");
    rules_log_who(x, "pc", cid);
    rules_log_name(x, "iname", item, RULES_AUD_PUBLIC);
    rules_log_end(x);
    x = rules_log_begin(e, action, "build_asks");
    rules_log_who(x, "pc", cid);
    rules_log_name(x, "iname", item, RULES_AUD_PUBLIC);
    rules_log_word(x, "needs", NEED_WORDS[needs], RULES_AUD_GM);
    rules_log_end(x);
    return 1;
}

/* The rolls of a build or a repair (checked with build_ready), logged in x: MND only for a kind
 * new to the builder (002:344), COR to assemble (002:356; a long build 2 of 3, 002:360), RSN for
 * a supernatural object (002:340). The quality (002:364, RULES.md reading 12 for the RSN roll):
 * every roll passed: "well made"; every roll failed: "failed"; else "unstable". */
static const char *build_rolls(rules_enc *e, const rules_args *a, const char *know,
                               int supernatural, rules_log *x, json_t *res)
{
    const char *cid = e->actor;
    int mnd_tn = build_tn(e, a, "mnd_tn"), cor_tn = build_tn(e, a, "cor_tn");
    int extended = rules_arg_int(a, "extended");
    int known = gw_list_find(gw_stat_list_get(e, cid, "blueprints"), know) >= 0;
    json_t *dice = json_array();
    /* 002:344 the MND roll only the first time; a failure still builds, unstable */
    int mnd_ok = 1;
    if (!known) {
        grimwire_roll m = gw_sheet_roll(e, cid, "mnd", mnd_tn, dice);
        mnd_ok = m.success;
        rules_log_int(x, "mnd_total", m.total, RULES_AUD_PUBLIC);
        rules_log_int(x, "mnd_tn", mnd_tn, RULES_AUD_GM);
        rules_log_word(x, "understood", mnd_ok ? "build.understood" : "build.not_understood",
                       RULES_AUD_PUBLIC);
        rules_log_word(x, "mnd_against", "build.against_mnd", RULES_AUD_GM);
        rules_log_word(x, "mnd", "build.mnd", RULES_AUD_PUBLIC);
    } else {
        rules_log_word(x, "mnd", "build.knows", RULES_AUD_PUBLIC);
    }
    /* 002:356 the COR roll; 002:360 a long build: 2 of 3 COR rolls */
    static const char *const COR_KEYS[] = {"c1", "c2", "c3"};
    int rolls = extended ? 3 : 1, wins = 0;
    json_t *totals = json_array();
    for (int i = 0; i < rolls; i++) {
        grimwire_roll c = gw_sheet_roll(e, cid, "cor", cor_tn, dice);
        wins += c.success;
        json_array_append_new(totals, json_integer(c.total));
        rules_log_count(x, COR_KEYS[i], c.total, RULES_AUD_PUBLIC);
    }
    int cor_ok = extended ? wins >= 2 : wins == 1;
    if (extended)
        rules_log_count(x, "wins", wins, RULES_AUD_PUBLIC);
    else
        rules_log_word(x, "assembled", cor_ok ? "build.assembled" : "build.badly",
                       RULES_AUD_PUBLIC);
    rules_log_word(x, "cor", extended ? "build.cor3" : "build.cor1", RULES_AUD_PUBLIC);
    rules_log_word(x, "cor_against", "build.against_cor", RULES_AUD_GM);
    rules_log_int(x, "cor_tn", cor_tn, RULES_AUD_GM);
    /* 002:340 "of a supernatural nature or using magic ... requires a RSN roll" */
    int rsn_ok = 1;
    if (supernatural) {
        int rsn_tn = build_tn(e, a, "rsn_tn");
        grimwire_roll r = gw_sheet_roll(e, cid, "rsn", rsn_tn, dice);
        rsn_ok = r.success;
        rules_log_int(x, "rsn_total", r.total, RULES_AUD_PUBLIC);
        rules_log_int(x, "rsn_tn", rsn_tn, RULES_AUD_GM);
        rules_log_word(x, "rsn_how", rsn_ok ? "build.rsn_holds" : "build.rsn_fails",
                       RULES_AUD_PUBLIC);
        rules_log_word(x, "rsn_against", "build.against_rsn", RULES_AUD_GM);
        rules_log_word(x, "rsn", "build.rsn", RULES_AUD_PUBLIC);
        json_object_set_new(res, "rsn_ok", json_boolean(rsn_ok));
    }
    rules_log_dice(x, dice, RULES_AUD_PUBLIC);
    json_decref(dice);
    json_object_set_new(res, "mnd_ok", json_boolean(mnd_ok));
    json_object_set_new(res, "cor_ok", json_boolean(cor_ok));
    json_object_set_new(res, "cor_totals", totals);
    if (!known && mnd_ok)
        json_array_append_new(gw_stat_list(e, cid, "blueprints"), json_string(know));
    /* the numbers were for this build */
    json_object_del(rules_enc_hidden_of(e, cid), "build");
    int passed = mnd_ok + cor_ok + (supernatural ? rsn_ok : 0), all = 2 + (supernatural != 0);
    return passed == all ? "well made" : passed == 0 ? "failed" : "unstable";
}

static int craft_check(const rules_enc *e, const rules_args *a, int resumed, tb_err *err)
{
    const char *cid = e->actor, *know = build_kind(a), *name = gw_nm(e, e->actor);
    if (build_ready(e, a, know, rules_arg_int(a, "supernatural"), resumed, err))
        return err->code;
    int known = gw_list_find(gw_stat_list_get(e, cid, "blueprints"), know) >= 0;
    if (json_array_size(gw_stat_list_get(e, cid, "items")) >= 100)
        return rules_enc_rule(err, "%s carries 100 objects already", name);
    if (!known && json_array_size(gw_stat_list_get(e, cid, "blueprints")) >= 200)
        return rules_enc_rule(err, "%s knows 200 kinds of object already", name);
    return 0;
}

int gw_chk_craft(const rules_enc *e, const rules_args *a, tb_err *err)
{
    return craft_check(e, a, 0, err);
}

int gw_act_craft(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *cid = e->actor, *item = rules_arg_str(a, "item"), *know = build_kind(a);
    int consumable = rules_arg_int(a, "consumable"),
        supernatural = rules_arg_int(a, "supernatural");
    if (build_wait(e, "craft", a, item, know, supernatural))
        return 0;
    /* the totals and outcomes are the table's; the numbers they met, the GM's */
    rules_log *x = rules_log_begin(e, "craft", "craft");
    rules_log_who(x, "pc", cid);
    rules_log_name(x, "iname", item, RULES_AUD_PUBLIC);
    json_t *res = json_pack("{s:s, s:s}", "who", cid, "item", item);
    const char *q = build_rolls(e, a, know, supernatural, x, res);
    int failed = strcmp(q, "failed") == 0, unstable = strcmp(q, "unstable") == 0;
    int die = consumable ? 10 : 20; /* 002:368, 002:375 */
    rules_log_word(x, "made",
                   failed     ? "build.failed"
                   : unstable ? "build.unstable"
                              : "build.well_made",
                   RULES_AUD_PUBLIC);
    if (unstable)
        rules_log_word(x, "die", consumable ? "build.d10" : "build.d20", RULES_AUD_PUBLIC);
    json_object_set_new(res, "quality", json_string(q));
    json_object_set_new(res, "unstable_die", json_integer(unstable ? die : 0));
    gw_log_res(x, res, RULES_AUD_PUBLIC);
    rules_log_end(x);
    if (!failed) {
        json_t *o = json_pack("{s:s}", "name", item);
        if (unstable)
            json_object_set_new(o, "unstable_die", json_integer(die));
        if (consumable)
            json_object_set_new(o, "consumable", json_true());
        if (strcmp(know, item) != 0)
            json_object_set_new(o, "kind", json_string(know));
        if (supernatural)
            json_object_set_new(o, "supernatural", json_true());
        json_array_append_new(gw_stat_list(e, cid, "items"), o);
    }
    return 0;
}

/* The kind of object `o` is (its `kind`, else its name) and whether it is supernatural. */
static const char *item_kind(const json_t *o)
{
    const char *k = json_string_value(json_object_get(o, "kind"));
    return k ? k : json_string_value(json_object_get(o, "name"));
}

/* 002:385 "Repairing ... follows the same rules for building and crafting, but with a lower
 * target number" (the GM's numbers, set_build); the broken object itself is mended, and 002:381
 * "Unstable objects are still unstable even after being repaired" (issue 25 item 9). */
static int repair_check(const rules_enc *e, const rules_args *a, int resumed, tb_err *err)
{
    const char *item = rules_arg_str(a, "item");
    size_t at;
    if (gw_able(e, err))
        return err->code;
    const json_t *o = item_of(e, e->actor, item, ITEM_BROKEN, &at);
    if (!o)
        return item_of(e, e->actor, item, ITEM_ANY, &at)
                   ? rules_enc_rule(err, "%s is not broken", item)
                   : rules_enc_rule(err, "%s has no %s", gw_nm(e, e->actor), item);
    return build_ready(e, a, item_kind(o), json_is_true(json_object_get(o, "supernatural")),
                       resumed, err);
}

int gw_chk_repair(const rules_enc *e, const rules_args *a, tb_err *err)
{
    return repair_check(e, a, 0, err);
}

int gw_act_repair(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *cid = e->actor, *item = rules_arg_str(a, "item");
    size_t at = 0;
    json_t *o = item_of(e, cid, item, ITEM_BROKEN, &at);
    char know[104];
    snprintf(know, sizeof know, "%s", item_kind(o));
    int supernatural = json_is_true(json_object_get(o, "supernatural"));
    if (build_wait(e, "repair", a, item, know, supernatural))
        return 0;
    rules_log *x = rules_log_begin(e, "repair", "repair");
    rules_log_who(x, "pc", cid);
    rules_log_name(x, "iname", item, RULES_AUD_PUBLIC);
    json_t *res = json_pack("{s:s, s:s}", "who", cid, "item", item);
    const char *q = build_rolls(e, a, know, supernatural, x, res);
    o = json_array_get(gw_stat_list(e, cid, "items"), at); /* the list may have been copied */
    const char *how = "repair.still_broken";
    if (strcmp(q, "failed") != 0) {
        json_object_del(o, "broken");
        int die = (int)json_integer_value(json_object_get(o, "unstable_die"));
        /* a repair that goes half right leaves it working but unstable (reading 12); an unstable
         * object stays as unstable as it was (002:381) */
        if (strcmp(q, "unstable") == 0 && die <= 0)
            json_object_set_new(o, "unstable_die", json_integer(20));
        how = json_integer_value(json_object_get(o, "unstable_die")) > 0 ? "repair.unstable"
                                                                         : "repair.mended";
        rules_log_count(x, "sides", (int)json_integer_value(json_object_get(o, "unstable_die")),
                        RULES_AUD_PUBLIC);
    }
    rules_log_word(x, "made", how, RULES_AUD_PUBLIC);
    json_object_set_new(res, "quality", json_string(q));
    json_object_set_new(res, "broken", json_boolean(strcmp(q, "failed") == 0));
    gw_log_res(x, res, RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/* ---- answer: the GM's numbers for the build that waits for them (issue 24 item 2) ---- */

/* The waiting build's action and arguments (borrowed from /gm/enc/waiting) and its builder, and
 * the build checked again as its builder's with the GM's numbers to come: 0 or the refusal. */
static int waiting_build(const rules_enc *e, const rules_enc_action **act, rules_args *aa,
                         tb_err *err)
{
    json_t *wait = json_object_get(e->hidden, "waiting");
    const char *cid = build_waiting(e);
    if (!cid)
        return rules_enc_rule(err, "no build waits for the GM's numbers");
    *act = rules_module_action(e->mod, json_string_value(json_object_get(wait, "action")));
    if (!*act || !rules_enc_combatant(e, cid))
        return rules_enc_rule(err, "the waiting build's builder has left the scene");
    if (rules_args_parse("the waiting build", (*act)->params, json_object_get(wait, "params"), aa,
                         err))
        return err->code;
    rules_enc as = *e; /* read only: the builder's check, as when the player asked */
    as.actor = cid;
    return strcmp((*act)->name, "repair") == 0 ? repair_check(&as, aa, 1, err)
                                               : craft_check(&as, aa, 1, err);
}

int gw_chk_answer_build(const rules_enc *e, const rules_args *a, tb_err *err)
{
    if (!build_waiting(e))
        return rules_enc_rule(err, "no build waits for the GM's numbers");
    static const char *const SAID[] = {"MND", "COR", "RSN"};
    json_t *needs = json_object_get(json_object_get(e->hidden, "waiting"), "needs");
    for (int k = 0; k < 3; k++)
        if (gw_list_find(needs, NEED_KEYS[k]) >= 0 && !rules_arg_given(a, NEED_KEYS[k]))
            return tb_fail(err, TB_BAD_REQUEST, "give the %s target number the build needs",
                           SAID[k]);
    return 0;
}

/* The GM's numbers become the builder's for this build (as set_build would) and the build is
 * rolled at once, as its builder's; the waiting marks are gone. A build that can no longer be
 * done (its check, as the builder's, refuses it now: the builder dying, the object gone) is
 * called off, no die rolled, so a wait never stalls the table. */
int gw_act_answer_build(rules_enc *e, const rules_args *a, tb_err *err)
{
    json_t *wait = json_incref(json_object_get(e->hidden, "waiting"));
    const rules_enc_action *act = NULL;
    rules_args aa;
    tb_err why = {0}; /* why it can no longer be done: called off, not refused */
    int rc = waiting_build(e, &act, &aa, &why);
    char cid[40];
    snprintf(cid, sizeof cid, "%s", json_string_value(json_object_get(wait, "builder")));
    json_object_del(e->hidden, "waiting");
    json_object_del(e->enc, "waiting");
    if (rc == 0 && act) {
        json_t *tns = json_object();
        int needs = 0;
        for (int k = 0; k < 3; k++) {
            if (rules_arg_given(a, NEED_KEYS[k]))
                json_object_set_new(tns, NEED_KEYS[k],
                                    json_integer(rules_arg_int(a, NEED_KEYS[k])));
            if (gw_list_find(json_object_get(wait, "needs"), NEED_KEYS[k]) >= 0)
                needs |= 1 << k;
        }
        /* the GM's line only: which numbers it named (their values in `result`) */
        rules_log *x = rules_log_begin(e, "answer", "answer_build");
        rules_log_who(x, "pc", cid);
        rules_log_word(x, "needs", NEED_WORDS[needs ? needs : NEED_COR], RULES_AUD_GM);
        rules_log_json(x, "tn", json_deep_copy(tns), RULES_AUD_GM);
        rules_log_end(x);
        /* with the numbers the GM set before (set_build), which the answer did not need */
        json_t *h = rules_enc_hidden_of(e, cid), *had = json_object_get(h, "build");
        if (json_is_object(had))
            json_object_update_missing(tns, had);
        json_object_set_new(h, "build", tns);
        const char *was = e->actor;
        e->actor = cid; /* the log names the builder, as when the player asked */
        rc = act->resolve(e, &aa, err);
        e->actor = was;
    } else {
        rules_log *x = rules_log_begin(e, "answer", "build_off");
        rules_log_who(x, "pc", cid);
        rules_log_name(x, "iname",
                       json_string_value(json_object_get(json_object_get(wait, "params"), "item")),
                       RULES_AUD_PUBLIC);
        rules_log_end(x);
        rc = 0;
    }
    json_decref(wait);
    return rc;
}

/* Uses an unstable object: its instability die (002:366-379). */
int gw_chk_use(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *item = rules_arg_str(a, "item");
    size_t at;
    if (gw_able(e, err))
        return err->code;
    /* a whole copy first: one broken copy does not stop the use of another */
    json_t *o = item_of(e, e->actor, item, ITEM_WHOLE, &at);
    if (!o)
        o = item_of(e, e->actor, item, ITEM_ANY, &at);
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
    json_t *o = item_of(e, cid, item, ITEM_WHOLE, &at);
    int die = (int)json_integer_value(json_object_get(o, "unstable_die"));
    int consumable = json_is_true(json_object_get(o, "consumable"));
    if (die <= 0) {
        if (consumable)
            json_array_remove(items, at);
        rules_log *x = rules_log_begin(e, "use", "use_stable");
        rules_log_who(x, "pc", cid);
        rules_log_name(x, "iname", item, RULES_AUD_PUBLIC);
        rules_log_end(x);
        return 0;
    }
    int v = rules_rng_die(e->rng, die);
    json_t *dice = json_array();
    rules_result_die(dice, die, v, 1);
    const char *what;
    if (consumable) {
        /* 002:376 2 or 3: doesn't work, can't be reused; 002:377 1: harmful, the GM says how */
        what = v == 1 ? "use.harmful" : v <= 3 ? "use.wasted" : "use.works";
        json_array_remove(items, at); /* used up either way */
    } else if (v == 1) {
        what = "use.breaks"; /* 002:371 */
        json_array_remove(items, at);
    } else if (v == 2) {
        what = "use.repairable"; /* 002:370 */
        json_object_set_new(o, "broken", json_true());
    } else {
        what = v == 3 ? "use.not_this_time" : "use.works"; /* 002:369 */
    }
    rules_log *x = rules_log_begin(e, "use", "use");
    gw_log_res(x, json_pack("{s:s, s:s}", "who", cid, "item", item), RULES_AUD_PUBLIC);
    rules_log_int(x, "roll", v, RULES_AUD_PUBLIC);
    rules_log_who(x, "pc", cid);
    rules_log_name(x, "iname", item, RULES_AUD_PUBLIC);
    rules_log_count(x, "sides", die, RULES_AUD_PUBLIC);
    rules_log_word(x, "what", what, RULES_AUD_PUBLIC);
    rules_log_dice(x, dice, RULES_AUD_PUBLIC);
    json_decref(dice);
    rules_log_end(x);
    return 0;
}
