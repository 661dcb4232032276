/* method_fit: curve fitting as a modeling method (SPEC §5.1, core/method.h).
 *
 * fit_answer decodes a request in either form (decode), gathers the points
 * (the database form through db/select.h), runs models/fit and writes the
 * answer (answer); fit_predict_saved and fit_answer_read work from a saved
 * answer alone (its "model"."state" holds the whole fitted model), so a
 * saved answer and a fresh one are read by the same code. Plot: web/chart_fit.c.
 *
 * Inline form: {"data": [[x, y], ...], "x": "N", "graph": "cubic",
 * "predict": [1200], "aggregate": "mean"} or with two variables
 * {"vars": ["N", "P"], "data": [[n, p, y], ...], "predict": [[n, p]]}.
 * Database form: {"application", "system", "executable", "x": "N" (or
 * "nprocs", or two names), "fixed": {"nprocs": 8}, "range": [100, 1000],
 * "y": "runtime" | "speedup" | "efficiency" | "metric:NAME" | "kernel:NAME",
 * "graph", "predict", "aggregate"}.
 * Either form may add "basis", a machine curve the fit follows (docs/models.md
 * §12): inline {"name": "MPISR", "data": [[L, t], ...]} or a system's stored
 * benchmark {"benchmark": "MPISR", "system"?, "arg"?, "at"?, "stat"?}.
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
#include "core/fit_basis_req.h"
#include "core/config_order.h"

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
    /* suggest: the target and the candidate points (ncand * nvars) */
    double target[FIT_MAX_VARS];
    double *cand;
    size_t ncand;
    /* database form */
    int from_db;
    const char *application, *executable, *system;
    const char *y_name; /* as requested: "runtime", "metric:flops", ... */
    enum y_kind ykind;
    const char *y_arg; /* the metric or kernel name */
    json_t *fixed;     /* borrowed from the request: name -> number */
    double lo[FIT_MAX_VARS], hi[FIT_MAX_VARS];
    size_t runs; /* runs selected */
    /* variables neither x nor fixed that change with the one x
     * (config_varies_with_x: a weak-scaling series), arena strings */
    const char *with_x[LIMIT_INPUTS + 1];
    size_t nwith_x;
    struct fit_point *pts; /* the database form's points, aggregated */
    size_t npts;
    struct basis_req basis; /* "basis": a machine curve (core/fit_basis_req.h) */
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
        return err_set(err, ERR_TOO_LARGE, "too_large", "data",
                       "more than %d data points", FIT_MAX_POINTS);
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
        /* null: the runs without that input (every run has nprocs) */
        if (json_is_null(v) && strcmp(key, "nprocs") != 0)
            ;
        else if (!json_is_number(v) || !isfinite(json_number_value(v)))
            return err_invalid(err, "fixed",
                               "fixed value of %s must be a finite number (or, for an "
                               "input, null: the runs without it)",
                               key);
        for (k = 0; k < q->nvars; k++)
            if (strcmp(key, q->names[k]) == 0)
                return err_invalid(err, "fixed",
                                   "%s is the x variable; it cannot be fixed", key);
    }
    return 0;
}

/* One point of `nvars` numbers: a number (one variable) or [x1, x2]. */
static int decode_point(json_t *v, const char *field, int nvars, double *out,
                        struct err *err)
{
    size_t j;
    if (nvars == 1)
        return json_get_number(v, field, out, err);
    if (!json_is_array(v) || json_array_size(v) != 2)
        return err_invalid(err, field, "%s must be [x1, x2]", field);
    for (j = 0; j < 2; j++)
        if (json_get_number(json_array_get(v, j), field, &out[j], err) != 0)
            return -1;
    return 0;
}

/* suggest: "target" (one point) and "candidates" (1..LIMIT_SUGGEST points). */
static int decode_suggest(json_t *body, arena *a, struct fit_req *q, struct err *err)
{
    json_t *cand = json_object_get(body, "candidates"), *row;
    char field[64];
    size_t i;

    if (json_object_get(body, "target") == NULL)
        return err_invalid(err, "target",
                           "give the \"target\" at which the interval should narrow");
    if (decode_point(json_object_get(body, "target"), "target", q->nvars, q->target,
                     err) != 0)
        return -1;
    if (!json_is_array(cand) || json_array_size(cand) == 0)
        return err_invalid(err, "candidates",
                           "give \"candidates\": a non-empty array of the points one "
                           "could measure");
    if (json_array_size(cand) > LIMIT_SUGGEST)
        return err_invalid(err, "candidates", "at most %d candidates", LIMIT_SUGGEST);
    q->ncand = json_array_size(cand);
    q->cand = arena_alloc(a, q->ncand * (size_t)q->nvars * sizeof *q->cand);
    if (q->cand == NULL)
        return err_nomem(err);
    json_array_foreach(cand, i, row)
    {
        snprintf(field, sizeof field, "candidates[%zu]", i);
        if (decode_point(row, field, q->nvars, &q->cand[i * (size_t)q->nvars], err) != 0)
            return -1;
    }
    return 0;
}

