/* couple_request: decoding a kernel-coupling request (both forms) into a
 * struct build (core/couple_build.h); see core/method_couple.h. */
#include "common/arena.h"
#include "common/utf8.h"
#include "common/xalloc.h"
#include "core/couple_build.h"
#include "core/config_order.h"
#include "core/couple_saved.h"
#include "core/fit_json.h"
#include "db/catalog.h"
#include "db/select.h"
#include "formats/json.h"
#include "formats/limits.h"
#include "models/couple.h"
#include "models/expr.h"
#include "models/fit.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers ------------------------------------------------------------- */

json_t *cb_num(double v)
{
    return json_real(isfinite(v) ? v : 0);
}

/* ==== building: request -> kernels, data, couplings ============================== */

void cb_build_free(struct build *b)
{
    size_t i;
    for (i = 0; i < b->nc; i++) {
        json_decref(b->c[i].values);
        xfree(b->c[i].key);
        xfree(b->c[i].m);
    }
    xfree(b->c);
    for (i = 0; i < b->nk; i++) {
        xfree(b->k[i].x);
        xfree(b->k[i].y);
    }
    xfree(b->k);
    json_decref(b->fixed);
    json_decref(b->with_x);
}

/* A copy of s in the request's arena; NULL with an ERR_NOMEM on out of memory. */
char *cb_sdup(struct build *b, const char *s, struct err *err)
{
    char *c = arena_strdup(b->a, s);
    if (c == NULL)
        err_nomem(err);
    return c;
}

/* Adds a kernel named name (NULL: an earlier copy failed; err is set). */
static struct kin *kernel_add(struct build *b, const char *name, struct err *err)
{
    if (name == NULL)
        return NULL;
    if (b->nk == COUPLE_MAX_KERNELS) {
        err_invalid(err, "kernels", "at most %d kernels in one coupling model",
                    COUPLE_MAX_KERNELS);
        return NULL;
    }
    if (b->nk == b->kcap) {
        size_t cap = b->kcap ? 2 * b->kcap : 16;
        struct kin *k = xrealloc(b->k, cap * sizeof *k);
        if (k == NULL) {
            err_nomem(err);
            return NULL;
        }
        b->k = k;
        b->kcap = cap;
    }
    memset(&b->k[b->nk], 0, sizeof b->k[b->nk]);
    b->k[b->nk].name = name;
    snprintf(b->k[b->nk].field, sizeof b->k[b->nk].field, "kernels");
    return &b->k[b->nk++];
}

static struct kin *kernel_find(struct build *b, const char *name)
{
    size_t i;
    for (i = 0; i < b->nk; i++)
        if (strcmp(b->k[i].name, name) == 0)
            return &b->k[i];
    return NULL;
}

static int point_add(struct kin *k, double x, double y, struct err *err)
{
    if (k->n == FIT_MAX_POINTS)
        return err_set(err, ERR_TOO_LARGE, "too_large", k->field,
                       "kernel %s has more than %d measurements", k->name,
                       FIT_MAX_POINTS);
    if (k->n == k->cap) {
        size_t cap = k->cap ? 2 * k->cap : 32;
        double *nx = xrealloc(k->x, cap * sizeof *nx), *ny;
        if (nx == NULL)
            return err_nomem(err);
        k->x = nx;
        ny = xrealloc(k->y, cap * sizeof *ny);
        if (ny == NULL)
            return err_nomem(err);
        k->y = ny;
        k->cap = cap;
    }
    k->x[k->n] = x;
    k->y[k->n] = y;
    k->n++;
    return 0;
}

/* Finds or creates the configuration whose canonical text is that of values
 * (takes the reference; numbers are made reals first, so 16 and 16.0 are one
 * configuration). */
struct cin *cb_config_get(struct build *b, json_t *values, struct err *err)
{
    char *key = NULL;
    const char *name;
    json_t *v;
    size_t i;
    json_object_foreach(values, name, v)
    {
        if (json_is_integer(v))
            json_object_set_new(values, name, json_real(json_number_value(v)));
    }
    key = json_dumps(values, JSON_COMPACT | JSON_SORT_KEYS);
    if (key == NULL) {
        json_decref(values);
        err_nomem(err);
        return NULL;
    }
    for (i = 0; i < b->nc; i++)
        if (strcmp(b->c[i].key, key) == 0) {
            free(key);
            json_decref(values);
            return &b->c[i];
        }
    if (b->nc == LIMIT_COUPLE_CONFIGS) {
        free(key);
        json_decref(values);
        err_invalid(err, "couplings", "couplings measured at more than %d configurations",
                    LIMIT_COUPLE_CONFIGS);
        return NULL;
    }
    if (b->nc % 16 == 0) {
        struct cin *c = xrealloc(b->c, (b->nc + 16) * sizeof *c);
        if (c == NULL) {
            free(key);
            json_decref(values);
            err_nomem(err);
            return NULL;
        }
        b->c = c;
    }
    memset(&b->c[b->nc], 0, sizeof b->c[b->nc]);
    b->c[b->nc].values = values;
    b->c[b->nc].key = xstrdup(key);
    free(key);
    if (b->c[b->nc].key == NULL) {
        json_decref(values);
        err_nomem(err);
        return NULL;
    }
    return &b->c[b->nc++];
}

