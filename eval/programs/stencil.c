/* stencil: a 7-point Jacobi sweep on a 3-D grid, decomposed in slabs along
 * z with a halo exchange of one plane per neighbour (held-out data, never
 * used to choose the selection). Usage:
 *   stencil n N...   prints "stencil_n N seconds" for each grid side N
 *                    (one rank: the sweep over the cache levels);
 *   stencil p        prints "stencil_p P seconds" (strong scaling, 96^3
 *                    points in all) and "stencil_w P seconds" (weak scaling,
 *                    48^3 points per rank) at the launched P.
 * Times are the least of one sweep (the slowest rank's time of each): on a
 * machine shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

/* One sweep over an nx * ny * nz slab with a ghost plane below and above. */
static double sweeps(int nx, int ny, int nz, int iters, int rank, int size)
{
    size_t plane = (size_t)nx * ny, len = plane * ((size_t)nz + 2), i;
    double *a = calloc(len, sizeof *a), *b = calloc(len, sizeof *b), *s;
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;
    int up = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
    int down = rank > 0 ? rank - 1 : MPI_PROC_NULL, it, x, y, z;

    if (a == NULL || b == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < len; i++)
        a[i] = (double)(i % 11);
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        MPI_Sendrecv(a + plane * nz, (int)plane, MPI_DOUBLE, up, 0, a, (int)plane,
                     MPI_DOUBLE, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(a + plane, (int)plane, MPI_DOUBLE, down, 1, a + plane * (nz + 1),
                     (int)plane, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (z = 1; z <= nz; z++)
            for (y = 1; y < ny - 1; y++)
                for (x = 1; x < nx - 1; x++) {
                    size_t c = plane * z + (size_t)nx * y + x;
                    b[c] = (1.0 / 7) * (a[c] + a[c - 1] + a[c + 1] + a[c - nx] +
                                        a[c + nx] + a[c - plane] + a[c + plane]);
                }
        s = a;
        a = b;
        b = s;
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    free(a);
    free(b);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    int rank, size, k;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && strcmp(argv[1], "n") == 0) {
        for (k = 2; k < argc; k++) {
            int n = (int)strtol(argv[k], NULL, 10);
            long pts = (long)n * n * n;
            int iters = pts > 200000000L ? 3 : (int)(200000000L / (pts + 1000));
            double t = sweeps(n, n, n,
                              iters > 200 ? 200
                              : iters < 3 ? 3
                                          : iters,
                              rank, size);
            if (rank == 0)
                printf("stencil_n %d %.6e\n", n, t);
        }
    } else {
        double ts = sweeps(96, 96, 96 / size > 0 ? 96 / size : 1, 30, rank, size);
        double tw = sweeps(48, 48, 48, 30, rank, size);
        if (rank == 0)
            printf("stencil_p %d %.6e\nstencil_w %d %.6e\n", size, ts, size, tw);
    }
    MPI_Finalize();
    return 0;
}
