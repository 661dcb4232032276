/* transpose: the out-of-place transpose B = A^T of an n x n matrix of
 * doubles on one rank, naive and cache-blocked (held-out data, never used to
 * choose the selection). Usage:
 *   transpose N...   prints for each N
 *     "transpose_n N seconds"  naive: A read along rows, B written down its
 *                              columns (one cache line of B per element once
 *                              a column's lines no longer stay in L1; at
 *                              powers of 2 the column's lines also map to
 *                              few cache sets);
 *     "transblk_n N seconds"   the same in 32 x 32 tiles (a tile of A and
 *                              one of B, 16 KiB, stay in L1).
 * The two matrices are 16 N^2 bytes: they leave L1 at N = 64, L2 at about
 * 360 and the shared L3 at about 1450. Times are the least of one transpose:
 * on a machine shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define TILE 32

static void naive(const double *restrict a, double *restrict b, long n)
{
    long i, j;

    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            b[j * n + i] = a[i * n + j];
}

static void blocked(const double *restrict a, double *restrict b, long n)
{
    long ii, jj, i, j;

    for (ii = 0; ii < n; ii += TILE)
        for (jj = 0; jj < n; jj += TILE) {
            long ie = ii + TILE < n ? ii + TILE : n, je = jj + TILE < n ? jj + TILE : n;
            for (i = ii; i < ie; i++)
                for (j = jj; j < je; j++)
                    b[j * n + i] = a[i * n + j];
        }
}

/* Times one variant at n; returns the least time, and complains on stderr
 * if B is not A^T. */
static double timed(int what, const double *a, double *b, long n)
{
    long k = 200000000L / (n * n * 16 + 1000), i, j;
    int iters = k < 5 ? 5 : k > 2000 ? 2000 : (int)k, it;
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n * n; i++) /* touch B, and erase the other variant's answer */
        b[i] = -1.0;
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        if (what == 0)
            naive(a, b, n);
        else
            blocked(a, b, n);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            if (b[j * n + i] != a[i * n + j]) {
                fprintf(stderr, "transpose: %s wrong at %ld,%ld of %ld\n",
                        what == 0 ? "naive" : "blocked", j, i, n);
                i = j = n;
            }
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    static const char *name[] = {"transpose_n", "transblk_n"};
    int rank, k, what;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (k = 1; k < argc; k++) {
        long n = strtol(argv[k], NULL, 10), i;
        double *a, *b;
        if (n < 1 || n > 8192)
            MPI_Abort(MPI_COMM_WORLD, 1);
        a = malloc((size_t)(n * n) * sizeof *a);
        b = malloc((size_t)(n * n) * sizeof *b);
        if (a == NULL || b == NULL)
            MPI_Abort(MPI_COMM_WORLD, 1);
        for (i = 0; i < n * n; i++)
            a[i] = (double)i;
        for (what = 0; what < 2; what++) {
            double t = timed(what, a, b, n);
            if (rank == 0)
                printf("%s %ld %.6e\n", name[what], n, t);
        }
        free(a);
        free(b);
    }
    MPI_Finalize();
    return 0;
}
