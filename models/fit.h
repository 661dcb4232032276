/* fit: least-squares curve fitting and model selection (SPEC §5.1, §5.4).
 *
 * Fits y against one variable (or two, for `auto`) on points aggregated by x,
 * with the paper's 12 graph types (poly1..poly6, inv1..inv6), the paper's
 * `unknown` rule (least residual norm of the 12) and `auto`, a selection over
 * the performance-model normal form c0 + sum c_k * prod_v x_v^i * log2(x_v)^j
 * by leave-one-out cross-validation (PRESS) with a parsimony rule. The result
 * is a plain value struct (struct fit_model) that can be stored and evaluated
 * again later, prediction intervals included. docs/models.md (curve fitting) has the
 * mathematics.
 *
 * Pure computation: no I/O, no JSON, no globals; every function is
 * thread-safe on distinct arguments. GSL must run with its error handler off
 * (the program's main calls gsl_set_error_handler_off()); all GSL statuses are
 * checked. Errors are reported through struct err: ERR_INVALID "invalid" for bad
 * requests (unknown graph name, non-finite values), ERR_INVALID "degenerate" for data
 * that cannot determine the model, ERR_TOO_LARGE "too_large" for more than
 * FIT_MAX_POINTS points, ERR_NOMEM "out_of_memory".
 */
#ifndef PROPHECY_FIT_H
#define PROPHECY_FIT_H

#include <stddef.h>

#include "common/buf.h"
#include "common/err.h"
#include "models/aggregate.h"

#define FIT_MAX_VARS 2
#define FIT_MAX_TERMS 7 /* constant + up to 6 (poly6, inv6) */
#define FIT_MAX_POINTS 100000
#define FIT_MAX_OBS 10000000 /* raw observations behind fit_run_points' points */

enum fit_graph {
    FIT_POLY1 = 1, /* FIT_POLY1 + k - 1 = poly k, k = 1..6 */
    FIT_POLY6 = 6,
    FIT_INV1 = 7, /* FIT_INV1 + k - 1 = inv k, k = 1..6 */
    FIT_INV6 = 12,
    FIT_UNKNOWN = 13, /* the paper's least-residual-norm rule over the 12 */
    FIT_AUTO = 14,    /* cross-validated normal-form search */
    FIT_NORMAL = 15,  /* only as fit_model.chosen: a normal-form law outside the 12 */
    FIT_BASIS = 16    /* only as fit_model.chosen: c0 + c1 * a machine curve */
};

/* A machine curve (docs/models.md §12): the time t a system benchmark
 * measured over its one argument (MPISR over the message size L, a STREAM
 * kernel over the array length), the median of its repetitions at each
 * argument value. A fit "on" the curve is y = c0 + c1 * B(x), B the curve
 * interpolated piecewise linearly in log x and log t between its points and
 * continued along its end segments beyond them: the application's time
 * follows the machine's through the regime changes the benchmark measured
 * (the eager limit, the caches) even where the application was not measured. */
#define FIT_BASIS_MAX 64  /* distinct arguments of a machine curve */
#define FIT_BASIS_NAME 64 /* bytes of its name, NUL included (an identifier) */
struct fit_basis {
    int n; /* points; 0 = no curve (every other model) */
    char name[FIT_BASIS_NAME];
    double x[FIT_BASIS_MAX]; /* ascending, distinct, > 0 */
    double t[FIT_BASIS_MAX]; /* > 0 */
    /* The curve is read at scale * x^power: the curve's argument for the
     * application's x (a working set of 24 bytes per element: 24, 1; of a
     * grid side n: 16 n^2). 1 and 1 (what fit_basis_make sets) read it at x
     * itself. 0 < scale <= FIT_BASIS_SCALE_MAX, 0 < power <= FIT_BASIS_POWER_MAX. */
    double scale, power;
};
#define FIT_BASIS_SCALE_MAX 1e15
#define FIT_BASIS_POWER_MAX 4
/* Builds a curve from n raw measurements (x[i], t[i]): the median of t at
 * each distinct x. name must be an identifier (letters, digits, '_', not
 * starting with a digit) shorter than FIT_BASIS_NAME. Returns 0, or -1 with
 * ERR_INVALID "invalid" (field "basis") for a bad name, a non-finite value, x <= 0
 * or t <= 0 (a log-log curve has neither), fewer than 2 or more than
 * FIT_BASIS_MAX distinct x, or n > FIT_BASIS_RAW_MAX; ERR_NOMEM on out of memory. */
