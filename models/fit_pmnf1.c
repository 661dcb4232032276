/* fit_pmnf1: one term of the performance model normal form, chosen by the
 * single-parameter rule of Extra-P 4 (Calotoiu et al., SC'13; Extra-P's
 * default "Basic" modeler), written again from its description: the means,
 * ordinary least squares, leave-one-out SMAPE. In the leave-one-out fits a
 * constant coefficient below 0.05 % of the smallest training value is set
 * to 0, as Extra-P does. See fit.h. */
#include "models/fit.h"

#include <math.h>

#define EPSILON 0.0005 /* least term contribution; constant cleaning */

/* x^(num/den) * log2(x)^lg, in Extra-P's order (ties keep the first): its
 * 42 default terms, then what its option allow_negative_exponents adds:
 * 23 terms with a negative log power, then 19 negative powers alone
 * (Extra-P's "Basic" modeler, extrap/modelers/single_parameter/basic.py). */
static const signed char terms[][3] = {
    {0, 1, 1},   {0, 1, 2},   {1, 4, 0},   {1, 3, 0},   {1, 4, 1},   {1, 3, 1},
    {1, 4, 2},   {1, 3, 2},   {1, 2, 0},   {1, 2, 1},   {1, 2, 2},   {2, 3, 0},
    {3, 4, 0},   {2, 3, 1},   {3, 4, 1},   {4, 5, 0},   {2, 3, 2},   {3, 4, 2},
    {1, 1, 0},   {1, 1, 1},   {1, 1, 2},   {5, 4, 0},   {5, 4, 1},   {4, 3, 0},
    {4, 3, 1},   {3, 2, 0},   {3, 2, 1},   {3, 2, 2},   {5, 3, 0},   {7, 4, 0},
    {2, 1, 0},   {2, 1, 1},   {2, 1, 2},   {9, 4, 0},   {7, 3, 0},   {5, 2, 0},
    {5, 2, 1},   {5, 2, 2},   {8, 3, 0},   {11, 4, 0},  {3, 1, 0},   {3, 1, 1},
    {0, 1, -1},  {0, 1, -2},  {-1, 4, -1}, {-1, 3, -1}, {-1, 4, -2}, {-1, 3, -2},
    {-1, 2, -1}, {-1, 2, -2}, {-2, 3, -1}, {-3, 4, -1}, {-2, 3, -2}, {-3, 4, -2},
    {-1, 1, -1}, {-1, 1, -2}, {-5, 4, -1}, {-4, 3, -1}, {-3, 2, -1}, {-3, 2, -2},
    {-2, 1, -1}, {-2, 1, -2}, {-5, 2, -1}, {-5, 2, -2}, {-3, 1, -1}, {-1, 4, 0},
    {-1, 3, 0},  {-1, 2, 0},  {-2, 3, 0},  {-3, 4, 0},  {-4, 5, 0},  {-1, 1, 0},
    {-5, 4, 0},  {-4, 3, 0},  {-3, 2, 0},  {-5, 3, 0},  {-7, 4, 0},  {-2, 1, 0},
    {-9, 4, 0},  {-7, 3, 0},  {-5, 2, 0},  {-8, 3, 0},  {-11, 4, 0}, {-3, 1, 0}};
#define NTERMS (sizeof terms / sizeof terms[0])
#define NDEFAULT 42 /* the terms without negative exponents */

static double term(int num, int den, int lg, double x)
{
    double v = num != 0 ? pow(x, (double)num / den) : 1;
    return lg != 0 ? v * pow(log2(x), lg) : v;
}

/* The values of the first nterms terms at the m points, term k's at t[k * m + i], as
 * term computes them, but x^(num/den) once per exponent (the log powers of
 * an exponent share it) and log2(x)^lg once per log power (logs: whether
 * the log terms are tried). */
static void term_table(const struct fit_point *pts, size_t m, size_t nterms, int logs,
                       double *t)
{
    size_t i, k, first[NTERMS];

    for (k = 0; k < NTERMS; k++)
        for (first[k] = 0;
             terms[first[k]][0] != terms[k][0] || terms[first[k]][1] != terms[k][1];
             first[k]++)
            ;
    for (i = 0; i < m; i++) {
        /* log2(x)^lg at lgp[lg + 2] */
        double x = pts[i].x[0], lgp[5] = {1, 1, 1, 1, 1}, xe[NTERMS];
        if (logs) {
            lgp[3] = pow(log2(x), 1);
            lgp[4] = pow(log2(x), 2);
            if (nterms > NDEFAULT) {
                lgp[1] = pow(log2(x), -1);
                lgp[0] = pow(log2(x), -2);
            }
        }
        for (k = 0; k < nterms; k++) {
            int num = terms[k][0], den = terms[k][1], lg = terms[k][2];
            xe[k] = first[k] < k ? xe[first[k]]
                    : num != 0   ? pow(x, (double)num / den)
                                 : 1;
            t[k * m + i] = lg != 0 ? xe[k] * lgp[lg + 2] : xe[k];
        }
    }
}

