/* chart_couple: a kernel-coupling answer as SVG plots (web/chart.h): the
 * composed model over x with the measured totals and predictions
 * (couple_plot), and the per-kernel breakdown, coefficient x kernel model
 * stacked per x (couple_plot_breakdown). Both read the answer through
 * core/couple_saved.h, the evaluator the method itself uses. */
#include "common/utf8.h"
#include "common/xalloc.h"
#include "core/couple_saved.h"
#include "web/chart.h"
#include "web/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CP_SAMPLES 200

/* ==== plots ======================================================================== */

/* The x values to draw over: measured points, the fitted ranges of the
 * kernels and the predictions. */
static void plot_range(struct couple_saved *s, json_t *ans, double *lo, double *hi,
                       double *fit_max)
{
    json_t *p;
    size_t i;
    *lo = INFINITY;
    *hi = -INFINITY;
    *fit_max = -INFINITY;
    for (i = 0; i < s->nk; i++)
        if (!s->k[i].is_expr) {
            *lo = fmin(*lo, s->k[i].fm.xmin[0]);
            *hi = fmax(*hi, s->k[i].fm.xmax[0]);
            *fit_max = fmax(*fit_max, s->k[i].fm.xmax[0]);
        }
    json_array_foreach(json_object_get(ans, "points"), i, p)
    {
        double x = json_number_value(json_object_get(p, "x"));
        *lo = fmin(*lo, x);
        *hi = fmax(*hi, x);
    }
    json_array_foreach(json_object_get(ans, "predictions"), i, p)
    {
        double x = json_number_value(json_object_get(p, "x"));
        *lo = fmin(*lo, x);
        *hi = fmax(*hi, x);
    }
    if (!(*lo <= *hi)) {
        *lo = 1;
        *hi = 64;
    }
    if (*lo == *hi) {
        *lo = *lo > 0 ? *lo / 2 : *lo - 1;
        *hi = *hi > 0 ? *hi * 2 : *hi + 1;
    }
}

/* Copies s into out (size bytes), cut at a UTF-8 boundary with "…" if long. */
static const char *clip(const char *s, char *out, size_t size)
{
    size_t n = strlen(s);
    if (n < size) {
        memcpy(out, s, n + 1);
        return out;
    }
    memcpy(out, s, size - 4);
    out[size - 4] = '\0';
    utf8_cut(out);
    memcpy(out + strlen(out), "\xe2\x80\xa6", 4);
    return out;
}

static void plot_title(json_t *ans, char *title, size_t size)
{
    const char *app = json_string_value(json_object_get(ans, "application")),
               *sys = json_string_value(json_object_get(ans, "system"));
    if (app && sys)
        snprintf(title, size, "Kernel coupling: %s on %s", app, sys);
    else
        snprintf(title, size, "Kernel coupling model");
    utf8_cut(title);
}

int couple_plot(json_t *answer, struct buf *b, struct err *err)
{
    return couple_plot_at(answer, 0, 0, b, err);
}

