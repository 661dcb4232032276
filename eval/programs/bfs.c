/* bfs: a breadth-first search from vertex 0 of a random graph of N vertices
 * on one rank (held-out data, never used to choose the selection): each
 * vertex draws 4 random neighbours, the edges are made undirected (average
 * degree 8) and stored as compressed rows (4-byte vertex ids); the search
 * visits every vertex of the giant component once and reads each of its
 * 8 N edges once, one random access into the N-entry distance array per
 * edge. The 48 N bytes it touches (offsets, edges, distances, queue) exceed
 * L1 from the start and leave L2 (about N = 2^14), the shared L3 (about
 * 2^19), then only DRAM. Usage:
 *   bfs N...   prints "bfs_n N seconds" for each N.
 * The graph is drawn once per N with a fixed seed; the distances are reset
 * before each iteration (not timed), so every iteration runs the same
 * search. Times are the least of one search: on a machine shared with other
 * programs, other work only adds time. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define DRAWN 4

static volatile long sink;

/* Fills dist (-1: unreached) from vertex 0 with queue as scratch; returns
 * the number of vertices reached. */
static long search(const long *restrict off, const int *restrict adj, int *restrict dist,
                   int *restrict queue)
{
    long head = 0, tail = 0, e;

    dist[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int u = queue[head++], d = dist[u] + 1;
        for (e = off[u]; e < off[u + 1]; e++) {
            int w = adj[e];
            if (dist[w] < 0) {
                dist[w] = d;
                queue[tail++] = w;
            }
        }
    }
    return tail;
}

static double searched(long n)
{
    long k = 20000000L / (n * 8 + 1000), i, j, reached = 0;
    int iters = k < 3 ? 3 : k > 2000 ? 2000 : (int)k, it;
    long *off = calloc((size_t)n + 1, sizeof *off),
         *fill = malloc((size_t)n * sizeof *fill);
    int *from = malloc((size_t)(n * DRAWN) * sizeof *from),
        *adj = malloc((size_t)(2 * n * DRAWN) * sizeof *adj),
        *dist = malloc((size_t)n * sizeof *dist),
        *queue = malloc((size_t)n * sizeof *queue);
    double *ti = malloc((size_t)iters * sizeof *ti), t0, t;
    uint64_t x = 88172645463325252ULL; /* xorshift64, fixed seed */

    if (off == NULL || fill == NULL || from == NULL || adj == NULL || dist == NULL ||
        queue == NULL || ti == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n; i++)
        for (j = 0; j < DRAWN; j++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            from[i * DRAWN + j] = (int)((x >> 11) % (uint64_t)n);
            off[i + 1]++;
            off[from[i * DRAWN + j] + 1]++;
        }
    for (i = 0; i < n; i++) {
        off[i + 1] += off[i];
        fill[i] = off[i];
    }
    for (i = 0; i < n; i++)
        for (j = 0; j < DRAWN; j++) {
            int w = from[i * DRAWN + j];
            adj[fill[i]++] = w;
            adj[fill[w]++] = (int)i;
        }
    for (it = 0; it < iters; it++) {
        memset(dist, 0xff, (size_t)n * sizeof *dist);
        t0 = MPI_Wtime();
        reached = search(off, adj, dist, queue);
        ti[it] = MPI_Wtime() - t0;
    }
    t = least(ti, iters);
    if (reached < n * 9 / 10)
        fprintf(stderr, "bfs: reached only %ld of %ld vertices\n", reached, n);
    sink = reached + dist[queue[reached - 1]];
    free(off);
    free(fill);
    free(from);
    free(adj);
    free(dist);
    free(queue);
    free(ti);
    return t;
}

int main(int argc, char **argv)
{
    return sweep(argc, argv, "bfs_n", 2, 1L << 26, 0, searched);
}
