/* conv_nk: the direct 1-D convolution of a signal of n doubles with a
 * kernel of k taps on one rank, pinned, over two variables, n and k
 * (held-out data of heldout16, a two-variable grid, never used to choose
 * the selection): y[i] = sum over j < k of h[j] x[i + j] for i < n, the
 * signal followed by k - 1 zeros, the inner sum in one accumulator (n k
 * multiply-adds, one dependent chain per output). Usage:
 *   conv_nk N1,N2,... K1,K2,...   prints "conv_nk n k seconds" for every n
 *                                 and k of the two lists (n <= 2^26,
 *                                 k <= 4096).
 * The signal and the kernel are written once per configuration (not timed)
 * and one convolution runs untimed first. A sample times r back-to-back
 * convolutions (r doubled from 1 until r convolutions take at least 50 us)
 * and counts as the time of one, the sample's time over r; the samples
 * (enough for about 0.2 s, at least 5, at most 2000) follow. Check (not
 * timed): one output against its sum. Times are the least of one
 * convolution (timing.h): on a machine shared with other programs, other
 * work only adds time. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXSAMPLES 2000

static volatile double sink;

static void convolve(const double *restrict x, const double *restrict h,
                     double *restrict y, long n, long k)
{
    long i, j;

    for (i = 0; i < n; i++) {
        double acc = 0;
        for (j = 0; j < k; j++)
            acc += h[j] * x[i + j];
        y[i] = acc;
    }
}

static double timed(long n, long k)
{
    double *x = malloc((size_t)(n + k - 1) * sizeof *x),
           *h = malloc((size_t)k * sizeof *h), *y = malloc((size_t)n * sizeof *y);
    double *ti = malloc(MAXSAMPLES * sizeof *ti), t0, t, want = 0;
    long i, q, r = 1, target, ci = n / 3;
    int samples, s;

    if (x == NULL || h == NULL || y == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n + k - 1; i++)
        x[i] = i < n ? (double)(i % 23) / 23 - 0.5 : 0;
    for (i = 0; i < k; i++)
        h[i] = (double)(i % 7 + 1) / (double)(7 * k);
    for (i = 0; i < n; i++)
        y[i] = 0;
    convolve(x, h, y, n, k); /* not timed */
    for (;;) {
        t0 = MPI_Wtime();
        for (q = 0; q < r; q++)
            convolve(x, h, y, n, k);
        t = MPI_Wtime() - t0;
        if (t >= 50e-6 || r >= (1L << 20))
            break;
        r *= 2;
    }
    target = (long)(0.2 / (t > 1e-9 ? t : 1e-9)) + 1;
    samples = (int)(target < 5 ? 5 : target > MAXSAMPLES ? MAXSAMPLES : target);
    for (s = 0; s < samples; s++) {
        t0 = MPI_Wtime();
        for (q = 0; q < r; q++)
            convolve(x, h, y, n, k);
        ti[s] = (MPI_Wtime() - t0) / (double)r;
    }
    t = least(ti, samples);
    for (i = 0; i < k; i++)
        want += h[i] * x[ci + i];
    if (fabs(y[ci] - want) > 1e-12 * (1 + fabs(want)))
        fprintf(stderr, "conv_nk: n %ld k %ld: wrong convolution\n", n, k);
    sink = y[ci];
    free(x);
    free(h);
    free(y);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    return grid(argc, argv, "conv_nk", 1, 1L << 26, 1, 4096, NULL, timed);
}
