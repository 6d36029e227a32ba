/*
 * serve.h — `tabled serve`: the process that runs a table. Owns the libuv loop, the
 * libwebsockets context on it, the store and the engine, and wires them together.
 */
#ifndef TABLED_SERVE_H
#define TABLED_SERVE_H

#include <stddef.h>
#include <stdint.h>

#define SERVE_MAX_ORIGINS 16
#define SERVE_MAX_HOSTS 16
#define SERVE_MAX_RANGES 16 /* --trusted-proxy and --metrics-allow, each */

typedef struct serve_opts {
    int port;         /* 0: the kernel picks one (printed) */
    const char *bind; /* NULL: every interface */
    const char *db;   /* SQLite file */
    const char *web;  /* directory served at / */
    int sync_full;    /* PRAGMA synchronous=FULL instead of NORMAL */
    const char *allow_origins[SERVE_MAX_ORIGINS];
    int n_allow_origins;
    const char *allow_hosts[SERVE_MAX_HOSTS]; /* names besides localhost and our own addresses */
    int n_allow_hosts;
    /* Proxies whose X-Forwarded-For names the client (netaddr.h), and who may read /metrics and
     * the counts of /healthz: ADDR or ADDR/BITS. has_* = 0: the defaults (loopback, 127.0.0.1
     * and ::1, for both); set with no entries ("none"): nobody. */
    const char *trusted_proxies[SERVE_MAX_RANGES];
    int n_trusted_proxies, has_trusted_proxies;
    const char *metrics_allow[SERVE_MAX_RANGES];
    int n_metrics_allow, has_metrics_allow;
    int has_seed; /* dice from a seeded generator (tests) */
    uint64_t seed;
    int64_t test_clock_ms; /* 0, or the clock of engine_opts.test_clock_ms (tests) */
    double rate;           /* commands per seat per second, 0 = unlimited */
    int snapshot_every;    /* 0: by size (engine_opts.snapshot_every) */
    size_t max_message;    /* bytes over all fragments of one client message */
    size_t max_queue;      /* bytes waiting to be sent to one connection */
    int max_connections;  /* WebSockets at most; 0: from RLIMIT_NOFILE (raised to its hard limit) */
    double hello_timeout; /* seconds a new WebSocket has to say hello or join (default 10) */
    double idle_timeout;  /* seconds without a message before a socket is closed (default 300) */
    uint64_t backup_every_ms; /* rolling backups (0: none), run off the loop thread */
    int backup_keep;          /* newest rolling backups kept (default 10) */
    const char *backup_dir;   /* NULL: "<db>.backups" */
    /* Behind a router of several processes (issue 28, server/route.h): this process's name; its
     * new campaigns' ids start "<shard>-" and its links carry /c/<key>/. NULL: one process, the
     * links of before. */
    const char *shard;
    /* Places and seats (issue 27 item 4); 0: the default */
    int max_per_address;   /* connections at once from one client address (32) */
    int max_per_seat;      /* WebSockets at once with one seat's token (8) */
    int max_seats;         /* player seats of one campaign (100) */
    int joins_per_address; /* new seats one client address may make in an hour (20) */
    /* SIGHUP: the options as the command line and config file give them now (main.c); 0, or an
     * exit code after the reason was printed. NULL: SIGHUP only says it cannot reload. */
    int (*reload)(void *ctx, struct serve_opts *fresh);
    void *reload_ctx;
} serve_opts;

/* Fills the defaults of DESIGN.md ("Command line and the two commands"). */
void serve_opts_default(serve_opts *o);

/* Runs the server until SIGINT/SIGTERM; returns the process exit code (main.c: 0, 1, 3 when
 * the database is refused). */
int serve_run(const serve_opts *o);

#endif
