/* view_system: a system's page (/systems/{name}): description, applications
 * measured on it, benchmark measurements, system parameters with their
 * expressions, and for each parameter with arguments a plot of the
 * benchmark points of the same name with the parameter's curve (the
 * expression evaluated by models/expr over the measured range); see view.h. */
#include "models/aggregate.h"
#include "models/expr.h"
#include "web/svg.h"
#include "web/units.h"
#include "web/view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_GROUPS 6      /* curves per parameter plot (values of the other variables) */
#define MAX_MSG_SERIES 12 /* benchmarks (and process counts) per message-size plot */
#define CURVE_SAMPLES 96  /* samples of a parameter's curve */

static const char *str(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : "";
}

/* The system's parameters as an expr environment (strings stay in params). */
static struct expr_param *env_params(arena *a, json_t *params, size_t *n)
{
    struct expr_param *out = arena_alloc(a, (json_array_size(params) + 1) * sizeof *out);
    size_t i;
    json_t *x;
    *n = 0;
    if (out == NULL)
        return NULL;
    json_array_foreach(params, i, x)
    {
        const char *args = str(x, "args");
        const char **argv = arena_alloc(a, (EXPR_MAX_ARGS + 1) * sizeof *argv);
        size_t na = 0;
        if (argv == NULL)
            return NULL;
        while (*args && na < EXPR_MAX_ARGS) {
            size_t len = strcspn(args, ",");
            char *one = arena_strndup(a, args, len), *s = one, *e;
            if (one == NULL)
                return NULL;
            while (*s == ' ')
                s++;
            e = s + strlen(s);
            while (e > s && e[-1] == ' ')
                *--e = '\0';
            argv[na++] = s;
            args += len;
            if (*args == ',')
                args++;
        }
        out[*n].name = str(x, "name");
        out[*n].args = argv;
        out[*n].nargs = na;
        out[*n].body = str(x, "expression");
        (*n)++;
    }
    return out;
}

struct bpoint {
    double key; /* value of the other variable (or 0) */
    double x, t;
};

static int cmp_bpoint(const void *a, const void *b)
{
    const struct bpoint *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->x < y->x ? -1 : x->x > y->x ? 1 : 0;
}

