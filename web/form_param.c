/* form_param: parameterization in two steps (GET /model/parameterize):
 * 1. application (those with templates), template and system (those with
 * parameters); 2. every variable the template needs with this system's
 * parameters (expr_free_vars), fixed at a value or a range (min, max,
 * steps). The result is POST /api/v1/parameterize's answer for the request
 * {template, system, vars}. See form.h for the driver.
 *
 * Fields: application, template, system; mode.V (fixed | range), v.V, min.V,
 * max.V, steps.V for each variable V.
 *
 * With every variable fixed the answer is one value; the page then also
 * draws the model through that point over the first variable whose min and
 * max differ (prefilled from the runs), evaluated from the answer by the
 * method's predict (no second answer).
 */
#include "models/expr.h"
#include "web/form.h"
#include "web/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CURVE_SAMPLES 120

struct param_data {
    json_t *apps, *templates, *systems, *app_systems;
    const char *app, *tpl, *sys, *expression;
    struct fconf *cf;
    int ncf;
    int elsewhere; /* no run on the system: the values are the other systems' */
    const char *vars[EXPR_MAX_VARS];
    size_t nvars;
};

static struct param_data *pd(struct fctx *c)
{
    return forms_data(c, sizeof(struct param_data));
}

static const char *const var_fields[] = {"mode.", "v.", "min.", "max.", "steps."};

static int field_step(const char *n)
{
    size_t i;
    if (strcmp(n, "application") == 0 || strcmp(n, "template") == 0 ||
        strcmp(n, "system") == 0)
        return 1;
    for (i = 0; i < sizeof var_fields / sizeof var_fields[0]; i++) {
        size_t l = strlen(var_fields[i]);
        if (strncmp(n, var_fields[i], l) == 0 && n[l] != '\0')
            return 2;
    }
    return 0;
}

/* The process-count variable: its values are the runs' nprocs. */
static const char *run_var(const char *v)
{
    return strcmp(v, "P") == 0 ? "nprocs" : v;
}

/* The variables expression needs with system sys's parameters, into names;
 * -1 with err (field system) where the template fails with them. */
static int needs(struct fctx *c, const char *expression, const char *sys,
                 struct expr_names *names, struct err *err)
{
    json_t *rows = form_data_params(c->store, sys, err), *row;
    struct expr_param *ps;
    struct expr_param_head *heads;
    size_t i, n = 0;
    int rc = -1;

    if (rows == NULL)
        return -1;
    ps = arena_alloc(c->arena, (json_array_size(rows) + 1) * sizeof *ps);
    heads = arena_alloc(c->arena, (json_array_size(rows) + 1) * sizeof *heads);
    if (ps == NULL || heads == NULL) {
        err_nomem(err);
        goto out;
    }
    json_array_foreach(rows, i, row)
    {
        struct err ignored = {0};
        const char *sig = forms_str(row, "signature"),
                   *body = forms_str(row, "expression");
        if (sig == NULL || body == NULL || n >= EXPR_MAX_PARAMS ||
            expr_param_head_parse(sig, &heads[n], &ignored) != 0)
            continue;
        ps[n].name = heads[n].name;
        ps[n].args = heads[n].argv;
        ps[n].nargs = heads[n].nargs;
        ps[n].body = arena_strdup(c->arena, body);
        n++;
    }
    if (expr_free_vars(expression ? expression : "", ps, n, names, err) != 0) {
        /* The template does not fit this system's parameters. */
        char msg[ERR_MESSAGE_MAX];
        snprintf(msg, sizeof msg, "%s", err->message);
        memset(err, 0, sizeof *err);
        err_invalid(err, "system",
                    "with the parameters of %.100s, the template fails: %s", sys, msg);
        goto out;
    }
    rc = 0;
out:
    json_decref(rows);
    return rc;
}

/* Whether the template evaluates with system sys's parameters. */
static int fits(struct fctx *c, const char *expression, const char *sys)
{
    struct expr_names names = {0};
    struct err ignored = {0};
    int ok = needs(c, expression, sys, &names, &ignored) == 0;
    expr_names_free(&names);
    return ok;
}

