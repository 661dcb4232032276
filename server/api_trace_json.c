/* api_trace_json: GET /runs/{id}/trace.json — a run's stored trace as Trace
 * Event JSON for Perfetto and chrome://tracing (SPEC §16). A thin adapter
 * over core/trace_export.h: the trace is loaded before answering (so a run
 * without a trace is a 404, a damaged one a 500, never a cut-off 200), then
 * the document is streamed in pieces of 256 KiB. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/trace_export.h"
#include "server/routes.h"

#define PIECE (256u << 10)

static int trace_next(void *ctx, struct buf *out, struct err *err)
{
    return run_trace_doc_next(ctx, out, PIECE, err);
}

static void trace_release(void *ctx)
{
    run_trace_doc_free(ctx);
}

int page_trace_json(struct req *r)
{
    struct err e = {0};
    const char *seg = r->params[0];
    run_trace_doc *x;
    char *end;
    long long id;
    db *d;

    errno = 0;
    id = strtoll(seg, &end, 10);
    if (*seg == '\0' || *end != '\0' || errno == ERANGE || id < 1) {
        err_set(&e, ERR_NOT_FOUND, "not_found", NULL, "no run with id %.40s", seg);
        return http_error(r, &e);
    }
    d = db_pool_get(r->app->pool);
    x = run_trace_doc_open(d, id, &e);
    db_pool_put(r->app->pool, d);
    if (x == NULL)
        return http_error(r, &e);
    return http_stream(r, "application/json", 4 * PIECE, trace_next, trace_release, x);
}
