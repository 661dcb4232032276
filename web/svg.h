/* svg: Prophecy's own SVG plot renderer (no gnuplot, no external program).
 *
 * Four plot kinds, each described by a plain value struct that callers fill
 * in (the renderer knows nothing of fitting, the database or HTTP):
 *   svg_plot2d   measured points with error bars, fitted curves whose
 *                extrapolated part is dashed, a prediction with its interval,
 *                a legend and the formula, on linear or log10 axes;
 *   svg_plot3d   a shaded surface z(x, y) in an oblique projection with a
 *                colour scale;
 *   svg_stacked  stacked bars (per-kernel breakdown per run/configuration);
 *   svg_heatmap  an n x m matrix (wait times, message traffic).
 *
 * Each renderer validates its input first (every limit below is an ERR_INVALID error
 * with the field at fault), then appends one complete standalone SVG document
 * (xmlns, viewBox, width/height, <title>, <desc>) to a struct buf. It does no
 * I/O, keeps no state and uses no globals, so it is thread-safe; the output is
 * a pure function of the input (no time, no random ids, no element ids at
 * all, so several plots can be inlined in one page). All user text is escaped
 * for XML and invalid UTF-8 is replaced; numbers never print as nan/inf:
 * non-finite data values are skipped as documented per plot kind.
 */
#ifndef PROPHECY_SVG_H
#define PROPHECY_SVG_H

#include <stddef.h>

#include "common/buf.h"
#include "common/err.h"

/* Input limits; exceeding one is an ERR_INVALID "invalid" error naming the field. */
#define SVG_MAX_SERIES 100 /* point series, and separately curves, per 2-D plot */
#define SVG_MAX_POINTS                                                                   \
    100000                /* points + curve samples per 2-D plot; cells per bar chart */
#define SVG_MAX_TEXT 4096 /* bytes of any one title, label or formula */
#define SVG_MIN_GRID 2    /* 3-D grid: at least 2 x 2 values ... */
#define SVG_MAX_GRID 200  /* ... and at most 200 x 200 */
#define SVG_MAX_QUADS_SIDE 60   /* 3-D: larger grids are resampled to <= 60 x 60 quads */
#define SVG_MAX_3D_POINTS 10000 /* measured points overlaid on a 3-D surface */
/* Charts never refuse data for its size (SPEC §16): more than these are
 * grouped to draw, and <desc> says how. */
#define SVG_MAX_BARS 256 /* bars drawn; more categories: each bar a group's mean */
/* components drawn: the largest, the rest as "other"; one colour each, never
 * a colour twice in a legend (SVG_PALETTE_SIZE, "other" grey) */
#define SVG_STACK_TOP (SVG_PALETTE_SIZE - 1)
#define SVG_MAX_HEAT 256 /* heat map rows and columns drawn; more: block means */
#define SVG_MIN_SIZE 200 /* width/height in px; 0 selects the default */
#define SVG_MAX_SIZE 4000
#define SVG_MAX_TICKS 32 /* capacity svg_nice_ticks() may need in out[] */

enum svg_scale { SVG_LINEAR = 0, SVG_LOG10 = 1 };

/* The automatic scale of values from lo to hi: log10 where they are
 * positive and span `factor` or more (SVG_SPAN_X, 16, for an x axis of
 * processor counts or sizes; SVG_SPAN_Y, 100, for measured values), else
 * linear. */
#define SVG_SPAN_X 16
#define SVG_SPAN_Y 100
static inline enum svg_scale svg_scale_for(double lo, double hi, double factor)
{
    return lo > 0 && hi / lo >= factor ? SVG_LOG10 : SVG_LINEAR;
}

/* ---- 2-D plot ------------------------------------------------------------ */

/* One measured point. When has_err is set, [ymin, ymax] is the spread of the
 * repeated runs and is drawn as a vertical error bar with caps. */
struct svg_point {
    double x, y;
    int has_err;
    double ymin, ymax;
};

struct svg_series {
    const char *label; /* legend text; NULL or "" = not in the legend */
    const struct svg_point *points;
    size_t n;
    int color; /* 0 = next palette colour; k > 0 = palette colour k (1-based, cyclic) */
};

