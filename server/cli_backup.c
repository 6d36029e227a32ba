#include "cli_backup.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backup.h"
#include "store.h"

/* Splits argv into --db/--campaign/--out values and at most one positional argument. Returns 0,
 * or 2 after printing the usage error. */
typedef struct cli_args {
    const char *db, *campaign, *out, *pos;
} cli_args;

static int cli__parse(const char *cmd, int argc, char **argv, int want_campaign, cli_args *a)
{
    a->db = "tabled.db";
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--db") == 0 && v) {
            a->db = v;
            i++;
        } else if (want_campaign && strcmp(argv[i], "--campaign") == 0 && v) {
            a->campaign = v;
            i++;
        } else if (want_campaign && strcmp(argv[i], "--out") == 0 && v) {
            a->out = v;
            i++;
        } else if (argv[i][0] == '-' && strcmp(argv[i], "-") != 0) {
            fprintf(stderr, "tabled %s: unknown option %s (or it needs a value)\n", cmd, argv[i]);
            return 2;
        } else if (!a->pos) {
            a->pos = argv[i];
        } else {
            fprintf(stderr, "tabled %s: unexpected argument %s\n", cmd, argv[i]);
            return 2;
        }
    }
    return 0;
}

int cli_backup_main(int argc, char **argv)
{
    cli_args a = {0};
    if (cli__parse("backup", argc, argv, 0, &a))
        return 2;
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
    if (cli__parse("export", argc, argv, 1, &a))
        return 2;
    if (!a.campaign || a.pos) {
        fprintf(stderr,
                "tabled export: usage: tabled export [--db PATH] --campaign ID [--out FILE]\n");
        return 2;
    }
    tb_err err = {0};
    store *st = NULL;
    json_t *doc = NULL;
    int rc = 1;
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
    if (cli__parse("import", argc, argv, 0, &a))
        return 2;
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
    if (store_open(a.db, 0, &st, &err) || store_import_campaign(st, doc, &err)) {
        fprintf(stderr, "tabled import: %s\n", err.msg);
        goto out;
    }
    printf("imported campaign %s (%zu events) into %s; a running server loads it at its next "
           "start\n",
           json_string_value(json_object_get(json_object_get(doc, "campaign"), "id")),
           json_array_size(json_object_get(doc, "events")), a.db);
    rc = 0;
out:
    json_decref(doc);
    store_close(st);
    return rc;
}
