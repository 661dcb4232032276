/* test_views: the dashboard's views (web/view.h, web/page.h) rendered from
 * hand-built data, without HTTP or a database: the layout, escaping of
 * hostile names in text, attributes and URLs, the structure of tables,
 * forms and plots, the error page and a form with an error next to its
 * field. */
#include "tests/harness.h"
#include "common/xalloc.h"
#include "db/catalog.h"
#include "db/runs.h"
#include "web/form.h"
#include "web/page.h"
#include "web/view.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define EVIL "<script>alert(1)</script>&\"'"
#define EVIL_TEXT "&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&#39;"
#define EVIL_URL "%3Cscript%3Ealert%281%29%3C%2Fscript%3E%26%22%27"

static arena *A;

static int count(const char *s, const char *needle)
{
    int n = 0;
    size_t len = strlen(needle);
    while ((s = strstr(s, needle)) != NULL) {
        n++;
        s += len;
    }
    return n;
}

/* Every element that must close is closed as often as opened, and no
 * hostile markup got through. */
static void check_structure(const char *html)
{
    static const char *const tags[] = {"table",  "tr", "td", "th",   "div", "form",
                                       "select", "p",  "ul", "li",   "dl",  "figure",
                                       "svg",    "h1", "h2", "main", "nav", "a"};
    size_t i;
    char open[16], close[16], open_sp[16];
    CHECK(strncmp(html, "<!DOCTYPE html>\n", 16) == 0);
    CHECK(strstr(html, "</html>\n") != NULL);
    CHECK(strstr(html, "<script>") == NULL);
    for (i = 0; i < sizeof tags / sizeof tags[0]; i++) {
        snprintf(open, sizeof open, "<%s>", tags[i]);
        snprintf(open_sp, sizeof open_sp, "<%s ", tags[i]);
        snprintf(close, sizeof close, "</%s>", tags[i]);
        if (count(html, open) + count(html, open_sp) != count(html, close)) {
            fprintf(stderr, "unbalanced <%s>: %d+%d opened, %d closed\n", tags[i],
                    count(html, open), count(html, open_sp), count(html, close));
            CHECK(0);
        }
    }
}

/* Renders with fn into a fresh page; returns the malloc'd HTML. */
static char *render(const char *title, const char *nav,
                    void (*fn)(struct page *, const void *), const void *data)
{
    struct page p;
    char *html;
    page_begin(&p, A, title, nav);
    fn(&p, data);
    page_finish(&p);
    CHECK(buf_failed(&p.b) == BUF_OK);
    html = buf_detach(&p.b, NULL);
    page_free(&p);
    return html;
}

static void overview_fn(struct page *p, const void *d)
{
    view_overview(p, d);
}

static void test_overview(void)
{
    struct view_overview v;
    char *html;
    v.counts = json_pack("{s:i,s:i,s:i,s:i,s:i,s:i}", "applications", 1, "systems", 1,
                         "runs", 3, "templates", 0, "models", 2, "demo_applications", 1);
    v.apps = json_pack("[{s:s,s:s,s:i,s:i,s:i,s:i}]", "name", EVIL, "description", EVIL,
                       "demo", 1, "executables", 1, "systems", 1, "runs", 3);
    v.systems = json_pack("[{s:s,s:s,s:i,s:s,s:i,s:i,s:i,s:i}]", "name", "SP2 & co",
                          "processor", "P2SC", "cores", 64, "network", "SP switch",
                          "applications", 1, "runs", 3, "benchmarks", 0, "parameters", 0);
    v.recent = json_pack("[{s:i,s:s,s:s,s:s,s:i,s:f,s:s}]", "id", 7, "application", EVIL,
                         "executable", "a.out", "system", "SP2 & co", "nprocs", 16,
                         "runtime", 1.5, "created_at", "2026-11-24 07:00:00");
    html = render("Overview", "overview", overview_fn, &v);
    check_structure(html);
    CHECK(strstr(html, "<title>Overview · Prophecy</title>") != NULL);
    CHECK(strstr(html, "<a href=\"/\" aria-current=\"page\">Overview</a>") != NULL);
    CHECK(strstr(html, "<span class=\"n\">3</span><span class=\"label\">runs</span>"));
    CHECK(strstr(html, "example data") != NULL);
    CHECK_INT(count(html, "<a href=\"/applications/" EVIL_URL "\">" EVIL_TEXT "</a>"), 2);
    CHECK(strstr(html, "<a href=\"/systems/SP2%20%26%20co\">SP2 &amp; co</a>") != NULL);
    CHECK(strstr(html, "<a href=\"/runs/7\">7</a>") != NULL);
    CHECK(strstr(html, "<td class=\"num\">1.5 s</td>") !=
          NULL); /* a runtime in its unit */
    xfree(html);
    json_decref(v.counts);
    json_decref(v.apps);
    json_decref(v.systems);
    json_decref(v.recent);
}

static void run_fn(struct page *p, const void *d)
{
    view_run(p, d);
}

