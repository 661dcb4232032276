/* view_trace: the page of a run's trace (/runs/{id}/trace), a section per
 * analysis (SPEC §13) with its chart, its key figures and a link to its
 * JSON answer; a trace without MPI calls has no wait, traffic and load
 * sections but a sentence saying why, and its lanes are threads.
 * Presentation only: the data arrive as stored answers. */
#ifndef PROPHECY_WEB_VIEW_TRACE_H
#define PROPHECY_WEB_VIEW_TRACE_H

#include <jansson.h>

#include "web/page.h"

#define VIEW_TRACE_SECTIONS 7

struct view_trace {
    long long run_id;
    const char *application; /* of the run */
    int nranks;
    long long nevents, dropped, bytes;
    /* the trace's MPI calls (the load answer's mpi_calls); 0: user states
     * only, shown as threads without the wait, traffic and load sections;
     * < 0: not known, shown as an MPI trace */
    long long mpi_calls;
    double span;
    const char *created_at;
    /* per section, in order: name ("profile", ...), answer (parsed JSON,
     * borrowed, may be NULL) and chart (SVG text, may be NULL) */
    const char *name[VIEW_TRACE_SECTIONS];
    json_t *answer[VIEW_TRACE_SECTIONS];
    const char *svg[VIEW_TRACE_SECTIONS];
    size_t svg_len[VIEW_TRACE_SECTIONS];
};
void view_trace(struct page *p, const struct view_trace *v);

#endif
