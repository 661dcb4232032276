/* samplesort: weak scaling of a parallel sort by regular sampling (held-out
 * data, never used to choose the selection): each of the launched P ranks
 * holds 2^17 random doubles (1 MiB), and one iteration sorts all 2^17 P of
 * them across the ranks: each rank sorts its own (qsort), picks P - 1
 * regularly spaced samples of them, MPI_Allgather collects the P (P - 1)
 * samples everywhere, each rank sorts them and takes every (P - 1)-th as the
 * P - 1 splitters, cuts its sorted keys at the splitters (binary search),
 * MPI_Alltoall swaps the counts and MPI_Alltoallv the keys, and each rank
 * merges the P sorted runs it received (pairwise, log2 P rounds). Prints
 *   "ssort_p P seconds".
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. The keys are drawn once per rank with a seed of its own; before
 * each iteration a saved copy is restored (not timed), so every iteration
 * sorts the same keys. One iteration runs from a barrier to a closing
 * barrier. Check (not timed): each rank's keys come out sorted, every rank's
 * last key is at most the next non-empty rank's first, and the count and an
 * exact checksum of all keys are those put in. Times are the least of one
 * iteration (the slowest rank's time of each): on a machine shared with
 * other programs, other work only adds time. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define N (1L << 17) /* keys per rank */
#define ITERS 20

static int cmp(const void *p, const void *q)
{
    double a = *(const double *)p, b = *(const double *)q;
    return (a > b) - (a < b);
}

