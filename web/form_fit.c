/* form_fit: curve fitting in three steps (GET /model/fit), as in the
 * paper: 1. application, executable and system; 2. graph type, x axis and y
 * axis; 3. range of x, fixed values of the other variables, prediction
 * points. The result is POST /api/v1/fit's answer for the request the fields
 * make (database form). See form.h for the driver.
 *
 * Fields: application, executable ("" = all), system; graph (poly1..inv6,
 * unknown, auto), x (nprocs or an input), x2 (a second axis, "" = none; with
 * it the model is `auto` in two variables and the plot a surface), y
 * (runtime, speedup, efficiency, metric:NAME, kernel:NAME); xmin, xmax (the
 * range of x), fix.VAR ("" = not fixed), predict (numbers separated by commas
 * or spaces; pairs x, x2 with two axes), aggregate; basis (step 2: "" or a
 * benchmark series of the system, the machine curve the model follows,
 * docs/models.md §12: its name, with its label, "MPISR · Testing Same CCX",
 * where the name has several series; one axis, graph auto or linear) and
 * basis_scale, basis_power (empty:
 * 1; the curve is read at scale * x^power, e.g. the working set in bytes).
 */
#include "core/method_fit.h"
#include "web/form.h"
#include "common/units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

struct fit_data {
    json_t *apps; /* [{name, runs, ...}] */
    json_t *app;  /* the chosen application's summary */
    struct fconf *cf;
    int ncf;
    const char *exe; /* NULL: all executables */
    const char *sys;
    const char *vars[FORMS_MAX_VARS];
    size_t nvars;
    json_t *metrics, *kernels; /* names */
    const char *x;
    const char *x2;                   /* NULL: one axis */
    const char *rest[FORMS_MAX_VARS]; /* vars without x2: the x step's variables */
    size_t nrest;
    json_t *benches;   /* the system's benchmark series: the machine curves */
    const char *basis; /* NULL: none; else the series as the form names it */
    /* the chosen series: its benchmark, and its label and test where the
     * request must name them (NULL: the name's series do not differ in it) */
    const char *basis_name, *basis_label, *basis_test;
    double basis_scale, basis_power; /* where the curve is read: scale * x^power */
};

static struct fit_data *fd(struct fctx *c)
{
    return forms_data(c, sizeof(struct fit_data));
}

static int field_step(const char *n)
{
    if (strcmp(n, "application") == 0 || strcmp(n, "executable") == 0 ||
        strcmp(n, "system") == 0)
        return 1;
    if (strcmp(n, "graph") == 0 || strcmp(n, "x") == 0 || strcmp(n, "x2") == 0 ||
        strcmp(n, "y") == 0 || strcmp(n, "basis") == 0 || strcmp(n, "basis_scale") == 0 ||
        strcmp(n, "basis_power") == 0)
        return 2;
    if (strcmp(n, "xmin") == 0 || strcmp(n, "xmax") == 0 || strcmp(n, "predict") == 0 ||
        strcmp(n, "aggregate") == 0 || (strncmp(n, "fix.", 4) == 0 && n[4] != '\0'))
        return 3;
    return 0;
}

/* Executables of the application with runs, and whether name is one. */
static int exe_has_runs(struct fit_data *d, const char *name)
{
    int i;
    for (i = 0; i < d->ncf; i++)
        if (strcmp(d->cf[i].c->executable, name) == 0)
            return 1;
    return 0;
}

/* The most values one variable of the configurations of exe (NULL: all)
 * was measured at. */
static size_t most_values(const struct fit_data *d, const char *exe)
{
    const char *vars[FORMS_MAX_VARS];
    struct fval vals[FORMS_MAX_VALUES];
    size_t i, most = 0, nv = forms_vars(d->cf, d->ncf, exe, NULL, vars, FORMS_MAX_VARS);
    int more;
    for (i = 0; i < nv; i++) {
        size_t k = forms_values(d->cf, d->ncf, exe, NULL, vars[i], vals, FORMS_MAX_VALUES,
                                &more);
        most = k > most ? k : most;
    }
    return most;
}

/* The default executable: of several, the one measured at the most values
 * of a variable where one alone makes a curve (FORMS_CURVE_VALUES: Google Benchmark
 * families, each its own curve; ties: the first), else all of them where
 * together they do (a study imported file by file, an executable a file),
 * else the first with runs; "" is all. At most FIT_EXES_TRIED are looked at. */
