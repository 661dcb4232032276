/* gather_pm: MPI_Gather to rank 0 over two variables, the bytes M sent by
 * each rank and the launched number of ranks P (held-out data of heldout17,
 * a two-variable grid, never used to choose the selection). Usage:
 *   mpirun -np P gather_pm M...   prints "gather_pm M P seconds" for each M
 *                                 (1 ... 4 MiB per rank).
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. Each rank sends M bytes and rank 0 receives M P; the buffers are
 * written before anything is timed, and one call is made untimed first.
 * iters_for(M P) calls are timed (about 20 MB gathered in all, 20...2000),
 * each preceded by an MPI_Barrier outside the timed region: a rooted
 * collective lets the non-root ranks return before the root has all the
 * parts, so calls back to back would overlap (pipeline) and each would look
 * cheaper than one call. A rank's time of a call runs from its leaving the
 * barrier to its return from MPI_Gather. Times are the least of one call
 * (the slowest rank's time of each, timing.h): on a machine shared with
 * other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define MAXBYTES (4L << 20)

static double timed(const char *snd, char *rcv, long bytes, int size)
{
    int iters = iters_for(bytes * size), it;
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Gather(snd, (int)bytes, MPI_CHAR, rcv, (int)bytes, MPI_CHAR, 0, MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        MPI_Barrier(MPI_COMM_WORLD); /* not timed: keeps the calls apart */
        t0 = MPI_Wtime();
        MPI_Gather(snd, (int)bytes, MPI_CHAR, rcv, (int)bytes, MPI_CHAR, 0,
                   MPI_COMM_WORLD);
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
    char *snd, *rcv;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (k = 1; k < argc; k++) {
        bytes = strtol(argv[k], NULL, 10);
        if (bytes < 1 || bytes > MAXBYTES)
            MPI_Abort(MPI_COMM_WORLD, 1);
        most = bytes > most ? bytes : most;
    }
    snd = malloc((size_t)most);
    rcv = malloc((size_t)most * size); /* only rank 0's is used */
    if (snd == NULL || rcv == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(snd, rank + 1, (size_t)most); /* touch the pages before timing */
    memset(rcv, 0, (size_t)most * size);
    for (k = 1; k < argc; k++) {
        bytes = strtol(argv[k], NULL, 10);
        double t = timed(snd, rcv, bytes, size);
        if (rank == 0)
            printf("gather_pm %ld %d %.6e\n", bytes, size, t);
    }
    free(snd);
    free(rcv);
    MPI_Finalize();
    return 0;
}
