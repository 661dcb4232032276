/* api_couple: the coupling method (SPEC §5.3): couple_answer and
 * couple_predict_saved. Its answer is loaded and evaluated by
 * core/couple_saved.h, its plots are web/chart_couple.c; this file (decoding,
 * the database selection, the answer) is still to move to core/ (issue 11).
 *
 * couple_answer reads the request (inline kernels and couplings, or a
 * database selection of runs' kernel records and stored couplings), fits one
 * model per kernel (models/fit, or a parameterization through models/expr),
 * computes the coupling values and coefficients of every measured
 * configuration (models/couple) and writes the answer. Everything a later
 * use of the answer needs travels in it: each kernel's fitted state
 * (core/fit_json), the substituted expression of parameterized kernels, the
 * coefficients of every configuration. Predictions, curves and breakdowns
 * are then computed from the answer alone by one loader (couple_saved_load) and one
 * evaluator (couple_saved_eval), so the answer, a saved model's predict and the
 * plots cannot disagree. docs/models.md (kernel coupling) has the mathematics.
 *
 * Ownership: couple_answer and couple_predict_saved return a new JSON
 * reference (json_decref) or NULL with err set; the plot functions append to
 * the caller's buffer. All are thread-safe on distinct arguments (the answer
 * is only read); per-request memory lives in an arena freed before return.
 *
 * The coupling computation itself (values, weighted averages, adjacency
 * rules, the isocoupling distance) lives in models/couple.
 */
#include "common/arena.h"
#include "common/utf8.h"
#include "common/xalloc.h"
#include "db/catalog.h"
#include "formats/limits.h"
#include "db/select.h"
#include "models/couple.h"
#include "models/expr.h"
#include "models/fit.h"
#include "core/couple_saved.h"
#include "core/fit_json.h"
#include "server/modeling.h"
#include "server/routes.h"
#include "server/rundoc.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CP_MAX_PREDICT LIMIT_PREDICT
#define CP_MAX_RUNS LIMIT_COUPLE_RUNS
#define CP_MAX_KERNEL_ROWS LIMIT_COUPLE_KERNEL_ROWS
#define CP_MAX_MEASURED LIMIT_COUPLE_MEASURED
#define CP_MAX_NAME LIMIT_NAME
#define CP_FORMULA_MAX (1 << 20)

/* ---- small helpers ------------------------------------------------------------- */

static int number_of(json_t *v, double *out)
{
    if (!json_is_number(v) || !isfinite(json_number_value(v)))
        return -1;
    *out = json_number_value(v);
    return 0;
}

/* Rejects keys of o that are not in allowed (NULL-terminated). */
static int only_keys(json_t *o, const char *const *allowed, const char *where,
                     struct err *err)
{
    const char *key;
    json_t *v;
    json_object_foreach(o, key, v)
    {
        size_t i;
        int ok = 0;
        for (i = 0; allowed[i] && !ok; i++)
            ok = strcmp(key, allowed[i]) == 0;
        if (!ok)
            return err_invalid(err, where[0] ? where : key, "unknown field %s%s%s",
                               strlen(key) <= 64 ? key : "(over 64 bytes)",
                               where[0] ? " in " : "", where);
    }
    return 0;
}

static json_t *num(double v)
{
    return json_real(isfinite(v) ? v : 0);
}

/* ==== building: request -> kernels, data, couplings ============================== */

struct kin {
    const char *name;
    int loop;
    const char *graph;      /* fit graph; NULL for an expression kernel */
    const char *expression; /* template, or NULL */
    json_t *params;         /* the request's parameters object (borrowed), or NULL */
    double *x, *y;
    size_t n, cap;
    long long order;    /* database form: first position in the runs (seq) */
    long long last_run; /* database form: the run of the last point added */
    char field[64];     /* "kernels[3]" or "kernels" */
};

struct cin {
    json_t *values; /* configuration object (own reference) */
    char *key;      /* canonical text (xfree) */
    struct couple_measurement *m;
    size_t nm, cap;
};

struct build {
    arena *a;
    int dbform;
    const char *xname;
    json_t *fixed; /* own reference */
    int has_range;
    double range[2];
    enum agg_kind agg;
    const char *application, *system, *executable;
    struct kin *k;
    size_t nk, kcap;
    struct cin *c;
    size_t nc;
    double *pred;
    size_t npred;
    double *mx, *my; /* measured totals */
    size_t nmeas;
    struct expr_param *sysparams; /* database form: the system's parameters */
    size_t nsysparams;
};

