/* histsort_nb: one pass of a counting sort of n random 32-bit keys on one
 * rank, pinned, over two variables, the number of keys n and the bits b of
 * the digit sorted on (2^b buckets) (held-out data of heldout16, a
 * two-variable grid, never used to choose the selection): the counts are
 * cleared, a histogram of the keys' low b bits is taken in one pass, turned
 * into bucket starts by an exclusive prefix sum over the 2^b buckets, and
 * every key is scattered to its bucket in a second array (stable, out of
 * place); n + 2^b steps, 4 n bytes read twice and written once at up to 2^b
 * places at a time. Usage:
 *   histsort_nb N1,N2,... B1,B2,...   prints "histsort_nb n b seconds" for
 *                                     every n and b of the two lists
 *                                     (n <= 2^28, 1 <= b <= 24).
 * The keys (xorshift64, a fixed seed per configuration) are drawn once per
 * configuration (not timed); the sort leaves them unchanged, and one sort
 * runs untimed first. A sample times r back-to-back sorts (r doubled from 1
 * until r sorts take at least 50 us) and counts as the time of one, the
 * sample's time over r; the samples (enough for about 0.2 s, at least 5, at
 * most 2000) follow. Check (not timed): the output's digits are in order
 * and its keys sum to the input's. Times are the least of one sort
 * (timing.h): on a machine shared with other programs, other work only adds
 * time. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define MAXSAMPLES 2000

static volatile uint32_t sink;

static void sort(const uint32_t *restrict in, uint32_t *restrict out,
                 uint32_t *restrict count, long n, int b)
{
    uint32_t mask = (1U << b) - 1, sum = 0, c;
    long i, buckets = 1L << b;

    memset(count, 0, (size_t)buckets * sizeof *count);
    for (i = 0; i < n; i++)
        count[in[i] & mask]++;
    for (i = 0; i < buckets; i++) {
        c = count[i];
        count[i] = sum;
        sum += c;
    }
    for (i = 0; i < n; i++)
        out[count[in[i] & mask]++] = in[i];
}

static double timed(long n, int b)
{
    uint32_t *in = malloc((size_t)n * sizeof *in), *out = malloc((size_t)n * sizeof *out),
             *count = malloc(((size_t)1 << b) * sizeof *count), mask = (1U << b) - 1;
    double *ti = malloc(MAXSAMPLES * sizeof *ti), t0, t;
    uint64_t z = 88172645463325252ULL + 7919ULL * (uint64_t)n + (uint64_t)b, sin = 0,
             sout = 0;
    long i, q, r = 1, target;
    int samples, s, bad = 0;

    if (in == NULL || out == NULL || count == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n; i++) {
        z ^= z << 13;
        z ^= z >> 7;
        z ^= z << 17;
        in[i] = (uint32_t)(z >> 32);
        out[i] = 0;
    }
    sort(in, out, count, n, b); /* not timed */
    for (;;) {
        t0 = MPI_Wtime();
        for (q = 0; q < r; q++)
            sort(in, out, count, n, b);
        t = MPI_Wtime() - t0;
        if (t >= 50e-6 || r >= (1L << 20))
            break;
        r *= 2;
    }
    target = (long)(0.2 / (t > 1e-9 ? t : 1e-9)) + 1;
    samples = (int)(target < 5 ? 5 : target > MAXSAMPLES ? MAXSAMPLES : target);
    for (s = 0; s < samples; s++) {
        t0 = MPI_Wtime();
        for (q = 0; q < r; q++)
            sort(in, out, count, n, b);
        ti[s] = (MPI_Wtime() - t0) / (double)r;
    }
    t = least(ti, samples);
    for (i = 0; i < n; i++) {
        sin += in[i];
        sout += out[i];
        if (i > 0 && (out[i - 1] & mask) > (out[i] & mask))
            bad = 1;
    }
    if (bad || sin != sout)
        fprintf(stderr, "histsort_nb: n %ld b %d: not sorted\n", n, b);
    sink = out[n / 2];
    free(in);
    free(out);
    free(count);
    free(ti);
    return t;
}

static double timed_grid(long n, long b)
{
    return timed(n, (int)b);
}

int main(int argc, char **argv)
{
    return grid(argc, argv, "histsort_nb", 1, 1L << 28, 1, 24, NULL, timed_grid);
}