#define FIT_EXES_TRIED 64
static const char *default_exe(struct fit_data *d)
{
    json_t *exes = json_object_get(d->app, "executables"), *e;
    const char *first = NULL, *best = NULL;
    size_t i, bestm = 0;
    json_array_foreach(exes, i, e)
    {
        const char *name = forms_str(e, "name");
        size_t m;
        if (!exe_has_runs(d, name))
            continue;
        if (first == NULL)
            first = name;
        if (json_array_size(exes) < 2 || i >= FIT_EXES_TRIED)
            break;
        if ((m = most_values(d, name)) > bestm) {
            best = name;
            bestm = m;
        }
    }
    if (best != NULL && bestm >= FORMS_CURVE_VALUES)
        return best;
    if (json_array_size(exes) >= 2 && most_values(d, NULL) >= FORMS_CURVE_VALUES)
        return "";
    return first ? first : "";
}

/* Systems with runs of the executable (NULL: any), in name order. */
static size_t systems_of(struct fit_data *d, const char *exe, const char **out,
                         size_t max)
{
    json_t *sys = json_object_get(d->app, "systems"), *s;
    size_t i, n = 0;
    int k;
    json_array_foreach(sys, i, s)
    {
        const char *name = forms_str(s, "name");
        for (k = 0; k < d->ncf; k++)
            if (fconf_match(&d->cf[k], exe, name))
                break;
        if (k < d->ncf && n < max)
            out[n++] = name;
    }
    return n;
}

static long long runs_of(struct fit_data *d, const char *exe, const char *sys)
{
    long long n = 0;
    int k;
    for (k = 0; k < d->ncf; k++)
        if (fconf_match(&d->cf[k], exe, sys))
            n += d->cf[k].c->runs;
    return n;
}

/* A choice's label: its name and how many runs it has. */
static const char *runs_label(struct fctx *c, const char *name, long long n)
{
    return arena_printf(c->arena, "%s (%lld run%s)", name, n, n == 1 ? "" : "s");
}

static int check1(struct fctx *c, struct fit_data *d, int strict, struct err *err)
{
    const char *app = fs_val(c, "application"), *v, *sys[256];
    json_t *a;
    size_t i, nsys;
    int found = 0;

    if ((d->apps = forms_keep(c, form_data_apps(c->store, err))) == NULL)
        return -1;
    if (json_array_size(d->apps) == 0) {
        c->empty = 1;
        return err_invalid(err, "application",
                           "there are no applications yet: upload runs first");
    }
    json_array_foreach(d->apps, i, a)
    {
        found |= app && strcmp(forms_str(a, "name"), app) == 0;
    }
    if (app == NULL) {
        /* The first application with runs. */
        json_array_foreach(d->apps, i, a)
        {
            if (app == NULL && json_integer_value(json_object_get(a, "runs")) > 0)
                app = forms_str(a, "name");
        }
        if (app == NULL)
            app = forms_str(json_array_get(d->apps, 0), "name");
        fs_set(c, "application", app);
    } else if (!found) {
        return err_set(err, ERR_NOT_FOUND, "not_found", "application",
                       "no application named %.200s", app);
    }
    if ((d->app = forms_keep(c, form_data_app(c->store, app, err))) == NULL)
        return -1;
    d->ncf = forms_configs(c, json_integer_value(json_object_get(d->app, "id")), 0,
                           &d->cf, err);
    if (d->ncf < 0)
        return -1;
    if (d->ncf == 0)
        return err_invalid(err, "application", "%.200s has no runs to fit yet", app);
    v = fs_get(c, "executable");
    if (v == NULL || (*v != '\0' && !exe_has_runs(d, v))) {
        if (v != NULL && strict)
            return err_invalid(err, "executable",
                               "%.200s has no runs of executable %.200s", app, v);
        fs_set(c, "executable", default_exe(d));
    }
    d->exe = fs_val(c, "executable");
    nsys = systems_of(d, d->exe, sys, 256);
    v = fs_get(c, "system");
    for (i = 0; v && i < nsys && strcmp(sys[i], v) != 0; i++)
        ;
    if (v == NULL || i == nsys) {
        if (v != NULL && *v && strict)
            return err_invalid(err, "system", "%.200s%s%.200s has no runs on %.200s", app,
                               d->exe ? " / " : "", d->exe ? d->exe : "", v);
        if (nsys == 0)
            return err_invalid(err, "executable", "no runs of %.200s", d->exe);
        fs_set(c, "system", sys[0]);
    }
    d->sys = fs_val(c, "system");
    return 0;
}

static int y_ok(struct fit_data *d, const char *y)
{
    size_t i;
    json_t *n;
    if (y == NULL)
        return 0;
    if (strcmp(y, "runtime") == 0 || strcmp(y, "speedup") == 0 ||
        strcmp(y, "efficiency") == 0)
        return 1;
    if (strncmp(y, "metric:", 7) == 0 || strncmp(y, "kernel:", 7) == 0) {
        json_t *names = y[0] == 'm' ? d->metrics : d->kernels;
        json_array_foreach(names, i, n)
        {
            if (strcmp(json_string_value(n), y + 7) == 0)
                return 1;
        }
    }
    return 0;
}

