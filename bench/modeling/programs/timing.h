/* timing.h: what the programs here share. least(): the timing rule of every
 * program. ti[0..iters-1] holds this
 * rank's time of each iteration; an iteration takes as long as its slowest
 * rank, and the answer is the least of those times: on a machine shared with
 * other work, other work only ever adds time. Collective (every rank calls
 * it); ti is overwritten with the per-iteration maxima. */
#ifndef BENCH_MODELING_TIMING_H
#define BENCH_MODELING_TIMING_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline double least(double *ti, int iters)
{
    double t;
    int it;

    MPI_Allreduce(MPI_IN_PLACE, ti, iters, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    t = ti[0];
    for (it = 1; it < iters; it++)
        t = ti[it] < t ? ti[it] : t;
    return t;
}

/* Iterations for a message of `bytes`: about 20 MB moved in all, 20...2000
 * (the message-size sweeps). */
static inline int iters_for(long bytes)
{
    long k = 20000000L / (bytes + 1000);
    return k < 20 ? 20 : k > 2000 ? 2000 : (int)k;
}

/* The main of a program that times fn(n) for each size n on its command
 * line and prints "name n seconds" on rank 0; a size outside lo..hi, or not
 * a power of 2 when pow2, aborts. */
static inline int sweep(int argc, char **argv, const char *name, long lo, long hi,
                        int pow2, double (*fn)(long))
{
    int rank, k;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (k = 1; k < argc; k++) {
        long n = strtol(argv[k], NULL, 10);
        double t;
        if (n < lo || n > hi || (pow2 && (n & (n - 1)) != 0))
            MPI_Abort(MPI_COMM_WORLD, 1);
        t = fn(n);
        if (rank == 0)
            printf("%s %ld %.6e\n", name, n, t);
    }
    MPI_Finalize();
    return 0;
}

/* The main of a program with two sweeps: over the number of ranks (first
 * argument "p"), and otherwise over the message size; each function gets
 * this rank and the number of ranks. */
static inline int over_p_or_size(int argc, char **argv, void (*over_p)(int, int),
                                 void (*over_size)(int, int))
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && strcmp(argv[1], "p") == 0)
        over_p(rank, size);
    else
        over_size(rank, size);
    MPI_Finalize();
    return 0;
}

#endif
