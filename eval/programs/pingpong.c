/* pingpong: point-to-point and reduction over the message size between 2
 * ranks (held-out data, never used to choose the selection). Prints
 * "pingpong_size BYTES seconds" (half the round trip of a ping-pong between
 * ranks 0 and 1, as OSU's osu_latency) and "reduce_size BYTES seconds"
 * (MPI_Reduce of doubles to rank 0) for 1 B ... 4 MiB and 8 B ... 8 MiB in
 * steps of 4x. Times are the least of one iteration (the slowest rank's time
 * of each): on a machine shared with other programs, other work only adds. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

static double pingpong(char *buf, long bytes, int rank)
{
    int iters = iters_for(bytes), it;
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        if (rank == 0) {
            MPI_Send(buf, (int)bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(buf, (int)bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buf, (int)bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, (int)bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
        }
        ti[it] = 0.5 * (MPI_Wtime() - t0);
    }
    t = least(ti, iters);
    free(ti);
    return t;
}

static double reduce(double *a, double *b, long count)
{
    int iters = iters_for(8 * count), it;
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        MPI_Reduce(a, b, (int)count, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    long bytes, count;
    int rank, size;
    char *buf;
    double *a, *b;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    buf = calloc(4L << 20, 1);
    a = calloc(1L << 20, sizeof *a);
    b = calloc(1L << 20, sizeof *b);
    if (size < 2 || buf == NULL || a == NULL || b == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (bytes = 1; bytes <= 4L << 20; bytes *= 4) {
        double t = pingpong(buf, bytes, rank);
        if (rank == 0)
            printf("pingpong_size %ld %.6e\n", bytes, t);
    }
    for (count = 1; count <= 1L << 20; count *= 4) {
        double t = reduce(a, b, count);
        if (rank == 0)
            printf("reduce_size %ld %.6e\n", 8 * count, t);
    }
    free(buf);
    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
