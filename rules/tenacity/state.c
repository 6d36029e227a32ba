/*
 * state.c — what a 10acity encounter holds and how to read it (tenacity_enc.h): the spotlight's
 * lists and flags, stats and tracks, skills, conditions and their challenges, the social
 * standing scale, the fight's states (cover, prone, size, resistances, grips) and the module
 * hooks the three modules share. Calls only rules/encounter.h. Rulebook
 * 003_632e2c704060b738.txt, cited 003:LINE; readings in rules/RULES.md, "## tenacity".
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "tenacity_enc.h"

/* ---- /enc lists and flags ---- */

json_t *ten_list(rules_enc *e, const char *key)
{
    json_t *a = json_object_get(e->enc, key);
    if (!json_is_array(a)) {
        a = json_array();
        json_object_set_new(e->enc, key, a);
    }
    return a;
}

int ten_has(const json_t *list, const char *cid)
{
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v)
    {
        if (json_string_value(v) && rules_enc_streq(json_string_value(v), cid))
            return 1;
    }
    return 0;
}

void ten_put(json_t *list, const char *cid)
{
    if (!ten_has(list, cid))
        json_array_append_new(list, json_string(cid));
}

void ten_drop(json_t *list, const char *cid)
{
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v)
    {
        if (rules_enc_streq(json_string_value(v), cid)) {
            json_array_remove(list, i);
            return;
        }
    }
}

int ten_listed(const rules_enc *e, const char *key, const char *cid)
{
    return ten_has(json_object_get(e->enc, key), cid);
}

const char *ten_str(const rules_enc *e, const char *key)
{
    return json_string_value(json_object_get(e->enc, key));
}

void ten_set_str(rules_enc *e, const char *key, const char *v)
{
    json_object_set_new(e->enc, key, v ? json_string(v) : json_null());
}

int ten_flag(const rules_enc *e, const char *key)
{
    return json_is_true(json_object_get(e->enc, key));
}

void ten_set_flag(rules_enc *e, const char *key, int v)
{
    json_object_set_new(e->enc, key, json_boolean(v));
}

int ten_option(const rules_enc *e, const char *name)
{
    json_t *v = json_object_get(json_object_get(e->enc, "options"), name);
    return json_is_true(v) || (json_is_integer(v) && json_integer_value(v) != 0);
}

/* ---- who ---- */

const char *ten_holder(const rules_enc *e)
{
    return ten_str(e, "spotlight");
}

int ten_acted(const rules_enc *e, const char *cid)
{
    return ten_listed(e, "acted", cid);
}

int ten_opposed(const rules_enc *e, const char *a, const char *b)
{
    return strcmp(rules_enc_side(e, a), rules_enc_side(e, b)) != 0;
}

int ten_present(const rules_enc *e, const char *cid)
{
    return rules_enc_combatant(e, cid) && !rules_enc_is_out(e, cid);
}

/* ---- stats ---- */

json_t *ten_stats(const rules_enc *e, const char *cid)
{
    json_t *c = rules_enc_combatant(e, cid);
    json_t *h =
        json_object_get(json_object_get(json_object_get(e->hidden, "combatants"), cid), "stats");
    if (!c || rules_enc_is_npc(e, cid))
        return json_is_object(h) ? h : NULL;
    json_t *s = json_object_get(c, "stats");
    return json_is_object(s) ? s : NULL;
}

int ten_stat(const rules_enc *e, const char *cid, const char *key, int def)
{
    json_t *v = json_object_get(ten_stats(e, cid), key);
    return json_is_integer(v) ? (int)json_integer_value(v) : def;
}

int ten_budget(const rules_enc *e, const char *cid, const char *kind)
{
    json_t *b = json_object_get(rules_enc_combatant(e, cid), "budget");
    return (int)json_integer_value(json_object_get(b, kind));
}

int ten_unconscious(const rules_enc *e, const char *cid)
{
    return json_is_true(json_object_get(ten_stats(e, cid), "unconscious"));
}

