/* view_app_plots: the scaling section and the kernel breakdown of an
 * application's page (view_app.c): runtime over processors with the speedup
 * and parallel efficiency it implies, runtime over each input, and the
 * kernel times of the largest processor series (else of the latest
 * configurations) as stacked bars. Everything is drawn from the
 * configuration summaries and the kernel records the adapter read for
 * view_app_kernel_runs' runs. */
#include "web/svg.h"
#include "web/view.h"
#include "web/view_app_priv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SERIES 8       /* series per scaling plot */
#define MAX_INPUT_PLOTS 6  /* inputs that get a plot */
#define MAX_INPUT_NAMES 32 /* distinct input names considered */
#define MAX_BARS VIEW_APP_MAX_BARS

/* ---- inputs of a configuration ---------------------------------------------- */

struct cfg {
    const struct view_config *c;
    json_t *inputs; /* object name -> number */
};

static double input_of(const struct cfg *c, const char *name, int *has)
{
    json_t *v = json_object_get(c->inputs, name);
    *has = json_is_number(v);
    return *has ? json_number_value(v) : 0;
}

/* "N=1000, L=1024" for the inputs of c except `skip` (plain text: plot
 * labels are escaped by the SVG renderer). */
static void inputs_text(struct buf *b, const struct cfg *c, const char *skip)
{
    const char *key;
    json_t *v;
    int first = 1;
    json_object_foreach(c->inputs, key, v)
    {
        if (skip && strcmp(key, skip) == 0)
            continue;
        buf_printf(b, "%s%s=%.6g", first ? "" : ", ", key, json_number_value(v));
        first = 0;
    }
}

/* The configurations of v with their inputs parsed (free with cfgs_free). */
static struct cfg *cfgs_new(arena *a, const struct view_config *c, int nc)
{
    struct cfg *cfgs = arena_alloc(a, ((size_t)nc + 1) * sizeof *cfgs);
    int i;
    if (cfgs == NULL)
        return NULL;
    for (i = 0; i < nc; i++) {
        cfgs[i].c = &c[i];
        cfgs[i].inputs = json_loads(c[i].inputs_json, 0, NULL);
        if (!json_is_object(cfgs[i].inputs)) {
            json_decref(cfgs[i].inputs);
            cfgs[i].inputs = json_object();
        }
    }
    return cfgs;
}

static void cfgs_free(struct cfg *cfgs, int nc)
{
    int i;
    for (i = 0; cfgs && i < nc; i++)
        json_decref(cfgs[i].inputs);
}

/* ---- scaling plots --------------------------------------------------------------- */

struct group {
    size_t first, n; /* members in the sorted index array */
    long long runs;
};

static int cmp_group_runs(const void *a, const void *b)
{
    const struct group *x = a, *y = b;
    return x->runs < y->runs ? 1 : x->runs > y->runs ? -1 : 0;
}

struct member {
    const char *key;
    double x;
    size_t cfg;
};

static int cmp_member(const void *a, const void *b)
{
    const struct member *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    if (c)
        return c;
    return x->x < y->x ? -1 : x->x > y->x ? 1 : 0;
}

/* The series of members m sorted by key then x: each key with two or more x
 * values, the most runs first. Returns their number (0 on out of memory). */
static size_t find_groups(arena *a, const struct cfg *cfgs, const struct member *m,
                          size_t nm, struct group **out)
{
    struct group *groups = arena_alloc(a, (nm + 1) * sizeof *groups);
    size_t ng = 0, i, j;
    *out = groups;
    if (groups == NULL)
        return 0;
    for (i = 0; i < nm; i = j) {
        long long runs = 0;
        for (j = i; j < nm && strcmp(m[j].key, m[i].key) == 0; j++)
            runs += cfgs[m[j].cfg].c->runs;
        if (j - i >= 2) {
            groups[ng].first = i;
            groups[ng].n = j - i;
            groups[ng].runs = runs;
            ng++;
        }
    }
    qsort(groups, ng, sizeof *groups, cmp_group_runs);
    return ng;
}

/* What a scaling plot shows of each configuration's mean runtime T(P). With
 * P0 the smallest processor count of a series, the speedup is
 * S(P) = P0 * T(P0) / T(P) (so that perfect scaling is S = P for every series,
 * one ideal line) and the efficiency E(P) = S(P) / P (ideal 1). */