static void test_run(void)
{
    struct rec_kv inputs[] = {{"N", 1000}}, metrics[] = {{EVIL, 2.5}};
    struct rec_kernel kernels[] = {{"solve", 3.0, 10, NULL}, {EVIL, 1.0, 1, "{\"x\":1}"}};
    struct run_record run = {0};
    struct view_run v = {42, &run, "2026-11-24 07:00:00", 1, 0};
    char *html;
    run.application = EVIL;
    run.executable = "a.out";
    run.system = "SP2";
    run.nprocs = 8;
    run.runtime = 4.0;
    run.submitter = "tester";
    run.inputs = inputs;
    run.ninputs = 1;
    run.metrics = metrics;
    run.nmetrics = 1;
    run.kernels = kernels;
    run.nkernels = 2;
    html = render("Run 42", "applications", run_fn, &v);
    check_structure(html);
    CHECK(strstr(html, "<h1>Run 42</h1>") != NULL);
    CHECK(strstr(html, "The run was stored.") != NULL);
    CHECK(strstr(html, "<span class=\"muted\">none</span>") != NULL); /* no client id */
    CHECK(strstr(html, "<figure class=\"plot\"><svg") != NULL);       /* the breakdown */
    CHECK(strstr(html, "<?xml") == NULL);
    CHECK(strstr(html, "<td class=\"num\">75.0 %</td>") != NULL);
    CHECK(strstr(html, "<span class=\"metric\">x 1</span>") != NULL);
    CHECK(strstr(html, "<dt>Runtime</dt><dd>4 s</dd>") != NULL);
    CHECK(count(html, EVIL_TEXT) >= 3);
    CHECK(strstr(html, "href=\"/api/v1/runs/42\"") != NULL);
    xfree(html);
}

/* Kernel names that are call paths (Extra-P, Caliper, TAU, CUBE): a tree of
 * <details> with inclusive time (the "inclusive" metric, else the subtree's
 * exclusive times), exclusive time and share of the runtime; a path without
 * a record of its own ("B") has no exclusive time. Without a runtime the
 * share and the runtime are "—". With several ranks every column
 * aggregates them as the kernels' time does, and the caption says how. */
