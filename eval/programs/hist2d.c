/* hist2d: a 2-D histogram of points summed over the ranks by MPI_Allreduce
 * (held-out data, never used to choose the selection). Each point (x, y)
 * in [0, 1)^2 is the mean of two uniform draws per coordinate (a tent
 * density: the middle bins are the busy ones) from a xorshift64 stream of
 * the rank's own; it is counted in bin (floor(x B), floor(y B)) of a
 * B x B table of ints, and the tables of all ranks are added up in place
 * by MPI_Allreduce, so that every rank holds the whole histogram. The
 * points are drawn once (not timed). Usage:
 *   hist2d p     weak scaling: 2^20 points per rank, B = 256 (256 KiB of
 *                bins); prints "hist2d_p P seconds" (40 iterations, each
 *                from a barrier to a barrier).
 *   hist2d B...  at P = 1: the resolution, B x B bins (16 <= B <= 8192;
 *                4 B^2 bytes, 1 KiB at 16, 64 MiB at 4096, past L2) for
 *                2^18 points; prints "hist2d_n B seconds" for each B
 *                (timing.h's least_pass, about 0.2 s of samples).
 * One iteration clears the table, counts the points and calls the
 * MPI_Allreduce. Check (not timed): the table holds P times the points per
 * rank, on every rank. Times are the least of one iteration (timing.h): on
 * a machine shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define PER_RANK (1L << 20)
#define PER_PASS (1L << 18)
#define ITERS 40

struct h2 {
    long npts, nbins;
    int b;
    float *pt; /* 2 per point */
    int *bins;
};

static void iteration(void *arg)
{
    struct h2 *h = arg;
    float fb = (float)h->b;
    long i;

    memset(h->bins, 0, (size_t)h->nbins * sizeof *h->bins);
    for (i = 0; i < h->npts; i++) {
        int bx = (int)(h->pt[2 * i] * fb), by = (int)(h->pt[2 * i + 1] * fb);
        h->bins[(long)by * h->b + bx]++;
    }
    MPI_Allreduce(MPI_IN_PLACE, h->bins, (int)h->nbins, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}

static float draw(uint64_t *x)
{
    float s = 0.0f;
    int k;

    for (k = 0; k < 2; k++) {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        s += (float)(*x >> 40) * (1.0f / 16777216.0f);
    }
    s *= 0.5f;
    return s < 1.0f ? s : 0.99999994f;
}

static void setup(struct h2 *h, long npts, int b, int rank)
{
    uint64_t x = 88172645463325252ULL + 104729ULL * (uint64_t)rank;
    long i;

    h->npts = npts;
    h->b = b;
    h->nbins = (long)b * b;
    h->pt = malloc((size_t)(2 * npts) * sizeof *h->pt);
    h->bins = malloc((size_t)h->nbins * sizeof *h->bins);
    if (h->pt == NULL || h->bins == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < 2 * npts; i++)
        h->pt[i] = draw(&x);
}

/* 0 if every rank's table holds all the points. */
static int check(struct h2 *h, int size)
{
    long s = 0, i;
    int bad;

    for (i = 0; i < h->nbins; i++)
        s += h->bins[i];
    bad = s != h->npts * size;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size, it, a;
    struct h2 h;
    double ti[ITERS], t0, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && strcmp(argv[1], "p") == 0) {
        setup(&h, PER_RANK, 256, rank);
        iteration(&h); /* not timed */
        for (it = 0; it < ITERS; it++) {
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
            iteration(&h);
            MPI_Barrier(MPI_COMM_WORLD);
            ti[it] = MPI_Wtime() - t0;
        }
        t = least(ti, ITERS);
        if (check(&h, size)) {
            if (rank == 0)
                fprintf(stderr, "hist2d: P %d: the bins do not hold every point\n", size);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        if (rank == 0)
            printf("hist2d_p %d %.6e\n", size, t);
        free(h.pt);
        free(h.bins);
        MPI_Finalize();
        return 0;
    }
    for (a = 1; a < argc; a++) {
        long b = strtol(argv[a], NULL, 10);
        if (size != 1 || b < 16 || b > 8192)
            MPI_Abort(MPI_COMM_WORLD, 1);
        setup(&h, PER_PASS, (int)b, rank);
        t = least_pass(iteration, &h, 0.2);
        if (check(&h, size)) {
            fprintf(stderr, "hist2d: B %ld: the bins do not hold every point\n", b);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        printf("hist2d_n %ld %.6e\n", b, t);
        free(h.pt);
        free(h.bins);
    }
    MPI_Finalize();
    return 0;
}
