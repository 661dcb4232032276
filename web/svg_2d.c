/* svg_2d: the 2-D plot (svg_plot2d in svg.h): measured points with error
 * bars, fitted curves with a dashed extrapolated part, the prediction with its
 * interval, legend and formula, on linear or log10 axes.
 *
 * Layout, top to bottom: title, plot area (legend boxed in its emptiest
 * corner), x tick labels and axis label, the formula wrapped on up to four
 * lines, and with legend_below the legend in columns. The
 * axis ranges are computed from exactly the values that are drawn, so nothing
 * falls outside the frame and no clip path (with an element id) is needed.
 */
#include "web/svg.h"
#include "web/svg_priv.h"
#include "common/units.h"
#include "common/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define DEFAULT_W 760
#define DEFAULT_H 480
#define LEGEND_FS SVG_FS_SMALL
#define LEGEND_ROW 18
#define FORMULA_LINES 4
#define DASH_EXTRAPOLATED "6 4"
/* Values beyond this magnitude are treated as non-finite: they could only
 * come from a broken model and would squash everything else to one pixel. */
#define MAX_MAGNITUDE 1e150

enum { MK_CIRCLE, MK_SQUARE, MK_TRIANGLE, MK_DIAMOND, MK_COUNT };
enum { LG_SERIES, LG_CURVE, LG_PREDICTION };

struct legend_item {
    int kind;
    const char *color;
    int marker;
    int dashed; /* curve with an extrapolated part */
    const char *label;
};

struct line {
    const char *s;
    size_t n;
    int ellipsis;
};

struct plot {
    const struct svg_plot2d *p;
    int xlog, ylog;           /* effective scales */
    int xfallback, yfallback; /* log requested, nothing positive: linear */
    size_t skipped;
    struct svg_axis ax, ay;
    double x0, x1, y0, y1; /* plot area: x0 left, x1 right, y0 top, y1 bottom */
};

/* Pen for one path: knows the last point written (in output rounding) so
 * that a segment continuing the previous one needs no new "M". */
struct pen {
    struct buf *b; /* NULL: count only */
    int open;
    long long lx, ly;
    size_t segments;
};

static int usable(double v, int log)
{
    return isfinite(v) && fabs(v) <= MAX_MAGNITUDE && (!log || v > 0);
}

static void range_add(double v, double *mn, double *mx, int *have)
{
    if (!*have) {
        *mn = *mx = v;
        *have = 1;
        return;
    }
    if (v < *mn)
        *mn = v;
    if (v > *mx)
        *mx = v;
}

static const char *item_color(int color, size_t *next)
{
    if (color > 0)
        return svg_palette((size_t)(color - 1));
    return svg_palette((*next)++);
}

/* ---- validation ------------------------------------------------------------ */

static int validate(const struct svg_plot2d *p, struct err *err)
{
    size_t i, total = 0;
    char field[64];

    if (p == NULL)
        return err_invalid(err, NULL, "no plot given");
    if (svg_check_text(p->title, "title", err) ||
        svg_check_text(p->xlabel, "xlabel", err) ||
        svg_check_text(p->ylabel, "ylabel", err) ||
        svg_check_text(p->formula, "formula", err) ||
        svg_check_size(p->width, p->height, err))
        return -1;
    if (p->xscale != SVG_LINEAR && p->xscale != SVG_LOG10)
        return err_invalid(err, "xscale", "xscale must be linear or log10");
    if (p->yscale != SVG_LINEAR && p->yscale != SVG_LOG10)
        return err_invalid(err, "yscale", "yscale must be linear or log10");
    if (p->nseries > SVG_MAX_SERIES)
        return err_invalid(err, "series", "more than %d point series (%zu)",
                           SVG_MAX_SERIES, p->nseries);
    if (p->ncurves > SVG_MAX_SERIES)
        return err_invalid(err, "curves", "more than %d curves (%zu)", SVG_MAX_SERIES,
                           p->ncurves);
    if (p->nseries > 0 && p->series == NULL)
        return err_invalid(err, "series", "series missing");
    if (p->ncurves > 0 && p->curves == NULL)
        return err_invalid(err, "curves", "curves missing");
    for (i = 0; i < p->nseries; i++) {
        const struct svg_series *s = &p->series[i];
        snprintf(field, sizeof field, "series[%zu]", i);
        if (svg_check_text(s->label, field, err))
            return -1;
        if (s->n > SVG_MAX_POINTS || (s->n > 0 && s->points == NULL) || s->color < 0)
            return err_invalid(err, field, "%s: bad point array or colour", field);
        total += s->n;
    }
    for (i = 0; i < p->ncurves; i++) {
        const struct svg_curve *c = &p->curves[i];
        snprintf(field, sizeof field, "curves[%zu]", i);
        if (svg_check_text(c->label, field, err))
            return -1;
        if (c->n > SVG_MAX_POINTS || (c->n > 0 && (c->x == NULL || c->y == NULL)) ||
            c->color < 0)
            return err_invalid(err, field, "%s: bad sample arrays or colour", field);
        total += c->n;
    }
    if (total > SVG_MAX_POINTS)
        return err_invalid(err, "points",
                           "more than %d points and samples in one plot (%zu)",
                           SVG_MAX_POINTS, total);
    if (p->prediction != NULL && svg_check_text(p->prediction->label, "prediction", err))
        return -1;
    return 0;
}

