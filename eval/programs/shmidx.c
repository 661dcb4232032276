/* shmidx: a ping-pong through an MPI shared-memory window, a request-based
 * one-sided get and an exchange of an irregular indexed datatype, over the
 * message size at P = 2 (held-out data, never used to choose the selection;
 * the sweeps cross the MPI library's protocol switches and the caches).
 * Usage:
 *   shmidx   at P = 2, for 8 B ... 32 MiB in steps of 4x, prints
 *     "shmcopy_size BYTES seconds"  half the round trip of a ping-pong
 *                                   through a window made by
 *                                   MPI_Win_allocate_shared (both ranks in
 *                                   one MPI_Win_lock_all epoch, each with a
 *                                   pointer to the other's segment from
 *                                   MPI_Win_shared_query): rank 0 copies
 *                                   BYTES from a private buffer into rank 1's
 *                                   segment (memcpy), MPI_Win_sync,
 *                                   MPI_Barrier; rank 1 MPI_Win_sync, copies
 *                                   the BYTES from its segment into rank 0's
 *                                   segment, MPI_Win_sync, MPI_Barrier; rank
 *                                   0 MPI_Win_sync;
 *     "rget_size BYTES seconds"     rank 0, inside a shared MPI_Win_lock
 *                                   epoch on rank 1's window (opened before
 *                                   the timing), MPI_Rget of BYTES / 8
 *                                   doubles from it, then MPI_Wait on the
 *                                   request (the data is then in rank 0's
 *                                   buffer); rank 1 makes no call meanwhile;
 *     "indexed_size BYTES seconds"  one exchange both ways by MPI_Sendrecv
 *                                   of BYTES / 8 doubles laid out by
 *                                   MPI_Type_indexed in blocks of 1, 2, 3,
 *                                   4, 1, 2, ... doubles, each followed by a
 *                                   gap of one double (the last block cut
 *                                   short to make BYTES / 8), the same
 *                                   layout sent and received: the library
 *                                   packs and unpacks the blocks.
 * One sample times r operations back to back (r doubled from 1, the same on
 * both ranks, until r operations take at least 50 us on the slower rank, at
 * most 4096: the clock's own cost stays small beside a small message) and
 * counts as the time of one operation, the sample's time over r (half of it
 * for the ping-pong). The samples (enough for about 0.1 s, at least 10, at
 * most 2000) follow one operation that is not timed; the answer is the least
 * of them, each the slower rank's (for rget_size rank 0's) (timing.h): on a
 * machine shared with other programs, other work only adds time. Checks (not
 * timed, after each sweep): the data arrived where it belongs; a failure is
 * reported on stderr. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define MAXBYTES (32L << 20)
#define LEN (MAXBYTES / 8)
#define MAXSAMPLES 2000

static char *priv, *mine, *peer; /* shmcopy: private buffer, own and other segment */
static double *loc, *wbase;      /* rget: rank 0's buffer, the window's memory */
static double *isnd, *ircv;      /* indexed: 2 LEN doubles each */
static MPI_Win shm, win;
static MPI_Datatype idx = MPI_DATATYPE_NULL;

