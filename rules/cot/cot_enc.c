/*
 * cot_enc.c — what City of Thieves' encounter modules share (cot_enc.h) apart from the slots
 * (rules/cot/slots.c): Stages and skills, reading a combatant's numbers, the pool roll of a
 * combatant, Cover, attacks' gear and harm, the GM's editable fields. The rulebook is
 * 000_d2a475e9ec148dd1.txt, cited as 000:LINE.
 */
#include "cot_enc.h"

#include <stdio.h>
#include <string.h>

/* ---- Stages and skills ---- */

/* 000:33-36 initiative by Stage; the Stages of 000:19-22 and the chases of 000:146 */
static const cot_stage STAGES[] = {
    {"heist", "brains", "planning", "Brains+Planning"},         /* 000:33 */
    {"prep", "brains", "planning", "Brains+Planning"},          /* 000:33 */
    {"social", "it", "size_up", "It+Size Up"},                  /* 000:34 */
    {"violence", "muscle", "athletics", "Muscle+Athletics"},    /* 000:35 */
    {"foot_chase", "muscle", "athletics", "Muscle+Athletics"},  /* 000:35 */
    {"vehicle_chase", "fingers", "driving", "Fingers+Driving"}, /* 000:36 */
    {NULL, NULL, NULL, NULL},
};

/* 000:44-96: each skill under its ability */
static const cot_skill SKILLS[] = {
    {"shooting", "muscle", "Shooting"},
    {"hand_to_hand", "muscle", "Hand to Hand"},
    {"athletics", "muscle", "Athletics"},
    {"intimidate", "muscle", "Intimidate"},
    {"resist", "muscle", "Resist"},
    {"explosives", "muscle", "Explosives"},
    {"driving", "fingers", "Driving"},
    {"cat_burglary", "fingers", "Cat Burglary"},
    {"palming", "fingers", "Palming"},
    {"sneak", "fingers", "Sneak"},
    {"lockpicking", "fingers", "Lockpicking"},
    {"build", "fingers", "Build"},
    {"mysticism", "brains", "Mysticism"},
    {"planning", "brains", "Planning"},
    {"lookout", "brains", "Lookout"},
    {"safecracking", "brains", "Safecracking"},
    {"appraisal", "brains", "Appraisal"},
    {"forgery", "brains", "Forgery"},
    {"connections", "it", "Connections"},
    {"size_up", "it", "Size Up"},
    {"con", "it", "Con"},
    {"impress", "it", "Impress"},
    {"manipulate", "it", "Manipulate"},
    {"convince", "it", "Convince"},
    {NULL, NULL, NULL},
};

const cot_stage *cot_stage_find(const char *id)
{
    for (const cot_stage *s = STAGES; id && s->id; s++)
        if (strcmp(s->id, id) == 0)
            return s;
    return NULL;
}

const cot_skill *cot_skill_find(const char *id)
{
    for (const cot_skill *s = SKILLS; id && s->id; s++)
        if (strcmp(s->id, id) == 0)
            return s;
    return NULL;
}

const cot_skill *cot_skill_at(size_t i)
{
    return i < sizeof SKILLS / sizeof SKILLS[0] - 1 ? &SKILLS[i] : NULL;
}

/* ---- reading the state ---- */

const char *cot_str(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

int cot_int(const json_t *o, const char *key)
{
    return (int)json_integer_value(json_object_get(o, key));
}

int cot_int_or(const json_t *o, const char *key, int def)
{
    json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? (int)json_integer_value(v) : def;
}

json_t *cot_child(json_t *o, const char *key)
{
    json_t *c = json_object_get(o, key);
    if (!json_is_object(c)) {
        c = json_object();
        json_object_set_new(o, key, c);
    }
    return c;
}

int cot_in_array(const json_t *arr, const char *s)
{
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) if (json_string_value(v) &&
                                      rules_enc_streq(json_string_value(v), s)) return 1;
    return 0;
}

int cot_stat_true(const rules_enc *e, const char *cid, const char *key)
{
    return json_is_true(json_object_get(rules_enc_stats_peek(e, cid), key));
}

int cot_ability_of(const rules_enc *e, const char *cid, const char *ability)
{
    json_t *v =
        json_object_get(json_object_get(rules_enc_stats_peek(e, cid), "abilities"), ability);
    return json_is_integer(v) ? (int)json_integer_value(v) : COT_DEFAULT_ABILITY;
}

