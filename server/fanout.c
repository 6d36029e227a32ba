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
    const char *patch_text; /* the patch encoded (may be NULL): the GM's ops, as they are */
    size_t patch_len;
    int64_t seq, pseq; /* the GM's diff carries seq, every player's pseq */
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
    proto_buf b = {0};
    fanout_msg_open(&b, headroom);
    proto_buf_add(&b, text, len);
    return fanout_msg_close(&b, headroom);
}

void fanout_msg_open(proto_buf *b, size_t headroom)
{
    proto_buf_reserve(b, sizeof(engine_msg) + headroom + 256);
    b->len = sizeof(engine_msg) + headroom;
}

/* The buffer becomes the message in place: no copy of the text. */
engine_msg *fanout_msg_close(proto_buf *b, size_t headroom)
{
    proto_buf_addc(b, '\0');
    engine_msg *m = (engine_msg *)(void *)b->data;
    m->refs = 1;
    m->head = headroom;
    m->len = b->len - 1 - sizeof(engine_msg) - headroom;
    m->text = m->buf + headroom;
    b->data = NULL;
    b->len = b->cap = 0;
    return m;
}

engine_msg *fanout_msg_json(size_t headroom, const json_t *msg)
{
    proto_buf b = {0};
    fanout_msg_open(&b, headroom);
    proto_json_append(&b, msg);
    return fanout_msg_close(&b, headroom);
}

fanout *fanout_begin(const json_t *patch, const char *patch_text, size_t patch_len, int64_t seq,
                     int64_t pseq, size_t headroom)
{
    fanout *f = xcalloc(1, sizeof *f);
    f->patch = patch;
    f->patch_text = patch_text;
    f->patch_len = patch_len;
    f->seq = seq;
    f->pseq = pseq;
    f->headroom = headroom;
    return f;
}

/* {"t":"diff","seq":SEQ,"ops":OPS} (proto_msg_diff's text) with the ops' text already encoded. */
static engine_msg *fanout__diff_text(fanout *f, int64_t seq, const char *ops, size_t len)
{
    proto_buf b = {0};
    fanout_msg_open(&b, f->headroom);
    static const char HEAD[] = "{\"t\":\"diff\",\"seq\":", OPS[] = ",\"ops\":";
    proto_buf_add(&b, HEAD, sizeof HEAD - 1);
    proto_buf_add_int(&b, (long long)seq);
    proto_buf_add(&b, OPS, sizeof OPS - 1);
    proto_buf_add(&b, ops, len);
    proto_buf_addc(&b, '}');
    return fanout_msg_close(&b, f->headroom);
}

/* Encodes {"t":"diff","seq","ops"} (ops stolen; seq: the GM's seq or the player seq) into a
 * message, or NULL when ops is empty. When ops is the patch itself, op for op (a view that hides
 * nothing), its text is the patch's. */
static engine_msg *fanout__encode(fanout *f, int64_t seq, json_t *ops)
{
    size_t n = json_array_size(ops);
    if (n == 0) {
        json_decref(ops);
        return NULL;
    }
    int same = f->patch_text && n == json_array_size(f->patch);
    for (size_t i = 0; same && i < n; i++)
        same = json_array_get(ops, i) == json_array_get(f->patch, i);
    engine_msg *m;
    if (same) {
        m = fanout__diff_text(f, seq, f->patch_text, f->patch_len);
    } else {
        proto_buf b = {0};
        proto_json_append(&b, ops);
        m = fanout__diff_text(f, seq, b.data, b.len);
        free(b.data);
    }
    json_decref(ops);
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
void engine__fan_out(campaign *k, int64_t seq, int64_t pseq, const json_t *patch,
                     const char *patch_text, size_t patch_len, size_t headroom)
{
    fanout *f = fanout_begin(patch, patch_text, patch_len, seq, pseq, headroom);
    for (engine_conn *c = k->conns; c; c = c->camp_next)
        if (!c->dead && !c->closing)
            engine__send_shared(c, fanout_for(f, c->seat, c->role == ROLE_GM));
    fanout_end(f);
}