static const char *series_field(json_t *series, const char *key)
{
    const char *v = forms_str(series, key);
    return v ? v : "";
}

/* Series i of d->benches as the form names it (its option's value and
 * text): the name, then its test and label where the name's other series
 * differ in them ("MPISR · Testing Same CCX"). *label and *test get what
 * the request must name (NULL: nothing). */
static const char *series_text(struct fctx *c, json_t *benches, size_t i,
                               const char **label, const char **test)
{
    json_t *s = json_array_get(benches, i), *o;
    const char *name = series_field(s, "name"), *l = series_field(s, "label"),
               *t = series_field(s, "test");
    int ls = 0, ts = 0;
    size_t k;

    json_array_foreach(benches, k, o)
    {
        if (strcmp(series_field(o, "name"), name) != 0)
            continue;
        ls |= strcmp(series_field(o, "label"), l) != 0;
        ts |= strcmp(series_field(o, "test"), t) != 0;
    }
    *label = ls ? l : NULL;
    *test = ts ? t : NULL;
    return arena_printf(c->arena, "%s%s%s%s%s", name, ts ? " \xc2\xb7 " : "",
                        ts ? (*t ? t : "no test") : "", ls ? " \xc2\xb7 " : "",
                        ls ? (*l ? l : "unlabelled") : "");
}

/* The machine curve: none, or a benchmark series of the system (with one
 * axis; the model is then linear in it, so graph auto unless linear). */
static int check_basis(struct fctx *c, struct fit_data *d, int strict, struct err *err)
{
    const char *v = fs_get(c, "basis"), *g = fs_val(c, "graph");
    size_t i;
    int found = 0;

    d->benches = NULL;
    d->basis = d->basis_name = d->basis_label = d->basis_test = NULL;
    if (d->x2 == NULL &&
        (d->benches = forms_list(c, FORM_LIST_SYSTEM_CURVES, NULL, d->sys, err)) == NULL)
        return -1;
    for (i = 0; v != NULL && *v && !found && i < json_array_size(d->benches); i++) {
        const char *label, *test, *text = series_text(c, d->benches, i, &label, &test);
        if (text != NULL && strcmp(text, v) == 0) {
            found = 1;
            d->basis_name = series_field(json_array_get(d->benches, i), "name");
            d->basis_label = label;
            d->basis_test = test;
        }
    }
    /* a bare name of several series (a link from before they were told
     * apart): the API's answer lists them at the field */
    for (i = 0; v != NULL && *v && !found && i < json_array_size(d->benches); i++)
        if (strcmp(series_field(json_array_get(d->benches, i), "name"), v) == 0) {
            found = 1;
            d->basis_name = v;
        }
    if (v != NULL && *v && !found) {
        if (strict)
            return err_invalid(err, "basis",
                               d->x2 ? "a model over two axes follows no machine curve"
                                     : "%.200s has no benchmark %.200s",
                               d->sys, v);
        v = NULL;
    }
    if (v == NULL)
        fs_set(c, "basis", "");
    d->basis = fs_val(c, "basis");
    if (d->basis != NULL && g != NULL && strcmp(g, "auto") != 0 &&
        strcmp(g, "poly1") != 0)
        fs_set(c, "graph", "auto");
    /* where the curve is read: empty is 1 (x itself); the API checks the
     * ranges and its error comes back to these fields */
    d->basis_scale = d->basis_power = 1;
    if (d->basis != NULL && (fnum(fs_get(c, "basis_scale"), "basis_scale", "the scale",
                                  &d->basis_scale, err) < 0 ||
                             fnum(fs_get(c, "basis_power"), "basis_power", "the power",
                                  &d->basis_power, err) < 0)) {
        if (strict)
            return -1;
        err_clear(err);
        d->basis_scale = d->basis_power = 1;
    }
    return 0;
}

/* Whether a run of the selected configurations has a runtime. */
static int timed(const struct fit_data *d)
{
    for (int i = 0; i < d->ncf; i++)
        if (fconf_match(&d->cf[i], d->exe, d->sys) && d->cf[i].c->timed > 0)
            return 1;
    return 0;
}

