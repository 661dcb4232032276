/* synthetic.c: scaling laws of one and two variables over realistic designs,
 * fixed seeds (eval/README.md); the truth for the error is the law, for
 * coverage a fresh noisy observation of it. */
#include "eval.h"

#include "common/xalloc.h"
#include "models/aggregate.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- synthetic laws ---- */

/* Besides the law, its own terms (after the constant; expo, log power),
 * for the oracle below; a law with two regimes has a cut and the upper
 * regime's terms. */
struct law {
    const char *name;
    double lo; /* first x of the design */
    double ratio;
    double (*f)(double);
    int nt;
    double e[2];
    int l[2];
    double cut; /* > 0: the law changes at x = cut */
    int nt_up;
    double e_up[2];
    int l_up[2];
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
    {"weak 5+0.1sqrt(p)+0.3log2p", 4, 2, weak, 2, {0.5, 0}, {0, 1}, 0, 0, {0}, {0}},
    {"200/p+0.5log2p+1", 2, 2, strong_log, 2, {-1, 0}, {0, 1}, 0, 0, {0}, {0}},
    {"3+0.5p log2p", 2, 2, plogp, 1, {1}, {1}, 0, 0, {0}, {0}},
    {"100/p+2", 2, 2, inv, 1, {-1}, {0}, 0, 0, {0}, {0}},
    {"500/p+0.05p+1", 2, 2, inv_lin, 2, {-1, 1}, {0, 0}, 0, 0, {0}, {0}},
    {"Amdahl 5% serial", 1, 2, amdahl, 1, {-1}, {0}, 0, 0, {0}, {0}},
    {"2e-9n^3+1e-6n^2+0.01", 64, 1.5, cubic, 2, {2, 3}, {0, 0}, 0, 0, {0}, {0}},
    {"1e-6 n log2 n+1e-3", 1024, 2, nlogn, 1, {1}, {1}, 0, 0, {0}, {0}},
    {"latency+bandwidth", 8, 4, latbw, 1, {1}, {0}, 0, 0, {0}, {0}},
    {"2+0.8sqrt(p)", 1, 2, sqrt_law, 1, {0.5}, {0}, 0, 0, {0}, {0}},
    {"protocol switch", 256, 2, protocol, 1, {1}, {0}, 16384, 1, {1}, {0}},
    {"node boundary", 2, 2, node, 1, {1}, {0}, 16, 2, {1, 0}, {0, 1}},
};
#define NLAWS (sizeof laws / sizeof laws[0])

struct tally syn_oracle;

/* The oracle: the law's own terms (for a law with two regimes, those of
 * the regime of xq, on the points of that regime when there are more of
 * them than terms, else of the other regime) fitted by relative least
 * squares to the means of the points, as `auto` fits its law, and scored
 * at xq against the truth. What knowing the law is worth on a design: the
 * ceiling of any selection among laws (eval/RECORD.md §10). */
static void oracle(const struct law *L, const double *x, const double *y, size_t n,
                   const double *xq, const double *tr, struct tally *t)
{
    struct agg_point ap[32];
    struct fit_point pts[32];
    struct fit_term term[3];
    struct fit_model mod;
    struct err e = {0};
    int np, k;

    np = agg_points(x, y, n, AGG_MEAN, ap, &e);
    for (k = 0; k < 2; k++) {
        size_t m = 0, above = 0, j;
        int up, nt, q;
        double yq;
        for (j = 0; np > 0 && j < (size_t)np; j++)
            above += L->cut > 0 && ap[j].x >= L->cut;
        up = L->cut > 0 && xq[k] >= L->cut && (int)above > L->nt_up + 1;
        nt = up ? L->nt_up : L->nt;
        memset(term, 0, sizeof term);
        for (q = 0; q < nt; q++) {
            term[q + 1].expo[0] = up ? L->e_up[q] : L->e[q];
            term[q + 1].logp[0] = up ? L->l_up[q] : L->l[q];
        }
        for (j = 0; np > 0 && j < (size_t)np; j++) {
            int hi = L->cut > 0 && ap[j].x >= L->cut;
            if (L->cut > 0 && hi != up && (up || (size_t)np - above > (size_t)nt + 1))
                continue;
            memset(&pts[m], 0, sizeof pts[m]);
            pts[m].x[0] = ap[j].x;
            pts[m].y = ap[j].y;
            pts[m].n = ap[j].n;
            m++;
        }
        if (np < 0 || fit_terms(pts, m, 1, term, nt + 1, 1, &mod, &e) < 0 ||
            fit_eval(&mod, &xq[k], &yq, &e) < 0) {
            t->failed++;
            continue;
        }
        tally_add(t, fabs(yq - tr[k]) / tr[k], INFINITY, 0);
    }
}

