/* trace_export: a run's stored trace out as Trace Event JSON (SPEC §16,
 * GET /runs/{id}/trace.json), for Perfetto and chrome://tracing.
 *
 * Opening loads the trace from the store once (core/trace.h run_trace_load:
 * the per-rank files, read back by their checked reader); the document is
 * then written piece by piece (formats/trace_json.h), so a caller can stream
 * it without holding the text. The only memory is the parsed trace (bounded
 * by LIMIT_TRACE_*) and one piece.
 */
#ifndef PROPHECY_CORE_TRACE_EXPORT_H
#define PROPHECY_CORE_TRACE_EXPORT_H

#include <stddef.h>

#include "common/buf.h"
#include "common/err.h"
#include "db/db.h"

typedef struct run_trace_doc run_trace_doc;

/* Loads run_id's trace. Returns a handle to free with run_trace_doc_free,
 * or NULL with err: ERR_NOT_FOUND when the run has no trace (or does not exist),
 * ERR_INTERNAL when the stored trace no longer reads. */
run_trace_doc *run_trace_doc_open(db *d, long long run_id, struct err *err);

/* Appends the next piece (about `chunk` bytes) of the document to b.
 * Returns 1 more follows, 0 complete, -1 with err (b full, out of memory). */
int run_trace_doc_next(run_trace_doc *x, struct buf *b, size_t chunk, struct err *err);

void run_trace_doc_free(run_trace_doc *x);

#endif
