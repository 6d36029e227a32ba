/*
 * main.c — the `tabled` command: serve, roll, replay. Parses the command line and hands off.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_backup.h"
#include "cli_roll.h"
#include "config.h"
#include "serve.h"
#include "store.h"

#ifndef TABLED_WEB_DIR
#define TABLED_WEB_DIR "web-static"
#endif

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage:\n"
        "  tabled serve [--port 7777] [--bind ADDR] [--db PATH] [--web DIR] [--sync normal|full]\n"
        "               [--allow-origin ORIGIN]... [--allow-host NAME]... [--rate-limit N]\n"
        "               [--snapshot-every N]\n"
        "               [--max-message BYTES] [--seed N] [--test-clock MS]\n"
        "               [--max-connections N] [--hello-timeout S] [--idle-timeout S]\n"
        "               [--backup-every DURATION] [--backup-keep N] [--backup-dir DIR]\n"
        "  tabled serve --config FILE [flags...]\n"
        "  tabled roll SYSTEM CHECK [name=value ...] [--seed N] [--times N] [--json]\n"
        "  tabled roll dice EXPR [--seed N] [--times N] [--json]\n"
        "  tabled links [--db PATH]\n"
        "  tabled replay --db PATH [--campaign ID] [--from-zero]\n"
        "  tabled backup [--db PATH] DEST\n"
        "  tabled export [--db PATH] --campaign ID [--out FILE]\n"
        "  tabled import [--db PATH] FILE\n"
        "  tabled --version\n"
        "\n"
        "serve: runs the table server; prints the console link and the first campaign's GM and\n"
        "       join links at start-up (every campaign's: tabled links).\n"
        "  --config FILE            reads flags from FILE, one \"name = value\" a line (port =\n"
        "                           7777); flags given on the command line as well override it\n"
        "  --allow-host NAME        a host name the server answers to besides localhost, its\n"
        "                           own addresses and host name (repeatable; DNS rebinding)\n"
        "  --max-connections N      WebSockets at most (default: the open-file limit, raised to\n"
        "                           its hard limit, less 64); the last places are kept for the GM\n"
        "  --hello-timeout S        seconds a new socket has to say hello or join (default 10)\n"
        "  --idle-timeout S         seconds of silence before a socket is closed (default 300;\n"
        "                           the web client pings every 20 s)\n"
        "  --backup-every DURATION  a rolling backup every 30s / 15m / 6h (off by default),\n"
        "                           written by a worker thread into --backup-dir (default\n"
        "                           <db>.backups/) as tabled-<UTC time>.db\n"
        "  --backup-keep N          rolling backups kept, the oldest deleted first (default 10)\n"
        "  --test-clock MS          tests: event n is stamped MS + n seconds, not the wall clock\n"
        "links: every campaign's GM and join links, as the last start-up of tabled serve with\n"
        "       this database wrote them (<db>.links).\n"
        "roll: rolls the server's dice engine from a shell.\n"
        "replay: rebuilds campaign state from the database (snapshot + event log, or the\n"
        "        whole log with --from-zero) and prints it as JSON, one campaign per line.\n"
        "backup: writes a complete, checked copy of the database (also while a server runs);\n"
        "        `tabled serve --db DEST` starts from it.\n"
        "export: one campaign as JSON, with its whole event log and its seats' token hashes\n"
        "        (never a token): every seat's link keeps working on the server it moves to.\n"
        "import: adds an exported campaign to a database (a running server loads it at its\n"
        "        next start).\n");
}

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

static int cmd_serve(int argc, char **argv)
{
    serve_opts o;
    serve_opts_default(&o);
    o.web = TABLED_WEB_DIR;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        unsigned long long n;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (!v) {
            fprintf(stderr, "tabled serve: %s needs a value\n", a);
            return 2;
        }
        i++;
        if (strcmp(a, "--port") == 0) {
            if (parse_u64(v, 65535, &n)) {
                fprintf(stderr, "tabled serve: --port must be 0..65535\n");
                return 2;
            }
            o.port = (int)n;
        } else if (strcmp(a, "--bind") == 0) {
            o.bind = v;
        } else if (strcmp(a, "--db") == 0) {
            o.db = v;
        } else if (strcmp(a, "--web") == 0) {
            o.web = v;
        } else if (strcmp(a, "--sync") == 0) {
            if (strcmp(v, "full") && strcmp(v, "normal")) {
                fprintf(stderr, "tabled serve: --sync must be normal or full\n");
                return 2;
            }
            o.sync_full = strcmp(v, "full") == 0;
        } else if (strcmp(a, "--allow-origin") == 0) {
            if (o.n_allow_origins >= SERVE_MAX_ORIGINS) {
                fprintf(stderr, "tabled serve: at most %d --allow-origin\n", SERVE_MAX_ORIGINS);
                return 2;
            }
            o.allow_origins[o.n_allow_origins++] = v;
        } else if (strcmp(a, "--allow-host") == 0) {
            if (o.n_allow_hosts >= SERVE_MAX_HOSTS) {
                fprintf(stderr, "tabled serve: at most %d --allow-host\n", SERVE_MAX_HOSTS);
                return 2;
            }
            o.allow_hosts[o.n_allow_hosts++] = v;
        } else if (strcmp(a, "--rate-limit") == 0) {
            if (parse_u64(v, 1000000, &n)) {
                fprintf(stderr, "tabled serve: --rate-limit must be 0 (off) to 1000000\n");
                return 2;
            }
            o.rate = (double)n;
        } else if (strcmp(a, "--snapshot-every") == 0) {
            if (parse_u64(v, 1000000, &n) || n == 0) {
                fprintf(stderr, "tabled serve: --snapshot-every must be 1 to 1000000\n");
                return 2;
            }
            o.snapshot_every = (int)n;
        } else if (strcmp(a, "--max-message") == 0) {
            if (parse_u64(v, 16 * 1024 * 1024, &n) || n < 1024) {
                fprintf(stderr, "tabled serve: --max-message must be 1024 to 16777216\n");
                return 2;
            }
            o.max_message = (size_t)n;
        } else if (strcmp(a, "--max-connections") == 0) {
            if (parse_u64(v, 1000000, &n) || n < 4) {
                fprintf(stderr, "tabled serve: --max-connections must be 4 to 1000000\n");
                return 2;
            }
            o.max_connections = (int)n;
        } else if (strcmp(a, "--hello-timeout") == 0 || strcmp(a, "--idle-timeout") == 0) {
            char *end;
            double secs = strtod(v, &end);
            if (*end || !(secs >= 0.1 && secs <= 86400)) {
                fprintf(stderr, "tabled serve: %s takes seconds, 0.1 to 86400\n", a);
                return 2;
            }
            if (a[2] == 'h')
                o.hello_timeout = secs;
            else
                o.idle_timeout = secs;
        } else if (strcmp(a, "--backup-every") == 0) {
            if (parse_duration_ms(v, &o.backup_every_ms)) {
                fprintf(stderr, "tabled serve: --backup-every takes a duration: 30s, 15m (the "
                                "default unit), 6h\n");
                return 2;
            }
        } else if (strcmp(a, "--backup-keep") == 0) {
            if (parse_u64(v, 100000, &n) || n == 0) {
                fprintf(stderr, "tabled serve: --backup-keep must be 1 to 100000\n");
                return 2;
            }
            o.backup_keep = (int)n;
        } else if (strcmp(a, "--backup-dir") == 0) {
            o.backup_dir = v;
        } else if (strcmp(a, "--seed") == 0) {
            if (parse_u64(v, UINT64_MAX, &n)) {
                fprintf(stderr, "tabled serve: --seed must be a non-negative integer\n");
                return 2;
            }
            o.has_seed = 1;
            o.seed = n;
        } else if (strcmp(a, "--test-clock") == 0) {
            /* tests that compare every byte of two runs: event n's time is MS + n seconds */
            if (parse_u64(v, 4102444800000ull, &n) || n == 0) {
                fprintf(stderr, "tabled serve: --test-clock must be 1 to 4102444800000 (ms)\n");
                return 2;
            }
            o.test_clock_ms = (int64_t)n;
        } else {
            fprintf(stderr, "tabled serve: unknown option %s\n", a);
            usage(stderr);
            return 2;
        }
    }
    return serve_run(&o);
}

