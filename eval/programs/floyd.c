/* floyd: the Floyd-Warshall all-pairs shortest paths of a complete directed
 * graph of N vertices on one rank, pinned (held-out data, never used to
 * choose the selection): N^3 relaxations d[i][j] = min(d[i][j], d[i][k] +
 * d[k][j]) over a row-major N x N matrix of ints (4 N^2 bytes: 16 KiB at
 * N = 64, 2 MiB at N = 724, past L2), the loop over j branch-free. Usage:
 *   floyd N...   prints "floyd_n N seconds" for each N (16 <= N <= 2048).
 * The edge weights, 1...1000, are drawn once per N with a fixed seed; the
 * matrix is written (first touch) before anything is timed. Running the
 * algorithm again on its own answer does the same N^3 relaxations, so the
 * passes follow one another with no copy between them. A sample times r
 * back-to-back passes (r doubled from 1 until r passes take at least 50 us)
 * and counts as the time of one, the sample's time over r; the samples
 * (enough for about 0.2 s, at least 5, at most 20000) follow a pass that is
 * not timed. Check (not timed): on a sample of rows, d[i][i] = 0, no
 * distance above its edge's weight, and no shorter path through any vertex
 * k. Times are the least of one pass (timing.h): on a machine shared with
 * other programs, other work only adds time. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXSAMPLES 20000

static volatile int sink;

static void pass(int *restrict d, long n)
{
    long i, j, k;

    for (k = 0; k < n; k++) {
        const int *dk = d + k * n;
        for (i = 0; i < n; i++) {
            int *di = d + i * n, dik = di[k];
            for (j = 0; j < n; j++) {
                int c = dik + dk[j];
                di[j] = c < di[j] ? c : di[j];
            }
        }
    }
}

static double timed(long n)
{
    int *d = malloc((size_t)(n * n) * sizeof *d),
        *w = malloc((size_t)(n * n) * sizeof *w);
    double *ti = malloc(MAXSAMPLES * sizeof *ti), t0, t;
    long i, j, k, r = 1, target;
    int samples, s, bad = 0;
    uint64_t x = 88172645463325252ULL + (uint64_t)n;

    if (d == NULL || w == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            w[i * n + j] = i == j ? 0 : 1 + (int)((x >> 33) % 1000);
            d[i * n + j] = w[i * n + j];
        }
    pass(d, n); /* not timed */
    for (;;) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            pass(d, n);
        t = MPI_Wtime() - t0;
        if (t >= 50e-6 || r >= (1L << 20))
            break;
        r *= 2;
    }
    target = (long)(0.2 / (t > 1e-9 ? t : 1e-9)) + 1;
    samples = (int)(target < 5 ? 5 : target > MAXSAMPLES ? MAXSAMPLES : target);
    for (s = 0; s < samples; s++) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            pass(d, n);
        ti[s] = (MPI_Wtime() - t0) / (double)r;
    }
    t = least(ti, samples);
    for (i = 0; i < n && !bad; i += 1 + n / 17) {
        bad = d[i * n + i] != 0;
        for (j = 0; j < n && !bad; j++) {
            bad = d[i * n + j] > w[i * n + j];
            for (k = 0; k < n && !bad; k++)
                bad = d[i * n + k] + d[k * n + j] < d[i * n + j];
        }
    }
    if (bad)
        fprintf(stderr, "floyd: n %ld: wrong distances near row %ld\n", n, i);
    sink = d[n + 1];
    free(d);
    free(w);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    return sweep(argc, argv, "floyd_n", 16, 2048, 0, timed);
}
