/*
 * social.c — City of Thieves' module `cot.social` "Social Call" (000:224-291): It+Size Up slots
 * (cot_enc.h), Read Room, Push Agenda (the agenda, Build Up, Follow Through), Lean Onto and Lean
 * Into a Loyalty, and altering one. The rulebook is 000_d2a475e9ec148dd1.txt, cited as 000:LINE;
 * the readings are in rules/RULES.md, "Social Calls".
 *
 * WHERE WHAT LIVES (visibility is by path, DESIGN.md)
 *   /gm/enc/combatants/<cid>/loyalties  every combatant's Loyalties [{kind,target,prime}], copied
 *                                       at join (a PC's from /private/<seat>/sheets/<char>)
 *   /gm/enc/combatants/<cid>/identity   the true identity the GM set (`identity`)
 *   /enc/combatants/<cid>/presented     the presented identity (a disguise is one), public
 *   /enc/combatants/<cid>/emotion       {state, skill, positive, by, as}: the Build Up's state,
 *                                       public: the table plays it out (RULES.md reading 12)
 *   knowledge of one side:  a PC's seat: /private/<seat>/social/<cid>
 *                           the NPCs (seat "gm"): /gm/enc/known/<cid>
 *     = {identified: bool, identity?, presented_seen?, loyalties: {"<n>": text}, impedes?,
 *        agenda?: {text, by, alters?, achieved?, denied?}, tried?: what an opponent learnt}
 */
#include <stdio.h>
#include <string.h>

#include "cot_enc.h"

static int social_start(rules_enc *e, const rules_args *o, tb_err *err);
static int social_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err);
static int social_end(rules_enc *e, tb_err *err);
static int check_identity(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_identity(rules_enc *e, const rules_args *a, tb_err *err);
static int check_read_room(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_read_room(rules_enc *e, const rules_args *a, tb_err *err);
static int check_agenda(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_agenda(rules_enc *e, const rules_args *a, tb_err *err);
static int check_build_up(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_build_up(rules_enc *e, const rules_args *a, tb_err *err);
static int check_follow_through(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_follow_through(rules_enc *e, const rules_args *a, tb_err *err);
static int check_lean_into(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_lean_into(rules_enc *e, const rules_args *a, tb_err *err);
static int check_impedes(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_impedes(rules_enc *e, const rules_args *a, tb_err *err);
static int check_alter(const rules_enc *e, const rules_args *a, tb_err *err);
static int act_alter(rules_enc *e, const rules_args *a, tb_err *err);
static int social_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                          const rules_param *p, json_t *out);

/* ---- the table ---- */

static const rules_param IDENTITY_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "who"},
    {"presented", RULES_PARAM_STRING, 1, 100, 0, 0, "who they present as (a disguise)"},
    {"identity", RULES_PARAM_STRING, 1, 100, 0, 0, "who they truly are (the GM's)"},
    {0},
};

#define LEAN_PARAMS                                                                                \
    {"lean_onto", RULES_PARAM_INT, 0, 4, 0, 0, "Lean Onto my Loyalty n (+1k0)"},                   \
    {                                                                                              \
        "lean_onto_target", RULES_PARAM_INT, 0, 4, 0, 0, "Lean Onto their Loyalty n (+1k0)"        \
    }

static const rules_param READ_ROOM_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "whom to read"},
    {"ask", RULES_PARAM_STRING, 1, 12, 0, 0, "identity, loyalty or impedes"},
    {"loyalty", RULES_PARAM_INT, 0, 4, 0, 0, "which Loyalty (1-4)"},
    LEAN_PARAMS,
    {0},
};

static const rules_param AGENDA_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "whom"},
    {"text", RULES_PARAM_STRING, 1, 200, 0, RULES_PARAM_REQUIRED, "what you want from them"},
    {"alters", RULES_PARAM_INT, 0, 4, 0, 0, "the Loyalty (1-4) it alters, if any"},
    {0},
};

/* The skills' labels name the choices (the panel offers them as a pick, 000:261-269). */
static const rules_param BUILD_UP_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "whom"},
    {"skill", RULES_PARAM_STRING, 1, 20, 0, RULES_PARAM_REQUIRED,
     "a Social skill: convince, intimidate, con, impress or manipulate"},
    LEAN_PARAMS,
    {0},
};

static const rules_param FOLLOW_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "whom"},
    {"skill", RULES_PARAM_STRING, 1, 20, 0, RULES_PARAM_REQUIRED,
     "a Social skill: convince, intimidate, impress or manipulate"},
    LEAN_PARAMS,
    {0},
};

static const rules_param LEAN_INTO_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "who pushes the agenda"},
    {"loyalty", RULES_PARAM_INT, 1, 4, 1, RULES_PARAM_REQUIRED, "my Loyalty (1-4) it goes against"},
    {0},
};

static const rules_param IMPEDES_PARAMS[] = {
    {"target", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "who pushes the agenda"},
    {"target2", RULES_PARAM_STRING, 1, 32, 0, RULES_PARAM_REQUIRED, "on whom"},
    {"impedes", RULES_PARAM_BOOL, 0, 1, 1, 0, "a Loyalty impedes it"},
    {0},
};

static const rules_param ALTER_PARAMS[] = {
    {"loyalty", RULES_PARAM_INT, 1, 4, 1, RULES_PARAM_REQUIRED, "which Loyalty (1-4)"},
    {"to", RULES_PARAM_STRING, 3, 100, 0, 0, "what it becomes (Kind: Target)"},
    {"prime", RULES_PARAM_BOOL, 0, 1, 0, 0, "swap it with the Prime instead"},
    {0},
};