int cot_skill_of(const rules_enc *e, const char *cid, const char *skill)
{
    return cot_int(json_object_get(rules_enc_stats_peek(e, cid), "skills"), skill);
}

int cot_is_wounded(const rules_enc *e, const char *cid)
{
    return cot_stat_true(e, cid, "wounded") || rules_enc_cond_has(e, cid, "wounded");
}

/* ---- rolling ---- */

int cot_bolster_of(const rules_enc *e, const char *cid)
{
    json_t *b = rules_enc_cond(e, cid, "bolstered");
    return b ? cot_int(b, "level") : 0;
}

/* The Training scheme waiting on cid (000:218: condition `training` {level: dice rolled, kept}). */
static void training_of(const rules_enc *e, const char *cid, int *rolled, int *kept)
{
    json_t *tr = rules_enc_cond(e, cid, "training");
    *rolled = tr ? cot_int(tr, "level") : 0;
    *kept = tr ? cot_int(tr, "kept") : 0;
}

int cot_throw_check(const rules_enc *e, const char *cid, const char *ability, const char *skill,
                    int bonus, tb_err *err)
{
    int rolled, kept;
    training_of(e, cid, &rolled, &kept);
    cot_pool_spec spec = {skill ? cot_skill_of(e, cid, skill) : 0, cot_ability_of(e, cid, ability),
                          bonus + cot_bolster_of(e, cid) + rolled, kept};
    return cot_pool_check(&spec, err);
}

int cot_throw_pool(rules_enc *e, const char *cid, const char *ability, const char *skill, int bonus,
                   cot_throw *t, tb_err *err)
{
    memset(t, 0, sizeof *t);
    t->bolster = cot_bolster_of(e, cid);
    t->bonus = bonus;
    training_of(e, cid, &t->trained, &t->trained_kept);
    cot_pool_spec spec = {skill ? cot_skill_of(e, cid, skill) : 0, cot_ability_of(e, cid, ability),
                          bonus + t->bolster + t->trained, t->trained_kept};
    int rc = cot_pool_roll(&spec, e->rng, &t->r, err);
    if (rc)
        return rc;
    rules_enc_cond_remove(e, cid, "bolstered"); /* used up by this roll */
    rules_enc_cond_remove(e, cid, "training");  /* 000:218, likewise */
    return 0;
}

/* ---- the log ---- */

void cot_log_throw(rules_log *x, const cot_throw *t, rules_aud aud)
{
    json_t *dice = json_array();
    rules_pool_to_json(&t->r.pool, dice);
    rules_log_dice(x, dice, aud);
    json_decref(dice);
    rules_log_int(x, "rolled", t->r.pool.n, aud);
    rules_log_int(x, "keep", t->r.pool.keep, aud);
    rules_log_json(x, "kept", rules_pool_kept_json(&t->r.pool), aud);
    rules_log_int(x, "total", t->r.total, aud);
    rules_log_json(x, "catastrophe", json_boolean(t->r.catastrophe), aud);
    if (t->bonus)
        rules_log_int(x, "bonus", t->bonus, aud);
    if (t->bolster)
        rules_log_int(x, "bolster", t->bolster, aud);
    if (t->trained || t->trained_kept)
        rules_log_json(x, "training",
                       json_pack("{s:i, s:i}", "rolled", t->trained, "kept", t->trained_kept), aud);
    rules_log_pool(x, "faces", &t->r.pool, aud);
    rules_log_word(x, "line", "cot.roll", aud);
    if (t->r.catastrophe)
        rules_log_word(x, "cat", "cot.cat", aud);
}

void cot_log_opposing(rules_log *x, const cot_throw *t, rules_aud aud)
{
    rules_log_count(x, "orolled", t->r.pool.n, aud);
    rules_log_count(x, "okeep", t->r.pool.keep, aud);
    rules_log_pool(x, "ofaces", &t->r.pool, aud);
    rules_log_count(x, "ototal", t->r.total, aud);
    rules_log_word(x, "oline", "cot.opposing", aud);
    if (t->r.catastrophe)
        rules_log_word(x, "ocat", "cot.cat", aud);
}