static void test_run_call_tree(void)
{
    struct rec_kernel kernels[] = {{"main", 1.0, 1, "{\"inclusive\":10,\"visits\":3}"},
                                   {"main/comp", 6.0, 4, NULL},
                                   {"main/comp/MPI_Send", 2.0, 4, NULL},
                                   {"main/io", 1.0, 1, NULL},
                                   {"B/x", 0.5, 1, NULL}};
    struct run_record run = {0};
    struct view_run v = {43, &run, "2026-11-24 07:00:00", 0, 0};
    char *html;
    run.application = "cp";
    run.executable = "a.out";
    run.system = "SP2";
    run.nprocs = 8;
    run.runtime = 10.0;
    run.submitter = "tester";
    run.kernels = kernels;
    run.nkernels = 5;
    html = render("Run 43", "applications", run_fn, &v);
    check_structure(html);
    if (getenv("DUMP_HTML"))
        fputs(strstr(html, "calltree"), stderr);
    CHECK(strstr(html, "<h2 id=\"calltree\">Call tree</h2>") != NULL);
    /* B first ('B' < 'm'), then main with its subtree; two levels open */
    CHECK(strstr(html,
                 "<details class=\"ct-node\" open><summary><span class=\"ct-name\" "
                 "title=\"B\">B</span><span class=\"ct-incl num\">500 ms</span><span "
                 "class=\"ct-excl num\">\xe2\x80\x94</span><span class=\"ct-share "
                 "num\">5.0 %</span></summary>") != NULL);
    CHECK(strstr(html,
                 "<span class=\"ct-name\" title=\"main\">main</span><span "
                 "class=\"ct-incl num\">10 s</span><span class=\"ct-excl "
                 "num\">1 s</span><span class=\"ct-share num\">100.0 %</span>") != NULL);
    CHECK(strstr(html,
                 "<details class=\"ct-node\" open><summary><span "
                 "class=\"ct-name\" title=\"main/comp\">comp</span><span "
                 "class=\"ct-incl num\">8 s</span><span class=\"ct-excl "
                 "num\">6 s</span><span class=\"ct-share num\">80.0 %</span>") != NULL);
    CHECK(strstr(html, "<div class=\"ct-leaf\"><span class=\"ct-name\" "
                       "title=\"main/comp/MPI_Send\">MPI_Send</span><span "
                       "class=\"ct-incl num\">2 s</span>") != NULL);
    CHECK(strstr(html, "title=\"main/io\">io</span><span class=\"ct-incl num\">1 "
                       "s</span><span class=\"ct-excl num\">1 s</span><span "
                       "class=\"ct-share num\">10.0 %</span>") != NULL);
    CHECK_INT(count(html, "<details"), 3);
    CHECK_INT(count(html, "</details>"), 3);
    CHECK_INT(count(html, "class=\"ct-leaf\""), 3);
    xfree(html);

    /* several ranks: a kernel's time is its slowest rank's, so B's
     * subtree of maxima (x at 0.5 s and y at 0.7 s on other ranks) passes
     * the run's 1 s; no path takes longer than the run */
    {
        struct rec_kernel ranks[] = {{"B/x", 0.5, 1, NULL}, {"B/y", 0.7, 1, NULL}};
        run.kernels = ranks;
        run.nkernels = 2;
        run.runtime = 1.0;
        html = render("Run 43", "applications", run_fn, &v);
        CHECK(strstr(html,
                     "title=\"B\">B</span><span class=\"ct-incl num\">1 s</span><span "
                     "class=\"ct-excl num\">\xe2\x80\x94</span><span class=\"ct-share "
                     "num\">100.0 %</span>") != NULL);
        CHECK(strstr(html, "120.0 %") == NULL);
        xfree(html);
        run.kernels = kernels;
        run.nkernels = 5;
    }
    /* several ranks, the tree says how every column aggregates them: a TAU
     * or Caliper kernel (`mean` and `min` beside its time) is its slowest
     * rank's, as its `inclusive` is */
    {
        struct rec_kernel slow[] = {
            {"main", 1.0, 1, "{\"inclusive\":4,\"mean\":0.5,\"min\":0.25}"},
            {"main/solve", 3.0, 1, "{\"inclusive\":3,\"mean\":2,\"min\":1}"}};
        run.kernels = slow;
        run.nkernels = 2;
        run.runtime = 4.0;
        html = render("Run 43", "applications", run_fn, &v);
        CHECK(strstr(html, "<strong id=\"calltree-ranks\">Every column is the largest "
                           "over the 8 processes</strong>") != NULL);
        CHECK(strstr(html, "title=\"main\">main</span><span class=\"ct-incl num\">4 "
                           "s</span><span class=\"ct-excl num\">1 s</span><span "
                           "class=\"ct-share num\">100.0 %</span>") != NULL);
        xfree(html);
    }
    /* a CUBE or HPCToolkit kernel (`exclusive_max` beside its time) is the
     * mean over the ranks: the inclusive column is `inclusive_mean`, never
     * the slowest rank's `inclusive`, and a share is of the mean rank's time,
     * so a leaf's inclusive and exclusive times agree and a child's compare
     * with its parent's */
    {
        struct rec_kernel mean[] = {
            {"main", 0.5, 1,
             "{\"inclusive\":9,\"inclusive_mean\":8,\"inclusive_min\":7,"
             "\"exclusive_max\":1,\"exclusive_min\":0.25}"},
            {"main/init", 2.0, 1,
             "{\"inclusive\":3,\"inclusive_mean\":2,\"inclusive_min\":1,"
             "\"exclusive_max\":3,\"exclusive_min\":1}"},
            {"main/solve", 5.5, 1,
             "{\"inclusive\":6.5,\"inclusive_mean\":5.5,\"inclusive_min\":5,"
             "\"exclusive_max\":6.5,\"exclusive_min\":5}"}};
        struct rec_kv threads[] = {{"threads", 2}};
        run.kernels = mean;
        run.nkernels = 3;
        run.runtime = 9.0; /* the slowest rank's */
        run.nprocs = 2;
        run.inputs = threads;
        run.ninputs = 1;
        html = render("Run 43", "applications", run_fn, &v);
        if (getenv("DUMP_HTML"))
            fputs(strstr(html, "calltree"), stderr);
        CHECK(strstr(html, "share of the mean thread's time, 8 s. <strong "
                           "id=\"calltree-ranks\">Every column is the mean over the "
                           "threads of the 2 processes</strong>, as the kernels' time "
                           "is; the slowest thread took 9 s, the runtime.") != NULL);
        CHECK(strstr(html, "title=\"main\">main</span><span class=\"ct-incl num\">8 "
                           "s</span><span class=\"ct-excl num\">500 ms</span><span "
                           "class=\"ct-share num\">100.0 %</span>") != NULL);
        CHECK(strstr(html, "title=\"main/init\">init</span><span class=\"ct-incl "
                           "num\">2 s</span><span class=\"ct-excl num\">2 s</span><span "
                           "class=\"ct-share num\">25.0 %</span>") != NULL);
        CHECK(strstr(html, "class=\"ct-incl num\">9 s</span>") == NULL);
        CHECK(strstr(html, "class=\"ct-incl num\">3 s</span>") == NULL);
        xfree(html);
        /* one process of one thread: nothing to aggregate, nothing said */
        run.nprocs = 1;
        run.ninputs = 0;
        html = render("Run 43", "applications", run_fn, &v);
        CHECK(strstr(html, "calltree-ranks") == NULL);
        xfree(html);
        run.inputs = NULL;
        run.nprocs = 8;
        run.kernels = kernels;
        run.nkernels = 5;
        run.runtime = 10.0;
    }
    run.runtime = NAN; /* a run without a time metric */
    html = render("Run 43", "applications", run_fn, &v);
    CHECK(strstr(html, "<dt>Runtime</dt><dd>\xe2\x80\x94</dd>") != NULL);
    CHECK(strstr(html, "class=\"ct-share num\">\xe2\x80\x94</span>") != NULL);
    CHECK(strstr(html, "nan") == NULL);
    xfree(html);
}

static void app_fn(struct page *p, const void *d)
{
    view_app(p, d);
}

