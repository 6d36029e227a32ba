/*
 * toy.c — a toy seventh rule system (issue 23), built only by the tests (tests/toy/README.md):
 * it shows that a system is its folder and one word. Everything the server core and the client
 * need comes from this table: its name and summary for the picker, its sheet, its check, its one
 * encounter module, the clock of its scenes and its phrasings. Nothing outside this folder names
 * it but the word "toy" in the list tests/meson.build builds it with.
 *
 * The duel: each combatant has Might (1-5) and Wounds (3 + Might); a strike is a d6 + Might, a
 * hit on 5 or more takes one Wound; at none the target is down. A rest takes one back.
 */
#include <string.h>

#include "clock.h"
#include "encounter.h"
#include "system.h"

/* ---- the sheet and the check ---- */

static const rules_field toy_sheet[] = {
    {"name", RULES_FIELD_STRING, 1, 40, 1, 0, "Name", "Identity"},
    {"might", RULES_FIELD_INT, 1, 5, 1, 2, "Might", "Abilities"},
    {0},
};

static const rules_param strike_params[] = {
    {"might", RULES_PARAM_INT, 1, 5, 2, 0, "Might"},
    {0},
};

static int strike_roll(const rules_args *a, rules_rng *rng, json_t *result, tb_err *err)
{
    int d = rules_rng_die(rng, 6), total = d + rules_arg_int(a, "might");
    rules_result_die(json_object_get(result, "dice"), 6, d, 1);
    json_object_set_new(result, "total", json_integer(total));
    json_object_set_new(result, "success", json_boolean(total >= 5));
    return 0;
}

static const rules_check toy_checks[] = {
    {"strike", "a d6 + Might: 5 or more hits", strike_params, strike_roll, NULL},
    {0},
};

/* ---- the duel ---- */

static int wounds(const rules_enc *e, const char *cid)
{
    return rules_enc_stat_peek(e, cid, "wounds", 0);
}

static int duel_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    int might = (int)json_integer_value(json_object_get(sheet, "might"));
    if (might < 1)
        might = 1;
    rules_enc_stat_set(e, cid, "might", might);
    rules_enc_stat_set(e, cid, "wounds", 3 + might);
    rules_enc_stat_set(e, cid, "max", 3 + might);
    return 0;
}

static int check_begin(const rules_enc *e, const rules_args *a, tb_err *err)
{
    return rules_enc_round(e) > 0 ? rules_enc_rule(err, "the duel has begun") : 0;
}

static int do_begin(rules_enc *e, const rules_args *a, tb_err *err)
{
    rules_rank r[RULES_ENC_MAX_COMBATANTS];
    int n = 0;
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)) && n < RULES_ENC_MAX_COMBATANTS; i++)
        r[n++] = (rules_rank){cid, {rules_enc_stat(e, cid, "might", 0)}, 0};
    rules_enc_order_set(e, r, n);
    rules_enc_begin_round(e);
    rules_log_end(rules_log_begin(e, "begin", "begin"));
    return 0;
}

static int check_strike(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    if (rules_enc_streq(t, e->actor))
        return tb_fail(err, TB_BAD_REQUEST, "nobody strikes themselves");
    if (rules_enc_is_out(e, t))
        return rules_enc_rule(err, "%s is already down", rules_enc_name(e, t));
    return 0;
}

static int do_strike(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    int d = rules_rng_die(e->rng, 6), total = d + rules_enc_stat(e, e->actor, "might", 0);
    int hit = total >= 5;
    rules_log *x = rules_log_begin(e, "strike", hit ? "hit" : "miss");
    rules_log_who(x, "who", e->actor);
    rules_log_who(x, "target", t);
    rules_log_int(x, "total", total, rules_enc_aud_of(e, e->actor));
    json_t *dice = json_pack("[{s:i, s:i, s:b}]", "sides", 6, "value", d, "kept", 1);
    rules_log_dice(x, dice, rules_enc_aud_of(e, e->actor));
    json_decref(dice);
    if (hit && rules_enc_stat_add(e, t, "wounds", -1, 0, 99) == 0) {
        rules_enc_set_out(e, t, "down");
        rules_log_word(x, "down", "down", RULES_AUD_PUBLIC);
    }
    rules_log_end(x);
    rules_enc_advance(e);
    return 0;
}