/* ---- rolling Cover ---- */ /* ---- rolling Cover ---- */

int cot_roll_cover(rules_enc *e, const char *cid, const char *action, const char *why, int slot,
                   tb_err *err)
{
    cot_throw t;
    int armour = rules_enc_stat(e, cid, "armour", 0);
    int rc = cot_throw_pool(e, cid, "muscle", "resist", armour, &t, err);
    if (rc)
        return rc;
    rules_enc_stat_set(e, cid, "cover", t.r.total);
    rules_aud aud = rules_enc_aud_of(e, cid);
    rules_log *x = rules_log_begin(e, action, "cover");
    rules_log_who(x, "who", cid);
    rules_log_word(x, "why", why, RULES_AUD_PUBLIC);
    if (slot > 0)
        rules_log_count(x, "slot", slot, RULES_AUD_PUBLIC);
    cot_log_throw(x, &t, aud);
    rules_log_int(x, "cover", t.r.total, aud);
    rules_log_end(x);
    return 0;
}

/* ---- attacks ---- */

json_t *cot_weapon_of(const rules_enc *e, const char *cid, const char *name)
{
    size_t i;
    json_t *w;
    json_array_foreach(json_object_get(rules_enc_stats_peek(e, cid), "weapons"), i,
                       w) if (rules_enc_streq(cot_str(w, "name"), name)) return w;
    return NULL;
}

int cot_attack_gear(const rules_enc *e, const rules_args *a, const char *const *skills,
                    const cot_skill **sk, json_t **weapon, tb_err *err)
{
    const char *s = rules_arg_str(a, "skill");
    if (!s)
        s = "hand_to_hand";
    *sk = NULL;
    for (const char *const *x = skills; *x; x++)
        if (strcmp(*x, s) == 0)
            *sk = cot_skill_find(s);
    if (!*sk) {
        char list[120] = "";
        size_t len = 0;
        for (const char *const *x = skills; *x && len < sizeof list; x++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "", *x);
        return tb_fail(err, TB_BAD_REQUEST, "skill: '%.32s' cannot be used for this (%s)", s, list);
    }
    const char *wn = rules_arg_str(a, "weapon");
    *weapon = wn ? cot_weapon_of(e, e->actor, wn) : NULL;
    if (wn && !*weapon)
        return tb_fail(err, TB_BAD_REQUEST, "weapon: %s has no weapon named '%.40s' on the sheet",
                       rules_enc_name(e, e->actor), wn);
    /* 000:131 "Shooting and Explosives require specific gear to use in combat." */
    if (!*weapon && (strcmp(s, "shooting") == 0 || strcmp(s, "explosives") == 0))
        return rules_enc_rule(err, "%s needs a weapon (000:131)", (*sk)->label);
    return 0;
}

void cot_make_wounded(rules_enc *e, const char *t, int days)
{
    rules_enc_cond_add(e, t, "wounded", 0, 0);
    json_object_set_new(rules_enc_stats(e, t), "wounded", json_true());
    if (days >= 0)
        rules_enc_stat_set(e, t, "recovery_days", days);
}

const char *cot_harm_word(const cot_harm *h)
{
    static const char *const WORDS[][2] = {
        {"dead", "harm.dead"}, {"wounded", "harm.wounded"}, {"cover", "harm.cover"}};
    for (size_t i = 0; i < sizeof WORDS / sizeof WORDS[0]; i++)
        if (strcmp(h->outcome, WORDS[i][0]) == 0)
            return WORDS[i][1];
    return "harm.catastrophe";
}

cot_harm cot_apply_harm(rules_enc *e, const char *t, int total)
{
    cot_harm h = {rules_enc_stat(e, t, "cover", 0), 0, 0, -1, "cover"};
    /* 000:134 "reduces the target's Cover Score by 1. Exceeding the target's Cover Score
     * reduces the value by however much the Attack exceeded the Score." (RULES.md, cot encounters,
     * reading 5) */
    h.damage = total > h.before ? total - h.before : 1;
    int left = h.before - h.damage;
    if (left > 0) {
        h.after = left;
        rules_enc_stat_set(e, t, "cover", left);
        return h;
    }
    h.after = 0;
    rules_enc_stat_set(e, t, "cover", 0);
    if (cot_is_wounded(e, t)) {
        /* 000:136 "If the target is already wounded and their Cover Score drops to 0, they are
         * Dead." */
        h.outcome = "dead";
        rules_enc_set_out(e, t, "dead");
        rules_enc_cond_remove(e, t, "restrained");
        return h;
    }
    /* 000:135 "they become wounded and any leftover damage is the number of days until they
     * recover" */
    h.outcome = "wounded";
    h.days = -left;
    cot_make_wounded(e, t, h.days);
    return h;
}

