/* chart_trace: trace analyses → SVG (see chart_trace.h). Bars and matrices go
 * through svg_stacked and svg_heatmap; the Gantt chart is drawn here with the
 * renderer's own helpers, so every chart shares its fonts, escaping and
 * number formatting. */
#include "web/chart_trace.h"

#include "common/err.h"
#include "common/xalloc.h"
#include "web/svg.h"
#include "web/svg_priv.h"
#include "web/units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LABEL 24 /* bytes of a "rank 4095" label */

/* p labels "0" .. "p-1" in one block: labels[i] points into it. xfree both. */
static int rank_labels(int p, const char ***labels, char **block, struct err *err)
{
    *labels = xcalloc((size_t)p, sizeof **labels);
    *block = xcalloc((size_t)p, LABEL);
    if (*labels == NULL || *block == NULL) {
        xfree(*labels);
        xfree(*block);
        return err_nomem(err);
    }
    for (int i = 0; i < p; i++) {
        snprintf(*block + (size_t)i * LABEL, LABEL, "%d", i);
        (*labels)[i] = *block + (size_t)i * LABEL;
    }
    return 0;
}

static const char *class_label(int c, const char *const *names)
{
    const char *n = trace_class_name(c);
    return n ? n : names ? names[c - TRACE_CLASS_USER] : "state";
}

const char *chart_trace_lane(long long mpi_calls)
{
    return mpi_calls > 0 ? "rank" : "thread";
}

/* The lane noun of a chart: "rank" unless the caller says otherwise. */
static const char *lane_of(const char *lane)
{
    return lane != NULL ? lane : "rank";
}

int chart_trace_profile(struct buf *out, const struct trace_profile *p, int width,
                        int height, struct err *err)
{
    const char **cats = NULL, *comps[TRACE_OP_COUNT];
    char *block = NULL;
    double *v = NULL;
    int ops[TRACE_OP_COUNT], nops = 0, rc = -1;
    struct svg_stacked s = {0};

    for (int op = 1; op < TRACE_OP_COUNT; op++) {
        int used = 0;
        for (int r = 0; r < p->nranks; r++)
            used |= p->calls[(size_t)r * TRACE_OP_COUNT + (size_t)op] > 0;
        if (used)
            ops[nops++] = op;
    }
    if (rank_labels(p->nranks, &cats, &block, err) < 0)
        return -1;
    v = xcalloc((size_t)p->nranks * (size_t)(nops + 1), sizeof *v);
    if (v == NULL) {
        err_nomem(err);
        goto out;
    }
    comps[0] = "compute";
    for (int k = 0; k < nops; k++)
        comps[k + 1] = trace_op_name(ops[k]);
    for (int r = 0; r < p->nranks; r++) {
        double *row = &v[(size_t)r * (size_t)(nops + 1)];
        row[0] = p->compute[r] > 0 ? p->compute[r] : 0;
        for (int k = 0; k < nops; k++)
            row[k + 1] = p->time[(size_t)r * TRACE_OP_COUNT + (size_t)ops[k]];
    }
    s.title = "Time per routine per rank";
    s.xlabel = "rank";
    s.ylabel = "time";
    s.yunit = "s";
    s.categories = cats;
    s.ncategories = (size_t)p->nranks;
    s.components = comps;
    s.ncomponents = (size_t)nops + 1;
    s.values = v;
    s.width = width;
    s.height = height;
    rc = svg_stacked(out, &s, err);
out:
    xfree(v);
    xfree(cats);
    xfree(block);
    return rc;
}

int chart_trace_states(struct buf *out, const struct trace_profile *p,
                       const char *const *names, const char *lane, int width, int height,
                       struct err *err)
{
    const char **cats = NULL, **comps = NULL;
    char *block = NULL, title[64];
    double *v = NULL;
    int *colors = NULL;
    size_t nc = p->nclasses > 0 ? (size_t)p->nclasses : 1;
    int rc = -1;
    struct svg_stacked s = {0};

