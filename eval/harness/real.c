/* real.c: the data sets measured on this machine (eval/data/SET/<case>.txt,
 * "x y" or "x1 x2 y" per line, repetitions as repeated x): each case trained
 * on the smaller values of x and asked at every larger one (eval/README.md);
 * with --basis, the cases also fitted on a machine curve. */
#include "eval.h"

#include "common/xalloc.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double train_frac = 0.6;
unsigned single_seed;

/* interval widths and errors by reach (up to 1, 1..2, more than 2 doublings
 * beyond the training data) */
static double reach_w[NSEL][3][512], reach_e[NSEL][3][512];
static size_t reach_n[NSEL][3];
/* case by case: `auto` against Extra-P's rule on a case's median error over
 * its x asked (better, within 1 %, worse); cases off by more than 100 % */
static size_t cases_vs_xp[3], cases_over1;
/* the same over every set read: cases, `auto` within 10 % and off by more
 * than 100 % (case median error), won / tied / lost against Extra-P's rule */
static size_t tot_cases, tot_within, tot_over1, tot_vs[3];
static double cases_log_ratio; /* sum of log(auto / xp) over those cases */
/* every case's error as the shared corpus's score.py and issue 32 compute
 * it (the mean relative error over its x asked), per selection, by number
 * of variables: real_totals prints their medians */
#define MAX_CASES 1024
static double case_mean[NSEL], means[2][NSEL][MAX_CASES];
static size_t n_means[2];

/* --basis FILE: a machine curve (docs/models.md §12) every case over message
 * size (name ending in _size) is also fitted on; those cases are then
 * compared auto / Extra-P's rule / the fit on the curve. */
static struct fit_basis curve;
static const char *curve_path;
static struct { /* --map: the cases on the curve and where each reads it */
    char name[128];
    double scale, power;
} curve_map[64];
static int curve_nmap = -1; /* -1: no map, the *_size cases at x itself */
enum { S_AUTO, S_XP, S_CURVE, NSIZE };
static struct tally size_tally[NSIZE];
static size_t curve_vs[2][3]; /* the curve against Extra-P's rule, against auto */
static double curve_log_ratio[2];

int curve_loaded(void)
{
    return curve.n > 0;
}

static int cmp_pair(const void *a, const void *b)
{
    const double *p = a, *q = b;
    return (p[0] > q[0]) - (p[0] < q[0]);
}

/* Whether the case is fitted on the --basis curve, and the curve as it
 * reads it (*cb). */
static int on_curve(const char *name, const char *path, struct fit_basis *cb)
{
    size_t l = strlen(name);
    int i;

    *cb = curve;
    if (curve_nmap < 0)
        return l > 5 && strcmp(name + l - 5, "_size") == 0 &&
               strcmp(path, curve_path) != 0;
    for (i = 0; i < curve_nmap; i++)
        if (strcmp(curve_map[i].name, name) == 0) {
            cb->scale = curve_map[i].scale;
            cb->power = curve_map[i].power;
            return 1;
        }
    return 0;
}

/* score, and each prediction's error and width binned by its reach beyond
 * the training data (reach[j], in doublings). Returns the case's median
 * error, or NAN when the fit failed. */
static double score_reach(int sel, const double *x, const double *y, size_t n,
                          const double *xq, const double *truth, double *const *obs,
                          const size_t *nobs, size_t nq, const double *reach,
                          struct tally *t, double *pred)
{
    double e[256];
    size_t j;

    case_mean[sel] = INFINITY;
    if (score(sel, x, y, n, xq, truth, obs, nobs, nq, t, pred) < 0)
        return NAN;
    for (j = 0; j < nq; j++) {
        int bin = reach[j] <= 1 ? 0 : reach[j] <= 2 ? 1 : 2;
        e[j] = fabs(pred[j] - truth[j]) / truth[j];
        if (reach_n[sel][bin] < 512) {
            reach_w[sel][bin][reach_n[sel][bin]] = last_width[j];
            reach_e[sel][bin][reach_n[sel][bin]++] = e[j];
        }
    }
    case_mean[sel] = case_error(pred, truth, nq);
    return median(e, nq);
}

