/* halo_pn: weak scaling of a 5-point Jacobi sweep on a 2-D grid over two
 * variables, the launched number of ranks P and the block side n of each
 * rank (held-out data of heldout15, a two-variable grid, never used to
 * choose the selection). The P ranks form a process grid from
 * MPI_Dims_create (1x1, 2x1, 3x1, 2x2, 5x1, 3x2, 7x1, 4x2), non-periodic;
 * each owns an n x n block (with ghost cells, two arrays of (n + 2)^2
 * doubles), and one iteration exchanges one row or column of halo with each
 * neighbour (MPI_Sendrecv, columns as a strided MPI_Type_vector) and then
 * sweeps its block. Usage:
 *   mpirun -np P halo_pn n...   prints "halo_pn P n seconds" for each n
 *                               (8 ... 8192).
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. The blocks are written before anything is timed and one iteration
 * runs untimed first; then 4e7 / n^2 iterations (5...2000) are timed after a
 * barrier. Times are the least of one iteration (the slowest rank's time of
 * each, timing.h): on a machine shared with other programs, other work only
 * adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

static volatile double sink;

static void iteration(double *a, double *b, int n, MPI_Datatype column, const int nb[4],
                      MPI_Comm cart)
{
    size_t w = (size_t)n + 2;
    int x, y;

    /* rows: first and last owned rows to the neighbours' ghost rows */
    MPI_Sendrecv(a + w + 1, n, MPI_DOUBLE, nb[0], 0, a + (size_t)(n + 1) * w + 1, n,
                 MPI_DOUBLE, nb[1], 0, cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(a + (size_t)n * w + 1, n, MPI_DOUBLE, nb[1], 1, a + 1, n, MPI_DOUBLE,
                 nb[0], 1, cart, MPI_STATUS_IGNORE);
    /* columns: first and last owned columns to the ghost columns */
    MPI_Sendrecv(a + w + 1, 1, column, nb[2], 2, a + w + n + 1, 1, column, nb[3], 2, cart,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(a + w + n, 1, column, nb[3], 3, a + w, 1, column, nb[2], 3, cart,
                 MPI_STATUS_IGNORE);
    for (y = 1; y <= n; y++)
        for (x = 1; x <= n; x++) {
            size_t c = (size_t)y * w + (size_t)x;
            b[c] = 0.25 * (a[c - 1] + a[c + 1] + a[c - w] + a[c + w]);
        }
}

static double timed(int n, int rank, const int nb[4], MPI_Comm cart)
{
    size_t w = (size_t)n + 2, len = w * w, i;
    long iters = 40000000L / ((long)n * n);
    int it;
    double *a = malloc(len * sizeof *a), *b = malloc(len * sizeof *b), *s, *ti, t0, t;
    MPI_Datatype column;

    iters = iters < 5 ? 5 : iters > 2000 ? 2000 : iters;
    ti = malloc((size_t)iters * sizeof *ti);
    if (a == NULL || b == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Type_vector(n, 1, (int)w, MPI_DOUBLE, &column);
    MPI_Type_commit(&column);
    for (i = 0; i < len; i++) {
        a[i] = (double)((i + (size_t)rank) % 11);
        b[i] = a[i];
    }
    iteration(a, b, n, column, nb, cart); /* not timed */
    s = a;
    a = b;
    b = s;
    MPI_Barrier(cart);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        iteration(a, b, n, column, nb, cart);
        s = a;
        a = b;
        b = s;
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, (int)iters);
    sink = a[len / 2];
    MPI_Type_free(&column);
    free(a);
    free(b);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    int rank, size, dims[2] = {0, 0}, periods[2] = {0, 0}, nb[4], k;
    long n;
    MPI_Comm cart;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Comm_rank(cart, &rank);
    MPI_Cart_shift(cart, 0, 1, &nb[0], &nb[1]); /* north, south */
    MPI_Cart_shift(cart, 1, 1, &nb[2], &nb[3]); /* west, east */
    for (k = 1; k < argc; k++) {
        n = strtol(argv[k], NULL, 10);
        if (n < 8 || n > 8192)
            MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (k = 1; k < argc; k++) {
        n = strtol(argv[k], NULL, 10);
        double t = timed((int)n, rank, nb, cart);
        if (rank == 0)
            printf("halo_pn %d %ld %.6e\n", size, n, t);
    }
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return 0;
}
