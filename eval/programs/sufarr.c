/* sufarr: the suffix array of a text of N letters built by prefix doubling
 * on one rank, pinned (held-out data, never used to choose the selection):
 * the suffixes are ranked by their first letter, then, while two suffixes
 * share a rank, sorted by the pair (rank of i, rank of i + k) with qsort and
 * re-ranked, k doubling each round (about log4 N rounds on this text). The
 * text is drawn from a xorshift64 stream over A, C, G, T; the text and
 * the arrays (the suffix array, two rank arrays and the pairs) take about
 * 25 N bytes (25 KiB at N = 2^10, 6.3 MiB at 2^18, past L2). Usage:
 *   sufarr N...  prints "sufarr_n N seconds" for each N (2^8 <= N <= 2^22;
 *                timing.h's least_pass, about 0.2 s of samples).
 * Check (not timed): the array is a permutation of 0..N-1 and every suffix
 * is smaller than the next one (compared letter by letter). Times are the
 * least of one build (timing.h): on a machine shared with other programs,
 * other work only adds time. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

struct item {
    int r1, r2, i;
};

struct sa {
    long n;
    const char *text;
    int *sa, *rank, *tmp;
    struct item *it;
};

static int by_pair(const void *pa, const void *pb)
{
    const struct item *a = pa, *b = pb;

    if (a->r1 != b->r1)
        return a->r1 < b->r1 ? -1 : 1;
    if (a->r2 != b->r2)
        return a->r2 < b->r2 ? -1 : 1;
    return 0;
}

static void build(void *arg)
{
    struct sa *s = arg;
    long n = s->n, i, k;

    for (i = 0; i < n; i++)
        s->rank[i] = (unsigned char)s->text[i];
    for (k = 1;; k *= 2) {
        for (i = 0; i < n; i++) {
            s->it[i].r1 = s->rank[i];
            s->it[i].r2 = i + k < n ? s->rank[i + k] : -1;
            s->it[i].i = (int)i;
        }
        qsort(s->it, (size_t)n, sizeof *s->it, by_pair);
        s->tmp[s->it[0].i] = 0;
        for (i = 1; i < n; i++)
            s->tmp[s->it[i].i] =
                s->tmp[s->it[i - 1].i] + (by_pair(&s->it[i - 1], &s->it[i]) != 0);
        memcpy(s->rank, s->tmp, (size_t)n * sizeof *s->rank);
        if (s->rank[s->it[n - 1].i] == n - 1)
            break;
    }
    for (i = 0; i < n; i++)
        s->sa[i] = s->it[i].i;
}

/* 0 if s->sa is the suffix array of the text. */
static int check(struct sa *s)
{
    long n = s->n, i;
    char *seen = calloc((size_t)n, 1);

    if (seen == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < n; i++) {
        if (s->sa[i] < 0 || s->sa[i] >= n || seen[s->sa[i]]) {
            free(seen);
            return 1;
        }
        seen[s->sa[i]] = 1;
    }
    free(seen);
    for (i = 0; i + 1 < n; i++) {
        long a = s->sa[i], b = s->sa[i + 1];
        while (a < n && b < n && s->text[a] == s->text[b]) {
            a++;
            b++;
        }
        /* the shorter suffix is a prefix of the other: it comes first */
        if (b == n || (a < n && s->text[a] > s->text[b]))
            return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int rank, size, k;
    uint64_t x = 88172645463325252ULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (k = 1; k < argc; k++) {
        long n = strtol(argv[k], NULL, 10), i;
        struct sa s;
        char *text;
        double t;

        if (size != 1 || n < 256 || n > (1L << 22))
            MPI_Abort(MPI_COMM_WORLD, 1);
        text = malloc((size_t)n);
        s.sa = malloc((size_t)n * sizeof *s.sa);
        s.rank = malloc((size_t)n * sizeof *s.rank);
        s.tmp = malloc((size_t)n * sizeof *s.tmp);
        s.it = malloc((size_t)n * sizeof *s.it);
        if (text == NULL || s.sa == NULL || s.rank == NULL || s.tmp == NULL ||
            s.it == NULL)
            MPI_Abort(MPI_COMM_WORLD, 1);
        for (i = 0; i < n; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            text[i] = "ACGT"[x >> 62];
        }
        s.n = n;
        s.text = text;
        t = least_pass(build, &s, 0.2);
        if (check(&s)) {
            fprintf(stderr, "sufarr: N %ld: the suffixes are not in order\n", n);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        printf("sufarr_n %ld %.6e\n", n, t);
        free(text);
        free(s.sa);
        free(s.rank);
        free(s.tmp);
        free(s.it);
    }
    MPI_Finalize();
    return 0;
}
