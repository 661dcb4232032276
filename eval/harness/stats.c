/* stats.c: random numbers for the synthetic corpora, tallies of scored
 * predictions and the table row (eval.h). */
#include "eval.h"

#include "common/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t rng;

double uniform(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (double)((rng * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

double gauss(void)
{
    double u = uniform(), v = uniform();
    return sqrt(-2 * log(u > 1e-300 ? u : 1e-300)) * cos(2 * M_PI * v);
}

void tally_add(struct tally *t, double err, double width, int covered)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 256;
        t->err = xrealloc(t->err, t->cap * sizeof *t->err);
        t->width = xrealloc(t->width, t->cap * sizeof *t->width);
        if (t->err == NULL || t->width == NULL)
            exit(1);
    }
    t->err[t->n] = err;
    t->width[t->n] = width;
    t->n++;
    t->within += err <= 0.10;
    t->over1 += err > 1.0;
    t->covered += covered;
}

void tally_free(struct tally *t)
{
    xfree(t->err);
    xfree(t->width);
    memset(t, 0, sizeof *t);
}

int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double median(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void print_header(void)
{
    printf("\n%-24s %-4s %6s %10s %17s %6s %9s %11s %5s %6s\n", "corpus", "sel", "preds",
           "med.err", "within 10%", ">100%", "coverage", "med.width", "lo<=0", "failed");
}

void print_row(const char *corpus, const char *sel, struct tally *t)
{
    double me = median(t->err, t->n), mw = median(t->width, t->n);
    printf("%-24s %-4s %6zu %10.3f %8zu (%4.1f%%) %6zu", corpus, sel, t->n, me, t->within,
           100.0 * (double)t->within / (double)(t->n ? t->n : 1), t->over1);
    if (isinf(mw))
        printf(" %9s %11s %5s", "-", "-", "-");
    else
        printf(" %8.1f%% %10.1f%% %5zu",
               100.0 * (double)t->covered / (double)(t->n ? t->n : 1), 100 * mw, t->low0);
    printf(" %6zu\n", t->failed);
}

void print_warnings(const char *corpus, const struct tally *t)
{
    printf(
        "%-24s warnings on %zu of %zu predictions; of those %zu off by more than 50 %% "
        "(precision %.0f %%), of the %zu that far off %.0f %% warned about\n",
        corpus, t->warned, t->n, t->warned_far,
        100.0 * (double)t->warned_far / (double)(t->warned ? t->warned : 1), t->far,
        100.0 * (double)t->warned_far / (double)(t->far ? t->far : 1));
}

double case_error(const double *yp, const double *truth, size_t n)
{
    double s = 0;
    size_t k;

    for (k = 0; k < n; k++)
        s += fabs(yp[k] - truth[k]) / fabs(truth[k]);
    return isfinite(s) ? s / (double)n : INFINITY;
}
