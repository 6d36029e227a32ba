/*
 * enc_heimr.c — heimr.combat, the Heimr combat encounter (rules/encounter.h; rulebook
 * 001_660a93111b0de833.txt, cited 001:LINE). Initiative, 2-second turns, the four action types,
 * delaying and readied actions, weapon attacks against pre-rolled defences, body parts, HP and
 * injuries, fatigue at most once per turn, breathers and effects lasting half their seconds in
 * turns. What it leaves to the GM, and the keys it adds to /enc, /gm/enc and the combatants, are
 * listed in rules/RULES.md, "heimr", "Encounters (module heimr.combat)".
 *
 * Secrets: an NPC's numbers (stats, initiative score, pre-rolled defence, readied action) live in
 * /gm/enc/combatants/<cid> (`priv` below); every roll of an NPC goes to the GM log and the public
 * log gets only what the table sees (who attacks whom, hit or miss, the body part).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encounter.h"
#include "heimr.h"

#define TURN_SECONDS 2 /* 001:238 "Every turn lasts two seconds" */
#define ROUNDS_PER_MINUTE (60 / TURN_SECONDS)
#define HP_FLOOR (-5) /* 001:163-166 end at mutilated (-4 or -5); RULES.md heimr reading 12 */

/* ---- small helpers ---- */

/* The object holding what players must not see of cid: the combatant itself for a PC (whose
 * sheet is public anyway), its /gm/enc object for an NPC. */
static json_t *priv(rules_enc *e, const char *cid)
{
    return rules_enc_is_npc(e, cid) ? rules_enc_hidden_of(e, cid) : rules_enc_combatant(e, cid);
}

static int is_true(json_t *o, const char *key)
{
    return json_is_true(json_object_get(o, key));
}

static void set_bool(json_t *o, const char *key, int v)
{
    if (v)
        json_object_set_new(o, key, json_true());
    else
        json_object_del(o, key);
}

static void lower_key(const char *s, char *out, size_t n)
{
    size_t i = 0;
    for (; s && s[i] && i + 1 < n; i++)
        out[i] = (char)tolower((unsigned char)s[i]);
    out[i] = 0;
}

/* Starts cid's log entry (the shared audience entry of rules/encounter.h) and says `pub` to
 * everyone; what follows with log_own is public for a PC and the GM's for an NPC. */
static rules_enc_entry *log_begin(rules_enc *e, const char *action, const char *pub)
{
    rules_enc_entry *x = rules_enc_entry_begin(e, action);
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, "%s", pub);
    return x;
}

/* Adds cid's own dice (stolen, may be NULL), numbers (stolen, may be NULL) and text. */
static void log_own(rules_enc *e, rules_enc_entry *x, const char *cid, json_t *dice, json_t *result,
                    const char *text)
{
    rules_aud aud = rules_enc_aud_of(e, cid);
    if (dice)
        rules_enc_entry_dice(x, aud, dice);
    json_decref(dice);
    rules_enc_entry_merge(x, aud, result);
    rules_enc_entry_say(x, aud, "%s", text);
}

/* "<name> <what>" for everyone, ": fatigue <f> (<cite>)" for cid's audience. */
static void log_breather(rules_enc *e, const char *cid, const char *what, int f, const char *cite)
{
    char head[160], text[80];
    snprintf(head, sizeof head, "%s %s", rules_enc_name(e, cid), what);
    snprintf(text, sizeof text, ": fatigue %d (%s)", f, cite);
    rules_enc_entry *x = log_begin(e, "breather", head);
    log_own(e, x, cid, NULL, NULL, text);
    rules_enc_entry_end(x);
}

static void roll_dice(json_t *dice, const heimr_roll *r, const char *by)
{
    unsigned char kept[HEIMR_MAX_C + 1];
    heimr_roll_kept(r, kept);
    for (int i = 0; i <= r->n10; i++) {
        rules_result_die(dice, i ? 10 : 6, i ? r->d10[i - 1] : r->d6, kept[i]);
        if (by)
            json_object_set_new(json_array_get(dice, json_array_size(dice) - 1), "by",
                                json_string(by));
    }
}

static json_t *roll_json(const heimr_roll *r)
{
    json_t *d10 = json_array();
    for (int i = 0; i < r->n10; i++)
        json_array_append_new(d10, json_integer(r->d10[i]));
    return json_pack("{s:i, s:i, s:i, s:i, s:o, s:i, s:i, s:i, s:i}", "consistency", r->c,
                     "potential", r->p, "result", r->result, "d6", r->d6, "d10s", d10, "die",
                     r->die, "bonus", r->bonus, "penalty", r->penalty, "before_potential",
                     r->before_potential);
}

/* The turn pointer's combatant may act only if it is not dazed: 001:128 "You can not attack,
 * defend or use a skill", 001:280 "You can not take any actions during your turn". */
static int check_can_act(rules_enc *e, const char *cid, tb_err *err)
{
    if (rules_enc_cond_has(e, cid, "daze"))
        return rules_enc_rule(err,
                              "%s is dazed and can take no actions this turn, only end it "
                              "(001:280)",
                              rules_enc_name(e, cid));
    return 0;
}

static void mark_acted(rules_enc *e, const char *cid)
{
    json_object_set_new(rules_enc_combatant(e, cid), "acted", json_true());
}

/* ---- abilities (from the sheet, in the combatant's stats) ---- */

static const char *const STANDARD[][2] = {{"Brawl", "str"},      {"Agility", "dex"},
                                          {"Survival", "sta"},   {"Perception", "int"},
                                          {"Persuasion", "soc"}, {"Insight", "emp"}};

static int is_physical(const char *attr)
{
    /* 001:31-34 the physical group: strength, dexterity, stamina */
    return strcmp(attr, "str") == 0 || strcmp(attr, "dex") == 0 || strcmp(attr, "sta") == 0;
}

static int attr_of(const json_t *sheet, const char *name)
{
    return (int)json_integer_value(json_object_get(json_object_get(sheet, "attributes"), name));
}

static void put_ability(json_t *map, const char *name, int c, int p, int phys)
{
    char key[64];
    lower_key(name, key, sizeof key);
    json_object_set_new(
        map, key,
        json_pack("{s:s, s:i, s:i, s:b}", "name", name, "c", c, "p", p, "physical", phys));
}

/* stats.abilities {lower-case name: {name, c, p, physical}} and stats.items {lower-case name:
 * {name, ability, c, p}} from the sheet. */
static void abilities_from_sheet(json_t *stats, const json_t *sheet)
{
    json_t *map = json_object();
    /* 001:201-209 the six standard abilities: base potential = the attribute (001:191); their
     * base consistency is the GM's (001:185): 0 when the sheet does not list the ability
     * (RULES.md, heimr encounter reading 2). */
    for (size_t i = 0; i < sizeof STANDARD / sizeof STANDARD[0]; i++)
        put_ability(map, STANDARD[i][0], 0, attr_of(sheet, STANDARD[i][1]),
                    is_physical(STANDARD[i][1]));
    size_t i;
    json_t *ab;
    json_array_foreach(json_object_get(sheet, "abilities"), i, ab)
    {
        int attrs[6], n = 0, phys = 0;
        size_t k;
        json_t *an;
        json_array_foreach(json_object_get(ab, "attributes"), k, an)
        {
            const char *a = json_string_value(an);
            if (!a || n >= 6)
                continue;
            attrs[n++] = attr_of(sheet, a);
            /* 001:284 "Any roll based on a physical attribute": one physical attribute is
             * enough (RULES.md, heimr encounter reading 3) */
            phys |= is_physical(a);
        }
        if (n == 0)
            continue;
        /* 001:176-177 base + trained; 001:191-193 base potential */
        int c = (int)json_integer_value(json_object_get(ab, "base_consistency")) +
                (int)json_integer_value(json_object_get(ab, "trained_consistency"));
        int p = heimr_base_potential(attrs, n) +
                (int)json_integer_value(json_object_get(ab, "trained_potential"));
        put_ability(map, json_string_value(json_object_get(ab, "name")), c, p, phys);
    }
    json_object_set_new(stats, "abilities", map);
    json_t *items = json_object();
    json_t *it;
    json_array_foreach(json_object_get(sheet, "items"), i, it)
    {
        const char *name = json_string_value(json_object_get(it, "name"));
        const char *abl = json_string_value(json_object_get(it, "ability"));
        char key[104];
        lower_key(name, key, sizeof key);
        json_t *o = json_pack("{s:s, s:i, s:i}", "name", name, "c",
                              (int)json_integer_value(json_object_get(it, "consistency_bonus")),
                              "p", (int)json_integer_value(json_object_get(it, "potential_bonus")));
        if (abl)
            json_object_set_new(o, "ability", json_string(abl));
        json_object_set_new(items, key, o);
    }
    json_object_set_new(stats, "items", items);
}

