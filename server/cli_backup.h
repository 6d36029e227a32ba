/*
 * cli_backup.h — `tabled backup`, `tabled export` and `tabled import`: copies of a database and
 * of one campaign, from a shell (storage/backup.h does the work).
 *
 *   tabled backup [--db PATH] DEST          a complete, checked copy; works while a server runs
 *   tabled export [--db PATH] --campaign ID [--out FILE]   one campaign as JSON (stdout default)
 *   tabled import [--db PATH] FILE          adds an exported campaign ("-" reads stdin)
 *
 * Each takes argv[0] = its own name and returns the process exit code: 0, 1 when the work
 * failed (message on stderr), 2 for a usage error, 3 when the database is refused (missing for
 * export, damaged: storage/preflight.h). --help prints the command's usage.
 */
#ifndef TABLED_CLI_BACKUP_H
#define TABLED_CLI_BACKUP_H

/* The options of the commands that read a database, with getopt_long ("--db PATH" or
 * "--db=PATH"): --db PATH (NULL when not given), and as `want` says --campaign ID, --out FILE,
 * --from-zero and one positional argument; --help prints `usage`. Returns 0, -1 after --help, or
 * 2 after printing the usage error (for `tabled cmd`). */
typedef struct cli_args {
    const char *db, *campaign, *out, *pos;
    int from_zero;
} cli_args;
enum { CLI_CAMPAIGN = 1, CLI_OUT = 2, CLI_FROM_ZERO = 4, CLI_POSITIONAL = 8 };
int cli_parse(const char *cmd, const char *usage, int argc, char **argv, int want, cli_args *a);

int cli_backup_main(int argc, char **argv);
int cli_export_main(int argc, char **argv);
int cli_import_main(int argc, char **argv);

#endif
