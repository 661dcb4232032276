/* sysparam: fitting system parameters from benchmarks; see sysparam.h.
 *
 * Both line fits are the same two-column weighted least-squares problem
 * t ~ c0*x0 + c1*x1 (Hockney: x = (1, L); broadcast: x = (log2 P,
 * log2 P * L)), solved by gsl_multifit_wlinear, whose SVD with column
 * balancing copes with L spanning 1 byte to megabytes.
 */
#include "models/sysparam.h"
#include "common/buf.h"
#include "common/xalloc.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const arg_L[] = {"L"};

static int check_name(const char *name, struct sysparam_fit *out, struct err *err)
{
    struct expr_param_head h;
    struct err tmp = {0};

    if (expr_param_head_parse(name, &h, &tmp) != 0 || h.nargs != 0 ||
        strcmp(h.name, name) != 0)
        return err_invalid(err, "name", "parameter name '%.64s' is not a valid name",
                           name ? name : "");
    memcpy(out->name, h.name, sizeof out->name);
    return 0;
}

/* Validates the measurements shared by every fit. P may be NULL. */
static int check_points(const double *L, const double *P, const double *t, size_t n,
                        size_t min_n, enum sysparam_weight weight, struct err *err)
{
    size_t i;
    int distinct = 0;

    if (n < min_n)
        return err_invalid(err, "measurements",
                           "need at least %zu measurement%s, got %zu", min_n,
                           min_n == 1 ? "" : "s", n);
    if (n > SYSPARAM_MAX_POINTS)
        return err_invalid(err, "measurements", "more than %d measurements",
                           SYSPARAM_MAX_POINTS);
    for (i = 0; i < n; i++) {
        if (!isfinite(t[i]) || t[i] < 0)
            return err_invalid(err, "measurements",
                               "measurement %zu: time must be finite and >= 0", i);
        if (weight == SYSPARAM_RELATIVE && t[i] == 0)
            return err_invalid(err, "measurements",
                               "measurement %zu: relative weighting needs times > 0", i);
        if (L && (!isfinite(L[i]) || L[i] < 0))
            return err_invalid(err, "measurements",
                               "measurement %zu: L must be finite and >= 0", i);
        if (P && (!isfinite(P[i]) || P[i] < 2))
            return err_invalid(
                err, "measurements",
                "measurement %zu: P must be finite and >= 2 for a broadcast", i);
        if (L && L[i] != L[0])
            distinct = 1;
    }
    if (L && !distinct)
        return err_invalid(err, "measurements",
                           "need measurements at two or more different L");
    return 0;
}

/* Fills the error statistics from the fitted values f. */
static void fit_stats(const double *t, const double *f, size_t n,
                      struct sysparam_fit *out)
{
    double ss = 0, rs = 0, as = 0, maxrel = 0, d;
    size_t i, nrel = 0;

    for (i = 0; i < n; i++) {
        d = t[i] - f[i];
        ss += d * d;
        if (t[i] != 0) {
            d = fabs(d / t[i]);
            rs += d * d;
            as += d;
            nrel++;
            if (d > maxrel)
                maxrel = d;
        }
    }
    out->n = n;
    out->rmse = sqrt(ss / (double)n);
    out->rel_rmse = nrel ? sqrt(rs / (double)nrel) : 0;
    out->max_rel_err = maxrel;
    out->mean_rel_err = nrel ? as / (double)nrel : 0;
}

/* Writes v rounded to SYSPARAM_DIGITS significant digits: far beyond what a
 * benchmark measures, and it keeps 5 from printing as 4.999999999999998. */
static void put_num(struct buf *b, double v)
{
    char tmp[48];
    snprintf(tmp, sizeof tmp, "%.*g", SYSPARAM_DIGITS, v);
    expr_print_number(b, strtod(tmp, NULL));
}

/* Writes "a+b*L" (or "a-|b|*L") into buf. */
static void put_line(struct buf *b, double a, double slope)
{
    put_num(b, a);
    buf_putc(b, slope < 0 ? '-' : '+');
    put_num(b, fabs(slope));
    buf_puts(b, "*L");
}

static int set_expr(struct sysparam_fit *out, struct buf *b, struct err *err)
{
    if (buf_failed(b)) {
        buf_free(b);
        return err_set(err, ERR_INTERNAL, "internal", NULL, "fitted expression too long");
    }
    snprintf(out->expr, sizeof out->expr, "%s", buf_str(b));
    buf_free(b);
    return 0;
}

/* Weighted least squares t ~ c0*x0 + c1*x1. x0, x1: n values each. */
static int wls2(const double *x0, const double *x1, const double *t, size_t n,
                enum sysparam_weight weight, double c[2], struct err *err)
{
    gsl_matrix *X = gsl_matrix_alloc(n, 2), *cov = gsl_matrix_alloc(2, 2);
    gsl_vector *y = gsl_vector_alloc(n), *w = gsl_vector_alloc(n),
               *cv = gsl_vector_alloc(2);
    gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(n, 2);
    double chisq;
    size_t i;
    int rc = -1, status;

