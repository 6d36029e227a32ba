/*
 * turn.c — who holds the spotlight in a 10acity fight (003:84-92; tenacity_enc.h): initiative,
 * the start of a turn, who goes next at the end of one, characters brought back into the
 * spotlight, round resets and the group-initiative option. Calls roll.c, state.c and
 * rules/encounter.h. Readings: rules/RULES.md, tenacity, "Encounters (module
 * tenacity.spotlight)".
 */
#include <stdio.h>
#include <string.h>

#include "tenacity_enc.h"

#define MAXC 64

/* The order as a C list of ids (borrowed strings), n entries. */
static int order_ids(const rules_enc *e, const char **ids, int max)
{
    json_t *order = json_object_get(e->enc, "order");
    int n = 0;
    size_t i;
    json_t *v;
    json_array_foreach(order, i, v)
    {
        if (json_is_string(v) && n < max)
            ids[n++] = json_string_value(v);
    }
    return n;
}

/* ---- group initiative (003:92) ---- */

int ten_in_group(const rules_enc *e, const char *cid, int g)
{
    const char *side = json_string_value(json_array_get(json_object_get(e->enc, "groups"), g));
    return side && strcmp(rules_enc_side(e, cid), side) == 0;
}

/* 003:92 "the group that goes second receives an advantage die on the first action that each
 * character takes": every member of a group after the first, once per round (reading). */
static void set_edges(rules_enc *e)
{
    json_t *edge = json_array();
    const char *ids[MAXC];
    int n = order_ids(e, ids, MAXC);
    for (int i = 0; i < n; i++)
        if (!ten_in_group(e, ids[i], 0) && ten_present(e, ids[i]))
            json_array_append_new(edge, json_string(ids[i]));
    json_object_set_new(e->enc, "edge", edge);
}

void ten_set_groups(rules_enc *e, const char *first)
{
    json_t *groups = json_array();
    if (first)
        json_array_append_new(groups, json_string(first));
    const char *ids[MAXC];
    int n = order_ids(e, ids, MAXC);
    for (int i = 0; i < n; i++) {
        const char *side = rules_enc_side(e, ids[i]);
        size_t k;
        json_t *v;
        int seen = 0;
        json_array_foreach(groups, k, v) seen |= rules_enc_streq(json_string_value(v), side);
        if (!seen)
            json_array_append_new(groups, json_string(side));
    }
    json_object_set_new(e->enc, "groups", groups);
    json_object_set_new(e->enc, "group", json_integer(0));
    set_edges(e);
}

/* ---- turns ---- */

static void set_turn_index(rules_enc *e, const char *cid)
{
    json_object_set_new(e->enc, "turn", json_integer(cid ? rules_enc_order_index(e, cid) : -1));
}

/* A fresh turn of cid: its unused hold lapses (003:58), its help lapses (reading O1), nobody has
 * struck it in parting (003:111). */
static void options_turn(rules_enc *e, const char *cid)
{
    json_t *me = rules_enc_combatant(e, cid);
    json_object_set_new(e->enc, "parted", json_array());
    if (json_object_get(me, "held")) {
        json_object_del(me, "held");
        json_object_del(rules_enc_hidden_of(e, cid), "held_trigger");
        ten_say(e, "hold", "hold_lapse", cid);
    }
    const char *other;
    for (size_t i = 0; (other = rules_enc_cid_at(e, i)); i++) {
        json_t *o = rules_enc_combatant(e, other);
        if (rules_enc_streq(json_string_value(json_object_get(o, "helped_by")), cid))
            ten_help_end(e, other);
    }
}