static int check2(struct fctx *c, struct fit_data *d, int strict, struct err *err)
{
    const char *v = fs_get(c, "graph");
    size_t i;

    if (!forms_graph_ok(v)) {
        if (v != NULL && strict)
            return err_invalid(err, "graph", "choose a graph type of the list");
        fs_set(c, "graph", "auto");
    }
    d->nvars = forms_vars(d->cf, d->ncf, d->exe, d->sys, d->vars, FORMS_MAX_VARS);
    v = fs_get(c, "x");
    for (i = 0; v && i < d->nvars && strcmp(d->vars[i], v) != 0; i++)
        ;
    if (v == NULL || i == d->nvars) {
        if (v != NULL && strict)
            return err_invalid(err, "x", "the runs have no variable %.200s", v);
        fs_set(c, "x",
               forms_default_x(c, d->cf, d->ncf, d->exe, d->sys, d->vars, d->nvars));
    }
    d->x = fs_val(c, "x");
    if (strict &&
        forms_axis_varies(c, d->cf, d->ncf, d->exe, d->sys, d->x, "x", err) != 0)
        return -1;
    /* The second axis: another variable of the runs, or none. */
    v = fs_get(c, "x2");
    for (i = 0; v && *v && i < d->nvars && strcmp(d->vars[i], v) != 0; i++)
        ;
    if (v == NULL || (*v && (i == d->nvars || strcmp(v, d->x) == 0))) {
        if (v != NULL && strict)
            return err_invalid(err, "x2", "choose a second axis other than %.200s", d->x);
        fs_set(c, "x2", "");
    }
    d->x2 = fs_val(c, "x2");
    if (strict && d->x2 != NULL &&
        forms_axis_varies(c, d->cf, d->ncf, d->exe, d->sys, d->x2, "x2", err) != 0)
        return -1;
    d->nrest = 0;
    for (i = 0; i < d->nvars; i++)
        if (d->x2 == NULL || strcmp(d->vars[i], d->x2) != 0)
            d->rest[d->nrest++] = d->vars[i];
    /* Two axes: the normal form in two variables (the 12 types have one). */
    if (d->x2 != NULL && strcmp(fs_val(c, "graph"), "auto") != 0)
        fs_set(c, "graph", "auto");
    if (check_basis(c, d, strict, err) != 0)
        return -1;
    if ((d->metrics = forms_names(c, d->cf, d->ncf, d->exe, d->sys, "metrics", err)) ==
            NULL ||
        (d->kernels = forms_names(c, d->cf, d->ncf, d->exe, d->sys, "kernels", err)) ==
            NULL)
        return -1;
    v = fs_get(c, "y");
    if (!y_ok(d, v)) {
        if (v != NULL && strict)
            return err_invalid(err, "y", "the runs record no %.200s", v);
        /* runs without a runtime (a file of counters only, SPEC §16): their
         * first metric, else their first kernel */
        fs_set(c, "y",
               timed(d) || (json_array_size(d->kernels) == 0 &&
                            json_array_size(d->metrics) == 0)
                   ? "runtime"
               : json_array_size(d->metrics) > 0
                   ? arena_printf(c->arena, "metric:%s",
                                  json_string_value(json_array_get(d->metrics, 0)))
                   : arena_printf(c->arena, "kernel:%s",
                                  json_string_value(json_array_get(d->kernels, 0))));
    }
    return 0;
}

/* The x step sees every variable but the second axis (neither is fixed). */
static struct xstep xs(struct fit_data *d)
{
    struct xstep s = {d->cf, d->ncf, d->exe, d->sys, d->rest, d->nrest, d->x, d->x2, 1};
    return s;
}

static int check(struct fctx *c, int k, int strict, struct err *err)
{
    struct fit_data *d = fd(c);
    if (d == NULL)
        return err_nomem(err);
    if (k == 1)
        return check1(c, d, strict, err);
    if (k == 2)
        return check2(c, d, strict, err);
    {
        struct xstep x = xs(d);
        return forms_xstep_check(c, &x, strict, err);
    }
}

/* ---- steps ------------------------------------------------------------------------- */

static void render1(struct fctx *c, struct fit_data *d)
{
    size_t n = json_array_size(d->apps), i, ns;
    const char **values = arena_alloc(c->arena, (n + 300) * sizeof *values);
    const char **labels = arena_alloc(c->arena, (n + 300) * sizeof *labels);
    const char *sys[256];
    json_t *a;

    if (values == NULL || labels == NULL)
        return;
    json_array_foreach(d->apps, i, a)
    {
        values[i] = forms_str(a, "name");
        labels[i] = runs_label(c, values[i],
                               (long long)json_integer_value(json_object_get(a, "runs")));
    }
    page_puts(&c->p, "<div class=\"fields\">\n");
    ff_select(c, "application", "Application", NULL, values, labels, n,
              fs_get(c, "application"), 1);
    n = 0;
    json_array_foreach(json_object_get(d->app, "executables"), i, a)
    {
        const char *name = forms_str(a, "name");
        if (!exe_has_runs(d, name) || n >= 256)
            continue;
        values[n] = name;
        labels[n] = runs_label(c, name, runs_of(d, name, NULL));
        n++;
    }
    values[n] = "";
    labels[n++] = "all executables";
    ff_select(c, "executable", "Executable", NULL, values, labels, n,
              fs_get(c, "executable"), 1);
    ns = systems_of(d, d->exe, sys, 256);
    for (i = 0; i < ns; i++) {
        values[i] = sys[i];
        labels[i] = runs_label(c, sys[i], runs_of(d, d->exe, sys[i]));
    }
    ff_select(c, "system", "System", "where the runs were measured", values, labels, ns,
              fs_get(c, "system"), 1);
    page_puts(&c->p, "</div>\n");
}

