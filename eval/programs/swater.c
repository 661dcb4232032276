/* swater: the Smith-Waterman score of the best local alignment of two DNA
 * sequences (held-out data, never used to choose the selection): the
 * dynamic program over the cells of a (rows) against b (columns), a match
 * +2, a mismatch -1, a gap -2 (linear), kept in two rows of ints (linear
 * space), row after row. Sequence a is drawn from a xorshift64 stream over
 * A, C, G, T; b is a copy of a with about one letter in 8 replaced, one in
 * 32 deleted and one in 32 followed by an inserted letter (then cut to the
 * length of a). Usage:
 *   swater p     strong scaling, a wavefront over the ranks: sequences of
 *                4096 letters, the columns split in blocks over the
 *                launched P ranks, the rows in blocks of 128; a rank
 *                computes a block of rows of its columns once the rank on
 *                its left has sent (MPI_Send / MPI_Recv) the last column of
 *                that block, so the ranks start one after the other; the
 *                best score by MPI_Reduce to rank 0. Prints "swater_p P
 *                seconds" (10 iterations, each from a barrier to a
 *                barrier).
 *   swater N...  at P = 1: sequences of N letters (64 <= N <= 65536; 8 N
 *                bytes of rows, 32 KiB at N = 4096, within the 48 KiB L1);
 *                prints "swater_n N seconds" for each N (timing.h's
 *                least_pass, about 0.2 s of samples).
 * Check (not timed): at P = 1 the score of a against itself is 2 N, the
 * score of b against a equals that of a against b, and it is positive and
 * below 2 N; over P, every iteration's score is that of the one-rank
 * program on the same sequences. Times are the least of one alignment
 * (timing.h): on a machine shared with other programs, other work only
 * adds time. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

struct sw {
    long n;
    const char *a, *b;
    int *h0, *h1; /* n + 1 each */
    int score;
};

static void align(void *arg)
{
    struct sw *s = arg;
    int *prev = s->h0, *cur = s->h1, *t, best = 0;
    long i, j;

    memset(prev, 0, (size_t)(s->n + 1) * sizeof *prev);
    for (i = 1; i <= s->n; i++) {
        char ai = s->a[i - 1];
        cur[0] = 0;
        for (j = 1; j <= s->n; j++) {
            int d = prev[j - 1] + (ai == s->b[j - 1] ? 2 : -1), u = prev[j] - 2,
                l = cur[j - 1] - 2, h = 0;
            h = d > h ? d : h;
            h = u > h ? u : h;
            h = l > h ? l : h;
            cur[j] = h;
            best = h > best ? h : best;
        }
        t = prev;
        prev = cur;
        cur = t;
    }
    s->score = best;
}

static int score(struct sw *s, const char *a, const char *b)
{
    s->a = a;
    s->b = b;
    align(s);
    return s->score;
}

#define WLEN 4096L
#define WROWS 128L
#define ITERS 10

/* Two sequences of n letters as described above, drawn from *x. */
static void sequences(long n, char *a, char *b, uint64_t *x)
{
    long i, j = 0;

    for (i = 0; i < n; i++) {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        a[i] = "ACGT"[*x >> 62];
    }
    for (i = 0; i < n && j < n; i++) {
        unsigned r;
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        r = (unsigned)(*x >> 56);
        if (r < 8)
            continue; /* deleted */
        b[j++] = r < 40 ? "ACGT"[(*x >> 20) & 3] : a[i];
        if (r >= 248 && j < n)
            b[j++] = "ACGT"[(*x >> 30) & 3]; /* inserted */
    }
    while (j < n)
        b[j++] = 'A';
}

struct wave {
    const char *a, *b;
    long c0, nc;       /* this rank's columns c0..c0+nc-1 of b */
    int *prev, *cur;   /* nc + 1 each; [0] is the column on the left */
    int *left, *right; /* WROWS each: the last column of a block */
    int rank, size, best;
};

