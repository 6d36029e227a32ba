/*
 * chase.c — heimr.chase, chasing on fatigue (rules/encounter.h; rulebook
 * 001_660a93111b0de833.txt, 001:300-306). Readings: rules/RULES.md, "heimr", "Encounters (module
 * heimr.chase)".
 *
 * /enc/ability is the terrain's ability the GM picked (001:302 "the GM decides what attribute or
 * ability to roll"); /enc/target_side names the chased; every other combatant chases. Each
 * chaser keeps its public `distance` in squares (001:302 "The grid should be used to keep track
 * of the distance"). The order is the target, then the chasers in the order they joined; each
 * takes its turn with `run` (001:302 "Characters take turns rolling"). The target's latest roll
 * (in heimr_priv: an NPC's is the GM's) is what a chaser's roll is compared with. /enc/offer
 * holds a terrain decision the GM offers the target (001:306).
 */
#include <stdio.h>
#include <string.h>

#include "heimr_enc.h"

/* ---- the actions ---- */

static int check_begin(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_begin(rules_enc *e, const rules_args *a, tb_err *err);
static int check_run(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_run(rules_enc *e, const rules_args *a, tb_err *err);
static int check_offer(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_offer(rules_enc *e, const rules_args *a, tb_err *err);
static int check_choose(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_choose(rules_enc *e, const rules_args *a, tb_err *err);

static const rules_param P_NONE[] = {{0}};
static const rules_param P_RUN[] = {
    {"c", RULES_PARAM_INT, -20, 20, 0, 0, "consistency (an NPC without the ability)"},
    {"p", RULES_PARAM_INT, -20, 40, 0, 0, "potential (with c)"},
    {0},
};
static const rules_param P_OFFER[] = {
    {"ability", RULES_PARAM_STRING, 1, 60, 0, RULES_PARAM_REQUIRED, "the other ground's ability"},
    {0},
};
static const rules_param P_CHOOSE[] = {
    {"take", RULES_PARAM_BOOL, 0, 1, 1, 0, "take the ground offered (1) or not (0)"},
    {0},
};

static const rules_enc_action ACTIONS[] = {
    {"begin", "Begin the chase", RULES_ENC_GM, P_NONE, act_begin, "001:302", check_begin},
    {"run", "Run", RULES_ENC_TURN, P_RUN, act_run, "001:302-304", check_run},
    {"offer", "Offer a terrain", RULES_ENC_GM, P_OFFER, act_offer, "001:306", check_offer,
     RULES_ENC_RARE},
    {"choose", "Choose the terrain", RULES_ENC_OWNER, P_CHOOSE, act_choose, "001:306",
     check_choose},
    {0},
};

/* ---- who is chased ---- */

static int chase_is_target(const rules_enc *e, const char *cid)
{
    const char *ts = json_string_value(json_object_get(e->enc, "target_side"));
    return ts && strcmp(rules_enc_side(e, cid), ts) == 0;
}

static const char *chase_target(const rules_enc *e)
{
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        if (chase_is_target(e, cid))
            return cid;
    return NULL;
}

/* ---- begin (001:302) ---- */

static int check_begin(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    if (rules_enc_round(e) > 0)
        return rules_enc_rule(err, "the chase is under way");
    const char *t = chase_target(e), *cid;
    if (!t)
        return rules_enc_rule(err, "nobody of the %s is in the chase: add the target first",
                              json_string_value(json_object_get(e->enc, "target_side")));
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        if (!chase_is_target(e, cid))
            return 0;
    return rules_enc_rule(err, "nobody chases %s yet: add a chaser", rules_enc_name(e, t));
}

static int act_begin(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = chase_target(e), *cid;
    json_t *order = json_array();
    json_array_append_new(order, json_string(t));
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        if (!chase_is_target(e, cid))
            json_array_append_new(order, json_string(cid));
    json_object_set_new(e->enc, "order", order);
    rules_enc_begin_round(e);
    rules_log *x = rules_log_begin(e, "begin", "begin");
    rules_log_name(x, "terrain", json_string_value(json_object_get(e->enc, "ability")),
                   RULES_AUD_PUBLIC);
    rules_log_who(x, "who", t);
    rules_log_end(x);
    return 0;
}

/* ---- run (001:302-304) ---- */

/* What the actor runs with: the terrain's ability, or the GM's c and p. */
static int run_spec(const rules_enc *e, const rules_args *a, heimr_spec *s, tb_err *err)
{
    const char *ability = json_string_value(json_object_get(e->enc, "ability"));
    return heimr_spec_resolve(e, e->actor, ability, NULL, rules_arg_given(a, "c"),
                              rules_arg_int(a, "c"), rules_arg_int(a, "p"), s, err);
}

static int check_run(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = chase_target(e);
    heimr_spec s;
    int rc = run_spec(e, a, &s, err);
    if (rc)
        return rc;
    if (!t)
        return rules_enc_rule(err, "nobody is chased any more");
    if (strcmp(e->actor, t) != 0 &&
        !json_is_integer(json_object_get(heimr_priv_of(e, t), "chase_roll")))
        return rules_enc_rule(err, "%s has not run yet: the target rolls first (001:302)",
                              rules_enc_name(e, t));
    return 0;
}

static int act_run(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *me = e->actor, *t = chase_target(e);
    heimr_spec s;
    run_spec(e, a, &s, err);
    int target = strcmp(me, t) == 0;
    heimr_roll r;
    heimr_enc_roll(s.c, s.p, e->rng, &r);
    /* 001:304 every roll of the chase checks fatigue, and fatigue only rises (no breather):
     * 001:284 the roll before potential must reach it, 001:286 a d6 below it raises it */
    int f = rules_enc_stat(e, me, "fatigue", 1);
    int ok = heimr_fatigue_passes(&r, f), after = heimr_fatigue_after(f, r.d6);
    rules_enc_stat_set(e, me, "fatigue", after);
    /* an NPC's roll and fatigue are the GM's; every square and who drops out are open */
    rules_aud mine = rules_enc_aud_of(e, me);
    const char *event;
    int squares = -1;
    if (!ok) {
        /* 001:304 "If this is the target, this means the chaser will reach the target. If this
         * is the chaser, this means the target has escaped." */
        event = target ? "run.caught" : "run.dropped";
        rules_enc_set_out(e, target ? t : me, target ? "caught" : "shaken off");
    } else if (target) {
        json_object_set_new(heimr_priv(e, t), "chase_roll", json_integer(r.result));
        event = "run.on";
    } else {
        /* 001:302 three or more higher: one square closer; three or more lower: the target one
         * square further; the move that would pass the target is an action against it */
        int diff =
            r.result - (int)json_integer_value(json_object_get(heimr_priv(e, t), "chase_roll"));
        int d = (int)json_integer_value(json_object_get(rules_enc_combatant(e, me), "distance"));
        squares = diff >= 3 && d <= 1 ? 0 : diff >= 3 ? d - 1 : diff <= -3 ? d + 1 : d;
        event = diff >= 3 && d <= 1 ? "run.catch"
                : diff >= 3         ? "run.gain"
                : diff <= -3        ? "run.fall"
                                    : "run.pace";
        json_object_set_new(rules_enc_combatant(e, me), "distance", json_integer(squares));
    }
    rules_log *x = rules_log_begin(e, "run", event);
    rules_log_who(x, "who", me);
    rules_log_who(x, "whom", t);
    if (squares >= 0 && strcmp(event, "run.catch") != 0)
        rules_log_int(x, "squares", squares, RULES_AUD_PUBLIC);
    heimr_log_roll(x, &r, NULL, mine);
    rules_log_int(x, "fatigue_before", f, mine);
    rules_log_int(x, "fatigue_after", after, mine);
    rules_log_word(x, "own", "run.own", mine);
    rules_log_name(x, "with", s.ability, mine);
    rules_log_end(x);
    int alive = 0;
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        alive += !rules_enc_is_out(e, cid) && !chase_is_target(e, cid);
    if (!rules_enc_is_out(e, t) && alive == 0) {
        rules_enc_set_out(e, t, "escaped");
        heimr_tell(e, "escape", "escape", t, NULL);
    }
    if (!rules_enc_is_out(e, t))
        rules_enc_advance(e);
    return 0;
}

/* ---- terrain decisions (001:306) ---- */

/* The GM offers the target a terrain decision: another ability to roll, while there is a target
 * still running. */
static int check_offer(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *t = chase_target(e);
    if (!t)
        return rules_enc_rule(err, "nobody is chased: add the target first");
    if (rules_enc_is_out(e, t))
        return rules_enc_rule(err, "the chase is over: %s is %s", rules_enc_name(e, t),
                              json_string_value(json_object_get(rules_enc_combatant(e, t), "out")));
    return 0;
}

static int act_offer(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *ab = rules_arg_str(a, "ability");
    json_object_set_new(e->enc, "offer", json_string(ab));
    rules_log *x = rules_log_begin(e, "offer", "offer");
    rules_log_who(x, "who", chase_target(e));
    rules_log_name(x, "terrain", ab, RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/* The target takes (or turns down) the terrain the GM offered. */
static int check_choose(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    if (!chase_is_target(e, e->actor))
        return rules_enc_rule(err, "only the one being chased chooses the terrain (001:306)");
    if (!json_string_value(json_object_get(e->enc, "offer")))
        return rules_enc_rule(err, "the GM has offered no other terrain (001:306)");
    if (rules_enc_is_out(e, e->actor))
        return rules_enc_rule(
            err, "the chase is over: %s is %s", rules_enc_name(e, e->actor),
            json_string_value(json_object_get(rules_enc_combatant(e, e->actor), "out")));
    return 0;
}

static int act_choose(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    json_t *offer = json_incref(json_object_get(e->enc, "offer"));
    json_object_del(e->enc, "offer");
    int take = rules_arg_int(a, "take");
    if (take)
        json_object_set(e->enc, "ability", offer);
    rules_log *x = rules_log_begin(e, "choose", take ? "take" : "keep");
    rules_log_who(x, "who", e->actor);
    rules_log_name(x, "terrain", json_string_value(offer), RULES_AUD_PUBLIC);
    rules_log_end(x);
    json_decref(offer);
    return 0;
}

/* ---- the words (rules/encounter.h, "The log") ---- */

/* clang-format off */
static const rules_phrase PHRASES[] = {
    {"begin", "The chase begins on {terrain}: {who} runs first, then the chasers in turn (001:302)"},
    {"run.caught", "{who} runs out of breath: the chasers reach them (001:304){own?}"},
    {"run.dropped", "{who} runs out of breath and drops out: {whom} got away (001:304){own?}"},
    {"run.on", "{who} runs on (001:302){own?}"},
    {"run.catch", "{who} catches up with {whom} and may act against them instead of running past "
                  "(001:302){own?}"},
    {"run.gain", "{who} gains a square on {whom}: {squares} left (001:302){own?}"},
    {"run.fall", "{who} falls a square behind {whom}: {squares} (001:302){own?}"},
    {"run.pace", "{who} keeps pace with {whom}: {squares} squares (001:302){own?}"},
    {"run.own", ": {with} {result} (fatigue {fatigue_before} → {fatigue_after})"},
    {"escape", "{who} escapes: nobody chases them any more (001:304)"},
    {"offer", "The GM offers {who} other ground: {terrain} (001:306)"},
    {"take", "{who} takes to new ground: the chase rolls {terrain} now (001:306)"},
    {"keep", "{who} keeps to the ground they are on (001:306)"},
    {NULL, NULL},
};
/* clang-format on */

/* ---- the module's hooks ---- */

/* The scene is over: everyone gets their breath back (001:292, 001:304). */
static int chase_end(rules_enc *e, tb_err *err)
{
    (void)err;
    heimr_breath_back(e);
    return 0;
}

static int chase_start(rules_enc *e, const rules_args *o, tb_err *err)
{
    (void)err;
    json_object_set_new(e->enc, "ability", json_string(rules_arg_str(o, "ability")));
    json_object_set_new(e->enc, "target_side", json_string(rules_arg_str(o, "target_side")));
    json_object_set_new(e->enc, "distance", json_integer(rules_arg_int(o, "distance")));
    json_object_set_new(e->enc, "turn_seconds", json_integer(HEIMR_TURN_SECONDS));
    return 0;
}

/* Joins as heimr.combat does (stats, abilities, injuries), before the chase begins; a chaser
 * starts at the GM's distance. */
static int chase_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    if (rules_enc_round(e) > 0)
        return rules_enc_rule(err, "the chase is under way: everyone joins before it begins");
    heimr_join_stats(e, cid, sheet);
    heimr_join_injuries(e, cid);
    if (chase_is_target(e, cid)) {
        const char *t = chase_target(e);
        if (t && strcmp(t, cid) != 0)
            return rules_enc_rule(err,
                                  "the chase has one target (%s); chase another with a new "
                                  "chase",
                                  rules_enc_name(e, t));
    } else {
        json_object_set_new(rules_enc_combatant(e, cid), "distance",
                            json_integer(json_integer_value(json_object_get(e->enc, "distance"))));
    }
    return 0;
}

/* The chase's own: the terrain's ability (001:302) and each chaser's squares to the target. */
static const rules_enc_field EDITABLE[] = {
    {"stats/hp", RULES_PARAM_INT, -5, 100, "hit points"},
    {"stats/fatigue", RULES_PARAM_INT, 1, 20, "fatigue"},
    {"/enc/ability", RULES_PARAM_STRING, 1, 60, "the terrain's ability"},
    {"/enc/combatants/*/distance", RULES_PARAM_INT, 0, 40, "squares to the target"},
    {NULL, 0, 0, 0, NULL},
};

/* Damage, willpower, fatigue and injuries land on the sheets (server/ops_enc.c write_back). */
static const char *const SHEET_STATS[] = {"hp",      "hp_max",   "willpower", "willpower_max",
                                          "fatigue", "injuries", NULL};

static const rules_param P_START[] = {
    {"ability", RULES_PARAM_STRING, 1, 60, 0, RULES_PARAM_REQUIRED,
     "the terrain's ability (Agility, Athletics, Swimming...)"},
    {"target_side", RULES_PARAM_STRING, 1, 40, 0, RULES_PARAM_REQUIRED, "the side being chased"},
    {"distance", RULES_PARAM_INT, 1, 20, 3, 0, "squares between them at the start (default 3)"},
    {0},
};

const rules_module rules_module_heimr_chase = {
    .id = "heimr.chase",
    .system = "heimr",
    .name = "Chase",
    .cite = "001:300-306",
    .options = P_START,
    .start = chase_start,
    .join = chase_join,
    .end = chase_end,
    .actions = ACTIONS,
    .sheet_stats = SHEET_STATS,
    .editable = EDITABLE,
    .choices = heimr_chase_choices, /* choices.c */
    .phrases = PHRASES,
};
