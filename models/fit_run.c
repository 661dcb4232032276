/* fit_run: the driver of models/fit.h: aggregation of the raw data, the
 * checks of a request, and the dispatch to a graph type, `unknown` (the
 * least residual of the 12), `auto` (fit_auto.c) or a machine curve. Above
 * fit.c (least squares, evaluation, intervals, formulas) and fit_auto.c,
 * which never call back into it. */
#include "models/fit.h"
#include "models/fit_cand.h"
#include "common/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Terms of poly k / inv k in coefficient order. Returns the count k + 1. */
static int graph_terms(enum fit_graph g, struct fit_term *t)
{
    int k, j, inv = g >= FIT_INV1;

    k = inv ? (int)g - FIT_INV1 + 1 : (int)g - FIT_POLY1 + 1;
    memset(t, 0, (size_t)(k + 1) * sizeof *t);
    for (j = 1; j <= k; j++)
        t[j].expo[0] = inv ? -j : j;
    return k + 1;
}

/* ---- aggregation ---- */

static int cmp_idx2(const void *a, const void *b, const double *x)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    int v;

    for (v = 0; v < 2; v++)
        if (x[2 * i + v] != x[2 * j + v])
            return x[2 * i + v] < x[2 * j + v] ? -1 : 1;
    return (i > j) - (i < j);
}

/* qsort has no context argument in C11; sort indices with a small merge sort
 * instead of a global. */
static void sort_idx2(size_t *idx, size_t *tmp, size_t n, const double *x)
{
    size_t mid, i, j, k;

    if (n < 2)
        return;
    mid = n / 2;
    sort_idx2(idx, tmp, mid, x);
    sort_idx2(idx + mid, tmp, n - mid, x);
    for (i = 0, j = mid, k = 0; i < mid || j < n;)
        if (j >= n || (i < mid && cmp_idx2(&idx[i], &idx[j], x) <= 0))
            tmp[k++] = idx[i++];
        else
            tmp[k++] = idx[j++];
    memcpy(idx, tmp, n * sizeof *idx);
}

