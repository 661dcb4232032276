/* method_fit: curve fitting as a modeling method (SPEC §5.1, core/method.h).
 *
 * fit_answer decodes a request in either form (decode), gathers the points
 * (the database form through db/select.h), runs models/fit and writes the
 * answer (answer); fit_predict_saved and fit_answer_read work from a saved
 * answer alone (its "model"."state" holds the whole fitted model), so a
 * saved answer and a fresh one are read by the same code. The plot is
 * web/chart_fit.c.
 *
 * Inline form: {"data": [[x, y], ...], "x": "N", "graph": "cubic",
 * "predict": [1200], "aggregate": "mean"} or with two variables
 * {"vars": ["N", "P"], "data": [[n, p, y], ...], "predict": [[n, p]]}.
 * Database form: {"application", "system", "executable", "x": "N" (or
 * "nprocs", or two names), "fixed": {"nprocs": 8}, "range": [100, 1000],
 * "y": "runtime" | "speedup" | "efficiency" | "metric:NAME" | "kernel:NAME",
 * "graph", "predict", "aggregate"}.
 */
#include "common/arena.h"
#include "common/xalloc.h"
#include "core/method_fit.h"
#include "db/catalog.h"
#include "db/select.h"
#include "formats/json.h"
#include "formats/limits.h"
#include "models/fit.h"
#include "core/fit_json.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIT_MAX_PREDICT LIMIT_PREDICT
/* y: runtime, speedup, efficiency, or metric:NAME / kernel:NAME with a name */
#define FIT_MAX_Y (LIMIT_NAME + sizeof "kernel:" - 1)

enum y_kind { Y_RUNTIME, Y_SPEEDUP, Y_EFFICIENCY, Y_METRIC, Y_KERNEL };

struct fit_req {
    int nvars;
    const char *names[FIT_MAX_VARS];
    double *x, *y; /* n * nvars, n */
    size_t n;
    const char *graph;
    enum agg_kind agg;
    double *pred; /* npred * nvars */
    size_t npred;
    /* database form */
    int from_db;
    const char *application, *executable, *system;
    const char *y_name; /* as requested: "runtime", "metric:flops", ... */
    enum y_kind ykind;
    const char *y_arg; /* the metric or kernel name */
    json_t *fixed;     /* borrowed from the request: name -> number */
    double lo[FIT_MAX_VARS], hi[FIT_MAX_VARS];
    size_t runs; /* runs selected */
};

/* A catalog name of the request: key's value, 1 to max bytes. */
static const char *name_at(json_t *obj, const char *key, size_t max, arena *a,
                           struct err *err)
{
    return json_get_name(json_object_get(obj, key), key, max, a, err);
}

static int decode_vars(json_t *body, arena *a, struct fit_req *q, struct err *err)
{
    json_t *vars = json_object_get(body, "vars"), *x = json_object_get(body, "x");
    size_t i;

    q->nvars = 1;
    q->names[0] = q->from_db ? "nprocs" : "x";
    if (vars != NULL && x != NULL)
        return err_invalid(err, "vars", "give either x or vars, not both");
    if (vars == NULL && json_is_array(x))
        vars = x;
    if (vars != NULL) {
        if (!json_is_array(vars) || json_array_size(vars) < 1 ||
            json_array_size(vars) > FIT_MAX_VARS)
            return err_invalid(err, x ? "x" : "vars", "name 1 or 2 variables");
        q->nvars = (int)json_array_size(vars);
        for (i = 0; i < json_array_size(vars); i++) {
            json_t *v = json_array_get(vars, i);
            if ((q->names[i] = json_get_name(v, x ? "x" : "vars", LIMIT_NAME, a, err)) ==
                    NULL ||
                (!q->from_db &&
                 json_check_ident(q->names[i], x ? "x" : "vars", err) != 0))
                return -1;
        }
        if (q->nvars == 2 && strcmp(q->names[0], q->names[1]) == 0)
            return err_invalid(err, x ? "x" : "vars", "the two variables must differ");
    } else if (x != NULL) {
        /* Inline names appear in the formula text, so they must be
         * identifiers; the database form's x names an input as stored. */
        if ((q->names[0] = name_at(body, "x", LIMIT_NAME, a, err)) == NULL ||
            (!q->from_db && json_check_ident(q->names[0], "x", err) != 0))
            return -1;
    }
    return 0;
}

