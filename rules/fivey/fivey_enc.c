/*
 * fivey_enc.c — what the FIVEY encounter modules share (fivey_enc.h): reading the state without
 * writing it, the example monsters and brackets (004:715-767), a combatant's numbers when it
 * joins, damage and death (004:367), the party's contests (004:645, 004:666) and the collective
 * morale check (004:670). Rulebook 004_110cc4af3ff93059.txt, cited as 004:LINE; readings in
 * rules/RULES.md, "## fivey".
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "fivey_enc.h"

/* ---- reading the state ---- */

const char *fivey_party_side(const rules_enc *e)
{
    const char *p = json_string_value(json_object_get(e->enc, "party"));
    return p ? p : "party";
}

int fivey_in_party(const rules_enc *e, const char *cid)
{
    return strcmp(rules_enc_side(e, cid), fivey_party_side(e)) == 0;
}

int fivey_stat_of(const rules_enc *e, const char *cid, const char *stat)
{
    const json_t *st = rules_enc_stats_peek(e, cid);
    json_t *v = json_object_get(st, stat);
    if (!json_is_integer(v))
        v = json_object_get(json_object_get(st, "stats"), stat);
    return json_is_integer(v) ? (int)json_integer_value(v) : FIVEY_STAT_MIN;
}

int fivey_budget_check(const rules_enc *e, const char *cid, int n, tb_err *err)
{
    json_t *b = json_object_get(rules_enc_combatant(e, cid), "budget");
    int left = (int)json_integer_value(json_object_get(b, FIVEY_BUDGET));
    if (left >= n)
        return 0;
    /* the words of rules_enc_spend */
    if (n == 1)
        return rules_enc_rule(err, "%s has no %s left this turn", rules_enc_name(e, cid),
                              FIVEY_BUDGET);
    return rules_enc_rule(err, "%s has %d %s left this turn, not %d", rules_enc_name(e, cid), left,
                          FIVEY_BUDGET, n);
}

int fivey_group_average(const rules_enc *e, const char *side, int members_of_side, const char *stat)
{
    int sum = 0, n = 0;
    const char *k;
    for (size_t i = 0; (k = rules_enc_cid_at(e, i)); i++) {
        int on = strcmp(rules_enc_side(e, k), side) == 0;
        if (on != members_of_side || rules_enc_is_out(e, k))
            continue;
        sum += rules_enc_stat_peek(e, k, stat, 1);
        n++;
    }
    return n ? sum / n : -1;
}

const char *const FIVEY_STATS[] = {"str", "dex", "int", "cha", NULL};

int fivey_sheet_stat(const rules_enc *e, const char *cid, const char *stat)
{
    return (int)json_integer_value(
        json_object_get(json_object_get(rules_enc_stats_peek(e, cid), "stats"), stat));
}

int fivey_listed(const rules_enc *e, const char *key, const char *cid)
{
    int n = 0;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(e->enc, key), i, v) n +=
        rules_enc_streq(json_string_value(v), cid);
    return n;
}

int fivey_has_feat(const rules_enc *e, const char *cid, const char *feat)
{
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(rules_enc_stats_peek(e, cid), "feats"), i, v)
    {
        if (json_is_string(v) && strcasecmp(json_string_value(v), feat) == 0)
            return 1;
    }
    return 0;
}

json_t *fivey_list(rules_enc *e, const char *key)
{
    json_t *a = json_object_get(e->enc, key);
    if (!json_is_array(a)) {
        a = json_array();
        json_object_set_new(e->enc, key, a);
    }
    return a;
}

int fivey_edge_exclusive(const rules_args *a, tb_err *err)
{
    if (rules_arg_int(a, "adv") && rules_arg_int(a, "dis"))
        return tb_fail(err, TB_BAD_REQUEST, "parameters 'adv' and 'dis' are exclusive: give one");
    return 0;
}

int fivey_standing(const rules_enc *e, const char *cid, tb_err *err)
{
    const char *out = json_string_value(json_object_get(rules_enc_combatant(e, cid), "out"));
    if (out)
        return rules_enc_rule(err, "%s is out of the encounter (%s)", rules_enc_name(e, cid), out);
    return 0;
}

int fivey_one_of(const char *s, const char *const *list)
{
    for (size_t i = 0; s && list[i]; i++)
        if (strcmp(s, list[i]) == 0)
            return 1;
    return 0;
}

