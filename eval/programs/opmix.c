/* opmix: an exchange of a derived struct datatype, a one-sided fetch-and-add
 * of an array and a hand-made reduction step, over the message size at P = 2
 * (held-out data, never used to choose the selection; the sweeps cross the
 * MPI library's protocol switches and the caches). Usage:
 *   opmix   at P = 2, for 8 B ... 32 MiB in steps of 4x, prints
 *     "structsr_size BYTES seconds"  one exchange both ways by MPI_Sendrecv
 *                                    of BYTES / 8 records struct {int32_t
 *                                    key; int16_t flag;} (8 bytes each, 6 of
 *                                    data and 2 of padding), sent as an
 *                                    MPI_Type_create_struct type resized to
 *                                    the record's extent: the library packs
 *                                    and unpacks the gaps;
 *     "getacc_size BYTES seconds"    rank 0 locks rank 1's window
 *                                    (MPI_Win_lock, exclusive), adds BYTES / 8
 *                                    doubles to it and fetches the values they
 *                                    replaced (MPI_Get_accumulate, MPI_SUM),
 *                                    and unlocks it (MPI_Win_unlock, which
 *                                    completes both): one access epoch; rank 1
 *                                    makes no call during the epochs;
 *     "redlocal_size BYTES seconds"  one step of a hand-made allreduce: each
 *                                    rank swaps BYTES / 8 doubles with the
 *                                    other (MPI_Sendrecv into a temporary)
 *                                    and adds them into its accumulator with
 *                                    MPI_Reduce_local (MPI_SUM).
 * Checks (not timed, after each sweep): the records arrive whole, the
 * fetched values and the window's new values are right, and a reduction
 * step leaves the sum of both ranks' arrays. Times are the least of one
 * iteration (the slowest rank's time of each; for getacc_size rank 0's):
 * on a machine shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXBYTES (32L << 20)
#define LEN (MAXBYTES / 8)

struct rec {
    int32_t key;
    int16_t flag;
};

static struct rec *snd, *rcv;
static double *loc, *res, *base, *own, *tmp, *acc;
static MPI_Datatype rectype;
static MPI_Win win;

/* what: 0 struct exchange, 1 get_accumulate epoch, 2 reduction step */
static double timed(int what, long bytes, int rank)
{
    int iters = iters_for(bytes), it, cnt = (int)(bytes / 8), other = 1 - rank;
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        if (what == 0) {
            MPI_Sendrecv(snd, cnt, rectype, other, 0, rcv, cnt, rectype, other, 0,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (what == 1) {
            if (rank == 0) {
                MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
                MPI_Get_accumulate(loc, cnt, MPI_DOUBLE, res, cnt, MPI_DOUBLE, 1, 0, cnt,
                                   MPI_DOUBLE, MPI_SUM, win);
                MPI_Win_unlock(1, win);
            }
        } else {
            MPI_Sendrecv(own, cnt, MPI_DOUBLE, other, 1, tmp, cnt, MPI_DOUBLE, other, 1,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Reduce_local(tmp, acc, cnt, MPI_DOUBLE, MPI_SUM);
        }
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    free(ti);
    return t;
}

static void *alloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (p == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    return p;
}

/* rank r's values: records key 3 i + r, flag (i + r) % 1000; doubles own
 * i % 13 + r */
static int check(int what, int rank)
{
    long i;
    int bad = 0, other = 1 - rank;

    MPI_Barrier(MPI_COMM_WORLD);
    if (what == 0) {
        for (i = 0; i < LEN && !bad; i += 4099)
            bad = rcv[i].key != (int32_t)(3 * i + other) ||
                  rcv[i].flag != (int16_t)((i + other) % 1000);
    } else if (what == 1) {
        /* rank 1 resets its window to i % 7; rank 0 adds i % 13 once more */
        if (rank == 1) {
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
            for (i = 0; i < LEN; i++)
                base[i] = (double)(i % 7);
            MPI_Win_unlock(1, win);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
            MPI_Get_accumulate(loc, (int)LEN, MPI_DOUBLE, res, (int)LEN, MPI_DOUBLE, 1, 0,
                               (int)LEN, MPI_DOUBLE, MPI_SUM, win);
            MPI_Win_unlock(1, win);
            for (i = 0; i < LEN && !bad; i += 4099)
                bad = res[i] != (double)(i % 7);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 1) {
            MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
            for (i = 0; i < LEN && !bad; i += 4099)
                bad = base[i] != (double)(i % 7 + i % 13);
            MPI_Win_unlock(1, win);
        }
    } else {
        for (i = 0; i < LEN; i++)
            acc[i] = own[i];
        MPI_Sendrecv(own, (int)LEN, MPI_DOUBLE, other, 1, tmp, (int)LEN, MPI_DOUBLE,
                     other, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Reduce_local(tmp, acc, (int)LEN, MPI_DOUBLE, MPI_SUM);
        for (i = 0; i < LEN && !bad; i += 4099)
            bad = acc[i] != (double)(2 * (i % 13) + 1);
    }
    return bad;
}

int main(int argc, char **argv)
{
    static const char *name[] = {"structsr_size", "getacc_size", "redlocal_size"};
    int rank, size, what, blocklens[2] = {1, 1};
    MPI_Aint displs[2] = {offsetof(struct rec, key), offsetof(struct rec, flag)};
    MPI_Datatype types[2] = {MPI_INT32_T, MPI_INT16_T}, raw;
    long bytes, i;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2 || sizeof(struct rec) != 8 ||
        MPI_Alloc_mem(MAXBYTES, MPI_INFO_NULL, &base) != MPI_SUCCESS)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Type_create_struct(2, blocklens, displs, types, &raw);
    MPI_Type_create_resized(raw, 0, (MPI_Aint)sizeof(struct rec), &rectype);
    MPI_Type_commit(&rectype);
    MPI_Type_free(&raw);
    snd = alloc(MAXBYTES);
    rcv = alloc(MAXBYTES);
    loc = alloc(MAXBYTES);
    res = alloc(MAXBYTES);
    own = alloc(MAXBYTES);
    tmp = alloc(MAXBYTES);
    acc = alloc(MAXBYTES);
    /* touch every page before timing */
    for (i = 0; i < LEN; i++) {
        snd[i].key = (int32_t)(3 * i + rank);
        snd[i].flag = (int16_t)((i + rank) % 1000);
        rcv[i].key = -1;
        rcv[i].flag = -1;
        loc[i] = (double)(i % 13);
        res[i] = 0.0;
        base[i] = 0.0;
        own[i] = (double)(i % 13 + rank);
        tmp[i] = 0.0;
        acc[i] = own[i];
    }
    MPI_Win_create(base, MAXBYTES, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    for (what = 0; what < 3; what++) {
        for (bytes = 8; bytes <= MAXBYTES; bytes *= 4) {
            double t = timed(what, bytes, rank);
            if (rank == 0)
                printf("%s %ld %.6e\n", name[what], bytes, t);
        }
        if (check(what, rank))
            fprintf(stderr, "opmix: %s gave the wrong data on rank %d\n", name[what],
                    rank);
    }
    MPI_Win_free(&win);
    MPI_Type_free(&rectype);
    MPI_Free_mem(base);
    free(snd);
    free(rcv);
    free(loc);
    free(res);
    free(own);
    free(tmp);
    free(acc);
    MPI_Finalize();
    return 0;
}
