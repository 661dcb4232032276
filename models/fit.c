/* fit: graph types, aggregation, weighted least squares by scaled QR,
 * statistics, prediction intervals and formulas; see fit.h. The `auto` search
 * lives in fit_search.c. Least squares never forms normal equations: the
 * design is column-scaled and factored by GSL's Householder QR. */
#include "models/fit.h"
#include "models/fit_cand.h"
#include "common/xalloc.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Relative size of a diagonal entry of R below which the scaled columns are
 * treated as linearly dependent. */
#define FIT_RANK_TOL 1e-12

static const struct {
    const char *name;
    enum fit_graph g;
} graph_names[] = {
    {"poly1", FIT_POLY1},
    {"poly2", FIT_POLY1 + 1},
    {"poly3", FIT_POLY1 + 2},
    {"poly4", FIT_POLY1 + 3},
    {"poly5", FIT_POLY1 + 4},
    {"poly6", FIT_POLY6},
    {"inv1", FIT_INV1},
    {"inv2", FIT_INV1 + 1},
    {"inv3", FIT_INV1 + 2},
    {"inv4", FIT_INV1 + 3},
    {"inv5", FIT_INV1 + 4},
    {"inv6", FIT_INV6},
    {"unknown", FIT_UNKNOWN},
    {"auto", FIT_AUTO},
    {"linear", FIT_POLY1},
    {"quadratic", FIT_POLY1 + 1},
    {"cubic", FIT_POLY1 + 2},
    {"4th", FIT_POLY1 + 3},
    {"5th", FIT_POLY1 + 4},
    {"6th", FIT_POLY6},
    {"inverse linear", FIT_INV1},
    {"inverse quadratic", FIT_INV1 + 1},
    {"inverse cubic", FIT_INV1 + 2},
    {"inverse 4th", FIT_INV1 + 3},
    {"inverse 5th", FIT_INV1 + 4},
    {"inverse 6th", FIT_INV6},
};

int fit_graph_parse(const char *s, enum fit_graph *out, struct err *err)
{
    size_t i;

    *out = FIT_AUTO; /* the default (SPEC §18); also on error: g is never unset */
    if (s == NULL || *s == '\0')
        return 0;
    for (i = 0; i < sizeof graph_names / sizeof graph_names[0]; i++)
        if (strcmp(s, graph_names[i].name) == 0) {
            *out = graph_names[i].g;
            return 0;
        }
    return err_invalid(err, "graph",
                       "unknown graph type; use poly1..poly6, inv1..inv6, linear, "
                       "quadratic, cubic, 4th, 5th, 6th, \"inverse linear\" .. "
                       "\"inverse 6th\", unknown or auto");
}

const char *fit_graph_name(enum fit_graph g)
{
    size_t i;

    if (g == FIT_NORMAL)
        return "normal";
    if (g == FIT_BASIS)
        return "basis";
    for (i = 0; i < sizeof graph_names / sizeof graph_names[0]; i++)
        if (graph_names[i].g == g)
            return graph_names[i].name;
    return "invalid";
}

/* ---- terms ---- */

/* x^e exactly by repeated multiplication for small integer e (pow() is
 * usually exact there too, but this is faster and certain). */
static double ipow(double x, int e)
{
    double r = 1;
    int k = e < 0 ? -e : e;

    while (k-- > 0)
        r *= x;
    return e < 0 ? 1 / r : r;
}

static int is_small_int(double e)
{
    return e == floor(e) && fabs(e) <= 16;
}

/* Whether the factor x^e log2(x)^l is only defined for x > 0. */
static int factor_needs_positive(double e, int l)
{
    return l > 0 || e < 0 || !is_small_int(e);
}

static int term_needs_positive(const struct fit_term *t, int nvars, int v)
{
    (void)nvars;
    return factor_needs_positive(t->expo[v], t->logp[v]);
}

static double factor_value(double x, double e, int l)
{
    double f = is_small_int(e) ? ipow(x, (int)e) : pow(x, e);

    if (l > 0) {
        double lg = log2(x);
        f *= ipow(lg, l);
    }
    return f;
}

static double term_value(const struct fit_term *t, int nvars, const double *x)
{
    double f = 1;
    int v;

    for (v = 0; v < nvars; v++)
        if (t->expo[v] != 0 || t->logp[v] != 0)
            f *= factor_value(x[v], t->expo[v], t->logp[v]);
    return f;
}

/* ---- machine curves ---- */

