/* trace_json: a stored trace (models/trace.h) written as Trace Event JSON,
 * the format chrome://tracing and Perfetto read (SPEC §16's
 * GET /runs/{id}/trace.json).
 *
 * The document: {"displayTimeUnit": "ms", "otherData": {"producer":
 * "prophecy", "nranks": N, "dropped": D}, "traceEvents": [...]}. Per rank r
 * three metadata events name its process and thread "rank r" and sort it
 * (process_name, process_sort_index, thread_name; pid = tid = r), then one
 * complete event ("ph": "X") per recorded call or state, in the rank's
 * order: "name" the MPI routine ("MPI_Send") or the state's name, "cat" the
 * class ("p2p", "collective", "wait"; "state" for a state), "ts" and "dur"
 * in microseconds since the common start (integers when whole, else to the
 * nanosecond), and for a call "args" with what the trace holds of it
 * (bytes, peer, tag, peer2, tag2, comm_size; -1 peers left out).
 *
 * Written in pieces so that a large trace never becomes one text in memory:
 * each call appends about `chunk` bytes (at least one event) to a buffer.
 * The text goes through formats/json_text.h (Jansson's own encoding, byte
 * for byte). Touches neither the database nor HTTP; thread-safe on distinct
 * positions.
 */
#ifndef PROPHECY_FORMATS_TRACE_JSON_H
#define PROPHECY_FORMATS_TRACE_JSON_H

#include <stddef.h>

#include "common/buf.h"
#include "models/trace.h"

/* Where the writer is in the document; zero it to start. */
struct trace_json_pos {
    int stage; /* 0 head, 1 metadata, 2 events, 3 tail, 4 done */
    int rank;
    size_t event;
    size_t written; /* events written so far (metadata included) */
};

/* Appends the next piece of t's document to b (about `chunk` bytes).
 * Returns 1 when more follows, 0 when the document is complete, -1 when b
 * failed (full or out of memory) or a name is not valid UTF-8. */
int trace_json_write(const struct trace *t, struct trace_json_pos *pos, struct buf *b,
                     size_t chunk);

#endif
