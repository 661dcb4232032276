/* fit_auto: the `auto` selection validated for extrapolation (issue 13), its
 * interval that includes the uncertainty of the model choice, and what the
 * API exposes about a prediction (extrapolation measure, warning, where to
 * measure next). See docs/models.md (curve fitting, §10).
 *
 * The candidate laws are the class representatives of the normal-form search
 * (fit_search.c: the least-PRESS law of each number of terms and
 * complexity), without the paper's poly3..6 and inv3..6, which stay explicit
 * graph types. Each candidate is scored by its leave-one-x-out error and by
 * forward validation: fitted on the smaller x values, how well it predicts
 * the largest. Laws that turn non-positive or non-monotone beyond the data of
 * a positive, increasing quantity are not eligible. The simplest law within
 * a tolerance of the best score wins. The plausible laws, weighted by their
 * scores, and the winner's forward error give xunc, the relative uncertainty
 * of the law per doubling of the distance beyond the data. One outlier per
 * six points may be left out, and a break (two regimes) is detected when the
 * upper regime alone predicts its own largest x much better.
 *
 * Pure computation, no allocation per candidate beyond one workspace, no
 * state between calls.
 */
#include "common/xalloc.h"
#include "models/fit.h"
#include "models/fit_cand.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A law within this factor of the best score counts as good as the best
 * (the parsimony tolerance), and within PLAUSIBLE of it as plausible. */
#define TOLERANCE 1.5
#define PLAUSIBLE 6.0
/* The law chosen by PRESS and parsimony is replaced when its validation
 * score is worse than this factor times the best. */
#define FORWARD_VETO 4.0
/* Without repetitions, the simplest law within this factor of the best
 * validation score wins (measured on the synthetic corpus: 2..3 give the
 * least median error; the one-standard-error rule on PRESS is worse). */
#define NOREP_TOLERANCE 3.0
#define NEG_CONSTANT 0.1
/* Regime changes are looked for only when the law of all points
 * extrapolates its largest x with an error above BREAK_GATE (relative, rms
 * over the forward folds), among at
 * most BREAK_TRIES break points, on at most BREAK_MAX_POINTS points (each
 * try is a whole selection). */
#define BREAK_GATE 0.1
#define BREAK_TRIES 4
#define BREAK_MAX_POINTS 64
/* ... and only when its forward error is beyond what the noise explains:
 * mean squared forward error above this many times the leave-one-out one
 * (3 standard deviations). */
#define FORWARD_SIGNIFICANT 9.0
/* Scale of xunc: calibrated on the synthetic corpus of eval/ (never
 * on the real data) so that ~95 % of extrapolated truths fall inside. */
#define XUNC_SCALE 1.0
/* Floor of xunc: even a law that validates perfectly is not known beyond the
 * data to better than this per doubling. */
#define XUNC_FLOOR 0.08
#define XUNC_MAX 3.0
/* against_top: the data's last step counts as a direction beyond this
 * relative change (noise below); the turn of a subtracted cost is then
 * looked for at TURN_STEPS points over the data, from the smallest x to
 * the largest. */
#define TURN_TOP 0.03
#define TURN_STEPS 16
/* select_law: a constant whose forward error (mean squared log ratio) is
 * above this, a factor e on average, is weighed against the laws of one
 * term and no constant. */
#define PURE_GATE 1.0

static double term_val(const struct fit_term *t, int nvars, const double *x)
{
    double f = 1;
    int v, k;

    for (v = 0; v < nvars; v++) {
        double e = t->expo[v];
        if (e == 0 && t->logp[v] == 0)
            continue;
        if (e != 0)
            f *= pow(x[v], e);
        for (k = 0; k < t->logp[v]; k++)
            f *= log2(x[v]);
    }
    return f;
}

/* The value of a law of p terms with coefficients c from the terms' values
 * f[0], f[stride], ... */
static double law_sum(const double *c, const double *f, size_t stride, int p)
{
    double s = 0;
    int j;

    for (j = 0; j < p; j++)
        s += c[j] * f[(size_t)j * stride];
    return s;
}

static double law_val(const struct fit_term *t, int p, int nvars, const double *c,
                      const double *x)
{
    double f[FIT_MAX_TERMS];
    int j;

    for (j = 0; j < p; j++)
        f[j] = term_val(&t[j], nvars, x);
    return law_sum(c, f, 1, p);
}

/* Workspace for the small least-squares fits. */
struct ws {
    double *q;                              /* n * FIT_MAX_TERMS */
    double *b;                              /* n */
    size_t *sel;                            /* n */
    double *tv;                             /* n * FIT_MAX_TERMS: term_vals */
    size_t tm;                              /* the points of tv */
    double r[FIT_MAX_TERMS][FIT_MAX_TERMS]; /* R of the last lsq */
};

/* The values of the p terms t at the m points, term j's at w->tv[j * m + i]:
 * once per law, for its fit to all points and to each fold's. */
static void term_vals(struct ws *w, const struct fit_point *pts, size_t m, int nvars,
                      const struct fit_term *t, int p)
{
    size_t i;
    int j;

    for (j = 0; j < p; j++)
        for (i = 0; i < m; i++)
            w->tv[(size_t)j * m + i] = term_val(&t[j], nvars, pts[i].x);
    w->tm = m;
}

/* Weighted least squares of the law of p terms whose values term_vals put in
 * w on the points sel[0..n-1] by modified Gram-Schmidt with
 * reorthogonalisation. Weights n_i, divided by y_i^2 when rel. OUT: coef[p].
 * Returns 0, or -1 when the columns are dependent or a value is not finite. */
static int lsq(const struct fit_point *pts, const size_t *sel, size_t n, int p, int rel,
               struct ws *w, double *coef)
{
    double(*r)[FIT_MAX_TERMS] = w->r, g[FIT_MAX_TERMS];
    size_t i;
    int j, k, pass;

    if (n < (size_t)p)
        return -1;
    for (i = 0; i < n; i++) {
        const struct fit_point *pt = &pts[sel[i]];
        double sw = sqrt((double)(pt->n > 0 ? pt->n : 1));
        if (rel)
            sw /= fabs(pt->y);
        w->b[i] = sw * pt->y;
        for (j = 0; j < p; j++)
            w->q[(size_t)j * n + i] = sw * w->tv[(size_t)j * w->tm + sel[i]];
    }
    for (j = 0; j < p; j++) {
        double *v = w->q + (size_t)j * n, n0 = 0, nn = 0;
        for (i = 0; i < n; i++)
            n0 += v[i] * v[i];
        n0 = sqrt(n0);
        if (!(n0 > 0) || !isfinite(n0))
            return -1;
        for (k = 0; k < j; k++)
            r[k][j] = 0;
        for (pass = 0; pass < 2; pass++)
            for (k = 0; k < j; k++) {
                const double *u = w->q + (size_t)k * n;
                double c = 0;
                for (i = 0; i < n; i++)
                    c += u[i] * v[i];
                for (i = 0; i < n; i++)
                    v[i] -= c * u[i];
                r[k][j] += c;
            }
        for (i = 0; i < n; i++)
            nn += v[i] * v[i];
        nn = sqrt(nn);
        if (!(nn > 1e-9 * n0))
            return -1;
        r[j][j] = nn;
        for (i = 0; i < n; i++)
            v[i] /= nn;
        g[j] = 0;
        for (i = 0; i < n; i++)
            g[j] += v[i] * w->b[i];
    }
    for (j = p - 1; j >= 0; j--) {
        double s = g[j];
        for (k = j + 1; k < p; k++)
            s -= r[j][k] * coef[k];
        coef[j] = s / r[j][j];
        if (!isfinite(coef[j]))
            return -1;
    }
    return 0;
}

/* Leverage of point i (of term_vals) under the last lsq, which left it out:
 * |R^-T sw f(x_i)|^2, sw the point's row weight. */
static double leverage_at(const struct ws *w, size_t i, int p, double sw)
{
    double z[FIT_MAX_TERMS], h = 0;
    int j, k;

    for (j = 0; j < p; j++) {
        double v = sw * w->tv[(size_t)j * w->tm + i];
        for (k = 0; k < j; k++)
            v -= w->r[k][j] * z[k];
        z[j] = v / w->r[j][j];
        h += z[j] * z[j];
    }
    return h;
}

/* Error of predicting y by f: log ratio when relative (f <= 0 is a large
 * error), else absolute. */
static double pred_err(double f, double y, int rel)
{
    if (!isfinite(f))
        return 1e3;
    if (rel)
        return f > 0 ? log(f / y) : 10;
    return f - y;
}

/* Points on which to score: the fold trains on the points whose variable v
 * is below the fold's cut and predicts those at or above it. */
struct fold {
    int v;
    double cut;
};

/* Forward folds: in each variable, the largest x (and, with at least 5
 * distinct values, the two largest). Returns the count. */
static int make_folds(const struct fit_point *pts, size_t m, int nvars, struct fold *f)
{
    int v, n = 0;
    size_t i;

    for (v = 0; v < nvars; v++) {
        double xs[3] = {-INFINITY, -INFINITY, -INFINITY};
        int nd = 0;
        /* the three largest distinct values */
        for (i = 0; i < m; i++) {
            double x = pts[i].x[v];
            if (x == xs[0] || x == xs[1] || x == xs[2])
                continue;
            if (x > xs[0]) {
                xs[2] = xs[1];
                xs[1] = xs[0];
                xs[0] = x;
            } else if (x > xs[1]) {
                xs[2] = xs[1];
                xs[1] = x;
            } else if (x > xs[2]) {
                xs[2] = x;
            }
        }
        for (i = 0; i < m; i++) {
            int seen = 0, k;
            for (k = 0; k < (int)i; k++)
                seen |= pts[k].x[v] == pts[i].x[v];
            nd += !seen;
            if (nd > 5)
                break;
        }
        if (nd >= 4) {
            f[n].v = v;
            f[n++].cut = xs[0];
        }
        if (nd >= 5 && nvars == 1) {
            f[n].v = v;
            f[n++].cut = xs[1];
        }
    }
    return n;
}

/* Scores of one candidate. */
struct score {
    double coef[FIT_MAX_TERMS];
    double loo;   /* mean squared leave-one-out error */
    double fwd;   /* mean squared forward error */
    double fwd1;  /* the forward error of the first fold, per unit distance */
    double fz;    /* mean squared forward error in units of its predicted
                     variance (noise and leverage): ~1 for the true law */
    double total; /* loo + fwd */
    int ok;       /* eligible */
};

static double dist(double x, double from)
{
    return x > 0 && from > 0 ? log2(x / from) : 1;
}

/* Whether the one-variable data increase from each point to the next. */
static int increasing_throughout(const struct fit_point *pts, size_t m)
{
    size_t i;

    for (i = 1; i < m; i++)
        if (!(pts[i].y > pts[i - 1].y))
            return 0;
    return 1;
}

/* The steepest growth the upper half of one variable's positive data shows:
 * the largest log-log slope ln(y_j / y_i) / ln(x_j / x_i) over the pairs of
 * points at or above the median x that are at least a factor 2 apart;
 * INFINITY (no bound) when there is none or the data are not all positive. */
