/* persist: a gather with displacements and a persistent exchange over the
 * message size at P = 2 (held-out data, never used to choose the selection;
 * the sweeps cross the MPI library's protocol switches and the caches).
 * Usage:
 *   persist   at P = 2, for 8 B ... 8 MiB in steps of 4x, prints
 *     "allgatherv_size BYTES seconds"  MPI_Allgatherv of BYTES from each
 *                                      rank, placed in reverse rank order
 *                                      (rank 0's block after rank 1's);
 *     "persist_size BYTES seconds"     the two ranks swap BYTES through
 *                                      persistent requests made once per
 *                                      size (MPI_Send_init, MPI_Recv_init):
 *                                      MPI_Startall and MPI_Waitall.
 * Times are the least of one call or one start-and-wait (the slowest rank's
 * time of each): on a machine shared with other programs, other work only
 * adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXBYTES (8L << 20)

/* what: 0 allgatherv, 1 persistent exchange */
static double timed(int what, char *snd, char *rcv, long bytes, int rank)
{
    int iters = iters_for(bytes), it, cnt = (int)bytes, counts[2] = {cnt, cnt},
        displs[2] = {cnt, 0}, other = 1 - rank;
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;
    MPI_Request req[2];

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    if (what == 1) {
        MPI_Recv_init(rcv, cnt, MPI_CHAR, other, 0, MPI_COMM_WORLD, &req[0]);
        MPI_Send_init(snd, cnt, MPI_CHAR, other, 0, MPI_COMM_WORLD, &req[1]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        if (what == 0)
            MPI_Allgatherv(snd, cnt, MPI_CHAR, rcv, counts, displs, MPI_CHAR,
                           MPI_COMM_WORLD);
        else {
            MPI_Startall(2, req);
            MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        }
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    if (what == 1) {
        MPI_Request_free(&req[0]);
        MPI_Request_free(&req[1]);
    }
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    static const char *name[] = {"allgatherv_size", "persist_size"};
    int rank, size, what;
    long bytes, i;
    char *snd, *rcv;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    snd = malloc(MAXBYTES);
    rcv = malloc(2 * MAXBYTES);
    if (size != 2 || snd == NULL || rcv == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < MAXBYTES; i++) /* touch the pages before timing */
        snd[i] = (char)((i + 5 * rank) % 11);
    for (what = 0; what < 2; what++) {
        for (i = 0; i < 2 * MAXBYTES; i++)
            rcv[i] = -1;
        for (bytes = 8; bytes <= MAXBYTES; bytes *= 4) {
            double t = timed(what, snd, rcv, bytes, rank);
            if (rank == 0)
                printf("%s %ld %.6e\n", name[what], bytes, t);
        }
        /* the last (largest) call: rank r's block at (1 - r) MAXBYTES for
         * the gather, the other rank's block at 0 for the exchange */
        for (i = 0; i < MAXBYTES; i += 4099) {
            int ok = what == 0 ? rcv[MAXBYTES + i] == (char)(i % 11) &&
                                     rcv[i] == (char)((i + 5) % 11)
                               : rcv[i] == (char)((i + 5 * (1 - rank)) % 11);
            if (!ok) {
                fprintf(stderr,
                        "persist: %s delivered the wrong data at %ld on rank %d\n",
                        name[what], i, rank);
                break;
            }
        }
    }
    free(snd);
    free(rcv);
    MPI_Finalize();
    return 0;
}
