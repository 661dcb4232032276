/* view_run: one run (/runs/{id}) with every field, its inputs, metrics and
 * kernel records, the kernel breakdown as a stacked bar and, when kernel
 * names are call paths ("main/solve/mpi"), the call tree; see view.h.
 * Values are shown in readable units (common/units.h); an absent runtime is "—". */
#include "web/svg.h"
#include "common/units.h"
#include "web/view.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void kv_table(struct page *p, const char *title, const char *what,
                     const struct rec_kv *kv, size_t n, int metrics)
{
    size_t i;
    page_printf(p, "<h2>%s</h2>\n", title);
    if (n == 0) {
        page_printf(p, "<p class=\"muted\">No %s recorded.</p>\n", what);
        return;
    }
    page_table_open(p, title);
    page_puts(p, "<thead><tr><th>Name</th><th class=\"num\">Value</th></tr></thead>"
                 "<tbody>\n");
    for (i = 0; i < n; i++) {
        page_puts(p, "<tr><td class=\"path\">");
        page_text(p, kv[i].name);
        page_puts(p, "</td><td class=\"num\">");
        page_qty(p, kv[i].value, metrics ? units_of_metric(kv[i].name) : NULL);
        page_puts(p, "</td></tr>\n");
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
}

/* A kernel's metrics (o, parsed from its JSON object text) as "name value ·
 * name value", each number in its unit. */
static void kernel_metrics(struct page *p, json_t *o)
{
    const char *key;
    json_t *v;
    int first = 1;

    json_object_foreach(o, key, v)
    {
        if (!first)
            page_puts(p, " · ");
        first = 0;
        page_puts(p, "<span class=\"metric\">");
        page_text(p, key);
        page_puts(p, " ");
        if (json_is_number(v))
            page_qty(p, json_number_value(v), units_of_metric(key));
        else
            page_json(p, v);
        page_puts(p, "</span>");
    }
}

/* A share as a percentage with one decimal ("12.5 %"), by integer
 * arithmetic: a page of 10,000 kernels prints 20,000 of them. */
static void share(struct page *p, double part, double whole)
{
    double f = 1000.0 * part / whole;
    long long t;
    if (!isfinite(f) || fabs(f) > 1e15) {
        page_puts(p, "\xe2\x80\x94");
        return;
    }
    t = llround(f);
    page_printf(p, "%s%lld.%lld %%", t < 0 ? "-" : "", llabs(t) / 10, llabs(t) % 10);
}

/* A provenance value (SPEC §17) linked to the application's runs table
 * filtered by it, or "not given". */
static void vcs_link(struct page *p, const struct run_record *run, const char *key,
                     const char *val, const char *id)
{
    if (val == NULL) {
        page_puts(p, "<span class=\"muted\">not given</span>");
        return;
    }
    page_printf(p, "<a id=\"%s\" href=\"/applications/", id);
    page_url(p, run->application);
    page_printf(p, "?%s=", key);
    page_url(p, val);
    page_puts(p, "#runs\"><code>");
    page_text(p, val);
    page_puts(p, "</code></a>");
}

/* The run's commit, branch and tags as more facts (inside the <dl>, after
 * an open <dd>). */
static void provenance(struct page *p, const struct run_record *run)
{
    size_t i;
    page_puts(p, "</dd>\n<dt>Commit</dt><dd>");
    vcs_link(p, run, "commit", run->commit, "run-commit");
    page_puts(p, "</dd>\n<dt>Branch</dt><dd>");
    vcs_link(p, run, "branch", run->branch, "run-branch");
    page_puts(p, "</dd>\n<dt>Tags</dt><dd id=\"run-tags\">");
    if (run->ntags == 0)
        page_puts(p, "<span class=\"muted\">none</span>");
    for (i = 0; i < run->ntags; i++) {
        if (i)
            page_puts(p, ", ");
        page_puts(p, "<code>");
        page_text(p, run->tags[i].key);
        page_puts(p, "=");
        page_text(p, run->tags[i].value);
        page_puts(p, "</code>");
    }
}

/* ---- the call tree ------------------------------------------------------------ */

/* One node of the call tree: a path (a kernel's name or a prefix of one). */
struct node {
    const char *path; /* in the run */
    const char *key;  /* the path with '/' as byte 1, for sorting */
    size_t len;
    double excl;       /* the kernel's time; NAN: none, or a path without a record */
    double incl;       /* its "inclusive" metric, or NAN */
    double sub;        /* the times in the subtree summed; NAN when none has one */
    size_t parent;     /* index, or SIZE_MAX for a root */
    int depth, kernel; /* kernel: a record has this path */
};

/* Path order in which a node's descendants follow it directly: '/' sorts
 * before every other byte. Nodes compare by their key, the path with '/' as
 * byte 1 (names hold no control characters), so memcmp does the work. */
static int node_cmp(const void *a, const void *b)
{
    const struct node *x = a, *y = b;
    int c = memcmp(x->key, y->key, x->len < y->len ? x->len : y->len);
    if (c)
        return c;
    return x->len < y->len ? -1 : x->len > y->len;
}

static int node_ptr_cmp(const void *a, const void *b)
{
    return node_cmp(*(const struct node *const *)a, *(const struct node *const *)b);
}

/* How a run's kernel times aggregate its ranks (docs/import.md, "Several
 * ranks"), told by the statistics beside them: an importer that keeps the
 * mean over the ranks as a kernel's time names the largest beside it
 * (`exclusive_max`, with `inclusive_mean`: CUBE, HPCToolkit); one that keeps
 * the slowest rank's names the mean (`mean` and `min`: TAU, Caliper), and
 * its `inclusive` is the slowest rank's too. Every column of the call tree
 * takes the aggregation of the kernels' time, so that a child compares with
 * its parent. */
enum ranks { RANKS_ONE, RANKS_SLOWEST, RANKS_MEAN };

static enum ranks ranks_of(const struct run_record *run, json_t **metrics)
{
    for (size_t i = 0; i < run->nkernels; i++) {
        json_t *m = metrics[i];
        if (json_object_get(m, "exclusive_max") && json_object_get(m, "inclusive_mean"))
            return RANKS_MEAN;
        if (json_object_get(m, "mean") && json_object_get(m, "min"))
            return RANKS_SLOWEST;
    }
    return RANKS_ONE;
}

/* A kernel's inclusive time aggregated as its time is (ranks_of), or NAN. */
static double inclusive_of(json_t *metrics, enum ranks r)
{
    json_t *v =
        json_object_get(metrics, r == RANKS_MEAN ? "inclusive_mean" : "inclusive");
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Whether s[k] separates two parts of a call path: a '/' outside brackets,
 * so that "[{file.c} ...]" or "[OpenMP location: file:/home/...]" in a TAU
 * name, or "(a/b)" in a signature, stays inside its part. depth is the
 * bracket depth before s[k], kept by the caller. */
static int separator(const char *s, size_t k, int *depth)
{
    char c = s[k];
    if (c == '[' || c == '{' || c == '(')
        ++*depth;
    else if ((c == ']' || c == '}' || c == ')') && *depth > 0)
        --*depth;
    return c == '/' && *depth == 0;
}

static int has_paths(const struct run_record *run)
{
    for (size_t i = 0; i < run->nkernels; i++) {
        const char *s = run->kernels[i].name;
        int depth = 0;
        for (size_t k = 0; s[k]; k++)
            if (separator(s, k, &depth) && k > 0 && s[k + 1] != '\0')
                return 1;
    }
    return 0;
}

/* A tree row; whole: what a share is of (the runtime, or the mean rank's). */
static void tree_row(struct page *p, const struct node *n, double runtime, double whole)
{
    double incl = isfinite(n->incl) ? n->incl : n->sub;
    const char *leaf = n->path;
    /* a path without a record of its own sums its subtree; where a kernel's
     * time is its slowest rank's (several ranks), that sum of maxima can pass
     * what any rank spent (a Caliper profile's _start at 173 % of the run):
     * no path takes longer than the run, whose time is the root's (a sum of
     * means never passes it) */
    if (!isfinite(n->incl) && isfinite(runtime) && runtime > 0 && incl > runtime)
        incl = runtime;
    {
        int depth = 0;
        for (size_t k = 0; k < n->len; k++)
            if (separator(n->path, k, &depth) && k > 0)
                leaf = n->path + k + 1;
    }
    page_puts(p, "<span class=\"ct-name\" title=\"");
    /* the whole path on hover; the row shows its last part */
    page_attr(p, arena_printf(p->arena, "%.*s", (int)n->len, n->path));
    page_puts(p, "\">");
    page_text(p, arena_printf(p->arena, "%.*s", (int)(n->path + n->len - leaf), leaf));
    page_puts(p, "</span><span class=\"ct-incl num\">");
    page_qty(p, incl, "s");
    page_puts(p, "</span><span class=\"ct-excl num\">");
    if (n->kernel)
        page_qty(p, n->excl, "s");
    else
        page_puts(p, "\xe2\x80\x94");
    page_puts(p, "</span><span class=\"ct-share num\">");
    if (isfinite(whole) && whole > 0 && isfinite(incl))
        share(p, incl, whole);
    else
        page_puts(p, "\xe2\x80\x94");
    page_puts(p, "</span>");
}

#define TREE_OPEN_DEPTH 2 /* levels open on arrival */

/* The tree's caption: its columns, and the aggregation over ranks they share
 * (ranks_of), unless the run is one process of one thread; whole is what a
 * share is of. */
static void tree_caption(struct page *p, const struct run_record *run, enum ranks r,
                         double whole)
{
    double threads = 1;
    const char *one;
    for (size_t i = 0; i < run->ninputs; i++)
        if (strcmp(run->inputs[i].name, "threads") == 0)
            threads = run->inputs[i].value;
    one = threads > 1 ? "thread" : "process";
    if (run->nprocs <= 1 && threads <= 1)
        r = RANKS_ONE;
    page_puts(p, "<p class=\"muted\">Kernel names are call paths: per path its "
                 "inclusive time (with the callees), exclusive time (the path itself) "
                 "and share of ");
    if (r == RANKS_MEAN) {
        page_printf(p, "the mean %s's time, ", one);
        page_qty(p, whole, "s");
    } else {
        page_puts(p, "the runtime");
    }
    page_puts(p, ". ");
    if (r != RANKS_ONE) {
        page_printf(p,
                    "<strong id=\"calltree-ranks\">Every column is the %s over %s%lld "
                    "process%s</strong>, as the kernels' time is",
                    r == RANKS_MEAN ? "mean" : "largest",
                    threads > 1 ? "the threads of the " : "the ", run->nprocs,
                    run->nprocs == 1 ? "" : "es");
        if (r == RANKS_SLOWEST) {
            page_printf(p,
                        ": each path its slowest %s's, so children can add up to "
                        "more than their parent. ",
                        one);
        } else if (RUN_HAS_RUNTIME(run->runtime)) {
            page_printf(p, "; the slowest %s took ", one);
            page_qty(p, run->runtime, "s");
            page_puts(p, ", the runtime. ");
        } else {
            page_puts(p, ". ");
        }
    }
    page_puts(p, "Hover a name for its whole path.</p>\n");
}

/* The kernels as a collapsible tree of <details> (no script needed): per
 * path its inclusive time (the "inclusive" metric, or "inclusive_mean" where
 * the kernels' time is the mean over ranks, else the sum of the subtree's
 * exclusive times, at most the run time), exclusive time and share of the
 * runtime (of the mean rank's time, the roots' inclusive times, where the
 * tree is of means). */
static void call_tree(struct page *p, const struct run_record *run, json_t **metrics)
{
    arena *a = p->arena;
    size_t cap = 0, n = 0, i, k, *stack;
    struct node *nodes;
    int top = 0;
    enum ranks ranks = ranks_of(run, metrics);
    double whole = run->runtime;

    for (i = 0; i < run->nkernels; i++) {
        const char *s = run->kernels[i].name;
        cap++;
        for (; *s; s++)
            cap += *s == '/';
    }
    nodes = arena_alloc(a, cap * sizeof *nodes);
    stack = arena_alloc(a, (cap + 1) * sizeof *stack);
    if (nodes == NULL || stack == NULL)
        return;
    /* Every kernel and every prefix of its path. */
    for (i = 0; i < run->nkernels; i++) {
        const char *s = run->kernels[i].name;
        size_t len = strlen(s);
        char *key = arena_strndup(a, s, len);
        int depth = 0;
        if (key == NULL)
            return;
        for (k = 0; k < len; k++)
            if (key[k] == '/')
                key[k] = 1;
        for (k = 0; k <= len; k++) {
            if (k < len && !(separator(s, k, &depth) && k > 0))
                continue;
            nodes[n] = (struct node){.path = s,
                                     .key = key,
                                     .len = k,
                                     .excl = NAN,
                                     .incl = NAN,
                                     .parent = SIZE_MAX,
                                     .kernel = k == len};
            if (k == len) {
                nodes[n].excl = run->kernels[i].time;
                nodes[n].incl = inclusive_of(metrics[i], ranks);
            }
            n++;
        }
    }
    /* Sorted through pointers: a node is 64 bytes, and qsort moves what it
     * sorts. */
    {
        const struct node **ord = arena_alloc(a, n * sizeof *ord);
        struct node *sorted = arena_alloc(a, n * sizeof *sorted);
        if (ord == NULL || sorted == NULL)
            return;
        for (i = 0; i < n; i++)
            ord[i] = &nodes[i];
        qsort(ord, n, sizeof *ord, node_ptr_cmp);
        for (i = 0; i < n; i++)
            sorted[i] = *ord[i];
        nodes = sorted;
    }
    /* Merge equal paths (a prefix named by several kernels, a kernel that is
     * also a prefix). */
    for (i = 0, k = 0; i < n; i++) {
        if (k > 0 && node_cmp(&nodes[k - 1], &nodes[i]) == 0) {
            struct node *m = &nodes[k - 1];
            if (nodes[i].kernel) {
                /* records without a time add nothing (SPEC §16) */
                if (!m->kernel || !isfinite(m->excl))
                    m->excl = nodes[i].excl;
                else if (isfinite(nodes[i].excl))
                    m->excl += nodes[i].excl;
                if (isfinite(nodes[i].incl))
                    m->incl = isfinite(m->incl) ? m->incl + nodes[i].incl : nodes[i].incl;
                m->kernel = 1;
            }
            continue;
        }
        nodes[k++] = nodes[i];
    }
    n = k;
    /* Parents: the nearest open node whose path is a prefix ending at '/'. */
    for (i = 0; i < n; i++) {
        struct node *x = &nodes[i];
        while (top > 0) {
            const struct node *t = &nodes[stack[top - 1]];
            if (x->len > t->len && memcmp(x->path, t->path, t->len) == 0 &&
                x->path[t->len] == '/')
                break;
            top--;
        }
        x->parent = top > 0 ? stack[top - 1] : SIZE_MAX;
        x->depth = top;
        x->sub = x->excl;
        stack[top++] = i;
    }
    for (i = n; i-- > 0;) {
        struct node *up = nodes[i].parent != SIZE_MAX ? &nodes[nodes[i].parent] : NULL;
        if (up != NULL && isfinite(nodes[i].sub))
            up->sub = isfinite(up->sub) ? up->sub + nodes[i].sub : nodes[i].sub;
    }

    if (ranks == RANKS_MEAN) { /* means add up: the roots' are the mean rank's time */
        double sum = 0;
        for (i = 0; i < n; i++)
            if (nodes[i].parent == SIZE_MAX)
                sum += isfinite(nodes[i].incl)  ? nodes[i].incl
                       : isfinite(nodes[i].sub) ? nodes[i].sub
                                                : 0;
        if (sum > 0)
            whole = sum;
        else
            ranks = RANKS_ONE; /* no time: nothing to say of it */
    }
    page_puts(p, "<h2 id=\"calltree\">Call tree</h2>\n");
    tree_caption(p, run, ranks, whole);
    page_puts(p, "<div class=\"calltree\" role=\"tree\">\n<div class=\"ct-head\">"
                 "<span class=\"ct-name\">Path</span><span class=\"ct-incl num\">"
                 "Inclusive</span><span class=\"ct-excl num\">Exclusive</span><span "
                 "class=\"ct-share num\">Share</span></div>\n");
    top = 0;
    for (i = 0; i < n; i++) {
        const struct node *x = &nodes[i];
        int children = i + 1 < n && nodes[i + 1].parent == i;
        while (top > x->depth) {
            page_puts(p, "</div></details>\n");
            top--;
        }
        if (children) {
            page_printf(p, "<details class=\"ct-node\"%s><summary>",
                        x->depth < TREE_OPEN_DEPTH ? " open" : "");
            tree_row(p, x, run->runtime, whole);
            page_puts(p, "</summary><div class=\"ct-kids\">\n");
            top++;
        } else {
            page_puts(p, "<div class=\"ct-leaf\">");
            tree_row(p, x, run->runtime, whole);
            page_puts(p, "</div>\n");
        }
    }
    while (top-- > 0)
        page_puts(p, "</div></details>\n");
    page_puts(p, "</div>\n");
}

/* ---- kernels -------------------------------------------------------------------- */

/* A kernel's place in the table: by time, the longest first; kernels
 * without a time last; ties in the file's order. */
struct by_time {
    double time;
    size_t i;
};

static int cmp_by_time(const void *pa, const void *pb)
{
    const struct by_time *x = pa, *y = pb;
    int hx = KERNEL_HAS_TIME(x->time), hy = KERNEL_HAS_TIME(y->time);
    if (hx != hy)
        return hy - hx;
    if (hx && x->time != y->time)
        return x->time < y->time ? 1 : -1;
    return (x->i > y->i) - (x->i < y->i);
}

static void kernels(struct page *p, long long id, const struct run_record *run)
{
    arena *a = p->arena;
    double total = 0;
    json_t **metrics;
    struct by_time *order;
    size_t i, ntimed = 0;

    page_puts(p, "<h2>Kernels</h2>\n");
    if (run->nkernels == 0) {
        page_puts(p, "<p class=\"muted\">This run has no kernel records.</p>\n");
        return;
    }
    /* shares and the breakdown are of the kernels with a time (SPEC §16) */
    for (i = 0; i < run->nkernels; i++)
        if (KERNEL_HAS_TIME(run->kernels[i].time)) {
            total += run->kernels[i].time;
            ntimed++;
        }
    /* Kernels that overlap (nested trace events, threads, GPU work beside the
     * calls that launched it) add up to more than the run: say so, as the
     * shares below are of their sum. Timers of their own put kernels a few
     * percent over the run (the demo's BT: 5 %); a fifth over is overlap. */
    if (RUN_HAS_RUNTIME(run->runtime) && run->runtime > 0 && total > 1.2 * run->runtime) {
        page_puts(p, "<p class=\"muted\" id=\"kernels-overlap\">These kernels' times add "
                     "up to ");
        page_qty(p, total, "s");
        page_printf(p, ", %.3g × the run's ", total / run->runtime);
        page_qty(p, run->runtime, "s");
        page_puts(p,
                  ": they overlap (nested events, threads or GPU work at once, each "
                  "kernel's slowest rank), and each share below is of their sum.</p>\n");
    }
    /* Each kernel's metrics parsed once, for the tree and the table. */
    metrics = arena_alloc(a, run->nkernels * sizeof *metrics);
    if (metrics == NULL)
        return;
    for (i = 0; i < run->nkernels; i++)
        metrics[i] = run->kernels[i].metrics_json
                         ? json_loads(run->kernels[i].metrics_json, 0, NULL)
                         : NULL;
    {
        const char **names = arena_alloc(a, run->nkernels * sizeof *names);
        double *values = arena_alloc(a, run->nkernels * sizeof *values);
        char label[64];
        const char *cat[1];
        struct svg_stacked s = {0};
        struct err e = {0};
        size_t nc = 0;
        if (names && values && ntimed == 0)
            page_puts(p, "<p class=\"muted\">No kernel of this run has a time (the file "
                         "measured other metrics), so there is no breakdown plot.</p>\n");
        if (names && values && ntimed > 0) {
            for (i = 0; i < run->nkernels; i++)
                if (KERNEL_HAS_TIME(run->kernels[i].time)) {
                    names[nc] = run->kernels[i].name;
                    values[nc++] = run->kernels[i].time;
                }
            snprintf(label, sizeof label, "run %lld", id);
            cat[0] = label;
            s.title = "Kernel breakdown";
            s.ylabel = "time";
            s.yunit = "s";
            s.categories = cat;
            s.ncategories = 1;
            s.components = names;
            s.ncomponents = nc;
            s.values = values;
            s.width = 620; /* room for the legend of 9 kernels and "other" */
            s.height = 480;
            /* the phone's drawing taller: its legend takes rows of its own */
            if (page_stacked(p, &s, 440, NULL, &e) != 0)
                page_printf(p, "<p class=\"muted\">No breakdown plot: %s</p>\n",
                            "the kernel records cannot be drawn");
        }
    }
    if (has_paths(run))
        call_tree(p, run, metrics);
    /* the table: the longest first, as profilers list them (kernels without
     * a time after, in the file's order) */
    order = arena_alloc(a, run->nkernels * sizeof *order);
    if (order == NULL)
        goto out;
    for (i = 0; i < run->nkernels; i++)
        order[i] = (struct by_time){run->kernels[i].time, i};
    qsort(order, run->nkernels, sizeof *order, cmp_by_time);
    page_table_open(p, "Kernels");
    page_puts(p, "<thead><tr><th class=\"num\">#</th><th>Kernel</th>"
                 "<th class=\"num\" aria-sort=\"descending\">Time</th>"
                 "<th class=\"num\">Share</th><th class=\"num\">Calls</th>"
                 "<th>Metrics</th></tr></thead><tbody>\n");
    for (size_t r = 0; r < run->nkernels; r++) {
        const struct rec_kernel *k = &run->kernels[order[r].i];
        page_printf(p, "<tr><td class=\"num\">%zu</td><td class=\"path\">", r + 1);
        page_text(p, k->name);
        page_puts(p, "</td><td class=\"num\">");
        page_qty(p, k->time, "s");
        page_puts(p, "</td><td class=\"num\">");
        if (!KERNEL_HAS_TIME(k->time))
            page_puts(p, "\xe2\x80\x94"); /* no time, no share */
        else if (total > 0)
            share(p, k->time, total);
        page_puts(p, "</td><td class=\"num\">");
        if (KERNEL_HAS_CALLS(k->calls))
            page_printf(p, "%lld", k->calls);
        else
            page_puts(p, "\xe2\x80\x94"); /* not counted (SPEC §16) */
        page_puts(p, "</td><td>");
        kernel_metrics(p, metrics[order[r].i]);
        page_puts(p, "</td></tr>\n");
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
out:
    for (i = 0; i < run->nkernels; i++)
        json_decref(metrics[i]);
}

void view_run(struct page *p, const struct view_run *d)
{
    const struct run_record *run = d->run;
    long long id = d->id;
    page_puts(p, "<p class=\"crumbs\">");
    page_link(p, "/applications/", run->application, NULL);
    page_printf(p, " › run %lld</p>\n<h1>Run %lld</h1>\n", id, id);
    if (d->stored)
        page_puts(p,
                  "<p class=\"notice good\" role=\"status\">The run was stored.</p>\n");
    if (d->has_trace)
        page_printf(p,
                    /* not "MPI": Trace Event JSON of a compiler or a browser
                       has ranks (pid/tid pairs) too */
                    "<p class=\"trace-link\">This run has a trace: "
                    "<a href=\"/runs/%lld/trace\">where the time goes across ranks</a>."
                    "</p>\n",
                    id);
    page_puts(p, "<dl class=\"facts\">\n<dt>Application</dt><dd>");
    page_link(p, "/applications/", run->application, NULL);
    page_puts(p, "</dd>\n<dt>Executable</dt><dd>");
    page_text(p, run->executable);
    page_puts(p, "</dd>\n<dt>System</dt><dd>");
    page_link(p, "/systems/", run->system, NULL);
    page_printf(p, "</dd>\n<dt>Processors</dt><dd>%lld</dd>\n<dt>Runtime</dt><dd>",
                run->nprocs);
    page_qty(p, run->runtime, "s");
    page_puts(p, "</dd>\n<dt>Client id</dt><dd>");
    if (run->uid)
        page_text(p, run->uid);
    else
        page_puts(p, "<span class=\"muted\">none</span>");
    page_puts(p, "</dd>\n<dt>Started</dt><dd>");
    if (run->started_at)
        page_when(p, run->started_at);
    else
        page_puts(p, "<span class=\"muted\">not given</span>");
    page_puts(p, "</dd>\n<dt>Stored</dt><dd>");
    page_when(p, d->created_at);
    page_puts(p, "</dd>\n<dt>Submitted by</dt><dd>");
    page_text(p, run->submitter);
    provenance(p, run);
    page_printf(p,
                "</dd>\n<dt>JSON</dt><dd><a href=\"/api/v1/runs/%lld\">/api/v1/runs/"
                "%lld</a></dd>\n</dl>\n",
                id, id);
    kv_table(p, "Inputs", "inputs", run->inputs, run->ninputs, 0);
    kv_table(p, "Metrics", "metrics", run->metrics, run->nmetrics, 1);
    kernels(p, id, run);
    page_printf(p,
                "<p class=\"danger-zone\"><a class=\"delete\" id=\"run-delete\" "
                "href=\"/runs/%lld/delete\">Delete this run</a></p>\n",
                id);
}