static double data_slope(const struct fit_point *pts, size_t m)
{
    double s = -INFINITY;
    size_t i, j;

    for (i = 0; i < m; i++)
        if (!(pts[i].y > 0) || !(pts[i].x[0] > 0))
            return INFINITY;
    for (i = m / 2; i < m; i++)
        for (j = i + 1; j < m; j++)
            if (pts[j].x[0] >= 2 * pts[i].x[0])
                s = fmax(s, log(pts[j].y / pts[i].y) / log(pts[j].x[0] / pts[i].x[0]));
    return isfinite(s) ? s : INFINITY;
}

/* Whether the x of the points span at least WIDE_SPAN (all x > 0). */
#define WIDE_SPAN 1024.0
static int wide_span(const struct fit_point *pts, size_t m)
{
    double lo = pts[0].x[0], hi = pts[0].x[0];
    size_t i;

    for (i = 1; i < m; i++) {
        lo = fmin(lo, pts[i].x[0]);
        hi = fmax(hi, pts[i].x[0]);
    }
    return hi >= WIDE_SPAN * lo;
}

/* The log-log slope of one variable's positive data over their upper half
 * as a whole: from the point at the median x to the largest (pts sorted by
 * x, all y > 0). */
static double half_slope(const struct fit_point *pts, size_t m)
{
    size_t h = m / 2;

    return log(pts[m - 1].y / pts[h].y) / log(pts[m - 1].x[0] / pts[h].x[0]);
}

/* The slope s of one variable's positive data that bounds a law's growth
 * beyond them (growth_max): the steepest pair of the upper half
 * (data_slope). Over a wide span that pair can be a step (a protocol
 * switch in a message-size sweep: 12x over one doubling), not a rate of
 * growth: the one-term law, fitted by least squares to the largest
 * values, then bends up beyond them as fast as the step allows. There s
 * is at most the upper half's slope as a whole (eval/RECORD.md §9,
 * candidates W and W2; §62: reading a growth sustained over the top two
 * doublings as a rate lost on real sweeps). */
static double growth_slope(const struct fit_point *pts, size_t m)
{
    double s = data_slope(pts, m);

    return isfinite(s) && wide_span(pts, m) ? fmin(s, half_slope(pts, m)) : s;
}

/* The same for variable v of two: on each slice where the other variable is
 * fixed, the slope from the point at the slice's largest x_v to the one
 * with the largest x_v at most half of it (level 0), or the slope of the
 * pair below that one, from that point to the next at most half of it
 * (level 1); the steepest over the slices. INFINITY when there is none or
 * the data are not all positive. */
static double data_slope2(const struct fit_point *pts, size_t m, int v, int level)
{
    double s = -INFINITY;
    size_t i, j;
    int o = 1 - v, lv;

    for (i = 0; i < m; i++)
        if (!(pts[i].y > 0) || !(pts[i].x[0] > 0) || !(pts[i].x[1] > 0))
            return INFINITY;
    for (i = 0; i < m; i++) {
        size_t top = i, half = m;
        for (j = 0; j < m; j++) /* the slice's largest x_v */
            if (pts[j].x[o] == pts[i].x[o] && pts[j].x[v] > pts[top].x[v])
                top = j;
        if (top != i) /* each slice once, from its top point */
            continue;
        for (lv = 0; lv <= level; lv++) {
            if (lv > 0) { /* one pair down */
                if (half == m)
                    break;
                top = half;
                half = m;
            }
            for (j = 0; j < m; j++)
                if (pts[j].x[o] == pts[i].x[o] && 2 * pts[j].x[v] <= pts[top].x[v] &&
                    (half == m || pts[j].x[v] > pts[half].x[v]))
                    half = j;
        }
        if (half < m)
            s = fmax(s,
                     log(pts[top].y / pts[half].y) / log(pts[top].x[v] / pts[half].x[v]));
    }
    return isfinite(s) ? s : INFINITY;
}

/* The largest growth from 8x to 16x beyond the data (log2 of the ratio)
 * that plausible_beyond lets a law show along a variable whose data grow
 * as x^s at their top (data_slope, data_slope2): x^(max(s, 1) + 1). With
 * two variables, where the data decelerate at the top (s below the slope
 * of the pair under it, `below`; INFINITY: none), x^(max(s, 1) + 0.5): a
 * steep power of one variable fitted on 4 values of it (c + a p^2 + b p^2
 * m on OSU grids whose growth in p fell from p^2 to p^1 at the top: 4x
 * high at 8x beyond) is not credible there, while a cubic whose data
 * accelerate (n^0.7, then n^1.9) stays eligible (eval/RECORD.md §22,
 * candidate SB2). INFINITY (no bound) when s is not known. */
static double growth_max(double s, double below, int nvars)
{
    if (!isfinite(s))
        return INFINITY;
    return fmax(s, 1) + (nvars > 1 && isfinite(below) && s < below ? 0.5 : 1);
}

/* The growth bounds of both variables of two (growth_max). */
static void growth_max2(const struct fit_point *pts, size_t m, double *g)
{
    int v;

    for (v = 0; v < 2; v++)
        g[v] = growth_max(data_slope2(pts, m, v, 0), data_slope2(pts, m, v, 1), 2);
}

/* The plausibility beyond the data, up to 16x the largest x (xmax): a finite
 * law, positive for a positive quantity (rel), non-decreasing when the data
 * increase throughout (along the diagonal, every variable scaled together),
 * and, with growth (NULL: no such check; one value per variable,
 * growth_max), growing from 8x to 16x along each variable (the other at
 * its largest value) by no more than 2^growth: a law that accelerates far
 * beyond anything measured (x^3 log x fitted to latencies that grew as
 * x^0.5) extrapolates the noise of its largest points. With two or more
 * variables a positive quantity's law must also stay positive along each
 * variable with the others at their smallest and at their largest value
 * (xmin, xmax), not only on the diagonal: c0 +
 * a m^(4/5) + b m^(4/5) P^(3/4) with a < 0, fitted on P = 2...5, turns
 * negative at P = 2 and large m (eval/RECORD.md §12). */
static int plausible_beyond(const struct fit_term *t, int p, int nvars,
                            const double *coef, const double *xmin, const double *xmax,
                            int rel, int increasing, const double *growth)
{
    double prev = 0;
    int k, v, o, side;

    for (k = 0; k <= 4; k++) {
        double x[FIT_MAX_VARS], f;
        for (v = 0; v < nvars; v++)
            x[v] = xmax[v] > 0 ? xmax[v] * (double)(1 << k) : xmax[v] + k;
        f = law_val(t, p, nvars, coef, x);
        if (!isfinite(f) || (rel && !(f > 0)))
            return 0;
        if (increasing && k > 0 && f < prev * (1 - 1e-9))
            return 0;
        prev = f;
    }
    for (v = 0; rel && nvars > 1 && v < nvars; v++)
        for (side = 0; side < 2; side++)
            for (k = 1; k <= 4; k++) {
                double x[FIT_MAX_VARS], f;
                for (o = 0; o < nvars; o++)
                    x[o] = side ? xmax[o] : xmin[o];
                x[v] = xmax[v] > 0 ? xmax[v] * (double)(1 << k) : xmax[v] + k;
                f = law_val(t, p, nvars, coef, x);
                if (!isfinite(f) || !(f > 0))
                    return 0;
            }
    for (v = 0; growth != NULL && v < nvars; v++) {
        double x[FIT_MAX_VARS], f8, f16;
        if (!isfinite(growth[v]) || !(xmax[v] > 0))
            continue;
        memcpy(x, xmax, (size_t)nvars * sizeof *x);
        x[v] = 8 * xmax[v];
        f8 = law_val(t, p, nvars, coef, x);
        x[v] = 16 * xmax[v];
        f16 = law_val(t, p, nvars, coef, x);
        if (f8 > 0 && f16 > 0 && log2(f16 / f8) > growth[v])
            return 0;
    }
    return 1;
}

/* Whether one variable's law, from its largest x to twice that, moves
 * against its data's last step: the mean at the largest x more than
 * TURN_TOP above (below) the one at the x before it, and the law falling
 * (rising) beyond. Only for positive x, pts sorted by x. */
static int against_top(const struct fit_point *pts, size_t m, const struct fit_cand *c,
                       const double *coef)
{
    double dy, dl, x1, x2;

    if (m < 2 || !(pts[0].x[0] > 0) || !(pts[m - 2].y > 0))
        return 0;
    dy = (pts[m - 1].y - pts[m - 2].y) / pts[m - 2].y;
    x1 = pts[m - 1].x[0];
    x2 = 2 * x1;
    dl = law_val(c->term, c->nterms, 1, coef, &x2) -
         law_val(c->term, c->nterms, 1, coef, &x1);
    return fabs(dy) > TURN_TOP && dl * dy < 0;
}

/* Scores candidate c: fit on all points, the plausibility checks beyond the
 * data, forward folds. */
static void score_cand(const struct fit_point *pts, size_t m, int nvars, int rel,
                       int increasing, const double *growth, const struct fit_cand *c,
                       const struct fold *folds, int nfolds, struct ws *w,
                       struct score *sc)
{
    double xmin[FIT_MAX_VARS], xmax[FIT_MAX_VARS], cf[FIT_MAX_TERMS], noise, yscale = 0;
    size_t i, n;
    int k, v, nf = 0;

