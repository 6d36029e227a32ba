#include "playerseq.h"

#include <stdio.h>
#include <string.h>

#include "protocol.h"

static int64_t playerseq__int(const json_t *v, int64_t otherwise)
{
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : otherwise;
}

int64_t playerseq_get(const json_t *state, int64_t seq)
{
    return playerseq__int(json_object_get(json_object_get(state, "gm"), "player_seq"), seq);
}

int64_t playerseq_seat(const json_t *state, int64_t seq, const char *seat)
{
    json_t *own = json_object_get(json_object_get(state, "gm"), "seat_seq");
    return playerseq_get(state, seq) + playerseq__int(json_object_get(own, seat), 0);
}

int64_t playerseq_step_seat(const playerseq_step *s, const char *seat)
{
    return s->pub + (seat && s->own ? playerseq__int(json_object_get(s->own, seat), 0) : 0);
}

void playerseq_step_free(playerseq_step *s)
{
    json_decref(s->everyone);
    json_decref(s->touched);
    json_decref(s->own);
    s->everyone = s->touched = s->own = NULL;
}

/* Who sees the patch: proto_patch_audiences, or, when every player's view is its own (an op at
 * the root or at /private), what a player with nothing private sees and every player seat of
 * state as touched. */
static void playerseq__split(const json_t *patch, const json_t *state, playerseq_step *s)
{
    if (proto_patch_audiences(patch, &s->everyone, &s->touched) == 0)
        return;
    s->per_viewer = 1;
    proto_viewer nobody = {.seat = NULL, .is_gm = 0};
    s->everyone = proto_filter_patch(patch, &nobody);
    if (!s->everyone) /* cannot be filtered: nobody is sent it (server/fanout.c) */
        s->everyone = json_array();
    s->touched = json_object();
    const char *seat;
    json_t *v;
    json_object_foreach(json_object_get(state, "seats"), seat, v)
        json_object_set_new(s->touched, seat, json_true());
}

/* The player seats (of new_state) whose own count the event moves: nothing public changed and
 * their filtered diff is not empty. A new array, or NULL when the event is public (none). */
static json_t *playerseq__bumped(const json_t *patch, const json_t *new_state,
                                 const playerseq_step *s)
{
    if (json_array_size(s->everyone) > 0)
        return NULL;
    json_t *out = json_array();
    json_t *seats = json_object_get(new_state, "seats");
    const char *seat;
    json_t *v;
    json_object_foreach(s->touched, seat, v)
    {
        if (strcmp(seat, "gm") == 0 || !json_object_get(seats, seat))
            continue;
        proto_viewer pv = {.seat = seat, .is_gm = 0};
        json_t *ops = proto_filter_patch(patch, &pv);
        if (json_array_size(ops) > 0)
            json_array_append_new(out, json_string(seat));
        json_decref(ops);
    }
    return out;
}

static void playerseq__op(json_t *patch, const char *kind, const char *path, json_t *value)
{
    json_t *op = json_object(); /* not json_pack: its format is parsed on every call */
    json_object_set_new_nocheck(op, "op", json_string_nocheck(kind)); /* ours: ASCII */
    json_object_set_new_nocheck(op, "path", json_string(path));
    if (value)
        json_object_set_new(op, "value", value);
    json_array_append_new(patch, op);
}

