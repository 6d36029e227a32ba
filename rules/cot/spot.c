/*
 * spot.c — the Spot of City of Thieves' heist module (cot.heist, rules/cot/heist.c; cot_enc.h,
 * "the Spot"): what the GM plans under /gm/enc/spot and what the crew discovers of it under
 * /enc/spot, the barriers' tags and skills, research goals, and a crew member's rolls. The
 * rulebook is 000_d2a475e9ec148dd1.txt, cited as 000:LINE.
 */
#include "cot_enc.h"

#include <stdio.h>
#include <string.h>

/* The GM's plan (/gm/enc/spot/<k>) and what the crew has seen of it (/enc/spot/<k>), created
 * when missing; the _get forms only read (NULL when missing). */
json_t *cot_spot_plan(rules_enc *e, const char *k)
{
    return cot_child(cot_child(e->hidden, "spot"), k);
}

json_t *cot_spot_shown(rules_enc *e, const char *k)
{
    return cot_child(cot_child(e->enc, "spot"), k);
}

json_t *cot_spot_plan_get(const rules_enc *e, const char *k)
{
    return json_object_get(json_object_get(e->hidden, "spot"), k);
}

json_t *cot_spot_shown_get(const rules_enc *e, const char *k)
{
    return json_object_get(json_object_get(e->enc, "spot"), k);
}

int cot_zone_has_tag(const json_t *zone, const char *tag)
{
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(zone, "tags"), i,
                       v) if (json_string_value(v) &&
                              strcmp(json_string_value(v), tag) == 0) return 1;
    return 0;
}

int cot_crew_stat(const rules_enc *e, const char *cid, const char *group, const char *key, int def)
{
    return cot_int_or(json_object_get(rules_enc_stats_peek(e, cid), group), key, def);
}

/* A sheet number of the crew member (reputation, heat, foresight, resources). */
int cot_crew_num(const rules_enc *e, const char *cid, const char *k)
{
    return rules_enc_stat_peek(e, cid, k, 0);
}

/* The pool of a crew member's roll of skill (+ its ability, 000:44-96): a Training scheme
 * waiting on the crew member (condition `training` {level, kept}) adds to it (000:218). */
static cot_pool_spec crew_pool(const rules_enc *e, const char *cid, const char *skill, int bonus)
{
    json_t *tr = rules_enc_cond(e, cid, "training");
    cot_pool_spec spec = {cot_crew_stat(e, cid, "skills", skill, 0),
                          cot_crew_stat(e, cid, "abilities", cot_skill_find(skill)->ability, 2),
                          bonus + cot_int_or(tr, "level", 0), cot_int_or(tr, "kept", 0)};
    return spec;
}

int cot_crew_check(const rules_enc *e, const char *cid, const char *skill, int bonus, tb_err *err)
{
    cot_pool_spec spec = crew_pool(e, cid, skill, bonus);
    return cot_pool_check(&spec, err);
}

/* A crew member's roll of skill; the Training scheme is used up by it. Logs nothing. */
int cot_crew_roll(rules_enc *e, const char *cid, const char *skill, int bonus, cot_roll *r,
                  json_t **dice, tb_err *err)
{
    cot_pool_spec spec = crew_pool(e, cid, skill, bonus);
    int rc = cot_pool_roll(&spec, e->rng, r, err);
    if (rc)
        return rc;
    rules_enc_cond_remove(e, cid, "training");
    *dice = json_array();
    rules_pool_to_json(&r->pool, *dice);
    return 0;
}

/* ---- what the crew discovers ---- */

int cot_zone_shown(const rules_enc *e, const char *zid)
{
    return strcmp(zid, COT_OUTSIDE) == 0 ||
           json_object_get(cot_spot_shown_get(e, "zones"), zid) != NULL;
}

/* Makes zone zid public, with the barriers whose both sides the crew now knows (a barrier to
 * a zone still unknown would give that zone away). Returns 1 if it was new. */
int cot_spot_reveal(rules_enc *e, const char *zid)
{
    json_t *z = json_object_get(cot_spot_plan(e, "zones"), zid);
    if (!z || json_object_get(cot_spot_shown(e, "zones"), zid))
        return 0;
    json_object_set_new(
        cot_spot_shown(e, "zones"), zid,
        json_pack("{s:s, s:O}", "name", cot_str(z, "name"), "tags", json_object_get(z, "tags")));
    const char *k;
    json_t *v;
    json_object_foreach(cot_spot_plan(e, "barriers"), k, v)
    {
        if (cot_zone_shown(e, cot_str(v, "from")) && cot_zone_shown(e, cot_str(v, "to")) &&
            !json_object_get(cot_spot_shown(e, "barriers"), k))
            json_object_set_new(cot_spot_shown(e, "barriers"), k,
                                json_pack("{s:s, s:s, s:s, s:O}", "from", cot_str(v, "from"), "to",
                                          cot_str(v, "to"), "tag", cot_str(v, "tag"), "open",
                                          json_object_get(v, "open")));
    }
    return 1;
}

