/*
 * stats.c — a GRIMWIRE combatant's copy of its sheet in an encounter (rules/encounter.h: its
 * `stats`, public for a PC, /gm/enc for an NPC) and its status effects (002:779-878): reading it
 * without creating anything (a check may), and writing it. Shared by the modules grimwire.conflict
 * and grimwire.between (grimwire_enc.h); calls only rules/encounter.h and grimwire.h.
 */
#include <stdio.h>
#include <string.h>

#include "grimwire_enc.h"

/* ---- reading a combatant ---- */

const char *const GW_ATTRS[] = {"tog", "agl", "cor", "mnd", "per", "rsn", NULL};

json_t *gw_obj(json_t *parent, const char *key)
{
    json_t *o = json_object_get(parent, key);
    if (!json_is_object(o)) {
        o = json_object();
        json_object_set_new(parent, key, o);
    }
    return o;
}

int gw_geti(const json_t *o, const char *key, int def)
{
    json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? (int)json_integer_value(v) : def;
}

json_t *gw_comb(const rules_enc *e, const char *cid)
{
    return rules_enc_combatant(e, cid);
}

json_t *gw_hidden_get(const rules_enc *e, const char *cid)
{
    return json_object_get(json_object_get(e->hidden, "combatants"), cid);
}

int gw_npc(const rules_enc *e, const char *cid)
{
    return rules_enc_is_npc(e, cid);
}

json_t *gw_stats(const rules_enc *e, const char *cid)
{
    return json_object_get(gw_npc(e, cid) ? gw_hidden_get(e, cid) : gw_comb(e, cid), "stats");
}

const char *gw_nm(const rules_enc *e, const char *cid)
{
    return rules_enc_name(e, cid);
}

int gw_attr(const rules_enc *e, const char *cid, const char *name)
{
    return gw_geti(json_object_get(gw_stats(e, cid), "attributes"), name, 0);
}

int gw_cond_cur(const rules_enc *e, const char *cid)
{
    return gw_geti(json_object_get(gw_stats(e, cid), "condition"), "current", 0);
}

int gw_burnout(const rules_enc *e, const char *cid)
{
    return gw_geti(gw_stats(e, cid), "burnout", 0);
}

int gw_has(const rules_enc *e, const char *cid, const char *status)
{
    return rules_enc_cond_has(e, cid, status);
}

int gw_dying(const rules_enc *e, const char *cid)
{
    return gw_has(e, cid, "dying");
}

/* ---- status effects (shared conditions, mirrored to the sheet's `status`) ---- */

/* Each status is the sheet's name; what the table reads after "is" / "is no longer" is its word
 * "cond.<name>" in the system's phrasings (phrases.c: issue 25 item 13, "Cyrus is agony" was not
 * English; the common "expire" line reads the same word). */
int gw_is_status(const char *s)
{
    return gw_status_said(s) != NULL;
}

const char *gw_status_said(const char *s)
{
    char key[48];
    if (!s || snprintf(key, sizeof key, "cond.%s", s) >= (int)sizeof key)
        return NULL;
    for (const rules_phrase *p = gw_system_phrases; p->event; p++)
        if (strcmp(p->event, key) == 0)
            return p->text;
    return NULL;
}

void gw_sync_status(rules_enc *e)
{
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        json_t *st = rules_enc_stats(e, cid);
        json_t *list = json_array();
        size_t k;
        json_t *c;
        json_array_foreach(json_object_get(gw_comb(e, cid), "conditions"), k, c)
        {
            const char *n = json_string_value(json_object_get(c, "name"));
            if (n && gw_is_status(n))
                json_array_append_new(list, json_string(n));
        }
        if (json_array_size(list) || json_object_get(st, "status"))
            json_object_set_new(st, "status", list);
        else
            json_decref(list);
    }
}

/* ---- small helpers over the combatant and its sheet copy (stats) ---- */

int gw_sub_int(const rules_enc *e, const char *cid, const char *obj, const char *key)
{
    return (int)json_integer_value(json_object_get(json_object_get(gw_stats(e, cid), obj), key));
}

