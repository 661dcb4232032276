/* chart_trace: the trace analyses (models/trace.h) drawn as SVG.
 *
 * Each function appends one standalone SVG document to `out` through the
 * renderer of web/svg.h, deterministically (same answer, same bytes); no I/O,
 * no HTTP, no database. Any number of ranks is drawn (SPEC §16): over
 * SVG_MAX_BARS bars or SVG_MAX_HEAT rows the renderer groups ranks (web/svg.h),
 * the timeline shows an evenly spaced sample of SVG_MAX_HEAT ranks (and a
 * timeline wider than a plot may be, narrower pixels), the cluster panels at
 * most 1,024 points. Return 0, or -1 with err set (ERR_NOMEM out of memory, ERR_INVALID
 * for output over the buffer's maximum); on failure `out` is left as it was. width/height
 * 0 = the default. Thread-safe.
 */
#ifndef PROPHECY_WEB_CHART_TRACE_H
#define PROPHECY_WEB_CHART_TRACE_H

#include "common/buf.h"
#include "models/trace.h"

struct err;

/* What a trace's lanes (bars, rows, points) are called in charts and on its
 * page: "rank" when it has MPI calls (trace_mpi_calls), else "thread" (a
 * trace of user states only: Trace Event JSON's pid/tid pairs, OTF2
 * locations, a recorded program's thread that made no MPI call). Static. */
const char *chart_trace_lane(long long mpi_calls);

/* The name of the time a lane spends in no MPI call and no state: "compute"
 * for ranks, "outside any event" for threads (lane "thread": there is no
 * MPI to compute between). Static. */
const char *chart_trace_compute(const char *lane);

/* `lane` below is that noun (NULL: "rank"). The classes (MPI's and the
 * states) keep one colour each in the timeline, the profile of states and
 * the occupancy of threads: class c is palette colour c while a trace has
 * at most SVG_PALETTE_SIZE classes; beyond, the classes with the most time
 * keep a colour each and the rest are one grey, "other (N more)". */

/* Stacked bars per rank: compute time and the time of each routine used. */
int chart_trace_profile(struct buf *out, const struct trace_profile *p, int width,
                        int height, struct err *err);

/* Stacked bars per lane: its seconds in each state class (the profile's
 * cls; `names` are the user state names), the profile of a trace without
 * MPI calls. */
int chart_trace_states(struct buf *out, const struct trace_profile *p,
                       const char *const *names, const char *lane, int width, int height,
                       struct err *err);

/* Stacked bars per rank: compute vs communication; the imbalance in the title.
 * Without MPI calls (l->mpi_calls 0): each thread's execution time alone. */
int chart_trace_load(struct buf *out, const struct trace_load *l, int width, int height,
                     struct err *err);

/* Heat map of the wait matrix (seconds rank i waited for rank j). */
int chart_trace_wait(struct buf *out, const struct trace_wait *w, int width, int height,
                     struct err *err);

/* Heat map of point-to-point bytes sent from rank i to rank j. */
int chart_trace_traffic(struct buf *out, const struct trace_traffic *tr, int width,
                        int height, struct err *err);

/* Gantt chart: one row per rank, one coloured run per stretch of equal class;
 * `names` are the user state names (nnames of them, as in struct trace). */
int chart_trace_timeline(struct buf *out, const struct trace_timeline *tl,
                         const char *const *names, int nnames, const char *lane,
                         struct err *err);

/* Bars of the mean node occupancy of each class (Lyon); of threads, each
 * state in its timeline colour. */
int chart_trace_occupancy(struct buf *out, const struct trace_occupancy *o,
                          const char *const *names, const char *lane, int width,
                          int height, struct err *err);

/* Scatterplot matrix (Pablo) of the clusters' main dimensions: one panel per
 * pair, a point per rank coloured by its cluster, the dimension names on the
 * diagonal. With fewer than two main dimensions, a single panel says so. */
int chart_trace_clusters(struct buf *out, const struct trace_clusters *c,
                         const char *const *names, const char *lane, struct err *err);

#endif