int ten_spin(const rules_enc *e, const char *cid)
{
    return ten_stat(e, cid, "spin", 0);
}

void ten_spin_add(rules_enc *e, const char *cid, int delta)
{
    /* 003:37 "you can never have more than 10 points of negative spin" */
    rules_enc_stat_add(e, cid, "spin", delta, -TENACITY_NEGATIVE_SPIN_MAX, 99);
}

json_t *ten_track(rules_enc *e, const char *cid, const char *key, int def_max)
{
    json_t *st = rules_enc_stats(e, cid);
    json_t *t = json_object_get(st, key);
    if (!json_is_object(t)) {
        t = json_pack("{s:i, s:i}", "current", 0, "max", def_max);
        json_object_set_new(st, key, t);
    }
    return t;
}

int ten_track_now(const rules_enc *e, const char *cid, const char *key)
{
    return (int)json_integer_value(
        json_object_get(json_object_get(ten_stats(e, cid), key), "current"));
}

json_t *ten_skills(const rules_enc *e, const char *cid)
{
    json_t *s = json_object_get(ten_stats(e, cid), "skills");
    return json_is_object(s) ? s : NULL;
}

json_t *ten_skills_of_sheet(const json_t *sheet)
{
    /* the skills an encounter rolls: {name: [attribute dice, rank, impact bonus, attribute]} */
    json_t *skills = json_object();
    size_t i, k, q;
    json_t *attr, *sk, *eq;
    json_array_foreach(json_object_get(sheet, "attributes"), i, attr)
    {
        json_array_foreach(json_object_get(attr, "skills"), k, sk)
        {
            const char *name = json_string_value(json_object_get(sk, "name"));
            int bonus = 0;
            /* 003:119 one item per action: the best bonus of an item for that skill */
            json_array_foreach(json_object_get(sheet, "equipment"), q, eq)
            {
                const char *s = json_string_value(json_object_get(eq, "skill"));
                int b = (int)json_integer_value(json_object_get(eq, "impact_bonus"));
                if (s && name && strcmp(s, name) == 0 && b > bonus)
                    bonus = b;
            }
            json_object_set_new(skills, name,
                                json_pack("[i, i, i, O]",
                                          (int)json_integer_value(json_object_get(attr, "dice")),
                                          (int)json_integer_value(json_object_get(sk, "rank")),
                                          bonus, json_object_get(attr, "name")));
        }
    }
    return skills;
}

int ten_same(const char *a, const char *b)
{
    if (!a || !b)
        return 0;
    while (*a && *b && tolower((unsigned char)*a) == tolower((unsigned char)*b))
        a++, b++;
    return *a == 0 && *b == 0;
}

/* ---- conditions (003:96-105) ---- */

static int geti(const json_t *o, const char *k)
{
    return (int)json_integer_value(json_object_get(o, k));
}

int ten_covers(const rules_enc *e, const char *cid, const char *what, const char *skill)
{
    if (ten_same(what, "all") || ten_same(what, skill))
        return 1;
    if (ten_same(skill, "move") && ten_same(what, "movement"))
        return 1;
    json_t *sk = json_object_get(ten_skills(e, cid), skill);
    return sk && ten_same(what, json_string_value(json_array_get(sk, 3)));
}

int ten_hinder_on(const rules_enc *e, const char *cid, const char *skill, const char **stop,
                  const char *skip)
{
    int pen = 0;
    size_t i;
    json_t *c;
    if (stop)
        *stop = NULL;
    json_array_foreach(json_object_get(rules_enc_combatant(e, cid), "conditions"), i, c)
    {
        const char *kind = json_string_value(json_object_get(c, "kind"));
        const char *what = json_string_value(json_object_get(c, "what"));
        if (!kind || !ten_covers(e, cid, what, skill) ||
            (skip && ten_same(json_string_value(json_object_get(c, "name")), skip)))
            continue;
        if (strcmp(kind, "hinder") == 0 && geti(c, "level") > pen)
            pen = geti(c, "level");
        if (strcmp(kind, "stop") == 0 && stop)
            *stop = json_string_value(json_object_get(c, "name"));
    }
    return pen;
}

