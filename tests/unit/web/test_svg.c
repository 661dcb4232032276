/* test_svg: the SVG plot renderer (web/svg.h).
 *
 * Every plot kind is checked with a small XML well-formedness checker written
 * here (balanced, properly nested tags, quoted attributes, only known
 * entities, valid UTF-8, exactly one root <svg>), for escaping of hostile
 * text, determinism, nice ticks, log ticks, the dashed extrapolation, the
 * prediction marker, absence of nan/inf, the 3-D size and time budget, the
 * input limits and allocation failures. With SVG_EXAMPLES_DIR set, one
 * example of each kind is written there for looking at.
 */
#include "tests/harness.h"
#include "web/svg.h"
#include "web/svg_priv.h"
#include "common/xalloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <strings.h>
#include <time.h>

/* ---- a small XML well-formedness checker ------------------------------------- */

static const char *xml_why;

static int xml_fail(const char *why)
{
    xml_why = why;
    return 0;
}

static int is_name_char(char c)
{
    return isalnum((unsigned char)c) || c == '-' || c == '_' || c == ':' || c == '.';
}

/* An entity at s ("&..."); returns its length or 0. */
static size_t entity_len(const char *s)
{
    static const char *const named[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
    size_t i;

    for (i = 0; i < sizeof named / sizeof named[0]; i++)
        if (strncmp(s, named[i], strlen(named[i])) == 0)
            return strlen(named[i]);
    if (s[1] == '#') {
        i = 2;
        if (s[2] == 'x') {
            i = 3;
            while (isxdigit((unsigned char)s[i]))
                i++;
        } else {
            while (isdigit((unsigned char)s[i]))
                i++;
        }
        if (i > 2 && s[i] == ';' && isxdigit((unsigned char)s[i - 1]))
            return i + 1;
    }
    return 0;
}

static int utf8_ok(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n, i;
        if (*p < 0x80) {
            if (*p < 0x20 && *p != '\n' && *p != '\t' && *p != '\r')
                return 0;
            p++;
            continue;
        }
        if (*p >= 0xc2 && *p <= 0xdf)
            n = 1;
        else if (*p >= 0xe0 && *p <= 0xef)
            n = 2;
        else if (*p >= 0xf0 && *p <= 0xf4)
            n = 3;
        else
            return 0;
        for (i = 1; i <= n; i++)
            if ((p[i] & 0xc0) != 0x80)
                return 0;
        p += n + 1;
    }
    return 1;
}

/* Returns 1 when doc is a well-formed XML document whose one root is <svg>. */
static int xml_well_formed(const char *doc)
{
    const char *stack[64];
    size_t stack_len[64];
    int depth = 0, roots = 0;
    const char *s = doc;

    xml_why = "";
    if (!utf8_ok(doc))
        return xml_fail("invalid UTF-8 or control character");
    if (strncmp(s, "<?xml ", 6) == 0) {
        s = strstr(s, "?>");
        if (s == NULL)
            return xml_fail("unterminated declaration");
        s += 2;
    }
    while (*s) {
        if (*s == '<') {
            if (strncmp(s, "<!--", 4) == 0) {
                s = strstr(s, "-->");
                if (s == NULL)
                    return xml_fail("unterminated comment");
                s += 3;
            } else if (s[1] == '/') {
                const char *name = s + 2;
                size_t n = 0;
                while (is_name_char(name[n]))
                    n++;
                if (depth == 0 || n != stack_len[depth - 1] ||
                    strncmp(name, stack[depth - 1], n) != 0)
                    return xml_fail("mismatched closing tag");
                depth--;
                s = name + n;
                while (isspace((unsigned char)*s))
                    s++;
                if (*s != '>')
                    return xml_fail("bad closing tag");
                s++;
            } else {
                const char *name = s + 1;
                size_t n = 0;
                while (is_name_char(name[n]))
                    n++;
                if (n == 0 || !isalpha((unsigned char)name[0]))
                    return xml_fail("bad tag name");
                if (depth == 0) {
                    if (roots++ > 0)
                        return xml_fail("more than one root element");
                    if (n != 3 || strncmp(name, "svg", 3) != 0)
                        return xml_fail("root is not <svg>");
                }
                s = name + n;
                for (;;) {
                    const char *an;
                    size_t alen = 0;
                    char q;
                    int had_space = 0;
                    while (isspace((unsigned char)*s)) {
                        s++;
                        had_space = 1;
                    }
                    if (*s == '>' || (s[0] == '/' && s[1] == '>'))
                        break;
                    if (!had_space)
                        return xml_fail("attributes not separated");
                    an = s;
                    while (is_name_char(an[alen]))
                        alen++;
                    if (alen == 0 || an[alen] != '=')
                        return xml_fail("bad attribute");
                    q = an[alen + 1];
                    if (q != '"' && q != '\'')
                        return xml_fail("unquoted attribute");
                    s = an + alen + 2;
                    while (*s && *s != q) {
                        if (*s == '<')
                            return xml_fail("'<' in attribute");
                        if (*s == '&') {
                            size_t e = entity_len(s);
                            if (e == 0)
                                return xml_fail("raw '&' in attribute");
                            s += e;
                        } else {
                            s++;
                        }
                    }
                    if (*s != q)
                        return xml_fail("unterminated attribute");
                    s++;
                }
                if (*s == '/') {
                    s += 2; /* empty element */
                } else {
                    if (depth == 64)
                        return xml_fail("nesting too deep");
                    stack[depth] = name;
                    stack_len[depth++] = n;
                    s++;
                }
            }
        } else if (*s == '&') {
            size_t e = entity_len(s);
            if (e == 0)
                return xml_fail("raw '&' in text");
            if (depth == 0)
                return xml_fail("entity outside the root");
            s += e;
        } else {
            if (depth == 0 && !isspace((unsigned char)*s))
                return xml_fail("text outside the root");
            if (*s == '>' && depth == 0)
                return xml_fail("stray '>'");
            s++;
        }
    }
    if (depth != 0)
        return xml_fail("unclosed element");
    if (roots != 1)
        return xml_fail("no root element");
    return 1;
}

static int no_nan_inf(const char *doc)
{
    const char *s;
    for (s = doc; *s; s++) {
        if (strncasecmp(s, "nan", 3) == 0 || strncasecmp(s, "inf", 3) == 0)
            return 0;
    }
    return 1;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    const char *s = hay;
    while ((s = strstr(s, needle)) != NULL) {
        n++;
        s += strlen(needle);
    }
    return n;
}

static void save_example(const char *name, const struct buf *b)
{
    const char *dir = getenv("SVG_EXAMPLES_DIR");
    char path[512];
    FILE *f;

    if (dir == NULL || *dir == '\0')
        return;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    if (f == NULL)
        return;
    fputs(buf_str(b), f);
    fclose(f);
}

#define CHECK_WF(doc)                                                                    \
    do {                                                                                 \
        int wf_ = xml_well_formed(doc);                                                  \
        if (!wf_)                                                                        \
            fprintf(stderr, "not well-formed: %s\n", xml_why);                           \
        CHECK(wf_);                                                                      \
    } while (0)

/* ---- fixtures ------------------------------------------------------------------- */

#define HOSTILE "<script>alert(1)</script> & \"x\""
#define HOSTILE_ESCAPED "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;"

static struct svg_point fit_points[6];
static double curve_x[400], curve_y[400];
static struct svg_series fit_series;
static struct svg_curve fit_curve;
static struct svg_prediction fit_prediction;

/* A cubic scaling study: 6 measured sizes with error bars, a 400-sample fit
 * to N = 600 extrapolated to the prediction at N = 1200. */
static struct svg_plot2d cubic_plot(void)
{
    struct svg_plot2d p;
    int i;