    memset(sc, 0, sizeof *sc);
    sc->total = INFINITY;
    for (i = 0; i < m; i++) {
        w->sel[i] = i;
        yscale = fmax(yscale, fabs(pts[i].y));
    }
    term_vals(w, pts, m, nvars, c->term, c->nterms);
    if (lsq(pts, w->sel, m, c->nterms, rel, w, sc->coef) < 0)
        return;
    for (v = 0; v < nvars; v++) {
        xmin[v] = xmax[v] = pts[0].x[v];
        for (i = 1; i < m; i++) {
            xmin[v] = pts[i].x[v] < xmin[v] ? pts[i].x[v] : xmin[v];
            xmax[v] = pts[i].x[v] > xmax[v] ? pts[i].x[v] : xmax[v];
        }
    }
    /* A run time is a sum of non-negative costs: a constant below zero
     * (beyond NEG_CONSTANT of the smallest value, for noise) means the terms
     * cancel it inside the data, which does not last beyond it (synthetic
     * corpus: median error 0.122 -> 0.113). */
    if (rel && c->nterms >= 2 && sc->coef[0] < 0) {
        double ymin = INFINITY;
        for (i = 0; i < m; i++)
            ymin = fmin(ymin, pts[i].y);
        if (sc->coef[0] < -NEG_CONSTANT * ymin)
            return;
    }
    if (!plausible_beyond(c->term, c->nterms, nvars, sc->coef, xmin, xmax, rel,
                          increasing, growth))
        return;
    /* A cost subtracted from a positive quantity must keep its direction
     * beyond the data: log2(x)/x^(1/4) rises to x = 55 and falls after, so
     * c0 - c1 log2(x)/x^(1/4), fitted to a falling strong-scaling time below
     * 55, turns up beyond it and keeps rising. Where the law beyond the data
     * goes against the data's top (against_top), such a term must keep its
     * direction over the data too: c0 - c1 log2(x)/x^(1/2) turns at x = 7.4,
     * so fitted to a time still falling from 4 to 8 it predicts a rise at
     * 16 (eval/RECORD.md §25). */
    {
        int q0 = 1; /* 1: not yet known (against_top only for a subtracted term) */
        for (k = 1; rel && k < c->nterms; k++) {
            double prev = 0, dir = 0;
            int q;
            if (!(sc->coef[k] < 0))
                continue;
            if (q0 > 0)
                q0 = nvars == 1 && against_top(pts, m, c, sc->coef) ? -TURN_STEPS : 0;
            for (q = q0; q <= 4; q++) {
                double x[FIT_MAX_VARS], f;
                for (v = 0; v < nvars; v++)
                    x[v] = q < 0 ? xmin[v] *
                                       pow(xmax[v] / xmin[v], 1 + (double)q / TURN_STEPS)
                           : xmax[v] > 0 ? xmax[v] * (double)(1 << q)
                                         : xmax[v] + q;
                f = term_val(&c->term[k], nvars, x);
                if (q > q0 && f != prev) {
                    if (dir != 0 && (f - prev) * dir < 0)
                        return;
                    dir = f - prev;
                }
                prev = f;
            }
        }
    }
    sc->loo = c->press / (double)m;
    /* The noise variance of one observation: the residual variance of the
     * fit to all points, never below a tiny floor. */
    noise = c->rss / fmax((double)m - c->nterms, 1);
    noise = fmax(noise, 1e-24 * (rel ? 1 : yscale * yscale) + 1e-300);
    sc->fwd = 0;
    for (k = 0; k < nfolds; k++) {
        double from = -INFINITY;
        n = 0;
        for (i = 0; i < m; i++)
            if (pts[i].x[folds[k].v] < folds[k].cut) {
                w->sel[n++] = i;
                from = pts[i].x[folds[k].v] > from ? pts[i].x[folds[k].v] : from;
            }
        if (n < (size_t)c->nterms || lsq(pts, w->sel, n, c->nterms, rel, w, cf) < 0) {
            sc->fwd += 1; /* cannot be validated: a large error */
            sc->fz += 1;
            nf++;
            continue;
        }
        for (i = 0; i < m; i++)
            if (pts[i].x[folds[k].v] >= folds[k].cut) {
                double f = law_sum(cf, w->tv + i, m, c->nterms);
                double e = pred_err(f, pts[i].y, rel), h;
                h = leverage_at(w, i, c->nterms, rel ? 1 / fmax(fabs(f), 1e-300) : 1);
                sc->fwd += e * e;
                sc->fz +=
                    e * e / (noise * (1 / (double)(pts[i].n > 0 ? pts[i].n : 1) + h));
                nf++;
                if (k == 0)
                    sc->fwd1 = fmax(sc->fwd1, fabs(e) / dist(pts[i].x[folds[k].v], from));
            }
    }
    sc->fwd = nf > 0 ? sc->fwd / nf : 0;
    sc->fz = nf > 0 ? sc->fz / nf : 0;
    sc->total = sc->loo + sc->fwd;
    sc->ok = isfinite(sc->total);
}

/* Sorts candidate indices simplest first: fewer terms, then lower
 * complexity, then the search's order. */
static void order_simple(int *ord, int n, const struct fit_cands *cs)
{
    int i, j;

    for (i = 1; i < n; i++) {
        int v = ord[i];
        const struct fit_cand *c = &cs->c[v];
        for (j = i - 1; j >= 0; j--) {
            const struct fit_cand *d = &cs->c[ord[j]];
            if (d->nterms < c->nterms || (d->nterms == c->nterms && d->cx <= c->cx))
                break;
            ord[j + 1] = ord[j];
        }
        ord[j + 1] = v;
    }
}

/* The selection proper. OUT: the index of the chosen candidate (*best), and
 * xunc. scores[n] are filled. Returns 0, or -1 when no law is eligible. */
static int choose_law(const struct fit_point *pts, size_t m, int nvars, int rel,
                      const struct fit_cands *cs, struct ws *w, struct score *sc,
                      int *best, double *xunc)
{
    struct fold folds[4];
    int nfolds = make_folds(pts, m, nvars, folds), j, b = -1, increasing = 0;
    double growth[FIT_MAX_VARS] = {INFINITY, INFINITY};
    int ord[FIT_MAX_CANDS];
    size_t nobs = 0;
    double smin = INFINITY, sumw = 0, spread = 0;
    size_t i;

    if (nvars == 1 && rel)
        increasing = increasing_throughout(pts, m);
    if (rel && nvars == 1)
        growth[0] = growth_max(growth_slope(pts, m), INFINITY, 1);
    if (rel && nvars == 2)
        growth_max2(pts, m, growth);
    for (i = 0; i < m; i++)
        nobs += (size_t)(pts[i].n > 0 ? pts[i].n : 1);
    for (j = 0; j < cs->n; j++) {
        score_cand(pts, m, nvars, rel, increasing, growth, &cs->c[j], folds, nfolds, w,
                   &sc[j]);
        /* Two degrees of freedom at least from 4 observations on: with one,
         * the t quantile (12.7) makes the interval useless (measured on the
         * synthetic corpus: 4-point cases 0.164 median error instead of
         * 0.177, intervals 198 % wide instead of 257 %). Three points keep
         * their two-term laws. */
        if (nobs >= 4 && (double)nobs - cs->c[j].nterms < 2)
            sc[j].ok = 0;
        if (sc[j].ok && sc[j].total < smin)
            smin = sc[j].total;
    }
    if (!isfinite(smin))
        return -1;
    /* Simplest first. With repetitions, the parsimony rule of
     * docs/models.md §5.3 over the eligible laws: the first law passing the
     * lack-of-fit test against the pure error. */
    for (j = 0; j < cs->n; j++)
        ord[j] = j;
    order_simple(ord, cs->n, cs);
    if (cs->dof_pe > 0 && cs->ss_pe > 0)
        for (j = 0; j < cs->n && b < 0; j++) {
            const struct fit_cand *c = &cs->c[ord[j]];
            double dof = (double)m - c->nterms;
            if (!sc[ord[j]].ok || dof < 1 || !isfinite(c->rss))
                continue;
            if ((c->rss / dof) / (cs->ss_pe / cs->dof_pe) <=
                gsl_cdf_fdist_Pinv(0.95, dof, cs->dof_pe))
                b = ord[j];
        }
    /* Without repetitions: the simplest law whose validation score (leave
     * one out plus forward) is within NOREP_TOLERANCE of the best. */
    for (j = 0; j < cs->n && b < 0; j++)
        if (sc[ord[j]].ok && sc[ord[j]].total <= NOREP_TOLERANCE * smin + 1e-300)
            b = ord[j];
    /* Forward validation overrules it when the chosen law extrapolates much
     * worse than the best validated one: then the simplest law at least as
     * complex that validates within TOLERANCE of the best. */
    if (b >= 0 && sc[b].total > FORWARD_VETO * smin && sc[b].fz > FORWARD_SIGNIFICANT) {
        int pos = 0;
        while (ord[pos] != b)
            pos++;
        for (j = pos; j < cs->n; j++)
            if (sc[ord[j]].ok && sc[ord[j]].total <= TOLERANCE * smin + 1e-12 &&
                sc[ord[j]].fz <= FORWARD_SIGNIFICANT) {
                b = ord[j];
                break;
            }
    }
    if (b < 0)
        return -1;
    *best = b;
    /* Model-choice spread: plausible laws weighted like likelihoods of their
     * scores, compared to the chosen one at 2x, 4x, 8x the data. */
    {
        double xmax[FIT_MAX_VARS];
        int v, k;
        for (v = 0; v < nvars; v++) {
            xmax[v] = pts[0].x[v];
            for (i = 1; i < m; i++)
                xmax[v] = pts[i].x[v] > xmax[v] ? pts[i].x[v] : xmax[v];
        }
        for (j = 0; j < cs->n; j++) {
            double wj, s2 = 0;
            if (!sc[j].ok || sc[j].total > PLAUSIBLE * smin + 1e-12)
                continue;
            wj = pow(smin / fmax(sc[j].total, 1e-300), 0.5 * (double)m);
            if (!(wj > 0) || !isfinite(wj))
                continue;
            for (k = 1; k <= 3; k++) {
                double x[FIT_MAX_VARS], fj, fb, d;
                for (v = 0; v < nvars; v++)
                    x[v] = xmax[v] > 0 ? xmax[v] * (double)(1 << k) : xmax[v] + k;
                fj = law_val(cs->c[j].term, cs->c[j].nterms, nvars, sc[j].coef, x);
                fb = law_val(cs->c[b].term, cs->c[b].nterms, nvars, sc[b].coef, x);
                if (rel)
                    d = (fj > 0 && fb > 0) ? log(fj / fb) : 1;
                else
                    d = (fj - fb) / fmax(fabs(fb), 1e-300);
                d /= k;
                s2 = fmax(s2, d * d);
            }
            spread += wj * s2;
            sumw += wj;
        }
        spread = sumw > 0 ? spread / sumw : 0;
    }
    *xunc = XUNC_SCALE * sqrt(spread + sc[b].fwd1 * sc[b].fwd1);
    if (!(*xunc >= XUNC_FLOOR))
        *xunc = XUNC_FLOOR;
    /* A factor e^XUNC_MAX per doubling already says "unknown"; more would
     * only overflow the interval. */
    if (*xunc > XUNC_MAX)
        *xunc = XUNC_MAX;
    return 0;
}

static int copy_chosen(const struct fit_cand *c, struct fit_term *terms, int *nterms,
                       enum fit_graph *chosen)
{
    int j, d = c->nterms - 1, ispoly = d >= 1, isinv = d >= 1;

    memset(terms, 0, FIT_MAX_TERMS * sizeof *terms);
    for (j = 0; j < c->nterms; j++)
        terms[j] = c->term[j];
    *nterms = c->nterms;
    *chosen = FIT_NORMAL;
    for (j = 1; j <= d; j++) {
        ispoly &= terms[j].logp[0] == 0 && terms[j].expo[0] == d + 1 - j &&
                  terms[j].logp[1] == 0 && terms[j].expo[1] == 0;
        isinv &= terms[j].logp[0] == 0 && terms[j].expo[0] == -j &&
                 terms[j].logp[1] == 0 && terms[j].expo[1] == 0;
    }
    if (ispoly || isinv) {
        for (j = 1; j <= d; j++)
            terms[j].expo[0] = isinv ? -j : j;
        *chosen = (enum fit_graph)((isinv ? FIT_INV1 : FIT_POLY1) + d - 1);
    }
    return 0;
}

/* Selection on the points pts[0..m-1] (a subset already copied). */
struct pick {
    struct fit_cand law;
    double xunc, total, fwd1, fwd, loo, fz;
    double coef[FIT_MAX_TERMS]; /* the law fitted to the points it was chosen on */
    enum fit_graph chosen;
};

static int select_law(const struct fit_point *pts, size_t m, int nvars, int rel,
                      struct pick *out, struct err *err)
{
    struct fit_cands *cs = NULL;
    struct score *sc = NULL;
    struct ws w = {0};
    int b, rc = -1, nt, chosen;
    struct fit_term terms[FIT_MAX_TERMS];

