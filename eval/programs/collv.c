/* collv: collectives with counts and displacements, and a neighbourhood
 * collective, over the message size at P = 2 (held-out data, never used to
 * choose the selection; the sweeps cross the MPI library's protocol switches
 * and the caches). Usage:
 *   collv   at P = 2, for 8 B ... 8 MiB in steps of 4x, prints
 *     "alltoallv_size BYTES seconds"  MPI_Alltoallv of BYTES per pair of
 *                                     ranks, the received blocks placed in
 *                                     reverse rank order;
 *     "redscatv_size BYTES seconds"   MPI_Reduce_scatter (sum of doubles)
 *                                     with unequal counts: of the 3 BYTES / 8
 *                                     doubles summed, rank 0 receives BYTES
 *                                     and rank 1 the other 2 BYTES;
 *     "neighbor_size BYTES seconds"   MPI_Neighbor_allgather of BYTES on the
 *                                     periodic 1-D Cartesian communicator of
 *                                     the 2 ranks (both neighbours of a rank
 *                                     are the other rank: it receives its
 *                                     BYTES twice).
 * Times are the least of one call (the slowest rank's time of each): on a
 * machine shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXBYTES (8L << 20)

/* what: 0 alltoallv, 1 reduce_scatter, 2 neighbour allgather */
static double timed(int what, char *snd, char *rcv, long bytes, MPI_Comm ring)
{
    int iters = iters_for(bytes), it, cnt = (int)bytes, dcnt = (int)(bytes / 8),
        counts[2] = {cnt, cnt}, sdispls[2] = {0, cnt}, rdispls[2] = {cnt, 0},
        rcounts[2] = {dcnt, 2 * dcnt};
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        if (what == 0)
            MPI_Alltoallv(snd, counts, sdispls, MPI_CHAR, rcv, counts, rdispls, MPI_CHAR,
                          MPI_COMM_WORLD);
        else if (what == 1)
            MPI_Reduce_scatter(snd, rcv, rcounts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        else
            MPI_Neighbor_allgather(snd, cnt, MPI_CHAR, rcv, cnt, MPI_CHAR, ring);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    free(ti);
    return t;
}

/* the last (largest) call's result is right at a sample of places */
static int checked(int what, const char *rcv, int rank)
{
    long i, n = MAXBYTES / 8;
    const double *d = (const double *)rcv;

    for (i = 0; i < MAXBYTES; i += 4099) {
        /* alltoallv: block r of rank r' came from rank r' (value i + 5 r'
         * at byte i of the block) and lies at (1 - r') MAXBYTES */
        if (what == 0 && (rcv[(1 - rank) * MAXBYTES + i] != (char)((i + 5 * rank) % 11) ||
                          rcv[rank * MAXBYTES + i] != (char)((i + 5 * (1 - rank)) % 11)))
            return 0;
        /* neighbour allgather: both blocks are the other rank's */
        if (what == 2 && (rcv[i] != (char)((i + 5 * (1 - rank)) % 11) ||
                          rcv[MAXBYTES + i] != (char)((i + 5 * (1 - rank)) % 11)))
            return 0;
    }
    /* reduce_scatter: element j of the sum is (j % 7) + (j % 7 + 1); rank 0
     * has j = 0 ... n - 1, rank 1 j = n ... 3 n - 1 */
    for (i = 0; what == 1 && i < (rank == 0 ? n : 2 * n); i += 4099) {
        long j = rank == 0 ? i : n + i;
        if (d[i] != (double)(2 * (j % 7) + 1))
            return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    static const char *name[] = {"alltoallv_size", "redscatv_size", "neighbor_size"};
    int rank, size, what, dims[1] = {2}, periods[1] = {1};
    long bytes, i;
    char *snd, *rcv;
    MPI_Comm ring;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    snd = malloc(3 * MAXBYTES);
    rcv = malloc(2 * MAXBYTES);
    if (size != 2 || snd == NULL || rcv == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    for (what = 0; what < 3; what++) {
        /* touch the pages before timing: bytes for the exchanges (block b
         * of the alltoallv's send buffer goes to rank b), small integers for
         * the sums, which stay exact */
        for (i = 0; i < 3 * MAXBYTES; i++)
            snd[i] = (char)((i % MAXBYTES + 5 * rank) % 11);
        for (i = 0; what == 1 && i < 3 * MAXBYTES / 8; i++)
            ((double *)snd)[i] = (double)(i % 7 + rank);
        for (i = 0; i < 2 * MAXBYTES; i++)
            rcv[i] = -1;
        for (bytes = 8; bytes <= MAXBYTES; bytes *= 4) {
            double t = timed(what, snd, rcv, bytes, ring);
            if (rank == 0)
                printf("%s %ld %.6e\n", name[what], bytes, t);
        }
        if (!checked(what, rcv, rank))
            fprintf(stderr, "collv: %s delivered the wrong data on rank %d\n", name[what],
                    rank);
    }
    MPI_Comm_free(&ring);
    free(snd);
    free(rcv);
    MPI_Finalize();
    return 0;
}
