/* api_fit: POST /api/v1/fit, curve fitting over HTTP (SPEC §5.1), inline form.
 *
 * The request is decoded and checked here; the fitting itself is models/fit.
 * Inline form: {"data": [[x, y], ...], "graph": "cubic", "predict": [1200],
 * "aggregate": "mean", "x": "N"} or, with two variables,
 * {"vars": ["N", "P"], "data": [[n, p, y], ...], "predict": [[n, p]]}.
 */
#include "common/xalloc.h"
#include "models/fit.h"
#include "server/routes.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define FIT_MAX_PREDICT 1000

struct fit_req {
    int nvars;
    const char *names[FIT_MAX_VARS];
    double *x, *y;
    size_t n;
    const char *graph;
    enum agg_kind agg;
    double *pred; /* npred * nvars */
    size_t npred;
};

static int number_at(json_t *v, const char *field, double *out, struct err *err)
{
    if (!json_is_number(v) || !isfinite(json_number_value(v)))
        return err_invalid(err, field, "%s must be a finite number", field);
    *out = json_number_value(v);
    return 0;
}

static int decode(json_t *body, arena *a, struct fit_req *q, struct err *err)
{
    static const char *const allowed[] = {"data",      "vars", "graph", "predict",
                                          "aggregate", "x",    NULL};
    json_t *data, *vars, *pred, *v, *row;
    const char *key;
    char field[64];
    size_t i, j;

    if (!json_is_object(body))
        return err_invalid(err, NULL, "the body must be a JSON object");
    json_object_foreach(body, key, v)
    {
        int ok = 0;
        for (i = 0; allowed[i]; i++)
            ok |= strcmp(key, allowed[i]) == 0;
        if (!ok)
            return err_invalid(err, key, "unknown field %s", key);
    }
    memset(q, 0, sizeof *q);
    q->nvars = 1;
    q->names[0] = "x";
    vars = json_object_get(body, "vars");
    if (vars != NULL) {
        if (!json_is_array(vars) || json_array_size(vars) < 1 ||
            json_array_size(vars) > FIT_MAX_VARS)
            return err_invalid(err, "vars", "vars must name 1 or 2 variables");
        q->nvars = (int)json_array_size(vars);
        for (i = 0; i < json_array_size(vars); i++) {
            v = json_array_get(vars, i);
            if (!json_is_string(v) || json_string_length(v) == 0 ||
                json_string_length(v) > 64)
                return err_invalid(err, "vars", "variable names must be 1 to 64 bytes");
            q->names[i] = arena_strdup(a, json_string_value(v));
        }
    } else if ((v = json_object_get(body, "x")) != NULL) {
        if (!json_is_string(v) || json_string_length(v) == 0 ||
            json_string_length(v) > 64)
            return err_invalid(err, "x", "x must name the variable (1 to 64 bytes)");
        q->names[0] = arena_strdup(a, json_string_value(v));
    }
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
    data = json_object_get(body, "data");
    if (!json_is_array(data) || json_array_size(data) == 0)
        return err_invalid(err, "data", "data must be a non-empty array of [x, y] rows");
    if (json_array_size(data) > FIT_MAX_POINTS)
        return err_set(err, 413, "too_large", "data", "more than %d data points",
                       FIT_MAX_POINTS);
    q->n = json_array_size(data);
    q->x = arena_alloc(a, q->n * (size_t)q->nvars * sizeof *q->x);
    q->y = arena_alloc(a, q->n * sizeof *q->y);
    if (q->x == NULL || q->y == NULL)
        return err_nomem(err);
    json_array_foreach(data, i, row)
    {
        snprintf(field, sizeof field, "data[%zu]", i);
        if (!json_is_array(row) || json_array_size(row) != (size_t)q->nvars + 1)
            return err_invalid(err, field, "%s must be [%s]", field,
                               q->nvars == 1 ? "x, y" : "x1, x2, y");
        for (j = 0; j < (size_t)q->nvars; j++)
            if (number_at(json_array_get(row, j), field, &q->x[i * (size_t)q->nvars + j],
                          err) != 0)
                return -1;
        if (number_at(json_array_get(row, (size_t)q->nvars), field, &q->y[i], err) != 0)
            return -1;
    }
    pred = json_object_get(body, "predict");
    if (pred != NULL) {
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
                if (number_at(row, field, &q->pred[i], err) != 0)
                    return -1;
            } else {
                if (!json_is_array(row) || json_array_size(row) != 2)
                    return err_invalid(err, field, "%s must be [x1, x2]", field);
                for (j = 0; j < 2; j++)
                    if (number_at(json_array_get(row, j), field, &q->pred[i * 2 + j],
                                  err) != 0)
                        return -1;
            }
        }
    }
    return 0;
}

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