enum plot_kind { PLOT_RUNTIME, PLOT_SPEEDUP, PLOT_EFFICIENCY };

/* Renders one scaling plot over `xname` from members sorted by key then x:
 * each key with two or more x values is a series (the largest MAX_SERIES by
 * runs). Returns 1 when a plot was drawn, 0 when no key had two points.
 * best (may be NULL) gets the members of the largest series. Speedup and
 * efficiency are over processors only. */
static int scaling_plot(struct page *p, arena *a, const struct view_app *v,
                        const struct cfg *cfgs, struct member *m, size_t nm,
                        const char *xname, const char *xlabel, struct group *best,
                        enum plot_kind kind)
{
    struct group *groups;
    struct svg_series *series;
    struct svg_curve *curves;
    struct svg_plot2d plot = {0};
    size_t ng = 0, i, k, ns;
    double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
    struct buf label;
    struct err e = {0};
    char title[160], cap[200];

    ng = find_groups(a, cfgs, m, nm, &groups);
    if (ng == 0)
        return 0;
    ns = ng < MAX_SERIES ? ng : MAX_SERIES;
    if (best)
        *best = groups[0];
    series = arena_alloc(a, ns * sizeof *series);
    curves = arena_alloc(a, (ns + 1) * sizeof *curves);
    if (series == NULL || curves == NULL)
        return 0;
    buf_init(&label, 1 << 16);
    for (k = 0; k < ns; k++) {
        const struct group *g = &groups[k];
        struct svg_point *pts = arena_alloc(a, g->n * sizeof *pts);
        double *cx = arena_alloc(a, g->n * sizeof *cx),
               *cy = arena_alloc(a, g->n * sizeof *cy);
        const struct cfg *c0 = &cfgs[m[g->first].cfg];
        /* the series' base: its smallest x (members are sorted by x) */
        double x0 = m[g->first].x, t0 = c0->c->sum_runtime / (double)c0->c->timed;
        const char *lbl;
        if (pts == NULL || cx == NULL || cy == NULL) {
            buf_free(&label);
            return 0;
        }
        for (i = 0; i < g->n; i++) {
            const struct view_config *c = cfgs[m[g->first + i].cfg].c;
            double t = c->sum_runtime / (double)c->timed, x = m[g->first + i].x;
            pts[i].x = cx[i] = x;
            if (kind == PLOT_RUNTIME) {
                pts[i].y = cy[i] = t;
                pts[i].has_err = c->timed > 1 && c->max_runtime > c->min_runtime;
                pts[i].ymin = c->min_runtime;
                pts[i].ymax = c->max_runtime;
            } else {
                /* derived from means: no spread is drawn */
                double sp = t > 0 ? x0 * t0 / t : NAN;
                pts[i].y = cy[i] = kind == PLOT_SPEEDUP ? sp : sp / x;
                pts[i].has_err = 0;
            }
            xmin = fmin(xmin, x);
            xmax = fmax(xmax, x);
            ymin = fmin(ymin, pts[i].has_err ? pts[i].ymin : pts[i].y);
            ymax = fmax(ymax, pts[i].has_err ? pts[i].ymax : pts[i].y);
        }
        /* Label what tells the series apart: executable and system when the
         * application has several, then the fixed variables. */
        buf_reset(&label);
        if (v->many_exe)
            buf_printf(&label, "%s ", c0->c->executable);
        if (v->many_sys)
            buf_printf(&label, "%s%s ", v->many_exe ? "on " : "", c0->c->system);
        if (strcmp(xname, "nprocs") != 0)
            buf_printf(&label, "P=%lld%s", c0->c->nprocs,
                       json_object_size(c0->inputs) > 1 ? ", " : "");
        inputs_text(&label, c0, strcmp(xname, "nprocs") == 0 ? NULL : xname);
        lbl = arena_strdup(a, buf_str(&label));
        series[k].label = lbl && *lbl ? lbl : "runs";
        series[k].points = pts;
        series[k].n = g->n;
        series[k].color = (int)k + 1;
        curves[k].label = NULL;
        curves[k].x = cx;
        curves[k].y = cy;
        curves[k].n = g->n;
        curves[k].color = (int)k + 1;
    }
    buf_free(&label);
    plot.ncurves = ns;
    if (kind != PLOT_RUNTIME) {
        /* the ideal: S = P, E = 1; dashed (all of it lies past x_fit_max) */
        double *ix = arena_alloc(a, 2 * sizeof *ix), *iy = arena_alloc(a, 2 * sizeof *iy);
        if (ix == NULL || iy == NULL)
            return 0;
        ix[0] = xmin;
        ix[1] = xmax;
        iy[0] = kind == PLOT_SPEEDUP ? xmin : 1;
        iy[1] = kind == PLOT_SPEEDUP ? xmax : 1;
        curves[ns].label = "ideal";
        curves[ns].x = ix;
        curves[ns].y = iy;
        curves[ns].n = 2;
        curves[ns].has_fit_max = 1;
        curves[ns].x_fit_max = xmin;
        curves[ns].color = (int)ns + 1;
        plot.ncurves = ns + 1;
        ymin = fmin(ymin, iy[0]);
        ymax = fmax(ymax, iy[1]);
    }
    switch (kind) {
    case PLOT_RUNTIME:
        snprintf(title, sizeof title, "Runtime over %.100s", xlabel);
        plot.ylabel = "runtime, mean with min-max of repeated runs";
        plot.yunit = "s";
        break;
    case PLOT_SPEEDUP:
        snprintf(title, sizeof title, "Speedup over %.100s", xlabel);
        plot.ylabel = "speedup P0·T(P0)/T(P), ideal = P";
        break;
    case PLOT_EFFICIENCY:
        snprintf(title, sizeof title, "Parallel efficiency over %.100s", xlabel);
        plot.ylabel = "efficiency P0·T(P0)/(P·T(P)), ideal = 1";
        break;
    }
    plot.title = title;
    plot.xlabel = xlabel;
    /* ?axes=: automatic (log where the data spans decades), or as asked */
    if (v->axes == 1) {
        plot.xscale = plot.yscale = SVG_LINEAR;
    } else if (v->axes == 2) {
        plot.xscale = plot.yscale = SVG_LOG10;
        if (kind == PLOT_EFFICIENCY)
            plot.yscale = SVG_LINEAR; /* a ratio near 1: decades say nothing */
    } else {
        plot.xscale = svg_scale_for(xmin, xmax, SVG_SPAN_X);
        plot.yscale = kind == PLOT_RUNTIME   ? svg_scale_for(ymin, ymax, SVG_SPAN_Y)
                      : kind == PLOT_SPEEDUP ? plot.xscale
                                             : SVG_LINEAR;
    }
    plot.series = series;
    plot.nseries = ns;
    plot.curves = curves;
    plot.width = 760;
    plot.height = 480;
    if (ng > ns)
        snprintf(cap, sizeof cap,
                 "The %zu series with the most runs of %zu; filter by executable or "
                 "system to see others.",
                 ns, ng);
    else if (kind == PLOT_RUNTIME)
        snprintf(cap, sizeof cap, "%zu series; each point is the mean of its runs.", ns);
    else
        snprintf(cap, sizeof cap,
                 "%zu series, from the mean runtimes; P0 is each series' smallest "
                 "processor count, the dashed line perfect scaling.",
                 ns);
    if (page_plot2d(p, &plot, 0, cap, &e) == 0)
        return 1;
    page_puts(p, "<p class=\"notice bad\">This plot could not be drawn: ");
    page_text(p, e.message);
    page_puts(p, "</p>\n");
    return 0;
}

