/* writer_gate: for unit tests of the group-commit writer (db/writer.h). A
 * gate job holds the writer for 200 ms, so that the jobs submitted meanwhile
 * queue up behind it and are run as one batch. gate_submit returns once the
 * gate runs: a writer slow to wake up took a job submitted after the gate
 * into the gate's batch, which then ran alone, ahead of the rest (a test
 * that failed about one run in ten). Header-only, as tests/harness.h. */
#ifndef PROPHECY_TESTS_WRITER_GATE_H
#define PROPHECY_TESTS_WRITER_GATE_H

#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "db/writer.h"

static atomic_int gate_running;

static int gate_hold(db *d, void *arg, struct err *err)
{
    struct timespec t = {0, 200 * 1000000L};
    (void)d, (void)arg, (void)err;
    atomic_store(&gate_running, 1);
    nanosleep(&t, NULL);
    return 0;
}

/* A job's done callback that does nothing (the test waits on its last job
 * with db_writer_run: the writer finishes jobs in order). */
static void gate_job_done(struct db_job *job)
{
    (void)job;
}

/* Submits gate (zeroed here) to w and waits until it runs. Returns
 * db_writer_submit's result. */
static int gate_submit(db_writer *w, struct db_job *gate)
{
    struct timespec t = {0, 1000000L};
    int rc;
    memset(gate, 0, sizeof *gate);
    gate->fn = gate_hold;
    gate->done = gate_job_done;
    atomic_store(&gate_running, 0);
    if ((rc = db_writer_submit(w, gate)) != 0)
        return rc;
    while (!atomic_load(&gate_running))
        nanosleep(&t, NULL);
    return 0;
}

#endif
