/* bench_modeling: the evaluation harness of `auto` (issue 13). Builds a
 * corpus of extrapolation cases and prints, side by side for the OLD
 * selection (fit_run_v1 with fit_predict, `auto` before issue 13) and the
 * NEW one (fit_run with fit_predict_ext), and for Extra-P 4's default
 * single-parameter rule (XP, fit_pmnf1; no interval): median relative error of the
 * prediction, how many predictions are within 10 %, how many 95 % intervals
 * hold the truth, and the median interval width relative to the prediction.
 *
 * Corpus:
 *  - synthetic: scaling laws over realistic designs (4..8 points, geometric
 *    spacing, 1..4 observations per point, 1..10 % multiplicative noise, an
 *    outlier in some cases, laws with a regime change), fixed seeds; each
 *    fitted case is asked at 2x and 4x its largest x. The truth for the
 *    error is the law; for coverage a fresh noisy observation of it. With
 *    two variables: 6 laws on 4 x 4 and 5 x 5 grids, asked beyond the
 *    largest values in each variable and in both (synthetic2).
 *  - real: bench/modeling/data/<case>.txt (x y per line, repetitions as
 *    repeated x), measured on this machine with Open MPI by
 *    bench/modeling/measure. Trained on the smaller ~60 % of the distinct x
 *    (at least 4; --train F: a fraction F of 0.3...0.9 instead; --single
 *    SEED: on one observation per x, drawn with SEED, as a study without
 *    repetitions has), asked at every larger x; the truth is each measured
 *    value (coverage) and their median (error). A case file with three
 *    numbers per line ("x1 x2 y") has two variables: trained on the
 *    configurations whose both values are among the smaller ~60 % of their
 *    variable's (at least 4 each; --single: one observation of each),
 *    asked at every other one; the Extra-P column is then its
 *    multi-parameter rule (fit_pmnf2).
 * --basis FILE (lines "x t", a machine curve such as a ping-pong over the
 * message size): every real case named *_size is also fitted on that curve
 * (fit_run with a basis, docs/models.md §12) and compared, case by case, with
 * the new selection and Extra-P's rule. With a map (--map MAP, default
 * DATA_DIR/basis.txt when it exists; lines "case scale power", '#' starts a
 * comment) exactly the cases it names are, each reading the curve at
 * scale * x^power (its working set in bytes, for a memory curve).
 * Usage: bench_modeling [--train F] [--single SEED] [--basis FILE [--map MAP]]
 *        [DATA_DIR] (default
 * bench/modeling/data; the held-out sets are bench/modeling/data/heldout, heldout2 ...
 * heldout6). Not a test.
 */
#include "common/buf.h"
#include "common/xalloc.h"
#include "models/couple.h"
#include "models/fit.h"
#include "models/fit_cand.h"

#include <dirent.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t rng;
static double train_frac = 0.6; /* of a real case's distinct x, the smaller */
static unsigned single_seed;    /* > 0: train on one observation per x */

static double uniform(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (double)((rng * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

static double gauss(void)
{
    double u = uniform(), v = uniform();
    return sqrt(-2 * log(u > 1e-300 ? u : 1e-300)) * cos(2 * M_PI * v);
}

enum { OLD, NEW, XP, NSEL };

/* Fits of the new selection that found a regime change / left out points. */
static size_t n_breaks, n_outliers, n_fits;
static int nv = 1;             /* variables of the case being scored (1 or 2) */
static double last_width[256]; /* of score's last predictions, relative */
static char last_law[256];     /* the law score last fitted, as text */
/* real corpus: interval widths and errors by reach (up to 1, 1..2, more than
 * 2 doublings beyond the training data), old, new and Extra-P's rule */
static double reach_w[NSEL][3][512], reach_e[NSEL][3][512];
static size_t reach_n[NSEL][3];
/* real corpus, case by case: the new selection against Extra-P's rule on
 * a case's median error over its x asked (better, within 1 %, worse) */
static size_t cases_vs_xp[3];
static double cases_log_ratio; /* sum of log(new / xp) over those cases */

/* One scored prediction per selection. */
struct tally {
    double *err, *width;
    size_t n, cap, within, covered, failed;
};

/* --basis FILE: a machine curve (docs/models.md §12) every real case over
 * message size (name ending in _size) is also fitted on; those cases are
 * then compared new / Extra-P's rule / the fit on the curve. */
static struct fit_basis curve;
static const char *curve_path;
static struct { /* --map: the cases on the curve and where each reads it */
    char name[128];
    double scale, power;
} curve_map[64];
static int curve_nmap = -1; /* -1: no map, the *_size cases at x itself */
enum { S_NEW, S_XP, S_CURVE, NSIZE };
static struct tally size_tally[NSIZE];
static size_t curve_vs[2][3]; /* the curve against Extra-P's rule, against new */
static double curve_log_ratio[2];

static void tally_add(struct tally *t, double err, double width, int covered)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 256;
        t->err = xrealloc(t->err, t->cap * sizeof *t->err);
        t->width = xrealloc(t->width, t->cap * sizeof *t->width);
        if (t->err == NULL || t->width == NULL)
            exit(1);
    }
    t->err[t->n] = err;
    t->width[t->n] = width;
    t->n++;
    t->within += err <= 0.10;
    t->covered += covered;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The selections compared: `auto` before issue 13, today's, and Extra-P's
 * single-parameter rule (models/fit_pmnf1.c; no interval). */
static const char *const sel_name[NSEL] = {"old", "new", "xp"};

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
        for (j = 0; j < nobs[k]; j++)
            tally_add(t, fabs(yp[k] - truth[k]) / fabs(truth[k]), INFINITY, 0);
    }
}

static int score_xp2(const double *x, const double *y, size_t n, const double *xq,
                     const double *truth, const size_t *nobs, size_t nq, struct tally *t,
                     double *pred_out);

static int score_xp(const double *x, const double *y, size_t n, const double *xq,
                    const double *truth, const size_t *nobs, size_t nq, struct tally *t,
                    double *pred_out)
{
    struct fit_point pts[FIT_PMNF1_MAX];
    struct agg_point *ap;
    struct fit_pmnf1 m;
    struct err e = {0};
    double yp[256];
    size_t k, j;
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
    if (np < 0 || np > FIT_PMNF1_MAX || fit_pmnf1(pts, (size_t)np, &m) < 0) {
        t->failed += nq;
        return -1;
    }
    if (m.c1 == 0)
        snprintf(last_law, sizeof last_law, "y = %.6g", m.c0);
    else
        snprintf(last_law, sizeof last_law, "y = %.6g + %.6g·x^(%d/%d)·log2(x)^%d", m.c0,
                 m.c1, m.num, m.den, m.lg);
    for (k = 0; k < nq && k < 256; k++)
        yp[k] = fit_pmnf1_eval(&m, xq[k]);
    tally_no_interval(yp, truth, nobs, nq, t, pred_out);
    return 0;
}

static int cmp_triple(const void *a, const void *b)
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

/* Fits x, y with the old or new `auto` (or Extra-P's rule); predicts at each of the nq
 * points xq; scores against truth[k] (error) and obs[k][0..nobs[k]-1] (coverage, each
 * observation counts). Returns 0, or -1 when the fit failed. */
