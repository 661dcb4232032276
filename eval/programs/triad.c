/* triad: the STREAM triad a[i] = b[i] + s * c[i] over doubles (held-out data,
 * never used to choose the selection; its sweeps cross regime changes).
 * Usage:
 *   triad n N...   prints "triad_n N seconds" for each array length N (one
 *                  rank, pinned: 24 N bytes move through L1, L2, L3 and DRAM
 *                  as N grows);
 *   triad p        prints "triad_p P seconds": strong scaling of a triad of
 *                  2^24 elements in all, split over the launched P ranks
 *                  (memory bandwidth saturates on the 2 cores, ranks beyond
 *                  2 oversubscribe them).
 * One iteration is one pass over the arrays; with triad p it runs from a
 * barrier to the next, so it lasts until the slowest rank is done. Times are
 * the least of one iteration (the slowest rank's time of each): on a machine
 * shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

static volatile double sink;

static double triad(long n, int sync)
{
    long k = 40000000L / (n + 256), i;
    int iters = k < 10 ? 10 : k > 5000 ? 5000 : (int)k, it;
    double *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
    double *c = malloc((size_t)n * sizeof *c), *ti = malloc((size_t)iters * sizeof *ti);
    double s = 3.0, t0, t;

    if (a == NULL || b == NULL || c == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n; i++) {
        a[i] = 0.0;
        b[i] = (double)(i % 13);
        c[i] = (double)(i % 7);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        if (sync)
            MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        for (i = 0; i < n; i++)
            a[i] = b[i] + s * c[i];
        if (sync)
            MPI_Barrier(MPI_COMM_WORLD);
        ti[it] = MPI_Wtime() - t0;
        s = 3.0 - s; /* a differs from one pass to the next */
    }
    t = least(ti, iters);
    sink = a[n / 2];
    free(a);
    free(b);
    free(c);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    int rank, size, k;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && strcmp(argv[1], "n") == 0) {
        for (k = 2; k < argc; k++) {
            long n = strtol(argv[k], NULL, 10);
            double t = triad(n > 0 ? n : 1, 0);
            if (rank == 0)
                printf("triad_n %ld %.6e\n", n, t);
        }
    } else {
        double t = triad((1L << 24) / size, 1);
        if (rank == 0)
            printf("triad_p %d %.6e\n", size, t);
    }
    MPI_Finalize();
    return 0;
}
