/* mcpi_pn: strong scaling of a Monte Carlo estimate of pi over two
 * variables, the launched number of ranks P and the number of samples S
 * (held-out data of heldout17, a two-variable grid, never used to choose
 * the selection). The S samples are split as evenly as possible over the P
 * ranks; each rank draws its points in the unit square from its own
 * xorshift64 generator (seeded by its rank; two 53-bit doubles per point),
 * counts those inside the quarter circle, and one MPI_Allreduce sums the
 * counts; pi is 4 count / S. Usage:
 *   mpirun -np P mcpi_pn S...   prints "mcpi_pn P S seconds" for each S
 *                               (P ... 2^30).
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. One estimate runs untimed first; the slowest rank's time of it
 * sets the number of timed estimates, the same on every rank (enough for
 * about 0.2 s, at least 3, at most 2000), which follow a barrier. The
 * generators run on from estimate to estimate: each estimate draws new
 * points. Check (not timed): every estimate within 10 / sqrt(S) of pi (about
 * 6 standard deviations). Times are the least of one estimate (the slowest
 * rank's time of each, timing.h): on a machine shared with other programs,
 * other work only adds time. */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define MAXITERS 2000
#define PI 3.14159265358979323846

static double estimate(uint64_t *state, long nl, long s)
{
    uint64_t z = *state;
    long long in = 0;
    long i;

    for (i = 0; i < nl; i++) {
        double x, y;
        z ^= z << 13;
        z ^= z >> 7;
        z ^= z << 17;
        x = (double)(z >> 11) * (1.0 / 9007199254740992.0);
        z ^= z << 13;
        z ^= z >> 7;
        z ^= z << 17;
        y = (double)(z >> 11) * (1.0 / 9007199254740992.0);
        in += x * x + y * y <= 1.0;
    }
    *state = z;
    MPI_Allreduce(MPI_IN_PLACE, &in, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    return 4.0 * (double)in / (double)s;
}

static double timed(long s, int rank, int size)
{
    long nl = s * (rank + 1) / size - s * rank / size;
    uint64_t state =
        88172645463325252ULL ^ (0x9E3779B97F4A7C15ULL * (uint64_t)(rank + 1));
    double *ti = malloc(MAXITERS * sizeof *ti), t0, t, pi, worst;
    int iters, it;

    if (ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    pi = estimate(&state, nl, s); /* not timed */
    t = MPI_Wtime() - t0;
    worst = fabs(pi - PI);
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    iters = (int)(0.2 / (t > 1e-9 ? t : 1e-9)) + 1;
    iters = iters < 3 ? 3 : iters > MAXITERS ? MAXITERS : iters;
    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < iters; it++) {
        t0 = MPI_Wtime();
        pi = estimate(&state, nl, s);
        ti[it] = MPI_Wtime() - t0;
        worst = fabs(pi - PI) > worst ? fabs(pi - PI) : worst;
    }
    t = least(ti, iters);
    if (rank == 0 && worst > 10 / sqrt((double)s))
        fprintf(stderr, "mcpi_pn: P %d S %ld: an estimate off by %g\n", size, s, worst);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    int rank, size, k;
    long s;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (k = 1; k < argc; k++) {
        s = strtol(argv[k], NULL, 10);
        if (s < size || s > (1L << 30))
            MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (k = 1; k < argc; k++) {
        s = strtol(argv[k], NULL, 10);
        double t = timed(s, rank, size);
        if (rank == 0)
            printf("mcpi_pn %d %ld %.6e\n", size, s, t);
    }
    MPI_Finalize();
    return 0;
}
