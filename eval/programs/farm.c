/* farm: a master-worker task farm over the number of ranks (held-out data,
 * never used to choose the selection): 256 equal tasks (each about 10 us of
 * integer arithmetic, a xorshift64 chain), handed out one at a time by rank 0
 * to the other ranks, each of which asks for the next by returning its
 * result (MPI_Send and MPI_Recv of one long; rank 0 computes nothing). At
 * P = 1 rank 0 does every task itself. Prints
 *   "farm_p P seconds".
 * Up to 2 ranks have a core each (so P = 2 is one worker); beyond, the
 * workers and the waiting master oversubscribe the 2 cores. One iteration
 * runs from a barrier through the whole farm to a closing barrier. Times are
 * the least of one iteration (the slowest rank's time of each): on a machine
 * shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define TASKS 256
#define STEPS 5000
#define ITERS 100
#define STOP (-1L)

/* The result of task k: how many of STEPS xorshift64 values have their top
 * bit set. Not inlined: inlined into the loop of P = 1, the compiler made it
 * twice as fast there as in a worker, and every P is to run the same code. */
__attribute__((noinline)) static long task(long k)
{
    uint64_t x = 88172645463325252ULL + 0x9E3779B97F4A7C15ULL * (uint64_t)(k + 1);
    long i, c = 0;

    for (i = 0; i < STEPS; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        c += (long)(x >> 63);
    }
    return c;
}

/* One farm; returns the sum of the results on rank 0 (0 elsewhere). */
static long farm(int rank, int size)
{
    long sum = 0, k, next = 0, r;
    int w, busy = 0;
    MPI_Status st;

    if (size == 1) {
        for (k = 0; k < TASKS; k++)
            sum += task(k);
        return sum;
    }
    if (rank == 0) {
        for (w = 1; w < size; w++) {
            k = next < TASKS ? next++ : STOP;
            busy += k != STOP;
            MPI_Send(&k, 1, MPI_LONG, w, 0, MPI_COMM_WORLD);
        }
        while (busy > 0) {
            MPI_Recv(&r, 1, MPI_LONG, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
            sum += r;
            k = next < TASKS ? next++ : STOP;
            busy -= k == STOP;
            MPI_Send(&k, 1, MPI_LONG, st.MPI_SOURCE, 0, MPI_COMM_WORLD);
        }
        return sum;
    }
    for (;;) {
        MPI_Recv(&k, 1, MPI_LONG, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (k == STOP)
            return 0;
        r = task(k);
        MPI_Send(&r, 1, MPI_LONG, 0, 0, MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv)
{
    int rank, size, it;
    long sum = 0, expect = 0, k;
    double ti[ITERS], t0, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (it = 0; it < ITERS; it++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        sum = farm(rank, size);
        MPI_Barrier(MPI_COMM_WORLD);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, ITERS);
    if (rank == 0) {
        printf("farm_p %d %.6e\n", size, t);
        for (k = 0; k < TASKS; k++)
            expect += task(k);
        if (sum != expect)
            fprintf(stderr, "farm: results sum to %ld, not %ld\n", sum, expect);
    }
    MPI_Finalize();
    return 0;
}