static void build_free(struct build *b)
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
}

/* A copy of s in the request's arena; NULL with a 500 on out of memory. */
static char *sdup(struct build *b, const char *s, struct err *err)
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
        return err_set(err, 413, "too_large", k->field,
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
static struct cin *config_get(struct build *b, json_t *values, struct err *err)
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

static int parse_common(struct build *b, json_t *req, struct err *err)
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
        if ((b->xname = sdup(b, json_string_value(v), err)) == NULL)
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
            if (number_of(val, &d) != 0)
                return err_invalid(err, "fixed", "fixed.%s must be a finite number", key);
            json_object_set_new(b->fixed, key, json_real(d));
        }
    }
    v = json_object_get(req, "range");
    if (v != NULL) {
        if (!json_is_array(v) || json_array_size(v) != 2 ||
            number_of(json_array_get(v, 0), &b->range[0]) != 0 ||
            number_of(json_array_get(v, 1), &b->range[1]) != 0 ||
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
            if (number_of(p, &b->pred[i]) != 0)
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
        if ((k->expression = sdup(b, json_string_value(ex), err)) == NULL)
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
    k->graph = g ? sdup(b, json_string_value(g), err) : default_graph;
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
    return rundoc_check_name(s, strlen(s), field, err);
}

/* ---- inline form ---- */

static int parse_inline(struct build *b, json_t *req, struct err *err)
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
        if (only_keys(o, kernel_keys, field, err) != 0)
            return -1;
        snprintf(field, sizeof field, "kernels[%zu].name", i);
        if (!json_is_string(name) || check_name(json_string_value(name), field, err) != 0)
            return err_invalid(err, field, "%s must be a kernel name", field);
        if (kernel_find(b, json_string_value(name)) != NULL)
            return err_invalid(err, field, "kernel %s is listed twice",
                               json_string_value(name));
        k = kernel_add(b, sdup(b, json_string_value(name), err), err);
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
            return err_set(err, 413, "too_large", field, "kernel %s: more than %d points",
                           k->name, FIT_MAX_POINTS);
        json_array_foreach(data, j, row)
        {
            double x, y;
            if (!json_is_array(row) || json_array_size(row) != 2 ||
                number_of(json_array_get(row, 0), &x) != 0 ||
                number_of(json_array_get(row, 1), &y) != 0) {
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
        if (only_keys(o, coupling_keys, field, err) != 0)
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
                if (number_of(v, &d) != 0 || strlen(key) == 0 ||
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
        if ((c = config_get(b, values, err)) == NULL ||
            (m = measurement_add(c, &total, err)) == NULL)
            return -1;
        m->n = json_array_size(kn);
        m->index = i;
        for (j = 0; j < m->n; j++) {
            json_t *s = json_array_get(kn, j);
            if (!json_is_string(s))
                return err_invalid(err, field, "%s.kernels must be kernel names", field);
            if ((m->kernel[j] = sdup(b, json_string_value(s), err)) == NULL)
                return -1;
            if (number_of(json_array_get(al, j), &m->alone[j]) != 0)
                return err_invalid(err, field, "%s.alone must hold numbers", field);
        }
        if (number_of(json_object_get(o, "together"), &m->together) != 0)
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
                number_of(json_array_get(row, 0), &b->mx[i]) != 0 ||
                number_of(json_array_get(row, 1), &b->my[i]) != 0) {
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
            return 0;
        }
    if (*n == max)
        return 0; /* more distinct input names than tracked: the rest are not checked */
    o[*n].name = name;
    o[*n].first = v;
    o[*n].varies = 0;
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
                only_keys(o, keys + 1, "kernels", err) != 0)
                return -1;
            if ((k = kernel_add(b, sdup(b, key, err), err)) == NULL ||
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
        if ((k = kernel_add(b, sdup(b, name, err), err)) == NULL)
            return -1;
        snprintf(k->field, sizeof k->field, "%s", field);
        k->graph = "auto";
        if (json_is_object(o) && (only_keys(o, keys, field, err) != 0 ||
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

static int parse_db(struct build *b, db *d, json_t *req, struct err *err)
{
    json_t *cps = NULL, *v, *spec;
    struct db_couple_rows rows;
    struct db_sel_couple sel;
    long long app_id, sys_id, fixed_np = -1;
    size_t i, ii = 0, ki = 0, nother = 0, nmatch = 0, total = 0;
    struct other other[64];
    const char **loop = NULL;
    size_t nloop = 0;
    int listed, rc = -1, need_params = 0;

    v = json_object_get(req, "application");
    if (!json_is_string(v) || check_name(json_string_value(v), "application", err) != 0)
        return err_invalid(err, "application", "application must name an application");
    if ((b->application = sdup(b, json_string_value(v), err)) == NULL)
        return -1;
    v = json_object_get(req, "system");
    if (!json_is_string(v) || check_name(json_string_value(v), "system", err) != 0)
        return err_invalid(err, "system", "system must name a system");
    if ((b->system = sdup(b, json_string_value(v), err)) == NULL)
        return -1;
    v = json_object_get(req, "executable");
    if (v != NULL) {
        if (!json_is_string(v) ||
            check_name(json_string_value(v), "executable", err) != 0)
            return err_invalid(err, "executable", "executable must name an executable");
        if ((b->executable = sdup(b, json_string_value(v), err)) == NULL)
            return -1;
    }
    spec = json_object_get(req, "kernels");
    if (parse_db_kernels(b, spec, &listed, err) != 0)
        return -1;
    if ((app_id = db_app_id(d, b->application, 0, err)) < 0 ||
        (sys_id = db_system_id(d, b->system, 0, err)) < 0)
        return -1;
    if (app_id == 0)
        return err_set(err, 404, "not_found", "application", "application %s not found",
                       b->application);
    if (sys_id == 0)
        return err_set(err, 404, "not_found", "system", "system %s not found", b->system);
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
        err_set(err, 413, "too_large", NULL,
                "the selection holds more than %d runs; narrow it with executable or "
                "fixed",
                CP_MAX_RUNS);
        goto out;
    }
    if (rows.nkernels > CP_MAX_KERNEL_ROWS) {
        err_set(err, 413, "too_large", NULL,
                "the selection holds more than %d kernel records; narrow it with "
                "executable or fixed",
                CP_MAX_KERNEL_ROWS);
        goto out;
    }
    b->mx = arena_alloc(b->a, (rows.nruns + 1) * sizeof *b->mx);
    b->my = arena_alloc(b->a, (rows.nruns + 1) * sizeof *b->my);
    if (b->mx == NULL || b->my == NULL) {
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
                if ((k = kernel_add(b, sdup(b, nm, err), err)) == NULL)
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
    for (i = 0; i < nother; i++)
        if (other[i].varies) {
            err_invalid(
                err, "fixed",
                "the selected runs differ in %s (%g and %g); fix it with \"fixed\": "
                "{\"%s\": ...}",
                other[i].name, other[i].first, other[i].second, other[i].name);
            goto out;
        }
    /* A variable every selected run shares is part of the configuration the
     * model describes: it joins "fixed", so isocoupling prefers couplings
     * measured at that value. */
    for (i = 0; i < nother && json_object_size(b->fixed) < LIMIT_COUPLE_FIXED; i++)
        if (strlen(other[i].name) <= EXPR_MAX_NAME &&
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
            if ((loop[i] = sdup(b, json_string_value(s), err)) == NULL)
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
        if ((c = config_get(b, values, err)) == NULL ||
            (m = measurement_add(c, &total, err)) == NULL)
            goto out;
        m->n = json_array_size(ks) <= COUPLE_MAX_CHAIN ? json_array_size(ks) : 0;
        m->index = (size_t)json_integer_value(json_object_get(row, "id"));
        for (j = 0; j < m->n; j++) {
            const char *s = json_string_value(json_array_get(ks, j));
            if ((m->kernel[j] = sdup(b, s ? s : "", err)) == NULL)
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
                if ((args[j] = sdup(b, h.args[j], err)) == NULL) {
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

/* ==== fitting each kernel and writing the answer =================================== */

/* The parameters an expression kernel sees: the system's (database form)
 * overridden by the kernel's own. */
static int kernel_params(struct build *b, struct kin *k, struct expr_param **out,
                         size_t *n, struct err *err)
{
    size_t cap = b->nsysparams + (k->params ? json_object_size(k->params) : 0) + 1, i;
    struct expr_param *p = arena_alloc(b->a, cap * sizeof *p);
    const char *key;
    json_t *v;
    char field[96];

    if (p == NULL)
        return err_nomem(err);
    *n = 0;
    snprintf(field, sizeof field, "%s.parameters", k->field);
    json_object_foreach(k->params, key, v)
    {
        struct expr_param_head h;
        char **args;
        size_t j;
        struct err e2 = {0};
        if (expr_param_head_parse(key, &h, &e2) != 0)
            return couple_rewrap(err, &e2, field, "kernel", k->name);
        args = arena_alloc(b->a, (h.nargs + 1) * sizeof *args);
        p[*n].name = arena_strdup(b->a, h.name);
        p[*n].body = json_string_value(v);
        if (args == NULL || p[*n].name == NULL)
            return err_nomem(err);
        for (j = 0; j < h.nargs; j++)
            if ((args[j] = sdup(b, h.args[j], err)) == NULL)
                return -1;
        p[*n].args = (const char *const *)args;
        p[*n].nargs = h.nargs;
        (*n)++;
    }
    for (i = 0; i < b->nsysparams; i++) {
        size_t j;
        int shadowed = 0;
        for (j = 0; j < *n && !shadowed; j++)
            shadowed = strcmp(p[j].name, b->sysparams[i].name) == 0;
        if (!shadowed)
            p[(*n)++] = b->sysparams[i];
    }
    *out = p;
    return 0;
}

static json_t *fit_model_json(const struct fit_result *res, const char *xname,
                              struct err *err)
{
    const struct fit_model *m = &res->model;
    const char *names[1] = {xname};
    json_t *coef = json_array(), *state = fit_model_to_json(m), *out;
    struct buf human, machine;
    int j;

    buf_init(&human, CP_FORMULA_MAX);
    buf_init(&machine, CP_FORMULA_MAX);
    fit_formula(m, names, &human);
    fit_machine_formula(m, names, &machine);
    for (j = 0; coef && j < m->nterms; j++)
        json_array_append_new(coef, num(m->coef[j]));
    out = NULL;
    if (!buf_failed(&human) && !buf_failed(&machine) && state != NULL)
        out = json_pack(
            "{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
            "s:o, s:I, s:I, s:b, s:o}",
            "type", "fit", "graph", fit_graph_name(m->graph), "chosen",
            fit_graph_name(m->chosen), "formula", buf_str(&human), "expression",
            buf_str(&machine), "coefficients", coef, "rss", num(res->stats.rss),
            "resnorm", num(res->stats.resnorm), "r2", num(res->stats.r2), "adj_r2",
            num(res->stats.adj_r2), "rmse", num(res->stats.rmse), "smape",
            num(res->stats.smape), "cv_rmse", num(res->stats.cv_rmse), "x_range",
            json_pack("[f,f]", m->xmin[0], m->xmax[0]), "points",
            (json_int_t)res->stats.npoints, "observations", (json_int_t)res->stats.nobs,
            "interval", m->has_interval, "state", state);
    else {
        json_decref(coef);
        json_decref(state);
    }
    buf_free(&human);
    buf_free(&machine);
    if (out == NULL)
        err_nomem(err);
    return out;
}

static json_t *points_json(const struct fit_result *res)
{
    json_t *a = json_array();
    size_t i;
    for (i = 0; a && i < res->npoints; i++) {
        const struct fit_point *p = &res->points[i];
        json_array_append_new(
            a, json_pack("{s:o, s:o, s:o, s:o, s:i, s:o, s:o}", "x", num(p->x[0]), "y",
                         num(p->y), "ymin", num(p->ymin), "ymax", num(p->ymax), "n", p->n,
                         "fit", num(p->yhat), "residual", num(p->resid)));
    }
    return a;
}

/* Builds one kernel's answer entry ({"name", "loop", "model", "points"}). */
static json_t *kernel_json(struct build *b, struct kin *k, struct err *err)
{
    json_t *model, *points;

    if (k->expression != NULL) {
        struct expr_param *p = NULL;
        size_t np = 0;
        struct couple_env env;
        struct expr_env ee;
        expr *e;
        struct buf parsed;
        struct err e2 = {0};
        char field[96];

        if (kernel_params(b, k, &p, &np, err) != 0)
            return NULL;
        couple_env_make(&env, b->xname, b->fixed);
        ee.vars = env.name;
        ee.nvars = env.n;
        ee.params = p;
        ee.nparams = np;
        e = expr_compile(k->expression, &ee, &e2);
        if (e == NULL) {
            snprintf(field, sizeof field, "%s.expression", k->field);
            couple_rewrap(err, &e2, field, "kernel", k->name);
            return NULL;
        }
        buf_init(&parsed, CP_FORMULA_MAX);
        expr_print_substituted(e, &parsed);
        expr_free(e);
        if (buf_failed(&parsed)) {
            buf_free(&parsed);
            err_invalid(err, k->field,
                        "kernel %s: the expression is over %d bytes once the "
                        "parameters are substituted",
                        k->name, CP_FORMULA_MAX);
            return NULL;
        }
        model = json_pack("{s:s, s:s, s:s, s:s, s:o}", "type", "expression", "template",
                          k->expression, "formula", buf_str(&parsed), "expression",
                          buf_str(&parsed), "parameters",
                          k->params ? json_incref(k->params) : json_object());
        buf_free(&parsed);
        points = json_array();
        if (points != NULL && k->n > 0) {
            /* measured times of a parameterized kernel: shown, not fitted */
            struct agg_point *ap = xmalloc(k->n * sizeof *ap);
            int m = ap ? agg_points(k->x, k->y, k->n, b->agg, ap, err) : -1;
            int i;
            if (m < 0) {
                xfree(ap);
                json_decref(points);
                json_decref(model);
                err_nomem(err);
                return NULL;
            }
            for (i = 0; i < m; i++)
                json_array_append_new(points, json_pack("{s:o, s:o, s:o, s:o, s:i}", "x",
                                                        num(ap[i].x), "y", num(ap[i].y),
                                                        "ymin", num(ap[i].ymin), "ymax",
                                                        num(ap[i].ymax), "n", ap[i].n));
            xfree(ap);
        }
    } else {
        struct fit_input in;
        struct fit_result res;
        struct err e2 = {0};
        if (k->n == 0) {
            err_invalid(err, k->field, "kernel %s has no measurements to fit", k->name);
            return NULL;
        }
        memset(&in, 0, sizeof in);
        in.nvars = 1;
        in.x = k->x;
        in.y = k->y;
        in.n = k->n;
        in.graph = k->graph;
        in.agg = b->agg;
        if (fit_run(&in, &res, &e2) != 0) {
            couple_rewrap(err, &e2, k->field, "kernel", k->name);
            return NULL;
        }
        model = fit_model_json(&res, b->xname, err);
        points = points_json(&res);
        fit_result_free(&res);
    }
    if (model == NULL || points == NULL) {
        json_decref(model);
        json_decref(points);
        err_nomem(err);
        return NULL;
    }
    return json_pack("{s:s, s:b, s:o, s:o}", "name", k->name, "loop", k->loop, "model",
                     model, "points", points);
}

static json_t *couplings_json(const struct couple_result *r, const struct kin *k)
{
    json_t *a = json_array();
    size_t i, j;
    for (i = 0; a && i < r->nchains; i++) {
        const struct couple_chain *c = &r->chain[i];
        json_t *names = json_array(), *alone = json_array();
        for (j = 0; j < c->n; j++) {
            json_array_append_new(names, json_string(k[c->kernel[j]].name));
            json_array_append_new(alone, num(c->alone[j]));
        }
        json_array_append_new(a, json_pack("{s:o, s:o, s:o, s:o, s:i}", "kernels", names,
                                           "alone", alone, "together", num(c->together),
                                           "value", num(c->value), "measurements",
                                           c->measurements));
    }
    return a;
}

/* "nprocs=16, class_size=64" (or "the only configuration"). */
static void config_text(json_t *values, char *out, size_t size)
{
    const char *key;
    json_t *v;
    size_t len = 0;
    out[0] = '\0';
    json_object_foreach(values, key, v)
    {
        int w = snprintf(out + len, size - len, "%s%s=%g", len ? ", " : "", key,
                         json_number_value(v));
        if (w < 0 || (size_t)w >= size - len)
            break;
        len += (size_t)w;
    }
    if (len == 0)
        snprintf(out, size, "the given couplings");
    utf8_cut(out);
}

/* {"x", "y", "lo", "hi", "summation": {...}, "configuration": {...}, ...} */
static json_t *prediction_json(struct couple_saved *s, double x,
                               const struct couple_eval *ev, const double *contrib)
{
    json_t *conf = json_array_get(s->confs, ev->conf), *kern = json_object(), *p;
    size_t i;
    for (i = 0; kern && i < s->nk; i++)
        json_object_set_new(kern, s->k[i].name, num(contrib[i]));
    p = json_pack("{s:o, s:o, s:o, s:o, s:{s:o, s:o, s:o}, s:O, s:I, s:o}", "x", num(x),
                  "y", num(ev->y), "lo", num(ev->y - ev->half), "hi",
                  num(ev->y + ev->half), "summation", "y", num(ev->sum), "lo",
                  num(ev->sum - ev->sum_half), "hi", num(ev->sum + ev->sum_half),
                  "configuration", json_object_get(conf, "configuration"),
                  "configuration_index", (json_int_t)ev->conf, "kernels", kern);
    return p;
}

/* Composed formulas of configuration c: human, machine and by kernel name. */
static int compose_formulas(struct couple_saved *s, size_t c, struct buf *human,
                            struct buf *machine, struct buf *names)
{
    size_t i;
    buf_printf(human, "T(%s) = ", s->xname);
    buf_puts(names, "T = ");
    for (i = 0; i < s->nk; i++) {
        double co = s->coef[c * s->nk + i];
        const char *f = s->k[i].formula;
        if (strncmp(f, "y = ", 4) == 0)
            f += 4;
        if (i > 0) {
            buf_puts(human, " + ");
            buf_putc(machine, '+');
            buf_puts(names, " + ");
        }
        if (co != 1.0) {
            buf_printf(human, "%.6g\xc2\xb7", co);
            buf_num(machine, co);
            buf_putc(machine, '*');
            buf_printf(names, "%.6g\xc2\xb7", co);
        }
        buf_printf(human, "(%s)", f);
        buf_printf(machine, "(%s)", s->k[i].expression);
        buf_puts(names, s->k[i].name);
    }
    return buf_failed(human) || buf_failed(machine) || buf_failed(names) ? -1 : 0;
}

static int set_formulas(struct couple_saved *s, size_t c, json_t *target, struct err *err)
{
    struct buf h, m, n;
    int rc = 0;
    buf_init(&h, CP_FORMULA_MAX);
    buf_init(&m, CP_FORMULA_MAX);
    buf_init(&n, CP_FORMULA_MAX);
    if (compose_formulas(s, c, &h, &m, &n) != 0)
        rc = err_invalid(err, "kernels", "the composed formula is over %d bytes",
                         CP_FORMULA_MAX);
    else if (json_object_set_new(target, "formula", json_string(buf_str(&h))) != 0 ||
             json_object_set_new(target, "expression", json_string(buf_str(&m))) != 0 ||
             json_object_set_new(target, "composition", json_string(buf_str(&n))) != 0)
        rc = err_nomem(err);
    buf_free(&h);
    buf_free(&m);
    buf_free(&n);
    return rc;
}

/* ==== couple_answer ================================================================ */

static json_t *answer_build(struct build *b, struct err *err)
{
    json_t *ans = NULL, *kernels = json_array(), *confs = json_array(),
           *skipped = json_array(), *loop = json_array(), *preds = NULL, *points = NULL;
    struct couple_kernel *ck = NULL;
    struct couple_saved s;
    struct err first = {0};
    size_t i, c, def = 0;
    double mid = NAN, lo = INFINITY, hi = -INFINITY;
    double *contrib = NULL;
    int loaded = 0;

    memset(&s, 0, sizeof s);
    if (kernels == NULL || confs == NULL || skipped == NULL || loop == NULL)
        goto nomem;
    for (i = 0; i < b->nk; i++) {
        json_t *kj = kernel_json(b, &b->k[i], err);
        if (kj == NULL)
            goto fail;
        json_array_append_new(kernels, kj);
        if (b->k[i].loop)
            json_array_append_new(loop, json_string(b->k[i].name));
    }
    /* coupling values and coefficients of every configuration */
    ck = xcalloc(b->nk + 1, sizeof *ck);
    if (ck == NULL)
        goto nomem;
    for (i = 0; i < b->nk; i++) {
        ck[i].name = b->k[i].name;
        ck[i].loop = b->k[i].loop;
    }
    if (b->nc == 0) { /* no couplings at all: one empty configuration */
        json_t *none = json_object();
        if (none == NULL || config_get(b, none, err) == NULL)
            goto fail;
    }
    for (c = 0; c < b->nc; c++) {
        struct couple_result r;
        struct err e2 = {0};
        json_t *coefs, *entry;
        if (couple_coefficients(ck, b->nk, b->c[c].m, b->c[c].nm, &r, &e2) != 0) {
            char where[160];
            config_text(b->c[c].values, where, sizeof where);
            if (b->dbform)
                snprintf(e2.field, sizeof e2.field, "couplings");
            if (b->nc > 1 || json_object_size(b->c[c].values) > 0) {
                struct err e3 = {0};
                couple_rewrap(&e3, &e2, e2.field, "couplings at", where);
                e2 = e3;
            }
            if (first.status == 0)
                first = e2;
            json_array_append_new(skipped,
                                  json_pack("{s:O, s:s}", "configuration", b->c[c].values,
                                            "error", e2.message));
            continue;
        }
        coefs = json_object();
        for (i = 0; coefs && i < b->nk; i++)
            json_object_set_new(coefs, b->k[i].name, num(r.coef[i]));
        entry = json_pack("{s:O, s:o, s:o}", "configuration", b->c[c].values, "couplings",
                          couplings_json(&r, b->k), "coefficients", coefs);
        couple_result_free(&r);
        if (entry == NULL || json_array_append_new(confs, entry) != 0)
            goto nomem;
    }
    if (json_array_size(confs) == 0) {
        *err = first;
        goto fail;
    }
    ans = json_pack("{s:s, s:O, s:s, s:O, s:O, s:O}", "x", b->xname, "fixed", b->fixed,
                    "aggregate", agg_name(b->agg), "loop", loop, "kernels", kernels,
                    "configurations", confs);
    if (ans == NULL)
        goto nomem;
    if (json_array_size(skipped) > 0)
        json_object_set(ans, "skipped_configurations", skipped);
    if (b->dbform) {
        json_object_set_new(ans, "application", json_string(b->application));
        json_object_set_new(ans, "system", json_string(b->system));
        if (b->executable)
            json_object_set_new(ans, "executable", json_string(b->executable));
    }
    if (b->has_range)
        json_object_set_new(ans, "range", json_pack("[f,f]", b->range[0], b->range[1]));
    /* From here on everything is computed from the answer itself. */
    if (couple_saved_load(ans, &s, err) != 0)
        goto fail;
    loaded = 1;
    contrib = xcalloc(s.nk + 1, sizeof *contrib);
    preds = json_array();
    if (contrib == NULL || preds == NULL)
        goto nomem;
    /* The default configuration: that of the first prediction, else the one
     * nearest the middle of the fitted x range. */
    for (i = 0; i < s.nk; i++)
        if (!s.k[i].is_expr) {
            lo = fmin(lo, s.k[i].fm.xmin[0]);
            hi = fmax(hi, s.k[i].fm.xmax[0]);
        }
    if (lo <= hi)
        mid = lo > 0 ? sqrt(lo * hi) : 0.5 * (lo + hi);
    def = couple_saved_nearest(&s, b->npred > 0 ? b->pred[0] : mid);
    /* measured totals */
    points = json_array();
    if (points == NULL)
        goto nomem;
    if (b->nmeas > 0) {
        struct agg_point *ap = xmalloc(b->nmeas * sizeof *ap);
        int m = -1, j;
        if (ap != NULL)
            m = agg_points(b->mx, b->my, b->nmeas, b->agg, ap, err);
        for (j = 0; j < m; j++) {
            int in_range =
                !b->has_range || (ap[j].x >= b->range[0] && ap[j].x <= b->range[1]);
            json_array_append_new(
                points, json_pack("{s:o, s:o, s:o, s:o, s:i, s:b}", "x", num(ap[j].x),
                                  "y", num(ap[j].y), "ymin", num(ap[j].ymin), "ymax",
                                  num(ap[j].ymax), "n", ap[j].n, "in_range", in_range));
        }
        xfree(ap);
        if (m < 0) {
            if (err->status == 0)
                err_nomem(err);
            goto fail;
        }
    }
    for (i = 0; i < b->npred; i++) {
        struct couple_eval ev;
        json_t *p, *pt;
        size_t j;
        char field[32];
        if (couple_saved_eval(&s, b->pred[i], couple_saved_nearest(&s, b->pred[i]), &ev,
                              contrib, err) != 0) {
            snprintf(field, sizeof field, "predict[%zu]", i);
            snprintf(err->field, sizeof err->field, "%s", field);
            goto fail;
        }
        p = prediction_json(&s, b->pred[i], &ev, contrib);
        if (p == NULL)
            goto nomem;
        json_array_foreach(points, j, pt)
        {
            double a = json_number_value(json_object_get(pt, "y"));
            if (json_number_value(json_object_get(pt, "x")) != b->pred[i] || a == 0)
                continue;
            json_object_set_new(p, "actual", num(a));
            json_object_set_new(p, "runs", json_copy(json_object_get(pt, "n")));
            json_object_set_new(p, "error_pct", num(100 * (ev.y - a) / a));
            json_object_set_new(p, "summation_error_pct", num(100 * (ev.sum - a) / a));
        }
        json_array_append_new(preds, p);
    }
    /* the default configuration's values at the top level */
    {
        json_t *conf = json_array_get(s.confs, def);
        json_object_set(ans, "configuration", json_object_get(conf, "configuration"));
        json_object_set(ans, "couplings", json_object_get(conf, "couplings"));
        json_object_set(ans, "coefficients", json_object_get(conf, "coefficients"));
        for (c = 0; c < s.nconf; c++)
            if (set_formulas(&s, c, json_array_get(s.confs, c), err) != 0)
                goto fail;
        if (set_formulas(&s, def, ans, err) != 0)
            goto fail;
        for (i = 0; i < s.nk; i++)
            json_object_set_new(json_array_get(kernels, i), "coefficient",
                                num(s.coef[def * s.nk + i]));
    }
    json_object_set_new(ans, "configuration_index", json_integer((json_int_t)def));
    json_object_set_new(ans, "interval", json_boolean(s.interval));
    json_object_set_new(ans, "predictions", preds);
    json_object_set_new(ans, "points", points);
    preds = points = NULL;
    goto done;
nomem:
    err_nomem(err);
fail:
    json_decref(ans);
    ans = NULL;
done:
    if (loaded)
        couple_saved_free(&s);
    xfree(contrib);
    xfree(ck);
    json_decref(preds);
    json_decref(points);
    json_decref(kernels);
    json_decref(confs);
    json_decref(skipped);
    json_decref(loop);
    return ans;
}

json_t *couple_answer(db *d, json_t *req, struct err *err)
{
    static const char *const inline_keys[] = {"kernels",  "couplings", "predict",
                                              "x",        "fixed",     "aggregate",
                                              "measured", "range",     NULL};
    static const char *const db_keys[] = {
        "application", "system", "executable", "x",         "fixed", "range",
        "kernels",     "loop",   "predict",    "aggregate", NULL};
    struct build b;
    json_t *out = NULL;

    memset(&b, 0, sizeof b);
    if (!json_is_object(req)) {
        err_invalid(err, NULL, "the body must be a JSON object");
        return NULL;
    }
    b.a = arena_new();
    if (b.a == NULL) {
        err_nomem(err);
        return NULL;
    }
    b.dbform = json_object_get(req, "application") != NULL;
    if (only_keys(req, b.dbform ? db_keys : inline_keys, "", err) != 0 ||
        parse_common(&b, req, err) != 0)
        goto out;
    if (b.dbform) {
        if (d == NULL) {
            err_set(err, 500, "internal", NULL, "no database connection");
            goto out;
        }
        if (parse_db(&b, d, req, err) != 0)
            goto out;
    } else {
        size_t i, j;
        if (parse_inline(&b, req, err) != 0)
            goto out;
        /* range limits the fitted data in the inline form too */
        for (i = 0; b.has_range && i < b.nk; i++) {
            struct kin *k = &b.k[i];
            size_t n = 0;
            for (j = 0; j < k->n; j++)
                if (k->x[j] >= b.range[0] && k->x[j] <= b.range[1]) {
                    k->x[n] = k->x[j];
                    k->y[n] = k->y[j];
                    n++;
                }
            k->n = n;
        }
    }
    out = answer_build(&b, err);
out:
    build_free(&b);
    arena_free(b.a);
    return out;
}

/* ==== couple_predict_saved ========================================================= */

json_t *couple_predict_saved(json_t *answer, json_t *point, struct err *err)
{
    struct couple_saved s;
    struct couple_eval ev;
    json_t *v, *out = NULL;
    double x;
    double *contrib;

    if (couple_saved_load(answer, &s, err) != 0)
        return NULL;
    v = json_object_get(point, s.xname);
    if (v == NULL && strcmp(s.xname, "nprocs") == 0)
        v = json_object_get(point, "P");
    if (json_is_string(v)) {
        char *end;
        errno = 0;
        x = strtod(json_string_value(v), &end);
        if (*end != '\0' || end == json_string_value(v) || errno == ERANGE ||
            !isfinite(x))
            v = NULL;
    } else if (number_of(v, &x) != 0) {
        v = NULL;
    }
    if (v == NULL) {
        err_invalid(err, s.xname, "the model needs %s, a finite number", s.xname);
        couple_saved_free(&s);
        return NULL;
    }
    contrib = xcalloc(s.nk + 1, sizeof *contrib);
    if (contrib == NULL)
        err_nomem(err);
    else if (couple_saved_eval(&s, x, couple_saved_nearest(&s, x), &ev, contrib, err) ==
                 0 &&
             (out = prediction_json(&s, x, &ev, contrib)) == NULL)
        err_nomem(err);
    xfree(contrib);
    couple_saved_free(&s);
    return out;
}