/* Builds the member array for the plot over xname ("nprocs" or an input):
 * key = executable, system, the other variables; x = the variable. */
static size_t members(arena *a, const struct cfg *cfgs, size_t n, const char *xname,
                      struct member *m)
{
    size_t i, nm = 0;
    int nprocs = strcmp(xname, "nprocs") == 0;
    struct buf key;
    buf_init(&key, 1 << 16);
    for (i = 0; i < n; i++) {
        const struct view_config *c = cfgs[i].c;
        const char *k;
        json_t *val;
        int has = 1;
        double x = nprocs ? (double)c->nprocs : input_of(&cfgs[i], xname, &has);
        if (!has || c->timed == 0) /* no runtime to plot (SPEC §16) */
            continue;
        buf_reset(&key);
        /* Names hold no control characters, so \x1f cannot collide. */
        buf_printf(&key, "%lld\x1f%lld\x1f", c->exe_id, c->system_id);
        if (!nprocs)
            buf_printf(&key, "%lld\x1f", c->nprocs);
        json_object_foreach(cfgs[i].inputs, k, val)
        {
            if (!nprocs && strcmp(k, xname) == 0)
                continue;
            buf_printf(&key, "%s\x1f%.17g\x1f", k, json_number_value(val));
        }
        m[nm].key = arena_strdup(a, buf_str(&key));
        if (m[nm].key == NULL)
            break;
        m[nm].x = x;
        m[nm].cfg = i;
        nm++;
    }
    buf_free(&key);
    qsort(m, nm, sizeof *m, cmp_member);
    return nm;
}

