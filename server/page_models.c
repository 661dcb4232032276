/* page_models: saved models (/models) and one model (/models/{id}): method,
 * formula, the stored answer's key figures, its plot, a prediction form, the
 * permanent link and the JSON link.
 *
 * A saved model is its stored request and answer (server/modeling.h); this
 * page never re-fits. The prediction form is a GET form (one field per
 * variable of the model) whose result comes from the method's predict
 * function, method_find(method)->predict, as GET /api/v1/models/{id}/predict
 * does. The plot is the <img> of /plots/model-{id}.svg, shown when the route
 * table serves that URL.
 */
#include "db/catalog.h"
#include "server/modeling.h"
#include "server/dash.h"
#include "server/routes.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_VARS 8

static const char *str(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : "";
}

int page_models(struct req *r)
{
    struct err e = {0};
    struct page p;
    json_t *list, *m;
    size_t i;
    db *d = db_pool_get(r->app->pool);

    list = db_models_list(d, 1000, &e);
    db_pool_put(r->app->pool, d);
    if (list == NULL)
        return dash_error(r, &e);
    dash_begin(&p, r, "Saved models", "models");
    page_puts(&p,
              "<h1>Saved models</h1>\n<p class=\"lead\">Models built by curve fitting, "
              "parameterization or kernel coupling and saved with "
              "<code>\"save\": true</code>. Each has a permanent page and answers "
              "predictions. JSON: <a href=\"/api/v1/models\">/api/v1/models</a>.</p>\n");
    if (json_array_size(list) == 0) {
        page_puts(&p, "<p class=\"muted\">No saved models yet.</p>\n");
    } else {
        page_table_open(&p, "Saved models");
        page_puts(&p, "<thead><tr><th class=\"num\">Model</th><th>Method</th>"
                      "<th>Application</th><th>Formula</th><th>Saved</th></tr></thead>"
                      "<tbody>\n");
        json_array_foreach(list, i, m)
        {
            long long id = json_integer_value(json_object_get(m, "id"));
            page_printf(
                &p, "<tr><td class=\"num\"><a href=\"/models/%lld\">%lld</a></td><td>",
                id, id);
            page_text(&p, str(m, "method"));
            page_puts(&p, "</td><td>");
            if (*str(m, "application"))
                page_link(&p, "/applications/", str(m, "application"), NULL);
            page_puts(&p, "</td><td><code>");
            page_text(&p, str(m, "formula"));
            page_puts(&p, "</code></td><td>");
            page_text(&p, str(m, "created_at"));
            page_puts(&p, "</td></tr>\n");
        }
        page_puts(&p, "</tbody>");
        page_table_close(&p);
        if (json_array_size(list) == 1000)
            page_puts(&p, "<p class=\"muted\">The 1000 newest models.</p>\n");
    }
    json_decref(list);
    return dash_end(r, &p, 200);
}

/* The variables a saved model is evaluated over: the answer's "vars" (an
 * array of names), else the request's "vars" (object keys or names), else
 * its "x", else "x". */
static size_t model_vars(json_t *request, json_t *answer, const char **out)
{
    json_t *v = json_object_get(answer, "vars"), *x;
    const char *key;
    size_t n = 0, i;
    if (!json_is_array(v))
        v = json_object_get(request, "vars");
    if (json_is_array(v)) {
        json_array_foreach(v, i, x) if (json_is_string(x) && n < MAX_VARS) out[n++] =
            json_string_value(x);
    } else if (json_is_object(v)) {
        json_object_foreach(v, key, x) if (n < MAX_VARS) out[n++] = key;
    }
    if (n == 0)
        out[n++] = json_is_string(json_object_get(request, "x"))
                       ? json_string_value(json_object_get(request, "x"))
                       : "x";
    return n;
}

/* Reads the point from the query string. Returns 1 when every variable was
 * given, 0 when none was (no prediction asked), -1 with err naming the
 * variable at fault. */
