/* test_history: the history pieces of the dashboard (SPEC §11) from
 * hand-built data: time parsing and formatting, the history chart (a point
 * per run with its run, commit and time in <title>, the model's band, alerts,
 * change points), the comparison bar chart, and the alerts, history and
 * compare views (escaping, structure, links, triage forms). */
#include "tests/harness.h"
#include "common/xalloc.h"
#include "web/chart_history.h"
#include "web/page.h"
#include "web/view.h"

#include <stdlib.h>

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

static void check_structure(const char *html)
{
    static const char *const tags[] = {"table",  "tr", "td", "th",   "div",    "form",
                                       "select", "p",  "ul", "li",   "figure", "svg",
                                       "h1",     "h2", "a",  "code", "title"};
    size_t i;
    char open[16], close[16], open_sp[16];
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

static char *render(void (*fn)(struct page *, const void *), const void *data,
                    const char *csrf)
{
    struct page p;
    char *html;
    page_begin(&p, A, "t", NULL);
    p.csrf = csrf;
    fn(&p, data);
    page_finish(&p);
    CHECK(buf_failed(&p.b) == BUF_OK);
    html = buf_detach(&p.b, NULL);
    page_free(&p);
    return html;
}

static void test_time(void)
{
    double t;
    char s[32];
    CHECK_INT(chart_parse_time("1970-01-01", &t), 0);
    CHECK_NEAR(t, 0, 0);
    CHECK_INT(chart_parse_time("2026-11-24T08:30:15Z", &t), 0);
    CHECK_NEAR(t, 1795509015, 0);
    chart_format_time(t, s, sizeof s);
    CHECK_STR(s, "2026-11-24 08:30");
    CHECK_INT(chart_parse_time("2024-02-29 23:59:59.5", &t), 0);
    chart_format_time(t, s, sizeof s);
    CHECK_STR(s, "2024-02-29 23:59");
    chart_format_time(-86400, s, sizeof s);
    CHECK_STR(s, "1969-12-31 00:00");
    CHECK_INT(chart_parse_time("2026-13-01", &t), -1);
    CHECK_INT(chart_parse_time("2026-11-24T08:30:15+02:00", &t), -1);
    CHECK_INT(chart_parse_time("yesterday", &t), -1);
    CHECK_INT(chart_parse_time(NULL, &t), -1);
}

/* Five runs a day apart; the model watches the last three; the fourth
 * raised an alert and starts a shift. */
static struct chart_hist_point pts[5];

static void make_points(void)
{
    static const double y[5] = {1.0, 1.1, 0.9, 2.0, 2.1};
    static const char *const commits[5] = {"c0", "c1", "c2", EVIL, "c4"};
    size_t i;
    for (i = 0; i < 5; i++) {
        pts[i].t = 1795509015 + 86400.0 * (double)i;
        pts[i].y = y[i];
        pts[i].run = 10 + (long long)i;
        pts[i].commit = commits[i];
        pts[i].alert = i == 3;
        pts[i].has_band = i >= 2;
        pts[i].judged = i >= 2;
        pts[i].out = i == 3;
        pts[i].lo = 0.8;
        pts[i].hi = 1.2;
    }
}

/* Runs at one instant (imported with one time) and their model's band: the
 * band polygon had no width, so the page said "the band" over nothing; it is
 * 12 px wide around the instant, from the lowest lo to the highest hi. */
static void test_chart_history_one_instant(void)
{
    struct chart_hist_point one[3];
    struct chart_history h = {"runtime", "runtime (s)", one, 3, NULL, 0, 0, 0, "s"};
    struct buf a;
    struct err e = {0};
    const char *poly;
    double x[4], y[4];
    for (int i = 0; i < 3; i++) {
        memset(&one[i], 0, sizeof one[i]);
        one[i].t = 1795509015;
        one[i].y = 1.0 + 0.1 * i;
        one[i].run = 20 + i;
        one[i].has_band = 1;
        one[i].lo = 0.9 - 0.1 * i;
        one[i].hi = 1.1 + 0.1 * i;
    }
    buf_init(&a, 1 << 22);
    CHECK_INT(chart_history(&a, &h, &e), 0);
    poly = strstr(buf_str(&a), "class=\"interval\"");
    CHECK(poly != NULL);
    poly = poly ? strstr(poly, "points=\"") : NULL;
    CHECK(poly != NULL);
    if (poly != NULL) {
        CHECK_INT(sscanf(poly, "points=\"%lf,%lf %lf,%lf %lf,%lf %lf,%lf", &x[0], &y[0],
                         &x[1], &y[1], &x[2], &y[2], &x[3], &y[3]),
                  8);
        CHECK_NEAR(x[1] - x[0], 12, 1e-9);
        CHECK(y[2] > y[1] + 10); /* lo (0.7) well below hi (1.3) */
    }
    buf_free(&a);
}

static void test_chart_history(void)
{
    size_t changes[1] = {3};
    struct chart_history h = {
        "runtime of " EVIL, "runtime (s)", pts, 5, changes, 1, 0, 0, NULL};
    struct buf a, b;
    struct err e = {0};
    const char *s;

    buf_init(&a, 1 << 22);
    buf_init(&b, 1 << 22);
    CHECK_INT(chart_history(&a, &h, &e), 0);
    CHECK_INT(chart_history(&b, &h, &e), 0);
    s = buf_str(&a);
    CHECK_STR(s, buf_str(&b)); /* deterministic */
    CHECK(strstr(s, "<script") == NULL);
    CHECK(strstr(s, "viewBox=\"0 0 760 400\"") != NULL);
    CHECK(strstr(s, "<title>run 10, commit c0, 2026-11-24 08:30: 1</title>") != NULL);
    CHECK(
        strstr(s, "<title>run 14, commit c4, 2026-11-28 08:30: 2.1 [0.8, 1.2]</title>") !=
        NULL);
    CHECK(strstr(s, "<title>run 13, commit " EVIL_TEXT ", 2026-11-27 08:30: 2 [0.8, 1.2] "
                    "(alert)</title>") != NULL);
    CHECK_INT(count(s, "<circle class=\"alert\""), 1);
    CHECK_INT(count(s, "<circle"), 5);
    CHECK_INT(count(s, "class=\"interval\""), 1);
    CHECK_INT(count(s, "<g class=\"change\">"), 1);
    CHECK(strstr(s, ">shift at &lt;script&gt;aler</text>") != NULL); /* 12 bytes */
    CHECK(strstr(s, ">2026-11-25</text>") != NULL); /* dates on the time axis */
    CHECK(strstr(s, "nan") == NULL && strstr(s, "inf") == NULL);
    buf_free(&b);

    /* one point, no band: still a chart */
    buf_reset(&a);
    h.n = 1;
    h.nchanges = 0;
    CHECK_INT(chart_history(&a, &h, &e), 0);
    CHECK_INT(count(buf_str(&a), "<circle"), 1);
    /* the narrow drawing (a phone's): the time labels at either end stay
     * inside it, the last one ends at its right edge (it was cut there) */
    buf_reset(&a);
    h.width = 340;
    CHECK_INT(chart_history(&a, &h, &e), 0);
    CHECK(strstr(buf_str(&a), "x=\"338\" y=\"376\" text-anchor=\"end\">11-24 19:53<") !=
          NULL);
    h.width = 0;
    /* invalid input names the field, leaves out as it was */
    buf_reset(&a);
    h.n = 0;
    CHECK_INT(chart_history(&a, &h, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    CHECK_STR(e.field, "points");
    CHECK_INT(a.len, 0);
    h.n = 5;
    changes[0] = 5;
    err_clear(&e);
    h.nchanges = 1;
    CHECK_INT(chart_history(&a, &h, &e), -1);
    CHECK_STR(e.field, "changes");
    buf_free(&a);
}

/* A series longer than CHART_HIST_MARKS is drawn, not refused, and stays
 * small: the line passes through every run; every 5th of 10,000 runs is a
 * point with its title, and so are the newest, the alert and the change
 * point (each off the stride). 40,000 runs with commits once made the
 * history page larger than a page may be (a 500). */
static void test_chart_history_long(void)
{
    enum { N = 10000 };
    struct chart_hist_point *lp = calloc(N, sizeof *lp);
    size_t changes[1] = {7777};
    struct chart_history h = {
        .title = "runtime", .points = lp, .n = N, .changes = changes, .nchanges = 1};
    struct buf a;
    struct err e = {0};
    const char *s, *line;
    CHECK(lp != NULL);
    if (lp == NULL)
        return;
    for (size_t i = 0; i < N; i++)
        lp[i] = (struct chart_hist_point){.t = 1.79e9 + 60.0 * (double)i,
                                          .y = 1.0 + (double)(i % 7),
                                          .run = (long long)i + 1,
                                          .commit = "0123456789abcdef0123"};
    lp[4321].alert = 1;
    buf_init(&a, 16u << 20);
    CHECK_INT(chart_history(&a, &h, &e), 0);
    s = buf_str(&a);
    CHECK_INT(count(s, "<circle"), N / 5 + 3);
    CHECK_INT(count(s, "<title>run 10000,"), 1);
    CHECK_INT(count(s, "<title>run 4322,"), 1);
    CHECK_INT(count(s, "<title>run 7778,"), 1);
    CHECK_INT(count(s, "<title>run 7779,"), 0);
    line = strstr(s, "<polyline");
    CHECK(line != NULL && strstr(line, "points=\"") != NULL);
    if (line != NULL && (line = strstr(line, "points=\"")) != NULL) {
        const char *end = strchr(line + 8, '"');
        int pairs = 0;
        for (const char *c = line + 8; end != NULL && c < end; c++)
            pairs += *c == ',';
        CHECK_INT(pairs, N); /* the line through every run */
    }
    CHECK(a.len < (1u << 20));
    buf_free(&a);
    free(lp);
}

static void test_chart_compare(void)
{
    static const char *const sides[3] = {"branch:main", "commit:" EVIL, "commit:b2"};
    double r1[2] = {1.1, 0.5}, r2[2] = {0.98, NAN};
    int s1[2] = {1, 0}, s2[2] = {0, 0};
    struct chart_compare_row rows[2] = {{"P=8 · runtime", r1, s1}, {EVIL, r2, s2}};
    struct chart_compare c = {"Ratio", sides, 3, rows, 2, 0};
    struct buf b;
    struct err e = {0};
    const char *s;

    buf_init(&b, 1 << 22);
    CHECK_INT(chart_compare(&b, &c, &e), 0);
    s = buf_str(&b);
    CHECK(strstr(s, "<script") == NULL);
    CHECK_INT(count(s, "class=\"ratio significant\""), 1);
    CHECK_INT(count(s, "class=\"ratio\""), 2); /* NaN: no bar */
    CHECK(strstr(s, ">+10 %</text>") != NULL);
    CHECK(strstr(s, ">-50 %</text>") != NULL);
    CHECK(strstr(s, "P=8 · runtime: commit:b2 vs a: -50 % (not significant)</title>") !=
          NULL);
    CHECK(strstr(s, ">bar 1: commit:&lt;script&gt;alert(1)") != NULL); /* cut to fit */
    c.nsides = 1;
    buf_reset(&b);
    CHECK_INT(chart_compare(&b, &c, &e), -1);
    CHECK_STR(e.field, "sides");
    buf_free(&b);
}

/* Long labels that differ only at their end (one configuration, several
 * measures, as Google Benchmark's aggregates give; or configurations that
 * differ at the end of their name) stay apart: the measure is kept whole and
 * the middle of the configuration is cut, not the end. */
static void test_chart_compare_long_labels(void)
{
    static const char *const sides[2] = {"branch:main", "commit:e5c2b77"};
    double r[3] = {1.25, 1.25, 1.25};
    int sig[3] = {1, 1, 1};
    struct chart_compare_row rows[3] = {
        {"femtolog_info_format_large_string · real_time_mean", r, sig},
        {"femtolog_info_format_large_string · real_time_median", r + 1, sig + 1},
        {"femtolog_info_format_multi_int · real_time_median", r + 2, sig + 2}};
    struct chart_compare c = {"Ratio", sides, 2, rows, 3, 0};
    struct buf b;
    struct err e = {0};
    const char *s;

    buf_init(&b, 1 << 22);
    CHECK_INT(chart_compare(&b, &c, &e), 0);
    s = buf_str(&b);
    CHECK(strstr(s, ">femtolog_in…arge_string · real_time_mean</text>") != NULL);
    CHECK(strstr(s, ">femtolog_i…rge_string · real_time_median</text>") != NULL);
    CHECK(strstr(s, ">femtolog_i…_multi_int · real_time_median</text>") != NULL);
    /* the whole label stays in the bar's title */
    CHECK(strstr(s, "<title>femtolog_info_format_large_string · real_time_median: ") !=
          NULL);
    buf_free(&b);
}

static json_t *alerts_json(void)
{
    return json_pack("[{s:i,s:s,s:i,s:s,s:s,s:s,s:s,s:i,s:{s:i},s:s,s:f,s:f,s:f,s:f,s:s},"
                     "{s:i,s:s,s:{s:i,s:s},s:{s:s,s:s},s:s}]",
                     "id", 7, "state", "open", "run", 13, "commit", EVIL, "application",
                     EVIL, "executable", "a.out", "system", "sys", "nprocs", 8, "inputs",
                     "N", 1000, "y", "runtime", "value", 2.0, "expected", 1.0, "lo", 0.8,
                     "hi", 1.2, "created_at", "2026-11-27 08:30:00", "id", 8, "state",
                     "false_positive", "run", "id", 14, "commit", "c4", "configuration",
                     "application", "app2", "system", "s2", "y", "kernel:solve");
}

static void alerts_fn(struct page *p, const void *d)
{
    view_alerts(p, d);
}

static void test_view_alerts(void)
{
    struct view_alerts v = {alerts_json(), "open", NULL, NULL};
    struct err e = {0};
    char *html = render(alerts_fn, &v, "123.abc");
    check_structure(html);
    CHECK(strstr(html, "<a href=\"/alerts?state=open\" aria-current=\"true\">open</a>") !=
          NULL);
    CHECK(strstr(html, "2 alerts.") != NULL);
    CHECK(strstr(html, "<tr id=\"alert-7\" class=\"alert-open\">") != NULL);
    CHECK(strstr(html,
                 "<a href=\"/history?application=" EVIL_URL
                 "&amp;executable=a.out&amp;system=sys&amp;nprocs=8&amp;input.N=1000"
                 "&amp;y=runtime\">" EVIL_TEXT
                 "/a.out on sys, 8 procs, N=1000</a>") != NULL);
    /* the commit, 28 bytes: its first 12 shown, the whole in the title */
    CHECK(strstr(html, "<code title=\"" EVIL_TEXT "\">&lt;script&gt;aler</code>") !=
          NULL);
    CHECK(strstr(html, "<a href=\"/runs/13\">13</a>") != NULL);
    CHECK(strstr(html, "<a href=\"/runs/14\">14</a>") != NULL);
    /* the band under the API's names "lo" and "hi" */
    CHECK(strstr(html, "<span class=\"metric\">1 s</span> <span class=\"metric\">[800 "
                       "ms,</span> <span class=\"metric\">1.2 s]</span>") != NULL);
    CHECK(strstr(html, "<td>false positive</td>") != NULL);
    CHECK_INT(count(html, "<form class=\"triage\" method=\"post\" action=\"/alerts/"), 2);
    CHECK_INT(count(html, "<input type=\"hidden\" name=\"csrf\" value=\"123.abc\">"), 2);
    CHECK(strstr(html,
                 "<option value=\"false_positive\" selected>false positive</option>") !=
          NULL);
    xfree(html);
    /* without a CSRF token (read-only) no forms; a triage error on top */
    err_set(&e, ERR_UNAUTHORIZED, "unauthorized", "token", "unknown or revoked token");
    v.error = &e;
    html = render(alerts_fn, &v, NULL);
    CHECK(strstr(html, "<form class=\"triage\"") == NULL);
    CHECK(strstr(html, "id=\"triage-error\">unknown or revoked token</div>") != NULL);
    xfree(html);
    json_decref(v.alerts);
    v.alerts = json_array();
    v.state = "resolved";
    v.error = NULL;
    html = render(alerts_fn, &v, NULL);
    CHECK(strstr(html, "No resolved alerts.") != NULL);
    xfree(html);
    json_decref(v.alerts);
}

static void series_fn(struct page *p, const void *d)
{
    view_series(p, d);
}

static void test_view_series(void)
{
    size_t changes[1] = {3};
    json_t *all = alerts_json();
    struct view_series v = {0};
    char *html;
    const char *newest, *oldest;

    v.config = json_pack("{s:s,s:s,s:s,s:i,s:{s:i}}", "application", EVIL, "executable",
                         "a.out", "system", "sys", "nprocs", 8, "inputs", "N", 1000);
    v.y = "runtime";
    v.points = pts;
    v.n = 5;
    v.changes = changes;
    v.nchanges = 1;
    v.model = 7;
    v.alerts = json_array();
    json_array_append(v.alerts, json_array_get(all, 0));
    json_object_set_new(json_array_get(all, 0), "watch", json_integer(3));
    html = render(series_fn, &v, NULL);
    check_structure(html);
    /* one configuration: its alerts say which watch raised them, not the
     * page's own configuration again */
    CHECK(strstr(html, "<th>Watch</th>") != NULL);
    CHECK(strstr(html, "<td><a href=\"#watch-3\">watch 3</a></td>") != NULL);
    CHECK(strstr(html, "<th>Configuration</th>") == NULL);
    CHECK(strstr(html, "<h1>History: " EVIL_TEXT "/a.out on sys, 8 procs, N=1000</h1>") !=
          NULL);
    CHECK(strstr(html, "watched by <a href=\"/models/7\">model 7</a>") != NULL);
    CHECK(strstr(html, "<svg class=\"wide\" ") != NULL);
    CHECK(strstr(html, "<svg class=\"narrow\" ") != NULL);
    /* the culprit range: the commit before the shift .. the shift's own;
     * runtimes in their unit */
    CHECK(strstr(html,
                 "<li>Shifted at commit <code>" EVIL_TEXT
                 "</code>, <a href=\"/runs/13\">run 13</a>, 2026-11-27 08:30; culprit "
                 "range <code class=\"range\">c2.." EVIL_TEXT
                 "</code> (from 900 ms to 2 s)</li>") != NULL);
    CHECK(strstr(html, "<h2 id=\"alerts\">Alerts</h2>") != NULL);
    newest = strstr(html, "<td>2026-11-28 08:30</td>");
    oldest = strstr(html, "<td>2026-11-24 08:30</td>");
    CHECK(newest != NULL && oldest != NULL && newest < oldest);
    CHECK(strstr(html, "<tr class=\"alert\"><td>2026-11-27 08:30</td>") != NULL);
    CHECK(strstr(html, "[800 ms,</span> <span class=\"metric\">1.2 s]</span></td>"
                       "<td>inside</td>") != NULL);
    /* the verdict is the watch's, not the value against the band: the
     * newest run (2.1 s) lies above [0.8, 1.2] but its watch (a change point
     * test, whose band is its window's range) judged it inside */
    {
        const char *row = strstr(html, "<td>2026-11-28 08:30</td>"), *end;
        end = row ? strstr(row, "</tr>") : NULL;
        CHECK(row != NULL && end != NULL);
        if (row != NULL && end != NULL) {
            CHECK(strstr(row, "<td>inside</td>") != NULL &&
                  strstr(row, "<td>inside</td>") < end);
        }
    }
    xfree(html);
    v.n = 0;
    v.nchanges = 0;
    html = render(series_fn, &v, NULL);
    CHECK(strstr(html, "No runs of this configuration yet.") != NULL);
    xfree(html);
    json_decref(v.config);
    json_decref(v.alerts);
    json_decref(all);
}

static void watches_fn(struct page *p, const void *d)
{
    view_series_watches(p, d);
}

/* The application's watches as GET /api/v1/watches answers them, read as
 * text: each its measure and configuration, a model watch its model (a
 * link), the others their detector as "test = zscore, ..." (a scaling
 * watch's settings in parentheses), never the detector's JSON. */
static void test_view_series_watches(void)
{
    struct view_series v = {0};
    char *html;
    v.config = json_pack("{s:s,s:s}", "application", EVIL, "system", "sys");
    v.watches = json_pack(
        "{s:[{s:i,s:s,s:s,s:s,s:n,s:n,s:s,s:{s:i}},"
        "{s:i,s:s,s:s,s:s,s:i,s:{s:i},s:s,s:{s:s,s:f,s:i}},"
        "{s:i,s:s,s:s,s:n,s:n,s:s,s:{s:{s:s,s:f,s:s,s:f}}},"
        "{s:i,s:s,s:s,s:{s:i}}]}",
        "watches", "id", 1, "application", EVIL, "executable", "a.out", "system", "sys",
        "nprocs", "inputs", "y", "runtime", "detector", "model", 7, "id", 2,
        "application", EVIL, "executable", "a.out", "system", "sys", "nprocs", 8,
        "inputs", "N", 1000, "y", "kernel:solve", "detector", "test", "zscore",
        "threshold", 3.0, "window", 20, "id", 3, "application", EVIL, "system", "sys",
        "nprocs", "inputs", "y", "runtime", "detector", "scaling", "x", "nprocs",
        "target", 1024.0, "baseline", "branch:main", "threshold", 0.1, "id", 4,
        "application", "other", "system", "sys", "detector", "model", 9);
    CHECK(v.watches != NULL);
    html = render(watches_fn, &v, NULL);
    check_structure(html);
    if (getenv("DUMP_HTML"))
        fputs(html, stderr);
    CHECK(strstr(html, "<li id=\"watch-1\">Watch 1: runtime of " EVIL_TEXT
                       "/a.out on sys \xe2\x80\x94 outside the prediction interval of "
                       "<a href=\"/models/7\">model 7</a> ") != NULL);
    CHECK(strstr(html,
                 "<li id=\"watch-2\">Watch 2: kernel:solve of " EVIL_TEXT
                 "/a.out on sys, 8 procs, N=1000 \xe2\x80\x94 test&nbsp;=&nbsp;"
                 "zscore, threshold&nbsp;=&nbsp;3, window&nbsp;=&nbsp;20 ") != NULL);
    CHECK(strstr(html,
                 "Watch 3: runtime of " EVIL_TEXT " on sys \xe2\x80\x94 "
                 "scaling&nbsp;=&nbsp;(x&nbsp;=&nbsp;nprocs, target&nbsp;=&nbsp;1024, "
                 "baseline&nbsp;=&nbsp;branch:main, threshold&nbsp;=&nbsp;0.1) ") !=
          NULL);
    CHECK(strstr(html, "watch-4") == NULL); /* another application's */
    CHECK(strstr(html, "{&quot;") == NULL && strstr(html, "&quot;test") == NULL);
    xfree(html);
    /* the form to add one: its five text fields typed, so that the
     * stylesheet's input[type="text"] gives them the forms' boxes */
    html = render(watches_fn, &v, "csrf-token");
    check_structure(html);
    CHECK_INT(count(html, "<input type=\"text\""), 5);
    CHECK(strstr(html, "<input id=") == NULL && strstr(html, "<input name=") == NULL);
    xfree(html);
    json_decref(v.config);
    json_decref(v.watches);
}

static void compare_fn(struct page *p, const void *d)
{
    view_compare(p, d);
}

static void test_view_compare(void)
{
    static const char *const sides[2] = {"branch:main", "commit:" EVIL};
    struct view_compare v = {NULL, sides, 2};
    char *html;

    v.compare =
        json_pack("{s:[{s:{s:s,s:s,s:s,s:i,s:{s:i}},s:n,s:s,s:[{s:f,s:i,s:f},{s:f,s:i,s:"
                  "f,s:f,s:b}]},"
                  "{s:s,s:i,s:s,s:s,s:[{s:f,s:i},{s:f,s:i}],s:[n,b]}]}",
                  "rows", "configuration", "application", "app", "executable", "a.out",
                  "system", "sys", "nprocs", 8, "inputs", "N", 1000, "kernel", "metric",
                  "runtime", "sides", "mean", 2.0, "n", 5, "spread", 0.1, "mean", 2.2,
                  "n", 3, "spread", 0.05, "ratio", 1.1, "significant", 1, "application",
                  "app", "nprocs", 1, "kernel", EVIL, "metric", "runtime", "sides",
                  "mean", 1.0, "n", 4, "mean", 0.98, "n", 4, "significant", 0);
    CHECK(v.compare != NULL);
    html = render(compare_fn, &v, NULL);
    check_structure(html);
    CHECK(strstr(html, "<strong>b</strong> = <code>commit:" EVIL_TEXT "</code>") != NULL);
    CHECK(strstr(
              html,
              "<td class=\"num\">2 s ± 100 ms <span class=\"muted\">(n=5)</span></td>") !=
          NULL); /* runtimes in their units */
    CHECK(
        strstr(html, "<td class=\"num worse\">+10 % <strong>significant</strong></td>") !=
        NULL);
    CHECK(strstr(html, "<td class=\"num\">-2 % <span class=\"muted\">n.s.</span></td>") !=
          NULL);
    CHECK(
        strstr(html,
               "<a href=\"/history?application=app&amp;nprocs=1&amp;y=kernel%3A" EVIL_URL
               "\">app, 1 proc</a>") != NULL); /* and 8 procs above: one is one */
    CHECK(strstr(html, "<td>kernel " EVIL_TEXT "</td>") != NULL);
    CHECK(strstr(html, "class=\"ratio significant\"") != NULL);
    xfree(html);
    json_decref(v.compare);
    /* a side of one run: no test was made, whatever the change ("n.s." said
     * one was) */
    v.compare = json_pack("{s:[{s:s,s:i,s:s,s:[{s:f,s:i},{s:f,s:i}],s:[n,b]}]}", "rows",
                          "application", "app", "nprocs", 2, "metric", "runtime", "sides",
                          "mean", 1.0, "n", 1, "mean", 0.4, "n", 4, "significant", 0);
    html = render(compare_fn, &v, NULL);
    CHECK(strstr(html, "-60 % <span class=\"muted\">not tested</span></td>") != NULL);
    CHECK(strstr(html, "n.s.") == NULL);
    xfree(html);
    json_decref(v.compare);
    v.compare = json_pack("{s:[]}", "rows");
    html = render(compare_fn, &v, NULL);
    CHECK(strstr(html, "id=\"compare-none\"") != NULL);
    xfree(html);
    json_decref(v.compare);
}

/* The answers as the history API documents them (docs/api.md). */
static void test_api_shapes(void)
{
    static const char *const sides[2] = {"branch:main", "commit:a01b2c3"};
    json_t *series = json_loads(
        "{\"application\": \"matmul\", \"executable\": \"matmul_sgi\", \"system\": "
        "\"SGI\","
        " \"nprocs\": 8, \"inputs\": {\"N\": 1000}, \"y\": \"runtime\","
        " \"points\": ["
        "  {\"run\": 17, \"at\": \"2026-11-21T10:00:00Z\", \"commit\": \"9f2c1e0\","
        "   \"value\": 12.5, \"judgements\": []},"
        "  {\"run\": 18, \"at\": \"2026-11-22T10:00:00Z\", \"commit\": \"a01b2c3\","
        "   \"value\": 14.9, \"judgements\": [{\"watch\": 4, \"model\": null, \"lo\": 1,"
        "   \"hi\": 2, \"alert\": null}, {\"watch\": 2, \"model\": 3, \"expected\": 12.4,"
        "   \"lo\": 11.9, \"hi\": 12.9, \"out\": true, \"direction\": \"up\", \"alert\": "
        "5}]}],"
        " \"watches\": [2]}",
        0, NULL);
    struct view_compare v = {NULL, sides, 2};
    struct chart_hist_point *pt;
    struct err e = {0};
    long long model;
    char *html;

    CHECK_INT(view_series_points(A, series, &pt, &model, &e), 2);
    CHECK_INT(model, 3);
    CHECK_INT(pt[0].run, 17);
    CHECK_NEAR(pt[0].t, 1795255200, 0);
    CHECK(!pt[0].alert && !pt[0].has_band && !pt[0].judged && !pt[0].out);
    CHECK_STR(pt[1].commit, "a01b2c3");
    CHECK(pt[1].alert && pt[1].has_band && pt[1].judged && pt[1].out);
    CHECK_NEAR(pt[1].lo, 11.9, 0);
    CHECK_NEAR(pt[1].hi, 12.9, 0);
    json_object_set_new(json_array_get(json_object_get(series, "points"), 0), "at",
                        json_string("yesterday"));
    CHECK_INT(view_series_points(A, series, &pt, &model, &e), -1);
    CHECK_INT(e.status, ERR_BAD_ANSWER);
    json_decref(series);

    v.compare = json_loads(
        "{\"application\": \"matmul\", \"sides\": [\"branch:main\", \"commit:a01b2c3\"],"
        " \"rows\": [{\"executable\": \"matmul_sgi\", \"system\": \"SGI\", \"nprocs\": 8,"
        "  \"inputs\": {\"N\": 1000}, \"y\": \"kernel:multiply\","
        "  \"sides\": [{\"n\": 4, \"mean\": 12.5, \"spread\": 0.2, \"ratio\": null,"
        "              \"significant\": false},"
        "             {\"n\": 3, \"mean\": 14.9, \"spread\": 0.1, \"ratio\": 1.192,"
        "              \"significant\": true}]}]}",
        0, NULL);
    html = render(compare_fn, &v, NULL);
    check_structure(html);
    CHECK(strstr(html,
                 "<a href=\"/history?application=matmul&amp;executable=matmul_sgi&amp;"
                 "system=SGI&amp;nprocs=8&amp;input.N=1000&amp;y=kernel%3Amultiply\">"
                 "matmul/matmul_sgi on SGI, 8 procs, N=1000</a></td><td>kernel "
                 "multiply</td>") != NULL);
    CHECK(strstr(html,
                 "<td class=\"num worse\">+19.2 % <strong>significant</strong></td>") !=
          NULL);
    xfree(html);
    json_decref(v.compare);
}

int main(void)
{
    A = arena_new();
    make_points();
    RUN(test_time);
    RUN(test_chart_history);
    RUN(test_chart_history_one_instant);
    RUN(test_chart_history_long);
    RUN(test_chart_compare_long_labels);
    RUN(test_chart_compare);
    RUN(test_view_alerts);
    RUN(test_view_series);
    RUN(test_view_series_watches);
    RUN(test_view_compare);
    RUN(test_api_shapes);
    arena_free(A);
    return harness_report();
}
