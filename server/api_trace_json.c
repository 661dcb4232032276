/* api_trace_json: GET /runs/{id}/trace.json — a run's stored trace as Trace
 * Event JSON for Perfetto and chrome://tracing (SPEC §16). A thin adapter
 * over core/trace_export.h: the trace is loaded before answering (so a run
 * without a trace is a 404, a damaged one a 500, never a cut-off 200), then
 * the document is streamed in pieces of 256 KiB. */
#include <errno.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "core/trace_export.h"
#include "server/routes.h"

#define PIECE (256u << 10)

struct trace_stream {
    run_trace_doc *x;
    struct buf out;
    size_t pos;
    int more;
};

static ssize_t trace_read(void *cls, uint64_t pos, char *dst, size_t max)
{
    struct trace_stream *st = cls;
    size_t avail;
    (void)pos;
    while (st->pos >= st->out.len) {
        if (!st->more)
            return MHD_CONTENT_READER_END_OF_STREAM;
        buf_reset(&st->out);
        st->pos = 0;
        st->more = run_trace_doc_next(st->x, &st->out, PIECE, NULL);
        if (st->more < 0)
            return MHD_CONTENT_READER_END_WITH_ERROR;
    }
    avail = st->out.len - st->pos;
    if (avail > max)
        avail = max;
    memcpy(dst, st->out.data + st->pos, avail);
    st->pos += avail;
    return (ssize_t)avail;
}

static void trace_stream_free(void *cls)
{
    struct trace_stream *st = cls;
    run_trace_doc_free(st->x);
    buf_free(&st->out);
    xfree(st);
}

int page_trace_json(struct req *r)
{
    struct trace_stream *st;
    struct err e = {0};
    const char *seg = r->params[0];
    char *end;
    long long id;
    db *d;

    errno = 0;
    id = strtoll(seg, &end, 10);
    if (*seg == '\0' || *end != '\0' || errno == ERANGE || id < 1) {
        err_set(&e, 404, "not_found", NULL, "no run with id %.40s", seg);
        return http_error(r, &e);
    }
    if ((st = xcalloc(1, sizeof *st)) == NULL) {
        err_nomem(&e);
        return http_error(r, &e);
    }
    buf_init(&st->out, 4 * PIECE);
    d = db_pool_get(r->app->pool);
    st->x = run_trace_doc_open(d, id, &e);
    db_pool_put(r->app->pool, d);
    if (st->x == NULL ||
        (st->more = run_trace_doc_next(st->x, &st->out, PIECE, &e)) < 0) {
        trace_stream_free(st);
        return http_error(r, &e);
    }
    r->stream = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 64 * 1024, trace_read,
                                                  st, trace_stream_free);
    if (r->stream == NULL) {
        trace_stream_free(st);
        err_nomem(&e);
        return http_error(r, &e);
    }
    r->status = 200;
    r->content_type = "application/json";
    return 0;
}