/* Ordinary least squares of y on (1, t) over the points other than skip. */
static void line(const double *t, const struct fit_point *pts, size_t m, size_t skip,
                 double *c0, double *c1)
{
    double mt = 0, my = 0, stt = 0, sty = 0, n = 0;
    size_t i;

    for (i = 0; i < m; i++)
        if (i != skip) {
            mt += t[i];
            my += pts[i].y;
            n++;
        }
    mt /= n;
    my /= n;
    for (i = 0; i < m; i++)
        if (i != skip) {
            stt += (t[i] - mt) * (t[i] - mt);
            sty += (t[i] - mt) * (pts[i].y - my);
        }
    *c1 = stt > 0 ? sty / stt : 0;
    *c0 = my - *c1 * mt;
}

static double smape(double actual, double predicted)
{
    double s = fabs(actual) + fabs(predicted);
    return s != 0 ? 2 * fabs(predicted - actual) / s : 0;
}

/* The rule over the first nterms terms; with the negative ones (nterms >
 * NDEFAULT) no log term is tried when some x <= 1, as in Extra-P (a log
 * power of -1 at x = 1 is infinite). */
static int pmnf1(const struct fit_point *pts, size_t m, size_t nterms,
                 struct fit_pmnf1 *out)
{
    double tab[NTERMS * FIT_PMNF1_MAX], mean = 0, tss = 0;
    size_t i, j, k;
    int logs = 1;

    if (m < 2 || m > FIT_PMNF1_MAX)
        return -1;
    for (i = 0; i < m; i++) {
        if (!isfinite(pts[i].x[0]) || !isfinite(pts[i].y))
            return -1;
        mean += pts[i].y / (double)m;
        logs &= nterms > NDEFAULT ? pts[i].x[0] > 1 : pts[i].x[0] >= 1;
    }
    out->c0 = mean;
    out->c1 = 0;
    out->num = out->lg = 0;
    out->den = 1;
    out->smape = 0;
    for (i = 0; i < m; i++) {
        tss += (pts[i].y - mean) * (pts[i].y - mean);
        out->smape += smape(pts[i].y, mean) * 100 / (double)m;
    }
    if (tss == 0)
        return 0;
    term_table(pts, m, nterms, logs, tab);
    for (k = 0; k < nterms; k++) {
        int num = terms[k][0], den = terms[k][1], lg = terms[k][2];
        double c0, c1, score = 0, rss = 0, contribution = 0;
        const double *t = tab + k * m;
        if (!logs && lg != 0)
            continue;
        for (i = 0; i < m; i++) {
            double lo = INFINITY, p;
            line(t, pts, m, i, &c0, &c1);
            for (j = 0; j < m; j++)
                if (j != i && pts[j].y < lo)
                    lo = pts[j].y;
            if (lo == 0 ? fabs(c0) < EPSILON : fabs(c0 / lo) < EPSILON)
                c0 = 0;
            p = c0 + c1 * t[i];
            rss += (p - pts[i].y) * (p - pts[i].y);
            score += smape(pts[i].y, p) * 100 / (double)m;
        }
        if (!isfinite(rss))
            continue;
        line(t, pts, m, (size_t)-1, &c0, &c1);
        /* the largest share of a value the term makes; a 0/0 (a zero value
         * where the term is 0) makes it NaN, which keeps the term, as
         * numpy's max does in Extra-P */
        for (i = 0; i < m && !isnan(contribution); i++) {
            double c = fabs(c1 * t[i] / pts[i].y);
            contribution = isnan(c) || c > contribution ? c : contribution;
        }
        if (c1 == 0 || contribution < EPSILON || !(score < out->smape))
            continue;
        out->c0 = c0;
        out->c1 = c1;
        out->num = num;
        out->den = den;
        out->lg = lg;
        out->smape = score;
    }
    return 0;
}

int fit_pmnf1(const struct fit_point *pts, size_t m, struct fit_pmnf1 *out)
{
    return pmnf1(pts, m, NDEFAULT, out);
}

int fit_pmnf1_negexp(const struct fit_point *pts, size_t m, struct fit_pmnf1 *out)
{
    return pmnf1(pts, m, NTERMS, out);
}

double fit_pmnf1_term(const struct fit_pmnf1 *p, double x)
{
    return term(p->num, p->den, p->lg, x);
}

double fit_pmnf1_eval(const struct fit_pmnf1 *p, double x)
{
    return p->c0 + p->c1 * term(p->num, p->den, p->lg, x);
}