/* ---- ranges and scales ------------------------------------------------------ */

/* A log axis with no positive value falls back to linear (if there is any
 * finite value at all; with no data it stays log over 1..10). */
static void choose_scales(struct plot *c)
{
    const struct svg_plot2d *p = c->p;
    int xpos = 0, xany = 0, ypos = 0, yany = 0;
    size_t i, j;

#define SEEN(v, pos, any)                                                                \
    do {                                                                                 \
        if (usable((v), 0)) {                                                            \
            any = 1;                                                                     \
            if ((v) > 0)                                                                 \
                pos = 1;                                                                 \
        }                                                                                \
    } while (0)
    for (i = 0; i < p->nseries; i++)
        for (j = 0; j < p->series[i].n; j++) {
            const struct svg_point *pt = &p->series[i].points[j];
            SEEN(pt->x, xpos, xany);
            SEEN(pt->y, ypos, yany);
        }
    for (i = 0; i < p->ncurves; i++)
        for (j = 0; j < p->curves[i].n; j++) {
            SEEN(p->curves[i].x[j], xpos, xany);
            SEEN(p->curves[i].y[j], ypos, yany);
        }
    if (p->prediction != NULL) {
        SEEN(p->prediction->x, xpos, xany);
        SEEN(p->prediction->y, ypos, yany);
    }
#undef SEEN
    c->xlog = p->xscale == SVG_LOG10;
    c->ylog = p->yscale == SVG_LOG10;
    if (c->xlog && !xpos && xany) {
        c->xlog = 0;
        c->xfallback = 1;
    }
    if (c->ylog && !ypos && yany) {
        c->ylog = 0;
        c->yfallback = 1;
    }
}

static void collect_ranges(struct plot *c, double *xmn, double *xmx, int *xh, double *ymn,
                           double *ymx, int *yh)
{
    const struct svg_plot2d *p = c->p;
    size_t i, j;

    *xh = *yh = 0;
    for (i = 0; i < p->nseries; i++)
        for (j = 0; j < p->series[i].n; j++) {
            const struct svg_point *pt = &p->series[i].points[j];
            if (!usable(pt->x, c->xlog) || !usable(pt->y, c->ylog)) {
                c->skipped++;
                continue;
            }
            range_add(pt->x, xmn, xmx, xh);
            range_add(pt->y, ymn, ymx, yh);
            if (pt->has_err) {
                if (usable(pt->ymin, c->ylog))
                    range_add(pt->ymin, ymn, ymx, yh);
                if (usable(pt->ymax, c->ylog))
                    range_add(pt->ymax, ymn, ymx, yh);
            }
        }
    for (i = 0; i < p->ncurves; i++)
        for (j = 0; j < p->curves[i].n; j++) {
            double x = p->curves[i].x[j], y = p->curves[i].y[j];
            if (!usable(x, c->xlog) || !usable(y, c->ylog)) {
                c->skipped++;
                continue;
            }
            range_add(x, xmn, xmx, xh);
            range_add(y, ymn, ymx, yh);
        }
    if (p->prediction != NULL) {
        const struct svg_prediction *pr = p->prediction;
        if (usable(pr->x, c->xlog) && usable(pr->y, c->ylog)) {
            range_add(pr->x, xmn, xmx, xh);
            range_add(pr->y, ymn, ymx, yh);
            if (pr->has_interval) {
                if (usable(pr->lo, c->ylog))
                    range_add(pr->lo, ymn, ymx, yh);
                if (usable(pr->hi, c->ylog))
                    range_add(pr->hi, ymn, ymx, yh);
            }
        } else {
            c->skipped++;
        }
    }
}

/* ---- text helpers ------------------------------------------------------------ */

/* Splits s into at most maxlines lines of at most maxchars characters,
 * breaking at spaces where possible; the last line ends in "…" if cut. */
static int wrap(const char *s, size_t maxchars, struct line *lines, int maxlines)
{
    int nl = 0;

    if (s == NULL)
        return 0;
    if (maxchars < 8)
        maxchars = 8;
    while (*s && nl < maxlines) {
        size_t cut, brk, j;
        while (*s == ' ')
            s++;
        if (*s == '\0')
            break;
        if (svg_utf8_chars(s) <= maxchars) {
            lines[nl].s = s;
            lines[nl].n = strlen(s);
            lines[nl++].ellipsis = 0;
            break;
        }
        if (nl == maxlines - 1) {
            lines[nl].s = s;
            lines[nl].n = svg_utf8_prefix(s, maxchars - 1);
            lines[nl++].ellipsis = 1;
            break;
        }
        cut = svg_utf8_prefix(s, maxchars);
        brk = cut;
        for (j = cut; j > cut / 2; j--)
            if (s[j - 1] == ' ') {
                brk = j;
                break;
            }
        lines[nl].s = s;
        lines[nl].n = brk;
        lines[nl++].ellipsis = 0;
        s += brk;
    }
    return nl;
}