json_t *ten_cond_find(const rules_enc *e, const char *cid, const char *what)
{
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(rules_enc_combatant(e, cid), "conditions"), i, c)
    {
        if (!json_object_get(c, "kind"))
            continue;
        if (ten_same(json_string_value(json_object_get(c, "name")), what) ||
            ten_same(json_string_value(json_object_get(c, "what")), what))
            return c;
    }
    return NULL;
}

json_t *ten_cond_challenges(rules_enc *e, const char *cid)
{
    json_t *h = rules_enc_hidden_of(e, cid);
    json_t *c = json_object_get(h, "conds");
    if (!json_is_object(c)) {
        c = json_object();
        json_object_set_new(h, "conds", c);
    }
    return c;
}

/* The recorded challenges of cid's conditions, or NULL. */
static json_t *challenges_peek(const rules_enc *e, const char *cid)
{
    return json_object_get(json_object_get(json_object_get(e->hidden, "combatants"), cid), "conds");
}

int ten_cond_challenge(const rules_enc *e, const char *cid, const char *name)
{
    json_t *v = json_object_get(challenges_peek(e, cid), name);
    return json_is_integer(v) ? (int)json_integer_value(v) : 7;
}

void ten_cond_put(rules_enc *e, const char *cid, const char *name, const char *kind,
                  const char *what, int level, int challenge)
{
    char buf[120];
    if (!name) {
        snprintf(buf, sizeof buf, "%s:%s", kind, what);
        name = buf;
    }
    rules_enc_cond_add(e, cid, name, 0, level);
    json_t *c = rules_enc_cond(e, cid, name);
    json_object_set_new(c, "kind", json_string(kind));
    json_object_set_new(c, "what", json_string(what));
    json_object_set_new(ten_cond_challenges(e, cid), name, json_integer(challenge));
}

/* The sheet's conditions follow the encounter's (write-back, ops_enc.c): [{kind, what, value,
 * challenge (NPCs only: a PC's stats are public)}]. */
void ten_sync_conditions(rules_enc *e)
{
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        json_t *stats = rules_enc_stats(e, cid);
        json_t *out = json_array();
        size_t k;
        json_t *c;
        json_array_foreach(json_object_get(rules_enc_combatant(e, cid), "conditions"), k, c)
        {
            const char *kind = json_string_value(json_object_get(c, "kind"));
            if (!kind)
                continue;
            json_t *o = json_pack("{s:s, s:O}", "kind", kind, "what", json_object_get(c, "what"));
            if (geti(c, "level"))
                json_object_set_new(o, "value", json_integer(geti(c, "level")));
            json_t *ch = json_object_get(ten_cond_challenges(e, cid),
                                         json_string_value(json_object_get(c, "name")));
            if (rules_enc_is_npc(e, cid) && json_is_integer(ch))
                json_object_set(o, "challenge", ch);
            json_array_append_new(out, o);
        }
        if (json_array_size(out) || json_object_get(stats, "conditions"))
            json_object_set_new(stats, "conditions", out);
        else
            json_decref(out);
    }
}

/* ---- the social standing scale (003:49, 003:70) ---- */

json_t *ten_standing_all(rules_enc *e)
{
    json_t *all = json_object_get(e->enc, "standing");
    if (!json_is_object(all)) {
        all = json_object();
        json_object_set_new(e->enc, "standing", all);
    }
    return all;
}

int ten_standing_of(const rules_enc *e, const char *who, const char *eyes, int def)
{
    json_t *v = json_object_get(json_object_get(json_object_get(e->enc, "standing"), who), eyes);
    return json_is_integer(v) ? (int)json_integer_value(v) : def;
}

