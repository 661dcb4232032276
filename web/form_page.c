/* form_page: a form's pages (steps, errors next to fields, result layout,
 * Save form, the JSON link), the driver's pure parts and the /model page;
 * see form.h. Routes: GET /model (the three methods), GET and POST
 * /model/{fit,parameterize,couple} (steps and result; Save). */
#include "web/chart.h"
#include "web/form.h"
#include "web/html.h"
#include "formats/limits.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Appends the state's fields of steps 1..upto as a query string (raw, for
 * an attribute pass it through page_attr), steps in order, then step=. */
static void state_query(struct fctx *c, struct buf *b, int upto, const char *step)
{
    size_t i;
    int k, first = 1;
    for (k = 1; k <= upto; k++)
        for (i = 0; i < c->st.n; i++) {
            const struct form_field *x = &c->st.fields[i];
            if (c->def->field_step(x->name) != k || form_get(&c->st, x->name) != x->value)
                continue;
            buf_puts(b, first ? "" : "&");
            web_url_encode(b, x->name);
            buf_putc(b, '=');
            web_url_encode(b, x->value);
            first = 0;
        }
    if (step)
        buf_printf(b, "%sstep=%s", first ? "" : "&", step);
}

/* href of the form at `step` with every field of the state. */
static void step_href(struct fctx *c, const char *step, const char *extra)
{
    struct buf b;
    buf_init(&b, 1 << 20);
    buf_puts(&b, c->def->path);
    buf_putc(&b, '?');
    state_query(c, &b, c->def->nsteps, step);
    if (extra)
        buf_puts(&b, extra);
    page_attr(&c->p, buf_str(&b));
    buf_free(&b);
}

/* ---- result pieces ------------------------------------------------------------------
 */

void forms_plot(struct fctx *c, int (*fn)(json_t *, struct buf *, struct err *),
                json_t *answer, const char *caption)
{
    struct err e = {0};
    if (fn == NULL)
        return; /* the method draws no such plot */
    if (chart_figure(&c->p, fn, answer, caption, &e) != 0) {
        page_puts(&c->p, "<p class=\"muted\">No plot: ");
        page_text(&c->p, e.message[0] ? e.message : "out of memory");
        page_puts(&c->p, "</p>\n");
    }
}

void forms_with_x(struct fctx *c, json_t *names)
{
    json_t *name;
    size_t i;
    json_array_foreach(names, i, name)
    {
        page_puts(&c->p, i ? ", " : "; ");
        page_text(&c->p, json_string_value(name));
    }
    if (json_array_size(names) > 0)
        page_printf(
            &c->p, " %s with the x axis (one value at each point: a weak-scaling series)",
            json_array_size(names) == 1 ? "changes" : "change");
}

/* ---- page layout ------------------------------------------------------------------- */

