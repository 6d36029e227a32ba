/*
 * fight.c — the fight's states in an attack of tenacity.spotlight (tenacity_enc.h): cover, prone,
 * elevation, size, flanking and resistances (003:110-123), and the strike itself (an attack, or a
 * parting strike as a reaction, 003:45, 003:66, 003:111). Every check is made before the first
 * die. Calls turn.c, roll.c, state.c and rules/encounter.h. Readings in rules/RULES.md, tenacity,
 * "Combat options".
 */
#include <stdio.h>
#include <string.h>

#include "tenacity_enc.h"

/*
 * Full hard cover cannot be attacked (003:114); partial hard cover is one size step smaller (+1
 * advantage die, +1 to defend) unless the attacker is elevated (003:116, reading O4); prone: +1
 * advantage die to the defence at range, to the attack in melee (003:117); size: per step larger
 * the attacker gains 1 advantage die and +1, per step smaller the defender does (003:122-123,
 * reading O5). `range` is melee (default) or ranged; `target2` a flanking ally (003:110).
 */
int ten_fight_mods(const rules_enc *e, const char *actor, const char *target, const rules_args *a,
                   ten_mods *m, tb_err *err)
{
    const char *range = ten_arg_str(a, "range");
    if (range && strcmp(range, "melee") != 0 && strcmp(range, "ranged") != 0)
        return tb_fail(err, TB_BAD_REQUEST, "range: melee or ranged, not '%.20s'", range);
    const char *flank = ten_arg_str(a, "target2");
    if (flank && (strcmp(flank, actor) == 0 || strcmp(flank, target) == 0 ||
                  ten_opposed(e, actor, flank) || rules_enc_is_out(e, flank)))
        return rules_enc_rule(err,
                              "%s cannot flank with %s: flanking is two allies attacking from "
                              "opposite directions (003:110)",
                              rules_enc_name(e, actor), rules_enc_name(e, flank));
    const char *cover = ten_cover(e, target);
    if (cover && strcmp(cover, "full") == 0)
        return rules_enc_rule(err,
                              "%s is completely behind hard cover and cannot be attacked "
                              "directly (003:114)",
                              rules_enc_name(e, target));
    int ranged = range && strcmp(range, "ranged") == 0;
    if (cover && strcmp(cover, "partial") == 0 && !ten_is(e, actor, "elevated")) {
        m->def_adv++;
        m->def_bonus++;
    }
    if (ten_is(e, target, "prone")) {
        if (ranged)
            m->def_adv++;
        else
            m->atk_adv++;
    }
    int d = ten_size(e, target) - ten_size(e, actor);
    if (d > 0) {
        m->atk_adv += d;
        m->atk_bonus += d;
    } else if (d < 0) {
        m->def_adv -= d;
        m->def_bonus -= d;
    }
    return 0;
}

void ten_say_states(rules_enc *e, rules_log *x, const char *actor, const char *target,
                    const rules_args *a)
{
    static const char *const keys[] = {"st1", "st2", "st3"}, *const lists[] = {"st.1", "st.2",
                                                                               "st.3"};
    const char *cover = ten_cover(e, target), *range = ten_arg_str(a, "range");
    int n = 0, elevated = ten_is(e, actor, "elevated"), far = range && strcmp(range, "ranged") == 0;
    if (cover && strcmp(cover, "partial") == 0)
        rules_log_word(x, keys[n++], elevated ? "st.sees" : "st.partial", RULES_AUD_PUBLIC);
    if (ten_is(e, target, "prone"))
        rules_log_word(x, keys[n++], far ? "st.prone_far" : "st.prone_close", RULES_AUD_PUBLIC);
    int d = ten_size(e, target) - ten_size(e, actor);
    if (d) {
        rules_log_word(x, keys[n++], d > 0 ? "st.larger" : "st.smaller", RULES_AUD_PUBLIC);
        rules_log_count(x, "steps", d < 0 ? -d : d, RULES_AUD_PUBLIC);
        if (d != 1 && d != -1)
            rules_log_word(x, "s", "w.s", RULES_AUD_PUBLIC);
    }
    if (n)
        rules_log_word(x, "states", lists[n - 1], RULES_AUD_PUBLIC);
}