void playerseq_advance(const json_t *base, int64_t base_seq, json_t *new_state, json_t *patch,
                       playerseq_step *out)
{
    memset(out, 0, sizeof *out);
    playerseq__split(patch, new_state, out);
    json_t *base_gm = json_object_get(base, "gm");
    json_t *had = json_object_get(base_gm, "player_seq");
    json_t *own_before = json_object_get(base_gm, "seat_seq");
    int64_t before = playerseq__int(had, base_seq);
    int public = json_array_size(out->everyone) > 0;
    out->pub = before + public;
    json_t *bump = playerseq__bumped(patch, new_state, out);
    /* a seat that left takes its own count with it */
    json_t *seats = json_object_get(new_state, "seats"), *gone = NULL; /* NULL: none */
    if (seats != json_object_get(base, "seats")) {
        gone = json_array();
        const char *seat;
        json_t *v;
        json_object_foreach(own_before, seat, v)
        {
            if (!json_object_get(seats, seat))
                json_array_append_new(gone, json_string(seat));
        }
    }
    int set_pub = !json_is_integer(had) || public;
    int set_own = json_array_size(bump) > 0 || json_array_size(gone) > 0;
    json_t *gm = json_object_get(new_state, "gm");
    if (!set_pub && !set_own) {
        out->own = json_incref(json_object_get(gm, "seat_seq"));
        json_decref(bump);
        json_decref(gone);
        return;
    }
    /* /gm and /gm/seat_seq may be shared with the committed state (server/workcopy.h): copies */
    int had_gm = json_is_object(gm);
    gm = had_gm ? json_copy(gm) : json_object();
    json_object_set_new(new_state, "gm", gm);
    json_t *own_old = json_incref(json_object_get(gm, "seat_seq")); /* replaced below */
    json_t *own = json_is_object(own_old) ? json_copy(own_old) : json_object();
    size_t i;
    json_t *v;
    json_array_foreach(bump, i, v)
    {
        const char *seat = json_string_value(v);
        json_object_set_new(own, seat,
                            json_integer(playerseq__int(json_object_get(own, seat), 0) + 1));
    }
    json_array_foreach(gone, i, v) json_object_del(own, json_string_value(v));
    json_object_set_new(gm, "player_seq", json_integer(out->pub));
    if (set_own || json_is_object(own_old))
        json_object_set(gm, "seat_seq", own);
    out->own = json_object_size(own) > 0 || json_is_object(own_old) ? json_incref(own) : NULL;
    if (!had_gm) {
        playerseq__op(patch, "add", "/gm", json_deep_copy(gm));
    } else {
        if (set_pub)
            playerseq__op(patch, had ? "replace" : "add", PLAYERSEQ_PATH, json_integer(out->pub));
        if (set_own && !json_is_object(own_old)) {
            playerseq__op(patch, "add", PLAYERSEQ_SEATS_PATH, json_deep_copy(own));
        } else if (set_own) {
            char path[128];
            json_array_foreach(bump, i, v)
            {
                const char *seat = json_string_value(v);
                snprintf(path, sizeof path, PLAYERSEQ_SEATS_PATH "/%s", seat);
                playerseq__op(patch, json_object_get(own_old, seat) ? "replace" : "add", path,
                              json_incref(json_object_get(own, seat)));
            }
            json_array_foreach(gone, i, v)
            {
                snprintf(path, sizeof path, PLAYERSEQ_SEATS_PATH "/%s", json_string_value(v));
                playerseq__op(patch, "remove", path, NULL);
            }
        }
    }
    json_decref(own);
    json_decref(own_old);
    json_decref(bump);
    json_decref(gone);
}

int playerseq_moves_seat(const json_t *patch, const char *seat, int *intro)
{
    size_t i;
    json_t *op;
    char own[128];
    snprintf(own, sizeof own, PLAYERSEQ_SEATS_PATH "/%s", seat);
    int moved = 0;
    *intro = 0;
    json_array_foreach(patch, i, op)
    {
        const char *path = json_string_value(json_object_get(op, "path"));
        const char *kind = json_string_value(json_object_get(op, "op"));
        json_t *v = json_object_get(op, "value");
        if (!path || !kind || strcmp(kind, "remove") == 0)
            continue;
        if (strcmp(path, PLAYERSEQ_PATH) == 0 && json_is_integer(v)) {
            moved = 1;
            *intro |= strcmp(kind, "add") == 0;
        } else if (strcmp(path, "/gm") == 0 && json_is_integer(json_object_get(v, "player_seq"))) {
            moved = 1;
            *intro = 1;
        } else if (strcmp(path, own) == 0 ||
                   (strcmp(path, PLAYERSEQ_SEATS_PATH) == 0 && json_object_get(v, seat))) {
            moved = 1;
        }
    }
    return moved;
}

int playerseq_patch_adds_seat(const json_t *patch, const char *seat)
{
    size_t i;
    json_t *op;
    char want[64];
    snprintf(want, sizeof want, "/seats/%s", seat);
    json_array_foreach(patch, i, op)
    {
        const char *path = json_string_value(json_object_get(op, "path"));
        const char *kind = json_string_value(json_object_get(op, "op"));
        if (path && kind && strcmp(kind, "add") == 0 && strcmp(path, want) == 0)
            return 1;
    }
    return 0;
}