static struct couple_measurement *measurement_add(struct cin *c, size_t *total,
                                                  struct err *err)
{
    if (*total == COUPLE_MAX_MEASUREMENTS) {
        err_invalid(err, "couplings", "at most %d coupling measurements",
                    COUPLE_MAX_MEASUREMENTS);
        return NULL;
    }
    if (c->nm == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 8;
        struct couple_measurement *m = xrealloc(c->m, cap * sizeof *m);
        if (m == NULL) {
            err_nomem(err);
            return NULL;
        }
        c->m = m;
        c->cap = cap;
    }
    (*total)++;
    memset(&c->m[c->nm], 0, sizeof c->m[c->nm]);
    return &c->m[c->nm++];
}

/* ---- request fields shared by both forms ---- */

int cb_parse_common(struct build *b, json_t *req, struct err *err)
{
    json_t *v;
    const char *key;
    size_t i;

    v = json_object_get(req, "x");
    b->xname = "nprocs";
    if (v != NULL) {
        if (!json_is_string(v) || json_string_length(v) == 0 ||
            json_string_length(v) > EXPR_MAX_NAME)
            return err_invalid(err, "x", "x must name nprocs or an input (1 to %d bytes)",
                               EXPR_MAX_NAME);
        if ((b->xname = cb_sdup(b, json_string_value(v), err)) == NULL)
            return -1;
    }
    v = json_object_get(req, "fixed");
    b->fixed = json_object();
    if (b->fixed == NULL)
        return err_nomem(err);
    if (v != NULL) {
        json_t *val;
        if (!json_is_object(v) || json_object_size(v) > LIMIT_COUPLE_FIXED)
            return err_invalid(err, "fixed",
                               "fixed must be an object of at most %d name: number",
                               LIMIT_COUPLE_FIXED);
        json_object_foreach(v, key, val)
        {
            double d;
            if (strlen(key) == 0 || strlen(key) > EXPR_MAX_NAME)
                return err_invalid(err, "fixed",
                                   "fixed variable names must be 1 to %d bytes",
                                   EXPR_MAX_NAME);
            if (strcmp(key, b->xname) == 0)
                return err_invalid(err, "fixed",
                                   "%s is the x variable and cannot be fixed", key);
            if (json_finite_number(val, &d) != 0)
                return err_invalid(err, "fixed", "fixed.%s must be a finite number", key);
            json_object_set_new(b->fixed, key, json_real(d));
        }
    }
    v = json_object_get(req, "range");
    if (v != NULL) {
        if (!json_is_array(v) || json_array_size(v) != 2 ||
            json_finite_number(json_array_get(v, 0), &b->range[0]) != 0 ||
            json_finite_number(json_array_get(v, 1), &b->range[1]) != 0 ||
            b->range[0] > b->range[1])
            return err_invalid(err, "range", "range must be [min, max] with min <= max");
        b->has_range = 1;
    }
    v = json_object_get(req, "aggregate");
    if (v != NULL && !json_is_string(v))
        return err_invalid(err, "aggregate", "aggregate must be mean, median or min");
    if (agg_parse(v ? json_string_value(v) : NULL, &b->agg, "aggregate", err) != 0)
        return -1;
    v = json_object_get(req, "predict");
    if (v != NULL) {
        json_t *p;
        if (!json_is_array(v) || json_array_size(v) > CP_MAX_PREDICT)
            return err_invalid(err, "predict",
                               "predict must be an array of at most %d numbers",
                               CP_MAX_PREDICT);
        b->npred = json_array_size(v);
        b->pred = arena_alloc(b->a, (b->npred + 1) * sizeof *b->pred);
        if (b->pred == NULL)
            return err_nomem(err);
        json_array_foreach(v, i, p)
        {
            char field[32];
            snprintf(field, sizeof field, "predict[%zu]", i);
            if (json_finite_number(p, &b->pred[i]) != 0)
                return err_invalid(err, field, "%s must be a finite number", field);
        }
    }
    return 0;
}

/* Per-kernel settings: graph, or expression (+ parameters); inline also data
 * and loop. */
static int parse_settings(struct build *b, struct kin *k, json_t *o, const char *field,
                          const char *default_graph, struct err *err)
{
    json_t *g = json_object_get(o, "graph"), *ex = json_object_get(o, "expression"),
           *pa = json_object_get(o, "parameters");
    char f[96];
    enum fit_graph dummy;
    struct err e2 = {0};

    if (ex != NULL) {
        if (g != NULL) {
            snprintf(f, sizeof f, "%s.graph", field);
            return err_invalid(
                err, f, "kernel %s: give a graph or an expression, not both", k->name);
        }
        if (!json_is_string(ex) || json_string_length(ex) == 0 ||
            json_string_length(ex) > EXPR_MAX_LEN) {
            snprintf(f, sizeof f, "%s.expression", field);
            return err_invalid(err, f, "kernel %s: expression must be 1 to %d bytes",
                               k->name, EXPR_MAX_LEN);
        }
        if ((k->expression = cb_sdup(b, json_string_value(ex), err)) == NULL)
            return -1;
        if (pa != NULL) {
            const char *key;
            json_t *v;
            snprintf(f, sizeof f, "%s.parameters", field);
            if (!json_is_object(pa) || json_object_size(pa) > EXPR_MAX_PARAMS)
                return err_invalid(
                    err, f,
                    "kernel %s: parameters must be an object of at most %d "
                    "\"NAME(args)\": \"expression\"",
                    k->name, EXPR_MAX_PARAMS);
            json_object_foreach(pa, key, v)
            {
                if (!json_is_string(v) || json_string_length(v) == 0 ||
                    json_string_length(v) > EXPR_MAX_LEN)
                    return err_invalid(
                        err, f,
                        "kernel %s: each parameter must be an expression of 1 "
                        "to %d bytes",
                        k->name, EXPR_MAX_LEN);
            }
            k->params = pa;
        }
        return 0;
    }
    if (pa != NULL) {
        snprintf(f, sizeof f, "%s.parameters", field);
        return err_invalid(err, f, "kernel %s: parameters need an expression", k->name);
    }
    if (g != NULL && !json_is_string(g)) {
        snprintf(f, sizeof f, "%s.graph", field);
        return err_invalid(err, f, "kernel %s: graph must be a string such as \"inv1\"",
                           k->name);
    }
    k->graph = g ? cb_sdup(b, json_string_value(g), err) : default_graph;
    if (k->graph == NULL)
        return -1;
    if (fit_graph_parse(k->graph, &dummy, &e2) != 0) {
        snprintf(f, sizeof f, "%s.graph", field);
        return couple_rewrap(err, &e2, f, "kernel", k->name);
    }
    return 0;
}

