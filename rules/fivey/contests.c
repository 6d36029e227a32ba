/*
 * contests.c — the party's contests in a FIVEY encounter (fivey_enc.h): surprise, where each
 * member of the surprising party rolls d20 + DEX against one d20 + the other party's wisdom and
 * the winners take a free turn (004:645), and initiative, where each member of the adventuring
 * party rolls d20 + DEX against one d20 + the opposing party's DEX and the winners act before the
 * opposition (004:666-668). Rulebook 004_110cc4af3ff93059.txt, cited as 004:LINE; readings in
 * rules/RULES.md, fivey, reading E1 and reading 3 (a tie is no win).
 */
#include <string.h>

#include "fivey_enc.h"

/* ---- initiative ---- */

/* The opposition's bonus: the GM's `opp`, else its average DEX (reading E1); -1 when nobody
 * stands against the party. */
static int opposition_bonus(const rules_enc *e, const rules_args *a)
{
    return rules_arg_given(a, "opp") ? rules_arg_int(a, "opp")
                                     : fivey_group_average(e, fivey_party_side(e), 0, "dex");
}

int fivey_initiative_check(const rules_enc *e, const rules_args *a, tb_err *err)
{
    if (json_is_string(json_object_get(e->enc, "phase")))
        return rules_enc_rule(err, "the surprise turns are still being taken; initiative "
                                   "follows them (004:645)");
    const char *party = fivey_party_side(e);
    if (opposition_bonus(e, a) < 0 || fivey_group_average(e, party, 1, "dex") < 0)
        return rules_enc_rule(err,
                              "initiative needs standing members of the %s and of an "
                              "opposing side (004:666)",
                              party);
    return 0;
}

/* One party member's roll as the table sees it, into rolls: a PC's whole, an NPC's whether it
 * won (its die and bonus are the GM's: into npc_rolls). */
static void contest_rolls(rules_enc *e, const char *k, json_t *dice, size_t first, int won,
                          int bonus, int total, json_t *rolls, json_t *npc_rolls)
{
    json_t *one =
        json_pack("{s:i, s:b, s:i, s:i}", "natural",
                  (int)json_integer_value(json_object_get(json_array_get(dice, first), "value")),
                  "won", won, "bonus", bonus, "total", total);
    if (!rules_enc_is_npc(e, k)) {
        json_object_set_new(rolls, k, one);
        return;
    }
    json_object_set_new(rolls, k, json_pack("{s:b}", "won", won));
    json_object_set_new(npc_rolls, k, one);
}

