/*
 * grid.c — the scene map's squares as the rules read them (grid.h). Only shown tokens are in
 * e->squares: no rule outcome a player sees depends on a hidden token.
 */
#include <string.h>

#include "grid.h"

int rules_grid_square(const rules_enc *e, const char *cid, int *x, int *y)
{
    json_t *t = json_object_get(e->squares, cid);
    const char *of = json_string_value(json_object_get(t, "cid"));
    json_t *jx = json_object_get(t, "x"), *jy = json_object_get(t, "y");
    if (!cid || !of || strcmp(of, cid) != 0 || !json_is_integer(jx) || !json_is_integer(jy))
        return 0;
    *x = (int)json_integer_value(jx);
    *y = (int)json_integer_value(jy);
    return 1;
}

int rules_grid_any(const rules_enc *e)
{
    const char *cid;
    int x, y;
    for (size_t i = 0; e->squares && (cid = rules_enc_cid_at(e, i)); i++)
        if (rules_grid_square(e, cid, &x, &y))
            return 1;
    return 0;
}

int rules_grid_inside(const rules_enc *e, int x, int y)
{
    json_t *cols = json_object_get(e->grid, "cols"), *rows = json_object_get(e->grid, "rows");
    if (!json_is_integer(cols) || !json_is_integer(rows))
        return 1;
    return x >= 0 && y >= 0 && x < json_integer_value(cols) && y < json_integer_value(rows);
}
