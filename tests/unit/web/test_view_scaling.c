/* test_view_scaling: the "Scaling at …" section (web/view_scaling.c) and a
 * prediction's reach (view_reach) rendered from hand-built answers, without
 * HTTP or a database: the headline, the kernels that scale worse, the table
 * in the answer's order with the bottleneck first, the chart, the warnings,
 * the picker; the variants without kernels, with the selection alone and
 * with an error; hostile names escaped; balanced markup. */
#include "tests/harness.h"
#include "web/page.h"
#include "web/view.h"

#include <stdlib.h>

#define EVIL "<script>alert(1)</script>&"
#define EVIL_TEXT "&lt;script&gt;alert(1)&lt;/script&gt;&amp;"

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

static void balanced(const char *html)
{
    static const char *const tags[] = {
        "table",   "tr", "td",     "th", "div",     "form",   "p",      "ul",  "li",
        "section", "h2", "select", "a",  "details", "figure", "strong", "span"};
    char open[24], open_sp[24], close[24];
    size_t i;
    CHECK(strstr(html, "<script>") == NULL);
    for (i = 0; i < sizeof tags / sizeof tags[0]; i++) {
        snprintf(open, sizeof open, "<%s>", tags[i]);
        snprintf(open_sp, sizeof open_sp, "<%s ", tags[i]);
        snprintf(close, sizeof close, "</%s>", tags[i]);
        if (count(html, open) + count(html, open_sp) != count(html, close)) {
            fprintf(stderr, "unbalanced <%s>\n", tags[i]);
            CHECK(0);
        }
    }
}

/* Renders the section of answer (JSON text, or NULL with error) into a
 * malloc'd string. */
static char *render(const char *answer, const struct err *error, const char *x)
{
    struct page p;
    struct view_app v;
    char *out;
    memset(&v, 0, sizeof v);
    v.name = "app " EVIL;
    v.scaling = answer ? json_loads(answer, 0, NULL) : NULL;
    v.scaling_error = error;
    v.scaling_x = x;
    CHECK(answer == NULL || v.scaling != NULL);
    page_begin(&p, A, "t", NULL);
    view_scaling_at(&p, &v);
    page_finish(&p);
    CHECK(!buf_failed(&p.b));
    out = strdup(buf_str(&p.b));
    page_free(&p);
    json_decref(v.scaling);
    balanced(out);
    return out;
}

static const char *const LAWS =
    "{\"application\": \"a\", \"x\": \"nprocs\", \"target\": 256, \"measured\": 64,"
    " \"selection\": {\"system\": \"s\", \"fixed\": {\"N\": 1000}, \"values\": [2, 4, 8,"
    " 16, 32, 64], \"runs\": 12},"
    " \"runtime\": {\"formula\": \"y = 1\", \"measured\": 11.7, \"y\": 22, \"lo\": 20, "
    "\"hi\":"
    " 25, \"extrapolation\": 2, \"points\": 6},"
    " \"kernels\": [{\"name\": \"exchange\", \"formula\": \"y = 0.05·nprocs\", "
    "\"measured\":"
    " 3.2, \"y\": 12.8, \"lo\": 9, \"hi\": 18, \"extrapolation\": 2, \"points\": 6,"
    " \"share_measured\": 0.272, \"share_target\": 0.577, \"worse_than_whole\": true},"
    " {\"name\": \"" EVIL "\", \"formula\": \"y = 1 + 100/nprocs\", \"measured\": 2.5625,"
    " \"y\": 0.0013, \"lo\": 0.001, \"hi\": 0.002, \"extrapolation\": 2, \"warning\":"
    " \"far " EVIL
    "\", \"points\": 6, \"share_measured\": 0.218, \"share_target\": 0.063,"
    " \"worse_than_whole\": false}],"
    " \"bottleneck\": \"exchange\", \"total\": {\"measured\": 11.7625, \"target\": "
    "22.19},"
    " \"metrics\": [{\"name\": \"flops\", \"formula\": \"y = 1e6·nprocs\", \"measured\": "
    "6.4e7,"
    " \"y\": 2.56e8, \"lo\": 1e8, \"hi\": 3e8, \"extrapolation\": 2, \"points\": 6}],"
    " \"skipped\": [{\"kind\": \"kernel\", \"name\": \"setup\", \"reason\": \"too "
    "few\"}]}";