static size_t find_x1(const struct fit_point *p, size_t m, double x)
{
    size_t lo = 0, hi = m;

    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (p[mid].x[0] <= x)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Groups the raw data into pts (n entries allocated by the caller), each
 * reduced by kind (`auto`'s mean is AGG_MEAN_SPIKE). Returns the number of
 * distinct points or -1. */
static long aggregate(const struct fit_input *in, enum agg_kind kind,
                      struct fit_point *pts, struct err *err)
{
    size_t i, m = 0;

    if (in->nvars == 1) {
        struct agg_point *ap = xmalloc(in->n * sizeof *ap);
        int k;

        if (ap == NULL)
            return err_nomem(err);
        k = agg_points(in->x, in->y, in->n, kind, ap, err);
        if (k < 0) {
            xfree(ap);
            return -1;
        }
        m = (size_t)k;
        for (i = 0; i < m; i++) {
            memset(&pts[i], 0, sizeof pts[i]);
            pts[i].x[0] = ap[i].x;
            pts[i].y = ap[i].y;
            pts[i].ymin = ap[i].ymin;
            pts[i].ymax = ap[i].ymax;
            pts[i].sd = ap[i].sd;
            pts[i].n = ap[i].n;
        }
        xfree(ap);
        /* The sum of squares about the aggregated value (not only about the
         * mean), so median and min aggregation are handled by one formula. */
        for (i = 0; i < in->n; i++) {
            size_t j = find_x1(pts, m, in->x[i]);
            double d = in->y[i] - pts[j].y;
            pts[j].ss += d * d;
        }
        return (long)m;
    } else {
        size_t *idx = xmalloc(in->n * sizeof *idx), *tmp = xmalloc(in->n * sizeof *tmp);
        double *yv = xmalloc(in->n * sizeof *yv);
        size_t a, b;

        if (idx == NULL || tmp == NULL || yv == NULL) {
            xfree(idx);
            xfree(tmp);
            xfree(yv);
            return err_nomem(err);
        }
        for (i = 0; i < in->n; i++)
            idx[i] = i;
        sort_idx2(idx, tmp, in->n, in->x);
        for (a = 0; a < in->n; a = b) {
            struct fit_point *p = &pts[m++];
            double mean = 0, ss = 0;
            size_t k, cnt;

            for (b = a + 1; b < in->n && in->x[2 * idx[b]] == in->x[2 * idx[a]] &&
                            in->x[2 * idx[b] + 1] == in->x[2 * idx[a] + 1];
                 b++)
                ;
            cnt = b - a;
            memset(p, 0, sizeof *p);
            p->x[0] = in->x[2 * idx[a]];
            p->x[1] = in->x[2 * idx[a] + 1];
            p->ymin = p->ymax = in->y[idx[a]];
            for (k = 0; k < cnt; k++) {
                double v = in->y[idx[a + k]];
                yv[k] = v;
                mean += v;
                p->ymin = v < p->ymin ? v : p->ymin;
                p->ymax = v > p->ymax ? v : p->ymax;
            }
            mean /= (double)cnt;
            for (k = 0; k < cnt; k++)
                ss += (yv[k] - mean) * (yv[k] - mean);
            p->sd = cnt > 1 ? sqrt(ss / (double)(cnt - 1)) : 0;
            p->y = agg_reduce(yv, cnt, kind);
            p->n = (int)cnt;
            for (k = 0; k < cnt; k++) {
                double d = in->y[idx[a + k]] - p->y;
                p->ss += d * d;
            }
        }
        xfree(idx);
        xfree(tmp);
        xfree(yv);
        return (long)m;
    }
}

static int fit_graph_type(const struct fit_point *pts, size_t m, enum fit_graph g,
                          struct fit_model *out, struct err *err)
{
    struct fit_term t[FIT_MAX_TERMS];
    int p = graph_terms(g, t);

    if (fit_terms(pts, m, 1, t, p, 0, out, err) < 0)
        return -1;
    out->graph = out->chosen = g;
    return 0;
}

static double model_rss(const struct fit_model *mod, const struct fit_point *pts,
                        size_t m)
{
    double rss = 0, y;
    size_t i;

    for (i = 0; i < m; i++) {
        if (fit_eval(mod, pts[i].x, &y, NULL) < 0)
            return INFINITY;
        rss += (pts[i].y - y) * (pts[i].y - y);
    }
    return rss;
}

/* The paper's rule: least residual norm among the types that can be fitted;
 * ties (within rounding) go to fewer terms, then poly before inv. */
static int fit_unknown(const struct fit_point *pts, size_t m, struct fit_model *out,
                       struct err *err)
{
    struct fit_model cand;
    double best = INFINITY, tss = 0, mean = 0;
    int k, inv, found = 0;
    size_t i;

    for (i = 0; i < m; i++)
        mean += pts[i].y;
    mean /= (double)m;
    for (i = 0; i < m; i++)
        tss += (pts[i].y - mean) * (pts[i].y - mean);
    for (k = 1; k <= 6; k++)
        for (inv = 0; inv < 2; inv++) {
            enum fit_graph g = (enum fit_graph)((inv ? FIT_INV1 : FIT_POLY1) + k - 1);
            struct err e2 = {0};
            double rss;
            if (fit_graph_type(pts, m, g, &cand, &e2) < 0) {
                if (strcmp(e2.code, "out_of_memory") == 0)
                    return err_set(err, e2.status, e2.code, NULL, "%s", e2.message);
                continue;
            }
            rss = model_rss(&cand, pts, m);
            if (!found || rss < best - 1e-12 * (tss > 0 ? tss : 1)) {
                best = rss;
                *out = cand;
                found = 1;
            }
        }
    if (!found)
        return err_set(err, ERR_INVALID, "degenerate", "data",
                       "none of the 12 graph types can be fitted to %zu distinct point%s",
                       m, m == 1 ? "" : "s");
    out->graph = FIT_UNKNOWN;
    return 0;
}

static int run_points(struct fit_point *pts, size_t m, int nvars, enum fit_graph g,
                      const struct fit_basis *basis, size_t nobs, struct fit_result *out,
                      struct err *err);

/* What a fit on a machine curve allows: one variable, graph auto or linear. */
static int check_basis(const struct fit_basis *basis, int nvars, enum fit_graph g,
                       struct err *err)
{
    if (basis == NULL)
        return 0;
    if (basis->n < 2 || basis->n > FIT_BASIS_MAX)
        return err_invalid(err, "basis", "the machine curve is empty");
    if (nvars != 1)
        return err_invalid(err, "basis", "a fit on a machine curve has one variable");
    if (g != FIT_AUTO && g != FIT_POLY1)
        return err_invalid(err, "graph",
                           "a fit on a machine curve is linear in it: use graph \"auto\" "
                           "or \"linear\", not %s",
                           fit_graph_name(g));
    return 0;
}

int fit_run(const struct fit_input *in, struct fit_result *out, struct err *err)
{
    struct fit_point *pts = NULL;
    enum fit_graph g;
    size_t i;
    long k;
    int v;

    memset(out, 0, sizeof *out);
    if (in->nvars < 1 || in->nvars > FIT_MAX_VARS)
        return err_invalid(err, "vars", "a fit takes 1 or 2 variables");
    if (in->n > FIT_MAX_POINTS)
        return err_set(err, ERR_TOO_LARGE, "too_large", "data",
                       "%zu points exceed the limit of %d points per fit", in->n,
                       FIT_MAX_POINTS);
    if (in->n == 0 || in->x == NULL || in->y == NULL)
        return err_set(err, ERR_INVALID, "degenerate", "data", "no data points to fit");
    if (fit_graph_parse(in->graph, &g, err) < 0)
        return -1;
    if (in->nvars == 2 && g != FIT_AUTO)
        return err_invalid(err, "graph",
                           "graph type %s fits one variable; use \"auto\" for two",
                           fit_graph_name(g));
    if (check_basis(in->basis, in->nvars, g, err) < 0)
        return -1;
    for (i = 0; i < in->n; i++) {
        int bad = !isfinite(in->y[i]);
        for (v = 0; v < in->nvars; v++)
            bad |= !isfinite(in->x[i * (size_t)in->nvars + (size_t)v]);
        if (bad)
            return err_set(err, ERR_INVALID, "invalid", "data",
                           "data[%zu] is not a finite number", i);
    }

    pts = xmalloc(in->n * sizeof *pts);
    if (pts == NULL)
        return err_nomem(err);
    k = aggregate(in, g == FIT_AUTO && in->agg == AGG_MEAN ? AGG_MEAN_SPIKE : in->agg,
                  pts, err);
    if (k < 0) {
        xfree(pts);
        return -1;
    }
    return run_points(pts, (size_t)k, in->nvars, g, in->basis, in->n, out, err);
}

/* Fits m aggregated points (pts, xmalloc'd, taken: kept in out or freed) of
 * nobs observations with graph g. */
static int run_points(struct fit_point *pts, size_t m, int nvars, enum fit_graph g,
                      const struct fit_basis *basis, size_t nobs, struct fit_result *out,
                      struct err *err)
{
    size_t i;
    int v;

    for (v = 0; v < nvars; v++) {
        int varies = 0;
        for (i = 1; i < m; i++)
            varies |= pts[i].x[v] != pts[0].x[v];
        if (!varies) {
            err_set(
                err, ERR_INVALID, "degenerate", "data",
                "all x%s values are equal (%g); a fit needs at least 2 distinct values",
                nvars == 2 ? (v == 0 ? "1" : "2") : "", pts[0].x[v]);
            goto fail;
        }
    }

    if (basis != NULL) {
        if (fit_basis_model(pts, m, basis, &out->model, err) < 0)
            goto fail;
        out->model.graph = g;
    } else if (g == FIT_UNKNOWN) {
        if (fit_unknown(pts, m, &out->model, err) < 0)
            goto fail;
    } else if (g == FIT_AUTO) {
        if (fit_auto_model(pts, m, nvars, &out->model, err) < 0)
            goto fail;
    } else if (fit_graph_type(pts, m, g, &out->model, err) < 0) {
        goto fail;
    }
    if (basis == NULL && g != FIT_AUTO) {
        /* A graph type fitted to a positive quantity (every value > 0):
         * fit_predict_ext's interval is multiplicative, in log space, so it
         * never reaches 0 (SPEC §18). */
        out->model.positive = 1;
        for (i = 0; i < m; i++)
            out->model.positive &= pts[i].y > 0;
    }
    out->points = pts;
    out->npoints = m;
    fit_stats_compute(out, nobs);
    return 0;
fail:
    xfree(pts);
    memset(out, 0, sizeof *out);
    return -1;
}

int fit_run_points(const struct fit_point *pts, size_t m, int nvars, const char *graph,
                   const struct fit_basis *basis, size_t nobs, struct fit_result *out,
                   struct err *err)
{
    struct fit_point *own;
    enum fit_graph g;
    size_t i;
    int v;

    memset(out, 0, sizeof *out);
    if (nvars < 1 || nvars > FIT_MAX_VARS)
        return err_invalid(err, "vars", "a fit takes 1 or 2 variables");
    if (m > FIT_MAX_POINTS)
        return err_set(err, ERR_TOO_LARGE, "too_large", "data",
                       "%zu points exceed the limit of %d points per fit", m,
                       FIT_MAX_POINTS);
    if (nobs > FIT_MAX_OBS)
        return err_set(err, ERR_TOO_LARGE, "too_large", "data",
                       "%zu observations exceed the limit of %d per fit", nobs,
                       FIT_MAX_OBS);
    if (m == 0 || pts == NULL)
        return err_set(err, ERR_INVALID, "degenerate", "data", "no data points to fit");
    if (fit_graph_parse(graph, &g, err) < 0)
        return -1;
    if (nvars == 2 && g != FIT_AUTO)
        return err_invalid(err, "graph",
                           "graph type %s fits one variable; use \"auto\" for two",
                           fit_graph_name(g));
    if (check_basis(basis, nvars, g, err) < 0)
        return -1;
    for (i = 0; i < m; i++) {
        int bad = !isfinite(pts[i].y) || !isfinite(pts[i].ymin) ||
                  !isfinite(pts[i].ymax) || !isfinite(pts[i].ss) || pts[i].n < 1;
        for (v = 0; v < nvars; v++)
            bad |= !isfinite(pts[i].x[v]);
        if (bad)
            return err_set(err, ERR_INVALID, "invalid", "data",
                           "point %zu is not a finite number", i);
    }
    if ((own = xmalloc(m * sizeof *own)) == NULL)
        return err_nomem(err);
    memcpy(own, pts, m * sizeof *own);
    for (i = 0; i < m; i++)
        own[i].yhat = own[i].resid = 0;
    return run_points(own, m, nvars, g, basis, nobs, out, err);
}

void fit_result_free(struct fit_result *r)
{
    if (r == NULL)
        return;
    xfree(r->points);
    r->points = NULL;
    r->npoints = 0;
}
