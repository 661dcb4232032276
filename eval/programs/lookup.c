/* lookup: binary search of random keys in a sorted table of N ints on one
 * rank (held-out data, never used to choose the selection; each search makes
 * about log2 N dependent loads, branch-free, so one iteration costs about
 * log2 N times a load latency that steps up as the 4 N bytes of the table
 * leave L1, L2 and L3 and the pages leave the TLB). Usage:
 *   lookup N...   prints "lookup_n N seconds" for each N.
 * One iteration is a fixed number of searches (LOOKUPS) for keys drawn
 * inside the timed loop by a xorshift64 generator that runs on across
 * iterations, so no two iterations search the same keys (the cost of drawing
 * a key is a few instructions beside the search). Times are the least of one
 * iteration: on a machine shared with other programs, other work only adds
 * time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define LOOKUPS 8192
#define ITERS 60

static volatile long sink;

static double searched(long n)
{
    int *tab = malloc((size_t)n * sizeof *tab), it;
    double ti[ITERS], t0, t;
    unsigned long long x = 88172645463325252ULL; /* xorshift64, fixed seed */
    long i, found = 0;

    if (tab == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n; i++)
        tab[i] = (int)(2 * i); /* the even numbers: half the keys are found */
    for (it = 0; it < ITERS; it++) {
        t0 = MPI_Wtime();
        for (i = 0; i < LOOKUPS; i++) {
            const int *base = tab;
            long len = n;
            int key;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            key = (int)((x >> 11) % (unsigned long long)(2 * n));
            while (len > 1) {
                long half = len / 2;
                base = base[half] <= key ? base + half : base;
                len -= half;
            }
            found += *base == key;
        }
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, ITERS);
    sink = found;
    free(tab);
    return t;
}

int main(int argc, char **argv)
{
    return sweep(argc, argv, "lookup_n", 1, 1L << 30, 0, searched);
}