/* The variables the template needs with the system's parameters. */
static int template_vars(struct fctx *c, struct param_data *d, struct err *err)
{
    struct expr_names names = {0};
    int rc = needs(c, d->expression, d->sys, &names, err);
    for (size_t i = 0; rc == 0 && i < names.n && d->nvars < EXPR_MAX_VARS; i++)
        d->vars[d->nvars++] = arena_strdup(c->arena, names.names[i]);
    expr_names_free(&names);
    return rc;
}

/* The default system: the first of those with parameters that the template
 * evaluates with, preferring one the application ran on; else the first the
 * application ran on, else the first. At most PARAM_SYSTEMS_TRIED are tried. */
#define PARAM_SYSTEMS_TRIED 64
static const char *default_system(struct fctx *c, struct param_data *d)
{
    const char *ran = NULL, *fit = NULL, *name;
    json_t *s;
    size_t i;
    json_array_foreach(d->systems, i, s)
    {
        int on = forms_in_list(d->app_systems, name = forms_str(s, "name"));
        int ok = i < PARAM_SYSTEMS_TRIED && fits(c, d->expression, name);
        if (on && ok)
            return name;
        if (on && ran == NULL)
            ran = name;
        if (ok && fit == NULL)
            fit = name;
    }
    return fit ? fit : ran ? ran : forms_str(json_array_get(d->systems, 0), "name");
}

static int check1(struct fctx *c, struct param_data *d, int strict, struct err *err)
{
    const char *v;
    json_t *all, *s;
    size_t i;

    d->apps = forms_list(c, FORM_LIST_TEMPLATE_APPS, NULL, NULL, err);
    if (d->apps == NULL)
        return -1;
    if (json_array_size(d->apps) == 0) {
        c->empty = 1;
        return err_invalid(err, "application",
                           "no application has a model template yet (POST "
                           "/api/v1/templates adds one)");
    }
    v = fs_val(c, "application");
    if (v == NULL)
        fs_set(c, "application", v = forms_str(json_array_get(d->apps, 0), "name"));
    else if (!forms_in_list(d->apps, v))
        return err_invalid(err, "application", "%.200s has no model templates", v);
    d->app = v;
    if ((d->templates = forms_keep(c, form_data_templates(c->store, d->app, err))) ==
        NULL)
        return -1;
    v = fs_get(c, "template");
    if (!forms_in_list(d->templates, v)) {
        if (v != NULL && strict)
            return err_invalid(err, "template", "%.200s has no template %.200s", d->app,
                               v);
        fs_set(c, "template", forms_str(json_array_get(d->templates, 0), "name"));
    }
    d->tpl = fs_val(c, "template");
    json_array_foreach(d->templates, i, s)
    {
        if (strcmp(forms_str(s, "name"), d->tpl) == 0)
            d->expression = forms_str(s, "expression");
    }
    /* Systems with parameters; by default the first one the application ran on. */
    if ((all = forms_keep(c, form_data_systems(c->store, err))) == NULL)
        return -1;
    d->systems = forms_keep(c, json_array());
    json_array_foreach(all, i, s)
    {
        if (json_integer_value(json_object_get(s, "parameters")) > 0)
            json_array_append(d->systems, s);
    }
    if (json_array_size(d->systems) == 0) {
        c->empty = 1;
        return err_invalid(err, "system",
                           "no system has parameters yet (POST "
                           "/api/v1/systems/NAME/parameters adds them)");
    }
    d->app_systems = forms_list(c, FORM_LIST_APP_SYSTEMS, d->app, NULL, err);
    if (d->app_systems == NULL)
        return -1;
    v = fs_get(c, "system");
    if (!forms_in_list(d->systems, v)) {
        if (v != NULL && strict)
            return err_invalid(err, "system", "%.200s has no parameters", v);
        fs_set(c, "system", default_system(c, d));
    }
    d->sys = fs_val(c, "system");
    return 0;
}