void ten_start_turn(rules_enc *e, const char *cid)
{
    ten_set_str(e, "spotlight", cid);
    /* 003:112 "any character in which you started your turn within melee range" */
    ten_mark_start(e);
    set_turn_index(e, cid);
    json_object_set_new(e->enc, "cue", json_array());
    json_object_set_new(e->enc, "recalled", json_array());
    ten_set_str(e, "responder", NULL);
    if (ten_acted(e, cid)) {
        /* 003:89 "If a character that has already taken their turn this round is the only other
         * one in the spotlight, then they get to choose who goes next"; 003:91 they may spend a
         * 10acity/spin point to respond with a standard action. */
        ten_set_flag(e, "choosing", 1);
        rules_enc_budget_set(e, cid, "action", 0);
        rules_enc_budget_set(e, cid, "interaction", 0);
        rules_enc_budget_set(e, cid, "move", 0);
        ten_put(ten_list(e, "recalled"), cid);
        ten_say(e, "spotlight", "back", cid);
        return;
    }
    ten_set_flag(e, "choosing", 0);
    /* 003:87 "up to one action, one interaction, and one movement" (003:82) */
    rules_enc_budget_reset(e, cid);
    options_turn(e, cid);
    ten_say(e, "spotlight", "takes", cid);
    /* 003:117 full defence lasts "until your next turn" */
    if (rules_enc_cond_remove(e, cid, "defensive"))
        ten_say(e, "expire", "defence_over", cid);
    /* 003:72 a sprint's spaces are "for that round", 003:112 a withdrawal covers the turn */
    rules_enc_cond_remove(e, cid, "sprinting");
    rules_enc_cond_remove(e, cid, "withdrawing");
    /* 003:103 a damage condition deals its damage "at the beginning of each of their turns" */
    json_t *conds = json_deep_copy(json_object_get(rules_enc_combatant(e, cid), "conditions"));
    size_t i;
    json_t *c;
    json_array_foreach(conds, i, c)
    {
        const char *kind = json_string_value(json_object_get(c, "kind"));
        if (kind && strcmp(kind, "damage") == 0)
            ten_stress(e, cid, (int)json_integer_value(json_object_get(c, "level")),
                       json_string_value(json_object_get(c, "name")));
    }
    json_decref(conds);
    /* 003:107 the coup de grâce is completed on the performer's next turn */
    json_t *coup = json_object_get(rules_enc_combatant(e, cid), "coup");
    if (coup)
        json_object_set_new(coup, "stage", json_integer(2));
}

/* A new round: nobody has acted (003:90). */
static void new_round(rules_enc *e)
{
    json_object_set_new(e->enc, "round", json_integer(rules_enc_round(e) + 1));
    json_object_set_new(e->enc, "acted", json_array());
    if (ten_option(e, "group")) {
        json_object_set_new(e->enc, "group", json_integer(0));
        set_edges(e);
    }
    /* 003:90 "everyone resets their turns and begins again" */
    rules_log *x = rules_log_begin(e, "round", "round");
    rules_log_count(x, "round", rules_enc_round(e), RULES_AUD_PUBLIC);
    rules_log_end(x);
}

void ten_bring(rules_enc *e, const char *cid)
{
    const char *holder = ten_holder(e);
    if (!holder || !e->actor || strcmp(e->actor, holder) != 0 || strcmp(cid, holder) == 0)
        return; /* a response does not move the spotlight */
    ten_put(ten_list(e, "cue"), cid);
    /* 003:91 "At any point a character is brought back into the spotlight who has already taken
     * their turn, then they can spend a 10acity/Spin point to respond" */
    if (ten_acted(e, cid) && ten_present(e, cid) && !ten_unconscious(e, cid))
        ten_put(ten_list(e, "recalled"), cid);
}

int ten_take_action(rules_enc *e, const char *cid)
{
    tb_err ignored;
    rules_enc_spend(e, cid, "action", 1, &ignored);
    json_t *edge = json_object_get(e->enc, "edge");
    if (ten_has(edge, cid)) {
        ten_drop(edge, cid);
        return 1;
    }
    return 0;
}

void ten_done(rules_enc *e)
{
    const char *r = ten_str(e, "responder");
    /* a response is one action (003:91); a released held movement is one movement (003:81) */
    if (r && rules_enc_budget_left(e, r, "action") == 0 &&
        rules_enc_budget_left(e, r, "move") == 0) {
        ten_say_to(e, "respond", "response_over", r, "holder", ten_holder(e));
        ten_set_str(e, "responder", NULL);
    }
    ten_sync_conditions(e);
}