static void short_num(char *out, size_t outsz, double v)
{
    snprintf(out, outsz, "%.4g", isfinite(v) ? v : 0.0);
}

/* The prediction's legend text: the caller's label or the default one. */
static void prediction_label(const struct svg_prediction *pr, char *out, size_t outsz)
{
    char x[32], y[32], lo[32], hi[32];

    short_num(x, sizeof x, pr->x);
    short_num(y, sizeof y, pr->y);
    if (pr->has_interval && isfinite(pr->lo) && isfinite(pr->hi)) {
        short_num(lo, sizeof lo, pr->lo);
        short_num(hi, sizeof hi, pr->hi);
        snprintf(out, outsz, "prediction at x=%s: %s [%s, %s]", x, y, lo, hi);
    } else {
        snprintf(out, outsz, "prediction at x=%s: %s", x, y);
    }
}

/* ---- drawing primitives ------------------------------------------------------ */

static void put_xy(struct buf *b, double x, double y)
{
    svg_num(b, x);
    buf_putc(b, ' ');
    svg_num(b, y);
}

static void pen_segment(struct pen *pn, double ax, double ay, double bx, double by)
{
    long long rax = llround(ax * 100), ray = llround(ay * 100);
    long long rbx = llround(bx * 100), rby = llround(by * 100);

    pn->segments++;
    if (pn->b == NULL)
        return;
    if (!pn->open || pn->lx != rax || pn->ly != ray) {
        buf_putc(pn->b, 'M');
        put_xy(pn->b, ax, ay);
        pn->open = 1;
        pn->lx = rax;
        pn->ly = ray;
    }
    if (rbx == pn->lx && rby == pn->ly)
        return;
    /* Pairs after a moveto are implicit linetos: "M1 2 3 4 5 6". */
    buf_putc(pn->b, ' ');
    put_xy(pn->b, bx, by);
    pn->lx = rbx;
    pn->ly = rby;
}

static int beyond_fit(const struct svg_curve *cv, double x)
{
    return cv->has_fit_max && isfinite(cv->x_fit_max) && x > cv->x_fit_max;
}

/* Walks the curve and feeds the segments of one part (0 = fitted, solid;
 * 1 = extrapolated, dashed) to the pen, splitting at x_fit_max. */
static void curve_part(const struct plot *c, const struct svg_curve *cv, int part,
                       struct pen *pn)
{
    double px = 0, sx0 = 0, sy0 = 0;
    int have = 0;
    size_t i;

    for (i = 0; i < cv->n; i++) {
        double x = cv->x[i], y = cv->y[i], sx, sy;
        if (!usable(x, c->xlog) || !usable(y, c->ylog)) {
            have = 0;
            continue;
        }
        sx = svg_axis_px(&c->ax, x);
        sy = svg_axis_px(&c->ay, y);
        if (have) {
            int pa = beyond_fit(cv, px), pb = beyond_fit(cv, x);
            if (pa == pb) {
                if (pa == part)
                    pen_segment(pn, sx0, sy0, sx, sy);
            } else {
                /* Split where x crosses x_fit_max, in axis space so that the
                 * split lies on the drawn straight segment. */
                double f = cv->x_fit_max, ta = px, tb = x, t, mx, my;
                if (c->xlog) {
                    ta = log10(px);
                    tb = log10(x);
                    f = f > 0 ? log10(f) : ta;
                }
                t = (f - ta) / (tb - ta);
                if (!(t >= 0))
                    t = 0;
                if (t > 1)
                    t = 1;
                mx = sx0 + t * (sx - sx0);
                my = sy0 + t * (sy - sy0);
                if (pa == part)
                    pen_segment(pn, sx0, sy0, mx, my);
                if (pb == part)
                    pen_segment(pn, mx, my, sx, sy);
            }
        }
        px = x;
        sx0 = sx;
        sy0 = sy;
        have = 1;
    }
}

static void marker(struct buf *b, int kind, double x, double y)
{
    switch (kind) {
    case MK_SQUARE:
        buf_puts(b, "<path d=\"M");
        put_xy(b, x - 3, y - 3);
        buf_puts(b, "h6v6h-6z\"/>");
        break;
    case MK_TRIANGLE:
        buf_puts(b, "<path d=\"M");
        put_xy(b, x, y - 4);
        buf_puts(b, "l3.7 6.4h-7.4z\"/>");
        break;
    case MK_DIAMOND:
        buf_puts(b, "<path d=\"M");
        put_xy(b, x, y - 4.5);
        buf_puts(b, "l4.5 4.5-4.5 4.5-4.5-4.5z\"/>");
        break;
    default:
        buf_puts(b, "<circle cx=\"");
        svg_num(b, x);
        buf_puts(b, "\" cy=\"");
        svg_num(b, y);
        buf_puts(b, "\" r=\"3.2\"/>");
    }
}