/* ---- kernel breakdown -------------------------------------------------------------- */

/* Configuration order for bars that are not one processor series: by
 * executable, system, each input by value (not by its JSON text, where
 * "1000" sorts before "200"), then processors. */
static int cmp_cfg_ptr(const void *pa, const void *pb)
{
    const struct cfg *a = *(const struct cfg *const *)pa,
                     *b = *(const struct cfg *const *)pb;
    const char *k;
    json_t *va;
    int c = strcmp(a->c->executable, b->c->executable);
    if (c == 0)
        c = strcmp(a->c->system, b->c->system);
    if (c)
        return c;
    json_object_foreach(a->inputs, k, va)
    {
        json_t *vb = json_object_get(b->inputs, k);
        double x, y;
        if (vb == NULL)
            return 1; /* b lacks an input a has: b first */
        x = json_number_value(va);
        y = json_number_value(vb);
        if (x != y)
            return x < y ? -1 : 1;
    }
    if (json_object_size(a->inputs) != json_object_size(b->inputs))
        return json_object_size(a->inputs) < json_object_size(b->inputs) ? -1 : 1;
    return a->c->nprocs < b->c->nprocs ? -1 : a->c->nprocs > b->c->nprocs ? 1 : 0;
}

/* The bar label of a configuration: what tells it apart from the others. */
static const char *cfg_label(arena *a, const struct view_app *v, const struct cfg *c)
{
    struct buf b;
    const char *out;
    buf_init(&b, 4096);
    if (v->many_exe)
        buf_printf(&b, "%s ", c->c->executable);
    if (v->many_sys)
        buf_printf(&b, "%s%s ", v->many_exe ? "on " : "", c->c->system);
    buf_printf(&b, "P=%lld%s", c->c->nprocs, json_object_size(c->inputs) ? ", " : "");
    inputs_text(&b, c, NULL);
    out = buf_failed(&b) ? NULL : arena_strdup(a, buf_str(&b));
    buf_free(&b);
    return out ? out : "";
}

/* One kernel record of a bar: its name's column comes from sorting. */
struct krec {
    const char *name;
    size_t bar;
    double time;
};

static int cmp_krec(const void *a, const void *b)
{
    return strcmp(((const struct krec *)a)->name, ((const struct krec *)b)->name);
}

/* The kernel records ks ([{run_id, name, time}], of more runs than the bars
 * show) of the bars' runs, one component per kernel name (the chart shows
 * the largest and sums the rest as "other"). */
