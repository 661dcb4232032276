/* detect: tests of one value against a window, Welch's t-test and change
 * points; see detect.h for the definitions. */
#include "models/detect.h"
#include "common/xalloc.h"

#include <float.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = {"zscore", "ttest", "percent", "iqr"};

int detect_parse(const char *s, enum detect_test *out, const char *field, struct err *err)
{
    for (size_t i = 0; s && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(s, names[i]) == 0) {
            *out = (enum detect_test)i;
            return 0;
        }
    return err_set(err, ERR_INVALID, "invalid", field,
                   "%s must be one of zscore, ttest, percent, iqr", field);
}

const char *detect_name(enum detect_test t)
{
    return names[t];
}

double detect_default_threshold(enum detect_test t)
{
    switch (t) {
    case DETECT_ZSCORE:
        return 3.0;
    case DETECT_TTEST:
        return 0.05;
    case DETECT_PERCENT:
        return 10.0;
    case DETECT_IQR:
        return 1.5;
    }
    return 3.0;
}

/* The threshold's own rules, without the band check of a ttest's level
 * (what every judgement checks). */
static int threshold_ok(enum detect_test t, double threshold, const char *field,
                        struct err *err)
{
    if (!isfinite(threshold) || threshold <= 0)
        return err_set(err, ERR_INVALID, "invalid", field, "%s must be a positive number",
                       field);
    if (t == DETECT_TTEST && threshold >= 1)
        return err_set(
            err, ERR_INVALID, "invalid", field,
            "%s of a ttest is a significance level between 0 and 1 (e.g. 0.05)", field);
    return 0;
}

int detect_check_threshold(enum detect_test t, double threshold, const char *field,
                           struct err *err)
{
    if (threshold_ok(t, threshold, field, err) != 0)
        return -1;
    if (t == DETECT_TTEST)
        /* a level so small that the t quantile is not finite for some window
         * (1e-300: NaN at a few degrees of freedom) would give a band that
         * no page can show; refused here rather than judged */
        for (int df = 1; df < DETECT_MAX_WINDOW; df++)
            if (!isfinite(gsl_cdf_tdist_Qinv(threshold / 2, (double)df)))
                return err_set(err, ERR_INVALID, "invalid", field,
                               "%s of a ttest is too small: its band is not finite "
                               "(use at least 1e-100)",
                               field);
    return 0;
}

size_t detect_min_history(enum detect_test t)
{
    switch (t) {
    case DETECT_ZSCORE:
    case DETECT_TTEST:
        return 2;
    case DETECT_PERCENT:
        return 1;
    case DETECT_IQR:
        return 4;
    }
    return 2;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Quantile q of sorted v[0..n) by linear interpolation between order
 * statistics (Hyndman & Fan type 7, as R and numpy default). */
static double quantile(const double *v, size_t n, double q)
{
    double h = (double)(n - 1) * q;
    size_t lo = (size_t)floor(h);
    if (lo + 1 >= n)
        return v[n - 1];
    return v[lo] + (h - (double)lo) * (v[lo + 1] - v[lo]);
}

static void mean_sd(const double *v, size_t n, double *mean, double *sd)
{
    double m = 0, ss = 0;
    for (size_t i = 0; i < n; i++) /* Welford: stable for values far from 0 */
    {
        double d = v[i] - m;
        m += d / (double)(i + 1);
        ss += d * (v[i] - m);
    }
    *mean = m;
    *sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
}

/* Student's t quantile Qinv(alpha, df), remembered per thread: a watch asks
 * the same (alpha, window) for run after run, and GSL's inversion costs
 * ~1 us, more than the rest of a verdict. */
static double t_quantile(double alpha, double df)
{
    static _Thread_local struct {
        double alpha, df, q;
    } memo[32];
    uint64_t a, b;
    unsigned h;
    memcpy(&a, &alpha, sizeof a);
    memcpy(&b, &df, sizeof b);
    h = (unsigned)(((a * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full)) >> 59);
    if (memo[h].df != df || memo[h].alpha != alpha) {
        memo[h].alpha = alpha;
        memo[h].df = df;
        memo[h].q = gsl_cdf_tdist_Qinv(alpha, df);
    }
    return memo[h].q;
}

/* Sorts v[0..n) ascending: insertion for a short window (no call per
 * comparison), qsort beyond. */
static void sort_values(double *v, size_t n)
{
    if (n > 64) {
        qsort(v, n, sizeof *v, cmp_double);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        double x = v[i];
        size_t k = i;
        for (; k > 0 && v[k - 1] > x; k--)
            v[k] = v[k - 1];
        v[k] = x;
    }
}

/* A band from lo to hi around the centre; fills the verdict for value. */
static void place(struct detect_verdict *out, double value, double lo, double hi)
{
    out->lo = lo;
    out->hi = hi;
    out->direction = value > hi ? 1 : value < lo ? -1 : 0;
    out->out = out->direction != 0;
}

int detect_stat(enum detect_test t, const double *hist, size_t n, struct detect_stat *st,
                struct err *err)
{
    memset(st, 0, sizeof *st);
    if (n > DETECT_MAX_WINDOW)
        return err_set(err, ERR_INVALID, "too_large", "window",
                       "a window holds at most %d values", DETECT_MAX_WINDOW);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(hist[i]))
            return err_set(err, ERR_INVALID, "invalid", NULL,
                           "a value of the window is not finite");
    st->n = n;
    if (n < detect_min_history(t))
        return 0; /* not ready: nothing judged */
    st->ready = 1;
    mean_sd(hist, n, &st->mean, &st->sd);
    /* Identical values: a floor keeps the band from being empty, so that a
     * bit-identical repeat is inside and any real change is out. */
    if (st->sd < 1e-9 * fabs(st->mean))
        st->sd = 1e-9 * fabs(st->mean);
    if (t == DETECT_IQR) {
        double small[64], *sorted = n <= 64 ? small : xmalloc(n * sizeof *sorted);
        if (sorted == NULL)
            return err_set(err, ERR_INTERNAL, "out_of_memory", NULL, "out of memory");
        memcpy(sorted, hist, n * sizeof *sorted);
        sort_values(sorted, n);
        st->q1 = quantile(sorted, n, 0.25);
        st->q3 = quantile(sorted, n, 0.75);
        st->med = quantile(sorted, n, 0.5);
        st->iqr = st->q3 - st->q1;
        if (st->iqr < 1e-9 * fabs(st->med))
            st->iqr = 1e-9 * fabs(st->med);
        if (sorted != small)
            xfree(sorted);
    }
    return 0;
}