static int check_name(const char *s, const char *field, struct err *err)
{
    return json_check_name(s, strlen(s), field, LIMIT_NAME, err);
}

/* ---- inline form ---- */

int cb_parse_inline(struct build *b, json_t *req, struct err *err)
{
    static const char *const kernel_keys[] = {"name",       "loop",       "data", "graph",
                                              "expression", "parameters", NULL};
    static const char *const coupling_keys[] = {"kernels", "alone", "together",
                                                "configuration", NULL};
    json_t *ks = json_object_get(req, "kernels"), *cs = json_object_get(req, "couplings"),
           *ms = json_object_get(req, "measured"), *o;
    size_t i, j, total = 0;
    char field[128];

    if (!json_is_array(ks) || json_array_size(ks) == 0)
        return err_invalid(err, "kernels",
                           "kernels must be a non-empty array of "
                           "{\"name\", \"loop\", \"data\", \"graph\"}");
    if (json_array_size(ks) > COUPLE_MAX_KERNELS)
        return err_invalid(err, "kernels", "at most %d kernels in one coupling model",
                           COUPLE_MAX_KERNELS);
    json_array_foreach(ks, i, o)
    {
        json_t *name = json_object_get(o, "name"), *loop, *data, *row;
        struct kin *k;
        snprintf(field, sizeof field, "kernels[%zu]", i);
        if (!json_is_object(o))
            return err_invalid(err, field, "%s must be an object", field);
        if (json_only_fields_at(o, kernel_keys, field, err) != 0)
            return -1;
        snprintf(field, sizeof field, "kernels[%zu].name", i);
        if (!json_is_string(name) || check_name(json_string_value(name), field, err) != 0)
            return err_invalid(err, field, "%s must be a kernel name", field);
        if (kernel_find(b, json_string_value(name)) != NULL)
            return err_invalid(err, field, "kernel %s is listed twice",
                               json_string_value(name));
        k = kernel_add(b, cb_sdup(b, json_string_value(name), err), err);
        if (k == NULL)
            return -1;
        snprintf(k->field, sizeof k->field, "kernels[%zu]", i);
        loop = json_object_get(o, "loop");
        if (loop != NULL && !json_is_boolean(loop))
            return err_invalid(err, field, "kernel %s: loop must be true or false",
                               k->name);
        k->loop = json_is_true(loop);
        if (parse_settings(b, k, o, k->field, "auto", err) != 0)
            return -1;
        data = json_object_get(o, "data");
        if (data == NULL && k->expression == NULL)
            return err_invalid(err, k->field,
                               "kernel %s needs data [[x, time], ...] or an expression",
                               k->name);
        if (data == NULL)
            continue;
        snprintf(field, sizeof field, "%s.data", k->field);
        if (!json_is_array(data))
            return err_invalid(err, field,
                               "kernel %s: data must be an array of [x, time] rows",
                               k->name);
        if (json_array_size(data) > FIT_MAX_POINTS)
            return err_set(err, ERR_TOO_LARGE, "too_large", field,
                           "kernel %s: more than %d points", k->name, FIT_MAX_POINTS);
        json_array_foreach(data, j, row)
        {
            double x, y;
            if (!json_is_array(row) || json_array_size(row) != 2 ||
                json_finite_number(json_array_get(row, 0), &x) != 0 ||
                json_finite_number(json_array_get(row, 1), &y) != 0) {
                snprintf(field, sizeof field, "%s.data[%zu]", k->field, j);
                return err_invalid(err, field,
                                   "kernel %s: %s must be [x, time] of finite numbers",
                                   k->name, field);
            }
            if (point_add(k, x, y, err) != 0)
                return -1;
        }
    }
    if (cs != NULL && !json_is_array(cs))
        return err_invalid(err, "couplings",
                           "couplings must be an array of "
                           "{\"kernels\", \"alone\", \"together\"}");
    json_array_foreach(cs, i, o)
    {
        json_t *kn = json_object_get(o, "kernels"), *al = json_object_get(o, "alone"),
               *cf = json_object_get(o, "configuration"), *values;
        struct couple_measurement *m;
        struct cin *c;
        snprintf(field, sizeof field, "couplings[%zu]", i);
        if (!json_is_object(o))
            return err_invalid(err, field, "%s must be an object", field);
        if (json_only_fields_at(o, coupling_keys, field, err) != 0)
            return -1;
        if (!json_is_array(kn) || json_array_size(kn) < 2 ||
            json_array_size(kn) > COUPLE_MAX_CHAIN)
            return err_invalid(err, field,
                               "%s.kernels must name 2 to %d adjacent kernels", field,
                               COUPLE_MAX_CHAIN);
        if (!json_is_array(al) || json_array_size(al) != json_array_size(kn))
            return err_invalid(err, field, "%s.alone must give one time per kernel (%zu)",
                               field, json_array_size(kn));
        if (cf != NULL) {
            const char *key;
            json_t *v;
            if (!json_is_object(cf) || json_object_size(cf) > LIMIT_COUPLE_FIXED + 1)
                return err_invalid(err, field,
                                   "%s.configuration must be an object of at most %d "
                                   "name: number",
                                   field, LIMIT_COUPLE_FIXED + 1);
            json_object_foreach(cf, key, v)
            {
                double d;
                if (json_finite_number(v, &d) != 0 || strlen(key) == 0 ||
                    strlen(key) > EXPR_MAX_NAME)
                    return err_invalid(err, field,
                                       "%s.configuration values must be finite numbers",
                                       field);
            }
            values = json_deep_copy(cf);
        } else {
            values = json_object();
        }
        if (values == NULL)
            return err_nomem(err);
        if ((c = cb_config_get(b, values, err)) == NULL ||
            (m = measurement_add(c, &total, err)) == NULL)
            return -1;
        m->n = json_array_size(kn);
        m->index = i;
        for (j = 0; j < m->n; j++) {
            json_t *s = json_array_get(kn, j);
            if (!json_is_string(s))
                return err_invalid(err, field, "%s.kernels must be kernel names", field);
            if ((m->kernel[j] = cb_sdup(b, json_string_value(s), err)) == NULL)
                return -1;
            if (json_finite_number(json_array_get(al, j), &m->alone[j]) != 0)
                return err_invalid(err, field, "%s.alone must hold numbers", field);
        }
        if (json_finite_number(json_object_get(o, "together"), &m->together) != 0)
            return err_invalid(err, field, "%s.together must be a number", field);
    }
    if (ms != NULL) {
        json_t *row;
        if (!json_is_array(ms) || json_array_size(ms) > CP_MAX_MEASURED)
            return err_invalid(
                err, "measured",
                "measured must be an array of at most %d [x, runtime] rows",
                CP_MAX_MEASURED);
        b->nmeas = json_array_size(ms);
        b->mx = arena_alloc(b->a, (b->nmeas + 1) * sizeof *b->mx);
        b->my = arena_alloc(b->a, (b->nmeas + 1) * sizeof *b->my);
        if (b->mx == NULL || b->my == NULL)
            return err_nomem(err);
        json_array_foreach(ms, i, row)
        {
            if (!json_is_array(row) || json_array_size(row) != 2 ||
                json_finite_number(json_array_get(row, 0), &b->mx[i]) != 0 ||
                json_finite_number(json_array_get(row, 1), &b->my[i]) != 0) {
                snprintf(field, sizeof field, "measured[%zu]", i);
                return err_invalid(err, field,
                                   "%s must be [x, runtime] of finite numbers", field);
            }
        }
    }
    return 0;
}

