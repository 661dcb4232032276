/* collective_pm: one MPI collective (or the ring shift) over two variables,
 * the message size M in bytes and the launched number of ranks P: the
 * programs of the two-variable grids (data/grids-*), one table row per
 * operation instead of one program each. Usage:
 *   mpirun -np P collective_pm OP M...   prints "OP_pm M P seconds" for
 *                                        each M
 * OP and what M is (the range it accepts):
 *   allreduce  MPI_Allreduce, MPI_SUM of M / 8 doubles (8 ... 32 MiB, a
 *              multiple of 8)
 *   reduce     MPI_Reduce of the same to rank 0 (8 ... 32 MiB, multiple of 8)
 *   redscat    MPI_Reduce_scatter_block: each rank contributes P blocks of
 *              M / 8 doubles and receives the sum of its block (8 ... 4 MiB,
 *              multiple of 8); the last block received is checked
 *   bcast      MPI_Bcast of M bytes from rank 0 (1 ... 32 MiB)
 *   allgather  MPI_Allgather, M bytes from each rank (1 ... 4 MiB)
 *   alltoall   MPI_Alltoall, M bytes per pair (1 ... 4 MiB)
 *   gather     MPI_Gather to rank 0, M bytes from each rank (1 ... 4 MiB)
 *   ring       MPI_Sendrecv of M bytes to rank + 1 mod P and from rank - 1
 *              (1 ... 16 MiB); the bytes received are checked
 *   scatter    MPI_Scatter from rank 0, M bytes to each rank (1 ... 16 MiB)
 *   scan       MPI_Scan, MPI_SUM of M / 8 doubles (8 ... 32 MiB, multiple of 8)
 *   exscan     MPI_Exscan, the same (8 ... 32 MiB, multiple of 8)
 *   iallreduce MPI_Iallreduce and MPI_Wait, as allreduce (8 ... 32 MiB)
 *   ibcast     MPI_Ibcast and MPI_Wait of M bytes from rank 0 (1 ... 32 MiB)
 *   ialltoall  MPI_Ialltoall and MPI_Wait, M bytes per pair (1 ... 4 MiB)
 * (the last six for data/grids-d: Open MPI runs the non-blocking ones
 * through another component, libnbc, than the blocking ones; scan, exscan
 * and ibcast are timed with a barrier before each call, as the rooted
 * operations, since rank 0 returns first and calls back to back overlap)
 *   ireduce    MPI_Ireduce and MPI_Wait, as reduce (8 ... 32 MiB)
 *   iallgather MPI_Iallgather and MPI_Wait, as allgather (1 ... 4 MiB)
 *   igather    MPI_Igather and MPI_Wait, as gather (1 ... 4 MiB)
 *   iscatter   MPI_Iscatter and MPI_Wait, as scatter (1 ... 4 MiB)
 *   iredscat   MPI_Ireduce_scatter_block and MPI_Wait, as redscat (8 ... 8 MiB)
 *   iscan      MPI_Iscan and MPI_Wait, as scan (8 ... 32 MiB)
 * (these six for data/grids-e)
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. Buffers are written before anything is timed; one call is made
 * untimed first. iters_for(M) calls (iters_for(M P) for the operations
 * that move M P bytes per rank) are timed back to back after a barrier,
 * about 20 MB in all, 20...2000; the rooted operations (reduce, gather)
 * put an untimed MPI_Barrier before each call instead, since their
 * non-root ranks may return before the root has every part and calls back
 * to back would overlap. Times are the least of one call (the slowest
 * rank's time of each, timing.h): on a machine shared with other programs,
 * other work only adds time. The eight programs this replaces printed the
 * same lines for the same arguments ("allreduce_pm M P seconds", ...). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

struct op {
    const char *name;
    long maxbytes;
    int doubles; /* M counts doubles (a multiple of 8), values (i + rank) % 13 */
    int sendp;   /* the send buffer holds M P bytes, not M */
    int recvp;   /* the receive buffer holds M P bytes */
    int itersp;  /* iters_for(M P) rather than iters_for(M) */
    int rooted;  /* an untimed barrier before each call */
};

