/* scaling: a whole application's scaling at once (core/scaling.h).
 *
 * Three parts: the selection (the application's configurations from the
 * summaries, filtered by the fixed inputs and grouped by everything but x,
 * so that one curve never mixes two problem sizes or two systems), the fits
 * (one curve-fitting request per series, database form, graph auto,
 * predicting at the largest measured x and at the target), and the answer
 * (shares of the sum of the kernels' laws, the bottleneck, the kernels
 * whose share grows). All reads share one snapshot (db_select_begin).
 */
#include "core/scaling.h"
#include "core/config_order.h"
#include "common/arena.h"
#include "common/buf.h"
#include "common/xalloc.h"
#include "core/method_fit.h"
#include "db/browse.h"
#include "db/catalog.h"
#include "db/select.h"
#include "db/summary.h"
#include "formats/json.h"
#include "formats/limits.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The decoded query. */
struct sq {
    const char *x, *executable, *system;
    double target; /* 0: not given */
    double nprocs; /* fixed nprocs (x other than nprocs), 0: not given */
    json_t *fixed; /* {name: number}, the input.NAME parameters (owned) */
};

/* One configuration of the selection with its inputs parsed. */
struct cfg {
    const struct db_config *c;
    json_t *inputs; /* owned */
    double x;
    const char *group; /* everything but x: system, nprocs (x != nprocs), inputs */
};

static const char *qstr(json_t *query, const char *key)
{
    const char *s = json_string_value(json_object_get(query, key));
    return s && *s ? s : NULL;
}

static int decode(json_t *query, struct sq *q, struct err *err)
{
    const char *key, *s;
    json_t *v;

    memset(q, 0, sizeof *q);
    q->x = qstr(query, "x") ? qstr(query, "x") : "nprocs";
    if (json_check_name(q->x, strlen(q->x), "x", LIMIT_NAME, err) != 0)
        return -1;
    q->executable = qstr(query, "executable");
    q->system = qstr(query, "system");
    if ((q->executable && json_check_name(q->executable, strlen(q->executable),
                                          "executable", LIMIT_NAME, err) != 0) ||
        (q->system &&
         json_check_name(q->system, strlen(q->system), "system", LIMIT_NAME, err) != 0))
        return -1;
    if ((s = qstr(query, "target")) != NULL &&
        (json_parse_decimal(s, "target", &q->target, err) != 0 || !(q->target > 0)))
        return err_invalid(
            err, "target",
            "target must be a number greater than 0 (the x to predict at)");
    if ((s = qstr(query, "nprocs")) != NULL) {
        if (strcmp(q->x, "nprocs") == 0)
            return err_invalid(err, "nprocs",
                               "nprocs is the x variable; it cannot be fixed");
        if (json_parse_decimal(s, "nprocs", &q->nprocs, err) != 0 || !(q->nprocs >= 1))
            return err_invalid(err, "nprocs", "nprocs must be a number of at least 1");
    }
    if ((q->fixed = json_object()) == NULL)
        return err_nomem(err);
    json_object_foreach(query, key, v)
    {
        double val;
        const char *text = json_string_value(v);
        if (strncmp(key, "input.", 6) != 0)
            continue;
        if (key[6] == '\0' || strlen(key + 6) > LIMIT_NAME || text == NULL ||
            (text[0] != '\0' && json_parse_decimal(text, key, &val, err) != 0)) {
            err_clear(err);
            return err_invalid(err, key,
                               "%.300s must be input.NAME=NUMBER (or input.NAME= "
                               "for the runs without it)",
                               key);
        }
        if (strcmp(key + 6, q->x) == 0)
            return err_invalid(err, key, "%.300s is the x variable; it cannot be fixed",
                               q->x);
        /* empty: the runs that have no such input (null, as the fit's "fixed") */
        json_object_set_new(q->fixed, key + 6, text[0] ? json_real(val) : json_null());
    }
    return 0;
}

/* The id of name in list ([{id, name}]), 0 when absent. */
static long long id_in(json_t *list, const char *name)
{
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e)
    {
        const char *n = json_string_value(json_object_get(e, "name"));
        if (n && strcmp(n, name) == 0)
            return json_integer_value(json_object_get(e, "id"));
    }
    return 0;
}