/* ---- database form ---- */

/* A variable the selected runs record besides x and the fixed ones. */
struct other {
    const char *name;
    double first, second;
    int varies;
    size_t runs; /* how many selected runs record it */
};

static int other_note(struct other *o, size_t *n, size_t max, const char *name, double v)
{
    size_t i;
    for (i = 0; i < *n; i++)
        if (strcmp(o[i].name, name) == 0) {
            if (!o[i].varies && o[i].first != v) {
                o[i].varies = 1;
                o[i].second = v;
            }
            o[i].runs++;
            return 0;
        }
    if (*n == max)
        return 0; /* more distinct input names than tracked: the rest are not checked */
    o[*n].name = name;
    o[*n].first = v;
    o[*n].varies = 0;
    o[*n].runs = 1;
    (*n)++;
    return 0;
}

/* Looks input `name` up among a run's inputs rows [from, to). */
static int run_input(const struct db_couple_rows *rows, size_t from, size_t to,
                     const char *name, double *v)
{
    size_t i;
    for (i = from; i < to; i++)
        if (strcmp(rows->inputs[i].name, name) == 0) {
            *v = rows->inputs[i].value;
            return 1;
        }
    return 0;
}

/* A selected run: its x, processes and inputs rows [i0, i1). */
struct matched {
    double x, np;
    size_t i0, i1;
};

/* Whether variable name, which each of the n selected runs m records,
 * changes with x (config_varies_with_x: a weak-scaling series, the size
 * growing with the processes), as the fit takes it. */
