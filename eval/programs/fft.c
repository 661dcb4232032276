/* fft: an iterative radix-2 complex FFT (decimation in time: bit-reversal
 * permutation, then log2 N stages of butterflies) of N complex doubles on one
 * rank (held-out data, never used to choose the selection; 5 N log2 N flops
 * while the 16 N bytes of the array, and the 8 N bytes of its twiddle table,
 * leave L1, L2 and L3, and the strided butterflies of the late stages touch
 * many pages). Usage:
 *   fft N...   prints "fft_n N seconds" for each N (a power of 2).
 * The input is drawn once with a fixed seed and the twiddles are computed
 * once per N; before each iteration a saved copy of the input is restored
 * (not timed), so every iteration transforms the same data. Times are the
 * least of one transform: on a machine shared with other programs, other
 * work only adds time. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

static volatile double sink;

/* In place on a[2 i] + i a[2 i + 1], i < n; w[2 k] + i w[2 k + 1] is
 * exp(-2 pi i k / n), k < n / 2. */
static void fft(double *a, long n, const double *w)
{
    long i, j, bit, len, half, step, k, s;

    for (i = 1, j = 0; i < n; i++) {
        for (bit = n >> 1; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) {
            double re = a[2 * i], im = a[2 * i + 1];
            a[2 * i] = a[2 * j];
            a[2 * i + 1] = a[2 * j + 1];
            a[2 * j] = re;
            a[2 * j + 1] = im;
        }
    }
    for (len = 2; len <= n; len <<= 1) {
        half = len / 2;
        step = n / len;
        for (s = 0; s < n; s += len)
            for (k = 0; k < half; k++) {
                double wr = w[2 * k * step], wi = w[2 * k * step + 1];
                double *u = a + 2 * (s + k), *v = a + 2 * (s + k + half);
                double vr = v[0] * wr - v[1] * wi, vi = v[0] * wi + v[1] * wr;
                v[0] = u[0] - vr;
                v[1] = u[1] - vi;
                u[0] += vr;
                u[1] += vi;
            }
    }
}

static double transformed(long n)
{
    int lg = 0, iters, it;
    long k, i;
    double *a = malloc((size_t)n * 2 * sizeof *a),
           *saved = malloc((size_t)n * 2 * sizeof *a);
    double *w = malloc((size_t)(n / 2 + 1) * 2 * sizeof *w), *ti, t0, t;
    unsigned long long x = 88172645463325252ULL; /* xorshift64, fixed seed */

    while ((1L << lg) < n)
        lg++;
    k = 40000000L / (5 * n * (lg > 0 ? lg : 1) + 1000);
    iters = k < 3 ? 3 : k > 2000 ? 2000 : (int)k;
    ti = malloc((size_t)iters * sizeof *ti);
    if (a == NULL || saved == NULL || w == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < 2 * n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        saved[i] = (double)(x >> 11) / 9007199254740992.0 - 0.5;
    }
    for (i = 0; i < n / 2; i++) {
        w[2 * i] = cos(-2.0 * M_PI * (double)i / (double)n);
        w[2 * i + 1] = sin(-2.0 * M_PI * (double)i / (double)n);
    }
    for (it = 0; it < iters; it++) {
        memcpy(a, saved, (size_t)n * 2 * sizeof *a);
        t0 = MPI_Wtime();
        fft(a, n, w);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    sink = a[n / 2];
    free(a);
    free(saved);
    free(w);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    return sweep(argc, argv, "fft_n", 2, 1L << 30, 1, transformed);
}