/* A threshold and a value a band can be drawn for: 0, or -1 with err set. */
static int band_inputs(enum detect_test t, double threshold, double value,
                       struct err *err)
{
    if (threshold_ok(t, threshold, "threshold", err) != 0)
        return -1;
    if (!isfinite(value))
        return err_set(err, ERR_INVALID, "invalid", NULL,
                       "the value to judge is not finite");
    return 0;
}

/* detect_band once its inputs are checked. */
static void band(enum detect_test t, double threshold, const struct detect_stat *st,
                 double value, struct detect_verdict *out)
{
    double mean = st->mean, sd = st->sd;

    memset(out, 0, sizeof *out);
    if (!st->ready)
        return;
    out->ready = 1;
    out->expected = mean;
    switch (t) {
    case DETECT_ZSCORE:
        place(out, value, mean - threshold * sd, mean + threshold * sd);
        out->score = sd > 0 ? (value - mean) / sd : 0;
        break;
    case DETECT_TTEST: {
        double scale = sd * sqrt(1.0 + 1.0 / (double)st->n);
        double q = t_quantile(threshold / 2, (double)(st->n - 1));
        double lo = mean - q * scale, hi = mean + q * scale;
        if (!isfinite(lo) || !isfinite(hi)) { /* a watch made before the check */
            lo = -DBL_MAX;
            hi = DBL_MAX;
        }
        place(out, value, lo, hi);
        out->score = scale > 0 ? (value - mean) / scale : 0;
        break;
    }
    case DETECT_PERCENT: {
        double band = fabs(mean) * threshold / 100;
        place(out, value, mean - band, mean + band);
        out->score = mean != 0 ? (value - mean) / fabs(mean) * 100 : 0;
        break;
    }
    case DETECT_IQR:
        out->expected = st->med;
        place(out, value, st->q1 - threshold * st->iqr, st->q3 + threshold * st->iqr);
        if (st->iqr > 0)
            out->score = value > st->q3   ? (value - st->q3) / st->iqr
                         : value < st->q1 ? (value - st->q1) / st->iqr
                                          : 0;
        break;
    }
}

int detect_band(enum detect_test t, double threshold, const struct detect_stat *st,
                double value, struct detect_verdict *out, struct err *err)
{
    memset(out, 0, sizeof *out);
    if (band_inputs(t, threshold, value, err) != 0)
        return -1;
    band(t, threshold, st, value, out);
    return 0;
}

int detect_judge(enum detect_test t, double threshold, const double *hist, size_t n,
                 double value, struct detect_verdict *out, struct err *err)
{
    struct detect_stat st;

    memset(out, 0, sizeof *out);
    /* the errors in the order they always came: threshold, value, window */
    if (band_inputs(t, threshold, value, err) != 0 ||
        detect_stat(t, hist, n, &st, err) != 0)
        return -1;
    band(t, threshold, &st, value, out);
    return 0;
}