/* Plots the benchmark points named like parameter `pi` with its curve. */
static void param_plot(struct page *p, arena *a, const struct expr_param *params,
                       size_t np, size_t pi, json_t *benchmarks)
{
    const struct expr_param *par = &params[pi];
    struct expr_names vars = {0};
    struct err e = {0};
    struct buf src, svg, formula;
    struct bpoint *pts;
    struct svg_series series[MAX_GROUPS] = {0};
    struct svg_curve curves[MAX_GROUPS] = {0};
    struct svg_plot2d plot = {0};
    size_t nb = 0, i, j, g, ng = 0, xi = 0, oi = (size_t)-1, dropped = 0;
    double vals[EXPR_MAX_VARS];
    double xmin = INFINITY, xmax = -INFINITY, tmin = INFINITY, tmax = -INFINITY;
    expr *ex = NULL;
    json_t *b;
    char title[200], oname[EXPR_MAX_NAME + 1] = "";

    if (par->nargs == 0)
        return;
    buf_init(&src, 4096);
    buf_init(&svg, 4u << 20);
    buf_init(&formula, 8192);
    buf_puts(&src, par->name);
    buf_putc(&src, '(');
    for (i = 0; i < par->nargs; i++)
        buf_printf(&src, "%s%s", i ? "," : "", par->args[i]);
    buf_putc(&src, ')');
    /* The variables the parameter needs: its arguments, and P for a broadcast. */
    if (expr_free_vars(buf_str(&src), params, np, &vars, &e) != 0 || vars.n == 0 ||
        vars.n > 2)
        goto out;
    {
        struct expr_env env = {(const char *const *)vars.names, vars.n, params, np};
        ex = expr_compile(buf_str(&src), &env, &e);
    }
    if (ex == NULL)
        goto out;
    for (i = 0; i < vars.n; i++)
        if (strcmp(vars.names[i], par->args[0]) == 0)
            xi = i;
    if (vars.n == 2) {
        oi = 1 - xi;
        snprintf(oname, sizeof oname, "%s", vars.names[oi]);
    }
    pts = arena_alloc(a, (json_array_size(benchmarks) + 1) * sizeof *pts);
    if (pts == NULL)
        goto out;
    json_array_foreach(benchmarks, i, b)
    {
        json_t *args = json_object_get(b, "args"), *xv, *ov = NULL;
        double t = json_number_value(json_object_get(b, "time"));
        if (strcmp(str(b, "name"), par->name) != 0)
            continue;
        xv = json_object_get(args, vars.names[xi]);
        if (oi != (size_t)-1)
            ov = json_object_get(args, oname);
        if (!json_is_number(xv) || (oi != (size_t)-1 && !json_is_number(ov)) ||
            !isfinite(t))
            continue;
        pts[nb].x = json_number_value(xv);
        pts[nb].key = ov ? json_number_value(ov) : 0;
        pts[nb].t = t;
        nb++;
    }
    if (nb == 0)
        goto out;
    qsort(pts, nb, sizeof *pts, cmp_bpoint);
    for (i = 0; i < nb; i++) {
        if (pts[i].x > 0)
            xmin = fmin(xmin, pts[i].x);
        xmax = fmax(xmax, pts[i].x);
    }
    /* Message sizes from 1 B to MiBs are read on a log axis; an OSU latency
     * row of L = 0 has no place there and is left out (and said). */
    plot.xscale = isfinite(xmin) && xmax / xmin >= 100 ? SVG_LOG10 : SVG_LINEAR;
    if (plot.xscale == SVG_LOG10) {
        for (i = j = 0; i < nb; i++)
            if (pts[i].x > 0)
                pts[j++] = pts[i];
        dropped = nb - j;
        nb = j;
    } else {
        for (i = 0; i < nb; i++)
            xmin = fmin(xmin, pts[i].x);
    }
    for (i = 0; i < nb && ng < MAX_GROUPS; i = j) {
        double *xs, *ts, *cx, *cy;
        struct agg_point *ag;
        struct svg_point *sp;
        int nag;
        size_t k;
        for (j = i; j < nb && pts[j].key == pts[i].key; j++)
            ;
        xs = arena_alloc(a, (j - i) * sizeof *xs);
        ts = arena_alloc(a, (j - i) * sizeof *ts);
        ag = arena_alloc(a, (j - i) * sizeof *ag);
        sp = arena_alloc(a, (j - i) * sizeof *sp);
        cx = arena_alloc(a, CURVE_SAMPLES * sizeof *cx);
        cy = arena_alloc(a, CURVE_SAMPLES * sizeof *cy);
        if (!xs || !ts || !ag || !sp || !cx || !cy)
            goto out;
        for (k = i; k < j; k++) {
            xs[k - i] = pts[k].x;
            ts[k - i] = pts[k].t;
        }
        nag = agg_points(xs, ts, j - i, AGG_MEAN, ag, &e);
        if (nag <= 0)
            goto out;
        for (k = 0; k < (size_t)nag; k++) {
            sp[k].x = ag[k].x;
            sp[k].y = ag[k].y;
            sp[k].has_err = ag[k].n > 1 && ag[k].ymax > ag[k].ymin;
            sp[k].ymin = ag[k].ymin;
            sp[k].ymax = ag[k].ymax;
            tmin = fmin(tmin, ag[k].ymin);
            tmax = fmax(tmax, ag[k].ymax);
        }
        /* The curve over the measured range, evenly spaced on the x axis. */
        for (k = 0; k < CURVE_SAMPLES; k++) {
            double f = (double)k / (CURVE_SAMPLES - 1);
            double x = plot.xscale == SVG_LOG10 ? xmin * pow(xmax / xmin, f)
                                                : xmin + (xmax - xmin) * f;
            vals[xi] = x;
            if (oi != (size_t)-1)
                vals[oi] = pts[i].key;
            cx[k] = x;
            cy[k] = expr_eval(ex, vals);
            if (isfinite(cy[k]) && cy[k] > 0) {
                tmin = fmin(tmin, cy[k]);
                tmax = fmax(tmax, cy[k]);
            }
        }
        series[ng].label = oi != (size_t)-1
                               ? arena_printf(a, "measured, %s=%.6g", oname, pts[i].key)
                               : "measured";
        series[ng].points = sp;
        series[ng].n = (size_t)nag;
        series[ng].color = (int)ng + 1;
        curves[ng].label = oi != (size_t)-1
                               ? arena_printf(a, "parameter, %s=%.6g", oname, pts[i].key)
                               : "parameter";
        curves[ng].x = cx;
        curves[ng].y = cy;
        curves[ng].n = CURVE_SAMPLES;
        curves[ng].color = (int)ng + 1;
        ng++;
    }
    g = ng;
    buf_printf(&formula, "%s = %s", buf_str(&src), par->body);
    snprintf(title, sizeof title, "%.64s: benchmark points and the fitted parameter",
             buf_str(&src));
    plot.title = title;
    plot.xlabel = vars.names[xi];
    plot.ylabel = "time";
    plot.yunit = "s";
    plot.yscale = tmin > 0 && tmax / tmin >= 100 ? SVG_LOG10 : SVG_LINEAR;
    plot.series = series;
    plot.nseries = g;
    plot.curves = curves;
    plot.ncurves = g;
    plot.formula = buf_str(&formula);
    if (svg_plot2d(&svg, &plot, &e) == 0)
        page_svg(p, &svg,
                 dropped ? arena_printf(a,
                                        "%zu measurement%s at %s = 0 not drawn on the "
                                        "logarithmic axis.",
                                        dropped, dropped == 1 ? "" : "s", vars.names[xi])
                         : NULL);
out:
    if (e.status && e.message[0]) {
        page_puts(p, "<p class=\"notice bad\">No plot for ");
        page_text(p, par->name);
        page_puts(p, ": ");
        page_text(p, e.message);
        page_puts(p, "</p>\n");
    }
    expr_free(ex);
    expr_names_free(&vars);
    buf_free(&src);
    buf_free(&svg);
    buf_free(&formula);
}

