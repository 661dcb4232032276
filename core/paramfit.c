/* paramfit: a system parameter fitted from the system's stored benchmarks
 * (SPEC §5.2, issue 4); see paramfit.h. POST
 * /api/v1/systems/{name}/parameters/fit is its adapter (server/api_paramfit.c).
 *
 * The benchmarks are those prophecy-bench (or anyone) posted to
 * /api/v1/systems/{name}/benchmarks: {"name": "MPISR", "args": {"L": 1024,
 * "P": 2}, "time": 7.8e-5, "stat": "min"}. The fit itself is models/sysparam
 * (Hockney a+b*L, broadcast log2(P)*(a+b*L), or a constant); this file picks
 * the rows and answers the fitted expression with its error and the
 * parameter to store; the server stores it through the writer thread when
 * asked. Nothing is stored unless the whole fit succeeded.
 */
#include "core/paramfit.h"

#include "core/bench_series.h"

#include "formats/json.h"
#include "formats/limits.h"
#include "models/expr.h"
#include "models/sysparam.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PFIT_MAX_STAT LIMIT_STAT

/* The decoded request; strings live in the request's arena. */
struct pfit_req {
    const char *parameter, *benchmark, *stat;
    const char *form_name;      /* "hockney", "broadcast", "constant" */
    struct bench_series series; /* "label", "test": which series of the benchmark */
    enum sysparam_kind form;
    enum sysparam_weight weight;
    enum agg_kind agg;
    int store;
};

/* An optional string field of at most max bytes; absent leaves *out. */
static int str_field(json_t *body, const char *key, size_t max, const char **out,
                     struct err *err)
{
    json_t *v = json_object_get(body, key);
    if (v == NULL)
        return 0;
    if (!json_is_string(v) || json_string_length(v) == 0 || json_string_length(v) > max ||
        strlen(json_string_value(v)) != json_string_length(v))
        return err_invalid(err, key, "%s must be a string of 1 to %zu bytes", key, max);
    *out = json_string_value(v);
    return 0;
}

/* A parameter or benchmark name: an expression identifier. */
static int ident(const char *s, const char *field, struct err *err)
{
    if (strlen(s) > EXPR_MAX_NAME)
        return err_invalid(err, field, "%s must be a name of 1 to %d characters", field,
                           EXPR_MAX_NAME);
    return json_check_ident(s, field, err);
}

static int decode(json_t *body, arena *a, struct pfit_req *q, struct err *err)
{
    static const char *const allowed[] = {"parameter", "benchmark", "label",     "test",
                                          "form",      "weighting", "aggregate", "stat",
                                          "store",     NULL};
    const char *weighting = NULL, *aggregate = NULL;
    json_t *v;

    if (!json_is_object(body))
        return err_invalid(err, NULL, "the body must be a JSON object");
    if (json_only_fields(body, allowed, "request", err) != 0)
        return -1;
    memset(q, 0, sizeof *q);
    q->store = 1;
    if (str_field(body, "parameter", EXPR_MAX_NAME, &q->parameter, err) != 0 ||
        str_field(body, "benchmark", EXPR_MAX_NAME, &q->benchmark, err) != 0 ||
        str_field(body, "form", 16, &q->form_name, err) != 0 ||
        str_field(body, "weighting", 16, &weighting, err) != 0 ||
        str_field(body, "aggregate", 16, &aggregate, err) != 0 ||
        str_field(body, "stat", PFIT_MAX_STAT, &q->stat, err) != 0 ||
        bench_series_decode(body, "", &q->series, err) != 0)
        return -1;
    if (q->parameter == NULL)
        return err_invalid(err, "parameter",
                           "parameter (the name to fit, such as MPISR) is required");
    if (ident(q->parameter, "parameter", err) != 0)
        return -1;
    if (q->benchmark == NULL)
        q->benchmark = q->parameter;
    else if (ident(q->benchmark, "benchmark", err) != 0)
        return -1;
    if (q->form_name == NULL)
        return err_invalid(err, "form",
                           "form is required: hockney, broadcast or constant");
    if (strcmp(q->form_name, "hockney") == 0)
        q->form = SYSPARAM_HOCKNEY;
    else if (strcmp(q->form_name, "broadcast") == 0)
        q->form = SYSPARAM_BROADCAST;
    else if (strcmp(q->form_name, "constant") == 0)
        q->form = SYSPARAM_CONSTANT;
    else
        return err_invalid(err, "form", "form must be hockney, broadcast or constant");
    if (q->form == SYSPARAM_CONSTANT) {
        if (weighting != NULL)
            return err_invalid(err, "weighting",
                               "weighting applies to the line fits (hockney, broadcast); "
                               "a constant takes aggregate");
        q->agg = AGG_MEDIAN;
        if (aggregate != NULL && agg_parse(aggregate, &q->agg, "aggregate", err) != 0)
            return -1;
    } else {
        if (aggregate != NULL)
            return err_invalid(err, "aggregate",
                               "aggregate applies to constants; a line fit takes "
                               "weighting");
        q->weight = SYSPARAM_RELATIVE;
        if (weighting != NULL && strcmp(weighting, "relative") != 0) {
            if (strcmp(weighting, "plain") != 0)
                return err_invalid(err, "weighting",
                                   "weighting must be relative or plain");
            q->weight = SYSPARAM_PLAIN;
        }
    }
    v = json_object_get(body, "store");
    if (v != NULL) {
        if (!json_is_boolean(v))
            return err_invalid(err, "store", "store must be true or false");
        q->store = json_is_true(v);
    }
    q->parameter = arena_strdup(a, q->parameter);
    q->benchmark = arena_strdup(a, q->benchmark);
    q->stat = q->stat ? arena_strdup(a, q->stat) : NULL;
    q->form_name = arena_strdup(a, q->form_name);
    if (q->parameter == NULL || q->benchmark == NULL || q->form_name == NULL)
        return err_nomem(err);
    return 0;
}

