/* svg_heatmap: the heat map (svg_heatmap in svg.h), for matrices such as the
 * wait time or message traffic between ranks.
 *
 * Values are quantised to 64 colour levels of the viridis-like map. The
 * cells live in a group scaled so that one cell is one unit, and all cells of
 * one level form a single path of horizontal runs ("M3 7h2v1h-2z"), so a
 * 256 x 256 matrix stays well under a megabyte. Non-finite values are grey
 * "no data" cells. Row and column labels are thinned when cells are small.
 * No I/O, no state.
 */
#include "web/svg.h"
#include "web/svg_priv.h"
#include "common/units.h"
#include "common/xalloc.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define DEFAULT_W 760
#define DEFAULT_H 600
#define LEVELS 64
#define MISSING 255
#define MISSING_FILL "#d9d9d9"

static int validate(const struct svg_heatmap *p, struct err *err)
{
    size_t i;
    char field[64];

    if (p == NULL)
        return err_invalid(err, NULL, "no heat map given");
    if (svg_check_text(p->title, "title", err) ||
        svg_check_text(p->xlabel, "xlabel", err) ||
        svg_check_text(p->ylabel, "ylabel", err) ||
        svg_check_text(p->zlabel, "zlabel", err) ||
        svg_check_size(p->width, p->height, err))
        return -1;
    if (p->nrows < 1 || p->ncols < 1)
        return err_invalid(err, "values", "a heat map needs a row and a column");
    if (p->nrows > SIZE_MAX / 2 / sizeof(double) / p->ncols)
        return err_invalid(err, "values", "too many values (%zu x %zu)", p->nrows,
                           p->ncols);
    if (p->values == NULL && p->cells == NULL)
        return err_invalid(err, "values", "values missing");
    for (i = 0; p->values == NULL && i < p->ncells; i++)
        if (p->cells[i].row >= p->nrows || p->cells[i].col >= p->ncols)
            return err_invalid(err, "cells", "cell %zu is outside the %zu x %zu matrix",
                               i, p->nrows, p->ncols);
    for (i = 0; p->row_labels != NULL && i < p->nrows; i++) {
        /* the field is named only for an error: thousands of labels are common */
        if (p->row_labels[i] != NULL &&
            strnlen(p->row_labels[i], SVG_MAX_TEXT + 1) > SVG_MAX_TEXT) {
            snprintf(field, sizeof field, "row_labels[%zu]", i);
            return svg_check_text(p->row_labels[i], field, err);
        }
    }
    for (i = 0; p->col_labels != NULL && i < p->ncols; i++) {
        /* the field is named only for an error: thousands of labels are common */
        if (p->col_labels[i] != NULL &&
            strnlen(p->col_labels[i], SVG_MAX_TEXT + 1) > SVG_MAX_TEXT) {
            snprintf(field, sizeof field, "col_labels[%zu]", i);
            return svg_check_text(p->col_labels[i], field, err);
        }
    }
    return 0;
}

static int usable(double v)
{
    return isfinite(v) && fabs(v) <= 1e150;
}

static const char *label_of(const char *const *labels, size_t i, char *tmp, size_t tmpsz)
{
    if (labels != NULL && labels[i] != NULL)
        return labels[i];
    snprintf(tmp, tmpsz, "%zu", i);
    return tmp;
}

static size_t max_label_chars(const char *const *labels, size_t n)
{
    size_t i, m = 0;
    char tmp[32];
    for (i = 0; i < n; i++) {
        size_t c = svg_utf8_chars(label_of(labels, i, tmp, sizeof tmp));
        if (c > m)
            m = c;
    }
    return m > 20 ? 20 : m;
}

/* Appends the runs of cells at one level as subpaths in cell units. */
static void level_path(struct buf *b, const unsigned char *lv, size_t nrows, size_t ncols,
                       unsigned char level)
{
    size_t r, c, run;
    for (r = 0; r < nrows; r++)
        for (c = 0; c < ncols; c += run) {
            run = 1;
            if (lv[r * ncols + c] != level)
                continue;
            while (c + run < ncols && lv[r * ncols + c + run] == level)
                run++;
            buf_printf(b, "M%zu %zuh%zuv1h-%zuz", c, r, run, run);
        }
}

/* Draws a validated heat map of at most SVG_MAX_HEAT x SVG_MAX_HEAT cells;
 * note (may be NULL) is added to <desc>. */
