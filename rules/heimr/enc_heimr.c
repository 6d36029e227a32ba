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
#include <strings.h>

#include "encounter.h"
#include "heimr.h"

#define TURN_SECONDS 2 /* 001:238 "Every turn lasts two seconds" */
#define ROUNDS_PER_MINUTE (60 / TURN_SECONDS)
#define BLIND_SPOT 5  /* 001:562 "a penalty of 5 on their defence consistency" */
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
        json_array_foreach(inj, i, v) have |= rules_enc_streq(json_string_value(v), part);
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
    /* 001:407 "If you have an opponent grabbed using bind, you can not make any defensive
     * rolls." */
    if (json_object_get(rules_enc_combatant(e, cid), "holding"))
        return 0;
    return !rules_enc_is_out(e, cid);
}

static int defence_uses(rules_enc *e, const char *cid, const char *kind)
{
    return (int)json_integer_value(
        json_object_get(json_object_get(rules_enc_combatant(e, cid), "defended"), kind));
}

/* A number of the ground cid stands on (`ground` {height, concealment, difficult}: the GM's,
 * act_ground), 0 when not set. */
static int ground_of(rules_enc *e, const char *cid, const char *key)
{
    json_t *g = json_object_get(rules_enc_combatant(e, cid), "ground");
    json_t *v = json_object_get(g, key);
    return json_is_true(v) ? 1 : (int)json_integer_value(v);
}

/* 001:326 an ongoing action: "a consistency penalty of two on all defensive rolls until the
 * start of your next turn"; 001:434 prone: "a consistency penalty of two for all attacks and
 * defences"; 001:475 difficult terrain: "a consistency penalty of one to melee attacks, parry and
 * dodge". What cid's defence of `kind` loses now. */
static int standing_penalty(rules_enc *e, const char *cid, const char *kind)
{
    int difficult = ground_of(e, cid, "difficult") && kind && strcmp(kind, "block") != 0;
    return 2 * rules_enc_cond_has(e, cid, "ongoing") + 2 * rules_enc_cond_has(e, cid, "prone") +
           difficult;
}

/* Reads the pre-rolled defence d again at `delta` less consistency (heimr_roll_recast: the same
 * dice, d10s it lacks rolled now) and adds delta to its `situational`. Returns 0 or a code. */
static int defence_recast(rules_enc *e, json_t *d, int delta, tb_err *err)
{
    heimr_roll r = {0};
    r.c = (int)json_integer_value(json_object_get(d, "consistency"));
    r.p = (int)json_integer_value(json_object_get(d, "potential"));
    r.d6 = (int)json_integer_value(json_object_get(d, "d6"));
    json_t *d10s = json_object_get(d, "d10s");
    r.n10 = (int)json_array_size(d10s);
    if (r.n10 > HEIMR_MAX_C)
        r.n10 = HEIMR_MAX_C;
    for (int i = 0; i < r.n10; i++)
        r.d10[i] = (int)json_integer_value(json_array_get(d10s, (size_t)i));
    int rc = heimr_roll_recast(&r, r.c - delta, e->rng, err);
    if (rc)
        return rc;
    json_t *fresh = roll_json(&r);
    json_object_update(d, fresh);
    json_decref(fresh);
    json_object_set_new(
        d, "situational",
        json_integer((int)json_integer_value(json_object_get(d, "situational")) + delta));
    return 0;
}

/*
 * A pre-rolled defence d (in priv) is used against an attack: the ongoing and prone penalties
 * count as they are now, not as they were when it was rolled (RULES.md, heimr encounters,
 * reading on pre-rolled defences). The same dice are read at the new consistency
 * (heimr_roll_recast); d10s missing are rolled now. d is updated in place. Returns 0 or a code.
 */
static int defence_at_use(rules_enc *e, const char *cid, json_t *d, tb_err *err)
{
    if (!json_object_get(d, "standing"))
        return 0; /* rolled by an older version: what it included is unknown, it stays */
    int then = (int)json_integer_value(json_object_get(d, "standing"));
    int now = standing_penalty(e, cid, json_string_value(json_object_get(d, "kind")));
    if (now == then)
        return 0;
    int rc = defence_recast(e, d, now - then, err);
    if (rc)
        return rc;
    json_object_set_new(d, "standing", json_integer(now));
    return 0;
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
                              "%s cannot make defensive rolls now (dazed, helpless or holding "
                              "someone: 001:280, 001:407, 001:435)",
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
    int standing = standing_penalty(e, cid, kind);
    int pen = 2 * uses + situational + standing;
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
    json_object_set_new(d, "standing", json_integer(standing));
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

/* ---- restraint: the brawl attack's grab (001:130-135, 401, 407) ----
 *
 * A grab is in plain sight: the bound combatant's public `held_by` {by, part} (part: the body
 * part of the brawl roll's d6, 001:407) and the holder's public `holding` (the bound one's id).
 */

/* Who holds cid: the `held_by` holder, as long as it is still in the encounter and holds cid
 * (a holder the GM removed holds nobody); NULL otherwise. */
static const char *holder_of(rules_enc *e, const char *cid)
{
    json_t *h = json_object_get(rules_enc_combatant(e, cid), "held_by");
    const char *by = json_string_value(json_object_get(h, "by"));
    json_t *hc = by ? rules_enc_combatant(e, by) : NULL;
    return hc && rules_enc_streq(json_string_value(json_object_get(hc, "holding")), cid) ? by
                                                                                         : NULL;
}

/* The body part cid is held by (the brawl d6's part), or NULL when nobody holds it. */
static const char *held_part(rules_enc *e, const char *cid)
{
    if (!holder_of(e, cid))
        return NULL;
    json_t *h = json_object_get(rules_enc_combatant(e, cid), "held_by");
    return json_string_value(json_object_get(h, "part"));
}

/* A body part as the table says it ("sword arm"). */
static const char *part_words(const char *part)
{
    static const char *const WORDS[] = {"torso", "sword arm", "other arm", "right leg", "left leg"};
    for (int i = 0; PARTS[i]; i++)
        if (strcmp(part, PARTS[i]) == 0)
            return WORDS[i];
    return "body";
}

/* 001:134-135 bound legs or body: "You can not walk or run", "You can not move from your current
 * position"; the torso's d6 binds the body (RULES.md, heimr encounter reading 14). */
static int held_in_place(rules_enc *e, const char *cid)
{
    const char *p = held_part(e, cid);
    return p && (strcmp(p, "torso") == 0 || strstr(p, "leg") != NULL);
}

/* Ends the grab of `holder` (if any) and says why to everyone. */
static void bind_end(rules_enc *e, const char *holder, const char *why)
{
    json_t *h = rules_enc_combatant(e, holder);
    json_t *bound = json_incref(json_object_get(h, "holding"));
    if (!bound)
        return;
    const char *bid = json_string_value(bound);
    json_t *b = bid ? rules_enc_combatant(e, bid) : NULL;
    rules_enc_log(e, "release", NULL, NULL, "%s no longer holds %s: %s", rules_enc_name(e, holder),
                  b ? rules_enc_name(e, bid) : "anyone", why);
    if (b && rules_enc_streq(holder_of(e, bid), holder))
        json_object_del(b, "held_by");
    json_object_del(h, "holding");
    json_decref(bound);
}

/* Grabs whose holder or held one is out of the fight, gone or dazed end (a holder must act to
 * hold on: 001:128 dazed "can not attack, defend or use a skill"); a `held_by` whose holder no
 * longer holds it goes. */
static void restraint_tidy(rules_enc *e)
{
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        json_t *c = rules_enc_combatant(e, cid);
        const char *b = json_string_value(json_object_get(c, "holding"));
        if (b && (!rules_enc_combatant(e, b) || rules_enc_is_out(e, cid) ||
                  rules_enc_is_out(e, b) || rules_enc_cond_has(e, cid, "daze")))
            bind_end(e, cid, "the grip is lost");
        if (json_object_get(c, "held_by") && !holder_of(e, cid))
            json_object_del(c, "held_by");
    }
}

