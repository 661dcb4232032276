/* banded: the solve of a banded linear system A x = b of order N with
 * half-bandwidth K = 8 on one rank, pinned (held-out data, never used to
 * choose the selection): Gaussian elimination without pivoting in band
 * storage (row i keeps columns i - K...i + K, 17 doubles), then forward and
 * back substitution, about 2 K^2 N flops (136 N bytes of band: 544 KiB at
 * N = 2^12, 34 MiB at N = 2^18, past L2). Usage:
 *   banded N...   prints "banded_n N seconds" for each N (64 <= N <= 2^22).
 * The entries off the diagonal are in [-0.5, 0.5) and each diagonal entry
 * is 1 plus the sum of its row's magnitudes (diagonally dominant: no pivot
 * is needed), b likewise, with a fixed seed per N, written before anything
 * is timed. One solve copies the band and b into the arrays it overwrites
 * (memcpy, 144 N bytes, against about 290 N flops), factors and solves
 * (timing.h's least_pass, about 0.2 s of samples). Check (not timed): the
 * residual max |b - A x| with the original band is below 1e-12 max |b|.
 * Times are the least of one solve (timing.h): on a machine shared with
 * other programs, other work only adds time. */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define K 8
#define W (2 * K + 1)
/* Entry (i, j), |i - j| <= K, of a band. */
#define AB(a, i, j) (a)[(long)(i)*W + (j) - (i) + K]

struct band {
    long n;
    double *a0, *b0; /* the system */
    double *a, *x;   /* overwritten by the solve */
};

static void solve(void *arg)
{
    struct band *s = arg;
    double *a = s->a, *x = s->x;
    long n = s->n, i, j, k, hi;

    memcpy(a, s->a0, (size_t)n * W * sizeof *a);
    memcpy(x, s->b0, (size_t)n * sizeof *x);
    for (k = 0; k < n; k++) {
        double p = AB(a, k, k);
        hi = k + K < n - 1 ? k + K : n - 1;
        for (i = k + 1; i <= hi; i++) {
            double l = AB(a, i, k) / p;
            AB(a, i, k) = l;
            for (j = k + 1; j <= hi; j++)
                AB(a, i, j) -= l * AB(a, k, j);
            x[i] -= l * x[k];
        }
    }
    for (k = n - 1; k >= 0; k--) {
        double v = x[k];
        hi = k + K < n - 1 ? k + K : n - 1;
        for (j = k + 1; j <= hi; j++)
            v -= AB(a, k, j) * x[j];
        x[k] = v / AB(a, k, k);
    }
}

static double timed(long n)
{
    struct band s;
    uint64_t r = 88172645463325252ULL + (uint64_t)n;
    long i, j;
    double t, res = 0, bmax = 0;

    s.n = n;
    s.a0 = calloc((size_t)n * W, sizeof *s.a0);
    s.b0 = malloc((size_t)n * sizeof *s.b0);
    s.a = malloc((size_t)n * W * sizeof *s.a);
    s.x = malloc((size_t)n * sizeof *s.x);
    if (s.a0 == NULL || s.b0 == NULL || s.a == NULL || s.x == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n; i++) {
        double d = 1.0;
        for (j = i - K; j <= i + K + 1; j++) {
            double v;
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            v = (double)(r >> 11) * (1.0 / 9007199254740992.0) - 0.5;
            if (j == i + K + 1)
                s.b0[i] = v;
            else if (j != i && j >= 0 && j < n) {
                AB(s.a0, i, j) = v;
                d += fabs(v);
            }
        }
        AB(s.a0, i, i) = d;
    }
    t = least_pass(solve, &s, 0.2);
    for (i = 0; i < n; i++) {
        double e = s.b0[i];
        for (j = i - K; j <= i + K; j++)
            if (j >= 0 && j < n)
                e -= AB(s.a0, i, j) * s.x[j];
        res = fabs(e) > res ? fabs(e) : res;
        bmax = fabs(s.b0[i]) > bmax ? fabs(s.b0[i]) : bmax;
    }
    if (!(res <= 1e-12 * bmax)) {
        fprintf(stderr, "banded: N %ld: the residual is %g\n", n, res);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    free(s.a0);
    free(s.b0);
    free(s.a);
    free(s.x);
    return t;
}

int main(int argc, char **argv)
{
    return sweep(argc, argv, "banded_n", 64, 1L << 22, 0, timed);
}
