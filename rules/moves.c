/*
 * moves.c — what a seat may do now (encounter.h, "moves"): for each action and each actor the
 * caller may act for, the choices of every parameter (the module's choices hook, else the
 * engine's defaults) and the first arguments, first choices first, that pass the action's check
 * (rules_enc_act_check). An (action, actor) with none is not offered. Pure: it only reads, and
 * every check it runs draws no die.
 */
#include <stdio.h>
#include <string.h>

#include "encounter.h"

/* The most argument sets tried per (action, actor); the first choices come first, so a move
 * whose first choices pass costs one try. */
#define MOVES_TRIES 64

/* One parameter's candidates: the values to try in order (JSON null: leave it out), what a
 * person picks among (or NULL for an open field), and whether its value is free text nobody can
 * choose for the person (then the search fills a placeholder and `args` leaves it out). */
typedef struct cand {
    const rules_param *p;
    json_t *values;  /* owned */
    json_t *choices; /* owned or NULL: [{value, label}] */
    int free_text;
} cand;

static int is_target(const rules_param *p)
{
    return p->type == RULES_PARAM_STRING && strncmp(p->name, "target", 6) == 0;
}

static int optional(const rules_param *p)
{
    return !(p->flags & RULES_PARAM_REQUIRED);
}

static void choice(json_t *choices, json_t *value, const char *label)
{
    json_array_append_new(choices, json_pack("{s:o, s:s}", "value", value, "label", label));
}

/* The combatants a target may name: not out, the actor's foes first, then its side, then the
 * actor itself; every one in id order when there is no actor. */
static void target_choices(const rules_enc *e, const char *actor, json_t *choices)
{
    const char *side = actor ? rules_enc_side(e, actor) : NULL;
    for (int pass = 0; pass < 3; pass++) {
        const char *cid;
        for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
            if (rules_enc_is_out(e, cid))
                continue;
            int self = rules_enc_streq(cid, actor);
            int foe = side && !self && strcmp(rules_enc_side(e, cid), side) != 0;
            int want = pass == 0 ? (!actor || foe) : pass == 1 ? (actor && !foe && !self) : self;
            if (want)
                choice(choices, json_string(cid), rules_enc_name(e, cid));
        }
    }
}

/* Adds v to values unless it is there already (ints compared by value). */
static void add_value(json_t *values, json_t *v)
{
    size_t i;
    json_t *x;
    json_array_foreach(values, i, x)
    {
        if (json_equal(x, v)) {
            json_decref(v);
            return;
        }
    }
    json_array_append_new(values, v);
}

static void add_int(json_t *values, const rules_param *p, long v)
{
    if (v >= p->min && v <= p->max)
        add_value(values, json_integer(v));
}

/* The candidates of parameter p of action a for actor: the module's choices hook first, then the
 * engine's defaults (encounter.h, rules_enc_choices_fn). */
static void candidates(const rules_enc *e, const char *actor, const rules_enc_action *a,
                       const rules_param *p, cand *c)
{
    memset(c, 0, sizeof *c);
    c->p = p;
    c->values = json_array();
    json_t *out = json_array();
    int how = e->mod->choices ? e->mod->choices(e, actor, a, p, out) : RULES_CHOICES_NONE;
    size_t i;
    json_t *x;
    if (how == RULES_CHOICES_PICK) {
        c->choices = out;
        json_array_foreach(out, i, x)
            add_value(c->values, json_incref(json_object_get(x, "value")));
        if (!json_array_size(c->values))
            add_value(c->values, json_null());
        return;
    }
    int has_default = how == RULES_CHOICES_DEFAULT && json_array_size(out);
    if (has_default)
        add_value(c->values, json_incref(json_object_get(json_array_get(out, 0), "value")));
    json_decref(out);
    if (p->type == RULES_PARAM_BOOL) {
        c->choices = json_array();
        choice(c->choices, json_integer(p->def ? 1 : 0), p->def ? "yes" : "no");
        choice(c->choices, json_integer(p->def ? 0 : 1), p->def ? "no" : "yes");
        json_array_foreach(c->choices, i, x)
            add_value(c->values, json_incref(json_object_get(x, "value")));
    } else if (p->type == RULES_PARAM_INT) {
        /* an open number: its default, then the ends of its range and next to the default */
        if (optional(p))
            add_value(c->values, json_null());
        add_int(c->values, p, p->def);
        add_int(c->values, p, p->min);
        add_int(c->values, p, p->max);
        add_int(c->values, p, (long)p->def + 1);
        add_int(c->values, p, (long)p->def - 1);
    } else if (is_target(p)) {
        c->choices = json_array();
        if (optional(p))
            choice(c->choices, json_null(), "no one");
        target_choices(e, actor, c->choices);
        json_array_foreach(c->choices, i, x)
            add_value(c->values, json_incref(json_object_get(x, "value")));
    } else if (optional(p)) {
        add_value(c->values, json_null());
    } else if (!has_default) {
        /* free text the person types (a name, a description): searched with a placeholder */
        c->free_text = 1;
        add_value(c->values, json_string(p->name));
    }
    if (!json_array_size(c->values))
        add_value(c->values, json_null());
}

static void cand_free(cand *c, int n)
{
    for (int i = 0; i < n; i++) {
        json_decref(c[i].values);
        json_decref(c[i].choices);
    }
}