/* Counts a case, `auto` against Extra-P's rule, by their median errors. */
static void case_vs_xp(const char *name, const double *case_err, int nvars, int verbose)
{
    double en = case_err[AUTO], ex = case_err[XP];
    int w, s;

    for (s = 0; s < NSEL && n_means[nvars - 1] < MAX_CASES; s++)
        means[nvars - 1][s][n_means[nvars - 1]] = case_mean[s];
    n_means[nvars - 1] += n_means[nvars - 1] < MAX_CASES;

    cases_over1 += !(en <= 1.0); /* a failed fit (NAN) counts */
    tot_cases++;
    tot_within += en <= 0.10;
    tot_over1 += !(en <= 1.0);
    if (!isfinite(en) || !isfinite(ex))
        return;
    w = fabs(en - ex) <= 0.01 * fmax(en, ex) ? 1 : en < ex ? 0 : 2;
    cases_vs_xp[w]++;
    tot_vs[w]++;
    cases_log_ratio += en > 0 && ex > 0 ? log(en / ex) : 0;
    if (verbose)
        printf("  %-16s case median error: auto %.3g, Extra-P's rule %.3g (%s); mean: "
               "%.3g, %.3g\n",
               name, en, ex,
               w == 0   ? "auto better"
               : w == 1 ? "within 1 %"
                        : "auto worse",
               case_mean[AUTO], case_mean[XP]);
}

/* --single: one observation per x (n observations of nvars values each,
 * equal x adjacent), drawn with single_seed, as a study without
 * repetitions has; returns how many are left. Without --single, n. */
static size_t keep_one(double *x, double *y, size_t n, int nvars)
{
    size_t kept = 0, i, k, cnt;
    unsigned seed = single_seed;

    if (single_seed == 0)
        return n;
    for (i = 0; i < n; i += cnt) {
        for (cnt = 1; i + cnt < n && memcmp(&x[(i + cnt) * nvars], &x[i * nvars],
                                            nvars * sizeof *x) == 0;
             cnt++)
            ;
        seed = seed * 1103515245u + 12345u;
        k = i + (seed >> 16) % cnt;
        memmove(&x[kept * nvars], &x[k * nvars], nvars * sizeof *x);
        y[kept++] = y[k];
    }
    return kept;
}

/* Sorted distinct values of variable v of n rows of 3 (x1 x2 y); at most 256. */
static size_t distinct(const double *r, size_t n, int v, double *d)
{
    size_t nd = 0, i, j;

    for (i = 0; i < n; i++) {
        for (j = 0; j < nd && d[j] != r[3 * i + v]; j++)
            ;
        if (j == nd && nd < 256)
            d[nd++] = r[3 * i + v];
    }
    qsort(d, nd, sizeof *d, cmp_double);
    return nd;
}

/* A case of two variables, "x1 x2 y" per line: trained on the configurations
 * whose both values are among the smaller max(4, ceil(train_frac * k)) of
 * the k distinct values of their variable, asked at every configuration
 * outside that box. Scored as real_case; the Extra-P column is its
 * multi-parameter rule (fit_pmnf2). */