/* The value of variable name of configuration c, or NAN. */
static double var_of(const struct cfg *c, const char *name)
{
    json_t *v;
    if (strcmp(name, "nprocs") == 0)
        return (double)c->c->nprocs;
    v = json_object_get(c->inputs, name);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* The distinct x of the configurations of group g (NULL: all) into xs
 * (room for n), sorted; returns how many. */
static size_t distinct_x(const struct cfg *cs, size_t n, const char *g, double *xs)
{
    size_t i, m = 0, k = 0;
    for (i = 0; i < n; i++)
        if (g == NULL || strcmp(cs[i].group, g) == 0)
            xs[m++] = cs[i].x;
    qsort(xs, m, sizeof *xs, cmp_double);
    for (i = 0; i < m; i++)
        if (k == 0 || xs[i] != xs[k - 1])
            xs[k++] = xs[i];
    return k;
}

/* Orders configurations by group, then x: each group is then one run of
 * the array, its x ascending. */
static int cmp_cfg(const void *pa, const void *pb)
{
    const struct cfg *a = pa, *b = pb;
    int c = strcmp(a->group, b->group);
    return c ? c : (a->x > b->x) - (a->x < b->x);
}

/* The group of the configurations measured at the most values of x (ties:
 * the most runs, then the first in order). cs sorted by cmp_cfg. */
static const char *best_group(const struct cfg *cs, size_t n)
{
    const char *best = NULL;
    size_t i, j, bestm = 0;
    long long bestruns = 0;
    for (i = 0; i < n; i = j) {
        size_t m = 1;
        long long runs = cs[i].c->runs;
        for (j = i + 1; j < n && strcmp(cs[j].group, cs[i].group) == 0; j++) {
            m += cs[j].x != cs[j - 1].x;
            runs += cs[j].c->runs;
        }
        if (best == NULL || m > bestm || (m == bestm && runs > bestruns)) {
            best = cs[i].group;
            bestm = m;
            bestruns = runs;
        }
    }
    return best;
}

static int cmp_exe_x(const void *pa, const void *pb)
{
    const struct cfg *a = pa, *b = pb;
    int c = strcmp(a->c->executable, b->c->executable);
    return c ? c : (a->x > b->x) - (a->x < b->x);
}

/* The executable whose runs make the curve, where the n configurations are
 * of several executables and one of them alone was measured at
 * SCALING_MIN_POINTS values of x or more (Google Benchmark families, an LNT
 * suite: each executable its own curve): the one at the most values (ties:
 * the most runs, then the first by name); else NULL (one executable, or
 * executables that each hold a point or two of one study, as files
 * imported one by one). Sorts cs by executable and x. */
static const char *curve_executable(struct cfg *cs, size_t n, size_t *nexe)
{
    const char *best = NULL;
    size_t i, j, bestm = 0;
    long long bestruns = 0;
    *nexe = 0;
    qsort(cs, n, sizeof *cs, cmp_exe_x);
    for (i = 0; i < n; i = j) {
        size_t m = 1;
        long long runs = cs[i].c->runs;
        for (j = i + 1; j < n && strcmp(cs[j].c->executable, cs[i].c->executable) == 0;
             j++) {
            m += cs[j].x != cs[j - 1].x;
            runs += cs[j].c->runs;
        }
        (*nexe)++;
        if (best == NULL || m > bestm || (m == bestm && runs > bestruns)) {
            best = cs[i].c->executable;
            bestm = m;
            bestruns = runs;
        }
    }
    return *nexe > 1 && bestm >= SCALING_MIN_POINTS ? best : NULL;
}

/* Why the configurations are not one curve (choose = 0): several systems,
 * or an input (or nprocs) other than x that differs. Always -1. */
static int not_one_curve(const struct sq *q, const struct cfg *cs, size_t n,
                         const char *best, struct err *err)
{
    const struct cfg *b = NULL;
    const char *key;
    json_t *v;
    size_t i;

    for (i = 0; i < n; i++)
        if (strcmp(cs[i].c->system, cs[0].c->system) != 0)
            return err_invalid(err, "system",
                               "the runs are on several systems (%.200s, %.200s, ...); "
                               "choose one with system=",
                               cs[0].c->system, cs[i].c->system);
    for (i = 0; i < n && b == NULL; i++)
        if (strcmp(cs[i].group, best) == 0)
            b = &cs[i];
    if (strcmp(q->x, "nprocs") != 0)
        for (i = 0; i < n; i++)
            if (cs[i].c->nprocs != b->c->nprocs)
                return err_invalid(err, "nprocs",
                                   "the selected runs differ in nprocs; fix it with "
                                   "nprocs= (the most values of %.200s were measured at "
                                   "nprocs=%lld)",
                                   q->x, b->c->nprocs);
    for (i = 0; i < n; i++) {
        json_t *all = json_deep_copy(cs[i].inputs);
        json_object_update_missing(all, b->inputs);
        json_object_foreach(all, key, v)
        {
            json_t *bv = json_object_get(b->inputs, key), *cv;
            if (strcmp(key, q->x) == 0)
                continue;
            cv = json_object_get(cs[i].inputs, key);
            if (bv == NULL || cv == NULL ||
                json_number_value(bv) != json_number_value(cv)) {
                char field[LIMIT_NAME + 8];
                snprintf(field, sizeof field, "input.%s", key);
                if (bv != NULL)
                    err_invalid(err, field,
                                "the selected runs differ in %.200s; fix it with "
                                "input.%.200s= (the most values of %.200s were measured "
                                "at input.%.200s=%.15g)",
                                key, key, q->x, key, json_number_value(bv));
                else
                    err_invalid(err, field,
                                "some of the selected runs have an input %.200s that "
                                "those measured at the most values of %.200s have not; "
                                "choose with input.%.200s= (the runs without it) or "
                                "input.%.200s=VALUE",
                                key, q->x, key, key);
                json_decref(all);
                return -1;
            }
        }
        json_decref(all);
    }
    return err_invalid(err, NULL, "the selected runs do not make one curve");
}

/* Whether name is in the array of strings list. */
static int listed(json_t *list, const char *name)
{
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v)
    {
        if (strcmp(json_string_value(v), name) == 0)
            return 1;
    }
    return 0;
}

