/* view_system: a system's page (/systems/{name}): description, applications
 * measured on it, benchmark measurements (over message size, a curve per
 * series: a benchmark name with its label and test, named as users know it,
 * osu_latency), system parameters with their expressions, and for each
 * parameter with arguments a plot of the benchmark points of the same name
 * with the parameter's curve (the expression evaluated by models/expr over
 * the measured range); see view.h. */
#include "formats/osu.h"
#include "models/aggregate.h"
#include "models/expr.h"
#include "web/svg.h"
#include "common/units.h"
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
    double key;         /* value of the other variable (or 0) */
    const char *series; /* the benchmark's series: its test and label ("\n" for none) */
    const char *label;  /* how the legend names that series ("" for none) */
    double x, t;
};

static int cmp_bpoint(const void *a, const void *b)
{
    const struct bpoint *x = a, *y = b;
    int c;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    if ((c = strcmp(x->series, y->series)) != 0)
        return c;
    return x->x < y->x ? -1 : x->x > y->x ? 1 : 0;
}

static int same_group(const struct bpoint *a, const struct bpoint *b)
{
    return a->key == b->key && strcmp(a->series, b->series) == 0;
}

/* Plots the benchmark points named like parameter `pi` with its curve. */
static void param_plot(struct page *p, arena *a, const struct expr_param *params,
                       size_t np, size_t pi, json_t *benchmarks)
{
    const struct expr_param *par = &params[pi];
    struct expr_names vars = {0};
    struct err e = {0};
    struct buf src, formula;
    struct bpoint *pts;
    struct svg_series series[MAX_GROUPS] = {0};
    struct svg_curve curves[MAX_GROUPS] = {0};
    struct svg_plot2d plot = {0};
    size_t nb = 0, i, j, ng = 0, nc = 0, ngroups = 0, xi = 0, oi = (size_t)-1,
           dropped = 0;
    int several = 0;
    double series_key = 0;
    double vals[EXPR_MAX_VARS];
    double xmin = INFINITY, xmax = -INFINITY, tmin = INFINITY, tmax = -INFINITY;
    expr *ex = NULL;
    json_t *b;
    char title[200], oname[EXPR_MAX_NAME + 1] = "";

    if (par->nargs == 0)
        return;
    buf_init(&src, 4096);
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
        /* an OSU log's placements are series of their own, each drawn apart
         * (the parameter is fitted to one of them, docs/import.md) */
        pts[nb].series = arena_printf(a, "%s\n%s", str(b, "test"), str(b, "label"));
        pts[nb].label = *str(b, "label") ? str(b, "label") : str(b, "test");
        pts[nb].t = t;
        if (pts[nb].series == NULL)
            goto out;
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
    /* a group of points per value of the other variable and series; with
     * several series under one value, the curve is drawn once, in a colour
     * none of them has */
    for (i = 0; i < nb; i = j) {
        for (j = i; j < nb && same_group(&pts[i], &pts[j]); j++)
            ;
        ngroups += ngroups < MAX_GROUPS;
        several |= strcmp(pts[i].series, pts[0].series) != 0;
    }
    for (i = 0; i < nb && ng < MAX_GROUPS; i = j) {
        double *xs, *ts;
        struct agg_point *ag;
        struct svg_point *sp;
        const char *measured;
        int nag;
        size_t k;
        for (j = i; j < nb && same_group(&pts[i], &pts[j]); j++)
            ;
        xs = arena_alloc(a, (j - i) * sizeof *xs);
        ts = arena_alloc(a, (j - i) * sizeof *ts);
        ag = arena_alloc(a, (j - i) * sizeof *ag);
        sp = arena_alloc(a, (j - i) * sizeof *sp);
        if (!xs || !ts || !ag || !sp)
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
        measured = oi != (size_t)-1
                       ? arena_printf(a, "measured, %s=%.6g", oname, pts[i].key)
                       : "measured";
        series[ng].label = several && *pts[i].label
                               ? arena_printf(a, "%s \xc2\xb7 %s", measured, pts[i].label)
                               : measured;
        series[ng].points = sp;
        series[ng].n = (size_t)nag;
        series[ng].color = (int)ng + 1;
        if (ng == 0 || pts[i].key != series_key) {
            /* The curve over the measured range, evenly spaced on the x axis. */
            double *cx = arena_alloc(a, CURVE_SAMPLES * sizeof *cx);
            double *cy = arena_alloc(a, CURVE_SAMPLES * sizeof *cy);
            if (!cx || !cy)
                goto out;
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
            curves[nc].label = oi != (size_t)-1 ? arena_printf(a, "parameter, %s=%.6g",
                                                               oname, pts[i].key)
                                                : "parameter";
            curves[nc].x = cx;
            curves[nc].y = cy;
            curves[nc].n = CURVE_SAMPLES;
            curves[nc].color = several ? (int)(ngroups + nc) + 1 : (int)ng + 1;
            nc++;
        }
        series_key = pts[i].key;
        ng++;
    }
    buf_printf(&formula, "%s = %s", buf_str(&src), par->body);
    snprintf(title, sizeof title, "%.64s: benchmark points and the fitted parameter",
             buf_str(&src));
    plot.title = title;
    plot.xlabel = vars.names[xi];
    plot.ylabel = "time";
    plot.yunit = "s";
    plot.yscale = tmin > 0 && tmax / tmin >= 100 ? SVG_LOG10 : SVG_LINEAR;
    plot.series = series;
    plot.nseries = ng;
    plot.curves = curves;
    plot.ncurves = nc;
    plot.formula = buf_str(&formula);
    page_plot2d(p, &plot, 0,
                dropped ? arena_printf(a,
                                       "%zu measurement%s at %s = 0 not drawn on the "
                                       "logarithmic axis.",
                                       dropped, dropped == 1 ? "" : "s", vars.names[xi])
                        : NULL,
                &e);
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
    buf_free(&formula);
}