static void kernel_breakdown(struct page *p, json_t *ks, const long long *run_ids,
                             const char **cats, size_t nbars, const char *subtitle)
{
    struct err e = {0};
    json_t *k;
    const char **comps;
    struct krec *recs;
    size_t ncomp = 0, i, c, nk = 0;
    double *values;

    recs = arena_alloc(p->arena, (json_array_size(ks) + 1) * sizeof *recs);
    if (recs == NULL)
        return;
    json_array_foreach(ks, i, k)
    {
        const char *name = json_string_value(json_object_get(k, "name"));
        long long rid = json_integer_value(json_object_get(k, "run_id"));
        json_t *t = json_object_get(k, "time");
        size_t bar;
        if (name == NULL || !json_is_number(t))
            continue; /* a kernel without a time (SPEC §16) is no part of a bar */
        for (bar = 0; bar < nbars && run_ids[bar] != rid; bar++)
            ;
        if (bar == nbars)
            continue; /* a run of the other candidate list */
        recs[nk].name = name;
        recs[nk].bar = bar;
        recs[nk].time = json_number_value(t);
        nk++;
    }
    if (nk == 0)
        return;
    qsort(recs, nk, sizeof *recs, cmp_krec);
    comps = arena_alloc(p->arena, nk * sizeof *comps);
    if (comps == NULL)
        return;
    for (i = 0; i < nk; i++)
        if (ncomp == 0 || strcmp(comps[ncomp - 1], recs[i].name) != 0)
            comps[ncomp++] = recs[i].name;
    values = arena_alloc(p->arena, nbars * ncomp * sizeof *values);
    if (values == NULL)
        return;
    memset(values, 0, nbars * ncomp * sizeof *values);
    for (i = 0, c = 0; i < nk; i++) {
        size_t bar;
        if (i > 0 && strcmp(recs[i - 1].name, recs[i].name) != 0)
            c++;
        /* the same run may stand for several bars */
        for (bar = 0; bar < nbars; bar++)
            if (run_ids[bar] == run_ids[recs[i].bar])
                values[bar * ncomp + c] += recs[i].time;
    }
    {
        struct svg_stacked s = {0};
        char title[200];
        snprintf(title, sizeof title, "Kernel times, latest run per configuration");
        s.title = title;
        s.xlabel = subtitle;
        s.ylabel = "time";
        s.yunit = "s";
        s.categories = cats;
        s.ncategories = nbars;
        s.components = comps;
        s.ncomponents = ncomp;
        s.values = values;
        s.colors = page_colors(p, comps, ncomp);
        page_puts(p, "<h2 id=\"kernels\">Kernel breakdown</h2>\n");
        if (page_stacked(p, &s, 0,
                         "Each bar is the latest run of one configuration; the run "
                         "pages list every kernel record.",
                         &e) != 0) {
            page_puts(p, "<p class=\"notice bad\">");
            page_text(p, e.message);
            page_puts(p, "</p>\n");
        }
    }
}

#define MAX_CONFIG_BARS 40 /* configurations in the runtime bar chart */

static double mean_runtime(const struct cfg *c)
{
    return c->c->timed > 0 ? c->c->sum_runtime / (double)c->c->timed : NAN;
}

/* Slowest first, then in configuration order. */
static int cmp_cfg_runtime(const void *pa, const void *pb)
{
    double x = mean_runtime(*(const struct cfg *const *)pa),
           y = mean_runtime(*(const struct cfg *const *)pb);
    if (x != y)
        return x > y ? -1 : 1;
    return cmp_cfg_ptr(pa, pb);
}

/* Without a scaling series (a suite of benchmarks, each its own executable):
 * the mean runtime of each configuration as a bar, slowest first, on a log
 * axis when they span decades. Returns 1 when drawn. */
static int config_bars(struct page *p, arena *a, const struct view_app *v,
                       const struct cfg *cfgs, int nc)
{
    const struct cfg **pick = arena_alloc(a, ((size_t)nc + 1) * sizeof *pick);
    const char **cats;
    static const char *const comps[1] = {"mean runtime"};
    double *vals, lo = INFINITY, hi = 0;
    size_t n = 0, shown, i;
    struct svg_stacked s = {0};
    struct err e = {0};
    char cap[200];

    if (pick == NULL)
        return 0;
    for (i = 0; i < (size_t)nc; i++)
        if (isfinite(mean_runtime(&cfgs[i])) && mean_runtime(&cfgs[i]) > 0)
            pick[n++] = &cfgs[i];
    if (n < 2)
        return 0;
    qsort(pick, n, sizeof *pick, cmp_cfg_runtime);
    shown = n < MAX_CONFIG_BARS ? n : MAX_CONFIG_BARS;
    cats = arena_alloc(a, shown * sizeof *cats);
    vals = arena_alloc(a, shown * sizeof *vals);
    if (cats == NULL || vals == NULL)
        return 0;
    for (i = 0; i < shown; i++) {
        cats[i] = cfg_label(a, v, pick[i]);
        vals[i] = mean_runtime(pick[i]);
        lo = fmin(lo, vals[i]);
        hi = fmax(hi, vals[i]);
    }
    s.title = "Mean runtime per configuration";
    s.ylabel = "runtime";
    s.yunit = "s";
    s.categories = cats;
    s.ncategories = shown;
    s.components = comps;
    s.ncomponents = 1;
    s.values = vals;
    s.yscale = hi / lo >= 100 ? SVG_LOG10 : SVG_LINEAR;
    if (shown < n)
        snprintf(cap, sizeof cap,
                 "The %zu slowest of %zu configurations, each the mean of its runs.",
                 shown, n);
    else
        snprintf(cap, sizeof cap, "%zu configuration%s, each the mean of its runs.", n,
                 n == 1 ? "" : "s");
    /* the narrow drawing taller: room for the long rotated category labels */
    return page_stacked(p, &s, PAGE_NARROW_H + 80, cap, &e) == 0;
}

