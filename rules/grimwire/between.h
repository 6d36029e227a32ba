/*
 * between.h — the files of the module grimwire.between (internal to rules/grimwire/): between.c
 * holds the module, its action table, rests, days, XP, levels and falls; between_skills.c
 * learning techniques, building, crafting and using what was built (002:300-385); between_dying.c
 * dying out of conflict, stabilizing and letting time pass (002:254-260). The table names the
 * checks and resolves the other two export here; they call down into grimwire_enc.h, and
 * between_dying.c calls back into between.c only for the clock (gw_between_catch_up).
 */
#ifndef TABLED_RULES_GRIMWIRE_BETWEEN_H
#define TABLED_RULES_GRIMWIRE_BETWEEN_H

#include "grimwire_enc.h"

#define GW_DYING_STEP_S 6L /* 002:256 "drops by 1 ... every 6 seconds out of conflict" */

/* gw_chk_<x>: the action's check (pure); gw_act_<x>: its resolve (run once the check passed). */
#define GW_BETWEEN_ACTION(x)                                                                       \
    int gw_chk_##x(const rules_enc *e, const rules_args *a, tb_err *err);                          \
    int gw_act_##x(rules_enc *e, const rules_args *a, tb_err *err);
GW_BETWEEN_ACTION(learn)
GW_BETWEEN_ACTION(exchange)
GW_BETWEEN_ACTION(set_build)
GW_BETWEEN_ACTION(craft)
GW_BETWEEN_ACTION(repair)
GW_BETWEEN_ACTION(use)
GW_BETWEEN_ACTION(answer_build)
GW_BETWEEN_ACTION(between_set_stabilize) /* between_dying.c; "between_": conflict.h has its own */
GW_BETWEEN_ACTION(between_stabilize)
GW_BETWEEN_ACTION(between_wait)
#undef GW_BETWEEN_ACTION

/* between.c, the module's catch_up: runs the days and the dying countdown from e->since_s up to
 * e->now_s, then sets since_s to now_s. Writes into e (borrowed); owns nothing after. */
void gw_between_catch_up(rules_enc *e);

/* between_dying.c: every dying character present loses 1 Condition per 6-second mark of the
 * campaign clock in (from, to], logged; below -10 they are dead and out. e is borrowed. */
void gw_between_dying_countdown(rules_enc *e, long from, long to);

#endif