/* A vertical bar from value lo to hi with caps of half-width cap. On a log
 * axis a non-positive lower end is clipped to the bottom of the axis. */
static void vbar(struct buf *b, const struct plot *c, double px, double lo, double hi,
                 double cap)
{
    double plo, phi;

    if (!isfinite(lo) || !isfinite(hi))
        return;
    if (lo > hi) {
        double t = lo;
        lo = hi;
        hi = t;
    }
    if (!usable(hi, c->ylog))
        return;
    plo = usable(lo, c->ylog) ? svg_axis_px(&c->ay, lo) : c->ay.p0;
    phi = svg_axis_px(&c->ay, hi);
    buf_putc(b, 'M');
    put_xy(b, px, plo);
    buf_puts(b, "V");
    svg_num(b, phi);
    buf_putc(b, 'M');
    put_xy(b, px - cap, plo);
    buf_putc(b, 'h');
    svg_num(b, 2 * cap);
    buf_putc(b, 'M');
    put_xy(b, px - cap, phi);
    buf_putc(b, 'h');
    svg_num(b, 2 * cap);
}

/* ---- the plot parts ------------------------------------------------------------ */

static void draw_axes(struct buf *b, const struct plot *c)
{
    const struct svg_plot2d *p = c->p;
    char s[48];
    int i, k;
    double maxw = 0, spacing = 1e9;

    /* Grid: minor (log axes) lighter than major. */
    if (c->ax.nminor + c->ay.nminor > 0) {
        buf_puts(b, "<path stroke=\"#f1f1f1\" d=\"");
        for (i = 0; i < c->ax.nminor; i++) {
            buf_putc(b, 'M');
            put_xy(b, svg_axis_px(&c->ax, c->ax.minor[i]), c->y1);
            buf_putc(b, 'V');
            svg_num(b, c->y0);
        }
        for (i = 0; i < c->ay.nminor; i++) {
            buf_putc(b, 'M');
            put_xy(b, c->x0, svg_axis_px(&c->ay, c->ay.minor[i]));
            buf_putc(b, 'H');
            svg_num(b, c->x1);
        }
        buf_puts(b, "\"/>\n");
    }
    buf_puts(b, "<path stroke=\"#e2e2e2\" d=\"");
    for (i = 0; i < c->ax.nmajor; i++) {
        buf_putc(b, 'M');
        put_xy(b, svg_axis_px(&c->ax, c->ax.major[i]), c->y1);
        buf_putc(b, 'V');
        svg_num(b, c->y0);
    }
    for (i = 0; i < c->ay.nmajor; i++) {
        buf_putc(b, 'M');
        put_xy(b, c->x0, svg_axis_px(&c->ay, c->ay.major[i]));
        buf_putc(b, 'H');
        svg_num(b, c->x1);
    }
    buf_puts(b, "\"/>\n");

    /* Frame and tick marks. */
    buf_puts(b, "<rect x=\"");
    svg_num(b, c->x0);
    buf_puts(b, "\" y=\"");
    svg_num(b, c->y0);
    buf_puts(b, "\" width=\"");
    svg_num(b, c->x1 - c->x0);
    buf_puts(b, "\" height=\"");
    svg_num(b, c->y1 - c->y0);
    buf_puts(b, "\" fill=\"none\" stroke=\"#444444\"/>\n<path stroke=\"#444444\" d=\"");
    for (i = 0; i < c->ax.nmajor; i++) {
        buf_putc(b, 'M');
        put_xy(b, svg_axis_px(&c->ax, c->ax.major[i]), c->y1);
        buf_puts(b, "v5");
    }
    for (i = 0; i < c->ax.nminor; i++) {
        buf_putc(b, 'M');
        put_xy(b, svg_axis_px(&c->ax, c->ax.minor[i]), c->y1);
        buf_puts(b, "v3");
    }
    for (i = 0; i < c->ay.nmajor; i++) {
        buf_putc(b, 'M');
        put_xy(b, c->x0, svg_axis_px(&c->ay, c->ay.major[i]));
        buf_puts(b, "h-5");
    }
    for (i = 0; i < c->ay.nminor; i++) {
        buf_putc(b, 'M');
        put_xy(b, c->x0, svg_axis_px(&c->ay, c->ay.minor[i]));
        buf_puts(b, "h-3");
    }
    buf_puts(b, "\"/>\n");

    /* x tick labels, thinned to every k-th when they would overlap. */
    for (i = 0; i < c->ax.nmajor; i++) {
        double w = svg_text_width(strlen(svg_axis_tick_label(&c->ax, i, s, sizeof s)),
                                  SVG_FS_SMALL);
        if (w > maxw)
            maxw = w;
        if (i > 0) {
            double d = fabs(svg_axis_px(&c->ax, c->ax.major[i]) -
                            svg_axis_px(&c->ax, c->ax.major[i - 1]));
            if (d < spacing)
                spacing = d;
        }
    }
    for (k = 1; k < SVG_MAX_TICKS && (maxw + 8) > spacing * k; k++)
        ;
    buf_printf(b, "<g font-size=\"%d\" fill=\"#333333\">\n", SVG_FS_SMALL);
    for (i = 0; i < c->ax.nmajor; i++) {
        if (i % k != 0)
            continue;
        svg_axis_tick_label(&c->ax, i, s, sizeof s);
        svg_label(b, svg_axis_px(&c->ax, c->ax.major[i]), c->y1 + 18, "middle", NULL, s,
                  24);
    }
    for (i = 0; i < c->ay.nmajor; i++) {
        svg_axis_tick_label(&c->ay, i, s, sizeof s);
        svg_label(b, c->x0 - 8, svg_axis_px(&c->ay, c->ay.major[i]) + 4, "end", NULL, s,
                  24);
    }
    buf_puts(b, "</g>\n");

    {
        char xt[SVG_MAX_TEXT + UNITS_MAX], yt[SVG_MAX_TEXT + UNITS_MAX];
        svg_axis_titles(b, c->x0, c->x1, c->y0, c->y1, c->y1 + 36,
                        svg_axis_title(&c->ax, p->xlabel, xt, sizeof xt),
                        svg_axis_title(&c->ay, p->ylabel, yt, sizeof yt));
    }
}

