/* bench_trace_overhead: the recorder's cost per MPI call, next to the bare
 * call in the same run. Linked with libprophecy_trace; run on one rank:
 *   PROPHECY_TRACE_DIR=/tmp bench_trace_overhead [calls]
 * Times, interleaved in rounds, each traced call against its PMPI_ twin:
 * MPI_Sendrecv to self and MPI_Barrier on MPI_COMM_WORLD, and two routines
 * wrapped since format version 3: MPI_Test on a pending MPI_Irecv (the
 * recorder looks the request up among the receives it follows) and
 * MPI_Allgatherv on a communicator made by MPI_Comm_split (looked up in the
 * recorder's communicator table); prints the medians of the per-call costs. */
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
#define CASES 4

int main(int argc, char **argv)
{
    static const char *const names[CASES] = {"MPI_Sendrecv", "MPI_Barrier", "MPI_Test",
                                             "MPI_Allgatherv"};
    static const int share[CASES] = {1, 10, 2, 10}; /* calls = n / share */
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 20000;
    double bare[CASES][ROUNDS], traced[CASES][ROUNDS];
    char s = 1, r, never;
    int rank, flag, counts[1] = {1}, displs[1] = {0}, in = 1, out[1];
    MPI_Comm split;
    MPI_Request pending;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &split); /* a communicator of one */
    /* a receive that never completes: tag 99 is never sent */
    MPI_Irecv(&never, 1, MPI_CHAR, rank, 99, MPI_COMM_WORLD, &pending);
    if (n < 1 || n * 36 > 900000) /* stay within the recorder's buffer */
        n = 20000;
    for (int k = 0; k < ROUNDS; k++)
        for (int c = 0; c < CASES; c++) {
            long m = n / share[c];
            double t0 = now(), t1, t2;
            for (long i = 0; i < m; i++)
                switch (c) {
                case 0:
                    PMPI_Sendrecv(&s, 1, MPI_CHAR, rank, 0, &r, 1, MPI_CHAR, rank, 0,
                                  MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    break;
                case 1:
                    PMPI_Barrier(MPI_COMM_WORLD);
                    break;
                case 2:
                    PMPI_Test(&pending, &flag, MPI_STATUS_IGNORE);
                    break;
                default:
                    PMPI_Allgatherv(&in, 1, MPI_INT, out, counts, displs, MPI_INT, split);
                }
            t1 = now();
            for (long i = 0; i < m; i++)
                switch (c) {
                case 0:
                    MPI_Sendrecv(&s, 1, MPI_CHAR, rank, 0, &r, 1, MPI_CHAR, rank, 0,
                                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    break;
                case 1:
                    MPI_Barrier(MPI_COMM_WORLD);
                    break;
                case 2:
                    MPI_Test(&pending, &flag, MPI_STATUS_IGNORE);
                    break;
                default:
                    MPI_Allgatherv(&in, 1, MPI_INT, out, counts, displs, MPI_INT, split);
                }
            t2 = now();
            bare[c][k] = (t1 - t0) / (double)m;
            traced[c][k] = (t2 - t1) / (double)m;
        }
    if (rank == 0)
        for (int c = 0; c < CASES; c++) {
            qsort(bare[c], ROUNDS, sizeof(double), cmp);
            qsort(traced[c], ROUNDS, sizeof(double), cmp);
            printf("%-15s bare %8.3f us  traced %8.3f us  overhead %6.3f us per call "
                   "(target <= 1 us)\n",
                   names[c], bare[c][ROUNDS / 2] * 1e6, traced[c][ROUNDS / 2] * 1e6,
                   (traced[c][ROUNDS / 2] - bare[c][ROUNDS / 2]) * 1e6);
        }
    MPI_Cancel(&pending); /* traced: a cancelled receive records no message */
    MPI_Wait(&pending, MPI_STATUS_IGNORE);
    MPI_Comm_free(&split);
    MPI_Finalize();
    return 0;
}
