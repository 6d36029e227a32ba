/*
 * choices.c — what a 10acity seat may pick for each parameter of a move (rules/encounter.h,
 * "moves"): the choices hook of the three modules. The state knows the answer to most
 * parameters: the skills on the actor's sheet (most likely first: a weapon's for a strike, the
 * rules' default where the book names one), the combatants an action may name, the tasks by name,
 * the conditions to shake off, how a response or a push is paid; what it cannot know (a trigger, a
 * body part, a bargain's words) stays open. A pick lists only what the action's check accepts
 * with the other parameters at their first choice; when nothing does, the engine's defaults
 * stand, so that a move the check allows with other arguments is still found. Calls turn.c's and
 * the modules' checks only through rules_enc_args_check, which draws no die and writes nothing.
 */
#include <stdio.h>
#include <string.h>

#include "tenacity_enc.h"

static void add(json_t *out, json_t *value /* stolen */, const char *label)
{
    json_array_append_new(out, json_pack("{s:o, s:s}", "value", value, "label", label));
}

static int optional(const rules_param *p)
{
    return !(p->flags & RULES_PARAM_REQUIRED);
}

static int is_target(const rules_param *p)
{
    return p->type == RULES_PARAM_STRING && strncmp(p->name, "target", 6) == 0;
}

static int is(const rules_enc_action *a, const char *name)
{
    return strcmp(a->name, name) == 0;
}

/* ---- skills ---- */

/* How a list of skills is ordered: for a strike the best roll with a bonus for a combat skill
 * and an item's impact, else the best roll first (dice, then rank), or by rank (help needs a
 * rank, a healer an impact die). */
enum { BY_STRIKE, BY_ROLL, BY_RANK, BY_HEAL };

static int skill_score(const char *name, const json_t *sk, int order)
{
    int combat = strstr(name, "Combat") != NULL;
    int dice = (int)json_integer_value(json_array_get(sk, 0));
    int rank = (int)json_integer_value(json_array_get(sk, 1));
    int bonus = (int)json_integer_value(json_array_get(sk, 2));
    switch (order) {
    case BY_STRIKE:
        return (2 * rank + 2 * dice) * 10 + bonus * 5 + combat * 30;
    case BY_RANK:
        return rank * 100 + dice;
    case BY_HEAL: /* a healer's skill by its name first (the sheets name their own) */
        return (strstr(name, "Medic") || strstr(name, "Heal")) * 10000 +
               (tenacity_impact_dice(rank) + bonus) * 100 + rank;
    default:
        return dice * 100 + rank;
    }
}

/* Whether skill sk may serve: help needs one rank (003:57), a healer an impact die (003:9). */
static int skill_fits(const json_t *sk, int order)
{
    int rank = (int)json_integer_value(json_array_get(sk, 1));
    if (order == BY_RANK)
        return rank >= 1;
    if (order == BY_HEAL)
        return tenacity_impact_dice(rank) >= 1 || json_integer_value(json_array_get(sk, 2)) >= 1;
    return 1;
}

/*
 * cid's skills as choices: `first` (the rules' default, left out of the arguments when p is
 * optional) when cid has it, then the others by `order`, those a condition stops last. A sheetless
 * NPC rolls its challenge dice whatever the word: none to pick ("-" when one is needed).
 */
static int skills(const rules_enc *e, const char *cid, const rules_param *p, const char *first,
                  int order, int needed, json_t *out)
{
    json_t *all = ten_skills(e, cid);
    if (!all) {
        add(out, optional(p) && !needed ? json_null() : json_string("-"), "the challenge dice");
        return RULES_CHOICES_PICK;
    }
    if (first && json_object_get(all, first))
        add(out, optional(p) ? json_null() : json_string(first), first);
    /* a simple selection by score, free skills before stopped ones: sheets hold 24 skills */
    const char *done[64];
    int n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (;;) {
            const char *best = NULL, *k;
            int best_score = -1;
            json_t *sk;
            json_object_foreach(all, k, sk)
            {
                int taken = first && strcmp(k, first) == 0;
                for (int i = 0; i < n && !taken; i++)
                    taken = strcmp(done[i], k) == 0;
                const char *stop = NULL;
                ten_hinder_on(e, cid, k, &stop, NULL);
                if (taken || !skill_fits(sk, order) || (stop != NULL) != pass)
                    continue;
                if (skill_score(k, sk, order) > best_score)
                    best = k, best_score = skill_score(k, sk, order);
            }
            if (!best || n == 64)
                break;
            done[n++] = best;
            add(out, json_string(best), best);
        }
    return RULES_CHOICES_PICK;
}

