/*
 * heist.c — City of Thieves' heist scene (000:174-222) as the encounter module `cot.heist`: the
 * Spot the GM prepares before the job (zones with tags, barriers with their securities, guards
 * with Awareness and Training), revealed zone by zone as the crew enters or researches it; the
 * Prep Stage's research (Planning, Connections, stakeouts), Foresight from Planning and the
 * schemes that spend it.
 *
 * State (beyond encounter.h):
 *   /gm/enc/spot  {zones: {zid: {name, tags: [..], edge, rating, hazard}},
 *                  barriers: {bid: {from, to, tag, score}},
 *                  guards: {gid: {name, zone, awareness, training}}}   — the GM's plan, all of it
 *   /enc/spot     {zones: {zid: {name, tags}}, barriers: {bid: {from, to, tag, open}},
 *                  guards: {gid: {name, zone, aware}}, crew: {cid: zid or "outside"}}
 *                  — only what the crew has discovered
 * A zone is public once revealed (entered, found by research, shown by the GM); a barrier once
 * one of its sides is; a guard once its zone is. Scores (Awareness, Training, barrier scores,
 * hidden ratings) never leave /gm: the public log says only success or failure.
 *
 * Every refusal is decided before the first die (validate before you roll).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cot.h"
#include "encounter.h"

#define OUTSIDE "outside"
#define FORESIGHT_THRESHOLD 3 /* 000:214 */

/* ---- small helpers ---- */

static const char *str_of(const json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

static int int_of(const json_t *o, const char *k, int def)
{
    json_t *v = json_object_get(o, k);
    return json_is_integer(v) ? (int)json_integer_value(v) : def;
}

/* The object o[k], created empty when missing (borrowed). */
static json_t *obj(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    if (!json_is_object(v)) {
        v = json_object();
        json_object_set_new(o, k, v);
    }
    return v;
}

static json_t *plan(rules_enc *e, const char *k)
{
    return obj(obj(e->hidden, "spot"), k);
}

static json_t *shown(rules_enc *e, const char *k)
{
    return obj(obj(e->enc, "spot"), k);
}

static int has_tag(const json_t *zone, const char *tag)
{
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(zone, "tags"), i,
                       v) if (json_string_value(v) &&
                              strcmp(json_string_value(v), tag) == 0) return 1;
    return 0;
}

/* 000:44-96: the ability each heist skill is rolled with. */
static const char *ability_of_skill(const char *skill)
{
    static const char *const MAP[][2] = {
        {"athletics", "muscle"},    {"cat_burglary", "fingers"}, {"sneak", "fingers"},
        {"lockpicking", "fingers"}, {"build", "fingers"},        {"planning", "brains"},
        {"lookout", "brains"},      {"safecracking", "brains"},  {"connections", "it"},
    };
    for (size_t i = 0; i < sizeof MAP / sizeof MAP[0]; i++)
        if (strcmp(MAP[i][0], skill) == 0)
            return MAP[i][1];
    return NULL;
}

static int stat_in(rules_enc *e, const char *cid, const char *group, const char *key, int def)
{
    return int_of(json_object_get(rules_enc_stats(e, cid), group), key, def);
}

/* A crew member's roll of skill (+ its ability): a Training scheme waiting on the crew member
 * (condition `training` {level, kept}) is used up by it (000:218). Logs nothing. */
static int crew_roll(rules_enc *e, const char *cid, const char *skill, int bonus, cot_roll *r,
                     json_t **dice, tb_err *err)
{
    json_t *tr = rules_enc_cond(e, cid, "training");
    cot_pool_spec spec = {stat_in(e, cid, "skills", skill, 0),
                          stat_in(e, cid, "abilities", ability_of_skill(skill), 2),
                          bonus + int_of(tr, "level", 0), int_of(tr, "kept", 0)};
    int rc = cot_pool_roll(&spec, e->rng, r, err);
    if (rc)
        return rc;
    if (tr)
        rules_enc_cond_remove(e, cid, "training");
    *dice = json_array();
    rules_pool_to_json(&r->pool, *dice);
    return 0;
}

/* ---- what the crew discovers ---- */

static int zone_shown(rules_enc *e, const char *zid)
{
    return strcmp(zid, OUTSIDE) == 0 || json_object_get(shown(e, "zones"), zid) != NULL;
}

/* Makes zone zid public, with the barriers whose both sides the crew now knows (a barrier to
 * a zone still unknown would give that zone away). Returns 1 if it was new. */
static int reveal(rules_enc *e, const char *zid)
{
    json_t *z = json_object_get(plan(e, "zones"), zid);
    if (!z || json_object_get(shown(e, "zones"), zid))
        return 0;
    json_object_set_new(
        shown(e, "zones"), zid,
        json_pack("{s:s, s:O}", "name", str_of(z, "name"), "tags", json_object_get(z, "tags")));
    const char *k;
    json_t *v;
    json_object_foreach(plan(e, "barriers"), k, v)
    {
        if (zone_shown(e, str_of(v, "from")) && zone_shown(e, str_of(v, "to")) &&
            !json_object_get(shown(e, "barriers"), k))
            json_object_set_new(shown(e, "barriers"), k,
                                json_pack("{s:s, s:s, s:s, s:O}", "from", str_of(v, "from"), "to",
                                          str_of(v, "to"), "tag", str_of(v, "tag"), "open",
                                          json_object_get(v, "open")));
    }
    return 1;
}

