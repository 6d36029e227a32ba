/*
 * downtime.c — FIVEY's downtime activities (fivey_enc.h), the action `downtime` of fivey.between:
 * a tennite's lifestyle (004:564-572), its cost paid, an activity of it or of a lesser one
 * (004:583), the optional random event (004:576-581) and the activity: beg, work, carouse, study,
 * establish, a ball (004:585-639). Rulebook 004_110cc4af3ff93059.txt, cited as 004:LINE; readings
 * in rules/RULES.md, fivey, "Between the scenes (module fivey.between)". Its words are the
 * system's (fivey_enc_phrases).
 */
#include <string.h>

#include "fivey_enc.h"

static int establish(rules_enc *e, const char *me, int invested, int turn);
static void log_establish(rules_enc *e, const char *me, int level_before, int reinvested,
                          rules_log *x);

/* 004:574 "multiplied by 2 for seasonal downtime or by 10 for yearly downtime, allowing players to
 * speed through 3 or 12 downtime turns respectively" */
static const fivey_span SPANS[] = {
    {"tennite", "A tennite (10 days)", 1, 1},
    {"season", "A season (3 tennites)", 3, 2},
    {"year", "A year (12 tennites)", 12, 10},
};
#define N_SPANS (sizeof SPANS / sizeof SPANS[0])

const fivey_span *fivey_span_at(size_t i)
{
    return i < N_SPANS ? &SPANS[i] : NULL;
}

const fivey_span *fivey_span_named(const char *name)
{
    for (size_t i = 0; i < N_SPANS; i++)
        if (!name || strcmp(SPANS[i].name, name) == 0)
            return &SPANS[i];
    return NULL;
}

static int inst_get(const json_t *inst, const char *key)
{
    return (int)json_integer_value(json_object_get(inst, key));
}

const fivey_span *fivey_span_of(const rules_enc *e)
{
    const fivey_span *sp = fivey_span_named(json_string_value(json_object_get(e->enc, "span")));
    return sp ? sp : &SPANS[0];
}

/* The lifestyles of 004:566-572: name, tennitely cost, the activity it unlocks. */
static const struct {
    const char *name, *label;
    int cost;
    const char *activity, *activity_label;
} LIFE[] = {
    {"squalid", "Squalid (free)", 0, "beg", "Beg (squalid)"},
    {"poor", "Poor (10 crowns)", 10, "work", "Work (poor)"},
    {"modest", "Modest (20 crowns)", 20, "carouse", "Carouse (modest)"},
    {"comfortable", "Comfortable (50 crowns)", 50, "study", "Study (comfortable)"},
    {"wealthy", "Wealthy (100 crowns)", 100, "establish", "Establish an institution (wealthy)"},
    {"decadent", "Decadent (200 crowns)", 200, "ball", "Attend a ball (decadent)"},
};
#define N_LIFE ((int)(sizeof LIFE / sizeof LIFE[0]))

/* Settlement revenue dice for begging (004:589-594). */
static const struct {
    const char *name;
    int sides;
} SETTLEMENTS[] = {{"hamlet", 4}, {"village", 6}, {"town", 8}, {"city", 10}, {"metropolis", 12}};
#define N_SETTLEMENTS ((int)(sizeof SETTLEMENTS / sizeof SETTLEMENTS[0]))

/* The begging die of a settlement: d6 when none is named, 0 for an unknown one. */
static int settlement_die(const rules_args *a)
{
    if (!rules_arg_given(a, "settlement"))
        return 6;
    for (int i = 0; i < N_SETTLEMENTS; i++)
        if (strcmp(SETTLEMENTS[i].name, rules_arg_str(a, "settlement")) == 0)
            return SETTLEMENTS[i].sides;
    return 0;
}

/* The index of the lifestyle called `life` (*li) and of the one whose activity is `act` (*ai),
 * -1 when none. */
static void lifestyle_of(const char *life, const char *act, int *li, int *ai)
{
    *li = *ai = -1;
    for (int i = 0; i < N_LIFE; i++) {
        if (strcmp(LIFE[i].name, life) == 0)
            *li = i;
        if (strcmp(LIFE[i].activity, act) == 0)
            *ai = i;
    }
}

/* The lifestyle is paid, the activity is the lifestyle's or a lesser one's (004:583), a stat
 * for the activities that roll one, and the downtime action is once a tennite (004:564). */