/* The skills every combatant in the fight has (initiative: everyone rolls the same skill,
 * 003:85), Reaction first. */
static int common_skills(const rules_enc *e, json_t *out)
{
    const char *cid, *anyone = NULL;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)) && !anyone; i++)
        if (ten_present(e, cid) && ten_skills(e, cid))
            anyone = cid;
    add(out, json_null(), "Reaction");
    const char *k;
    json_t *sk;
    json_object_foreach(ten_skills(e, anyone), k, sk)
    {
        int all = strcmp(k, "Reaction") != 0;
        for (size_t i = 0; all && (cid = rules_enc_cid_at(e, i)); i++)
            all = !ten_present(e, cid) || !ten_skills(e, cid) ||
                  json_object_get(ten_skills(e, cid), k);
        if (all)
            add(out, json_string(k), k);
    }
    return RULES_CHOICES_PICK;
}

/* The skills a new task may take (tenacity.between): every skill on a sheet in the scene, none
 * first (each character names the skill they roll). */
static int task_skills(const rules_enc *e, json_t *out)
{
    add(out, json_null(), "none: each names theirs");
    json_t *seen = json_object();
    const char *cid, *k;
    json_t *sk;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        json_object_foreach(ten_skills(e, cid), k, sk)
        {
            if (!json_object_get(seen, k)) {
                json_object_set_new(seen, k, json_true());
                add(out, json_string(k), k);
            }
        }
    json_decref(seen);
    return RULES_CHOICES_PICK;
}

/* ---- the combatants ---- */

/* Every combatant, the actor's foes first, then its side, then itself (when self; the check says
 * whether an action may name its actor), then those out of the fight (a GM's setting may name
 * them). */
static void combatants(const rules_enc *e, const char *actor, int self, json_t *out)
{
    const char *side = actor ? rules_enc_side(e, actor) : NULL;
    for (int pass = 0; pass < 4; pass++) {
        const char *cid;
        for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
            if (!ten_present(e, cid) != (pass == 3))
                continue;
            int me = rules_enc_streq(cid, actor);
            int foe = side && !me && strcmp(rules_enc_side(e, cid), side) != 0;
            if (pass == 3 || (pass == 0   ? (!actor || foe)
                              : pass == 1 ? (actor && !foe && !me)
                                          : (me && self)))
                add(out, json_string(cid), rules_enc_name(e, cid));
        }
    }
}

/* ---- the rest ---- */

static int words(json_t *out, const char *const *values, const char *const *labels)
{
    for (int i = 0; values[i]; i++)
        add(out, json_string(values[i]), labels[i]);
    return RULES_CHOICES_PICK;
}

/* The conditions cid may try to shake off (003:97): at the end of the turn (free) a lock cannot
 * be broken nor a grapple under it (003:105). */
static int conditions(const rules_enc *e, const char *cid, int free, json_t *out)
{
    if (free)
        add(out, json_null(), "none");
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(rules_enc_combatant(e, cid), "conditions"), i, c)
    {
        const char *name = json_string_value(json_object_get(c, "name"));
        tb_err ignored;
        if (json_object_get(c, "kind") && !ten_grip_may_shake(e, cid, name, !free, &ignored))
            add(out, json_string(name), name);
    }
    return RULES_CHOICES_PICK;
}

/* The tasks (tenacity.between) by name, for `work` (not finished, not done or failed by the
 * actor) and `spend` (a scene to explore whose pool holds something). */
static int tasks(const rules_enc *e, const char *actor, const rules_enc_action *a, json_t *out)
{
    const char *name;
    json_t *t;
    json_object_foreach(json_object_get(e->enc, "tasks"), name, t)
    {
        const char *kind = json_string_value(json_object_get(t, "kind"));
        json_t *mine = json_object_get(json_object_get(t, "by"), actor);
        int open = is(a, "spend") ? rules_enc_streq(kind, "explore") &&
                                        json_integer_value(json_object_get(t, "pool")) > 0
                                  : !json_is_true(json_object_get(t, "done")) &&
                                        !json_is_true(json_object_get(mine, "done")) &&
                                        !json_is_true(json_object_get(mine, "failed"));
        if (open)
            add(out, json_string(name), name);
    }
    return RULES_CHOICES_PICK;
}

/* The name a new task gets by default: one not taken yet. */
static int new_task(const rules_enc *e, json_t *out)
{
    static const char *const names[] = {"the task",  "the climb",  "the search", "the work",
                                        "the chase", "the repair", NULL};
    json_t *all = json_object_get(e->enc, "tasks");
    for (int i = 0; names[i]; i++)
        if (!json_object_get(all, names[i])) {
            add(out, json_string(names[i]), names[i]);
            return RULES_CHOICES_DEFAULT;
        }
    return RULES_CHOICES_NONE;
}

