/* An MPI program (4 ranks) for the routines of trace format version 3, its
 * waits known by construction (check.c, test_calls, holds the figures):
 *   1. MPI_Comm_split by parity, keys reversed: "even" = world ranks {2, 0},
 *      "odd" = {3, 1} in communicator rank order. Rank 2 sleeps 0.3 s, then a
 *      barrier on even: rank 0 waits ~0.3 s for 2. Rank 1 sleeps 0.1 s, then a
 *      barrier on odd: rank 3 waits ~0.1 s for 1.
 *   2. rank 2 sleeps 0.1 s more, then a world barrier: rank 2 arrives last,
 *      ~0.1 s after rank 0 and ~0.3 s after ranks 1 and 3.
 *   3. rank 3 sleeps 0.2 s, then MPI_Allgatherv on the world, rank r giving
 *      (r + 1) * 10 ints: ranks 0-2 wait ~0.2 s for 3.
 *   4. a Test loop: rank 1 posts MPI_Irecv from rank 0 (tag 9, 100 B) and spins
 *      on MPI_Test; rank 0 sleeps 0.2 s, then sends. Rank 1 waits for 0 in its
 *      Test calls (most of the 0.2 s; the loop's own instructions between the
 *      calls are not waiting).
 *   5. MPI_Iallreduce + MPI_Wait on the world (nonblocking: no collective wait).
 *   6. MPI_Gatherv on even to its rank 0 (world rank 2), 8 B from each;
 *      rank 2 MPI_Issend + MPI_Wait of 64 B to rank 3 (tag 11); a final barrier.
 * Exits 3 when a collective's result is wrong. */
#include <mpi.h>
#include <time.h>

static void nap(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    int rank, size, flag = 0, counts[4], displs[4], mine[40], all[100], bad = 0;
    char msg[100] = {0};
    double one = 1, sum = 0, g[2] = {0};
    MPI_Comm half;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 4)
        MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half);
    MPI_Barrier(MPI_COMM_WORLD);
    /* 1 */
    if (rank == 2)
        nap(0.3);
    if (rank == 1)
        nap(0.1);
    MPI_Barrier(half);
    /* 2 */
    if (rank == 2)
        nap(0.1);
    MPI_Barrier(MPI_COMM_WORLD);
    /* 3 */
    if (rank == 3)
        nap(0.2);
    for (int r = 0; r < 4; r++) {
        counts[r] = (r + 1) * 10;
        displs[r] = r == 0 ? 0 : displs[r - 1] + counts[r - 1];
    }
    for (int i = 0; i < counts[rank]; i++)
        mine[i] = rank;
    MPI_Allgatherv(mine, counts[rank], MPI_INT, all, counts, displs, MPI_INT,
                   MPI_COMM_WORLD);
    for (int r = 0; r < 4; r++)
        bad |= all[displs[r]] != r || all[displs[r] + counts[r] - 1] != r;
    /* 4 */
    if (rank == 1) {
        MPI_Irecv(msg, 100, MPI_CHAR, 0, 9, MPI_COMM_WORLD, &req);
        while (!flag)
            MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    } else if (rank == 0) {
        nap(0.2);
        MPI_Send(msg, 100, MPI_CHAR, 1, 9, MPI_COMM_WORLD);
    }
    /* 5 */
    MPI_Iallreduce(&one, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    bad |= sum != 4;
    /* 6 */
    {
        int c2[2] = {1, 1}, d2[2] = {0, 1};
        double v = rank;
        MPI_Gatherv(&v, 1, MPI_DOUBLE, g, c2, d2, MPI_DOUBLE, 0, half);
        if (rank == 2)
            bad |= g[0] != 2 || g[1] != 0;
    }
    if (rank == 2) {
        MPI_Issend(msg, 64, MPI_CHAR, 3, 11, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else if (rank == 3) {
        MPI_Recv(msg, 64, MPI_CHAR, 2, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Comm_free(&half);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return bad ? 3 : 0;
}
