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

/* The public ops framed under one seq (the seats that were told the same private things). */
typedef struct framed {
    int64_t seq;
    engine_msg *msg;
} framed;

struct fanout {
    const json_t *patch;
    const char *patch_text; /* the patch encoded (may be NULL): the GM's ops, as they are */
    size_t patch_len;
    const size_t *op_at; /* where each op's text starts in patch_text (may be NULL) */
    int64_t seq, pseq;   /* the GM's diff carries seq; every player's pseq when ps is NULL */
    const playerseq_step *ps;
    size_t headroom;
    int split;      /* the audiences are known: 0 no, 1 yes */
    int per_viewer; /* every player's view is its own */
    json_t *everyone_ops, *touched;
    audience gm;
    int pub_encoded;      /* pub_text is known (NULL: the public view is empty) */
    const char *pub_text; /* the public ops' text: the patch's own, or pub_buf's */
    size_t pub_len;
    proto_buf pub_buf;
    framed *pubs; /* the public diff, one message per seq met */
    size_t n_pubs, cap_pubs;
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

/* fanout_msg_open for a text of about `expect` bytes: one allocation of the right size, not a
 * 256-byte one grown by realloc (issue 26: growing a message's buffer cost a command more than
 * writing it). */
static void fanout__msg_open_for(proto_buf *b, size_t headroom, size_t expect)
{
    proto_buf_reserve(b, sizeof(engine_msg) + headroom + expect + 1);
    b->len = sizeof(engine_msg) + headroom;
}

engine_msg *fanout_msg_new(size_t headroom, const char *text, size_t len)
{
    proto_buf b = {0};
    fanout__msg_open_for(&b, headroom, len);
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
    m->lazy = 0;
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
                     const playerseq_step *ps, int64_t pseq, size_t headroom)
{
    fanout *f = xcalloc(1, sizeof *f);
    f->patch = patch;
    f->patch_text = patch_text;
    f->patch_len = patch_len;
    f->seq = seq;
    f->ps = ps;
    f->pseq = pseq;
    f->headroom = headroom;
    if (ps && ps->everyone) { /* the audiences are known already (playerseq_advance) */
        f->split = 1;
        f->per_viewer = ps->per_viewer;
        f->everyone_ops = json_incref(ps->everyone);
        f->touched = json_incref(ps->touched);
    }
    return f;
}

void fanout_ops_at(fanout *f, const size_t *op_at)
{
    f->op_at = op_at;
}

/* {"t":"diff","seq":SEQ,"ops":OPS} (proto_msg_diff's text) with the ops' text already encoded. */
static engine_msg *fanout__diff_text(fanout *f, int64_t seq, const char *ops, size_t len)
{
    proto_buf b = {0};
    static const char HEAD[] = "{\"t\":\"diff\",\"seq\":", OPS[] = ",\"ops\":";
    fanout__msg_open_for(&b, f->headroom, sizeof HEAD + sizeof OPS + 24 + len);
    proto_buf_add(&b, HEAD, sizeof HEAD - 1);
    proto_buf_add_int(&b, (long long)seq);
    proto_buf_add(&b, OPS, sizeof OPS - 1);
    proto_buf_add(&b, ops, len);
    proto_buf_addc(&b, '}');
    return fanout_msg_close(&b, f->headroom);
}

/* When ops (n of them, n > 0) are ops lo .. lo + n of the patch, the very same op objects (a view
 * that hides only some first and last ops: the GM's counts playerseq_advance appends), their
 * text is cut out of the patch's: where the ops start when that is known (fanout_ops_at), else
 * the hidden ops alone are encoded, to find where the cut goes, and must match the patch's text
 * there byte for byte. Returns 1 with the text in b, else 0 (nothing written). */
static int fanout__cut(fanout *f, const json_t *ops, size_t n, proto_buf *b)
{
    size_t total = json_array_size(f->patch), lo = 0;
    if (!f->patch_text || n >= total)
        return 0;
    const json_t *first = json_array_get(ops, 0);
    while (lo < total && json_array_get(f->patch, lo) != first)
        lo++;
    if (lo + n > total)
        return 0;
    for (size_t i = 1; i < n; i++)
        if (json_array_get(ops, i) != json_array_get(f->patch, lo + i))
            return 0;
    if (f->op_at) { /* op lo starts at op_at[lo]; op lo + n - 1 ends before a ',' or the ']' */
        size_t from = f->op_at[lo], to = lo + n < total ? f->op_at[lo + n] - 1 : f->op_at[total];
        proto_buf_reserve(b, to - from + 2);
        proto_buf_addc(b, '[');
        proto_buf_add(b, f->patch_text + from, to - from);
        proto_buf_addc(b, ']');
        return 1;
    }
    /* the patch's text is "[" op0 "," op1 ... "]": the hidden head is "[" op0 "," ... op(lo-1)
     * ",", the hidden tail "," op(lo+n) ... "]" */
    proto_buf head = {0}, tail = {0};
    proto_buf_addc(&head, '[');
    for (size_t i = 0; i < lo; i++) {
        proto_json_append(&head, json_array_get(f->patch, i));
        proto_buf_addc(&head, ',');
    }
    for (size_t i = lo + n; i < total; i++) {
        proto_buf_addc(&tail, ',');
        proto_json_append(&tail, json_array_get(f->patch, i));
    }
    proto_buf_addc(&tail, ']');
    int ok = head.len + tail.len + 1 < f->patch_len &&
             memcmp(f->patch_text, head.data, head.len) == 0 &&
             memcmp(f->patch_text + f->patch_len - tail.len, tail.data, tail.len) == 0;
    if (ok) {
        size_t mid = f->patch_len - head.len - tail.len;
        proto_buf_reserve(b, mid + 2);
        proto_buf_addc(b, '[');
        proto_buf_add(b, f->patch_text + head.len, mid);
        proto_buf_addc(b, ']');
    }
    free(head.data);
    free(tail.data);
    return ok;
}

/* The text of ops (stolen), *len its length, or NULL when ops is empty. When ops is the patch
 * itself, op for op (a view that hides nothing), it is the patch's text; when it is a run of the
 * patch's ops, a cut of it (fanout__cut); else it is encoded into b (the caller frees b->data). */
static const char *fanout__text(fanout *f, json_t *ops, proto_buf *b, size_t *len)
{
    size_t n = json_array_size(ops);
    const char *text = NULL;
    int same = n > 0 && f->patch_text && n == json_array_size(f->patch);
    for (size_t i = 0; same && i < n; i++)
        same = json_array_get(ops, i) == json_array_get(f->patch, i);
    if (same) {
        text = f->patch_text;
        *len = f->patch_len;
    } else if (n > 0 && fanout__cut(f, ops, n, b)) {
        text = b->data;
        *len = b->len;
    } else if (n > 0) {
        proto_json_append(b, ops);
        text = b->data;
        *len = b->len;
    }
    json_decref(ops);
    return text;
}

/* Encodes {"t":"diff","seq","ops"} (ops stolen) into a message, or NULL when ops is empty. */
static engine_msg *fanout__encode(fanout *f, int64_t seq, json_t *ops)
{
    proto_buf b = {0};
    size_t len = 0;
    const char *text = fanout__text(f, ops, &b, &len);
    engine_msg *m = text ? fanout__diff_text(f, seq, text, len) : NULL;
    free(b.data);
    return m;
}

/* The seq a player seat's diff carries (server/playerseq.h). */
static int64_t fanout__seq_of(const fanout *f, const char *seat)
{
    return f->ps ? playerseq_step_seat(f->ps, seat) : f->pseq;
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

/* The public diff under seq: the ops encoded once, framed once per seq. */
static engine_msg *fanout__public(fanout *f, int64_t seq)
{
    if (!f->pub_encoded) {
        f->pub_encoded = 1;
        f->pub_text = fanout__text(f, json_incref(f->everyone_ops), &f->pub_buf, &f->pub_len);
    }
    if (!f->pub_text)
        return NULL;
    for (size_t i = 0; i < f->n_pubs; i++)
        if (f->pubs[i].seq == seq)
            return f->pubs[i].msg;
    if (f->n_pubs == f->cap_pubs) {
        f->cap_pubs = f->cap_pubs ? 2 * f->cap_pubs : 2;
        f->pubs = xrealloc(f->pubs, f->cap_pubs * sizeof *f->pubs);
    }
    framed *x = &f->pubs[f->n_pubs++];
    x->seq = seq;
    x->msg = fanout__diff_text(f, seq, f->pub_text, f->pub_len);
    return x->msg;
}

engine_msg *fanout_for(fanout *f, const char *seat, int is_gm)
{
    return fanout_for_seq(f, seat, is_gm, is_gm ? f->seq : fanout__seq_of(f, seat));
}

engine_msg *fanout_for_seq(fanout *f, const char *seat, int is_gm, int64_t seq)
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
    if (f->per_viewer || (json_object_size(f->touched) && json_object_get(f->touched, seat))) {
        audience *a = fanout__seat(f, seat);
        if (!a->encoded) {
            proto_viewer v = {.seat = seat, .is_gm = 0};
            json_t *ops = proto_filter_patch(f->patch, &v);
            /* NULL: a move/copy out of a hidden area, never diffed */
            a->msg = fanout__encode(f, seq, ops ? ops : json_array());
            a->encoded = 1;
        }
        return a->msg;
    }
    return fanout__public(f, seq);
}

void fanout_end(fanout *f)
{
    if (!f)
        return;
    engine_msg_unref(f->gm.msg);
    for (size_t i = 0; i < f->n_pubs; i++)
        engine_msg_unref(f->pubs[i].msg);
    free(f->pubs);
    free(f->pub_buf.data);
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
void engine__fan_out(campaign *k, int64_t seq, const playerseq_step *ps, const json_t *patch,
                     const char *patch_text, size_t patch_len, const size_t *op_at, size_t headroom,
                     int lazy)
{
    fanout *f = fanout_begin(patch, patch_text, patch_len, seq, ps, 0, headroom);
    fanout_ops_at(f, op_at);
    for (engine_conn *c = k->conns; c; c = c->camp_next)
        if (!c->dead && !c->closing) {
            engine_msg *m = fanout_for(f, c->seat, c->role == ROLE_GM);
            if (m)
                m->lazy = lazy; /* this event's alone */
            engine__send_shared(c, m);
        }
    fanout_end(f);
}
