/* scaling.c: the shared corpus of real scaling measurements
 * (../shared/corpus/scaling: cases/<name>.json, {"name", "vars", "train":
 * [[x..., y], ...] with every repetition a row, "test": [[x..., median y],
 * ...]}, and extrap_baseline.json: Extra-P 4.2.5's predictions, {case:
 * {"default": {"pred": [...]}, "negexp": {...}}}). Each case is fitted by
 * `auto` on its training rows and predicted at its test rows; its error is
 * the mean relative error over them, as the corpus's score.py computes it
 * (a case that fails counts as an infinite error). Printed for one and two
 * variables apart: the median case error and the cases within 10 % of
 * `auto` and of Extra-P (the better of default and negexp per case, as
 * score.py's "Extra-P best"), the cases `auto` wins and loses against it
 * (within 1 % of each other: a tie), and the 95 % intervals: the share of
 * test points they hold, their median width relative to the prediction
 * and how many lower bounds are <= 0. */
#include "eval.h"

#include "common/xalloc.h"

#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXCASES 256

/* One case's figures. */
struct scase {
    char name[96];
    int nvars;
    double err[3]; /* auto, Extra-P best, our rewrite of Extra-P's rule */
    size_t ntest, covered, low0, warned, far, warned_far;
    double width[64]; /* relative width of each test point's interval */
};

/* The better (lower error) of Extra-P's variants for a case, from the
 * baseline's predictions; INFINITY when missing. */
static double extrap_error(json_t *base, const char *name, json_t *test)
{
    static const char *const variant[] = {"default", "negexp"};
    double best = INFINITY;
    size_t v;

    for (v = 0; v < 2; v++) {
        json_t *pred = json_object_get(
            json_object_get(json_object_get(base, name), variant[v]), "pred");
        double sum = 0;
        size_t i;
        if (!json_is_array(pred) || json_array_size(pred) != json_array_size(test))
            continue;
        for (i = 0; i < json_array_size(test); i++) {
            json_t *row = json_array_get(test, i);
            double t = json_number_value(json_array_get(row, json_array_size(row) - 1));
            json_t *p = json_array_get(pred, i);
            if (!json_is_number(p) || !isfinite(json_number_value(p)))
                break;
            sum += fabs(json_number_value(p) - t) / fabs(t);
        }
        if (i == json_array_size(test) && sum / (double)i < best)
            best = sum / (double)i;
    }
    return best;
}

/* Fits one case (sel AUTO or XP), fills c->err[slot] and, for AUTO, the
 * interval figures; writes the predictions to preds (a JSON array) when not
 * NULL. */