static int decode_predict(json_t *body, arena *a, struct fit_req *q, struct err *err)
{
    json_t *pred = json_object_get(body, "predict"), *row;
    char field[64];
    size_t i, j;

    if (pred == NULL)
        return 0;
    if (!json_is_array(pred) || json_array_size(pred) > FIT_MAX_PREDICT)
        return err_invalid(err, "predict",
                           "predict must be an array of at most %d points",
                           FIT_MAX_PREDICT);
    q->npred = json_array_size(pred);
    q->pred = arena_alloc(a, (q->npred + 1) * (size_t)q->nvars * sizeof *q->pred);
    if (q->pred == NULL)
        return err_nomem(err);
    json_array_foreach(pred, i, row)
    {
        snprintf(field, sizeof field, "predict[%zu]", i);
        if (q->nvars == 1) {
            if (json_get_number(row, field, &q->pred[i], err) != 0)
                return -1;
            continue;
        }
        if (!json_is_array(row) || json_array_size(row) != 2)
            return err_invalid(err, field, "%s must be [x1, x2]", field);
        for (j = 0; j < 2; j++)
            if (json_get_number(json_array_get(row, j), field, &q->pred[i * 2 + j],
                                err) != 0)
                return -1;
    }
    return 0;
}

static int decode_data(json_t *body, arena *a, struct fit_req *q, struct err *err)
{
    json_t *data = json_object_get(body, "data"), *row;
    char field[64];
    size_t i, j, nv = (size_t)q->nvars;

    if (!json_is_array(data) || json_array_size(data) == 0)
        return err_invalid(err, "data", "data must be a non-empty array of [x, y] rows");
    if (json_array_size(data) > FIT_MAX_POINTS)
        return err_set(err, 413, "too_large", "data", "more than %d data points",
                       FIT_MAX_POINTS);
    q->n = json_array_size(data);
    q->x = arena_alloc(a, q->n * nv * sizeof *q->x);
    q->y = arena_alloc(a, q->n * sizeof *q->y);
    if (q->x == NULL || q->y == NULL)
        return err_nomem(err);
    json_array_foreach(data, i, row)
    {
        snprintf(field, sizeof field, "data[%zu]", i);
        if (!json_is_array(row) || json_array_size(row) != nv + 1)
            return err_invalid(err, field, "%s must be [%s]", field,
                               nv == 1 ? "x, y" : "x1, x2, y");
        for (j = 0; j < nv; j++)
            if (json_get_number(json_array_get(row, j), field, &q->x[i * nv + j], err) !=
                0)
                return -1;
        if (json_get_number(json_array_get(row, nv), field, &q->y[i], err) != 0)
            return -1;
    }
    return 0;
}

static int decode_y(json_t *body, arena *a, struct fit_req *q, struct err *err)
{
    static const struct {
        const char *prefix;
        enum y_kind kind;
        int exact;
    } kinds[] = {{"runtime", Y_RUNTIME, 1},
                 {"speedup", Y_SPEEDUP, 1},
                 {"efficiency", Y_EFFICIENCY, 1},
                 {"metric:", Y_METRIC, 0},
                 {"kernel:", Y_KERNEL, 0}};
    const char *y = "runtime";
    size_t i;

    if (json_object_get(body, "y") != NULL &&
        (y = name_at(body, "y", FIT_MAX_Y, a, err)) == NULL)
        return -1;
    q->y_name = y;
    for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        size_t n = strlen(kinds[i].prefix);
        if (kinds[i].exact ? strcmp(y, kinds[i].prefix) == 0
                           : strncmp(y, kinds[i].prefix, n) == 0 && y[n] != '\0') {
            q->ykind = kinds[i].kind;
            q->y_arg = y + n;
            break;
        }
    }
    if (i == sizeof kinds / sizeof kinds[0])
        return err_invalid(err, "y",
                           "y must be runtime, speedup, efficiency, metric:NAME or "
                           "kernel:NAME");
    if ((q->ykind == Y_SPEEDUP || q->ykind == Y_EFFICIENCY) &&
        (q->nvars != 1 || strcmp(q->names[0], "nprocs") != 0))
        return err_invalid(err, "y", "%s needs x = \"nprocs\"", y);
    return 0;
}

