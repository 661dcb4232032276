/* hashins: inserting N random 64-bit keys into an empty open-addressing hash
 * table of 2N slots (linear probing, multiplicative hashing) on one rank
 * (held-out data, never used to choose the selection): N inserts at a load
 * factor up to 1/2, each a random access into a table of 16 N bytes that
 * fits L1 (N = 2^10), L2, L3, then only DRAM (N >= 2^22: 64 MiB and more),
 * with TLB misses once the table spans many pages. Usage:
 *   hashins N...   prints "hash_n N seconds" for each N (a power of 2).
 * The keys are drawn once per N with a fixed seed (non-zero; 0 marks an
 * empty slot); the table is cleared before each iteration (not timed), so
 * every iteration inserts the same keys into the same empty table. Times are
 * the least of one fill of the table: on a machine shared with other
 * programs, other work only adds time. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

static volatile uint64_t sink;

/* Inserts the n keys into tab (mask + 1 slots, a power of 2); returns how
 * many were already there. */
static long inserted(uint64_t *restrict tab, uint64_t mask, const uint64_t *restrict key,
                     long n, int shift)
{
    long i, dup = 0;

    for (i = 0; i < n; i++) {
        uint64_t k = key[i], h = (k * 0x9E3779B97F4A7C15ULL) >> shift;
        while (tab[h] != 0 && tab[h] != k)
            h = (h + 1) & mask;
        dup += tab[h] == k;
        tab[h] = k;
    }
    return dup;
}

static double filled(long n)
{
    int iters, it, lg = 0;
    long k, i, dup = 0;
    size_t slots = 2 * (size_t)n;
    uint64_t *tab = malloc(slots * sizeof *tab), *key = malloc((size_t)n * sizeof *key);
    uint64_t x = 88172645463325252ULL; /* xorshift64, fixed seed */
    double *ti, t0, t;

    while (((size_t)1 << lg) < slots)
        lg++;
    k = 20000000L / (n + 1000);
    iters = k < 3 ? 3 : k > 2000 ? 2000 : (int)k;
    ti = malloc((size_t)iters * sizeof *ti);
    if (tab == NULL || key == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n; i++) {
        do {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
        } while (x == 0);
        key[i] = x;
    }
    for (it = 0; it < iters; it++) {
        memset(tab, 0, slots * sizeof *tab);
        t0 = MPI_Wtime();
        dup += inserted(tab, slots - 1, key, n, 64 - lg);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    sink = tab[slots / 2] + (uint64_t)dup;
    free(tab);
    free(key);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    return sweep(argc, argv, "hash_n", 2, 1L << 28, 1, filled);
}
