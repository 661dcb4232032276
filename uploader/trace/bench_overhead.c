/* bench_trace_overhead: the recorder's cost per MPI call, next to the bare
 * call in the same run. Linked with libprophecy_trace; run on one rank:
 *   PROPHECY_TRACE_DIR=/tmp bench_trace_overhead [calls]
 * Times MPI_Sendrecv to self (traced) against PMPI_Sendrecv (bare), and
 * MPI_Barrier on MPI_COMM_WORLD against PMPI_Barrier, interleaved in rounds;
 * prints the medians of the per-call differences. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#define ROUNDS 21

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 20000;
    double bare[2][ROUNDS], traced[2][ROUNDS];
    char s = 1, r;
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (n < 1 || n * 2 * ROUNDS > 900000) /* stay within the recorder's buffer */
        n = 20000;
    for (int k = 0; k < ROUNDS; k++) {
        double t0 = now();
        for (long i = 0; i < n; i++)
            PMPI_Sendrecv(&s, 1, MPI_CHAR, rank, 0, &r, 1, MPI_CHAR, rank, 0,
                          MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double t1 = now();
        for (long i = 0; i < n; i++)
            MPI_Sendrecv(&s, 1, MPI_CHAR, rank, 0, &r, 1, MPI_CHAR, rank, 0,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double t2 = now();
        for (long i = 0; i < n / 10; i++)
            PMPI_Barrier(MPI_COMM_WORLD);
        double t3 = now();
        for (long i = 0; i < n / 10; i++)
            MPI_Barrier(MPI_COMM_WORLD);
        double t4 = now();
        bare[0][k] = (t1 - t0) / n;
        traced[0][k] = (t2 - t1) / n;
        bare[1][k] = (t3 - t2) / (n / 10);
        traced[1][k] = (t4 - t3) / (n / 10);
    }
    if (rank == 0)
        for (int c = 0; c < 2; c++) {
            qsort(bare[c], ROUNDS, sizeof(double), cmp);
            qsort(traced[c], ROUNDS, sizeof(double), cmp);
            printf("%-13s bare %8.3f us  traced %8.3f us  overhead %6.3f us per call "
                   "(target <= 1 us)\n",
                   c == 0 ? "MPI_Sendrecv" : "MPI_Barrier", bare[c][ROUNDS / 2] * 1e6,
                   traced[c][ROUNDS / 2] * 1e6,
                   (traced[c][ROUNDS / 2] - bare[c][ROUNDS / 2]) * 1e6);
        }
    MPI_Finalize();
    return 0;
}