/* the number of keys of v[0..n-1] (sorted) that are <= s */
static long upto(const double *v, long n, double s)
{
    long lo = 0, hi = n;

    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (v[mid] <= s)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* merges the nr sorted runs of v (run k starts at off[k], off[nr] = the
 * total) pairwise into one, using w as scratch; returns where it ended up */
static double *merge_runs(double *v, double *w, int *off, int nr)
{
    int end = off[nr];

    while (nr > 1) {
        int k, m = 0;
        double *s;
        for (k = 0; k < nr; k += 2) {
            /* runs k and k + 1 into one; an odd run out is copied */
            int lo = off[k], mid = off[k + 1], hi = k + 2 <= nr ? off[k + 2] : mid;
            int i = lo, j = mid, o = lo;
            while (i < mid && j < hi)
                w[o++] = v[j] < v[i] ? v[j++] : v[i++];
            while (i < mid)
                w[o++] = v[i++];
            while (j < hi)
                w[o++] = v[j++];
            off[m++] = lo;
        }
        off[m] = end;
        nr = m;
        s = v;
        v = w;
        w = s;
    }
    return v;
}

static uint64_t keysum(const double *v, long n)
{
    uint64_t s = 0;
    long i;

    for (i = 0; i < n; i++)
        s += (uint64_t)(v[i] * 9007199254740992.0);
    return s;
}

int main(int argc, char **argv)
{
    int rank, size, it, k, bad = 0, total, *scnt, *sdsp, *rcnt, *rdsp, *off;
    long i, got = 0;
    double *saved, *keys, *samp, *all, *spl, *rbuf, *wbuf, *out = NULL, ti[ITERS], t0, t;
    uint64_t x, sum_in, sum_out, sums[2], tot[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    saved = malloc(N * sizeof *saved);
    keys = malloc(N * sizeof *keys);
    samp = malloc((size_t)size * sizeof *samp);
    all = malloc((size_t)size * (size_t)size * sizeof *all);
    spl = malloc((size_t)size * sizeof *spl);
    rbuf = malloc((size_t)size * N * sizeof *rbuf); /* room for every key */
    wbuf = malloc((size_t)size * N * sizeof *wbuf);
    scnt = malloc((size_t)size * sizeof *scnt);
    sdsp = malloc((size_t)size * sizeof *sdsp);
    rcnt = malloc((size_t)size * sizeof *rcnt);
    rdsp = malloc((size_t)(size + 1) * sizeof *rdsp);
    off = malloc((size_t)(size + 1) * sizeof *off);
    if (saved == NULL || keys == NULL || samp == NULL || all == NULL || spl == NULL ||
        rbuf == NULL || wbuf == NULL || scnt == NULL || sdsp == NULL || rcnt == NULL ||
        rdsp == NULL || off == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    x = 88172645463325252ULL + 7919ULL * (uint64_t)rank; /* xorshift64 */
    for (i = 0; i < N; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        saved[i] = (double)(x >> 11) / 9007199254740992.0;
    }
    for (i = 0; i < (long)size * N; i++) /* touch the pages before timing */
        rbuf[i] = wbuf[i] = 0.0;
    sum_in = keysum(saved, N);
    for (it = 0; it < ITERS; it++) {
        memcpy(keys, saved, N * sizeof *keys);
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        qsort(keys, N, sizeof *keys, cmp);
        for (k = 0; k < size - 1; k++)
            samp[k] = keys[(long)(k + 1) * N / size];
        MPI_Allgather(samp, size - 1, MPI_DOUBLE, all, size - 1, MPI_DOUBLE,
                      MPI_COMM_WORLD);
        qsort(all, (size_t)size * (size_t)(size - 1), sizeof *all, cmp);
        for (k = 0; k < size - 1; k++)
            spl[k] = all[(k + 1) * (size - 1)];
        sdsp[0] = 0;
        for (k = 0; k < size; k++) {
            long end = k < size - 1 ? upto(keys, N, spl[k]) : N;
            end = end < sdsp[k] ? sdsp[k] : end;
            scnt[k] = (int)(end - sdsp[k]);
            if (k + 1 < size)
                sdsp[k + 1] = (int)end;
        }
        MPI_Alltoall(scnt, 1, MPI_INT, rcnt, 1, MPI_INT, MPI_COMM_WORLD);
        rdsp[0] = 0;
        for (k = 0; k < size; k++)
            rdsp[k + 1] = rdsp[k] + rcnt[k];
        MPI_Alltoallv(keys, scnt, sdsp, MPI_DOUBLE, rbuf, rcnt, rdsp, MPI_DOUBLE,
                      MPI_COMM_WORLD);
        memcpy(off, rdsp, (size_t)(size + 1) * sizeof *off);
        out = merge_runs(rbuf, wbuf, off, size);
        got = rdsp[size];
        MPI_Barrier(MPI_COMM_WORLD);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, ITERS);
    /* checks */
    for (i = 1; i < got; i++)
        bad |= out[i - 1] > out[i];
    sum_out = keysum(out, got);
    sums[0] = sum_in;
    sums[1] = sum_out;
    MPI_Allreduce(sums, tot, 2, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    total = (int)got;
    MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    bad |= (tot[0] != tot[1]) << 1 | ((long)total != (long)size * N) << 2;
    {
        double ends[2] = {got > 0 ? out[0] : -1.0, got > 0 ? out[got - 1] : -1.0},
               *e = malloc((size_t)size * 2 * sizeof *e), last = -1.0;
        if (e == NULL)
            MPI_Abort(MPI_COMM_WORLD, 1);
        MPI_Allgather(ends, 2, MPI_DOUBLE, e, 2, MPI_DOUBLE, MPI_COMM_WORLD);
        for (k = 0; k < size; k++)
            if (e[2 * k] >= 0.0) {
                bad |= (e[2 * k] < last) << 3;
                last = e[2 * k + 1];
            }
        free(e);
    }
    if (bad != 0)
        fprintf(stderr, "samplesort: check %d failed on rank %d of %d\n", bad, rank,
                size);
    if (rank == 0)
        printf("ssort_p %d %.6e\n", size, t);
    free(saved);
    free(keys);
    free(samp);
    free(all);
    free(spl);
    free(rbuf);
    free(wbuf);
    free(scnt);
    free(sdsp);
    free(rcnt);
    free(rdsp);
    free(off);
    MPI_Finalize();
    return 0;
}
