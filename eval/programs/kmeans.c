/* kmeans: Lloyd iterations of k-means clustering of 2-D points into K = 16
 * clusters (held-out data, never used to choose the selection). One
 * iteration assigns every point to its nearest centroid (16 squared
 * distances each), sums the points of each cluster and, through
 * MPI_Allreduce of the 16 sums and counts, moves every centroid to the mean
 * of its points. Point i (a global index) is drawn from its own
 * splitmix64 stream around one of 16 fixed centres, so the data do not
 * depend on how they are split; the first 16 points are the initial
 * centroids. Usage:
 *   kmeans p     strong scaling: 2^19 points in all, split as evenly as
 *                possible over the launched P ranks; prints "kmeans_p P
 *                seconds" (40 iterations, each from a barrier to a barrier).
 *   kmeans N...  at P = 1: N points (2^8 <= N <= 2^22; 16 N bytes of points
 *                and 4 N of labels, 80 KiB at 2^12, 10 MiB at 2^19, past
 *                L2); prints "kmeans_n N seconds" for each N (timing.h's
 *                least_pass, about 0.2 s of samples).
 * Check (not timed, after the timed iterations): the counts add up to the
 * number of points, and on a sample of points the label is the nearest of
 * the centroids the last assignment used. Times are the least of one
 * iteration (timing.h): on a machine shared with other programs, other
 * work only adds time. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define K 16
#define NP (1L << 19)
#define ITERS 40

struct km {
    long mine;
    double *pt; /* 2 per point */
    int *lab;
    double c[K][2];    /* centroids */
    double used[K][2]; /* the centroids of the last assignment */
    long total;
};

static uint64_t splitmix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static double unit(uint64_t x)
{
    return (double)(x >> 11) * (1.0 / 9007199254740992.0);
}

static void point(long i, double *p)
{
    uint64_t a = splitmix((uint64_t)i * 3), b = splitmix((uint64_t)i * 3 + 1),
             c = splitmix((uint64_t)i * 3 + 2);
    int g = (int)(a % K);

    p[0] = (double)(g % 4) + 0.6 * (unit(b) - 0.5);
    p[1] = (double)(g / 4) + 0.6 * (unit(c) - 0.5);
}

static void iteration(void *arg)
{
    struct km *s = arg;
    double sum[K * 3];
    long i;
    int k;

    memcpy(s->used, s->c, sizeof s->c);
    memset(sum, 0, sizeof sum);
    for (i = 0; i < s->mine; i++) {
        double x = s->pt[2 * i], y = s->pt[2 * i + 1], best = 1e300;
        int bk = 0;
        for (k = 0; k < K; k++) {
            double dx = x - s->c[k][0], dy = y - s->c[k][1], d = dx * dx + dy * dy;
            bk = d < best ? k : bk;
            best = d < best ? d : best;
        }
        s->lab[i] = bk;
        sum[3 * bk] += x;
        sum[3 * bk + 1] += y;
        sum[3 * bk + 2] += 1.0;
    }
    MPI_Allreduce(MPI_IN_PLACE, sum, K * 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (k = 0; k < K; k++)
        if (sum[3 * k + 2] > 0) {
            s->c[k][0] = sum[3 * k] / sum[3 * k + 2];
            s->c[k][1] = sum[3 * k + 1] / sum[3 * k + 2];
        }
}

/* Points first..first+mine-1 of total; the initial centroids. */
static void setup(struct km *s, long first, long mine, long total)
{
    long i;
    int k;

    s->mine = mine;
    s->total = total;
    s->pt = malloc((size_t)(2 * mine + 2) * sizeof *s->pt);
    s->lab = malloc((size_t)(mine + 1) * sizeof *s->lab);
    if (s->pt == NULL || s->lab == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < mine; i++)
        point(first + i, s->pt + 2 * i);
    for (k = 0; k < K; k++)
        point(k, s->c[k]);
}

/* 0 if the labels and counts are right. */
static int check(struct km *s)
{
    long i, cnt = 0, n;
    int k, bad = 0;

    /* One more assignment, its counts summed over the ranks. */
    iteration(s);
    for (i = 0; i < s->mine; i++)
        cnt += s->lab[i] >= 0 && s->lab[i] < K;
    MPI_Allreduce(&cnt, &n, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    bad = n != s->total;
    for (i = 0; i < s->mine && !bad; i += 1 + s->mine / 997) {
        double x = s->pt[2 * i], y = s->pt[2 * i + 1];
        int l = s->lab[i];
        double dl = (x - s->used[l][0]) * (x - s->used[l][0]) +
                    (y - s->used[l][1]) * (y - s->used[l][1]);
        for (k = 0; k < K; k++) {
            double d = (x - s->used[k][0]) * (x - s->used[k][0]) +
                       (y - s->used[k][1]) * (y - s->used[k][1]);
            bad |= d < dl;
        }
    }
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size, it, a;
    struct km s;
    double ti[ITERS], t0, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && strcmp(argv[1], "p") == 0) {
        long mine = NP / size + (rank < NP % size),
             first = rank * (NP / size) + (rank < NP % size ? rank : NP % size);
        setup(&s, first, mine, NP);
        iteration(&s); /* not timed */
        for (it = 0; it < ITERS; it++) {
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
            iteration(&s);
            MPI_Barrier(MPI_COMM_WORLD);
            ti[it] = MPI_Wtime() - t0;
        }
        t = least(ti, ITERS);
        if (check(&s)) {
            if (rank == 0)
                fprintf(stderr, "kmeans: P %d: wrong labels or counts\n", size);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        if (rank == 0)
            printf("kmeans_p %d %.6e\n", size, t);
        free(s.pt);
        free(s.lab);
        MPI_Finalize();
        return 0;
    }
    for (a = 1; a < argc; a++) {
        long n = strtol(argv[a], NULL, 10);
        if (size != 1 || n < 256 || n > (1L << 22))
            MPI_Abort(MPI_COMM_WORLD, 1);
        setup(&s, 0, n, n);
        t = least_pass(iteration, &s, 0.2);
        if (check(&s)) {
            fprintf(stderr, "kmeans: N %ld: wrong labels or counts\n", n);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        printf("kmeans_n %ld %.6e\n", n, t);
        free(s.pt);
        free(s.lab);
    }
    MPI_Finalize();
    return 0;
}