static const rules_enc_action SOCIAL_ACTIONS[] = {
    COT_COMMON_ACTIONS,
    {"identity", "Set identity", RULES_ENC_GM, IDENTITY_PARAMS, act_identity, "000:251, 000:259",
     check_identity, RULES_ENC_RARE},
    {"read_room", "Read Room", RULES_ENC_TURN, READ_ROOM_PARAMS, act_read_room, "000:251-253",
     check_read_room, 0},
    {"agenda", "Set an agenda", RULES_ENC_OWNER, AGENDA_PARAMS, act_agenda, "000:255-257",
     check_agenda, 0},
    {"build_up", "Build Up", RULES_ENC_TURN, BUILD_UP_PARAMS, act_build_up, "000:259-267",
     check_build_up, 0},
    {"follow_through", "Follow Through", RULES_ENC_TURN, FOLLOW_PARAMS, act_follow_through,
     "000:269", check_follow_through, 0},
    {"lean_into", "Lean Into a Loyalty", RULES_ENC_OWNER, LEAN_INTO_PARAMS, act_lean_into,
     "000:241", check_lean_into, 0},
    {"impedes", "Does a Loyalty impede it", RULES_ENC_GM, IMPEDES_PARAMS, act_impedes, "000:253",
     check_impedes, RULES_ENC_RARE},
    {"alter", "Alter a Loyalty", RULES_ENC_OWNER, ALTER_PARAMS, act_alter, "000:237, 000:269",
     check_alter, 0},
    {0},
};

/* clang-format off */
static const rules_phrase SOCIAL_PHRASES[] = {
    {"identity", "{who} now presents as {presented} (000:259)"},
    {"social.mine", ": {line}"},
    {"social.against", " against {whom}'s {opp_label} {oline}"},
    {"read_room_id", "{who} takes slot {slot} and reads the room on {whom}{mine?}{against?}: "
                     "{outcome}"},
    {"read_room", "{who} takes slot {slot} and reads {whom}{mine?}{against?}: {outcome}"},
    {"agenda", "{who} sets an agenda for {whom} (000:257)"},
    {"build_up", "{who} takes slot {slot} and builds up {whom} with {skill_name}{mine?}"
                 "{against?}: {outcome}"},
    {"emotion", "{who} is {state} (000:259)"},
    {"follow_through", "{who} takes slot {slot} and follows through on {whom} with {skill_name}"
                       "{mine?}{against?}: {outcome}"},
    {"emotion.follow", "{who} is {state} (000:269)"},
    {"achieved", "{who} achieves the agenda (000:269)"},
    {"lean_into", "{who} Leans Into a Loyalty and denies {whom}'s agenda (000:241)"},
    {"alter", "{who}'s Loyalty {n} is now {text}"},
    {"alter", "One of {who}'s Loyalties changes"},
    {NULL, NULL},
};
/* clang-format on */

const rules_module rules_module_cot_social = {
    .id = "cot.social",
    .system = "cot",
    .name = "Social Call",
    .cite = "000:224-291",
    .start = social_start,
    .join = social_join,
    .may_act = cot_may_act,
    .end = social_end,
    .actions = SOCIAL_ACTIONS,
    .sheet_stats = cot_sheet_stats,
    .editable = cot_editable,
    .check = cot_module_check,
    .choices = social_choices,
    .phrases = SOCIAL_PHRASES,
};

/* ---- the Build Up skills ---- */

/* The Build Up skills and their positive/negative states (000:261-267). */
typedef struct social_skill {
    const char *skill, *positive, *negative;
    int follow; /* may Follow Through (000:269): all but Con */
} social_skill;

static const social_skill SOCIAL_SKILLS[] = {
    {"intimidate", "Fearful", "Angry", 1},        /* 000:263 */
    {"con", "Mark", "Wise", 0},                   /* 000:264 */
    {"impress", "Devoted", "Envious", 1},         /* 000:265 */
    {"manipulate", "Accepting", "Suspicious", 1}, /* 000:266 */
    {"convince", "Engaged", "Stubborn", 1},       /* 000:267 */
    {NULL, NULL, NULL, 0},
};

static const social_skill *social_skill_find(const char *id)
{
    for (const social_skill *s = SOCIAL_SKILLS; id && s->skill; s++)
        if (strcmp(s->skill, id) == 0)
            return s;
    return NULL;
}

/* ---- choices ---- */

/* The other party of the call (000:245), one the actor's side has identified, one the actor
 * pushes an agenda on, one who pushes an agenda on the actor. */
static int other_party(const rules_enc *e, const char *actor, const char *cid)
{
    return !rules_enc_streq(rules_enc_side(e, cid), rules_enc_side(e, actor));
}

static int known_party(const rules_enc *e, const char *actor, const char *cid)
{
    return other_party(e, actor, cid) && cot_identified(e, cot_seat_of(e, actor), cid);
}

static int pushed(const rules_enc *e, const char *actor, const char *cid)
{
    return other_party(e, actor, cid) && cot_agenda_of(e, actor, cid);
}

static int pusher(const rules_enc *e, const char *actor, const char *cid)
{
    return cot_agenda_of(e, cid, actor) != NULL;
}

static const char *const ASK[][2] = {
    {"identity", "Who they are"},
    {"loyalty", "One of their Loyalties"},
    {"impedes", "Whether a Loyalty stands in the way"},
};

/* Loyalty numbers 1-4 of someone else (what the actor's side knows of them is the seat's), but
 * `skip` (0: none). */
