/* chart_fit: a curve fit's answer as an SVG plot (web/chart.h): the measured
 * points with error bars, the fitted curve and the first prediction for one
 * variable; the fitted surface over the points for two. Reads the answer
 * through core/method_fit.h, so a saved and a fresh answer plot alike. */
#include "common/xalloc.h"
#include "core/method_fit.h"
#include "web/chart.h"
#include "web/svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- plots ---------------------------------------------------------------------- */

#define CURVE_SAMPLES 200
#define SURFACE_SIDE 40

static double num(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A title such as "matmul (example) on SGI Origin2000 (example): runtime". */
static void title_of(json_t *ans, struct buf *b)
{
    json_t *sel = json_object_get(ans, "selection");
    const char *y = json_string_value(json_object_get(ans, "y"));
    if (sel != NULL)
        buf_printf(b,
                   "%s on %s: ", json_string_value(json_object_get(sel, "application")),
                   json_string_value(json_object_get(sel, "system")));
    else
        buf_puts(b, "Curve fit: ");
    buf_puts(b, y ? y : "y");
}

static int plot2d(json_t *ans, const struct fit_model *m, const char *name, int w, int h,
                  struct buf *b, struct err *err)
{
    json_t *points = json_object_get(ans, "points"),
           *preds = json_object_get(ans, "predictions");
    json_t *p, *first = json_array_get(preds, 0);
    struct svg_point *pts = xcalloc(json_array_size(points) + 1, sizeof *pts);
    double cx[CURVE_SAMPLES], cy[CURVE_SAMPLES], lo = m->xmin[0], hi = m->xmax[0];
    struct svg_series series = {"measured", pts, 0, 1};
    struct svg_curve curve = {"fitted model", cx, cy, CURVE_SAMPLES, 1, m->xmax[0], 2};
    struct svg_prediction pr;
    struct svg_plot2d plot;
    struct buf title, label, note;
    struct err ignored = {0};
    const char *y = json_string_value(json_object_get(ans, "y"));
    char ylabel[256];
    size_t i;
    int rc, logx;

    if (pts == NULL)
        return err_nomem(err);
    json_array_foreach(points, i, p)
    {
        pts[i].x = num(p, "x");
        pts[i].y = num(p, "y");
        pts[i].ymin = num(p, "ymin");
        pts[i].ymax = num(p, "ymax");
        pts[i].has_err = json_integer_value(json_object_get(p, "n")) > 1;
    }
    series.n = json_array_size(points);
    json_array_foreach(preds, i, p)
    {
        double x = num(p, "x");
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
    /* Log axis for ranges over more than a factor 16 (processor counts). */
    logx = svg_scale_for(lo, hi, SVG_SPAN_X) == SVG_LOG10;
    for (i = 0; i < CURVE_SAMPLES; i++) {
        double t = (double)i / (CURVE_SAMPLES - 1);
        cx[i] = logx ? lo * pow(hi / lo, t) : lo + (hi - lo) * t;
        if (fit_eval(m, &cx[i], &cy[i], &ignored) != 0)
            cy[i] = NAN;
    }
    memset(&plot, 0, sizeof plot);
    buf_init(&title, 4096);
    title_of(ans, &title);
    plot.title = buf_str(&title);
    plot.xlabel = name;
    if (y == NULL || strcmp(y, "runtime") == 0 || strncmp(y, "kernel:", 7) == 0)
        snprintf(ylabel, sizeof ylabel, "%.200s%stime [s]", y && y[0] == 'k' ? y + 7 : "",
                 y && y[0] == 'k' ? " " : "run");
    else
        snprintf(ylabel, sizeof ylabel, "%.200s", y);
    plot.ylabel = ylabel;
    plot.xscale = logx ? SVG_LOG10 : SVG_LINEAR;
    {
        /* a log y axis where the values span a factor 100 and all are
         * positive, as the application page's plots (a strong-scaling time
         * from 3.45 s to 20 ms lay flat on the zero line of a linear one,
         * with its prediction) */
        double ymin = INFINITY, ymax = -INFINITY;
        for (i = 0; i < series.n; i++)
            if (isfinite(pts[i].y)) {
                ymin = fmin(ymin, pts[i].y);
                ymax = fmax(ymax, pts[i].y);
            }
        if (first != NULL && isfinite(num(first, "y"))) {
            ymin = fmin(ymin, num(first, "y"));
            ymax = fmax(ymax, num(first, "y"));
        }
        plot.yscale = svg_scale_for(ymin, ymax, SVG_SPAN_Y);
    }
    plot.series = &series;
    plot.nseries = 1;
    plot.curves = &curve;
    plot.ncurves = 1;
    plot.formula =
        json_string_value(json_object_get(json_object_get(ans, "model"), "formula"));
    buf_init(&label, 4096);
    buf_init(&note, 1 << 16);
    if (first != NULL) {
        const char *warn = json_string_value(json_object_get(first, "warning"));
        double reach = num(first, "extrapolation");
        memset(&pr, 0, sizeof pr);
        pr.x = num(first, "x");
        pr.y = num(first, "y");
        pr.lo = num(first, "lo");
        pr.hi = num(first, "hi");
        pr.has_interval = json_is_true(json_object_get(first, "interval"));
        /* How far the prediction reaches, and the warning under the plot. */
        if (reach > 0 || warn != NULL) {
            buf_printf(&label, "%sx=%g: %.4g", warn ? "\xe2\x9a\xa0 " : "", pr.x, pr.y);
            if (pr.has_interval)
                buf_printf(&label, " [%.4g, %.4g]", pr.lo, pr.hi);
            if (reach > 0)
                buf_printf(&label, ", %.2g doubling%s out", reach, reach == 1 ? "" : "s");
            pr.label = buf_str(&label);
        }
        if (warn != NULL) {
            buf_printf(&note, "%s  \xe2\x80\x94  Warning: %s",
                       plot.formula ? plot.formula : "", warn);
            plot.formula = buf_str(&note);
        }
        plot.prediction = &pr;
    }
    plot.width = w;
    plot.height = h;
    rc = svg_plot2d(b, &plot, err);
    buf_free(&label);
    buf_free(&note);
    buf_free(&title);
    xfree(pts);
    return rc;
}

static int plot3d(json_t *ans, const struct fit_model *m, const char *const *names, int w,
                  int h, struct buf *b, struct err *err)
{
    json_t *points = json_object_get(ans, "points"), *p;
    double gx[SURFACE_SIDE], gy[SURFACE_SIDE], z[SURFACE_SIDE * SURFACE_SIDE];
    struct svg_point3 *pts = xcalloc(json_array_size(points) + 1, sizeof *pts);
    struct svg_plot3d plot;
    struct buf title;
    struct err ignored = {0};
    size_t i, j, n = 0;
    int rc;

    if (pts == NULL)
        return err_nomem(err);
    for (i = 0; i < SURFACE_SIDE; i++) {
        double t = (double)i / (SURFACE_SIDE - 1);
        gx[i] = m->xmin[0] + (m->xmax[0] - m->xmin[0]) * t;
        gy[i] = m->xmin[1] + (m->xmax[1] - m->xmin[1]) * t;
    }
    for (j = 0; j < SURFACE_SIDE; j++)
        for (i = 0; i < SURFACE_SIDE; i++) {
            double x[2] = {gx[i], gy[j]};
            if (fit_eval(m, x, &z[j * SURFACE_SIDE + i], &ignored) != 0)
                z[j * SURFACE_SIDE + i] = NAN;
        }
    json_array_foreach(points, i, p)
    {
        json_t *x = json_object_get(p, "x");
        if (n >= SVG_MAX_3D_POINTS)
            break;
        pts[n].x = json_number_value(json_array_get(x, 0));
        pts[n].y = json_number_value(json_array_get(x, 1));
        pts[n].z = num(p, "y");
        n++;
    }
    memset(&plot, 0, sizeof plot);
    buf_init(&title, 4096);
    title_of(ans, &title);
    plot.title = buf_str(&title);
    plot.xlabel = names[0];
    plot.ylabel = names[1];
    plot.zlabel = json_string_value(json_object_get(ans, "y"));
    plot.x = gx;
    plot.nx = SURFACE_SIDE;
    plot.y = gy;
    plot.ny = SURFACE_SIDE;
    plot.z = z;
    plot.points = pts;
    plot.npoints = n;
    plot.width = w;
    plot.height = h;
    rc = svg_plot3d(b, &plot, err);
    buf_free(&title);
    xfree(pts);
    return rc;
}

int fit_plot(json_t *ans, struct buf *b, struct err *err)
{
    return fit_plot_at(ans, 0, 0, b, err);
}

int fit_plot_at(json_t *ans, int w, int h, struct buf *b, struct err *err)
{
    struct fit_model m;
    const char *names[FIT_MAX_VARS];

    if (fit_answer_read(ans, &m, names, err) != 0)
        return -1;
    if (m.nvars == 1)
        return plot2d(ans, &m, names[0], w, h, b, err);
    if (!(m.xmax[0] > m.xmin[0]) || !(m.xmax[1] > m.xmin[1]))
        return err_invalid(err, "model", "a surface needs a range in both variables");
    return plot3d(ans, &m, names, w, h, b, err);
}
