#include "log.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* 1 when stderr is the journal stream systemd gave us ($JOURNAL_STREAM = "<dev>:<inode>" of it). */
static int log__to_journal(void)
{
    static int known = 0, journal = 0;
    if (known)
        return journal;
    known = 1;
    const char *js = getenv("JOURNAL_STREAM");
    unsigned long long dev, ino;
    struct stat st;
    if (js && sscanf(js, "%llu:%llu", &dev, &ino) == 2 && fstat(STDERR_FILENO, &st) == 0)
        journal = (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
    return journal;
}

static void tb_log_v(enum tb_log_prio prio, const char *suffix, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

void tb_log(enum tb_log_prio prio, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tb_log_v(prio, "", fmt, ap);
    va_end(ap);
}

void tb_log_limited(enum tb_log_kind kind, enum tb_log_prio prio, const char *fmt, ...)
{
    static int64_t last_ms[TB_LOG_KIND__COUNT];
    static long dropped[TB_LOG_KIND__COUNT];
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    int64_t now = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
    if (last_ms[kind] && now - last_ms[kind] < 1000) {
        dropped[kind]++;
        return;
    }
    char suffix[64] = "";
    if (dropped[kind])
        snprintf(suffix, sizeof suffix, " (and %ld more like it in the last second)",
                 dropped[kind]);
    last_ms[kind] = now;
    dropped[kind] = 0;
    va_list ap;
    va_start(ap, fmt);
    tb_log_v(prio, suffix, fmt, ap);
    va_end(ap);
}

static void tb_log_v(enum tb_log_prio prio, const char *suffix, const char *fmt, va_list ap)
{
    char line[1024];
    int n = log__to_journal() ? snprintf(line, sizeof line, "<%d>tabled: ", (int)prio)
                              : snprintf(line, sizeof line, "tabled: ");
    size_t avail = sizeof line - (size_t)n - 1; /* room is kept for the newline */
    int m = vsnprintf(line + n, avail, fmt, ap);
    size_t len = (size_t)n + (m < 0 ? 0 : (size_t)m < avail ? (size_t)m : avail - 1);
    m = snprintf(line + len, sizeof line - len - 1, "%s", suffix);
    len += m < 0 ? 0 : (size_t)m < sizeof line - len - 1 ? (size_t)m : sizeof line - len - 2;
    line[len++] = '\n';
    fwrite(line, 1, len, stderr);
    fflush(stderr);
}