static void header(struct fctx *c, int shown)
{
    int k;
    char title[128];
    if (shown == FORM_RESULT)
        snprintf(title, sizeof title, "%s: result", c->def->title);
    else
        snprintf(title, sizeof title, "%s: step %d of %d", c->def->title, shown,
                 c->def->nsteps);
    page_begin_as(&c->p, c->arena, title, "model", c->user, c->header_csrf);
    c->p.csrf = NULL;
    page_puts(&c->p, "<p class=\"crumbs\"><a href=\"/model\">Model</a> ›</p>\n<h1>");
    page_text(&c->p, c->def->title);
    page_puts(&c->p, "</h1>\n<p class=\"lead\">");
    page_puts(&c->p, c->def->lead);
    page_puts(&c->p, "</p>\n<ol class=\"steps\" aria-label=\"Steps\">");
    for (k = 1; k <= c->def->nsteps + 1; k++) {
        int result = k > c->def->nsteps,
            here = result ? shown == FORM_RESULT : shown == k;
        const char *name = result ? "Result" : c->def->step_names[k - 1];
        if (here)
            page_puts(&c->p, "<li aria-current=\"step\">");
        else
            page_printf(&c->p, "<li%s>", k < shown ? " class=\"done\"" : "");
        if (!here && !result && k < shown) {
            char s[16];
            snprintf(s, sizeof s, "%d", k);
            page_puts(&c->p, "<a href=\"");
            step_href(c, s, NULL);
            page_puts(&c->p, "\">");
        }
        if (result)
            page_puts(&c->p, "Result");
        else {
            page_printf(&c->p, "%d. ", k);
            page_text(&c->p, name);
        }
        if (!here && !result && k < shown)
            page_puts(&c->p, "</a>");
        page_puts(&c->p, "</li>");
    }
    page_puts(&c->p, "</ol>\n");
    if (shown > 1) {
        page_puts(&c->p, "<dl class=\"facts choices\">\n");
        for (k = 1; k < shown && k <= c->def->nsteps; k++) {
            char s[16];
            snprintf(s, sizeof s, "%d", k);
            page_printf(&c->p, "<dt>%d. ", k);
            page_text(&c->p, c->def->step_names[k - 1]);
            page_puts(&c->p, "</dt><dd>");
            c->def->summary(c, k);
            page_puts(&c->p, " <a class=\"change\" href=\"");
            step_href(c, s, NULL);
            page_puts(&c->p, "\">change</a></dd>\n");
        }
        page_puts(&c->p, "</dl>\n");
    }
}

static void error_notice(struct fctx *c)
{
    if (!c->err.status)
        return;
    page_puts(&c->p, "<div class=\"notice bad\" role=\"alert\" id=\"form-error\">");
    if (c->err_field) {
        page_puts(&c->p, "Not computed: see the field marked below.");
    } else {
        page_puts(&c->p, "Not computed: ");
        page_text(&c->p, c->err.message);
    }
    page_puts(&c->p, "</div>\n");
}

void forms_step_page(struct fctx *c, int k)
{
    size_t i;
    int last = k == c->def->nsteps;
    header(c, k);
    if (c->empty && c->err.status) {
        /* nothing to choose from: no form to fill, no error of the user's;
         * the message is a sentence without its capital and full stop */
        char first[2] = {(char)toupper((unsigned char)c->err.message[0]), '\0'};
        page_puts(&c->p, "<div class=\"notice\" id=\"form-empty\">");
        page_text(&c->p, first);
        page_text(&c->p, c->err.message + (first[0] != '\0'));
        page_puts(&c->p, ".</div>\n");
        return;
    }
    error_notice(c);
    page_printf(&c->p,
                "<form class=\"card step\" method=\"get\" action=\"%s\" "
                "id=\"step-form\"%s>\n",
                c->def->path, k == 1 ? " data-autosubmit" : "");
    for (i = 0; i < c->st.n; i++) {
        const struct form_field *x = &c->st.fields[i];
        int s = c->def->field_step(x->name);
        if (s < 1 || s == k || form_get(&c->st, x->name) != x->value)
            continue;
        page_puts(&c->p, "<input type=\"hidden\" name=\"");
        page_attr(&c->p, x->name);
        page_puts(&c->p, "\" value=\"");
        page_attr(&c->p, x->value);
        page_puts(&c->p, "\">");
    }
    page_printf(&c->p, "<input type=\"hidden\" name=\"step\" value=\"%d\">\n", k);
    page_printf(&c->p, "<h2>Step %d: ", k);
    page_text(&c->p, c->def->step_names[k - 1]);
    page_puts(&c->p, "</h2>\n");
    c->def->render_step(c, k);
    if (c->err.status && c->err_field && !c->err_shown) {
        page_puts(&c->p, "<p class=\"notice bad\">");
        page_text(&c->p, c->err.message);
        page_puts(&c->p, "</p>\n");
    }
    /* "next" first: it is the button Enter submits. The other one is the
     * fallback of the auto-submitting selects. */
    page_printf(&c->p,
                "<div class=\"buttons\"><button type=\"submit\" name=\"next\" "
                "value=\"1\" id=\"next\">%s</button>%s</div>\n</form>\n",
                last ? "Compute the model" : "Next",
                c->def->refresh & (1u << k)
                    ? "<button type=\"submit\" class=\"secondary\" id=\"refresh\">"
                      "Update the lists</button>"
                    : "");
}