int ten_may_act(rules_enc *e, const char *cid, tb_err *err)
{
    if (rules_enc_round(e) == 0)
        return rules_enc_rule(err, "the encounter has not started: the GM rolls initiative first "
                                   "(003:85)");
    const char *resp = ten_str(e, "responder");
    if (resp && strcmp(resp, cid) != 0)
        return rules_enc_rule(err, "%s is responding (003:91); %s acts after the response",
                              rules_enc_name(e, resp), rules_enc_name(e, cid));
    if (resp)
        return 0;
    const char *holder = ten_holder(e);
    if (!holder)
        return rules_enc_rule(err, "nobody holds the spotlight now");
    if (strcmp(holder, cid) != 0)
        return rules_enc_rule(err, "%s holds the spotlight, not %s (003:84)",
                              rules_enc_name(e, holder), rules_enc_name(e, cid));
    return 0;
}

int ten_untouched(const rules_enc *e, const char *cid)
{
    return ten_budget(e, cid, "action") > 0 && ten_budget(e, cid, "interaction") > 0 &&
           ten_budget(e, cid, "move") > 0;
}

/* ---- initiative (003:85-86) ---- */

void ten_initiative(rules_enc *e, const char *skill)
{
    rules_rank rank[MAXC];
    int n = 0;
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)) && n < MAXC; i++) {
        if (!ten_present(e, cid))
            continue;
        json_t *dice = json_array();
        ten_side s;
        ten_roll(e, cid, skill, 0, 0, "initiative", dice, &s);
        /* an NPC's roll and its initiative are the GM's */
        rules_aud aud = rules_enc_aud_of(e, cid);
        json_object_set_new(aud == RULES_AUD_GM ? rules_enc_hidden_of(e, cid)
                                                : rules_enc_combatant(e, cid),
                            "init", json_integer(s.total));
        rules_log *x = rules_log_begin(e, "initiative", "initiative_roll");
        rules_log_who(x, "who", cid);
        rules_log_dice(x, dice, aud);
        json_decref(dice);
        rules_log_json(x, "skill", json_string(skill), aud);
        rules_log_name(x, "skillname", skill, aud);
        rules_log_int(x, "total", s.total, aud);
        rules_log_end(x);
        /* 003:86 ties "usually go to the heroes of our story over an NPC"; "Alternatively, the
         * one with the highest reaction skill could go first" */
        json_t *react = json_object_get(ten_skills(e, cid), "Reaction");
        rank[n] = (rules_rank){cid,
                               {s.total, !rules_enc_is_npc(e, cid),
                                (int)json_integer_value(json_array_get(react, 1)), 0},
                               0};
        n++;
    }
    rules_enc_order_set(e, rank, n);
    json_object_set_new(e->enc, "round", json_integer(1));
    json_object_set_new(e->enc, "acted", json_array());
    const char *first = json_string_value(json_array_get(json_object_get(e->enc, "order"), 0));
    if (ten_option(e, "group"))
        ten_set_groups(e, rules_enc_side(e, first));
    ten_set_flag(e, "opening", 1);
    ten_say(e, "initiative", ten_option(e, "group") ? "first_group" : "first", first);
    ten_start_turn(e, first);
}

/* ---- who goes next (003:87-90) ---- */

/* Appends to out (ids in initiative order) the present combatants passing the filter. */
enum { F_NOT_ACTED = 1, F_ACTED = 2, F_OPPOSING = 4, F_CUE = 8, F_GROUP = 16 };

static int pick(rules_enc *e, const char *holder, unsigned f, const char **out)
{
    const char *ids[MAXC];
    int n = order_ids(e, ids, MAXC), k = 0;
    json_t *cue = ten_list(e, "cue");
    int g = (int)json_integer_value(json_object_get(e->enc, "group"));
    for (int i = 0; i < n; i++) {
        const char *c = ids[i];
        if (!ten_present(e, c) || (holder && strcmp(c, holder) == 0))
            continue;
        if ((f & F_NOT_ACTED) && ten_acted(e, c))
            continue;
        if ((f & F_ACTED) && !ten_acted(e, c))
            continue;
        if ((f & F_OPPOSING) && !ten_opposed(e, holder, c))
            continue;
        if ((f & F_CUE) && !ten_has(cue, c))
            continue;
        if ((f & F_GROUP) && !ten_in_group(e, c, g))
            continue;
        out[k++] = c;
    }
    return k;
}

