/*
 * choices.c — what GRIMWIRE's encounter modules offer for each parameter of their actions
 * (rules/encounter.h, "moves"): the combatants that fit, the weapons and techniques on the sheet,
 * the attributes best first, the status effects, damage types, burnout causes, items and
 * blueprints; and a default that passes the action's check where the state holds none (a GM's
 * target number: 11, the number the project already reads for a TOG roll and terror when the GM
 * gives none, RULES.md grimwire). Pure: reads the state, writes only `out`.
 */
#include <stdio.h>
#include <string.h>

#include "grid.h"
#include "grimwire_enc.h"

#define DEFAULT_TN 11 /* RULES.md grimwire: the number read where the GM gives none */

/* ---- building the choices ---- */

static void add(json_t *out, json_t *value /* stolen; NULL: leave the parameter out */,
                const char *label)
{
    json_array_append_new(
        out, json_pack("{s:o, s:s}", "value", value ? value : json_null(), "label", label));
}

static void add_id(json_t *out, const rules_enc *e, const char *cid)
{
    add(out, json_string(cid), gw_nm(e, cid));
}

static int dflt(json_t *out, json_t *value, const char *label)
{
    add(out, value, label);
    return RULES_CHOICES_DEFAULT;
}

static int same_side(const rules_enc *e, const char *a, const char *b)
{
    return a && b && rules_enc_streq(rules_enc_side(e, a), rules_enc_side(e, b));
}

/* The combatants not out of the fight that fit (fits may be NULL), those on actor's side first
 * when allies_first, else its foes first; never actor itself. */
static void combatants(json_t *out, const rules_enc *e, const char *actor, int allies_first,
                       int (*fits)(const rules_enc *e, const char *actor, const char *cid))
{
    const char *cid;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
            if (rules_enc_streq(cid, actor) || rules_enc_is_out(e, cid) ||
                (fits && !fits(e, actor, cid)))
                continue;
            int ally = same_side(e, actor, cid);
            if ((pass == 0) == (allies_first ? ally : !ally))
                add_id(out, e, cid);
        }
}

/* Those out of the fight that fit, after the others: where an action's rules allow one (the GM
 * damaging or healing the fallen, a reaction answering one), the move offers them last. */
static void and_the_out(json_t *out, const rules_enc *e, const char *actor,
                        int (*fits)(const rules_enc *e, const char *actor, const char *cid))
{
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        if (rules_enc_is_out(e, cid) && !rules_enc_streq(cid, actor) &&
            (!fits || fits(e, actor, cid)))
            add_id(out, e, cid);
}

/* Every combatant: those in the fight (foes of actor first), then those out of it. */
static int anyone(json_t *out, const rules_enc *e, const char *actor,
                  int (*fits)(const rules_enc *e, const char *actor, const char *cid))
{
    combatants(out, e, actor, 0, fits);
    and_the_out(out, e, actor, fits);
    return RULES_CHOICES_PICK;
}

static int on_the_ground(const rules_enc *e, const char *actor, const char *cid)
{
    (void)actor;
    return gw_has(e, cid, "knocked_down");
}

static int standing(const rules_enc *e, const char *actor, const char *cid)
{
    (void)actor;
    return !gw_has(e, cid, "knocked_down") && !gw_dying(e, cid);
}

/* A player's character at 0 Condition or below, not yet dead (between the scenes, 002:256). */
static int sheet_dying(const rules_enc *e, const char *actor, const char *cid)
{
    (void)actor;
    int c = gw_sub_int(e, cid, "condition", "current");
    return !gw_npc(e, cid) && c <= 0 && c >= GRIMWIRE_DEAD_BELOW;
}

static int asleep(const rules_enc *e, const char *actor, const char *cid)
{
    (void)actor;
    return gw_has(e, cid, "sleep") || gw_has(e, cid, "knocked_out");
}

