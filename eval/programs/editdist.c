/* editdist: the Levenshtein distance of two random strings of length N over
 * a 4-letter alphabet on one rank (held-out data, never used to choose the
 * selection): the N^2 cells of the dynamic programme, each the least of
 * three neighbours plus one, computed row by row in one array of N + 1 ints
 * (4 N bytes, in L1 up to N = 16384: the work, not the memory, grows).
 * Usage:
 *   editdist N...   prints "editdist_n N seconds" for each N.
 * The strings are drawn once per N with a fixed seed. Check (not timed): the
 * distance is symmetric, between N - (matches possible) and N, and a string
 * is at distance 0 from itself and 1 from a copy with one letter changed.
 * Times are the least of one distance: on a machine shared with other
 * programs, other work only adds time. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

static long distance(const char *restrict s, const char *restrict u, long n, int *row)
{
    long i, j;

    for (j = 0; j <= n; j++)
        row[j] = (int)j;
    for (i = 1; i <= n; i++) {
        int diag = row[0], c = s[i - 1];
        row[0] = (int)i;
        for (j = 1; j <= n; j++) {
            int up = row[j], best = diag + (u[j - 1] != c);
            best = up + 1 < best ? up + 1 : best;
            best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
            diag = up;
            row[j] = best;
        }
    }
    return row[n];
}

static double timed(long n)
{
    long k = 200000000L / (n * n + 1000), i, d = 0, d2, d0, d1;
    int iters = k < 3 ? 3 : k > 2000 ? 2000 : (int)k, it;
    char *s = malloc((size_t)n), *u = malloc((size_t)n);
    int *row = malloc((size_t)(n + 1) * sizeof *row);
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;
    uint64_t x = 88172645463325252ULL; /* xorshift64, fixed seed */

    if (s == NULL || u == NULL || row == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        s[i] = (char)('a' + (x >> 62));
        u[i] = (char)('a' + ((x >> 60) & 3));
    }
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        d = distance(s, u, n, row);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    d2 = distance(u, s, n, row);
    d0 = distance(s, s, n, row);
    u[0] = s[0] == 'a' ? 'b' : 'a';
    for (i = 1; i < n; i++)
        u[i] = s[i];
    d1 = distance(s, u, n, row);
    if (d != d2 || d < 1 || d > n || d0 != 0 || d1 != 1)
        fprintf(stderr, "editdist: n %ld: d %ld, swapped %ld, self %ld, one change %ld\n",
                n, d, d2, d0, d1);
    free(s);
    free(u);
    free(row);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    return sweep(argc, argv, "editdist_n", 2, 1L << 16, 0, timed);
}
