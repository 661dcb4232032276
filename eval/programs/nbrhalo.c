/* nbrhalo: weak scaling of a 2-D 5-point Jacobi iteration whose halo
 * exchange is one MPI_Neighbor_alltoall (held-out data, never used to
 * choose the selection): the P ranks form a periodic 2-D Cartesian grid
 * (MPI_Dims_create, MPI_Cart_create), every rank owns a 512 x 512 block of
 * doubles (2 MiB, two of them: 4 MiB, the size of L2) with a ghost layer;
 * one iteration packs its four edges, exchanges them with its four
 * neighbours by MPI_Neighbor_alltoall (512 doubles each way per neighbour;
 * a neighbour may be the rank itself), unpacks them into the ghosts and
 * replaces every point by the mean of its four neighbours. Prints
 *   "nbrhalo_p P seconds".
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. One iteration runs from a barrier to a barrier (40 iterations
 * after one that is not timed). Check (not timed): on the periodic domain
 * the mean of the four neighbours keeps the global sum, so the sum after
 * the iterations equals the sum before (relative error below 1e-10): a
 * ghost filled from the wrong neighbour or the wrong edge breaks it. Times
 * are the least of one iteration (the slowest rank's time of each): on a
 * machine shared with other programs, other work only adds time. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define B 512 /* block side */
#define ITERS 40
#define AT(u, i, j) (u)[(long)(i) * (B + 2) + (j)]

static double total(const double *u)
{
    double s = 0;
    int i, j;

    for (i = 1; i <= B; i++)
        for (j = 1; j <= B; j++)
            s += AT(u, i, j);
    MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return s;
}

/* Neighbour order of a Cartesian communicator: dimension 0 -, +, then
 * dimension 1 -, +; block k of the send buffer goes to neighbour k. */
static void iteration(MPI_Comm cart, double **u, double **v, double *sb, double *rb)
{
    double *a = *u, *b = *v;
    int i, j;

    for (j = 0; j < B; j++) {
        sb[0 * B + j] = AT(a, 1, j + 1); /* top row to the - neighbour in 0 */
        sb[1 * B + j] = AT(a, B, j + 1);
        sb[2 * B + j] = AT(a, j + 1, 1); /* left column to the - neighbour in 1 */
        sb[3 * B + j] = AT(a, j + 1, B);
    }
    MPI_Neighbor_alltoall(sb, B, MPI_DOUBLE, rb, B, MPI_DOUBLE, cart);
    for (j = 0; j < B; j++) {
        AT(a, 0, j + 1) = rb[0 * B + j]; /* the - neighbour's bottom row */
        AT(a, B + 1, j + 1) = rb[1 * B + j];
        AT(a, j + 1, 0) = rb[2 * B + j];
        AT(a, j + 1, B + 1) = rb[3 * B + j];
    }
    for (i = 1; i <= B; i++)
        for (j = 1; j <= B; j++)
            AT(b, i, j) = 0.25 * (AT(a, i - 1, j) + AT(a, i + 1, j) + AT(a, i, j - 1) +
                                  AT(a, i, j + 1));
    *u = b;
    *v = a;
}

int main(int argc, char **argv)
{
    int rank, size, it, i, j, dims[2] = {0, 0}, per[2] = {1, 1}, crd[2];
    double *u, *v, *sb, *rb, ti[ITERS], t0, t, s0, s1;
    MPI_Comm cart;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, 0, &cart);
    MPI_Comm_rank(cart, &rank);
    MPI_Cart_coords(cart, rank, 2, crd);
    u = calloc((size_t)(B + 2) * (B + 2), sizeof *u);
    v = calloc((size_t)(B + 2) * (B + 2), sizeof *v);
    sb = malloc(4 * B * sizeof *sb);
    rb = malloc(4 * B * sizeof *rb);
    if (u == NULL || v == NULL || sb == NULL || rb == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    /* A field that differs across every block edge. */
    for (i = 1; i <= B; i++)
        for (j = 1; j <= B; j++) {
            double gx = (double)(crd[0] * B + i), gy = (double)(crd[1] * B + j);
            AT(u, i, j) = 1.0 + sin(0.013 * gx) * cos(0.007 * gy) + 0.001 * gx;
        }
    s0 = total(u);
    iteration(cart, &u, &v, sb, rb); /* not timed */
    for (it = 0; it < ITERS; it++) {
        MPI_Barrier(cart);
        t0 = MPI_Wtime();
        iteration(cart, &u, &v, sb, rb);
        MPI_Barrier(cart);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, ITERS);
    s1 = total(u);
    if (rank == 0) {
        if (fabs(s1 - s0) > 1e-10 * fabs(s0)) {
            fprintf(stderr, "nbrhalo: P %d: the sum moved from %.17g to %.17g\n", size,
                    s0, s1);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        printf("nbrhalo_p %d %.6e\n", size, t);
    }
    free(u);
    free(v);
    free(sb);
    free(rb);
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return 0;
}
