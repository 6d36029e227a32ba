/*
 * fanout.c — diffs encoded once per audience (see fanout.h).
 */
#include "fanout.h"

#include "engine_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"

/* One audience's message; encoded says whether msg is known (NULL then means "nothing"). */
typedef struct audience {
    char *seat; /* for a touched seat; NULL for the others */
    int encoded;
    engine_msg *msg;
} audience;

struct fanout {
    const json_t *patch;
    int64_t seq, pseq;
    size_t headroom;
    int split;      /* proto_patch_audiences ran: 0 no, 1 yes */
    int per_viewer; /* every player's view is its own */
    json_t *everyone_ops, *touched;
    audience gm, everyone;
    audience *seats; /* touched seats (or every seat when per_viewer), as met */
    size_t n_seats, cap_seats;
};

engine_msg *engine_msg_ref(engine_msg *m)
{
    m->refs++;
    return m;
}

void engine_msg_unref(engine_msg *m)
{
    if (m && --m->refs == 0)
        free(m);
}

engine_msg *fanout_msg_new(size_t headroom, const char *text, size_t len)
{
    engine_msg *m = xmalloc(sizeof *m + headroom + len + 1);
    m->refs = 1;
    m->len = len;
    m->head = headroom;
    m->text = m->buf + headroom;
    memcpy(m->text, text, len);
    m->text[len] = '\0';
    return m;
}

fanout *fanout_begin(const json_t *patch, int64_t seq, int64_t pseq, size_t headroom)
{
    fanout *f = xcalloc(1, sizeof *f);
    f->patch = patch;
    f->seq = seq;
    f->pseq = pseq;
    f->headroom = headroom;
    return f;
}

/* Encodes {"t":"diff","seq","ops"} (ops stolen) into a message, or NULL when ops is empty. */
static engine_msg *fanout__encode(fanout *f, int64_t seq, json_t *ops)
{
    if (json_array_size(ops) == 0) {
        json_decref(ops);
        return NULL;
    }
    json_t *msg = proto_msg_diff(seq, ops);
    char *s = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (!s) {
        fprintf(stderr, "tabled: cannot serialize a diff\n");
        abort();
    }
    engine_msg *m = fanout_msg_new(f->headroom, s, strlen(s));
    free(s);
    return m;
}

/* The audience of one seat's own view (a touched seat, or any seat when per_viewer). */
static audience *fanout__seat(fanout *f, const char *seat)
{
    for (size_t i = 0; i < f->n_seats; i++)
        if (strcmp(f->seats[i].seat, seat) == 0)
            return &f->seats[i];
    if (f->n_seats == f->cap_seats) {
        f->cap_seats = f->cap_seats ? 2 * f->cap_seats : 4;
        f->seats = xrealloc(f->seats, f->cap_seats * sizeof *f->seats);
    }
    audience *a = &f->seats[f->n_seats++];
    a->seat = xstrdup(seat);
    a->encoded = 0;
    a->msg = NULL;
    return a;
}

engine_msg *fanout_for(fanout *f, const char *seat, int is_gm)
{
    if (is_gm) {
        if (!f->gm.encoded) {
            f->gm.msg = fanout__encode(f, f->seq, json_incref((json_t *)f->patch));
            f->gm.encoded = 1;
        }
        return f->gm.msg;
    }
    if (!f->split) {
        f->split = 1;
        int r = proto_patch_audiences(f->patch, &f->everyone_ops, &f->touched);
        f->per_viewer = r != 0; /* r < 0 cannot happen for our diffs: filter each, safely */
    }
    if (f->per_viewer || json_object_get(f->touched, seat)) {
        audience *a = fanout__seat(f, seat);
        if (!a->encoded) {
            proto_viewer v = {.seat = seat, .is_gm = 0};
            json_t *ops = proto_filter_patch(f->patch, &v);
            /* NULL: a move/copy out of a hidden area, never diffed */
            a->msg = fanout__encode(f, f->pseq, ops ? ops : json_array());
            a->encoded = 1;
        }
        return a->msg;
    }
    if (!f->everyone.encoded) {
        f->everyone.msg = fanout__encode(f, f->pseq, json_incref(f->everyone_ops));
        f->everyone.encoded = 1;
    }
    return f->everyone.msg;
}

void fanout_end(fanout *f)
{
    if (!f)
        return;
    engine_msg_unref(f->gm.msg);
    engine_msg_unref(f->everyone.msg);
    for (size_t i = 0; i < f->n_seats; i++) {
        engine_msg_unref(f->seats[i].msg);
        free(f->seats[i].seat);
    }
    free(f->seats);
    json_decref(f->everyone_ops);
    json_decref(f->touched);
    free(f);
}

/* The event's diff to every seat of the campaign: encoded once per audience (fanout.h); a seat
 * whose view of the patch is empty gets nothing. */
void engine__fan_out(campaign *k, int64_t seq, int64_t pseq, const json_t *patch, size_t headroom)
{
    fanout *f = fanout_begin(patch, seq, pseq, headroom);
    for (engine_conn *c = k->conns; c; c = c->camp_next)
        if (!c->dead && !c->closing)
            engine__send_shared(c, fanout_for(f, c->seat, c->role == ROLE_GM));
    fanout_end(f);
}