int fivey_downtime_check(const rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *me = e->actor;
    const char *life = rules_arg_str(a, "lifestyle"), *act = rules_arg_str(a, "activity");
    const char *stat = rules_arg_given(a, "stat") ? rules_arg_str(a, "stat") : NULL;
    int li, ai;
    lifestyle_of(life, act, &li, &ai);
    if (li < 0)
        return tb_fail(err, TB_BAD_REQUEST,
                       "a lifestyle is squalid, poor, modest, comfortable, "
                       "wealthy or decadent");
    if (ai < 0)
        return tb_fail(err, TB_BAD_REQUEST,
                       "a downtime activity is beg, work, carouse, study, "
                       "establish or ball");
    if (ai > li)
        return rules_enc_rule(err, "%s needs at least a %s lifestyle (%d crowns)", act,
                              LIFE[ai].name, LIFE[ai].cost);
    if (stat && !fivey_one_of(stat, FIVEY_STATS))
        return tb_fail(err, TB_BAD_REQUEST, "the stat is str, dex, int or cha");
    if (!stat && ai > 0 && ai < 5)
        return tb_fail(err, TB_BAD_REQUEST, "name the stat %s uses (parameter 'stat')", act);
    if (!settlement_die(a))
        return tb_fail(err, TB_BAD_REQUEST,
                       "a settlement is hamlet, village, town, city or "
                       "metropolis");
    const fivey_span *span = fivey_span_of(e);
    if (fivey_listed(e, "downtime", me))
        return rules_enc_rule(err, "%s has already taken this %s's downtime action",
                              rules_enc_name(e, me), span->name);
    int crowns = rules_enc_stat_peek(e, me, "crowns", 0), cost = LIFE[li].cost * span->cost_times;
    if (crowns < cost)
        return rules_enc_rule(err,
                              span->turns == 1 ? "%s has %d crowns; a %s lifestyle costs %d"
                                               : "%s has %d crowns; a %s lifestyle costs %d for "
                                                 "a %s (004:574)",
                              rules_enc_name(e, me), crowns, life, cost, span->name);
    return 0;
}

/*
 * A downtime action (004:562-639): the lifestyle's cost is paid, the optional random event is
 * rolled (004:576-581: 1-5 bad, 16-20 good; reading: a good event gives advantage on the
 * activity's d20, a bad one disadvantage; begging's bad event loses the crowns gained), then the
 * activity.
 */
