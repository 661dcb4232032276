/* page: layout, escaping writers and the HTML error page; see page.h. */
#include "web/page.h"
#include "common/utf8.h"
#include "common/xalloc.h"
#include "web/html.h"
#include "web/static.h"
#include "web/svg.h"
#include "common/units.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *key, *href, *label;
} nav_items[] = {
    {"overview", "/", "Overview"},      {"applications", "/applications", "Applications"},
    {"systems", "/systems", "Systems"}, {"model", "/model", "Model"},
    {"models", "/models", "Models"},    {"alerts", "/alerts", "Alerts"},
    {"compare", "/compare", "Compare"}, {"upload", "/upload", "Upload"},
};

static void asset_url(struct buf *b, const char *name)
{
    struct web_asset a;
    buf_printf(b, "/static/%s", name);
    if (web_asset_find(name, &a) == 0)
        buf_printf(b, "?v=%s", a.hash);
}

/* Doctype, head and header; leaves <main> open. */
static void layout_head(struct buf *b, const char *title, const char *nav,
                        const char *user, const char *csrf)
{
    size_t i;
    buf_puts(b,
             "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
             "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
             "<title>");
    web_html_text(b, title);
    buf_puts(b, " · Prophecy</title>\n<link rel=\"stylesheet\" href=\"");
    asset_url(b, "style.css");
    buf_puts(b, "\">\n<link rel=\"icon\" type=\"image/svg+xml\" href=\"");
    asset_url(b, "favicon.svg");
    buf_puts(b, "\">\n<script src=\"");
    asset_url(b, "app.js");
    buf_puts(b, "\" defer></script>\n</head>\n<body>\n"
                "<a class=\"skip\" href=\"#main\">Skip to content</a>\n"
                "<header class=\"top\"><div class=\"inner\">"
                "<a class=\"brand\" href=\"/\">Prophecy</a>\n"
                "<nav aria-label=\"Main\"><ul>");
    for (i = 0; i < sizeof nav_items / sizeof nav_items[0]; i++) {
        buf_printf(b, "<li><a href=\"%s\"%s>%s</a></li>", nav_items[i].href,
                   nav && strcmp(nav, nav_items[i].key) == 0 ? " aria-current=\"page\""
                                                             : "",
                   nav_items[i].label);
    }
    if (user != NULL && csrf != NULL) {
        buf_puts(b, "<li class=\"session\"><form method=\"post\" action=\"/logout\">"
                    "<input type=\"hidden\" name=\"csrf\" value=\"");
        web_html_attr(b, csrf);
        buf_puts(b, "\"><button type=\"submit\" id=\"sign-out\" title=\"Signed in as ");
        web_html_attr(b, user);
        buf_puts(b, "\">Sign out</button></form></li>");
    } else if (csrf != NULL) {
        buf_printf(b,
                   "<li class=\"session\"><a href=\"/login\" id=\"sign-in\"%s>Sign in</a>"
                   "</li>",
                   nav && strcmp(nav, "login") == 0 ? " aria-current=\"page\"" : "");
    }
    buf_puts(b, "</ul></nav></div></header>\n<main id=\"main\">\n");
}

static void layout_foot(struct buf *b)
{
    buf_puts(b, "</main>\n<footer><div class=\"inner\">Prophecy " PROPHECY_VERSION
                " · performance database and modeling service · "
                "<a href=\"/api/v1/health\">JSON API</a> (<code>/api/v1/</code>)"
                "</div></footer>\n</body>\n</html>\n");
}

void page_begin(struct page *p, arena *a, const char *title, const char *nav)
{
    page_begin_as(p, a, title, nav, NULL, NULL);
}

void page_begin_as(struct page *p, arena *a, const char *title, const char *nav,
                   const char *user, const char *csrf)
{
    buf_init(&p->b, PAGE_MAX);
    p->arena = a;
    p->csrf = csrf;
    p->user = user;
    p->ncolor_names = 0;
    layout_head(&p->b, title, nav, user, csrf);
}

