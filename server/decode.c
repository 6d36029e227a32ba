/*
 * decode.c — step 1: a client message parsed and dispatched (the pipeline: engine_int.h).
 */
#include <stdio.h>
#include <string.h>

#include "engine_int.h"

/* Counts a refused message; a connection that keeps sending them is closed. */
void engine__count_bad(engine_conn *c)
{
    uint64_t now = engine__mono_ns();
    if (now - c->bad_since > 10ull * 1000000000u) {
        c->bad_since = now;
        c->bad = 0;
    }
    if (++c->bad > 50)
        engine__close_conn(c, 1008, "too many bad messages");
}

void engine_receive_refused(engine *e, engine_conn *c, tb_code code, const char *message)
{
    if (c->dead || c->closing)
        return;
    engine__send_error(c, code, message);
    engine__count_bad(c);
}

void engine_receive(engine *e, engine_conn *c, const char *buf, size_t len)
{
    if (c->dead || c->closing)
        return;
    if (c->joining)
        engine__join_now(e, c); /* its join first: whatever it sends next finds its seat */
    proto_msg m = {0};
    tb_err err = {0};
    if (proto_parse_client(buf, len, &m, &err)) {
        engine_receive_refused(e, c, err.code, err.msg);
        return;
    }
    switch (m.t) {
    case PROTO_HELLO:
        engine__handle_hello(e, c, &m);
        break;
    case PROTO_JOIN:
        engine__handle_join(e, c, &m);
        break;
    case PROTO_CMD:
        engine__handle_cmd(e, c, &m);
        break;
    case PROTO_PING:
        engine__send_msg(c, proto_msg_pong(m.n));
        break;
    }
    proto_msg_clear(&m);
}