static void test_app(void)
{
    struct view_config cfg[3] = {
        {1, 1, 1, "a.out", "SP2", "{\"N\":1000.0}", 2, 11, 20.0, 9.0, 11.0, 2},
        {1, 1, 2, "a.out", "SP2", "{\"N\":1000.0}", 1, 12, 5.5, 5.5, 5.5, 1},
        {1, 1, 4, "a.out", "SP2", "{\"N\":1000.0}", 1, 13, 3.0, 3.0, 3.0, 1},
    };
    struct rec_kv in[] = {{"N", 1000}};
    struct view_run_row rows[2] = {
        {13, "a.out", "SP2", 4, 3.0, "2026-11-24", 2, in, 1, "0123456789abcdef", "main"},
        {12, "a.out", "SP2", 2, 5.5, "2026-11-24", 2, in, 1, NULL, NULL}};
    struct view_app v = {0};
    long long ids[2 * VIEW_APP_MAX_BARS];
    size_t nids;
    char *html;

    v.name = EVIL;
    v.sort = 2;
    v.desc = 1;
    v.page = 2;
    v.pages = 3;
    v.total = 120;
    v.app = json_pack("{s:s,s:s,s:i,s:i,s:[{s:i,s:s,s:s,s:s,s:s,s:i}],s:[{s:i,s:s,s:i,"
                      "s:i,s:i}],s:[]}",
                      "name", EVIL, "description", "d", "demo", 0, "runs", 4,
                      "executables", "id", 1, "name", "a.out", "compiler", "cc", "flags",
                      "-O2", "version", "1", "runs", 4, "systems", "id", 1, "name", "SP2",
                      "runs", 4, "min_nprocs", 1, "max_nprocs", 4, "templates");
    v.configs = cfg;
    v.nconfigs = 3;
    v.rows = rows;
    v.nrows = 2;
    v.has_kernels = 1;
    nids = view_app_kernel_runs(A, cfg, 3, ids);
    CHECK(nids >= 3);
    CHECK_INT(ids[0], 11); /* the processor series, by nprocs */
    CHECK_INT(ids[1], 12);
    CHECK_INT(ids[2], 13);
    v.kernels = json_pack("[{s:i,s:s,s:f},{s:i,s:s,s:f},{s:i,s:s,s:f},{s:i,s:s,s:f}]",
                          "run_id", 11, "name", "solve", "time", 9.0, "run_id", 12,
                          "name", "solve", "time", 5.0, "run_id", 13, "name", EVIL,
                          "time", 2.0, "run_id", 99, "name", "not shown", "time", 1.0);
    html = render(EVIL, "applications", app_fn, &v);
    check_structure(html);
    CHECK(strstr(html, "<title>" EVIL_TEXT " · Prophecy</title>") != NULL);
    CHECK(strstr(html, "href=\"/model/couple?application=" EVIL_URL "\"") != NULL);
    CHECK(strstr(html, "href=\"/model/parameterize") == NULL); /* no templates */
    CHECK(strstr(html, "<h2 id=\"scaling\">Scaling</h2>") != NULL);
    /* provenance columns: the commit shortened, each linked to its filter */
    CHECK(strstr(html,
                 "?commit=0123456789abcdef#runs\">"
                 "<code title=\"0123456789abcdef\">0123456789ab</code></a>") != NULL);
    CHECK(strstr(html, "?branch=main#runs\" title=\"main\"><code>main</code>") != NULL);
    CHECK(strstr(html, "id=\"runs-filter\"") != NULL);
    CHECK(strstr(html, "Runtime over processors") != NULL);
    CHECK(strstr(html, "<h2 id=\"kernels\">Kernel breakdown</h2>") != NULL);
    CHECK(strstr(html, "not shown") == NULL); /* a kernel of a run without a bar */
    CHECK(strstr(html, "120 runs; page 2 of 3, sorted by runtime (descending).") != NULL);
    CHECK(strstr(html, "aria-sort=\"descending\"") != NULL);
    CHECK(strstr(html, "href=\"/applications/" EVIL_URL
                       "?sort=runtime&amp;dir=desc&amp;page=3#runs\" "
                       "rel=\"last\"") != NULL);
    CHECK(strstr(html, "<a href=\"/runs/13\">13</a>") != NULL);
    /* speedup and efficiency beside the runtime plot, with the ideal line */
    CHECK(strstr(html, "Speedup over processors") != NULL);
    CHECK(strstr(html, "Parallel efficiency over processors") != NULL);
    CHECK(count(html, ">ideal</text>") == 4); /* wide and narrow drawings */
    CHECK(count(html, "<svg class=\"narrow\" ") == count(html, "<svg class=\"wide\" "));
    /* the axes toggle keeps the view (filters, order, page) and marks the choice */
    CHECK(strstr(html, "<a href=\"/applications/" EVIL_URL
                       "?sort=runtime&amp;dir=desc&amp;page=2&amp;axes=log#scaling\" "
                       "data-axes=\"log\">logarithmic</a>") != NULL);
    CHECK(strstr(html,
                 "?sort=runtime&amp;dir=desc&amp;page=2#scaling\" data-axes=\"auto\" "
                 "aria-current=\"true\">automatic</a>") != NULL);
    /* the CSV is the whole filtered table in its order, not the page */
    CHECK(strstr(html,
                 "<a id=\"runs-csv\" href=\"/applications/" EVIL_URL
                 "?sort=runtime&amp;dir=desc&amp;format=csv\" download=\"") != NULL);
    CHECK(strstr(html, "Download the 120 runs as CSV</a>") != NULL);
    CHECK(strstr(html, "id=\"history\"") == NULL); /* no history links until wired */
    xfree(html);
    /* linear axes asked for: the table's links keep the choice */
    v.axes = 1;
    html = render(EVIL, "applications", app_fn, &v);
    CHECK(strstr(html, "data-axes=\"linear\" aria-current=\"true\">linear</a>") != NULL);
    CHECK(strstr(html, "dir=desc&amp;page=3&amp;axes=linear#runs\" rel=\"last\"") !=
          NULL);
    xfree(html);
    /* each configuration links to its history page */
    v.history = 1;
    html = render(EVIL, "applications", app_fn, &v);
    check_structure(html);
    CHECK(strstr(html,
                 "<li><a href=\"/history?application=" EVIL_URL
                 "&amp;executable=a.out&amp;system=SP2&amp;nprocs=2&amp;input.N=1000"
                 "&amp;y=runtime\">a.out on SP2, P=2, N=1000</a> <span "
                 "class=\"muted\">(1 run)</span></li>") != NULL);
    CHECK_INT(count(html, "<li><a href=\"/history?"), 3);
    xfree(html);
    json_decref(v.app);
    json_decref(v.kernels);
}

