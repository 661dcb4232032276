/* memk: memory-bound kernels over the problem size n on one rank, pinned
 * (held-out data, never used to choose the selection; the working sets run
 * from about 16 KiB to 1 GiB, through L1, L2, L3 and DRAM). Usage:
 *   memk CASE N...   prints "CASE N seconds" for each N, CASE one of
 *   copy_n      b[i] = a[i], n doubles each                 16 n bytes
 *   dot_n       s += a[i] * b[i], n doubles each            16 n bytes
 *   sum_n       s += a[i], n doubles                         8 n bytes
 *   stencil1_n  b[i] = (a[i-1] + a[i] + a[i+1]) / 3, as a product by 1/3
 *               (a division would bound it in L1); b[0] = a[0],
 *               b[n-1] = a[n-1]; n doubles each             16 n bytes
 *   jacobi2_n   5-point Jacobi on an n x n grid of doubles into a second
 *               grid (the edges of the second grid stay fixed)  16 n^2 bytes
 *   stride_n    s += a[8 i] for i < n over an array of 8 n doubles (one
 *               double of each 64-byte line; the whole array counts)
 *                                                           64 n bytes
 *   gather_n    s += a[idx[i]], n doubles and a random permutation idx of
 *               n int32 (latency-bound once the table leaves the caches)
 *                                                           12 n bytes
 *   spmv_n      y = A x, A an n x n CSR matrix with 5 nonzeros per row on
 *               the band i-2...i+2 (columns wrapped around mod n, so every
 *               row has 5): values 5 doubles, column indices 5 int32, one
 *               int32 row pointer, x and y one double each per row
 *                                                           80 n (+ 4) bytes
 * The reductions keep 8 (stride_n, gather_n: 4) partial sums, so a chain of
 * dependent additions is not what limits them; the sums go to a volatile
 * sink. Every array is allocated and written (first touch) before anything
 * is timed. One pass is one sweep of the kernel over its data; a sample
 * times r back-to-back passes (r doubled from 1 until r passes take at least
 * 50 us, so the clock's own cost and resolution stay small beside it) and
 * counts as the time of one pass, the sample's time over r. The samples
 * (enough for about 0.2 s, at least 10, or 5 once the working set is 256 MiB
 * or more, at most 20000) follow a pass that is not timed; the answer is
 * the least of them (timing.h): on a machine shared with other programs,
 * other work only adds time. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define MAXSAMPLES 20000

static volatile double sink;

struct data {
    long n;
    double *a, *b, *x, *y;
    int32_t *idx, *col, *row;
};

static void *alloc(size_t bytes)
{
    void *p = malloc(bytes > 0 ? bytes : 1);
    if (p == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    return p;
}

static void copy_pass(struct data *d)
{
    long i, n = d->n;
    const double *a = d->a;
    double *b = d->b;

    for (i = 0; i < n; i++)
        b[i] = a[i];
}

static void dot_pass(struct data *d)
{
    long i, n = d->n;
    const double *a = d->a, *b = d->b;
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;

    for (i = 0; i + 8 <= n; i += 8) {
        s0 += a[i] * b[i];
        s1 += a[i + 1] * b[i + 1];
        s2 += a[i + 2] * b[i + 2];
        s3 += a[i + 3] * b[i + 3];
        s4 += a[i + 4] * b[i + 4];
        s5 += a[i + 5] * b[i + 5];
        s6 += a[i + 6] * b[i + 6];
        s7 += a[i + 7] * b[i + 7];
    }
    for (; i < n; i++)
        s0 += a[i] * b[i];
    sink = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
}

static void sum_pass(struct data *d)
{
    long i, n = d->n;
    const double *a = d->a;
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;

    for (i = 0; i + 8 <= n; i += 8) {
        s0 += a[i];
        s1 += a[i + 1];
        s2 += a[i + 2];
        s3 += a[i + 3];
        s4 += a[i + 4];
        s5 += a[i + 5];
        s6 += a[i + 6];
        s7 += a[i + 7];
    }
    for (; i < n; i++)
        s0 += a[i];
    sink = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
}

static void stencil1_pass(struct data *d)
{
    long i, n = d->n;
    const double *a = d->a, third = 1.0 / 3.0;
    double *b = d->b;

    b[0] = a[0];
    for (i = 1; i < n - 1; i++)
        b[i] = (a[i - 1] + a[i] + a[i + 1]) * third;
    b[n - 1] = a[n - 1];
}

static void jacobi2_pass(struct data *d)
{
    long i, j, n = d->n;
    const double *a = d->a;
    double *b = d->b;

    for (i = 1; i < n - 1; i++)
        for (j = 1; j < n - 1; j++)
            b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] +
                                   a[i * n + j - 1] + a[i * n + j + 1]);
}

static void stride_pass(struct data *d)
{
    long i, n = d->n;
    const double *a = d->a;
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;

    for (i = 0; i + 4 <= n; i += 4) {
        s0 += a[8 * i];
        s1 += a[8 * i + 8];
        s2 += a[8 * i + 16];
        s3 += a[8 * i + 24];
    }
    for (; i < n; i++)
        s0 += a[8 * i];
    sink = (s0 + s1) + (s2 + s3);
}

static void gather_pass(struct data *d)
{
    long i, n = d->n;
    const double *a = d->a;
    const int32_t *idx = d->idx;
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;

    for (i = 0; i + 4 <= n; i += 4) {
        s0 += a[idx[i]];
        s1 += a[idx[i + 1]];
        s2 += a[idx[i + 2]];
        s3 += a[idx[i + 3]];
    }
    for (; i < n; i++)
        s0 += a[idx[i]];
    sink = (s0 + s1) + (s2 + s3);
}

static void spmv_pass(struct data *d)
{
    long i, n = d->n;
    const double *val = d->a, *x = d->x;
    const int32_t *col = d->col, *row = d->row;
    double *y = d->y;

    for (i = 0; i < n; i++) {
        double s = 0.0;
        int32_t k;
        for (k = row[i]; k < row[i + 1]; k++)
            s += val[k] * x[col[k]];
        y[i] = s;
    }
}

static const struct kernel {
    const char *name;
    void (*pass)(struct data *);
    double scale; /* working set in bytes: scale * n^power */
    int power;
    long lo, hi; /* the sizes allowed */
} kernels[] = {
    {"copy_n", copy_pass, 16, 1, 2, 1L << 27},
    {"dot_n", dot_pass, 16, 1, 1, 1L << 27},
    {"sum_n", sum_pass, 8, 1, 1, 1L << 28},
    {"stencil1_n", stencil1_pass, 16, 1, 3, 1L << 27},
    {"jacobi2_n", jacobi2_pass, 16, 2, 3, 1L << 14},
    {"stride_n", stride_pass, 64, 1, 1, 1L << 25},
    {"gather_n", gather_pass, 12, 1, 1, 1L << 28},
    {"spmv_n", spmv_pass, 80, 1, 5, 1L << 26},
};

