/*
 * words.c — the log of GRIMWIRE's encounter modules (rules/encounter.h, "The log"): the helpers
 * that put a roll and a result into an event with their audience. The phrasings themselves are
 * the tables of phrases.c.
 */
#include <stdlib.h>
#include <string.h>

#include "grimwire_enc.h"

/* Every key a GRIMWIRE entry's `result` holds: rules_log keeps its keys borrowed, so the keys of a
 * result object built as JSON are matched to these static ones (gw_log_res). */
static const char *const RESULT_KEYS[] = {"agl",
                                          "alert",
                                          "armor",
                                          "attack",
                                          "attacker",
                                          "attacker_natural",
                                          "attacker_total",
                                          "avoid_tn",
                                          "broken",
                                          "burnout",
                                          "by",
                                          "cause",
                                          "collateral",
                                          "condition",
                                          "condition_before",
                                          "condition_focus",
                                          "cor",
                                          "cor_ok",
                                          "cor_tn",
                                          "cor_totals",
                                          "critical",
                                          "damage",
                                          "day",
                                          "drop",
                                          "effect",
                                          "effort",
                                          "evade",
                                          "evade_natural",
                                          "evade_total",
                                          "focus",
                                          "focus_before",
                                          "from",
                                          "gain",
                                          "grappler",
                                          "grappler_natural",
                                          "grappler_total",
                                          "hit",
                                          "hours",
                                          "immune",
                                          "item",
                                          "landed",
                                          "learned",
                                          "level",
                                          "mnd_ok",
                                          "mnd_tn",
                                          "mnd_total",
                                          "mod",
                                          "name",
                                          "natural",
                                          "on",
                                          "order",
                                          "points",
                                          "quality",
                                          "rsn_ok",
                                          "raise",
                                          "resist",
                                          "roll",
                                          "rolled",
                                          "round",
                                          "rsn",
                                          "side",
                                          "skip",
                                          "spare",
                                          "stories",
                                          "success",
                                          "take",
                                          "target",
                                          "target_natural",
                                          "target_total",
                                          "technique",
                                          "tn",
                                          "to",
                                          "total",
                                          "type",
                                          "unrested",
                                          "unstable_die",
                                          "uses",
                                          "uses_round",
                                          "weak",
                                          "weapon",
                                          "who",
                                          "why",
                                          "with_action",
                                          "xp",
                                          "attr",
                                          "bonus",
                                          NULL};

static const char *result_key(const char *k)
{
    for (const char *const *s = RESULT_KEYS; *s; s++)
        if (strcmp(*s, k) == 0)
            return *s;
    abort(); /* a result key not listed above: a programming error */
}

void gw_log_res(rules_log *x, json_t *res, rules_aud aud)
{
    const char *k;
    json_t *v;
    json_object_foreach(res, k, v) rules_log_json(x, result_key(k), json_incref(v), aud);
    json_decref(res);
}

void gw_log_roll(rules_log *x, const grimwire_roll *r, int secret_numbers, rules_aud aud)
{
    rules_log_int(x, "natural", r->natural, aud);
    rules_log_json(x, "success", json_boolean(r->success), aud);
    if (!secret_numbers) {
        rules_log_int(x, "attr", r->attr, aud);
        rules_log_int(x, "mod", r->mod, aud);
        rules_log_int(x, "total", r->total, aud);
    }
    if (r->attack) {
        rules_log_json(x, "critical", json_boolean(r->critical), aud);
        rules_log_json(x, "collateral", json_boolean(r->collateral), aud);
    }
}

void gw_log_who(rules_enc *e, const char *action, const char *event, const char *cid)
{
    rules_log *x = rules_log_begin(e, action, event);
    rules_log_json(x, "target", json_string(cid), RULES_AUD_PUBLIC);
    rules_log_who(x, "who", cid);
    rules_log_end(x);
}

void gw_log_source(rules_log *x, gw_source src, rules_aud aud)
{
    rules_log_word(x, "src", src.word, aud);
    if (src.by)
        rules_log_who(x, "by", src.by);
    if (src.weapon)
        rules_log_name(x, "weapon", src.weapon, aud);
}

void gw_log_for(rules_log *x, rules_aud aud)
{
    rules_log_name(x, "aud", "", aud);
}

void gw_log_actor(rules_enc *e, const char *action, const char *event)
{
    rules_log *x = rules_log_begin(e, action, event);
    rules_log_who(x, "who", e->actor);
    rules_log_end(x);
}

void gw_log_pair(rules_enc *e, const char *action, const char *event, const char *cid,
                 const char *t)
{
    rules_log *x = rules_log_begin(e, action, event);
    rules_log_json(x, "target", json_string(t), RULES_AUD_PUBLIC);
    rules_log_who(x, "who", cid);
    rules_log_who(x, "other", t);
    rules_log_end(x);
}

void gw_log_rolled(rules_enc *e, const char *action, const char *event, const char *cid, int rolled,
                   json_t *dice)
{
    rules_log *x = rules_log_begin(e, action, event);
    rules_log_json(x, "target", json_string(cid), RULES_AUD_PUBLIC);
    rules_log_int(x, "rolled", rolled, RULES_AUD_PUBLIC);
    rules_log_who(x, "who", cid);
    if (dice)
        rules_log_dice(x, dice, RULES_AUD_PUBLIC);
    json_decref(dice);
    rules_log_end(x);
}
