/* bench_param: latency of a parameterization request's computation.
 *
 * Compiles the SPEC §5.2 matrix-multiplication template with its three
 * system parameters and evaluates it on a 200x200 grid (N 100..10000,
 * P 8..64, L = 1024), as a 3-D parameterization plot does; prints median
 * times next to the machine's ceiling (the same formula written in C and
 * compiled by the C compiler), then the 3-D SVG render of that grid.
 * Target: compile + grid + 3-D SVG render together <= 20 ms.
 */
#include "common/xalloc.h"
#include "models/expr.h"
#include "web/svg.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define GRID 200
#define REPS 41

static const char *const tpl = "ADDM*N^3/(P-1)+2*N*MPISR(L)/(P-1)+N*MPIBC(L)";
static const char *const arg_L[] = {"L"};
static const struct expr_param params[] = {
    {"ADDM", NULL, 0, "4.83e-8"},
    {"MPISR", arg_L, 1, "0.001*(15.94+0.0608*L)"},
    {"MPIBC", arg_L, 1, "log2(P)*0.001*(15.94+0.0608*L)"},
};
static const char *const vars[] = {"N", "P", "L"};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double grid_n(int i)
{
    return 100 + (10000.0 - 100) * i / (GRID - 1);
}

static double grid_p(int j)
{
    return 8 + (64.0 - 8) * j / (GRID - 1);
}

struct timing {
    double compile; /* seconds, median */
    double grid;    /* seconds, median */
    double native;  /* seconds, median: the ceiling */
    double render;  /* seconds, median: 3-D SVG of the grid */
    size_t svg_bytes;
    double checksum;
};

/* The compile + evaluate part of a parameterization request: compile the
 * template against its parameters, then fill a GRID x GRID array of values.
 * Returns 0, or -1 after printing the error. */
static int measure_compile_eval(double *z, struct timing *out)
{
    struct expr_env env = {vars, 3, params, 3};
    double tc[REPS], tg[REPS], tn[REPS], x[3], t0, t1, t2, sum = 0;
    struct err err = {0};
    int r, i, j;

    for (r = 0; r < REPS; r++) {
        expr *e;
        t0 = now();
        e = expr_compile(tpl, &env, &err);
        t1 = now();
        if (e == NULL) {
            fprintf(stderr, "bench_param: %s\n", err.message);
            return -1;
        }
        x[2] = 1024;
        for (i = 0; i < GRID; i++) {
            x[0] = grid_n(i);
            for (j = 0; j < GRID; j++) {
                x[1] = grid_p(j);
                z[i * GRID + j] = expr_eval(e, x);
            }
        }
        t2 = now();
        expr_free(e);
        tc[r] = t1 - t0;
        tg[r] = t2 - t1;
        sum += z[GRID * GRID / 2];
    }
    /* The ceiling: the same formula compiled by the C compiler. */
    for (r = 0; r < REPS; r++) {
        volatile double L = 1024; /* keep the compiler from folding the grid away */
        t0 = now();
        for (i = 0; i < GRID; i++) {
            double n = grid_n(i);
            for (j = 0; j < GRID; j++) {
                double p = grid_p(j), sr = 0.001 * (15.94 + 0.0608 * L);
                z[i * GRID + j] = 4.83e-8 * pow(n, 3) / (p - 1) + 2 * n * sr / (p - 1) +
                                  n * log2(p) * sr;
            }
        }
        tn[r] = now() - t0;
        sum += z[GRID * GRID / 2];
    }
    out->compile = median(tc, REPS);
    out->grid = median(tg, REPS);
    out->native = median(tn, REPS);
    out->checksum = sum;
    return 0;
}

/* The 3-D plot of the grid: z[i*GRID + j] is at N = grid_n(i), P = grid_p(j),
 * so P is the plot's x axis and N its y axis. Returns 0, or -1 after printing
 * the error. */
static int measure_render(const double *z, struct timing *out)
{
    double xs[GRID], ys[GRID], tr[REPS], t0;
    struct svg_plot3d p = {0};
    struct err err = {0};
    struct buf b;
    int r, i;

    for (i = 0; i < GRID; i++) {
        xs[i] = grid_p(i);
        ys[i] = grid_n(i);
    }
    p.title = "matmul on IBM SP2";
    p.xlabel = "P";
    p.ylabel = "N";
    p.zlabel = "runtime (s)";
    p.x = xs;
    p.nx = GRID;
    p.y = ys;
    p.ny = GRID;
    p.z = z;
    buf_init(&b, 16u << 20);
    for (r = 0; r < REPS; r++) {
        buf_reset(&b);
        t0 = now();
        if (svg_plot3d(&b, &p, &err) != 0) {
            fprintf(stderr, "bench_param: %s\n", err.message);
            buf_free(&b);
            return -1;
        }
        tr[r] = now() - t0;
    }
    out->render = median(tr, REPS);
    out->svg_bytes = b.len;
    buf_free(&b);
    return 0;
}

int main(void)
{
    struct timing t;
    double *z;

    gsl_set_error_handler_off();
    z = xmalloc(GRID * GRID * sizeof *z);
    if (z == NULL) {
        fprintf(stderr, "bench_param: out of memory\n");
        return 1;
    }
    if (measure_compile_eval(z, &t) != 0 || measure_render(z, &t) != 0) {
        xfree(z);
        return 1;
    }
    printf("parameterization: matmul template, 3 system parameters, %dx%d grid "
           "(N 100..10000, P 8..64, L=1024), median of %d\n",
           GRID, GRID, REPS);
    printf("  compile (parse + substitute + program)  %9.1f us\n", 1e6 * t.compile);
    printf("  evaluate grid (%d points)             %9.3f ms  (%.1f ns/point)\n",
           GRID * GRID, 1e3 * t.grid, 1e9 * t.grid / (GRID * GRID));
    printf("  ceiling: same formula in C              %9.3f ms  (%.1f ns/point)\n",
           1e3 * t.native, 1e9 * t.native / (GRID * GRID));
    printf("  compile + evaluate                      %9.3f ms\n",
           1e3 * (t.compile + t.grid));
    printf("  3-D SVG render of the grid              %9.3f ms  (%zu bytes)\n",
           1e3 * t.render, t.svg_bytes);
    printf("  compile + grid + render                 %9.3f ms  (target <= 20 ms)\n",
           1e3 * (t.compile + t.grid + t.render));
    printf("  (checksum %.6g)\n", t.checksum);
    xfree(z);
    return 0;
}
