/* bench_fit: latency of one `auto` model selection (models/fit), next to the
 * plain 12-type sweep (`unknown`) on the same data, which is the ceiling
 * reference: the least a selection over the paper's types costs. Medians of
 * many repetitions, CLOCK_MONOTONIC. Targets: <= 1 ms for 10-point auto,
 * <= 10 ms for the 25-point two-parameter grid. Not a unit test. */
#include "common/xalloc.h"
#include "models/fit.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static double uniform(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return ((rng * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

static double gauss(void)
{
    double u = uniform(), v = uniform();
    return sqrt(-2 * log(u > 1e-300 ? u : 1e-300)) * cos(2 * M_PI * v);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median seconds of reps runs of one fit; -1 on error. */
typedef int (*fit_fn)(const struct fit_input *, struct fit_result *, struct err *);

static double time_fit(fit_fn run, const struct fit_input *in, int reps, char *chosen,
                       size_t chosen_sz)
{
    double *t = xmalloc((size_t)reps * sizeof *t), med;
    struct fit_result r;
    struct err e = {0};
    int i;

    if (t == NULL)
        return -1;
    for (i = 0; i < reps; i++) {
        double t0 = now();
        if (run(in, &r, &e) < 0) {
            fprintf(stderr, "fit failed: %s\n", e.message);
            xfree(t);
            return -1;
        }
        t[i] = now() - t0;
        if (i == 0) {
            struct buf b;
            buf_init(&b, 512);
            fit_formula(&r.model,
                        in->nvars == 2 ? (const char *const[]){"n", "p"}
                                       : (const char *const[]){"p"},
                        &b);
            snprintf(chosen, chosen_sz, "%s", buf_str(&b));
            buf_free(&b);
        }
        fit_result_free(&r);
    }
    qsort(t, (size_t)reps, sizeof *t, cmp);
    med = t[reps / 2];
    xfree(t);
    return med;
}

static void row(const char *name, struct fit_input *in, int reps, double target_ms)
{
    char fa[256], fu[256], tus[32], tgt[48];
    double ta, tu = -1;

    in->graph = "auto";
    ta = time_fit(fit_run, in, reps, fa, sizeof fa);
    if (in->nvars == 1) {
        in->graph = "unknown";
        tu = time_fit(fit_run, in, reps, fu, sizeof fu);
    }
    if (tu >= 0)
        snprintf(tus, sizeof tus, "%.3f", tu * 1e3);
    else
        snprintf(tus, sizeof tus, "n/a (1 var)");
    if (target_ms > 0)
        snprintf(tgt, sizeof tgt, "<= %g ms %s", target_ms,
                 ta * 1e3 <= target_ms ? "met" : "MISSED");
    else
        snprintf(tgt, sizeof tgt, "-");
    printf("%-20s %10.3f %13s   %-16s %s\n", name, ta * 1e3, tus, tgt, fa);
}

int main(void)
{
    static const int sizes[] = {10, 100, 1000};
    static const int reps[] = {201, 51, 11};
    struct fit_input in = {0};
    double *x, *y;
    size_t i, k;

    gsl_set_error_handler_off();
    x = xmalloc(2 * 1000 * sizeof *x);
    y = xmalloc(1000 * sizeof *y);
    if (x == NULL || y == NULL)
        return 1;
    printf("bench_fit: median latency of one fit (ms); `unknown` = the 12-type sweep, "
           "the ceiling reference\n");
    printf("%-20s %10s %13s   %-16s %s\n", "data", "auto (ms)", "unknown (ms)", "target",
           "auto chose");
    for (k = 0; k < 3; k++) {
        char name[64];
        int n = sizes[k];
        for (i = 0; i < (size_t)n; i++) {
            double p = 2 * pow(32.0, (double)i / (n - 1)); /* 2 .. 64, distinct */
            x[i] = p;
            y[i] = (200 / p + 0.5 * log2(p) + 1) * (1 + 0.01 * gauss());
        }
        in.nvars = 1;
        in.x = x;
        in.y = y;
        in.n = (size_t)n;
        in.agg = AGG_MEAN;
        snprintf(name, sizeof name, "1 var, %d points", n);
        row(name, &in, reps[k], n == 10 ? 1.0 : 0);
    }
    for (i = 0; i < 25; i++) {
        double nn = 200 + 200 * (double)(i / 5), p = (double)(2 << (i % 5));
        x[2 * i] = nn;
        x[2 * i + 1] = p;
        y[i] =
            (2e-9 * nn * nn * nn / p + 1e-4 * nn * log2(p) + 0.1) * (1 + 0.01 * gauss());
    }
    in.nvars = 2;
    in.x = x;
    in.y = y;
    in.n = 25;
    row("2 vars, 5x5 grid", &in, 51, 10.0);
    /* A growing law on the same 10 p: here Extra-P's one-term law stays
     * plausible beyond the data, so `auto` also runs its forward comparison
     * (the selection again on the points below the largest x, twice), which
     * the falling law above skips (fit_auto_model). After the grid, so the
     * rows above see the same noise as before it was added. */
    for (i = 0; i < 10; i++) {
        double p = 2 * pow(32.0, (double)i / 9);
        x[i] = p;
        y[i] = (3 + 0.5 * p * log2(p)) * (1 + 0.01 * gauss());
    }
    in.nvars = 1;
    in.n = 10;
    row("1 var, 10, growing", &in, 201, 1.0);
    /* A collective's grid: message size n = 2 B..8 KiB x p = 2..16 (52
     * points, n spans 4096x), where `auto` also weighs the latency +
     * bandwidth law on the forward folds and averages it in (lb_rule): the
     * two-variable path at its most costly. Shown against the 25-point
     * grid's target; not required. */
    for (i = 0; i < 52; i++) {
        double p = (double)(2 << (i / 13)), m = (double)(2 << (i % 13));
        x[2 * i] = m;
        x[2 * i + 1] = p;
        y[i] = (0.2 + 0.3 * log2(p) + 1e-4 * m * p) * (1 + 0.01 * gauss());
    }
    in.nvars = 2;
    in.n = 52;
    row("2 vars, 13x4 n x p", &in, 51, 10.0);
    printf("targets: <= 1 ms for 10-point auto (both rows), <= 10 ms for the 25-point "
           "two-parameter grid\n");
    xfree(x);
    xfree(y);
    return 0;
}