static int check2(struct fctx *c, struct param_data *d, int strict, struct err *err)
{
    long long app_id, sys_id;
    struct fval vals[FORMS_MAX_VALUES];
    size_t i, nv;
    int more;

    if (template_vars(c, d, err) != 0)
        return -1;
    if (form_data_ids(c->store, d->app, d->sys, &app_id, &sys_id, err) != 0)
        return -1;
    d->ncf = app_id > 0 && sys_id > 0 ? forms_configs(c, app_id, sys_id, &d->cf, err) : 0;
    if (d->ncf == 0 && app_id > 0) {
        /* a machine the application has not run on (the paper's use): its
         * values as measured elsewhere */
        d->ncf = forms_configs(c, app_id, 0, &d->cf, err);
        d->elsewhere = d->ncf > 0;
    }
    if (d->ncf < 0)
        return -1;
    for (i = 0; i < d->nvars; i++) {
        const char *V = d->vars[i], *mode = fs_get(c, fs_name(c, "mode.", V));
        double common;
        if (mode == NULL || (strcmp(mode, "fixed") != 0 && strcmp(mode, "range") != 0)) {
            if (mode != NULL && strict)
                return err_invalid(err, fs_name(c, "mode.", V),
                                   "choose fixed or range for %s", V);
            fs_set(c, fs_name(c, "mode.", V), "fixed");
        }
        nv = forms_values(d->cf, d->ncf, NULL, NULL, run_var(V), vals, FORMS_MAX_VALUES,
                          &more);
        common = forms_common(vals, nv);
        if (fs_get(c, fs_name(c, "v.", V)) == NULL)
            fs_set(c, fs_name(c, "v.", V), nv ? fnumtext(c, common) : "");
        if (fs_get(c, fs_name(c, "min.", V)) == NULL)
            fs_set(c, fs_name(c, "min.", V), nv ? fnumtext(c, vals[0].v) : "");
        if (fs_get(c, fs_name(c, "max.", V)) == NULL)
            fs_set(c, fs_name(c, "max.", V), nv ? fnumtext(c, vals[nv - 1].v) : "");
        if (fs_get(c, fs_name(c, "steps.", V)) == NULL)
            fs_set(c, fs_name(c, "steps.", V), "");
    }
    return 0;
}

static int check(struct fctx *c, int k, int strict, struct err *err)
{
    struct param_data *d = pd(c);
    if (d == NULL)
        return err_nomem(err);
    return k == 1 ? check1(c, d, strict, err) : check2(c, d, strict, err);
}

/* ---- steps ---------------------------------------------------------------------------
 */

static void names_select(struct fctx *c, json_t *list, const char *field,
                         const char *label, const char *hint, const char *count_key,
                         const char *unit)
{
    size_t n = json_array_size(list), i;
    const char **values = arena_alloc(c->arena, (n + 1) * sizeof *values);
    const char **labels = arena_alloc(c->arena, (n + 1) * sizeof *labels);
    json_t *x;
    if (values == NULL || labels == NULL)
        return;
    json_array_foreach(list, i, x)
    {
        values[i] = forms_str(x, "name");
        labels[i] =
            count_key
                ? arena_printf(
                      c->arena, "%s (%lld %s)", values[i],
                      (long long)json_integer_value(json_object_get(x, count_key)), unit)
                : values[i];
    }
    ff_select(c, field, label, hint, values, labels, n, fs_get(c, field), 1);
}

static void render1(struct fctx *c, struct param_data *d)
{
    page_puts(&c->p, "<div class=\"fields\">\n");
    names_select(c, d->apps, "application", "Application", "those with templates", NULL,
                 NULL);
    names_select(c, d->templates, "template", "Template", NULL, NULL, NULL);
    names_select(c, d->systems, "system", "System", "those with parameters", "parameters",
                 "parameters");
    page_puts(&c->p, "</div>\n");
    if (d->expression) {
        page_puts(&c->p, "<p class=\"muted\">Template: <code>");
        page_text(&c->p, d->expression);
        page_puts(&c->p, "</code></p>\n");
    }
}