void fivey_choice(json_t *out, json_t *value, const char *label)
{
    json_array_append_new(
        out, json_pack("{s:o, s:s}", "value", value ? value : json_null(), "label", label));
}

static void choose_where(const rules_enc *e, json_t *out, const char *side, int on_side)
{
    for (int npc = 0; npc < 2; npc++) {
        const char *k;
        for (size_t i = 0; (k = rules_enc_cid_at(e, i)); i++)
            if ((strcmp(rules_enc_side(e, k), side) == 0) == on_side &&
                rules_enc_is_npc(e, k) == npc && !rules_enc_is_out(e, k))
                fivey_choice(out, json_string(k), rules_enc_name(e, k));
    }
}

void fivey_choose_side(const rules_enc *e, json_t *out, const char *side, int others_too)
{
    if (others_too)
        choose_where(e, out, side, 0);
    choose_where(e, out, side, 1);
}

void fivey_choose_sides(const rules_enc *e, json_t *out, int skip_party)
{
    const char *k, *j;
    for (size_t i = 0; (k = rules_enc_cid_at(e, i)); i++) {
        const char *side = rules_enc_side(e, k);
        int seen = (skip_party && fivey_in_party(e, k)) || rules_enc_is_out(e, k);
        for (size_t n = 0; !seen && n < i && (j = rules_enc_cid_at(e, n)); n++)
            seen = !rules_enc_is_out(e, j) && strcmp(rules_enc_side(e, j), side) == 0;
        if (!seen)
            fivey_choice(out, json_string(side), side);
    }
}

void fivey_choose_stats(const rules_enc *e, const char *cid, json_t *out, int below_max)
{
    static const char *const LABELS[] = {"STR", "DEX", "INT", "CHA"};
    for (int i = 0; FIVEY_STATS[i]; i++) {
        int v = fivey_sheet_stat(e, cid, FIVEY_STATS[i]);
        char label[32];
        snprintf(label, sizeof label, "%s +%d", LABELS[i], v);
        if (!below_max || v < FIVEY_STAT_MAX)
            fivey_choice(out, json_string(FIVEY_STATS[i]), label);
    }
}

/* ---- the words (the system's phrasings: encounter.h, "The log") ---- */