/* The crew sees the guards of zone zid (it is there): their names, Aware or not; never their
 * scores (000:194-198). */
static void see_guards(rules_enc *e, const char *zid)
{
    const char *k;
    json_t *v;
    reveal(e, zid);
    json_object_foreach(plan(e, "guards"), k, v)
    {
        if (strcmp(str_of(v, "zone"), zid) == 0 && !json_object_get(shown(e, "guards"), k))
            json_object_set_new(
                shown(e, "guards"), k,
                json_pack("{s:s, s:s, s:b}", "name", str_of(v, "name"), "zone", zid, "aware", 0));
    }
}

/* 000:200 "In a Zone with multiple guards, use the highest Awareness score for all"; -1 when
 * the zone has no guard. */
static int zone_awareness(rules_enc *e, const char *zid)
{
    int best = -1;
    const char *k;
    json_t *v;
    json_object_foreach(plan(e, "guards"), k, v) if (strcmp(str_of(v, "zone"), zid) == 0 &&
                                                     int_of(v, "awareness", 0) > best) best =
        int_of(v, "awareness", 0);
    return best;
}

static int zone_has_aware_guard(rules_enc *e, const char *zid)
{
    const char *k;
    json_t *v;
    json_object_foreach(shown(e, "guards"), k,
                        v) if (strcmp(str_of(v, "zone"), zid) == 0 &&
                               json_is_true(json_object_get(v, "aware"))) return 1;
    return 0;
}

/* Every guard of the zone becomes Aware; returns how many were not. */
static int alarm_zone(rules_enc *e, const char *zid)
{
    int n = 0;
    const char *k;
    json_t *v;
    see_guards(e, zid);
    json_object_foreach(shown(e, "guards"), k, v) if (strcmp(str_of(v, "zone"), zid) == 0 &&
                                                      !json_is_true(json_object_get(v, "aware")))
    {
        json_object_set_new(v, "aware", json_true());
        n++;
    }
    return n;
}

/* The barrier between zones a and b (either way round), or NULL; its id in *bid. */
static json_t *barrier_between(rules_enc *e, const char *a, const char *b, const char **bid)
{
    const char *k;
    json_t *v;
    json_object_foreach(plan(e, "barriers"), k, v)
    {
        const char *f = str_of(v, "from"), *t = str_of(v, "to");
        if ((strcmp(f, a) == 0 && strcmp(t, b) == 0) || (strcmp(f, b) == 0 && strcmp(t, a) == 0)) {
            *bid = k;
            return v;
        }
    }
    return NULL;
}

static const char *position(rules_enc *e, const char *cid)
{
    const char *p = str_of(shown(e, "crew"), cid);
    return p ? p : OUTSIDE;
}

static const char *zone_name(rules_enc *e, const char *zid)
{
    if (strcmp(zid, OUTSIDE) == 0)
        return "outside the Spot";
    const char *n = str_of(json_object_get(plan(e, "zones"), zid), "name");
    return n ? n : zid;
}

/*
 * One log entry of a crew roll against a number of the GM's (encounter.h, "log entries whose
 * values carry their audience"): the public text, the dice and `pub` (stolen) for everyone;
 * `gm_text` and `gm` (stolen: the hidden number) for the GM only. dice is stolen (may be NULL).
 */
static void log_vs(rules_enc *e, const char *action, json_t *dice, json_t *pub, json_t *gm,
                   const char *public_text, const char *gm_text)
{
    rules_enc_entry *x = rules_enc_entry_begin(e, action);
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, "%s", public_text);
    rules_enc_entry_say(x, RULES_AUD_GM, "%s", gm_text);
    if (dice)
        rules_enc_entry_dice(x, RULES_AUD_PUBLIC, dice);
    rules_enc_entry_merge(x, RULES_AUD_PUBLIC, pub);
    rules_enc_entry_merge(x, RULES_AUD_GM, gm);
    rules_enc_entry_end(x);
    json_decref(dice);
}

/* ---- join ---- */

static int heist_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    (void)err;
    json_t *st = rules_enc_stats(e, cid);
    /* copies, not the sheet's own objects (an empty object when the sheet has none) */
    static const char *const KEYS[] = {"abilities", "skills"};
    for (int i = 0; i < 2; i++) {
        json_t *v = json_object_get(sheet, KEYS[i]);
        json_object_set_new(st, KEYS[i], v ? json_deep_copy(v) : json_object());
    }
    /* 000:175 "Characters begin a Heist outside the Spot and Concealed" */
    if (!rules_enc_is_npc(e, cid))
        json_object_set_new(shown(e, "crew"), cid, json_string(OUTSIDE));
    return 0;
}

/* ---- the GM's preparation ---- */

static const char *const ZONE_TAGS[] = {"hazardous", "noisy", "hidden", "crowded", NULL};