static void render2(struct fctx *c, struct param_data *d)
{
    static const char *const modes[] = {"fixed", "range"};
    static const char *const mode_labels[] = {"fixed value", "range"};
    size_t i;

    page_puts(&c->p, "<p class=\"muted\">Template <code>");
    page_text(&c->p, d->expression);
    page_puts(&c->p,
              "</code>. Fix each variable at a value, or give one or two of them a "
              "range (one gives a curve, two a surface). With every variable "
              "fixed, the page draws the model through the point over the first "
              "variable whose from and to differ.</p>\n");
    if (d->elsewhere) {
        page_puts(&c->p, "<p class=\"muted\" id=\"values-elsewhere\">");
        page_text(&c->p, d->app);
        page_puts(&c->p, " has no runs on ");
        page_text(&c->p, d->sys);
        page_puts(&c->p,
                  ": the values below are those of its runs on other systems.</p>\n");
    }
    if (d->nvars == 0)
        page_puts(&c->p, "<p>The template uses no variables: it is one number.</p>\n");
    for (i = 0; i < d->nvars; i++) {
        const char *V = d->vars[i];
        ff_group_open(
            c,
            arena_printf(c->arena, "%s%s", V, strcmp(V, "P") == 0 ? " (processes)" : ""),
            NULL, NULL);
        ff_select(c, fs_name(c, "mode.", V), "as", NULL, modes, mode_labels, 2,
                  fs_get(c, fs_name(c, "mode.", V)), 0);
        ff_text(c, fs_name(c, "v.", V), "value", NULL, fs_get(c, fs_name(c, "v.", V)),
                NULL, "decimal");
        ff_text(c, fs_name(c, "min.", V), "from", NULL, fs_get(c, fs_name(c, "min.", V)),
                NULL, "decimal");
        ff_text(c, fs_name(c, "max.", V), "to", NULL, fs_get(c, fs_name(c, "max.", V)),
                NULL, "decimal");
        ff_text(c, fs_name(c, "steps.", V), "steps", "2 to 200",
                fs_get(c, fs_name(c, "steps.", V)), "50", "numeric");
        ff_group_close(c);
    }
}

static void render_step(struct fctx *c, int k)
{
    if (k == 1)
        render1(c, pd(c));
    else
        render2(c, pd(c));
}

static int is_range(struct fctx *c, const char *V)
{
    const char *m = fs_get(c, fs_name(c, "mode.", V));
    return m && strcmp(m, "range") == 0;
}

static void summary(struct fctx *c, int k)
{
    struct param_data *d = pd(c);
    size_t i;
    if (k == 1) {
        page_text(&c->p, d->tpl);
        page_puts(&c->p, " (");
        page_text(&c->p, d->app);
        page_puts(&c->p, ") on ");
        page_text(&c->p, d->sys);
        return;
    }
    for (i = 0; i < d->nvars; i++) {
        const char *V = d->vars[i];
        page_puts(&c->p, i ? ", " : "");
        page_text(&c->p, V);
        if (is_range(c, V)) {
            page_puts(&c->p, " from ");
            page_text(&c->p, fs_get(c, fs_name(c, "min.", V)));
            page_puts(&c->p, " to ");
            page_text(&c->p, fs_get(c, fs_name(c, "max.", V)));
        } else {
            page_puts(&c->p, " = ");
            page_text(&c->p, fs_get(c, fs_name(c, "v.", V)));
        }
    }
}

/* ---- request and answer -------------------------------------------------------------
 */

static json_t *request(struct fctx *c, struct err *err)
{
    struct param_data *d = pd(c);
    json_t *vars = json_object();
    size_t i;

    for (i = 0; i < d->nvars; i++) {
        const char *V = d->vars[i];
        double x, lo, hi, st;
        int rc;
        if (!is_range(c, V)) {
            const char *f = fs_name(c, "v.", V);
            if ((rc = fnum(fs_get(c, f), f, V, &x, err)) != 0) {
                if (rc > 0)
                    err_invalid(err, f, "give a value for %s (or make it a range)", V);
                goto fail;
            }
            json_object_set_new(vars, V, forms_jnum(x));
            continue;
        }
        if ((rc = fnum(fs_get(c, fs_name(c, "min.", V)), fs_name(c, "min.", V), "from",
                       &lo, err)) != 0 ||
            (rc = fnum(fs_get(c, fs_name(c, "max.", V)), fs_name(c, "max.", V), "to", &hi,
                       err)) != 0) {
            if (rc > 0)
                err_invalid(err, fs_name(c, "min.", V), "a range of %s needs from and to",
                            V);
            goto fail;
        }
        rc = fnum(fs_get(c, fs_name(c, "steps.", V)), fs_name(c, "steps.", V), "steps",
                  &st, err);
        if (rc < 0)
            goto fail;
        json_object_set_new(
            vars, V,
            rc == 0
                ? json_pack("[o, o, o]", forms_jnum(lo), forms_jnum(hi), forms_jnum(st))
                : json_pack("[o, o]", forms_jnum(lo), forms_jnum(hi)));
    }
    return json_pack("{s:s, s:s, s:o}", "template", d->tpl, "system", d->sys, "vars",
                     vars);
fail:
    json_decref(vars);
    return NULL;
}

