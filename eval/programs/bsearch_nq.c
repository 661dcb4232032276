/* bsearch_nq: q binary searches of random keys in a sorted array of n
 * 64-bit keys on one rank, pinned, over two variables, the array's length n
 * and the number of searches q (held-out data of heldout17, a two-variable
 * grid, never used to choose the selection): each search is a lower bound
 * (the first key not less than the one sought) halving a range of n, about
 * log2 n steps each reading one key, and the indices found are summed.
 * Usage:
 *   bsearch_nq N1,N2,... Q1,Q2,...   prints "bsearch_nq n q seconds" for
 *                                    every n and q of the two lists
 *                                    (n <= 2^26, q <= 2^22).
 * For each n, the array (increasing keys, gaps drawn from 1...16 by
 * xorshift64 with a fixed seed) and a pool of 2^22 keys to seek (drawn
 * uniformly from 0 to past the last key) are made once (not timed). A run
 * of q searches seeks the next q keys of the pool, going round it, so that
 * runs back to back seek different keys. One run goes untimed first; a
 * sample times r back-to-back runs (r doubled from 1 until r runs take at
 * least 50 us) and counts as the time of one, the sample's time over r; the
 * samples (enough for about 0.2 s, at least 5, at most 2000) follow. Check
 * (not timed): the index found for 1000 keys of the pool against its
 * neighbours in the array. Times are the least of q searches (timing.h): on
 * a machine shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXSAMPLES 2000
#define POOL (1L << 22)

static volatile long sink;

/* The first index i with a[i] >= key, or n. */
static long lower(const uint64_t *a, long n, uint64_t key)
{
    long lo = 0, len = n;

    while (len > 0) {
        long half = len / 2;
        if (a[lo + half] < key) {
            lo += half + 1;
            len -= half + 1;
        } else {
            len = half;
        }
    }
    return lo;
}

/* q searches of the pool's keys from *at on; the sum of the indices. */
static long run(const uint64_t *a, long n, const uint64_t *keys, long q, long *at)
{
    long i, s = 0, o = *at;

    if (o + q > POOL)
        o = 0;
    for (i = 0; i < q; i++)
        s += lower(a, n, keys[o + i]);
    *at = o + q;
    return s;
}

static double timed(const uint64_t *a, long n, const uint64_t *keys, long q)
{
    double *ti = malloc(MAXSAMPLES * sizeof *ti), t0, t;
    long k, r = 1, target, at = 0, x;
    int samples, s;

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    x = run(a, n, keys, q, &at); /* not timed */
    for (;;) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            x += run(a, n, keys, q, &at);
        t = MPI_Wtime() - t0;
        if (t >= 50e-6 || r >= (1L << 20))
            break;
        r *= 2;
    }
    target = (long)(0.2 / (t > 1e-9 ? t : 1e-9)) + 1;
    samples = (int)(target < 5 ? 5 : target > MAXSAMPLES ? MAXSAMPLES : target);
    for (s = 0; s < samples; s++) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            x += run(a, n, keys, q, &at);
        ti[s] = (MPI_Wtime() - t0) / (double)r;
    }
    t = least(ti, samples);
    sink = x;
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    long ns[GRID_MAX], qs[GRID_MAX], most = 1, i, j;
    int nn, nq, rank, bad;
    uint64_t *a, *keys, z;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    nn = argc == 3 ? grid_list(argv[1], ns, 1, 1L << 26) : -1;
    nq = argc == 3 ? grid_list(argv[2], qs, 1, 1L << 22) : -1;
    if (nn < 0 || nq < 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < nn; i++)
        most = ns[i] > most ? ns[i] : most;
    a = malloc((size_t)most * sizeof *a);
    keys = malloc((size_t)POOL * sizeof *keys);
    if (a == NULL || keys == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < nn; i++) {
        long n = ns[i];
        uint64_t range;
        z = 88172645463325252ULL + 7919ULL * (uint64_t)n;
        for (j = 0; j < n; j++) {
            z ^= z << 13;
            z ^= z >> 7;
            z ^= z << 17;
            a[j] = (j > 0 ? a[j - 1] : 0) + 1 + (z >> 60);
        }
        range = a[n - 1] + 9;
        for (j = 0; j < POOL; j++) {
            z ^= z << 13;
            z ^= z >> 7;
            z ^= z << 17;
            keys[j] = (z >> 11) % range;
        }
        for (j = 0, bad = 0; j < 1000 && !bad; j++) {
            long k = lower(a, n, keys[j]);
            bad = (k < n && a[k] < keys[j]) || (k > 0 && a[k - 1] >= keys[j]);
        }
        if (bad)
            fprintf(stderr, "bsearch_nq: n %ld: wrong search\n", n);
        for (j = 0; j < nq; j++) {
            double t = timed(a, n, keys, qs[j]);
            if (rank == 0)
                printf("bsearch_nq %ld %ld %.6e\n", n, qs[j], t);
        }
    }
    free(a);
    free(keys);
    MPI_Finalize();
    return 0;
}
