/*
 * main.c — the `tabled` command: serve, roll, links, replay, backup, export, import. Parses the
 * command line (getopt_long: "--opt value" and "--opt=value", --help on every command) and hands
 * off.
 *
 * Exit codes, the same for every command (README.md "Exit codes", tabled(1)):
 *   0  done;
 *   1  the command failed (it says why on stderr: cannot listen, cannot write, disk full, ...);
 *   2  usage: an unknown option, a bad value, a missing argument, an unreadable config file;
 *   3  the database was refused: it fails its integrity check, it is not a tabled database, or
 *      it does not exist where one must (replay, export). Restarting will not help.
 */
#include <getopt.h>
#include <stdarg.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_backup.h"
#include "cli_roll.h"
#include "config.h"
#include "jsonalloc.h"
#include "route.h"
#include "preflight.h"
#include "serve.h"
#include "store.h"

#ifndef TABLED_WEB_DIR
#define TABLED_WEB_DIR "web-static"
#endif

enum { EXIT_USAGE = 2, EXIT_REFUSED = 3 };

static const char USAGE[] =
    "usage: tabled COMMAND [options]   (tabled COMMAND --help for one command)\n"
    "  serve    run the table server\n"
    "  roll     roll the server's dice from a shell\n"
    "  links    every campaign's GM and join links of the last start\n"
    "  replay   every campaign's state rebuilt from the database\n"
    "  backup   a complete, checked copy of the database (also while serving)\n"
    "  export   one campaign as JSON, to move it to another server\n"
    "  import   add an exported campaign to a database\n"
    "  --version, --help\n"
    "Exit codes: 0 done, 1 failed, 2 usage error, 3 database refused (man tabled).\n";

static const char USAGE_SERVE[] =
    "usage: tabled serve [options]\n"
    "       tabled serve --config FILE [options]\n"
    "Runs the table server; prints the console link and the first campaign's GM and join\n"
    "links at start-up (every campaign's: tabled links). Options take \"--name value\" or\n"
    "\"--name=value\"; in a config file, one \"name = value\" a line.\n"
    "  --port N                 port of the page, the WebSocket, /healthz, /metrics (7777; 0:\n"
    "                           any free one)\n"
    "  --bind ADDR              listen on this address only (default: every interface)\n"
    "  --db PATH                the database (./tabled.db)\n"
    "  --web DIR                the browser client's files\n"
    "  --sync normal|full       SQLite synchronous (normal)\n"
    "  --config FILE            read options from FILE; the command line overrides it\n"
    "  --allow-origin ORIGIN    another site whose pages may open WebSockets (repeatable)\n"
    "  --allow-host NAME        a host name the server answers to besides localhost, its own\n"
    "                           addresses and host name (repeatable; DNS rebinding)\n"
    "  --trusted-proxy ADDR     a reverse proxy whose X-Forwarded-For names the client\n"
    "                           (ADDR or ADDR/BITS, repeatable; default 127.0.0.1 and ::1;\n"
    "                           none: no proxy is trusted)\n"
    "  --metrics-allow ADDR     who may read /metrics and the counts of /healthz (ADDR or\n"
    "                           ADDR/BITS, repeatable; default 127.0.0.1 and ::1)\n"
    "  --max-connections N      WebSockets at most (default: the open-file limit, raised to its\n"
    "                           hard limit, less 64); the last places are kept for the GM\n"
    "  --max-per-address N      connections at once from one client address (32)\n"
    "  --max-per-seat N         WebSockets at once with one seat's link (8)\n"
    "  --max-seats N            player seats one campaign may have (100)\n"
    "  --joins-per-address N    new seats one client address may make in an hour (20)\n"
    "  --hello-timeout S        seconds a new socket has to say hello or join (10)\n"
    "  --idle-timeout S         seconds of silence before a socket is closed (300)\n"
    "  --rate-limit N           commands per second per seat, bursts of twice that (20; 0: off)\n"
    "  --snapshot-every N       events between state snapshots (100)\n"
    "  --max-message BYTES      largest client message (65536)\n"
    "  --backup-every DURATION  a rolling backup every 30s / 15m / 6h (off), by a worker thread\n"
    "  --backup-keep N          rolling backups kept, the oldest deleted first (10)\n"
    "  --backup-dir DIR         where rolling backups go (<db>.backups/)\n"
    "  --shard NAME             this process's name behind a router of several (a-z, 0-9, at\n"
    "                           most 12): its new campaigns' ids start NAME-, its links carry\n"
    "                           /c/<campaign>/ (deploy/nginx-tabled-shards.conf)\n"
    "  --seed N                 tests: dice from a seeded generator\n"
    "  --test-clock MS          tests: event n is stamped MS + n seconds, not the wall clock\n"
    "                           (and joins and presence leave once per loop turn)\n"
    "Signals: SIGTERM and SIGINT stop it cleanly; SIGHUP reads the config file again and\n"
    "applies the limits, timeouts, allow-lists and backup settings (the rest needs a restart).\n";

