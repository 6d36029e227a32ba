/*
 * monsters.c — FIVEY's monsters (fivey_enc.h): the example monsters of 004:748-767, the brackets
 * (mook, grunt, elite, lieutenant, boss: hit dice, general ability, damage die, XP by defense
 * class, 004:715-742), and the GM's actions that make an NPC from them: spawn (a new NPC in one
 * step) and bracket (an NPC's numbers). Rulebook 004_110cc4af3ff93059.txt, cited as 004:LINE;
 * readings in rules/RULES.md, fivey, readings E3 and E4.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "fivey_enc.h"

/* ---- monsters (004:715-767) ---- */

static const fivey_monster MONSTERS[] = {
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
#define N_MONSTERS (sizeof MONSTERS / sizeof MONSTERS[0])

const fivey_monster *fivey_monster_at(size_t i)
{
    return i < N_MONSTERS ? &MONSTERS[i] : NULL;
}

const fivey_monster *fivey_monster_named(const char *name)
{
    const fivey_monster *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; name && i < N_MONSTERS; i++) {
        size_t n = strlen(MONSTERS[i].name);
        if (strncasecmp(name, MONSTERS[i].name, n) == 0 && !isalpha((unsigned char)name[n]) &&
            n > best_len) {
            best = &MONSTERS[i];
            best_len = n;
        }
    }
    return best;
}

char fivey_bracket_letter(const char *s)
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

char fivey_bracket_of_hd(int hd)
{
    /* 004:720-724 HD 1, 2, 4, 8, 16 */
    return hd >= 16 ? 'B' : hd >= 8 ? 'L' : hd >= 4 ? 'E' : hd >= 2 ? 'G' : 'M';
}

const char *fivey_bracket_name(char b)
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

void fivey_set_bracket(rules_enc *e, const char *cid, char b, int dc, int hp, json_t *dice)
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

/* ---- the GM's actions ---- */

/* The example monster spawn names (its `monster`, else its `name`), or NULL. */
static const fivey_monster *spawn_monster(const rules_args *a)
{
    const char *mname = rules_arg_str(a, "monster");
    return fivey_monster_named(mname ? mname : rules_arg_str(a, "name"));
}

int fivey_spawn_check(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *mname = rules_arg_str(a, "monster");
    const fivey_monster *m = spawn_monster(a);
    if (mname && !m)
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act spawn: no example monster '%.40s' (004:746-767)", mname);
    if (rules_arg_str(a, "bracket") && !fivey_bracket_letter(rules_arg_str(a, "bracket")))
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act spawn: 'bracket' is one of M, G, E, L, B (004:719-724)");
    if (!rules_arg_str(a, "bracket") && !m)
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act spawn: give a 'bracket' or an example "
                       "'monster'");
    /* the words of rules_enc_add_combatant */
    if (json_object_size(json_object_get(e->enc, "combatants")) >= RULES_ENC_MAX_COMBATANTS)
        return rules_enc_rule(err, "an encounter holds at most %d combatants",
                              RULES_ENC_MAX_COMBATANTS);
    return 0;
}

int fivey_spawn(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *name = rules_arg_str(a, "name");
    const fivey_monster *m = spawn_monster(a);
    char b = rules_arg_str(a, "bracket") ? fivey_bracket_letter(rules_arg_str(a, "bracket"))
                                         : fivey_bracket_of_hd(m->hd);
    int dc = rules_arg_given(a, "dc") ? rules_arg_int(a, "dc") : m ? m->dc : 12;
    const char *side = rules_arg_str(a, "side");
    if (!side)
        side = "foes";
    char cid[24];
    if (rules_enc_add_combatant(e, name, side, "gm", 1, cid, err))
        return err->code;
    json_t *dice = json_array();
    fivey_set_bracket(e, cid, b, dc, rules_arg_int(a, "hp"), dice);
    if (m && !rules_arg_given(a, "bracket") && !rules_arg_given(a, "dc"))
        json_object_set_new(rules_enc_stats(e, cid), "xp", json_integer(m->xp));
    if (rules_enc_round(e) > 0)
        json_array_append_new(json_object_get(e->enc, "order"), json_string(cid));
    rules_log *x = rules_log_begin(e, "join", "join");
    rules_log_who(x, "who", cid);
    rules_log_name(x, "side", side, RULES_AUD_PUBLIC);
    rules_log_json(x, "id", json_string(cid), RULES_AUD_PUBLIC);
    rules_log_end(x);
    x = fivey_log_bracket(e, "spawn_bracket", cid, dice);
    json_decref(dice);
    rules_log_name(x, "cid", json_string_value(json_object_get(rules_enc_combatant(e, cid), "id")),
                   RULES_AUD_GM);
    if (m)
        rules_log_name(x, "monster", m->name, RULES_AUD_GM);
    else
        rules_log_word(x, "monster", "spawn.by_bracket", RULES_AUD_GM);
    rules_log_end(x);
    return 0;
}

int fivey_bracket_check(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    if (!rules_enc_is_npc(e, t))
        return rules_enc_rule(err,
                              "%s is a player character: the sheet gives the numbers "
                              "(004:715 brackets are for monsters)",
                              rules_enc_name(e, t));
    if (!fivey_bracket_letter(rules_arg_str(a, "bracket")))
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act bracket: 'bracket' is one of M, G, E, L, B "
                       "(mook, grunt, elite, lieutenant, boss; 004:719-724)");
    return 0;
}

int fivey_bracket(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    char b = fivey_bracket_letter(rules_arg_str(a, "bracket"));
    int dc = rules_arg_int(a, "dc");
    json_t *dice = json_array();
    fivey_set_bracket(e, t, b, dc, rules_arg_int(a, "hp"), dice);
    rules_log *x = fivey_log_bracket(e, "bracket_set", t, dice);
    json_decref(dice);
    rules_log_name(x, "kind", fivey_bracket_name(b), RULES_AUD_GM);
    rules_log_end(x);
    return 0;
}

/* spawn's example monsters and brackets, bracket's NPCs and brackets; the numbers the rules work
 * out when they are left out. */
int fivey_monster_choices(const rules_enc *e, const rules_enc_action *a, const rules_param *p,
                          json_t *out)
{
    const char *name = p->name;
    int spawn = strcmp(a->name, "spawn") == 0;
    if (spawn && strcmp(name, "monster") == 0) {
        fivey_choice(out, NULL, "none: by bracket, or by its name");
        const fivey_monster *m;
        for (size_t i = 0; (m = fivey_monster_at(i)); i++)
            fivey_choice(out, json_string(m->name), m->name);
        return RULES_CHOICES_PICK;
    }
    if (strcmp(name, "bracket") == 0) {
        static const char *const B[] = {"M", "G", "E", "L", "B", NULL};
        if (spawn)
            fivey_choice(out, NULL, "the example monster's");
        for (const char *const *b = B; *b; b++)
            fivey_choice(out, json_string(*b), fivey_bracket_name(**b));
        return RULES_CHOICES_PICK;
    }
    if (!spawn && strcmp(name, "target") == 0) {
        const char *k;
        for (size_t i = 0; (k = rules_enc_cid_at(e, i)); i++)
            if (rules_enc_is_npc(e, k))
                fivey_choice(out, json_string(k), rules_enc_name(e, k));
        return RULES_CHOICES_PICK;
    }
    if (strcmp(name, "hp") == 0 || (spawn && strcmp(name, "dc") == 0)) {
        fivey_choice(out, NULL,
                     name[0] == 'h' ? "roll its hit dice" : "the example monster's, else 12");
        return RULES_CHOICES_DEFAULT;
    }
    return RULES_CHOICES_NONE;
}
