/* fit_basis_req: the "basis" of a fit request, the machine curve a fit
 * follows (docs/models.md §12, docs/api.md "On a machine curve"); see
 * fit_basis_req.h. The curve is built by models/fit (fit_basis_make); this
 * file reads it from the request or from a system's stored benchmarks. */
#include "core/fit_basis_req.h"

#include "core/bench_series.h"
#include "core/paramfit.h"
#include "db/catalog.h"
#include "formats/json.h"
#include "formats/limits.h"

#include <stdio.h>
#include <string.h>

_Static_assert(LIMIT_BASIS_POINTS == FIT_BASIS_RAW_MAX &&
                   LIMIT_BASIS_ARGS == FIT_BASIS_MAX &&
                   (long long)LIMIT_BASIS_SCALE == (long long)FIT_BASIS_SCALE_MAX &&
                   LIMIT_BASIS_POWER == FIT_BASIS_POWER_MAX,
               "formats/limits.h and models/fit.h agree");

/* "scale" and "power": where the curve is read for the application's x. */
static int decode_map(json_t *b, struct basis_req *q, struct err *err)
{
    json_t *v;

    if ((v = json_object_get(b, "scale")) != NULL &&
        (json_get_number(v, "basis.scale", &q->scale, err) != 0 ||
         !(q->scale > 0 && q->scale <= LIMIT_BASIS_SCALE)))
        return err_invalid(err, "basis.scale",
                           "scale must be a number > 0 and <= %g: the curve's argument "
                           "(bytes) per unit of x",
                           LIMIT_BASIS_SCALE);
    if ((v = json_object_get(b, "power")) != NULL &&
        (json_get_number(v, "basis.power", &q->power, err) != 0 ||
         !(q->power > 0 && q->power <= LIMIT_BASIS_POWER)))
        return err_invalid(err, "basis.power",
                           "power must be a number > 0 and <= %d: the curve is read at "
                           "scale*x^power",
                           LIMIT_BASIS_POWER);
    return 0;
}

/* q->curve from n measurements, read where the request says. */
static int make_curve(struct basis_req *q, const char *name, const double *x,
                      const double *t, size_t n, struct err *err)
{
    if (fit_basis_make(name, x, t, n, q->curve, err) != 0)
        return -1;
    q->curve->scale = q->scale;
    q->curve->power = q->power;
    return 0;
}

int basis_decode(json_t *body, int from_db, arena *a, struct basis_req *q,
                 struct err *err)
{
    static const char *const inline_keys[] = {"name", "data", "scale", "power", NULL};
    static const char *const stored_keys[] = {"benchmark", "system", "label", "test",
                                              "arg",       "at",     "stat",  "scale",
                                              "power",     NULL};
    json_t *b = json_object_get(body, "basis"), *data, *row, *v;
    double *x, *t;
    char field[64];
    const char *name;
    size_t i;