/* One wavefront alignment; the best score on rank 0. */
static void wavefront(struct wave *w)
{
    long i0, i, j;
    int *t, best = 0, corner = 0;

    memset(w->prev, 0, (size_t)(w->nc + 1) * sizeof *w->prev);
    for (i0 = 0; i0 < WLEN; i0 += WROWS) {
        if (w->rank > 0)
            MPI_Recv(w->left, (int)WROWS, MPI_INT, w->rank - 1, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        else
            memset(w->left, 0, WROWS * sizeof *w->left);
        for (i = 0; i < WROWS; i++) {
            char ai = w->a[i0 + i];
            const char *bc = w->b + w->c0 - 1;
            int *prev = w->prev, *cur = w->cur, h = 0;
            prev[0] = corner; /* H(row above, column on the left) */
            cur[0] = w->left[i];
            corner = w->left[i];
            for (j = 1; j <= w->nc; j++) {
                int d = prev[j - 1] + (ai == bc[j] ? 2 : -1), u = prev[j] - 2,
                    l = cur[j - 1] - 2;
                h = d > 0 ? d : 0;
                h = u > h ? u : h;
                h = l > h ? l : h;
                cur[j] = h;
                best = h > best ? h : best;
            }
            w->right[i] = cur[w->nc];
            t = w->prev;
            w->prev = w->cur;
            w->cur = t;
        }
        if (w->rank < w->size - 1)
            MPI_Send(w->right, (int)WROWS, MPI_INT, w->rank + 1, 0, MPI_COMM_WORLD);
    }
    MPI_Reduce(&best, &w->best, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
}

static int over_p(int rank, int size)
{
    char *a = malloc(WLEN), *b = malloc(WLEN);
    struct wave w;
    struct sw s;
    uint64_t x = 0x2545F4914F6CDD1DULL;
    double ti[ITERS], t0, t;
    int it, bad = 0, want = 0;

    if (a == NULL || b == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    sequences(WLEN, a, b, &x);
    w.a = a;
    w.b = b;
    w.rank = rank;
    w.size = size;
    w.nc = WLEN / size + (rank < WLEN % size);
    w.c0 = rank * (WLEN / size) + (rank < WLEN % size ? rank : WLEN % size);
    w.prev = malloc((size_t)(w.nc + 1) * sizeof(int));
    w.cur = malloc((size_t)(w.nc + 1) * sizeof(int));
    w.left = malloc(WROWS * sizeof(int));
    w.right = malloc(WROWS * sizeof(int));
    if (w.prev == NULL || w.cur == NULL || w.left == NULL || w.right == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    if (rank == 0) { /* the one-rank score (not timed) */
        s.n = WLEN;
        s.h0 = malloc((size_t)(WLEN + 1) * sizeof(int));
        s.h1 = malloc((size_t)(WLEN + 1) * sizeof(int));
        if (s.h0 == NULL || s.h1 == NULL)
            MPI_Abort(MPI_COMM_WORLD, 1);
        want = score(&s, a, b);
        free(s.h0);
        free(s.h1);
    }
    wavefront(&w); /* not timed */
    for (it = 0; it < ITERS; it++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        wavefront(&w);
        MPI_Barrier(MPI_COMM_WORLD);
        ti[it] = MPI_Wtime() - t0;
        bad |= rank == 0 && w.best != want;
    }
    t = least(ti, ITERS);
    if (rank == 0) {
        if (bad) {
            fprintf(stderr, "swater: P %d: score %d, not %d\n", size, w.best, want);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        printf("swater_p %d %.6e\n", size, t);
    }
    free(a);
    free(b);
    free(w.prev);
    free(w.cur);
    free(w.left);
    free(w.right);
    return 0;
}

int main(int argc, char **argv)
{
    int rank, size, k;
    uint64_t x = 88172645463325252ULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && strcmp(argv[1], "p") == 0) {
        if (WLEN % WROWS != 0)
            MPI_Abort(MPI_COMM_WORLD, 1);
        over_p(rank, size);
        MPI_Finalize();
        return 0;
    }
    for (k = 1; k < argc; k++) {
        long n = strtol(argv[k], NULL, 10);
        struct sw s;
        char *a, *b;
        double t;
        int ab, ba, aa;

        if (size != 1 || n < 64 || n > 65536)
            MPI_Abort(MPI_COMM_WORLD, 1);
        a = malloc((size_t)n);
        b = malloc((size_t)n);
        s.h0 = malloc((size_t)(n + 1) * sizeof(int));
        s.h1 = malloc((size_t)(n + 1) * sizeof(int));
        if (a == NULL || b == NULL || s.h0 == NULL || s.h1 == NULL)
            MPI_Abort(MPI_COMM_WORLD, 1);
        s.n = n;
        sequences(n, a, b, &x);
        s.a = a;
        s.b = b;
        t = least_pass(align, &s, 0.2);
        aa = score(&s, a, a);
        ab = score(&s, a, b);
        ba = score(&s, b, a);
        if (aa != 2 * n || ab != ba || ab <= 0 || ab >= 2 * n) {
            fprintf(stderr, "swater: N %ld: scores %d (a, a), %d (a, b), %d (b, a)\n", n,
                    aa, ab, ba);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        printf("swater_n %ld %.6e\n", n, t);
        free(a);
        free(b);
        free(s.h0);
        free(s.h1);
    }
    MPI_Finalize();
    return 0;
}