void ten_standing_set(rules_enc *e, const char *who, const char *eyes, int v)
{
    json_t *all = ten_standing_all(e), *mine = json_object_get(all, who);
    if (!json_is_object(mine)) {
        mine = json_object();
        json_object_set_new(all, who, mine);
    }
    json_object_set_new(mine, eyes, json_integer(v));
}

int ten_standing_move(rules_enc *e, const char *who, const char *eyes, int from, int delta)
{
    /* 003:70 10 wins, 0 loses all credibility; it goes no further */
    int after = from + delta;
    after = after < 0 ? 0 : after > TEN_STANDING_TOP ? TEN_STANDING_TOP : after;
    ten_standing_set(e, who, eyes, after);
    return after;
}

/* ---- the fight's states (003:104-123) ---- */

const char *ten_cover(const rules_enc *e, const char *cid)
{
    return json_string_value(json_object_get(rules_enc_combatant(e, cid), "cover"));
}

int ten_is(const rules_enc *e, const char *cid, const char *key)
{
    return json_is_true(json_object_get(rules_enc_combatant(e, cid), key));
}

int ten_size(const rules_enc *e, const char *cid)
{
    return (int)json_integer_value(json_object_get(rules_enc_combatant(e, cid), "size"));
}

/* Where cid's resistances are kept: a PC's on its public combatant, an NPC's with the GM. */
static json_t *resist_home(const rules_enc *e, const char *cid)
{
    if (rules_enc_is_npc(e, cid))
        return json_object_get(json_object_get(e->hidden, "combatants"), cid);
    return rules_enc_combatant(e, cid);
}

int ten_resist_of(const rules_enc *e, const char *cid, const char *type)
{
    /* 003:120 "how much damage they ignore ... or the bonus they receive to their rolls to avoid
     * conditions from a source of that type" */
    if (!type)
        return 0;
    return (int)json_integer_value(
        json_object_get(json_object_get(resist_home(e, cid), "resist"), type));
}

json_t *ten_resists(rules_enc *e, const char *cid)
{
    json_t *home =
        rules_enc_is_npc(e, cid) ? rules_enc_hidden_of(e, cid) : rules_enc_combatant(e, cid);
    json_t *r = json_object_get(home, "resist");
    if (!json_is_object(r)) {
        r = json_object();
        json_object_set_new(home, "resist", r);
    }
    return r;
}

json_t *ten_grip_of(const rules_enc *e, const char *cid)
{
    json_t *g = json_object_get(rules_enc_combatant(e, cid), "grip");
    return json_is_object(g) ? g : NULL;
}

const char *ten_grip_by(const rules_enc *e, const char *cid)
{
    return json_string_value(json_object_get(ten_grip_of(e, cid), "by"));
}

int ten_grip_cond(const char *name)
{
    return name && (strcmp(name, TEN_GRAPPLED) == 0 || strcmp(name, TEN_LOCKED) == 0);
}

void ten_grip_end(rules_enc *e, const char *cid)
{
    const char *by = ten_grip_by(e, cid);
    if (by)
        json_object_del(rules_enc_combatant(e, by), "gripping");
    json_object_del(rules_enc_combatant(e, cid), "grip");
    rules_enc_cond_remove(e, cid, TEN_GRAPPLED);
    rules_enc_cond_remove(e, cid, TEN_LOCKED);
    json_object_del(ten_cond_challenges(e, cid), TEN_GRAPPLED);
    json_object_del(ten_cond_challenges(e, cid), TEN_LOCKED);
}

void ten_grip_lost(rules_enc *e, const char *cid, int dead)
{
    const char *held = json_string_value(json_object_get(rules_enc_combatant(e, cid), "gripping"));
    if (held) {
        char keep[64];
        snprintf(keep, sizeof keep, "%s", held);
        ten_grip_end(e, keep);
        ten_say_to(e, "escape", "free", keep, "holder", cid);
    }
    if (dead && ten_grip_of(e, cid))
        ten_grip_end(e, cid);
}

