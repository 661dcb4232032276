/* aggregate: combine repeated measurements at the same x.
 *
 * Repeated runs of one configuration are normal; every modeling method first
 * groups points by x and reduces each group to one value (mean, median or
 * min), keeping the spread (min, max, standard deviation, count) for error
 * bars and intervals. Pure computation.
 */
#ifndef PROPHECY_AGGREGATE_H
#define PROPHECY_AGGREGATE_H

#include <stddef.h>

#include "common/err.h"

/* AGG_MEAN_SPIKE is `auto`'s mean (agg_spiky below); agg_parse never gives it
 * and agg_name calls it "mean". */
enum agg_kind { AGG_MEAN = 0, AGG_MEDIAN = 1, AGG_MIN = 2, AGG_MEAN_SPIKE = 3 };

/* One distinct x after aggregation. */
struct agg_point {
    double x;
    double y;    /* the aggregated value */
    double ymin; /* spread of the repetitions */
    double ymax;
    double sd; /* sample standard deviation; 0 for a single repetition */
    int n;     /* number of repetitions */
};

/* Parses "mean" | "median" | "min" (NULL or "" = mean). Returns 0, or -1 with
 * an ERR_INVALID error naming `field`. */
int agg_parse(const char *s, enum agg_kind *out, const char *field, struct err *err);
const char *agg_name(enum agg_kind k);

/* Groups the n (x, y) pairs by exact x and aggregates each group. Writes at
 * most n points to out (caller-allocated, n entries), sorted by x ascending.
 * Returns the number of distinct x, or -1 on out of memory. Inputs must be
 * finite (the caller validates). */
int agg_points(const double *x, const double *y, size_t n, enum agg_kind kind,
               struct agg_point *out, struct err *err);

/* `auto` with the mean (the default aggregate): a configuration of at least
 * AGG_SPIKE_RUNS runs one of which lies more than AGG_SPIKE times above their
 * median, or below 1/AGG_SPIKE of it, is represented by that median: a run
 * slowed by other work on the machine (or a first run paying for compiling
 * or warming caches) moves the mean of a few runs far from the rest, and a
 * law fitted through it extrapolates the disturbance (eval/RECORD.md §28).
 * Returns whether the runs of median med, range ymin..ymax, count n are
 * such a configuration. */
#define AGG_SPIKE 2.0
#define AGG_SPIKE_RUNS 3
int agg_spiky(double med, double ymin, double ymax, int n);

/* Reduces n values with the given aggregate; n must be >= 1. The array is
 * reordered (sorted) when kind is AGG_MEDIAN or AGG_MEAN_SPIKE (the mean,
 * or the median where agg_spiky says so). */
double agg_reduce(double *v, size_t n, enum agg_kind kind);

#endif
