/*
 * grid.c — Heimr's combat grid read from the scene's map (issue 30; rules/RULES.md, heimr
 * encounter reading 23, "The grid from the map"). 001:49-67: every square is a location; in combat
 * the squares keep their relative positions (001:65-67), so the map's columns and rows are the
 * book's grid. Only shown tokens count (e->squares holds nothing else): a combatant that is not
 * on the map is placed by the GM's word, as before there were maps.
 */
#include <stdlib.h>
#include <string.h>

#include "heimr_enc.h"

int heimr_grid_distance(int ax, int ay, int bx, int by)
{
    return abs(ax - bx) + abs(ay - by);
}

int heimr_grid_square(const rules_enc *e, const char *cid, int *x, int *y)
{
    json_t *t = json_object_get(e->squares, cid);
    const char *of = json_string_value(json_object_get(t, "cid"));
    json_t *jx = json_object_get(t, "x"), *jy = json_object_get(t, "y");
    if (!of || strcmp(of, cid) != 0 || !json_is_integer(jx) || !json_is_integer(jy))
        return 0;
    *x = (int)json_integer_value(jx);
    *y = (int)json_integer_value(jy);
    return 1;
}

int heimr_grid_between(const rules_enc *e, const char *a, const char *b)
{
    int ax, ay, bx, by;
    if (!a || !b || !heimr_grid_square(e, a, &ax, &ay) || !heimr_grid_square(e, b, &bx, &by))
        return -1;
    return heimr_grid_distance(ax, ay, bx, by);
}
