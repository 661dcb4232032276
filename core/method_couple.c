/* method_couple: the coupling method (SPEC §5.3): couple_answer and
 * couple_predict_saved (core/method_couple.h). Its answer is loaded and evaluated by
 * core/couple_saved.h, its plots are web/chart_couple.c, its request decoding
 * core/couple_request.c.
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
#include "core/couple_build.h"
#include "core/couple_saved.h"
#include "core/method_couple.h"
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
            if ((args[j] = cb_sdup(b, h.args[j], err)) == NULL)
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
        json_array_append_new(coef, cb_num(m->coef[j]));
    out = NULL;
    if (!buf_failed(&human) && !buf_failed(&machine) && state != NULL)
        out = json_pack(
            "{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
            "s:o, s:I, s:I, s:b, s:o}",
            "type", "fit", "graph", fit_graph_name(m->graph), "chosen",
            fit_graph_name(m->chosen), "formula", buf_str(&human), "expression",
            buf_str(&machine), "coefficients", coef, "rss", cb_num(res->stats.rss),
            "resnorm", cb_num(res->stats.resnorm), "r2", cb_num(res->stats.r2), "adj_r2",
            cb_num(res->stats.adj_r2), "rmse", cb_num(res->stats.rmse), "smape",
            cb_num(res->stats.smape), "cv_rmse", cb_num(res->stats.cv_rmse), "x_range",
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
        json_array_append_new(a, json_pack("{s:o, s:o, s:o, s:o, s:i, s:o, s:o}", "x",
                                           cb_num(p->x[0]), "y", cb_num(p->y), "ymin",
                                           cb_num(p->ymin), "ymax", cb_num(p->ymax), "n",
                                           p->n, "fit", cb_num(p->yhat), "residual",
                                           cb_num(p->resid)));
    }
    return a;
}

/* Builds one kernel's answer entry ({"name", "loop", "model", "points"}). */
static json_t *kernel_json(struct build *b, struct kin *k, struct err *err)
{
    json_t *model, *points, *out;

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
                json_array_append_new(
                    points, json_pack("{s:o, s:o, s:o, s:o, s:i}", "x", cb_num(ap[i].x),
                                      "y", cb_num(ap[i].y), "ymin", cb_num(ap[i].ymin),
                                      "ymax", cb_num(ap[i].ymax), "n", ap[i].n));
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
    out = json_pack("{s:s, s:b, s:o, s:o}", "name", k->name, "loop", k->loop, "model",
                    model, "points", points);
    if (out == NULL)
        err_nomem(err); /* json_pack took (and freed) model and points */
    return out;
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
            json_array_append_new(alone, cb_num(c->alone[j]));
        }
        json_array_append_new(a, json_pack("{s:o, s:o, s:o, s:o, s:i}", "kernels", names,
                                           "alone", alone, "together",
                                           cb_num(c->together), "value", cb_num(c->value),
                                           "measurements", c->measurements));
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
        json_object_set_new(kern, s->k[i].name, cb_num(contrib[i]));
    p = json_pack("{s:o, s:o, s:o, s:o, s:{s:o, s:o, s:o}, s:O, s:I, s:o}", "x",
                  cb_num(x), "y", cb_num(ev->y), "lo", cb_num(ev->y - ev->dn), "hi",
                  cb_num(ev->y + ev->up), "summation", "y", cb_num(ev->sum), "lo",
                  cb_num(ev->sum - ev->sum_dn), "hi", cb_num(ev->sum + ev->sum_up),
                  "configuration", json_object_get(conf, "configuration"),
                  "configuration_index", (json_int_t)ev->conf, "kernels", kern);
    if (p != NULL) {
        /* Coupling across configurations: the coefficients modeled over x
         * from the configurations measured (the default), and beside it the
         * value with the nearest configuration's. */
        json_object_set_new(p, "coupling",
                            json_string(ev->modeled ? "modeled" : "nearest"));
        if (ev->modeled)
            json_object_set_new(p, "nearest",
                                json_pack("{s:o, s:o, s:o, s:I}", "y", cb_num(ev->near_y),
                                          "lo", cb_num(ev->near_y - ev->near_dn), "hi",
                                          cb_num(ev->near_y + ev->near_up),
                                          "configurations", (json_int_t)ev->modeled));
        json_object_set_new(p, "extrapolation", cb_num(ev->reach));
        if (ev->warning[0] != '\0')
            json_object_set_new(p, "warning", json_string(ev->warning));
    }
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
        if (none == NULL || cb_config_get(b, none, err) == NULL)
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
            json_object_set_new(coefs, b->k[i].name, cb_num(r.coef[i]));
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
    if (b->with_x != NULL)
        json_object_set(ans, "varies_with_x", b->with_x);
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
            json_array_append_new(points, json_pack("{s:o, s:o, s:o, s:o, s:i, s:b}", "x",
                                                    cb_num(ap[j].x), "y", cb_num(ap[j].y),
                                                    "ymin", cb_num(ap[j].ymin), "ymax",
                                                    cb_num(ap[j].ymax), "n", ap[j].n,
                                                    "in_range", in_range));
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
        if (couple_saved_predict(&s, b->pred[i], &ev, contrib, err) != 0) {
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
            json_object_set_new(p, "actual", cb_num(a));
            json_object_set_new(p, "runs", json_copy(json_object_get(pt, "n")));
            json_object_set_new(p, "error_pct", cb_num(100 * (ev.y - a) / a));
            json_object_set_new(p, "summation_error_pct", cb_num(100 * (ev.sum - a) / a));
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
                                cb_num(s.coef[def * s.nk + i]));
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
    if (err != NULL && err->status == 0)
        err_nomem(err); /* a Jansson allocation failed where no error was recorded */
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
    if (json_only_fields_at(req, b.dbform ? db_keys : inline_keys, "", err) != 0 ||
        cb_parse_common(&b, req, err) != 0)
        goto out;
    if (b.dbform) {
        if (d == NULL) {
            err_set(err, ERR_INTERNAL, "internal", NULL, "no database connection");
            goto out;
        }
        if (cb_parse_db(&b, d, req, err) != 0)
            goto out;
    } else {
        size_t i, j;
        if (cb_parse_inline(&b, req, err) != 0)
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
    cb_build_free(&b);
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
    } else if (json_finite_number(v, &x) != 0) {
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
    else if (couple_saved_predict(&s, x, &ev, contrib, err) == 0 &&
             (out = prediction_json(&s, x, &ev, contrib)) == NULL)
        err_nomem(err);
    xfree(contrib);
    couple_saved_free(&s);
    return out;
}
