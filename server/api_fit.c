/* api_fit: curve fitting as a modeling method (SPEC §5.1, server/modeling.h).
 *
 * fit_answer decodes a request in either form, gathers the points, runs
 * models/fit and builds the answer; fit_predict_saved and fit_plot work from
 * a saved answer alone (its "model"."state" holds the whole fitted model).
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
#include "db/catalog.h"
#include "db/sqlite/sql.h" /* transitional: SQL still outside db/ (issue 11) */
#include "formats/json.h"
#include "formats/limits.h"
#include "models/fit.h"
#include "core/fit_json.h"
#include "server/modeling.h"
#include "web/svg.h"

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

/* The value of variable `name` of one selected row: nprocs or an input. */
static int var_of(json_t *row, const char *name, double *out)
{
    json_t *v = strcmp(name, "nprocs") == 0
                    ? json_object_get(row, "nprocs")
                    : json_object_get(json_object_get(row, "inputs"), name);
    if (!json_is_number(v))
        return -1;
    *out = json_number_value(v);
    return 0;
}

/* Rejects a selection whose runs differ in a variable that is neither an x
 * nor fixed: mixing two problem sizes in one curve is never what is meant.
 * kept[i] says whether row i was selected; nkept of them were. */
static int check_uniform(const struct fit_req *q, json_t *rows, const char *kept,
                         size_t nkept, struct err *err)
{
    json_t *seen = json_object(), *row, *v;
    struct buf names;
    const char *key;
    size_t i;
    int k, rc = 0;

    json_array_foreach(rows, i, row)
    {
        json_t *vals;
        if (!kept[i])
            continue;
        vals = json_deep_copy(json_object_get(row, "inputs"));
        json_object_set(vals, "nprocs", json_object_get(row, "nprocs"));
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

/* The runs of the database form. Bound: ?1 application, ?2 system,
 * ?3 executable or NULL, ?4 the metric or kernel name, ?5 the limit, ?6..?7
 * the nprocs bounds, ?8 the fixed inputs as a JSON object ({} = none); the
 * caller checks x, its range and the uniformity of the rest. */
#define RUNS_INPUTS                                                                      \
    ", (SELECT json_group_object(name, value) FROM run_inputs WHERE run_id = r.id) AS "  \
    "inputs_json"
/* CROSS JOIN fixes the loop order (application, system, executables, runs)
 * so the runs come from runs_by_config (exe_id, system_id, nprocs). */
#define RUNS_WHERE                                                                       \
    " FROM applications a CROSS JOIN systems s CROSS JOIN executables e CROSS JOIN "     \
    "runs "                                                                              \
    "r WHERE e.app_id = a.id AND r.exe_id = e.id AND r.system_id = s.id AND a.name = "   \
    "?1 "                                                                                \
    "AND s.name = ?2 AND (?3 IS NULL OR e.name = ?3) AND r.nprocs BETWEEN ?6 AND ?7 "    \
    "AND "                                                                               \
    "NOT EXISTS (SELECT 1 FROM json_each(?8) f WHERE NOT EXISTS (SELECT 1 FROM "         \
    "run_inputs i WHERE i.run_id = r.id AND i.name = f.key AND i.value = f.value))"
static const char *const select_runs[] = {
    [Y_RUNTIME] = "SELECT r.id, r.nprocs, r.runtime AS y" RUNS_INPUTS RUNS_WHERE
                  " AND ?4 IS NULL ORDER BY r.id LIMIT ?5",
    [Y_METRIC] = "SELECT r.id, r.nprocs, (SELECT value FROM run_metrics WHERE run_id = "
                 "r.id AND name = ?4) AS y" RUNS_INPUTS RUNS_WHERE
                 " AND EXISTS (SELECT 1 FROM run_metrics WHERE run_id = r.id AND name = "
                 "?4) ORDER BY r.id LIMIT ?5",
    [Y_KERNEL] = "SELECT r.id, r.nprocs, (SELECT sum(time) FROM kernels WHERE run_id = "
                 "r.id AND name = ?4) AS y" RUNS_INPUTS RUNS_WHERE
                 " AND EXISTS (SELECT 1 FROM kernels WHERE run_id = r.id AND name = ?4) "
                 "ORDER BY r.id LIMIT ?5",
};

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

/* Selects the runs of the database form and fills q->x, q->y, q->n. */
static int select_points(db *d, arena *a, struct fit_req *q, struct err *err)
{
    enum y_kind k =
        q->ykind == Y_SPEEDUP || q->ykind == Y_EFFICIENCY ? Y_RUNTIME : q->ykind;
    json_t *rows, *row, *v;
    const char *key;
    char *kept;
    size_t i, n = 0, nv = (size_t)q->nvars;
    double pmin = INFINITY, tref = 0, np_lo = -DBL_MAX, np_hi = DBL_MAX;
    json_t *inputs;
    char *text;
    int j, nref = 0, rc = -1;

    if (d == NULL)
        return err_invalid(err, "data", "the database form needs a database");
    /* Narrow in SQL what can be: nprocs (fixed, or x with a range) and the
     * fixed inputs; the loop below checks everything again. */
    inputs = json_object();
    json_object_foreach(q->fixed, key, v)
    {
        if (strcmp(key, "nprocs") == 0)
            np_lo = np_hi = json_number_value(v);
        else
            json_object_set(inputs, key, v);
    }
    if (q->nvars == 1 && strcmp(q->names[0], "nprocs") == 0) {
        np_lo = q->lo[0] > np_lo ? q->lo[0] : np_lo;
        np_hi = q->hi[0] < np_hi ? q->hi[0] : np_hi;
    }
    text = json_dumps(inputs, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(inputs);
    if (text == NULL)
        return err_nomem(err);
    rows = db_query_json(d, select_runs[k], err, "ttttiddt", q->application, q->system,
                         q->executable, k == Y_RUNTIME ? NULL : q->y_arg,
                         (long long)FIT_MAX_POINTS + 1, np_lo, np_hi, text);
    free(text);
    if (rows == NULL)
        return -1;
    if (json_array_size(rows) > FIT_MAX_POINTS) {
        err_set(err, 413, "too_large", NULL,
                "more than %d runs match; narrow the selection with executable, fixed or "
                "range",
                FIT_MAX_POINTS);
        goto out;
    }
    kept = arena_alloc(a, json_array_size(rows) + 1);
    q->x = arena_alloc(a, (json_array_size(rows) + 1) * nv * sizeof *q->x);
    q->y = arena_alloc(a, (json_array_size(rows) + 1) * sizeof *q->y);
    if (kept == NULL || q->x == NULL || q->y == NULL) {
        err_nomem(err);
        goto out;
    }
    json_array_foreach(rows, i, row)
    {
        int ok = json_is_number(json_object_get(row, "y"));
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
        q->y[n] = json_number_value(json_object_get(row, "y"));
        n++;
    }
    q->n = q->runs = n;
    if (n == 0) {
        no_runs(d, q, err);
        goto out;
    }
    if (check_uniform(q, rows, kept, n, err) != 0)
        goto out;
    if (q->ykind == Y_SPEEDUP || q->ykind == Y_EFFICIENCY) {
        /* Relative to the mean runtime at the smallest nprocs p0, scaled so that
         * S(p0) = p0: S(p) = p0 * T(p0) / T(p), E(p) = S(p) / p. */
        for (i = 0; i < n; i++)
            pmin = q->x[i] < pmin ? q->x[i] : pmin;
        for (i = 0; i < n; i++)
            if (q->x[i] == pmin) {
                tref += q->y[i];
                nref++;
            }
        tref /= nref;
        for (i = 0; i < n; i++) {
            if (!(q->y[i] > 0) || !(q->x[i] > 0)) {
                err_set(err, 422, "degenerate", "y",
                        "speedup needs positive runtimes and nprocs");
                goto out;
            }
            q->y[i] = pmin * tref / q->y[i] / (q->ykind == Y_EFFICIENCY ? q->x[i] : 1.0);
        }
    }
    rc = 0;
out:
    json_decref(rows);
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

/* Restores the model and its variable names from a saved answer. */
static int restore(json_t *ans, struct fit_model *m, const char **names, struct err *err)
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

    if (restore(ans, &m, names, err) != 0)
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

/* ---- plots ---------------------------------------------------------------------- */

#define CURVE_SAMPLES 200
#define SURFACE_SIDE 40

static double num(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A title such as "matmul (example) on SGI Origin2000 (example): runtime". */
static void title_of(json_t *ans, struct buf *b)
{
    json_t *sel = json_object_get(ans, "selection");
    const char *y = json_string_value(json_object_get(ans, "y"));
    if (sel != NULL)
        buf_printf(b,
                   "%s on %s: ", json_string_value(json_object_get(sel, "application")),
                   json_string_value(json_object_get(sel, "system")));
    else
        buf_puts(b, "Curve fit: ");
    buf_puts(b, y ? y : "y");
}

static int plot2d(json_t *ans, const struct fit_model *m, const char *name, struct buf *b,
                  struct err *err)
{
    json_t *points = json_object_get(ans, "points"),
           *preds = json_object_get(ans, "predictions");
    json_t *p, *first = json_array_get(preds, 0);
    struct svg_point *pts = xcalloc(json_array_size(points) + 1, sizeof *pts);
    double cx[CURVE_SAMPLES], cy[CURVE_SAMPLES], lo = m->xmin[0], hi = m->xmax[0];
    struct svg_series series = {"measured", pts, 0, 1};
    struct svg_curve curve = {"fitted model", cx, cy, CURVE_SAMPLES, 1, m->xmax[0], 2};
    struct svg_prediction pr;
    struct svg_plot2d plot;
    struct buf title;
    struct err ignored = {0};
    const char *y = json_string_value(json_object_get(ans, "y"));
    char ylabel[256];
    size_t i;
    int rc, logx;

    if (pts == NULL)
        return err_nomem(err);
    json_array_foreach(points, i, p)
    {
        pts[i].x = num(p, "x");
        pts[i].y = num(p, "y");
        pts[i].ymin = num(p, "ymin");
        pts[i].ymax = num(p, "ymax");
        pts[i].has_err = json_integer_value(json_object_get(p, "n")) > 1;
    }
    series.n = json_array_size(points);
    json_array_foreach(preds, i, p)
    {
        double x = num(p, "x");
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
    /* Log axis for ranges over more than a factor 16 (processor counts). */
    logx = lo > 0 && hi / lo >= 16;
    for (i = 0; i < CURVE_SAMPLES; i++) {
        double t = (double)i / (CURVE_SAMPLES - 1);
        cx[i] = logx ? lo * pow(hi / lo, t) : lo + (hi - lo) * t;
        if (fit_eval(m, &cx[i], &cy[i], &ignored) != 0)
            cy[i] = NAN;
    }
    memset(&plot, 0, sizeof plot);
    buf_init(&title, 4096);
    title_of(ans, &title);
    plot.title = buf_str(&title);
    plot.xlabel = name;
    if (y == NULL || strcmp(y, "runtime") == 0 || strncmp(y, "kernel:", 7) == 0)
        snprintf(ylabel, sizeof ylabel, "%.200s%stime [s]", y && y[0] == 'k' ? y + 7 : "",
                 y && y[0] == 'k' ? " " : "run");
    else
        snprintf(ylabel, sizeof ylabel, "%.200s", y);
    plot.ylabel = ylabel;
    plot.xscale = logx ? SVG_LOG10 : SVG_LINEAR;
    plot.series = &series;
    plot.nseries = 1;
    plot.curves = &curve;
    plot.ncurves = 1;
    plot.formula =
        json_string_value(json_object_get(json_object_get(ans, "model"), "formula"));
    if (first != NULL) {
        memset(&pr, 0, sizeof pr);
        pr.x = num(first, "x");
        pr.y = num(first, "y");
        pr.lo = num(first, "lo");
        pr.hi = num(first, "hi");
        pr.has_interval = json_is_true(json_object_get(first, "interval"));
        plot.prediction = &pr;
    }
    rc = svg_plot2d(b, &plot, err);
    buf_free(&title);
    xfree(pts);
    return rc;
}

static int plot3d(json_t *ans, const struct fit_model *m, const char *const *names,
                  struct buf *b, struct err *err)
{
    json_t *points = json_object_get(ans, "points"), *p;
    double gx[SURFACE_SIDE], gy[SURFACE_SIDE], z[SURFACE_SIDE * SURFACE_SIDE];
    struct svg_point3 *pts = xcalloc(json_array_size(points) + 1, sizeof *pts);
    struct svg_plot3d plot;
    struct buf title;
    struct err ignored = {0};
    size_t i, j, n = 0;
    int rc;

    if (pts == NULL)
        return err_nomem(err);
    for (i = 0; i < SURFACE_SIDE; i++) {
        double t = (double)i / (SURFACE_SIDE - 1);
        gx[i] = m->xmin[0] + (m->xmax[0] - m->xmin[0]) * t;
        gy[i] = m->xmin[1] + (m->xmax[1] - m->xmin[1]) * t;
    }
    for (j = 0; j < SURFACE_SIDE; j++)
        for (i = 0; i < SURFACE_SIDE; i++) {
            double x[2] = {gx[i], gy[j]};
            if (fit_eval(m, x, &z[j * SURFACE_SIDE + i], &ignored) != 0)
                z[j * SURFACE_SIDE + i] = NAN;
        }
    json_array_foreach(points, i, p)
    {
        json_t *x = json_object_get(p, "x");
        if (n >= SVG_MAX_3D_POINTS)
            break;
        pts[n].x = json_number_value(json_array_get(x, 0));
        pts[n].y = json_number_value(json_array_get(x, 1));
        pts[n].z = num(p, "y");
        n++;
    }
    memset(&plot, 0, sizeof plot);
    buf_init(&title, 4096);
    title_of(ans, &title);
    plot.title = buf_str(&title);
    plot.xlabel = names[0];
    plot.ylabel = names[1];
    plot.zlabel = json_string_value(json_object_get(ans, "y"));
    plot.x = gx;
    plot.nx = SURFACE_SIDE;
    plot.y = gy;
    plot.ny = SURFACE_SIDE;
    plot.z = z;
    plot.points = pts;
    plot.npoints = n;
    rc = svg_plot3d(b, &plot, err);
    buf_free(&title);
    xfree(pts);
    return rc;
}

int fit_plot(json_t *ans, struct buf *b, struct err *err)
{
    struct fit_model m;
    const char *names[FIT_MAX_VARS];

    if (restore(ans, &m, names, err) != 0)
        return -1;
    if (m.nvars == 1)
        return plot2d(ans, &m, names[0], b, err);
    if (!(m.xmax[0] > m.xmin[0]) || !(m.xmax[1] > m.xmin[1]))
        return err_invalid(err, "model", "a surface needs a range in both variables");
    return plot3d(ans, &m, names, b, err);
}
