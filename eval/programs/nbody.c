/* nbody: the all-pairs gravitational accelerations of N bodies on one rank
 * (held-out data, never used to choose the selection): for every body, the
 * softened inverse-square pull of all N bodies (N^2 pair interactions of
 * about 20 flops, one square root and one division each), while the 32 N
 * bytes of positions and masses stay in L1 (N <= 1024) or L2. Usage:
 *   nbody N...   prints "nbody_n N seconds" for each N.
 * The bodies are drawn once per N with a fixed seed; every iteration
 * computes the same accelerations from the same positions. Times are the
 * least of one evaluation of all the forces: on a machine shared with other
 * programs, other work only adds time. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define EPS2 1e-6 /* softening, squared */

static volatile double sink;

/* p: x, y, z, mass of each body; a: its acceleration x, y, z */
static void forces(const double *restrict p, double *restrict a, long n)
{
    long i, j;

    for (i = 0; i < n; i++) {
        double xi = p[4 * i], yi = p[4 * i + 1], zi = p[4 * i + 2];
        double ax = 0, ay = 0, az = 0;
        for (j = 0; j < n; j++) {
            double dx = p[4 * j] - xi, dy = p[4 * j + 1] - yi, dz = p[4 * j + 2] - zi;
            double r2 = dx * dx + dy * dy + dz * dz + EPS2;
            double s = p[4 * j + 3] / (r2 * sqrt(r2));
            ax += s * dx;
            ay += s * dy;
            az += s * dz;
        }
        a[3 * i] = ax;
        a[3 * i + 1] = ay;
        a[3 * i + 2] = az;
    }
}

static double evaluated(long n)
{
    int iters, it;
    long k, i;
    double *p = malloc((size_t)n * 4 * sizeof *p), *a = malloc((size_t)n * 3 * sizeof *a);
    double *ti, t0, t;
    unsigned long long x = 88172645463325252ULL; /* xorshift64, fixed seed */

    k = 50000000L / (n * n + 1000);
    iters = k < 3 ? 3 : k > 2000 ? 2000 : (int)k;
    ti = malloc((size_t)iters * sizeof *ti);
    if (p == NULL || a == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < 4 * n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p[i] = (double)(x >> 11) / 9007199254740992.0; /* in [0, 1) */
    }
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        forces(p, a, n);
        ti[it] = MPI_Wtime() - t0;
        sink = a[3 * (it % n)];
    }
    t = least(ti, iters);
    free(p);
    free(a);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    return sweep(argc, argv, "nbody_n", 1, 1L << 20, 0, evaluated);
}
