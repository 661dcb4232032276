/* nbreq: a synchronous-mode ping-pong, a gather with unequal counts and a
 * neighbourhood all-to-all, all nonblocking and completed by MPI_Wait or
 * MPI_Waitall, over the message size at P = 2 (held-out data, never used to
 * choose the selection; the sweeps cross the MPI library's protocol switches
 * and the caches). Usage:
 *   nbreq   at P = 2, for 8 B ... 32 MiB in steps of 4x, prints
 *     "issend_size BYTES seconds"     half the round trip of a ping-pong of
 *                                     BYTES sent in synchronous mode: rank 0
 *                                     posts MPI_Irecv of the answer, then
 *                                     MPI_Issend of BYTES to rank 1 and
 *                                     MPI_Waitall on both; rank 1 receives
 *                                     (MPI_Recv), then MPI_Issend of the
 *                                     BYTES back and MPI_Wait;
 *     "igatherv_size BYTES seconds"   MPI_Igatherv to rank 0, then MPI_Wait:
 *                                     rank 1 contributes BYTES, rank 0 BYTES
 *                                     / 2, placed in the root's buffer in the
 *                                     other order (rank 1's block at offset
 *                                     0, rank 0's at offset BYTES);
 *     "ineighbor_size BYTES seconds"  MPI_Ineighbor_alltoall of BYTES per
 *                                     neighbour on a periodic 1-D Cartesian
 *                                     communicator of the 2 ranks (each
 *                                     rank's left and right neighbour is the
 *                                     other rank: 2 BYTES sent and 2 BYTES
 *                                     received by each rank), then MPI_Wait.
 * One sample times r operations back to back (r doubled from 1, the same on
 * both ranks, until r operations take at least 50 us on the slower rank, at
 * most 4096: the clock's own cost stays small beside a small message) and
 * counts as the time of one operation, the sample's time over r (half of it
 * for the ping-pong). The samples (enough for about 0.1 s, at least 10, at
 * most 2000) follow one operation that is not timed; the answer is the least
 * of them, each the slower rank's (timing.h): on a machine shared with other
 * programs, other work only adds time. Checks (not timed, after each sweep):
 * the data arrived where it belongs; a failure is reported on stderr. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXBYTES (32L << 20)
#define MAXSAMPLES 2000

static char *sbuf, *rbuf; /* 2 MAXBYTES each */
static MPI_Comm ring;

static void *alloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (p == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    return p;
}

/* One operation of case what (0 issend ping-pong, 1 igatherv, 2 ineighbor
 * alltoall) on this rank. */
static void op(int what, long bytes, int rank)
{
    int cnt = (int)bytes, other = 1 - rank;
    MPI_Request req[2];

    if (what == 0 && rank == 0) {
        MPI_Irecv(rbuf, cnt, MPI_CHAR, other, 0, MPI_COMM_WORLD, &req[0]);
        MPI_Issend(sbuf, cnt, MPI_CHAR, other, 0, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    } else if (what == 0) {
        MPI_Recv(rbuf, cnt, MPI_CHAR, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Issend(rbuf, cnt, MPI_CHAR, other, 0, MPI_COMM_WORLD, &req[0]);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    } else if (what == 1) {
        int counts[2] = {cnt / 2, cnt}, displs[2] = {cnt, 0};
        MPI_Igatherv(sbuf, counts[rank], MPI_CHAR, rbuf, counts, displs, MPI_CHAR, 0,
                     MPI_COMM_WORLD, &req[0]);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    } else {
        MPI_Ineighbor_alltoall(sbuf, cnt, MPI_CHAR, rbuf, cnt, MPI_CHAR, ring, &req[0]);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    }
}

static double timed(int what, long bytes, int rank)
{
    double *ti = alloc(MAXSAMPLES * sizeof *ti), t0, t, per = what == 0 ? 0.5 : 1.0;
    long r = 1, k, target;
    int samples, s;

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
    t = least(ti, samples);
    free(ti);
    return t;
}

/* rank r's send buffer holds bytes (i + 3 r) % 11 */
static char val(long i, int r)
{
    return (char)((i + 3 * r) % 11);
}

/* After the sweep of case what, whose last size was MAXBYTES. */
static int check(int what, int rank)
{
    long i, b = MAXBYTES;
    int bad = 0, other = 1 - rank;

    for (i = 0; i < b && !bad; i += 4099) {
        if (what == 0) /* rank 1 holds rank 0's data; rank 0 has it back */
            bad = rbuf[i] != val(i, 0);
        else if (what == 1 && rank == 0)
            bad = rbuf[i] != val(i, 1) || (i < b / 2 && rbuf[b + i] != val(i, 0));
        else if (what == 2) /* both blocks from the other rank, in either order */
            bad = (rbuf[i] != val(i, other) && rbuf[i] != val(b + i, other)) ||
                  (rbuf[b + i] != val(i, other) && rbuf[b + i] != val(b + i, other));
    }
    return bad;
}

int main(int argc, char **argv)
{
    static const char *name[] = {"issend_size", "igatherv_size", "ineighbor_size"};
    int rank, size, what, dims = 2, periods = 1;
    long bytes, i;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Cart_create(MPI_COMM_WORLD, 1, &dims, &periods, 0, &ring);
    sbuf = alloc(2 * MAXBYTES);
    rbuf = alloc(2 * MAXBYTES);
    for (i = 0; i < 2 * MAXBYTES; i++) { /* touch every page before timing */
        sbuf[i] = val(i, rank);
        rbuf[i] = -1;
    }
    for (what = 0; what < 3; what++) {
        for (bytes = 8; bytes <= MAXBYTES; bytes *= 4) {
            double t = timed(what, bytes, rank);
            if (rank == 0)
                printf("%s %ld %.6e\n", name[what], bytes, t);
        }
        if (check(what, rank))
            fprintf(stderr, "nbreq: %s delivered the wrong data on rank %d\n", name[what],
                    rank);
        for (i = 0; i < 2 * MAXBYTES; i++)
            rbuf[i] = -1;
    }
    MPI_Comm_free(&ring);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