/* The crew sees the guards of zone zid (it is there): their names, Aware or not; never their
 * scores (000:194-198). */
void cot_spot_see_guards(rules_enc *e, const char *zid)
{
    const char *k;
    json_t *v;
    cot_spot_reveal(e, zid);
    json_object_foreach(cot_spot_plan(e, "guards"), k, v)
    {
        if (strcmp(cot_str(v, "zone"), zid) == 0 &&
            !json_object_get(cot_spot_shown(e, "guards"), k))
            json_object_set_new(
                cot_spot_shown(e, "guards"), k,
                json_pack("{s:s, s:s, s:b}", "name", cot_str(v, "name"), "zone", zid, "aware", 0));
    }
}

/* 000:200 "In a Zone with multiple guards, use the highest Awareness score for all"; -1 when
 * the zone has no guard. */
int cot_zone_awareness(rules_enc *e, const char *zid)
{
    int best = -1;
    const char *k;
    json_t *v;
    json_object_foreach(cot_spot_plan(e, "guards"), k,
                        v) if (strcmp(cot_str(v, "zone"), zid) == 0 &&
                               cot_int_or(v, "awareness", 0) > best) best =
        cot_int_or(v, "awareness", 0);
    return best;
}

int cot_zone_has_aware_guard(const rules_enc *e, const char *zid)
{
    const char *k;
    json_t *v;
    json_object_foreach(cot_spot_shown_get(e, "guards"), k,
                        v) if (strcmp(cot_str(v, "zone"), zid) == 0 &&
                               json_is_true(json_object_get(v, "aware"))) return 1;
    return 0;
}

/* Every guard of the zone becomes Aware; returns how many were not. */
int cot_spot_alarm(rules_enc *e, const char *zid)
{
    int n = 0;
    const char *k;
    json_t *v;
    cot_spot_see_guards(e, zid);
    json_object_foreach(cot_spot_shown(e, "guards"), k,
                        v) if (strcmp(cot_str(v, "zone"), zid) == 0 &&
                               !json_is_true(json_object_get(v, "aware")))
    {
        json_object_set_new(v, "aware", json_true());
        n++;
    }
    return n;
}

/* The barrier between zones a and b (either way round), or NULL. */
json_t *cot_barrier_between(const rules_enc *e, const char *a, const char *b)
{
    const char *k;
    json_t *v;
    json_object_foreach(cot_spot_plan_get(e, "barriers"), k, v)
    {
        const char *f = cot_str(v, "from"), *t = cot_str(v, "to");
        if ((strcmp(f, a) == 0 && strcmp(t, b) == 0) || (strcmp(f, b) == 0 && strcmp(t, a) == 0))
            return v;
    }
    return NULL;
}

const char *cot_crew_position(const rules_enc *e, const char *cid)
{
    const char *p = cot_str(cot_spot_shown_get(e, "crew"), cid);
    return p ? p : COT_OUTSIDE;
}

const char *cot_zone_name(const rules_enc *e, const char *zid)
{
    if (strcmp(zid, COT_OUTSIDE) == 0)
        return "outside the Spot";
    const char *n = cot_str(json_object_get(cot_spot_plan_get(e, "zones"), zid), "name");
    return n ? n : zid;
}

static const char *const ZONE_TAGS[] = {"hazardous", "noisy", "hidden", "crowded", NULL};

/* The comma-separated tags, each one of allowed; an array, or NULL with err filled. */
json_t *cot_zone_tags_parse(const char *list, tb_err *err)
{
    json_t *out = json_array();
    char buf[128];
    snprintf(buf, sizeof buf, "%s", list ? list : "");
    for (char *save = NULL, *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
        const char *const *a = ZONE_TAGS;
        while (*a && strcmp(*a, t) != 0)
            a++;
        if (!*a) {
            json_decref(out);
            tb_fail(err, TB_BAD_REQUEST,
                    "tags: '%.20s' is not a zone tag (hazardous, noisy, "
                    "hidden, crowded)",
                    t);
            return NULL;
        }
        json_array_append_new(out, json_string(t));
    }
    return out;
}

/* 000:188-192 Barrier tags and the skills that bypass them; "" is a plain way through. */
static const char *const BARRIER_SKILLS[][3] = {
    {"lock", "lockpicking", NULL},
    {"vault", "safecracking", NULL},
    {"height", "athletics", "cat_burglary"},
    {"structure", "athletics", "build"},
    {"none", NULL, NULL},
};