/*
 * 001:407 "If you have an opponent grabbed, you can stop any of their actions that require a
 * physical dice challenge, by rolling the brawl ability. The result of your brawl roll counts as
 * a challenge requirement for the action." The holder of `bound` always tries (the server cannot
 * ask mid-action; RULES.md, heimr encounter reading 15): it rolls Brawl, a physical roll with its
 * fatigue requirement (a roll that fails it sets no requirement) and rise. *cr is the
 * requirement, 0 when nothing is in the way. An NPC holder's roll is the GM's.
 */
static int hold_stop(rules_enc *e, const char *bound, int *cr, tb_err *err)
{
    *cr = 0;
    const char *h = holder_of(e, bound);
    if (!h || !rules_enc_combatant(e, h) || rules_enc_is_out(e, h) ||
        rules_enc_cond_has(e, h, "daze"))
        return 0;
    spec s;
    int rc = spec_resolve(e, h, "Brawl", NULL, 0, 0, 0, &s, err);
    heimr_roll r;
    if (rc || (rc = heimr_challenge_roll(s.c, s.p, e->rng, &r, err)))
        return rc;
    int f = rules_enc_stat(e, h, "fatigue", 1);
    int ok = !s.phys || heimr_fatigue_passes(&r, f);
    if (s.phys)
        fatigue_rise(e, h, r.d6);
    *cr = ok ? r.result : 0;
    char head[160], own[120];
    snprintf(head, sizeof head, "%s holds on to %s", rules_enc_name(e, h),
             rules_enc_name(e, bound));
    if (ok)
        snprintf(own, sizeof own, ": Brawl %d to beat", r.result);
    else
        snprintf(own, sizeof own, ": Brawl %d, %d before potential is below fatigue %d — no grip",
                 r.result, r.before_potential, f);
    json_t *dice = json_array();
    roll_dice(dice, &r, "hold");
    rules_enc_entry *x = log_begin(e, "hold", head);
    log_own(e, x, h, dice, roll_json(&r), own);
    rules_enc_entry_end(x);
    return 0;
}

/* ---- guarding (001:345-346, 448-456) ---- */

/* 001:456 a guard must see and reach the attacker: not out, dazed, helpless or held (RULES.md,
 * heimr encounter reading 13). */
static int guard_can_respond(rules_enc *e, const char *g)
{
    return !rules_enc_is_out(e, g) && !rules_enc_cond_has(e, g, "daze") &&
           !rules_enc_cond_has(e, g, "helpless") && !holder_of(e, g);
}

/* 001:452 "If multiple characters are guarding the same target, the order in which characters
 * defend is the initiative order, starting at the character attempting to reach the target. Only
 * the first guard can respond": the guard of target that meets attacker's attack, or NULL. */
static const char *guard_for(rules_enc *e, const char *attacker, const char *target)
{
    json_t *order = json_object_get(e->enc, "order");
    size_t n = json_array_size(order);
    int start = rules_enc_order_index(e, attacker);
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

/* 001:134-135 a character held by the legs or body cannot move: their movement actions are
 * refused. */
static int check_may_move(rules_enc *e, const char *cid, tb_err *err)
{
    if (held_in_place(e, cid))
        return rules_enc_rule(err, "%s is held by the %s and cannot move from the spot (001:135)",
                              rules_enc_name(e, cid), part_words(held_part(e, cid)));
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
    /* a helper's standard action went into carrying someone (act_carry; RULES.md, heimr encounter
     * reading 18) */
    json_t *lent = json_incref(json_object_get(c, "lending"));
    if (lent) {
        json_object_del(c, "lending");
        rules_enc_budget_set(e, cid, "standard", 0);
        rules_enc_log(e, "carry", NULL, NULL,
                      "%s's standard action this turn went into moving %s (001:460-465)",
                      rules_enc_name(e, cid), rules_enc_name(e, json_string_value(lent)));
        json_decref(lent);
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
    restraint_tidy(e);
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
    int has_cp, c, p, penalty, damage, ranged, brawl, bind, blind_spot;
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
    k->bind = rules_arg_int(a, "bind");
    k->blind_spot = rules_arg_int(a, "blind_spot");
}

static json_t *attack_json(const attack *k)
{
    json_t *o =
        json_pack("{s:i, s:i, s:i, s:b, s:b, s:b}", "penalty", k->penalty, "damage", k->damage,
                  "ranged", k->ranged, "brawl", k->brawl, "has_cp", k->has_cp, "bind", k->bind);
    if (k->blind_spot)
        json_object_set_new(o, "blind_spot", json_true());
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
    k->bind = json_is_true(json_object_get(o, "bind"));
    k->blind_spot = json_is_true(json_object_get(o, "blind_spot"));
}

/* Checks an attack can be made before anything is rolled (also when it is readied). */
static int attack_check(rules_enc *e, const char *cid, const attack *k, tb_err *err)
{
    if (k->aim[0] && !is_part(k->aim))
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act: 'aim' must be one of torso, sword_arm, "
                       "other_arm, right_leg, left_leg (001:413)");
    if (k->bind && !k->brawl)
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act: 'bind' is the brawl attack's grab: give 'brawl' "
                       "too (001:401)");
    if (k->target[0] && strcmp(k->target, cid) == 0)
        return rules_enc_rule(err, "%s cannot attack themselves", rules_enc_name(e, cid));
    json_t *me = rules_enc_combatant(e, cid);
    /* 001:401 "You need one free hand to do the bind effect": one grab at a time (reading) */
    if (k->bind && json_object_get(me, "holding"))
        return rules_enc_rule(err, "%s already holds %s: one grab at a time (001:401)",
                              rules_enc_name(e, cid),
                              rules_enc_name(e, json_string_value(json_object_get(me, "holding"))));
    if (k->bind && k->target[0] && holder_of(e, k->target))
        return rules_enc_rule(err, "%s is already held by %s", rules_enc_name(e, k->target),
                              rules_enc_name(e, holder_of(e, k->target)));
    /* 001:131 a bound arm: "Keep your arm attached to whatever it is touching" — a sword arm
     * held wields no weapon; kicks and head-butts remain (RULES.md, heimr encounter reading 14) */
    if (rules_enc_streq(held_part(e, cid), "sword_arm") && !k->brawl)
        return rules_enc_rule(err, "%s's sword arm is held: only a brawl attack is left (001:131)",
                              rules_enc_name(e, cid));
    /* 001:517 "You can attack characters with melee who are one position higher or one position
     * lower": two or more apart, a melee attack is refused (the one a guard would take too) */
    if (k->target[0] && !k->ranged && rules_enc_combatant(e, k->target)) {
        const char *g = guard_for(e, cid, k->target);
        const char *at = g ? g : k->target;
        int dh = ground_of(e, at, "height") - ground_of(e, cid, "height");
        if (dh >= 2 || dh <= -2)
            return rules_enc_rule(err,
                                  "%s stands %d higher than %s: too far for a melee attack, climb "
                                  "first (001:517)",
                                  rules_enc_name(e, dh > 0 ? at : cid), dh > 0 ? dh : -dh,
                                  rules_enc_name(e, dh > 0 ? cid : at));
    }
    spec s;
    return spec_resolve(e, cid, k->ability[0] ? k->ability : NULL, k->item[0] ? k->item : NULL,
                        k->has_cp, k->c, k->p, &s, err);
}

