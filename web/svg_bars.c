/* svg_bars: the stacked bar chart (svg_stacked in svg.h), e.g. the time of
 * each kernel per run or per configuration ("P=4", "P=8", ...).
 *
 * One bar per category, its components stacked bottom-up in input order, a
 * linear y axis from 0 with nice ticks, the legend in a column on the right.
 * Each segment carries a <title> (category, component, value) that browsers
 * show on hover. Category labels are rotated when they do not fit under their
 * bar and thinned when the bars are narrow. No I/O, no state.
 */
#include "web/svg.h"
#include "web/svg_priv.h"
#include "common/units.h"
#include "common/xalloc.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_W 760
#define DEFAULT_H 480
#define LEGEND_FS SVG_FS_SMALL
#define LEGEND_ROW 18

static int validate(const struct svg_stacked *p, struct err *err)
{
    size_t c, k;
    char field[64];

    if (p == NULL)
        return err_invalid(err, NULL, "no chart given");
    if (svg_check_text(p->title, "title", err) ||
        svg_check_text(p->xlabel, "xlabel", err) ||
        svg_check_text(p->ylabel, "ylabel", err) ||
        svg_check_size(p->width, p->height, err))
        return -1;
    if (p->ncategories < 1)
        return err_invalid(err, "categories", "a stacked chart needs a category");
    if (p->ncomponents < 1)
        return err_invalid(err, "components", "a stacked chart needs a component");
    if (p->ncategories > SIZE_MAX / 2 / p->ncomponents)
        return err_invalid(err, "values", "too many values (%zu x %zu)", p->ncategories,
                           p->ncomponents);
    if (p->categories == NULL || p->components == NULL || p->values == NULL)
        return err_invalid(err, "values", "categories, components or values missing");
    for (c = 0; c < p->ncategories; c++) {
        /* the field is named only for an error: thousands of labels are common */
        if (p->categories[c] != NULL &&
            strnlen(p->categories[c], SVG_MAX_TEXT + 1) > SVG_MAX_TEXT) {
            snprintf(field, sizeof field, "categories[%zu]", c);
            return svg_check_text(p->categories[c], field, err);
        }
    }
    for (k = 0; k < p->ncomponents; k++) {
        /* the field is named only for an error: thousands of labels are common */
        if (p->components[k] != NULL &&
            strnlen(p->components[k], SVG_MAX_TEXT + 1) > SVG_MAX_TEXT) {
            snprintf(field, sizeof field, "components[%zu]", k);
            return svg_check_text(p->components[k], field, err);
        }
    }
    for (c = 0; c < p->ncategories; c++)
        for (k = 0; k < p->ncomponents; k++) {
            double v = p->values[c * p->ncomponents + k];
            if (isfinite(v) && v < 0) {
                snprintf(field, sizeof field, "values[%zu][%zu]", c, k);
                return err_invalid(err, field, "stacked values must not be negative (%g)",
                                   v);
            }
        }
    return 0;
}

static double value_at(const struct svg_stacked *p, size_t c, size_t k)
{
    double v = p->values[c * p->ncomponents + k];
    return isfinite(v) && v > 0 && v <= 1e150 ? v : 0;
}

/* Label of category c, or its 1-based number when the caller gave none. */
static const char *category_label(const struct svg_stacked *p, size_t c, char *tmp,
                                  size_t tmpsz)
{
    if (p->categories[c] != NULL && *p->categories[c])
        return p->categories[c];
    snprintf(tmp, tmpsz, "%zu", c + 1);
    return tmp;
}

static const char *component_label(const struct svg_stacked *p, size_t k, char *tmp,
                                   size_t tmpsz)
{
    if (p->components[k] != NULL && *p->components[k])
        return p->components[k];
    snprintf(tmp, tmpsz, "component %zu", k + 1);
    return tmp;
}

/* The text of a kernel name a legend shows: TAU and PDT end names with
 * source locations and marks in brackets ("main [{/src/main.cpp} {31,0}]",
 * "f() [{a.c} {3,0}] [THROTTLED]"), so every label of a file would end alike
 * and a path inside them would pass for a call path; " [...]" groups are
 * left out (the segment's <title> and the table keep the whole name). */
