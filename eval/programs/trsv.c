/* trsv: the solve of a sparse lower triangular system L x = b in CSR form
 * on one rank, pinned (held-out data, never used to choose the selection):
 * row i of L holds its diagonal, the entry i - 1 and 3 entries at columns
 * drawn uniformly from 0...i - 1 (fewer in the first rows), so the solve
 * reads x at random places behind the row (a forward substitution, one row
 * after the other). About 5 N nonzeros: 12 bytes each, with x, b and the
 * row pointers about 84 N bytes (340 KiB at N = 2^12, 21 MiB at
 * N = 2^18, past L2). Usage:
 *   trsv N...   prints "trsv_n N seconds" for each N (2^8 <= N <= 2^22).
 * The off-diagonal entries are in [-0.5, 0.5) and each diagonal entry is 1
 * plus the sum of its row's magnitudes, with a fixed seed per N; b is drawn
 * likewise; written before anything is timed. A solve overwrites x only,
 * so the solves follow one another (timing.h's least_pass, about 0.2 s of
 * samples). Check (not timed): the residual max |b - L x| is below 1e-12
 * max |b|. Times are the least of one solve (timing.h): on a machine shared
 * with other programs, other work only adds time. */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define OFF 4 /* off-diagonal entries per row, at most */

struct csr {
    long n;
    long *ptr; /* n + 1; the diagonal is each row's last entry */
    int *col;
    double *val, *x, *b;
};

static void solve(void *arg)
{
    struct csr *m = arg;
    long i, k;

    for (i = 0; i < m->n; i++) {
        double s = m->b[i];
        long last = m->ptr[i + 1] - 1;
        for (k = m->ptr[i]; k < last; k++)
            s -= m->val[k] * m->x[m->col[k]];
        m->x[i] = s / m->val[last];
    }
}

static double timed(long n)
{
    struct csr m;
    uint64_t s = 88172645463325252ULL + (uint64_t)n;
    long i, k, nz = 0;
    double t, r = 0, bmax = 0;
    int c;

    m.n = n;
    m.ptr = malloc((size_t)(n + 1) * sizeof *m.ptr);
    m.col = malloc((size_t)n * (OFF + 1) * sizeof *m.col);
    m.val = malloc((size_t)n * (OFF + 1) * sizeof *m.val);
    m.x = malloc((size_t)n * sizeof *m.x);
    m.b = malloc((size_t)n * sizeof *m.b);
    if (m.ptr == NULL || m.col == NULL || m.val == NULL || m.x == NULL || m.b == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n; i++) {
        double d = 1.0;
        m.ptr[i] = nz;
        for (c = 0; c < OFF && c < i; c++) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            m.col[nz] = c == 0 ? (int)(i - 1) : (int)((s >> 20) % (uint64_t)i);
            m.val[nz] = (double)(s >> 11) * (1.0 / 9007199254740992.0) - 0.5;
            d += fabs(m.val[nz]);
            nz++;
        }
        m.col[nz] = (int)i;
        m.val[nz++] = d;
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        m.b[i] = (double)(s >> 11) * (1.0 / 9007199254740992.0) - 0.5;
        m.x[i] = 0;
    }
    m.ptr[n] = nz;
    t = least_pass(solve, &m, 0.2);
    for (i = 0; i < n; i++) {
        double e = m.b[i];
        for (k = m.ptr[i]; k < m.ptr[i + 1]; k++)
            e -= m.val[k] * m.x[m.col[k]];
        r = fabs(e) > r ? fabs(e) : r;
        bmax = fabs(m.b[i]) > bmax ? fabs(m.b[i]) : bmax;
    }
    if (!(r <= 1e-12 * bmax)) {
        fprintf(stderr, "trsv: N %ld: the residual is %g\n", n, r);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    free(m.ptr);
    free(m.col);
    free(m.val);
    free(m.x);
    free(m.b);
    return t;
}

int main(int argc, char **argv)
{
    return sweep(argc, argv, "trsv_n", 256, 1L << 22, 0, timed);
}
