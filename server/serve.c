#include "serve.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <libwebsockets.h>
#include <netinet/in.h>
#include <qrencode.h>
#include <sqlite3.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

#include "backup.h"
#include "engine.h"
#include "heaptrim.h"
#include "history.h"
#include "log.h"
#include "netaddr.h"
#include "osrand.h"
#include "places.h"
#include "route.h"
#include "sdnotify.h"
#include "preflight.h"
#include "rng.h"
#include "static.h"
#include "store.h"
#include "system.h"

#ifndef TABLED_VERSION /* meson passes the project's version */
#define TABLED_VERSION "0.1.0"
#endif
#define MAX_QUEUED_MSGS 2048
/* Memory per connection (tests/bench/README.md, "Memory"). lws keeps an rx buffer of
 * WS_RX_CHUNK bytes per WebSocket for its whole life, and delivers a frame in chunks of at most
 * that size; messages are joined here and limited over all their chunks (max_message), so the
 * chunk size bounds memory, not messages. WS_TX_PACKET is the most one send() may carry: with 0,
 * lws 4.1 caps a send() at the rx buffer size and copies the rest of every larger message into a
 * buffer of its own per connection (a state or presence list of a big table, to every seat). */
#define WS_RX_CHUNK 1024
#define WS_TX_PACKET (1024 * 1024)
/* A heap that holds more than this many free bytes is trimmed, once a second at most. */
#define TRIM_PERIOD_MS 1000
#define TRIM_MIN_FREE (1024 * 1024)
#define LWS_WRITE_CLOSE_ 4 /* lws's opcode for a close frame; its enum hides the name */
/* Descriptors never given to a client connection (issue 27 item 4): SQLite, its WAL, a backup,
 * the listening socket and the loop's own keep working when connections come in a flood. */
#define FD_RESERVE 32
#define DEFAULT_MAX_PER_ADDRESS 32

/* The addresses the server can be reached at (for the printed links and the join QR codes). */
typedef struct banner {
    char addrs[16][64];
    int n;
    int port;
    int campaigns;     /* seen so far by print_links */
    FILE *links;       /* <db>.links: every campaign's links (NULL if it could not be written) */
    char others[512];  /* the other campaigns' names, for the summary line */
    const char *shard; /* --shard: links carry /c/<campaign>/ (route.h); NULL: "/" */
} banner;

/* Everything the process holds. One instance, on main's stack; callbacks reach it through the
 * lws context user pointer. */
typedef struct server {
    const serve_opts *opt; /* = &now */
    serve_opts now;        /* the options in force (SIGHUP changes the reloadable ones) */
    uv_loop_t loop;
    uv_signal_t sigint, sigterm, sighup;
    int64_t started; /* unix seconds (process_start_time_seconds) */
    uv_prepare_t flush;
    heaptrim *trim;
    struct lws_context *lws;
    static_files *web; /* the browser client's files (static.h) */
    store *st;
    engine *eng;
    osrand osr;
    rules_rng *dice;
    rules_rng *secret;
    int connections;
    int max_conns;       /* WebSockets at most (handshakes past it get 503) */
    long nofile;         /* the open-file limit in force */
    places *ws_by_addr;  /* WebSockets per client address key */
    places *tcp_by_peer; /* TCP connections per peer address key (not for trusted proxies) */
    char tcp_pending[NETADDR_TEXT]; /* the key of the socket being accepted, until its wsi exists */
    int tcp_pending_set;
    uint64_t refused[TB_LOG_KIND__COUNT]; /* connections refused, by reason (/metrics) */
    int gm_room;             /* the last gm_room of them are kept for a GM or the host */
    struct ws_conn *ws_list; /* every WebSocket, for the deadline sweep */
    struct ws_conn *dirty;   /* WebSockets with messages queued in this loop turn */
    struct ws_conn *lazy;    /* WebSockets with only lazy messages queued (engine_msg.lazy) */
    uv_timer_t lazy_timer;   /* when they are written (lazy_ms after the first) */
    int lazy_ms;             /* ENGINE_LAZY_MS; 0 under --test-clock: written as any other */
    unsigned char *batch;    /* frames of one write (conn_write), BATCH_BYTES after LWS_PRE */
    uv_timer_t sweep;
    uv_timer_t burst; /* wakes the loop when a burst window ends (engine_due_ms) */
    uint64_t bytes_sent;
    int stopping;
    banner where;
    netaddr_range trusted[SERVE_MAX_RANGES]; /* --trusted-proxy */
    int n_trusted;
    netaddr_range metrics_allow[SERVE_MAX_RANGES]; /* --metrics-allow */
    int n_metrics_allow;
    /* this machine's addresses, for the Host allow-list */
#define SERVE_MAX_OWN 32
    char own[SERVE_MAX_OWN][INET6_ADDRSTRLEN];
    int n_own;
    uint64_t own_read_ms;
    /* rolling backups */
    uv_timer_t backup_timer;
    uv_work_t backup_work;
    int backup_running;
    char *backup_dir;
    int backup_keep;       /* the worker's copy of --backup-keep, taken when it is queued */
    char *backup_dir_next; /* a reload's new --backup-dir, taken when no copy is under way */
    char *backup_written;  /* set by the worker */
    tb_err backup_err;     /* set by the worker */
    uint64_t backups_ok, backups_failed;
    int64_t backup_last_ok; /* unix seconds */
    /* the WAL's sync under --sync normal */
    uv_timer_t wal_timer;
    uv_work_t wal_work;
    int wal_running;
    char **wal_paths; /* the files the running sync works on (store_take_dirty) */
} server;

static void engine_limits_from(const serve_opts *o, engine_opts *eo);
static int parse_ranges(const char *const *list, int n, int has, netaddr_range *out);

/* ---- WebSocket connections ------------------------------------------------------------------ */

/* A queued message: the engine's encoding, shared with every socket of its audience (its
 * headroom is LWS_PRE: engine_opts.headroom). lws_write writes the frame header into the
 * headroom; it is the same for every socket (same length, no extensions), and one loop writes. */
typedef struct outmsg {
    struct outmsg *next;
    engine_msg *m;
} outmsg;

/* lws per-session data for a tabled.v1 socket (zeroed by lws, freed by lws after CLOSED). */
typedef struct ws_conn {
    struct lws *wsi;
    server *srv;
    engine_conn *ec;
    outmsg *head, *tail;
    size_t q_bytes, q_count;
    char *rx;
    size_t rx_len;
    int rx_too_large, rx_binary;
    int closing, close_sent;
    int close_status;
    char close_reason[64];
    int gm_only;     /* admitted into the room kept for the GM: must be seated as GM or host */
    int dirty;       /* on server.dirty */
    int lazy;        /* on server.lazy */
    int ping_due;    /* a ping frame goes out with the next write (the deadline sweep) */
    int wants_write; /* lws was asked for a writeable callback */
    char client[NETADDR_TEXT]; /* the client's address (netaddr_client), for limits and logs */
    uint64_t opened_ms, last_rx_ms, last_ping_ms;
    struct ws_conn *prev, *next; /* server.ws_list */
    struct ws_conn *dirty_next;  /* server.dirty */
    struct ws_conn *lazy_next;   /* server.lazy */
} ws_conn;

static void queue_clear(ws_conn *w)
{
    while (w->head) {
        outmsg *m = w->head;
        w->head = m->next;
        engine_msg_unref(m->m);
        free(m);
    }
    w->tail = NULL;
    w->q_bytes = w->q_count = 0;
}

/* The write path (issue 26). A message is queued and its socket put on the loop turn's dirty
 * list; once the turn's commands are delivered (on_prepare) each dirty socket that is writable
 * gets everything queued for it in one write: the frames laid end to end, one send(), where lws
 * alone costs a send, a poll and two epoll_ctl per frame (on, then off, POLLOUT). No poll asks
 * first whether the socket is writable (lws_send_pipe_choked's poll was 9.5 % of the server's CPU
 * with 1 000 seats): the send says it. lws keeps what the kernel did not take (lws_issue_raw,
 * lws_partial_buffered) and calls back only once that is gone; a socket with a write of ours
 * still inside lws waits for that callback, so frames are never interleaved. */
#define BATCH_BYTES (256 * 1024)

static void on_lazy(uv_timer_t *h);

static void conn_want_write(ws_conn *w)
{
    if (!w->wants_write) {
        w->wants_write = 1;
        lws_callback_on_writable(w->wsi);
    }
}

static void conn_dirty(ws_conn *w)
{
    if (w->dirty)
        return;
    w->dirty = 1;
    w->dirty_next = w->srv->dirty;
    w->srv->dirty = w;
}

/* A lazy message was queued for w (engine_msg.lazy): w is written with its next message, or
 * when the lazy timer ends (on_lazy), whichever comes first; its queue keeps its order. */
static void conn_lazy(ws_conn *w)
{
    server *srv = w->srv;
    if (w->lazy)
        return;
    w->lazy = 1;
    w->lazy_next = srv->lazy;
    if (!srv->lazy)
        uv_timer_start(&srv->lazy_timer, on_lazy, (uint64_t)srv->lazy_ms, 0);
    srv->lazy = w;
}

/* A frame header (FIN, opcode, unmasked length) into h: its length (2, 4 or 10 bytes). */
static size_t frame_header(unsigned char *h, unsigned char opcode, size_t len)
{
    h[0] = (unsigned char)(0x80 | opcode);
    if (len < 126) {
        h[1] = (unsigned char)len;
        return 2;
    }
    if (len <= 0xffff) {
        h[1] = 126;
        h[2] = (unsigned char)(len >> 8);
        h[3] = (unsigned char)len;
        return 4;
    }
    h[1] = 127;
    for (int i = 0; i < 8; i++)
        h[2 + i] = (unsigned char)((uint64_t)len >> (56 - 8 * i));
    return 10;
}

/* Writes what is queued for w (and a due ping) in one write, up to BATCH_BYTES (a larger message
 * alone goes through lws_write, which frames it in its own headroom). Returns -1 when lws failed
 * (the connection is lost), else 0; asks for a writeable callback when messages are left. */
static int conn_write(ws_conn *w)
{
    size_t len = 0;
    unsigned char *out = w->srv->batch + LWS_PRE;
    if (w->ping_due) {
        len += frame_header(out, 0x9, 0);
        w->ping_due = 0;
    }
    while (w->head) {
        outmsg *m = w->head;
        size_t n = m->m->len;
        if (len + n + 10 > BATCH_BYTES) {
            if (len)
                break;
            /* one big message: lws frames it in the headroom of the message itself */
            if (lws_write(w->wsi, m->m->text, n, LWS_WRITE_TEXT) < (int)n)
                return -1;
        } else {
            len += frame_header(out + len, 0x1, n);
            memcpy(out + len, m->m->text, n);
            len += n;
        }
        w->srv->bytes_sent += n;
        w->head = m->next;
        if (!w->head)
            w->tail = NULL;
        w->q_bytes -= n;
        w->q_count--;
        engine_msg_unref(m->m);
        free(m);
        if (!len)
            break; /* the big message went alone */
    }
    if (len && lws_write(w->wsi, out, len, LWS_WRITE_RAW) < (int)len)
        return -1;
    if (w->head || w->closing)
        conn_want_write(w);
    return 0;
}

