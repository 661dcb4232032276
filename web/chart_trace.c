/* chart_trace: trace analyses → SVG (see chart_trace.h). Bars and matrices go
 * through svg_stacked and svg_heatmap; the Gantt chart is drawn here with the
 * renderer's own helpers, so every chart shares its fonts, escaping and
 * number formatting. */
#include "web/chart_trace.h"

#include "common/err.h"
#include "common/xalloc.h"
#include "web/svg.h"
#include "web/svg_priv.h"
#include "common/units.h"

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

const char *chart_trace_lane(long long mpi_calls)
{
    return mpi_calls > 0 ? "rank" : "thread";
}

/* The lane noun of a chart: "rank" unless the caller says otherwise. */
static const char *lane_of(const char *lane)
{
    return lane != NULL ? lane : "rank";
}

/* Whether a chart's lanes are threads: a trace without MPI calls. */
static int of_threads(const char *lane)
{
    return strcmp(lane_of(lane), "rank") != 0;
}

const char *chart_trace_compute(const char *lane)
{
    return of_threads(lane) ? "outside any event" : "compute";
}

/* A class's name in a chart whose lanes are `lane` (NULL: ranks). */
static const char *class_label(int c, const char *const *names, const char *lane)
{
    const char *n =
        c == TRACE_CLASS_COMPUTE ? chart_trace_compute(lane) : trace_class_name(c);
    return n ? n : names ? names[c - TRACE_CLASS_USER] : "state";
}

/* ---- colours -----------------------------------------------------------------
 * A trace's classes keep one colour each in all its charts (timeline,
 * profile of states, occupancy), and no colour stands for two classes: up
 * to SVG_PALETTE_SIZE classes, class c is palette colour c (as always);
 * beyond, the classes some lane was in, most time first (equal times: the
 * lower class), keep a colour while there are colours — all of them when
 * they fit, else the first SVG_PALETTE_SIZE - 1 — and the rest are drawn in
 * one grey, named "other" in the legends. A kept class below
 * SVG_PALETTE_SIZE keeps colour c; the others take the colours left, in
 * class order. The time is every analysis' time per class (trace.h), the
 * same to the last bit, so every chart makes the same choice. */
/* web/svg_bars.c's "other": grey, apart from the palette */
#define OTHER_FILL "#b8b8b8"

struct plan {
    int nc;
    int *color; /* [class] palette colour, or -1: "other" */
    int *order; /* the classes with time, most first */
    int nlive;  /* how many have time */
    int nother; /* of them, drawn as "other" */
};

struct by_time {
    double t;
    int c;
};

static int most_time(const void *a, const void *b)
{
    const struct by_time *x = a, *y = b;
    if (x->t != y->t)
        return x->t > y->t ? -1 : 1;
    return x->c - y->c;
}

static void plan_free(struct plan *pl)
{
    xfree(pl->color);
    xfree(pl->order);
}

/* Fills pl for nc classes that took time[c] seconds. 0, or -1 out of memory. */
static int plan_colors(const double *time, int nc, struct plan *pl)
{
    struct by_time *bt = xcalloc(nc > 0 ? (size_t)nc : 1, sizeof *bt);
    int used[SVG_PALETTE_SIZE] = {0}, keep;

    memset(pl, 0, sizeof *pl);
    pl->nc = nc;
    pl->color = xcalloc(nc > 0 ? (size_t)nc : 1, sizeof *pl->color);
    pl->order = xcalloc(nc > 0 ? (size_t)nc : 1, sizeof *pl->order);
    if (bt == NULL || pl->color == NULL || pl->order == NULL) {
        xfree(bt);
        plan_free(pl);
        return -1;
    }
    for (int c = 0; c < nc; c++)
        if (time[c] > 0)
            bt[pl->nlive++] = (struct by_time){time[c], c};
    qsort(bt, (size_t)pl->nlive, sizeof *bt, most_time);
    for (int i = 0; i < pl->nlive; i++)
        pl->order[i] = bt[i].c;
    xfree(bt);
    if (nc <= SVG_PALETTE_SIZE) {
        for (int c = 0; c < nc; c++)
            pl->color[c] = c;
        return 0;
    }
    keep = pl->nlive <= SVG_PALETTE_SIZE ? pl->nlive : SVG_PALETTE_SIZE - 1;
    pl->nother = pl->nlive - keep;
    for (int c = 0; c < nc; c++)
        pl->color[c] = -1;
    for (int i = 0; i < keep; i++)
        if (pl->order[i] < SVG_PALETTE_SIZE)
            used[pl->color[pl->order[i]] = pl->order[i]] = 1;
    for (int c = SVG_PALETTE_SIZE; c < nc; c++) {
        int kept = 0, slot = 0;
        for (int i = 0; i < keep && !kept; i++)
            kept = pl->order[i] == c;
        if (!kept)
            continue;
        while (used[slot])
            slot++;
        used[pl->color[c] = slot] = 1;
    }
    return 0;
}