#define FIT_BASIS_RAW_MAX 100000 /* raw measurements behind one curve */
int fit_basis_make(const char *name, const double *x, const double *t, size_t n,
                   struct fit_basis *out, struct err *err);
/* The curve's argument for the application's x > 0: scale * x^power. */
double fit_basis_arg(const struct fit_basis *b, double x);
/* B(scale * x^power) for x > 0, B as above (the curve at x itself when
 * scale = power = 1, as fit_basis_make leaves them): the term of a fit on the
 * curve, computed in logarithms so that no finite x overflows the argument.
 * b as fit_basis_make made it (ascending, distinct, positive, n >= 2). */
double fit_basis_at(const struct fit_basis *b, double x);
/* One term: prod over variables v < nvars of x_v^expo[v] * log2(x_v)^logp[v].
 * All zero = the constant term. expo < 0 is an inverse power. */
struct fit_term {
    double expo[FIT_MAX_VARS];
    int logp[FIT_MAX_VARS];
};

/* A fitted model: a plain value, safe to copy with `=` and to serialize field
 * by field. Evaluating needs nvars, nterms, term, coef; prediction intervals
 * also need scale, r, s2, dof, has_interval.
 *
 * Least squares is solved on the weighted, column-scaled design A = W^1/2 X D^-1
 * (W = repetition counts n_i, or n_i / y_i^2 when relative; D = diag(scale),
 * scale[j] = max |column j|) by
 * Householder QR, A = QR. r is R (upper triangle, row-major, nterms x nterms,
 * below-diagonal entries 0), so (X^T W X)^-1 = D^-1 R^-1 R^-T D^-1 and the
 * interval at x needs only a triangular solve, never an explicit inverse. */
struct fit_model {
    int nvars;             /* 1 or 2 */
    int nterms;            /* 1..FIT_MAX_TERMS; term[0] is the constant */
    enum fit_graph graph;  /* the graph as requested (poly*, inv*, unknown, auto) */
    enum fit_graph chosen; /* what was fitted: one of the 12, or FIT_NORMAL */
    struct fit_term term[FIT_MAX_TERMS];
    double coef[FIT_MAX_TERMS]; /* a0, a1, ... in term order */
    double scale[FIT_MAX_TERMS];
    double r[FIT_MAX_TERMS * FIT_MAX_TERMS];
    int relative;     /* 1: relative least squares (weights n_i / y_i^2), used by `auto`
                         when all y > 0; s2 is then a relative variance */
    double s2;        /* residual variance of one observation */
    int dof;          /* observations - nterms; intervals need dof >= 1 */
    int has_interval; /* 0: exact fit (dof 0), intervals collapse to the value */
    double xmin[FIT_MAX_VARS]; /* training range, for plots and extrapolation notes */
    double xmax[FIT_MAX_VARS];
    /* Added by the extrapolating `auto` (0 in other models and in models
     * stored before it, which then predict exactly as before): */
    double xunc;  /* relative standard deviation of the law itself per unit of
                     extrapolation (fit_extrapolation), from the spread of the
                     plausible laws and the forward-validation error; used by
                     fit_predict_ext (fit_predict keeps the classical interval) */
    int outliers; /* points left out of the fit as outliers (robust step) */
    double seg_x; /* > 0: a regime change was found; the law holds for x >= seg_x
                     (the upper regime, one variable), and xmin[0] = seg_x */
    int positive; /* 1: fitted by ordinary least squares to a positive quantity
                     (`auto`'s one-term law, docs/models.md §10): fit_predict_ext's
                     interval is multiplicative, as a relative model's */
    double lean;  /* >= 0: the fit weighed each point also by (x / x_max)^lean,
                     scaled to a mean of 1 (one variable, `auto`, fit_terms_lean,
                     eval/RECORD.md §18); 0: every point alike. Kept so that a
                     refit (fit_suggest) weighs alike */
    /* Two variables (the extrapolating `auto`): the same law fitted again
     * to the points below the largest value of a variable, for each
     * variable with at least 4 distinct values (fold_n of them; fold_v[k]
     * the variable, fold_coef[k] the coefficients in term order). How far
     * these move the prediction at x (fit_fold_spread) sets fit_warning's
     * "far off" for two variables. fold_n = 0 (one variable, too few
     * values, a model stored before them): the warning of before. */
    int fold_n;
    int fold_v[FIT_MAX_VARS];
    double fold_coef[FIT_MAX_VARS][FIT_MAX_TERMS];
    /* A fit on a machine curve (basis.n > 0; one variable): the terms are
     * the constant and u^1 with u = fit_basis_at(&basis, x); xmin and xmax
     * stay in x, and chosen is FIT_BASIS. */
    struct fit_basis basis;
};