static void *alloc(size_t bytes)
{
    void *p = malloc(bytes > 0 ? bytes : 1);
    if (p == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    return p;
}

/* The indexed layout of m doubles: blocks of 1, 2, 3, 4, 1, ... doubles, a
 * gap of one after each. Fills blen and disp (when not NULL) and returns the
 * number of blocks. */
static int layout(long m, int *blen, int *disp)
{
    long left = m, at = 0;
    int nb = 0;

    while (left > 0) {
        long len = nb % 4 + 1;
        if (len > left)
            len = left;
        if (blen != NULL) {
            blen[nb] = (int)len;
            disp[nb] = (int)at;
        }
        at += len + 1;
        left -= len;
        nb++;
    }
    return nb;
}

static void make_type(long m)
{
    int nb = layout(m, NULL, NULL), *blen = alloc((size_t)nb * sizeof *blen),
        *disp = alloc((size_t)nb * sizeof *disp);

    layout(m, blen, disp);
    if (idx != MPI_DATATYPE_NULL)
        MPI_Type_free(&idx);
    MPI_Type_indexed(nb, blen, disp, MPI_DOUBLE, &idx);
    MPI_Type_commit(&idx);
    free(blen);
    free(disp);
}

/* One operation of case what (0 shmcopy ping-pong, 1 rget, 2 indexed
 * exchange) on this rank. */
static void op(int what, long bytes, int rank)
{
    MPI_Request req;

    if (what == 0 && rank == 0) {
        memcpy(peer, priv, (size_t)bytes);
        MPI_Win_sync(shm);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_sync(shm);
    } else if (what == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_sync(shm);
        memcpy(peer, mine, (size_t)bytes);
        MPI_Win_sync(shm);
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (what == 1 && rank == 0) {
        int cnt = (int)(bytes / 8);
        MPI_Rget(loc, cnt, MPI_DOUBLE, 1, 0, cnt, MPI_DOUBLE, win, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else if (what == 2) {
        MPI_Sendrecv(isnd, 1, idx, 1 - rank, 0, ircv, 1, idx, 1 - rank, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    }
}

static double timed(int what, long bytes, int rank)
{
    double *ti = alloc(MAXSAMPLES * sizeof *ti), t0, t, per = what == 0 ? 0.5 : 1.0;
    long r = 1, k, target;
    int samples, s;

    if (what == 1 && rank == 0)
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
    if (what == 2)
        make_type(bytes / 8);
    op(what, bytes, rank); /* not timed */
    for (;;) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            op(what, bytes, rank);
        t = MPI_Wtime() - t0;
        MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (t >= 50e-6 || r >= 4096)
            break;
        r *= 2;
    }
    target = (long)(0.1 / (t > 1e-9 ? t : 1e-9)) + 1;
    samples = (int)(target < 10 ? 10 : target > MAXSAMPLES ? MAXSAMPLES : target);
    MPI_Barrier(MPI_COMM_WORLD);
    for (s = 0; s < samples; s++) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            op(what, bytes, rank);
        ti[s] = per * (MPI_Wtime() - t0) / (double)r;
    }
    if (what == 1 && rank == 0)
        MPI_Win_unlock(1, win);
    t = least(ti, samples);
    free(ti);
    return t;
}

/* After the sweep of case what, whose last size was MAXBYTES. */
static int check(int what, int rank)
{
    long i, j, at;
    int bad = 0, other = 1 - rank, nb, b;

    if (what == 0) { /* rank 0's segment holds its private data back */
        for (i = 0; rank == 0 && i < MAXBYTES && !bad; i += 4099)
            bad = mine[i] != (char)(i % 11);
    } else if (what == 1) { /* rank 1's window: i % 13 + 1 */
        for (i = 0; rank == 0 && i < LEN && !bad; i += 4099)
            bad = loc[i] != (double)(i % 13 + 1);
    } else { /* the layout holds the other's values, the gaps stay -1 */
        nb = layout(LEN, NULL, NULL);
        at = 0;
        for (b = 0; b < nb && !bad; b++) {
            long len = b % 4 + 1;
            if (len > LEN - (at - b))
                len = LEN - (at - b);
            for (j = 0; j < len && !bad; j++)
                bad = ircv[at + j] != (double)((at + j) % 13 + other);
            bad = bad || ircv[at + len] != -1.0;
            at += len + 1;
        }
    }
    return bad;
}

int main(int argc, char **argv)
{
    static const char *name[] = {"shmcopy_size", "rget_size", "indexed_size"};
    int rank, size, what, du;
    long bytes, i;
    MPI_Aint sz;
    MPI_Info info;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    MPI_Win_allocate_shared(MAXBYTES, 1, info, MPI_COMM_WORLD, &mine, &shm);
    MPI_Info_free(&info);
    MPI_Win_shared_query(shm, 1 - rank, &sz, &du, &peer);
    MPI_Win_allocate(MAXBYTES, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &wbase,
                     &win);
    if (sz < MAXBYTES)
        MPI_Abort(MPI_COMM_WORLD, 1);
    priv = alloc(MAXBYTES);
    loc = alloc(MAXBYTES);
    isnd = alloc(2 * MAXBYTES);
    ircv = alloc(2 * MAXBYTES);
    /* touch every page before timing */
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    for (i = 0; i < LEN; i++)
        wbase[i] = (double)(i % 13 + rank);
    MPI_Win_unlock(rank, win);
    for (i = 0; i < MAXBYTES; i++) {
        priv[i] = (char)(i % 11);
        mine[i] = -1;
    }
    for (i = 0; i < LEN; i++)
        loc[i] = 0.0;
    for (i = 0; i < 2 * LEN; i++) {
        isnd[i] = (double)(i % 13 + rank);
        ircv[i] = -1.0;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, shm);
    for (what = 0; what < 3; what++) {
        for (bytes = 8; bytes <= MAXBYTES; bytes *= 4) {
            double t = timed(what, bytes, rank);
            if (rank == 0)
                printf("%s %ld %.6e\n", name[what], bytes, t);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (what == 0)
            MPI_Win_sync(shm);
        if (check(what, rank))
            fprintf(stderr, "shmidx: %s delivered the wrong data on rank %d\n",
                    name[what], rank);
    }
    MPI_Win_unlock_all(shm);
    if (idx != MPI_DATATYPE_NULL)
        MPI_Type_free(&idx);
    MPI_Win_free(&win);
    MPI_Win_free(&shm);
    free(priv);
    free(loc);
    free(isnd);
    free(ircv);
    MPI_Finalize();
    return 0;
}
