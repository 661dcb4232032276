/* writer_gate: for unit tests of the group-commit writer (db/writer.h). A
 * gate job holds the writer for 200 ms, so that the jobs submitted meanwhile
 * queue up behind it and are run as one batch. Header-only, as
 * tests/harness.h. */
#ifndef PROPHECY_TESTS_WRITER_GATE_H
#define PROPHECY_TESTS_WRITER_GATE_H

#include <string.h>
#include <time.h>

#include "db/writer.h"

static int gate_hold(db *d, void *arg, struct err *err)
{
    struct timespec t = {0, 200 * 1000000L};
    (void)d, (void)arg, (void)err;
    nanosleep(&t, NULL);
    return 0;
}

/* A job's done callback that does nothing (the test waits on its last job
 * with db_writer_run: the writer finishes jobs in order). */
static void gate_job_done(struct db_job *job)
{
    (void)job;
}

/* Submits gate (zeroed here) to w. Returns db_writer_submit's result. */
static int gate_submit(db_writer *w, struct db_job *gate)
{
    memset(gate, 0, sizeof *gate);
    gate->fn = gate_hold;
    gate->done = gate_job_done;
    return db_writer_submit(w, gate);
}

#endif