static const char *plan_fill(const struct plan *pl, int c)
{
    return pl->color[c] >= 0 ? svg_palette((size_t)pl->color[c]) : OTHER_FILL;
}

static int cmp_class(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* The legend's name of the grey: "other (N more)". */
static void other_label(const struct plan *pl, char *s, size_t n)
{
    snprintf(s, n, "other (%d more)", pl->nother);
}

/* Stacked bars of a trace's classes with time, each in its colour, most
 * time first (by_class: in class order, as an MPI trace's occupancy always
 * was), then "other" summing the rest: v[r * nc + c] seconds of lane r in
 * class c (nc = pl->nc, nbars lanes), values of one bar when nbars is 1. s
 * gets components, colours and values; the caller frees *comps, *cols and
 * *vals (xfree). 0, or -1 out of memory. */
static int plan_stack(const struct plan *pl, int by_class, const double *v, size_t nbars,
                      const char *const *names, const char *lane, char *other,
                      size_t other_n, const char ***comps, int **cols, double **vals,
                      struct svg_stacked *s)
{
    int kept = pl->nlive - pl->nother, n = kept + (pl->nother > 0);
    size_t m = n > 0 ? (size_t)n : 1;
    int *live = xcalloc((size_t)pl->nlive + 1, sizeof *live);

    *comps = xcalloc(m, sizeof **comps);
    *cols = xcalloc(m, sizeof **cols);
    *vals = xcalloc(nbars * m, sizeof **vals);
    if (live == NULL || *comps == NULL || *cols == NULL || *vals == NULL) {
        xfree(live);
        return -1;
    }
    memcpy(live, pl->order, (size_t)pl->nlive * sizeof *live);
    if (by_class)
        qsort(live, (size_t)pl->nlive, sizeof *live, cmp_class);
    for (int i = 0, k = 0; i < pl->nlive; i++) {
        int c = live[i], at = pl->color[c] >= 0 ? k++ : kept;
        if (at < kept) {
            (*comps)[at] = class_label(c, names, lane);
            (*cols)[at] = pl->color[c];
        }
        for (size_t r = 0; r < nbars; r++) {
            double x = v[r * (size_t)pl->nc + (size_t)c];
            (*vals)[r * m + (size_t)at] += x > 0 ? x : 0;
        }
    }
    xfree(live);
    if (pl->nother > 0) {
        other_label(pl, other, other_n);
        (*comps)[kept] = other;
        (*cols)[kept] = -1;
        s->other = 1;
    }
    if (n == 0) { /* no lane was in any class: one empty component */
        (*comps)[0] = class_label(TRACE_CLASS_COMPUTE, names, lane);
        n = 1;
    }
    s->components = *comps;
    s->ncomponents = (size_t)n;
    s->colors = *cols;
    s->values = *vals;
    return 0;
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
    char *block = NULL, title[64], other[48];
    double *total = NULL, *v = NULL;
    int *cols = NULL, rc = -1;
    size_t nc = p->nclasses > 0 ? (size_t)p->nclasses : 0;
    struct plan pl = {0};
    struct svg_stacked s = {0};

    if (rank_labels(p->nranks, &cats, &block, err) < 0)
        return -1;
    /* each class in its timeline colour (the plan of the classes' time,
     * summed over the lanes as the timeline sums it), most time first */
    total = xcalloc(nc > 0 ? nc : 1, sizeof *total);
    if (total == NULL) {
        err_nomem(err);
        goto out;
    }
    for (int r = 0; r < p->nranks; r++)
        for (size_t c = 0; c < nc; c++)
            total[c] += p->cls[(size_t)r * nc + c];
    if (plan_colors(total, (int)nc, &pl) < 0 ||
        plan_stack(&pl, 0, p->cls, (size_t)p->nranks, names, lane, other, sizeof other,
                   &comps, &cols, &v, &s) < 0) {
        err_nomem(err);
        goto out;
    }
    snprintf(title, sizeof title, "Time per state per %s", lane_of(lane));
    s.title = title;
    s.xlabel = lane_of(lane);
    s.ylabel = "time";
    s.yunit = "s";
    s.categories = cats;
    s.ncategories = (size_t)p->nranks;
    s.width = width;
    s.height = height;
    rc = svg_stacked(out, &s, err);
out:
    plan_free(&pl);
    xfree(total);
    xfree(v);
    xfree(cols);
    xfree(comps);
    xfree(cats);
    xfree(block);
    return rc;
}

int chart_trace_load(struct buf *out, const struct trace_load *l, int width, int height,
                     struct err *err)
{
    static const char *const comps[2] = {"compute", "communication"};
    /* without MPI calls there is no communication, and "compute" (not in
     * an MPI call) is all of a thread's time */
    static const char *const alone[1] = {"execution"};
    int mpi = l->mpi_calls > 0;
    size_t nk = mpi ? 2 : 1;
    const char **cats = NULL;
    char *block = NULL, title[128];
    double *v;
    int rc = -1;
    struct svg_stacked s = {0};

    if (rank_labels(l->nranks, &cats, &block, err) < 0)
        return -1;
    v = xcalloc((size_t)l->nranks * nk, sizeof *v);
    if (v == NULL) {
        err_nomem(err);
        goto out;
    }
    for (int r = 0; r < l->nranks; r++) {
        v[nk * (size_t)r] = l->compute[r] > 0 ? l->compute[r] : 0;
        if (mpi)
            v[nk * (size_t)r + 1] = l->comm[r];
    }
    if (mpi)
        snprintf(title, sizeof title,
                 "Load: compute imbalance %.2f, communication %.2f (max/mean)",
                 l->compute_imbalance, l->comm_imbalance);
    else
        snprintf(title, sizeof title,
                 "Load: execution time per thread, imbalance %.2f (max/mean)",
                 l->compute_imbalance);
    s.title = title;
    s.xlabel = mpi ? "rank" : "thread";
    s.ylabel = "time";
    s.yunit = "s";
    s.categories = cats;
    s.ncategories = (size_t)l->nranks;
    s.components = mpi ? comps : alone;
    s.ncomponents = nk;
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
    const char **comps = NULL;
    double *vals = NULL;
    int *colors = NULL;
    static const char *const cat[1] = {"mean node"};
    char other[48];
    struct plan pl = {0};
    struct svg_stacked s = {0};
    int rc = -1;

    s.title = "Mean node occupancy per state (Lyon)";
    s.ylabel = "time";
    s.yunit = "s";
    s.categories = cat;
    s.ncategories = 1;
    s.width = width;
    s.height = height;
    if (o->time != NULL) {
        /* the classes in their timeline colours (threads' most time first,
         * as their profile; ranks' in class order, as always) */
        if (plan_colors(o->time, o->nclasses, &pl) < 0 ||
            plan_stack(&pl, !of_threads(lane), o->mean, 1, names, lane, other,
                       sizeof other, &comps, &colors, &vals, &s) < 0) {
            err_nomem(err);
            goto out;
        }
        rc = svg_stacked(out, &s, err);
        goto out;
    }
    comps = xcalloc(nc, sizeof *comps);
    vals = xcalloc(nc, sizeof *vals);
    colors = xcalloc(nc, sizeof *colors);
    if (comps == NULL || vals == NULL || colors == NULL) {
        err_nomem(err);
        goto out;
    }
    /* (An occupancy made by hand, without time.) The states some rank was
     * in: a real trace defines every MPI routine
     * (Score-P: 189 regions) and enters a few; all of them when none was.
     * An MPI trace's bars keep the renderer's order of colours. */
    for (int c = 0; c < o->nclasses; c++)
        if (o->mean[c] != 0) {
            colors[n] = c;
            comps[n] = class_label(c, names, lane);
            vals[n++] = o->mean[c];
        }
    if (n == 0)
        for (int c = 0; c < o->nclasses; c++) {
            colors[n] = c;
            comps[n] = class_label(c, names, lane);
            vals[n++] = o->mean[c];
        }
    if (of_threads(lane))
        s.colors = colors;
    s.components = comps;
    s.ncomponents = n;
    s.values = vals;
    rc = svg_stacked(out, &s, err);
out:
    plan_free(&pl);
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
 * MPI classes are never drawn): the classes with time in their colours,
 * most time first, then "other" (the plan above), in columns of
 * GANTT_KEY_W px. */
#define GANTT_KEY_W 160

/* The time of each class of tl: its own, or in a timeline made by hand the
 * pixels of the rows drawn (rows of tl, evenly spaced). xfree it; NULL out
 * of memory. */
static double *class_time(const struct trace_timeline *tl, int ncls, int rows)
{
    double *t = xcalloc(ncls > 0 ? (size_t)ncls : 1, sizeof *t);
    if (t == NULL)
        return NULL;
    if (tl->time != NULL && tl->nclasses == ncls) {
        memcpy(t, tl->time, (size_t)ncls * sizeof *t);
        return t;
    }
    for (int i = 0; i < rows; i++) {
        int r = (int)((long long)i * tl->nranks / rows);
        const int16_t *row = &tl->cls[(size_t)r * (size_t)tl->width];
        for (int x = 0; x < tl->width; x++)
            if (row[x] >= 0 && row[x] < ncls)
                t[row[x]]++;
    }
    return t;
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

/* The colour key of pixel class c (-1: the rank had ended), to merge runs. */
static int fill_key(const struct plan *pl, int c)
{
    return c < 0 || c >= pl->nc ? -2 : pl->color[c];
}

int chart_trace_timeline(struct buf *out, const struct trace_timeline *tl,
                         const char *const *names, int nnames, const char *lane,
                         struct err *err)
{
    size_t start = out->len;
    int ncls = TRACE_CLASS_USER + nnames;
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
    int threads = of_threads(lane);
    /* the legend's entries: classes (-1: "other") and their slots' width */
    int *key = NULL, nkey = 0, per = 1, slot = 90, chars = 10;
    double *time = NULL;
    struct plan pl = {0};
    char desc[160], title[64], other[48];

    if (buf_failed(out))
        return err_set(err, ERR_INTERNAL, "internal", NULL,
                       "output buffer already failed");
    time = class_time(tl, ncls, rows);
    key = xcalloc((size_t)ncls + 1, sizeof *key);
    if (time == NULL || key == NULL || plan_colors(time, ncls, &pl) < 0) {
        xfree(time);
        xfree(key);
        return err_nomem(err);
    }
    xfree(time);
    if (threads) {
        /* the classes with time, most first; the grey last */
        for (int i = 0; i < pl.nlive; i++)
            if (pl.color[pl.order[i]] >= 0)
                key[nkey++] = pl.order[i];
        slot = GANTT_KEY_W;
        chars = 17;
        if (w < GANTT_LEFT + 2 * GANTT_KEY_W + 20) /* room for the title */
            w = GANTT_LEFT + 2 * GANTT_KEY_W + 20;
    } else if (ncls <= SVG_PALETTE_SIZE) {
        for (int c = 0; c < ncls; c++) /* every class, as it always was */
            key[nkey++] = c;
    } else {
        for (int c = 0; c < ncls; c++) /* the classes kept, in class order */
            if (pl.color[c] >= 0)
                key[nkey++] = c;
        slot = 130; /* room for the states' names ("MPI_Comm_rank") */
        chars = 16;
    }
    if (pl.nother > 0)
        key[nkey++] = -1;
    /* room for the legend ("other (N more)" is wider than a slot) */
    if (!threads && w < GANTT_LEFT + slot * nkey + 20 + (pl.nother > 0 ? 40 : 0))
        w = GANTT_LEFT + slot * nkey + 20 + (pl.nother > 0 ? 40 : 0);
    if (threads) {
        int nrows;
        per = (w - GANTT_LEFT - 20) / GANTT_KEY_W;
        if (per < 1)
            per = 1;
        nrows = (nkey + per - 1) / per;
        h += (nrows > 1 ? nrows - 1 : 0) * GANTT_LEGEND;
    } else {
        per = nkey > 0 ? nkey : 1;
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
            /* one run per colour: neighbouring classes of "other" alike */
            while (x1 < tl->width && fill_key(&pl, row[x1]) == fill_key(&pl, row[x]))
                x1++;
            if (row[x] >= 0 && row[x] < ncls) {
                buf_puts(out, "<rect x=\"");
                svg_num(out, GANTT_LEFT + x * sx);
                buf_puts(out, "\" y=\"");
                svg_num(out, y);
                buf_puts(out, "\" width=\"");
                svg_num(out, (x1 - x) * sx);
                buf_printf(out, "\" height=\"%d\" fill=\"%s\"/>\n", GANTT_ROW - 2,
                           plan_fill(&pl, row[x]));
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
        other_label(&pl, other, sizeof other);
        for (int i = 0; i < nkey; i++) {
            double x = GANTT_LEFT + (i % per) * slot, yy = y + (i / per) * GANTT_LEGEND;
            if (key[i] < 0) /* the grey: its own width, past the slots */
                key_entry(out, x, yy, OTHER_FILL, other, threads ? chars : 16);
            else
                key_entry(out, x, yy, plan_fill(&pl, key[i]),
                          class_label(key[i], names, lane), chars);
        }
    }
    xfree(key);
    plan_free(&pl);
    svg_end(out);
    return svg_finish(out, start, 0, err);
}

/* The name of clustering dimension d (see struct trace_clusters). */
static const char *dim_name(int d, const char *const *names, const char *lane)
{
    if (d < TRACE_OP_COUNT - 1)
        return trace_op_name(d + 1);
    return class_label(d - (TRACE_OP_COUNT - 1), names, lane);
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
                          dim_name(c->dims[i], names, lane), 20);
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
