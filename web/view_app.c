/* view_app: an application's page (/applications/{name}); see view.h.
 *
 * Executables, systems, scaling plots of runtime over processors (with the
 * speedup and parallel efficiency they imply) and over each input, the kernel
 * breakdown, and the runs table, sortable and paginated through query
 * parameters (?sort=runtime&dir=desc&page=2, plus ?executable= and ?system=
 * filters, ?axes=linear|log for the plots), so every link works without
 * JavaScript; the table's filtered runs also come as CSV (view_app_csv). Plots are built
 * from the configuration summaries (one row per executable, system, processors and
 * inputs; db/summary.h) and the table reads one page of runs: the page never loads all
 * runs. The adapter (server/dash_app.c) decodes the view state from the query and hands
 * the summaries, the page of runs and the kernel records of the runs the breakdown may
 * show (view_app_kernel_runs) to view_app.
 */
#include "web/svg.h"
#include "web/view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SERIES 8       /* series per scaling plot */
#define MAX_INPUT_PLOTS 6  /* inputs that get a plot */
#define MAX_INPUT_NAMES 32 /* distinct input names considered */
#define MAX_BARS VIEW_APP_MAX_BARS
#define NARROW_W 400 /* the phone drawing of each plot (page_svg_pair) */
#define NARROW_H 340

const char *const view_app_sorts[3] = {"run", "nprocs", "runtime"};
const char *const view_app_axes[3] = {"", "linear", "log"};
#define sort_names view_app_sorts

/* A page of the runs table: its number and the cursor it is read from
 * (after / before a run id; 0 = none: read by its number). */
struct at {
    long long page, after, before;
};

/* Writes the URL of this page with the view's filters, the given order,
 * page (with its cursor) and axes, omitting defaults, then `tail` (a
 * fragment, or "" ); '&' written as "&amp;" for an attribute. */
static void view_href(struct page *p, const struct view_app *v, int sort, int desc,
                      struct at at, int axes, const char *tail)
{
    const char *sep = "?";
    page_puts(p, "/applications/");
    page_url(p, v->name);
    if (v->exe) {
        page_printf(p, "%sexecutable=", sep);
        page_url(p, v->exe);
        sep = "&amp;";
    }
    if (v->sys) {
        page_printf(p, "%ssystem=", sep);
        page_url(p, v->sys);
        sep = "&amp;";
    }
    if (sort != 0) {
        page_printf(p, "%ssort=%s", sep, sort_names[sort]);
        sep = "&amp;";
    }
    if (desc != (sort == 0)) {
        page_printf(p, "%sdir=%s", sep, desc ? "desc" : "asc");
        sep = "&amp;";
    }
    if (at.page > 1) {
        page_printf(p, "%spage=%lld", sep, at.page);
        sep = "&amp;";
    }
    if (at.after > 0) {
        page_printf(p, "%safter=%lld", sep, at.after);
        sep = "&amp;";
    } else if (at.before > 0) {
        page_printf(p, "%sbefore=%lld", sep, at.before);
        sep = "&amp;";
    }
    if (axes > 0 && axes < 3)
        page_printf(p, "%saxes=%s", sep, view_app_axes[axes]);
    page_puts(p, tail);
}

/* A link of the runs table: the view's axes kept, landing at the table. */
static void view_url(struct page *p, const struct view_app *v, int sort, int desc,
                     struct at at)
{
    view_href(p, v, sort, desc, at, v->axes, "#runs");
}

