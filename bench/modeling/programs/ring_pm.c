/* ring_pm: a ring shift over two variables, the message size M in bytes
 * and the launched number of ranks P (held-out data of heldout17, a
 * two-variable grid, never used to choose the selection): every rank sends
 * M bytes to its right neighbour (rank + 1 mod P) and receives M bytes from
 * its left (rank - 1 mod P) in one MPI_Sendrecv. Usage:
 *   mpirun -np P ring_pm M...   prints "ring_pm M P seconds" for each M
 *                               (1 ... 16 MiB).
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. Send and receive buffers are separate and written before anything
 * is timed; one shift is made untimed first. iters_for(M) shifts are timed
 * back to back after a barrier (about 20 MB sent per rank in all,
 * 20...2000): a rank's next shift needs its left neighbour's message of
 * that shift, so the shifts cannot run far ahead of each other. Check (not
 * timed): the first and last byte received came from the left neighbour.
 * Times are the least of one shift (the slowest rank's time of each,
 * timing.h): on a machine shared with other programs, other work only adds
 * time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define MAXBYTES (16L << 20)

static double timed(const char *snd, char *rcv, long bytes, int rank, int size)
{
    int iters = iters_for(bytes), it, right = (rank + 1) % size,
        left = (rank + size - 1) % size;
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Sendrecv(snd, (int)bytes, MPI_CHAR, right, 0, rcv, (int)bytes, MPI_CHAR, left, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        MPI_Sendrecv(snd, (int)bytes, MPI_CHAR, right, 0, rcv, (int)bytes, MPI_CHAR, left,
                     0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    if (rcv[0] != (char)(left + 1) || rcv[bytes - 1] != (char)(left + 1))
        fprintf(stderr, "ring_pm: M %ld P %d: rank %d received wrong bytes\n", bytes,
                size, rank);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    int rank, size, k;
    long bytes, most = 1;
    char *snd, *rcv;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (k = 1; k < argc; k++) {
        bytes = strtol(argv[k], NULL, 10);
        if (bytes < 1 || bytes > MAXBYTES)
            MPI_Abort(MPI_COMM_WORLD, 1);
        most = bytes > most ? bytes : most;
    }
    snd = malloc((size_t)most);
    rcv = malloc((size_t)most);
    if (snd == NULL || rcv == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(snd, rank + 1, (size_t)most); /* touch the pages before timing */
    memset(rcv, 0, (size_t)most);
    for (k = 1; k < argc; k++) {
        bytes = strtol(argv[k], NULL, 10);
        double t = timed(snd, rcv, bytes, rank, size);
        if (rank == 0)
            printf("ring_pm %ld %d %.6e\n", bytes, size, t);
    }
    free(snd);
    free(rcv);
    MPI_Finalize();
    return 0;
}