/* ---- measurements over message size (OSU imports) ------------------------------ */

/* The OSU test a benchmark stored without one stands for, by its name
 * (docs/import.md); NULL for names the OSU import does not give. */
static const char *osu_test(const char *name)
{
    return osu_program_of(name);
}

/* How the page names a series: by the test the store kept for it
 * (osu_latency, what users know) with its label ("Testing Same CCX"), else,
 * for a benchmark posted or imported without one, by its name with the OSU
 * test it stands for as a hint ("MPISR (osu_latency)": prophecy-bench's
 * MPISR is a ping-pong of its own). A bandwidth as measured (NAME_MBS) is
 * named as its test. */
static const char *series_name(arena *a, const char *name, const char *test,
                               const char *label, int measured_bw)
{
    const char *base, *guess;
    if (*test)
        base = test;
    else {
        guess = osu_test(name);
        base = arena_printf(
            a, "%.*s%s%s%s", (int)(strlen(name) - (measured_bw ? strlen("_MBS") : 0)),
            name, guess ? " (" : "", guess ? guess : "", guess ? ")" : "");
    }
    return base && *label ? arena_printf(a, "%s \xc2\xb7 %s", base, label) : base;
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
    const char *name, *label, *test; /* a series: the three, and procs */
    size_t seq, first;               /* its place in the list; its series' first place */
    double procs, L, t;
    int stat; /* 0 mean (or none), 1 min, 2 max, 3 other */
    int kind; /* msg_kind */
};

/* What tells one series from another: its name, test and label. */
static int cmp_series(const struct msg *x, const struct msg *y)
{
    int c = strcmp(x->name, y->name);
    if (c == 0)
        c = strcmp(x->test, y->test);
    return c ? c : strcmp(x->label, y->label);
}

/* Series by their place in the list (stored order): for finding each one's
 * first measurement. */
static int cmp_msg_stored(const void *a, const void *b)
{
    const struct msg *x = a, *y = b;
    int c = cmp_series(x, y);
    return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* The plots' order: by the name the page shows (the test, else the
 * benchmark's name), then the series in the order they were stored (a log's
 * placements as it ran them), then process count and size. */
static int cmp_msg(const void *a, const void *b)
{
    const struct msg *x = a, *y = b;
    int c = strcmp(*x->test ? x->test : x->name, *y->test ? y->test : y->name);
    if (c == 0)
        c = strcmp(x->name, y->name);
    if (c == 0)
        c = strcmp(x->test, y->test);
    if (c == 0)
        c = (x->first > y->first) - (x->first < y->first);
    if (c == 0)
        c = strcmp(x->label, y->label);
    if (c)
        return c;
    if (x->procs != y->procs)
        return x->procs < y->procs ? -1 : 1;
    return x->L < y->L ? -1 : x->L > y->L;
}

static int same_series(const struct msg *x, const struct msg *y)
{
    return cmp_series(x, y) == 0 && x->procs == y->procs;
}

/* One log-log plot over message size of the benchmarks with an L argument:
 * bandwidth (MB/s) for the bandwidth tests, else time. Each series is one
 * benchmark series (name, test and label) at one process count: per size the
 * mean of its mean measurements, with the min-max of the run as error bars
 * when the output had them (osu -f). No fit. The legend goes under the plot:
 * a log of placements has six curves of one test, and their labels are what
 * the user measured. */
