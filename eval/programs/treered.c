/* treered: a reduction written by hand over the number of ranks (held-out
 * data, never used to choose the selection; weak scaling): every rank first
 * adds up 4 vectors of its own of 2^16 doubles (512 KiB each) into one, then
 * the P partial vectors are summed onto rank 0 along a binomial tree by
 * point-to-point messages: in round k (k = 1, 2, 4, ...) a rank whose bit k
 * is set sends its vector whole to rank - k (MPI_Send) and leaves, and a rank
 * with rank + k < P receives that rank's vector (MPI_Recv into a buffer) and
 * adds it into its own, ceil(log2 P) rounds in all. At P = 1 only the local
 * sum remains. Prints
 *   "treered_p P seconds".
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. Vector v of rank r holds (r + 1) + v + (i % 3) at i (small
 * integers: exact sums). One iteration runs from a barrier to a closing
 * barrier. Check (not timed): rank 0's sum is exact at every i. Times are
 * the least of one iteration (the slowest rank's time of each): on a machine
 * shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define V (1L << 16) /* doubles per vector */
#define NV 4         /* vectors per rank */
#define ITERS 50

int main(int argc, char **argv)
{
    int rank, size, it, v, k, bad = 0;
    long i;
    double *loc, *sum, *buf, ti[ITERS], t0, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    loc = malloc(NV * V * sizeof *loc);
    sum = malloc(V * sizeof *sum);
    buf = malloc(V * sizeof *buf);
    if (loc == NULL || sum == NULL || buf == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (v = 0; v < NV; v++)
        for (i = 0; i < V; i++)
            loc[v * V + i] = (double)(rank + 1 + v + i % 3);
    for (i = 0; i < V; i++)
        sum[i] = buf[i] = 0.0;
    for (it = 0; it < ITERS; it++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        for (i = 0; i < V; i++)
            sum[i] = loc[i] + loc[V + i] + loc[2 * V + i] + loc[3 * V + i];
        for (k = 1; k < size; k <<= 1) {
            if (rank & k) {
                MPI_Send(sum, (int)V, MPI_DOUBLE, rank - k, 0, MPI_COMM_WORLD);
                break;
            }
            if (rank + k < size) {
                MPI_Recv(buf, (int)V, MPI_DOUBLE, rank + k, 0, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
                for (i = 0; i < V; i++)
                    sum[i] += buf[i];
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, ITERS);
    if (rank == 0) {
        /* sum over r < P, v < 4 of (r + 1 + v + i % 3) */
        double p = size;
        for (i = 0; i < V && !bad; i++)
            bad = sum[i] != NV * p * (p + 1) / 2 + p * (NV * (NV - 1) / 2) +
                                NV * p * (double)(i % 3);
        if (bad)
            fprintf(stderr, "treered: wrong sum at %ld on P = %d\n", i - 1, size);
        printf("treered_p %d %.6e\n", size, t);
    }
    free(loc);
    free(sum);
    free(buf);
    MPI_Finalize();
    return 0;
}
