/* radix: a least-significant-digit radix sort of N random 32-bit keys on one
 * rank (held-out data, never used to choose the selection): four passes of
 * 8 bits, each a histogram of 256 counts, their prefix sums and a scatter of
 * the keys into a second array (then the two arrays swap). 4 N reads and
 * 4 N scattered writes into 256 moving places, over the 8 N bytes of the two
 * arrays that leave L1 (N = 2^12), L2 (2^17), the shared L3 (2^22), then
 * only DRAM. Usage:
 *   radix N...   prints "radix_n N seconds" for each N.
 * The keys are drawn once per N with a fixed seed; before each iteration a
 * saved copy is restored (not timed), so every iteration sorts the same
 * random order. Times are the least of one sort: on a machine shared with
 * other programs, other work only adds time. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

static volatile uint32_t sink;

/* Sorts v[0..n-1] with tmp[0..n-1] beside it; four passes, so the sorted
 * keys end in v. */
static void radixsort(uint32_t *restrict v, uint32_t *restrict tmp, long n)
{
    long count[256], i, sum;
    int pass, d;
    uint32_t *src = v, *dst = tmp, *s;

    for (pass = 0; pass < 4; pass++) {
        int shift = 8 * pass;
        memset(count, 0, sizeof count);
        for (i = 0; i < n; i++)
            count[(src[i] >> shift) & 255]++;
        for (sum = 0, d = 0; d < 256; d++) {
            long c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (i = 0; i < n; i++)
            dst[count[(src[i] >> shift) & 255]++] = src[i];
        s = src;
        src = dst;
        dst = s;
    }
}

static double sorted(long n)
{
    long k = 30000000L / (n * 8 + 1000), i;
    int iters = k < 3 ? 3 : k > 2000 ? 2000 : (int)k, it;
    uint32_t *v = malloc((size_t)n * sizeof *v), *tmp = malloc((size_t)n * sizeof *v),
             *saved = malloc((size_t)n * sizeof *v);
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;
    uint64_t x = 88172645463325252ULL; /* xorshift64, fixed seed */

    if (v == NULL || tmp == NULL || saved == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        saved[i] = (uint32_t)(x >> 32);
        tmp[i] = 0;
    }
    for (it = 0; it < iters; it++) {
        memcpy(v, saved, (size_t)n * sizeof *v);
        t0 = MPI_Wtime();
        radixsort(v, tmp, n);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    for (i = 1; i < n; i++)
        if (v[i - 1] > v[i]) {
            fprintf(stderr, "radix: not sorted at %ld of %ld\n", i, n);
            break;
        }
    sink = v[n / 2];
    free(v);
    free(tmp);
    free(saved);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    return sweep(argc, argv, "radix_n", 1, 1L << 28, 0, sorted);
}
