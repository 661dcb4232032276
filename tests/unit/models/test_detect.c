/* Unit tests of models/detect: each test's band computed by hand (or, for the
 * t quantiles and p values, by independent numeric integration of Student's
 * t density), change points on series with shifts placed by construction. */
#include "models/detect.h"
#include "tests/harness.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

static void test_parse(void)
{
    enum detect_test t;
    struct err e = {0};
    CHECK_INT(detect_parse("iqr", &t, "detector.test", &e), 0);
    CHECK_INT(t, DETECT_IQR);
    CHECK_INT(detect_parse("z-score", &t, "detector.test", &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    CHECK_STR(e.field, "detector.test");
    CHECK_STR(e.message, "detector.test must be one of zscore, ttest, percent, iqr");
    e = (struct err){0};
    CHECK_INT(detect_check_threshold(DETECT_TTEST, 1.5, "detector.threshold", &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    e = (struct err){0};
    CHECK_INT(detect_check_threshold(DETECT_ZSCORE, -1, "detector.threshold", &e), -1);
    CHECK_INT(detect_check_threshold(DETECT_ZSCORE, 2, "detector.threshold", &e), 0);
}

static void test_zscore(void)
{
    double h[] = {10, 12, 14}; /* mean 12, sd 2 */
    struct detect_verdict v;
    struct err e = {0};
    CHECK_INT(detect_judge(DETECT_ZSCORE, 3, h, 3, 19, &v, &e), 0);
    CHECK_INT(v.ready, 1);
    CHECK_INT(v.out, 1);
    CHECK_INT(v.direction, 1);
    CHECK_NEAR(v.lo, 6, 1e-12);
    CHECK_NEAR(v.hi, 18, 1e-12);
    CHECK_NEAR(v.score, 3.5, 1e-12);
    CHECK_INT(detect_judge(DETECT_ZSCORE, 3, h, 3, 6.5, &v, &e), 0);
    CHECK_INT(v.out, 0);
    CHECK_INT(v.direction, 0);
    /* not enough history: never out */
    CHECK_INT(detect_judge(DETECT_ZSCORE, 3, h, 1, 1000, &v, &e), 0);
    CHECK_INT(v.ready, 0);
    CHECK_INT(v.out, 0);
}

static void test_identical_window(void)
{
    double h[] = {5, 5, 5};
    struct detect_verdict v;
    struct err e = {0};
    CHECK_INT(detect_judge(DETECT_ZSCORE, 3, h, 3, 5, &v, &e), 0);
    CHECK_INT(v.out, 0); /* a bit-identical repeat is inside */
    CHECK_INT(detect_judge(DETECT_ZSCORE, 3, h, 3, 5.001, &v, &e), 0);
    CHECK_INT(v.out, 1); /* any real change is out */
    CHECK(isfinite(v.score));
}

static void test_ttest(void)
{
    /* mean 10, sd sqrt(0.5), n 5: band 10 ± t(0.975, 4) * sd * sqrt(1.2)
     * with t(0.975, 4) = 2.776445105 */
    double h[] = {10, 11, 9, 10, 10};
    struct detect_verdict v;
    struct err e = {0};
    CHECK_INT(detect_judge(DETECT_TTEST, 0.05, h, 5, 12.2, &v, &e), 0);
    CHECK_NEAR(v.lo, 7.849374869, 1e-6);
    CHECK_NEAR(v.hi, 12.150625131, 1e-6);
    CHECK_INT(v.out, 1);
    CHECK_INT(detect_judge(DETECT_TTEST, 0.05, h, 5, 12.1, &v, &e), 0);
    CHECK_INT(v.out, 0);
}

/* The t quantile is remembered per (alpha, window) (models/detect.c): 40
 * significance levels at 3 windows, and one level at 37 windows, more pairs
 * than it keeps, each band equal to the one from GSL's quantile computed
 * here. */
static void test_ttest_remembered_quantiles(void)
{
    double h[40];
    struct err e = {0};
    int bad = 0;
    for (int i = 0; i < 40; i++)
        h[i] = 10 + (i % 7) * 0.25;
    for (int round = 0; round < 3; round++)
        for (int k = 0; k < 200; k++) {
            /* 40 levels at 3 windows, then one level at 37 windows */
            struct detect_verdict v;
            double alpha = k < 120 ? 0.01 + (k % 40) * 0.002 : 0.05, mean = 0, ss = 0, sd,
                   q, scale;
            size_t n = k < 120 ? 10 + (size_t)(k % 3) * 10 : 4 + (size_t)(k - 120) % 37;
            for (size_t i = 0; i < n; i++)
                mean += h[i] / (double)n;
            for (size_t i = 0; i < n; i++)
                ss += (h[i] - mean) * (h[i] - mean);
            sd = sqrt(ss / (double)(n - 1));
            q = gsl_cdf_tdist_Qinv(alpha / 2, (double)(n - 1));
            scale = sd * sqrt(1.0 + 1.0 / (double)n);
            CHECK_INT(detect_judge(DETECT_TTEST, alpha, h, n, 11, &v, &e), 0);
            bad += fabs(v.hi - (mean + q * scale)) > 1e-9 ||
                   fabs(v.lo - (mean - q * scale)) > 1e-9;
        }
    CHECK_INT(bad, 0);
}

static void test_percent(void)
{
    double h[] = {100, 100};
    struct detect_verdict v;
    struct err e = {0};
    CHECK_INT(detect_judge(DETECT_PERCENT, 10, h, 2, 111, &v, &e), 0);
    CHECK_INT(v.out, 1);
    CHECK_NEAR(v.score, 11, 1e-12);
    CHECK_NEAR(v.lo, 90, 1e-12);
    CHECK_NEAR(v.hi, 110, 1e-12);
    CHECK_INT(detect_judge(DETECT_PERCENT, 10, h, 2, 91, &v, &e), 0);
    CHECK_INT(v.out, 0);
    CHECK_INT(detect_judge(DETECT_PERCENT, 10, h, 2, 89, &v, &e), 0);
    CHECK_INT(v.direction, -1);
}

static void test_iqr(void)
{
    /* type-7 quartiles of 1..8: Q1 2.75, Q3 6.25, IQR 3.5; fences -2.5, 11.5 */
    double h[] = {8, 1, 7, 2, 6, 3, 5, 4};
    struct detect_verdict v;
    struct err e = {0};
    CHECK_INT(detect_judge(DETECT_IQR, 1.5, h, 8, 12, &v, &e), 0);
    CHECK_NEAR(v.lo, -2.5, 1e-12);
    CHECK_NEAR(v.hi, 11.5, 1e-12);
    CHECK_NEAR(v.expected, 4.5, 1e-12);
    CHECK_NEAR(v.score, (12 - 6.25) / 3.5, 1e-12);
    CHECK_INT(v.out, 1);
    CHECK_INT(detect_judge(DETECT_IQR, 1.5, h, 3, 12, &v, &e), 0);
    CHECK_INT(v.ready, 0); /* iqr needs 4 values */
}

/* 1..n in a scrambled order, for both ways of sorting (a short window in
 * place, a long one through qsort): type-7 quartiles 1 + (n - 1) / 4 and
 * 1 + 3 (n - 1) / 4, median (n + 1) / 2. */
static void test_iqr_long_and_short(void)
{
    static const size_t sizes[] = {5, 63, 64, 65, 100, 1000};
    double h[1000];
    struct detect_verdict v;
    struct err e = {0};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        size_t n = sizes[s];
        double q1 = 1 + (double)(n - 1) / 4, q3 = 1 + 3 * (double)(n - 1) / 4;
        for (size_t i = 0; i < n; i++)
            h[i] = (double)((i * 37) % n + 1); /* 37 is prime to every n here */
        CHECK_INT(detect_judge(DETECT_IQR, 1.5, h, n, 0, &v, &e), 0);
        CHECK_NEAR(v.expected, (double)(n + 1) / 2, 1e-12);
        CHECK_NEAR(v.lo, q1 - 1.5 * (q3 - q1), 1e-9);
        CHECK_NEAR(v.hi, q3 + 1.5 * (q3 - q1), 1e-9);
    }
}

static void test_bad_input(void)
{
    double h[] = {1, NAN, 3};
    struct detect_verdict v;
    struct err e = {0};
    CHECK_INT(detect_judge(DETECT_ZSCORE, 3, h, 3, 2, &v, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    e = (struct err){0};
    CHECK_INT(detect_judge(DETECT_ZSCORE, 3, h, 1, INFINITY, &v, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
}

static void test_welch(void)
{
    /* [1..5] against [2,4,6,8,10]: t = 3/sqrt(2.5), df = 6.25/1.0625,
     * p = 0.1075312 (numeric integration of the t density) */
    struct detect_welch w;
    struct err e = {0};
    CHECK_INT(detect_welch(3, sqrt(2.5), 5, 6, sqrt(10), 5, 0.05, &w, &e), 0);
    CHECK_NEAR(w.t, 1.8973665961, 1e-9);
    CHECK_NEAR(w.df, 5.8823529412, 1e-9);
    CHECK_NEAR(w.p, 0.1075312, 1e-6);
    CHECK_INT(w.significant, 0);
    CHECK_INT(detect_welch(3, 0, 4, 3, 0, 4, 0.05, &w, &e), 0);
    CHECK_NEAR(w.p, 1, 0);
    CHECK_INT(detect_welch(3, 0, 4, 3.5, 0, 4, 0.05, &w, &e), 0);
    CHECK_NEAR(w.p, 0, 0);
    CHECK_INT(w.significant, 1);
    CHECK_INT(detect_welch(3, 1, 1, 3, 1, 4, 0.05, &w, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
}

static void test_changepoints(void)
{
    double y[30];
    size_t cps[8];
    struct err e = {0};
    /* 1.0 for 10 values, 2.0 for 12, 1.5 for 8, each with ±0.01 noise */
    for (int i = 0; i < 30; i++)
        y[i] = (i < 10 ? 1.0 : i < 22 ? 2.0 : 1.5) + (i % 2 ? 0.01 : -0.01);
    CHECK_INT(detect_changepoints(y, 30, 0, cps, 8, &e), 2);
    CHECK_INT(cps[0], 10);
    CHECK_INT(cps[1], 22);
    /* pure noise: no change */
    for (int i = 0; i < 30; i++)
        y[i] = 1.0 + (i % 3 == 0 ? 0.01 : i % 3 == 1 ? -0.01 : 0.0);
    CHECK_INT(detect_changepoints(y, 30, 0, cps, 8, &e), 0);
    /* too short */
    CHECK_INT(detect_changepoints(y, 3, 0, cps, 8, &e), 0);
    /* max bounds the answer */
    for (int i = 0; i < 30; i++)
        y[i] = (double)(i / 5);
    CHECK_INT(detect_changepoints(y, 30, 0, cps, 2, &e), 2);
}

int main(void)
{
    RUN(test_parse);
    RUN(test_zscore);
    RUN(test_identical_window);
    RUN(test_ttest);
    RUN(test_ttest_remembered_quantiles);
    RUN(test_percent);
    RUN(test_iqr);
    RUN(test_iqr_long_and_short);
    RUN(test_bad_input);
    RUN(test_welch);
    RUN(test_changepoints);
    return harness_report();
}