    for (i = 0; i < 6; i++) {
        double x = 100.0 * (i + 1), y = 1e-8 * x * x * x + 0.05;
        fit_points[i].x = x;
        fit_points[i].y = y;
        fit_points[i].has_err = 1;
        fit_points[i].ymin = y * 0.95;
        fit_points[i].ymax = y * 1.06;
    }
    for (i = 0; i < 400; i++) {
        curve_x[i] = 100 + 1100.0 * i / 399;
        curve_y[i] = 1e-8 * curve_x[i] * curve_x[i] * curve_x[i] + 0.05;
    }
    memset(&fit_series, 0, sizeof fit_series);
    fit_series.label = "measured (mean of 5 runs)";
    fit_series.points = fit_points;
    fit_series.n = 6;
    memset(&fit_curve, 0, sizeof fit_curve);
    fit_curve.label = "cubic fit";
    fit_curve.x = curve_x;
    fit_curve.y = curve_y;
    fit_curve.n = 400;
    fit_curve.has_fit_max = 1;
    fit_curve.x_fit_max = 600;
    memset(&fit_prediction, 0, sizeof fit_prediction);
    fit_prediction.x = 1200;
    fit_prediction.y = 16.5;
    fit_prediction.has_interval = 1;
    fit_prediction.lo = 15.9;
    fit_prediction.hi = 17.1;

    memset(&p, 0, sizeof p);
    p.title = "matmul on SGI Origin2000";
    p.xlabel = "N";
    p.ylabel = "runtime [s]";
    p.series = &fit_series;
    p.nseries = 1;
    p.curves = &fit_curve;
    p.ncurves = 1;
    p.prediction = &fit_prediction;
    p.formula = "y = 0.05 + 1e-08*x^3   (R^2 = 0.999)";
    return p;
}

static double grid_x[SVG_MAX_GRID], grid_y[SVG_MAX_GRID];
static double grid_z[SVG_MAX_GRID * SVG_MAX_GRID];

/* The paper's IBM SP2 model over N and P on an n x n grid. */
static struct svg_plot3d surface_plot(size_t n)
{
    struct svg_plot3d p;
    size_t i, j;

    for (i = 0; i < n; i++) {
        grid_x[i] = 100 + 900.0 * i / (n - 1);
        grid_y[i] = 2 + 62.0 * i / (n - 1);
    }
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++) {
            double N = grid_x[i], P = grid_y[j], comm = 0.001 * (15.94 + 0.0608 * 1024);
            grid_z[j * n + i] = 4.83e-8 * N * N * N / (P - 1) + 2 * N * comm / (P - 1) +
                                N * log2(P) * comm;
        }
    memset(&p, 0, sizeof p);
    p.title = "IBM SP2 model";
    p.xlabel = "N";
    p.ylabel = "P";
    p.zlabel = "runtime [s]";
    p.x = grid_x;
    p.nx = n;
    p.y = grid_y;
    p.ny = n;
    p.z = grid_z;
    return p;
}

static const char *const bar_categories[] = {"P=4", "P=8", "P=16", "P=32 <big>"};
static const char *const bar_components[] = {"init", "solve & exchange", "io"};
static const double bar_values[] = {2.0, 10.0, 0.5, 1.1, 5.2, 0.5,
                                    0.8, 2.9,  0.6, 0.7, 1.8, NAN};

static struct svg_stacked bars_plot(void)
{
    struct svg_stacked p;
    memset(&p, 0, sizeof p);
    p.title = "kernel breakdown";
    p.xlabel = "configuration";
    p.ylabel = "time [s]";
    p.categories = bar_categories;
    p.ncategories = 4;
    p.components = bar_components;
    p.ncomponents = 3;
    p.values = bar_values;
    return p;
}

static double heat_values[SVG_MAX_HEAT * SVG_MAX_HEAT];

static struct svg_heatmap heat_plot(size_t n)
{
    struct svg_heatmap p;
    size_t r, c;
    for (r = 0; r < n; r++)
        for (c = 0; c < n; c++)
            heat_values[r * n + c] =
                r == c ? NAN : 1.0 / (1 + (double)(r > c ? r - c : c - r));
    memset(&p, 0, sizeof p);
    p.title = "message traffic";
    p.xlabel = "receiver rank";
    p.ylabel = "sender rank";
    p.zlabel = "MB";
    p.nrows = n;
    p.ncols = n;
    p.values = heat_values;
    return p;
}

/* ---- ticks ---------------------------------------------------------------------- */

static void test_nice_ticks(void)
{
    double t[SVG_MAX_TICKS], step = 0;
    int n = -1;

    CHECK_INT(svg_nice_ticks(0, 0.93, 8, t, &n, &step), 0);
    CHECK_INT(n, 6);
    CHECK(step == 0.2);
    CHECK(t[0] == 0 && t[1] == 0.2 && t[2] == 0.4 && t[3] == 0.6 && t[4] == 0.8 &&
          t[5] == 1);

    CHECK_INT(svg_nice_ticks(0, 100, 8, t, &n, &step), 0);
    CHECK_INT(n, 6);
    CHECK(step == 20 && t[0] == 0 && t[5] == 100);

    CHECK_INT(svg_nice_ticks(0.1, 0.7, 8, t, &n, &step), 0);
    CHECK_INT(n, 7);
    CHECK(step == 0.1 && t[0] == 0.1 && t[2] == 0.3 && t[6] == 0.7);

    CHECK_INT(svg_nice_ticks(-3.7, 12.2, 6, t, &n, &step), 0);
    CHECK_INT(n, 5);
    CHECK(step == 5 && t[0] == -5 && t[1] == 0 && t[4] == 15);

    CHECK_INT(svg_nice_ticks(1e6, 2.5e6, 8, t, &n, &step), 0);
    CHECK_INT(n, 4);
    CHECK(step == 5e5 && t[0] == 1e6 && t[3] == 2.5e6);

    /* Reversed and equal ends. */
    CHECK_INT(svg_nice_ticks(0.93, 0, 8, t, &n, &step), 0);
    CHECK_INT(n, 6);
    CHECK_INT(svg_nice_ticks(5, 5, 8, t, &n, &step), 0);
    CHECK(n >= 2 && t[0] <= 5 && t[n - 1] >= 5 && step > 0);
    CHECK_INT(svg_nice_ticks(0, 0, 8, t, &n, &step), 0);
    CHECK(n >= 2 && t[0] <= 0 && t[n - 1] >= 0);

    /* Tiny and huge ranges stay within max_ticks and exact. */
    CHECK_INT(svg_nice_ticks(0.00012, 0.00049, 5, t, &n, &step), 0);
    CHECK(n <= 5 && step == 0.0001 && t[0] == 0.0001 && t[n - 1] == 0.0005);
    CHECK_INT(svg_nice_ticks(-1e300, 1e300, 8, t, &n, &step), 0);
    CHECK(n >= 2 && n <= 8);

    CHECK_INT(svg_nice_ticks(NAN, 1, 8, t, &n, &step), -1);
    CHECK_INT(n, 0);
    CHECK_INT(svg_nice_ticks(0, INFINITY, 8, t, &n, &step), -1);
    CHECK_INT(svg_nice_ticks(-1.7e308, 1.7e308, 8, t, &n, &step), -1);
}