    memset(q, 0, sizeof *q);
    q->scale = q->power = 1;
    if (b == NULL)
        return 0;
    if (!json_is_object(b))
        return err_invalid(err, "basis",
                           "basis must be {\"benchmark\": NAME, ...} or {\"name\": NAME, "
                           "\"data\": [[x, t], ...]}");
    if (decode_map(b, q, err) != 0)
        return -1;
    if (json_object_get(b, "data") == NULL) {
        if (json_only_fields_at(b, stored_keys, "basis", err) != 0)
            return -1;
        if ((name = json_get_name(json_object_get(b, "benchmark"), "basis.benchmark",
                                  LIMIT_IDENT, a, err)) == NULL ||
            json_check_ident(name, "basis.benchmark", err) != 0)
            return -1;
        if ((v = json_object_get(b, "system")) != NULL &&
            json_get_name(v, "basis.system", LIMIT_NAME, a, err) == NULL)
            return -1;
        if ((v = json_object_get(b, "arg")) != NULL &&
            json_get_name(v, "basis.arg", LIMIT_IDENT, a, err) == NULL)
            return -1;
        if (bench_series_decode(b, "basis.", &q->series, err) != 0)
            return -1;
        if ((v = json_object_get(b, "stat")) != NULL &&
            json_get_name(v, "basis.stat", LIMIT_STAT, a, err) == NULL)
            return -1;
        if ((v = json_object_get(b, "at")) != NULL) {
            const char *k;
            json_t *n;
            if (!json_is_object(v) || json_object_size(v) > LIMIT_BENCH_ARGS)
                return err_invalid(
                    err, "basis.at",
                    "at must map at most %d benchmark arguments to numbers",
                    LIMIT_BENCH_ARGS);
            json_object_foreach(v, k, n)
            {
                double d;
                if (json_get_number(n, "basis.at", &d, err) != 0)
                    return -1;
            }
        }
        if (json_object_get(b, "system") == NULL && !from_db)
            return err_invalid(err, "basis.system",
                               "name the system whose benchmark %s is the machine curve",
                               name);
        q->stored = b;
        return 0;
    }
    if (json_only_fields_at(b, inline_keys, "basis", err) != 0)
        return -1;
    if ((name = json_get_name(json_object_get(b, "name"), "basis.name", LIMIT_IDENT, a,
                              err)) == NULL ||
        json_check_ident(name, "basis.name", err) != 0)
        return -1;
    data = json_object_get(b, "data");
    if (!json_is_array(data) || json_array_size(data) == 0)
        return err_invalid(err, "basis.data",
                           "data must be a non-empty array of [x, t] rows");
    if (json_array_size(data) > LIMIT_BASIS_POINTS)
        return err_set(err, ERR_TOO_LARGE, "too_large", "basis.data",
                       "more than %d measurements in one machine curve",
                       LIMIT_BASIS_POINTS);
    x = arena_alloc(a, json_array_size(data) * sizeof *x);
    t = arena_alloc(a, json_array_size(data) * sizeof *t);
    q->curve = arena_alloc(a, sizeof *q->curve);
    if (x == NULL || t == NULL || q->curve == NULL)
        return err_nomem(err);
    json_array_foreach(data, i, row)
    {
        snprintf(field, sizeof field, "basis.data[%zu]", i);
        if (!json_is_array(row) || json_array_size(row) != 2)
            return err_invalid(err, field, "%s must be [x, t]", field);
        if (json_get_number(json_array_get(row, 0), field, &x[i], err) != 0 ||
            json_get_number(json_array_get(row, 1), field, &t[i], err) != 0)
            return -1;
    }
    return make_curve(q, name, x, t, json_array_size(data), err);
}

int basis_resolve(db *d, const char *system_default, arena *a, struct basis_req *q,
                  struct err *err)
{
    json_t *b = q->stored, *at = json_object_get(b, "at"), *rows = NULL, *row;
    const char *bench = json_string_value(json_object_get(b, "benchmark"));
    const char *system = json_string_value(json_object_get(b, "system"));
    const char *arg = json_string_value(json_object_get(b, "arg"));
    const char *stat;
    json_t *seen = NULL;
    double *x = NULL, *t = NULL;
    size_t i, n = 0;
    long long sid;
    int rc = -1;