static const char USAGE_LINKS[] =
    "usage: tabled links [--db PATH]\n"
    "Prints every campaign's GM and join links as the last start of tabled serve with this\n"
    "database wrote them (<db>.links). Exit 1 when there are none yet.\n";

static const char USAGE_REPLAY[] =
    "usage: tabled replay --db PATH [--campaign ID] [--from-zero]\n"
    "Rebuilds each campaign's state from the database (newest snapshot + event log, or the\n"
    "whole log with --from-zero) and prints it as JSON, one campaign per line. The database\n"
    "must exist (exit 3 otherwise).\n";

/* Strict non-negative integer parse; returns 0 on success. */
static int parse_u64(const char *s, unsigned long long max, unsigned long long *out)
{
    char *end;
    if (!s || !*s || *s == '-')
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || v > max)
        return -1;
    *out = v;
    return 0;
}

/* A duration: N (minutes), Ns, Nm or Nh, from 1 s to 31 days. Returns 0 and *ms, or -1. */
static int parse_duration_ms(const char *s, uint64_t *ms)
{
    char *end;
    if (!s || !*s || *s == '-')
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    uint64_t unit = 60000;
    if (*end == 's')
        unit = 1000;
    else if (*end == 'h')
        unit = 3600000;
    else if (*end != 'm' && *end != '\0')
        return -1;
    if (*end && end[1])
        return -1;
    if (end == s || v == 0 || v > 31ull * 24 * 3600 * 1000 / unit)
        return -1;
    *ms = v * unit;
    return 0;
}

/* Prints "tabled CMD: " + the message to stderr; returns EXIT_USAGE. */
static int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tabled %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (tabled %s --help)\n", cmd);
    va_end(ap);
    return EXIT_USAGE;
}

/* The message for getopt_long's '?' or ':' at argv[optind - 1]. */
static int bad_option(const char *cmd, int opt, char **argv)
{
    if (opt == ':')
        return usage_error(cmd, "%s needs a value", argv[optind - 1]);
    return usage_error(cmd, "unknown option %s", argv[optind - 1]);
}

/* ---- serve ---------------------------------------------------------------------------------- */

enum serve_opt {
    O_PORT = 256,
    O_BIND,
    O_DB,
    O_WEB,
    O_SYNC,
    O_ALLOW_ORIGIN,
    O_ALLOW_HOST,
    O_TRUSTED_PROXY,
    O_METRICS_ALLOW,
    O_RATE,
    O_SNAPSHOT,
    O_MAX_MESSAGE,
    O_MAX_CONN,
    O_PER_ADDR,
    O_PER_SEAT,
    O_MAX_SEATS,
    O_JOINS_PER_ADDR,
    O_HELLO,
    O_IDLE,
    O_BACKUP_EVERY,
    O_BACKUP_KEEP,
    O_BACKUP_DIR,
    O_SHARD,
    O_SEED,
    O_TEST_CLOCK,
    O_HELP
};