static void legend_text(const char *s, char *out, size_t outsz)
{
    size_t o = 0;
    while (*s && o + 1 < outsz) {
        if (s[0] == ' ' && s[1] == '[') {
            const char *e = s + 1;
            int depth = 0;
            do {
                depth += *e == '[' ? 1 : *e == ']' ? -1 : 0;
                e++;
            } while (*e && depth > 0);
            if (depth == 0) { /* a closed group: skip it */
                s = e;
                continue;
            }
        }
        out[o++] = *s++;
    }
    out[o] = '\0';
}

/* A legend label of at most maxchars characters: a call path ("main/solve/
 * k29") that does not fit keeps its end ("…solve/k29"), where paths differ,
 * unless its last level is a signature that does not fit ("…/double
 * midpoint(double, …": signatures differ where the name is, at their
 * start); other labels are cut at the end by svg_label. Only a '/' outside
 * brackets, braces and parentheses separates levels (not one of a source
 * file's path). */
static const char *legend_label(const char *s, size_t maxchars, char *tmp, size_t tmpsz)
{
    char d[1024]; /* a kernel name is at most LIMIT_NAME bytes */
    const char *q, *leaf = NULL;
    int depth = 0;
    size_t n;

    legend_text(s, d, sizeof d);
    n = svg_utf8_chars(d);
    for (q = d; *q; q++) {
        if (*q == '[' || *q == '{' || *q == '(')
            depth++;
        else if (*q == ']' || *q == '}' || *q == ')')
            depth -= depth > 0; /* (a long name's mark may cut off its opener) */
        else if (*q == '/' && depth == 0)
            leaf = q + 1;
    }
    if (n <= maxchars || maxchars < 4 || leaf == NULL)
        snprintf(tmp, tmpsz, "%s", d);
    else if (strchr(leaf, '(') != NULL && svg_utf8_chars(leaf) + 2 > maxchars)
        snprintf(tmp, tmpsz, "\xe2\x80\xa6/%s", leaf);
    else
        snprintf(tmp, tmpsz, "\xe2\x80\xa6%s",
                 d + svg_utf8_prefix(d, n - (maxchars - 1)));
    return tmp;
}

#define OTHER_FILL "#b8b8b8" /* the "other" component: grey, apart from the palette */

/* The fill of each of the n components of p (at most SVG_STACK_TOP + 1):
 * the colour asked for where no earlier component took it, else the one the
 * chart has used least (the first of them), so that a chart never repeats a
 * colour before it has used all; without colors, component k's is k's. */
static void fills(const struct svg_stacked *p, int other, const char **fill)
{
    int pick[SVG_STACK_TOP + 1], used[SVG_PALETTE_SIZE] = {0};
    size_t k, n = p->ncomponents;

    for (k = 0; k < n; k++) {
        int want = p->colors ? p->colors[k] : (int)(k % SVG_PALETTE_SIZE);
        pick[k] = -1;
        if (other && k == n - 1)
            continue;
        if (want >= 0 && used[want % SVG_PALETTE_SIZE] == 0)
            used[pick[k] = want % SVG_PALETTE_SIZE]++;
    }
    for (k = 0; k < n; k++) {
        int best = 0, c;
        if (pick[k] >= 0 || (other && k == n - 1))
            continue;
        for (c = 1; c < SVG_PALETTE_SIZE; c++)
            if (used[c] < used[best])
                best = c;
        used[pick[k] = best]++;
    }
    for (k = 0; k < n; k++)
        fill[k] = pick[k] < 0 ? OTHER_FILL : svg_palette((size_t)pick[k]);
}

/* Draws a validated chart of at most SVG_MAX_BARS bars; note (may be NULL)
 * is added to <desc>; with other set, the last component is "other" and
 * grey. */