int couple_plot_at(json_t *answer, int w, int h, struct buf *b, struct err *err)
{
    struct couple_saved s;
    struct svg_plot2d p;
    struct svg_series series[3];
    struct svg_curve curves[2];
    struct svg_prediction pred;
    struct svg_point *in = NULL, *out = NULL, *pp = NULL;
    double *cx = NULL, *cy = NULL, *sy = NULL, lo, hi, fit_max;
    size_t nin = 0, nout = 0, npp = 0, i, ns = 0;
    json_t *pt, *points = json_object_get(answer, "points"),
                *preds = json_object_get(answer, "predictions");
    char title[300], formula[SVG_MAX_TEXT];
    int rc = -1, logx;

    if (couple_saved_load(answer, &s, err) != 0)
        return -1;
    in = xcalloc(json_array_size(points) + 1, sizeof *in);
    out = xcalloc(json_array_size(points) + 1, sizeof *out);
    pp = xcalloc(json_array_size(preds) + 1, sizeof *pp);
    cx = xcalloc(CP_SAMPLES, sizeof *cx);
    cy = xcalloc(CP_SAMPLES, sizeof *cy);
    sy = xcalloc(CP_SAMPLES, sizeof *sy);
    if (in == NULL || out == NULL || pp == NULL || cx == NULL || cy == NULL ||
        sy == NULL) {
        err_nomem(err);
        goto done;
    }
    json_array_foreach(points, i, pt)
    {
        struct svg_point q;
        q.x = json_number_value(json_object_get(pt, "x"));
        q.y = json_number_value(json_object_get(pt, "y"));
        q.ymin = json_number_value(json_object_get(pt, "ymin"));
        q.ymax = json_number_value(json_object_get(pt, "ymax"));
        q.has_err = json_integer_value(json_object_get(pt, "n")) > 1;
        if (json_is_false(json_object_get(pt, "in_range")))
            out[nout++] = q;
        else
            in[nin++] = q;
    }
    json_array_foreach(preds, i, pt)
    {
        pp[npp].x = json_number_value(json_object_get(pt, "x"));
        pp[npp].y = json_number_value(json_object_get(pt, "y"));
        pp[npp].ymin = json_number_value(json_object_get(pt, "lo"));
        pp[npp].ymax = json_number_value(json_object_get(pt, "hi"));
        pp[npp].has_err = 1;
        npp++;
    }
    /* The curves: coupled (each x with its nearest configuration) and the
     * plain sum of the kernel models. */
    plot_range(&s, answer, &lo, &hi, &fit_max);
    logx = lo > 0 && hi / lo > 20;
    for (i = 0; i < CP_SAMPLES; i++) {
        double t = (double)i / (CP_SAMPLES - 1), x;
        struct couple_eval ev;
        struct err e2 = {0};
        x = logx ? exp(log(lo) + t * (log(hi) - log(lo))) : lo + t * (hi - lo);
        cx[i] = x;
        if (couple_saved_predict(&s, x, &ev, NULL, &e2) == 0) {
            cy[i] = ev.y;
            sy[i] = ev.sum;
        } else {
            cy[i] = sy[i] = NAN; /* outside a kernel model's domain: a gap */
        }
    }
    memset(&p, 0, sizeof p);
    memset(series, 0, sizeof series);
    memset(curves, 0, sizeof curves);
    if (nin > 0) {
        series[ns].label = "measured runtime";
        series[ns].points = in;
        series[ns].n = nin;
        series[ns].color = 1;
        ns++;
    }
    if (nout > 0) {
        series[ns].label = "measured runtime (outside the fitted range)";
        series[ns].points = out;
        series[ns].n = nout;
        series[ns].color = 4;
        ns++;
    }
    if (npp > 1) {
        series[ns].label = "predictions (95 % interval)";
        series[ns].points = pp;
        series[ns].n = npp;
        series[ns].color = 3;
        ns++;
    }
    curves[0].label = "coupled model";
    curves[0].x = cx;
    curves[0].y = cy;
    curves[0].n = CP_SAMPLES;
    curves[0].color = 2;
    curves[1].label = "summation of kernel models";
    curves[1].x = cx;
    curves[1].y = sy;
    curves[1].n = CP_SAMPLES;
    curves[1].color = 5;
    if (isfinite(fit_max)) {
        curves[0].has_fit_max = curves[1].has_fit_max = 1;
        curves[0].x_fit_max = curves[1].x_fit_max = fit_max;
    }
    if (npp > 0) {
        memset(&pred, 0, sizeof pred);
        pred.x = pp[0].x;
        pred.y = pp[0].y;
        pred.lo = pp[0].ymin;
        pred.hi = pp[0].ymax;
        pred.has_interval = pred.hi > pred.lo;
        p.prediction = &pred;
    }
    plot_title(answer, title, sizeof title);
    p.title = title;
    p.xlabel = s.xname;
    p.ylabel = "runtime (s)";
    p.series = series;
    p.nseries = ns;
    p.curves = curves;
    p.ncurves = 2;
    if (json_is_string(json_object_get(answer, "formula")))
        p.formula = clip(json_string_value(json_object_get(answer, "formula")), formula,
                         sizeof formula);
    p.width = w;
    p.height = h;
    rc = svg_plot2d(b, &p, err);
done:
    xfree(in);
    xfree(out);
    xfree(pp);
    xfree(cx);
    xfree(cy);
    xfree(sy);
    couple_saved_free(&s);
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int couple_plot_breakdown(json_t *answer, struct buf *b, struct err *err)
{
    return couple_plot_breakdown_at(answer, 0, 0, b, err);
}

int couple_plot_breakdown_at(json_t *answer, int w, int h, struct buf *b, struct err *err)
{
    struct couple_saved s;
    struct svg_stacked st;
    json_t *pt;
    double *xs = NULL, *vals = NULL, lo, hi, fit_max;
    char **labels = NULL, title[300];
    const char **names = NULL;
    size_t nx = 0, n = 0, i, j;
    int rc = -1;

    if (couple_saved_load(answer, &s, err) != 0)
        return -1;
    n = json_array_size(json_object_get(answer, "points")) +
        json_array_size(json_object_get(answer, "predictions"));
    xs = xcalloc(n + 8, sizeof *xs);
    if (xs == NULL)
        goto nomem;
    json_array_foreach(json_object_get(answer, "points"), i, pt) xs[nx++] =
        json_number_value(json_object_get(pt, "x"));
    json_array_foreach(json_object_get(answer, "predictions"), i, pt) xs[nx++] =
        json_number_value(json_object_get(pt, "x"));
    if (nx == 0) { /* nothing measured or predicted: 8 steps over the fitted range */
        plot_range(&s, answer, &lo, &hi, &fit_max);
        for (i = 0; i < 8; i++)
            xs[nx++] = lo + (hi - lo) * (double)i / 7;
    }
    qsort(xs, nx, sizeof *xs, cmp_double);
    for (i = 0, j = 0; i < nx; i++)
        if (j == 0 || xs[i] != xs[j - 1])
            xs[j++] = xs[i];
    nx = j;
    vals = xcalloc(nx * s.nk + 1, sizeof *vals);
    labels = xcalloc(nx + 1, sizeof *labels);
    names = xcalloc(s.nk + 1, sizeof *names);
    if (vals == NULL || labels == NULL || names == NULL)
        goto nomem;
    for (i = 0; i < s.nk; i++)
        names[i] = s.k[i].name;
    for (i = 0; i < nx; i++) {
        struct couple_eval ev;
        struct err e2 = {0};
        char lab[64];
        snprintf(lab, sizeof lab, "%g", xs[i]);
        labels[i] = xstrdup(lab);
        if (labels[i] == NULL)
            goto nomem;
        if (couple_saved_predict(&s, xs[i], &ev, vals + i * s.nk, &e2) != 0)
            for (j = 0; j < s.nk; j++)
                vals[i * s.nk + j] = NAN; /* outside a model's domain: missing */
        for (j = 0; j < s.nk; j++)
            if (vals[i * s.nk + j] < 0)
                vals[i * s.nk + j] = 0; /* a negative contribution cannot be stacked */
    }
    memset(&st, 0, sizeof st);
    plot_title(answer, title, sizeof title - 40);
    snprintf(title + strlen(title), 40, ": per-kernel breakdown");
    st.title = title;
    st.xlabel = s.xname;
    st.ylabel = "coupled kernel time";
    st.yunit = "s";
    st.categories = (const char *const *)labels;
    st.ncategories = nx;
    st.components = names;
    st.ncomponents = s.nk;
    st.values = vals;
    st.width = w;
    st.height = h;
    rc = svg_stacked(b, &st, err);
    goto done;
nomem:
    err_nomem(err);
done:
    for (i = 0; labels && i < nx; i++)
        xfree(labels[i]);
    xfree(labels);
    xfree(names);
    xfree(vals);
    xfree(xs);
    couple_saved_free(&s);
    return rc;
}