static void draw_curves(struct buf *b, const struct plot *c, const char *const *colors)
{
    size_t i;
    int part;

    for (i = 0; i < c->p->ncurves; i++) {
        const struct svg_curve *cv = &c->p->curves[i];
        for (part = 0; part < 2; part++) {
            struct pen pn = {0};
            curve_part(c, cv, part, &pn);
            if (pn.segments == 0)
                continue;
            buf_puts(b, "<path fill=\"none\" stroke=\"");
            buf_puts(b, colors[i]);
            buf_puts(b, "\" stroke-width=\"2\" stroke-linejoin=\"round\"");
            if (part == 1)
                buf_puts(b, " stroke-dasharray=\"" DASH_EXTRAPOLATED "\"");
            buf_puts(b, " d=\"");
            pn.b = b;
            curve_part(c, cv, part, &pn);
            buf_puts(b, "\"/>\n");
        }
    }
}

static void draw_series(struct buf *b, const struct plot *c, const char *const *colors)
{
    size_t i, j;

    for (i = 0; i < c->p->nseries; i++) {
        const struct svg_series *s = &c->p->series[i];
        int bars = 0;
        for (j = 0; j < s->n; j++)
            if (s->points[j].has_err && usable(s->points[j].x, c->xlog) &&
                usable(s->points[j].y, c->ylog))
                bars = 1;
        if (bars) {
            buf_puts(b, "<path fill=\"none\" stroke-width=\"1.2\" stroke=\"");
            buf_puts(b, colors[i]);
            buf_puts(b, "\" d=\"");
            for (j = 0; j < s->n; j++) {
                const struct svg_point *pt = &s->points[j];
                if (pt->has_err && usable(pt->x, c->xlog) && usable(pt->y, c->ylog))
                    vbar(b, c, svg_axis_px(&c->ax, pt->x), pt->ymin, pt->ymax, 3);
            }
            buf_puts(b, "\"/>\n");
        }
        buf_puts(b, "<g fill=\"");
        buf_puts(b, colors[i]);
        buf_puts(b, "\" stroke=\"#ffffff\" stroke-width=\"0.6\">");
        for (j = 0; j < s->n; j++) {
            const struct svg_point *pt = &s->points[j];
            if (usable(pt->x, c->xlog) && usable(pt->y, c->ylog))
                marker(b, (int)(i % MK_COUNT), svg_axis_px(&c->ax, pt->x),
                       svg_axis_px(&c->ay, pt->y));
        }
        buf_puts(b, "</g>\n");
    }
}

static int prediction_drawn(const struct plot *c)
{
    const struct svg_prediction *pr = c->p->prediction;
    return pr != NULL && usable(pr->x, c->xlog) && usable(pr->y, c->ylog);
}

static void draw_prediction(struct buf *b, const struct plot *c)
{
    const struct svg_prediction *pr = c->p->prediction;
    double px, py;

    if (!prediction_drawn(c))
        return;
    px = svg_axis_px(&c->ax, pr->x);
    py = svg_axis_px(&c->ay, pr->y);
    /* A dotted guide down to the x axis shows where the prediction is. */
    buf_puts(b, "<g class=\"prediction\">\n<path stroke=\"#999999\" "
                "stroke-dasharray=\"1 3\" d=\"M");
    put_xy(b, px, c->y1);
    buf_putc(b, 'V');
    svg_num(b, py);
    buf_puts(b, "\"/>\n");
    if (pr->has_interval && isfinite(pr->lo) && isfinite(pr->hi)) {
        buf_puts(b, "<path class=\"interval\" fill=\"none\" stroke=\"#111111\" "
                    "stroke-width=\"1.6\" d=\"");
        vbar(b, c, px, pr->lo, pr->hi, 5);
        buf_puts(b, "\"/>\n");
    }
    buf_puts(b, "<g fill=\"#111111\" stroke=\"#ffffff\" stroke-width=\"0.8\">");
    marker(b, MK_DIAMOND, px, py);
    buf_puts(b, "</g>\n</g>\n");
}