/* One aggregated point (one distinct x, or (x1, x2) pair). */
struct fit_point {
    double x[FIT_MAX_VARS];
    double y;          /* aggregated value (mean, median or min) */
    double ymin, ymax; /* spread of the repetitions */
    double sd;         /* sample standard deviation; 0 for one repetition */
    double ss;         /* sum of squares of the repetitions about y */
    int n;             /* repetitions */
    double yhat;       /* fitted value (set by fit_run) */
    double resid;      /* y - yhat (set by fit_run) */
};

/* Statistics on the aggregated points (unweighted: each distinct x counts once). */
struct fit_stats {
    double rss;     /* sum of squared residuals */
    double resnorm; /* sqrt(rss), the paper's "norm of residuals" */
    double r2;      /* 1 - rss/tss; 1 when tss = rss = 0, 0 when tss = 0 < rss */
    double adj_r2;  /* 1 - (1-r2)(m-1)/(m-p); equals r2 when m <= p */
    double rmse;    /* sqrt(rss/m) */
    double smape;   /* mean of 200|y-yhat|/(|y|+|yhat|), percent; a 0/0 term is 0 */
    double cv_rmse; /* leave-one-x-out RMS error from PRESS; 0 when m <= p */
    size_t npoints; /* m, distinct x */
    size_t nobs;    /* raw observations */
};

struct fit_input {
    int nvars;                     /* 1 or 2 */
    const double *x;               /* n * nvars values, row-major: x[i*nvars + v] */
    const double *y;               /* n values */
    size_t n;                      /* 1..FIT_MAX_POINTS */
    const char *graph;             /* graph name, see fit_graph_parse; NULL = "auto" */
    enum agg_kind agg;             /* how repetitions at one x are reduced */
    const struct fit_basis *basis; /* NULL, or fit y = c0 + c1 * B(x) (graph auto
                                      or linear, one variable, x > 0, at least
                                      4 distinct x) */
};

struct fit_result {
    struct fit_model model;
    struct fit_stats stats;
    struct fit_point *points; /* owned: npoints aggregated points sorted by x */
    size_t npoints;
};

/* Parses a graph name: poly1..poly6, inv1..inv6, unknown, auto, and the aliases
 * linear, quadratic, cubic, 4th, 5th, 6th and "inverse linear" ... "inverse
 * 6th". NULL or "" is "auto", the default (SPEC §18). Returns 0, or -1 with
 * ERR_INVALID "invalid" (field "graph"). */
int fit_graph_parse(const char *s, enum fit_graph *out, struct err *err);

/* Canonical id ("poly3", "inv2", "unknown", "auto", "normal"); static string. */
const char *fit_graph_name(enum fit_graph g);

/* Aggregates, fits and selects. On success returns 0 and fills *out (caller
 * frees out->points with fit_result_free). On failure returns -1 with err set
 * and *out holds nothing to free. n > FIT_MAX_POINTS gives ERR_TOO_LARGE "too_large";
 * non-finite x or y, nvars not 1 or 2, an unknown graph name, or a one-variable
 * graph type with two variables give ERR_INVALID "invalid"; too few distinct points for
 * the type, all-equal x, x <= 0 where a type needs x > 0, or rank-deficient data
 * give ERR_INVALID "degenerate". Never produces NaN or inf. */
int fit_run(const struct fit_input *in, struct fit_result *out, struct err *err);