int paramfit_stat(json_t *rows, const char *want, const char *dflt, const char *bench,
                  const char *field, const char **out, struct err *err)
{
    const char *first = NULL;
    int several = 0, have_dflt = 0;
    json_t *row;
    size_t i;

    *out = want;
    if (want != NULL)
        return 0;
    json_array_foreach(rows, i, row)
    {
        const char *s = json_string_value(json_object_get(row, "stat"));
        s = s ? s : "";
        if (first == NULL)
            first = s;
        else if (strcmp(first, s) != 0)
            several = 1;
        have_dflt |= strcmp(s, dflt) == 0;
    }
    if (!several) {
        *out = first && *first ? first : NULL;
        return 0;
    }
    if (have_dflt) {
        *out = dflt;
        return 0;
    }
    return err_invalid(err, field,
                       "benchmark %s has rows with several stat labels (e.g. %s) and "
                       "none is %s: choose one with \"stat\"",
                       bench, first, dflt);
}

/* Reads args[name] of row as a finite number. */
static int arg_of(json_t *row, const char *name, size_t i, const struct pfit_req *q,
                  double *out, struct err *err)
{
    json_t *v = json_object_get(json_object_get(row, "args"), name);
    if (!json_is_number(v) || !isfinite(json_number_value(v)))
        return err_invalid(err, "benchmark",
                           "a %s fit needs %s in the args of every %s benchmark; row %zu "
                           "has none",
                           q->form_name, name, q->benchmark, i);
    *out = json_number_value(v);
    return 0;
}

/* Fits the benchmark rows. */
static int fit_rows(json_t *rows, const struct pfit_req *q, arena *a,
                    struct sysparam_fit *f, const char **stat_used, struct err *err)
{
    const char *stat;
    size_t n = 0, i, total = json_array_size(rows);
    double *L, *P, *t;
    json_t *row;
    int rc;

    if (total == 0)
        return err_invalid(err, "benchmark", "the system has no benchmark named %s",
                           q->benchmark);
    /* what prophecy-bench fits: the minima for lines, the medians for
     * constants */
    if (paramfit_stat(rows, q->stat, q->form == SYSPARAM_CONSTANT ? "median" : "min",
                      q->benchmark, "stat", &stat, err) != 0)
        return -1;
    if (total > SYSPARAM_MAX_POINTS)
        return err_invalid(err, "benchmark", "more than %d %s benchmarks",
                           SYSPARAM_MAX_POINTS, q->benchmark);
    L = arena_alloc(a, total * sizeof *L);
    P = arena_alloc(a, total * sizeof *P);
    t = arena_alloc(a, total * sizeof *t);
    if (L == NULL || P == NULL || t == NULL)
        return err_nomem(err);
    json_array_foreach(rows, i, row)
    {
        const char *s = json_string_value(json_object_get(row, "stat"));
        json_t *tv = json_object_get(row, "time");
        if (stat != NULL && strcmp(s ? s : "", stat) != 0)
            continue;
        if (!json_is_number(tv))
            continue;
        t[n] = json_number_value(tv);
        if (q->form != SYSPARAM_CONSTANT && arg_of(row, "L", i, q, &L[n], err) != 0)
            return -1;
        if (q->form == SYSPARAM_BROADCAST && arg_of(row, "P", i, q, &P[n], err) != 0)
            return -1;
        n++;
    }
    if (n == 0)
        return err_invalid(err, "stat", "no %s benchmark has stat %s", q->benchmark,
                           stat ? stat : "");
    *stat_used = stat;
    switch (q->form) {
    case SYSPARAM_HOCKNEY:
        rc = sysparam_fit_hockney(q->parameter, L, t, n, q->weight, f, err);
        break;
    case SYSPARAM_BROADCAST:
        rc = sysparam_fit_broadcast(q->parameter, L, P, t, n, q->weight, f, err);
        break;
    default:
        rc = sysparam_fit_constant(q->parameter, t, n, q->agg, f, err);
        break;
    }
    if (rc != 0) {
        /* sysparam names its own arguments; say which request field they are. */
        if (strcmp(err->field, "name") == 0)
            snprintf(err->field, sizeof err->field, "parameter");
        else if (strcmp(err->field, "measurements") == 0)
            snprintf(err->field, sizeof err->field, "benchmark");
    }
    return rc;
}

