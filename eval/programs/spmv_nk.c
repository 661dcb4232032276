/* spmv_nk: the sparse matrix-vector product y = A x in CSR format on one
 * rank, pinned, over two variables, the rows N (A is N x N) and the
 * nonzeros k of each row (held-out data of heldout15, a two-variable grid,
 * never used to choose the selection): every row has k nonzeros whose
 * column indices are drawn uniformly over 0...N-1 (xorshift64, a fixed seed
 * per configuration; repeats allowed, left in the order drawn), N k values
 * of 8 bytes and column indices of 4, so x is read at random places. Usage:
 *   spmv_nk N1,N2,... K1,K2,...   prints "spmv_nk N k seconds" for every N
 *                                 and k of the two lists (N k <= 2^28).
 * The matrix and x are built once per configuration (not timed) and one
 * product runs untimed first. A sample times r back-to-back products (r
 * doubled from 1 until r products take at least 50 us) and counts as the
 * time of one, the sample's time over r; the samples (enough for about
 * 0.2 s, at least 5, at most 2000) follow. Check (not timed): one entry of
 * y against its row. Times are the least of one product (timing.h): on a
 * machine shared with other programs, other work only adds time. */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXSAMPLES 2000

static volatile double sink;

static void product(const int *restrict ptr, const int *restrict col,
                    const double *restrict val, const double *restrict x,
                    double *restrict y, long n)
{
    long i;
    int p;

    for (i = 0; i < n; i++) {
        double s = 0;
        for (p = ptr[i]; p < ptr[i + 1]; p++)
            s += val[p] * x[col[p]];
        y[i] = s;
    }
}

static double timed(long n, long k)
{
    long nnz = n * k, i, j, r = 1, target, row = n / 3;
    int *ptr = malloc((size_t)(n + 1) * sizeof *ptr),
        *col = malloc((size_t)nnz * sizeof *col);
    double *val = malloc((size_t)nnz * sizeof *val), *x = malloc((size_t)n * sizeof *x);
    double *y = malloc((size_t)n * sizeof *y), *ti = malloc(MAXSAMPLES * sizeof *ti);
    double t0, t, want = 0;
    uint64_t z = 88172645463325252ULL + 7919ULL * (uint64_t)n + (uint64_t)k;
    int samples, s;

    if (ptr == NULL || col == NULL || val == NULL || x == NULL || y == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n; i++) {
        ptr[i] = (int)(i * k);
        x[i] = 1.0 / (double)(1 + i % 13);
        y[i] = 0;
        for (j = 0; j < k; j++) {
            z ^= z << 13;
            z ^= z >> 7;
            z ^= z << 17;
            col[i * k + j] = (int)((z >> 11) % (uint64_t)n);
            val[i * k + j] = (double)(1 + (i + j) % 7) / 7;
        }
    }
    ptr[n] = (int)nnz;
    product(ptr, col, val, x, y, n); /* not timed */
    for (;;) {
        t0 = MPI_Wtime();
        for (j = 0; j < r; j++)
            product(ptr, col, val, x, y, n);
        t = MPI_Wtime() - t0;
        if (t >= 50e-6 || r >= (1L << 20))
            break;
        r *= 2;
    }
    target = (long)(0.2 / (t > 1e-9 ? t : 1e-9)) + 1;
    samples = (int)(target < 5 ? 5 : target > MAXSAMPLES ? MAXSAMPLES : target);
    for (s = 0; s < samples; s++) {
        t0 = MPI_Wtime();
        for (j = 0; j < r; j++)
            product(ptr, col, val, x, y, n);
        ti[s] = (MPI_Wtime() - t0) / (double)r;
    }
    t = least(ti, samples);
    for (j = ptr[row]; j < ptr[row + 1]; j++)
        want += val[j] * x[col[j]];
    if (fabs(y[row] - want) > 1e-9 * (1 + fabs(want)))
        fprintf(stderr, "spmv_nk: N %ld k %ld: wrong product\n", n, k);
    sink = y[row];
    free(ptr);
    free(col);
    free(val);
    free(x);
    free(y);
    free(ti);
    return t;
}

/* The pairs the program takes. */
static int fits(long n, long k)
{
    return n * k <= (1L << 28);
}

int main(int argc, char **argv)
{
    return grid(argc, argv, "spmv_nk", 1, 1L << 26, 1, 1024, fits, timed);
}
