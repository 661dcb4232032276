/* writer: the single writer thread with group commit.
 *
 * Every write in the server goes through one connection owned by one thread.
 * Requests hand it a job; the thread takes all jobs waiting (up to a batch
 * limit) and runs them in one transaction, so they commit together with one
 * fsync. A job that fails is rolled back alone (its request stays
 * all-or-nothing) while the others commit: the batch is then run again with
 * each job inside its own SAVEPOINT (savepoints are not used otherwise: they
 * make large jobs slow). Nobody else writes, so nobody ever sees "database
 * is locked".
 *
 * Completion is signalled through the job's `done` callback, called on the
 * writer thread after the commit is durable (or failed); it must be quick and
 * must not submit another job and wait for it.
 */
#ifndef PROPHECY_WRITER_H
#define PROPHECY_WRITER_H

#include "common/err.h"
#include "db/db.h"

typedef struct db_writer db_writer;

struct db_job {
    /* Runs inside the transaction, on the writer thread. Returns 0, or -1 with
     * err set; on -1 everything the job wrote is rolled back. May run twice
     * (after a rollback, when another job of its batch failed): it writes
     * only through d and sets its outputs anew each time. */
    int (*fn)(db *d, void *arg, struct err *err);
    void *arg;
    /* Optional (NULL: fn alone). In the batch's first pass, jobs that queued
     * one after another with the same group function are run by one call of
     * it, group(d, jobs, n), n >= 2, in place of their fn one after another,
     * with the same effect (e.g. the runs of several single-run uploads
     * inserted in one statement pipeline). It returns 0 with every job's rc
     * 0; -1 when any failed (the batch is then rolled back and run again job
     * by job through fn, each in its savepoint, which sets each job's
     * outcome anew); or 1, having written nothing, to have them and the
     * rest of the batch run through fn one by one. */
    int (*group)(db *d, struct db_job **jobs, size_t n);
    /* Called once the outcome is final (committed or rolled back). */
    void (*done)(struct db_job *job);
    void *done_arg;
    int rc;              /* OUT: 0 or -1 */
    struct err err;      /* OUT: why it failed */
    struct db_job *next; /* private */
};

/* Opens the writer connection on path and starts the thread. Returns 0 or -1. */
int db_writer_start(db_writer **out, const char *path, const struct db_options *opt,
                    int max_batch, struct err *err);
/* Finishes every queued job, then stops the thread and closes; NULL does nothing. */
void db_writer_stop(db_writer *w);

/* Queues a job; `done` is called later on the writer thread. Returns 0, or -1
 * with job->err set when the writer is stopping (then done is not called). */
int db_writer_submit(db_writer *w, struct db_job *job);

/* Queues a job and waits for it. Returns job->rc. */
int db_writer_run(db_writer *w, struct db_job *job);

/* Statistics: transactions committed and jobs run since start. */
void db_writer_stats(db_writer *w, long *commits, long *jobs);

#endif
