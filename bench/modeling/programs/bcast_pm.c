/* bcast_pm: MPI_Bcast from rank 0 over two variables, the message size M in
 * bytes and the launched number of ranks P (held-out data of heldout15, a
 * two-variable grid, never used to choose the selection). Usage:
 *   mpirun -np P bcast_pm M...   prints "bcast_pm M P seconds" for each M
 *                                (1 ... 32 MiB).
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. The buffer is written before anything is timed; one call is made
 * untimed first. iters_for(M) calls are timed back to back after a barrier
 * (about 20 MB broadcast in all, 20...2000). Times are the least of one call
 * (the slowest rank's time of each, timing.h): on a machine shared with
 * other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define MAXBYTES (32L << 20)

static double timed(char *buf, long bytes)
{
    int iters = iters_for(bytes), it;
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Bcast(buf, (int)bytes, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        MPI_Bcast(buf, (int)bytes, MPI_CHAR, 0, MPI_COMM_WORLD);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    int rank, size, k;
    long bytes, most = 1;
    char *buf;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (k = 1; k < argc; k++) {
        bytes = strtol(argv[k], NULL, 10);
        if (bytes < 1 || bytes > MAXBYTES)
            MPI_Abort(MPI_COMM_WORLD, 1);
        most = bytes > most ? bytes : most;
    }
    buf = malloc((size_t)most);
    if (buf == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(buf, rank + 1, (size_t)most); /* touch the pages before timing */
    for (k = 1; k < argc; k++) {
        bytes = strtol(argv[k], NULL, 10);
        double t = timed(buf, bytes);
        if (rank == 0)
            printf("bcast_pm %ld %d %.6e\n", bytes, size, t);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
