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

/* 001:344 Charge: "Use the Move action to go to a different square and make a melee weapon
 * attack or brawl attack against an opponent in that square"; in combat a square borders only
 * the squares up, down, left and right (001:61), so the opponent's square is next to the
 * charger's along an axis: distance 1 (001:264). Read from the map when both tokens are shown;
 * a charger on the map names the opponent, one off it is placed by the GM's word. */
int heimr_charge_check(const rules_enc *e, const char *cid, const char *at, tb_err *err)
{
    int x, y;
    if (!at)
        return rules_grid_square(e, cid, &x, &y)
                   ? rules_enc_rule(err,
                                    "%s is on the map: a charge names the opponent charged "
                                    "(001:344)",
                                    rules_enc_name(e, cid))
                   : 0;
    if (rules_enc_streq(rules_enc_side(e, at), rules_enc_side(e, cid)))
        return rules_enc_rule(err,
                              "%s is not %s's opponent: a charge attacks an opponent (001:344)",
                              rules_enc_name(e, at), rules_enc_name(e, cid));
    int d = heimr_grid_between(e, cid, at);
    if (d == 0)
        return rules_enc_rule(err,
                              "%s is in %s's square: a charge goes to a different square "
                              "(001:344)",
                              rules_enc_name(e, at), rules_enc_name(e, cid));
    if (d > 1)
        return rules_enc_rule(err,
                              "%s is %d squares away from %s: a charge reaches the square next "
                              "to %s's, up, down, left or right (001:61, 001:344)",
                              rules_enc_name(e, at), d, rules_enc_name(e, cid),
                              rules_enc_name(e, cid));
    return 0;
}