/* The params object of index vector idx (a new object; free text included when fill). */
static json_t *params_of(const cand *c, int n, const int *idx, int fill)
{
    json_t *o = json_object();
    for (int i = 0; i < n; i++) {
        json_t *v = json_array_get(c[i].values, (size_t)idx[i]);
        if (!json_is_null(v) && (fill || !c[i].free_text))
            json_object_set(o, c[i].p->name, v);
    }
    return o;
}

typedef struct search {
    rules_enc *e;
    const rules_enc_action *a;
    cand *c;
    int n, tries, found;
    int idx[RULES_MAX_PARAMS];
} search;

/* Whether the arguments of s->idx pass the action's parameters and check (the caller already
 * passed the who-check, so e->actor is set). */
static int passes(search *s)
{
    json_t *params = params_of(s->c, s->n, s->idx, 1);
    rules_args args;
    tb_err err = {0};
    int ok = rules_enc_args_check(s->e, s->a, params, &args, &err) == TB_OK;
    json_decref(params);
    s->tries++;
    return ok;
}

/* Tries every index vector from parameter i on whose indices add up to `left`, the first
 * choices first; stops at the first that passes or when the tries run out. */
static int search_sum(search *s, int i, int left)
{
    if (s->tries >= MOVES_TRIES)
        return 0;
    if (i == s->n - 1) {
        if (left >= (int)json_array_size(s->c[i].values))
            return 0;
        s->idx[i] = left;
        return passes(s);
    }
    for (int k = 0; k <= left && k < (int)json_array_size(s->c[i].values); k++) {
        s->idx[i] = k;
        if (search_sum(s, i + 1, left - k))
            return 1;
    }
    return 0;
}

static int search_all(search *s)
{
    if (s->n == 0)
        return passes(s);
    int most = 0;
    for (int i = 0; i < s->n; i++)
        most += (int)json_array_size(s->c[i].values) - 1;
    for (int sum = 0; sum <= most && s->tries < MOVES_TRIES; sum++)
        if (search_sum(s, 0, sum))
            return 1;
    return 0;
}

/* The move of action a for actor (who-checked: e->actor is set), or NULL when no arguments the
 * choices hold pass its check. */
static json_t *move_of(rules_enc *e, const rules_enc_action *a, const char *actor)
{
    static const char *const WHO[] = {"", "gm", "turn", "owner", "any"};
    cand c[RULES_MAX_PARAMS];
    int n = 0;
    for (const rules_param *p = a->params; p && p->name && n < RULES_MAX_PARAMS; p++)
        candidates(e, actor, a, p, &c[n++]);
    search s = {.e = e, .a = a, .c = c, .n = n};
    if (!search_all(&s)) {
        cand_free(c, n);
        return NULL;
    }
    json_t *params = rules_params_json(a->params);
    for (int i = 0; i < n; i++) {
        json_t *po = json_array_get(params, (size_t)i);
        json_t *v = json_array_get(c[i].values, (size_t)s.idx[i]);
        json_object_set_new(po, "pick", json_boolean(c[i].choices != NULL));
        if (c[i].choices)
            json_object_set(po, "choices", c[i].choices);
        if (c[i].free_text || json_is_null(v))
            json_object_del(po, "default");
        else
            json_object_set(po, "default", v);
    }
    json_t *m = json_pack("{s:s, s:s, s:s, s:o, s:o}", "action", a->name, "label",
                          a->label ? a->label : a->name, "who", WHO[a->who], "params", params,
                          "args", params_of(c, n, s.idx, 0));
    if (actor) {
        json_object_set_new(m, "actor", json_string(actor));
        json_object_set_new(m, "actor_name", json_string(rules_enc_name(e, actor)));
    }
    if (a->cite)
        json_object_set_new(m, "cite", json_string(a->cite));
    if (a->flags & RULES_ENC_RARE)
        json_object_set_new(m, "rare", json_true());
    if (a->flags & RULES_ENC_CONFIRM)
        json_object_set_new(m, "confirm", json_true());
    cand_free(c, n);
    return m;
}

/* The moves of actor (NULL: the actions taken without one) appended to out. */
static void moves_of(rules_enc *e, const char *actor, json_t *out)
{
    for (const rules_enc_action *a = e->mod->actions; a && a->name; a++) {
        int needs_actor = a->who == RULES_ENC_TURN || a->who == RULES_ENC_OWNER;
        if (needs_actor != (actor != NULL))
            continue;
        tb_err err = {0};
        if (rules_enc_who_check(e, a, actor, &err) != TB_OK)
            continue;
        json_t *m = move_of(e, a, e->actor);
        if (m)
            json_array_append_new(out, m);
    }
}

json_t *rules_enc_moves(rules_enc *e)
{
    const char *was = e->actor;
    char was_id[sizeof e->actor_id];
    memcpy(was_id, e->actor_id, sizeof was_id);
    json_t *out = json_array();
    /* the combatant whose turn it is first (a copy: the checks may read the order) */
    char cur[sizeof e->actor_id] = "";
    if (rules_enc_current(e) && rules_enc_controls(e, rules_enc_current(e)))
        snprintf(cur, sizeof cur, "%s", rules_enc_current(e));
    if (cur[0])
        moves_of(e, cur, out);
    moves_of(e, NULL, out);
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        if (strcmp(cid, cur) != 0 && rules_enc_controls(e, cid))
            moves_of(e, cid, out);
    memcpy(e->actor_id, was_id, sizeof was_id);
    e->actor = was == NULL ? NULL : was == e->actor_id ? e->actor_id : was;
    return out;
}