/* A sampled curve, drawn as one polyline through (x[i], y[i]) in the given
 * order. When has_fit_max is set, the part with x > x_fit_max (the
 * extrapolation beyond the fitted data) is drawn dashed; the curve is split
 * exactly at x_fit_max. Non-finite samples break the line. */
struct svg_curve {
    const char *label;
    const double *x, *y;
    size_t n;
    int has_fit_max;
    double x_fit_max;
    int color; /* as in svg_series */
};

/* A prediction marker at (x, y); with has_interval, [lo, hi] is drawn as a
 * vertical bar with caps. label NULL = "prediction at x=X: Y [LO, HI]". */
struct svg_prediction {
    double x, y;
    int has_interval;
    double lo, hi;
    const char *label;
};

struct svg_plot2d {
    const char *title, *xlabel, *ylabel; /* each may be NULL */
    enum svg_scale xscale, yscale;
    const struct svg_series *series;
    size_t nseries;
    const struct svg_curve *curves;
    size_t ncurves;
    const struct svg_prediction *prediction; /* NULL = none */
    const char *formula;                     /* printed under the plot; NULL = none */
    int width, height;                       /* px; 0 = 760 x 480 */
    /* Units of the x and y values (common/units.h: "s", "B", "MB/s", ...), or
     * NULL: plain numbers. A linear axis is shown in one readable unit named
     * in its title ("time (µs)"); a log axis names each tick's ("1 µs"). */
    const char *xunit, *yunit;
    /* The legend under the plot, in as many columns as fit, the drawing taller
     * than height by its rows (many or long entries: a box inside the plot
     * would cover the data); 0: boxed in the plot's emptiest corner. */
    int legend_below;
};

/* Appends a 2-D plot to out. Axis ranges cover every finite point, error bar,
 * curve sample and the prediction with a small margin. On a log10 axis,
 * non-positive values are skipped (points and samples dropped, error bars
 * and intervals clipped to the axis); if no positive value is left the axis
 * falls back to linear and <desc> says so. Returns 0, or -1 with err set: ERR_INVALID
 * for invalid input or output over the buffer's maximum, ERR_NOMEM out of memory
 * or when out had already failed on entry (then it is left untouched). On
 * error out is restored to its length and state on entry. */
int svg_plot2d(struct buf *out, const struct svg_plot2d *p, struct err *err);

/* ---- 3-D surface ---------------------------------------------------------- */

struct svg_point3 {
    double x, y, z;
};

/* z holds nx * ny values, z[j * nx + i] = f(x[i], y[j]); x and y must be
 * finite and strictly monotonic (increasing or decreasing). Non-finite z
 * values leave holes (quads touching them are not drawn). */
struct svg_plot3d {
    const char *title, *xlabel, *ylabel, *zlabel;
    const double *x;
    size_t nx;
    const double *y;
    size_t ny;
    const double *z;
    const struct svg_point3 *points; /* measured runs overlaid; may be NULL */
    size_t npoints;
    const char *points_label; /* legend text for the points; NULL = "measured" */
    int width, height;        /* px; 0 = 760 x 560 */
};

/* Appends a 3-D surface: orthographic projection from azimuth -60 degrees,
 * elevation 30 degrees, quads in painter's order, coloured by z through a
 * viridis-like map and shaded by their slope, with x/y/z axes, ticks and a
 * colour bar. Grids over 61 x 61 values are resampled to at most 60 x 60
 * quads (docs/plots.md). Errors and out as for svg_plot2d; also ERR_INVALID when no
 * z value is finite. */
int svg_plot3d(struct buf *out, const struct svg_plot3d *p, struct err *err);

/* ---- stacked bars --------------------------------------------------------- */

/* values holds ncategories * ncomponents values, values[c * ncomponents + k]
 * = component k of bar c; each must be >= 0 or non-finite (treated as
 * missing, i.e. 0). Component colours follow the palette and repeat after
 * SVG_PALETTE_SIZE. Any number of categories and components is drawn: over
 * SVG_STACK_TOP + 1 components, the SVG_STACK_TOP largest (by their total
 * over all bars, kept in input order) and "other (N more)" summing the rest;
 * over SVG_MAX_BARS categories, consecutive ones grouped into SVG_MAX_BARS
 * bars, each the mean of its group and labelled "first–last". */
