/* view_scaling: the "Scaling at …" section of an application's page (SPEC
 * §18) and the reach of a prediction as the modeling pages show it; see
 * view.h.
 *
 * The section renders core/scaling.h's answer (the adapter,
 * server/dash_app.c, asks for it with the page's executable and system and
 * the picker's x and target): the headline (the bottleneck at the target and
 * how the modelled runtime grows), the kernels that scale worse than the
 * whole, a table of laws with the values and shares at the largest measured
 * x and at the target, the warnings, the metrics and what could not be
 * modelled. A selection without a law (too few values of x) shows why, with
 * the picker to choose another x. No HTTP, no database.
 */
#include "web/svg.h"
#include "common/units.h"
#include "web/view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double num(json_t *o, const char *key)
{
    return json_number_value(json_object_get(o, key));
}

static const char *str(json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

/* A time in seconds for people, as every page shows one (common/units.h: ns,
 * µs, ms or s, at most four significant digits, an exponent past 1e15), the
 * unit kept on the number's line. */
static void seconds(struct page *p, double s)
{
    char t[UNITS_MAX], *sp;
    units_fmt(t, sizeof t, s, "s");
    sp = strchr(t, ' ');
    if (sp == NULL) {
        page_text(p, t);
        return;
    }
    *sp = '\0';
    page_text(p, t);
    page_puts(p, "&nbsp;");
    page_text(p, sp + 1);
}

/* A share in percent: one decimal, or two significant digits below 0.05 %
 * (a kernel growing from 0.0012 % to 0.31 % is not "0.0 % to 0.3 %"), and
 * below 0.0001 % only that. */
static void percent(struct page *p, double share)
{
    double v = 100 * share;
    if (v > 0 && v < 0.0001)
        page_puts(p, "&lt;0.0001&nbsp;%");
    else if (v > 0 && v < 0.05)
        page_printf(p, "%.2g&nbsp;%%", v);
    else
        page_printf(p, "%.1f&nbsp;%%", v);
}

/* The value of a series at x: seconds for kernels and the runtime (unit
 * "s"), a metric in the unit its name tells (common/units.h: cpu_time in
 * seconds, bytes in B, a count as a plain number, never "1.27e+03"). */
static void value(struct page *p, double v, const char *unit)
{
    char t[UNITS_MAX];
    if (unit != NULL && strcmp(unit, "s") == 0)
        seconds(p, v);
    else if (isfinite(v))
        page_text(p, units_fmt(t, sizeof t, v, unit));
    else
        page_puts(p, "–");
}

void view_reach(struct page *p, json_t *prediction, const char *id)
{
    double reach = num(prediction, "extrapolation");
    const char *w = str(prediction, "warning");
    if (reach > 0) {
        page_puts(p, "<p class=\"reach\"");
        if (id) {
            page_puts(p, " id=\"");
            page_attr(p, id);
            page_puts(p, "-extrapolation\"");
        }
        page_printf(p, ">Extrapolated %.3g doubling%s outside the measured range.</p>\n",
                    reach, reach == 1 ? "" : "s");
    }
    if (w) {
        page_puts(p, "<p class=\"notice bad\" role=\"alert\"");
        if (id) {
            page_puts(p, " id=\"");
            page_attr(p, id);
            page_puts(p, "-warning\"");
        }
        page_puts(p, ">Warning: ");
        page_text(p, w);
        page_puts(p, "</p>\n");
    }
}

/* "nprocs = 256" */
static void at(struct page *p, const char *x, double v)
{
    page_text(p, x);
    page_puts(p, "&nbsp;=&nbsp;");
    page_num(p, v);
}

/* Each configuration's inputs, parsed: element i is config i's object (null
 * where it does not parse). New reference, or NULL without memory. */
static json_t *parsed_inputs(const struct view_app *v)
{
    json_t *ins = json_array();
    for (int i = 0; ins != NULL && i < v->nconfigs; i++) {
        json_t *in = json_loads(v->configs[i].inputs_json, 0, NULL);
        if (json_array_append_new(ins, in ? in : json_null()) != 0) {
            json_decref(ins);
            return NULL;
        }
    }
    return ins;
}

/* ins with null for the configurations of other executables than exe (a
 * new reference; ins itself, referenced again, without memory). */
static json_t *only_executable(const struct view_app *v, json_t *ins, const char *exe)
{
    json_t *out = json_array();
    for (int i = 0; out != NULL && exe != NULL && i < v->nconfigs; i++)
        if (json_array_append_new(out, strcmp(v->configs[i].executable, exe) == 0
                                           ? json_incref(json_array_get(ins, (size_t)i))
                                           : json_null()) != 0) {
            json_decref(out);
            out = NULL;
        }
    if (out == NULL || exe == NULL) {
        json_decref(out);
        return json_incref(ins);
    }
    return out;
}

#define MAX_X 32
/* view_scaling_x_choices over the parsed inputs ins. */
static size_t x_choices(json_t *ins, json_t *vars)
{
    size_t i;
    json_t *in;
    json_array_append_new(vars, json_string("nprocs"));
    json_array_foreach(ins, i, in)
    {
        const char *key;
        json_t *val;
        if (json_array_size(vars) >= MAX_X)
            break;
        json_object_foreach(in, key, val)
        {
            size_t j;
            for (j = 0; j < json_array_size(vars); j++)
                if (strcmp(json_string_value(json_array_get(vars, j)), key) == 0)
                    break;
            if (j == json_array_size(vars) && j < MAX_X)
                json_array_append_new(vars, json_string(key));
        }
    }
    return json_array_size(vars);
}

size_t view_scaling_x_choices(const struct view_app *v, json_t *vars)
{
    json_t *ins = parsed_inputs(v);
    size_t n = x_choices(ins, vars);
    json_decref(ins);
    return n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The values of variable `name` ("nprocs" or an input) over the page's
 * configurations (ins: each one's inputs, parsed; null: a configuration
 * left out), distinct and ascending, into vals (at most max); their number,
 * or max + 1 when there are more. */
static size_t values_of(const struct view_app *v, json_t *ins, const char *name,
                        double *vals, size_t max)
{
    size_t n = 0;
    for (int i = 0; i < v->nconfigs; i++) {
        json_t *in = json_array_get(ins, (size_t)i), *val = json_object_get(in, name);
        double x;
        size_t j;
        if (!json_is_object(in))
            continue;
        if (strcmp(name, "nprocs") == 0)
            x = (double)v->configs[i].nprocs;
        else if (json_is_number(val))
            x = json_number_value(val);
        else
            continue;
        for (j = 0; j < n && vals[j] != x; j++)
            ;
        if (j < n)
            continue;
        if (n == max)
            return max + 1;
        vals[n++] = x;
    }
    qsort(vals, n, sizeof *vals, cmp_double);
    return n;
}

/* The picker's slice: a select for each variable but x that the page's
 * configurations were measured at several values of (nprocs=, input.NAME=
 * as the API takes them), the value the section shows selected; empty: the
 * slice measured at the most values of x (core/scaling.h). */
#define FIXED_VALUES 200
static void slice_fields(struct page *p, const struct view_app *v, json_t *ins, json_t *s,
                         const char *x, json_t *vars)
{
    double vals[FIXED_VALUES];
    json_t *shown = json_object_get(json_object_get(s, "selection"), "fixed");
    for (size_t i = 0; i < json_array_size(vars); i++) {
        const char *name = json_string_value(json_array_get(vars, i));
        int nprocs = strcmp(name, "nprocs") == 0;
        json_t *cur = json_object_get(shown, name);
        const char *asked = json_string_value(json_object_get(v->scaling_fixed, name));
        double sel = 0;
        int has = 0;
        size_t n = values_of(v, ins, name, vals, FIXED_VALUES);
        if (strcmp(name, x) == 0 || n < 2 || n > FIXED_VALUES)
            continue;
        if (json_is_number(cur)) {
            sel = json_number_value(cur);
            has = 1;
        } else if (asked != NULL) {
            char *end;
            sel = strtod(asked, &end);
            has = end != asked && *end == '\0';
        }
        page_printf(p, "<div class=\"field\"><label for=\"s-fix-%zu\">", i);
        page_text(p, name);
        page_printf(p, "</label><select id=\"s-fix-%zu\" name=\"%s", i,
                    nprocs ? "" : "input.");
        page_attr(p, name);
        page_puts(p, "\"><option value=\"\">the most measured</option>");
        for (size_t k = 0; k < n; k++) {
            page_printf(p, "<option value=\"%.17g\"%s>", vals[k],
                        has && vals[k] == sel ? " selected" : "");
            page_num(p, vals[k]);
            page_puts(p, "</option>");
        }
        page_puts(p, "</select></div>\n");
    }
}

/* The picker: x, the slice and the target, with the page's filters kept;
 * ins: the configurations' inputs (parsed_inputs). */
static void picker(struct page *p, const struct view_app *v, json_t *ins, json_t *s)
{
    const char *x = v->scaling_x ? v->scaling_x : "nprocs";
    json_t *vars = json_array();
    size_t i, n;

    page_puts(p, "<form class=\"filters card\" method=\"get\" action=\"/applications/");
    page_url(p, v->name);
    page_puts(p, "#scaling-at\">\n");
    if (v->exe) {
        page_puts(p, "<input type=\"hidden\" name=\"executable\" value=\"");
        page_attr(p, v->exe);
        page_puts(p, "\">");
    }
    if (v->sys) {
        page_puts(p, "<input type=\"hidden\" name=\"system\" value=\"");
        page_attr(p, v->sys);
        page_puts(p, "\">");
    }
    page_puts(p, "<div class=\"field\"><label for=\"s-x\">Over</label>"
                 "<select id=\"s-x\" name=\"x\">");
    n = x_choices(ins, vars);
    for (i = 0; i < n; i++) {
        page_puts(p, "<option value=\"");
        page_attr(p, json_string_value(json_array_get(vars, i)));
        page_printf(p, "\"%s>",
                    strcmp(json_string_value(json_array_get(vars, i)), x) == 0
                        ? " selected"
                        : "");
        page_text(p, json_string_value(json_array_get(vars, i)));
        page_puts(p, "</option>");
    }
    page_puts(p, "</select></div>\n");
    /* the slice among the chosen executable's configurations (the scaling
     * of one Google Benchmark family of several: core/scaling.h) */
    if (s != NULL && !v->exe &&
        json_is_integer(json_object_get(json_object_get(s, "selection"), "executables")))
        ins = only_executable(v, ins, str(json_object_get(s, "selection"), "executable"));
    else
        json_incref(ins);
    slice_fields(p, v, ins, s, s ? str(s, "x") : x, vars);
    json_decref(ins);
    json_decref(vars);
    /* the target as asked; unasked, the default shown as a placeholder, so
     * that another x or slice takes its own default, not this one's */
    page_puts(p, "<div class=\"field\"><label for=\"s-target\">Target"
                 "</label><input type=\"text\" id=\"s-target\" name=\"target\" "
                 "inputmode=\"decimal\" ");
    if (s != NULL && !(v->scaling_target && *v->scaling_target))
        page_printf(p, "placeholder=\"%.15g\" ", num(s, "target"));
    page_puts(p, "value=\"");
    if (v->scaling_target)
        page_attr(p, v->scaling_target);
    page_puts(
        p, "\"><span class=\"hint\">default: 4 × the largest measured</span></div>\n"
           "<div class=\"field\"><button type=\"submit\">Show</button></div></form>\n");
}

/* What the laws were fitted to: system, executable, fixed inputs, values. */
static void selection(struct page *p, json_t *s, const char *x)
{
    json_t *sel = json_object_get(s, "selection"), *vals = json_object_get(sel, "values");
    size_t i, n = json_array_size(vals);

    page_puts(p,
              "<p class=\"muted\" id=\"scaling-selection\">Every kernel of the runs on ");
    page_text(p, str(sel, "system"));
    if (str(sel, "executable")) {
        page_puts(p, " (");
        page_text(p, str(sel, "executable"));
        if (json_is_integer(json_object_get(sel, "executables"))) {
            page_printf(
                p, ", of %lld executables the one measured at the most values of ",
                (long long)json_integer_value(json_object_get(sel, "executables")));
            page_text(p, x);
            page_puts(p, "; the Executable filter above shows another");
        }
        page_puts(p, ")");
    }
    page_selection_vars(p, sel, x);
    page_printf(p, ", modelled over %s", "");
    page_text(p, x);
    page_printf(p, " with <code>auto</code> from %lld runs at %zu values (",
                (long long)json_integer_value(json_object_get(sel, "runs")), n);
    for (i = 0; i < n; i++) {
        if (i > 0)
            page_puts(p, i + 1 == n ? " and " : ", ");
        if (n > 6 && i == 2) {
            page_puts(p, "…, ");
            i = n - 2;
        }
        page_num(p, json_number_value(json_array_get(vals, i)));
    }
    page_puts(
        p, "). A share is of the modelled runtime: the sum of the kernels' laws.</p>\n");
}

/* The headline: the bottleneck at the target and the whole's growth. */
static void headline(struct page *p, json_t *s, const char *x)
{
    json_t *ks = json_object_get(s, "kernels"), *b = json_array_get(ks, 0);
    json_t *total = json_object_get(s, "total");
    double xm = num(s, "measured"), xt = num(s, "target");

    if (b == NULL || !json_is_string(json_object_get(s, "bottleneck"))) {
        /* what is below instead: the runtime's law, else the metrics' (a file
         * without any time, SPEC §16), else only why nothing is */
        page_puts(p, "<p class=\"notice\" id=\"scaling-headline\">");
        if (json_is_object(json_object_get(s, "runtime")))
            page_puts(p,
                      "No kernel could be modelled (the runs record no kernel times, or "
                      "too few of them), so there are no shares; the runtime's own law "
                      "is below.");
        else if (json_array_size(json_object_get(s, "metrics")) > 0)
            page_puts(p,
                      "Neither a kernel nor the runtime could be modelled (below, why), "
                      "so there are no shares; the metrics' laws are below.");
        else
            page_puts(p, "Nothing could be modelled: below, why.");
        page_puts(p, "</p>\n");
        return;
    }
    page_puts(p, "<p class=\"notice headline\" id=\"scaling-headline\">At ");
    at(p, x, xt);
    page_puts(p, " the bottleneck is <strong id=\"bottleneck\">");
    page_text(p, str(s, "bottleneck"));
    page_puts(p, "</strong>: ");
    percent(p, num(b, "share_target"));
    page_puts(p, " of the modelled runtime (");
    percent(p, num(b, "share_measured"));
    page_puts(p, " at ");
    at(p, x, xm);
    page_puts(p, "). The modelled runtime goes from ");
    seconds(p, num(total, "measured"));
    page_puts(p, " to ");
    seconds(p, num(total, "target"));
    page_puts(p, ".</p>\n");
}

/* The kernels whose share grows: Calotoiu et al.'s scalability bugs. */
static void worse(struct page *p, json_t *s)
{
    json_t *ks = json_object_get(s, "kernels"), *k;
    size_t i, n = 0;

    json_array_foreach(ks, i, k) n +=
        json_is_true(json_object_get(k, "worse_than_whole"));
    if (json_array_size(ks) == 0)
        return;
    if (n == 0) {
        page_puts(p, "<p id=\"scaling-worse\">No kernel scales worse than the whole "
                     "application.</p>\n");
        return;
    }
    page_printf(p,
                "<p id=\"scaling-worse\">Scale%s worse than the whole application "
                "(a share that grows by a tenth or more, to 0.1&nbsp;%% at least): ",
                n == 1 ? "s" : "");
    n = 0;
    json_array_foreach(ks, i, k)
    {
        if (!json_is_true(json_object_get(k, "worse_than_whole")))
            continue;
        page_puts(p, n++ ? ", " : "");
        page_puts(p, "<strong>");
        page_text(p, str(k, "name"));
        page_puts(p, "</strong> (");
        percent(p, num(k, "share_measured"));
        page_puts(p, " → ");
        percent(p, num(k, "share_target"));
        page_puts(p, ")");
    }
    page_puts(p, ".</p>\n");
}

/* One law's cells: value at the measured end, [share], value at the target
 * with its interval, [share], then the law (the longest, last, so that a
 * phone shows the numbers first) (shares 1: the shares, 0: no such cells,
 * -1: empty cells). */
static void law_cells(struct page *p, json_t *k, const char *unit, int shares)
{
    page_puts(p, "<td class=\"num\">");
    value(p, num(k, "measured"), unit);
    page_puts(p, "</td>");
    if (shares > 0) {
        page_puts(p, "<td class=\"num\">");
        percent(p, num(k, "share_measured"));
        page_puts(p, "</td>");
    } else if (shares < 0) {
        page_puts(p, "<td></td>");
    }
    page_puts(p, "<td class=\"num\"><strong>");
    value(p, num(k, "y"), unit);
    page_puts(p, "</strong><span class=\"hint\">");
    value(p, num(k, "lo"), unit);
    page_puts(p, " – ");
    value(p, num(k, "hi"), unit);
    page_puts(p, "</span></td>");
    if (shares > 0) {
        page_puts(p, "<td class=\"num\">");
        percent(p, num(k, "share_target"));
        page_puts(p, "</td>");
    } else if (shares < 0) {
        page_puts(p, "<td></td>");
    }
    page_puts(p, "<td>");
    page_law(p, str(k, "formula"));
    page_puts(p, "</td>");
}

static void table_head(struct page *p, const char *first, const char *x, json_t *s,
                       int shares)
{
    page_printf(p, "<thead><tr><th>%s</th><th class=\"num\">At ", first);
    at(p, x, num(s, "measured"));
    page_puts(p, "</th>");
    if (shares)
        page_puts(p, "<th class=\"num\">Share</th>");
    page_puts(p, "<th class=\"num\">At ");
    at(p, x, num(s, "target"));
    page_puts(p, "<span class=\"hint\">95&nbsp;% interval</span></th>");
    if (shares)
        page_puts(p, "<th class=\"num\">Share</th>");
    page_puts(p, "<th>Law</th></tr></thead><tbody>\n");
}

/* The modelled runtime at the largest measured x and at the target as two
 * bars stacked by kernel (the largest shares at the target first; past
 * SVG_PALETTE_SIZE - 1 kernels the rest as "other"), wide and narrow. */
#define CHART_KERNELS (SVG_PALETTE_SIZE - 1)
static void chart(struct page *p, json_t *s, const char *x)
{
    json_t *ks = json_object_get(s, "kernels"), *k;
    const char *comps[CHART_KERNELS + 1], *cats[2];
    double values[2 * (CHART_KERNELS + 1)];
    size_t i, n = json_array_size(ks), nc = n > CHART_KERNELS ? CHART_KERNELS + 1 : n;
    struct svg_stacked st = {0};
    struct err e = {0};

    if (n == 0 || p->arena == NULL)
        return;
    memset(values, 0, sizeof values);
    json_array_foreach(ks, i, k)
    {
        size_t c = i < CHART_KERNELS ? i : CHART_KERNELS;
        double m = num(k, "measured"), t = num(k, "y");
        comps[c] = i < CHART_KERNELS || n == CHART_KERNELS + 1 ? str(k, "name") : "other";
        values[c] += m > 0 ? m : 0;
        values[nc + c] += t > 0 ? t : 0;
    }
    cats[0] = arena_printf(p->arena, "%.6g (measured)", num(s, "measured"));
    cats[1] = arena_printf(p->arena, "%.6g (target)", num(s, "target"));
    if (cats[0] == NULL || cats[1] == NULL)
        return;
    st.title = "Modelled runtime by kernel";
    st.xlabel = x;
    st.ylabel = "time (s)";
    st.categories = cats;
    st.ncategories = 2;
    st.components = comps;
    st.ncomponents = nc;
    st.values = values;
    st.other = n > CHART_KERNELS + 1;
    st.colors = page_colors(p, comps, nc);
    page_stacked(p, &st, 0,
                 "Each kernel's law at the largest measured value and at the target, "
                 "stacked: the bar is the modelled runtime.",
                 &e);
}

static void kernels_table(struct page *p, json_t *s, const char *x)
{
    json_t *ks = json_object_get(s, "kernels"), *k, *total = json_object_get(s, "total");
    json_t *rt = json_object_get(s, "runtime");
    size_t i;

    if (json_array_size(ks) == 0) {
        /* no kernels: the runtime's own law alone */
        if (!json_is_object(rt))
            return;
        page_table_open(p, "The runtime's law");
        table_head(p, "Series", x, s, 0);
        page_puts(p, "<tr><td class=\"name\">Measured runtime</td>");
        law_cells(p, rt, "s", 0);
        page_puts(p, "</tr>\n</tbody>");
        page_table_close(p);
        return;
    }
    page_table_open(p, "Kernels' laws and shares");
    table_head(p, "Kernel", x, s, 1);
    json_array_foreach(ks, i, k)
    {
        int bug = json_is_true(json_object_get(k, "worse_than_whole"));
        page_printf(p, "<tr%s><td class=\"name\">", bug ? " class=\"alert\"" : "");
        page_text(p, str(k, "name"));
        /* the marks on a line of their own, so that the column stays narrow */
        if (i == 0 || bug || json_is_string(json_object_get(k, "warning"))) {
            page_puts(p, "<span class=\"hint\">");
            if (i == 0)
                page_puts(p, "<span class=\"badge\">bottleneck</span> ");
            if (bug)
                page_puts(p, "<span class=\"badge\">scales worse</span> ");
            if (json_is_string(json_object_get(k, "warning")))
                page_puts(p, "<span class=\"badge\">warning</span>");
            page_puts(p, "</span>");
        }
        page_puts(p, "</td>");
        law_cells(p, k, "s", 1);
        page_puts(p, "</tr>\n");
    }
    page_puts(p, "<tr><td class=\"name\"><strong>Modelled runtime</strong></td>"
                 "<td class=\"num\">");
    seconds(p, num(total, "measured"));
    page_puts(p, "</td><td class=\"num\">100&nbsp;%</td><td class=\"num\"><strong>");
    seconds(p, num(total, "target"));
    page_puts(p, "</strong></td><td class=\"num\">100&nbsp;%</td><td class=\"muted\">"
                 "the sum of the laws above</td></tr>\n");
    if (json_is_object(rt)) {
        page_puts(p,
                  "<tr><td class=\"name\">Measured runtime<span class=\"hint\">its own "
                  "law</span></td>");
        law_cells(p, rt, "s", -1);
        page_puts(p, "</tr>\n");
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
}

/* The warnings of the predictions at the target (the kernels', then the
 * runtime's and the metrics'), one line each, behind a summary. */
static void warnings(struct page *p, json_t *s)
{
    json_t *lists[3], *k;
    size_t i, l, n = 0, all = 0;
    double reach = 0;

    lists[0] = json_object_get(s, "kernels");
    k = json_object_get(s, "runtime");
    /* no runtime model: an empty list (a new {} under "[O]" would leak) */
    lists[1] = json_is_object(k) ? json_pack("[O]", k) : json_array();
    lists[2] = json_object_get(s, "metrics");
    for (l = 0; l < 3; l++)
        json_array_foreach(lists[l], i, k)
        {
            n += json_is_string(json_object_get(k, "warning"));
            all += json_is_string(json_object_get(k, "formula"));
            /* the predictions' own reach (either side of the data), not
             * one recomputed from the largest x: a target below the data
             * reaches out too */
            if (num(k, "extrapolation") > reach)
                reach = num(k, "extrapolation");
        }
    if (reach > 0)
        page_printf(
            p,
            "<p class=\"reach\" id=\"scaling-extrapolation\">The target lies %.3g "
            "doubling%s %s measured value.</p>\n",
            reach, reach == 1 ? "" : "s",
            num(s, "target") > num(s, "measured") ? "beyond the largest"
                                                  : "below the smallest");
    if (n > 0) {
        page_puts(p, "<details class=\"request\" id=\"scaling-warnings\"><summary>");
        page_printf(p, "Warnings on %zu of the %zu predictions", n, all);
        page_puts(p, "</summary><ul>\n");
        for (l = 0; l < 3; l++)
            json_array_foreach(lists[l], i, k)
            {
                if (!json_is_string(json_object_get(k, "warning")))
                    continue;
                page_puts(p, "<li><strong>");
                page_text(p, l == 1 ? "the measured runtime" : str(k, "name"));
                page_puts(p, "</strong>: ");
                page_text(p, str(k, "warning"));
                page_puts(p, "</li>\n");
            }
        page_puts(p, "</ul></details>\n");
    }
    json_decref(lists[1]);
}

static void metrics(struct page *p, json_t *s, const char *x)
{
    json_t *ms = json_object_get(s, "metrics"), *m;
    size_t i;
    if (json_array_size(ms) == 0)
        return;
    page_puts(p, "<h3>Metrics</h3>\n");
    page_table_open(p, "Metrics' laws");
    table_head(p, "Metric", x, s, 0);
    json_array_foreach(ms, i, m)
    {
        page_puts(p, "<tr><td class=\"name\">");
        page_text(p, str(m, "name"));
        page_puts(p, "</td>");
        law_cells(p, m, units_of_metric(str(m, "name")), 0);
        page_puts(p, "</tr>\n");
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
}

static void skipped(struct page *p, json_t *s)
{
    json_t *sk = json_object_get(s, "skipped"), *k;
    size_t i;
    if (json_array_size(sk) == 0)
        return;
    page_puts(p, "<p class=\"muted\" id=\"scaling-skipped\">Not modelled: ");
    json_array_foreach(sk, i, k)
    {
        page_puts(p, i ? "; " : "");
        page_text(p, str(k, "name") ? str(k, "name") : "the runtime");
        page_puts(p, " (");
        page_text(p, str(k, "reason"));
        page_puts(p, ")");
    }
    page_puts(p, ".</p>\n");
}

/* The rest of the API's query for the selection shown: system, executable,
 * and each fixed variable (nprocs=, input.NAME=). */
static void json_link_rest(struct page *p, json_t *sel)
{
    const char *key;
    json_t *v;
    page_puts(p, "&amp;system=");
    page_url(p, str(sel, "system"));
    if (str(sel, "executable")) {
        page_puts(p, "&amp;executable=");
        page_url(p, str(sel, "executable"));
    }
    json_object_foreach(json_object_get(sel, "fixed"), key, v)
    {
        page_puts(p, strcmp(key, "nprocs") == 0 ? "&amp;" : "&amp;input.");
        page_url(p, key);
        if (json_is_null(v)) /* the runs without it: an empty value */
            page_puts(p, "=");
        else
            page_printf(p, "=%.17g", json_number_value(v));
    }
}

/* Whether every variable of the page's configurations (nprocs and each
 * input) was measured at one value only: then no x of the picker can give a
 * law (an LNT suite, one profile), and the section says so without it. */
static int nothing_varies(const struct view_app *v, json_t *ins)
{
    json_t *vars = json_array();
    double vals[2];
    int one = ins != NULL && vars != NULL;
    x_choices(ins, vars);
    for (size_t i = 0; one && i < json_array_size(vars); i++)
        one = values_of(v, ins, json_string_value(json_array_get(vars, i)), vals, 2) <= 1;
    json_decref(vars);
    return one;
}

/* view_scaling_at, with ins the configurations' inputs parsed once for the
 * picker and nothing_varies. */
static void section(struct page *p, const struct view_app *v, json_t *ins)
{
    json_t *s = v->scaling;
    const char *x = s ? str(s, "x") : (v->scaling_x ? v->scaling_x : "nprocs");

    page_puts(p, "<section class=\"scaling\" aria-labelledby=\"scaling-at\">\n<h2 "
                 "id=\"scaling-at\">Scaling at ");
    if (s != NULL)
        at(p, x, num(s, "target"));
    else
        page_text(p, x);
    page_puts(p, "</h2>\n");
    if (s == NULL && v->scaling_x == NULL && v->nconfigs > 0 && !v->truncated &&
        nothing_varies(v, ins)) {
        page_printf(p,
                    "<p class=\"muted\" id=\"scaling-error\">Nothing to scale: the runs "
                    "shown were all measured at %lld process%s and no input of theirs "
                    "varies; a scaling law needs one variable measured at 3 values or "
                    "more.</p>\n</section>\n",
                    (long long)v->configs[0].nprocs,
                    v->configs[0].nprocs == 1 ? "" : "es");
        return;
    }
    if (s == NULL) {
        page_puts(p, "<p class=\"notice\" id=\"scaling-error\">");
        page_text(p, v->scaling_error->message);
        page_puts(p, "</p>\n");
        picker(p, v, ins, NULL);
        page_puts(p, "</section>\n");
        return;
    }
    if (json_object_get(s, "kernels") == NULL) {
        /* the selection alone: too many runs to model unasked */
        page_printf(
            p,
            "<p class=\"notice\" id=\"scaling-ask\">Every kernel of these %lld runs "
            "modelled at once shows which one will dominate at the target. With "
            "this many runs the fits take a moment, so they are made when you ask: "
            "<em>Show</em>.</p>\n",
            (long long)json_integer_value(
                json_object_get(json_object_get(s, "selection"), "runs")));
        picker(p, v, ins, s);
        selection(p, s, x);
        page_puts(p, "</section>\n");
        return;
    }
    headline(p, s, x);
    worse(p, s);
    picker(p, v, ins, s);
    selection(p, s, x);
    chart(p, s, x);
    kernels_table(p, s, x);
    warnings(p, s);
    metrics(p, s, x);
    skipped(p, s);
    page_puts(p, "<p>JSON: <a href=\"/api/v1/applications/");
    page_url(p, v->name);
    page_puts(p, "/scaling?x=");
    page_url(p, x);
    page_printf(p, "&amp;target=%.15g", num(s, "target"));
    json_link_rest(p, json_object_get(s, "selection"));
    page_puts(p, "\">the same as the API answers it</a></p>\n</section>\n");
}

void view_scaling_at(struct page *p, const struct view_app *v)
{
    json_t *ins;
    if (v->scaling == NULL && v->scaling_error == NULL)
        return;
    ins = parsed_inputs(v);
    section(p, v, ins);
    json_decref(ins);
}
