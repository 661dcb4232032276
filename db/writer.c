/* writer: single writer thread with group commit; see writer.h. Engine-neutral:
 * transactions and the per-job savepoint go through the backend table. */
#include "db/writer.h"
#include "db/backend.h"
#include "common/xalloc.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

struct db_writer {
    db *conn;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    struct db_job *head, *tail;
    int stopping;
    int max_batch;
    atomic_long commits, jobs; /* read by db_writer_stats from other threads */
};

/* The most jobs one call of a group function takes (db_job.group). */
#define GROUP_MAX 64

/* Runs a batch in one transaction. First optimistically, every job straight
 * in the transaction: a SAVEPOINT per job costs little for a small job but,
 * while it is open, SQLite (the first backend) keeps the statement journal of every
 * statement (each insert with a trigger or a foreign key has one) until the savepoint
 * ends and walks it at each statement's end, so a job of 1,000 runs spent
 * most of its time there. Only when a job fails is the transaction rolled
 * back and the batch run again, each job in its own savepoint, so that the
 * failed job is rolled back alone while the others commit: a job's fn may
 * therefore run twice (it writes only through d and sets its outputs anew).
 * A batch of one job needs no second run: its failure is the batch's.
 * In the first pass, jobs queued one after another with the same group
 * function go through one call of it (db_job.group): on PostgreSQL the
 * runs of eight single-run uploads are then one round trip, not eight. */
static void run_batch(db_writer *w, struct db_job *batch)
{
    struct db_job *j;
    struct err terr = {0};
    int any_ok = 0, failed = 0, declined = 0;

    if (db_begin(w->conn, &terr) != 0) {
        for (j = batch; j; j = j->next) {
            j->rc = -1;
            j->err = terr;
        }
        return;
    }
    for (j = batch; j && !failed;) {
        struct db_job *run[GROUP_MAX], *k;
        size_t n = 0;
        int grc = 1;

        for (k = j; k && j->group && k->group == j->group && n < GROUP_MAX; k = k->next)
            run[n++] = k;
        if (n >= 2 && !declined) {
            for (size_t i = 0; i < n; i++) {
                err_clear(&run[i]->err);
                run[i]->rc = 0;
            }
            grc = j->group(w->conn, run, n);
            declined = grc > 0; /* and for the rest of the batch */
        }
        if (grc == 0) {
            j = k;
            continue;
        }
        if (grc < 0) {
            failed = 1;
            break;
        }
        err_clear(&j->err);
        j->rc = j->fn(w->conn, j->arg, &j->err);
        if (j->rc != 0) {
            if (j->err.status == 0)
                err_set(&j->err, ERR_INTERNAL, "internal", NULL, "write failed");
            failed = 1;
        }
        j = j->next;
    }
    if (failed) {
        db_rollback(w->conn);
        if (batch->next == NULL)
            return;
        if (db_begin(w->conn, &terr) != 0) {
            for (j = batch; j; j = j->next) {
                j->rc = -1;
                j->err = terr;
            }
            return;
        }
        for (j = batch; j; j = j->next) {
            err_clear(&j->err);
            if (db_savepoint(w->conn, DB_SAVEPOINT_SET, &j->err) != 0) {
                j->rc = -1;
                continue;
            }
            j->rc = j->fn(w->conn, j->arg, &j->err);
            if (j->rc != 0) {
                if (j->err.status == 0)
                    err_set(&j->err, ERR_INTERNAL, "internal", NULL, "write failed");
                db_savepoint(w->conn, DB_SAVEPOINT_ROLLBACK, NULL);
            } else {
                any_ok = 1;
            }
            db_savepoint(w->conn, DB_SAVEPOINT_RELEASE, NULL);
        }
        if (!any_ok) {
            db_rollback(w->conn);
            return;
        }
    }
    if (db_commit(w->conn, &terr) != 0) {
        db_rollback(w->conn);
        for (j = batch; j; j = j->next) {
            if (j->rc == 0) {
                j->rc = -1;
                j->err = terr;
            }
        }
        return;
    }
    w->commits++;
}

/* A job that lost to another server's transaction (PostgreSQL: a deadlock,
 * a serialization failure or a lock timeout; pg_fail's ERR_UNAVAILABLE "busy") did
 * nothing: it is run again, alone, a few times with a growing pause, before
 * its failure is final. SQLite has one writer, so it never gets here. */