static void choose_numbers(const char *none, int skip, json_t *out)
{
    static const char *const N[] = {"Loyalty 1", "Loyalty 2", "Loyalty 3", "Loyalty 4"};
    if (none)
        cot_choice(out, NULL, none);
    for (int i = 0; i < 4; i++)
        if (i + 1 != skip)
            cot_choice(out, json_integer(i + 1), N[i]);
}

/* The number (1-4) of cid's Prime Loyalty, 0 when it has none. */
static int prime_of(const rules_enc *e, const char *cid)
{
    size_t i;
    json_t *l;
    json_array_foreach(cot_loyalties_of(e, cid), i,
                       l) if (json_is_true(json_object_get(l, "prime"))) return (int)i +
        1;
    return 0;
}

/* 000:237 the Prime is only swapped, never altered: the Loyalty an agenda may not alter, when the
 * actor's seat knows it (the GM's: an NPC's agenda) and it is the same for every character the
 * agenda may be pushed on (a player does not learn a Prime from the choices); 0 otherwise. */
static int prime_not_alterable(const rules_enc *e, const char *actor)
{
    if (strcmp(cot_seat_of(e, actor), "gm") != 0)
        return 0;
    const char *cid;
    int p = 0;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        if (rules_enc_is_out(e, cid) || !known_party(e, actor, cid))
            continue;
        int q = prime_of(e, cid);
        if (!q || (p && q != p))
            return 0;
        p = q;
    }
    return p;
}

static int social_choices(const rules_enc *e, const char *actor, const rules_enc_action *a,
                          const rules_param *p, json_t *out)
{
    int rc = cot_choices_common(e, actor, a, p, out);
    const char *act = a->name, *par = p->name;
    if (rc != RULES_CHOICES_NONE)
        return rc;
    int roll = strcmp(act, "read_room") == 0 || strcmp(act, "build_up") == 0 ||
               strcmp(act, "follow_through") == 0;
    if (strcmp(par, "target") == 0 && strcmp(act, "read_room") == 0)
        cot_choose_combatants(e, actor, other_party, out);
    else if (strcmp(par, "target") == 0 && strcmp(act, "agenda") == 0)
        cot_choose_combatants(e, actor, known_party, out);
    else if (strcmp(par, "target") == 0 && roll)
        cot_choose_combatants(e, actor, pushed, out);
    else if (strcmp(par, "target") == 0 && strcmp(act, "lean_into") == 0)
        cot_choose_combatants(e, actor, pusher, out);
    else if (strcmp(par, "ask") == 0) {
        cot_choice(out, NULL, "What they do not know yet");
        for (size_t i = 0; i < sizeof ASK / sizeof ASK[0]; i++)
            cot_choice(out, json_string(ASK[i][0]), ASK[i][1]);
    } else if (strcmp(par, "skill") == 0) {
        for (const social_skill *s = SOCIAL_SKILLS; s->skill; s++)
            if (s->follow || strcmp(act, "build_up") == 0)
                cot_choice(out, json_string(s->skill), cot_skill_find(s->skill)->label);
    } else if (strcmp(par, "loyalty") == 0 && strcmp(act, "read_room") == 0)
        choose_numbers(NULL, 0, out);
    else if (strcmp(par, "alters") == 0)
        choose_numbers("none", prime_not_alterable(e, actor), out);
    else if (strcmp(par, "lean_onto_target") == 0)
        choose_numbers("none", 0, out);
    else if (strcmp(par, "presented") == 0) {
        cot_choice(out, json_string("A stranger"), "who they present as");
        return RULES_CHOICES_DEFAULT; /* a disguise (000:259): the GM names it */
    } else if (strcmp(par, "lean_onto") == 0)
        cot_choose_loyalties(e, actor, 0, "none", out);
    else if (strcmp(par, "loyalty") == 0) {
        int alterable = cot_int(cot_known_get(e, cot_seat_of(e, actor), actor), "alterable");
        cot_choose_loyalties(e, actor, alterable, NULL, out);
        /* 000:237 the Prime is swapped with another, never altered itself (cot_loyalty_alter):
         * it is no pick of an Alter */
        int prime = strcmp(act, "alter") == 0 ? prime_of(e, actor) : 0;
        for (size_t i = 0; prime && i < json_array_size(out); i++)
            if (json_integer_value(json_object_get(json_array_get(out, i), "value")) == prime)
                json_array_remove(out, i);
        /* a player alters only the Loyalty the achieved agenda named (check_alter; the GM may
         * rule any): the others are no pick of hers */
        if (strcmp(act, "alter") == 0 && !e->is_gm && alterable)
            while (json_array_size(out) > 1)
                json_array_remove(out, json_array_size(out) - 1);
    } else
        return RULES_CHOICES_NONE;
    return RULES_CHOICES_PICK;
}

/* ---- start, join and end ---- */

static int social_start(rules_enc *e, const rules_args *o, tb_err *err)
{
    (void)o;
    (void)err;
    /* 000:249 "To begin a Social Call, roll Initiative as outline in Chapter 1": It+Size Up */
    cot_start_stage(e, "social");
    return 0;
}

static int social_join(rules_enc *e, const char *cid, const json_t *sheet, tb_err *err)
{
    int rc = cot_join_common(e, cid, sheet, err);
    if (rc)
        return rc;
    /* a character presents as itself until the GM says otherwise (000:259 "presented identity") */
    json_object_set_new(rules_enc_combatant(e, cid), "presented",
                        json_string(rules_enc_name(e, cid)));
    return 0;
}

/* The end of a Social Call: what each seat learned about this call's characters is forgotten
 * (/private/<seat>/social/<cid>; the GM's side's /gm/enc/known goes with /gm/enc): identities,
 * Loyalties and agendas are learned again in the next call, where they may have changed. */