/* clang-format off */
const rules_phrase fivey_enc_phrases[] = {
    /* a monster's numbers, the GM's (004:426): joining, spawn, bracket */
    {"bracket_join", "{who}: {monster} ({kind}), defense class {defense}, {hp_max} hit points"},
    {"bracket.grunt", "no example monster by that name: a grunt"},
    {"spawn_bracket", "{who} ({cid}): {monster}, defense class {defense}, {hp_max} hit points"},
    {"spawn.by_bracket", "by bracket"},
    {"bracket_set", "{who}: {kind}, defense class {defense}, {hp_max} hit points"},
    /* damage and morale */
    {"defeat", "{who} is dead (004:367)"},
    {"xp", "{who} is worth {xp} XP (004:730-740)"},
    {"morale-due", "The {side_name} must check morale: {why} (004:670)"},
    {"morale-due.leader", "their leader is defeated"},
    {"morale-due.dwindle", "their numbers dwindle"},
    {"morale", "Morale of the {side_name}: {total} vs DC {dc}; the {side_name} check morale: "
               "{outcome} (004:670)"},
    {"morale", "The {side_name} check morale: {outcome} (004:670)"},
    {"morale.hold", "they keep order"},
    {"morale.flee", "they break and flee"},
    {"round", "Round {round}: {first} acts first (004:668)"},
    {"round", "Round {round}"},
    {"nobody_left", "Nobody is left to act"},
    /* the contests (contests.c) */
    {"initiative", "Initiative: the opposition rolls {opposition_total} (DEX +{opposition_bonus}); "
                   "initiative: {winners} of the {party} beat the opposition and act before it; "
                   "round {round}, {first} goes first (004:666)"},
    {"initiative", "Initiative: {winners} of the {party} beat the opposition and act before it; "
                   "round {round}, {first} goes first (004:666)"},
    {"nobody", "nobody"},
    {"surprise", "Surprise: the other party rolls {other_total} (wisdom +{wisdom}); surprise: "
                 "{outcome} (004:645)"},
    {"surprise", "Surprise: {outcome} (004:645)"},
    {"surprise.won", "{winners} of the {side_name} won a free turn; {first} goes first"},
    {"surprise.nobody", "nobody of the {side_name} beats the other party's wisdom"},
    /* the spells (spells.c) */
    {"cast", "{who} casts {spell_name}{effect?}"},
    {"cast.save", ": {damage} damage{t1}{t2?}{t3?}{t4?}"},
    {"cast.t1", " — {t1_who} {t1_saved}{t1_vs?} and takes {t1_hurt}"},
    {"cast.t2", "; {t2_who} {t2_saved}{t2_vs?} and takes {t2_hurt}"},
    {"cast.t3", "; {t3_who} {t3_saved}{t3_vs?} and takes {t3_hurt}"},
    {"cast.t4", "; {t4_who} {t4_saved}{t4_vs?} and takes {t4_hurt}"},
    {"cast.t1_vs", " ({t1_natural} + {t1_dex} = {t1_total} vs DC {dc})"},
    {"cast.t2_vs", " ({t2_natural} + {t2_dex} = {t2_total} vs DC {dc})"},
    {"cast.t3_vs", " ({t3_natural} + {t3_dex} = {t3_total} vs DC {dc})"},
    {"cast.t4_vs", " ({t4_natural} + {t4_dex} = {t4_total} vs DC {dc})"},
    {"cast.saves", "saves"},
    {"cast.fails", "fails to save"},
    {"cast.charm", " on {whom}{versus?}{charmed}"},
    {"cast.charm_vs", " ({total} vs {against})"},
    {"cast.charmed", ": charmed, friendly for {hours} hours"},
    {"cast.resists", ": {whom} resists"},
    {"cast.undead", ": up to {hit_dice} hit dice worth of undead turn away and freeze, each "
                    "skipping its next turn"},
    {"cast.lasts", " for {duration} {unit}"},
    /* downtime (downtime.c) */
    {"downtime", "{who} lives {life} ({cost} crowns){event_words?} and {what}"},
    {"downtimes", "{who} lives {life} for a {span_name} ({cost} crowns, {turns} downtime turns"
                  "{event_words?}) and {what}"},
    {"downtime.events", "; events: {goods} good, {bads} bad"},
    {"downtime.bad", ", a bad event"},
    {"downtime.good", ", a good event"},
    {"downtime.beg", "begs and gains {crowns_gained} crowns"},
    {"downtime.beg", "begs"},
    {"downtime.work", "works and earns {roll} crowns"},
    {"downtime.work", "works"},
    {"downtime.carouse", "carouses and gains {roll} experience"},
    {"downtime.carouse", "carouses"},
    {"downtime.study", "studies: {roll} against 16, {learned}"},
    {"downtime.study", "studies: {learned}"},
    {"downtime.learned", "learned"},
    {"downtime.not_yet", "not yet"},
    {"downtime.establish", "invests {roll} capital in the institution{reinvest?} ({capital} in "
                           "all){grown?}"},
    {"downtime.establish", "invests in the institution{grown?}"},
    {"downtime.reinvest", " and reinvests {reinvested} cr. of its credit"},
    {"downtime.grown", "; it is now {institution} (level {inst_level})"},
    /* no phrasing without the credit: an NPC's institution is the GM's, even whether it has one */
    {"credit", "{who}'s institution offers its line of credit: {credit} cr. this tennite"},
    {"downtime.ball", "attends a grand ball"},
    {NULL, NULL},
};
/* clang-format on */

/* ---- joining ---- */

/* Numbers from a fivey sheet (PCs, and NPCs with a sheet): stats, defense class, movement,
 * weapons with their attack bonus (004:373, 004:414, 004:678). hp and inspiration came from the
 * sheet already (sheet_stats). */
