/*
 * walvfs.c — the VFS the store's files are opened with: SQLite's own (unix) VFS, except that the
 * frames of a WAL commit go to the file in one write instead of two per frame.
 *
 * Why (issue 26, session 9): SQLite writes each WAL frame as two pwrite calls, its 24-byte header
 * and then its page at the next offset; a roll's COMMIT is one frame (a new leaf of the log: three;
 * a snapshot: a dozen), so half of a command's WAL syscalls were headers. Here a WAL frame's header
 * is held, its page joins it (SQLite issues the two back to back, walWriteOneFrame), and the held
 * run goes to the OS in one write when the page of a commit frame arrives (a frame whose header
 * carries the database's size: the last one of every COMMIT), when another frame might not fit in
 * one write of the unix VFS (WAL_WRITE_MAX), or before any other call on the file (a read, a sync,
 * a size, a lock, a write elsewhere, the close). So every frame of a transaction is with the OS
 * before its COMMIT returns, as with SQLite's own VFS: a kill -9 after an ack loses nothing, and
 * what a power loss leaves is what it could leave before (a frame written or not; a torn one fails
 * its checksum when the WAL is recovered). A failed write of the run fails the write of the page
 * that sent it, which fails the transaction as a failed page write did before.
 *
 * Everything else is the unix VFS's, called with its own vfs object: the locks, the shared memory
 * (so other processes — `tabled backup`, the sqlite3 shell — share the files as before) and every
 * file that is not a WAL (opened directly into the buffer SQLite gave, with the unix methods).
 */
#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "store_internal.h"

#define WAL_FRAME_HEADER 24 /* sqlite3 WAL format: a frame's header */
/* The unix VFS writes at most 0x1ffff bytes in one call (it masks the length: seekAndWriteFd), so a
 * run takes a new frame only while the largest frame (64 KiB page) still fits. */
#define WAL_WRITE_MAX 0x1ffff
#define WAL_FRAME_MAX (WAL_FRAME_HEADER + 65536)
#define WAL_RUN_MAP 0x20000 /* the run's mapping: WAL_WRITE_MAX, in whole pages */
#define WAL_RUN_KEEP 0x4000 /* the run's bytes kept in memory between runs (3 frames of 4 KiB) */

typedef struct walfile {
    sqlite3_file base;  /* pMethods: walfile_io */
    sqlite3_file *real; /* the unix VFS's file: the bytes right after this struct */
    /* the held run: run_len bytes that go at run_off, frames in order, the last one's page
     * missing when page_due (its header held) */
    unsigned char *run; /* WAL_WRITE_MAX bytes (wf_hold) */
    size_t run_len;
    sqlite3_int64 run_off;
    int page_due;
    int commit_due; /* the frame whose page is due is a commit frame */
} walfile;

static sqlite3_vfs walvfs;
static sqlite3_vfs *unixvfs;
static pthread_once_t walvfs_once = PTHREAD_ONCE_INIT;
static int walvfs_rc = SQLITE_ERROR;

#define REAL(f) (((walfile *)(f))->real)
#define RM(f) (REAL(f)->pMethods)

/* Writes the held run, in one call (before any other call on the file). */
static int wf_flush(sqlite3_file *f)
{
    walfile *w = (walfile *)f;
    if (!w->run_len)
        return SQLITE_OK;
    int n = (int)w->run_len;
    w->run_len = 0;
    w->page_due = 0;
    int rc = RM(f)->xWrite(w->real, w->run, n, w->run_off);
    if (n > WAL_RUN_KEEP) /* a long run (a snapshot): give its pages back, keep a frame's */
        madvise(w->run + WAL_RUN_KEEP, WAL_RUN_MAP - WAL_RUN_KEEP, MADV_DONTNEED);
    return rc;
}

/* The run's buffer: one anonymous mapping of WAL_RUN_MAP bytes per WAL file, made at its first
 * frame and unmapped at close, outside the heap (a buffer that grew with the largest commit in the
 * heap showed as +3 k malloc instructions per roll in callgrind: the allocator working around it);
 * only the pages a run touches become memory, and those past WAL_RUN_KEEP are given back after a
 * longer run (wf_flush): 16 KiB per open WAL between runs. */
