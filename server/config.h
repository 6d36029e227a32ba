/*
 * config.h — `tabled serve --config FILE`: a service's flags in a file instead of a long command
 * line. Generic on purpose: each line names one long flag of the command (without its "--"), so
 * every flag `serve` has, now or later, can be set in the file with no code here, and is checked
 * by the same parser as on the command line.
 *
 *   # comments and blank lines are skipped
 *   port = 7777
 *   db = /var/lib/tabled/tabled.db
 *   allow-origin = https://play.example.org     <- a repeatable flag: one line each
 *
 * The value is the rest of the line after "=", without surrounding blanks (no quoting: a value
 * may contain spaces and "#"). A line with a key and no "=" stands for a flag without a value.
 */
#ifndef TABLED_CONFIG_H
#define TABLED_CONFIG_H

/*
 * Expands "--config FILE" (or "--config=FILE") in argv[1..argc). Sets *out_argv to a new
 * NULL-terminated vector and *out_argc to its length: argv[0], then the file's options as "--key"
 * and "value" in file order, then the rest of the command line. A flag that is also given on the
 * command line is read after the file's, so a single-valued one overrides the file and a
 * repeatable one adds to it. Without --config the vector is a copy of argv.
 * Returns 0; or 2 after printing "<what>: FILE:LINE: reason" (or "<what>: reason") to stderr,
 * with *out_argv NULL. The caller owns the vector and its strings: free them with config_free.
 */
int config_expand(const char *what, int argc, char **argv, int *out_argc, char ***out_argv);

/* Frees a vector made by config_expand (NULL is fine). */
void config_free(char **argv);

#endif
