/* sor: red-black successive over-relaxation (omega = 1.5) of the 5-point
 * Poisson equation -Lu = 1 with u = 0 on the boundary (held-out data, never
 * used to choose the selection). One sweep updates the red points (i + j
 * even) from the black ones, then the black from the red. Usage:
 *   sor p     strong scaling of 1024 x 1024 interior points split by rows,
 *             as evenly as possible, over the launched P ranks; before each
 *             half-sweep a rank exchanges its edge rows with the ranks above
 *             and below by MPI_Sendrecv; prints "sor_p P seconds" (40 sweeps,
 *             each from a barrier to a barrier, after one not timed).
 *   sor N...  at P = 1: N x N interior points (16 <= N <= 4096; one array
 *             of (N + 2)^2 doubles, 34 KiB at N = 64, 8 MiB at N = 1024,
 *             past L2); prints "sor_n N seconds" for each N (timing.h's
 *             least_pass, about 0.2 s of samples).
 * Check (not timed): over P, every point's update has the same operands in
 * the same order whatever the split, so after the timed sweeps the
 * distributed field equals, to the last bit, the field of the same number
 * of sweeps on one rank, which rank 0 recomputes and compares with the
 * gathered rows; over N, the energy u^T A u / 2 - b^T u, which every SOR
 * update lowers, is below its value after the first sweep, itself below 0. Times are the
 * least of one sweep (timing.h): on a machine shared with other programs, other work only
 * adds time. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define NP 1024
#define ITERS 40
#define OMEGA 1.5

struct grid {
    long n;     /* columns of interior points */
    long rows;  /* this rank's interior rows */
    long first; /* the global index of its first row, from 0 */
    double *u;  /* (rows + 2) x (n + 2) */
    double h2;  /* h^2 times the right-hand side, 1 */
    int up, down;
};

#define U(g, i, j) (g)->u[(long)(i) * ((g)->n + 2) + (j)]

/* Points of colour c (0 red) in the rank's rows. */
static void half(struct grid *g, int c)
{
    long i, j;

    for (i = 1; i <= g->rows; i++) {
        long gi = g->first + i - 1;
        for (j = 1 + ((gi + c) & 1); j <= g->n; j += 2) {
            double gs = 0.25 * (U(g, i - 1, j) + U(g, i + 1, j) + U(g, i, j - 1) +
                                U(g, i, j + 1) + g->h2);
            U(g, i, j) += OMEGA * (gs - U(g, i, j));
        }
    }
}

static void halo(struct grid *g)
{
    MPI_Sendrecv(&U(g, 1, 0), (int)g->n + 2, MPI_DOUBLE, g->up, 0, &U(g, g->rows + 1, 0),
                 (int)g->n + 2, MPI_DOUBLE, g->down, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&U(g, g->rows, 0), (int)g->n + 2, MPI_DOUBLE, g->down, 1, &U(g, 0, 0),
                 (int)g->n + 2, MPI_DOUBLE, g->up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void sweep_p(void *arg)
{
    halo(arg);
    half(arg, 0);
    halo(arg);
    half(arg, 1);
}

static void sweep_1(void *arg)
{
    half(arg, 0);
    half(arg, 1);
}

static int make(struct grid *g, long n, long rows, long first)
{
    g->n = n;
    g->rows = rows;
    g->first = first;
    g->h2 = 1.0 / (double)((n + 1) * (n + 1));
    g->u = calloc((size_t)(rows + 2) * (size_t)(n + 2), sizeof *g->u);
    g->up = g->down = MPI_PROC_NULL;
    return g->u != NULL;
}

/* The energy J(u) = u^T A u / 2 - b^T u of -Lu = 1 scaled by h^2 (A = 4 I
 * minus the neighbours, b = h^2), which every SOR update with 0 < omega < 2
 * lowers (one rank). */
static double energy(struct grid *g)
{
    double s = 0;
    long i, j;

    for (i = 1; i <= g->rows; i++)
        for (j = 1; j <= g->n; j++) {
            double au = 4 * U(g, i, j) - U(g, i - 1, j) - U(g, i + 1, j) -
                        U(g, i, j - 1) - U(g, i, j + 1);
            s += 0.5 * U(g, i, j) * au - g->h2 * U(g, i, j);
        }
    return s;
}

static int over_p(int rank, int size)
{
    struct grid g, one;
    long rows = NP / size + (rank < NP % size),
         first = rank * (NP / size) + (rank < NP % size ? rank : NP % size);
    double ti[ITERS], t0, t, *all = NULL;
    int it, k, *cnt = NULL, *dsp = NULL;
    long w;

    if (!make(&g, NP, rows, first))
        MPI_Abort(MPI_COMM_WORLD, 1);
    g.up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    g.down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    sweep_p(&g); /* not timed */
    for (it = 0; it < ITERS; it++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        sweep_p(&g);
        MPI_Barrier(MPI_COMM_WORLD);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, ITERS);
    /* The rows to rank 0, which compares them with one rank's sweeps. */
    w = NP + 2;
    if (rank == 0) {
        cnt = malloc((size_t)size * sizeof *cnt);
        dsp = malloc((size_t)size * sizeof *dsp);
        all = malloc((size_t)NP * (size_t)w * sizeof *all);
        if (cnt == NULL || dsp == NULL || all == NULL)
            MPI_Abort(MPI_COMM_WORLD, 1);
        for (k = 0; k < size; k++) {
            cnt[k] = (int)((NP / size + (k < NP % size)) * w);
            dsp[k] = (int)((k * (NP / size) + (k < NP % size ? k : NP % size)) * w);
        }
    }
    MPI_Gatherv(&U(&g, 1, 0), (int)(rows * w), MPI_DOUBLE, all, cnt, dsp, MPI_DOUBLE, 0,
                MPI_COMM_WORLD);
    free(g.u);
    if (rank == 0) {
        if (!make(&one, NP, NP, 0))
            MPI_Abort(MPI_COMM_WORLD, 1);
        for (it = 0; it <= ITERS; it++)
            sweep_1(&one);
        if (memcmp(all, &U(&one, 1, 0), (size_t)NP * (size_t)w * sizeof *all) != 0) {
            fprintf(stderr, "sor: P %d: the field differs from one rank's\n", size);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        free(one.u);
        free(all);
        free(cnt);
        free(dsp);
        printf("sor_p %d %.6e\n", size, t);
    }
    return 0;
}

int main(int argc, char **argv)
{
    int rank, size, a;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && strcmp(argv[1], "p") == 0) {
        over_p(rank, size);
        MPI_Finalize();
        return 0;
    }
    for (a = 1; a < argc; a++) {
        struct grid g;
        long n = strtol(argv[a], NULL, 10);
        double e1, t;
        if (size != 1 || n < 16 || n > 4096 || !make(&g, n, n, 0))
            MPI_Abort(MPI_COMM_WORLD, 1);
        sweep_1(&g);
        e1 = energy(&g);
        t = least_pass(sweep_1, &g, 0.2);
        if (!(e1 < 0 && energy(&g) < e1)) {
            fprintf(stderr, "sor: N %ld: the sweeps did not lower the energy\n", n);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        printf("sor_n %ld %.6e\n", n, t);
        free(g.u);
    }
    MPI_Finalize();
    return 0;
}