/*
 * The defence tgt meets an attack with (001:418-446), in *def (borrowed from priv(tgt), NULL:
 * no defence) and the slot it sits in: a kept parry first against a melee attack; none held, or
 * a parry against a ranged attack: a dodge is rolled now, before the attack roll (001:420 "You
 * must roll defence before knowing the result of the attack roll"; 001:422 "You can only parry
 * against melee attacks"). Returns 0 or a code.
 */
static int defence_pick(rules_enc *e, const char *tgt, int ranged, json_t **def, const char **slot,
                        tb_err *err)
{
    *def = NULL;
    *slot = NULL;
    if (!can_defend(e, tgt))
        return 0;
    json_t *tp = priv(e, tgt);
    json_t *held = json_object_get(tp, "defence");
    const char *hk = json_string_value(json_object_get(held, "kind"));
    int rc;
    if (!ranged && json_object_get(tp, "kept_parry")) {
        *slot = "kept_parry"; /* 001:446 "must be used ... against the first melee attack" */
    } else if (held && !(ranged && hk && strcmp(hk, "parry") == 0)) {
        *slot = "defence";
    } else {
        if ((rc = defence_roll(e, tgt, "dodge", NULL, NULL, 0, 0, err)))
            return rc;
        *slot = "defence";
    }
    *def = json_object_get(tp, *slot);
    return defence_at_use(e, tgt, *def, err);
}

/* The attacker's roll, shared by every target it meets (a guard, then the one guarded). */
typedef struct swing {
    heimr_roll r;
    spec s;
    int fat, passes, rose;
} swing;

/*
 * The rolled attack w of cid meets tgt holding def (in `slot`, or NULL: no defence): the
 * defence is used (001:426 counted, 001:446 its fatigue now), the hit (attack above the defence:
 * ties to the defender, 001:420), the body part from the attack's d6 (001:411-414), the damage
 * or the grab (001:401), and the log entry. The kind of defence used goes to used[8] ("" for
 * none). Returns 1 on a hit.
 */