static int score_on(int neu, const struct fit_basis *basis, const double *x,
                    const double *y, size_t n, const double *xq, const double *truth,
                    double *const *obs, const size_t *nobs, size_t nq, struct tally *t,
                    double *pred_out);

static int score(int neu, const double *x, const double *y, size_t n, const double *xq,
                 const double *truth, double *const *obs, const size_t *nobs, size_t nq,
                 struct tally *t, double *pred_out)
{
    return score_on(neu, NULL, x, y, n, xq, truth, obs, nobs, nq, t, pred_out);
}

/* score, and with basis != NULL (neu NEW) the fit on that machine curve. */
static int score_on(int neu, const struct fit_basis *basis, const double *x,
                    const double *y, size_t n, const double *xq, const double *truth,
                    double *const *obs, const size_t *nobs, size_t nq, struct tally *t,
                    double *pred_out)
{
    struct fit_input in = {0};
    struct fit_result r;
    struct err e = {0};
    size_t k, j;

    if (neu == XP)
        return score_xp(x, y, n, xq, truth, nobs, nq, t, pred_out);
    in.nvars = nv;
    in.x = x;
    in.y = y;
    in.n = n;
    in.graph = "auto";
    in.agg = AGG_MEAN;
    in.basis = basis;
    if ((neu ? fit_run(&in, &r, &e) : fit_run_v1(&in, &r, &e)) < 0) {
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
    if (neu && basis == NULL) {
        n_fits++;
        n_breaks += r.model.seg_x > 0;
        n_outliers += r.model.outliers > 0;
    }
    for (k = 0; k < nq; k++) {
        double yp, lo, hi, err, width;
        if ((neu ? fit_predict_ext(&r.model, &xq[k * nv], &yp, &lo, &hi, NULL)
                 : fit_predict(&r.model, &xq[k * nv], &yp, &lo, &hi, NULL)) < 0) {
            t->failed++;
            continue;
        }
        err = fabs(yp - truth[k]) / fabs(truth[k]);
        width = fabs(yp) > 0 ? (hi - lo) / fabs(yp) : INFINITY;
        if (pred_out != NULL)
            pred_out[k] = yp;
        last_width[k < 256 ? k : 255] = width;
        for (j = 0; j < nobs[k]; j++)
            tally_add(t, err, width, obs[k][j] >= lo && obs[k][j] <= hi);
    }
    fit_result_free(&r);
    return 0;
}

/* ---- synthetic laws ---- */

struct law {
    const char *name;
    double lo; /* first x of the design */
    double ratio;
    double (*f)(double);
};

static double weak(double p)
{
    return 5 + 0.1 * sqrt(p) + 0.3 * log2(p);
}
static double strong_log(double p)
{
    return 200 / p + 0.5 * log2(p) + 1;
}
static double plogp(double p)
{
    return 3 + 0.5 * p * log2(p);
}
static double inv(double p)
{
    return 100 / p + 2;
}
static double inv_lin(double p)
{
    return 500 / p + 0.05 * p + 1;
}
static double amdahl(double p)
{
    return 10 * (0.05 + 0.95 / p);
}
static double cubic(double n)
{
    return 2e-9 * n * n * n + 1e-6 * n * n + 0.01;
}
static double nlogn(double n)
{
    return 1e-6 * n * log2(n) + 1e-3;
}
static double latbw(double m)
{
    return 5e-6 + 1e-9 * m;
}
static double sqrt_law(double p)
{
    return 2 + 0.8 * sqrt(p);
}
/* Regime changes: a protocol switch at 16 KiB inside the range, and a node
 * boundary at p = 16 (from there a log2 p network term). */
static double protocol(double m)
{
    return m < 16384 ? 5e-6 + 1.2e-9 * m : 2.5e-5 + 0.6e-9 * m;
}
static double node(double p)
{
    return p < 16 ? 4 + 0.05 * p : 3.2 + 0.05 * p + 0.4 * log2(p);
}

static const struct law laws[] = {
    {"weak 5+0.1sqrt(p)+0.3log2p", 4, 2, weak},
    {"200/p+0.5log2p+1", 2, 2, strong_log},
    {"3+0.5p log2p", 2, 2, plogp},
    {"100/p+2", 2, 2, inv},
    {"500/p+0.05p+1", 2, 2, inv_lin},
    {"Amdahl 5% serial", 1, 2, amdahl},
    {"2e-9n^3+1e-6n^2+0.01", 64, 1.5, cubic},
    {"1e-6 n log2 n+1e-3", 1024, 2, nlogn},
    {"latency+bandwidth", 8, 4, latbw},
    {"2+0.8sqrt(p)", 1, 2, sqrt_law},
    {"protocol switch", 256, 2, protocol},
    {"node boundary", 2, 2, node},
};
#define NLAWS (sizeof laws / sizeof laws[0])

static void print_row(const char *corpus, const char *sel, struct tally *t);

static void tally_free(struct tally *t)
{
    xfree(t->err);
    xfree(t->width);
    memset(t, 0, sizeof *t);
}

static void synthetic(struct tally *t, int verbose)
{
    struct tally by[3][12][NSEL] = {{{{0}}}};
    char label[64];
    static const int npts[] = {4, 5, 6, 8};
    static const int reps[] = {1, 2, 4};
    static const double noise[] = {0.01, 0.03, 0.05, 0.10};
    size_t li, a, b, c;
    int s;

    for (li = 0; li < NLAWS; li++)
        for (a = 0; a < 4; a++)
            for (b = 0; b < 3; b++)
                for (c = 0; c < 4; c++)
                    for (s = 0; s < 3; s++) {
                        const struct law *L = &laws[li];
                        double x[32], y[32], xq[2], tr[2], o[2][1], *op[2];
                        size_t n = 0, nobs[2] = {1, 1}, i;
                        int r, k, outlier;
                        rng = 0x9e3779b97f4a7c15ULL ^
                              (uint64_t)(((li * 4 + a) * 3 + b) * 4 + c) * 7919u ^
                              (uint64_t)s * 104729u;
                        for (k = 0; k < 8; k++)
                            uniform();
                        outlier = s == 2; /* one case in three has an outlier */
                        for (i = 0; i < (size_t)npts[a]; i++)
                            for (r = 0; r < reps[b]; r++) {
                                x[n] = L->lo * pow(L->ratio, (double)i);
                                y[n] = L->f(x[n]) * exp(noise[c] * gauss());
                                n++;
                            }
                        if (outlier) {
                            size_t at = (size_t)(uniform() * (double)n);
                            y[at] *= 1.5 + uniform();
                        }
                        for (k = 0; k < 2; k++) {
                            xq[k] = x[n - 1] * (k == 0 ? 2 : 4);
                            tr[k] = L->f(xq[k]);
                            o[k][0] = tr[k] * exp(noise[c] * gauss());
                            op[k] = o[k];
                        }
                        for (k = 0; k < NSEL; k++)
                            score(k, x, y, n, xq, tr, op, nobs, 2, &t[k], NULL);
                        if (verbose)
                            for (k = 0; k < NSEL; k++) {
                                score(k, x, y, n, xq, tr, op, nobs, 2, &by[0][a][k],
                                      NULL);
                                score(k, x, y, n, xq, tr, op, nobs, 2, &by[1][c][k],
                                      NULL);
                                score(k, x, y, n, xq, tr, op, nobs, 2, &by[2][li][k],
                                      NULL);
                            }
                    }
    if (!verbose)
        return;
    for (a = 0; a < 3; a++)
        for (b = 0; b < (a == 0 ? 4 : a == 1 ? 4 : NLAWS); b++)
            for (c = 0; c < NSEL; c++) {
                if (a == 0)
                    snprintf(label, sizeof label, "%d points", npts[b]);
                else if (a == 1)
                    snprintf(label, sizeof label, "noise %.0f%%", 100 * noise[b]);
                else
                    snprintf(label, sizeof label, "%.24s", laws[b].name);
                print_row(label, sel_name[c], &by[a][b][c]);
                tally_free(&by[a][b][c]);
            }
}

/* ---- synthetic laws of two variables ---- */

struct law2 {
    const char *name;
    double (*f)(double, double);
    double lo[2], ratio[2]; /* the grid: lo * ratio^i in each variable */
};

static double strong2(double p, double n)
{
    return 1e-8 * n * log2(n) / p + 1e-5 * log2(p) + 1e-6;
}
static double weak2(double p, double n)
{
    return 1e-9 * n * n + 1e-5 * sqrt(p);
}
static double prod2(double m, double n)
{
    return 2e-9 * m * n + 1e-6;
}
static double coll2(double m, double p)
{
    return 5e-7 + 1e-6 * log2(p) + 1e-9 * m;
}
static double mixed2(double m, double p)
{
    return 5e-6 + 1e-9 * m * log2(p) + 2e-6 * p;
}
static double pmnf2law(double p, double n)
{
    return 1e-4 + 1e-7 * pow(p, 1.5) * log2(n);
}

static const struct law2 laws2[] = {
    {"N log N / P + log P", strong2, {1, 4096}, {2, 4}},
    {"n^2 + sqrt P", weak2, {1, 64}, {2, 2}},
    {"m n", prod2, {32, 32}, {2, 2}},
    {"log P + m", coll2, {64, 2}, {8, 2}},
    {"m log P + P", mixed2, {64, 2}, {8, 2}},
    {"P^1.5 log n", pmnf2law, {2, 16}, {2, 2}},
};
#define NLAWS2 (sizeof laws2 / sizeof laws2[0])

/* Each law on g x g grids (g = 4, 5), 1 or 3 observations per point, 1, 5
 * or 10 % multiplicative noise, 3 seeds (one in three with an outlier);
 * asked at (2a, b), (a, 2b), (2a, 2b) and (4a, 4b), a and b the largest
 * values. Error against the law; coverage of a fresh noisy observation. */
static void synthetic2(struct tally *t)
{
    static const int side[] = {4, 5}, reps[] = {1, 3};
    static const double noise[] = {0.01, 0.05, 0.10};
    static const double at[4][2] = {{2, 1}, {1, 2}, {2, 2}, {4, 4}};
    size_t li, a, b, c;
    int s;

    nv = 2;
    for (li = 0; li < NLAWS2; li++)
        for (a = 0; a < 2; a++)
            for (b = 0; b < 2; b++)
                for (c = 0; c < 3; c++)
                    for (s = 0; s < 3; s++) {
                        const struct law2 *L = &laws2[li];
                        double x[2 * 75], y[75], xq[8], tr[4], o[4][1], *op[4], top[2];
                        size_t n = 0, nobs[4] = {1, 1, 1, 1};
                        int i, j, r, k;
                        rng = 0x9e3779b97f4a7c15ULL ^
                              (uint64_t)(((li * 2 + a) * 2 + b) * 3 + c) * 7919u ^
                              (uint64_t)s * 104729u ^ 0x2545f4914f6cdd1dULL;
                        for (k = 0; k < 8; k++)
                            uniform();
                        for (k = 0; k < 2; k++)
                            top[k] = L->lo[k] * pow(L->ratio[k], side[a] - 1);
                        for (i = 0; i < side[a]; i++)
                            for (j = 0; j < side[a]; j++)
                                for (r = 0; r < reps[b]; r++) {
                                    x[2 * n] = L->lo[0] * pow(L->ratio[0], i);
                                    x[2 * n + 1] = L->lo[1] * pow(L->ratio[1], j);
                                    y[n] = L->f(x[2 * n], x[2 * n + 1]) *
                                           exp(noise[c] * gauss());
                                    n++;
                                }
                        if (s == 2)
                            y[(size_t)(uniform() * (double)n)] *= 1.5 + uniform();
                        for (k = 0; k < 4; k++) {
                            xq[2 * k] = top[0] * at[k][0];
                            xq[2 * k + 1] = top[1] * at[k][1];
                            tr[k] = L->f(xq[2 * k], xq[2 * k + 1]);
                            o[k][0] = tr[k] * exp(noise[c] * gauss());
                            op[k] = o[k];
                        }
                        for (k = 0; k < NSEL; k++)
                            score(k, x, y, n, xq, tr, op, nobs, 4, &t[k], NULL);
                    }
    nv = 1;
}

/* The two cases issue 13 names, printed in full. */
static void named_cases(void)
{
    double x[64], y[64], xq[3], tr[3], o[3][1], *op[3], pred[2][3];
    size_t n, k, nobs[3] = {1, 1, 1};
    struct tally t[2] = {{0}};
    int neu;

    /* Weak scaling over p = 4..256 (4 observations per point, 1 % noise),
     * asked at p = 1024 (the truth 11.2). */
    rng = 42;
    n = 0;
    for (k = 0; k < 7; k++)
        for (int r = 0; r < 2; r++) {
            x[n] = 4 * pow(2, (double)k);
            y[n] = weak(x[n]) * (1 + 0.01 * gauss());
            n++;
        }
    xq[0] = 1024;
    tr[0] = weak(1024);
    o[0][0] = tr[0];
    op[0] = o[0];
    for (neu = 0; neu < 2; neu++)
        score(neu, x, y, n, xq, tr, op, nobs, 1, &t[neu], pred[neu]);
    printf("weak scaling 5+0.1sqrt(p)+0.3log2p, p=4..256, at p=1024 (truth %.3f): "
           "old %.4g, new %.4g\n",
           tr[0], pred[0][0], pred[1][0]);
    /* 200/p + 0.5 log2 p + 1 on p = 2..64 at 5 % noise, asked at 128, 256. */
    rng = 4242;
    n = 0;
    for (k = 0; k < 6; k++)
        for (int r = 0; r < 4; r++) {
            x[n] = 2 * pow(2, (double)k);
            y[n] = strong_log(x[n]) * (1 + 0.05 * gauss());
            n++;
        }
    for (k = 0; k < 2; k++) {
        xq[k] = 128 * pow(2, (double)k);
        tr[k] = strong_log(xq[k]);
        o[k][0] = tr[k];
        op[k] = o[k];
    }
    for (neu = 0; neu < 2; neu++)
        score(neu, x, y, n, xq, tr, op, nobs, 2, &t[neu], pred[neu]);
    printf("200/p+0.5log2p+1, p<=64, 5%% noise, at p=128/256 (truth %.3f/%.3f): "
           "old %.4g/%.4g, new %.4g/%.4g\n",
           tr[0], tr[1], pred[0][0], pred[0][1], pred[1][0], pred[1][1]);
    /* The worst case over 40 draws (1 observation per point, 1-5 % noise). */
    {
        double worst[2] = {0, 0}, wp[2] = {0, 0};
        int s2, lawi;
        for (lawi = 0; lawi < 2; lawi++) {
            worst[0] = worst[1] = 0;
            for (s2 = 0; s2 < 40; s2++) {
                double nz = 0.01 * (1 + s2 % 5);
                size_t q = 0, nq = lawi ? 2 : 1;
                rng = 1000 + (uint64_t)s2;
                for (k = 0; k < (lawi ? 6u : 7u); k++) {
                    x[q] = lawi ? 2 * pow(2, (double)k) : 4 * pow(2, (double)k);
                    y[q] = (lawi ? strong_log(x[q]) : weak(x[q])) * (1 + nz * gauss());
                    q++;
                }
                for (k = 0; k < nq; k++) {
                    xq[k] = lawi ? 128 * pow(2, (double)k) : 1024;
                    tr[k] = lawi ? strong_log(xq[k]) : weak(xq[k]);
                    o[k][0] = tr[k];
                    op[k] = o[k];
                }
                for (neu = 0; neu < 2; neu++) {
                    if (score(neu, x, y, q, xq, tr, op, nobs, nq, &t[neu], pred[neu]) < 0)
                        continue;
                    for (k = 0; k < nq; k++)
                        if (fabs(pred[neu][k] - tr[k]) / tr[k] > worst[neu]) {
                            worst[neu] = fabs(pred[neu][k] - tr[k]) / tr[k];
                            wp[neu] = pred[neu][k];
                        }
                }
            }
            printf("%s, 40 draws of 1 observation per point at 1-5%% noise: worst "
                   "relative error old %.3g (predicted %.4g), new %.3g (predicted "
                   "%.4g)\n",
                   lawi ? "200/p+0.5log2p+1 on p<=64" : "weak scaling on p=4..256",
                   worst[0], wp[0], worst[1], wp[1]);
        }
    }
    for (neu = 0; neu < 2; neu++) {
        xfree(t[neu].err);
        xfree(t[neu].width);
    }
}

/* ---- real measurements ---- */

static int cmp_pair(const void *a, const void *b)
{
    const double *p = a, *q = b;
    return (p[0] > q[0]) - (p[0] < q[0]);
}

/* Whether the case is fitted on the --basis curve, and the curve as it
 * reads it (*cb). */
static int on_curve(const char *name, const char *path, struct fit_basis *cb)
{
    size_t l = strlen(name);
    int i;

    *cb = curve;
    if (curve_nmap < 0)
        return l > 5 && strcmp(name + l - 5, "_size") == 0 &&
               strcmp(path, curve_path) != 0;
    for (i = 0; i < curve_nmap; i++)
        if (strcmp(curve_map[i].name, name) == 0) {
            cb->scale = curve_map[i].scale;
            cb->power = curve_map[i].power;
            return 1;
        }
    return 0;
}

/* score, and each prediction's error and width binned by its reach beyond
 * the training data (reach[j], in doublings). Returns the case's median
 * error, or NAN when the fit failed. */
static double score_reach(int neu, const double *x, const double *y, size_t n,
                          const double *xq, const double *truth, double *const *obs,
                          const size_t *nobs, size_t nq, const double *reach,
                          struct tally *t, double *pred)
{
    double e[256];
    size_t j;

    if (score(neu, x, y, n, xq, truth, obs, nobs, nq, t, pred) < 0)
        return NAN;
    for (j = 0; j < nq; j++) {
        int bin = reach[j] <= 1 ? 0 : reach[j] <= 2 ? 1 : 2;
        e[j] = fabs(pred[j] - truth[j]) / truth[j];
        if (reach_n[neu][bin] < 512) {
            reach_w[neu][bin][reach_n[neu][bin]] = last_width[j];
            reach_e[neu][bin][reach_n[neu][bin]++] = e[j];
        }
    }
    return median(e, nq);
}

/* Counts a case, new against Extra-P's rule, by their median errors. */
static void case_vs_xp(const char *name, const double *case_err, int verbose)
{
    double en = case_err[NEW], ex = case_err[XP];
    int w;

    if (!isfinite(en) || !isfinite(ex))
        return;
    w = fabs(en - ex) <= 0.01 * fmax(en, ex) ? 1 : en < ex ? 0 : 2;
    cases_vs_xp[w]++;
    cases_log_ratio += en > 0 && ex > 0 ? log(en / ex) : 0;
    if (verbose)
        printf("  %-16s case median error: new %.3g, Extra-P's rule %.3g (%s)\n", name,
               en, ex,
               w == 0   ? "new better"
               : w == 1 ? "within 1 %"
                        : "new worse");
}

/* --single: one observation per x (n observations of nvars values each,
 * equal x adjacent), drawn with single_seed, as a study without
 * repetitions has; returns how many are left. Without --single, n. */
static size_t keep_one(double *x, double *y, size_t n, int nvars)
{
    size_t kept = 0, i, k, cnt;
    unsigned seed = single_seed;

    if (single_seed == 0)
        return n;
    for (i = 0; i < n; i += cnt) {
        for (cnt = 1; i + cnt < n && memcmp(&x[(i + cnt) * nvars], &x[i * nvars],
                                            nvars * sizeof *x) == 0;
             cnt++)
            ;
        seed = seed * 1103515245u + 12345u;
        k = i + (seed >> 16) % cnt;
        memmove(&x[kept * nvars], &x[k * nvars], nvars * sizeof *x);
        y[kept++] = y[k];
    }
    return kept;
}

/* Sorted distinct values of variable v of n rows of 3 (x1 x2 y); at most 256. */
static size_t distinct(const double *r, size_t n, int v, double *d)
{
    size_t nd = 0, i, j;

    for (i = 0; i < n; i++) {
        for (j = 0; j < nd && d[j] != r[3 * i + v]; j++)
            ;
        if (j == nd && nd < 256)
            d[nd++] = r[3 * i + v];
    }
    qsort(d, nd, sizeof *d, cmp);
    return nd;
}

/* A case of two variables, "x1 x2 y" per line: trained on the configurations
 * whose both values are among the smaller max(4, ceil(train_frac * k)) of
 * the k distinct values of their variable, asked at every configuration
 * outside that box. Scored as real_case; the Extra-P column is its
 * multi-parameter rule (fit_pmnf2). */
static void real_case2(const char *path, const char *name, struct tally *t, int verbose)
{
    FILE *f = fopen(path, "r");
    double *r = NULL, a, b, c, d[2][256], lim[2], *x, *y, xq[512], tr[256], *op[256];
    double reach[256];
    double case_err[NSEL];
    size_t n = 0, cap = 0, nd[2], i, j, v, ntr = 0, nq = 0, nobs[256];
    int neu;

    if (f == NULL)
        return;
    while (fscanf(f, "%lf %lf %lf", &a, &b, &c) == 3) {
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            r = xrealloc(r, 3 * cap * sizeof *r);
            if (r == NULL)
                exit(1);
        }
        r[3 * n] = a, r[3 * n + 1] = b, r[3 * n + 2] = c;
        n++;
    }
    fclose(f);
    qsort(r, n, 3 * sizeof *r, cmp_triple);
    for (v = 0; v < 2; v++) {
        size_t k;
        nd[v] = distinct(r, n, (int)v, d[v]);
        k = (size_t)ceil(train_frac * (double)nd[v]);
        k = k < 4 ? 4 : k;
        if (nd[v] <= k) {
            printf("  %-16s needs more than %zu values of x%zu\n", name, k, v + 1);
            xfree(r);
            return;
        }
        lim[v] = d[v][k - 1];
    }
    x = xmalloc(2 * n * sizeof *x);
    y = xmalloc(n * sizeof *y);
    for (i = 0; i < n; i = j) {
        int in = r[3 * i] <= lim[0] && r[3 * i + 1] <= lim[1];
        double vals[64];
        size_t k = 0;
        for (j = i; j < n && r[3 * j] == r[3 * i] && r[3 * j + 1] == r[3 * i + 1]; j++) {
            if (in) {
                x[2 * ntr] = r[3 * j];
                x[2 * ntr + 1] = r[3 * j + 1];
                y[ntr++] = r[3 * j + 2];
            } else if (k < 64) {
                vals[k++] = r[3 * j + 2];
            }
        }
        if (in || nq == 256)
            continue;
        xq[2 * nq] = r[3 * i];
        xq[2 * nq + 1] = r[3 * i + 1];
        nobs[nq] = k;
        op[nq] = xmalloc(k * sizeof **op);
        memcpy(op[nq], vals, k * sizeof *vals);
        tr[nq] = median(vals, k);
        nq++;
    }
    ntr = keep_one(x, y, ntr, 2);
    nv = 2;
    for (j = 0; j < nq; j++)
        reach[j] = fmax(log2(xq[2 * j] / lim[0]), log2(xq[2 * j + 1] / lim[1]));
    for (neu = 0; neu < NSEL; neu++) {
        double pred[256];
        case_err[neu] =
            score_reach(neu, x, y, ntr, xq, tr, op, nobs, nq, reach, &t[neu], pred);
        if (verbose) {
            printf("  %-16s %-3s: train x1<=%g x2<=%g,", name, sel_name[neu], lim[0],
                   lim[1]);
            for (j = 0; j < nq; j++)
                printf(" %g,%g:%.3g(%.3g)%.0f%%", xq[2 * j], xq[2 * j + 1], pred[j],
                       tr[j], 100 * last_width[j]);
            printf("\n  %16s      %s\n", "", last_law);
        }
    }
    nv = 1;
    case_vs_xp(name, case_err, verbose);
    for (j = 0; j < nq; j++)
        xfree(op[j]);
    xfree(x);
    xfree(y);
    xfree(r);
}

