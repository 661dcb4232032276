/* detect: the statistics of regression detection (SPEC §11).
 *
 * A statistical watch judges each new value of a configuration against that
 * configuration's last N values ("the window") with one of four tests; the
 * compare view tests two sides with Welch's t-test; the history view finds
 * where a series shifted. Pure computation over arrays of doubles: no I/O,
 * no allocation the caller does not see, never NaN or inf in a result.
 *
 * The four tests, each two-sided (a change in either direction is reported;
 * `direction` says which way):
 *
 *   zscore   out when |v - mean| > threshold * sd            (threshold 3)
 *   ttest    out when v falls outside the (1 - threshold) prediction
 *            interval of one new observation from the window's normal
 *            law: mean ± t(1 - threshold/2, n-1) * sd * sqrt(1 + 1/n);
 *            threshold is the significance level                 (0.05)
 *   percent  out when |v - mean| / |mean| * 100 > threshold      (10)
 *   iqr      out when v < Q1 - threshold*IQR or v > Q3 + threshold*IQR
 *            (Tukey's fences; quartiles by linear interpolation)  (1.5)
 *
 * zscore and ttest need at least 2 values in the window, percent and iqr at
 * least 1 and 4. With fewer, the judgement is "not enough history" (the
 * verdict's `ready` is 0 and the value is never out). A window whose sd is 0
 * (identical values) uses a floor of 1e-9 * |mean| so that the band is not
 * empty and a bit-identical repeat is never out.
 */
#ifndef PROPHECY_DETECT_H
#define PROPHECY_DETECT_H

#include <stddef.h>

#include "common/err.h"

enum detect_test {
    DETECT_ZSCORE = 0,
    DETECT_TTEST = 1,
    DETECT_PERCENT = 2,
    DETECT_IQR = 3,
};

#define DETECT_MAX_WINDOW 10000 /* values a statistical watch may look back on */

/* Parses "zscore" | "ttest" | "percent" | "iqr". Returns 0, or -1 with an ERR_INVALID
 * "invalid" error naming `field`. */
int detect_parse(const char *s, enum detect_test *out, const char *field,
                 struct err *err);
/* The test's name as parsed. */
const char *detect_name(enum detect_test t);
/* The default threshold of each test (see above). */
double detect_default_threshold(enum detect_test t);
/* Checks a threshold for a test: positive and finite; for ttest below 1 and
 * large enough that its band is finite at every window (1e-300 is not).
 * Returns 0, or -1 with an ERR_INVALID error naming `field`. A band that overflows
 * anyway (a watch made before this check) spans every finite value. */
int detect_check_threshold(enum detect_test t, double threshold, const char *field,
                           struct err *err);
/* The fewest values in a window with which test t can judge. */
size_t detect_min_history(enum detect_test t);

struct detect_verdict {
    int ready;       /* 0: too little history, nothing judged (out is 0) */
    int out;         /* 1: the value falls outside the band */
    int direction;   /* +1 above the band, -1 below, 0 inside */
    double expected; /* the window's centre: mean (median for iqr) */
    double lo, hi;   /* the band the value had to fall in */
    double score;    /* z, t, percent change or distance in IQRs; 0 when not ready */
};

/* Judges value against the n values of hist (the window, any order) with test
 * t at threshold. Returns 0 and fills *out, or -1 with err set for a bad
 * threshold, a non-finite value or n > DETECT_MAX_WINDOW. The same as
 * detect_stat then detect_band. */
int detect_judge(enum detect_test t, double threshold, const double *hist, size_t n,
                 double value, struct detect_verdict *out, struct err *err);

/* What a window says before any threshold: watches that differ only in their
 * threshold compute it once (core/watch.c). */
struct detect_stat {
    size_t n;
    int ready;          /* n >= detect_min_history(t) */
    double mean, sd;    /* sd floored above 0 for identical values */
    double q1, q3, med; /* iqr: the type-7 quartiles */
    double iqr;         /* q3 - q1, floored likewise */
};
/* The statistic of test t over hist[0..n). 0, or -1 with err set for
 * n > DETECT_MAX_WINDOW or a value that is not finite. */
int detect_stat(enum detect_test t, const double *hist, size_t n, struct detect_stat *st,
                struct err *err);
/* The verdict on value at threshold from a window's statistic. 0, or -1 with
 * err set for a bad threshold or a non-finite value. */
int detect_band(enum detect_test t, double threshold, const struct detect_stat *st,
                double value, struct detect_verdict *out, struct err *err);

/* ---- Welch's t-test (the compare view) ---------------------------------- */

struct detect_welch {
    double t;        /* (m2 - m1) / sqrt(s1²/n1 + s2²/n2); 0 when undefined */
    double df;       /* Welch–Satterthwaite degrees of freedom */
    double p;        /* two-sided p value */
    int significant; /* p < alpha */
};

/* Tests whether two samples, given by mean, sample standard deviation and
 * count, have different means. Both n must be >= 2 (else -1 with an ERR_INVALID
 * error). When both standard deviations are 0, p is 1 for equal means and 0
 * otherwise (t and df 0). Returns 0 or -1. */
int detect_welch(double m1, double s1, long n1, double m2, double s2, long n2,
                 double alpha, struct detect_welch *out, struct err *err);

/* ---- change points (the history view) ------------------------------------ */

/* Finds where the mean of the series y[0..n) shifts, by binary segmentation
 * with a penalty of penalty * sigma² * log(n) per change (penalty 0 = the
 * default 3), sigma estimated robustly from the median absolute first
 * difference. Writes the indices where a new segment begins (ascending,
 * each in 1..n-1) to cps, at most max of them, and returns their number
 * (0 for a series with fewer than 4 values or no shift), or -1 on out of
 * memory with err set. */
int detect_changepoints(const double *y, size_t n, double penalty, size_t *cps,
                        size_t max, struct err *err);

#endif