static void test_section(void)
{
    char *h = render(LAWS, NULL, NULL);
    CHECK(strstr(h, "<h2 id=\"scaling-at\">Scaling at nprocs&nbsp;=&nbsp;256</h2>") !=
          NULL);
    CHECK(strstr(h, "the bottleneck is <strong id=\"bottleneck\">exchange</strong>: "
                    "57.7&nbsp;% of the modelled runtime (27.2&nbsp;% at "
                    "nprocs&nbsp;=&nbsp;64)") != NULL);
    CHECK(strstr(h, "from 11.76&nbsp;s to 22.19&nbsp;s") != NULL); /* common/units.h */
    /* one kernel scales worse: exchange, with its shares */
    CHECK(strstr(h, "Scales worse than the whole application") != NULL);
    CHECK(strstr(h, "<strong>exchange</strong> (27.2&nbsp;% → 57.7&nbsp;%)") != NULL);
    /* the table in the answer's order, the bottleneck first, times in units */
    CHECK(strstr(h, "exchange<span class=\"hint\"><span class=\"badge\">bottleneck") !=
          NULL);
    CHECK(strstr(h, "exchange") < strstr(h, EVIL_TEXT "<span"));
    CHECK(strstr(h, "<strong>1.3&nbsp;ms</strong>") != NULL);
    CHECK(strstr(h, "<code class=\"law\"><span>y</span> <span>=</span> "
                    "<span>0.05·nprocs</span></code>") != NULL);
    CHECK(count(h, "class=\"alert\"") == 1);
    /* the chart, the warnings, the metrics, what was skipped, the picker */
    CHECK(count(h, "<figure class=\"plot\"") == 1);
    CHECK(strstr(h, "Warnings on 1 of the 4 predictions") != NULL);
    CHECK(strstr(h, "far " EVIL_TEXT) != NULL);
    /* a metric in its unit, never with an exponent ("6.4e+07") */
    CHECK(strstr(h, "<td class=\"num\">64000000</td>") != NULL);
    CHECK(strstr(h, "e+0") == NULL);
    CHECK(strstr(h, "Not modelled: setup (too few)") != NULL);
    /* unasked, the default target is a placeholder: another x takes its own */
    CHECK(strstr(h, "name=\"target\" inputmode=\"decimal\" placeholder=\"256\" "
                    "value=\"\"") != NULL);
    CHECK(strstr(h, "action=\"/applications/app%20%3Cscript%3E") != NULL);
    CHECK(strstr(h, "scaling?x=nprocs&amp;target=256&amp;system=s&amp;input.N=1000\"") !=
          NULL);
    CHECK(strstr(h, "The target lies 2 doublings beyond") != NULL);
    free(h);
}

/* page_law: each term in a span of its own (CSS keeps it whole: browsers
 * break after the hyphen of "e-08"), blanks kept between, text escaped */
static void test_law(void)
{
    struct page p;
    page_begin(&p, NULL, "t", NULL);
    size_t from = p.b.len;
    page_law(&p, "y = -0.004 + 1.05e-08·N^2  + a<b>");
    page_law(&p, NULL);
    CHECK(!buf_failed(&p.b));
    CHECK_STR(buf_str(&p.b) + from,
              "<code class=\"law\"><span>y</span> <span>=</span> <span>-0.004</span> "
              "<span>+</span> <span>1.05e-08·N^2</span>  <span>+</span> "
              "<span>a&lt;b&gt;</span></code>");
    page_free(&p);
}

static void test_variants(void)
{
    struct err e = {0};
    char *h;
    /* the selection alone: the picker, no fits */
    h = render(
        "{\"x\": \"nprocs\", \"target\": 256, \"measured\": 64, \"selection\": "
        "{\"system\": \"s\", \"fixed\": {}, \"values\": [2, 4, 64], \"runs\": 5000}}",
        NULL, NULL);
    CHECK(strstr(h, "these 5000 runs") != NULL && strstr(h, "scaling-headline") == NULL);
    CHECK(strstr(h, "name=\"target\"") != NULL);
    free(h);
    /* no kernels: the runtime's law alone */
    h = render(
        "{\"x\": \"N\", \"target\": 4000, \"measured\": 1000, \"selection\": "
        "{\"system\": \"s\", \"fixed\": {\"nprocs\": 8}, \"values\": [1, 2, 1000], "
        "\"runs\": 3}, \"runtime\": {\"formula\": \"y = N\", \"measured\": 1000, "
        "\"y\": 4000, \"lo\": 3000, \"hi\": 5000, \"extrapolation\": 2, \"points\": 3}, "
        "\"kernels\": [], \"bottleneck\": null, \"total\": {\"measured\": 0, "
        "\"target\": 0}, \"metrics\": [], \"skipped\": []}",
        NULL, "N");
    CHECK(strstr(h, "No kernel could be modelled") != NULL);
    CHECK(strstr(h, "<strong>4000&nbsp;s</strong>") != NULL);
    CHECK(strstr(h, "<figure") == NULL);
    CHECK(strstr(h, "&amp;nprocs=8\"") != NULL);
    free(h);
    /* far beyond the data: times as every page writes them (common/units.h),
     * never 130 digits of whole seconds */
    h = render(
        "{\"x\": \"N\", \"target\": 1e300, \"measured\": 1000, \"selection\": "
        "{\"system\": \"s\", \"fixed\": {}, \"values\": [1, 2, 1000], "
        "\"runs\": 3}, \"runtime\": {\"formula\": \"y = N\", \"measured\": 1000, "
        "\"y\": 34.7, \"lo\": 1.79e-129, \"hi\": 6.74e128, \"extrapolation\": 986, "
        "\"points\": 3}, \"kernels\": [], \"bottleneck\": null, \"total\": "
        "{\"measured\": 0, \"target\": 0}, \"metrics\": [], \"skipped\": []}",
        NULL, "N");
    CHECK(strstr(h, "6.74e+128&nbsp;s") != NULL);
    CHECK(strstr(h, "1.79e-120&nbsp;ns") != NULL);
    CHECK(strstr(h, "000000000000000") == NULL);
    free(h);
    /* an error: its message and the picker */
    err_set(&e, ERR_INVALID, "degenerate", "x", "measured at 2 values " EVIL);
    h = render(NULL, &e, "N");
    CHECK(strstr(h, "Scaling at N</h2>") != NULL);
    CHECK(strstr(h, "measured at 2 values " EVIL_TEXT "</p>") != NULL);
    CHECK(strstr(h, "<option value=\"nprocs\">nprocs</option>") != NULL);
    free(h);
    /* neither: no section */
    h = render(NULL, NULL, NULL);
    CHECK(strstr(h, "scaling-at") == NULL);
    free(h);
}

