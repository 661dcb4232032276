/* strided_ns: the sum of n doubles read with a stride of s doubles, a[0] +
 * a[s] + ... + a[(n - 1) s], from an array of n s doubles on one rank,
 * pinned, over two variables, the count n and the stride s (held-out data
 * of heldout17, a two-variable grid, never used to choose the selection):
 * one accumulator, in order; 8 n bytes used out of 8 n s bytes spanned.
 * Usage:
 *   strided_ns N1,N2,... S1,S2,...   prints "strided_ns n s seconds" for
 *                                    every n and s of the two lists
 *                                    (n s <= 2^25 doubles, 256 MiB).
 * The array (small integers, so that the sum is exact) is allocated and
 * written once per configuration (not timed) and one sum runs untimed
 * first. A sample times r back-to-back sums (r doubled from 1 until r sums
 * take at least 50 us) and counts as the time of one, the sample's time
 * over r; the samples (enough for about 0.2 s, at least 5, at most 2000)
 * follow. Check (not timed): the sum against its value computed from the
 * indices. Times are the least of one sum (timing.h): on a machine shared
 * with other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXSAMPLES 2000
#define MAXLEN (1L << 25)

static volatile double sink;

static double sum(const double *restrict a, long n, long s)
{
    double x = 0;
    long i;

    for (i = 0; i < n; i++)
        x += a[i * s];
    return x;
}

static double timed(long n, long s)
{
    double *a = malloc((size_t)(n * s) * sizeof *a);
    double *ti = malloc(MAXSAMPLES * sizeof *ti), t0, t, x = 0, want = 0;
    long i, k, r = 1, target;
    int samples, q;

    if (a == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n * s; i++)
        a[i] = (double)(i % 17);
    x = sum(a, n, s); /* not timed */
    for (;;) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            x += sum(a, n, s);
        t = MPI_Wtime() - t0;
        if (t >= 50e-6 || r >= (1L << 20))
            break;
        r *= 2;
    }
    target = (long)(0.2 / (t > 1e-9 ? t : 1e-9)) + 1;
    samples = (int)(target < 5 ? 5 : target > MAXSAMPLES ? MAXSAMPLES : target);
    for (q = 0; q < samples; q++) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            x += sum(a, n, s);
        ti[q] = (MPI_Wtime() - t0) / (double)r;
    }
    t = least(ti, samples);
    for (i = 0; i < n; i++)
        want += (double)(i * s % 17);
    if (sum(a, n, s) != want)
        fprintf(stderr, "strided_ns: n %ld s %ld: wrong sum\n", n, s);
    sink = x;
    free(a);
    free(ti);
    return t;
}

/* The pairs the program takes. */
static int fits(long n, long s)
{
    return n * s <= MAXLEN;
}

int main(int argc, char **argv)
{
    return grid(argc, argv, "strided_ns", 1, MAXLEN, 1, MAXLEN, fits, timed);
}
