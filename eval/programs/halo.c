/* halo: 1-D domain decomposition with a halo exchange and a 3-point stencil.
 * Weak scaling (fixed cells per rank) and strong scaling (fixed total cells).
 * Prints "weak P seconds" and "strong P seconds" per iteration (rank 0): the
 * least time of one iteration among all (the slowest rank's time of each),
 * because on a machine shared with other programs a mean over iterations
 * mostly measures how often the others interrupted. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

static double run(long n, int iters, int rank, int size)
{
    double *a = calloc((size_t)n + 2, sizeof *a), *b = calloc((size_t)n + 2, sizeof *b);
    double ghost[64];
    int left = (rank + size - 1) % size, right = (rank + 1) % size, it;
    long i;
    double t0, t = 0, *ti = malloc((size_t)iters * sizeof *ti);

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n + 2; i++)
        a[i] = (double)(i % 7);
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        MPI_Sendrecv(&a[1], 64, MPI_DOUBLE, left, 0, ghost, 64, MPI_DOUBLE, right, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        a[n + 1] = ghost[0];
        MPI_Sendrecv(&a[n], 1, MPI_DOUBLE, right, 1, &a[0], 1, MPI_DOUBLE, left, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (i = 1; i <= n; i++)
            b[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1];
        double *s = a;
        a = b;
        b = s;
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    free(ti);
    free(a);
    free(b);
    return t;
}

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double w = run(200000, 200, rank, size);
    double s = run(1600000 / size, 200, rank, size);
    if (rank == 0)
        printf("weak %d %.6e\nstrong %d %.6e\n", size, w, size, s);
    MPI_Finalize();
    return 0;
}
