/* prefix: a two-pass parallel inclusive prefix sum of N doubles split evenly
 * over the launched ranks (held-out data, never used to choose the
 * selection; measured at P = 2, one core each): each rank first sums its
 * share, MPI_Exscan of these sums gives each rank the total of the ranks
 * before it, and a second pass writes the running sums of its share, offset
 * by that total, into an output array. 3 N / P reads and N / P writes per
 * rank while the 16 N / P bytes of its two arrays leave L1 (N = 2^12), L2,
 * the shared L3, then only DRAM. Usage:
 *   prefix N...   prints "prefix_n N seconds" for each N (N in all, not per
 *                 rank).
 * The input is filled once per N with small integers (the sums stay exact).
 * One iteration runs from a barrier to the end of the second pass; times are
 * the least of one iteration (the slowest rank's time of each): on a machine
 * shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

/* One N; fewer elements than ranks aborts. */
static double scanned(long n)
{
    long mine, before, k, i;
    double *in, *out, *ti, t0, t, sum, offset, expect;
    int iters, it, rank, size;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (n < size)
        MPI_Abort(MPI_COMM_WORLD, 1);
    mine = n / size + (rank < n % size);
    in = malloc((size_t)mine * sizeof *in);
    out = malloc((size_t)mine * sizeof *out);
    k = 20000000L / (n + 1000);
    iters = k < 5 ? 5 : k > 2000 ? 2000 : (int)k;
    ti = malloc((size_t)iters * sizeof *ti);
    if (in == NULL || out == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    before = rank * (n / size) + (rank < n % size ? rank : n % size);
    for (i = 0; i < mine; i++) {
        in[i] = (double)((before + i) % 3);
        out[i] = 0;
    }
    for (it = 0; it < iters; it++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        sum = 0;
        for (i = 0; i < mine; i++)
            sum += in[i];
        offset = 0;
        MPI_Exscan(&sum, &offset, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        if (rank == 0)
            offset = 0; /* MPI_Exscan leaves rank 0's result undefined */
        for (i = 0; i < mine; i++) {
            offset += in[i];
            out[i] = offset;
        }
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    /* the last element: the sum of (j mod 3) over j <= before + mine - 1 */
    k = before + mine;
    expect = (double)(k / 3 * 3 + (k % 3 == 2 ? 1 : 0));
    if (mine > 0 && out[mine - 1] != expect)
        fprintf(stderr, "prefix: rank %d ends at %g, not %g\n", rank, out[mine - 1],
                expect);
    free(in);
    free(out);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    return sweep(argc, argv, "prefix_n", 1, 1L << 30, 0, scanned);
}
