/*
 * pursuit.c — where everyone is in City of Thieves' chase (cot.chase, rules/cot/chase.c; cot_enc.h,
 * "the chase"): the Target group and the Pursuers, vehicles and their drivers, Speed and
 * Velocity, each Pursuer's Distance, and the chase's pools and opposed rolls (000:139-171). The
 * rulebook is 000_d2a475e9ec148dd1.txt, cited as 000:LINE.
 */
#include "cot_enc.h"

#include <string.h>

int cot_chase_is_target(const rules_enc *e, const char *cid)
{
    const char *ts = cot_str(e->enc, "target_side");
    return ts && rules_enc_streq(rules_enc_side(e, cid), ts);
}

int cot_chase_in_vehicle(const rules_enc *e, const char *cid)
{
    return cot_str(rules_enc_stats_peek(e, cid), "vehicle") != NULL;
}

/* 000:139-144: at Speed when the character has a Speed rating it can use (not cramped,
 * 000:142-143); otherwise at Muscles velocity. */
int cot_chase_at_speed(const rules_enc *e, const char *cid)
{
    return rules_enc_stat_peek(e, cid, "speed", 0) > 0 &&
           !json_is_true(json_object_get(e->enc, "cramped"));
}

/* The Velocity Rating (000:157): the Speed rating at Speed; at Muscles velocity the Muscle
 * ability (RULES.md, cot chases, reading 2). */
int cot_chase_velocity(const rules_enc *e, const char *cid)
{
    return cot_chase_at_speed(e, cid) ? rules_enc_stat_peek(e, cid, "speed", 0)
                                      : cot_ability_of(e, cid, "muscle");
}

/* The driver of cid's vehicle when cid rides in it as a passenger, else NULL. */
static const char *driver_of(const rules_enc *e, const char *cid)
{
    if (!cot_chase_in_vehicle(e, cid) || cot_stat_true(e, cid, "driver"))
        return NULL;
    return cot_chase_vehicle_holder(e, cid);
}

int cot_chase_dist(const rules_enc *e, const char *pursuer)
{
    if (rules_enc_cond_has(e, pursuer, "boarded"))
        return 0; /* 000:163 "always considered to be at Distance 0" */
    /* 000:147 a group is everyone moving together, and only the driver Accelerates or Closes
     * (000:153, 000:169): a passenger is where its vehicle is (RULES.md, cot chases, reading 1) */
    const char *driver = driver_of(e, pursuer);
    return cot_int(rules_enc_combatant(e, driver ? driver : pursuer), "distance");
}

void cot_chase_dist_set(rules_enc *e, const char *pursuer, int d)
{
    const char *driver = driver_of(e, pursuer), *cid;
    if (driver)
        pursuer = driver; /* a passenger moves with its vehicle */
    json_object_set_new(rules_enc_combatant(e, pursuer), "distance", json_integer(d < 0 ? 0 : d));
    /* the vehicle's passengers are where it is: the track the table sees says so */
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        if (!cot_chase_is_target(e, cid) && rules_enc_streq(driver_of(e, cid), pursuer))
            json_object_set_new(rules_enc_combatant(e, cid), "distance",
                                json_integer(d < 0 ? 0 : d));
}

/* Fails unless the actor is of the group (target 1: the Target, 0: a Pursuer). */
int cot_chase_role(const rules_enc *e, int target, const char *what, tb_err *err)
{
    if (cot_chase_is_target(e, e->actor) == target)
        return 0;
    return rules_enc_rule(err, "only %s may %s (000:%s)", target ? "the Target" : "a Pursuer", what,
                          target ? "149" : "159");
}

/* "If in a vehicle, only the driver may ..." (000:153, 000:155, 000:169, 000:171). */
int cot_chase_driver(const rules_enc *e, const char *cid, const char *what, tb_err *err)
{
    if (!cot_chase_in_vehicle(e, cid) || cot_stat_true(e, cid, "driver"))
        return 0;
    return rules_enc_rule(err,
                          "%s is a passenger: in a vehicle only the driver may %s "
                          "(000:153-171)",
                          rules_enc_name(e, cid), what);
}

/* A Pursuer that can still Close (000:153 "each group able to Close rolls"). */
int cot_chase_can_close(const rules_enc *e, const char *cid)
{
    return !cot_chase_is_target(e, cid) && !rules_enc_is_out(e, cid) &&
           (!cot_chase_in_vehicle(e, cid) || cot_stat_true(e, cid, "driver"));
}

int cot_chase_target_check(const rules_enc *e, const char *t, const char *what, tb_err *err)
{
    int rc = cot_target_check(e, t, 0, err);
    if (rc)
        return rc;
    if (!cot_chase_is_target(e, t))
        return rules_enc_rule(err, "%s is a Pursuer: %s is against the Target (000:159)",
                              rules_enc_name(e, t), what);
    return 0;
}