static int render(struct buf *out, const struct svg_stacked *pin, const char *note,
                  int other, struct err *err)
{
    struct svg_stacked p;
    struct svg_axis ay;
    size_t start = out->len, c, k, maxcat = 0, maxcomp = 0, maxlab = 0, every = 1;
    size_t legend_rows, legend_shown;
    double maxtotal = 0, minpos = 0, top, bottom, left, legend_w, x0, x1, y0, y1, slot,
           bw;
    double t[SVG_MAX_TICKS], step = 1, labw;
    int n = 0, i, rotate = 0;
    char tmp[48], s[48], desc[400];
    const char *fill[SVG_STACK_TOP + 1];

    p = *pin;
    other = other || p.other;
    fills(&p, other, fill);
    if (p.width == 0)
        p.width = DEFAULT_W;
    if (p.height == 0)
        p.height = DEFAULT_H;

    for (c = 0; c < p.ncategories; c++) {
        double total = 0;
        for (k = 0; k < p.ncomponents; k++) {
            double v = value_at(&p, c, k);
            total += v;
            if (v > 0 && (minpos == 0 || v < minpos))
                minpos = v;
        }
        if (total > maxtotal)
            maxtotal = total;
        {
            size_t nc = svg_utf8_chars(category_label(&p, c, tmp, sizeof tmp));
            if (nc > maxcat)
                maxcat = nc;
        }
    }
    for (k = 0; k < p.ncomponents; k++) {
        char d[1024]; /* the legend's text of the name, as drawn */
        size_t nc;
        legend_text(component_label(&p, k, tmp, sizeof tmp), d, sizeof d);
        nc = svg_utf8_chars(d);
        if (nc > maxcomp)
            maxcomp = nc;
    }
    if (maxcat > 24)
        maxcat = 24;

    memset(&ay, 0, sizeof ay);
    if (p.yscale == SVG_LOG10 && minpos > 0 && maxtotal > 0) {
        /* log: powers of ten over the smallest segment to the tallest bar */
        svg_axis_setup(&ay, 1, minpos, maxtotal, 1, 7);
    } else {
        /* y axis from 0 to the loose nice tick above the tallest bar */
        if (!(maxtotal > 0) || svg_nice_ticks(0, maxtotal, 7, t, &n, &step) != 0 ||
            n < 2) {
            t[0] = 0;
            t[1] = 1;
            n = 2;
            step = 1;
        }
        ay.lo = 0;
        ay.hi = t[n - 1];
        ay.step = step;
        for (i = 0; i < n; i++) {
            ay.major[i] = t[i];
            ay.labelled[i] = 1;
        }
        ay.nmajor = n;
    }
    svg_axis_set_unit(&ay, p.yunit, 7);
    n = ay.nmajor;
    for (i = 0; i < n; i++)
        if (strlen(svg_axis_tick_label(&ay, i, s, sizeof s)) > maxlab)
            maxlab = strlen(s);

    /* Layout. */
    top = (p.title != NULL && *p.title) ? 40 : 16;
    legend_w = 40 + svg_text_width(maxcomp, LEGEND_FS);
    if (legend_w > p.width * 0.3)
        legend_w = p.width * 0.3;
    left = 14 + ((p.ylabel != NULL && *p.ylabel) ? 18 : 0) +
           svg_text_width(maxlab, SVG_FS_SMALL) + 8;
    x0 = left;
    x1 = p.width - legend_w - 16;
    slot = (x1 - x0) / p.ncategories;
    bw = slot * 0.7;
    labw = svg_text_width(maxcat, SVG_FS_SMALL);
    if (labw + 4 > slot)
        rotate = 1;
    /* A rotated label reaches left of its bar by about cos 40° of its width:
     * room for the first one. */
    if (rotate && x0 < labw * 0.77 - slot / 2) {
        x0 = labw * 0.77 - slot / 2;
        slot = (x1 - x0) / p.ncategories;
        bw = slot * 0.7;
    }
    /* Rotated labels need about 14 px of slot each; thin them below that. */
    while ((rotate ? 14.0 : labw + 4) > slot * every)
        every++;
    bottom =
        20 + (rotate ? labw * 0.72 + 8 : 18) + ((p.xlabel != NULL && *p.xlabel) ? 20 : 0);
    if (bottom > p.height * 0.4)
        bottom = p.height * 0.4;
    y0 = top;
    y1 = p.height - bottom;
    ay.p0 = y1;
    ay.p1 = y0;

    snprintf(desc, sizeof desc,
             "Prophecy stacked bar chart: %zu bar%s of %zu component%s%s", p.ncategories,
             p.ncategories == 1 ? "" : "s", p.ncomponents, p.ncomponents == 1 ? "" : "s",
             note ? note : "");
    svg_begin(out, p.width, p.height, p.title, desc);
    svg_title(out, p.width, p.title);

    /* Grid, frame, ticks. */
    buf_puts(out, "<path stroke=\"#e2e2e2\" d=\"");
    for (i = 0; i < n; i++) {
        buf_putc(out, 'M');
        svg_num(out, x0);
        buf_putc(out, ' ');
        svg_num(out, svg_axis_px(&ay, ay.major[i]));
        buf_putc(out, 'H');
        svg_num(out, x1);
    }
    buf_puts(out, "\"/>\n<path stroke=\"#444444\" fill=\"none\" d=\"M");
    svg_num(out, x0);
    buf_putc(out, ' ');
    svg_num(out, y0);
    buf_putc(out, 'V');
    svg_num(out, y1);
    buf_putc(out, 'H');
    svg_num(out, x1);
    for (i = 0; i < n; i++) {
        buf_putc(out, 'M');
        svg_num(out, x0);
        buf_putc(out, ' ');
        svg_num(out, svg_axis_px(&ay, ay.major[i]));
        buf_puts(out, "h-5");
    }
    buf_printf(out, "\"/>\n<g font-size=\"%d\" fill=\"#333333\">\n", SVG_FS_SMALL);
    for (i = 0; i < n; i++) {
        svg_axis_tick_label(&ay, i, s, sizeof s);
        svg_label(out, x0 - 8, svg_axis_px(&ay, ay.major[i]) + 4, "end", NULL, s, 24);
    }
    for (c = 0; c < p.ncategories; c += every) {
        double cx = x0 + (c + 0.5) * slot;
        const char *lab = category_label(&p, c, tmp, sizeof tmp);
        if (rotate) {
            char tr[80];
            snprintf(tr, sizeof tr, "transform=\"rotate(-40 %.2f %.2f)\"", cx + 3,
                     y1 + 14);
            svg_label(out, cx + 3, y1 + 14, "end", tr, lab, 24);
        } else {
            svg_label(out, cx, y1 + 16, "middle", NULL, lab, 24);
        }
    }
    buf_puts(out, "</g>\n");
    {
        char yt[SVG_MAX_TEXT + UNITS_MAX];
        svg_axis_titles(out, x0, x1, y0, y1, p.height - 10, p.xlabel,
                        svg_axis_title(&ay, p.ylabel, yt, sizeof yt));
    }

    /* Bars. */
    buf_puts(out, "<g class=\"bars\">\n");
    for (c = 0; c < p.ncategories; c++) {
        double base = 0, bx = x0 + c * slot + (slot - bw) / 2;
        for (k = 0; k < p.ncomponents; k++) {
            double v = value_at(&p, c, k), ya, yb;
            char ctmp[48];
            if (v <= 0)
                continue;
            /* on a log axis the first segment rises from the axis' foot */
            ya = ay.log && base <= 0 ? y1 : svg_axis_px(&ay, base);
            yb = svg_axis_px(&ay, base + v);
            if (ay.log && yb < y0)
                yb = y0;
            base += v;
            buf_puts(out, "<rect x=\"");
            svg_num(out, bx);
            buf_puts(out, "\" y=\"");
            svg_num(out, yb);
            buf_puts(out, "\" width=\"");
            svg_num(out, bw);
            buf_puts(out, "\" height=\"");
            svg_num(out, ya - yb);
            buf_puts(out, "\" fill=\"");
            buf_puts(out, fill[k]);
            buf_puts(out, "\"><title>");
            svg_text_fit(out, category_label(&p, c, ctmp, sizeof ctmp), 80);
            buf_puts(out, " \xe2\x80\x94 ");
            svg_text_fit(out, component_label(&p, k, tmp, sizeof tmp), 80);
            buf_puts(out, ": ");
            buf_puts(out, units_fmt(s, sizeof s, v, p.yunit));
            buf_puts(out, "</title></rect>\n");
        }
    }
    buf_puts(out, "</g>\n");

    /* Legend, top component first so it reads in the order of the stack. */
    legend_rows = (size_t)((y1 - y0) / LEGEND_ROW);
    if (legend_rows < 1)
        legend_rows = 1;
    legend_shown = p.ncomponents <= legend_rows ? p.ncomponents : legend_rows - 1;
    buf_printf(out, "<g class=\"legend\" font-size=\"%d\">\n", LEGEND_FS);
    for (i = 0; i < (int)legend_shown; i++) {
        size_t kk = p.ncomponents - 1 - (size_t)i;
        double ly = y0 + 4 + i * LEGEND_ROW;
        buf_puts(out, "<rect x=\"");
        svg_num(out, x1 + 16);
        buf_puts(out, "\" y=\"");
        svg_num(out, ly);
        buf_puts(out, "\" width=\"12\" height=\"12\" fill=\"");
        buf_puts(out, fill[kk]);
        buf_puts(out, "\"/>");
        {
            size_t fit = svg_fit_chars(legend_w - 20, LEGEND_FS);
            char lt[SVG_MAX_TEXT + 4];
            svg_label(out, x1 + 34, ly + 10, "start", NULL,
                      legend_label(component_label(&p, kk, tmp, sizeof tmp), fit, lt,
                                   sizeof lt),
                      fit);
        }
    }
    if (legend_shown < p.ncomponents) {
        snprintf(s, sizeof s, "\xe2\x80\xa6 and %zu more", p.ncomponents - legend_shown);
        svg_label(out, x1 + 34, y0 + 14 + legend_shown * LEGEND_ROW, "start",
                  "fill=\"#555555\"", s, 40);
    }
    buf_puts(out, "</g>\n");
    svg_end(out);
    return svg_finish(out, start, 0, err);
}