static int not_held(const rules_enc *e, const char *actor, const char *cid)
{
    (void)actor;
    return !gw_has(e, cid, "grappled");
}

static int held_by(const rules_enc *e, const char *actor, const char *cid)
{
    json_t *g = rules_enc_cond(e, cid, "grappled");
    return g && rules_enc_streq(json_string_value(json_object_get(g, "by")), actor);
}

static int is_dying(const rules_enc *e, const char *actor, const char *cid)
{
    (void)actor;
    return gw_dying(e, cid);
}

static int tied(const rules_enc *e, const char *actor, const char *cid)
{
    return same_side(e, actor, cid) && gw_init_of(e, actor) == gw_init_of(e, cid);
}

static int a_pc(const rules_enc *e, const char *actor, const char *cid)
{
    (void)actor;
    return !gw_npc(e, cid);
}

static int an_npc(const rules_enc *e, const char *actor, const char *cid)
{
    return !a_pc(e, actor, cid);
}

/* Each string of the list `key` of actor's stats, or nothing. */
static void names(json_t *out, const rules_enc *e, const char *actor, const char *key)
{
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(gw_stats(e, actor), key), i, v)
    {
        if (json_is_string(v))
            add(out, json_incref(v), json_string_value(v));
    }
}

static const char *const ATTR_LABELS[] = {"TOG", "AGL", "COR", "MND", "PER", "RSN"};

/* The six attributes, actor's best first. */
static void attributes(json_t *out, const rules_enc *e, const char *actor)
{
    int done[6] = {0};
    for (int n = 0; n < 6; n++) {
        int best = -1;
        for (int k = 0; k < 6; k++)
            if (!done[k] &&
                (best < 0 || gw_attr(e, actor, GW_ATTRS[k]) > gw_attr(e, actor, GW_ATTRS[best])))
                best = k;
        done[best] = 1;
        add(out, json_string(GW_ATTRS[best]), ATTR_LABELS[best]);
    }
}

static const char *const TYPES[] = {"bullets",  "edged",      "blunt",        "explosions",
                                    "heat",     "cold",       "electricity",  "radiation",
                                    "chemical", "biological", "supernatural", NULL};

static int damage_types(json_t *out, const char *none)
{
    add(out, NULL, none);
    for (const char *const *t = TYPES; *t; t++)
        add(out, json_string(*t), *t);
    return RULES_CHOICES_PICK;
}

/* A GM's target number: leave it out when the state holds one (has), else the default. */
static int gm_tn(json_t *out, const rules_enc *e, int has)
{
    if (!e->is_gm)
        return dflt(out, NULL, "the GM's number");
    if (has)
        return dflt(out, NULL, "the number set");
    return dflt(out, json_integer(DEFAULT_TN), "target number");
}

/* The GM's number for an attack, shove or grapple by actor: an NPC's `attack_tn` (what a PC rolls
 * to evade it), else the target's `tn` (which the choices cannot know: left out). */
static int hit_tn(json_t *out, const rules_enc *e, const char *actor)
{
    int npc = actor && gw_npc(e, actor);
    return gm_tn(out, e,
                 !npc || json_is_integer(json_object_get(gw_hidden_get(e, actor), "attack_tn")));
}

