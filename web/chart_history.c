/* chart_history: history and comparison charts; see chart_history.h.
 *
 * Drawn with the renderer toolkit of web/svg_priv.h (axes, labels, document
 * frame, error handling) so that they look and escape like every other plot.
 */
#include "web/chart_history.h"
#include "common/isotime.h"
#include "web/svg.h"
#include "web/svg_priv.h"
#include "common/units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define HIST_W 760
#define HIST_H 400
#define CMP_W 760
#define CMP_ROW 22   /* px per bar */
#define CMP_LABEL 40 /* characters of a row label at most */
#define CMP_GAP 10   /* px between rows */
#define CMP_MAX_ROWS 200
#define CMP_MAX_SIDES 16
#define COLOR_LINE "#1f77b4"
#define COLOR_ALERT "#d62728"
#define COLOR_BAND "#ff7f0e"
#define COLOR_CHANGE "#7f7f7f"

/* ---- time, by arithmetic (proleptic Gregorian, UTC: common/isotime.h) ----------- */

static int digits(const char *s, int n, unsigned *out)
{
    unsigned v = 0;
    int i;
    for (i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    *out = v;
    return 0;
}

int chart_parse_time(const char *s, double *t)
{
    unsigned y, mo, d, h = 0, mi = 0, se = 0;
    double frac = 0;

    if (s == NULL || strlen(s) < 10 || digits(s, 4, &y) || s[4] != '-' ||
        digits(s + 5, 2, &mo) || s[7] != '-' || digits(s + 8, 2, &d) || mo < 1 ||
        mo > 12 || d < 1 || d > 31)
        return -1;
    s += 10;
    if (*s == 'T' || *s == ' ') {
        if (digits(s + 1, 2, &h) || s[3] != ':' || digits(s + 4, 2, &mi) || h > 23 ||
            mi > 59)
            return -1;
        s += 6;
        if (*s == ':') {
            if (digits(s + 1, 2, &se) || se > 60)
                return -1;
            s += 3;
            if (*s == '.') {
                double scale = 0.1;
                for (s++; *s >= '0' && *s <= '9'; s++, scale /= 10)
                    frac += (*s - '0') * scale;
            }
        }
    }
    if (*s == 'Z')
        s++;
    if (*s != '\0')
        return -1;
    *t = (double)isotime_days_from_civil(y, mo, d) * 86400.0 + h * 3600.0 + mi * 60.0 +
         se + frac;
    return 0;
}

void chart_format_time(double t, char *out, size_t outsz)
{
    long long days, y, secs;
    unsigned m, d;
    if (!isfinite(t) || fabs(t) > 1e13)
        t = 0;
    days = (long long)floor(t / 86400.0);
    secs = (long long)floor(t - (double)days * 86400.0);
    isotime_civil_from_days(days, &y, &m, &d);
    snprintf(out, outsz, "%04lld-%02u-%02u %02lld:%02lld", y, m, d, secs / 3600,
             secs % 3600 / 60);
}

/* ---- history ------------------------------------------------------------------- */

static int hist_validate(const struct chart_history *h, struct err *err)
{
    size_t i;
    if (h == NULL)
        return err_invalid(err, NULL, "no chart given");
    if (svg_check_text(h->title, "title", err) ||
        svg_check_text(h->ylabel, "ylabel", err) ||
        svg_check_size(h->width, h->height, err))
        return -1;
    if (h->n < 1 || h->n > SVG_MAX_POINTS || h->points == NULL)
        return err_invalid(err, "points", "a history needs 1..%d points, not %zu",
                           SVG_MAX_POINTS, h->n);
    for (i = 0; i < h->n; i++) {
        char field[48];
        snprintf(field, sizeof field, "points[%zu].commit", i);
        if (!isfinite(h->points[i].t))
            return err_invalid(err, "points", "point %zu has no time", i);
        if (svg_check_text(h->points[i].commit, field, err))
            return -1;
    }
    if (h->nchanges > h->n || (h->nchanges && h->changes == NULL))
        return err_invalid(err, "changes", "more change points than points");
    for (i = 0; i < h->nchanges; i++)
        if (h->changes[i] >= h->n)
            return err_invalid(err, "changes", "change point %zu is not a point", i);
    return 0;
}

/* Time tick labels: dates when the series spans days, else times of day. */
static void time_label(double t, double span, char *out, size_t outsz)
{
    char full[32];
    chart_format_time(t, full, sizeof full);
    if (span >= 3 * 86400.0)
        snprintf(out, outsz, "%.10s", full); /* YYYY-MM-DD */
    else
        snprintf(out, outsz, "%s", full + 5); /* MM-DD HH:MM */
}

static int is_change(const struct chart_history *h, size_t i)
{
    for (size_t k = 0; k < h->nchanges; k++)
        if (h->changes[k] == i)
            return 1;
    return 0;
}

int chart_history(struct buf *out, const struct chart_history *hin, struct err *err)
{
    struct chart_history h;
    struct svg_axis ax, ay;
    size_t start = out->len, i, k, valid = 0, maxlab = 0, stride;
    double tmin = INFINITY, tmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
    double x0, x1, y0, y1, span;
    char s[64], desc[256], when[32];
    int first, nalerts = 0, nband = 0;

    if (buf_failed(out))
        return err_set(err, ERR_INTERNAL, "internal", NULL,
                       "output buffer already failed");
    if (hist_validate(hin, err) != 0)
        return -1;
    h = *hin;
    if (h.width == 0)
        h.width = HIST_W;
    if (h.height == 0)
        h.height = HIST_H;
    for (i = 0; i < h.n; i++) {
        const struct chart_hist_point *p = &h.points[i];
        tmin = fmin(tmin, p->t);
        tmax = fmax(tmax, p->t);
        if (isfinite(p->y)) {
            ymin = fmin(ymin, p->y);
            ymax = fmax(ymax, p->y);
            valid++;
        }
        if (p->has_band && isfinite(p->lo) && isfinite(p->hi)) {
            ymin = fmin(ymin, units_floor(h.yunit, p->lo));
            ymax = fmax(ymax, p->hi);
            nband++;
        }
        nalerts += p->alert != 0;
    }
    if (tmax == tmin) { /* one instant: a day around it */
        tmin -= 43200;
        tmax += 43200;
    }
    span = tmax - tmin;
    svg_axis_setup(&ay, 0, ymin, ymax, valid > 0 || nband > 0, 6);
    ay.unit = h.yunit;
    svg_axis_setup(&ax, 0, tmin, tmax, 1, 5);
    for (k = 0; k < (size_t)ay.nmajor; k++) {
        size_t len = strlen(svg_axis_tick_label(&ay, (int)k, s, sizeof s));
        maxlab = len > maxlab ? len : maxlab;
    }
    x0 = 14 + ((h.ylabel && *h.ylabel) ? 18 : 0) + svg_text_width(maxlab, SVG_FS_SMALL) +
         8;
    x1 = h.width - 24;
    y0 = 44;
    y1 = h.height - 40;
    ax.p0 = x0;
    ax.p1 = x1;
    ay.p0 = y1;
    ay.p1 = y0;

    snprintf(desc, sizeof desc,
             "%zu run%s over time%s%s; %d with an alert; %zu change point%s.", h.n,
             h.n == 1 ? "" : "s",
             nband ? ", with the watching model's 95 % prediction interval as a band"
                   : "",
             valid < h.n ? " (runs without a value skipped)" : "", nalerts, h.nchanges,
             h.nchanges == 1 ? "" : "s");
    svg_begin(out, h.width, h.height, h.title, desc);
    svg_title(out, h.width, h.title);

    /* grid and ticks */
    buf_printf(out, "<g font-size=\"%d\" fill=\"#333333\">\n", SVG_FS_SMALL);
    for (k = 0; k < (size_t)ay.nmajor; k++) {
        double py = svg_axis_px(&ay, ay.major[k]);
        buf_puts(out, "<line stroke=\"#e5e5e5\" x1=\"");
        svg_num(out, x0);
        buf_puts(out, "\" x2=\"");
        svg_num(out, x1);
        buf_puts(out, "\" y1=\"");
        svg_num(out, py);
        buf_puts(out, "\" y2=\"");
        svg_num(out, py);
        buf_puts(out, "\"/>");
        svg_label(out, x0 - 6, py + 4, "end", NULL,
                  svg_axis_tick_label(&ay, (int)k, s, sizeof s), 24);
    }
    for (k = 0; k < (size_t)ax.nmajor; k++) {
        double px = svg_axis_px(&ax, ax.major[k]);
        time_label(ax.major[k], span, s, sizeof s);
        buf_puts(out, "<line stroke=\"#e5e5e5\" x1=\"");
        svg_num(out, px);
        buf_puts(out, "\" x2=\"");
        svg_num(out, px);
        buf_puts(out, "\" y1=\"");
        svg_num(out, y0);
        buf_puts(out, "\" y2=\"");
        svg_num(out, y1);
        buf_puts(out, "\"/>");
        {
            /* centred under its tick, but inside the drawing at either end
             * ("01-12 06:40" was cut at the right edge on a phone) */
            double half = svg_text_width(strlen(s), SVG_FS_SMALL) / 2.0;
            if (px + half > h.width - 2)
                svg_label(out, h.width - 2, y1 + 16, "end", NULL, s, 16);
            else if (px - half < 2)
                svg_label(out, 2, y1 + 16, "start", NULL, s, 16);
            else
                svg_label(out, px, y1 + 16, "middle", NULL, s, 16);
        }
    }
    buf_puts(out, "</g>\n");
    {
        char yt[SVG_MAX_TEXT + UNITS_MAX];
        svg_axis_titles(out, x0, x1, y0, y1, h.height - 8, "time of the run (UTC)",
                        svg_axis_title(&ay, h.ylabel, yt, sizeof yt));
    }

    /* the model's interval: one band polygon per stretch of points that have one */
    for (i = 0; i < h.n;) {
        size_t j, e;
        if (!(h.points[i].has_band && isfinite(h.points[i].lo) &&
              isfinite(h.points[i].hi))) {
            i++;
            continue;
        }
        for (e = i; e < h.n && h.points[e].has_band && isfinite(h.points[e].lo) &&
                    isfinite(h.points[e].hi);
             e++)
            ;
        buf_printf(out,
                   "<polygon class=\"interval\" fill=\"%s\" fill-opacity=\"0.18\" "
                   "stroke=\"none\" points=\"",
                   COLOR_BAND);
        if (svg_axis_px(&ax, h.points[e - 1].t) - svg_axis_px(&ax, h.points[i].t) < 2) {
            /* a stretch at one instant (one run, or runs imported with one
             * time) had a band of no width: drawn 12 px wide around it, from
             * its lowest lo to its highest hi */
            double px = svg_axis_px(&ax, h.points[i].t), lo = INFINITY, hi = -INFINITY;
            for (j = i; j < e; j++) {
                lo = fmin(lo, units_floor(h.yunit, h.points[j].lo));
                hi = fmax(hi, h.points[j].hi);
            }
            buf_printf(out, "%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>\n", px - 6,
                       svg_axis_px(&ay, hi), px + 6, svg_axis_px(&ay, hi), px + 6,
                       svg_axis_px(&ay, lo), px - 6, svg_axis_px(&ay, lo));
            i = e;
            continue;
        }
        for (j = i; j < e; j++) {
            svg_num(out, svg_axis_px(&ax, h.points[j].t));
            buf_putc(out, ',');
            svg_num(out, svg_axis_px(&ay, h.points[j].hi));
            buf_putc(out, ' ');
        }
        for (j = e; j > i; j--) {
            svg_num(out, svg_axis_px(&ax, h.points[j - 1].t));
            buf_putc(out, ',');
            svg_num(out, svg_axis_px(&ay, units_floor(h.yunit, h.points[j - 1].lo)));
            buf_putc(out, j - 1 > i ? ' ' : '"');
        }
        buf_puts(out, "/>\n");
        i = e;
    }

    /* change points: where the series shifted, and at which commit */
    for (k = 0; k < h.nchanges; k++) {
        const struct chart_hist_point *p = &h.points[h.changes[k]];
        double px = svg_axis_px(&ax, p->t);
        char lab[96];
        snprintf(lab, sizeof lab, "shift at %.12s", p->commit ? p->commit : "");
        if (!p->commit || !*p->commit)
            snprintf(lab, sizeof lab, "shift at run %lld", p->run);
        buf_printf(
            out, "<g class=\"change\"><line stroke=\"%s\" stroke-dasharray=\"6 4\" x1=\"",
            COLOR_CHANGE);
        svg_num(out, px);
        buf_puts(out, "\" x2=\"");
        svg_num(out, px);
        buf_puts(out, "\" y1=\"");
        svg_num(out, y0);
        buf_puts(out, "\" y2=\"");
        svg_num(out, y1);
        buf_puts(out, "\"/>");
        svg_label(out, px + 4, y0 + 12 + 14 * (double)(k % 3), "start",
                  "font-size=\"11\" fill=\"#555555\"", lab, 30);
        buf_puts(out, "</g>\n");
    }

    /* the line through the runs, then the points with their titles */
    buf_printf(out,
               "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.2\" "
               "stroke-opacity=\"0.6\" points=\"",
               COLOR_LINE);
    first = 1;
    for (i = 0; i < h.n; i++) {
        if (!isfinite(h.points[i].y))
            continue;
        if (!first)
            buf_putc(out, ' ');
        svg_num(out, svg_axis_px(&ax, h.points[i].t));
        buf_putc(out, ',');
        svg_num(out, svg_axis_px(&ay, h.points[i].y));
        first = 0;
    }
    buf_puts(out, "\"/>\n<g class=\"runs\">\n");
    /* A long series is marked, not refused: the line passes through every
     * run, and at most CHART_HIST_MARKS evenly spaced runs are points with
     * their titles, besides the newest, every alert and every change point
     * (a 40,000-run series drew 5 MB of points per chart). */
    stride = h.n > CHART_HIST_MARKS ? (h.n + CHART_HIST_MARKS - 1) / CHART_HIST_MARKS : 1;
    for (i = 0; i < h.n; i++) {
        const struct chart_hist_point *p = &h.points[i];
        double px, py;
        if (!isfinite(p->y))
            continue;
        if (stride > 1 && i % stride != 0 && i + 1 != h.n && !p->alert &&
            !is_change(&h, i))
            continue;
        px = svg_axis_px(&ax, p->t);
        py = svg_axis_px(&ay, p->y);
        buf_printf(out, "<circle%s r=\"%s\" fill=\"%s\" cx=\"",
                   p->alert ? " class=\"alert\"" : "", p->alert ? "5.5" : "3.5",
                   p->alert ? COLOR_ALERT : COLOR_LINE);
        svg_num(out, px);
        buf_puts(out, "\" cy=\"");
        svg_num(out, py);
        buf_puts(out, "\"><title>");
        chart_format_time(p->t, when, sizeof when);
        if (p->run)
            buf_printf(out, "run %lld, ", p->run);
        if (p->commit && *p->commit) {
            buf_puts(out, "commit ");
            svg_text(out, p->commit);
            buf_puts(out, ", ");
        }
        buf_printf(out, "%s: %.6g", when, p->y);
        if (p->has_band && isfinite(p->lo) && isfinite(p->hi))
            buf_printf(out, " [%.6g, %.6g]", units_floor(h.yunit, p->lo), p->hi);
        if (p->alert)
            buf_puts(out, " (alert)");
        buf_puts(out, "</title></circle>\n");
    }
    buf_puts(out, "</g>\n");
    buf_puts(out, "<rect fill=\"none\" stroke=\"#999999\" x=\"");
    svg_num(out, x0);
    buf_puts(out, "\" y=\"");
    svg_num(out, y0);
    buf_puts(out, "\" width=\"");
    svg_num(out, x1 - x0);
    buf_puts(out, "\" height=\"");
    svg_num(out, y1 - y0);
    buf_puts(out, "\"/>\n");
    svg_end(out);
    return svg_finish(out, start, 0, err);
}

/* ---- comparison ---------------------------------------------------------------- */

static int cmp_validate(const struct chart_compare *c, struct err *err)
{
    size_t i;
    if (c == NULL)
        return err_invalid(err, NULL, "no chart given");
    if (svg_check_text(c->title, "title", err) || svg_check_size(c->width, 0, err))
        return -1;
    if (c->nsides < 2 || c->nsides > CMP_MAX_SIDES || c->sides == NULL)
        return err_invalid(err, "sides", "a comparison needs 2..%d sides, not %zu",
                           CMP_MAX_SIDES, c->nsides);
    if (c->nrows < 1 || c->nrows > CMP_MAX_ROWS || c->rows == NULL)
        return err_invalid(err, "rows", "a comparison chart shows 1..%d rows, not %zu",
                           CMP_MAX_ROWS, c->nrows);
    for (i = 0; i < c->nsides; i++) {
        char field[48];
        snprintf(field, sizeof field, "sides[%zu]", i);
        if (svg_check_text(c->sides[i], field, err))
            return -1;
    }
    for (i = 0; i < c->nrows; i++) {
        char field[48];
        snprintf(field, sizeof field, "rows[%zu].label", i);
        if (svg_check_text(c->rows[i].label, field, err))
            return -1;
        if (c->rows[i].ratio == NULL)
            return err_invalid(err, "rows", "row %zu has no ratios", i);
    }
    return 0;
}

/* A row's label, right-aligned at x, in at most maxchars characters. Rows
 * are told apart by the measure after the last " · " (one configuration,
 * several measures, as Google Benchmark's aggregates give) and by the ends
 * of the configuration ("femtolog_info_format_int", "..._multi_int"), so a
 * long label keeps the measure whole (up to half the room) and cuts the
 * middle of what comes before it. */
static void row_label(struct buf *out, double x, double y, const char *s, size_t maxchars)
{
    size_t n = svg_utf8_chars(s), keep = maxchars / 2, pre, room, b1, b2;
    const char *sep = NULL, *q;
    if (n <= maxchars) {
        svg_label(out, x, y, "end", NULL, s, maxchars);
        return;
    }
    for (q = strstr(s, " · "); q != NULL; q = strstr(q + 1, " · "))
        sep = q;
    if (sep != NULL && svg_utf8_chars(sep) < keep)
        keep = svg_utf8_chars(sep);
    pre = n - keep;         /* the characters before the kept end */
    room = maxchars - keep; /* for them, with the ellipsis */
    b1 = room / 2;
    b2 = room - 1 - b1;
    buf_puts(out, "<text x=\"");
    svg_num(out, x);
    buf_puts(out, "\" y=\"");
    svg_num(out, y);
    buf_puts(out, "\" text-anchor=\"end\">");
    svg_text_n(out, s, svg_utf8_prefix(s, b1));
    buf_puts(out, "\xe2\x80\xa6"); /* … */
    svg_text(out, s + svg_utf8_prefix(s, pre - b2));
    buf_puts(out, "</text>\n");
}

int chart_compare(struct buf *out, const struct chart_compare *cin, struct err *err)
{
    struct chart_compare c;
    struct svg_axis ax;
    size_t start = out->len, i, k, nb, maxlab = 0, labchars;
    double rmin = 1, rmax = 1, x0, x1, y0, y, h, lx;
    char s[64], desc[300];
    int height;

    if (buf_failed(out))
        return err_set(err, ERR_INTERNAL, "internal", NULL,
                       "output buffer already failed");
    if (cmp_validate(cin, err) != 0)
        return -1;
    c = *cin;
    if (c.width == 0)
        c.width = CMP_W;
    nb = c.nsides - 1;
    for (i = 0; i < c.nrows; i++) {
        size_t len = svg_utf8_chars(c.rows[i].label);
        maxlab = len > maxlab ? len : maxlab;
        for (k = 0; k < nb; k++) {
            double r = c.rows[i].ratio[k];
            if (isfinite(r) && r >= 0 && r < 1e6) {
                rmin = fmin(rmin, r);
                rmax = fmax(rmax, r);
            }
        }
    }
    h = (double)nb * CMP_ROW + CMP_GAP;
    y0 = 40 + (nb > 1 ? 18 * (double)((nb + 2) / 3) : 0);
    height = (int)(y0 + (double)c.nrows * h + 46);
    if (height > SVG_MAX_SIZE)
        height = SVG_MAX_SIZE;
    lx = svg_text_width(maxlab < CMP_LABEL ? maxlab : CMP_LABEL, SVG_FS_SMALL);
    x0 = 16 + lx + 10;
    if (x0 > c.width * 0.45)
        x0 = c.width * 0.45;
    x1 = c.width - 70;
    /* the labels in the room left of the bars: all of CMP_LABEL on a desktop,
     * fewer on a phone's narrow drawing (x0 at 45 % of its width) */
    labchars = svg_fit_chars(x0 - 24, SVG_FS_SMALL);
    if (labchars > CMP_LABEL)
        labchars = CMP_LABEL;
    svg_axis_setup(&ax, 0, fmin(rmin, 0.9), fmax(rmax, 1.1), 1, 6);
    ax.p0 = x0;
    ax.p1 = x1;

    snprintf(desc, sizeof desc,
             "Change of each side from %.100s per row in percent; 0 means equal, "
             "solid bars are significant (Welch's t-test, 5 %%).",
             c.sides[0] ? c.sides[0] : "a");
    svg_begin(out, c.width, height, c.title, desc);
    svg_title(out, c.width, c.title);
    /* which bar is which side: in each row, top to bottom, sides b, c, ... */
    if (nb > 1)
        for (k = 0; k < nb; k++) {
            char lab[SVG_MAX_TEXT + 32];
            snprintf(lab, sizeof lab, "bar %zu: %s", k + 1,
                     c.sides[k + 1] ? c.sides[k + 1] : "");
            svg_label(out, 16 + (double)(k % 3) * (c.width - 32) / 3.0,
                      44 + 18 * (double)(k / 3), "start", NULL, lab,
                      svg_fit_chars((c.width - 32) / 3.0 - 8, 12));
        }
    buf_printf(out, "<g font-size=\"%d\" fill=\"#333333\">\n", SVG_FS_SMALL);
    for (k = 0; k < (size_t)ax.nmajor; k++) {
        double px = svg_axis_px(&ax, ax.major[k]);
        buf_puts(out, "<line stroke=\"#e5e5e5\" x1=\"");
        svg_num(out, px);
        buf_puts(out, "\" x2=\"");
        svg_num(out, px);
        buf_puts(out, "\" y1=\"");
        svg_num(out, y0);
        buf_puts(out, "\" y2=\"");
        svg_num(out, y0 + (double)c.nrows * h);
        buf_puts(out, "\"/>");
        /* the ticks are ratios; their labels the change in percent */
        snprintf(s, sizeof s, "%+.3g %%", 100 * (ax.major[k] - 1));
        svg_label(out, px, y0 + (double)c.nrows * h + 16, "middle", NULL,
                  fabs(ax.major[k] - 1) < 1e-9 ? "0 %" : s, 12);
    }
    buf_puts(out, "</g>\n");
    for (i = 0; i < c.nrows; i++) {
        const struct chart_compare_row *r = &c.rows[i];
        y = y0 + (double)i * h + CMP_GAP / 2.0;
        row_label(out, x0 - 8, y + (double)nb * CMP_ROW / 2 + 4, r->label ? r->label : "",
                  labchars);
        for (k = 0; k < nb; k++) {
            double v = r->ratio[k], a, b, by = y + (double)k * CMP_ROW + 3;
            int sig = r->significant ? r->significant[k] : 0;
            const char *color = v > 1 ? "#d62728" : "#2ca02c";
            if (!(isfinite(v) && v >= 0 && v < 1e6))
                continue;
            a = svg_axis_px(&ax, fmin(v, 1));
            b = svg_axis_px(&ax, fmax(v, 1));
            buf_printf(
                out,
                "<rect class=\"%s\" fill=\"%s\" fill-opacity=\"%s\" stroke=\"%s\" x=\"",
                sig ? "ratio significant" : "ratio", color, sig ? "0.85" : "0.25", color);
            svg_num(out, a);
            buf_puts(out, "\" y=\"");
            svg_num(out, by);
            buf_puts(out, "\" width=\"");
            svg_num(out, b - a > 1 ? b - a : 1);
            buf_printf(out, "\" height=\"%d\"><title>", CMP_ROW - 6);
            svg_text(out, r->label ? r->label : "");
            buf_puts(out, ": ");
            svg_text(out, c.sides[k + 1] ? c.sides[k + 1] : "");
            snprintf(s, sizeof s, " vs a: %+.3g %%%s", 100 * (v - 1),
                     r->significant ? (sig ? " (significant)" : " (not significant)")
                                    : "");
            svg_text(out, s);
            buf_puts(out, "</title></rect>");
            snprintf(s, sizeof s, "%+.3g %%", 100 * (v - 1));
            svg_label(out, b + 4, by + CMP_ROW - 10, "start", "font-size=\"11\"", s, 10);
            buf_puts(out, "\n");
        }
    }
    /* the line of equality */
    buf_puts(out, "<line stroke=\"#333333\" stroke-width=\"1.5\" x1=\"");
    svg_num(out, svg_axis_px(&ax, 1));
    buf_puts(out, "\" x2=\"");
    svg_num(out, svg_axis_px(&ax, 1));
    buf_puts(out, "\" y1=\"");
    svg_num(out, y0);
    buf_puts(out, "\" y2=\"");
    svg_num(out, y0 + (double)c.nrows * h);
    buf_puts(out, "\"/>\n");
    svg_label(out, (x0 + x1) / 2, height - 8, "middle", NULL,
              "change from a (0 % = equal)", 60);
    svg_end(out);
    return svg_finish(out, start, 0, err);
}
