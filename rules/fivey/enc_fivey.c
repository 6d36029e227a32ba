/*
 * enc_fivey.c — the FIVEY encounter module `fivey.combat` (rules/encounter.h), rulebook
 * 004_110cc4af3ff93059.txt cited as 004:LINE. Readings of unclear passages: rules/RULES.md,
 * "## fivey", "Encounters (module fivey.combat)".
 *
 *   surprise    GM    each member of the surprising party: d20 + DEX against one d20 + the other
 *                     party's wisdom; the winners take a free turn before initiative (004:645)
 *   initiative  GM    each member of the adventuring party: d20 + DEX against one d20 + the
 *                     opposing party's DEX; winners act before the opposition, the others after
 *                     it (004:666); round 1 starts
 *   attack      TURN  1 ◆: d20 + stat (doubled when proficient or attuned) vs the target's defense
 *                     class; damage die + stat; a natural 20 gives an inspiration die (004:676-682,
 *                     004:373)
 *   move        TURN  1 ◆ (004:686-688); climbing, crawling, swimming, jumping cost twice
 *                     (004:381, 004:690); swimming in armor risks 1d6 drowning (004:424)
 *   act         TURN  1 or 2 ◆, any other action (004:694-711)
 *   cast        TURN  ◆◆ and one of the sheet's casts: a spell it carries (004:481-505, 004:701)
 *   armor       TURN  ◆◆ and a DEX check against the armor's defense class to don or doff it
 *                     (004:424)
 *   end         TURN  ends the turn; past the last, a new round (004:668)
 *   morale      GM    the collective wisdom check of a side that dwindles or loses its leader;
 *                     DC 14, then 16, then 18 (004:670); failing, the side flees
 *   bracket     GM    an NPC's numbers from a monster bracket: HD d6 hit points, GA, damage die,
 *                     XP by bracket and defense class (004:715-742)
 *   spawn       GM    adds an NPC from a bracket or an example monster in one step (004:744-767)
 *   leader      GM    marks a side's leader (004:670)   harm  GM  damage or healing by hand
 *
 * State (documented in RULES.md): /enc/party (the adventuring party's side), /enc/budget
 * {"actions":2}, /enc/phase ("surprise" during the free turns), /enc/morale {<side>: {checks,
 * due}}; combatant keys `leader`, `won` (initiative: beat the opposition); stats (public for PCs,
 * /gm/enc for NPCs): cha dex int str, defense, move, hp {max, damage}, inspiration (PCs),
 * weapons [{name, bonus, die, stat}] (from a sheet) or bracket, hd, ga, die, xp (monsters);
 * from a sheet also spells [{name, level, vessel}], spell_slots {max, used} and armor (written
 * back when a cast is spent or armor donned or doffed); the condition `charmed` {by, hours};
 * /gm/enc/xp the XP of the monsters defeated.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "dice.h"
#include "encounter.h"
#include "fivey.h"

#define BUDGET "actions" /* the ◆ of 004:674 */

/* ---- small helpers ---- */

static const char *party_side(const rules_enc *e)
{
    const char *p = json_string_value(json_object_get(e->enc, "party"));
    return p ? p : "party";
}

static int in_party(const rules_enc *e, const char *cid)
{
    return strcmp(rules_enc_side(e, cid), party_side(e)) == 0;
}

static int same_side(const rules_enc *e, const char *a, const char *b)
{
    return strcmp(rules_enc_side(e, a), rules_enc_side(e, b)) == 0;
}

static json_t *hp_of(rules_enc *e, const char *cid)
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
    return (int)json_integer_value(json_object_get(hp_of(e, cid), key));
}

/* ---- monsters (004:715-767) ---- */

static const struct monster {
    const char *name;
    int xp, hd, dc, ga;
} MONSTERS[] = {
    /* 004:748-767 */
    {"Bear", 12, 4, 12, 3},           {"Berserker", 8, 2, 12, 2},
    {"Bugbear", 15, 4, 14, 3},        {"Commoner", 4, 1, 12, 1},
    {"Dragon, Infant", 12, 2, 16, 2}, {"Dragon, Young", 18, 4, 16, 3},
    {"Dragon, Adult", 24, 8, 16, 4},  {"Dragon, Elder", 30, 16, 16, 5},
    {"Ghoul", 12, 4, 12, 3},          {"Giant", 25, 16, 14, 5},
    {"Goblin", 5, 1, 14, 1},          {"Hobgoblin", 10, 2, 14, 2},
    {"Ogre", 15, 4, 14, 3},           {"Orc", 10, 2, 14, 2},
    {"Skeleton", 4, 1, 12, 1},        {"Troll", 20, 8, 14, 4},
    {"Vampire", 30, 16, 16, 5},       {"Wraith", 16, 8, 12, 4},
    {"Zombie", 8, 2, 12, 2},
};

/* The example monster a name starts with ("Goblin", "goblin archer", "Orc 2"), or NULL. The
 * longest match wins ("Hobgoblin" is not a "Goblin"). */
static const struct monster *monster_named(const char *name)
{
    const struct monster *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; name && i < sizeof MONSTERS / sizeof MONSTERS[0]; i++) {
        size_t n = strlen(MONSTERS[i].name);
        if (strncasecmp(name, MONSTERS[i].name, n) == 0 && !isalpha((unsigned char)name[n]) &&
            n > best_len) {
            best = &MONSTERS[i];
            best_len = n;
        }
    }
    return best;
}

/* 'M','G','E','L','B' from "M", "mook", "Grunt", "elites", ...; 0 if none. */
static char bracket_letter(const char *s)
{
    static const char *const names[] = {"mook", "grunt", "elite", "lieutenant", "boss"};
    static const char letters[] = "MGELB";
    if (!s || !*s)
        return 0;
    if (!s[1]) {
        const char *p = strchr(letters, toupper((unsigned char)s[0]));
        return p ? *p : 0;
    }
    for (int i = 0; i < 5; i++)
        if (strncasecmp(s, names[i], strlen(names[i])) == 0)
            return letters[i];
    return 0;
}

static char bracket_of_hd(int hd)
{
    /* 004:720-724 HD 1, 2, 4, 8, 16 */
    return hd >= 16 ? 'B' : hd >= 8 ? 'L' : hd >= 4 ? 'E' : hd >= 2 ? 'G' : 'M';
}

static const char *bracket_name(char b)
{
    switch (b) {
    case 'M':
        return "mook";
    case 'G':
        return "grunt";
    case 'E':
        return "elite";
    case 'L':
        return "lieutenant";
    default:
        return "boss";
    }
}

/* The bracket's damage die: D/A 2..6 is d4..d12 (004:720-724). */
static int bracket_die(char b)
{
    return 2 + 2 * fivey_monster_ga(b);
}

/*
 * Sets an NPC's numbers from a bracket (004:715-742): hit points = HD d6 unless hp > 0 (004:728),
 * GA as every stat, the bracket's damage die, XP by bracket and defense class. The HP dice go to
 * `dice` (GM-only).
 */
static void set_bracket(rules_enc *e, const char *cid, char b, int dc, int hp, json_t *dice)
{
    json_t *st = rules_enc_stats(e, cid);
    json_object_clear(st);
    int ga = fivey_monster_ga(b), hd = fivey_monster_hd(b);
    if (hp <= 0) {
        rules_pool p;
        rules_pool_roll(&p, e->rng, hd, 6, hd, RULES_KEEP_HIGHEST, NULL);
        rules_pool_to_json(&p, dice);
        hp = p.sum_kept;
    }
    char die[8];
    snprintf(die, sizeof die, "1d%d", bracket_die(b));
    int xp = fivey_monster_xp(b, dc);
    json_object_set_new(st, "bracket", json_string((char[]){b, 0}));
    json_object_set_new(st, "hd", json_integer(hd));
    json_object_set_new(st, "ga", json_integer(ga));
    /* The general ability stat stands for every stat (reading E3). */
    for (const char *const *s = (const char *const[]){"cha", "dex", "int", "str", NULL}; *s; s++)
        json_object_set_new(st, *s, json_integer(ga));
    json_object_set_new(st, "defense", json_integer(dc));
    json_object_set_new(st, "die", json_string(die));
    json_object_set_new(st, "xp", xp < 0 ? json_null() : json_integer(xp));
    json_object_set_new(st, "hp", json_pack("{s:i, s:i}", "max", hp, "damage", 0));
}

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

/* ---- damage, defeat, morale ---- */