struct svg_stacked {
    const char *title, *xlabel, *ylabel;
    const char *const *categories; /* ncategories labels (NULL entries allowed) */
    size_t ncategories;
    const char *const *components; /* ncomponents legend labels */
    size_t ncomponents;
    const double *values;
    int width, height; /* px; 0 = 760 x 480 */
    const char *yunit; /* unit of the values (as in svg_plot2d), or NULL */
    /* SVG_LOG10: a log y axis from the smallest value to the tallest bar
     * (for bars of one component whose values span decades; stacked
     * segments on it are not proportional). Default linear from 0. */
    enum svg_scale yscale;
    /* NULL, or ncomponents palette colours (0-based, cyclic; < 0 for any):
     * component k takes colors[k] unless an earlier component of the chart
     * took it, else the colour the chart has used least (a page colours a
     * kernel alike in all its charts, page_colors). NULL: colour k. */
    const int *colors;
    int other; /* the last component sums the rest: grey, apart from the palette */
};

/* Appends a stacked bar chart. Errors and out as for svg_plot2d; a negative
 * value is an ERR_INVALID. */
int svg_stacked(struct buf *out, const struct svg_stacked *p, struct err *err);

/* ---- heat map ------------------------------------------------------------- */

/* values holds nrows * ncols values, values[r * ncols + c]; non-finite values
 * are drawn as grey "no data" cells. Row 0 is at the top. Over SVG_MAX_HEAT
 * rows (columns), consecutive ones are grouped into SVG_MAX_HEAT blocks: a
 * cell is then the mean of the finite values of its block, labelled
 * "first–last". */
struct svg_heatmap {
    const char *title, *xlabel, *ylabel, *zlabel; /* zlabel names the colour scale */
    const char *const *row_labels;                /* NULL = 0, 1, 2, ... */
    size_t nrows;
    const char *const *col_labels; /* NULL = 0, 1, 2, ... */
    size_t ncols;
    const double *values;
    int width, height; /* px; 0 = 760 x 600 */
    const char *zunit; /* unit of the values (as in svg_plot2d), or NULL */
    /* A sparse matrix instead of values (values NULL): zero but for these
     * cells (a cell given twice adds up), drawn as the same dense matrix
     * would be; large matrices (4,096 x 4,096 ranks) are then never held. */
    const struct svg_cell *cells;
    size_t ncells;
};
struct svg_cell {
    size_t row, col;
    double value;
};

/* Appends a heat map with a colour scale (64 colour levels). Errors and out
 * as for svg_plot2d; at least one row and column. */
int svg_heatmap(struct buf *out, const struct svg_heatmap *p, struct err *err);

/* ---- helpers shared with the web pages ------------------------------------ */

#define SVG_PALETTE_SIZE 10

/* Returns palette colour i (cyclic, 0-based) as "#rrggbb"; static storage. */
const char *svg_palette(size_t i);

/* Appends s escaped for XML text or a quoted attribute (& < > " '), with
 * control characters XML forbids dropped and invalid UTF-8 replaced by
 * U+FFFD, so the result is always well-formed. NULL appends nothing. */
void svg_text(struct buf *b, const char *s);

/* Round-number ticks ("nice numbers"): the step is the smallest of
 * 1, 2, 5 x 10^k for which the ticks from floor(min/step)*step to
 * ceil(max/step)*step number at most max_ticks (clamped to 3..SVG_MAX_TICKS),
 * so the ticks cover [min, max]. Tick values are exact decimals (0.6, not
 * 0.6000000000000001). min > max is swapped; min == max is widened. OUT:
 * out[] (room for max_ticks values), *n, *step. Returns 0, or -1 (and *n = 0)
 * if min or max is not finite or their difference overflows. */
int svg_nice_ticks(double min, double max, int max_ticks, double *out, int *n,
                   double *step);

/* Formats a tick value compactly for the given tick step: fixed notation with
 * as many decimals as the step needs ("0.001", "2.5", "1200"), exponent
 * notation when |v| >= 1e6 or 0 < |v| < 1e-4 ("2.5e+06"), "0" for zero.
 * Non-finite v gives "0". Returns out (outsz >= 32 recommended). */
char *svg_fmt_tick(char *out, size_t outsz, double v, double step);

#endif