int cot_barrier_tag(const char *tag)
{
    for (int i = 0; i < 5; i++)
        if (tag && strcmp(BARRIER_SKILLS[i][0], tag) == 0)
            return i;
    return -1;
}

int cot_zone_known(const rules_enc *e, const char *zid)
{
    return strcmp(zid, COT_OUTSIDE) == 0 ||
           json_object_get(cot_spot_plan_get(e, "zones"), zid) != NULL;
}

/* Research's goal (000:206-211): its difficulty against the Spot's zones (layout 6 + 1 per zone
 * that is not Hidden, a mark 25 - its Connections, an itinerary 20) or, for hidden zones,
 * *hidden set (each zone's rating counts); -1 when the goal is none of these. */
int cot_goal_difficulty(const json_t *zones, const rules_args *a, int mark, int *hidden)
{
    const char *goal = rules_arg_str(a, "goal");
    *hidden = 0;
    if (strcmp(goal, "layout") == 0) {
        /* 000:206 "Base difficulty of 6 with +1 per zone" */
        int difficulty = 6;
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)zones, k, v) difficulty += !cot_zone_has_tag(v, "hidden");
        return difficulty;
    }
    if (strcmp(goal, "hidden") == 0) {
        *hidden = 1; /* 000:207 against each Hidden zone's rating */
        return 0;
    }
    if (strcmp(goal, "mark") == 0)
        return 25 - mark; /* 000:209 "25-(The Target's Connections Skill)" */
    if (strcmp(goal, "itinerary") == 0)
        return 20; /* 000:211 */
    return -1;
}

/* Research's method (000:202-204): its skill, or NULL. */
const char *cot_method_skill(const char *how)
{
    if (strcmp(how, "planning") == 0)
        return "planning"; /* 000:202 */
    if (strcmp(how, "connections") == 0)
        return "connections"; /* 000:203 */
    if (strcmp(how, "stakeout") == 0)
        return "lookout"; /* 000:204 */
    return NULL;
}

const char *cot_barrier_skill(int tag, int i)
{
    return tag >= 0 && tag < 5 && i >= 1 && i <= 2 ? BARRIER_SKILLS[tag][i] : NULL;
}

/* ---- choices and schemes (cot.heist's hook and checks) ---- */

/* The name the crew knows zone zid by (what a player's choices say: never the GM's plan). */
static const char *shown_name(const rules_enc *e, const char *zid)
{
    if (strcmp(zid, COT_OUTSIDE) == 0)
        return "outside the Spot";
    const char *n = cot_str(json_object_get(cot_spot_shown_get(e, "zones"), zid), "name");
    return n ? n : zid;
}

/* Every planned zone (`shown_only`: those the crew knows), `outside` first when `outside`. */
void cot_spot_choose_zones(const rules_enc *e, int shown_only, int outside, json_t *out)
{
    const char *k;
    json_t *v;
    if (outside)
        cot_choice(out, json_string(COT_OUTSIDE), "Outside the Spot");
    json_object_foreach(shown_only ? cot_spot_shown_get(e, "zones") : cot_spot_plan_get(e, "zones"),
                        k, v)
        cot_choice(out, json_string(k), shown_only ? shown_name(e, k) : cot_zone_name(e, k));
}

/* The zones the actor can walk into now (an open way from where it is) first, then the others
 * the crew knows. */
/* A way the crew knows between zones a and b that is open. */
static int shown_open(const rules_enc *e, const char *a, const char *b)
{
    const char *k;
    json_t *v;
    json_object_foreach(cot_spot_shown_get(e, "barriers"), k, v)
    {
        const char *f = cot_str(v, "from"), *t = cot_str(v, "to");
        if (f && t &&
            ((strcmp(f, a) == 0 && strcmp(t, b) == 0) || (strcmp(f, b) == 0 && strcmp(t, a) == 0)))
            return json_is_true(json_object_get(v, "open"));
    }
    return 0;
}

void cot_spot_choose_moves(const rules_enc *e, const char *actor, json_t *out)
{
    const char *k, *here = cot_crew_position(e, actor);
    json_t *v;
    for (int pass = 0; pass < 2; pass++)
        json_object_foreach(cot_spot_shown_get(e, "zones"), k, v)
        {
            if ((strcmp(k, here) != 0 && shown_open(e, here, k)) == !pass)
                cot_choice(out, json_string(k), shown_name(e, k));
        }
}