/* What a roll is made with: an ability (and item) of the sheet, or c/p given outright. */
typedef struct spec {
    char ability[64]; /* the name as written on the sheet ("" for c/p given) */
    char item[104];
    int c, p, phys;
} spec;

static int spec_resolve(rules_enc *e, const char *cid, const char *ability, const char *item,
                        int has_cp, int c, int p, spec *out, tb_err *err)
{
    memset(out, 0, sizeof *out);
    json_t *stats = rules_enc_stats(e, cid);
    json_t *it = NULL;
    char key[104];
    if (item) {
        lower_key(item, key, sizeof key);
        it = json_object_get(json_object_get(stats, "items"), key);
        if (!it)
            return rules_enc_rule(err, "%s carries no item '%.60s' on their sheet",
                                  rules_enc_name(e, cid), item);
        snprintf(out->item, sizeof out->item, "%s", json_string_value(json_object_get(it, "name")));
        if (!ability)
            ability = json_string_value(json_object_get(it, "ability"));
    }
    if (has_cp) {
        /* the GM's numbers (a quick NPC without a sheet); physical unless told otherwise */
        out->c = c;
        out->p = p;
        out->phys = 1;
        if (ability)
            snprintf(out->ability, sizeof out->ability, "%s", ability);
    } else {
        if (!ability)
            return rules_enc_rule(err, "name the ability %s rolls (or an item that names one)",
                                  rules_enc_name(e, cid));
        lower_key(ability, key, sizeof key);
        json_t *ab = json_object_get(json_object_get(stats, "abilities"), key);
        if (!ab)
            return rules_enc_rule(err, "%s has no ability '%.60s' on their sheet",
                                  rules_enc_name(e, cid), ability);
        snprintf(out->ability, sizeof out->ability, "%s",
                 json_string_value(json_object_get(ab, "name")));
        out->c = (int)json_integer_value(json_object_get(ab, "c"));
        out->p = (int)json_integer_value(json_object_get(ab, "p"));
        out->phys = is_true(ab, "physical");
    }
    if (it) {
        /* 001:179 item bonuses */
        out->c += (int)json_integer_value(json_object_get(it, "c"));
        out->p += (int)json_integer_value(json_object_get(it, "p"));
    }
    return 0;
}

/* ---- fatigue (001:282-314) ---- */

/*
 * The fatigue rise of one physical roll: 001:286 the d6 below fatigue raises it by one, and
 * 001:310 "Your fatigue can only increase by one every turn ... any action you take during your
 * turn, and any defensive roll you make until the start of your next turn": the flag `rose` is
 * cleared at the start of the combatant's turn. Returns 1 when it rose.
 */
static int fatigue_rise(rules_enc *e, const char *cid, int d6)
{
    json_t *p = priv(e, cid);
    int f = rules_enc_stat(e, cid, "fatigue", 1);
    int next = heimr_fatigue_after(f, d6);
    if (next == f || is_true(p, "fatigue_rose"))
        return 0;
    rules_enc_stat_set(e, cid, "fatigue", next);
    set_bool(p, "fatigue_rose", 1);
    return 1;
}

/* ---- injuries (001:143-168, 409-414) ---- */

static const char *injury_level(int hp)
{
    /* 001:145 zero or less: injured; 001:163-166 */
    if (hp > 0)
        return NULL;
    if (hp >= -1)
        return "bloodied";
    if (hp >= -3)
        return "mangled";
    return "mutilated";
}

/* 001:413-414 "Torso 5 or 6, Sword arm 4, Other arm 3, Right leg 2, Left leg 1" */
static const char *const PART_BY_D6[] = {"left_leg",  "right_leg", "other_arm",
                                         "sword_arm", "torso",     "torso"};
static const char *const PARTS[] = {"torso",     "sword_arm", "other_arm",
                                    "right_leg", "left_leg",  NULL};

static int is_part(const char *s)
{
    for (int i = 0; PARTS[i]; i++)
        if (strcmp(s, PARTS[i]) == 0)
            return 1;
    return 0;
}

/* Adds an effect condition; an effect without an end (from an injury) is not shortened by a
 * timed one of the same name. */
static void add_effect(rules_enc *e, const char *cid, const char *name, int turns, int level)
{
    json_t *old = rules_enc_cond(e, cid, name);
    if (old && !json_object_get(old, "turns") && turns > 0)
        return;
    rules_enc_cond_add(e, cid, name, turns, level);
}

/* 001:153-157 the effect of an injured body part, lasting as long as the character is injured:
 * either arm → drop item, leg(s) → fall, torso → daze. */
static const char *injury_effect(rules_enc *e, const char *cid, const char *part)
{
    if (strcmp(part, "torso") == 0) {
        add_effect(e, cid, "daze", 0, 0);
        return "daze";
    }
    if (strstr(part, "arm")) {
        add_effect(e, cid, "drop", 0, 0);
        return "drop item";
    }
    add_effect(e, cid, "fall", 0, 0);
    add_effect(e, cid, "prone", 0, 0); /* 001:125 fall to the ground; 001:434 prone */
    return "fall";
}

/*
 * After cid's HP changed: the injury level on the combatant (public: the table sees blood), and
 * the clock of 001:165-166 in rounds of 2 seconds: mangled dies in 10 minutes, unconscious after
 * 5; mutilated falls unconscious at once and dies after two minutes.
 */
static void update_injury(rules_enc *e, const char *cid)
{
    json_t *c = rules_enc_combatant(e, cid);
    const char *lvl = injury_level(rules_enc_stat(e, cid, "hp", 1));
    const char *was = json_string_value(json_object_get(c, "injury"));
    if (!lvl) {
        json_object_del(c, "injury");
        return;
    }
    if (was && strcmp(was, lvl) == 0)
        return;
    json_object_set_new(c, "injury", json_string(lvl)); /* frees `was` */
    int round = rules_enc_round(e) > 0 ? rules_enc_round(e) : 1;
    json_t *dying = json_object_get(c, "dying");
    int dead = json_is_object(dying) ? (int)json_integer_value(json_object_get(dying, "dead")) : 0;
    if (strcmp(lvl, "mangled") == 0 && !json_is_object(dying)) {
        json_object_set_new(c, "dying",
                            json_pack("{s:i, s:i}", "unconscious", round + 5 * ROUNDS_PER_MINUTE,
                                      "dead", round + 10 * ROUNDS_PER_MINUTE));
        rules_enc_log(e, "injury", NULL, NULL,
                      "%s is mangled: unconscious in 5 minutes (round %d), dead in 10 (round %d) "
                      "unless stabilised (001:165)",
                      rules_enc_name(e, cid), round + 5 * ROUNDS_PER_MINUTE,
                      round + 10 * ROUNDS_PER_MINUTE);
    } else if (strcmp(lvl, "mutilated") == 0) {
        int d = round + 2 * ROUNDS_PER_MINUTE;
        if (dead && dead < d)
            d = dead;
        json_object_set_new(c, "dying", json_pack("{s:i, s:i}", "unconscious", round, "dead", d));
        if (!rules_enc_is_out(e, cid))
            rules_enc_set_out(e, cid, "unconscious");
        rules_enc_log(e, "injury", NULL, NULL,
                      "%s is mutilated: unconscious at once, dead in two minutes (round %d) "
                      "unless stabilised (001:166)",
                      rules_enc_name(e, cid), d);
    }
}

/* Interrupts an upcoming action: 001:327 "can be interrupted if you are attacked, if you receive
 * an effect, or if you use a skill ... You do not lose the standard action of your next turn". */
static void interrupt_upcoming(rules_enc *e, const char *cid)
{
    json_t *c = rules_enc_combatant(e, cid);
    json_t *up = json_object_get(c, "upcoming");
    if (!up)
        return;
    rules_enc_log(e, "interrupt", NULL, NULL, "%s's upcoming action (%s) is interrupted (001:327)",
                  rules_enc_name(e, cid), json_string_value(json_object_get(up, "what")));
    json_object_del(c, "upcoming");
}

/* Loses hp points (from an attack or a hit effect); injures `part` (may be NULL) when the HP
 * reach zero or less. Returns the new HP. Texts go to `text` (public) for the caller's log. */