/* The candidates for the spotlight after holder's turn, in initiative order; *why names the rule
 * (its words' key in words.c),
 * *reset is set when the round resets first. Returns their number. */
static int next_candidates(rules_enc *e, const char *holder, const char **out, const char **why,
                           int *reset)
{
    int n;
    *reset = 0;
    if (ten_option(e, "group")) {
        int groups = (int)json_array_size(json_object_get(e->enc, "groups"));
        /* 003:92 each group "in any order they choose", one group after the other */
        for (;;) {
            if ((n = pick(e, NULL, F_NOT_ACTED | F_GROUP, out)) > 0) {
                *why = "next.group";
                return n;
            }
            int g = (int)json_integer_value(json_object_get(e->enc, "group")) + 1;
            if (g >= groups) {
                if (*reset)
                    return 0;
                new_round(e);
                *reset = 1;
                g = 0;
            }
            json_object_set_new(e->enc, "group", json_integer(g));
        }
    }
    /* 003:90 "Once everyone has taken a turn and the spotlight would not be able to activate
     * anyone else, then everyone resets their turns and begins again." */
    if (pick(e, NULL, F_NOT_ACTED, out) == 0) {
        new_round(e);
        *reset = 1;
    }
    int choosing = ten_flag(e, "choosing") && !*reset;
    /* 003:87 "If that character's turn brings another character into the spotlight, then that
     * character goes next. In the case of multiple affected characters, an opposing character
     * goes next or if there is no opposing character any of the affected characters can go
     * next." */
    if ((n = pick(e, holder, F_CUE | F_NOT_ACTED | F_OPPOSING, out)) > 0 ||
        (n = pick(e, holder, F_CUE | F_NOT_ACTED, out)) > 0) {
        *why = "next.brought";
        return n;
    }
    /* 003:89 an affected character who has already acted chooses who goes next */
    if (!*reset && ((n = pick(e, holder, F_CUE | F_ACTED | F_OPPOSING, out)) > 0 ||
                    (n = pick(e, holder, F_CUE | F_ACTED, out)) > 0)) {
        *why = "next.back";
        return n;
    }
    if (choosing && (n = pick(e, holder, F_NOT_ACTED, out)) > 0) {
        /* 003:84 "If that character has already acted, they pass the spotlight to another
         * character of their choice." */
        *why = "next.passed";
        return n;
    }
    /* 003:88 "If a character's actions does not bring anyone else into the spotlight, then any
     * opposing character goes next." With no opposing character left, anyone left (reading). */
    if ((n = pick(e, holder, F_NOT_ACTED | F_OPPOSING, out)) > 0) {
        *why = "next.opposing";
        return n;
    }
    *why = "next.anyone";
    n = pick(e, holder, F_NOT_ACTED, out);
    if (n == 0 && holder && ten_present(e, holder) && !ten_acted(e, holder))
        out[n++] = holder; /* alone after a reset */
    return n;
}

/* Who takes the spotlight after holder: *to (NULL when nobody is left), `next` when named; the
 * refusal when next may not have it. Writes the round reset and the group to e. */
static int choose(rules_enc *e, const char *holder, const char *next, const char **to,
                  const char **why, tb_err *err)
{
    const char *cands[MAXC];
    int reset = 0;
    *why = "";
    int n = next_candidates(e, holder, cands, why, &reset);
    *to = n ? cands[0] : NULL;
    if (n == 0 || !next)
        return 0;
    *to = NULL;
    for (int i = 0; i < n; i++)
        if (strcmp(cands[i], next) == 0)
            *to = cands[i];
    if (*to)
        return 0;
    char names[300] = "";
    size_t len = 0;
    for (int i = 0; i < n && len < sizeof names - 1; i++) {
        int w = snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "",
                         rules_enc_name(e, cands[i]));
        if (w < 0)
            break;
        len += (size_t)w;
    }
    return rules_enc_rule(err, "the spotlight cannot go to %s: it goes to %s (%s)",
                          rules_enc_name(e, next), names, ten_words(*why));
}