static int social_end(rules_enc *e, tb_err *err)
{
    (void)err;
    const char *seat, *cid;
    json_t *mine;
    json_object_foreach(e->priv, seat, mine)
    {
        json_t *soc = json_object_get(mine, "social");
        if (!json_is_object(soc))
            continue;
        for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++)
            json_object_del(soc, cid);
        if (json_object_size(soc) == 0)
            json_object_del(mine, "social");
    }
    return 0;
}

/* ---- identity (000:259) ---- */

/* GM: sets who a combatant presents as (a disguise, 000:259) and, GM-only, who it truly is. */
static int check_identity(const rules_enc *e, const rules_args *a, tb_err *err)
{
    if (cot_target_check(e, rules_arg_str(a, "target"), 1, err))
        return err->code;
    if (!rules_arg_str(a, "presented") && !rules_arg_str(a, "identity"))
        return tb_fail(err, TB_BAD_REQUEST,
                       "say who %s presents as (presented), who they truly are (identity), or "
                       "both",
                       rules_enc_name(e, rules_arg_str(a, "target")));
    return 0;
}

static int act_identity(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target"), *pres = rules_arg_str(a, "presented"),
               *truth = rules_arg_str(a, "identity");
    if (truth)
        json_object_set_new(rules_enc_hidden_of(e, t), "identity", json_string(truth));
    if (pres) {
        json_object_set_new(rules_enc_combatant(e, t), "presented", json_string(pres));
        rules_log *x = rules_log_begin(e, "identity", "identity");
        rules_log_who(x, "who", t);
        rules_log_name(x, "presented", pres, RULES_AUD_PUBLIC);
        rules_log_end(x);
    }
    return 0;
}

/* ---- the opposed social roll ---- */

/* The +1k0 of Lean Onto (000:239): `lean_onto` = n, the actor's own Loyalty n (1-based), or
 * `lean_onto_target` = n, the target's Loyalty n the actor's side has learned, only in a social
 * call, never the Loyalty the agenda alters. Pure. */
static int lean_onto(const rules_enc *e, const rules_args *a, const char *t, int *bonus,
                     tb_err *err)
{
    int theirs = rules_arg_int(a, "lean_onto_target"), rc = cot_lean_own(e, a, bonus, err);
    if (rc)
        return rc;
    if (theirs) {
        char key[8];
        snprintf(key, sizeof key, "%d", theirs);
        if (!json_object_get(
                json_object_get(cot_known_get(e, cot_seat_of(e, e->actor), t), "loyalties"), key))
            return rules_enc_rule(err,
                                  "%s does not know %s's Loyalty %d: a Read Room finds it first "
                                  "(000:253)",
                                  rules_enc_name(e, e->actor), rules_enc_name(e, t), theirs);
        json_t *ag = cot_agenda_of(e, e->actor, t);
        if (ag && cot_int(ag, "alters") == theirs)
            return rules_enc_rule(err, "the agenda alters that Loyalty: nobody Leans Onto the "
                                       "Loyalty they are trying to alter (000:239)");
        (*bonus)++;
    }
    return 0;
}

/* The checks of a turn's opposed social roll with `skill` against t's It+Size Up (000:13):
 * Lean Onto, the slot, both pools. */
static int social_throw_check(const rules_enc *e, const rules_args *a, const char *t,
                              const char *skill, const char *action, tb_err *err)
{
    int bonus, rc = lean_onto(e, a, t, &bonus, err);
    if (rc || (rc = cot_turn_check(e, action, err)) ||
        (rc = cot_throw_check(e, t, "it", "size_up", 0, err)))
        return rc;
    const cot_skill *sk = cot_skill_find(skill);
    return cot_throw_check(e, e->actor, sk->ability, sk->id, bonus, err);
}

/* One opposed social roll: the target rolls first and sets the difficulty (000:13); the
 * target's dice are its side's. Returns 0 with *ok. */
/* One opposed social roll at the actor's slot, logged as `event` (its action the one running):
 * the target rolls first and sets the difficulty (000:13); each roll's numbers are its roller's
 * side's (`opp_label` names the target's: Size Up, Read Room). Returns 0 with *ok. */
static int social_roll(rules_enc *e, const rules_args *a, const char *t, const char *skill,
                       const char *event, const char *opp_label, int *ok, tb_err *err)
{
    const cot_skill *sk = cot_skill_find(skill);
    int slot = cot_turn_take(e), bonus, rc = lean_onto(e, a, t, &bonus, err);
    cot_throw opp, mine;
    if (rc || (rc = cot_throw_pool(e, t, "it", "size_up", 0, &opp, err)) ||
        (rc = cot_throw_pool(e, e->actor, sk->ability, sk->id, bonus, &mine, err)))
        return rc;
    *ok = cot_roll_succeeds(&mine.r, opp.r.total);
    rules_aud theirs = rules_enc_aud_of(e, t), aud = rules_enc_aud_of(e, e->actor);
    rules_log *x =
        rules_log_begin(e, rules_enc_streq(event, "read_room_id") ? "read_room" : event, event);
    rules_log_who(x, "who", e->actor);
    rules_log_count(x, "slot", slot, RULES_AUD_PUBLIC);
    rules_log_who(x, "whom", t);
    rules_log_name(x, "skill_name", sk->label, RULES_AUD_PUBLIC);
    cot_log_throw(x, &mine, aud);
    rules_log_word(x, "mine", "social.mine", aud);
    cot_log_opposing(x, &opp, theirs);
    rules_log_name(x, "opp_label", opp_label, theirs);
    rules_log_word(x, "against", "social.against", theirs);
    rules_log_int(x, "difficulty", opp.r.total, theirs);
    rules_log_json(x, "success", json_boolean(*ok), RULES_AUD_PUBLIC);
    rules_log_name(x, "outcome", *ok ? "success" : "failure", RULES_AUD_PUBLIC);
    rules_log_end(x);
    return 0;
}