static void set_sheet(rules_enc *e, const char *cid, const json_t *sheet)
{
    json_t *st = rules_enc_stats(e, cid);
    const json_t *stats = json_object_get(sheet, "stats");
    for (const char *const *s = (const char *const[]){"cha", "dex", "int", "str", NULL}; *s; s++)
        json_object_set_new(st, *s, json_integer(json_integer_value(json_object_get(stats, *s))));
    int dex = (int)json_integer_value(json_object_get(stats, "dex"));
    int str = (int)json_integer_value(json_object_get(stats, "str"));
    const char *armor = json_string_value(json_object_get(sheet, "armor"));
    json_object_set_new(st, "defense",
                        json_integer(fivey_defense_class(
                            dex, armor, json_is_true(json_object_get(sheet, "shield")))));
    /* 004:379 6 paces; 004:414 -2 below the armor's strength */
    json_object_set_new(st, "move",
                        json_integer(FIVEY_BASE_MOVE - (str < fivey_armor_str(armor) ? 2 : 0)));
    const char *att = json_string_value(json_object_get(sheet, "attuned"));
    json_t *ws = json_array();
    size_t i;
    json_t *w;
    json_array_foreach(json_object_get(sheet, "weapons"), i, w)
    {
        const char *name = json_string_value(json_object_get(w, "name"));
        const char *sname = json_string_value(json_object_get(w, "stat"));
        int stat = (int)json_integer_value(json_object_get(stats, sname ? sname : "str"));
        /* 004:678 "double their stat modifier on the attack roll if the character is either
         * proficient with or attuned to their weapon" */
        int skilled =
            json_is_true(json_object_get(w, "skilled")) || (att && name && strcmp(att, name) == 0);
        json_array_append_new(ws, json_pack("{s:s, s:i, s:s, s:i}", "name", name ? name : "?",
                                            "bonus", fivey_bonus(stat, skilled), "die",
                                            json_string_value(json_object_get(w, "damage")), "stat",
                                            stat));
    }
    json_object_set_new(st, "weapons", ws);
}

json_t *fivey_hp(rules_enc *e, const char *cid)
{
    json_t *st = rules_enc_stats(e, cid);
    json_t *hp = json_object_get(st, "hp");
    if (!json_is_object(hp)) {
        hp = json_pack("{s:i, s:i}", "max", 1, "damage", 0);
        json_object_set_new(st, "hp", hp);
    }
    return hp;
}

static int hp_get(rules_enc *e, const char *cid, const char *key)
{
    return (int)json_integer_value(json_object_get(fivey_hp(e, cid), key));
}

rules_log *fivey_log_bracket(rules_enc *e, const char *event, const char *cid, const json_t *dice)
{
    static const char *const KEYS[] = {"bracket", "hd",  "ga", "cha", "dex", "int",
                                       "str",     "die", "xp", "hp",  NULL};
    json_t *st = rules_enc_stats(e, cid);
    rules_log *x = rules_log_begin(e, "bracket", event);
    rules_log_dice(x, dice, RULES_AUD_GM);
    rules_log_who(x, "who", cid);
    for (const char *const *k = KEYS; *k; k++)
        if (json_object_get(st, *k))
            rules_log_json(x, *k, json_deep_copy(json_object_get(st, *k)), RULES_AUD_GM);
    rules_log_int(x, "defense", rules_enc_stat(e, cid, "defense", 0), RULES_AUD_GM);
    rules_log_count(x, "hp_max", hp_get(e, cid, "max"), RULES_AUD_GM);
    return x;
}

int fivey_enc_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    (void)err;
    if (sheet) {
        set_sheet(e, cid, sheet);
        fivey_hp(e, cid);
    } else {
        /* A quick NPC: an example monster by its name (004:748-767), else a grunt with a light
         * defense class, "just right" (004:773, 004:742; reading E4). */
        const fivey_monster *m = fivey_monster_named(rules_enc_name(e, cid));
        char b = m ? fivey_bracket_of_hd(m->hd) : 'G';
        json_t *dice = json_array();
        fivey_set_bracket(e, cid, b, m ? m->dc : 12, 0, dice);
        if (m)
            json_object_set_new(rules_enc_stats(e, cid), "xp", json_integer(m->xp));
        /* the GM's: its numbers (004:426) */
        rules_log *x = fivey_log_bracket(e, "bracket_join", cid, dice);
        json_decref(dice);
        if (m)
            rules_log_name(x, "monster", m->name, RULES_AUD_GM);
        else
            rules_log_word(x, "monster", "bracket.grunt", RULES_AUD_GM);
        rules_log_name(x, "kind", fivey_bracket_name(b), RULES_AUD_GM);
        rules_log_end(x);
    }
    if (hp_get(e, cid, "damage") >= hp_get(e, cid, "max"))
        rules_enc_set_out(e, cid, "dead");
    /* Joining a running fight: at the end of the order (reading E2). */
    if (rules_enc_round(e) > 0 && rules_enc_order_index(e, cid) < 0)
        json_array_append_new(json_object_get(e->enc, "order"), json_string(cid));
    return 0;
}