static void test_fmt_tick(void)
{
    char s[48];
    CHECK_STR(svg_fmt_tick(s, sizeof s, 0.001, 0.001), "0.001");
    CHECK_STR(svg_fmt_tick(s, sizeof s, 0.4, 0.2), "0.4");
    CHECK_STR(svg_fmt_tick(s, sizeof s, -0.6, 0.2), "-0.6");
    CHECK_STR(svg_fmt_tick(s, sizeof s, 1200, 200), "1200");
    CHECK_STR(svg_fmt_tick(s, sizeof s, 2.5e6, 5e5), "2.5e+06");
    CHECK_STR(svg_fmt_tick(s, sizeof s, 1e6, 1e6), "1e+06");
    CHECK_STR(svg_fmt_tick(s, sizeof s, 1e-5, 1e-5), "1e-05");
    CHECK_STR(svg_fmt_tick(s, sizeof s, 0, 0.2), "0");
    CHECK_STR(svg_fmt_tick(s, sizeof s, 1e-17, 0.2), "0");
    CHECK_STR(svg_fmt_tick(s, sizeof s, 2.5, 0.5), "2.5");
    CHECK_STR(svg_fmt_tick(s, sizeof s, NAN, 1), "0");
    CHECK_STR(svg_fmt_tick(s, sizeof s, 100, 0), "100");
}

