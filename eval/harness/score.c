/* score.c: one case fitted by `auto` or by Extra-P's rules as written again
 * in models/ (fit_pmnf1, fit_pmnf2), predicted and scored (eval.h). */
#include "eval.h"

#include "common/buf.h"
#include "common/xalloc.h"
#include "models/aggregate.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int nv = 1;
double last_width[256], last_lo[256];
char last_law[256];
size_t n_breaks, n_outliers, n_fits;

const char *const sel_name[NSEL] = {"auto", "xp"};

/* Extra-P's rule has no interval: its predictions count as not covered and
 * print no coverage or width. */
/* Tallies the predictions yp[0..nq-1] of a rule without an interval. */
static void tally_no_interval(const double *yp, const double *truth, const size_t *nobs,
                              size_t nq, struct tally *t, double *pred_out)
{
    size_t k, j;

    for (k = 0; k < nq && k < 256; k++) {
        if (pred_out != NULL)
            pred_out[k] = yp[k];
        last_width[k] = INFINITY;
        last_lo[k] = -INFINITY;
        for (j = 0; j < nobs[k]; j++)
            tally_add(t, fabs(yp[k] - truth[k]) / fabs(truth[k]), INFINITY, 0);
    }
}

static int score_xp2(const double *x, const double *y, size_t n, const double *xq,
                     const double *truth, const size_t *nobs, size_t nq, struct tally *t,
                     double *pred_out);

int xp_variant = XP_DEFAULT;

/* Extra-P's one-term rule of the variant v (fit_pmnf1 or fit_pmnf1_negexp)
 * on the np points: its predictions at xq into yp, its law into last_law. */
static int xp1(int v, const struct fit_point *pts, int np, const double *xq, size_t nq,
               double *yp)
{
    struct fit_pmnf1 m;
    size_t k;

    if (np < 0 || np > FIT_PMNF1_MAX ||
        (v == XP_NEGEXP ? fit_pmnf1_negexp : fit_pmnf1)(pts, (size_t)np, &m) < 0)
        return -1;
    if (m.c1 == 0)
        snprintf(last_law, sizeof last_law, "y = %.6g", m.c0);
    else
        snprintf(last_law, sizeof last_law, "y = %.6g + %.6g·x^(%d/%d)·log2(x)^%d", m.c0,
                 m.c1, m.num, m.den, m.lg);
    for (k = 0; k < nq && k < 256; k++)
        yp[k] = fit_pmnf1_eval(&m, xq[k]);
    return 0;
}

static int score_xp(const double *x, const double *y, size_t n, const double *xq,
                    const double *truth, const size_t *nobs, size_t nq, struct tally *t,
                    double *pred_out)
{
    struct fit_point pts[FIT_PMNF1_MAX];
    struct agg_point *ap;
    struct err e = {0};
    double yp[256];
    size_t j;
    int np;

    if (nv == 2)
        return score_xp2(x, y, n, xq, truth, nobs, nq, t, pred_out);
    ap = xmalloc(n * sizeof *ap);
    np = ap != NULL ? agg_points(x, y, n, AGG_MEAN, ap, &e) : -1;
    memset(pts, 0, sizeof pts);
    for (j = 0; np > 0 && np <= FIT_PMNF1_MAX && j < (size_t)np; j++) {
        pts[j].x[0] = ap[j].x;
        pts[j].y = ap[j].y;
        pts[j].n = ap[j].n;
    }
    xfree(ap);
    if (xp1(xp_variant == XP_NEGEXP ? XP_NEGEXP : XP_DEFAULT, pts, np, xq, nq, yp) < 0) {
        t->failed += nq;
        return -1;
    }
    if (xp_variant == XP_BEST) {
        /* the better of the two for this case, judged on its truth: the
         * comparison of the shared corpus and of issue 32, not a rule */
        double yn[256];
        char law[sizeof last_law];
        memcpy(law, last_law, sizeof law);
        if (xp1(XP_NEGEXP, pts, np, xq, nq, yn) == 0 &&
            case_error(yn, truth, nq) < case_error(yp, truth, nq))
            memcpy(yp, yn, sizeof yp);
        else
            memcpy(last_law, law, sizeof law);
    }
    tally_no_interval(yp, truth, nobs, nq, t, pred_out);
    return 0;
}

int cmp_triple(const void *a, const void *b)
{
    const double *p = a, *q = b;
    return p[0] != q[0]   ? (p[0] < q[0] ? -1 : 1)
           : p[1] != q[1] ? (p[1] < q[1] ? -1 : 1)
                          : 0;
}

/* Extra-P's multi-parameter rule on two variables (x row-major, n pairs):
 * the means per configuration, fit_pmnf2. */