int cot_chase_at_zero(const rules_enc *e, const char *pursuer, const char *what, const char *cite,
                      tb_err *err)
{
    int d = cot_chase_dist(e, pursuer);
    if (d == 0)
        return 0;
    return rules_enc_rule(err, "%s is at Distance %d: %s needs Distance 0 (%s)",
                          rules_enc_name(e, pursuer), d, what, cite);
}

/* ---- chase rolls ---- */

/* Whether cid's chase pool (throw_chase) can be rolled. */
int cot_chase_pool_check(const rules_enc *e, const char *cid, tb_err *err)
{
    if (cot_chase_at_speed(e, cid)) {
        cot_pool_spec spec = {cot_skill_of(e, cid, "driving"),
                              rules_enc_stat_peek(e, cid, "speed", 0), 0, 0};
        return cot_pool_check(&spec, err);
    }
    if (cot_chase_in_vehicle(e, cid))
        return cot_throw_check(e, cid, "fingers", "driving", 0, err);
    return cot_throw_check(e, cid, "muscle", "athletics", 0, err);
}

/* Rolls cid's chase pool (000:141-144): Speed+Driving at Speed, Fingers+Driving in a vehicle at
 * Muscles velocity, Muscle+Athletics on foot; `what` gets the pool's name. */
int cot_chase_throw(rules_enc *e, const char *cid, cot_throw *t, const char **what, tb_err *err)
{
    if (cot_chase_at_speed(e, cid)) {
        memset(t, 0, sizeof *t);
        cot_pool_spec spec = {cot_skill_of(e, cid, "driving"), rules_enc_stat(e, cid, "speed", 0),
                              0, 0};
        *what = "Speed+Driving";
        return cot_pool_roll(&spec, e->rng, &t->r, err);
    }
    if (cot_chase_in_vehicle(e, cid)) {
        *what = "Fingers+Driving";
        return cot_throw_pool(e, cid, "fingers", "driving", 0, t, err);
    }
    *what = "Muscle+Athletics";
    return cot_throw_pool(e, cid, "muscle", "athletics", 0, t, err);
}

/* An opposed roll (000:13: the opponent rolls first and sets the difficulty): `opp` rolls its
 * chase pool, then the actor; logs both and returns 1 when the actor succeeds (0 fails, <0 an
 * error). `head` says what the actor does. */
int cot_chase_opposed(rules_enc *e, const char *opp, const char *event, int slot, tb_err *err)
{
    cot_throw o, m;
    const char *ow, *mw;
    int rc = cot_chase_throw(e, opp, &o, &ow, err);
    if (rc || (rc = cot_chase_throw(e, e->actor, &m, &mw, err)))
        return -rc;
    int ok = cot_roll_succeeds(&m.r, o.r.total);
    rules_aud oa = rules_enc_aud_of(e, opp), ma = rules_enc_aud_of(e, e->actor);
    rules_log *x = rules_log_begin(e, "oppose", "oppose");
    rules_log_who(x, "who", opp);
    rules_log_name(x, "pool", ow, oa);
    cot_log_throw(x, &o, oa);
    rules_log_end(x);
    x = rules_log_begin(e, event, event);
    rules_log_who(x, "who", e->actor);
    rules_log_count(x, "slot", slot, RULES_AUD_PUBLIC);
    rules_log_who(x, "whom", opp);
    rules_log_name(x, "pool", mw, ma);
    cot_log_throw(x, &m, ma);
    rules_log_int(x, "difficulty", o.r.total, oa);
    rules_log_json(x, "success", json_boolean(ok), RULES_AUD_PUBLIC);
    rules_log_name(x, "outcome", ok ? "success" : "failure", RULES_AUD_PUBLIC);
    rules_log_end(x);
    return ok;
}

/* The checks of an opposed chase roll against opp: the slot and both pools. */
int cot_chase_opposed_check(const rules_enc *e, const char *opp, const char *action, tb_err *err)
{
    int rc = cot_turn_check(e, action, err);
    if (rc || (rc = cot_chase_pool_check(e, opp, err)))
        return rc;
    return cot_chase_pool_check(e, e->actor, err);
}

/* The pursuer of an action between the two groups: the actor or `target`, whichever pursues. */
const char *cot_chase_pursuer_of(const rules_enc *e, const char *t)
{
    return cot_chase_is_target(e, e->actor) ? t : e->actor;
}

/* The driver of t's vehicle (who holds its Body Score), or NULL when t is on foot. */
const char *cot_chase_vehicle_holder(const rules_enc *e, const char *t)
{
    const char *v = cot_str(rules_enc_stats_peek(e, t), "vehicle"), *cid;
    if (!v)
        return NULL;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        const char *w = cot_str(rules_enc_stats_peek(e, cid), "vehicle");
        if (w && strcmp(w, v) == 0 && cot_stat_true(e, cid, "driver") &&
            rules_enc_streq(rules_enc_side(e, cid), rules_enc_side(e, t)))
            return cid;
    }
    return NULL;
}
