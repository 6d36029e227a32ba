/*
 * social.c — the tenacity encounter module tenacity.social (rules/encounter.h): a social scene
 * of 10acity, where characters work on their standing in other characters' eyes (003:49, 003:70).
 * Rulebook 003_632e2c704060b738.txt, cited 003:LINE; readings in rules/RULES.md, tenacity,
 * "Social scenes (module tenacity.social)".
 *
 * A contest is a pair: `who` works on its standing in the eyes of `eyes`. Its scale is public
 * (the table sees who is winning the room) at /enc/standing/<who>/<eyes>, an integer 0..10, the
 * same shape tenacity.spotlight's `social` action keeps, so a panel reads both alike.
 *   003:70 "You will start on a scale (usually 1-10) assigned by the Narrator or the NPC card.
 *   Usually you start in a neutral position such as 5 ... Your objective is to reach the top of
 *   the scale (usually 10) ... If you reach 0, then you have lost all credibility".
 * Every roll is the contest every tenacity check is (roll.c, ten_contest_roll): ties to
 * the defender, spin, pushes with spin or 10acity, an NPC's dice and totals kept the GM's. There
 * is no turn order: the narrator paces a conversation (003:70 names none), so the moves are
 * taken by whoever controls the character, at any time.
 */
#include <string.h>

#include "tenacity_enc.h"

#define SCALE_TOP TEN_STANDING_TOP     /* 003:70 */
#define SCALE_START TEN_STANDING_START /* 003:70 */

#define CHECK(name) static int chk_##name(const rules_enc *e, const rules_args *a, tb_err *err)
#define RESOLVE(name) static int act_##name(rules_enc *e, const rules_args *a, tb_err *err)
CHECK(open);
RESOLVE(open);
CHECK(standing);
RESOLVE(standing);
CHECK(sway);
RESOLVE(sway);
CHECK(scrutiny);
RESOLVE(scrutiny);
CHECK(quit);
RESOLVE(quit);
static int start(rules_enc *e, const rules_args *options, tb_err *err);
static int check(const rules_enc *e, tb_err *err);

/* clang-format off */
#define P_ROLL_SOCIAL                                                                      \
    {"skill", RULES_PARAM_STRING, 1, 60, 0, RULES_PARAM_REQUIRED, "skill rolled (any word for a sheetless character)"}, \
    {"adv", RULES_PARAM_INT, 0, 5, 0, 0, "advantage dice"},                                \
    {"bonus", RULES_PARAM_INT, -20, 20, 0, 0, "bonus to the result"},                      \
    {"crit", RULES_PARAM_STRING, 4, 6, 0, 0, "natural 10: hero or impact"},                \
    {"push", RULES_PARAM_BOOL, 0, 1, 0, 0, "push a failure with spin or 10acity"},         \
    {"push_with", RULES_PARAM_STRING, 1, 10, 0, 0, "what pays the push: spin, tenacity or negative (default: the cheapest first)"}, \
    {"def_skill", RULES_PARAM_STRING, 1, 60, 0, 0, "the other side's skill (Reaction)"},   \
    {"def_adv", RULES_PARAM_INT, 0, 5, 0, 0, "the other side's advantage dice"},           \
    {"def_bonus", RULES_PARAM_INT, -20, 20, 0, 0, "the other side's bonus"},               \
    {"impact_bonus", RULES_PARAM_INT, -20, 20, 0, 0, "extra impact"}

static const rules_param P_OPEN[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "who is talking"},
    {"target2", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "whom they want to win over"},
    {"value", RULES_PARAM_INT, 1, SCALE_TOP - 1, SCALE_START, 0, "where the standing starts (5 neutral)"},
    {0},
};
static const rules_param P_STANDING[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "who is talking"},
    {"target2", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "whom they want to win over"},
    {"value", RULES_PARAM_INT, 0, SCALE_TOP, SCALE_START, RULES_PARAM_REQUIRED, "the standing"},
    {0},
};
static const rules_param P_SWAY[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "whom you want to win over"},
    P_ROLL_SOCIAL,
    {0},
};
static const rules_param P_SCRUTINY[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "whose standing you attack"},
    {"target2", RULES_PARAM_STRING, 1, 32, 0, 0, "in whose eyes (yourself)"},
    P_ROLL_SOCIAL,
    {0},
};
static const rules_param P_QUIT[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "whom you stop working on"},
    {0},
};