/* The legend box: size from the labels, placed inside the plot area in the
 * corner that covers the fewest drawn points and curve samples (ties: top
 * left, top right, bottom right, bottom left), as matplotlib's "best"; or,
 * with legend_below, under the plot in columns of width w. */
struct legend_box {
    double x, y, w, h;
    size_t rows; /* rows drawn, the last may be "… and N more" */
    size_t cols; /* columns of w, filled top to bottom, then the next */
    int framed;  /* a box over the plot (inside) */
};

static size_t box_hits(const struct plot *c, double bx, double by, double bw, double bh)
{
    size_t hits = 0, i, j;
#define IN(px, py) ((px) >= bx && (px) <= bx + bw && (py) >= by && (py) <= by + bh)
    for (i = 0; i < c->p->nseries; i++)
        for (j = 0; j < c->p->series[i].n; j++) {
            const struct svg_point *pt = &c->p->series[i].points[j];
            if (usable(pt->x, c->xlog) && usable(pt->y, c->ylog) &&
                IN(svg_axis_px(&c->ax, pt->x), svg_axis_px(&c->ay, pt->y)))
                hits += 4;
        }
    for (i = 0; i < c->p->ncurves; i++) {
        const struct svg_curve *cv = &c->p->curves[i];
        double lx = 0, ly = 0;
        int have = 0;
        for (j = 0; j < cv->n; j++) {
            double sx, sy;
            if (!usable(cv->x[j], c->xlog) || !usable(cv->y[j], c->ylog)) {
                have = 0;
                continue;
            }
            sx = svg_axis_px(&c->ax, cv->x[j]);
            sy = svg_axis_px(&c->ay, cv->y[j]);
            /* Midpoints too, so a line of two samples still counts. */
            if (IN(sx, sy) || (have && IN((sx + lx) / 2, (sy + ly) / 2)))
                hits++;
            lx = sx;
            ly = sy;
            have = 1;
        }
    }
#undef IN
    return hits;
}

static void legend_place(const struct plot *c, const struct legend_item *items,
                         size_t nitems, struct legend_box *lb)
{
    size_t i, maxchars = 0, best = (size_t)-1, maxrows;
    double cx[4], cy[4];
    int k;

    memset(lb, 0, sizeof *lb);
    if (nitems == 0)
        return;
    for (i = 0; i < nitems; i++) {
        size_t n = svg_utf8_chars(items[i].label);
        if (n > maxchars)
            maxchars = n;
    }
    lb->w = 30 + 12 + svg_text_width(maxchars, LEGEND_FS);
    if (lb->w > (c->x1 - c->x0) * 0.62)
        lb->w = (c->x1 - c->x0) * 0.62;
    maxrows = (size_t)((c->y1 - c->y0) * 0.6 / LEGEND_ROW);
    if (maxrows < 1)
        maxrows = 1;
    lb->rows = nitems < maxrows ? nitems : maxrows;
    lb->cols = 1;
    lb->framed = 1;
    lb->h = lb->rows * LEGEND_ROW + 6;
    cx[0] = cx[3] = c->x0 + 8;
    cx[1] = cx[2] = c->x1 - 8 - lb->w;
    cy[0] = cy[1] = c->y0 + 8;
    cy[2] = cy[3] = c->y1 - 8 - lb->h;
    for (k = 0; k < 4; k++) {
        size_t h = box_hits(c, cx[k], cy[k], lb->w, lb->h);
        if (h < best) {
            best = h;
            lb->x = cx[k];
            lb->y = cy[k];
        }
    }
}

/* The legend under the plot area (svg_plot2d's legend_below), from y down:
 * as many columns across the width as its longest label leaves room for
 * (one, its labels cut, when even that does not fit), at most
 * LEGEND_BELOW_ROWS rows. Returns the height it takes. */
#define LEGEND_BELOW_ROWS 16
static double legend_below(const struct svg_plot2d *p, const struct legend_item *items,
                           size_t nitems, double y, struct legend_box *lb)
{
    size_t i, maxchars = 0;
    double avail = p->width - 16;

    memset(lb, 0, sizeof *lb);
    if (nitems == 0)
        return 0;
    for (i = 0; i < nitems; i++) {
        size_t n = svg_utf8_chars(items[i].label);
        if (n > maxchars)
            maxchars = n;
    }
    /* a column: the key, its label, a gap before the next */
    lb->w = 39 + svg_text_width(maxchars, LEGEND_FS);
    if (lb->w > avail)
        lb->w = avail;
    lb->cols = (size_t)(avail / lb->w);
    if (lb->cols > nitems)
        lb->cols = nitems;
    lb->rows = (nitems + lb->cols - 1) / lb->cols;
    if (lb->rows > LEGEND_BELOW_ROWS)
        lb->rows = LEGEND_BELOW_ROWS;
    lb->x = 8;
    lb->y = y;
    lb->h = lb->rows * LEGEND_ROW + 8;
    return lb->h;
}

