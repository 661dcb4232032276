/* sysparam: system parameters fitted from benchmark measurements.
 *
 * A system parameter is a named expression that templates use (SPEC §3,
 * §5.2). prophecy-bench measures a machine; this module turns its raw
 * measurements into parameters:
 *   - point-to-point send/receive (Hockney): t = a + b*L   -> "a+b*L"
 *   - tree broadcast: t = log2(P)*(a + b*L)                -> "log2(P)*(a+b*L)"
 *   - a core operation (ADDM, ...): t = constant           -> "4.83e-08"
 * with the fit's error (RMSE and maximum relative error). Line fits can
 * weight points by 1/t^2 (relative error), because plain least squares is
 * dominated by the large messages and gets the small-message latency wrong.
 *
 * Pure computation: no I/O. The expression strings parse with expr_compile.
 */
#ifndef PROPHECY_SYSPARAM_H
#define PROPHECY_SYSPARAM_H

#include <stddef.h>

#include "common/err.h"
#include "models/aggregate.h"
#include "models/expr.h"

#define SYSPARAM_MAX_POINTS 100000 /* measurements per fit */
#define SYSPARAM_EXPR_MAX 160      /* bytes of a fitted expression, NUL included */
#define SYSPARAM_DIGITS 10         /* significant digits of numbers in expressions */

enum sysparam_kind {
    SYSPARAM_HOCKNEY = 0,
    SYSPARAM_BROADCAST = 1,
    SYSPARAM_CONSTANT = 2
};

enum sysparam_weight {
    SYSPARAM_PLAIN = 0,   /* minimise sum (t_i - f_i)^2 */
    SYSPARAM_RELATIVE = 1 /* minimise sum ((t_i - f_i) / t_i)^2; needs every t_i > 0 */
};

/* A fitted parameter. Plain value: copy freely. */
struct sysparam_fit {
    enum sysparam_kind kind;
    enum sysparam_weight weight;
    char name[EXPR_MAX_NAME + 1]; /* e.g. "MPISR" */
    size_t nargs;                 /* 1 ("L") for line fits, 0 for constants */
    const char *const *args;      /* static {"L"} or NULL; never freed */
    char head[EXPR_MAX_NAME + 4]; /* "MPISR(L)" or "ADDM" */
    char expr[SYSPARAM_EXPR_MAX]; /* the body, e.g. "15.94+0.0608*L" */
    double a;                     /* intercept (latency); the value for constants */
    double b;                     /* slope (per unit of L); 0 for constants */
    size_t n;                     /* measurements used */
    double rmse;                  /* sqrt(mean (t_i - f_i)^2), in t's unit */
    double max_rel_err;           /* max |t_i - f_i| / |t_i| over t_i != 0 */
    double mean_rel_err;          /* mean |t_i - f_i| / |t_i| over t_i != 0 */
    double rel_rmse;              /* sqrt(mean ((t_i - f_i) / t_i)^2) over t_i != 0 */
};

/* Fits t = a + b*L by (weighted) linear least squares (GSL, SVD).
 * L[i] >= 0 (message size), t[i] >= 0 (time), both finite; n in
 * [2, SYSPARAM_MAX_POINTS] with at least two different L. name must be a
 * valid parameter name (not a function name). Returns 0 and fills *out, or -1
 * with an ERR_INVALID "invalid" error (field "measurements" or "name") or an ERR_INTERNAL
 * when GSL fails. Thread-safe. */
int sysparam_fit_hockney(const char *name, const double *L, const double *t, size_t n,
                         enum sysparam_weight weight, struct sysparam_fit *out /* OUT */,
                         struct err *err);

/* Fits t = log2(P)*(a + b*L) over measurements at several (L, P), P[i] >= 2.
 * Otherwise as sysparam_fit_hockney. The expression reads P from the
 * environment where it is used. */
int sysparam_fit_broadcast(const char *name, const double *L, const double *P,
                           const double *t, size_t n, enum sysparam_weight weight,
                           struct sysparam_fit *out /* OUT */, struct err *err);

/* A constant per-operation time: the median (AGG_MEDIAN, robust to
 * outliers), mean or min of the n per-operation times t[i] (finite, >= 0,
 * 1 <= n <= SYSPARAM_MAX_POINTS). t is not modified. Returns 0 or -1 with an
 * ERR_INVALID error (ERR_NOMEM on out of memory). Thread-safe. */
int sysparam_fit_constant(const char *name, const double *t, size_t n, enum agg_kind agg,
                          struct sysparam_fit *out /* OUT */, struct err *err);

/* Fills an expr_param that views the fit (name, args, body), for an
 * expr_env; valid while *f is. */
void sysparam_param(const struct sysparam_fit *f, struct expr_param *out /* OUT */);

#endif
