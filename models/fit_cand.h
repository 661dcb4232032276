/* fit_cand: the interface between the candidate search (fit_search.c) and the
 * extrapolating `auto` selection (fit_auto.c), and what fit_run.c dispatches
 * to. Internal to models/fit*.c (and their unit tests). */
#ifndef PROPHECY_FIT_CAND_H
#define PROPHECY_FIT_CAND_H

#include "models/fit.h"

#define FIT_MAX_CANDS 64

/* The best law (least PRESS) of one class (number of terms, complexity). */
struct fit_cand {
    struct fit_term term[FIT_MAX_TERMS]; /* term[0] is the constant, but in a
                                            law of one term and no constant
                                            (fit_search_pure) */
    int nterms;
    int cx;       /* complexity: log powers plus fractional exponents */
    double press; /* leave-one-x-out sum of squares (relative when rel) */
    double se;    /* its standard error */
    double rss;   /* weighted residual sum of squares */
};

struct fit_cands {
    struct fit_cand c[FIT_MAX_CANDS]; /* c[0] is the constant model */
    int n;
    double ss_pe, dof_pe; /* pure error of the repetitions (weighted) */
};

/* Runs the normal-form search (c0 + up to two terms in one variable, three
 * products in two; never poly3..6 or inv3..6, which stay explicit graph
 * types) and writes every class's best law to *out. rel: relative least
 * squares (every y > 0). prune: skip the pairs whose PRESS bound cannot beat
 * their class (`auto` always does; the classes come out the same either way,
 * which the unit test checks with 0). Errors: ERR_INVALID "degenerate" for m < 3,
 * ERR_INTERNAL. */
int fit_search_cands(const struct fit_point *pts, size_t m, int nvars, int rel, int prune,
                     struct fit_cands *out, struct err *err);

/* Appends to out the best law of one term and no constant, y = c f(x) with
 * c > 0, of each complexity: every factor f of the search's catalogue (two
 * variables: products of a factor of each, or of either alone), relative
 * least squares, scored by PRESS as the search scores its laws. For a
 * positive quantity of positive x only; returns how many were appended (0
 * otherwise). `auto` adds them when its selection would answer a constant
 * that misses its own forward points by more than a factor e (fit_auto.c,
 * select_law). */
int fit_search_pure(const struct fit_point *pts, size_t m, int nvars,
                    struct fit_cands *out);

/* The extrapolating `auto` (fit_auto.c): selects, fits and fills *out, with
 * graph FIT_AUTO; out->xunc and out->outliers are set. pts are the m
 * aggregated points sorted by x. Errors as fit_run. */
int fit_auto_model(const struct fit_point *pts, size_t m, int nvars,
                   struct fit_model *out, struct err *err);

/* fit_auto_model without Extra-P's laws as alternatives (the one-term rule
 * of one variable, the multi-parameter rule of two): the selection alone,
 * which the unit tests compare with the whole. */
int fit_auto_selection(const struct fit_point *pts, size_t m, int nvars,
                       struct fit_model *out, struct err *err);

/* A fit y = c0 + c1 * B(x) on the machine curve b (fit_auto.c): relative
 * least squares when every y > 0, xunc from forward validation, graph
 * FIT_AUTO (the caller sets the graph asked for) and chosen FIT_BASIS.
 * pts: m aggregated points of one variable sorted by x. ERR_INVALID "degenerate"
 * for fewer than 4 points, x <= 0, a curve constant over the data, or a
 * slope c1 <= 0 (the data do not follow the curve). */
int fit_basis_model(const struct fit_point *pts, size_t m, const struct fit_basis *b,
                    struct fit_model *out, struct err *err);

/* Fills r->stats for r->model over r->points of nobs observations (fit.c;
 * called by fit_run.c once the model is chosen). */
void fit_stats_compute(struct fit_result *r, size_t nobs);

#endif
