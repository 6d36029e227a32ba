/*
 * spells.c — casting a FIVEY spell in an encounter (fivey_enc.h): one of the caster's casts
 * (stats.spell_slots, reading 12) on a spell the sheet carries, at its level [L] (004:485).
 * Fire Ball and Lightning Bolt: [L]d6 to each target, halved (rounded down) for those who save
 * with d20 + DEX against the caster's 10 + INT (004:493, 004:501, 004:375; reading 13); Charm:
 * d20 + INT against 10 + the target's CHA (004:680), charmed for [L]d6 hours; Turn Undead: [L]d6
 * hit dice worth, the GM picks which undead (004:505); the others: their duration, [L]d6 of the
 * spell's unit. Rulebook 004_110cc4af3ff93059.txt, cited as 004:LINE.
 */
#include <stdio.h>
#include <string.h>

#include "fivey_enc.h"

#define MAX_TARGETS 4 /* target, target2, target3, target4 */

const rules_param fivey_cast_params[] = {
    {"spell", RULES_PARAM_STRING, 1, 40, 0, RULES_PARAM_REQUIRED, "which spell the sheet carries"},
    {"target", RULES_PARAM_STRING, 1, 32, 0, 0, "on whom (Charm, Fire Ball, Lightning Bolt)"},
    {"target2", RULES_PARAM_STRING, 1, 32, 0, 0, "a second target in the blast"},
    {"target3", RULES_PARAM_STRING, 1, 32, 0, 0, "a third target"},
    {"target4", RULES_PARAM_STRING, 1, 32, 0, 0, "a fourth target"},
    {0},
};

static const char *const TARGET_PARAMS[] = {"target", "target2", "target3", "target4"};

json_t *fivey_spell_carried(const rules_enc *e, const char *cid, const char *name)
{
    size_t i;
    json_t *sp;
    json_array_foreach(json_object_get(rules_enc_stats_peek(e, cid), "spells"), i, sp)
    {
        if (rules_enc_streq(json_string_value(json_object_get(sp, "name")), name))
            return sp;
    }
    return NULL;
}

/* The targets a names, in parameter order, into t; returns how many. */
static int targets_of(const rules_args *a, const char *t[MAX_TARGETS])
{
    int n = 0;
    for (int i = 0; i < MAX_TARGETS; i++)
        if (rules_arg_str(a, TARGET_PARAMS[i]))
            t[n++] = rules_arg_str(a, TARGET_PARAMS[i]);
    return n;
}