/* 003:122 "your damage is halved and halved again for every additional step"; 003:123 "your
 * damage is doubled and doubled again for every additional step" (halves round down, O5). */
int ten_size_damage(int impact, int d)
{
    for (; d > 0; d--)
        impact /= 2;
    for (; d < 0 && impact < 100000; d++)
        impact *= 2;
    return impact;
}

/* An NPC's resistance is the GM's: when it takes a part, the public log says the hit landed
 * without the number and the GM log says how much was resisted. */
int ten_deal(rules_enc *e, const char *target, int n, const char *type, const char *why)
{
    int r = ten_resist_of(e, target, type);
    int taken = n > r ? n - r : 0;
    int hide = r > 0 && n > 0 && rules_enc_is_npc(e, target);
    if (r > 0 && n > 0) {
        rules_aud aud = hide ? RULES_AUD_GM : RULES_AUD_PUBLIC;
        rules_log *x = rules_log_begin(e, "resist", hide ? "resist_hit_npc" : "resist_hit");
        rules_log_who(x, "who", target);
        rules_log_json(x, "type", json_string(type), aud);
        rules_log_name(x, "dtype", type, aud);
        rules_log_int(x, "resist", r, aud);
        rules_log_count(x, "n", n - taken, aud);
        rules_log_end(x);
    }
    if (taken > 0)
        ten_stress_quiet(e, target, taken, why, hide);
    else if (hide) {
        rules_log *x = rules_log_begin(e, "stress", "stress_npc");
        rules_log_who(x, "who", target);
        rules_log_name(x, "why", why, RULES_AUD_PUBLIC);
        rules_log_end(x);
    }
    return taken;
}

/* ---- the strike (003:45, 003:66, 003:111) ---- */

int ten_strike_check(const rules_enc *e, const char *actor, const char *target, const rules_args *a,
                     int reaction, tb_err *err)
{
    ten_mods m = {0};
    int rc = ten_require_contest(e, actor, target, reaction ? "parting" : "attack",
                                 ten_skill_arg(a), err);
    if (!rc && !reaction) /* the parting strike's own check reads where the mover was */
        rc = ten_require_reach(e, actor, target, a, err);
    if (!rc)
        rc = ten_fight_mods(e, actor, target, a, &m, err);
    if (!rc)
        rc = ten_contest_check(e, actor, target, ten_skill_arg(a), a, err);
    if (!rc && !reaction)
        rc = ten_require_budget(e, actor, "action", 1, err);
    return rc;
}

