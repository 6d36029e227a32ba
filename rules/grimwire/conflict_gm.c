/*
 * conflict_gm.c — the GM's actions in grimwire.conflict (rulebook 002_c1f3df0ad7b1e31f.txt, cited
 * 002:LINE): the natural 1's unintended target, the hidden target numbers (002:29-55) and the
 * answer to a player's attack that waits for one, damage
 * traits, status effects (002:779-878), damage, blasts, lasting areas and drowning (002:723-737),
 * healing and reviving (002:256-260); each a check (pure, before any die) and a resolve, in the
 * order of the module's table (conflict.c). Calls grimwire_enc.h.
 */
#include <stdio.h>
#include <string.h>

#include "conflict.h"
#include "grid.h"

/* ---- collateral: the GM's pick for a natural 1 (002:553-559, 002:631-643) ---- */

int gw_chk_collateral(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    if (gw_ready(e, err))
        return err->code;
    if (!json_is_object(json_object_get(e->enc, "pending")) ||
        !json_is_object(json_object_get(e->hidden, "pending")))
        return rules_enc_rule(err, "no natural 1 is waiting for its unintended target");
    return 0;
}

static void do_collateral(rules_enc *e, const rules_args *a)
{
    gw_collateral(e, rules_arg_str(a, "target"), rules_arg_given(a, "spare"),
                  rules_arg_int(a, "spare"));
}

/* ---- the GM's actions ---- */

static const char *const TN_KEYS[] = {"tn", "attack_tn", "terror_tn", "stabilize_tn"};

/* Whether set_tn names the number a player's waiting attack needs (it is rolled then). */
static int answers_wait(const rules_enc *e, const rules_args *a)
{
    json_t *wait = json_object_get(e->hidden, "waiting");
    const char *wt = json_string_value(json_object_get(json_object_get(wait, "params"), "target"));
    return wait && rules_arg_given(a, "tn") && rules_enc_streq(wt, rules_arg_str(a, "target"));
}

int gw_chk_set_tn(const rules_enc *e, const rules_args *a, tb_err *err)
{
    int given = 0;
    for (int k = 0; k < 4; k++)
        given |= rules_arg_given(a, TN_KEYS[k]);
    if (!given)
        return tb_fail(err, TB_BAD_REQUEST,
                       "give a target number: tn, attack_tn, terror_tn or stabilize_tn");
    if (answers_wait(e, a))
        return gw_attack_resume_check(e, err);
    return 0;
}

static void do_set_tn(rules_enc *e, const rules_args *a)
{
    const char *t = rules_arg_str(a, "target");
    json_t *h = rules_enc_hidden_of(e, t);
    for (int k = 0; k < 4; k++)
        if (rules_arg_given(a, TN_KEYS[k]))
            json_object_set_new(h, TN_KEYS[k], json_integer(rules_arg_int(a, TN_KEYS[k])));
    rules_log *x = rules_log_begin(e, "set_tn", "set_tn");
    gw_log_res(x, json_pack("{s:s, s:O}", "target", t, "tn", h), RULES_AUD_GM);
    rules_log_who(x, "who", t);
    gw_log_for(x, RULES_AUD_GM);
    rules_log_end(x);
    if (answers_wait(e, a))
        gw_attack_resume(e);
}

/* ---- answer: the GM's number for the attack that waits for it (reading G4, issue 24) ---- */

/* The one number a player's waiting attack needs, as one move: the target number to hit the one
 * it attacks, kept as that combatant's `tn` (as set_tn would) and the attack rolled at once. */
int gw_chk_answer(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    if (!json_is_object(json_object_get(e->hidden, "waiting")))
        return rules_enc_rule(err, "no attack waits for a target number");
    return gw_attack_resume_check(e, err);
}