/* fit_run on points aggregated elsewhere (a database that reduced the
 * repetitions itself, core/method_fit.c): m points with x, y, ymin, ymax, sd,
 * ss and n as fit_run's aggregation sets them, sorted by x (by x1, then x2,
 * with two variables), distinct, of nobs raw observations in all. pts is
 * copied; basis as fit_input's. Errors as fit_run (ERR_TOO_LARGE for more than
 * FIT_MAX_POINTS points or FIT_MAX_OBS observations; a non-finite value or n < 1 is
 * ERR_INVALID "invalid"). */
int fit_run_points(const struct fit_point *pts, size_t m, int nvars, const char *graph,
                   const struct fit_basis *basis, size_t nobs, struct fit_result *out,
                   struct err *err);

/* Frees what fit_run allocated; r may be NULL; safe to call twice. */
void fit_result_free(struct fit_result *r);

/* Fits the given terms (terms[0] must be the constant) to m aggregated points
 * by weighted least squares (weights = repetition counts, divided by y^2 when
 * `relative` is 1; every y must then be nonzero) and fills *out
 * (graph and chosen are set to FIT_NORMAL; callers overwrite them). Errors:
 * ERR_INVALID "degenerate" when m < nterms, when a term needs x > 0 and some x <= 0,
 * or when the columns are linearly dependent; ERR_NOMEM on out of memory. */
int fit_terms(const struct fit_point *pts, size_t m, int nvars,
              const struct fit_term *terms, int nterms, int relative,
              struct fit_model *out, struct err *err);

/* fit_terms with each observation's weight also multiplied by
 * (x / x_max)^lean, x_max the largest x of the points, scaled to a mean of 1
 * over the observations (one variable; lean >= 0, 0 is fit_terms): the
 * coefficients lean toward the largest x, where `auto` extrapolates from
 * (eval/RECORD.md §18), while s2 stays the noise of one observation (the
 * repetitions' sums of squares are weighed as their points). out->lean is
 * set to lean.
 * ERR_INVALID also for lean outside 0..FIT_LEAN_MAX, lean > 0 with two
 * variables, or lean > 0 with some x <= 0. */
#define FIT_LEAN_MAX 8
int fit_terms_lean(const struct fit_point *pts, size_t m, int nvars,
                   const struct fit_term *terms, int nterms, int relative, double lean,
                   struct fit_model *out, struct err *err);

/* Selects the `auto` law for m aggregated points: writes its terms (constant
 * first, at most FIT_MAX_TERMS) to terms and their count to *nterms, and
 * whether it is one of the 12 types to *chosen (else FIT_NORMAL), and whether
 * it was selected in relative least squares (all y > 0) to *relative. Does not
 * fit the final model (call fit_terms with that flag). Errors: ERR_INVALID "degenerate"
 * for fewer than 3 distinct points, ERR_NOMEM on out of memory. Implemented in
 * fit_search.c. */
int fit_auto_select(const struct fit_point *pts, size_t m, int nvars,
                    struct fit_term *terms, int *nterms, enum fit_graph *chosen,
                    int *relative, struct err *err);

/* How far x reaches beyond the training range: 0 inside [xmin, xmax] (every
 * variable); beyond it, for positive x and range, log2 of the ratio to the
 * nearest measured end (x = 4 * xmax gives 2); otherwise the distance in
 * units of the range's width. The largest over the variables. */
double fit_extrapolation(const struct fit_model *m, const double *x);

/* One law of the performance model normal form with a single term,
 * c0 + c1 * x^(num/den) * log2(x)^lg, chosen by the single-parameter rule of
 * Extra-P 4 (its default "Basic" modeler): the constant and 42 terms with
 * exponents 0..3 (no negative ones; no log terms when some x < 1), each
 * fitted by ordinary least squares to the points' values, scored by the
 * SMAPE of their leave-one-out predictions (the constant by its in-sample
 * SMAPE), a term contributing under 0.05 % of every value ignored; the least
 * score wins. `auto` takes its law when it extrapolates better in forward
 * validation (fit_auto.c); eval/ prints it as the Extra-P column. */
struct fit_pmnf1 {
    double c0, c1;    /* c1 = 0 for the constant */
    int num, den, lg; /* the term x^(num/den) * log2(x)^lg; num = lg = 0: constant */
    double smape;     /* the winner's score, percent */
};

