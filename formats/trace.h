/* trace: the binary trace format written by libprophecy_trace.so, and its reader.
 *
 * A trace is one file per rank, `trace.RANK`, all little-endian:
 *
 *   header (64 bytes)
 *     0  char[8] magic "PRPHTRC\0"
 *     8  u32 version (TRACE_FORMAT_VERSION)
 *    12  u32 rank
 *    16  u32 nranks (MPI_COMM_WORLD size; equal in every file)
 *    20  u32 nnames (probe state names that follow)
 *    24  u64 nevents
 *    32  u64 t_end (ns since the common start: when the rank reached MPI_Finalize)
 *    40  u64 dropped (events not recorded because the bounded buffer was full)
 *    48  u32 event size in bytes (TRACE_EVENT_SIZE)
 *    52  u32 ncomms: communicators that follow the names (version 3; reserved,
 *        zero, before)
 *    56  u64 ndone: completed receives that follow the events (version 2;
 *        reserved, zero, in version 1, which the reader still accepts)
 *   names: nnames times { u16 length; length bytes, no NUL }
 *   communicators (version 3): ncomms times { u32 n; u32 seq; n times u32 }:
 *     the members' world ranks in communicator rank order (n = 0: all ranks
 *     of MPI_COMM_WORLD in order) and seq, which of the communicators with
 *     these members this is on the rank (0 the first created): members and
 *     seq name one communicator consistently across its ranks
 *   events: nevents records of TRACE_EVENT_SIZE bytes
 *     0  u64 begin ns    8 u64 end ns    16 i64 bytes
 *    24  i32 peer       28 i32 peer2    32 i32 tag     36 i32 tag2
 *    40  u32 comm_size  44 u16 op (enum trace_op)
 *    46  u16 name: for a state, its name's index; for a call (version 3), 1 +
 *        the index of its communicator in this file's table, 0 unknown
 *   completed receives (version 2): ndone records of TRACE_DONE_SIZE bytes
 *   (24 in version 2), one per receive request an MPI_Waitall, Waitany,
 *   Waitsome or a Test call completed, in the order of the calls, then of
 *   each call's requests (struct trace_done):
 *     0  u64 event: index in this file's events of the completing call
 *     8  i64 bytes received   16 i32 peer (world rank of the source)   20 i32 tag
 *    24  u64 first (version 3): index of the first Test call that polled the
 *        receive (= event when it was completed by a Wait call)
 *
 * Version 3 added the routines after MPI_Alltoall (enum trace_op; the numbers
 * of versions 1 and 2 are unchanged), the communicators and `first`.
 *
 * Times are CLOCK_REALTIME nanoseconds since the "common start": rank 0's
 * reading after the barrier closing MPI_Init, broadcast to every rank. On one
 * node all ranks share that clock exactly; across nodes they agree as well as
 * the nodes' clocks do.
 *
 * The reader checks every field and bound (formats/limits.h LIMIT_TRACE_*) and
 * fails with a clear message: truncated file, wrong magic or version, rank
 * numbers that disagree or are missing, peers outside the world, too large.
 * It never trusts a count before checking it against the bytes present.
 */
#ifndef PROPHECY_FORMATS_TRACE_H
#define PROPHECY_FORMATS_TRACE_H

#include "models/trace.h"

#include <stddef.h>

#define TRACE_MAGIC "PRPHTRC"
#define TRACE_FORMAT_VERSION 3
#define TRACE_HEADER_SIZE 64
#define TRACE_EVENT_SIZE 48
#define TRACE_DONE_SIZE 32    /* version 3 */
#define TRACE_DONE_SIZE_V2 24 /* version 2 */

struct err;

/* Whether a trace of n ranks is within LIMIT_TRACE_RANKS: 0, or -1 with
 * the error trace_parse gives a larger one (for a reader that learns the
 * number of ranks before the trace, as OTF2's definitions tell it). */
int trace_check_ranks(long long n, struct err *err);

/* Parses a whole trace from n per-rank files already in memory (bufs[i] of
 * lens[i] bytes, in any order: each names its rank). On success *out is a
 * trace to free with trace_free(); on failure *out is NULL, -1 is returned and
 * err says why (status ERR_INVALID, code "invalid_trace"). Thread-safe. */
int trace_parse(const void *const *bufs, const size_t *lens, int n, struct trace **out,
                struct err *err);

/* Reads DIR/trace.0 .. trace.N-1, N being the rank count of trace.0, checking
 * that no more and no fewer files are present, then parses them as
 * trace_parse. Errors as trace_parse, or status ERR_NOT_FOUND when DIR has no trace.0. */
int trace_read_dir(const char *dir, struct trace **out, struct err *err);

/* Encodes rank `rank` of t in the format above, version 3 (the inverse of
 * trace_parse, to the nanosecond; the communicators the rank's events name
 * are written, which must have the rank as a member): *buf is xmalloc'd, the caller frees
 * it with xfree. Fails
 * (-1, ERR_INVALID) when the rank is out of range or an event cannot be represented
 * (negative times, an unknown routine). Thread-safe. */
int trace_encode(const struct trace *t, int rank, unsigned char **buf, size_t *len,
                 struct err *err);

#endif
