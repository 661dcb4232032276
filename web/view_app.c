/* view_app: an application's page (/applications/{name}); see view.h.
 *
 * Executables, systems, the scaling plots and kernel breakdown
 * (view_app_plots.c), the history links and the runs table, sortable and
 * paginated through query parameters (?sort=runtime&dir=desc&page=2, plus
 * ?executable= and ?system= filters, ?axes=linear|log for the plots), so every
 * link works without JavaScript; the table's filtered runs also come as CSV
 * (view_app_csv.c). The plots are built from the configuration summaries (one
 * row per executable, system, processors and inputs; db/summary.h) and the
 * table reads one page of runs: the page never loads all runs. The adapter
 * (server/dash_app.c) decodes the view state from the query and hands the
 * summaries, the page of runs and the kernel records of the runs the
 * breakdown may show (view_app_kernel_runs) to view_app.
 */
#include "web/view.h"
#include "web/view_app_priv.h"

#include <stdio.h>
#include <string.h>

const char *const view_app_sorts[3] = {"run", "nprocs", "runtime"};
const char *const view_app_axes[3] = {"", "linear", "log"};
#define sort_names view_app_sorts

/* See view_app_priv.h. */
void view_app_href(struct page *p, const struct view_app *v, int sort, int desc,
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
    if (v->commit) {
        page_printf(p, "%scommit=", sep);
        page_url(p, v->commit);
        sep = "&amp;";
    }
    if (v->branch) {
        page_printf(p, "%sbranch=", sep);
        page_url(p, v->branch);
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
    view_app_href(p, v, sort, desc, at, v->axes, "#runs");
}

/* The first page, and page n by its number alone. */
static struct at at_page(long long n)
{
    struct at at = {n, 0, 0};
    return at;
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

/* The runs table's provenance filters (?commit=, ?branch=; SPEC §17): a GET
 * form that keeps the page's other filters. */
static void vcs_filter(struct page *p, const struct view_app *v)
{
    page_puts(p, "<form class=\"filters\" id=\"runs-filter\" method=\"get\" action=\"");
    view_app_href(p, &(struct view_app){.name = v->name}, 0, 1, at_page(1), 0, "");
    page_puts(p, "#runs\">");
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
    /* fields as every form has them (the stylesheet's text inputs) */
    page_puts(p, "<div class=\"field\"><label for=\"filter-commit\">Commit</label>"
                 "<input type=\"text\" name=\"commit\" id=\"filter-commit\" size=\"14\" "
                 "value=\"");
    page_attr(p, v->commit ? v->commit : "");
    page_puts(p, "\"></div> <div class=\"field\"><label for=\"filter-branch\">Branch"
                 "</label><input type=\"text\" name=\"branch\" id=\"filter-branch\" "
                 "size=\"14\" value=\"");
    page_attr(p, v->branch ? v->branch : "");
    page_puts(p,
              "\"></div> <div class=\"field\"><button type=\"submit\">Filter</button>");
    if (v->commit || v->branch) {
        struct view_app all = *v;
        all.commit = all.branch = NULL;
        page_puts(p, " <a id=\"filter-clear\" href=\"");
        view_url(p, &all, 0, 1, at_page(1));
        page_puts(p, "\">All runs</a>");
    }
    page_puts(p, "</div></form>\n");
}

/* A commit (its first 12 characters, the whole in the title) or a branch,
 * linked to the table filtered by it; "—" when absent. */
static void vcs_cell(struct page *p, const struct view_app *v, const char *key,
                     const char *val)
{
    struct view_app f = *v;
    if (val == NULL) {
        page_puts(p, "<span class=\"muted\">\xe2\x80\x94</span>");
        return;
    }
    if (strcmp(key, "commit") == 0)
        f.commit = val;
    else
        f.branch = val;
    page_puts(p, "<a href=\"");
    view_url(p, &f, 0, 1, at_page(1));
    if (strcmp(key, "commit") == 0) {
        page_puts(p, "\">");
        page_commit(p, val); /* the whole in its title */
    } else {
        page_puts(p, "\" title=\"");
        page_attr(p, val);
        page_puts(p, "\"><code>");
        page_text(p, val);
        page_puts(p, "</code>");
    }
    page_puts(p, "</a>");
}

static void runs_table(struct page *p, const struct view_app *v,
                       const struct view_run_row *rows, int n)
{
    int i;
    size_t k;
    page_printf(p, "<h2 id=\"runs\">Runs</h2>\n");
    vcs_filter(p, v);
    if (v->total == 0) {
        page_puts(p, "<p class=\"muted\">No runs match.</p>\n");
        return;
    }
    page_printf(p,
                "<p class=\"muted\" id=\"runs-summary\">%lld run%s; page %lld of %lld, "
                "sorted by %s (%s).</p>\n",
                v->total, v->total == 1 ? "" : "s", v->page, v->pages,
                v->sort == 0 ? "run" : sort_names[v->sort],
                v->desc ? "descending" : "ascending");
    /* every run of the table's filter and order, not just this page */
    page_puts(p, "<p class=\"downloads\"><a id=\"runs-csv\" href=\"");
    view_app_href(p, v, v->sort, v->desc, at_page(1), 0, "");
    page_printf(p, "%sformat=csv\" download=\"",
                v->exe || v->sys || v->commit || v->branch || v->sort != 0 ||
                        v->desc != (v->sort == 0)
                    ? "&amp;"
                    : "?");
    page_attr(p, v->name);
    if (v->total == 1)
        page_puts(p, "-runs.csv\">Download the run as CSV</a></p>\n");
    else
        page_printf(p, "-runs.csv\">Download the %lld runs as CSV</a></p>\n", v->total);
    page_puts(p, "<div class=\"table-wrap\" id=\"runs-table\"><table>"
                 "<caption class=\"vh\">Runs</caption>\n<thead><tr>");
    sort_header(p, v, 0, "Run", 1);
    page_puts(p, "<th>Executable</th><th>System</th>");
    sort_header(p, v, 1, "Processors", 1);
    page_puts(p, "<th>Inputs</th>");
    sort_header(p, v, 2, "Runtime", 1);
    page_puts(p, "<th class=\"num\">Kernels</th><th>Stored</th><th>Commit</th>"
                 "<th>Branch</th></tr></thead><tbody>\n");
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
        page_qty(p, r->runtime, "s");
        page_printf(p, "</td><td class=\"num\">%lld</td><td class=\"when\">",
                    r->nkernels);
        page_when(p, r->created_at);
        page_puts(p, "</td><td class=\"commit\">");
        vcs_cell(p, v, "commit", r->commit);
        page_puts(p, "</td><td>");
        vcs_cell(p, v, "branch", r->branch);
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
    page_puts(p, "<form id=\"runs-filters\" class=\"filters card\" method=\"get\" "
                 "action=\"/applications/");
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
    page_puts(p, "<p class=\"compare-link\"><a id=\"app-compare\" "
                 "href=\"/compare?application=");
    page_url(p, v->name);
    page_puts(p, "\">Compare branches and commits</a></p>\n");
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
    view_app_scaling(p, v);
    view_scaling_at(p, v); /* "Scaling at ..." (web/view_scaling.c) */
    view_app_breakdown(p, v);
    if (v->history && v->nconfigs > 0)
        history_links(p, v);
    runs_table(p, v, v->rows, v->nrows);
    small_tables(p, app);
    templates(p, app);
    page_puts(p, "<p class=\"danger-zone\"><a class=\"delete\" id=\"app-delete\" "
                 "href=\"/applications/");
    page_url(p, v->name);
    page_puts(p, "/delete\">Delete this application</a></p>\n");
}