const int *page_colors(struct page *p, const char *const *names, size_t n)
{
    int *c = p->arena ? arena_alloc(p->arena, (n ? n : 1) * sizeof *c) : NULL;
    size_t k, i;

    if (c == NULL)
        return NULL;
    for (k = 0; k < n; k++) {
        c[k] = -1;
        if (names[k] == NULL || strcmp(names[k], "other") == 0)
            continue;
        for (i = 0; i < p->ncolor_names && strcmp(p->color_names[i], names[k]) != 0; i++)
            ;
        if (i == p->ncolor_names && i < PAGE_COLOR_NAMES) {
            const char *copy = arena_strdup(p->arena, names[k]);
            if (copy == NULL)
                continue;
            p->color_names[p->ncolor_names++] = copy;
        }
        if (i < p->ncolor_names)
            c[k] = (int)i;
    }
    return c;
}

void page_commit(struct page *p, const char *commit)
{
    char shortc[13];

    if (commit == NULL)
        return;
    if (strlen(commit) <= 12) {
        page_puts(p, "<code>");
        page_text(p, commit);
        page_puts(p, "</code>");
        return;
    }
    memcpy(shortc, commit, 12);
    shortc[12] = '\0';
    utf8_cut(shortc); /* a name cut inside a character keeps whole ones */
    page_puts(p, "<code title=\"");
    page_attr(p, commit);
    page_puts(p, "\">");
    page_text(p, shortc);
    page_puts(p, "</code>");
}

void page_finish(struct page *p)
{
    layout_foot(&p->b);
}

void page_free(struct page *p)
{
    buf_free(&p->b);
}

void page_puts(struct page *p, const char *html)
{
    buf_puts(&p->b, html);
}

void page_printf(struct page *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&p->b, fmt, ap);
    va_end(ap);
}

void page_text(struct page *p, const char *s)
{
    if (s)
        web_html_text(&p->b, s);
}

void page_law(struct page *p, const char *law)
{
    if (law == NULL)
        return;
    page_puts(p, "<code class=\"law\">");
    while (*law) {
        size_t n = strcspn(law, " ");
        if (n == 0) {
            page_puts(p, " ");
            law++;
            continue;
        }
        /* each term whole (CSS: nowrap); copied, the law reads as written */
        page_puts(p, "<span>");
        web_html_text_n(&p->b, law, n);
        page_puts(p, "</span>");
        law += n;
    }
    page_puts(p, "</code>");
}

void page_when(struct page *p, const char *ts)
{
    const char *t;
    if (ts == NULL)
        return;
    t = strchr(ts, 'T');
    page_puts(p, "<span class=\"nw\">");
    if (t == NULL) {
        page_text(p, ts);
    } else {
        web_html_text_n(&p->b, ts, (size_t)(t - ts) + 1);
        page_puts(p, "</span><wbr><span class=\"nw\">");
        page_text(p, t + 1);
    }
    page_puts(p, "</span>");
}

void page_attr(struct page *p, const char *s)
{
    if (s)
        web_html_attr(&p->b, s);
}

void page_pre(struct page *p, const char *s)
{
    const char *nl;
    buf_puts(&p->b, "<pre>");
    while (s && (nl = strchr(s, '\n')) != NULL) {
        char *line = xstrndup(s, (size_t)(nl - s));
        if (line == NULL) {
            buf_puts(&p->b, "…");
            break;
        }
        web_html_text(&p->b, line);
        xfree(line);
        buf_putc(&p->b, '\n');
        s = nl + 1;
    }
    if (s)
        web_html_text(&p->b, s);
    buf_puts(&p->b, "</pre>\n");
}

void page_url(struct page *p, const char *s)
{
    if (s)
        web_url_encode(&p->b, s);
}

void page_num(struct page *p, double v)
{
    if (!isfinite(v))
        buf_puts(&p->b, "–");
    else
        buf_printf(&p->b, "%.6g", v);
}

void page_qty(struct page *p, double v, const char *unit)
{
    char s[UNITS_MAX];
    buf_puts(&p->b, units_fmt(s, sizeof s, v, unit));
}

