/* trace_export: see trace_export.h. The stored rank files are read into a
 * scratch arena that is freed as soon as they are parsed, so a stream holds
 * only the parsed trace. */
#include "core/trace_export.h"

#include "common/arena.h"
#include "common/xalloc.h"
#include "core/trace.h"
#include "formats/trace_json.h"

struct run_trace_doc {
    struct trace *t;
    struct trace_json_pos pos;
};

run_trace_doc *run_trace_doc_open(db *d, long long run_id, struct err *err)
{
    arena *a = arena_new();
    run_trace_doc *x = xcalloc(1, sizeof *x);
    if (a == NULL || x == NULL) {
        err_nomem(err);
        goto fail;
    }
    if (run_trace_load(d, run_id, a, &x->t, err) != 0)
        goto fail;
    arena_free(a);
    return x;
fail:
    arena_free(a);
    run_trace_doc_free(x);
    return NULL;
}

int run_trace_doc_next(run_trace_doc *x, struct buf *b, size_t chunk, struct err *err)
{
    int rc = trace_json_write(x->t, &x->pos, b, chunk);
    if (rc < 0)
        err_set(err, ERR_INTERNAL, "internal", NULL,
                "the trace cannot be written as JSON");
    return rc;
}

void run_trace_doc_free(run_trace_doc *x)
{
    if (x == NULL)
        return;
    trace_free(x->t);
    xfree(x);
}
