/*
 * grip.c — grabs (the brawl attack's bind, 001:130-135, 401, 407), guards (001:345, 448-456)
 * and moving someone (001:458-465), for the Heimr encounter modules (heimr_enc.h).
 *
 * A grab is in plain sight: the bound combatant's public `held_by` {by, part} (part: the body
 * part of the brawl roll's d6, 001:407) and the holder's public `holding` (the bound one's id).
 * A guard is public too (`guarding`: 001:450, the opponent sees who stands in the way).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "heimr_enc.h"

/* ---- grabs ---- */

const char *heimr_holder_of(const rules_enc *e, const char *cid)
{
    /* the `held_by` holder, as long as it is still in the encounter and holds cid (a holder the
     * GM removed holds nobody) */
    json_t *h = json_object_get(rules_enc_combatant(e, cid), "held_by");
    const char *by = json_string_value(json_object_get(h, "by"));
    json_t *hc = by ? rules_enc_combatant(e, by) : NULL;
    return hc && rules_enc_streq(json_string_value(json_object_get(hc, "holding")), cid) ? by
                                                                                         : NULL;
}

const char *heimr_held_part(const rules_enc *e, const char *cid)
{
    if (!heimr_holder_of(e, cid))
        return NULL;
    json_t *h = json_object_get(rules_enc_combatant(e, cid), "held_by");
    return json_string_value(json_object_get(h, "part"));
}

/* 001:134-135 bound legs or body: "You can not walk or run", "You can not move from your current
 * position"; the torso's d6 binds the body (RULES.md, heimr encounter reading 14). */
int heimr_held_in_place(const rules_enc *e, const char *cid)
{
    const char *p = heimr_held_part(e, cid);
    return p && (strcmp(p, "torso") == 0 || strstr(p, "leg") != NULL);
}

int heimr_may_move_check(const rules_enc *e, const char *cid, tb_err *err)
{
    if (heimr_held_in_place(e, cid))
        return rules_enc_rule(err, "%s is held by the %s and cannot move from the spot (001:135)",
                              rules_enc_name(e, cid), heimr_part_words(heimr_held_part(e, cid)));
    return 0;
}

void heimr_bind_end(rules_enc *e, const char *holder, const char *why)
{
    /* why: the word of the release ("release.lost", ...: words.c) */
    json_t *h = rules_enc_combatant(e, holder);
    json_t *bound = json_incref(json_object_get(h, "holding"));
    if (!bound)
        return;
    const char *bid = json_string_value(bound);
    json_t *b = bid ? rules_enc_combatant(e, bid) : NULL;
    rules_log *x = rules_log_begin(e, "release", "release");
    rules_log_who(x, "who", holder);
    if (b)
        rules_log_who(x, "whom", bid);
    rules_log_word(x, "why", why, RULES_AUD_PUBLIC);
    rules_log_end(x);
    if (b && rules_enc_streq(heimr_holder_of(e, bid), holder))
        json_object_del(b, "held_by");
    json_object_del(h, "holding");
    json_decref(bound);
}

/* A holder must act to hold on: 001:128 dazed "can not attack, defend or use a skill". */
void heimr_restraint_tidy(rules_enc *e)
{
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        json_t *c = rules_enc_combatant(e, cid);
        const char *b = json_string_value(json_object_get(c, "holding"));
        if (b && (!rules_enc_combatant(e, b) || rules_enc_is_out(e, cid) ||
                  rules_enc_is_out(e, b) || rules_enc_cond_has(e, cid, "daze")))
            heimr_bind_end(e, cid, "release.lost");
        if (json_object_get(c, "held_by") && !heimr_holder_of(e, cid))
            json_object_del(c, "held_by");
    }
}

/*
 * 001:407 "If you have an opponent grabbed, you can stop any of their actions that require a
 * physical dice challenge, by rolling the brawl ability. The result of your brawl roll counts as
 * a challenge requirement for the action." The holder of `bound` always tries (the server cannot
 * ask mid-action; RULES.md, heimr encounter reading 15): it rolls Brawl, a physical roll with its
 * fatigue requirement (a roll that fails it sets no requirement) and rise. An NPC holder's roll
 * is the GM's.
 */