    if (rank_labels(p->nranks, &cats, &block, err) < 0)
        return -1;
    comps = xcalloc(nc, sizeof *comps);
    colors = xcalloc(nc, sizeof *colors);
    v = xcalloc((size_t)p->nranks * nc, sizeof *v);
    if (comps == NULL || colors == NULL || v == NULL) {
        err_nomem(err);
        goto out;
    }
    /* every class, in its timeline colour: those no lane was in are left
     * out by the renderer, and beyond its top ones the rest is "other" */
    for (size_t c = 0; c < nc; c++) {
        comps[c] = p->nclasses > 0 ? class_label((int)c, names) : "compute";
        colors[c] = (int)c;
    }
    for (int r = 0; p->nclasses > 0 && r < p->nranks; r++)
        for (size_t c = 0; c < nc; c++) {
            double x = p->cls[(size_t)r * nc + c];
            v[(size_t)r * nc + c] = x > 0 ? x : 0;
        }
    snprintf(title, sizeof title, "Time per state per %s", lane_of(lane));
    s.title = title;
    s.xlabel = lane_of(lane);
    s.ylabel = "time";
    s.yunit = "s";
    s.categories = cats;
    s.ncategories = (size_t)p->nranks;
    s.components = comps;
    s.ncomponents = nc;
    s.colors = colors;
    s.values = v;
    s.width = width;
    s.height = height;
    rc = svg_stacked(out, &s, err);
out:
    xfree(v);
    xfree(colors);
    xfree(comps);
    xfree(cats);
    xfree(block);
    return rc;
}

int chart_trace_load(struct buf *out, const struct trace_load *l, int width, int height,
                     struct err *err)
{
    static const char *const comps[2] = {"compute", "communication"};
    const char **cats = NULL;
    char *block = NULL, title[128];
    double *v;
    int rc = -1;
    struct svg_stacked s = {0};

    if (rank_labels(l->nranks, &cats, &block, err) < 0)
        return -1;
    v = xcalloc((size_t)l->nranks * 2, sizeof *v);
    if (v == NULL) {
        err_nomem(err);
        goto out;
    }
    for (int r = 0; r < l->nranks; r++) {
        v[2 * r] = l->compute[r] > 0 ? l->compute[r] : 0;
        v[2 * r + 1] = l->comm[r];
    }
    snprintf(title, sizeof title,
             "Load: compute imbalance %.2f, communication %.2f (max/mean)",
             l->compute_imbalance, l->comm_imbalance);
    s.title = title;
    s.xlabel = "rank";
    s.ylabel = "time";
    s.yunit = "s";
    s.categories = cats;
    s.ncategories = (size_t)l->nranks;
    s.components = comps;
    s.ncomponents = 2;
    s.values = v;
    s.width = width;
    s.height = height;
    rc = svg_stacked(out, &s, err);
out:
    xfree(v);
    xfree(cats);
    xfree(block);
    return rc;
}

/* A p x p matrix given by its nonzero cells (svg_heatmap draws it as the
 * dense one, in blocks over SVG_MAX_HEAT ranks). */
static int matrix(struct buf *out, int p, const struct svg_cell *cells, size_t ncells,
                  const char *title, const char *zlabel, const char *zunit, int width,
                  int height, struct err *err)
{
    const char **labels = NULL;
    char *block = NULL;
    struct svg_heatmap h = {0};
    int rc;

    if (rank_labels(p, &labels, &block, err) < 0)
        return -1;
    h.title = title;
    h.xlabel = "rank j";
    h.ylabel = "rank i";
    h.zlabel = zlabel;
    h.zunit = zunit;
    h.row_labels = labels;
    h.col_labels = labels;
    h.nrows = h.ncols = (size_t)p;
    h.cells = cells;
    h.ncells = ncells;
    h.width = width;
    h.height = height;
    rc = svg_heatmap(out, &h, err);
    xfree(labels);
    xfree(block);
    return rc;
}

