/*
 * turns.c — the turns of a Heimr fight (001:238-250, 270, 327, 395), for the Heimr encounter
 * modules (heimr_enc.h): initiative, the start of a round (the dying clocks) and of a turn, the
 * end of a turn (an upcoming action completes, effects count down, the next defence is
 * pre-rolled) and the breather.
 */
#include <stdio.h>
#include <string.h>

#include "heimr_enc.h"

void heimr_log_breather(rules_enc *e, const char *cid, const char *event, int f)
{
    rules_log *x = rules_log_begin(e, "breather", event);
    rules_log_who(x, "who", cid);
    rules_log_int(x, "fatigue", f, rules_enc_aud_of(e, cid));
    rules_log_end(x);
}

/* 001:238 each round every combatant takes one 2-second turn: /enc/seconds is when it starts.
 * The dying clocks of 001:165-166 run here. */
void heimr_round_start(rules_enc *e)
{
    int round = rules_enc_round(e);
    json_object_set_new(e->enc, "seconds",
                        json_integer((json_int_t)(round - 1) * HEIMR_TURN_SECONDS));
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        json_t *dying = json_object_get(rules_enc_combatant(e, cid), "dying");
        if (!json_is_object(dying))
            continue;
        int dead = (int)json_integer_value(json_object_get(dying, "dead"));
        int unc = (int)json_integer_value(json_object_get(dying, "unconscious"));
        const char *out = json_string_value(json_object_get(rules_enc_combatant(e, cid), "out"));
        if (dead && round >= dead && !(out && strcmp(out, "dead") == 0)) {
            rules_enc_set_out(e, cid, "dead");
            heimr_tell(e, "dies", "dies", cid, NULL);
        } else if (unc && round >= unc && !out) {
            rules_enc_set_out(e, cid, "unconscious");
            heimr_tell(e, "unconscious", "unconscious", cid, NULL);
        }
    }
}

/* What happens at the start of cid's turn. */
void heimr_turn_start(rules_enc *e, const char *cid)
{
    json_t *c = rules_enc_combatant(e, cid);
    json_t *pv = heimr_priv(e, cid);
    /* 001:428 "Your defence uses are restored again at the start of your next turn" */
    json_object_del(c, "defended");
    /* 001:310 the turn's one fatigue rise starts again */
    json_object_del(pv, "fatigue_rose");
    /* 001:325 free actions once per turn; delaying is declared at the start (001:246) */
    json_object_del(c, "free_used");
    json_object_del(c, "acted");
    /* 001:326 the ongoing penalty lasts "until the start of your next turn"; 001:280 an odd
     * daze lets you defend from the start of the turn in which it ends */
    rules_enc_cond_remove(e, cid, "ongoing");
    rules_enc_cond_remove(e, cid, "no_defence");
    json_t *daze = rules_enc_cond(e, cid, "daze");
    if (daze && json_integer_value(json_object_get(daze, "turns")) == 1 &&
        (json_integer_value(json_object_get(daze, "level")) % 2) == 1)
        json_object_set_new(daze, "defend", json_true());
    /* 001:250 "If the trigger doesn't occur until the next turn of the character with the
     * readied action, the readied action is lost." */
    if (json_object_get(pv, "ready")) {
        json_object_del(pv, "ready");
        json_object_del(c, "readied");
        heimr_tell(e, "ready-lost", "ready-lost", cid, NULL);
    }
    /* a helper's standard action went into carrying someone (act_carry; RULES.md, heimr encounter
     * reading 18) */
    json_t *lent = json_incref(json_object_get(c, "lending"));
    if (lent) {
        json_object_del(c, "lending");
        rules_enc_budget_set(e, cid, "standard", 0);
        heimr_tell(e, "carry", "lent", cid, json_string_value(lent));
        json_decref(lent);
    }
    /* 001:327 an upcoming action "is continued as a standard action in your next turn" */
    json_t *up = json_object_get(c, "upcoming");
    if (up) {
        json_object_set(c, "continuing", up);
        json_object_del(c, "upcoming");
        rules_enc_budget_set(e, cid, "standard", 0);
        rules_log *x = rules_log_begin(e, "continue", "continue");
        rules_log_who(x, "who", cid);
        rules_log_name(x, "what", json_string_value(json_object_get(up, "what")), RULES_AUD_PUBLIC);
        rules_log_end(x);
    }
}

