/* Unit tests for models/fit: graph types, statistics, intervals, `unknown`,
 * `auto` (one and two variables), formulas and degenerate data. Noise comes
 * from a fixed-seed xorshift generator so every run sees the same numbers. */
#include "common/buf.h"
#include "common/err.h"
#include "common/xalloc.h"
#include "models/fit.h"
#include "models/fit_cand.h"
#include "tests/harness.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* |a - b| <= tol * |b|: relative, for coefficients of any magnitude. */
#define CHECK_REL(a, b, tol)                                                             \
    do {                                                                                 \
        double hra_ = (a), hrb_ = (b), hrt_ = (tol);                                     \
        if (!(fabs(hra_ - hrb_) <= hrt_ * fabs(hrb_))) {                                 \
            fprintf(stderr, "%s:%d: %s == %.10g, expected %.10g (rel tol %g)\n",         \
                    __FILE__, __LINE__, #a, hra_, hrb_, hrt_);                           \
            harness_cur_failed = 1;                                                      \
        }                                                                                \
    } while (0)

/* ---- deterministic noise: xorshift64* and Box-Muller ---- */

static uint64_t rng_state = 88172645463325252ULL;

static void rng_seed(uint64_t s)
{
    rng_state = s ? s : 1;
}

static double rng_uniform(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return ((rng_state * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

static double rng_gauss(void)
{
    double u1 = rng_uniform(), u2 = rng_uniform();
    if (u1 < 1e-300)
        u1 = 1e-300;
    return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

static int run1(const double *x, const double *y, size_t n, const char *graph,
                struct fit_result *r, struct err *e)
{
    struct fit_input in = {1, x, y, n, graph, AGG_MEAN, NULL};
    return fit_run(&in, r, e);
}

static int finite_result(const struct fit_result *r)
{
    int ok = isfinite(r->stats.rss) && isfinite(r->stats.r2) &&
             isfinite(r->stats.adj_r2) && isfinite(r->stats.rmse) &&
             isfinite(r->stats.smape) && isfinite(r->stats.cv_rmse) &&
             isfinite(r->model.s2);
    int j;
    size_t i;
    for (j = 0; j < r->model.nterms; j++)
        ok &= isfinite(r->model.coef[j]);
    for (i = 0; i < r->npoints; i++)
        ok &= isfinite(r->points[i].yhat) && isfinite(r->points[i].resid);
    return ok;
}

/* ---- graph names ---- */

static void test_graph_parse(void)
{
    static const struct {
        const char *s;
        enum fit_graph g;
    } cases[] = {{"poly1", FIT_POLY1},
                 {"linear", FIT_POLY1},
                 {"quadratic", FIT_POLY1 + 1},
                 {"cubic", FIT_POLY1 + 2},
                 {"4th", FIT_POLY1 + 3},
                 {"5th", FIT_POLY1 + 4},
                 {"6th", FIT_POLY6},
                 {"inv1", FIT_INV1},
                 {"inverse linear", FIT_INV1},
                 {"inverse quadratic", FIT_INV1 + 1},
                 {"inverse cubic", FIT_INV1 + 2},
                 {"inverse 4th", FIT_INV1 + 3},
                 {"inverse 5th", FIT_INV1 + 4},
                 {"inverse 6th", FIT_INV6},
                 {"inv6", FIT_INV6},
                 {"unknown", FIT_UNKNOWN},
                 {"auto", FIT_AUTO}};
    size_t i;
    enum fit_graph g;
    struct err e = {0};

    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK_INT(fit_graph_parse(cases[i].s, &g, NULL), 0);
        CHECK_INT(g, cases[i].g);
    }
    CHECK_STR(fit_graph_name(FIT_POLY1 + 2), "poly3");
    CHECK_STR(fit_graph_name(FIT_INV1 + 1), "inv2");
    CHECK_INT(fit_graph_parse("septic", &g, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    CHECK_STR(e.code, "invalid");
    CHECK_STR(e.field, "graph");
}

/* ---- exact recovery of every type ---- */

static void test_exact_every_type(void)
{
    int gi;

    for (gi = FIT_POLY1; gi <= FIT_INV6; gi++) {
        int inv = gi >= FIT_INV1, k = inv ? gi - FIT_INV1 + 1 : gi - FIT_POLY1 + 1, j;
        double a[FIT_MAX_TERMS], x[12], y[12];
        struct fit_result r;
        struct err e = {0};
        size_t i;

        for (j = 0; j <= k; j++)
            a[j] = (j % 2 ? -0.5 : 1.0) * (j + 1.5);
        for (i = 0; i < 12; i++) {
            x[i] = 1 + 0.75 * (double)i;
            y[i] = 0;
            for (j = 0; j <= k; j++)
                y[i] += a[j] * pow(x[i], inv ? -j : j);
        }
        if (run1(x, y, 12, fit_graph_name((enum fit_graph)gi), &r, &e) < 0) {
            fprintf(stderr, "type %d: %s\n", gi, e.message);
            CHECK(0);
            continue;
        }
        CHECK_INT(r.model.graph, gi);
        CHECK_INT(r.model.chosen, gi);
        CHECK_INT(r.model.nterms, k + 1);
        for (j = 0; j <= k; j++)
            CHECK_REL(r.model.coef[j], a[j], 1e-8);
        CHECK(r.stats.rss < 1e-16);
        CHECK_NEAR(r.stats.r2, 1, 1e-12);
        CHECK(finite_result(&r));
        fit_result_free(&r);
    }
}

/* ---- the paper's matrix multiplication example ---- */

static double matmul_law(double n)
{
    return 2e-9 * n * n * n + 1e-6 * n * n + 1e-4 * n + 0.01;
}

static void test_matmul_cubic(void)
{
    double x[10], y[10], yp, lo, hi, truth = matmul_law(1200);
    struct fit_result r;
    struct err e = {0};
    int i;

    rng_seed(42);
    for (i = 0; i < 10; i++) {
        x[i] = 100.0 * (i + 1);
        y[i] = matmul_law(x[i]) * (1 + 0.001 * rng_gauss());
    }
    CHECK_INT(run1(x, y, 10, "cubic", &r, &e), 0);
    CHECK_INT(r.model.chosen, FIT_POLY1 + 2);
    CHECK_INT(r.model.nterms, 4);
    CHECK_REL(r.model.coef[3], 2e-9, 0.02);
    CHECK_REL(r.model.coef[2], 1e-6, 0.5);
    CHECK(r.stats.r2 > 0.9999);
    CHECK(r.model.has_interval);
    CHECK_INT(fit_predict(&r.model, (double[]){1200}, &yp, &lo, &hi, &e), 0);
    CHECK(lo <= truth && truth <= hi);
    CHECK(lo < yp && yp < hi);
    CHECK_REL(yp, truth, 0.01);
    printf(
        "     matmul cubic: a3 = %.4g, predict(1200) = %.4f [%.4f, %.4f], truth %.4f\n",
        r.model.coef[3], yp, lo, hi, truth);
    fit_result_free(&r);
}

/* ---- unknown = least residual norm of the 12 ---- */

static void test_unknown_is_min_rss(void)
{
    double x[9], y[9], best = INFINITY;
    struct fit_result r, u;
    int gi, bestg = 0, i, seed;

    for (seed = 1; seed <= 3; seed++) {
        rng_seed((uint64_t)seed * 7);
        for (i = 0; i < 9; i++) {
            x[i] = 2 + i;
            y[i] = (seed == 1   ? 100 / x[i] + 2
                    : seed == 2 ? 3 + 0.5 * x[i] * log2(x[i])
                                : 5 - 0.2 * x[i]) *
                   (1 + 0.02 * rng_gauss());
        }
        best = INFINITY;
        for (gi = FIT_POLY1; gi <= FIT_INV6; gi++) {
            if (run1(x, y, 9, fit_graph_name((enum fit_graph)gi), &r, NULL) < 0)
                continue;
            if (r.stats.rss < best) {
                best = r.stats.rss;
                bestg = gi;
            }
            fit_result_free(&r);
        }
        CHECK_INT(run1(x, y, 9, "unknown", &u, NULL), 0);
        CHECK_INT(u.model.graph, FIT_UNKNOWN);
        CHECK_NEAR(u.stats.rss, best, 1e-9);
        CHECK(u.stats.rss <= best * (1 + 1e-9) + 1e-15);
        CHECK_INT(u.model.chosen, bestg);
        fit_result_free(&u);
    }
}

/* ---- auto ---- */

struct law {
    const char *name;
    double (*f)(double);
    double lo, hi; /* x range; points are geometric when geo, else linear */
    int geo, npts; /* geo: 1 = doubling from lo, 2 = factors of sqrt(2), 0 = linear */
    int nterms;    /* expected number of non-constant terms */
    struct {
        double e;
        int l;
        double c;
    } t[2];
    double c0;
};

static double law_plogp(double p)
{
    return 3 + 0.5 * p * log2(p);
}
static double law_inv(double p)
{
    return 100 / p + 2;
}
static double law_inv_log(double p)
{
    return 200 / p + 0.5 * log2(p) + 1;
}
static double law_inv_lin(double p)
{
    return 500 / p + 0.05 * p + 1;
}
static double law_cubic(double n)
{
    return 2e-9 * n * n * n + 1e-6 * n * n + 0.01;
}

static const struct law laws[] = {
    {"3 + 0.5 p log2 p", law_plogp, 2, 64, 1, 6, 1, {{1, 1, 0.5}, {0, 0, 0}}, 3},
    {"100/p + 2", law_inv, 2, 64, 1, 6, 1, {{-1, 0, 100}, {0, 0, 0}}, 2},
    {"200/p + 0.5 log2 p + 1",
     law_inv_log,
     2,
     64,
     2,
     11,
     2,
     {{0, 1, 0.5}, {-1, 0, 200}},
     1},
    {"500/p + 0.05 p + 1", law_inv_lin, 2, 64, 1, 6, 2, {{1, 0, 0.05}, {-1, 0, 500}}, 1},
    {"2e-9 n^3 + 1e-6 n^2 + 0.01",
     law_cubic,
     100,
     1000,
     0,
     10,
     2,
     {{3, 0, 2e-9}, {2, 0, 1e-6}},
     0.01},
};

static void fit_law(const struct law *L, double noise, int reps, uint64_t seed,
                    struct fit_result *r, int *ok)
{
    double x[64 * 5], y[64 * 5];
    size_t n = 0;
    int i, k;
    struct err e = {0};

    rng_seed(seed);
    for (i = 0; i < L->npts; i++) {
        double xv = L->geo == 1   ? L->lo * pow(2, i)
                    : L->geo == 2 ? L->lo * pow(2, 0.5 * i)
                                  : L->lo + (L->hi - L->lo) * i / (L->npts - 1);
        for (k = 0; k < reps; k++) {
            x[n] = xv;
            y[n] = L->f(xv) * (1 + noise * rng_gauss());
            n++;
        }
    }
    *ok = run1(x, y, n, "auto", r, &e) == 0;
    if (!*ok)
        fprintf(stderr, "%s: %s\n", L->name, e.message);
}

/* Which (law, noise) cases must recover the law; the others are printed as
 * measured limits (docs/models.md (curve fitting)): at 3-5 % noise on these few points
 * the lack-of-fit test cannot tell 0.5 log2 p from a small linear term, nor
 * 0.05 p + 500/p from 500/p alone, nor n^3 + n^2 from n^(5/2). */
/* 500/p + 0.05 p + 1 at 3 % noise: 8.8 % off at 2x/4x before `auto`'s fit
 * leaned toward the largest x (eval/RECORD.md §18), 11.9 % since (its
 * constant fitted 0.69 against 1); the lean adopted on the synthetic laws
 * as a whole (1666 -> 1751 of 3456 within 10 %) and on a set nobody had
 * seen, this one draw now misses the 10 % asked here. */
static const int must_recover[5][3] = {
    {1, 1, 1}, {1, 1, 1}, {1, 0, 0}, {1, 0, 0}, {1, 1, 0}};

static void test_auto_recovers_laws(void)
{
    static const double noises[] = {0.01, 0.03, 0.05};
    size_t li, ni;

    for (li = 0; li < sizeof laws / sizeof laws[0]; li++)
        for (ni = 0; ni < 3; ni++) {
            const struct law *L = &laws[li];
            struct fit_result r;
            struct buf b;
            int ok, j, k, form = 1;
            double xs[2] = {2 * L->hi, 4 * L->hi}, worst = 0;

            fit_law(L, noises[ni], 4, 1000 + li * 10 + ni, &r, &ok);
            CHECK(ok);
            if (!ok)
                continue;
            form = r.model.nterms == L->nterms + 1;
            for (j = 0; form && j < L->nterms; j++) {
                int found = 0;
                for (k = 1; k < r.model.nterms; k++)
                    if (r.model.term[k].expo[0] == L->t[j].e &&
                        r.model.term[k].logp[0] == L->t[j].l) {
                        found = 1;
                        /* within 15 %: the leading term is within a few
                         * percent, a small second term is less certain */
                        if (fabs(r.model.coef[k] - L->t[j].c) > 0.15 * fabs(L->t[j].c))
                            form = 2;
                    }
                if (!found)
                    form = 0;
            }
            for (j = 0; j < 2; j++) {
                double yp, lo, hi;
                if (fit_predict(&r.model, &xs[j], &yp, &lo, &hi, NULL) == 0) {
                    double rel = fabs(yp - L->f(xs[j])) / L->f(xs[j]);
                    worst = rel > worst ? rel : worst;
                } else {
                    worst = INFINITY;
                }
            }
            buf_init(&b, 1024);
            fit_formula(&r.model, (const char *const[]){L->geo ? "p" : "n"}, &b);
            printf("     %-28s noise %2.0f%%: %-46s err at 2x/4x <= %.1f%%%s%s\n",
                   L->name, noises[ni] * 100, buf_str(&b), worst * 100,
                   form == 1   ? ""
                   : form == 2 ? "  [coef off]"
                               : "  [other form]",
                   must_recover[li][ni] ? "" : "  (measured limit, not required)");
            buf_free(&b);
            if (must_recover[li][ni]) {
                CHECK(form == 1);
                CHECK(worst < 0.10);
            }
            CHECK_INT(r.model.graph, FIT_AUTO);
            CHECK(finite_result(&r));
            fit_result_free(&r);
        }
}

/* Noise-free data gives the law exactly, and `auto` names paper types. */
static void test_auto_exact_and_naming(void)
{
    double x[8], y[8];
    struct fit_result r;
    int i;

    for (i = 0; i < 8; i++) {
        x[i] = i + 1;
        y[i] = 4 - 3 * x[i] + 0.5 * x[i] * x[i];
    }
    CHECK_INT(run1(x, y, 8, "auto", &r, NULL), 0);
    CHECK_INT(r.model.chosen, FIT_POLY1 + 1);
    CHECK_INT(r.model.nterms, 3);
    CHECK_NEAR(r.model.coef[0], 4, 1e-9);
    CHECK_NEAR(r.model.coef[1], -3, 1e-9);
    CHECK_NEAR(r.model.coef[2], 0.5, 1e-9);
    fit_result_free(&r);
    /* x <= 0: only integer non-negative powers are candidates */
    for (i = 0; i < 8; i++) {
        x[i] = i - 3;
        y[i] = 1 + 2 * x[i];
    }
    CHECK_INT(run1(x, y, 8, "auto", &r, NULL), 0);
    CHECK_INT(r.model.chosen, FIT_POLY1);
    CHECK_NEAR(r.model.coef[1], 2, 1e-9);
    fit_result_free(&r);
    /* constant data: the constant model */
    for (i = 0; i < 8; i++) {
        x[i] = i + 1;
        y[i] = 7;
    }
    CHECK_INT(run1(x, y, 8, "auto", &r, NULL), 0);
    CHECK_INT(r.model.nterms, 1);
    CHECK_NEAR(r.model.coef[0], 7, 1e-12);
    fit_result_free(&r);
    /* three points, as in SPEC's coupling example */
    CHECK_INT(run1((double[]){4, 9, 16}, (double[]){2.0, 1.1, 0.8}, 3, "auto", &r, NULL),
              0);
    CHECK(r.model.nterms <= 2);
    CHECK(finite_result(&r));
    fit_result_free(&r);
}

/* What `unknown` and `auto` predict at 4x the measured range (docs). */
static void test_unknown_vs_auto_extrapolation(void)
{
    const struct law *L = &laws[2];
    double x[6 * 4], y[6 * 4], xp = 4 * L->hi, yu, ya, lo, hi;
    struct fit_result u, a;
    size_t n = 0;
    int i, k;

    rng_seed(2024);
    for (i = 0; i < 6; i++)
        for (k = 0; k < 4; k++) {
            x[n] = L->lo * pow(2, i);
            y[n] = L->f(x[n]) * (1 + 0.03 * rng_gauss());
            n++;
        }
    CHECK_INT(run1(x, y, n, "unknown", &u, NULL), 0);
    CHECK_INT(run1(x, y, n, "auto", &a, NULL), 0);
    CHECK_INT(fit_predict(&u.model, &xp, &yu, &lo, &hi, NULL), 0);
    CHECK_INT(fit_predict(&a.model, &xp, &ya, &lo, &hi, NULL), 0);
    printf("     at p = %g (truth %.4g): unknown (%s, rss %.4g) predicts %.4g; auto (rss "
           "%.4g) predicts %.4g\n",
           xp, L->f(xp), fit_graph_name(u.model.chosen), u.stats.rss, yu, a.stats.rss,
           ya);
    CHECK(u.stats.rss <= a.stats.rss);
    CHECK(fabs(ya - L->f(xp)) < fabs(yu - L->f(xp)));
    fit_result_free(&u);
    fit_result_free(&a);
}

/* ---- two parameters ---- */

static double law2(double n, double p)
{
    return 2e-9 * n * n * n / p + 1e-4 * n * log2(p) + 0.1;
}

static void test_two_param(void)
{
    double x[25 * 2 * 3], y[25 * 3], xp[2] = {2000, 128}, yp, lo, hi;
    struct fit_result r;
    struct err e = {0};
    struct buf b;
    size_t n = 0;
    int i, j, k, f1 = 0, f2 = 0, reps;

    for (reps = 1; reps <= 3; reps += 2) {
        rng_seed(77 + (uint64_t)reps);
        n = 0;
        for (i = 0; i < 5; i++)
            for (j = 0; j < 5; j++)
                for (k = 0; k < reps; k++) {
                    x[2 * n] = 200 + 200 * i;
                    x[2 * n + 1] = 2 << (j);
                    y[n] = law2(x[2 * n], x[2 * n + 1]) * (1 + 0.01 * rng_gauss());
                    n++;
                }
        {
            struct fit_input in = {2, x, y, n, "auto", AGG_MEAN, NULL};
            CHECK_INT(fit_run(&in, &r, &e), 0);
        }
        if (e.status) {
            fprintf(stderr, "two-param: %s\n", e.message);
            return;
        }
        buf_init(&b, 1024);
        fit_formula(&r.model, (const char *const[]){"N", "P"}, &b);
        printf("     two-parameter (%d rep): %s\n", reps, buf_str(&b));
        buf_free(&b);
        CHECK_INT(r.model.nterms, 3);
        CHECK_INT(r.npoints, 25);
        f1 = f2 = 0;
        for (k = 1; k < r.model.nterms; k++) {
            const struct fit_term *t = &r.model.term[k];
            if (t->expo[0] == 3 && t->logp[0] == 0 && t->expo[1] == -1 &&
                t->logp[1] == 0) {
                f1 = 1;
                CHECK_REL(r.model.coef[k], 2e-9, 0.03);
            }
            if (t->expo[0] == 1 && t->logp[0] == 0 && t->expo[1] == 0 &&
                t->logp[1] == 1) {
                f2 = 1;
                CHECK_REL(r.model.coef[k], 1e-4, 0.05);
            }
        }
        CHECK(f1 && f2);
        CHECK_INT(fit_predict(&r.model, xp, &yp, &lo, &hi, NULL), 0);
        CHECK_REL(yp, law2(xp[0], xp[1]), 0.10);
        {
            /* The two-variable interval beyond the data (fit.c,
             * eval/RECORD.md §8, §52): log half-width
             * sqrt(2 t^2 ln(1 + n2) + (0.5 d)^2), n2 the classical relative
             * variance (t^2 n2 = ((ch - y) / y)^2) read as a log variance,
             * xunc not entering; inside the data t sqrt(ln(1 + n2)). 4000
             * is 2 doublings beyond N = 1000, 128 two beyond P = 32. */
            double qa[2] = {4000, 32}, qb[2] = {1000, 128}, qi[2] = {600, 8};
            double y0, l0, h0, y1, l1, h1, cl, ch, z, tq, n2;
            struct fit_model m = r.model;
            CHECK(m.relative && m.xunc > 0);
            CHECK_INT(fit_predict(&m, qa, &y0, &cl, &ch, NULL), 0);
            CHECK_INT(fit_predict_ext(&m, qa, &y1, &l1, &h1, NULL), 0);
            z = log(h1 / y1);
            tq = gsl_cdf_tdist_Pinv(0.975, (double)m.dof);
            n2 = ((ch - y0) / y0 / tq) * ((ch - y0) / y0 / tq);
            CHECK_REL(z * z - 1, 2 * tq * tq * log1p(n2), 1e-9);
            CHECK(z * z - 1 < 2 * ((ch - y0) / y0) * ((ch - y0) / y0));
            CHECK_REL(l1 * h1, y1 * y1, 1e-12);
            CHECK_INT(fit_predict(&m, qi, &y0, &cl, &ch, NULL), 0);
            CHECK_INT(fit_predict_ext(&m, qi, &y1, &l1, &h1, NULL), 0);
            n2 = ((ch - y0) / y0 / tq) * ((ch - y0) / y0 / tq);
            CHECK_REL(log(h1 / y1), tq * sqrt(log1p(n2)), 1e-9);
            m.s2 = 0;
            for (k = 0; k < 2; k++) {
                m.xunc = k ? 3 : 0.1;
                CHECK_INT(fit_predict_ext(&m, qa, &y0, &l0, &h0, NULL), 0);
                CHECK_INT(fit_predict_ext(&m, qb, &y1, &l1, &h1, NULL), 0);
                CHECK_REL(log(h0 / y0), 1, 1e-12);
                CHECK_REL(log(y1 / l1), 1, 1e-12);
            }
            CHECK_INT(fit_predict_ext(&m, qi, &y0, &l0, &h0, NULL), 0);
            CHECK(l0 == y0 && h0 == y0);
        }
        fit_result_free(&r);
    }
}

/* A 3 x 3 grid (the smallest a user is likely to measure) of two laws in
 * the hypothesis class, noise-free: each must come back exactly. The
 * screening used to skip slices of fewer than 4 points and so fell back to
 * mixing all points, which gave a constant (R2 < 0) for the first law. */
static void test_two_param_small_grid(void)
{
    static const double ns[3] = {200, 400, 800}, ps[3] = {2, 4, 8};
    double x[18], y[9], xp[2] = {2000, 64}, yp, lo, hi;
    struct fit_result r;
    struct err e = {0};
    int law, i, j, n;

    for (law = 0; law < 2; law++) {
        n = 0;
        for (i = 0; i < 3; i++)
            for (j = 0; j < 3; j++) {
                x[2 * n] = ns[i];
                x[2 * n + 1] = ps[j];
                y[n] = 0.01 + 1e-9 * ns[i] * ns[i] * ns[i] *
                                  (law == 0 ? log2(ps[j]) : 1 / ps[j]);
                n++;
            }
        {
            struct fit_input in = {2, x, y, (size_t)n, "auto", AGG_MEAN, NULL};
            CHECK_INT(fit_run(&in, &r, &e), 0);
        }
        if (e.status)
            return;
        CHECK_INT(r.model.nterms, 2);
        CHECK(r.model.term[1].expo[0] == 3 && r.model.term[1].logp[0] == 0);
        if (law == 0)
            CHECK(r.model.term[1].expo[1] == 0 && r.model.term[1].logp[1] == 1);
        else
            CHECK(r.model.term[1].expo[1] == -1 && r.model.term[1].logp[1] == 0);
        CHECK_INT(fit_predict(&r.model, xp, &yp, &lo, &hi, NULL), 0);
        CHECK_REL(yp, law == 0 ? 48.01 : 0.135, 1e-9);
        fit_result_free(&r);
    }
}

/* ---- prediction interval coverage ---- */

static void coverage(int reps, int npts, double *rate)
{
    int draw, hits = 0, draws = 1000;

    rng_seed(99 + (uint64_t)reps);
    for (draw = 0; draw < draws; draw++) {
        double x[40], y[40], xp = 1.5 * npts, yp, lo, hi, fresh;
        struct fit_result r;
        size_t n = 0;
        int i, k;

        for (i = 0; i < npts; i++)
            for (k = 0; k < reps; k++) {
                x[n] = i + 1;
                y[n] = 2 + 3 * x[n] + 0.5 * rng_gauss();
                n++;
            }
        if (run1(x, y, n, "linear", &r, NULL) < 0 ||
            fit_predict(&r.model, &xp, &yp, &lo, &hi, NULL) < 0) {
            CHECK(0);
            return;
        }
        fresh = 2 + 3 * xp + 0.5 * rng_gauss();
        hits += lo <= fresh && fresh <= hi;
        fit_result_free(&r);
    }
    *rate = (double)hits / draws;
}

static void test_interval_coverage(void)
{
    double c1, c3;

    coverage(1, 8, &c1);
    coverage(3, 6, &c3);
    printf("     95%% interval coverage of a fresh observation: %.1f%% (no repetitions), "
           "%.1f%% (3 repetitions)\n",
           c1 * 100, c3 * 100);
    CHECK(c1 >= 0.93 && c1 <= 0.97);
    CHECK(c3 >= 0.93 && c3 <= 0.97);
}

/* ---- exact fit, statistics ---- */

static void test_exact_fit_has_no_interval(void)
{
    struct fit_result r;
    double y, lo, hi;

    CHECK_INT(run1((double[]){1, 2, 3}, (double[]){1, 4, 9}, 3, "quadratic", &r, NULL),
              0);
    CHECK_INT(r.model.has_interval, 0);
    CHECK_INT(r.model.dof, 0);
    CHECK_INT(fit_predict(&r.model, (double[]){4}, &y, &lo, &hi, NULL), 0);
    CHECK_NEAR(y, 16, 1e-9);
    CHECK(lo == y && hi == y);
    CHECK(finite_result(&r));
    fit_result_free(&r);
    /* repetitions give degrees of freedom even with 3 distinct x */
    CHECK_INT(run1((double[]){1, 1, 2, 2, 3, 3}, (double[]){1, 1.2, 4, 4.2, 9, 9.2}, 6,
                   "quadratic", &r, NULL),
              0);
    CHECK_INT(r.model.has_interval, 1);
    CHECK_INT(r.model.dof, 3);
    CHECK_INT(r.npoints, 3);
    CHECK_NEAR(r.points[0].y, 1.1, 1e-12);
    CHECK_INT(r.points[0].n, 2);
    fit_result_free(&r);
}

static void test_statistics(void)
{
    double x[] = {1, 2, 3, 4}, y[] = {1, 3, 2, 4}, smape = 0;
    struct fit_result r;
    size_t i;

    CHECK_INT(run1(x, y, 4, "linear", &r, NULL), 0);
    /* y = 0.5 + 0.8 x; residuals -0.3, 0.9, -0.9, 0.3 */
    CHECK_NEAR(r.model.coef[0], 0.5, 1e-12);
    CHECK_NEAR(r.model.coef[1], 0.8, 1e-12);
    CHECK_NEAR(r.stats.rss, 1.8, 1e-12);
    CHECK_NEAR(r.stats.resnorm, sqrt(1.8), 1e-12);
    CHECK_NEAR(r.stats.r2, 1 - 1.8 / 5, 1e-12);
    CHECK_NEAR(r.stats.adj_r2, 1 - (1.8 / 5) * 3 / 2, 1e-12);
    CHECK_NEAR(r.stats.rmse, sqrt(1.8 / 4), 1e-12);
    for (i = 0; i < 4; i++)
        smape += 200 * fabs(r.points[i].resid) / (fabs(y[i]) + fabs(r.points[i].yhat));
    CHECK_NEAR(r.stats.smape, smape / 4, 1e-12);
    CHECK_NEAR(r.points[1].resid, 0.9, 1e-12);
    CHECK(r.stats.cv_rmse > r.stats.rmse);
    CHECK_NEAR(r.model.s2, 1.8 / 2, 1e-12);
    fit_result_free(&r);
}

/* ---- formulas ---- */

static void test_formulas(void)
{
    struct fit_model m;
    struct buf b;

    memset(&m, 0, sizeof m);
    m.nvars = 1;
    m.nterms = 4;
    m.coef[0] = 0.61;
    m.coef[1] = 1.2e-05;
    m.term[1].expo[0] = 3;
    m.coef[2] = 2.5;
    m.term[2].expo[0] = 0.5;
    m.term[2].logp[0] = 1;
    m.coef[3] = -3;
    m.term[3].expo[0] = -2;
    buf_init(&b, 1024);
    CHECK_INT(fit_machine_formula(&m, (const char *const[]){"N"}, &b), 0);
    CHECK_STR(buf_str(&b), "0.61+1.2e-05*N^3+2.5*N^(1/2)*log2(N)-3/N^2");
    buf_reset(&b);
    CHECK_INT(fit_formula(&m, (const char *const[]){"N"}, &b), 0);
    CHECK_STR(
        buf_str(&b),
        "y = 0.61 + 1.2e-05\xc2\xb7N^3 + 2.5\xc2\xb7N^(1/2)\xc2\xb7log2(N) - 3/N^2");
    buf_reset(&b);
    m.nvars = 2;
    m.nterms = 3;
    m.coef[0] = -0.1;
    m.coef[1] = 2e-9;
    m.term[1].expo[0] = 3;
    m.term[1].expo[1] = -1;
    m.term[1].logp[0] = 0;
    m.coef[2] = 1e-4;
    m.term[2].expo[0] = 1;
    m.term[2].logp[0] = 0;
    m.term[2].logp[1] = 1;
    CHECK_INT(fit_machine_formula(&m, (const char *const[]){"N", "P"}, &b), 0);
    CHECK_STR(buf_str(&b), "-0.1+2e-09*N^3/P+0.0001*N*log2(P)");
    buf_reset(&b);
    CHECK_INT(fit_machine_formula(&m, NULL, &b), 0);
    CHECK(strstr(buf_str(&b), "x1^3/x2") != NULL);
    buf_free(&b);
}

/* A model survives a copy (as after storing and loading it) with intervals. */
static void test_model_is_a_value(void)
{
    double x[] = {1, 2, 3, 4, 5, 6}, y[] = {10.2, 5.1, 3.2, 2.6, 2.1, 1.6};
    double y1, lo1, hi1, y2, lo2, hi2;
    struct fit_result r;
    struct fit_model copy;

    CHECK_INT(run1(x, y, 6, "inv1", &r, NULL), 0);
    memcpy(&copy, &r.model, sizeof copy);
    fit_result_free(&r);
    CHECK_INT(fit_model_check(&copy, NULL), 0);
    CHECK_INT(fit_predict(&copy, (double[]){12}, &y1, &lo1, &hi1, NULL), 0);
    CHECK_INT(fit_predict(&copy, (double[]){12}, &y2, &lo2, &hi2, NULL), 0);
    CHECK(y1 == y2 && lo1 == lo2 && hi1 == hi2 && lo1 < y1 && y1 < hi1);
    copy.coef[1] = NAN;
    CHECK_INT(fit_model_check(&copy, NULL), -1);
}

/* ---- degenerate data ---- */

static void expect_err(const double *x, const double *y, size_t n, int nvars,
                       const char *graph, enum err_code status, const char *code,
                       int line)
{
    struct fit_input in = {nvars, x, y, n, graph, AGG_MEAN, NULL};
    struct fit_result r;
    struct err e = {0};
    int rc = fit_run(&in, &r, &e);

    if (rc != -1 || e.status != status || strcmp(e.code, code) != 0 ||
        e.message[0] == 0) {
        fprintf(stderr,
                "%s:%d: graph %s: rc %d status %d code \"%s\" (%s), expected %d %s\n",
                __FILE__, line, graph, rc, e.status, e.code, e.message, status, code);
        harness_cur_failed = 1;
    }
    CHECK(r.points == NULL);
}

#define EXPECT_ERR(x, y, n, nv, g, st, c) expect_err(x, y, n, nv, g, st, c, __LINE__)

static void test_degenerate(void)
{
    double x4[] = {1, 2, 3, 4}, y4[] = {1, 2, 3, 5}, y;
    double xe[] = {3, 3, 3, 3}, xz[] = {0, 1, 2, 3}, xn[] = {-1, 1, 2, 3};
    double x3[] = {1, 1, 2}, y3[] = {1, 2, 3}, xc[] = {1, 5, 2, 5, 3, 5, 4, 5};
    double x2d[] = {1, 2, 2, 3, 3, 4, 4, 5};
    double ynan[] = {1, NAN, 3, 4}, yinf[] = {1, 2, INFINITY, 4};
    double *big;
    size_t i;
    struct fit_result r;
    struct err e = {0};

    EXPECT_ERR(x4, y4, 4, 1, "poly4", ERR_INVALID, "degenerate");
    EXPECT_ERR(x4, y4, 4, 1, "inv6", ERR_INVALID, "degenerate");
    EXPECT_ERR(x4, y4, 0, 1, "linear", ERR_INVALID, "degenerate");
    EXPECT_ERR(xe, y4, 4, 1, "linear", ERR_INVALID, "degenerate");
    EXPECT_ERR(xe, y4, 4, 1, "auto", ERR_INVALID, "degenerate");
    EXPECT_ERR(xe, y4, 4, 1, "unknown", ERR_INVALID, "degenerate");
    EXPECT_ERR(xz, y4, 4, 1, "inv1", ERR_INVALID, "degenerate");
    EXPECT_ERR(xn, y4, 4, 1, "inverse quadratic", ERR_INVALID, "degenerate");
    EXPECT_ERR(x4, ynan, 4, 1, "linear", ERR_INVALID, "invalid");
    EXPECT_ERR(x4, yinf, 4, 1, "auto", ERR_INVALID, "invalid");
    EXPECT_ERR(ynan, y4, 4, 1, "linear", ERR_INVALID, "invalid");
    EXPECT_ERR(x4, y4, 4, 1, "octic", ERR_INVALID, "invalid");
    EXPECT_ERR(x4, y4, 2, 2, "cubic", ERR_INVALID, "invalid");
    EXPECT_ERR(x4, y4, 4, 3, "auto", ERR_INVALID, "invalid");
    EXPECT_ERR(x3, y3, 3, 1, "auto", ERR_INVALID, "degenerate");
    EXPECT_ERR(xc, y4, 4, 2, "auto", ERR_INVALID, "degenerate");
    big = xmalloc((FIT_MAX_POINTS + 1) * sizeof *big);
    if (big != NULL) {
        for (i = 0; i <= FIT_MAX_POINTS; i++)
            big[i] = (double)i + 1;
        EXPECT_ERR(big, big, FIT_MAX_POINTS + 1, 1, "linear", ERR_TOO_LARGE, "too_large");
        xfree(big);
    }
    /* x <= 0 still works for polynomials; unknown then skips inv types */
    CHECK_INT(run1(xz, y4, 4, "unknown", &r, NULL), 0);
    CHECK(r.model.chosen >= FIT_POLY1 && r.model.chosen <= FIT_POLY6);
    /* predictions outside the domain of an inverse model */
    fit_result_free(&r);
    CHECK_INT(run1(x4, y4, 4, "inv1", &r, NULL), 0);
    CHECK_INT(fit_eval(&r.model, (double[]){0}, &y, &e), -1);
    CHECK_STR(e.code, "invalid");
    CHECK_INT(fit_eval(&r.model, (double[]){-2}, &y, NULL), -1);
    CHECK_INT(fit_eval(&r.model, (double[]){NAN}, &y, NULL), -1);
    fit_result_free(&r);
    /* two-variable data with every graph name but auto is refused */
    EXPECT_ERR(x2d, y4, 4, 2, "unknown", ERR_INVALID, "invalid");
}

/* Every allocation failure is reported, never a crash or a leak. */
static void test_out_of_memory(void)
{
    double x[8 * 2], y[8];
    long nth;
    int i, fails = 0;

    for (i = 0; i < 8; i++) {
        x[2 * i] = 1 + i % 4;
        x[2 * i + 1] = 1 + i / 4;
        y[i] = x[2 * i] * x[2 * i + 1] + 1;
    }
    for (nth = 1; nth < 60; nth++) {
        struct fit_input in = {1, x, y, 8, "auto", AGG_MEAN, NULL};
        struct fit_result r;
        struct err e = {0};
        int v;
        for (v = 1; v <= 2; v++) {
            in.nvars = v;
            in.n = v == 1 ? 8 : 8;
            xalloc_fail_at(nth);
            if (fit_run(&in, &r, &e) == 0) {
                fit_result_free(&r);
            } else {
                fails++;
                CHECK_STR(e.code, "out_of_memory");
            }
            xalloc_fail_at(0);
            memset(&e, 0, sizeof e);
        }
    }
    CHECK(fails > 0);
}

/* ---- issue 13: auto validated for extrapolation, honest intervals ---- */

static double weak_law(double p)
{
    return 5 + 0.1 * sqrt(p) + 0.3 * log2(p);
}

/* The two cases of issue 13 over many seeds: `auto` never picks the paper's
 * high-degree types, predicts the far point sanely, and the interval of
 * fit_predict_ext holds the truth in nearly every draw. */
/* Strong-scaling times over 1 to 1024 processes and more (100/p, 5 + 100/p
 * at every factor 4, 0.5 + 10/sqrt(p) at every factor 8): over a span of 10
 * doublings the one-term rule's law was taken outright, and its terms (no
 * negative exponent) have no falling law but a constant or a subtracted
 * log, so `auto` answered 0.17 (5.17) for every p, and a line in log p. Only
 * a law rising with rising data is taken outright now. */
static double sqrt_law(double p)
{
    return 0.5 + 10 / sqrt(p);
}

static void test_auto_strong_scaling_over_a_wide_span(void)
{
    double x[6], y[6];
    for (int k = 0; k < 3; k++) {
        struct fit_result r;
        struct err e = {0};
        double xq = k < 2 ? 4096 : 32768 * 4.0, yp, lo, hi, want;
        for (int i = 0; i < 6; i++) {
            x[i] = pow(k < 2 ? 4 : 8, i);
            y[i] = k == 0 ? 100 / x[i] : k == 1 ? 5 + 100 / x[i] : sqrt_law(x[i]);
        }
        want = k == 0 ? 100 / xq : k == 1 ? 5 + 100 / xq : sqrt_law(xq);
        CHECK_INT(run1(x, y, 6, "auto", &r, &e), 0);
        CHECK_INT(fit_predict_ext(&r.model, &xq, &yp, &lo, &hi, &e), 0);
        CHECK_NEAR(yp, want, 1e-6 * want);
        fit_result_free(&r);
    }
}

static void test_auto_extrapolates(void)
{
    double x[64], y[64];
    int seed, held = 0, draws = 0, sane = 0;

    for (seed = 0; seed < 40; seed++) {
        struct fit_result r;
        struct err e = {0};
        size_t n = 0;
        int i, k, law = seed % 2;
        rng_seed(7000 + (uint64_t)seed);
        for (i = 0; i < (law ? 6 : 7); i++)
            for (k = 0; k < (law ? 4 : 1); k++) {
                x[n] = law ? 2 * pow(2, i) : 4 * pow(2, i);
                y[n] = (law ? law_inv_log(x[n]) : weak_law(x[n])) *
                       (1 + (law ? 0.05 : 0.01) * rng_gauss());
                n++;
            }
        CHECK_INT(run1(x, y, n, "auto", &r, &e), 0);
        CHECK(r.model.chosen < FIT_POLY1 + 2 || r.model.chosen > FIT_POLY6);
        CHECK(r.model.chosen < FIT_INV1 + 2 || r.model.chosen > FIT_INV6);
        CHECK(r.model.xunc > 0);
        for (k = 0; k < 2; k++) {
            double xq = law ? 128 * pow(2, k) : 1024, yp, lo, hi;
            double truth = law ? law_inv_log(xq) : weak_law(xq);
            CHECK_INT(fit_predict_ext(&r.model, &xq, &yp, &lo, &hi, &e), 0);
            draws++;
            held += lo <= truth && truth <= hi;
            sane += fabs(yp - truth) <= 0.25 * truth;
            CHECK(lo > 0 && lo < yp && yp < hi);
        }
        fit_result_free(&r);
    }
    printf("     issue-13 cases: %d/%d predictions within 25 %%, %d/%d intervals hold "
           "the truth\n",
           sane, draws, held, draws);
    CHECK(sane >= draws * 9 / 10);
    CHECK(held >= draws * 9 / 10);
}

/* Four single points give an honestly wide interval, not a 5 % one. */
static void test_thin_data_is_wide(void)
{
    double x[4] = {2, 4, 8, 16}, y[4], xq = 64, yp, lo, hi;
    struct fit_result r;
    struct err e = {0};
    int i;

    rng_seed(99);
    for (i = 0; i < 4; i++)
        y[i] = law_inv(x[i]) * (1 + 0.05 * rng_gauss());
    CHECK_INT(run1(x, y, 4, "auto", &r, &e), 0);
    CHECK_INT(fit_predict_ext(&r.model, &xq, &yp, &lo, &hi, &e), 0);
    printf("     4 points of 100/p+2 at 5 %%: p=64 -> %.3f [%.3f, %.3f], truth %.3f\n",
           yp, lo, hi, law_inv(64));
    CHECK((hi - lo) / yp > 0.3);
    CHECK(lo <= law_inv(64) && law_inv(64) <= hi);
    fit_result_free(&r);
}

static void test_extrapolation_and_warning(void)
{
    double x[6] = {2, 4, 8, 16, 32, 64}, y[6], xa[5] = {-1, 0, 1, 2, 3}, ya[5];
    double q, yp, lo, hi;
    struct fit_result r;
    struct err e = {0};
    struct buf b;
    int i;

    for (i = 0; i < 6; i++)
        y[i] = law_inv(x[i]) * (1 + 0.01 * (i % 2 ? 1 : -1));
    CHECK_INT(run1(x, y, 6, "auto", &r, &e), 0);
    q = 32;
    CHECK(fit_extrapolation(&r.model, &q) == 0);
    q = 256;
    CHECK_REL(fit_extrapolation(&r.model, &q), 2, 1e-12);
    q = 1;
    CHECK_REL(fit_extrapolation(&r.model, &q), 1, 1e-12);
    buf_init(&b, 1024);
    q = 32;
    CHECK_INT(fit_predict_ext(&r.model, &q, &yp, &lo, &hi, &e), 0);
    CHECK_INT(fit_warning(&r.model, &q, yp, lo, hi, &b), 0);
    CHECK_INT((int)b.len, 0);
    q = 4096;
    CHECK_INT(fit_predict_ext(&r.model, &q, &yp, &lo, &hi, &e), 0);
    CHECK_INT(fit_warning(&r.model, &q, yp, lo, hi, &b), 1);
    CHECK(strstr(buf_str(&b), "6 doublings beyond the measured range") != NULL);
    /* the same distance on the other side says so: not "beyond" */
    buf_reset(&b);
    q = 2.0 / 64;
    CHECK_INT(fit_predict_ext(&r.model, &q, &yp, &lo, &hi, &e), 0);
    CHECK_INT(fit_warning(&r.model, &q, yp, lo, hi, &b), 1);
    CHECK(strstr(buf_str(&b), "6 doublings below the measured range") != NULL);
    /* Within 2 doublings, the law's uncertainty decides: xunc * d > 1 warns
     * (the plausible laws disagree by more than a factor e), and the
     * interval carries xunc up to 0.25 per doubling only. */
    q = 256;
    r.model.xunc = 0.45;
    CHECK_INT(fit_predict_ext(&r.model, &q, &yp, &lo, &hi, &e), 0);
    b.len = 0;
    CHECK_INT(fit_warning(&r.model, &q, yp, lo, hi, &b), 0);
    r.model.xunc = 0.6;
    CHECK_INT(fit_predict_ext(&r.model, &q, &yp, &lo, &hi, &e), 0);
    CHECK_INT(fit_warning(&r.model, &q, yp, lo, hi, &b), 1);
    CHECK(strstr(buf_str(&b), "disagree by more than a factor of 3.32") != NULL);
    {
        double lo2, hi2;
        r.model.xunc = 3;
        CHECK_INT(fit_predict_ext(&r.model, &q, &yp, &lo2, &hi2, &e), 0);
        CHECK(lo2 == lo && hi2 == hi && lo > 0);
        /* The law's part of the log half-width is 0.48 d sqrt((d + 1) xunc)
         * for one variable, added in quadrature to the noise part, and the
         * whole times 1.2 beyond the data (Z_SCALE; fit.c): between xunc
         * 0.09 and 0.16 at d = 2 the squared half-width grows by
         * 1.2^2 (0.48 * 2)^2 * 3 * 0.07, whatever the noise; the interval
         * is symmetric in log space. Beyond the data it is never narrower
         * than e^(1.2 * 0.4) either way (Z_FLOOR): at xunc 0.01 the law's
         * part is 0.17 and the noise part smaller. */
        r.model.xunc = 0.09;
        CHECK_INT(fit_predict_ext(&r.model, &q, &yp, &lo, &hi, &e), 0);
        r.model.xunc = 0.16;
        CHECK_INT(fit_predict_ext(&r.model, &q, &yp, &lo2, &hi2, &e), 0);
        CHECK_REL(log(hi2 / yp) * log(hi2 / yp) - log(hi / yp) * log(hi / yp),
                  1.2 * 1.2 * 0.48 * 0.48 * 4 * 3 * 0.07, 1e-9);
        CHECK_REL(lo2 * hi2, yp * yp, 1e-12);
        r.model.xunc = 0.01;
        CHECK_INT(fit_predict_ext(&r.model, &q, &yp, &lo, &hi, &e), 0);
        CHECK_REL(log(hi / yp), 1.2 * 0.4, 1e-12);
        CHECK_REL(log(yp / lo), 1.2 * 0.4, 1e-12);
        r.model.xunc = 0.25;
        CHECK_INT(fit_predict_ext(&r.model, &q, &yp, &lo, &hi, &e), 0);
        r.model.xunc = 3;
        CHECK_INT(fit_predict_ext(&r.model, &q, &yp, &lo2, &hi2, &e), 0);
        CHECK(lo2 == lo && hi2 == hi);
    }
    buf_free(&b);
    fit_result_free(&r);
    /* Non-positive x: distance in widths of the range. */
    for (i = 0; i < 5; i++)
        ya[i] = 1 + 2 * xa[i] + 0.01 * (i % 2);
    CHECK_INT(run1(xa, ya, 5, "linear", &r, &e), 0);
    q = 7;
    CHECK_REL(fit_extrapolation(&r.model, &q), 1, 1e-12);
    fit_result_free(&r);
}

/* Measuring at the target narrows its interval most, then nearer to it. */
static void test_suggest(void)
{
    double x[8], y[8], cand[5] = {3, 16, 32, 64, 128}, target = 128, gain[5];
    size_t order[5], n = 0;
    struct fit_result r;
    struct err e = {0};
    int i, k;

    rng_seed(5);
    for (i = 0; i < 4; i++)
        for (k = 0; k < 2; k++) {
            x[n] = 2 * pow(2, i);
            y[n] = law_inv(x[n]) * (1 + 0.03 * rng_gauss());
            n++;
        }
    CHECK_INT(run1(x, y, n, "auto", &r, &e), 0);
    CHECK_INT(fit_suggest(&r, &target, cand, 5, gain, order, &e), 0);
    printf("     suggest at p=128: gains %.3f %.3f %.3f %.3f %.3f\n", gain[0], gain[1],
           gain[2], gain[3], gain[4]);
    CHECK_INT((int)order[0], 4);
    CHECK(gain[4] >= gain[3] && gain[3] >= gain[2] && gain[2] > gain[0]);
    for (i = 0; i < 5; i++)
        CHECK(gain[i] >= 0 && gain[i] < 1);
    target = -1;
    CHECK_INT(fit_suggest(&r, &target, cand, 5, gain, order, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    fit_result_free(&r);
}

/* One wild point among eight is left out; the law survives it. */
static void test_outlier_is_left_out(void)
{
    double x[8], y[8], xq = 512, yp, lo, hi;
    struct fit_result r;
    struct err e = {0};
    int i;

    rng_seed(11);
    for (i = 0; i < 8; i++) {
        x[i] = 2 * pow(2, i);
        y[i] = law_inv(x[i]) * (1 + 0.01 * rng_gauss());
    }
    y[5] *= 2;
    CHECK_INT(run1(x, y, 8, "auto", &r, &e), 0);
    CHECK_INT(r.model.outliers, 1);
    CHECK_INT(fit_predict_ext(&r.model, &xq, &yp, &lo, &hi, &e), 0);
    CHECK_REL(yp, law_inv(512), 0.05);
    fit_result_free(&r);
}

/* Two regimes: flat until p = 32, then linear. The model describes the
 * upper regime and extrapolates it; the old selection fits one smooth law. */
static double two_regimes(double p)
{
    return p < 32 ? 5 + 0.01 * p : 0.5 * p;
}

static void test_regime_change(void)
{
    double x[10], y[10], xq = 2048, yp, lo, hi;
    struct fit_result r;
    struct err e = {0};
    struct buf b;
    int i;

    for (i = 0; i < 10; i++) {
        x[i] = pow(2, i);
        y[i] = two_regimes(x[i]) * (1 + 0.01 * sin(7.0 * i));
    }
    CHECK_INT(run1(x, y, 10, "auto", &r, &e), 0);
    CHECK(r.model.seg_x >= 32);
    CHECK_INT(fit_predict_ext(&r.model, &xq, &yp, &lo, &hi, &e), 0);
    printf("     two regimes: break at %g, p=2048 -> %.1f [%.1f, %.1f], truth %.1f\n",
           r.model.seg_x, yp, lo, hi, two_regimes(xq));
    CHECK_REL(yp, two_regimes(xq), 0.05);
    CHECK(lo <= two_regimes(xq) && two_regimes(xq) <= hi);
    buf_init(&b, 512);
    xq = 2;
    CHECK_INT(fit_predict_ext(&r.model, &xq, &yp, &lo, &hi, &e), 0);
    CHECK_INT(fit_warning(&r.model, &xq, yp, lo, hi, &b), 1);
    buf_free(&b);
    {
        /* Where to measure next uses the points of the upper regime: a point
         * below the break cannot narrow the interval at 2048 much. */
        double cand[3] = {4, 1024, 2048}, gain[3], target = 2048;
        size_t order[3];
        CHECK_INT(fit_suggest(&r, &target, cand, 3, gain, order, &e), 0);
        CHECK_INT((int)order[0], 2);
        CHECK(gain[0] < gain[1] && gain[1] <= gain[2] && gain[2] < 1);
    }
    {
        /* The law's uncertainty after a break: the upper regime's law is the
         * one the points from the break on give alone (same law, same
         * prediction), but the law of all points stays a plausible
         * alternative beyond the data, so the model is less certain than
         * the upper points alone would make it (and never beyond the cap
         * of e^3 per doubling). */
        struct fit_result u;
        size_t k = 0;
        double yu, lu, hu;
        xq = 2048;
        while (x[k] < r.model.seg_x)
            k++;
        CHECK_INT(run1(x + k, y + k, 10 - k, "auto", &u, &e), 0);
        CHECK(u.model.seg_x == 0);
        CHECK_INT(fit_predict_ext(&r.model, &xq, &yp, &lo, &hi, &e), 0);
        CHECK_INT(fit_predict_ext(&u.model, &xq, &yu, &lu, &hu, &e), 0);
        printf("     xunc after the break %.4f, upper points alone %.4f\n", r.model.xunc,
               u.model.xunc);
        CHECK_REL(yp, yu, 1e-9);
        CHECK(r.model.xunc > u.model.xunc && r.model.xunc <= 3.0);
        CHECK(lo < lu && hi > hu);
        fit_result_free(&u);
    }
    fit_result_free(&r);
}

/* Extra-P's multi-parameter rule (fit_pmnf2): on exact laws over a 5 x 5
 * grid each form comes back with its terms and coefficients, also with a
 * configuration missing (the single-parameter data then come from the
 * longest lines). */
static size_t pmnf2_grid(double (*law)(double, double), int skip, struct fit_point *pts)
{
    size_t m = 0;
    int i, j;

    memset(pts, 0, 25 * sizeof *pts);
    for (i = 0; i < 5; i++)
        for (j = 0; j < 5; j++) {
            if (i * 5 + j == skip)
                continue;
            pts[m].x[0] = pow(2, i + 1); /* p = 2..32 */
            pts[m].x[1] = pow(2, j + 2); /* n = 4..64 */
            pts[m].y = law(pts[m].x[0], pts[m].x[1]);
            pts[m++].n = 1;
        }
    return m;
}

static double law_prod(double p, double n)
{
    return 2 + 0.5 * p * log2(n);
}
static double law_sum(double p, double n)
{
    return 1 + 3 * p + 0.25 * n * n;
}
static double law_n(double p, double n)
{
    return 4 + 2 * n + 0 * p;
}
static double law_mixed(double p, double n)
{
    return 1 + p + 0.1 * p * n;
}
static double law_const(double p, double n)
{
    return 7 + 0 * p * n;
}

static void test_pmnf2(void)
{
    struct fit_point pts[25];
    struct fit_pmnf2 b;
    double x[2] = {64, 1024};
    size_t m;
    int skip;

    for (skip = -1; skip <= 7; skip += 8) { /* the full grid, then (4, 32) missing */
        m = pmnf2_grid(law_prod, skip, pts);
        CHECK_INT(fit_pmnf2(pts, m, &b), 0);
        CHECK_INT(b.form, FIT_PMNF2_AB);
        CHECK(b.a.num == 1 && b.a.den == 1 && b.a.lg == 0);
        CHECK(b.b.num == 0 && b.b.lg == 1);
        CHECK_REL(b.c[0], 2, 1e-9);
        CHECK_REL(b.c[1], 0.5, 1e-12);
        CHECK(b.smape < 1e-9);
        CHECK_REL(fit_pmnf2_eval(&b, x), law_prod(64, 1024), 1e-12);
    }
    m = pmnf2_grid(law_sum, -1, pts);
    CHECK_INT(fit_pmnf2(pts, m, &b), 0);
    CHECK_INT(b.form, FIT_PMNF2_A_B);
    CHECK(b.a.num == 1 && b.a.den == 1 && b.b.num == 2 && b.b.den == 1 && b.b.lg == 0);
    CHECK_REL(b.c[0], 1, 1e-9);
    CHECK_REL(b.c[1], 3, 1e-12);
    CHECK_REL(b.c[2], 0.25, 1e-12);
    CHECK_REL(fit_pmnf2_eval(&b, x), law_sum(64, 1024), 1e-12);
    m = pmnf2_grid(law_mixed, -1, pts);
    CHECK_INT(fit_pmnf2(pts, m, &b), 0);
    CHECK_INT(b.form, FIT_PMNF2_A_AB);
    CHECK_REL(b.c[1], 1, 1e-9);
    CHECK_REL(b.c[2], 0.1, 1e-12);
    /* no dependence on p: n's law alone */
    m = pmnf2_grid(law_n, -1, pts);
    CHECK_INT(fit_pmnf2(pts, m, &b), 0);
    CHECK_INT(b.form, FIT_PMNF2_B);
    CHECK(b.a.c1 == 0 && b.b.num == 1 && b.b.den == 1);
    CHECK_REL(b.c[0], 4, 1e-9);
    CHECK_REL(b.c[1], 2, 1e-12);
    CHECK_REL(fit_pmnf2_eval(&b, x), law_n(64, 1024), 1e-12);
    m = pmnf2_grid(law_const, -1, pts);
    CHECK_INT(fit_pmnf2(pts, m, &b), 0);
    CHECK(b.form == FIT_PMNF2_CONST && b.c[0] == 7 && b.smape == 0);
    /* Two lines of unequal reach, x1 = 1..3 at x2 = 10 and 2..4 at x2 = 20:
     * x1's data are the first line's (as Extra-P's: x1 = 4 is not on it and
     * is left out, not averaged over nothing), and 5 + 2 x1 comes back. */
    {
        static const double ln[6][2] = {{1, 10}, {2, 10}, {3, 10},
                                        {2, 20}, {3, 20}, {4, 20}};
        memset(pts, 0, 6 * sizeof *pts);
        for (m = 0; m < 6; m++) {
            pts[m].x[0] = ln[m][0];
            pts[m].x[1] = ln[m][1];
            pts[m].y = 5 + 2 * ln[m][0];
            pts[m].n = 1;
        }
        CHECK_INT(fit_pmnf2(pts, 6, &b), 0);
        CHECK_INT(b.form, FIT_PMNF2_A);
        CHECK(b.a.num == 1 && b.a.den == 1 && b.a.lg == 0);
        CHECK_REL(b.c[0], 5, 1e-12);
        CHECK_REL(b.c[1], 2, 1e-12);
        /* one value of x2: no term for it, x1's law alone */
        for (m = 0; m < 6; m++)
            pts[m].x[1] = 10;
        CHECK_INT(fit_pmnf2(pts, 6, &b), 0);
        CHECK(b.form == FIT_PMNF2_A && b.b.c1 == 0 && b.b.num == 0 && b.b.den == 1);
        CHECK_REL(fit_pmnf2_eval(&b, x), 5 + 2 * 64, 1e-12);
        m = pmnf2_grid(law_const, -1, pts);
    }
    /* refused: one point, a value not finite */
    CHECK_INT(fit_pmnf2(pts, 1, &b), -1);
    pts[3].y = NAN;
    CHECK_INT(fit_pmnf2(pts, m, &b), -1);
}

/* Extra-P's one-term rule (fit_pmnf1): exact laws come back term and
 * coefficients, the leave-one-out score is what the description says, and
 * what the rule leaves out (negative exponents, log terms below x = 1, terms
 * contributing under 0.05 %) stays out. */
static struct fit_point *pmnf1_points(const double *x, const double *y, size_t m)
{
    static struct fit_point pts[FIT_PMNF1_MAX + 1];
    size_t i;

    memset(pts, 0, sizeof pts);
    for (i = 0; i < m; i++) {
        pts[i].x[0] = x[i];
        pts[i].y = y[i];
        pts[i].n = 1;
    }
    return pts;
}

static void test_pmnf1(void)
{
    double x[FIT_PMNF1_MAX + 1], y[FIT_PMNF1_MAX + 1];
    struct fit_pmnf1 b;
    size_t i;

    /* 3 + 2 x^(3/2) log2 x on x = 2..64: that term, exactly. */
    for (i = 0; i < 6; i++) {
        x[i] = pow(2, (double)i + 1);
        y[i] = 3 + 2 * pow(x[i], 1.5) * log2(x[i]);
    }
    CHECK_INT(fit_pmnf1(pmnf1_points(x, y, 6), 6, &b), 0);
    CHECK_INT(b.num, 3);
    CHECK_INT(b.den, 2);
    CHECK_INT(b.lg, 1);
    CHECK_REL(b.c0, 3, 1e-9);
    CHECK_REL(b.c1, 2, 1e-12);
    CHECK(b.smape < 1e-9);
    CHECK_REL(fit_pmnf1_eval(&b, 256), 3 + 2 * pow(256, 1.5) * 8, 1e-12);
    /* y = x on 1, 2, 4: each leave-one-out line through the other two points
     * predicts the third exactly, and the constant cleaning sets c0 = 0. */
    x[0] = 1, x[1] = 2, x[2] = 4;
    y[0] = 1, y[1] = 2, y[2] = 4;
    CHECK_INT(fit_pmnf1(pmnf1_points(x, y, 3), 3, &b), 0);
    CHECK_INT(b.num, 1);
    CHECK_INT(b.den, 1);
    CHECK_INT(b.lg, 0);
    CHECK_NEAR(b.c0, 0, 1e-12);
    CHECK_REL(b.c1, 1, 1e-12);
    /* Two points: every term's leave-one-out fit has one point, so predicts
     * the other's value (SMAPE 2|1-3|/4 = 100 %), worse than the constant's
     * in-sample SMAPE (2/3 + 2/5) / 2 = 53.33 %: the constant 2 stays. */
    y[0] = 1, y[1] = 3;
    CHECK_INT(fit_pmnf1(pmnf1_points(x, y, 2), 2, &b), 0);
    CHECK(b.c1 == 0);
    CHECK_REL(b.c0, 2, 1e-15);
    CHECK_REL(b.smape, 100 * (2.0 / 3 + 2.0 / 5) / 2, 1e-12);
    /* Constant data: the constant, score 0. */
    for (i = 0; i < 6; i++)
        y[i] = 7.5, x[i] = (double)i + 1;
    CHECK_INT(fit_pmnf1(pmnf1_points(x, y, 6), 6, &b), 0);
    CHECK(b.c1 == 0 && b.c0 == 7.5 && b.smape == 0);
    /* A term contributing at most 1e-5 * 32 / 100 = 3.2e-6 of a value
     * (< 0.05 %) is ignored, whatever its score. */
    for (i = 0; i < 6; i++) {
        x[i] = pow(2, (double)i);
        y[i] = 100 + 1e-5 * x[i];
    }
    CHECK_INT(fit_pmnf1(pmnf1_points(x, y, 6), 6, &b), 0);
    CHECK(b.c1 == 0);
    /* Below x = 1 no log terms: 1 + 5 sqrt(x) on 0.25..8 comes back. */
    for (i = 0; i < 6; i++) {
        x[i] = 0.25 * pow(2, (double)i);
        y[i] = 1 + 5 * sqrt(x[i]);
    }
    CHECK_INT(fit_pmnf1(pmnf1_points(x, y, 6), 6, &b), 0);
    CHECK(b.num == 1 && b.den == 2 && b.lg == 0);
    CHECK_REL(b.c1, 5, 1e-9);
    /* No negative exponents: 2 + 100/x gets a non-negative one. */
    for (i = 0; i < 6; i++) {
        x[i] = pow(2, (double)i + 1);
        y[i] = 2 + 100 / x[i];
    }
    CHECK_INT(fit_pmnf1(pmnf1_points(x, y, 6), 6, &b), 0);
    CHECK(b.num >= 0 && b.den >= 1 && b.lg >= 0);
    /* Refused: fewer than 2 points, more than FIT_PMNF1_MAX, not finite. */
    CHECK_INT(fit_pmnf1(pmnf1_points(x, y, 1), 1, &b), -1);
    for (i = 0; i <= FIT_PMNF1_MAX; i++)
        x[i] = (double)i + 1, y[i] = (double)i;
    CHECK_INT(fit_pmnf1(pmnf1_points(x, y, FIT_PMNF1_MAX), FIT_PMNF1_MAX, &b), 0);
    CHECK_INT(fit_pmnf1(pmnf1_points(x, y, FIT_PMNF1_MAX + 1), FIT_PMNF1_MAX + 1, &b),
              -1);
    y[3] = NAN;
    CHECK_INT(fit_pmnf1(pmnf1_points(x, y, 6), 6, &b), -1);
}

/* The same rule with Extra-P's negative exponents (fit_pmnf1_negexp), as
 * eval/ compares with it: the strong-scaling laws Extra-P's own tests use
 * come back exactly, the default terms are still there, and a point at x = 1
 * takes every log term out (a log power of -1 is infinite there). */
static void test_pmnf1_negexp(void)
{
    double x[8], y[8];
    struct fit_pmnf1 b;
    size_t i;

    /* 30 + 1000 x^(-1) on 2..32 (5 points, as Extra-P's test). */
    for (i = 0; i < 5; i++) {
        x[i] = pow(2, (double)i + 1);
        y[i] = 30 + 1000 / x[i];
    }
    CHECK_INT(fit_pmnf1_negexp(pmnf1_points(x, y, 5), 5, &b), 0);
    CHECK(b.num == -1 && b.den == 1 && b.lg == 0);
    CHECK_REL(b.c0, 30, 1e-9);
    CHECK_REL(b.c1, 1000, 1e-12);
    CHECK_REL(fit_pmnf1_eval(&b, 1024), 30 + 1000.0 / 1024, 1e-12);
    /* 400 + 1000 x^(-3/4) / log2(x): a negative log power. */
    for (i = 0; i < 5; i++)
        y[i] = 400 + 1000 * pow(x[i], -0.75) / log2(x[i]);
    CHECK_INT(fit_pmnf1_negexp(pmnf1_points(x, y, 5), 5, &b), 0);
    CHECK(b.num == -3 && b.den == 4 && b.lg == -1);
    CHECK_REL(b.c1, 1000, 1e-9);
    /* a default term is still found: 3 + 2 x^(3/2) log2 x */
    for (i = 0; i < 5; i++)
        y[i] = 3 + 2 * pow(x[i], 1.5) * log2(x[i]);
    CHECK_INT(fit_pmnf1_negexp(pmnf1_points(x, y, 5), 5, &b), 0);
    CHECK(b.num == 3 && b.den == 2 && b.lg == 1);
    /* 5 + 4 log2(x) on 1..16: the default rule finds log2(x) exactly; with
     * the negative exponents x = 1 leaves no log term to try. */
    for (i = 0; i < 5; i++) {
        x[i] = pow(2, (double)i);
        y[i] = 5 + 4 * log2(x[i]);
    }
    CHECK_INT(fit_pmnf1(pmnf1_points(x, y, 5), 5, &b), 0);
    CHECK(b.num == 0 && b.lg == 1);
    CHECK_REL(b.c1, 4, 1e-12);
    CHECK_INT(fit_pmnf1_negexp(pmnf1_points(x, y, 5), 5, &b), 0);
    CHECK(b.c1 != 0 && b.lg == 0 && b.num != 0);
    /* refused as fit_pmnf1 */
    CHECK_INT(fit_pmnf1_negexp(pmnf1_points(x, y, 1), 1, &b), -1);
}

/* Forward validation of the whole procedure (docs/models.md §10): on the
 * ping-pong latencies of eval/data/pingpong-stencil-alltoall (means of 6
 * repetitions, 1 B ... 16 KiB, where the eager protocol's per-byte cost falls
 * with the size) the one-term rule, refitted without its largest sizes,
 * predicts them better than the selection does, so `auto` answers with its
 * law c0 + c1 x^(4/5) fitted by ordinary least squares, flagged positive:
 * a multiplicative interval that holds the 4 MiB latency measured later
 * (0.36 ms; the relative law predicted 0.92 ms). A decreasing law the rule
 * cannot express keeps the selection's. */
static void test_one_term_law(void)
{
    static const double x[8] = {1, 4, 16, 64, 256, 1024, 4096, 16384};
    static const double y[8] = {1.304167e-07, 1.319167e-07, 1.425833e-07, 1.468333e-07,
                                1.517500e-07, 2.511667e-07, 2.550583e-06, 4.910583e-06};
    double t[8], w[8], sw = 0, mt = 0, my = 0, stt = 0, sty = 0, c1, c0, xq = 4194304;
    double yp, lo, hi;
    struct fit_result r;
    struct err e = {0};
    struct buf b;
    int i;

    /* ordinary least squares leaning toward the largest x (weights
     * (x / 16384)^1.5, eval/RECORD.md §18), from its normal equations */
    for (i = 0; i < 8; i++) {
        t[i] = pow(x[i], 0.8);
        w[i] = pow(x[i] / 16384, 1.5);
        sw += w[i];
    }
    for (i = 0; i < 8; i++) {
        mt += w[i] * t[i] / sw;
        my += w[i] * y[i] / sw;
    }
    for (i = 0; i < 8; i++) {
        stt += w[i] * (t[i] - mt) * (t[i] - mt);
        sty += w[i] * (t[i] - mt) * (y[i] - my);
    }
    c1 = sty / stt;
    c0 = my - c1 * mt;
    CHECK_INT(run1(x, y, 8, "auto", &r, &e), 0);
    CHECK_INT(r.model.nterms, 2);
    CHECK(r.model.term[1].expo[0] == 0.8 && r.model.term[1].logp[0] == 0);
    CHECK(r.model.positive == 1 && r.model.relative == 0 && r.model.seg_x == 0);
    CHECK_REL(r.model.coef[0], c0, 1e-9);
    CHECK_REL(r.model.coef[1], c1, 1e-9);
    CHECK(r.model.xunc >= 0.08 && r.model.xunc <= 3.0);
    CHECK_INT(fit_predict_ext(&r.model, &xq, &yp, &lo, &hi, &e), 0);
    CHECK_REL(yp, c0 + c1 * pow(xq, 0.8), 1e-9);
    CHECK(lo > 0 && lo < 0.36e-3 && 0.36e-3 < hi);
    CHECK_REL(yp * yp, lo * hi, 1e-9); /* multiplicative: yp is the geometric middle */
    buf_init(&b, 512);
    CHECK_INT(fit_warning(&r.model, &xq, yp, lo, hi, &b), 1);
    buf_reset(&b);
    /* Extra-P's x^(4/5) is written as such (the normal form of §5 has no
     * fifths), and the machine form reads back to the same exponent. */
    CHECK_INT(fit_formula(&r.model, NULL, &b), 0);
    CHECK(b.data != NULL && strstr(b.data, "x^(4/5)") != NULL);
    buf_reset(&b);
    CHECK_INT(fit_machine_formula(&r.model, NULL, &b), 0);
    CHECK(b.data != NULL && strstr(b.data, "x^(4/5)") != NULL);
    buf_free(&b);
    fit_result_free(&r);
    {
        /* Times falling to 1 at x = 64: the one-term rule's law would
         * forward-validate better but turns negative within 16x the largest
         * x, so the selection's law stays (positive beyond the data). */
        static const double xs[6] = {2, 4, 8, 16, 32, 64}, ys[6] = {10, 9, 8, 7, 5, 1};
        struct fit_point pts[6];
        struct fit_pmnf1 pb;
        double at = 1024, v;
        memset(pts, 0, sizeof pts);
        for (i = 0; i < 6; i++) {
            pts[i].x[0] = xs[i];
            pts[i].y = ys[i];
            pts[i].n = 1;
        }
        CHECK_INT(fit_pmnf1(pts, 6, &pb), 0);
        CHECK(!(fit_pmnf1_eval(&pb, at) > 0));
        CHECK_INT(run1(xs, ys, 6, "auto", &r, &e), 0);
        CHECK(r.model.positive == 0 && r.model.relative == 1);
        CHECK_INT(fit_eval(&r.model, &at, &v, &e), 0);
        CHECK(v > 0);
        fit_result_free(&r);
    }
    {
        double xs[6], ys[6];
        for (i = 0; i < 6; i++) {
            xs[i] = pow(2, i + 1);
            ys[i] = 200 / xs[i] + 0.5 * log2(xs[i]) + 1;
        }
        CHECK_INT(run1(xs, ys, 6, "auto", &r, &e), 0);
        CHECK(r.model.positive == 0 && r.model.relative == 1);
        fit_result_free(&r);
    }
}

/* Over 10 doublings and more `auto` takes the one-term rule's law outright
 * (candidate S, docs/models.md §10.1). The exchange of an MPI_Type_indexed
 * layout of eval/data/byte-sweeps-wide, 5 repetitions at 8 B ... 128 KiB
 * (its training sizes in eval_modeling, a span of 16384): there the
 * forward comparison of the two procedures prefers
 * the selection's relative law (before S, `auto` kept it), and now the law is
 * the rule's, fitted by ordinary least squares on the means (leaning toward
 * the largest size, eval/RECORD.md §18). */
static void test_wide_span_takes_one_term(void)
{
    static const double t[40] = {
        1.631328e-07, 1.766895e-07, 1.713867e-07, 1.780391e-07, 1.668906e-07,
        3.092852e-07, 3.068633e-07, 3.076055e-07, 3.074102e-07, 3.076445e-07,
        3.589297e-07, 3.604570e-07, 3.540820e-07, 3.563125e-07, 3.579141e-07,
        6.396250e-07, 6.421250e-07, 6.221719e-07, 6.406328e-07, 6.375156e-07,
        1.611438e-06, 1.558250e-06, 1.567969e-06, 1.570156e-06, 1.536969e-06,
        7.322125e-06, 7.298375e-06, 7.293375e-06, 7.227000e-06, 7.155750e-06,
        2.716550e-05, 2.716550e-05, 2.737550e-05, 2.680000e-05, 2.671000e-05,
        8.702000e-05, 9.170600e-05, 8.192200e-05, 9.247700e-05, 9.117600e-05};
    double x[40], at = 8388608, v, w;
    struct fit_point pts[8];
    struct fit_term term[2];
    struct fit_model lean;
    struct fit_pmnf1 pb;
    struct fit_result r;
    struct err e = {0};
    int i;

    memset(pts, 0, sizeof pts);
    for (i = 0; i < 40; i++) {
        x[i] = 8 << (2 * (i / 5));
        pts[i / 5].x[0] = x[i];
        pts[i / 5].y += t[i] / 5;
        pts[i / 5].n = 5;
    }
    CHECK_INT(fit_pmnf1(pts, 8, &pb), 0);
    CHECK_INT(run1(x, t, 40, "auto", &r, &e), 0);
    CHECK(r.model.positive == 1 && r.model.relative == 0);
    /* the rule's term, its coefficients by ordinary least squares leaning
     * toward the largest size (eval/RECORD.md §18) */
    memset(term, 0, sizeof term);
    term[1].expo[0] = (double)pb.num / pb.den;
    term[1].logp[0] = pb.lg;
    CHECK_INT(r.model.nterms, 2);
    CHECK(r.model.term[1].expo[0] == term[1].expo[0] &&
          r.model.term[1].logp[0] == term[1].logp[0]);
    CHECK_INT(fit_terms_lean(pts, 8, 1, term, 2, 0, 1.5, &lean, &e), 0);
    CHECK_INT(fit_eval(&r.model, &at, &v, &e), 0);
    CHECK_INT(fit_eval(&lean, &at, &w, &e), 0);
    CHECK_REL(v, w, 1e-9);
    fit_result_free(&r);
}

/* A step is not a rate of growth (candidate W, eval/RECORD.md §9):
 * osu_allreduce over 4 B ... 8 KiB on 128 Azure nodes (the shared scaling
 * corpus's cc-osu-allreduce-azcc-cpu-128nodes-n, 8 runs per size), flat
 * below 4 KiB and 12x higher at 8 KiB (a protocol switch). The span is wide,
 * so `auto` weighs the one-term law outright; that law, carried by the
 * step, was 529 + 1.0e-9 x^3 log2 x, 20x, 66x and 568x the measured
 * 3102.6, 8166.11 and 8118.79 us at 16, 32 and 64 KiB. Bounded by the
 * upper half's growth as a whole (0.73 per doubling), the law must stay
 * within a factor 20 of them. */
static void test_wide_span_step_is_not_growth(void)
{
    static const double t[12][8] = {
        {203.23, 182.4, 126.27, 1596.64, 1554.65, 1561.58, 227.11, 137.9},
        {104.42, 36.22, 32.89, 1352.84, 1573.6, 1430.96, 81.9, 112.3},
        {57.34, 49.92, 50.7, 1545.47, 1243.22, 1395.63, 54.42, 62.96},
        {72.24, 48.06, 32.16, 1445.33, 1576.17, 1527.2, 48.94, 26.96},
        {62.0, 43.09, 32.51, 1444.74, 1598.63, 1411.31, 49.21, 29.31},
        {58.85, 43.57, 50.71, 1649.67, 1332.92, 1339.79, 47.98, 98.48},
        {78.63, 81.65, 81.12, 1639.49, 1471.93, 1559.36, 72.3, 95.28},
        {75.24, 34.45, 118.75, 1471.52, 1351.22, 1364.32, 67.49, 66.82},
        {59.11, 60.06, 94.83, 1392.72, 1292.77, 1515.17, 70.16, 89.42},
        {102.05, 99.01, 89.64, 1631.14, 1375.61, 1403.6, 103.07, 93.38},
        {131.92, 154.96, 139.2, 1416.21, 1667.73, 1590.18, 335.03, 180.34},
        {17353.8, 18011.79, 17825.52, 3042.18, 3452.91, 2683.52, 391.71, 610.21}};
    static const double xt[3] = {16384, 32768, 65536}, yt[3] = {3102.6, 8166.11, 8118.79};
    double x[96], y[96], v;
    struct fit_result r;
    struct err e = {0};
    int i, k;

    for (i = 0; i < 12; i++)
        for (k = 0; k < 8; k++) {
            x[8 * i + k] = 4 << i;
            y[8 * i + k] = t[i][k];
        }
    CHECK_INT(run1(x, y, 96, "auto", &r, &e), 0);
    for (i = 0; i < 3; i++) {
        CHECK_INT(fit_eval(&r.model, &xt[i], &v, &e), 0);
        CHECK(v > yt[i] / 20 && v < 20 * yt[i]);
    }
    fit_result_free(&r);
}

/* The same in the selection (candidate W2, eval/RECORD.md §9): MPI_Get
 * over 8 B ... 8 KiB (eval/data/byte-sweeps-wide's rget_size cut at 45 %,
 * 5 runs per size): flat at 40 ns to 2 KiB, 40x higher at 8 KiB. Bounded by
 * the steepest pair, the selection took 3.8e-8 + 3.7e-18 x^3, 222x and
 * 3560x the measured medians at 128 KiB and 512 KiB; bounded by the upper
 * half's overall slope, its law must stay within a factor 20 of them. */
static void test_wide_span_step_in_selection(void)
{
    static const double t[30] = {
        3.811768e-08, 3.773193e-08, 3.806445e-08, 4.319922e-08, 5.608887e-08,
        2.300594e-06, 3.902783e-08, 3.873437e-08, 3.746289e-08, 4.137012e-08,
        5.692090e-08, 2.623281e-06, 3.926709e-08, 3.954102e-08, 3.844043e-08,
        4.136475e-08, 5.578613e-08, 2.300938e-06, 3.926709e-08, 3.952148e-08,
        3.933594e-08, 4.181982e-08, 5.761523e-08, 2.300906e-06, 4.047510e-08,
        3.986865e-08, 4.038184e-08, 4.295947e-08, 5.699902e-08, 2.752219e-06};
    static const double xt[2] = {131072, 524288}, yt[2] = {3.75505e-05, 1.495320e-04};
    double x[30], v;
    struct fit_result r;
    struct err e = {0};
    int i;

    for (i = 0; i < 30; i++)
        x[i] = 8 << (2 * (i % 6));
    CHECK_INT(run1(x, t, 30, "auto", &r, &e), 0);
    for (i = 0; i < 2; i++) {
        CHECK_INT(fit_eval(&r.model, &xt[i], &v, &e), 0);
        CHECK(v > yt[i] / 20 && v < 20 * yt[i]);
    }
    fit_result_free(&r);
}

/* A 4 x 4 grid of 3 repetitions, t[48]: m = m0 << (shift k), k = 0..3, and
 * P = 2...5; repetitions interleaved over the grid (t[c + 16 r]) or each
 * configuration's three together (t[3 c + r]). Fills x[96] (m, P per
 * observation) and pts[16], each configuration's mean. */
static void grid_4x4(const double *t, int together, int m0, int shift, double *x,
                     struct fit_point *pts)
{
    memset(pts, 0, 16 * sizeof *pts);
    for (int i = 0; i < 48; i++) {
        int c = together ? i / 3 : i % 16;
        x[2 * i] = m0 << (shift * (c % 4));
        x[2 * i + 1] = 2 + c / 4;
        pts[c].x[0] = x[2 * i];
        pts[c].x[1] = x[2 * i + 1];
        pts[c].y += t[i] / 3;
        pts[c].n = 3;
    }
}

/* Two variables (candidate E2, docs/models.md §10.1): MPI_Bcast over the
 * message size m = 64 B...32 KiB x P = 2...5 (heldout15's training box, 3
 * repetitions). Left out in turn, the largest m and the largest P are
 * predicted better by Extra-P's multi-parameter rule than by the
 * selection's law, so `auto` takes the rule's law, fitted by ordinary least
 * squares; the selection alone keeps its own (m * P^2 here). */
static void test_two_var_takes_pmnf2(void)
{
    static const double t[48] = {
        8.0e-08,    3.20e-07,   2.263e-06,  4.216e-06,  1.31e-07,   4.056e-06, 7.451e-06,
        9.574e-06,  1.00e-07,   3.825e-06,  7.821e-06,  1.2188e-05, 1.20e-07,  5.608e-06,
        1.2759e-05, 1.8738e-05, 7.0e-08,    3.00e-07,   2.194e-06,  4.196e-06, 9.0e-08,
        3.415e-06,  8.112e-06,  1.2209e-05, 1.30e-07,   4.386e-06,  9.915e-06, 1.4442e-05,
        1.20e-07,   5.709e-06,  1.1116e-05, 1.4993e-05, 9.0e-08,    3.30e-07,  2.273e-06,
        4.296e-06,  1.30e-07,   4.306e-06,  7.060e-06,  9.414e-06,  1.50e-07,  6.900e-06,
        1.2608e-05, 1.6785e-05, 1.30e-07,   5.729e-06,  1.2789e-05, 1.8628e-05};
    double x[96], at[2] = {2097152, 8}, v, w;
    struct fit_point pts[16];
    struct fit_pmnf2 pb;
    struct fit_model sm;
    struct fit_input in = {2, x, t, 48, "auto", AGG_MEAN, NULL};
    struct fit_result r;
    struct err e = {0};

    grid_4x4(t, 0, 64, 3, x, pts);
    CHECK_INT(fit_pmnf2(pts, 16, &pb), 0);
    CHECK_INT(pb.form, FIT_PMNF2_B_AB);
    CHECK_INT(fit_run(&in, &r, &e), 0);
    CHECK(r.model.positive == 1 && r.model.relative == 0 && r.model.nterms == 3);
    CHECK(r.model.xunc > 0.08);
    CHECK_INT(fit_eval(&r.model, at, &v, &e), 0);
    CHECK_REL(v, fit_pmnf2_eval(&pb, at), 1e-9);
    /* The selection alone, on the same aggregated points, chose another law. */
    CHECK_INT(fit_auto_selection(r.points, r.npoints, 2, &sm, &e), 0);
    CHECK_INT(fit_eval(&sm, at, &w, &e), 0);
    CHECK(sm.relative == 1 && fabs(w - v) > 0.5 * v);
    fit_result_free(&r);
}

/* grids-d's ialltoall (eval/RECORD.md §12), its training box: m = 4 B ...
 * 16 KiB per pair (16x steps) x P = 2...5, 3 repetitions. Extra-P's rule
 * takes c0 + c1 m^(4/5) + c2 m^(4/5) P^(3/4) with c1 < 0, negative at
 * P = 2 beyond m = 64 KiB; `auto` used to take it (a negative run time
 * with an interval across 0) because its positivity check looked only
 * where m and P grow together. It now takes the rule's next form that
 * stays positive along each variable at the other's smallest and largest
 * value. Since LBA (§41) the latency + bandwidth law (m spans 4096x)
 * is averaged with that law here: at m = 4 MiB, P = 2 it predicts 1.4e-3 s,
 * 1.9x the measured 7.3e-4 (LB alone 2.8x: P = 2 is the one configuration
 * of its own regime, two ranks pinned to the two cores, §12), positive,
 * and its interval holds the measured value. */
static void test_two_var_positive_beyond_corner(void)
{
    static const double t[48] = {
        5.830e-07,  4.740e-07,  4.650e-07,  7.320e-07,  6.000e-07,  6.130e-07,
        1.445e-06,  1.136e-06,  1.138e-06,  3.917e-06,  3.312e-06,  3.264e-06,
        3.983e-06,  4.064e-06,  3.520e-06,  4.391e-06,  4.320e-06,  4.289e-06,
        4.718e-06,  4.668e-06,  4.632e-06,  1.2638e-05, 1.5774e-05, 1.2360e-05,
        4.577e-06,  7.162e-06,  7.068e-06,  4.866e-06,  7.631e-06,  7.719e-06,
        6.831e-06,  8.830e-06,  8.884e-06,  1.8081e-05, 2.4277e-05, 2.4925e-05,
        1.1017e-05, 8.585e-06,  8.645e-06,  8.854e-06,  8.903e-06,  8.982e-06,
        1.1063e-05, 1.1313e-05, 1.1113e-05, 3.3151e-05, 3.3337e-05, 3.1763e-05};
    double x[96], far[2] = {4194304, 2}, near[2] = {262144, 2}, y, lo, hi;
    struct fit_point pts[16];
    struct fit_pmnf2 pb;
    struct fit_input in = {2, x, t, 48, "auto", AGG_MEAN, NULL};
    struct fit_result r;
    struct err e = {0};

    grid_4x4(t, 1, 4, 4, x, pts);
    CHECK_INT(fit_pmnf2(pts, 16, &pb), 0);
    CHECK(fit_pmnf2_eval(&pb, far) < 0); /* the rule's own law */
    CHECK_INT(fit_run(&in, &r, &e), 0);
    CHECK(r.model.positive == 1);
    CHECK_INT(fit_predict_ext(&r.model, far, &y, &lo, &hi, &e), 0);
    CHECK(y > 0 && lo > 0 && lo < 7.3e-4 && 7.3e-4 < hi);
    CHECK_INT(fit_predict_ext(&r.model, near, &y, &lo, &hi, &e), 0);
    CHECK(y > 0 && lo > 0);
    fit_result_free(&r);
}

/* A collective over processes p and a message size m that spans 4096x
 * (eval/RECORD.md §10, §36-§38, §41): osu_scatter, Open MPI's binomial
 * algorithm, on ORFEO EPYC nodes (corpus-b's eru-epyc-scatter-alg2-core,
 * published by eruoppolo/HPC_2023), one run per point, p = 2...16 x m =
 * 2 B...8 KiB. Its published points at p = 32...128 x m = 1...64 KiB grow
 * with p times m (the root sends p pieces of m). The latency + bandwidth
 * law (a term p m) forward-validates better than the law the selection
 * takes, log2(p)^2 m^(1/4), which alone is 2-70x low there; `auto` takes
 * the equal average of the two: both laws' terms in one law, within 4x of
 * every published point (3.4x low at worst) and each point inside its 95 %
 * interval. */
static void test_two_var_latency_bandwidth(void)
{
    static const double t[52] = {
        0.16, 0.16, 0.16, 0.15, 0.16, 0.16, 0.22, 0.22, 0.24, 0.27, 0.33, 0.44,  0.69,
        0.2,  0.2,  0.2,  0.21, 0.21, 0.26, 0.33, 0.36, 0.38, 0.47, 0.63, 1,     1.71,
        0.77, 0.76, 0.82, 0.79, 0.95, 1.19, 1.3,  1.43, 1.82, 2.26, 3.3,  5.34,  8.49,
        1.12, 1.23, 1.34, 1.61, 1.57, 1.89, 2.02, 2.53, 3.32, 4.81, 7.47, 12.82, 21.03};
    static const double test[9][3] = {
        {32, 1024, 9.0},    {32, 16384, 86.04},   {32, 65536, 341.1},
        {64, 1024, 16.17},  {64, 16384, 194.29},  {64, 65536, 747.86},
        {128, 1024, 38.41}, {128, 16384, 564.21}, {128, 65536, 1661.12}};
    double x[104];
    struct fit_input in = {2, x, t, 52, "auto", AGG_MEAN, NULL};
    struct fit_result r;
    struct err e = {0};
    int i, pm = 0, sel = 0;

    for (i = 0; i < 52; i++) {
        x[2 * i] = 2 << (i / 13);
        x[2 * i + 1] = 2 << (i % 13);
    }
    CHECK_INT(fit_run(&in, &r, &e), 0);
    for (i = 1; i < r.model.nterms; i++) {
        const struct fit_term *u = &r.model.term[i];
        pm |= u->expo[0] == 1 && u->expo[1] == 1 && r.model.coef[i] > 0;
        sel |= u->expo[1] == 0.25 && u->logp[0] == 2 && r.model.coef[i] > 0;
    }
    CHECK(pm && sel);
    for (i = 0; i < 9; i++) {
        double y, lo, hi;
        CHECK_INT(fit_predict_ext(&r.model, test[i], &y, &lo, &hi, &e), 0);
        CHECK(y > test[i][2] / 4 && y < 4 * test[i][2]);
        CHECK(lo < test[i][2] && test[i][2] < hi);
    }
    fit_result_free(&r);
}

/* Candidate SEP (eval/RECORD.md §49): osu_bcast with Open MPI's default
 * decision on ORFEO EPYC (corpus-u, PieroZ01's bcast_default.csv), trained
 * on p = 2, 6, 10, 14 x n = 1 B .. 8 KiB, asked at p = 26, 54, 110 x n = 1,
 * 16, 64 KiB. The selection's law grows as p^(5/3) log p * n beyond the box
 * (up to 17x the published latency); the product of the two top slices'
 * laws, which replaces it, is within 1.5x of all 9 published values and
 * each lies inside its interval, whose lower bound stays above 0. */
static void test_two_var_slice_guard(void)
{
    static const double t[56] = {
        0.15, 0.15, 0.16, 0.16, 0.16, 0.16, 0.16, 0.22, 0.23, 0.27, 0.28, 0.32,
        0.4,  0.57, 0.4,  0.41, 0.39, 0.41, 0.39, 0.45, 0.38, 0.68, 0.74, 0.84,
        0.89, 1.21, 1.65, 2.95, 1.04, 1.02, 1.01, 1.23, 1.24, 1.31, 1.18, 1.68,
        1.68, 1.92, 1.98, 2.58, 4.13, 6.27, 1.07, 1.07, 1.05, 1.26, 1.25, 1.42,
        1.07, 1.66, 1.64, 1.88, 2,    2.82, 5.28, 8.3};
    static const double test[9][3] = {
        {26, 1024, 3.27},  {26, 16384, 26.04},  {26, 65536, 81.56},
        {54, 1024, 4.11},  {54, 16384, 18.91},  {54, 65536, 68.32},
        {110, 1024, 5.62}, {110, 16384, 28.46}, {110, 65536, 100.91}};
    double x[112];
    struct fit_input in = {2, x, t, 56, "auto", AGG_MEAN, NULL};
    struct fit_result r;
    struct err e = {0};
    int i;

    for (i = 0; i < 56; i++) {
        x[2 * i] = 2 + 4 * (i / 14);
        x[2 * i + 1] = 1 << (i % 14);
    }
    CHECK_INT(fit_run(&in, &r, &e), 0);
    for (i = 0; i < 9; i++) {
        double y, lo, hi;
        CHECK_INT(fit_predict_ext(&r.model, test[i], &y, &lo, &hi, &e), 0);
        CHECK(y > test[i][2] / 1.5 && y < 1.5 * test[i][2]);
        CHECK(lo > 0 && lo < test[i][2] && test[i][2] < hi);
    }
    fit_result_free(&r);
}

/* cv_rmse is the leave-one-x-out RMS error: for `auto` (relative, leaning
 * toward the largest x) it equals the law refitted without each point in
 * turn, the same terms, relative weights and lean, asked at that point.
 * Before, the leverage left out the lean and PRESS found a point with
 * h >= 1 where none is, reporting 0. */
static void test_cv_rmse_leaned(void)
{
    double x[8], y[8], press = 0;
    struct fit_point pts[8];
    struct fit_result r;
    struct fit_model m;
    struct err e = {0};
    size_t i, j, k;

    for (i = 0; i < 8; i++) {
        x[i] = pow(2, (double)i);
        y[i] = (100 / x[i] + 2) * (1 + 0.04 * ((double)((i * 5) % 7) - 3) / 3);
    }
    CHECK_INT(run1(x, y, 8, "auto", &r, &e), 0);
    CHECK(r.model.lean > 0);
    CHECK_INT(r.model.relative, 1);
    CHECK_INT(r.model.outliers, 0);
    CHECK(r.model.seg_x == 0);
    for (i = 0; i < 8; i++) {
        double yh;
        memset(pts, 0, sizeof pts);
        for (j = 0, k = 0; j < 8; j++)
            if (j != i) {
                pts[k].x[0] = x[j];
                pts[k].y = y[j];
                pts[k].n = 1;
                k++;
            }
        CHECK_INT(fit_terms_lean(pts, 7, 1, r.model.term, r.model.nterms, 1, r.model.lean,
                                 &m, &e),
                  0);
        CHECK_INT(fit_eval(&m, &x[i], &yh, &e), 0);
        press += (y[i] - yh) * (y[i] - yh);
    }
    CHECK(r.stats.cv_rmse > 0);
    CHECK_REL(r.stats.cv_rmse, sqrt(press / 8), 1e-9);
    fit_result_free(&r);
}

/* fit_terms_lean (eval/RECORD.md §18): y = a + b x on (1, 3), (2, 3),
 * (4, 5), (8, 9), each point weighed by (x / 8)^1.5, is the weighted least
 * squares line, solved here from its normal equations: the weights 1/22.6,
 * 1/8, 1/2.83, 1 put it near the upper points (b = 0.971 against the
 * unweighted 26 / 28.75 = 0.904). Bad leans are refused, and `auto` leans
 * with one variable only. */
static void test_fit_terms_lean(void)
{
    static const double xs[4] = {1, 2, 4, 8}, ys[4] = {3, 3, 5, 9};
    struct fit_point pts[4];
    struct fit_term t[2];
    struct fit_model m;
    struct fit_result r;
    struct err e = {0};
    double sw = 0, swx = 0, swxx = 0, swy = 0, swxy = 0, a, b, y, x16 = 16;
    double g[50], h[25];
    int i, j;

    memset(pts, 0, sizeof pts);
    memset(t, 0, sizeof t);
    t[1].expo[0] = 1;
    for (i = 0; i < 4; i++) {
        double w = pow(xs[i] / 8, 1.5);
        pts[i].x[0] = xs[i];
        pts[i].y = ys[i];
        pts[i].n = 1;
        sw += w;
        swx += w * xs[i];
        swxx += w * xs[i] * xs[i];
        swy += w * ys[i];
        swxy += w * xs[i] * ys[i];
    }
    b = (sw * swxy - swx * swy) / (sw * swxx - swx * swx);
    a = (swy - b * swx) / sw;
    CHECK_INT(fit_terms_lean(pts, 4, 1, t, 2, 0, 1.5, &m, &e), 0);
    CHECK(m.lean == 1.5);
    CHECK_INT(fit_eval(&m, &x16, &y, &e), 0);
    CHECK_NEAR(y, a + 16 * b, 1e-12 * (a + 16 * b));
    /* s2 is the noise of one observation: the weights keep a mean of 1, so
     * s2 = sum (w_i / wbar) r_i^2 / (n - 2), not sum w_i r_i^2 / (n - 2) */
    {
        double wbar = sw / 4, s2 = 0;
        for (i = 0; i < 4; i++) {
            double res = ys[i] - a - b * xs[i];
            s2 += pow(xs[i] / 8, 1.5) / wbar * res * res / 2;
        }
        CHECK_REL(m.s2, s2, 1e-9);
        /* with repetitions (2 each, spread 0.1): their sum of squares is
         * weighed as their point is */
        s2 = 0;
        for (i = 0; i < 4; i++) {
            double res = ys[i] - a - b * xs[i];
            pts[i].n = 2;
            pts[i].ss = 2 * 0.1 * 0.1;
            s2 += pow(xs[i] / 8, 1.5) / wbar * (2 * res * res + pts[i].ss) / (8 - 2);
        }
        CHECK_INT(fit_terms_lean(pts, 4, 1, t, 2, 0, 1.5, &m, &e), 0);
        CHECK_REL(m.s2, s2, 1e-9);
        for (i = 0; i < 4; i++) {
            pts[i].n = 1;
            pts[i].ss = 0;
        }
    }
    CHECK_INT(fit_terms(pts, 4, 1, t, 2, 0, &m, &e), 0);
    CHECK(m.lean == 0);
    CHECK_INT(fit_eval(&m, &x16, &y, &e), 0);
    CHECK_NEAR(y, 5 - 3.75 * 26 / 28.75 + 16 * 26 / 28.75, 1e-12);
    CHECK_INT(fit_terms_lean(pts, 4, 1, t, 2, 0, -1, &m, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    err_clear(&e);
    CHECK_INT(fit_terms_lean(pts, 4, 1, t, 2, 0, FIT_LEAN_MAX + 1, &m, &e), -1);
    err_clear(&e);
    pts[0].x[0] = 0;
    CHECK_INT(fit_terms_lean(pts, 4, 1, t, 2, 0, 1.5, &m, &e), -1);
    CHECK_STR(e.field, "data");
    err_clear(&e);
    CHECK_INT(fit_terms_lean(pts, 4, 2, t, 2, 0, 1.5, &m, &e), -1);
    err_clear(&e);
    /* auto: one variable leans, two do not */
    for (i = 0; i < 5; i++)
        for (j = 0; j < 5; j++) {
            g[2 * (5 * i + j)] = 1 << i;
            g[2 * (5 * i + j) + 1] = 1 << j;
            h[5 * i + j] = 1 + 0.01 * (1 << i) * (1 << j);
        }
    {
        struct fit_input in2 = {2, g, h, 25, "auto", AGG_MEAN, NULL};
        CHECK_INT(fit_run(&in2, &r, &e), 0);
        CHECK(r.model.lean == 0);
        fit_result_free(&r);
    }
    CHECK_INT(run1(g, h, 10, NULL, &r, &e), 0);
    CHECK(r.model.lean == 1.5);
    fit_result_free(&r);
}

/* Candidate SB2 (eval/RECORD.md §22): beyond the data a two-variable law
 * grows along a variable whose data decelerate at the top (8x to 16x
 * beyond, the other at its largest value) no faster than x^(max(s, 1) +
 * 0.5), s the steepest slope of the top pairs, whichever law `auto` ends
 * with. Real published grid: osu_bcast with Open MPI's pipeline algorithm
 * over p = 2..16 ranks x n = 2 B..8 KiB on an ORFEO EPYC node
 * (eruoppolo/HPC_2023 @31822e8, ex1/results/bcast/var_size/
 * bcast3_core_mapping_epyc.csv; eval/data/corpus-b): the growth in p falls
 * from p^1.9 (4 to 8) to p^1.1 (8 to 16), and main's law c + a p^2 + b p^2 n
 * was 8x high at p = 128 (measured there later: 35.38 us at 1 KiB). The
 * cubic of test_two_param, whose data accelerate, keeps its law. */
static double slice_slope(const double (*g)[13], int top, int j)
{
    return log(g[top][j] / g[top - 1][j]) / log(2);
}

static void test_two_var_growth_bound(void)
{
    static const double bc[4][13] = {
        {0.15, 0.15, 0.15, 0.14, 0.15, 0.14, 0.21, 0.21, 0.23, 0.27, 0.3, 0.4, 0.56},
        {0.25, 0.24, 0.24, 0.24, 0.26, 0.25, 0.37, 0.39, 0.42, 0.49, 0.6, 0.82, 1.22},
        {1.24, 1.23, 1.23, 1.24, 1.39, 1.34, 1.61, 1.68, 1.79, 1.96, 2.43, 3.19, 4.48},
        {2.72, 2.74, 2.73, 2.74, 3.04, 3.01, 3.51, 3.48, 3.64, 4.32, 5.19, 6.51, 9.1}};
    double x[2 * 52], y[52], s = -INFINITY, below = -INFINITY, f8, f16, yp;
    double q8[2] = {128, 8192}, q16[2] = {256, 8192}, q[2] = {128, 1024};
    struct fit_input in = {2, x, y, 52, "auto", AGG_MEAN, NULL};
    struct fit_result r;
    struct err e = {0};
    int i, j, n = 0;

    for (i = 0; i < 4; i++)
        for (j = 0; j < 13; j++, n++) {
            x[2 * n] = pow(2, i + 1);
            x[2 * n + 1] = pow(2, j + 1);
            y[n] = bc[i][j];
        }
    for (j = 0; j < 13; j++) { /* the steepest top pair (16 vs 8), the pair below */
        s = fmax(s, slice_slope(bc, 3, j));
        below = fmax(below, slice_slope(bc, 2, j));
    }
    CHECK(s < below); /* the data decelerate in p */
    CHECK_INT(fit_run(&in, &r, &e), 0);
    CHECK_INT(fit_eval(&r.model, q8, &f8, NULL), 0);
    CHECK_INT(fit_eval(&r.model, q16, &f16, NULL), 0);
    CHECK(f8 > 0 && log2(f16 / f8) <= fmax(s, 1) + 0.5 + 1e-9);
    CHECK_INT(fit_eval(&r.model, q, &yp, NULL), 0);
    CHECK(yp > 35.38 / 2.5 && yp < 35.38 * 2.5);
    fit_result_free(&r);
}

/* A subtracted cost may not turn the law against the data's top
 * (eval/RECORD.md §25): OpenMP matmul, n = 2048, 5 runs at 1, 2, 4, 8
 * threads (Hemanth-G48/hpc-project, results/timings.csv), still falling
 * from 4 to 8. c0 - c1 log2(x)/x^(1/2) turns at x = 7.4 and fitted here
 * predicted 0.49 s at 16 threads, above its 0.40 at 8; measured 0.346. */
static void test_subtracted_turn(void)
{
    static const double t[4][5] = {{1.867117, 1.864098, 1.861234, 1.858463, 1.86436},
                                   {0.941831, 1.010924, 0.932777, 0.931537, 0.936581},
                                   {0.527188, 0.494548, 0.47801, 0.469382, 0.47043},
                                   {0.400713, 0.396025, 0.394703, 0.4335, 0.37686}};
    double x[20], y[20], q8 = 8, q16 = 16, f8, f16;
    struct fit_input in = {1, x, y, 20, "auto", AGG_MEAN, NULL};
    struct fit_result r;
    struct err e = {0};
    int i, j, n = 0;

    for (i = 0; i < 4; i++)
        for (j = 0; j < 5; j++, n++) {
            x[n] = pow(2, i);
            y[n] = t[i][j];
        }
    CHECK_INT(fit_run(&in, &r, &e), 0);
    CHECK_INT(fit_eval(&r.model, &q8, &f8, NULL), 0);
    CHECK_INT(fit_eval(&r.model, &q16, &f16, NULL), 0);
    CHECK(f16 <= f8);
    CHECK(fabs(f16 - 0.345788) <= 0.1 * 0.345788);
    fit_result_free(&r);
}

/* `auto` with the mean represents a configuration whose runs hold a spike
 * (one more than 2x their median, or below half of it; >= 3 runs) by the
 * median (eval/RECORD.md §28); runs that agree within 2x, other graphs and
 * the other aggregates are as asked. One variable and two. */
static void test_spike_median(void)
{
    double x[15], y[15], x2[2 * 27], y2[27];
    static const double r4[3] = {3.25, 3.3, 9.9}, r8[3] = {2.125, 2.2, 4.3};
    struct fit_input in = {1, x, y, 15, "auto", AGG_MEAN, NULL};
    struct fit_result r;
    struct err e = {0};
    int i, j, n = 0;

    for (i = 0; i < 5; i++)
        for (j = 0; j < 3; j++, n++) {
            x[n] = pow(2, i);
            y[n] = (1 + 9 / x[n]) * (i == 2   ? r4[j] / 3.25
                                     : i == 3 ? r8[j] / 2.125
                                              : 1 + 0.02 * (j - 1));
        }
    CHECK_INT(fit_run(&in, &r, &e), 0);
    CHECK_INT((int)r.npoints, 5);
    CHECK_REL(r.points[2].y, 3.3, 1e-12);                     /* the spike: the median */
    CHECK_REL(r.points[3].y, (2.125 + 2.2 + 4.3) / 3, 1e-12); /* within 2x: the mean */
    CHECK_REL(r.points[0].y, 10, 1e-12);
    fit_result_free(&r);
    in.graph = "poly1";
    CHECK_INT(fit_run(&in, &r, &e), 0);
    CHECK_REL(r.points[2].y, (3.25 + 3.3 + 9.9) / 3, 1e-12);
    fit_result_free(&r);
    in.graph = "auto";
    in.agg = AGG_MIN;
    CHECK_INT(fit_run(&in, &r, &e), 0);
    CHECK_REL(r.points[2].y, 3.25, 1e-12);
    fit_result_free(&r);
    /* two variables: a low spike (below half the median) at one corner */
    n = 0;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) {
            int k;
            for (k = 0; k < 3; k++, n++) {
                x2[2 * n] = pow(2, i);
                x2[2 * n + 1] = pow(2, j);
                y2[n] = (1 + x2[2 * n] * x2[2 * n + 1]) * (1 + 0.01 * k);
                if (i == 1 && j == 2 && k == 0)
                    y2[n] = 0.4 * (1 + 8);
            }
        }
    in.nvars = 2;
    in.x = x2;
    in.y = y2;
    in.n = 27;
    in.agg = AGG_MEAN;
    CHECK_INT(fit_run(&in, &r, &e), 0);
    for (i = 0; i < (int)r.npoints; i++)
        if (r.points[i].x[0] == 2 && r.points[i].x[1] == 4)
            CHECK_REL(r.points[i].y, 9 * 1.01, 1e-12); /* of 3.6, 9.09, 9.18 */
        else if (r.points[i].x[0] == 2 && r.points[i].x[1] == 2)
            CHECK_REL(r.points[i].y, 5 * 1.01, 1e-12);
    fit_result_free(&r);
}

/* The two-variable warning (eval/RECORD.md §15, §17): it fires when the law
 * fitted again without the largest values of a variable (the folds) moves
 * the prediction by g with g·d > 0.2, and the sentence on outliers left out
 * is a warning for one variable only. A law y = 1 + 0.01·p·n measured
 * exactly on p, n = 1, 2, 4, 8, 16: the folds are the law (g = 0), so 2x
 * beyond in p (d = 1) there is no warning; a fold moved by hand to 1.5x the
 * law's p·n coefficient warns with its own sentence. */
static void test_two_var_warning_from_folds(void)
{
    double x[50], y[25], q[2] = {32, 4}, yp, lo, hi, x1[6], y1[6], q1 = 64;
    struct fit_input in = {2, x, y, 25, "auto", AGG_MEAN, NULL};
    struct fit_result r, r1;
    struct err e = {0};
    struct buf b;
    int i, j, n = 0;

    for (i = 0; i < 5; i++)
        for (j = 0; j < 5; j++) {
            x[2 * n] = 1 << i;
            x[2 * n + 1] = 1 << j;
            y[n] = 1 + 0.01 * x[2 * n] * x[2 * n + 1];
            n++;
        }
    CHECK_INT(fit_run(&in, &r, &e), 0);
    CHECK_INT(r.model.fold_n, 2);
    buf_init(&b, 512);
    CHECK_INT(fit_predict_ext(&r.model, q, &yp, &lo, &hi, &e), 0);
    CHECK(fabs(yp - 2.28) < 1e-6);
    CHECK(fit_fold_spread(&r.model, q, yp) < 1e-6);
    CHECK_INT(fit_warning(&r.model, q, yp, lo, hi, &b), 0);
    /* one outlier left out: a note in the model, not a warning */
    r.model.outliers = 1;
    CHECK_INT(fit_warning(&r.model, q, yp, lo, hi, &b), 0);
    CHECK_INT((int)b.len, 0);
    for (i = 0; i < r.model.nterms; i++)
        if (r.model.term[i].expo[0] > 0 && r.model.term[i].expo[1] > 0)
            r.model.fold_coef[1][i] *= 1.5;
    /* that fold predicts 1 + 0.015·128 = 2.92 at (32, 4): g = ln(2.92 / 2.28) */
    CHECK(fabs(fit_fold_spread(&r.model, q, yp) - log(2.92 / 2.28)) < 1e-6);
    CHECK_INT(fit_warning(&r.model, q, yp, lo, hi, &b), 1);
    CHECK(strstr(buf_str(&b),
                 "Fitted again without the largest measured values of a "
                 "variable, the law's prediction here moves by a factor of "
                 "1.28, and this point lies 1 doubling beyond the data") != NULL);
    buf_free(&b);
    fit_result_free(&r);

    /* one variable: the outlier sentence stays a warning beyond the data */
    for (i = 0; i < 6; i++) {
        x1[i] = 1 << i;
        y1[i] = 2 + 0.5 * x1[i];
    }
    CHECK_INT(run1(x1, y1, 6, NULL, &r1, &e), 0);
    r1.model.outliers = 1;
    buf_init(&b, 512);
    CHECK_INT(fit_predict_ext(&r1.model, &q1, &yp, &lo, &hi, &e), 0);
    CHECK_INT(fit_warning(&r1.model, &q1, yp, lo, hi, &b), 1);
    CHECK(strstr(buf_str(&b), "left out as outlier") != NULL);
    buf_free(&b);
    fit_result_free(&r1);
}

/* The pair search skips pairs whose PRESS bound cannot beat their class:
 * on 600 random designs (4..30 distinct x, 1..3 repetitions, laws of one
 * and two terms, 0..20 % noise, absolute and relative fits) the search gives
 * bit-identical classes (terms, PRESS, its standard error, RSS) with and
 * without the skipping. */
static int same_cands(const struct fit_cands *a, const struct fit_cands *b)
{
    int i, j;

    if (a->n != b->n)
        return 0;
    for (i = 0; i < a->n; i++) {
        const struct fit_cand *p = &a->c[i], *q = &b->c[i];
        if (p->nterms != q->nterms || p->cx != q->cx || p->press != q->press ||
            p->se != q->se || p->rss != q->rss)
            return 0;
        for (j = 1; j < p->nterms; j++)
            if (p->term[j].expo[0] != q->term[j].expo[0] ||
                p->term[j].logp[0] != q->term[j].logp[0])
                return 0;
    }
    return 1;
}

static void test_pair_pruning_is_exact(void)
{
    static double x[90], y[90];
    static struct fit_cands ca, cb;
    uint64_t r = 12345;
    int k, differ = 0, searched = 0;

    for (k = 0; k < 600; k++) {
        int m = 4 + k % 27, reps = 1 + k % 3, i, q, rel = 1;
        double noise = 0.2 * (double)(k % 7) / 6, lo = (k % 2) ? 1 : 0.5;
        struct fit_result a;
        struct err e = {0};
        size_t n = 0, j;
        for (i = 0; i < m; i++)
            for (q = 0; q < reps; q++) {
                double xi = lo * pow(1.5, i), u;
                r = r * 6364136223846793005ULL + 1442695040888963407ULL;
                u = (double)(r >> 11) / 9007199254740992.0 - 0.5;
                x[n] = xi;
                y[n] = (k % 5 == 0   ? 3 + 2 * sqrt(xi)
                        : k % 5 == 1 ? 200 / xi + 0.5 * log2(xi + 1) + 1
                        : k % 5 == 2 ? 1e-3 * xi * xi * xi + xi
                        : k % 5 == 3 ? 10 - xi
                                     : 5 + xi * log2(xi + 1)) *
                           (1 + noise * u) +
                       (k % 11 == 0 ? noise * u : 0);
                n++;
            }
        /* fit_run aggregates the repetitions as the search receives them */
        CHECK_INT(
            fit_run(&(struct fit_input){1, x, y, n, "poly1", AGG_MEAN, NULL}, &a, &e), 0);
        for (j = 0; j < a.npoints; j++)
            rel &= a.points[j].y > 0;
        if (fit_search_cands(a.points, a.npoints, 1, rel, 1, &ca, &e) == 0 &&
            fit_search_cands(a.points, a.npoints, 1, rel, 0, &cb, &e) == 0) {
            searched++;
            differ += !same_cands(&ca, &cb);
        }
        fit_result_free(&a);
    }
    CHECK(searched == 600);
    CHECK_INT(differ, 0);
}

/* SPEC §18: `auto` is the default graph; the paper's `unknown` warns when it
 * extrapolates a polynomial of degree 3 or more (not inside the data); an
 * interval of a positive quantity never reaches 0 (log space), where the
 * classical interval of the same fit does. */
static double law_matmul(double n)
{
    return 2e-9 * n * n * n + 1e-6 * n * n + 0.01;
}

static void test_spec18_defaults_and_positive_intervals(void)
{
    double x[32], y[32], xq, yp, lo, hi, clo, chi;
    struct fit_result r;
    struct err e = {0};
    enum fit_graph g = FIT_POLY1;
    struct buf b;
    size_t n = 0;
    int i, k, classical_neg = 0, positive_checked = 0, nonpos_warned = 0;

    CHECK_INT(fit_graph_parse(NULL, &g, &e), 0);
    CHECK_INT(g, FIT_AUTO);
    CHECK_INT(fit_graph_parse("", &g, &e), 0);
    CHECK_INT(g, FIT_AUTO);
    rng_seed(18);
    for (i = 0; i < 8; i++)
        for (k = 0; k < 2; k++) {
            x[n] = 200.0 * (i + 1);
            y[n] = law_matmul(x[n]) * (1 + 0.05 * rng_gauss());
            n++;
        }
    CHECK_INT(run1(x, y, n, NULL, &r, &e), 0);
    CHECK_INT(r.model.graph, FIT_AUTO);
    fit_result_free(&r);
    CHECK_INT(run1(x, y, n, "unknown", &r, &e), 0);
    CHECK(r.model.chosen >= FIT_POLY1 + 2 && r.model.chosen <= FIT_POLY6);
    CHECK_INT(r.model.positive, 1);
    buf_init(&b, 512);
    xq = 900;
    CHECK_INT(fit_predict_ext(&r.model, &xq, &yp, &lo, &hi, &e), 0);
    CHECK(fit_warning(&r.model, &xq, yp, lo, hi, &b) >= 0);
    CHECK(strstr(buf_str(&b), "polynomial of degree") == NULL);
    b.len = 0;
    xq = 16000;
    CHECK_INT(fit_predict_ext(&r.model, &xq, &yp, &lo, &hi, &e), 0);
    CHECK_INT(fit_warning(&r.model, &xq, yp, lo, hi, &b), 1);
    printf("     unknown chose %s; at 16000: %.4g [%.4g, %.4g]: %s\n",
           fit_graph_name(r.model.chosen), yp, lo, hi, buf_str(&b));
    CHECK(strstr(buf_str(&b), "chose a polynomial of degree") != NULL);
    fit_result_free(&r);

    /* Least residual passing a polynomial through every point (no degrees
     * of freedom left) still names its degree beyond the data, and says
     * there is no interval; inside the data only the latter. */
    n = 0;
    for (i = 1; i <= 6; i++) {
        x[n] = i;
        y[n] = 10 + i + (i % 2 ? 3 : -3) * i * 0.1;
        n++;
    }
    CHECK_INT(run1(x, y, n, "unknown", &r, &e), 0);
    CHECK_INT(r.model.chosen, FIT_POLY1 + 4);
    CHECK(r.model.dof < 1);
    b.len = 0;
    xq = 12;
    CHECK_INT(fit_predict_ext(&r.model, &xq, &yp, &lo, &hi, &e), 0);
    CHECK_INT(fit_warning(&r.model, &xq, yp, lo, hi, &b), 1);
    CHECK_STR(buf_str(&b),
              "The least residual of the 12 types chose a polynomial of degree 5, "
              "which diverges beyond the measured range; graph \"auto\" is meant "
              "for extrapolation. It has no degrees of freedom left, so this "
              "prediction has no interval.");
    b.len = 0;
    xq = 3.5;
    CHECK_INT(fit_predict_ext(&r.model, &xq, &yp, &lo, &hi, &e), 0);
    CHECK_INT(fit_warning(&r.model, &xq, yp, lo, hi, &b), 1);
    CHECK_STR(buf_str(&b),
              "The fit has no degrees of freedom left, so this prediction has "
              "no interval; measure more points.");
    buf_free(&b);
    fit_result_free(&r);

    /* A time that falls as 20 - 0.5 p (p = 1..16, 5 % noise) heads to 0 at
     * p = 40: up to where the line crosses, its interval stays above 0; the
     * classical one does not. */
    n = 0;
    for (i = 1; i <= 16; i++) {
        x[n] = i;
        y[n] = (20 - 0.5 * i) * (1 + 0.05 * rng_gauss());
        n++;
    }
    CHECK_INT(run1(x, y, n, "linear", &r, &e), 0);
    CHECK_INT(r.model.positive, 1);
    buf_init(&b, 512);
    for (xq = 17; xq < 80; xq *= 1.02) {
        CHECK_INT(fit_predict_ext(&r.model, &xq, &yp, &lo, &hi, &e), 0);
        CHECK_INT(fit_predict(&r.model, &xq, &yp, &clo, &chi, &e), 0);
        if (yp > 0) {
            positive_checked++;
            CHECK(lo > 0 && lo < yp && yp < hi);
            classical_neg += clo <= 0;
        } else {
            b.len = 0;
            CHECK_INT(fit_warning(&r.model, &xq, yp, lo, hi, &b), 1);
            nonpos_warned += strstr(buf_str(&b), "non-positive value") != NULL;
        }
    }
    printf("     linear: %d positive predictions, classical lo <= 0 in %d, %d warned\n",
           positive_checked, classical_neg, nonpos_warned);
    CHECK(positive_checked > 5 && classical_neg > 0 && nonpos_warned > 5);
    buf_free(&b);
    fit_result_free(&r);
}

/* Two rules of eligibility on published measurements (eval/RECORD.md §5):
 * a law may not accelerate beyond the data far faster than the data grew,
 * and a term subtracted from a positive quantity must keep its direction
 * beyond the data. (1) osu_allreduce latencies [us] over the message size
 * on a GKE GPU pool, 5 runs per size, 4 B ... 16 KiB with the protocol jump
 * at 16 KiB (converged-computing/performance-study @6f3df687c43d): before,
 * x^(5/2) log2(x)^2 took the jump and predicted 60x the 2024 us measured at
 * 128 KiB. (2) A 17600^2 dgemv's time [s] on 1 ... 32 ranks of the DEAC
 * cluster (BraeTroutman/pdgemv @c9a9f5ffe962): c0 - c1 log2(p)/p^(1/4),
 * whose term peaks at p = 55, predicted 0.054 s at 176 ranks against
 * 0.0195 measured and kept rising. */
static void test_laws_keep_pace_and_direction(void)
{
    static const double lat[13][5] = {{419.21, 407.04, 413.28, 406.73, 403.8},
                                      {415.88, 405.4, 411.85, 400.14, 405.16},
                                      {418.32, 414.22, 415.87, 403.76, 408.85},
                                      {413.0, 418.68, 411.62, 403.63, 413.0},
                                      {426.9, 426.62, 422.37, 416.76, 432.57},
                                      {436.1, 564.65, 428.56, 417.87, 435.5},
                                      {444.14, 429.42, 443.81, 424.16, 442.56},
                                      {447.8, 442.0, 440.61, 431.05, 446.71},
                                      {469.98, 466.17, 475.45, 458.53, 467.69},
                                      {479.24, 535.88, 484.63, 478.76, 484.05},
                                      {538.13, 545.92, 543.37, 531.18, 544.61},
                                      {596.78, 603.43, 606.1, 591.04, 603.72},
                                      {1526.43, 1566.89, 1563.9, 1558.7, 1548.53}};
    static const double pp[12] = {1, 2, 4, 5, 8, 10, 11, 16, 20, 22, 25, 32};
    static const double pt[12] = {3.45319,  1.74343,  0.782188, 0.77966,
                                  0.393282, 0.389601, 0.367829, 0.159785,
                                  0.177813, 0.158969, 0.141035, 0.0886246};
    double x[65], y[65], xq, yp, yq, lo, hi;
    struct fit_result r;
    struct err e = {0};
    size_t n = 0;
    int i, k;

    for (i = 0; i < 13; i++)
        for (k = 0; k < 5; k++) {
            x[n] = 4.0 * pow(2, i);
            y[n++] = lat[i][k];
        }
    CHECK_INT(run1(x, y, n, "auto", &r, &e), 0);
    xq = 131072;
    CHECK_INT(fit_predict_ext(&r.model, &xq, &yp, &lo, &hi, &e), 0);
    printf("     allreduce at 128 KiB: %.4g us (measured 2024.12)\n", yp);
    CHECK(yp > 0.5 * 2024.12 && yp < 2 * 2024.12);
    fit_result_free(&r);

    CHECK_INT(run1(pp, pt, 12, "auto", &r, &e), 0);
    xq = 64;
    CHECK_INT(fit_predict_ext(&r.model, &xq, &yp, &lo, &hi, &e), 0);
    xq = 176;
    CHECK_INT(fit_predict_ext(&r.model, &xq, &yq, &lo, &hi, &e), 0);
    printf("     dgemv at 64 / 176 ranks: %.4g / %.4g s (measured 0.0495 / 0.0195)\n", yp,
           yq);
    CHECK(yq < yp && yq < 2 * 0.0194741 && yq > 0.5 * 0.0194741);
    fit_result_free(&r);
}

/* A constant answer that misses its own forward points by more than a
 * factor e is weighed against the laws of one term and no constant
 * (eval/RECORD.md §35). A transpose's time (wang-zixuan/CSE6220-HPC, n =
 * 160 ... 1280) grows 70x, 10x over its first doubling: every law with a
 * constant fits it with a constant below zero and is refused, and `auto`
 * answered the constant 0.000214 s; measured at 2560 and 5120: 0.0292 and
 * 0.165 s. fit_search_pure itself: exact on y = 3 x^1.5; nothing for a
 * y <= 0. Flat data keep their constant. The gate (a factor e) is held by
 * the dgemv ranks of test_laws_keep_pace_and_direction, whose upper regime
 * takes c/x^1.5 without it. */
static void test_constant_weighed_against_pure(void)
{
    static const double x[4] = {160, 320, 640, 1280};
    static const double y[4] = {0.000118, 0.001253, 0.003189, 0.008252};
    static const double xf[5] = {1, 2, 4, 8, 16}, yf[5] = {5.0, 5.1, 4.9, 5.05, 5.0};
    struct fit_point pts[4];
    struct fit_cands *cs = xmalloc(sizeof *cs);
    struct fit_result r;
    struct err e = {0};
    double q, yp, lo, hi;
    int i, k, found = 0;

    CHECK_INT(run1(x, y, 4, "auto", &r, &e), 0);
    CHECK_INT(r.model.nterms, 1);
    CHECK(r.model.term[0].expo[0] == 2 && r.model.term[0].logp[0] == 0);
    q = 2560;
    CHECK_INT(fit_predict_ext(&r.model, &q, &yp, &lo, &hi, &e), 0);
    CHECK(yp > 0.029195 / 1.5 && yp < 0.029195 * 1.5 && lo < 0.029195 && hi > 0.029195);
    q = 5120;
    CHECK_INT(fit_predict_ext(&r.model, &q, &yp, &lo, &hi, &e), 0);
    CHECK(yp > 0.164851 / 1.5 && yp < 0.164851 * 1.5);
    fit_result_free(&r);

    memset(pts, 0, sizeof pts);
    for (i = 0; i < 4; i++) {
        pts[i].x[0] = pow(2, i);
        pts[i].y = 3 * pow(2, 1.5 * i);
        pts[i].n = 1;
    }
    cs->n = 0;
    CHECK(fit_search_pure(pts, 4, 1, cs) > 0);
    for (k = 0; k < cs->n; k++)
        if (cs->c[k].term[0].expo[0] == 1.5 && cs->c[k].term[0].logp[0] == 0) {
            found = 1;
            CHECK_INT(cs->c[k].nterms, 1);
            CHECK_INT(cs->c[k].cx, 1);
            CHECK(cs->c[k].press < 1e-28 && cs->c[k].rss < 1e-28);
        }
    CHECK(found);
    pts[2].y = 0;
    cs->n = 0;
    CHECK_INT(fit_search_pure(pts, 4, 1, cs), 0);
    CHECK_INT(cs->n, 0);
    xfree(cs);

    CHECK_INT(run1(xf, yf, 5, "auto", &r, &e), 0);
    CHECK_INT(r.model.nterms, 1);
    CHECK(r.model.term[0].expo[0] == 0 && r.model.term[0].logp[0] == 0);
    fit_result_free(&r);
}

int main(void)
{
    gsl_set_error_handler_off();
    RUN(test_graph_parse);
    RUN(test_exact_every_type);
    RUN(test_matmul_cubic);
    RUN(test_unknown_is_min_rss);
    RUN(test_auto_exact_and_naming);
    RUN(test_auto_recovers_laws);
    RUN(test_unknown_vs_auto_extrapolation);
    RUN(test_spec18_defaults_and_positive_intervals);
    RUN(test_laws_keep_pace_and_direction);
    RUN(test_constant_weighed_against_pure);
    RUN(test_two_param);
    RUN(test_two_param_small_grid);
    RUN(test_interval_coverage);
    RUN(test_exact_fit_has_no_interval);
    RUN(test_statistics);
    RUN(test_formulas);
    RUN(test_model_is_a_value);
    RUN(test_degenerate);
    RUN(test_out_of_memory);
    RUN(test_auto_extrapolates);
    RUN(test_auto_strong_scaling_over_a_wide_span);
    RUN(test_thin_data_is_wide);
    RUN(test_extrapolation_and_warning);
    RUN(test_suggest);
    RUN(test_outlier_is_left_out);
    RUN(test_regime_change);
    RUN(test_pmnf1);
    RUN(test_pmnf1_negexp);
    RUN(test_pmnf2);
    RUN(test_pair_pruning_is_exact);
    RUN(test_one_term_law);
    RUN(test_wide_span_takes_one_term);
    RUN(test_wide_span_step_is_not_growth);
    RUN(test_wide_span_step_in_selection);
    RUN(test_two_var_takes_pmnf2);
    RUN(test_two_var_positive_beyond_corner);
    RUN(test_two_var_warning_from_folds);
    RUN(test_two_var_growth_bound);
    RUN(test_subtracted_turn);
    RUN(test_spike_median);
    RUN(test_fit_terms_lean);
    RUN(test_cv_rmse_leaned);
    RUN(test_two_var_latency_bandwidth);
    RUN(test_two_var_slice_guard);
    return harness_report();
}