/* The table as CSV through the one CSV writer (formats/export.h): one column
 * per input name of any row, RFC 4180 quoting as the export's, the formula
 * guard of a download for spreadsheets, empty cells for inputs a run lacks
 * and for an absent runtime. */
static void test_app_csv(void)
{
    struct rec_kv in1[] = {{"N", 1000}, {"M", 2.5}};
    struct rec_kv in2[] = {{"L", 8}};
    struct view_run_row rows[2] = {
        {13, "a,out", "=cmd", 4, 3.25, "2026-11-24 10:00:00", 2, in1, 2, "abc123",
         "+dev"},
        {12, "b \"x\"", "SP2", 2, NAN, "2026-11-24 09:00:00", 0, in2, 1, NULL, NULL}};
    struct buf b;
    buf_init(&b, 1 << 20);
    CHECK_INT(view_app_csv(&b, A, rows, 2), 0);
    CHECK_STR(
        buf_str(&b),
        "run,executable,system,nprocs,L,M,N,runtime,kernels,stored,commit,branch\r\n"
        "13,\"a,out\",\"'=cmd\",4,,2.5,1000,3.25,2,2026-11-24 "
        "10:00:00,abc123,\"'+dev\"\r\n"
        "12,\"b \"\"x\"\"\",SP2,2,8,,,,0,2026-11-24 09:00:00,,\r\n");
    buf_reset(&b);
    CHECK_INT(view_app_csv(&b, A, rows, 0), 0);
    CHECK_STR(buf_str(&b),
              "run,executable,system,nprocs,runtime,kernels,stored,commit,branch\r\n");
    buf_free(&b);
}

/* Without a processor series the breakdown shows the last configurations,
 * each bar labelled by its configuration (not its run id) and in order of
 * the input's value, not of the inputs' JSON text or of run ids. */
static void test_app_breakdown_by_configuration(void)
{
    struct view_config cfg[3] = {
        {1, 1, 4, "a.out", "SP2", "{\"N\":1000.0}", 1, 31, 9.0, 9.0, 9.0, 1},
        {1, 1, 4, "a.out", "SP2", "{\"N\":200.0}", 1, 37, 2.0, 2.0, 2.0, 1},
        {1, 1, 4, "a.out", "SP2", "{\"N\":50.0}", 1, 35, 0.5, 0.5, 0.5, 1},
    };
    struct view_app v = {0};
    long long ids[2 * VIEW_APP_MAX_BARS];
    const char *p50, *p200, *p1000;
    char *html;

    v.name = "app";
    v.page = 1;
    v.pages = 1;
    v.app = json_pack("{s:s,s:i,s:i,s:[],s:[],s:[]}", "name", "app", "demo", 0, "runs", 3,
                      "executables", "systems", "templates");
    v.configs = cfg;
    v.nconfigs = 3;
    v.has_kernels = 1;
    CHECK_INT(view_app_kernel_runs(A, cfg, 3, ids), 3);
    v.kernels = json_pack("[{s:i,s:s,s:f},{s:i,s:s,s:f},{s:i,s:s,s:f}]", "run_id", 31,
                          "name", "solve", "time", 8.0, "run_id", 37, "name", "solve",
                          "time", 1.5, "run_id", 35, "name", "solve", "time", 0.4);
    html = render("app", "applications", app_fn, &v);
    check_structure(html);
    CHECK(strstr(html, "<h2 id=\"kernels\">Kernel breakdown</h2>") != NULL);
    CHECK(strstr(html, ">run 3") == NULL);
    p50 = strstr(html, ">P=4, N=50<");
    p200 = strstr(html, ">P=4, N=200<");
    p1000 = strstr(html, ">P=4, N=1000<");
    CHECK(p50 != NULL && p200 != NULL && p1000 != NULL);
    CHECK(p50 < p200 && p200 < p1000);
    xfree(html);
    json_decref(v.app);
    json_decref(v.kernels);
}