int fivey_downtime(rules_enc *e, const rules_args *a, tb_err *err)
{
    const char *me = e->actor;
    const char *life = rules_arg_str(a, "lifestyle"), *act = rules_arg_str(a, "activity");
    const char *stat = rules_arg_given(a, "stat") ? rules_arg_str(a, "stat") : NULL;
    const fivey_span *span = fivey_span_of(e);
    int li, ai;
    lifestyle_of(life, act, &li, &ai);
    int cost = LIFE[li].cost * span->cost_times;
    int crowns = rules_enc_stat(e, me, "crowns", 0) - cost;
    json_array_append_new(fivey_list(e, "downtime"), json_string(me));
    int bonus = stat ? fivey_bonus(fivey_sheet_stat(e, me, stat), rules_arg_int(a, "skilled")) : 0;
    /* what an NPC gains and rolls is the GM's (its sheet is); the lifestyle, its cost and
     * whether the events are good or bad are the table's story */
    rules_aud mine = rules_enc_aud_of(e, me);
    rules_log *x = rules_log_begin(e, "downtime", span->turns == 1 ? "downtime" : "downtimes");
    rules_log_who(x, "who", me);
    rules_log_json(x, "lifestyle", json_string(life), RULES_AUD_PUBLIC);
    rules_log_json(x, "activity", json_string(act), RULES_AUD_PUBLIC);
    rules_log_int(x, "cost", cost, RULES_AUD_PUBLIC);
    rules_log_name(x, "life", life, RULES_AUD_PUBLIC);
    if (span->turns > 1) {
        rules_log_json(x, "span", json_string(span->name), RULES_AUD_PUBLIC);
        rules_log_name(x, "span_name", span->name, RULES_AUD_PUBLIC);
        rules_log_count(x, "turns", span->turns, RULES_AUD_PUBLIC);
    }
    /* each downtime turn of the span: its random event (004:576-581) and its activity */
    json_t *dice = json_array();
    int goods = 0, bads = 0, gained = 0, sum = 0, best = 0, learned = 0, reinvested = 0;
    int level_before =
        strcmp(act, "establish") == 0 ? inst_get(fivey_institution(e, me), "level") : 0;
    for (int turn = 0; turn < span->turns; turn++) {
        int event = rules_arg_int(a, "event") ? rules_roll_die(e->rng, 20, dice) : 0;
        int bad = event && event <= 5, good = event >= 16;
        goods += good;
        bads += bad;
        fivey_edge edge = good ? FIVEY_EDGE_ADV : bad ? FIVEY_EDGE_DIS : FIVEY_EDGE_NONE;
        if (turn == 0 && event && span->turns == 1)
            rules_log_json(x, "event",
                           json_string(bad    ? "bad"
                                       : good ? "good"
                                              : "none"),
                           RULES_AUD_PUBLIC);
        fivey_roll r;
        if (strcmp(act, "beg") == 0) {
            /* 004:587 "gaining crowns equal to 1d6 plus a relevant stat" (or the settlement's
             * die) */
            int got = rules_roll_die(e->rng, settlement_die(a), dice) + bonus;
            gained += bad ? 0 : got; /* 004:596 "lose all crowns gained" */
        } else if (strcmp(act, "work") == 0 || strcmp(act, "carouse") == 0 ||
                   strcmp(act, "establish") == 0) {
            /* 004:600 work: crowns 1d20 + stat; 004:606 carouse: experience 1d20 + stat;
             * 004:620 establish: capital 1d20 + stat */
            fivey_roll_check(&r, e->rng, dice, bonus, edge, 0, 0);
            sum += r.total;
            if (act[0] == 'e')
                reinvested += establish(e, me, r.total, turn);
        } else if (strcmp(act, "study") == 0) {
            /* 004:612 "They must check a relevant stat (DC 16) to succeed."; over several turns
             * the best of them (reading 1) */
            fivey_roll_check(&r, e->rng, dice, bonus, edge, 0, 0);
            best = turn == 0 || r.total > best ? r.total : best;
            learned |= fivey_meets(r.total, 16);
        }
    }
    if (goods || bads) {
        rules_log_count(x, "goods", goods, RULES_AUD_PUBLIC);
        rules_log_count(x, "bads", bads, RULES_AUD_PUBLIC);
    }
    if (span->turns == 1 && (goods || bads))
        rules_log_word(x, "event_words", bads ? "downtime.bad" : "downtime.good", RULES_AUD_PUBLIC);
    else if (goods || bads)
        rules_log_word(x, "event_words", "downtime.events", RULES_AUD_PUBLIC);
    if (strcmp(act, "beg") == 0) {
        crowns += gained;
        rules_log_int(x, "crowns_gained", gained, mine);
    } else if (strcmp(act, "work") == 0) {
        crowns += sum;
        rules_log_int(x, "roll", sum, mine);
    } else if (strcmp(act, "carouse") == 0) {
        rules_enc_stat_set(e, me, "xp", rules_enc_stat(e, me, "xp", 0) + sum);
        rules_log_int(x, "roll", sum, mine);
    } else if (strcmp(act, "establish") == 0) {
        rules_log_int(x, "roll", sum, mine);
        log_establish(e, me, level_before, reinvested, x);
    } else if (strcmp(act, "study") == 0) {
        rules_log_int(x, "roll", best, mine);
        rules_log_json(x, "success", json_boolean(learned), RULES_AUD_PUBLIC);
        rules_log_word(x, "learned", learned ? "downtime.learned" : "downtime.not_yet",
                       RULES_AUD_PUBLIC);
    }
    /* the activity's words: "downtime.beg", "downtime.work", ... */
    static const char *const WHAT[] = {"downtime.beg",   "downtime.work",      "downtime.carouse",
                                       "downtime.study", "downtime.establish", "downtime.ball"};
    rules_log_word(x, "what", WHAT[ai], RULES_AUD_PUBLIC);
    rules_log_dice(x, dice, mine);
    json_decref(dice);
    rules_enc_stat_set(e, me, "crowns", crowns);
    rules_log_int(x, "crowns", crowns, mine);
    rules_log_end(x);
    return 0;
}

/* ---- institutions (004:616-633) ---- */

json_t *fivey_institution(rules_enc *e, const char *cid)
{
    json_t *c = rules_enc_combatant(e, cid);
    json_t *home = rules_enc_is_npc(e, cid) ? rules_enc_hidden_of(e, cid) : c;
    json_t *inst = json_object_get(home, "institution");
    if (json_is_object(inst))
        return inst;
    /* a scene an older build ran kept the capital on the combatant itself */
    int capital = (int)json_integer_value(json_object_get(c, "capital"));
    json_object_del(c, "capital");
    inst = json_pack("{s:i, s:i, s:i}", "capital", capital, "level",
                     fivey_institution_level(capital), "credit", 0);
    json_object_set_new(home, "institution", inst);
    return inst;
}

