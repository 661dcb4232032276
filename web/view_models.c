/* view_models: saved models (/models) and one model (/models/{id}): method,
 * formula, the stored answer's key figures, its plot, a prediction form, the
 * permanent link and the JSON link; see view.h.
 *
 * A saved model is its stored request and answer; the page never re-fits.
 * The prediction form is a GET form (one field per variable of the model);
 * the adapter (server/dash_models.c) asks the method for the prediction and
 * whether the answer can be plotted, and hands both here.
 */
#include "web/chart.h"
#include "web/methods.h"
#include "common/units.h"
#include "web/view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *str(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : "";
}

void view_models(struct page *p, json_t *list)
{
    json_t *m;
    size_t i;

    page_puts(p,
              "<h1>Saved models</h1>\n<p class=\"lead\">Models built by curve fitting, "
              "parameterization or kernel coupling and saved with "
              "<code>\"save\": true</code>. Each has a permanent page and answers "
              "predictions. JSON: <a href=\"/api/v1/models\">/api/v1/models</a>.</p>\n");
    if (json_array_size(list) == 0) {
        page_puts(p, "<p class=\"muted\">No saved models yet.</p>\n");
    } else {
        page_table_open(p, "Saved models");
        page_puts(p, "<thead><tr><th class=\"num\">Model</th><th>Name</th><th>Method</th>"
                     "<th>Application</th><th>Formula</th><th>Saved</th></tr></thead>"
                     "<tbody>\n");
        json_array_foreach(list, i, m)
        {
            long long id = json_integer_value(json_object_get(m, "id"));
            page_printf(
                p, "<tr><td class=\"num\"><a href=\"/models/%lld\">%lld</a></td><td>", id,
                id);
            if (*str(m, "name"))
                page_link(p, "/models/", arena_printf(p->arena, "%lld", id),
                          str(m, "name"));
            page_puts(p, "</td><td>");
            page_text(p, str(m, "method"));
            page_puts(p, "</td><td>");
            if (*str(m, "application"))
                page_link(p, "/applications/", str(m, "application"), NULL);
            page_puts(p, "</td><td>");
            page_law(p, str(m, "formula"));
            page_puts(p, "</td><td class=\"when\">");
            page_when(p, str(m, "created_at"));
            page_puts(p, "</td></tr>\n");
        }
        page_puts(p, "</tbody>");
        page_table_close(p);
        if (json_array_size(list) == 1000)
            page_puts(p, "<p class=\"muted\">The 1000 newest models.</p>\n");
    }
}

/* The unit of a saved model's y (its request's; a coupling's is the
 * runtime): seconds, or a metric's own. */
static const char *model_unit(const json_t *m)
{
    return units_of_y(
        json_string_value(json_object_get(json_object_get(m, "request"), "y")));
}