/* Chooses the law for m points (only x[0] and y are read; repetitions
 * already reduced, one point per distinct x). Returns 0, or -1 when m < 2 or
 * a value is not finite, or m > FIT_PMNF1_MAX (no error is set: the caller
 * decides). */
#define FIT_PMNF1_MAX 64 /* points fit_pmnf1 takes (its leave-one-out is m^2) */
int fit_pmnf1(const struct fit_point *pts, size_t m, struct fit_pmnf1 *out);
/* The same rule with Extra-P's option allow_negative_exponents: 42 more
 * terms, x^(-1/4)..x^(-3) alone and with log2(x)^-1 or ^-2, and no log term
 * at all when some x <= 1. eval/ compares with the better of the two per
 * case, as the shared scaling corpus does; `auto` does not use it. */
int fit_pmnf1_negexp(const struct fit_point *pts, size_t m, struct fit_pmnf1 *out);
double fit_pmnf1_eval(const struct fit_pmnf1 *p, double x);
double fit_pmnf1_term(const struct fit_pmnf1 *p, double x); /* the term alone */

/* Extra-P 4's default multi-parameter rule for two variables (fit_pmnf2.c):
 * each variable's term by fit_pmnf1 on the means over the other variable,
 * then a·b, a + b, a + a·b or b + a·b (each with a constant) by ordinary
 * least squares over every point, the least in-sample SMAPE among those
 * whose terms each make at least 0.05 % of some value (a·b is kept in any
 * case). `auto` takes its law when it extrapolates better in forward
 * validation (fit_auto.c, E2); eval/ prints it beside `auto` on
 * two-variable cases. */
enum {
    FIT_PMNF2_CONST, /* c0 */
    FIT_PMNF2_A,     /* c0 + c1·a(x1) */
    FIT_PMNF2_B,     /* c0 + c1·b(x2) */
    FIT_PMNF2_AB,    /* c0 + c1·a·b */
    FIT_PMNF2_A_B,   /* c0 + c1·a + c2·b */
    FIT_PMNF2_A_AB,  /* c0 + c1·a + c2·a·b */
    FIT_PMNF2_B_AB   /* c0 + c1·b + c2·a·b */
};
struct fit_pmnf2 {
    int form;              /* FIT_PMNF2_* */
    double c[3];           /* c0, then the coefficients in the order above */
    struct fit_pmnf1 a, b; /* the terms of x1 and x2 (their c0, c1 unused) */
    double smape;          /* in-sample, percent */
};

/* Chooses the law for m points, one per distinct (x1, x2) with y the mean.
 * Returns 0, or -1 when m < 2, m > FIT_PMNF2_MAX, a value is not finite or
 * the least squares fail. */
#define FIT_PMNF2_MAX 256
int fit_pmnf2(const struct fit_point *pts, size_t m, struct fit_pmnf2 *out);
/* Every law the rule weighs (the chosen one first, the others in order of
 * SMAPE) into out[FIT_PMNF2_FORMS]; returns how many (1..4), or -1 as
 * fit_pmnf2. */
#define FIT_PMNF2_FORMS 4
int fit_pmnf2_forms(const struct fit_point *pts, size_t m, struct fit_pmnf2 *out);
double fit_pmnf2_eval(const struct fit_pmnf2 *p, const double *x);
/* The law's terms without the constant, in the order of its coefficients
 * c[1..], as fit_terms (t: room for 3); returns how many (0..2). */
int fit_pmnf2_terms(const struct fit_pmnf2 *p, struct fit_term *t);

/* Appends one sentence saying why the prediction y [lo, hi] at x cannot be
 * trusted, or nothing when it can. Reasons: no interval (exact fit), the
 * paper's `unknown` extrapolating a polynomial of degree 3 or more, x far
 * beyond the data (extrapolation > 2, i.e. more than 4x the measured end),
 * an interval wider than the value itself, a prediction <= 0 of a positive
 * quantity, and points left out as outliers. Returns 1 when a warning was
 * written, 0 when none, -1 if the buffer failed. */
int fit_warning(const struct fit_model *m, const double *x, double y, double lo,
                double hi, struct buf *b);

