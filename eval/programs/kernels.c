/* kernels: four loop kernels over arrays of n*256 doubles, run by every rank
 * at once (P ranks share the memory system), timed alone, in adjacent pairs
 * around the loop (K1K2, K2K3, K3K4, K4K1) and as the whole loop. Prints
 * "n P chain seconds-per-iteration" (rank 0, the slowest rank's time).
 * The data of the kernel-coupling evaluation of eval_modeling. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double *a, *b, *c, s;
static long len;

static void k1(void)
{
    for (long i = 0; i < len; i++)
        a[i] = b[i] + 1.5 * c[i];
}
static void k2(void)
{
    for (long i = 1; i < len - 1; i++)
        b[i] = (a[i - 1] + a[i] + a[i + 1]) * (1.0 / 3);
}
static void k3(void)
{
    double t = 0;
    for (long i = 0; i < len; i++)
        t += a[i] * b[i];
    s += t * 1e-12;
}
static void k4(void)
{
    for (long i = 0; i < len; i++)
        c[i] = 0.5 * a[i] + s * b[i] - 0.25 * c[i];
}

static void (*const kern[4])(void) = {k1, k2, k3, k4};

static double timed(const int *seq, int nseq, int iters)
{
    double t0, t;
    int it, j;

    for (j = 0; j < nseq; j++) /* warm */
        kern[seq[j]]();
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (it = 0; it < iters; it++)
        for (j = 0; j < nseq; j++)
            kern[seq[j]]();
    t = (MPI_Wtime() - t0) / iters;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return t;
}

int main(int argc, char **argv)
{
    int rank, size, n = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 1024, k;
    int iters;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    len = (long)n * 256;
    iters = (int)(4e7 / (double)len) + 2;
    a = malloc((size_t)len * sizeof *a);
    b = malloc((size_t)len * sizeof *b);
    c = malloc((size_t)len * sizeof *c);
    for (long i = 0; i < len; i++)
        a[i] = b[i] = c[i] = (double)(i % 13) * 0.1;
    for (k = 0; k < 4; k++) {
        int seq[1] = {k};
        double t = timed(seq, 1, iters);
        if (rank == 0)
            printf("%d %d K%d %.6e\n", n, size, k + 1, t);
    }
    for (k = 0; k < 4; k++) {
        int seq[2] = {k, (k + 1) % 4};
        double t = timed(seq, 2, iters);
        if (rank == 0)
            printf("%d %d K%dK%d %.6e\n", n, size, k + 1, (k + 1) % 4 + 1, t);
    }
    {
        int seq[4] = {0, 1, 2, 3};
        double t = timed(seq, 4, iters);
        if (rank == 0)
            printf("%d %d ALL %.6e\n", n, size, t);
    }
    if (rank == 0 && s == 12345.678)
        printf("#\n");
    free(a);
    free(b);
    free(c);
    MPI_Finalize();
    return 0;
}