/* The Save section. After a failed Save (save_err) it comes first, right
 * under the heading, so that the answer to the POST shows the error where
 * the page opens, with the result's permanent link beside it (app.js also
 * puts that link back in the address bar and focuses a refused token). */
static void save_section(struct fctx *c, const struct err *save_err, const char *csrf)
{
    int token_bad = save_err && save_err->status == ERR_UNAUTHORIZED;
    struct buf q;

    page_puts(&c->p, "<h2 id=\"save\">Save</h2>\n<p>A saved model keeps this answer: it "
                     "has a permanent page and answers predictions, and runs uploaded "
                     "later do not change it.</p>\n");
    if (save_err) {
        page_puts(&c->p, "<div class=\"notice bad\" role=\"alert\" id=\"save-error\">"
                         "Not saved: ");
        page_text(&c->p, save_err->message);
        {
            size_t n = strlen(save_err->message);
            page_puts(&c->p, n && save_err->message[n - 1] == '.' ? "" : ".");
        }
        page_puts(&c->p, " The result is unchanged: <a id=\"save-permalink\" "
                         "data-permalink href=\"");
        step_href(c, "result", NULL);
        page_puts(&c->p, "\">its permanent link</a>.</div>\n");
    }
    page_printf(&c->p,
                "<form class=\"card\" method=\"post\" action=\"%s\" "
                "id=\"save-form\" enctype=\"application/x-www-form-urlencoded\">\n"
                "<input type=\"hidden\" name=\"csrf\" value=\"",
                c->def->path);
    page_attr(&c->p, csrf);
    page_puts(&c->p, "\"><input type=\"hidden\" name=\"q\" value=\"");
    buf_init(&q, 1 << 20);
    state_query(c, &q, c->def->nsteps, NULL);
    page_attr(&c->p, buf_str(&q));
    buf_free(&q);
    /* the name it is listed by ("name" beside "save" in the API); optional */
    page_printf(
        &c->p,
        "\">\n<div class=\"fields\"><div class=\"field\"><label for=\"save-name\">"
        "Name <span class=\"hint\">optional, shown on its page and in the "
        "list</span></label><input type=\"text\" id=\"save-name\" name=\"name\" "
        "maxlength=\"%d\" placeholder=\"e.g. matmul on 8 procs, over N\" value=\"",
        LIMIT_NAME);
    page_attr(&c->p, c->save_name ? c->save_name : "");
    page_puts(&c->p, "\"></div>");
    if (c->user != NULL && !token_bad) {
        /* signed in: the session's token saves it */
        page_puts(&c->p, "</div>\n<p class=\"muted\" id=\"save-as\">Saved as ");
        page_text(&c->p, c->user);
        page_puts(&c->p, ".</p>\n<button type=\"submit\" id=\"save-button\">Save the "
                         "model</button>\n</form>\n");
        return;
    }
    page_puts(&c->p, "<div class=\"field\">"
                     "<label for=\"save-token\">Write token <span class=\"hint\">from "
                     "prophecyd token create NAME</span></label><input type=\"password\" "
                     "id=\"save-token\" name=\"token\" autocomplete=\"off\" required "
                     "placeholder=\"pt_…\"");
    if (token_bad)
        page_puts(&c->p, " aria-invalid=\"true\" aria-describedby=\"save-token-error\">"
                         "<p class=\"field-error\" id=\"save-token-error\">");
    else
        page_puts(&c->p, ">");
    if (token_bad) {
        page_text(&c->p, save_err->message);
        page_puts(&c->p, "</p>");
    }
    page_puts(&c->p, "</div></div>\n<button type=\"submit\" id=\"save-button\">Save the "
                     "model</button>\n</form>\n");
}

