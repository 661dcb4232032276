/* serve: the serve command; see serve.h. */
#include "server/serve.h"
#include "core/trace_renew.h"
#include "db/writer.h"
#include "server/dash.h"
#include "server/demo.h"
#include "server/trace_draw.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* Takes the server lock; returns the fd or -1. The lock file is named
 * after the database file's identity (device and inode), not its name, so a
 * second server reaching the same file through a symlink or a hard link is
 * refused too. It lives in the directory of the file itself (symlinks
 * resolved). */
static int take_lock(const char *db_path)
{
    char path[4096], pid[32], *real;
    struct stat st;
    int fd;

    if (stat(db_path, &st) != 0) {
        /* A new database: create it empty so that it has an identity. */
        fd = open(db_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0 || fstat(fd, &st) != 0) {
            fprintf(stderr, "prophecyd: cannot create %s: %s\n", db_path,
                    strerror(errno));
            if (fd >= 0)
                close(fd);
            return -1;
        }
        close(fd);
    }
    real = realpath(db_path, NULL);
    if (real == NULL) {
        fprintf(stderr, "prophecyd: cannot resolve %s: %s\n", db_path, strerror(errno));
        return -1;
    }
    {
        char *slash = strrchr(real, '/');
        int dirlen = slash ? (int)(slash - real) : 0;
        snprintf(path, sizeof path, "%.*s/.prophecyd-%llx-%llx.lock", dirlen, real,
                 (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
    }
    free(real);
    fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        fprintf(stderr, "prophecyd: cannot create %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        ssize_t n = read(fd, pid, sizeof pid - 1);
        pid[n > 0 ? n : 0] = '\0';
        pid[strcspn(pid, "\n")] = '\0';
        fprintf(stderr,
                "prophecyd: another prophecyd (pid %s) is already serving %s; "
                "stop it first or use another --db\n",
                pid[0] ? pid : "?", db_path);
        close(fd);
        return -1;
    }
    if (ftruncate(fd, 0) == 0) {
        int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
        if (write(fd, pid, (size_t)n) < 0)
            perror("prophecyd: writing the lock file");
    }
    return fd;
}

/* Raises the descriptor limit to what --max-conns needs (twice the
 * connections: dropped ones close a moment later; and the database's); a
 * hard limit below it lowers --max-conns, said once. 0, or -1 when not even
 * 64 connections fit. */
int serve_fit_fd_limit(struct config *cfg)
{
    struct rlimit nofile;
    rlim_t want = (rlim_t)cfg->max_conns * 2 + 256;
    if (getrlimit(RLIMIT_NOFILE, &nofile) != 0)
        return 0;
    if (nofile.rlim_cur < want) {
        nofile.rlim_cur = nofile.rlim_max < want ? nofile.rlim_max : want;
        setrlimit(RLIMIT_NOFILE, &nofile);
        getrlimit(RLIMIT_NOFILE, &nofile);
    }
    if (nofile.rlim_cur < want) {
        long fit = ((long)nofile.rlim_cur - 256) / 2;
        if (fit < 64) {
            fprintf(stderr, "prophecyd: only %ld descriptors (ulimit -n); 384 at least\n",
                    (long)nofile.rlim_cur);
            return -1;
        }
        fprintf(stderr, "prophecyd: --max-conns %d lowered to %ld (ulimit -n %ld)\n",
                cfg->max_conns, fit, (long)nofile.rlim_cur);
        cfg->max_conns = (int)fit;
    }
    return 0;
}

static void renew_failed(void *ctx, long long run_id, const struct err *e)
{
    (void)ctx;
    fprintf(stderr,
            "prophecyd: run %lld's trace was not re-analysed (kept as it was): %s\n",
            run_id, e->message);
}

/* The stored traces an older prophecyd analysed are analysed again before
 * the server listens (core/trace_renew.h), so that every page and answer is
 * this version's. Said once when it did something; a failure is said and
 * the server serves what is stored. */
static void renew_traces(struct app *app)
{
    struct err e = {0};
    db *rd = db_pool_get(app->pool);
    int failed = 0,
        n = run_trace_renew(rd, app->writer, trace_draw, renew_failed, NULL, &failed, &e);
    db_pool_put(app->pool, rd);
    if (n < 0)
        fprintf(stderr, "prophecyd: the stored traces were not re-analysed: %s\n",
                e.message);
    else if (n > 0)
        fprintf(stderr,
                "prophecyd: re-analysed %d stored trace%s drawn by an older version\n", n,
                n == 1 ? "" : "s");
    if (failed > 0)
        fprintf(stderr, "prophecyd: %d stored trace%s kept as %s (see above)\n", failed,
                failed == 1 ? "" : "s", failed == 1 ? "it was" : "they were");
}

int serve_run(const struct config *cfg)
{
    struct app app = {0};
    struct err e = {0};
    sigset_t set;
    int sig, lockfd, rc = 1;
    struct db_options wopt = {cfg->sync, 0, 10000};

    /* One server per SQLite file; any number share a PostgreSQL database. */
    lockfd = db_is_file(cfg->db_path) ? take_lock(cfg->db_path) : -2;
    if (lockfd == -1)
        return 1;
    app.cfg = cfg;
    app.error_page = dash_error;
    /* Block the shutdown signals in every thread; the main thread waits for them. */
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);

    if (db_writer_start(&app.writer, cfg->db_path, &wopt, 1000, &e) != 0 ||
        db_pool_open(&app.pool, cfg->db_path, cfg->threads + cfg->workers + 2, &e) != 0)
        goto out;
    if (demo_maybe_load(&app, &e) != 0)
        goto out;
    renew_traces(&app);
    if (http_start(&app, &e) != 0)
        goto out;
    if (!cfg->quiet) {
        char shown[1024];
        fprintf(stderr, "prophecyd: serving %s on http://%s:%d/ (%d threads)\n",
                db_display_name(cfg->db_path, shown, sizeof shown), cfg->listen_host,
                app.port, cfg->threads);
    }
    fflush(stderr);
    sigwait(&set, &sig);
    if (!cfg->quiet)
        fprintf(stderr, "prophecyd: %s received, finishing requests\n",
                sig == SIGTERM ? "SIGTERM" : "SIGINT");
    http_stop(&app, cfg->stop_grace * 1000);
    rc = 0;
out:
    if (rc != 0)
        fprintf(stderr, "prophecyd: %s\n", e.message);
    db_writer_stop(app.writer);
    db_pool_close(app.pool);
    if (lockfd >= 0)
        close(lockfd);
    return rc;
}