static int error_at(struct fctx *c, const struct err *e, const char **field)
{
    const char *f = e->field;
    size_t n = strcspn(f, "[.");
    int s = field_step(f);

    *field = NULL;
    if (s > 0) {
        *field = f;
        return s;
    }
#define IS(name) (n == strlen(name) && strncmp(f, name, n) == 0)
    if (IS("expression") && strstr(e->message, "non-finite") != NULL)
        return 2; /* the values, not the template: "evaluates to a non-finite value at" */
    if (IS("template") || IS("expression")) {
        *field = "template";
        return 1;
    }
    if (IS("system") || IS("parameters")) {
        *field = "system";
        return 1;
    }
    if (IS("application")) {
        *field = "application";
        return 1;
    }
    if (IS("vars") && f[n] == '.') {
        const char *V = f + n + 1;
        if (!is_range(c, V))
            *field = fs_name(c, "v.", V);
        else if (strstr(e->message, "steps"))
            *field = fs_name(c, "steps.", V);
        else
            *field = fs_name(c, "min.", V);
    }
#undef IS
    return 2;
}

/* The model through the fixed point over one variable, from the answer. */
static void curve_through(struct fctx *c, json_t *ans)
{
    struct param_data *d = pd(c);
    json_t *vars = json_object_get(ans, "vars"), *point, *meas, *m;
    const char *over = NULL;
    double lo = 0, hi = 0, cx[CURVE_SAMPLES], cy[CURVE_SAMPLES];
    struct svg_point *pts;
    struct svg_series series = {"measured", NULL, 0, 2};
    struct svg_curve curve = {"model", cx, cy, CURVE_SAMPLES, 0, 0, 1};
    struct svg_prediction pr;
    struct svg_plot2d plot;
    struct err e = {0};
    size_t i, n = 0;
    int logx;

    for (i = 0; i < d->nvars && over == NULL; i++) {
        struct err ignored = {0};
        const char *V = d->vars[i];
        if (fnum(fs_get(c, fs_name(c, "min.", V)), "", V, &lo, &ignored) == 0 &&
            fnum(fs_get(c, fs_name(c, "max.", V)), "", V, &hi, &ignored) == 0 &&
            lo < hi && json_is_number(json_object_get(vars, V)))
            over = V;
    }
    if (over == NULL) {
        page_puts(&c->p, "<p class=\"muted\">No plot: every variable is fixed and none "
                         "has a from–to span to draw the model over (step 2).</p>\n");
        return;
    }
    logx = svg_scale_for(lo, hi, SVG_SPAN_X) == SVG_LOG10;
    point = json_deep_copy(vars);
    for (i = 0; i < CURVE_SAMPLES; i++) {
        double t = (double)i / (CURVE_SAMPLES - 1);
        json_t *res;
        struct err ignored = {0};
        cx[i] = logx ? lo * pow(hi / lo, t) : lo + (hi - lo) * t;
        json_object_set_new(point, over, json_real(cx[i]));
        res = c->predict(ans, point, &ignored);
        cy[i] = res ? json_number_value(json_object_get(res, "y")) : NAN;
        json_decref(res);
    }
    json_decref(point);
    meas = json_object_get(ans, "measured");
    pts = arena_alloc(c->arena, (json_array_size(meas) + 1) * sizeof *pts);
    json_array_foreach(meas, i, m)
    {
        json_t *x = json_object_get(json_object_get(m, "x"), over);
        if (pts == NULL || !json_is_number(x))
            continue;
        pts[n].x = json_number_value(x);
        pts[n].y = json_number_value(json_object_get(m, "runtime"));
        pts[n].ymin = json_number_value(json_object_get(m, "min"));
        pts[n].ymax = json_number_value(json_object_get(m, "max"));
        pts[n].has_err = json_integer_value(json_object_get(m, "runs")) > 1;
        n++;
    }
    series.points = pts;
    series.n = n;
    memset(&pr, 0, sizeof pr);
    pr.x = json_number_value(json_object_get(vars, over));
    pr.y = json_number_value(json_object_get(ans, "value"));
    memset(&plot, 0, sizeof plot);
    plot.title = arena_printf(c->arena, "%s on %s, through the point", d->tpl, d->sys);
    plot.xlabel = over;
    plot.ylabel = "model value";
    plot.yunit = "s";
    plot.xscale = logx ? SVG_LOG10 : SVG_LINEAR;
    plot.series = n ? &series : NULL;
    plot.nseries = n ? 1 : 0;
    plot.curves = &curve;
    plot.ncurves = 1;
    plot.prediction = &pr;
    plot.formula = d->expression;
    if (page_plot2d(&c->p, &plot, 0,
                    arena_printf(c->arena,
                                 "The model over %s from %s to %s with the other "
                                 "variables at the point, the point itself and the runs "
                                 "measured there.",
                                 over, fnumtext(c, lo), fnumtext(c, hi)),
                    &e) != 0) {
        page_puts(&c->p, "<p class=\"muted\">No plot: ");
        page_text(&c->p, e.message);
        page_puts(&c->p, "</p>\n");
    }
}

