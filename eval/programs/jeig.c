/* jeig: one cyclic sweep of the Jacobi eigenvalue method on a dense symmetric
 * N x N matrix on one rank, pinned (held-out data, never used to choose the
 * selection): for every pair p < q in row order (N (N - 1) / 2 of them) a
 * plane rotation chosen to zero A[p][q] is applied from both sides, A' =
 * J^T A J, rows p and q updated along the row and columns p and q down the
 * column (a stride of 8 N bytes) of the full row-major matrix, about 12 N
 * flops per rotation, 6 N^3 per sweep (8 N^2 bytes: 8 KiB at N = 32, 1 MiB
 * at N = 362, the size of L2). Usage:
 *   jeig N...   prints "jeig_n N seconds" for each N (8 <= N <= 2048).
 * A[i][j] = 1 / (1 + |i - j|) off the diagonal and 1 + i on it, written once
 * per N; before each sweep a saved copy is restored (not timed), so every
 * sweep starts from the same matrix. Every rotation is applied, even one
 * with A[p][q] = 0 (then the identity), so the work does not depend on the
 * values. The samples (one sweep each, enough for about 0.2 s, at least 5,
 * at most 20000) follow a sweep that is not timed. Check (not timed): the
 * sweep keeps the trace and shrinks the off-diagonal sum of squares.
 * Times are the least of one sweep (timing.h): on a machine shared with
 * other programs, other work only adds time. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define MAXSAMPLES 20000

static volatile double sink;

static void jsweep(double *restrict a, long n)
{
    long p, q, k;

    for (p = 0; p < n - 1; p++)
        for (q = p + 1; q < n; q++) {
            double apq = a[p * n + q], c = 1.0, s = 0.0;
            double *rp = a + p * n, *rq = a + q * n;
            if (apq != 0.0) {
                double th = (a[q * n + q] - a[p * n + p]) / (2.0 * apq),
                       t = 1.0 / (fabs(th) + sqrt(th * th + 1.0));
                t = th < 0.0 ? -t : t;
                c = 1.0 / sqrt(t * t + 1.0);
                s = t * c;
            }
            for (k = 0; k < n; k++) { /* rows p and q: J^T A */
                double x = rp[k], y = rq[k];
                rp[k] = c * x - s * y;
                rq[k] = s * x + c * y;
            }
            for (k = 0; k < n; k++) { /* columns p and q: (J^T A) J */
                double x = a[k * n + p], y = a[k * n + q];
                a[k * n + p] = c * x - s * y;
                a[k * n + q] = s * x + c * y;
            }
        }
}

static double offdiag(const double *a, long n, double *tr)
{
    double o = 0.0;
    long i, j;

    *tr = 0.0;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            if (i != j)
                o += a[i * n + j] * a[i * n + j];
            else
                *tr += a[i * n + i];
    return o;
}

static double timed(long n)
{
    double *a = malloc((size_t)(n * n) * sizeof *a),
           *a0 = malloc((size_t)(n * n) * sizeof *a0),
           *ti = malloc(MAXSAMPLES * sizeof *ti), t0, t, o0, o1, tr0, tr1;
    long i, j, target;
    int samples, s;

    if (a == NULL || a0 == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            a0[i * n + j] = i == j ? 1.0 + (double)i : 1.0 / (1.0 + (double)labs(i - j));
    memcpy(a, a0, (size_t)(n * n) * sizeof *a);
    t0 = MPI_Wtime();
    jsweep(a, n); /* not timed */
    t = MPI_Wtime() - t0;
    target = (long)(0.2 / (t > 1e-9 ? t : 1e-9)) + 1;
    samples = (int)(target < 5 ? 5 : target > MAXSAMPLES ? MAXSAMPLES : target);
    for (s = 0; s < samples; s++) {
        memcpy(a, a0, (size_t)(n * n) * sizeof *a);
        t0 = MPI_Wtime();
        jsweep(a, n);
        ti[s] = MPI_Wtime() - t0;
    }
    t = least(ti, samples);
    o0 = offdiag(a0, n, &tr0);
    o1 = offdiag(a, n, &tr1);
    if (!(o1 < o0) || fabs(tr1 - tr0) > 1e-9 * tr0)
        fprintf(stderr, "jeig: n %ld: off-diagonal %g -> %g, trace %.15g -> %.15g\n", n,
                o0, o1, tr0, tr1);
    sink = a[n + 1];
    free(a);
    free(a0);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    return sweep(argc, argv, "jeig_n", 8, 2048, 0, timed);
}