static void predict_form(struct page *p, const struct view_model *d)
{
    const char *unit = model_unit(d->model);
    const struct err *err = d->error;
    struct err none = {0};
    const struct err *ep = err ? err : &none;
    json_t *res = d->prediction;
    size_t nv = d->nvars, i;
    long long id = d->id;

    page_printf(p,
                "<h2 id=\"predict\">Predict</h2>\n<form class=\"card\" method=\"get\" "
                "action=\"/models/%lld#predict\">\n<div class=\"fields\">\n",
                id);
    for (i = 0; i < nv; i++) {
        const char *val = d->values[i];
        int bad = ep->status && strcmp(ep->field, d->vars[i]) == 0;
        page_printf(p, "<div class=\"field\"><label for=\"v-%zu\">", i);
        page_text(p, d->vars[i]);
        page_printf(p,
                    "</label><input type=\"text\" inputmode=\"decimal\" id=\"v-%zu\" "
                    "name=\"",
                    i);
        page_attr(p, d->vars[i]);
        page_puts(p, "\" value=\"");
        page_attr(p, val ? val : "");
        page_puts(p, "\" required");
        if (bad)
            page_printf(p, " aria-invalid=\"true\" aria-describedby=\"v-%zu-error\"", i);
        page_puts(p, ">");
        if (bad) {
            page_printf(p, "<p class=\"field-error\" id=\"v-%zu-error\">", i);
            page_text(p, ep->message);
            page_puts(p, "</p>");
        }
        page_puts(p, "</div>\n");
    }
    page_puts(p, "</div>\n<button type=\"submit\">Predict</button>\n</form>\n");
    if (res != NULL) {
        json_t *lo = json_object_get(res, "lo"), *hi = json_object_get(res, "hi");
        /* green only for a prediction without a warning, as the fit form */
        page_printf(p,
                    "<p class=\"notice%s\" id=\"prediction\" role=\"status\">"
                    "Predicted: ",
                    json_object_get(res, "warning") ? "" : " good");
        page_value(p, "predicted", json_number_value(json_object_get(res, "y")), unit);
        if (json_is_number(lo) && json_is_number(hi)) {
            page_puts(p, " (95 % prediction interval ");
            page_qty(p, json_number_value(lo), unit);
            page_puts(p, " to ");
            page_qty(p, json_number_value(hi), unit);
            page_puts(p, ")");
        }
        page_puts(p, "</p>\n");
        view_reach(p, res, "prediction"); /* its reach and warning, as the API */
    } else if (ep->status && ep->field[0] == '\0') {
        page_puts(p, "<p class=\"notice bad\">");
        page_text(p, ep->message);
        page_puts(p, "</p>\n");
    } else if (d->asked && ep->status) {
        /* An error naming a field the form does not have. */
        int shown = 0;
        for (i = 0; i < nv; i++)
            shown |= strcmp(ep->field, d->vars[i]) == 0;
        if (!shown) {
            page_puts(p, "<p class=\"notice bad\">");
            page_text(p, ep->message);
            page_puts(p, "</p>\n");
        }
    }
}

#define LEDGER_ROWS 20 /* the newest judgements the model page lists */

/* "This model has seen N runs since it was saved; X % inside its interval"
 * and the newest judgements, from the prediction ledger (core/watch.h). */