/* ---- measurements over message size (OSU imports) ------------------------------ */

/* The OSU test each benchmark name stands for (docs/import.md). */
static const char *osu_test(const char *name)
{
    static const char *const map[][2] = {
        {"MPISR", "osu_latency"},        {"MPIBW", "osu_bw"},
        {"MPIBIBW", "osu_bibw"},         {"MPIBC", "osu_bcast"},
        {"MPIAR", "osu_allreduce"},      {"MPIRD", "osu_reduce"},
        {"MPIRS", "osu_reduce_scatter"}, {"MPIAG", "osu_allgather"},
        {"MPIAGV", "osu_allgatherv"},    {"MPIA2A", "osu_alltoall"},
        {"MPIA2AV", "osu_alltoallv"},    {"MPIGA", "osu_gather"},
        {"MPIGAV", "osu_gatherv"},       {"MPISC", "osu_scatter"},
        {"MPISCV", "osu_scatterv"},      {"MPIMBW", "osu_mbw_mr"},
        {"MPIGETBW", "osu_get_bw"},      {"MPIPUTBW", "osu_put_bw"},
        {"MPIPUTBIBW", "osu_put_bibw"},  {"MPIGET", "osu_get_latency"},
        {"MPIPUT", "osu_put_latency"},   {"MPISRMT", "osu_latency_mt"}};
    /* a rate as measured (NAME_MBS, NAME_MSGS) is of its NAME's test */
    size_t n = strcspn(name, "_");
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strlen(map[i][0]) == n && strncmp(map[i][0], name, n) == 0 &&
            (name[n] == '\0' || strcmp(name + n, "_MBS") == 0 ||
             strcmp(name + n, "_MSGS") == 0))
            return map[i][1];
    return NULL;
}

/* A bandwidth benchmark: stored as the time to move one message of L bytes,
 * L / (bandwidth x 10^6) s, so its bandwidth is L / time. Every bandwidth
 * test of the OSU import (docs/import.md): osu_bw, osu_bibw, osu_mbw_mr and
 * the one-sided get/put ones, also on GPU buffers (MPIBW_DD, MPIBW_MDH); not
 * their rates as measured (_MBS, _MSGS). */
static int is_bandwidth(const char *name)
{
    static const char *const bw[] = {"MPIBW",    "MPIBIBW",  "MPIMBW",
                                     "MPIGETBW", "MPIPUTBW", "MPIPUTBIBW"};
    size_t n = strcspn(name, "_");
    if (strstr(name, "_MBS") != NULL || strstr(name, "_MSGS") != NULL)
        return 0;
    for (size_t i = 0; i < sizeof bw / sizeof bw[0]; i++)
        if (strlen(bw[i]) == n && strncmp(bw[i], name, n) == 0)
            return 1;
    return 0;
}

