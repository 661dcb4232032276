/* Unit tests for models/sysparam: exact recovery of Hockney, broadcast and
 * constant parameters from noise-free synthetic benchmarks, relative versus
 * plain weighting on noisy ping-pong data, the fitted expressions parsing
 * with expr_compile, and input validation. */
#include "common/buf.h"
#include "common/err.h"
#include "models/expr.h"
#include "models/sysparam.h"
#include "tests/harness.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <string.h>

#define NL 23 /* message sizes 1 B .. 4 MiB */

/* Deterministic noise in [-1, 1) (a 64-bit LCG), so the test never flakes. */
static double noise(unsigned long long *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 4503599627370496.0 - 1.0;
}

/* Evaluates a fitted parameter through the expression language at (L, P). */
static double eval_fit(const struct sysparam_fit *f, double L, double P)
{
    static const char *const vars[] = {"L", "P"};
    struct expr_param p;
    struct expr_env env = {vars, 2, &p, 1};
    struct err err = {0};
    double x[2] = {L, P}, v;
    char src[EXPR_MAX_NAME + 8];
    expr *e;

    sysparam_param(f, &p);
    snprintf(src, sizeof src, "%s%s", f->name, f->nargs ? "(L)" : "");
    e = expr_compile(src, &env, &err);
    CHECK(e != NULL);
    if (e == NULL) {
        fprintf(stderr, "%s\n", err.message);
        return NAN;
    }
    v = expr_eval(e, x);
    expr_free(e);
    return v;
}

static void test_hockney_exact(void)
{
    double L[NL], t[NL];
    struct sysparam_fit f;
    struct err err = {0};
    int i, w;

    for (i = 0; i < NL; i++) {
        L[i] = ldexp(1, i);
        t[i] = 15e-6 + 1e-9 * L[i];
    }
    for (w = SYSPARAM_PLAIN; w <= SYSPARAM_RELATIVE; w++) {
        CHECK_INT(sysparam_fit_hockney("MPISR", L, t, NL, w, &f, &err), 0);
        CHECK_NEAR(f.a, 15e-6, 1e-15);
        CHECK(fabs(f.a / 15e-6 - 1) < 1e-9);
        CHECK(fabs(f.b / 1e-9 - 1) < 1e-9);
        CHECK(f.rmse < 1e-15);
        CHECK(f.max_rel_err < 1e-9);
        CHECK_INT(f.kind, SYSPARAM_HOCKNEY);
        CHECK_INT(f.n, NL);
        CHECK_STR(f.head, "MPISR(L)");
        CHECK_INT(f.nargs, 1);
        CHECK_STR(f.args[0], "L");
        CHECK(fabs(eval_fit(&f, 1024, 0) / (15e-6 + 1024e-9) - 1) < 1e-9);
    }
}

/* The SPEC's IBM SP2 send/receive parameter comes back as its expression. */
static void test_hockney_spec_numbers(void)
{
    double L[5] = {0, 1024, 4096, 16384, 65536}, t[5];
    struct sysparam_fit f;
    struct err err = {0};
    int i;

    for (i = 0; i < 5; i++)
        t[i] = 0.01594 + 0.0000608 * L[i];
    CHECK_INT(sysparam_fit_hockney("MPISR", L, t, 5, SYSPARAM_PLAIN, &f, &err), 0);
    CHECK_NEAR(f.a, 0.01594, 1e-12);
    CHECK_NEAR(f.b, 0.0000608, 1e-15);
    CHECK(fabs(eval_fit(&f, 1024, 0) - 0.001 * (15.94 + 0.0608 * 1024)) < 1e-12);
    CHECK_STR(f.expr, "0.01594+6.08e-05*L");
}

/* On noisy ping-pong data (5 % multiplicative noise, sizes 1 B .. 4 MiB),
 * plain least squares is dominated by the large messages and misses the
 * 15 us latency; relative weighting recovers it. Over 50 deterministic
 * data sets, so one lucky draw cannot decide the outcome. */
