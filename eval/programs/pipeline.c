/* pipeline: a chain of stages over the number of ranks (held-out data, never
 * used to choose the selection): rank 0 produces 64 chunks of 16 KiB (4096
 * ints), every rank adds 1 to each int of a chunk and passes it to the next
 * rank (MPI_Recv from the one before, MPI_Send to the one after; the last
 * rank keeps it), so P ranks are P stages and a chunk crosses P - 1 links;
 * filling and draining the pipe take P - 1 steps. At P = 1 rank 0 is the
 * only stage. Prints
 *   "pipeline_p P seconds".
 * Up to 2 ranks have a core each; beyond, the stages oversubscribe the 2
 * cores. One iteration runs from a barrier through all 64 chunks to a
 * closing barrier. Check: the last rank's chunks hold their first values
 * plus P. Times are the least of one iteration (the slowest rank's time of
 * each): on a machine shared with other programs, other work only adds
 * time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define CHUNKS 64
#define INTS 4096
#define ITERS 100

int main(int argc, char **argv)
{
    int rank, size, it, c, i, bad = 0;
    static int buf[INTS];
    double ti[ITERS], t0, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (it = 0; it < ITERS; it++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        for (c = 0; c < CHUNKS; c++) {
            if (rank == 0)
                for (i = 0; i < INTS; i++)
                    buf[i] = c * INTS + i;
            else
                MPI_Recv(buf, INTS, MPI_INT, rank - 1, c, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            for (i = 0; i < INTS; i++)
                buf[i] += 1;
            if (rank < size - 1)
                MPI_Send(buf, INTS, MPI_INT, rank + 1, c, MPI_COMM_WORLD);
            else if (it == ITERS - 1)
                for (i = 0; i < INTS; i++)
                    bad += buf[i] != c * INTS + i + size;
        }
        MPI_Barrier(MPI_COMM_WORLD);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, ITERS);
    if (bad != 0)
        fprintf(stderr, "pipeline: %d wrong ints on the last rank at P = %d\n", bad,
                size);
    if (rank == 0)
        printf("pipeline_p %d %.6e\n", size, t);
    MPI_Finalize();
    return 0;
}
