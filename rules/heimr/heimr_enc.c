/*
 * heimr_enc.c — the first layer of what the Heimr encounter modules share (heimr_enc.h): the
 * sheet in a combatant's stats, what a roll is made with, rolls, fatigue and the turn's limits.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "heimr_enc.h"

/* ---- small helpers ---- */

json_t *heimr_priv(rules_enc *e, const char *cid)
{
    return rules_enc_is_npc(e, cid) ? rules_enc_hidden_of(e, cid) : rules_enc_combatant(e, cid);
}

json_t *heimr_priv_of(const rules_enc *e, const char *cid)
{
    if (!rules_enc_is_npc(e, cid))
        return rules_enc_combatant(e, cid);
    return json_object_get(json_object_get(e->hidden, "combatants"), cid);
}

int heimr_is_true(const json_t *o, const char *key)
{
    return json_is_true(json_object_get(o, key));
}

void heimr_set_bool(json_t *o, const char *key, int v)
{
    if (v)
        json_object_set_new(o, key, json_true());
    else
        json_object_del(o, key);
}

void heimr_lower_key(const char *s, char *out, size_t n)
{
    size_t i = 0;
    for (; s && s[i] && i + 1 < n; i++)
        out[i] = (char)tolower((unsigned char)s[i]);
    out[i] = 0;
}

json_t *heimr_stats_of(const rules_enc *e, const char *cid)
{
    /* where rules_enc_stats keeps them: public for a PC, /gm/enc for an NPC */
    json_t *c = rules_enc_combatant(e, cid);
    if (c && !rules_enc_is_npc(e, cid))
        return json_object_get(c, "stats");
    return json_object_get(json_object_get(json_object_get(e->hidden, "combatants"), cid), "stats");
}

int heimr_stat(const rules_enc *e, const char *cid, const char *key, int def)
{
    json_t *v = json_object_get(heimr_stats_of(e, cid), key);
    return json_is_integer(v) ? (int)json_integer_value(v) : def;
}

/* ---- body parts (001:409-414) ---- */

/* 001:413-414 "Torso 5 or 6, Sword arm 4, Other arm 3, Right leg 2, Left leg 1" */
const char *const HEIMR_PART_BY_D6[6] = {"left_leg",  "right_leg", "other_arm",
                                         "sword_arm", "torso",     "torso"};

int heimr_is_part(const char *s)
{
    for (int i = 0; heimr_parts[i]; i++)
        if (strcmp(s, heimr_parts[i]) == 0)
            return 1;
    return 0;
}

const char *heimr_part_words(const char *part)
{
    static const char *const WORDS[] = {"torso", "sword arm", "other arm", "right leg", "left leg"};
    for (int i = 0; part && heimr_parts[i]; i++)
        if (strcmp(part, heimr_parts[i]) == 0)
            return WORDS[i];
    return "body";
}

/* ---- rolls ---- */

static int clamp_c(int c)
{
    return c > HEIMR_MAX_C ? HEIMR_MAX_C : c < -HEIMR_MAX_C ? -HEIMR_MAX_C : c;
}

void heimr_enc_roll(int c, int p, rules_rng *rng, heimr_roll *out)
{
    tb_err err = {0};
    heimr_challenge_roll(clamp_c(c), p, rng, out, &err); /* cannot fail once clamped */
}

void heimr_enc_recast(heimr_roll *r, int c, rules_rng *rng)
{
    tb_err err = {0};
    heimr_roll_recast(r, clamp_c(c), rng, &err);
}

void heimr_roll_dice(json_t *dice, const heimr_roll *r, const char *by)
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

json_t *heimr_roll_json(const heimr_roll *r)
{
    json_t *d10 = json_array();
    for (int i = 0; i < r->n10; i++)
        json_array_append_new(d10, json_integer(r->d10[i]));
    return json_pack("{s:i, s:i, s:i, s:i, s:o, s:i, s:i, s:i, s:i}", "consistency", r->c,
                     "potential", r->p, "result", r->result, "d6", r->d6, "d10s", d10, "die",
                     r->die, "bonus", r->bonus, "penalty", r->penalty, "before_potential",
                     r->before_potential);
}

