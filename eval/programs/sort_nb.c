/* sort_nb: sorting N records with the C library's qsort on one rank,
 * pinned, over two variables, the number of records N and the record size
 * b in bytes (held-out data of heldout15, a two-variable grid, never used to
 * choose the selection): the key is a record's first 8 bytes, a random
 * 64-bit value (xorshift64, a fixed seed per configuration) compared as an
 * unsigned integer; the other b - 8 bytes are payload, moved with the key.
 * Usage:
 *   sort_nb N1,N2,... B1,B2,...   prints "sort_nb N b seconds" for every N
 *                                 and b of the two lists (b a multiple of 8,
 *                                 8 ... 4096; N b <= 1 GiB).
 * Before every sort the keys are drawn afresh (not timed; the payload is
 * written once), so every sort sees new random data; one sort runs untimed
 * first, and its time sets the number of timed sorts (enough for about
 * 0.2 s of sorting, at least 3, at most 2000). Check (not timed): the last
 * sort's keys are in order. Times are the least of one sort (timing.h): on
 * a machine shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define MAXSAMPLES 2000

static volatile uint64_t sink;

static int cmp(const void *a, const void *b)
{
    uint64_t x, y;

    memcpy(&x, a, sizeof x);
    memcpy(&y, b, sizeof y);
    return (x > y) - (x < y);
}

static void fill(unsigned char *rec, long n, long b, uint64_t *z)
{
    long i;

    for (i = 0; i < n; i++) {
        *z ^= *z << 13;
        *z ^= *z >> 7;
        *z ^= *z << 17;
        memcpy(rec + i * b, z, sizeof *z);
    }
}

static double timed(long n, long b)
{
    unsigned char *rec = malloc((size_t)(n * b));
    double *ti = malloc(MAXSAMPLES * sizeof *ti), t0, t;
    uint64_t z = 88172645463325252ULL + 7919ULL * (uint64_t)n + (uint64_t)b, x, y;
    long i;
    int samples, s, bad = 0;

    if (rec == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n * b; i++)
        rec[i] = (unsigned char)(i % 251);
    fill(rec, n, b, &z);
    t0 = MPI_Wtime();
    qsort(rec, (size_t)n, (size_t)b, cmp); /* not timed */
    t = MPI_Wtime() - t0;
    samples = (int)(0.2 / (t > 1e-9 ? t : 1e-9)) + 1;
    samples = samples < 3 ? 3 : samples > MAXSAMPLES ? MAXSAMPLES : samples;
    for (s = 0; s < samples; s++) {
        fill(rec, n, b, &z); /* not timed */
        t0 = MPI_Wtime();
        qsort(rec, (size_t)n, (size_t)b, cmp);
        ti[s] = MPI_Wtime() - t0;
    }
    t = least(ti, samples);
    for (i = 1; i < n && !bad; i++) {
        memcpy(&x, rec + (i - 1) * b, sizeof x);
        memcpy(&y, rec + i * b, sizeof y);
        bad = x > y;
    }
    if (bad)
        fprintf(stderr, "sort_nb: N %ld b %ld: not sorted at %ld\n", n, b, i - 1);
    memcpy(&x, rec + (n / 2) * b, sizeof x);
    sink = x;
    free(rec);
    free(ti);
    return t;
}

/* The pairs the program takes. */
static int fits(long n, long b)
{
    return b % 8 == 0 && n * b <= (1L << 30);
}

int main(int argc, char **argv)
{
    return grid(argc, argv, "sort_nb", 2, 1L << 27, 8, 4096, fits, timed);
}