int ten_grip_may_shake(const rules_enc *e, const char *cid, const char *name, int action,
                       tb_err *err)
{
    if (name && strcmp(name, TEN_LOCKED) == 0 && !action)
        return rules_enc_rule(err,
                              "%s breaks a lock only with an action, not the free roll at the end "
                              "of the turn (003:105)",
                              rules_enc_name(e, cid));
    if (name && strcmp(name, TEN_GRAPPLED) == 0 && rules_enc_cond_has(e, cid, TEN_LOCKED))
        return rules_enc_rule(err,
                              "%s is locked: the lock must be broken before the grapple (003:105)",
                              rules_enc_name(e, cid));
    return 0;
}

void ten_grip_shaken(rules_enc *e, const char *cid, const char *name)
{
    json_t *g = ten_grip_of(e, cid);
    if (!g)
        return;
    if (strcmp(name, TEN_LOCKED) == 0) {
        /* 003:105 "if they succeed, then the lock reverts back to a grapple" */
        json_object_set_new(g, "locked", json_false());
        rules_log *x = rules_log_begin(e, "escape", "lock_broken");
        rules_log_who(x, "who", cid);
        rules_log_end(x);
    } else if (strcmp(name, TEN_GRAPPLED) == 0) {
        /* 003:104 "if they succeed, then the grapple ends" */
        ten_grip_end(e, cid);
        rules_log *x = rules_log_begin(e, "escape", "grapple_broken");
        rules_log_who(x, "who", cid);
        rules_log_end(x);
    }
}

void ten_coup_fail(rules_enc *e, const char *cid, const char *why)
{
    json_t *c = rules_enc_combatant(e, cid);
    if (!json_object_get(c, "coup"))
        return;
    json_object_del(c, "coup");
    rules_log *x = rules_log_begin(e, "coup", "coup_fail");
    rules_log_who(x, "who", cid);
    rules_log_word(x, "why", why, RULES_AUD_PUBLIC);
    rules_log_end(x);
}

/* ---- parameters ---- */

const char *ten_arg_str(const rules_args *a, const char *name)
{
    for (int i = 0; a->params && a->params[i].name; i++)
        if (strcmp(a->params[i].name, name) == 0)
            return a->sval[i];
    return NULL;
}

int ten_arg_int(const rules_args *a, const char *name, int def)
{
    for (int i = 0; a->params && a->params[i].name; i++)
        if (strcmp(a->params[i].name, name) == 0)
            return a->ival[i];
    return def;
}

int ten_arg_given(const rules_args *a, const char *name)
{
    for (int i = 0; a->params && a->params[i].name; i++)
        if (strcmp(a->params[i].name, name) == 0)
            return a->given[i];
    return 0;
}

const char *ten_skill_arg(const rules_args *a)
{
    const char *s = ten_arg_str(a, "skill");
    return s ? s : "-";
}

/* ---- the hooks the modules share ---- */

int ten_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    (void)err;
    json_t *stats = rules_enc_stats(e, cid);
    if (sheet) {
        json_object_set_new(stats, "skills", ten_skills_of_sheet(sheet));
        size_t i;
        json_t *eq;
        /* the sheet's conditions enter the encounter */
        json_array_foreach(json_object_get(sheet, "conditions"), i, eq)
        {
            json_t *ch = json_object_get(eq, "challenge");
            ten_cond_put(e, cid, NULL, json_string_value(json_object_get(eq, "kind")),
                         json_string_value(json_object_get(eq, "what")),
                         (int)json_integer_value(json_object_get(eq, "value")),
                         json_is_integer(ch) ? (int)json_integer_value(ch) : 7);
        }
    } else {
        /* a quick NPC: the NPC card's challenge dice (003:13-14); the GM sets them with enc.set
         * under /gm/enc/combatants/<id>/stats */
        json_object_set_new(stats, "challenge_dice", json_integer(2));
        json_object_set_new(stats, "challenge_bonus", json_integer(0));
        json_object_set_new(stats, "impact_dice", json_integer(1));
        json_object_set_new(stats, "impact_bonus", json_integer(0));
        ten_track(e, cid, "stress", 6);
        ten_track(e, cid, "wounds", 0);
    }
    if (ten_unconscious(e, cid))
        rules_enc_cond_add(e, cid, "unconscious", 0, 0);
    /* joining a running fight: last in the order; acts when the spotlight reaches them */
    if (rules_enc_round(e) > 0)
        json_array_append_new(json_object_get(e->enc, "order"), json_string(cid));
    ten_sync_conditions(e);
    return 0;
}