/* After the loop turn's commands were delivered: one write per dirty socket that is writable. */
static void conns_flush(server *srv)
{
    while (srv->dirty) {
        ws_conn *w = srv->dirty;
        srv->dirty = w->dirty_next;
        w->dirty = 0;
        if (!w->wsi || (!w->head && !w->ping_due) || w->wants_write)
            continue;
        if (lws_partial_buffered(w->wsi))
            conn_want_write(w);
        else if (conn_write(w))
            lws_set_timeout(w->wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
    }
}

static void conn_close_later(ws_conn *w, int status, const char *reason)
{
    if (w->closing)
        return;
    w->closing = 1;
    w->close_status = status;
    snprintf(w->close_reason, sizeof w->close_reason, "%s", reason);
    conn_want_write(w);
}

/* engine_sink.send: queue a reference to msg; drop a client that falls behind. */
static void sink_send(void *ctx, engine_msg *msg)
{
    size_t len = msg->len;
    ws_conn *w = ctx;
    if (w->closing)
        return;
    if (w->q_bytes + len > w->srv->opt->max_queue || w->q_count >= MAX_QUEUED_MSGS) {
        /* A client that cannot keep up is dropped rather than slowing the table; it resumes from
         * its last seq when it reconnects. */
        queue_clear(w);
        conn_close_later(w, 1013 /* try again later */, "send queue full; reconnect");
        return;
    }
    outmsg *m = xmalloc(sizeof *m);
    m->next = NULL;
    m->m = engine_msg_ref(msg);
    if (w->tail)
        w->tail->next = m;
    else
        w->head = m;
    w->tail = m;
    w->q_bytes += len;
    w->q_count++;
    if (msg->lazy && w->srv->lazy_ms > 0)
        conn_lazy(w);
    else
        conn_dirty(w);
}

static void sink_close(void *ctx, int status, const char *reason)
{
    conn_close_later(ctx, status, reason);
}

static const engine_sink SINK = {sink_send, sink_close};

/* ---- who is on the other end ---------------------------------------------------------------- */

/* The client's address for wsi (an HTTP request or a WebSocket handshake, while its headers are
 * there): the TCP peer, or the client a trusted proxy names in X-Forwarded-For (netaddr.h). */
static void client_address(server *srv, struct lws *wsi, char out[NETADDR_TEXT])
{
    char peer[NETADDR_TEXT], xff[512];
    lws_get_peer_simple(wsi, peer, sizeof peer);
    int n = lws_hdr_total_length(wsi, WSI_TOKEN_X_FORWARDED_FOR) > 0
                ? lws_hdr_copy(wsi, xff, sizeof xff, WSI_TOKEN_X_FORWARDED_FOR)
                : -1;
    netaddr_client(peer, n > 0 ? xff : NULL, srv->trusted, srv->n_trusted, out);
}

/* Connections one client address may hold at once (--max-per-address). */
static int max_per_address(const server *srv)
{
    return srv->opt->max_per_address > 0 ? srv->opt->max_per_address : DEFAULT_MAX_PER_ADDRESS;
}

/* A new TCP connection (fd, just accepted; its wsi does not exist yet). Issue 27 item 4: the
 * descriptors of FD_RESERVE stay free whatever comes, and one peer that is not a trusted proxy
 * may hold at most --max-per-address connections (a proxy's are counted by the client it
 * names, at the WebSocket handshake). Returns 1 to refuse it (lws closes it at once). */
static int admit_tcp(server *srv, int fd)
{
    srv->tcp_pending_set = 0;
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    char peer[NETADDR_TEXT] = "?";
    if (getpeername(fd, (struct sockaddr *)&ss, &sl) == 0) {
        const void *a = ss.ss_family == AF_INET6
                            ? (const void *)&((struct sockaddr_in6 *)&ss)->sin6_addr
                            : (const void *)&((struct sockaddr_in *)&ss)->sin_addr;
        inet_ntop(ss.ss_family, a, peer, sizeof peer);
    }
    if (fd >= srv->nofile - FD_RESERVE) {
        srv->refused[TB_LOG_KIND_FD_RESERVE]++;
        tb_log_limited(TB_LOG_KIND_FD_RESERVE, TB_LOG_WARNING,
                       "refused %s: out of open files (limit %ld, %d kept in reserve)", peer,
                       srv->nofile, FD_RESERVE);
        return 1;
    }
    if (netaddr_in(peer, srv->trusted, srv->n_trusted))
        return 0;
    netaddr_key(peer, srv->tcp_pending);
    if (places_count(srv->tcp_by_peer, srv->tcp_pending) >= max_per_address(srv)) {
        srv->refused[TB_LOG_KIND_TCP_PER_ADDRESS]++;
        tb_log_limited(TB_LOG_KIND_TCP_PER_ADDRESS, TB_LOG_WARNING,
                       "refused %s: %d connections from one address already (--max-per-address)",
                       peer, max_per_address(srv));
        return 1;
    }
    srv->tcp_pending_set = 1;
    return 0;
}

/* ---- Host allow-list (DNS rebinding) -------------------------------------------------------- */

/* Is ip (a numeric address) one of this machine's? Loopback always is; other addresses are read
 * with getifaddrs, again on a miss (a laptop changes networks), at most once a second. */
static int host__own_address(server *srv, const char *ip)
{
    unsigned char bin[16];
    if (inet_pton(AF_INET, ip, bin) == 1 && bin[0] == 127)
        return 1;
    if (strcmp(ip, "::1") == 0)
        return 1;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < srv->n_own; i++)
            if (strcasecmp(srv->own[i], ip) == 0)
                return 1;
        uint64_t now = uv_now(&srv->loop);
        if (pass || (srv->own_read_ms && now - srv->own_read_ms < 1000))
            return 0;
        srv->own_read_ms = now ? now : 1;
        srv->n_own = 0;
        struct ifaddrs *ifs = NULL;
        if (getifaddrs(&ifs) != 0)
            return 0;
        for (struct ifaddrs *a = ifs; a && srv->n_own < SERVE_MAX_OWN; a = a->ifa_next) {
            if (!a->ifa_addr)
                continue;
            int fam = a->ifa_addr->sa_family;
            const void *src =
                fam == AF_INET    ? (const void *)&((struct sockaddr_in *)a->ifa_addr)->sin_addr
                : fam == AF_INET6 ? (const void *)&((struct sockaddr_in6 *)a->ifa_addr)->sin6_addr
                                  : NULL;
            if (src)
                inet_ntop(fam, src, srv->own[srv->n_own++], sizeof srv->own[0]);
        }
        freeifaddrs(ifs);
    }
    return 0;
}

/* DNS rebinding (issue 12, item 5): a page on evil.example whose name is made to resolve to the
 * GM's laptop sends Host and Origin both "evil.example", which the Origin check alone accepts.
 * So every HTTP request and WebSocket handshake must name this server in its Host header:
 * localhost (and *.localhost), one of the machine's own addresses, the machine's host name (and
 * NAME.local), or a name given with --allow-host. No Host header (HTTP/1.0 tools) is allowed:
 * a browser always sends one. */
static int host_allowed(server *srv, struct lws *wsi)
{
    char host[256], name[256];
    int n = lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST);
    if (lws_hdr_total_length(wsi, WSI_TOKEN_HOST) <= 0)
        return 1;
    if (n <= 0)
        return 0;
    /* the name without the port: [v6]:port, name:port, name */
    if (host[0] == '[') {
        char *end = strchr(host, ']');
        if (!end)
            return 0;
        snprintf(name, sizeof name, "%.*s", (int)(end - host - 1), host + 1);
    } else {
        snprintf(name, sizeof name, "%s", host);
        char *colon = strchr(name, ':');
        if (colon)
            *colon = '\0';
    }
    size_t len = strlen(name);
    if (len && name[len - 1] == '.')
        name[--len] = '\0';
    if (!len)
        return 0;
    if (strcasecmp(name, "localhost") == 0 ||
        (len > 10 && strcasecmp(name + len - 10, ".localhost") == 0))
        return 1;
    for (int i = 0; i < srv->opt->n_allow_hosts; i++)
        if (strcasecmp(name, srv->opt->allow_hosts[i]) == 0)
            return 1;
    char me[256];
    if (gethostname(me, sizeof me - 8) == 0) {
        me[sizeof me - 9] = '\0';
        if (strcasecmp(name, me) == 0)
            return 1;
        strcat(me, ".local");
        if (strcasecmp(name, me) == 0)
            return 1;
    }
    unsigned char bin[16];
    if (inet_pton(AF_INET, name, bin) == 1 || inet_pton(AF_INET6, name, bin) == 1)
        return host__own_address(srv, name);
    return 0;
}

/* Refuses a request whose Host is not this server's with 403 and a line saying what to do.
 * Returns 1 when refused (the caller returns non-zero from the filter callback). */
static int refuse_foreign_host(server *srv, struct lws *wsi)
{
    if (host_allowed(srv, wsi))
        return 0;
    char who[NETADDR_TEXT], host[128];
    client_address(srv, wsi, who);
    if (lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) <= 0)
        host[0] = '\0';
    srv->refused[TB_LOG_KIND_FOREIGN]++;
    tb_log_limited(TB_LOG_KIND_FOREIGN, TB_LOG_WARNING,
                   "refused %s: a request for the foreign host name \"%.100s\" (DNS rebinding?)",
                   who, host);
    lws_return_http_status(wsi, HTTP_STATUS_FORBIDDEN,
                           "this server does not answer to that host name; start it with "
                           "--allow-host NAME to allow it");
    return 1;
}

/* Origin check (PROTOCOL.md, OWASP ASVS 4.4.2): same origin as the Host header, or allowed. */
static int origin_allowed(struct lws *wsi, const serve_opts *o)
{
    char origin[256], host[256];
    if (lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN) <= 0)
        return 1; /* not a browser */
    if (lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) < 0)
        return 0;
    for (int i = 0; i < o->n_allow_origins; i++)
        if (strcasecmp(origin, o->allow_origins[i]) == 0)
            return 1;
    if (lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) <= 0)
        return 0;
    const char *rest = NULL;
    if (strncasecmp(origin, "http://", 7) == 0)
        rest = origin + 7;
    else if (strncasecmp(origin, "https://", 8) == 0)
        rest = origin + 8;
    return rest && strcasecmp(rest, host) == 0;
}

