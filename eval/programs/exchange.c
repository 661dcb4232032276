/* exchange: point-to-point exchanges that copy or pack, over the message
 * size at P = 2 and over the number of ranks (held-out data, never used to
 * choose the selection; the size sweeps cross the MPI library's protocol
 * switches and the caches). Usage:
 *   exchange     at P = 2, for 8 B ... 8 MiB in steps of 4x, prints
 *     "sendrecvrep_size BYTES seconds"  the two ranks swap BYTES with
 *                                       MPI_Sendrecv_replace (the library
 *                                       buffers one side's data);
 *     "vector_size BYTES seconds"       the two ranks swap BYTES of doubles
 *                                       taken from every other double of a
 *                                       buffer twice as long and written to
 *                                       every other double of another (an
 *                                       MPI_Type_vector of stride 2 on both
 *                                       sides: packed and unpacked);
 *   exchange p   at the launched P, prints
 *     "ring_p P seconds"               every rank passes 64 KiB to the next
 *                                      rank of a ring and receives from the
 *                                      one before with MPI_Sendrecv_replace,
 *                                      from a barrier to a closing barrier
 *                                      (so that an oversubscribed rank cannot
 *                                      time only its own share).
 * Times are the least of one call (the slowest rank's time of each): on a
 * machine shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define MAXBYTES (8L << 20)
#define PBYTES (64L << 10)

/* what: 0 sendrecv_replace, 1 strided vector */
static double timed(int what, double *a, double *b, long bytes, int other)
{
    int iters = iters_for(bytes), it, cnt = (int)(bytes / 8);
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;
    MPI_Datatype vec;

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Type_vector(cnt, 1, 2, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        if (what == 0)
            MPI_Sendrecv_replace(a, (int)bytes, MPI_CHAR, other, 0, other, 0,
                                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        else
            MPI_Sendrecv(a, 1, vec, other, 1, b, 1, vec, other, 1, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    MPI_Type_free(&vec);
    free(ti);
    return t;
}

static void sizes(int rank, int size)
{
    static const char *name[] = {"sendrecvrep_size", "vector_size"};
    int what;
    long bytes, i, len = 2 * MAXBYTES / 8;
    double *a = malloc((size_t)len * sizeof *a), *b = malloc((size_t)len * sizeof *b);

    if (size != 2 || a == NULL || b == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (what = 0; what < 2; what++) {
        for (i = 0; i < len; i++) { /* touch the pages before timing */
            a[i] = (double)((i + rank) % 13);
            b[i] = 0.0;
        }
        for (bytes = 8; bytes <= MAXBYTES; bytes *= 4) {
            double t = timed(what, a, b, bytes, 1 - rank);
            if (rank == 0)
                printf("%s %ld %.6e\n", name[what], bytes, t);
        }
    }
    if (b[2] != (double)((3 - rank) % 13)) /* b[2] came from a[2] of the other rank */
        fprintf(stderr, "exchange: vector delivered %g\n", b[2]);
    free(a);
    free(b);
}

static void ring(int rank, int size)
{
    int iters = 400, it, next = (rank + 1) % size, prev = (rank + size - 1) % size;
    char *buf = malloc(PBYTES);
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;

    if (buf == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(buf, rank, PBYTES);
    for (it = 0; it < iters; it++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        MPI_Sendrecv_replace(buf, (int)PBYTES, MPI_CHAR, next, 0, prev, 0, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    /* after iters shifts, rank r holds what rank r - iters (mod P) started with */
    if (buf[PBYTES - 1] != (char)((rank + size - iters % size) % size))
        fprintf(stderr, "exchange: ring delivered the wrong data on rank %d\n", rank);
    if (rank == 0)
        printf("ring_p %d %.6e\n", size, t);
    free(buf);
    free(ti);
}

int main(int argc, char **argv)
{
    return over_p_or_size(argc, argv, ring, sizes);
}
