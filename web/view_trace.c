/* view_trace: the trace page; see view_trace.h. */
#include "web/view_trace.h"
#include "web/chart_trace.h"
#include "web/svg.h"

#include <stdlib.h>
#include <string.h>

/* Per section, for a trace with MPI calls ([1]) and for one of user states
 * only ([0], whose lanes are threads: its wait, traffic and load sections
 * are not shown, their titles and blurbs unused). */
static const char *const titles[2][VIEW_TRACE_SECTIONS] = {
    {
        "Profile: time per state",
        NULL,
        NULL,
        NULL,
        "Timeline",
        "Occupancy: macrostates",
        "Clusters: representative threads",
    },
    {
        "Profile: time per MPI routine",
        "Wait: who waits for whom",
        "Traffic: messages between ranks",
        "Load: computation and communication",
        "Timeline",
        "Occupancy: macrostates",
        "Clusters: representative ranks",
    },
};

static const char *const blurbs[2][VIEW_TRACE_SECTIONS] = {
    {
        "Each thread's time split by the state it was in: its innermost event, or "
        "outside any event when in none.",
        NULL,
        NULL,
        NULL,
        "Each thread's state over time, downsampled to the width of the chart.",
        "Lyon's mean node occupancy of each state: how many threads are in it, on "
        "average, over the run.",
        "Pablo's clustering of threads by their time per state, with a scatterplot "
        "matrix of the main dimensions.",
    },
    {
        "Each rank's execution time split into computation and the MPI routines it "
        "called.",
        "Fernandes' wait-time matrix: row i, column j is how long rank i waited for "
        "rank j (a late sender, or the last rank to reach a collective).",
        "Point-to-point bytes sent from each rank (row) to each rank (column); "
        "collectives are counted apart in the JSON answer.",
        "Computation against communication per rank, with the imbalance (maximum "
        "over mean).",
        "Each rank's state over time, downsampled to the width of the chart.",
        "Lyon's mean node occupancy of each state class: how many ranks are in it, on "
        "average, over the run.",
        "Pablo's clustering of ranks by their time per routine and per state, with a "
        "scatterplot matrix of the main dimensions.",
    },
};

static double num_at(json_t *o, const char *key)
{
    return json_number_value(json_object_get(o, key));
}

/* Whether an occupancy class is one of MPI's (p2p, collective, wait): a
 * state named so is "NAME (state)" in the answers. */
static int mpi_class(const char *name)
{
    for (int c = TRACE_CLASS_P2P; c <= TRACE_CLASS_WAIT; c++)
        if (strcmp(name, trace_class_name(c)) == 0)
            return 1;
    return 0;
}

/* The key figures of one analysis as a small table; `lanes` is "Ranks" or
 * "Threads" (mpi 0: a trace without MPI calls, whose MPI classes are
 * not states it could have been in). */
static void figures(struct page *p, int k, json_t *a, int mpi, const char *lanes)
{
    const char *key;
    json_t *v;
    size_t unused = 0;
    if (a == NULL)
        return;
    page_table_open(p, "Key figures");
    page_puts(p, "<tbody>\n");
    switch (k) {
    case 1:
        page_puts(p, "<tr><th>Total wait</th><td class=\"num\">");
        page_qty(p, num_at(a, "total"), "s");
        page_puts(p, "</td></tr>\n<tr><th>Unmatched receives</th><td class=\"num\">");
        page_num(p, num_at(a, "unmatched"));
        page_puts(p, "</td></tr>\n");
        break;
    case 3:
        page_puts(p, "<tr><th>Compute imbalance</th><td class=\"num\">");
        page_num(p, num_at(a, "compute_imbalance"));
        page_puts(p,
                  "</td></tr>\n<tr><th>Communication imbalance</th><td class=\"num\">");
        page_num(p, num_at(a, "comm_imbalance"));
        page_puts(p, "</td></tr>\n");
        break;
    case 5:
        /* A real trace defines every MPI routine (Score-P: 189 regions), most
         * never entered: only the states a rank was in, with a count of the
         * others. */
        json_object_foreach(json_object_get(a, "mean"), key, v)
        {
            if (!mpi && mpi_class(key))
                continue;
            if (json_number_value(v) == 0) {
                unused++;
                continue;
            }
            page_puts(p, "<tr><th>");
            /* the answers' "compute" (a state so named is "compute (state)") */
            page_text(p, strcmp(key, "compute") == 0
                             ? chart_trace_compute(mpi ? "rank" : "thread")
                             : key);
            page_puts(p, "</th><td class=\"num\">");
            page_qty(p, json_number_value(v), "s");
            page_puts(p, "</td></tr>\n");
        }
        if (unused > 0)
            page_printf(p,
                        "<tr><th>States never occupied</th><td class=\"num\">%zu</td>"
                        "</tr>\n",
                        unused);
        page_puts(p, "<tr><th>Macrostates</th><td class=\"num\">");
        page_num(p, num_at(a, "nrows"));
        page_puts(p, "</td></tr>\n");
        break;
    case 6:
        page_puts(p, "<tr><th>Clusters (k)</th><td class=\"num\">");
        page_num(p, num_at(a, "k"));
        page_puts(p, "</td></tr>\n<tr><th>Silhouette</th><td class=\"num\">");
        page_num(p, num_at(a, "silhouette"));
        page_puts(p, "</td></tr>\n");
        break;
    default:
        page_printf(p, "<tr><th>%s</th><td class=\"num\">", lanes);
        page_num(p, num_at(a, "nranks"));
        page_puts(p, "</td></tr>\n");
        break;
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
}

/* Appends rank numbers as ranges: "0–3, 8, 10–12". */
static void rank_ranges(struct page *p, const int *r, size_t n)
{
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && r[j] == r[j - 1] + 1; j++)
            ;
        if (i > 0)
            page_puts(p, ", ");
        if (j - i == 1)
            page_printf(p, "%d", r[i]);
        else
            page_printf(p, "%d\xe2\x80\x93%d", r[i], r[j - 1]);
    }
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return x < y ? -1 : x > y;
}