static void render_result(struct fctx *c, json_t *request, json_t *ans)
{
    json_t *value = json_object_get(ans, "value"), *vars = json_object_get(ans, "vars"),
           *alpha = json_object_get(ans, "alpha"), *error = json_object_get(ans, "error"),
           *v;
    const char *key;
    size_t i;
    int first = 1;
    (void)request;

    page_puts(&c->p, "<h2 id=\"result\">Result</h2>\n");
    if (json_is_number(value)) {
        page_puts(&c->p, "<p class=\"notice good headline\" id=\"prediction\" "
                         "role=\"status\">Model value at ");
        json_object_foreach(vars, key, v)
        {
            page_puts(&c->p, first ? "" : ", ");
            page_text(&c->p, key);
            page_puts(&c->p, " = ");
            page_num(&c->p, json_number_value(v));
            first = 0;
        }
        /* a template models the runtime (its measured runs below are in s) */
        page_puts(&c->p, ": ");
        page_value(&c->p, "predicted", json_number_value(value), "s");
        page_puts(&c->p, "</p>\n");
        curve_through(c, ans);
    } else {
        forms_plot(c, c->plot, ans,
                   "The model over the range (a surface for two ranges), with the "
                   "measured runs where they exist.");
    }
    if (json_is_object(alpha)) {
        json_t *co = json_object_get(alpha, "coefficients"), *a;
        page_puts(&c->p, "<h3>α coefficients</h3>\n<p id=\"alpha\">The model as a "
                         "polynomial in ");
        page_text(&c->p, json_string_value(json_object_get(alpha, "variable")));
        page_printf(&c->p, " (degree %lld): ",
                    (long long)json_integer_value(json_object_get(alpha, "degree")));
        json_array_foreach(co, i, a)
        {
            page_printf(&c->p, "%sα%zu = ", i ? ", " : "", i);
            page_num(&c->p, json_number_value(a));
        }
        page_puts(&c->p, "</p>\n");
    }
    if (json_is_object(error)) {
        page_puts(&c->p, "<h3>Against the measured runs</h3>\n<p id=\"overlay\">");
        if (json_integer_value(json_object_get(error, "points")) > 0) {
            page_puts(&c->p, "Mean |error| ");
            page_num(&c->p, json_number_value(json_object_get(error, "mean_abs_pct")));
            page_puts(&c->p, " %, largest ");
            page_num(&c->p, json_number_value(json_object_get(error, "max_abs_pct")));
            {
                long long np =
                    (long long)json_integer_value(json_object_get(error, "points"));
                long long nr =
                    (long long)json_integer_value(json_object_get(error, "runs"));
                page_printf(&c->p, " %%, over %lld configuration%s (%lld run%s)", np,
                            np == 1 ? "" : "s", nr, nr == 1 ? "" : "s");
            }
            page_puts(&c->p, json_is_true(json_object_get(error, "capped"))
                                 ? " (the first 10,000 runs)."
                                 : ".");
        } else {
            page_puts(&c->p, "No measured run of the application on this system matches "
                             "these values.");
        }
        page_puts(&c->p, "</p>\n");
    }
    page_model_answer(&c->p, ans);
}

static const char *const steps[] = {"Template and system", "Variables"};

const struct form_def form_param = {
    "parameterize",
    "/model/parameterize",
    "Parameterization",
    "Evaluate an application's model template with a system's parameters, as in the "
    "Prophecy paper: choose the template and the system, then fix each variable or "
    "give it a range; the result is compared with the runs measured there.",
    2,
    steps,
    1u << 1,
    field_step,
    check,
    render_step,
    summary,
    request,
    error_at,
    render_result,
};