int chart_trace_wait(struct buf *out, const struct trace_wait *w, int width, int height,
                     struct err *err)
{
    struct svg_cell *c = xmalloc((w->npairs ? w->npairs : 1) * sizeof *c);
    int rc;

    if (c == NULL)
        return err_nomem(err);
    for (size_t k = 0; k < w->npairs; k++)
        c[k] = (struct svg_cell){(size_t)w->pairs[k].i, (size_t)w->pairs[k].j,
                                 w->pairs[k].s};
    rc = matrix(out, w->nranks, c, w->npairs, "Wait time: rank i waited for rank j",
                "wait", "s", width, height, err);
    xfree(c);
    return rc;
}

int chart_trace_traffic(struct buf *out, const struct trace_traffic *tr, int width,
                        int height, struct err *err)
{
    struct svg_cell *c = xmalloc((tr->np2p ? tr->np2p : 1) * sizeof *c);
    int rc;

    if (c == NULL)
        return err_nomem(err);
    for (size_t k = 0; k < tr->np2p; k++)
        c[k] = (struct svg_cell){(size_t)tr->p2p[k].i, (size_t)tr->p2p[k].j,
                                 (double)tr->p2p[k].bytes};
    rc =
        matrix(out, tr->nranks, c, tr->np2p, "Point-to-point bytes from rank i to rank j",
               "sent", "B", width, height, err);
    xfree(c);
    return rc;
}

int chart_trace_occupancy(struct buf *out, const struct trace_occupancy *o,
                          const char *const *names, const char *lane, int width,
                          int height, struct err *err)
{
    size_t nc = o->nclasses > 0 ? (size_t)o->nclasses : 1, n = 0;
    const char **comps = xcalloc(nc, sizeof *comps);
    double *vals = xcalloc(nc, sizeof *vals);
    int *colors = xcalloc(nc, sizeof *colors);
    static const char *const cat[1] = {"mean node"};
    struct svg_stacked s = {0};
    int rc;

    if (comps == NULL || vals == NULL || colors == NULL) {
        xfree(comps);
        xfree(vals);
        xfree(colors);
        return err_nomem(err);
    }
    /* The states some rank was in: a real trace defines every MPI routine
     * (Score-P: 189 regions) and enters a few; all of them when none was. */
    for (int c = 0; c < o->nclasses; c++)
        if (o->mean[c] != 0) {
            colors[n] = c;
            comps[n] = class_label(c, names);
            vals[n++] = o->mean[c];
        }
    if (n == 0)
        for (int c = 0; c < o->nclasses; c++) {
            colors[n] = c;
            comps[n] = class_label(c, names);
            vals[n++] = o->mean[c];
        }
    /* threads' states in their timeline colours, as their profile; an MPI
     * trace's bars keep the renderer's order of colours */
    if (strcmp(lane_of(lane), "rank") != 0)
        s.colors = colors;
    s.title = "Mean node occupancy per state (Lyon)";
    s.ylabel = "time";
    s.yunit = "s";
    s.categories = cat;
    s.ncategories = 1;
    s.components = comps;
    s.ncomponents = n;
    s.values = vals;
    s.width = width;
    s.height = height;
    rc = svg_stacked(out, &s, err);
    xfree(comps);
    xfree(vals);
    xfree(colors);
    return rc;
}

#define GANTT_LEFT 60
#define GANTT_TOP 40
#define GANTT_ROW 14
#define GANTT_LEGEND 24
#define GANTT_MAX_W (SVG_MAX_SIZE - GANTT_LEFT - 20) /* px of the widest timeline */

/* The legend of a timeline of threads (a trace without MPI calls, whose
 * MPI classes are never drawn): the classes drawn, most pixels first, in
 * columns of GANTT_KEY_W px and at most GANTT_KEY_ROWS rows, the last
 * slot "… and N more" when they do not fit. */