/* The combatants a blast or an area may catch: everyone, each side, each one. */
static int caught(json_t *out, const rules_enc *e)
{
    char all[400] = "", sides[8][32] = {{0}};
    size_t len = 0, nsides = 0;
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        if (rules_enc_is_out(e, cid))
            continue;
        len += (size_t)snprintf(all + len, len < sizeof all ? sizeof all - len : 0, "%s%s",
                                len ? "," : "", cid);
        size_t s = 0;
        while (s < nsides && strcmp(sides[s], rules_enc_side(e, cid)) != 0)
            s++;
        if (s == nsides && nsides < 8)
            snprintf(sides[nsides++], sizeof sides[0], "%s", rules_enc_side(e, cid));
    }
    if (len && len < sizeof all)
        add(out, json_string(all), "everyone");
    for (size_t s = 0; s < nsides; s++) {
        char ids[400] = "", label[64];
        size_t l = 0;
        for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
            if (!rules_enc_is_out(e, cid) && strcmp(rules_enc_side(e, cid), sides[s]) == 0)
                l += (size_t)snprintf(ids + l, l < sizeof ids ? sizeof ids - l : 0, "%s%s",
                                      l ? "," : "", cid);
        snprintf(label, sizeof label, "everyone on side %s", sides[s]);
        if (l && l < sizeof ids)
            add(out, json_string(ids), label);
    }
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        if (!rules_enc_is_out(e, cid))
            add_id(out, e, cid);
    and_the_out(out, e, NULL, NULL); /* an area may be taken from the fallen */
    return RULES_CHOICES_PICK;
}

/* A blast's or an area's centre on the scene's map (RULES.md G26): not on the map first (the GM
 * names who is caught), then the square of each fighter whose token is shown, once a square, if
 * that square is on the grid (a map saved before map.set kept tokens on it may hold one off it). */
static int centres(json_t *out, const rules_enc *e)
{
    add(out, NULL, rules_grid_any(e) ? "not on the map: name who is caught" : "no map is shown");
    const char *cid, *prev;
    int x, y, px, py;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        if (rules_enc_is_out(e, cid) || !rules_grid_square(e, cid, &x, &y) ||
            !rules_grid_inside(e, x, y))
            continue;
        int seen = 0;
        for (size_t j = 0; j < i && (prev = rules_enc_cid_at(e, j)); j++)
            seen |= !rules_enc_is_out(e, prev) && rules_grid_square(e, prev, &px, &py) && px == x &&
                    py == y;
        if (seen)
            continue;
        char v[24], label[96];
        snprintf(v, sizeof v, "%d,%d", x, y);
        snprintf(label, sizeof label, "%s's square (%d, %d)", gw_nm(e, cid), x, y);
        add(out, json_string(v), label);
    }
    return RULES_CHOICES_PICK;
}

/* ---- grimwire.conflict ---- */

static int weapons(json_t *out, const rules_enc *e, const char *actor)
{
    json_t *list = json_object_get(gw_stats(e, actor), "weapons");
    size_t i;
    json_t *w;
    json_array_foreach(list, i, w)
    {
        const char *name = json_string_value(json_object_get(w, "name"));
        add(out, json_integer((json_int_t)i + 1), name ? name : "a weapon");
    }
    if (!json_array_size(list))
        add(out, NULL, "bare hands");
    return RULES_CHOICES_PICK;
}

static int statuses(json_t *out)
{
    static const char *const S[] = {
        "knocked_down", "stun",      "bleeding",    "burning",         "terror",
        "grappled",     "sensory",   "inebriated",  "agony",           "frenzy",
        "amok",         "paralysis", "brainwashed", "mind_controlled", "hex",
        "unconscious",  "sleep",     "knocked_out", "out_cold",        NULL};
    for (const char *const *s = S; *s; s++) {
        char label[32];
        snprintf(label, sizeof label, "%s", *s);
        for (char *c = label; *c; c++)
            if (*c == '_')
                *c = ' ';
        add(out, json_string(*s), label);
    }
    return RULES_CHOICES_PICK;
}

static int on_off(json_t *out, const char *on, const char *off)
{
    add(out, json_integer(1), on);
    add(out, json_integer(0), off);
    return RULES_CHOICES_PICK;
}