/* Issue 28 item 2: "/ws" or "/c/<key>/ws" (route.h). 0 when the path is one of them and the key
 * may be ours; else the answer is sent (404, or 421 for a key of another shard: the router sent
 * it to the wrong process) and 1 is returned. */
static int refuse_ws_path(server *srv, struct lws *wsi)
{
    char uri[128], key[ROUTE_KEY_MAX + 1];
    const char *rest;
    if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) <= 0 ||
        route_split(uri, key, &rest) < 0 || strcmp(rest, "/ws") != 0)
        return 1;
    if (route_foreign(srv->opt->shard, key) && !engine_campaign_here(srv->eng, key)) {
        tb_log_limited(TB_LOG_KIND_FOREIGN, TB_LOG_WARNING,
                       "refused a WebSocket for %s: another process owns it (this is shard %s; "
                       "check the router's map)",
                       key, srv->opt->shard);
        lws_return_http_status(wsi, 421, "this campaign is served by another process");
        return 1;
    }
    return 0;
}

static int callback_ws(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                       size_t len)
{
    ws_conn *w = user;
    server *srv = lws_context_user(lws_get_context(wsi));
    switch (reason) {
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        if (refuse_ws_path(srv, wsi))
            return 1;
        if (refuse_foreign_host(srv, wsi))
            return 1;
        if (!origin_allowed(wsi, srv->opt)) {
            char who[NETADDR_TEXT];
            client_address(srv, wsi, who);
            srv->refused[TB_LOG_KIND_FOREIGN]++;
            tb_log_limited(TB_LOG_KIND_FOREIGN, TB_LOG_WARNING,
                           "refused %s: a WebSocket from a foreign origin", who);
            lws_return_http_status(wsi, HTTP_STATUS_FORBIDDEN, "origin not allowed");
            return 1;
        }
        if (srv->connections >= srv->max_conns) {
            char who[NETADDR_TEXT];
            client_address(srv, wsi, who);
            srv->refused[TB_LOG_KIND_FULL]++;
            tb_log_limited(TB_LOG_KIND_FULL, TB_LOG_WARNING,
                           "refused %s: the server is full (%d WebSockets, --max-connections)", who,
                           srv->max_conns);
            lws_return_http_status(wsi, HTTP_STATUS_SERVICE_UNAVAILABLE,
                                   "the server is full; try again later");
            return 1;
        }
        {
            /* one client address may not hold every place (issue 27 item 4) */
            char who[NETADDR_TEXT], key[NETADDR_TEXT];
            client_address(srv, wsi, who);
            netaddr_key(who, key);
            if (places_count(srv->ws_by_addr, key) >= max_per_address(srv)) {
                srv->refused[TB_LOG_KIND_WS_PER_ADDRESS]++;
                tb_log_limited(TB_LOG_KIND_WS_PER_ADDRESS, TB_LOG_WARNING,
                               "refused %s: %d WebSockets from one address already "
                               "(--max-per-address)",
                               who, max_per_address(srv));
                lws_return_http_status(wsi, 429, "too many connections from your address");
                return 1;
            }
        }
        return 0;
    case LWS_CALLBACK_ESTABLISHED:
        w->wsi = wsi;
        w->srv = srv;
        w->ec = engine_conn_open(srv->eng, &SINK, w);
        {
            char key[NETADDR_TEXT];
            client_address(srv, wsi, w->client);
            netaddr_key(w->client, key);
            engine_conn_set_peer(w->ec, key);
            places_add(srv->ws_by_addr, key, w);
        }
        w->gm_only = srv->connections >= srv->max_conns - srv->gm_room;
        if (w->gm_only)
            engine_conn_refuse_join(w->ec);
        w->opened_ms = w->last_rx_ms = w->last_ping_ms = uv_now(&srv->loop);
        w->next = srv->ws_list;
        if (w->next)
            w->next->prev = w;
        srv->ws_list = w;
        srv->connections++;
        return 0;
    case LWS_CALLBACK_CLOSED:
        if (w->ec) {
            engine_conn_closed(srv->eng, w->ec);
            w->ec = NULL;
            places_drop_handle(srv->ws_by_addr, w);
            srv->connections--;
            if (w->prev)
                w->prev->next = w->next;
            else
                srv->ws_list = w->next;
            if (w->next)
                w->next->prev = w->prev;
            w->prev = w->next = NULL;
        }
        queue_clear(w);
        free(w->rx);
        w->rx = NULL;
        if (w->dirty) /* off the dirty list: the next flush must not find it */
            for (ws_conn **pp = &srv->dirty; *pp; pp = &(*pp)->dirty_next)
                if (*pp == w) {
                    *pp = w->dirty_next;
                    break;
                }
        w->dirty = 0;
        if (w->lazy) /* off the lazy list too */
            for (ws_conn **pp = &srv->lazy; *pp; pp = &(*pp)->lazy_next)
                if (*pp == w) {
                    *pp = w->lazy_next;
                    break;
                }
        w->lazy = 0;
        w->wsi = NULL;
        return 0;
    case LWS_CALLBACK_RECEIVE_PONG:
        if (w->ec)
            w->last_rx_ms = uv_now(&srv->loop);
        return 0;
    case LWS_CALLBACK_RECEIVE: {
        if (!w->ec)
            return -1;
        w->last_rx_ms = uv_now(&srv->loop);
        if (lws_frame_is_binary(wsi))
            w->rx_binary = 1;
        if (!w->rx_too_large && !w->rx_binary) {
            if (w->rx_len + len > srv->opt->max_message) {
                w->rx_too_large = 1;
                free(w->rx);
                w->rx = NULL;
                w->rx_len = 0;
            } else {
                w->rx = xrealloc(w->rx, w->rx_len + len + 1);
                memcpy(w->rx + w->rx_len, in, len);
                w->rx_len += len;
            }
        }
        if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi) > 0)
            return 0;
        if (w->rx_binary) {
            engine_receive_refused(srv->eng, w->ec, TB_BAD_REQUEST,
                                   "binary frames are not supported; send JSON text");
        } else if (w->rx_too_large) {
            char msg[96];
            snprintf(msg, sizeof msg, "message larger than %zu bytes", srv->opt->max_message);
            engine_receive_refused(srv->eng, w->ec, TB_TOO_LARGE, msg);
        } else {
            engine_receive(srv->eng, w->ec, w->rx ? w->rx : "", w->rx_len);
            if (w->gm_only && engine_conn_seated(w->ec) == ENGINE_SEATED_PLAYER)
                conn_close_later(w, 1013, "the server is full; try again later");
        }
        free(w->rx);
        w->rx = NULL;
        w->rx_len = 0;
        w->rx_too_large = w->rx_binary = 0;
        return 0;
    }
    case LWS_CALLBACK_SERVER_WRITEABLE:
        w->wants_write = 0;
        if ((w->head || w->ping_due) && conn_write(w))
            return -1;
        if (w->head)
            return 0; /* conn_write asked for the next writeable */
        if (w->close_sent)
            return -1;
        if (w->closing) {
            /* lws 4.1 drops a reason set with lws_close_reason when the close starts from this
             * callback, so the close frame (status + reason) is written here, and the socket
             * closed on the next writeable, after the frame left. */
            unsigned char frame[LWS_PRE + 2 + sizeof w->close_reason];
            size_t n = strlen(w->close_reason);
            frame[LWS_PRE] = (unsigned char)(w->close_status >> 8);
            frame[LWS_PRE + 1] = (unsigned char)(w->close_status & 0xff);
            memcpy(frame + LWS_PRE + 2, w->close_reason, n);
            if (lws_write(wsi, frame + LWS_PRE, n + 2, (enum lws_write_protocol)LWS_WRITE_CLOSE_) <
                0)
                return -1;
            w->close_sent = 1;
            lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, 2);
            conn_want_write(w);
        }
        return 0;
    default:
        return 0;
    }
}

/* ---- HTTP: /healthz and /metrics (the web client is a file mount) ------------------------- */

typedef struct http_req {
    unsigned char *body; /* LWS_PRE headroom + len */
    size_t len;
} http_req;

/* The standard process metrics of a Prometheus client (CPU, memory, open files, start time),
 * from /proc/self, appended to buf (size n). */
