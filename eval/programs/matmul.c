/* matmul: naive C += A B of N x N doubles, loops in i, k, j order, on one
 * rank (held-out data, never used to choose the selection; the row of B
 * streamed by the inner loop is reused across i from L1 while B fits in it,
 * N <= 64, then from L2, N <= 362, then from L3). Usage:
 *   matmul N...   prints "matmul_n N seconds" for each N.
 * Times are the least of one product (at least 3): on a machine shared with
 * other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

static volatile double sink;

static double product(long n)
{
    size_t nn = (size_t)n * n, i, j, k;
    double flops = 2.0 * n * n * n;
    int iters = flops > 4e8 ? 3 : (int)(4e8 / flops), it;
    double *a = malloc(nn * sizeof *a), *b = malloc(nn * sizeof *b);
    double *c = calloc(nn, sizeof *c), *ti, t0, t;

    iters = iters < 3 ? 3 : iters > 2000 ? 2000 : iters;
    ti = malloc((size_t)iters * sizeof *ti);
    if (a == NULL || b == NULL || c == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < nn; i++) {
        a[i] = (double)(i % 17) / 17;
        b[i] = (double)(i % 19) / 19;
    }
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        for (i = 0; i < (size_t)n; i++)
            for (k = 0; k < (size_t)n; k++) {
                double aik = a[i * n + k];
                for (j = 0; j < (size_t)n; j++)
                    c[i * n + j] += aik * b[k * n + j];
            }
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    sink = c[nn / 2];
    free(a);
    free(b);
    free(c);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    return sweep(argc, argv, "matmul_n", 1, 8192, 0, product);
}
