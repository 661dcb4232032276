/* redscat_pm: MPI_Reduce_scatter_block (MPI_SUM of doubles) over two
 * variables, the bytes M of the block each rank receives and the launched
 * number of ranks P (held-out data of heldout17, a two-variable grid, never
 * used to choose the selection). Usage:
 *   mpirun -np P redscat_pm M...   prints "redscat_pm M P seconds" for each
 *                                  M (a multiple of 8, 8 ... 4 MiB).
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. Each rank contributes M P bytes (P blocks of M / 8 doubles) and
 * receives the sum of its block, M bytes; send and receive buffers are
 * separate and written before anything is timed, and one call is made
 * untimed first. iters_for(M P) calls are timed back to back after a
 * barrier (about 20 MB contributed per rank in all, 20...2000): every
 * rank's block needs every rank's part of the same call, so the calls
 * cannot overlap much. Check (not timed): the last block received against
 * its sum. Times are the least of one call (the slowest rank's time of
 * each, timing.h): on a machine shared with other programs, other work only
 * adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXBYTES (4L << 20)

static double timed(const double *snd, double *rcv, long bytes, int rank, int size)
{
    int iters = iters_for(bytes * size), it, count = (int)(bytes / 8);
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t, want;
    long i;

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Reduce_scatter_block(snd, rcv, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        MPI_Reduce_scatter_block(snd, rcv, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    /* element j of rank r's send buffer is (j + r) % 13 whatever M: element
     * i of this rank's block is the sum over r of element rank M / 8 + i */
    for (i = 0; i < count; i++) {
        long j = (long)rank * count + i, r;
        for (want = 0, r = 0; r < size; r++)
            want += (double)((j + r) % 13);
        if (rcv[i] != want) {
            fprintf(stderr, "redscat_pm: M %ld P %d: rank %d element %ld wrong\n", bytes,
                    size, rank, i);
            break;
        }
    }
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
    snd = malloc((size_t)most * size);
    rcv = malloc((size_t)most);
    if (snd == NULL || rcv == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < most / 8 * size; i++) /* touch the pages before timing */
        snd[i] = (double)((i + rank) % 13);
    for (i = 0; i < most / 8; i++)
        rcv[i] = 0;
    for (k = 1; k < argc; k++) {
        bytes = strtol(argv[k], NULL, 10);
        double t = timed(snd, rcv, bytes, rank, size);
        if (rank == 0)
            printf("redscat_pm %ld %d %.6e\n", bytes, size, t);
    }
    free(snd);
    free(rcv);
    MPI_Finalize();
    return 0;
}
