/* chain: the main loop of a Jacobi-type solver as four kernels that share
 * their data, the way kernels of a real application do (each reads what the
 * previous one wrote, so its cache state helps or hurts the next):
 *
 *   K1 stencil   halo exchange of u with the neighbouring ranks, v = A u
 *                (5-point Laplacian)            reads u, writes v
 *   K2 residual  r = f - v                      reads f, v, writes r
 *   K3 update    u = u + w r                    reads u, r, writes u
 *   K4 norm      s = sum r^2, MPI_Allreduce     reads r
 *
 * Every rank owns an n x n block (plus halo rows), so the working set of the
 * loop per rank is 4 arrays of n^2 doubles: n = 128 ... 1448 spans 0.5 MiB
 * (inside L2) to 64 MiB (beyond L3). The kernels are timed alone, in the four
 * adjacent pairs around the loop (K1K2, K2K3, K3K4, K4K1) and as the whole
 * loop: the least time of one iteration (the slowest rank's) in a block of
 * iterations. Repetitions are interleaved:
 * each repetition measures every size and chain once, in order, so a burst
 * of load from other programs spreads over all of them instead of ruining
 * one configuration. Usage: chain REPS n1 n2 ...; prints "n P chain seconds"
 * per repetition. The data of the kernel-coupling evaluation of eval_modeling. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double *u, *v, *f, *r, s;
static int n, up, dn;

#define AT(a, i, j) (a)[(size_t)(i) * (size_t)n + (size_t)(j)]

static void stencil(void)
{
    MPI_Sendrecv(&AT(u, 1, 0), n, MPI_DOUBLE, up, 0, &AT(u, n + 1, 0), n, MPI_DOUBLE, dn,
                 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&AT(u, n, 0), n, MPI_DOUBLE, dn, 1, &AT(u, 0, 0), n, MPI_DOUBLE, up, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 1; i <= n; i++) {
        AT(v, i, 0) = 4 * AT(u, i, 0) - AT(u, i - 1, 0) - AT(u, i + 1, 0) - AT(u, i, 1);
        for (int j = 1; j < n - 1; j++)
            AT(v, i, j) = 4 * AT(u, i, j) - AT(u, i - 1, j) - AT(u, i + 1, j) -
                          AT(u, i, j - 1) - AT(u, i, j + 1);
        AT(v, i, n - 1) = 4 * AT(u, i, n - 1) - AT(u, i - 1, n - 1) -
                          AT(u, i + 1, n - 1) - AT(u, i, n - 2);
    }
}

static void residual(void)
{
    for (size_t k = (size_t)n; k < (size_t)(n + 1) * (size_t)n; k++)
        r[k] = f[k] - v[k];
}

static void update(void)
{
    for (size_t k = (size_t)n; k < (size_t)(n + 1) * (size_t)n; k++)
        u[k] += 0.2 * r[k];
}

static void norm(void)
{
    double t = 0;
    for (size_t k = (size_t)n; k < (size_t)(n + 1) * (size_t)n; k++)
        t += r[k] * r[k];
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    s += t * 1e-30;
}

static void (*const kern[4])(void) = {stencil, residual, update, norm};

/* The least time of one iteration of the chain among iters iterations (the
 * slowest rank's time of each): on a machine shared with other programs a
 * longer block is more likely to be interrupted, so the least time of whole
 * blocks would favour the short chains (kernels alone) over the long ones
 * (pairs, the loop) and read as coupling; an iteration each is the same
 * unit for all of them. */
static double timed(const int *seq, int nseq, int iters)
{
    double t0, best = 0, *t = malloc((size_t)iters * sizeof *t);
    int it, j;

    if (t == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (j = 0; j < nseq; j++) /* warm: the chain's own cache state */
        kern[seq[j]]();
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        for (j = 0; j < nseq; j++)
            kern[seq[j]]();
        t[it] = MPI_Wtime() - t0;
    }
    MPI_Allreduce(MPI_IN_PLACE, t, iters, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    for (it = 0; it < iters; it++)
        best = it == 0 || t[it] < best ? t[it] : best;
    free(t);
    return best;
}

int main(int argc, char **argv)
{
    int rank, size, reps = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 5, rep, a, k,
                    nmax = 0;
    static const char *const name[4] = {"K1", "K2", "K3", "K4"};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    dn = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    for (a = 2; a < argc; a++) {
        int m = (int)strtol(argv[a], NULL, 10);
        nmax = m > nmax ? m : nmax;
    }
    size_t cells = (size_t)(nmax + 2) * (size_t)nmax;
    u = calloc(cells, sizeof *u);
    v = calloc(cells, sizeof *v);
    f = calloc(cells, sizeof *f);
    r = calloc(cells, sizeof *r);
    if (u == NULL || v == NULL || f == NULL || r == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (size_t c = 0; c < cells; c++) {
        f[c] = (double)(c % 17) * 0.01;
        u[c] = (double)(c % 5) * 0.1;
    }
    for (rep = 0; rep < reps; rep++)
        for (a = 2; a < argc; a++) {
            n = (int)strtol(argv[a], NULL, 10);
            if (n < 3 || n > nmax)
                continue;
            /* about 8e6 updated cells per timed block, at least 5 iterations */
            int iters = (int)(8e6 / ((double)n * n)) + 5;
            for (k = 0; k < 4; k++) {
                int seq[1] = {k};
                double t = timed(seq, 1, iters);
                if (rank == 0)
                    printf("%d %d %s %.6e\n", n, size, name[k], t);
            }
            for (k = 0; k < 4; k++) {
                int seq[2] = {k, (k + 1) % 4};
                double t = timed(seq, 2, iters);
                if (rank == 0)
                    printf("%d %d %s%s %.6e\n", n, size, name[k], name[(k + 1) % 4], t);
            }
            {
                int seq[4] = {0, 1, 2, 3};
                double t = timed(seq, 4, iters);
                if (rank == 0)
                    printf("%d %d ALL %.6e\n", n, size, t);
            }
            if (rank == 0)
                fflush(stdout);
        }
    if (rank == 0 && s == 12345.678)
        printf("#\n");
    free(u);
    free(v);
    free(f);
    free(r);
    MPI_Finalize();
    return 0;
}