static void real_case(const char *path, const char *name, struct tally *t, int verbose)
{
    FILE *f = fopen(path, "r");
    struct fit_basis cb;
    double *xy = NULL, a, b;
    size_t n = 0, cap = 0, nd = 0, i, j, ntrain, ntr, nq = 0;
    double dx[256], *x = NULL, *y = NULL, xq[256], tr[256], *op[256], case_err[NSEL];
    double reach[256];
    size_t nobs[256];
    int neu;

    if (f == NULL)
        return;
    { /* three numbers on the first line: a case of two variables */
        char first[256];
        double c;
        if (fgets(first, sizeof first, f) != NULL &&
            sscanf(first, "%lf %lf %lf", &a, &b, &c) == 3) {
            fclose(f);
            real_case2(path, name, t, verbose);
            return;
        }
        rewind(f);
    }
    while (fscanf(f, "%lf %lf", &a, &b) == 2) {
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            xy = xrealloc(xy, 2 * cap * sizeof *xy);
            if (xy == NULL)
                exit(1);
        }
        xy[2 * n] = a;
        xy[2 * n + 1] = b;
        n++;
    }
    fclose(f);
    qsort(xy, n, 2 * sizeof *xy, cmp_pair);
    for (i = 0; i < n; i++)
        if ((nd == 0 || xy[2 * i] != dx[nd - 1]) && nd < 256)
            dx[nd++] = xy[2 * i];
    if (nd < 6) {
        xfree(xy);
        return;
    }
    ntrain = (size_t)ceil(train_frac * (double)nd);
    ntrain = ntrain < 4 ? 4 : ntrain;
    x = xmalloc(n * sizeof *x);
    y = xmalloc(n * sizeof *y);
    for (ntr = 0, i = 0; i < n && xy[2 * i] <= dx[ntrain - 1]; i++, ntr++) {
        x[ntr] = xy[2 * i];
        y[ntr] = xy[2 * i + 1];
    }
    ntr = keep_one(x, y, ntr, 1);
    for (j = ntrain; j < nd; j++) {
        double v[64];
        size_t k = 0;
        xq[nq] = dx[j];
        op[nq] = xy; /* placeholder, set below */
        for (i = 0; i < n; i++)
            if (xy[2 * i] == dx[j] && k < 64)
                v[k++] = xy[2 * i + 1];
        nobs[nq] = k;
        op[nq] = xmalloc(k * sizeof **op);
        memcpy(op[nq], v, k * sizeof *v);
        tr[nq] = median(v, k);
        nq++;
    }
    for (j = 0; j < nq; j++)
        reach[j] = log2(xq[j] / dx[ntrain - 1]);
    for (neu = 0; neu < NSEL; neu++) {
        double pred[256];
        case_err[neu] =
            score_reach(neu, x, y, ntr, xq, tr, op, nobs, nq, reach, &t[neu], pred);
        if (verbose) {
            printf("  %-16s %-3s: train x<=%g,", name, sel_name[neu], dx[ntrain - 1]);
            for (j = 0; j < nq; j++)
                printf(" %g:%.3g(%.3g)%.0f%%", xq[j], pred[j], tr[j],
                       100 * last_width[j]);
            printf("\n  %16s      %s\n", "", last_law);
        }
    }
    case_vs_xp(name, case_err, verbose);
    /* --basis: a case over message size, other than the curve itself, or
     * one the map names, read where the map says */
    if (curve.n > 0 && on_curve(name, path, &cb)) {
        double pred[256], e[256], ec = NAN;
        int k;
        score(NEW, x, y, ntr, xq, tr, op, nobs, nq, &size_tally[S_NEW], NULL);
        score(XP, x, y, ntr, xq, tr, op, nobs, nq, &size_tally[S_XP], NULL);
        if (score_on(NEW, &cb, x, y, ntr, xq, tr, op, nobs, nq, &size_tally[S_CURVE],
                     pred) == 0) {
            for (j = 0; j < nq; j++)
                e[j] = fabs(pred[j] - tr[j]) / tr[j];
            ec = median(e, nq);
        }
        if (verbose) {
            printf("  %-16s crv: train x<=%g,", name, dx[ntrain - 1]);
            for (j = 0; isfinite(ec) && j < nq; j++)
                printf(" %g:%.3g(%.3g)%.0f%%", xq[j], pred[j], tr[j],
                       100 * last_width[j]);
            printf("\n  %16s      %s\n", "", isfinite(ec) ? last_law : "(no fit)");
            printf("  %16s      case median error: new %.3g, Extra-P's rule %.3g, curve "
                   "%.3g\n",
                   "", case_err[NEW], case_err[XP], ec);
        }
        for (k = 0; k < 2 && isfinite(ec); k++) {
            double eo = case_err[k == 0 ? XP : NEW];
            if (!isfinite(eo))
                continue;
            curve_vs[k][fabs(ec - eo) <= 0.01 * fmax(ec, eo) ? 1 : ec < eo ? 0 : 2]++;
            curve_log_ratio[k] += ec > 0 && eo > 0 ? log(ec / eo) : 0;
        }
    }
    for (j = 0; j < nq; j++)
        xfree(op[j]);
    xfree(x);
    xfree(y);
    xfree(xy);
}

