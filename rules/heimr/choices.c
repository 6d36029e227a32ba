/*
 * choices.c — what the Heimr modules offer a seat for each parameter of an action (the moves,
 * rules/encounter.h: rules_module.choices), from the sheets and the encounter: abilities and
 * items on the sheet, body parts, the book's actions, allies, the terrain's ability, what a
 * training costs. A first choice is the one that makes the most common move go through as it
 * is (End turn with nothing to ask; an attack with the first weapon on the sheet).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "heimr_enc.h"

/* ---- heimr.combat ---- */

/* 001:335-391 the list of combat actions and their types (those with an action of their own,
 * attacks, Guard, Dodge, Drop prone and Taking a breather, are not here). */
static const struct {
    const char *what, *type, *label;
} BOOK[] = {
    {"Move", "standard", "Move"},
    {"Run", "ongoing", "Run (ends the turn)"},
    {"Charge", "ongoing", "Charge (ends the turn)"},
    {"Climb", "ongoing", "Climb (ends the turn)"},
    {"Crawl", "upcoming", "Crawl (ends the turn, done next turn)"},
    {"Jump down", "free", "Jump down (free)"},
    {"Hide", "free", "Hide (free)"},
    {"Draw a weapon or ammunition", "standard", "Draw a weapon or ammunition"},
    {"Put a weapon or ammunition away", "standard", "Put a weapon or ammunition away"},
    {"Drop items", "free", "Drop items (free)"},
    {"Get an item", "ongoing", "Get an item (ends the turn)"},
    {"Hide or conceal an item", "ongoing", "Hide or conceal an item (ends the turn)"},
    {"Swap items", "free", "Swap items (free)"},
    {"Observation", "free", "Observation (free)"},
    {"Speak", "free", "Speak (free)"},
    {NULL, NULL, NULL},
};

const char *heimr_act_type(const char *type, const char *what)
{
    for (int i = 0; !type && what && BOOK[i].what; i++)
        if (strcasecmp(what, BOOK[i].what) == 0)
            type = BOOK[i].type;
    return type;
}

static int is(const char *a, const char *b)
{
    return strcmp(a, b) == 0;
}

/* The weapon an attack is made with: the item first, the ability only when no item names one. */
static int weapon_choices(const rules_enc *e, const char *actor, const char *param, json_t *out)
{
    json_t *items = json_array();
    int armed = heimr_choose_items(e, actor, 1, items);
    if (is(param, "item")) {
        json_array_extend(out, items);
        heimr_choice(out, NULL, "no item");
    } else {
        if (armed)
            heimr_choice(out, NULL, "the item's own");
        heimr_choose_abilities(e, actor, 0, out);
    }
    json_decref(items);
    return RULES_CHOICES_PICK;
}

/* The helpers a move of someone may name: nobody; each of those able to lend a hand (the actor's
 * allies first); then two and three of them in a row (so that some set leaves out whoever is
 * moved, 001:462-465 needs up to three helpers). */
static void helper_choices(const rules_enc *e, const char *actor, json_t *out)
{
    json_t *all = json_array();
    heimr_choose_combatants(e, actor, HEIMR_ALLIES | HEIMR_FOES | HEIMR_ALLIES_FIRST, all);
    const char *ids[RULES_ENC_MAX_COMBATANTS];
    int n = 0;
    size_t i;
    json_t *c;
    json_array_foreach(all, i, c)
    {
        const char *id = json_string_value(json_object_get(c, "value"));
        if (!rules_enc_cond_has(e, id, "daze") && !heimr_held_in_place(e, id) &&
            n < RULES_ENC_MAX_COMBATANTS)
            ids[n++] = id;
    }
    heimr_choice(out, NULL, "nobody");
    for (int k = 1; k <= 3; k++)
        for (int s = 0; s + k <= n; s++) {
            char list[160] = "", names[400];
            for (int j = s; j < s + k; j++) {
                strcat(list, j > s ? "," : "");
                strcat(list, ids[j]);
            }
            heimr_names_join(e, ids + s, k, 1, names, sizeof names);
            heimr_choice(out, json_string(list), names);
        }
    json_decref(all);
}

