/* sendmodes: point-to-point transfers in the buffered and ready modes,
 * nonblocking and packed, over the message size at P = 2 (held-out data,
 * never used to choose the selection; the sweeps cross the MPI library's
 * protocol switches and the caches). Usage:
 *   sendmodes   at P = 2, for 8 B ... 32 MiB in steps of 4x, prints
 *     "bsend_size BYTES seconds"   half the round trip of a ping-pong between
 *                                  ranks 0 and 1 in buffered mode (MPI_Bsend
 *                                  from a buffer attached by
 *                                  MPI_Buffer_attach, MPI_Recv);
 *     "rsend_size BYTES seconds"   half the round trip of a ping-pong in
 *                                  ready mode (MPI_Rsend): rank 1 posts its
 *                                  receive (MPI_Irecv) and tells rank 0 by a
 *                                  zero-byte message, which rank 0 waits for
 *                                  before its MPI_Rsend; rank 0 posts its
 *                                  receive of the answer before that, so
 *                                  rank 1 answers at once (the handshake is
 *                                  in the time);
 *     "isend_size BYTES seconds"   one exchange both ways: each rank posts
 *                                  MPI_Irecv of BYTES from the other and
 *                                  MPI_Isend of BYTES to it, then
 *                                  MPI_Waitall on both;
 *     "pack_size BYTES seconds"    half the round trip of a ping-pong of
 *                                  BYTES / 8 doubles packed by MPI_Pack, sent
 *                                  as MPI_PACKED and unpacked by MPI_Unpack
 *                                  on the receiving side, both ways.
 * Times are the least of one iteration (the slowest rank's time of each): on
 * a machine shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXBYTES (32L << 20)

/* what: 0 bsend, 1 rsend, 2 isend exchange, 3 pack */
static double timed(int what, char *buf, char *rbuf, char *pk, long bytes, int rank)
{
    int iters = iters_for(bytes), it, cnt = (int)bytes, dcnt = (int)(bytes / 8),
        other = 1 - rank, pos;
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;
    MPI_Request req[2];

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        if (what == 0 && rank == 0) {
            MPI_Bsend(buf, cnt, MPI_CHAR, other, 0, MPI_COMM_WORLD);
            MPI_Recv(buf, cnt, MPI_CHAR, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (what == 0) {
            MPI_Recv(buf, cnt, MPI_CHAR, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Bsend(buf, cnt, MPI_CHAR, other, 0, MPI_COMM_WORLD);
        } else if (what == 1 && rank == 0) {
            MPI_Irecv(buf, cnt, MPI_CHAR, other, 1, MPI_COMM_WORLD, &req[0]);
            MPI_Recv(NULL, 0, MPI_CHAR, other, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Rsend(buf, cnt, MPI_CHAR, other, 1, MPI_COMM_WORLD);
            MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        } else if (what == 1) {
            MPI_Irecv(buf, cnt, MPI_CHAR, other, 1, MPI_COMM_WORLD, &req[0]);
            MPI_Send(NULL, 0, MPI_CHAR, other, 2, MPI_COMM_WORLD);
            MPI_Wait(&req[0], MPI_STATUS_IGNORE);
            MPI_Rsend(buf, cnt, MPI_CHAR, other, 1, MPI_COMM_WORLD);
        } else if (what == 2) {
            MPI_Irecv(rbuf, cnt, MPI_CHAR, other, 3, MPI_COMM_WORLD, &req[0]);
            MPI_Isend(buf, cnt, MPI_CHAR, other, 3, MPI_COMM_WORLD, &req[1]);
            MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        } else {
            if (rank == 0) {
                pos = 0;
                MPI_Pack(buf, dcnt, MPI_DOUBLE, pk, (int)MAXBYTES, &pos, MPI_COMM_WORLD);
                MPI_Send(pk, pos, MPI_PACKED, other, 4, MPI_COMM_WORLD);
            }
            MPI_Recv(pk, (int)MAXBYTES, MPI_PACKED, other, 4, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            pos = 0;
            MPI_Unpack(pk, (int)MAXBYTES, &pos, buf, dcnt, MPI_DOUBLE, MPI_COMM_WORLD);
            if (rank == 1) {
                pos = 0;
                MPI_Pack(buf, dcnt, MPI_DOUBLE, pk, (int)MAXBYTES, &pos, MPI_COMM_WORLD);
                MPI_Send(pk, pos, MPI_PACKED, other, 4, MPI_COMM_WORLD);
            }
        }
        ti[it] = what == 2 ? MPI_Wtime() - t0 : 0.5 * (MPI_Wtime() - t0);
    }
    t = least(ti, iters);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    static const char *name[] = {"bsend_size", "rsend_size", "isend_size", "pack_size"};
    int rank, size, what, bsize, bad;
    long bytes, i;
    char *buf, *rbuf, *pk, *att;
    double *d;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* room for two buffered messages of the largest size: the second Bsend
     * of a rank never waits on the first's buffer being released */
    bsize = (int)(2 * (MAXBYTES + MPI_BSEND_OVERHEAD));
    buf = malloc(MAXBYTES);
    rbuf = malloc(MAXBYTES);
    pk = malloc(MAXBYTES);
    att = malloc((size_t)bsize);
    if (size != 2 || buf == NULL || rbuf == NULL || pk == NULL || att == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < MAXBYTES; i++) /* touch the pages before timing */
        att[i] = att[MAXBYTES + i] = pk[i] = rbuf[i] = 0;
    MPI_Buffer_attach(att, bsize);
    d = (double *)buf;
    for (what = 0; what < 4; what++) {
        /* rank r holds bytes (i + 3 r) % 11, or the doubles i % 13 + r */
        for (i = 0; i < MAXBYTES; i++)
            buf[i] = (char)((i + 3 * rank) % 11);
        for (i = 0; what == 3 && i < MAXBYTES / 8; i++)
            d[i] = (double)(i % 13 + rank);
        for (bytes = 8; bytes <= MAXBYTES; bytes *= 4) {
            double t = timed(what, buf, rbuf, pk, bytes, rank);
            if (rank == 0)
                printf("%s %ld %.6e\n", name[what], bytes, t);
        }
        /* a ping-pong returns rank 0's data to rank 0 unchanged and leaves a
         * copy on rank 1; the exchange leaves the other rank's data in rbuf */
        bad = 0;
        for (i = 0; i < MAXBYTES && !bad; i += 4099) {
            if (what == 2)
                bad = rbuf[i] != (char)((i + 3 * (1 - rank)) % 11);
            else if (what == 3)
                bad = i < MAXBYTES / 8 && d[i] != (double)(i % 13);
            else
                bad = buf[i] != (char)(i % 11);
        }
        if (bad)
            fprintf(stderr, "sendmodes: %s delivered the wrong data on rank %d\n",
                    name[what], rank);
    }
    MPI_Buffer_detach(&att, &bsize);
    free(att);
    free(buf);
    free(rbuf);
    free(pk);
    MPI_Finalize();
    return 0;
}