static void process_metrics(const server *srv, char *buf, size_t n)
{
    double cpu = 0;
    unsigned long long vsize = 0, rss_pages = 0;
    FILE *f = fopen("/proc/self/stat", "r");
    if (f) {
        char line[1024];
        if (fgets(line, sizeof line, f)) {
            /* fields after "(comm)": state is field 3; utime 14, stime 15, vsize 23, rss 24 */
            const char *p = strrchr(line, ')');
            unsigned long long ut = 0, st = 0;
            if (p && sscanf(p + 2,
                            "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %*d %*d %*d %*d "
                            "%*d %*d %*u %llu %llu",
                            &ut, &st, &vsize, &rss_pages) == 4)
                cpu = (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
        }
        fclose(f);
    }
    long fds = 0;
    DIR *d = opendir("/proc/self/fd");
    for (struct dirent *de; d && (de = readdir(d));)
        fds += de->d_name[0] != '.';
    if (d) {
        closedir(d);
        fds--; /* the directory's own descriptor */
    }
    snprintf(buf, n,
             "# HELP process_cpu_seconds_total User and system CPU time spent in seconds.\n"
             "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total %.2f\n"
             "# HELP process_resident_memory_bytes Resident memory size in bytes.\n"
             "# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes %llu\n"
             "# HELP process_virtual_memory_bytes Virtual memory size in bytes.\n"
             "# TYPE process_virtual_memory_bytes gauge\nprocess_virtual_memory_bytes %llu\n"
             "# HELP process_open_fds Number of open file descriptors.\n"
             "# TYPE process_open_fds gauge\nprocess_open_fds %ld\n"
             "# HELP process_max_fds Maximum number of open file descriptors.\n"
             "# TYPE process_max_fds gauge\nprocess_max_fds %ld\n"
             "# HELP process_start_time_seconds Start time of the process since unix epoch in "
             "seconds.\n# TYPE process_start_time_seconds gauge\nprocess_start_time_seconds %lld\n"
             "# HELP tabled_build_info The version of tabled and of the libraries it runs on.\n"
             "# TYPE tabled_build_info gauge\ntabled_build_info{version=\"%s\",sqlite=\"%s\","
             "libwebsockets=\"%.20s\",libuv=\"%s\",jansson=\"%s\"} 1\n",
             cpu, rss_pages * (unsigned long long)sysconf(_SC_PAGESIZE), vsize, fds, srv->nofile,
             (long long)srv->started, TABLED_VERSION, sqlite3_libversion(),
             lws_get_library_version(), uv_version_string(), JANSSON_VERSION);
}

static char *metrics_text(server *srv)
{
    static const char *const REFUSED[TB_LOG_KIND__COUNT] = {
        [TB_LOG_KIND_FD_RESERVE] = "open_files",
        [TB_LOG_KIND_TCP_PER_ADDRESS] = "tcp_per_address",
        [TB_LOG_KIND_WS_PER_ADDRESS] = "per_address",
        [TB_LOG_KIND_FULL] = "full",
        [TB_LOG_KIND_FOREIGN] = "foreign_host_or_origin"};
    char proc[2048], refused[1024];
    process_metrics(srv, proc, sizeof proc);
    size_t used = (size_t)snprintf(refused, sizeof refused,
                                   "# HELP tabled_refused_total Connections refused before a "
                                   "WebSocket or request was served, by reason.\n"
                                   "# TYPE tabled_refused_total counter\n");
    for (int i = 0; i < TB_LOG_KIND__COUNT; i++)
        if (REFUSED[i] && used < sizeof refused)
            used += (size_t)snprintf(refused + used, sizeof refused - used,
                                     "tabled_refused_total{reason=\"%s\"} %llu\n", REFUSED[i],
                                     (unsigned long long)srv->refused[i]);
    char *eng = engine_metrics_text(srv->eng);
    size_t n = strlen(eng) + strlen(proc) + strlen(refused) + 1024;
    char *out = xmalloc(n);
    snprintf(out, n,
             "%s# HELP tabled_connections Open WebSocket connections.\n"
             "# TYPE tabled_connections gauge\ntabled_connections %d\n"
             "# HELP tabled_bytes_sent_total Bytes of WebSocket messages sent.\n"
             "# TYPE tabled_bytes_sent_total counter\ntabled_bytes_sent_total %llu\n"
             "# HELP tabled_backups_total Rolling backups by outcome (--backup-every).\n"
             "# TYPE tabled_backups_total counter\n"
             "tabled_backups_total{outcome=\"ok\"} %llu\n"
             "tabled_backups_total{outcome=\"failed\"} %llu\n"
             "# HELP tabled_backup_last_success_seconds Unix time of the newest rolling backup"
             " (0: none yet).\n# TYPE tabled_backup_last_success_seconds gauge\n"
             "tabled_backup_last_success_seconds %lld\n%s%s",
             eng, srv->connections, (unsigned long long)srv->bytes_sent,
             (unsigned long long)srv->backups_ok, (unsigned long long)srv->backups_failed,
             (long long)srv->backup_last_ok, refused, proc);
    free(eng);
    return out;
}

/* ---- HTTP: the GM console's join QR codes and the sample characters ------------------------ */

/* The QR code of text as an SVG document (black modules on white, 4 modules of quiet zone), a
 * new malloc'd string; NULL when the text does not fit in a QR code. */
static char *qr_svg(const char *text)
{
    QRcode *qr = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1);
    if (!qr)
        return NULL;
    int w = qr->width, size = w + 8;
    size_t cap = 512 + (size_t)w * (size_t)w * 20, len = 0; /* a module is at most 16 bytes */
    char *out = xmalloc(cap);
    len += (size_t)snprintf(out + len, cap - len,
                            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
                            "shape-rendering=\"crispEdges\"><rect width=\"%d\" height=\"%d\" "
                            "fill=\"#fff\"/><path fill=\"#000\" d=\"",
                            size, size, size, size);
    for (int y = 0; y < w; y++)
        for (int x = 0; x < w; x++)
            if (qr->data[y * w + x] & 1)
                len += (size_t)snprintf(out + len, cap - len, "M%d %dh1v1h-1z", x + 4, y + 4);
    snprintf(out + len, cap - len, "\"/></svg>");
    QRcode_free(qr);
    return out;
}

static int is_loopback(const char *addr)
{
    return strncmp(addr, "127.", 4) == 0 || strcmp(addr, "localhost") == 0 ||
           strcmp(addr, "::1") == 0 || strcmp(addr, "[::1]") == 0;
}

/* "https" when a TLS proxy in front (deploy/nginx-tabled.conf) says the browser came over HTTPS
 * (X-Forwarded-Proto), else "http". The header only shapes the link sent back to the GM who asked
 * for it, so whoever sets it can mislead no one but themselves. Static string. */
static const char *forwarded_scheme(struct lws *wsi)
{
    char proto[8];
    if (lws_hdr_custom_copy(wsi, proto, sizeof proto, "x-forwarded-proto:", 18) > 0 &&
        strcasecmp(proto, "https") == 0)
        return "https";
    return "http";
}

/* GET /api/join with "Authorization: Bearer <GM seat token>": the players' join links — one per
 * address the server listens on, and the one of the Host the GM used — each with its QR code.
 * The join code is a GM secret, so it is never put in a URL anyone could fetch. */
static json_t *api_join(server *srv, struct lws *wsi, const char *key, int *status)
{
    char auth[128], host[128], code[33];
    tb_err err = {0};
    if (lws_hdr_copy(wsi, auth, sizeof auth, WSI_TOKEN_HTTP_AUTHORIZATION) <= 0 ||
        strncasecmp(auth, "Bearer ", 7) != 0) {
        *status = HTTP_STATUS_UNAUTHORIZED;
        return json_pack("{s:{s:s, s:s}}", "error", "code", "unauthorized", "message",
                         "send the GM token as Authorization: Bearer <token>");
    }
    if (engine_gm_join(srv->eng, auth + 7, code, &err)) {
        *status = err.code == TB_FORBIDDEN  ? HTTP_STATUS_FORBIDDEN
                  : err.code == TB_CONFLICT ? HTTP_STATUS_CONFLICT
                  : err.code == TB_MOVED    ? 421 /* the router still sends it here */
                                            : HTTP_STATUS_UNAUTHORIZED;
        return json_pack("{s:{s:s, s:s}}", "error", "code", tb_code_name(err.code), "message",
                         err.msg);
    }
    json_t *links = json_array();
    char url[256], base[ROUTE_KEY_MAX + 5];
    /* the page's own form: /c/<campaign>/ when it came with its key (route.h), else / */
    snprintf(base, sizeof base, key[0] ? "/c/%s/" : "/", key);
    if (lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) > 0) {
        int seen = 0;
        for (int i = 0; i < srv->where.n; i++) {
            char hp[96];
            snprintf(hp, sizeof hp, "%s:%d", srv->where.addrs[i], srv->where.port);
            seen |= strcasecmp(hp, host) == 0;
        }
        if (!seen) {
            char name[128];
            snprintf(name, sizeof name, "%s", host);
            char *colon = strrchr(name, ':');
            if (colon && !strchr(colon, ']'))
                *colon = '\0';
            snprintf(url, sizeof url, "%s://%s%s#join=%s", forwarded_scheme(wsi), host, base, code);
            char *svg = qr_svg(url);
            json_array_append_new(links, json_pack("{s:s, s:b, s:s?}", "url", url, "loopback",
                                                   is_loopback(name), "svg", svg));
            free(svg);
        }
    }
    for (int pass = 0; pass < 2; pass++) /* addresses other devices can reach first */
        for (int i = 0; i < srv->where.n; i++) {
            if (is_loopback(srv->where.addrs[i]) != pass)
                continue;
            snprintf(url, sizeof url, "http://%s:%d%s#join=%s", srv->where.addrs[i],
                     srv->where.port, base, code);
            char *svg = qr_svg(url);
            json_array_append_new(
                links, json_pack("{s:s, s:b, s:s?}", "url", url, "loopback", pass, "svg", svg));
            free(svg);
        }
    *status = HTTP_STATUS_OK;
    return json_pack("{s:s, s:o}", "code", code, "links", links);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* GET /samples/<system>: {system, samples: [{file, sheet}]} from rules/<system>/samples/<name>.json
 * (public: players pick a sample character from them). rules/ is found beside the web client's
 * directory `web` (the source tree's layout, kept by deploy/install-service). */
static json_t *api_samples(const char *web, const char *system, int *status)
{
    for (const char *p = system; *p; p++)
        if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '_')
            system = "";
    if (!*system || !rules_system_find(system)) {
        *status = HTTP_STATUS_NOT_FOUND;
        return json_pack("{s:{s:s, s:s}}", "error", "code", "not_found", "message",
                         "no such rule system");
    }
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/../rules/%s/samples", web, system);
    json_t *samples = json_array();
    DIR *d = opendir(dir);
    char *names[64];
    int n = 0;
    for (struct dirent *de; d && (de = readdir(d)) && n < 64;) {
        size_t l = strlen(de->d_name);
        if (l > 5 && strcmp(de->d_name + l - 5, ".json") == 0 && de->d_name[0] != '.')
            names[n++] = xstrdup(de->d_name);
    }
    if (d)
        closedir(d);
    qsort(names, (size_t)n, sizeof names[0], by_name);
    for (int i = 0; i < n; i++) {
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        json_t *sheet = json_load_file(path, 0, NULL);
        names[i][strlen(names[i]) - 5] = '\0';
        if (json_is_object(sheet))
            json_array_append_new(samples,
                                  json_pack("{s:s, s:o}", "file", names[i], "sheet", sheet));
        else
            json_decref(sheet);
        free(names[i]);
    }
    *status = HTTP_STATUS_OK;
    return json_pack("{s:s, s:o}", "system", system, "samples", samples);
}

/* Whether the request's header `token` holds `word` (an ETag in If-None-Match, "gzip" in
 * Accept-Encoding). */
static int header_has(struct lws *wsi, enum lws_token_indexes token, const char *word)
{
    char buf[512];
    if (lws_hdr_copy(wsi, buf, sizeof buf, token) <= 0)
        return 0;
    return strstr(buf, word) != NULL;
}

/*
 * A file of the browser client (static.h): 304 when the browser's copy is current (its ETag),
 * else the file, gzipped when the browser takes it; 404 when there is no such file. The body goes
 * out on the writable callback like every other answer here.
 */