void page_value(struct page *p, const char *id, double v, const char *unit)
{
    buf_puts(&p->b, "<strong");
    if (id != NULL)
        buf_printf(&p->b, " id=\"%s\"", id);
    if (isfinite(v)) {
        buf_printf(&p->b, " data-value=\"%.10g\" title=\"%.10g", v, v);
        if (unit != NULL && *unit)
            buf_printf(&p->b, " %s", unit);
        buf_puts(&p->b, "\"");
    }
    buf_puts(&p->b, ">");
    page_qty(p, v, unit);
    buf_puts(&p->b, "</strong>");
}

void page_link(struct page *p, const char *prefix, const char *name, const char *text)
{
    buf_printf(&p->b, "<a href=\"%s", prefix);
    web_url_encode(&p->b, name);
    buf_puts(&p->b, "\">");
    web_html_text(&p->b, text ? text : name);
    buf_puts(&p->b, "</a>");
}

/* The SVG document without its XML declaration, which is not allowed (nor
 * needed) inside HTML. */
static const char *svg_body(const struct buf *svg)
{
    const char *s = buf_str(svg);
    if (strncmp(s, "<?xml", 5) == 0) {
        const char *end = strstr(s, "?>");
        if (end) {
            s = end + 2;
            while (*s == '\n')
                s++;
        }
    }
    return s;
}

/* Writes the SVG with class="cls" added to its root element. */
static void svg_classed(struct page *p, const struct buf *svg, const char *cls)
{
    const char *s = svg_body(svg);
    if (strncmp(s, "<svg ", 5) != 0) {
        buf_puts(&p->b, s);
        return;
    }
    buf_printf(&p->b, "<svg class=\"%s\" ", cls);
    buf_puts(&p->b, s + 5);
}

void page_svg_pair(struct page *p, const struct buf *wide, const struct buf *narrow,
                   const char *caption)
{
    buf_puts(&p->b, "<figure class=\"plot\">");
    svg_classed(p, wide, "wide");
    svg_classed(p, narrow, "narrow");
    if (caption) {
        buf_puts(&p->b, "<figcaption>");
        web_html_text(&p->b, caption);
        buf_puts(&p->b, "</figcaption>");
    }
    buf_puts(&p->b, "</figure>\n");
}

void page_svg(struct page *p, const struct buf *svg, const char *caption)
{
    const char *s = svg_body(svg);
    buf_puts(&p->b, "<figure class=\"plot\">");
    buf_puts(&p->b, s);
    if (caption) {
        buf_puts(&p->b, "<figcaption>");
        web_html_text(&p->b, caption);
        buf_puts(&p->b, "</figcaption>");
    }
    buf_puts(&p->b, "</figure>\n");
}

int page_chart(struct page *p, page_draw_fn draw, const void *chart, int narrow_h,
               const char *caption, struct err *err)
{
    struct buf wide, narrow;
    struct err ignored = {0};
    int rc = -1;

    buf_init(&wide, PAGE_MAX);
    buf_init(&narrow, PAGE_MAX);
    if (draw(chart, 0, 0, &wide, err) == 0) {
        if (draw(chart, PAGE_NARROW_W, narrow_h > 0 ? narrow_h : PAGE_NARROW_H, &narrow,
                 &ignored) == 0)
            page_svg_pair(p, &wide, &narrow, caption);
        else
            page_svg(p, &wide, caption);
        rc = 0;
    }
    buf_free(&wide);
    buf_free(&narrow);
    return rc;
}

static int draw_plot2d(const void *chart, int width, int height, struct buf *out,
                       struct err *err)
{
    struct svg_plot2d plot = *(const struct svg_plot2d *)chart;
    if (width > 0) {
        plot.width = width;
        plot.height = height;
    }
    return svg_plot2d(out, &plot, err);
}

static int draw_plot3d(const void *chart, int width, int height, struct buf *out,
                       struct err *err)
{
    struct svg_plot3d plot = *(const struct svg_plot3d *)chart;
    if (width > 0) {
        plot.width = width;
        plot.height = height;
    }
    return svg_plot3d(out, &plot, err);
}

