/* coll: MPI collectives. Prints "allreduce_size BYTES seconds" and
 * "bcast_size BYTES seconds" over message sizes at the launched P, and
 * "allreduce_p P seconds" for 8 KiB. Rank 0 prints; times are per call: the
 * least among the calls (the slowest rank's time of each), because on a
 * machine shared with other programs a mean mostly measures how often the
 * others interrupted. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double timed(int coll, int count, int reps)
{
    double *a = calloc((size_t)count, sizeof *a), *b = calloc((size_t)count, sizeof *b);
    double t0, t = 0, *ti = malloc((size_t)reps * sizeof *ti);
    int r;

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    for (r = 0; r < reps; r++) {
        t0 = MPI_Wtime();
        if (coll == 0)
            MPI_Allreduce(a, b, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        else
            MPI_Bcast(a, count, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        ti[r] = MPI_Wtime() - t0;
    }
    MPI_Allreduce(MPI_IN_PLACE, ti, reps, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    for (r = 0; r < reps; r++)
        t = r == 0 || ti[r] < t ? ti[r] : t;
    free(ti);
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
