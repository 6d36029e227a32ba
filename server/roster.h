/*
 * roster.h — a campaign's player count and seat names, kept up to date as its seats change
 * (issue 26 item 4: a join checked --max-seats and the new name against every seat, O(seats)
 * per join and 28 % of a join's CPU at 1 000 seats once its welcome was cheap).
 *
 * A roster describes one /seats object, named by its address: a state never changes (the
 * contract of server/workcopy.h) and any change to the seats makes a new /seats object, so a
 * roster that names the object it is asked about is exact, and one that names another one is
 * brought up to date first: from the event's ops when it described the state before the event
 * (roster_follow_patch: only the seats the event touched), else by a recount of every seat. It
 * holds a reference on the object it names, so the address is never another object's.
 */
#ifndef TABLED_ROSTER_H
#define TABLED_ROSTER_H

#include <jansson.h>

typedef struct roster roster;

roster *roster_new(void);
void roster_free(roster *r); /* NULL is fine */

/* Makes r describe seats (a /seats object, borrowed; NULL: no seats): nothing to do when it does
 * already, else a recount. */
void roster_follow(roster *r, const json_t *seats);

/* Makes r describe seats, reached from `from` by patch (an event's RFC 6902 ops on the whole
 * state): when r described `from`, only the seats the ops name are looked at. */
void roster_follow_patch(roster *r, const json_t *from, const json_t *seats, const json_t *patch);

/* Makes r describe seats, which differs from `from` in seat `id` alone. */
void roster_follow_seat(roster *r, const json_t *from, const json_t *seats, const char *id);

/* Seat id was just added in place to seats, the object r describes: the one exception to "a
 * state never changes", for a join batch's own working copy that no committed state shares
 * (server/session.c seat_join_in_place). A recount when r describes another object. */
void roster_seat_added(roster *r, const json_t *seats, const char *id);

/* The seats (r's /seats object, borrowed) r describes. */
const json_t *roster_seats(const roster *r);

/* Seats whose role is not "gm" (what --max-seats counts). */
int roster_players(const roster *r);

/* 0 when no seat of r has a name that clashes with name (ops_seat_name_key), 1 when one may. */
int roster_name_taken(const roster *r, const char *name);

/* How many seats have names (for tests). */
int roster_names(const roster *r);

#endif