static int social_target(const rules_enc *e, const char *t, tb_err *err)
{
    int rc = cot_target_check(e, t, 0, err);
    if (rc)
        return rc;
    if (strcmp(rules_enc_side(e, t), rules_enc_side(e, e->actor)) == 0)
        return rules_enc_rule(err,
                              "%s is on %s's side: a Social Call works on the other party "
                              "(000:245)",
                              rules_enc_name(e, t), rules_enc_name(e, e->actor));
    return 0;
}

/* ---- Read Room (000:251-253) ---- */

/* What a Read Room asks: `ask`, or the identity while the target is unidentified, else a
 * Loyalty. */
static const char *read_room_ask(const rules_enc *e, const rules_args *a, const char *t)
{
    const char *ask = rules_arg_str(a, "ask");
    if (ask)
        return ask;
    return cot_identified(e, cot_seat_of(e, e->actor), t) ? "loyalty" : "identity";
}

static int check_read_room(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target"), *me = e->actor;
    int rc = social_target(e, t, err), n = rules_arg_int(a, "loyalty");
    if (rc)
        return rc;
    const char *ask = read_room_ask(e, a, t);
    int want_id = strcmp(ask, "identity") == 0, want_loy = strcmp(ask, "loyalty") == 0;
    if (!want_id && !want_loy && strcmp(ask, "impedes") != 0)
        return tb_fail(err, TB_BAD_REQUEST, "ask: identity, loyalty or impedes");
    if (!want_id && !cot_identified(e, cot_seat_of(e, me), t))
        return rules_enc_rule(err,
                              "%s has not identified %s yet: Read Room for the identity first "
                              "(000:251-253)",
                              rules_enc_name(e, me), rules_enc_name(e, t));
    if (want_loy && (n < 1 || n > 4))
        return tb_fail(err, TB_BAD_REQUEST, "loyalty: which Loyalty, 1 to 4 (000:227)");
    if (strcmp(ask, "impedes") == 0 && !cot_agenda_of(e, me, t))
        return rules_enc_rule(err, "%s has no agenda against %s yet: set one first (agenda)",
                              rules_enc_name(e, me), rules_enc_name(e, t));
    return social_throw_check(e, a, t, "size_up", "read_room", err);
}

/*
 * Read Room (000:251-253): Size Up vs the target's Size Up. `ask` = identity (the default while
 * the target is unidentified), loyalty (with `loyalty` = n: "a single Loyalty of your choice")
 * or impedes ("are there any Loyalties that would impede your current Agenda"). Who learns:
 *   identity, success: the actor's seat learns the target's identity;
 *   identity, failure: the actor's seat learns it all the same, the target's seat learns the
 *                      actor's presented identity (000:251);
 *   loyalty/impedes, success: the actor's seat learns the answer; the target learns nothing;
 *   loyalty/impedes, failure: the target's seat learns what the actor tried to uncover if it
 *                      knew the actor's identity, else the actor's presented identity (000:253).
 */
static int act_read_room(rules_enc *e, const rules_args *a, tb_err *err)
{
    int rc;
    const char *t = rules_arg_str(a, "target"), *ask = read_room_ask(e, a, t);
    const char *me = e->actor, *my_seat = cot_seat_of(e, me), *their_seat = cot_seat_of(e, t);
    int n = rules_arg_int(a, "loyalty"), want_id = strcmp(ask, "identity") == 0,
        want_loy = strcmp(ask, "loyalty") == 0;
    int ok;
    if ((rc = social_roll(e, a, t, "size_up", want_id ? "read_room_id" : "read_room", "Size Up",
                          &ok, err)))
        return rc;
    /* 000:253 "If the opponent it aware of your identity": identified, or it saw the presented
     * one on an earlier failure */
    json_t *theirs_k = cot_known_get(e, their_seat, me);
    int they_knew =
        cot_identified(e, their_seat, me) || json_object_get(theirs_k, "presented_seen");
    const char *truth = cot_str(rules_enc_hidden_of(e, t), "identity");
    if (want_id) {
        /* 000:251 the aggressor learns the identity either way */
        json_t *mine_k = cot_known(e, my_seat, t);
        json_object_set_new(mine_k, "identified", json_true());
        json_object_set_new(mine_k, "identity", json_string(truth ? truth : rules_enc_name(e, t)));
        if (!ok)
            json_object_set_new(cot_known(e, their_seat, me), "presented_seen",
                                json_string(cot_str(rules_enc_combatant(e, me), "presented")));
    } else {
        json_t *loys = cot_loyalties_of(e, t);
        if (ok && want_loy) {
            char key[8], text[240];
            json_t *l = json_array_get(loys, (size_t)n - 1);
            snprintf(key, sizeof key, "%d", n);
            if (l)
                cot_loyalty_text(l, text, sizeof text);
            json_object_set_new(json_object_get(cot_known(e, my_seat, t), "loyalties"), key,
                                json_string(l ? text : "none"));
        } else if (ok) {
            /* 000:253 whether any Loyalty impedes the agenda: the GM judges it (`impedes` on
             * the agenda, set with enc.set or the `impedes` action) */
            json_t *ag = cot_agenda_of(e, me, t);
            json_object_set(cot_known(e, my_seat, t), "impedes",
                            json_object_get(ag, "impedes") ? json_object_get(ag, "impedes")
                                                           : json_false());
        } else if (they_knew) {
            json_object_set_new(cot_known(e, their_seat, me), "tried",
                                json_pack("{s:s, s:s?, s:i}", "by", me, "ask", ask, "loyalty", n));
        } else {
            json_object_set_new(cot_known(e, their_seat, me), "presented_seen",
                                json_string(cot_str(rules_enc_combatant(e, me), "presented")));
        }
    }
    cot_turn_close(e, 1);
    return 0;
}

