/* chart_param: a parameterization's answer as an SVG plot (web/chart.h): the
 * model's curve over its one range with the measured runs, or its surface
 * over two ranges. Reads only the answer's "grid", "measured", "vars" and
 * "expression" (core/method_param.h). */
#include "common/arena.h"
#include "common/buf.h"
#include "core/method_param.h"
#include "formats/limits.h"
#include "models/expr.h"
#include "web/chart.h"
#include "web/svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PARAM_MIN_STEPS 2
#define PARAM_MAX_STEPS LIMIT_PARAM_STEPS

/* Reads a JSON array of numbers (null = NAN) of exactly n entries into out. */
static int numbers(json_t *arr, size_t n, double *out)
{
    size_t i;
    if (!json_is_array(arr) || json_array_size(arr) != n)
        return -1;
    for (i = 0; i < n; i++) {
        json_t *v = json_array_get(arr, i);
        if (json_is_number(v))
            out[i] = json_number_value(v);
        else if (json_is_null(v))
            out[i] = NAN;
        else
            return -1;
    }
    return 0;
}

/* "matmul master/slave on IBM SP2" and the like, into the arena. */
static const char *plot_title(arena *a, json_t *answer)
{
    const char *t = json_string_value(json_object_get(answer, "template"));
    const char *s = json_string_value(json_object_get(answer, "system"));
    return arena_printf(a, "%s%s%s", t ? t : "parameterized model", s ? " on " : "",
                        s ? s : "");
}

/* The expression with the fixed variables, printed under a 2-D plot. */
static const char *plot_formula(arena *a, json_t *answer)
{
    json_t *vars = json_object_get(answer, "vars"), *v;
    const char *key, *ex = json_string_value(json_object_get(answer, "expression"));
    struct buf b;
    const char *s;
    int first = 1;

    buf_init(&b, SVG_MAX_TEXT - 1);
    buf_puts(&b, ex ? ex : "");
    json_object_foreach(vars, key, v)
    {
        if (!json_is_number(v))
            continue;
        buf_printf(&b, "%s%s=", first ? "   at " : ", ", key);
        expr_print_number(&b, json_number_value(v));
        first = 0;
    }
    s = buf_failed(&b) ? ex : arena_strdup(a, buf_str(&b));
    buf_free(&b);
    return s;
}

static int bad_answer(struct err *err)
{
    return err_set(err, ERR_INTERNAL, "internal", NULL,
                   "the saved model's grid is malformed");
}

static int plot_2d(json_t *answer, json_t *grid, arena *a, int w, int h, struct buf *b,
                   struct err *err)
{
    json_t *xs = json_object_get(grid, "xs"),
           *measured = json_object_get(answer, "measured");
    const char *xname = json_string_value(json_object_get(grid, "x"));
    size_t n = json_array_size(xs), i, m = 0;
    double *x, *y;
    struct svg_point *pts;
    struct svg_curve curve;
    struct svg_series series;
    struct svg_plot2d p;
    json_t *e;

    if (xname == NULL || n < PARAM_MIN_STEPS || n > PARAM_MAX_STEPS)
        return bad_answer(err);
    x = arena_alloc(a, n * sizeof *x);
    y = arena_alloc(a, n * sizeof *y);
    pts = arena_alloc(a, (json_array_size(measured) + 1) * sizeof *pts);
    if (x == NULL || y == NULL || pts == NULL)
        return err_nomem(err);
    if (numbers(xs, n, x) != 0 || numbers(json_object_get(grid, "ys"), n, y) != 0)
        return bad_answer(err);
    json_array_foreach(measured, i, e)
    {
        json_t *px = json_object_get(json_object_get(e, "x"), xname);
        json_t *t = json_object_get(e, "runtime");
        if (!json_is_number(px) || !json_is_number(t))
            continue;
        pts[m].x = json_number_value(px);
        pts[m].y = json_number_value(t);
        pts[m].has_err = json_integer_value(json_object_get(e, "runs")) > 1;
        pts[m].ymin = json_number_value(json_object_get(e, "min"));
        pts[m].ymax = json_number_value(json_object_get(e, "max"));
        m++;
    }
    memset(&curve, 0, sizeof curve);
    curve.label = "model";
    curve.x = x;
    curve.y = y;
    curve.n = n;
    curve.color = 1;
    memset(&series, 0, sizeof series);
    series.label = "measured (mean, min-max)";
    series.points = pts;
    series.n = m;
    series.color = 2;
    memset(&p, 0, sizeof p);
    p.title = plot_title(a, answer);
    p.xlabel = xname;
    p.ylabel = "time (s)";
    p.curves = &curve;
    p.ncurves = 1;
    p.series = &series;
    p.nseries = m ? 1 : 0;
    p.formula = plot_formula(a, answer);
    p.width = w;
    p.height = h;
    return svg_plot2d(b, &p, err);
}

