/*
 * roster.c — the player count and seat names of one /seats object (roster.h). The names are a
 * multiset of their keys (ops_seat_name_key) in a jansson object: key -> how many seats.
 */
#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "protocol.h"
#include "roster.h"

struct roster {
    json_t *seats; /* the /seats object described (a reference), or NULL */
    int players;
    int named;
    json_t *names; /* name key -> count of seats */
};

roster *roster_new(void)
{
    roster *r = xcalloc(1, sizeof *r);
    r->names = json_object();
    return r;
}

void roster_free(roster *r)
{
    if (!r)
        return;
    json_decref(r->seats);
    json_decref(r->names);
    free(r);
}

static int roster__is_player(const json_t *entry)
{
    const char *role = json_string_value(json_object_get(entry, "role"));
    return !role || strcmp(role, "gm") != 0;
}

/* Counts entry (a seat's object, or NULL) in r with sign +1 or -1. */
static void roster__count(roster *r, const json_t *entry, int sign)
{
    if (!entry)
        return;
    r->players += sign * roster__is_player(entry);
    const char *name = json_string_value(json_object_get(entry, "name"));
    if (!name)
        return;
    r->named += sign;
    char *key = xmalloc(strlen(name) + 1);
    ops_seat_name_key(name, key);
    json_int_t n = json_integer_value(json_object_get(r->names, key)) + sign;
    if (n > 0)
        json_object_set_new(r->names, key, json_integer(n));
    else
        json_object_del(r->names, key);
    free(key);
}

static void roster__name(roster *r, const json_t *seats)
{
    json_incref((json_t *)seats);
    json_decref(r->seats);
    r->seats = (json_t *)seats;
}

void roster_follow(roster *r, const json_t *seats)
{
    if (r->seats == seats)
        return;
    r->players = r->named = 0;
    json_object_clear(r->names);
    const char *id;
    json_t *v;
    json_object_foreach((json_t *)seats, id, v) roster__count(r, v, 1);
    roster__name(r, seats);
}

void roster_follow_seat(roster *r, const json_t *from, const json_t *seats, const char *id)
{
    if (r->seats == seats)
        return;
    if (!from || r->seats != from || !json_is_object(seats)) {
        roster_follow(r, seats);
        return;
    }
    roster__count(r, json_object_get(from, id), -1);
    roster__count(r, json_object_get(seats, id), 1);
    roster__name(r, seats);
}

void roster_seat_added(roster *r, const json_t *seats, const char *id)
{
    if (r->seats != seats) {
        roster_follow(r, seats);
        return;
    }
    roster__count(r, json_object_get(seats, id), 1);
}

void roster_follow_patch(roster *r, const json_t *from, const json_t *seats, const json_t *patch)
{
    if (r->seats == seats)
        return;
    if (!from || r->seats != from || !json_is_object(seats) || !json_is_array(patch)) {
        roster_follow(r, seats);
        return;
    }
    /* the seats the ops name, each once; an op on /seats itself or the root: a recount */
    json_t *ids = json_object();
    int whole = 0;
    for (size_t i = 0; i < json_array_size(patch) && !whole; i++) {
        const json_t *op = json_array_get(patch, i);
        const char *paths[2] = {json_string_value(json_object_get(op, "path")),
                                json_string_value(json_object_get(op, "from"))};
        for (int p = 0; p < 2 && !whole; p++) {
            proto_pointer ptr;
            if (!paths[p])
                continue;
            if (proto_pointer_parse(paths[p], &ptr, NULL)) {
                whole = 1;
                continue;
            }
            if (ptr.n == 0 || (strcmp(ptr.tokens[0], "seats") == 0 && ptr.n == 1))
                whole = 1;
            else if (strcmp(ptr.tokens[0], "seats") == 0)
                json_object_set_new(ids, ptr.tokens[1], json_true());
            proto_pointer_free(&ptr);
        }
    }
    if (whole) {
        roster_follow(r, seats);
    } else {
        const char *id;
        json_t *v;
        json_object_foreach(ids, id, v)
        {
            roster__count(r, json_object_get(from, id), -1);
            roster__count(r, json_object_get(seats, id), 1);
        }
        roster__name(r, seats);
    }
    json_decref(ids);
}

const json_t *roster_seats(const roster *r)
{
    return r->seats;
}

int roster_players(const roster *r)
{
    return r->players;
}

int roster_names(const roster *r)
{
    return r->named;
}

int roster_name_taken(const roster *r, const char *name)
{
    char *key = xmalloc(strlen(name) + 1);
    ops_seat_name_key(name, key);
    int taken = json_object_get(r->names, key) != NULL;
    free(key);
    return taken;
}