static void real_case2(const char *path, const char *name, struct tally *t, int verbose)
{
    FILE *f = fopen(path, "r");
    double *r = NULL, a, b, c, d[2][256], lim[2], *x, *y, xq[512], tr[256], *op[256];
    double reach[256];
    double case_err[NSEL];
    size_t n = 0, cap = 0, nd[2], i, j, v, ntr = 0, nq = 0, nobs[256];
    int sel;

    if (f == NULL)
        return;
    while (fscanf(f, "%lf %lf %lf", &a, &b, &c) == 3) {
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            r = xrealloc(r, 3 * cap * sizeof *r);
            if (r == NULL)
                exit(1);
        }
        r[3 * n] = a, r[3 * n + 1] = b, r[3 * n + 2] = c;
        n++;
    }
    fclose(f);
    qsort(r, n, 3 * sizeof *r, cmp_triple);
    for (v = 0; v < 2; v++) {
        size_t k;
        nd[v] = distinct(r, n, (int)v, d[v]);
        k = (size_t)ceil(train_frac * (double)nd[v]);
        k = k < 4 ? 4 : k;
        if (nd[v] <= k) {
            printf("  %-16s needs more than %zu values of x%zu\n", name, k, v + 1);
            xfree(r);
            return;
        }
        lim[v] = d[v][k - 1];
    }
    x = xmalloc(2 * n * sizeof *x);
    y = xmalloc(n * sizeof *y);
    for (i = 0; i < n; i = j) {
        int in = r[3 * i] <= lim[0] && r[3 * i + 1] <= lim[1];
        double vals[64];
        size_t k = 0;
        for (j = i; j < n && r[3 * j] == r[3 * i] && r[3 * j + 1] == r[3 * i + 1]; j++) {
            if (in) {
                x[2 * ntr] = r[3 * j];
                x[2 * ntr + 1] = r[3 * j + 1];
                y[ntr++] = r[3 * j + 2];
            } else if (k < 64) {
                vals[k++] = r[3 * j + 2];
            }
        }
        if (in || nq == 256)
            continue;
        xq[2 * nq] = r[3 * i];
        xq[2 * nq + 1] = r[3 * i + 1];
        nobs[nq] = k;
        op[nq] = xmalloc(k * sizeof **op);
        memcpy(op[nq], vals, k * sizeof *vals);
        tr[nq] = median(vals, k);
        nq++;
    }
    ntr = keep_one(x, y, ntr, 2);
    nv = 2;
    for (j = 0; j < nq; j++)
        reach[j] = fmax(log2(xq[2 * j] / lim[0]), log2(xq[2 * j + 1] / lim[1]));
    for (sel = 0; sel < NSEL; sel++) {
        double pred[256];
        case_err[sel] =
            score_reach(sel, x, y, ntr, xq, tr, op, nobs, nq, reach, &t[sel], pred);
        if (verbose) {
            printf("  %-16s %-3s: train x1<=%g x2<=%g,", name, sel_name[sel], lim[0],
                   lim[1]);
            for (j = 0; j < nq; j++)
                printf(" %g,%g:%.3g(%.3g)%.0f%%", xq[2 * j], xq[2 * j + 1], pred[j],
                       tr[j], 100 * last_width[j]);
            printf("\n  %16s      %s\n", "", last_law);
        }
    }
    nv = 1;
    case_vs_xp(name, case_err, 2, verbose);
    for (j = 0; j < nq; j++)
        xfree(op[j]);
    xfree(x);
    xfree(y);
    xfree(r);
}

