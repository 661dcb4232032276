/* montecarlo: strong scaling of an embarrassingly parallel compute kernel
 * (held-out data, never used to choose the selection): 2^22 random points in
 * the unit square in all, split evenly over the launched P ranks, each rank
 * counting those inside the quarter circle with its own xorshift64 generator,
 * the counts summed on rank 0 by MPI_Reduce (an estimate of pi). Prints
 *   "montecarlo_p P seconds".
 * The work divides perfectly over the 2 cores; ranks beyond 2 oversubscribe
 * them. One iteration runs from a barrier through the MPI_Reduce to a closing
 * barrier, so it lasts until the slowest rank is done (without the closing
 * barrier, a root rank that left the first barrier late, oversubscribed,
 * timed only its own share, below what 2 cores can do). Times are the least
 * of one iteration (the slowest rank's time of each): on a machine shared
 * with other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define TOTAL (1L << 22)
#define ITERS 50

int main(int argc, char **argv)
{
    int rank, size, it;
    long mine, i, in, all = 0;
    unsigned long long x;
    double ti[ITERS], t0, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mine = TOTAL / size + (rank < TOTAL % size);
    x = 88172645463325252ULL + 0x9E3779B97F4A7C15ULL * (unsigned long long)(rank + 1);
    for (it = 0; it < ITERS; it++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        in = 0;
        for (i = 0; i < mine; i++) {
            double a, b;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            a = (double)(x >> 11) * (1.0 / 9007199254740992.0);
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            b = (double)(x >> 11) * (1.0 / 9007199254740992.0);
            in += a * a + b * b <= 1.0;
        }
        MPI_Reduce(&in, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, ITERS);
    if (rank == 0) {
        printf("montecarlo_p %d %.6e\n", size, t);
        if (all < TOTAL * 3 / 4 || all > TOTAL * 4 / 5) /* pi / 4 = 0.785 */
            fprintf(stderr, "montecarlo: implausible count %ld\n", all);
    }
    MPI_Finalize();
    return 0;
}