/* ---- damage, defeat, morale ---- */

static void morale_due(rules_enc *e, const char *cid, int was_leader)
{
    /* 004:670 "If the opposing side's numbers dwindle or if their leader is defeated, the
     * remaining members will make a collective wisdom check": the opposing side only; dwindled
     * = half or more of the side out (reading E6). */
    if (fivey_in_party(e, cid))
        return;
    const char *side = rules_enc_side(e, cid);
    int members = 0, out = 0;
    const char *k;
    for (size_t i = 0; (k = rules_enc_cid_at(e, i)); i++)
        if (strcmp(rules_enc_side(e, k), side) == 0) {
            members++;
            out += rules_enc_is_out(e, k);
        }
    if (out >= members)
        return; /* nobody left to flee */
    if (!was_leader && (members < 2 || 2 * out < members))
        return;
    json_t *m = json_object_get(e->enc, "morale");
    if (!json_is_object(m)) {
        m = json_object();
        json_object_set_new(e->enc, "morale", m);
    }
    json_t *s = json_object_get(m, side);
    if (!json_is_object(s)) {
        s = json_pack("{s:i}", "checks", 0);
        json_object_set_new(m, side, s);
    }
    json_object_set_new(s, "due", json_true());
    rules_log *x = rules_log_begin(e, "morale-due", "morale-due");
    rules_log_name(x, "side_name", side, RULES_AUD_PUBLIC);
    rules_log_word(x, "why", was_leader ? "morale-due.leader" : "morale-due.dwindle",
                   RULES_AUD_PUBLIC);
    rules_log_end(x);
}

int fivey_apply_damage(rules_enc *e, const char *cid, int dmg)
{
    json_t *hp = fivey_hp(e, cid);
    int max = (int)json_integer_value(json_object_get(hp, "max"));
    int d = (int)json_integer_value(json_object_get(hp, "damage")) + dmg;
    if (d < 0)
        d = 0;
    if (d > 999)
        d = 999;
    json_object_set_new(hp, "damage", json_integer(d));
    int dead = d >= max;
    if (dead && !rules_enc_is_out(e, cid)) {
        rules_enc_set_out(e, cid, "dead");
        rules_log *x = rules_log_begin(e, "defeat", "defeat");
        rules_log_who(x, "who", cid);
        rules_log_end(x);
        if (rules_enc_is_npc(e, cid)) {
            json_t *xp = json_object_get(rules_enc_stats(e, cid), "xp");
            if (json_is_integer(xp)) {
                json_int_t total = json_integer_value(json_object_get(e->hidden, "xp"));
                json_object_set_new(e->hidden, "xp", json_integer(total + json_integer_value(xp)));
                x = rules_log_begin(e, "xp", "xp");
                rules_log_who(x, "who", cid);
                rules_log_count(x, "xp", (int)json_integer_value(xp), RULES_AUD_GM);
                rules_log_end(x);
            }
        }
        json_t *c = rules_enc_combatant(e, cid);
        morale_due(e, cid, json_is_true(json_object_get(c, "leader")));
        return 1;
    }
    if (!dead &&
        rules_enc_streq(json_string_value(json_object_get(rules_enc_combatant(e, cid), "out")),
                        "dead"))
        rules_enc_set_out(e, cid, NULL); /* healed back above its hit points */
    return 0;
}

int fivey_party_roll(rules_enc *e, int bonus, json_t *dice, const char *by)
{
    fivey_roll r;
    json_t *d = json_array();
    fivey_roll_check(&r, e->rng, d, bonus, FIVEY_EDGE_NONE, 0, 0);
    size_t i;
    json_t *v;
    json_array_foreach(d, i, v) json_object_set_new(v, "by", json_string(by));
    json_array_extend(dice, d);
    json_decref(d);
    return r.total;
}

/* The side a morale check is for: `side`, else the first one due; NULL when none. */
static const char *morale_side(const rules_enc *e, const char *side)
{
    if (side)
        return side;
    const char *k;
    json_t *v;
    json_object_foreach(json_object_get(e->enc, "morale"), k, v)
    {
        if (json_is_true(json_object_get(v, "due")))
            return k;
    }
    return NULL;
}

