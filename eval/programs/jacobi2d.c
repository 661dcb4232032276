/* jacobi2d: weak scaling of a 5-point Jacobi sweep on a 2-D grid (held-out
 * data, never used to choose the selection): each of the launched P ranks
 * owns a 512 x 512 block of a process grid from MPI_Dims_create (1x1, 2x1,
 * 3x1, 2x2, 5x1, 3x2, 7x1, 4x2), non-periodic, and one iteration exchanges
 * one row or column of halo with each neighbour (MPI_Sendrecv, columns as a
 * strided MPI_Type_vector) and then sweeps its block. Prints
 *   "jacobi2d_w P seconds".
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. Times are the least of one iteration (the slowest rank's time of
 * each): on a machine shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define B 512     /* block side per rank */
#define W (B + 2) /* row length with the ghost columns */
#define ITERS 200

static volatile double sink;

int main(int argc, char **argv)
{
    int rank, size, dims[2] = {0, 0}, periods[2] = {0, 0}, north, south, west, east;
    int it, x, y;
    double *a, *b, *s, ti[ITERS], t0, t;
    size_t i, len = (size_t)W * W;
    MPI_Comm cart;
    MPI_Datatype column;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Comm_rank(cart, &rank);
    MPI_Cart_shift(cart, 0, 1, &north, &south);
    MPI_Cart_shift(cart, 1, 1, &west, &east);
    MPI_Type_vector(B, 1, W, MPI_DOUBLE, &column);
    MPI_Type_commit(&column);
    a = malloc(len * sizeof *a);
    b = malloc(len * sizeof *b);
    if (a == NULL || b == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < len; i++) {
        a[i] = (double)((i + (size_t)rank) % 11);
        b[i] = a[i];
    }
    MPI_Barrier(cart);
    for (it = 0; it < ITERS; it++) {
        t0 = MPI_Wtime();
        /* rows: first and last owned rows to the neighbours' ghost rows */
        MPI_Sendrecv(a + W + 1, B, MPI_DOUBLE, north, 0, a + (size_t)(B + 1) * W + 1, B,
                     MPI_DOUBLE, south, 0, cart, MPI_STATUS_IGNORE);
        MPI_Sendrecv(a + (size_t)B * W + 1, B, MPI_DOUBLE, south, 1, a + 1, B, MPI_DOUBLE,
                     north, 1, cart, MPI_STATUS_IGNORE);
        /* columns: first and last owned columns to the ghost columns */
        MPI_Sendrecv(a + W + 1, 1, column, west, 2, a + W + B + 1, 1, column, east, 2,
                     cart, MPI_STATUS_IGNORE);
        MPI_Sendrecv(a + W + B, 1, column, east, 3, a + W, 1, column, west, 3, cart,
                     MPI_STATUS_IGNORE);
        for (y = 1; y <= B; y++)
            for (x = 1; x <= B; x++) {
                size_t c = (size_t)y * W + x;
                b[c] = 0.25 * (a[c - 1] + a[c + 1] + a[c - W] + a[c + W]);
            }
        s = a;
        a = b;
        b = s;
        ti[it] = MPI_Wtime() - t0;
    }
    MPI_Allreduce(MPI_IN_PLACE, ti, ITERS, MPI_DOUBLE, MPI_MAX, cart);
    t = ti[0];
    for (it = 1; it < ITERS; it++)
        t = ti[it] < t ? ti[it] : t;
    if (rank == 0)
        printf("jacobi2d_w %d %.6e\n", size, t);
    sink = a[len / 2];
    free(a);
    free(b);
    MPI_Type_free(&column);
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return 0;
}