static int take_damage(rules_enc *e, const char *cid, int dmg, const char *part, char *text,
                       size_t n)
{
    int before = rules_enc_stat(e, cid, "hp", 1);
    int hp = rules_enc_stat_add(e, cid, "hp", -dmg, HP_FLOOR, 100);
    size_t len = strlen(text);
    if (!rules_enc_is_npc(e, cid))
        len += (size_t)snprintf(text + len, n > len ? n - len : 0, "; %s loses %d HP (%d → %d)",
                                rules_enc_name(e, cid), dmg, before, hp);
    if (hp <= 0 && part) {
        /* 001:153 "When a character is hit with an attack that causes an injury, they receive an
         * effect based on what body part got hit"; more parts while injured, more effects */
        json_t *stats = rules_enc_stats(e, cid);
        json_t *inj = json_object_get(stats, "injuries");
        if (!json_is_array(inj)) {
            inj = json_array();
            json_object_set_new(stats, "injuries", inj);
        }
        int have = 0;
        size_t i;
        json_t *v;
        json_array_foreach(inj, i, v) have |= strcmp(json_string_value(v), part) == 0;
        if (!have)
            json_array_append_new(inj, json_string(part));
        const char *eff = injury_effect(e, cid, part);
        len += (size_t)snprintf(text + len, n > len ? n - len : 0,
                                "; %s is injured (%s): %s (001:153-157)", rules_enc_name(e, cid),
                                part, eff);
    }
    update_injury(e, cid);
    return hp;
}

/* ---- defences (001:418-446) ---- */

/* 001:280 dazed: no defensive rolls until the daze has passed (an odd daze: until the start of
 * the turn in which it ends, `defend` set on the condition then); 001:435-437 helpless, asleep
 * and unconscious combatants (out of the fight) cannot defend. */
static int can_defend(rules_enc *e, const char *cid)
{
    json_t *daze = rules_enc_cond(e, cid, "daze");
    if (daze && !is_true(daze, "defend"))
        return 0;
    if (rules_enc_cond_has(e, cid, "no_defence") || rules_enc_cond_has(e, cid, "helpless"))
        return 0;
    return !rules_enc_is_out(e, cid);
}

static int defence_uses(rules_enc *e, const char *cid, const char *kind)
{
    return (int)json_integer_value(
        json_object_get(json_object_get(rules_enc_combatant(e, cid), "defended"), kind));
}

/*
 * Pre-rolls cid's defence of `kind` (dodge, block or parry) with an ability (dodge: Agility by
 * default, 001:422) and stores it in priv(cid).defence; the public `stance` names the kind only.
 * extra_p: +2 for the Dodge action (001:364).
 */
static int defence_roll(rules_enc *e, const char *cid, const char *kind, const char *ability,
                        const char *item, int situational, int extra_p, tb_err *err)
{
    json_t *c = rules_enc_combatant(e, cid);
    json_t *pv = priv(e, cid);
    const char *name = rules_enc_name(e, cid);
    int parry = strcmp(kind, "parry") == 0;
    if (strcmp(kind, "dodge") != 0 && strcmp(kind, "block") != 0 && !parry)
        return tb_fail(err, TB_BAD_REQUEST,
                       "defence: 'kind' must be dodge, block or parry "
                       "(001:420)");
    if (!can_defend(e, cid))
        return rules_enc_rule(err,
                              "%s cannot make defensive rolls now (dazed or helpless: "
                              "001:280, 001:435)",
                              name);
    json_t *held = json_object_get(pv, "defence");
    const char *held_kind = json_string_value(json_object_get(held, "kind"));
    if (held && !(held_kind && strcmp(held_kind, "parry") == 0 && !parry))
        return rules_enc_rule(err,
                              "%s already holds a pre-rolled %s; a new defence is rolled "
                              "once it is used (001:446)",
                              name, held_kind ? held_kind : "defence");
    if (parry && defence_uses(e, cid, "parry") >= rules_enc_stat(e, cid, "melee_weapons", 1))
        return rules_enc_rule(err,
                              "%s has already parried since their last turn: one parry per "
                              "melee weapon between turns (001:426)",
                              name);
    if (strcmp(kind, "block") == 0 && !ability && !item)
        return rules_enc_rule(err, "blocking needs a shield and the ability used with it: name "
                                   "the 'item' or 'ability' (001:422)");
    if (parry && !ability && !item)
        return rules_enc_rule(err, "parrying needs a weapon and its ability: name the 'item' or "
                                   "'ability' (001:422)");
    spec s;
    int rc =
        spec_resolve(e, cid, ability ? ability : (item ? NULL : "Agility"), item, 0, 0, 0, &s, err);
    if (rc)
        return rc;
    /* 001:426 two per earlier use of a dodge or a block since the last turn; 001:326 an ongoing
     * action: two on all defences; 001:434 prone: two */
    int uses = parry ? 0 : defence_uses(e, cid, kind);
    int pen = 2 * uses + situational;
    if (rules_enc_cond_has(e, cid, "ongoing"))
        pen += 2;
    if (rules_enc_cond_has(e, cid, "prone"))
        pen += 2;
    heimr_roll r;
    if ((rc = heimr_challenge_roll(s.c - pen, s.p + extra_p, e->rng, &r, err)))
        return rc;
    if (held) /* 001:446 a parry already rolled is kept for the first melee attack */
        json_object_set(pv, "kept_parry", held);
    json_t *d = roll_json(&r);
    json_object_set_new(d, "kind", json_string(kind));
    json_object_set_new(d, "ability", json_string(s.ability));
    json_object_set_new(d, "physical", json_boolean(s.phys));
    json_object_set_new(d, "situational", json_integer(pen));
    json_object_set(pv, "defence", d);
    json_object_set_new(c, "stance", json_string(kind));
    json_t *dice = json_array();
    roll_dice(dice, &r, NULL);
    /* 001:395, 001:446 "you can ask how high a character's defence roll is": the result is open,
     * an NPC's ability, dice and pool stay the GM's */
    char text[256], head[160];
    snprintf(head, sizeof head, "%s pre-rolls a %s", name, kind);
    snprintf(text, sizeof text, " (%s, C%d P%d)", s.ability, r.c, r.p);
    rules_enc_entry *x = log_begin(e, "defend", head);
    log_own(e, x, cid, dice, d, text);
    rules_enc_entry_set(x, RULES_AUD_PUBLIC, "kind", json_string(kind));
    rules_enc_entry_set(x, RULES_AUD_PUBLIC, "result", json_integer(r.result));
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, ": %d", r.result);
    rules_enc_entry_end(x);
    return 0;
}

/* ---- turns ---- */

/* 001:238 each round every combatant takes one 2-second turn: /enc/seconds is when it starts.
 * The dying clocks of 001:165-166 run here. */
static void round_start(rules_enc *e)
{
    int round = rules_enc_round(e);
    json_object_set_new(e->enc, "seconds", json_integer((json_int_t)(round - 1) * TURN_SECONDS));
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
            rules_enc_log(e, "dies", NULL, NULL, "%s dies of their injuries (001:165-166)",
                          rules_enc_name(e, cid));
        } else if (unc && round >= unc && !out) {
            rules_enc_set_out(e, cid, "unconscious");
            rules_enc_log(e, "unconscious", NULL, NULL,
                          "%s falls unconscious from their injuries (001:165)",
                          rules_enc_name(e, cid));
        }
    }
}

/* What happens at the start of cid's turn. */
static void turn_start(rules_enc *e, const char *cid)
{
    json_t *c = rules_enc_combatant(e, cid);
    json_t *pv = priv(e, cid);
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
        rules_enc_log(e, "ready-lost", NULL, NULL,
                      "%s's readied action is lost: its trigger did not occur before their turn "
                      "(001:250)",
                      rules_enc_name(e, cid));
    }
    /* 001:327 an upcoming action "is continued as a standard action in your next turn" */
    json_t *up = json_object_get(c, "upcoming");
    if (up) {
        json_object_set(c, "continuing", up);
        json_object_del(c, "upcoming");
        rules_enc_budget_set(e, cid, "standard", 0);
        rules_enc_log(e, "continue", NULL, NULL,
                      "%s continues %s with this turn's standard action (or cancels it) (001:327)",
                      rules_enc_name(e, cid), json_string_value(json_object_get(up, "what")));
    }
}

/* Moves the pointer on (rules_enc_advance) and runs the round and turn starts. */
static void next_turn(rules_enc *e)
{
    int rc = rules_enc_advance(e);
    for (int guard = 0; guard < 4 && rc >= 0; guard++) {
        if (rc == 1)
            round_start(e);
        const char *cur = rules_enc_current(e);
        if (cur && rules_enc_is_out(e, cur)) { /* fell unconscious at the round's start */
            rc = rules_enc_advance(e);
            continue;
        }
        if (cur)
            turn_start(e, cur);
        return;
    }
    if (rc < 0)
        rules_enc_log(e, "over", NULL, NULL, "Nobody is left to act");
}