static void check_morale(rules_enc *e, const char *cid, int was_leader)
{
    /* 004:670 "If the opposing side's numbers dwindle or if their leader is defeated, the
     * remaining members will make a collective wisdom check": the opposing side only; dwindled
     * = half or more of the side out (reading E6). */
    if (in_party(e, cid))
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
    rules_enc_log(e, "morale-due", NULL, NULL, "The %s must check morale: %s (004:670)", side,
                  was_leader ? "their leader is defeated" : "their numbers dwindle");
}

/* Adds dmg (negative: heals) to cid's running tally; at damage >= hit points the combatant dies
 * (004:367, reading 5). Returns 1 when it died now. */
static int apply_damage(rules_enc *e, const char *cid, int dmg)
{
    json_t *hp = hp_of(e, cid);
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
        rules_enc_log(e, "defeat", NULL, NULL, "%s is dead (004:367)", rules_enc_name(e, cid));
        if (rules_enc_is_npc(e, cid)) {
            json_t *xp = json_object_get(rules_enc_stats(e, cid), "xp");
            if (json_is_integer(xp)) {
                json_int_t total = json_integer_value(json_object_get(e->hidden, "xp"));
                json_object_set_new(e->hidden, "xp", json_integer(total + json_integer_value(xp)));
                rules_enc_log_gm(e, "xp", NULL, NULL, "%s is worth %lld XP (004:730-740)",
                                 rules_enc_name(e, cid), (long long)json_integer_value(xp));
            }
        }
        json_t *c = rules_enc_combatant(e, cid);
        check_morale(e, cid, json_is_true(json_object_get(c, "leader")));
        return 1;
    }
    if (!dead && json_is_string(json_object_get(rules_enc_combatant(e, cid), "out")) &&
        rules_enc_streq(json_string_value(json_object_get(rules_enc_combatant(e, cid), "out")),
                        "dead"))
        rules_enc_set_out(e, cid, NULL); /* healed back above its hit points */
    return 0;
}

/* ---- the module hooks ---- */

static int fivey_start(rules_enc *e, const rules_args *o, tb_err *err)
{
    (void)err;
    const char *p = rules_arg_str(o, "party");
    json_object_set_new(e->enc, "party", json_string(p ? p : "party"));
    /* 004:674 "All characters can perform 2 actions ◆ during their turn." */
    rules_enc_budget_default(e, json_pack("{s:i}", BUDGET, 2));
    return 0;
}

/* The join both fivey.combat and fivey.social run (fivey.h). */
int fivey_enc_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    (void)err;
    if (sheet) {
        set_sheet(e, cid, sheet);
        hp_of(e, cid);
    } else {
        /* A quick NPC: an example monster by its name (004:748-767), else a grunt with a light
         * defense class, "just right" (004:773, 004:742; reading E4). */
        const struct monster *m = monster_named(rules_enc_name(e, cid));
        char b = m ? bracket_of_hd(m->hd) : 'G';
        json_t *dice = json_array();
        set_bracket(e, cid, b, m ? m->dc : 12, 0, dice);
        if (m)
            json_object_set_new(rules_enc_stats(e, cid), "xp", json_integer(m->xp));
        rules_enc_log_gm(e, "bracket", dice, json_deep_copy(rules_enc_stats(e, cid)),
                         "%s: %s (%s), defense class %d, %d hit points", rules_enc_name(e, cid),
                         m ? m->name : "no example monster by that name: a grunt", bracket_name(b),
                         m ? m->dc : 12, hp_get(e, cid, "max"));
    }
    if (hp_get(e, cid, "damage") >= hp_get(e, cid, "max"))
        rules_enc_set_out(e, cid, "dead");
    /* Joining a running fight: at the end of the order (reading E2). */
    if (rules_enc_round(e) > 0 && rules_enc_order_index(e, cid) < 0)
        json_array_append_new(json_object_get(e->enc, "order"), json_string(cid));
    return 0;
}

static int fivey_may_act(rules_enc *e, const char *cid, tb_err *err)
{
    const char *cur = rules_enc_current(e);
    int surprise = json_is_string(json_object_get(e->enc, "phase"));
    if (!cur)
        return rules_enc_rule(err, rules_enc_round(e) == 0
                                       ? "the fight has not started: the GM rolls initiative "
                                         "first (004:666)"
                                       : "nobody has the turn now");
    if (strcmp(cur, cid) != 0)
        return rules_enc_rule(err,
                              surprise
                                  ? "it is %s's free turn from the surprise, not %s's (004:645)"
                                  : "it is %s's turn, not %s's: each acts in the initiative "
                                    "order (004:666)",
                              rules_enc_name(e, cur), rules_enc_name(e, cid));
    return 0;
}

/* ---- contests: surprise and initiative ---- */

/* The rounded-down average of `stat` over the standing members for whom in_group(e, cid, side)
 * holds; -1 when there is none. */
static int group_average(rules_enc *e, const char *side, int members_of_side, const char *stat)
{
    int sum = 0, n = 0;
    const char *k;
    for (size_t i = 0; (k = rules_enc_cid_at(e, i)); i++) {
        int on = strcmp(rules_enc_side(e, k), side) == 0;
        if (on != members_of_side || rules_enc_is_out(e, k))
            continue;
        sum += rules_enc_stat(e, k, stat, 1);
        n++;
    }
    return n ? sum / n : -1;
}

/* One d20 + bonus for a whole party (004:645, 004:666); the bonus stays GM-only when the party
 * has NPCs. */
static int party_roll(rules_enc *e, int bonus, json_t *dice, const char *by)
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

static int act_surprise(rules_enc *e, const rules_args *a, tb_err *err)
{
    if (rules_enc_round(e) > 0 || json_is_string(json_object_get(e->enc, "phase")))
        return rules_enc_rule(err,
                              "surprise comes before the fight: round %d is under way "
                              "(004:645)",
                              rules_enc_round(e));
    const char *side = rules_arg_str(a, "side");
    if (!side)
        side = party_side(e);
    int wis =
        rules_arg_given(a, "wis") ? rules_arg_int(a, "wis") : group_average(e, side, 0, "int");
    int members = group_average(e, side, 1, "dex");
    if (members < 0 || wis < 0)
        return rules_enc_rule(err,
                              "surprise needs standing combatants on side '%s' and on "
                              "another side (004:645)",
                              side);
    /* What the table sees (rules/RULES.md): the party's own rolls, who won; the other party's
     * roll, its wisdom and an NPC's die and total are the GM's. */
    json_t *dice = json_array(), *rolls = json_object(), *gm_rolls = json_object();
    rules_enc_entry *x = rules_enc_entry_begin(e, "surprise");
    int other = party_roll(e, wis, dice, "other");
    rules_enc_entry_set(x, RULES_AUD_GM, "wisdom", json_integer(wis));
    rules_enc_entry_set(x, RULES_AUD_GM, "other_total", json_integer(other));
    rules_rank r[64];
    int n = 0;
    const char *k;
    for (size_t i = 0; (k = rules_enc_cid_at(e, i)) && n < 64; i++) {
        if (strcmp(rules_enc_side(e, k), side) != 0 || rules_enc_is_out(e, k))
            continue;
        int dex = rules_enc_stat(e, k, "dex", 1);
        size_t first = json_array_size(dice);
        int total = party_roll(e, dex, dice, k);
        /* 004:645 "Those who win the contest gain a free combat turn"; a tie wins nothing
         * (reading 3). */
        int won = total > other;
        json_t *one = json_pack(
            "{s:i, s:b, s:i, s:i}", "natural",
            (int)json_integer_value(json_object_get(json_array_get(dice, first), "value")), "won",
            won, "bonus", dex, "total", total);
        json_object_set_new(rolls, k,
                            rules_enc_is_npc(e, k) ? json_pack("{s:b}", "won", won)
                                                   : json_deep_copy(one));
        json_object_set_new(gm_rolls, k, one);
        if (won)
            r[n++] = (rules_rank){k, {total, dex}, 0};
    }
    rules_enc_order_set(e, r, n);
    rules_enc_entry_dice_by(x, dice, "by", RULES_AUD_GM);
    json_decref(dice);
    rules_enc_entry_set(x, RULES_AUD_PUBLIC, "side", json_string(side));
    rules_enc_entry_set(x, RULES_AUD_PUBLIC, "rolls", rolls);
    rules_enc_entry_set(x, RULES_AUD_GM, "rolls", gm_rolls);
    rules_enc_entry_say(x, RULES_AUD_GM, "Surprise: the other party rolls %d (wisdom %+d); ", other,
                        wis);
    if (n == 0) {
        rules_enc_entry_say(x, RULES_AUD_PUBLIC,
                            "surprise: nobody of the %s beats the other party's wisdom (004:645)",
                            side);
        rules_enc_entry_end(x);
        return 0;
    }
    json_object_set_new(e->enc, "phase", json_string("surprise"));
    json_object_set_new(e->enc, "turn", json_integer(0));
    rules_enc_budget_reset(e, r[0].id);
    rules_enc_entry_say(x, RULES_AUD_PUBLIC,
                        "surprise: %d of the %s won a free turn; %s goes first (004:645)", n, side,
                        rules_enc_name(e, r[0].id));
    rules_enc_entry_end(x);
    return 0;
}