static int changes_with_x(const struct db_couple_rows *rows, const struct matched *m,
                          size_t n, const char *name, arena *a)
{
    struct config_xv *t = arena_alloc(a, (n + 1) * sizeof *t);
    size_t i;
    if (t == NULL)
        return 0;
    for (i = 0; i < n; i++) {
        t[i].x = m[i].x;
        if (strcmp(name, "nprocs") == 0)
            t[i].v = m[i].np;
        else if (!run_input(rows, m[i].i0, m[i].i1, name, &t[i].v))
            return 0;
    }
    return config_varies_with_x(t, n);
}

static int parse_db_kernels(struct build *b, json_t *spec, int *listed, struct err *err)
{
    static const char *const keys[] = {"name", "graph", "expression", "parameters", NULL};
    const char *key;
    json_t *o;
    size_t i;
    char field[32];

    *listed = 0;
    if (spec == NULL)
        return 0;
    if (json_is_object(spec)) {
        if (json_object_size(spec) > COUPLE_MAX_KERNELS)
            return err_invalid(err, "kernels", "at most %d kernels in one coupling model",
                               COUPLE_MAX_KERNELS);
        json_object_foreach(spec, key, o)
        {
            struct kin *k;
            if (!json_is_object(o))
                return err_invalid(err, "kernels",
                                   "kernels.%s must be an object of settings", key);
            if (check_name(key, "kernels", err) != 0 ||
                json_only_fields_at(o, keys + 1, "kernels", err) != 0)
                return -1;
            if ((k = kernel_add(b, cb_sdup(b, key, err), err)) == NULL ||
                parse_settings(b, k, o, "kernels", "auto", err) != 0)
                return -1;
            k->order = -1; /* only settings; whether the kernel exists is decided later */
            k->last_run = -1;
        }
        return 0;
    }
    if (!json_is_array(spec))
        return err_invalid(
            err, "kernels",
            "kernels must be an object {\"name\": {settings}} or a list of "
            "names or {\"name\", settings}");
    *listed = 1;
    json_array_foreach(spec, i, o)
    {
        struct kin *k;
        const char *name;
        snprintf(field, sizeof field, "kernels[%zu]", i);
        if (json_is_string(o))
            name = json_string_value(o);
        else if (json_is_object(o) && json_is_string(json_object_get(o, "name")))
            name = json_string_value(json_object_get(o, "name"));
        else
            return err_invalid(err, field,
                               "%s must be a kernel name or {\"name\", settings}", field);
        if (check_name(name, field, err) != 0)
            return -1;
        if (kernel_find(b, name) != NULL)
            return err_invalid(err, field, "kernel %s is listed twice", name);
        if ((k = kernel_add(b, cb_sdup(b, name, err), err)) == NULL)
            return -1;
        snprintf(k->field, sizeof k->field, "%s", field);
        k->graph = "auto";
        if (json_is_object(o) && (json_only_fields_at(o, keys, field, err) != 0 ||
                                  parse_settings(b, k, o, field, "auto", err) != 0))
            return -1;
        k->order = -1;
        k->last_run = -1;
    }
    return 0;
}

/* Loop order from the stored chains: follow each kernel's successor. */
static int derive_loop(struct build *b, json_t *rows, const char ***loop, size_t *nloop,
                       struct err *err)
{
    const char **node, **succ, **pred;
    size_t n = 0, i, j, start, count;
    json_t *row;

    node = arena_alloc(b->a, (COUPLE_MAX_KERNELS + 1) * sizeof *node);
    succ = arena_alloc(b->a, (COUPLE_MAX_KERNELS + 1) * sizeof *succ);
    pred = arena_alloc(b->a, (COUPLE_MAX_KERNELS + 1) * sizeof *pred);
    if (node == NULL || succ == NULL || pred == NULL)
        return err_nomem(err);
#define NODE_INDEX(nm, out)                                                              \
    do {                                                                                 \
        for ((out) = 0; (out) < n && strcmp(node[(out)], (nm)) != 0; (out)++)            \
            ;                                                                            \
        if ((out) == n) {                                                                \
            if (n == COUPLE_MAX_KERNELS)                                                 \
                return err_invalid(err, "couplings",                                     \
                                   "the stored couplings name more than %d kernels",     \
                                   COUPLE_MAX_KERNELS);                                  \
            node[n] = (nm);                                                              \
            succ[n] = pred[n] = NULL;                                                    \
            n++;                                                                         \
        }                                                                                \
    } while (0)
    json_array_foreach(rows, i, row)
    {
        json_t *ks = json_object_get(row, "kernels");
        for (j = 0; j + 1 < json_array_size(ks); j++) {
            const char *a = json_string_value(json_array_get(ks, j)),
                       *c = json_string_value(json_array_get(ks, j + 1));
            size_t ia, ic;
            if (a == NULL || c == NULL)
                return err_invalid(err, "couplings",
                                   "a stored coupling has a bad kernel list");
            NODE_INDEX(a, ia);
            NODE_INDEX(c, ic);
            if (succ[ia] != NULL && strcmp(succ[ia], c) != 0)
                return err_invalid(
                    err, "loop",
                    "the stored couplings do not form one loop: %s is followed by "
                    "both %s and %s; give the loop order with \"loop\": [...]",
                    a, succ[ia], c);
            if (pred[ic] != NULL && strcmp(pred[ic], a) != 0)
                return err_invalid(
                    err, "loop",
                    "the stored couplings do not form one loop: %s follows both "
                    "%s and %s; give the loop order with \"loop\": [...]",
                    c, pred[ic], a);
            succ[ia] = c;
            pred[ic] = a;
        }
    }
#undef NODE_INDEX
    *nloop = n;
    *loop = arena_alloc(b->a, (n + 1) * sizeof **loop);
    if (*loop == NULL)
        return err_nomem(err);
    if (n == 0)
        return 0;
    /* Start at the head of an open chain, else at the loop kernel that runs
     * first (smallest kernel position in the runs). */
    start = n;
    for (i = 0; i < n && start == n; i++)
        if (pred[i] == NULL)
            start = i;
    if (start == n) {
        long long best = -1;
        start = 0;
        for (i = 0; i < n; i++) {
            struct kin *k = kernel_find(b, node[i]);
            long long o = k && k->order >= 0 ? k->order : INT64_MAX;
            if (best < 0 || o < best) {
                best = o;
                start = i;
            }
        }
    }
    /* succ and pred are unique, so the walk never meets a kernel twice
     * before it returns to start or reaches the end of an open chain. */
    count = 0;
    i = start;
    for (;;) {
        size_t nx;
        (*loop)[count++] = node[i];
        if (succ[i] == NULL || count == n)
            break;
        for (nx = 0; nx < n && strcmp(node[nx], succ[i]) != 0; nx++)
            ;
        if (nx == start)
            break;
        i = nx;
    }
    if (count < n)
        return err_invalid(
            err, "loop",
            "the stored couplings form more than one chain (from %s: %zu of %zu "
            "kernels); give the loop order with \"loop\": [...]",
            node[start], count, n);
    return 0;
}