static void real(const char *dir, struct tally *t, int verbose)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char names[64][128];
    int nn = 0, i;

    if (d == NULL) {
        printf("(no real data in %s)\n", dir);
        return;
    }
    while ((de = readdir(d)) != NULL && nn < 64) {
        size_t l = strlen(de->d_name);
        if (l > 4 && l < 120 && strcmp(de->d_name + l - 4, ".txt") == 0 &&
            strcmp(de->d_name, "basis.txt") != 0) /* the map of --basis, not a case */
            snprintf(names[nn++], sizeof names[0], "%s", de->d_name);
    }
    closedir(d);
    qsort(names, (size_t)nn, sizeof names[0],
          (int (*)(const void *, const void *))strcmp);
    for (i = 0; i < nn; i++) {
        char path[1024];
        if (strlen(dir) > 800)
            return;
        snprintf(path, sizeof path, "%.800s/%.120s", dir, names[i]);
        names[i][strlen(names[i]) - 4] = '\0';
        real_case(path, names[i], t, verbose);
    }
    printf("real cases by reach beyond the training data (median error; median "
           "interval width; old -> new, and Extra-P's rule):\n");
    for (i = 0; i < 3; i++) {
        static const char *const what[3] = {"<= 1 doubling", "1..2 doublings",
                                            "> 2 doublings"};
        if (reach_n[OLD][i] == 0 || reach_n[NEW][i] == 0)
            continue;
        printf("  %-15s %3zu predictions: error %.3f -> %.3f (xp %.3f), width %.0f%% -> "
               "%.0f%%\n",
               what[i], reach_n[NEW][i], median(reach_e[OLD][i], reach_n[OLD][i]),
               median(reach_e[NEW][i], reach_n[NEW][i]),
               median(reach_e[XP][i], reach_n[XP][i]),
               100 * median(reach_w[OLD][i], reach_n[OLD][i]),
               100 * median(reach_w[NEW][i], reach_n[NEW][i]));
    }
    printf("real cases one by one (median error over the x asked), new against Extra-P's "
           "rule: better in %zu, within 1 %% in %zu, worse in %zu; geometric mean of "
           "new / Extra-P %.3f\n",
           cases_vs_xp[0], cases_vs_xp[1], cases_vs_xp[2],
           exp(cases_log_ratio /
               fmax(1, (double)(cases_vs_xp[0] + cases_vs_xp[1] + cases_vs_xp[2]))));
}