static int breather(rules_enc *e, const char *cid)
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
static int finish_turn(rules_enc *e, const char *cid, const char *kind, const char *ability,
                       const char *item, tb_err *err)
{
    json_t *c = rules_enc_combatant(e, cid);
    json_t *cont = json_object_get(c, "continuing");
    if (cont) {
        const char *what = json_string_value(json_object_get(cont, "what"));
        if (what && strcmp(what, "breather") == 0) {
            log_breather(e, cid, "finishes taking a breather", breather(e, cid), "001:383");
        } else {
            rules_enc_log(e, "continue", NULL, NULL, "%s completes %s", rules_enc_name(e, cid),
                          what ? what : "their upcoming action");
        }
        json_object_del(c, "continuing");
    }
    rules_enc_cond_tick(e, cid);
    json_object_del(c, "delayed");
    if (!json_object_get(priv(e, cid), "defence") && can_defend(e, cid)) {
        int rc = defence_roll(e, cid, kind ? kind : "dodge", ability, item, 0, 0, err);
        if (rc)
            return rc;
    }
    rules_enc_log(e, "end-turn", NULL, NULL, "%s ends their turn", rules_enc_name(e, cid));
    next_turn(e);
    return 0;
}

/* ---- initiative (001:240-242) ---- */

static int roll_initiative(rules_enc *e, const char *cid, rules_rank *rank, tb_err *err)
{
    /* 001:242 "uses the character's dexterity as his consistency, and the number of willpower a
     * character has as it's potential"; ties to the higher willpower */
    int dex = rules_enc_stat(e, cid, "dex", 0);
    int wp = rules_enc_stat(e, cid, "willpower", 0);
    heimr_roll r;
    int rc = heimr_challenge_roll(dex, wp, e->rng, &r, err);
    if (rc)
        return rc;
    rank->id = cid;
    rank->key[0] = r.result;
    rank->key[1] = wp;
    json_object_set_new(priv(e, cid), "init", json_integer(r.result));
    json_t *dice = json_array();
    roll_dice(dice, &r, NULL);
    char text[200];
    snprintf(text, sizeof text, "%s rolls initiative (dexterity %d as C, willpower %d as P): %d",
             rules_enc_name(e, cid), dex, wp, r.result);
    rules_enc_entry *x = log_begin(e, "initiative", "");
    log_own(e, x, cid, dice, roll_json(&r), text);
    rules_enc_entry_end(x);
    return 0;
}

/* ---- module hooks ---- */

static int heimr_start(rules_enc *e, const rules_args *options, tb_err *err)
{
    (void)options;
    (void)err;
    /* 001:324-327 one standard action per turn; free actions are counted by name */
    rules_enc_budget_default(e, json_pack("{s:i}", "standard", 1));
    json_object_set_new(e->enc, "turn_seconds", json_integer(TURN_SECONDS));
    json_object_set_new(e->enc, "seconds", json_integer(0));
    return 0;
}

static int heimr_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    json_t *stats = rules_enc_stats(e, cid);
    /* a quick NPC without a sheet gets the sheet's defaults (heimr.c); the GM adjusts them */
    static const struct {
        const char *k;
        int v;
    } DEF[] = {{"hp", 5}, {"hp_max", 5}, {"willpower", 3}, {"willpower_max", 3}, {"fatigue", 1}};
    for (size_t i = 0; i < sizeof DEF / sizeof DEF[0]; i++)
        if (!json_object_get(stats, DEF[i].k))
            json_object_set_new(stats, DEF[i].k, json_integer(DEF[i].v));
    rules_enc_stat_set(e, cid, "dex", attr_of(sheet, "dex"));
    rules_enc_stat_set(e, cid, "base_fatigue", heimr_base_fatigue(attr_of(sheet, "sta")));
    abilities_from_sheet(stats, sheet);
    /* injuries the sheet already has keep their effects (001:153 "as long as the character is
     * injured") */
    if (rules_enc_stat(e, cid, "hp", 1) <= 0) {
        size_t i;
        json_t *v;
        json_array_foreach(json_object_get(stats, "injuries"), i, v) if (json_is_string(v))
            injury_effect(e, cid, json_string_value(v));
    }
    update_injury(e, cid);
    if (rules_enc_round(e) > 0) {
        /* joining a running fight: initiative now, at the end of the order */
        rules_rank r = {0};
        int rc = roll_initiative(e, cid, &r, err);
        if (rc)
            return rc;
        json_array_append_new(json_object_get(e->enc, "order"), json_string(cid));
    }
    return 0;
}

/* ---- actions ---- */

static int act_begin(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    if (rules_enc_round(e) > 0)
        return rules_enc_rule(err,
                              "the fight has begun (round %d): initiative is thrown once, at "
                              "the start of combat (001:242)",
                              rules_enc_round(e));
    json_t *all = json_object_get(e->enc, "combatants");
    int n = (int)json_object_size(all);
    if (n == 0)
        return rules_enc_rule(err, "nobody to order: add combatants with enc.add first");
    rules_rank *r = calloc((size_t)n, sizeof *r);
    if (!r)
        abort();
    const char *cid;
    int rc = 0;
    for (int i = 0; (cid = rules_enc_cid_at(e, (size_t)i)) && rc == 0; i++)
        rc = roll_initiative(e, cid, &r[i], err);
    if (rc == 0) {
        rules_enc_order_set(e, r, n);
        char text[480];
        size_t len = 0;
        json_t *order = json_object_get(e->enc, "order");
        size_t i;
        json_t *v;
        json_array_foreach(order, i, v) len +=
            (size_t)snprintf(text + len, len < sizeof text ? sizeof text - len : 0, "%s%s",
                             i ? ", " : "", rules_enc_name(e, json_string_value(v)));
        rules_enc_begin_round(e);
        round_start(e);
        rules_enc_log(e, "begin", NULL, NULL, "Round 1: the order is %s (001:242)", text);
        const char *cur = rules_enc_current(e);
        if (cur && rules_enc_is_out(e, cur))
            next_turn(e);
        else if (cur)
            turn_start(e, cur);
    }
    free(r);
    return rc;
}

static int act_end_turn(rules_enc *e, const rules_args *a, tb_err *err)
{
    return finish_turn(e, e->actor, rules_arg_str(a, "defence"), rules_arg_str(a, "ability"),
                       rules_arg_str(a, "item"), err);
}

static int act_delay(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *tgt = rules_arg_str(a, "target");
    const char *when = rules_arg_str(a, "when");
    int after = when && strcmp(when, "after") == 0;
    if (!when || (!after && strcmp(when, "before") != 0))
        return tb_fail(err, TB_BAD_REQUEST, "enc.act delay: 'when' must be before or after");
    /* 001:246 "by declaring at the start of their turn" */
    if (is_true(rules_enc_combatant(e, cid), "acted"))
        return rules_enc_rule(err,
                              "%s has already acted this turn: a delay is declared at the "
                              "start of the turn (001:246)",
                              rules_enc_name(e, cid));
    if (strcmp(tgt, cid) == 0)
        return rules_enc_rule(err, "%s cannot delay relative to themselves",
                              rules_enc_name(e, cid));
    int from = rules_enc_order_index(e, cid), ti = rules_enc_order_index(e, tgt);
    if (from < 0 || ti < 0)
        return rules_enc_rule(err, "%s is not in the order", rules_enc_name(e, ti < 0 ? tgt : cid));
    int tj = ti > from ? ti - 1 : ti; /* the target's index once cid is taken out */
    int to = after ? tj + 1 : tj;
    if (to == from)
        return rules_enc_rule(err, "%s already acts just %s %s", rules_enc_name(e, cid), when,
                              rules_enc_name(e, tgt));
    /* 001:246 "This character is then moved in the initiative order to where they specified." */
    rules_enc_order_move(e, from, to);
    json_object_set_new(rules_enc_combatant(e, cid), "delayed",
                        json_pack("{s:s, s:s}", "when", when, "of", tgt));
    rules_enc_log(e, "delay", NULL, NULL, "%s delays until %s %s (001:246)", rules_enc_name(e, cid),
                  after ? "after" : "just before", rules_enc_name(e, tgt));
    /* the turn passes to whoever came after cid; cid's own turn comes at its new place */
    json_object_set_new(e->enc, "turn", json_integer(to > from ? from - 1 : from));
    next_turn(e);
    return 0;
}

/* A weapon (or brawl) attack, as the parameters give it. */
typedef struct attack {
    char target[40], ability[64], item[104], aim[16];
    int has_cp, c, p, penalty, damage, ranged, brawl;
} attack;

static void attack_from_args(const rules_args *a, attack *k)
{
    memset(k, 0, sizeof *k);
    const char *s;
    if ((s = rules_arg_str(a, "target")))
        snprintf(k->target, sizeof k->target, "%s", s);
    if ((s = rules_arg_str(a, "ability")))
        snprintf(k->ability, sizeof k->ability, "%s", s);
    if ((s = rules_arg_str(a, "item")))
        snprintf(k->item, sizeof k->item, "%s", s);
    if ((s = rules_arg_str(a, "aim")))
        snprintf(k->aim, sizeof k->aim, "%s", s);
    k->has_cp = rules_arg_given(a, "c") || rules_arg_given(a, "p");
    k->c = rules_arg_int(a, "c");
    k->p = rules_arg_int(a, "p");
    k->penalty = rules_arg_int(a, "penalty");
    k->damage = rules_arg_int(a, "damage");
    k->ranged = rules_arg_int(a, "ranged");
    k->brawl = rules_arg_int(a, "brawl");
}

