/* collput: a reduction, a gather and one-sided puts over the message size at
 * P = 2, and a gather over the number of ranks (held-out data, never used to
 * choose the selection; the size sweeps cross the MPI library's protocol
 * switches and the caches). Usage:
 *   collput     at P = 2, for 8 B ... 32 MiB in steps of 4x, prints
 *     "allreduce2_size BYTES seconds"  MPI_Allreduce (sum) of BYTES / 8
 *                                      doubles;
 *     "gather2_size BYTES seconds"     MPI_Gather of BYTES per rank to
 *                                      rank 0;
 *     "put_size BYTES seconds"         rank 0 puts BYTES into rank 1's window
 *                                      (MPI_Put), then MPI_Win_fence on both:
 *                                      one access epoch;
 *   collput p   at the launched P, prints
 *     "gather_p P seconds"             MPI_Gather of 64 KiB per rank to
 *                                      rank 0, from a barrier to a closing
 *                                      barrier (so that an oversubscribed
 *                                      rank cannot time only its own share).
 * Times are the least of one call or epoch (the slowest rank's time of
 * each): on a machine shared with other programs, other work only adds
 * time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define MAXBYTES (32L << 20)
#define PBYTES (64L << 10)

/* what: 0 allreduce, 1 gather, 2 put */
static double timed(int what, char *snd, char *rcv, MPI_Win win, long bytes, int rank)
{
    int iters = iters_for(bytes), it;
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    if (what == 2)
        MPI_Win_fence(0, win);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        if (what == 0)
            MPI_Allreduce(snd, rcv, (int)(bytes / 8), MPI_DOUBLE, MPI_SUM,
                          MPI_COMM_WORLD);
        else if (what == 1)
            MPI_Gather(snd, (int)bytes, MPI_CHAR, rcv, (int)bytes, MPI_CHAR, 0,
                       MPI_COMM_WORLD);
        else {
            if (rank == 0)
                MPI_Put(snd, (int)bytes, MPI_CHAR, 1, 0, (int)bytes, MPI_CHAR, win);
            MPI_Win_fence(0, win);
        }
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    free(ti);
    return t;
}

static void sizes(int rank, int size)
{
    static const char *name[] = {"allreduce2_size", "gather2_size", "put_size"};
    int what;
    long bytes, i;
    char *snd, *rcv, *base;
    MPI_Win win;

    snd = malloc(MAXBYTES);
    rcv = malloc((size_t)size * MAXBYTES);
    if (size != 2 || snd == NULL || rcv == NULL ||
        MPI_Alloc_mem(MAXBYTES, MPI_INFO_NULL, &base) != MPI_SUCCESS)
        MPI_Abort(MPI_COMM_WORLD, 1);
    /* touch the pages before timing; the doubles are small integers, so
     * their sums stay exact and never overflow */
    for (i = 0; i < MAXBYTES / 8; i++)
        ((double *)snd)[i] = (double)((i + rank) % 7);
    memset(rcv, 0, (size_t)size * MAXBYTES);
    memset(base, 0, MAXBYTES);
    MPI_Win_create(base, MAXBYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    for (what = 0; what < 3; what++)
        for (bytes = 8; bytes <= MAXBYTES; bytes *= 4) {
            double t = timed(what, snd, rcv, win, bytes, rank);
            if (rank == 0)
                printf("%s %ld %.6e\n", name[what], bytes, t);
        }
    MPI_Win_free(&win);
    MPI_Free_mem(base);
    free(snd);
    free(rcv);
}

static void gathered(int rank, int size)
{
    int iters = 400, it;
    char *snd = malloc(PBYTES), *rcv = malloc((size_t)size * PBYTES);
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;

    if (snd == NULL || rcv == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(snd, rank + 1, PBYTES);
    memset(rcv, 0, (size_t)size * PBYTES);
    for (it = 0; it < iters; it++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        MPI_Gather(snd, (int)PBYTES, MPI_CHAR, rcv, (int)PBYTES, MPI_CHAR, 0,
                   MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    if (rank == 0) {
        printf("gather_p %d %.6e\n", size, t);
        if (rcv[(size_t)(size - 1) * PBYTES] != size)
            fprintf(stderr, "collput: gather_p delivered the wrong data\n");
    }
    free(snd);
    free(rcv);
    free(ti);
}

int main(int argc, char **argv)
{
    return over_p_or_size(argc, argv, gathered, sizes);
}