static const rules_enc_action ACTIONS[] = {
    {"open", "Open a social contest", RULES_ENC_GM, P_OPEN, act_open, "003:70", chk_open},
    {"standing", "Set the standing", RULES_ENC_GM, P_STANDING, act_standing, "003:70", chk_standing, RULES_ENC_RARE},
    {"sway", "Win them over", RULES_ENC_OWNER, P_SWAY, act_sway, "003:49, 003:66-68, 003:70", chk_sway},
    {"scrutiny", "Work against them", RULES_ENC_OWNER, P_SCRUTINY, act_scrutiny, "003:70, 003:66-68", chk_scrutiny},
    {"quit", "Give up", RULES_ENC_OWNER, P_QUIT, act_quit, "003:70", chk_quit, RULES_ENC_RARE},
    {0},
};
/* clang-format on */

const rules_module rules_module_tenacity_social = {
    .id = "tenacity.social",
    .system = "tenacity",
    .name = "Social scene",
    .cite = "003:49, 003:70",
    .options = NULL,
    .start = start,
    .join = ten_join,
    .end = ten_end,
    .actions = ACTIONS,
    .choices = ten_choices,
    .phrases = ten_phrases_social,
    .sheet_stats = ten_sheet_stats,
    .editable = ten_editable,
    .check = check,
};

/* The standing of who in the eyes of eyes, or -1 when no contest between them is open. */
static int scale_of(const rules_enc *e, const char *who, const char *eyes)
{
    return ten_standing_of(e, who, eyes, -1);
}

/* 0 when the contest of who with eyes is open and not decided; else TB_RULE saying why. */
static int require_open(const rules_enc *e, const char *who, const char *eyes, tb_err *err)
{
    int v = scale_of(e, who, eyes);
    if (v < 0)
        return rules_enc_rule(err,
                              "%s is not trying to win over %s: the GM opens that contest first",
                              rules_enc_name(e, who), rules_enc_name(e, eyes));
    if (v >= SCALE_TOP)
        return rules_enc_rule(err, "%s has already won over %s: that contest is over",
                              rules_enc_name(e, who), rules_enc_name(e, eyes));
    if (v <= 0)
        return rules_enc_rule(err, "%s has lost all credibility with %s: that contest is over",
                              rules_enc_name(e, who), rules_enc_name(e, eyes));
    return 0;
}

/* The pair of a contest in a log line: who and eyes in the result (ids) and their names in the
 * words, the standing (in the result) of the scale's top (words), and what reaching either end
 * means (003:70). */
static void scale_values(rules_log *x, const char *who, const char *eyes, int standing)
{
    rules_log_json(x, "who", json_string(who), RULES_AUD_PUBLIC);
    rules_log_json(x, "eyes", json_string(eyes), RULES_AUD_PUBLIC);
    rules_log_who(x, "whoname", who);
    rules_log_who(x, "eyesname", eyes);
    rules_log_int(x, "standing", standing, RULES_AUD_PUBLIC);
    rules_log_count(x, "top", SCALE_TOP, RULES_AUD_PUBLIC);
    if (standing >= SCALE_TOP || standing <= 0)
        rules_log_word(x, "end", standing > 0 ? "scale.won" : "scale.lost", RULES_AUD_PUBLIC);
}

/* GM: opens the contest of `target` for the good opinion of `target2`, at `value` (003:70
 * "assigned by the Narrator or the NPC card", 5 when the GM says nothing). */
CHECK(open)
{
    const char *who = rules_arg_str(a, "target"), *eyes = rules_arg_str(a, "target2");
    if (strcmp(who, eyes) == 0)
        return rules_enc_rule(err, "%s cannot win over themself", rules_enc_name(e, who));
    if (scale_of(e, who, eyes) >= 0)
        return rules_enc_rule(err, "%s is already working on %s (the GM can move the standing)",
                              rules_enc_name(e, who), rules_enc_name(e, eyes));
    return 0;
}