static int act_initiative(rules_enc *e, const rules_args *a, tb_err *err)
{
    if (json_is_string(json_object_get(e->enc, "phase")))
        return rules_enc_rule(err, "the surprise turns are still being taken; initiative "
                                   "follows them (004:645)");
    const char *party = party_side(e);
    int opp =
        rules_arg_given(a, "opp") ? rules_arg_int(a, "opp") : group_average(e, party, 0, "dex");
    if (opp < 0 || group_average(e, party, 1, "dex") < 0)
        return rules_enc_rule(err,
                              "initiative needs standing members of the %s and of an "
                              "opposing side (004:666)",
                              party);
    /* What the table sees (rules/RULES.md): the party's own rolls and who won; the opposition's
     * roll and bonus are the GM's. */
    json_t *dice = json_array(), *rolls = json_object(), *gm_rolls = json_object();
    rules_enc_entry *x = rules_enc_entry_begin(e, "initiative");
    /* 004:666 "Each member of the adventuring party contests their dexterity stat against the
     * dexterity or power of the opposing party": one roll for the opposing party (reading E1). */
    int them = party_roll(e, opp, dice, "opposition");
    rules_enc_entry_set(x, RULES_AUD_GM, "opposition_bonus", json_integer(opp));
    rules_enc_entry_set(x, RULES_AUD_GM, "opposition_total", json_integer(them));
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
        if (!in_party(e, k)) {
            r[n++] = (rules_rank){k, {1}, 0}; /* the opposition, in the order it joined */
            continue;
        }
        int dex = rules_enc_stat(e, k, "dex", 1);
        size_t first = json_array_size(dice);
        int total = party_roll(e, dex, dice, k);
        /* "Those who win the contest may act before" the opposition; a tie is no win
         * (reading 3). */
        int won = total > them;
        won_n += won;
        if (won)
            json_object_set_new(c, "won", json_true());
        json_t *one = json_pack(
            "{s:i, s:b, s:i, s:i}", "natural",
            (int)json_integer_value(json_object_get(json_array_get(dice, first), "value")), "won",
            won, "bonus", dex, "total", total);
        json_object_set_new(rolls, k,
                            rules_enc_is_npc(e, k) ? json_pack("{s:b}", "won", won)
                                                   : json_deep_copy(one));
        json_object_set_new(gm_rolls, k, one);
        r[n++] = (rules_rank){k, {won ? 2 : 0, total, dex}, 0};
    }
    rules_enc_order_set(e, r, n);
    rules_enc_begin_round(e);
    rules_enc_entry_dice_by(x, dice, "by", RULES_AUD_GM);
    json_decref(dice);
    rules_enc_entry_set(x, RULES_AUD_PUBLIC, "rolls", rolls);
    rules_enc_entry_set(x, RULES_AUD_GM, "rolls", gm_rolls);
    rules_enc_entry_say(x, RULES_AUD_GM, "Initiative: the opposition rolls %d (DEX %+d); ", them,
                        opp);
    const char *first = rules_enc_current(e);
    rules_enc_entry_say(x, RULES_AUD_PUBLIC,
                        "initiative: %d of the %s beat the opposition and act before it; round "
                        "%d, %s goes first (004:666)",
                        won_n, party, rules_enc_round(e),
                        first ? rules_enc_name(e, first) : "nobody");
    rules_enc_entry_end(x);
    return 0;
}

/* ---- turn actions ---- */

/* The shield of cid is destroyed (004:422): off its stats (and so its sheet) and its defense
 * class loses the shield's +1 (004:373). */
static void destroy_shield(rules_enc *e, const char *cid)
{
    json_t *st = rules_enc_stats(e, cid);
    json_object_set_new(st, "shield", json_false());
    rules_enc_stat_add(e, cid, "defense", -1, 0, 99);
    json_object_del(rules_enc_combatant(e, cid), "shield_ready");
}