static void draw_legend(struct buf *b, const struct legend_item *items, size_t nitems,
                        const struct legend_box *lb)
{
    size_t i, shown, slots = lb->rows * lb->cols,
                     maxchars = svg_fit_chars(lb->w - 38, LEGEND_FS);
    double lx, y;

    if (nitems == 0)
        return;
    shown = nitems <= slots ? nitems : slots - 1;
    buf_printf(b, "<g class=\"legend\" font-size=\"%d\">\n", LEGEND_FS);
    if (lb->framed) {
        buf_puts(b, "<rect x=\"");
        svg_num(b, lb->x);
        buf_puts(b, "\" y=\"");
        svg_num(b, lb->y);
        buf_puts(b, "\" width=\"");
        svg_num(b, lb->w);
        buf_puts(b, "\" height=\"");
        svg_num(b, lb->h);
        buf_puts(b, "\" fill=\"#ffffff\" fill-opacity=\"0.85\" stroke=\"#cccccc\"/>\n");
    }
    for (i = 0; i < shown; i++) {
        const struct legend_item *it = &items[i];
        lx = lb->x + 6 + (double)(i / lb->rows) * lb->w;
        y = lb->y + 3 + LEGEND_ROW / 2.0 + (double)(i % lb->rows) * LEGEND_ROW;
        if (it->kind == LG_SERIES) {
            buf_puts(b, "<g fill=\"");
            buf_puts(b, it->color);
            buf_puts(b, "\">");
            marker(b, it->marker, lx + 12, y);
            buf_puts(b, "</g>");
        } else if (it->kind == LG_CURVE) {
            buf_puts(b, "<path fill=\"none\" stroke-width=\"2\" stroke=\"");
            buf_puts(b, it->color);
            buf_puts(b, "\" d=\"M");
            put_xy(b, lx, y);
            buf_puts(b, it->dashed ? "h12\"/>" : "h24\"/>");
            if (it->dashed) {
                buf_puts(
                    b, "<path fill=\"none\" stroke-width=\"2\" stroke-dasharray=\"4 2\" "
                       "stroke=\"");
                buf_puts(b, it->color);
                buf_puts(b, "\" d=\"M");
                put_xy(b, lx + 12, y);
                buf_puts(b, "h12\"/>");
            }
        } else {
            buf_puts(b, "<path stroke=\"#111111\" stroke-width=\"1.6\" d=\"M");
            put_xy(b, lx + 12, y - 7);
            buf_puts(b, "v14m-4 0h8m-8-14h8\"/><g fill=\"#111111\">");
            marker(b, MK_DIAMOND, lx + 12, y);
            buf_puts(b, "</g>");
        }
        svg_label(b, lx + 30, y + 4, "start", NULL, it->label, maxchars);
    }
    if (shown < nitems) {
        char more[48];
        lx = lb->x + 6 + (double)(shown / lb->rows) * lb->w;
        y = lb->y + 3 + LEGEND_ROW / 2.0 + (double)(shown % lb->rows) * LEGEND_ROW;
        snprintf(more, sizeof more, "\xe2\x80\xa6 and %zu more", nitems - shown);
        svg_label(b, lx + 30, y + 4, "start", "fill=\"#555555\"", more, 40);
    }
    buf_puts(b, "</g>\n");
}

/* ---- entry point --------------------------------------------------------------- */