static int cmp_xt(const void *a, const void *b)
{
    const double *p = a, *q = b;
    if (p[0] != q[0])
        return p[0] < q[0] ? -1 : 1;
    return (p[1] > q[1]) - (p[1] < q[1]);
}

int fit_basis_make(const char *name, const double *x, const double *t, size_t n,
                   struct fit_basis *out, struct err *err)
{
    double *xt;
    size_t i, j, k = 0, len = name ? strlen(name) : 0;

    memset(out, 0, sizeof *out);
    if (len == 0 || len >= FIT_BASIS_NAME ||
        !(isalpha((unsigned char)name[0]) || name[0] == '_'))
        return err_invalid(err, "basis",
                           "the machine curve needs a name: an identifier of "
                           "at most %d bytes",
                           FIT_BASIS_NAME - 1);
    for (i = 0; i < len; i++)
        if (!isalnum((unsigned char)name[i]) && name[i] != '_')
            return err_invalid(err, "basis",
                               "the machine curve's name must be an identifier");
    if (n > FIT_BASIS_RAW_MAX)
        return err_set(err, ERR_TOO_LARGE, "too_large", "basis",
                       "%zu measurements exceed the limit of %d per machine curve", n,
                       FIT_BASIS_RAW_MAX);
    for (i = 0; i < n; i++)
        if (!isfinite(x[i]) || !isfinite(t[i]) || !(x[i] > 0) || !(t[i] > 0))
            return err_invalid(err, "basis",
                               "measurement %zu of the machine curve is (%g, %g): its "
                               "argument and time must be finite and > 0",
                               i, x[i], t[i]);
    if ((xt = xmalloc((n + 1) * 2 * sizeof *xt)) == NULL)
        return err_nomem(err);
    for (i = 0; i < n; i++) {
        xt[2 * i] = x[i];
        xt[2 * i + 1] = t[i];
    }
    qsort(xt, n, 2 * sizeof *xt, cmp_xt);
    for (i = 0; i < n; i = j) {
        for (j = i; j < n && xt[2 * j] == xt[2 * i]; j++)
            ;
        if (k == FIT_BASIS_MAX) {
            xfree(xt);
            memset(out, 0, sizeof *out);
            return err_invalid(err, "basis",
                               "the machine curve has more than %d distinct arguments",
                               FIT_BASIS_MAX);
        }
        /* the median of the times at this argument (sorted by the qsort) */
        out->x[k] = xt[2 * i];
        out->t[k] = (j - i) % 2 ? xt[2 * (i + (j - i) / 2) + 1]
                                : 0.5 * (xt[2 * (i + (j - i) / 2 - 1) + 1] +
                                         xt[2 * (i + (j - i) / 2) + 1]);
        k++;
    }
    xfree(xt);
    if (k < 2) {
        memset(out, 0, sizeof *out);
        return err_invalid(err, "basis",
                           "the machine curve needs at least 2 distinct arguments");
    }
    out->n = (int)k;
    out->scale = out->power = 1;
    memcpy(out->name, name, len + 1);
    return 0;
}

/* The curve at the argument e^lx. */
static double basis_eval_log(const struct fit_basis *b, double lx)
{
    int i = 0;
    double u, lx0, lx1;

    /* the segment holding x, or the end segment beyond the curve */
    while (i + 2 < b->n && lx > log(b->x[i + 1]))
        i++;
    lx0 = log(b->x[i]);
    lx1 = log(b->x[i + 1]);
    u = (lx - lx0) / (lx1 - lx0);
    return exp(log(b->t[i]) + u * (log(b->t[i + 1]) - log(b->t[i])));
}

double fit_basis_arg(const struct fit_basis *b, double x)
{
    return b->scale * pow(x, b->power); /* exactly x at scale = power = 1 */
}

double fit_basis_at(const struct fit_basis *b, double x)
{
    return basis_eval_log(b, log(b->scale) + b->power * log(x));
}

/* The variable the terms see: x, or the machine curve at x. */
static const double *term_x(const struct fit_model *m, const double *x, double *u)
{
    if (m->basis.n == 0)
        return x;
    u[0] = fit_basis_at(&m->basis, x[0]);
    u[1] = 0;
    return u;
}

/* ---- least squares ---- */

int fit_terms(const struct fit_point *pts, size_t m, int nvars,
              const struct fit_term *terms, int nterms, int relative,
              struct fit_model *out, struct err *err)
{
    return fit_terms_lean(pts, m, nvars, terms, nterms, relative, 0, out, err);
}