int gw_conflict_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                        const rules_param *p, json_t *out)
{
    const char *act = a->name, *k = p->name;
#define IS(x, y) (strcmp(act, x) == 0 && strcmp(k, y) == 0)
    if (IS("begin", "surprise")) {
        add(out, NULL, "no surprise");
        char seen[8][32] = {{0}};
        size_t n = 0;
        const char *cid;
        for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
            const char *side = rules_enc_side(e, cid);
            size_t s = 0;
            while (s < n && strcmp(seen[s], side) != 0)
                s++;
            if (s < n || n == 8)
                continue;
            snprintf(seen[n++], sizeof seen[0], "%s", side);
            char label[64];
            snprintf(label, sizeof label, "side %s strikes first", side);
            add(out, json_string(side), label);
        }
        return RULES_CHOICES_PICK;
    }
    if (strcmp(k, "weapon") == 0)
        return weapons(out, e, actor);
    if (strcmp(k, "kind") == 0) {
        add(out, NULL, "the weapon's own");
        for (const char *const *s =
                 (const char *const[]){"light", "heavy", "ranged", "supernatural", NULL};
             *s; s++)
            add(out, json_string(*s), *s);
        return RULES_CHOICES_PICK;
    }
    if (strcmp(k, "type") == 0)
        return damage_types(out, IS("attack", "type") ? "the weapon's" : "untyped");
    if ((IS("attack", "tn") || IS("shove", "tn") || IS("grapple", "tn")))
        return hit_tn(out, e, actor);
    if (IS("attack", "tog_tn") || IS("attack", "raise") || IS("status", "tn"))
        return dflt(out, NULL, e->is_gm ? "the usual" : "the GM's number");
    if ((IS("technique", "name") || IS("reaction", "name")) &&
        json_is_array(json_object_get(gw_stats(e, actor), "techniques")))
        return names(out, e, actor, "techniques"), RULES_CHOICES_PICK;
    if (IS("reaction", "target")) {
        add(out, NULL, "nobody in particular");
        return anyone(out, e, actor, NULL);
    }
    if (IS("help_up", "target")) {
        combatants(out, e, actor, 1, on_the_ground);
        and_the_out(out, e, actor, on_the_ground);
        return RULES_CHOICES_PICK;
    }
    if (IS("wake", "target")) {
        combatants(out, e, actor, 1, asleep);
        and_the_out(out, e, actor, asleep);
        return RULES_CHOICES_PICK;
    }
    if (IS("assist", "target") || IS("shield", "target"))
        return combatants(out, e, actor, 1, NULL), RULES_CHOICES_PICK;
    if (IS("assist", "attr"))
        return attributes(out, e, actor), RULES_CHOICES_PICK;
    if (IS("trip", "target"))
        return combatants(out, e, actor, 0, standing), RULES_CHOICES_PICK;
    if (IS("grapple", "target"))
        return combatants(out, e, actor, 0, not_held), RULES_CHOICES_PICK;
    if (IS("release", "target"))
        return anyone(out, e, actor, held_by);
    if (IS("stabilize", "target"))
        return combatants(out, e, actor, 1, is_dying), RULES_CHOICES_PICK;
    if (IS("revive", "target"))
        return anyone(out, e, NULL, is_dying);
    if (IS("swap", "target")) {
        combatants(out, e, actor, 1, tied);
        and_the_out(out, e, actor, tied);
        return RULES_CHOICES_PICK;
    }
    if (IS("collateral", "target")) {
        add(out, NULL, "nobody: no one else is in range");
        return anyone(out, e, NULL, NULL);
    }
    if (IS("traits", "target") || IS("status", "target") || IS("damage", "target") ||
        IS("heal", "target"))
        return anyone(out, e, NULL, NULL);
    if (IS("collateral", "spare")) {
        add(out, NULL, "an ally is spared");
        return on_off(out, "spare them", "do not spare them");
    }
    if (IS("set_tn", "target")) {
        const char *w = json_string_value(json_object_get(
            json_object_get(json_object_get(e->hidden, "waiting"), "params"), "target"));
        if (w && rules_enc_combatant(e, w))
            add_id(out, e, w);
        return anyone(out, e, w, NULL); /* then the others, the waiting one left out */
    }
    if (IS("answer", "tn"))
        return dflt(out, json_integer(DEFAULT_TN), "target number to hit");
    if (IS("set_tn", "tn"))
        return dflt(out, json_integer(DEFAULT_TN), "target number to hit");
    if (strcmp(act, "set_tn") == 0)
        return dflt(out, NULL, "unchanged");
    if (IS("status", "name"))
        return statuses(out);
    if (IS("status", "on") || IS("area", "on") || IS("drown", "on"))
        return on_off(out, "yes", "no longer");
    if (IS("status", "target2")) {
        add(out, NULL, "nobody named");
        return anyone(out, e, NULL, NULL);
    }
    if (IS("damage", "amount") || IS("heal", "amount"))
        return dflt(out, json_integer(1), "amount");
    if (IS("splash", "who") || IS("area", "who")) {
        caught(out, e);
        if (rules_grid_any(e))
            add(out, NULL, "those the map catches around the centre");
        return RULES_CHOICES_PICK;
    }
    if (IS("splash", "centre") || IS("area", "centre"))
        return centres(out, e);
    if (IS("splash", "damage"))
        return dflt(out, json_string("3d6"), "damage dice");
    if (IS("area", "damage"))
        return dflt(out, json_string("1d6"), "damage dice each time");
    if (IS("splash", "tn"))
        return gm_tn(out, e, 0);
