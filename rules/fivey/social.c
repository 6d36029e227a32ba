/*
 * social.c — the FIVEY social-encounter module `fivey.social` (rules/encounter.h), rulebook
 * 004_110cc4af3ff93059.txt cited as 004:LINE. Readings of unclear passages: rules/RULES.md,
 * "## fivey", "Social encounters (module fivey.social)".
 *
 *   reaction  GM     the non-player party's initial reaction: a d20, with advantage or
 *                    disadvantage for the GM's expected bias (004:649), 1-6 hostile, 7-14
 *                    uncertain, 15-20 friendly (004:653-656); or the GM's own pick. GM-only
 *   reveal    GM     the disposition becomes public (/enc/disposition)
 *   talker    GM     the character "driving the negotiation" (004:660)
 *   terms     GM     what the one request asks (help, help at their risk, or only not to attack:
 *                    004:658), its difficulty (moderate, or difficult when it takes them out of
 *                    their way: 004:660) and the edge the conversation earned (004:662)
 *   request   OWNER  the one request: the talker's charisma check (004:660); the disposition then
 *                    decides what a success or a failure gets (004:658); a second is refused
 *   morale    GM     the collective morale check of fivey.combat (004:670), in the same scene
 *   cast      OWNER  a spell outside a fight: Charm on the other party, say (004:489; spells.c)
 *
 * State. Public (/enc): party (the adventuring party's side), reacted (the GM has decided the
 * reaction), talker (a combatant id), terms {ask, dc, edge}, request {by, what, ask, dc, edge,
 * natural, bonus, total, success, granted}, disposition (after the reveal), morale (shared with
 * fivey.combat). GM-only (/gm/enc): disposition, reaction {natural, edge, rolled}, will (what
 * the disposition will and will not do, for the GM's eyes).
 *
 * What the table sees: the GM rolls the reaction behind the screen, so its die, its result and
 * the disposition's text go to the GM's log only until the reveal; the talker's check is a PC's
 * roll and public (004:83), with its DC (which the request's kind sets, not the disposition);
 * whether the request is granted is the answer the table hears; why (the disposition) stays the
 * GM's.
 */
#include <string.h>

#include "fivey_enc.h"

