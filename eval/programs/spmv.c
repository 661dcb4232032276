/* spmv: the sparse matrix-vector product y = A x in CSR format, A the 2-D
 * 5-point Laplacian (4 on the diagonal, -1 for the up to four neighbours) on
 * an S x S grid, N = S^2 rows, on one rank (held-out data, never used to
 * choose the selection; about 5 N nonzeros, 12 bytes each with its column
 * index, and the two vectors of 8 N bytes leave L1, L2 and L3 as S grows).
 * Usage:
 *   spmv S...   prints "spmv_n N seconds" for each grid side S (N = S^2).
 * The matrix and x are built once per S (not timed). Times are the least of
 * one product: on a machine shared with other programs, other work only adds
 * time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

static volatile double sink;

static double product(int s)
{
    long n = (long)s * s, nnz = 0, r, k;
    int *ptr = malloc((size_t)(n + 1) * sizeof *ptr),
        *col = malloc((size_t)n * 5 * sizeof *col);
    double *val = malloc((size_t)n * 5 * sizeof *val), *x = malloc((size_t)n * sizeof *x);
    double *y = malloc((size_t)n * sizeof *y), *ti, t0, t;
    int iters, it, i, j;

    if (ptr == NULL || col == NULL || val == NULL || x == NULL || y == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < s; i++)
        for (j = 0; j < s; j++) {
            r = (long)i * s + j;
            ptr[r] = (int)nnz;
            if (i > 0) {
                col[nnz] = (int)(r - s);
                val[nnz++] = -1.0;
            }
            if (j > 0) {
                col[nnz] = (int)(r - 1);
                val[nnz++] = -1.0;
            }
            col[nnz] = (int)r;
            val[nnz++] = 4.0;
            if (j < s - 1) {
                col[nnz] = (int)(r + 1);
                val[nnz++] = -1.0;
            }
            if (i < s - 1) {
                col[nnz] = (int)(r + s);
                val[nnz++] = -1.0;
            }
            x[r] = (double)(r % 17);
            y[r] = 0.0;
        }
    ptr[n] = (int)nnz;
    k = 50000000L / (nnz + 1000);
    iters = k < 10 ? 10 : k > 5000 ? 5000 : (int)k;
    ti = malloc((size_t)iters * sizeof *ti);
    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        for (r = 0; r < n; r++) {
            double sum = 0.0;
            for (k = ptr[r]; k < ptr[r + 1]; k++)
                sum += val[k] * x[col[k]];
            y[r] = sum;
        }
        ti[it] = MPI_Wtime() - t0;
        x[it % n] += 1.0; /* the product differs from one iteration to the next */
    }
    t = least(ti, iters);
    sink = y[n / 2];
    free(ptr);
    free(col);
    free(val);
    free(x);
    free(y);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    int rank, k;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (k = 1; k < argc; k++) {
        int s = (int)strtol(argv[k], NULL, 10);
        double t = product(s > 1 ? s : 2);
        if (rank == 0)
            printf("spmv_n %ld %.6e\n", (long)(s > 1 ? s : 2) * (s > 1 ? s : 2), t);
    }
    MPI_Finalize();
    return 0;
}