static void render2(struct fctx *c, struct fit_data *d)
{
    size_t n = 0, i, cap = 3 + json_array_size(d->metrics) + json_array_size(d->kernels);
    const char **values = arena_alloc(c->arena, (cap + d->nvars) * sizeof *values);
    const char **labels = arena_alloc(c->arena, (cap + d->nvars) * sizeof *labels);
    const char **var_labels =
        forms_var_labels(c, d->cf, d->ncf, d->exe, d->sys, d->vars, d->nvars);
    json_t *nm;

    if (values == NULL || labels == NULL || var_labels == NULL)
        return;
    page_puts(&c->p, "<div class=\"fields\">\n");
    ff_select(c, "graph", "Graph type", "the paper's 12 forms, or let the data choose",
              forms_graphs, forms_graph_labels, FORMS_NGRAPHS, fs_get(c, "graph"), 0);
    for (i = 0; i < d->nvars; i++) {
        values[i] = d->vars[i];
        labels[i] = var_labels[i];
    }
    ff_select(c, "x", "x axis", NULL, values, labels, d->nvars, fs_get(c, "x"), 0);
    /* The second axis: none, or another variable (a 3-D surface). */
    {
        const char **v2 = arena_alloc(c->arena, (d->nvars + 1) * sizeof *v2);
        const char **l2 = arena_alloc(c->arena, (d->nvars + 1) * sizeof *l2);
        size_t k = 0;
        if (v2 != NULL && l2 != NULL) {
            v2[k] = "";
            l2[k++] = "none (a curve)";
            for (i = 0; i < d->nvars; i++) {
                v2[k] = values[i];
                l2[k++] = labels[i];
            }
            ff_select(c, "x2", "Second axis",
                      "a model over two variables, the auto normal form, with a 3-D "
                      "plot",
                      v2, l2, k, fs_get(c, "x2"), 0);
        }
    }
    values[n] = "runtime";
    labels[n++] = timed(d) ? "runtime (s)" : "runtime (s; no run has one)";
    values[n] = "speedup";
    labels[n++] = "speedup (x = nprocs)";
    values[n] = "efficiency";
    labels[n++] = "efficiency (x = nprocs)";
    json_array_foreach(d->metrics, i, nm)
    {
        values[n] = arena_printf(c->arena, "metric:%s", json_string_value(nm));
        labels[n++] = arena_printf(c->arena, "metric %s", json_string_value(nm));
    }
    json_array_foreach(d->kernels, i, nm)
    {
        values[n] = arena_printf(c->arena, "kernel:%s", json_string_value(nm));
        labels[n++] = arena_printf(c->arena, "kernel %s (s)", json_string_value(nm));
    }
    ff_select(c, "y", "y axis", NULL, values, labels, n, fs_get(c, "y"), 0);
    /* The machine curve: the system's benchmarks, with one axis. */
    if (json_array_size(d->benches) > 0) {
        size_t nb = json_array_size(d->benches) + 1;
        const char **vb = arena_alloc(c->arena, nb * sizeof *vb);
        const char **lb = arena_alloc(c->arena, nb * sizeof *lb);
        if (vb != NULL && lb != NULL) {
            vb[0] = "";
            lb[0] = "none";
            for (i = 0; i < nb - 1; i++) {
                const char *label, *test;
                vb[i + 1] = lb[i + 1] = series_text(c, d->benches, i, &label, &test);
            }
            ff_select(
                c, "basis", "Machine curve",
                "follow a benchmark of the system measured over the same x, through "
                "its regime changes: y = c0 + c1\xc2\xb7"
                "B(x), graph auto or linear",
                vb, lb, nb, fs_get(c, "basis"), 0);
            ff_text(c, "basis_scale", "Curve read at: scale",
                    "the curve's argument per unit of x, e.g. 24 when x counts "
                    "elements of three arrays of doubles and the curve is over bytes "
                    "(empty: 1)",
                    fs_get(c, "basis_scale"), "1", "decimal");
            ff_text(c, "basis_power", "and power",
                    "the curve is read at scale\xc2\xb7x^power, e.g. 2 for the side of "
                    "a square grid (empty: 1)",
                    fs_get(c, "basis_power"), "1", "decimal");
        }
    }
    page_puts(&c->p, "</div>\n");
}

