/* stencil3d_pn: weak scaling of a 7-point Jacobi sweep on a 3-D grid over
 * two variables, the launched number of ranks P and the block side n of
 * each rank (held-out data of heldout16, a two-variable grid, never used to
 * choose the selection). The P ranks form a 3-D process grid from
 * MPI_Dims_create (1x1x1, 2x1x1, 3x1x1, 2x2x1, 3x2x1, 2x2x2 for P = 1, 2,
 * 3, 4, 6, 8), non-periodic; each owns an n x n x n block (with ghost
 * cells, two arrays of (n + 2)^3 doubles), and one iteration exchanges one
 * face of halo with each of its up to 6 neighbours (MPI_Sendrecv, every
 * face an MPI_Type_create_subarray of the array) and then sweeps its block
 * once: b = 0.4 a + 0.1 (the sum of a's 6 neighbours), damped Jacobi of
 * weight 0.6. Usage:
 *   mpirun -np P stencil3d_pn n...   prints "stencil3d_pn P n seconds" for
 *                                    each n (2 ... 512).
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. The blocks are written before anything is timed and one iteration
 * runs untimed first; then 4e7 / n^3 iterations (5...2000) are timed after
 * a barrier. Times are the least of one iteration (the slowest rank's time
 * of each, timing.h): on a machine shared with other programs, other work
 * only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

static volatile double sink;

/* face[d][0]: the first owned plane across axis d, face[d][1]: the last,
 * face[d][2]: the ghost plane below, face[d][3]: the ghost plane above;
 * axis 0 is z (slowest), 2 is x (contiguous), as the process grid's
 * dimensions. */
struct faces {
    MPI_Datatype face[3][4];
};

static void make_faces(struct faces *f, int n)
{
    int sizes[3] = {n + 2, n + 2, n + 2}, sub[3], start[3], d, e, k;
    const int at[4] = {1, n, 0, n + 1};

    for (d = 0; d < 3; d++)
        for (k = 0; k < 4; k++) {
            for (e = 0; e < 3; e++) {
                sub[e] = e == d ? 1 : n;
                start[e] = e == d ? at[k] : 1;
            }
            MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE,
                                     &f->face[d][k]);
            MPI_Type_commit(&f->face[d][k]);
        }
}

static void free_faces(struct faces *f)
{
    int d, k;

    for (d = 0; d < 3; d++)
        for (k = 0; k < 4; k++)
            MPI_Type_free(&f->face[d][k]);
}

static void iteration(double *a, double *b, int n, const struct faces *f,
                      const int nb[3][2], MPI_Comm cart)
{
    size_t w = (size_t)n + 2, w2 = w * w;
    int x, y, z, d;

    for (d = 0; d < 3; d++) {
        /* first owned plane down, last owned plane up */
        MPI_Sendrecv(a, 1, f->face[d][0], nb[d][0], 2 * d, a, 1, f->face[d][3], nb[d][1],
                     2 * d, cart, MPI_STATUS_IGNORE);
        MPI_Sendrecv(a, 1, f->face[d][1], nb[d][1], 2 * d + 1, a, 1, f->face[d][2],
                     nb[d][0], 2 * d + 1, cart, MPI_STATUS_IGNORE);
    }
    for (z = 1; z <= n; z++)
        for (y = 1; y <= n; y++) {
            size_t r = (size_t)z * w2 + (size_t)y * w;
            for (x = 1; x <= n; x++) {
                size_t c = r + (size_t)x;
                b[c] = 0.4 * a[c] + 0.1 * (a[c - 1] + a[c + 1] + a[c - w] + a[c + w] +
                                           a[c - w2] + a[c + w2]);
            }
        }
}

static double timed(int n, int rank, const int nb[3][2], MPI_Comm cart)
{
    size_t w = (size_t)n + 2, len = w * w * w, i;
    long iters = 40000000L / ((long)n * n * n);
    int it;
    double *a = malloc(len * sizeof *a), *b = malloc(len * sizeof *b), *s, *ti, t0, t;
    struct faces f;

    iters = iters < 5 ? 5 : iters > 2000 ? 2000 : iters;
    ti = malloc((size_t)iters * sizeof *ti);
    if (a == NULL || b == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    make_faces(&f, n);
    for (i = 0; i < len; i++) {
        a[i] = (double)((i + (size_t)rank) % 11);
        b[i] = a[i];
    }
    iteration(a, b, n, &f, nb, cart); /* not timed */
    s = a;
    a = b;
    b = s;
    MPI_Barrier(cart);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        iteration(a, b, n, &f, nb, cart);
        s = a;
        a = b;
        b = s;
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, (int)iters);
    sink = a[len / 2];
    free_faces(&f);
    free(a);
    free(b);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    int rank, size, dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0}, nb[3][2], d, k;
    long n;
    MPI_Comm cart;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 3, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
    MPI_Comm_rank(cart, &rank);
    for (d = 0; d < 3; d++)
        MPI_Cart_shift(cart, d, 1, &nb[d][0], &nb[d][1]);
    for (k = 1; k < argc; k++) {
        n = strtol(argv[k], NULL, 10);
        if (n < 2 || n > 512)
            MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (k = 1; k < argc; k++) {
        n = strtol(argv[k], NULL, 10);
        double t = timed((int)n, rank, nb, cart);
        if (rank == 0)
            printf("stencil3d_pn %d %ld %.6e\n", size, n, t);
    }
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return 0;
}
