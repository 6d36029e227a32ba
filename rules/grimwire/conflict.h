/*
 * conflict.h — the files of the module grimwire.conflict (internal to rules/grimwire/):
 *   conflict.c          the module: its action table, its hooks, and the actions of a turn
 *   conflict_options.c  the combat options: trip, shove, grapple, release, shield, stabilize,
 *                       leave, stay (002:647-761, 002:258, 002:727)
 *   conflict_gm.c       the GM's actions: collateral, set_tn, answer, traits, status, damage,
 * splash, area, drown, heal, revive The table names the checks and resolves the other two export
 * here; they call down into grimwire_enc.h, never back into conflict.c.
 */
#ifndef TABLED_RULES_GRIMWIRE_CONFLICT_H
#define TABLED_RULES_GRIMWIRE_CONFLICT_H

#include "grimwire_enc.h"

/* gw_chk_<x>: the action's check (pure); gw_res_<x>: its resolve (rules_enc_act runs it once the
 * check passed; it never refuses). */
#define GW_CONFLICT_ACTION(x)                                                                      \
    int gw_chk_##x(const rules_enc *e, const rules_args *a, tb_err *err);                          \
    int gw_res_##x(rules_enc *e, const rules_args *a, tb_err *err);
GW_CONFLICT_ACTION(trip)
GW_CONFLICT_ACTION(shove)
GW_CONFLICT_ACTION(grapple)
GW_CONFLICT_ACTION(release)
GW_CONFLICT_ACTION(shield)
GW_CONFLICT_ACTION(stabilize)
GW_CONFLICT_ACTION(leave)
GW_CONFLICT_ACTION(stay)
GW_CONFLICT_ACTION(collateral)
GW_CONFLICT_ACTION(set_tn)
GW_CONFLICT_ACTION(answer)
GW_CONFLICT_ACTION(traits)
GW_CONFLICT_ACTION(status)
GW_CONFLICT_ACTION(damage)
GW_CONFLICT_ACTION(splash)
GW_CONFLICT_ACTION(area)
GW_CONFLICT_ACTION(drown)
GW_CONFLICT_ACTION(heal)
GW_CONFLICT_ACTION(revive)
#undef GW_CONFLICT_ACTION

/* Defines resolve `name` of action x: do_<x> (its dice and writes), then the sheet's status
 * follows the conditions (gw_sync_status). */
#define GW_RESOLVE(name, x)                                                                        \
    int name(rules_enc *e, const rules_args *a, tb_err *err)                                       \
    {                                                                                              \
        (void)err;                                                                                 \
        do_##x(e, a);                                                                              \
        gw_sync_status(e);                                                                         \
        return 0;                                                                                  \
    }

#endif