static int decode(json_t *body, arena *a, struct fit_req *q, int suggest, struct err *err)
{
    static const char *const inline_fields[] = {"data",        "vars",      "graph",
                                                "predict",     "aggregate", "x",
                                                "application", "basis",     NULL};
    static const char *const db_fields[] = {
        "application", "executable", "system",  "x",         "fixed", "range",
        "y",           "graph",      "predict", "aggregate", "basis", NULL};
    static const char *const inline_suggest[] = {
        "data",        "vars",   "graph",      "aggregate", "x",
        "application", "target", "candidates", "basis",     NULL};
    static const char *const db_suggest[] = {
        "application", "executable", "system",     "x",         "fixed", "range", "y",
        "graph",       "target",     "candidates", "aggregate", "basis", NULL};
    json_t *v;

    memset(q, 0, sizeof *q);
    if (!json_is_object(body))
        return err_invalid(err, NULL, "the body must be a JSON object");
    q->from_db = json_object_get(body, "data") == NULL;
    if (json_only_fields(body,
                         q->from_db ? (suggest ? db_suggest : db_fields)
                                    : (suggest ? inline_suggest : inline_fields),
                         q->from_db ? "database form" : "inline form", err) != 0)
        return -1;
    if (decode_vars(body, a, q, err) != 0)
        return -1;
    v = json_object_get(body, "graph");
    if (v != NULL && !json_is_string(v))
        return err_invalid(err, "graph", "graph must be a string such as \"cubic\"");
    /* without a graph: `auto` (SPEC §18; the paper's `unknown` stays
     * selectable) */
    q->graph = v ? arena_strdup(a, json_string_value(v)) : "auto";
    v = json_object_get(body, "aggregate");
    if (v != NULL && !json_is_string(v))
        return err_invalid(err, "aggregate", "aggregate must be mean, median or min");
    if (agg_parse(v ? json_string_value(v) : NULL, &q->agg, "aggregate", err) != 0)
        return -1;
    {
        /* `auto` with the mean takes the median of a configuration with a
         * spike (agg_spiky), as fit_run does with inline data */
        enum fit_graph g;
        struct err ge = {0};
        if (q->agg == AGG_MEAN && fit_graph_parse(q->graph, &g, &ge) == 0 &&
            g == FIT_AUTO)
            q->agg = AGG_MEAN_SPIKE;
    }
    if (json_object_get(body, "application") != NULL &&
        (q->application = name_at(body, "application", LIMIT_NAME, a, err)) == NULL)
        return -1;
    if (!q->from_db)
        return decode_data(body, a, q, err) || decode_predict(body, a, q, err) ||
               (suggest && decode_suggest(body, a, q, err)) ||
               basis_decode(body, 0, a, &q->basis, err);
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
           decode_fixed(body, q, err) || decode_predict(body, a, q, err) ||
           (suggest && decode_suggest(body, a, q, err)) ||
           basis_decode(body, 1, a, &q->basis, err);
}

/* ---- database form ------------------------------------------------------- */

/* The database form reads its selection as configurations (run_configs:
 * every run of one has the same executable, system, nprocs and inputs) and
 * lets the database reduce each configuration's runs to a count, sum,
 * minimum and maximum of y (the summary's own for the runtime, db_fit_sums
 * for another y), then, per point, the sums of
 * squares about its mean and its aggregated value (db_fit_spread) and, for a
 * median, the order statistics (db_fit_nth): the points fit_run would build
 * from every run, without a run crossing into C. The same checks apply,
 * configuration by configuration (a configuration's variables are those of
 * each of its runs). */

/* One candidate configuration: its x (unused variables 0) and, once read,
 * its runs' sums. */
