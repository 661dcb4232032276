/* trace_renew: stored traces analysed again after an upgrade.
 *
 * A trace's analyses are computed once, on arrival, and kept as text
 * (core/trace.h); reads never recompute. So that a database written by an
 * older prophecyd shows what the analyses and charts of this one give, every
 * trace stored with an older RUN_TRACE_VERSION is analysed again from its
 * stored per-rank files, exactly as on arrival, and its analyses and version
 * replaced. It must not change a trace stored at this version or a newer
 * one, nor touch the rank files or the bounds.
 */
#ifndef PROPHECY_CORE_TRACE_RENEW_H
#define PROPHECY_CORE_TRACE_RENEW_H

#include "common/err.h"
#include "core/trace.h"
#include "db/db.h"
#include "db/writer.h"

/* Told about each trace left as it was: its run id and why. */
typedef void (*run_trace_renew_fail_fn)(void *ctx, long long run_id, const struct err *e);

/* Analyses again every trace stored with a version older than
 * RUN_TRACE_VERSION, one at a time: read through rd (a read connection:
 * run_trace_load), analysed outside any transaction (run_trace_analyse,
 * charts by draw), then its analyses and version replaced by one job of w,
 * one trace per transaction, so a crash leaves each trace wholly old or
 * wholly new. Memory is one trace's, as on arrival. A trace that cannot be
 * analysed or stored (damaged files, a limit) is left as it was, passed to
 * fail (may be NULL) with ctx, counted in *failed, and the rest go on.
 * Returns how many traces were renewed, or -1 with err set when the stored
 * traces could not be listed (the traces renewed until then stay so). Not
 * thread-safe on rd. */
int run_trace_renew(db *rd, db_writer *w, run_trace_draw_fn draw,
                    run_trace_renew_fail_fn fail, void *ctx, int *failed,
                    struct err *err);

#endif