static void message_plot(struct page *p, arena *a, const struct msg *m, size_t n, int bw)
{
    struct svg_series series[MAX_MSG_SERIES];
    struct svg_curve lines[MAX_MSG_SERIES];
    struct svg_plot2d plot = {0};
    struct err e = {0};
    char cap[400], procs[80] = "";
    size_t ns = 0, i, j, k, more = 0;
    double one_p = 0; /* the process count of every series that has one, or 0 */
    int p_varies = 0, p_unknown = 0;

    /* P in the legend only where it tells the drawn series apart */
    for (i = 0; i < n; i++) {
        if ((m[i].kind >= 1) != bw || m[i].kind < 0 || m[i].L <= 0)
            continue;
        if (m[i].procs <= 0)
            p_unknown = 1;
        else if (one_p == 0)
            one_p = m[i].procs;
        else if (m[i].procs != one_p)
            p_varies = 1;
    }
    for (i = 0; i < n; i = j) {
        struct svg_point *pts;
        size_t np = 0;
        for (j = i; j < n && same_series(&m[j], &m[i]); j++)
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
        /* "osu_latency · Testing Same CCX", ", P=16" where P varies */
        series[ns].label =
            series_name(a, m[i].name, m[i].test, m[i].label, m[i].kind == 2);
        if (p_varies && m[i].procs > 0 && series[ns].label != NULL)
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
    plot.legend_below = 1;
    if (!p_varies && one_p > 0)
        snprintf(procs, sizeof procs, " P = %.0f processes for every series%s.", one_p,
                 p_unknown ? " that has a process count" : "");
    snprintf(cap, sizeof cap,
             "%s; each point the mean of its measurements, bars from the minimum to "
             "the maximum where the output had them.%s%s",
             bw ? "Bandwidth as OSU measures it (MB = 10^6 bytes)"
                : "Time of one operation",
             procs, more ? " More benchmarks than shown: the JSON has them all." : "");
    page_plot2d(p, &plot, 0, cap, &e);
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
        m[n].seq = i;
        m[n].label = str(b, "label");
        m[n].test = str(b, "test");
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
    qsort(m, n, sizeof *m, cmp_msg_stored);
    for (i = 0; i < n; i++)
        m[i].first =
            i > 0 && cmp_series(&m[i], &m[i - 1]) == 0 ? m[i - 1].first : m[i].seq;
    qsort(m, n, sizeof *m, cmp_msg);
    return n;
}

static void message_plots(struct page *p, arena *a, json_t *benchmarks)
{
    struct msg *m;
    size_t n = message_points(a, benchmarks, &m), i;
    int lat = 0, bw = 0;

    /* a plot draws each size's mean: benchmarks of minima alone (the demo's,
     * prophecy-bench's) draw none, and get no empty section either */
    for (i = 0; i < n; i++) {
        if (m[i].L <= 0 || m[i].kind < 0 || m[i].stat != 0)
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

/* The range of a bandwidth series' bandwidth (MB/s) over its measurements
 * with a message size: L / time. 0 when it has none. */
static int bandwidth_range(json_t *benchmarks, json_t *series, double *lo, double *hi)
{
    const char *name = str(series, "name"), *label = str(series, "label"),
               *test = str(series, "test");
    json_t *b;
    size_t i;
    int have = 0;
    json_array_foreach(benchmarks, i, b)
    {
        json_t *L = json_object_get(json_object_get(b, "args"), "L");
        double t = json_number_value(json_object_get(b, "time"));
        const char *stat = str(b, "stat");
        double v;
        if (strcmp(str(b, "name"), name) != 0 || strcmp(str(b, "label"), label) != 0 ||
            strcmp(str(b, "test"), test) != 0 || !json_is_number(L) || !(t > 0))
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

/* One row of the benchmarks table: a series of the system's summary, how
 * the page names it, what it measures and its range in that measure. */
struct brow {
    json_t *x;         /* the summary's entry: name, label, test, measurements */
    size_t at;         /* its place in the summary (by name, then stored order) */
    const char *shown; /* series_name without the label */
    const char *twin;  /* the derived time of a bandwidth folded into this row */
    const char *measure, *unit;
    double lo, hi;
    int skip;
};

static int cmp_brow(const void *pa, const void *pb)
{
    const struct brow *a = pa, *b = pb;
    int c = strcmp(a->shown, b->shown);
    return c ? c : (a->at > b->at) - (a->at < b->at);
}

/* The table of the system's benchmark series. A series whose test the store
 * kept is named by it (osu_mbw_mr), its label beside, with the names the
 * fits and templates use ("stored as MPIMBW_MBS and MPIMBW") after; its
 * bandwidth as measured (NAME_MBS) and the time per message derived from it
 * (NAME) are one row, as the plot draws them. A series without a test reads
 * as before: its name, and the OSU test the name stands for. */
static void benchmark_table(struct page *p, arena *a, json_t *sys, json_t *benchmarks)
{
    json_t *list = json_object_get(sys, "benchmarks"), *x;
    size_t i, j, n = json_array_size(list), tested = 0;
    struct brow *rows;

    page_puts(p, "<h2 id=\"benchmarks\">Benchmarks</h2>\n");
    if (n == 0) {
        page_puts(p, "<p class=\"muted\">No benchmark measurements.</p>\n");
        return;
    }
    if ((rows = arena_alloc(a, n * sizeof *rows)) == NULL)
        return;
    json_array_foreach(list, i, x)
    {
        const char *name = str(x, "name"), *test = str(x, "test");
        int mbs = ends_with(name, "_MBS"), msgs = ends_with(name, "_MSGS");
        struct brow *r = &rows[i];
        memset(r, 0, sizeof *r);
        r->x = x;
        r->at = i;
        r->shown = series_name(a, name, test, "", *test && mbs);
        if (r->shown == NULL)
            return;
        tested += *test != '\0';
        r->measure = mbs || (is_bandwidth(name) && !msgs) ? "bandwidth"
                     : msgs                               ? "message rate"
                                                          : "time";
        r->unit = msgs ? "/s" : r->measure[0] == 'b' ? "MB/s" : "s";
        r->lo = json_number_value(json_object_get(x, "min_time"));
        r->hi = json_number_value(json_object_get(x, "max_time"));
        if (!mbs && is_bandwidth(name) && !bandwidth_range(benchmarks, x, &r->lo, &r->hi))
            r->measure = "time", r->unit = "s"; /* no size to make it a bandwidth */
    }
    /* a tested bandwidth's derived time joins its twin as measured */
    for (i = 0; i < n; i++) {
        const char *name = str(rows[i].x, "name");
        if (!*str(rows[i].x, "test") || !is_bandwidth(name))
            continue;
        for (j = 0; j < n; j++) {
            const char *o = str(rows[j].x, "name");
            if (strncmp(o, name, strlen(name)) == 0 &&
                strcmp(o + strlen(name), "_MBS") == 0 &&
                strcmp(str(rows[j].x, "label"), str(rows[i].x, "label")) == 0 &&
                strcmp(str(rows[j].x, "test"), str(rows[i].x, "test")) == 0) {
                rows[i].skip = 1;
                rows[j].twin = name;
            }
        }
    }
    qsort(rows, n, sizeof *rows, cmp_brow);
    page_table_open(p, "Benchmarks");
    page_puts(p, "<thead><tr><th>Benchmark</th><th>Measure</th><th class=\"num\">"
                 "Measurements</th><th class=\"num\">Min</th><th class=\"num\">Max</th>"
                 "</tr></thead><tbody>\n");
    for (i = 0; i < n; i++) {
        const struct brow *r = &rows[i];
        const char *label = str(r->x, "label"), *test = str(r->x, "test");
        const char *guess = osu_test(str(r->x, "name"));
        if (r->skip)
            continue;
        /* "desc": on a phone the name wraps rather than push the values away */
        page_puts(p, "<tr><td class=\"desc\">");
        page_text(p, *test ? test : str(r->x, "name"));
        if (*label) {
            page_puts(p, " \xc2\xb7 ");
            page_text(p, label);
        }
        if (*test) {
            page_puts(p, " <span class=\"muted\">stored as ");
            page_text(p, str(r->x, "name"));
            if (r->twin) {
                page_puts(p, " and ");
                page_text(p, r->twin);
            }
            page_puts(p, "</span>");
        } else if (guess != NULL) {
            page_puts(p, " <span class=\"muted\">(");
            page_text(p, guess);
            page_puts(p, ")</span>");
        }
        page_printf(p, "</td><td>%s</td><td class=\"num\">%lld</td><td class=\"num\">",
                    r->measure,
                    (long long)json_integer_value(json_object_get(r->x, "measurements")));
        page_qty(p, r->lo, r->unit);
        page_puts(p, "</td><td class=\"num\">");
        page_qty(p, r->hi, r->unit);
        page_puts(p, "</td></tr>\n");
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
    if (tested > 0)
        page_puts(p, "<p class=\"muted\">Benchmarks are named by the test that measured "
                     "them; fits and templates refer to them by the name they are stored "
                     "as (<code>MPISR</code> for <code>osu_latency</code>).</p>\n");
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
    benchmark_table(p, p->arena, sys, d->benchmarks);
}