static void fit_case(struct scase *c, json_t *train, json_t *test, int sel, int slot,
                     json_t *preds)
{
    size_t n = json_array_size(train), nq = json_array_size(test), i, v;
    double *x = xmalloc(n * 2 * sizeof *x), *y = xmalloc(n * sizeof *y);
    double xq[2 * 64], tr[64], o[64], *op[64], pred[64];
    size_t nobs[64];
    struct tally t = {0};

    c->err[slot] = INFINITY;
    if (x == NULL || y == NULL || nq == 0 || nq > 64)
        goto done;
    for (i = 0; i < n; i++) {
        json_t *row = json_array_get(train, i);
        for (v = 0; v < (size_t)c->nvars; v++)
            x[i * (size_t)c->nvars + v] = json_number_value(json_array_get(row, v));
        y[i] = json_number_value(json_array_get(row, (size_t)c->nvars));
    }
    for (i = 0; i < nq; i++) {
        json_t *row = json_array_get(test, i);
        for (v = 0; v < (size_t)c->nvars; v++)
            xq[i * (size_t)c->nvars + v] = json_number_value(json_array_get(row, v));
        tr[i] = o[i] = json_number_value(json_array_get(row, (size_t)c->nvars));
        op[i] = &o[i];
        nobs[i] = 1;
    }
    nv = c->nvars;
    if (score(sel, x, y, n, xq, tr, op, nobs, nq, &t, pred) == 0 && t.failed == 0) {
        for (i = 0; preds != NULL && i < nq; i++)
            json_array_append_new(preds, json_real(pred[i]));
        c->err[slot] = case_error(pred, tr, nq);
        if (sel == AUTO) {
            c->ntest = nq;
            c->covered = t.covered;
            c->low0 = t.low0;
            c->warned = t.warned;
            c->far = t.far;
            c->warned_far = t.warned_far;
            memcpy(c->width, last_width, nq * sizeof *c->width);
        }
    }
    nv = 1;
done:
    tally_free(&t);
    xfree(x);
    xfree(y);
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* Whether the corpus has Extra-P's own predictions (extrap_baseline.json).
 * Without them, Extra-P's column is its rules as written again here
 * (fit_pmnf1, fit_pmnf1_negexp, fit_pmnf2; --xp says which), which give
 * Extra-P 4.2.5's case errors on the shared corpus (eval/RECORD.md §19). */
static int have_base;

/* The figures of one group of cases (one or two variables). */
static void report(const struct scase *cs, size_t nc, int nvars)
{
    double e[3][MAXCASES], w[MAXCASES * 64];
    size_t k, i, n = 0, nw = 0, within[3] = {0}, won = 0, lost = 0, tie = 0;
    size_t pts = 0, held = 0, low0 = 0, over1 = 0, warned = 0, far = 0, wfar = 0;
    int s;

    for (k = 0; k < nc; k++) {
        const struct scase *c = &cs[k];
        if (c->nvars != nvars)
            continue;
        for (s = 0; s < 3; s++) {
            e[s][n] = c->err[s];
            within[s] += c->err[s] <= 0.10;
        }
        over1 += c->err[0] > 1.0;
        if (fabs(c->err[0] - c->err[1]) <= 0.01 * fmax(c->err[0], c->err[1]))
            tie++;
        else if (c->err[0] < c->err[1])
            won++;
        else
            lost++;
        pts += c->ntest;
        held += c->covered;
        low0 += c->low0;
        warned += c->warned;
        far += c->far;
        wfar += c->warned_far;
        for (i = 0; i < c->ntest; i++)
            w[nw++] = c->width[i];
        n++;
    }
    if (n == 0)
        return;
    if (have_base)
        printf("  %s variable%s, %zu cases: median case error auto %.3f, Extra-P %.3f "
               "(ours %.3f); within 10 %%: auto %zu, Extra-P %zu (ours %zu)\n",
               nvars == 1 ? "one" : "two", nvars == 1 ? "" : "s", n, median(e[0], n),
               median(e[1], n), median(e[2], n), within[0], within[1], within[2]);
    else
        printf("  %s variable%s, %zu cases: median case error auto %.3f, Extra-P's rules "
               "as written again here %.3f; within 10 %%: auto %zu, Extra-P %zu\n",
               nvars == 1 ? "one" : "two", nvars == 1 ? "" : "s", n, median(e[0], n),
               median(e[2], n), within[0], within[2]);
    printf("    auto against Extra-P case by case: won %zu, tied (within 1 %%) %zu, "
           "lost %zu; auto off by more than 100 %% in %zu\n",
           won, tie, lost, over1);
    printf("    95 %% intervals: %zu of %zu test points held (%.1f %%), median width "
           "%.0f %% of the prediction, %zu lower bounds <= 0\n",
           held, pts, 100.0 * (double)held / (double)(pts ? pts : 1), 100 * median(w, nw),
           low0);
    printf("    warnings on %zu of %zu test points; %zu of them off by more than 50 %% "
           "(precision %.0f %%); of the %zu that far off, %.0f %% warned about\n",
           warned, pts, wfar, 100.0 * (double)wfar / (double)(warned ? warned : 1), far,
           100.0 * (double)wfar / (double)(far ? far : 1));
}

int scaling_corpus(const char *dir, const char *preds_path, int verbose)
{
    char path[1200], (*names)[96] = NULL;
    struct scase *cs = NULL;
    json_t *base = NULL, *preds = NULL;
    json_error_t je;
    struct dirent *de;
    size_t nc = 0, k;
    DIR *d;
    int rc = -1;

    if (strlen(dir) > 1000)
        return -1;
    snprintf(path, sizeof path, "%s/cases", dir);
    if ((d = opendir(path)) == NULL) {
        printf("(no scaling corpus at %s)\n", dir);
        return -1;
    }
    names = xcalloc(MAXCASES, sizeof *names);
    cs = xcalloc(MAXCASES, sizeof *cs);
    if (names == NULL || cs == NULL)
        goto done;
    while ((de = readdir(d)) != NULL && nc < MAXCASES) {
        size_t l = strlen(de->d_name);
        if (l > 5 && l < 90 && strcmp(de->d_name + l - 5, ".json") == 0)
            snprintf(names[nc++], sizeof names[0], "%s", de->d_name);
    }
    qsort(names, nc, sizeof names[0], cmp_name);
    snprintf(path, sizeof path, "%s/extrap_baseline.json", dir);
    have_base = access(path, F_OK) == 0;
    if ((base = have_base ? json_load_file(path, 0, &je) : json_object()) == NULL) {
        fprintf(stderr, "eval_modeling: %s:%d: %s\n", path, je.line, je.text);
        goto done;
    }
    preds = json_object();
    printf("\nthe scaling corpus %s: real measurements of other people's clusters, "
           "trained on the small scales, asked at the larger ones%s\n",
           dir, verbose ? " (case: auto error, Extra-P best, ours; auto law)" : "");
    for (k = 0; k < nc; k++) {
        struct scase *c = &cs[k];
        json_t *cj, *train, *test, *p = json_array();
        snprintf(path, sizeof path, "%s/cases/%s", dir, names[k]);
        if ((cj = json_load_file(path, 0, &je)) == NULL) {
            fprintf(stderr, "eval_modeling: %s:%d: %s\n", path, je.line, je.text);
            json_decref(p);
            goto done;
        }
        snprintf(c->name, sizeof c->name, "%s",
                 json_is_string(json_object_get(cj, "name"))
                     ? json_string_value(json_object_get(cj, "name"))
                     : names[k]);
        c->nvars = (int)json_array_size(json_object_get(cj, "vars"));
        train = json_object_get(cj, "train");
        test = json_object_get(cj, "test");
        if (c->nvars < 1 || c->nvars > 2 || !json_is_array(train) ||
            !json_is_array(test)) {
            fprintf(stderr, "eval_modeling: %s: not a case\n", path);
            json_decref(p);
            json_decref(cj);
            goto done;
        }
        fit_case(c, train, test, AUTO, 0, p);
        if (verbose)
            printf("  %-46s %8.3f %8.3f", c->name, c->err[0],
                   extrap_error(base, c->name, test));
        {
            char law[256];
            memcpy(law, last_law, sizeof law);
            c->err[1] = extrap_error(base, c->name, test);
            fit_case(c, train, test, XP, 2, NULL);
            if (!have_base) /* won and lost against the rules written again */
                c->err[1] = c->err[2];
            if (verbose)
                printf(" %8.3f  %s\n", c->err[2], law);
        }
        json_object_set_new(preds, c->name, p);
        json_decref(cj);
    }
    report(cs, nc, 1);
    report(cs, nc, 2);
    if (preds_path != NULL && json_dump_file(preds, preds_path, JSON_INDENT(1)) != 0)
        fprintf(stderr, "eval_modeling: cannot write %s\n", preds_path);
    rc = 0;
done:
    closedir(d);
    json_decref(base);
    json_decref(preds);
    xfree(names);
    xfree(cs);
    return rc;
}