/* ---- more data than a chart can show ---------------------------------------- */

#define GROUP_LABEL 112 /* bytes of a "first–last" bar label */

/* Component order: larger total first, then input order. */
struct rank {
    double total;
    size_t k;
};

static int by_total(const void *a, const void *b)
{
    const struct rank *x = a, *y = b;
    if (x->total != y->total)
        return x->total > y->total ? -1 : 1;
    return x->k < y->k ? -1 : x->k > y->k;
}

/* Components that are 0 in every bar (a call path's frames that took no
 * time): they have no area, only a legend entry, and can push the ones that
 * have out of the SVG_STACK_TOP kept. */
static size_t zero_components(const struct svg_stacked *p)
{
    size_t n = 0;
    for (size_t k = 0; k < p->ncomponents; k++) {
        size_t c = 0;
        while (c < p->ncategories && value_at(p, c, k) == 0)
            c++;
        n += c == p->ncategories;
    }
    return n;
}

/* The chart of p without its `zero` components that are 0 in every bar
 * (unless all are), with at most SVG_STACK_TOP + 1 components (the largest by their total
 * over all bars, in input order, and "other" summing the rest) and at most
 * SVG_MAX_BARS bars (consecutive categories grouped, each bar the mean of its
 * group, labelled "first–last"). */
