/* heat2d_pn: strong scaling of an explicit 2-D heat equation step (5-point
 * stencil) over two variables, the launched number of ranks P and the side
 * N of the global N x N grid (held-out data of heldout17, a two-variable
 * grid, never used to choose the selection). The P ranks form a process
 * grid from MPI_Dims_create (1x1, 2x1, 3x1, 2x2, 3x2, 4x2), non-periodic;
 * the N rows are split as evenly as possible over the process rows and the
 * N columns over the process columns, each rank owning its block with
 * ghost cells (two arrays). The ghost cells beyond the grid's edges hold
 * fixed values (1 on the first row's side, 0 on the others). One iteration
 * exchanges the 4 edges of the block with the neighbours (MPI_Sendrecv,
 * columns as a strided MPI_Type_vector; none at the grid's edges) and then
 * sweeps the block once, b = a + 0.2 (sum of the 4 neighbours - 4 a).
 * Usage:
 *   mpirun -np P heat2d_pn N...   prints "heat2d_pn P N seconds" for each N
 *                                 (8 ... 8192, at least the process grid's
 *                                 larger side).
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. The blocks are written before anything is timed and one iteration
 * runs untimed first; the slowest rank's time of it sets the number of
 * timed iterations, the same on every rank (enough for about 0.2 s, at
 * least 5, at most 2000), which follow a barrier. Check (not timed): the
 * block stays within [0, 1] (the maximum principle). Times are the least of
 * one iteration (the slowest rank's time of each, timing.h): on a machine
 * shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXITERS 2000

static volatile double sink;

struct block {
    int nr, nc;          /* owned rows and columns */
    size_t w;            /* row length with the ghost columns, nc + 2 */
    int nb[4];           /* north, south, west, east; MPI_PROC_NULL at an edge */
    MPI_Datatype column; /* nr doubles, stride w */
    MPI_Comm cart;
};

static void iteration(const struct block *k, double *a, double *b)
{
    size_t w = k->w;
    int nr = k->nr, nc = k->nc, x, y;

    /* rows: first and last owned rows to the neighbours' ghost rows */
    MPI_Sendrecv(a + w + 1, nc, MPI_DOUBLE, k->nb[0], 0, a + (size_t)(nr + 1) * w + 1, nc,
                 MPI_DOUBLE, k->nb[1], 0, k->cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(a + (size_t)nr * w + 1, nc, MPI_DOUBLE, k->nb[1], 1, a + 1, nc,
                 MPI_DOUBLE, k->nb[0], 1, k->cart, MPI_STATUS_IGNORE);
    /* columns: first and last owned columns to the ghost columns */
    MPI_Sendrecv(a + w + 1, 1, k->column, k->nb[2], 2, a + w + nc + 1, 1, k->column,
                 k->nb[3], 2, k->cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(a + w + nc, 1, k->column, k->nb[3], 3, a + w, 1, k->column, k->nb[2], 3,
                 k->cart, MPI_STATUS_IGNORE);
    for (y = 1; y <= nr; y++)
        for (x = 1; x <= nc; x++) {
            size_t c = (size_t)y * w + (size_t)x;
            b[c] = a[c] + 0.2 * (a[c - 1] + a[c + 1] + a[c - w] + a[c + w] - 4 * a[c]);
        }
}

static double timed(long n, const int dims[2], const int coords[2], struct block *k)
{
    long r0 = n * coords[0] / dims[0], c0 = n * coords[1] / dims[1];
    size_t len, i;
    int iters, it, x, y, bad = 0;
    double *a, *b, *s, *ti = malloc(MAXITERS * sizeof *ti), t0, t;

    k->nr = (int)(n * (coords[0] + 1) / dims[0] - r0);
    k->nc = (int)(n * (coords[1] + 1) / dims[1] - c0);
    k->w = (size_t)k->nc + 2;
    len = k->w * (size_t)(k->nr + 2);
    a = malloc(len * sizeof *a);
    b = malloc(len * sizeof *b);
    if (a == NULL || b == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Type_vector(k->nr, 1, (int)k->w, MPI_DOUBLE, &k->column);
    MPI_Type_commit(&k->column);
    /* inside: a pattern in [0, 1] set by the global position; the ghost
     * cells: the fixed edge values where there is no neighbour (the others
     * are overwritten by the first exchange) */
    for (y = 0; y < k->nr + 2; y++)
        for (x = 0; x < (int)k->w; x++) {
            size_t c = (size_t)y * k->w + (size_t)x;
            a[c] = (double)(((r0 + y) * 7 + (c0 + x) * 3) % 11) / 10;
            if (y == 0 || x == 0 || y == k->nr + 1 || x == k->nc + 1)
                a[c] = (y == 0 && k->nb[0] == MPI_PROC_NULL) ? 1 : 0;
            b[c] = a[c];
        }
    MPI_Barrier(k->cart);
    t0 = MPI_Wtime();
    iteration(k, a, b); /* not timed */
    t = MPI_Wtime() - t0;
    s = a;
    a = b;
    b = s;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, k->cart);
    iters = (int)(0.2 / (t > 1e-9 ? t : 1e-9)) + 1;
    iters = iters < 5 ? 5 : iters > MAXITERS ? MAXITERS : iters;
    MPI_Barrier(k->cart);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        iteration(k, a, b);
        s = a;
        a = b;
        b = s;
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    for (y = 1; y <= k->nr && !bad; y++)
        for (x = 1; x <= k->nc && !bad; x++) {
            double v = a[(size_t)y * k->w + (size_t)x];
            bad = !(v >= -1e-12 && v <= 1 + 1e-12);
        }
    if (bad)
        fprintf(stderr, "heat2d_pn: P %d N %ld: a value outside [0, 1]\n",
                dims[0] * dims[1], n);
    for (i = 0, sink = 0; i < len; i += k->w)
        sink += a[i + 1];
    MPI_Type_free(&k->column);
    free(a);
    free(b);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    int rank, size, dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2], i;
    long n;
    struct block k;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &k.cart);
    MPI_Comm_rank(k.cart, &rank);
    MPI_Cart_coords(k.cart, rank, 2, coords);
    MPI_Cart_shift(k.cart, 0, 1, &k.nb[0], &k.nb[1]); /* north, south */
    MPI_Cart_shift(k.cart, 1, 1, &k.nb[2], &k.nb[3]); /* west, east */
    for (i = 1; i < argc; i++) {
        n = strtol(argv[i], NULL, 10);
        if (n < 8 || n > 8192 || n < dims[0] || n < dims[1])
            MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (i = 1; i < argc; i++) {
        n = strtol(argv[i], NULL, 10);
        double t = timed(n, dims, coords, &k);
        if (rank == 0)
            printf("heat2d_pn %d %ld %.6e\n", size, n, t);
    }
    MPI_Comm_free(&k.cart);
    MPI_Finalize();
    return 0;
}