static int query_point(struct req *r, const char **vars, size_t nv, json_t *point,
                       struct err *err)
{
    size_t i, given = 0;
    for (i = 0; i < nv; i++) {
        const char *s = http_query(r, vars[i]);
        char *end;
        double x;
        if (s == NULL || *s == '\0')
            continue;
        errno = 0;
        x = strtod(s, &end);
        if (*end != '\0' || errno == ERANGE || !isfinite(x))
            return err_invalid(err, vars[i], "%.64s must be a finite number", vars[i]);
        json_object_set_new(point, vars[i], json_real(x));
        given++;
    }
    if (given == 0)
        return 0;
    if (given < nv) {
        for (i = 0; i < nv && json_object_get(point, vars[i]); i++)
            ;
        return err_invalid(err, vars[i], "give a value for %.64s too", vars[i]);
    }
    return 1;
}

static void predict_form(struct page *p, struct req *r, long long id, const char *method,
                         json_t *request, json_t *answer)
{
    const struct method *m = method_find(method);
    const char *vars[MAX_VARS];
    size_t nv = model_vars(request, answer, vars), i;
    struct err e = {0};
    json_t *point = json_object(), *res = NULL;
    int asked;

    if (m == NULL || m->predict == NULL) {
        json_decref(point);
        return;
    }
    asked = query_point(r, vars, nv, point, &e);
    if (asked == 1)
        res = m->predict(answer, point, &e);
    page_printf(p,
                "<h2 id=\"predict\">Predict</h2>\n<form class=\"card\" method=\"get\" "
                "action=\"/models/%lld#predict\">\n<div class=\"fields\">\n",
                id);
    for (i = 0; i < nv; i++) {
        const char *val = http_query(r, vars[i]);
        int bad = e.status && strcmp(e.field, vars[i]) == 0;
        page_printf(p, "<div class=\"field\"><label for=\"v-%zu\">", i);
        page_text(p, vars[i]);
        page_printf(p,
                    "</label><input type=\"text\" inputmode=\"decimal\" id=\"v-%zu\" "
                    "name=\"",
                    i);
        page_attr(p, vars[i]);
        page_puts(p, "\" value=\"");
        page_attr(p, val ? val : "");
        page_puts(p, "\" required");
        if (bad)
            page_printf(p, " aria-invalid=\"true\" aria-describedby=\"v-%zu-error\"", i);
        page_puts(p, ">");
        if (bad) {
            page_printf(p, "<p class=\"field-error\" id=\"v-%zu-error\">", i);
            page_text(p, e.message);
            page_puts(p, "</p>");
        }
        page_puts(p, "</div>\n");
    }
    page_puts(p, "</div>\n<button type=\"submit\">Predict</button>\n</form>\n");
    if (res != NULL) {
        json_t *lo = json_object_get(res, "lo"), *hi = json_object_get(res, "hi");
        page_puts(p, "<p class=\"notice good\" id=\"prediction\" role=\"status\">"
                     "Predicted: <strong>");
        page_num(p, json_number_value(json_object_get(res, "y")));
        page_puts(p, "</strong>");
        if (json_is_number(lo) && json_is_number(hi)) {
            page_puts(p, " (95 % prediction interval ");
            page_num(p, json_number_value(lo));
            page_puts(p, " to ");
            page_num(p, json_number_value(hi));
            page_puts(p, ")");
        }
        page_puts(p, "</p>\n");
    } else if (e.status && e.field[0] == '\0') {
        page_puts(p, "<p class=\"notice bad\">");
        page_text(p, e.message);
        page_puts(p, "</p>\n");
    } else if (asked == 1 && e.status) {
        /* An error naming a field the form does not have. */
        int shown = 0;
        for (i = 0; i < nv; i++)
            shown |= strcmp(e.field, vars[i]) == 0;
        if (!shown) {
            page_puts(p, "<p class=\"notice bad\">");
            page_text(p, e.message);
            page_puts(p, "</p>\n");
        }
    }
    json_decref(res);
    json_decref(point);
}

