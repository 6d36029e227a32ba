/*
 * cli_roll.h — `tabled roll SYSTEM CHECK [name=value ...] [--seed N] [--times N] [--json]`:
 * the server's dice engine (rules/system.h) from a shell.
 */
#ifndef TABLED_CLI_ROLL_H
#define TABLED_CLI_ROLL_H

/*
 * argv[0] is "roll". Parses the arguments, rolls the check --times times (default 1) with a
 * seeded generator (--seed N) or the CSPRNG (getrandom(2)), and prints one line per roll to
 * stdout: the human line, or with --json one compact JSON object. The dice system takes its
 * expression positionally: `tabled roll dice 4d6kh3`. Values are integers, parsed strictly,
 * except string parameters. Returns the process exit code: 0, or 2 after printing the error to
 * stderr (usage, unknown system/check/parameter, bad value, rule error).
 */
int cli_roll_main(int argc, char **argv);

#endif
