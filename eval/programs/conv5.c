/* conv5: a 2-D convolution of an N x N image of doubles with a 5 x 5 kernel
 * on one rank, pinned (held-out data, never used to choose the selection):
 * every interior pixel of the output ((N - 4)^2 of them) is the weighted sum
 * of the 25 input pixels around it, 50 flops, the 5 input rows it reads
 * reused along the row (the two images, 16 N^2 bytes, leave L1 at N = 64,
 * L2 at N = 256, L3 at N = 2048). Usage:
 *   conv5 N...   prints "conv5_n N seconds" for each N (16 <= N <= 8192).
 * in[i][j] = (i + 3 j) % 11, weights w[a][b] = 1 + (a + 2 b) % 5 (small
 * integers: exact sums); both images are written (first touch) before
 * anything is timed, the output's border stays 0. A sample times r
 * back-to-back convolutions (r doubled from 1 until r take at least 50 us)
 * and counts as the time of one, the sample's time over r; the samples
 * (enough for about 0.2 s, at least 10, or 5 once the images are 128 MiB or
 * more, at most 20000) follow a convolution that is not timed. Check (not
 * timed): a sample of output pixels against their sums computed again in
 * integers. Times are the least of one convolution (timing.h): on a machine
 * shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXSAMPLES 20000

static volatile double sink;

static double wt[5][5];

static void conv(const double *restrict in, double *restrict out, long n)
{
    long i, j;
    int a, b;

    for (i = 2; i < n - 2; i++)
        for (j = 2; j < n - 2; j++) {
            double s = 0.0;
            for (a = 0; a < 5; a++) {
                const double *row = in + (i + a - 2) * n + j - 2;
                for (b = 0; b < 5; b++)
                    s += wt[a][b] * row[b];
            }
            out[i * n + j] = s;
        }
}

static double timed(long n)
{
    double *in = malloc((size_t)(n * n) * sizeof *in),
           *out = malloc((size_t)(n * n) * sizeof *out),
           *ti = malloc(MAXSAMPLES * sizeof *ti), t0, t;
    long i, j, r = 1, k, target;
    int samples, s, a, b, bad = 0;

    if (in == NULL || out == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (a = 0; a < 5; a++)
        for (b = 0; b < 5; b++)
            wt[a][b] = (double)(1 + (a + 2 * b) % 5);
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            in[i * n + j] = (double)((i + 3 * j) % 11);
            out[i * n + j] = 0.0;
        }
    conv(in, out, n); /* not timed */
    for (;;) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            conv(in, out, n);
        t = MPI_Wtime() - t0;
        if (t >= 50e-6 || r >= (1L << 20))
            break;
        r *= 2;
    }
    target = (long)(0.2 / (t > 1e-9 ? t : 1e-9)) + 1;
    k = 16.0 * (double)n * (double)n >= 128.0 * 1024 * 1024 ? 5 : 10;
    samples = (int)(target < k ? k : target > MAXSAMPLES ? MAXSAMPLES : target);
    for (s = 0; s < samples; s++) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            conv(in, out, n);
        ti[s] = (MPI_Wtime() - t0) / (double)r;
    }
    t = least(ti, samples);
    for (i = 2; i < n - 2 && !bad; i += 1 + n / 29)
        for (j = 2; j < n - 2 && !bad; j += 1 + n / 31) {
            long e = 0;
            for (a = 0; a < 5; a++)
                for (b = 0; b < 5; b++)
                    e += (1 + (a + 2 * b) % 5) * ((i + a - 2 + 3 * (j + b - 2)) % 11);
            bad = out[i * n + j] != (double)e;
        }
    if (bad)
        fprintf(stderr, "conv5: n %ld: wrong pixel near row %ld\n", n, i);
    sink = out[(n / 2) * n + n / 2];
    free(in);
    free(out);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    return sweep(argc, argv, "conv5_n", 16, 8192, 0, timed);
}