static int act_attack(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *me = e->actor, *t = rules_arg_str(a, "target");
    if (strcmp(me, t) == 0)
        return tb_fail(err, TB_BAD_REQUEST, "enc.act attack: a combatant does not attack itself");
    if (rules_enc_is_out(e, t))
        return rules_enc_rule(err, "%s is out of the fight (%s)", rules_enc_name(e, t),
                              json_string_value(json_object_get(rules_enc_combatant(e, t), "out")));
    int is_free = rules_arg_int(a, "free");
    if (is_free && !e->is_gm)
        return tb_fail(err, TB_FORBIDDEN,
                       "a free attack (no ◆) comes from a feat's condition: the GM grants it "
                       "(004:684)");
    if (rules_arg_int(a, "adv") && rules_arg_int(a, "dis"))
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act attack: 'adv' and 'dis' are weighed "
                       "together into one (004:100)");
    fivey_edge edge = rules_arg_int(a, "adv")   ? FIVEY_EDGE_ADV
                      : rules_arg_int(a, "dis") ? FIVEY_EDGE_DIS
                                                : FIVEY_EDGE_NONE;
    int npc = rules_enc_is_npc(e, me);
    json_t *st = rules_enc_stats(e, me);
    json_t *weapons = json_object_get(st, "weapons");
    int bonus, dstat;
    const char *die, *wname;
    if (json_is_array(weapons)) {
        int wi = rules_arg_int(a, "weapon");
        if (json_array_size(weapons) == 0)
            return rules_enc_rule(err,
                                  "%s has no weapon on the sheet: the damage die comes from "
                                  "the weapon (004:678)",
                                  rules_enc_name(e, me));
        if ((size_t)wi >= json_array_size(weapons))
            return tb_fail(
                err, TB_BAD_REQUEST, "enc.act attack: 'weapon' %d: %s has %zu weapon(s) (0..%zu)",
                wi, rules_enc_name(e, me), json_array_size(weapons), json_array_size(weapons) - 1);
        json_t *w = json_array_get(weapons, (size_t)wi);
        bonus = (int)json_integer_value(json_object_get(w, "bonus"));
        dstat = (int)json_integer_value(json_object_get(w, "stat"));
        die = json_string_value(json_object_get(w, "die"));
        wname = json_string_value(json_object_get(w, "name"));
    } else {
        /* a monster: d20 + GA; damage the bracket's die, D/A being its average (reading E3) */
        bonus = rules_enc_stat(e, me, "ga", 1);
        dstat = 0;
        die = json_string_value(json_object_get(st, "die"));
        wname = NULL;
        if (!die)
            die = "1d6";
    }
    int def = rules_enc_stat(e, t, "defense", 0);
    if (def <= 0)
        return rules_enc_rule(err, "%s has no defense class yet: the GM sets it (bracket)",
                              rules_enc_name(e, t));
    int insp = rules_arg_int(a, "insp"), insp_dmg = rules_arg_int(a, "insp_dmg");
    int insp_nat20 = rules_arg_int(a, "insp_nat20");
    int have = rules_enc_stat(e, me, "inspiration", 0);
    if ((insp || insp_dmg || insp_nat20) && npc)
        return rules_enc_rule(err, "inspiration dice are the players' (004:144)");
    if (insp && have < 1)
        return rules_enc_rule(err, "%s has no inspiration die to spend (004:146)",
                              rules_enc_name(e, me));
    /* 004:146 one die per roll; the attack and the damage are two rolls, so two dice, both in
     * hand before the attack is rolled (validate before you roll). The die a natural 20 brings
     * (004:373) is spent on the damage only through insp_nat20, which is never refused. */
    if (insp + insp_dmg > have)
        return rules_enc_rule(err,
                              "%s has %d inspiration %s: one on the attack and one on the damage "
                              "takes two",
                              rules_enc_name(e, me), have, have == 1 ? "die" : "dice");
    if (!is_free && rules_enc_spend(e, me, BUDGET, 1, err))
        return err->code;

    json_t *dice = json_array();
    fivey_roll r;
    /* 004:678 "The character rolls d20 plus their relevant stat; if the total meets or exceeds
     * the target's defense class"; 004:146 one inspiration d6 added to the roll */
    fivey_roll_check(&r, e->rng, dice, bonus, edge, insp, 0);
    if (insp)
        have--;
    int hit = fivey_meets(r.total, def);
    /* 004:422 Shield: "Destroy to negate an attack": a readied shield stops a hit before any
     * damage die is rolled */
    int blocked = hit && json_is_true(json_object_get(rules_enc_combatant(e, t), "shield_ready"));
    if (blocked)
        hit = 0;
    /* 004:373 "if a player's attack roll turns up a natural 20 and they thereby gain 1
     * inspiration die"; PCs only (inspiration dice are the players', 004:144). */
    int nat20 = r.natural == 20 && !npc;
    if (nat20)
        have++;
    /* 004:373 "there is nothing stopping that player from spending it immediately to increase
     * the damage" */
    if (nat20 && insp_nat20)
        insp_dmg = 1;
    int dmg = 0, dmg_insp = 0;
    json_t *dmg_dice = NULL;
    if (insp_dmg && !hit)
        insp_dmg = 0; /* no damage roll to add to: the die stays unspent */
    if (hit) {
        json_t *roll = NULL;
        if (rules_dice_roll_text(die, e->rng, &roll, err)) {
            json_decref(dice);
            return err->code;
        }
        dmg_dice = json_array();
        size_t i;
        json_t *v;
        json_array_foreach(json_object_get(roll, "dice"), i, v)
        {
            rules_result_die(dmg_dice, (int)json_integer_value(json_object_get(v, "sides")),
                             (int)json_integer_value(json_object_get(v, "value")),
                             json_is_true(json_object_get(v, "kept")));
        }
        /* "they deal damage equal to their damage die plus their stat ... though not also [the
         * doubling] for the resultant damage" (004:678) */
        dmg = (int)json_integer_value(json_object_get(roll, "total")) + dstat;
        json_decref(roll);
        if (insp_dmg) {
            dmg_insp = rules_roll_die(e->rng, 6, dmg_dice);
            dmg += dmg_insp;
            have--;
        }
        if (dmg < 0)
            dmg = 0;
        size_t j;
        json_array_foreach(dmg_dice, j, v) json_object_set_new(v, "by", json_string("damage"));
        json_array_extend(dice, dmg_dice);
        json_decref(dmg_dice);
    }
    if (insp || nat20 || insp_dmg)
        rules_enc_stat_set(e, me, "inspiration", have);

    /* What players may see (rules/RULES.md, "What the table sees (fivey)"): the d20, hit or miss
     * and the damage; an NPC's bonus, total and damage dice give its numbers away, an NPC target's
     * defense class is the GM's (004:426). */
    rules_aud mine = rules_enc_aud_of(e, me), theirs = rules_enc_aud_of(e, t);
    rules_enc_entry *x = rules_enc_entry_begin(e, "attack");
    size_t i;
    json_t *v;
    json_array_foreach(dice, i, v)
    {
        const char *by = json_string_value(json_object_get(v, "by"));
        json_t *one = json_pack("[O]", v);
        rules_enc_entry_dice(x, by && strcmp(by, "damage") == 0 ? mine : RULES_AUD_PUBLIC, one);
        json_decref(one);
    }
    json_decref(dice);
    rules_enc_entry_merge(x, RULES_AUD_PUBLIC,
                          json_pack("{s:s, s:i, s:b, s:i}", "target", t, "natural", r.natural,
                                    "hit", hit, "damage", dmg));
    rules_enc_entry_set(x, mine, "bonus", json_integer(r.bonus));
    rules_enc_entry_set(x, mine, "total", json_integer(r.total));
    if (insp)
        rules_enc_entry_set(x, mine, "inspiration", json_integer(r.insp));
    if (dmg_insp)
        rules_enc_entry_set(x, mine, "damage_inspiration", json_integer(dmg_insp));
    rules_enc_entry_set(x, mine, "damage_bonus", json_integer(dstat));
    if (nat20)
        rules_enc_entry_set(x, mine, "inspiration_gained", json_integer(1));
    rules_enc_entry_set(x, theirs, "defense", json_integer(def));
    if (is_free)
        rules_enc_entry_set(x, RULES_AUD_PUBLIC, "free", json_true());
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, "%s attacks %s", rules_enc_name(e, me),
                        rules_enc_name(e, t));
    if (wname)
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, " with the %.100s", wname);
    if (mine == RULES_AUD_GM || theirs == RULES_AUD_GM)
        rules_enc_entry_say(x, RULES_AUD_GM, " (%d vs DC %d)", r.total, def);
    if (hit)
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, ": hits, %d damage", dmg);
    else if (blocked)
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, ": hits, but %s destroys the shield to stop it",
                            rules_enc_name(e, t));
    else
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, ": misses");
    if (blocked)
        rules_enc_entry_set(x, RULES_AUD_PUBLIC, "shield", json_true());
    if (nat20)
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, "; a natural 20: an inspiration die (004:373)");
    if (hit && is_free)
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, " (a free attack)");
    rules_enc_entry_end(x);
    if (hit && dmg > 0)
        apply_damage(e, t, dmg);
    if (blocked)
        destroy_shield(e, t);
    return 0;
}

/* 004:422 Shield "+1 ... Destroy to negate an attack." The bearer readies it (or stands it down)
 * as a standing choice, so no attack waits on a prompt: the next hit on the bearer is negated
 * (act_attack), and the shield is gone, from the sheet too, with its +1 defense class. */
static int act_shield(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *me = e->actor;
    if (!json_is_true(json_object_get(rules_enc_stats(e, me), "shield")))
        return rules_enc_rule(err, "%s carries no shield", rules_enc_name(e, me));
    int on = rules_arg_int(a, "ready");
    json_object_set_new(rules_enc_combatant(e, me), "shield_ready", json_boolean(on));
    rules_enc_log(e, "shield", NULL, NULL,
                  on ? "%s will destroy the shield to stop the next hit"
                     : "%s keeps the shield for now",
                  rules_enc_name(e, me));
    return 0;
}

/* ---- spells (004:481-505, 004:680, 004:701) ---- */

#define CAST_COST 2   /* 004:701 "Cast spell ... ◆◆" */
#define MAX_TARGETS 4 /* target, target2, target3, target4 */

/* The caster's spell entry named `name` among stats.spells (borrowed), or NULL. */
static json_t *spell_carried(rules_enc *e, const char *cid, const char *name)
{
    size_t i;
    json_t *sp;
    json_array_foreach(json_object_get(rules_enc_stats(e, cid), "spells"), i, sp)
    {
        if (rules_enc_streq(json_string_value(json_object_get(sp, "name")), name))
            return sp;
    }
    return NULL;
}

/* Rolls [L]d6 (004:485) into dice (borrowed), each die marked "by": by; returns the sum. */
static int roll_ld6(rules_enc *e, int level, json_t *dice, const char *by)
{
    int sum = 0;
    for (int i = 0; i < level; i++) {
        sum += rules_roll_die(e->rng, 6, dice);
        json_object_set_new(json_array_get(dice, json_array_size(dice) - 1), "by", json_string(by));
    }
    return sum;
}

/*
 * `cast` (004:701 ◆◆): spends one of the caster's casts (stats.spell_slots, reading 12) on a
 * spell the sheet carries, at its level [L] (004:485). Fire Ball and Lightning Bolt: [L]d6 to each
 * target, halved (rounded down) for those who save with d20 + DEX against the caster's 10 + INT
 * (004:493, 004:501, 004:375; reading 13); Charm: d20 + INT against 10 + the target's CHA
 * (004:680), charmed for [L]d6 hours; Turn Undead: [L]d6 hit dice worth, the GM picks which
 * undead (004:505); the others: their duration, [L]d6 of the spell's unit. Every refusal comes
 * before any die.
 */