void forms_result_page(struct fctx *c, json_t *request, json_t *answer,
                       const struct err *save_err, const char *csrf)
{
    char *text;

    header(c, FORM_RESULT);
    if (save_err)
        save_section(c, save_err, csrf);
    c->def->render_result(c, request, answer);

    page_puts(&c->p, "<h2 id=\"links\">Links</h2>\n<dl class=\"facts\">\n"
                     "<dt>Permanent link</dt><dd><a id=\"permalink\" href=\"");
    step_href(c, "result", NULL);
    page_puts(&c->p, "\">this result</a> (the form's fields; computed again from the "
                     "runs stored when it is opened)</dd>\n<dt>JSON</dt><dd><a "
                     "id=\"json-link\" href=\"");
    step_href(c, "result", "&format=json");
    page_printf(&c->p,
                "\">the answer as JSON</a>, the same as <code>POST /api/v1/%s</code> "
                "with the request below</dd>\n</dl>\n",
                c->method_name);
    text = json_dumps(request, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
    page_printf(&c->p,
                "<details class=\"request\" id=\"request\"><summary>Request "
                "(<code>POST /api/v1/%s</code>)</summary>",
                c->method_name);
    page_pre(&c->p, text ? text : "");
    page_puts(&c->p, "</details>\n");
    free(text);

    if (save_err == NULL)
        save_section(c, NULL, csrf);
}

/* ---- the driver's pure parts ------------------------------------------------------ */

int forms_fail(struct fctx *c, const struct err *e, int upto)
{
    const char *field = NULL;
    int at;
    c->err = *e;
    c->err_field = NULL;
    c->err_shown = 0;
    at = c->def->error_at(c, &c->err, &field);
    c->err_field = field;
    return at >= 1 && at <= upto ? at : upto;
}

int forms_target(struct fctx *c, int *as_json)
{
    const char *s = fs_get(c, "step");
    int target = 1, n = c->def->nsteps;
    if (s && strcmp(s, "result") == 0)
        target = FORM_RESULT;
    else if (s && s[0] >= '1' && s[0] <= '0' + n && s[1] == '\0')
        target = s[0] - '0';
    if (fs_get(c, "next") && target != FORM_RESULT)
        target = target == n ? FORM_RESULT : target + 1;
    *as_json = (s = fs_get(c, "format")) != NULL && strcmp(s, "json") == 0;
    if (*as_json)
        target = FORM_RESULT;
    return target;
}

/* ---- /model
 * ----------------------------------------------------------------------------- */

void view_model_index(struct page *p)
{
    page_puts(
        p,
        "<h1>Build a model</h1>\n<p class=\"lead\">Three methods, each a short form that "
        "follows the Prophecy paper. Every step is a link you can keep; the result "
        "shows the model, its plot and its prediction, and can be saved.</p>\n"
        "<div class=\"methods\">\n"
        "<section class=\"card\"><h2><a href=\"/model/fit\">Curve fitting</a></h2>"
        "<p>Fit one of the paper's 12 graph types (or let the data choose) to the "
        "stored runs of an application on a system: runtime, speedup, efficiency, a "
        "metric or a kernel's time over processors or an input. Three steps: "
        "application and executable; graph type and axes; range, fixed values and "
        "prediction.</p></section>\n"
        "<section class=\"card\"><h2><a href=\"/model/parameterize\">Parameterization"
        "</a></h2><p>Evaluate an application's model template with a system's "
        "parameters (ADDM, MPISR(L), …) at a point, over a range or over a surface, "
        "and compare it with the measured runs. Two steps: template and system; the "
        "template's variables.</p></section>\n"
        "<section class=\"card\"><h2><a href=\"/model/couple\">Kernel coupling</a>"
        "</h2><p>Model an application as its kernels, each fitted on its own, "
        "composed with the coupling values measured between adjacent loop kernels. "
        "Three steps: application and system; a model per kernel and the loop; "
        "processors or input, range and prediction.</p></section>\n</div>\n"
        "<p>The same models over HTTP: <code>POST /api/v1/fit</code>, "
        "<code>/api/v1/parameterize</code>, <code>/api/v1/couple</code>; saved ones are "
        "under <a href=\"/models\">Models</a>.</p>\n");
}
