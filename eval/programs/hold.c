/* hold: the hold model of a discrete-event simulation's event queue, a binary
 * min-heap of n event times (doubles), on one rank, pinned (held-out data,
 * never used to choose the selection; the heap's 8 n bytes, 2 KiB ... 32 MiB
 * over n = 2^8 ... 2^22, leave L1 and L2 and reach the size of L3). Usage:
 *   hold N...   prints "hold_n N seconds" for each N (4 <= N <= 2^24).
 * One hold takes the earliest event (the root), schedules its successor at
 * that time plus an increment drawn uniformly from [0, 2) (xorshift64) in its
 * place and sifts it down: about log2 n levels, a compare of two children
 * and a move at each, the branch on random data. One pass is n holds (the
 * queue's size stays n: steady state), so a pass does about n log2 n steps.
 * The heap is filled with n uniform times in [0, 1) and heapified, and one
 * pass runs before anything is timed. A sample times r back-to-back passes
 * (r doubled from 1 until r passes take at least 50 us) and counts as the
 * time of one, the sample's time over r; the samples (enough for about
 * 0.2 s, at least 3, at most 20000) follow. Check (not timed): the heap
 * property holds everywhere and the earliest time never went back. Times are
 * the least of one pass (timing.h): on a machine shared with other programs,
 * other work only adds time. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXSAMPLES 20000

static volatile double sink;
static uint64_t rng = 88172645463325252ULL; /* xorshift64, fixed seed */
static int backwards;

static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

/* put v at slot i and sift it down */
static void sift(double *h, long n, long i, double v)
{
    for (;;) {
        long c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && h[c + 1] < h[c])
            c++;
        if (!(h[c] < v))
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = v;
}

static void pass(double *h, long n)
{
    long k;

    for (k = 0; k < n; k++) {
        double now = h[0];
        sift(h, n, 0, now + 2.0 * uniform());
        backwards |= h[0] < now;
    }
}

static double timed(long n)
{
    double *h = malloc((size_t)n * sizeof *h), *ti = malloc(MAXSAMPLES * sizeof *ti), t0,
           t;
    long i, r = 1, k, target;
    int samples, s, bad = 0;

    if (h == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n; i++)
        h[i] = uniform();
    for (i = n / 2 - 1; i >= 0; i--) /* heapify */
        sift(h, n, i, h[i]);
    backwards = 0;
    pass(h, n); /* not timed */
    for (;;) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            pass(h, n);
        t = MPI_Wtime() - t0;
        if (t >= 50e-6 || r >= (1L << 20))
            break;
        r *= 2;
    }
    target = (long)(0.2 / (t > 1e-9 ? t : 1e-9)) + 1;
    samples = (int)(target < 3 ? 3 : target > MAXSAMPLES ? MAXSAMPLES : target);
    for (s = 0; s < samples; s++) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            pass(h, n);
        ti[s] = (MPI_Wtime() - t0) / (double)r;
    }
    t = least(ti, samples);
    for (i = 1; i < n && !bad; i++)
        bad = h[(i - 1) / 2] > h[i];
    if (bad || backwards)
        fprintf(stderr, "hold: n %ld: heap property broken near %ld or time went back\n",
                n, i);
    sink = h[n - 1];
    free(h);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    return sweep(argc, argv, "hold_n", 4, 1L << 24, 0, timed);
}