static void render_step(struct fctx *c, int k)
{
    struct fit_data *d = fd(c);
    if (k == 1)
        render1(c, d);
    else if (k == 2)
        render2(c, d);
    else {
        struct xstep x = xs(d);
        forms_xstep_render(c, &x);
        if (d->x2 != NULL) {
            page_puts(&c->p, "<p class=\"muted\" id=\"predict-pairs\">With two axes, "
                             "give each prediction as a pair ");
            page_text(&c->p, d->x);
            page_puts(&c->p, ", ");
            page_text(&c->p, d->x2);
            page_puts(&c->p, " (for example 1200, 16, 1500, 32); every value of ");
            page_text(&c->p, d->x2);
            page_puts(&c->p, " measured is used.</p>\n");
        }
    }
}

static const char *graph_label(const char *g)
{
    int i;
    for (i = 0; g && i < FORMS_NGRAPHS; i++)
        if (strcmp(g, forms_graphs[i]) == 0)
            return forms_graph_labels[i];
    return g;
}

static void summary(struct fctx *c, int k)
{
    struct fit_data *d = fd(c);
    if (k == 1) {
        page_text(&c->p, fs_get(c, "application"));
        page_puts(&c->p, " / ");
        page_text(&c->p, d->exe ? d->exe : "all executables");
        page_puts(&c->p, " on ");
        page_text(&c->p, fs_get(c, "system"));
    } else if (k == 2) {
        page_text(&c->p, fs_get(c, "y"));
        page_puts(&c->p, " over ");
        page_text(&c->p, fs_get(c, "x"));
        if (d->x2 != NULL) {
            page_puts(&c->p, " and ");
            page_text(&c->p, d->x2);
        }
        page_puts(&c->p, ", graph ");
        page_text(&c->p, graph_label(fs_get(c, "graph")));
        if (d->basis != NULL) {
            page_puts(&c->p, ", on the machine curve ");
            page_text(&c->p, d->basis);
            if (d->basis_scale != 1 || d->basis_power != 1)
                page_printf(&c->p, " read at %s\xc2\xb7x^%s", fnumtext(c, d->basis_scale),
                            fnumtext(c, d->basis_power));
        }
    } else {
        struct xstep x = xs(d);
        forms_xstep_summary(c, &x);
    }
}

/* ---- request and answer
 * ---------------------------------------------------------------- */

/* With two axes the typed predictions are pairs: [a, b, c, d] -> [[a, b], [c, d]]. */
static int pair_predictions(json_t *req, const struct fit_data *d, struct err *err)
{
    json_t *pred = json_object_get(req, "predict"), *pairs;
    size_t i;

    if (pred == NULL)
        return 0;
    if (json_array_size(pred) % 2 != 0)
        return err_invalid(err, "predict",
                           "with two axes give pairs: %.200s, %.200s, ...", d->x, d->x2);
    pairs = json_array();
    for (i = 0; i + 1 < json_array_size(pred); i += 2)
        json_array_append_new(pairs, json_pack("[O, O]", json_array_get(pred, i),
                                               json_array_get(pred, i + 1)));
    return json_object_set_new(req, "predict", pairs) == 0 ? 0 : err_nomem(err);
}

static json_t *request(struct fctx *c, struct err *err)
{
    struct fit_data *d = fd(c);
    struct xstep x = xs(d);
    json_t *req = json_object();

    json_object_set_new(req, "application", json_string(fs_get(c, "application")));
    if (d->exe)
        json_object_set_new(req, "executable", json_string(d->exe));
    json_object_set_new(req, "system", json_string(d->sys));
    if (d->x2 != NULL)
        json_object_set_new(req, "x", json_pack("[s, s]", d->x, d->x2));
    else
        json_object_set_new(req, "x", json_string(d->x));
    json_object_set_new(req, "y", json_string(fs_get(c, "y")));
    json_object_set_new(req, "graph", json_string(fs_get(c, "graph")));
    if (d->basis != NULL) {
        json_t *b =
            json_pack("{s:s, s:o, s:o}", "benchmark", d->basis_name, "scale",
                      forms_jnum(d->basis_scale), "power", forms_jnum(d->basis_power));
        if (d->basis_label != NULL)
            json_object_set_new(b, "label", json_string(d->basis_label));
        if (d->basis_test != NULL)
            json_object_set_new(b, "test", json_string(d->basis_test));
        json_object_set_new(req, "basis", b);
    }
    if (forms_xstep_request(c, &x, req, err) != 0) {
        json_decref(req);
        return NULL;
    }
    if (d->x2 != NULL && pair_predictions(req, d, err) != 0) {
        json_decref(req);
        return NULL;
    }
    return req;
}

