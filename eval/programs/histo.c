/* histo: strong scaling of a parallel histogram (held-out data, never used to
 * choose the selection): 2^23 random 32-bit keys in all, split as evenly as
 * possible over the launched P ranks, each rank counting its keys into 65536
 * bins of its own (the key's top 16 bits; 256 KiB of ints, in L2), the
 * counts summed on rank 0 by MPI_Reduce of all 65536 bins. Prints
 *   "histo_p P seconds".
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. The keys are drawn once per rank (not timed) with a seed of its
 * own. One iteration runs from a barrier through clearing the bins, counting
 * and the MPI_Reduce to a closing barrier. Check (not timed): the bins on
 * rank 0 add up to 2^23. Times are the least of one iteration (the slowest
 * rank's time of each): on a machine shared with other programs, other work
 * only adds time. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define KEYS (1L << 23) /* in all */
#define BINS 65536
#define ITERS 40

int main(int argc, char **argv)
{
    int rank, size, it, bad = 0;
    long mine, i;
    uint32_t *keys;
    int *bins, *tot;
    uint64_t x;
    double ti[ITERS], t0, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mine = KEYS / size + (rank < KEYS % size);
    keys = malloc((size_t)mine * sizeof *keys);
    bins = malloc(BINS * sizeof *bins);
    tot = malloc(BINS * sizeof *tot);
    if (keys == NULL || bins == NULL || tot == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    x = 88172645463325252ULL + 7919ULL * (uint64_t)rank; /* xorshift64 */
    for (i = 0; i < mine; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        keys[i] = (uint32_t)(x >> 32);
    }
    memset(tot, 0, BINS * sizeof *tot);
    for (it = 0; it < ITERS; it++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        memset(bins, 0, BINS * sizeof *bins);
        for (i = 0; i < mine; i++)
            bins[keys[i] >> 16]++;
        MPI_Reduce(bins, tot, BINS, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, ITERS);
    if (rank == 0) {
        long s = 0;
        for (i = 0; i < BINS; i++)
            s += tot[i];
        bad = s != KEYS;
        if (bad)
            fprintf(stderr, "histo: the bins hold %ld keys, not %ld\n", s, KEYS);
        printf("histo_p %d %.6e\n", size, t);
    }
    free(keys);
    free(bins);
    free(tot);
    MPI_Finalize();
    return 0;
}
