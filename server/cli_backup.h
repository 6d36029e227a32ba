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

int cli_backup_main(int argc, char **argv);
int cli_export_main(int argc, char **argv);
int cli_import_main(int argc, char **argv);

#endif