/* Which rank (lane) is in which cluster: per cluster its colour (as in the
 * scatterplot matrix), its size and its lanes as ranges. */
static void cluster_members(struct page *p, json_t *a, const char *lane,
                            const char *lanes)
{
    json_t *ranks = json_object_get(a, "ranks"), *r;
    long long k = json_integer_value(json_object_get(a, "k"));
    size_t n = json_array_size(ranks), i;
    int *members;

    if (k < 1 || k > 64 || n == 0)
        return;
    members = arena_alloc(p->arena, n * sizeof *members);
    if (members == NULL)
        return;
    page_printf(p, "<h3 id=\"membership\">Which %s is in which cluster</h3>\n", lane);
    page_table_open(p, "Cluster membership");
    page_printf(p,
                "<thead><tr><th>Cluster</th><th class=\"num\">%s</th>"
                "<th>Members</th></tr></thead><tbody>\n",
                lanes);
    for (long long c = 0; c < k; c++) {
        size_t m = 0;
        json_array_foreach(ranks, i, r)
        {
            if (json_integer_value(json_object_get(r, "cluster")) == c)
                members[m++] = (int)json_integer_value(json_object_get(r, "rank"));
        }
        qsort(members, m, sizeof *members, cmp_int);
        page_printf(p,
                    "<tr class=\"cluster\"><td><svg class=\"swatch\" width=\"12\" "
                    "height=\"12\" aria-hidden=\"true\"><rect width=\"12\" "
                    "height=\"12\" fill=\"%s\"/></svg> %lld</td><td class=\"num\">%zu"
                    "</td><td class=\"members\">",
                    svg_palette((size_t)c), c, m);
        rank_ranges(p, members, m);
        page_puts(p, "</td></tr>\n");
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
}

/* Up to this width a chart shrunk to a phone's 366 pixels keeps its
 * 12-pixel text at 9 pixels or more. */
#define PHONE_READABLE_W 480

/* The width attribute of an SVG document's root element (0: none). */
static long svg_width(const char *svg, size_t len)
{
    const char *root = NULL, *end, *w;
    for (size_t i = 0; i + 4 < len && root == NULL; i++)
        if (memcmp(svg + i, "<svg", 4) == 0)
            root = svg + i;
    if (root == NULL || (end = memchr(root, '>', len - (size_t)(root - svg))) == NULL)
        return 0;
    for (w = root; w + 8 < end; w++)
        if (memcmp(w, " width=\"", 8) == 0)
            return strtol(w + 8, NULL, 10);
    return 0;
}

/* A stored chart. One wider than PHONE_READABLE_W is shown at its own size
 * in a box that scrolls sideways (the stylesheet's .table-wrap) rather than
 * shrunk: the charts are drawn once, when the trace arrives, at one width
 * (the timeline's 800 pixels of time), so there is no narrow drawing to
 * give a phone (page_svg_pair), and shrunk to a phone's width their text
 * would be 5 pixels high. */
static void chart(struct page *p, const char *svg, size_t len)
{
    if (svg_width(svg, len) <= PHONE_READABLE_W) {
        struct buf b;
        buf_init(&b, len + 1);
        buf_append(&b, svg, len);
        page_svg(p, &b, NULL);
        buf_free(&b);
        return;
    }
    if (len > 5 && strncmp(svg, "<?xml", 5) == 0) { /* not allowed inside HTML */
        const char *end = memchr(svg, '>', len);
        if (end != NULL) {
            len -= (size_t)(end + 1 - svg);
            svg = end + 1;
        }
        while (len > 0 && *svg == '\n')
            svg++, len--;
    }
    page_puts(p, "<figure class=\"table-wrap trace-chart\">");
    buf_append(&p->b, svg, len);
    page_puts(p, "</figure>\n");
}

void view_trace(struct page *p, const struct view_trace *v)
{
    int mpi = v->mpi_calls != 0; /* < 0, not known: as an MPI trace */
    const char *lane = chart_trace_lane(mpi ? 1 : 0), *lanes = mpi ? "Ranks" : "Threads";

    page_printf(p, "<h1>Trace of run <a href=\"/runs/%lld\">%lld</a></h1>\n", v->run_id,
                v->run_id);
    page_puts(p, "<p>");
    page_num(p, (double)v->nranks);
    page_printf(p, " %s%s, ", lane, v->nranks == 1 && !mpi ? "" : "s");
    page_num(p, (double)v->nevents);
    page_puts(p, " events over ");
    page_qty(p, v->span, "s");
    page_puts(p, ", stored ");
    page_when(p, v->created_at);
    page_puts(p, ".");
    if (v->dropped > 0) {
        page_puts(p, " <strong>The recorder dropped ");
        page_num(p, (double)v->dropped);
        page_puts(p, " events (its buffers were full).</strong>");
    }
    page_puts(p, "</p>\n");
    if (!mpi)
        page_puts(p,
                  "<p class=\"notice\" id=\"no-mpi\">This trace has no MPI calls, only "
                  "states on threads: the MPI analyses (who waits for whom, messages "
                  "between ranks, computation against communication) do not apply to "
                  "it, and the time a thread spent in none of its events is called "
                  "<em>outside any event</em> (in the JSON answers, as in an MPI "
                  "trace, <code>compute</code>).</p>\n");
    page_printf(p,
                "<p class=\"perfetto\">In a trace viewer: <a id=\"trace-json\" "
                "href=\"/runs/%lld/trace.json\" download=\"run-%lld-trace.json\">"
                "trace.json</a> (Trace Event JSON) opens in <a "
                "href=\"https://ui.perfetto.dev\" rel=\"noopener\">Perfetto</a> or "
                "chrome://tracing.</p>\n<nav class=\"toc\"><ul>\n",
                v->run_id, v->run_id);
    for (int k = 0; k < VIEW_TRACE_SECTIONS; k++)
        if (titles[mpi][k] != NULL) /* NULL: a section of the MPI analyses */
            page_printf(p, "<li><a href=\"#%s\">%s</a></li>\n", v->name[k],
                        titles[mpi][k]);
    page_puts(p, "</ul></nav>\n");
    for (int k = 0; k < VIEW_TRACE_SECTIONS; k++) {
        if (titles[mpi][k] == NULL)
            continue;
        page_printf(p, "<section id=\"%s\" class=\"trace-analysis\">\n<h2>%s</h2>\n",
                    v->name[k], titles[mpi][k]);
        page_printf(p, "<p>%s</p>\n", blurbs[mpi][k]);
        if (v->svg[k] != NULL)
            chart(p, v->svg[k], v->svg_len[k]);
        figures(p, k, v->answer[k], mpi, lanes);
        if (k == 6 && v->answer[k] != NULL)
            cluster_members(p, v->answer[k], lane, lanes);
        page_printf(p,
                    "<p><a href=\"/api/v1/runs/%lld/trace/%s\">JSON</a> · "
                    "<a href=\"/plots/run-%lld-%s.svg\">SVG</a></p>\n</section>\n",
                    v->run_id, v->name[k], v->run_id, v->name[k]);
    }
    if (v->application != NULL) {
        page_puts(p, "<p>Across the traced runs of ");
        page_text(p, v->application);
        page_puts(p, ": <a href=\"/api/v1/applications/");
        page_url(p, v->application);
        page_puts(p, "/occupancy?x=nprocs\">occupancy estimator over nprocs</a>.</p>\n");
    }
}
