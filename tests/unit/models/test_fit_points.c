/* Unit tests for fit_run_points (models/fit.h): a fit of points aggregated
 * elsewhere (the database form's, core/method_fit.c) is the fit fit_run makes
 * of the raw observations. The data are binary fractions whose sums, means,
 * medians and squares are exact, so the comparison is exact equality. */
#include "common/err.h"
#include "models/aggregate.h"
#include "models/fit.h"
#include "tests/harness.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Raw observations: x (one or two variables) and y, grouped by x in order. */
struct obs {
    double x[2], y;
};

static const struct obs one[] = {
    {{1, 0}, 8}, {{1, 0}, 8},   {{2, 0}, 4},   {{2, 0}, 4},    {{2, 0}, 8},
    {{2, 0}, 2}, {{4, 0}, 2},   {{4, 0}, 4},   {{4, 0}, 1},    {{4, 0}, 2},
    {{8, 0}, 2}, {{8, 0}, 0.5}, {{8, 0}, 0.5}, {{16, 0}, 0.5},
};

static const struct obs two[] = {
    {{1, 16}, 9},   {{1, 16}, 11}, {{1, 32}, 17}, {{2, 16}, 5}, {{2, 32}, 9},
    {{2, 32}, 9},   {{2, 32}, 10}, {{2, 32}, 8},  {{4, 16}, 3}, {{4, 32}, 5},
    {{4, 64}, 9},   {{8, 16}, 2},  {{8, 32}, 3},  {{8, 64}, 5}, {{8, 64}, 5.5},
    {{8, 64}, 4.5}, {{1, 64}, 33}, {{2, 64}, 17},
};

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The points of the n observations (sorted by x): y by agg, the spread as
 * fit_run sets it; with `auto` and the mean a configuration with a spike by
 * its median (agg_spiky: at x = 8 of `one`, 2 against a median of 0.5).
 * Returns their number. */
static size_t aggregate(const struct obs *o, size_t n, int nvars, enum agg_kind agg,
                        int robust, struct fit_point *pts)
{
    size_t i, j, k, m = 0;
    double v[32];

    for (i = 0; i < n; i = j) {
        struct fit_point *p = &pts[m++];
        double sum = 0, mean, ssm = 0;
        for (j = i; j < n && o[j].x[0] == o[i].x[0] && o[j].x[1] == o[i].x[1]; j++)
            ;
        memset(p, 0, sizeof *p);
        p->x[0] = o[i].x[0];
        p->x[1] = nvars == 2 ? o[i].x[1] : 0;
        p->n = (int)(j - i);
        for (k = i; k < j; k++) {
            v[k - i] = o[k].y;
            sum += o[k].y;
        }
        qsort(v, j - i, sizeof v[0], cmp_double);
        mean = sum / (double)(j - i);
        p->ymin = v[0];
        p->ymax = v[j - i - 1];
        p->y = agg == AGG_MEAN  ? mean
               : agg == AGG_MIN ? v[0]
               : (j - i) % 2    ? v[(j - i) / 2]
                                : 0.5 * (v[(j - i) / 2 - 1] + v[(j - i) / 2]);
        if (robust) {
            double med = (j - i) % 2 ? v[(j - i) / 2]
                                     : 0.5 * (v[(j - i) / 2 - 1] + v[(j - i) / 2]);
            if (agg_spiky(med, p->ymin, p->ymax, p->n))
                p->y = med;
        }
        for (k = i; k < j; k++) {
            ssm += (o[k].y - mean) * (o[k].y - mean);
            p->ss += (o[k].y - p->y) * (o[k].y - p->y);
        }
        p->sd = j - i > 1 ? sqrt(ssm / (double)(j - i - 1)) : 0;
    }
    return m;
}

/* Sorts observations by x (two variables: x1, then x2), keeping the order of
 * equal ones. */
static void sort_obs(struct obs *o, size_t n)
{
    size_t i, j;
    for (i = 1; i < n; i++) {
        struct obs t = o[i];
        for (j = i; j > 0 && (o[j - 1].x[0] > t.x[0] ||
                              (o[j - 1].x[0] == t.x[0] && o[j - 1].x[1] > t.x[1]));
             j--)
            o[j] = o[j - 1];
        o[j] = t;
    }
}

static void same_fit(const struct obs *data, size_t n, int nvars, const char *graph,
                     enum agg_kind agg)
{
    struct obs o[32];
    double x[64], y[32];
    struct fit_point pts[32];
    struct fit_input in;
    struct fit_result a, b;
    struct err e1 = {0}, e2 = {0};
    size_t i, m;
    int rc1, rc2, k;