static int check_rest(const rules_enc *e, const rules_args *a, tb_err *err)
{
    if (wounds(e, e->actor) >= rules_enc_stat_peek(e, e->actor, "max", 0))
        return rules_enc_rule(err, "%s has every Wound", rules_enc_name(e, e->actor));
    return 0;
}

static int do_rest(rules_enc *e, const rules_args *a, tb_err *err)
{
    rules_enc_stat_add(e, e->actor, "wounds", 1, 0, rules_enc_stat(e, e->actor, "max", 0));
    rules_log *x = rules_log_begin(e, "rest", "rest");
    rules_log_who(x, "who", e->actor);
    rules_log_end(x);
    return 0;
}

static int do_end_turn(rules_enc *e, const rules_args *a, tb_err *err)
{
    rules_enc_advance(e);
    return 0;
}

/* The targets a strike may name: the foes who are still up (the engine's default would offer
 * everyone not out; the check refuses the striker itself). */
static int duel_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                        const rules_param *p, json_t *out)
{
    if (strcmp(p->name, "target") != 0)
        return RULES_CHOICES_NONE;
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
        if (!rules_enc_streq(cid, actor) && !rules_enc_is_out(e, cid))
            json_array_append_new(
                out, json_pack("{s:s, s:s}", "value", cid, "label", rules_enc_name(e, cid)));
    return RULES_CHOICES_PICK;
}

static const rules_param P_NONE[] = {{0}};
static const rules_param P_STRIKE[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "whom to strike"},
    {0},
};

static const rules_enc_action duel_actions[] = {
    {"begin", "Begin the duel", RULES_ENC_GM, P_NONE, do_begin, "toy:1", check_begin},
    {"strike", "Strike", RULES_ENC_TURN, P_STRIKE, do_strike, "toy:2", check_strike},
    {"rest", "Catch a breath", RULES_ENC_OWNER, P_NONE, do_rest, "toy:3", check_rest,
     RULES_ENC_RARE},
    {"end_turn", "End turn", RULES_ENC_TURN, P_NONE, do_end_turn, "toy:2"},
    {0},
};

static const char *const duel_stats[] = {"might", NULL};

/* clang-format off */
static const rules_phrase duel_phrases[] = {
    {"begin", "The duel begins"},
    {"hit", "{who} strikes {target}: {total}, a hit{down?}"},
    {"hit", "{who} strikes {target}: a hit{down?}"},
    {"miss", "{who} strikes at {target}: {total}, a miss"},
    {"miss", "{who} strikes at {target} and misses"},
    {"down", ", and {target} goes down"},
    {NULL, NULL},
};
/* clang-format on */

const rules_module rules_module_toy_duel = {
    .id = "toy.duel",
    .system = "toy",
    .name = "Duel",
    .cite = "toy:1-3",
    .join = duel_join,
    .actions = duel_actions,
    .sheet_stats = duel_stats,
    .choices = duel_choices,
    .phrases = duel_phrases,
};

/* ---- the system ---- */

static const rules_module *const toy_modules[] = {&rules_module_toy_duel, NULL};

/* clang-format off */
static const rules_phrase toy_phrases[] = {
    {"rest", "{who} catches a breath"}, /* a system's phrasing: every module of it may log it */
    {NULL, NULL},
};
/* clang-format on */

static const rules_clock_stage toy_clock[] = {{"bout", "Bout", 3, "toy:1"}, {0}};

const rules_system rules_system_toy = {
    .id = "toy",
    .name = "Toy duel",
    .rulebook = "toy (tests/toy)",
    .sheet = toy_sheet,
    .checks = toy_checks,
    .modules = toy_modules,
    .summary = "A d6 and Might: the smallest system, built by the tests",
    .phrases = toy_phrases,
    .clock = toy_clock,
};
