/* matmul_mn: the dense product C = A B of doubles on one rank, pinned, over
 * two variables, the rows m of A and the columns n of B, with A m x 64 and
 * B 64 x n (held-out data of heldout15, a two-variable grid, never used to
 * choose the selection): naive loops in i, k, j order, row-major, each row
 * of C cleared and then accumulated (2 m 64 n flops). Usage:
 *   matmul_mn M1,M2,... N1,N2,...   prints "matmul_mn m n seconds" for every
 *                                   m and n of the two lists (1 ... 8192).
 * A and B are written once per configuration (not timed) and one product
 * runs untimed first. A sample times r back-to-back products (r doubled
 * from 1 until r products take at least 50 us) and counts as the time of
 * one, the sample's time over r; the samples (enough for about 0.2 s, at
 * least 5, at most 2000) follow. Check (not timed): one entry of C against
 * its dot product. Times are the least of one product (timing.h): on a
 * machine shared with other programs, other work only adds time. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define K 64
#define MAXSAMPLES 2000

static volatile double sink;

static void product(const double *restrict a, const double *restrict b,
                    double *restrict c, long m, long n)
{
    long i, j, k;

    for (i = 0; i < m; i++) {
        double *ci = c + i * n;
        for (j = 0; j < n; j++)
            ci[j] = 0;
        for (k = 0; k < K; k++) {
            double aik = a[i * K + k];
            const double *bk = b + k * n;
            for (j = 0; j < n; j++)
                ci[j] += aik * bk[j];
        }
    }
}

static double timed(long m, long n)
{
    double *a = malloc((size_t)(m * K) * sizeof *a),
           *b = malloc((size_t)(K * n) * sizeof *b),
           *c = malloc((size_t)(m * n) * sizeof *c);
    double *ti = malloc(MAXSAMPLES * sizeof *ti), t0, t, want = 0;
    long i, k, r = 1, target, ci = m / 3, cj = n / 2;
    int samples, s;

    if (a == NULL || b == NULL || c == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < m * K; i++)
        a[i] = (double)(i % 17) / 17;
    for (i = 0; i < K * n; i++)
        b[i] = (double)(i % 19) / 19;
    product(a, b, c, m, n); /* not timed */
    for (;;) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            product(a, b, c, m, n);
        t = MPI_Wtime() - t0;
        if (t >= 50e-6 || r >= (1L << 20))
            break;
        r *= 2;
    }
    target = (long)(0.2 / (t > 1e-9 ? t : 1e-9)) + 1;
    samples = (int)(target < 5 ? 5 : target > MAXSAMPLES ? MAXSAMPLES : target);
    for (s = 0; s < samples; s++) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            product(a, b, c, m, n);
        ti[s] = (MPI_Wtime() - t0) / (double)r;
    }
    t = least(ti, samples);
    for (k = 0; k < K; k++)
        want += a[ci * K + k] * b[k * n + cj];
    if (fabs(c[ci * n + cj] - want) > 1e-9 * (1 + fabs(want)))
        fprintf(stderr, "matmul_mn: m %ld n %ld: wrong product\n", m, n);
    sink = c[ci * n + cj];
    free(a);
    free(b);
    free(c);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    return grid(argc, argv, "matmul_mn", 1, 8192, 1, 8192, NULL, timed);
}