static void do_answer(rules_enc *e, const rules_args *a)
{
    json_t *wait = json_object_get(e->hidden, "waiting");
    const char *t = json_string_value(json_object_get(json_object_get(wait, "params"), "target"));
    json_object_set_new(rules_enc_hidden_of(e, t), "tn", json_integer(rules_arg_int(a, "tn")));
    rules_log *x = rules_log_begin(e, "answer", "answer");
    rules_log_json(x, "target", json_string(t), RULES_AUD_GM);
    rules_log_int(x, "tn", rules_arg_int(a, "tn"), RULES_AUD_GM);
    rules_log_who(x, "who", t);
    rules_log_end(x);
    gw_attack_resume(e);
}

/* A comma list of damage types; 0 or the refusal. Into *out when out is not NULL. */
static int type_list(const char *s, json_t **out, tb_err *err)
{
    char buf[200];
    snprintf(buf, sizeof buf, "%s", s ? s : "");
    if (out)
        *out = json_array();
    for (char *save = NULL, *tok = strtok_r(buf, ", ", &save); tok;
         tok = strtok_r(NULL, ", ", &save)) {
        if (!gw_known_type(tok)) {
            if (out) {
                json_decref(*out);
                *out = NULL;
            }
            return tb_fail(err, TB_BAD_REQUEST, "unknown damage type '%.40s' (002:695-721)", tok);
        }
        if (out)
            json_array_append_new(*out, json_string(tok));
    }
    return 0;
}

static const char *const TRAIT_KEYS[] = {"weak", "resist", "immune"};

int gw_chk_traits(const rules_enc *e, const rules_args *a, tb_err *err)
{
    if (gw_ready(e, err))
        return err->code;
    for (int k = 0; k < 3; k++)
        if (type_list(rules_arg_str(a, TRAIT_KEYS[k]), NULL, err))
            return err->code;
    return 0;
}

static void do_traits(rules_enc *e, const rules_args *a)
{
    const char *t = rules_arg_str(a, "target");
    json_t *lists[3] = {0};
    tb_err err = {0};
    json_t *st = rules_enc_stats(e, t);
    for (int k = 0; k < 3; k++) {
        type_list(rules_arg_str(a, TRAIT_KEYS[k]), &lists[k], &err);
        json_object_set_new(st, TRAIT_KEYS[k], lists[k]);
    }
    rules_aud aud = rules_enc_aud_of(e, t); /* an NPC's traits are the GM's */
    rules_log *x = rules_log_begin(e, "traits", "traits");
    gw_log_res(x,
               json_pack("{s:s, s:O, s:O, s:O}", "target", t, "weak", lists[0], "resist", lists[1],
                         "immune", lists[2]),
               aud);
    rules_log_who(x, "who", t);
    gw_log_for(x, aud);
    rules_log_end(x);
}

int gw_chk_status(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target"), *name = rules_arg_str(a, "name");
    const char *by = rules_arg_str(a, "target2");
    if (gw_ready(e, err))
        return err->code;
    if (!gw_is_status(name))
        return tb_fail(err, TB_BAD_REQUEST, "unknown status effect '%.40s' (002:779-876)", name);
    if (!rules_arg_int(a, "on")) {
        if (!gw_has(e, t, name))
            return rules_enc_rule(err, "%s is not %s", gw_nm(e, t), gw_status_said(name));
        return 0;
    }
    int agony = strcmp(name, "agony") == 0;
    int frenzied = gw_has(e, t, "frenzy") || gw_has(e, t, "amok"); /* 002:820 amok: the same */
    if (agony && frenzied)
        return rules_enc_rule(err, "%s is in a frenzy: immune to agony (002:816)", gw_nm(e, t));
    if (strcmp(name, "terror") == 0 && frenzied)
        return rules_enc_rule(err, "%s is in a frenzy: immune to fear (002:816)", gw_nm(e, t));
    if (agony && gw_has(e, t, "agony"))
        return rules_enc_rule(err, "%s is already in agony", gw_nm(e, t));
    if (strcmp(name, "grappled") == 0 && by && !gw_comb(e, by))
        return tb_fail(err, TB_NOT_FOUND, "there is no combatant '%.31s'", by);
    return 0;
}