/* "range": [min, max] for the (first) x variable, or {name: [min, max]}. */
static int decode_range(json_t *body, struct fit_req *q, struct err *err)
{
    json_t *range = json_object_get(body, "range");
    int v;

    for (v = 0; v < FIT_MAX_VARS; v++) {
        q->lo[v] = -INFINITY;
        q->hi[v] = INFINITY;
    }
    if (range == NULL)
        return 0;
    for (v = 0; v < q->nvars; v++) {
        json_t *r = json_is_object(range) ? json_object_get(range, q->names[v])
                                          : (v == 0 ? range : NULL);
        if (r == NULL)
            continue;
        if (!json_is_array(r) || json_array_size(r) != 2 ||
            json_get_number(json_array_get(r, 0), "range", &q->lo[v], err) != 0 ||
            json_get_number(json_array_get(r, 1), "range", &q->hi[v], err) != 0 ||
            q->lo[v] > q->hi[v])
            return err_invalid(err, "range",
                               "range must be [min, max] with min <= max (or an object "
                               "of such ranges by variable)");
    }
    if (json_is_object(range) && json_object_size(range) > (size_t)q->nvars)
        return err_invalid(err, "range", "range names a variable that is not an x");
    return 0;
}

static int decode_fixed(json_t *body, struct fit_req *q, struct err *err)
{
    const char *key;
    json_t *v;
    int k;

    q->fixed = json_object_get(body, "fixed");
    if (q->fixed == NULL)
        return 0;
    if (!json_is_object(q->fixed) || json_object_size(q->fixed) > LIMIT_INPUTS)
        return err_invalid(err, "fixed",
                           "fixed must be an object of at most %d variables",
                           LIMIT_INPUTS);
    json_object_foreach(q->fixed, key, v)
    {
        if (!json_is_number(v) || !isfinite(json_number_value(v)))
            return err_invalid(err, "fixed", "fixed value of %s must be a finite number",
                               key);
        for (k = 0; k < q->nvars; k++)
            if (strcmp(key, q->names[k]) == 0)
                return err_invalid(err, "fixed",
                                   "%s is the x variable; it cannot be fixed", key);
    }
    return 0;
}

static int decode(json_t *body, arena *a, struct fit_req *q, struct err *err)
{
    static const char *const inline_fields[] = {
        "data", "vars", "graph", "predict", "aggregate", "x", "application", NULL};
    static const char *const db_fields[] = {
        "application", "executable", "system",  "x",         "fixed", "range",
        "y",           "graph",      "predict", "aggregate", NULL};
    json_t *v;

    memset(q, 0, sizeof *q);
    if (!json_is_object(body))
        return err_invalid(err, NULL, "the body must be a JSON object");
    q->from_db = json_object_get(body, "data") == NULL;
    if (json_only_fields(body, q->from_db ? db_fields : inline_fields,
                         q->from_db ? "database form" : "inline form", err) != 0)
        return -1;
    if (decode_vars(body, a, q, err) != 0)
        return -1;
    v = json_object_get(body, "graph");
    if (v != NULL && !json_is_string(v))
        return err_invalid(err, "graph", "graph must be a string such as \"cubic\"");
    q->graph =
        v ? arena_strdup(a, json_string_value(v)) : (q->nvars == 2 ? "auto" : "unknown");
    v = json_object_get(body, "aggregate");
    if (v != NULL && !json_is_string(v))
        return err_invalid(err, "aggregate", "aggregate must be mean, median or min");
    if (agg_parse(v ? json_string_value(v) : NULL, &q->agg, "aggregate", err) != 0)
        return -1;
    if (json_object_get(body, "application") != NULL &&
        (q->application = name_at(body, "application", LIMIT_NAME, a, err)) == NULL)
        return -1;
    if (!q->from_db)
        return decode_data(body, a, q, err) || decode_predict(body, a, q, err);
    if (q->application == NULL)
        return err_invalid(err, "application",
                           "give inline \"data\", or \"application\" and \"system\" to "
                           "fit stored runs");
    if ((q->system = name_at(body, "system", LIMIT_NAME, a, err)) == NULL)
        return -1;
    if (json_object_get(body, "executable") != NULL &&
        (q->executable = name_at(body, "executable", LIMIT_NAME, a, err)) == NULL)
        return -1;
    return decode_y(body, a, q, err) || decode_range(body, q, err) ||
           decode_fixed(body, q, err) || decode_predict(body, a, q, err);
}