int fit_terms_lean(const struct fit_point *pts, size_t m, int nvars,
                   const struct fit_term *terms, int nterms, int relative, double lean,
                   struct fit_model *out, struct err *err)
{
    double *a = NULL, *b = NULL, *work = NULL;
    double *tau, *cs, *res;
    size_t i, nobs = 0;
    int j, k, v, p = nterms, rc = -1;
    double ss_within = 0, wrss = 0, rmax = 0, wbar = 1;

    if (nterms < 1 || nterms > FIT_MAX_TERMS || nvars < 1 || nvars > FIT_MAX_VARS)
        return err_invalid(err, NULL, "model needs 1 to %d terms", FIT_MAX_TERMS);
    if (!(lean >= 0 && lean <= FIT_LEAN_MAX) || (lean > 0 && nvars != 1))
        return err_invalid(err, NULL, "lean must be 0 to %g, and 0 with two variables",
                           (double)FIT_LEAN_MAX);
    if (m < (size_t)nterms)
        return err_set(err, ERR_INVALID, "degenerate", "data",
                       "%zu distinct point%s cannot determine %d coefficients; give at "
                       "least %d distinct x values or choose a type with fewer terms",
                       m, m == 1 ? "" : "s", nterms, nterms);
    for (j = 0; j < p; j++)
        for (v = 0; v < nvars; v++)
            if (term_needs_positive(&terms[j], nvars, v))
                for (i = 0; i < m; i++)
                    if (!(pts[i].x[v] > 0))
                        return err_set(err, ERR_INVALID, "degenerate", "data",
                                       "x = %g: inverse, fractional and log terms need "
                                       "x > 0",
                                       pts[i].x[v]);

    a = xmalloc(m * (size_t)p * sizeof *a);
    b = xmalloc(m * sizeof *b);
    work = xmalloc((3 * (size_t)p + m) * sizeof *work);
    if (a == NULL || b == NULL || work == NULL) {
        err_nomem(err);
        goto out;
    }
    tau = work;
    cs = work + p;
    res = work + 2 * p + p;

    memset(out, 0, sizeof *out);
    out->relative = relative != 0;
    out->nvars = nvars;
    out->nterms = p;
    out->graph = out->chosen = FIT_NORMAL;
    memcpy(out->term, terms, (size_t)p * sizeof *terms);
    for (v = 0; v < nvars; v++) {
        out->xmin[v] = out->xmax[v] = pts[0].x[v];
        for (i = 1; i < m; i++) {
            out->xmin[v] = pts[i].x[v] < out->xmin[v] ? pts[i].x[v] : out->xmin[v];
            out->xmax[v] = pts[i].x[v] > out->xmax[v] ? pts[i].x[v] : out->xmax[v];
        }
    }

    /* Weighted rows sqrt(n_i) * (f(x_i), y_i): for mean aggregation this is
     * exactly least squares on every raw observation. With lean > 0 each
     * observation's weight also times wl = (x_i / x_max)^lean / wbar, wbar
     * the mean of that factor over the observations, its repetitions' sum
     * of squares included: the weights say where the law is judged, not how
     * noisy a point is, so they keep a mean of 1 and s2 stays the noise of
     * one observation (the coefficients do not depend on wbar). */
    out->lean = lean;
    if (lean > 0) {
        double sn = 0, swl = 0;
        for (i = 0; i < m; i++) {
            double n1 = (double)(pts[i].n > 0 ? pts[i].n : 1);
            if (!(pts[i].x[0] > 0)) {
                err_set(err, ERR_INVALID, "degenerate", "data",
                        "x = %g: a fit leaning toward the largest x needs x > 0",
                        pts[i].x[0]);
                goto out;
            }
            sn += n1;
            swl += n1 * pow(pts[i].x[0] / out->xmax[0], lean);
        }
        wbar = swl / sn;
    }
    for (i = 0; i < m; i++) {
        double sw = sqrt((double)(pts[i].n > 0 ? pts[i].n : 1));
        double wl = lean > 0 ? pow(pts[i].x[0] / out->xmax[0], lean) / wbar : 1;
        sw *= sqrt(wl);
        if (relative) {
            if (!(pts[i].y != 0)) {
                err_set(err, ERR_INVALID, "degenerate", "data",
                        "relative least squares needs every y nonzero");
                goto out;
            }
            sw /= fabs(pts[i].y);
        }
        for (j = 0; j < p; j++)
            a[i * (size_t)p + (size_t)j] = sw * term_value(&terms[j], nvars, pts[i].x);
        b[i] = sw * pts[i].y;
        nobs += (size_t)(pts[i].n > 0 ? pts[i].n : 1);
        ss_within += wl * (relative ? pts[i].ss / (pts[i].y * pts[i].y) : pts[i].ss);
    }
    for (j = 0; j < p; j++) {
        double d = 0;
        for (i = 0; i < m; i++) {
            double t = fabs(a[i * (size_t)p + (size_t)j]);
            if (!isfinite(t)) {
                err_set(err, ERR_INVALID, "degenerate", "data",
                        "term %d overflows at x = %g; rescale the data", j, pts[i].x[0]);
                goto out;
            }
            d = t > d ? t : d;
        }
        if (d == 0) {
            err_set(err, ERR_INVALID, "degenerate", "data",
                    "term %d is zero at every point; the data cannot determine it", j);
            goto out;
        }
        out->scale[j] = d;
        for (i = 0; i < m; i++)
            a[i * (size_t)p + (size_t)j] /= d;
    }

