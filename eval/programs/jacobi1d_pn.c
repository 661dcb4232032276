/* jacobi1d_pn: strong scaling of a 1-D 3-point Jacobi iteration over two
 * variables, the launched number of ranks P and the global number of grid
 * points N (held-out data of heldout16, a two-variable grid, never used to
 * choose the selection). The N points (fixed values 1 and 0 beyond the two
 * ends) are split as evenly as possible over the P ranks in a line; one
 * iteration exchanges one point of halo with each neighbour (two
 * MPI_Sendrecv), sweeps the rank's points (b = (left + right) / 2) summing
 * the squared change, and sums that residual over the ranks with
 * MPI_Allreduce. Usage:
 *   mpirun -np P jacobi1d_pn N...   prints "jacobi1d_pn P N seconds" for
 *                                   each N (P ... 2^28).
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. The arrays are written before anything is timed and one iteration
 * runs untimed first; then 4e7 / (N / min(P, 2)) iterations (5...2000) are
 * timed after a barrier. Times are the least of one iteration (the slowest
 * rank's time of each, timing.h): on a machine shared with other programs,
 * other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

static volatile double sink;

static double iteration(double *a, double *b, long nl, int left, int right)
{
    double res = 0, d;
    long i;

    MPI_Sendrecv(a + 1, 1, MPI_DOUBLE, left, 0, a + nl + 1, 1, MPI_DOUBLE, right, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(a + nl, 1, MPI_DOUBLE, right, 1, a, 1, MPI_DOUBLE, left, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (i = 1; i <= nl; i++) {
        b[i] = 0.5 * (a[i - 1] + a[i + 1]);
        d = b[i] - a[i];
        res += d * d;
    }
    MPI_Allreduce(MPI_IN_PLACE, &res, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return res;
}

static double timed(long n, int rank, int size)
{
    long lo = n * rank / size, hi = n * (rank + 1) / size, nl = hi - lo, i;
    long iters = 40000000L / (n / (size < 2 ? size : 2));
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL,
        right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL, it;
    double *a = malloc((size_t)(nl + 2) * sizeof *a),
           *b = malloc((size_t)(nl + 2) * sizeof *b), *s, *ti, t0, t, res;

    iters = iters < 5 ? 5 : iters > 2000 ? 2000 : iters;
    ti = malloc((size_t)iters * sizeof *ti);
    if (a == NULL || b == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 1; i <= nl; i++)
        a[i] = b[i] = (double)((lo + i) % 11) / 11;
    /* the ghosts at the ends of the line keep the boundary values */
    a[0] = b[0] = 1;
    a[nl + 1] = b[nl + 1] = 0;
    res = iteration(a, b, nl, left, right); /* not timed */
    s = a;
    a = b;
    b = s;
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        res = iteration(a, b, nl, left, right);
        s = a;
        a = b;
        b = s;
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, (int)iters);
    sink = a[nl / 2 + 1] + res;
    free(a);
    free(b);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    int rank, size, k;
    long n;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (k = 1; k < argc; k++) {
        n = strtol(argv[k], NULL, 10);
        if (n < size || n > (1L << 28))
            MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (k = 1; k < argc; k++) {
        n = strtol(argv[k], NULL, 10);
        double t = timed(n, rank, size);
        if (rank == 0)
            printf("jacobi1d_pn %d %ld %.6e\n", size, n, t);
    }
    MPI_Finalize();
    return 0;
}