static const struct op ops[] = {
    {"allreduce", 32L << 20, 1, 0, 0, 0, 0}, {"reduce", 32L << 20, 1, 0, 0, 0, 1},
    {"redscat", 4L << 20, 1, 1, 0, 1, 0},    {"bcast", 32L << 20, 0, 0, 0, 0, 0},
    {"allgather", 4L << 20, 0, 0, 1, 1, 0},  {"alltoall", 4L << 20, 0, 1, 1, 1, 0},
    {"gather", 4L << 20, 0, 0, 1, 1, 1},     {"ring", 16L << 20, 0, 0, 0, 0, 0},
    {"scatter", 16L << 20, 0, 1, 0, 1, 1},   {"scan", 32L << 20, 1, 0, 0, 0, 1},
    {"exscan", 32L << 20, 1, 0, 0, 0, 1},    {"iallreduce", 32L << 20, 1, 0, 0, 0, 0},
    {"ibcast", 32L << 20, 0, 0, 0, 0, 1},    {"ialltoall", 4L << 20, 0, 1, 1, 1, 0},
    {"ireduce", 32L << 20, 1, 0, 0, 0, 1},   {"iallgather", 4L << 20, 0, 0, 1, 1, 0},
    {"igather", 4L << 20, 0, 0, 1, 1, 1},    {"iscatter", 4L << 20, 0, 1, 0, 1, 1},
    {"iredscat", 8L << 20, 1, 1, 0, 1, 0},   {"iscan", 32L << 20, 1, 0, 0, 0, 1},
};

static const struct op *op;
static int rank, size;

