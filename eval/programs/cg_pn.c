/* cg_pn: strong scaling of conjugate-gradient iterations over two variables,
 * the launched number of ranks P and the global problem size N (held-out
 * data of heldout15, a two-variable grid, never used to choose the
 * selection). The matrix is the 2-D 5-point Laplacian (4 on the diagonal,
 * -1 for the up to four neighbours, zero Dirichlet boundary) on an S x S
 * grid, N = S^2 unknowns, never stored; the grid rows are split as evenly as
 * possible over the P ranks (a 1-D process grid). One CG iteration: the
 * halo exchange of the search direction p with the ranks above and below
 * (two MPI_Sendrecv of one grid row), the product q = A p, the dot product
 * p.q summed by MPI_Allreduce, the updates of x and r, the dot product r.r
 * summed by MPI_Allreduce, and the update of p. Usage:
 *   mpirun -np P cg_pn N...   prints "cg_pn P N seconds" for each N (a
 *                             square, S >= P, S <= 16384).
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. The right-hand side is a fixed pseudo-random vector of the global
 * index (the same for every P). CG starts from x = 0 and is restarted, not
 * timed, every 20 iterations, so the residual never comes near underflow;
 * one iteration runs untimed first. 4e7 / (N / min(P, 2)) iterations
 * (5...2000) are timed. Times are the least of one iteration (the slowest
 * rank's time of each, timing.h): on a machine shared with other programs,
 * other work only adds time. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define RESTART 20

struct cg {
    long s, nl;                /* grid side, rows of this rank */
    int up, down;              /* neighbour ranks or MPI_PROC_NULL */
    double *x, *r, *p, *q, *b; /* p has a ghost row above and below */
    double rr;
};

static volatile double sink;

static double sum(double v)
{
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return v;
}

static void restart(struct cg *c)
{
    long i, cells = c->nl * c->s;
    double rr = 0;

    for (i = 0; i < cells; i++) {
        c->x[i] = 0;
        c->r[i] = c->b[i];
        c->p[c->s + i] = c->b[i];
        rr += c->b[i] * c->b[i];
    }
    c->rr = sum(rr);
}

static void iteration(struct cg *c)
{
    long s = c->s, nl = c->nl, cells = nl * s, i, j;
    double *p = c->p, *q = c->q, pq = 0, rrn = 0, alpha, beta;

    MPI_Sendrecv(p + s, (int)s, MPI_DOUBLE, c->up, 0, p + (nl + 1) * s, (int)s,
                 MPI_DOUBLE, c->down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(p + nl * s, (int)s, MPI_DOUBLE, c->down, 1, p, (int)s, MPI_DOUBLE, c->up,
                 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (i = 0; i < nl; i++) {
        const double *pi = p + (i + 1) * s;
        double *qi = q + i * s;
        qi[0] = 4 * pi[0] - pi[-s] - pi[s] - pi[1];
        for (j = 1; j < s - 1; j++)
            qi[j] = 4 * pi[j] - pi[j - s] - pi[j + s] - pi[j - 1] - pi[j + 1];
        qi[s - 1] = 4 * pi[s - 1] - pi[-1] - pi[2 * s - 1] - pi[s - 2];
        for (j = 0; j < s; j++)
            pq += pi[j] * qi[j];
    }
    alpha = c->rr / sum(pq);
    for (i = 0; i < cells; i++) {
        c->x[i] += alpha * p[s + i];
        c->r[i] -= alpha * q[i];
        rrn += c->r[i] * c->r[i];
    }
    rrn = sum(rrn);
    beta = rrn / c->rr;
    for (i = 0; i < cells; i++)
        p[s + i] = c->r[i] + beta * p[s + i];
    c->rr = rrn;
}

static double timed(long n, int rank, int size)
{
    struct cg c;
    long lo, hi, cells, i, iters;
    int it;
    double *ti, t0, t;

    c.s = 1;
    while ((c.s + 1) * (c.s + 1) <= n)
        c.s++;
    lo = c.s * rank / size;
    hi = c.s * (rank + 1) / size;
    c.nl = hi - lo;
    cells = c.nl * c.s;
    c.up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    c.down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    iters = 40000000L / (n / (size < 2 ? size : 2));
    iters = iters < 5 ? 5 : iters > 2000 ? 2000 : iters;
    c.x = malloc((size_t)cells * sizeof *c.x);
    c.r = malloc((size_t)cells * sizeof *c.r);
    c.q = malloc((size_t)cells * sizeof *c.q);
    c.b = malloc((size_t)cells * sizeof *c.b);
    c.p = calloc((size_t)(cells + 2 * c.s), sizeof *c.p); /* ghost rows 0 */
    ti = malloc((size_t)iters * sizeof *ti);
    if (c.x == NULL || c.r == NULL || c.q == NULL || c.b == NULL || c.p == NULL ||
        ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < cells; i++) {
        uint64_t h = (uint64_t)(lo * c.s + i) * 0x9E3779B97F4A7C15ULL;
        h ^= h >> 29;
        h *= 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 32;
        c.b[i] = (double)(h >> 11) / 9007199254740992.0 - 0.5;
        c.q[i] = 0;
    }
    restart(&c);
    iteration(&c); /* not timed */
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        if (it % RESTART == 0)
            restart(&c); /* not timed */
        t0 = MPI_Wtime();
        iteration(&c);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, (int)iters);
    sink = c.x[cells / 2] + c.rr;
    free(c.x);
    free(c.r);
    free(c.q);
    free(c.b);
    free(c.p);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    int rank, size, k;
    long n, s;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (k = 1; k < argc; k++) {
        n = strtol(argv[k], NULL, 10);
        for (s = 1; s * s < n; s++)
            ;
        if (s * s != n || s < size || s < 3 || s > 16384)
            MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (k = 1; k < argc; k++) {
        n = strtol(argv[k], NULL, 10);
        double t = timed(n, rank, size);
        if (rank == 0)
            printf("cg_pn %d %ld %.6e\n", size, n, t);
    }
    MPI_Finalize();
    return 0;
}