static int act_cast(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *me = e->actor, *name = rules_arg_str(a, "spell");
    const fivey_spell *spell = fivey_spell_named(name);
    if (!spell)
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act cast: there is no spell called '%.40s' (004:487-505)", name);
    json_t *carried = spell_carried(e, me, name);
    if (!carried)
        return rules_enc_rule(err, "%s does not carry the spell %s (004:483)",
                              rules_enc_name(e, me), spell->name);
    json_t *slots = json_object_get(rules_enc_stats(e, me), "spell_slots");
    int used = (int)json_integer_value(json_object_get(slots, "used"));
    int max = (int)json_integer_value(json_object_get(slots, "max"));
    if (used >= max)
        return rules_enc_rule(err, "%s has no spell casts left until a rest",
                              rules_enc_name(e, me));
    const char *targets[MAX_TARGETS];
    int nt = 0;
    static const char *const TARGET_PARAMS[] = {"target", "target2", "target3", "target4"};
    for (int i = 0; i < MAX_TARGETS; i++) {
        const char *t = rules_arg_str(a, TARGET_PARAMS[i]);
        if (!t)
            continue;
        for (int j = 0; j < nt; j++)
            if (strcmp(targets[j], t) == 0)
                return tb_fail(err, TB_BAD_REQUEST, "enc.act cast: %s is named twice",
                               rules_enc_name(e, t));
        if (rules_enc_is_out(e, t))
            return rules_enc_rule(err, "%s is out of the fight", rules_enc_name(e, t));
        targets[nt++] = t;
    }
    if (spell->kind == FIVEY_SPELL_SAVE && nt == 0)
        return tb_fail(err, TB_BAD_REQUEST, "enc.act cast: %s needs a target", spell->name);
    if (spell->kind == FIVEY_SPELL_MENTAL && nt != 1)
        return tb_fail(err, TB_BAD_REQUEST, "enc.act cast: %s is cast on one creature (004:489)",
                       spell->name);
    if (spell->kind == FIVEY_SPELL_MENTAL && strcmp(targets[0], me) == 0)
        return tb_fail(err, TB_BAD_REQUEST, "enc.act cast: a caster does not charm itself");
    if (rules_enc_spend(e, me, BUDGET, CAST_COST, err))
        return err->code;

    int level = json_is_integer(json_object_get(carried, "level"))
                    ? (int)json_integer_value(json_object_get(carried, "level"))
                    : 1;
    int in = rules_enc_stat(e, me, "int", 1), dc = fivey_spell_dc(in);
    rules_aud mine = rules_enc_aud_of(e, me);
    rules_enc_stat_put(e, me, "spell_slots/used", json_integer(used + 1));
    rules_enc_entry *x = rules_enc_entry_begin(e, "cast");
    rules_enc_entry_merge(x, RULES_AUD_PUBLIC,
                          json_pack("{s:s, s:i, s:i}", "spell", spell->name, "level", level,
                                    "casts_left", max - used - 1));
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, "%s casts %s", rules_enc_name(e, me), spell->name);
    if (spell->kind == FIVEY_SPELL_SAVE) {
        json_t *dice = json_array(), *hits = json_array();
        int dmg = roll_ld6(e, level, dice, "damage");
        rules_enc_entry_dice(x, RULES_AUD_PUBLIC, dice);
        json_decref(dice);
        rules_enc_entry_set(x, mine, "dc", json_integer(dc));
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, ": %d damage", dmg);
        int hurt[MAX_TARGETS];
        for (int i = 0; i < nt; i++) {
            const char *t = targets[i];
            rules_aud theirs = rules_enc_aud_of(e, t);
            int dex = rules_enc_stat(e, t, "dex", 1);
            json_t *sd = json_array();
            fivey_roll r;
            /* 004:375 "a character must succeed at a stat check in order to avoid taking
             * damage"; reading 13: a save halves it */
            fivey_roll_check(&r, e->rng, sd, dex, FIVEY_EDGE_NONE, 0, 0);
            int saved = fivey_meets(r.total, dc);
            hurt[i] = saved ? dmg / 2 : dmg;
            size_t j;
            json_t *v;
            json_array_foreach(sd, j, v) json_object_set_new(v, "by", json_string(t));
            rules_enc_entry_dice(x, theirs, sd);
            json_decref(sd);
            json_array_append_new(
                hits, json_pack("{s:s, s:b, s:i}", "target", t, "saved", saved, "damage", hurt[i]));
            rules_enc_entry_say(x, RULES_AUD_PUBLIC, "%s %s %s", i ? ";" : " —",
                                rules_enc_name(e, t), saved ? "saves" : "fails to save");
            rules_enc_entry_say(x, theirs, " (%d + %d = %d vs DC %d)", r.natural, dex, r.total, dc);
            rules_enc_entry_say(x, RULES_AUD_PUBLIC, " and takes %d", hurt[i]);
            if (theirs == RULES_AUD_GM) {
                char key[48];
                snprintf(key, sizeof key, "save_%s", t);
                rules_enc_entry_set(x, RULES_AUD_GM, key,
                                    json_pack("{s:i, s:i, s:i}", "natural", r.natural, "bonus", dex,
                                              "total", r.total));
            }
        }
        rules_enc_entry_set(x, RULES_AUD_PUBLIC, "targets", hits);
        rules_enc_entry_end(x);
        for (int i = 0; i < nt; i++)
            if (hurt[i] > 0)
                apply_damage(e, targets[i], hurt[i]);
        return 0;
    }
    if (spell->kind == FIVEY_SPELL_MENTAL) {
        const char *t = targets[0];
        rules_aud theirs = rules_enc_aud_of(e, t);
        int cha = rules_enc_stat(e, t, "cha", 1), against = fivey_passive(cha);
        json_t *dice = json_array();
        fivey_roll r;
        /* 004:680 "magic spells typically use intelligence (with charisma serving as the
         * virtual 'armor class' bonus for mental effects)" */
        fivey_roll_check(&r, e->rng, dice, in, FIVEY_EDGE_NONE, 0, 0);
        int hit = fivey_meets(r.total, against);
        rules_enc_entry_dice(x, mine, dice);
        json_decref(dice);
        rules_enc_entry_merge(x, RULES_AUD_PUBLIC,
                              json_pack("{s:s, s:b}", "target", t, "hit", hit));
        rules_enc_entry_set(x, mine, "natural", json_integer(r.natural));
        rules_enc_entry_set(x, mine, "bonus", json_integer(r.bonus));
        rules_enc_entry_set(x, mine, "total", json_integer(r.total));
        rules_enc_entry_set(x, theirs, "against", json_integer(against));
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, " on %s", rules_enc_name(e, t));
        if (mine == RULES_AUD_GM || theirs == RULES_AUD_GM)
            rules_enc_entry_say(x, RULES_AUD_GM, " (%d vs %d)", r.total, against);
        if (hit) {
            json_t *hd = json_array();
            int hours = roll_ld6(e, level, hd, "duration");
            rules_enc_entry_dice(x, RULES_AUD_PUBLIC, hd);
            json_decref(hd);
            rules_enc_entry_set(x, RULES_AUD_PUBLIC, "hours", json_integer(hours));
            rules_enc_entry_say(x, RULES_AUD_PUBLIC, ": charmed, friendly for %d hours", hours);
            json_t *c = rules_enc_cond_add(e, t, "charmed", 0, 0);
            json_object_set_new(c, "by", json_string(me));
            json_object_set_new(c, "hours", json_integer(hours));
        } else {
            rules_enc_entry_say(x, RULES_AUD_PUBLIC, ": %s resists", rules_enc_name(e, t));
        }
        rules_enc_entry_end(x);
        return 0;
    }
    if (spell->kind == FIVEY_SPELL_UNDEAD) {
        json_t *dice = json_array();
        int hd = roll_ld6(e, level, dice, "hit dice");
        rules_enc_entry_dice(x, RULES_AUD_PUBLIC, dice);
        json_decref(dice);
        rules_enc_entry_set(x, RULES_AUD_PUBLIC, "hit_dice", json_integer(hd));
        rules_enc_entry_say(x, RULES_AUD_PUBLIC,
                            ": up to %d hit dice worth of undead turn away and freeze, each "
                            "skipping its next turn",
                            hd);
        rules_enc_entry_end(x);
        return 0;
    }
    if (spell->unit) {
        json_t *dice = json_array();
        int n = roll_ld6(e, level, dice, "duration");
        rules_enc_entry_dice(x, RULES_AUD_PUBLIC, dice);
        json_decref(dice);
        rules_enc_entry_set(x, RULES_AUD_PUBLIC, "duration", json_integer(n));
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, " for %d %s", n, spell->unit);
    }
    rules_enc_entry_end(x);
    return 0;
}

/* ---- armor in a jiffy (004:424) ---- */