/* Builds the answer; returns NULL with err set when a prediction fails. */
static json_t *answer(const struct fit_req *q, const struct fit_result *res,
                      struct err *err)
{
    const struct fit_model *m = &res->model;
    json_t *coef = json_array(), *points = json_array(), *preds = json_array(), *model,
           *out;
    struct buf human, machine;
    size_t i;
    int k;

    buf_init(&human, 1 << 16);
    buf_init(&machine, 1 << 16);
    fit_formula(m, q->names, &human);
    fit_machine_formula(m, q->names, &machine);
    for (k = 0; k < m->nterms; k++)
        json_array_append_new(coef, json_real(m->coef[k]));
    model = json_pack(
        "{s:s, s:s, s:s, s:s, s:o, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:I, s:I}", "graph",
        fit_graph_name(m->graph), "chosen", fit_graph_name(m->chosen), "formula",
        buf_str(&human), "expression", buf_str(&machine), "coefficients", coef, "rss",
        res->stats.rss, "resnorm", res->stats.resnorm, "r2", res->stats.r2, "adj_r2",
        res->stats.adj_r2, "rmse", res->stats.rmse, "smape", res->stats.smape, "cv_rmse",
        res->stats.cv_rmse, "points", (json_int_t)res->stats.npoints, "observations",
        (json_int_t)res->stats.nobs);
    buf_free(&human);
    buf_free(&machine);
    for (i = 0; i < res->npoints; i++) {
        const struct fit_point *p = &res->points[i];
        json_array_append_new(
            points, json_pack("{s:o, s:f, s:f, s:f, s:i, s:f, s:f}", "x",
                              xs_json(p->x, q->nvars), "y", p->y, "ymin", p->ymin, "ymax",
                              p->ymax, "n", p->n, "fit", p->yhat, "residual", p->resid));
    }
    for (i = 0; i < q->npred; i++) {
        const double *x = &q->pred[i * (size_t)q->nvars];
        double y, lo, hi;
        char field[32];
        if (fit_predict(m, x, &y, &lo, &hi, err) != 0) {
            snprintf(field, sizeof field, "predict[%zu]", i);
            snprintf(err->field, sizeof err->field, "%s", field);
            json_decref(model);
            json_decref(points);
            json_decref(preds);
            return NULL;
        }
        json_array_append_new(preds, json_pack("{s:o, s:f, s:f, s:f, s:b}", "x",
                                               xs_json(x, q->nvars), "y", y, "lo", lo,
                                               "hi", hi, "interval", m->has_interval));
    }
    out = json_pack("{s:o, s:o, s:o, s:[s]}", "model", model, "points", points,
                    "predictions", preds, "vars", q->names[0]);
    if (out != NULL && q->nvars == 2)
        json_array_append_new(json_object_get(out, "vars"), json_string(q->names[1]));
    return out;
}

int api_fit(struct req *r)
{
    struct err e = {0};
    struct fit_req q;
    struct fit_input in;
    struct fit_result res;
    json_t *body = http_body_json(r, &e), *out;

    if (body == NULL)
        return http_error(r, &e);
    if (decode(body, r->arena, &q, &e) != 0) {
        json_decref(body);
        return http_error(r, &e);
    }
    json_decref(body);
    memset(&in, 0, sizeof in);
    in.nvars = q.nvars;
    in.x = q.x;
    in.y = q.y;
    in.n = q.n;
    in.graph = q.graph;
    in.agg = q.agg;
    if (fit_run(&in, &res, &e) != 0)
        return http_error(r, &e);
    out = answer(&q, &res, &e);
    fit_result_free(&res);
    if (out == NULL)
        return http_error(r, &e);
    return http_json(r, 200, out);
}