/* ---- database form ------------------------------------------------------- */

/* The value of variable `name` of one selected run: nprocs or an input. */
static int var_of(const struct db_sel_row *row, const char *name, double *out)
{
    json_t *v;
    if (strcmp(name, "nprocs") == 0) {
        *out = row->nprocs;
        return 0;
    }
    v = json_object_get(row->inputs, name);
    if (!json_is_number(v))
        return -1;
    *out = json_number_value(v);
    return 0;
}

/* Rejects a selection whose runs differ in a variable that is neither an x
 * nor fixed: mixing two problem sizes in one curve is never what is meant.
 * kept[i] says whether row i was selected; nkept of them were. */
static int check_uniform(const struct fit_req *q, const struct db_sel_rows *rows,
                         const char *kept, size_t nkept, struct err *err)
{
    json_t *seen = json_object(), *v;
    struct buf names;
    const char *key;
    size_t i;
    int k, rc = 0;

    for (i = 0; i < rows->n; i++) {
        json_t *vals;
        if (!kept[i])
            continue;
        vals = json_deep_copy(rows->row[i].inputs);
        json_object_set_new(vals, "nprocs", json_real(rows->row[i].nprocs));
        json_object_foreach(vals, key, v)
        {
            json_t *s = json_object_get(seen, key);
            if (s == NULL)
                json_object_set_new(seen, key, json_pack("[O, i, b]", v, 1, 0));
            else {
                json_array_set_new(
                    s, 1, json_integer(json_integer_value(json_array_get(s, 1)) + 1));
                if (json_number_value(json_array_get(s, 0)) != json_number_value(v))
                    json_array_set_new(s, 2, json_true());
            }
        }
        json_decref(vals);
    }
    buf_init(&names, 4096);
    json_object_foreach(seen, key, v)
    {
        int skip = json_object_get(q->fixed, key) != NULL;
        for (k = 0; k < q->nvars; k++)
            skip |= strcmp(key, q->names[k]) == 0;
        if (skip || (!json_is_true(json_array_get(v, 2)) &&
                     json_integer_value(json_array_get(v, 1)) == (json_int_t)nkept))
            continue;
        buf_puts(&names, buf_str(&names)[0] ? ", " : "");
        buf_puts(&names, key);
    }
    if (buf_str(&names)[0])
        rc = err_invalid(err, "fixed",
                         "the selected runs differ in %s; fix %s with \"fixed\" (or make "
                         "it the x variable)",
                         buf_str(&names), strchr(buf_str(&names), ',') ? "them" : "it");
    buf_free(&names);
    json_decref(seen);
    return rc;
}

/* Explains an empty selection: which name does not exist, or that nothing
 * matched. Always returns -1. */
static int no_runs(db *d, const struct fit_req *q, struct err *err)
{
    long long id = db_app_id(d, q->application, 0, err);
    if (id == 0)
        return err_set(err, 404, "not_found", "application", "application %s not found",
                       q->application);
    if (id > 0 && (id = db_system_id(d, q->system, 0, err)) == 0)
        return err_set(err, 404, "not_found", "system", "system %s not found", q->system);
    if (id < 0)
        return -1;
    return err_set(err, 422, "degenerate", NULL,
                   "no runs of %s%s%s on %s match the selection (x, fixed, range, y)",
                   q->application, q->executable ? " / " : "",
                   q->executable ? q->executable : "", q->system);
}

/* Speedup or efficiency from runtimes: relative to the mean runtime at the
 * smallest nprocs p0, scaled so that S(p0) = p0: S(p) = p0 * T(p0) / T(p),
 * E(p) = S(p) / p. */
