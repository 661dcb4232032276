/* ringmv: strong scaling of a dense matrix-vector product y = A x pipelined
 * around a ring of ranks (held-out data, never used to choose the
 * selection). A is of order 2520 (divisible by every P swept), split by
 * blocks of rows, x by the matching blocks; in each of P steps a rank
 * multiplies the column block of its rows that matches the block of x it
 * holds, then passes that block to the next rank of the ring and receives
 * one from the previous by MPI_Sendrecv_replace, so every block of x visits
 * every rank. Prints
 *   "ringmv_p P seconds"
 * for P ranks (up to 2 have a core each; beyond, they oversubscribe the 2
 * cores). A (50 MB in all, past L2 at every P) holds
 * a(i, j) = 1 / (1 + |i - j|) + sin(i + 2 j) / 8 and x(j) = cos(j) / 2,
 * written before anything is timed. One iteration runs from a barrier
 * through the P steps to a closing barrier (25 iterations). Check (not
 * timed): on every 97th row the product equals the sum over j of
 * a(i, j) x(j) within 1e-10. Times are the least of one iteration
 * (timing.h): on a machine shared with other programs, other work only adds
 * time. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define ORDER 2520L
#define ITERS 25

static double aij(long i, long j)
{
    return 1.0 / (1.0 + (double)labs(i - j)) + sin((double)(i + 2 * j)) / 8.0;
}

int main(int argc, char **argv)
{
    int rank, size, it, s, bad = 0;
    long m, i, j;
    double *a, *x, *y, ti[ITERS], t0, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (ORDER % size != 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    m = ORDER / size;
    a = malloc((size_t)(m * ORDER) * sizeof *a);
    x = malloc((size_t)m * sizeof *x);
    y = malloc((size_t)m * sizeof *y);
    if (a == NULL || x == NULL || y == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < m; i++)
        for (j = 0; j < ORDER; j++)
            a[i * ORDER + j] = aij(rank * m + i, j);
    for (i = 0; i < m; i++)
        x[i] = cos((double)(rank * m + i)) / 2.0;
    for (it = -1; it < ITERS; it++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        for (i = 0; i < m; i++)
            y[i] = 0.0;
        for (s = 0; s < size; s++) {
            long blk = (rank + s) % size; /* the block of x held at step s */
            const double *ab = a + blk * m;
            for (i = 0; i < m; i++) {
                const double *row = ab + i * ORDER;
                double acc = 0.0;
                for (j = 0; j < m; j++)
                    acc += row[j] * x[j];
                y[i] += acc;
            }
            if (size > 1)
                MPI_Sendrecv_replace(x, (int)m, MPI_DOUBLE, (rank + size - 1) % size, 0,
                                     (rank + 1) % size, 0, MPI_COMM_WORLD,
                                     MPI_STATUS_IGNORE);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (it >= 0)
            ti[it] = MPI_Wtime() - t0; /* the first is not timed */
    }
    t = least(ti, ITERS);
    for (i = 0; i < m; i++) {
        long g = rank * m + i;
        double e = 0.0;
        if (g % 97 != 0)
            continue;
        for (j = 0; j < ORDER; j++)
            e += aij(g, j) * (cos((double)j) / 2.0);
        bad |= fabs(e - y[i]) > 1e-10;
    }
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (bad) {
        if (rank == 0)
            fprintf(stderr, "ringmv: P %d: the product is wrong\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (rank == 0)
        printf("ringmv_p %d %.6e\n", size, t);
    free(a);
    free(x);
    free(y);
    MPI_Finalize();
    return 0;
}