#define GANTT_KEY_W 160
#define GANTT_KEY_ROWS 3

struct key {
    int *cls;      /* the classes drawn, most pixels first */
    int n, shown;  /* drawn; listed (the rest: one "and N more") */
    int per, rows; /* entries per row; rows */
};

struct px_count {
    long long px;
    int c;
};

static int by_px(const void *a, const void *b)
{
    const struct px_count *x = a, *y = b;
    if (x->px != y->px)
        return x->px > y->px ? -1 : 1;
    return x->c - y->c;
}

/* Fills k for the rows drawn (rows of tl, evenly spaced) in a chart w px
 * wide. 0, or -1 out of memory. */
static int thread_key(const struct trace_timeline *tl, int ncls, int rows, int w,
                      struct key *k)
{
    struct px_count *cnt = xcalloc((size_t)ncls, sizeof *cnt);
    int room;
    memset(k, 0, sizeof *k);
    k->cls = xcalloc((size_t)ncls, sizeof *k->cls);
    if (cnt == NULL || k->cls == NULL) {
        xfree(cnt);
        xfree(k->cls);
        k->cls = NULL;
        return -1;
    }
    for (int c = 0; c < ncls; c++)
        cnt[c].c = c;
    for (int i = 0; i < rows; i++) {
        int r = (int)((long long)i * tl->nranks / rows);
        const int16_t *row = &tl->cls[(size_t)r * (size_t)tl->width];
        for (int x = 0; x < tl->width; x++)
            if (row[x] >= 0 && row[x] < ncls)
                cnt[row[x]].px++;
    }
    qsort(cnt, (size_t)ncls, sizeof *cnt, by_px);
    while (k->n < ncls && cnt[k->n].px > 0) {
        k->cls[k->n] = cnt[k->n].c;
        k->n++;
    }
    xfree(cnt);
    k->per = (w - GANTT_LEFT - 20) / GANTT_KEY_W;
    if (k->per < 1)
        k->per = 1;
    room = k->per * GANTT_KEY_ROWS;
    k->shown = k->n <= room ? k->n : room - 1;
    k->rows = (k->shown + (k->shown < k->n) + k->per - 1) / k->per;
    if (k->rows < 1)
        k->rows = 1;
    return 0;
}

/* One legend entry: a swatch and its text, cut at `chars` characters. */
static void key_entry(struct buf *out, double x, double y, const char *fill,
                      const char *text, int chars)
{
    buf_puts(out, "<rect x=\"");
    svg_num(out, x);
    buf_puts(out, "\" y=\"");
    svg_num(out, y - 10);
    buf_printf(out, "\" width=\"10\" height=\"10\" fill=\"%s\"/>\n", fill);
    svg_label(out, x + 14, y, "start", NULL, text, chars);
}

int chart_trace_timeline(struct buf *out, const struct trace_timeline *tl,
                         const char *const *names, int nnames, const char *lane,
                         struct err *err)
{
    size_t start = out->len;
    int ncls = TRACE_CLASS_USER + nnames, shown = ncls < 12 ? ncls : 12;
    /* Over SVG_MAX_HEAT ranks, an evenly spaced sample of them, each row
     * labelled with its rank (a trace may have LIMIT_TRACE_RANKS). */
    int rows = tl->nranks < SVG_MAX_HEAT ? tl->nranks : SVG_MAX_HEAT;
    /* A timeline wider than a plot may be is drawn narrower: each of its
     * pixels sx wide. */
    int draw = tl->width < GANTT_MAX_W ? tl->width : GANTT_MAX_W;
    double sx = tl->width > 0 ? (double)draw / tl->width : 1;
    int w = draw + GANTT_LEFT + 20;
    int h = GANTT_TOP + rows * GANTT_ROW + 40 + GANTT_LEGEND;
    const char *ln = lane_of(lane);
    int threads = strcmp(ln, "rank") != 0;
    struct key key = {0};
    char desc[160], title[64];