#undef IS
    return RULES_CHOICES_NONE;
}

/* ---- grimwire.between ---- */

static const char *const CAUSES[] = {"hunger",         "thirst",      "disease",
                                     "exposure",       "dampness",    "radiation",
                                     "no_maintenance", "no_recharge", NULL};

/* The attribute increases level_up may name for actor: each attribute below 10, or each pair. */
static int raises(json_t *out, const rules_enc *e, const char *actor)
{
    grimwire_reward r;
    int level = gw_stat_int(e, actor, "level", 1);
    int two = level < GRIMWIRE_LEVEL_MAX && grimwire_level_reward(level + 1, &r) == 0 &&
              r.attributes == 2;
    for (int a = 0; a < 6; a++)
        for (int b = two ? a : 6; b < (two ? 6 : 7); b++) {
            char v[16], label[32];
            int va = gw_sub_int(e, actor, "attributes", GW_ATTRS[a]);
            if (!two) {
                if (va + 1 > GRIMWIRE_ATTR_MAX)
                    continue;
                add(out, json_string(GW_ATTRS[a]), ATTR_LABELS[a]);
                continue;
            }
            int vb = gw_sub_int(e, actor, "attributes", GW_ATTRS[b]);
            if (va + 1 + (a == b) > GRIMWIRE_ATTR_MAX || vb + 1 > GRIMWIRE_ATTR_MAX)
                continue;
            snprintf(v, sizeof v, "%s,%s", GW_ATTRS[a], GW_ATTRS[b]);
            snprintf(label, sizeof label, "%s and %s", ATTR_LABELS[a], ATTR_LABELS[b]);
            add(out, json_string(v), label);
        }
    return RULES_CHOICES_PICK;
}