static const struct option SERVE_OPTIONS[] = {
    {"port", required_argument, NULL, O_PORT},
    {"bind", required_argument, NULL, O_BIND},
    {"db", required_argument, NULL, O_DB},
    {"web", required_argument, NULL, O_WEB},
    {"sync", required_argument, NULL, O_SYNC},
    {"allow-origin", required_argument, NULL, O_ALLOW_ORIGIN},
    {"allow-host", required_argument, NULL, O_ALLOW_HOST},
    {"trusted-proxy", required_argument, NULL, O_TRUSTED_PROXY},
    {"metrics-allow", required_argument, NULL, O_METRICS_ALLOW},
    {"rate-limit", required_argument, NULL, O_RATE},
    {"snapshot-every", required_argument, NULL, O_SNAPSHOT},
    {"max-message", required_argument, NULL, O_MAX_MESSAGE},
    {"max-connections", required_argument, NULL, O_MAX_CONN},
    {"max-per-address", required_argument, NULL, O_PER_ADDR},
    {"max-per-seat", required_argument, NULL, O_PER_SEAT},
    {"max-seats", required_argument, NULL, O_MAX_SEATS},
    {"joins-per-address", required_argument, NULL, O_JOINS_PER_ADDR},
    {"hello-timeout", required_argument, NULL, O_HELLO},
    {"idle-timeout", required_argument, NULL, O_IDLE},
    {"backup-every", required_argument, NULL, O_BACKUP_EVERY},
    {"backup-keep", required_argument, NULL, O_BACKUP_KEEP},
    {"backup-dir", required_argument, NULL, O_BACKUP_DIR},
    {"shard", required_argument, NULL, O_SHARD},
    {"seed", required_argument, NULL, O_SEED},
    {"test-clock", required_argument, NULL, O_TEST_CLOCK},
    {"help", no_argument, NULL, O_HELP},
    {NULL, 0, NULL, 0},
};

/* One integer option in [lo, hi] into *out. 0, or the usage error. */
static int serve__int(const char *name, const char *v, unsigned long long lo, unsigned long long hi,
                      int *out)
{
    unsigned long long n;
    if (parse_u64(v, hi, &n) || n < lo)
        return usage_error("serve", "--%s must be %llu..%llu", name, lo, hi);
    *out = (int)n;
    return 0;
}

/* An address list option (--trusted-proxy, --metrics-allow): "none" empties it. */
static int serve__range(const char *name, const char *v, const char **list, int *n, int *has)
{
    if (!*has)
        *n = 0;
    *has = 1;
    if (strcmp(v, "none") == 0) {
        *n = 0;
        return 0;
    }
    if (*n >= SERVE_MAX_RANGES)
        return usage_error("serve", "at most %d --%s", SERVE_MAX_RANGES, name);
    list[(*n)++] = v;
    return 0;
}

/* Parses serve's options (argv[0] is "serve", argv as config_expand made it) into *o, which
 * holds the defaults. Returns 0, -1 after printing --help, or EXIT_USAGE after the error. The
 * strings of *o point into argv. */