/* ---- kernel coupling across configurations ---- */

#define MAXCONF 64
#define MAXREP 64
#define NMETH 8
struct conf {
    double n, p;
    double t[9];           /* K1..K4, K1K2, K2K3, K3K4, K4K1, ALL: least time measured */
    double rep[9][MAXREP]; /* every repetition, in the order measured */
    int cnt[9];
    double coef[3][4]; /* pair couplings as measured, shrunk to 1; loop chain */
    double cpair[4], se[4];
    int ok;
};

static int chain_index(const char *s)
{
    static const char *const names[9] = {"K1",   "K2",   "K3",   "K4", "K1K2",
                                         "K2K3", "K3K4", "K4K1", "ALL"};
    int i;

    for (i = 0; i < 9; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

/* The coefficients of one configuration from its pair couplings; with
 * shrink 1, each coupling is first shrunk toward 1 by its repetition spread
 * (couple_shrink, couple_spread of the per-repetition couplings: chain and
 * kernels of the same interleaved repetition); with shrink 2, from the chain
 * of the whole loop K1..K4 and the pair K4K1 that closes it instead. */
static int conf_coefficients(struct conf *cf, int shrink)
{
    static const struct couple_kernel kern[4] = {
        {"K1", 1}, {"K2", 1}, {"K3", 1}, {"K4", 1}};
    struct couple_measurement m[4];
    struct couple_result r;
    struct err e = {0};
    int k, q;

    for (k = 0; k < 4; k++) {
        int a = k, b = (k + 1) % 4, nr = cf->cnt[4 + k];
        double ratio[MAXREP], sum = cf->t[a] + cf->t[b], c = cf->t[4 + k] / sum;
        nr = nr < cf->cnt[a] ? nr : cf->cnt[a];
        nr = nr < cf->cnt[b] ? nr : cf->cnt[b];
        for (q = 0; q < nr; q++)
            ratio[q] = cf->rep[4 + k][q] / (cf->rep[a][q] + cf->rep[b][q]);
        cf->cpair[k] = c;
        cf->se[k] = couple_spread(ratio, (size_t)nr);
        memset(&m[k], 0, sizeof m[k]);
        m[k].n = 2;
        m[k].kernel[0] = kern[a].name;
        m[k].kernel[1] = kern[b].name;
        m[k].alone[0] = cf->t[a];
        m[k].alone[1] = cf->t[b];
        m[k].together = (shrink == 1 ? couple_shrink(c, cf->se[k]) : c) * sum;
        m[k].index = (size_t)k;
    }
    if (shrink == 2) { /* [K1, K2, K3, K4] and [K4, K1] */
        m[0].n = 4;
        for (k = 0; k < 4; k++) {
            m[0].kernel[k] = kern[k].name;
            m[0].alone[k] = cf->t[k];
        }
        m[0].together = cf->t[8];
        m[1] = m[3];
        m[1].index = 1;
    }
    if (couple_coefficients(kern, 4, m, shrink == 2 ? 2 : 4, &r, &e) != 0)
        return -1;
    for (k = 0; k < 4; k++)
        cf->coef[shrink][k] = r.coef[k];
    couple_result_free(&r);
    return 0;
}

/* Four loop kernels measured alone, in pairs and together at (n, P): the loop
 * time predicted by plain summation and by the coefficients of the other
 * configurations, each configuration predicted from the others with its own
 * measured alone-times (so only the coupling is evaluated) against its
 * measured loop time. Methods: [0] summation; coupling values as measured:
 * [1] nearest configuration (couple_nearest), [2] the line over n at the same
 * P (couple_model_line, the rule before the trend test), [3] modeled over n
 * (couple_model_value: the line only when the trend is significant); [4],
 * [5] nearest and modeled with every coupling value shrunk toward 1 by its
 * repetition spread; [6], [7] nearest and modeled with the coefficients of
 * the whole-loop chain (and the pair closing it) instead of the pairs. Also prints, per
 * P, how noisy the data are against the size of the effect. */
static void couple_eval(const char *dir, const char *file, const char *what)
{
    static const char *const meth[NMETH] = {"summation",           "nearest",
                                            "line over n",         "modeled (trend)",
                                            "nearest, shrunk",     "modeled, shrunk",
                                            "nearest, loop chain", "modeled, loop chain"};
    struct conf *cf = xcalloc(MAXCONF, sizeof *cf);
    char path[1024], chain[16];
    double n, p, t, err[NMETH] = {0}, perr[8][NMETH] = {{0}};
    int nc = 0, i, j, k, w, ntarget = 0, pn[8] = {0};
    FILE *f;

    if (cf == NULL || strlen(dir) > 800) {
        xfree(cf);
        return;
    }
    snprintf(path, sizeof path, "%.800s/couple/%.100s", dir, file);
    f = fopen(path, "r");
    if (f == NULL) {
        printf("(no coupling data in %s)\n", path);
        xfree(cf);
        return;
    }
    while (fscanf(f, "%lf %lf %15s %lf", &n, &p, chain, &t) == 4) {
        int c = chain_index(chain);
        for (i = 0; i < nc && !(cf[i].n == n && cf[i].p == p); i++)
            ;
        if (c < 0 || (i == nc && nc == MAXCONF))
            continue;
        if (i == nc) {
            cf[nc].n = n;
            cf[nc].p = p;
            nc++;
        }
        /* The least of the repetitions: on a shared machine the other
         * programs only ever add time. */
        cf[i].t[c] = cf[i].cnt[c] == 0 || t < cf[i].t[c] ? t : cf[i].t[c];
        if (cf[i].cnt[c] < MAXREP)
            cf[i].rep[c][cf[i].cnt[c]++] = t;
    }
    fclose(f);
    for (i = 0; i < nc; i++) {
        int ok = 1;
        for (k = 0; k < 9; k++)
            ok &= cf[i].cnt[k] > 0;
        cf[i].ok = ok && conf_coefficients(&cf[i], 0) == 0 &&
                   conf_coefficients(&cf[i], 1) == 0 && conf_coefficients(&cf[i], 2) == 0;
    }
    for (i = 0; i < nc; i++) {
        double conf[2 * MAXCONF], target[2] = {cf[i].n, cf[i].p}, dx;
        double xs[MAXCONF], cs[3][MAXCONF], pred[NMETH] = {0}, meas = cf[i].t[8], c;
        int idx[MAXCONF], no = 0, ns, pi = (int)cf[i].p;
        if (!cf[i].ok)
            continue;
        for (j = 0; j < nc; j++)
            if (j != i && cf[j].ok) {
                conf[2 * no] = cf[j].n;
                conf[2 * no + 1] = cf[j].p;
                idx[no++] = j;
            }
        if (no == 0)
            continue;
        j = idx[couple_nearest(conf, (size_t)no, 2, target, 0, &dx)];
        for (k = 0; k < 4; k++) {
            double tk = cf[i].t[k];
            ns = 0;
            for (int q = 0; q < nc; q++)
                if (q != i && cf[q].ok && cf[q].p == cf[i].p) {
                    xs[ns] = cf[q].n;
                    cs[0][ns] = cf[q].coef[0][k];
                    cs[1][ns] = cf[q].coef[1][k];
                    cs[2][ns++] = cf[q].coef[2][k];
                }
            pred[0] += tk;
            pred[1] += cf[j].coef[0][k] * tk;
            pred[4] += cf[j].coef[1][k] * tk;
            if (ns == 0 ||
                couple_model_line(xs, cs[0], (size_t)ns, cf[i].n, &c, NULL) < 0)
                c = cf[j].coef[0][k];
            pred[2] += c * tk;
            if (ns == 0 ||
                couple_model_value(xs, cs[0], (size_t)ns, cf[i].n, &c, NULL) < 0)
                c = cf[j].coef[0][k];
            pred[3] += c * tk;
            if (ns == 0 ||
                couple_model_value(xs, cs[1], (size_t)ns, cf[i].n, &c, NULL) < 0)
                c = cf[j].coef[1][k];
            pred[5] += c * tk;
            pred[6] += cf[j].coef[2][k] * tk;
            if (ns == 0 ||
                couple_model_value(xs, cs[2], (size_t)ns, cf[i].n, &c, NULL) < 0)
                c = cf[j].coef[2][k];
            pred[7] += c * tk;
        }
        for (w = 0; w < NMETH; w++) {
            err[w] += fabs(pred[w] - meas) / meas;
            if (pi >= 1 && pi < 8)
                perr[pi][w] += fabs(pred[w] - meas) / meas;
        }
        if (pi >= 1 && pi < 8)
            pn[pi]++;
        ntarget++;
    }
    if (ntarget == 0) {
        xfree(cf);
        return;
    }
    printf("\nkernel coupling, %s (%s): %d configurations (n x P), each predicted from "
           "the others;\nmean relative error of the loop time:\n",
           what, file, ntarget);
    printf("  %-8s", "P");
    for (w = 0; w < NMETH; w++)
        printf(" %*s", w == 0 ? 9 : 10, w == 0 ? "sum" : meth[w]);
    printf("\n  %-8s", "all");
    for (w = 0; w < NMETH; w++)
        printf(" %9.1f%%", 100 * err[w] / ntarget);
    printf("\n");
    for (i = 1; i < 8; i++) {
        if (pn[i] == 0)
            continue;
        printf("  P = %-4d", i);
        for (w = 0; w < NMETH; w++)
            printf(" %9.1f%%", 100 * perr[i][w] / pn[i]);
        printf("\n");
    }
    printf("  (methods: ");
    for (w = 0; w < NMETH; w++)
        printf("%s%s", w ? ", " : "", meth[w]);
    printf(
        ")\nnoise against effect, per P (medians over configurations): loop time "
        "median/min - 1 over the repetitions; |pair coupling - 1|; its standard error; "
        "|loop time / sum of alone times - 1|\n");
    for (i = 1; i < 8; i++) {
        double spread[MAXCONF], eff[4 * MAXCONF], se[4 * MAXCONF], call[MAXCONF];
        size_t a = 0, b = 0;
        for (j = 0; j < nc; j++) {
            double v[MAXREP];
            if (!cf[j].ok || (int)cf[j].p != i)
                continue;
            memcpy(v, cf[j].rep[8], (size_t)cf[j].cnt[8] * sizeof *v);
            spread[a] = median(v, (size_t)cf[j].cnt[8]) / cf[j].t[8] - 1;
            call[a++] = fabs(
                cf[j].t[8] / (cf[j].t[0] + cf[j].t[1] + cf[j].t[2] + cf[j].t[3]) - 1);
            for (k = 0; k < 4; k++) {
                eff[b] = fabs(cf[j].cpair[k] - 1);
                se[b++] = cf[j].se[k];
            }
        }
        if (a > 0)
            printf("  P = %d: %zu configurations, %d repetitions: noise %.1f%%, |C - 1| "
                   "%.1f%% (se %.1f%%), loop vs sum %.1f%%\n",
                   i, a, cf[0].cnt[8], 100 * median(spread, a), 100 * median(eff, b),
                   100 * median(se, b), 100 * median(call, a));
    }
    xfree(cf);
}

static void print_row(const char *corpus, const char *sel, struct tally *t)
{
    double me = median(t->err, t->n), mw = median(t->width, t->n);
    printf("%-24s %-4s %6zu %10.3f %8zu (%4.1f%%)", corpus, sel, t->n, me, t->within,
           100.0 * (double)t->within / (double)(t->n ? t->n : 1));
    if (isinf(mw))
        printf(" %9s %11s", "-", "-");
    else
        printf(" %8.1f%% %10.1f%%",
               100.0 * (double)t->covered / (double)(t->n ? t->n : 1), 100 * mw);
    printf(" %6zu\n", t->failed);
}

/* Reads a machine curve, "x t" per line, named after the file. */
static int load_curve(const char *path)
{
    FILE *f = fopen(path, "r");
    double x[4096], t[4096];
    char name[FIT_BASIS_NAME];
    const char *base = strrchr(path, '/');
    size_t n = 0, l;
    struct err e = {0};

    base = base ? base + 1 : path;
    l = strcspn(base, ".");
    snprintf(name, sizeof name, "%.*s", (int)(l < sizeof name - 1 ? l : sizeof name - 1),
             base);
    if (f == NULL) {
        fprintf(stderr, "bench_modeling: cannot read %s\n", path);
        return -1;
    }
    while (n < 4096 && fscanf(f, "%lf %lf", &x[n], &t[n]) == 2)
        n++;
    fclose(f);
    if (fit_basis_make(name, x, t, n, &curve, &e) != 0) {
        fprintf(stderr, "bench_modeling: %s: %s\n", path, e.message);
        return -1;
    }
    curve_path = path;
    return 0;
}

/* Reads a --map: "case scale power" per line, '#' to the end of a line a
 * comment. Returns 0, or -1 with a message. */
static int load_map(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512];
    int ln = 0;

    if (f == NULL) {
        fprintf(stderr, "bench_modeling: cannot read %s\n", path);
        return -1;
    }
    curve_nmap = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        char name[128], rest[2];
        double sc, pw;
        int k;
        ln++;
        line[strcspn(line, "#\n")] = '\0';
        k = sscanf(line, "%127s %lf %lf %1s", name, &sc, &pw, rest);
        if (k <= 0)
            continue;
        if (k != 3 || !(sc > 0 && sc <= FIT_BASIS_SCALE_MAX) ||
            !(pw > 0 && pw <= FIT_BASIS_POWER_MAX) || curve_nmap == 64) {
            fprintf(stderr, "bench_modeling: %s:%d: want \"case scale power\"\n", path,
                    ln);
            fclose(f);
            return -1;
        }
        snprintf(curve_map[curve_nmap].name, sizeof curve_map[0].name, "%s", name);
        curve_map[curve_nmap].scale = sc;
        curve_map[curve_nmap++].power = pw;
    }
    fclose(f);
    return 0;
}

