/* pic: weak scaling of the charge deposit of a 1-D particle-in-cell code
 * (held-out data, never used to choose the selection): every rank holds
 * 2^18 particles on the periodic unit interval and deposits their unit
 * charges onto a global grid of 2^16 cells (512 KiB of doubles) by
 * cloud-in-cell weighting (two neighbouring cells, weights 1 - w and w),
 * then the ranks' grids are summed by MPI_Allreduce, as a field solve needs
 * the whole density. Prints
 *   "pic_p P seconds".
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. The positions are drawn once per rank (not timed), half of them
 * uniform and half clustered around 0.3 (a beam), with a seed of the
 * rank's own. One iteration runs from a barrier through clearing the grid,
 * the deposit and the MPI_Allreduce to a closing barrier (40 iterations).
 * Check (not timed): the summed grid holds P * 2^18 units of charge
 * (relative error below 1e-9) and no cell is negative. Times are the least
 * of one iteration (the slowest rank's time of each): on a machine shared
 * with other programs, other work only adds time. */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define PART (1L << 18) /* per rank */
#define CELLS (1L << 16)
#define ITERS 40

int main(int argc, char **argv)
{
    int rank, size, it, bad = 0;
    long i;
    double *x, *rho, ti[ITERS], t0, t;
    uint64_t s;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    x = malloc(PART * sizeof *x);
    rho = malloc(CELLS * sizeof *rho);
    if (x == NULL || rho == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    s = 88172645463325252ULL + 104729ULL * (uint64_t)rank; /* xorshift64 */
    for (i = 0; i < PART; i++) {
        double u;
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        u = (double)(s >> 11) * (1.0 / 9007199254740992.0);
        x[i] = i % 2 ? u : 0.3 + 0.05 * (u - 0.5);
    }
    for (it = -1; it < ITERS; it++) { /* iteration -1 is not timed */
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        memset(rho, 0, CELLS * sizeof *rho);
        for (i = 0; i < PART; i++) {
            double g = x[i] * (double)CELLS;
            long c = (long)g;
            double w = g - (double)c;
            c &= CELLS - 1;
            rho[c] += 1.0 - w;
            rho[(c + 1) & (CELLS - 1)] += w;
        }
        MPI_Allreduce(MPI_IN_PLACE, rho, CELLS, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        if (it >= 0)
            ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, ITERS);
    if (rank == 0) {
        double q = 0;
        for (i = 0; i < CELLS; i++) {
            q += rho[i];
            bad |= rho[i] < 0;
        }
        bad |= fabs(q - (double)size * PART) > 1e-9 * (double)size * PART;
        if (bad) {
            fprintf(stderr, "pic: P %d: the grid holds %.17g, not %ld\n", size, q,
                    size * PART);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        printf("pic_p %d %.6e\n", size, t);
    }
    free(x);
    free(rho);
    MPI_Finalize();
    return 0;
}
