/* blockmm_nb: the cache-blocked dense matrix product C += A B of n x n
 * doubles on one rank, pinned, over two variables, the order n and the
 * block size b (held-out data of heldout17, a two-variable grid, never used
 * to choose the selection): row-major, loops over b x b blocks in the order
 * i-block, k-block, j-block, and within a block pair i-k-j loops (C's row
 * updated by A[i][k] times B's row); blocks at the ends are cut short where
 * b does not divide n, and b >= n is the unblocked i-k-j product. 2 n^3
 * flops. Usage:
 *   blockmm_nb N1,N2,... B1,B2,...   prints "blockmm_nb n b seconds" for
 *                                    every n and b of the two lists
 *                                    (1 <= n <= 4096, 1 <= b <= 4096).
 * A and B (small integers, so that every sum is exact) are written and C
 * cleared once per configuration (not timed) and one product runs untimed
 * first. A sample times r back-to-back products (r doubled from 1 until r
 * products take at least 50 us) and counts as the time of one, the
 * sample's time over r; the samples (enough for about 0.2 s, at least 3, at
 * most 2000) follow. Check (not timed): three entries of C against the
 * number of products times the dot product of A's row and B's column.
 * Times are the least of one product (timing.h): on a machine shared with
 * other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXSAMPLES 2000

static volatile double sink;

static void product(const double *restrict a, const double *restrict b,
                    double *restrict c, long n, long bs)
{
    long ii, kk, jj, i, k, j;

    for (ii = 0; ii < n; ii += bs) {
        long ie = ii + bs < n ? ii + bs : n;
        for (kk = 0; kk < n; kk += bs) {
            long ke = kk + bs < n ? kk + bs : n;
            for (jj = 0; jj < n; jj += bs) {
                long je = jj + bs < n ? jj + bs : n;
                for (i = ii; i < ie; i++)
                    for (k = kk; k < ke; k++) {
                        double aik = a[i * n + k];
                        for (j = jj; j < je; j++)
                            c[i * n + j] += aik * b[k * n + j];
                    }
            }
        }
    }
}

static double timed(long n, long bs)
{
    double *a = malloc((size_t)(n * n) * sizeof *a),
           *b = malloc((size_t)(n * n) * sizeof *b),
           *c = malloc((size_t)(n * n) * sizeof *c);
    double *ti = malloc(MAXSAMPLES * sizeof *ti), t0, t;
    long i, j, k, r = 1, target, done = 0;
    const long ci[3] = {0, n / 3, n - 1}, cj[3] = {n - 1, n / 2, 0};
    int samples, s;

    if (a == NULL || b == NULL || c == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            a[i * n + j] = (double)((i + 2 * j) % 5 - 2);
            b[i * n + j] = (double)((3 * i + j) % 7 - 3);
            c[i * n + j] = 0;
        }
    product(a, b, c, n, bs); /* not timed */
    done++;
    for (;;) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            product(a, b, c, n, bs);
        t = MPI_Wtime() - t0;
        done += r;
        if (t >= 50e-6 || r >= (1L << 20))
            break;
        r *= 2;
    }
    target = (long)(0.2 / (t > 1e-9 ? t : 1e-9)) + 1;
    samples = (int)(target < 3 ? 3 : target > MAXSAMPLES ? MAXSAMPLES : target);
    for (s = 0; s < samples; s++) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            product(a, b, c, n, bs);
        ti[s] = (MPI_Wtime() - t0) / (double)r;
    }
    done += (long)samples * r;
    t = least(ti, samples);
    for (k = 0; k < 3; k++) {
        double dot = 0;
        for (j = 0; j < n; j++)
            dot += a[ci[k] * n + j] * b[j * n + cj[k]];
        if (c[ci[k] * n + cj[k]] != (double)done * dot)
            fprintf(stderr, "blockmm_nb: n %ld b %ld: wrong product\n", n, bs);
    }
    sink = c[(n / 2) * n + n / 3];
    free(a);
    free(b);
    free(c);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    return grid(argc, argv, "blockmm_nb", 1, 4096, 1, 4096, NULL, timed);
}