/* ---- the turn's limits ---- */

int heimr_can_act_check(const rules_enc *e, const char *cid, tb_err *err)
{
    /* 001:128 "You can not attack, defend or use a skill", 001:280 "You can not take any actions
     * during your turn" */
    if (rules_enc_cond_has(e, cid, "daze"))
        return rules_enc_rule(err,
                              "%s is dazed and can take no actions this turn, only end it "
                              "(001:280)",
                              rules_enc_name(e, cid));
    return 0;
}

void heimr_mark_acted(rules_enc *e, const char *cid)
{
    json_object_set_new(rules_enc_combatant(e, cid), "acted", json_true());
}

int heimr_budget_check(const rules_enc *e, const char *cid, const char *kind, tb_err *err)
{
    json_t *b = json_object_get(rules_enc_combatant(e, cid), "budget");
    if (json_integer_value(json_object_get(b, kind)) < 1)
        return rules_enc_rule(err, "%s has no %s left this turn", rules_enc_name(e, cid), kind);
    return 0;
}

int heimr_free_check(const rules_enc *e, const char *cid, const char *name, tb_err *err)
{
    char key[64];
    heimr_lower_key(name, key, sizeof key);
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(rules_enc_combatant(e, cid), "free_used"), i, v)
    {
        if (rules_enc_streq(json_string_value(v), key))
            return rules_enc_rule(err,
                                  "%s has already used the free action '%s' this turn (001:325)",
                                  rules_enc_name(e, cid), name);
    }
    return 0;
}

void heimr_free_use(rules_enc *e, const char *cid, const char *name)
{
    char key[64];
    heimr_lower_key(name, key, sizeof key);
    json_t *c = rules_enc_combatant(e, cid);
    json_t *used = json_object_get(c, "free_used");
    if (!json_is_array(used)) {
        used = json_array();
        json_object_set_new(c, "free_used", used);
    }
    json_array_append_new(used, json_string(key));
    heimr_mark_acted(e, cid);
}

/* ---- abilities (from the sheet, in the combatant's stats) ---- */

static const char *const STANDARD[][2] = {{"Brawl", "str"},      {"Agility", "dex"},
                                          {"Survival", "sta"},   {"Perception", "int"},
                                          {"Persuasion", "soc"}, {"Insight", "emp"}};

int heimr_is_physical(const char *attr)
{
    /* 001:31-34 the physical group: strength, dexterity, stamina */
    return attr &&
           (strcmp(attr, "str") == 0 || strcmp(attr, "dex") == 0 || strcmp(attr, "sta") == 0);
}

const char *heimr_standard_name(const char *ability)
{
    for (size_t i = 0; ability && i < sizeof STANDARD / sizeof STANDARD[0]; i++)
        if (strcasecmp(ability, STANDARD[i][0]) == 0)
            return STANDARD[i][0];
    return NULL;
}

const char *heimr_standard_attr(const char *ability)
{
    for (size_t i = 0; ability && i < sizeof STANDARD / sizeof STANDARD[0]; i++)
        if (strcasecmp(ability, STANDARD[i][0]) == 0)
            return STANDARD[i][1];
    return NULL;
}

static void put_ability(json_t *map, const char *name, int c, int p, int phys)
{
    char key[64];
    heimr_lower_key(name, key, sizeof key);
    json_object_set_new(
        map, key,
        json_pack("{s:s, s:i, s:i, s:b}", "name", name, "c", c, "p", p, "physical", phys));
}

