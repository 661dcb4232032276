/* heat1d: strong scaling of an explicit 1-D heat equation (held-out data,
 * never used to choose the selection): 2^22 cells in all, split as evenly as
 * possible over the launched P ranks in a chain (fixed ends), one iteration
 * exchanging one ghost cell with each neighbour (MPI_Sendrecv) and then
 * updating its cells, u' = u + r (u[i-1] - 2 u[i] + u[i+1]), from one array
 * into the other (2 x 32 MiB in all: DRAM at P = 1 and 2, the ranks' shares
 * nearer the caches as P grows). Prints
 *   "heat1d_p P seconds".
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. One iteration runs from a barrier to a closing barrier, so it lasts
 * until the slowest rank is done (an oversubscribed rank cannot time only
 * its own share). Times are the least of one iteration (the slowest rank's
 * time of each): on a machine shared with other programs, other work only
 * adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define TOTAL (1L << 22)
#define ITERS 60
#define R 0.25

static volatile double sink;

int main(int argc, char **argv)
{
    int rank, size, left, right, it;
    long mine, i;
    double *u, *v, *s, ti[ITERS], t0, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    mine = TOTAL / size + (rank < TOTAL % size);
    u = malloc((size_t)(mine + 2) * sizeof *u); /* u[0], u[mine + 1]: ghosts */
    v = malloc((size_t)(mine + 2) * sizeof *v);
    if (u == NULL || v == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < mine + 2; i++) {
        u[i] = (double)((i + rank) % 13);
        v[i] = u[i];
    }
    for (it = 0; it < ITERS; it++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        MPI_Sendrecv(u + 1, 1, MPI_DOUBLE, left, 0, u + mine + 1, 1, MPI_DOUBLE, right, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(u + mine, 1, MPI_DOUBLE, right, 1, u, 1, MPI_DOUBLE, left, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (i = 1; i <= mine; i++)
            v[i] = u[i] + R * (u[i - 1] - 2 * u[i] + u[i + 1]);
        s = u;
        u = v;
        v = s;
        MPI_Barrier(MPI_COMM_WORLD);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, ITERS);
    if (rank == 0)
        printf("heat1d_p %d %.6e\n", size, t);
    sink = u[mine / 2];
    free(u);
    free(v);
    MPI_Finalize();
    return 0;
}