/* ---- Push Agenda (000:255-269) ---- */

/* Push Agenda, first step (000:257): the actor sets what it wants from the target, known to
 * its side and the GM; `alters` = n when the agenda alters the target's Loyalty n (000:237). No
 * roll and no slot: the rolls are the Build Up and the Follow Through. */
static int check_agenda(const rules_enc *e, const rules_args *a, tb_err *err)
{
    if (cot_actor_in(e, err)) /* an out character acts no more */
        return err->code;
    const char *t = rules_arg_str(a, "target"), *me = e->actor;
    int rc = social_target(e, t, err);
    if (rc)
        return rc;
    /* 000:255 "If your character know who their target is, you can then attempt to Push Agenda" */
    if (!cot_identified(e, cot_seat_of(e, me), t))
        return rules_enc_rule(err, "%s must know who %s is first: Read Room (000:255)",
                              rules_enc_name(e, me), rules_enc_name(e, t));
    return 0;
}

static int act_agenda(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target"), *me = e->actor;
    int alters = rules_arg_int(a, "alters");
    json_t *ag = json_pack("{s:s, s:s}", "by", me, "text", rules_arg_str(a, "text"));
    if (alters)
        json_object_set_new(ag, "alters", json_integer(alters));
    cot_side_learns_agenda(e, rules_enc_side(e, me), t, ag);
    rules_log *x = rules_log_begin(e, "agenda", "agenda");
    rules_log_who(x, "who", me);
    rules_log_who(x, "whom", t);
    rules_log_end(x);
    return 0;
}

/* The emotional state on t, or NULL. */
static json_t *emotion(const rules_enc *e, const char *t)
{
    json_t *m = json_object_get(rules_enc_combatant(e, t), "emotion");
    return json_is_object(m) ? m : NULL;
}

/* 000:259 "the character responsible for the Build Up that invoked that [negative] state
 * cannot Follow Through", unless its presented identity changed since. */
static int barred_by_negative(const rules_enc *e, const char *t, tb_err *err)
{
    json_t *m = emotion(e, t);
    const char *pres = cot_str(rules_enc_combatant(e, e->actor), "presented");
    if (m && !json_is_true(json_object_get(m, "positive")) &&
        rules_enc_streq(cot_str(m, "by"), e->actor) && pres && cot_str(m, "as") &&
        strcmp(pres, cot_str(m, "as")) == 0)
        return rules_enc_rule(err,
                              "%s made %s %s: they cannot push again until they present as "
                              "someone else (000:259)",
                              rules_enc_name(e, e->actor), rules_enc_name(e, t),
                              cot_str(m, "state"));
    return 0;
}

/* "Countess Mira is Stubborn": the state is public (RULES.md reading 12); `event` cites the Build
 * Up's line or the Follow Through's. */
static void log_emotion(rules_enc *e, const char *t, const char *state, const char *event)
{
    rules_log *x = rules_log_begin(e, "emotion", event);
    rules_log_who(x, "who", t);
    rules_log_name(x, "state", state, RULES_AUD_PUBLIC);
    rules_log_end(x);
}

/* 000:259 "The emotional state is set and cannot be altered until another character attempts a
 * Build Up": its author, under the same presented identity, Builds Up no more on it (a disguise
 * makes another character of it: "If they change their presented identity ... they can attempt
 * to Build Up"). */
static int set_by_me(const rules_enc *e, const char *t, tb_err *err)
{
    json_t *m = emotion(e, t);
    const char *pres = cot_str(rules_enc_combatant(e, e->actor), "presented");
    if (m && rules_enc_streq(cot_str(m, "by"), e->actor) && rules_enc_streq(pres, cot_str(m, "as")))
        return rules_enc_rule(err,
                              "%s set %s's emotional state: it stays until another character "
                              "attempts a Build Up (000:259)",
                              rules_enc_name(e, e->actor), rules_enc_name(e, t));
    return 0;
}

static void set_emotion(rules_enc *e, const char *t, const social_skill *s, int positive)
{
    json_object_set_new(rules_enc_combatant(e, t), "emotion",
                        json_pack("{s:s, s:s, s:b, s:s, s:s?}", "state",
                                  positive ? s->positive : s->negative, "skill", s->skill,
                                  "positive", positive, "by", e->actor, "as",
                                  cot_str(rules_enc_combatant(e, e->actor), "presented")));
}

/* Build Up (000:259-267): a Social skill vs the target's Size Up: success sets the skill's
 * positive state, failure its negative one. Needs an agenda against the target. */
static int check_build_up(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target"), *me = e->actor;
    const social_skill *s = social_skill_find(rules_arg_str(a, "skill"));
    int rc = social_target(e, t, err);
    if (rc)
        return rc;
    if (!s)
        return tb_fail(err, TB_BAD_REQUEST,
                       "skill: intimidate, con, impress, manipulate or convince (000:261-267)");
    if (!cot_agenda_of(e, me, t))
        return rules_enc_rule(err, "%s has no agenda against %s: set one first (000:257)",
                              rules_enc_name(e, me), rules_enc_name(e, t));
    if ((rc = barred_by_negative(e, t, err)) || (rc = set_by_me(e, t, err)))
        return rc;
    return social_throw_check(e, a, t, s->skill, "build_up", err);
}

