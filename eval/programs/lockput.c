/* lockput: one-sided puts under passive-target synchronisation over the
 * message size at P = 2 (held-out data, never used to choose the selection;
 * the sweep crosses the MPI library's protocol switches and the caches).
 * Usage:
 *   lockput   at P = 2, for 8 B ... 32 MiB in steps of 4x, prints
 *     "lockput_size BYTES seconds"  rank 0 locks rank 1's window
 *                                   (MPI_Win_lock, exclusive), puts BYTES
 *                                   into it (MPI_Put) and unlocks it
 *                                   (MPI_Win_unlock, which completes the put
 *                                   at rank 1): one access epoch; rank 1
 *                                   makes no call during the epochs.
 * Times are the least of one epoch (the slowest rank's time of each, which
 * is rank 0's): on a machine shared with other programs, other work only adds
 * time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXBYTES (32L << 20)

static double timed(const double *loc, MPI_Win win, long bytes, int rank)
{
    int iters = iters_for(bytes), it, cnt = (int)(bytes / 8);
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        if (rank == 0) {
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
            MPI_Put(loc, cnt, MPI_DOUBLE, 1, 0, cnt, MPI_DOUBLE, win);
            MPI_Win_unlock(1, win);
        }
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    int rank, size, bad = 0;
    long bytes, i, len = MAXBYTES / 8;
    double *loc, *base;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    loc = malloc(MAXBYTES);
    if (size != 2 || loc == NULL ||
        MPI_Alloc_mem(MAXBYTES, MPI_INFO_NULL, &base) != MPI_SUCCESS)
        MPI_Abort(MPI_COMM_WORLD, 1);
    /* touch the pages before timing: rank 0 puts i % 13, rank 1's window
     * starts at -1 */
    for (i = 0; i < len; i++) {
        loc[i] = (double)(i % 13);
        base[i] = -1.0;
    }
    MPI_Win_create(base, MAXBYTES, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    for (bytes = 8; bytes <= MAXBYTES; bytes *= 4) {
        double t = timed(loc, win, bytes, rank);
        if (rank == 0)
            printf("lockput_size %ld %.6e\n", bytes, t);
    }
    /* the last put (32 MiB) covered rank 1's whole window */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        for (i = 0; i < len && !bad; i += 4099)
            bad = base[i] != (double)(i % 13);
        MPI_Win_unlock(1, win);
        if (bad)
            fprintf(stderr, "lockput: the puts delivered the wrong data at %ld\n",
                    i - 4099);
    }
    MPI_Win_free(&win);
    MPI_Free_mem(base);
    free(loc);
    MPI_Finalize();
    return 0;
}
