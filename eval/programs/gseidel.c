/* gseidel: one lexicographic Gauss-Seidel sweep of the 5-point Poisson
 * equation on an n x n grid, in place, on one rank, pinned (held-out data,
 * never used to choose the selection). Usage:
 *   gseidel N...   prints "gseidel_n N seconds" for each N (8 <= N <= 16384).
 * The grid u and the right-hand side f are N x N doubles each (2 x 8 N^2
 * bytes, 16 KiB ... 256 MiB over N = 32 ... 4096); the edges of u are fixed
 * (u = 1 there) and every interior point becomes
 *   u[i][j] = 0.25 (u[i-1][j] + u[i+1][j] + u[i][j-1] + u[i][j+1] + h^2 f[i][j])
 * in row order, so each point needs the one just computed to its left: a
 * chain of dependent additions along each row, unlike a Jacobi sweep. f = 1
 * and the fixed edges keep u away from zero (no subnormal numbers) as the
 * sweeps converge. Every array is written (first touch) before anything is
 * timed. A sample times r back-to-back sweeps (r doubled from 1 until r
 * sweeps take at least 50 us) and counts as the time of one, the sample's
 * time over r; the samples (enough for about 0.2 s, at least 10, or 5 once
 * the grids are 128 MiB or more, at most 20000) follow a sweep that is not
 * timed. Check (not timed): u stays within [1, 1 + 1/8] (h = 1 / (N - 1):
 * the unit square; Gauss-Seidel from u = 1 rises monotonically towards the
 * discrete solution, which lies in those bounds). Times are the least of one sweep
 * (timing.h): on a machine shared with other programs, other work only adds
 * time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXSAMPLES 20000

static volatile double sink;

static void sweep_once(double *restrict u, const double *restrict f, long n, double h2)
{
    long i, j;

    for (i = 1; i < n - 1; i++) {
        double left = u[i * n];
        for (j = 1; j < n - 1; j++) {
            left = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] + left +
                           u[i * n + j + 1] + h2 * f[i * n + j]);
            u[i * n + j] = left;
        }
    }
}

static double timed(long n)
{
    double *u = malloc((size_t)n * (size_t)n * sizeof *u),
           *f = malloc((size_t)n * (size_t)n * sizeof *f),
           *ti = malloc(MAXSAMPLES * sizeof *ti),
           h2 = 1.0 / ((double)(n - 1) * (double)(n - 1)), t0, t, hi;
    long i, r = 1, k, target, m = n * n;
    int samples, s, bad = 0;

    if (u == NULL || f == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < m; i++) {
        u[i] = 1.0;
        f[i] = 1.0;
    }
    sweep_once(u, f, n, h2); /* not timed */
    for (;;) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            sweep_once(u, f, n, h2);
        t = MPI_Wtime() - t0;
        if (t >= 50e-6 || r >= (1L << 20))
            break;
        r *= 2;
    }
    target = (long)(0.2 / (t > 1e-9 ? t : 1e-9)) + 1;
    k = 16.0 * (double)m >= 128.0 * 1024 * 1024 ? 5 : 10;
    samples = (int)(target < k ? k : target > MAXSAMPLES ? MAXSAMPLES : target);
    for (s = 0; s < samples; s++) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            sweep_once(u, f, n, h2);
        ti[s] = (MPI_Wtime() - t0) / (double)r;
    }
    t = least(ti, samples);
    /* -lap u = f with u = 1 on the edges of the unit square: 1 <= u <=
     * 1 + 1/8 (f = 1); the iterates rise monotonically towards it */
    hi = 1.0 + 0.125 + 1e-9;
    for (i = 0; i < m && !bad; i += 1 + m / 997)
        bad = !(u[i] >= 1.0 && u[i] <= hi);
    if (bad)
        fprintf(stderr, "gseidel: n %ld: u out of bounds near %ld\n", n, i);
    sink = u[m / 2];
    free(u);
    free(f);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    return sweep(argc, argv, "gseidel_n", 8, 1L << 14, 0, timed);
}