static int act_build_up(rules_enc *e, const rules_args *a, tb_err *err)
{
    int rc, ok;
    const char *t = rules_arg_str(a, "target");
    const social_skill *s = social_skill_find(rules_arg_str(a, "skill"));
    if ((rc = social_roll(e, a, t, s->skill, "build_up", "Size Up", &ok, err)))
        return rc;
    set_emotion(e, t, s, ok);
    log_emotion(e, t, ok ? s->positive : s->negative, "emotion");
    cot_turn_close(e, 1);
    return 0;
}

/* Follow Through (000:269): Intimidate, Impress, Manipulate or Convince vs the target's
 * Read Room (It+Size Up): success achieves the agenda, failure turns the state to the skill's
 * negative. A Lean Into (lean_into) denies the agenda before any roll. */
static int check_follow_through(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *t = rules_arg_str(a, "target"), *me = e->actor;
    const social_skill *s = social_skill_find(rules_arg_str(a, "skill"));
    int rc = social_target(e, t, err);
    if (rc)
        return rc;
    if (!s || !s->follow)
        return tb_fail(err, TB_BAD_REQUEST,
                       "skill: intimidate, impress, manipulate or convince (000:269)");
    json_t *ag = cot_agenda_of(e, me, t);
    if (!ag)
        return rules_enc_rule(err, "%s has no agenda against %s: set one first (000:257)",
                              rules_enc_name(e, me), rules_enc_name(e, t));
    if (json_is_true(json_object_get(ag, "denied")))
        return rules_enc_rule(err, "%s Leaned Into a Loyalty and denied this agenda (000:241)",
                              rules_enc_name(e, t));
    /* 000:269 "Follow Through on the Emotional State you, or another character created" */
    if (!emotion(e, t))
        return rules_enc_rule(err, "%s is in no emotional state yet: Build Up first (000:269)",
                              rules_enc_name(e, t));
    if ((rc = barred_by_negative(e, t, err)))
        return rc;
    return social_throw_check(e, a, t, s->skill, "follow_through", err);
}

static int act_follow_through(rules_enc *e, const rules_args *a, tb_err *err)
{
    int rc, ok;
    const char *t = rules_arg_str(a, "target"), *me = e->actor;
    const social_skill *s = social_skill_find(rules_arg_str(a, "skill"));
    json_t *ag = cot_agenda_of(e, me, t);
    if ((rc = social_roll(e, a, t, s->skill, "follow_through", "Read Room", &ok, err)))
        return rc;
    if (!ok) {
        set_emotion(e, t, s, 0);
        log_emotion(e, t, s->negative, "emotion.follow");
        cot_turn_close(e, 1);
        return 0;
    }
    json_t *done = json_deep_copy(ag);
    int alters = cot_int(ag, "alters");
    json_object_set_new(done, "achieved", json_true());
    cot_side_learns_agenda(e, rules_enc_side(e, me), t, done); /* replaces ag */
    /* an achieved agenda that alters a PC's Loyalty: its player makes the change (act_alter), so
     * their seat learns which Loyalty, never the agenda's text */
    if (alters && strcmp(cot_seat_of(e, t), "gm") != 0)
        json_object_set_new(cot_known(e, cot_seat_of(e, t), t), "alterable", json_integer(alters));
    rules_log *x = rules_log_begin(e, "achieved", "achieved");
    rules_log_who(x, "who", me);
    rules_log_end(x);
    cot_turn_close(e, 1);
    return 0;
}

/* ---- Lean Into (000:241) ---- */

/* Lean Into (000:241): the target (its controller, at any time) denies the agenda `by` pushes
 * against it by Leaning Into its Loyalty n, which the agenda goes against; never the Loyalty the
 * agenda alters ("The married woman could not Lean Into Devoted: Husband"). Whether the agenda
 * really goes against it is the GM's call at the table. */
static int check_lean_into(const rules_enc *e, const rules_args *a, tb_err *err)
{
    if (cot_actor_in(e, err)) /* an out character acts no more */
        return err->code;
    const char *by = rules_arg_str(a, "target"), *me = e->actor;
    int n = rules_arg_int(a, "loyalty");
    json_t *ag = cot_agenda_of(e, by, me);
    if (!ag)
        return rules_enc_rule(err, "%s pushes no agenda on %s (000:241)", rules_enc_name(e, by),
                              rules_enc_name(e, me));
    if (!json_array_get(cot_loyalties_of(e, me), (size_t)n - 1))
        return rules_enc_rule(err, "%s has no Loyalty %d (000:241)", rules_enc_name(e, me), n);
    if (cot_int(ag, "alters") == n)
        return rules_enc_rule(err,
                              "the agenda is altering that very Loyalty: %s can Lean Into "
                              "another that applies, not this one (000:241)",
                              rules_enc_name(e, me));
    return 0;
}

static int act_lean_into(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *by = rules_arg_str(a, "target"), *me = e->actor;
    json_t *denied = json_deep_copy(cot_agenda_of(e, by, me));
    json_object_set_new(denied, "denied", json_true());
    cot_side_learns_agenda(e, rules_enc_side(e, by), me, denied);
    rules_log *x = rules_log_begin(e, "lean_into", "lean_into");
    rules_log_who(x, "who", me);
    rules_log_who(x, "whom", by);
    rules_log_end(x);
    return 0;
}

/* ---- impedes (000:253) ---- */

