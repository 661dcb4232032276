/* trace_draw: the trace analyses' charts (web/chart_trace.h) as core's
 * draw function (core/trace.h run_trace_draw_fn), for every path that
 * stores a trace: the upload route and an import (pass it to
 * run_trace_from_tar / run_trace_from_trace / run_trace_import). */
#ifndef PROPHECY_SERVER_TRACE_DRAW_H
#define PROPHECY_SERVER_TRACE_DRAW_H

#include "core/trace.h"

/* Draws analysis `kind` of s as SVG into out; 0 or -1 with err set. */
int trace_draw(const struct run_trace_set *s, int kind, struct buf *out, struct err *err);

#endif