static void test_weighting(void)
{
    double L[NL], t[NL], ep, er, sum_p = 0, sum_r = 0, worst_r = 0;
    struct sysparam_fit plain, rel;
    struct err err = {0};
    unsigned long long seed;
    int i, wins = 0, bw_ok = 1;

    for (seed = 1; seed <= 50; seed++) {
        unsigned long long s = seed;
        for (i = 0; i < NL; i++) {
            L[i] = ldexp(1, i);
            t[i] = (15e-6 + 1e-9 * L[i]) * (1 + 0.05 * noise(&s));
        }
        CHECK_INT(sysparam_fit_hockney("MPISR", L, t, NL, SYSPARAM_PLAIN, &plain, &err),
                  0);
        CHECK_INT(sysparam_fit_hockney("MPISR", L, t, NL, SYSPARAM_RELATIVE, &rel, &err),
                  0);
        ep = fabs(plain.a - 15e-6) / 15e-6;
        er = fabs(rel.a - 15e-6) / 15e-6;
        sum_p += ep;
        sum_r += er;
        if (er > worst_r)
            worst_r = er;
        wins += er < ep;
        if (fabs(rel.b / 1e-9 - 1) > 0.05 || fabs(plain.b / 1e-9 - 1) > 0.05)
            bw_ok = 0;
    }
    printf("     latency error over 50 noisy data sets: plain %.1f %%, relative %.2f %% "
           "(worst %.1f %%), relative better in %d\n",
           2 * sum_p, 2 * sum_r, 100 * worst_r, wins);
    CHECK(sum_r / 50 < 0.02);
    CHECK(sum_p > 5 * sum_r);
    CHECK(worst_r < 0.05);
    CHECK(wins >= 45);
    CHECK(bw_ok); /* both keep the bandwidth term */
}

static void test_broadcast_exact(void)
{
    static const double Ps[] = {2, 4, 8, 16, 32, 64};
    static const double Ls[] = {1, 1024, 65536, 1048576};
    double L[24], P[24], t[24], x[2] = {1024, 8};
    struct sysparam_fit f;
    struct err err = {0};
    size_t i, j, n = 0;

    for (i = 0; i < 6; i++)
        for (j = 0; j < 4; j++) {
            L[n] = Ls[j];
            P[n] = Ps[i];
            t[n] = log2(Ps[i]) * (0.01594 + 0.0000608 * Ls[j]);
            n++;
        }
    CHECK_INT(sysparam_fit_broadcast("MPIBC", L, P, t, n, SYSPARAM_RELATIVE, &f, &err),
              0);
    CHECK(fabs(f.a / 0.01594 - 1) < 1e-9);
    CHECK(fabs(f.b / 0.0000608 - 1) < 1e-9);
    CHECK_INT(f.kind, SYSPARAM_BROADCAST);
    CHECK_STR(f.expr, "log2(P)*(0.01594+6.08e-05*L)");
    CHECK(fabs(eval_fit(&f, x[0], x[1]) - 3 * 0.001 * (15.94 + 0.0608 * 1024)) < 1e-12);
    CHECK(f.max_rel_err < 1e-9);
}

static void test_constant(void)
{
    double t[5] = {4.9e-8, 4.83e-8, 9e-7 /* outlier */, 4.8e-8, 4.83e-8};
    double copy[5];
    struct sysparam_fit f;
    struct err err = {0};

    memcpy(copy, t, sizeof t);
    CHECK_INT(sysparam_fit_constant("ADDM", t, 5, AGG_MEDIAN, &f, &err), 0);
    CHECK(memcmp(copy, t, sizeof t) == 0); /* input untouched */
    CHECK_STR(f.expr, "4.83e-08");
    CHECK_STR(f.head, "ADDM");
    CHECK_INT(f.nargs, 0);
    CHECK_INT(f.kind, SYSPARAM_CONSTANT);
    CHECK_NEAR(eval_fit(&f, 0, 0), 4.83e-8, 1e-20);
    CHECK(f.max_rel_err > 0.9); /* the outlier */
    CHECK_NEAR(f.mean_rel_err,
               ((4.9e-8 - 4.83e-8) / 4.9e-8 + (9e-7 - 4.83e-8) / 9e-7 +
                (4.83e-8 - 4.8e-8) / 4.8e-8) /
                   5,
               1e-12);
    CHECK_INT(sysparam_fit_constant("ADDM", t, 5, AGG_MEAN, &f, &err), 0);
    CHECK_NEAR(f.a, (4.9e-8 + 4.83e-8 + 9e-7 + 4.8e-8 + 4.83e-8) / 5, 1e-20);
}

