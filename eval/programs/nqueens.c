/* nqueens: strong scaling of a backtracking search, the count of the
 * placements of 12 queens on a 12 x 12 board that no two attack (held-out
 * data, never used to choose the selection). The search is split by its
 * first two rows: the pairs of columns (c0, c1) of rows 0 and 1 that do not
 * attack each other are numbered and dealt round-robin to the launched P
 * ranks, each rank counting the completions of its pairs by a bitmask
 * depth-first search (subtrees of unequal size: the split is as uneven as
 * the search), the counts summed on rank 0 by MPI_Reduce. Prints
 *   "nqueens_p P seconds"
 * for P ranks (up to 2 have a core each; beyond, they oversubscribe the 2
 * cores). One iteration runs from a barrier through the whole search and
 * the MPI_Reduce to a closing barrier (30 iterations). Check (not timed):
 * every iteration's count on rank 0 is 14200, the known number for 12
 * queens. Times are the least of one iteration (timing.h): on a machine
 * shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define N 12
#define SOLUTIONS 14200L
#define ITERS 30

static long search(unsigned cols, unsigned d1, unsigned d2)
{
    unsigned full = (1u << N) - 1, free_ = full & ~(cols | d1 | d2);
    long n = 0;

    if (cols == full)
        return 1;
    while (free_ != 0) {
        unsigned b = free_ & (0u - free_);
        free_ ^= b;
        n += search(cols | b, (d1 | b) << 1, (d2 | b) >> 1);
    }
    return n;
}

/* The completions of the pairs dealt to this rank. */
static long mine(int rank, int size)
{
    long n = 0;
    int c0, c1, k = 0;

    for (c0 = 0; c0 < N; c0++)
        for (c1 = 0; c1 < N; c1++) {
            unsigned b0 = 1u << c0, b1 = 1u << c1;
            if (c1 == c0 || c1 == c0 + 1 || c1 == c0 - 1)
                continue;
            if (k++ % size != rank)
                continue;
            n += search(b0 | b1, ((b0 << 1) | b1) << 1, ((b0 >> 1) | b1) >> 1);
        }
    return n;
}

int main(int argc, char **argv)
{
    int rank, size, it, bad = 0;
    long local, total = 0;
    double ti[ITERS], t0, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    local = mine(rank, size); /* not timed */
    for (it = 0; it < ITERS; it++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        local = mine(rank, size);
        MPI_Reduce(&local, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        ti[it] = MPI_Wtime() - t0;
        if (rank == 0 && total != SOLUTIONS)
            bad = 1;
    }
    t = least(ti, ITERS);
    if (rank == 0) {
        if (bad) {
            fprintf(stderr, "nqueens: P %d: %ld placements, not %ld\n", size, total,
                    SOLUTIONS);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        printf("nqueens_p %d %.6e\n", size, t);
    }
    MPI_Finalize();
    return 0;
}