int detect_welch(double m1, double s1, long n1, double m2, double s2, long n2,
                 double alpha, struct detect_welch *out, struct err *err)
{
    double v1, v2, se2;

    memset(out, 0, sizeof *out);
    if (n1 < 2 || n2 < 2)
        return err_set(err, ERR_INVALID, "invalid", NULL,
                       "Welch's t-test needs at least 2 values on each side");
    if (!isfinite(m1) || !isfinite(m2) || !isfinite(s1) || !isfinite(s2) || s1 < 0 ||
        s2 < 0 || !(alpha > 0 && alpha < 1))
        return err_set(err, ERR_INVALID, "invalid", NULL,
                       "Welch's t-test got a non-finite value");
    v1 = s1 * s1 / (double)n1;
    v2 = s2 * s2 / (double)n2;
    se2 = v1 + v2;
    if (se2 <= 0 || !isfinite(se2)) {
        out->p = m1 == m2 ? 1.0 : 0.0;
        out->significant = out->p < alpha;
        return 0;
    }
    out->t = (m2 - m1) / sqrt(se2);
    out->df = se2 * se2 / (v1 * v1 / (double)(n1 - 1) + v2 * v2 / (double)(n2 - 1));
    out->p = 2 * gsl_cdf_tdist_Q(fabs(out->t), out->df);
    if (out->p > 1)
        out->p = 1;
    out->significant = out->p < alpha;
    return 0;
}

/* ---- change points ---------------------------------------------------------- */

/* Cost of the segment [a, b) under a constant mean: its sum of squares
 * about the mean, from prefix sums s (values) and q (squares). */
static double seg_cost(const double *s, const double *q, size_t a, size_t b)
{
    double n = (double)(b - a), sum = s[b] - s[a];
    double c = (q[b] - q[a]) - sum * sum / n;
    return c > 0 ? c : 0;
}

struct seg {
    size_t a, b;
};

int detect_changepoints(const double *y, size_t n, double penalty, size_t *cps,
                        size_t max, struct err *err)
{
    double *s = NULL, *q = NULL, *d = NULL, sigma, pen;
    struct seg *stack = NULL;
    size_t nstack = 0, ncp = 0;
    int rc = -1;

    if (n < 4 || max == 0)
        return 0;
    s = xcalloc(n + 1, sizeof *s);
    q = xcalloc(n + 1, sizeof *q);
    d = xcalloc(n, sizeof *d);
    stack = xcalloc(n, sizeof *stack);
    if (!s || !q || !d || !stack) {
        err_set(err, ERR_INTERNAL, "out_of_memory", NULL, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        s[i + 1] = s[i] + y[i];
        q[i + 1] = q[i] + y[i] * y[i];
    }
    /* Noise level from first differences: a shift moves one difference only,
     * so their median absolute value ignores it (MAD / 0.6745 / sqrt 2). */
    for (size_t i = 1; i < n; i++)
        d[i - 1] = fabs(y[i] - y[i - 1]);
    qsort(d, n - 1, sizeof *d, cmp_double);
    sigma = quantile(d, n - 1, 0.5) / 0.6745 / sqrt(2.0);
    if (!(sigma > 0)) {
        /* Piecewise-constant data: any shift is real; keep a tiny floor. */
        double scale = fabs(s[n] / (double)n);
        sigma = 1e-9 * (scale > 0 ? scale : 1);
    }
    pen = (penalty > 0 ? penalty : 3.0) * sigma * sigma * log((double)n);

    stack[nstack++] = (struct seg){0, n};
    while (nstack > 0 && ncp < max) {
        struct seg g = stack[--nstack];
        double whole, best = 0;
        size_t at = 0;
        if (g.b - g.a < 2)
            continue;
        whole = seg_cost(s, q, g.a, g.b);
        for (size_t k = g.a + 1; k < g.b; k++) {
            double gain = whole - seg_cost(s, q, g.a, k) - seg_cost(s, q, k, g.b);
            if (gain > best) {
                best = gain;
                at = k;
            }
        }
        if (at == 0 || best <= pen)
            continue;
        cps[ncp++] = at;
        stack[nstack++] = (struct seg){g.a, at};
        stack[nstack++] = (struct seg){at, g.b};
    }
    /* ascending order */
    for (size_t i = 1; i < ncp; i++)
        for (size_t j = i; j > 0 && cps[j - 1] > cps[j]; j--) {
            size_t t = cps[j];
            cps[j] = cps[j - 1];
            cps[j - 1] = t;
        }
    rc = (int)ncp;
out:
    xfree(s);
    xfree(q);
    xfree(d);
    xfree(stack);
    return rc;
}