void synthetic(struct tally *t, int verbose)
{
    struct tally by[4][12][NSEL] = {{{{0}}}}, by_or[4][12] = {{{0}}};
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
                        oracle(L, x, y, n, xq, tr, &syn_oracle);
                        if (verbose) {
                            oracle(L, x, y, n, xq, tr, &by_or[0][a]);
                            oracle(L, x, y, n, xq, tr, &by_or[1][c]);
                            oracle(L, x, y, n, xq, tr, &by_or[2][li]);
                            oracle(L, x, y, n, xq, tr, &by_or[3][outlier]);
                        }
                        if (verbose)
                            for (k = 0; k < NSEL; k++) {
                                score(k, x, y, n, xq, tr, op, nobs, 2, &by[0][a][k],
                                      NULL);
                                score(k, x, y, n, xq, tr, op, nobs, 2, &by[1][c][k],
                                      NULL);
                                score(k, x, y, n, xq, tr, op, nobs, 2, &by[2][li][k],
                                      NULL);
                                score(k, x, y, n, xq, tr, op, nobs, 2, &by[3][outlier][k],
                                      NULL);
                            }
                    }
    if (!verbose)
        return;
    for (a = 0; a < 4; a++)
        for (b = 0; b < (a == 0 || a == 1 ? 4 : a == 2 ? NLAWS : 2); b++)
            for (c = 0; c < NSEL; c++) {
                if (a == 0)
                    snprintf(label, sizeof label, "%d points", npts[b]);
                else if (a == 1)
                    snprintf(label, sizeof label, "noise %.0f%%", 100 * noise[b]);
                else if (a == 2)
                    snprintf(label, sizeof label, "%.24s", laws[b].name);
                else
                    snprintf(label, sizeof label, "%s", b ? "an outlier" : "no outlier");
                print_row(label, sel_name[c], &by[a][b][c]);
                tally_free(&by[a][b][c]);
                if (c == NSEL - 1) {
                    print_row(label, "law", &by_or[a][b]);
                    tally_free(&by_or[a][b]);
                }
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
void synthetic2(struct tally *t)
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

/* The two cases issue 13 names, printed in full: `auto` and Extra-P's rule. */
void named_cases(void)
{
    double x[64], y[64], xq[3], tr[3], o[3][1], *op[3], pred[2][3];
    size_t n, k, nobs[3] = {1, 1, 1};
    struct tally t[2] = {{0}};
    int sel;

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
    for (sel = 0; sel < 2; sel++)
        score(sel, x, y, n, xq, tr, op, nobs, 1, &t[sel], pred[sel]);
    printf("weak scaling 5+0.1sqrt(p)+0.3log2p, p=4..256, at p=1024 (truth %.3f): "
           "auto %.4g, xp %.4g\n",
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
    for (sel = 0; sel < 2; sel++)
        score(sel, x, y, n, xq, tr, op, nobs, 2, &t[sel], pred[sel]);
    printf("200/p+0.5log2p+1, p<=64, 5%% noise, at p=128/256 (truth %.3f/%.3f): "
           "auto %.4g/%.4g, xp %.4g/%.4g\n",
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
                for (sel = 0; sel < 2; sel++) {
                    if (score(sel, x, y, q, xq, tr, op, nobs, nq, &t[sel], pred[sel]) < 0)
                        continue;
                    for (k = 0; k < nq; k++)
                        if (fabs(pred[sel][k] - tr[k]) / tr[k] > worst[sel]) {
                            worst[sel] = fabs(pred[sel][k] - tr[k]) / tr[k];
                            wp[sel] = pred[sel][k];
                        }
                }
            }
            printf("%s, 40 draws of 1 observation per point at 1-5%% noise: worst "
                   "relative error auto %.3g (predicted %.4g), xp %.3g (predicted "
                   "%.4g)\n",
                   lawi ? "200/p+0.5log2p+1 on p<=64" : "weak scaling on p=4..256",
                   worst[0], wp[0], worst[1], wp[1]);
        }
    }
    for (sel = 0; sel < 2; sel++) {
        xfree(t[sel].err);
        xfree(t[sel].width);
    }
}