    {
        gsl_matrix_view A = gsl_matrix_view_array(a, m, (size_t)p);
        gsl_vector_view T = gsl_vector_view_array(tau, (size_t)p);
        gsl_vector_view B = gsl_vector_view_array(b, m);
        gsl_vector_view C = gsl_vector_view_array(cs, (size_t)p);
        gsl_vector_view R = gsl_vector_view_array(res, m);

        if (gsl_linalg_QR_decomp(&A.matrix, &T.vector) != GSL_SUCCESS) {
            err_set(err, ERR_INVALID, "degenerate", "data", "QR factorisation failed");
            goto out;
        }
        for (j = 0; j < p; j++) {
            double d = fabs(a[(size_t)j * (size_t)p + (size_t)j]);
            rmax = d > rmax ? d : rmax;
        }
        for (j = 0; j < p; j++)
            if (!(fabs(a[(size_t)j * (size_t)p + (size_t)j]) > FIT_RANK_TOL * rmax)) {
                err_set(err, ERR_INVALID, "degenerate", "data",
                        "the x values cannot separate the %d terms (rank deficient); "
                        "give more distinct x values or fewer terms",
                        p);
                goto out;
            }
        if (gsl_linalg_QR_lssolve(&A.matrix, &T.vector, &B.vector, &C.vector,
                                  &R.vector) != GSL_SUCCESS) {
            err_set(err, ERR_INVALID, "degenerate", "data", "least-squares solve failed");
            goto out;
        }
    }
    for (j = 0; j < p; j++) {
        out->coef[j] = cs[j] / out->scale[j];
        for (k = j; k < p; k++)
            out->r[j * p + k] = a[(size_t)j * (size_t)p + (size_t)k];
    }
    for (i = 0; i < m; i++)
        wrss += res[i] * res[i];
    for (j = 0; j < p; j++)
        if (!isfinite(out->coef[j])) {
            err_set(err, ERR_INVALID, "degenerate", "data",
                    "coefficients are not finite");
            goto out;
        }
    out->dof = (int)(nobs - (size_t)p);
    if (out->dof > 0) {
        out->s2 = (wrss + ss_within) / out->dof;
        out->has_interval = isfinite(out->s2);
        if (!out->has_interval)
            out->s2 = 0;
    }
    rc = 0;
out:
    xfree(a);
    xfree(b);
    xfree(work);
    return rc;
}

/* ---- evaluation and intervals ---- */

static int check_x(const struct fit_model *m, const double *x, struct err *err)
{
    int j, v;

    if (m->basis.n > 0 && !(x[0] > 0 && isfinite(x[0])))
        return err_invalid(err, "x",
                           "the model follows the machine curve %s: x = %g must be "
                           "finite and > 0",
                           m->basis.name, x[0]);
    for (v = 0; v < m->nvars; v++) {
        if (!isfinite(x[v]))
            return err_invalid(err, "x", "x must be finite");
        for (j = 0; j < m->nterms; j++)
            if (term_needs_positive(&m->term[j], m->nvars, v) && !(x[v] > 0))
                return err_invalid(err, "x",
                                   "the model has inverse, fractional or log terms: "
                                   "x = %g must be > 0",
                                   x[v]);
    }
    return 0;
}

