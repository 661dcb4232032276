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

/* Parses a comma-separated list of integers lo...hi ("64,128,256") into v
 * (room for GRID_MAX); the count, or -1. */
#define GRID_MAX 64
static inline int grid_list(const char *s, long *v, long lo, long hi)
{
    int k = 0;
    char *e;

    while (k < GRID_MAX) {
        v[k] = strtol(s, &e, 10);
        if (e == s || v[k] < lo || v[k] > hi)
            return -1;
        k++;
        if (*e == '\0')
            return k;
        if (*e != ',')
            return -1;
        s = e + 1;
    }
    return -1;
}

/* The main of a program over two variables: "prog A1,A2,... B1,B2,..."
 * times fn(a, b) for every a of the first list and, inside, every b of the
 * second, and prints "name a b seconds" on rank 0. A value outside lo1..hi1
 * or lo2..hi2, or a pair ok (if not NULL) refuses, aborts before anything
 * is timed. */
static inline int grid(int argc, char **argv, const char *name, long lo1, long hi1,
                       long lo2, long hi2, int (*ok)(long, long),
                       double (*fn)(long, long))
{
    long as[GRID_MAX], bs[GRID_MAX];
    int na, nb, i, j, rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    na = argc == 3 ? grid_list(argv[1], as, lo1, hi1) : -1;
    nb = argc == 3 ? grid_list(argv[2], bs, lo2, hi2) : -1;
    if (na < 0 || nb < 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; ok != NULL && i < na; i++)
        for (j = 0; j < nb; j++)
            if (!ok(as[i], bs[j]))
                MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < na; i++)
        for (j = 0; j < nb; j++) {
            double t = fn(as[i], bs[j]);
            if (rank == 0)
                printf("%s %ld %ld %.6e\n", name, as[i], bs[j], t);
        }
    MPI_Finalize();
    return 0;
}

/* The least time of one call of pass(arg) on one rank (the n sweeps at
 * P = 1): one call not timed, then calls batched r at a time (r doubled
 * from 1 until a batch takes 50 us), each batch a sample counted as its
 * time over r, samples for about `budget` seconds (at least 5, at most
 * PASS_MAX). Every rank must get the same number of samples (least() is
 * collective): call it at P = 1 only. */
#define PASS_MAX 20000
static inline double least_pass(void (*pass)(void *), void *arg, double budget)
{
    static double ti[PASS_MAX];
    double t0, t;
    long r = 1, k, target;
    int samples, s;

    pass(arg); /* not timed */
    for (;;) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            pass(arg);
        t = MPI_Wtime() - t0;
        if (t >= 50e-6 || r >= (1L << 20))
            break;
        r *= 2;
    }
    target = (long)(budget / (t > 1e-9 ? t : 1e-9)) + 1;
    samples = (int)(target < 5 ? 5 : target > PASS_MAX ? PASS_MAX : target);
    for (s = 0; s < samples; s++) {
        t0 = MPI_Wtime();
        for (k = 0; k < r; k++)
            pass(arg);
        ti[s] = (MPI_Wtime() - t0) / (double)r;
    }
    return least(ti, samples);
}

#endif
