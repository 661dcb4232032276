/* upl_trace: sending a trace recorded by libprophecy_trace.so (the
 * trace.RANK files of one directory) to the server, as a tar archive to
 * POST /api/v1/runs/{id}/trace. No spool: a trace that could not be sent
 * stays in its directory and the user is told how to resend it
 * (`prophecy-upload trace DIR --run ID`).
 */
#ifndef PROPHECY_UPL_TRACE_H
#define PROPHECY_UPL_TRACE_H

#include "common/buf.h"
#include "common/err.h"
#include "uploader/upl_http.h"

#include <jansson.h>

#define UPL_TRACE_MAX_RANKS 4096 /* files of one trace (the server's bound) */
#define UPL_TRACE_MAX_BYTES ((size_t)1 << 30)

/* What the files' headers say (formats/trace.h): the rank count and the
 * longest execution time, for a run created from the trace alone. */
struct upl_trace_info {
    int nranks;
    double span; /* seconds */
};

/* Archives DIR/trace.0 .. trace.N-1 (every trace.NUMBER file of DIR), and
 * run_json as run.json when not NULL, as a ustar archive into out and reads
 * the trace files' headers into *info. Returns 0, or
 * -1 with err (400 "io" for an unreadable directory or file, 422 when it
 * holds no trace file or a file too short to be one, 413 over the bounds). */
int upl_trace_tar(const char *dir, const char *run_json, struct buf *out,
                  struct upl_trace_info *info, struct err *err);

/* POSTs the archive to /api/v1/runs/RUN_ID/trace. Returns 0 with *r filled
 * (see upl_http_post), -1 when the request could not be built. */
int upl_trace_send(upl_http *h, long long run_id, const struct buf *tar,
                   struct upl_reply *r);

/* Sends the trace of DIR: with run not NULL, the run and the trace in one
 * request (POST /api/v1/traces: both stored or neither); else the trace for
 * the stored run run_id. Says on stderr what happened (unless
 * quiet; errors always) and, when the trace could not be stored, how to
 * resend it. Returns 0 when both are stored, 1 when the run could not be
 * delivered now (nothing stored; the caller may spool the run), 2 when the
 * server refused (the run with its trace, or the trace of run_id) or the
 * directory cannot be read. *stored_id gets the run's id (0: none). */
int upl_trace_deliver(upl_http *h, json_t *run, long long run_id, const char *dir,
                      int quiet, long long *stored_id);

/* The path of libprophecy_trace.so for exec --trace: $PROPHECY_TRACE_LIB, the
 * installed library, or the one of the build tree, the first that exists.
 * NULL when none does. */
const char *upl_trace_library(void);

#endif