    if (!X || !cov || !y || !w || !cv || !ws) {
        err_nomem(err);
        goto out;
    }
    for (i = 0; i < n; i++) {
        gsl_matrix_set(X, i, 0, x0[i]);
        gsl_matrix_set(X, i, 1, x1[i]);
        gsl_vector_set(y, i, t[i]);
        gsl_vector_set(w, i, weight == SYSPARAM_RELATIVE ? 1.0 / (t[i] * t[i]) : 1.0);
    }
    status = gsl_multifit_wlinear(X, w, y, cv, cov, &chisq, ws);
    if (status != GSL_SUCCESS) {
        err_set(err, ERR_INTERNAL, "fit_failed", NULL, "least-squares fit failed: %s",
                gsl_strerror(status));
        goto out;
    }
    c[0] = gsl_vector_get(cv, 0);
    c[1] = gsl_vector_get(cv, 1);
    if (!isfinite(c[0]) || !isfinite(c[1])) {
        err_invalid(err, "measurements", "the fit has no finite solution");
        goto out;
    }
    rc = 0;
out:
    gsl_multifit_linear_free(ws);
    gsl_vector_free(cv);
    gsl_vector_free(w);
    gsl_vector_free(y);
    gsl_matrix_free(cov);
    gsl_matrix_free(X);
    return rc;
}

/* Shared body of the two line fits; P == NULL for Hockney. */
static int fit_line(const char *name, const double *L, const double *P, const double *t,
                    size_t n, enum sysparam_weight weight, struct sysparam_fit *out,
                    struct err *err)
{
    double *x0 = NULL, *x1 = NULL, *f = NULL, c[2], lg;
    struct buf b;
    size_t i;
    int rc = -1;

    memset(out, 0, sizeof *out);
    if (check_name(name, out, err) != 0 || check_points(L, P, t, n, 2, weight, err) != 0)
        return -1;
    x0 = xmalloc(n * sizeof *x0);
    x1 = xmalloc(n * sizeof *x1);
    f = xmalloc(n * sizeof *f);
    if (!x0 || !x1 || !f) {
        err_nomem(err);
        goto out;
    }
    for (i = 0; i < n; i++) {
        lg = P ? log2(P[i]) : 1.0;
        x0[i] = lg;
        x1[i] = lg * L[i];
    }
    if (wls2(x0, x1, t, n, weight, c, err) != 0)
        goto out;
    for (i = 0; i < n; i++)
        f[i] = c[0] * x0[i] + c[1] * x1[i];
    out->kind = P ? SYSPARAM_BROADCAST : SYSPARAM_HOCKNEY;
    out->weight = weight;
    out->nargs = 1;
    out->args = arg_L;
    out->a = c[0];
    out->b = c[1];
    snprintf(out->head, sizeof out->head, "%s(L)", out->name);
    fit_stats(t, f, n, out);
    buf_init(&b, SYSPARAM_EXPR_MAX - 1);
    if (P)
        buf_puts(&b, "log2(P)*(");
    put_line(&b, c[0], c[1]);
    if (P)
        buf_putc(&b, ')');
    rc = set_expr(out, &b, err);
out:
    xfree(f);
    xfree(x1);
    xfree(x0);
    return rc;
}

int sysparam_fit_hockney(const char *name, const double *L, const double *t, size_t n,
                         enum sysparam_weight weight, struct sysparam_fit *out,
                         struct err *err)
{
    return fit_line(name, L, NULL, t, n, weight, out, err);
}

int sysparam_fit_broadcast(const char *name, const double *L, const double *P,
                           const double *t, size_t n, enum sysparam_weight weight,
                           struct sysparam_fit *out, struct err *err)
{
    return fit_line(name, L, P, t, n, weight, out, err);
}

int sysparam_fit_constant(const char *name, const double *t, size_t n, enum agg_kind agg,
                          struct sysparam_fit *out, struct err *err)
{
    double *v = NULL, *f = NULL;
    struct buf b;
    size_t i;
    int rc = -1;

    memset(out, 0, sizeof *out);
    if (check_name(name, out, err) != 0 ||
        check_points(NULL, NULL, t, n, 1, SYSPARAM_PLAIN, err) != 0)
        return -1;
    v = xmalloc(n * sizeof *v);
    f = xmalloc(n * sizeof *f);
    if (!v || !f) {
        err_nomem(err);
        goto out;
    }
    memcpy(v, t, n * sizeof *v);
    out->a = agg_reduce(v, n, agg);
    for (i = 0; i < n; i++)
        f[i] = out->a;
    out->kind = SYSPARAM_CONSTANT;
    out->weight = SYSPARAM_PLAIN;
    snprintf(out->head, sizeof out->head, "%s", out->name);
    fit_stats(t, f, n, out);
    buf_init(&b, SYSPARAM_EXPR_MAX - 1);
    put_num(&b, out->a);
    rc = set_expr(out, &b, err);
out:
    xfree(f);
    xfree(v);
    return rc;
}

void sysparam_param(const struct sysparam_fit *f, struct expr_param *out)
{
    out->name = f->name;
    out->args = f->nargs ? f->args : NULL;
    out->nargs = f->nargs;
    out->body = f->expr;
}
