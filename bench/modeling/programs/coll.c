/* coll: MPI collectives. Prints "allreduce_size BYTES seconds" and
 * "bcast_size BYTES seconds" over message sizes at the launched P, and
 * "allreduce_p P seconds" for 8 KiB. Rank 0 prints; times are per call. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double timed(int coll, int count, int reps)
{
    double *a = calloc((size_t)count, sizeof *a), *b = calloc((size_t)count, sizeof *b);
    double t0, t;
    int r;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (r = 0; r < reps; r++) {
        if (coll == 0)
            MPI_Allreduce(a, b, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        else
            MPI_Bcast(a, count, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    }
    t = (MPI_Wtime() - t0) / reps;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    free(a);
    free(b);
    return t;
}

int main(int argc, char **argv)
{
    int rank, size, count, sweep = argc > 1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (sweep)
        for (count = 16; count <= 262144; count *= 2) {
            double ta = timed(0, count, 20), tb = timed(1, count, 20);
            if (rank == 0)
                printf("allreduce_size %d %.6e\nbcast_size %d %.6e\n", count * 8, ta,
                       count * 8, tb);
        }
    double t = timed(0, 1024, 200);
    if (rank == 0)
        printf("allreduce_p %d %.6e\n", size, t);
    MPI_Finalize();
    return 0;
}