int fivey_cast_check(const rules_enc *e, const rules_args *a, int cost, tb_err *err)
{
    const char *me = e->actor, *name = rules_arg_str(a, "spell");
    const fivey_spell *spell = fivey_spell_named(name);
    if (!spell)
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act cast: there is no spell called '%.40s' (004:487-505)", name);
    if (!fivey_spell_carried(e, me, name))
        return rules_enc_rule(err, "%s does not carry the spell %s (004:483)",
                              rules_enc_name(e, me), spell->name);
    json_t *slots = json_object_get(rules_enc_stats_peek(e, me), "spell_slots");
    if (json_integer_value(json_object_get(slots, "used")) >=
        json_integer_value(json_object_get(slots, "max")))
        return rules_enc_rule(err, "%s has no spell casts left until a rest",
                              rules_enc_name(e, me));
    const char *targets[MAX_TARGETS];
    int nt = targets_of(a, targets);
    for (int i = 0; i < nt; i++) {
        for (int j = 0; j < i; j++)
            if (strcmp(targets[j], targets[i]) == 0)
                return tb_fail(err, TB_BAD_REQUEST, "enc.act cast: %s is named twice",
                               rules_enc_name(e, targets[i]));
        if (rules_enc_is_out(e, targets[i]))
            return rules_enc_rule(err, "%s is out of the fight", rules_enc_name(e, targets[i]));
    }
    if (spell->kind == FIVEY_SPELL_SAVE && nt == 0)
        return tb_fail(err, TB_BAD_REQUEST, "enc.act cast: %s needs a target", spell->name);
    if (spell->kind == FIVEY_SPELL_MENTAL && nt != 1)
        return tb_fail(err, TB_BAD_REQUEST, "enc.act cast: %s is cast on one creature (004:489)",
                       spell->name);
    if (spell->kind == FIVEY_SPELL_MENTAL && strcmp(targets[0], me) == 0)
        return tb_fail(err, TB_BAD_REQUEST, "enc.act cast: a caster does not charm itself");
    return cost ? fivey_budget_check(e, me, cost, err) : 0;
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

/* Each target's words and values (spells.c's phrasings in fivey_enc_phrases: "cast.t1"...). */
static const struct target_keys {
    const char *key, *word, *who, *saved, *vs, *vs_word, *natural, *dex, *total, *hurt;
} TK[MAX_TARGETS] = {
    {"t1", "cast.t1", "t1_who", "t1_saved", "t1_vs", "cast.t1_vs", "t1_natural", "t1_dex",
     "t1_total", "t1_hurt"},
    {"t2", "cast.t2", "t2_who", "t2_saved", "t2_vs", "cast.t2_vs", "t2_natural", "t2_dex",
     "t2_total", "t2_hurt"},
    {"t3", "cast.t3", "t3_who", "t3_saved", "t3_vs", "cast.t3_vs", "t3_natural", "t3_dex",
     "t3_total", "t3_hurt"},
    {"t4", "cast.t4", "t4_who", "t4_saved", "t4_vs", "cast.t4_vs", "t4_natural", "t4_dex",
     "t4_total", "t4_hurt"},
};

/* Fire Ball, Lightning Bolt: [L]d6 rolled once, each target saves (reading 13). The table sees
 * the damage, who saves and what each takes; a target's save is its own audience's, the DC its
 * caster's. */
static void cast_save(rules_enc *e, rules_log *x, int level, int dc, const char **targets, int nt)
{
    rules_aud mine = rules_enc_aud_of(e, e->actor);
    json_t *dice = json_array(), *hits = json_array();
    int dmg = roll_ld6(e, level, dice, "damage");
    rules_log_dice(x, dice, RULES_AUD_PUBLIC);
    json_decref(dice);
    rules_log_int(x, "dc", dc, mine);
    rules_log_int(x, "damage", dmg, RULES_AUD_PUBLIC);
    rules_log_word(x, "effect", "cast.save", RULES_AUD_PUBLIC);
    int hurt[MAX_TARGETS];
    char save_key[MAX_TARGETS][48]; /* the GM's "save_<cid>": alive until rules_log_end */
    for (int i = 0; i < nt; i++) {
        const char *t = targets[i];
        const struct target_keys *k = &TK[i];
        rules_aud theirs = rules_enc_aud_of(e, t);
        int dex = fivey_stat_of(e, t, "dex");
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
        rules_log_dice(x, sd, theirs);
        json_decref(sd);
        json_array_append_new(
            hits, json_pack("{s:s, s:b, s:i}", "target", t, "saved", saved, "damage", hurt[i]));
        rules_log_word(x, k->key, k->word, RULES_AUD_PUBLIC);
        rules_log_who(x, k->who, t);
        rules_log_word(x, k->saved, saved ? "cast.saves" : "cast.fails", RULES_AUD_PUBLIC);
        rules_log_word(x, k->vs, k->vs_word, theirs);
        rules_log_count(x, k->natural, r.natural, theirs);
        rules_log_count(x, k->dex, dex, theirs);
        rules_log_count(x, k->total, r.total, theirs);
        rules_log_count(x, k->hurt, hurt[i], RULES_AUD_PUBLIC);
        if (theirs == RULES_AUD_GM) {
            snprintf(save_key[i], sizeof save_key[i], "save_%s", t);
            rules_log_json(
                x, save_key[i],
                json_pack("{s:i, s:i, s:i}", "natural", r.natural, "bonus", dex, "total", r.total),
                RULES_AUD_GM);
        }
    }
    rules_log_json(x, "targets", hits, RULES_AUD_PUBLIC);
    rules_log_end(x);
    for (int i = 0; i < nt; i++)
        if (hurt[i] > 0)
            fivey_apply_damage(e, targets[i], hurt[i]);
}

/* Charm: d20 + INT against 10 + the target's CHA (004:680), charmed for [L]d6 hours. The roll
 * is the caster's audience's, the 10 + CHA the target's; the table sees whether it takes hold. */
static void cast_charm(rules_enc *e, rules_log *x, int level, const char *t)
{
    const char *me = e->actor;
    rules_aud mine = rules_enc_aud_of(e, me), theirs = rules_enc_aud_of(e, t);
    int in = fivey_stat_of(e, me, "int");
    int cha = fivey_stat_of(e, t, "cha"), against = fivey_passive(cha);
    json_t *dice = json_array();
    fivey_roll r;
    /* 004:680 "magic spells typically use intelligence (with charisma serving as the virtual
     * 'armor class' bonus for mental effects)" */
    fivey_roll_check(&r, e->rng, dice, in, FIVEY_EDGE_NONE, 0, 0);
    int hit = fivey_meets(r.total, against);
    rules_log_dice(x, dice, mine);
    json_decref(dice);
    rules_log_json(x, "target", json_string(t), RULES_AUD_PUBLIC);
    rules_log_json(x, "hit", json_boolean(hit), RULES_AUD_PUBLIC);
    rules_log_int(x, "natural", r.natural, mine);
    rules_log_int(x, "bonus", r.bonus, mine);
    rules_log_int(x, "total", r.total, mine);
    rules_log_int(x, "against", against, theirs);
    rules_log_word(x, "effect", "cast.charm", RULES_AUD_PUBLIC);
    rules_log_who(x, "whom", t);
    /* a PC's roll against a PC's charisma is the table's numbers, said nowhere in the words */
    if (mine == RULES_AUD_GM || theirs == RULES_AUD_GM)
        rules_log_word(x, "versus", "cast.charm_vs", RULES_AUD_GM);
    if (hit) {
        json_t *hd = json_array();
        int hours = roll_ld6(e, level, hd, "duration");
        rules_log_dice(x, hd, RULES_AUD_PUBLIC);
        json_decref(hd);
        rules_log_int(x, "hours", hours, RULES_AUD_PUBLIC);
        rules_log_word(x, "charmed", "cast.charmed", RULES_AUD_PUBLIC);
        json_t *c = rules_enc_cond_add(e, t, "charmed", 0, 0);
        json_object_set_new(c, "by", json_string(me));
        json_object_set_new(c, "hours", json_integer(hours));
    } else {
        rules_log_word(x, "charmed", "cast.resists", RULES_AUD_PUBLIC);
    }
    rules_log_end(x);
}

int fivey_cast(rules_enc *e, const rules_args *a, int cost, tb_err *err)
{
    const char *me = e->actor;
    const fivey_spell *spell = fivey_spell_named(rules_arg_str(a, "spell"));
    json_t *carried = fivey_spell_carried(e, me, spell->name);
    json_t *slots = json_object_get(rules_enc_stats(e, me), "spell_slots");
    int used = (int)json_integer_value(json_object_get(slots, "used"));
    int max = (int)json_integer_value(json_object_get(slots, "max"));
    const char *targets[MAX_TARGETS];
    int nt = targets_of(a, targets);
    if (cost && rules_enc_spend(e, me, FIVEY_BUDGET, cost, err))
        return err->code;

    int level = json_is_integer(json_object_get(carried, "level"))
                    ? (int)json_integer_value(json_object_get(carried, "level"))
                    : 1;
    rules_enc_stat_put(e, me, "spell_slots/used", json_integer(used + 1));
    rules_log *x = rules_log_begin(e, "cast", "cast");
    rules_log_who(x, "who", me);
    rules_log_name(x, "spell_name", spell->name, RULES_AUD_PUBLIC);
    rules_log_json(x, "spell", json_string(spell->name), RULES_AUD_PUBLIC);
    rules_log_int(x, "level", level, RULES_AUD_PUBLIC);
    rules_log_int(x, "casts_left", max - used - 1, RULES_AUD_PUBLIC);
    if (spell->kind == FIVEY_SPELL_SAVE) {
        cast_save(e, x, level, fivey_spell_dc(fivey_stat_of(e, me, "int")), targets, nt);
        return 0;
    }
    if (spell->kind == FIVEY_SPELL_MENTAL) {
        cast_charm(e, x, level, targets[0]);
        return 0;
    }
    if (spell->kind == FIVEY_SPELL_UNDEAD) {
        json_t *dice = json_array();
        int hd = roll_ld6(e, level, dice, "hit dice");
        rules_log_dice(x, dice, RULES_AUD_PUBLIC);
        json_decref(dice);
        rules_log_int(x, "hit_dice", hd, RULES_AUD_PUBLIC);
        rules_log_word(x, "effect", "cast.undead", RULES_AUD_PUBLIC);
    } else if (spell->unit) {
        json_t *dice = json_array();
        int n = roll_ld6(e, level, dice, "duration");
        rules_log_dice(x, dice, RULES_AUD_PUBLIC);
        json_decref(dice);
        rules_log_int(x, "duration", n, RULES_AUD_PUBLIC);
        rules_log_name(x, "unit", spell->unit, RULES_AUD_PUBLIC);
        rules_log_word(x, "effect", "cast.lasts", RULES_AUD_PUBLIC);
    }
    rules_log_end(x);
    return 0;
}

/* The spells the caster carries, and targets: for the first a foe first (a bolt needs one, Charm
 * one), for the others nobody first. */
int fivey_cast_choices(const rules_enc *e, const char *actor, const rules_param *p, json_t *out)
{
    const char *name = p->name;
    if (strcmp(name, "spell") == 0) {
        json_t *sp;
        size_t i;
        json_array_foreach(json_object_get(rules_enc_stats_peek(e, actor), "spells"), i, sp)
        {
            const char *s = json_string_value(json_object_get(sp, "name"));
            if (s && fivey_spell_named(s))
                fivey_choice(out, json_string(s), s);
        }
        return RULES_CHOICES_PICK;
    }
    if (strncmp(name, "target", 6) != 0)
        return RULES_CHOICES_NONE;
    if (name[6])
        fivey_choice(out, NULL, "nobody else");
    fivey_choose_side(e, out, rules_enc_side(e, actor), 1);
    if (!name[6])
        fivey_choice(out, NULL, "nobody");
    return RULES_CHOICES_PICK;
}

/* Outside a fight (reading 14): no ◆, one of the casts all the same. */
int fivey_cast_free_check(const rules_enc *e, const rules_args *a, tb_err *err)
{
    return fivey_cast_check(e, a, 0, err);
}

int fivey_cast_free(rules_enc *e, const rules_args *a, tb_err *err)
{
    return fivey_cast(e, a, 0, err);
}

/* In a fight's turn: 004:701 "Cast spell ... ◆◆". */
#define CAST_COST 2

int fivey_cast_turn_check(const rules_enc *e, const rules_args *a, tb_err *err)
{
    return fivey_cast_check(e, a, CAST_COST, err);
}

int fivey_cast_turn(rules_enc *e, const rules_args *a, tb_err *err)
{
    return fivey_cast(e, a, CAST_COST, err);
}