static void print_curve_summary(void)
{
    static const char *const sn[NSIZE] = {"new", "xp", "curve"};
    int i, k;

    printf("\n%s also fitted on the machine curve %s (%d points, %g to %g):\n",
           curve_nmap < 0 ? "message-size cases"
                          : "the mapped cases (read at scale*x^power)",
           curve.name, curve.n, curve.x[0], curve.x[curve.n - 1]);
    for (k = 0; k < 2; k++) {
        size_t c = curve_vs[k][0] + curve_vs[k][1] + curve_vs[k][2];
        printf("  one by one, the curve against %s: better in %zu, within 1 %% in %zu, "
               "worse in %zu; geometric mean of curve / %s %.3f\n",
               k == 0 ? "Extra-P's rule" : "new", curve_vs[k][0], curve_vs[k][1],
               curve_vs[k][2], k == 0 ? "Extra-P" : "new",
               exp(curve_log_ratio[k] / fmax(1, (double)c)));
    }
    for (i = 0; i < NSIZE; i++) {
        print_row(curve_nmap < 0 ? "message size" : "on the curve", sn[i],
                  &size_tally[i]);
        xfree(size_tally[i].err);
        xfree(size_tally[i].width);
    }
}

int main(int argc, char **argv)
{
    const char *dir, *map = NULL;
    struct tally syn[NSEL] = {{0}}, syn2[NSEL] = {{0}}, re[NSEL] = {{0}};
    char mapbuf[1024];
    int i;

    while (argc > 2 && strncmp(argv[1], "--", 2) == 0) {
        char *end;
        if (strcmp(argv[1], "--train") == 0) {
            train_frac = strtod(argv[2], &end);
            if (*end != '\0' || !(train_frac >= 0.3 && train_frac <= 0.9)) {
                fprintf(stderr,
                        "bench_modeling: --train wants a fraction of 0.3...0.9\n");
                return 2;
            }
        } else if (strcmp(argv[1], "--basis") == 0) {
            if (load_curve(argv[2]) != 0)
                return 2;
        } else if (strcmp(argv[1], "--map") == 0) {
            map = argv[2];
        } else if (strcmp(argv[1], "--e2") == 0) {
            if (strcmp(argv[2], "on") != 0 && strcmp(argv[2], "off") != 0) {
                fprintf(stderr, "bench_modeling: --e2 wants on or off\n");
                return 2;
            }
            fit_auto_two_var_rule(strcmp(argv[2], "on") == 0);
        } else if (strcmp(argv[1], "--single") == 0) {
            long v = strtol(argv[2], &end, 10);
            if (*end != '\0' || v < 1 || v > 1000000) {
                fprintf(stderr, "bench_modeling: --single wants a seed of 1...1000000\n");
                return 2;
            }
            single_seed = (unsigned)v;
        } else {
            fprintf(stderr, "bench_modeling: unknown option %s\n", argv[1]);
            return 2;
        }
        argc -= 2;
        argv += 2;
    }
    dir = argc > 1 ? argv[1] : "bench/modeling/data";
    if (map == NULL && curve.n > 0 && strlen(dir) < 1000) {
        snprintf(mapbuf, sizeof mapbuf, "%s/basis.txt", dir);
        if (access(mapbuf, R_OK) == 0)
            map = mapbuf;
    }
    if (map != NULL && (curve.n == 0 || load_map(map) != 0)) {
        if (curve.n == 0)
            fprintf(stderr, "bench_modeling: --map needs --basis\n");
        return 2;
    }
    gsl_set_error_handler_off();
    named_cases();
    printf("real cases (x:prediction(measured median)interval width):\n");
    real(dir, re, 1);
    synthetic(syn, argc > 2);
    synthetic2(syn2);
    printf("\n%-24s %-4s %6s %10s %17s %9s %11s %6s\n", "corpus", "sel", "preds",
           "med.err", "within 10%", "coverage", "med.width", "failed");
    for (i = 0; i < NSEL; i++)
        print_row("synthetic", sel_name[i], &syn[i]);
    for (i = 0; i < NSEL; i++)
        print_row("synthetic, two variables", sel_name[i], &syn2[i]);
    for (i = 0; i < NSEL; i++)
        print_row("real", sel_name[i], &re[i]);
    printf("new selection: %zu fits, %zu with a regime change, %zu with outliers left "
           "out\n",
           n_fits, n_breaks, n_outliers);
    if (curve.n > 0)
        print_curve_summary();
    couple_eval(dir, "kernels.txt", "four loop kernels of kernels.c");
    couple_eval(dir, "chain.txt", "solver loop stencil -> residual -> update -> norm");
    for (i = 0; i < NSEL; i++) {
        xfree(syn[i].err);
        xfree(syn[i].width);
        xfree(syn2[i].err);
        xfree(syn2[i].width);
        xfree(re[i].err);
        xfree(re[i].width);
    }
    return 0;
}