int fivey_initiative(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *party = fivey_party_side(e);
    int opp = opposition_bonus(e, a);
    /* What the table sees (rules/RULES.md): the party's own rolls and who won; the opposition's
     * roll and bonus are the GM's. */
    json_t *dice = json_array(), *rolls = json_object(), *npc_rolls = json_object();
    rules_log *x = rules_log_begin(e, "initiative", "initiative");
    /* 004:666 "Each member of the adventuring party contests their dexterity stat against the
     * dexterity or power of the opposing party": one roll for the opposing party (reading E1). */
    int them = fivey_party_roll(e, opp, dice, "opposition");
    rules_log_int(x, "opposition_bonus", opp, RULES_AUD_GM);
    rules_log_int(x, "opposition_total", them, RULES_AUD_GM);
    rules_rank r[64];
    int n = 0, won_n = 0;
    const char *k;
    for (size_t i = 0; (k = rules_enc_cid_at(e, i)) && n < 64; i++) {
        json_t *c = rules_enc_combatant(e, k);
        json_object_del(c, "won");
        if (rules_enc_is_out(e, k)) {
            r[n++] = (rules_rank){k, {-1}, 0};
            continue;
        }
        if (!fivey_in_party(e, k)) {
            r[n++] = (rules_rank){k, {1}, 0}; /* the opposition, in the order it joined */
            continue;
        }
        int dex = rules_enc_stat(e, k, "dex", 1);
        size_t first = json_array_size(dice);
        int total = fivey_party_roll(e, dex, dice, k);
        /* "Those who win the contest may act before" the opposition; a tie is no win
         * (reading 3). */
        int won = total > them;
        won_n += won;
        if (won)
            json_object_set_new(c, "won", json_true());
        contest_rolls(e, k, dice, first, won, dex, total, rolls, npc_rolls);
        r[n++] = (rules_rank){k, {won ? 2 : 0, total, dex}, 0};
    }
    rules_enc_order_set(e, r, n);
    rules_enc_begin_round(e);
    rules_log_dice_by(x, dice, "by", RULES_AUD_GM);
    json_decref(dice);
    rules_log_json(x, "rolls", rolls, RULES_AUD_PUBLIC);
    if (json_object_size(npc_rolls))
        rules_log_json(x, "npc_rolls", npc_rolls, RULES_AUD_GM);
    else
        json_decref(npc_rolls);
    rules_log_count(x, "winners", won_n, RULES_AUD_PUBLIC);
    rules_log_name(x, "party", party, RULES_AUD_PUBLIC);
    rules_log_count(x, "round", rules_enc_round(e), RULES_AUD_PUBLIC);
    const char *first = rules_enc_current(e);
    if (first)
        rules_log_who(x, "first", first);
    else
        rules_log_word(x, "first", "nobody", RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/* ---- surprise (004:645) ---- */

static const char *surprise_side(const rules_enc *e, const rules_args *a)
{
    const char *side = rules_arg_str(a, "side");
    return side ? side : fivey_party_side(e);
}

/* The other party's wisdom: the GM's `wis`, else its average INT (reading E1). */
static int surprise_wisdom(const rules_enc *e, const rules_args *a)
{
    return rules_arg_given(a, "wis") ? rules_arg_int(a, "wis")
                                     : fivey_group_average(e, surprise_side(e, a), 0, "int");
}

int fivey_surprise_check(const rules_enc *e, const rules_args *a, tb_err *err)
{
    if (rules_enc_round(e) > 0 || json_is_string(json_object_get(e->enc, "phase")))
        return rules_enc_rule(err,
                              "surprise comes before the fight: round %d is under way "
                              "(004:645)",
                              rules_enc_round(e));
    const char *side = surprise_side(e, a);
    if (fivey_group_average(e, side, 1, "dex") < 0 || surprise_wisdom(e, a) < 0)
        return rules_enc_rule(err,
                              "surprise needs standing combatants on side '%s' and on "
                              "another side (004:645)",
                              side);
    return 0;
}

int fivey_surprise(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *side = surprise_side(e, a);
    int wis = surprise_wisdom(e, a);
    /* What the table sees (rules/RULES.md): the party's own rolls, who won; the other party's
     * roll, its wisdom and an NPC's die and total are the GM's. */
    json_t *dice = json_array(), *rolls = json_object(), *npc_rolls = json_object();
    rules_log *x = rules_log_begin(e, "surprise", "surprise");
    int other = fivey_party_roll(e, wis, dice, "other");
    rules_log_int(x, "wisdom", wis, RULES_AUD_GM);
    rules_log_int(x, "other_total", other, RULES_AUD_GM);
    rules_rank r[64];
    int n = 0;
    const char *k;
    for (size_t i = 0; (k = rules_enc_cid_at(e, i)) && n < 64; i++) {
        if (strcmp(rules_enc_side(e, k), side) != 0 || rules_enc_is_out(e, k))
            continue;
        int dex = rules_enc_stat(e, k, "dex", 1);
        size_t first = json_array_size(dice);
        int total = fivey_party_roll(e, dex, dice, k);
        /* 004:645 "Those who win the contest gain a free combat turn"; a tie wins nothing
         * (reading 3). */
        int won = total > other;
        contest_rolls(e, k, dice, first, won, dex, total, rolls, npc_rolls);
        if (won)
            r[n++] = (rules_rank){k, {total, dex}, 0};
    }
    rules_enc_order_set(e, r, n);
    rules_log_dice_by(x, dice, "by", RULES_AUD_GM);
    json_decref(dice);
    rules_log_json(x, "side", json_string(side), RULES_AUD_PUBLIC);
    rules_log_name(x, "side_name", side, RULES_AUD_PUBLIC);
    rules_log_json(x, "rolls", rolls, RULES_AUD_PUBLIC);
    if (json_object_size(npc_rolls))
        rules_log_json(x, "npc_rolls", npc_rolls, RULES_AUD_GM);
    else
        json_decref(npc_rolls);
    if (n == 0) {
        rules_log_word(x, "outcome", "surprise.nobody", RULES_AUD_PUBLIC);
        rules_log_end(x);
        return 0;
    }
    json_object_set_new(e->enc, "phase", json_string("surprise"));
    json_object_set_new(e->enc, "turn", json_integer(0));
    rules_enc_budget_reset(e, r[0].id);
    rules_log_count(x, "winners", n, RULES_AUD_PUBLIC);
    rules_log_who(x, "first", r[0].id);
    rules_log_word(x, "outcome", "surprise.won", RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/* surprise's sides (the party first, its default), and the numbers the rules work out when they
 * are left out: the other party's wisdom, the opposition's DEX. */
int fivey_contest_choices(const rules_enc *e, const rules_enc_action *a, const rules_param *p,
                          json_t *out)
{
    if (strcmp(p->name, "side") == 0) {
        fivey_choice(out, NULL, fivey_party_side(e));
        fivey_choose_sides(e, out, 0);
        return RULES_CHOICES_PICK;
    }
    fivey_choice(out, NULL,
                 strcmp(a->name, "surprise") == 0 ? "the other party's average INT"
                                                  : "the opposition's average DEX");
    return RULES_CHOICES_DEFAULT;
}