/* Moves the pointer on (rules_enc_advance) and runs the round and turn starts. */
void heimr_next_turn(rules_enc *e)
{
    int rc = rules_enc_advance(e);
    for (int guard = 0; guard < 4 && rc >= 0; guard++) {
        if (rc == 1)
            heimr_round_start(e);
        const char *cur = rules_enc_current(e);
        if (cur && rules_enc_is_out(e, cur)) { /* fell unconscious at the round's start */
            rc = rules_enc_advance(e);
            continue;
        }
        if (cur)
            heimr_turn_start(e, cur);
        return;
    }
    if (rc < 0)
        rules_log_end(rules_log_begin(e, "over", "over"));
}

int heimr_breather(rules_enc *e, const char *cid)
{
    /* 001:383-384 "Reduce your fatigue by two. Fatigue can not be lower then the base fatigue." */
    int f = rules_enc_stat(e, cid, "fatigue", 1);
    int base = rules_enc_stat(e, cid, "base_fatigue", 1);
    int next = f - 2 < base ? base : f - 2;
    if (next > f)
        next = f;
    rules_enc_stat_set(e, cid, "fatigue", next);
    return next;
}

/*
 * Ends cid's turn: an upcoming action continued this turn completes, effects count down one turn
 * (001:270), a delay marker goes, the next defence is pre-rolled (001:395 "At the end of every
 * character's turn, they must roll their next defence": `kind`/`ability`/`item` or a dodge with
 * Agility), and the pointer moves on.
 */
void heimr_finish_turn(rules_enc *e, const char *cid, const char *kind, const char *ability,
                       const char *item)
{
    json_t *c = rules_enc_combatant(e, cid);
    json_t *cont = json_object_get(c, "continuing");
    if (cont) {
        const char *what = json_string_value(json_object_get(cont, "what"));
        if (what && strcmp(what, "breather") == 0) {
            heimr_log_breather(e, cid, "breather-done", heimr_breather(e, cid));
        } else {
            rules_log *x = rules_log_begin(e, "continue", "complete");
            rules_log_who(x, "who", cid);
            if (what)
                rules_log_name(x, "what", what, RULES_AUD_PUBLIC);
            rules_log_end(x);
        }
        json_object_del(c, "continuing");
    }
    rules_enc_cond_tick(e, cid);
    json_object_del(c, "delayed");
    heimr_restraint_tidy(e);
    if (!json_object_get(heimr_priv(e, cid), "defence") && heimr_can_defend(e, cid)) {
        tb_err err = {0}; /* heimr_finish_check passed */
        heimr_defence_roll(e, cid, kind ? kind : "dodge", ability, item, 0, 0, &err);
    }
    heimr_tell(e, "end-turn", "end-turn", cid, NULL);
    heimr_next_turn(e);
}

/* ---- initiative (001:240-242) ---- */

void heimr_initiative(rules_enc *e, const char *cid, rules_rank *rank)
{
    /* 001:242 "uses the character's dexterity as his consistency, and the number of willpower a
     * character has as it's potential"; ties to the higher willpower */
    int dex = rules_enc_stat(e, cid, "dex", 0);
    int wp = rules_enc_stat(e, cid, "willpower", 0);
    heimr_roll r;
    heimr_enc_roll(dex, wp, e->rng, &r);
    rank->id = cid;
    rank->key[0] = r.result;
    rank->key[1] = wp;
    json_object_set_new(heimr_priv(e, cid), "init", json_integer(r.result));
    /* an NPC's initiative is the GM's (RULES.md, "What the table sees (heimr)") */
    rules_log *x = rules_log_begin(e, "initiative", "initiative");
    rules_log_who(x, "who", cid);
    heimr_log_roll(x, &r, NULL, rules_enc_aud_of(e, cid));
    rules_log_end(x);
}