static void log_status(rules_enc *e, const char *t, const char *name, int on, int timed)
{
    rules_log *x = rules_log_begin(e, "status", on ? "status_on" : "status_off");
    gw_log_res(x, json_pack("{s:s, s:s, s:b}", "target", t, "name", name, "on", on),
               RULES_AUD_PUBLIC);
    rules_log_who(x, "who", t);
    rules_log_name(x, "sname", gw_status_said(name), RULES_AUD_PUBLIC);
    if (timed)
        rules_log_word(x, "while", "status.while", RULES_AUD_PUBLIC);
    rules_log_end(x);
}

static void do_status(rules_enc *e, const rules_args *a)
{
    const char *t = rules_arg_str(a, "target"), *name = rules_arg_str(a, "name");
    const char *by = rules_arg_str(a, "target2");
    if (!rules_arg_int(a, "on")) {
        rules_enc_cond_remove(e, t, name);
        if (strcmp(name, "agony") == 0)
            gw_agony_ends(e, t);
        log_status(e, t, name, 0, 0);
        return;
    }
    int agony = strcmp(name, "agony") == 0;
    /* 002:805 agony lasts 10 rounds of conflict, 002:874 a knocked out character wakes "after a
     * minute" (10 rounds of 6 seconds), unless the GM says otherwise */
    int minute = agony || strcmp(name, "knocked_out") == 0;
    rules_enc_cond_add(e, t, name,
                       minute && !rules_arg_given(a, "turns") ? 10 : rules_arg_int(a, "turns"),
                       rules_arg_int(a, "level"));
    if (by && strcmp(name, "grappled") == 0)
        json_object_set_new(rules_enc_cond(e, t, name), "by", json_string(by));
    if (rules_arg_given(a, "tn"))
        json_object_set_new(rules_enc_hidden_of(e, t), "terror_tn",
                            json_integer(rules_arg_int(a, "tn")));
    log_status(e, t, name, 1, rules_arg_int(a, "turns") > 0);
    if (agony)
        gw_agony_begins(e, t);
    if (strcmp(name, "frenzy") == 0 || strcmp(name, "amok") == 0) {
        /* 002:816 "Immune to agony and fear": a frenzy ends both (RULES.md G23) */
        static const char *const gone[] = {"terror", "agony"};
        for (size_t i = 0; i < sizeof gone / sizeof *gone; i++) {
            if (!gw_has(e, t, gone[i]))
                continue;
            rules_enc_cond_remove(e, t, gone[i]);
            if (strcmp(gone[i], "agony") == 0)
                gw_agony_ends(e, t);
            log_status(e, t, gone[i], 0, 0);
        }
    }
    if (strcmp(name, "unconscious") == 0 || strcmp(name, "out_cold") == 0 ||
        strcmp(name, "knocked_out") == 0 || strcmp(name, "sleep") == 0)
        gw_grapples_end(e, t, "end.is_out");
    if (strcmp(name, "unconscious") == 0) {
        /* 002:866 "Falling unconscious removes all such [mental] effects" */
        static const char *const mental[] = {"terror", "brainwashed", "mind_controlled", "frenzy",
                                             "amok"};
        for (size_t i = 0; i < sizeof mental / sizeof *mental; i++)
            rules_enc_cond_remove(e, t, mental[i]);
    }
    const char *cur = rules_enc_current(e);
    if (cur && strcmp(cur, t) == 0) {
        gw_budget_adjust(e, t);
        if (gw_incapacity(e, t))
            gw_next_turn(e, t, 1);
    }
}