static json_t *attack_json(const attack *k)
{
    json_t *o = json_pack("{s:i, s:i, s:i, s:b, s:b}", "penalty", k->penalty, "damage", k->damage,
                          "ranged", k->ranged, "brawl", k->brawl, "has_cp", k->has_cp);
    if (k->target[0])
        json_object_set_new(o, "target", json_string(k->target));
    if (k->ability[0])
        json_object_set_new(o, "ability", json_string(k->ability));
    if (k->item[0])
        json_object_set_new(o, "item", json_string(k->item));
    if (k->aim[0])
        json_object_set_new(o, "aim", json_string(k->aim));
    if (k->has_cp) {
        json_object_set_new(o, "c", json_integer(k->c));
        json_object_set_new(o, "p", json_integer(k->p));
    }
    return o;
}

static void attack_from_json(const json_t *o, attack *k)
{
    memset(k, 0, sizeof *k);
    const char *s;
    if ((s = json_string_value(json_object_get(o, "target"))))
        snprintf(k->target, sizeof k->target, "%s", s);
    if ((s = json_string_value(json_object_get(o, "ability"))))
        snprintf(k->ability, sizeof k->ability, "%s", s);
    if ((s = json_string_value(json_object_get(o, "item"))))
        snprintf(k->item, sizeof k->item, "%s", s);
    if ((s = json_string_value(json_object_get(o, "aim"))))
        snprintf(k->aim, sizeof k->aim, "%s", s);
    k->has_cp = json_is_true(json_object_get(o, "has_cp"));
    k->c = (int)json_integer_value(json_object_get(o, "c"));
    k->p = (int)json_integer_value(json_object_get(o, "p"));
    k->penalty = (int)json_integer_value(json_object_get(o, "penalty"));
    k->damage = (int)json_integer_value(json_object_get(o, "damage"));
    k->ranged = json_is_true(json_object_get(o, "ranged"));
    k->brawl = json_is_true(json_object_get(o, "brawl"));
}

/* Checks an attack can be made before anything is rolled (also when it is readied). */
static int attack_check(rules_enc *e, const char *cid, const attack *k, tb_err *err)
{
    if (k->aim[0] && !is_part(k->aim))
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act: 'aim' must be one of torso, sword_arm, "
                       "other_arm, right_leg, left_leg (001:413)");
    if (k->target[0] && strcmp(k->target, cid) == 0)
        return rules_enc_rule(err, "%s cannot attack themselves", rules_enc_name(e, cid));
    spec s;
    return spec_resolve(e, cid, k->ability[0] ? k->ability : NULL, k->item[0] ? k->item : NULL,
                        k->has_cp, k->c, k->p, &s, err);
}

/*
 * One attack of cid on k->target (001:393-446): the target's pre-rolled defence (a kept parry
 * first against a melee attack; none held: a dodge is rolled for it now, before the attack, as
 * 001:420 "You must roll defence before knowing the result of the attack roll"), the attack roll
 * with its penalties, the fatigue requirement and rise of both, the hit (attack above the
 * defence: ties to the defender, 001:420), the body part from the attack's d6 (001:411-414) and
 * the damage.
 */
static int attack_run(rules_enc *e, const char *cid, const attack *k, const char *how, tb_err *err)
{
    const char *tgt = k->target, *an = rules_enc_name(e, cid), *tn = rules_enc_name(e, tgt);
    int rc = attack_check(e, cid, k, err);
    if (rc)
        return rc;
    spec s;
    spec_resolve(e, cid, k->ability[0] ? k->ability : NULL, k->item[0] ? k->item : NULL, k->has_cp,
                 k->c, k->p, &s, err);
    json_t *tc = rules_enc_combatant(e, tgt), *tp = priv(e, tgt);
    interrupt_upcoming(e, tgt); /* 001:327 */

    /* the defence */
    json_t *def = NULL; /* borrowed from tp, or NULL: no defence */
    const char *slot = NULL;
    if (can_defend(e, tgt)) {
        json_t *held = json_object_get(tp, "defence");
        const char *hk = json_string_value(json_object_get(held, "kind"));
        if (!k->ranged && json_object_get(tp, "kept_parry")) {
            slot = "kept_parry"; /* 001:446 "must be used ... against the first melee attack" */
        } else if (held && !(k->ranged && hk && strcmp(hk, "parry") == 0)) {
            slot = "defence";
        } else {
            /* none held, or a parry against a ranged attack (001:422 "You can only parry against
             * melee attacks"): a dodge now, before the attack roll (001:446) */
            if ((rc = defence_roll(e, tgt, "dodge", NULL, NULL, 0, 0, err)))
                return rc;
            slot = "defence";
        }
        def = json_object_get(tp, slot);
    }

    /* the attack roll: 001:416 aiming, 001:434 prone attacker / ranged at a prone target,
     * the GM's situational penalty (range, clusters, darkness: 001:262, 266, 540) */
    int pen = k->penalty;
    if (k->aim[0])
        pen += 2;
    if (rules_enc_cond_has(e, cid, "prone"))
        pen += 2;
    if (k->ranged && rules_enc_cond_has(e, tgt, "prone"))
        pen += 2;
    heimr_roll r;
    if ((rc = heimr_challenge_roll(s.c - pen, s.p, e->rng, &r, err)))
        return rc;
    int fat = rules_enc_stat(e, cid, "fatigue", 1);
    /* 001:284 a physical roll must reach fatigue before potential; "If this is an attack, the
     * opponent does not have to defend." */
    int passes = !s.phys || heimr_fatigue_passes(&r, fat);
    int rose = s.phys && fatigue_rise(e, cid, r.d6);

    json_t *res = json_pack("{s:s, s:s, s:o, s:b, s:i}", "attacker", cid, "target", tgt, "attack",
                            roll_json(&r), "fatigue_ok", passes, "fatigue_checked", fat);
    json_t *gm_res = json_object(); /* the hidden half (defence values of an NPC) */
    char pub[480], sec[300] = "";
    int hit = 0, dmg = 0, graze = 0;
    const char *part = NULL;
    const char *dkind = def ? json_string_value(json_object_get(def, "kind")) : NULL;
    int dval = def ? (int)json_integer_value(json_object_get(def, "result")) : 0;
    int def_fails = 0;
    if (!passes && rules_enc_is_npc(e, cid)) {
        snprintf(pub, sizeof pub,
                 "%s%s attacks %s: the attack fails (fatigue) and %s need not "
                 "defend (001:284)",
                 how, an, tn, tn);
    } else if (!passes) {
        snprintf(pub, sizeof pub,
                 "%s%s attacks %s: %d before potential is below fatigue %d — the "
                 "attack fails and %s need not defend (001:284)",
                 how, an, tn, r.before_potential, fat, tn);
    } else {
        if (def) {
            /* the defence is used: 001:426 counts it, 001:446 fatigue changes only now */
            json_t *used = json_object_get(tc, "defended");
            if (!json_is_object(used)) {
                used = json_object();
                json_object_set_new(tc, "defended", used);
            }
            json_object_set_new(used, dkind,
                                json_integer(json_integer_value(json_object_get(used, dkind)) + 1));
            int tfat = rules_enc_stat(e, tgt, "fatigue", 1);
            if (is_true(def, "physical")) {
                def_fails =
                    (int)json_integer_value(json_object_get(def, "before_potential")) < tfat;
                fatigue_rise(e, tgt, (int)json_integer_value(json_object_get(def, "d6")));
            }
            json_object_set(gm_res, "defence", def);
            json_object_set_new(gm_res, "defence_fails_fatigue", json_boolean(def_fails));
        }
        hit = !def || def_fails || rules_opposed(r.result, dval, RULES_TIE_DEFENDER);
        /* 001:401 a brawl attack equal to the defence or one less "can be considered a 'hit', but
         * it wasn't strong enough to effect hit points" */
        graze = k->brawl && !hit && (r.result == dval || r.result == dval - 1);
        part = k->aim[0] ? k->aim : PART_BY_D6[r.d6 - 1];
        dmg = k->brawl ? 1 : k->damage;
        const char *against = !def ? "no defence" : dkind;
        snprintf(pub, sizeof pub, "%s%s attacks %s (%s): %s", how, an, tn, against,
                 hit     ? "hit"
                 : graze ? "a hit without damage (001:401)"
                         : "miss");
        if (hit) {
            size_t len = strlen(pub);
            snprintf(pub + len, sizeof pub - len, ", %s (d6 %d%s)", part, r.d6,
                     k->aim[0] ? ", aimed" : "");
        }
        if (def) {
            if (def_fails)
                snprintf(sec, sizeof sec, "%s's %s (%d) fails its fatigue requirement", tn, dkind,
                         dval);
            else
                snprintf(sec, sizeof sec, "%s's %s: %d", tn, dkind, dval);
        }
        /* the defence is spent: a new one is pre-rolled (001:446) */
        if (slot) {
            json_object_del(tp, slot);
            if (strcmp(slot, "defence") == 0)
                json_object_del(tc, "stance");
        }
    }
    char dtext[200] = "";
    if (hit)
        take_damage(e, tgt, dmg, part, dtext, sizeof dtext);

    /* the entry (rules/RULES.md, "What the table sees (heimr)"): an NPC attacker's dice and
     * numbers, an NPC defender's defence as it was used and its HP are the GM's */
    rules_aud mine = rules_enc_aud_of(e, cid), theirs = rules_enc_aud_of(e, tgt);
    rules_enc_entry *x = rules_enc_entry_begin(e, "attack");
    json_t *dice = json_array();
    roll_dice(dice, &r, "attack");
    rules_enc_entry_dice(x, mine, dice);
    json_decref(dice);
    rules_enc_entry_merge(x, RULES_AUD_PUBLIC,
                          json_pack("{s:s, s:s, s:b}", "attacker", cid, "target", tgt, "hit", hit));
    rules_enc_entry_merge(x, mine, res);
    if (hit) {
        rules_enc_entry_set(x, RULES_AUD_PUBLIC, "part", json_string(part));
        rules_enc_entry_set(
            x, mine == RULES_AUD_GM && theirs == RULES_AUD_GM ? RULES_AUD_GM : RULES_AUD_PUBLIC,
            "damage", json_integer(dmg));
    }
    if (rose)
        rules_enc_entry_set(x, mine, "fatigue_rose", json_true());
    json_t *dv = json_object_get(gm_res, "defence");
    if (dv)
        rules_enc_entry_set(x, theirs, "defence", json_incref(dv));
    json_t *dff = json_object_get(gm_res, "defence_fails_fatigue");
    if (dff)
        rules_enc_entry_set(x, RULES_AUD_GM, "defence_fails_fatigue", json_incref(dff));
    if (hit && theirs == RULES_AUD_GM)
        rules_enc_entry_set(x, RULES_AUD_GM, "hp", json_integer(rules_enc_stat(e, tgt, "hp", 0)));
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, "%s%s", pub, dtext);
    if (mine == RULES_AUD_GM)
        rules_enc_entry_say(
            x, RULES_AUD_GM, " — %s %d (C%d P%d, before potential %d vs fatigue %d)",
            s.ability[0] ? s.ability : "attack", r.result, r.c, r.p, r.before_potential, fat);
    if (def && passes)
        rules_enc_entry_say(x, theirs, "; %s", sec);
    if (hit && theirs == RULES_AUD_GM)
        rules_enc_entry_say(x, RULES_AUD_GM, "; %s HP %d", tn, rules_enc_stat(e, tgt, "hp", 0));
    rules_enc_entry_end(x);
    json_decref(gm_res);
    return 0;
}