int fit_model_check(const struct fit_model *m, struct err *err)
{
    int j, k, v;

    if (m->nvars < 1 || m->nvars > FIT_MAX_VARS || m->nterms < 1 ||
        m->nterms > FIT_MAX_TERMS)
        return err_invalid(err, "model",
                           "model has an invalid number of variables or terms");
    for (j = 0; j < m->nterms; j++) {
        if (!isfinite(m->coef[j]) || !(m->scale[j] > 0) || !isfinite(m->scale[j]))
            return err_invalid(err, "model", "model coefficient %d is not finite", j);
        if (!(fabs(m->r[j * m->nterms + j]) > 0))
            return err_invalid(err, "model", "model factor R is singular");
        for (k = 0; k < m->nterms; k++)
            if (!isfinite(m->r[j * m->nterms + k]))
                return err_invalid(err, "model", "model factor R is not finite");
        for (v = 0; v < m->nvars; v++)
            if (!isfinite(m->term[j].expo[v]) || m->term[j].logp[v] < 0 ||
                m->term[j].logp[v] > 8)
                return err_invalid(err, "model", "model term %d is invalid", j);
    }
    if (!isfinite(m->s2) || m->s2 < 0 || m->dof < 0)
        return err_invalid(err, "model", "model variance is invalid");
    if (!isfinite(m->xunc) || m->xunc < 0 || !isfinite(m->seg_x) || m->outliers < 0)
        return err_invalid(err, "model", "model extrapolation terms are invalid");
    if (!(m->lean >= 0 && m->lean <= FIT_LEAN_MAX) || (m->lean > 0 && m->nvars != 1))
        return err_invalid(err, "model", "model lean is invalid");
    if (m->fold_n < 0 || m->fold_n > m->nvars || (m->fold_n > 0 && m->nvars < 2))
        return err_invalid(err, "model", "model forward folds are invalid");
    for (k = 0; k < m->fold_n; k++) {
        if (m->fold_v[k] < 0 || m->fold_v[k] >= m->nvars ||
            (k > 0 && m->fold_v[k] <= m->fold_v[k - 1]))
            return err_invalid(err, "model", "model forward folds are invalid");
        for (j = 0; j < m->nterms; j++)
            if (!isfinite(m->fold_coef[k][j]))
                return err_invalid(err, "model", "model forward folds are invalid");
    }
    if (m->basis.n != 0) {
        const struct fit_basis *b = &m->basis;
        size_t len = strnlen(b->name, sizeof b->name);
        if (b->n < 2 || b->n > FIT_BASIS_MAX || m->nvars != 1 || len == 0 ||
            len == sizeof b->name || !(b->scale > 0 && b->scale <= FIT_BASIS_SCALE_MAX) ||
            !(b->power > 0 && b->power <= FIT_BASIS_POWER_MAX))
            return err_invalid(err, "model", "model machine curve is invalid");
        for (j = 0; j < b->n; j++)
            if (!(b->x[j] > 0) || !(b->t[j] > 0) || !isfinite(b->x[j]) ||
                !isfinite(b->t[j]) || (j > 0 && !(b->x[j] > b->x[j - 1])))
                return err_invalid(err, "model", "model machine curve is invalid");
    }
    return 0;
}

int fit_eval(const struct fit_model *m, const double *x, double *y, struct err *err)
{
    double s = 0, u[FIT_MAX_VARS];
    int j;

    if (check_x(m, x, err) < 0)
        return -1;
    x = term_x(m, x, u);
    for (j = 0; j < m->nterms; j++)
        s += m->coef[j] * term_value(&m->term[j], m->nvars, x);
    if (!isfinite(s))
        return err_invalid(err, "x", "the prediction overflows at this x");
    *y = s;
    return 0;
}

/* x^T (X^T W X)^-1 x = |R^-T D^-1 f(x)|^2, by forward substitution. */
static double leverage(const struct fit_model *m, const double *x)
{
    double w[FIT_MAX_TERMS], h = 0, u[FIT_MAX_VARS];
    int j, k, p = m->nterms;

    x = term_x(m, x, u);
    for (j = 0; j < p; j++) {
        double z = term_value(&m->term[j], m->nvars, x) / m->scale[j];
        for (k = 0; k < j; k++)
            z -= m->r[k * p + j] * w[k];
        w[j] = z / m->r[j * p + j];
        h += w[j] * w[j];
    }
    return h;
}

double fit_fold_spread(const struct fit_model *m, const double *x, double v)
{
    double g = 0, u[FIT_MAX_VARS];
    int k, j;

    if (m->fold_n <= 0 || !(v > 0))
        return 0;
    x = term_x(m, x, u);
    for (k = 0; k < m->fold_n; k++) {
        double f = 0;
        for (j = 0; j < m->nterms; j++)
            f += m->fold_coef[k][j] * term_value(&m->term[j], m->nvars, x);
        g = fmax(g, f > 0 && isfinite(f) ? fabs(log(f / v)) : FIT_FOLD_SPREAD_MAX);
    }
    return g;
}

