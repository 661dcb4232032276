/* Unit tests of models/lawchange: a commit whose law over p adds 0.05·p to
 * the baseline's 100/p + 1 is a change at the target, with the ratio of the
 * two laws there; the baseline's law measured again with other noise is
 * not; too few values of x is no judgement. */
#include "models/lawchange.h"
#include "tests/harness.h"

#include <math.h>

#define REPS 3
#define NX 6

/* Runs at p = 2, 4, ..., 64, REPS each, of law(p) times 1 +- 0.4 % (a fixed
 * pattern shifted by `phase`, so that two sides are measured with different
 * noise). Returns their number. */
static size_t measure(double (*law)(double), int phase, double *x, double *y)
{
    static const double noise[] = {-0.004, 0.001, 0.004, -0.002, 0.003, -0.001, 0.002};
    size_t n = 0;
    for (int i = 0; i < NX; i++)
        for (int r = 0; r < REPS; r++, n++) {
            x[n] = pow(2, i + 1);
            y[n] = law(x[n]) * (1 + noise[(n + (size_t)phase) % 7]);
        }
    return n;
}

static double base_law(double p)
{
    return 100 / p + 1;
}

static double worse_law(double p)
{
    return 100 / p + 1 + 0.05 * p;
}

static void test_change_at_target(void)
{
    double xb[NX * REPS], yb[NX * REPS], xn[NX * REPS], yn[NX * REPS];
    size_t nb = measure(base_law, 0, xb, yb), nn = measure(worse_law, 3, xn, yn);
    struct lawchange c;
    struct err e = {0};
    double want = worse_law(256) / base_law(256); /* 14.19 / 1.39 = 10.2 */

    CHECK_INT(lawchange_compare(xn, yn, nn, xb, yb, nb, 256, 0, &c, &e), 1);
    CHECK_INT(c.out, 1);
    CHECK_INT(c.now.nx, NX);
    CHECK_INT(c.base.nx, NX);
    CHECK_NEAR(c.base.y, base_law(256), 0.02);
    CHECK_NEAR(c.now.y, worse_law(256), 0.02);
    CHECK_NEAR(c.ratio, want, 0.03 * want);
    CHECK(c.now.y > c.base.hi && c.base.y < c.now.lo);

    /* the other way round is a change too, ratio below 1 */
    CHECK_INT(lawchange_compare(xb, yb, nb, xn, yn, nn, 256, 0, &c, &e), 1);
    CHECK_INT(c.out, 1);
    CHECK_NEAR(c.ratio, 1 / want, 0.03 / want);
}

static void test_same_law(void)
{
    double xb[NX * REPS], yb[NX * REPS], xn[NX * REPS], yn[NX * REPS];
    size_t nb = measure(base_law, 0, xb, yb), nn = measure(base_law, 3, xn, yn);
    struct lawchange c;
    struct err e = {0};

    CHECK_INT(lawchange_compare(xn, yn, nn, xb, yb, nb, 256, 0, &c, &e), 1);
    CHECK_INT(c.out, 0);
    CHECK_NEAR(c.ratio, 1, 0.02);
    /* at the measured end too */
    CHECK_INT(lawchange_compare(xn, yn, nn, xb, yb, nb, 64, 0, &c, &e), 1);
    CHECK_INT(c.out, 0);
}

static void test_too_few_and_errors(void)
{
    double xb[NX * REPS], yb[NX * REPS], xn[NX * REPS], yn[NX * REPS];
    size_t nb = measure(base_law, 0, xb, yb), nn = measure(worse_law, 3, xn, yn);
    struct lawchange c;
    struct err e = {0};

    /* the commit measured at 3 values of x (the first 9 runs): not judged */
    CHECK_INT(lawchange_compare(xn, yn, 3 * REPS, xb, yb, nb, 256, 0, &c, &e), 0);
    CHECK_INT(c.now.nx, 3);
    CHECK_INT(c.base.nx, NX);
    /* at 4 it is */
    CHECK_INT(lawchange_compare(xn, yn, 4 * REPS, xb, yb, nb, 256, 0, &c, &e), 1);
    CHECK_INT(c.out, 1);
    /* the baseline with too few */
    CHECK_INT(lawchange_compare(xn, yn, nn, xb, yb, 2, 256, 0, &c, &e), 0);
    CHECK_INT(c.base.nx, 1);
    /* a large threshold hides the change */
    CHECK_INT(lawchange_compare(xn, yn, nn, xb, yb, nb, 256, 20, &c, &e), 1);
    CHECK_INT(c.out, 0);
    CHECK(e.status == 0);

    CHECK_INT(lawchange_compare(xn, yn, nn, xb, yb, nb, 0, 0, &c, &e), -1);
    CHECK_STR(e.code, "invalid");
    CHECK_STR(e.field, "target");
    err_clear(&e);
    yn[0] = NAN;
    CHECK_INT(lawchange_compare(xn, yn, nn, xb, yb, nb, 256, 0, &c, &e), -1);
    CHECK_STR(e.code, "invalid");
    CHECK_INT(lawchange_distinct(xb, 0), 0);
}

int main(void)
{
    RUN(test_change_at_target);
    RUN(test_same_law);
    RUN(test_too_few_and_errors);
    return harness_report();
}
