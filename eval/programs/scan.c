/* scan: three collectives between 2 ranks over the message size (held-out
 * data, never used to choose the selection; the sweeps cross the MPI
 * library's protocol switches and, for the reductions, the arithmetic over
 * buffers leaving the caches). Prints, for 8 B ... 32 MiB in steps of 4x:
 *   "alltoall2_size BYTES seconds"      MPI_Alltoall, BYTES per pair of ranks;
 *   "reducescatter_size BYTES seconds"  MPI_Reduce_scatter_block, sum of
 *                                       doubles, BYTES received per rank;
 *   "scan_size BYTES seconds"           MPI_Scan, sum of BYTES of doubles.
 * Times are the least of one call (the slowest rank's time of each): on a
 * machine shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXBYTES (32L << 20)

/* what: 0 alltoall, 1 reduce_scatter_block, 2 scan */
static double timed(int what, double *snd, double *rcv, long bytes)
{
    int iters = iters_for(bytes), it, cnt = (int)(bytes / 8);
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        if (what == 0)
            MPI_Alltoall(snd, (int)bytes, MPI_CHAR, rcv, (int)bytes, MPI_CHAR,
                         MPI_COMM_WORLD);
        else if (what == 1)
            MPI_Reduce_scatter_block(snd, rcv, cnt, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        else
            MPI_Scan(snd, rcv, cnt, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    static const char *name[] = {"alltoall2_size", "reducescatter_size", "scan_size"};
    int rank, size, what;
    long bytes, i, len;
    double *snd, *rcv;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    len = (long)size * MAXBYTES / 8;
    snd = malloc((size_t)len * sizeof *snd);
    rcv = malloc((size_t)len * sizeof *rcv);
    if (size < 2 || snd == NULL || rcv == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < len; i++) { /* touch the pages before timing */
        snd[i] = (double)((i + rank) % 13);
        rcv[i] = 0.0;
    }
    for (what = 0; what < 3; what++)
        for (bytes = 8; bytes <= MAXBYTES; bytes *= 4) {
            double t = timed(what, snd, rcv, bytes);
            if (rank == 0)
                printf("%s %ld %.6e\n", name[what], bytes, t);
        }
    free(snd);
    free(rcv);
    MPI_Finalize();
    return 0;
}
