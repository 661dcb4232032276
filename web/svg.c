/* svg: the shared half of the SVG renderer: ticks, number and text output,
 * the document frame, the colour map and the colour bar (see svg.h and
 * svg_priv.h). The plot kinds live in svg_2d.c, svg_3d.c, svg_bars.c and
 * svg_heatmap.c. Nothing here does I/O or keeps state.
 */
#include "web/svg.h"
#include "web/svg_priv.h"
#include "common/units.h"
#include "common/utf8.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Tableau-10: distinguishable on white, also in print. */
static const char *const palette[SVG_PALETTE_SIZE] = {
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
    "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f",
};

const char *svg_palette(size_t i)
{
    return palette[i % SVG_PALETTE_SIZE];
}

/* ---- numbers -------------------------------------------------------------- */

void svg_num(struct buf *b, double v)
{
    char tmp[32];
    char *p = tmp + sizeof tmp;
    unsigned long long q, ip, fp;
    int neg;

    if (!isfinite(v))
        v = 0;
    if (v > 1e7)
        v = 1e7;
    if (v < -1e7)
        v = -1e7;
    /* Integer arithmetic instead of printf: the 3-D renderer writes tens of
     * thousands of coordinates and this keeps it at a few ms. */
    {
        long long r = llround(v * 100.0);
        neg = r < 0;
        q = (unsigned long long)(neg ? -r : r);
    }
    ip = q / 100;
    fp = q % 100;
    if (fp != 0) {
        if (fp % 10 == 0) {
            *--p = (char)('0' + fp / 10);
        } else {
            *--p = (char)('0' + fp % 10);
            *--p = (char)('0' + fp / 10);
        }
        *--p = '.';
    }
    do {
        *--p = (char)('0' + ip % 10);
        ip /= 10;
    } while (ip);
    if (neg && q != 0)
        *--p = '-';
    buf_append(b, p, (size_t)(tmp + sizeof tmp - p));
}

void svg_rgb(struct buf *b, const unsigned char rgb[3])
{
    static const char hex[] = "0123456789abcdef";
    char s[7];
    int i;

    s[0] = '#';
    for (i = 0; i < 3; i++) {
        s[1 + 2 * i] = hex[rgb[i] >> 4];
        s[2 + 2 * i] = hex[rgb[i] & 15];
    }
    buf_append(b, s, 7);
}

/* ---- ticks ---------------------------------------------------------------- */