static void call(void *snd, void *rcv, long bytes)
{
    int count = (int)(bytes / 8), b = (int)bytes;
    MPI_Request req = MPI_REQUEST_NULL; /* set by the non-blocking ones */

    switch (op - ops) {
    case 0:
        MPI_Allreduce(snd, rcv, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        break;
    case 1:
        MPI_Reduce(snd, rcv, count, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        break;
    case 2:
        MPI_Reduce_scatter_block(snd, rcv, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        break;
    case 3:
        MPI_Bcast(snd, b, MPI_CHAR, 0, MPI_COMM_WORLD);
        break;
    case 4:
        MPI_Allgather(snd, b, MPI_CHAR, rcv, b, MPI_CHAR, MPI_COMM_WORLD);
        break;
    case 5:
        MPI_Alltoall(snd, b, MPI_CHAR, rcv, b, MPI_CHAR, MPI_COMM_WORLD);
        break;
    case 6:
        MPI_Gather(snd, b, MPI_CHAR, rcv, b, MPI_CHAR, 0, MPI_COMM_WORLD);
        break;
    case 7:
        MPI_Sendrecv(snd, b, MPI_CHAR, (rank + 1) % size, 0, rcv, b, MPI_CHAR,
                     (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        break;
    case 8:
        MPI_Scatter(snd, b, MPI_CHAR, rcv, b, MPI_CHAR, 0, MPI_COMM_WORLD);
        break;
    case 9:
        MPI_Scan(snd, rcv, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        break;
    case 10:
        MPI_Exscan(snd, rcv, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        break;
    case 11:
        MPI_Iallreduce(snd, rcv, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
        break;
    case 12:
        MPI_Ibcast(snd, b, MPI_CHAR, 0, MPI_COMM_WORLD, &req);
        break;
    case 13:
        MPI_Ialltoall(snd, b, MPI_CHAR, rcv, b, MPI_CHAR, MPI_COMM_WORLD, &req);
        break;
    case 14:
        MPI_Ireduce(snd, rcv, count, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD, &req);
        break;
    case 15:
        MPI_Iallgather(snd, b, MPI_CHAR, rcv, b, MPI_CHAR, MPI_COMM_WORLD, &req);
        break;
    case 16:
        MPI_Igather(snd, b, MPI_CHAR, rcv, b, MPI_CHAR, 0, MPI_COMM_WORLD, &req);
        break;
    case 17:
        MPI_Iscatter(snd, b, MPI_CHAR, rcv, b, MPI_CHAR, 0, MPI_COMM_WORLD, &req);
        break;
    case 18:
        MPI_Ireduce_scatter_block(snd, rcv, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD,
                                  &req);
        break;
    default:
        MPI_Iscan(snd, rcv, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
    }
    if (req != MPI_REQUEST_NULL)
        MPI_Wait(&req, MPI_STATUS_IGNORE);
}

/* The checks of redscat and ring (not timed). */
static void check(const void *rcv, long bytes)
{
    if (strcmp(op->name, "redscat") == 0) {
        /* element j of rank r's send buffer is (j + r) % 13 whatever M:
         * element i of this rank's block is the sum over r of element
         * rank M / 8 + i */
        const double *v = rcv;
        long count = bytes / 8, i, r;
        for (i = 0; i < count; i++) {
            long j = (long)rank * count + i;
            double want = 0;
            for (r = 0; r < size; r++)
                want += (double)((j + r) % 13);
            if (v[i] != want) {
                fprintf(stderr, "redscat_pm: M %ld P %d: rank %d element %ld wrong\n",
                        bytes, size, rank, i);
                break;
            }
        }
    } else if (strcmp(op->name, "ring") == 0) {
        const char *c = rcv;
        int left = (rank + size - 1) % size;
        if (c[0] != (char)(left + 1) || c[bytes - 1] != (char)(left + 1))
            fprintf(stderr, "ring_pm: M %ld P %d: rank %d received wrong bytes\n", bytes,
                    size, rank);
    }
}

static double timed(void *snd, void *rcv, long bytes)
{
    int iters = iters_for(op->itersp ? bytes * size : bytes), it;
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    call(snd, rcv, bytes);
    if (!op->rooted)
        MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        if (op->rooted)
            MPI_Barrier(MPI_COMM_WORLD); /* not timed: keeps the calls apart */
        t0 = MPI_Wtime();
        call(snd, rcv, bytes);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    free(ti);
    check(rcv, bytes);
    return t;
}

int main(int argc, char **argv)
{
    long bytes, most, i, ns, nr;
    void *snd, *rcv;
    size_t k;
    int a;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (k = 0; argc > 1 && k < sizeof ops / sizeof ops[0]; k++)
        if (strcmp(argv[1], ops[k].name) == 0)
            op = &ops[k];
    if (op == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    most = op->doubles ? 8 : 1;
    for (a = 2; a < argc; a++) {
        bytes = strtol(argv[a], NULL, 10);
        if (bytes < (op->doubles ? 8 : 1) || bytes > op->maxbytes ||
            (op->doubles && bytes % 8 != 0))
            MPI_Abort(MPI_COMM_WORLD, 1);
        most = bytes > most ? bytes : most;
    }
    ns = op->sendp ? most * size : most;
    nr = op->recvp ? most * size : most;
    snd = malloc((size_t)ns);
    rcv = malloc((size_t)nr);
    if (snd == NULL || rcv == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    if (op->doubles) { /* touch the pages before timing */
        for (i = 0; i < ns / 8; i++)
            ((double *)snd)[i] = (double)((i + rank) % 13);
        for (i = 0; i < nr / 8; i++)
            ((double *)rcv)[i] = 0;
    } else {
        memset(snd, rank + 1, (size_t)ns);
        memset(rcv, 0, (size_t)nr);
    }
    for (a = 2; a < argc; a++) {
        double t;
        bytes = strtol(argv[a], NULL, 10);
        t = timed(snd, rcv, bytes);
        if (rank == 0)
            printf("%s_pm %ld %d %.6e\n", op->name, bytes, size, t);
    }
    free(snd);
    free(rcv);
    MPI_Finalize();
    return 0;
}