struct cand {
    const struct db_fit_config *c;
    double x[FIT_MAX_VARS];
    struct db_fit_sum s;
};

/* The value of variable `name` of a configuration: nprocs or an input. */
static int var_of(const struct db_fit_config *c, const char *name, double *out)
{
    json_t *v;
    if (strcmp(name, "nprocs") == 0) {
        *out = c->nprocs;
        return 0;
    }
    v = json_object_get(c->inputs, name);
    if (!json_is_number(v))
        return -1;
    *out = json_number_value(v);
    return 0;
}

/* Whether variable key, which each of the n configurations has, changes
 * with the one x (config_varies_with_x); t has room for n pairs. */
static int varies_with_x(const struct cand *cs, size_t n, const char *key,
                         struct config_xv *t)
{
    for (size_t i = 0; i < n; i++) {
        t[i].x = cs[i].x[0];
        if (var_of(cs[i].c, key, &t[i].v) != 0)
            return 0;
    }
    return config_varies_with_x(t, n);
}

/* Rejects a selection whose runs differ in a variable that is neither an x
 * nor fixed: mixing two problem sizes in one curve is never what is meant.
 * With one x, a variable that changes with it is no mix (a weak-scaling
 * series, where the size grows with the processes: config_varies_with_x),
 * and q->with_x names it. The n configurations cs are those with runs
 * selected. */
static int check_uniform(struct fit_req *q, const struct cand *cs, size_t n, arena *a,
                         struct err *err)
{
    json_t *seen = json_object(), *v;
    struct config_xv *t = NULL; /* made where a variable differs */
    struct buf names;
    const char *key;
    size_t i;
    int k, rc = 0;

    if (seen == NULL)
        return err_nomem(err);
    q->nwith_x = 0;
    for (i = 0; i < n; i++) {
        json_t *vals = json_deep_copy(cs[i].c->inputs);
        json_object_set_new(vals, "nprocs", json_real(cs[i].c->nprocs));
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
                     json_integer_value(json_array_get(v, 1)) == (json_int_t)n))
            continue;
        /* every configuration has it (a variable some lack tells families
         * apart, not a size that grows with x) */
        if (q->nvars == 1 && q->nwith_x < LIMIT_INPUTS &&
            json_integer_value(json_array_get(v, 1)) == (json_int_t)n) {
            if (t == NULL && (t = xmalloc(n * sizeof *t)) == NULL) {
                rc = err_nomem(err);
                break;
            }
            if (varies_with_x(cs, n, key, t)) {
                if ((q->with_x[q->nwith_x++] = arena_strdup(a, key)) == NULL)
                    rc = err_nomem(err);
                continue;
            }
        }
        buf_puts(&names, buf_str(&names)[0] ? ", " : "");
        buf_puts(&names, key);
    }
    if (rc == 0 && buf_str(&names)[0])
        rc = err_invalid(err, "fixed",
                         "the selected runs differ in %s; fix %s with \"fixed\" (or make "
                         "it the x variable)",
                         buf_str(&names), strchr(buf_str(&names), ',') ? "them" : "it");
    buf_free(&names);
    json_decref(seen);
    xfree(t);
    return rc;
}

/* Explains an empty selection: which name does not exist, or that nothing
 * matched. Always returns -1. */
static int no_runs(db *d, const struct fit_req *q, struct err *err)
{
    long long id = db_app_id(d, q->application, 0, err);
    if (id == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", "application",
                       "application %s not found", q->application);
    if (id > 0 && (id = db_system_id(d, q->system, 0, err)) == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", "system", "system %s not found",
                       q->system);
    if (id < 0)
        return -1;
    /* a kernel without a time (SPEC §16) is no value of kernel:NAME: say so,
     * since the run pages list the kernel */
    return err_set(err, ERR_INVALID, "degenerate", NULL,
                   "no runs of %s%s%s on %s match the selection (x, fixed, range, y)%s",
                   q->application, q->executable ? " / " : "",
                   q->executable ? q->executable : "", q->system,
                   q->ykind == Y_KERNEL ? "; a run counts for kernel:NAME only where the "
                                          "kernel has a time (for a file without a time "
                                          "metric, fit y = metric:NAME)"
                                        : "");
}

_Static_assert(LIMIT_FIT_RUNS == FIT_MAX_OBS && LIMIT_FIT_POINTS == FIT_MAX_POINTS,
               "formats/limits.h and models/fit.h agree");