void heimr_hold_stop(rules_enc *e, const char *bound, int *cr)
{
    *cr = 0;
    const char *h = heimr_holder_of(e, bound);
    tb_err err = {0};
    heimr_spec s;
    if (!h || rules_enc_is_out(e, h) || rules_enc_cond_has(e, h, "daze") ||
        heimr_spec_resolve(e, h, "Brawl", NULL, 0, 0, 0, &s, &err))
        return;
    heimr_roll r;
    heimr_enc_roll(s.c, s.p, e->rng, &r);
    int f = rules_enc_stat(e, h, "fatigue", 1);
    int ok = !s.phys || heimr_fatigue_passes(&r, f);
    if (s.phys)
        heimr_fatigue_rise(e, h, r.d6);
    *cr = ok ? r.result : 0;
    rules_aud aud = rules_enc_aud_of(e, h);
    rules_log *x = rules_log_begin(e, "hold", ok ? "hold" : "hold-tired");
    rules_log_who(x, "who", h);
    rules_log_who(x, "whom", bound);
    heimr_log_roll(x, &r, "hold", aud);
    if (!ok)
        rules_log_int(x, "fatigue", f, aud);
    rules_log_end(x);
}

void heimr_break_free(rules_enc *e, const char *cid, const heimr_spec *sp)
{
    const heimr_spec s = *sp;
    const char *h = heimr_holder_of(e, cid);
    int cr = 0;
    heimr_hold_stop(e, cid, &cr);
    heimr_roll r;
    heimr_enc_roll(s.c, s.p, e->rng, &r);
    int f = rules_enc_stat(e, cid, "fatigue", 1);
    int ok = heimr_fatigue_passes(&r, f);
    int rose = heimr_fatigue_rise(e, cid, r.d6);
    int free = ok && r.result >= cr;
    rules_aud aud = rules_enc_aud_of(e, cid);
    rules_log *x = rules_log_begin(e, "break_free", "break");
    rules_log_who(x, "who", cid);
    rules_log_who(x, "whom", h);
    rules_log_word(x, "outcome", free ? "break.free" : "break.held", RULES_AUD_PUBLIC);
    rules_log_json(x, "free", json_boolean(free), RULES_AUD_PUBLIC);
    heimr_log_roll(x, &r, NULL, aud);
    rules_log_name(x, "with", s.ability, aud);
    rules_log_json(x, "fatigue_ok", json_boolean(ok), aud);
    if (rose)
        rules_log_json(x, "fatigue_rose", json_true(), aud);
    if (!ok) {
        rules_log_word(x, "tired", "break.tired", aud);
        rules_log_int(x, "fatigue", f, aud);
    }
    rules_log_end(x);
    if (free)
        heimr_bind_end(e, h, "release.broken");
}

/* ---- guards ---- */

/* 001:456 a guard must see and reach the attacker: not out, dazed, helpless or held (RULES.md,
 * heimr encounter reading 13). */
static int guard_can_respond(const rules_enc *e, const char *g)
{
    return !rules_enc_is_out(e, g) && !rules_enc_cond_has(e, g, "daze") &&
           !rules_enc_cond_has(e, g, "helpless") && !heimr_holder_of(e, g);
}

/* 001:452 "If multiple characters are guarding the same target, the order in which characters
 * defend is the initiative order, starting at the character attempting to reach the target. Only
 * the first guard can respond". */
const char *heimr_guard_for(const rules_enc *e, const char *attacker, const char *target,
                            const char *from)
{
    json_t *order = json_object_get(e->enc, "order");
    size_t n = json_array_size(order);
    int start = rules_enc_order_index(e, from);
    for (size_t i = 0; i < n; i++) {
        const char *g =
            json_string_value(json_array_get(order, ((size_t)(start < 0 ? 0 : start) + i) % n));
        if (!g || strcmp(g, attacker) == 0 || strcmp(g, target) == 0)
            continue;
        json_t *gc = rules_enc_combatant(e, g);
        if (rules_enc_streq(json_string_value(json_object_get(gc, "guarding")), target) &&
            guard_can_respond(e, g))
            return g;
    }
    return NULL;
}

/* ---- moving someone (001:458-465) ---- */

/* The combatant whose id, or else whose name (any case), is w; NULL when there is none. */
static const char *combatant_named(const rules_enc *e, const char *w)
{
    if (rules_enc_combatant(e, w))
        return json_string_value(json_object_get(rules_enc_combatant(e, w), "id"));
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        if (strcasecmp(rules_enc_name(e, cid), w) == 0)
            return cid;
    return NULL;
}

/* Whether cid's legs carry it: an injured leg does not (001:156 "fall"). */
static int leg_injured(const rules_enc *e, const char *cid)
{
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(heimr_stats_of(e, cid), "injuries"), i, v)
    {
        if (strstr(json_string_value(v) ? json_string_value(v) : "", "leg"))
            return 1;
    }
    return 0;
}

/*
 * 001:460-465 how many characters it takes to move tgt: "One character can move a willing
 * character with a leg injury · Two characters can move a character unable to stand and resist ·
 * Three characters can move an unwilling bound character · Four characters can move an
 * unwilling character". Willing = of the mover's side (RULES.md, heimr encounter reading 17);
 * unable to stand and resist = out of the fight, helpless or dazed; bound = held or under a
 * bind. `why` gets the case (CASES).
 */