static void test_negative_slope_prints(void)
{
    double L[3] = {0, 10, 20}, t[3] = {5, 4, 3};
    struct sysparam_fit f;
    struct err err = {0};

    CHECK_INT(sysparam_fit_hockney("X", L, t, 3, SYSPARAM_PLAIN, &f, &err), 0);
    CHECK_STR(f.expr, "5-0.1*L");
    CHECK_NEAR(eval_fit(&f, 30, 0), 2, 1e-12);
}

static void test_invalid(void)
{
    double L[3] = {8, 8, 8}, t[3] = {1, 2, 3}, P[3] = {1, 4, 4};
    double L2[3] = {1, 2, 3}, tz[3] = {0, 1, 2}, tn[3] = {1, NAN, 2};
    struct sysparam_fit f;
    struct err err = {0};

    CHECK_INT(sysparam_fit_hockney("MPISR", L, t, 3, SYSPARAM_PLAIN, &f, &err), -1);
    CHECK_INT(err.status, ERR_INVALID);
    CHECK_STR(err.message, "need measurements at two or more different L");
    err_clear(&err);
    CHECK_INT(sysparam_fit_hockney("MPISR", L2, t, 1, SYSPARAM_PLAIN, &f, &err), -1);
    CHECK_STR(err.message, "need at least 2 measurements, got 1");
    err_clear(&err);
    CHECK_INT(sysparam_fit_hockney("MPISR", L2, tz, 3, SYSPARAM_RELATIVE, &f, &err), -1);
    CHECK_STR(err.message, "measurement 0: relative weighting needs times > 0");
    err_clear(&err);
    CHECK_INT(sysparam_fit_hockney("MPISR", L2, tz, 3, SYSPARAM_PLAIN, &f, &err), 0);
    CHECK_INT(sysparam_fit_hockney("MPISR", L2, tn, 3, SYSPARAM_PLAIN, &f, &err), -1);
    CHECK_STR(err.message, "measurement 1: time must be finite and >= 0");
    err_clear(&err);
    CHECK_INT(sysparam_fit_broadcast("MPIBC", L2, P, t, 3, SYSPARAM_PLAIN, &f, &err), -1);
    CHECK_STR(err.message, "measurement 0: P must be finite and >= 2 for a broadcast");
    err_clear(&err);
    CHECK_INT(sysparam_fit_hockney("log", L2, t, 3, SYSPARAM_PLAIN, &f, &err), -1);
    CHECK_STR(err.field, "name");
    err_clear(&err);
    CHECK_INT(sysparam_fit_hockney("A(L)", L2, t, 3, SYSPARAM_PLAIN, &f, &err), -1);
    CHECK_STR(err.field, "name");
    err_clear(&err);
    CHECK_INT(sysparam_fit_constant("ADDM", t, 0, AGG_MEDIAN, &f, &err), -1);
    CHECK_STR(err.message, "need at least 1 measurement, got 0");
}

int main(void)
{
    gsl_set_error_handler_off();
    RUN(test_hockney_exact);
    RUN(test_hockney_spec_numbers);
    RUN(test_weighting);
    RUN(test_broadcast_exact);
    RUN(test_constant);
    RUN(test_negative_slope_prints);
    RUN(test_invalid);
    return harness_report();
}