static int serve_static(server *srv, struct lws *wsi, http_req *req, const char *uri)
{
    static_file f;
    unsigned char hdr[LWS_PRE + 2048], *start = hdr + LWS_PRE, *p = start,
                                       *end = hdr + sizeof hdr - 1;
    static const char NOT_FOUND[] = "not found\n";
    const unsigned char *body;
    size_t len;
    if (static_files_get(srv->web, uri, &f)) {
        body = (const unsigned char *)NOT_FOUND;
        len = sizeof NOT_FOUND - 1;
        if (lws_add_http_common_headers(wsi, HTTP_STATUS_NOT_FOUND, "text/plain", len, &p, end) ||
            static_security_headers(wsi, &p, end) ||
            lws_finalize_write_http_header(wsi, start, &p, end))
            return 1;
    } else if (header_has(wsi, WSI_TOKEN_HTTP_IF_NONE_MATCH, f.etag)) {
        if (lws_add_http_header_status(wsi, HTTP_STATUS_NOT_MODIFIED, &p, end) ||
            lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_ETAG, (const unsigned char *)f.etag,
                                         (int)strlen(f.etag), &p, end) ||
            lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL,
                                         (const unsigned char *)"no-cache", 8, &p, end) ||
            static_security_headers(wsi, &p, end) ||
            lws_finalize_write_http_header(wsi, start, &p, end))
            return 1;
        return lws_http_transaction_completed(wsi) ? -1 : 0;
    } else {
        int gz = f.gz && header_has(wsi, WSI_TOKEN_HTTP_ACCEPT_ENCODING, "gzip");
        body = gz ? f.gz : f.body;
        len = gz ? f.gzlen : f.len;
        if (lws_add_http_common_headers(wsi, HTTP_STATUS_OK, f.ctype, len, &p, end) ||
            lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_ETAG, (const unsigned char *)f.etag,
                                         (int)strlen(f.etag), &p, end) ||
            lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL,
                                         (const unsigned char *)"no-cache", 8, &p, end) ||
            (f.gz &&
             lws_add_http_header_by_name(wsi, (const unsigned char *)"vary:",
                                         (const unsigned char *)"accept-encoding", 15, &p, end)) ||
            (gz && lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CONTENT_ENCODING,
                                                (const unsigned char *)"gzip", 4, &p, end)) ||
            static_security_headers(wsi, &p, end) ||
            lws_finalize_write_http_header(wsi, start, &p, end))
            return 1;
    }
    req->len = len;
    req->body = xmalloc(LWS_PRE + (len ? len : 1));
    memcpy(req->body + LWS_PRE, body, len);
    lws_callback_on_writable(wsi);
    return 0;
}

static int callback_http(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                         size_t len)
{
    http_req *req = user;
    server *srv = lws_context_user(lws_get_context(wsi));
    switch (reason) {
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        /* A WebSocket upgrade without the tabled.v1 subprotocol lands here: refuse it. */
        return 1;
    case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
        /* every accepted TCP connection, before lws makes a connection of it (in: the fd) */
        return admit_tcp(srv, (int)(intptr_t)in);
    case LWS_CALLBACK_WSI_CREATE:
        /* the connection admit_tcp let in (lws makes it right after the filter) */
        if (srv && srv->tcp_pending_set) {
            places_add(srv->tcp_by_peer, srv->tcp_pending, wsi);
            srv->tcp_pending_set = 0;
        }
        return 0;
    case LWS_CALLBACK_WSI_DESTROY:
        if (srv)
            places_drop_handle(srv->tcp_by_peer, wsi);
        return 0;
    case LWS_CALLBACK_FILTER_HTTP_CONNECTION:
        /* every HTTP request, the file mount included, before anything is served */
        return refuse_foreign_host(srv, wsi);
    case LWS_CALLBACK_HTTP: {
        char *text;
        const char *ctype;
        char full[512], key[ROUTE_KEY_MAX + 1];
        const char *uri;
        int status = HTTP_STATUS_OK;
        if (lws_hdr_copy(wsi, full, sizeof full, WSI_TOKEN_GET_URI) <= 0)
            full[0] = '\0';
        /* /c/<key>/… is the same site as /… (route.h): the page, its files, its /api/join */
        if (route_split(full, key, &uri) < 0)
            uri = "/-"; /* no such file: 404 */
        else if (!*uri)
            uri = "/"; /* /c/<key> typed without its last slash */
        if (strcmp(uri, "/api/join") == 0 && route_foreign(srv->opt->shard, key) &&
            !engine_campaign_here(srv->eng, key)) {
            status = 421;
            text = xstrdup("{\"error\":{\"code\":\"misdirected\",\"message\":\"this campaign "
                           "is served by another process\"}}");
            ctype = "application/json";
        } else if (strcmp(uri, "/api/join") == 0 || strncmp(uri, "/samples/", 9) == 0) {
            json_t *body = uri[1] == 'a' ? api_join(srv, wsi, key, &status)
                                         : api_samples(srv->opt->web, uri + 9, &status);
            text = json_dumps(body, JSON_COMPACT);
            json_decref(body);
            ctype = "application/json";
        } else if (strcmp(uri, "/healthz") == 0 || strcmp(uri, "/metrics") == 0) {
            /* Issue 27 item 9: the counts (campaigns, connections, every op of every campaign)
             * are the operator's, read from this machine or an address --metrics-allow names;
             * anyone else is told only that the server is up. */
            char who[NETADDR_TEXT];
            client_address(srv, wsi, who);
            int insider = netaddr_in(who, srv->metrics_allow, srv->n_metrics_allow);
            ctype = "application/json";
            if (uri[1] == 'h' && insider) {
                size_t n = 160;
                text = xmalloc(n);
                snprintf(text, n,
                         "{\"ok\":true,\"campaigns\":%d,\"connections\":%d,\"version\":\"%s\"}",
                         engine_campaign_count(srv->eng), srv->connections, TABLED_VERSION);
            } else if (uri[1] == 'h') {
                text = xstrdup("{\"ok\":true}");
            } else if (insider) {
                text = metrics_text(srv);
                ctype = "text/plain; version=0.0.4";
            } else {
                status = HTTP_STATUS_FORBIDDEN;
                text = xstrdup("{\"error\":{\"code\":\"forbidden\",\"message\":\"the metrics "
                               "are read from the server's own machine (--metrics-allow)\"}}");
            }
        } else {
            return serve_static(srv, wsi, req, uri);
        }
        req->len = strlen(text);
        req->body = xmalloc(LWS_PRE + req->len);
        memcpy(req->body + LWS_PRE, text, req->len);
        free(text);
        unsigned char hdr[LWS_PRE + 512], *start = hdr + LWS_PRE, *p = start,
                                          *end = hdr + sizeof hdr - 1;
        if (lws_add_http_common_headers(wsi, (unsigned)status, ctype, req->len, &p, end) ||
            lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL,
                                         (const unsigned char *)"no-store", 8, &p, end) ||
            static_security_headers(wsi, &p, end) ||
            lws_finalize_write_http_header(wsi, start, &p, end))
            return 1;
        lws_callback_on_writable(wsi);
        return 0;
    }
    case LWS_CALLBACK_HTTP_WRITEABLE:
        if (!req || !req->body)
            return lws_callback_http_dummy(wsi, reason, user, in, len);
        if (lws_write(wsi, req->body + LWS_PRE, req->len, LWS_WRITE_HTTP_FINAL) != (int)req->len)
            return 1;
        free(req->body);
        req->body = NULL;
        if (lws_http_transaction_completed(wsi))
            return -1;
        return 0;
    case LWS_CALLBACK_CLOSED_HTTP:
        if (req) {
            free(req->body);
            req->body = NULL;
        }
        return 0;
    default:
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    }
}

