/* sortn: the C library's qsort of N random doubles on one rank (held-out
 * data, never used to choose the selection; as N grows the 8 N bytes, and
 * glibc's merge buffer of as many beside them, leave L1 and L2 and reach the
 * size of L3 at N = 2^21). Usage:
 *   sortn N...   prints "qsort_n N seconds" for each N.
 * The doubles are drawn once with a fixed seed; before each iteration a
 * saved copy is restored (not timed), so every iteration sorts the same
 * random order. Times are the least of one qsort call: on a machine shared
 * with other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

static volatile double sink;

static int cmp(const void *p, const void *q)
{
    double a = *(const double *)p, b = *(const double *)q;
    return (a > b) - (a < b);
}

static double sorted(long n)
{
    long k = 30000000L / (n * 20 + 1000), i;
    int iters = k < 3 ? 3 : k > 2000 ? 2000 : (int)k, it;
    double *v = malloc((size_t)n * sizeof *v), *saved = malloc((size_t)n * sizeof *v);
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;
    unsigned long long x = 88172645463325252ULL; /* xorshift64, fixed seed */

    if (v == NULL || saved == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        saved[i] = (double)(x >> 11) / 9007199254740992.0;
    }
    for (it = 0; it < iters; it++) {
        memcpy(v, saved, (size_t)n * sizeof *v);
        t0 = MPI_Wtime();
        qsort(v, (size_t)n, sizeof *v, cmp);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    sink = v[n / 2];
    free(v);
    free(saved);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    return sweep(argc, argv, "qsort_n", 1, 1L << 30, 0, sorted);
}