/* Marks in `in` the configurations of the series a scaling plot over m draws. */
static void mark_series(arena *a, const struct cfg *cfgs, const struct member *m,
                        size_t nm, char *in)
{
    struct group *g;
    size_t ng = find_groups(a, cfgs, m, nm, &g), i, k;
    for (i = 0; i < ng && i < MAX_SERIES; i++)
        for (k = 0; k < g[i].n; k++)
            in[m[g[i].first + k].cfg] = 1;
}

void view_app_scaling(struct page *p, const struct view_app *v)
{
    arena *a = p->arena;
    int nc = v->nconfigs;
    struct cfg *cfgs = cfgs_new(a, v->configs, nc);
    struct member *m = arena_alloc(a, ((size_t)nc + 1) * sizeof *m);
    char *in = arena_alloc(a, (size_t)nc + 1); /* in a plotted series */
    const char *names[MAX_INPUT_NAMES];
    size_t nnames = 0, i, j, nm, plotted = 0;
    int any = 0;
    char xlabel[160];

    if (cfgs == NULL || m == NULL || in == NULL) {
        cfgs_free(cfgs, nc);
        return;
    }
    for (i = 0; i < (size_t)nc; i++) {
        const char *key;
        json_t *val;
        json_object_foreach(cfgs[i].inputs, key, val)
        {
            for (j = 0; j < nnames && strcmp(names[j], key) != 0; j++)
                ;
            if (j == nnames && nnames < MAX_INPUT_NAMES)
                names[nnames++] = arena_strdup(a, key);
        }
    }
    page_puts(p, "<h2 id=\"scaling\">Scaling</h2>\n<p class=\"axes\" id=\"axes\">Axes: ");
    for (i = 0; i < 3; i++) {
        static const char *const names_shown[3] = {"automatic", "linear", "logarithmic"};
        page_puts(p, i ? " · <a href=\"" : "<a href=\"");
        view_app_href(p, v, v->sort, v->desc, (struct at){v->page, v->after, v->before},
                      (int)i, "#scaling");
        page_printf(p, "\" data-axes=\"%s\"%s>%s</a>", i ? view_app_axes[i] : "auto",
                    v->axes == (int)i ? " aria-current=\"true\"" : "", names_shown[i]);
    }
    page_puts(p, "</p>\n");
    if (v->truncated)
        page_printf(
            p,
            "<p class=\"muted\">This application has more than %d configurations; "
            "the plots use the first %d. Filter by executable or system to narrow "
            "them.</p>\n",
            VIEW_APP_MAX_CONFIGS, VIEW_APP_MAX_CONFIGS);
    page_puts(p, "<div class=\"plots\">\n");
    memset(in, 0, (size_t)nc + 1);
    nm = members(a, cfgs, (size_t)nc, "nprocs", m);
    if (scaling_plot(p, a, v, cfgs, m, nm, "nprocs", "processors", NULL, PLOT_RUNTIME)) {
        any = 1;
        mark_series(a, cfgs, m, nm, in);
        scaling_plot(p, a, v, cfgs, m, nm, "nprocs", "processors", NULL, PLOT_SPEEDUP);
        scaling_plot(p, a, v, cfgs, m, nm, "nprocs", "processors", NULL, PLOT_EFFICIENCY);
    }
    for (j = 0; j < nnames && j < MAX_INPUT_PLOTS; j++) {
        nm = members(a, cfgs, (size_t)nc, names[j], m);
        snprintf(xlabel, sizeof xlabel, "input %s", names[j]);
        if (scaling_plot(p, a, v, cfgs, m, nm, names[j], xlabel, NULL, PLOT_RUNTIME)) {
            any = 1;
            mark_series(a, cfgs, m, nm, in);
        }
    }
    /* A suite (benchmarks that differ by name, a few of them over an input):
     * the bars too when most configurations are in no plotted series. */
    for (i = 0; i < (size_t)nc; i++)
        plotted += in[i] != 0;
    if (!any || plotted * 2 < (size_t)nc)
        config_bars(p, a, v, cfgs, nc);
    page_puts(p, "</div>\n");
    if (!any)
        page_puts(p, "<p class=\"muted\">No scaling plot yet: a plot needs runs of one "
                     "executable on one system at two or more processor counts (or "
                     "input values) with everything else fixed.</p>\n");
    cfgs_free(cfgs, nc);
}