int gw_chk_damage(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *type = rules_arg_str(a, "type");
    if (gw_ready(e, err))
        return err->code;
    if (type && !gw_known_type(type))
        return tb_fail(err, TB_BAD_REQUEST, "unknown damage type '%.40s' (002:695-721)", type);
    return 0;
}

/* The amount the GM deals an NPC is the GM's: with its armor and traits it tells how hurt the NPC
 * is (its Condition is the GM's); the table reads that the GM dealt damage. */
static void do_damage(rules_enc *e, const rules_args *a)
{
    const char *t = rules_arg_str(a, "target"), *type = rules_arg_str(a, "type");
    int was_out = rules_enc_is_out(e, t), amount = rules_arg_int(a, "amount");
    rules_log *x = rules_log_begin(e, "damage", "gm_damage");
    rules_log_json(x, "target", json_string(t), RULES_AUD_PUBLIC);
    rules_log_int(x, "rolled", amount, rules_enc_aud_of(e, t));
    rules_log_who(x, "who", t);
    rules_log_name(x, "dtype", type ? type : "untyped", RULES_AUD_PUBLIC);
    rules_log_end(x);
    gw_take_damage(e, t, amount, type, (gw_source){"src.gm", NULL, NULL}, 0);
    const char *cur = rules_enc_current(e);
    if (!was_out && cur && strcmp(cur, t) == 0 && gw_incapacity(e, t))
        gw_next_turn(e, t, 1);
}

/* A comma list of combatant ids (splash, area): each known, none twice; at most 16. */
static int id_list(const rules_enc *e, const char *s, char ids[16][32], size_t *n, tb_err *err)
{
    char buf[400];
    *n = 0;
    snprintf(buf, sizeof buf, "%s", s);
    for (char *save = NULL, *tok = strtok_r(buf, ", ", &save); tok;
         tok = strtok_r(NULL, ", ", &save)) {
        if (*n == 16)
            return tb_fail(err, TB_BAD_REQUEST, "at most 16 can be caught in it");
        if (!gw_comb(e, tok))
            return tb_fail(err, TB_NOT_FOUND, "there is no combatant '%.31s'", tok);
        for (size_t i = 0; i < *n; i++)
            if (strcmp(ids[i], tok) == 0)
                return tb_fail(err, TB_BAD_REQUEST, "'%.31s' is named twice", tok);
        snprintf(ids[(*n)++], 32, "%s", tok);
    }
    if (*n == 0)
        return tb_fail(err, TB_BAD_REQUEST, "name at least one who is caught in it");
    return 0;
}

/* The square "x,y" of a blast's centre on the map; 0 or the refusal. */
static int centre_of(const char *s, int *x, int *y, tb_err *err)
{
    int used = 0;
    if (sscanf(s, "%d ,%d%n", x, y, &used) != 2 || s[used] != '\0' || *x < 0 || *y < 0 ||
        *x > 999 || *y > 999)
        return tb_fail(err, TB_BAD_REQUEST,
                       "the centre is a square of the map: its column and row (3,4)");
    return 0;
}

/*
 * Who a blast or an area catches: the GM's list `who`, or, placed on the map with `centre` (and
 * `radius`, default 1: 002:725 "within a certain radius", the size is the GM's), every combatant
 * whose token is shown within the radius of the centre, measured between the squares' centres
 * (RULES.md reading G26). A hidden token or a fighter off the map is never caught by the map;
 * those out of the fight are left out unless `fallen` (an area taken away).
 */
