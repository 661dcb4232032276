/* lunp: the LU factorisation A = L U without pivoting of a dense N x N matrix
 * on one rank, pinned (held-out data, never used to choose the selection):
 * the right-looking form, in step k the column below the pivot divided by it
 * and the trailing (N - k - 1)^2 submatrix updated by a rank-1 product along
 * its rows, 2 N^3 / 3 flops in place over a row-major matrix of 8 N^2 bytes
 * (32 KiB at N = 64, past L2 at N = 362, 4 MiB at N = 724). Usage:
 *   lunp N...   prints "lu_n N seconds" for each N (8 <= N <= 4096).
 * A[i][j] = 1 / (1 + |i - j|) off the diagonal and N on it (diagonally
 * dominant: no pivoting needed), written once per N; before each
 * factorisation a saved copy is restored (not timed). The samples (one
 * factorisation each, enough for about 0.2 s, at least 5, at most 20000)
 * follow a factorisation that is not timed. Check (not timed): a sample of
 * the entries of L U against A. Times are the least of one factorisation
 * (timing.h): on a machine shared with other programs, other work only adds
 * time. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define MAXSAMPLES 20000

static volatile double sink;

static void lu(double *restrict a, long n)
{
    long i, j, k;

    for (k = 0; k < n - 1; k++) {
        const double *rk = a + k * n;
        double piv = rk[k];
        for (i = k + 1; i < n; i++) {
            double *ri = a + i * n, l = ri[k] / piv;
            ri[k] = l;
            for (j = k + 1; j < n; j++)
                ri[j] -= l * rk[j];
        }
    }
}

static double timed(long n)
{
    double *a = malloc((size_t)(n * n) * sizeof *a),
           *a0 = malloc((size_t)(n * n) * sizeof *a0),
           *ti = malloc(MAXSAMPLES * sizeof *ti), t0, t;
    long i, j, k, target;
    int samples, s, bad = 0;

    if (a == NULL || a0 == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            a0[i * n + j] = i == j ? (double)n : 1.0 / (1.0 + (double)labs(i - j));
    memcpy(a, a0, (size_t)(n * n) * sizeof *a);
    t0 = MPI_Wtime();
    lu(a, n); /* not timed */
    t = MPI_Wtime() - t0;
    target = (long)(0.2 / (t > 1e-9 ? t : 1e-9)) + 1;
    samples = (int)(target < 5 ? 5 : target > MAXSAMPLES ? MAXSAMPLES : target);
    for (s = 0; s < samples; s++) {
        memcpy(a, a0, (size_t)(n * n) * sizeof *a);
        t0 = MPI_Wtime();
        lu(a, n);
        ti[s] = MPI_Wtime() - t0;
    }
    t = least(ti, samples);
    for (i = 0; i < n && !bad; i += 1 + n / 13)
        for (j = 0; j < n && !bad; j += 1 + n / 11) {
            double e = 0.0; /* (L U)[i][j], L unit lower, U upper */
            for (k = 0; k <= (i < j ? i : j); k++)
                e += (k == i ? 1.0 : a[i * n + k]) * a[k * n + j];
            bad = fabs(e - a0[i * n + j]) > 1e-9 * (double)n;
        }
    if (bad)
        fprintf(stderr, "lunp: n %ld: L U differs from A near row %ld\n", n, i);
    sink = a[n + 1];
    free(a);
    free(a0);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    return sweep(argc, argv, "lu_n", 8, 4096, 0, timed);
}
