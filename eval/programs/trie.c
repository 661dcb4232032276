/* trie: exact-match lookups of words in a trie on one rank, pinned
 * (held-out data, never used to choose the selection): N random words of 6
 * to 12 letters from a 16-letter alphabet are inserted into a trie whose
 * nodes hold 16 child indices (64 bytes; 6 to 7 N nodes, 460 KiB at
 * N = 2^10, 23 MiB at N = 2^16, past L2), then 2 N words are looked up, one
 * letter and one node at a time: the N inserted ones in a shuffled order
 * and N drawn the same way (a few of them, by chance, inserted ones too).
 * Usage:
 *   trie N...   at P = 1: prints "trie_n N seconds" for each N
 *               (2^4 <= N <= 2^20); one pass does the 2 N lookups and
 *               counts the words found (timing.h's least_pass, about 0.2 s
 *               of samples).
 *   trie p      strong scaling: every rank builds the trie of N = 2^16
 *               words (not timed), the 2^17 lookups are split as evenly as
 *               possible over the launched P ranks and the counts summed by
 *               MPI_Reduce; prints "trie_p P seconds" (40 passes, each from
 *               a barrier to a barrier, after one not timed). Up to 2 ranks
 *               have a core each; beyond, they oversubscribe the 2 cores.
 * The words are drawn, and the trie built, with a fixed seed per N before
 * anything is timed. Check (not timed): the count equals the one found by
 * binary search (bsearch) in the sorted inserted words, and at least N.
 * Times are the least of one pass of 2 N lookups (timing.h): on a machine
 * shared with other programs, other work only adds time. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#define ALPHA 16
#define LEN 13 /* letters 'a'...'p', then '\0' */

#define NP (1L << 16)
#define ITERS 40

struct trie {
    int (*child)[ALPHA];
    char *end; /* a word ends at this node */
    long nodes, cap;
    char (*q)[LEN]; /* the queries */
    long nq, found;
    long q0, q1; /* this rank's queries */
};

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void word(uint64_t *s, char *w)
{
    int len = 6 + (int)(next(s) % 7), i;

    for (i = 0; i < len; i++)
        w[i] = (char)('a' + (int)(next(s) >> 60));
    memset(w + len, 0, LEN - (size_t)len);
}

static void insert(struct trie *t, const char *w)
{
    long v = 0;

    for (; *w != '\0'; w++) {
        int c = *w - 'a';
        if (t->child[v][c] == 0) {
            if (t->nodes == t->cap)
                MPI_Abort(MPI_COMM_WORLD, 1);
            t->child[v][c] = (int)t->nodes++;
        }
        v = t->child[v][c];
    }
    t->end[v] = 1;
}

static void lookups(void *arg)
{
    struct trie *t = arg;
    long k, found = 0;

    for (k = t->q0; k < t->q1; k++) {
        const char *w = t->q[k];
        long v = 0;
        for (; *w != '\0' && v >= 0; w++) {
            int c = t->child[v][*w - 'a'];
            v = c == 0 ? -1 : c;
        }
        found += v >= 0 && t->end[v];
    }
    t->found = found;
}

static int cmp(const void *a, const void *b)
{
    return memcmp(a, b, LEN);
}

/* Builds the trie of n words and the 2 n queries; words, sorted, for the
 * check. */
static void build(struct trie *t, long n, char (**wp)[LEN])
{
    char(*words)[LEN] = malloc((size_t)n * LEN);
    uint64_t s = 88172645463325252ULL + (uint64_t)n;
    long k;

    t->cap = n * (LEN - 1) + 1;
    t->child = calloc((size_t)t->cap, sizeof *t->child);
    t->end = calloc((size_t)t->cap, 1);
    t->nq = 2 * n;
    t->q = malloc((size_t)t->nq * LEN);
    if (words == NULL || t->child == NULL || t->end == NULL || t->q == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    t->nodes = 1;
    for (k = 0; k < n; k++) {
        word(&s, words[k]);
        insert(t, words[k]);
        memcpy(t->q[k], words[k], LEN);
        word(&s, t->q[n + k]);
    }
    for (k = n - 1; k > 0; k--) { /* shuffle the inserted ones */
        long j = (long)(next(&s) % (uint64_t)(k + 1));
        char tmp[LEN];
        memcpy(tmp, t->q[k], LEN);
        memcpy(t->q[k], t->q[j], LEN);
        memcpy(t->q[j], tmp, LEN);
    }
    t->q0 = 0;
    t->q1 = t->nq;
    qsort(words, (size_t)n, LEN, cmp);
    *wp = words;
}

/* The number of queries in words, by binary search. */
static long reference(const struct trie *t, char (*words)[LEN], long n)
{
    long k, ref = 0;

    for (k = 0; k < t->nq; k++)
        ref += bsearch(t->q[k], words, (size_t)n, LEN, cmp) != NULL;
    return ref;
}

static void release(struct trie *t, char (*words)[LEN])
{
    free(words);
    free(t->child);
    free(t->end);
    free(t->q);
}

static double timed(long n)
{
    struct trie t;
    char(*words)[LEN];
    long ref;
    double tm;

    build(&t, n, &words);
    tm = least_pass(lookups, &t, 0.2);
    ref = reference(&t, words, n);
    if (t.found != ref || ref < n) {
        fprintf(stderr, "trie: N %ld: found %ld words, bsearch %ld\n", n, t.found, ref);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    release(&t, words);
    return tm;
}

static void over_p(void)
{
    struct trie t;
    char(*words)[LEN];
    int rank, size, it;
    long ref, sum;
    double ti[ITERS], t0, tm;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    build(&t, NP, &words);
    t.q0 = rank * (t.nq / size) + (rank < t.nq % size ? rank : t.nq % size);
    t.q1 = t.q0 + t.nq / size + (rank < t.nq % size);
    for (it = -1; it < ITERS; it++) { /* iteration -1 is not timed */
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        lookups(&t);
        MPI_Reduce(&t.found, &sum, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        if (it >= 0)
            ti[it] = MPI_Wtime() - t0;
    }
    tm = least(ti, ITERS);
    if (rank == 0) {
        ref = reference(&t, words, NP);
        if (sum != ref || ref < NP) {
            fprintf(stderr, "trie: P %d: found %ld words, bsearch %ld\n", size, sum, ref);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        printf("trie_p %d %.6e\n", size, tm);
    }
    release(&t, words);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "p") == 0) {
        MPI_Init(&argc, &argv);
        over_p();
        MPI_Finalize();
        return 0;
    }
    return sweep(argc, argv, "trie_n", 16, 1L << 20, 0, timed);
}