/*
 * One turn of establish: 004:620 "invests in the institution capital equal to 1d20 plus a
 * relevant stat"; its level follows the capital (004:622-629). 004:631 "Only massive or greater
 * institutions generate the revenue necessary to reinvest in themselves, although this still
 * requires a downtime action on the owner's part": a massive institution's credit goes into its
 * capital with the owner's establish: on the round's first turn what is left of it, on each
 * later turn of a season or a year (a tennite each) its line of credit (reading 4). Returns the
 * credit reinvested.
 */
static int establish(rules_enc *e, const char *me, int invested, int turn)
{
    json_t *inst = fivey_institution(e, me);
    int level = inst_get(inst, "level"), capital = inst_get(inst, "capital") + invested;
    int credit = turn == 0 ? inst_get(inst, "credit") : fivey_institution_credit(level);
    int reinvested = level > 5 && credit > 0 ? credit : 0;
    capital += reinvested;
    if (reinvested)
        json_object_set_new(inst, "credit", json_integer(0));
    if (capital > 10000000)
        capital = 10000000;
    json_object_set_new(inst, "capital", json_integer(capital));
    json_object_set_new(inst, "level", json_integer(fivey_institution_level(capital)));
    return reinvested;
}

/* The words of an establish round: what was reinvested, the capital, a new level. */
static void log_establish(rules_enc *e, const char *me, int level_before, int reinvested,
                          rules_log *x)
{
    rules_aud mine = rules_enc_aud_of(e, me);
    json_t *inst = fivey_institution(e, me);
    if (reinvested) {
        rules_log_count(x, "reinvested", reinvested, mine);
        rules_log_word(x, "reinvest", "downtime.reinvest", mine);
    }
    rules_log_count(x, "capital", inst_get(inst, "capital"), mine);
    int level = inst_get(inst, "level");
    if (level > level_before) {
        rules_log_count(x, "inst_level", level, mine);
        rules_log_name(x, "institution", fivey_institution_name(level), mine);
        rules_log_word(x, "grown", "downtime.grown", mine);
    }
}

void fivey_institutions_credit(rules_enc *e)
{
    const char *cid;
    for (size_t i = 0; (cid = rules_enc_cid_at(e, i)); i++) {
        json_t *home = rules_enc_is_npc(e, cid)
                           ? json_object_get(json_object_get(e->hidden, "combatants"), cid)
                           : rules_enc_combatant(e, cid);
        json_t *inst = json_object_get(home, "institution");
        /* the level follows the capital, whatever the GM set it to */
        int level = fivey_institution_level(inst_get(inst, "capital"));
        int credit = fivey_institution_credit(level);
        if (!json_is_object(inst) || credit <= 0)
            continue;
        json_object_set_new(inst, "level", json_integer(level));
        /* 004:618 "a line of credit each tennite, which cannot be accumulated" */
        json_object_set_new(inst, "credit", json_integer(credit));
        rules_log *x = rules_log_begin(e, "tennite", "credit");
        rules_log_who(x, "who", cid);
        rules_log_int(x, "credit", credit, rules_enc_aud_of(e, cid));
        rules_log_end(x);
    }
}

/* The choices of the downtime's parameters (encounter.h, "Moves"): the lifestyles with their
 * costs, the activities, the stats, the settlements. */
int fivey_downtime_choices(const rules_enc *e, const char *actor, const rules_param *p, json_t *out)
{
    const char *name = p->name;
    if (strcmp(name, "lifestyle") == 0) {
        for (int i = 0; i < N_LIFE; i++)
            fivey_choice(out, json_string(LIFE[i].name), LIFE[i].label);
        return RULES_CHOICES_PICK;
    }
    if (strcmp(name, "activity") == 0) {
        for (int i = 0; i < N_LIFE; i++)
            fivey_choice(out, json_string(LIFE[i].activity), LIFE[i].activity_label);
        return RULES_CHOICES_PICK;
    }
    if (strcmp(name, "settlement") == 0) {
        fivey_choice(out, NULL, "anywhere (1d6)");
        for (int i = 0; i < N_SETTLEMENTS; i++)
            fivey_choice(out, json_string(SETTLEMENTS[i].name), SETTLEMENTS[i].name);
        return RULES_CHOICES_PICK;
    }
    if (strcmp(name, "stat") == 0) {
        fivey_choice(out, NULL, "none (begging, a ball)");
        fivey_choose_stats(e, actor, out, 0);
        return RULES_CHOICES_PICK;
    }
    return RULES_CHOICES_NONE;
}