static void ledger_section(struct page *p, long long id, json_t *led, const char *unit)
{
    json_t *rows = json_object_get(led, "entries"), *e;
    size_t n = json_array_size(rows), i;

    page_puts(p, "<h2 id=\"ledger\">Prediction ledger</h2>\n");
    if (n == 0) {
        page_printf(
            p,
            "<p class=\"muted\">No run has been judged against this model yet. "
            "A watch on it (<code>POST /api/v1/watches</code> with "
            "<code>{\"detector\": {\"model\": %lld}}</code>) judges every new run "
            "of its selection.</p>\n",
            id);
        return;
    }
    page_printf(p, "<p>This model has seen %zu run%s since it was saved; ", n,
                n == 1 ? "" : "s");
    page_num(p, 100 * json_number_value(json_object_get(led, "coverage")));
    page_puts(p, " % inside its interval");
    if (json_is_number(json_object_get(led, "mean_abs_error"))) {
        page_puts(p, "; mean error ");
        page_num(p, 100 * json_number_value(json_object_get(led, "mean_abs_error")));
        page_puts(p, " %");
    }
    page_printf(p,
                ". <a href=\"/api/v1/models/%lld/ledger\">The whole ledger as JSON</a>."
                "</p>\n",
                id);
    page_table_open(p, "Newest judgements");
    page_puts(p, "<thead><tr><th>Time (UTC)</th><th class=\"num\">Run</th><th>Commit</th>"
                 "<th class=\"num\">x</th><th class=\"num\">Predicted</th>"
                 "<th>Interval</th><th class=\"num\">Actual</th>"
                 "<th>Verdict</th></tr></thead><tbody>\n");
    for (i = n; i > 0 && i + LEDGER_ROWS > n; i--) { /* newest first */
        e = json_array_get(rows, i - 1);
        int inside = json_is_true(json_object_get(e, "inside"));
        page_printf(p, "<tr%s><td class=\"when\">", inside ? "" : " class=\"alert\"");
        page_when(p, str(e, "at"));
        page_printf(
            p, "</td><td class=\"num\"><a href=\"/runs/%lld\">%lld</a></td><td><code>",
            (long long)json_integer_value(json_object_get(e, "run")),
            (long long)json_integer_value(json_object_get(e, "run")));
        page_text(p, str(e, "commit"));
        page_puts(p, "</code></td><td class=\"num\">");
        page_num(p, json_number_value(json_object_get(e, "x")));
        page_puts(p, "</td><td class=\"num\">");
        page_qty(p, json_number_value(json_object_get(e, "predicted")), unit);
        page_puts(p, "</td><td>[");
        page_qty(p, json_number_value(json_object_get(e, "lo")), unit);
        page_puts(p, ", ");
        page_qty(p, json_number_value(json_object_get(e, "hi")), unit);
        page_puts(p, "]</td><td class=\"num\">");
        page_qty(p, json_number_value(json_object_get(e, "actual")), unit);
        page_printf(p, "</td><td>%s</td></tr>\n", inside ? "inside" : "outside");
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
}

/* What a fit was made of: its runs' count, executable and variables (the
 * answer's "selection"; x its first variable). */
static void selection_fact(struct page *p, json_t *answer)
{
    json_t *sel = json_object_get(answer, "selection");
    const char *x = json_string_value(json_array_get(json_object_get(answer, "vars"), 0));
    long long runs = (long long)json_integer_value(json_object_get(sel, "runs"));
    page_printf(p, "</dd>\n<dt>Fitted to</dt><dd id=\"selection\">%lld run%s", runs,
                runs == 1 ? "" : "s");
    if (*str(sel, "executable")) {
        page_puts(p, " of ");
        page_text(p, str(sel, "executable"));
    }
    page_selection_vars(p, sel, x ? x : "x");
}

/* What a coupling of the database form was made of: the kernel records of
 * the runs of its fixed variables, and what changes with x (the answer's
 * "fixed" and "varies_with_x", as a fit's "selection" has them). */
static void couple_fact(struct page *p, json_t *answer)
{
    page_puts(p, "</dd>\n<dt>Fitted to</dt><dd id=\"selection\">the kernel records of "
                 "the runs");
    if (*str(answer, "executable")) {
        page_puts(p, " of ");
        page_text(p, str(answer, "executable"));
    }
    page_selection_vars(p, answer, *str(answer, "x") ? str(answer, "x") : "x");
}

/* The machine curve a fit followed (its answer's "model.basis"): the
 * benchmark, the series it was fitted on (test and label, as the system page
 * names it) and the arguments it was measured over. */
static void basis_fact(struct page *p, json_t *answer)
{
    json_t *b = json_object_get(json_object_get(answer, "model"), "basis");
    double scale = json_number_value(json_object_get(b, "scale")),
           power = json_number_value(json_object_get(b, "power"));

    if (!json_is_object(b))
        return;
    page_puts(p, "</dd>\n<dt>Machine curve</dt><dd id=\"basis\">");
    page_text(p, str(b, "name"));
    if (*str(b, "test") || *str(b, "label")) {
        page_puts(p, " (");
        page_text(p, str(b, "test"));
        page_puts(p, *str(b, "test") && *str(b, "label") ? " \xc2\xb7 " : "");
        page_text(p, str(b, "label"));
        page_puts(p, ")");
    }
    /* the arguments as measured (message sizes in bytes: 4194304, not 4.1943e+06) */
    page_printf(p, ", %lld points from %.15g to %.15g",
                (long long)json_integer_value(json_object_get(b, "points")),
                json_number_value(json_object_get(b, "from")),
                json_number_value(json_object_get(b, "to")));
    if ((scale != 0 && scale != 1) || (power != 0 && power != 1)) {
        page_puts(p, ", read at ");
        page_num(p, scale);
        page_puts(p, "\xc2\xb7x^");
        page_num(p, power);
    }
}

void view_model(struct page *p, const struct view_model *d)
{
    json_t *m = d->model;
    json_t *request = json_object_get(m, "request"),
           *answer = json_object_get(m, "result");
    long long id = d->id;

    page_puts(p, "<p class=\"crumbs\"><a href=\"/models\">Saved models</a> ›</p>\n<h1>");
    /* the name it was saved with ("name" beside "save"), else its number */
    if (*str(m, "name")) {
        page_text(p, str(m, "name"));
        page_printf(p, " <span class=\"muted\">(model %lld, ", id);
    } else {
        page_printf(p, "Model %lld <span class=\"muted\">(", id);
    }
    page_text(p, str(m, "method"));
    page_puts(p, ")</span></h1>\n<dl class=\"facts\">\n<dt>Method</dt><dd>");
    page_text(p, str(m, "method"));
    page_puts(p, "</dd>\n<dt>Application</dt><dd>");
    if (*str(m, "application"))
        page_link(p, "/applications/", str(m, "application"), NULL);
    else
        page_puts(p, "<span class=\"muted\">inline data</span>");
    if (*str(m, "system")) {
        page_puts(p, "</dd>\n<dt>System</dt><dd>");
        page_link(p, "/systems/", str(m, "system"), NULL);
    }
    if (json_is_object(json_object_get(answer, "selection")))
        selection_fact(p, answer);
    else if (strcmp(str(m, "method"), "couple") == 0 && *str(answer, "application"))
        couple_fact(p, answer);
    basis_fact(p, answer);
    page_puts(p, "</dd>\n<dt>Saved</dt><dd>");
    page_text(p, str(m, "created_at"));
    page_printf(
        p,
        "</dd>\n<dt>Permanent link</dt><dd><a href=\"/models/%lld\">/models/%lld</a>"
        "</dd>\n<dt>JSON</dt><dd><a href=\"/api/v1/models/%lld\">/api/v1/models/"
        "%lld</a>",
        id, id, id, id);
    if (d->plot_url) {
        page_puts(p, "</dd>\n<dt>Plot</dt><dd><a href=\"");
        page_attr(p, d->plot_url);
        page_puts(p, "\">");
        page_text(p, d->plot_url);
        page_puts(p, "</a>");
    }
    page_puts(p, "</dd>\n</dl>\n");
    if (*str(m, "formula") && !json_object_get(answer, "model") &&
        !json_object_get(answer, "formula")) {
        page_puts(p, "<h2>Formula</h2>\n<code class=\"formula\">");
        page_text(p, str(m, "formula"));
        page_puts(p, "</code>\n");
    }
    if (d->plot_url) {
        /* inline, as the form's result drew it: a phone gets its own drawing */
        const struct method *meth = method_find(str(m, "method"));
        struct err e = {0};
        if (meth == NULL || meth->plot == NULL ||
            chart_figure(p, meth->plot, answer, NULL, &e) != 0) {
            page_puts(p, "<p class=\"muted\">No plot: ");
            page_text(p, e.message[0] ? e.message : "the method draws none");
            page_puts(p, "</p>\n");
        }
    } else if (d->plot_error) {
        page_puts(p, "<p class=\"muted\">No plot: ");
        page_text(p, d->plot_error);
        page_puts(p, "</p>\n");
    }
    if (json_is_object(answer) && strcmp(str(m, "method"), "couple") == 0) {
        page_model_facts(p, answer); /* and its tables, as the coupling form's */
        view_couple_tables(p, answer);
    } else if (json_is_object(answer)) {
        page_model_answer(p, answer);
    }
    if (d->predictable)
        predict_form(p, d);
    if (d->ledger != NULL)
        ledger_section(p, id, d->ledger, model_unit(d->model));
    if (json_is_object(request)) {
        char *s = json_dumps(request, JSON_INDENT(2) | JSON_REAL_PRECISION(16));
        page_puts(p, "<h2>Request</h2>\n");
        page_pre(p, s ? s : "");
        free(s);
    }
}
