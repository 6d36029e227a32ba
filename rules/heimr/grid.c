/*
 * grid.c — Heimr's combat grid read from the scene's map (issue 30; rules/RULES.md, heimr
 * encounter reading 23, "The grid from the map"). 001:49-67: every square is a location; in combat
 * the squares keep their relative positions (001:65-67), so the map's columns and rows are the
 * book's grid. Only shown tokens count (e->squares holds nothing else): a combatant that is not
 * on the map is placed by the GM's word, as before there were maps. The squares are read by the
 * shared reader (rules/grid.c); the distance is Heimr's own.
 */
#include <stdlib.h>

#include "grid.h"
#include "heimr_enc.h"

int heimr_grid_distance(int ax, int ay, int bx, int by)
{
    return abs(ax - bx) + abs(ay - by);
}

int heimr_grid_between(const rules_enc *e, const char *a, const char *b)
{
    int ax, ay, bx, by;
    if (!a || !b || !rules_grid_square(e, a, &ax, &ay) || !rules_grid_square(e, b, &bx, &by))
        return -1;
    return heimr_grid_distance(ax, ay, bx, by);
}
