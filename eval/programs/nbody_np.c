/* nbody_np: one time step of an all-pairs gravitational N-body simulation
 * over two variables, the launched number of ranks P and the number of
 * bodies N (held-out data of heldout16, a two-variable grid, never used to
 * choose the selection). The bodies are split as evenly as possible over
 * the ranks; every rank holds all N positions and masses. One step: each
 * rank computes the softened inverse-square pull of all N bodies on each of
 * its own (N^2 / P pair interactions of about 20 flops, one square root and
 * one division each), updates its bodies' velocities and positions
 * (symplectic Euler), and the ranks share the new positions with
 * MPI_Allgatherv (MPI_Allgather with the counts of an uneven split: N / P
 * is not a whole number at P = 3 and 6). Usage:
 *   mpirun -np P nbody_np N...   prints "nbody_np P N seconds" for each N
 *                                (P ... 65536).
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. The bodies are drawn with a fixed seed, the same for every P
 * (positions in the unit cube, masses 1 / N, at rest), before anything is
 * timed; one step runs untimed first, and the slowest rank's time of it
 * sets the number of timed steps, the same on every rank (enough for about
 * 0.2 s, at least 3, at most 2000). Check (not timed): the positions are
 * finite. Times are the least of one step (the slowest rank's time of each,
 * timing.h): on a machine shared with other programs, other work only adds
 * time. */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define EPS2 1e-4 /* softening, squared */
#define DT 1e-4   /* time step */
#define MAXSTEPS 2000

static volatile double sink;

struct bodies {
    long n, lo, nl;       /* all bodies, the first and the number of this rank's */
    double *pos, *mass;   /* x, y, z of all N; mass of all N */
    double *vel, *mine;   /* velocity, new position of this rank's bodies */
    int *counts, *displs; /* the MPI_Allgatherv layout, in doubles */
};

static void step(struct bodies *b)
{
    const double *restrict p = b->pos, *restrict m = b->mass;
    long i, j, n = b->n;

    for (i = 0; i < b->nl; i++) {
        const double *pi = p + 3 * (b->lo + i);
        double xi = pi[0], yi = pi[1], zi = pi[2], ax = 0, ay = 0, az = 0;
        for (j = 0; j < n; j++) {
            double dx = p[3 * j] - xi, dy = p[3 * j + 1] - yi, dz = p[3 * j + 2] - zi;
            double r2 = dx * dx + dy * dy + dz * dz + EPS2;
            double s = m[j] / (r2 * sqrt(r2));
            ax += s * dx;
            ay += s * dy;
            az += s * dz;
        }
        b->vel[3 * i] += DT * ax;
        b->vel[3 * i + 1] += DT * ay;
        b->vel[3 * i + 2] += DT * az;
        b->mine[3 * i] = xi + DT * b->vel[3 * i];
        b->mine[3 * i + 1] = yi + DT * b->vel[3 * i + 1];
        b->mine[3 * i + 2] = zi + DT * b->vel[3 * i + 2];
    }
    MPI_Allgatherv(b->mine, (int)(3 * b->nl), MPI_DOUBLE, b->pos, b->counts, b->displs,
                   MPI_DOUBLE, MPI_COMM_WORLD);
}

static double timed(long n, int rank, int size)
{
    struct bodies b;
    uint64_t z = 88172645463325252ULL + 7919ULL * (uint64_t)n;
    double *ti = malloc(MAXSTEPS * sizeof *ti), t0, t;
    long i;
    int r, steps, s, bad = 0;

    b.n = n;
    b.lo = n * rank / size;
    b.nl = n * (rank + 1) / size - b.lo;
    b.pos = malloc((size_t)(3 * n) * sizeof *b.pos);
    b.mass = malloc((size_t)n * sizeof *b.mass);
    b.vel = calloc((size_t)(3 * b.nl), sizeof *b.vel);
    b.mine = malloc((size_t)(3 * b.nl) * sizeof *b.mine);
    b.counts = malloc((size_t)size * sizeof *b.counts);
    b.displs = malloc((size_t)size * sizeof *b.displs);
    if (ti == NULL || b.pos == NULL || b.mass == NULL || b.vel == NULL ||
        b.mine == NULL || b.counts == NULL || b.displs == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (r = 0; r < size; r++) {
        long lo = n * r / size, hi = n * (r + 1) / size;
        b.displs[r] = (int)(3 * lo);
        b.counts[r] = (int)(3 * (hi - lo));
    }
    for (i = 0; i < 3 * n; i++) { /* xorshift64, the same on every rank */
        z ^= z << 13;
        z ^= z >> 7;
        z ^= z << 17;
        b.pos[i] = (double)(z >> 11) / 9007199254740992.0;
    }
    for (i = 0; i < n; i++)
        b.mass[i] = 1.0 / (double)n;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    step(&b); /* not timed */
    t = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    steps = (int)(0.2 / (t > 1e-9 ? t : 1e-9)) + 1;
    steps = steps < 3 ? 3 : steps > MAXSTEPS ? MAXSTEPS : steps;
    MPI_Barrier(MPI_COMM_WORLD);
    for (s = 0; s < steps; s++) {
        t0 = MPI_Wtime();
        step(&b);
        ti[s] = MPI_Wtime() - t0;
    }
    t = least(ti, steps);
    for (i = 0; i < 3 * n && !bad; i++)
        bad = !isfinite(b.pos[i]);
    if (bad)
        fprintf(stderr, "nbody_np: P %d N %ld: position %ld not finite\n", size, n,
                i - 1);
    sink = b.pos[3 * (n / 2)];
    free(b.pos);
    free(b.mass);
    free(b.vel);
    free(b.mine);
    free(b.counts);
    free(b.displs);
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
        if (n < size || n > 65536)
            MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (k = 1; k < argc; k++) {
        n = strtol(argv[k], NULL, 10);
        double t = timed(n, rank, size);
        if (rank == 0)
            printf("nbody_np %d %ld %.6e\n", size, n, t);
    }
    MPI_Finalize();
    return 0;
}
