/* nbcoll: nonblocking collectives completed at once, and a scatter, over the
 * message size at P = 2 (held-out data, never used to choose the selection;
 * the sweeps cross the MPI library's protocol switches and the caches).
 * Usage:
 *   nbcoll   at P = 2, for 8 B ... 32 MiB in steps of 4x, prints
 *     "iallreduce_size BYTES seconds"  MPI_Iallreduce (sum) of BYTES / 8
 *                                      doubles, then MPI_Wait;
 *     "ibcast_size BYTES seconds"      MPI_Ibcast of BYTES from rank 0, then
 *                                      MPI_Wait;
 *     "scatter_size BYTES seconds"     MPI_Scatter of BYTES per rank from
 *                                      rank 0.
 * Times are the least of one call (the slowest rank's time of each): on a
 * machine shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXBYTES (32L << 20)

/* what: 0 iallreduce, 1 ibcast, 2 scatter */
static double timed(int what, char *snd, char *rcv, long bytes)
{
    int iters = iters_for(bytes), it, cnt = (int)bytes, dcnt = (int)(bytes / 8);
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;
    MPI_Request req;

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        if (what == 0) {
            MPI_Iallreduce(snd, rcv, dcnt, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else if (what == 1) {
            MPI_Ibcast(snd, cnt, MPI_CHAR, 0, MPI_COMM_WORLD, &req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else {
            MPI_Scatter(snd, cnt, MPI_CHAR, rcv, cnt, MPI_CHAR, 0, MPI_COMM_WORLD);
        }
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    free(ti);
    return t;
}

/* the last (largest) call's result is right at a sample of places */
static int checked(int what, const char *snd, const char *rcv, int rank)
{
    long i;
    const double *d = (const double *)rcv;

    for (i = 0; i < MAXBYTES; i += 4099) {
        /* iallreduce: element j is (j % 7) + (j % 7 + 1) */
        if (what == 0 && i < MAXBYTES / 8 && d[i] != (double)(2 * (i % 7) + 1))
            return 0;
        /* ibcast: every rank holds rank 0's bytes */
        if (what == 1 && snd[i] != (char)(i % 11))
            return 0;
        /* scatter: rank r got block r of rank 0's buffer */
        if (what == 2 && rcv[i] != (char)((i + rank * MAXBYTES) % 11))
            return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    static const char *name[] = {"iallreduce_size", "ibcast_size", "scatter_size"};
    int rank, size, what;
    long bytes, i;
    char *snd, *rcv;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    snd = malloc(2 * MAXBYTES);
    rcv = malloc(MAXBYTES);
    if (size != 2 || snd == NULL || rcv == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (what = 0; what < 3; what++) {
        /* touch the pages before timing: bytes for the transfers (rank 1's
         * differ from rank 0's, which are (i % 11)), small integers for the
         * sums, which stay exact */
        for (i = 0; i < 2 * MAXBYTES; i++)
            snd[i] = (char)((i + 5 * rank) % 11);
        for (i = 0; what == 0 && i < MAXBYTES / 8; i++)
            ((double *)snd)[i] = (double)(i % 7 + rank);
        for (i = 0; i < MAXBYTES; i++)
            rcv[i] = -1;
        for (bytes = 8; bytes <= MAXBYTES; bytes *= 4) {
            double t = timed(what, snd, rcv, bytes);
            if (rank == 0)
                printf("%s %ld %.6e\n", name[what], bytes, t);
        }
        if (!checked(what, snd, rcv, rank))
            fprintf(stderr, "nbcoll: %s delivered the wrong data on rank %d\n",
                    name[what], rank);
    }
    free(snd);
    free(rcv);
    MPI_Finalize();
    return 0;
}