static int draw_stacked(const void *chart, int width, int height, struct buf *out,
                        struct err *err)
{
    struct svg_stacked st = *(const struct svg_stacked *)chart;
    if (width > 0) {
        st.width = width;
        st.height = height;
    }
    return svg_stacked(out, &st, err);
}

int page_plot2d(struct page *p, const struct svg_plot2d *plot, int narrow_h,
                const char *caption, struct err *err)
{
    return page_chart(p, draw_plot2d, plot, narrow_h, caption, err);
}

int page_plot3d(struct page *p, const struct svg_plot3d *plot, int narrow_h,
                const char *caption, struct err *err)
{
    return page_chart(p, draw_plot3d, plot, narrow_h, caption, err);
}

int page_stacked(struct page *p, const struct svg_stacked *chart, int narrow_h,
                 const char *caption, struct err *err)
{
    return page_chart(p, draw_stacked, chart, narrow_h, caption, err);
}

void page_table_open(struct page *p, const char *caption)
{
    buf_puts(&p->b, "<div class=\"table-wrap\"><table>");
    if (caption) {
        buf_puts(&p->b, "<caption class=\"vh\">");
        web_html_text(&p->b, caption);
        buf_puts(&p->b, "</caption>");
    }
    buf_putc(&p->b, '\n');
}

void page_table_close(struct page *p)
{
    buf_puts(&p->b, "</table></div>\n");
}

/* ---- error pages ---------------------------------------------------------- */

/* The title of an error page, by the kind of error; the number before it is
 * the HTTP status server/ answers with. */
static const char *error_title(enum err_code code)
{
    switch (code) {
    case ERR_BAD_REQUEST:
        return "Bad request";
    case ERR_UNAUTHORIZED:
        return "Token needed";
    case ERR_FORBIDDEN:
        return "Forbidden";
    case ERR_NOT_FOUND:
        return "Not found";
    case ERR_NOT_ALLOWED:
        return "Method not allowed";
    case ERR_CONFLICT:
        return "Conflict";
    case ERR_TOO_LARGE:
        return "Too large";
    case ERR_INVALID:
        return "Invalid input";
    case ERR_UNAVAILABLE:
        return "Unavailable";
    default:
        return "Server error";
    }
}

char *page_error_html(const struct err *e, int status, size_t *len)
{
    struct buf b;
    char title[64];
    snprintf(title, sizeof title, "%d %s", status, error_title(e->status));
    buf_init(&b, 1 << 16);
    layout_head(&b, title, NULL, NULL, NULL);
    buf_puts(&b, "<h1>");
    web_html_text(&b, title);
    buf_puts(&b, "</h1>\n<p class=\"notice bad\">");
    web_html_text(&b, e->message[0] ? e->message : error_title(e->status));
    buf_puts(&b, "</p>\n<p><a href=\"/\">Back to the overview</a></p>\n");
    layout_foot(&b);
    return buf_detach(&b, len);
}

/* ---- modeling answers -------------------------------------------------------- */

#define JSON_ITEMS 16 /* items of an object or array shown */
#define JSON_DEPTH 4  /* levels of nesting shown */

static void json_value(struct page *p, json_t *v, int depth)
{
    size_t i = 0, n;
    const char *key;
    json_t *x;
    if (json_is_number(v)) {
        page_num(p, json_number_value(v));
        return;
    }
    if (json_is_string(v)) {
        page_text(p, json_string_value(v));
        return;
    }
    if (json_is_boolean(v)) {
        page_puts(p, json_is_true(v) ? "yes" : "no");
        return;
    }
    n = json_is_object(v) ? json_object_size(v) : json_array_size(v);
    if (n == 0 || depth == JSON_DEPTH) { /* null, or nothing (more) to list */
        page_puts(p, n == 0 ? "\xe2\x80\x93" : "\xe2\x80\xa6");
        return;
    }
    if (depth > 0)
        page_puts(p, "(");
    if (json_is_object(v)) {
        json_object_foreach(v, key, x)
        {
            if (i == JSON_ITEMS)
                break;
            if (i++)
                page_puts(p, ", ");
            page_text(p, key);
            page_puts(p, "&nbsp;=&nbsp;"); /* a pair never breaks */
            json_value(p, x, depth + 1);
        }
    } else {
        json_array_foreach(v, i, x)
        {
            if (i == JSON_ITEMS)
                break;
            if (i)
                page_puts(p, ", ");
            json_value(p, x, depth + 1);
        }
    }
    if (n > JSON_ITEMS)
        page_printf(p, ", \xe2\x80\xa6 (%zu in all)", n);
    if (depth > 0)
        page_puts(p, ")");
}

