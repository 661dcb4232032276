/* view_overview: the overview (/) and the lists of applications
 * (/applications) and systems (/systems), rendered from the summaries the
 * adapter hands over (core/browse.h); see view.h. */
#include "web/view.h"

static void example_badge(struct page *p, json_t *row)
{
    if (json_integer_value(json_object_get(row, "demo")))
        page_puts(
            p, " <span class=\"badge\" title=\"loaded by --demo\">example data</span>");
}

static const char *str(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : "";
}

static long long num(json_t *o, const char *key)
{
    return (long long)json_integer_value(json_object_get(o, key));
}

/* Whether any row of list has a non-empty string (or, for cores, a number)
 * at key: a column every row leaves empty is not drawn (imported files name
 * no processor; on a phone the empty columns pushed the counts out of view). */
static int any(json_t *list, const char *key)
{
    size_t i;
    json_t *o, *v;
    json_array_foreach(list, i, o)
    {
        v = json_object_get(o, key);
        if ((json_is_string(v) && *json_string_value(v)) || json_is_integer(v))
            return 1;
    }
    return 0;
}

static void apps_table(struct page *p, json_t *apps)
{
    size_t i;
    json_t *a;
    int desc = any(apps, "description");
    if (json_array_size(apps) == 0) {
        page_puts(p,
                  "<p class=\"muted\">No applications yet. <a href=\"/upload\">Upload a "
                  "run</a> or start the server with <code>--demo</code> for example "
                  "data.</p>\n");
        return;
    }
    page_table_open(p, "Applications");
    page_puts(p, "<thead><tr><th>Application</th>");
    if (desc)
        page_puts(p, "<th>Description</th>");
    page_puts(p, "<th class=\"num\">Executables</th><th class=\"num\">Systems</th>"
                 "<th class=\"num\">Runs</th></tr></thead><tbody>\n");
    json_array_foreach(apps, i, a)
    {
        page_puts(p, "<tr><td class=\"name\">");
        page_link(p, "/applications/", str(a, "name"), NULL);
        example_badge(p, a);
        if (desc) {
            page_puts(p, "</td><td class=\"desc\">");
            page_text(p, str(a, "description"));
        }
        page_printf(p,
                    "</td><td class=\"num\">%lld</td><td class=\"num\">%lld</td>"
                    "<td class=\"num\">%lld</td></tr>\n",
                    num(a, "executables"), num(a, "systems"), num(a, "runs"));
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
}

static void systems_table(struct page *p, json_t *systems)
{
    size_t i;
    json_t *s;
    int proc = any(systems, "processor"), ncores = any(systems, "cores"),
        net = any(systems, "network");
    if (json_array_size(systems) == 0) {
        page_puts(p, "<p class=\"muted\">No systems yet.</p>\n");
        return;
    }
    page_table_open(p, "Systems");
    page_puts(p, "<thead><tr><th>System</th>");
    if (proc)
        page_puts(p, "<th>Processor</th>");
    if (ncores)
        page_puts(p, "<th class=\"num\">Cores</th>");
    if (net)
        page_puts(p, "<th>Network</th>");
    page_puts(p, "<th class=\"num\">Applications</th>"
                 "<th class=\"num\">Runs</th><th class=\"num\">Benchmarks</th>"
                 "<th class=\"num\">Parameters</th></tr></thead><tbody>\n");
    json_array_foreach(systems, i, s)
    {
        json_t *cores = json_object_get(s, "cores");
        page_puts(p, "<tr><td class=\"name\">");
        page_link(p, "/systems/", str(s, "name"), NULL);
        example_badge(p, s);
        if (proc) {
            page_puts(p, "</td><td>");
            page_text(p, str(s, "processor"));
        }
        if (ncores) {
            page_puts(p, "</td><td class=\"num\">");
            if (json_is_integer(cores))
                page_printf(p, "%lld", (long long)json_integer_value(cores));
        }
        if (net) {
            page_puts(p, "</td><td>");
            page_text(p, str(s, "network"));
        }
        page_printf(p,
                    "</td><td class=\"num\">%lld</td><td class=\"num\">%lld</td>"
                    "<td class=\"num\">%lld</td><td class=\"num\">%lld</td></tr>\n",
                    num(s, "applications"), num(s, "runs"), num(s, "benchmarks"),
                    num(s, "parameters"));
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
}

static void recent_table(struct page *p, json_t *runs)
{
    size_t i;
    json_t *r;
    if (json_array_size(runs) == 0)
        return;
    page_table_open(p, "Recent runs");
    page_puts(p, "<thead><tr><th class=\"num\">Run</th><th>Application</th>"
                 "<th>Executable</th><th>System</th><th class=\"num\">Processors</th>"
                 "<th class=\"num\">Runtime</th><th>Stored</th></tr></thead><tbody>\n");
    json_array_foreach(runs, i, r)
    {
        page_printf(p, "<tr><td class=\"num\"><a href=\"/runs/%lld\">%lld</a></td><td>",
                    num(r, "id"), num(r, "id"));
        page_link(p, "/applications/", str(r, "application"), NULL);
        page_puts(p, "</td><td>");
        page_text(p, str(r, "executable"));
        page_puts(p, "</td><td>");
        page_link(p, "/systems/", str(r, "system"), NULL);
        page_printf(p, "</td><td class=\"num\">%lld</td><td class=\"num\">",
                    num(r, "nprocs"));
        page_qty(p, json_number_value(json_object_get(r, "runtime")), "s");
        page_puts(p, "</td><td class=\"when\">");
        page_when(p, str(r, "created_at"));
        page_puts(p, "</td></tr>\n");
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
}

void view_overview(struct page *p, const struct view_overview *d)
{
    json_t *counts = d->counts;
    page_puts(p, "<h1>Performance database</h1>\n<p class=\"lead\">Measured runs of "
                 "parallel applications, the systems they ran on, and the performance "
                 "models built from them.</p>\n");
    if (num(counts, "demo_applications") > 0)
        page_puts(p, "<p class=\"notice\">This database holds <strong>example "
                     "data</strong> (marked <span class=\"badge\">example data</span>), "
                     "loaded by <code>prophecyd serve --demo</code> so that every page "
                     "has something to show.</p>\n");
    page_printf(
        p,
        "<ul class=\"stats\">"
        "<li><span class=\"n\">%lld</span><span class=\"label\">applications</span>"
        "</li><li><span class=\"n\">%lld</span><span class=\"label\">systems</span>"
        "</li><li><span class=\"n\">%lld</span><span class=\"label\">runs</span>"
        "</li><li><span class=\"n\">%lld</span><span class=\"label\">templates</span>"
        "</li><li><span class=\"n\">%lld</span><span class=\"label\">saved "
        "models</span></li></ul>\n",
        num(counts, "applications"), num(counts, "systems"), num(counts, "runs"),
        num(counts, "templates"), num(counts, "models"));
    page_puts(p, "<h2 id=\"applications\">Applications</h2>\n");
    apps_table(p, d->apps);
    page_puts(p, "<h2 id=\"systems\">Systems</h2>\n");
    systems_table(p, d->systems);
    page_puts(p, "<h2 id=\"recent\">Recent runs</h2>\n");
    if (json_array_size(d->recent) == 0)
        page_puts(p, "<p class=\"muted\">No runs yet.</p>\n");
    recent_table(p, d->recent);
}

void view_apps(struct page *p, json_t *apps)
{
    page_puts(p, "<h1>Applications</h1>\n<p class=\"lead\">Each application's page has "
                 "its runs, scaling plots and kernel breakdown. JSON: "
                 "<a href=\"/api/v1/applications\">/api/v1/applications</a>.</p>\n");
    apps_table(p, apps);
}

void view_systems(struct page *p, json_t *systems)
{
    page_puts(p, "<h1>Systems</h1>\n<p class=\"lead\">Machines, their benchmark "
                 "measurements and the system parameters fitted from them. JSON: "
                 "<a href=\"/api/v1/systems\">/api/v1/systems</a>.</p>\n");
    systems_table(p, systems);
}