/* The variables (nprocs unless x, inputs) every one of the n configurations
 * has and that change with x (config_varies_with_x: a weak-scaling series),
 * as the fit takes them ("varies_with_x"). They are not part of a group. An
 * array of names, NULL without memory. */
static json_t *with_x_of(const struct sq *q, const struct cfg *cs, size_t n)
{
    json_t *out = json_array(), *names = json_deep_copy(cs[0].inputs), *v;
    struct config_xv *t = xmalloc((n + 1) * sizeof *t);
    const char *key;

    if (out == NULL || names == NULL || t == NULL ||
        (strcmp(q->x, "nprocs") != 0 &&
         json_object_set_new(names, "nprocs", json_null()))) {
        json_decref(out);
        out = NULL;
        goto done;
    }
    json_object_del(names, q->x);
    json_object_foreach(names, key, v)
    {
        size_t i, m = 0;
        for (i = 0; i < n; i++) {
            t[m].x = cs[i].x;
            t[m].v = var_of(&cs[i], key);
            m += !isnan(t[m].v);
        }
        if (m < n) /* some lack it: families, not a size */
            continue;
        if (config_varies_with_x(t, m) &&
            json_array_append_new(out, json_string(key)) != 0) {
            json_decref(out);
            out = NULL;
            goto done;
        }
    }
done:
    json_decref(names);
    xfree(t);
    return out;
}

/* The group key of c: its system, its nprocs unless x, its inputs but x,
 * and neither the variables that vary with x (with_x). */