/* Too many configurations (points) or runs (read in SQL: ~0.1 us a run). */
static int too_many(const char *what, long long limit, struct err *err)
{
    return err_set(err, ERR_TOO_LARGE, "too_large", NULL,
                   "more than %lld %s match; narrow the selection with executable, fixed "
                   "or range",
                   limit, what);
}

/* Orders candidates by x (x1, then x2), then configuration. */
static int cmp_cand(const void *pa, const void *pb)
{
    const struct cand *a = pa, *b = pb;
    int v;
    for (v = 0; v < FIT_MAX_VARS; v++)
        if (a->x[v] != b->x[v])
            return a->x[v] < b->x[v] ? -1 : 1;
    return (a->c->id > b->c->id) - (a->c->id < b->c->id);
}

/* Whether two candidates are at one x (and so make one point). */
static int same_x(const struct cand *a, const struct cand *b)
{
    int v;
    for (v = 0; v < FIT_MAX_VARS; v++)
        if (a->x[v] != b->x[v])
            return 0;
    return 1;
}

/* Speedup or efficiency: the scale of y = scale / runtime (/ nprocs). Runtimes
 * are relative to the mean runtime T(p0) at the smallest nprocs p0, scaled so
 * that S(p0) = p0: S(p) = p0 * T(p0) / T(p), E(p) = S(p) / p (per run, then
 * aggregated). */
static int relative_scale(const struct cand *cs, const struct db_fit_sum *s, size_t n,
                          double *scale, struct err *err)
{
    double pmin = INFINITY, tref = 0;
    size_t i, nref = 0;

    for (i = 0; i < n; i++)
        pmin = cs[i].x[0] < pmin ? cs[i].x[0] : pmin;
    for (i = 0; i < n; i++) {
        if (!(s[i].min > 0) || !(cs[i].x[0] > 0))
            return err_set(err, ERR_INVALID, "degenerate", "y",
                           "speedup needs positive runtimes and nprocs");
        if (cs[i].x[0] == pmin) {
            tref += s[i].sum;
            nref += s[i].n;
        }
    }
    tref /= (double)nref;
    *scale = pmin * tref;
    return 0;
}

/* One point from the configurations cs[0..k) of equal x: the point fit_run
 * would aggregate from their runs. */
static int point_of(db *d, const struct fit_req *q, const struct db_fit_y *y,
                    const struct cand *cs, size_t k, long long *ids, struct fit_point *p,
                    struct err *err)
{
    double mean, ssm = 0, ssc = 0, v[2];
    size_t i, n = 0;
    int j;

    memset(p, 0, sizeof *p);
    for (j = 0; j < q->nvars; j++)
        p->x[j] = cs[0].x[j];
    p->ymin = cs[0].s.min;
    p->ymax = cs[0].s.max;
    mean = 0;
    for (i = 0; i < k; i++) {
        ids[i] = cs[i].c->id;
        n += cs[i].s.n;
        mean += cs[i].s.sum;
        p->ymin = cs[i].s.min < p->ymin ? cs[i].s.min : p->ymin;
        p->ymax = cs[i].s.max > p->ymax ? cs[i].s.max : p->ymax;
    }
    mean /= (double)n;
    p->n = (int)n;
    if (q->agg == AGG_MEDIAN || (q->agg == AGG_MEAN_SPIKE && n >= AGG_SPIKE_RUNS &&
                                 p->ymax > AGG_SPIKE * p->ymin)) {
        /* the median; with the mean of `auto` only to see whether a spike
         * makes it the point (agg_spiky; a spike needs max > AGG_SPIKE min) */
        if (db_fit_nth(d, y, ids, k, n % 2 ? n / 2 : n / 2 - 1, n % 2 == 0, v, err) != 0)
            return -1;
        p->y = n % 2 ? v[0] : 0.5 * (v[0] + v[1]);
        if (q->agg == AGG_MEAN_SPIKE && !agg_spiky(p->y, p->ymin, p->ymax, (int)n))
            p->y = mean;
    } else {
        p->y = q->agg == AGG_MIN ? p->ymin : mean;
    }
    /* One run: its value is its mean, median and minimum. */
    if (n > 1 && db_fit_spread(d, y, ids, k, mean, p->y, &ssm, &ssc, err) != 0)
        return -1;
    p->sd = n > 1 ? sqrt(ssm / (double)(n - 1)) : 0;
    p->ss = ssc;
    return 0;
}