int ten_next_check(const rules_enc *e, const char *holder, const char *next, int over, tb_err *err)
{
    /* who may go next depends on what the end of the turn writes (a round reset, a death): it is
     * worked out on a copy, which the check then drops */
    rules_enc s = *e;
    s.enc = json_deep_copy(e->enc);
    s.hidden = json_deep_copy(e->hidden);
    s.log = json_array();
    s.gm_log = json_array();
    s.seat_log = NULL;
    s.priv = NULL;
    s.rng = NULL;
    if (over)
        ten_turn_over(&s, holder);
    const char *to, *why;
    int rc = choose(&s, holder, next, &to, &why, err);
    json_decref(s.enc);
    json_decref(s.hidden);
    json_decref(s.log);
    json_decref(s.gm_log);
    return rc;
}

void ten_hand_on(rules_enc *e, const char *holder, const char *next)
{
    const char *to, *why;
    tb_err ignored;
    choose(e, holder, next, &to, &why, &ignored);
    if (!to) {
        ten_set_str(e, "spotlight", NULL);
        set_turn_index(e, NULL);
        rules_log_end(rules_log_begin(e, "spotlight", "nobody"));
        return;
    }
    rules_log *x = rules_log_begin(e, "pass", "goes");
    rules_log_who(x, "who", to);
    rules_log_word(x, "why", why, RULES_AUD_PUBLIC);
    rules_log_end(x);
    ten_start_turn(e, to);
}

/* The target of a completed coup de grâce perishes at the end of the turn (003:107). */
static void coup_finish(rules_enc *e, const char *cid)
{
    json_t *c = rules_enc_combatant(e, cid);
    json_t *coup = json_object_get(c, "coup");
    const char *target = json_string_value(json_object_get(coup, "target"));
    if (target && !rules_enc_is_out(e, target)) {
        ten_perish(e, target, "death.coup", cid);
    }
    json_object_del(c, "coup");
}

void ten_turn_over(rules_enc *e, const char *holder)
{
    json_t *coup = json_object_get(rules_enc_combatant(e, holder), "coup");
    if (coup) {
        if (json_is_true(json_object_get(coup, "done")))
            coup_finish(e, holder);
        else if (json_integer_value(json_object_get(coup, "stage")) == 2)
            ten_coup_fail(e, holder, "why.second");
    }
    if (!ten_acted(e, holder))
        ten_put(ten_list(e, "acted"), holder);
    ten_set_flag(e, "opening", 0);
    ten_say(e, "end", "end_turn", holder);
}

/* ==== the spotlight's actions of tenacity.spotlight (its table is in spotlight.c), in the
 * table's order ==== */

/* ---- initiative (003:85-86) ---- */

static const char *initiative_skill(const rules_args *a)
{
    const char *skill = rules_arg_str(a, "skill");
    return skill ? skill : "Reaction"; /* 003:85 "usually this is the Reaction or Perception" */
}

TEN_ACTION_CHECK(initiative)
{
    if (rules_enc_round(e) > 0)
        return rules_enc_rule(err, "initiative is established once (003:85); the GM moves the "
                                   "spotlight with 'spotlight'");
    const char *cid;
    int n = 0;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        if (!ten_present(e, cid))
            continue;
        if (ten_skill_check(e, cid, initiative_skill(a), err))
            return err->code;
        n++;
    }
    if (n == 0)
        return rules_enc_rule(err, "nobody is in the encounter to roll initiative");
    return 0;
}

TEN_ACTION_RESOLVE(initiative)
{
    ten_initiative(e, initiative_skill(a));
    ten_done(e);
    return 0;
}

/* ---- passing the spotlight (003:84, 003:86, 003:92) ---- */