RESOLVE(open)
{
    const char *who = rules_arg_str(a, "target"), *eyes = rules_arg_str(a, "target2");
    int v = rules_arg_int(a, "value");
    ten_standing_set(e, who, eyes, v);
    rules_log *x = rules_log_begin(e, "open", "open");
    scale_values(x, who, eyes, v);
    rules_log_end(x);
    return 0;
}

/* GM: moves an open or finished contest's standing (the narrator's call, 003:70 "difficult to
 * come back from" is the GM's to judge). */
CHECK(standing)
{
    const char *who = rules_arg_str(a, "target"), *eyes = rules_arg_str(a, "target2");
    if (scale_of(e, who, eyes) < 0)
        return rules_enc_rule(err, "%s is not trying to win over %s: open that contest first",
                              rules_enc_name(e, who), rules_enc_name(e, eyes));
    return 0;
}

RESOLVE(standing)
{
    const char *who = rules_arg_str(a, "target"), *eyes = rules_arg_str(a, "target2");
    int before = scale_of(e, who, eyes), v = rules_arg_int(a, "value");
    ten_standing_set(e, who, eyes, v);
    rules_log *x = rules_log_begin(e, "standing", "standing");
    scale_values(x, who, eyes, v);
    rules_log_int(x, "before", before, RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/* The check of a roll of `roller` against `opp` on who's standing in eyes's eyes. */
static int social_check(const rules_enc *e, const rules_args *a, const char *roller,
                        const char *opp, const char *who, const char *eyes, const char *action,
                        tb_err *err)
{
    const char *skill = ten_skill_arg(a);
    int rc = ten_require_contest(e, roller, opp, action, skill, err);
    if (!rc)
        rc = require_open(e, who, eyes, err);
    return rc ? rc : ten_contest_check(e, roller, opp, skill, a, err);
}

/*
 * Rolls `roller` against `opp` and moves who's standing in eyes's eyes: sign +1 when the roller
 * is who (its success raises the standing by its impact, its failure lowers it by the opponent's
 * impact, 003:49), -1 when the roller works against who (its success lowers the standing by its
 * impact, 003:70 "If they succeed, their impact dice will decrease your standing"; its failure
 * leaves it: RULES.md reading). verb: the log's words.
 */
static void social_roll(rules_enc *e, const rules_args *a, const char *roller, const char *opp,
                        const char *who, const char *eyes, int sign, const char *action,
                        const char *verb)
{
    const char *skill = ten_skill_arg(a);
    int before = scale_of(e, who, eyes);
    ten_contest c;
    rules_log *x = rules_log_begin(e, action, "social_roll");
    ten_contest_roll(e, roller, opp, skill, a, NULL, 1, &c, x);
    int delta = c.success ? sign * c.impact : 0;
    if (!c.success && sign > 0) {
        /* 003:49 "On a fail, your social standard declines by your opponent's impact roll." */
        json_t *dd = json_array();
        int opp_impact = ten_impact_roll(e, &c.def, 0, 0, dd);
        ten_log_side(e, x, dd, opp, "opp_impact", opp_impact);
        json_decref(dd);
        delta = -opp_impact;
    }
    int after = ten_standing_move(e, who, eyes, before, delta);
    scale_values(x, who, eyes, after);
    rules_log_int(x, "before", before, RULES_AUD_PUBLIC);
    rules_log_who(x, "roller", roller);
    rules_log_who(x, "opp", opp);
    rules_log_word(x, "verb", verb, RULES_AUD_PUBLIC);
    if (strcmp(eyes, opp) != 0 && strcmp(eyes, roller) != 0)
        rules_log_word(x, "in", "w.in", RULES_AUD_PUBLIC);
    ten_log_skill(e, x, roller, skill);
    ten_log_versus(e, x, roller, opp, 0, c.atk.total, c.def.total);
    rules_log_word(x, "outcome",
                   sign > 0 ? (c.success ? "sway.works" : "sway.flat")
                            : (c.success ? "scrutiny.lands" : "scrutiny.fails"),
                   RULES_AUD_PUBLIC);
    rules_log_end(x);
    ten_done(e);
}

/* The actor works on its standing with `target` (003:49 CHANGE SOCIAL STANDING). */
CHECK(sway)
{
    if (ten_require_in(e, e->actor, err))
        return err->code;
    const char *target = rules_arg_str(a, "target");
    return social_check(e, a, e->actor, target, e->actor, target, "sway", err);
}

RESOLVE(sway)
{
    const char *target = rules_arg_str(a, "target");
    social_roll(e, a, e->actor, target, e->actor, target, +1, "sway", "verb.works_on");
    return 0;
}

/* The actor works against `target`'s standing in the eyes of `target2` (the actor itself when
 * absent): 003:70 "you will be up against an opponent or the scrutiny of the other character(s)
 * attempting to lower you social standing and you will be required to roll against their
 * attempts". The target defends. */
static const char *scrutiny_eyes(const rules_enc *e, const rules_args *a)
{
    const char *eyes = rules_arg_str(a, "target2");
    return eyes ? eyes : e->actor;
}

CHECK(scrutiny)
{
    if (ten_require_in(e, e->actor, err))
        return err->code;
    const char *target = rules_arg_str(a, "target");
    return social_check(e, a, e->actor, target, target, scrutiny_eyes(e, a), "scrutiny", err);
}

RESOLVE(scrutiny)
{
    const char *target = rules_arg_str(a, "target");
    social_roll(e, a, e->actor, target, target, scrutiny_eyes(e, a), -1, "scrutiny",
                "verb.works_against");
    return 0;
}

/* The actor gives up on `target` where the standing stands (003:70 "Often you will want to quit
 * before you reach that level"): the contest closes. */
CHECK(quit)
{
    if (ten_require_in(e, e->actor, err))
        return err->code;
    return require_open(e, e->actor, rules_arg_str(a, "target"), err);
}

RESOLVE(quit)
{
    const char *target = rules_arg_str(a, "target");
    int v = scale_of(e, e->actor, target);
    json_object_del(json_object_get(ten_standing_all(e), e->actor), target);
    rules_log *x = rules_log_begin(e, "quit", "quit");
    rules_log_json(x, "who", json_string(e->actor), RULES_AUD_PUBLIC);
    rules_log_json(x, "eyes", json_string(target), RULES_AUD_PUBLIC);
    rules_log_who(x, "whoname", e->actor);
    rules_log_who(x, "eyesname", target);
    rules_log_int(x, "standing", v, RULES_AUD_PUBLIC);
    rules_log_count(x, "top", SCALE_TOP, RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

static int start(rules_enc *e, const rules_args *options, tb_err *err)
{
    (void)options;
    (void)err;
    ten_standing_all(e);
    return 0;
}

/* The module's part of rules_enc_check: /enc/standing maps ids to ids to 0..10. An entry may
 * name a combatant the GM has since removed (enc.remove has no module hook): it is kept, and the
 * moves refuse it (the combatant is unknown). */
static int check(const rules_enc *e, tb_err *err)
{
    json_t *all = json_object_get(e->enc, "standing");
    if (!all)
        return 0;
    if (!json_is_object(all))
        return rules_enc_rule(err, "the social standings are damaged; the GM can end the scene");
    const char *who, *eyes;
    json_t *mine, *v;
    json_object_foreach(all, who, mine)
    {
        if (!json_is_object(mine))
            return rules_enc_rule(err, "a social standing is damaged; the GM can end the scene");
        json_object_foreach(mine, eyes, v)
        {
            if (!json_is_integer(v) || json_integer_value(v) < 0 ||
                json_integer_value(v) > SCALE_TOP)
                return rules_enc_rule(err, "a social standing is damaged; the GM can end the "
                                           "scene");
        }
    }
    return 0;
}
