/* gemv: a dense matrix-vector product y = A x over the matrix order n on one
 * rank, pinned (held-out data, never used to choose the selection; the
 * n^2 doubles of A, 32 KiB ... 512 MiB, pass through L1, L2 and L3 to DRAM).
 * Usage:
 *   gemv N...   prints "gemv_n N seconds" for each N (16 <= N <= 16384).
 * A is row-major, N x N doubles; x and y are N doubles. Each row's dot
 * product with x keeps 4 partial sums (so the chain of dependent additions
 * does not limit it while A sits in the caches), 2 N^2 flops per product.
 * Every array is allocated and written (first touch) before anything is
 * timed. A sample times r back-to-back products (r doubled from 1 until r
 * products take at least 50 us) and counts as the time of one, the sample's
 * time over r; the samples (enough for about 0.2 s, at least 10, or 5 once
 * A is 128 MiB or more, at most 20000) follow a product that is not timed.
 * Check (not timed): with A[i][j] = (i + 2 j) % 7 and x[j] = j % 5, a
 * sample of y against its sum computed again in integers. Times are the
 * least of one product (timing.h): on a machine shared with other programs,
 * other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXSAMPLES 20000

static volatile double sink;

static void product(const double *restrict a, const double *restrict x,
                    double *restrict y, long n)
{
    long i, j;

    for (i = 0; i < n; i++) {
        const double *row = a + i * n;
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (j = 0; j + 4 <= n; j += 4) {
            s0 += row[j] * x[j];
            s1 += row[j + 1] * x[j + 1];
            s2 += row[j + 2] * x[j + 2];
            s3 += row[j + 3] * x[j + 3];
        }
        for (; j < n; j++)
            s0 += row[j] * x[j];
        y[i] = (s0 + s1) + (s2 + s3);
    }
}

static double timed(long n)
{
    double *a = malloc((size_t)n * (size_t)n * sizeof *a),
           *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y),
           *ti = malloc(MAXSAMPLES * sizeof *ti), t0, t;
    long i, j, r = 1, k, target;
    int samples, s, bad = 0;

    if (a == NULL || x == NULL || y == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++)
            a[i * n + j] = (double)((i + 2 * j) % 7);
        x[i] = (double)(i % 5);
        y[i] = 0.0;
    }
    product(a, x, y, n); /* not timed */
    for (;;) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            product(a, x, y, n);
        t = MPI_Wtime() - t0;
        if (t >= 50e-6 || r >= (1L << 20))
            break;
        r *= 2;
    }
    target = (long)(0.2 / (t > 1e-9 ? t : 1e-9)) + 1;
    k = 8.0 * (double)n * (double)n >= 128.0 * 1024 * 1024 ? 5 : 10;
    samples = (int)(target < k ? k : target > MAXSAMPLES ? MAXSAMPLES : target);
    for (s = 0; s < samples; s++) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            product(a, x, y, n);
        ti[s] = (MPI_Wtime() - t0) / (double)r;
    }
    t = least(ti, samples);
    for (i = 0; i < n && !bad; i += 1 + n / 61) {
        long e = 0;
        for (j = 0; j < n; j++)
            e += ((i + 2 * j) % 7) * (j % 5);
        bad = y[i] != (double)e;
    }
    if (bad)
        fprintf(stderr, "gemv: n %ld: wrong y near row %ld\n", n, i);
    sink = y[n / 2];
    free(a);
    free(x);
    free(y);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    return sweep(argc, argv, "gemv_n", 16, 1L << 14, 0, timed);
}
