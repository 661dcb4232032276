/* changes: where a series shifted, told apart from noise and outliers
 * (SPEC §17 "Change points").
 *
 * A performance series has log-normal noise of a few percent and now and
 * then an outlier several times the noise (a slow node, a noisy neighbour).
 * Tests on means are pulled by the outliers; this module compares ranks
 * instead. A change point at index t says: the runs from t on come from
 * another law than the runs before t. It is tested as runs arrive:
 *
 *   for m = min_after..max_after (3..8), the newest m runs (the "after"
 *   side) against the up to `window` runs before them since the last change
 *   point (the "before" side, at least min_before of them), with the
 *   Mann-Whitney statistic U (pairs after > before, ties counting one half)
 *   and its exact two-sided permutation p value: the share of all ways to
 *   choose m of the m + k values whose U is as far from m·k/2. The sizes
 *   split the significance (weighted Bonferroni: m up to min_after + 2 share
 *   three quarters, the larger the rest); a change point is found when one
 *   size's p value over its share is below `threshold`, where the smallest
 *   such ratio is. Each new run is thus one test at level `threshold`: on a
 *   series of one law at most that share of runs raises a change point. A
 *   shift not found within max_after runs of it becomes part of the runs
 *   later runs are compared with: small shifts that need more runs than
 *   that to stand out of the noise are not found.
 *
 * changes_scan replays a whole history run by run (what GET
 * /api/v1/changes answers) and changes_newest asks only about the newest
 * run (what a changepoint watch asks of each new run); both find the same
 * change points at the same indices. Pure computation: no I/O. A scan
 * keeps the permutation distributions it meets (one table per pair of
 * sizes, built when first met, freed before it returns): a 10,000-run
 * history costs its rank comparisons, not 60,000 distributions.
 * Thread-safe.
 */
#ifndef PROPHECY_CHANGES_H
#define PROPHECY_CHANGES_H

#include <stddef.h>

#include "common/err.h"

#define CHANGES_MAX_AFTER 8    /* the most newest runs one test may take */
#define CHANGES_MAX_WINDOW 200 /* the most runs before them it may compare */

struct changes_opts {
    double threshold;            /* significance of a change point; 0: 0.001 */
    size_t window;               /* runs before the newest compared; 0: 50 */
    size_t min_before;           /* fewest runs since the last change to test; 0: 10 */
    size_t min_after, max_after; /* newest runs tried; 0: 3 and 8 */
};

struct changes_point {
    size_t at;     /* index of the first run of the new law (>= 1) */
    size_t found;  /* index of the run with which it was found */
    double p;      /* the test's p value (Bonferroni-adjusted, <= 1) */
    double before; /* mean of the before side it was tested against */
    double after;  /* mean of the runs from `at` to the next change point or
                      the end of the series */
};

/* Fills o's zero fields with the defaults above and checks it: threshold in
 * (0, 1), window in [min_before, CHANGES_MAX_WINDOW], min_before >= 2,
 * 1 <= min_after <= max_after <= CHANGES_MAX_AFTER. 0, or -1 with an ERR_INVALID
 * naming `field`. */
int changes_check(struct changes_opts *o, const char *field, struct err *err);

/* Every change point of y[0..n) (finite values), in order, at most max of
 * them into out. Returns their number, or -1 with err (a value that is not
 * finite; bad options). */
int changes_scan(const double *y, size_t n, const struct changes_opts *o,
                 struct changes_point *out, size_t max, struct err *err);

/* Whether the newest value y[n-1] reveals a change point, given that the
 * last change point known before it is at `since` (0: none). Returns 1 and
 * fills *out, 0 when it does not, -1 with err. */
int changes_newest(const double *y, size_t n, size_t since, const struct changes_opts *o,
                   struct changes_point *out, struct err *err);

/* ---- the changepoint watch -------------------------------------------------- */

/* What changes_watch keeps between calls: the permutation tables (the
 * watch judges run after run with the same sizes) and, for each series it
 * judged lately, the last change point it saw, kept under the values of
 * its latest runs. Not thread-safe itself: one caller at a time. NULL when
 * out of memory or o is bad. */
struct changes_cache;
struct changes_cache *changes_cache_new(const struct changes_opts *o);
void changes_cache_free(struct changes_cache *c);

/* The question a changepoint watch asks of a new run: y[0..n) are its
 * configuration's latest values in time order, the new run's last; only
 * the last changes_watch_runs(o) of them are looked at (window + max_after
 * + min_before, 68 by default: every run that can be on either side of a
 * test of the new run, and min_before more). The last change point before
 * the new run ("since") is the one this watch saw when it judged the run
 * before it (in c, found by the values of the runs before the new one);
 * when c has none (c NULL, another process, a restart, a run that came out
 * of order) it is found again by replaying the scan over those runs. Runs
 * judged in order thus get exactly the change points changes_scan finds.
 * Returns 1 with *out (indices into y) when the new run reveals a change
 * point, 0 when not, -1 with err. */
#define CHANGES_WATCH_MAX_RUNS (2 * CHANGES_MAX_WINDOW + CHANGES_MAX_AFTER)
size_t changes_watch_runs(const struct changes_opts *o);
int changes_watch(const double *y, size_t n, const struct changes_opts *o,
                  struct changes_cache *c, struct changes_point *out, struct err *err);

/* The exact two-sided p value of the Mann-Whitney statistic u (pairs after >
 * before, ties one half) for m after values and k before values (m <=
 * CHANGES_MAX_AFTER, k <= CHANGES_MAX_WINDOW); 1 when m or k is 0. */
double changes_mw_p(double u, size_t m, size_t k);

#endif