static void real_case(const char *path, const char *name, struct tally *t, int verbose)
{
    FILE *f = fopen(path, "r");
    struct fit_basis cb;
    double *xy = NULL, a, b;
    size_t n = 0, cap = 0, nd = 0, i, j, ntrain, ntr, nq = 0;
    double dx[256], *x = NULL, *y = NULL, xq[256], tr[256], *op[256], case_err[NSEL];
    double reach[256];
    size_t nobs[256];
    int sel;

    if (f == NULL)
        return;
    { /* three numbers on the first line: a case of two variables */
        char first[256];
        double c;
        if (fgets(first, sizeof first, f) != NULL &&
            sscanf(first, "%lf %lf %lf", &a, &b, &c) == 3) {
            fclose(f);
            real_case2(path, name, t, verbose);
            return;
        }
        rewind(f);
    }
    while (fscanf(f, "%lf %lf", &a, &b) == 2) {
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            xy = xrealloc(xy, 2 * cap * sizeof *xy);
            if (xy == NULL)
                exit(1);
        }
        xy[2 * n] = a;
        xy[2 * n + 1] = b;
        n++;
    }
    fclose(f);
    qsort(xy, n, 2 * sizeof *xy, cmp_pair);
    for (i = 0; i < n; i++)
        if ((nd == 0 || xy[2 * i] != dx[nd - 1]) && nd < 256)
            dx[nd++] = xy[2 * i];
    if (nd < 6) {
        xfree(xy);
        return;
    }
    ntrain = (size_t)ceil(train_frac * (double)nd);
    ntrain = ntrain < 4 ? 4 : ntrain;
    x = xmalloc(n * sizeof *x);
    y = xmalloc(n * sizeof *y);
    for (ntr = 0, i = 0; i < n && xy[2 * i] <= dx[ntrain - 1]; i++, ntr++) {
        x[ntr] = xy[2 * i];
        y[ntr] = xy[2 * i + 1];
    }
    ntr = keep_one(x, y, ntr, 1);
    for (j = ntrain; j < nd; j++) {
        double v[64];
        size_t k = 0;
        xq[nq] = dx[j];
        op[nq] = xy; /* placeholder, set below */
        for (i = 0; i < n; i++)
            if (xy[2 * i] == dx[j] && k < 64)
                v[k++] = xy[2 * i + 1];
        nobs[nq] = k;
        op[nq] = xmalloc(k * sizeof **op);
        memcpy(op[nq], v, k * sizeof *v);
        tr[nq] = median(v, k);
        nq++;
    }
    for (j = 0; j < nq; j++)
        reach[j] = log2(xq[j] / dx[ntrain - 1]);
    for (sel = 0; sel < NSEL; sel++) {
        double pred[256];
        case_err[sel] =
            score_reach(sel, x, y, ntr, xq, tr, op, nobs, nq, reach, &t[sel], pred);
        if (verbose) {
            printf("  %-16s %-3s: train x<=%g,", name, sel_name[sel], dx[ntrain - 1]);
            for (j = 0; j < nq; j++)
                printf(" %g:%.3g(%.3g)%.0f%%", xq[j], pred[j], tr[j],
                       100 * last_width[j]);
            printf("\n  %16s      %s\n", "", last_law);
        }
    }
    case_vs_xp(name, case_err, 1, verbose);
    /* --basis: a case over message size, other than the curve itself, or
     * one the map names, read where the map says */
    if (curve.n > 0 && on_curve(name, path, &cb)) {
        double pred[256], e[256], ec = NAN;
        int k;
        score(AUTO, x, y, ntr, xq, tr, op, nobs, nq, &size_tally[S_AUTO], NULL);
        score(XP, x, y, ntr, xq, tr, op, nobs, nq, &size_tally[S_XP], NULL);
        if (score_on(AUTO, &cb, x, y, ntr, xq, tr, op, nobs, nq, &size_tally[S_CURVE],
                     pred) == 0) {
            for (j = 0; j < nq; j++)
                e[j] = fabs(pred[j] - tr[j]) / tr[j];
            ec = median(e, nq);
        }
        if (verbose) {
            printf("  %-16s crv: train x<=%g,", name, dx[ntrain - 1]);
            for (j = 0; isfinite(ec) && j < nq; j++)
                printf(" %g:%.3g(%.3g)%.0f%%", xq[j], pred[j], tr[j],
                       100 * last_width[j]);
            printf("\n  %16s      %s\n", "", isfinite(ec) ? last_law : "(no fit)");
            printf("  %16s      case median error: new %.3g, Extra-P's rule %.3g, curve "
                   "%.3g\n",
                   "", case_err[AUTO], case_err[XP], ec);
        }
        for (k = 0; k < 2 && isfinite(ec); k++) {
            double eo = case_err[k == 0 ? XP : AUTO];
            if (!isfinite(eo))
                continue;
            curve_vs[k][fabs(ec - eo) <= 0.01 * fmax(ec, eo) ? 1 : ec < eo ? 0 : 2]++;
            curve_log_ratio[k] += ec > 0 && eo > 0 ? log(ec / eo) : 0;
        }
    }
    for (j = 0; j < nq; j++)
        xfree(op[j]);
    xfree(x);
    xfree(y);
    xfree(xy);
}