/* Selects and aggregates the database form's points into q->pts, q->npts
 * (q->runs the runs they hold). d is in a read transaction. */
static int select_in(db *d, arena *a, struct fit_req *q, const struct db_sel_fit *sel,
                     struct db_fit_configs *cfg, struct err *err)
{
    static const enum db_sel_y kinds[] = {[Y_RUNTIME] = DB_SEL_RUNTIME,
                                          [Y_SPEEDUP] = DB_SEL_RUNTIME,
                                          [Y_EFFICIENCY] = DB_SEL_RUNTIME,
                                          [Y_METRIC] = DB_SEL_METRIC,
                                          [Y_KERNEL] = DB_SEL_KERNEL};
    struct db_fit_y y;
    struct cand *cs;
    struct db_fit_sum *s;
    long long *ids;
    const char *key;
    json_t *v;
    size_t i, j, n = 0, k, total = 0;

    if (db_select_fit_configs(d, sel, cfg, err) != 0)
        return -1;
    if (cfg->n > FIT_MAX_POINTS)
        return too_many("configurations", FIT_MAX_POINTS, err);
    cs = arena_alloc(a, (cfg->n + 1) * sizeof *cs);
    s = arena_alloc(a, (cfg->n + 1) * sizeof *s);
    ids = arena_alloc(a, (cfg->n + 1) * sizeof *ids);
    q->pts = arena_alloc(a, (cfg->n + 1) * sizeof *q->pts);
    if (cs == NULL || s == NULL || ids == NULL || q->pts == NULL)
        return err_nomem(err);
    /* The candidates: every x there and in its range, every fixed value. */
    for (i = 0; i < cfg->n; i++) {
        struct cand *c = &cs[n];
        int ok = 1, w;
        memset(c, 0, sizeof *c);
        c->c = &cfg->c[i];
        for (w = 0; ok && w < q->nvars; w++)
            ok = var_of(c->c, q->names[w], &c->x[w]) == 0 && c->x[w] >= q->lo[w] &&
                 c->x[w] <= q->hi[w];
        json_object_foreach(q->fixed, key, v)
        {
            double val;
            int has = var_of(c->c, key, &val) == 0;
            ok = ok && (json_is_null(v) ? !has : has && val == json_number_value(v));
        }
        if (ok)
            s[n++].config = c->c->id;
    }
    memset(&y, 0, sizeof y);
    y.y = kinds[q->ykind];
    y.name = y.y == DB_SEL_RUNTIME ? NULL : q->y_arg;
    if (y.y == DB_SEL_RUNTIME) {
        /* The summary holds them: its timed runs (SPEC §16: a run may have
         * no runtime, and counts for metric and kernel fits only). */
        for (i = 0; i < n; i++) {
            s[i].n = cs[i].c->timed;
            s[i].sum = cs[i].c->sum_runtime;
            s[i].min = cs[i].c->min_runtime;
            s[i].max = cs[i].c->max_runtime;
        }
    } else if (db_fit_sums(d, &y, s, n, err) != 0) {
        return -1;
    }
    /* Those with runs having y. */
    for (i = j = 0; i < n; i++)
        if (s[i].n > 0) {
            cs[j] = cs[i];
            s[j++] = s[i];
            total += s[i].n;
        }
    if (j == 0 && y.y == DB_SEL_RUNTIME) {
        size_t untimed = 0;
        for (i = 0; i < n; i++)
            untimed += cs[i].c->runs;
        if (untimed > 0)
            return err_set(err, ERR_INVALID, "degenerate", "y",
                           "y: none of the %zu matching runs of %s on %s has a runtime; "
                           "fit y = metric:NAME or kernel:NAME instead",
                           untimed, q->application, q->system);
    }
    n = j;
    q->runs = total;
    if (total > LIMIT_FIT_RUNS)
        return too_many("runs", LIMIT_FIT_RUNS, err);
    if (n == 0)
        return no_runs(d, q, err);
    if (check_uniform(q, cs, n, a, err) != 0)
        return -1;
    if (q->ykind == Y_SPEEDUP || q->ykind == Y_EFFICIENCY) {
        y.scaled = 1;
        y.per_proc = q->ykind == Y_EFFICIENCY;
        if (relative_scale(cs, s, n, &y.scale, err) != 0 ||
            db_fit_sums(d, &y, s, n, err) != 0)
            return -1;
        for (i = 0; i < n; i++)
            if (s[i].n == 0)
                return err_set(err, ERR_INVALID, "degenerate", NULL,
                               "the runs changed while the fit read them; fit again");
    }
    for (i = 0; i < n; i++)
        cs[i].s = s[i];
    qsort(cs, n, sizeof *cs, cmp_cand);
    q->npts = 0;
    for (i = 0; i < n; i += k) {
        for (k = 1; i + k < n && same_x(&cs[i], &cs[i + k]); k++)
            ;
        if (point_of(d, q, &y, &cs[i], k, ids, &q->pts[q->npts++], err) != 0)
            return -1;
    }
    return 0;
}