int gw_between_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                       const rules_param *p, json_t *out)
{
    const char *act = a->name, *k = p->name;
    json_t *learning = actor ? gw_stat_list_get(e, actor, "learning") : NULL;
#define IS(x, y) (strcmp(act, x) == 0 && strcmp(k, y) == 0)
    if (IS("cause", "target") || IS("set_build", "target")) {
        anyone(out, e, NULL, a_pc); /* the players' characters first */
        return anyone(out, e, NULL, an_npc);
    }
    if (IS("award", "target")) {
        add(out, NULL, "everyone present");
        anyone(out, e, NULL, a_pc);
        return anyone(out, e, NULL, an_npc);
    }
    if (IS("cause", "cause")) {
        for (const char *const *c = CAUSES; *c; c++) {
            char label[32];
            snprintf(label, sizeof label, "%s", *c);
            for (char *s = label; *s; s++)
                if (*s == '_')
                    *s = ' ';
            add(out, json_string(*c), label);
        }
        return RULES_CHOICES_PICK;
    }
    if (IS("cause", "on"))
        return on_off(out, "it persists", "it was dealt with");
    if (IS("award", "xp"))
        return dflt(out, json_integer(1), "XP");
    if (IS("level_up", "raise"))
        return raises(out, e, actor);
    if (IS("learn", "technique")) {
        json_t *first = json_object_get(json_array_get(learning, 0), "name");
        if (json_is_string(first))
            return dflt(out, json_incref(first), json_string_value(first));
        return dflt(out, json_string("New technique"), "the technique");
    }
    if (IS("learn", "attribute")) {
        if (json_array_size(learning))
            add(out, NULL, "as begun");
        attributes(out, e, actor);
        if (!json_array_size(learning))
            add(out, NULL, "as begun");
        return RULES_CHOICES_PICK;
    }
    if (IS("learn", "effort"))
        return json_array_size(learning) ? dflt(out, NULL, "as begun")
                                         : dflt(out, json_integer(10), "learning effort");
    if (IS("learn", "hours"))
        return dflt(out, NULL, "all it needs");
    if (IS("exchange", "take"))
        return names(out, e, actor, "learned"), RULES_CHOICES_PICK;
    if (IS("exchange", "drop")) {
        add(out, NULL, "none: a free slot");
        names(out, e, actor, "techniques");
        return RULES_CHOICES_PICK;
    }
    if (IS("set_build", "cor_tn"))
        return dflt(out, json_integer(DEFAULT_TN), "COR target number");
    if (strcmp(act, "answer") == 0) {
        /* the numbers the waiting build needs, filled with the usual one; the others left out */
        json_t *needs = json_object_get(json_object_get(e->hidden, "waiting"), "needs");
        if (gw_list_find(needs, k) >= 0)
            return dflt(out, json_integer(DEFAULT_TN), p->label);
        return dflt(out, NULL, "not needed");
    }
    /* set_build's optional numbers, craft's and repair's */
    if (strcmp(k, "mnd_tn") == 0 || strcmp(k, "cor_tn") == 0 || strcmp(k, "rsn_tn") == 0)
        return dflt(out, NULL, e->is_gm ? "the number set" : "the GM's number");
    if (IS("repair", "item")) {
        size_t i;
        json_t *it;
        json_array_foreach(gw_stat_list_get(e, actor, "items"), i, it)
        {
            const char *n = json_string_value(json_object_get(it, "name"));
            if (n && json_is_true(json_object_get(it, "broken")))
                add(out, json_string(n), n);
        }
        return RULES_CHOICES_PICK;
    }
    if (IS("craft", "kind")) {
        add(out, NULL, "as named");
        names(out, e, actor, "blueprints");
        return RULES_CHOICES_PICK;
    }
    if (IS("use", "item")) {
        size_t i;
        json_t *it;
        for (int pass = 0; pass < 2; pass++)
            json_array_foreach(gw_stat_list_get(e, actor, "items"), i, it)
            {
                const char *n = json_string_value(json_object_get(it, "name"));
                int broken = json_is_true(json_object_get(it, "broken"));
                if (n && broken == pass)
                    add(out, json_string(n), n);
            }
        return RULES_CHOICES_PICK;
    }
    if (IS("stabilize", "target") || IS("set_stabilize", "target"))
        return anyone(out, e, NULL, sheet_dying);
    if (IS("set_stabilize", "tn"))
        return dflt(out, json_integer(DEFAULT_TN), "target number to stabilize");
    if (IS("fall", "stories"))
        return dflt(out, json_integer(1), "stories");
#undef IS
    return RULES_CHOICES_NONE;
}