/* Ranks where to measure next. For each of the ncand candidate points cand
 * (ncand * nvars values, row-major) estimates the expected narrowing of the
 * 95 % interval at target: the fraction 1 - w'/w, w the interval width now
 * and w' the width after one more measurement at the candidate (same law and
 * noise, the candidate's leverage and the shorter extrapolation). OUT:
 * gain[ncand], and order[ncand] (may be NULL), the candidate indices sorted
 * by gain, largest first (ties: lower index). Returns 0, or -1 with ERR_INVALID
 * "invalid" for a non-finite or out-of-domain target or candidate, or a model
 * without an interval, ERR_NOMEM on out of memory. */
int fit_suggest(const struct fit_result *r, const double *target, const double *cand,
                size_t ncand, double *gain, size_t *order, struct err *err);

/* Sensible candidates to measure (at most max points of nvars values into
 * cand). One variable: a repetition at the measured end nearest target[0],
 * the powers of two between that end and the target, and the target itself
 * (inside the range: the target alone). Two variables: the same path along
 * each axis from the measured corner nearest the target, first along each
 * axis alone, then along both, and the target (always kept). Returns how
 * many were written (0 for a non-finite target). */
size_t fit_suggest_candidates(const struct fit_model *m, const double *target,
                              double *cand, size_t max);
/* Checks that a model restored from storage is usable (sizes in range, values
 * finite, R nonsingular). Returns 0, or -1 with ERR_INVALID "invalid". */
int fit_model_check(const struct fit_model *m, struct err *err);

/* How far the laws of m's forward folds (fold_*) move the prediction v > 0
 * at x, in log units: the largest |log(f_k(x) / v)|, FIT_FOLD_SPREAD_MAX for
 * a fold not positive there; 0 without folds or for v <= 0. fit_warning
 * reads it for two variables (eval/RECORD.md §15). */
#define FIT_FOLD_SPREAD_MAX 0.5
double fit_fold_spread(const struct fit_model *m, const double *x, double v);

/* Evaluates the model at x (nvars values) into *y. Returns 0, or -1 with
 * ERR_INVALID "invalid" when x is non-finite, x <= 0 for a term with an inverse,
 * fractional or log factor, or the value overflows. */
int fit_eval(const struct fit_model *m, const double *x, double *y, struct err *err);

/* Like fit_eval, plus the 95 % prediction interval of one fresh observation:
 * y +- t(0.975, dof) * sqrt(s2 * (1 + x^T (X^T W X)^-1 x)), with 1 replaced by
 * y^2 for a relative model. OUT: y, lo, hi.
 * Without degrees of freedom (has_interval = 0) lo = hi = y and 0 is returned. */
int fit_predict(const struct fit_model *m, const double *x, double *y, double *lo,
                double *hi, struct err *err);

/* Like fit_predict, with the interval of the extrapolating `auto` when the
 * model has xunc > 0 (otherwise exactly fit_predict): the law's own
 * uncertainty, growing with d = fit_extrapolation(m, x), is added to the
 * noise, and a relative model's interval is multiplicative,
 * y * exp(+-sqrt(c t^2 s2 (1 + h/y^2) + L^2)), so never below 0 for a
 * positive quantity; L = 0.48 d sqrt((d + 1) min(xunc, 0.25)) and c = 1 for
 * one variable, L = 0.5 d and c = 2 (beyond the data) for two (fit.c).
 * OUT: y, lo, hi. Errors as fit_predict. */
int fit_predict_ext(const struct fit_model *m, const double *x, double *y, double *lo,
                    double *hi, struct err *err);

/* Appends the human-readable formula ("y = 0.61 + 1.2e-05·N^3", UTF-8 middle
 * dot, 6 significant digits) with the given variable names (NULL: "x", or
 * "x1", "x2"). Returns 0, or -1 if the buffer failed. */
int fit_formula(const struct fit_model *m, const char *const *varnames, struct buf *b);

/* Appends the machine form: an expression over numbers (shortest round-trip),
 * variable names, + - * / ^, parentheses and log2(), e.g.
 * "0.61+1.2e-05*N^3+2.5*N^(1/2)*log2(N)-3/N". Negative coefficients are
 * written "-c*..."; inverse powers as "/N^k"; fractional exponents in
 * parentheses. Returns 0, or -1 if the buffer failed. */
int fit_machine_formula(const struct fit_model *m, const char *const *varnames,
                        struct buf *b);

#endif