/* A suite of benchmarks (one executable each, nothing to scale over) gets
 * the mean runtime of each configuration as bars, slowest first, on a log
 * axis when they span decades, in units (issue 31: such a suite had no
 * chart). */
static void test_app_suite_bars(void)
{
    struct view_config cfg[3] = {
        {1, 1, 1, "BM_fast", "box", "{}", 2, 31, 2e-6, 0.9e-6, 1.1e-6, 2},
        {2, 1, 1, "BM_slow", "box", "{}", 1, 32, 2.0, 2.0, 2.0, 1},
        {3, 1, 1, "BM_mid", "box", "{}", 4, 33, 4e-3, 1e-3, 1e-3, 4},
    };
    struct view_app v = {0};
    const char *slow, *mid, *fast;
    char *html;

    v.name = "suite";
    v.page = 1;
    v.pages = 1;
    v.many_exe = 1;
    v.app = json_pack("{s:s,s:i,s:i,s:[],s:[],s:[]}", "name", "suite", "demo", 0, "runs",
                      7, "executables", "systems", "templates");
    v.configs = cfg;
    v.nconfigs = 3;
    html = render("suite", "applications", app_fn, &v);
    check_structure(html);
    CHECK(strstr(html, ">Mean runtime per configuration</text>") != NULL);
    CHECK(strstr(html, "3 configurations, each the mean of its runs.") != NULL);
    slow = strstr(html, "<title>BM_slow P=1 \xe2\x80\x94 mean runtime: 2 s</title>");
    mid = strstr(html, "<title>BM_mid P=1 \xe2\x80\x94 mean runtime: 1 ms</title>");
    fast =
        strstr(html, "<title>BM_fast P=1 \xe2\x80\x94 mean runtime: 1 \xc2\xb5s</title>");
    CHECK(slow != NULL && mid != NULL && fast != NULL);
    CHECK(slow < mid && mid < fast); /* slowest first */
    /* log axis (1 us .. 2 s): powers of ten named in their units */
    CHECK(strstr(html, ">10 \xc2\xb5s</text>") != NULL);
    CHECK(strstr(html, ">1 s</text>") != NULL);
    xfree(html);
    json_decref(v.app);
}

static void test_error_page(void)
{
    struct err e = {0};
    size_t len;
    char *html;
    err_set(&e, ERR_NOT_FOUND, "not_found", NULL, "no application %s", EVIL);
    html = page_error_html(&e, 404, &len);
    CHECK(html != NULL);
    if (html == NULL)
        return;
    CHECK_INT(len, strlen(html));
    check_structure(html);
    CHECK(strstr(html, "<title>404 Not found · Prophecy</title>") != NULL);
    CHECK(strstr(html, "<h1>404 Not found</h1>") != NULL);
    CHECK(strstr(html, "<p class=\"notice bad\">no application " EVIL_TEXT "</p>") !=
          NULL);
    CHECK(strstr(html, "aria-current") == NULL);
    xfree(html);
    /* no message: the page says the kind of error */
    memset(&e, 0, sizeof e);
    e.status = ERR_UNAVAILABLE;
    html = page_error_html(&e, 503, &len);
    CHECK(html && strstr(html, "<p class=\"notice bad\">Unavailable</p>") != NULL);
    xfree(html);
}

static void upload_fn(struct page *p, const void *d)
{
    p->csrf = "123.abc";
    view_upload(p, d);
}

static void test_upload_form_error_at_field(void)
{
    struct form_field fields[] = {{"application", EVIL, strlen(EVIL), NULL, NULL},
                                  {"nprocs", "eight", 5, NULL, NULL}};
    struct form f = {fields, 2};
    struct err e = {0};
    struct view_upload v = {.which = 1, .form = &f, .error = &e, .client_id = "web-00ff"};
    char *html;
    err_set(&e, ERR_INVALID, "invalid", "nprocs",
            "nprocs must be a positive integer, not %s", "\"eight\"");
    html = render("Upload", "upload", upload_fn, &v);
    check_structure(html);
    CHECK(strstr(html, "Nothing was stored: see the field marked below.") != NULL);
    CHECK(strstr(html, "id=\"run-nprocs\" name=\"nprocs\" inputmode=\"numeric\" "
                       "placeholder=\"8\" value=\"eight\" required aria-invalid=\"true\" "
                       "aria-describedby=\"run-nprocs-error\">") != NULL);
    CHECK(strstr(html, "<p class=\"field-error\" id=\"run-nprocs-error\">nprocs must be "
                       "a positive integer, not &quot;eight&quot;</p>") != NULL);
    CHECK(strstr(html, "value=\"" EVIL_TEXT "\"") != NULL); /* kept, escaped */
    /* three forms: one run, CSV, import */
    CHECK_INT(count(html, "<input type=\"hidden\" name=\"csrf\" value=\"123.abc\">"), 3);
    CHECK(strstr(html, "<input type=\"hidden\" name=\"id\" value=\"web-00ff\">") != NULL);
    CHECK_INT(count(html, "aria-invalid"), 1); /* only that field */
    xfree(html);
}