static int attack_meet(rules_enc *e, const char *cid, const attack *k, const char *tgt,
                       const swing *w, json_t *def, const char *slot, const char *how, char *used)
{
    const char *an = rules_enc_name(e, cid), *tn = rules_enc_name(e, tgt);
    json_t *tc = rules_enc_combatant(e, tgt), *tp = priv(e, tgt);
    const heimr_roll *r = &w->r;
    json_t *res = json_pack("{s:s, s:s, s:o, s:b, s:i}", "attacker", cid, "target", tgt, "attack",
                            roll_json(r), "fatigue_ok", w->passes, "fatigue_checked", w->fat);
    json_t *gm_res = json_object(); /* the hidden half (defence values of an NPC) */
    char pub[480], sec[300] = "";
    int hit = 0, dmg = 0, graze = 0;
    const char *part = NULL;
    const char *dkind = def ? json_string_value(json_object_get(def, "kind")) : NULL;
    int dval = def ? (int)json_integer_value(json_object_get(def, "result")) : 0;
    int def_fails = 0;
    used[0] = 0;
    if (!w->passes && rules_enc_is_npc(e, cid)) {
        snprintf(pub, sizeof pub,
                 "%s%s attacks %s: the attack fails (fatigue) and %s need not "
                 "defend (001:284)",
                 how, an, tn, tn);
    } else if (!w->passes) {
        snprintf(pub, sizeof pub,
                 "%s%s attacks %s: %d before potential is below fatigue %d — the "
                 "attack fails and %s need not defend (001:284)",
                 how, an, tn, r->before_potential, w->fat, tn);
    } else {
        if (def) {
            /* the defence is used: 001:426 counts it, 001:446 fatigue changes only now */
            snprintf(used, 8, "%s", dkind ? dkind : "");
            json_t *uses = json_object_get(tc, "defended");
            if (!json_is_object(uses)) {
                uses = json_object();
                json_object_set_new(tc, "defended", uses);
            }
            json_object_set_new(uses, dkind,
                                json_integer(json_integer_value(json_object_get(uses, dkind)) + 1));
            int tfat = rules_enc_stat(e, tgt, "fatigue", 1);
            if (is_true(def, "physical")) {
                def_fails =
                    (int)json_integer_value(json_object_get(def, "before_potential")) < tfat;
                fatigue_rise(e, tgt, (int)json_integer_value(json_object_get(def, "d6")));
            }
            json_object_set(gm_res, "defence", def);
            json_object_set_new(gm_res, "defence_fails_fatigue", json_boolean(def_fails));
        }
        hit = !def || def_fails || rules_opposed(r->result, dval, RULES_TIE_DEFENDER);
        /* 001:401 a brawl attack equal to the defence or one less "can be considered a 'hit', but
         * it wasn't strong enough to effect hit points" — nor to hold (RULES.md, heimr
         * encounter reading 14) */
        graze = k->brawl && !hit && (r->result == dval || r->result == dval - 1);
        part = k->aim[0] ? k->aim : PART_BY_D6[r->d6 - 1];
        dmg = k->bind ? 0 : k->brawl ? 1 : k->damage;
        const char *against = !def ? "no defence" : dkind;
        snprintf(pub, sizeof pub, "%s%s attacks %s (%s): %s", how, an, tn, against,
                 hit     ? "hit"
                 : graze ? "a hit without damage (001:401)"
                         : "miss");
        if (hit) {
            size_t len = strlen(pub);
            snprintf(pub + len, sizeof pub - len, ", %s (d6 %d%s)", part, r->d6,
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
    if (hit && k->bind) {
        /* 001:401 "the target receives either a hit 1 or bind effect"; 001:407 "The body part you
         * bind is the one you roll for with the brawl challenge" */
        json_object_set_new(tc, "held_by", json_pack("{s:s, s:s}", "by", cid, "part", part));
        json_object_set_new(rules_enc_combatant(e, cid), "holding", json_string(tgt));
        snprintf(dtext, sizeof dtext, "; %s grabs %s by the %s (001:401)", an, tn,
                 part_words(part));
    } else if (hit) {
        take_damage(e, tgt, dmg, part, dtext, sizeof dtext);
    }

    /* the entry (rules/RULES.md, "What the table sees (heimr)"): an NPC attacker's dice and
     * numbers, an NPC defender's defence as it was used and its HP are the GM's */
    rules_aud mine = rules_enc_aud_of(e, cid), theirs = rules_enc_aud_of(e, tgt);
    rules_enc_entry *x = rules_enc_entry_begin(e, "attack");
    json_t *dice = json_array();
    roll_dice(dice, r, "attack");
    rules_enc_entry_dice(x, mine, dice);
    json_decref(dice);
    rules_enc_entry_merge(x, RULES_AUD_PUBLIC,
                          json_pack("{s:s, s:s, s:b}", "attacker", cid, "target", tgt, "hit", hit));
    rules_enc_entry_merge(x, mine, res);
    if (hit) {
        rules_enc_entry_set(x, RULES_AUD_PUBLIC, "part", json_string(part));
        if (k->bind)
            rules_enc_entry_set(x, RULES_AUD_PUBLIC, "bind", json_true());
        else
            rules_enc_entry_set(
                x, mine == RULES_AUD_GM && theirs == RULES_AUD_GM ? RULES_AUD_GM : RULES_AUD_PUBLIC,
                "damage", json_integer(dmg));
    }
    if (w->rose)
        rules_enc_entry_set(x, mine, "fatigue_rose", json_true());
    json_t *dv = json_object_get(gm_res, "defence");
    if (dv)
        rules_enc_entry_set(x, theirs, "defence", json_incref(dv));
    json_t *dff = json_object_get(gm_res, "defence_fails_fatigue");
    if (dff)
        rules_enc_entry_set(x, RULES_AUD_GM, "defence_fails_fatigue", json_incref(dff));
    if (hit && theirs == RULES_AUD_GM && !k->bind)
        rules_enc_entry_set(x, RULES_AUD_GM, "hp", json_integer(rules_enc_stat(e, tgt, "hp", 0)));
    rules_enc_entry_say(x, RULES_AUD_PUBLIC, "%s%s", pub, dtext);
    if (mine == RULES_AUD_GM)
        rules_enc_entry_say(x, RULES_AUD_GM,
                            " — %s %d (C%d P%d, before potential %d vs fatigue %d)",
                            w->s.ability[0] ? w->s.ability : "attack", r->result, r->c, r->p,
                            r->before_potential, w->fat);
    if (def && w->passes)
        rules_enc_entry_say(x, theirs, "; %s", sec);
    if (hit && theirs == RULES_AUD_GM && !k->bind)
        rules_enc_entry_say(x, RULES_AUD_GM, "; %s HP %d", tn, rules_enc_stat(e, tgt, "hp", 0));
    rules_enc_entry_end(x);
    json_decref(gm_res);
    /* 001:407 "the bind effect also ends if you receive an effect, or if the character you have
     * grabbed successfully attacks you": a hit on a holder loosens its grip */
    if (hit && json_object_get(tc, "holding"))
        bind_end(e, tgt, "the hit loosens their grip (001:407)");
    return hit;
}

/*
 * One attack of cid on k->target (001:393-446). A guard of the target takes it instead (001:450,
 * guard_for); a held attacker's roll must reach its holder's Brawl first (001:407, hold_stop);
 * the defence is chosen (or rolled) before the attack roll; a ranged attack the guard dodges
 * moves on to the one guarded with the same roll, a block stops it (001:450).
 */
static int attack_run(rules_enc *e, const char *cid, const attack *k, const char *how, tb_err *err)
{
    const char *tgt = k->target;
    int rc = attack_check(e, cid, k, err);
    if (rc)
        return rc;
    swing w;
    memset(&w, 0, sizeof w);
    spec_resolve(e, cid, k->ability[0] ? k->ability : NULL, k->item[0] ? k->item : NULL, k->has_cp,
                 k->c, k->p, &w.s, err);
    const char *guard = guard_for(e, cid, tgt);
    const char *at = guard ? guard : tgt;
    /* 001:407 the holder's Brawl is the requirement, set before the attack is rolled */
    int cr = 0, held = holder_of(e, cid) != NULL && w.s.phys;
    if (held && (rc = hold_stop(e, cid, &cr, err)))
        return rc;
    interrupt_upcoming(e, at); /* 001:327 */
    json_t *def;
    const char *slot;
    if ((rc = defence_pick(e, at, k->ranged, &def, &slot, err)))
        return rc;

    /* the attack roll: 001:416 aiming, 001:434 prone attacker / ranged at a prone target,
     * the GM's situational penalty (range, clusters, darkness: 001:262, 266, 540) */
    int pen = k->penalty;
    if (k->aim[0])
        pen += 2;
    if (rules_enc_cond_has(e, cid, "prone"))
        pen += 2;
    if (k->ranged && rules_enc_cond_has(e, at, "prone"))
        pen += 2;
    if (!k->ranged) {
        /* 001:475 difficult terrain: melee attacks C-1; 001:517 a target one higher: C-1, one
         * lower: C+1 */
        pen += ground_of(e, cid, "difficult");
        pen += ground_of(e, at, "height") - ground_of(e, cid, "height");
    } else {
        /* 001:438, 540-552 concealment: its effectiveness off a ranged attack; never against a
         * melee attacker, who shares the target's cluster (heimr encounter reading 19) */
        pen += ground_of(e, at, "concealment");
    }
    if ((rc = heimr_challenge_roll(w.s.c - pen, w.s.p, e->rng, &w.r, err)))
        return rc;
    w.fat = rules_enc_stat(e, cid, "fatigue", 1);
    /* 001:284 a physical roll must reach fatigue before potential; "If this is an attack, the
     * opponent does not have to defend." */
    w.passes = !w.s.phys || heimr_fatigue_passes(&w.r, w.fat);
    w.rose = w.s.phys && fatigue_rise(e, cid, w.r.d6);

    if (held && cr > 0 && (!w.passes || w.r.result < cr)) {
        /* 001:407 the action does not pass the requirement: it is stopped, the grip holds */
        rules_enc_entry *x = rules_enc_entry_begin(e, "attack");
        json_t *dice = json_array();
        roll_dice(dice, &w.r, "attack");
        json_t *res = json_pack("{s:s, s:s, s:o, s:b, s:b}", "attacker", cid, "target", tgt,
                                "attack", roll_json(&w.r), "fatigue_ok", w.passes, "stopped", 1);
        log_own(e, x, cid, dice, res, "");
        rules_enc_entry_merge(x, RULES_AUD_PUBLIC, json_pack("{s:b, s:b}", "hit", 0, "stopped", 1));
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, "%s%s tries to attack %s, but %s's grip stops it",
                            how, rules_enc_name(e, cid), rules_enc_name(e, tgt),
                            rules_enc_name(e, holder_of(e, cid)));
        rules_enc_entry_say(x, rules_enc_aud_of(e, cid), " (%s %d)",
                            w.s.ability[0] ? w.s.ability : "attack", w.r.result);
        rules_enc_entry_say(x, RULES_AUD_PUBLIC, " (001:407)");
        rules_enc_entry_end(x);
        return 0;
    }
    if (held)
        bind_end(e, holder_of(e, cid), "the attack breaks the grip (001:407)");
    /* 001:562 blind spots module: "a penalty of 5 on their defence consistency from ranged
     * attacks coming from a blind spot" (and melee from one who entered from it), on the
     * defence used, read again now (heimr encounter reading 20) */
    if (k->blind_spot && w.passes && def && (rc = defence_recast(e, def, BLIND_SPOT, err)))
        return rc;
    if (guard) {
        /* 001:450 "the attack will be directed to you instead"; 001:452 "The guard ends once
         * you've intercepted one opponent" */
        json_object_del(rules_enc_combatant(e, guard), "guarding");
        rules_enc_log(e, "guard", NULL, NULL,
                      "%s steps in front of %s: %s's attack is directed at %s (001:450-452)",
                      rules_enc_name(e, guard), rules_enc_name(e, tgt), rules_enc_name(e, cid),
                      rules_enc_name(e, guard));
    }
    char used[8];
    int hit = attack_meet(e, cid, k, at, &w, def, slot, how, used);
    if (guard && k->ranged && w.passes && !hit && strcmp(used, "dodge") == 0 &&
        !rules_enc_is_out(e, tgt)) {
        /* 001:450 "If this is a ranged attack, the attack moves on to it's original target if you
         * successfully dodge the attack. Blocking a ranged attack stops it." The same roll
         * (RULES.md, heimr encounter reading 12). */
        rules_enc_log(e, "guard", NULL, NULL, "%s dodges: the shot flies on to %s (001:450)",
                      rules_enc_name(e, guard), rules_enc_name(e, tgt));
        interrupt_upcoming(e, tgt);
        if ((rc = defence_pick(e, tgt, 1, &def, &slot, err)))
            return rc;
        if (k->blind_spot && def && (rc = defence_recast(e, def, BLIND_SPOT, err)))
            return rc;
        w.rose = 0;
        attack_meet(e, cid, k, tgt, &w, def, slot, how, used);
    }
    restraint_tidy(e);
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
    /* 001:350-357 the movement actions, refused to one held in place (001:134-135) */
    static const char *const MOVES[] = {"move", "run", "charge", "crawl", "climb", NULL};
    char wkey[64];
    lower_key(what, wkey, sizeof wkey);
    for (int i = 0; MOVES[i]; i++)
        if (strncmp(wkey, MOVES[i], strlen(MOVES[i])) == 0 && (rc = check_may_move(e, cid, err)))
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
        json_array_foreach(
            used, i,
            v) if (rules_enc_streq(json_string_value(v),
                                   key)) return rules_enc_rule(err,
                                                               "%s has already used the free "
                                                               "action '%s' this turn (001:325)",
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
    json_array_foreach(
        used, i,
        v) if (rules_enc_streq(json_string_value(v),
                               name)) return rules_enc_rule(err,
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
        /* 001:407 "the bind effect also ends if you receive an effect" */
        bind_end(e, tgt, "the effect loosens their grip (001:407)");
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
    bind_end(e, tgt, "the effect loosens their grip (001:407)");
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

/* Guard (001:345 "Guard Free: Block an opponent from moving to a different square or attacking
 * an ally"): the actor guards an ally, replacing an earlier guard. The guard is public (001:450:
 * the opponent sees who stands in the way). */
static int act_guard(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *tgt = rules_arg_str(a, "target");
    json_t *c = rules_enc_combatant(e, cid);
    const char *was = json_string_value(json_object_get(c, "guarding"));
    int rc = check_can_act(e, cid, err);
    if (rc)
        return rc;
    if (!rules_enc_combatant(e, tgt))
        return tb_fail(err, TB_NOT_FOUND, "no combatant '%.32s' in this encounter", tgt);
    if (strcmp(tgt, cid) == 0)
        return rules_enc_rule(err, "%s cannot guard themselves", rules_enc_name(e, cid));
    /* 001:450 "When you are guarding an ally": one of the same side (RULES.md, heimr encounter
     * reading 11) */
    if (!rules_enc_streq(rules_enc_side(e, tgt), rules_enc_side(e, cid)))
        return rules_enc_rule(err, "%s guards allies only, and %s is on the other side (001:450)",
                              rules_enc_name(e, cid), rules_enc_name(e, tgt));
    if (rules_enc_streq(was, tgt))
        return rules_enc_rule(err, "%s already guards %s", rules_enc_name(e, cid),
                              rules_enc_name(e, tgt));
    if (holder_of(e, cid))
        return rules_enc_rule(err, "%s is held and cannot step in front of anyone (001:407)",
                              rules_enc_name(e, cid));
    if ((rc = free_once(e, cid, "guard", err)))
        return rc;
    json_object_set_new(c, "guarding", json_string(tgt));
    rules_enc_log(e, "guard", NULL, NULL,
                  "%s guards %s: the next attack on %s meets %s first (001:450-452)",
                  rules_enc_name(e, cid), rules_enc_name(e, tgt), rules_enc_name(e, tgt),
                  rules_enc_name(e, cid));
    return 0;
}

/* The guard stands down, any time (the guard is theirs to keep or drop; 001:452 ends it only by
 * intercepting). */
static int act_stand_down(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    json_t *c = rules_enc_combatant(e, e->actor);
    const char *was = json_string_value(json_object_get(c, "guarding"));
    if (!was)
        return rules_enc_rule(err, "%s is guarding nobody", rules_enc_name(e, e->actor));
    rules_enc_log(e, "guard", NULL, NULL, "%s stops guarding %s", rules_enc_name(e, e->actor),
                  rules_enc_name(e, was));
    json_object_del(c, "guarding");
    return 0;
}

/*
 * The GM places a combatant on the battlefield's ground (001:467-552): `height` (001:517, in
 * positions of a metre to a metre and a half), `concealment` (001:438, 540-552: its
 * effectiveness, 0 for none) and `difficult` terrain (001:475). Only the numbers given change.
 * Public: the table sees where everyone stands.
 */
static int act_ground(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *tgt = rules_arg_str(a, "target");
    json_t *c = rules_enc_combatant(e, tgt);
    json_t *g = json_object_get(c, "ground");
    if (!json_is_object(g)) {
        g = json_object();
        json_object_set_new(c, "ground", g);
    }
    static const char *const KEYS[] = {"height", "concealment", NULL};
    for (int i = 0; KEYS[i]; i++)
        if (rules_arg_given(a, KEYS[i]))
            json_object_set_new(g, KEYS[i], json_integer(rules_arg_int(a, KEYS[i])));
    if (rules_arg_given(a, "difficult"))
        json_object_set_new(g, "difficult", json_boolean(rules_arg_int(a, "difficult")));
    char text[200];
    int cover = ground_of(e, tgt, "concealment");
    snprintf(text, sizeof text, "%s stands at height %d%s", rules_enc_name(e, tgt),
             ground_of(e, tgt, "height"),
             ground_of(e, tgt, "difficult") ? ", on difficult ground" : "");
    if (cover)
        snprintf(text + strlen(text), sizeof text - strlen(text), ", behind cover %d", cover);
    rules_enc_log(e, "ground", NULL, NULL, "%s (001:475, 001:517, 001:540)", text);
    return 0;
}

/* 001:407 "You can choose to release the bind at any time": the holder (or the GM) lets go. */
static int act_release(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    const char *cid = e->actor;
    if (!json_object_get(rules_enc_combatant(e, cid), "holding"))
        return rules_enc_rule(err, "%s holds nobody", rules_enc_name(e, cid));
    bind_end(e, cid, "they let go (001:407)");
    return 0;
}

/*
 * Breaking free: the held character's own physical challenge (an ability, Brawl by default, or
 * the GM's C/P), its turn's standard action. The holder's Brawl is the requirement (001:407,
 * hold_stop, rolled first); passing it, and the fatigue requirement (001:284), ends the grab.
 */
static int act_break_free(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor;
    const char *h = holder_of(e, cid);
    int rc = check_can_act(e, cid, err);
    if (rc)
        return rc;
    if (!h)
        return rules_enc_rule(err, "nobody holds %s", rules_enc_name(e, cid));
    spec s;
    int has_cp = rules_arg_given(a, "c") || rules_arg_given(a, "p");
    const char *ab = rules_arg_str(a, "ability");
    if ((rc = spec_resolve(e, cid, ab ? ab : (has_cp ? NULL : "Brawl"), NULL, has_cp,
                           rules_arg_int(a, "c"), rules_arg_int(a, "p"), &s, err)))
        return rc;
    /* 001:407 only "actions that require a physical dice challenge" can be stopped: a grip is
     * broken with a physical one (RULES.md, heimr encounter reading 16) */
    if (!s.phys)
        return rules_enc_rule(err,
                              "%s is not a physical ability: a grip is broken by strength or "
                              "agility (001:407)",
                              s.ability);
    if ((rc = rules_enc_spend(e, cid, "standard", 1, err)))
        return rc;
    mark_acted(e, cid);
    int cr = 0;
    if ((rc = hold_stop(e, cid, &cr, err)))
        return rc;
    heimr_roll r;
    if ((rc = heimr_challenge_roll(s.c, s.p, e->rng, &r, err)))
        return rc;
    int f = rules_enc_stat(e, cid, "fatigue", 1);
    int ok = heimr_fatigue_passes(&r, f);
    int rose = fatigue_rise(e, cid, r.d6);
    int free = ok && r.result >= cr;
    char head[200], own[200];
    snprintf(head, sizeof head, "%s tries to break %s's grip: %s", rules_enc_name(e, cid),
             rules_enc_name(e, h), free ? "free" : "still held");
    if (!ok)
        snprintf(own, sizeof own, " (%s %d; %d before potential is below fatigue %d)", s.ability,
                 r.result, r.before_potential, f);
    else
        snprintf(own, sizeof own, " (%s %d)", s.ability, r.result);
    json_t *dice = json_array(), *res = roll_json(&r);
    roll_dice(dice, &r, NULL);
    json_object_set_new(res, "fatigue_ok", json_boolean(ok));
    if (rose)
        json_object_set_new(res, "fatigue_rose", json_true());
    rules_enc_entry *x = log_begin(e, "break_free", head);
    rules_enc_entry_set(x, RULES_AUD_PUBLIC, "free", json_boolean(free));
    log_own(e, x, cid, dice, res, own);
    rules_enc_entry_end(x);
    if (free)
        bind_end(e, h, "the grip is broken (001:407)");
    return 0;
}

/* The combatant whose id, or else whose name (any case), is w; NULL when there is none. */
static const char *combatant_named(rules_enc *e, const char *w)
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
static int leg_injured(rules_enc *e, const char *cid)
{
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(rules_enc_stats(e, cid), "injuries"), i, v)
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
 * bind. `why` gets the case in words.
 */
static int carry_need(rules_enc *e, const char *cid, const char *tgt, const char **why)
{
    if (rules_enc_is_out(e, tgt) || rules_enc_cond_has(e, tgt, "helpless") ||
        rules_enc_cond_has(e, tgt, "daze")) {
        *why = "can neither stand nor resist";
        return 2;
    }
    if (rules_enc_streq(rules_enc_side(e, tgt), rules_enc_side(e, cid))) {
        *why = leg_injured(e, tgt) ? "is willing, with an injured leg" : "is willing";
        return 1;
    }
    if (holder_of(e, tgt) || rules_enc_cond_has(e, tgt, "bind")) {
        *why = "is unwilling and held";
        return 3;
    }
    *why = "is unwilling";
    return 4;
}

/*
 * Forced movement (001:458-465): the actor, with the helpers named, carries, drags or pushes tgt
 * `to` somewhere — the actor's Move (001:350, the standard action); each helper's next standard
 * action goes into it (RULES.md, heimr encounter reading 18). Refused with too few hands.
 */
static int act_carry(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *cid = e->actor, *tgt = rules_arg_str(a, "target");
    const char *helpers = rules_arg_str(a, "helpers"), *to = rules_arg_str(a, "to");
    int rc = check_can_act(e, cid, err);
    if (!rc)
        rc = check_may_move(e, cid, err);
    if (rc)
        return rc;
    if (!rules_enc_combatant(e, tgt))
        return tb_fail(err, TB_NOT_FOUND, "no combatant '%.32s' in this encounter", tgt);
    if (strcmp(tgt, cid) == 0)
        return rules_enc_rule(err, "%s moves on their own: use Move", rules_enc_name(e, cid));
    char ids[8][40];
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
        if (n == 8)
            return tb_fail(err, TB_BAD_REQUEST, "enc.act carry: at most 8 helpers");
        const char *t = combatant_named(e, w);
        if (!t)
            return tb_fail(err, TB_NOT_FOUND, "nobody called '%.32s' is in this encounter", w);
        if (strcmp(t, cid) == 0 || strcmp(t, tgt) == 0)
            return rules_enc_rule(err, "%s cannot help with this move", rules_enc_name(e, t));
        for (int j = 0; j < n; j++)
            if (strcmp(ids[j], t) == 0)
                return rules_enc_rule(err, "%s is named twice", rules_enc_name(e, t));
        if (rules_enc_is_out(e, t) || rules_enc_cond_has(e, t, "daze") || held_in_place(e, t))
            return rules_enc_rule(err, "%s cannot lend a hand now (out, dazed or held)",
                                  rules_enc_name(e, t));
        snprintf(ids[n++], sizeof ids[0], "%s", t);
    }
    const char *why;
    int need = carry_need(e, cid, tgt, &why);
    if (n + 1 < need)
        return rules_enc_rule(err, "%s %s: it takes %d to move them, and %d %s (001:460-465)",
                              rules_enc_name(e, tgt), why, need, n + 1,
                              n ? "are at it" : "is at it");
    if ((rc = rules_enc_spend(e, cid, "standard", 1, err)))
        return rc;
    mark_acted(e, cid);
    char who[400];
    size_t len = (size_t)snprintf(who, sizeof who, "%s", rules_enc_name(e, cid));
    for (int j = 0; j < n; j++) {
        json_object_set_new(rules_enc_combatant(e, ids[j]), "lending", json_string(tgt));
        len += (size_t)snprintf(who + len, len < sizeof who ? sizeof who - len : 0, "%s%s",
                                j + 1 == n ? " and " : ", ", rules_enc_name(e, ids[j]));
    }
    rules_enc_log(e, "carry", NULL, NULL, "%s move%s %s%s%s: %s %s, %d needed (001:460-465)", who,
                  n ? "" : "s", rules_enc_name(e, tgt), to ? " " : "", to ? to : "",
                  rules_enc_name(e, tgt), why, need);
    return 0;
}

/* ---- heimr.chase: chasing on fatigue (001:300-306) ----
 *
 * /enc/ability is the terrain's ability the GM picked (001:302 "the GM decides what attribute or
 * ability to roll"); /enc/target_side names the chased; every other combatant chases. Each
 * chaser keeps its public `distance` in squares (001:302 "The grid should be used to keep track
 * of the distance"). The order is the target, then the chasers in the order they joined; each
 * takes its turn with `run` (001:302 "Characters take turns rolling"). The target's latest roll
 * (in `priv`: an NPC's is the GM's) is what a chaser's roll is compared with. /enc/offer holds a
 * terrain decision the GM offers the target (001:306).
 */

static int chase_is_target(rules_enc *e, const char *cid)
{
    const char *ts = json_string_value(json_object_get(e->enc, "target_side"));
    return ts && strcmp(rules_enc_side(e, cid), ts) == 0;
}

static const char *chase_target(rules_enc *e)
{
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        if (chase_is_target(e, cid))
            return cid;
    return NULL;
}

static int chase_start(rules_enc *e, const rules_args *o, tb_err *err)
{
    (void)err;
    json_object_set_new(e->enc, "ability", json_string(rules_arg_str(o, "ability")));
    json_object_set_new(e->enc, "target_side", json_string(rules_arg_str(o, "target_side")));
    json_object_set_new(e->enc, "distance", json_integer(rules_arg_int(o, "distance")));
    json_object_set_new(e->enc, "turn_seconds", json_integer(TURN_SECONDS));
    return 0;
}

/* Joins as heimr.combat does (stats, abilities, fatigue), before the chase begins; a chaser
 * starts at the GM's distance. */
static int chase_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    if (rules_enc_round(e) > 0)
        return rules_enc_rule(err, "the chase is under way: everyone joins before it begins");
    int rc = heimr_join(e, cid, sheet, err);
    if (rc)
        return rc;
    if (chase_is_target(e, cid)) {
        const char *t = chase_target(e);
        if (t && strcmp(t, cid) != 0)
            return rules_enc_rule(err,
                                  "the chase has one target (%s); chase another with a new "
                                  "chase",
                                  rules_enc_name(e, t));
    } else {
        json_object_set_new(rules_enc_combatant(e, cid), "distance",
                            json_integer(json_integer_value(json_object_get(e->enc, "distance"))));
    }
    return 0;
}

static int chase_begin(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    if (rules_enc_round(e) > 0)
        return rules_enc_rule(err, "the chase is under way");
    const char *t = chase_target(e), *cid;
    if (!t)
        return rules_enc_rule(err, "nobody of the %s is in the chase: add the target first",
                              json_string_value(json_object_get(e->enc, "target_side")));
    json_t *order = json_array();
    json_array_append_new(order, json_string(t));
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        if (!chase_is_target(e, cid))
            json_array_append_new(order, json_string(cid));
    if (json_array_size(order) < 2) {
        json_decref(order);
        return rules_enc_rule(err, "nobody chases %s yet: add a chaser", rules_enc_name(e, t));
    }
    json_object_set_new(e->enc, "order", order);
    rules_enc_begin_round(e);
    rules_enc_log(e, "begin", NULL, NULL,
                  "The chase begins on %s: %s runs first, then the chasers in turn (001:302)",
                  json_string_value(json_object_get(e->enc, "ability")), rules_enc_name(e, t));
    return 0;
}

static int chase_run(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *me = e->actor, *t = chase_target(e);
    const char *ability = json_string_value(json_object_get(e->enc, "ability"));
    spec s;
    int rc = spec_resolve(e, me, ability, NULL, rules_arg_given(a, "c"), rules_arg_int(a, "c"),
                          rules_arg_int(a, "p"), &s, err);
    if (rc)
        return rc;
    int target = strcmp(me, t) == 0;
    if (!target && !json_is_integer(json_object_get(priv(e, t), "chase_roll")))
        return rules_enc_rule(err, "%s has not run yet: the target rolls first (001:302)",
                              rules_enc_name(e, t));
    heimr_roll r;
    if ((rc = heimr_challenge_roll(s.c, s.p, e->rng, &r, err)))
        return rc;
    /* 001:304 every roll of the chase checks fatigue, and fatigue only rises (no breather):
     * 001:284 the roll before potential must reach it, 001:286 a d6 below it raises it */
    int f = rules_enc_stat(e, me, "fatigue", 1);
    int ok = heimr_fatigue_passes(&r, f), after = heimr_fatigue_after(f, r.d6);
    rules_enc_stat_set(e, me, "fatigue", after);
    char pub[200], own[160];
    snprintf(own, sizeof own, ": %s %d (fatigue %d → %d)", s.ability, r.result, f, after);
    json_t *dice = json_array(), *res = roll_json(&r);
    roll_dice(dice, &r, NULL);
    json_object_set_new(res, "fatigue_before", json_integer(f));
    json_object_set_new(res, "fatigue_after", json_integer(after));
    const char *name = rules_enc_name(e, me), *tn = rules_enc_name(e, t);
    if (!ok) {
        /* 001:304 "If this is the target, this means the chaser will reach the target. If this
         * is the chaser, this means the target has escaped." */
        if (target) {
            snprintf(pub, sizeof pub, "%s runs out of breath: the chasers reach them (001:304)",
                     name);
            rules_enc_set_out(e, t, "caught");
        } else {
            snprintf(pub, sizeof pub, "%s runs out of breath and drops out: %s got away (001:304)",
                     name, tn);
            rules_enc_set_out(e, me, "shaken off");
        }
    } else if (target) {
        json_object_set_new(priv(e, t), "chase_roll", json_integer(r.result));
        snprintf(pub, sizeof pub, "%s runs on (001:302)", name);
    } else {
        /* 001:302 three or more higher: one square closer; three or more lower: the target one
         * square further; the move that would pass the target is an action against it */
        int diff = r.result - (int)json_integer_value(json_object_get(priv(e, t), "chase_roll"));
        int d = (int)json_integer_value(json_object_get(rules_enc_combatant(e, me), "distance"));
        if (diff >= 3 && d <= 1) {
            json_object_set_new(rules_enc_combatant(e, me), "distance", json_integer(0));
            snprintf(pub, sizeof pub,
                     "%s catches up with %s and may act against them instead of running past "
                     "(001:302)",
                     name, tn);
        } else if (diff >= 3) {
            json_object_set_new(rules_enc_combatant(e, me), "distance", json_integer(d - 1));
            snprintf(pub, sizeof pub, "%s gains a square on %s: %d left (001:302)", name, tn,
                     d - 1);
        } else if (diff <= -3) {
            json_object_set_new(rules_enc_combatant(e, me), "distance", json_integer(d + 1));
            snprintf(pub, sizeof pub, "%s falls a square behind %s: %d (001:302)", name, tn, d + 1);
        } else {
            snprintf(pub, sizeof pub, "%s keeps pace with %s: %d squares (001:302)", name, tn, d);
        }
    }
    rules_enc_entry *x = log_begin(e, "run", pub);
    log_own(e, x, me, dice, res, own);
    rules_enc_entry_end(x);
    int alive = 0;
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        alive += !rules_enc_is_out(e, cid) && !chase_is_target(e, cid);
    if (!rules_enc_is_out(e, t) && alive == 0) {
        rules_enc_set_out(e, t, "escaped");
        rules_enc_log(e, "escape", NULL, NULL, "%s escapes: nobody chases them any more (001:304)",
                      tn);
    }
    if (!rules_enc_is_out(e, t))
        rules_enc_advance(e);
    return 0;
}

/* The GM offers the target a terrain decision (001:306): another ability to roll. */
static int chase_offer(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    const char *ab = rules_arg_str(a, "ability");
    json_object_set_new(e->enc, "offer", json_string(ab));
    rules_enc_log(e, "offer", NULL, NULL, "The GM offers %s other ground: %s (001:306)",
                  rules_enc_name(e, chase_target(e)), ab);
    return 0;
}

/* The target takes (or turns down) the terrain the GM offered (001:306). */
static int chase_choose(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *offer = json_string_value(json_object_get(e->enc, "offer"));
    if (!chase_is_target(e, e->actor))
        return rules_enc_rule(err, "only the one being chased chooses the terrain (001:306)");
    if (!offer)
        return rules_enc_rule(err, "the GM has offered no other terrain (001:306)");
    char ab[64];
    snprintf(ab, sizeof ab, "%s", offer);
    json_object_del(e->enc, "offer");
    if (rules_arg_int(a, "take")) {
        json_object_set_new(e->enc, "ability", json_string(ab));
        rules_enc_log(e, "choose", NULL, NULL,
                      "%s takes to new ground: the chase rolls %s now "
                      "(001:306)",
                      rules_enc_name(e, e->actor), ab);
    } else {
        rules_enc_log(e, "choose", NULL, NULL, "%s keeps to the ground they are on (001:306)",
                      rules_enc_name(e, e->actor));
    }
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
        {"bind", RULES_PARAM_BOOL, 0, 1, 0, 0, "with brawl: grab instead of hitting (001:401)"},   \
        {"blind_spot",                                                                             \
         RULES_PARAM_BOOL,                                                                         \
         0,                                                                                        \
         1,                                                                                        \
         0,                                                                                        \
         0,                                                                                        \
         "from the target's blind spot: defence C-5 (001:562)"},                                   \
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

static const rules_param P_GUARD[] = {
    P_TARGET(RULES_PARAM_REQUIRED, "the ally guarded"),
    {0},
};
static const rules_param P_BREAK[] = {
    {"ability", RULES_PARAM_STRING, 1, 60, 0, 0, "physical ability rolled (default Brawl)"},
    {"c", RULES_PARAM_INT, -20, 20, 0, 0, "consistency, instead of an ability"},
    {"p", RULES_PARAM_INT, -30, 30, 0, 0, "potential, instead of an ability"},
    {0},
};
static const rules_param P_CARRY[] = {
    P_TARGET(RULES_PARAM_REQUIRED, "who is moved"),
    {"helpers", RULES_PARAM_STRING, 1, 150, 0, 0, "who lends a hand (names, separated by commas)"},
    {"to", RULES_PARAM_STRING, 1, 80, 0, 0, "where to"},
    {0},
};

static const rules_param P_GROUND[] = {
    P_TARGET(RULES_PARAM_REQUIRED, "who stands there"),
    {"height", RULES_PARAM_INT, 0, 20, 0, 0, "height, in positions of about a metre (001:517)"},
    {"concealment", RULES_PARAM_INT, 0, 8, 0, 0,
     "cover against shots: tall grass 1, cart 2, table 3, merlon 5 (001:540)"},
    {"difficult", RULES_PARAM_BOOL, 0, 1, 0, 0,
     "difficult terrain: mud, snow, low water (001:475)"},
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
    {"guard", "Guard an ally", RULES_ENC_TURN, P_GUARD, act_guard, "001:345,448-456"},
    {"stand_down", "Stop guarding", RULES_ENC_OWNER, P_NONE, act_stand_down, "001:452"},
    {"release", "Let go", RULES_ENC_OWNER, P_NONE, act_release, "001:407"},
    {"break_free", "Break free", RULES_ENC_TURN, P_BREAK, act_break_free, "001:407"},
    {"carry", "Move someone", RULES_ENC_TURN, P_CARRY, act_carry, "001:458-465"},
    {"ground", "Set the ground", RULES_ENC_GM, P_GROUND, act_ground, "001:467-552"},
    {0},
};

/* ---- what the GM may set ---- */

/* What the GM adjusts mid-fight: hit points (001:143-166), willpower and fatigue, in the ranges
 * of the sheet (rules/heimr/heimr.c). */
static const rules_enc_field HEIMR_EDITABLE[] = {
    {"stats/hp", RULES_PARAM_INT, -5, 100, "hit points"},
    {"stats/hp_max", RULES_PARAM_INT, 1, 100, "maximum hit points"},
    {"stats/willpower", RULES_PARAM_INT, 0, 50, "willpower"},
    {"stats/willpower_max", RULES_PARAM_INT, 0, 50, "maximum willpower"},
    {"stats/fatigue", RULES_PARAM_INT, 1, 20, "fatigue"},
    {NULL, 0, 0, 0, NULL},
};

/* The chase's own: the terrain's ability (001:302) and each chaser's squares to the target. */
static const rules_enc_field HEIMR_CHASE_EDITABLE[] = {
    {"stats/hp", RULES_PARAM_INT, -5, 100, "hit points"},
    {"stats/fatigue", RULES_PARAM_INT, 1, 20, "fatigue"},
    {"/enc/ability", RULES_PARAM_STRING, 1, 60, "the terrain's ability"},
    {"/enc/combatants/*/distance", RULES_PARAM_INT, 0, 40, "squares to the target"},
    {NULL, 0, 0, 0, NULL},
};

/* Damage, willpower, fatigue and injuries land on the sheets (server/ops_enc.c write_back). */
static const rules_param P_CHASE_START[] = {
    {"ability", RULES_PARAM_STRING, 1, 60, 0, RULES_PARAM_REQUIRED,
     "the terrain's ability (Agility, Athletics, Swimming...)"},
    {"target_side", RULES_PARAM_STRING, 1, 40, 0, RULES_PARAM_REQUIRED, "the side being chased"},
    {"distance", RULES_PARAM_INT, 1, 20, 3, 0, "squares between them at the start (default 3)"},
    {0},
};
static const rules_param P_RUN[] = {
    {"c", RULES_PARAM_INT, -20, 20, 0, 0, "consistency (an NPC without the ability)"},
    {"p", RULES_PARAM_INT, -20, 40, 0, 0, "potential (with c)"},
    {0},
};
static const rules_param P_OFFER[] = {
    {"ability", RULES_PARAM_STRING, 1, 60, 0, RULES_PARAM_REQUIRED, "the other ground's ability"},
    {0},
};
static const rules_param P_CHOOSE[] = {
    {"take", RULES_PARAM_BOOL, 0, 1, 1, 0, "take the ground offered (1) or not (0)"},
    {0},
};

static const rules_enc_action CHASE_ACTIONS[] = {
    {"begin", "Begin the chase", RULES_ENC_GM, P_NONE, chase_begin, "001:302"},
    {"run", "Run", RULES_ENC_TURN, P_RUN, chase_run, "001:302-304"},
    {"offer", "Offer a terrain", RULES_ENC_GM, P_OFFER, chase_offer, "001:306"},
    {"choose", "Choose the terrain", RULES_ENC_OWNER, P_CHOOSE, chase_choose, "001:306"},
    {0},
};

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
    .editable = HEIMR_EDITABLE,
};

const rules_module rules_module_heimr_chase = {
    .id = "heimr.chase",
    .system = "heimr",
    .name = "Chase",
    .cite = "001:300-306",
    .options = P_CHASE_START,
    .start = chase_start,
    .join = chase_join,
    .actions = CHASE_ACTIONS,
    .sheet_stats = SHEET_STATS,
    .editable = HEIMR_CHASE_EDITABLE,
};
