/* lawchange: whether a commit changed how a code scales (SPEC §17
 * "Scaling-law change").
 *
 * Two sets of measurements of one quantity over one variable x (a new
 * commit's runs and its baseline's) are each fitted with `auto`
 * (models/fit.h, the selection curve fitting uses; not changed here), and
 * their predictions at a target x are compared: the change is real when the
 * new law's prediction lies outside the baseline law's 95 % interval at the
 * target and the baseline's outside the new one's (the predictions differ
 * beyond both intervals), and the ratio of the predictions differs from 1
 * by more than a threshold. A law needs measurements at LAWCHANGE_MIN_X
 * distinct values of x on each side.
 *
 * Pure computation: no I/O, no JSON. Thread-safe on distinct arguments.
 */
#ifndef PROPHECY_LAWCHANGE_H
#define PROPHECY_LAWCHANGE_H

#include <stddef.h>

#include "common/err.h"
#include "models/fit.h"

#define LAWCHANGE_MIN_X 4 /* distinct x a side needs (SPEC §17) */
/* The default threshold: the predictions' ratio differs from 1 by more than
 * this (a tenth) before a change is called. */
#define LAWCHANGE_THRESHOLD 0.1

/* One side's law and its prediction at the target. */
struct lawchange_side {
    struct fit_model law;
    double y, lo, hi; /* prediction and 95 % interval at the target */
    size_t nx;        /* distinct x measured */
};

struct lawchange {
    struct lawchange_side now, base;
    double ratio; /* now.y / base.y (0 when base.y is 0) */
    int out;      /* 1: the laws differ at the target (see above) */
};

/* Counts the distinct values of x[0..n). */
size_t lawchange_distinct(const double *x, size_t n);

/* One side: fits (x, y) with `auto` (repetitions at one x averaged) and
 * predicts at target (> 0). Returns 1 and fills *s; 0 when it has fewer
 * than LAWCHANGE_MIN_X distinct x (s->nx says how many) or no law can be
 * fitted or evaluated there (any data auto refuses: judging a run never
 * fails on what was measured); -1 with err on a non-finite value (422) or
 * out of memory. */
int lawchange_side(const double *x, const double *y, size_t n, double target,
                   struct lawchange_side *s, struct err *err);

/* The verdict on two fitted sides (see above; threshold 0 takes
 * LAWCHANGE_THRESHOLD): fills out->ratio and out->out from now and base,
 * which it copies. */
void lawchange_decide(const struct lawchange_side *now, const struct lawchange_side *base,
                      double threshold, struct lawchange *out);

/* Both of the above: fits both sides (x, y pairs; repetitions at one x are
 * averaged) and compares them at target (> 0) with threshold (> 0; 0 takes
 * LAWCHANGE_THRESHOLD). Returns 1 and fills *out when both sides have at
 * least LAWCHANGE_MIN_X distinct x and both laws predict at the target; 0
 * when a side has too few (out->now.nx and out->base.nx say which) or a law
 * cannot be fitted or evaluated there (a degenerate side: never a change);
 * -1 with err on bad arguments (non-finite values, 422) or out of memory. */
int lawchange_compare(const double *xn, const double *yn, size_t nn, const double *xb,
                      const double *yb, size_t nb, double target, double threshold,
                      struct lawchange *out, struct err *err);

#endif
