/* view_run: one run (/runs/{id}) with every field, its inputs, metrics and
 * kernel records, and the kernel breakdown as a stacked bar; see view.h. */
#include "web/svg.h"
#include "web/view.h"

#include <stdio.h>

static void kv_table(struct page *p, const char *title, const char *what,
                     const struct rec_kv *kv, size_t n)
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
        page_puts(p, "<tr><td>");
        page_text(p, kv[i].name);
        page_puts(p, "</td><td class=\"num\">");
        page_num(p, kv[i].value);
        page_puts(p, "</td></tr>\n");
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
}

static void kernels(struct page *p, long long id, const struct run_record *run)
{
    arena *a = p->arena;
    double total = 0;
    size_t i;

    page_puts(p, "<h2>Kernels</h2>\n");
    if (run->nkernels == 0) {
        page_puts(p, "<p class=\"muted\">This run has no kernel records.</p>\n");
        return;
    }
    for (i = 0; i < run->nkernels; i++)
        total += run->kernels[i].time;
    if (run->nkernels <= SVG_MAX_COMPONENTS) {
        const char **names = arena_alloc(a, run->nkernels * sizeof *names);
        double *values = arena_alloc(a, run->nkernels * sizeof *values);
        char label[64];
        const char *cat[1];
        struct svg_stacked s = {0};
        struct buf svg;
        struct err e = {0};
        if (names && values) {
            for (i = 0; i < run->nkernels; i++) {
                names[i] = run->kernels[i].name;
                values[i] = run->kernels[i].time;
            }
            snprintf(label, sizeof label, "run %lld", id);
            cat[0] = label;
            s.title = "Kernel breakdown";
            s.ylabel = "time (s)";
            s.categories = cat;
            s.ncategories = 1;
            s.components = names;
            s.ncomponents = run->nkernels;
            s.values = values;
            s.width = 520;
            s.height = 420;
            buf_init(&svg, 4u << 20);
            if (svg_stacked(&svg, &s, &e) == 0)
                page_svg(p, &svg, NULL);
            else
                page_printf(p, "<p class=\"muted\">No breakdown plot: %s</p>\n",
                            "the kernel records cannot be drawn");
            buf_free(&svg);
        }
    }
    page_table_open(p, "Kernels");
    page_puts(p, "<thead><tr><th class=\"num\">#</th><th>Kernel</th>"
                 "<th class=\"num\">Time (s)</th><th class=\"num\">Share</th>"
                 "<th class=\"num\">Calls</th><th>Metrics</th></tr></thead><tbody>\n");
    for (i = 0; i < run->nkernels; i++) {
        const struct rec_kernel *k = &run->kernels[i];
        page_printf(p, "<tr><td class=\"num\">%zu</td><td>", i + 1);
        page_text(p, k->name);
        page_puts(p, "</td><td class=\"num\">");
        page_num(p, k->time);
        page_puts(p, "</td><td class=\"num\">");
        if (total > 0)
            page_printf(p, "%.1f %%", 100.0 * k->time / total);
        page_printf(p, "</td><td class=\"num\">%lld</td><td>", k->calls);
        if (k->metrics_json) {
            page_puts(p, "<code>");
            page_text(p, k->metrics_json);
            page_puts(p, "</code>");
        }
        page_puts(p, "</td></tr>\n");
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
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
                    "<p class=\"trace-link\">This run has an MPI trace: "
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
    page_num(p, run->runtime);
    page_puts(p, " s</dd>\n<dt>Client id</dt><dd>");
    if (run->uid)
        page_text(p, run->uid);
    else
        page_puts(p, "<span class=\"muted\">none</span>");
    page_puts(p, "</dd>\n<dt>Started</dt><dd>");
    if (run->started_at)
        page_text(p, run->started_at);
    else
        page_puts(p, "<span class=\"muted\">not given</span>");
    page_puts(p, "</dd>\n<dt>Stored</dt><dd>");
    page_text(p, d->created_at);
    page_puts(p, "</dd>\n<dt>Submitted by</dt><dd>");
    page_text(p, run->submitter);
    page_printf(p,
                "</dd>\n<dt>JSON</dt><dd><a href=\"/api/v1/runs/%lld\">/api/v1/runs/"
                "%lld</a></dd>\n</dl>\n",
                id, id);
    kv_table(p, "Inputs", "inputs", run->inputs, run->ninputs);
    kv_table(p, "Metrics", "metrics", run->metrics, run->nmetrics);
    kernels(p, id, run);
}
