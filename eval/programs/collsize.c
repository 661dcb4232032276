/* collsize: three communication patterns between 2 ranks over the message
 * size (held-out data, never used to choose the selection; the sweeps cross
 * the MPI library's protocol switches: eager to rendezvous, copy-in/copy-out
 * to single copy, collective algorithms chosen by size). Prints, for
 * 8 B ... 32 MiB in steps of 4x:
 *   "allgather_size BYTES seconds"  MPI_Allgather, BYTES contributed per rank;
 *   "bcast2_size BYTES seconds"     MPI_Bcast of BYTES from rank 0;
 *   "sendrecv_size BYTES seconds"   MPI_Sendrecv: ranks 0 and 1 exchange
 *                                   BYTES each way.
 * Times are the least of one call (the slowest rank's time of each): on a
 * machine shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define MAXBYTES (32L << 20)

/* what: 0 allgather, 1 bcast, 2 sendrecv */
static double timed(int what, char *snd, char *rcv, long bytes, int rank, int size)
{
    int iters = iters_for(bytes), it, peer = rank ^ 1;
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    if (peer >= size)
        peer = MPI_PROC_NULL;
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        if (what == 0)
            MPI_Allgather(snd, (int)bytes, MPI_CHAR, rcv, (int)bytes, MPI_CHAR,
                          MPI_COMM_WORLD);
        else if (what == 1)
            MPI_Bcast(snd, (int)bytes, MPI_CHAR, 0, MPI_COMM_WORLD);
        else
            MPI_Sendrecv(snd, (int)bytes, MPI_CHAR, peer, 0, rcv, (int)bytes, MPI_CHAR,
                         peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    static const char *name[] = {"allgather_size", "bcast2_size", "sendrecv_size"};
    int rank, size, what;
    long bytes;
    char *snd, *rcv;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    snd = calloc(MAXBYTES, 1);
    rcv = calloc((size_t)size * MAXBYTES, 1);
    if (size < 2 || snd == NULL || rcv == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(snd, rank + 1, MAXBYTES); /* touch the pages before timing */
    memset(rcv, 0, (size_t)size * MAXBYTES);
    for (what = 0; what < 3; what++)
        for (bytes = 8; bytes <= MAXBYTES; bytes *= 4) {
            double t = timed(what, snd, rcv, bytes, rank, size);
            if (rank == 0)
                printf("%s %ld %.6e\n", name[what], bytes, t);
        }
    free(snd);
    free(rcv);
    MPI_Finalize();
    return 0;
}