int heimr_combat_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                         const rules_param *p, json_t *out)
{
    const char *act = a->name, *n = p->name;
    if (is(n, "c") || is(n, "p") || is(n, "value") || is(n, "height") || is(n, "concealment")) {
        heimr_choice(out, NULL, is(act, "ground") ? "as it is" : "none"); /* left out */
        return RULES_CHOICES_DEFAULT;
    }
    if (is(n, "trigger")) { /* 001:248 the book's example */
        heimr_choice(out, json_string("an opponent enters this square"), "");
        return RULES_CHOICES_DEFAULT;
    }
    if (actor && (is(act, "attack") || is(act, "ready")) && (is(n, "ability") || is(n, "item")))
        return weapon_choices(e, actor, n, out);
    if (actor && is(n, "ability")) {
        int brawl = is(act, "break_free");
        heimr_choice(out, NULL, brawl ? "Brawl" : "Agility, or the item's own");
        heimr_choose_abilities(e, actor, brawl, out);
        return RULES_CHOICES_PICK;
    }
    if (actor && is(n, "item")) {
        heimr_choice(out, NULL, "no item");
        heimr_choose_items(e, actor, 0, out);
        return RULES_CHOICES_PICK;
    }
    if (is(n, "aim") || is(n, "part")) {
        heimr_choice(out, NULL, is(n, "aim") ? "no aim: the dice decide" : "none");
        heimr_choose_parts(out);
        return RULES_CHOICES_PICK;
    }
    if (is(n, "kind") || is(n, "defence")) {
        if (is(n, "defence"))
            heimr_choice(out, NULL, "a dodge, unless one is held");
        heimr_choice(out, json_string("dodge"), "dodge");
        heimr_choice(out, json_string("block"), "block (with a shield)");
        heimr_choice(out, json_string("parry"), "parry (with a weapon)");
        return RULES_CHOICES_PICK;
    }
    if (is(n, "when")) {
        heimr_choice(out, json_string("after"), "after them");
        heimr_choice(out, json_string("before"), "just before them");
        return RULES_CHOICES_PICK;
    }
    if (is(n, "type")) {
        static const char *const TYPES[] = {"standard", "free", "ongoing", "upcoming", NULL};
        heimr_choice(out, NULL, "as the book says");
        for (int i = 0; TYPES[i]; i++)
            heimr_choice(out, json_string(TYPES[i]), TYPES[i]);
        return RULES_CHOICES_PICK;
    }
    if (is(n, "what") || is(n, "action")) {
        if (is(n, "action"))
            heimr_choice(out, NULL, "an attack");
        for (int i = 0; BOOK[i].what; i++)
            heimr_choice(out, json_string(BOOK[i].what), BOOK[i].label);
        return RULES_CHOICES_PICK;
    }
    if (is(n, "effect")) {
        static const char *const EFFECTS[] = {"hit",     "drain",  "fall", "drop", "daze",
                                              "stumble", "weaken", "bind", NULL};
        for (int i = 0; EFFECTS[i]; i++)
            heimr_choice(out, json_string(EFFECTS[i]), EFFECTS[i]);
        return RULES_CHOICES_PICK;
    }
    if (is(n, "difficult")) {
        heimr_choice(out, NULL, "as it is");
        heimr_choice(out, json_false(), "no");
        heimr_choice(out, json_true(), "yes");
        return RULES_CHOICES_PICK;
    }
    if (actor && is(n, "helpers")) {
        helper_choices(e, actor, out);
        return RULES_CHOICES_PICK;
    }
    if (actor && is(n, "target") && is(act, "act")) {
        /* a Charge's opponent: those the charger may charge (on the map, the squares next to
         * its own along an axis: 001:61, 001:344; grid.c) */
        json_t *foes = json_array();
        size_t i;
        json_t *c;
        heimr_choice(out, NULL, "no one (only a charge names an opponent)");
        heimr_choose_combatants(e, actor, HEIMR_FOES, foes);
        json_array_foreach(foes, i, c)
        {
            tb_err err = {0};
            if (!heimr_charge_check(e, actor, json_string_value(json_object_get(c, "value")), &err))
                json_array_append(out, c);
        }
        json_decref(foes);
        return RULES_CHOICES_PICK;
    }
    if (is(n, "target") && !is(act, "delay")) {
        /* anyone, the fallen too (a GM's effect, a blow on the helpless); a guard is for an ally
         * (001:450); moving an ally takes one pair of hands (001:462) */
        if (is(act, "ready"))
            heimr_choice(out, NULL, "whoever triggers it");
        heimr_choose_combatants(e, actor,
                                is(act, "guard") ? HEIMR_ALLIES | HEIMR_OUT
                                : is(act, "carry")
                                    ? HEIMR_ALLIES | HEIMR_FOES | HEIMR_OUT | HEIMR_ALLIES_FIRST
                                    : HEIMR_ALLIES | HEIMR_FOES | HEIMR_OUT,
                                out);
        return RULES_CHOICES_PICK;
    }
    if (actor && is(n, "target") && is(act, "delay")) {
        json_t *order = json_object_get(e->enc, "order");
        size_t i;
        json_t *v;
        json_array_foreach(order, i, v)
        {
            const char *o = json_string_value(v);
            if (o && !rules_enc_streq(o, actor))
                heimr_choice(out, json_string(o), rules_enc_name(e, o));
        }
        return RULES_CHOICES_PICK;
    }
    return RULES_CHOICES_NONE;
}

/* ---- heimr.chase ---- */

