/*
 * spaces.c — 10acity's spaces read from the scene's map (issue 30; rules/RULES.md, tenacity,
 * "Spaces on the map"). 003:82 a movement is "a number of spaces", 003:121 a creature of the
 * standard size is "1×1": one square of the map's grid is one space. Melee range (003:71,
 * 003:111-112) is the fighter's own space and the eight around it (the book gives no number:
 * reading S1). Only shown tokens count (e->squares holds nothing else): a fighter that is not on
 * the map, or larger than one space (size > 0: its spaces are not on the map), is placed by the
 * GM's word, as before there were maps. The square reader is this module's own, small (Heimr's is
 * rules/heimr/grid.c): a common grid helper in rules/ may take both.
 */
#include <stdlib.h>
#include <string.h>

#include "tenacity_enc.h"

/* cid's square on the map now: 1 and *x, *y, or 0 when its token is not shown. */
static int square_now(const rules_enc *e, const char *cid, int *x, int *y)
{
    json_t *t = json_object_get(e->squares, cid);
    json_t *jx = json_object_get(t, "x"), *jy = json_object_get(t, "y");
    if (!rules_enc_streq(json_string_value(json_object_get(t, "cid")), cid) ||
        !json_is_integer(jx) || !json_is_integer(jy))
        return 0;
    *x = (int)json_integer_value(jx);
    *y = (int)json_integer_value(jy);
    return 1;
}

/* cid's square when the spotlight last moved (/enc/start_squares/<cid>: [x, y]), or 0. */
static int square_at_start(const rules_enc *e, const char *cid, int *x, int *y)
{
    json_t *s = json_object_get(json_object_get(e->enc, "start_squares"), cid);
    if (!json_is_integer(json_array_get(s, 0)) || !json_is_integer(json_array_get(s, 1)))
        return 0;
    *x = (int)json_integer_value(json_array_get(s, 0));
    *y = (int)json_integer_value(json_array_get(s, 1));
    return 1;
}

/* Spaces between a and b (now, or at the turn's start): the larger of the steps along the
 * columns and the rows (a diagonal neighbour is next to you), or -1 when the map does not say. */
static int between(const rules_enc *e, const char *a, const char *b, int at_start)
{
    int ax, ay, bx, by;
    int (*at)(const rules_enc *, const char *, int *, int *) =
        at_start ? square_at_start : square_now;
    if (!a || !b || ten_size(e, a) > 0 || ten_size(e, b) > 0 || !at(e, a, &ax, &ay) ||
        !at(e, b, &bx, &by))
        return -1;
    int dx = abs(ax - bx), dy = abs(ay - by);
    return dx > dy ? dx : dy;
}

int ten_spaces_now(const rules_enc *e, const char *a, const char *b)
{
    return between(e, a, b, 0);
}

int ten_spaces_at_start(const rules_enc *e, const char *a, const char *b)
{
    return between(e, a, b, 1);
}

void ten_mark_start(rules_enc *e)
{
    json_t *all = json_object();
    const char *id;
    json_t *t;
    int x, y;
    json_object_foreach((json_t *)e->squares, id, t)
    {
        if (rules_enc_combatant(e, id) && square_now(e, id, &x, &y))
            json_object_set_new(all, id, json_pack("[i, i]", x, y));
    }
    if (json_object_size(all))
        json_object_set_new(e->enc, "start_squares", all);
    else {
        json_decref(all);
        json_object_del(e->enc, "start_squares");
    }
}

int ten_started_in_melee(const rules_enc *e, const char *cid)
{
    int measured = 0;
    const char *o;
    for (size_t i = 0; (o = rules_enc_cid_at(e, i)); i++) {
        if (!ten_present(e, o) || !ten_opposed(e, cid, o))
            continue;
        int d = ten_spaces_at_start(e, cid, o);
        if (d < 0 || d <= TEN_MELEE_SPACES)
            return d < 0 ? -1 : 1;
        measured = 1;
    }
    return measured ? 0 : -1;
}

int ten_require_reach(const rules_enc *e, const char *actor, const char *target,
                      const rules_args *a, tb_err *err)
{
    const char *range = ten_arg_str(a, "range");
    int d = range && strcmp(range, "ranged") == 0 ? -1 : ten_spaces_now(e, actor, target);
    if (d > TEN_MELEE_SPACES)
        return rules_enc_rule(err,
                              "%s is %d spaces away from %s: melee reaches only the spaces next to "
                              "you (003:111)",
                              rules_enc_name(e, target), d, rules_enc_name(e, actor));
    return 0;
}