/* The database form's points. */
static int select_points(db *d, arena *a, struct fit_req *q, struct err *err)
{
    struct db_sel_fit sel;
    struct db_fit_configs cfg = {NULL, 0};
    json_t *v;
    const char *key;
    int rc, began;

    if (d == NULL)
        return err_invalid(err, "data", "the database form needs a database");
    /* Narrow in the selection what can be: nprocs (fixed, or x with a range)
     * and the fixed inputs; select_in checks everything again. */
    memset(&sel, 0, sizeof sel);
    sel.application = q->application;
    sel.system = q->system;
    sel.executable = q->executable;
    sel.np_lo = -DBL_MAX;
    sel.np_hi = DBL_MAX;
    sel.limit = (size_t)FIT_MAX_POINTS;
    sel.inputs = json_object();
    if (sel.inputs == NULL)
        return err_nomem(err);
    json_object_foreach(q->fixed, key, v)
    {
        if (strcmp(key, "nprocs") == 0)
            sel.np_lo = sel.np_hi = json_number_value(v);
        else if (!json_is_null(v)) /* an absent input is select_in's to check */
            json_object_set(sel.inputs, key, v);
    }
    if (q->nvars == 1 && strcmp(q->names[0], "nprocs") == 0) {
        sel.np_lo = q->lo[0] > sel.np_lo ? q->lo[0] : sel.np_lo;
        sel.np_hi = q->hi[0] < sel.np_hi ? q->hi[0] : sel.np_hi;
    }
    if ((began = db_select_begin(d, err)) < 0) {
        json_decref(sel.inputs);
        return -1;
    }
    rc = select_in(d, a, q, &sel, &cfg, err);
    if (began == 0)
        db_select_end(d);
    db_fit_configs_free(&cfg);
    json_decref(sel.inputs);
    return rc;
}

/* ---- the answer -------------------------------------------------------------- */

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
    if (model != NULL && m->basis.n > 0) {
        json_t *b =
            json_pack("{s:s, s:i, s:f, s:f, s:f, s:f}", "name", m->basis.name, "points",
                      m->basis.n, "from", m->basis.x[0], "to", m->basis.x[m->basis.n - 1],
                      "scale", m->basis.scale, "power", m->basis.power);
        basis_describe(&q->basis, b); /* the series' label and test */
        json_object_set_new(model, "basis", b);
    }
    return model;
}

/* A fit whose statistics or residuals overflow a double cannot be answered
 * in JSON (which has no inf); that is the data's fault, so an ERR_INVALID. */
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
        return err_set(err, ERR_INVALID, "degenerate", "data",
                       "the fit's residuals or statistics overflow a double; rescale y "
                       "(say to other units) and fit again");
    return 0;
}

static json_t *answer(const struct fit_req *q, const struct fit_result *res,
                      struct err *err)
{
    json_t *points = json_array(), *preds = json_array(), *vars = json_array(), *out;
    size_t i;
    int v;

    for (i = 0; i < res->npoints; i++) {
        const struct fit_point *p = &res->points[i];
        json_array_append_new(points,
                              json_pack("{s:o, s:f, s:f, s:f, s:i, s:f, s:f}", "x",
                                        fit_x_json(p->x, q->nvars), "y", p->y, "ymin",
                                        p->ymin, "ymax", p->ymax, "n", p->n, "fit",
                                        p->yhat, "residual", p->resid));
    }
    for (v = 0; v < q->nvars; v++)
        json_array_append_new(vars, json_string(q->names[v]));
    out = json_pack("{s:o, s:o, s:o, s:o, s:s, s:s}", "model", model_json(q, res),
                    "points", points, "predictions", preds, "vars", vars, "y",
                    q->y_name ? q->y_name : "y", "aggregate", agg_name(q->agg));
    if (out == NULL)
        return NULL;
    for (i = 0; i < q->npred; i++) {
        json_t *p = fit_prediction_json(&res->model, &q->pred[i * (size_t)q->nvars], err);
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
        if (q->nwith_x > 0) {
            json_t *w = json_array();
            for (size_t k = 0; k < q->nwith_x; k++)
                json_array_append_new(w, json_string(q->with_x[k]));
            json_object_set_new(sel, "varies_with_x", w);
        }
        json_object_set_new(out, "selection", sel);
    }
    return out;
}