static const struct lws_protocols PROTOCOLS[] = {
    {"http", callback_http, sizeof(http_req), 0, 0, NULL, 0},
    {"tabled.v1", callback_ws, sizeof(ws_conn), WS_RX_CHUNK, 0, NULL, WS_TX_PACKET},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* ---- loop glue ---------------------------------------------------------------------------- */

/* The lazy window ended: every socket with lazy messages is written in this turn (on_prepare's
 * conns_flush; one that was written meanwhile has nothing queued and is skipped). */
static void on_lazy(uv_timer_t *h)
{
    server *srv = h->data;
    while (srv->lazy) {
        ws_conn *w = srv->lazy;
        srv->lazy = w->lazy_next;
        w->lazy = 0;
        conn_dirty(w);
    }
}

/* A burst window ended (engine_due_ms): the engine_flush of this turn sends what waited. */
static void on_burst(uv_timer_t *h)
{
    (void)h;
}

/* Runs before the loop sleeps: every command of this turn is committed in one transaction
 * (group commit), then diffs and acks are queued. */
static void on_prepare(uv_prepare_t *h)
{
    server *srv = h->data;
    engine_flush(srv->eng);
    conns_flush(srv);
    int due = engine_due_ms(srv->eng);
    if (due >= 0)
        uv_timer_start(&srv->burst, on_burst, (uint64_t)due, 0);
}

/* ---- deadlines ----------------------------------------------------------------------------- */

/* Every half second: a WebSocket that has not said hello (or joined) within hello_timeout, one
 * admitted into the GM's room that is not a GM by then, and one silent for idle_timeout are
 * closed with a status and a reason; one silent for PING_MS is pinged (with its next write), so
 * that a dead peer is found by TCP and a proxy sees traffic. These are our pings, not lws's: its
 * validity timers are rescheduled in a sorted list on every frame received (issue 26 measured
 * 27 % of the loop with 10 000 sockets), where this costs one pass over the sockets twice a
 * second. */
#define PING_MS 30000

static void on_sweep(uv_timer_t *h)
{
    server *srv = h->data;
    engine_tick(srv->eng); /* idle campaigns are put away */
    uint64_t now = uv_now(&srv->loop);
    uint64_t hello_ms = (uint64_t)(srv->opt->hello_timeout * 1000);
    uint64_t idle_ms = (uint64_t)(srv->opt->idle_timeout * 1000);
    for (ws_conn *w = srv->ws_list; w; w = w->next) {
        if (w->closing || !w->ec)
            continue;
        enum engine_seated seated = engine_conn_seated(w->ec);
        if (seated == ENGINE_SEATED_NONE && now - w->opened_ms >= hello_ms)
            conn_close_later(w, w->gm_only ? 1013 : 1008,
                             w->gm_only ? "the server is full; try again later"
                                        : "no hello in time");
        else if (idle_ms && now - w->last_rx_ms >= idle_ms)
            conn_close_later(w, 1001, "idle for too long");
        else if (now - w->last_rx_ms >= PING_MS && now - w->last_ping_ms >= PING_MS) {
            w->last_ping_ms = now;
            w->ping_due = 1;
            conn_dirty(w);
        }
    }
}

/* RLIMIT_NOFILE up to its hard limit (at most 2^20), so connections are refused by our own limit,
 * with a clear close, long before accept() fails. Returns the soft limit now in force. */
static long raise_nofile(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 1024;
    rlim_t want =
        rl.rlim_max == RLIM_INFINITY || rl.rlim_max > (1u << 20) ? (1u << 20) : rl.rlim_max;
    if (rl.rlim_cur < want) {
        rlim_t was = rl.rlim_cur;
        rl.rlim_cur = want;
        if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
            rl.rlim_cur = was;
    }
    return (long)rl.rlim_cur;
}

/* ---- rolling backups, off the loop thread ------------------------------------------------- */

/* The directory of rolling backups: --backup-dir, or "<db>.backups". malloc'd. */
static char *backup_dir_for(const char *dir, const char *db)
{
    if (dir)
        return xstrdup(dir);
    size_t n = strlen(db) + 16;
    char *d = xmalloc(n);
    snprintf(d, n, "%s.backups", db);
    return d;
}

/* Runs on a libuv worker thread: a VACUUM INTO copy of the database on a connection of its own
 * (storage/backup.c), so the loop keeps serving; then a passive checkpoint, which moves what the
 * copy's read transaction held back from the WAL into the database without waiting for the
 * loop's writer. Touches nothing of the loop's but the server fields it owns while running. */
static void backup_work_run(uv_work_t *req)
{
    server *srv = req->data;
    tb_err_clear(&srv->backup_err);
    free(srv->backup_written);
    srv->backup_written = NULL;
    if (store_backup_rolling(srv->opt->db, srv->backup_dir, "tabled-", srv->backup_keep,
                             &srv->backup_written, &srv->backup_err))
        return;
    tb_err ck;
    if (store_checkpoint(srv->opt->db, NULL, NULL, &ck))
        tb_log(TB_LOG_WARNING, "%s", ck.msg);
}

static void backup_work_done(uv_work_t *req, int status)
{
    server *srv = req->data;
    srv->backup_running = 0;
    if (status == UV_ECANCELED)
        return;
    if (srv->backup_err.code) {
        srv->backups_failed++;
        tb_log(TB_LOG_ERR, "rolling backup failed: %s", srv->backup_err.msg);
    } else {
        srv->backups_ok++;
        srv->backup_last_ok = (int64_t)time(NULL);
        tb_log(TB_LOG_INFO, "backup written to %s", srv->backup_written);
    }
}

/* --sync normal: SQLite syncs the WAL only when it checkpoints, so without help a power loss
 * could take every command since the last of those (up to ~1000 pages of WAL: at a quiet table,
 * hours). Once a second a worker runs a passive checkpoint on a connection of its own: it syncs
 * the WAL, copies it into the database and syncs that, without waiting for the loop's writer.
 * So a power loss loses at most about the last second of commands (crash.test.mjs measures it),
 * and the WAL stays short under load. A kill -9 loses nothing either way. */
static void wal_work_run(uv_work_t *req)
{
    server *srv = req->data;
    tb_err err;
    for (char **p = srv->wal_paths; *p; p++)
        if (store_checkpoint(*p, NULL, NULL, &err))
            tb_log(TB_LOG_ERR, "%s", err.msg);
}

static void wal_work_done(uv_work_t *req, int status)
{
    server *srv = req->data;
    (void)status;
    store_paths_free(srv->wal_paths);
    srv->wal_paths = NULL;
    srv->wal_running = 0;
}

/* Only the files committed to since the last round (the store's dirty list): a thousand idle
 * campaigns cost nothing here. */
static void on_wal_timer(uv_timer_t *h)
{
    server *srv = h->data;
    if (srv->wal_running || srv->stopping)
        return;
    srv->wal_paths = store_take_dirty(srv->st);
    if (!srv->wal_paths)
        return;
    srv->wal_running = 1;
    srv->wal_work.data = srv;
    if (uv_queue_work(&srv->loop, &srv->wal_work, wal_work_run, wal_work_done) != 0) {
        store_paths_free(srv->wal_paths);
        srv->wal_paths = NULL;
        srv->wal_running = 0;
    }
}

static void on_backup_timer(uv_timer_t *h)
{
    server *srv = h->data;
    if (srv->backup_running || srv->stopping)
        return;                 /* the previous copy is still being written: skip this turn */
    if (srv->backup_dir_next) { /* a reload named another directory */
        free(srv->backup_dir);
        srv->backup_dir = srv->backup_dir_next;
        srv->backup_dir_next = NULL;
    }
    srv->backup_keep = srv->opt->backup_keep;
    srv->backup_running = 1;
    srv->backup_work.data = srv;
    if (uv_queue_work(&srv->loop, &srv->backup_work, backup_work_run, backup_work_done) != 0)
        srv->backup_running = 0;
}

static void on_signal(uv_signal_t *h, int signum)
{
    server *srv = h->data;
    if (srv->stopping)
        return;
    srv->stopping = 1;
    tb_log(TB_LOG_NOTICE, "signal %d, shutting down", signum);
    sdnotify("STOPPING=1");
    uv_stop(&srv->loop);
}

/* ---- SIGHUP: the config file again --------------------------------------------------------- */

/* The address ranges of o (--trusted-proxy or --metrics-allow; the default is loopback) into
 * out. Returns how many, or -1 when one is not an address or a range. */
static int parse_ranges(const char *const *list, int n, int has, netaddr_range *out)
{
    static const char *const LOOPBACK[] = {"127.0.0.1", "::1"};
    int count = has ? n : 2;
    for (int i = 0; i < count; i++)
        if (netaddr_range_parse(has ? list[i] : LOOPBACK[i], &out[i]))
            return -1;
    return count;
}

/* The WebSocket cap (--max-connections, or the open-file limit less 64) and the places kept for
 * the GM. */
static void set_max_conns(server *srv)
{
    long nofile = srv->nofile;
    srv->max_conns = srv->opt->max_connections > 0 ? srv->opt->max_connections
                     : nofile > 128 ? (int)(nofile - 64 > 1000000 ? 1000000 : nofile - 64)
                                    : 64;
    srv->gm_room = srv->max_conns / 4 < 16 ? srv->max_conns / 4 : 16;
}

static int same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* SIGHUP (systemctl reload tabled): the command line and config file are read again and what can
 * change while serving changes now — the limits, timeouts, allow-lists, trusted proxies and
 * backup settings; a changed address, port, database, web directory, sync mode, snapshot
 * interval or test option is named as needing a restart. A config that does not parse changes
 * nothing. Connections already open keep going. */
static void on_reload(uv_signal_t *h, int signum)
{
    server *srv = h->data;
    (void)signum;
    if (srv->stopping)
        return;
    if (!srv->now.reload) {
        tb_log(TB_LOG_NOTICE, "SIGHUP: nothing to reload");
        return;
    }
    sdnotify("RELOADING=1");
    serve_opts fresh;
    netaddr_range trusted[SERVE_MAX_RANGES], allow[SERVE_MAX_RANGES];
    int n_trusted = -1, n_allow = -1;
    if (srv->now.reload(srv->now.reload_ctx, &fresh) == 0) {
        n_trusted = parse_ranges(fresh.trusted_proxies, fresh.n_trusted_proxies,
                                 fresh.has_trusted_proxies, trusted);
        n_allow = parse_ranges(fresh.metrics_allow, fresh.n_metrics_allow, fresh.has_metrics_allow,
                               allow);
    }
    if (n_trusted < 0 || n_allow < 0) {
        tb_log(TB_LOG_ERR, "SIGHUP: the config did not load; nothing changed");
        sdnotify("READY=1");
        return;
    }
    const serve_opts *o = &srv->now;
    char restart[256] = "";
#define TB_RESTART_IF(cond, name)                                                                  \
    if (cond)                                                                                      \
    snprintf(restart + strlen(restart), sizeof restart - strlen(restart), "%s%s",                  \
             restart[0] ? ", " : "", name)
    TB_RESTART_IF(fresh.port != o->port, "port");
    TB_RESTART_IF(!same_str(fresh.bind, o->bind), "bind");
    TB_RESTART_IF(!same_str(fresh.db, o->db), "db");
    TB_RESTART_IF(!same_str(fresh.web, o->web), "web");
    TB_RESTART_IF(!same_str(fresh.shard, o->shard), "shard");
    TB_RESTART_IF(fresh.sync_full != o->sync_full, "sync");
    TB_RESTART_IF(fresh.snapshot_every != o->snapshot_every, "snapshot-every");
    TB_RESTART_IF(fresh.has_seed != o->has_seed || fresh.seed != o->seed ||
                      fresh.test_clock_ms != o->test_clock_ms,
                  "seed/test-clock");
#undef TB_RESTART_IF
    /* what changes now */
    memcpy(srv->now.allow_origins, fresh.allow_origins, sizeof fresh.allow_origins);
    srv->now.n_allow_origins = fresh.n_allow_origins;
    memcpy(srv->now.allow_hosts, fresh.allow_hosts, sizeof fresh.allow_hosts);
    srv->now.n_allow_hosts = fresh.n_allow_hosts;
    memcpy(srv->trusted, trusted, sizeof trusted);
    srv->n_trusted = n_trusted;
    memcpy(srv->metrics_allow, allow, sizeof allow);
    srv->n_metrics_allow = n_allow;
    srv->now.rate = fresh.rate;
    srv->now.max_message = fresh.max_message;
    srv->now.max_connections = fresh.max_connections;
    srv->now.max_per_address = fresh.max_per_address;
    srv->now.max_per_seat = fresh.max_per_seat;
    srv->now.max_seats = fresh.max_seats;
    srv->now.joins_per_address = fresh.joins_per_address;
    srv->now.hello_timeout = fresh.hello_timeout;
    srv->now.idle_timeout = fresh.idle_timeout;
    set_max_conns(srv);
    engine_opts eo;
    engine_opts_default(&eo);
    engine_limits_from(&srv->now, &eo);
    engine_set_limits(srv->eng, &eo);
    /* backups: the next copy uses the new directory and count; a new interval starts now */
    if (!same_str(fresh.backup_dir, o->backup_dir) || fresh.backup_every_ms != o->backup_every_ms) {
        free(srv->backup_dir_next);
        srv->backup_dir_next = backup_dir_for(fresh.backup_dir, o->db);
        if (!srv->backup_dir) {
            srv->backup_dir = srv->backup_dir_next;
            srv->backup_dir_next = NULL;
        }
    }
    srv->now.backup_dir = fresh.backup_dir;
    srv->now.backup_keep = fresh.backup_keep;
    if (fresh.backup_every_ms != o->backup_every_ms) {
        srv->now.backup_every_ms = fresh.backup_every_ms;
        uv_timer_stop(&srv->backup_timer);
        if (fresh.backup_every_ms)
            uv_timer_start(&srv->backup_timer, on_backup_timer, fresh.backup_every_ms,
                           fresh.backup_every_ms);
    }
    tb_log(TB_LOG_NOTICE,
           "SIGHUP: settings reloaded (rate limit %g/s, %d WebSockets at most, %d per address, "
           "%d per seat link, %d seats a campaign, %d new seats an address an hour)%s%s%s",
           srv->now.rate, srv->max_conns,
           srv->now.max_per_address > 0 ? srv->now.max_per_address : DEFAULT_MAX_PER_ADDRESS,
           eo.max_per_seat, eo.max_seats, eo.seats_per_addr,
           restart[0] ? "; changed but needing a restart: " : "", restart,
           restart[0] ? " (systemctl restart tabled)" : "");
    sdnotify("READY=1");
}

/* ---- start-up banner ---------------------------------------------------------------------- */

static void collect_addrs(banner *b, const char *bind)
{
    b->n = 0;
    if (bind && strcmp(bind, "0.0.0.0") != 0 && strcmp(bind, "::") != 0) {
        /* an IPv6 literal is written in brackets in a URL (and in a Host header) */
        snprintf(b->addrs[b->n++], sizeof b->addrs[0], strchr(bind, ':') ? "[%s]" : "%s", bind);
        return;
    }
    snprintf(b->addrs[b->n++], sizeof b->addrs[0], "127.0.0.1");
    struct ifaddrs *ifs = NULL;
    if (getifaddrs(&ifs) != 0)
        return;
    for (struct ifaddrs *i = ifs; i && b->n < 16; i = i->ifa_next) {
        if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET)
            continue;
        char buf[INET_ADDRSTRLEN];
        inet_ntop(AF_INET, &((struct sockaddr_in *)i->ifa_addr)->sin_addr, buf, sizeof buf);
        if (strncmp(buf, "127.", 4) == 0)
            continue;
        snprintf(b->addrs[b->n++], sizeof b->addrs[0], "%s", buf);
    }
    freeifaddrs(ifs);
}