int fit_predict(const struct fit_model *m, const double *x, double *y, double *lo,
                double *hi, struct err *err)
{
    double v, half;

    if (fit_eval(m, x, &v, err) < 0)
        return -1;
    *y = *lo = *hi = v;
    if (!m->has_interval || m->dof < 1)
        return 0;
    half = gsl_cdf_tdist_Pinv(0.975, (double)m->dof) *
           sqrt(m->s2 * ((m->relative ? v * v : 1) + leverage(m, x)));
    if (!isfinite(half))
        return err_invalid(err, "x", "the prediction interval overflows at this x");
    *lo = v - half;
    *hi = v + half;
    return 0;
}

/* The law's part of an interval, in log units at a reach of d doublings,
 * added in quadrature to the noise part (t times its standard error, its
 * variance times NOISE_K beyond the data):
 *   one variable:  XUNC_K[0] * d * sqrt((d + 1) * min(xunc, XUNC_INTERVAL_MAX))
 *   two variables: XUNC_K[1] * d, noise variance x 2
 * Calibrated on the extrapolated observations of every development corpus
 * (synthetic laws of one and two variables, the 19 sets of eval/data cut
 * at 45 %, 60 % and 75 % of their x and with single runs, the shared
 * scaling corpus; eval/RECORD.md §8): the smallest factors that keep every
 * one at 86 % or more (the target is 85 %), each number of variables apart.
 * With two variables neither xunc nor the law's own forward errors ranked
 * the errors in a way that held from one corpus to the other, so the reach
 * and the noise set the width; the laws' residuals underestimate the
 * scatter at new corners. Inside the data the classical interval stays.
 * xunc itself goes up to 3 and drives fit_warning. Before (§6):
 * 0.8 / 1.1 * d * sqrt(min(xunc, 0.25)), which held 77-84 % at cuts other
 * than 60 %. */
#define XUNC_INTERVAL_MAX 0.25
static const double XUNC_K[FIT_MAX_VARS] = {0.48, 0.5};
/* One variable, beyond the data: the interval is never narrower than a
 * factor e^Z_FLOOR (1.49) either way. On the published corpora most points
 * the intervals missed lay within one doubling of the data, where the
 * law's part above is smallest (xunc at its floor), off by less than 1.6x
 * (eval/RECORD.md §33, candidate ZF). */
#define Z_FLOOR 0.4
/* One variable, beyond the data: the log half-width above (floor included)
 * times Z_SCALE, the conformal 88 % quantile of |log error| / half-width
 * over the 682 test points of the published one-variable corpora (1.197;
 * 88 % = the 85 % plus the 2.6 points that coverage lost from
 * those corpora to the ones unseen when first run). eval/RECORD.md §44,
 * candidate I3. */
#define Z_SCALE 1.2
static const double NOISE_K[FIT_MAX_VARS] = {1, 2};

/* The law's part at reach d (above). */
static double law_part(const struct fit_model *m, double d)
{
    if (m->xunc <= 0)
        return 0;
    if (m->nvars > 1)
        return XUNC_K[1] * d;
    return XUNC_K[0] * d * sqrt((d + 1) * fmin(m->xunc, XUNC_INTERVAL_MAX));
}