/* tabled links [--db PATH]: prints <db>.links, which `tabled serve` writes at start-up (issue 15
 * item 10). Returns 0, or 1 when there is no such file yet. */
static int cmd_links(int argc, char **argv)
{
    const char *db = "tabled.db";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--db") == 0 && i + 1 < argc) {
            db = argv[++i];
        } else {
            fprintf(stderr, "tabled links: unexpected argument %s\n", argv[i]);
            return 2;
        }
    }
    char path[4096];
    if (snprintf(path, sizeof path, "%s.links", db) >= (int)sizeof path) {
        fprintf(stderr, "tabled links: the database path is too long\n");
        return 2;
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
    const char *db = NULL, *only = NULL;
    int from_zero = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--db") == 0 && i + 1 < argc)
            db = argv[++i];
        else if (strcmp(argv[i], "--campaign") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--from-zero") == 0)
            from_zero = 1;
        else {
            fprintf(stderr, "tabled replay: unexpected argument %s\n", argv[i]);
            return 2;
        }
    }
    if (!db) {
        fprintf(stderr, "tabled replay: --db PATH is required\n");
        return 2;
    }
    store *st;
    tb_err err = {0};
    json_t *ids = NULL;
    int rc = 1;
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
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "serve") == 0) {
        int n;
        char **args;
        if (config_expand("tabled serve", argc - 1, argv + 1, &n, &args))
            return 2;
        int rc = cmd_serve(n, args);
        config_free(args);
        return rc;
    }
    if (strcmp(argv[1], "roll") == 0)
        return cli_roll_main(argc - 1, argv + 1);
    if (strcmp(argv[1], "links") == 0)
        return cmd_links(argc - 1, argv + 1);
    if (strcmp(argv[1], "replay") == 0)
        return cmd_replay(argc - 1, argv + 1);
    if (strcmp(argv[1], "backup") == 0)
        return cli_backup_main(argc - 1, argv + 1);
    if (strcmp(argv[1], "export") == 0)
        return cli_export_main(argc - 1, argv + 1);
    if (strcmp(argv[1], "import") == 0)
        return cli_import_main(argc - 1, argv + 1);
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("tabled %s\n", TABLED_VERSION);
        return 0;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "tabled: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