int gw_stat_int(const rules_enc *e, const char *cid, const char *key, int def)
{
    return gw_geti(gw_stats(e, cid), key, def);
}

void gw_sub_set(rules_enc *e, const char *cid, const char *obj, const char *key, int v)
{
    json_t *stats = rules_enc_stats(e, cid);
    json_t *o = json_object_get(stats, obj);
    if (!json_is_object(o)) {
        o = json_object();
        json_object_set_new(stats, obj, o);
    }
    json_object_set_new(o, key, json_integer(v));
}

int gw_comb_int(const rules_enc *e, const char *cid, const char *key)
{
    return (int)json_integer_value(json_object_get(rules_enc_combatant(e, cid), key));
}

int gw_comb_true(const rules_enc *e, const char *cid, const char *key)
{
    return json_is_true(json_object_get(rules_enc_combatant(e, cid), key));
}

void gw_comb_set(rules_enc *e, const char *cid, const char *key, json_t *v /* stolen */)
{
    json_object_set_new(rules_enc_combatant(e, cid), key, v);
}

/* The stats list `key` of cid (created empty if missing; borrowed). */
json_t *gw_stat_list(rules_enc *e, const char *cid, const char *key)
{
    json_t *stats = rules_enc_stats(e, cid);
    json_t *l = json_object_get(stats, key);
    if (!json_is_array(l)) {
        l = json_array();
        json_object_set_new(stats, key, l);
    }
    return l;
}

/* The stats list `key` of cid, or NULL; creates nothing. */
json_t *gw_stat_list_get(const rules_enc *e, const char *cid, const char *key)
{
    return json_object_get(gw_stats(e, cid), key);
}

/* Index of string s in array l, or -1. */
int gw_list_find(const json_t *l, const char *s)
{
    size_t i;
    json_t *v;
    json_array_foreach(l, i, v)
    {
        if (rules_enc_streq(json_string_value(v), s))
            return (int)i;
    }
    return -1;
}

int gw_in_list(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(s, *list) == 0)
            return 1;
    return 0;
}

static int has_status(const void *ctx, const char *status)
{
    return gw_list_find(json_object_get((const json_t *)ctx, "status"), status) >= 0;
}

int gw_pc_only(const rules_enc *e, tb_err *err)
{
    if (e->actor && gw_npc(e, e->actor))
        return rules_enc_rule(err,
                              "between the scenes is for the players' characters; %s is not "
                              "one",
                              gw_nm(e, e->actor));
    if (e->actor && rules_enc_is_out(e, e->actor))
        return rules_enc_rule(err, "%s is out of the scene", gw_nm(e, e->actor));
    return 0;
}

int gw_able(const rules_enc *e, tb_err *err)
{
    if (gw_pc_only(e, err))
        return err->code;
    /* 002:256 "A dying character is out cold and therefore can't do anything" */
    if (e->actor && gw_sub_int(e, e->actor, "condition", "current") <= 0)
        return rules_enc_rule(err, "%s is dying: out cold, and can do nothing until stabilized",
                              gw_nm(e, e->actor));
    return 0;
}

/* Rolls cid's d20 + attribute `attr` + burnout penalty (002:244-248) + status effects against tn
 * (002:19-21); appends the die to dice. */
grimwire_roll gw_sheet_roll(rules_enc *e, const char *cid, const char *attr, int tn, json_t *dice)
{
    grimwire_roll r = {0};
    r.attr = gw_sub_int(e, cid, "attributes", attr);
    r.mod = grimwire_burnout_penalty(gw_stat_int(e, cid, "burnout", 0)) +
            grimwire_status_mod(attr, GRIMWIRE_USE_PLAIN, has_status, gw_stats(e, cid));
    if (strcmp(attr, "agl") == 0) /* 002:753 armor too heavy for the wearer */
        r.mod += grimwire_armor_agl(gw_sub_int(e, cid, "attributes", "tog"),
                                    gw_stat_int(e, cid, "armor_tog", 0));
    r.tn = tn;
    r.ff = 1;
    grimwire_roll_d20(&r, e->rng, dice);
    return r;
}
