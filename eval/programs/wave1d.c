/* wave1d: leapfrog steps of the 1-D wave equation u_tt = u_xx with fixed
 * ends (held-out data, never used to choose the selection). A step is
 *   u+ = 2 u - u- + C^2 (u[j+1] - 2 u[j] + u[j-1]),  C = 0.9,
 * over the points of this rank, its two end values first swapped with the
 * neighbouring ranks by MPI_Sendrecv (the domain is split in contiguous
 * blocks; the outer ends are held at 0). Three arrays of doubles, rotated.
 * Usage:
 *   wave1d p     weak scaling: 2^17 points per rank (3 MiB of arrays), the
 *                grid growing with P; prints "wave1d_p P seconds" (60 steps,
 *                each from a barrier to a barrier).
 *   wave1d N...  at P = 1: N points (2^10 <= N <= 2^24; 24 N bytes, 96 KiB
 *                at 2^12, 24 MiB at 2^20, past L2); prints "wave1d_n N
 *                seconds" for each N (timing.h's least_pass, about 0.2 s of
 *                samples).
 * The start is one standing mode sin(theta j), theta = 3 pi / (M + 1) over
 * the M points in all, with the previous level set so that the discrete
 * solution is exactly cos(omega s) sin(theta j) after s steps,
 * cos omega = 1 - 2 C^2 sin^2(theta / 2). Check (not timed, after every
 * step taken): the largest deviation from that solution is below 1e-6.
 * Times are the least of one step (timing.h): on a machine shared with
 * other programs, other work only adds time. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define PER_RANK (1L << 17)
#define ITERS 60
#define C2 0.81

struct wave {
    long mine, first, total; /* first: global index (from 1) of local point 1 */
    int rank, size;
    double *um, *u, *up; /* mine + 2 each, halo at 0 and mine + 1 */
    double theta, omega;
    long steps;
};

static void step(void *arg)
{
    struct wave *w = arg;
    int left = w->rank > 0 ? w->rank - 1 : MPI_PROC_NULL,
        right = w->rank < w->size - 1 ? w->rank + 1 : MPI_PROC_NULL;
    double *t;
    long j;

    w->u[0] = 0.0;
    w->u[w->mine + 1] = 0.0;
    MPI_Sendrecv(&w->u[1], 1, MPI_DOUBLE, left, 0, &w->u[w->mine + 1], 1, MPI_DOUBLE,
                 right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&w->u[w->mine], 1, MPI_DOUBLE, right, 1, &w->u[0], 1, MPI_DOUBLE, left,
                 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (j = 1; j <= w->mine; j++)
        w->up[j] =
            2.0 * w->u[j] - w->um[j] + C2 * (w->u[j + 1] - 2.0 * w->u[j] + w->u[j - 1]);
    t = w->um;
    w->um = w->u;
    w->u = w->up;
    w->up = t;
    w->steps++;
}

static void setup(struct wave *w, long mine, long total)
{
    long j;
    double s;

    MPI_Comm_rank(MPI_COMM_WORLD, &w->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &w->size);
    w->mine = mine;
    w->total = total;
    w->first = 1 + (long)w->rank * mine;
    w->um = malloc((size_t)(mine + 2) * sizeof(double));
    w->u = malloc((size_t)(mine + 2) * sizeof(double));
    w->up = malloc((size_t)(mine + 2) * sizeof(double));
    if (w->um == NULL || w->u == NULL || w->up == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    w->theta = 3.0 * acos(-1.0) / (double)(total + 1);
    s = sin(w->theta / 2.0);
    w->omega = acos(1.0 - 2.0 * C2 * s * s);
    for (j = 0; j < mine + 2; j++) {
        double v = sin(w->theta * (double)(w->first + j - 1));
        w->u[j] = v;
        w->um[j] = cos(w->omega) * v;
        w->up[j] = 0.0;
    }
    w->steps = 0;
}

/* 0 if the solution is right on every rank. */
static int check(struct wave *w)
{
    double a = cos(w->omega * (double)w->steps), e = 0.0;
    long j;
    int bad;

    for (j = 1; j <= w->mine; j++) {
        double d = fabs(w->u[j] - a * sin(w->theta * (double)(w->first + j - 1)));
        e = d > e ? d : e;
    }
    bad = !(e < 1e-6);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    return bad;
}

static void release(struct wave *w)
{
    free(w->um);
    free(w->u);
    free(w->up);
}

int main(int argc, char **argv)
{
    int rank, size, it, a;
    struct wave w;
    double ti[ITERS], t0, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && strcmp(argv[1], "p") == 0) {
        setup(&w, PER_RANK, PER_RANK * size);
        step(&w); /* not timed */
        for (it = 0; it < ITERS; it++) {
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
            step(&w);
            MPI_Barrier(MPI_COMM_WORLD);
            ti[it] = MPI_Wtime() - t0;
        }
        t = least(ti, ITERS);
        if (check(&w)) {
            if (rank == 0)
                fprintf(stderr, "wave1d: P %d: the solution is wrong\n", size);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        if (rank == 0)
            printf("wave1d_p %d %.6e\n", size, t);
        release(&w);
        MPI_Finalize();
        return 0;
    }
    for (a = 1; a < argc; a++) {
        long n = strtol(argv[a], NULL, 10);
        if (size != 1 || n < 1024 || n > (1L << 24))
            MPI_Abort(MPI_COMM_WORLD, 1);
        setup(&w, n, n);
        t = least_pass(step, &w, 0.2);
        if (check(&w)) {
            fprintf(stderr, "wave1d: N %ld: the solution is wrong\n", n);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        printf("wave1d_n %ld %.6e\n", n, t);
        release(&w);
    }
    MPI_Finalize();
    return 0;
}
