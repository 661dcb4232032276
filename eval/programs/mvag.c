/* mvag: strong scaling of a parallel dense matrix-vector product (held-out
 * data, never used to choose the selection): y = A x of order 2520 (A is
 * 2520^2 doubles, 48.4 MiB at P = 1: beyond L3; 2520 is a multiple of every
 * P = 1...8), A split by block rows over the launched P ranks and x by equal
 * blocks. One iteration gathers the whole of x on every rank by MPI_Allgather
 * of the blocks (2520 / P doubles each) and computes the rank's rows of y,
 * each row's dot product keeping 4 partial sums. Prints
 *   "mvag_p P seconds".
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. A[i][j] = (i + 2 j) % 7 and x[j] = j % 5, written once (first
 * touch) before anything is timed. One iteration runs from a barrier to a
 * closing barrier. Check (not timed): a sample of each rank's y against its
 * sum computed again in integers. Times are the least of one iteration (the
 * slowest rank's time of each): on a machine shared with other programs,
 * other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define N 2520L
#define ITERS 30

static volatile double sink;

int main(int argc, char **argv)
{
    int rank, size, it, bad = 0;
    long rows, r0, i, j;
    double *a, *xl, *x, *y, ti[ITERS], t0, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (N % size != 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    rows = N / size;
    r0 = rows * rank;
    a = malloc((size_t)(rows * N) * sizeof *a);
    xl = malloc((size_t)rows * sizeof *xl);
    x = malloc((size_t)N * sizeof *x);
    y = malloc((size_t)rows * sizeof *y);
    if (a == NULL || xl == NULL || x == NULL || y == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < rows; i++) {
        for (j = 0; j < N; j++)
            a[i * N + j] = (double)((r0 + i + 2 * j) % 7);
        xl[i] = (double)((r0 + i) % 5);
        y[i] = 0.0;
    }
    for (j = 0; j < N; j++)
        x[j] = 0.0;
    for (it = 0; it < ITERS; it++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        MPI_Allgather(xl, (int)rows, MPI_DOUBLE, x, (int)rows, MPI_DOUBLE,
                      MPI_COMM_WORLD);
        for (i = 0; i < rows; i++) {
            const double *row = a + i * N;
            double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
            for (j = 0; j + 4 <= N; j += 4) {
                s0 += row[j] * x[j];
                s1 += row[j + 1] * x[j + 1];
                s2 += row[j + 2] * x[j + 2];
                s3 += row[j + 3] * x[j + 3];
            }
            for (; j < N; j++)
                s0 += row[j] * x[j];
            y[i] = (s0 + s1) + (s2 + s3);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, ITERS);
    for (i = 0; i < rows && !bad; i += 1 + rows / 37) {
        long e = 0;
        for (j = 0; j < N; j++)
            e += ((r0 + i + 2 * j) % 7) * (j % 5);
        bad = y[i] != (double)e;
    }
    if (bad)
        fprintf(stderr, "mvag: wrong y near row %ld on rank %d of %d\n", r0 + i, rank,
                size);
    if (rank == 0)
        printf("mvag_p %d %.6e\n", size, t);
    sink = y[rows / 2];
    free(a);
    free(xl);
    free(x);
    free(y);
    MPI_Finalize();
    return 0;
}
