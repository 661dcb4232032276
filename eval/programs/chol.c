/* chol: the Cholesky factorisation A = L L^T of a dense symmetric positive
 * definite N x N matrix on one rank (held-out data, never used to choose the
 * selection): the row-oriented (Cholesky-Crout) form, L[i][j] from the dot
 * product of rows i and j of L so far, N^3 / 6 multiply-adds over the lower
 * triangle of a row-major matrix of 8 N^2 bytes that leaves L1 (N = 64),
 * L2 (N = 362) and stays within the shared L3 up to N = 1024. Usage:
 *   chol N...   prints "chol_n N seconds" for each N.
 * A[i][j] = 1 / (1 + |i - j|) off the diagonal and N on it (diagonally
 * dominant, so positive definite); it is built once per N and restored from
 * a saved copy before each iteration (not timed), so every iteration factors
 * the same matrix. Times are the least of one factorisation: on a machine
 * shared with other programs, other work only adds time. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

static volatile double sink;

/* Overwrites the lower triangle of a (n x n, row-major) with L. */
static void factor(double *a, long n)
{
    long i, j, k;

    for (i = 0; i < n; i++) {
        double *ri = a + i * n;
        for (j = 0; j <= i; j++) {
            const double *rj = a + j * n;
            double s = ri[j];
            for (k = 0; k < j; k++)
                s -= ri[k] * rj[k];
            ri[j] = j < i ? s / rj[j] : sqrt(s);
        }
    }
}

static double factored(long n)
{
    long k = 300000000L / (n * n * n / 6 + 1000), i, j;
    int iters = k < 3 ? 3 : k > 2000 ? 2000 : (int)k, it;
    size_t bytes = (size_t)(n * n) * sizeof(double);
    double *a = malloc(bytes), *saved = malloc(bytes);
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t, s;

    if (a == NULL || saved == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            saved[i * n + j] = i == j ? (double)n : 1.0 / (double)(1 + labs(i - j));
    for (it = 0; it < iters; it++) {
        memcpy(a, saved, bytes);
        t0 = MPI_Wtime();
        factor(a, n);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    /* check: row n - 1 of L L^T against A's last diagonal entry */
    for (s = 0, k = 0; k < n; k++)
        s += a[(n - 1) * n + k] * a[(n - 1) * n + k];
    if (fabs(s - saved[n * n - 1]) > 1e-9 * (double)n)
        fprintf(stderr, "chol: (L L^T)[n-1][n-1] = %g, not %g\n", s, saved[n * n - 1]);
    sink = a[n * n - 1];
    free(a);
    free(saved);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    return sweep(argc, argv, "chol_n", 2, 4096, 0, factored);
}
