/* trace: storing a run's MPI trace and its analyses (SPEC §13).
 *
 * A trace is kept as the per-rank files the recorder wrote (formats/trace.h;
 * opaque bytes here) with its bounds, and beside it each analysis computed
 * once on arrival: its JSON answer and its SVG chart, as text. Reads of an
 * analysis are one row; nothing is recomputed per view.
 */
#ifndef PROPHECY_DB_TRACE_H
#define PROPHECY_DB_TRACE_H

#include <stddef.h>

#include "common/arena.h"
#include "common/err.h"
#include "db/db.h"

/* The bounds of a stored trace. */
struct db_trace_info {
    long long run_id;
    int nranks;
    long long nevents;
    double span; /* seconds: the longest rank's execution time */
    long long dropped;
    long long bytes; /* of the per-rank files together */
    const char *created_at;
    /* the version of the analyses stored with it (core/trace.h
     * RUN_TRACE_VERSION; 0: stored before versions were kept) */
    long long analysed;
};

/* One analysis as stored. */
struct db_trace_analysis {
    const char *name;
    const char *answer; /* JSON text */
    const char *svg;    /* SVG document */
};

/* Stores run_id's trace inside the caller's transaction: its bounds
 * (info->run_id .. bytes and analysed; created_at is set here), ranks[i] of lens[i] bytes
 * for rank i, and n analyses. Fails with ERR_NOT_FOUND when the run does not exist and
 * ERR_CONFLICT "conflict" when it already has a trace. Returns 0 or -1. */
int db_trace_insert(db *d, const struct db_trace_info *info, const void *const *ranks,
                    const size_t *lens, const struct db_trace_analysis *an, size_t n,
                    struct err *err);

/* Reads the bounds of run_id's trace into *out (strings in a). Returns 1
 * found, 0 when the run has no trace, -1 with err set. */
int db_trace_info(db *d, long long run_id, arena *a, struct db_trace_info *out,
                  struct err *err);

/* Reads one stored analysis: the answer (svg = 0) or the chart (svg = 1) as
 * arena text in *text, *len bytes. Returns 1 found, 0 not stored, -1 error. */
int db_trace_analysis(db *d, long long run_id, const char *name, int svg, arena *a,
                      const char **text, size_t *len, struct err *err);

/* Reads the per-rank files of run_id's trace: *ranks and *lens (arena
 * arrays of *n entries, bytes in a). Returns 1 found, 0 none, -1 error. */
int db_trace_ranks(db *d, long long run_id, arena *a, const void ***ranks, size_t **lens,
                   int *n, struct err *err);

/* The run ids of the stored traces analysed by a version older than
 * `version` (analysed < version), above `after`, in run id order: at most max
 * of them into ids (the caller's array). Returns the count or -1 with err
 * set. */
int db_trace_older(db *d, long long version, long long after, long long *ids, int max,
                   struct err *err);

/* Replaces the n stored analyses of run_id's trace with an[] and records
 * `version` as the version that computed them, inside the caller's
 * transaction; only when the trace is still older than version (another
 * server on the same database may have replaced it, or the run been
 * deleted, since it was read). Returns 1 replaced, 0 left as it is (no
 * such trace, or one at version or newer), -1 with err set. */
int db_trace_replace(db *d, long long run_id, long long version,
                     const struct db_trace_analysis *an, size_t n, struct err *err);

/* The id of the run stored with client id `uid`: 1 found (*id set), 0 none,
 * -1 with err set. */
int db_trace_run_by_uid(db *d, const char *uid, long long *id, struct err *err);

/* The traces of one application's runs, for estimators across runs: run ids,
 * their nprocs and the value of input `input` (NAN when the run lacks it;
 * input NULL: none). At most max rows, in run id order; *rows in a. Returns
 * the count or -1. */
struct db_trace_run {
    long long run_id, nprocs;
    double input;
};
int db_trace_runs_of_app(db *d, const char *application, const char *input, int max,
                         arena *a, struct db_trace_run **rows, struct err *err);

#endif