/* stats.abilities and stats.items from the sheet. */
static void abilities_from_sheet(json_t *stats, const json_t *sheet)
{
    json_t *map = json_object();
    /* 001:201-209 the six standard abilities: base potential = the attribute (001:191); their
     * base consistency is the GM's (001:185): 0 when the sheet does not list the ability
     * (RULES.md, heimr encounter reading 2). */
    for (size_t i = 0; i < sizeof STANDARD / sizeof STANDARD[0]; i++)
        put_ability(map, STANDARD[i][0], 0, heimr_attr(sheet, STANDARD[i][1]),
                    heimr_is_physical(STANDARD[i][1]));
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
            attrs[n++] = heimr_attr(sheet, a);
            /* 001:284 "Any roll based on a physical attribute": one physical attribute is
             * enough (RULES.md, heimr encounter reading 3) */
            phys |= heimr_is_physical(a);
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
        heimr_lower_key(name, key, sizeof key);
        json_t *o = json_pack("{s:s, s:i, s:i}", "name", name, "c",
                              (int)json_integer_value(json_object_get(it, "consistency_bonus")),
                              "p", (int)json_integer_value(json_object_get(it, "potential_bonus")));
        if (abl)
            json_object_set_new(o, "ability", json_string(abl));
        json_object_set_new(items, key, o);
    }
    json_object_set_new(stats, "items", items);
}

void heimr_join_stats(rules_enc *e, const char *cid, const json_t *sheet)
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
    rules_enc_stat_set(e, cid, "dex", heimr_attr(sheet, "dex"));
    rules_enc_stat_set(e, cid, "base_fatigue", heimr_base_fatigue(heimr_attr(sheet, "sta")));
    abilities_from_sheet(stats, sheet);
}

int heimr_spec_resolve(const rules_enc *e, const char *cid, const char *ability, const char *item,
                       int has_cp, int c, int p, heimr_spec *out, tb_err *err)
{
    memset(out, 0, sizeof *out);
    json_t *stats = heimr_stats_of(e, cid);
    json_t *it = NULL;
    char key[104];
    if (item) {
        heimr_lower_key(item, key, sizeof key);
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
        heimr_lower_key(ability, key, sizeof key);
        json_t *ab = json_object_get(json_object_get(stats, "abilities"), key);
        if (!ab)
            return rules_enc_rule(err, "%s has no ability '%.60s' on their sheet",
                                  rules_enc_name(e, cid), ability);
        snprintf(out->ability, sizeof out->ability, "%s",
                 json_string_value(json_object_get(ab, "name")));
        out->c = (int)json_integer_value(json_object_get(ab, "c"));
        out->p = (int)json_integer_value(json_object_get(ab, "p"));
        out->phys = heimr_is_true(ab, "physical");
    }
    if (it) {
        /* 001:179 item bonuses */
        out->c += (int)json_integer_value(json_object_get(it, "c"));
        out->p += (int)json_integer_value(json_object_get(it, "p"));
    }
    return 0;
}

/* ---- fatigue (001:282-314) ---- */

int heimr_fatigue_rise(rules_enc *e, const char *cid, int d6)
{
    json_t *p = heimr_priv(e, cid);
    int f = rules_enc_stat(e, cid, "fatigue", 1);
    int next = heimr_fatigue_after(f, d6);
    if (next == f || heimr_is_true(p, "fatigue_rose"))
        return 0;
    rules_enc_stat_set(e, cid, "fatigue", next);
    heimr_set_bool(p, "fatigue_rose", 1);
    return 1;
}

/* ---- the breath back after a scene (001:292, 001:304) ---- */

void heimr_breath_back(rules_enc *e)
{
    /* 001:292 "When characters get the opportunity to take a breather, their fatigue returns to
     * it's standard level ... only takes a few seconds, up to half a minute"; 001:304 "only by
     * standing still can fatigue be restored to it's base" */
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        int f = rules_enc_stat(e, cid, "fatigue", 1);
        int base = rules_enc_stat(e, cid, "base_fatigue", 1);
        if (f <= base)
            continue;
        rules_enc_stat_set(e, cid, "fatigue", base);
        rules_log *x = rules_log_begin(e, "end", "breath-back");
        rules_log_who(x, "who", cid);
        rules_log_int(x, "fatigue", base, rules_enc_aud_of(e, cid)); /* an NPC's: the GM's */
        rules_log_end(x);
    }
}

/* ---- log helpers ---- */

void heimr_tell(rules_enc *e, const char *action, const char *event, const char *cid,
                const char *other)
{
    rules_log *x = rules_log_begin(e, action, event);
    rules_log_who(x, "who", cid);
    if (other)
        rules_log_who(x, "whom", other);
    rules_log_end(x);
}