#define WRITER_RETRIES 4

static int busy(const struct db_job *j)
{
    return j->rc != 0 && j->err.status == ERR_UNAVAILABLE &&
           strcmp(j->err.code, "busy") == 0;
}

static void retry_busy(db_writer *w, struct db_job *batch)
{
    struct db_job *j;
    for (j = batch; j; j = j->next) {
        struct db_job *next = j->next;
        for (int attempt = 1; attempt <= WRITER_RETRIES && busy(j); attempt++) {
            struct timespec pause = {0, 2000000L * attempt}; /* 2, 4, 6, 8 ms */
            nanosleep(&pause, NULL);
            j->next = NULL; /* a batch of this one job */
            run_batch(w, j);
        }
        j->next = next;
    }
}

static void *writer_main(void *arg)
{
    db_writer *w = arg;
    for (;;) {
        struct db_job *batch, *j, *next, *last;
        int n = 0;

        pthread_mutex_lock(&w->lock);
        while (w->head == NULL && !w->stopping)
            pthread_cond_wait(&w->wake, &w->lock);
        if (w->head == NULL && w->stopping) {
            pthread_mutex_unlock(&w->lock);
            break;
        }
        /* Take up to max_batch jobs: everything that queued while the last
         * commit was being synced rides on this one. */
        batch = last = w->head;
        while (last->next && ++n < w->max_batch)
            last = last->next;
        w->head = last->next;
        if (w->head == NULL)
            w->tail = NULL;
        last->next = NULL;
        pthread_mutex_unlock(&w->lock);

        run_batch(w, batch);
        retry_busy(w, batch);
        for (j = batch; j; j = next) {
            next = j->next;
            w->jobs++;
            j->done(j);
        }
    }
    return NULL;
}

int db_writer_start(db_writer **out, const char *path, const struct db_options *opt,
                    int max_batch, struct err *err)
{
    db_writer *w = xcalloc(1, sizeof *w);
    *out = NULL;
    if (w == NULL)
        return err_nomem(err);
    if (db_open(&w->conn, path, opt, err) != 0) {
        xfree(w);
        return -1;
    }
    w->max_batch = max_batch > 0 ? max_batch : 256;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->wake, NULL);
    if (pthread_create(&w->thread, NULL, writer_main, w) != 0) {
        db_close(w->conn);
        xfree(w);
        return err_set(err, ERR_INTERNAL, "internal", NULL,
                       "cannot start the writer thread");
    }
    *out = w;
    return 0;
}

void db_writer_stop(db_writer *w)
{
    if (w == NULL)
        return;
    pthread_mutex_lock(&w->lock);
    w->stopping = 1;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    db_close(w->conn);
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->wake);
    xfree(w);
}

int db_writer_submit(db_writer *w, struct db_job *job)
{
    job->next = NULL;
    job->rc = -1;
    err_clear(&job->err);
    pthread_mutex_lock(&w->lock);
    if (w->stopping) {
        pthread_mutex_unlock(&w->lock);
        return err_set(&job->err, ERR_UNAVAILABLE, "unavailable", NULL,
                       "server is shutting down");
    }
    if (w->tail)
        w->tail->next = job;
    else
        w->head = job;
    w->tail = job;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    return 0;
}

struct waiter {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int finished;
};

static void wake_waiter(struct db_job *job)
{
    struct waiter *wt = job->done_arg;
    pthread_mutex_lock(&wt->lock);
    wt->finished = 1;
    pthread_cond_signal(&wt->cond);
    pthread_mutex_unlock(&wt->lock);
}

int db_writer_run(db_writer *w, struct db_job *job)
{
    struct waiter wt = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    job->done = wake_waiter;
    job->done_arg = &wt;
    if (db_writer_submit(w, job) != 0)
        return -1;
    pthread_mutex_lock(&wt.lock);
    while (!wt.finished)
        pthread_cond_wait(&wt.cond, &wt.lock);
    pthread_mutex_unlock(&wt.lock);
    return job->rc;
}

void db_writer_stats(db_writer *w, long *commits, long *jobs)
{
    *commits = atomic_load(&w->commits);
    *jobs = atomic_load(&w->jobs);
}