/* The raw choices of p (no check consulted): a pick, an open field's default, or none. */
static int raw(const rules_enc *e, const char *actor, const rules_enc_action *a,
               const rules_param *p, json_t *out)
{
    static const char *const KINDS[] = {"hinder", "stop", "damage", NULL}, *const KIND_LABELS[] = {
                                                                               "hinder", "stop",
                                                                               "damage over time",
                                                                               NULL};
    static const char *const TASKS[] = {"impact", "explore", "craft", NULL},
                             *const TASK_LABELS[] = {"an impact action", "a scene to explore",
                                                     "an item to craft", NULL};
    const char *n = p->name;
    if (strcmp(n, "skill") == 0) {
        if (is(a, "initiative"))
            return common_skills(e, out);
        static const struct {
            const char *action, *first;
            int order;
        } RULES[] = {
            {"attack", NULL, BY_STRIKE},
            {"parting", NULL, BY_STRIKE},
            {"grapple", NULL, BY_STRIKE},
            {"lock", "Unarmed Combat", BY_STRIKE},
            {"escape", "Athletics", BY_ROLL},
            {"sprint", "Athletics", BY_ROLL},
            {"recover", "Concentration", BY_ROLL},
            {"help", NULL, BY_RANK},
            {"tend", NULL, BY_HEAL},
            {"pilot", "Pilot", BY_ROLL},
            {NULL, NULL, BY_ROLL},
        };
        int i = 0;
        while (RULES[i].action && !is(a, RULES[i].action))
            i++;
        if (is(a, "task"))
            return task_skills(e, out);
        if (is(a, "work") && ten_skills(e, actor))
            add(out, json_null(), "the task's skill");
        /* a task without a skill needs one named, if only "-" for a sheetless NPC's dice */
        return skills(e, actor, p, RULES[i].first, RULES[i].order, is(a, "work"), out);
    }
    if (is_target(p) || strcmp(n, "to") == 0 || strcmp(n, "next") == 0) {
        /* an optional one: nobody (no target: the narrator's challenge dice, no flanking ally,
         * the spin to oneself, the spotlight's usual course) comes first */
        if (optional(p))
            add(out, json_null(),
                strcmp(n, "next") == 0 ? "as the rules go"
                : strcmp(n, "to") == 0 ? "yourself"
                : is(a, "heal_item")   ? "yourself"
                                       : "no one");
        combatants(e, actor, 1, out);
        return RULES_CHOICES_PICK;
    }
    if (strcmp(n, "kind") == 0)
        return is(a, "task") ? words(out, TASKS, TASK_LABELS) : words(out, KINDS, KIND_LABELS);
    if (strcmp(n, "cover") == 0) {
        static const char *const v[] = {"partial", "full", "soft", "none", NULL},
                                 *const l[] = {"partial hard cover", "full hard cover",
                                               "soft cover", "no cover", NULL};
        return words(out, v, l);
    }
    if (strcmp(n, "range") == 0) {
        add(out, json_null(), "melee");
        add(out, json_string("ranged"), "ranged");
        return RULES_CHOICES_PICK;
    }
    if (strcmp(n, "crit") == 0) {
        add(out, json_null(), "whichever helps (a hero die if it turns the roll)");
        add(out, json_string("hero"), "a hero die");
        add(out, json_string("impact"), "an impact die");
        return RULES_CHOICES_PICK;
    }
    if (strcmp(n, "push") == 0) {
        add(out, json_null(), "no");
        add(out, json_integer(1), "yes, if it fails: spin, 10acity or negative spin");
        return RULES_CHOICES_PICK;
    }
    if (strcmp(n, "push_with") == 0) {
        add(out, json_null(), "the cheapest first");
        add(out, json_string("spin"), "spin");
        add(out, json_string("tenacity"), "10acity");
        add(out, json_string("negative"), "negative spin");
        return RULES_CHOICES_PICK;
    }
    if (strcmp(n, "pay") == 0) {
        add(out, json_string("spin"), "a point of spin");
        add(out, json_string("tenacity"), "a 10acity point");
        return RULES_CHOICES_PICK;
    }
    if (strcmp(n, "choice") == 0) {
        add(out, json_string("wound"), "take a wound while one is left");
        add(out, json_string("unconscious"), "fall unconscious");
        return RULES_CHOICES_PICK;
    }
    if (strcmp(n, "what") == 0 && is(a, "hold")) {
        add(out, json_null(), "the action");
        add(out, json_string("move"), "the movement");
        return RULES_CHOICES_PICK;
    }
    if (strcmp(n, "cond") == 0)
        return conditions(e, actor, 0, out);
    if (strcmp(n, "shake") == 0)
        return conditions(e, actor, 1, out);
    if (strcmp(n, "prone") == 0 || strcmp(n, "elevated") == 0) {
        /* the common move is the change: standing up when down, lying down when up */
        int now = ten_is(e, actor, n);
        add(out, json_integer(!now),
            strcmp(n, "prone") == 0 ? (now ? "stand up" : "go prone")
                                    : (now ? "leave the high ground" : "take the high ground"));
        add(out, json_integer(now),
            strcmp(n, "prone") == 0 ? (now ? "stay prone" : "stay up")
                                    : (now ? "stay up high" : "stay down"));
        return RULES_CHOICES_PICK;
    }
    if (strcmp(n, "confirm") == 0) {
        add(out, json_integer(1), "yes, my character dies");
        return RULES_CHOICES_PICK;
    }
    if (strcmp(n, "task") == 0)
        return is(a, "task") ? new_task(e, out) : tasks(e, actor, a, out);
    if (strcmp(n, "need") == 0) {
        add(out, json_integer(5), "5"); /* 003:63 "an impact requirement of five (5)" */
        return RULES_CHOICES_DEFAULT;
    }
    return RULES_CHOICES_NONE;
}

