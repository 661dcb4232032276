/* trace_renew: stored traces analysed again after an upgrade; see
 * trace_renew.h. */
#include "core/trace_renew.h"

#include "common/arena.h"
#include "db/trace.h"

#include <string.h>

/* The run ids read from the store at a time: a page of the traces to renew,
 * so that the list never holds every trace of a big store. */
enum { PAGE = 64 };

/* One trace's new analyses on their way into the store (a writer job). */
struct renewal {
    long long run_id;
    struct db_trace_analysis an[RUN_TRACE_COUNT];
    int replaced; /* OUT: 1 replaced, 0 left (renewed or deleted meanwhile) */
};

static int renew_job(db *d, void *arg, struct err *err)
{
    struct renewal *r = arg;
    int rc =
        db_trace_replace(d, r->run_id, RUN_TRACE_VERSION, r->an, RUN_TRACE_COUNT, err);
    if (rc < 0)
        return -1;
    r->replaced = rc;
    return 0;
}

/* Loads, analyses and stores run_id's trace: 1 renewed, 0 left as it is (its
 * run deleted or the trace renewed by another server meanwhile), -1 with
 * err set. */
static int renew_one(db *rd, db_writer *w, long long run_id, run_trace_draw_fn draw,
                     struct err *err)
{
    struct run_trace_upload up;
    struct renewal r;
    struct db_job job;
    arena *a = arena_new();
    int rc = -1;

    memset(&up, 0, sizeof up);
    if (a == NULL)
        return err_nomem(err);
    /* the parsed trace owns what it read: the rank files' copies go at once */
    rc = run_trace_load(rd, run_id, a, &up.t, err);
    arena_free(a);
    if (rc != 0)
        return err->status == ERR_NOT_FOUND ? 0 : -1; /* its run deleted meanwhile */
    up.run_id = run_id;
    rc = run_trace_analyse(&up, draw, err);
    /* only the texts are stored: the trace goes before the transaction */
    trace_free(up.t);
    up.t = NULL;
    if (rc != 0)
        goto out;
    memset(&r, 0, sizeof r);
    r.run_id = run_id;
    for (int k = 0; k < RUN_TRACE_COUNT; k++) {
        r.an[k].name = run_trace_name(k);
        r.an[k].answer = up.answer[k];
        r.an[k].svg = up.svg[k];
    }
    memset(&job, 0, sizeof job);
    job.fn = renew_job;
    job.arg = &r;
    rc = db_writer_run(w, &job);
    if (rc != 0)
        *err = job.err;
    else
        rc = r.replaced;
out:
    run_trace_upload_free(&up);
    return rc;
}

int run_trace_renew(db *rd, db_writer *w, run_trace_draw_fn draw,
                    run_trace_renew_fail_fn fail, void *ctx, int *failed, struct err *err)
{
    long long ids[PAGE], after = 0;
    int n, renewed = 0;

    *failed = 0;
    do {
        n = db_trace_older(rd, RUN_TRACE_VERSION, after, ids, PAGE, err);
        if (n < 0)
            return -1;
        for (int i = 0; i < n; i++) {
            struct err e = {0};
            int rc = renew_one(rd, w, ids[i], draw, &e);
            if (rc > 0)
                renewed++;
            else if (rc < 0) {
                (*failed)++;
                if (fail != NULL)
                    fail(ctx, ids[i], &e);
            }
        }
        /* a trace that failed stays older: the next page starts after it */
        if (n > 0)
            after = ids[n - 1];
    } while (n == PAGE);
    return renewed;
}