static int caught_of(const rules_enc *e, const rules_args *a, int fallen, char ids[16][32],
                     size_t *n, tb_err *err)
{
    const char *who = rules_arg_str(a, "who"), *at = rules_arg_str(a, "centre");
    int cx, cy, r = rules_arg_int(a, "radius");
    *n = 0;
    if (who && at)
        return tb_fail(err, TB_BAD_REQUEST,
                       "name who is caught or place it on the map with a centre, not both");
    if (!at && rules_arg_given(a, "radius"))
        return tb_fail(err, TB_BAD_REQUEST, "a radius needs a centre square on the map");
    if (!at && !who)
        return tb_fail(err, TB_BAD_REQUEST,
                       "name who is caught, or place it on the map with a centre square");
    if (!at)
        return id_list(e, who, ids, n, err);
    if (centre_of(at, &cx, &cy, err))
        return err->code;
    if (!rules_grid_any(e))
        return rules_enc_rule(err, "no map with the fighters on it is shown: name who is caught");
    if (!rules_grid_inside(e, cx, cy))
        return tb_fail(err, TB_BAD_REQUEST, "the centre %d,%d is off the map", cx, cy);
    const char *cid;
    int x, y;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        if (!rules_grid_square(e, cid, &x, &y) || (!fallen && rules_enc_is_out(e, cid)))
            continue;
        if ((x - cx) * (x - cx) + (y - cy) * (y - cy) > r * r)
            continue;
        if (*n == 16)
            return tb_fail(err, TB_BAD_REQUEST, "at most 16 can be caught in it");
        snprintf(ids[(*n)++], 32, "%s", cid);
    }
    if (*n == 0)
        return rules_enc_rule(err, "nobody in the fight is within %d square%s of %d,%d", r,
                              r == 1 ? "" : "s", cx, cy);
    return 0;
}

/* Starts the line of a blast or an area: placed on the map (`centre`), `placed` with the square
 * and the radius, public as the map it lies on; named by the GM (`who`), `named`. */
static rules_log *place_log(rules_enc *e, const rules_args *a, const char *action,
                            const char *placed, const char *named)
{
    const char *at = rules_arg_str(a, "centre");
    int cx, cy;
    tb_err err = {0};
    if (!at || centre_of(at, &cx, &cy, &err))
        return rules_log_begin(e, action, named);
    rules_log *x = rules_log_begin(e, action, placed);
    rules_log_int(x, "column", cx, RULES_AUD_PUBLIC);
    rules_log_int(x, "row", cy, RULES_AUD_PUBLIC);
    rules_log_int(x, "radius", rules_arg_int(a, "radius"), RULES_AUD_PUBLIC);
    return x;
}

/* The damage expression and type of a blast or an area, read before any die is rolled. */
static int damage_args(const rules_args *a, tb_err *err)
{
    const char *type = rules_arg_str(a, "type");
    if (type && !gw_known_type(type))
        return tb_fail(err, TB_BAD_REQUEST, "unknown damage type '%.40s' (002:695-721)", type);
    return gw_damage_check(rules_arg_str(a, "damage"), err);
}

/* Everyone named is in the fight. */
static int all_in(const rules_enc *e, char ids[16][32], size_t n, tb_err *err)
{
    for (size_t i = 0; i < n; i++)
        if (rules_enc_is_out(e, ids[i]))
            return rules_enc_rule(err, "%s is out of the fight", gw_nm(e, ids[i]));
    return 0;
}

/*
 * 002:725 splash damage (a grenade): one damage roll for the blast; each target in it rolls AGL
 * against the GM's number to avoid the worst of it and takes half (rounded down, at least 1,
 * reading G16); a dying target cannot roll.
 */
int gw_chk_splash(const rules_enc *e, const rules_args *a, tb_err *err)
{
    char ids[16][32];
    size_t n;
    if (gw_ready(e, err) || caught_of(e, a, 0, ids, &n, err) || damage_args(a, err) ||
        all_in(e, ids, n, err))
        return err->code;
    return 0;
}