/* ---- keeping only what the check accepts ---- */

/* The first value of q's raw choices, or what the engine would try first (encounter.h): the
 * default of a number, no for a tick, the name of a typed text; NULL for an optional one. */
static json_t *first_value(const rules_enc *e, const char *actor, const rules_enc_action *a,
                           const rules_param *q, const char *avoid)
{
    json_t *out = json_array(), *v = NULL;
    int how = raw(e, actor, a, q, out);
    for (size_t i = 0; how != RULES_CHOICES_NONE && i < json_array_size(out) && !v; i++) {
        json_t *c = json_object_get(json_array_get(out, i), "value");
        if (!rules_enc_streq(json_string_value(c), avoid))
            v = json_incref(c);
    }
    json_decref(out);
    if (v || optional(q))
        return v;
    if (q->type == RULES_PARAM_INT)
        return json_integer(q->def >= q->min && q->def <= q->max ? q->def : q->min);
    if (q->type == RULES_PARAM_BOOL)
        return json_integer(q->def);
    return json_string(q->name);
}

/* Whether the action's check accepts value (borrowed; null: left out) for p, the other
 * parameters at their first choice (an optional one without choices left out), but for another
 * combatant named beside it (in whose eyes, the second of a pair), which may be any of its
 * choices. The check only reads
 * (rules_enc_args_check draws no die and writes nothing): e is not changed. */
static int accepts(const rules_enc *e, const char *actor, const rules_enc_action *a,
                   const rules_param *p, json_t *value)
{
    json_t *params = json_object(), *others = NULL;
    const rules_param *other = NULL;
    if (!json_is_null(value))
        json_object_set(params, p->name, value);
    for (const rules_param *q = a->params; q && q->name; q++) {
        if (q == p)
            continue;
        if (is_target(q) && !other && !optional(q)) {
            other = q;
            others = json_array();
            raw(e, actor, a, q, others);
            continue;
        }
        json_t *v = first_value(e, actor, a, q, json_string_value(value));
        if (v)
            json_object_set_new(params, q->name, v);
    }
    int ok = 0;
    for (size_t i = 0; !ok && i < (other ? json_array_size(others) : 1); i++) {
        if (other)
            json_object_set(params, other->name,
                            json_object_get(json_array_get(others, i), "value"));
        rules_args args;
        tb_err err = {0};
        ok = rules_enc_args_check((rules_enc *)e, a, params, &args, &err) == TB_OK;
    }
    json_decref(others);
    json_decref(params);
    return ok;
}

int ten_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                const rules_param *p, json_t *out)
{
    json_t *all = json_array();
    int how = raw(e, actor, a, p, all);
    if (how != RULES_CHOICES_PICK || json_array_size(all) < 2) {
        json_array_extend(out, all);
        json_decref(all);
        return how;
    }
    size_t i;
    json_t *c;
    json_array_foreach(all, i, c)
    {
        if (accepts(e, actor, a, p, json_object_get(c, "value")))
            json_array_append(out, c);
    }
    if (!json_array_size(out)) /* nothing with the others' first choices: every one stays */
        json_array_extend(out, all);
    json_decref(all);
    return RULES_CHOICES_PICK;
}