static int score_xp2(const double *x, const double *y, size_t n, const double *xq,
                     const double *truth, const size_t *nobs, size_t nq, struct tally *t,
                     double *pred_out)
{
    static struct fit_point pts[FIT_PMNF2_MAX];
    double *v = xmalloc(3 * n * sizeof *v), yp[256];
    struct fit_pmnf2 m;
    size_t i, j, k, np = 0;
    static const char *const form[] = {"c",     "a",       "b",      "a·b",
                                       "a + b", "a + a·b", "b + a·b"};

    for (i = 0; v != NULL && i < n; i++) {
        v[3 * i] = x[2 * i];
        v[3 * i + 1] = x[2 * i + 1];
        v[3 * i + 2] = y[i];
    }
    if (v != NULL)
        qsort(v, n, 3 * sizeof *v, cmp_triple);
    memset(pts, 0, sizeof pts);
    for (i = 0; v != NULL && i < n && np < FIT_PMNF2_MAX; i = j, np++) {
        double s = 0;
        for (j = i; j < n && v[3 * j] == v[3 * i] && v[3 * j + 1] == v[3 * i + 1]; j++)
            s += v[3 * j + 2];
        pts[np].x[0] = v[3 * i];
        pts[np].x[1] = v[3 * i + 1];
        pts[np].y = s / (double)(j - i);
        pts[np].n = (int)(j - i);
    }
    if (v == NULL || i < n || fit_pmnf2(pts, np, &m) < 0) {
        xfree(v);
        t->failed += nq;
        return -1;
    }
    xfree(v);
    snprintf(
        last_law, sizeof last_law,
        "%s, a = x1^(%d/%d)·log2(x1)^%d, b = x2^(%d/%d)·log2(x2)^%d, c = %.6g %.6g %.6g",
        form[m.form], m.a.num, m.a.den, m.a.lg, m.b.num, m.b.den, m.b.lg, m.c[0], m.c[1],
        m.c[2]);
    for (k = 0; k < nq && k < 256; k++)
        yp[k] = fit_pmnf2_eval(&m, &xq[2 * k]);
    tally_no_interval(yp, truth, nobs, nq, t, pred_out);
    return 0;
}

int score(int sel, const double *x, const double *y, size_t n, const double *xq,
          const double *truth, double *const *obs, const size_t *nobs, size_t nq,
          struct tally *t, double *pred_out)
{
    return score_on(sel, NULL, x, y, n, xq, truth, obs, nobs, nq, t, pred_out);
}

FILE *dump_fp;
const char *dump_tag;
size_t dump_case;

int score_on(int sel, const struct fit_basis *basis, const double *x, const double *y,
             size_t n, const double *xq, const double *truth, double *const *obs,
             const size_t *nobs, size_t nq, struct tally *t, double *pred_out)
{
    struct fit_input in = {0};
    struct fit_result r;
    struct err e = {0};
    size_t k, j;

    if (sel == XP)
        return score_xp(x, y, n, xq, truth, nobs, nq, t, pred_out);
    in.nvars = nv;
    in.x = x;
    in.y = y;
    in.n = n;
    in.graph = "auto";
    in.agg = AGG_MEAN;
    in.basis = basis;
    if (fit_run(&in, &r, &e) < 0) {
        t->failed += nq;
        return -1;
    }
    {
        static const char *const x1[] = {"x"}, *const x2[] = {"x1", "x2"};
        const char *const *xname = nv == 2 ? x2 : x1;
        struct buf b;
        buf_init(&b, sizeof last_law - 1);
        last_law[0] = '\0';
        if (fit_formula(&r.model, xname, &b) == 0 && b.len < sizeof last_law) {
            memcpy(last_law, b.data, b.len);
            last_law[b.len] = '\0';
        }
        buf_free(&b);
    }
    if (basis == NULL) {
        n_fits++;
        n_breaks += r.model.seg_x > 0;
        n_outliers += r.model.outliers > 0;
    }
    dump_case++;
    for (k = 0; k < nq; k++) {
        double yp, lo, hi, err, width, nz = 0, y2, l2, h2, g = -1;
        if (fit_predict_ext(&r.model, &xq[k * nv], &yp, &lo, &hi, NULL) < 0) {
            t->failed++;
            continue;
        }
        /* for --dump: the noise part relative to the prediction, t times its
         * standard error (the classical interval's half width / |y|) */
        if (dump_fp != NULL &&
            fit_predict(&r.model, &xq[k * nv], &y2, &l2, &h2, NULL) == 0 && fabs(y2) > 0)
            nz = (h2 - y2) / fabs(y2);
        /* for --dump: how far the forward folds move the prediction here
         * (fit_fold_spread, what fit_warning reads for two variables; -1:
         * no folds); the outliers and the regime are dumped beside it, the
         * other clauses of fit_warning (eval/RECORD.md §17) */
        if (dump_fp != NULL && r.model.fold_n > 0 && yp > 0)
            g = fit_fold_spread(&r.model, &xq[k * nv], yp);
        err = fabs(yp - truth[k]) / fabs(truth[k]);
        width = fabs(yp) > 0 ? (hi - lo) / fabs(yp) : INFINITY;
        if (pred_out != NULL)
            pred_out[k] = yp;
        last_width[k < 256 ? k : 255] = width;
        last_lo[k < 256 ? k : 255] = lo;
        t->low0 += truth[k] > 0 && lo <= 0; /* a prediction <= 0 included */
        {
            struct buf wb;
            int warned;
            buf_init(&wb, 512);
            warned = fit_warning(&r.model, &xq[k * nv], yp, lo, hi, &wb) > 0;
            buf_free(&wb);
            for (j = 0; j < nobs[k]; j++) {
                if (dump_fp != NULL && dump_tag != NULL && basis == NULL)
                    fprintf(dump_fp,
                            "%s %zu %d %zu %.9g %.9g %.9g %.9g %.9g %.6g %.6g %d %d %.6g "
                            "%.6g %d %d %.6g %d %d\n",
                            dump_tag, dump_case, nv, n, yp, truth[k], obs[k][j], lo, hi,
                            fit_extrapolation(&r.model, &xq[k * nv]), r.model.xunc,
                            r.model.dof, warned,
                            r.model.dof > 0 ? gsl_cdf_tdist_Pinv(0.975, r.model.dof) : 0,
                            nz, (r.model.relative || r.model.positive) && yp > 0,
                            r.model.positive, g, r.model.outliers,
                            r.model.seg_x > 0 && xq[k * nv] < r.model.seg_x);
                tally_add(t, err, width, obs[k][j] >= lo && obs[k][j] <= hi);
                t->warned += warned;
                t->far += err > 0.5;
                t->warned_far += warned && err > 0.5;
            }
        }
    }
    fit_result_free(&r);
    return 0;
}
