/* An MPI program (4 ranks) whose waits and traffic are known by construction,
 * for the end-to-end trace test (check.c holds the expected figures):
 *   1. barrier (sync)
 *   2. rank 3 sleeps 0.3 s, then all enter a barrier: ranks 0-2 wait ~0.3 s for 3
 *   3. rank 0 sleeps 0.2 s inside PROBE "sleep", then sends 1000 B to rank 1 (tag 1),
 *      which posted its receive at once: rank 1 waits ~0.2 s for 0 (late sender)
 *   4. rank 2 MPI_Irecv + MPI_Wait from rank 3, which sleeps 0.1 s then sends
 *      4000 B (tag 2): rank 2 waits ~0.1 s for 3
 *   5. rank 0 sends ten 800-byte messages to rank 2 (tag 3); a ring of
 *      MPI_Sendrecv of 256 B from r to r+1
 *   6. MPI_Bcast of 512 B from root 1; MPI_Allreduce; a final barrier
 *   7. only when run as `trace_pattern halo` (the end-to-end test; the API
 *      test, tests/api/test_traces.py, runs steps 1-6): a halo exchange on the ring:
 * every rank posts MPI_Irecv from both neighbours (128 B, tag 5), rank 1 sleeps 0.1 s and
 * rank 3 0.3 s, each rank MPI_Isend to both neighbours and MPI_Waitall on the four
 * requests. Ranks 0 and 2 (neighbours 1 and 3) wait in Waitall ~0.1 s for 1, then ~0.2 s
 * more for 3; ranks 1 and 3 find their sends already begun. */
#include "probe.h"

#include <mpi.h>
#include <string.h>
#include <time.h>

static void nap(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    int rank, size;
    char buf[4000] = {0};
    double d[100] = {0}, x = 1, y;
    MPI_Request req, halo[4];
    double left[16] = {0}, right[16] = {0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 4)
        MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 3)
        nap(0.3);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        PROBE_BEGIN("sleep");
        nap(0.2);
        PROBE_END("sleep");
        MPI_Send(buf, 1000, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(buf, 1000, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 2) {
        MPI_Irecv(buf, 4000, MPI_CHAR, 3, 2, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
        nap(0.1);
        MPI_Send(buf, 4000, MPI_CHAR, 2, 2, MPI_COMM_WORLD);
    }
    for (int i = 0; i < 10; i++) {
        if (rank == 0)
            MPI_Send(d, 100, MPI_DOUBLE, 2, 3, MPI_COMM_WORLD);
        else if (rank == 2)
            MPI_Recv(d, 100, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Sendrecv(buf, 256, MPI_CHAR, (rank + 1) % 4, 4, buf + 256, 256, MPI_CHAR,
                 (rank + 3) % 4, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Bcast(buf, 512, MPI_CHAR, 1, MPI_COMM_WORLD);
    MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (argc < 2 || strcmp(argv[1], "halo") != 0) {
        MPI_Finalize();
        return 0;
    }
    MPI_Irecv(left, 16, MPI_DOUBLE, (rank + 3) % 4, 5, MPI_COMM_WORLD, &halo[0]);
    MPI_Irecv(right, 16, MPI_DOUBLE, (rank + 1) % 4, 5, MPI_COMM_WORLD, &halo[1]);
    if (rank == 1)
        nap(0.1);
    else if (rank == 3)
        nap(0.3);
    MPI_Isend(d, 16, MPI_DOUBLE, (rank + 3) % 4, 5, MPI_COMM_WORLD, &halo[2]);
    MPI_Isend(d + 16, 16, MPI_DOUBLE, (rank + 1) % 4, 5, MPI_COMM_WORLD, &halo[3]);
    MPI_Waitall(4, halo, MPI_STATUSES_IGNORE);
    MPI_Finalize();
    return 0;
}