/* The comma-separated tags, each one of allowed; an array, or NULL with err filled. */
static json_t *parse_tags(const char *list, const char *const *allowed, tb_err *err)
{
    json_t *out = json_array();
    char buf[128];
    snprintf(buf, sizeof buf, "%s", list ? list : "");
    for (char *save = NULL, *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
        const char *const *a = allowed;
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

/* The GM adds (or replaces) a zone of the Spot (000:176-186): GM-only until revealed. */
static int act_zone(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *id = rules_arg_str(a, "id");
    if (strcmp(id, OUTSIDE) == 0)
        return tb_fail(err, TB_BAD_REQUEST, "id: 'outside' names the street outside the Spot");
    json_t *tags = parse_tags(rules_arg_str(a, "tags"), ZONE_TAGS, err);
    if (!tags)
        return err->code;
    json_object_set_new(plan(e, "zones"), id,
                        json_pack("{s:s, s:o, s:b, s:i, s:i}", "name", rules_arg_str(a, "name"),
                                  "tags", tags, "edge", rules_arg_int(a, "edge"), "rating",
                                  rules_arg_int(a, "rating"), "hazard",
                                  rules_arg_int(a, "hazard")));
    rules_enc_log_gm(e, "zone", NULL, NULL, "Zone %s prepared", rules_arg_str(a, "name"));
    return 0;
}

/* 000:188-192 Barrier tags and the skills that bypass them; "" is a plain way through. */
static const char *const BARRIER_SKILLS[][3] = {
    {"lock", "lockpicking", NULL},
    {"vault", "safecracking", NULL},
    {"height", "athletics", "cat_burglary"},
    {"structure", "athletics", "build"},
    {"none", NULL, NULL},
};

static int barrier_tag(const char *tag)
{
    for (int i = 0; i < 5; i++)
        if (strcmp(BARRIER_SKILLS[i][0], tag) == 0)
            return i;
    return -1;
}

static int known_zone(rules_enc *e, const char *zid)
{
    return strcmp(zid, OUTSIDE) == 0 || json_object_get(plan(e, "zones"), zid) != NULL;
}

static int act_barrier(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *from = rules_arg_str(a, "from"), *to = rules_arg_str(a, "to");
    const char *tag = rules_arg_str(a, "tag");
    if (!known_zone(e, from) || !known_zone(e, to))
        return tb_fail(err, TB_NOT_FOUND, "from/to: prepare both zones first ('%.32s', '%.32s')",
                       from, to);
    if (strcmp(from, to) == 0)
        return tb_fail(err, TB_BAD_REQUEST, "a barrier divides two different zones");
    if (barrier_tag(tag) < 0)
        return tb_fail(err, TB_BAD_REQUEST,
                       "tag: '%.20s' is not lock, vault, height, structure "
                       "or none",
                       tag);
    json_object_set_new(plan(e, "barriers"), rules_arg_str(a, "id"),
                        json_pack("{s:s, s:s, s:s, s:i, s:b}", "from", from, "to", to, "tag", tag,
                                  "score", rules_arg_int(a, "score"), "open",
                                  strcmp(tag, "none") == 0));
    rules_enc_log_gm(e, "barrier", NULL, NULL, "Barrier %s between %s and %s prepared",
                     rules_arg_str(a, "id"), zone_name(e, from), zone_name(e, to));
    return 0;
}

/* 000:194-198 a guard: Awareness from Brains+Lookout, Training from Muscle+Resist. */
static int act_guard(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *zone = rules_arg_str(a, "zone");
    if (!json_object_get(plan(e, "zones"), zone))
        return tb_fail(err, TB_NOT_FOUND, "zone: prepare zone '%.32s' first", zone);
    int brains = rules_arg_int(a, "brains"), muscle = rules_arg_int(a, "muscle");
    int awareness = cot_guard_score(brains + rules_arg_int(a, "lookout"), brains);
    int training = cot_guard_score(muscle + rules_arg_int(a, "resist"), muscle);
    json_object_set_new(plan(e, "guards"), rules_arg_str(a, "id"),
                        json_pack("{s:s, s:s, s:i, s:i}", "name", rules_arg_str(a, "name"), "zone",
                                  zone, "awareness", awareness, "training", training));
    rules_enc_log_gm(e, "guard", NULL,
                     json_pack("{s:i, s:i}", "awareness", awareness, "training", training),
                     "%s guards %s: Awareness %d, Training %d", rules_arg_str(a, "name"),
                     zone_name(e, zone), awareness, training);
    return 0;
}

static int act_reveal(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *zone = rules_arg_str(a, "zone");
    if (!json_object_get(plan(e, "zones"), zone))
        return tb_fail(err, TB_NOT_FOUND, "zone: no zone '%.32s' in the Spot", zone);
    if (reveal(e, zone))
        rules_enc_log(e, "reveal", NULL, NULL, "The crew learns of %s", zone_name(e, zone));
    return 0;
}

static int act_alert(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *g = rules_arg_str(a, "guard");
    json_t *pg = json_object_get(plan(e, "guards"), g);
    if (!pg)
        return tb_fail(err, TB_NOT_FOUND, "guard: no guard '%.32s'", g);
    see_guards(e, str_of(pg, "zone"));
    json_object_set_new(json_object_get(shown(e, "guards"), g), "aware",
                        json_boolean(rules_arg_int(a, "aware")));
    rules_enc_log(e, "alert", NULL, NULL, "%s is %s", str_of(pg, "name"),
                  rules_arg_int(a, "aware") ? "Aware" : "no longer Aware");
    return 0;
}

/* ---- the crew in the Spot ---- */

/*
 * A crew member moves to an adjacent zone (000:176-186): through a barrier that is open (or
 * has no security); a Hazardous zone needs an Athletics or Cat Burglary roll (difficulty the
 * zone's `hazard`, 9 by default) or the move fails; with `stealth` a Sneak roll against the
 * highest Awareness in the zone keeps the guards unaware, refused while a guard there is Aware
 * unless the zone is Noisy; without it the guards there see the crew member. A Cat Burglary
 * roll in a Crowded zone makes its guards Aware. Entering reveals the zone, its barriers and
 * its guards.
 */
static int act_move(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *to = rules_arg_str(a, "zone");
    char from[32]; /* a copy: the position is replaced below */
    snprintf(from, sizeof from, "%s", position(e, cid));
    const char *name = rules_enc_name(e, cid), *bid = NULL;
    int stealth = rules_arg_int(a, "stealth");
    const char *hskill = rules_arg_str(a, "skill") ? rules_arg_str(a, "skill") : "athletics";
    json_t *z = json_object_get(plan(e, "zones"), to);
    if (rules_enc_is_npc(e, cid))
        return rules_enc_rule(err, "only the crew moves through the Spot here");
    if (!z || !json_object_get(shown(e, "zones"), to))
        return rules_enc_rule(err, "the crew knows of no such zone; research or find it first");
    if (strcmp(from, to) == 0)
        return rules_enc_rule(err, "%s is already in %s", name, zone_name(e, to));
    json_t *b = barrier_between(e, from, to, &bid);
    if (!b)
        return rules_enc_rule(err, "%s does not lead to %s", zone_name(e, from), zone_name(e, to));
    if (!json_is_true(json_object_get(b, "open")))
        return rules_enc_rule(err, "the way from %s to %s is barred: get past it first",
                              zone_name(e, from), zone_name(e, to));
    if (strcmp(hskill, "athletics") != 0 && strcmp(hskill, "cat_burglary") != 0)
        return tb_fail(err, TB_BAD_REQUEST,
                       "skill: a hazardous zone takes athletics or cat_burglary");
    /* 000:177 "An Aware Guard in the Zone prevents a character from moving with Stealth";
     * 000:183 Noisy: "Stealth rolls are permitted against Aware Guards" */
    if (stealth && zone_has_aware_guard(e, to) && !has_tag(z, "noisy"))
        return rules_enc_rule(err, "an Aware guard in %s: nobody moves there unseen",
                              zone_name(e, to));
    char text[300];
    /* 000:182 Hazardous: "Movement in this zone requires either an Athletics or Cat Burglar
     * Roll" */
    if (has_tag(z, "hazardous")) {
        cot_roll r;
        json_t *dice;
        int rc = crew_roll(e, cid, hskill, 0, &r, &dice, err);
        if (rc)
            return rc;
        int ok = cot_roll_succeeds(&r, int_of(z, "hazard", COT_DIFFICULTY_BASE));
        rules_enc_log(e, "hazard", dice, json_pack("{s:i, s:b}", "total", r.total, "success", ok),
                      "%s tries to cross %s: %s", name, zone_name(e, to),
                      ok ? "makes it" : "cannot get across");
        /* 000:186 Crowded: "Rolls made with Cat Burglar ... cause all Guards in the Zone to
         * become Aware" */
        if (has_tag(z, "crowded") && strcmp(hskill, "cat_burglary") == 0 && alarm_zone(e, to))
            rules_enc_log(e, "aware", NULL, NULL,
                          "The crowd draws the guards' eyes: the guards "
                          "of %s are Aware",
                          zone_name(e, to));
        if (!ok)
            return 0;
    }
    json_object_set_new(shown(e, "crew"), cid, json_string(to));
    see_guards(e, to);
    int aw = zone_awareness(e, to);
    if (aw < 0) {
        rules_enc_log(e, "move", NULL, json_pack("{s:s, s:s}", "from", from, "to", to),
                      "%s moves into %s", name, zone_name(e, to));
        return 0;
    }
    if (!stealth) {
        int n = alarm_zone(e, to);
        snprintf(text, sizeof text, "%s walks into %s in plain sight%s", name, zone_name(e, to),
                 n ? ": the guards there are Aware" : "");
        rules_enc_log(e, "move", NULL, json_pack("{s:s, s:s}", "from", from, "to", to), "%s", text);
        return 0;
    }
    /* 000:177 Stealth roll; 000:196-200 against the highest Awareness in the zone */
    cot_roll r;
    json_t *dice;
    int rc = crew_roll(e, cid, "sneak", 0, &r, &dice, err);
    if (rc)
        return rc;
    int ok = cot_roll_succeeds(&r, aw);
    if (!ok)
        alarm_zone(e, to);
    char gm_text[80];
    snprintf(text, sizeof text, "%s sneaks into %s: %s", name, zone_name(e, to),
             ok ? "unseen" : "spotted: the guards there are Aware");
    snprintf(gm_text, sizeof gm_text, " (%d vs Awareness %d)", r.total, aw);
    log_vs(
        e, "move", dice,
        json_pack("{s:s, s:s, s:i, s:b}", "from", from, "to", to, "total", r.total, "success", ok),
        json_pack("{s:i}", "awareness", aw), text, gm_text);
    return 0;
}

/* Bypassing a barrier (000:188-192): the tag's skill against the Security Score. */
static int act_bypass(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *bid = rules_arg_str(a, "barrier"),
               *skill = rules_arg_str(a, "skill");
    json_t *b = json_object_get(plan(e, "barriers"), bid);
    json_t *pub = json_object_get(shown(e, "barriers"), bid);
    if (!b || !pub)
        return rules_enc_rule(err, "the crew knows of no such barrier");
    const char *here = position(e, cid);
    if (strcmp(str_of(b, "from"), here) != 0 && strcmp(str_of(b, "to"), here) != 0)
        return rules_enc_rule(err, "%s is not at that barrier", rules_enc_name(e, cid));
    if (json_is_true(json_object_get(b, "open")))
        return rules_enc_rule(err, "that way is already open");
    int t = barrier_tag(str_of(b, "tag"));
    if (!skill)
        skill = BARRIER_SKILLS[t][1];
    if (!(BARRIER_SKILLS[t][1] && strcmp(skill, BARRIER_SKILLS[t][1]) == 0) &&
        !(BARRIER_SKILLS[t][2] && strcmp(skill, BARRIER_SKILLS[t][2]) == 0))
        return tb_fail(err, TB_BAD_REQUEST, "skill: a %s is bypassed with %s%s%s", str_of(b, "tag"),
                       BARRIER_SKILLS[t][1], BARRIER_SKILLS[t][2] ? " or " : "",
                       BARRIER_SKILLS[t][2] ? BARRIER_SKILLS[t][2] : "");
    cot_roll r;
    json_t *dice;
    int rc = crew_roll(e, cid, skill, rules_arg_int(a, "bonus"), &r, &dice, err);
    if (rc)
        return rc;
    int score = int_of(b, "score", COT_DIFFICULTY_BASE), ok = cot_roll_succeeds(&r, score);
    if (ok) {
        json_object_set_new(b, "open", json_true());
        json_object_set_new(pub, "open", json_true());
    }
    char text[160], gm_text[60];
    snprintf(text, sizeof text, "%s works at the %s: %s", rules_enc_name(e, cid), str_of(b, "tag"),
             ok ? "it gives way" : "it holds");
    snprintf(gm_text, sizeof gm_text, " (%d vs Security %d)", r.total, score);
    log_vs(e, "bypass", dice, json_pack("{s:i, s:b}", "total", r.total, "success", ok),
           json_pack("{s:i}", "score", score), text, gm_text);
    return 0;
}

/* ---- Prep: research, Foresight, schemes (000:202-222) ---- */

/* A sheet number of the crew member (reputation, heat, foresight, resources). */
static int sheet_num(rules_enc *e, const char *cid, const char *k)
{
    return rules_enc_stat(e, cid, k, 0);
}

/*
 * Research (000:202-211): the goal's difficulty — layout 6 + 1 per zone that is not Hidden,
 * hidden zones (each Hidden zone's rating), a mark 25 − its Connections, an itinerary 20 — with
 * Planning; Connections halves it (rounded up) for 1 Reputation a roll; a stakeout halves it,
 * rolls Lookout, and a Sneak roll against the highest Awareness of the guards in the zones at
 * the edge of the Spot, whose failure raises Heat by 1. Reputation is checked before any die.
 */
static int act_research(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *goal = rules_arg_str(a, "goal"), *how = rules_arg_str(a, "method");
    const char *name = rules_enc_name(e, cid);
    int difficulty, hidden = 0;
    if (strcmp(goal, "layout") == 0) {
        /* 000:207 "Base difficulty of 6 with +1 per zone" */
        difficulty = 6;
        const char *k;
        json_t *v;
        json_object_foreach(plan(e, "zones"), k, v) difficulty += !has_tag(v, "hidden");
    } else if (strcmp(goal, "hidden") == 0) {
        hidden = 1; /* 000:208 against each Hidden zone's rating */
        difficulty = 0;
    } else if (strcmp(goal, "mark") == 0) {
        difficulty = 25 - rules_arg_int(a, "connections"); /* 000:210 */
    } else if (strcmp(goal, "itinerary") == 0) {
        difficulty = 20; /* 000:212 */
    } else {
        return tb_fail(err, TB_BAD_REQUEST,
                       "goal: '%.20s' is not layout, hidden, mark or itinerary", goal);
    }
    const char *skill;
    int halve = 0, stakeout = 0;
    if (strcmp(how, "planning") == 0) {
        skill = "planning"; /* 000:203 */
    } else if (strcmp(how, "connections") == 0) {
        skill = "connections"; /* 000:204 */
        halve = 1;
        if (sheet_num(e, cid, "reputation") < 1)
            return rules_enc_rule(err, "%s has no Reputation left to call on contacts", name);
    } else if (strcmp(how, "stakeout") == 0) {
        skill = "lookout"; /* 000:205 */
        halve = stakeout = 1;
    } else {
        return tb_fail(err, TB_BAD_REQUEST,
                       "method: '%.20s' is not planning, connections or stakeout", how);
    }
    cot_roll r;
    json_t *dice;
    int rc = crew_roll(e, cid, skill, rules_arg_int(a, "bonus"), &r, &dice, err);
    if (rc)
        return rc;
    if (strcmp(how, "connections") == 0)
        rules_enc_stat_add(e, cid, "reputation", -1, 0, 999); /* 000:204 */
    char found[200] = "";
    int ok = 0;
    if (hidden) {
        /* 000:208 "If the roll meets or exceeds the rating attracted to the Zones in the Spot
         * with the Hidden Tag, the character discovers them"; halving halves each rating */
        const char *k;
        json_t *v;
        int n = 0;
        json_object_foreach(plan(e, "zones"), k, v)
        {
            int rating = int_of(v, "rating", COT_DIFFICULTY_BASE);
            if (halve)
                rating = (rating + 1) / 2;
            if (has_tag(v, "hidden") && cot_roll_succeeds(&r, rating) && reveal(e, k))
                n++;
        }
        ok = n > 0;
        snprintf(found, sizeof found, ok ? ": hidden ways found" : ": nothing hidden found");
    } else {
        if (halve)
            difficulty = (difficulty + 1) / 2;
        ok = cot_roll_succeeds(&r, difficulty);
        if (ok && strcmp(goal, "layout") == 0) {
            const char *k;
            json_t *v;
            json_object_foreach(plan(e, "zones"), k, v) if (!has_tag(v, "hidden")) reveal(e, k);
        }
        snprintf(found, sizeof found, ok ? ": success" : ": failure");
    }
    char text[300], gm_text[60];
    snprintf(text, sizeof text, "%s researches the %s by %s%s", name, goal,
             stakeout                          ? "a stakeout"
             : strcmp(how, "connections") == 0 ? "calling on contacts"
                                               : "planning",
             found);
    snprintf(gm_text, sizeof gm_text, hidden ? " (%d)" : " (%d vs %d)", r.total, difficulty);
    log_vs(e, "research", dice,
           json_pack("{s:s, s:s, s:i, s:b}", "goal", goal, "method", how, "total", r.total,
                     "success", ok),
           json_pack("{s:i}", "difficulty", difficulty), text, gm_text);
    if (stakeout) {
        /* 000:205 "roll stealth against the Awareness Score of the Guard(s) nearest the edge of
         * the Spot. Failure on the Stealth roll raises the Crew's Heat." */
        int aw = -1;
        const char *k;
        json_t *v;
        json_object_foreach(plan(e, "guards"), k, v)
        {
            json_t *z = json_object_get(plan(e, "zones"), str_of(v, "zone"));
            if (json_is_true(json_object_get(z, "edge")) && int_of(v, "awareness", 0) > aw)
                aw = int_of(v, "awareness", 0);
        }
        if (aw >= 0) {
            cot_roll s;
            json_t *sd;
            if ((rc = crew_roll(e, cid, "sneak", 0, &s, &sd, err)))
                return rc;
            int unseen = cot_roll_succeeds(&s, aw);
            if (!unseen)
                rules_enc_stat_add(e, cid, "heat", 1, 0, 999);
            char st_text[160], st_gm[60];
            snprintf(st_text, sizeof st_text, "%s watches the Spot %s", name,
                     unseen ? "unnoticed" : "and is noticed: the crew's Heat rises");
            snprintf(st_gm, sizeof st_gm, " (%d vs Awareness %d)", s.total, aw);
            log_vs(e, "stakeout", sd, json_pack("{s:i, s:b}", "total", s.total, "success", unseen),
                   json_pack("{s:i}", "awareness", aw), st_text, st_gm);
        }
    }
    return 0;
}

/* Foresight pool cap: Brains + Planning (000:215). */
static int foresight_max(rules_enc *e, const char *cid)
{
    return stat_in(e, cid, "abilities", "brains", 2) + stat_in(e, cid, "skills", "planning", 0);
}

/* 000:213-215 a Planning roll for Foresight: 1 per 3 points of the total, up to the cap. */
static int act_plan(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor;
    int have = sheet_num(e, cid, "foresight"), cap = foresight_max(e, cid);
    if (have >= cap)
        return rules_enc_rule(err, "%s's Foresight is full (%d, Brains + Planning)",
                              rules_enc_name(e, cid), cap);
    cot_roll r;
    json_t *dice;
    int rc = crew_roll(e, cid, "planning", rules_arg_int(a, "bonus"), &r, &dice, err);
    if (rc)
        return rc;
    int gain = r.catastrophe ? 0 : r.total / FORESIGHT_THRESHOLD;
    if (gain > cap - have)
        gain = cap - have;
    rules_enc_stat_set(e, cid, "foresight", have + gain);
    rules_enc_log(
        e, "plan", dice,
        json_pack("{s:i, s:i, s:i}", "total", r.total, "gained", gain, "foresight", have + gain),
        "%s plans ahead: %d Foresight (now %d of %d)", rules_enc_name(e, cid), gain, have + gain,
        cap);
    return 0;
}

/*
 * A scheme spends Foresight (000:216-222): ambush (1 per zone moved: the crew member is placed
 * in `zone` at once), training (1 per rolled die, 2 per kept die, on the next roll), secrets
 * and switch (3 a roll: the GM lets the roll be made), cache (1 per Resource spent), blueprint
 * (3 at the edge of the Spot or 1, +1 per zone it bypasses: the GM adds the Hidden zone). The
 * cost is checked against the Foresight held before anything changes.
 */
static int act_scheme(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *s = rules_arg_str(a, "scheme"), *name = rules_enc_name(e, cid);
    int rolled = rules_arg_int(a, "rolled"), kept = rules_arg_int(a, "kept");
    int zones = rules_arg_int(a, "zones"), res = rules_arg_int(a, "resources");
    int cost;
    char what[200];
    const char *to = rules_arg_str(a, "zone");
    if (strcmp(s, "ambush") == 0) {
        if (!to || !json_object_get(shown(e, "zones"), to) || zones < 1)
            return tb_fail(err, TB_BAD_REQUEST,
                           "an ambush names a zone the crew knows and the zones moved (zones)");
        cost = zones; /* 000:217 */
        snprintf(what, sizeof what, "was in %s all along", zone_name(e, to));
    } else if (strcmp(s, "training") == 0) {
        if (rolled + kept < 1)
            return tb_fail(err, TB_BAD_REQUEST, "training adds dice: give rolled and/or kept");
        cost = rolled + 2 * kept; /* 000:218 */
        snprintf(what, sizeof what, "trained for it: +%d dice rolled, +%d kept on the next roll",
                 rolled + kept, kept);
    } else if (strcmp(s, "secrets") == 0 || strcmp(s, "switch") == 0) {
        cost = 3; /* 000:219, 000:222 */
        snprintf(what, sizeof what, "%s",
                 strcmp(s, "secrets") == 0 ? "calls in a secret: a Connections, Planning or "
                                             "Mysticism roll"
                                           : "prepared a switch: a disguise or forgery roll");
    } else if (strcmp(s, "cache") == 0) {
        if (res < 1)
            return tb_fail(err, TB_BAD_REQUEST, "a cache spends Resources: give resources");
        if (sheet_num(e, cid, "resources") < res)
            return rules_enc_rule(err, "%s has only %d Resources", name,
                                  sheet_num(e, cid, "resources"));
        cost = res; /* 000:220 */
        snprintf(what, sizeof what, "stashed gear beforehand (%d Resources)", res);
    } else if (strcmp(s, "blueprint") == 0) {
        cost = (rules_arg_int(a, "edge") ? 3 : 1) + zones; /* 000:221 */
        snprintf(what, sizeof what, "knows a hidden way through");
    } else {
        return tb_fail(err, TB_BAD_REQUEST,
                       "scheme: '%.20s' is not ambush, training, secrets, cache, blueprint or "
                       "switch",
                       s);
    }
    int have = sheet_num(e, cid, "foresight");
    if (have < cost)
        return rules_enc_rule(err, "%s has %d Foresight; this takes %d", name, have, cost);
    rules_enc_stat_set(e, cid, "foresight", have - cost);
    if (strcmp(s, "training") == 0) {
        json_t *c = rules_enc_cond_add(e, cid, "training", 0, rolled + kept);
        json_object_set_new(c, "kept", json_integer(kept));
    } else if (strcmp(s, "ambush") == 0) {
        json_object_set_new(shown(e, "crew"), cid, json_string(to));
        see_guards(e, to);
    } else if (strcmp(s, "cache") == 0) {
        rules_enc_stat_add(e, cid, "resources", -res, 0, 9999);
    }
    rules_enc_log(e, "scheme", NULL,
                  json_pack("{s:s, s:i, s:i}", "scheme", s, "cost", cost, "foresight", have - cost),
                  "%s spends %d Foresight: %s", name, cost, what);
    return 0;
}

/* ---- tables ---- */

static const rules_param ZONE_PARAMS[] = {
    {"id", RULES_PARAM_STRING, 1, 24, 0, RULES_PARAM_REQUIRED, "zone id (z1, vault...)"},
    {"name", RULES_PARAM_STRING, 1, 60, 0, RULES_PARAM_REQUIRED, "name the crew will see"},
    {"tags", RULES_PARAM_STRING, 1, 100, 0, 0, "hazardous, noisy, hidden, crowded"},
    {"edge", RULES_PARAM_BOOL, 0, 1, 0, 0, "at the edge of the Spot"},
    {"rating", RULES_PARAM_INT, 0, 60, COT_DIFFICULTY_BASE, 0, "Hidden: the rating to find it"},
    {"hazard", RULES_PARAM_INT, 0, 60, COT_DIFFICULTY_BASE, 0, "Hazardous: the difficulty"},
    {0},
};
static const rules_param BARRIER_PARAMS[] = {
    {"id", RULES_PARAM_STRING, 1, 24, 0, RULES_PARAM_REQUIRED, "barrier id"},
    {"from", RULES_PARAM_STRING, 1, 24, 0, RULES_PARAM_REQUIRED, "a zone id or outside"},
    {"to", RULES_PARAM_STRING, 1, 24, 0, RULES_PARAM_REQUIRED, "a zone id or outside"},
    {"tag", RULES_PARAM_STRING, 1, 12, 0, RULES_PARAM_REQUIRED,
     "lock, vault, height, structure or none"},
    {"score", RULES_PARAM_INT, 0, 60, COT_DIFFICULTY_BASE, 0, "Security Score"},
    {0},
};
static const rules_param GUARD_PARAMS[] = {
    {"id", RULES_PARAM_STRING, 1, 24, 0, RULES_PARAM_REQUIRED, "guard id"},
    {"name", RULES_PARAM_STRING, 1, 60, 0, RULES_PARAM_REQUIRED, "name"},
    {"zone", RULES_PARAM_STRING, 1, 24, 0, RULES_PARAM_REQUIRED, "where the guard stands"},
    {"brains", RULES_PARAM_INT, 1, 10, 2, 0, "Brains"},
    {"lookout", RULES_PARAM_INT, 0, 10, 0, 0, "Lookout"},
    {"muscle", RULES_PARAM_INT, 1, 10, 2, 0, "Muscle"},
    {"resist", RULES_PARAM_INT, 0, 10, 0, 0, "Resist"},
    {0},
};
static const rules_param REVEAL_PARAMS[] = {
    {"zone", RULES_PARAM_STRING, 1, 24, 0, RULES_PARAM_REQUIRED, "zone id"},
    {0},
};
static const rules_param ALERT_PARAMS[] = {
    {"guard", RULES_PARAM_STRING, 1, 24, 0, RULES_PARAM_REQUIRED, "guard id"},
    {"aware", RULES_PARAM_BOOL, 0, 1, 1, 0, "Aware (1) or not (0)"},
    {0},
};
static const rules_param MOVE_PARAMS[] = {
    {"zone", RULES_PARAM_STRING, 1, 24, 0, RULES_PARAM_REQUIRED, "the zone to enter"},
    {"stealth", RULES_PARAM_BOOL, 0, 1, 1, 0, "move unseen (a Sneak roll where guards stand)"},
    {"skill", RULES_PARAM_STRING, 1, 20, 0, 0, "hazardous zone: athletics or cat_burglary"},
    {0},
};
static const rules_param BYPASS_PARAMS[] = {
    {"barrier", RULES_PARAM_STRING, 1, 24, 0, RULES_PARAM_REQUIRED, "barrier id"},
    {"skill", RULES_PARAM_STRING, 1, 20, 0, 0, "the skill (lockpicking, safecracking...)"},
    {"bonus", RULES_PARAM_INT, -10, 10, 0, 0, "+Bk0 for tools"},
    {0},
};
static const rules_param RESEARCH_PARAMS[] = {
    {"goal", RULES_PARAM_STRING, 1, 12, 0, RULES_PARAM_REQUIRED,
     "layout, hidden, mark or itinerary"},
    {"method", RULES_PARAM_STRING, 1, 12, 0, RULES_PARAM_REQUIRED,
     "planning, connections or stakeout"},
    {"connections", RULES_PARAM_INT, 0, 10, 0, 0, "mark: the mark's Connections"},
    {"bonus", RULES_PARAM_INT, -10, 10, 0, 0, "+Bk0"},
    {0},
};
static const rules_param PLAN_PARAMS[] = {
    {"bonus", RULES_PARAM_INT, -10, 10, 0, 0, "+Bk0"},
    {0},
};
static const rules_param SCHEME_PARAMS[] = {
    {"scheme", RULES_PARAM_STRING, 1, 12, 0, RULES_PARAM_REQUIRED,
     "ambush, training, secrets, cache, blueprint or switch"},
    {"rolled", RULES_PARAM_INT, 0, 10, 0, 0, "training: dice added to the roll"},
    {"kept", RULES_PARAM_INT, 0, 10, 0, 0, "training: kept dice added"},
    {"zone", RULES_PARAM_STRING, 1, 24, 0, 0, "ambush: where the crew member turns up"},
    {"zones", RULES_PARAM_INT, 0, 20, 0, 0, "ambush: zones moved; blueprint: zones bypassed"},
    {"resources", RULES_PARAM_INT, 0, 999, 0, 0, "cache: Resources spent"},
    {"edge", RULES_PARAM_BOOL, 0, 1, 0, 0, "blueprint: the zone reaches the edge of the Spot"},
    {0},
};

static const rules_enc_action HEIST_ACTIONS[] = {
    {"zone", "Prepare a zone", RULES_ENC_GM, ZONE_PARAMS, act_zone, "000:176-186"},
    {"barrier", "Prepare a barrier", RULES_ENC_GM, BARRIER_PARAMS, act_barrier, "000:180, 188-192"},
    {"guard", "Place a guard", RULES_ENC_GM, GUARD_PARAMS, act_guard, "000:194-200"},
    {"reveal", "Show a zone", RULES_ENC_GM, REVEAL_PARAMS, act_reveal, "000:174-186"},
    {"alert", "Mark a guard Aware", RULES_ENC_GM, ALERT_PARAMS, act_alert, "000:194"},
    {"move", "Move to a zone", RULES_ENC_OWNER, MOVE_PARAMS, act_move, "000:175-186, 196-200"},
    {"bypass", "Get past a barrier", RULES_ENC_OWNER, BYPASS_PARAMS, act_bypass, "000:188-192"},
    {"research", "Research", RULES_ENC_OWNER, RESEARCH_PARAMS, act_research, "000:202-212"},
    {"plan", "Plan for Foresight", RULES_ENC_OWNER, PLAN_PARAMS, act_plan, "000:213-215"},
    {"scheme", "Spend Foresight", RULES_ENC_OWNER, SCHEME_PARAMS, act_scheme, "000:216-222"},
    {0},
};

/* Written back to the sheet: Reputation (000:204), Heat (000:205), Foresight (000:213-215),
 * Resources (000:220). */
static const char *const HEIST_SHEET_STATS[] = {"reputation", "heat", "foresight", "resources",
                                                NULL};

const rules_module rules_module_cot_heist = {
    .id = "cot.heist",
    .system = "cot",
    .name = "Heist",
    .cite = "000:174-222",
    .join = heist_join,
    .actions = HEIST_ACTIONS,
    .sheet_stats = HEIST_SHEET_STATS,
};
