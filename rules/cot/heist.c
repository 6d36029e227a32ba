/*
 * heist.c — City of Thieves' heist scene (000:174-222) as the encounter module `cot.heist`: the
 * Spot the GM prepares before the job (zones with tags, barriers with their securities, guards
 * with Awareness and Training), revealed zone by zone as the crew enters or researches it; the
 * Prep Stage's research (Planning, Connections, stakeouts), Foresight from Planning and the
 * schemes that spend it.
 *
 * State (beyond encounter.h): the Spot, /gm/enc/spot and /enc/spot (cot_enc.h, "the Spot";
 * its model is rules/cot/spot.c).
 * A zone is public once revealed (entered, found by research, shown by the GM); a barrier once
 * one of its sides is; a guard once its zone is. Scores (Awareness, Training, barrier scores,
 * hidden ratings) never leave /gm: the public log says only success or failure.
 *
 * Every refusal is an action's check, decided before the first die (validate before you roll).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cot_enc.h"

#define FORESIGHT_THRESHOLD 3 /* 000:214 */

static int heist_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err);
static int check_zone(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_zone(rules_enc *e, const rules_args *a, tb_err *err);
static int check_barrier(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_barrier(rules_enc *e, const rules_args *a, tb_err *err);
static int check_guard(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_guard(rules_enc *e, const rules_args *a, tb_err *err);
static int check_reveal(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_reveal(rules_enc *e, const rules_args *a, tb_err *err);
static int check_alert(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_alert(rules_enc *e, const rules_args *a, tb_err *err);
static int act_mark(rules_enc *e, const rules_args *a, tb_err *err);
static int check_move(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_move(rules_enc *e, const rules_args *a, tb_err *err);
static int check_bypass(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_bypass(rules_enc *e, const rules_args *a, tb_err *err);
static int check_research(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_research(rules_enc *e, const rules_args *a, tb_err *err);
static int check_plan(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_plan(rules_enc *e, const rules_args *a, tb_err *err);
static int check_scheme(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_scheme(rules_enc *e, const rules_args *a, tb_err *err);
static int heist_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                         const rules_param *p, json_t *out);

/* ---- the table ---- */

static const rules_param ZONE_PARAMS[] = {
    {"id", RULES_PARAM_STRING, 1, 24, 0, RULES_PARAM_REQUIRED, "zone id (z1, vault...)"},
    {"name", RULES_PARAM_STRING, 1, 60, 0, RULES_PARAM_REQUIRED, "name the crew will see"},
    {"tags", RULES_PARAM_STRING, 1, 100, 0, 0, "hazardous, noisy, hidden, crowded"},
    {"edge", RULES_PARAM_BOOL, 0, 1, 0, 0, "at the edge of the Spot"},
    {"rating", RULES_PARAM_INT, 0, 60, COT_DIFFICULTY_BASE, 0, "Hidden: the rating to find it"},
    {"hazard", RULES_PARAM_INT, 0, 60, COT_DIFFICULTY_BASE, 0, "Hazardous: the difficulty"},
    {0},
};
static const rules_param BARRIER_PARAMS[] = {
    {"id", RULES_PARAM_STRING, 1, 24, 0, RULES_PARAM_REQUIRED, "barrier id"},
    {"from", RULES_PARAM_STRING, 1, 24, 0, RULES_PARAM_REQUIRED, "a zone id or outside"},
    {"to", RULES_PARAM_STRING, 1, 24, 0, RULES_PARAM_REQUIRED, "a zone id or outside"},
    {"tag", RULES_PARAM_STRING, 1, 12, 0, RULES_PARAM_REQUIRED,
     "lock, vault, height, structure or none"},
    {"score", RULES_PARAM_INT, 0, 60, COT_DIFFICULTY_BASE, 0, "Security Score"},
    {0},
};
static const rules_param GUARD_PARAMS[] = {
    {"id", RULES_PARAM_STRING, 1, 24, 0, RULES_PARAM_REQUIRED, "guard id"},
    {"name", RULES_PARAM_STRING, 1, 60, 0, RULES_PARAM_REQUIRED, "name"},
    {"zone", RULES_PARAM_STRING, 1, 24, 0, RULES_PARAM_REQUIRED, "where the guard stands"},
    {"brains", RULES_PARAM_INT, 1, 10, 2, 0, "Brains"},
    {"lookout", RULES_PARAM_INT, 0, 10, 0, 0, "Lookout"},
    {"muscle", RULES_PARAM_INT, 1, 10, 2, 0, "Muscle"},
    {"resist", RULES_PARAM_INT, 0, 10, 0, 0, "Resist"},
    {0},
};
static const rules_param REVEAL_PARAMS[] = {
    {"zone", RULES_PARAM_STRING, 1, 24, 0, RULES_PARAM_REQUIRED, "zone id"},
    {0},
};
static const rules_param ALERT_PARAMS[] = {
    {"guard", RULES_PARAM_STRING, 1, 24, 0, RULES_PARAM_REQUIRED, "guard id"},
    {"aware", RULES_PARAM_BOOL, 0, 1, 1, 0, "Aware (1) or not (0)"},
    {0},
};
static const rules_param MARK_PARAMS[] = {
    {"connections", RULES_PARAM_INT, 0, 10, 0, RULES_PARAM_REQUIRED, "the mark's Connections"},
    {"name", RULES_PARAM_STRING, 1, 60, 0, 0, "who the mark is"},
    {0},
};
static const rules_param MOVE_PARAMS[] = {
    {"zone", RULES_PARAM_STRING, 1, 24, 0, RULES_PARAM_REQUIRED, "the zone to enter"},
    {"stealth", RULES_PARAM_BOOL, 0, 1, 1, 0, "move unseen (a Sneak roll where guards stand)"},
    {"skill", RULES_PARAM_STRING, 1, 20, 0, 0, "hazardous zone: athletics or cat_burglary"},
    {0},
};
static const rules_param BYPASS_PARAMS[] = {
    {"barrier", RULES_PARAM_STRING, 1, 24, 0, RULES_PARAM_REQUIRED, "barrier id"},
    {"skill", RULES_PARAM_STRING, 1, 20, 0, 0, "the skill (lockpicking, safecracking...)"},
    {"bonus", RULES_PARAM_INT, -10, 10, 0, 0, "Bonus dice for tools (+1k0 each)"},
    {0},
};
static const rules_param RESEARCH_PARAMS[] = {
    {"goal", RULES_PARAM_STRING, 1, 12, 0, RULES_PARAM_REQUIRED,
     "layout, hidden, mark or itinerary"},
    {"method", RULES_PARAM_STRING, 1, 12, 0, RULES_PARAM_REQUIRED,
     "planning, connections or stakeout"},
    {"bonus", RULES_PARAM_INT, -10, 10, 0, 0, "Bonus dice (+1k0 each)"},
    {0},
};
static const rules_param PLAN_PARAMS[] = {
    {"bonus", RULES_PARAM_INT, -10, 10, 0, 0, "Bonus dice (+1k0 each)"},
    {0},
};
static const rules_param SCHEME_PARAMS[] = {
    {"scheme", RULES_PARAM_STRING, 1, 12, 0, RULES_PARAM_REQUIRED,
     "ambush, training, secrets, cache, blueprint or switch"},
    {"rolled", RULES_PARAM_INT, 0, 10, 0, 0, "training: dice rolled added to the roll"},
    {"kept", RULES_PARAM_INT, 0, 10, 0, 0, "training: kept dice added"},
    {"zone", RULES_PARAM_STRING, 1, 24, 0, 0, "ambush: where the crew member turns up"},
    {"zones", RULES_PARAM_INT, 0, 20, 0, 0, "ambush: zones moved; blueprint: zones bypassed"},
    {"resources", RULES_PARAM_INT, 0, 999, 0, 0, "cache: Resources spent"},
    {"edge", RULES_PARAM_BOOL, 0, 1, 0, 0, "blueprint: the zone reaches the edge of the Spot"},
    {0},
};

static const rules_enc_action HEIST_ACTIONS[] = {
    {"zone", "Prepare a zone", RULES_ENC_GM, ZONE_PARAMS, act_zone, "000:176-186", check_zone, 0},
    {"barrier", "Prepare a barrier", RULES_ENC_GM, BARRIER_PARAMS, act_barrier, "000:180, 188-192",
     check_barrier, 0},
    {"guard", "Place a guard", RULES_ENC_GM, GUARD_PARAMS, act_guard, "000:194-200", check_guard,
     0},
    {"reveal", "Show a zone", RULES_ENC_GM, REVEAL_PARAMS, act_reveal, "000:176-186", check_reveal,
     0},
    {"alert", "Mark a guard Aware", RULES_ENC_GM, ALERT_PARAMS, act_alert, "000:194", check_alert,
     0},
    {"mark", "Set the mark's Connections", RULES_ENC_GM, MARK_PARAMS, act_mark, "000:209", NULL,
     RULES_ENC_RARE},
    {"move", "Move to a zone", RULES_ENC_OWNER, MOVE_PARAMS, act_move, "000:176-186, 196-200",
     check_move, 0},
    {"bypass", "Get past a barrier", RULES_ENC_OWNER, BYPASS_PARAMS, act_bypass, "000:188-192",
     check_bypass, 0},
    {"research", "Research", RULES_ENC_OWNER, RESEARCH_PARAMS, act_research, "000:202-211",
     check_research, 0},
    {"plan", "Plan for Foresight", RULES_ENC_OWNER, PLAN_PARAMS, act_plan, "000:213-215",
     check_plan, 0},
    {"scheme", "Spend Foresight", RULES_ENC_OWNER, SCHEME_PARAMS, act_scheme, "000:217-222",
     check_scheme, 0},
    {0},
};

/* Written back to the sheet: Reputation (000:203), Heat (000:204), Foresight (000:213-215),
 * Resources (000:220). */
static const char *const HEIST_SHEET_STATS[] = {"reputation", "heat", "foresight", "resources",
                                                NULL};

/* clang-format off */
static const rules_phrase HEIST_PHRASES[] = {
    {"zone", "Zone {name} prepared"},
    {"barrier", "Barrier {id} between {from} and {to} prepared"},
    {"guard", "{name} guards {zone}: Awareness {awareness}, Training {training}"},
    {"reveal", "The crew learns of {zone}"},
    {"alert", "{guard} is {state}"},
    {"mark", "The mark's Connections: {connections}"},
    {"hazard", "{who} tries to cross {zone}: {state}"},
    {"aware", "The crowd draws the guards' eyes: the guards of {zone} are Aware"},
    {"move", "{who} moves into {zone}"},
    {"walk", "{who} walks into {zone} in plain sight{seen?}"},
    {"walk.seen", ": the guards there are Aware"},
    {"sneak", "{who} sneaks into {zone}: {state}{gm?}"},
    {"sneak.gm", " ({total} vs Awareness {awareness})"},
    {"bypass", "{who} works at the {tag}: {state}{gm?}"},
    {"bypass.gm", " ({total} vs Security {score})"},
    {"research", "{who} researches the {goal_name} by {how}: {found}{gm?}"},
    {"research.planning", "planning"},
    {"research.connections", "calling on contacts"},
    {"research.stakeout", "a stakeout"},
    {"research.gm", " ({total} vs {difficulty})"},
    {"research.gm_hidden", " ({total})"},
    {"stakeout", "{who} watches the Spot {state}{gm?}"},
    {"stakeout.unseen", "unnoticed"},
    {"stakeout.seen", "and is noticed: the crew's Heat rises"},
    {"plan", "{who} plans ahead: {gained} Foresight (now {foresight} of {cap})"},
    {"scheme", "{who} spends {cost} Foresight: {what}"},
    {"scheme.ambush", "was in {zone} all along"},
    {"scheme.training", "trained for it: +{dice} dice rolled, +{kept_dice} kept on the next roll"},
    {"scheme.secrets", "calls in a secret: a Connections, Planning or Mysticism roll"},
    {"scheme.switch", "prepared a switch: a disguise or forgery roll"},
    {"scheme.cache", "stashed gear beforehand ({resources} Resources)"},
    {"scheme.blueprint", "knows a hidden way through"},
    {NULL, NULL},
};
/* clang-format on */

const rules_module rules_module_cot_heist = {
    .id = "cot.heist",
    .system = "cot",
    .name = "Heist",
    .cite = "000:174-222",
    .join = heist_join,
    .actions = HEIST_ACTIONS,
    .sheet_stats = HEIST_SHEET_STATS,
    .choices = heist_choices,
    .phrases = HEIST_PHRASES,
};

/* ---- choices ---- */

/* A parameter's words: the values it takes and how a person reads them. */
typedef struct heist_pick {
    const char *action, *param;
    const char *const *values; /* NULL-terminated; the first "" stands for null */
    const char *const *labels;
} heist_pick;

static const char *const BTAG_V[] = {"lock", "vault", "height", "structure", "none", NULL};
static const char *const BTAG_L[] = {"Lock", "Vault", "Height", "Structure", "No security"};
static const char *const HSKILL_V[] = {"", "athletics", "cat_burglary", NULL};
static const char *const HSKILL_L[] = {"Athletics", "Athletics", "Cat Burglary"};
static const char *const BSKILL_V[] = {
    "", "lockpicking", "safecracking", "athletics", "cat_burglary", "build", NULL};
static const char *const BSKILL_L[] = {"The barrier's usual skill",
                                       "Lockpicking",
                                       "Safecracking",
                                       "Athletics",
                                       "Cat Burglary",
                                       "Build"};
static const char *const GOAL_V[] = {"layout", "hidden", "mark", "itinerary", NULL};
static const char *const GOAL_L[] = {"The layout", "Hidden ways", "The mark", "An itinerary"};
static const char *const METHOD_V[] = {"planning", "connections", "stakeout", NULL};
static const char *const METHOD_L[] = {"Planning", "Calling on contacts", "A stakeout"};
static const char *const SCHEME_V[] = {"ambush",    "training", "secrets", "cache",
                                       "blueprint", "switch",   NULL};
static const char *const SCHEME_L[] = {"Ambush",  "Training",  "Secrets",
                                       "A cache", "Blueprint", "A switch"};

static const heist_pick PICKS[] = {
    {"barrier", "tag", BTAG_V, BTAG_L},
    {"move", "skill", HSKILL_V, HSKILL_L},
    {"bypass", "skill", BSKILL_V, BSKILL_L},
    {"research", "goal", GOAL_V, GOAL_L},
    {"research", "method", METHOD_V, METHOD_L},
    {"scheme", "scheme", SCHEME_V, SCHEME_L},
    {NULL, NULL, NULL, NULL},
};

/* Open fields the state suggests a value for: an INT's default, a new id. */
static int suggest(json_t *out, json_t *v, const char *label)
{
    cot_choice(out, v, label);
    return RULES_CHOICES_DEFAULT;
}

static int heist_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                         const rules_param *p, json_t *out)
{
    const char *act = a->name, *par = p->name;
    for (const heist_pick *k = PICKS; k->action; k++)
        if (strcmp(k->action, act) == 0 && strcmp(k->param, par) == 0) {
            for (size_t i = 0; k->values[i]; i++)
                cot_choice(out, k->values[i][0] ? json_string(k->values[i]) : NULL, k->labels[i]);
            return RULES_CHOICES_PICK;
        }
    if (strcmp(par, "tags") == 0)
        cot_zone_choose_tags(out);
    else if (strcmp(par, "zone") == 0 && strcmp(act, "move") == 0)
        cot_spot_choose_moves(e, actor, out);
    else if (strcmp(par, "zone") == 0 && strcmp(act, "scheme") == 0) {
        cot_choice(out, NULL, "none");
        cot_spot_choose_zones(e, 1, 0, out);
    } else if (strcmp(par, "zone") == 0)
        cot_spot_choose_zones(e, 0, 0, out); /* the GM's: a guard's post, a zone to show */
    else if (strcmp(par, "from") == 0 || strcmp(par, "to") == 0)
        cot_spot_choose_zones(e, 0, 1, out);
    else if (strcmp(par, "barrier") == 0)
        cot_spot_choose_barriers(e, actor, out);
    else if (strcmp(par, "guard") == 0) {
        const char *k;
        json_t *v;
        json_object_foreach(cot_spot_plan_get(e, "guards"), k, v)
            cot_choice(out, json_string(k), cot_str(v, "name"));
    } else if (strcmp(par, "rolled") == 0 || strcmp(par, "zones") == 0 ||
               strcmp(par, "resources") == 0)
        return suggest(out, json_integer(1), "one"); /* the least a scheme can spend */
    else
        return RULES_CHOICES_NONE;
    return RULES_CHOICES_PICK;
}

/* The phrasing of a research method and of a scheme (their words in HEIST_PHRASES). */
static const char *const METHOD_WORDS[][2] = {{"planning", "research.planning"},
                                              {"connections", "research.connections"},
                                              {"stakeout", "research.stakeout"},
                                              {NULL, NULL}};
static const char *const SCHEME_WORDS[][2] = {{"ambush", "scheme.ambush"},
                                              {"training", "scheme.training"},
                                              {"secrets", "scheme.secrets"},
                                              {"switch", "scheme.switch"},
                                              {"cache", "scheme.cache"},
                                              {"blueprint", "scheme.blueprint"},
                                              {NULL, NULL}};

static const char *word_of(const char *const (*words)[2], const char *value)
{
    for (; words[0][0]; words++)
        if (strcmp(words[0][0], value) == 0)
            return words[0][1];
    return words[-1][1];
}

/* A log entry of the crew member's (`who`) action, with the dice of its roll (stolen, may be
 * NULL): the crew's rolls are open; the numbers of the GM's it meets are said to the GM only
 * (the `gm` word of each phrasing). */
static rules_log *crew_log(rules_enc *e, const char *action, const char *event, json_t *dice)
{
    rules_log *x = rules_log_begin(e, action, event);
    rules_log_who(x, "who", e->actor);
    if (dice)
        rules_log_dice(x, dice, RULES_AUD_PUBLIC);
    json_decref(dice);
    return x;
}

/* ---- join ---- */

static int heist_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    (void)err;
    json_t *st = rules_enc_stats(e, cid);
    /* copies, not the sheet's own objects (an empty object when the sheet has none) */
    static const char *const KEYS[] = {"abilities", "skills"};
    for (int i = 0; i < 2; i++) {
        json_t *v = json_object_get(sheet, KEYS[i]);
        json_object_set_new(st, KEYS[i], v ? json_deep_copy(v) : json_object());
    }
    /* 000:176 "Characters begin a Heist outside the Spot and Concealed" */
    if (!rules_enc_is_npc(e, cid))
        json_object_set_new(cot_spot_shown(e, "crew"), cid, json_string(COT_OUTSIDE));
    return 0;
}

/* ---- the GM's preparation ---- */

static int check_zone(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)e;
    if (strcmp(rules_arg_str(a, "id"), COT_OUTSIDE) == 0)
        return tb_fail(err, TB_BAD_REQUEST, "id: 'outside' names the street outside the Spot");
    json_t *tags = cot_zone_tags_parse(rules_arg_str(a, "tags"), err);
    if (!tags)
        return err->code;
    json_decref(tags);
    return 0;
}

/* The GM adds (or replaces) a zone of the Spot (000:176-186): GM-only until revealed. */
static int act_zone(rules_enc *e, const rules_args *a, tb_err *err)
{
    json_t *tags = cot_zone_tags_parse(rules_arg_str(a, "tags"), err);
    json_object_set_new(cot_spot_plan(e, "zones"), rules_arg_str(a, "id"),
                        json_pack("{s:s, s:o, s:b, s:i, s:i}", "name", rules_arg_str(a, "name"),
                                  "tags", tags, "edge", rules_arg_int(a, "edge"), "rating",
                                  rules_arg_int(a, "rating"), "hazard",
                                  rules_arg_int(a, "hazard")));
    /* a zone the crew knows, prepared again, shows what it is now (its name and tags) */
    json_t *known = json_object_get(cot_spot_shown_get(e, "zones"), rules_arg_str(a, "id"));
    if (known) {
        json_object_set_new(known, "name", json_string(rules_arg_str(a, "name")));
        json_object_set_new(known, "tags", json_deep_copy(tags));
    }
    rules_log *x = rules_log_begin(e, "zone", "zone");
    rules_log_name(x, "name", rules_arg_str(a, "name"), RULES_AUD_GM);
    rules_log_end(x);
    return 0;
}

static int check_barrier(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *from = rules_arg_str(a, "from"), *to = rules_arg_str(a, "to");
    const char *tag = rules_arg_str(a, "tag");
    if (!cot_zone_known(e, from) || !cot_zone_known(e, to))
        return tb_fail(err, TB_NOT_FOUND, "from/to: prepare both zones first ('%.32s', '%.32s')",
                       from, to);
    if (strcmp(from, to) == 0)
        return tb_fail(err, TB_BAD_REQUEST, "a barrier divides two different zones");
    if (cot_barrier_tag(tag) < 0)
        return tb_fail(err, TB_BAD_REQUEST,
                       "tag: '%.20s' is not lock, vault, height, structure "
                       "or none",
                       tag);
    return 0;
}

static int act_barrier(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *from = rules_arg_str(a, "from"), *to = rules_arg_str(a, "to");
    const char *tag = rules_arg_str(a, "tag");
    json_object_set_new(cot_spot_plan(e, "barriers"), rules_arg_str(a, "id"),
                        json_pack("{s:s, s:s, s:s, s:i, s:b}", "from", from, "to", to, "tag", tag,
                                  "score", rules_arg_int(a, "score"), "open",
                                  strcmp(tag, "none") == 0));
    /* reading 3: a barrier is shown once the crew knows both its sides, also one prepared after
     * they were found (else the crew could walk through a way it has never seen) */
    if (cot_zone_shown(e, from) && cot_zone_shown(e, to))
        json_object_set_new(cot_spot_shown(e, "barriers"), rules_arg_str(a, "id"),
                            json_pack("{s:s, s:s, s:s, s:b}", "from", from, "to", to, "tag", tag,
                                      "open", strcmp(tag, "none") == 0));
    rules_log *x = rules_log_begin(e, "barrier", "barrier");
    rules_log_name(x, "id", rules_arg_str(a, "id"), RULES_AUD_GM);
    rules_log_name(x, "from", cot_zone_name(e, from), RULES_AUD_GM);
    rules_log_name(x, "to", cot_zone_name(e, to), RULES_AUD_GM);
    rules_log_end(x);
    return 0;
}

static int check_guard(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *zone = rules_arg_str(a, "zone");
    if (!json_object_get(cot_spot_plan_get(e, "zones"), zone))
        return tb_fail(err, TB_NOT_FOUND, "zone: prepare zone '%.32s' first", zone);
    return 0;
}

/* 000:194-198 a guard: Awareness from Brains+Lookout, Training from Muscle+Resist. */
static int act_guard(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *zone = rules_arg_str(a, "zone");
    int brains = rules_arg_int(a, "brains"), muscle = rules_arg_int(a, "muscle");
    int awareness = cot_guard_score(brains + rules_arg_int(a, "lookout"), brains);
    int training = cot_guard_score(muscle + rules_arg_int(a, "resist"), muscle);
    json_object_set_new(cot_spot_plan(e, "guards"), rules_arg_str(a, "id"),
                        json_pack("{s:s, s:s, s:i, s:i}", "name", rules_arg_str(a, "name"), "zone",
                                  zone, "awareness", awareness, "training", training));
    rules_log *x = rules_log_begin(e, "guard", "guard");
    rules_log_name(x, "name", rules_arg_str(a, "name"), RULES_AUD_GM);
    rules_log_name(x, "zone", cot_zone_name(e, zone), RULES_AUD_GM);
    rules_log_int(x, "awareness", awareness, RULES_AUD_GM);
    rules_log_int(x, "training", training, RULES_AUD_GM);
    rules_log_end(x);
    return 0;
}

static int check_reveal(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *zone = rules_arg_str(a, "zone");
    if (!json_object_get(cot_spot_plan_get(e, "zones"), zone))
        return tb_fail(err, TB_NOT_FOUND, "zone: no zone '%.32s' in the Spot", zone);
    return 0;
}

static int act_reveal(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *zone = rules_arg_str(a, "zone");
    if (!cot_spot_reveal(e, zone))
        return 0;
    rules_log *x = rules_log_begin(e, "reveal", "reveal");
    rules_log_name(x, "zone", cot_zone_name(e, zone), RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

static int check_alert(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *g = rules_arg_str(a, "guard");
    if (!json_object_get(cot_spot_plan_get(e, "guards"), g))
        return tb_fail(err, TB_NOT_FOUND, "guard: no guard '%.32s'", g);
    return 0;
}

static int act_alert(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *g = rules_arg_str(a, "guard");
    json_t *pg = json_object_get(cot_spot_plan(e, "guards"), g);
    cot_spot_see_guards(e, cot_str(pg, "zone"));
    json_object_set_new(json_object_get(cot_spot_shown(e, "guards"), g), "aware",
                        json_boolean(rules_arg_int(a, "aware")));
    rules_log *x = rules_log_begin(e, "alert", "alert");
    rules_log_name(x, "guard", cot_str(pg, "name"), RULES_AUD_PUBLIC);
    rules_log_name(x, "state", rules_arg_int(a, "aware") ? "Aware" : "no longer Aware",
                   RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/* The mark's Connections (000:209 "25-(The Target's Connections Skill)") are the GM's number:
 * the crew's research of the mark rolls against it without being told (issue 25). */
static int act_mark(rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)err;
    json_t *m = json_pack("{s:i}", "connections", rules_arg_int(a, "connections"));
    if (rules_arg_str(a, "name"))
        json_object_set_new(m, "name", json_string(rules_arg_str(a, "name")));
    json_object_set_new(cot_child(e->hidden, "spot"), "mark", m);
    rules_log *x = rules_log_begin(e, "mark", "mark");
    rules_log_int(x, "connections", rules_arg_int(a, "connections"), RULES_AUD_GM);
    rules_log_end(x);
    return 0;
}

/* ---- the crew in the Spot ---- */

/* 000:186 Crowded: "Rolls made with Cat Burglar ... cause all Guards in the Zone to become
 * Aware": a Cat Burglary roll made in (or into) zone zid. */
static void crowd_alarm(rules_enc *e, const char *zid)
{
    json_t *z = json_object_get(cot_spot_plan_get(e, "zones"), zid);
    if (!cot_zone_has_tag(z, "crowded") || !cot_spot_alarm(e, zid))
        return;
    rules_log *x = rules_log_begin(e, "aware", "aware");
    rules_log_name(x, "zone", cot_zone_name(e, zid), RULES_AUD_PUBLIC);
    rules_log_end(x);
}

/* The skill of a move across a Hazardous zone: athletics unless `skill` says cat_burglary. */
static const char *hazard_skill(const rules_args *a)
{
    return rules_arg_str(a, "skill") ? rules_arg_str(a, "skill") : "athletics";
}

static int check_move(const rules_enc *e, const rules_args *a, tb_err *err)
{
    if (cot_actor_in(e, err)) /* an out character acts no more */
        return err->code;
    const char *cid = e->actor, *to = rules_arg_str(a, "zone"), *from = cot_crew_position(e, cid);
    const char *name = rules_enc_name(e, cid), *hskill = hazard_skill(a);
    json_t *z = json_object_get(cot_spot_plan_get(e, "zones"), to);
    if (rules_enc_is_npc(e, cid))
        return rules_enc_rule(err, "only the crew moves through the Spot here");
    if (!z || !json_object_get(cot_spot_shown_get(e, "zones"), to))
        return rules_enc_rule(err, "the crew knows of no such zone; research or find it first");
    if (strcmp(from, to) == 0)
        return rules_enc_rule(err, "%s is already in %s", name, cot_zone_name(e, to));
    json_t *b = cot_barrier_between(e, from, to);
    if (!b)
        return rules_enc_rule(err, "%s does not lead to %s", cot_zone_name(e, from),
                              cot_zone_name(e, to));
    if (!json_is_true(json_object_get(b, "open")))
        return rules_enc_rule(err, "the way from %s to %s is barred: get past it first",
                              cot_zone_name(e, from), cot_zone_name(e, to));
    if (strcmp(hskill, "athletics") != 0 && strcmp(hskill, "cat_burglary") != 0)
        return tb_fail(err, TB_BAD_REQUEST,
                       "skill: a hazardous zone takes athletics or cat_burglary");
    /* 000:177 "An Aware Guard in the Zone prevents a character from moving with Stealth";
     * 000:184 Noisy: "Stealth rolls are permitted against Aware Guards" */
    if (rules_arg_int(a, "stealth") && cot_zone_has_aware_guard(e, to) &&
        !cot_zone_has_tag(z, "noisy"))
        return rules_enc_rule(err, "an Aware guard in %s: nobody moves there unseen",
                              cot_zone_name(e, to));
    return 0;
}

/*
 * A crew member moves to an adjacent zone (000:176-186): through a barrier that is open (or
 * has no security); a Hazardous zone needs an Athletics or Cat Burglary roll (difficulty the
 * zone's `hazard`, 9 by default) or the move fails; with `stealth` a Sneak roll against the
 * highest Awareness in the zone keeps the guards unaware, refused while a guard there is Aware
 * unless the zone is Noisy; without it the guards there see the crew member. A Cat Burglary
 * roll in a Crowded zone makes its guards Aware. Entering reveals the zone, its barriers and
 * its guards.
 */
static int act_move(rules_enc *e, const rules_args *a, tb_err *err)
{
    int rc;
    const char *cid = e->actor, *to = rules_arg_str(a, "zone");
    char from[32]; /* a copy: the position is replaced below */
    snprintf(from, sizeof from, "%s", cot_crew_position(e, cid));
    cot_heist_round(e, cid); /* 000:21 */
    const char *hskill = hazard_skill(a);
    int stealth = rules_arg_int(a, "stealth");
    json_t *z = json_object_get(cot_spot_plan(e, "zones"), to);
    if (stealth) /* the crew's list of guards exists from its first stealthy move */
        cot_spot_shown(e, "guards");
    rules_log *x;
    cot_roll r;
    json_t *dice;
    /* 000:183 Hazardous: "Movement in this zone requires either an Athletics or Cat Burglar
     * Roll" */
    if (cot_zone_has_tag(z, "hazardous")) {
        if ((rc = cot_crew_roll(e, cid, hskill, 0, &r, &dice, err)))
            return rc;
        int ok = cot_roll_succeeds(&r, cot_int_or(z, "hazard", COT_DIFFICULTY_BASE));
        x = crew_log(e, "hazard", "hazard", dice);
        rules_log_name(x, "zone", cot_zone_name(e, to), RULES_AUD_PUBLIC);
        rules_log_int(x, "total", r.total, RULES_AUD_PUBLIC);
        rules_log_json(x, "success", json_boolean(ok), RULES_AUD_PUBLIC);
        rules_log_name(x, "state", ok ? "makes it" : "cannot get across", RULES_AUD_PUBLIC);
        rules_log_end(x);
        /* 000:186 Crowded: "Rolls made with Cat Burglar ... cause all Guards in the Zone to
         * become Aware": the zone climbed into, and the one climbed out of (issue 25) */
        if (strcmp(hskill, "cat_burglary") == 0) {
            crowd_alarm(e, to);
            crowd_alarm(e, from);
        }
        if (!ok)
            return 0;
    }
    json_object_set_new(cot_spot_shown(e, "crew"), cid, json_string(to));
    cot_spot_see_guards(e, to);
    int aw = cot_zone_awareness(e, to);
    if (aw >= 0 && stealth) {
        /* 000:177 Stealth roll; 000:196-200 against the highest Awareness in the zone */
        if ((rc = cot_crew_roll(e, cid, "sneak", 0, &r, &dice, err)))
            return rc;
        int ok = cot_roll_succeeds(&r, aw);
        if (!ok)
            cot_spot_alarm(e, to);
        x = crew_log(e, "move", "sneak", dice);
        rules_log_int(x, "total", r.total, RULES_AUD_PUBLIC);
        rules_log_json(x, "success", json_boolean(ok), RULES_AUD_PUBLIC);
        rules_log_name(x, "state", ok ? "unseen" : "spotted: the guards there are Aware",
                       RULES_AUD_PUBLIC);
        rules_log_int(x, "awareness", aw, RULES_AUD_GM);
        rules_log_word(x, "gm", "sneak.gm", RULES_AUD_GM);
    } else {
        x = crew_log(e, "move", aw < 0 ? "move" : "walk", NULL);
        if (aw >= 0 && cot_spot_alarm(e, to))
            rules_log_word(x, "seen", "walk.seen", RULES_AUD_PUBLIC);
    }
    rules_log_name(x, "zone", cot_zone_name(e, to), RULES_AUD_PUBLIC);
    rules_log_json(x, "from", json_string(from), RULES_AUD_PUBLIC);
    rules_log_json(x, "to", json_string(to), RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/* The skill of a bypass: `skill`, or the barrier tag's first. */
static const char *bypass_skill(const rules_args *a, int tag)
{
    const char *skill = rules_arg_str(a, "skill");
    return skill ? skill : cot_barrier_skill(tag, 1);
}

static int check_bypass(const rules_enc *e, const rules_args *a, tb_err *err)
{
    if (cot_actor_in(e, err)) /* an out character acts no more */
        return err->code;
    const char *cid = e->actor, *bid = rules_arg_str(a, "barrier");
    json_t *b = json_object_get(cot_spot_plan_get(e, "barriers"), bid);
    if (!b || !json_object_get(cot_spot_shown_get(e, "barriers"), bid))
        return rules_enc_rule(err, "the crew knows of no such barrier");
    const char *here = cot_crew_position(e, cid);
    if (strcmp(cot_str(b, "from"), here) != 0 && strcmp(cot_str(b, "to"), here) != 0)
        return rules_enc_rule(err, "%s is not at that barrier", rules_enc_name(e, cid));
    if (json_is_true(json_object_get(b, "open")))
        return rules_enc_rule(err, "that way is already open");
    int t = cot_barrier_tag(cot_str(b, "tag"));
    if (t < 0)
        return rules_enc_rule(err, "that barrier has no Security tag the rules know");
    const char *skill = bypass_skill(a, t);
    if (!(cot_barrier_skill(t, 1) && skill && strcmp(skill, cot_barrier_skill(t, 1)) == 0) &&
        !(cot_barrier_skill(t, 2) && skill && strcmp(skill, cot_barrier_skill(t, 2)) == 0))
        return tb_fail(err, TB_BAD_REQUEST, "skill: a %s is bypassed with %s%s%s",
                       cot_str(b, "tag"), cot_barrier_skill(t, 1),
                       cot_barrier_skill(t, 2) ? " or " : "",
                       cot_barrier_skill(t, 2) ? cot_barrier_skill(t, 2) : "");
    return cot_crew_check(e, cid, skill, rules_arg_int(a, "bonus"), err);
}

/* Bypassing a barrier (000:188-192): the tag's skill against the Security Score. */
static int act_bypass(rules_enc *e, const rules_args *a, tb_err *err)
{
    int rc;
    const char *cid = e->actor, *bid = rules_arg_str(a, "barrier");
    json_t *b = json_object_get(cot_spot_plan(e, "barriers"), bid);
    json_t *pub = json_object_get(cot_spot_shown(e, "barriers"), bid);
    const char *skill = bypass_skill(a, cot_barrier_tag(cot_str(b, "tag")));
    cot_heist_round(e, cid); /* 000:21 */
    cot_roll r;
    json_t *dice;
    if ((rc = cot_crew_roll(e, cid, skill, rules_arg_int(a, "bonus"), &r, &dice, err)))
        return rc;
    int score = cot_int_or(b, "score", COT_DIFFICULTY_BASE), ok = cot_roll_succeeds(&r, score);
    if (ok) {
        json_object_set_new(b, "open", json_true());
        json_object_set_new(pub, "open", json_true());
    }
    rules_log *x = crew_log(e, "bypass", "bypass", dice);
    rules_log_name(x, "tag", cot_str(b, "tag"), RULES_AUD_PUBLIC);
    rules_log_int(x, "total", r.total, RULES_AUD_PUBLIC);
    rules_log_json(x, "success", json_boolean(ok), RULES_AUD_PUBLIC);
    rules_log_name(x, "state", ok ? "it gives way" : "it holds", RULES_AUD_PUBLIC);
    rules_log_int(x, "score", score, RULES_AUD_GM);
    rules_log_word(x, "gm", "bypass.gm", RULES_AUD_GM);
    rules_log_end(x);
    if (strcmp(skill, "cat_burglary") == 0) /* climbing a Height in a crowd (000:186) */
        crowd_alarm(e, cot_crew_position(e, cid));
    return 0;
}

/* ---- Prep: research, Foresight, schemes (000:202-222) ---- */

static int check_research(const rules_enc *e, const rules_args *a, tb_err *err)
{
    if (cot_actor_in(e, err)) /* an out character acts no more */
        return err->code;
    const char *cid = e->actor, *how = rules_arg_str(a, "method");
    int hidden;
    if (cot_goal_difficulty(cot_spot_plan_get(e, "zones"), a, 0, &hidden) < 0 && !hidden)
        return tb_fail(err, TB_BAD_REQUEST,
                       "goal: '%.20s' is not layout, hidden, mark or itinerary",
                       rules_arg_str(a, "goal"));
    const char *skill = cot_method_skill(how);
    if (!skill)
        return tb_fail(err, TB_BAD_REQUEST,
                       "method: '%.20s' is not planning, connections or stakeout", how);
    if (strcmp(how, "connections") == 0 && cot_crew_num(e, cid, "reputation") < 1)
        return rules_enc_rule(err, "%s has no Reputation left to call on contacts",
                              rules_enc_name(e, cid));
    return cot_crew_check(e, cid, skill, rules_arg_int(a, "bonus"), err);
}

/* 000:204 "roll stealth against the Awareness Score of the Guard(s) nearest the edge of the
 * Spot. Failure on the Stealth roll raises the Crew's Heat." */
static int stakeout_sneak(rules_enc *e, tb_err *err)
{
    const char *cid = e->actor;
    int aw = -1;
    const char *k;
    json_t *v;
    json_object_foreach(cot_spot_plan(e, "guards"), k, v)
    {
        json_t *z = json_object_get(cot_spot_plan(e, "zones"), cot_str(v, "zone"));
        if (json_is_true(json_object_get(z, "edge")) && cot_int_or(v, "awareness", 0) > aw)
            aw = cot_int_or(v, "awareness", 0);
    }
    if (aw < 0)
        return 0;
    cot_roll s;
    json_t *sd;
    int rc = cot_crew_roll(e, cid, "sneak", 0, &s, &sd, err);
    if (rc)
        return rc;
    int unseen = cot_roll_succeeds(&s, aw);
    if (!unseen)
        rules_enc_stat_add(e, cid, "heat", 1, 0, 999);
    rules_log *x = crew_log(e, "stakeout", "stakeout", sd);
    rules_log_int(x, "total", s.total, RULES_AUD_PUBLIC);
    rules_log_json(x, "success", json_boolean(unseen), RULES_AUD_PUBLIC);
    rules_log_word(x, "state", unseen ? "stakeout.unseen" : "stakeout.seen", RULES_AUD_PUBLIC);
    rules_log_int(x, "awareness", aw, RULES_AUD_GM);
    rules_log_word(x, "gm", "sneak.gm", RULES_AUD_GM);
    rules_log_end(x);
    return 0;
}

/*
 * Research (000:202-211): the goal's difficulty — layout 6 + 1 per zone that is not Hidden,
 * hidden zones (each Hidden zone's rating), a mark 25 − its Connections, an itinerary 20 — with
 * Planning; Connections halves it (rounded up) for 1 Reputation a roll; a stakeout halves it,
 * rolls Lookout, and a Sneak roll against the highest Awareness of the guards in the zones at
 * the edge of the Spot, whose failure raises Heat by 1. Reputation is checked before any die.
 */
static int act_research(rules_enc *e, const rules_args *a, tb_err *err)
{
    int rc;
    const char *cid = e->actor, *goal = rules_arg_str(a, "goal"), *how = rules_arg_str(a, "method");
    /* the layout counts the zones (a plan without any gets its empty list, as the GM's) */
    int hidden, difficulty =
                    cot_goal_difficulty(strcmp(goal, "layout") == 0 ? cot_spot_plan(e, "zones")
                                                                    : cot_spot_plan_get(e, "zones"),
                                        a, cot_mark_connections(e), &hidden);
    int halve = strcmp(how, "planning") != 0, stakeout = strcmp(how, "stakeout") == 0;
    cot_roll r;
    json_t *dice;
    if ((rc = cot_crew_roll(e, cid, cot_method_skill(how), rules_arg_int(a, "bonus"), &r, &dice,
                            err)))
        return rc;
    if (strcmp(how, "connections") == 0)
        rules_enc_stat_add(e, cid, "reputation", -1, 0, 999); /* 000:203 */
    const char *found;
    int ok = 0;
    if (hidden) {
        /* 000:207 "If the roll meets or exceeds the rating attracted to the Zones in the Spot
         * with the Hidden Tag, the character discovers them"; halving halves each rating */
        const char *k;
        json_t *v;
        int n = 0;
        json_object_foreach(cot_spot_plan(e, "zones"), k, v)
        {
            int rating = cot_int_or(v, "rating", COT_DIFFICULTY_BASE);
            if (halve)
                rating = (rating + 1) / 2;
            if (cot_zone_has_tag(v, "hidden") && cot_roll_succeeds(&r, rating) &&
                cot_spot_reveal(e, k))
                n++;
        }
        ok = n > 0;
        found = ok ? "hidden ways found" : "nothing hidden found";
    } else {
        if (halve)
            difficulty = (difficulty + 1) / 2;
        ok = cot_roll_succeeds(&r, difficulty);
        if (ok && strcmp(goal, "layout") == 0) {
            const char *k;
            json_t *v;
            json_object_foreach(cot_spot_plan(e, "zones"), k, v) if (!cot_zone_has_tag(v, "hidden"))
                cot_spot_reveal(e, k);
        }
        found = ok ? "success" : "failure";
    }
    rules_log *x = crew_log(e, "research", "research", dice);
    rules_log_name(x, "goal_name", goal, RULES_AUD_PUBLIC);
    rules_log_word(x, "how", word_of(METHOD_WORDS, how), RULES_AUD_PUBLIC);
    rules_log_name(x, "found", found, RULES_AUD_PUBLIC);
    rules_log_json(x, "goal", json_string(goal), RULES_AUD_PUBLIC);
    rules_log_json(x, "method", json_string(how), RULES_AUD_PUBLIC);
    rules_log_int(x, "total", r.total, RULES_AUD_PUBLIC);
    rules_log_json(x, "success", json_boolean(ok), RULES_AUD_PUBLIC);
    rules_log_int(x, "difficulty", difficulty, RULES_AUD_GM);
    rules_log_word(x, "gm", hidden ? "research.gm_hidden" : "research.gm", RULES_AUD_GM);
    rules_log_end(x);
    return stakeout ? stakeout_sneak(e, err) : 0;
}

/* Foresight pool cap: Brains + Planning (000:215). */
static int foresight_max(const rules_enc *e, const char *cid)
{
    return cot_crew_stat(e, cid, "abilities", "brains", 2) +
           cot_crew_stat(e, cid, "skills", "planning", 0);
}

static int check_plan(const rules_enc *e, const rules_args *a, tb_err *err)
{
    if (cot_actor_in(e, err)) /* an out character acts no more */
        return err->code;
    const char *cid = e->actor;
    int cap = foresight_max(e, cid);
    if (cot_crew_num(e, cid, "foresight") >= cap)
        return rules_enc_rule(err, "%s's Foresight is full (%d, Brains + Planning)",
                              rules_enc_name(e, cid), cap);
    return cot_crew_check(e, cid, "planning", rules_arg_int(a, "bonus"), err);
}

/* 000:213-215 a Planning roll for Foresight: 1 per 3 points of the total, up to the cap. */
static int act_plan(rules_enc *e, const rules_args *a, tb_err *err)
{
    int rc;
    const char *cid = e->actor;
    int have = cot_crew_num(e, cid, "foresight"), cap = foresight_max(e, cid);
    cot_roll r;
    json_t *dice;
    if ((rc = cot_crew_roll(e, cid, "planning", rules_arg_int(a, "bonus"), &r, &dice, err)))
        return rc;
    int gain = r.catastrophe ? 0 : r.total / FORESIGHT_THRESHOLD;
    if (gain > cap - have)
        gain = cap - have;
    rules_enc_stat_set(e, cid, "foresight", have + gain);
    rules_log *x = crew_log(e, "plan", "plan", dice);
    rules_log_int(x, "total", r.total, RULES_AUD_PUBLIC);
    rules_log_int(x, "gained", gain, RULES_AUD_PUBLIC);
    rules_log_int(x, "foresight", have + gain, RULES_AUD_PUBLIC);
    rules_log_count(x, "cap", cap, RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

static int check_scheme(const rules_enc *e, const rules_args *a, tb_err *err)
{
    if (cot_actor_in(e, err)) /* an out character acts no more */
        return err->code;
    int cost;
    return cot_scheme_cost(e, a, &cost, err);
}

static int act_scheme(rules_enc *e, const rules_args *a, tb_err *err)
{
    int cost;
    cot_scheme_cost(e, a, &cost, err); /* the check passed: its cost */
    const char *cid = e->actor, *s = rules_arg_str(a, "scheme");
    int have = cot_crew_num(e, cid, "foresight");
    rules_enc_stat_set(e, cid, "foresight", have - cost);
    rules_log *x = crew_log(e, "scheme", "scheme", NULL);
    rules_log_json(x, "scheme", json_string(s), RULES_AUD_PUBLIC);
    rules_log_int(x, "cost", cost, RULES_AUD_PUBLIC);
    rules_log_int(x, "foresight", have - cost, RULES_AUD_PUBLIC);
    if (strcmp(s, "training") == 0) {
        /* 000:218 "1 Foresight per rolled die and 2 Foresight per kept die added": +RkK, the
         * kept dice no extra rolled ones (cot.h, `+0kK`; issue 25) */
        int rolled = rules_arg_int(a, "rolled"), kept = rules_arg_int(a, "kept");
        json_t *c = rules_enc_cond_add(e, cid, "training", 0, rolled);
        json_object_set_new(c, "kept", json_integer(kept));
        rules_log_count(x, "dice", rolled, RULES_AUD_PUBLIC);
        rules_log_count(x, "kept_dice", kept, RULES_AUD_PUBLIC);
    } else if (strcmp(s, "ambush") == 0) {
        json_object_set_new(cot_spot_shown(e, "crew"), cid, json_string(rules_arg_str(a, "zone")));
        cot_spot_see_guards(e, rules_arg_str(a, "zone"));
        rules_log_name(x, "zone", cot_zone_name(e, rules_arg_str(a, "zone")), RULES_AUD_PUBLIC);
    } else if (strcmp(s, "cache") == 0) {
        rules_enc_stat_add(e, cid, "resources", -rules_arg_int(a, "resources"), 0, 9999);
        rules_log_count(x, "resources", rules_arg_int(a, "resources"), RULES_AUD_PUBLIC);
    }
    rules_log_word(x, "what", word_of(SCHEME_WORDS, s), RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}
