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
    if (fivey_listed(e, "downtime", me))
        return rules_enc_rule(err, "%s has already taken this tennite's downtime action",
                              rules_enc_name(e, me));
    int crowns = rules_enc_stat_peek(e, me, "crowns", 0);
    if (crowns < LIFE[li].cost)
        return rules_enc_rule(err, "%s has %d crowns; a %s lifestyle costs %d",
                              rules_enc_name(e, me), crowns, life, LIFE[li].cost);
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
    int li, ai;
    lifestyle_of(life, act, &li, &ai);
    int crowns = rules_enc_stat(e, me, "crowns", 0);
    json_array_append_new(fivey_list(e, "downtime"), json_string(me));
    crowns -= LIFE[li].cost;
    json_t *dice = json_array();
    int event = rules_arg_int(a, "event") ? rules_roll_die(e->rng, 20, dice) : 0;
    int bad = event && event <= 5, good = event >= 16;
    fivey_edge edge = good ? FIVEY_EDGE_ADV : bad ? FIVEY_EDGE_DIS : FIVEY_EDGE_NONE;
    int bonus = stat ? fivey_bonus(fivey_sheet_stat(e, me, stat), rules_arg_int(a, "skilled")) : 0;
    /* what an NPC gains and rolls is the GM's (its sheet is); the lifestyle, its cost and
     * whether the event is good or bad are the table's story */
    rules_aud mine = rules_enc_aud_of(e, me);
    rules_log *x = rules_log_begin(e, "downtime", "downtime");
    rules_log_who(x, "who", me);
    rules_log_json(x, "lifestyle", json_string(life), RULES_AUD_PUBLIC);
    rules_log_json(x, "activity", json_string(act), RULES_AUD_PUBLIC);
    rules_log_int(x, "cost", LIFE[li].cost, RULES_AUD_PUBLIC);
    rules_log_name(x, "life", life, RULES_AUD_PUBLIC);
    if (event)
        rules_log_json(x, "event",
                       json_string(bad    ? "bad"
                                   : good ? "good"
                                          : "none"),
                       RULES_AUD_PUBLIC);
    if (bad || good)
        rules_log_word(x, "event_words", bad ? "downtime.bad" : "downtime.good", RULES_AUD_PUBLIC);
    fivey_roll r;
    if (strcmp(act, "beg") == 0) {
        /* 004:587 "gaining crowns equal to 1d6 plus a relevant stat" (or the settlement's die) */
        int got = rules_roll_die(e->rng, settlement_die(a), dice) + bonus;
        if (bad)
            got = 0; /* 004:596 "lose all crowns gained" */
        crowns += got;
        rules_log_int(x, "crowns_gained", got, mine);
    } else if (strcmp(act, "work") == 0 || strcmp(act, "carouse") == 0 ||
               strcmp(act, "establish") == 0) {
        /* 004:600 work: crowns 1d20 + stat; 004:606 carouse: experience 1d20 + stat; 004:620
         * establish: capital 1d20 + stat */
        fivey_roll_check(&r, e->rng, dice, bonus, edge, 0, 0);
        rules_log_int(x, "roll", r.total, mine);
        if (act[0] == 'w') {
            crowns += r.total;
        } else if (act[0] == 'c') {
            rules_enc_stat_set(e, me, "xp", rules_enc_stat(e, me, "xp", 0) + r.total);
        } else {
            json_t *c = rules_enc_combatant(e, me);
            int capital = (int)json_integer_value(json_object_get(c, "capital")) + r.total;
            json_object_set_new(c, "capital", json_integer(capital));
            rules_log_count(x, "capital", capital, mine);
        }
    } else if (strcmp(act, "study") == 0) {
        /* 004:612 "They must check a relevant stat (DC 16) to succeed." */
        fivey_roll_check(&r, e->rng, dice, bonus, edge, 0, 0);
        int ok = fivey_meets(r.total, 16);
        rules_log_int(x, "roll", r.total, mine);
        rules_log_json(x, "success", json_boolean(ok), RULES_AUD_PUBLIC);
        rules_log_word(x, "learned", ok ? "downtime.learned" : "downtime.not_yet",
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