void page_json(struct page *p, json_t *v)
{
    json_value(p, v, 0);
}

/* The unit column col of the answer's array `key` is shown in, or NULL (a
 * plain value): a prediction's y, lo and hi in the unit of y (yunit); a
 * parameterization's runs measured at its point (runtime, min, max and the
 * model there) in seconds and their error in percent. */
static const char *column_unit(const char *key, const char *col, const char *yunit)
{
    if (strcmp(key, "predictions") == 0)
        return strcmp(col, "y") == 0 || strcmp(col, "lo") == 0 || strcmp(col, "hi") == 0
                   ? yunit
                   : NULL;
    if (strcmp(key, "measured") == 0) {
        if (strcmp(col, "error_pct") == 0)
            return "%";
        if (strcmp(col, "runtime") == 0 || strcmp(col, "min") == 0 ||
            strcmp(col, "max") == 0 || strcmp(col, "model") == 0)
            return "s";
    }
    return NULL;
}

/* A table of the records of the answer's array arr (named key), headed
 * title; columns are the keys of the first rows, numbers in the unit
 * column_unit gives them. */
static void json_table(struct page *p, const char *key, const char *title, json_t *arr,
                       size_t max_rows, const char *yunit)
{
    const char *cols[16];
    size_t ncol = 0, i, c;
    json_t *row, *v;
    const char *col;

    json_array_foreach(arr, i, row)
    {
        if (i == 20)
            break;
        if (!json_is_object(row))
            return;
        json_object_foreach(row, col, v)
        {
            for (c = 0; c < ncol && strcmp(cols[c], col) != 0; c++)
                ;
            if (c == ncol && ncol < 16)
                cols[ncol++] = col;
        }
    }
    if (ncol == 0)
        return;
    page_puts(p, "<h3>");
    page_text(p, title);
    page_puts(p, "</h3>\n");
    page_table_open(p, title);
    page_puts(p, "<thead><tr>");
    for (c = 0; c < ncol; c++) {
        page_puts(p, "<th>");
        page_text(p, cols[c]);
        page_puts(p, "</th>");
    }
    page_puts(p, "</tr></thead><tbody>\n");
    json_array_foreach(arr, i, row)
    {
        if (i == max_rows)
            break;
        page_puts(p, "<tr>");
        for (c = 0; c < ncol; c++) {
            const char *unit = column_unit(key, cols[c], yunit);
            v = json_object_get(row, cols[c]);
            page_puts(p, json_is_number(v) ? "<td class=\"num\">" : "<td>");
            if (unit != NULL && json_is_number(v))
                page_qty(p, json_number_value(v), unit);
            else
                page_json(p, v);
            page_puts(p, "</td>");
        }
        page_puts(p, "</tr>\n");
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
    if (json_array_size(arr) > max_rows)
        page_printf(p,
                    "<p class=\"muted\">First %zu of %zu rows; the JSON has all.</p>\n",
                    max_rows, json_array_size(arr));
}

static void facts_of(struct page *p, json_t *obj, int *open)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v)
    {
        if (!(json_is_number(v) || json_is_string(v) || json_is_boolean(v)))
            continue;
        if (strcmp(key, "formula") == 0 || strcmp(key, "parsed") == 0 ||
            strcmp(key, "plot") == 0 || strcmp(key, "id") == 0)
            continue;
        if (!*open) {
            page_puts(p, "<dl class=\"facts\">\n");
            *open = 1;
        }
        page_puts(p, "<dt>");
        page_text(p, key);
        page_puts(p, "</dt><dd>");
        page_json(p, v);
        page_puts(p, "</dd>\n");
    }
}

