/* transpose_mn: the out-of-place transpose B = A^T of an m x n matrix of
 * doubles on one rank, pinned, over two variables, the rows m and the
 * columns n of A (held-out data of heldout16, a two-variable grid, never
 * used to choose the selection): naive loops, row-major, A read along its
 * rows and B written down its columns (stride m doubles), 16 m n bytes
 * moved. Usage:
 *   transpose_mn M1,M2,... N1,N2,...   prints "transpose_mn m n seconds" for
 *                                      every m and n of the two lists
 *                                      (1 ... 16384, m n <= 2^26).
 * A is written and B cleared once per configuration (not timed) and one
 * transpose runs untimed first. A sample times r back-to-back transposes (r
 * doubled from 1 until r transposes take at least 50 us) and counts as the
 * time of one, the sample's time over r; the samples (enough for about
 * 0.2 s, at least 5, at most 2000) follow. Check (not timed): three entries
 * of B against A. Times are the least of one transpose (timing.h): on a
 * machine shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXSAMPLES 2000

static volatile double sink;

static void transpose(const double *restrict a, double *restrict b, long m, long n)
{
    long i, j;

    for (i = 0; i < m; i++)
        for (j = 0; j < n; j++)
            b[j * m + i] = a[i * n + j];
}

static double timed(long m, long n)
{
    double *a = malloc((size_t)(m * n) * sizeof *a),
           *b = malloc((size_t)(m * n) * sizeof *b);
    double *ti = malloc(MAXSAMPLES * sizeof *ti), t0, t;
    long i, k, r = 1, target;
    const long ci[3] = {0, m / 3, m - 1}, cj[3] = {n - 1, n / 2, 0};
    int samples, s;

    if (a == NULL || b == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < m * n; i++) {
        a[i] = (double)(i % 1009);
        b[i] = 0;
    }
    transpose(a, b, m, n); /* not timed */
    for (;;) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            transpose(a, b, m, n);
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
            transpose(a, b, m, n);
        ti[s] = (MPI_Wtime() - t0) / (double)r;
    }
    t = least(ti, samples);
    for (k = 0; k < 3; k++)
        if (b[cj[k] * m + ci[k]] != a[ci[k] * n + cj[k]])
            fprintf(stderr, "transpose_mn: m %ld n %ld: wrong transpose\n", m, n);
    sink = b[(n / 2) * m + m / 3];
    free(a);
    free(b);
    free(ti);
    return t;
}

/* The pairs the program takes. */
static int fits(long m, long n)
{
    return m * n <= (1L << 26);
}

int main(int argc, char **argv)
{
    return grid(argc, argv, "transpose_mn", 1, 16384, 1, 16384, fits, timed);
}