static int render(struct buf *out, const struct svg_heatmap *pin, const char *note,
                  struct err *err)
{
    struct svg_heatmap p;
    unsigned char *lv = NULL, used[LEVELS + 1];
    size_t start = out->len, i, n, rowch, colch, revery = 1, cevery = 1;
    double zmin = 0, zmax = 0, top, bottom, left, x0, x1, y0, y1, cw, chh, colw;
    int have = 0, rc = -1, rotate = 0, l;
    char tmp[32], desc[512], title[SVG_MAX_TEXT + 24];

    p = *pin;
    if (p.width == 0)
        p.width = DEFAULT_W;
    if (p.height == 0)
        p.height = DEFAULT_H;
    n = p.nrows * p.ncols;

    lv = xmalloc(n);
    if (lv == NULL) {
        err_nomem(err);
        goto out;
    }
    for (i = 0; i < n; i++) {
        double v = p.values[i];
        if (!usable(v))
            continue;
        if (!have || v < zmin)
            zmin = v;
        if (!have || v > zmax)
            zmax = v;
        have = 1;
    }
    memset(used, 0, sizeof used);
    for (i = 0; i < n; i++) {
        double v = p.values[i];
        int level;
        if (!usable(v)) {
            lv[i] = MISSING;
            used[LEVELS] = 1;
            continue;
        }
        /* one value everywhere: the scale's middle, but 0 everywhere (a
         * trace without messages) its bottom, as nothing */
        level = zmax > zmin ? (int)((v - zmin) / (zmax - zmin) * LEVELS)
                : zmax == 0 ? 0
                            : LEVELS / 2;
        if (level >= LEVELS)
            level = LEVELS - 1;
        if (level < 0)
            level = 0;
        lv[i] = (unsigned char)level;
        used[level] = 1;
    }

    /* Layout: row labels left, column labels below, colour bar right. */
    rowch = max_label_chars(p.row_labels, p.nrows);
    colch = max_label_chars(p.col_labels, p.ncols);
    top = (p.title != NULL && *p.title) ? 40 : 16;
    left = 12 + ((p.ylabel != NULL && *p.ylabel) ? 20 : 0) +
           svg_text_width(rowch, SVG_FS_SMALL) + 6;
    x0 = left;
    x1 = p.width - 130;
    cw = (x1 - x0) / p.ncols;
    colw = svg_text_width(colch, SVG_FS_SMALL);
    if (colw + 4 > cw)
        rotate = 1;
    while ((rotate ? 13.0 : colw + 4) > cw * cevery)
        cevery++;
    bottom = 14 + (rotate ? colw * 0.72 + 10 : 18) +
             ((p.xlabel != NULL && *p.xlabel) ? 20 : 0);
    if (bottom > p.height * 0.35)
        bottom = p.height * 0.35;
    y0 = top;
    y1 = p.height - bottom;
    chh = (y1 - y0) / p.nrows;
    while (13.0 > chh * revery)
        revery++;

    snprintf(desc, sizeof desc,
             "Prophecy heat map: %zu rows by %zu columns; values from %.6g to %.6g in %d "
             "colour levels%s%s",
             p.nrows, p.ncols, zmin, zmax, LEVELS,
             used[LEVELS] ? "; grey cells have no data" : "", note ? note : "");
    /* every cell 0: said in the title, as the eye reads no colour scale of
     * one value */
    if (have && zmin == 0 && zmax == 0 && !used[LEVELS] && p.title != NULL && *p.title) {
        snprintf(title, sizeof title, "%.*s (every cell is 0)", (int)sizeof title - 24,
                 p.title);
        p.title = title;
    }
    svg_begin(out, p.width, p.height, p.title, desc);
    svg_title(out, p.width, p.title);