/* ---- choices ---- */

void cot_choice(json_t *out, json_t *value, const char *label)
{
    json_array_append_new(
        out, json_pack("{s:o, s:s}", "value", value ? value : json_null(), "label", label));
}

void cot_choose_combatants(const rules_enc *e, const char *actor, cot_keep_fn keep, json_t *out)
{
    const char *cid, *mine = actor ? rules_enc_side(e, actor) : NULL;
    for (int foes = 1; foes >= 0; foes--)
        for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
            int foe = !rules_enc_streq(rules_enc_side(e, cid), mine);
            if (foe != foes || rules_enc_is_out(e, cid))
                continue;
            if (keep ? keep(e, actor, cid) : !rules_enc_streq(cid, actor))
                cot_choice(out, json_string(cid), rules_enc_name(e, cid));
        }
}

void cot_choose_weapons(const rules_enc *e, const char *actor, const char *bare, json_t *out)
{
    size_t i;
    json_t *w;
    cot_choice(out, NULL, bare);
    json_array_foreach(json_object_get(rules_enc_stats_peek(e, actor), "weapons"), i, w)
    {
        const char *name = cot_str(w, "name");
        if (name)
            cot_choice(out, json_string(name), name);
    }
}

void cot_choose_skills(const rules_enc *e, const char *actor, const char *const *list, json_t *out)
{
    /* trained first, highest rank first (ranks 10..1), then the untrained, each in the list's
     * order (the sheet's when there is no list) */
    for (int rank = 10; rank >= 0; rank--) {
        const cot_skill *sk;
        for (size_t i = 0; (sk = list ? cot_skill_find(list[i]) : cot_skill_at(i)); i++) {
            int have = cot_skill_of(e, actor, sk->id);
            if (rank ? have == rank : have <= 0 || have > 10)
                cot_choice(out, json_string(sk->id), sk->label);
        }
    }
}

/* Bolster's target: the actor's side first (a crewmate's next roll), then anyone in the fight. */
static int ally(const rules_enc *e, const char *actor, const char *cid)
{
    return rules_enc_streq(rules_enc_side(e, cid), rules_enc_side(e, actor));
}

static int other(const rules_enc *e, const char *actor, const char *cid)
{
    return !ally(e, actor, cid);
}

int cot_choices_common(const rules_enc *e, const char *actor, const rules_enc_action *a,
                       const rules_param *p, json_t *out)
{
    if (strcmp(a->name, "bolster") == 0 && strcmp(p->name, "target") == 0) {
        json_t *foes = json_array();
        cot_choose_combatants(e, actor, other, foes);
        cot_choose_combatants(e, actor, ally, out); /* allies, then foes */
        json_array_extend(out, foes);
        json_decref(foes);
        return RULES_CHOICES_PICK;
    }
    if (strcmp(p->name, "lean_onto") == 0) { /* own Loyalties, in any roll (000:239) */
        cot_choose_loyalties(e, actor, 0, "none", out);
        return RULES_CHOICES_PICK;
    }
    if (strcmp(a->name, "train") == 0 && strcmp(p->name, "rolled") == 0) {
        cot_choice(out, json_integer(1), "one die");
        return RULES_CHOICES_DEFAULT; /* the least Training costs (000:218) */
    }
    if (strcmp(a->name, "roll") == 0 && strcmp(p->name, "skill") == 0) {
        cot_choose_skills(e, actor, NULL, out);
        return RULES_CHOICES_PICK;
    }
    return RULES_CHOICES_NONE;
}

/* ---- what the GM may set, and what the slot modules can use ---- */

const rules_enc_field cot_editable[] = {
    COT_EDITABLE_FIELDS,
    {NULL, 0, 0, 0, NULL},
};

const char *const cot_sheet_stats[] = {"wounded", "recovery_days", "focus_used", "foresight", NULL};