void ten_strike(rules_enc *e, const char *actor, const char *target, const rules_args *a,
                int reaction)
{
    const char *skill = ten_skill_arg(a);
    const char *type = ten_arg_str(a, "type");
    ten_mods m = {.reaction = reaction};
    tb_err ignored;
    ten_fight_mods(e, actor, target, a, &m, &ignored);
    if (!reaction)
        m.atk_adv += ten_take_action(e, actor);
    const char *verb = reaction ? "verb.parting" : "verb.attack";
    const char *cover = ten_cover(e, target);
    if (cover && strcmp(cover, "soft") == 0) {
        /* 003:115 "The opponent rolls 1d10 and on a six (6) or higher they managed to find you
         * and you roll the attack and defense normally from there." The narrator may move the
         * number (`find`). */
        int need = ten_arg_given(a, "find") ? ten_arg_int(a, "find", 6) : 6;
        json_t *dice = json_array();
        int found = rules_roll_die(e->rng, 10, dice) >= need;
        ten_tag_last(dice, "blind", actor);
        /* an NPC's die is the GM's, as every die it rolls */
        int npc = rules_enc_aud_of(e, actor) == RULES_AUD_GM;
        rules_log *x = rules_log_begin(e, "blind", "blind");
        rules_log_who(x, "who", actor);
        rules_log_who(x, "target", target);
        rules_log_word(x, "verb", verb, RULES_AUD_PUBLIC);
        rules_log_word(x, "outcome", found ? "blind.found" : "blind.miss", RULES_AUD_PUBLIC);
        if (!npc)
            rules_log_dice(x, dice, RULES_AUD_PUBLIC);
        rules_log_json(x, "found", json_boolean(found), RULES_AUD_PUBLIC);
        rules_log_end(x);
        if (npc) {
            x = rules_log_begin(e, "blind", "blind_need");
            rules_log_who(x, "who", actor);
            rules_log_dice(x, dice, RULES_AUD_GM);
            rules_log_int(x, "need", need, RULES_AUD_GM);
            rules_log_end(x);
        }
        json_decref(dice);
        if (!found) {
            ten_bring(e, target);
            ten_done(e);
            return;
        }
    }
    ten_contest c;
    rules_log *x = rules_log_begin(e, reaction ? "parting" : "attack", "strike");
    ten_contest_roll(e, actor, target, skill, a, &m, 1, &c, x);
    int d = ten_size(e, target) - ten_size(e, actor);
    int dmg = c.success ? ten_size_damage(c.impact, d) : 0;
    int hidden_resist =
        c.success && rules_enc_is_npc(e, target) && ten_resist_of(e, target, type) > 0;
    int shown = dmg - (hidden_resist ? 0 : ten_resist_of(e, target, type));
    rules_log_who(x, "who", actor);
    rules_log_who(x, "target", target);
    rules_log_word(x, "verb", verb, RULES_AUD_PUBLIC);
    ten_log_skill(e, x, actor, skill);
    ten_log_versus(e, x, actor, target, 0, c.atk.total, c.def.total);
    ten_say_states(e, x, actor, target, a);
    rules_log_word(x, "outcome",
                   !c.success                           ? "strike.miss"
                   : hidden_resist || shown != c.impact ? "strike.impact"
                                                        : "strike.stress",
                   RULES_AUD_PUBLIC);
    if (!c.success && c.atk.total == c.def.total &&
        rules_enc_aud_of(e, actor) == RULES_AUD_PUBLIC &&
        rules_enc_aud_of(e, target) == RULES_AUD_PUBLIC)
        rules_log_word(x, "tie", "strike.tie", RULES_AUD_PUBLIC);
    rules_log_end(x);
    if (c.success) {
        if (dmg != c.impact) {
            rules_log *sx = rules_log_begin(e, "size", "size_damage");
            rules_log_who(sx, "who", actor);
            rules_log_word(sx, "how", d > 0 ? "size.halved" : "size.doubled", RULES_AUD_PUBLIC);
            rules_log_int(sx, "impact", c.impact, RULES_AUD_PUBLIC);
            rules_log_int(sx, "damage", dmg, RULES_AUD_PUBLIC);
            rules_log_end(sx);
        }
        /* 003:45 "DEAL DAMAGE: On a successful skill check you deal your skill's impact as
         * stress" */
        ten_deal(e, target, dmg, type, reaction ? "parting strike" : "attack");
        const char *flank = ten_arg_str(a, "target2");
        if (flank) {
            /* 003:110 "the first attacker can give the second attacker a point of spin upon a
             * successful attack" */
            ten_spin_add(e, flank, 1);
            rules_log *fx = rules_log_begin(e, "flank", "flank");
            rules_log_who(fx, "who", actor);
            rules_log_who(fx, "ally", flank);
            rules_log_json(fx, "to", json_string(flank), RULES_AUD_PUBLIC);
            rules_log_int(fx, "spin", 1, RULES_AUD_PUBLIC);
            rules_log_end(fx);
        }
    }
    ten_bring(e, target);
    ten_done(e);
}