/* One campaign's links to f: its name, the GM link for each address, the join link for each. */
static void write_links(FILE *f, const banner *b, const char *campaign_id, const char *name,
                        const char *gm_token, const char *join_code)
{
    char base[64];
    route_base(b->shard, campaign_id, base, sizeof base);
    fprintf(f, "campaign: %s (%s)\n", name, campaign_id);
    for (int i = 0; i < b->n; i++)
        fprintf(f, "GM link: http://%s:%d%s#token=%s\n", b->addrs[i], b->port, base, gm_token);
    if (join_code)
        for (int i = 0; i < b->n; i++)
            fprintf(f, "join link: http://%s:%d%s#join=%s\n", b->addrs[i], b->port, base,
                    join_code);
    else
        fprintf(f, "join link: (joining is closed; the GM can open it with a new code)\n");
}

/* engine_each_gm_link callback. Issue 15 item 10: the terminal gets the first campaign's links
 * (start-up of a fresh table: the one a GM needs) and the names of the others; every campaign's
 * links go to the links file, which `tabled links` prints on request. */
static void print_links(void *ctx, const char *campaign_id, const char *name, const char *gm_token,
                        const char *join_code)
{
    banner *b = ctx;
    if (b->campaigns++ == 0) {
        write_links(stdout, b, campaign_id, name, gm_token, join_code);
    } else {
        size_t used = strlen(b->others);
        if (used + strlen(name) + 3 < sizeof b->others)
            snprintf(b->others + used, sizeof b->others - used, "%s%s", used ? ", " : "", name);
    }
    if (b->links)
        write_links(b->links, b, campaign_id, name, gm_token, join_code);
}

/* Opens <db>.links.tmp for writing, readable by the owner only (it holds GM tokens, as the
 * terminal did before); close_links_file gives it its name. Returns NULL (and says why) when it
 * cannot. */
static FILE *open_links_file(const char *db)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s.links.tmp", db) >= (int)sizeof path)
        return NULL;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        tb_log(TB_LOG_WARNING, "cannot write %s (tabled links will not work)", path);
        if (fd >= 0)
            close(fd);
    }
    return f;
}

/* Closes the links file written by open_links_file and renames it to <db>.links when every byte
 * was written: on a full disk the links of the last start stay whole rather than half. */
static void close_links_file(FILE *f, const char *db, int complete)
{
    char tmp[4096], path[4096];
    snprintf(tmp, sizeof tmp, "%s.links.tmp", db);
    snprintf(path, sizeof path, "%s.links", db);
    int bad = ferror(f) || fflush(f) != 0;
    if (fclose(f) != 0)
        bad = 1;
    if (bad || !complete || rename(tmp, path) != 0) {
        unlink(tmp);
        tb_log(TB_LOG_WARNING, "%s not updated; tabled links shows the last start's links", path);
    }
}

/* The engine's limits as the options set them (0 in an option: the engine's default). */
static void engine_limits_from(const serve_opts *o, engine_opts *eo)
{
    eo->rate_per_sec = o->rate;
    /* a resume whose diffs would fill half of the connection's queue gets the state instead: else
     * a page that missed more than the queue holds (a handout's picture shown many times) would be
     * dropped again at every resume */
    eo->resume_max_bytes = o->max_queue / 2;
    if (o->max_per_seat > 0)
        eo->max_per_seat = o->max_per_seat;
    if (o->max_seats > 0)
        eo->max_seats = o->max_seats;
    if (o->joins_per_address > 0)
        eo->seats_per_addr = o->joins_per_address;
}

/* ---- where to listen ---------------------------------------------------------------------- */

/* Issue 27 item 3: lws 4.1 (Debian 12's 4.1.6), built with IPv6, binds an IPv4 literal such as
 * 127.0.0.1 by writing it into the IPv6 socket address's flow label and leaving the address
 * "::": the socket then listens on every interface of the machine. So the address is handed to
 * lws in a form it binds correctly: an IPv4 literal (or "localhost") with IPv6 switched off for
 * the context, an IPv6 literal as it is; anything else is an interface name (lo, eth0). Returns
 * the iface string for lws (bind itself, or buf), NULL for every interface. */
static const char *bind_iface(const char *bind, char *buf, size_t n, uint64_t *options)
{
    if (!bind || strcmp(bind, "::") == 0)
        return NULL;
    if (strcmp(bind, "0.0.0.0") == 0) {
        *options |= LWS_SERVER_OPTION_DISABLE_IPV6;
        return NULL;
    }
    struct in_addr a4;
    if (strcmp(bind, "localhost") == 0)
        bind = "127.0.0.1";
    if (inet_pton(AF_INET, bind, &a4) == 1) {
        *options |= LWS_SERVER_OPTION_DISABLE_IPV6;
        snprintf(buf, n, "%s", bind);
        return buf;
    }
    return bind;
}

/* After lws listens: 0 when its listening socket is bound to the address asked for (an IP
 * literal as bind_iface passed it on; an interface name is trusted to lws), else -1. The socket
 * is found among the process's descriptors (the one that accepts connections). */
static int check_bound(const char *iface)
{
    unsigned char want[16];
    int fam = inet_pton(AF_INET, iface, want) == 1    ? AF_INET
              : inet_pton(AF_INET6, iface, want) == 1 ? AF_INET6
                                                      : 0;
    if (!fam)
        return 0;
    for (int fd = 3; fd < 4096; fd++) {
        int acc = 0;
        socklen_t len = sizeof acc;
        struct sockaddr_storage ss;
        socklen_t sl = sizeof ss;
        if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &acc, &len) != 0 || !acc ||
            getsockname(fd, (struct sockaddr *)&ss, &sl) != 0)
            continue;
        if (ss.ss_family == AF_INET && fam == AF_INET)
            return memcmp(&((struct sockaddr_in *)&ss)->sin_addr, want, 4) == 0 ? 0 : -1;
        if (ss.ss_family == AF_INET6 && fam == AF_INET6)
            return memcmp(&((struct sockaddr_in6 *)&ss)->sin6_addr, want, 16) == 0 ? 0 : -1;
        return -1; /* a socket of the other family: not what was asked */
    }
    return -1;
}

/* ---- run ---------------------------------------------------------------------------------- */

/* 1 when the file system that holds path (a file, maybe not made yet) has no block left. */
static int disk_full_at(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        slash[slash == dir] = '\0';
    struct statvfs vfs;
    return statvfs(dir, &vfs) == 0 && vfs.f_bavail == 0;
}

void serve_opts_default(serve_opts *o)
{
    memset(o, 0, sizeof *o);
    o->port = 7777;
    o->db = "tabled.db";
    o->rate = 20;
    o->snapshot_every = 0;
    o->max_message = 64 * 1024;
    o->max_queue = 4 * 1024 * 1024;
    o->backup_keep = 10;
    o->hello_timeout = 10;
    o->idle_timeout = 300;
}

