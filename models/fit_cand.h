/* fit_cand: the interface between the candidate search (fit_search.c) and the
 * extrapolating `auto` selection (fit_auto.c). Internal to models/fit*.c. */
#ifndef PROPHECY_FIT_CAND_H
#define PROPHECY_FIT_CAND_H

#include "models/fit.h"

#define FIT_MAX_CANDS 64

/* The best law (least PRESS) of one class (number of terms, complexity). */
struct fit_cand {
    struct fit_term term[FIT_MAX_TERMS]; /* term[0] is the constant */
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

/* Runs the normal-form search of fit_auto_select_v1 (without poly3..6 and
 * inv3..6) and writes every class's best law to *out. rel: relative least
 * squares (every y > 0). Errors: 422 "degenerate" for m < 3, 500. */
int fit_search_cands(const struct fit_point *pts, size_t m, int nvars, int rel,
                     struct fit_cands *out, struct err *err);

/* Whether the pair search skips pairs whose PRESS bound cannot beat their
 * class (default 1). The classes come out the same either way; 0 is for the
 * test that checks exactly that. */
void fit_search_pruning(int on);

/* Whether `auto` with two variables may take Extra-P's multi-parameter law
 * when it extrapolates better (candidate E2, adopted on heldout16,
 * docs/models.md §10.1; default 1). 0 is for bench_modeling --e2 off and
 * the test that checks the rule changes the law. */
void fit_auto_two_var_rule(int on);

/* The extrapolating `auto` (fit_auto.c): selects, fits and fills *out, with
 * graph FIT_AUTO; out->xunc and out->outliers are set. pts are the m
 * aggregated points sorted by x. Errors as fit_run. */
int fit_auto_model(const struct fit_point *pts, size_t m, int nvars,
                   struct fit_model *out, struct err *err);

/* A fit y = c0 + c1 * B(x) on the machine curve b (fit_auto.c): relative
 * least squares when every y > 0, xunc from forward validation, graph
 * FIT_AUTO (the caller sets the graph asked for) and chosen FIT_BASIS.
 * pts: m aggregated points of one variable sorted by x. 422 "degenerate"
 * for fewer than 4 points, x <= 0, a curve constant over the data, or a
 * slope c1 <= 0 (the data do not follow the curve). */
int fit_basis_model(const struct fit_point *pts, size_t m, const struct fit_basis *b,
                    struct fit_model *out, struct err *err);

#endif
