/* bitonic: Batcher's bitonic sorting network on N 32-bit keys on one rank,
 * pinned (held-out data, never used to choose the selection): the
 * iterative network, log2(N) (log2(N) + 1) / 2 stages of N / 2
 * compare-exchanges each, written branch-free (min and max), so the work
 * does not depend on the keys (4 N bytes: 16 KiB at N = 2^12, 4 MiB at
 * N = 2^20, the size of L2). Usage:
 *   bitonic N...   prints "bitonic_n N seconds" for each N, a power of 2
 *                  (2^4 <= N <= 2^24).
 * The keys are drawn once per N with a fixed seed (not timed). One sort
 * copies them into the array it sorts (memcpy, N reads and writes against
 * the network's N log2(N)^2 / 4 compare-exchanges) and sorts it (timing.h's
 * least_pass, about 0.2 s of samples). Check (not timed): the array is in
 * order and holds the drawn keys (the same sum and sum of squares, modulo
 * 2^64). Times are the least of one sort (timing.h): on a machine shared
 * with other programs, other work only adds time. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

struct keys {
    long n;
    uint32_t *src, *a;
};

static void sort(void *arg)
{
    struct keys *k = arg;
    uint32_t *a = k->a;
    long n = k->n, size, stride, i;

    memcpy(a, k->src, (size_t)n * sizeof *a);
    for (size = 2; size <= n; size *= 2)
        for (stride = size / 2; stride > 0; stride /= 2)
            for (i = 0; i < n; i++) {
                long j = i ^ stride;
                if (j > i) {
                    uint32_t x = a[i], y = a[j], lo = x < y ? x : y, hi = x < y ? y : x;
                    int up = (i & size) == 0;
                    a[i] = up ? lo : hi;
                    a[j] = up ? hi : lo;
                }
            }
}

static double timed(long n)
{
    struct keys k;
    uint64_t s = 88172645463325252ULL + (uint64_t)n, s1 = 0, s2 = 0, t1 = 0, t2 = 0;
    long i;
    double t;
    int bad = 0;

    k.n = n;
    k.src = malloc((size_t)n * sizeof *k.src);
    k.a = malloc((size_t)n * sizeof *k.a);
    if (k.src == NULL || k.a == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        k.src[i] = (uint32_t)(s >> 32);
        s1 += k.src[i];
        s2 += (uint64_t)k.src[i] * k.src[i];
    }
    t = least_pass(sort, &k, 0.2);
    for (i = 0; i < n; i++) {
        bad |= i > 0 && k.a[i - 1] > k.a[i];
        t1 += k.a[i];
        t2 += (uint64_t)k.a[i] * k.a[i];
    }
    if (bad || s1 != t1 || s2 != t2) {
        fprintf(stderr,
                "bitonic: N %ld: the keys are out of order or not the drawn ones\n", n);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    free(k.src);
    free(k.a);
    return t;
}

int main(int argc, char **argv)
{
    return sweep(argc, argv, "bitonic_n", 16, 1L << 24, 1, timed);
}
