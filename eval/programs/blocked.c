/* blocked: a cache-blocked product C = A B of N x N matrices of doubles on
 * one rank (held-out data, never used to choose the selection): 64 x 64
 * blocks (32 KiB each, the size of L1d), the i,k,j order inside a block so
 * that the innermost loop streams a row of a block of B and of C; 2 N^3
 * flops while the 24 N^2 bytes of the three matrices leave L2 (N > 200) and
 * approach L3's size (N = 1024: 24 MiB). N need not be a multiple of 64 (the
 * last blocks are narrower). Usage:
 *   blocked N...   prints "dgemmb_n N seconds" for each N.
 * A and B are drawn once per N with a fixed seed; C is cleared before each
 * iteration (not timed). Times are the least of one product: on a machine
 * shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define BS 64

static volatile double sink;

static void product(const double *restrict a, const double *restrict b,
                    double *restrict c, long n)
{
    long ii, kk, jj, i, k, j;

    for (ii = 0; ii < n; ii += BS)
        for (kk = 0; kk < n; kk += BS)
            for (jj = 0; jj < n; jj += BS) {
                long ie = ii + BS < n ? ii + BS : n, ke = kk + BS < n ? kk + BS : n;
                long je = jj + BS < n ? jj + BS : n;
                for (i = ii; i < ie; i++)
                    for (k = kk; k < ke; k++) {
                        double aik = a[i * n + k];
                        const double *bk = b + k * n;
                        double *ci = c + i * n;
                        for (j = jj; j < je; j++)
                            ci[j] += aik * bk[j];
                    }
            }
}

static double multiplied(long n)
{
    int iters, it;
    long k, i;
    double *a = malloc((size_t)(n * n) * sizeof *a),
           *b = malloc((size_t)(n * n) * sizeof *b);
    double *c = malloc((size_t)(n * n) * sizeof *c), *ti, t0, t;
    unsigned long long x = 88172645463325252ULL; /* xorshift64, fixed seed */

    k = 1000000000L / (2 * n * n * n + 1000);
    iters = k < 3 ? 3 : k > 2000 ? 2000 : (int)k;
    ti = malloc((size_t)iters * sizeof *ti);
    if (a == NULL || b == NULL || c == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < 2 * n * n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (i < n * n ? a : b)[i % (n * n)] = (double)(x >> 11) / 9007199254740992.0 - 0.5;
    }
    for (it = 0; it < iters; it++) {
        memset(c, 0, (size_t)(n * n) * sizeof *c);
        t0 = MPI_Wtime();
        product(a, b, c, n);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    sink = c[n * n / 2];
    free(a);
    free(b);
    free(c);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    return sweep(argc, argv, "dgemmb_n", 1, 4096, 0, multiplied);
}