static int serve_parse(int argc, char **argv, serve_opts *o)
{
    int opt, rc = 0;
    optind = 0; /* GNU getopt: start over (a reload parses again) */
    opterr = 0;
    while (!rc && (opt = getopt_long(argc, argv, ":h", SERVE_OPTIONS, NULL)) != -1) {
        const char *v = optarg;
        unsigned long long n = 0;
        switch (opt) {
        case 'h':
        case O_HELP:
            fputs(USAGE_SERVE, stdout);
            return -1;
        case O_PORT:
            rc = serve__int("port", v, 0, 65535, &o->port);
            break;
        case O_BIND:
            o->bind = v;
            break;
        case O_DB:
            o->db = v;
            break;
        case O_WEB:
            o->web = v;
            break;
        case O_SYNC:
            if (strcmp(v, "full") && strcmp(v, "normal"))
                rc = usage_error("serve", "--sync must be normal or full");
            o->sync_full = strcmp(v, "full") == 0;
            break;
        case O_ALLOW_ORIGIN:
            if (o->n_allow_origins >= SERVE_MAX_ORIGINS)
                rc = usage_error("serve", "at most %d --allow-origin", SERVE_MAX_ORIGINS);
            else
                o->allow_origins[o->n_allow_origins++] = v;
            break;
        case O_ALLOW_HOST:
            if (o->n_allow_hosts >= SERVE_MAX_HOSTS)
                rc = usage_error("serve", "at most %d --allow-host", SERVE_MAX_HOSTS);
            else
                o->allow_hosts[o->n_allow_hosts++] = v;
            break;
        case O_TRUSTED_PROXY:
            rc = serve__range("trusted-proxy", v, o->trusted_proxies, &o->n_trusted_proxies,
                              &o->has_trusted_proxies);
            break;
        case O_METRICS_ALLOW:
            rc = serve__range("metrics-allow", v, o->metrics_allow, &o->n_metrics_allow,
                              &o->has_metrics_allow);
            break;
        case O_RATE: {
            int r;
            rc = serve__int("rate-limit", v, 0, 1000000, &r);
            o->rate = r;
            break;
        }
        case O_SNAPSHOT:
            rc = serve__int("snapshot-every", v, 1, 1000000, &o->snapshot_every);
            break;
        case O_MAX_MESSAGE: {
            int m;
            rc = serve__int("max-message", v, 1024, 16 * 1024 * 1024, &m);
            o->max_message = (size_t)m;
            break;
        }
        case O_MAX_CONN:
            rc = serve__int("max-connections", v, 4, 1000000, &o->max_connections);
            break;
        case O_PER_ADDR:
            rc = serve__int("max-per-address", v, 1, 1000000, &o->max_per_address);
            break;
        case O_PER_SEAT:
            rc = serve__int("max-per-seat", v, 1, 1000000, &o->max_per_seat);
            break;
        case O_MAX_SEATS:
            rc = serve__int("max-seats", v, 1, 100000, &o->max_seats);
            break;
        case O_JOINS_PER_ADDR:
            rc = serve__int("joins-per-address", v, 1, 1000000, &o->joins_per_address);
            break;
        case O_HELLO:
        case O_IDLE: {
            char *end;
            double secs = strtod(v, &end);
            if (*end || !(secs >= 0.1 && secs <= 86400))
                rc = usage_error("serve", "--%s takes seconds, 0.1 to 86400",
                                 opt == O_HELLO ? "hello-timeout" : "idle-timeout");
            else if (opt == O_HELLO)
                o->hello_timeout = secs;
            else
                o->idle_timeout = secs;
            break;
        }
        case O_BACKUP_EVERY:
            if (parse_duration_ms(v, &o->backup_every_ms))
                rc = usage_error("serve", "--backup-every takes a duration: 30s, 15m (the default "
                                          "unit), 6h");
            break;
        case O_BACKUP_KEEP:
            rc = serve__int("backup-keep", v, 1, 100000, &o->backup_keep);
            break;
        case O_BACKUP_DIR:
            o->backup_dir = v;
            break;
        case O_SHARD:
            if (!route_shard_ok(v))
                rc = usage_error("serve", "--shard takes 1 to 12 letters a-z or digits");
            o->shard = v;
            break;
        case O_SEED:
            if (parse_u64(v, UINT64_MAX, &n))
                rc = usage_error("serve", "--seed must be a non-negative integer");
            o->has_seed = 1;
            o->seed = n;
            break;
        case O_TEST_CLOCK:
            /* tests that compare every byte of two runs: event n's time is MS + n seconds */
            if (parse_u64(v, 4102444800000ull, &n) || n == 0)
                rc = usage_error("serve", "--test-clock must be 1 to 4102444800000 (ms)");
            o->test_clock_ms = (int64_t)n;
            break;
        default:
            rc = bad_option("serve", opt, argv);
        }
    }
    if (!rc && optind < argc)
        rc = usage_error("serve", "unexpected argument %s", argv[optind]);
    return rc;
}

/* What `tabled serve` was started with, for SIGHUP: the command line is expanded again with the
 * config file as it is now. Every vector made is kept until exit (the options point into it). */
typedef struct serve_cmdline {
    int argc;
    char **argv;
    char **vecs[64];
    int n_vecs;
} serve_cmdline;

/* The browser client's files when --web is not given: beside the binary `meson install` made
 * (server/meson.build), else the source tree's web-static/ (a build run where it was built). */
static const char *default_web_dir(void)
{
#ifdef TABLED_INSTALLED_BIN
    static char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        if (strcmp(exe, TABLED_INSTALLED_BIN) == 0)
            return TABLED_INSTALLED_WEB_DIR;
    }
#endif
    return TABLED_WEB_DIR;
}

static void serve__defaults(serve_opts *o)
{
    serve_opts_default(o);
    o->web = default_web_dir();
}

/* serve_opts.reload: the options as the config file and command line give them now. */
static int serve__reload(void *ctx, serve_opts *fresh)
{
    serve_cmdline *cl = ctx;
    int n;
    char **args;
    if (cl->n_vecs == (int)(sizeof cl->vecs / sizeof cl->vecs[0]))
        return EXIT_USAGE; /* enough reloads for one run: restart it */
    if (config_expand("tabled serve", cl->argc, cl->argv, &n, &args))
        return EXIT_USAGE;
    cl->vecs[cl->n_vecs++] = args;
    serve__defaults(fresh);
    int rc = serve_parse(n, args, fresh);
    return rc < 0 ? EXIT_USAGE : rc;
}

