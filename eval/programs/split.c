/* split: making and freeing a communicator over the number of ranks
 * (held-out data, never used to choose the selection): MPI_Comm_split of
 * MPI_COMM_WORLD into the even and the odd ranks (an allgather of colours
 * and keys and a new context id agreed on by all), an MPI_Bcast of one long
 * from each half's first rank, and MPI_Comm_free. Prints
 *   "commsplit_p P seconds".
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. One iteration runs from a barrier to a closing barrier (so that an
 * oversubscribed rank cannot time only its own share). Check: each half has
 * the expected size and every rank received its half's first rank's value.
 * Times are the least of one iteration (the slowest rank's time of each):
 * on a machine shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define ITERS 400

int main(int argc, char **argv)
{
    int rank, size, it, hsize, bad = 0;
    long v;
    double ti[ITERS], t0, t;
    MPI_Comm half;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (it = 0; it < ITERS; it++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
        v = 1000L * it + rank; /* the half's first rank is world rank 0 or 1 */
        MPI_Bcast(&v, 1, MPI_LONG, 0, half);
        MPI_Comm_size(half, &hsize);
        MPI_Comm_free(&half);
        MPI_Barrier(MPI_COMM_WORLD);
        ti[it] = MPI_Wtime() - t0;
        bad += v != 1000L * it + rank % 2 || hsize != (size + 1 - rank % 2) / 2;
    }
    t = least(ti, ITERS);
    if (bad != 0)
        fprintf(stderr, "split: %d wrong iterations on rank %d of %d\n", bad, rank, size);
    if (rank == 0)
        printf("commsplit_p %d %.6e\n", size, t);
    MPI_Finalize();
    return 0;
}
