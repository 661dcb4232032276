/* fit_pmnf2: a law of two variables chosen by the multi-parameter rule of
 * Extra-P 4 (Calotoiu et al., Cluster'16; Extra-P's default multi-parameter
 * modeler), written again from its description, for eval/'s side
 * by side. Each variable gets its term from the single-parameter rule
 * (fit_pmnf1) on the means over the other variable; the two terms are then
 * combined as a product, a sum, or a product plus one of them, each fitted by
 * ordinary least squares to every configuration, and the least in-sample
 * SMAPE wins among the combinations whose terms all matter. See fit.h. */
#include "models/fit.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
#include <math.h>
#include <string.h>

#define EPSILON 0.0005 /* least term contribution */

/* Which of a(x1), b(x2) and a·b each form holds, in Extra-P's order. */
static const struct {
    int a, b, ab;
} forms[] = {
    [FIT_PMNF2_CONST] = {0, 0, 0}, [FIT_PMNF2_A] = {1, 0, 0},
    [FIT_PMNF2_B] = {0, 1, 0},     [FIT_PMNF2_AB] = {0, 0, 1},
    [FIT_PMNF2_A_B] = {1, 1, 0},   [FIT_PMNF2_A_AB] = {1, 0, 1},
    [FIT_PMNF2_B_AB] = {0, 1, 1},
};

/* The form's terms at x (without coefficients); returns how many. */
static int columns(const struct fit_pmnf2 *p, const double *x, double *col)
{
    double a = fit_pmnf1_term(&p->a, x[0]), b = fit_pmnf1_term(&p->b, x[1]);
    int k = 0;

    if (forms[p->form].a)
        col[k++] = a;
    if (forms[p->form].b)
        col[k++] = b;
    if (forms[p->form].ab)
        col[k++] = a * b;
    return k;
}

int fit_pmnf2_terms(const struct fit_pmnf2 *p, struct fit_term *t)
{
    const struct fit_pmnf1 *ab[2] = {&p->a, &p->b};
    int k = 0, v;

    memset(t, 0, 3 * sizeof *t);
    for (v = 0; v < 2; v++)
        if (v == 0 ? forms[p->form].a : forms[p->form].b) {
            t[k].expo[v] = (double)ab[v]->num / ab[v]->den;
            t[k++].logp[v] = ab[v]->lg;
        }
    if (forms[p->form].ab) {
        for (v = 0; v < 2; v++) {
            t[k].expo[v] = (double)ab[v]->num / ab[v]->den;
            t[k].logp[v] = ab[v]->lg;
        }
        k++;
    }
    return k;
}

double fit_pmnf2_eval(const struct fit_pmnf2 *p, const double *x)
{
    double col[3], y = p->c[0];
    int k = columns(p, x, col), j;

    for (j = 0; j < k; j++)
        y += p->c[j + 1] * col[j];
    return y;
}

static double smape_of(const struct fit_pmnf2 *p, const struct fit_point *pts, size_t m)
{
    double s = 0;
    size_t i;

    for (i = 0; i < m; i++) {
        double f = fit_pmnf2_eval(p, pts[i].x), d = fabs(pts[i].y) + fabs(f);
        s += d != 0 ? 2 * fabs(f - pts[i].y) / d : 0;
    }
    return s / (double)m * 100;
}

/* Ordinary least squares of the form over all points (SVD, as numpy's
 * lstsq). Returns 0, or -1 when it cannot be solved (GSL's error handler
 * is the caller's: off in the server and the tools). */
static int solve(struct fit_pmnf2 *p, const struct fit_point *pts, size_t m)
{
    double col[3];
    int k = columns(p, pts[0].x, col), rc = -1;
    size_t i, j;
    gsl_matrix *A = gsl_matrix_alloc(m, (size_t)k + 1),
               *cov = gsl_matrix_alloc(k + 1, k + 1);
    gsl_vector *y = gsl_vector_alloc(m), *c = gsl_vector_alloc((size_t)k + 1);
    gsl_multifit_linear_workspace *w = gsl_multifit_linear_alloc(m, (size_t)k + 1);
    double chisq;

    if (A != NULL && cov != NULL && y != NULL && c != NULL && w != NULL) {
        for (i = 0; i < m; i++) {
            columns(p, pts[i].x, col);
            gsl_matrix_set(A, i, 0, 1);
            for (j = 0; j < (size_t)k; j++)
                gsl_matrix_set(A, i, j + 1, col[j]);
            gsl_vector_set(y, i, pts[i].y);
        }
        if (gsl_multifit_linear(A, y, c, cov, &chisq, w) == GSL_SUCCESS) {
            for (j = 0; j <= (size_t)k; j++)
                p->c[j] = gsl_vector_get(c, j);
            rc = 0;
        }
    }
    gsl_multifit_linear_free(w);
    gsl_vector_free(c);
    gsl_vector_free(y);
    gsl_matrix_free(cov);
    gsl_matrix_free(A);
    return rc;
}

/* Every term contributes at least EPSILON of some value (a zero coefficient
 * never does). */
static int terms_matter(const struct fit_pmnf2 *p, const struct fit_point *pts, size_t m)
{
    double col[3], most[3] = {0, 0, 0};
    int k = columns(p, pts[0].x, col), j;
    size_t i;

    for (i = 0; i < m; i++) {
        columns(p, pts[i].x, col);
        for (j = 0; j < k; j++) {
            double c = fabs(p->c[j + 1] * col[j] / pts[i].y);
            most[j] = isnan(c) || c > most[j] ? c : most[j];
        }
    }
    for (j = 0; j < k; j++)
        if (p->c[j + 1] == 0 || most[j] < EPSILON)
            return 0;
    return 1;
}

