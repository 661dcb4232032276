/* Unit tests for fits on a machine curve (models/fit.h struct fit_basis,
 * docs/models.md §12): building the curve, evaluating it between and beyond
 * its points, the fit y = c0 + c1 * B(x), its interval, warning, suggestion
 * and the errors of data it cannot describe. The curve's values are powers
 * of two, so its log-log interpolation is exact where the tests read it. */
#include "common/buf.h"
#include "common/err.h"
#include "models/fit.h"
#include "tests/harness.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <string.h>

/* A transfer time with a protocol step: flat 1 us up to 1 KiB, then 4 us at
 * 4 KiB and linear (time doubles with the size) from there to 4 MiB. */
static const double cx[] = {8, 64, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304};
static const double ct[] = {1e-6,  1e-6,   1e-6,    4e-6,   16e-6,
                            64e-6, 256e-6, 1024e-6, 4096e-6};
#define NC (sizeof cx / sizeof cx[0])

static void curve(struct fit_basis *b)
{
    struct err e = {0};
    CHECK_INT(fit_basis_make("MPISR", cx, ct, NC, b, &e), 0);
}

static void test_make_takes_medians_in_order(void)
{
    /* unordered, with repetitions: the median at each x (the mean of the
     * middle two for an even count) */
    double x[] = {4, 1, 4, 2, 1, 4, 1, 1};
    double t[] = {9, 2, 7, 5, 8, 8, 1, 4};
    struct fit_basis b;
    struct err e = {0};

    CHECK_INT(fit_basis_make("L2", x, t, 8, &b, &e), 0);
    CHECK_INT(b.n, 3);
    CHECK_STR(b.name, "L2");
    CHECK(b.x[0] == 1 && b.x[1] == 2 && b.x[2] == 4);
    CHECK(b.t[0] == 3 && b.t[1] == 5 && b.t[2] == 8);
}