    if (b == NULL)
        return 0;
    if (system == NULL)
        system = system_default;
    if (d == NULL || system == NULL)
        return err_invalid(err, "basis", "a stored machine curve needs the database");
    if ((sid = db_system_id(d, system, 0, err)) == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", "basis.system",
                       "system %s not found", system);
    if (sid < 0 || (rows = db_benchmarks_list(d, system, bench, err)) == NULL)
        return -1;
    if (json_array_size(rows) == 0) {
        err_invalid(err, "basis.benchmark", "system %s has no benchmark named %s", system,
                    bench);
        goto out;
    }
    if (bench_series_pick(&rows, &q->series, "basis.", system, bench, a, err) != 0)
        goto out;
    if (json_array_size(rows) > LIMIT_BASIS_POINTS) {
        err_set(err, ERR_TOO_LARGE, "too_large", "basis.benchmark",
                "more than %d %s benchmarks make one machine curve", LIMIT_BASIS_POINTS,
                bench);
        goto out;
    }
    /* the rows' statistic: the one asked for, the only one, or the minima
     * (what prophecy-bench fits for transfers) */
    if (paramfit_stat(rows, json_string_value(json_object_get(b, "stat")), "min", bench,
                      "basis.stat", &stat, err) != 0)
        goto out;
    x = arena_alloc(a, json_array_size(rows) * sizeof *x);
    t = arena_alloc(a, json_array_size(rows) * sizeof *t);
    q->curve = arena_alloc(a, sizeof *q->curve);
    if (x == NULL || t == NULL || q->curve == NULL) {
        err_nomem(err);
        goto out;
    }
    /* The curve's argument: "arg", or the one argument that varies over
     * the rows (prophecy-bench's MPISR rows all carry P = 2 besides L).
     * Another argument that varies must be fixed by "at". */
    if ((seen = json_object()) == NULL) {
        err_nomem(err);
        goto out;
    }
    json_array_foreach(rows, i, row)
    {
        json_t *v, *f;
        const char *s = json_string_value(json_object_get(row, "stat")), *k;
        if (stat != NULL && strcmp(s ? s : "", stat) != 0)
            continue;
        json_object_foreach(json_object_get(row, "args"), k, v)
        {
            if ((f = json_object_get(seen, k)) == NULL)
                json_object_set(seen, k, v);
            else if (json_number_value(f) != json_number_value(v))
                json_object_set_new(seen, k, json_null()); /* null: it varies */
        }
    }
    {
        const char *k, *only = NULL;
        json_t *v;
        size_t varying = 0;
        json_object_foreach(seen, k, v)
        {
            if (json_is_null(v) && json_object_get(at, k) == NULL &&
                (arg == NULL || strcmp(k, arg) != 0)) {
                varying++;
                only = k;
            }
        }
        if (arg == NULL && varying == 0 && json_object_size(seen) == 1)
            only = json_object_iter_key(json_object_iter(seen)), varying = 1;
        if (arg == NULL && varying != 1) {
            err_invalid(err, "basis.arg",
                        "benchmark %s varies over %zu arguments; name the curve's with "
                        "\"arg\" and fix the others with \"at\"",
                        bench, varying);
            goto out;
        }
        if (arg == NULL)
            arg = arena_strdup(a, only);
        else if (varying > 0) {
            err_invalid(err, "basis.at",
                        "benchmark %s also varies over %s: fix it with \"at\"", bench,
                        only);
            goto out;
        }
    }
    json_array_foreach(rows, i, row)
    {
        json_t *args = json_object_get(row, "args"), *v,
               *tv = json_object_get(row, "time");
        const char *s = json_string_value(json_object_get(row, "stat")), *k;
        int use = 1;
        if (stat != NULL && strcmp(s ? s : "", stat) != 0)
            continue;
        json_object_foreach(at, k, v)
        {
            json_t *have = json_object_get(args, k);
            use &= have != NULL && json_number_value(have) == json_number_value(v);
        }
        if (!use || arg == NULL || !json_is_number(json_object_get(args, arg)) ||
            !json_is_number(tv) || !(json_number_value(json_object_get(args, arg)) > 0))
            continue;
        x[n] = json_number_value(json_object_get(args, arg));
        t[n] = json_number_value(tv);
        n++;
    }
    if (n == 0) {
        err_invalid(err, "basis", "no %s benchmark of system %s has %s > 0%s%s", bench,
                    system, arg ? arg : "an argument", at ? " at the values of " : "",
                    at ? "\"at\"" : "");
        goto out;
    }
    rc = make_curve(q, bench, x, t, n, err);
out:
    json_decref(seen);
    json_decref(rows);
    return rc;
}

int basis_describe(const struct basis_req *q, json_t *model_basis)
{
    const struct bench_series *s = &q->series;
    if (model_basis == NULL || q->stored == NULL || s->label == NULL || s->test == NULL)
        return 0;
    if ((*s->label && json_object_set_new(model_basis, "label", json_string(s->label))) ||
        (*s->test && json_object_set_new(model_basis, "test", json_string(s->test))))
        return -1;
    return 0;
}
