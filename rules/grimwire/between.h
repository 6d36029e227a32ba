/*
 * between.h — the files of the module grimwire.between (internal to rules/grimwire/): between.c
 * holds the module, its action table, rests, days, XP, levels and falls; between_skills.c
 * learning techniques, building, crafting and using what was built (002:300-385). The table names
 * the checks and resolves between_skills.c exports here; it calls down into grimwire_enc.h, never
 * back into between.c.
 */
#ifndef TABLED_RULES_GRIMWIRE_BETWEEN_H
#define TABLED_RULES_GRIMWIRE_BETWEEN_H

#include "grimwire_enc.h"

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
#undef GW_BETWEEN_ACTION

#endif