    cs = xmalloc(sizeof *cs);
    sc = xmalloc(FIT_MAX_CANDS * sizeof *sc);
    w.q = xmalloc((m * FIT_MAX_TERMS + 1) * sizeof *w.q);
    w.b = xmalloc((m + 1) * sizeof *w.b);
    w.sel = xmalloc((m + 1) * sizeof *w.sel);
    w.tv = xmalloc((m * FIT_MAX_TERMS + 1) * sizeof *w.tv);
    if (cs == NULL || sc == NULL || w.q == NULL || w.b == NULL || w.sel == NULL ||
        w.tv == NULL) {
        err_nomem(err);
        goto out;
    }
    if (fit_search_cands(pts, m, nvars, rel, 1, cs, err) < 0)
        goto out;
    /* A constant answer for a positive quantity that misses its own forward
     * points by more than PURE_GATE (mean squared log ratio) is weighed once
     * more against the laws of one term and no constant (eval/RECORD.md
     * §35): every law with a constant may have been refused for a constant
     * below zero (a transpose's time growing 70x from n = 160 to 1280, 10x
     * over its first doubling), which c n^2 alone follows. The constant, the
     * simplest law, still stays unless one of them passes the same rules
     * before it. (Of the search's laws, term[0] is the constant: the one
     * law of one term is the constant.) */
    chosen = choose_law(pts, m, nvars, rel, cs, &w, sc, &b, &out->xunc);
    if (chosen == 0 && rel && cs->c[b].nterms == 1 && sc[b].fwd > PURE_GATE &&
        fit_search_pure(pts, m, nvars, cs) > 0)
        chosen = choose_law(pts, m, nvars, rel, cs, &w, sc, &b, &out->xunc);
    if (chosen < 0) {
        err_set(err, ERR_INVALID, "degenerate", "data",
                "no law of the normal form fits these %zu points without turning "
                "implausible beyond them; choose a graph type",
                m);
        goto out;
    }
    out->law = cs->c[b];
    out->total = sc[b].total;
    out->fwd1 = sc[b].fwd1;
    out->fwd = sc[b].fwd;
    out->loo = sc[b].loo;
    out->fz = sc[b].fz;
    memcpy(out->coef, sc[b].coef, sizeof out->coef);
    copy_chosen(&cs->c[b], terms, &nt, &out->chosen);
    memcpy(out->law.term, terms, sizeof terms);
    rc = 0;
out:
    xfree(cs);
    xfree(sc);
    xfree(w.q);
    xfree(w.b);
    xfree(w.sel);
    xfree(w.tv);
    return rc;
}

int fit_auto_select(const struct fit_point *pts, size_t m, int nvars,
                    struct fit_term *terms, int *nterms, enum fit_graph *chosen,
                    int *relative, struct err *err)
{
    struct pick p;
    size_t i;
    int rel = 1;

    for (i = 0; i < m; i++)
        rel &= pts[i].y > 0;
    if (select_law(pts, m, nvars, rel, &p, err) < 0)
        return -1;
    memcpy(terms, p.law.term, FIT_MAX_TERMS * sizeof *terms);
    *nterms = p.law.nterms;
    *chosen = p.chosen;
    *relative = rel;
    return 0;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Robust step: the index of one point whose leave-one-out error under the
 * law is far outside the others' (more than 5 robust standard deviations and
 * 3x the next largest), or -1. */
static long find_outlier(const struct fit_point *pts, size_t m, int nvars, int rel,
                         const struct fit_cand *law)
{
    struct ws w = {0};
    double *e = NULL, *a = NULL, cf[FIT_MAX_TERMS], mad, big = 0, second = 0;
    size_t i, j, n;
    long at = -1;

    if (m < 6 || m > 200)
        return -1;
    e = xmalloc(m * sizeof *e);
    a = xmalloc(m * sizeof *a);
    w.q = xmalloc(m * FIT_MAX_TERMS * sizeof *w.q);
    w.b = xmalloc(m * sizeof *w.b);
    w.sel = xmalloc(m * sizeof *w.sel);
    w.tv = xmalloc(m * FIT_MAX_TERMS * sizeof *w.tv);
    if (e == NULL || a == NULL || w.q == NULL || w.b == NULL || w.sel == NULL ||
        w.tv == NULL)
        goto out;
    term_vals(&w, pts, m, nvars, law->term, law->nterms);
    for (i = 0; i < m; i++) {
        for (n = 0, j = 0; j < m; j++)
            if (j != i)
                w.sel[n++] = j;
        if (lsq(pts, w.sel, n, law->nterms, rel, &w, cf) < 0)
            goto out;
        e[i] = pred_err(law_sum(cf, w.tv + i, m, law->nterms), pts[i].y, rel);
        a[i] = fabs(e[i]);
    }
    qsort(a, m, sizeof *a, cmp_dbl);
    mad = 1.4826 * a[m / 2];
    big = a[m - 1];
    second = a[m - 2];
    if (big > 5 * mad && big > 3 * second && big > 0.05)
        for (i = 0; i < m; i++)
            if (fabs(e[i]) == big)
                at = (long)i;
out:
    xfree(e);
    xfree(a);
    xfree(w.q);
    xfree(w.b);
    xfree(w.sel);
    xfree(w.tv);
    return at;
}

/* One variable: the chosen law's coefficients are fitted with each point
 * weighed also by (x / x_max)^AUTO_LEAN (fit_terms_lean): the law is chosen
 * on every point alike, but beyond the data what the largest x show
 * carries further than what the smallest do (caches, latency, start-up, a
 * serial part that fades). 1.5 was fixed on the development pool before
 * its check on a set nobody had seen (eval/RECORD.md §18). */
#define AUTO_LEAN 1.5

/* The lean of the fits of pts[0..m-1]: AUTO_LEAN with one variable and
 * every x > 0, else 0. */
static double auto_lean(const struct fit_point *pts, size_t m, int nvars)
{
    size_t i;

    if (nvars != 1)
        return 0;
    for (i = 0; i < m; i++)
        if (!(pts[i].x[0] > 0))
            return 0;
    return AUTO_LEAN;
}

/* The selection on all points: the law of the least validated error, with
 * outliers left out and a regime change detected (above). */
static int auto_model(const struct fit_point *pts, size_t m, int nvars,
                      struct fit_model *out, struct err *err)
{
    struct fit_point *sub = NULL;
    struct pick p, q;
    size_t i, n = m, start = 0;
    int rel = 1, outliers = 0, rc = -1;
    double seg_x = 0;
    long o;

    for (i = 0; i < m; i++)
        rel &= pts[i].y > 0;
    if (select_law(pts, m, nvars, rel, &p, err) < 0)
        return -1;
    sub = xmalloc(m * sizeof *sub);
    if (sub == NULL)
        return err_nomem(err);
    memcpy(sub, pts, m * sizeof *sub);
    /* One outlier per six points, each found under the law of the rest. */
    while (outliers < (int)(m / 6) &&
           (o = find_outlier(sub, n, nvars, rel, &p.law)) >= 0) {
        memmove(sub + o, sub + o + 1, (n - (size_t)o - 1) * sizeof *sub);
        n--;
        outliers++;
        if (select_law(sub, n, nvars, rel, &p, err) < 0)
            goto out;
    }
    /* A break (two regimes): the law of an upper regime (at least 4 points,
     * at least 2 below it) validates 8x better than the law of all points,
     * extrapolates its largest x 4x better, and misses the points below it
     * by far more than either law's error: the lower points follow another
     * law. The model then describes the upper regime (seg_x). */
    if (nvars == 1 && rel && n >= 7 && n <= BREAK_MAX_POINTS &&
        p.fwd > BREAK_GATE * BREAK_GATE) {
        size_t k, j, step = (n - 5 + BREAK_TRIES - 1) / BREAK_TRIES;
        double bestq = INFINITY;
        for (k = 2; n - k >= 4; k += step) {
            struct err e2 = {0};
            double low = 0;
            if (select_law(sub + k, n - k, 1, rel, &q, &e2) < 0)
                continue;
            for (j = 0; j < k; j++) {
                double d =
                    pred_err(law_val(q.law.term, q.law.nterms, 1, q.coef, sub[j].x),
                             sub[j].y, rel);
                low += d * d / (double)k;
            }
            if (q.total * 8 < p.total && q.fwd * 4 < p.fwd &&
                low > 9 * fmax(q.total, p.total) && q.total < bestq) {
                bestq = q.total;
                start = k;
            }
        }
        if (start > 0) {
            struct pick all = p;
            double xmax = sub[0].x[0], s2 = 0;
            if (select_law(sub + start, n - start, 1, rel, &p, err) < 0)
                goto out;
            seg_x = sub[start].x[0];
            /* The law of all points stays a plausible alternative beyond the
             * data (a break inside the data is evidence that laws change):
             * its distance from the upper regime's law at 2x, 4x, 8x the
             * largest x, per doubling, joins the law's uncertainty. */
            for (j = 1; j < n; j++)
                xmax = sub[j].x[0] > xmax ? sub[j].x[0] : xmax;
            for (k = 1; k <= 3 && xmax > 0; k++) {
                double x1 = xmax * (double)(1 << k), d;
                double fa = law_val(all.law.term, all.law.nterms, 1, all.coef, &x1);
                double fs = law_val(p.law.term, p.law.nterms, 1, p.coef, &x1);
                d = fa > 0 && fs > 0 ? log(fa / fs) / (double)k : XUNC_MAX;
                s2 = fmax(s2, d * d);
            }
            p.xunc = fmin(sqrt(p.xunc * p.xunc + s2), XUNC_MAX);
        }
    }
    if (fit_terms_lean(sub + start, n - start, nvars, p.law.term, p.law.nterms, rel,
                       auto_lean(sub + start, n - start, nvars), out, err) < 0)
        goto out;
    out->graph = FIT_AUTO;
    out->chosen = p.chosen;
    out->xunc = p.xunc;
    out->outliers = outliers;
    out->seg_x = seg_x;
    rc = 0;
out:
    xfree(sub);
    return rc;
}

/* Squared log ratio of a prediction f of y > 0 (f <= 0 counts as e^5 off). */
static double log_err2(double f, double y)
{
    double e = f > 0 ? log(f / y) : 5;
    return e * e;
}

/* Forward validation of the whole procedure, not of one law: the selection
 * above and the one-term rule (fit_pmnf1) are each run again on the points
 * below the largest x, and (with at least 6 points) below the second
 * largest, and predict the points left out. OUT: the mean squared log error
 * of each, and the one-term rule's per doubling of the reach (squared).
 * Returns 0, or -1 when a fold could not be fitted by either. */
static int forward_procedures(const struct fit_point *pts, size_t m, double *ea,
                              double *eb, double *eb_doubling)
{
    size_t folds = m >= 6 ? 2 : 1, f, j, cnt = 0;

    *ea = *eb = *eb_doubling = 0;
    for (f = 1; f <= folds; f++) {
        size_t mt = m - f;
        struct fit_model a;
        struct fit_pmnf1 b;
        struct err e2 = {0};
        if (auto_model(pts, mt, 1, &a, &e2) < 0 || fit_pmnf1(pts, mt, &b) < 0)
            return -1;
        for (j = mt; j < m; j++) {
            double ya, d = log2(pts[j].x[0] / pts[mt - 1].x[0]), eb2;
            if (fit_eval(&a, pts[j].x, &ya, &e2) < 0)
                ya = 0;
            eb2 = log_err2(fit_pmnf1_eval(&b, pts[j].x[0]), pts[j].y);
            *ea += log_err2(ya, pts[j].y);
            *eb += eb2;
            *eb_doubling += eb2 / (d * d);
            cnt++;
        }
    }
    *ea /= (double)cnt;
    *eb /= (double)cnt;
    *eb_doubling /= (double)cnt;
    return 0;
}

/* Extra-P's law (the terms of c) on all points, fitted by ordinary least
 * squares (weights: the repetitions), as an `auto` model. */