/* The first page, and page n by its number alone. */
static struct at at_page(long long n)
{
    struct at at = {n, 0, 0};
    return at;
}

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
    struct buf svg, narrow, label;
    struct err e = {0};
    char title[160];
    int drawn = 0;

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
        double x0 = m[g->first].x, t0 = c0->c->sum_runtime / (double)c0->c->runs;
        const char *lbl;
        if (pts == NULL || cx == NULL || cy == NULL) {
            buf_free(&label);
            return 0;
        }
        for (i = 0; i < g->n; i++) {
            const struct view_config *c = cfgs[m[g->first + i].cfg].c;
            double t = c->sum_runtime / (double)c->runs, x = m[g->first + i].x;
            pts[i].x = cx[i] = x;
            if (kind == PLOT_RUNTIME) {
                pts[i].y = cy[i] = t;
                pts[i].has_err = c->runs > 1 && c->max_runtime > c->min_runtime;
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
        plot.ylabel = "runtime (s), mean with min-max of repeated runs";
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
        plot.xscale = xmin > 0 && xmax / xmin >= 16 ? SVG_LOG10 : SVG_LINEAR;
        plot.yscale = kind == PLOT_RUNTIME && ymin > 0 && ymax / ymin >= 100 ? SVG_LOG10
                      : kind == PLOT_SPEEDUP                                 ? plot.xscale
                                                                             : SVG_LINEAR;
    }
    plot.series = series;
    plot.nseries = ns;
    plot.curves = curves;
    plot.width = 760;
    plot.height = 480;
    buf_init(&svg, 8u << 20);
    buf_init(&narrow, 8u << 20);
    if (svg_plot2d(&svg, &plot, &e) == 0) {
        struct svg_plot2d small = plot;
        struct err e2 = {0};
        small.width = NARROW_W;
        small.height = NARROW_H;
        char cap[200];
        if (ng > ns)
            snprintf(cap, sizeof cap,
                     "The %zu series with the most runs of %zu; filter by executable or "
                     "system to see others.",
                     ns, ng);
        else if (kind == PLOT_RUNTIME)
            snprintf(cap, sizeof cap, "%zu series; each point is the mean of its runs.",
                     ns);
        else
            snprintf(cap, sizeof cap,
                     "%zu series, from the mean runtimes; P0 is each series' smallest "
                     "processor count, the dashed line perfect scaling.",
                     ns);
        if (svg_plot2d(&narrow, &small, &e2) == 0)
            page_svg_pair(p, &svg, &narrow, cap);
        else
            page_svg(p, &svg, cap);
        drawn = 1;
    } else {
        page_puts(p, "<p class=\"notice bad\">This plot could not be drawn: ");
        page_text(p, e.message);
        page_puts(p, "</p>\n");
    }
    buf_free(&svg);
    buf_free(&narrow);
    return drawn;
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
        if (!has)
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

/* The kernel records ks ([{run_id, name, time}], of more runs than the bars
 * show) of the bars' runs. */
static void kernel_breakdown(struct page *p, json_t *ks, const long long *run_ids,
                             const char **cats, size_t nbars, const char *subtitle)
{
    struct err e = {0};
    struct buf svg, narrow;
    json_t *k;
    const char *comps[SVG_MAX_COMPONENTS];
    size_t ncomp = 0, i, c, other = (size_t)-1, nk = 0;
    double *values;

    json_array_foreach(ks, i, k)
    {
        long long rid = json_integer_value(json_object_get(k, "run_id"));
        size_t bar;
        for (bar = 0; bar < nbars && run_ids[bar] != rid; bar++)
            ;
        nk += bar < nbars;
    }
    if (nk == 0)
        return;
    values = arena_alloc(p->arena, nbars * SVG_MAX_COMPONENTS * sizeof *values);
    if (values == NULL)
        return;
    json_array_foreach(ks, i, k)
    {
        const char *name = json_string_value(json_object_get(k, "name"));
        long long rid = json_integer_value(json_object_get(k, "run_id"));
        size_t bar;
        if (name == NULL)
            continue;
        for (bar = 0; bar < nbars && run_ids[bar] != rid; bar++)
            ;
        if (bar == nbars)
            continue; /* a run of the other candidate list */
        for (c = 0; c < ncomp && strcmp(comps[c], name) != 0; c++)
            ;
        if (c == ncomp) {
            if (ncomp < SVG_MAX_COMPONENTS - 1) {
                comps[ncomp] = arena_strdup(p->arena, name);
                ncomp++;
            } else {
                if (other == (size_t)-1) {
                    other = ncomp;
                    comps[ncomp++] = "other kernels";
                }
                c = other;
            }
        }
        for (bar = 0; bar < nbars; bar++)
            if (run_ids[bar] == rid)
                values[bar * SVG_MAX_COMPONENTS + c] +=
                    json_number_value(json_object_get(k, "time"));
    }
    /* Compact the value matrix to ncomp columns. */
    for (i = 0; i < nbars; i++)
        for (c = 0; c < ncomp; c++)
            values[i * ncomp + c] = values[i * SVG_MAX_COMPONENTS + c];
    {
        struct svg_stacked s = {0};
        char title[200];
        snprintf(title, sizeof title, "Kernel times, latest run per configuration");
        s.title = title;
        s.xlabel = subtitle;
        s.ylabel = "time (s)";
        s.categories = cats;
        s.ncategories = nbars;
        s.components = comps;
        s.ncomponents = ncomp;
        s.values = values;
        buf_init(&svg, 8u << 20);
        buf_init(&narrow, 8u << 20);
        page_puts(p, "<h2 id=\"kernels\">Kernel breakdown</h2>\n");
        if (svg_stacked(&svg, &s, &e) == 0) {
            static const char cap[] =
                "Each bar is the latest run of one configuration; the run pages list "
                "every kernel record.";
            struct svg_stacked small = s;
            struct err e2 = {0};
            small.width = NARROW_W;
            small.height = NARROW_H;
            if (svg_stacked(&narrow, &small, &e2) == 0)
                page_svg_pair(p, &svg, &narrow, cap);
            else
                page_svg(p, &svg, cap);
        } else {
            page_puts(p, "<p class=\"notice bad\">");
            page_text(p, e.message);
            page_puts(p, "</p>\n");
        }
        buf_free(&svg);
        buf_free(&narrow);
    }
}

/* ---- the page -------------------------------------------------------------------- */

#define MAX_HISTORY_LINKS 100 /* configurations listed with their history link */

/* Each configuration (the first MAX_HISTORY_LINKS) linked to its history
 * page: GET /history with the series' query (SPEC §11). */
static void history_links(struct page *p, const struct view_app *v)
{
    int i, n = v->nconfigs < MAX_HISTORY_LINKS ? v->nconfigs : MAX_HISTORY_LINKS;
    page_puts(p, "<h2 id=\"history\">History</h2>\n<p class=\"muted\">The runtime of "
                 "each configuration over time, with the interval of a model that "
                 "watches it and its alerts.</p>\n<ul class=\"history-links\">\n");
    for (i = 0; i < n; i++) {
        const struct view_config *c = &v->configs[i];
        json_t *inputs = json_loads(c->inputs_json, 0, NULL), *val;
        const char *k;
        char num[64];
        page_puts(p, "<li><a href=\"/history?application=");
        page_url(p, v->name);
        page_puts(p, "&amp;executable=");
        page_url(p, c->executable);
        page_puts(p, "&amp;system=");
        page_url(p, c->system);
        page_printf(p, "&amp;nprocs=%lld", c->nprocs);
        json_object_foreach(inputs, k, val)
        {
            page_puts(p, "&amp;input.");
            page_url(p, k);
            snprintf(num, sizeof num, "%.17g", json_number_value(val));
            page_puts(p, "=");
            page_url(p, num);
        }
        page_puts(p, "&amp;y=runtime\">");
        page_text(p, c->executable);
        page_puts(p, " on ");
        page_text(p, c->system);
        page_printf(p, ", P=%lld", c->nprocs);
        json_object_foreach(inputs, k, val)
        {
            page_puts(p, ", ");
            page_text(p, k);
            page_puts(p, "=");
            page_num(p, json_number_value(val));
        }
        page_printf(p, "</a> <span class=\"muted\">(%lld run%s)</span></li>\n", c->runs,
                    c->runs == 1 ? "" : "s");
        json_decref(inputs);
    }
    page_puts(p, "</ul>\n");
    if (v->nconfigs > n || v->truncated)
        page_puts(p, "<p class=\"muted\">More configurations than listed: filter by "
                     "executable or system.</p>\n");
}

static void plots(struct page *p, const struct view_app *v)
{
    arena *a = p->arena;
    const struct view_config *c = v->configs;
    int nc = v->nconfigs, truncated = v->truncated;
    struct cfg *cfgs = arena_alloc(a, ((size_t)nc + 1) * sizeof *cfgs);
    struct member *m = arena_alloc(a, ((size_t)nc + 1) * sizeof *m);
    const char *names[MAX_INPUT_NAMES];
    size_t nnames = 0, i, j, nm;
    struct group best = {0};
    int any = 0, have_best;
    char xlabel[160];

    if (cfgs == NULL || m == NULL)
        return;
    for (i = 0; i < (size_t)nc; i++) {
        const char *key;
        json_t *val;
        cfgs[i].c = &c[i];
        cfgs[i].inputs = json_loads(c[i].inputs_json, 0, NULL);
        if (!json_is_object(cfgs[i].inputs)) {
            json_decref(cfgs[i].inputs);
            cfgs[i].inputs = json_object();
        }
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
        view_href(p, v, v->sort, v->desc, (struct at){v->page, v->after, v->before},
                  (int)i, "#scaling");
        page_printf(p, "\" data-axes=\"%s\"%s>%s</a>", i ? view_app_axes[i] : "auto",
                    v->axes == (int)i ? " aria-current=\"true\"" : "", names_shown[i]);
    }
    page_puts(p, "</p>\n");
    if (truncated)
        page_printf(
            p,
            "<p class=\"muted\">This application has more than %d configurations; "
            "the plots use the first %d. Filter by executable or system to narrow "
            "them.</p>\n",
            VIEW_APP_MAX_CONFIGS, VIEW_APP_MAX_CONFIGS);
    page_puts(p, "<div class=\"plots\">\n");
    nm = members(a, cfgs, (size_t)nc, "nprocs", m);
    have_best =
        scaling_plot(p, a, v, cfgs, m, nm, "nprocs", "processors", &best, PLOT_RUNTIME);
    any |= have_best;
    if (have_best) {
        scaling_plot(p, a, v, cfgs, m, nm, "nprocs", "processors", NULL, PLOT_SPEEDUP);
        scaling_plot(p, a, v, cfgs, m, nm, "nprocs", "processors", NULL, PLOT_EFFICIENCY);
    }
    /* The kernel breakdown follows the largest processor series. */
    {
        long long ids[MAX_BARS];
        const char *cats[MAX_BARS];
        size_t nbars = 0;
        char sub[300];
        struct buf lb;
        buf_init(&lb, 4096);
        if (have_best) {
            const struct cfg *c0 = &cfgs[m[best.first].cfg];
            for (i = 0; i < best.n && nbars < MAX_BARS; i++) {
                const struct cfg *x = &cfgs[m[best.first + i].cfg];
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
            /* No processor series: the last configurations (those whose
             * kernel records view_app_kernel_runs asked for), each bar
             * labelled by its configuration, in configuration order. */
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
        /* Inputs plots first (they belong with the scaling section), the
         * breakdown after; so render inputs now. */
        for (j = 0; j < nnames && j < MAX_INPUT_PLOTS; j++) {
            nm = members(a, cfgs, (size_t)nc, names[j], m);
            snprintf(xlabel, sizeof xlabel, "input %s", names[j]);
            any |=
                scaling_plot(p, a, v, cfgs, m, nm, names[j], xlabel, NULL, PLOT_RUNTIME);
        }
        page_puts(p, "</div>\n");
        if (!any)
            page_puts(p,
                      "<p class=\"muted\">No scaling plot yet: a plot needs runs of one "
                      "executable on one system at two or more processor counts (or "
                      "input values) with everything else fixed.</p>\n");
        if (nbars > 0)
            kernel_breakdown(p, v->kernels, ids, cats, nbars, sub);
    }
    for (i = 0; i < (size_t)nc; i++)
        json_decref(cfgs[i].inputs);
}

static void sort_header(struct page *p, const struct view_app *v, int sort,
                        const char *label, int num)
{
    int active = v->sort == sort;
    /* Clicking the current column reverses it; another column starts with
     * its natural order (newest runs first, else ascending). */
    int desc = active ? !v->desc : sort == 0;
    page_printf(p, "<th%s", num ? " class=\"num\"" : "");
    if (active)
        page_printf(p, " aria-sort=\"%s\"", v->desc ? "descending" : "ascending");
    page_puts(p, "><a href=\"");
    view_url(p, v, sort, desc, at_page(1));
    page_printf(p, "\" data-sort=\"%s\">%s", sort_names[sort], label);
    if (active)
        page_printf(p, "<span class=\"sort-mark\" aria-hidden=\"true\">%s</span>",
                    v->desc ? "▼" : "▲");
    page_puts(p, "</a></th>");
}

static void runs_table(struct page *p, const struct view_app *v,
                       const struct view_run_row *rows, int n)
{
    int i;
    size_t k;
    page_printf(p, "<h2 id=\"runs\">Runs</h2>\n");
    if (v->total == 0) {
        page_puts(p, "<p class=\"muted\">No runs match.</p>\n");
        return;
    }
    page_printf(p,
                "<p class=\"muted\" id=\"runs-summary\">%lld runs; page %lld of %lld, "
                "sorted by %s (%s).</p>\n",
                v->total, v->page, v->pages, v->sort == 0 ? "run" : sort_names[v->sort],
                v->desc ? "descending" : "ascending");
    /* every run of the table's filter and order, not just this page */
    page_puts(p, "<p class=\"downloads\"><a id=\"runs-csv\" href=\"");
    view_href(p, v, v->sort, v->desc, at_page(1), 0, "");
    page_printf(p, "%sformat=csv\" download=\"",
                v->exe || v->sys || v->sort != 0 || v->desc != (v->sort == 0) ? "&amp;"
                                                                              : "?");
    page_attr(p, v->name);
    page_printf(p, "-runs.csv\">Download the %lld runs as CSV</a></p>\n", v->total);
    page_puts(p, "<div class=\"table-wrap\" id=\"runs-table\"><table>"
                 "<caption class=\"vh\">Runs</caption>\n<thead><tr>");
    sort_header(p, v, 0, "Run", 1);
    page_puts(p, "<th>Executable</th><th>System</th>");
    sort_header(p, v, 1, "Processors", 1);
    page_puts(p, "<th>Inputs</th>");
    sort_header(p, v, 2, "Runtime (s)", 1);
    page_puts(p, "<th class=\"num\">Kernels</th><th>Stored</th></tr></thead><tbody>\n");
    for (i = 0; i < n; i++) {
        const struct view_run_row *r = &rows[i];
        page_printf(p, "<tr><td class=\"num\"><a href=\"/runs/%lld\">%lld</a></td><td>",
                    r->id, r->id);
        page_text(p, r->executable);
        page_puts(p, "</td><td>");
        page_link(p, "/systems/", r->system, NULL);
        page_printf(p, "</td><td class=\"num\">%lld</td><td>", r->nprocs);
        for (k = 0; k < r->ninputs; k++) {
            if (k)
                page_puts(p, ", ");
            page_text(p, r->inputs[k].name);
            page_puts(p, "=");
            page_num(p, r->inputs[k].value);
        }
        page_puts(p, "</td><td class=\"num\">");
        page_num(p, r->runtime);
        page_printf(p, "</td><td class=\"num\">%lld</td><td>", r->nkernels);
        page_text(p, r->created_at);
        page_puts(p, "</td></tr>\n");
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
    page_puts(p, "<nav class=\"pager\" aria-label=\"Pages of runs\">");
    /* Previous and Next carry a cursor (the run at this page's edge), so
     * each is read from that run's place in the order's index however deep
     * it is; Last is read from the other end. The page number only labels. */
    if (v->page > 1) {
        struct at prev = at_page(v->page - 1);
        if (v->page > 2 && n > 0)
            prev.before = rows[0].id;
        page_puts(p, "<a href=\"");
        view_url(p, v, v->sort, v->desc, at_page(1));
        page_puts(p, "\" rel=\"first\">« First</a><a href=\"");
        view_url(p, v, v->sort, v->desc, prev);
        page_puts(p, "\" rel=\"prev\">‹ Previous</a>");
    } else {
        page_puts(
            p, "<span class=\"off\">« First</span><span class=\"off\">‹ Previous</span>");
    }
    page_printf(p, "<span>Page %lld of %lld</span>", v->page, v->pages);
    if (v->page < v->pages) {
        struct at next = at_page(v->page + 1);
        if (n > 0)
            next.after = rows[n - 1].id;
        page_puts(p, "<a href=\"");
        view_url(p, v, v->sort, v->desc, next);
        page_puts(p, "\" rel=\"next\">Next ›</a><a href=\"");
        view_url(p, v, v->sort, v->desc, at_page(v->pages));
        page_puts(p, "\" rel=\"last\">Last »</a>");
    } else {
        page_puts(p,
                  "<span class=\"off\">Next ›</span><span class=\"off\">Last »</span>");
    }
    page_puts(p, "</nav>\n");
}

static void filters(struct page *p, const struct view_app *v, json_t *app)
{
    json_t *list, *x;
    size_t i;
    page_puts(p, "<form class=\"filters card\" method=\"get\" action=\"/applications/");
    page_url(p, v->name);
    page_puts(p, "#runs\" data-autosubmit>\n");
    page_puts(p,
              "<div class=\"field\"><label for=\"f-exe\">Executable</label>"
              "<select id=\"f-exe\" name=\"executable\"><option value=\"\">all</option>");
    list = json_object_get(app, "executables");
    json_array_foreach(list, i, x)
    {
        const char *n = json_string_value(json_object_get(x, "name"));
        page_puts(p, "<option value=\"");
        page_attr(p, n);
        page_printf(p, "\"%s>", v->exe && strcmp(v->exe, n) == 0 ? " selected" : "");
        page_text(p, n);
        page_puts(p, "</option>");
    }
    page_puts(p,
              "</select></div>\n<div class=\"field\"><label for=\"f-sys\">System</label>"
              "<select id=\"f-sys\" name=\"system\"><option value=\"\">all</option>");
    list = json_object_get(app, "systems");
    json_array_foreach(list, i, x)
    {
        const char *n = json_string_value(json_object_get(x, "name"));
        page_puts(p, "<option value=\"");
        page_attr(p, n);
        page_printf(p, "\"%s>", v->sys && strcmp(v->sys, n) == 0 ? " selected" : "");
        page_text(p, n);
        page_puts(p, "</option>");
    }
    page_puts(p, "</select></div>\n");
    if (v->sort != 0)
        page_printf(p, "<input type=\"hidden\" name=\"sort\" value=\"%s\">",
                    sort_names[v->sort]);
    if (v->desc != (v->sort == 0))
        page_printf(p, "<input type=\"hidden\" name=\"dir\" value=\"%s\">",
                    v->desc ? "desc" : "asc");
    page_puts(p, "<div class=\"field\"><button type=\"submit\">Apply</button></div>"
                 "</form>\n");
}

static void small_tables(struct page *p, json_t *app)
{
    json_t *list = json_object_get(app, "executables"), *x;
    size_t i;
    page_puts(p, "<h2 id=\"executables\">Executables and systems</h2>\n");
    page_table_open(p, "Executables");
    page_puts(p, "<thead><tr><th>Executable</th><th>Compiler</th><th>Flags</th>"
                 "<th>Version</th><th class=\"num\">Runs</th></tr></thead><tbody>\n");
    json_array_foreach(list, i, x)
    {
        page_puts(p, "<tr><td>");
        page_text(p, json_string_value(json_object_get(x, "name")));
        page_puts(p, "</td><td>");
        page_text(p, json_string_value(json_object_get(x, "compiler")));
        page_puts(p, "</td><td><code>");
        page_text(p, json_string_value(json_object_get(x, "flags")));
        page_puts(p, "</code></td><td>");
        page_text(p, json_string_value(json_object_get(x, "version")));
        page_printf(p, "</td><td class=\"num\">%lld</td></tr>\n",
                    (long long)json_integer_value(json_object_get(x, "runs")));
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
    list = json_object_get(app, "systems");
    if (json_array_size(list) == 0)
        return;
    page_table_open(p, "Systems");
    page_puts(p, "<thead><tr><th>System</th><th class=\"num\">Runs</th>"
                 "<th class=\"num\">Processors</th></tr></thead><tbody>\n");
    json_array_foreach(list, i, x)
    {
        const char *n = json_string_value(json_object_get(x, "name"));
        page_puts(p, "<tr><td>");
        page_link(p, "/systems/", n, NULL);
        page_printf(p,
                    "</td><td class=\"num\">%lld</td><td class=\"num\">%lld–%lld</td>"
                    "</tr>\n",
                    (long long)json_integer_value(json_object_get(x, "runs")),
                    (long long)json_integer_value(json_object_get(x, "min_nprocs")),
                    (long long)json_integer_value(json_object_get(x, "max_nprocs")));
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
}

static void templates(struct page *p, json_t *app)
{
    json_t *list = json_object_get(app, "templates"), *x;
    size_t i;
    if (json_array_size(list) == 0)
        return;
    page_puts(p, "<h2 id=\"templates\">Model templates</h2>\n");
    page_table_open(p, "Templates");
    page_puts(p, "<thead><tr><th>Template</th><th>Kernel</th><th>Expression</th>"
                 "<th>Description</th></tr></thead><tbody>\n");
    json_array_foreach(list, i, x)
    {
        const char *k = json_string_value(json_object_get(x, "kernel"));
        page_puts(p, "<tr><td>");
        page_text(p, json_string_value(json_object_get(x, "name")));
        page_puts(p, "</td><td>");
        if (k && *k)
            page_text(p, k);
        else
            page_puts(p, "<span class=\"muted\">whole application</span>");
        page_puts(p, "</td><td><code>");
        page_text(p, json_string_value(json_object_get(x, "expression")));
        page_puts(p, "</code></td><td class=\"desc\">");
        page_text(p, json_string_value(json_object_get(x, "description")));
        page_puts(p, "</td></tr>\n");
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
}

/* ---- CSV of the runs table ------------------------------------------------------- */

static void csv_text(struct buf *out, const char *s)
{
    int formula = s && (*s == '=' || *s == '+' || *s == '-' || *s == '@' || *s == '\t');
    if (s == NULL)
        return;
    if (!formula && strpbrk(s, ",\"\r\n") == NULL) {
        buf_puts(out, s);
        return;
    }
    buf_putc(out, '"');
    if (formula)
        buf_putc(out, '\'');
    for (; *s; s++) {
        if (*s == '"')
            buf_putc(out, '"');
        buf_putc(out, *s);
    }
    buf_putc(out, '"');
}

static void csv_num(struct buf *out, double v)
{
    char s[64];
    if (isfinite(v)) {
        snprintf(s, sizeof s, "%.17g", v);
        buf_puts(out, s);
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int view_app_csv(struct buf *out, arena *a, const struct view_run_row *rows, size_t n)
{
    const char **names = NULL;
    size_t nn = 0, cap = 0, i, k, j;

    /* the input names of the rows, sorted, each once */
    for (i = 0; i < n; i++)
        for (k = 0; k < rows[i].ninputs; k++) {
            const char *nm = rows[i].inputs[k].name;
            for (j = 0; j < nn && strcmp(names[j], nm) != 0; j++)
                ;
            if (j < nn)
                continue;
            if (nn == cap) {
                const char **grown;
                cap = cap ? 2 * cap : 16;
                grown = arena_alloc(a, cap * sizeof *grown);
                if (grown == NULL)
                    return -1;
                if (nn)
                    memcpy(grown, names, nn * sizeof *names);
                names = grown;
            }
            names[nn++] = nm;
        }
    if (nn)
        qsort(names, nn, sizeof *names, cmp_str);
    buf_puts(out, "run,executable,system,nprocs");
    for (j = 0; j < nn; j++) {
        buf_putc(out, ',');
        csv_text(out, names[j]);
    }
    buf_puts(out, ",runtime,kernels,stored\r\n");
    for (i = 0; i < n; i++) {
        const struct view_run_row *r = &rows[i];
        buf_printf(out, "%lld,", r->id);
        csv_text(out, r->executable);
        buf_putc(out, ',');
        csv_text(out, r->system);
        buf_printf(out, ",%lld", r->nprocs);
        for (j = 0; j < nn; j++) {
            buf_putc(out, ',');
            for (k = 0; k < r->ninputs; k++)
                if (strcmp(r->inputs[k].name, names[j]) == 0) {
                    csv_num(out, r->inputs[k].value);
                    break;
                }
        }
        buf_putc(out, ',');
        csv_num(out, r->runtime);
        buf_printf(out, ",%lld,", r->nkernels);
        csv_text(out, r->created_at);
        buf_puts(out, "\r\n");
    }
    return 0;
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

void view_app(struct page *p, const struct view_app *v)
{
    json_t *app = v->app;

    page_puts(p, "<p class=\"crumbs\"><a href=\"/applications\">Applications</a> ›</p>\n"
                 "<h1>");
    page_text(p, v->name);
    if (json_integer_value(json_object_get(app, "demo")))
        page_puts(p, " <span class=\"badge\">example data</span>");
    page_puts(p, "</h1>\n");
    {
        const char *desc = json_string_value(json_object_get(app, "description"));
        if (desc && *desc) {
            page_puts(p, "<p class=\"lead\">");
            page_text(p, desc);
            page_puts(p, "</p>\n");
        }
    }
    page_printf(
        p,
        "<ul class=\"stats\"><li><span class=\"n\">%lld</span><span class=\"label\">"
        "runs</span></li><li><span class=\"n\">%zu</span><span class=\"label\">"
        "executables</span></li><li><span class=\"n\">%zu</span><span "
        "class=\"label\">systems</span></li><li><span class=\"n\">%d%s</span>"
        "<span class=\"label\">configurations</span></li></ul>\n",
        (long long)json_integer_value(json_object_get(app, "runs")),
        json_array_size(json_object_get(app, "executables")),
        json_array_size(json_object_get(app, "systems")), v->nconfigs,
        v->truncated ? "+" : "");
    page_puts(p, "<p>JSON: <a href=\"/api/v1/applications/");
    page_url(p, v->name);
    page_puts(p, "\">/api/v1/applications/");
    page_text(p, v->name);
    page_puts(p, "</a></p>\n");
    /* The modeling forms, with this application chosen. */
    page_puts(p, "<p class=\"model-links\">Model it: <a href=\"/model/fit?application=");
    page_url(p, v->name);
    page_puts(p, "\">curve fitting</a>");
    if (json_array_size(json_object_get(app, "templates")) > 0) {
        page_puts(p, " · <a href=\"/model/parameterize?application=");
        page_url(p, v->name);
        page_puts(p, "\">parameterization</a>");
    }
    if (v->has_kernels) {
        page_puts(p, " · <a href=\"/model/couple?application=");
        page_url(p, v->name);
        page_puts(p, "\">kernel coupling</a>");
    }
    page_puts(p, "</p>\n");
    filters(p, v, app);
    plots(p, v);
    view_app_scaling(p, v);
    if (v->history && v->nconfigs > 0)
        history_links(p, v);
    runs_table(p, v, v->rows, v->nrows);
    small_tables(p, app);
    templates(p, app);
}
