/* mg: one multigrid V-cycle for the 2-D Poisson equation -Lu = f on the
 * unit square with u = 0 on the boundary, on one rank, pinned (held-out
 * data, never used to choose the selection): N x N cells (N a power of 2,
 * (N - 1)^2 unknowns) down to 2 x 2 (one unknown, solved exactly); on each
 * level two red-black Gauss-Seidel sweeps before and after the coarse
 * correction, full-weighting restriction of the residual and bilinear
 * interpolation of the correction, no FFT anywhere. Three arrays of
 * (N + 1)^2 doubles on the finest level, 4/3 of that in all (100 KiB at
 * N = 64, 25 MiB at N = 1024, past L2). Usage:
 *   mg N...   prints "mg_n N seconds" for each N (4 <= N <= 4096).
 * f = 2 pi^2 sin(pi x) sin(pi y), u = 0 at the start, written before
 * anything is timed. The cycles continue from one another (a V-cycle does
 * the same work whatever u holds; timing.h's least_pass, about 0.2 s of
 * samples). Check (not timed): after all the cycles (at least 7) the
 * residual's maximum is below 1e-6 of f's, and u is within 2 h^2 + 1e-6 of
 * the exact solution sin(pi x) sin(pi y) (the discretisation's error).
 * Times are the least of one cycle (timing.h): on a machine shared with
 * other programs, other work only adds time. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define LEVELS 13

struct mg {
    int levels;     /* level 0 is the finest */
    long n[LEVELS]; /* cells per side */
    double *u[LEVELS], *f[LEVELS], *r[LEVELS];
};

#define AT(a, n, i, j) (a)[(long)(i) * ((n) + 1) + (j)]

static void smooth(double *u, const double *f, long n)
{
    double h2 = 1.0 / (double)(n * n);
    long i, j;
    int c;

    for (c = 0; c < 2; c++)
        for (i = 1; i < n; i++)
            for (j = 1 + ((i + c) & 1); j < n; j += 2)
                AT(u, n, i, j) =
                    0.25 * (AT(u, n, i - 1, j) + AT(u, n, i + 1, j) + AT(u, n, i, j - 1) +
                            AT(u, n, i, j + 1) + h2 * AT(f, n, i, j));
}

static void residual(const double *u, const double *f, double *r, long n)
{
    double q = (double)(n * n);
    long i, j;

    for (i = 1; i < n; i++)
        for (j = 1; j < n; j++)
            AT(r, n, i, j) =
                AT(f, n, i, j) -
                q * (4 * AT(u, n, i, j) - AT(u, n, i - 1, j) - AT(u, n, i + 1, j) -
                     AT(u, n, i, j - 1) - AT(u, n, i, j + 1));
}

static void cycle(struct mg *m, int l)
{
    long n = m->n[l], c = n / 2, i, j;
    double *u = m->u[l], *f = m->f[l], *r = m->r[l], *uc, *fc;

    if (l == m->levels - 1) { /* 2 x 2 cells: u = h^2 f / 4 at the centre */
        AT(u, n, 1, 1) = AT(f, n, 1, 1) / (4.0 * (double)(n * n));
        return;
    }
    smooth(u, f, n);
    smooth(u, f, n);
    residual(u, f, r, n);
    uc = m->u[l + 1];
    fc = m->f[l + 1];
    for (i = 1; i < c; i++)
        for (j = 1; j < c; j++) {
            long I = 2 * i, J = 2 * j;
            AT(fc, c, i, j) = (4 * AT(r, n, I, J) +
                               2 * (AT(r, n, I - 1, J) + AT(r, n, I + 1, J) +
                                    AT(r, n, I, J - 1) + AT(r, n, I, J + 1)) +
                               AT(r, n, I - 1, J - 1) + AT(r, n, I - 1, J + 1) +
                               AT(r, n, I + 1, J - 1) + AT(r, n, I + 1, J + 1)) /
                              16.0;
            AT(uc, c, i, j) = 0;
        }
    cycle(m, l + 1);
    for (i = 1; i < n; i++)
        for (j = 1; j < n; j++) {
            long a = i / 2, b = j / 2;
            double e;
            if (i % 2 == 0 && j % 2 == 0)
                e = AT(uc, c, a, b);
            else if (i % 2 == 0)
                e = 0.5 * (AT(uc, c, a, b) + AT(uc, c, a, b + 1));
            else if (j % 2 == 0)
                e = 0.5 * (AT(uc, c, a, b) + AT(uc, c, a + 1, b));
            else
                e = 0.25 * (AT(uc, c, a, b) + AT(uc, c, a + 1, b) + AT(uc, c, a, b + 1) +
                            AT(uc, c, a + 1, b + 1));
            AT(u, n, i, j) += e;
        }
    smooth(u, f, n);
    smooth(u, f, n);
}

static void vcycle(void *arg)
{
    cycle(arg, 0);
}

static double timed(long n)
{
    struct mg m;
    long i, j, k = n;
    int l;
    double t, rmax = 0, fm = 0, emax = 0, h = 1.0 / (double)n, pi = acos(-1.0);

    m.levels = 0;
    while (k >= 2) {
        m.n[m.levels] = k;
        m.u[m.levels] = calloc((size_t)((k + 1) * (k + 1)), sizeof(double));
        m.f[m.levels] = calloc((size_t)((k + 1) * (k + 1)), sizeof(double));
        m.r[m.levels] = calloc((size_t)((k + 1) * (k + 1)), sizeof(double));
        if (m.u[m.levels] == NULL || m.f[m.levels] == NULL || m.r[m.levels] == NULL)
            MPI_Abort(MPI_COMM_WORLD, 1);
        m.levels++;
        k /= 2;
    }
    for (i = 1; i < n; i++)
        for (j = 1; j < n; j++)
            AT(m.f[0], n, i, j) =
                2 * pi * pi * sin(pi * (double)i * h) * sin(pi * (double)j * h);
    vcycle(&m); /* with least_pass's, at least 7 */
    t = least_pass(vcycle, &m, 0.2);
    residual(m.u[0], m.f[0], m.r[0], n);
    for (i = 1; i < n; i++)
        for (j = 1; j < n; j++) {
            double e =
                AT(m.u[0], n, i, j) - sin(pi * (double)i * h) * sin(pi * (double)j * h);
            rmax = fmax(rmax, fabs(AT(m.r[0], n, i, j)));
            fm = fmax(fm, fabs(AT(m.f[0], n, i, j)));
            emax = fmax(emax, fabs(e));
        }
    if (!(rmax <= 1e-6 * fm) || !(emax <= 2 * h * h + 1e-6)) {
        fprintf(stderr, "mg: N %ld: residual %g (f %g), error %g\n", n, rmax, fm, emax);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (l = 0; l < m.levels; l++) {
        free(m.u[l]);
        free(m.f[l]);
        free(m.r[l]);
    }
    return t;
}

int main(int argc, char **argv)
{
    return sweep(argc, argv, "mg_n", 4, 4096, 1, timed);
}