/* Puts the loop kernels in loop order into the slots loop kernels occupy. */
static int order_loop(struct build *b, const char **loop, size_t nloop, const char *field,
                      struct err *err)
{
    size_t i, j, slot = 0;
    struct kin *tmp;

    for (i = 0; i < nloop; i++) {
        struct kin *k = kernel_find(b, loop[i]);
        for (j = 0; j < i; j++)
            if (strcmp(loop[i], loop[j]) == 0)
                return err_invalid(err, field, "loop kernel %s is listed twice", loop[i]);
        if (k == NULL)
            return err_invalid(
                err, field,
                "loop kernel %s is not a kernel of the model: the selected runs "
                "have no records of it, or \"kernels\" leaves it out",
                loop[i]);
        k->loop = 1;
    }
    tmp = xmalloc((nloop + 1) * sizeof *tmp);
    if (tmp == NULL)
        return err_nomem(err);
    for (i = 0; i < nloop; i++)
        tmp[i] = *kernel_find(b, loop[i]);
    for (i = 0; i < b->nk; i++)
        if (b->k[i].loop)
            b->k[i] = tmp[slot++];
    xfree(tmp);
    return 0;
}

int cb_parse_db(struct build *b, db *d, json_t *req, struct err *err)
{
    json_t *cps = NULL, *v, *spec;
    struct db_couple_rows rows;
    struct db_sel_couple sel;
    long long app_id, sys_id, fixed_np = -1;
    size_t i, ii = 0, ki = 0, nother = 0, nmatch = 0, total = 0;
    struct other other[64];
    struct matched *sel_runs;
    const char **loop = NULL;
    size_t nloop = 0;
    int listed, rc = -1, need_params = 0;

    v = json_object_get(req, "application");
    if (!json_is_string(v) || check_name(json_string_value(v), "application", err) != 0)
        return err_invalid(err, "application", "application must name an application");
    if ((b->application = cb_sdup(b, json_string_value(v), err)) == NULL)
        return -1;
    v = json_object_get(req, "system");
    if (!json_is_string(v) || check_name(json_string_value(v), "system", err) != 0)
        return err_invalid(err, "system", "system must name a system");
    if ((b->system = cb_sdup(b, json_string_value(v), err)) == NULL)
        return -1;
    v = json_object_get(req, "executable");
    if (v != NULL) {
        if (!json_is_string(v) ||
            check_name(json_string_value(v), "executable", err) != 0)
            return err_invalid(err, "executable", "executable must name an executable");
        if ((b->executable = cb_sdup(b, json_string_value(v), err)) == NULL)
            return -1;
    }
    spec = json_object_get(req, "kernels");
    if (parse_db_kernels(b, spec, &listed, err) != 0)
        return -1;
    if ((app_id = db_app_id(d, b->application, 0, err)) < 0 ||
        (sys_id = db_system_id(d, b->system, 0, err)) < 0)
        return -1;
    if (app_id == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", "application",
                       "application %s not found", b->application);
    if (sys_id == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", "system", "system %s not found",
                       b->system);
    if ((v = json_object_get(b->fixed, "nprocs")) != NULL) {
        double np = json_number_value(v);
        fixed_np = np >= 1 && np <= 1e15 && np == floor(np) ? (long long)np : 0;
    }
    memset(&sel, 0, sizeof sel);
    sel.app_id = app_id;
    sel.sys_id = sys_id;
    sel.executable = b->executable;
    sel.nprocs = fixed_np;
    sel.max_runs = CP_MAX_RUNS;
    sel.max_kernels = CP_MAX_KERNEL_ROWS;
    if (db_select_couple(d, &sel, b->a, &rows, err) != 0)
        goto out;
    if (rows.nruns > CP_MAX_RUNS) {
        err_set(err, ERR_TOO_LARGE, "too_large", NULL,
                "the selection holds more than %d runs; narrow it with executable or "
                "fixed",
                CP_MAX_RUNS);
        goto out;
    }
    if (rows.nkernels > CP_MAX_KERNEL_ROWS) {
        err_set(err, ERR_TOO_LARGE, "too_large", NULL,
                "the selection holds more than %d kernel records; narrow it with "
                "executable or fixed",
                CP_MAX_KERNEL_ROWS);
        goto out;
    }
    b->mx = arena_alloc(b->a, (rows.nruns + 1) * sizeof *b->mx);
    b->my = arena_alloc(b->a, (rows.nruns + 1) * sizeof *b->my);
    sel_runs = arena_alloc(b->a, (rows.nruns + 1) * sizeof *sel_runs);
    if (b->mx == NULL || b->my == NULL || sel_runs == NULL) {
        err_nomem(err);
        goto out;
    }
    for (i = 0; i < rows.nruns; i++) {
        long long id = rows.runs[i].id;
        double np = rows.runs[i].nprocs;
        double rt = rows.runs[i].runtime;
        size_t i0, i1, k0, k1, j;
        double x = 0, fv;
        const char *key;
        json_t *val;
        int ok = 1, in_range;

        while (ii < rows.ninputs && rows.inputs[ii].run_id < id)
            ii++;
        i0 = ii;
        while (ii < rows.ninputs && rows.inputs[ii].run_id == id)
            ii++;
        i1 = ii;
        while (ki < rows.nkernels && rows.kernels[ki].run_id < id)
            ki++;
        k0 = ki;
        while (ki < rows.nkernels && rows.kernels[ki].run_id == id)
            ki++;
        k1 = ki;
        /* x and the fixed variables */
        if (strcmp(b->xname, "nprocs") == 0)
            x = np;
        else if (!run_input(&rows, i0, i1, b->xname, &x))
            continue;
        json_object_foreach(b->fixed, key, val)
        {
            if (strcmp(key, "nprocs") == 0)
                ok = ok && np == json_number_value(val);
            else
                ok = ok && run_input(&rows, i0, i1, key, &fv) &&
                     fv == json_number_value(val);
        }
        if (!ok)
            continue;
        sel_runs[nmatch] = (struct matched){x, np, i0, i1};
        nmatch++;
        if (strcmp(b->xname, "nprocs") != 0 &&
            json_object_get(b->fixed, "nprocs") == NULL)
            other_note(other, &nother, 64, "nprocs", np);
        for (j = i0; j < i1; j++) {
            const char *nm = rows.inputs[j].name;
            if (strcmp(nm, b->xname) != 0 && json_object_get(b->fixed, nm) == NULL)
                other_note(other, &nother, 64, nm, rows.inputs[j].value);
        }
        in_range = !b->has_range || (x >= b->range[0] && x <= b->range[1]);
        b->mx[b->nmeas] = x;
        b->my[b->nmeas] = rt;
        b->nmeas++;
        if (!in_range)
            continue;
        /* kernel times: records of the same name in one run are summed */
        for (j = k0; j < k1; j++) {
            const char *nm = rows.kernels[j].name;
            long long seq = rows.kernels[j].seq;
            double t = rows.kernels[j].time;
            struct kin *k = kernel_find(b, nm);
            if (k == NULL) {
                if (listed)
                    continue;
                if (b->nk == COUPLE_MAX_KERNELS) {
                    err_invalid(
                        err, "kernels",
                        "the runs record more than %d distinct kernels; choose kernels "
                        "with a list in \"kernels\"",
                        COUPLE_MAX_KERNELS);
                    goto out;
                }
                if ((k = kernel_add(b, cb_sdup(b, nm, err), err)) == NULL)
                    goto out;
                k->graph = "auto";
                k->order = seq;
                k->last_run = -1;
            } else if (k->order < 0 || seq < k->order) {
                k->order = seq;
            }
            if (k->n > 0 && k->last_run == id) {
                k->y[k->n - 1] += t; /* records of one kernel in one run are summed */
                continue;
            }
            if (point_add(k, x, t, err) != 0)
                goto out;
            k->last_run = id;
        }
    }
    if (nmatch == 0) {
        err_invalid(err, NULL,
                    "no runs of %s on %s%s%s match x = %s and the fixed variables",
                    b->application, b->system, b->executable ? " with executable " : "",
                    b->executable ? b->executable : "", b->xname);
        goto out;
    }
    for (i = 0; i < nother; i++) {
        if (!other[i].varies)
            continue;
        /* a size that grows with x is no mix of two problems */
        if (other[i].runs == nmatch &&
            changes_with_x(&rows, sel_runs, nmatch, other[i].name, b->a)) {
            if ((b->with_x == NULL && (b->with_x = json_array()) == NULL) ||
                json_array_append_new(b->with_x, json_string(other[i].name)) != 0) {
                err_nomem(err);
                goto out;
            }
            continue;
        }
        err_invalid(err, "fixed",
                    "the selected runs differ in %s (%g and %g); fix it with \"fixed\": "
                    "{\"%s\": ...}",
                    other[i].name, other[i].first, other[i].second, other[i].name);
        goto out;
    }
    /* A variable every selected run shares is part of the configuration the
     * model describes: it joins "fixed", so isocoupling prefers couplings
     * measured at that value. */
    for (i = 0; i < nother && json_object_size(b->fixed) < LIMIT_COUPLE_FIXED; i++)
        if (!other[i].varies && strlen(other[i].name) <= EXPR_MAX_NAME &&
            json_object_set_new(b->fixed, other[i].name, json_real(other[i].first)) !=
                0) {
            err_nomem(err);
            goto out;
        }
    if (b->nk == 0) {
        err_invalid(
            err, "kernels",
            "the selected runs of %s on %s record no kernel times; kernel coupling "
            "models an application by its kernels",
            b->application, b->system);
        goto out;
    }
    /* Kernels in run order (first position); settings-only kernels that the
     * runs do not record must be expressions. */
    for (i = 0; i < b->nk; i++) {
        struct kin *k = &b->k[i];
        if (k->order < 0 && k->n == 0 && k->expression == NULL) {
            err_invalid(
                err, "kernels",
                "kernel %s has no kernel records in the selected runs (x range and "
                "fixed variables included)",
                k->name);
            goto out;
        }
        if (k->expression != NULL)
            need_params = 1;
    }
    for (i = 1; i < b->nk; i++) { /* stable insertion sort by order; -1 (none) last */
        struct kin t = b->k[i];
        size_t j = i;
        unsigned long long ot = (unsigned long long)t.order;
        while (j > 0 && (unsigned long long)b->k[j - 1].order > ot) {
            b->k[j] = b->k[j - 1];
            j--;
        }
        b->k[j] = t;
    }
    /* couplings of the application on the system */
    cps = db_couplings_list(d, b->application, b->system, err);
    if (cps == NULL)
        goto out;
    v = json_object_get(req, "loop");
    if (v != NULL) {
        json_t *s;
        if (!json_is_array(v) || json_array_size(v) > COUPLE_MAX_KERNELS) {
            err_invalid(err, "loop", "loop must list the loop kernels in order");
            goto out;
        }
        nloop = json_array_size(v);
        loop = arena_alloc(b->a, (nloop + 1) * sizeof *loop);
        if (loop == NULL) {
            err_nomem(err);
            goto out;
        }
        json_array_foreach(v, i, s)
        {
            if (!json_is_string(s)) {
                err_invalid(err, "loop", "loop must list kernel names");
                goto out;
            }
            if ((loop[i] = cb_sdup(b, json_string_value(s), err)) == NULL)
                goto out;
        }
    } else if (derive_loop(b, cps, &loop, &nloop, err) != 0) {
        goto out;
    }
    if (order_loop(b, loop, nloop, "loop", err) != 0)
        goto out;
    for (i = 0; i < json_array_size(cps); i++) {
        json_t *row = json_array_get(cps, i), *ks = json_object_get(row, "kernels"),
               *al = json_object_get(row, "alone"), *values;
        struct couple_measurement *m;
        struct cin *c;
        size_t j;
        values = json_object_get(row, "inputs");
        values = json_is_object(values) ? json_deep_copy(values) : json_object();
        if (values == NULL ||
            json_object_set_new(
                values, "nprocs",
                json_integer(json_integer_value(json_object_get(row, "nprocs")))) != 0) {
            json_decref(values);
            err_nomem(err);
            goto out;
        }
        if ((c = cb_config_get(b, values, err)) == NULL ||
            (m = measurement_add(c, &total, err)) == NULL)
            goto out;
        m->n = json_array_size(ks) <= COUPLE_MAX_CHAIN ? json_array_size(ks) : 0;
        m->index = (size_t)json_integer_value(json_object_get(row, "id"));
        for (j = 0; j < m->n; j++) {
            const char *s = json_string_value(json_array_get(ks, j));
            if ((m->kernel[j] = cb_sdup(b, s ? s : "", err)) == NULL)
                goto out;
            m->alone[j] = json_number_value(json_array_get(al, j));
        }
        m->together = json_number_value(json_object_get(row, "together"));
    }
    if (need_params) {
        json_t *ps = db_params_list(d, b->system, err), *p;
        if (ps == NULL)
            goto out;
        b->sysparams =
            arena_alloc(b->a, (json_array_size(ps) + 1) * sizeof *b->sysparams);
        if (b->sysparams == NULL) {
            json_decref(ps);
            err_nomem(err);
            goto out;
        }
        json_array_foreach(ps, i, p)
        {
            struct expr_param_head h;
            struct expr_param *q = &b->sysparams[b->nsysparams];
            const char *sig = json_string_value(json_object_get(p, "signature"));
            char **args;
            size_t j;
            if (sig == NULL || expr_param_head_parse(sig, &h, NULL) != 0)
                continue; /* a stored parameter that is not usable is left out */
            args = arena_alloc(b->a, (h.nargs + 1) * sizeof *args);
            q->name = arena_strdup(b->a, h.name);
            q->body =
                arena_strdup(b->a, json_string_value(json_object_get(p, "expression")));
            if (args == NULL || q->name == NULL || q->body == NULL) {
                json_decref(ps);
                err_nomem(err);
                goto out;
            }
            for (j = 0; j < h.nargs; j++)
                if ((args[j] = cb_sdup(b, h.args[j], err)) == NULL) {
                    json_decref(ps);
                    goto out;
                }
            q->args = (const char *const *)args;
            q->nargs = h.nargs;
            b->nsysparams++;
        }
        json_decref(ps);
    }
    rc = 0;
out:
    json_decref(cps);
    return rc;
}