void ten_help_end(rules_enc *e, const char *cid)
{
    json_t *me = rules_enc_combatant(e, cid);
    json_object_del(me, "helped_by");
    json_object_del(me, "help_skill");
    json_object_del(json_object_get(json_object_get(e->hidden, "combatants"), cid), "help_skill");
    rules_enc_cond_remove(e, cid, "helped");
}

/* 003:74 "Stress is recovered automatically at the end of a scene" */
void ten_recover_stress(rules_enc *e, const char *action)
{
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        json_t *st = ten_track(e, cid, "stress", 0);
        int was = (int)json_integer_value(json_object_get(st, "current"));
        if (was <= 0)
            continue;
        /* an NPC's stress is the GM's: that it had some, too */
        rules_aud aud = rules_enc_aud_of(e, cid);
        rules_log *x = rules_log_begin(e, action, "recovers");
        rules_log_who(x, "who", cid);
        rules_log_int(x, "stress", 0, aud);
        rules_log_int(x, "was", was, aud);
        rules_log_word(x, "aud", "w.gm", aud);
        rules_log_end(x);
        json_object_set_new(st, "current", json_integer(0));
    }
}

/* 003:94 (and 003:92): "After an encounter is over, you lose all points of Spin UNLESS you have
 * negative Spin"; negative spin stays until earned back. */
int ten_end(rules_enc *e, tb_err *err)
{
    (void)err;
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        if (rules_enc_stat(e, cid, "spin", 0) > 0)
            rules_enc_stat_set(e, cid, "spin", 0);
    /* 003:74 the end of a fight or a conversation is the end of a scene */
    ten_recover_stress(e, "end");
    return 0;
}

/* What the GM adjusts mid-scene: the Stress and Wounds tracks (003:66), 10acity points (003:93),
 * Spin (003:37: at most 10 negative) and Unconscious (003:106), in the ranges of the sheet, and
 * a sheetless NPC's card. */
const rules_enc_field ten_editable[] = {
    {"stats/stress/current", RULES_PARAM_INT, 0, 999, "stress"},
    {"stats/stress/max", RULES_PARAM_INT, 0, 999, "maximum stress"},
    {"stats/wounds/current", RULES_PARAM_INT, 0, 999, "wounds"},
    {"stats/wounds/max", RULES_PARAM_INT, 0, 999, "maximum wounds"},
    {"stats/tenacity", RULES_PARAM_INT, 0, 99, "10acity points"},
    {"stats/spin", RULES_PARAM_INT, -TENACITY_NEGATIVE_SPIN_MAX, 99, "spin"},
    {"stats/unconscious", RULES_PARAM_BOOL, 0, 1, "unconsciousness"},
    /* a sheetless NPC's card (003:13-14; RULES.md, tenacity encounters) */
    {"stats/challenge_dice", RULES_PARAM_INT, 0, 20, "challenge dice"},
    {"stats/challenge_bonus", RULES_PARAM_INT, -20, 20, "challenge bonus"},
    {"stats/impact_dice", RULES_PARAM_INT, 0, 10, "impact dice"},
    {"stats/impact_bonus", RULES_PARAM_INT, -20, 20, "impact bonus"},
    {NULL, 0, 0, 0, NULL},
};

/* Damage, wounds, spin, 10acity and conditions land on the sheets (003:66, 003:94, 003:97). */
const char *const ten_sheet_stats[] = {"stress",      "wounds",     "tenacity", "spin",
                                       "unconscious", "conditions", NULL};