static void test_make_rejects(void)
{
    double x[FIT_BASIS_MAX + 1], t[FIT_BASIS_MAX + 1];
    struct fit_basis b;
    struct err e = {0};
    int i;

    for (i = 0; i <= FIT_BASIS_MAX; i++) {
        x[i] = i + 1;
        t[i] = 1;
    }
    err_clear(&e);
    CHECK_INT(fit_basis_make("9x", x, t, 3, &b, &e), -1);
    CHECK_STR(e.field, "basis");
    err_clear(&e);
    CHECK_INT(fit_basis_make("a-b", x, t, 3, &b, &e), -1);
    err_clear(&e);
    CHECK_INT(fit_basis_make("", x, t, 3, &b, &e), -1);
    err_clear(&e);
    CHECK_INT(fit_basis_make("c", x, t, 1, &b, &e), -1);
    CHECK(strstr(e.message, "at least 2 distinct") != NULL);
    err_clear(&e);
    CHECK_INT(fit_basis_make("c", x, t, FIT_BASIS_MAX + 1, &b, &e), -1);
    CHECK(strstr(e.message, "more than 64 distinct") != NULL);
    CHECK_INT(b.n, 0);
    CHECK_INT(fit_basis_make("c", x, t, FIT_BASIS_MAX, &b, &e), 0);
    CHECK_INT(b.n, FIT_BASIS_MAX);
    x[1] = 0;
    err_clear(&e);
    CHECK_INT(fit_basis_make("c", x, t, 3, &b, &e), -1);
    CHECK(strstr(e.message, "measurement 1") != NULL);
    x[1] = 2;
    t[2] = -1;
    err_clear(&e);
    CHECK_INT(fit_basis_make("c", x, t, 3, &b, &e), -1);
    t[2] = NAN;
    err_clear(&e);
    CHECK_INT(fit_basis_make("c", x, t, 3, &b, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    err_clear(&e);
    CHECK_INT(fit_basis_make("c", x, t, (size_t)FIT_BASIS_RAW_MAX + 1, &b, &e), -1);
    CHECK_INT(e.status, ERR_TOO_LARGE);
}

static void test_eval_log_log(void)
{
    struct fit_basis b;

    curve(&b);
    CHECK_NEAR(fit_basis_at(&b, 8), 1e-6, 1e-15);
    CHECK_NEAR(fit_basis_at(&b, 4096), 4e-6, 1e-15);
    /* halfway between 1 KiB and 4 KiB in log x: halfway in log t */
    CHECK_NEAR(fit_basis_at(&b, 2048), 2e-6, 1e-15);
    CHECK_NEAR(fit_basis_at(&b, 524288), 512e-6, 1e-15);
    /* beyond the ends, along the end segments: flat below, linear above */
    CHECK_NEAR(fit_basis_at(&b, 1), 1e-6, 1e-15);
    CHECK_NEAR(fit_basis_at(&b, 33554432), 32768e-6, 1e-13);
}

static void test_scale_and_power(void)
{
    static const double ns[] = {2, 4, 8, 16, 32};
    struct fit_basis b;
    struct fit_input in = {0};
    struct fit_result r;
    struct err e = {0};
    struct buf f;
    double x[15], y[15], u, lo, hi;
    int i;
    const char *names[] = {"n"};

    curve(&b);
    CHECK(b.scale == 1 && b.power == 1);
    CHECK(fit_basis_arg(&b, 1024) == 1024);
    CHECK_NEAR(fit_basis_at(&b, 2048), 2e-6, 1e-15);
    b.scale = 16;
    b.power = 2;
    CHECK_NEAR(fit_basis_arg(&b, 16), 4096, 1e-9);
    /* 16 * 16^2 = 4 KiB, 16 * 8^2 = 1 KiB: the curve's points */
    CHECK_NEAR(fit_basis_at(&b, 16), 4e-6, 1e-15);
    CHECK_NEAR(fit_basis_at(&b, 8), 1e-6, 1e-15);
    /* 16 * (8 * sqrt 2)^2 = 2 KiB: halfway in log t */
    CHECK_NEAR(fit_basis_at(&b, 8 * sqrt(2)), 2e-6, 1e-15);
    /* y = 1e-6 + 2 B(16 n^2), exact: the law comes back, and its formula
     * says where the curve is read */
    for (i = 0; i < 15; i++) {
        x[i] = ns[i / 3];
        y[i] = 1e-6 + 2 * fit_basis_at(&b, x[i]);
    }
    in.nvars = 1;
    in.x = x;
    in.y = y;
    in.n = 15;
    in.graph = "auto";
    in.agg = AGG_MEAN;
    in.basis = &b;
    CHECK_INT(fit_run(&in, &r, &e), 0);
    CHECK_NEAR(r.model.coef[0], 1e-6, 1e-15);
    CHECK_NEAR(r.model.coef[1], 2, 1e-9);
    CHECK(r.model.basis.scale == 16 && r.model.basis.power == 2);
    /* n = 64: 16 * 64^2 = 64 KiB, 64e-6 on the curve */
    u = 64;
    CHECK_INT(fit_predict_ext(&r.model, &u, &y[0], &lo, &hi, &e), 0);
    CHECK_NEAR(y[0], 1e-6 + 128e-6, 1e-12);
    buf_init(&f, 256);
    CHECK_INT(fit_formula(&r.model, names, &f), 0);
    CHECK(strstr(buf_str(&f), "MPISR(16*n^2)") != NULL);
    buf_free(&f);
    /* the model check holds scale and power to their ranges */
    CHECK_INT(fit_model_check(&r.model, &e), 0);
    r.model.basis.scale = 0;
    CHECK_INT(fit_model_check(&r.model, &e), -1);
    r.model.basis.scale = 16;
    r.model.basis.power = FIT_BASIS_POWER_MAX + 1;
    CHECK_INT(fit_model_check(&r.model, &e), -1);
    fit_result_free(&r);
}

/* y = c0 + c1 * B(x) at the given x, with 3 observations each scaled by
 * 1 - s, 1, 1 + s. */
static int fit_on(const double *xs, size_t m, double c0, double c1, double s,
                  const char *graph, int nvars, const struct fit_basis *b,
                  struct fit_result *r, struct err *e)
{
    double x[3 * 16 * 2], y[3 * 16];
    size_t i, k, n = 0;
    struct fit_input in = {0};

    for (i = 0; i < m; i++)
        for (k = 0; k < 3; k++) {
            x[n * (size_t)nvars] = xs[i];
            if (nvars == 2)
                x[n * 2 + 1] = (double)k + 1;
            /* (x <= 0 is off the curve: any y, for the error test) */
            double bx = xs[i] > 0 ? fit_basis_at(b, xs[i]) : 1e-6;
            y[n++] = (c0 + c1 * bx) * (1 + s * ((double)k - 1));
        }
    in.nvars = nvars;
    in.x = x;
    in.y = y;
    in.n = n;
    in.graph = graph;
    in.agg = AGG_MEAN;
    in.basis = b;
    return fit_run(&in, r, e);
}

static void test_exact_law_through_the_step(void)
{
    /* measured on 64 B .. 16 KiB only: across the step, but not beyond it */
    static const double xs[] = {64, 256, 1024, 4096, 16384};
    struct fit_basis b;
    struct fit_result r;
    struct err e = {0};
    struct buf f;
    double x, y, lo, hi;

    curve(&b);
    CHECK_INT(fit_on(xs, 5, 2e-6, 3, 0, "auto", 1, &b, &r, &e), 0);
    CHECK_INT(r.model.graph, FIT_AUTO);
    CHECK_INT(r.model.chosen, FIT_BASIS);
    CHECK_STR(fit_graph_name(r.model.chosen), "basis");
    CHECK_NEAR(r.model.coef[0], 2e-6, 1e-12);
    CHECK_NEAR(r.model.coef[1], 3, 1e-9);
    CHECK(r.model.xmin[0] == 64 && r.model.xmax[0] == 16384);
    /* the forward check predicts exactly: xunc is the floor */
    CHECK_NEAR(r.model.xunc, 0.08, 1e-12);
    /* 4 MiB, 8 doublings beyond the data: the curve's value, exactly */
    x = 4194304;
    CHECK_INT(fit_predict_ext(&r.model, &x, &y, &lo, &hi, &e), 0);
    CHECK_NEAR(y / (2e-6 + 3 * 4096e-6), 1, 1e-9);
    CHECK(lo < y && y < hi);
    CHECK_NEAR(fit_extrapolation(&r.model, &x), 8, 1e-12);
    buf_init(&f, 4096);
    CHECK_INT(fit_formula(&r.model, (const char *const[]){"L"}, &f), 0);
    CHECK_STR(buf_str(&f), "y = 2e-06 + 3\xc2\xb7MPISR(L)");
    buf_free(&f);
    buf_init(&f, 4096);
    CHECK_INT(fit_machine_formula(&r.model, (const char *const[]){"L"}, &f), 0);
    CHECK(strstr(buf_str(&f), "*MPISR(L)") != NULL);
    buf_free(&f);
    /* residuals of an exact law are zero */
    CHECK_NEAR(r.stats.rss, 0, 1e-20);
    fit_result_free(&r);
    /* "linear" asks for the same law */
    CHECK_INT(fit_on(xs, 5, 2e-6, 3, 0, "linear", 1, &b, &r, &e), 0);
    CHECK_INT(r.model.graph, FIT_POLY1);
    CHECK_INT(r.model.chosen, FIT_BASIS);
    fit_result_free(&r);
}

static void test_interval_grows_with_reach(void)
{
    static const double xs[] = {64, 256, 1024, 4096, 16384, 65536};
    struct fit_basis b;
    struct fit_result r;
    struct err e = {0};
    double x1 = 65536, x2 = 262144, x3 = 4194304, y, lo1, hi1, lo2, hi2, lo3, hi3;

    curve(&b);
    CHECK_INT(fit_on(xs, 6, 5e-7, 2, 0.02, "auto", 1, &b, &r, &e), 0);
    CHECK_INT(fit_predict_ext(&r.model, &x1, &y, &lo1, &hi1, &e), 0);
    CHECK_INT(fit_predict_ext(&r.model, &x2, &y, &lo2, &hi2, &e), 0);
    CHECK_INT(fit_predict_ext(&r.model, &x3, &y, &lo3, &hi3, &e), 0);
    /* multiplicative (relative fit): the width relative to y grows */
    CHECK(hi1 / lo1 < hi2 / lo2 && hi2 / lo2 < hi3 / lo3);
    CHECK(lo3 > 0);
    fit_result_free(&r);
}

static void test_warning_and_suggest(void)
{
    static const double xs[] = {64, 256, 1024, 4096, 16384};
    struct fit_basis b;
    struct fit_result r;
    struct err e = {0};
    struct buf w;
    double x, y, lo, hi, cand[] = {32768, 262144}, gain[2];
    size_t order[2];

    curve(&b);
    b.n = 8; /* the curve ends at 1 MiB */
    CHECK_INT(fit_on(xs, 5, 1e-6, 1, 0.01, "auto", 1, &b, &r, &e), 0);
    x = 2097152; /* 7 doublings beyond the data: that warning comes first */
    CHECK_INT(fit_predict_ext(&r.model, &x, &y, &lo, &hi, &e), 0);
    buf_init(&w, 4096);
    CHECK_INT(fit_warning(&r.model, &x, y, lo, hi, &w), 1);
    CHECK(strstr(buf_str(&w), "doublings beyond") != NULL);
    buf_free(&w);
    x = 32768; /* one doubling beyond the data, inside the curve */
    CHECK_INT(fit_predict_ext(&r.model, &x, &y, &lo, &hi, &e), 0);
    buf_init(&w, 4096);
    CHECK_INT(fit_warning(&r.model, &x, y, lo, hi, &w), 0);
    buf_free(&w);
    /* measuring next to the target narrows its interval more */
    x = 1048576;
    CHECK_INT(fit_suggest(&r, &x, cand, 2, gain, order, &e), 0);
    CHECK_INT(order[0], 1);
    CHECK(gain[1] > gain[0] && gain[0] >= 0);
    /* x <= 0 is outside the curve's domain */
    x = 0;
    err_clear(&e);
    CHECK_INT(fit_predict_ext(&r.model, &x, &y, &lo, &hi, &e), -1);
    CHECK(strstr(e.message, "follows the machine curve MPISR") != NULL);
    fit_result_free(&r);
}

static void test_warning_beyond_curve(void)
{
    static const double xs[] = {16384, 32768, 65536, 131072, 262144};
    struct fit_basis b;
    struct fit_result r;
    struct err e = {0};
    struct buf w;
    double x = 1048576, y, lo, hi;

    curve(&b);
    b.n = 7; /* the curve ends at 256 KiB */
    CHECK_INT(fit_on(xs, 5, 1e-6, 1, 0.01, "auto", 1, &b, &r, &e), 0);
    CHECK_INT(fit_predict_ext(&r.model, &x, &y, &lo, &hi, &e), 0);
    buf_init(&w, 4096);
    CHECK_INT(fit_warning(&r.model, &x, y, lo, hi, &w), 1);
    CHECK(strstr(buf_str(&w),
                 "outside the machine curve MPISR (measured for 8 to 262144)") != NULL);
    buf_free(&w);
    fit_result_free(&r);
}

static void test_errors(void)
{
    static const double xs[] = {64, 256, 1024, 4096, 16384};
    static const double flat[] = {8, 16, 32, 64, 128};
    static const double neg[] = {-1, 256, 1024, 4096, 16384};
    struct fit_basis b;
    struct fit_result r;
    struct err e = {0};

    curve(&b);
    err_clear(&e);
    CHECK_INT(fit_on(xs, 5, 1e-6, 1, 0, "cubic", 1, &b, &r, &e), -1);
    CHECK_STR(e.field, "graph");
    err_clear(&e);
    CHECK_INT(fit_on(xs, 5, 1e-6, 1, 0, "auto", 2, &b, &r, &e), -1);
    CHECK_STR(e.field, "basis");
    err_clear(&e);
    CHECK_INT(fit_on(xs, 3, 1e-6, 1, 0, "auto", 1, &b, &r, &e), -1);
    CHECK_STR(e.code, "degenerate");
    CHECK(strstr(e.message, "at least 4 distinct x") != NULL);
    /* the curve is flat (1 us) below 1 KiB */
    err_clear(&e);
    CHECK_INT(fit_on(flat, 5, 1e-6, 1, 0, "auto", 1, &b, &r, &e), -1);
    CHECK(strstr(e.message, "constant over the data") != NULL);
    /* time that falls while the machine's grows */
    err_clear(&e);
    CHECK_INT(fit_on(xs, 5, 1, -1e-2, 0, "auto", 1, &b, &r, &e), -1);
    CHECK(strstr(e.message, "do not grow with the machine curve MPISR") != NULL);
    err_clear(&e);
    CHECK_INT(fit_on(neg, 5, 1e-6, 1, 0, "auto", 1, &b, &r, &e), -1);
    CHECK(strstr(e.message, "defined for x > 0") != NULL);
    CHECK(r.points == NULL);
}

static void test_check_rejects_a_broken_curve(void)
{
    static const double xs[] = {64, 256, 1024, 4096, 16384};
    struct fit_basis b;
    struct fit_result r;
    struct fit_model m;
    struct err e = {0};

    curve(&b);
    CHECK_INT(fit_on(xs, 5, 1e-6, 1, 0.01, "auto", 1, &b, &r, &e), 0);
    CHECK_INT(fit_model_check(&r.model, &e), 0);
    m = r.model;
    m.basis.x[3] = m.basis.x[2];
    CHECK_INT(fit_model_check(&m, &e), -1);
    m = r.model;
    m.basis.t[0] = 0;
    CHECK_INT(fit_model_check(&m, &e), -1);
    m = r.model;
    m.basis.n = FIT_BASIS_MAX + 1;
    CHECK_INT(fit_model_check(&m, &e), -1);
    m = r.model;
    memset(m.basis.name, 'a', sizeof m.basis.name);
    CHECK_INT(fit_model_check(&m, &e), -1);
    fit_result_free(&r);
}

int main(void)
{
    gsl_set_error_handler_off();
    RUN(test_make_takes_medians_in_order);
    RUN(test_make_rejects);
    RUN(test_eval_log_log);
    RUN(test_scale_and_power);
    RUN(test_exact_law_through_the_step);
    RUN(test_interval_grows_with_reach);
    RUN(test_warning_and_suggest);
    RUN(test_warning_beyond_curve);
    RUN(test_errors);
    RUN(test_check_rejects_a_broken_curve);
    return harness_report();
}