TEN_ACTION_CHECK(pass)
{
    const char *holder = e->actor, *to = rules_arg_str(a, "target");
    if (ten_str(e, "responder"))
        return rules_enc_rule(err, "a response is one standard action (003:91): it cannot pass "
                                   "the spotlight");
    if (strcmp(to, holder) == 0)
        return rules_enc_rule(err, "%s already holds the spotlight", rules_enc_name(e, holder));
    if (!ten_present(e, to))
        return rules_enc_rule(err, "%s is out of the fight", rules_enc_name(e, to));
    if (ten_flag(e, "choosing")) /* 003:84, 003:89: an acted character chooses who goes next */
        return ten_next_check(e, holder, to, 0, err);
    if (!ten_untouched(e, holder))
        return rules_enc_rule(err,
                              "%s has already started the turn: only a character who has "
                              "not acted yet may pass the spotlight on (003:86); end the "
                              "turn instead",
                              rules_enc_name(e, holder));
    if (ten_acted(e, to))
        return rules_enc_rule(err, "%s has already acted this round", rules_enc_name(e, to));
    if (ten_option(e, "group")) {
        int g = (int)json_integer_value(json_object_get(e->enc, "group"));
        if (!(ten_flag(e, "opening") && !ten_in_group(e, to, 0)) && !ten_in_group(e, to, g))
            return rules_enc_rule(err, "%s is not in the group acting now (003:92)",
                                  rules_enc_name(e, to));
    } else if (!ten_flag(e, "opening")) {
        return rules_enc_rule(err, "only the character who rolled highest passes the initiative "
                                   "(003:86); end the turn to hand the spotlight on");
    }
    return 0;
}

TEN_ACTION_RESOLVE(pass)
{
    const char *holder = e->actor, *to = rules_arg_str(a, "target");
    if (ten_flag(e, "choosing")) {
        ten_hand_on(e, holder, to);
        ten_done(e);
        return 0;
    }
    if (ten_option(e, "group") && ten_flag(e, "opening") && !ten_in_group(e, to, 0)) {
        /* 003:92 "The character that rolls the highest initiative gets to choose which group
         * goes first." */
        ten_set_groups(e, rules_enc_side(e, to));
        rules_log *x = rules_log_begin(e, "pass", "group_first");
        rules_log_who(x, "who", holder);
        rules_log_name(x, "side", rules_enc_side(e, to), RULES_AUD_PUBLIC);
        rules_log_end(x);
    }
    ten_set_flag(e, "opening", 0);
    ten_say_to(e, "pass", "passes", holder, "to", to);
    ten_start_turn(e, to);
    ten_done(e);
    return 0;
}

/* ---- the end of a turn (003:87-90, 003:97) ---- */

static const char *shake_skill(const rules_args *a)
{
    const char *skill = rules_arg_str(a, "shake_skill");
    return skill ? skill : "Endurance";
}

/* A responder's end closes its response; the holder's end hands the spotlight on, after the free
 * roll to shake a condition off. Who may go next is known before that roll's die. */
TEN_ACTION_CHECK(end)
{
    const char *holder = e->actor, *resp = ten_str(e, "responder");
    if (resp && strcmp(resp, holder) == 0)
        return 0;
    const char *shake = rules_arg_str(a, "shake");
    if (shake) {
        if (json_object_get(rules_enc_combatant(e, holder), "coup"))
            return rules_enc_rule(err,
                                  "%s is performing a coup de grâce and can do nothing else "
                                  "(003:107)",
                                  rules_enc_name(e, holder));
        if (ten_flag(e, "choosing"))
            return rules_enc_rule(err, "the free roll to shake off a condition comes at the end "
                                       "of one's own turn (003:97)");
        int rc = ten_shake_check(e, holder, shake, shake_skill(a), 0, err);
        if (rc)
            return rc;
    }
    const char *next = rules_arg_str(a, "next");
    return next ? ten_next_check(e, holder, next, 1, err) : 0;
}

TEN_ACTION_RESOLVE(end)
{
    const char *holder = e->actor, *resp = ten_str(e, "responder");
    if (resp && strcmp(resp, holder) == 0) {
        rules_enc_budget_set(e, holder, "action", 0);
        ten_done(e);
        return 0;
    }
    /* 003:97 "at the end of their turn ... remove one of the conditions as a free reaction" */
    if (rules_arg_str(a, "shake"))
        ten_shake(e, holder, rules_arg_str(a, "shake"), shake_skill(a), 0);
    ten_turn_over(e, holder);
    ten_hand_on(e, holder, rules_arg_str(a, "next"));
    ten_done(e);
    return 0;
}