int fit_predict_ext(const struct fit_model *m, const double *x, double *y, double *lo,
                    double *hi, struct err *err)
{
    double v, half, d, t, floor_z, scale_z;

    if (m->xunc <= 0 && !m->positive)
        return fit_predict(m, x, y, lo, hi, err);
    if (fit_eval(m, x, &v, err) < 0)
        return -1;
    *y = *lo = *hi = v;
    if (!m->has_interval || m->dof < 1)
        return 0;
    /* The extrapolating `auto`: the law's own uncertainty grows with the
     * distance beyond the data. A positive quantity (a relative model, or
     * one flagged positive: every measured value > 0) gets its interval in
     * log space, multiplicative, never reaching 0. */
    d = fit_extrapolation(m, x);
    t = gsl_cdf_tdist_Pinv(0.975, (double)m->dof);
    floor_z = 0;
    scale_z = 1;
    if (d > 0 && m->xunc > 0) {
        t *= sqrt(NOISE_K[m->nvars > 1 ? 1 : 0]);
        floor_z = m->nvars == 1 ? Z_FLOOR : 0;
        scale_z = m->nvars == 1 ? Z_SCALE : 1;
    }
    d = law_part(m, d);
    if ((m->relative || m->positive) && v > 0) {
        /* the noise part as a relative variance at v */
        double n2 = m->relative ? m->s2 * (1 + leverage(m, x) / (v * v))
                                : m->s2 * (1 + leverage(m, x)) / (v * v);
        /* ... read in log space: a relative variance (a squared coefficient
         * of variation) is a log variance ln(1 + n2), the same for small n2 */
        double z = scale_z * fmax(sqrt(t * t * log1p(n2) + d * d), floor_z);
        /* A value far smaller than the noise (a cubic read at a tenth of its
         * data) makes z huge: the interval then says only that the value is
         * unknown, held at a factor e^300 so that it stays above 0 and
         * finite. */
        if (!isfinite(z) && !(z > 0))
            return err_invalid(err, "x", "the prediction interval overflows at this x");
        z = fmin(z, 300);
        *lo = v * exp(-z);
        *hi = v * exp(z);
        if (!isfinite(*hi))
            return err_invalid(err, "x", "the prediction interval overflows at this x");
        return 0;
    }
    half = sqrt(t * t * m->s2 * ((m->relative ? v * v : 1) + leverage(m, x)) +
                v * v * d * d);
    if (!isfinite(half))
        return err_invalid(err, "x", "the prediction interval overflows at this x");
    *lo = v - half;
    *hi = v + half;
    return 0;
}

/* ---- formulas ---- */

static void put_expo(struct buf *b, double e)
{
    static const int dens[] = {1, 2, 3, 4, 5, 6, 12};
    size_t i;

    for (i = 0; i < sizeof dens / sizeof dens[0]; i++) {
        double num = e * dens[i];
        if (fabs(num - floor(num + 0.5)) < 1e-9 && fabs(num) < 1e6) {
            long n = (long)floor(num + 0.5);
            if (dens[i] == 1)
                buf_printf(b, "%ld", n);
            else
                buf_printf(b, "(%ld/%d)", n, dens[i]);
            return;
        }
    }
    buf_putc(b, '(');
    buf_num(b, e);
    buf_putc(b, ')');
}

/* Writes the factors of one term after its coefficient: "*N^3*log2(N)" and
 * "/P^2" (machine, mul = "*") or with "·" (human). */
static void put_factors(struct buf *b, const struct fit_term *t, int nvars,
                        const char *const *names, const char *mul)
{
    int v, pass;

    for (pass = 0; pass < 2; pass++)
        for (v = 0; v < nvars; v++) {
            double e = t->expo[v];
            if (pass == 0) {
                if (e > 0) {
                    buf_puts(b, mul);
                    buf_puts(b, names[v]);
                    if (e != 1) {
                        buf_putc(b, '^');
                        put_expo(b, e);
                    }
                }
                if (t->logp[v] > 0) {
                    buf_puts(b, mul);
                    buf_printf(b, "log2(%s)", names[v]);
                    if (t->logp[v] > 1)
                        buf_printf(b, "^%d", t->logp[v]);
                }
            } else if (e < 0) {
                buf_putc(b, '/');
                buf_puts(b, names[v]);
                if (e != -1) {
                    buf_putc(b, '^');
                    put_expo(b, -e);
                }
            }
        }
}

static const char *const *default_names(int nvars, const char *const *names)
{
    static const char *const one[] = {"x"};
    static const char *const two[] = {"x1", "x2"};

    if (names != NULL)
        return names;
    return nvars == 1 ? one : two;
}

static int put_formula(const struct fit_model *m, const char *const *varnames,
                       struct buf *b, int human)
{
    const char *const *names = default_names(m->nvars, varnames);
    char curve[FIT_BASIS_NAME + 400];
    const char *cn[1];
    int j;

    if (m->basis.n > 0) { /* the term u^1 reads "MPISR(L)", "TRIAD(16*n^2)" */
        char sc[32] = "", pw[32] = "";
        if (m->basis.scale != 1)
            snprintf(sc, sizeof sc, "%.6g*", m->basis.scale);
        if (m->basis.power != 1)
            snprintf(pw, sizeof pw, "^%.6g", m->basis.power);
        snprintf(curve, sizeof curve, "%s(%s%.256s%s)", m->basis.name, sc, names[0], pw);
        cn[0] = curve;
        names = cn;
    }