/* Decodes a request (a suggest request when suggest is 1), gathers its
 * points and fits them. 0 with *res to free (fit_result_free), or -1. */
static int fit_request(db *d, json_t *request, arena *a, int suggest, struct fit_req *q,
                       struct fit_result *res, struct err *err)
{
    struct fit_input in;

    if (decode(request, a, q, suggest, err) != 0 ||
        basis_resolve(d, q->system, a, &q->basis, err) != 0 ||
        (q->from_db && select_points(d, a, q, err) != 0))
        return -1;
    if (q->from_db) {
        if (fit_run_points(q->pts, q->npts, q->nvars, q->graph, q->basis.curve, q->runs,
                           res, err) != 0)
            return -1;
        if (check_finite(res, err) != 0) {
            fit_result_free(res);
            return -1;
        }
        return 0;
    }
    memset(&in, 0, sizeof in);
    in.nvars = q->nvars;
    in.x = q->x;
    in.y = q->y;
    in.n = q->n;
    in.graph = q->graph;
    in.agg = q->agg;
    in.basis = q->basis.curve;
    if (fit_run(&in, res, err) != 0)
        return -1;
    if (check_finite(res, err) != 0) {
        fit_result_free(res);
        return -1;
    }
    return 0;
}

json_t *fit_answer(db *d, json_t *request, struct err *err)
{
    arena *a = arena_new();
    struct fit_req q;
    struct fit_result res;
    json_t *out = NULL;

    if (a == NULL) {
        err_nomem(err);
        return NULL;
    }
    if (fit_request(d, request, a, 0, &q, &res, err) != 0)
        goto done;
    if ((out = answer(&q, &res, err)) == NULL && err->status == 0)
        err_nomem(err);
    fit_result_free(&res);
done:
    arena_free(a);
    return out;
}

/* The suggestions, ranked (order from fit_suggest), or NULL. */
static json_t *suggestions(const struct fit_req *q, const double *gain,
                           const size_t *order)
{
    json_t *out = json_array();
    size_t i;
    for (i = 0; out != NULL && i < q->ncand; i++) {
        size_t c = order[i];
        json_t *s = json_pack("{s:o, s:f}", "x",
                              fit_x_json(&q->cand[c * (size_t)q->nvars], q->nvars),
                              "narrowing", gain[c]);
        if (s == NULL || json_array_append_new(out, s) != 0) {
            json_decref(out);
            return NULL;
        }
    }
    return out;
}

json_t *fit_suggest_answer(db *d, json_t *request, struct err *err)
{
    arena *a = arena_new();
    struct fit_req q;
    struct fit_result res;
    json_t *out = NULL, *at = NULL, *list;
    double *gain;
    size_t *order;

    if (a == NULL) {
        err_nomem(err);
        return NULL;
    }
    if (fit_request(d, request, a, 1, &q, &res, err) != 0)
        goto done;
    gain = arena_alloc(a, q.ncand * sizeof *gain);
    order = arena_alloc(a, q.ncand * sizeof *order);
    if (gain == NULL || order == NULL) {
        err_nomem(err);
        goto free_fit;
    }
    if (!res.model.has_interval) {
        err_set(
            err, ERR_INVALID, "degenerate", "data",
            "the fit leaves no degrees of freedom, so there is no interval to narrow; "
            "measure more points or choose a simpler graph");
        goto free_fit;
    }
    if ((at = fit_prediction_json(&res.model, q.target, err)) == NULL) {
        snprintf(err->field, sizeof err->field, "target");
        goto free_fit;
    }
    if (fit_suggest(&res, q.target, q.cand, q.ncand, gain, order, err) != 0)
        goto free_fit;
    if ((list = suggestions(&q, gain, order)) == NULL ||
        (out = json_pack("{s:o, s:O, s:{s:s, s:s, s:s}}", "suggestions", list, "target",
                         at, "model", "graph", fit_graph_name(res.model.graph), "chosen",
                         fit_graph_name(res.model.chosen), "formula", "")) == NULL) {
        err_nomem(err);
        goto free_fit;
    }
    {
        struct buf f;
        buf_init(&f, 1 << 16);
        fit_formula(&res.model, q.names, &f);
        json_object_set_new(json_object_get(out, "model"), "formula",
                            json_string(buf_str(&f)));
        buf_free(&f);
    }
free_fit:
    json_decref(at);
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
    if ((out = fit_prediction_json(&m, x, err)) == NULL)
        return NULL;
    xo = json_object();
    for (v = 0; v < m.nvars; v++)
        json_object_set_new(xo, names[v], json_real(x[v]));
    json_object_set_new(out, "x", xo);
    return out;
}