int heimr_chase_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                        const rules_param *p, json_t *out)
{
    const char *terrain = json_string_value(json_object_get(e->enc, "ability"));
    if (is(p->name, "c") || is(p->name, "p")) {
        /* the GM's numbers only for one whose sheet lacks the terrain's ability */
        char key[64];
        heimr_lower_key(terrain, key, sizeof key);
        int has =
            actor && json_object_get(json_object_get(heimr_stats_of(e, actor), "abilities"), key);
        heimr_choice(out, has ? NULL : json_integer(0), has ? "the sheet's" : "");
        return RULES_CHOICES_DEFAULT;
    }
    if (is(a->name, "offer")) {
        /* 001:306 other ground: the abilities the chase's characters have */
        json_t *seen = json_object();
        const char *cid;
        for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
            json_t *mine = json_array();
            heimr_choose_abilities(e, cid, 0, mine);
            size_t k;
            json_t *c;
            json_array_foreach(mine, k, c)
            {
                const char *name = json_string_value(json_object_get(c, "value"));
                char key[64];
                heimr_lower_key(name, key, sizeof key);
                if ((terrain && strcasecmp(name, terrain) == 0) || json_object_get(seen, key))
                    continue;
                json_object_set_new(seen, key, json_true());
                json_array_append(out, c);
            }
            json_decref(mine);
        }
        /* 001:306 the book's own examples: a building to climb, a river to swim */
        static const char *const GROUND[] = {"Climbing", "Swimming", NULL};
        for (int i = 0; GROUND[i]; i++) {
            char key[64];
            heimr_lower_key(GROUND[i], key, sizeof key);
            if ((!terrain || strcasecmp(GROUND[i], terrain) != 0) && !json_object_get(seen, key))
                heimr_choice(out, json_string(GROUND[i]), GROUND[i]);
        }
        json_decref(seen);
        return RULES_CHOICES_PICK;
    }
    if (is(p->name, "take")) {
        heimr_choice(out, json_true(), "take the new ground");
        heimr_choice(out, json_false(), "keep to this ground");
        return RULES_CHOICES_PICK;
    }
    return RULES_CHOICES_NONE;
}

/* ---- heimr.between ---- */

/* The XP the next level of ability ab's training `field` costs (001:219). */
static long next_cost(const json_t *ab, const char *field)
{
    return heimr_xp_cost((int)json_integer_value(json_object_get(ab, field)) + 1);
}

int heimr_between_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                          const rules_param *p, json_t *out)
{
    const char *n = p->name;
    if (is(a->name, "award") || is(a->name, "cross") || (is(a->name, "fall") && is(n, "height"))) {
        if (is(n, "jump") || (is(a->name, "cross") && is(n, "height")))
            return RULES_CHOICES_NONE;
        /* 001:217 the book's example award; 001:496 a window; the lowest fall (001:521) */
        heimr_choice(out, json_integer(is(n, "xp") ? 10 : is(n, "cr") ? 5 : 2), "");
        return RULES_CHOICES_DEFAULT;
    }
    if (is(a->name, "challenge") && is(n, "cr")) {
        heimr_choice(out, json_integer(5), ""); /* 001:496 the book's window */
        return RULES_CHOICES_DEFAULT;
    }
    if (is(a->name, "challenge") && is(n, "ability") && actor) {
        /* the sheet's abilities, then the standard ones it does not list (001:201-209) */
        size_t i;
        json_t *ab;
        json_array_foreach(json_object_get(heimr_stats_of(e, actor), "abilities"), i, ab)
        {
            const char *name = json_string_value(json_object_get(ab, "name"));
            if (name)
                heimr_choice(out, json_string(name), name);
        }
        static const char *const STD[] = {"Brawl",      "Agility", "Survival", "Perception",
                                          "Persuasion", "Insight", NULL};
        for (int k = 0; STD[k]; k++) {
            int listed = 0;
            json_array_foreach(out, i, ab) listed |=
                strcasecmp(json_string_value(json_object_get(ab, "value")), STD[k]) == 0;
            if (!listed)
                heimr_choice(out, json_string(STD[k]), STD[k]);
        }
        return RULES_CHOICES_PICK;
    }
    if (!is(a->name, "train") || !actor)
        return RULES_CHOICES_NONE;
    json_t *abilities = json_object_get(heimr_stats_of(e, actor), "abilities");
    if (is(n, "ability")) {
        /* what the XP on the sheet pays for first */
        long xp = heimr_stat(e, actor, "xp", 0);
        for (int affordable = 1; affordable >= 0; affordable--) {
            size_t i;
            json_t *ab;
            json_array_foreach(abilities, i, ab)
            {
                const char *name = json_string_value(json_object_get(ab, "name"));
                int can = next_cost(ab, "trained_consistency") <= xp ||
                          next_cost(ab, "trained_potential") <= xp;
                if (name && can == affordable)
                    heimr_choice(out, json_string(name), name);
            }
        }
        return RULES_CHOICES_PICK;
    }
    if (is(n, "kind")) {
        heimr_choice(out, json_string("potential"), "potential");
        heimr_choice(out, json_string("consistency"), "consistency");
        return RULES_CHOICES_PICK;
    }
    if (is(n, "attribute")) {
        static const char *const ATTRS[] = {"str", "dex", "sta", "int", "soc", "emp", NULL};
        static const char *const WORDS[] = {"strength",     "dexterity",   "stamina",
                                            "intelligence", "sociability", "empathy"};
        heimr_choice(out, NULL, "the first it is based on");
        for (int i = 0; ATTRS[i]; i++)
            heimr_choice(out, json_string(ATTRS[i]), WORDS[i]);
        return RULES_CHOICES_PICK;
    }
    return RULES_CHOICES_NONE;
}