static int relative_y(struct fit_req *q, size_t n, struct err *err)
{
    double pmin = INFINITY, tref = 0;
    size_t i;
    int nref = 0;

    for (i = 0; i < n; i++)
        pmin = q->x[i] < pmin ? q->x[i] : pmin;
    for (i = 0; i < n; i++)
        if (q->x[i] == pmin) {
            tref += q->y[i];
            nref++;
        }
    tref /= nref;
    for (i = 0; i < n; i++) {
        if (!(q->y[i] > 0) || !(q->x[i] > 0))
            return err_set(err, 422, "degenerate", "y",
                           "speedup needs positive runtimes and nprocs");
        q->y[i] = pmin * tref / q->y[i] / (q->ykind == Y_EFFICIENCY ? q->x[i] : 1.0);
    }
    return 0;
}

/* Selects the runs of the database form and fills q->x, q->y, q->n. */
static int select_points(db *d, arena *a, struct fit_req *q, struct err *err)
{
    static const enum db_sel_y kinds[] = {[Y_RUNTIME] = DB_SEL_RUNTIME,
                                          [Y_SPEEDUP] = DB_SEL_RUNTIME,
                                          [Y_EFFICIENCY] = DB_SEL_RUNTIME,
                                          [Y_METRIC] = DB_SEL_METRIC,
                                          [Y_KERNEL] = DB_SEL_KERNEL};
    struct db_sel_fit sel;
    struct db_sel_rows rows = {NULL, 0};
    json_t *v;
    const char *key;
    char *kept;
    size_t i, n = 0, nv = (size_t)q->nvars;
    int j, rc = -1;

    if (d == NULL)
        return err_invalid(err, "data", "the database form needs a database");
    /* Narrow in the selection what can be: nprocs (fixed, or x with a range)
     * and the fixed inputs; the loop below checks everything again. */
    memset(&sel, 0, sizeof sel);
    sel.application = q->application;
    sel.system = q->system;
    sel.executable = q->executable;
    sel.y = kinds[q->ykind];
    sel.y_name = sel.y == DB_SEL_RUNTIME ? NULL : q->y_arg;
    sel.np_lo = -DBL_MAX;
    sel.np_hi = DBL_MAX;
    sel.limit = (size_t)FIT_MAX_POINTS + 1;
    sel.inputs = json_object();
    if (sel.inputs == NULL)
        return err_nomem(err);
    json_object_foreach(q->fixed, key, v)
    {
        if (strcmp(key, "nprocs") == 0)
            sel.np_lo = sel.np_hi = json_number_value(v);
        else
            json_object_set(sel.inputs, key, v);
    }
    if (q->nvars == 1 && strcmp(q->names[0], "nprocs") == 0) {
        sel.np_lo = q->lo[0] > sel.np_lo ? q->lo[0] : sel.np_lo;
        sel.np_hi = q->hi[0] < sel.np_hi ? q->hi[0] : sel.np_hi;
    }
    j = db_select_runs(d, &sel, &rows, err);
    json_decref(sel.inputs);
    if (j != 0)
        return -1;
    if (rows.n > FIT_MAX_POINTS) {
        err_set(err, 413, "too_large", NULL,
                "more than %d runs match; narrow the selection with executable, fixed or "
                "range",
                FIT_MAX_POINTS);
        goto out;
    }
    kept = arena_alloc(a, rows.n + 1);
    q->x = arena_alloc(a, (rows.n + 1) * nv * sizeof *q->x);
    q->y = arena_alloc(a, (rows.n + 1) * sizeof *q->y);
    if (kept == NULL || q->x == NULL || q->y == NULL) {
        err_nomem(err);
        goto out;
    }
    for (i = 0; i < rows.n; i++) {
        const struct db_sel_row *row = &rows.row[i];
        int ok = row->has_y;
        for (j = 0; ok && j < q->nvars; j++)
            ok = var_of(row, q->names[j], &q->x[n * nv + (size_t)j]) == 0 &&
                 q->x[n * nv + (size_t)j] >= q->lo[j] &&
                 q->x[n * nv + (size_t)j] <= q->hi[j];
        json_object_foreach(q->fixed, key, v)
        {
            double val;
            ok = ok && var_of(row, key, &val) == 0 && val == json_number_value(v);
        }
        kept[i] = (char)ok;
        if (!ok)
            continue;
        q->y[n] = row->y;
        n++;
    }
    q->n = q->runs = n;
    if (n == 0) {
        no_runs(d, q, err);
        goto out;
    }
    if (check_uniform(q, &rows, kept, n, err) != 0)
        goto out;
    if ((q->ykind == Y_SPEEDUP || q->ykind == Y_EFFICIENCY) && relative_y(q, n, err) != 0)
        goto out;
    rc = 0;
out:
    db_sel_rows_free(&rows);
    return rc;
}