static json_t *answer(const char *system, const struct pfit_req *q,
                      const struct sysparam_fit *f, const char *stat, int stored)
{
    json_t *coef = json_array(), *out;
    json_array_append_new(coef, json_real(f->a));
    if (f->kind != SYSPARAM_CONSTANT)
        json_array_append_new(coef, json_real(f->b));
    out = json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:s?, s:o, s:I, s:{s:f, s:f, s:f, s:f}, s:b}",
        "system", system, "parameter", f->head, "name", f->name, "expression", f->expr,
        "form", q->form_name, "stat", stat, "coefficients", coef, "points",
        (json_int_t)f->n, "error", "rmse", f->rmse, "max_rel_pct", 100 * f->max_rel_err,
        "mean_rel_pct", 100 * f->mean_rel_err, "rel_rmse_pct", 100 * f->rel_rmse,
        "stored", stored);
    if (out == NULL)
        return NULL;
    /* the series fitted, where the benchmark's rows name one */
    if (q->series.label != NULL && *q->series.label)
        json_object_set_new(out, "label", json_string(q->series.label));
    if (q->series.test != NULL && *q->series.test)
        json_object_set_new(out, "test", json_string(q->series.test));
    if (f->kind == SYSPARAM_CONSTANT)
        json_object_set_new(out, "aggregate", json_string(agg_name(q->agg)));
    else
        json_object_set_new(
            out, "weighting",
            json_string(q->weight == SYSPARAM_RELATIVE ? "relative" : "plain"));
    return out;
}

int paramfit_build(db *d, const char *system, json_t *body, arena *a,
                   struct paramfit *out, struct err *err)
{
    struct pfit_req q;
    struct sysparam_fit f;
    const char *stat = NULL;
    json_t *rows = NULL;
    long long sid;
    int rc;

    memset(out, 0, sizeof *out);
    if (decode(body, a, &q, err) != 0 ||
        json_check_name(system, strlen(system), "system", LIMIT_NAME, err) != 0)
        return -1;
    sid = db_system_id(d, system, 0, err);
    if (sid == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", NULL, "system %s not found",
                       system);
    if (sid < 0 || (rows = db_benchmarks_list(d, system, q.benchmark, err)) == NULL)
        return -1;
    /* one series of the benchmark (an OSU log's placement), never several pooled */
    rc = json_array_size(rows) == 0
             ? 0
             : bench_series_pick(&rows, &q.series, "", system, q.benchmark, a, err);
    if (rc == 0)
        rc = fit_rows(rows, &q, a, &f, &stat, err);
    stat = stat ? arena_strdup(a, stat) : NULL;
    json_decref(rows);
    if (rc != 0)
        return -1;
    out->store = q.store;
    out->answer = answer(system, &q, &f, stat, q.store);
    if (out->answer == NULL)
        return err_nomem(err);
    out->param.name = arena_strdup(a, f.name);
    out->param.args = f.nargs ? "L" : "";
    out->param.expression = arena_strdup(a, f.expr);
    out->param.source = arena_printf(
        a, "fit: %s (%s) to %zu %s benchmark%s%s%s%s%s%s%s%s", q.form_name,
        f.kind == SYSPARAM_CONSTANT
            ? agg_name(q.agg)
            : (q.weight == SYSPARAM_RELATIVE ? "relative weighting" : "plain weighting"),
        f.n, q.benchmark, f.n == 1 ? "" : "s", *q.series.test ? " of " : "",
        q.series.test, *q.series.label ? " labelled \"" : "", q.series.label,
        *q.series.label ? "\"" : "", stat ? ", stat " : "", stat ? stat : "");
    if (out->param.name == NULL || out->param.expression == NULL ||
        out->param.source == NULL) {
        json_decref(out->answer);
        out->answer = NULL;
        return err_nomem(err);
    }
    return 0;
}