static int act_attack(rules_enc *e, const rules_args *a, tb_err *err)
{
    attack k;
    attack_from_args(a, &k);
    int rc = check_can_act(e, e->actor, err);
    if (!rc)
        rc = attack_check(e, e->actor, &k, err);
    /* 001:337 "Weapon attack Standard"; 001:341 brawl attack standard */
    if (!rc)
        rc = rules_enc_spend(e, e->actor, "standard", 1, err);
    if (rc)
        return rc;
    mark_acted(e, e->actor);
    return attack_run(e, e->actor, &k, "", err);
}

static int act_defend(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor;
    int dodge_action = rules_arg_int(a, "dodge_action");
    const char *kind = rules_arg_str(a, "kind");
    if (dodge_action) {
        /* 001:364 "Dodge Standard: If you know a ranged attack is coming, you can ready your
         * dodge defence ... a potential bonus of two to your dodging roll." */
        const char *cur = rules_enc_current(e);
        if (strcmp(kind, "dodge") != 0)
            return rules_enc_rule(err, "the Dodge action readies a dodge only (001:364)");
        if (!cur || strcmp(cur, cid) != 0)
            return rules_enc_rule(err,
                                  "the Dodge action is a standard action of %s's own turn "
                                  "(001:364)",
                                  rules_enc_name(e, cid));
        int rc = check_can_act(e, cid, err);
        if (!rc)
            rc = rules_enc_spend(e, cid, "standard", 1, err);
        if (rc)
            return rc;
        mark_acted(e, cid);
        /* the held defence gives way to the readied dodge */
        json_object_del(priv(e, cid), "defence");
    }
    return defence_roll(e, cid, kind, rules_arg_str(a, "ability"), rules_arg_str(a, "item"),
                        rules_arg_int(a, "penalty"), dodge_action ? 2 : 0, err);
}

static int act_ready(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor;
    const char *what = rules_arg_str(a, "action");
    int is_attack = !what || strcmp(what, "attack") == 0;
    int rc = check_can_act(e, cid, err);
    if (rc)
        return rc;
    json_t *pv = priv(e, cid);
    /* 001:248 "players can ready one combat action" */
    if (json_object_get(pv, "ready"))
        return rules_enc_rule(err, "%s already has a readied action (001:248)",
                              rules_enc_name(e, cid));
    attack k;
    attack_from_args(a, &k);
    if (is_attack && (rc = attack_check(e, cid, &k, err)))
        return rc;
    /* the readied action is the turn's standard action, done later (RULES.md, reading 5) */
    if ((rc = rules_enc_spend(e, cid, "standard", 1, err)))
        return rc;
    mark_acted(e, cid);
    json_t *ready = json_pack("{s:s, s:s}", "action", is_attack ? "attack" : what, "trigger",
                              rules_arg_str(a, "trigger"));
    if (is_attack)
        json_object_set_new(ready, "attack", attack_json(&k));
    json_object_set_new(ready, "round", json_integer(rules_enc_round(e)));
    json_object_set_new(pv, "ready", ready);
    json_object_set_new(rules_enc_combatant(e, cid), "readied", json_true());
    char text[300], head[120];
    snprintf(head, sizeof head, "%s readies ", rules_enc_name(e, cid));
    snprintf(text, sizeof text, "%s%s%s until: %s (001:248)", is_attack ? "an attack" : what,
             k.target[0] ? " on " : "", k.target[0] ? rules_enc_name(e, k.target) : "",
             rules_arg_str(a, "trigger"));
    rules_enc_entry *x = log_begin(e, "ready", head);
    if (rules_enc_is_npc(e, cid)) {
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, "an action");
        rules_enc_entry_say(x, RULES_AUD_GM, ": ");
    }
    log_own(e, x, cid, NULL, NULL, text);
    rules_enc_entry_end(x);
    return 0;
}

static int act_trigger(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *by = rules_arg_str(a, "target");
    json_t *pv = priv(e, cid);
    json_t *ready = json_object_get(pv, "ready");
    if (!ready)
        return rules_enc_rule(err, "%s has no readied action (001:248)", rules_enc_name(e, cid));
    if (strcmp(by, cid) == 0)
        return rules_enc_rule(err, "%s cannot trigger their own readied action",
                              rules_enc_name(e, cid));
    if (rules_enc_is_out(e, cid))
        return rules_enc_rule(err, "%s is out of the fight", rules_enc_name(e, cid));
    const char *cur = rules_enc_current(e);
    if (cur && strcmp(cur, cid) == 0)
        return rules_enc_rule(err,
                              "a readied action fires in another character's turn, not in "
                              "%s's own (001:250)",
                              rules_enc_name(e, cid));
    int rc = check_can_act(e, cid, err);
    if (rc)
        return rc;
    /* 001:250 "The character with the readied action is moved to the turn before the character
     * who triggered the action." */
    int from = rules_enc_order_index(e, cid), ti = rules_enc_order_index(e, by);
    if (from >= 0 && ti >= 0) {
        int to = ti > from ? ti - 1 : ti;
        rules_enc_order_move(e, from, to);
    }
    json_t *keep = json_incref(ready);
    json_object_del(pv, "ready");
    json_object_del(rules_enc_combatant(e, cid), "readied");
    const char *what = json_string_value(json_object_get(keep, "action"));
    char how[200];
    snprintf(how, sizeof how, "%s's trigger (%s) occurs: ", rules_enc_name(e, cid),
             json_string_value(json_object_get(keep, "trigger")));
    if (!rules_enc_is_npc(e, cid) || strcmp(what, "attack") != 0)
        rules_enc_log(e, "trigger", NULL, NULL, "%s%s acts just before %s (001:250)", how,
                      rules_enc_name(e, cid), rules_enc_name(e, by));
    else
        rules_enc_log(e, "trigger", NULL, NULL,
                      "%s's readied action fires: %s acts just before "
                      "%s (001:250)",
                      rules_enc_name(e, cid), rules_enc_name(e, cid), rules_enc_name(e, by));
    if (strcmp(what, "attack") == 0) {
        attack k;
        attack_from_json(json_object_get(keep, "attack"), &k);
        if (!k.target[0]) /* "an opponent enters this square": the one who triggered it */
            snprintf(k.target, sizeof k.target, "%s", by);
        if (!rules_enc_combatant(e, k.target))
            rc = rules_enc_rule(err, "the readied attack's target has left the encounter");
        else
            rc = attack_run(e, cid, &k, "Readied: ", err);
    } else {
        rules_enc_log(e, "trigger", NULL, NULL,
                      "%s does what they readied: %s (the GM resolves "
                      "it)",
                      rules_enc_name(e, cid), what);
    }
    json_decref(keep);
    return rc;
}