static int reduce(struct buf *out, const struct svg_stacked *p, size_t zero,
                  struct err *err)
{
    size_t nk = p->ncomponents, nc = p->ncategories, c, k, g;
    size_t nzero = zero < nk ? zero : 0;
    size_t live = nk - nzero, mk = live > SVG_STACK_TOP + 1 ? SVG_STACK_TOP + 1 : live;
    size_t mc = nc > SVG_MAX_BARS ? SVG_MAX_BARS : nc, maxgroup = 1;
    struct rank *r = xcalloc(nk, sizeof *r);
    size_t *slot = xcalloc(nk, sizeof *slot); /* component k -> its column */
    const char **comps = xcalloc(mk, sizeof *comps), **cats = xcalloc(mc, sizeof *cats);
    char *labels = xcalloc(mc, GROUP_LABEL), other[64], note[200];
    double *v = xcalloc(mc * mk, sizeof *v);
    int *cols = xcalloc(mk, sizeof *cols);
    struct svg_stacked q = *p;
    int rc = -1;

    if (!r || !slot || !comps || !cats || !labels || !v || !cols) {
        err_nomem(err);
        goto out;
    }
    for (k = 0; k < nk; k++) {
        r[k].k = k;
        for (c = 0; c < nc; c++)
            r[k].total += value_at(p, c, k);
    }
    /* the kept ones (slot 0 for now) in input order; the rest go to "other"
     * (slot SVG_STACK_TOP) or, at 0 everywhere, nowhere (SIZE_MAX) */
    qsort(r, nk, sizeof *r, by_total);
    for (k = 0; k < nk; k++)
        slot[k] = SIZE_MAX;
    for (k = 0; k < live; k++)
        slot[r[k].k] = k < (mk < live ? SVG_STACK_TOP : live) ? 0 : SVG_STACK_TOP;
    for (g = 0, k = 0; k < nk; k++)
        if (slot[k] == 0) {
            comps[g] = p->components[k];
            cols[g] = p->colors ? p->colors[k] : (int)g;
            slot[k] = g++;
        }
    if (mk < live) {
        snprintf(other, sizeof other, "other (%zu more)", live - SVG_STACK_TOP);
        comps[SVG_STACK_TOP] = other;
        cols[SVG_STACK_TOP] = -1;
        q.other = 0; /* a kept "other" of the input is one component among the rest */
    } else if (nzero > 0 && p->other && slot[nk - 1] == SIZE_MAX) {
        q.other = 0; /* the input's "other" was 0 and is gone */
    }
    for (g = 0; g < mc; g++) {
        size_t c0 = g * nc / mc, c1 = (g + 1) * nc / mc; /* [c0, c1) */
        char *lab = labels + g * GROUP_LABEL;
        if (c1 - c0 > maxgroup)
            maxgroup = c1 - c0;
        for (c = c0; c < c1; c++)
            for (k = 0; k < nk; k++)
                if (slot[k] != SIZE_MAX)
                    v[g * mk + slot[k]] += value_at(p, c, k) / (double)(c1 - c0);
        if (c1 - c0 == 1) {
            cats[g] = category_label(p, c0, lab, GROUP_LABEL);
        } else {
            char a[48], b[48];
            const char *la = category_label(p, c0, a, sizeof a),
                       *lb = category_label(p, c1 - 1, b, sizeof b);
            snprintf(lab, GROUP_LABEL, "%.*s\xe2\x80\x93%.*s",
                     (int)svg_utf8_prefix(la, 24), la, (int)svg_utf8_prefix(lb, 24), lb);
            cats[g] = lab;
        }
    }
    note[0] = 0;
    if (nzero > 0)
        snprintf(note, sizeof note, "; %zu component%s at 0 in every bar left out", nzero,
                 nzero == 1 ? "" : "s");
    if (mk < live)
        snprintf(note + strlen(note), sizeof note - strlen(note),
                 "; the largest %d of %zu components, the rest summed as \"other\"",
                 SVG_STACK_TOP, live);
    if (mc < nc)
        snprintf(note + strlen(note), sizeof note - strlen(note),
                 "; %zu categories in %zu bars, each the mean of up to %zu", nc, mc,
                 maxgroup);
    q.categories = cats;
    q.ncategories = mc;
    q.components = comps;
    q.ncomponents = mk;
    q.values = v;
    q.colors = cols;
    rc = render(out, &q, note, mk < live, err);
out:
    xfree(r);
    xfree(slot);
    xfree(comps);
    xfree(cats);
    xfree(labels);
    xfree(v);
    xfree(cols);
    return rc;
}

int svg_stacked(struct buf *out, const struct svg_stacked *p, struct err *err)
{
    size_t zero;
    if (buf_failed(out))
        return err_set(err, ERR_INTERNAL, "internal", NULL,
                       "output buffer already failed");
    if (validate(p, err) != 0)
        return -1;
    zero = zero_components(p);
    if (p->ncomponents > SVG_STACK_TOP + 1 || p->ncategories > SVG_MAX_BARS || zero > 0)
        return reduce(out, p, zero, err);
    return render(out, p, NULL, 0, err);
}