static const struct {
    const char *word, *text; /* the log's word (words.c) and the same words for a refusal */
} CASES[] = {
    {"carry.neither", HEIMR_CARRY_NEITHER},     {"carry.leg", HEIMR_CARRY_LEG},
    {"carry.willing", HEIMR_CARRY_WILLING},     {"carry.held", HEIMR_CARRY_HELD},
    {"carry.unwilling", HEIMR_CARRY_UNWILLING},
};

static int carry_need(const rules_enc *e, const char *cid, const char *tgt, int *why)
{
    if (rules_enc_is_out(e, tgt) || rules_enc_cond_has(e, tgt, "helpless") ||
        rules_enc_cond_has(e, tgt, "daze")) {
        *why = 0;
        return 2;
    }
    if (rules_enc_streq(rules_enc_side(e, tgt), rules_enc_side(e, cid))) {
        *why = leg_injured(e, tgt) ? 1 : 2;
        return 1;
    }
    if (heimr_holder_of(e, tgt) || rules_enc_cond_has(e, tgt, "bind")) {
        *why = 3;
        return 3;
    }
    *why = 4;
    return 4;
}

int heimr_carry_check(const rules_enc *e, const char *cid, const char *tgt, const char *helpers,
                      char ids[HEIMR_MAX_HELPERS][40], int *n_out, int *need, const char **why,
                      tb_err *err)
{
    if (!rules_enc_combatant(e, tgt))
        return tb_fail(err, TB_NOT_FOUND, "no combatant '%.32s' in this encounter", tgt);
    if (strcmp(tgt, cid) == 0)
        return rules_enc_rule(err, "%s moves on their own: use Move", rules_enc_name(e, cid));
    int n = 0;
    char list[160];
    snprintf(list, sizeof list, "%s", helpers ? helpers : "");
    for (char *save = NULL, *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        while (*w == ' ')
            w++;
        for (size_t k = strlen(w); k > 0 && w[k - 1] == ' '; k--)
            w[k - 1] = 0;
        if (!*w)
            continue;
        if (n == HEIMR_MAX_HELPERS)
            return tb_fail(err, TB_BAD_REQUEST, "enc.act carry: at most 8 helpers");
        const char *t = combatant_named(e, w);
        if (!t)
            return tb_fail(err, TB_NOT_FOUND, "nobody called '%.32s' is in this encounter", w);
        if (strcmp(t, cid) == 0 || strcmp(t, tgt) == 0)
            return rules_enc_rule(err, "%s cannot help with this move", rules_enc_name(e, t));
        for (int j = 0; j < n; j++)
            if (strcmp(ids[j], t) == 0)
                return rules_enc_rule(err, "%s is named twice", rules_enc_name(e, t));
        if (rules_enc_is_out(e, t) || rules_enc_cond_has(e, t, "daze") || heimr_held_in_place(e, t))
            return rules_enc_rule(err, "%s cannot lend a hand now (out, dazed or held)",
                                  rules_enc_name(e, t));
        snprintf(ids[n++], 40, "%s", t);
    }
    *n_out = n;
    int c;
    *need = carry_need(e, cid, tgt, &c);
    *why = CASES[c].word;
    if (n + 1 < *need)
        return rules_enc_rule(err, "%s %s: it takes %d to move them, and %d %s (001:460-465)",
                              rules_enc_name(e, tgt), CASES[c].text, *need, n + 1,
                              n ? "are at it" : "is at it");
    return 0;
}

void heimr_carry(rules_enc *e, const char *cid, const char *tgt, const char *to,
                 char ids[HEIMR_MAX_HELPERS][40], int n, int need, const char *why)
{
    const char *movers[HEIMR_MAX_HELPERS + 1] = {cid};
    for (int j = 0; j < n; j++) {
        json_object_set_new(rules_enc_combatant(e, ids[j]), "lending", json_string(tgt));
        movers[j + 1] = ids[j];
    }
    char names[400];
    heimr_names_join(e, movers, n + 1, 1, names, sizeof names);
    rules_log *x = rules_log_begin(e, "carry", "carry");
    rules_log_name(x, "movers", names, RULES_AUD_PUBLIC);
    if (!n)
        rules_log_word(x, "s", "plural", RULES_AUD_PUBLIC);
    rules_log_who(x, "whom", tgt);
    if (to) {
        rules_log_word(x, "dest", "carry.to", RULES_AUD_PUBLIC);
        rules_log_name(x, "to", to, RULES_AUD_PUBLIC);
    }
    rules_log_word(x, "why", why, RULES_AUD_PUBLIC);
    rules_log_int(x, "need", need, RULES_AUD_PUBLIC);
    rules_log_end(x);
}