void real(const char *dir, struct tally *t, int verbose)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char names[64][128];
    int nn = 0, i;

    memset(reach_n, 0, sizeof reach_n);
    memset(cases_vs_xp, 0, sizeof cases_vs_xp);
    cases_over1 = 0;
    cases_log_ratio = 0;
    if (d == NULL) {
        printf("(no real data in %s)\n", dir);
        return;
    }
    while ((de = readdir(d)) != NULL && nn < 64) {
        size_t l = strlen(de->d_name);
        if (l > 4 && l < 120 && strcmp(de->d_name + l - 4, ".txt") == 0 &&
            strcmp(de->d_name, "basis.txt") != 0) /* the map of --basis, not a case */
            snprintf(names[nn++], sizeof names[0], "%s", de->d_name);
    }
    closedir(d);
    qsort(names, (size_t)nn, sizeof names[0],
          (int (*)(const void *, const void *))strcmp);
    for (i = 0; i < nn; i++) {
        char path[1024];
        if (strlen(dir) > 800)
            return;
        snprintf(path, sizeof path, "%.800s/%.120s", dir, names[i]);
        names[i][strlen(names[i]) - 4] = '\0';
        real_case(path, names[i], t, verbose);
    }
    printf("real cases by reach beyond the training data (median error, `auto` and "
           "Extra-P's rule; `auto`'s median interval width):\n");
    for (i = 0; i < 3; i++) {
        static const char *const what[3] = {"<= 1 doubling", "1..2 doublings",
                                            "> 2 doublings"};
        if (reach_n[AUTO][i] == 0)
            continue;
        printf("  %-15s %3zu predictions: error %.3f (xp %.3f), width %.0f%%\n", what[i],
               reach_n[AUTO][i], median(reach_e[AUTO][i], reach_n[AUTO][i]),
               median(reach_e[XP][i], reach_n[XP][i]),
               100 * median(reach_w[AUTO][i], reach_n[AUTO][i]));
    }
    printf("real cases one by one (median error over the x asked), `auto` against "
           "Extra-P's rule: better in %zu, within 1 %% in %zu, worse in %zu; geometric "
           "mean of auto / Extra-P %.3f; cases off by more than 100 %%: %zu\n",
           cases_vs_xp[0], cases_vs_xp[1], cases_vs_xp[2],
           exp(cases_log_ratio /
               fmax(1, (double)(cases_vs_xp[0] + cases_vs_xp[1] + cases_vs_xp[2]))),
           cases_over1);
}

int load_curve(const char *path)
{
    FILE *f = fopen(path, "r");
    double x[4096], t[4096];
    char name[FIT_BASIS_NAME];
    const char *base = strrchr(path, '/');
    size_t n = 0, l;
    struct err e = {0};

    base = base ? base + 1 : path;
    l = strcspn(base, ".");
    snprintf(name, sizeof name, "%.*s", (int)(l < sizeof name - 1 ? l : sizeof name - 1),
             base);
    if (f == NULL) {
        fprintf(stderr, "eval_modeling: cannot read %s\n", path);
        return -1;
    }
    while (n < 4096 && fscanf(f, "%lf %lf", &x[n], &t[n]) == 2)
        n++;
    fclose(f);
    if (fit_basis_make(name, x, t, n, &curve, &e) != 0) {
        fprintf(stderr, "eval_modeling: %s: %s\n", path, e.message);
        return -1;
    }
    curve_path = path;
    return 0;
}