/* The barriers the crew knows, those still closed where the actor stands first. */
void cot_spot_choose_barriers(const rules_enc *e, const char *actor, json_t *out)
{
    const char *k, *here = cot_crew_position(e, actor);
    json_t *v;
    char label[120];
    for (int pass = 0; pass < 2; pass++)
        json_object_foreach(cot_spot_shown_get(e, "barriers"), k, v)
        {
            int at = !json_is_true(json_object_get(v, "open")) &&
                     (strcmp(cot_str(v, "from"), here) == 0 || strcmp(cot_str(v, "to"), here) == 0);
            if (at == !pass) {
                snprintf(label, sizeof label, "The %s between %s and %s", cot_str(v, "tag"),
                         shown_name(e, cot_str(v, "from")), shown_name(e, cot_str(v, "to")));
                cot_choice(out, json_string(k), label);
            }
        }
}

/* The zone tags (000:183-186), none, alone or together: every subset, as "noisy,hidden". */
void cot_zone_choose_tags(json_t *out)
{
    static const char *const TAG[] = {"hazardous", "noisy", "hidden", "crowded"};
    static const char *const LABEL[] = {"Hazardous", "Noisy", "Hidden", "Crowded"};
    cot_choice(out, NULL, "none");
    for (unsigned m = 1; m < 16; m++) {
        char v[64] = "", l[64] = "";
        for (int t = 0; t < 4; t++)
            if (m & (1u << t)) {
                snprintf(v + strlen(v), sizeof v - strlen(v), "%s%s", v[0] ? "," : "", TAG[t]);
                snprintf(l + strlen(l), sizeof l - strlen(l), "%s%s", l[0] ? ", " : "", LABEL[t]);
            }
        cot_choice(out, json_string(v), l);
    }
}

/*
 * A scheme spends Foresight (000:217-222): ambush (1 per zone moved: the crew member is placed
 * in `zone` at once), training (1 per rolled die, 2 per kept die, on the next roll), secrets
 * and switch (3 a roll: the GM lets the roll be made), cache (1 per Resource spent), blueprint
 * (3 at the edge of the Spot or 1, +1 per zone it bypasses: the GM adds the Hidden zone): its
 * cost against the Foresight held. Pure.
 */
int cot_scheme_cost(const rules_enc *e, const rules_args *a, int *cost, tb_err *err)
{
    const char *cid = e->actor, *s = rules_arg_str(a, "scheme"), *name = rules_enc_name(e, cid);
    int rolled = rules_arg_int(a, "rolled"), kept = rules_arg_int(a, "kept");
    int zones = rules_arg_int(a, "zones"), res = rules_arg_int(a, "resources");
    const char *to = rules_arg_str(a, "zone");
    if (strcmp(s, "ambush") == 0) {
        if (!to || !json_object_get(cot_spot_shown_get(e, "zones"), to) || zones < 1)
            return tb_fail(err, TB_BAD_REQUEST,
                           "an ambush names a zone the crew knows and the zones moved (zones)");
        *cost = zones; /* 000:217 */
    } else if (strcmp(s, "training") == 0) {
        if (rolled + kept < 1)
            return tb_fail(err, TB_BAD_REQUEST, "training adds dice: give rolled and/or kept");
        *cost = rolled + 2 * kept; /* 000:218 */
    } else if (strcmp(s, "secrets") == 0 || strcmp(s, "switch") == 0) {
        *cost = 3; /* 000:219, 000:222 */
    } else if (strcmp(s, "cache") == 0) {
        if (res < 1)
            return tb_fail(err, TB_BAD_REQUEST, "a cache spends Resources: give resources");
        if (cot_crew_num(e, cid, "resources") < res)
            return rules_enc_rule(err, "%s has only %d Resources", name,
                                  cot_crew_num(e, cid, "resources"));
        *cost = res; /* 000:220 */
    } else if (strcmp(s, "blueprint") == 0) {
        *cost = (rules_arg_int(a, "edge") ? 3 : 1) + zones; /* 000:221 */
    } else {
        return tb_fail(err, TB_BAD_REQUEST,
                       "scheme: '%.20s' is not ambush, training, secrets, cache, blueprint or "
                       "switch",
                       s);
    }
    int have = cot_crew_num(e, cid, "foresight");
    if (have < *cost)
        return rules_enc_rule(err, "%s has %d Foresight; this takes %d", name, have, *cost);
    return 0;
}

int cot_mark_connections(const rules_enc *e)
{
    return cot_int_or(json_object_get(json_object_get(e->hidden, "spot"), "mark"), "connections",
                      0);
}

void cot_heist_round(rules_enc *e, const char *cid)
{
    json_t *c = rules_enc_combatant(e, cid);
    int n = cot_int(c, "acts") + 1;
    if (!c || n > RULES_ENC_MAX_ROUND)
        return;
    json_object_set_new(c, "acts", json_integer(n));
    if (n > rules_enc_round(e))
        json_object_set_new(e->enc, "round", json_integer(n));
}