/* Whether name ends with suffix (the OSU import's rates as measured:
 * NAME_MBS in MB/s, NAME_MSGS in messages per second; docs/import.md). */
static int ends_with(const char *name, const char *suffix)
{
    size_t n = strlen(name), k = strlen(suffix);
    return n > k && strcmp(name + n - k, suffix) == 0;
}

/* What a benchmark over message size is drawn as: 0 a time (the latency
 * plot), 1 a bandwidth derived from the time of one message (MPIBW), 2 a
 * bandwidth as measured (MPIBW_MBS, drawn as it is), -1 not drawn (a
 * message rate; a derived bandwidth whose measured twin is there). */
static int msg_kind(const char *name, json_t *benchmarks)
{
    if (ends_with(name, "_MBS"))
        return 2;
    if (ends_with(name, "_MSGS"))
        return -1;
    if (is_bandwidth(name)) {
        json_t *b;
        size_t i, n = strlen(name);
        json_array_foreach(benchmarks, i, b)
        {
            const char *o = json_string_value(json_object_get(b, "name"));
            if (o && strncmp(o, name, n) == 0 && strcmp(o + n, "_MBS") == 0)
                return -1;
        }
        return 1;
    }
    return 0;
}

struct msg {
    const char *name;
    double procs, L, t;
    int stat; /* 0 mean (or none), 1 min, 2 max, 3 other */
    int kind; /* msg_kind */
};

static int cmp_msg(const void *a, const void *b)
{
    const struct msg *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    if (x->procs != y->procs)
        return x->procs < y->procs ? -1 : 1;
    return x->L < y->L ? -1 : x->L > y->L;
}

/* One log-log plot over message size of the benchmarks with an L argument:
 * bandwidth (MB/s) for the bandwidth tests, else time. Each series is one
 * benchmark (and process count): per size the mean of its mean
 * measurements, with the min-max of the run as error bars when the output
 * had them (osu -f). No fit. */