/* 10^e for |e| <= 22 is exact as a double; beyond, pow() is as good as any. */
static double pow10i(int e)
{
    static const double tab[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    if (e >= 0 && e <= 22)
        return tab[e];
    return pow(10.0, e);
}

/* k * m * 10^e as the double nearest to the decimal value: k*m is an exact
 * integer and one correctly rounded multiply or divide by an exact power of
 * ten keeps 0.2 * 3 from becoming 0.6000000000000001. */
static double tick_value(double k, int m, int e)
{
    double km = k * m;
    if (km == 0)
        return 0;
    if (e < 0 && e >= -22)
        return km / pow10i(-e);
    return km * pow10i(e);
}

int svg_nice_ticks(double min, double max, int max_ticks, double *out, int *n,
                   double *step)
{
    static const int mant[3] = {1, 2, 5};
    double span, mag, kmin, kmax;
    int e, i, j;

    *n = 0;
    if (!isfinite(min) || !isfinite(max))
        return -1;
    if (min > max) {
        double t = min;
        min = max;
        max = t;
    }
    /* Three is the least that always works: a range straddling a multiple
     * of any step needs floor, that multiple and ceil. */
    if (max_ticks < 3)
        max_ticks = 3;
    if (max_ticks > SVG_MAX_TICKS)
        max_ticks = SVG_MAX_TICKS;
    mag = fmax(fabs(min), fabs(max));
    span = max - min;
    if (!isfinite(span))
        return -1;
    /* A span that is zero or below double resolution would need more ticks
     * than exist between representable values: widen it around the middle. */
    if (span < mag * 1e-9 || span < 1e-290) {
        double mid = min / 2 + max / 2;
        double half = fmax(mag * 1e-9, 1e-290);
        if (span == 0)
            half = mag > 0 ? fmax(mag * 0.1, 1e-290) : 1;
        min = mid - half;
        max = mid + half;
        span = max - min;
    }
    /* Start one decade below span / max_ticks and walk up 1, 2, 5, 10, ... */
    e = (int)floor(log10(span / max_ticks)) - 1;
    for (i = 0; i < 12; i++, e += (i % 3 == 0)) {
        int m = mant[i % 3];
        double s = tick_value(1, m, e);
        kmin = floor(min / s);
        kmax = ceil(max / s);
        if (kmax - kmin + 1 <= max_ticks) {
            for (j = 0; j <= (int)(kmax - kmin); j++)
                out[j] = tick_value(kmin + j, m, e);
            *n = j;
            if (step)
                *step = s;
            return 0;
        }
    }
    return -1; /* not reached: 12 steps grow the step by 10^4 */
}

char *svg_fmt_tick(char *out, size_t outsz, double v, double step)
{
    double a = fabs(v);

    if (!isfinite(v) || a == 0 || (isfinite(step) && step > 0 && a < step * 1e-9)) {
        snprintf(out, outsz, "0");
        return out;
    }
    if (!isfinite(step) || step <= 0)
        step = a;
    if (a >= 1e6 || a < 1e-4) {
        /* Significant digits needed to tell neighbouring ticks apart. */
        int sig = (int)floor(log10(a)) - (int)floor(log10(step)) + 1;
        char *e, *z;
        if (sig < 1)
            sig = 1;
        if (sig > 15)
            sig = 15;
        snprintf(out, outsz, "%.*e", sig - 1, v);
        /* "2.50e+06" -> "2.5e+06", "1.0e+06" -> "1e+06" */
        e = strchr(out, 'e');
        if (e != NULL && strchr(out, '.') != NULL) {
            z = e;
            while (z[-1] == '0')
                z--;
            if (z[-1] == '.')
                z--;
            memmove(z, e, strlen(e) + 1);
        }
    } else {
        int dec = -(int)floor(log10(step) + 1e-9);
        if (dec < 0)
            dec = 0;
        if (dec > 15)
            dec = 15;
        snprintf(out, outsz, "%.*f", dec, v);
        if (strcmp(out, "-0") == 0)
            snprintf(out, outsz, "0");
    }
    return out;
}

/* ---- text ----------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s whose code point XML allows (not
 * U+FFFE or U+FFFF), or 0. */
static size_t xml_char(const unsigned char *s, size_t n)
{
    unsigned cp = 0;
    size_t len = utf8_seq(s, n, &cp);
    if (len == 0 || cp == 0xfffe || cp == 0xffff)
        return 0;
    return len;
}

void svg_text_n(struct buf *b, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0, run = 0;

    if (s == NULL)
        return;
    while (i < n) {
        const char *rep = NULL;
        size_t len = 1;
        unsigned char c = p[i];

        switch (c) {
        case '&':
            rep = "&amp;";
            break;
        case '<':
            rep = "&lt;";
            break;
        case '>':
            rep = "&gt;";
            break;
        case '"':
            rep = "&quot;";
            break;
        case '\'':
            rep = "&#39;";
            break;
        case '\t':
        case '\n':
        case '\r':
            rep = " "; /* SVG collapses them anyway; keeps attributes one line */
            break;
        default:
            if (c < 0x20 || c == 0x7f) {
                rep = ""; /* not allowed in XML 1.0 */
            } else if (c >= 0x80) {
                len = xml_char(p + i, n - i);
                if (len == 0) {
                    rep = "\xef\xbf\xbd"; /* U+FFFD */
                    len = 1;
                }
            }
        }
        if (rep != NULL) {
            buf_append(b, s + run, i - run);
            buf_puts(b, rep);
            run = i + len;
        }
        i += len;
    }
    buf_append(b, s + run, n - run);
}

void svg_text(struct buf *b, const char *s)
{
    if (s != NULL)
        svg_text_n(b, s, strlen(s));
}

size_t svg_utf8_chars(const char *s)
{
    size_t n = 0;
    if (s == NULL)
        return 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xc0) != 0x80)
            n++;
    return n;
}

size_t svg_utf8_prefix(const char *s, size_t maxchars)
{
    size_t i = 0, chars = 0;
    if (s == NULL)
        return 0;
    while (s[i]) {
        if (((unsigned char)s[i] & 0xc0) != 0x80) {
            if (chars == maxchars)
                break;
            chars++;
        }
        i++;
    }
    return i;
}

