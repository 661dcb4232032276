/* modes: point-to-point exchanges that handshake, probe or compute, over the
 * message size at P = 2 (held-out data, never used to choose the selection;
 * the sweeps cross the MPI library's protocol switches and the caches).
 * Usage:
 *   modes   at P = 2, for 8 B ... 8 MiB in steps of 4x, prints
 *     "ssend_size BYTES seconds"    half the round trip of a ping-pong
 *                                   between ranks 0 and 1 in synchronous
 *                                   mode (MPI_Ssend, MPI_Recv): a send
 *                                   completes only once its receive has
 *                                   started, whatever the size;
 *     "mprobe_size BYTES seconds"   half the round trip of a ping-pong whose
 *                                   receives are matched by MPI_Mprobe, sized
 *                                   by MPI_Get_count and taken by MPI_Mrecv
 *                                   (MPI_Send on the sending side);
 *     "haloupd_size BYTES seconds"  one step of a halo exchange and update:
 *                                   each rank swaps its row of BYTES / 8
 *                                   doubles with the other rank both ways
 *                                   (two MPI_Sendrecv: the periodic
 *                                   neighbours above and below are the same
 *                                   rank at P = 2), then updates the row with
 *                                   the 3-point stencil (below + own +
 *                                   above) / 3 into a second row.
 * Times are the least of one iteration (the slowest rank's time of each): on
 * a machine shared with other programs, other work only adds time. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXBYTES (8L << 20)

static double pingpong(int what, char *buf, long bytes, int rank)
{
    int iters = iters_for(bytes), it, cnt = (int)bytes, other = 1 - rank, got;
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;
    MPI_Message msg;
    MPI_Status st;

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        if (what == 0) {
            if (rank == 0) {
                MPI_Ssend(buf, cnt, MPI_CHAR, other, 0, MPI_COMM_WORLD);
                MPI_Recv(buf, cnt, MPI_CHAR, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, cnt, MPI_CHAR, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Ssend(buf, cnt, MPI_CHAR, other, 0, MPI_COMM_WORLD);
            }
        } else {
            if (rank == 0)
                MPI_Send(buf, cnt, MPI_CHAR, other, 1, MPI_COMM_WORLD);
            MPI_Mprobe(other, 1, MPI_COMM_WORLD, &msg, &st);
            MPI_Get_count(&st, MPI_CHAR, &got);
            if (got != cnt)
                MPI_Abort(MPI_COMM_WORLD, 2);
            MPI_Mrecv(buf, got, MPI_CHAR, &msg, MPI_STATUS_IGNORE);
            if (rank == 1)
                MPI_Send(buf, cnt, MPI_CHAR, other, 1, MPI_COMM_WORLD);
        }
        ti[it] = 0.5 * (MPI_Wtime() - t0);
    }
    t = least(ti, iters);
    free(ti);
    return t;
}

/* u: this rank's row, lo and hi: the ghost rows, v: the new row; returns
 * the time, and the rows swapped as many times as there were steps */
static double haloupd(double **u, double **v, double *lo, double *hi, long bytes,
                      int rank)
{
    int iters = iters_for(bytes), it, cnt = (int)(bytes / 8), other = 1 - rank;
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t, *a, *b, *s;
    long j;

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    a = *u;
    b = *v;
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        MPI_Sendrecv(a, cnt, MPI_DOUBLE, other, 2, lo, cnt, MPI_DOUBLE, other, 2,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(a, cnt, MPI_DOUBLE, other, 3, hi, cnt, MPI_DOUBLE, other, 3,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (j = 0; j < cnt; j++)
            b[j] = (lo[j] + a[j] + hi[j]) * (1.0 / 3.0);
        ti[it] = MPI_Wtime() - t0;
        s = a;
        a = b;
        b = s;
    }
    *u = a;
    *v = b;
    t = least(ti, iters);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    static const char *name[] = {"ssend_size", "mprobe_size", "haloupd_size"};
    int rank, size, what;
    long bytes, i, len = MAXBYTES / 8;
    char *buf;
    double *u, *v, *lo, *hi, sum0 = 0, sum1 = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    buf = malloc(MAXBYTES);
    u = malloc((size_t)len * sizeof *u);
    v = malloc((size_t)len * sizeof *v);
    lo = malloc((size_t)len * sizeof *lo);
    hi = malloc((size_t)len * sizeof *hi);
    if (size != 2 || buf == NULL || u == NULL || v == NULL || lo == NULL || hi == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < MAXBYTES; i++) /* touch the pages before timing */
        buf[i] = (char)((i + 3 * rank) % 11);
    for (what = 0; what < 2; what++)
        for (bytes = 8; bytes <= MAXBYTES; bytes *= 4) {
            double t = pingpong(what, buf, bytes, rank);
            if (rank == 0)
                printf("%s %ld %.6e\n", name[what], bytes, t);
        }
    /* every ping-pong returns the buffer to rank 0 unchanged */
    if (rank == 0 && buf[MAXBYTES - 1] != (char)((MAXBYTES - 1) % 11))
        fprintf(stderr, "modes: the ping-pongs delivered the wrong data\n");
    for (i = 0; i < len; i++) {
        /* the same in both rows: a longer row starts where a shorter one
         * ended and goes on with the starting values in either row */
        u[i] = v[i] = (double)((i + rank) % 5);
        lo[i] = hi[i] = 0.0;
        sum0 += u[i];
    }
    for (bytes = 8; bytes <= MAXBYTES; bytes *= 4) {
        double t = haloupd(&u, &v, lo, hi, bytes, rank);
        if (rank == 0)
            printf("%s %ld %.6e\n", name[2], bytes, t);
    }
    /* the update keeps the sum of both ranks' rows: (2 other + own) / 3 on
     * each rank adds up to other + own */
    for (i = 0; i < len; i++)
        sum1 += u[i];
    MPI_Allreduce(MPI_IN_PLACE, &sum0, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &sum1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && !(fabs(sum1 - sum0) <= 1e-9 * sum0))
        fprintf(stderr, "modes: haloupd changed the sum from %.17g to %.17g\n", sum0,
                sum1);
    free(buf);
    free(u);
    free(v);
    free(lo);
    free(hi);
    MPI_Finalize();
    return 0;
}