static void message_plot(struct page *p, arena *a, const struct msg *m, size_t n, int bw)
{
    struct svg_series series[MAX_MSG_SERIES];
    struct svg_curve lines[MAX_MSG_SERIES];
    struct svg_plot2d plot = {0};
    struct buf svg, narrow;
    struct err e = {0};
    size_t ns = 0, i, j, k, more = 0;

    for (i = 0; i < n; i = j) {
        struct svg_point *pts;
        size_t np = 0;
        const char *test;
        for (j = i;
             j < n && strcmp(m[j].name, m[i].name) == 0 && m[j].procs == m[i].procs; j++)
            ;
        if ((m[i].kind >= 1) != bw || m[i].kind < 0)
            continue;
        if (ns == MAX_MSG_SERIES) {
            more++;
            continue;
        }
        pts = arena_alloc(a, (j - i) * sizeof *pts);
        if (pts == NULL)
            return;
        for (k = i; k < j;) {
            size_t k1 = k, nmean = 0;
            double sum = 0, lo = INFINITY, hi = -INFINITY;
            for (; k1 < j && m[k1].L == m[k].L; k1++) {
                if (m[k1].stat == 0) {
                    sum += m[k1].t;
                    nmean++;
                }
                if (m[k1].stat <= 2) {
                    lo = fmin(lo, m[k1].t);
                    hi = fmax(hi, m[k1].t);
                }
            }
            if (nmean > 0 && m[k].L > 0) {
                double t = sum / (double)nmean;
                struct svg_point *q = &pts[np++];
                q->x = m[k].L;
                int derived = m[k].kind == 1; /* bandwidth from a time */
                q->y = derived ? m[k].L / t / 1e6 : t;
                q->has_err = hi > lo;
                q->ymin = derived ? m[k].L / hi / 1e6 : lo;
                q->ymax = derived ? m[k].L / lo / 1e6 : hi;
            }
            k = k1;
        }
        if (np == 0)
            continue;
        test = osu_test(m[i].name);
        /* "MPIBW (osu_bw)", with ", P=16" for a collective at a process count */
        /* the bandwidth as measured is named as its test: "MPIBW (osu_bw)" */
        series[ns].label =
            arena_printf(a, "%.*s%s%s%s",
                         (int)(strlen(m[i].name) - (m[i].kind == 2 ? strlen("_MBS") : 0)),
                         m[i].name, test ? " (" : "", test ? test : "", test ? ")" : "");
        if (m[i].procs > 0 && series[ns].label != NULL)
            series[ns].label =
                arena_printf(a, "%s, P=%.0f", series[ns].label, m[i].procs);
        series[ns].points = pts;
        series[ns].n = np;
        series[ns].color = (int)ns + 1;
        /* the measured points joined in order (a guide for the eye, no fit) */
        {
            double *lx = arena_alloc(a, np * sizeof *lx),
                   *ly = arena_alloc(a, np * sizeof *ly);
            if (lx == NULL || ly == NULL)
                return;
            for (k = 0; k < np; k++) {
                lx[k] = pts[k].x;
                ly[k] = pts[k].y;
            }
            lines[ns] = (struct svg_curve){NULL, lx, ly, np, 0, 0, (int)ns + 1};
        }
        ns++;
    }
    if (ns == 0)
        return;
    plot.title = bw ? "Bandwidth over message size" : "Latency over message size";
    plot.xlabel = "message size";
    plot.xunit = "B";
    plot.ylabel = bw ? "bandwidth" : "time per operation";
    plot.yunit = bw ? "MB/s" : "s";
    plot.xscale = plot.yscale = SVG_LOG10;
    plot.series = series;
    plot.nseries = ns;
    plot.curves = lines;
    plot.ncurves = ns;
    plot.width = 760;
    plot.height = 480;
    buf_init(&svg, 4u << 20);
    buf_init(&narrow, 4u << 20);
    if (svg_plot2d(&svg, &plot, &e) == 0) {
        struct svg_plot2d small = plot;
        char cap[320];
        struct err e2 = {0};
        small.width = 400;
        small.height = 340;
        snprintf(cap, sizeof cap,
                 "%s; each point the mean of its measurements, bars from the minimum to "
                 "the maximum where the output had them.%s",
                 bw ? "Bandwidth as OSU measures it (MB = 10^6 bytes)"
                    : "Time of one operation",
                 more ? " More benchmarks than shown: the JSON has them all." : "");
        if (svg_plot2d(&narrow, &small, &e2) == 0)
            page_svg_pair(p, &svg, &narrow, cap);
        else
            page_svg(p, &svg, cap);
    }
    buf_free(&svg);
    buf_free(&narrow);
}

static size_t message_points(arena *a, json_t *benchmarks, struct msg **out)
{
    struct msg *m = arena_alloc(a, (json_array_size(benchmarks) + 1) * sizeof *m);
    size_t n = 0, i;
    json_t *b;

    *out = m;
    if (m == NULL)
        return 0;
    json_array_foreach(benchmarks, i, b)
    {
        json_t *args = json_object_get(b, "args"), *L = json_object_get(args, "L"),
               *P = json_object_get(args, "P");
        const char *stat = str(b, "stat");
        double t = json_number_value(json_object_get(b, "time"));
        if (!json_is_number(L) || !isfinite(t) || t <= 0)
            continue;
        m[n].name = str(b, "name");
        m[n].kind = msg_kind(m[n].name, benchmarks);
        m[n].L = json_number_value(L);
        m[n].procs = json_is_number(P) ? json_number_value(P) : 0;
        m[n].t = t;
        m[n].stat = !*stat || strcmp(stat, "mean") == 0 ? 0
                    : strcmp(stat, "min") == 0          ? 1
                    : strcmp(stat, "max") == 0          ? 2
                                                        : 3;
        n++;
    }
    qsort(m, n, sizeof *m, cmp_msg);
    return n;
}

static void message_plots(struct page *p, arena *a, json_t *benchmarks)
{
    struct msg *m;
    size_t n = message_points(a, benchmarks, &m), i;
    int lat = 0, bw = 0;

    for (i = 0; i < n; i++) {
        if (m[i].L <= 0 || m[i].kind < 0)
            continue;
        if (m[i].kind >= 1)
            bw = 1;
        else
            lat = 1;
    }
    if (!lat && !bw)
        return;
    page_puts(p, "<h2 id=\"messages\">Over message size</h2>\n<p class=\"muted\">The "
                 "benchmarks measured at several message sizes (<code>L</code>, e.g. OSU "
                 "imports) on log\xe2\x80\x93log axes, as measured: no fit.</p>\n"
                 "<div class=\"plots\">\n");
    if (lat)
        message_plot(p, a, m, n, 0);
    if (bw)
        message_plot(p, a, m, n, 1);
    page_puts(p, "</div>\n");
}