void heimr_log_roll(rules_log *x, const heimr_roll *r, const char *by, rules_aud aud)
{
    json_t *dice = json_array();
    heimr_roll_dice(dice, r, by);
    rules_log_dice(x, dice, aud);
    json_decref(dice);
    rules_log_int(x, "consistency", r->c, aud);
    rules_log_int(x, "potential", r->p, aud);
    rules_log_int(x, "result", r->result, aud);
    rules_log_int(x, "d6", r->d6, aud);
    json_t *d10 = json_array();
    for (int i = 0; i < r->n10; i++)
        json_array_append_new(d10, json_integer(r->d10[i]));
    rules_log_json(x, "d10s", d10, aud);
    rules_log_int(x, "die", r->die, aud);
    rules_log_int(x, "bonus", r->bonus, aud);
    rules_log_int(x, "penalty", r->penalty, aud);
    rules_log_int(x, "before_potential", r->before_potential, aud);
}

void heimr_names_join(const rules_enc *e, const char *const *ids, int n, int and, char *out,
                      size_t cap)
{
    /* names only, never a number */
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        const char *sep = i == 0 ? "" : i + 1 == n && and? " and " : ", ";
        const char *name = rules_enc_name(e, ids[i]);
        if (strlen(out) + strlen(sep) + strlen(name) + 1 > cap)
            break;
        strcat(out, sep);
        strcat(out, name);
    }
}

/* ---- choices: what the sheet and the encounter hold, for the moves (rules/encounter.h) ---- */

void heimr_choice(json_t *out, json_t *value, const char *label)
{
    json_array_append_new(
        out, json_pack("{s:o, s:s}", "value", value ? value : json_null(), "label", label));
}

static int is_standard(const char *name)
{
    for (size_t i = 0; i < sizeof STANDARD / sizeof STANDARD[0]; i++)
        if (strcasecmp(name, STANDARD[i][0]) == 0)
            return 1;
    return 0;
}

void heimr_choose_abilities(const rules_enc *e, const char *cid, int phys, json_t *out)
{
    json_t *map = json_object_get(heimr_stats_of(e, cid), "abilities");
    /* the sheet's own abilities first, then the standard ones (001:201-209) */
    for (int standard = 0; standard < 2; standard++) {
        const char *k;
        json_t *ab;
        json_object_foreach(map, k, ab)
        {
            const char *name = json_string_value(json_object_get(ab, "name"));
            if (!name || is_standard(name) != standard || (phys && !heimr_is_true(ab, "physical")))
                continue;
            heimr_choice(out, json_string(name), name);
        }
    }
}

int heimr_choose_items(const rules_enc *e, const char *cid, int armed, json_t *out)
{
    int n = 0;
    const char *k;
    json_t *it;
    json_object_foreach(json_object_get(heimr_stats_of(e, cid), "items"), k, it)
    {
        const char *name = json_string_value(json_object_get(it, "name"));
        if (!name || (armed && !json_object_get(it, "ability")))
            continue;
        heimr_choice(out, json_string(name), name);
        n++;
    }
    return n;
}

void heimr_choose_parts(json_t *out)
{
    for (int i = 0; heimr_parts[i]; i++)
        heimr_choice(out, json_string(heimr_parts[i]), heimr_part_words(heimr_parts[i]));
}

void heimr_choose_combatants(const rules_enc *e, const char *cid, unsigned which, json_t *out)
{
    /* those standing first (foes, then allies: HEIMR_ALLIES_FIRST the other way), then those
     * who are out */
    for (int pass = 0; pass < 4; pass++) {
        int down = pass / 2, ally = (pass % 2) ^ ((which & HEIMR_ALLIES_FIRST) != 0);
        if (!(which & (ally ? HEIMR_ALLIES : HEIMR_FOES)) || (down && !(which & HEIMR_OUT)))
            continue;
        const char *o;
        for (size_t i = 0; (o = rules_enc_cid_at(e, i)); i++) {
            if (rules_enc_streq(o, cid) || rules_enc_is_out(e, o) != down ||
                rules_enc_streq(rules_enc_side(e, o), rules_enc_side(e, cid)) != ally)
                continue;
            heimr_choice(out, json_string(o), rules_enc_name(e, o));
        }
    }
}
