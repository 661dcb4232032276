/* push: weak scaling of a particle push with migration by MPI_Alltoall
 * (held-out data, never used to choose the selection): 2^16 particles per
 * rank on a periodic line [0, P), rank r owning the cell [r, r + 1). One
 * step moves every particle in a periodic field (v += -K sin(2 pi x), then
 * x += v, wrapped into [0, P); symplectic Euler, |v| stays below 0.06), keeps
 * those still in the rank's cell in place (compacted) and packs the others
 * into a fixed slot of 4096 particles (x and v, 64 KiB) per destination
 * rank; MPI_Alltoall swaps the counts (one int per pair) and then the slots
 * whole (64 KiB per pair, the rank's own slot empty), and each rank appends
 * what it received. About 2.5 % of the particles leave per step. Prints
 *   "push_p P seconds".
 * Up to 2 ranks have a core each; beyond, the ranks oversubscribe the 2
 * cores. Positions (uniform in the cell) and velocities (uniform in
 * [-0.05, 0.05]) are drawn once per rank with a seed of its own; 5 steps
 * that are not timed come first. One step runs from a barrier to a closing
 * barrier. Check (not timed): no slot and no rank's store ever overflowed,
 * the particles number 2^16 P in all, each in its owner's cell. Times are
 * the least of one step (the slowest rank's time of each): on a machine
 * shared with other programs, other work only adds time. */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define N (1L << 16) /* particles per rank at the start */
#define CAP 4096     /* particles per slot */
#define STORE (2 * N)
#define K 0.001
#define WARM 5
#define ITERS 50

static const double twopi = 6.283185307179586;

int main(int argc, char **argv)
{
    int rank, size, it, d, bad = 0, *scnt, *rcnt;
    long n = N, i, m, total;
    double *x, *v, *sbuf, *rbuf, ti[ITERS], t0, t, lo, hi, len;
    uint64_t s;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    x = malloc(STORE * sizeof *x);
    v = malloc(STORE * sizeof *v);
    sbuf = malloc((size_t)size * 2 * CAP * sizeof *sbuf);
    rbuf = malloc((size_t)size * 2 * CAP * sizeof *rbuf);
    scnt = malloc((size_t)size * sizeof *scnt);
    rcnt = malloc((size_t)size * sizeof *rcnt);
    if (x == NULL || v == NULL || sbuf == NULL || rbuf == NULL || scnt == NULL ||
        rcnt == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    lo = rank;
    hi = rank + 1;
    len = size;
    s = 88172645463325252ULL + 7919ULL * (uint64_t)rank; /* xorshift64 */
    for (i = 0; i < STORE; i++) {
        double u, w;
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        u = (double)(s >> 11) / 9007199254740992.0;
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        w = (double)(s >> 11) / 9007199254740992.0;
        x[i] = lo + u;
        v[i] = 0.1 * w - 0.05;
    }
    for (i = 0; i < (long)size * 2 * CAP; i++) /* touch the pages before timing */
        sbuf[i] = rbuf[i] = 0.0;
    for (it = -WARM; it < ITERS; it++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        for (d = 0; d < size; d++)
            scnt[d] = 0;
        m = 0;
        for (i = 0; i < n; i++) {
            double vi = v[i] - K * sin(twopi * x[i]), xi = x[i] + vi;
            if (xi < 0.0)
                xi += len;
            else if (xi >= len)
                xi -= len;
            if (xi >= len) /* -tiny + len rounded up */
                xi = 0.0;
            if (xi >= lo && xi < hi) {
                x[m] = xi;
                v[m] = vi;
                m++;
            } else {
                int to = (int)xi;
                to = to >= size ? size - 1 : to;
                if (scnt[to] < CAP) {
                    double *slot = sbuf + (long)to * 2 * CAP + 2L * scnt[to];
                    slot[0] = xi;
                    slot[1] = vi;
                    scnt[to]++;
                } else
                    bad |= 1;
            }
        }
        MPI_Alltoall(scnt, 1, MPI_INT, rcnt, 1, MPI_INT, MPI_COMM_WORLD);
        MPI_Alltoall(sbuf, 2 * CAP, MPI_DOUBLE, rbuf, 2 * CAP, MPI_DOUBLE,
                     MPI_COMM_WORLD);
        for (d = 0; d < size; d++) {
            const double *slot = rbuf + (long)d * 2 * CAP;
            int j;
            if (m + rcnt[d] > STORE) {
                bad |= 2;
                continue;
            }
            for (j = 0; j < rcnt[d]; j++) {
                x[m] = slot[2 * j];
                v[m] = slot[2 * j + 1];
                m++;
            }
        }
        n = m;
        MPI_Barrier(MPI_COMM_WORLD);
        if (it >= 0)
            ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, ITERS);
    for (i = 0; i < n; i++)
        bad |= (!(x[i] >= lo && x[i] < hi)) << 2;
    MPI_Allreduce(&n, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    bad |= (total != N * size) << 3;
    if (bad != 0)
        fprintf(stderr, "push: check %d failed on rank %d of %d\n", bad, rank, size);
    if (rank == 0)
        printf("push_p %d %.6e\n", size, t);
    free(x);
    free(v);
    free(sbuf);
    free(rbuf);
    free(scnt);
    free(rcnt);
    MPI_Finalize();
    return 0;
}