static int plot_3d(json_t *answer, json_t *grid, arena *a, int w, int h, struct buf *b,
                   struct err *err)
{
    json_t *xs = json_object_get(grid, "xs"), *ys = json_object_get(grid, "ys");
    json_t *z = json_object_get(grid, "z"),
           *measured = json_object_get(answer, "measured");
    const char *xname = json_string_value(json_object_get(grid, "x"));
    const char *yname = json_string_value(json_object_get(grid, "y"));
    size_t nx = json_array_size(xs), ny = json_array_size(ys), j, m = 0;
    double *x, *y, *zz;
    struct svg_point3 *pts;
    struct svg_plot3d p;
    json_t *e;

    if (xname == NULL || yname == NULL || nx < PARAM_MIN_STEPS || nx > PARAM_MAX_STEPS ||
        ny < PARAM_MIN_STEPS || ny > PARAM_MAX_STEPS || json_array_size(z) != ny)
        return bad_answer(err);
    x = arena_alloc(a, nx * sizeof *x);
    y = arena_alloc(a, ny * sizeof *y);
    zz = arena_alloc(a, nx * ny * sizeof *zz);
    pts = arena_alloc(a, (json_array_size(measured) + 1) * sizeof *pts);
    if (x == NULL || y == NULL || zz == NULL || pts == NULL)
        return err_nomem(err);
    if (numbers(xs, nx, x) != 0 || numbers(ys, ny, y) != 0)
        return bad_answer(err);
    for (j = 0; j < ny; j++)
        if (numbers(json_array_get(z, j), nx, zz + j * nx) != 0)
            return bad_answer(err);
    json_array_foreach(measured, j, e)
    {
        json_t *mx = json_object_get(e, "x");
        json_t *px = json_object_get(mx, xname), *py = json_object_get(mx, yname);
        json_t *t = json_object_get(e, "runtime");
        if (!json_is_number(px) || !json_is_number(py) || !json_is_number(t) ||
            m == SVG_MAX_3D_POINTS)
            continue;
        pts[m].x = json_number_value(px);
        pts[m].y = json_number_value(py);
        pts[m].z = json_number_value(t);
        m++;
    }
    memset(&p, 0, sizeof p);
    p.title = plot_title(a, answer);
    p.xlabel = xname;
    p.ylabel = yname;
    p.zlabel = "time (s)";
    p.x = x;
    p.nx = nx;
    p.y = y;
    p.ny = ny;
    p.z = zz;
    p.points = m ? pts : NULL;
    p.npoints = m;
    p.points_label = "measured (mean)";
    p.width = w;
    p.height = h;
    return svg_plot3d(b, &p, err);
}

int param_plot(json_t *answer, struct buf *b, struct err *err)
{
    return param_plot_at(answer, 0, 0, b, err);
}

int param_plot_at(json_t *answer, int w, int h, struct buf *b, struct err *err)
{
    json_t *grid = json_object_get(answer, "grid");
    arena *a;
    int rc;

    if (grid == NULL)
        return err_invalid(err, "vars",
                           "a plot needs a range: give one or two variables as "
                           "[min, max]");
    a = arena_new();
    if (a == NULL)
        return err_nomem(err);
    rc = json_object_get(grid, "z") ? plot_3d(answer, grid, a, w, h, b, err)
                                    : plot_2d(answer, grid, a, w, h, b, err);
    arena_free(a);
    return rc;
}