static int act_act(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor;
    const char *type = rules_arg_str(a, "type"), *what = rules_arg_str(a, "what");
    json_t *c = rules_enc_combatant(e, cid);
    if (!type || !what)
        return tb_fail(err, TB_BAD_REQUEST, "enc.act act: give 'type' and 'what'");
    int rc = check_can_act(e, cid, err);
    if (rc)
        return rc;
    if (strcmp(type, "standard") == 0 || strcmp(type, "ongoing") == 0) {
        /* 001:324 one standard action; 001:326 ongoing: a standard action that ends the turn */
        if ((rc = rules_enc_spend(e, cid, "standard", 1, err)))
            return rc;
    } else if (strcmp(type, "free") == 0 || strcmp(type, "upcoming") == 0) {
        /* 001:325 "you can not use the same free action more then once during the same turn" */
        char key[64];
        lower_key(what, key, sizeof key);
        json_t *used = json_object_get(c, "free_used");
        size_t i;
        json_t *v;
        json_array_foreach(used, i, v) if (
            strcmp(json_string_value(v), key) ==
            0) return rules_enc_rule(err,
                                     "%s has already used the free action '%s' this turn (001:325)",
                                     rules_enc_name(e, cid), what);
        if (!json_is_array(used)) {
            used = json_array();
            json_object_set_new(c, "free_used", used);
        }
        json_array_append_new(used, json_string(key));
    } else {
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act act: 'type' must be standard, free, ongoing or upcoming (001:322)");
    }
    mark_acted(e, cid);
    rules_enc_log(e, "act", NULL, NULL, "%s: %s (%s action)", rules_enc_name(e, cid), what, type);
    if (strcmp(type, "ongoing") == 0) {
        /* 001:326 "a consistency penalty of two on all defensive rolls until the start of your
         * next turn" */
        rules_enc_cond_add(e, cid, "ongoing", 0, 0);
        return finish_turn(e, cid, NULL, NULL, NULL, err);
    }
    if (strcmp(type, "upcoming") == 0) {
        /* 001:327 "a free action that ends your turn, and is continued as a standard action in
         * your next turn" */
        json_object_set_new(c, "upcoming", json_pack("{s:s}", "what", what));
        return finish_turn(e, cid, NULL, NULL, NULL, err);
    }
    return 0;
}

static int act_breather(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor;
    json_t *c = rules_enc_combatant(e, cid);
    int rc = check_can_act(e, cid, err);
    if (rc)
        return rc;
    mark_acted(e, cid);
    if (rules_arg_int(a, "upcoming")) {
        /* 001:383 "Ongoing or upcoming"; as upcoming it completes with the next turn's standard
         * action (001:327) */
        json_t *used = json_object_get(c, "free_used");
        if (!json_is_array(used)) {
            used = json_array();
            json_object_set_new(c, "free_used", used);
        }
        json_array_append_new(used, json_string("breather"));
        json_object_set_new(c, "upcoming", json_pack("{s:s}", "what", "breather"));
        rules_enc_log(e, "breather", NULL, NULL,
                      "%s starts taking a breather (upcoming: it finishes next turn) (001:383)",
                      rules_enc_name(e, cid));
        return finish_turn(e, cid, NULL, NULL, NULL, err);
    }
    if ((rc = rules_enc_spend(e, cid, "standard", 1, err)))
        return rc;
    log_breather(e, cid, "takes a breather", breather(e, cid), "001:383-384");
    rules_enc_cond_add(e, cid, "ongoing", 0, 0); /* 001:326 */
    return finish_turn(e, cid, NULL, NULL, NULL, err);
}

static int act_cancel(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *cid = e->actor;
    json_t *c = rules_enc_combatant(e, cid);
    json_t *cont = json_object_get(c, "continuing");
    /* 001:327 "you can decide to cancel the action at the start of your next turn" */
    if (!cont)
        return rules_enc_rule(err, "%s has no upcoming action to cancel", rules_enc_name(e, cid));
    if (is_true(c, "acted"))
        return rules_enc_rule(err, "an upcoming action is cancelled at the start of the turn "
                                   "(001:327)");
    rules_enc_log(e, "cancel", NULL, NULL, "%s cancels %s and has the standard action back",
                  rules_enc_name(e, cid), json_string_value(json_object_get(cont, "what")));
    json_object_del(c, "continuing");
    rules_enc_budget_set(e, cid, "standard", 1);
    return 0;
}

static int free_once(rules_enc *e, const char *cid, const char *name, tb_err *err)
{
    json_t *c = rules_enc_combatant(e, cid);
    json_t *used = json_object_get(c, "free_used");
    size_t i;
    json_t *v;
    json_array_foreach(used, i, v) if (strcmp(json_string_value(v), name) ==
                                       0) return rules_enc_rule(err,
                                                                "%s has already used the free "
                                                                "action '%s' this turn (001:325)",
                                                                rules_enc_name(e, cid), name);
    if (!json_is_array(used)) {
        used = json_array();
        json_object_set_new(c, "free_used", used);
    }
    json_array_append_new(used, json_string(name));
    mark_acted(e, cid);
    return 0;
}

static int act_stand(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *cid = e->actor;
    int rc = check_can_act(e, cid, err);
    if (rc)
        return rc;
    if (!rules_enc_cond_has(e, cid, "prone"))
        return rules_enc_rule(err, "%s is not prone", rules_enc_name(e, cid));
    /* 001:125 "After two seconds you can stand up again"; an injured leg keeps the fall
     * (001:156) */
    if (rules_enc_cond_has(e, cid, "fall"))
        return rules_enc_rule(err, "%s has fallen and cannot stand up yet (001:125, 001:156)",
                              rules_enc_name(e, cid));
    if ((rc = free_once(e, cid, "stand", err)))
        return rc;
    rules_enc_cond_remove(e, cid, "prone");
    rules_enc_log(e, "stand", NULL, NULL, "%s stands up (free action)", rules_enc_name(e, cid));
    return 0;
}

static int act_drop_prone(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *cid = e->actor;
    int rc = check_can_act(e, cid, err);
    if (!rc)
        rc = free_once(e, cid, "drop prone", err);
    if (rc)
        return rc;
    /* 001:358 "Drop prone Free: Your character is now in a prone position." */
    rules_enc_cond_add(e, cid, "prone", 0, 0);
    rules_enc_log(e, "prone", NULL, NULL, "%s drops prone (001:358)", rules_enc_name(e, cid));
    return 0;
}

