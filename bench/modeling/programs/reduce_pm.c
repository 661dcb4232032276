/* reduce_pm: MPI_Reduce (MPI_SUM of doubles to root 0) over two variables,
 * the message size M in bytes and the launched number of ranks P (held-out
 * data of heldout16, a two-variable grid, never used to choose the
 * selection). Usage:
 *   mpirun -np P reduce_pm M...   prints "reduce_pm M P seconds" for each M
 *                                 (a multiple of 8, 8 ... 32 MiB).
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. Send and receive buffers are separate and written before anything
 * is timed; one call is made untimed first. iters_for(M) calls are timed
 * (about 20 MB reduced in all, 20...2000), each preceded by an MPI_Barrier
 * outside the timed region: a rooted reduction lets the non-root ranks
 * return before the root has its result, so calls back to back would
 * overlap (pipeline) and each would look cheaper than one call. A rank's
 * time of a call runs from its leaving the barrier to its return from
 * MPI_Reduce. Times are the least of one call (the slowest rank's time of
 * each, timing.h): on a machine shared with other programs, other work only
 * adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXBYTES (32L << 20)

static double timed(const double *snd, double *rcv, long bytes)
{
    int iters = iters_for(bytes), it, count = (int)(bytes / 8);
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Reduce(snd, rcv, count, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        MPI_Barrier(MPI_COMM_WORLD); /* not timed: keeps the calls apart */
        t0 = MPI_Wtime();
        MPI_Reduce(snd, rcv, count, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    int rank, size, k;
    long bytes, most = 8, i;
    double *snd, *rcv;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (k = 1; k < argc; k++) {
        bytes = strtol(argv[k], NULL, 10);
        if (bytes < 8 || bytes > MAXBYTES || bytes % 8 != 0)
            MPI_Abort(MPI_COMM_WORLD, 1);
        most = bytes > most ? bytes : most;
    }
    snd = malloc((size_t)most);
    rcv = malloc((size_t)most);
    if (snd == NULL || rcv == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < most / 8; i++) { /* touch the pages before timing */
        snd[i] = (double)((i + rank) % 13);
        rcv[i] = 0;
    }
    for (k = 1; k < argc; k++) {
        bytes = strtol(argv[k], NULL, 10);
        double t = timed(snd, rcv, bytes);
        if (rank == 0)
            printf("reduce_pm %ld %d %.6e\n", bytes, size, t);
    }
    free(snd);
    free(rcv);
    MPI_Finalize();
    return 0;
}