static int check_reaction(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_reaction(rules_enc *e, const rules_args *a, tb_err *err);
static int check_reveal(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_reveal(rules_enc *e, const rules_args *a, tb_err *err);
static int check_talker(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_talker(rules_enc *e, const rules_args *a, tb_err *err);
static int check_terms(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_terms(rules_enc *e, const rules_args *a, tb_err *err);
static int check_request(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_request(rules_enc *e, const rules_args *a, tb_err *err);
static int check_morale(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_morale(rules_enc *e, const rules_args *a, tb_err *err);

static int social_start(rules_enc *e, const rules_args *o, tb_err *err);
static int social_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err);
static int social_check(const rules_enc *e, tb_err *err);
static int social_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                          const rules_param *p, json_t *out);

/* ---- the table ---- */

static const rules_param P_REACTION[] = {
    {"adv", RULES_PARAM_BOOL, 0, 1, 0, 0, "advantage: you expect them to lean friendly"},
    {"dis", RULES_PARAM_BOOL, 0, 1, 0, 0, "disadvantage: you expect them to lean hostile"},
    {"disposition", RULES_PARAM_STRING, 1, 12, 0, 0,
     "your own pick instead of a roll: hostile, uncertain or friendly"},
    {0},
};
static const rules_param P_TALKER[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "who speaks for the party"},
    {0},
};
static const rules_param P_TERMS[] = {
    {"ask", RULES_PARAM_STRING, 1, 12, 0, RULES_PARAM_REQUIRED,
     "help, danger (help at their own risk) or spare (not to attack)"},
    {"hard", RULES_PARAM_BOOL, 0, 1, 0, 0, "it takes them out of their way (DC 16, else 14)"},
    {"dc", RULES_PARAM_INT, 0, 30, 0, 0, "your own DC instead"},
    {"adv", RULES_PARAM_BOOL, 0, 1, 0, 0, "advantage: the talk appealed to them"},
    {"dis", RULES_PARAM_BOOL, 0, 1, 0, 0, "disadvantage: the talk offended them"},
    {0},
};
static const rules_param P_REQUEST[] = {
    {"what", RULES_PARAM_STRING, 1, 120, 0, RULES_PARAM_REQUIRED, "what you ask of them"},
    {"skill", RULES_PARAM_STRING, 1, 40, 0, 0, "a relevant skill of yours (doubles charisma)"},
    {"insp", RULES_PARAM_BOOL, 0, 1, 0, 0, "spend an inspiration die on the roll"},
    {0},
};
static const rules_param P_MORALE[] = {
    {"side", RULES_PARAM_STRING, 1, 32, 0, 0, "the side checking (default: the other party)"},
    {"wis", RULES_PARAM_INT, 0, 10, 0, 0, "its wisdom (default: average INT of those standing)"},
    {"dc", RULES_PARAM_INT, 0, 30, 0, 0, "the DC (default 14, then 16, then 18)"},
    {0},
};

/* clang-format off */
static const rules_enc_action ACTIONS[] = {
    {"reaction", "Roll their reaction", RULES_ENC_GM, P_REACTION, act_reaction, "004:649-656",
     check_reaction, 0},
    {"reveal", "Reveal their disposition", RULES_ENC_GM, NULL, act_reveal, "004:658",
     check_reveal, 0},
    {"talker", "Who speaks", RULES_ENC_GM, P_TALKER, act_talker, "004:660", check_talker, 0},
    {"terms", "Set the request", RULES_ENC_GM, P_TERMS, act_terms, "004:658-662", check_terms, 0},
    {"request", "Make the request", RULES_ENC_OWNER, P_REQUEST, act_request, "004:658-662",
     check_request, 0},
    {"morale", "Morale check", RULES_ENC_GM, P_MORALE, act_morale, "004:670", check_morale,
     RULES_ENC_RARE},
    {"cast", "Cast a spell", RULES_ENC_OWNER, fivey_cast_params, fivey_cast_free,
     "004:481-505, 004:680", fivey_cast_free_check, RULES_ENC_RARE},
    {0},
};
/* clang-format on */

/* The words of the module's events (encounter.h, "The log"); morale's are the system's. */
/* clang-format off */
static const rules_phrase PHRASES[] = {
    {"reaction", "The GM {how}{roll?}. {will}"},
    {"reaction", "The GM {how}"},
    {"reaction.decides", "decides how they first react"},
    {"reaction.rolls", "rolls how they first react"},
    {"reaction.roll", ": {natural}{edge_words?}"},
    {"reaction.adv", " (the better of two d20s)"},
    {"reaction.dis", " (the worse of two d20s)"},
    {"reveal", "They are {disposition_name} towards the party"},
    {"talker", "{who} speaks for the party"},
    {"terms", "The request asks them {asks}: charisma against DC {dc}{edge_words?}"},
    {"terms.help", "to help"},
    {"terms.danger", "to help at their own risk"},
    {"terms.spare", "not to attack the party"},
    {"terms.adv", ", with advantage for the conversation"},
    {"terms.dis", ", with disadvantage for the conversation"},
    {"request", "{who} asks: {what}. Charisma {total}{skilled?} vs DC {dc}: {outcome}; {answer}"
                "{why?}"},
    {"request.skilled", " (skilled)"},
    {"request.success", "success"},
    {"request.failure", "failure"},
    {"request.agree", "they agree"},
    {"request.refuse", "they refuse"},
    {"request.why", " ({disposition_name}{ruling})"},
    {"request.decides", ": the check decides"},
    {"request.always", ": they agree whatever the roll"},
    {"request.never", ": they refuse whatever the roll"},
    {NULL, NULL},
};
/* clang-format on */

static const rules_param OPTIONS[] = {
    {"party", RULES_PARAM_STRING, 1, 32, 0, 0, "the adventuring party's side (default party)"},
    {0},
};

/* What the GM corrects by hand: the DC and inspiration dice (the disposition is corrected with
 * the reaction action's own pick, which keeps the GM's text in step). */
static const rules_enc_field SOCIAL_EDITABLE[] = {
    {"/enc/terms/dc", RULES_PARAM_INT, 0, 30, "the request's DC"},
    {"stats/inspiration", RULES_PARAM_INT, 0, 99, "inspiration dice"},
    {NULL, 0, 0, 0, NULL},
};

/* spells and spell_slots: a cast spends one (reading 12) */
static const char *const SHEET_STATS[] = {"hp", "inspiration", "spells", "spell_slots", NULL};

const rules_module rules_module_fivey_social = {
    .id = "fivey.social",
    .system = "fivey",
    .name = "Social encounter",
    .cite = "004:647-662",
    .options = OPTIONS,
    .start = social_start,
    .join = social_join,
    .actions = ACTIONS,
    .sheet_stats = SHEET_STATS,
    .editable = SOCIAL_EDITABLE,
    .check = social_check,
    .choices = social_choices,
    .phrases = PHRASES,
};

/* ---- what the dispositions mean (004:649-658) ---- */

static const char *const DISPOSITIONS[] = {"hostile", "uncertain", "friendly", NULL};

/* What a request asks (004:658): help at no risk to them, help that puts them in danger, or only
 * that they not attack the party. */
static const char *const ASKS[] = {"help", "danger", "spare", NULL};

/* 004:658, as the GM reads it on the screen. */
static const char *will_text(const char *disp)
{
    if (strcmp(disp, "hostile") == 0)
        return "Hostile: they can only be persuaded, at best, not to attack the party; they will "
               "not help.";
    if (strcmp(disp, "uncertain") == 0)
        return "Uncertain: they must be persuaded to help the party at all, and they will never "
               "put themselves in danger to do so.";
    return "Friendly: they help the party as long as it puts them at no risk; to take a risk "
           "for the party they must be persuaded.";
}

/*
 * What the disposition makes of a request (004:658): 0 refused whatever the roll, 1 granted
 * whatever the roll, 2 the charisma check decides. Readings (rules/RULES.md S2): a friendly
 * party helps at no risk to itself without being persuaded; not attacking is no help, so only a
 * hostile party must be persuaded of it.
 */
static int ruling(const char *disp, const char *ask)
{
    int hostile = strcmp(disp, "hostile") == 0, friendly = strcmp(disp, "friendly") == 0;
    if (strcmp(ask, "spare") == 0)
        return hostile ? 2 : 1;
    if (hostile)
        return 0; /* "can only be persuaded, at best, to not attack the party" */
    if (strcmp(ask, "help") == 0)
        return friendly ? 1 : 2; /* uncertain "must be persuaded to help the party at all" */
    return friendly ? 2 : 0;     /* uncertain "will never put themselves in danger" */
}

/* The first side other than the party's with somebody still standing, or NULL. */
static const char *other_side(const rules_enc *e)
{
    const char *k;
    for (size_t i = 0; (k = rules_enc_cid_at(e, i)); i++)
        if (!fivey_in_party(e, k) && !rules_enc_is_out(e, k))
            return rules_enc_side(e, k);
    return NULL;
}

static const char *hidden_disposition(const rules_enc *e)
{
    return json_string_value(json_object_get(e->hidden, "disposition"));
}

static int request_made(const rules_enc *e, tb_err *err)
{
    /* 004:660 "can only really make one request ... before the conversation concludes, lest
     * they annoy them" */
    if (json_is_object(json_object_get(e->enc, "request")))
        return rules_enc_rule(err, "the party has made its one request: another would only annoy "
                                   "them, and the conversation is over");
    return 0;
}

/* The table learns the disposition (reading S1). */
static void log_reveal(rules_enc *e, const char *disp)
{
    rules_log *x = rules_log_begin(e, "reveal", "reveal");
    rules_log_name(x, "disposition_name", disp, RULES_AUD_PUBLIC);
    rules_log_json(x, "disposition", json_string(disp), RULES_AUD_PUBLIC);
    rules_log_end(x);
}

/* ---- the reaction (004:649-656) ---- */

static int check_reaction(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *pick = rules_arg_str(a, "disposition");
    int rc = fivey_edge_exclusive(a, err);
    if (rc)
        return rc;
    if (pick && !fivey_one_of(pick, DISPOSITIONS))
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act reaction: 'disposition' is hostile, uncertain or friendly");
    if (pick && (rules_arg_int(a, "adv") || rules_arg_int(a, "dis")))
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act reaction: the GM's own pick takes no advantage or disadvantage");
    /* 004:649 the table gives the *initial* reaction: rolled once per encounter; the GM's own
     * pick may correct it later (no die) */
    if (hidden_disposition(e) && !pick)
        return rules_enc_rule(err, "their first reaction is rolled already; the GM may still "
                                   "pick a disposition by hand");
    return 0;
}

static int act_reaction(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *pick = rules_arg_str(a, "disposition");
    fivey_edge edge = rules_arg_int(a, "adv")   ? FIVEY_EDGE_ADV
                      : rules_arg_int(a, "dis") ? FIVEY_EDGE_DIS
                                                : FIVEY_EDGE_NONE;
    const char *edge_name = edge == FIVEY_EDGE_ADV   ? "adv"
                            : edge == FIVEY_EDGE_DIS ? "dis"
                                                     : "none";
    /* the table hears that the GM decided; the die, the disposition and what it will do are
     * the GM's until the reveal (reading S1) */
    rules_log *x = rules_log_begin(e, "reaction", "reaction");
    const char *disp = pick;
    if (pick) {
        rules_log_word(x, "how", "reaction.decides", RULES_AUD_PUBLIC);
        json_object_set_new(e->hidden, "reaction", json_pack("{s:b}", "rolled", 0));
    } else {
        /* 004:649 "they can also impose advantage or disadvantage on the roll"; 004:653-656 */
        json_t *dice = json_array();
        fivey_roll r;
        fivey_roll_check(&r, e->rng, dice, 0, edge, 0, 0);
        disp = fivey_reaction(r.natural);
        rules_log_word(x, "how", "reaction.rolls", RULES_AUD_PUBLIC);
        rules_log_dice(x, dice, RULES_AUD_GM);
        json_decref(dice);
        rules_log_int(x, "natural", r.natural, RULES_AUD_GM);
        rules_log_json(x, "edge", json_string(edge_name), RULES_AUD_GM);
        rules_log_word(x, "roll", "reaction.roll", RULES_AUD_GM);
        if (edge != FIVEY_EDGE_NONE)
            rules_log_word(x, "edge_words",
                           edge == FIVEY_EDGE_ADV ? "reaction.adv" : "reaction.dis", RULES_AUD_GM);
        json_object_set_new(
            e->hidden, "reaction",
            json_pack("{s:b, s:i, s:s}", "rolled", 1, "natural", r.natural, "edge", edge_name));
    }
    rules_log_json(x, "disposition", json_string(disp), RULES_AUD_GM);
    rules_log_name(x, "will", will_text(disp), RULES_AUD_GM);
    rules_log_end(x);
    json_object_set_new(e->hidden, "disposition", json_string(disp));
    json_object_set_new(e->hidden, "will", json_string(will_text(disp)));
    json_object_set_new(e->enc, "reacted", json_true());
    if (json_is_string(json_object_get(e->enc, "disposition"))) {
        json_object_set_new(e->enc, "disposition", json_string(disp)); /* revealed: corrected */
        log_reveal(e, disp);
    }
    return 0;
}

/* ---- the reveal (reading S1) ---- */

static int check_reveal(const rules_enc *e, const rules_args *a, tb_err *err)
{
    (void)a;
    if (!hidden_disposition(e))
        return rules_enc_rule(err, "there is no reaction to reveal yet: the GM decides it first");
    if (json_is_string(json_object_get(e->enc, "disposition")))
        return rules_enc_rule(err, "their disposition is revealed already");
    return 0;
}

static int act_reveal(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *disp = hidden_disposition(e);
    json_object_set_new(e->enc, "disposition", json_string(disp));
    log_reveal(e, disp);
    return 0;
}

/* ---- who speaks (004:660) ---- */

static int check_talker(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    int rc = request_made(e, err);
    if (rc)
        return rc;
    if (!fivey_in_party(e, t))
        return rules_enc_rule(err,
                              "%s is not of the party: the party's own speaker drives the "
                              "negotiation",
                              rules_enc_name(e, t));
    if (rules_enc_is_out(e, t))
        return rules_enc_rule(err, "%s is out of the encounter", rules_enc_name(e, t));
    return 0;
}

static int act_talker(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target");
    json_object_set_new(e->enc, "talker", json_string(t));
    rules_log *x = rules_log_begin(e, "talker", "talker");
    rules_log_who(x, "who", t);
    rules_log_json(x, "talker", json_string(t), RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/* ---- the terms (004:658-662) ---- */

static int check_terms(const rules_enc *e, const rules_args *a, tb_err *err)
{
    int rc = fivey_edge_exclusive(a, err);
    if (rc)
        return rc;
    if (!fivey_one_of(rules_arg_str(a, "ask"), ASKS))
        return tb_fail(err, TB_BAD_REQUEST,
                       "enc.act terms: 'ask' is help, danger (help at their own risk) or spare "
                       "(not to attack the party)");
    return request_made(e, err);
}

static int act_terms(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *ask = rules_arg_str(a, "ask");
    /* 004:660 "at least a moderate difficulty, or ... difficult if they would require the other
     * party to go out of their way": ★★ 14 and ★★★ 16 (004:87-92, reading S3) */
    int dc = rules_arg_given(a, "dc") ? rules_arg_int(a, "dc")
                                      : fivey_dc_for_stars(rules_arg_int(a, "hard") ? 3 : 2);
    /* 004:662 the referee's advantage or disadvantage from the conversation's quality */
    const char *edge = rules_arg_int(a, "adv") ? "adv" : rules_arg_int(a, "dis") ? "dis" : "none";
    json_object_set_new(e->enc, "terms",
                        json_pack("{s:s, s:i, s:s}", "ask", ask, "dc", dc, "edge", edge));
    rules_log *x = rules_log_begin(e, "terms", "terms");
    rules_log_json(x, "ask", json_string(ask), RULES_AUD_PUBLIC);
    rules_log_int(x, "dc", dc, RULES_AUD_PUBLIC);
    rules_log_json(x, "edge", json_string(edge), RULES_AUD_PUBLIC);
    int help = strcmp(ask, "help") == 0, danger = strcmp(ask, "danger") == 0;
    rules_log_word(x, "asks",
                   help     ? "terms.help"
                   : danger ? "terms.danger"
                            : "terms.spare",
                   RULES_AUD_PUBLIC);
    if (edge[0] != 'n')
        rules_log_word(x, "edge_words", edge[0] == 'a' ? "terms.adv" : "terms.dis",
                       RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

/* ---- the request (004:658-662) ---- */

/* The talker, or NULL when none was named or it was removed from the encounter since. */
static const char *talker_of(const rules_enc *e)
{
    const char *talker = json_string_value(json_object_get(e->enc, "talker"));
    return rules_enc_combatant(e, talker) ? talker : NULL;
}

static int check_request(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *me = e->actor, *skill = rules_arg_str(a, "skill");
    const char *talker = talker_of(e);
    int rc = request_made(e, err);
    if (rc)
        return rc;
    if ((rc = fivey_standing(e, me, err)))
        return rc;
    if (!hidden_disposition(e))
        return rules_enc_rule(err, "the GM decides how they first react before the party asks");
    if (!talker)
        return rules_enc_rule(err, "the GM names who drives the negotiation first");
    if (!rules_enc_streq(me, talker))
        return rules_enc_rule(err, "%s drives the negotiation: the request is theirs to make",
                              rules_enc_name(e, talker));
    if (!json_is_object(json_object_get(e->enc, "terms")))
        return rules_enc_rule(err, "the GM sets what the request asks and how the conversation "
                                   "went first");
    if (!other_side(e))
        return rules_enc_rule(err, "nobody is left to ask");
    if (skill) {
        int found = 0;
        size_t i;
        json_t *s;
        json_array_foreach(json_object_get(rules_enc_stats_peek(e, me), "skills"), i, s) found |=
            rules_enc_streq(json_string_value(s), skill);
        if (!found)
            return rules_enc_rule(err, "%s has no skill '%.40s'", rules_enc_name(e, me), skill);
    }
    if (rules_arg_int(a, "insp") && rules_enc_stat_peek(e, me, "inspiration", 0) < 1)
        return rules_enc_rule(err, "%s has no inspiration die to spend", rules_enc_name(e, me));
    return 0;
}

static int act_request(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *me = e->actor, *skill = rules_arg_str(a, "skill");
    const char *disp = hidden_disposition(e);
    const json_t *terms = json_object_get(e->enc, "terms");
    int insp = rules_arg_int(a, "insp");
    int have = rules_enc_stat(e, me, "inspiration", 0);

    /* 004:660 "a charisma check on behalf of the player whose character has been driving the
     * negotiation"; 004:120 a relevant skill doubles it; 004:146 an inspiration d6. */
    const char *ask = json_string_value(json_object_get(terms, "ask"));
    const char *edge_name = json_string_value(json_object_get(terms, "edge"));
    int dc = (int)json_integer_value(json_object_get(terms, "dc"));
    fivey_edge edge = edge_name[0] == 'a'   ? FIVEY_EDGE_ADV
                      : edge_name[0] == 'd' ? FIVEY_EDGE_DIS
                                            : FIVEY_EDGE_NONE;
    int cha = rules_enc_stat(e, me, "cha", 1);
    int bonus = fivey_bonus(cha, skill != NULL);
    json_t *dice = json_array();
    fivey_roll r;
    fivey_roll_check(&r, e->rng, dice, bonus, edge, insp, 0);
    if (insp)
        rules_enc_stat_set(e, me, "inspiration", have - 1);
    int success = fivey_meets(r.total, dc);
    /* 004:658 the disposition decides what the check can get (reading S2) */
    int rule = ruling(disp, ask);
    int granted = rule == 2 ? success : rule;

    json_t *req = json_pack("{s:s, s:s, s:s, s:i, s:s, s:i, s:i, s:i, s:b, s:b}", "by", me, "what",
                            rules_arg_str(a, "what"), "ask", ask, "dc", dc, "edge", edge_name,
                            "natural", r.natural, "bonus", bonus, "total", r.total, "success",
                            success, "granted", granted);
    if (skill)
        json_object_set_new(req, "skill", json_string(skill));
    json_object_set_new(e->enc, "request", req);

    /* the talker's roll is a PC's, the table's (004:83), and so is the answer; why they answer
     * so is the GM's (reading S2) */
    rules_log *x = rules_log_begin(e, "request", "request");
    rules_log_dice(x, dice, RULES_AUD_PUBLIC);
    json_decref(dice);
    rules_log_who(x, "who", me);
    rules_log_name(x, "what", rules_arg_str(a, "what"), RULES_AUD_PUBLIC);
    rules_log_int(x, "natural", r.natural, RULES_AUD_PUBLIC);
    rules_log_int(x, "bonus", bonus, RULES_AUD_PUBLIC);
    rules_log_int(x, "total", r.total, RULES_AUD_PUBLIC);
    rules_log_int(x, "dc", dc, RULES_AUD_PUBLIC);
    rules_log_json(x, "success", json_boolean(success), RULES_AUD_PUBLIC);
    rules_log_json(x, "granted", json_boolean(granted), RULES_AUD_PUBLIC);
    if (skill)
        rules_log_word(x, "skilled", "request.skilled", RULES_AUD_PUBLIC);
    rules_log_word(x, "outcome", success ? "request.success" : "request.failure", RULES_AUD_PUBLIC);
    rules_log_word(x, "answer", granted ? "request.agree" : "request.refuse", RULES_AUD_PUBLIC);
    rules_log_json(x, "disposition", json_string(disp), RULES_AUD_GM);
    rules_log_name(x, "disposition_name", disp, RULES_AUD_GM);
    rules_log_word(x, "ruling",
                   rule == 2 ? "request.decides"
                   : rule    ? "request.always"
                             : "request.never",
                   RULES_AUD_GM);
    rules_log_word(x, "why", "request.why", RULES_AUD_GM);
    rules_log_end(x);
    return 0;
}

/* ---- morale (004:670, reading S4) ---- */

/* The side checking: the GM's, else the other party. */
static const char *morale_side(const rules_enc *e, const rules_args *a)
{
    const char *side = rules_arg_str(a, "side");
    return side ? side : other_side(e);
}

static int check_morale(const rules_enc *e, const rules_args *a, tb_err *err)
{
    /* 004:68 a social encounter may turn violent; 004:670 the same collective check as in
     * combat, called by the GM (reading S4). The side defaults to the non-player party. */
    const char *side = morale_side(e, a);
    if (!side)
        return rules_enc_rule(err, "nobody but the party is left to check morale");
    return fivey_morale_check(e, side, a, err);
}

static int act_morale(rules_enc *e, const rules_args *a, tb_err *err)
{
    return fivey_morale(e, morale_side(e, a), a, err);
}

/* ---- the module's hooks ---- */

static int social_start(rules_enc *e, const rules_args *o, tb_err *err)
{
    (void)err;
    const char *p = rules_arg_str(o, "party");
    json_object_set_new(e->enc, "party", json_string(p ? p : "party"));
    json_object_set_new(e->enc, "reacted", json_false());
    return 0;
}

/* fivey.combat's numbers (so a talk that turns violent has them), plus the sheet's skills for
 * the request's doubled bonus (004:120). */
static int social_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    int rc = fivey_enc_join(e, cid, sheet, err);
    if (rc)
        return rc;
    const json_t *skills = json_object_get(sheet, "skills");
    if (json_is_array(skills))
        json_object_set_new(rules_enc_stats(e, cid), "skills", json_deep_copy(skills));
    return 0;
}

static int damaged(tb_err *err, const char *what)
{
    return rules_enc_rule(
        err, "this social encounter's %s is damaged; the GM can end the encounter", what);
}

static int social_check(const rules_enc *e, tb_err *err)
{
    const json_t *v;
    if ((v = json_object_get(e->hidden, "disposition")) &&
        !fivey_one_of(json_string_value(v), DISPOSITIONS))
        return damaged(err, "hidden disposition (hostile, uncertain or friendly)");
    if ((v = json_object_get(e->enc, "disposition")) &&
        !fivey_one_of(json_string_value(v), DISPOSITIONS))
        return damaged(err, "disposition (hostile, uncertain or friendly)");
    /* a string: the GM may remove the speaker with enc.remove, which leaves nobody speaking */
    if ((v = json_object_get(e->enc, "talker")) && !json_is_string(v))
        return damaged(err, "speaker");
    if ((v = json_object_get(e->enc, "terms"))) {
        const char *edge = json_string_value(json_object_get(v, "edge"));
        if (!json_is_object(v) ||
            !fivey_one_of(json_string_value(json_object_get(v, "ask")), ASKS) ||
            !json_is_integer(json_object_get(v, "dc")) ||
            !fivey_one_of(edge, (const char *const[]){"none", "adv", "dis", NULL}))
            return damaged(err, "request terms");
    }
    if ((v = json_object_get(e->enc, "request")) && !json_is_object(v))
        return damaged(err, "request");
    return 0;
}

/* The choices of a parameter (encounter.h, "Moves"): the dispositions, the party's speakers (a
 * player's character first: issue 24), what a request may ask, the talker's skills, the sides
 * that may check morale. What the talker says stays the player's own words. */
static int social_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                          const rules_param *p, json_t *out)
{
    const char *act = a->name, *name = p->name;
    if (strcmp(act, "reaction") == 0 && strcmp(name, "disposition") == 0) {
        static const char *const LABELS[] = {"Hostile", "Uncertain", "Friendly"};
        if (!hidden_disposition(e))
            fivey_choice(out, NULL, "roll the d20");
        for (int i = 0; DISPOSITIONS[i]; i++)
            fivey_choice(out, json_string(DISPOSITIONS[i]), LABELS[i]);
        return RULES_CHOICES_PICK;
    }
    if (strcmp(act, "talker") == 0 && strcmp(name, "target") == 0) {
        fivey_choose_side(e, out, fivey_party_side(e), 0);
        return RULES_CHOICES_PICK;
    }
    if (strcmp(act, "terms") == 0 && strcmp(name, "ask") == 0) {
        static const char *const LABELS[] = {"Help (at no risk to them)", "Help at their own risk",
                                             "Not to attack the party"};
        for (int i = 0; ASKS[i]; i++)
            fivey_choice(out, json_string(ASKS[i]), LABELS[i]);
        return RULES_CHOICES_PICK;
    }
    if (strcmp(act, "terms") == 0 && strcmp(name, "dc") == 0) {
        fivey_choice(out, NULL, "14, or 16 when it takes them out of their way");
        return RULES_CHOICES_DEFAULT;
    }
    if (strcmp(act, "request") == 0 && strcmp(name, "skill") == 0) {
        fivey_choice(out, NULL, "no skill");
        json_t *s;
        size_t i;
        json_array_foreach(json_object_get(rules_enc_stats_peek(e, actor), "skills"), i, s)
        {
            if (json_is_string(s))
                fivey_choice(out, json_deep_copy(s), json_string_value(s));
        }
        return RULES_CHOICES_PICK;
    }
    if (strcmp(act, "morale") == 0)
        return fivey_morale_choices(e, p, "the other party", out);
    if (strcmp(act, "cast") == 0)
        return fivey_cast_choices(e, actor, p, out);
    return RULES_CHOICES_NONE;
}