/* Reads a --map: "case scale power" per line, '#' to the end of a line a
 * comment. Returns 0, or -1 with a message. */
int load_map(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512];
    int ln = 0;

    if (f == NULL) {
        fprintf(stderr, "eval_modeling: cannot read %s\n", path);
        return -1;
    }
    curve_nmap = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        char name[128], rest[2];
        double sc, pw;
        int k;
        ln++;
        line[strcspn(line, "#\n")] = '\0';
        k = sscanf(line, "%127s %lf %lf %1s", name, &sc, &pw, rest);
        if (k <= 0)
            continue;
        if (k != 3 || !(sc > 0 && sc <= FIT_BASIS_SCALE_MAX) ||
            !(pw > 0 && pw <= FIT_BASIS_POWER_MAX) || curve_nmap == 64) {
            fprintf(stderr, "eval_modeling: %s:%d: want \"case scale power\"\n", path,
                    ln);
            fclose(f);
            return -1;
        }
        snprintf(curve_map[curve_nmap].name, sizeof curve_map[0].name, "%s", name);
        curve_map[curve_nmap].scale = sc;
        curve_map[curve_nmap++].power = pw;
    }
    fclose(f);
    return 0;
}

void print_curve_summary(void)
{
    static const char *const sn[NSIZE] = {"auto", "xp", "curve"};
    int i, k;

    printf("\n%s also fitted on the machine curve %s (%d points, %g to %g):\n",
           curve_nmap < 0 ? "message-size cases"
                          : "the mapped cases (read at scale*x^power)",
           curve.name, curve.n, curve.x[0], curve.x[curve.n - 1]);
    for (k = 0; k < 2; k++) {
        size_t c = curve_vs[k][0] + curve_vs[k][1] + curve_vs[k][2];
        printf("  one by one, the curve against %s: better in %zu, within 1 %% in %zu, "
               "worse in %zu; geometric mean of curve / %s %.3f\n",
               k == 0 ? "Extra-P's rule" : "auto", curve_vs[k][0], curve_vs[k][1],
               curve_vs[k][2], k == 0 ? "Extra-P" : "auto",
               exp(curve_log_ratio[k] / fmax(1, (double)c)));
    }
    for (i = 0; i < NSIZE; i++) {
        print_row(curve_nmap < 0 ? "message size" : "on the curve", sn[i],
                  &size_tally[i]);
        xfree(size_tally[i].err);
        xfree(size_tally[i].width);
    }
}

void real_totals(void)
{
    int v, s;

    if (tot_cases == 0)
        return;
    printf("real cases, every set read: %zu cases; `auto`'s case median error within "
           "10 %% in %zu (%.0f %%), above 100 %% in %zu; against Extra-P's rule better "
           "in %zu, within 1 %% in %zu, worse in %zu\n",
           tot_cases, tot_within, 100.0 * (double)tot_within / (double)tot_cases,
           tot_over1, tot_vs[0], tot_vs[1], tot_vs[2]);
    for (v = 0; v < 2; v++) {
        size_t n = n_means[v], k, within[NSEL] = {0};
        double med[NSEL];
        if (n == 0)
            continue;
        for (s = 0; s < NSEL; s++) {
            for (k = 0; k < n; k++)
                within[s] += means[v][s][k] <= 0.10;
            med[s] = median(means[v][s], n);
        }
        printf(
            "  %s, %zu cases, as the shared corpus scores them (a case's mean relative "
            "error; the median over cases): auto %.3f, Extra-P's rule (%s) %.3f, "
            "ratio %.2f; within 10 %%: %zu and %zu\n",
            v == 0 ? "one variable" : "two variables", n, med[AUTO],
            v == 1                    ? "multi-parameter"
            : xp_variant == XP_NEGEXP ? "negative exponents"
            : xp_variant == XP_BEST   ? "the better of default and negative exponents"
                                      : "default",
            med[XP], med[AUTO] / med[XP], within[AUTO], within[XP]);
    }
}