    buf_puts(out,
             "<g class=\"cells\" shape-rendering=\"crispEdges\" transform=\"translate(");
    svg_num(out, x0);
    buf_putc(out, ' ');
    svg_num(out, y0);
    /* Scale with more precision than coordinates: it is multiplied by up to
     * 256 cells. */
    buf_printf(out, ") scale(%.5f %.5f)\">\n", cw, chh);
    for (l = 0; l <= LEVELS; l++) {
        if (!used[l])
            continue;
        buf_puts(out, "<path fill=\"");
        if (l == LEVELS) {
            buf_puts(out, MISSING_FILL);
        } else {
            unsigned char rgb[3];
            svg_cmap((l + 0.5) / LEVELS, rgb);
            svg_rgb(out, rgb);
        }
        buf_puts(out, "\" d=\"");
        level_path(out, lv, p.nrows, p.ncols, l == LEVELS ? MISSING : (unsigned char)l);
        buf_puts(out, "\"/>\n");
    }
    buf_puts(out, "</g>\n<rect x=\"");
    svg_num(out, x0);
    buf_puts(out, "\" y=\"");
    svg_num(out, y0);
    buf_puts(out, "\" width=\"");
    svg_num(out, x1 - x0);
    buf_puts(out, "\" height=\"");
    svg_num(out, y1 - y0);
    buf_puts(out, "\" fill=\"none\" stroke=\"#444444\"/>\n");

    buf_printf(out, "<g font-size=\"%d\" fill=\"#333333\">\n", SVG_FS_SMALL);
    for (i = 0; i < p.nrows; i += revery)
        svg_label(out, x0 - 6, y0 + (i + 0.5) * chh + 4, "end", NULL,
                  label_of(p.row_labels, i, tmp, sizeof tmp), 20);
    for (i = 0; i < p.ncols; i += cevery) {
        double cx = x0 + (i + 0.5) * cw;
        const char *lab = label_of(p.col_labels, i, tmp, sizeof tmp);
        if (rotate) {
            char tr[80];
            snprintf(tr, sizeof tr, "transform=\"rotate(-45 %.2f %.2f)\"", cx + 3,
                     y1 + 12);
            svg_label(out, cx + 3, y1 + 12, "end", tr, lab, 20);
        } else {
            svg_label(out, cx, y1 + 15, "middle", NULL, lab, 20);
        }
    }
    buf_puts(out, "</g>\n");
    svg_axis_titles(out, x0, x1, y0, y1, p.height - 8, p.xlabel, p.ylabel);
    {
        /* The colour scale in one readable unit, named in its label. */
        double div = 1;
        char zt[SVG_MAX_TEXT + UNITS_MAX];
        const char *zl = p.zlabel;
        if (p.zunit != NULL && *p.zunit) {
            const char *u = units_pick(p.zunit, fmax(fabs(zmin), fabs(zmax)), &div);
            snprintf(zt, sizeof zt, "%s (%s)", zl && *zl ? zl : "value", u);
            zl = zt;
        }
        svg_colorbar(out, p.width - 110, y0, 16, y1 - y0, zmin / div, zmax / div, zl,
                     LEVELS);
    }
    svg_end(out);
    rc = 0;
out:
    xfree(lv);
    return svg_finish(out, start, rc, err);
}

/* ---- more rows or columns than cells can show --------------------------------- */

#define GROUP_LABEL 112 /* bytes of a "first–last" label */

/* The labels of n rows (columns) grouped into m: "first–last" or the one
 * label of a single row, into block (m * GROUP_LABEL bytes). */
static void group_labels(const char *const *labels, size_t n, size_t m, char *block,
                         const char **out)
{
    for (size_t g = 0; g < m; g++) {
        size_t i0 = g * n / m, i1 = (g + 1) * n / m;
        char *lab = block + g * GROUP_LABEL, a[32], b[32];
        const char *la = label_of(labels, i0, a, sizeof a);
        if (i1 - i0 == 1 && labels != NULL) {
            out[g] = la;
            continue;
        }
        if (i1 - i0 == 1) {
            snprintf(lab, GROUP_LABEL, "%s", la);
        } else {
            const char *lb = label_of(labels, i1 - 1, b, sizeof b);
            snprintf(lab, GROUP_LABEL, "%.*s\xe2\x80\x93%.*s",
                     (int)svg_utf8_prefix(la, 24), la, (int)svg_utf8_prefix(lb, 24), lb);
        }
        out[g] = lab;
    }
}

/* The heat map of p in at most SVG_MAX_HEAT x SVG_MAX_HEAT blocks of
 * consecutive rows and columns, each the mean of its finite values (none:
 * no data). */