    memcpy(o, data, n * sizeof *o);
    sort_obs(o, n);
    for (i = 0; i < n; i++) {
        x[i * (size_t)nvars] = o[i].x[0];
        if (nvars == 2)
            x[i * 2 + 1] = o[i].x[1];
        y[i] = o[i].y;
    }
    memset(&in, 0, sizeof in);
    in.nvars = nvars;
    in.x = x;
    in.y = y;
    in.n = n;
    in.graph = graph;
    in.agg = agg;
    m = aggregate(o, n, nvars, agg, agg == AGG_MEAN && strcmp(graph, "auto") == 0, pts);
    rc1 = fit_run(&in, &a, &e1);
    rc2 = fit_run_points(pts, m, nvars, graph, NULL, n, &b, &e2);
    CHECK_INT(rc2, rc1);
    if (rc1 != 0 || rc2 != 0) {
        CHECK_INT(e2.status, e1.status);
        CHECK_STR(e2.message, e1.message);
        return;
    }
    CHECK_INT((int)b.npoints, (int)a.npoints);
    for (i = 0; i < a.npoints && i < b.npoints; i++) {
        CHECK(b.points[i].x[0] == a.points[i].x[0] &&
              b.points[i].x[1] == a.points[i].x[1]);
        CHECK(b.points[i].y == a.points[i].y && b.points[i].n == a.points[i].n);
        CHECK(b.points[i].ymin == a.points[i].ymin &&
              b.points[i].ymax == a.points[i].ymax);
        CHECK(b.points[i].sd == a.points[i].sd && b.points[i].ss == a.points[i].ss);
        CHECK(b.points[i].yhat == a.points[i].yhat);
    }
    CHECK_INT(b.model.nterms, a.model.nterms);
    CHECK_INT((int)b.model.chosen, (int)a.model.chosen);
    for (k = 0; k < a.model.nterms; k++)
        CHECK(b.model.coef[k] == a.model.coef[k]);
    CHECK(b.model.s2 == a.model.s2 && b.model.dof == a.model.dof);
    CHECK(b.model.xunc == a.model.xunc && b.model.outliers == a.model.outliers);
    CHECK(b.stats.rss == a.stats.rss && b.stats.r2 == a.stats.r2);
    CHECK(b.stats.cv_rmse == a.stats.cv_rmse && b.stats.smape == a.stats.smape);
    CHECK_INT((int)b.stats.nobs, (int)a.stats.nobs);
    fit_result_free(&a);
    fit_result_free(&b);
}

static void test_points_fit_like_the_observations(void)
{
    static const char *const graphs[] = {"linear", "inv1", "quadratic", "unknown",
                                         "auto"};
    static const enum agg_kind aggs[] = {AGG_MEAN, AGG_MEDIAN, AGG_MIN};
    size_t g, k;

    for (g = 0; g < sizeof graphs / sizeof graphs[0]; g++)
        for (k = 0; k < 3; k++)
            same_fit(one, sizeof one / sizeof one[0], 1, graphs[g], aggs[k]);
    for (k = 0; k < 3; k++)
        same_fit(two, sizeof two / sizeof two[0], 2, "auto", aggs[k]);
}

static void test_points_errors(void)
{
    struct fit_point p[3];
    struct fit_result r;
    struct err e = {0};
    size_t i;

    memset(p, 0, sizeof p);
    for (i = 0; i < 3; i++) {
        p[i].x[0] = (double)(i + 1);
        p[i].y = p[i].ymin = p[i].ymax = 2.0 * (double)(i + 1);
        p[i].n = 1;
    }
    CHECK_INT(fit_run_points(p, 3, 1, "linear", NULL, 3, &r, &e), 0);
    fit_result_free(&r);
    CHECK_INT(fit_run_points(p, 0, 1, "linear", NULL, 0, &r, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    memset(&e, 0, sizeof e);
    /* Three points may stand for more observations than a fit takes points
     * (a database's series at 10,000,000 runs), up to FIT_MAX_OBS. */
    CHECK_INT(fit_run_points(p, 3, 1, "linear", NULL, (size_t)FIT_MAX_POINTS + 1, &r, &e),
              0);
    fit_result_free(&r);
    CHECK_INT(fit_run_points(p, 3, 1, "linear", NULL, (size_t)FIT_MAX_OBS + 1, &r, &e),
              -1);
    CHECK_INT(e.status, ERR_TOO_LARGE);
    CHECK_STR(e.message, "10000001 observations exceed the limit of 10000000 per fit");
    memset(&e, 0, sizeof e);
    CHECK_INT(fit_run_points(p, 3, 2, "linear", NULL, 3, &r, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    memset(&e, 0, sizeof e);
    p[1].n = 0;
    CHECK_INT(fit_run_points(p, 3, 1, "linear", NULL, 3, &r, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    p[1].n = 1;
    p[2].y = INFINITY;
    memset(&e, 0, sizeof e);
    CHECK_INT(fit_run_points(p, 3, 1, "linear", NULL, 3, &r, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
}

int main(void)
{
    gsl_set_error_handler_off();
    RUN(test_points_fit_like_the_observations);
    RUN(test_points_errors);
    return harness_report();
}
