/* solver: conjugate gradients on the 2-D Poisson problem (5-point stencil),
 * rows distributed over ranks, fixed 50 iterations. Prints "cg_n N seconds"
 * for the grid side N given on the command line and "cg_p P seconds" style
 * lines are produced by the script by varying P. The time is 50 times the
 * least time of one iteration (the slowest rank's time of each), because on
 * a machine shared with other programs a total mostly measures how often the
 * others interrupted. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size, n = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 256, it, i, j;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rows = n / size + (rank < n % size), up = rank - 1, dn = rank + 1;
    size_t cells = (size_t)(rows + 2) * (size_t)n;
    double *x = calloc(cells, sizeof *x), *r = calloc(cells, sizeof *r);
    double *p = calloc(cells, sizeof *p), *q = calloc(cells, sizeof *q);
    for (i = 1; i <= rows; i++)
        for (j = 0; j < n; j++)
            r[(size_t)i * n + j] = p[(size_t)i * n + j] = 1.0;
    double rr = (double)rows * n, t0, ti[50];
    MPI_Allreduce(MPI_IN_PLACE, &rr, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < 50; it++) {
        t0 = MPI_Wtime();
        MPI_Sendrecv(&p[(size_t)1 * n], n, MPI_DOUBLE, up >= 0 ? up : MPI_PROC_NULL, 0,
                     &p[(size_t)(rows + 1) * n], n, MPI_DOUBLE,
                     dn < size ? dn : MPI_PROC_NULL, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv(&p[(size_t)rows * n], n, MPI_DOUBLE, dn < size ? dn : MPI_PROC_NULL,
                     1, &p[0], n, MPI_DOUBLE, up >= 0 ? up : MPI_PROC_NULL, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double pq = 0, rn = 0;
        for (i = 1; i <= rows; i++)
            for (j = 0; j < n; j++) {
                size_t k = (size_t)i * n + j;
                double v = 4 * p[k] - p[k - n] - p[k + n] - (j > 0 ? p[k - 1] : 0) -
                           (j < n - 1 ? p[k + 1] : 0);
                q[k] = v;
                pq += p[k] * v;
            }
        MPI_Allreduce(MPI_IN_PLACE, &pq, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        double alpha = rr / pq;
        for (i = 1; i <= rows; i++)
            for (j = 0; j < n; j++) {
                size_t k = (size_t)i * n + j;
                x[k] += alpha * p[k];
                r[k] -= alpha * q[k];
                rn += r[k] * r[k];
            }
        MPI_Allreduce(MPI_IN_PLACE, &rn, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        for (i = 1; i <= rows; i++)
            for (j = 0; j < n; j++) {
                size_t k = (size_t)i * n + j;
                p[k] = r[k] + (rn / rr) * p[k];
            }
        rr = rn;
        ti[it] = MPI_Wtime() - t0;
    }
    MPI_Allreduce(MPI_IN_PLACE, ti, 50, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    double t = ti[0];
    for (it = 1; it < 50; it++)
        t = ti[it] < t ? ti[it] : t;
    t *= 50;
    if (rank == 0)
        printf("cg_n %d %.6e\ncg_p %d %.6e %g\n", n, t, size, t, sqrt(rr));
    free(x);
    free(r);
    free(p);
    free(q);
    MPI_Finalize();
    return 0;
}