static int reduce(struct buf *out, const struct svg_heatmap *p, struct err *err)
{
    size_t nr = p->nrows, nc = p->ncols;
    size_t mr = nr > SVG_MAX_HEAT ? SVG_MAX_HEAT : nr,
           mc = nc > SVG_MAX_HEAT ? SVG_MAX_HEAT : nc;
    double *v = xcalloc(mr * mc, sizeof *v);
    size_t *cnt = xcalloc(mr * mc, sizeof *cnt), *colg = xcalloc(nc, sizeof *colg);
    const char **rl = xcalloc(mr, sizeof *rl), **cl = xcalloc(mc, sizeof *cl);
    char *rb = xcalloc(mr, GROUP_LABEL), *cb = xcalloc(mc, GROUP_LABEL), note[160];
    struct svg_heatmap q = *p;
    int rc = -1;

    if (!v || !cnt || !colg || !rl || !cl || !rb || !cb) {
        err_nomem(err);
        goto out;
    }
    for (size_t g = 0; g < mc; g++)
        for (size_t c = g * nc / mc; c < (g + 1) * nc / mc; c++)
            colg[c] = g;
    if (p->values == NULL) {
        /* sparse: every cell counts (zeros are values), the given ones add */
        size_t *rowg = xcalloc(nr, sizeof *rowg);
        if (rowg == NULL) {
            err_nomem(err);
            goto out;
        }
        for (size_t g = 0; g < mr; g++)
            for (size_t r = g * nr / mr; r < (g + 1) * nr / mr; r++)
                rowg[r] = g;
        for (size_t g = 0; g < mr; g++)
            for (size_t h = 0; h < mc; h++)
                cnt[g * mc + h] =
                    ((g + 1) * nr / mr - g * nr / mr) * ((h + 1) * nc / mc - h * nc / mc);
        for (size_t i = 0; i < p->ncells; i++) {
            const struct svg_cell *c = &p->cells[i];
            size_t at = rowg[c->row] * mc + colg[c->col];
            if (usable(c->value))
                v[at] += c->value;
            else if (cnt[at] > 0)
                cnt[at]--; /* as a dense matrix's "no data" cell */
        }
        xfree(rowg);
    }
    for (size_t g = 0; p->values != NULL && g < mr; g++)
        for (size_t r = g * nr / mr; r < (g + 1) * nr / mr; r++)
            for (size_t c = 0; c < nc; c++) {
                double x = p->values[r * nc + c];
                if (usable(x)) {
                    v[g * mc + colg[c]] += x;
                    cnt[g * mc + colg[c]]++;
                }
            }
    for (size_t i = 0; i < mr * mc; i++)
        v[i] = cnt[i] ? v[i] / (double)cnt[i] : NAN;
    group_labels(p->row_labels, nr, mr, rb, rl);
    group_labels(p->col_labels, nc, mc, cb, cl);
    snprintf(
        note, sizeof note,
        "; %zu x %zu values drawn in blocks of up to %zu x %zu, each the mean of its "
        "values",
        nr, nc, (nr + mr - 1) / mr, (nc + mc - 1) / mc);
    q.nrows = mr;
    q.ncols = mc;
    q.row_labels = rl;
    q.col_labels = cl;
    q.values = v;
    rc = render(out, &q, note, err);
out:
    xfree(v);
    xfree(cnt);
    xfree(colg);
    xfree(rl);
    xfree(cl);
    xfree(rb);
    xfree(cb);
    return rc;
}

int svg_heatmap(struct buf *out, const struct svg_heatmap *p, struct err *err)
{
    if (buf_failed(out))
        return err_set(err, ERR_INTERNAL, "internal", NULL,
                       "output buffer already failed");
    if (validate(p, err) != 0)
        return -1;
    if (p->nrows > SVG_MAX_HEAT || p->ncols > SVG_MAX_HEAT)
        return reduce(out, p, err);
    if (p->values == NULL) {
        /* small enough to hold: the dense matrix of the cells */
        struct svg_heatmap q = *p;
        double *v = xcalloc(p->nrows * p->ncols, sizeof *v);
        int rc;
        if (v == NULL)
            return err_nomem(err);
        for (size_t i = 0; i < p->ncells; i++)
            v[p->cells[i].row * p->ncols + p->cells[i].col] += p->cells[i].value;
        q.values = v;
        rc = render(out, &q, NULL, err);
        xfree(v);
        return rc;
    }
    return render(out, p, NULL, err);
}