int svg_plot2d(struct buf *out, const struct svg_plot2d *pin, struct err *err)
{
    struct svg_plot2d p;
    struct plot c;
    struct legend_item *items = NULL;
    const char **colors = NULL;
    struct line lines[FORMULA_LINES];
    struct legend_box lb;
    size_t start = out->len, nitems = 0, next_color = 0, i, maxlab = 0;
    double xmn = 0, xmx = 0, ymn = 0, ymx = 0, top, bottom, left, below = 0;
    int xh, yh, nlines, rc = -1;
    char desc[512], predlabel[160], s[48];

    if (buf_failed(out))
        return err_set(err, ERR_INTERNAL, "internal", NULL,
                       "output buffer already failed");
    if (validate(pin, err) != 0)
        return -1;
    p = *pin;
    if (p.width == 0)
        p.width = DEFAULT_W;
    if (p.height == 0)
        p.height = DEFAULT_H;
    memset(&c, 0, sizeof c);
    c.p = &p;

    items = xcalloc(p.nseries + p.ncurves + 1, sizeof *items);
    colors = xcalloc(p.nseries + p.ncurves + 1, sizeof *colors);
    if (items == NULL || colors == NULL) {
        err_nomem(err);
        goto out;
    }

    choose_scales(&c);
    collect_ranges(&c, &xmn, &xmx, &xh, &ymn, &ymx, &yh);

    /* Colours and legend entries, in input order: series, curves, prediction. */
    for (i = 0; i < p.nseries; i++) {
        colors[i] = item_color(p.series[i].color, &next_color);
        if (p.series[i].label != NULL && *p.series[i].label) {
            items[nitems].kind = LG_SERIES;
            items[nitems].color = colors[i];
            items[nitems].marker = (int)(i % MK_COUNT);
            items[nitems++].label = p.series[i].label;
        }
    }
    for (i = 0; i < p.ncurves; i++) {
        const struct svg_curve *cv = &p.curves[i];
        size_t j;
        colors[p.nseries + i] = item_color(cv->color, &next_color);
        if (cv->label == NULL || *cv->label == '\0')
            continue;
        items[nitems].kind = LG_CURVE;
        items[nitems].color = colors[p.nseries + i];
        for (j = 0; j < cv->n; j++)
            if (usable(cv->x[j], c.xlog) && usable(cv->y[j], c.ylog) &&
                beyond_fit(cv, cv->x[j]))
                items[nitems].dashed = 1;
        items[nitems++].label = cv->label;
    }
    if (prediction_drawn(&c)) {
        items[nitems].kind = LG_PREDICTION;
        if (p.prediction->label != NULL && *p.prediction->label) {
            items[nitems++].label = p.prediction->label;
        } else {
            prediction_label(p.prediction, predlabel, sizeof predlabel);
            items[nitems++].label = predlabel;
        }
    }

    /* Layout. */
    top = (p.title != NULL && *p.title) ? 40 : 16;
    /* The formula may take at most the room that leaves 60 px of plot. */
    {
        int room = (int)((p.height - top - 48 - 60) / 16);
        if (room > FORMULA_LINES)
            room = FORMULA_LINES;
        nlines =
            room > 0 ? wrap(p.formula, svg_fit_chars(p.width - 24, 12), lines, room) : 0;
    }
    bottom = 48 + nlines * 16;
    svg_axis_setup(&c.ay, c.ylog, ymn, ymx, yh, p.height >= 360 ? 8 : 5);
    svg_axis_set_unit(&c.ay, p.yunit, p.height >= 360 ? 8 : 5);
    c.y0 = top;
    c.y1 = p.height - bottom;
    c.ay.p0 = c.y1;
    c.ay.p1 = c.y0;
    for (i = 0; i < (size_t)c.ay.nmajor; i++) {
        size_t n = strlen(svg_axis_tick_label(&c.ay, (int)i, s, sizeof s));
        if (n > maxlab)
            maxlab = n;
    }
    left = 14 + ((p.ylabel != NULL && *p.ylabel) ? 18 : 0) +
           svg_text_width(maxlab, SVG_FS_SMALL) + 8;
    c.x0 = left;
    c.x1 = p.width - 20;
    svg_axis_setup(&c.ax, c.xlog, xmn, xmx, xh, p.width >= 560 ? 8 : 5);
    svg_axis_set_unit(&c.ax, p.xunit, p.width >= 560 ? 8 : 5);
    c.ax.p0 = c.x0;
    c.ax.p1 = c.x1;

    snprintf(
        desc, sizeof desc,
        "Prophecy 2-D plot: %zu point series, %zu curves%s; x axis %s%s, y axis %s%s%s",
        p.nseries, p.ncurves, prediction_drawn(&c) ? ", a prediction" : "",
        c.xlog ? "log10" : "linear",
        c.xfallback ? " (log10 requested, no positive values)" : "",
        c.ylog ? "log10" : "linear",
        c.yfallback ? " (log10 requested, no positive values)" : "",
        c.skipped ? "; values that are not finite or not positive on a log axis "
                    "were skipped"
                  : "");
    /* a legend below the plot makes the drawing taller by its rows */
    if (p.legend_below)
        below = legend_below(&p, items, nitems, p.height, &lb);
    svg_begin(out, p.width, p.height + (int)ceil(below), p.title, desc);
    svg_title(out, p.width, p.title);
    draw_axes(out, &c);
    draw_curves(out, &c, colors + p.nseries);
    draw_series(out, &c, colors);
    draw_prediction(out, &c);
    if (!p.legend_below)
        legend_place(&c, items, nitems, &lb);
    draw_legend(out, items, nitems, &lb);
    if (nlines > 0) {
        int l;
        buf_puts(out, "<g class=\"formula\" fill=\"#222222\">\n");
        for (l = 0; l < nlines; l++) {
            buf_puts(out, "<text x=\"12\" y=\"");
            svg_num(out, p.height - bottom + 52 + l * 16);
            buf_puts(out, "\">");
            svg_text_n(out, lines[l].s, lines[l].n);
            if (lines[l].ellipsis)
                buf_puts(out, "\xe2\x80\xa6");
            buf_puts(out, "</text>\n");
        }
        buf_puts(out, "</g>\n");
    }
    svg_end(out);
    rc = 0;
out:
    xfree(items);
    xfree(colors);
    return svg_finish(out, start, rc, err);
}