static void do_splash(rules_enc *e, const rules_args *a)
{
    char ids[16][32];
    size_t n;
    tb_err err = {0};
    caught_of(e, a, 0, ids, &n, &err);
    int tn = rules_arg_int(a, "tn");
    const char *type = rules_arg_str(a, "type");
    json_t *dice = json_array();
    int dmg = gw_roll_plain(e, rules_arg_str(a, "damage"), dice);
    rules_log *x = place_log(e, a, "splash", "blast_at", "blast");
    rules_log_int(x, "rolled", dmg, RULES_AUD_PUBLIC);
    rules_log_dice(x, dice, RULES_AUD_PUBLIC);
    json_decref(dice);
    rules_log_end(x);
    x = rules_log_begin(e, "splash", "blast_tn");
    rules_log_int(x, "tn", tn, RULES_AUD_GM);
    rules_log_end(x);
    for (size_t i = 0; i < n; i++) {
        const char *t = ids[i];
        int d = dmg;
        if (!gw_dying(e, t)) {
            json_t *ad = json_array();
            grimwire_roll r = gw_roll_attr(e, t, "agl", GRIMWIRE_USE_EVASION, 0, tn, 0, 0, ad);
            if (r.success)
                d = dmg / 2 < 1 ? 1 : dmg / 2;
            x = rules_log_begin(e, "splash", "blast_roll");
            gw_log_roll(x, &r, gw_npc(e, t), RULES_AUD_PUBLIC);
            rules_log_who(x, "who", t);
            rules_log_word(x, "how", r.success ? "blast.dives" : "blast.caught", RULES_AUD_PUBLIC);
            rules_log_dice(x, ad, RULES_AUD_PUBLIC);
            json_decref(ad);
            rules_log_end(x);
        }
        gw_take_damage(e, t, d, type, (gw_source){"src.blast", NULL, NULL}, 0);
    }
}

/*
 * 002:727 persistent damage (a molotov's fire): the GM puts `who` (or those the map catches,
 * caught_of) in an area of `damage` (type)
 * that lasts `rounds` of each one's turns (0: until the GM takes it away with on=0); they take its
 * damage now, and again at the start of each turn unless they move out first (leave).
 */
int gw_chk_area(const rules_enc *e, const rules_args *a, tb_err *err)
{
    char ids[16][32];
    size_t n;
    if (gw_ready(e, err) || caught_of(e, a, !rules_arg_int(a, "on"), ids, &n, err))
        return err->code;
    if (!rules_arg_int(a, "on"))
        return 0;
    if (!rules_arg_str(a, "damage"))
        return tb_fail(err, TB_BAD_REQUEST, "give the area's damage (1d6)");
    if (damage_args(a, err) || all_in(e, ids, n, err))
        return err->code;
    return 0;
}

static void do_area(rules_enc *e, const rules_args *a)
{
    char ids[16][32];
    size_t n;
    tb_err err = {0};
    caught_of(e, a, !rules_arg_int(a, "on"), ids, &n, &err);
    if (rules_arg_str(a, "centre"))
        rules_log_end(place_log(e, a, "area", rules_arg_int(a, "on") ? "area_at" : "area_off_at",
                                "area_at"));
    if (!rules_arg_int(a, "on")) {
        for (size_t i = 0; i < n; i++) {
            if (rules_enc_cond_remove(e, ids[i], "area"))
                gw_log_who(e, "area", "area_off", ids[i]);
            json_object_del(gw_comb(e, ids[i]), "area_due");
        }
        return;
    }
    for (size_t i = 0; i < n; i++) {
        json_t *c = rules_enc_cond_add(e, ids[i], "area", rules_arg_int(a, "rounds"), 0);
        json_object_set_new(c, "damage", json_string(rules_arg_str(a, "damage")));
        if (rules_arg_str(a, "type"))
            json_object_set_new(c, "type", json_string(rules_arg_str(a, "type")));
        gw_log_who(e, "area", "area_on", ids[i]);
        gw_area_hurts(e, ids[i]);
    }
}

/* 002:733-735 drowning or suffocating: the GM says when a character's breath runs out (2 minutes
 * + 1 per TOG point) and when they surface; the MND 11 rolls and the damage come each turn. */