static int wf_hold(walfile *w, const void *buf, int amt, sqlite3_int64 off)
{
    if (!w->run) {
        void *p =
            mmap(NULL, WAL_RUN_MAP, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return SQLITE_NOMEM;
        w->run = p;
    }
    if (!w->run_len)
        w->run_off = off;
    memcpy(w->run + w->run_len, buf, (size_t)amt);
    w->run_len += (size_t)amt;
    return SQLITE_OK;
}

/* A frame's header is held; its page joins it; the run goes to the OS with a commit frame's page
 * (so COMMIT returns with every frame written), before a frame that might not fit, or before any
 * other call on the file. */
static int wf_write(sqlite3_file *f, const void *buf, int amt, sqlite3_int64 off)
{
    walfile *w = (walfile *)f;
    int rc;
    if (w->page_due && off == w->run_off + (sqlite3_int64)w->run_len && amt > 0 &&
        amt <= WAL_FRAME_MAX - WAL_FRAME_HEADER) {
        if ((rc = wf_hold(w, buf, amt, off)) != SQLITE_OK)
            return rc;
        w->page_due = 0;
        return w->commit_due ? wf_flush(f) : SQLITE_OK;
    }
    if (amt == WAL_FRAME_HEADER && !w->page_due &&
        (!w->run_len || off == w->run_off + (sqlite3_int64)w->run_len)) {
        const unsigned char *h = buf; /* bytes 4-7: the database's size after a commit, else 0 */
        if (w->run_len + WAL_FRAME_MAX > WAL_WRITE_MAX && (rc = wf_flush(f)) != SQLITE_OK)
            return rc;
        if ((rc = wf_hold(w, buf, amt, off)) != SQLITE_OK)
            return rc;
        w->page_due = 1;
        w->commit_due = (h[4] | h[5] | h[6] | h[7]) != 0;
        return SQLITE_OK;
    }
    if ((rc = wf_flush(f)) != SQLITE_OK)
        return rc;
    return RM(f)->xWrite(w->real, buf, amt, off);
}

static int wf_close(sqlite3_file *f)
{
    walfile *w = (walfile *)f;
    int rc = wf_flush(f);
    int rc2 = RM(f)->xClose(w->real);
    if (w->run)
        munmap(w->run, WAL_RUN_MAP);
    w->run = NULL;
    return rc != SQLITE_OK ? rc : rc2;
}

/* Every other method: the held run first, then the unix VFS's. */
#define FLUSHED(call)                                                                              \
    do {                                                                                           \
        int rc_ = wf_flush(f);                                                                     \
        return rc_ != SQLITE_OK ? rc_ : (call);                                                    \
    } while (0)

static int wf_read(sqlite3_file *f, void *buf, int amt, sqlite3_int64 off)
{
    FLUSHED(RM(f)->xRead(REAL(f), buf, amt, off));
}
static int wf_truncate(sqlite3_file *f, sqlite3_int64 size)
{
    FLUSHED(RM(f)->xTruncate(REAL(f), size));
}
static int wf_sync(sqlite3_file *f, int flags)
{
    FLUSHED(RM(f)->xSync(REAL(f), flags));
}
static int wf_size(sqlite3_file *f, sqlite3_int64 *size)
{
    FLUSHED(RM(f)->xFileSize(REAL(f), size));
}
static int wf_lock(sqlite3_file *f, int level)
{
    FLUSHED(RM(f)->xLock(REAL(f), level));
}
static int wf_unlock(sqlite3_file *f, int level)
{
    FLUSHED(RM(f)->xUnlock(REAL(f), level));
}
static int wf_reserved(sqlite3_file *f, int *out)
{
    FLUSHED(RM(f)->xCheckReservedLock(REAL(f), out));
}
static int wf_control(sqlite3_file *f, int op, void *arg)
{
    FLUSHED(RM(f)->xFileControl(REAL(f), op, arg));
}
static int wf_sector(sqlite3_file *f)
{
    return RM(f)->xSectorSize(REAL(f));
}
static int wf_device(sqlite3_file *f)
{
    return RM(f)->xDeviceCharacteristics(REAL(f));
}
static int wf_shm_map(sqlite3_file *f, int pg, int pgsz, int extend, void volatile **p)
{
    FLUSHED(RM(f)->xShmMap(REAL(f), pg, pgsz, extend, p));
}
static int wf_shm_lock(sqlite3_file *f, int offset, int n, int flags)
{
    FLUSHED(RM(f)->xShmLock(REAL(f), offset, n, flags));
}
static void wf_shm_barrier(sqlite3_file *f)
{
    wf_flush(f);
    RM(f)->xShmBarrier(REAL(f));
}
static int wf_shm_unmap(sqlite3_file *f, int del)
{
    FLUSHED(RM(f)->xShmUnmap(REAL(f), del));
}
static int wf_fetch(sqlite3_file *f, sqlite3_int64 off, int amt, void **p)
{
    FLUSHED(RM(f)->xFetch(REAL(f), off, amt, p));
}
static int wf_unfetch(sqlite3_file *f, sqlite3_int64 off, void *p)
{
    FLUSHED(RM(f)->xUnfetch(REAL(f), off, p));
}

static const sqlite3_io_methods walfile_io = {
    3,           wf_close,       wf_read,      wf_write,   wf_truncate, wf_sync,   wf_size,
    wf_lock,     wf_unlock,      wf_reserved,  wf_control, wf_sector,   wf_device, wf_shm_map,
    wf_shm_lock, wf_shm_barrier, wf_shm_unmap, wf_fetch,   wf_unfetch,
};

/* A WAL file is wrapped; any other file is the unix VFS's own, in the buffer SQLite gave (it is
 * larger than the unix file needs). */
static int wv_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *f, int flags, int *out)
{
    (void)vfs;
    if (!(flags & SQLITE_OPEN_WAL))
        return unixvfs->xOpen(unixvfs, name, f, flags, out);
    walfile *w = (walfile *)f;
    memset(w, 0, sizeof *w);
    w->real = (sqlite3_file *)(w + 1);
    int rc = unixvfs->xOpen(unixvfs, name, w->real, flags, out);
    if (rc != SQLITE_OK) {
        if (w->real->pMethods)
            w->real->pMethods->xClose(w->real);
        return rc;
    }
    if (w->real->pMethods->iVersion < 3) { /* not the unix VFS this was written for: no joining */
        w->real->pMethods->xClose(w->real);
        return unixvfs->xOpen(unixvfs, name, f, flags, out);
    }
    w->base.pMethods = &walfile_io;
    return SQLITE_OK;
}