    if (buf_failed(out))
        return err_set(err, ERR_INTERNAL, "internal", NULL,
                       "output buffer already failed");
    if (threads) {
        if (w < GANTT_LEFT + 2 * GANTT_KEY_W + 20) /* room for the title */
            w = GANTT_LEFT + 2 * GANTT_KEY_W + 20;
        if (thread_key(tl, ncls, rows, w, &key) < 0)
            return err_nomem(err);
        h += (key.rows - 1) * GANTT_LEGEND;
    } else if (w < GANTT_LEFT + 90 * shown + 20) { /* room for the legend and the title */
        w = GANTT_LEFT + 90 * shown + 20;
    }
    if (rows < tl->nranks)
        snprintf(desc, sizeof desc,
                 "Per-%s state timeline of %d of %d %ss (evenly spaced) over %.6g s", ln,
                 rows, tl->nranks, ln, tl->span);
    else
        snprintf(desc, sizeof desc, "Per-%s state timeline of %d %s%s over %.6g s", ln,
                 tl->nranks, ln, tl->nranks == 1 ? "" : "s", tl->span);
    if (rows < tl->nranks)
        snprintf(title, sizeof title, "Timeline: state of a sample of %ss", ln);
    else
        snprintf(title, sizeof title, "Timeline: state of each %s", ln);
    svg_begin(out, w, h, "Timeline", desc);
    svg_title(out, w, title);
    for (int i = 0; i < rows; i++) {
        int r = (int)((long long)i * tl->nranks / rows);
        const int16_t *row = &tl->cls[(size_t)r * (size_t)tl->width];
        char lab[LABEL];
        double y = GANTT_TOP + i * GANTT_ROW;
        snprintf(lab, sizeof lab, "%d", r);
        svg_label(out, GANTT_LEFT - 6, y + GANTT_ROW - 3, "end", NULL, lab, 8);
        for (int x = 0; x < tl->width;) {
            int x1 = x + 1;
            while (x1 < tl->width && row[x1] == row[x])
                x1++;
            if (row[x] >= 0) {
                buf_puts(out, "<rect x=\"");
                svg_num(out, GANTT_LEFT + x * sx);
                buf_puts(out, "\" y=\"");
                svg_num(out, y);
                buf_puts(out, "\" width=\"");
                svg_num(out, (x1 - x) * sx);
                buf_printf(out, "\" height=\"%d\" fill=\"%s\"/>\n", GANTT_ROW - 2,
                           svg_palette((size_t)row[x]));
            }
            x = x1;
        }
    }
    /* x axis: the span at both ends in a readable unit; legend */
    {
        char t[UNITS_MAX];
        double y = GANTT_TOP + rows * GANTT_ROW + 14;
        svg_label(out, GANTT_LEFT, y, "start", NULL, "0", 16);
        units_fmt(t, sizeof t, tl->span, "s");
        svg_label(out, GANTT_LEFT + draw, y, "end", NULL, t, 24);
        y += 22;
        if (threads) {
            for (int i = 0; i <= key.shown && i < key.n; i++) {
                double x = GANTT_LEFT + (i % key.per) * GANTT_KEY_W,
                       yy = y + (i / key.per) * GANTT_LEGEND;
                char more[64];
                if (i < key.shown) {
                    key_entry(out, x, yy, svg_palette((size_t)key.cls[i]),
                              class_label(key.cls[i], names), 17);
                    continue;
                }
                snprintf(more, sizeof more, "\xe2\x80\xa6 and %d more", key.n - i);
                svg_label(out, x, yy, "start", NULL, more, 24);
            }
        } else {
            for (int c = 0; c < shown; c++)
                key_entry(out, GANTT_LEFT + c * 90, y, svg_palette((size_t)c),
                          class_label(c, names), 10);
        }
    }
    xfree(key.cls);
    svg_end(out);
    return svg_finish(out, start, 0, err);
}