static int error_at(struct fctx *c, const struct err *e, const char **field)
{
    struct fit_data *d = fd(c);
    const char *f = e->field;
    size_t n = strcspn(f, "[.");
    int s = field_step(f);

    *field = NULL;
    if (s > 0) {
        *field = f;
        return s;
    }
#define IS(name) (n == strlen(name) && strncmp(f, name, n) == 0)
    if (IS("application") || IS("executable") || IS("system")) {
        *field = IS("application") ? "application"
                 : IS("system")    ? "system"
                                   : "executable";
        return 1;
    }
    if (IS("graph") || IS("x") || IS("vars") || IS("y")) {
        *field = IS("graph") ? "graph" : IS("y") ? "y" : "x";
        return 2;
    }
    if (IS("basis")) {
        *field = strcmp(f, "basis.scale") == 0   ? "basis_scale"
                 : strcmp(f, "basis.power") == 0 ? "basis_power"
                                                 : "basis";
        return 2;
    }
    if (d != NULL && d->x != NULL) {
        struct xstep x = xs(d);
        *field = forms_xstep_field(c, &x, e);
    }
#undef IS
    return 3;
}

/* A point of the answer: a number, or [x1, x2] written "x1, x2". */
static void point_text(struct fctx *c, json_t *x)
{
    size_t v;
    if (!json_is_array(x)) {
        page_num(&c->p, json_number_value(x));
        return;
    }
    for (v = 0; v < json_array_size(x); v++) {
        page_puts(&c->p, v ? ", " : "");
        page_num(&c->p, json_number_value(json_array_get(x, v)));
    }
}

/* "Measure next": where one more measurement narrows the 95 % interval at
 * the first prediction (or, without one, at four times the measured end of
 * each axis) most; fit_suggest over the candidates fit_suggest_candidates
 * proposes, the ranking POST /api/v1/suggest gives. */
static void measure_next(struct fctx *c, json_t *ans)
{
    json_t *first = json_array_get(json_object_get(ans, "predictions"), 0), *sug, *row;
    struct fit_model m;
    const char *names[FIT_MAX_VARS];
    double target[FIT_MAX_VARS], cand[FIT_MAX_VARS * 12];
    struct err e = {0};
    size_t n, i;
    int v;

    if (fit_answer_read(ans, &m, names, &e) != 0)
        return;
    page_puts(&c->p, "<section id=\"measure-next\">\n<h3>Measure next</h3>\n");
    for (v = 0; v < m.nvars; v++) {
        json_t *x = first ? json_object_get(first, "x") : NULL;
        if (x != NULL)
            target[v] =
                json_number_value(m.nvars == 1 ? x : json_array_get(x, (size_t)v));
        else
            target[v] =
                m.xmax[v] > 0 ? 4 * m.xmax[v] : m.xmax[v] + 2 * (m.xmax[v] - m.xmin[v]);
    }
    n = fit_suggest_candidates(&m, target, cand, 12);
    sug = n > 0 && m.has_interval ? fit_suggest_saved(ans, target, cand, n, &e) : NULL;
    if (sug == NULL) {
        page_puts(&c->p, "<p class=\"muted\">No suggestion: ");
        page_text(&c->p, e.status ? e.message
                                  : "the fit has no interval to narrow; measure more "
                                    "points first.");
        page_puts(&c->p, "</p>\n</section>\n");
        return;
    }
    page_puts(&c->p,
              "<p>One more measurement at each of these points, ranked by how much it "
              "is expected to narrow the 95 % interval at ");
    for (v = 0; v < m.nvars; v++) {
        page_puts(&c->p, v ? ", " : "");
        page_text(&c->p, names[v]);
        page_puts(&c->p, " = ");
        page_num(&c->p, target[v]);
    }
    page_puts(&c->p, ":</p>\n");
    page_table_open(&c->p, "Measure next");
    page_puts(&c->p, "<thead><tr><th>measure at");
    if (m.nvars == 2) {
        page_puts(&c->p, " (");
        page_text(&c->p, names[0]);
        page_puts(&c->p, ", ");
        page_text(&c->p, names[1]);
        page_puts(&c->p, ")");
    }
    page_puts(&c->p, "</th><th>expected narrowing</th></tr></thead><tbody>\n");
    json_array_foreach(json_object_get(sug, "suggestions"), i, row)
    {
        double g = json_number_value(json_object_get(row, "narrowing"));
        page_puts(&c->p, "<tr><td class=\"num\">");
        point_text(c, json_object_get(row, "x"));
        page_printf(&c->p, "</td><td class=\"num\">%.0f %%</td></tr>\n", 100 * g);
    }
    page_puts(&c->p, "</tbody>");
    page_table_close(&c->p);
    page_puts(&c->p, "</section>\n");
    json_decref(sug);
}