/* Its wisdom: the GM's `wis`, else the average INT of those standing (reading 9). */
static int morale_wisdom(const rules_enc *e, const char *side, const rules_args *a)
{
    return rules_arg_given(a, "wis") ? rules_arg_int(a, "wis")
                                     : fivey_group_average(e, side, 1, "int");
}

int fivey_morale_check(const rules_enc *e, const char *side, const rules_args *a, tb_err *err)
{
    side = morale_side(e, side);
    if (!side)
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act morale: no side is due a morale check; "
                       "name one ('side')");
    if (strcmp(side, fivey_party_side(e)) == 0)
        return rules_enc_rule(err, "morale is the opposing side's check, not the %s's (004:670)",
                              side);
    /* the GM's wisdom or not, a side nobody stands on has nobody to flee */
    if (fivey_group_average(e, side, 1, "int") < 0)
        return rules_enc_rule(err, "nobody of the %s is left standing to check morale", side);
    return 0;
}

int fivey_morale(rules_enc *e, const char *side, const rules_args *a, tb_err *err)
{
    (void)err;
    side = morale_side(e, side);
    int wis = morale_wisdom(e, side, a);
    json_t *m = json_object_get(e->enc, "morale");
    json_t *s = json_object_get(m, side);
    int checks = (int)json_integer_value(json_object_get(s, "checks"));
    /* 004:670 "The check is initially moderate, and becomes difficult or even incredible as the
     * encounter proceeds": ★★ 14, ★★★ 16, ★★★★ 18 (004:87-92, reading E6). */
    int dc = rules_arg_given(a, "dc") ? rules_arg_int(a, "dc")
                                      : fivey_dc_for_stars(checks < 2 ? 2 + checks : 4);
    json_t *dice = json_array();
    fivey_roll r;
    fivey_roll_check(&r, e->rng, dice, wis, FIVEY_EDGE_NONE, 0, 0);
    int hold = fivey_meets(r.total, dc);
    if (!json_is_object(m)) {
        m = json_object();
        json_object_set_new(e->enc, "morale", m);
    }
    json_object_set_new(m, side, json_pack("{s:i, s:b}", "checks", checks + 1, "due", 0));
    /* What the table sees (rules/RULES.md): whether the side holds; its roll, wisdom and the
     * DC are the GM's (the party never checks morale, reading E6). */
    rules_log *x = rules_log_begin(e, "morale", "morale");
    rules_log_dice(x, dice, RULES_AUD_GM);
    json_decref(dice);
    rules_log_int(x, "bonus", wis, RULES_AUD_GM);
    rules_log_int(x, "total", r.total, RULES_AUD_GM);
    rules_log_int(x, "dc", dc, RULES_AUD_GM);
    rules_log_name(x, "side_name", side, RULES_AUD_PUBLIC);
    int fled = 0;
    if (!hold) {
        const char *k;
        for (size_t i = 0; (k = rules_enc_cid_at(e, i)); i++)
            if (strcmp(rules_enc_side(e, k), side) == 0 && !rules_enc_is_out(e, k)) {
                rules_enc_set_out(e, k, "fled");
                fled++;
            }
    }
    rules_log_json(x, "side", json_string(side), RULES_AUD_PUBLIC);
    rules_log_json(x, "hold", json_boolean(hold), RULES_AUD_PUBLIC);
    rules_log_int(x, "fled", fled, RULES_AUD_PUBLIC);
    rules_log_word(x, "outcome", hold ? "morale.hold" : "morale.flee", RULES_AUD_PUBLIC);
    rules_log_end(x);
    /* the one acting may just have fled: move on */
    const char *cur = rules_enc_current(e);
    if (cur && rules_enc_is_out(e, cur) && rules_enc_advance(e) == 1) {
        x = rules_log_begin(e, "round", "round");
        rules_log_count(x, "round", rules_enc_round(e), RULES_AUD_PUBLIC);
        rules_log_end(x);
    }
    return 0;
}

int fivey_morale_choices(const rules_enc *e, const rules_param *p, const char *default_side,
                         json_t *out)
{
    if (strcmp(p->name, "side") == 0) {
        fivey_choice(out, NULL, default_side);
        fivey_choose_sides(e, out, 1);
        return RULES_CHOICES_PICK;
    }
    fivey_choice(out, NULL,
                 strcmp(p->name, "wis") == 0 ? "the side's average INT" : "14, then 16, then 18");
    return RULES_CHOICES_DEFAULT;
}