static const char *group_of(arena *a, const struct sq *q, json_t *with_x, struct cfg *c)
{
    json_t *rest = json_deep_copy(c->inputs), *v;
    char *text, *out;
    size_t i;
    if (rest == NULL)
        return NULL;
    json_object_del(rest, q->x);
    json_array_foreach(with_x, i, v)
    {
        json_object_del(rest, json_string_value(v));
    }
    if (strcmp(q->x, "nprocs") != 0 && !listed(with_x, "nprocs") &&
        json_object_set_new(rest, "nprocs", json_real((double)c->c->nprocs)) != 0) {
        json_decref(rest);
        return NULL;
    }
    text = json_dumps(rest, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
    json_decref(rest);
    if (text == NULL)
        return NULL;
    out = arena_printf(a, "%s\n%s", c->c->system, text);
    xfree(text); /* Jansson allocates through xalloc (common/xalloc_json.h) */
    return out;
}

/* ---- the fits --------------------------------------------------------------- */

/* The selection every fit uses. */
struct sel {
    const char *application, *executable, *system, *x;
    json_t *fixed; /* the group's variables but x (owned) */
    double xmax, target;
};

/* One series fitted: the row of the answer ({"formula", "measured", "y", "lo",
 * "hi", "extrapolation", "warning"?, "points"}) into *row, or a skipped
 * reason into *reason (arena). 0, or -1 with err for a failure that is not
 * the series' own (database, memory). */
static int fit_one(db *d, const struct sel *s, const char *y, const char *name, arena *a,
                   json_t **row, const char **reason, struct err *err)
{
    struct err e = {0};
    json_t *req, *ans, *model, *preds, *at, *w;

    *row = NULL;
    *reason = NULL;
    req = json_pack("{s:s, s:s, s:s, s:O, s:s, s:s, s:[f, f]}", "application",
                    s->application, "system", s->system, "x", s->x, "fixed", s->fixed,
                    "y", y, "graph", "auto", "predict", s->xmax, s->target);
    if (req == NULL)
        return err_nomem(err);
    if (s->executable)
        json_object_set_new(req, "executable", json_string(s->executable));
    ans = fit_answer(d, req, &e);
    json_decref(req);
    if (ans == NULL) {
        if (e.status == ERR_INVALID || e.status == ERR_NOT_FOUND) {
            /* the fit's advice to a single request ("choose a graph type")
             * does not apply to a series of this view: the sentence alone */
            char *cut = strstr(e.message, "; choose a graph type");
            if (cut != NULL)
                *cut = '\0';
            *reason = arena_strdup(a, e.message);
            return *reason ? 0 : err_nomem(err);
        }
        *err = e;
        return -1;
    }
    model = json_object_get(ans, "model");
    preds = json_object_get(ans, "predictions");
    at = json_array_get(preds, 1);
    /* the fields in reading order: name, law, values, reach */
    *row = name ? json_pack("{s:s}", "name", name) : json_object();
    if (*row != NULL) {
        json_t *pm = json_array_get(preds, 0);
        json_object_set(*row, "formula", json_object_get(model, "formula"));
        json_object_set(*row, "measured", json_object_get(pm, "y"));
        json_object_set(*row, "y", json_object_get(at, "y"));
        json_object_set(*row, "lo", json_object_get(at, "lo"));
        json_object_set(*row, "hi", json_object_get(at, "hi"));
        json_object_set(*row, "extrapolation", json_object_get(at, "extrapolation"));
        if ((w = json_object_get(at, "warning")) != NULL)
            json_object_set(*row, "warning", w);
        json_object_set(*row, "points", json_object_get(model, "points"));
    }
    json_decref(ans);
    return *row ? 0 : err_nomem(err);
}

static json_t *skipped_row(const char *kind, const char *name, const char *reason)
{
    return name ? json_pack("{s:s, s:s, s:s}", "kind", kind, "name", name, "reason",
                            reason)
                : json_pack("{s:s, s:s}", "kind", kind, "reason", reason);
}

static double nonneg(json_t *v)
{
    double x = json_number_value(v);
    return x > 0 ? x : 0;
}

static int cmp_share(const void *pa, const void *pb)
{
    json_t *a = *(json_t *const *)pa, *b = *(json_t *const *)pb;
    double sa = json_number_value(json_object_get(a, "share_target"));
    double sb = json_number_value(json_object_get(b, "share_target"));
    if (sa != sb)
        return sa > sb ? -1 : 1;
    return strcmp(json_string_value(json_object_get(a, "name")),
                  json_string_value(json_object_get(b, "name")));
}

/* Shares, the bottleneck and the total, over the fitted kernels. */
static int shares(json_t *out, json_t *kernels)
{
    double tm = 0, tt = 0;
    size_t i, n = json_array_size(kernels);
    json_t *k, **sorted, *list;

    json_array_foreach(kernels, i, k)
    {
        tm += nonneg(json_object_get(k, "measured"));
        tt += nonneg(json_object_get(k, "y"));
    }
    json_array_foreach(kernels, i, k)
    {
        double sm = tm > 0 ? nonneg(json_object_get(k, "measured")) / tm : 0;
        double st = tt > 0 ? nonneg(json_object_get(k, "y")) / tt : 0;
        json_object_set_new(k, "share_measured", json_real(sm));
        json_object_set_new(k, "share_target", json_real(st));
        /* it grows faster than the whole: its share grows by a tenth or more
         * (Calotoiu et al.'s scalability bugs), to a part that matters */
        json_object_set_new(
            k, "worse_than_whole",
            json_boolean(st >= SCALING_WORSE * sm && st >= SCALING_WORSE_SHARE));
    }
    if ((sorted = xcalloc(n + 1, sizeof *sorted)) == NULL)
        return -1;
    json_array_foreach(kernels, i, k) sorted[i] = k;
    qsort(sorted, n, sizeof *sorted, cmp_share);
    list = json_array();
    for (i = 0; list && i < n; i++)
        json_array_append(list, sorted[i]);
    xfree(sorted);
    if (list == NULL)
        return -1;
    json_object_set_new(out, "kernels", list);
    json_object_set_new(
        out, "bottleneck",
        n && tt > 0 ? json_incref(json_object_get(json_array_get(list, 0), "name"))
                    : json_null());
    json_object_set_new(out, "total",
                        json_pack("{s:f, s:f}", "measured", tm, "target", tt));
    return 0;
}

/* Fits every series of the selection into out. */
static int fit_all(db *d, const struct sel *s, json_t *knames, json_t *mnames, arena *a,
                   json_t *out, struct err *err)
{
    json_t *kernels = json_array(), *metrics = json_array(), *skipped = json_array(),
           *row, *name;
    const char *reason;
    size_t i;
    int rc = -1;

    if (kernels == NULL || metrics == NULL || skipped == NULL) {
        err_nomem(err);
        goto out;
    }
    if (fit_one(d, s, "runtime", NULL, a, &row, &reason, err) != 0)
        goto out;
    json_object_set_new(out, "runtime", row ? row : json_null());
    if (reason)
        json_array_append_new(skipped, skipped_row("runtime", NULL, reason));
    for (int pass = 0; pass < 2; pass++) {
        json_t *names = pass == 0 ? knames : mnames;
        json_array_foreach(names, i, name)
        {
            const char *n = json_string_value(name);
            char *y = arena_printf(a, "%s:%s", pass == 0 ? "kernel" : "metric", n);
            if (y == NULL) {
                err_nomem(err);
                goto out;
            }
            if (fit_one(d, s, y, n, a, &row, &reason, err) != 0)
                goto out;
            if (reason) {
                json_array_append_new(
                    skipped, skipped_row(pass == 0 ? "kernel" : "metric", n, reason));
                continue;
            }
            json_array_append_new(pass == 0 ? kernels : metrics, row);
        }
    }
    if (shares(out, kernels) != 0) {
        err_nomem(err);
        goto out;
    }
    json_object_set(out, "metrics", metrics);
    json_object_set(out, "skipped", skipped);
    rc = 0;
out:
    json_decref(kernels);
    json_decref(metrics);
    json_decref(skipped);
    return rc;
}

/* ---- the selection -------------------------------------------------------- */

/* Reads, filters and groups the configurations; fills s and the names of
 * the runs' kernels and metrics; out gets "selection". */
static int select_curve(db *d, const char *application, const struct sq *q, int flags,
                        arena *a, struct sel *s, json_t **knames, json_t **mnames,
                        json_t *out, struct err *err)
{
    json_t *app = NULL, *vals = NULL, *with_x = NULL, *w;
    struct db_config *c = NULL;
    struct cfg *cs = NULL;
    double *xs = NULL;
    long long app_id, exe_id = 0, sys_id = 0, *ids = NULL, runs = 0;
    const char *group, *key, *exe = NULL;
    int nc, has_x = 0, rc = -1;
    size_t i, j, n = 0, m, nid = 0, nexe = 0;

    if ((app_id = db_app_id(d, application, 0, err)) <= 0) {
        if (app_id == 0)
            err_set(err, ERR_NOT_FOUND, "not_found", "application",
                    "application %.200s not found", application);
        return -1;
    }
    if ((app = db_summary_app(d, application, err)) == NULL)
        return -1;
    if (q->executable &&
        (exe_id = id_in(json_object_get(app, "executables"), q->executable)) == 0) {
        err_set(err, ERR_NOT_FOUND, "not_found", "executable",
                "%.200s has no executable %.200s", application, q->executable);
        goto out;
    }
    if (q->system && (sys_id = id_in(json_object_get(app, "systems"), q->system)) == 0) {
        err_set(err, ERR_NOT_FOUND, "not_found", "system", "%.200s has no runs on %.200s",
                application, q->system);
        goto out;
    }
    nc = db_summary_configs(d, app_id, exe_id, sys_id, LIMIT_SCALING_CONFIGS + 1, a, &c,
                            err);
    if (nc < 0)
        goto out;
    if (nc > LIMIT_SCALING_CONFIGS) {
        err_set(err, ERR_TOO_LARGE, "too_large", NULL,
                "more than %d configurations; narrow the selection with executable=, "
                "system= or input.NAME=",
                LIMIT_SCALING_CONFIGS);
        goto out;
    }
    cs = arena_alloc(a, ((size_t)nc + 1) * sizeof *cs);
    xs = arena_alloc(a, ((size_t)nc + 1) * sizeof *xs);
    ids = arena_alloc(a, ((size_t)nc + 1) * sizeof *ids);
    if (cs == NULL || xs == NULL || ids == NULL) {
        err_nomem(err);
        goto out;
    }
    for (i = 0; i < (size_t)nc; i++) {
        struct cfg *x = &cs[n];
        json_t *v;
        int ok = 1;
        x->c = &c[i];
        /* the summary's canonical JSON: unreadable only without memory */
        x->inputs = json_loads(c[i].inputs_json, 0, NULL);
        if (!json_is_object(x->inputs)) {
            json_decref(x->inputs);
            err_nomem(err);
            goto out;
        }
        x->x = var_of(x, q->x);
        has_x |= !isnan(x->x);
        json_object_foreach(q->fixed, key, v)
        {
            double val = var_of(x, key);
            ok = ok && (json_is_null(v) ? isnan(val) : val == json_number_value(v));
        }
        if (q->nprocs > 0 && (double)x->c->nprocs != q->nprocs)
            ok = 0;
        if (!ok || isnan(x->x)) {
            json_decref(x->inputs);
            continue;
        }
        n++;
    }
    if (!has_x) {
        err_invalid(err, "x",
                    "no run of %.200s has the variable %.200s; x is nprocs or one of the "
                    "runs' inputs",
                    application, q->x);
        goto out;
    }
    if (n == 0) {
        err_set(err, ERR_INVALID, "degenerate", NULL,
                "no runs of %.200s match the selection (executable, system, nprocs, "
                "input.NAME)",
                application);
        goto out;
    }
    /* the page: of several executables that are each a curve, one */
    if ((flags & SCALING_CHOOSE) && q->executable == NULL &&
        (exe = curve_executable(cs, n, &nexe)) != NULL) {
        for (i = j = 0; i < n; i++) {
            if (strcmp(cs[i].c->executable, exe) == 0)
                cs[j++] = cs[i];
            else
                json_decref(cs[i].inputs);
        }
        n = j;
    }
    if ((with_x = with_x_of(q, cs, n)) == NULL) {
        err_nomem(err);
        goto out;
    }
    for (i = 0; i < n; i++)
        if ((cs[i].group = group_of(a, q, with_x, &cs[i])) == NULL) {
            err_nomem(err);
            goto out;
        }
    qsort(cs, n, sizeof *cs, cmp_cfg);
    group = best_group(cs, n);
    for (i = 0; i < n; i++)
        if (strcmp(cs[i].group, group) != 0)
            break;
    if (i < n && !(flags & SCALING_CHOOSE)) {
        not_one_curve(q, cs, n, group, err);
        goto out;
    }
    m = distinct_x(cs, n, group, xs);
    vals = json_array();
    for (i = 0; vals && i < m; i++)
        json_array_append_new(vals, json_real(xs[i]));
    if (vals == NULL) {
        err_nomem(err);
        goto out;
    }
    /* the group's first configuration names its system and variables */
    for (i = 0; strcmp(cs[i].group, group) != 0; i++)
        ;
    memset(s, 0, sizeof *s);
    s->application = application;
    s->executable = exe ? exe : q->executable;
    s->system = arena_strdup(a, cs[i].c->system);
    s->x = q->x;
    s->fixed = json_deep_copy(cs[i].inputs);
    if (s->system == NULL || s->fixed == NULL) {
        err_nomem(err);
        goto out;
    }
    json_object_del(s->fixed, q->x);
    if (strcmp(q->x, "nprocs") != 0)
        json_object_set_new(s->fixed, "nprocs", json_real((double)cs[i].c->nprocs));
    json_array_foreach(with_x, j, w)
    {
        json_object_del(s->fixed, json_string_value(w));
    }
    /* an input asked absent (its null, as the fit's "fixed" takes it), or
     * one that other runs of the selection have and the group has not: null,
     * so that the fits take the group's runs only */
    json_object_foreach(q->fixed, key, w)
    {
        if (json_is_null(w) && json_object_set(s->fixed, key, w) != 0) {
            err_nomem(err);
            goto out;
        }
    }
    for (j = 0; j < n; j++)
        json_object_foreach(cs[j].inputs, key, w)
        {
            if (strcmp(key, q->x) != 0 && json_object_get(s->fixed, key) == NULL &&
                !listed(with_x, key) &&
                json_object_set_new(s->fixed, key, json_null()) != 0) {
                err_nomem(err);
                goto out;
            }
        }
    for (i = 0; i < n; i++)
        if (strcmp(cs[i].group, group) == 0) {
            ids[nid++] = cs[i].c->last_run_id;
            runs += cs[i].c->runs;
        }
    json_object_set_new(out, "selection",
                        json_pack("{s:s, s:O, s:O, s:I}", "system", s->system, "fixed",
                                  s->fixed, "values", vals, "runs", (json_int_t)runs));
    if (s->executable)
        json_object_set_new(json_object_get(out, "selection"), "executable",
                            json_string(s->executable));
    if (exe) /* chosen, of how many */
        json_object_set_new(json_object_get(out, "selection"), "executables",
                            json_integer((json_int_t)nexe));
    if (json_array_size(with_x) > 0)
        json_object_set(json_object_get(out, "selection"), "varies_with_x", with_x);
    if (m < SCALING_MIN_POINTS) {
        struct buf list;
        buf_init(&list, 4096);
        for (i = 0; i < m; i++)
            buf_printf(&list, "%s%.15g", i ? ", " : "", xs[i]);
        err_set(
            err, ERR_INVALID, "degenerate", "x",
            "the selected runs of %.200s were measured at %zu value%s of %.200s (%s); "
            "a scaling law needs at least %d",
            application, m, m == 1 ? "" : "s", q->x, buf_str(&list), SCALING_MIN_POINTS);
        buf_free(&list);
        goto out;
    }
    s->xmax = xs[m - 1];
    s->target = q->target;
    if (s->target == 0) {
        if (!(s->xmax > 0)) {
            err_invalid(err, "target", "give target=: the largest %.200s is not positive",
                        q->x);
            goto out;
        }
        s->target = 4 * s->xmax;
    }
    if (flags & SCALING_SELECT_ONLY) {
        rc = 0;
        goto out;
    }
    if ((*knames = db_config_names(d, ids, nid, 1, err)) == NULL ||
        (*mnames = db_config_names(d, ids, nid, 0, err)) == NULL)
        goto out;
    rc = 0;
out:
    for (i = 0; cs && i < n; i++)
        json_decref(cs[i].inputs);
    json_decref(with_x);
    json_decref(vals);
    json_decref(app);
    return rc;
}

json_t *scaling_answer(db *d, const char *application, json_t *query, int flags,
                       struct err *err)
{
    struct sq q;
    struct sel s;
    arena *a = arena_new();
    json_t *out = NULL, *knames = NULL, *mnames = NULL;
    int began = -1, ok = 0;

    memset(&s, 0, sizeof s);
    if (a == NULL) {
        err_nomem(err);
        return NULL;
    }
    if (decode(query, &q, err) != 0)
        goto done;
    if ((out = json_pack("{s:s, s:s}", "application", application, "x", q.x)) == NULL) {
        err_nomem(err);
        goto done;
    }
    /* one snapshot for the selection and every fit */
    if ((began = db_select_begin(d, err)) < 0)
        goto done;
    if (select_curve(d, application, &q, flags, a, &s, &knames, &mnames, out, err) != 0)
        goto done;
    json_object_set_new(out, "target", json_real(s.target));
    json_object_set_new(out, "measured", json_real(s.xmax));
    if (!(flags & SCALING_SELECT_ONLY) &&
        fit_all(d, &s, knames, mnames, a, out, err) != 0)
        goto done;
    ok = 1;
done:
    if (began == 0)
        db_select_end(d);
    json_decref(q.fixed);
    json_decref(s.fixed);
    json_decref(knames);
    json_decref(mnames);
    arena_free(a);
    if (!ok) {
        /* a read that failed without saying why ran out of memory (db/'s
         * JSON readers do not record Jansson's failures) */
        if (err != NULL && err->status == 0)
            err_nomem(err);
        json_decref(out);
        return NULL;
    }
    return out;
}