static int ols_model(const struct fit_point *pts, size_t m, int nvars,
                     const struct fit_cand *c, struct fit_model *out)
{
    struct err e2 = {0};

    if (fit_terms_lean(pts, m, nvars, c->term, c->nterms, 0, auto_lean(pts, m, nvars),
                       out, &e2) < 0)
        return -1;
    out->graph = FIT_AUTO;
    copy_chosen(c, out->term, &out->nterms, &out->chosen);
    return 0;
}

/* Whether the one-term law b rises as the data's upper half does (from the
 * point at the median x to the largest). Over a wide span the one-term law
 * is taken outright for the term that carries a growing quantity beyond its
 * data (message sizes); its terms (Extra-P's default, no negative exponent)
 * have no falling law but a constant or a subtracted log: a strong-scaling
 * time over 1 to 1024 processes (100/p) became a constant, 0.17, and
 * 0.5 + 10/sqrt(p) a line falling in log p. Other laws are weighed on the
 * forward folds instead, as over a narrow span (eval/RECORD.md §61). */
static int rises_with_data(const struct fit_point *pts, size_t m,
                           const struct fit_model *b)
{
    struct err e = {0};
    double lo, hi, dy = pts[m - 1].y - pts[m / 2].y;
    if (fit_eval(b, pts[m / 2].x, &lo, &e) != 0 ||
        fit_eval(b, pts[m - 1].x, &hi, &e) != 0)
        return 0;
    return dy > 0 && hi > lo;
}

/* The one-term rule's law, by ols_model. */
static int one_term_model(const struct fit_point *pts, size_t m, struct fit_model *out)
{
    struct fit_pmnf1 b;
    struct fit_cand c = {0};

    if (fit_pmnf1(pts, m, &b) < 0)
        return -1;
    c.nterms = 1;
    if (b.c1 != 0) {
        c.term[1].expo[0] = (double)b.num / b.den;
        c.term[1].logp[0] = b.lg;
        c.nterms = 2;
    }
    return ols_model(pts, m, 1, &c, out);
}

/* The fold of variable v (two variables): copies into tr the points of
 * pts below v's largest value (*top), sets *mt to their count and *next to
 * the largest value of v among them, and returns how many distinct values
 * of v they hold. */
static size_t fold_below_top(const struct fit_point *pts, size_t m, int v,
                             struct fit_point *tr, size_t *mt, double *top, double *next)
{
    size_t i, j, nd = 0;

    *top = pts[0].x[v];
    *next = -INFINITY;
    for (i = 1; i < m; i++)
        *top = fmax(*top, pts[i].x[v]);
    for (i = *mt = 0; i < m; i++) {
        if (!(pts[i].x[v] < *top))
            continue;
        for (j = 0; j < *mt && tr[j].x[v] != pts[i].x[v]; j++)
            ;
        nd += j == *mt;
        *next = fmax(*next, pts[i].x[v]);
        tr[(*mt)++] = pts[i];
    }
    return nd;
}

/* ---- latency + bandwidth (two variables, eval/RECORD.md §10) ---- */

/* A collective or a transfer over processes u and a size s that spans a
 * wide range (message sizes, samples): y = c0 + c1 f(u) + c2 s + c3 s g(u),
 * a latency plus the size times an inverse bandwidth, each a function of u,
 * with c1..c3 >= 0. f and g are each one of log2 u (a tree), u (a chain or
 * linear algorithm) and 1/u (work shared among u); the terms whose
 * coefficient would be negative are left out (non-negative least squares,
 * exact over the 8 subsets of the three). Ordinary least squares, as the
 * one-term law over a wide span: the largest values carry the law beyond
 * them. */
#define LB_NF 3

static void lb_term(int k, int u, struct fit_term *t)
{
    if (k == 0)
        t->logp[u] = 1;
    else
        t->expo[u] = k == 1 ? 1 : -1;
}

static int same_term(const struct fit_term *a, const struct fit_term *b)
{
    return a->expo[0] == b->expo[0] && a->expo[1] == b->expo[1] &&
           a->logp[0] == b->logp[0] && a->logp[1] == b->logp[1];
}

/* The weighted squared residuals of model a over the points, as fit_terms
 * weighs them (n_i; relative to y_i for a relative model). */
static double wrss_of(const struct fit_point *pts, size_t m, const struct fit_model *a)
{
    struct err e2 = {0}; /* once: it is large, and the first error ends the sum */
    double s = 0;
    size_t i;

    for (i = 0; i < m; i++) {
        double ya, r;
        if (fit_eval(a, pts[i].x, &ya, &e2) < 0)
            return INFINITY;
        r = pts[i].y - ya;
        if (a->relative)
            r /= pts[i].y;
        s += (pts[i].n > 0 ? pts[i].n : 1) * r * r;
    }
    return s;
}

/* The law of the points pts[0..n-1] with s = x_v: among the f, g and
 * subsets of the three terms whose coefficients c1..c3 all come out
 * positive, the one of least squared error (weights n_i, fit_terms). OUT:
 * terms, *nterms (the constant first). Returns 0, or -1 when no such law
 * could be fitted. */
static int lb_law(const struct fit_point *pts, size_t n, int v, struct fit_term *terms,
                  int *nterms)
{
    int u = 1 - v, f, g, mask;
    double best = INFINITY;

    if (n < 5)
        return -1;
    for (f = 0; f < LB_NF; f++)
        for (g = 0; g < LB_NF; g++)
            for (mask = 1; mask < 8; mask++) { /* which of f(u), s, s g(u) */
                struct fit_term t[4];
                struct fit_model a;
                struct err e2 = {0};
                double sse;
                int k = 1, j, ok = 1;
                if (((mask & 1) == 0 && f > 0) || ((mask & 4) == 0 && g > 0))
                    continue; /* f (g) does not matter: once */
                memset(t, 0, sizeof t);
                if (mask & 1)
                    lb_term(f, u, &t[k++]);
                if (mask & 2)
                    t[k++].expo[v] = 1;
                if (mask & 4) {
                    lb_term(g, u, &t[k]);
                    t[k++].expo[v] = 1;
                }
                if (fit_terms(pts, n, 2, t, k, 0, &a, &e2) < 0)
                    continue;
                for (j = 1; j < k; j++)
                    ok &= a.coef[j] > 0;
                if (ok && (sse = wrss_of(pts, n, &a)) < best) {
                    best = sse;
                    memcpy(terms, t, sizeof t);
                    *nterms = k;
                }
            }
    return isfinite(best) ? 0 : -1;
}

/* The latency + bandwidth law fitted to pts[0..m-1] with s = x_v, as an
 * `auto` model (OUT). Returns 0, or -1 when it could not be fitted. */
static int lb_model(const struct fit_point *pts, size_t m, int v, struct fit_model *out)
{
    struct fit_cand c = {0};

    if (lb_law(pts, m, v, c.term, &c.nterms) < 0)
        return -1;
    return ols_model(pts, m, 2, &c, out);
}

/* Two variables, as forward_procedures: for each variable with at least 4
 * distinct values, Extra-P's multi-parameter rule (fit_pmnf2) is run again
 * on the points below that variable's largest value, and the selection's
 * law (sel, its terms) is fitted again to them, and both predict the points
 * at it; the reach is counted in doublings of that variable. The selection
 * itself is not run again: on a 5 x 5 grid that would take twice the 10 ms
 * that a two-variable fit may (bench_fit), and keeping its law, chosen with
 * the points left out, only favours it. With wide[s] set, the latency +
 * bandwidth procedure with size variable s (lb_model) is run again on the
 * same folds: elb[s] its mean squared log error, elb_d[s] the same per
 * doubling, INFINITY where it could not be fitted on a fold (or wide[s] is
 * 0). Returns 0, or -1 when no fold could be made or a fold could not be
 * fitted by the selection's law or the rule. */
static int forward_procedures2(const struct fit_point *pts, size_t m,
                               const struct fit_model *sel, const int wide[2], double *ea,
                               double *eb, double *eb_doubling, double elb[2],
                               double elb_d[2])
{
    struct fit_point *tr = xmalloc(m * sizeof *tr);
    size_t cnt = 0, i, mt;
    int v, s, rc = -1;

    *ea = *eb = *eb_doubling = 0;
    for (s = 0; s < 2; s++)
        elb[s] = elb_d[s] = wide[s] ? 0 : INFINITY;
    if (tr == NULL)
        return -1;
    for (v = 0; v < 2; v++) {
        double top, next;
        struct fit_model a, l[2];
        struct fit_pmnf2 b;
        struct err e2 = {0};
        if (fold_below_top(pts, m, v, tr, &mt, &top, &next) < 3)
            continue;
        if (fit_terms(tr, mt, 2, sel->term, sel->nterms, 1, &a, &e2) < 0 ||
            fit_pmnf2(tr, mt, &b) < 0)
            goto out;
        for (s = 0; s < 2; s++)
            if (isfinite(elb[s]) && lb_model(tr, mt, s, &l[s]) < 0)
                elb[s] = elb_d[s] = INFINITY;
        for (i = 0; i < m; i++) {
            double ya, d = log2(top / next), eb2;
            if (pts[i].x[v] < top)
                continue;
            if (fit_eval(&a, pts[i].x, &ya, &e2) < 0)
                ya = 0;
            eb2 = log_err2(fit_pmnf2_eval(&b, pts[i].x), pts[i].y);
            *ea += log_err2(ya, pts[i].y);
            *eb += eb2;
            *eb_doubling += eb2 / (d * d);
            for (s = 0; s < 2; s++) {
                double yl, e1;
                if (!isfinite(elb[s]))
                    continue;
                if (fit_eval(&l[s], pts[i].x, &yl, &e2) < 0)
                    yl = 0;
                e1 = log_err2(yl, pts[i].y);
                elb[s] += e1;
                elb_d[s] += e1 / (d * d);
            }
            cnt++;
        }
    }
    if (cnt > 0) {
        *ea /= (double)cnt;
        *eb /= (double)cnt;
        *eb_doubling /= (double)cnt;
        for (s = 0; s < 2; s++) {
            elb[s] /= (double)cnt;
            elb_d[s] /= (double)cnt;
        }
        rc = 0;
    }
out:
    xfree(tr);
    return rc;
}

/* Extra-P's multi-parameter law, by ols_model. */
static int pmnf2_model(const struct fit_point *pts, size_t m, const struct fit_pmnf2 *b,
                       struct fit_model *out)
{
    struct fit_cand c = {0};

    c.nterms = 1 + fit_pmnf2_terms(b, &c.term[1]);
    return ols_model(pts, m, 2, &c, out);
}

/* The forward folds of the mean of nlaw laws (1 or 2: a law, or the
 * average of average_laws): each law's terms fitted again, weighted as it
 * was, to the points below the largest value of each variable with at
 * least 4 distinct values, and their coefficients averaged into u's terms
 * as the law itself is. A fold that a law cannot be fitted on is left out.
 * They feed the warning (fit_warning), not the law or its interval. */
