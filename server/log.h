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

/* Refusals a flood can repeat thousands of times a second: each kind is logged at most once a
 * second, with the number of lines left out since ("and 312 more like it"). */
enum tb_log_kind {
    TB_LOG_KIND_FD_RESERVE,
    TB_LOG_KIND_TCP_PER_ADDRESS,
    TB_LOG_KIND_WS_PER_ADDRESS,
    TB_LOG_KIND_FULL,
    TB_LOG_KIND_FOREIGN,
    TB_LOG_KIND_JOIN,
    TB_LOG_KIND_SEAT,
    TB_LOG_KIND__COUNT
};
void tb_log_limited(enum tb_log_kind kind, enum tb_log_prio prio, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