void view_app_breakdown(struct page *p, const struct view_app *v)
{
    arena *a = p->arena;
    int nc = v->nconfigs;
    struct cfg *cfgs = cfgs_new(a, v->configs, nc);
    struct member *m = arena_alloc(a, ((size_t)nc + 1) * sizeof *m);
    struct group *groups;
    long long ids[MAX_BARS];
    const char *cats[MAX_BARS];
    size_t nbars = 0, i, nm, ng;
    char sub[300];
    struct buf lb;

    if (cfgs == NULL || m == NULL) {
        cfgs_free(cfgs, nc);
        return;
    }
    /* The breakdown follows the largest processor series (the series of the
     * first scaling plot), as view_app_kernel_runs chose its runs. */
    nm = members(a, cfgs, (size_t)nc, "nprocs", m);
    ng = find_groups(a, cfgs, m, nm, &groups);
    buf_init(&lb, 4096);
    if (ng > 0) {
        const struct group *best = &groups[0];
        const struct cfg *c0 = &cfgs[m[best->first].cfg];
        for (i = 0; i < best->n && nbars < MAX_BARS; i++) {
            const struct cfg *x = &cfgs[m[best->first + i].cfg];
            ids[nbars] = x->c->last_run_id;
            cats[nbars] = arena_printf(a, "P=%lld", x->c->nprocs);
            nbars++;
        }
        buf_printf(&lb, "%s on %s", c0->c->executable, c0->c->system);
        if (json_object_size(c0->inputs) > 0) {
            buf_puts(&lb, ", ");
            inputs_text(&lb, c0, NULL);
        }
    } else {
        /* No processor series: the last configurations (those whose kernel
         * records view_app_kernel_runs asked for), each bar labelled by its
         * configuration, in configuration order. */
        const struct cfg *pick[MAX_BARS];
        size_t np = 0;
        for (i = (size_t)nc; i > 0 && np < MAX_BARS; i--)
            pick[np++] = &cfgs[i - 1];
        qsort(pick, np, sizeof *pick, cmp_cfg_ptr);
        for (i = 0; i < np; i++) {
            ids[nbars] = pick[i]->c->last_run_id;
            cats[nbars] = cfg_label(a, v, pick[i]);
            nbars++;
        }
        buf_puts(&lb, "latest run of each configuration");
    }
    snprintf(sub, sizeof sub, "%s", buf_failed(&lb) ? "" : buf_str(&lb));
    buf_free(&lb);
    if (nbars > 0)
        kernel_breakdown(p, v->kernels, ids, cats, nbars, sub);
    cfgs_free(cfgs, nc);
}

size_t view_app_kernel_runs(arena *a, const struct view_config *c, int nc, long long *ids)
{
    struct cfg *cfgs = cfgs_new(a, c, nc);
    struct member *m = arena_alloc(a, ((size_t)nc + 1) * sizeof *m);
    struct group *groups;
    size_t n = 0, i, nm, ng;
    if (cfgs == NULL || m == NULL) {
        cfgs_free(cfgs, nc);
        return 0;
    }
    /* the largest processor series (when its plot is drawn) ... */
    nm = members(a, cfgs, (size_t)nc, "nprocs", m);
    ng = find_groups(a, cfgs, m, nm, &groups);
    for (i = 0; ng > 0 && i < groups[0].n && n < VIEW_APP_MAX_BARS; i++)
        ids[n++] = cfgs[m[groups[0].first + i].cfg].c->last_run_id;
    /* ... else the most recent configurations */
    for (i = (size_t)nc;
         i > 0 && n < 2 * VIEW_APP_MAX_BARS && i + VIEW_APP_MAX_BARS > (size_t)nc; i--)
        ids[n++] = cfgs[i - 1].c->last_run_id;
    cfgs_free(cfgs, nc);
    return n;
}