/* ---- the answer -------------------------------------------------------------- */

static json_t *xs_json(const double *x, int nvars)
{
    json_t *a;
    if (nvars == 1)
        return json_real(x[0]);
    a = json_array();
    for (int v = 0; v < nvars; v++)
        json_array_append_new(a, json_real(x[v]));
    return a;
}

static json_t *model_json(const struct fit_req *q, const struct fit_result *res)
{
    const struct fit_model *m = &res->model;
    json_t *coef = json_array(), *model;
    struct buf human, machine;
    int k;

    buf_init(&human, 1 << 16);
    buf_init(&machine, 1 << 16);
    fit_formula(m, q->names, &human);
    fit_machine_formula(m, q->names, &machine);
    for (k = 0; k < m->nterms; k++)
        json_array_append_new(coef, json_real(m->coef[k]));
    model = json_pack(
        "{s:s, s:s, s:s, s:s, s:o, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:I, s:I, s:o}",
        "graph", fit_graph_name(m->graph), "chosen", fit_graph_name(m->chosen), "formula",
        buf_str(&human), "expression", buf_str(&machine), "coefficients", coef, "rss",
        res->stats.rss, "resnorm", res->stats.resnorm, "r2", res->stats.r2, "adj_r2",
        res->stats.adj_r2, "rmse", res->stats.rmse, "smape", res->stats.smape, "cv_rmse",
        res->stats.cv_rmse, "points", (json_int_t)res->stats.npoints, "observations",
        (json_int_t)res->stats.nobs, "state", fit_model_to_json(m));
    buf_free(&human);
    buf_free(&machine);
    return model;
}

/* A fit whose statistics or residuals overflow a double cannot be answered
 * in JSON (which has no inf); that is the data's fault, so a 422. */
static int check_finite(const struct fit_result *res, struct err *err)
{
    const struct fit_stats *st = &res->stats;
    int ok = isfinite(st->rss) && isfinite(st->resnorm) && isfinite(st->r2) &&
             isfinite(st->adj_r2) && isfinite(st->rmse) && isfinite(st->smape) &&
             isfinite(st->cv_rmse) && isfinite(res->model.s2);
    size_t i;
    for (int k = 0; ok && k < res->model.nterms; k++)
        ok = isfinite(res->model.coef[k]);
    for (i = 0; ok && i < res->npoints; i++)
        ok = isfinite(res->points[i].yhat) && isfinite(res->points[i].resid) &&
             isfinite(res->points[i].ymin) && isfinite(res->points[i].ymax);
    if (!ok)
        return err_set(err, 422, "degenerate", "data",
                       "the fit's residuals or statistics overflow a double; rescale y "
                       "(say to other units) and fit again");
    return 0;
}

/* One prediction: {"x", "y", "lo", "hi", "interval"}, or NULL with err. */
static json_t *prediction(const struct fit_model *m, const double *x, struct err *err)
{
    double y, lo, hi;
    if (fit_predict(m, x, &y, &lo, &hi, err) != 0)
        return NULL;
    return json_pack("{s:o, s:f, s:f, s:f, s:b}", "x", xs_json(x, m->nvars), "y", y, "lo",
                     lo, "hi", hi, "interval", m->has_interval);
}

static json_t *answer(const struct fit_req *q, const struct fit_result *res,
                      struct err *err)
{
    json_t *points = json_array(), *preds = json_array(), *vars = json_array(), *out;
    size_t i;
    int v;