void svg_text_fit(struct buf *b, const char *s, size_t maxchars)
{
    size_t n;
    if (s == NULL)
        return;
    if (maxchars < 2)
        maxchars = 2;
    if (svg_utf8_chars(s) <= maxchars) {
        svg_text(b, s);
        return;
    }
    n = svg_utf8_prefix(s, maxchars - 1);
    svg_text_n(b, s, n);
    buf_puts(b, "\xe2\x80\xa6"); /* … */
}

double svg_text_width(size_t nchars, double fs)
{
    return (double)nchars * fs * SVG_GLYPH;
}

size_t svg_fit_chars(double width, double fs)
{
    double n = width / (fs * SVG_GLYPH);
    if (!(n > 2))
        return 2;
    return (size_t)n;
}

void svg_axis_titles(struct buf *b, double x0, double x1, double y0, double y1,
                     double xlabel_y, const char *xlabel, const char *ylabel)
{
    if (xlabel != NULL && *xlabel)
        svg_label(b, (x0 + x1) / 2, xlabel_y, "middle", NULL, xlabel,
                  svg_fit_chars(x1 - x0, 12));
    if (ylabel != NULL && *ylabel) {
        char tr[80];
        double cy = (y0 + y1) / 2;
        snprintf(tr, sizeof tr, "transform=\"rotate(-90 16 %.2f)\"", cy);
        svg_label(b, 16, cy, "middle", tr, ylabel, svg_fit_chars(y1 - y0, 12));
    }
}

void svg_label(struct buf *b, double x, double y, const char *anchor, const char *extra,
               const char *s, size_t maxchars)
{
    buf_puts(b, "<text x=\"");
    svg_num(b, x);
    buf_puts(b, "\" y=\"");
    svg_num(b, y);
    buf_puts(b, "\"");
    if (anchor != NULL && strcmp(anchor, "start") != 0) {
        buf_puts(b, " text-anchor=\"");
        buf_puts(b, anchor);
        buf_puts(b, "\"");
    }
    if (extra != NULL) {
        buf_putc(b, ' ');
        buf_puts(b, extra);
    }
    buf_putc(b, '>');
    svg_text_fit(b, s, maxchars);
    buf_puts(b, "</text>\n");
}

/* ---- validation and the document frame ------------------------------------ */

int svg_check_text(const char *s, const char *field, struct err *err)
{
    if (s != NULL && strnlen(s, SVG_MAX_TEXT + 1) > SVG_MAX_TEXT)
        return err_invalid(err, field, "%s is longer than %d bytes", field, SVG_MAX_TEXT);
    return 0;
}

int svg_check_size(int w, int h, struct err *err)
{
    if (w != 0 && (w < SVG_MIN_SIZE || w > SVG_MAX_SIZE))
        return err_invalid(err, "width", "width must be %d..%d px", SVG_MIN_SIZE,
                           SVG_MAX_SIZE);
    if (h != 0 && (h < SVG_MIN_SIZE || h > SVG_MAX_SIZE))
        return err_invalid(err, "height", "height must be %d..%d px", SVG_MIN_SIZE,
                           SVG_MAX_SIZE);
    return 0;
}