/* GM: whether a Loyalty of the target impedes the agenda `by` pushes (the answer a successful
 * Read Room "impedes" gives, 000:253): kept with the agenda, in every copy. */
static int check_impedes(const rules_enc *e, const rules_args *a, tb_err *err)
{
    if (cot_target_check(e, rules_arg_str(a, "target"), 1, err) ||
        cot_target_check(e, rules_arg_str(a, "target2"), 1, err))
        return err->code;
    const char *by = rules_arg_str(a, "target"), *t = rules_arg_str(a, "target2");
    if (!cot_agenda_of(e, by, t))
        return rules_enc_rule(err, "%s pushes no agenda on %s", rules_enc_name(e, by),
                              rules_enc_name(e, t));
    return 0;
}

static int act_impedes(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *by = rules_arg_str(a, "target"), *t = rules_arg_str(a, "target2");
    json_t *v = json_deep_copy(cot_agenda_of(e, by, t));
    json_object_set_new(v, "impedes", json_boolean(rules_arg_int(a, "impedes")));
    cot_side_learns_agenda(e, rules_enc_side(e, by), t, v);
    return 0;
}

/* ---- altering a Loyalty (000:237, 000:269) ---- */

/*
 * 000:237 "Loyalties may be manipulated by others during Social Calls, either changing the
 * regular Loyalties to something different, or switching one of their existing Loyalites with the
 * Prime Loyalty. Characters may only alter one Loyalty per Social Call." The actor's Loyalty n
 * becomes `to` ("Kind: Target"), or (`prime`) trades places with the Prime. A player alters it
 * when an agenda that alters that Loyalty was achieved against the character (000:269: its seat
 * then knows `alterable` = n about it, which the panel offers as Alter); the GM rules it at any
 * time. Once per character per call (/gm/enc/combatants/<cid>/altered). The change itself is
 * cot_loyalty_alter's (shared with the session's alteration, server/ops_session.c); it lands in
 * the character's private sheet; what other seats had learned of it is forgotten.
 */
/* An agenda against cid that alters its Loyalty n was achieved (the GM's copy knows them all). */
static int achieved_on(const rules_enc *e, const char *cid, int n)
{
    json_t *k = cot_known_get(e, "gm", cid), *ag;
    const char *by;
    json_object_foreach(json_object_get(k, "agendas"), by,
                        ag) if (json_is_true(json_object_get(ag, "achieved")) &&
                                cot_int(ag, "alters") == n) return 1;
    ag = json_object_get(k, "agenda"); /* a call saved before agendas were kept per pusher */
    return json_is_true(json_object_get(ag, "achieved")) && cot_int(ag, "alters") == n;
}

static int check_alter(const rules_enc *e, const rules_args *a, tb_err *err)
{
    if (cot_actor_in(e, err)) /* an out character acts no more */
        return err->code;
    const char *me = e->actor;
    int n = rules_arg_int(a, "loyalty");
    json_t *h = json_object_get(json_object_get(e->hidden, "combatants"), me);
    if (json_object_get(h, "altered"))
        return rules_enc_rule(err,
                              "%s already had a Loyalty altered in this Social Call: one per "
                              "call",
                              rules_enc_name(e, me));
    json_t *mine = cot_known_get(e, cot_seat_of(e, me), me);
    int achieved = achieved_on(e, me, n) || cot_int(mine, "alterable") == n;
    if (!e->is_gm && !achieved)
        return rules_enc_rule(err,
                              "%s's Loyalty %d changes when an agenda that alters it is achieved "
                              "(or when the GM rules it)",
                              rules_enc_name(e, me), n);
    /* the change on a copy: whether it can be made, without making it */
    json_t *copy = json_deep_copy(cot_loyalties_of(e, me));
    int rc = cot_loyalty_alter(copy, n, rules_arg_str(a, "to"), rules_arg_int(a, "prime"),
                               rules_enc_name(e, me), NULL, err);
    json_decref(copy);
    return rc;
}

static int act_alter(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *me = e->actor, *to = rules_arg_str(a, "to");
    int n = rules_arg_int(a, "loyalty"), prime = rules_arg_int(a, "prime"), was_prime;
    json_t *h = rules_enc_hidden_of(e, me), *loy = json_object_get(h, "loyalties");
    json_t *mine = cot_known_get(e, cot_seat_of(e, me), me);
    cot_loyalty_alter(loy, n, to, prime, rules_enc_name(e, me), &was_prime, err);
    if (was_prime)
        cot_forget_loyalty(e, me, was_prime);
    cot_forget_loyalty(e, me, n);
    json_object_del(mine, "alterable");
    json_object_set_new(h, "altered", json_integer(n));
    /* a PC's Loyalties live in its player's private sheet (000:227) */
    const char *ch = cot_str(rules_enc_combatant(e, me), "char");
    json_t *ps = json_object_get(
        json_object_get(json_object_get(e->priv, cot_seat_of(e, me)), "sheets"), ch ? ch : "");
    if (!rules_enc_is_npc(e, me) && json_is_object(ps))
        json_object_set_new(ps, "loyalties", json_deep_copy(loy));
    char txt[160];
    cot_loyalty_text(json_array_get(loy, (size_t)n - 1), txt, sizeof txt);
    /* the table learns that a Loyalty changed; what it became is the GM's (reading 15) */
    rules_log *x = rules_log_begin(e, "alter", "alter");
    rules_log_who(x, "who", me);
    rules_log_count(x, "n", n, RULES_AUD_GM);
    rules_log_name(x, "text", txt, RULES_AUD_GM);
    rules_log_end(x);
    return 0;
}