    for (i = 0; i < res->npoints; i++) {
        const struct fit_point *p = &res->points[i];
        json_array_append_new(
            points, json_pack("{s:o, s:f, s:f, s:f, s:i, s:f, s:f}", "x",
                              xs_json(p->x, q->nvars), "y", p->y, "ymin", p->ymin, "ymax",
                              p->ymax, "n", p->n, "fit", p->yhat, "residual", p->resid));
    }
    for (v = 0; v < q->nvars; v++)
        json_array_append_new(vars, json_string(q->names[v]));
    out = json_pack("{s:o, s:o, s:o, s:o, s:s, s:s}", "model", model_json(q, res),
                    "points", points, "predictions", preds, "vars", vars, "y",
                    q->y_name ? q->y_name : "y", "aggregate", agg_name(q->agg));
    if (out == NULL)
        return NULL;
    for (i = 0; i < q->npred; i++) {
        json_t *p = prediction(&res->model, &q->pred[i * (size_t)q->nvars], err);
        if (p == NULL) {
            snprintf(err->field, sizeof err->field, "predict[%zu]", i);
            json_decref(out);
            return NULL;
        }
        json_array_append_new(preds, p);
    }
    if (q->application != NULL)
        json_object_set_new(out, "application", json_string(q->application));
    if (q->from_db) {
        json_t *sel = json_pack(
            "{s:s, s:s, s:O, s:I}", "application", q->application, "system", q->system,
            "fixed", q->fixed ? q->fixed : json_object(), "runs", (json_int_t)q->runs);
        if (q->fixed == NULL)
            json_decref(json_object_get(sel, "fixed"));
        if (q->executable)
            json_object_set_new(sel, "executable", json_string(q->executable));
        json_object_set_new(out, "selection", sel);
    }
    return out;
}

json_t *fit_answer(db *d, json_t *request, struct err *err)
{
    arena *a = arena_new();
    struct fit_req q;
    struct fit_input in;
    struct fit_result res;
    json_t *out = NULL;

    if (a == NULL) {
        err_nomem(err);
        return NULL;
    }
    if (decode(request, a, &q, err) != 0 ||
        (q.from_db && select_points(d, a, &q, err) != 0))
        goto done;
    memset(&in, 0, sizeof in);
    in.nvars = q.nvars;
    in.x = q.x;
    in.y = q.y;
    in.n = q.n;
    in.graph = q.graph;
    in.agg = q.agg;
    if (fit_run(&in, &res, err) != 0)
        goto done;
    if (check_finite(&res, err) == 0 && (out = answer(&q, &res, err)) == NULL &&
        err->status == 0)
        err_nomem(err);
    fit_result_free(&res);
done:
    arena_free(a);
    return out;
}

/* ---- saved answers -------------------------------------------------------- */

int fit_answer_read(json_t *ans, struct fit_model *m, const char **names, struct err *err)
{
    json_t *vars = json_object_get(ans, "vars");
    int v;

    if (fit_model_from_json(json_object_get(json_object_get(ans, "model"), "state"), m,
                            err) != 0)
        return -1;
    if (!json_is_array(vars) || json_array_size(vars) != (size_t)m->nvars)
        return err_invalid(err, "model", "the stored model has no variable names");
    for (v = 0; v < m->nvars; v++) {
        names[v] = json_string_value(json_array_get(vars, (size_t)v));
        if (names[v] == NULL)
            return err_invalid(err, "model", "the stored model has no variable names");
    }
    return 0;
}

json_t *fit_predict_saved(json_t *ans, json_t *point, struct err *err)
{
    struct fit_model m;
    const char *names[FIT_MAX_VARS];
    double x[FIT_MAX_VARS];
    json_t *out, *xo;
    int v;

    if (fit_answer_read(ans, &m, names, err) != 0)
        return NULL;
    for (v = 0; v < m.nvars; v++) {
        json_t *val = json_object_get(point, names[v]);
        if (val == NULL) {
            err_invalid(err, names[v], "give the value of %s", names[v]);
            return NULL;
        }
        if (json_get_number(val, names[v], &x[v], err) != 0)
            return NULL;
    }
    if ((out = prediction(&m, x, err)) == NULL)
        return NULL;
    xo = json_object();
    for (v = 0; v < m.nvars; v++)
        json_object_set_new(xo, names[v], json_real(x[v]));
    json_object_set_new(out, "x", xo);
    return out;
}
