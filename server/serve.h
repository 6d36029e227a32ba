/*
 * serve.h — `tabled serve`: the process that runs a table. Owns the libuv loop, the
 * libwebsockets context on it, the store and the engine, and wires them together.
 */
#ifndef TABLED_SERVE_H
#define TABLED_SERVE_H

#include <stddef.h>
#include <stdint.h>

#define SERVE_MAX_ORIGINS 16

typedef struct serve_opts {
    int port;              /* 0: the kernel picks one (printed) */
    const char *bind;      /* NULL: every interface */
    const char *db;        /* SQLite file */
    const char *web;       /* directory served at / */
    int sync_full;         /* PRAGMA synchronous=FULL instead of NORMAL */
    const char *allow_origins[SERVE_MAX_ORIGINS];
    int n_allow_origins;
    int has_seed;          /* dice from a seeded generator (tests) */
    uint64_t seed;
    double rate;           /* commands per seat per second, 0 = unlimited */
    int snapshot_every;
    size_t max_message;    /* bytes over all fragments of one client message */
    size_t max_queue;      /* bytes waiting to be sent to one connection */
    uint64_t backup_every_ms; /* rolling backups (0: none), run off the loop thread */
    int backup_keep;          /* newest rolling backups kept (default 10) */
    const char *backup_dir;   /* NULL: "<db>.backups" */
} serve_opts;

/* Fills the defaults of DESIGN.md ("Command line and the two commands"). */
void serve_opts_default(serve_opts *o);

/* Runs the server until SIGINT/SIGTERM; returns the process exit code. */
int serve_run(const serve_opts *o);

#endif