static void law_folds(const struct fit_point *pts, size_t m,
                      const struct fit_model *const *law, int nlaw, struct fit_model *u)
{
    struct fit_point *tr = xmalloc(m * sizeof *tr);
    size_t mt;
    int v, k, i, j;

    u->fold_n = 0;
    for (v = 0; tr != NULL && v < 2; v++) {
        double top, next, c[FIT_MAX_TERMS] = {0};
        struct fit_model f;
        struct err e2 = {0};
        if (fold_below_top(pts, m, v, tr, &mt, &top, &next) < 3)
            continue;
        for (k = 0; k < nlaw; k++) {
            if (fit_terms(tr, mt, 2, law[k]->term, law[k]->nterms, law[k]->relative, &f,
                          &e2) < 0)
                break;
            for (i = 0; i < f.nterms; i++)
                for (j = 0; j < u->nterms; j++)
                    if (same_term(&u->term[j], &f.term[i]))
                        c[j] += f.coef[i] / nlaw;
        }
        if (k < nlaw)
            continue;
        u->fold_v[u->fold_n] = v;
        memcpy(u->fold_coef[u->fold_n], c, sizeof c);
        u->fold_n++;
    }
    xfree(tr);
}

/* A law of n given terms t with given coefficients c (an average, a
 * product: not least squares) as a two-variable model in *u: the leverage
 * and dof of its terms fitted to the points (weighted as rel says), the
 * residual variance of its own residuals with the repetitions' scatter,
 * xunc as given, `positive`, and the forward folds of the nlaw laws it
 * comes from (law_folds; nlaw = 0: of its own terms). Returns 0, or -1 when
 * the terms are more than FIT_MAX_TERMS, not fewer than the points, or
 * cannot be fitted. */
static int given_law(const struct fit_point *pts, size_t m, const struct fit_term *t,
                     const double *c, int n, int rel, double xunc,
                     const struct fit_model *const *law, int nlaw, struct fit_model *u)
{
    struct fit_cand cc = {0};
    struct err e2 = {0};
    const struct fit_model *self = u;
    double w0;

    if (n > FIT_MAX_TERMS || (size_t)n >= m ||
        fit_terms(pts, m, 2, t, n, rel, u, &e2) < 0)
        return -1;
    w0 = wrss_of(pts, m, u);
    cc.nterms = n;
    memcpy(cc.term, t, (size_t)n * sizeof *t);
    copy_chosen(&cc, u->term, &u->nterms, &u->chosen);
    u->graph = FIT_AUTO;
    memcpy(u->coef, c, (size_t)n * sizeof *c);
    if (u->dof > 0 && u->has_interval)
        u->s2 = fmax(u->s2 + (wrss_of(pts, m, u) - w0) / u->dof, u->s2);
    if (!isfinite(u->s2))
        return -1;
    u->xunc = xunc;
    u->positive = 1;
    law_folds(pts, m, nlaw > 0 ? law : &self, nlaw > 0 ? nlaw : 1, u);
    return 0;
}

/* The equal average of two laws of two variables as one law: the union of
 * their terms, each coefficient the mean of the two laws' (0 where a law
 * lacks the term), so that it predicts the mean of their predictions. Its
 * leverage and dof are those of the union fitted to the points (weighted
 * as a); its residual variance is the average's own residuals', with the
 * repetitions' scatter; its uncertainty beyond the data (xunc) is b's.
 * *a becomes the average, its forward folds set (law_folds). Returns
 * -1 (a untouched) when the union has more than FIT_MAX_TERMS terms or
 * cannot be fitted. */
static int average_laws(const struct fit_point *pts, size_t m, struct fit_model *a,
                        const struct fit_model *b)
{
    struct fit_term t[2 * FIT_MAX_TERMS];
    double c[2 * FIT_MAX_TERMS];
    struct fit_model u;
    int n = 0, i, j, k;
    const struct fit_model *law[2] = {a, b};

    for (k = 0; k < 2; k++)
        for (i = 0; i < law[k]->nterms; i++) {
            for (j = 0; j < n; j++)
                if (same_term(&t[j], &law[k]->term[i]))
                    break;
            if (j == n) {
                t[n] = law[k]->term[i];
                c[n++] = 0;
            }
            c[j] += law[k]->coef[i] / 2;
        }
    if (given_law(pts, m, t, c, n, a->relative, b->xunc, law, 2, &u) < 0)
        return -1;
    *a = u;
    return 0;
}

/* Candidate LBA (eval/RECORD.md §10, §12, §36-§38, §41): where one
 * variable spans a wide range (WIDE_SPAN: message sizes) and the latency +
 * bandwidth law, run again on the forward folds, predicts the points left
 * out better (elb, elb_d: forward_procedures2's) than the law `auto` has
 * taken (forward error e_taken), and it is plausible beyond the data as the
 * rule's laws must be, the law becomes the equal average of the two. The
 * folds cannot tell which of the two holds beyond the data when a
 * configuration there is in a regime of its own (one node against two, a
 * protocol step), and each of the two alone is off by 2-5x where the other
 * holds (§36-§37). Returns 1 when the law is an average (its folds set),
 * else 0. */
static int lb_rule(const struct fit_point *pts, size_t m, const double *xmin,
                   const double *xmax, const double *growth, const double elb[2],
                   const double elb_d[2], double e_taken, struct fit_model *out)
{
    struct fit_model best;
    int v, found = 0;

    for (v = 0; v < 2; v++) {
        struct fit_model b;
        if (!(elb[v] < e_taken) || lb_model(pts, m, v, &b) < 0 ||
            !plausible_beyond(b.term, b.nterms, 2, b.coef, xmin, xmax, 1, 0, growth))
            continue;
        b.xunc = fmin(sqrt(out->xunc * out->xunc + elb_d[v]), XUNC_MAX);
        b.positive = 1;
        best = b;
        found = 1;
        e_taken = elb[v];
    }
    return found && average_laws(pts, m, out, &best) == 0;
}

/* Whether every point of two variables has x1, x2 and y > 0 (a positive
 * quantity of two positive variables); sets the box xmin, xmax. */
static int positive_box(const struct fit_point *pts, size_t m, double *xmin, double *xmax)
{
    size_t i;
    int v;

    for (v = 0; v < 2; v++)
        xmin[v] = xmax[v] = pts[0].x[v];
    for (i = 0; i < m; i++) {
        if (!(pts[i].y > 0) || !(pts[i].x[0] > 0) || !(pts[i].x[1] > 0))
            return 0;
        for (v = 0; v < 2; v++) {
            xmin[v] = fmin(xmin[v], pts[i].x[v]);
            xmax[v] = fmax(xmax[v], pts[i].x[v]);
        }
    }
    return 1;
}

/* Since heldout16 (candidate E2, eval/RECORD.md §2): for a positive
 * quantity of two positive variables, Extra-P's multi-parameter law is
 * taken when, with the points at each variable's largest value left out,
 * its rule run again predicts them better than the selection's law fitted
 * again does (forward_procedures2); its forward error per doubling joins
 * the law's uncertainty in quadrature, as for one variable. Then, where a
 * variable spans a wide range, the latency + bandwidth law is weighed
 * against the law taken on the same folds, and averaged with it where it
 * wins (lb_rule). Returns 1 when the law is such an average (its folds are
 * set), else 0. */
static int two_var_rule(const struct fit_point *pts, size_t m, struct fit_model *out)
{
    struct fit_model b;
    struct fit_pmnf2 f[FIT_PMNF2_FORMS];
    double ea, eb, ebd, xmin[2], xmax[2], growth[2], elb[2], elb_d[2];
    int nf, k, wide[2];

    if (m < 5 || m > FIT_PMNF2_MAX || out->seg_x > 0 || !positive_box(pts, m, xmin, xmax))
        return 0;
    wide[0] = xmax[0] >= WIDE_SPAN * xmin[0];
    wide[1] = xmax[1] >= WIDE_SPAN * xmin[1];
    if (forward_procedures2(pts, m, out, wide, &ea, &eb, &ebd, elb, elb_d) < 0)
        return 0;
    growth_max2(pts, m, growth);
    /* the rule's law, or the next of its forms that stays positive beyond
     * the data (eval/RECORD.md §12) and grows no faster than the
     * selection's laws may (§22) */
    if (eb < ea && (nf = fit_pmnf2_forms(pts, m, f)) >= 0) {
        for (k = 0; k < nf; k++)
            if (pmnf2_model(pts, m, &f[k], &b) == 0 &&
                plausible_beyond(b.term, b.nterms, 2, b.coef, xmin, xmax, 1, 0, growth))
                break;
        if (k < nf) {
            b.xunc = fmin(sqrt(out->xunc * out->xunc + ebd), XUNC_MAX);
            b.positive = 1;
            *out = b;
            ea = eb;
        }
    }
    return lb_rule(pts, m, xmin, xmax, growth, elb, elb_d, ea, out);
}

/* Candidate SEP (eval/RECORD.md §49): the two one-variable laws of the
 * data's top slices. SLICE_MIN distinct values make a slice; SLICE_GATE is
 * the mean log ratio (a factor e) by which the law may predict above their
 * product beyond the data before the product is taken instead. */
#define SLICE_MIN 4
#define SLICE_GATE 1.0

/* `auto`'s one-variable law along variable v of the points whose other
 * variable is at its largest value, top (the slice nearest to where the law
 * is asked beyond the data). Returns 0, or -1 when the slice has fewer than
 * SLICE_MIN points or cannot be fitted. */
static int slice_law(const struct fit_point *pts, size_t m, int v, double top,
                     struct fit_model *out)
{
    struct fit_point *sl = xmalloc(m * sizeof *sl);
    struct err e2 = {0};
    size_t i, k = 0;
    int rc = -1;

    if (sl == NULL)
        return -1;
    for (i = 0; i < m; i++)
        if (pts[i].x[1 - v] == top) {
            sl[k] = pts[i];
            sl[k].x[0] = pts[i].x[v];
            sl[k].x[1] = 0;
            k++;
        }
    if (k >= SLICE_MIN) /* ascending: pts come sorted by x1, then x2 */
        rc = fit_auto_model(sl, k, 1, out, &e2);
    xfree(sl);
    return rc;
}

/* Candidate SEP (eval/RECORD.md §49): a two-variable law that, beyond the
 * data, predicts more than a factor e (SLICE_GATE, the mean log ratio over
 * the 15 points up to 8x past the largest values of the two variables)
 * above what the data's own top slices predict one variable at a time,
 * s1(x1) s2(x2) / s2(x2max) (s1 `auto`'s law along x1 at the largest x2,
 * s2 along x2 at the largest x1), grows by an interaction of the variables
 * the box does not show; the product of the two slice laws is taken
 * instead. It is one law: the products of the two laws' terms, at most
 * FIT_MAX_TERMS, its leverage and dof those of its terms fitted to all
 * points, its residual variance that of its own residuals (as average_laws);
 * its uncertainty beyond the data is the replaced law's. Returns 1 when
 * the law was replaced (its folds set), else 0. */