/* The single-parameter data of variable v: of the lines of points along v
 * (one per value of the other variable), the longest ones, restricted to
 * the other variable's values of the first line, averaged per value of v.
 * Returns how many points it wrote to out (in order of appearance). */
static size_t marginal(const struct fit_point *pts, size_t m, int v,
                       struct fit_point *out)
{
    double other[FIT_PMNF2_MAX], keep[FIT_PMNF2_MAX], vals[FIT_PMNF2_MAX];
    size_t len[FIT_PMNF2_MAX], no = 0, nk = 0, nv = 0, best = 0, no_out = 0, i, j, k;
    int u = 1 - v;

    /* lines along v, by the other variable's value, in order of appearance */
    for (i = 0; i < m; i++) {
        for (j = 0; j < no && other[j] != pts[i].x[u]; j++)
            ;
        if (j == no) {
            other[no] = pts[i].x[u];
            len[no++] = 0;
        }
        len[j]++;
        best = len[j] > best ? len[j] : best;
    }
    /* the values of v on the longest lines, in order of appearance */
    for (i = 0; i < m; i++) {
        for (j = 0; j < no && other[j] != pts[i].x[u]; j++)
            ;
        if (len[j] != best)
            continue;
        for (k = 0; k < nv && vals[k] != pts[i].x[v]; k++)
            ;
        if (k == nv)
            vals[nv++] = pts[i].x[v];
    }
    /* the other variable's values present at the first value of v */
    for (i = 0; i < m; i++) {
        for (j = 0; j < no && other[j] != pts[i].x[u]; j++)
            ;
        if (len[j] == best && pts[i].x[v] == vals[0])
            keep[nk++] = pts[i].x[u];
    }
    for (k = 0; k < nv; k++) {
        double s = 0;
        size_t n = 0;
        for (i = 0; i < m; i++) {
            size_t q;
            if (pts[i].x[v] != vals[k])
                continue;
            for (j = 0; j < no && other[j] != pts[i].x[u]; j++)
                ;
            for (q = 0; q < nk && keep[q] != pts[i].x[u]; q++)
                ;
            if (len[j] == best && q < nk) {
                s += pts[i].y;
                n++;
            }
        }
        if (n == 0) /* no line of the first's values has it: left out */
            continue;
        memset(&out[no_out], 0, sizeof out[no_out]);
        out[no_out].x[0] = vals[k];
        out[no_out].y = s / (double)n;
        out[no_out++].n = (int)n;
    }
    return no_out;
}

int fit_pmnf2_forms(const struct fit_point *pts, size_t m, struct fit_pmnf2 *out)
{
    struct fit_point line[FIT_PMNF2_MAX];
    struct fit_pmnf1 t[2];
    double mean = 0;
    size_t i, nl;
    int v, form, n = 1, j;

    if (m < 2 || m > FIT_PMNF2_MAX)
        return -1;
    for (i = 0; i < m; i++) {
        if (!isfinite(pts[i].x[0]) || !isfinite(pts[i].x[1]) || !isfinite(pts[i].y))
            return -1;
        mean += pts[i].y;
    }
    mean /= (double)m;
    for (v = 0; v < 2; v++) {
        nl = marginal(pts, m, v, line);
        if (nl > FIT_PMNF1_MAX || fit_pmnf1(line, nl, &t[v]) < 0) {
            memset(&t[v], 0, sizeof t[v]); /* one value of v, or too many: */
            t[v].den = 1;                  /* no term */
        }
    }
    memset(out, 0, sizeof *out);
    out->a = t[0];
    out->b = t[1];
    if (t[0].c1 == 0 && t[1].c1 == 0) {
        out->form = FIT_PMNF2_CONST;
        out->c[0] = mean;
        out->smape = smape_of(out, pts, m);
        return 1;
    }
    if (t[0].c1 == 0 || t[1].c1 == 0) {
        /* one variable: its single-parameter law as it is, or refitted to
         * every configuration, whichever has the smaller SMAPE */
        struct fit_pmnf2 re;
        const struct fit_pmnf1 *s = t[0].c1 != 0 ? &t[0] : &t[1];
        out->form = t[0].c1 != 0 ? FIT_PMNF2_A : FIT_PMNF2_B;
        out->c[0] = s->c0;
        out->c[1] = s->c1;
        out->smape = smape_of(out, pts, m);
        re = *out;
        if (solve(&re, pts, m) == 0 && (re.smape = smape_of(&re, pts, m)) < out->smape)
            *out = re;
        return 1;
    }
    /* both: the product first (kept even when a term hardly matters), then
     * the sum and the two mixed forms, each only when all its terms matter;
     * in order of SMAPE, the earlier form first on a tie */
    out->form = FIT_PMNF2_AB;
    if (solve(out, pts, m) < 0)
        return -1;
    out->smape = smape_of(out, pts, m);
    for (form = FIT_PMNF2_A_B; form <= FIT_PMNF2_B_AB; form++) {
        struct fit_pmnf2 h = out[0];
        memset(h.c, 0, sizeof h.c);
        h.form = form;
        if (solve(&h, pts, m) < 0 || !terms_matter(&h, pts, m))
            continue;
        h.smape = smape_of(&h, pts, m);
        for (j = n; j > 0 && h.smape < out[j - 1].smape; j--)
            out[j] = out[j - 1];
        out[j] = h;
        n++;
    }
    return n;
}

int fit_pmnf2(const struct fit_point *pts, size_t m, struct fit_pmnf2 *out)
{
    struct fit_pmnf2 f[FIT_PMNF2_FORMS];
    if (fit_pmnf2_forms(pts, m, f) < 0)
        return -1;
    *out = f[0];
    return 0;
}