/* The name of clustering dimension d (see struct trace_clusters). */
static const char *dim_name(int d, const char *const *names)
{
    if (d < TRACE_OP_COUNT - 1)
        return trace_op_name(d + 1);
    return class_label(d - (TRACE_OP_COUNT - 1), names);
}

#define SPM_PANEL 150
#define SPM_GAP 10
#define SPM_TOP 60
#define SPM_POINTS 1024 /* ranks drawn per panel */

int chart_trace_clusters(struct buf *out, const struct trace_clusters *c,
                         const char *const *names, const char *lane, struct err *err)
{
    size_t start = out->len;
    int nd = c->ndims, side = nd > 1 ? nd : 1;
    int w = 40 + side * (SPM_PANEL + SPM_GAP),
        h = SPM_TOP + side * (SPM_PANEL + SPM_GAP) + 20;
    double lo[4] = {0}, hi[4] = {0};
    char title[128], desc[80], none[64];

    if (buf_failed(out))
        return err_set(err, ERR_INTERNAL, "internal", NULL,
                       "output buffer already failed");
    if (w < 400)
        w = 400;
    snprintf(title, sizeof title, "Clusters: k = %d, silhouette %.2f", c->k,
             c->silhouette);
    snprintf(desc, sizeof desc, "Scatterplot matrix of the %ss' main dimensions",
             lane_of(lane));
    snprintf(none, sizeof none, "fewer than two dimensions vary between %ss",
             lane_of(lane));
    svg_begin(out, w, h, title, desc);
    svg_title(out, w, title);
    if (nd < 2) {
        svg_label(out, w / 2.0, SPM_TOP + 40, "middle", NULL, none, 60);
        svg_end(out);
        return svg_finish(out, start, 0, err);
    }
    for (int a = 0; a < nd; a++)
        for (int r = 0; r < c->nranks; r++) {
            double v = c->x[(size_t)r * (size_t)c->ndims_all + (size_t)c->dims[a]];
            if (r == 0 || v < lo[a])
                lo[a] = v;
            if (r == 0 || v > hi[a])
                hi[a] = v;
        }
    for (int i = 0; i < nd; i++)       /* row: y dimension */
        for (int j = 0; j < nd; j++) { /* column: x dimension */
            double x0 = 20 + j * (SPM_PANEL + SPM_GAP),
                   y0 = SPM_TOP + i * (SPM_PANEL + SPM_GAP);
            buf_puts(out, "<rect x=\"");
            svg_num(out, x0);
            buf_puts(out, "\" y=\"");
            svg_num(out, y0);
            buf_printf(out,
                       "\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>\n",
                       SPM_PANEL, SPM_PANEL);
            if (i == j) {
                svg_label(out, x0 + SPM_PANEL / 2.0, y0 + SPM_PANEL / 2.0, "middle", NULL,
                          dim_name(c->dims[i], names), 20);
                continue;
            }
            /* At most SPM_POINTS ranks per panel: evenly spaced beyond. */
            for (int r = 0; r < c->nranks;
                 r += (c->nranks + SPM_POINTS - 1) / SPM_POINTS) {
                const double *x = &c->x[(size_t)r * (size_t)c->ndims_all];
                double u =
                    hi[j] > lo[j] ? (x[c->dims[j]] - lo[j]) / (hi[j] - lo[j]) : 0.5;
                double v =
                    hi[i] > lo[i] ? (x[c->dims[i]] - lo[i]) / (hi[i] - lo[i]) : 0.5;
                buf_puts(out, "<circle cx=\"");
                svg_num(out, x0 + 8 + u * (SPM_PANEL - 16));
                buf_puts(out, "\" cy=\"");
                svg_num(out, y0 + SPM_PANEL - 8 - v * (SPM_PANEL - 16));
                buf_printf(out, "\" r=\"3\" fill=\"%s\"/>\n",
                           svg_palette((size_t)c->label[r]));
            }
        }
    svg_end(out);
    return svg_finish(out, start, 0, err);
}
