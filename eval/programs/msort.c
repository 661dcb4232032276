/* msort: a bottom-up merge sort of N random doubles on one rank (held-out
 * data, never used to choose the selection): runs of 1, 2, 4, ... merged
 * pairwise between two arrays, ceil(log2 N) passes of N moves each, every
 * comparison a branch on random data. The 16 N bytes of the two arrays leave
 * L1 (N = 2^12), L2 (2^17) and the shared L3 (2^21). Usage:
 *   msort N...   prints "mergesort_n N seconds" for each N.
 * Before each iteration (not timed) new keys are drawn from a xorshift64
 * stream with a fixed seed, so every iteration sorts a different random
 * order: sorting the same order again and again, the branch predictor here
 * learned the comparisons of N <= 2^13 (a first measurement, discarded,
 * showed 1 ns per move up to 2^12 and 3.4 ns at 2^13 against 4.7...5.2 ns
 * beyond). Times are the least of one sort: on a machine shared with other
 * programs, other work only adds time. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

static volatile double sink;

/* Merges src[lo..mid-1] and src[mid..hi-1] into dst[lo..hi-1]. */
static void merge(const double *restrict src, double *restrict dst, long lo, long mid,
                  long hi)
{
    long i = lo, j = mid, k = lo;

    while (i < mid && j < hi)
        dst[k++] = src[j] < src[i] ? src[j++] : src[i++];
    while (i < mid)
        dst[k++] = src[i++];
    while (j < hi)
        dst[k++] = src[j++];
}

/* Sorts v[0..n-1] with tmp[0..n-1] beside it; returns the array that holds
 * the sorted keys (v or tmp). */
static double *mergesort(double *v, double *tmp, long n)
{
    long w, lo;
    double *src = v, *dst = tmp, *s;

    for (w = 1; w < n; w *= 2) {
        for (lo = 0; lo < n; lo += 2 * w) {
            long mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            merge(src, dst, lo, mid, hi);
        }
        s = src;
        src = dst;
        dst = s;
    }
    return src;
}

static double sorted(long n)
{
    long k = 30000000L / (n * 16 + 1000), i;
    int iters = k < 3 ? 3 : k > 2000 ? 2000 : (int)k, it;
    double *v = malloc((size_t)n * sizeof *v), *tmp = malloc((size_t)n * sizeof *v),
           *r = v, sum = 0.0, rsum = 0.0;
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;
    uint64_t x = 88172645463325252ULL; /* xorshift64, fixed seed */

    if (v == NULL || tmp == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n; i++)
        tmp[i] = 0.0;
    for (it = 0; it < iters; it++) {
        for (sum = 0.0, i = 0; i < n; i++) { /* new keys, not timed */
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            v[i] = (double)(x >> 11) / 9007199254740992.0; /* [0, 1), exact */
            sum += v[i];
        }
        t0 = MPI_Wtime();
        r = mergesort(v, tmp, n);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    for (i = 0; i < n; i++) {
        if (i > 0 && r[i - 1] > r[i]) {
            fprintf(stderr, "msort: not sorted at %ld of %ld\n", i, n);
            break;
        }
        rsum += r[i];
    }
    /* the last iteration's keys in another order: the sums differ only by
     * rounding */
    if (rsum < sum * (1 - 1e-9) || rsum > sum * (1 + 1e-9))
        fprintf(stderr, "msort: keys sum to %.17g, not %.17g\n", rsum, sum);
    sink = r[n / 2];
    free(v);
    free(tmp);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    return sweep(argc, argv, "mergesort_n", 2, 1L << 26, 0, sorted);
}
