/* rsmv: strong scaling of a power iteration whose matrix-vector product is
 * split by column blocks and completed by MPI_Reduce_scatter_block
 * (held-out data, never used to choose the selection): a dense N x N
 * matrix, N = 2520 (divisible by every P = 1...8; 48 MiB in all), every
 * rank holding N / P columns in column-major order; one iteration computes
 * the rank's partial product of all N rows from its columns and its block
 * of x, sums the partial products by MPI_Reduce_scatter_block so that each
 * rank receives its N / P entries of y, and normalises y (an MPI_Allreduce
 * of the sum of squares) into the next x. Prints
 *   "rsmv_p P seconds".
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. A[i][j] = 1 + ((7 i + 13 j) mod 17) / 16, written once by each
 * rank for its columns (not timed). One iteration runs from a barrier to a
 * barrier (30 iterations after one that is not timed). Check (not timed):
 * with x = 1 one more product gives every rank's N / P entries of y equal
 * to the row sums of A computed from the formula (relative error below
 * 1e-12). Times are the least of one iteration (the slowest rank's time of
 * each): on a machine shared with other programs, other work only adds
 * time. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define N 2520
#define ITERS 30

static double entry(long i, long j)
{
    return 1.0 + (double)((7 * i + 13 * j) % 17) / 16.0;
}

/* y (m entries, this rank's) = the block of A x; part is N scratch. */
static void product(const double *a, const double *x, double *part, double *y, int m)
{
    long i, j;

    memset(part, 0, N * sizeof *part);
    for (j = 0; j < m; j++) {
        const double *c = a + j * N;
        double xj = x[j];
        for (i = 0; i < N; i++)
            part[i] += c[i] * xj;
    }
    MPI_Reduce_scatter_block(part, y, m, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

static void iteration(const double *a, double *x, double *part, double *y, int m)
{
    double s = 0;
    int i;

    product(a, x, part, y, m);
    for (i = 0; i < m; i++)
        s += y[i] * y[i];
    MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    s = 1.0 / sqrt(s);
    for (i = 0; i < m; i++)
        x[i] = y[i] * s;
}

int main(int argc, char **argv)
{
    int rank, size, it, m, bad = 0;
    long i, j, j0;
    double *a, *x, *y, *part, ti[ITERS], t0, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (N % size != 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    m = N / size;
    j0 = (long)rank * m;
    a = malloc((size_t)m * N * sizeof *a);
    x = malloc((size_t)m * sizeof *x);
    y = malloc((size_t)m * sizeof *y);
    part = malloc(N * sizeof *part);
    if (a == NULL || x == NULL || y == NULL || part == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (j = 0; j < m; j++) {
        for (i = 0; i < N; i++)
            a[j * N + i] = entry(i, j0 + j);
        x[j] = 1.0 / sqrt((double)N);
    }
    iteration(a, x, part, y, m); /* not timed */
    for (it = 0; it < ITERS; it++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        iteration(a, x, part, y, m);
        MPI_Barrier(MPI_COMM_WORLD);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, ITERS);
    for (j = 0; j < m; j++)
        x[j] = 1.0;
    product(a, x, part, y, m);
    for (i = 0; i < m; i++) {
        double r = 0;
        for (j = 0; j < N; j++)
            r += entry(j0 + i, j);
        bad |= fabs(y[i] - r) > 1e-12 * r;
    }
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (bad) {
        if (rank == 0)
            fprintf(stderr, "rsmv: P %d: a row sum is wrong\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (rank == 0)
        printf("rsmv_p %d %.6e\n", size, t);
    free(a);
    free(x);
    free(y);
    free(part);
    MPI_Finalize();
    return 0;
}
