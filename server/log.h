/*
 * log.h — the server's own lines on stderr, each with its syslog priority.
 *
 * Under systemd, stderr is a stream into the journal; a line that starts with "<N>" (N a syslog
 * priority, sd-daemon(3)) is stored with that priority, so `journalctl -u tabled -p warning`
 * shows what needs the operator. The prefix is written only when stderr is that stream (systemd
 * names it in $JOURNAL_STREAM, systemd.exec(5)); on a terminal or in a test's pipe the lines read
 * as before: "tabled: <message>".
 */
#ifndef TABLED_LOG_H
#define TABLED_LOG_H

enum tb_log_prio {
    TB_LOG_ERR = 3,     /* the server cannot do its job (it stops, or commands fail) */
    TB_LOG_WARNING = 4, /* something was refused or degraded: a limit hit, a backup failed */
    TB_LOG_NOTICE = 5,  /* worth knowing: a signal, a reload */
    TB_LOG_INFO = 6,    /* routine: a backup written */
};

/* Writes "tabled: " + the formatted message + "\n" to stderr as one write. */
void tb_log(enum tb_log_prio prio, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