static int act_effect(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *tgt = rules_arg_str(a, "target"), *eff = rules_arg_str(a, "effect");
    const char *part = rules_arg_str(a, "part");
    int given = rules_arg_given(a, "value"), v = rules_arg_int(a, "value");
    static const char *const TIMED[] = {"fall", "drop", "stumble", "daze", "weaken", "bind", NULL};
    if (part && !is_part(part))
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act effect: 'part' must be one of torso, "
                       "sword_arm, other_arm, right_leg, left_leg (001:413)");
    const char *tn = rules_enc_name(e, tgt);
    interrupt_upcoming(e, tgt); /* 001:327 "if you receive an effect" */
    if (strcmp(eff, "hit") == 0 || strcmp(eff, "drain") == 0) {
        /* 001:121 a number "either two (as in seconds) or one (as in point)"; 001:123-124 */
        int n = given ? v : 1;
        if (strcmp(eff, "drain") == 0) {
            int w = rules_enc_stat_add(e, tgt, "willpower", -n, 0, 50);
            char text[160], head[120];
            snprintf(head, sizeof head, "%s is drained", tn);
            snprintf(text, sizeof text, ": willpower %d", w);
            rules_enc_entry *x = log_begin(e, "effect", head);
            log_own(e, x, tgt, NULL, NULL, text);
            rules_enc_entry_say(x, RULES_AUD_PUBLIC, " (001:124)");
            rules_enc_entry_end(x);
            return 0;
        }
        char text[300];
        snprintf(text, sizeof text, "%s takes hit %d (001:123)", tn, n);
        int hp = take_damage(e, tgt, n, part, text, sizeof text);
        rules_enc_log(e, "effect", NULL, NULL, "%s", text);
        if (rules_enc_is_npc(e, tgt))
            rules_enc_log_gm(e, "effect", NULL, json_pack("{s:i}", "hp", hp), "%s: HP %d", tn, hp);
        return 0;
    }
    int known = 0;
    for (int i = 0; TIMED[i]; i++)
        known |= strcmp(eff, TIMED[i]) == 0;
    if (!known)
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act effect: 'effect' must be hit, drain, fall, "
                       "drop, stumble, daze, weaken or bind (001:121-136)");
    int secs = given ? v : 2;
    /* 001:270 "The number of turns an effect lasts is ... half the effect's duration, rounded
     * down." */
    int turns = secs / 2;
    if (turns > 0) {
        add_effect(e, tgt, eff, turns, strcmp(eff, "daze") == 0 ? secs : 0);
        if (strcmp(eff, "fall") == 0)
            rules_enc_cond_add(e, tgt, "prone", 0, 0); /* 001:125 on the ground */
    } else if (strcmp(eff, "daze") == 0) {
        /* 001:280 an odd daze: no defence "until the start of the turn in which the effect
         * ends"; one second ends in the next turn */
        rules_enc_cond_add(e, tgt, "no_defence", 0, 0);
    }
    rules_enc_log(e, "effect", NULL,
                  json_pack("{s:s, s:i, s:i}", "effect", eff, "seconds", secs, "turns", turns),
                  "%s: %s %d — %d turn%s (001:270)", tn, eff, secs, turns, turns == 1 ? "" : "s");
    return 0;
}

/* ---- the table ---- */

#define P_TARGET(req, l)                                                                           \
    {                                                                                              \
        "target", RULES_PARAM_STRING, 1, 32, 0, req, l                                             \
    }
#define P_ABILITY                                                                                  \
    {                                                                                              \
        "ability", RULES_PARAM_STRING, 1, 60, 0, 0, "ability rolled (from the sheet)"              \
    }
#define P_ITEM                                                                                     \
    {                                                                                              \
        "item", RULES_PARAM_STRING, 1, 100, 0, 0, "item used: its bonuses (001:179)"               \
    }
#define P_PENALTY                                                                                  \
    {                                                                                              \
        "penalty", RULES_PARAM_INT, 0, 20, 0, 0, "situational penalty on consistency (001:103)"    \
    }
#define ATTACK_PARAMS                                                                              \
    P_ABILITY, P_ITEM,                                                                             \
        {"aim",                                                                                    \
         RULES_PARAM_STRING,                                                                       \
         1,                                                                                        \
         15,                                                                                       \
         0,                                                                                        \
         0,                                                                                        \
         "aimed body part: torso, sword_arm, other_arm, right_leg, left_leg (C-2, 001:416)"},      \
        P_PENALTY, {"damage",                                                                      \
                    RULES_PARAM_INT,                                                               \
                    0,                                                                             \
                    10,                                                                            \
                    1,                                                                             \
                    0,                                                                             \
                    "HP lost on a hit (weapon damage, 001:123, 574)"},                             \
        {"ranged", RULES_PARAM_BOOL, 0, 1, 0, 0, "a ranged attack (no parry, 001:422)"},           \
        {"brawl", RULES_PARAM_BOOL, 0, 1, 0, 0, "a brawl attack: hit 1 (001:401)"},                \
        {"c", RULES_PARAM_INT, -20, 20, 0, 0, "consistency, instead of an ability"},               \
    {                                                                                              \
        "p", RULES_PARAM_INT, -30, 30, 0, 0, "potential, instead of an ability"                    \
    }

static const rules_param P_NONE[] = {{0}};
static const rules_param P_END[] = {
    {"defence", RULES_PARAM_STRING, 1, 10, 0, 0,
     "next defence if none is held: dodge, block, parry (001:395)"},
    P_ABILITY,
    P_ITEM,
    {0},
};
static const rules_param P_DELAY[] = {
    P_TARGET(RULES_PARAM_REQUIRED, "the character to delay until"),
    {"when", RULES_PARAM_STRING, 5, 6, 0, RULES_PARAM_REQUIRED, "before or after them"},
    {0},
};
static const rules_param P_ATTACK[] = {
    P_TARGET(RULES_PARAM_REQUIRED, "who is attacked"),
    ATTACK_PARAMS,
    {0},
};
static const rules_param P_READY[] = {
    {"trigger", RULES_PARAM_STRING, 1, 120, 0, RULES_PARAM_REQUIRED, "what must happen (001:248)"},
    {"action", RULES_PARAM_STRING, 1, 60, 0, 0, "attack (default) or another action"},
    P_TARGET(0, "attacked (default: whoever triggers it)"),
    ATTACK_PARAMS,
    {0},
};
static const rules_param P_TRIGGER[] = {
    P_TARGET(RULES_PARAM_REQUIRED, "the character who triggered it"),
    {0},
};
static const rules_param P_DEFEND[] = {
    {"kind", RULES_PARAM_STRING, 5, 5, 0, RULES_PARAM_REQUIRED, "dodge, block or parry (001:420)"},
    P_ABILITY,
    P_ITEM,
    P_PENALTY,
    {"dodge_action", RULES_PARAM_BOOL, 0, 1, 0, 0, "the Dodge standard action: P+2 (001:364)"},
    {0},
};
static const rules_param P_ACT[] = {
    {"type", RULES_PARAM_STRING, 4, 8, 0, RULES_PARAM_REQUIRED,
     "standard, free, ongoing or upcoming (001:322-327)"},
    {"what", RULES_PARAM_STRING, 1, 60, 0, RULES_PARAM_REQUIRED, "the action (move, draw, ...)"},
    {0},
};
static const rules_param P_BREATHER[] = {
    {"upcoming", RULES_PARAM_BOOL, 0, 1, 0, 0, "as an upcoming action (001:383)"},
    {0},
};
static const rules_param P_EFFECT[] = {
    P_TARGET(RULES_PARAM_REQUIRED, "who receives it"),
    {"effect", RULES_PARAM_STRING, 3, 8, 0, RULES_PARAM_REQUIRED,
     "hit, drain, fall, drop, stumble, daze, weaken, bind (001:121-136)"},
    {"value", RULES_PARAM_INT, 1, 60, 0, 0, "seconds, or points for hit/drain (001:121)"},
    {"part", RULES_PARAM_STRING, 1, 15, 0, 0, "body part a hit injures (001:413)"},
    {0},
};

static const rules_enc_action ACTIONS[] = {
    {"begin", "Roll initiative", RULES_ENC_GM, P_NONE, act_begin, "001:240-242"},
    {"attack", "Attack", RULES_ENC_TURN, P_ATTACK, act_attack, "001:337,393-446"},
    {"delay", "Delay", RULES_ENC_TURN, P_DELAY, act_delay, "001:244-246"},
    {"ready", "Ready an action", RULES_ENC_TURN, P_READY, act_ready, "001:248-252"},
    {"trigger", "Readied action fires", RULES_ENC_OWNER, P_TRIGGER, act_trigger, "001:248-250"},
    {"defend", "Pre-roll defence", RULES_ENC_OWNER, P_DEFEND, act_defend, "001:418-446"},
    {"act", "Other action", RULES_ENC_TURN, P_ACT, act_act, "001:316-391"},
    {"breather", "Take a breather", RULES_ENC_TURN, P_BREATHER, act_breather, "001:383-384"},
    {"cancel", "Cancel upcoming action", RULES_ENC_TURN, P_NONE, act_cancel, "001:327"},
    {"stand", "Stand up", RULES_ENC_TURN, P_NONE, act_stand, "001:125"},
    {"drop_prone", "Drop prone", RULES_ENC_TURN, P_NONE, act_drop_prone, "001:358"},
    {"end_turn", "End turn", RULES_ENC_TURN, P_END, act_end_turn, "001:238,395"},
    {"effect", "Apply an effect", RULES_ENC_GM, P_EFFECT, act_effect, "001:119-141,268-280"},
    {0},
};

/* Damage, willpower, fatigue and injuries land on the sheets (server/ops_enc.c write_back). */
static const char *const SHEET_STATS[] = {"hp",      "hp_max",   "willpower", "willpower_max",
                                          "fatigue", "injuries", NULL};

const rules_module rules_module_heimr_combat = {
    .id = "heimr.combat",
    .system = "heimr",
    .name = "Combat",
    .cite = "001:234-446",
    .start = heimr_start,
    .join = heimr_join,
    .actions = ACTIONS,
    .sheet_stats = SHEET_STATS,
};

const rules_module *const rules_modules_heimr[] = {&rules_module_heimr_combat, NULL};