static int cmd_serve(int argc, char **argv)
{
    serve_cmdline cl = {.argc = argc, .argv = argv};
    int n;
    char **args;
    if (config_expand("tabled serve", argc, argv, &n, &args))
        return EXIT_USAGE;
    cl.vecs[cl.n_vecs++] = args;
    serve_opts o;
    serve__defaults(&o);
    int rc = serve_parse(n, args, &o);
    if (rc == 0) {
        o.reload = serve__reload;
        o.reload_ctx = &cl;
        rc = serve_run(&o);
    } else if (rc < 0) {
        rc = 0;
    }
    for (int i = 0; i < cl.n_vecs; i++)
        config_free(cl.vecs[i]);
    return rc;
}

/* ---- links, replay -------------------------------------------------------------------------- */

/* tabled links [--db PATH]: prints <db>.links, which `tabled serve` writes at start-up (issue 15
 * item 10). Returns 0, or 1 when there is no such file yet. */
static int cmd_links(int argc, char **argv)
{
    cli_args a;
    int rc = cli_parse("links", USAGE_LINKS, argc, argv, 0, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    const char *db = a.db ? a.db : "tabled.db";
    char path[4096];
    if (snprintf(path, sizeof path, "%s.links", db) >= (int)sizeof path) {
        fprintf(stderr, "tabled links: the database path is too long\n");
        return EXIT_USAGE;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "tabled links: no links for %s yet: start tabled serve --db %s first\n", db,
                db);
        return 1;
    }
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, n, stdout);
    fclose(f);
    return 0;
}

static int cmd_replay(int argc, char **argv)
{
    cli_args a;
    int rc = cli_parse("replay", USAGE_REPLAY, argc, argv, CLI_CAMPAIGN | CLI_FROM_ZERO, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    const char *db = a.db, *only = a.campaign;
    int from_zero = a.from_zero;
    if (!db)
        return usage_error("replay", "--db PATH is required");
    store *st;
    tb_err err = {0};
    json_t *ids = NULL;
    /* never create an empty database where one was meant to be read (issue 27) */
    if (store_preflight(db, STORE_PREFLIGHT_MUST_EXIST, &err)) {
        fprintf(stderr, "tabled replay: %s\n", err.msg);
        return EXIT_REFUSED;
    }
    rc = 1;
    if (store_open_reader(db, &st, &err)) {
        fprintf(stderr, "tabled replay: %s\n", err.msg);
        return 1;
    }
    if (store_campaign_ids(st, &ids, &err))
        goto out;
    size_t i;
    json_t *v;
    json_array_foreach(ids, i, v)
    {
        const char *id = json_string_value(v);
        if (only && strcmp(only, id) != 0)
            continue;
        json_t *state;
        int64_t seq;
        if (store_campaign_load(st, id, from_zero, &state, &seq, &err))
            goto out;
        json_t *line =
            json_pack("{s:s, s:I, s:o}", "campaign", id, "seq", (json_int_t)seq, "state", state);
        char *text = json_dumps(line, JSON_COMPACT | JSON_SORT_KEYS);
        puts(text);
        free(text);
        json_decref(line);
    }
    rc = 0;
out:
    if (rc)
        fprintf(stderr, "tabled replay: %s\n", err.msg);
    json_decref(ids);
    store_close(st);
    return rc;
}

int main(int argc, char **argv)
{
    jsonalloc_install(); /* before any JSON value: the commands build and free thousands */
    store_process_init(); /* before any SQLite call */
    if (argc < 2) {
        fputs(USAGE, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "serve") == 0)
        return cmd_serve(argc - 1, argv + 1);
    if (strcmp(cmd, "roll") == 0)
        return cli_roll_main(argc - 1, argv + 1);
    if (strcmp(cmd, "links") == 0)
        return cmd_links(argc - 1, argv + 1);
    if (strcmp(cmd, "replay") == 0)
        return cmd_replay(argc - 1, argv + 1);
    if (strcmp(cmd, "backup") == 0)
        return cli_backup_main(argc - 1, argv + 1);
    if (strcmp(cmd, "export") == 0)
        return cli_export_main(argc - 1, argv + 1);
    if (strcmp(cmd, "import") == 0)
        return cli_import_main(argc - 1, argv + 1);
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0 || strcmp(cmd, "-V") == 0) {
        printf("tabled %s\n", TABLED_VERSION);
        return 0;
    }
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(USAGE, stdout);
        return 0;
    }
    fprintf(stderr, "tabled: unknown command '%s'\n", cmd);
    fputs(USAGE, stderr);
    return EXIT_USAGE;
}