static int wv_delete(sqlite3_vfs *v, const char *name, int sync)
{
    (void)v;
    return unixvfs->xDelete(unixvfs, name, sync);
}
static int wv_access(sqlite3_vfs *v, const char *name, int flags, int *out)
{
    (void)v;
    return unixvfs->xAccess(unixvfs, name, flags, out);
}
static int wv_full(sqlite3_vfs *v, const char *name, int n, char *out)
{
    (void)v;
    return unixvfs->xFullPathname(unixvfs, name, n, out);
}
static void *wv_dlopen(sqlite3_vfs *v, const char *name)
{
    (void)v;
    return unixvfs->xDlOpen(unixvfs, name);
}
static void wv_dlerror(sqlite3_vfs *v, int n, char *msg)
{
    (void)v;
    unixvfs->xDlError(unixvfs, n, msg);
}
static void (*wv_dlsym(sqlite3_vfs *v, void *h, const char *sym))(void)
{
    (void)v;
    return unixvfs->xDlSym(unixvfs, h, sym);
}
static void wv_dlclose(sqlite3_vfs *v, void *h)
{
    (void)v;
    unixvfs->xDlClose(unixvfs, h);
}
static int wv_random(sqlite3_vfs *v, int n, char *out)
{
    (void)v;
    return unixvfs->xRandomness(unixvfs, n, out);
}
static int wv_sleep(sqlite3_vfs *v, int us)
{
    (void)v;
    return unixvfs->xSleep(unixvfs, us);
}
static int wv_time(sqlite3_vfs *v, double *t)
{
    (void)v;
    return unixvfs->xCurrentTime(unixvfs, t);
}
static int wv_lasterr(sqlite3_vfs *v, int n, char *msg)
{
    (void)v;
    return unixvfs->xGetLastError(unixvfs, n, msg);
}
static int wv_time64(sqlite3_vfs *v, sqlite3_int64 *t)
{
    (void)v;
    return unixvfs->xCurrentTimeInt64(unixvfs, t);
}

static void walvfs_register(void)
{
    unixvfs = sqlite3_vfs_find(NULL);
    if (!unixvfs || unixvfs->iVersion < 2)
        return;
    walvfs = (sqlite3_vfs){
        .iVersion = 2,
        .szOsFile = (int)sizeof(walfile) + unixvfs->szOsFile,
        .mxPathname = unixvfs->mxPathname,
        .zName = STORE_VFS,
        .xOpen = wv_open,
        .xDelete = wv_delete,
        .xAccess = wv_access,
        .xFullPathname = wv_full,
        .xDlOpen = wv_dlopen,
        .xDlError = wv_dlerror,
        .xDlSym = wv_dlsym,
        .xDlClose = wv_dlclose,
        .xRandomness = wv_random,
        .xSleep = wv_sleep,
        .xCurrentTime = wv_time,
        .xGetLastError = wv_lasterr,
        .xCurrentTimeInt64 = wv_time64,
    };
    walvfs_rc = sqlite3_vfs_register(&walvfs, 0);
}

const char *store__vfs(void)
{
    pthread_once(&walvfs_once, walvfs_register);
    return walvfs_rc == SQLITE_OK ? STORE_VFS : NULL;
}
