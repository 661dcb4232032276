/* couple.c: kernel coupling across configurations (docs/models.md, kernel
 * coupling §5): four loop kernels measured alone, in pairs and together at
 * (n, P), each configuration's loop time predicted from the others
 * (eval/data/coupling, "n P chain seconds" per repetition). */
#include "eval.h"

#include "common/xalloc.h"
#include "models/couple.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAXCONF 64
#define MAXREP 64
#define NMETH 8
struct conf {
    double n, p;
    double t[9];           /* K1..K4, K1K2, K2K3, K3K4, K4K1, ALL: least time measured */
    double rep[9][MAXREP]; /* every repetition, in the order measured */
    int cnt[9];
    double coef[3][4]; /* pair couplings as measured, shrunk to 1; loop chain */
    double cpair[4], se[4];
    int ok;
};

static int chain_index(const char *s)
{
    static const char *const names[9] = {"K1",   "K2",   "K3",   "K4", "K1K2",
                                         "K2K3", "K3K4", "K4K1", "ALL"};
    int i;

    for (i = 0; i < 9; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

/* The coefficients of one configuration from its pair couplings; with
 * shrink 1, each coupling is first shrunk toward 1 by its repetition spread
 * (couple_shrink, couple_spread of the per-repetition couplings: chain and
 * kernels of the same interleaved repetition); with shrink 2, from the chain
 * of the whole loop K1..K4 and the pair K4K1 that closes it instead. */
static int conf_coefficients(struct conf *cf, int shrink)
{
    static const struct couple_kernel kern[4] = {
        {"K1", 1}, {"K2", 1}, {"K3", 1}, {"K4", 1}};
    struct couple_measurement m[4];
    struct couple_result r;
    struct err e = {0};
    int k, q;

    for (k = 0; k < 4; k++) {
        int a = k, b = (k + 1) % 4, nr = cf->cnt[4 + k];
        double ratio[MAXREP], sum = cf->t[a] + cf->t[b], c = cf->t[4 + k] / sum;
        nr = nr < cf->cnt[a] ? nr : cf->cnt[a];
        nr = nr < cf->cnt[b] ? nr : cf->cnt[b];
        for (q = 0; q < nr; q++)
            ratio[q] = cf->rep[4 + k][q] / (cf->rep[a][q] + cf->rep[b][q]);
        cf->cpair[k] = c;
        cf->se[k] = couple_spread(ratio, (size_t)nr);
        memset(&m[k], 0, sizeof m[k]);
        m[k].n = 2;
        m[k].kernel[0] = kern[a].name;
        m[k].kernel[1] = kern[b].name;
        m[k].alone[0] = cf->t[a];
        m[k].alone[1] = cf->t[b];
        m[k].together = (shrink == 1 ? couple_shrink(c, cf->se[k]) : c) * sum;
        m[k].index = (size_t)k;
    }
    if (shrink == 2) { /* [K1, K2, K3, K4] and [K4, K1] */
        m[0].n = 4;
        for (k = 0; k < 4; k++) {
            m[0].kernel[k] = kern[k].name;
            m[0].alone[k] = cf->t[k];
        }
        m[0].together = cf->t[8];
        m[1] = m[3];
        m[1].index = 1;
    }
    if (couple_coefficients(kern, 4, m, shrink == 2 ? 2 : 4, &r, &e) != 0)
        return -1;
    for (k = 0; k < 4; k++)
        cf->coef[shrink][k] = r.coef[k];
    couple_result_free(&r);
    return 0;
}

/* Four loop kernels measured alone, in pairs and together at (n, P): the loop
 * time predicted by plain summation and by the coefficients of the other
 * configurations, each configuration predicted from the others with its own
 * measured alone-times (so only the coupling is evaluated) against its
 * measured loop time. Methods: [0] summation; coupling values as measured:
 * [1] nearest configuration (couple_nearest), [2] the line over n at the same
 * P (couple_model_line, the rule before the trend test), [3] modeled over n
 * (couple_model_value: the line only when the trend is significant); [4],
 * [5] nearest and modeled with every coupling value shrunk toward 1 by its
 * repetition spread; [6], [7] nearest and modeled with the coefficients of
 * the whole-loop chain (and the pair closing it) instead of the pairs. Also prints, per
 * P, how noisy the data are against the size of the effect. */
void couple_eval(const char *dir, const char *file, const char *what)
{
    static const char *const meth[NMETH] = {"summation",           "nearest",
                                            "line over n",         "modeled (trend)",
                                            "nearest, shrunk",     "modeled, shrunk",
                                            "nearest, loop chain", "modeled, loop chain"};
    struct conf *cf = xcalloc(MAXCONF, sizeof *cf);
    char path[1024], chain[16];
    double n, p, t, err[NMETH] = {0}, perr[8][NMETH] = {{0}};
    int nc = 0, i, j, k, w, ntarget = 0, pn[8] = {0};
    FILE *f;

    if (cf == NULL || strlen(dir) > 800) {
        xfree(cf);
        return;
    }
    snprintf(path, sizeof path, "%.800s/%.100s", dir, file);
    f = fopen(path, "r");
    if (f == NULL) {
        printf("(no coupling data in %s)\n", path);
        xfree(cf);
        return;
    }
    while (fscanf(f, "%lf %lf %15s %lf", &n, &p, chain, &t) == 4) {
        int c = chain_index(chain);
        for (i = 0; i < nc && !(cf[i].n == n && cf[i].p == p); i++)
            ;
        if (c < 0 || (i == nc && nc == MAXCONF))
            continue;
        if (i == nc) {
            cf[nc].n = n;
            cf[nc].p = p;
            nc++;
        }
        /* The least of the repetitions: on a shared machine the other
         * programs only ever add time. */
        cf[i].t[c] = cf[i].cnt[c] == 0 || t < cf[i].t[c] ? t : cf[i].t[c];
        if (cf[i].cnt[c] < MAXREP)
            cf[i].rep[c][cf[i].cnt[c]++] = t;
    }
    fclose(f);
    for (i = 0; i < nc; i++) {
        int ok = 1;
        for (k = 0; k < 9; k++)
            ok &= cf[i].cnt[k] > 0;
        cf[i].ok = ok && conf_coefficients(&cf[i], 0) == 0 &&
                   conf_coefficients(&cf[i], 1) == 0 && conf_coefficients(&cf[i], 2) == 0;
    }
    for (i = 0; i < nc; i++) {
        double conf[2 * MAXCONF], target[2] = {cf[i].n, cf[i].p}, dx;
        double xs[MAXCONF], cs[3][MAXCONF], pred[NMETH] = {0}, meas = cf[i].t[8], c;
        int idx[MAXCONF], no = 0, ns, pi = (int)cf[i].p;
        if (!cf[i].ok)
            continue;
        for (j = 0; j < nc; j++)
            if (j != i && cf[j].ok) {
                conf[2 * no] = cf[j].n;
                conf[2 * no + 1] = cf[j].p;
                idx[no++] = j;
            }
        if (no == 0)
            continue;
        j = idx[couple_nearest(conf, (size_t)no, 2, target, 0, &dx)];
        for (k = 0; k < 4; k++) {
            double tk = cf[i].t[k];
            ns = 0;
            for (int q = 0; q < nc; q++)
                if (q != i && cf[q].ok && cf[q].p == cf[i].p) {
                    xs[ns] = cf[q].n;
                    cs[0][ns] = cf[q].coef[0][k];
                    cs[1][ns] = cf[q].coef[1][k];
                    cs[2][ns++] = cf[q].coef[2][k];
                }
            pred[0] += tk;
            pred[1] += cf[j].coef[0][k] * tk;
            pred[4] += cf[j].coef[1][k] * tk;
            if (ns == 0 ||
                couple_model_line(xs, cs[0], (size_t)ns, cf[i].n, &c, NULL) < 0)
                c = cf[j].coef[0][k];
            pred[2] += c * tk;
            if (ns == 0 ||
                couple_model_value(xs, cs[0], (size_t)ns, cf[i].n, &c, NULL) < 0)
                c = cf[j].coef[0][k];
            pred[3] += c * tk;
            if (ns == 0 ||
                couple_model_value(xs, cs[1], (size_t)ns, cf[i].n, &c, NULL) < 0)
                c = cf[j].coef[1][k];
            pred[5] += c * tk;
            pred[6] += cf[j].coef[2][k] * tk;
            if (ns == 0 ||
                couple_model_value(xs, cs[2], (size_t)ns, cf[i].n, &c, NULL) < 0)
                c = cf[j].coef[2][k];
            pred[7] += c * tk;
        }
        for (w = 0; w < NMETH; w++) {
            err[w] += fabs(pred[w] - meas) / meas;
            if (pi >= 1 && pi < 8)
                perr[pi][w] += fabs(pred[w] - meas) / meas;
        }
        if (pi >= 1 && pi < 8)
            pn[pi]++;
        ntarget++;
    }
    if (ntarget == 0) {
        xfree(cf);
        return;
    }
    printf("\nkernel coupling, %s (%s): %d configurations (n x P), each predicted from "
           "the others;\nmean relative error of the loop time:\n",
           what, file, ntarget);
    printf("  %-8s", "P");
    for (w = 0; w < NMETH; w++)
        printf(" %*s", w == 0 ? 9 : 10, w == 0 ? "sum" : meth[w]);
    printf("\n  %-8s", "all");
    for (w = 0; w < NMETH; w++)
        printf(" %9.1f%%", 100 * err[w] / ntarget);
    printf("\n");
    for (i = 1; i < 8; i++) {
        if (pn[i] == 0)
            continue;
        printf("  P = %-4d", i);
        for (w = 0; w < NMETH; w++)
            printf(" %9.1f%%", 100 * perr[i][w] / pn[i]);
        printf("\n");
    }
    printf("  (methods: ");
    for (w = 0; w < NMETH; w++)
        printf("%s%s", w ? ", " : "", meth[w]);
    printf(
        ")\nnoise against effect, per P (medians over configurations): loop time "
        "median/min - 1 over the repetitions; |pair coupling - 1|; its standard error; "
        "|loop time / sum of alone times - 1|\n");
    for (i = 1; i < 8; i++) {
        double spread[MAXCONF], eff[4 * MAXCONF], se[4 * MAXCONF], call[MAXCONF];
        size_t a = 0, b = 0;
        for (j = 0; j < nc; j++) {
            double v[MAXREP];
            if (!cf[j].ok || (int)cf[j].p != i)
                continue;
            memcpy(v, cf[j].rep[8], (size_t)cf[j].cnt[8] * sizeof *v);
            spread[a] = median(v, (size_t)cf[j].cnt[8]) / cf[j].t[8] - 1;
            call[a++] = fabs(
                cf[j].t[8] / (cf[j].t[0] + cf[j].t[1] + cf[j].t[2] + cf[j].t[3]) - 1);
            for (k = 0; k < 4; k++) {
                eff[b] = fabs(cf[j].cpair[k] - 1);
                se[b++] = cf[j].se[k];
            }
        }
        if (a > 0)
            printf("  P = %d: %zu configurations, %d repetitions: noise %.1f%%, |C - 1| "
                   "%.1f%% (se %.1f%%), loop vs sum %.1f%%\n",
                   i, a, cf[0].cnt[8], 100 * median(spread, a), 100 * median(eff, b),
                   100 * median(se, b), 100 * median(call, a));
    }
    xfree(cf);
}