static int slice_guard(const struct fit_point *pts, size_t m, struct fit_model *out)
{
    struct fit_model s[2], u;
    struct fit_term t[FIT_MAX_TERMS];
    double c[FIT_MAX_TERMS], xmin[2], xmax[2], d, lr = 0;
    int a, b, n = 0, j, k;

    if (out->nvars != 2 || out->basis.n > 0 || out->seg_x > 0 || m < 2 ||
        !positive_box(pts, m, xmin, xmax))
        return 0;
    if (slice_law(pts, m, 0, xmax[1], &s[0]) < 0 ||
        slice_law(pts, m, 1, xmax[0], &s[1]) < 0)
        return 0;
    d = law_val(s[1].term, s[1].nterms, 1, s[1].coef, &xmax[1]);
    if (!(d > 0))
        return 0;
    for (a = 0; a < 4; a++)
        for (b = 0; b < 4; b++) {
            double x[2] = {ldexp(xmax[0], a), ldexp(xmax[1], b)}, ya, ys;
            if (a == 0 && b == 0)
                continue;
            ya = law_val(out->term, out->nterms, 2, out->coef, x);
            ys = law_val(s[0].term, s[0].nterms, 1, s[0].coef, &x[0]) *
                 law_val(s[1].term, s[1].nterms, 1, s[1].coef, &x[1]) / d;
            if (!(ya > 0) || !(ys > 0) || !isfinite(ya) || !isfinite(ys))
                return 0;
            lr += log(ya / ys);
        }
    if (!(lr / 15 > SLICE_GATE) || s[0].nterms * s[1].nterms > FIT_MAX_TERMS)
        return 0;
    for (j = 0; j < s[0].nterms; j++)
        for (k = 0; k < s[1].nterms; k++) {
            struct fit_term p = {{s[0].term[j].expo[0], s[1].term[k].expo[0]},
                                 {s[0].term[j].logp[0], s[1].term[k].logp[0]}};
            int at = n;
            if (p.expo[0] == 0 && p.expo[1] == 0 && p.logp[0] == 0 && p.logp[1] == 0) {
                memmove(&t[1], &t[0], (size_t)n * sizeof *t); /* the constant first */
                memmove(&c[1], &c[0], (size_t)n * sizeof *c);
                at = 0;
            }
            t[at] = p;
            c[at] = s[0].coef[j] * s[1].coef[k] / d;
            n++;
        }
    if (given_law(pts, m, t, c, n, out->relative, out->xunc, NULL, 0, &u) < 0)
        return 0;
    *out = u;
    return 1;
}

/* The forward folds of a two-variable model (fit.h, fold_*): its law's
 * (law_folds); none for one variable or a law on a machine curve. */
static void two_var_folds(const struct fit_point *pts, size_t m, struct fit_model *out)
{
    const struct fit_model *law = out;

    out->fold_n = 0;
    if (out->nvars == 2 && out->basis.n == 0)
        law_folds(pts, m, &law, 1, out);
}

int fit_auto_selection(const struct fit_point *pts, size_t m, int nvars,
                       struct fit_model *out, struct err *err)
{
    return auto_model(pts, m, nvars, out, err);
}

int fit_auto_model(const struct fit_point *pts, size_t m, int nvars,
                   struct fit_model *out, struct err *err)
{
    struct fit_model b;
    double ea, eb, ebd;
    size_t i;
    int wide;

    if (auto_model(pts, m, nvars, out, err) < 0)
        return -1;
    /* Extrapolation is where a law is judged: for a positive quantity of one
     * positive variable with 5..FIT_PMNF1_MAX points, when the one-term rule,
     * fitted to the smaller x values, predicts the largest better than the
     * selection above does (each run again on those points), its law is
     * taken. Ordinary least squares weighs the largest values most, which
     * is what carries a growing quantity beyond its data; the relative
     * fit of the selection weighs every point alike. Not after a detected
     * regime change: the upper regime's law was already validated against
     * the law of all points (and on fewer points the break may not show).
     * The law's uncertainty beyond the data becomes the selection's and the
     * one-term rule's own forward error per doubling, in quadrature.
     * Over a span of 10 doublings and more (message sizes, byte counts) the
     * one-term law is taken outright, also after a regime change: there
     * the relative fit weighs the small-x regime (latency, caches) as much
     * as the large-x one that carries the extrapolation, and on the real
     * data of eval/RECORD.md §2 (candidate S) it lost to it. With two
     * variables, Extra-P's multi-parameter law is weighed the same way
     * (two_var_rule). */
    if (nvars == 2) {
        if (two_var_rule(pts, m, out) == 0) /* an average has its own folds */
            two_var_folds(pts, m, out);
        slice_guard(pts, m, out); /* a replaced law has its own folds */
        return 0;
    }
    if (nvars != 1 || m < 5 || m > FIT_PMNF1_MAX)
        return 0;
    for (i = 0; i < m; i++)
        if (!(pts[i].y > 0) || !(pts[i].x[0] > 0))
            return 0;
    wide = wide_span(pts, m);
    if (out->seg_x > 0 && !wide)
        return 0;
    /* The cheap refusals first: the one-term law must exist and stay
     * plausible before the selection is run again on the forward folds (two
     * more searches; on bench_fit's falling 10-point law, whose one-term law
     * turns implausible, that is two thirds of the fit's time). The same
     * conditions in another order: the same result. */
    if (one_term_model(pts, m, &b) < 0 ||
        !plausible_beyond(b.term, b.nterms, 1, b.coef, pts[0].x, pts[m - 1].x, 1,
                          increasing_throughout(pts, m),
                          (double[]){growth_max(growth_slope(pts, m), INFINITY, 1)}) ||
        forward_procedures(pts, m, &ea, &eb, &ebd) < 0 ||
        ((!wide || !rises_with_data(pts, m, &b)) && !(eb < ea)))
        return 0;
    b.xunc = fmin(sqrt(out->xunc * out->xunc + ebd), XUNC_MAX);
    b.positive = 1;
    *out = b;
    return 0;
}

/* ---- fits on a machine curve (docs/models.md §12) ---- */

/* fit_terms on the points with x replaced by the curve at x (work: m
 * points); the model keeps the curve and the range of x itself. */
static int fit_on_curve(const struct fit_point *pts, size_t m, const struct fit_basis *b,
                        const struct fit_term *t, int nterms, int rel,
                        struct fit_point *work, struct fit_model *out, struct err *err)
{
    size_t i;

    for (i = 0; i < m; i++) {
        work[i] = pts[i];
        work[i].x[0] = fit_basis_at(b, pts[i].x[0]);
    }
    if (fit_terms(work, m, 1, t, nterms, rel, out, err) < 0)
        return -1;
    out->basis = *b;
    out->xmin[0] = out->xmax[0] = pts[0].x[0];
    for (i = 1; i < m; i++) {
        out->xmin[0] = fmin(out->xmin[0], pts[i].x[0]);
        out->xmax[0] = fmax(out->xmax[0], pts[i].x[0]);
    }
    return 0;
}

int fit_basis_model(const struct fit_point *pts, size_t m, const struct fit_basis *b,
                    struct fit_model *out, struct err *err)
{
    struct fit_term t[2];
    struct fit_point *work;
    double e2 = 0, u0;
    size_t i, j, f, folds = m >= 6 ? 2 : 1, cnt = 0, flat = 1;
    int rel = 1, rc = -1;

    if (m < 4)
        return err_set(err, ERR_INVALID, "degenerate", "data",
                       "a fit on the machine curve %s needs at least 4 distinct x (one "
                       "to check how it extrapolates); there %s %zu",
                       b->name, m == 1 ? "is" : "are", m);
    for (i = 0; i < m; i++) {
        if (!(pts[i].x[0] > 0))
            return err_set(err, ERR_INVALID, "degenerate", "data",
                           "x = %g: the machine curve %s is defined for x > 0 only",
                           pts[i].x[0], b->name);
        rel &= pts[i].y > 0;
    }
    for (i = 0; i < m; i++) {
        double u = fit_basis_at(b, pts[i].x[0]);
        if (!(u > 0 && isfinite(u)))
            return err_set(err, ERR_INVALID, "degenerate", "data",
                           "x = %g reads the machine curve %s at %g, where its value "
                           "over- or underflows a double",
                           pts[i].x[0], b->name, fit_basis_arg(b, pts[i].x[0]));
        if (i == 0)
            u0 = u;
        flat &= u == u0;
    }
    if (flat)
        return err_set(err, ERR_INVALID, "degenerate", "data",
                       "the machine curve %s is constant over the data's x; it cannot "
                       "explain them",
                       b->name);
    memset(t, 0, sizeof t);
    t[1].expo[0] = 1;
    if ((work = xmalloc(m * sizeof *work)) == NULL)
        return err_nomem(err);
    if (fit_on_curve(pts, m, b, t, 2, rel, work, out, err) < 0)
        goto out;
    if (!(out->coef[1] > 0)) {
        err_set(err, ERR_INVALID, "degenerate", "data",
                "the data do not grow with the machine curve %s (slope %g); fit "
                "without it",
                b->name, out->coef[1]);
        goto out;
    }
    /* How far the law carries beyond the data: refitted on the points below
     * the largest x (and, from 6 points on, below the second largest), it
     * predicts the points left out; the mean squared log error per doubling
     * of the reach, as the extrapolating `auto`'s (never below its floor). */
    for (f = 1; f <= folds; f++) {
        size_t mt = m - f;
        struct fit_model a;
        struct err e3 = {0};
        int ok = fit_on_curve(pts, mt, b, t, 2, rel, work, &a, &e3) == 0;
        for (j = mt; j < m; j++) {
            double d = log2(pts[j].x[0] / pts[mt - 1].x[0]), ya = 0, le = XUNC_MAX * d;
            if (ok && fit_eval(&a, pts[j].x, &ya, &e3) == 0) {
                if (rel)
                    le = ya > 0 ? log(ya / pts[j].y) : XUNC_MAX * d;
                else
                    le = (ya - pts[j].y) / fmax(fabs(pts[j].y), 1e-300);
            }
            e2 += le * le / (d * d);
            cnt++;
        }
    }
    out->xunc = fmin(fmax(sqrt(e2 / (double)cnt), XUNC_FLOOR), XUNC_MAX);
    out->graph = FIT_AUTO;
    out->chosen = FIT_BASIS;
    rc = 0;
out:
    xfree(work);
    return rc;
}

/* ---- what the API exposes ---- */

double fit_extrapolation(const struct fit_model *m, const double *x)
{
    double d = 0;
    int v;

    for (v = 0; v < m->nvars && v < FIT_MAX_VARS; v++) {
        double lo = m->xmin[v], hi = m->xmax[v], e = 0;
        if (!isfinite(x[v]))
            return INFINITY;
        if (x[v] >= lo && x[v] <= hi)
            continue;
        if (x[v] > 0 && lo > 0) {
            e = x[v] > hi ? log2(x[v] / hi) : log2(lo / x[v]);
        } else {
            double width = hi - lo > 0 ? hi - lo : 1;
            e = (x[v] > hi ? x[v] - hi : lo - x[v]) / width;
        }
        d = e > d ? e : d;
    }
    return d;
}

/* Which side of the data x lies on, for the warnings: "beyond" (above the
 * largest value of every variable it leaves), "below" (under the smallest)
 * or "outside" (above in one variable, below in another). */
static const char *reach_side(const struct fit_model *m, const double *x)
{
    int above = 0, under = 0, v;
    for (v = 0; v < m->nvars && v < FIT_MAX_VARS; v++) {
        above |= x[v] > m->xmax[v];
        under |= x[v] < m->xmin[v];
    }
    return under ? (above ? "outside" : "below") : "beyond";
}

/* The two-variable "far off" warning: the folds' spread g (fit_fold_spread)
 * times the doublings beyond the data (eval/RECORD.md §15, §17). */
#define FOLD_WARN 0.2