static void parameters(struct page *p, arena *a, json_t *sys, json_t *benchmarks)
{
    json_t *params = json_object_get(sys, "parameters"), *x;
    struct expr_param *env;
    size_t np, i;

    page_puts(p, "<h2 id=\"parameters\">System parameters</h2>\n");
    if (json_array_size(params) == 0) {
        page_puts(p, "<p class=\"muted\">No parameters yet. <code>prophecy-bench</code> "
                     "fits them from benchmarks; they can also be entered over the API "
                     "(<code>POST /api/v1/systems/NAME/parameters</code>).</p>\n");
        return;
    }
    page_table_open(p, "System parameters");
    page_puts(p, "<thead><tr><th>Parameter</th><th>Expression</th><th>Source</th>"
                 "<th>Updated</th></tr></thead><tbody>\n");
    json_array_foreach(params, i, x)
    {
        page_puts(p, "<tr><td><code>");
        page_text(p, str(x, "signature"));
        page_puts(p, "</code></td><td><code>");
        page_text(p, str(x, "expression"));
        page_puts(p, "</code></td><td>");
        page_text(p, str(x, "source"));
        page_puts(p, "</td><td class=\"when\">");
        page_when(p, str(x, "updated_at"));
        page_puts(p, "</td></tr>\n");
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
    env = env_params(a, params, &np);
    if (env == NULL)
        return;
    page_puts(p, "<div class=\"plots\">\n");
    for (i = 0; i < np; i++)
        param_plot(p, a, env, np, i, benchmarks);
    page_puts(p, "</div>\n");
}

/* The range of a bandwidth benchmark's bandwidth (MB/s) over its
 * measurements with a message size: L / time. 0 when it has none. */
static int bandwidth_range(json_t *benchmarks, const char *name, double *lo, double *hi)
{
    json_t *b;
    size_t i;
    int have = 0;
    json_array_foreach(benchmarks, i, b)
    {
        json_t *L = json_object_get(json_object_get(b, "args"), "L");
        double t = json_number_value(json_object_get(b, "time"));
        const char *stat = str(b, "stat");
        double v;
        if (strcmp(str(b, "name"), name) != 0 || !json_is_number(L) || !(t > 0))
            continue;
        if (*stat && strcmp(stat, "mean") != 0 && strcmp(stat, "min") != 0 &&
            strcmp(stat, "max") != 0)
            continue; /* the statistics the plots show: mean, min, max */
        v = json_number_value(L) / t / 1e6;
        if (!have || v < *lo)
            *lo = v;
        if (!have || v > *hi)
            *hi = v;
        have = 1;
    }
    return have;
}

static void benchmark_table(struct page *p, json_t *sys, json_t *benchmarks)
{
    json_t *list = json_object_get(sys, "benchmarks"), *x;
    size_t i;
    page_puts(p, "<h2 id=\"benchmarks\">Benchmarks</h2>\n");
    if (json_array_size(list) == 0) {
        page_puts(p, "<p class=\"muted\">No benchmark measurements.</p>\n");
        return;
    }
    page_table_open(p, "Benchmarks");
    page_puts(p, "<thead><tr><th>Benchmark</th><th>Measure</th><th class=\"num\">"
                 "Measurements</th><th class=\"num\">Min</th><th class=\"num\">Max</th>"
                 "</tr></thead><tbody>\n");
    json_array_foreach(list, i, x)
    {
        const char *name = str(x, "name"), *test = osu_test(name);
        double lo = 0, hi = 0;
        page_puts(p, "<tr><td>");
        page_text(p, name);
        if (test) {
            page_puts(p, " <span class=\"muted\">(");
            page_text(p, test);
            page_puts(p, ")</span>");
        }
        if (ends_with(name, "_MBS") || ends_with(name, "_MSGS")) {
            int mbs = ends_with(name, "_MBS");
            page_printf(
                p,
                "</td><td>%s</td><td class=\"num\">%lld</td>"
                "<td class=\"num\">",
                mbs ? "bandwidth" : "message rate",
                (long long)json_integer_value(json_object_get(x, "measurements")));
            page_qty(p, json_number_value(json_object_get(x, "min_time")),
                     mbs ? "MB/s" : "/s");
            page_puts(p, "</td><td class=\"num\">");
            page_qty(p, json_number_value(json_object_get(x, "max_time")),
                     mbs ? "MB/s" : "/s");
        } else if (is_bandwidth(name) && bandwidth_range(benchmarks, name, &lo, &hi)) {
            page_printf(
                p,
                "</td><td>bandwidth</td><td class=\"num\">%lld</td>"
                "<td class=\"num\">",
                (long long)json_integer_value(json_object_get(x, "measurements")));
            page_qty(p, lo, "MB/s");
            page_puts(p, "</td><td class=\"num\">");
            page_qty(p, hi, "MB/s");
        } else {
            page_printf(
                p,
                "</td><td>time</td><td class=\"num\">%lld</td><td "
                "class=\"num\">",
                (long long)json_integer_value(json_object_get(x, "measurements")));
            page_qty(p, json_number_value(json_object_get(x, "min_time")), "s");
            page_puts(p, "</td><td class=\"num\">");
            page_qty(p, json_number_value(json_object_get(x, "max_time")), "s");
        }
        page_puts(p, "</td></tr>\n");
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
    page_puts(p, "<p>All measurements as JSON: <a href=\"/api/v1/systems/");
    page_url(p, str(sys, "name"));
    page_puts(p, "/benchmarks\">/api/v1/systems/…/benchmarks</a></p>\n");
}

void view_system(struct page *p, const struct view_system *d)
{
    json_t *sys = d->system, *apps = d->apps, *x, *meta;
    const char *key;
    size_t i;

    page_puts(p, "<p class=\"crumbs\"><a href=\"/systems\">Systems</a> ›</p>\n<h1>");
    page_text(p, d->name);
    if (json_integer_value(json_object_get(sys, "demo")))
        page_puts(p, " <span class=\"badge\">example data</span>");
    page_puts(p, "</h1>\n");
    if (*str(sys, "description")) {
        page_puts(p, "<p class=\"lead\">");
        page_text(p, str(sys, "description"));
        page_puts(p, "</p>\n");
    }
    page_puts(p, "<dl class=\"facts\">\n<dt>Processor</dt><dd>");
    page_text(p, *str(sys, "processor") ? str(sys, "processor") : "–");
    page_puts(p, "</dd>\n<dt>Cores</dt><dd>");
    if (json_is_integer(json_object_get(sys, "cores")))
        page_printf(p, "%lld",
                    (long long)json_integer_value(json_object_get(sys, "cores")));
    else
        page_puts(p, "–");
    page_puts(p, "</dd>\n<dt>Network</dt><dd>");
    page_text(p, *str(sys, "network") ? str(sys, "network") : "–");
    page_printf(p, "</dd>\n<dt>Runs</dt><dd>%lld</dd>\n",
                (long long)json_integer_value(json_object_get(sys, "runs")));
    meta = json_object_get(sys, "metadata");
    json_object_foreach(meta, key, x)
    {
        page_puts(p, "<dt>");
        page_text(p, key);
        page_puts(p, "</dt><dd>");
        page_json(p, x);
        page_puts(p, "</dd>\n");
    }
    page_puts(p, "<dt>JSON</dt><dd><a href=\"/api/v1/systems/");
    page_url(p, d->name);
    page_puts(p, "\">/api/v1/systems/");
    page_text(p, d->name);
    page_puts(p, "</a></dd>\n</dl>\n");

    page_puts(p, "<h2 id=\"applications\">Applications measured here</h2>\n");
    if (json_array_size(apps) == 0) {
        page_puts(p, "<p class=\"muted\">No runs on this system.</p>\n");
    } else {
        page_table_open(p, "Applications");
        page_puts(p, "<thead><tr><th>Application</th><th class=\"num\">Runs</th>"
                     "<th class=\"num\">Processors</th></tr></thead><tbody>\n");
        json_array_foreach(apps, i, x)
        {
            page_puts(p, "<tr><td>");
            page_link(p, "/applications/", str(x, "name"), NULL);
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
    message_plots(p, p->arena, d->benchmarks);
    parameters(p, p->arena, sys, d->benchmarks);
    benchmark_table(p, sys, d->benchmarks);
}
