/*
 * bench_relay.c — the floor for the load benchmark (tests/bench/load.mjs): a bare libwebsockets
 * broadcast server on a libuv loop, the same stack tabled runs on, with no rules, no storage and no
 * JSON. A socket opened at /t/<n> belongs to table n; every text message it sends is queued, as
 * one shared reference-counted buffer, on every other socket of that table.
 *
 *   bench_relay [--port N]     (0 = any free port; prints "relay listening on port N")
 *
 * Runs until SIGINT/SIGTERM. Loopback only.
 */
#include <libwebsockets.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#define TABLES 4096

typedef struct msg {
    int refs;
    size_t len;
    unsigned char buf[]; /* LWS_PRE headroom, then the message */
} msg;

typedef struct qnode {
    struct qnode *next;
    msg *m;
} qnode;

typedef struct conn {
    struct lws *wsi;
    struct conn *next; /* in its table */
    int table;
    qnode *head, *tail;
    unsigned char *rx;
    size_t rx_len;
} conn;

static conn *tables[TABLES];

static void msg_unref(msg *m)
{
    if (--m->refs == 0)
        free(m);
}

/* Queues m on c (one more reference) and asks for a writeable callback. */
static void conn_queue(conn *c, msg *m)
{
    qnode *q = malloc(sizeof *q);
    if (!q)
        abort();
    q->next = NULL;
    q->m = m;
    m->refs++;
    if (c->tail)
        c->tail->next = q;
    else
        c->head = q;
    c->tail = q;
    lws_callback_on_writable(c->wsi);
}

static int callback_relay(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                          size_t len)
{
    conn *c = user;
    switch (reason) {
    case LWS_CALLBACK_ESTABLISHED: {
        char uri[64];
        int t = 0;
        if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) > 0)
            sscanf(uri, "/t/%d", &t);
        c->wsi = wsi;
        c->table = t >= 0 && t < TABLES ? t : 0;
        c->next = tables[c->table];
        tables[c->table] = c;
        return 0;
    }
    case LWS_CALLBACK_CLOSED:
        for (conn **p = &tables[c->table]; *p; p = &(*p)->next)
            if (*p == c) {
                *p = c->next;
                break;
            }
        while (c->head) {
            qnode *q = c->head;
            c->head = q->next;
            msg_unref(q->m);
            free(q);
        }
        free(c->rx);
        return 0;
    case LWS_CALLBACK_RECEIVE: {
        unsigned char *rx = realloc(c->rx, c->rx_len + len);
        if (!rx)
            abort();
        memcpy(rx + c->rx_len, in, len);
        c->rx = rx;
        c->rx_len += len;
        if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi) > 0)
            return 0;
        msg *m = malloc(sizeof *m + LWS_PRE + c->rx_len);
        if (!m)
            abort();
        m->refs = 1;
        m->len = c->rx_len;
        memcpy(m->buf + LWS_PRE, c->rx, c->rx_len);
        c->rx_len = 0;
        for (conn *o = tables[c->table]; o; o = o->next)
            if (o != c)
                conn_queue(o, m);
        msg_unref(m);
        return 0;
    }
    case LWS_CALLBACK_SERVER_WRITEABLE:
        while (c->head && !lws_send_pipe_choked(wsi)) {
            qnode *q = c->head;
            if (lws_write(wsi, q->m->buf + LWS_PRE, q->m->len, LWS_WRITE_TEXT) < (int)q->m->len)
                return -1;
            c->head = q->next;
            if (!c->head)
                c->tail = NULL;
            msg_unref(q->m);
            free(q);
        }
        if (c->head)
            lws_callback_on_writable(wsi);
        return 0;
    default:
        return 0;
    }
}

static const struct lws_protocols PROTOCOLS[] = {
    {"tabled.v1", callback_relay, sizeof(conn), 0, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static void on_signal(uv_signal_t *h, int signum)
{
    uv_stop(h->loop);
}

int main(int argc, char **argv)
{
    int port = 0;
    if (argc == 3 && strcmp(argv[1], "--port") == 0)
        port = atoi(argv[2]);
    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGPIPE, SIG_IGN);
    lws_set_log_level(LLL_ERR, NULL);
    uv_loop_t loop;
    uv_loop_init(&loop);
    void *loops[1] = {&loop};
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = port;
    info.iface = "127.0.0.1";
    info.protocols = PROTOCOLS;
    info.options = LWS_SERVER_OPTION_LIBUV;
    info.foreign_loops = loops;
    struct lws_context *ctx = lws_create_context(&info);
    if (!ctx) {
        fprintf(stderr, "bench_relay: cannot listen on port %d\n", port);
        return 1;
    }
    uv_signal_t sigint, sigterm;
    uv_signal_init(&loop, &sigint);
    uv_signal_init(&loop, &sigterm);
    uv_signal_start(&sigint, on_signal, SIGINT);
    uv_signal_start(&sigterm, on_signal, SIGTERM);
    struct lws_vhost *vh = lws_get_vhost_by_name(ctx, "default");
    printf("relay listening on port %d\n", vh ? lws_get_vhost_listen_port(vh) : port);
    uv_run(&loop, UV_RUN_DEFAULT);
    lws_context_destroy(ctx);
    return 0;
}