/* ---- responding (003:91) ---- */

/* What pays for a response: `pay`, or spin while there is some, else 10acity. */
static const char *respond_pay(const rules_enc *e, const rules_args *a)
{
    const char *pay = rules_arg_str(a, "pay");
    return pay ? pay : ten_spin(e, e->actor) > 0 ? "spin" : "tenacity";
}

TEN_ACTION_CHECK(respond)
{
    if (ten_require_in(e, e->actor, err))
        return err->code;
    const char *cid = e->actor;
    if (rules_enc_round(e) == 0)
        return rules_enc_rule(err, "the encounter has not started (003:85)");
    if (!ten_listed(e, "recalled", cid))
        return rules_enc_rule(err,
                              "%s may respond only when brought back into the spotlight "
                              "after acting this round (003:91)",
                              rules_enc_name(e, cid));
    if (json_object_get(rules_enc_combatant(e, cid), "coup"))
        return rules_enc_rule(err,
                              "%s is performing a coup de grâce and can do nothing else "
                              "(003:107)",
                              rules_enc_name(e, cid));
    const char *resp = ten_str(e, "responder");
    if (resp)
        return rules_enc_rule(err, "%s is responding now (003:91)", rules_enc_name(e, resp));
    const char *pay = respond_pay(e, a);
    if (strcmp(pay, "spin") == 0) {
        /* 003:38 "you cannot benefit from Spin until your negative Spin is removed" */
        if (ten_spin(e, cid) < 1)
            return rules_enc_rule(err, "%s has no spin to spend (003:38, 003:91)",
                                  rules_enc_name(e, cid));
    } else if (strcmp(pay, "tenacity") == 0) {
        if (ten_stat(e, cid, "tenacity", 0) < 1)
            return rules_enc_rule(err, "%s has no 10acity to spend (003:91)",
                                  rules_enc_name(e, cid));
    } else {
        return tb_fail(err, TB_BAD_REQUEST, "enc.act respond: 'pay' is spin or tenacity");
    }
    return 0;
}

TEN_ACTION_RESOLVE(respond)
{
    const char *cid = e->actor, *pay = respond_pay(e, a);
    int by_spin = strcmp(pay, "spin") == 0;
    if (by_spin)
        ten_spin_add(e, cid, -1);
    else
        rules_enc_stat_set(e, cid, "tenacity", ten_stat(e, cid, "tenacity", 0) - 1);
    ten_drop(ten_list(e, "recalled"), cid);
    /* 003:91 "respond with a standard action at that time" */
    rules_enc_budget_set(e, cid, "action", 1);
    if (strcmp(cid, ten_holder(e)) != 0) {
        rules_enc_budget_set(e, cid, "interaction", 0);
        rules_enc_budget_set(e, cid, "move", 0);
        ten_set_str(e, "responder", cid);
    }
    rules_log *x = rules_log_begin(e, "respond", "respond");
    rules_log_who(x, "who", cid);
    rules_log_json(x, "pay", json_string(pay), RULES_AUD_PUBLIC);
    rules_log_word(x, "paid", by_spin ? "pay.spin" : "pay.tenacity", RULES_AUD_PUBLIC);
    rules_log_end(x);
    ten_done(e);
    return 0;
}

/* ---- the GM puts anyone in the spotlight (003:84) ---- */

TEN_ACTION_CHECK(spotlight)
{
    const char *to = rules_arg_str(a, "target");
    if (rules_enc_round(e) == 0)
        return rules_enc_rule(err, "roll initiative first (003:85)");
    if (!ten_present(e, to))
        return rules_enc_rule(err, "%s is out of the fight", rules_enc_name(e, to));
    return 0;
}

TEN_ACTION_RESOLVE(spotlight)
{
    const char *to = rules_arg_str(a, "target");
    ten_say(e, "spotlight", "gm_spotlight", to);
    ten_set_flag(e, "opening", 0);
    ten_start_turn(e, to);
    ten_done(e);
    return 0;
}