/* What can_defend will say once cid's turn has ended: its timed conditions counted down (a
 * condition with 1 turn left goes, rules_enc_cond_tick) and its grip tidied (a dazed holder, or
 * one whose held one is out or gone, lets go: heimr_restraint_tidy). */
static int lasts(const rules_enc *e, const char *cid, const char *name)
{
    json_t *c = rules_enc_cond(e, cid, name);
    json_t *turns = json_object_get(c, "turns");
    return c && !(json_is_integer(turns) && json_integer_value(turns) <= 1);
}

static int defends_after_turn(const rules_enc *e, const char *cid)
{
    json_t *daze = rules_enc_cond(e, cid, "daze");
    int dazed = lasts(e, cid, "daze");
    if (dazed && !heimr_is_true(daze, "defend"))
        return 0;
    if (lasts(e, cid, "no_defence") || lasts(e, cid, "helpless") || rules_enc_is_out(e, cid))
        return 0;
    const char *b = json_string_value(json_object_get(rules_enc_combatant(e, cid), "holding"));
    return !(b && rules_enc_combatant(e, b) && !rules_enc_is_out(e, b) && !dazed);
}

int heimr_finish_check(const rules_enc *e, const char *cid, const char *kind, const char *ability,
                       const char *item, tb_err *err)
{
    if (json_object_get(heimr_priv_of(e, cid), "defence") || !defends_after_turn(e, cid))
        return 0; /* no defence is rolled: what was asked of it does not matter */
    return heimr_defence_check(e, cid, kind ? kind : "dodge", ability, item, HEIMR_DEF_TURN_END,
                               err);
}

/* ---- delaying (001:244-246) ---- */

int heimr_delay_place(const rules_enc *e, const char *cid, const char *tgt, const char *when,
                      int *from, int *to, tb_err *err)
{
    int after = when && strcmp(when, "after") == 0;
    if (!when || (!after && strcmp(when, "before") != 0))
        return tb_fail(err, TB_BAD_REQUEST, "enc.act delay: 'when' must be before or after");
    /* 001:246 "by declaring at the start of their turn" */
    if (heimr_is_true(rules_enc_combatant(e, cid), "acted"))
        return rules_enc_rule(err,
                              "%s has already acted this turn: a delay is declared at the "
                              "start of the turn (001:246)",
                              rules_enc_name(e, cid));
    if (strcmp(tgt, cid) == 0)
        return rules_enc_rule(err, "%s cannot delay relative to themselves",
                              rules_enc_name(e, cid));
    int f = rules_enc_order_index(e, cid), ti = rules_enc_order_index(e, tgt);
    if (f < 0 || ti < 0)
        return rules_enc_rule(err, "%s is not in the order", rules_enc_name(e, ti < 0 ? tgt : cid));
    int tj = ti > f ? ti - 1 : ti; /* the target's index once cid is taken out */
    *from = f;
    *to = after ? tj + 1 : tj;
    if (*to == f)
        return rules_enc_rule(err, "%s already acts just %s %s", rules_enc_name(e, cid), when,
                              rules_enc_name(e, tgt));
    return 0;
}

void heimr_delay(rules_enc *e, const char *cid, const char *tgt, const char *when, int from, int to)
{
    /* 001:246 "This character is then moved in the initiative order to where they specified." */
    rules_enc_order_move(e, from, to);
    json_object_set_new(rules_enc_combatant(e, cid), "delayed",
                        json_pack("{s:s, s:s}", "when", when, "of", tgt));
    rules_log *x = rules_log_begin(e, "delay", "delay");
    rules_log_who(x, "who", cid);
    rules_log_who(x, "whom", tgt);
    const char *word = strcmp(when, "after") == 0 ? "delay.after" : "delay.before";
    rules_log_word(x, "when", word, RULES_AUD_PUBLIC);
    rules_log_end(x);
    /* the turn passes to whoever came after cid; cid's own turn comes at its new place */
    json_object_set_new(e->enc, "turn", json_integer(to > from ? from - 1 : from));
    heimr_next_turn(e);
}