/* The <img> of the model's plot, or a note when the answer has none to draw
 * (a parameterization at one point): the plot is rendered here once to know,
 * so the page never links an image that would fail. */
static void plot(struct page *p, const char *method, json_t *answer, const char *url,
                 long long id)
{
    const struct method *m = method_find(method);
    struct err e = {0};
    struct buf svg;
    int ok;

    if (m == NULL || m->plot == NULL)
        return;
    buf_init(&svg, 16u << 20);
    ok = m->plot(answer, &svg, &e) == 0;
    buf_free(&svg);
    if (ok) {
        page_printf(p,
                    "<figure class=\"plot\"><img src=\"%s\" alt=\"Plot of model %lld\" "
                    "width=\"760\" height=\"480\"></figure>\n",
                    url, id);
    } else {
        page_puts(p, "<p class=\"muted\">No plot: ");
        page_text(p, e.message);
        page_puts(p, "</p>\n");
    }
}

int page_model(struct req *r)
{
    struct err e = {0};
    struct page p;
    json_t *m, *request, *answer;
    char *end, title[48], url[64];
    long long id;
    db *d;

    errno = 0;
    id = strtoll(r->params[0], &end, 10);
    if (*end != '\0' || errno == ERANGE || id < 1) {
        err_set(&e, 404, "not_found", NULL, "no model with id %.40s", r->params[0]);
        return dash_error(r, &e);
    }
    d = db_pool_get(r->app->pool);
    m = db_model_get(d, id, &e);
    db_pool_put(r->app->pool, d);
    if (m == NULL)
        return dash_error(r, &e);
    request = json_object_get(m, "request");
    answer = json_object_get(m, "result");
    snprintf(title, sizeof title, "Model %lld", id);
    dash_begin(&p, r, title, "models");
    page_printf(&p,
                "<p class=\"crumbs\"><a href=\"/models\">Saved models</a> ›</p>\n"
                "<h1>Model %lld <span class=\"muted\">(",
                id);
    page_text(&p, str(m, "method"));
    page_puts(&p, ")</span></h1>\n<dl class=\"facts\">\n<dt>Method</dt><dd>");
    page_text(&p, str(m, "method"));
    page_puts(&p, "</dd>\n<dt>Application</dt><dd>");
    if (*str(m, "application"))
        page_link(&p, "/applications/", str(m, "application"), NULL);
    else
        page_puts(&p, "<span class=\"muted\">inline data</span>");
    page_puts(&p, "</dd>\n<dt>Saved</dt><dd>");
    page_text(&p, str(m, "created_at"));
    page_printf(
        &p,
        "</dd>\n<dt>Permanent link</dt><dd><a href=\"/models/%lld\">/models/%lld</a>"
        "</dd>\n<dt>JSON</dt><dd><a href=\"/api/v1/models/%lld\">/api/v1/models/"
        "%lld</a></dd>\n</dl>\n",
        id, id, id, id);
    if (*str(m, "formula") && !json_object_get(answer, "model") &&
        !json_object_get(answer, "formula")) {
        page_puts(&p, "<h2>Formula</h2>\n<code class=\"formula\">");
        page_text(&p, str(m, "formula"));
        page_puts(&p, "</code>\n");
    }
    snprintf(url, sizeof url, "/plots/model-%lld.svg", id);
    if (routes_serves("GET", url))
        plot(&p, str(m, "method"), answer, url, id);
    if (json_is_object(answer))
        page_model_answer(&p, answer);
    predict_form(&p, r, id, str(m, "method"), request, answer);
    if (json_is_object(request)) {
        char *s = json_dumps(request, JSON_INDENT(2) | JSON_REAL_PRECISION(16));
        page_puts(&p, "<h2>Request</h2>\n");
        page_pre(&p, s ? s : "");
        free(s);
    }
    json_decref(m);
    return dash_end(r, &p, 200);
}
