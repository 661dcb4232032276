/* jacres: strong scaling of a 2-D 5-point Jacobi solver that checks its
 * residual every iteration (held-out data, never used to choose the
 * selection): a fixed 2048 x 2048 interior (two grids of 2050 x 2050 doubles
 * with their fixed edges, 2 x 32 MiB at P = 1: beyond L3; the ranks' shares
 * shrink towards it as P grows) split by rows as evenly as possible over the
 * launched P ranks (1-D decomposition, non-periodic). One iteration exchanges
 * one ghost row with each neighbour (MPI_Sendrecv up, then down), sweeps the
 * rank's rows from one grid into the other, sums the squared change of its
 * points and makes the global sum with MPI_Allreduce (one double), as a
 * solver that tests convergence every iteration does. Prints
 *   "jacres_p P seconds".
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. The edges are fixed at 1 and the interior starts at 0.5 (no small
 * numbers ever). One iteration runs from a barrier to a closing barrier.
 * Check (not timed): the global change is positive, finite and never grows
 * from one iteration to the next (Jacobi's iteration matrix is symmetric
 * here, its norm below 1). Times are the least of one iteration (the
 * slowest rank's time of each): on a machine shared with other programs,
 * other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define G 2048    /* interior side */
#define W (G + 2) /* row length with the fixed edge columns */
#define ITERS 50

static volatile double sink;

int main(int argc, char **argv)
{
    int rank, size, up, down, it, bad = 0;
    long rows, i, j, len;
    double *a, *b, *s, ti[ITERS], t0, t, res, prev = -1.0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    rows = G / size + (rank < G % size);
    len = (rows + 2) * W; /* row 0 and row rows + 1: ghosts or fixed edges */
    a = malloc((size_t)len * sizeof *a);
    b = malloc((size_t)len * sizeof *b);
    if (a == NULL || b == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < rows + 2; i++)
        for (j = 0; j < W; j++) {
            int edge = j == 0 || j == W - 1 || (i == 0 && rank == 0) ||
                       (i == rows + 1 && rank == size - 1);
            a[i * W + j] = b[i * W + j] = edge ? 1.0 : 0.5;
        }
    for (it = 0; it < ITERS; it++) {
        double mine = 0.0;
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        MPI_Sendrecv(a + W, W, MPI_DOUBLE, up, 0, a + (rows + 1) * W, W, MPI_DOUBLE, down,
                     0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(a + rows * W, W, MPI_DOUBLE, down, 1, a, W, MPI_DOUBLE, up, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (i = 1; i <= rows; i++)
            for (j = 1; j < W - 1; j++) {
                double v = 0.25 * (a[(i - 1) * W + j] + a[(i + 1) * W + j] +
                                   a[i * W + j - 1] + a[i * W + j + 1]),
                       d = v - a[i * W + j];
                b[i * W + j] = v;
                mine += d * d;
            }
        MPI_Allreduce(&mine, &res, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        s = a;
        a = b;
        b = s;
        MPI_Barrier(MPI_COMM_WORLD);
        ti[it] = MPI_Wtime() - t0;
        bad += !(res > 0.0 && res < 1e300) || (prev >= 0.0 && res > prev * (1 + 1e-12));
        prev = res;
    }
    t = least(ti, ITERS);
    if (bad != 0)
        fprintf(stderr, "jacres: %d iterations with a wrong residual on rank %d of %d\n",
                bad, rank, size);
    if (rank == 0)
        printf("jacres_p %d %.6e\n", size, t);
    sink = a[W + W / 2];
    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