/* Sets cid's armor and, from it, defense class and movement (004:373, 004:414). */
static void wear_armor(rules_enc *e, const char *cid, const char *armor)
{
    json_t *st = rules_enc_stats(e, cid);
    json_object_set_new(st, "armor", json_string(armor));
    int dex = rules_enc_stat(e, cid, "dex", 1), str = rules_enc_stat(e, cid, "str", 1);
    rules_enc_stat_set(
        e, cid, "defense",
        fivey_defense_class(dex, armor, json_is_true(json_object_get(st, "shield"))));
    rules_enc_stat_set(e, cid, "move", FIVEY_BASE_MOVE - (str < fivey_armor_str(armor) ? 2 : 0));
}

/*
 * `armor` (turn; `don` a kind, or `doff`): 2 ◆ and a DEX check against the armor's defense class
 * (004:424); on a success the armor is on (or off), with the defense class and movement it gives;
 * on a failure the ◆ are spent and nothing changes. Refused before any die: both or neither, a
 * kind the book does not list, donning over worn armor, doffing none, a monster.
 */
static int act_armor(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *me = e->actor, *don = rules_arg_str(a, "don");
    int doff = rules_arg_int(a, "doff");
    if (!!don == !!doff)
        return tb_fail(err, TB_BAD_REQUEST, "enc.act armor: give either 'don' (a kind) or 'doff'");
    json_t *st = rules_enc_stats(e, me);
    const char *worn = json_string_value(json_object_get(st, "armor"));
    if (!worn && json_is_string(json_object_get(st, "bracket")))
        return rules_enc_rule(err, "%s is a monster: its defense class is its own (004:426)",
                              rules_enc_name(e, me));
    if (!worn)
        worn = "none";
    if (don && fivey_armor_dc(don) == 0)
        return tb_fail(
            err, TB_BAD_REQUEST,
            "enc.act armor: 'don' is leather, scale, chain, ring or plate (004:416-421)");
    if (don && strcmp(worn, "none") != 0)
        return rules_enc_rule(err, "%s wears %s armor: take it off first", rules_enc_name(e, me),
                              worn);
    if (doff && strcmp(worn, "none") == 0)
        return rules_enc_rule(err, "%s wears no armor to take off", rules_enc_name(e, me));
    const char *kind = don ? don : worn;
    int against = fivey_armor_dc(kind);
    if (rules_enc_spend(e, me, BUDGET, 2, err))
        return err->code;
    int dex = rules_enc_stat(e, me, "dex", 1);
    json_t *dice = json_array();
    fivey_roll r;
    /* 004:424 "spend 2 ◆ to check dexterity against the armor's defense class" */
    fivey_roll_check(&r, e->rng, dice, dex, FIVEY_EDGE_NONE, 0, 0);
    int ok = fivey_meets(r.total, against);
    rules_aud mine = rules_enc_aud_of(e, me);
    rules_enc_entry *x = rules_enc_entry_begin(e, "armor");
    rules_enc_entry_dice(x, mine, dice);
    json_decref(dice);
    rules_enc_entry_merge(
        x, RULES_AUD_PUBLIC,
        json_pack("{s:s, s:s, s:b}", "armor", kind, "doing", don ? "don" : "doff", "success", ok));
    rules_enc_entry_merge(x, mine,
                          json_pack("{s:i, s:i, s:i, s:i}", "natural", r.natural, "bonus", dex,
                                    "total", r.total, "dc", against));
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, "%s hurries to %s the %s armor", rules_enc_name(e, me),
                        don ? "put on" : "take off", kind);
    rules_enc_entry_say(x, mine, " (%d vs DC %d)", r.total, against);
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, ok ? ": done" : ": it will not come %s yet",
                        don ? "on" : "off");
    rules_enc_entry_end(x);
    if (ok)
        wear_armor(e, me, don ? don : "none");
    return 0;
}

/*
 * `move` (turn; `paces`, `how`): 1 ◆, at most the move rating (004:688); climbing, crawling,
 * swimming and jumping cost twice as much (004:381, 004:690), so half the paces per ◆ (rounded
 * down, reading E7). Swimming in armor is a DEX check against the armor's defense class, 1d6
 * drowning damage on a failure (004:424).
 */
static int act_move(rules_enc *e, const rules_args *a, tb_err *err)
{
    static const char *const HOW[] = {"walk", "climb", "crawl", "swim", "jump", NULL};
    const char *me = e->actor, *how = rules_arg_str(a, "how");
    if (!how)
        how = "walk";
    int k = 0;
    while (HOW[k] && strcmp(HOW[k], how) != 0)
        k++;
    if (!HOW[k])
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act move: 'how' is walk, climb, crawl, swim or jump");
    int move = rules_enc_stat(e, me, "move", FIVEY_BASE_MOVE);
    /* 004:381 "climbing, crawling, or swimming, the distance moved costs twice as much";
     * 004:690 "Jumping across a distance costs twice the move rating" */
    int reach = k == 0 ? move : move / 2;
    int paces = rules_arg_given(a, "paces") ? rules_arg_int(a, "paces") : reach;
    if (paces > reach)
        return rules_enc_rule(err,
                              k == 0 ? "%s moves at most %d paces per ◆ (004:688)"
                                     : "%s moves at most %d paces per ◆ this way: it costs "
                                       "twice as much (004:381, 004:690)",
                              rules_enc_name(e, me), reach);
    if (rules_enc_spend(e, me, BUDGET, 1, err))
        return err->code;
    const char *armor = json_string_value(json_object_get(rules_enc_stats(e, me), "armor"));
    int against = strcmp(how, "swim") == 0 ? fivey_armor_dc(armor) : 0;
    if (!against) {
        rules_enc_log(e, "move", NULL, json_pack("{s:i, s:s}", "paces", paces, "how", how),
                      k == 0 ? "%s moves %d paces" : "%s moves %d paces (%s)",
                      rules_enc_name(e, me), paces, how);
        return 0;
    }
    /* 004:424 "The armor's defense class also serves this function while trying to swim—taking
     * 1d6 drowning damage on a failed check." */
    int dex = rules_enc_stat(e, me, "dex", 1);
    json_t *dice = json_array();
    fivey_roll r;
    fivey_roll_check(&r, e->rng, dice, dex, FIVEY_EDGE_NONE, 0, 0);
    int ok = fivey_meets(r.total, against), dmg = 0;
    if (!ok)
        dmg = rules_roll_die(e->rng, 6, dice);
    rules_aud mine = rules_enc_aud_of(e, me);
    rules_enc_entry *x = rules_enc_entry_begin(e, "move");
    rules_enc_entry_dice(x, mine, dice);
    json_decref(dice);
    rules_enc_entry_merge(x, RULES_AUD_PUBLIC,
                          json_pack("{s:i, s:s, s:b, s:i}", "paces", paces, "how", how, "success",
                                    ok, "damage", dmg));
    rules_enc_entry_merge(x, mine,
                          json_pack("{s:i, s:i, s:i, s:i}", "natural", r.natural, "bonus", dex,
                                    "total", r.total, "dc", against));
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, "%s swims %d paces in %s armor", rules_enc_name(e, me),
                        paces, armor);
    rules_enc_entry_say(x, mine, " (%d vs DC %d)", r.total, against);
    if (ok)
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, " and keeps afloat");
    else
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, ", goes under and takes %d drowning damage", dmg);
    rules_enc_entry_end(x);
    if (dmg)
        apply_damage(e, me, dmg);
    return 0;
}

static int act_other(rules_enc *e, const rules_args *a, tb_err *err)
{
    /* 004:696 "Most actions cost 1 ◆, though some actions may cost up to 2 ◆" */
    int cost = rules_arg_int(a, "cost");
    if (rules_enc_spend(e, e->actor, BUDGET, cost, err))
        return err->code;
    rules_enc_log(e, "act", NULL, json_pack("{s:i}", "cost", cost), "%s: %s (%d ◆)",
                  rules_enc_name(e, e->actor), rules_arg_str(a, "what"), cost);
    return 0;
}

