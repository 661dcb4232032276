/* rma: one-sided reads and accumulations over the message size at P = 2
 * (held-out data, never used to choose the selection; the sweeps cross the
 * MPI library's protocol switches and the caches). Usage:
 *   rma   at P = 2, for 8 B ... 8 MiB in steps of 4x, prints
 *     "get_size BYTES seconds"         rank 0 reads BYTES from rank 1's
 *                                      window (MPI_Get), then MPI_Win_fence
 *                                      on both: one access epoch;
 *     "accumulate_size BYTES seconds"  rank 0 adds BYTES / 8 doubles into
 *                                      rank 1's window (MPI_Accumulate with
 *                                      MPI_SUM), then MPI_Win_fence on both.
 * Times are the least of one epoch (the slowest rank's time of each): on a
 * machine shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXBYTES (8L << 20)

/* what: 0 get, 1 accumulate */
static double timed(int what, double *loc, MPI_Win win, long bytes, int rank)
{
    int iters = iters_for(bytes), it, cnt = (int)(bytes / 8);
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_fence(0, win);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        if (rank == 0 && what == 0)
            MPI_Get(loc, cnt, MPI_DOUBLE, 1, 0, cnt, MPI_DOUBLE, win);
        else if (rank == 0)
            MPI_Accumulate(loc, cnt, MPI_DOUBLE, 1, 0, cnt, MPI_DOUBLE, MPI_SUM, win);
        MPI_Win_fence(0, win);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    static const char *name[] = {"get_size", "accumulate_size"};
    int rank, size, what, bad = 0;
    long bytes, i, len = MAXBYTES / 8, *covered;
    double *loc, *base;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    loc = malloc(MAXBYTES);
    covered = calloc((size_t)len, sizeof *covered);
    if (size != 2 || loc == NULL || covered == NULL ||
        MPI_Alloc_mem(MAXBYTES, MPI_INFO_NULL, &base) != MPI_SUCCESS)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Win_create(base, MAXBYTES, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    for (what = 0; what < 2; what++) {
        /* touch the pages before timing; the window holds small integers
         * for the reads and zeros for the sums, which stay exact */
        MPI_Win_fence(0, win);
        for (i = 0; i < len; i++) {
            loc[i] = what == 0 ? 0.0 : (double)(i % 7);
            base[i] = what == 0 ? (double)((i + rank) % 13) : 0.0;
        }
        MPI_Win_fence(0, win);
        for (bytes = 8; bytes <= MAXBYTES; bytes *= 4) {
            double t = timed(what, loc, win, bytes, rank);
            if (rank == 0)
                printf("%s %ld %.6e\n", name[what], bytes, t);
            for (i = 0; i < bytes / 8; i++)
                covered[i] += iters_for(bytes);
        }
        MPI_Win_fence(0, win);
        /* rank 0 read rank 1's window last at 8 MiB; rank 1's window got
         * loc[i] from every epoch whose message reached element i */
        for (i = 0; i < len && !bad; i += 4099)
            bad = what == 0 ? rank == 0 && loc[i] != (double)((i + 1) % 13)
                            : rank == 1 && base[i] != (double)(i % 7) * covered[i];
        if (bad)
            fprintf(stderr, "rma: %s delivered the wrong data at %ld on rank %d\n",
                    name[what], i - 4099, rank);
        for (i = 0; i < len; i++)
            covered[i] = 0;
    }
    MPI_Win_free(&win);
    MPI_Free_mem(base);
    free(loc);
    free(covered);
    MPI_Finalize();
    return 0;
}
