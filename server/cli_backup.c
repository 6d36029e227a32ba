#include "cli_backup.h"

#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backup.h"
#include "preflight.h"
#include "store.h"

static const char USAGE_BACKUP[] =
    "usage: tabled backup [--db PATH] DEST\n"
    "Writes a complete, checked copy of the database (default ./tabled.db) to DEST, also while\n"
    "a server runs; DEST must not exist. tabled serve --db DEST starts from it.\n";
static const char USAGE_EXPORT[] =
    "usage: tabled export [--db PATH] --campaign ID [--out FILE]\n"
    "One campaign as JSON (to standard output, or FILE), with its whole event log and its\n"
    "seats' token hashes (never a token): every seat's link keeps working where it is imported.\n"
    "The database must exist (exit 3 otherwise).\n";
static const char USAGE_IMPORT[] =
    "usage: tabled import [--db PATH] FILE\n"
    "Adds an exported campaign (FILE, or - for standard input) to the database, which is made\n"
    "when missing. A server running on it serves the campaign at once (its first hello loads\n"
    "it): the second half of a live move (README, \"Moving a campaign\").\n";

int cli_parse(const char *cmd, const char *usage, int argc, char **argv, int want, cli_args *a)
{
    static const struct option LONG[] = {
        {"db", required_argument, NULL, 'd'},  {"campaign", required_argument, NULL, 'c'},
        {"out", required_argument, NULL, 'o'}, {"from-zero", no_argument, NULL, 'z'},
        {"help", no_argument, NULL, 'h'},      {NULL, 0, NULL, 0}};
    memset(a, 0, sizeof *a);
    int opt;
    optind = 0; /* GNU getopt: start over */
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":h", LONG, NULL)) != -1) {
        if (opt == 'h') {
            fputs(usage, stdout);
            return -1;
        } else if (opt == 'd') {
            a->db = optarg;
        } else if ((want & CLI_CAMPAIGN) && opt == 'c') {
            a->campaign = optarg;
        } else if ((want & CLI_OUT) && opt == 'o') {
            a->out = optarg;
        } else if ((want & CLI_FROM_ZERO) && opt == 'z') {
            a->from_zero = 1;
        } else {
            fprintf(stderr, "tabled %s: %s %s (tabled %s --help)\n", cmd,
                    opt == ':' ? "a value is missing after" : "unknown option", argv[optind - 1],
                    cmd);
            return 2;
        }
    }
    for (; optind < argc; optind++) {
        if (a->pos || !(want & CLI_POSITIONAL)) {
            fprintf(stderr, "tabled %s: unexpected argument %s (tabled %s --help)\n", cmd,
                    argv[optind], cmd);
            return 2;
        }
        a->pos = argv[optind];
    }
    return 0;
}

int cli_backup_main(int argc, char **argv)
{
    cli_args a = {0};
    int rc = cli_parse("backup", USAGE_BACKUP, argc, argv, CLI_POSITIONAL, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (!a.db)
        a.db = "tabled.db";
    if (!a.pos) {
        fprintf(stderr, "tabled backup: give the file to write: tabled backup [--db PATH] DEST\n");
        return 2;
    }
    tb_err err = {0};
    if (store_backup(a.db, a.pos, &err)) {
        fprintf(stderr, "tabled backup: %s\n", err.msg);
        return 1;
    }
    printf("backup of %s written to %s\n", a.db, a.pos);
    return 0;
}

int cli_export_main(int argc, char **argv)
{
    cli_args a = {0};
    int prc = cli_parse("export", USAGE_EXPORT, argc, argv, CLI_CAMPAIGN | CLI_OUT, &a);
    if (prc)
        return prc < 0 ? 0 : prc;
    if (!a.db)
        a.db = "tabled.db";
    if (!a.campaign || a.pos) {
        fprintf(stderr,
                "tabled export: usage: tabled export [--db PATH] --campaign ID [--out FILE]\n");
        return 2;
    }
    tb_err err = {0};
    store *st = NULL;
    json_t *doc = NULL;
    int rc = 1;
    /* never create an empty database where one was meant to be read (issue 27) */
    if (store_preflight(a.db, STORE_PREFLIGHT_MUST_EXIST, &err)) {
        fprintf(stderr, "tabled export: %s\n", err.msg);
        return 3;
    }
    if (store_open_reader(a.db, &st, &err) || store_export_campaign(st, a.campaign, &doc, &err)) {
        fprintf(stderr, "tabled export: %s\n", err.msg);
        goto out;
    }
    if (a.out) {
        /* Written whole under a temporary name, then renamed: never half a file. */
        size_t n = strlen(a.out) + 8;
        char *tmp = xmalloc(n);
        snprintf(tmp, n, "%s.tmp", a.out);
        if (json_dump_file(doc, tmp, JSON_COMPACT) != 0 || rename(tmp, a.out) != 0) {
            fprintf(stderr, "tabled export: cannot write %s\n", a.out);
            remove(tmp);
            free(tmp);
            goto out;
        }
        free(tmp);
        fprintf(stderr, "campaign %s exported to %s (%zu events)\n", a.campaign, a.out,
                json_array_size(json_object_get(doc, "events")));
    } else if (json_dumpf(doc, stdout, JSON_COMPACT) != 0 || fputc('\n', stdout) == EOF) {
        fprintf(stderr, "tabled export: cannot write to standard output\n");
        goto out;
    }
    rc = 0;
out:
    json_decref(doc);
    store_close(st);
    return rc;
}

int cli_import_main(int argc, char **argv)
{
    cli_args a = {0};
    int prc = cli_parse("import", USAGE_IMPORT, argc, argv, CLI_POSITIONAL, &a);
    if (prc)
        return prc < 0 ? 0 : prc;
    if (!a.db)
        a.db = "tabled.db";
    if (!a.pos) {
        fprintf(stderr, "tabled import: usage: tabled import [--db PATH] FILE (- for stdin)\n");
        return 2;
    }
    json_error_t jerr;
    json_t *doc =
        strcmp(a.pos, "-") == 0 ? json_loadf(stdin, 0, &jerr) : json_load_file(a.pos, 0, &jerr);
    if (!doc) {
        fprintf(stderr, "tabled import: %s is not JSON (line %d: %s)\n", a.pos, jerr.line,
                jerr.text);
        return 1;
    }
    tb_err err = {0};
    store *st = NULL;
    int rc = 1;
    if (store_preflight(a.db, 0, &err)) {
        fprintf(stderr, "tabled import: %s\n", err.msg);
        json_decref(doc);
        return 3;
    }
    if (store_open(a.db, 0, &st, &err) || store_import_campaign(st, doc, &err)) {
        fprintf(stderr, "tabled import: %s\n", err.msg);
        goto out;
    }
    printf("imported campaign %s (%zu events) into %s; a server running on it serves it at "
           "once\n",
           json_string_value(json_object_get(json_object_get(doc, "campaign"), "id")),
           json_array_size(json_object_get(doc, "events")), a.db);
    rc = 0;
out:
    json_decref(doc);
    store_close(st);
    return rc;
}