/* The import form: formats from the caller's table after "auto", the chosen one
 * kept; a file error (FILE:LINE) next to the file, a system error next to it. */
static void test_upload_import_form(void)
{
    struct form_field fields[] = {{"format", "osu", 3, NULL, NULL},
                                  {"application", EVIL, strlen(EVIL), NULL, NULL}};
    struct form f = {fields, 2};
    struct view_choice formats[] = {{"extrap-text", "Extra-P text input"},
                                    {"osu", "OSU <micro-benchmark> output"}};
    struct err e = {0};
    struct view_upload v = {
        .which = 3, .form = &f, .error = &e, .formats = formats, .nformats = 2};
    char *html;

    err_set(&e, ERR_INVALID, "invalid_import", "lat.txt:4",
            "lat.txt:4: a number is missing");
    html = render("Upload", "upload", upload_fn, &v);
    check_structure(html);
    CHECK(strstr(html, "<select id=\"import-format\" name=\"format\"><option "
                       "value=\"auto\">auto (recognise it)</option><option "
                       "value=\"extrap-text\">extrap-text — Extra-P text input</option>"
                       "<option value=\"osu\" selected>osu — OSU &lt;micro-benchmark&gt; "
                       "output</option></select>") != NULL);
    CHECK(strstr(html, "<p class=\"field-error\" id=\"import-file-error\">lat.txt:4: a "
                       "number is missing</p>") != NULL);
    CHECK(strstr(html, "value=\"" EVIL_TEXT "\"") != NULL);
    CHECK_INT(count(html, "aria-invalid"), 1);
    xfree(html);

    err_clear(&e);
    err_set(&e, ERR_INVALID, "missing_field", "system", "give the system");
    html = render("Upload", "upload", upload_fn, &v);
    CHECK(strstr(html, "<p class=\"field-error\" id=\"import-system-error\">give the "
                       "system</p>") != NULL);
    CHECK_INT(count(html, "aria-invalid"), 1);
    xfree(html);
}

/* ---- a modeling form step over a database of known runs -------------------------- */

static char dir[] = "/tmp/prophecy-viewtest-XXXXXX";
static char dbpath[256];

/* Application EVIL with 3 runs of a.out on "SP2 & co" (2 on one process,
 * 1 on two) and application "other" with none. */
static db *form_db(void)
{
    static const struct {
        long long np;
        double rt;
    } runs[] = {{1, 9.0}, {1, 11.0}, {2, 5.5}};
    struct err e = {0};
    db *d = NULL;
    size_t i;

    CHECK(mkdtemp(dir) != NULL);
    snprintf(dbpath, sizeof dbpath, "%s/forms.db", dir);
    CHECK_INT(db_open(&d, dbpath, NULL, &e), 0);
    CHECK_INT(db_begin(d, &e), 0);
    for (i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        struct run_record r = {0};
        long long id;
        int existed;
        r.application = EVIL;
        r.executable = "a.out";
        r.system = "SP2 & co";
        r.nprocs = runs[i].np;
        r.runtime = runs[i].rt;
        CHECK_INT(db_runs_insert(d, &r, 1, &id, &existed, &e), 0);
    }
    CHECK(db_app_id(d, "other", 1, &e) > 0);
    CHECK_INT(db_commit(d, &e), 0);
    return d;
}

static void form_db_done(db *d)
{
    db_close(d);
    unlink(dbpath);
    rmdir(dir);
}

static char *fit_step1(db *d, const char *application, int strict, int *status)
{
    struct form_data data = {d};
    struct fctx c;
    struct err e = {0};
    int shown = 1;
    char *html;
    memset(&c, 0, sizeof c);
    c.arena = A;
    c.def = &form_fit;
    c.method_name = "fit";
    c.store = &data;
    c.keep = json_array();
    if (application)
        fs_set(&c, "application", application);
    if (c.def->check(&c, 1, strict, &e) != 0)
        shown = forms_fail(&c, &e, 1);
    *status = c.err.status;
    forms_step_page(&c, shown);
    page_finish(&c.p);
    CHECK(buf_failed(&c.p.b) == BUF_OK);
    html = buf_detach(&c.p.b, NULL);
    page_free(&c.p);
    json_decref(c.keep);
    return html;
}