static void test_text_escaping(void)
{
    struct buf b;
    buf_init(&b, 1024);
    svg_text(&b, "a<b>&\"c'\x01\xff\xc3\xa9");
    CHECK_STR(buf_str(&b), "a&lt;b&gt;&amp;&quot;c&#39;\xef\xbf\xbd\xc3\xa9");
    buf_reset(&b);
    svg_text(&b, "\xed\xa0\x80"); /* a UTF-16 surrogate: not valid UTF-8 */
    CHECK_STR(buf_str(&b), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
    buf_reset(&b);
    svg_text(&b, NULL);
    CHECK_STR(buf_str(&b), "");
    buf_free(&b);
}

/* ---- 2-D -------------------------------------------------------------------------- */

static void test_plot2d_basic(void)
{
    struct svg_plot2d p = cubic_plot();
    struct buf a, b;
    struct err e = {0};

    buf_init(&a, 1 << 22);
    buf_init(&b, 1 << 22);
    CHECK_INT(svg_plot2d(&a, &p, &e), 0);
    CHECK_INT(svg_plot2d(&b, &p, &e), 0);
    CHECK_WF(buf_str(&a));
    CHECK(strcmp(buf_str(&a), buf_str(&b)) == 0); /* deterministic */
    CHECK(strstr(buf_str(&a), "xmlns=\"http://www.w3.org/2000/svg\"") != NULL);
    CHECK(strstr(buf_str(&a), "viewBox=\"0 0 760 480\"") != NULL);
    CHECK(strstr(buf_str(&a), "<title>matmul on SGI Origin2000</title>") != NULL);
    CHECK(strstr(buf_str(&a), "<desc>") != NULL);
    /* Extrapolated part dashed, fitted part solid, both present. */
    CHECK(strstr(buf_str(&a), "stroke-dasharray=\"6 4\"") != NULL);
    CHECK_INT(count(buf_str(&a), "stroke=\"#ff7f0e\" stroke-width=\"2\""), 2);
    /* Prediction with interval and its default label. */
    CHECK(strstr(buf_str(&a), "class=\"interval\"") != NULL);
    CHECK(strstr(buf_str(&a), "prediction at x=1200: 16.5 [15.9, 17.1]") != NULL);
    CHECK(strstr(buf_str(&a), "y = 0.05 + 1e-08*x^3") != NULL);
    CHECK(strstr(buf_str(&a), ">measured (mean of 5 runs)</text>") != NULL);
    /* Nice y ticks 0, 5, 10, 15 (the interval reaches 17.1). */
    CHECK(strstr(buf_str(&a), ">0</text>") != NULL);
    CHECK(strstr(buf_str(&a), ">15</text>") != NULL);
    CHECK(strstr(buf_str(&a), ">2.5</text>") == NULL);
    CHECK(strstr(buf_str(&a), ">1200</text>") != NULL);
    CHECK(no_nan_inf(buf_str(&a)));
    /* The curve is one compact path: no coordinate has more than 2 decimals. */
    CHECK(strstr(buf_str(&a), ".000") == NULL);
    save_example("plot2d.svg", &a);

    /* Without x_fit_max nothing is dashed (the prediction guide is "1 3"). */
    fit_curve.has_fit_max = 0;
    buf_reset(&a);
    CHECK_INT(svg_plot2d(&a, &p, &e), 0);
    CHECK(strstr(buf_str(&a), "stroke-dasharray=\"6 4\"") == NULL);
    /* x_fit_max beyond every sample: nothing dashed either. */
    fit_curve.has_fit_max = 1;
    fit_curve.x_fit_max = 5000;
    buf_reset(&a);
    CHECK_INT(svg_plot2d(&a, &p, &e), 0);
    CHECK(strstr(buf_str(&a), "stroke-dasharray=\"6 4\"") == NULL);
    CHECK_INT(e.status, 0);
    buf_free(&a);
    buf_free(&b);
}

static void test_plot2d_escaping(void)
{
    struct svg_plot2d p = cubic_plot();
    struct svg_series s[2];
    struct buf b;
    struct err e = {0};
    const char *doc;

    p.title = HOSTILE;
    p.xlabel = HOSTILE;
    p.ylabel = HOSTILE;
    p.formula = HOSTILE " \x02\xc0\xaf";
    s[0] = fit_series;
    s[0].label = HOSTILE;
    s[1] = fit_series;
    s[1].label = "bad utf-8 \xff\xfe";
    p.series = s;
    p.nseries = 2;
    fit_prediction.label = HOSTILE;
    buf_init(&b, 1 << 22);
    CHECK_INT(svg_plot2d(&b, &p, &e), 0);
    doc = buf_str(&b);
    CHECK_WF(doc);
    CHECK(strstr(doc, "<script") == NULL);
    CHECK(strstr(doc, "\"x\"") == NULL);
    CHECK(strstr(doc, "<title>" HOSTILE_ESCAPED "</title>") != NULL);
    CHECK(count(doc, HOSTILE_ESCAPED) >= 5);
    fit_prediction.label = NULL;
    buf_free(&b);
}

static void test_plot2d_log(void)
{
    struct svg_point pts[4] = {
        {1, 0.5, 0, 0, 0}, {10, 5, 0, 0, 0}, {100, 50, 0, 0, 0}, {1000, 500, 1, -3, 600}};
    struct svg_series s = {"runs", pts, 4, 0};
    struct svg_plot2d p;
    struct buf b;
    struct err e = {0};
    const char *doc;

    memset(&p, 0, sizeof p);
    p.title = "log-log";
    p.xscale = SVG_LOG10;
    p.yscale = SVG_LOG10;
    p.series = &s;
    p.nseries = 1;
    buf_init(&b, 1 << 20);
    CHECK_INT(svg_plot2d(&b, &p, &e), 0);
    doc = buf_str(&b);
    CHECK_WF(doc);
    /* Majors at powers of ten on both axes. */
    CHECK(strstr(doc, ">1</text>") != NULL);
    CHECK(strstr(doc, ">10</text>") != NULL);
    CHECK(strstr(doc, ">100</text>") != NULL);
    CHECK(strstr(doc, ">1000</text>") != NULL);
    CHECK(strstr(doc, ">20</text>") == NULL); /* minors unlabelled over 3+ decades */
    CHECK(strstr(doc, "stroke=\"#f1f1f1\"") != NULL); /* minor grid 2..9 */
    CHECK(no_nan_inf(doc));
    save_example("plot2d-log.svg", &b);

    /* Non-positive values are skipped on a log axis ... */
    pts[1].y = -5;
    pts[2].x = 0;
    buf_reset(&b);
    CHECK_INT(svg_plot2d(&b, &p, &e), 0);
    CHECK_WF(buf_str(&b));
    CHECK(strstr(buf_str(&b), "were skipped") != NULL);
    CHECK(no_nan_inf(buf_str(&b)));
    CHECK_INT(count(buf_str(&b), "<circle"), 2 + 1); /* + the legend's */

    /* ... and a log axis with nothing positive falls back to linear. */
    pts[0].y = pts[1].y = pts[2].y = pts[3].y = -1;
    buf_reset(&b);
    CHECK_INT(svg_plot2d(&b, &p, &e), 0);
    CHECK_WF(buf_str(&b));
    CHECK(strstr(buf_str(&b), "y axis linear (log10 requested, no positive values)") !=
          NULL);
    CHECK(no_nan_inf(buf_str(&b)));
    buf_free(&b);
}

/* A log axis of bytes ticks at powers of two in KiB and MiB (message sizes
 * are measured so), about as many as its width takes; within one power of
 * two it keeps the decimal ticks. */
static void test_plot2d_bytes(void)
{
    struct svg_point pts[3] = {
        {1, 1e-6, 0, 0, 0}, {1024, 2e-6, 0, 0, 0}, {4194304, 1e-3, 0, 0, 0}};
    struct svg_series s = {"latency", pts, 3, 0};
    struct svg_plot2d p;
    struct buf b;
    struct err e = {0};
    const char *doc;

    memset(&p, 0, sizeof p);
    p.xscale = p.yscale = SVG_LOG10;
    p.xunit = "B";
    p.yunit = "s";
    p.series = &s;
    p.nseries = 1;
    buf_init(&b, 1 << 20);
    CHECK_INT(svg_plot2d(&b, &p, &e), 0); /* 760 px: 8 ticks, every 4th power */
    doc = buf_str(&b);
    CHECK_WF(doc);
    for (const char *const *t =
             (const char *const[]){">1 B<", ">16 B<", ">256 B<", ">4 KiB<", ">64 KiB<",
                                   ">1 MiB<", NULL};
         *t; t++)
        CHECK(strstr(doc, *t) != NULL);
    CHECK(strstr(doc, ">1 kB<") == NULL && strstr(doc, ">2 B<") == NULL);
    p.width = 390; /* 5 ticks: every 5th power */
    buf_reset(&b);
    CHECK_INT(svg_plot2d(&b, &p, &e), 0);
    doc = buf_str(&b);
    CHECK(strstr(doc, ">32 B<") != NULL && strstr(doc, ">1 KiB<") != NULL &&
          strstr(doc, ">32 KiB<") != NULL && strstr(doc, ">1 MiB<") != NULL);
    CHECK(strstr(doc, ">16 B<") == NULL);
    /* 200..250 B: no power of two inside, the decimal ticks */
    pts[0].x = 200, pts[1].x = 220, pts[2].x = 250;
    buf_reset(&b);
    CHECK_INT(svg_plot2d(&b, &p, &e), 0);
    doc = buf_str(&b);
    CHECK(strstr(doc, ">256 B<") == NULL && strstr(doc, " B</text>") != NULL);
    buf_free(&b);
}

static void test_plot2d_non_finite(void)
{
    struct svg_point pts[4] = {{NAN, 1, 0, 0, 0},
                               {1, INFINITY, 0, 0, 0},
                               {2, 3, 1, NAN, 4},
                               {3, 4, 1, 3.5, -INFINITY}};
    double cx[5] = {0, 1, NAN, 3, 4}, cy[5] = {1, NAN, 2, 3, INFINITY};
    struct svg_series s = {"s", pts, 4, 0};
    struct svg_curve c = {"c", cx, cy, 5, 1, NAN, 0};
    struct svg_prediction pr = {NAN, 1, 1, NAN, INFINITY, NULL};
    struct svg_plot2d p;
    struct buf b;
    struct err e = {0};
    int xs, ys;

    memset(&p, 0, sizeof p);
    p.series = &s;
    p.nseries = 1;
    p.curves = &c;
    p.ncurves = 1;
    p.prediction = &pr;
    buf_init(&b, 1 << 20);
    for (xs = 0; xs < 2; xs++)
        for (ys = 0; ys < 2; ys++) {
            p.xscale = xs ? SVG_LOG10 : SVG_LINEAR;
            p.yscale = ys ? SVG_LOG10 : SVG_LINEAR;
            buf_reset(&b);
            CHECK_INT(svg_plot2d(&b, &p, &e), 0);
            CHECK_WF(buf_str(&b));
            CHECK(no_nan_inf(buf_str(&b)));
        }
    /* Nothing at all: an empty frame, still valid. */
    memset(&p, 0, sizeof p);
    buf_reset(&b);
    CHECK_INT(svg_plot2d(&b, &p, &e), 0);
    CHECK_WF(buf_str(&b));
    CHECK(strstr(buf_str(&b), "<title></title>") != NULL);
    /* All values equal. */
    pts[0].x = pts[1].x = pts[2].x = pts[3].x = 7;
    pts[0].y = pts[1].y = pts[2].y = pts[3].y = 7;
    p.series = &s;
    p.nseries = 1;
    buf_reset(&b);
    CHECK_INT(svg_plot2d(&b, &p, &e), 0);
    CHECK_WF(buf_str(&b));
    CHECK(no_nan_inf(buf_str(&b)));
    CHECK_INT(e.status, 0);
    buf_free(&b);
}

static void test_plot2d_many_series(void)
{
    static struct svg_point pts[100][10];
    static struct svg_series s[100];
    static char labels[100][32];
    struct svg_plot2d p;
    struct buf b;
    struct err e = {0};
    int i, j;

    for (i = 0; i < 100; i++) {
        for (j = 0; j < 10; j++) {
            pts[i][j].x = j;
            pts[i][j].y = i + j * 0.1;
        }
        snprintf(labels[i], sizeof labels[i], "series %d", i);
        s[i].label = labels[i];
        s[i].points = pts[i];
        s[i].n = 10;
    }
    memset(&p, 0, sizeof p);
    p.series = s;
    p.nseries = 100;
    p.formula =
        "a very long formula that has to wrap: y = 1 + 2*x + 3*x^2 + 4*x^3 + 5*x^4 "
        "+ 6*x^5 + 7*x^6 + 8/x + 9/x^2 + 10/x^3 + 11/x^4 + 12/x^5 + 13/x^6 + "
        "repeated: y = 1 + 2*x + 3*x^2 + 4*x^3 + 5*x^4 + 6*x^5 + 7*x^6 + 8/x + "
        "9/x^2 + 10/x^3 + 11/x^4 + 12/x^5 + 13/x^6 and once more y = 1 + 2*x + "
        "3*x^2 + 4*x^3 + 5*x^4 + 6*x^5 + 7*x^6 + 8/x + 9/x^2 + 10/x^3 + 11/x^4 "
        "and again y = 1 + 2*x + 3*x^2 + 4*x^3 + 5*x^4 + 6*x^5 + 7*x^6 + 8/x";
    buf_init(&b, 1 << 22);
    CHECK_INT(svg_plot2d(&b, &p, &e), 0);
    CHECK_WF(buf_str(&b));
    CHECK(strstr(buf_str(&b), "more</text>") != NULL); /* legend "… and N more" */
    CHECK_INT(count(buf_str(&b), "class=\"formula\""), 1);
    CHECK(count(buf_str(&b), "<text x=\"12\"") >= 3); /* wrapped */
    buf_free(&b);
}

/* legend_below: the legend under the plot, not over its data (an OSU log of
 * six placements, each curve's label what the user measured): the drawing
 * grows by its rows, the entries in as many columns as fit, every one
 * shown and none cut. */
static void test_plot2d_legend_below(void)
{
    static struct svg_point pts[10][4];
    static struct svg_series s[10];
    static char labels[10][64];
    struct svg_plot2d p;
    struct buf b;
    struct err e = {0};
    const char *legend;
    int i, j;

    for (i = 0; i < 10; i++) {
        for (j = 0; j < 4; j++) {
            pts[i][j].x = 1 << j;
            pts[i][j].y = 1e-6 * (i + 1) * (j + 1);
        }
        snprintf(labels[i], sizeof labels[i], "osu_latency \xc2\xb7 Testing placement %d",
                 i);
        s[i].label = labels[i];
        s[i].points = pts[i];
        s[i].n = 4;
    }
    memset(&p, 0, sizeof p);
    p.series = s;
    p.nseries = 10;
    p.legend_below = 1;
    buf_init(&b, 1 << 22);
    CHECK_INT(svg_plot2d(&b, &p, &e), 0);
    CHECK_WF(buf_str(&b));
    /* 760 wide: two columns of five rows (18 px each, 8 around) under 480 */
    CHECK(strstr(buf_str(&b), "viewBox=\"0 0 760 578\"") != NULL);
    legend = strstr(buf_str(&b), "<g class=\"legend\"");
    CHECK(legend != NULL);
    CHECK(legend != NULL && strstr(legend, "<rect") == NULL); /* no box over the plot */
    CHECK_INT(count(buf_str(&b), "Testing placement"), 10);
    CHECK(strstr(buf_str(&b), "more</text>") == NULL &&
          strstr(buf_str(&b), "\xe2\x80\xa6") == NULL);
    /* the first entry of the second column starts halfway across, level
     * with the first */
    {
        const char *at = legend ? strstr(legend, "Testing placement 5<") : NULL, *x;
        for (x = at; x != NULL && x > legend && strncmp(x, "<text x=\"", 9) != 0; x--)
            ;
        CHECK(x != NULL && x > legend && strtod(x + 9, NULL) > 300);
        CHECK(x != NULL && strstr(x, "y=\"496\"") != NULL && strstr(x, "y=\"496\"") < at);
    }
    buf_free(&b);
}

/* ---- 3-D -------------------------------------------------------------------------- */

static void test_plot3d(void)
{
    struct svg_plot3d p = surface_plot(200);
    struct svg_point3 pts[2] = {{500, 8, 20}, {NAN, 1, 1}};
    struct buf a, b;
    struct err e = {0};
    int i;

    /* Render time is measured in bench/param, not asserted here. */
    p.points = pts;
    p.npoints = 2;
    buf_init(&a, 1 << 24);
    buf_init(&b, 1 << 24);
    CHECK_INT(svg_plot3d(&a, &p, &e), 0);
    CHECK(a.len < 1000000);
    CHECK_WF(buf_str(&a));
    CHECK(no_nan_inf(buf_str(&a)));
    CHECK(strstr(buf_str(&a), "<title>IBM SP2 model</title>") != NULL);
    CHECK(strstr(buf_str(&a), "resampled") != NULL);
    /* At most 60 x 60 quads, and a 64-band colour bar. */
    CHECK(count(buf_str(&a), "z\" fill=\"#") <= SVG_MAX_QUADS_SIDE * SVG_MAX_QUADS_SIDE);
    CHECK(count(buf_str(&a), "z\" fill=\"#") > 3000);
    CHECK_INT(count(buf_str(&a), "<rect x="), 65);
    CHECK(strstr(buf_str(&a), ">runtime [s]</text>") != NULL);
    CHECK(strstr(buf_str(&a), "(1 of 2 inside the box)") != NULL);
    CHECK_INT(svg_plot3d(&b, &p, &e), 0);
    CHECK(strcmp(buf_str(&a), buf_str(&b)) == 0);
    save_example("plot3d.svg", &a);

    /* Small grid with holes; decreasing y is fine. */
    p = surface_plot(5);
    grid_z[7] = NAN;
    grid_z[12] = -INFINITY;
    for (i = 0; i < 5; i++)
        grid_y[i] = 10 - i;
    buf_reset(&a);
    CHECK_INT(svg_plot3d(&a, &p, &e), 0);
    CHECK_WF(buf_str(&a));
    CHECK(no_nan_inf(buf_str(&a)));
    CHECK(count(buf_str(&a), "z\" fill=\"#") < 16);
    /* Constant surface. */
    for (i = 0; i < 25; i++)
        grid_z[i] = 3;
    buf_reset(&a);
    CHECK_INT(svg_plot3d(&a, &p, &e), 0);
    CHECK_WF(buf_str(&a));
    CHECK_INT(count(buf_str(&a), "z\" fill=\"#"), 16);
    CHECK_INT(e.status, 0);
    buf_free(&a);
    buf_free(&b);
}

static void test_plot3d_limits(void)
{
    struct svg_plot3d p = surface_plot(10);
    struct buf b;
    struct err e;
    size_t i;

    buf_init(&b, 1 << 20);
    p.nx = 201;
    err_clear(&e);
    CHECK_INT(svg_plot3d(&b, &p, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    CHECK_STR(e.field, "grid");
    p = surface_plot(10);
    p.ny = 1;
    err_clear(&e);
    CHECK_INT(svg_plot3d(&b, &p, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    p = surface_plot(10);
    grid_x[4] = grid_x[3];
    err_clear(&e);
    CHECK_INT(svg_plot3d(&b, &p, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    CHECK_STR(e.field, "x");
    p = surface_plot(10);
    grid_y[2] = NAN;
    err_clear(&e);
    CHECK_INT(svg_plot3d(&b, &p, &e), -1);
    CHECK_STR(e.field, "y");
    p = surface_plot(10);
    for (i = 0; i < 100; i++)
        grid_z[i] = NAN;
    err_clear(&e);
    CHECK_INT(svg_plot3d(&b, &p, &e), -1);
    CHECK_STR(e.field, "z");
    CHECK_INT(e.status, ERR_INVALID);
    CHECK_INT(b.len, 0);
    CHECK_INT(svg_plot3d(&b, NULL, &e), -1);
    buf_free(&b);
}

/* ---- stacked bars and heat map --------------------------------------------------- */

static void test_stacked(void)
{
    struct svg_stacked p = bars_plot();
    struct buf a, b;
    struct err e = {0};
    double neg[12];

    buf_init(&a, 1 << 20);
    buf_init(&b, 1 << 20);
    CHECK_INT(svg_stacked(&a, &p, &e), 0);
    CHECK_INT(svg_stacked(&b, &p, &e), 0);
    CHECK_WF(buf_str(&a));
    CHECK(strcmp(buf_str(&a), buf_str(&b)) == 0);
    CHECK(no_nan_inf(buf_str(&a)));
    CHECK(strstr(buf_str(&a), "P=32 &lt;big&gt;") != NULL);
    CHECK(strstr(buf_str(&a), ">solve &amp; exchange</text>") != NULL);
    CHECK_INT(count(buf_str(&a), "<title>"), 1 + 11); /* document + 11 finite segments */
    CHECK(strstr(buf_str(&a), ">15</text>") != NULL); /* y ticks 0..15 step 5 */
    save_example("stacked.svg", &a);

    memcpy(neg, bar_values, sizeof neg);
    neg[4] = -1;
    p.values = neg;
    err_clear(&e);
    CHECK_INT(svg_stacked(&a, &p, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    CHECK_STR(e.field, "values[1][1]");
    p = bars_plot();
    p.ncomponents = 0;
    err_clear(&e);
    CHECK_INT(svg_stacked(&a, &p, &e), -1);
    buf_free(&a);
    buf_free(&b);
}

static void test_heatmap(void)
{
    struct svg_heatmap p = heat_plot(8);
    static const char *const rows[3] = {"rank 0", "rank <1>", NULL};
    struct buf a, b;
    struct err e = {0};

    buf_init(&a, 1 << 22);
    buf_init(&b, 1 << 22);
    CHECK_INT(svg_heatmap(&a, &p, &e), 0);
    CHECK_INT(svg_heatmap(&b, &p, &e), 0);
    CHECK_WF(buf_str(&a));
    CHECK(strcmp(buf_str(&a), buf_str(&b)) == 0);
    CHECK(no_nan_inf(buf_str(&a)));
    CHECK(strstr(buf_str(&a), "fill=\"#d9d9d9\"") != NULL); /* the NaN diagonal */
    CHECK(strstr(buf_str(&a), ">MB</text>") != NULL);
    save_example("heatmap.svg", &a);

    /* The largest matrix stays compact. */
    p = heat_plot(SVG_MAX_HEAT);
    buf_reset(&a);
    CHECK_INT(svg_heatmap(&a, &p, &e), 0);
    CHECK_WF(buf_str(&a));
    CHECK(a.len < 1000000);

    p = heat_plot(3);
    p.row_labels = rows;
    buf_reset(&a);
    CHECK_INT(svg_heatmap(&a, &p, &e), 0);
    CHECK(strstr(buf_str(&a), ">rank &lt;1&gt;</text>") != NULL);
    CHECK(strstr(buf_str(&a), ">2</text>") != NULL); /* NULL label: the index */

    p.nrows = 0;
    err_clear(&e);
    CHECK_INT(svg_heatmap(&a, &p, &e), -1);
    buf_free(&a);
    buf_free(&b);
}

/* ---- more data than a chart shows (SPEC §16: charts never refuse data) ---------- */

/* 189 components (a Score-P trace's regions): the 20 largest and "other"
 * summing the rest, exactly; 1001 categories: 256 bars, each the mean of its
 * group of consecutive ones, labelled first–last. */
/* The fill of the segment "CAT — COMP" in svg, or "" (static storage). */
static const char *segment_fill(const char *svg, const char *cat, const char *comp)
{
    static char fill[8];
    char key[128];
    const char *t;
    snprintf(key, sizeof key, "\"><title>%s \xe2\x80\x94 %s:", cat, comp);
    t = strstr(svg, key);
    fill[0] = 0;
    if (t != NULL && t - svg >= 7)
        snprintf(fill, sizeof fill, "%.7s", t - 7);
    return fill;
}

/* Colours asked for: kept unless an earlier component took one (then the
 * least used); "other" is grey; without colors, colour k. */
static void test_stacked_colors(void)
{
    struct svg_stacked p = bars_plot();
    static const int want[3] = {12, 2, -1}; /* 12 is colour 2, cyclic */
    struct buf a;
    struct err e = {0};

    buf_init(&a, 1 << 20);
    CHECK_INT(svg_stacked(&a, &p, &e), 0);
    CHECK_STR(segment_fill(buf_str(&a), "P=4", "init"), svg_palette(0));
    CHECK_STR(segment_fill(buf_str(&a), "P=4", "io"), svg_palette(2));
    p.colors = want;
    buf_reset(&a);
    CHECK_INT(svg_stacked(&a, &p, &e), 0);
    CHECK_STR(segment_fill(buf_str(&a), "P=4", "init"), svg_palette(2));
    CHECK_STR(segment_fill(buf_str(&a), "P=4", "solve &amp; exchange"), svg_palette(0));
    CHECK_STR(segment_fill(buf_str(&a), "P=4", "io"), svg_palette(1));
    p.other = 1;
    buf_reset(&a);
    CHECK_INT(svg_stacked(&a, &p, &e), 0);
    CHECK_STR(segment_fill(buf_str(&a), "P=4", "io"), "#b8b8b8");
    buf_free(&a);
}

/* A stacked-bar input of nc categories and nk components, values in s. */
static struct svg_stacked stacked_of(const char *const *cats, size_t nc,
                                     const char *const *comps, size_t nk, const double *v)
{
    struct svg_stacked p;
    memset(&p, 0, sizeof p);
    p.categories = cats;
    p.ncategories = nc;
    p.components = comps;
    p.ncomponents = nk;
    p.values = v;
    p.yunit = "s";
    return p;
}

/* Components at 0 in every bar (a call path's frames that took no time, an
 * HPCToolkit profile's MPI_Init chain) are left out, legend too: 22 of them
 * beside 3 that took time drew a legend of 20 entries, most without area,
 * and put one that took time into "other". Kept: a component at 0 in one bar
 * only; all of them when every one is 0. */
static void test_stacked_zero(void)
{
    static const char *comps[25], *const cats[2] = {"r1", "r2"};
    static char names[25][16];
    static double v[2 * 25];
    struct svg_stacked p;
    struct buf a;
    struct err e = {0};
    size_t k;

    for (k = 0; k < 25; k++) {
        snprintf(names[k], sizeof names[k], "z%zu", k);
        comps[k] = names[k];
    }
    v[3] = 2;        /* z3: 2 s in r1 */
    v[25 + 3] = 1;   /* ... 1 s in r2 */
    v[25 + 7] = 0.5; /* z7: in r2 only */
    v[24] = 4;       /* z24: the last, in r1 only */
    p = stacked_of(cats, 2, comps, 25, v);
    buf_init(&a, 1 << 20);
    CHECK_INT(svg_stacked(&a, &p, &e), 0);
    CHECK_WF(buf_str(&a));
    CHECK(strstr(buf_str(&a), "2 bars of 3 components; 22 components at 0 in every bar "
                              "left out") != NULL);
    CHECK(strstr(buf_str(&a), ">z3</text>") != NULL);
    CHECK(strstr(buf_str(&a), ">z7</text>") != NULL);
    CHECK(strstr(buf_str(&a), ">z24</text>") != NULL);
    CHECK(strstr(buf_str(&a), ">z0</text>") == NULL);
    CHECK(strstr(buf_str(&a), "other (") == NULL);
    CHECK(strstr(buf_str(&a), "<title>r2 \xe2\x80\x94 z7: 500 ms</title>") != NULL);
    /* every component 0: all drawn as before (an empty chart with its legend) */
    memset(v, 0, sizeof v);
    buf_reset(&a);
    CHECK_INT(svg_stacked(&a, &p, &e), 0);
    CHECK_WF(buf_str(&a));
    CHECK(strstr(buf_str(&a), "left out") == NULL);
    CHECK(strstr(buf_str(&a), "the largest 9 of 25 components") != NULL);
    buf_free(&a);
}

static void test_stacked_many(void)
{
    static const char *comps[189], *cats[1001];
    static char cnames[189][16], knames[1001][16];
    static double v[189], w[1001 * 2];
    static const char *const two[2] = {"a", "b"};
    const char *one[1] = {"run"};
    struct svg_stacked p;
    struct buf a;
    struct err e = {0};
    size_t k;

    for (k = 0; k < 189; k++) {
        snprintf(cnames[k], sizeof cnames[k], "c%zu", k);
        comps[k] = cnames[k];
        v[k] = (double)k + 1; /* the largest are c180..c188 */
    }
    p = stacked_of(one, 1, comps, 189, v);
    buf_init(&a, 1 << 22);
    CHECK_INT(svg_stacked(&a, &p, &e), 0);
    CHECK_WF(buf_str(&a));
    CHECK(strstr(buf_str(&a),
                 "1 bar of 10 components; the largest 9 of 189 "
                 "components, the rest summed as &quot;other&quot;") != NULL);
    CHECK(strstr(buf_str(&a), ">other (180 more)</text>") != NULL);
    /* other = 1 + 2 + ... + 180 = 16290 s, shown in its unit */
    CHECK(strstr(buf_str(&a),
                 "<title>run \xe2\x80\x94 other (180 more): 16290 s</title>") != NULL);
    CHECK(strstr(buf_str(&a), ">c188</text>") != NULL);
    CHECK(strstr(buf_str(&a), ">c180</text>") != NULL);
    CHECK(strstr(buf_str(&a), ">c179</text>") == NULL);
    CHECK_INT(count(buf_str(&a), "fill=\"#b8b8b8\""), 2); /* other: grey bar and key */
    CHECK_INT(count(buf_str(&a), "<rect x="), 10 + 10);   /* segments + legend */
    /* the 9 kept, one colour each: no colour twice in the legend */
    for (k = 0; k < SVG_PALETTE_SIZE; k++) {
        char fill[32];
        snprintf(fill, sizeof fill, "fill=\"%s\"", svg_palette(k));
        CHECK(count(buf_str(&a), fill) <= 2);
    }

    for (k = 0; k < 1001; k++) {
        snprintf(knames[k], sizeof knames[k], "r%zu", k);
        cats[k] = knames[k];
        w[2 * k] = (double)k;
        w[2 * k + 1] = 1e-6;
    }
    memset(&p, 0, sizeof p);
    p.categories = cats;
    p.ncategories = 1001;
    p.components = two;
    p.ncomponents = 2;
    p.values = w;
    buf_reset(&a);
    CHECK_INT(svg_stacked(&a, &p, &e), 0);
    CHECK_WF(buf_str(&a));
    CHECK(strstr(buf_str(&a), "256 bars of 2 components; 1001 categories in 256 bars, "
                              "each the mean of up to 4") != NULL);
    /* bar 0 holds r0..r2 (1001 * 1 / 256 = 3): a = (0 + 1 + 2) / 3 */
    CHECK(strstr(buf_str(&a), "<title>r0\xe2\x80\x93r2 \xe2\x80\x94 a: 1</title>") !=
          NULL);
    CHECK(strstr(buf_str(&a), "r997\xe2\x80\x93r1000") != NULL);

    /* Call paths too long for the legend keep their end, where they differ. */
    {
        static char paths[3][64];
        static const char *pp[3];
        static const double pv[3] = {1, 2, 3};
        const char *t, *gt;
        for (k = 0; k < 3; k++) {
            snprintf(paths[k], sizeof paths[k],
                     "main/solver_with_a_long_name/inner_loop_of_kernel_%zu", k);
            pp[k] = paths[k];
        }
        memset(&p, 0, sizeof p);
        p.categories = one;
        p.ncategories = 1;
        p.components = pp;
        p.ncomponents = 3;
        p.values = pv;
        p.width = 400;
        buf_reset(&a);
        CHECK_INT(svg_stacked(&a, &p, &e), 0);
        t = strstr(buf_str(&a), "_kernel_2</text>");
        CHECK(t != NULL);
        for (gt = t; t != NULL && gt > buf_str(&a) && *gt != '>'; gt--)
            ;
        CHECK(t != NULL && strncmp(gt + 1, "\xe2\x80\xa6", 3) == 0);
    }
    /* TAU and PDT names end in a source location whose file path is no call
     * path: the legend leaves " [...]" groups out and shows the function
     * (every label of a real TAU profile ended "…main.cpp} {404,0}]"). */
    {
        static const char *tn[3];
        static const char *const tau[3] = {
            "update_factors(int) [{/home/bot/mpisvd/main.cpp} {404,0}]",
            "swap_byte_order(unsigned int*) [{/home/bot/mpisvd/main.cpp} {173,0}] "
            "[THROTTLED]",
            "int main() C [{hw2_prog.c} {6,1}-{61,1}]/double midpoint(double, double, "
            "double) C [{hw2_routines.c} {12,1}-{25,1}]"};
        static const double tv[3] = {1, 2, 3};
        memcpy(tn, tau, sizeof tn);
        memset(&p, 0, sizeof p);
        p.categories = one;
        p.ncategories = 1;
        p.components = tn;
        p.ncomponents = 3;
        p.values = tv;
        p.width = 1200;
        buf_reset(&a);
        CHECK_INT(svg_stacked(&a, &p, &e), 0);
        CHECK_WF(buf_str(&a));
        CHECK(strstr(buf_str(&a), ">update_factors(int)</text>") != NULL);
        CHECK(strstr(buf_str(&a), ">swap_byte_order(unsigned int*)</text>") != NULL);
        CHECK(strstr(buf_str(&a), "double midpoint(double, double, double) C</text>") !=
              NULL);
        /* at 400 px the signature keeps its start, after the path */
        p.width = 400;
        buf_reset(&a);
        CHECK_INT(svg_stacked(&a, &p, &e), 0);
        CHECK(strstr(buf_str(&a), ">\xe2\x80\xa6/double mid") != NULL);
        /* a long path's mark ("…41a19b59") may cut a location's opening
         * brace off: its closers do not hide the levels after them */
        tn[0] = ".TAU application/\xe2\x80\xa6"
                "41a19b59/home/hec/build/Hecatoncheir.pomp.cpp} {851,0}]/"
                "__static_initialization_and_destruction_0(int, int) "
                "[{/home/hec/build/Hecatoncheir.pomp.cpp} {851,0}]";
        buf_reset(&a);
        CHECK_INT(svg_stacked(&a, &p, &e), 0);
        CHECK(strstr(buf_str(&a), ">\xe2\x80\xa6/__static_i") != NULL);
    }
    buf_free(&a);
}

/* 512 x 300 values in blocks of up to 2 x 2 (256 x 256 cells): each the
 * mean of its block, the labels first–last. */
static void test_heatmap_many(void)
{
    size_t nr = 512, nc = 300, r, c;
    double *v = xcalloc(nr * nc, sizeof *v);
    struct svg_heatmap p;
    struct buf a;
    struct err e = {0};

    for (r = 0; r < nr; r++)
        for (c = 0; c < nc; c++)
            v[r * nc + c] = (double)r;
    memset(&p, 0, sizeof p);
    p.nrows = nr;
    p.ncols = nc;
    p.values = v;
    p.zlabel = "sent";
    p.zunit = "B";
    buf_init(&a, 1 << 22);
    CHECK_INT(svg_heatmap(&a, &p, &e), 0);
    CHECK_WF(buf_str(&a));
    /* rows 0-1 average 0.5, rows 510-511 average 510.5 */
    CHECK(strstr(buf_str(&a), "256 rows by 256 columns; values from 0.5 to 510.5") !=
          NULL);
    CHECK(strstr(buf_str(&a), "512 x 300 values drawn in blocks of up to 2 x 2") != NULL);
    CHECK(strstr(buf_str(&a), ">0\xe2\x80\x93"
                              "1</text>") != NULL);
    CHECK(strstr(buf_str(&a), ">sent (B)</text>") != NULL);
    CHECK(a.len < 1000000);
    buf_free(&a);
    xfree(v);
}

/* A sparse heat map (cells, values NULL) is drawn byte for byte as the
 * dense matrix with zeros elsewhere: small (rendered whole) and large (in
 * blocks, 600 x 600 of which 300 cells are set, some twice); a cell outside
 * the matrix is refused. */
static void test_heatmap_sparse(void)
{
    static const size_t sizes[2] = {7, 600};
    for (int k = 0; k < 2; k++) {
        size_t n = sizes[k], nc = 0;
        double *v = xcalloc(n * n, sizeof *v);
        struct svg_cell *cells = xcalloc(2 * n, sizeof *cells);
        struct svg_heatmap p;
        struct buf a, b;
        struct err e = {0};

        for (size_t i = 0; i < n; i += 2) {
            size_t j = (i * 7 + 3) % n;
            cells[nc++] = (struct svg_cell){i, j, (double)(i + 1)};
            v[i * n + j] += (double)(i + 1);
            if (i % 4 == 0) { /* given twice: the values add */
                cells[nc++] = (struct svg_cell){i, j, 0.5};
                v[i * n + j] += 0.5;
            }
        }
        memset(&p, 0, sizeof p);
        p.nrows = p.ncols = n;
        p.zlabel = "wait";
        p.values = v;
        buf_init(&a, 1 << 22);
        buf_init(&b, 1 << 22);
        CHECK_INT(svg_heatmap(&a, &p, &e), 0);
        p.values = NULL;
        p.cells = cells;
        p.ncells = nc;
        CHECK_INT(svg_heatmap(&b, &p, &e), 0);
        CHECK(a.len > 0 && a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
        cells[0].col = n;
        buf_reset(&b);
        CHECK_INT(svg_heatmap(&b, &p, &e), -1);
        CHECK_STR(e.field, "cells");
        buf_free(&a);
        buf_free(&b);
        xfree(v);
        xfree(cells);
    }
}

/* A matrix of zeros (a trace without messages) is drawn at the bottom of the
 * scale, as nothing, and its title says so; one value elsewhere stays the
 * middle. */
static void test_heatmap_zero(void)
{
    struct svg_heatmap p;
    struct buf a;
    struct err e = {0};
    char bottom[32], middle[32];
    double ones[4] = {1, 1, 1, 1};
    unsigned char rgb[3];

    svg_cmap(0.5 / 64, rgb); /* level 0 of 64 */
    snprintf(bottom, sizeof bottom, "<path fill=\"#%02x%02x%02x\"", rgb[0], rgb[1],
             rgb[2]);
    svg_cmap(32.5 / 64, rgb); /* level 32 */
    snprintf(middle, sizeof middle, "<path fill=\"#%02x%02x%02x\"", rgb[0], rgb[1],
             rgb[2]);
    memset(&p, 0, sizeof p);
    p.title = "Point-to-point bytes";
    p.nrows = p.ncols = 3;
    p.cells = NULL;
    p.ncells = 0;
    p.values = NULL;
    buf_init(&a, 1 << 20);
    {
        double zeros[9] = {0};
        p.values = zeros;
        CHECK_INT(svg_heatmap(&a, &p, &e), 0);
    }
    CHECK_WF(buf_str(&a));
    CHECK(strstr(buf_str(&a), ">Point-to-point bytes (every cell is 0)</text>") != NULL);
    CHECK(strstr(buf_str(&a), bottom) != NULL);
    buf_reset(&a);
    p.nrows = p.ncols = 2;
    p.values = ones;
    CHECK_INT(svg_heatmap(&a, &p, &e), 0);
    CHECK(strstr(buf_str(&a), "every cell") == NULL);
    CHECK(strstr(buf_str(&a), middle) != NULL);
    buf_free(&a);
}

/* ---- limits and failures ------------------------------------------------------------
 */

static void test_limits(void)
{
    static struct svg_series s[SVG_MAX_SERIES + 1];
    static struct svg_point pts[SVG_MAX_POINTS / 2 + 1];
    static char long_text[SVG_MAX_TEXT + 2];
    struct svg_plot2d p;
    struct buf b;
    struct err e;
    size_t i;

    buf_init(&b, 1 << 20);
    memset(&p, 0, sizeof p);
    p.series = s;
    p.nseries = SVG_MAX_SERIES + 1;
    err_clear(&e);
    CHECK_INT(svg_plot2d(&b, &p, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    CHECK_STR(e.field, "series");

    for (i = 0; i < 3; i++) {
        s[i].points = pts;
        s[i].n = SVG_MAX_POINTS / 2 + 1 - i;
    }
    p.nseries = 3;
    err_clear(&e);
    CHECK_INT(svg_plot2d(&b, &p, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    CHECK_STR(e.field, "points");

    memset(long_text, 'a', SVG_MAX_TEXT + 1);
    memset(&p, 0, sizeof p);
    p.title = long_text;
    err_clear(&e);
    CHECK_INT(svg_plot2d(&b, &p, &e), -1);
    CHECK_STR(e.field, "title");
    p.title = NULL;
    p.width = 50;
    err_clear(&e);
    CHECK_INT(svg_plot2d(&b, &p, &e), -1);
    CHECK_STR(e.field, "width");
    p.width = 0;
    p.xscale = (enum svg_scale)7;
    err_clear(&e);
    CHECK_INT(svg_plot2d(&b, &p, &e), -1);
    CHECK_STR(e.field, "xscale");
    CHECK_INT(b.len, 0);
    buf_free(&b);
}

static void test_output_limit(void)
{
    struct svg_plot2d p = cubic_plot();
    struct buf b;
    struct err e;

    buf_init(&b, 2000);
    buf_puts(&b, "kept");
    err_clear(&e);
    CHECK_INT(svg_plot2d(&b, &p, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    CHECK_STR(e.code, "plot_too_large");
    CHECK_STR(buf_str(&b), "kept"); /* partial document dropped */
    CHECK_INT(buf_failed(&b), BUF_OK);
    buf_free(&b);
}

static void test_alloc_failures(void)
{
    struct svg_plot2d p2 = cubic_plot();
    struct svg_plot3d p3 = surface_plot(80);
    struct svg_stacked ps = bars_plot();
    struct svg_heatmap ph = heat_plot(16);
    struct buf b;
    struct err e;
    long nth;
    int kind;

    for (kind = 0; kind < 4; kind++)
        for (nth = 1; nth <= 40; nth++) {
            int rc;
            buf_init(&b, 1 << 22);
            err_clear(&e);
            xalloc_fail_at(nth);
            if (kind == 0)
                rc = svg_plot2d(&b, &p2, &e);
            else if (kind == 1)
                rc = svg_plot3d(&b, &p3, &e);
            else if (kind == 2)
                rc = svg_stacked(&b, &ps, &e);
            else
                rc = svg_heatmap(&b, &ph, &e);
            xalloc_fail_at(0);
            if (rc == 0) {
                CHECK_WF(buf_str(&b));
            } else {
                CHECK_INT(e.status, ERR_NOMEM);
                CHECK_INT(b.len, 0);
            }
            buf_free(&b);
        }
}

/* The smallest canvas still gives valid, finite output for every kind. */
static void test_small_canvas(void)
{
    struct svg_plot2d p2 = cubic_plot();
    struct svg_plot3d p3 = surface_plot(20);
    struct svg_stacked ps = bars_plot();
    struct svg_heatmap ph = heat_plot(40);
    struct buf b;
    struct err e = {0};

    p2.width = p2.height = p3.width = p3.height = SVG_MIN_SIZE;
    ps.width = ps.height = ph.width = ph.height = SVG_MIN_SIZE;
    p2.formula = "y = 1 + 2*x + 3*x^2 + 4*x^3 + 5*x^4 + 6*x^5 + 7*x^6 + 8/x + 9/x^2 + "
                 "10/x^3 + 11/x^4 + 12/x^5 + 13/x^6";
    buf_init(&b, 1 << 22);
    CHECK_INT(svg_plot2d(&b, &p2, &e), 0);
    CHECK_INT(svg_plot3d(&b, &p3, &e), 0);
    CHECK_INT(svg_stacked(&b, &ps, &e), 0);
    CHECK_INT(svg_heatmap(&b, &ph, &e), 0);
    CHECK(no_nan_inf(buf_str(&b)));
    CHECK_INT(e.status, 0);
    buf_reset(&b);
    CHECK_INT(svg_plot2d(&b, &p2, &e), 0);
    CHECK_WF(buf_str(&b));
    CHECK(strstr(buf_str(&b), "class=\"formula\"") != NULL);
    buf_free(&b);
}

int main(void)
{
    RUN(test_nice_ticks);
    RUN(test_fmt_tick);
    RUN(test_text_escaping);
    RUN(test_plot2d_basic);
    RUN(test_plot2d_escaping);
    RUN(test_plot2d_log);
    RUN(test_plot2d_bytes);
    RUN(test_plot2d_non_finite);
    RUN(test_plot2d_many_series);
    RUN(test_plot2d_legend_below);
    RUN(test_plot3d);
    RUN(test_plot3d_limits);
    RUN(test_stacked);
    RUN(test_heatmap);
    RUN(test_stacked_colors);
    RUN(test_stacked_many);
    RUN(test_stacked_zero);
    RUN(test_heatmap_many);
    RUN(test_heatmap_sparse);
    RUN(test_heatmap_zero);
    RUN(test_small_canvas);
    RUN(test_limits);
    RUN(test_output_limit);
    RUN(test_alloc_failures);
    return harness_report();
}
