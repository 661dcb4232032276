/* spgemm: the sparse matrix-matrix product C = A A by rows (Gustavson's
 * algorithm: row i of C gathers the rows of A that row i of A names, into a
 * dense accumulator with a list of the columns touched), in CSR form
 * (held-out data, never used to choose the selection). A is N x N with 6
 * nonzeros a row at columns drawn uniformly (splitmix64 of the row and the
 * entry: the same matrix however it is split), values in [-1, 1); C has up
 * to 36 nonzeros a row and is written into room for 36 a row. Usage:
 *   spgemm p     strong scaling: N = 2^16, every rank holds all of A (not
 *                timed) and computes its block of rows of C, as evenly
 *                split as possible over the launched P ranks, then the
 *                nonzeros of C are counted over the ranks by MPI_Allreduce;
 *                prints "spgemm_p P seconds" (20 iterations, each from a
 *                barrier to a barrier).
 *   spgemm N...  at P = 1: 2^9 <= N <= 2^20 (A about 76 N bytes, C up to
 *                440 N, the accumulator 12 N: 0.3 MiB at 2^9, 66 MiB at
 *                2^17, past L2); prints "spgemm_n N seconds" for each N
 *                (timing.h's least_pass, about 0.2 s of samples).
 * Check (not timed): for a vector v drawn once, C v equals A (A v) on
 * every row computed within 1e-12 of its size, and the nonzeros counted
 * over the ranks are the same in every iteration. Times are the least of
 * one product (timing.h): on a machine shared with other programs, other
 * work only adds time. */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define NZ 6
#define CMAX (NZ * NZ)
#define NP (1L << 16)
#define ITERS 20

struct sp {
    long n, lo, hi; /* rows lo..hi-1 of C */
    int *acol;      /* NZ per row */
    double *aval;
    long *cptr; /* hi - lo + 1 */
    int *ccol;  /* CMAX per row of room */
    double *cval;
    double *acc; /* n */
    int *mark;   /* n: row + 1 while the row touches the column, else 0 */
    int *list;   /* CMAX */
    long nnz, total;
};

static uint64_t splitmix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static void product(void *arg)
{
    struct sp *s = arg;
    long i, p = 0;
    int k, l, q;

    for (i = s->lo; i < s->hi; i++) {
        int cnt = 0;
        s->cptr[i - s->lo] = p;
        for (k = 0; k < NZ; k++) {
            int r = s->acol[i * NZ + k];
            double v = s->aval[i * NZ + k];
            for (l = 0; l < NZ; l++) {
                int c = s->acol[(long)r * NZ + l];
                if (s->mark[c] != (int)(i + 1)) {
                    s->mark[c] = (int)(i + 1);
                    s->acc[c] = 0.0;
                    s->list[cnt++] = c;
                }
                s->acc[c] += v * s->aval[(long)r * NZ + l];
            }
        }
        for (q = 0; q < cnt; q++) {
            s->ccol[p] = s->list[q];
            s->cval[p++] = s->acc[s->list[q]];
            s->mark[s->list[q]] = 0; /* clean for the next product */
        }
    }
    s->cptr[s->hi - s->lo] = p;
    s->nnz = p;
    MPI_Allreduce(&s->nnz, &s->total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
}

static void setup(struct sp *s, long n, long lo, long hi)
{
    long i;

    s->n = n;
    s->lo = lo;
    s->hi = hi;
    s->acol = malloc((size_t)(n * NZ) * sizeof *s->acol);
    s->aval = malloc((size_t)(n * NZ) * sizeof *s->aval);
    s->cptr = malloc((size_t)(hi - lo + 1) * sizeof *s->cptr);
    s->ccol = malloc((size_t)((hi - lo) * CMAX + 1) * sizeof *s->ccol);
    s->cval = malloc((size_t)((hi - lo) * CMAX + 1) * sizeof *s->cval);
    s->acc = malloc((size_t)n * sizeof *s->acc);
    s->mark = calloc((size_t)n, sizeof *s->mark);
    s->list = malloc(CMAX * sizeof *s->list);
    if (s->acol == NULL || s->aval == NULL || s->cptr == NULL || s->ccol == NULL ||
        s->cval == NULL || s->acc == NULL || s->mark == NULL || s->list == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n * NZ; i++) {
        uint64_t h = splitmix((uint64_t)i * 2 + 0x5EED),
                 g = splitmix((uint64_t)i * 2 + 1);
        s->acol[i] = (int)(h % (uint64_t)n);
        s->aval[i] = 2.0 * (double)(g >> 11) * (1.0 / 9007199254740992.0) - 1.0;
    }
}

/* 0 if C v = A (A v) on this rank's rows, on every rank. */
static int check(struct sp *s)
{
    double *v = malloc((size_t)s->n * sizeof *v), *av = malloc((size_t)s->n * sizeof *av);
    long i, p;
    int k, bad = 0;

    if (v == NULL || av == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < s->n; i++)
        v[i] = cos((double)i);
    for (i = 0; i < s->n; i++) {
        av[i] = 0.0;
        for (k = 0; k < NZ; k++)
            av[i] += s->aval[i * NZ + k] * v[s->acol[i * NZ + k]];
    }
    for (i = s->lo; i < s->hi; i++) {
        double e = 0.0, c = 0.0, mag = 0.0;
        for (k = 0; k < NZ; k++) {
            e += s->aval[i * NZ + k] * av[s->acol[i * NZ + k]];
            mag += fabs(s->aval[i * NZ + k] * av[s->acol[i * NZ + k]]);
        }
        for (p = s->cptr[i - s->lo]; p < s->cptr[i - s->lo + 1]; p++)
            c += s->cval[p] * v[s->ccol[p]];
        bad |= fabs(c - e) > 1e-12 * (mag + 1.0);
    }
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    free(v);
    free(av);
    return bad;
}

static void release(struct sp *s)
{
    free(s->acol);
    free(s->aval);
    free(s->cptr);
    free(s->ccol);
    free(s->cval);
    free(s->acc);
    free(s->mark);
    free(s->list);
}

int main(int argc, char **argv)
{
    int rank, size, it, a, bad = 0;
    struct sp s;
    long first;
    double ti[ITERS], t0, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && strcmp(argv[1], "p") == 0) {
        long lo = rank * (NP / size) + (rank < NP % size ? rank : NP % size),
             hi = lo + NP / size + (rank < NP % size);
        setup(&s, NP, lo, hi);
        product(&s); /* not timed */
        first = s.total;
        for (it = 0; it < ITERS; it++) {
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
            product(&s);
            MPI_Barrier(MPI_COMM_WORLD);
            ti[it] = MPI_Wtime() - t0;
            bad |= s.total != first;
        }
        t = least(ti, ITERS);
        if (bad || check(&s)) {
            if (rank == 0)
                fprintf(stderr, "spgemm: P %d: the product is wrong\n", size);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        if (rank == 0)
            printf("spgemm_p %d %.6e\n", size, t);
        release(&s);
        MPI_Finalize();
        return 0;
    }
    for (a = 1; a < argc; a++) {
        long n = strtol(argv[a], NULL, 10);
        if (size != 1 || n < 512 || n > (1L << 20))
            MPI_Abort(MPI_COMM_WORLD, 1);
        setup(&s, n, 0, n);
        t = least_pass(product, &s, 0.2);
        if (check(&s)) {
            fprintf(stderr, "spgemm: N %ld: the product is wrong\n", n);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        printf("spgemm_n %ld %.6e\n", n, t);
        release(&s);
    }
    MPI_Finalize();
    return 0;
}