static void render_result(struct fctx *c, json_t *request, json_t *ans)
{
    json_t *preds = json_object_get(ans, "predictions"), *p = json_array_get(preds, 0);
    json_t *sel = json_object_get(ans, "selection");
    const char *y = json_string_value(json_object_get(ans, "y"));
    const char *x = json_string_value(json_array_get(json_object_get(ans, "vars"), 0));
    /* a runtime and a kernel's time in readable units (13.61 ms), a metric
     * in its own */
    const char *unit = units_of_y(y);
    (void)request;

    page_puts(&c->p, "<h2 id=\"result\">Result</h2>\n");
    if (p != NULL) {
        json_t *lo = json_object_get(p, "lo"), *hi = json_object_get(p, "hi");
        /* Green only for a prediction without a warning. */
        page_printf(&c->p,
                    "<p class=\"notice%s headline\" id=\"prediction\" "
                    "role=\"status\">Predicted ",
                    json_object_get(p, "warning") ? "" : " good");
        page_text(&c->p, y ? y : "y");
        page_puts(&c->p, " at ");
        if (json_is_array(json_object_get(p, "x"))) {
            json_t *vars = json_object_get(ans, "vars");
            size_t v;
            for (v = 0; v < json_array_size(vars); v++) {
                page_puts(&c->p, v ? ", " : "");
                page_text(&c->p, json_string_value(json_array_get(vars, v)));
                page_puts(&c->p, " = ");
                page_num(&c->p,
                         json_number_value(json_array_get(json_object_get(p, "x"), v)));
            }
        } else {
            page_text(&c->p, x ? x : "x");
            page_puts(&c->p, " = ");
            page_num(&c->p, json_number_value(json_object_get(p, "x")));
        }
        page_puts(&c->p, ": ");
        page_value(&c->p, "predicted", json_number_value(json_object_get(p, "y")), unit);
        if (json_is_true(json_object_get(p, "interval")) && json_is_number(lo) &&
            json_is_number(hi)) {
            page_puts(&c->p, " <span class=\"interval\">(95 % prediction interval ");
            page_qty(&c->p, json_number_value(lo), unit);
            page_puts(&c->p, " to ");
            page_qty(&c->p, json_number_value(hi), unit);
            page_puts(&c->p, ")</span>");
        }
        if (json_number_value(json_object_get(p, "extrapolation")) > 0) {
            double reach = json_number_value(json_object_get(p, "extrapolation"));
            page_printf(&c->p,
                        " <span class=\"reach\" id=\"extrapolation\">extrapolated %.2g "
                        "doubling%s outside the measured range</span>",
                        reach, reach == 1 ? "" : "s");
        }
        page_puts(&c->p, "</p>\n");
        if (json_is_string(json_object_get(p, "warning"))) {
            page_puts(&c->p, "<p class=\"notice bad\" id=\"prediction-warning\" "
                             "role=\"alert\">Warning: ");
            page_text(&c->p, json_string_value(json_object_get(p, "warning")));
            page_puts(&c->p, "</p>\n");
        }
    } else {
        page_puts(&c->p, "<p class=\"muted\">No prediction point was given (step 3): the "
                         "model and its fit are shown.</p>\n");
    }
    if (sel != NULL) {
        long long n = (long long)json_integer_value(json_object_get(sel, "runs"));
        page_printf(&c->p, "<p class=\"muted\" id=\"fitted-to\">Fitted to %lld run%s", n,
                    n == 1 ? "" : "s");
        /* a weak-scaling series: what changes along x besides x */
        forms_with_x(c, json_object_get(sel, "varies_with_x"));
        page_puts(&c->p, ".</p>\n");
    }
    if (json_array_size(json_object_get(ans, "vars")) == 2)
        forms_plot(c, c->plot, ans,
                   "The fitted surface over the measured range of both axes, with the "
                   "measured points.");
    else
        forms_plot(c, c->plot, ans,
                   "Measured points (mean and spread of repetitions), the fitted curve "
                   "(dashed beyond the measured range) and the first prediction with its "
                   "interval.");
    measure_next(c, ans);
    page_model_answer(&c->p, ans);
}

static const char *const steps[] = {"Application", "Graph and axes",
                                    "Range and prediction"};

const struct form_def form_fit = {
    "fit",
    "/model/fit",
    "Curve fitting",
    "Fit a curve to the stored runs of one application on one system, as in the "
    "Prophecy paper: choose the runs, the graph type and the axes, then the range, "
    "the fixed values and where to predict.",
    3,
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