static int act_end(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    (void)err;
    /* e->actor may point into /enc/order (the server's default actor), which the end of the
     * surprise replaces: hold the id the combatant object keeps instead. */
    e->actor = json_string_value(json_object_get(rules_enc_combatant(e, e->actor), "id"));
    const char *me = e->actor;
    rules_enc_cond_tick(e, me);
    json_object_set_new(rules_enc_combatant(e, me), "budget", json_pack("{s:i}", BUDGET, 0));
    if (json_is_string(json_object_get(e->enc, "phase"))) {
        /* the free turns of the surprise: then initiative (004:645) */
        json_t *order = json_object_get(e->enc, "order");
        int t = (int)json_integer_value(json_object_get(e->enc, "turn")) + 1;
        while (t < (int)json_array_size(order) &&
               rules_enc_is_out(e, json_string_value(json_array_get(order, (size_t)t))))
            t++;
        rules_enc_log(e, "end", NULL, NULL, "%s ends the free turn", rules_enc_name(e, me));
        if (t < (int)json_array_size(order)) {
            json_object_set_new(e->enc, "turn", json_integer(t));
            rules_enc_budget_reset(e, json_string_value(json_array_get(order, (size_t)t)));
            return 0;
        }
        json_object_del(e->enc, "phase");
        json_object_set_new(e->enc, "order", json_array());
        json_object_set_new(e->enc, "turn", json_integer(-1));
        rules_enc_log(e, "surprise-over", NULL, NULL,
                      "The surprise is over: regular initiative takes hold (004:645)");
        return 0;
    }
    rules_enc_log(e, "end", NULL, NULL, "%s ends the turn", rules_enc_name(e, me));
    int rc = rules_enc_advance(e);
    if (rc == 1)
        rules_enc_log(e, "round", NULL, NULL, "Round %d: %s acts first (004:668)",
                      rules_enc_round(e), rules_enc_name(e, rules_enc_current(e)));
    else if (rc < 0)
        rules_enc_log(e, "round", NULL, NULL, "Nobody is left to act");
    return 0;
}

/* ---- GM actions ---- */

/* The morale check both fivey.combat and fivey.social run (fivey.h). */
int fivey_enc_morale(rules_enc *e, const char *side, const rules_args *a, tb_err *err)
{
    json_t *m = json_object_get(e->enc, "morale");
    if (!side) {
        const char *k;
        json_t *v;
        json_object_foreach(m, k, v) if (json_is_true(json_object_get(v, "due")))
        {
            side = k;
            break;
        }
    }
    if (!side)
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act morale: no side is due a morale check; "
                       "name one ('side')");
    if (strcmp(side, party_side(e)) == 0)
        return rules_enc_rule(err, "morale is the opposing side's check, not the %s's (004:670)",
                              side);
    int wis =
        rules_arg_given(a, "wis") ? rules_arg_int(a, "wis") : group_average(e, side, 1, "int");
    if (wis < 0)
        return rules_enc_rule(err, "nobody of the %s is left standing to check morale", side);
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
    rules_enc_entry *x = rules_enc_entry_begin(e, "morale");
    rules_enc_entry_dice(x, RULES_AUD_GM, dice);
    json_decref(dice);
    rules_enc_entry_merge(x, RULES_AUD_GM,
                          json_pack("{s:i, s:i, s:i}", "bonus", wis, "total", r.total, "dc", dc));
    rules_enc_entry_say(x, RULES_AUD_GM, "Morale of the %s: %d vs DC %d; ", side, r.total, dc);
    int fled = 0;
    if (!hold) {
        const char *k;
        for (size_t i = 0; (k = rules_enc_cid_at(e, i)); i++)
            if (strcmp(rules_enc_side(e, k), side) == 0 && !rules_enc_is_out(e, k)) {
                rules_enc_set_out(e, k, "fled");
                fled++;
            }
    }
    rules_enc_entry_merge(x, RULES_AUD_PUBLIC,
                          json_pack("{s:s, s:b, s:i}", "side", side, "hold", hold, "fled", fled));
    rules_enc_entry_say(x, RULES_AUD_PUBLIC,
                        hold ? "the %s check morale: they keep order (004:670)"
                             : "the %s check morale: they break and flee (004:670)",
                        side);
    rules_enc_entry_end(x);
    /* the one acting may just have fled: move on */
    const char *cur = rules_enc_current(e);
    if (cur && rules_enc_is_out(e, cur) && rules_enc_advance(e) == 1)
        rules_enc_log(e, "round", NULL, NULL, "Round %d", rules_enc_round(e));
    return 0;
}

static int act_morale(rules_enc *e, const rules_args *a, tb_err *err)
{
    return fivey_enc_morale(e, rules_arg_str(a, "side"), a, err);
}

static int act_bracket(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    if (!rules_enc_is_npc(e, t))
        return rules_enc_rule(err,
                              "%s is a player character: the sheet gives the numbers "
                              "(004:715 brackets are for monsters)",
                              rules_enc_name(e, t));
    char b = bracket_letter(rules_arg_str(a, "bracket"));
    if (!b)
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act bracket: 'bracket' is one of M, G, E, L, B "
                       "(mook, grunt, elite, lieutenant, boss; 004:719-724)");
    int dc = rules_arg_int(a, "dc");
    json_t *dice = json_array();
    set_bracket(e, t, b, dc, rules_arg_int(a, "hp"), dice);
    rules_enc_log_gm(e, "bracket", dice, json_deep_copy(rules_enc_stats(e, t)),
                     "%s: %s, defense class %d, %d hit points", rules_enc_name(e, t),
                     bracket_name(b), dc, hp_get(e, t, "max"));
    return 0;
}

static int act_spawn(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *name = rules_arg_str(a, "name");
    const char *mname = rules_arg_str(a, "monster");
    const struct monster *m = monster_named(mname ? mname : name);
    if (mname && !m)
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act spawn: no example monster '%.40s' (004:746-767)", mname);
    char b = 0;
    if (rules_arg_str(a, "bracket")) {
        b = bracket_letter(rules_arg_str(a, "bracket"));
        if (!b)
            return tb_fail(err, TB_BAD_REQUEST,
                           "enc.act spawn: 'bracket' is one of M, G, E, L, B (004:719-724)");
    } else if (m) {
        b = bracket_of_hd(m->hd);
    } else {
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act spawn: give a 'bracket' or an example "
                       "'monster'");
    }
    int dc = rules_arg_given(a, "dc") ? rules_arg_int(a, "dc") : m ? m->dc : 12;
    const char *side = rules_arg_str(a, "side");
    if (!side)
        side = "foes";
    char cid[24];
    if (rules_enc_add_combatant(e, name, side, "gm", 1, cid, err))
        return err->code;
    json_t *dice = json_array();
    set_bracket(e, cid, b, dc, rules_arg_int(a, "hp"), dice);
    if (m && !rules_arg_given(a, "bracket") && !rules_arg_given(a, "dc"))
        json_object_set_new(rules_enc_stats(e, cid), "xp", json_integer(m->xp));
    if (rules_enc_round(e) > 0)
        json_array_append_new(json_object_get(e->enc, "order"), json_string(cid));
    rules_enc_log(e, "join", NULL, json_pack("{s:s}", "id", cid), "%s joins the encounter (%s)",
                  name, side);
    rules_enc_log_gm(e, "bracket", dice, json_deep_copy(rules_enc_stats(e, cid)),
                     "%s (%s): %s, defense class %d, %d hit points", name, cid,
                     m ? m->name : "by bracket", dc, hp_get(e, cid, "max"));
    return 0;
}

static int act_leader(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *t = rules_arg_str(a, "target");
    const char *k;
    for (size_t i = 0; (k = rules_enc_cid_at(e, i)); i++)
        if (same_side(e, k, t))
            json_object_del(rules_enc_combatant(e, k), "leader");
    json_object_set_new(rules_enc_combatant(e, t), "leader", json_true());
    rules_enc_log(e, "leader", NULL, NULL, "%s leads the %s (004:670)", rules_enc_name(e, t),
                  rules_enc_side(e, t));
    return 0;
}

static int act_harm(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *t = rules_arg_str(a, "target");
    int amount = rules_arg_int(a, "amount");
    /* an NPC's hit points are the GM's: the table hears that it is hurt or healed, not how much */
    rules_aud aud = rules_enc_aud_of(e, t);
    rules_enc_entry *x = rules_enc_entry_begin(e, "harm");
    rules_enc_entry_set(x, RULES_AUD_PUBLIC, "target", json_string(t));
    rules_enc_entry_set(x, aud, "amount", json_integer(amount));
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, "%s %s", rules_enc_name(e, t),
                        amount >= 0 ? "takes" : "heals");
    rules_enc_entry_say(x, aud, " %d", amount >= 0 ? amount : -amount);
    if (amount >= 0)
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, " damage");
    rules_enc_entry_end(x);
    apply_damage(e, t, amount);
    return 0;
}