void page_selection_vars(struct page *p, json_t *sel, const char *x)
{
    const char *key;
    json_t *v;
    size_t i;
    json_object_foreach(json_object_get(sel, "fixed"), key, v)
    {
        page_puts(p, json_is_null(v) ? ", without " : ", ");
        page_text(p, key);
        if (!json_is_null(v)) {
            page_puts(p, "&nbsp;=&nbsp;");
            page_num(p, json_number_value(v));
        }
    }
    json_array_foreach(json_object_get(sel, "varies_with_x"), i, v)
    {
        page_puts(p, ", ");
        page_text(p, json_string_value(v));
        page_puts(p, " changing with ");
        page_text(p, x);
    }
}

void page_model_facts(struct page *p, json_t *answer)
{
    json_t *model = json_object_get(answer, "model"), *v;
    const char *formula = NULL, *key;
    int open = 0;

    if (json_is_string(json_object_get(model, "formula")))
        formula = json_string_value(json_object_get(model, "formula"));
    else if (json_is_string(json_object_get(answer, "formula")))
        formula = json_string_value(json_object_get(answer, "formula"));
    if (formula) {
        page_puts(p, "<h2>Formula</h2>\n<code class=\"formula\">");
        page_text(p, formula);
        page_puts(p, "</code>\n");
    }
    if (json_is_string(json_object_get(answer, "parsed"))) {
        page_puts(p, "<h3>With the system's parameters substituted</h3>\n"
                     "<code class=\"formula\">");
        page_text(p, json_string_value(json_object_get(answer, "parsed")));
        page_puts(p, "</code>\n");
    }
    page_puts(p, "<h2>Key figures</h2>\n");
    if (json_is_object(model))
        facts_of(p, model, &open);
    facts_of(p, answer, &open);
    v = json_object_get(model, "coefficients");
    if (!json_is_array(v))
        v = json_object_get(answer, "coefficients");
    if (json_is_array(v) && json_array_size(v) > 0) {
        size_t i;
        json_t *c;
        if (!open) {
            page_puts(p, "<dl class=\"facts\">\n");
            open = 1;
        }
        page_puts(p, "<dt>coefficients</dt><dd>");
        json_array_foreach(v, i, c)
        {
            page_printf(p, "%sa%zu = ", i ? ", " : "", i);
            page_json(p, c);
        }
        page_puts(p, "</dd>\n");
    } else if (json_is_object(v)) {
        json_t *c;
        if (!open) {
            page_puts(p, "<dl class=\"facts\">\n");
            open = 1;
        }
        json_object_foreach(v, key, c)
        {
            page_puts(p, "<dt>coefficient ");
            page_text(p, key);
            page_puts(p, "</dt><dd>");
            page_json(p, c);
            page_puts(p, "</dd>\n");
        }
    }
    if (open)
        page_puts(p, "</dl>\n");
    else
        page_puts(p,
                  "<p class=\"muted\">The answer holds no single-valued figures.</p>\n");
}

void page_model_answer(struct page *p, json_t *answer)
{
    const char *key, *yunit = units_of_y(json_string_value(json_object_get(answer, "y")));
    json_t *v;
    page_model_facts(p, answer);
    /* Arrays of records: predictions first, then whatever else the method
     * reports (couplings, kernels, points), each as a table. */
    v = json_object_get(answer, "predictions");
    if (json_is_array(v) && json_array_size(v) > 0)
        json_table(p, "predictions", "Predictions", v, 200, yunit);
    json_object_foreach(answer, key, v)
    {
        if (strcmp(key, "predictions") == 0 || !json_is_array(v) ||
            json_array_size(v) == 0 || !json_is_object(json_array_get(v, 0)))
            continue;
        json_table(p, key, key, v, 50, yunit);
    }
}
