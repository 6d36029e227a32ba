/*
 * grid.h — the scene map's squares as the rules read them (issue 30): the shown tokens of the
 * fighters (rules_enc.squares, set by the server from /maps/<scene>/tokens). Every system that
 * decides something by position reads a combatant's square here; the distance it measures is its
 * own rulebook's (Heimr along the axes, 001:264; GRIMWIRE a blast's radius, 002:725).
 */
#ifndef TABLED_RULES_GRID_H
#define TABLED_RULES_GRID_H

#include "encounter.h"

/* Combatant cid's square: 1 with *x, *y when its token is shown on the scene's map, else 0 (no
 * map shown, not placed, or hidden: the GM's word then, as before there were maps). */
int rules_grid_square(const rules_enc *e, const char *cid, int *x, int *y);

/* Whether square x, y lies on the shown map's grid (e->grid's cols and rows); 1 when no grid is
 * known (no map shown: the caller refuses that on its own). */
int rules_grid_inside(const rules_enc *e, int x, int y);

/* Whether a map with at least one fighter's token on it is shown (a move may be placed on it). */
int rules_grid_any(const rules_enc *e);

#endif
