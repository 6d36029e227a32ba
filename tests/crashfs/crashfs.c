/*
 * crashfs.c — an LD_PRELOAD shim that simulates a power loss for crash-consistency tests
 * (tests/integration/crash.test.mjs), in the spirit of SQLite's own crash tests.
 *
 * It watches the database $CRASHFS_MATCH (the host file) and its campaign files
 * ($CRASHFS_MATCH.campaigns/<id>.db), each with its -wal and -journal; never the -shm, which
 * SQLite rebuilds on open. Before each write to them it saves
 * what the write overwrites and the file's size; an fsync/fdatasync of a file forgets what was
 * saved for it: that much is on the disk. When the $CRASHFS_AFTER-th write comes, it does not
 * happen: instead every write not yet synced is undone, newest first (so each file is exactly as
 * it was at its last sync — the worst a power loss can do to data the OS had not written), a line
 * is appended to $CRASHFS_LOG, and the process kills itself with SIGKILL.
 *
 * Test-only code: not linked into tabled. Thread-safe through one mutex (SQLite writes from the
 * loop thread only, but libuv workers exist).
 */
#undef _FILE_OFFSET_BITS /* define both open and open64, pwrite and pwrite64 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define MAX_FDS 4096

typedef struct undo {
    char *path;
    dev_t dev;
    ino_t ino;
    off_t off;
    size_t len; /* bytes of old data (may be less than the write: past the old end) */
    off_t old_size;
    unsigned char *old;
    struct undo *prev;
} undo;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static char *tracked[MAX_FDS]; /* path of a watched fd, or NULL */
static undo *last;             /* newest unsynced write */
static long writes, crash_after = -1;
static const char *match;
static size_t match_len;

static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_pread)(int, void *, size_t, off_t);
static int (*real_open)(const char *, int, ...);
static int (*real_close)(int);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static int (*real_ftruncate)(int, off_t);

__attribute__((constructor)) static void crashfs_init(void)
{
    real_pwrite = (ssize_t(*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite64");
    real_write = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    real_pread = (ssize_t(*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread64");
    real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open64");
    real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
    real_fsync = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    real_fdatasync = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    real_ftruncate = (int (*)(int, off_t))dlsym(RTLD_NEXT, "ftruncate64");
    match = getenv("CRASHFS_MATCH");
    match_len = match ? strlen(match) : 0;
    const char *after = getenv("CRASHFS_AFTER");
    if (after && *after)
        crash_after = atol(after);
}

/* The database file rest names after the match: "" (the file itself), "-wal", "-journal". */
static int db_part(const char *rest)
{
    return !*rest || strcmp(rest, "-wal") == 0 || strcmp(rest, "-journal") == 0;
}

/* The host file ($CRASHFS_MATCH) and every campaign file beside it ($CRASHFS_MATCH.campaigns/
 * <id>.db), each with its -wal and -journal. */
static int watched_path(const char *path)
{
    if (!match_len || !path || strncmp(path, match, match_len) != 0)
        return 0;
    const char *rest = path + match_len;
    if (strncmp(rest, ".campaigns/", 11) == 0) {
        const char *dot = strstr(rest + 11, ".db");
        return dot && !strchr(rest + 11, '/') && db_part(dot + 3);
    }
    return db_part(rest);
}

static void note_open(int fd, const char *path)
{
    if (fd < 0 || fd >= MAX_FDS || !watched_path(path))
        return;
    pthread_mutex_lock(&mu);
    free(tracked[fd]);
    tracked[fd] = strdup(path);
    pthread_mutex_unlock(&mu);
}

/* The power goes out: undo every unsynced write, newest first, then die. Called with mu held. */
static void power_loss(void)
{
    long n = 0;
    size_t bytes = 0;
    for (undo *u = last; u; u = u->prev) {
        int fd = real_open(u->path, O_WRONLY);
        if (fd < 0)
            continue;
        if (u->len)
            real_pwrite(fd, u->old, u->len, u->off);
        real_ftruncate(fd, u->old_size);
        real_close(fd);
        n++;
        bytes += u->len;
    }
    const char *log = getenv("CRASHFS_LOG");
    if (log) {
        int fd = real_open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            char line[160];
            int k = snprintf(line, sizeof line,
                             "power loss at write %ld: %ld unsynced writes undone\n", writes, n);
            real_write(fd, line, (size_t)k);
            real_close(fd);
        }
    }
    (void)bytes;
    kill(getpid(), SIGKILL);
    for (;;)
        pause();
}

/* Before a write of len bytes at off to fd: counts it (maybe the power goes out instead) and
 * saves what it overwrites. Returns 0. */
static void before_write(int fd, off_t off, size_t len)
{
    if (fd < 0 || fd >= MAX_FDS)
        return;
    pthread_mutex_lock(&mu);
    if (!tracked[fd]) {
        pthread_mutex_unlock(&mu);
        return;
    }
    writes++;
    if (crash_after >= 0 && writes >= crash_after)
        power_loss();
    struct stat sb;
    if (fstat(fd, &sb) == 0) {
        undo *u = calloc(1, sizeof *u);
        u->path = strdup(tracked[fd]);
        u->dev = sb.st_dev;
        u->ino = sb.st_ino;
        u->off = off;
        u->old_size = sb.st_size;
        u->old = malloc(len ? len : 1);
        ssize_t k = real_pread(fd, u->old, len, off);
        u->len = k > 0 ? (size_t)k : 0;
        u->prev = last;
        last = u;
    }
    pthread_mutex_unlock(&mu);
}

/* A sync of fd's file: what was written to it is on the disk now. */
static void synced(int fd)
{
    struct stat sb;
    if (fd < 0 || fd >= MAX_FDS || fstat(fd, &sb) != 0)
        return;
    pthread_mutex_lock(&mu);
    for (undo **pp = &last; *pp;) {
        undo *u = *pp;
        if (u->dev == sb.st_dev && u->ino == sb.st_ino) {
            *pp = u->prev;
            free(u->path);
            free(u->old);
            free(u);
        } else {
            pp = &u->prev;
        }
    }
    pthread_mutex_unlock(&mu);
}

static int open_common(const char *path, int flags, va_list ap)
{
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE))
        mode = (mode_t)va_arg(ap, int);
    int fd = real_open(path, flags, mode);
    note_open(fd, path);
    return fd;
}

int open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int fd = open_common(path, flags, ap);
    va_end(ap);
    return fd;
}

int open64(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int fd = open_common(path, flags, ap);
    va_end(ap);
    return fd;
}

int close(int fd)
{
    if (fd >= 0 && fd < MAX_FDS) {
        pthread_mutex_lock(&mu);
        free(tracked[fd]);
        tracked[fd] = NULL;
        pthread_mutex_unlock(&mu);
    }
    return real_close(fd);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
    before_write(fd, off, n);
    return real_pwrite(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off)
{
    before_write(fd, off, n);
    return real_pwrite(fd, buf, n, off);
}

ssize_t write(int fd, const void *buf, size_t n)
{
    if (fd >= 0 && fd < MAX_FDS && tracked[fd])
        before_write(fd, lseek(fd, 0, SEEK_CUR), n);
    return real_write(fd, buf, n);
}

int fsync(int fd)
{
    int r = real_fsync(fd);
    if (r == 0)
        synced(fd);
    return r;
}

int fdatasync(int fd)
{
    int r = real_fdatasync(fd);
    if (r == 0)
        synced(fd);
    return r;
}
