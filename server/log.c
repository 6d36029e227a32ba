#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
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

void tb_log(enum tb_log_prio prio, const char *fmt, ...)
{
    char line[1024];
    int n = log__to_journal() ? snprintf(line, sizeof line, "<%d>tabled: ", (int)prio)
                              : snprintf(line, sizeof line, "tabled: ");
    size_t avail = sizeof line - (size_t)n - 1; /* room is kept for the newline */
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(line + n, avail, fmt, ap);
    va_end(ap);
    size_t len = (size_t)n + (m < 0 ? 0 : (size_t)m < avail ? (size_t)m : avail - 1);
    line[len++] = '\n';
    fwrite(line, 1, len, stderr);
    fflush(stderr);
}