void svg_begin(struct buf *b, int w, int h, const char *title, const char *desc)
{
    buf_printf(b,
               "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
               "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" "
               "font-size=\"12\" role=\"img\">\n<title>",
               w, h, w, h);
    svg_text(b, title != NULL ? title : "");
    buf_puts(b, "</title>\n");
    if (desc != NULL && *desc) {
        buf_puts(b, "<desc>");
        svg_text(b, desc);
        buf_puts(b, "</desc>\n");
    }
    buf_printf(b, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", w, h);
}

void svg_end(struct buf *b)
{
    buf_puts(b, "</svg>\n");
}

void svg_title(struct buf *b, int w, const char *title)
{
    if (title == NULL || *title == '\0')
        return;
    svg_label(b, w / 2.0, 24, "middle", "font-size=\"15\" font-weight=\"bold\"", title,
              svg_fit_chars(w - 20, 15));
}

int svg_finish(struct buf *out, size_t start, int rc, struct err *err)
{
    int failed = buf_failed(out);

    if (rc == 0 && failed == BUF_OK)
        return 0;
    if (failed == BUF_TOOBIG)
        err_set(err, ERR_INVALID, "plot_too_large", NULL,
                "the plot is larger than the %zu-byte output limit", out->max);
    else if (failed == BUF_NOMEM)
        err_nomem(err);
    /* Drop the partial document so the caller never sends half an SVG. */
    out->failed = BUF_OK;
    if (out->len > start) {
        out->len = start;
        out->data[start] = '\0';
    }
    return -1;
}

/* ---- colour map ----------------------------------------------------------- */

void svg_cmap(double t, unsigned char rgb[3])
{
    /* Nine stops sampled from matplotlib's viridis: perceptually ordered and
     * readable by colour-blind viewers. */
    static const unsigned char stops[9][3] = {
        {68, 1, 84},    {71, 44, 122}, {59, 81, 139},  {44, 113, 142}, {33, 144, 141},
        {39, 173, 129}, {92, 200, 99}, {170, 220, 50}, {253, 231, 37},
    };
    double f;
    int i, k;

    if (!(t > 0))
        t = 0;
    if (t > 1)
        t = 1;
    f = t * 8;
    i = (int)f;
    if (i > 7)
        i = 7;
    f -= i;
    for (k = 0; k < 3; k++)
        rgb[k] = (unsigned char)lround(stops[i][k] + f * (stops[i + 1][k] - stops[i][k]));
}

/* ---- axes ----------------------------------------------------------------- */

static void axis_linear_ticks(struct svg_axis *a, double lo, double hi, int max_ticks)
{
    double t[SVG_MAX_TICKS], step = 1;
    double eps = (hi - lo) * 1e-9;
    int n, i;

    a->nmajor = 0;
    if (svg_nice_ticks(lo, hi, max_ticks, t, &n, &step) != 0)
        return;
    for (i = 0; i < n; i++) {
        if (t[i] >= lo - eps && t[i] <= hi + eps) {
            a->labelled[a->nmajor] = 1;
            a->major[a->nmajor++] = t[i];
        }
    }
    a->step = step;
}

void svg_axis_setup(struct svg_axis *a, int log, double dmin, double dmax, int have,
                    int max_ticks)
{
    memset(a, 0, sizeof *a);
    a->log = log;
    if (!log) {
        double span, pad;
        if (!have) {
            dmin = 0;
            dmax = 1;
        }
        span = dmax - dmin;
        if (!(span > fmax(fabs(dmin), fabs(dmax)) * 1e-9)) {
            double half = dmin == 0 ? 1 : fabs(dmin) * 0.1;
            dmin -= half;
            dmax += half;
            span = dmax - dmin;
        }
        pad = span * 0.04;
        a->lo = dmin - pad;
        a->hi = dmax + pad;
        axis_linear_ticks(a, a->lo, a->hi, max_ticks);
        if (a->nmajor < 2) {
            /* Cannot happen for a sane range; fall back to the loose ticks. */
            double t[SVG_MAX_TICKS];
            int n, i;
            if (svg_nice_ticks(a->lo, a->hi, max_ticks, t, &n, &a->step) == 0 && n >= 2) {
                a->lo = t[0];
                a->hi = t[n - 1];
                for (i = 0; i < n; i++) {
                    a->major[i] = t[i];
                    a->labelled[i] = 1;
                }
                a->nmajor = n;
            }
        }
        return;
    }
    {
        double l0, l1, ls, pad;
        int k, kfirst, klast, kstep, m;

        if (!have) {
            dmin = 1;
            dmax = 10;
        }
        l0 = log10(dmin);
        l1 = log10(dmax);
        ls = l1 - l0;
        if (ls < 1e-9) {
            l0 -= 0.5;
            l1 += 0.5;
            ls = 1;
        }
        pad = 0.04 * fmax(ls, 0.3);
        a->lo = l0 - pad;
        a->hi = l1 + pad;
        kfirst = (int)ceil(a->lo - 1e-9);
        klast = (int)floor(a->hi + 1e-9);
        if (max_ticks < 2)
            max_ticks = 2;
        if (max_ticks > SVG_MAX_TICKS)
            max_ticks = SVG_MAX_TICKS;
        kstep = (klast - kfirst) / max_ticks + 1;
        for (k = kfirst; k <= klast && a->nmajor < max_ticks; k += kstep) {
            a->labelled[a->nmajor] = 1;
            a->major[a->nmajor++] = pow10i(k);
        }
        a->step = 0; /* per tick */
        if (a->hi - a->lo <= 6.5) {
            for (k = (int)floor(a->lo); k <= (int)ceil(a->hi); k++) {
                for (m = 2; m <= 9; m++) {
                    double v = tick_value(1, m, k);
                    double lv = log10(v);
                    if (lv < a->lo || lv > a->hi)
                        continue;
                    /* With about two decades or less shown, label 2 and 5 too
                     * (all minors in a short range) so the axis stays readable. */
                    if (a->hi - a->lo < 2.2 && a->nmajor < SVG_MAX_TICKS &&
                        (a->hi - a->lo < 0.6 || m == 2 || m == 5)) {
                        a->labelled[a->nmajor] = 1;
                        a->major[a->nmajor++] = v;
                    } else if (a->nminor < 64) {
                        a->minor[a->nminor++] = v;
                    }
                }
            }
        }
        if (a->nmajor < 2) {
            /* A narrow range inside one decade (say 200..250): nice linear
             * values placed on the log axis. */
            a->nminor = 0;
            axis_linear_ticks(a, pow(10, a->lo), pow(10, a->hi), max_ticks);
        } else {
            /* Keep majors sorted when minors were promoted to labels. */
            int i, j;
            for (i = 1; i < a->nmajor; i++)
                for (j = i; j > 0 && a->major[j - 1] > a->major[j]; j--) {
                    double t = a->major[j];
                    a->major[j] = a->major[j - 1];
                    a->major[j - 1] = t;
                }
        }
    }
}

void svg_axis_set_unit(struct svg_axis *a, const char *unit, int max_ticks)
{
    static const int steps[] = {1, 2, 4, 5, 10, 20};
    double l2 = log10(2.0);
    int e0, e1, s = 0;

    a->unit = unit;
    if (!a->log || unit == NULL || strcmp(unit, "B") != 0)
        return;
    e0 = (int)ceil(a->lo / l2 - 1e-9);
    e1 = (int)floor(a->hi / l2 + 1e-9);
    if (max_ticks > SVG_MAX_TICKS)
        max_ticks = SVG_MAX_TICKS;
    for (size_t i = 0; i < sizeof steps / sizeof steps[0] && s == 0; i++) {
        int first = (int)ceil((double)e0 / steps[i]),
            last = (int)floor((double)e1 / steps[i]);
        if (last - first + 1 <= max_ticks)
            s = last - first >= 1 ? steps[i] : -1;
    }
    if (s <= 0)
        return; /* under two powers of two, or too many: the decimal ticks */
    a->nmajor = a->nminor = 0;
    for (int e = e0; e <= e1; e++) {
        if (e % s == 0) {
            a->labelled[a->nmajor] = 1;
            a->major[a->nmajor++] = ldexp(1.0, e);
        } else if (a->nminor < 64) {
            a->minor[a->nminor++] = ldexp(1.0, e);
        }
    }
    a->step = 0;
    a->binary = 1;
}

double svg_axis_px(const struct svg_axis *a, double v)
{
    double t = a->log ? log10(v) : v;
    return a->p0 + (t - a->lo) / (a->hi - a->lo) * (a->p1 - a->p0);
}

/* The divisor of a linear axis with a unit: one readable unit for the
 * largest tick. */
static double axis_div(const struct svg_axis *a)
{
    double div = 1, m = 0;
    for (int i = 0; i < a->nmajor; i++)
        m = fmax(m, fabs(a->major[i]));
    units_pick(a->unit, m, &div);
    return div;
}

char *svg_axis_tick_label(const struct svg_axis *a, int i, char *out, size_t outsz)
{
    double step = a->step > 0 ? a->step : a->major[i], div;

    if (a->unit != NULL && *a->unit && a->log) {
        if (!a->binary && (strcmp(a->unit, "B") == 0 || strcmp(a->unit, "B/s") == 0)) {
            /* Powers of ten in decimal prefixes: 1 kB, not 0.9766 KiB. */
            static const char *const pre[] = {"", "k", "M", "G", "T", "P"};
            double v = a->major[i];
            int k = 0;
            char num[UNITS_MAX];
            while (k < 5 && fabs(v) >= 999.95) {
                v /= 1000;
                k++;
            }
            snprintf(out, outsz, "%s %s%s", units_num(num, sizeof num, v), pre[k],
                     a->unit);
            return out;
        }
        return units_fmt(out, outsz, a->major[i], a->unit);
    }
    if (a->unit != NULL && *a->unit) {
        div = axis_div(a);
        return svg_fmt_tick(out, outsz, a->major[i] / div, step / div);
    }
    return svg_fmt_tick(out, outsz, a->major[i], step);
}

const char *svg_axis_title(const struct svg_axis *a, const char *label, char *out,
                           size_t outsz)
{
    double div;
    const char *u;

    if (a->unit == NULL || !*a->unit || a->log)
        return label;
    div = axis_div(a);
    u = units_pick(a->unit, div, &div);
    snprintf(out, outsz, "%s (%s)", label && *label ? label : "value", u);
    return out;
}

/* ---- colour bar ----------------------------------------------------------- */

void svg_colorbar(struct buf *b, double x, double y, double w, double h, double zmin,
                  double zmax, const char *label, int levels)
{
    double t[SVG_MAX_TICKS], step = 1;
    int n = 0, i, bands = levels > 0 ? levels : 64;
    double bh = h / bands;
    size_t maxw = 0;
    char s[48];

    /* Bands overlap by a hair so no background line shows between them. */
    for (i = 0; i < bands; i++) {
        unsigned char rgb[3];
        double tt = levels > 0 ? (i + 0.5) / bands : (double)i / (bands - 1);
        svg_cmap(tt, rgb);
        buf_puts(b, "<rect x=\"");
        svg_num(b, x);
        buf_puts(b, "\" y=\"");
        svg_num(b, y + h - (i + 1) * bh);
        buf_puts(b, "\" width=\"");
        svg_num(b, w);
        buf_puts(b, "\" height=\"");
        svg_num(b, bh + 0.6);
        buf_puts(b, "\" fill=\"");
        svg_rgb(b, rgb);
        buf_puts(b, "\"/>\n");
    }
    buf_puts(b, "<rect x=\"");
    svg_num(b, x);
    buf_puts(b, "\" y=\"");
    svg_num(b, y);
    buf_puts(b, "\" width=\"");
    svg_num(b, w);
    buf_puts(b, "\" height=\"");
    svg_num(b, h);
    buf_puts(b, "\" fill=\"none\" stroke=\"#444444\" stroke-width=\"0.8\"/>\n");

    if (zmax > zmin && svg_nice_ticks(zmin, zmax, 7, t, &n, &step) == 0) {
        double eps = (zmax - zmin) * 1e-9;
        buf_printf(b, "<g font-size=\"%d\">\n", SVG_FS_SMALL);
        for (i = 0; i < n; i++) {
            double py;
            size_t len;
            if (t[i] < zmin - eps || t[i] > zmax + eps)
                continue;
            py = y + h - (t[i] - zmin) / (zmax - zmin) * h;
            buf_puts(b, "<path d=\"M");
            svg_num(b, x + w);
            buf_putc(b, ' ');
            svg_num(b, py);
            buf_puts(b, "h4\" stroke=\"#444444\"/>");
            svg_fmt_tick(s, sizeof s, t[i], step);
            len = strlen(s);
            if (len > maxw)
                maxw = len;
            svg_label(b, x + w + 7, py + 4, "start", NULL, s, 24);
        }
        buf_puts(b, "</g>\n");
    } else {
        /* Constant data: one label for the single value, at the middle of
         * the scale where its cells are; 0 at the bottom (svg_heatmap, svg_3d) */
        double ly = zmin == 0 ? y + h - 2 : y + h / 2 + 4;
        svg_fmt_tick(s, sizeof s, zmin, fabs(zmin) > 0 ? fabs(zmin) / 1000 : 1);
        maxw = strlen(s);
        svg_label(b, x + w + 7, ly, "start", "font-size=\"12\"", s, 24);
    }
    if (label != NULL && *label) {
        char tr[96];
        double lx = x + w + 24 + svg_text_width(maxw, SVG_FS_SMALL);
        snprintf(tr, sizeof tr, "transform=\"rotate(-90 %.2f %.2f)\"", lx, y + h / 2);
        svg_label(b, lx, y + h / 2, "middle", tr, label, svg_fit_chars(h, 12));
    }
}