static void test_form_step(void)
{
    int status;
    db *d = form_db();
    char *html = fit_step1(d, NULL, 0, &status);
    check_structure(html);
    CHECK_INT(status, 0);
    CHECK(strstr(html, "<title>Curve fitting: step 1 of 3 · Prophecy</title>") != NULL);
    CHECK(strstr(html, "<li aria-current=\"step\">1. Application</li>") != NULL);
    CHECK(
        strstr(html, "<form class=\"card step\" method=\"get\" action=\"/model/fit\"") !=
        NULL);
    CHECK(strstr(html, "<input type=\"hidden\" name=\"step\" value=\"1\">") != NULL);
    /* the first application with runs is chosen, its name escaped */
    CHECK(strstr(html, "<option value=\"" EVIL_TEXT "\" selected>" EVIL_TEXT
                       " (3 runs)</option>") != NULL);
    CHECK(strstr(html, "SP2 &amp; co (3 runs)") != NULL);
    CHECK(strstr(html, "aria-invalid") == NULL);
    xfree(html);

    /* an application that is not stored: the error at its field, 404 */
    html = fit_step1(d, "<i>nope</i>", 1, &status);
    check_structure(html);
    CHECK_INT(status, ERR_NOT_FOUND);
    CHECK(strstr(html, "Not computed: see the field marked below.") != NULL);
    CHECK(strstr(html, "aria-invalid=\"true\"") != NULL);
    CHECK(strstr(html, "no application named &lt;i&gt;nope&lt;/i&gt;") != NULL);
    CHECK(strstr(html, "<i>") == NULL);
    xfree(html);
    form_db_done(d);
}

static void answer_fn(struct page *p, const void *d)
{
    page_model_answer(p, (json_t *)d);
}

static void system_fn(struct page *p, const void *d)
{
    view_system(p, d);
}

/* JSON values on pages read as text, never as JSON: a parameterization's
 * points and predictions at {"N": 1000, "P": 8}, nested and long arrays in
 * a modeling answer, and a system's metadata that is not a string. */
static void test_json_values_read_as_text(void)
{
    json_t *ans = json_pack("{s:s, s:f, s:[{s:{s:i,s:i}, s:f}], s:[{s:{s:i}, s:f, "
                            "s:[[i,i],[i,i]], s:{s:s}}]}",
                            "formula", "y = N/P", "value", 2.5, "predictions", "x", "N",
                            1000, "P", 8, "y", 2.5, "points", "x", "N", 1000, "runtime",
                            1.25, "pairs", 1, 2, 3, 4, "odd", "k", EVIL);
    json_t *many = json_array();
    struct view_system sys = {0};
    char *html;
    for (int i = 0; i < 20; i++)
        json_array_append_new(many, json_integer(i));
    json_object_set_new(json_array_get(json_object_get(ans, "points"), 0), "many", many);
    html = render("Model", "models", answer_fn, ans);
    check_structure(html);
    if (getenv("DUMP_HTML"))
        fputs(html, stderr);
    CHECK(strstr(html, "<td>N&nbsp;=&nbsp;1000, P&nbsp;=&nbsp;8</td>") != NULL);
    CHECK(strstr(html, "<td>N&nbsp;=&nbsp;1000</td>") != NULL);
    CHECK(strstr(html, "<td>(1, 2), (3, 4)</td>") != NULL);
    CHECK(strstr(html, "<td>k&nbsp;=&nbsp;" EVIL_TEXT "</td>") != NULL);
    CHECK(strstr(html, ", 15, \xe2\x80\xa6 (20 in all)</td>") != NULL);
    CHECK(strstr(html, "{&quot;") == NULL && strstr(html, "[[") == NULL);
    xfree(html);
    json_decref(ans);

    sys.name = "SP2";
    sys.system =
        json_pack("{s:s, s:s, s:i, s:{s:s, s:i, s:[s,s], s:{s:s, s:f}}}", "name", "SP2",
                  "description", "d", "runs", 0, "metadata", "site", EVIL, "nodes", 128,
                  "gpus", "A100", "H100", "net", "kind", "IB", "gbps", 200.0);
    sys.apps = json_array();
    sys.benchmarks = json_array();
    html = render("SP2", "systems", system_fn, &sys);
    check_structure(html);
    CHECK(strstr(html, "<dt>site</dt><dd>" EVIL_TEXT "</dd>") != NULL);
    CHECK(strstr(html, "<dt>nodes</dt><dd>128</dd>") != NULL);
    CHECK(strstr(html, "<dt>gpus</dt><dd>A100, H100</dd>") != NULL);
    CHECK(
        strstr(html, "<dt>net</dt><dd>kind&nbsp;=&nbsp;IB, gbps&nbsp;=&nbsp;200</dd>") !=
        NULL);
    CHECK(strstr(html, "[&quot;") == NULL && strstr(html, "{&quot;") == NULL);
    xfree(html);
    json_decref(sys.system);
    json_decref(sys.apps);
    json_decref(sys.benchmarks);
}

int main(void)
{
    A = arena_new();
    RUN(test_overview);
    RUN(test_run);
    RUN(test_run_call_tree);
    RUN(test_json_values_read_as_text);
    RUN(test_app);
    RUN(test_app_breakdown_by_configuration);
    RUN(test_app_suite_bars);
    RUN(test_app_csv);
    RUN(test_error_page);
    RUN(test_upload_form_error_at_field);
    RUN(test_upload_import_form);
    RUN(test_form_step);
    arena_free(A);
    return harness_report();
}
