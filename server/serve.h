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

typedef struct serve_opts {
    int port;              /* 0: the kernel picks one (printed) */
    const char *bind;      /* NULL: every interface */
    const char *db;        /* SQLite file */
    const char *web;       /* directory served at / */
    int sync_full;         /* PRAGMA synchronous=FULL instead of NORMAL */
    const char *allow_origins[SERVE_MAX_ORIGINS];
    int n_allow_origins;
    const char *allow_hosts[SERVE_MAX_HOSTS]; /* names besides localhost and our own addresses */
    int n_allow_hosts;
    int has_seed;          /* dice from a seeded generator (tests) */
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
} serve_opts;

/* Fills the defaults of DESIGN.md ("Command line and the two commands"). */
void serve_opts_default(serve_opts *o);

/* Runs the server until SIGINT/SIGTERM; returns the process exit code. */
int serve_run(const serve_opts *o);

#endif