    if (human)
        buf_puts(b, "y = ");
    for (j = 0; j < m->nterms; j++) {
        double c = m->coef[j];
        const struct fit_term *t = &m->term[j];
        int constant = 1, v;

        for (v = 0; v < m->nvars; v++)
            if (t->expo[v] != 0 || t->logp[v] != 0)
                constant = 0;
        if (j > 0 || c < 0) {
            if (human)
                buf_puts(b, j == 0 ? "-" : c < 0 ? " - " : " + ");
            else
                buf_putc(b, c < 0 ? '-' : '+');
        }
        if (human)
            buf_printf(b, "%.6g", fabs(c));
        else
            buf_num(b, fabs(c));
        if (!constant)
            put_factors(b, t, m->nvars, names, human ? "\xc2\xb7" : "*");
    }
    return buf_failed(b) ? -1 : 0;
}

int fit_formula(const struct fit_model *m, const char *const *varnames, struct buf *b)
{
    return put_formula(m, varnames, b, 1);
}

int fit_machine_formula(const struct fit_model *m, const char *const *varnames,
                        struct buf *b)
{
    return put_formula(m, varnames, b, 0);
}

/* ---- statistics of a fit (fit_run.c) ---- */

void fit_stats_compute(struct fit_result *r, size_t nobs)
{
    struct fit_stats *s = &r->stats;
    size_t i, m = r->npoints;
    double mean = 0, tss = 0, sm = 0;
    int p = r->model.nterms;

    memset(s, 0, sizeof *s);
    s->npoints = m;
    s->nobs = nobs;
    for (i = 0; i < m; i++)
        mean += r->points[i].y;
    mean /= (double)m;
    for (i = 0; i < m; i++) {
        struct fit_point *pt = &r->points[i];
        double yh = 0, d, den;
        if (fit_eval(&r->model, pt->x, &yh, NULL) < 0)
            yh = 0; /* cannot happen: the fit already checked the domain */
        pt->yhat = yh;
        pt->resid = pt->y - yh;
        s->rss += pt->resid * pt->resid;
        tss += (pt->y - mean) * (pt->y - mean);
        d = fabs(pt->resid);
        den = fabs(pt->y) + fabs(yh);
        sm += den > 0 ? 200 * d / den : 0;
    }
    s->resnorm = sqrt(s->rss);
    s->r2 = tss > 0 ? 1 - s->rss / tss : (s->rss > 0 ? 0 : 1);
    s->adj_r2 = (size_t)p < m
                    ? 1 - (1 - s->r2) * (double)(m - 1) / (double)(m - (size_t)p)
                    : s->r2;
    s->rmse = sqrt(s->rss / (double)m);
    s->smape = sm / (double)m;
    /* PRESS: the leave-one-x-out residual is e_i / (1 - h_ii) with h_ii the
     * weighted leverage w_i * f(x_i)^T (X^T W X)^-1 f(x_i), w_i the fit's own
     * weight: n_i, / y_i^2 when relative, times (x_i / x_max)^lean / wbar
     * when the fit leaned (fit_terms_lean); leaving a point out scales the
     * other weights alike, so the identity holds for leaned fits too. A
     * point below the model's range (a regime the law does not describe)
     * was not fitted: its residual is its own. */
    if ((size_t)p < m) {
        double press = 0, wbar = 1, xmax = r->model.xmax[0];
        int ok = 1, lean = r->model.lean > 0 && r->model.nvars == 1 && xmax > 0;
        if (lean) {
            double sn = 0, swl = 0;
            for (i = 0; i < m; i++)
                if (r->points[i].x[0] >= r->model.xmin[0]) {
                    sn += (double)r->points[i].n;
                    swl += (double)r->points[i].n *
                           pow(r->points[i].x[0] / xmax, r->model.lean);
                }
            wbar = sn > 0 && swl > 0 ? swl / sn : 1;
        }
        for (i = 0; i < m && ok; i++) {
            double h = leverage(&r->model, r->points[i].x) * r->points[i].n;
            if (r->model.relative)
                h /= r->points[i].y * r->points[i].y;
            if (lean)
                h *= r->points[i].x[0] < r->model.xmin[0]
                         ? 0
                         : pow(r->points[i].x[0] / xmax, r->model.lean) / wbar;
            if (!(1 - h > 1e-12))
                ok = 0;
            else
                press += (r->points[i].resid / (1 - h)) * (r->points[i].resid / (1 - h));
        }
        s->cv_rmse = ok && isfinite(press) ? sqrt(press / (double)m) : 0;
    }
}