int serve_run(const serve_opts *o)
{
    server srv;
    memset(&srv, 0, sizeof srv);
    srv.now = *o;
    srv.opt = &srv.now;
    o = &srv.now;
    srv.started = (int64_t)time(NULL);
    int rc = 1;
    tb_err err = {0};
    char *host_token = NULL;

    srv.n_trusted =
        parse_ranges(o->trusted_proxies, o->n_trusted_proxies, o->has_trusted_proxies, srv.trusted);
    srv.n_metrics_allow =
        parse_ranges(o->metrics_allow, o->n_metrics_allow, o->has_metrics_allow, srv.metrics_allow);
    if (srv.n_trusted < 0 || srv.n_metrics_allow < 0) {
        tb_log(TB_LOG_ERR, "--trusted-proxy and --metrics-allow take ADDR or ADDR/BITS");
        return 2;
    }

    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGPIPE, SIG_IGN);
    lws_set_log_level(LLL_ERR | LLL_WARN, NULL);

    if (store_preflight(o->db, 0, &err)) {
        tb_log(TB_LOG_ERR, "refusing to start: %s", err.msg);
        return 3;
    }
    if (store_open(o->db, o->sync_full, &srv.st, &err)) {
        tb_log(TB_LOG_ERR, "%s%s", err.msg,
               disk_full_at(o->db) ? " (the disk that holds it is full: free some space)" : "");
        return 1;
    }
    srv.secret = rules_rng_from_source(osrand_next64, &srv.osr);
    /* which history this database holds (storage/history.h): a restored copy gets a new one */
    char fresh[23], history[STORE_HISTORY_MAX];
    engine_mint_token(srv.secret, fresh);
    if (store_history(srv.st, fresh, history, &err))
        tb_log(TB_LOG_WARNING, "%s: pages resume by seq alone this run", err.msg);
    srv.dice =
        o->has_seed ? rules_rng_seeded(o->seed) : rules_rng_from_source(osrand_next64, &srv.osr);
    engine_opts eo;
    engine_opts_default(&eo);
    engine_limits_from(o, &eo);
    eo.history = history;
    eo.headroom = LWS_PRE; /* the engine's messages are written to the socket as they are */
    eo.test_clock_ms = o->test_clock_ms;
    /* --test-clock runs compare every byte in order: no wall-time windows (once per turn) */
    eo.burst_window_ms = o->test_clock_ms ? 0 : ENGINE_BURST_WINDOW_MS;
    eo.shard = o->shard;
    if (o->snapshot_every > 0)
        eo.snapshot_every = o->snapshot_every;
    if (engine_create(srv.st, srv.dice, srv.secret, &eo, &srv.eng, &err) ||
        engine_ensure_campaign(srv.eng, &err)) {
        tb_log(TB_LOG_ERR, "%s", err.msg);
        goto out;
    }

    uv_loop_init(&srv.loop);
    /* Connections: every WebSocket is one descriptor; 64 stay free for SQLite, backups, the
     * listening socket and HTTP requests. The last gm_room places are kept for a GM or the
     * host: a socket admitted there is closed unless it says hello as one. */
    long nofile = raise_nofile();
    srv.nofile = nofile;
    srv.ws_by_addr = places_create();
    srv.tcp_by_peer = places_create();
    set_max_conns(&srv);
    struct lws_http_mount mounts[5];
    memset(mounts, 0, sizeof mounts);
    mounts[3].mount_next = &mounts[4];
    mounts[3].mountpoint = "/api";
    mounts[3].mountpoint_len = 4;
    mounts[3].origin = "http";
    mounts[3].origin_protocol = LWSMPRO_CALLBACK;
    mounts[4].mount_next = &mounts[0];
    mounts[4].mountpoint = "/samples";
    mounts[4].mountpoint_len = 8;
    mounts[4].origin = "http";
    mounts[4].origin_protocol = LWSMPRO_CALLBACK;
    mounts[0].mount_next = &mounts[1];
    mounts[0].mountpoint = "/healthz";
    mounts[0].mountpoint_len = 8;
    mounts[0].origin = "http";
    mounts[0].origin_protocol = LWSMPRO_CALLBACK;
    mounts[1].mount_next = &mounts[2];
    mounts[1].mountpoint = "/metrics";
    mounts[1].mountpoint_len = 8;
    mounts[1].origin = "http";
    mounts[1].origin_protocol = LWSMPRO_CALLBACK;
    mounts[2].mountpoint = "/";
    mounts[2].mountpoint_len = 1;
    mounts[2].origin = "http"; /* the client's files: serve_static */
    mounts[2].origin_protocol = LWSMPRO_CALLBACK;
    srv.web = static_files_create(o->web);

    void *loops[1] = {&srv.loop};
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = o->port;
    info.protocols = PROTOCOLS;
    info.mounts = &mounts[3];
    /* the security headers are our own (static_security_headers): lws's best-practice set
     * forbids the web app manifest */
    info.options = LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND;
    char bind_addr[INET6_ADDRSTRLEN + 8];
    info.iface = bind_iface(o->bind, bind_addr, sizeof bind_addr, &info.options);
    info.foreign_loops = loops;
    info.user = &srv;
    info.pcontext = &srv.lws;
    srv.lws = lws_create_context(&info);
    if (!srv.lws) {
        tb_log(TB_LOG_ERR, "cannot listen on %s port %d (is it in use?)",
               o->bind ? o->bind : "every interface", o->port);
        goto out_loop;
    }

    uv_signal_init(&srv.loop, &srv.sigint);
    uv_signal_init(&srv.loop, &srv.sigterm);
    srv.sigint.data = srv.sigterm.data = &srv;
    uv_signal_start(&srv.sigint, on_signal, SIGINT);
    uv_signal_start(&srv.sigterm, on_signal, SIGTERM);
    srv.batch = xmalloc(LWS_PRE + BATCH_BYTES);
    uv_prepare_init(&srv.loop, &srv.flush);
    srv.flush.data = &srv;
    uv_prepare_start(&srv.flush, on_prepare);
    uv_unref((uv_handle_t *)&srv.flush);
    srv.trim = heaptrim_start(&srv.loop, TRIM_PERIOD_MS, TRIM_MIN_FREE);
    uv_timer_init(&srv.loop, &srv.burst);
    srv.burst.data = &srv;
    uv_timer_init(&srv.loop, &srv.lazy_timer);
    srv.lazy_timer.data = &srv;
    srv.lazy_ms = o->test_clock_ms ? 0 : ENGINE_LAZY_MS;
    uv_timer_init(&srv.loop, &srv.sweep);
    srv.sweep.data = &srv;
    uv_timer_start(&srv.sweep, on_sweep, 500, 500);
    uv_unref((uv_handle_t *)&srv.sweep);
    uv_timer_init(&srv.loop, &srv.wal_timer);
    srv.wal_timer.data = &srv;
    /* Under --sync full too: the checkpoints keep every WAL short (and the dirty list drained). */
    uv_timer_start(&srv.wal_timer, on_wal_timer, 1000, 1000);
    uv_unref((uv_handle_t *)&srv.wal_timer);
    uv_timer_init(&srv.loop, &srv.backup_timer);
    srv.backup_timer.data = &srv;
    uv_unref((uv_handle_t *)&srv.backup_timer);
    if (o->backup_every_ms) {
        srv.backup_dir = backup_dir_for(o->backup_dir, o->db);
        uv_timer_start(&srv.backup_timer, on_backup_timer, o->backup_every_ms, o->backup_every_ms);
    }
    uv_signal_init(&srv.loop, &srv.sighup);
    srv.sighup.data = &srv;
    uv_signal_start(&srv.sighup, on_reload, SIGHUP);
    uv_unref((uv_handle_t *)&srv.sighup);

    if (info.iface && check_bound(info.iface)) {
        tb_log(TB_LOG_ERR,
               "asked to listen on %s only, but the listening socket is bound elsewhere; "
               "refusing to serve on addresses that were not asked for",
               o->bind);
        goto out_lws;
    }

    banner *b = &srv.where;
    struct lws_vhost *vh = lws_get_vhost_by_name(srv.lws, "default");
    b->port = vh ? lws_get_vhost_listen_port(vh) : o->port;
    b->shard = o->shard;
    collect_addrs(b, o->bind);
    host_token = engine_mint_host_token(srv.eng, &err);
    if (!host_token && store_disk_full(srv.st)) {
        /* Issue 27 item 1: a full disk must not keep the server from starting. No new links
         * can be stored, but every link printed before keeps working. */
        printf("tabled %s listening on port %d (database %s)\n", TABLED_VERSION, b->port, o->db);
        tb_log(TB_LOG_ERR,
               "the disk is full: no new links this start; the links printed before keep "
               "working (tabled links --db %s). Free some space.",
               o->db);
        printf("Open a link printed before; this start could not make new ones (the disk is "
               "full).\n");
        goto run;
    }
    if (!host_token) {
        tb_log(TB_LOG_ERR, "%s", err.msg);
        goto out_lws;
    }
    printf("tabled %s listening on port %d (database %s)\n", TABLED_VERSION, b->port, o->db);
    printf("host token: %s\n", host_token);
    /* The console link carries the host token (create, list and open campaigns); it is printed
     * for this machine only: the GM opens it on the laptop that runs the server. */
    char console[ROUTE_SHARD_MAX + 5] = "/";
    if (o->shard) /* behind a router: this process's console (route.h) */
        snprintf(console, sizeof console, "/c/%s/", o->shard);
    printf("console link: http://%s:%d%s#host=%s\n", b->addrs[0], b->port, console, host_token);
    b->campaigns = 0;
    b->others[0] = '\0';
    b->links = open_links_file(o->db);
    if (b->links)
        fprintf(b->links, "console link: http://%s:%d%s#host=%s\n", b->addrs[0], b->port, console,
                host_token);
    int each = engine_each_gm_link(srv.eng, print_links, b, &err);
    if (b->links)
        close_links_file(b->links, o->db, !each);
    b->links = NULL;
    if (each && !store_disk_full(srv.st)) {
        tb_log(TB_LOG_ERR, "%s", err.msg);
        goto out_lws;
    }
    if (each)
        tb_log(TB_LOG_ERR,
               "the disk is full: not every campaign got a new GM link; the links printed "
               "before keep working");
    int stored = engine_campaign_count(srv.eng);
    if (stored > b->campaigns)
        printf("%d more campaigns: %s. Links of the first %d: tabled links --db %s; every "
               "campaign is in the console\n",
               stored - 1, b->others, b->campaigns, o->db);
    else if (b->campaigns > 1)
        printf(
            "%d more campaigns: %s. Their links: tabled links --db %s (or switch in the console)\n",
            b->campaigns - 1, b->others, o->db);
    printf("Open the console link in your browser; give the join link to your players.\n");

run:
    sdnotify("READY=1");
    uv_run(&srv.loop, UV_RUN_DEFAULT);
    rc = 0;

out_lws:
    /* Clean shutdown: commit what is pending and snapshot every campaign before the sockets
     * close (engine_destroy below finds nothing left to snapshot). */
    if (engine_snapshot_all(srv.eng, &err))
        tb_log(TB_LOG_ERR, "snapshot at shutdown failed: %s", err.msg);
    lws_context_destroy(srv.lws);
    uv_close((uv_handle_t *)&srv.sigint, NULL);
    uv_close((uv_handle_t *)&srv.sigterm, NULL);
    if (uv_is_active((uv_handle_t *)&srv.sighup) || srv.sighup.data)
        uv_close((uv_handle_t *)&srv.sighup, NULL);
    uv_close((uv_handle_t *)&srv.flush, NULL);
    heaptrim_stop(srv.trim);
    uv_close((uv_handle_t *)&srv.backup_timer, NULL); /* a copy under way finishes first */
    uv_close((uv_handle_t *)&srv.sweep, NULL);
    uv_close((uv_handle_t *)&srv.burst, NULL);
    uv_close((uv_handle_t *)&srv.lazy_timer, NULL);
    uv_close((uv_handle_t *)&srv.wal_timer, NULL);
    uv_run(&srv.loop, UV_RUN_DEFAULT);
    /* On a foreign loop lws 4.1 only starts tearing down in the first call: once its handles have
     * closed (the uv_run above), a second call frees the rest and clears srv.lws (pcontext).
     * Without it LeakSanitizer reports lws's pollfd tables at exit. */
    if (srv.lws) {
        lws_context_destroy(srv.lws);
        uv_run(&srv.loop, UV_RUN_DEFAULT);
    }
out_loop:
    uv_loop_close(&srv.loop);
out:
    places_destroy(srv.ws_by_addr);
    places_destroy(srv.tcp_by_peer);
    free(host_token);
    free(srv.backup_dir);
    free(srv.backup_dir_next);
    free(srv.backup_written);
    free(srv.batch);
    engine_destroy(srv.eng);
    store_close(srv.st);
    static_files_destroy(srv.web);
    rules_rng_destroy(srv.dice);
    rules_rng_destroy(srv.secret);
    return rc;
}