int fit_warning(const struct fit_model *m, const double *x, double y, double lo,
                double hi, struct buf *b)
{
    const struct fit_basis *c = &m->basis; /* where a machine curve is read */
    double d = fit_extrapolation(m, x), at = c->n > 0 ? fit_basis_arg(c, x[0]) : 0;
    /* two variables: how far the law refitted without the largest values
     * moves the prediction (folds), in place of xunc */
    int folds = m->nvars > 1 && m->fold_n > 0 && y > 0;
    double g = folds ? fit_fold_spread(m, x, y) : 0;
    size_t before = b->len;

    /* lo and hi are shown beside the warning; since the intervals are
     * calibrated (issue 32) their width alone is no reason to warn */
    (void)lo;
    (void)hi;
    /* the degree first: least residual passes a polynomial through its
     * points (no degrees of freedom left) most often, and SPEC §18 asks
     * `unknown` to warn whenever it extrapolates one of degree >= 3 */
    if (m->graph == FIT_UNKNOWN && m->chosen >= FIT_POLY1 + 2 && m->chosen <= FIT_POLY6 &&
        d > 0)
        buf_printf(b,
                   "The least residual of the 12 types chose a polynomial of degree %d, "
                   "which diverges beyond the measured range; graph \"auto\" is meant "
                   "for extrapolation.%s",
                   (int)(m->chosen - FIT_POLY1) + 1,
                   !m->has_interval || m->dof < 1
                       ? " It has no degrees of freedom left, so this prediction has no "
                         "interval."
                       : "");
    else if (!m->has_interval || m->dof < 1)
        buf_puts(b, "The fit has no degrees of freedom left, so this prediction has no "
                    "interval; measure more points.");
    else if ((m->relative || m->positive) && !(y > 0))
        buf_puts(b, "The model predicts a non-positive value for a positive quantity; "
                    "it does not hold at this point.");
    else if (d > 2)
        buf_printf(b,
                   "This point lies %.3g doublings %s the measured range; the law "
                   "is not known to hold that far and the interval is a rough guide.",
                   d, reach_side(m, x));
    else if (c->n > 0 && (at > c->x[c->n - 1] || at < c->x[0])) {
        if (c->scale == 1 && c->power == 1)
            buf_printf(b,
                       "x = %g lies outside the machine curve %s (measured for %g to "
                       "%g); the curve is continued along its end segment there.",
                       x[0], c->name, c->x[0], c->x[c->n - 1]);
        else
            buf_printf(b,
                       "x = %g reads the machine curve %s at %g, outside its measured "
                       "%g to %g; the curve is continued along its end segment there.",
                       x[0], c->name, at, c->x[0], c->x[c->n - 1]);
    } else if (folds && g * d > FOLD_WARN) /* two variables, eval/RECORD.md §15, §17 */
        buf_printf(b,
                   "Fitted again without the largest measured values of a variable, the "
                   "law's prediction here moves by a factor of %.3g, and this point lies "
                   "%.3g doubling%s %s the data; the prediction may be far off: "
                   "measure closer to this point.",
                   exp(g), d, d == 1 ? "" : "s", reach_side(m, x));
    else if (!folds && m->xunc * d > 1)
        buf_printf(b,
                   "The laws that fit these data disagree by more than a factor of %.3g "
                   "here; the prediction may be far off: measure closer to this point.",
                   exp(m->xunc * d));
    else if (m->seg_x > 0 && x[0] < m->seg_x)
        buf_printf(b,
                   "The data show a change of regime at x = %g; the model describes "
                   "the upper regime only.",
                   m->seg_x);
    else if (m->outliers > 0 && d > 0 && m->nvars == 1)
        /* a note on the data, not a sign that the prediction is far off:
         * with two variables it is not a warning (the model's `outliers`
         * says it; eval/RECORD.md §17) */
        buf_printf(b, "%d measured point%s left out as outlier%s; check the data.",
                   m->outliers, m->outliers == 1 ? " was" : "s were",
                   m->outliers == 1 ? "" : "s");
    if (buf_failed(b))
        return -1;
    return b->len > before;
}

struct keyed {
    double g;
    size_t i;
};

static int cmp_gain(const void *a, const void *b)
{
    const struct keyed *p = a, *q = b;
    if (p->g != q->g)
        return p->g > q->g ? -1 : 1;
    return (p->i > q->i) - (p->i < q->i);
}

int fit_suggest(const struct fit_result *r, const double *target, const double *cand,
                size_t ncand, double *gain, size_t *order, struct err *err)
{
    const struct fit_model *m = &r->model;
    struct fit_point *pts = NULL, *work = NULL;
    struct keyed *k = NULL;
    struct fit_model nm;
    double y, lo, hi, w0;
    size_t c, i, np = r->npoints;
    int v, rc = -1;

    if (!m->has_interval || m->dof < 1)
        return err_invalid(err, "model", "the model has no interval to narrow");
    if (fit_predict_ext(m, target, &y, &lo, &hi, err) < 0)
        return -1;
    w0 = hi - lo;
    pts = xmalloc((np + 1) * sizeof *pts);
    work = xmalloc((np + 1) * sizeof *work);
    k = xmalloc((ncand + 1) * sizeof *k);
    if (pts == NULL || work == NULL || k == NULL) {
        err_nomem(err);
        goto out;
    }
    /* The points the model was fitted to: above a regime change, and
     * without the points it left out as outliers (those with the largest
     * relative residuals). */
    for (np = 0, i = 0; i < r->npoints; i++)
        if (!(m->seg_x > 0 && r->points[i].x[0] < m->seg_x))
            pts[np++] = r->points[i];
    for (c = 0; c < (size_t)m->outliers && np > 0; c++) {
        size_t worst = 0;
        for (i = 1; i < np; i++)
            if (fabs(pts[i].resid) / fmax(fabs(pts[i].y), 1e-300) >
                fabs(pts[worst].resid) / fmax(fabs(pts[worst].y), 1e-300))
                worst = i;
        memmove(pts + worst, pts + worst + 1, (np - worst - 1) * sizeof *pts);
        np--;
    }
    for (c = 0; c < ncand; c++) {
        struct fit_point *p = &pts[np];
        const double *x = cand + c * (size_t)m->nvars;
        double yc, l2, h2;
        struct err e2 = {0};
        if (fit_eval(m, x, &yc, err) < 0) {
            if (err != NULL)
                snprintf(err->field, sizeof err->field, "candidates[%zu]", c);
            goto out;
        }
        /* One more observation at x, on the law, with the model's noise. */
        memset(p, 0, sizeof *p);
        for (v = 0; v < m->nvars; v++)
            p->x[v] = x[v];
        p->y = p->ymin = p->ymax = yc;
        p->n = 1;
        for (i = 0; i < np; i++)
            if (memcmp(pts[i].x, p->x, sizeof p->x) == 0)
                break;
        if (m->relative && !(yc > 0)) {
            gain[c] = 0;
        } else {
            size_t n2 = np + 1;
            if (i < np) { /* a repetition at a measured x */
                pts[np] = pts[i];
                pts[i].n++;
                n2 = np;
            }
            if ((m->basis.n > 0 ? fit_on_curve(pts, n2, &m->basis, m->term, m->nterms,
                                               m->relative, work, &nm, &e2)
                                : fit_terms_lean(pts, n2, m->nvars, m->term, m->nterms,
                                                 m->relative, m->lean, &nm, &e2)) < 0) {
                gain[c] = 0;
            } else {
                /* Same noise and law uncertainty; the leverage and the reach
                 * change. */
                nm.s2 = m->s2;
                nm.dof = m->dof + 1;
                nm.xunc = m->xunc;
                nm.fold_n = m->fold_n;
                memcpy(nm.fold_v, m->fold_v, sizeof nm.fold_v);
                memcpy(nm.fold_coef, m->fold_coef, sizeof nm.fold_coef);
                nm.positive = m->positive;
                nm.has_interval = 1;
                if (fit_predict_ext(&nm, target, &y, &l2, &h2, &e2) < 0 || !(w0 > 0))
                    gain[c] = 0;
                else
                    gain[c] = fmax(0, 1 - (h2 - l2) / w0);
            }
            if (i < np)
                pts[i] = pts[np];
        }
        k[c].g = gain[c];
        k[c].i = c;
    }
    if (order != NULL) {
        qsort(k, ncand, sizeof *k, cmp_gain);
        for (c = 0; c < ncand; c++)
            order[c] = k[c].i;
    }
    rc = 0;
out:
    xfree(pts);
    xfree(work);
    xfree(k);
    return rc;
}

/* The points of one axis from the measured range [lo, hi] towards target:
 * the measured end nearest it, the powers of two between, the target (inside
 * the range: the target alone). At most max; returns how many. */
static size_t axis_path(double lo, double hi, double target, double *out, size_t max)
{
    double x;
    size_t n = 0;

    if (max == 0 || !isfinite(target))
        return 0;
    if (target > hi) {
        out[n++] = hi;
        for (x = hi > 0 ? exp2(floor(log2(hi)) + 1) : hi + (hi - lo);
             n + 1 < max && x < target && isfinite(x); x = hi > 0 ? 2 * x : x + (hi - lo))
            out[n++] = x;
    } else if (target < lo) {
        out[n++] = lo;
        for (x = lo > 0 && target > 0 ? exp2(ceil(log2(lo)) - 1) : lo - (hi - lo);
             n + 1 < max && x > target && isfinite(x) && (target <= 0 || x > 0);
             x = lo > 0 && target > 0 ? x / 2 : x - (hi - lo))
            out[n++] = x;
    }
    if (n < max && (n == 0 || out[n - 1] != target))
        out[n++] = target;
    return n;
}

size_t fit_suggest_candidates(const struct fit_model *m, const double *target,
                              double *cand, size_t max)
{
    double p0[16], p1[16];
    size_t n0, n1, n = 0, k, i;

    if (m->nvars == 1)
        return axis_path(m->xmin[0], m->xmax[0], target[0], cand, max);
    if (m->nvars != 2)
        return 0;
    n0 = axis_path(m->xmin[0], m->xmax[0], target[0], p0, 16);
    n1 = axis_path(m->xmin[1], m->xmax[1], target[1], p1, 16);
    if (n0 == 0 || n1 == 0)
        return 0;
    /* From the measured corner nearest the target: along each axis alone,
     * then along both, and the target last. p[0] is the measured end (or the
     * target itself when it lies inside on that axis). */
    for (k = 0; k < 3 * 16 + 1; k++) {
        double x0, x1;
        size_t j;
        int dup = 0;
        if (k == 3 * 16) {
            x0 = target[0];
            x1 = target[1];
        } else if (k < 16) { /* axis 0 alone */
            if (k >= n0)
                continue;
            x0 = p0[k];
            x1 = p1[0];
        } else if (k < 32) { /* axis 1 alone */
            if (k - 16 >= n1)
                continue;
            x0 = p0[0];
            x1 = p1[k - 16];
        } else { /* both */
            j = k - 32;
            if (j >= n0 && j >= n1)
                continue;
            x0 = p0[j < n0 ? j : n0 - 1];
            x1 = p1[j < n1 ? j : n1 - 1];
        }
        for (i = 0; i < n && !dup; i++)
            dup = cand[2 * i] == x0 && cand[2 * i + 1] == x1;
        if (dup)
            continue;
        if (n == max) { /* keep the target: it replaces the last one */
            if (k == 3 * 16) {
                cand[2 * n - 2] = x0;
                cand[2 * n - 1] = x1;
            }
            continue;
        }
        cand[2 * n] = x0;
        cand[2 * n + 1] = x1;
        n++;
    }
    return n;
}