/* The arrays of kernel kn at size n, allocated and written. */
static void setup(const struct kernel *kn, long n, struct data *d)
{
    long i, m;
    uint64_t r = 88172645463325252ULL; /* xorshift64, fixed seed */

    memset(d, 0, sizeof *d);
    d->n = n;
    if (kn->pass == gather_pass) {
        d->a = alloc((size_t)n * sizeof *d->a);
        d->idx = alloc((size_t)n * sizeof *d->idx);
        for (i = 0; i < n; i++) {
            d->a[i] = (double)(i % 17);
            d->idx[i] = (int32_t)i;
        }
        for (i = n - 1; i > 0; i--) { /* Fisher-Yates */
            long j;
            int32_t t;
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            j = (long)(r % (uint64_t)(i + 1));
            t = d->idx[i];
            d->idx[i] = d->idx[j];
            d->idx[j] = t;
        }
    } else if (kn->pass == spmv_pass) {
        d->a = alloc((size_t)(5 * n) * sizeof *d->a);
        d->col = alloc((size_t)(5 * n) * sizeof *d->col);
        d->row = alloc((size_t)(n + 1) * sizeof *d->row);
        d->x = alloc((size_t)n * sizeof *d->x);
        d->y = alloc((size_t)n * sizeof *d->y);
        for (i = 0; i < n; i++) {
            int k;
            d->row[i] = (int32_t)(5 * i);
            for (k = 0; k < 5; k++) {
                d->col[5 * i + k] = (int32_t)((i + k - 2 + n) % n);
                d->a[5 * i + k] = k == 2 ? 4.0 : -1.0;
            }
            d->x[i] = (double)(i % 11);
            d->y[i] = 0.0;
        }
        d->row[n] = (int32_t)(5 * n);
    } else {
        m = kn->pass == jacobi2_pass ? n * n : kn->pass == stride_pass ? 8 * n : n;
        d->a = alloc((size_t)m * sizeof *d->a);
        for (i = 0; i < m; i++)
            d->a[i] = (double)(i % 13);
        if (kn->pass != sum_pass && kn->pass != stride_pass) {
            d->b = alloc((size_t)m * sizeof *d->b);
            for (i = 0; i < m; i++)
                d->b[i] = (double)(i % 7);
        }
    }
}

static void teardown(struct data *d)
{
    free(d->a);
    free(d->b);
    free(d->x);
    free(d->y);
    free(d->idx);
    free(d->col);
    free(d->row);
}

static double timed(const struct kernel *kn, long n)
{
    struct data d;
    double *ti = alloc(MAXSAMPLES * sizeof *ti), t0, t, bytes = kn->scale * (double)n;
    long r = 1, k, target;
    int samples, s;

    if (kn->power == 2)
        bytes *= (double)n;
    setup(kn, n, &d);
    kn->pass(&d); /* not timed */
    for (;;) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            kn->pass(&d);
        t = MPI_Wtime() - t0;
        if (t >= 50e-6 || r >= (1L << 20))
            break;
        r *= 2;
    }
    target = (long)(0.2 / (t > 1e-9 ? t : 1e-9)) + 1;
    k = bytes >= 256.0 * 1024 * 1024 ? 5 : 10;
    samples = (int)(target < k ? k : target > MAXSAMPLES ? MAXSAMPLES : target);
    for (s = 0; s < samples; s++) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            kn->pass(&d);
        ti[s] = (MPI_Wtime() - t0) / (double)r;
    }
    t = least(ti, samples);
    if (d.y != NULL)
        sink = d.y[n / 2];
    else if (d.b != NULL)
        sink = d.b[n / 2];
    teardown(&d);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    const struct kernel *kn = NULL;
    int rank, k;
    size_t j;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (j = 0; argc > 1 && j < sizeof kernels / sizeof kernels[0]; j++)
        if (strcmp(argv[1], kernels[j].name) == 0)
            kn = &kernels[j];
    if (kn == NULL) {
        if (rank == 0)
            fprintf(stderr, "usage: memk CASE N... (CASE: copy_n dot_n sum_n stencil1_n "
                            "jacobi2_n stride_n gather_n spmv_n)\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (k = 2; k < argc; k++) {
        long n = strtol(argv[k], NULL, 10);
        double t;
        if (n < kn->lo || n > kn->hi)
            MPI_Abort(MPI_COMM_WORLD, 1);
        t = timed(kn, n);
        if (rank == 0)
            printf("%s %ld %.6e\n", kn->name, n, t);
    }
    MPI_Finalize();
    return 0;
}