/* The answer's points back as aggregated points of a fit_result (what
 * fit_suggest reads: x, y, n, the fitted value and the residual). */
static int points_read(json_t *ans, int nvars, struct fit_result *res, struct err *err)
{
    json_t *pts = json_object_get(ans, "points"), *p;
    size_t i;

    if (!json_is_array(pts) || json_array_size(pts) == 0 ||
        json_array_size(pts) > FIT_MAX_POINTS)
        return err_invalid(err, "model", "the stored model has no points");
    res->points = xcalloc(json_array_size(pts), sizeof *res->points);
    if (res->points == NULL)
        return err_nomem(err);
    res->npoints = json_array_size(pts);
    json_array_foreach(pts, i, p)
    {
        struct fit_point *q = &res->points[i];
        json_t *x = json_object_get(p, "x");
        int v, ok = 1;
        for (v = 0; v < nvars; v++) {
            json_t *xv = nvars == 1 ? x : json_array_get(x, (size_t)v);
            ok = ok && json_is_number(xv);
            q->x[v] = json_number_value(xv);
        }
        ok = ok && json_is_number(json_object_get(p, "y")) &&
             json_is_integer(json_object_get(p, "n"));
        q->y = json_number_value(json_object_get(p, "y"));
        q->ymin = json_number_value(json_object_get(p, "ymin"));
        q->ymax = json_number_value(json_object_get(p, "ymax"));
        q->n = (int)json_integer_value(json_object_get(p, "n"));
        q->yhat = json_number_value(json_object_get(p, "fit"));
        q->resid = json_number_value(json_object_get(p, "residual"));
        if (!ok || q->n < 1) {
            fit_result_free(res);
            return err_invalid(err, "model", "the stored model's points are malformed");
        }
    }
    return 0;
}

json_t *fit_suggest_saved(json_t *ans, const double *target, const double *cand,
                          size_t ncand, struct err *err)
{
    struct fit_result res;
    const char *names[FIT_MAX_VARS];
    double *gain = NULL;
    size_t *order = NULL, i;
    json_t *out = NULL, *at = NULL, *list = NULL;

    memset(&res, 0, sizeof res);
    if (ncand == 0 || ncand > LIMIT_SUGGEST) {
        err_invalid(err, "candidates", "give 1 to %d candidates", LIMIT_SUGGEST);
        return NULL;
    }
    if (fit_answer_read(ans, &res.model, names, err) != 0 ||
        points_read(ans, res.model.nvars, &res, err) != 0)
        return NULL;
    gain = xcalloc(ncand, sizeof *gain);
    order = xcalloc(ncand, sizeof *order);
    if (gain == NULL || order == NULL) {
        err_nomem(err);
        goto out;
    }
    if ((at = fit_prediction_json(&res.model, target, err)) == NULL ||
        fit_suggest(&res, target, cand, ncand, gain, order, err) != 0)
        goto out;
    list = json_array();
    for (i = 0; list != NULL && i < ncand; i++) {
        size_t c = order[i];
        json_array_append_new(
            list,
            json_pack("{s:o, s:f}", "x",
                      fit_x_json(&cand[c * (size_t)res.model.nvars], res.model.nvars),
                      "narrowing", gain[c]));
    }
    out = json_pack("{s:o, s:O}", "suggestions", list, "target", at);
    if (out == NULL)
        err_nomem(err);
out:
    json_decref(at);
    xfree(gain);
    xfree(order);
    fit_result_free(&res);
    return out;
}
