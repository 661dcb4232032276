/* alltoall: MPI_Alltoall of 4 KiB per pair of ranks at the launched P
 * (held-out data, never used to choose the selection). Prints
 * "alltoall_p P seconds": the least time of one call among 200 (the slowest
 * rank's time of each), because on a machine shared with other programs
 * other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

int main(int argc, char **argv)
{
    int rank, size, it, iters = 200, count = 512;
    double *a, *b, *ti, t0, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    a = calloc((size_t)count * size, sizeof *a);
    b = calloc((size_t)count * size, sizeof *b);
    ti = malloc((size_t)iters * sizeof *ti);
    if (a == NULL || b == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        MPI_Alltoall(a, count, MPI_DOUBLE, b, count, MPI_DOUBLE, MPI_COMM_WORLD);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    if (rank == 0)
        printf("alltoall_p %d %.6e\n", size, t);
    free(a);
    free(b);
    free(ti);
    MPI_Finalize();
    return 0;
}