/* ---- tables ---- */

#define TARGET(label)                                                                              \
    {                                                                                              \
        "target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, label                        \
    }

#define TARGET_OPT(n, label)                                                                       \
    {                                                                                              \
        n, RULES_PARAM_STRING, 1, 32, 0, 0, label                                                  \
    }

static const rules_param P_SURPRISE[] = {
    {"side", RULES_PARAM_STRING, 1, 32, 0, 0, "the surprising side (default: the party)"},
    {"wis", RULES_PARAM_INT, 0, 10, 0, 0,
     "the other party's wisdom (default: its average INT, rounded down)"},
    {0},
};
static const rules_param P_INITIATIVE[] = {
    {"opp", RULES_PARAM_INT, 0, 10, 0, 0,
     "the opposing party's DEX or power (default: its average DEX, rounded down)"},
    {0},
};
static const rules_param P_ATTACK[] = {
    TARGET("whom to attack"),
    {"weapon", RULES_PARAM_INT, 0, 9, 0, 0, "which weapon of the sheet (0 = the first)"},
    {"adv", RULES_PARAM_BOOL, 0, 1, 0, 0, "advantage"},
    {"dis", RULES_PARAM_BOOL, 0, 1, 0, 0, "disadvantage"},
    {"insp", RULES_PARAM_BOOL, 0, 1, 0, 0, "spend an inspiration die on the attack roll"},
    {"insp_dmg", RULES_PARAM_BOOL, 0, 1, 0, 0, "spend an inspiration die on the damage"},
    {"insp_nat20", RULES_PARAM_BOOL, 0, 1, 0, 0,
     "spend the die a natural 20 brings on the damage at once"},
    {"free", RULES_PARAM_BOOL, 0, 1, 0, 0, "a free attack, no ◆ (GM only)"},
    {0},
};
static const rules_param P_MOVE[] = {
    {"paces", RULES_PARAM_INT, 0, 99, 0, 0, "paces (default: as far as one ◆ goes)"},
    {"how", RULES_PARAM_STRING, 4, 5, 0, 0, "walk, climb, crawl, swim or jump (twice the cost)"},
    {0},
};
static const rules_param P_CAST[] = {
    {"spell", RULES_PARAM_STRING, 1, 40, 0, RULES_PARAM_REQUIRED, "which spell the sheet carries"},
    TARGET_OPT("target", "on whom (Charm, Fire Ball, Lightning Bolt)"),
    TARGET_OPT("target2", "a second target in the blast"),
    TARGET_OPT("target3", "a third target"),
    TARGET_OPT("target4", "a fourth target"),
    {0},
};
static const rules_param P_ARMOR[] = {
    {"don", RULES_PARAM_STRING, 4, 7, 0, 0, "armor to put on (leather, scale, chain, ring, plate)"},
    {"doff", RULES_PARAM_BOOL, 0, 1, 0, 0, "take the armor off"},
    {0},
};
static const rules_param P_OTHER[] = {
    {"what", RULES_PARAM_STRING, 1, 80, 0, RULES_PARAM_REQUIRED, "what the character does"},
    {"cost", RULES_PARAM_INT, 1, 2, 1, 0, "◆ it costs (1 or 2)"},
    {0},
};
static const rules_param P_MORALE[] = {
    {"side", RULES_PARAM_STRING, 1, 32, 0, 0, "the side checking (default: the one due)"},
    {"wis", RULES_PARAM_INT, 0, 10, 0, 0, "its wisdom (default: average INT of those standing)"},
    {"dc", RULES_PARAM_INT, 0, 30, 0, 0, "the DC (default 14, then 16, then 18)"},
    {0},
};
static const rules_param P_BRACKET[] = {
    TARGET("the NPC"),
    {"bracket", RULES_PARAM_STRING, 1, 12, 0, RULES_PARAM_REQUIRED, "M, G, E, L or B"},
    {"dc", RULES_PARAM_INT, 12, 20, 12, 0, "defense class (12 light, 14 medium, 16 heavy)"},
    {"hp", RULES_PARAM_INT, 0, 999, 0, 0, "hit points (0: roll HD d6)"},
    {0},
};
static const rules_param P_SPAWN[] = {
    {"name", RULES_PARAM_STRING, 1, 40, 0, RULES_PARAM_REQUIRED, "the NPC's name"},
    {"monster", RULES_PARAM_STRING, 1, 40, 0, 0, "an example monster (Goblin, Orc, Bear...)"},
    {"bracket", RULES_PARAM_STRING, 1, 12, 0, 0, "M, G, E, L or B"},
    {"dc", RULES_PARAM_INT, 12, 20, 12, 0, "defense class"},
    {"hp", RULES_PARAM_INT, 0, 999, 0, 0, "hit points (0: roll HD d6)"},
    {"side", RULES_PARAM_STRING, 1, 32, 0, 0, "side (default foes)"},
    {0},
};
static const rules_param P_TARGET[] = {
    TARGET("the combatant"),
    {0},
};
static const rules_param P_HARM[] = {
    TARGET("the combatant"),
    {"amount", RULES_PARAM_INT, -999, 999, 0, RULES_PARAM_REQUIRED, "damage (negative: heals)"},
    {0},
};

static const rules_param P_SHIELD[] = {
    {"ready", RULES_PARAM_BOOL, 0, 1, 1, 0, "destroy it to stop the next hit"},
    {0},
};

static const rules_enc_action ACTIONS[] = {
    {"initiative", "Roll initiative", RULES_ENC_GM, P_INITIATIVE, act_initiative, "004:666"},
    {"attack", "Attack ◆", RULES_ENC_TURN, P_ATTACK, act_attack, "004:676-682"},
    {"move", "Move ◆", RULES_ENC_TURN, P_MOVE, act_move, "004:686-690, 004:381, 004:424"},
    {"act", "Other action", RULES_ENC_TURN, P_OTHER, act_other, "004:694-711"},
    {"cast", "Cast a spell ◆◆", RULES_ENC_TURN, P_CAST, act_cast, "004:481-505, 004:680, 004:701"},
    {"armor", "Armor on or off ◆◆", RULES_ENC_TURN, P_ARMOR, act_armor, "004:424"},
    {"end", "End turn", RULES_ENC_TURN, NULL, act_end, "004:668"},
    {"surprise", "Surprise", RULES_ENC_GM, P_SURPRISE, act_surprise, "004:645"},
    {"morale", "Morale check", RULES_ENC_GM, P_MORALE, act_morale, "004:670"},
    {"spawn", "Add a monster", RULES_ENC_GM, P_SPAWN, act_spawn, "004:715-767"},
    {"bracket", "Set bracket", RULES_ENC_GM, P_BRACKET, act_bracket, "004:715-742"},
    {"leader", "Mark leader", RULES_ENC_GM, P_TARGET, act_leader, "004:670"},
    {"harm", "Damage / heal", RULES_ENC_GM, P_HARM, act_harm, "004:367"},
    {"shield", "Ready the shield to stop a hit", RULES_ENC_OWNER, P_SHIELD, act_shield, "004:422"},
    {0},
};

static const rules_param OPTIONS[] = {
    {"party", RULES_PARAM_STRING, 1, 32, 0, 0, "the adventuring party's side (default party)"},
    {0},
};

/* ---- what the GM may set ---- */

/* What the GM adjusts mid-fight: damage taken and hit points (004:363-367), inspiration dice. */
static const rules_enc_field FIVEY_EDITABLE[] = {
    {"stats/hp/damage", RULES_PARAM_INT, 0, 999, "damage taken"},
    {"stats/hp/max", RULES_PARAM_INT, 1, 999, "hit points"},
    {"stats/inspiration", RULES_PARAM_INT, 0, 99, "inspiration dice"},
    {NULL, 0, 0, 0, NULL},
};

/* spells and spell_slots: a cast spends one (reading 12); armor: donned or doffed (004:424) */
static const char *const SHEET_STATS[] = {"hp",          "inspiration", "shield", "spells",
                                          "spell_slots", "armor",       NULL};

const rules_module rules_module_fivey_combat = {
    .id = "fivey.combat",
    .system = "fivey",
    .name = "Combat",
    .cite = "004:641-742",
    .options = OPTIONS,
    .start = fivey_start,
    .join = fivey_enc_join,
    .may_act = fivey_may_act,
    .actions = ACTIONS,
    .sheet_stats = SHEET_STATS,
    .editable = FIVEY_EDITABLE,
};