/* A share below 0.05 % keeps two significant digits: a kernel that scales
 * worse from 0.0012 % to 0.31 % is not listed as "0.0 % → 0.3 %"; one below
 * 0.0001 % says only that. */
static void test_tiny_share(void)
{
    char *h = render(
        "{\"x\": \"nprocs\", \"target\": 256, \"measured\": 64,"
        " \"selection\": {\"system\": \"s\", \"fixed\": {}, \"values\": [2, 4, 8],"
        " \"runs\": 3}, \"runtime\": null, \"bottleneck\": \"solve\","
        " \"total\": {\"measured\": 10, \"target\": 20}, \"metrics\": [],"
        " \"skipped\": [], \"kernels\": ["
        "{\"name\": \"solve\", \"formula\": \"y = 10\", \"measured\": 10, \"y\": 20,"
        " \"lo\": 15, \"hi\": 25, \"extrapolation\": 2, \"points\": 3,"
        " \"share_measured\": 0.999988, \"share_target\": 0.99689,"
        " \"worse_than_whole\": false},"
        "{\"name\": \"tree\", \"formula\": \"y = 1e-4\", \"measured\": 0.00012,"
        " \"y\": 0.00062, \"lo\": 0.0005, \"hi\": 0.0008, \"extrapolation\": 2,"
        " \"points\": 3, \"share_measured\": 0.000012, \"share_target\": 0.0031,"
        " \"worse_than_whole\": true}, {\"name\": \"dust\", \"formula\": \"y = 1e-9\","
        " \"measured\": 1e-9, \"y\": 1e-9, \"lo\": 1e-9, \"hi\": 1e-9, "
        "\"extrapolation\": 2,"
        " \"points\": 3, \"share_measured\": 1e-10, \"share_target\": 5e-11,"
        " \"worse_than_whole\": false}]}",
        NULL, NULL);
    CHECK(strstr(h, "<strong>tree</strong> (0.0012&nbsp;% → 0.3&nbsp;%)") != NULL);
    CHECK(strstr(h, "99.7&nbsp;%") != NULL); /* solve: one decimal as before */
    CHECK(strstr(h, "&lt;0.0001&nbsp;%") != NULL && strstr(h, "e-08&nbsp;%") == NULL &&
          strstr(h, "e-09&nbsp;%") == NULL);
    free(h);
}

static void test_reach(void)
{
    struct page p;
    json_t *far = json_loads("{\"y\": 1, \"extrapolation\": 10.6096, \"warning\": \"" EVIL
                             "\"}",
                             0, NULL),
           *near = json_loads("{\"y\": 1, \"extrapolation\": 0}", 0, NULL);
    page_begin(&p, A, "t", NULL);
    view_reach(&p, far, "prediction");
    CHECK(strstr(buf_str(&p.b), "<p class=\"reach\" id=\"prediction-extrapolation\">"
                                "Extrapolated 10.6 doublings outside the measured "
                                "range.</p>") != NULL);
    CHECK(strstr(buf_str(&p.b), "id=\"prediction-warning\">Warning: " EVIL_TEXT "</p>") !=
          NULL);
    buf_reset(&p.b);
    view_reach(&p, near, NULL);
    CHECK(buf_str(&p.b)[0] == '\0');
    page_free(&p);
    json_decref(far);
    json_decref(near);
}

int main(void)
{
    A = arena_new();
    RUN(test_section);
    RUN(test_law);
    RUN(test_variants);
    RUN(test_tiny_share);
    RUN(test_reach);
    arena_free(A);
    return harness_report();
}