int gw_chk_drown(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    if (gw_ready(e, err))
        return err->code;
    if (rules_enc_is_out(e, t))
        return rules_enc_rule(err, "%s is out of the fight", gw_nm(e, t));
    if (!rules_arg_int(a, "on") && !gw_has(e, t, "drowning"))
        return rules_enc_rule(err, "%s is not drowning", gw_nm(e, t));
    return 0;
}

static void log_drown(rules_enc *e, const char *t, int on)
{
    rules_log *x = rules_log_begin(e, "drown", on ? "drown_on" : "drown_off");
    gw_log_res(x, json_pack("{s:s, s:b}", "target", t, "on", on), RULES_AUD_PUBLIC);
    rules_log_who(x, "who", t);
    rules_log_end(x);
}

static void do_drown(rules_enc *e, const rules_args *a)
{
    const char *t = rules_arg_str(a, "target");
    if (!rules_arg_int(a, "on")) {
        rules_enc_cond_remove(e, t, "drowning");
        log_drown(e, t, 0);
        return;
    }
    rules_enc_cond_add(e, t, "drowning", 0, 0);
    log_drown(e, t, 1);
}

int gw_chk_heal(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    return gw_ready(e, err);
}

static void do_heal(rules_enc *e, const rules_args *a)
{
    const char *t = rules_arg_str(a, "target");
    json_t *c = json_object_get(gw_stats(e, t), "condition");
    int cap = grimwire_condition_cap(gw_geti(c, "max", 10), gw_burnout(e, t)) +
              gw_geti(c, "temporary", 0);
    /* 002:258 healing cannot revive a dying character, only raise their Condition up to 0 */
    if (gw_dying(e, t))
        cap = 0;
    int cur = gw_cond_cur(e, t), to = cur + rules_arg_int(a, "amount");
    if (to > cap)
        to = cap;
    if (to < cur)
        to = cur;
    gw_cond_set(e, t, to);
    rules_log *x;
    if (gw_npc(e, t)) { /* an NPC's Condition is the GM's */
        x = rules_log_begin(e, "heal", "heal_condition");
        rules_log_int(x, "from", cur, RULES_AUD_GM);
        rules_log_int(x, "to", to, RULES_AUD_GM);
        rules_log_who(x, "who", t);
        rules_log_end(x);
    }
    x = rules_log_begin(e, "heal", "heal");
    rules_log_json(x, "target", json_string(t), RULES_AUD_PUBLIC);
    if (!gw_npc(e, t)) {
        rules_log_int(x, "from", cur, RULES_AUD_PUBLIC);
        rules_log_int(x, "to", to, RULES_AUD_PUBLIC);
    }
    rules_log_who(x, "who", t);
    if (gw_dying(e, t))
        rules_log_word(x, "still", "heal.still_dying", RULES_AUD_PUBLIC);
    rules_log_end(x);
}

int gw_chk_revive(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    if (gw_ready(e, err))
        return err->code;
    if (!gw_dying(e, t))
        return rules_enc_rule(err, "%s is not dying", gw_nm(e, t));
    return 0;
}

/* 002:260 (the stabilizing rolls are the GM's here; `stabilize` rolls them, 002:258) */
static void do_revive(rules_enc *e, const rules_args *a)
{
    gw_revive(e, rules_arg_str(a, "target"));
}

GW_RESOLVE(gw_res_collateral, collateral)
GW_RESOLVE(gw_res_set_tn, set_tn)
GW_RESOLVE(gw_res_answer, answer)
GW_RESOLVE(gw_res_traits, traits)
GW_RESOLVE(gw_res_status, status)
GW_RESOLVE(gw_res_damage, damage)
GW_RESOLVE(gw_res_splash, splash)
GW_RESOLVE(gw_res_area, area)
GW_RESOLVE(gw_res_drown, drown)
GW_RESOLVE(gw_res_heal, heal)
GW_RESOLVE(gw_res_revive, revive)
