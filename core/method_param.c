/* method_param: parameterization (SPEC §5.2) behind core/method.h; the
 * answer schema is in core/method_param.h.
 *
 * A request names a template expression (inline, or a stored template), the
 * system parameters it is evaluated with (a stored system's, inline ones, or
 * both, inline winning) and a fixed value or a range for every variable. The
 * answer holds everything a saved model needs: the expression, the
 * parameters it uses, the variables, the value / curve / surface, the alpha
 * coefficients where the model is a polynomial, and the measured runs it was
 * checked against. param_predict_saved and web/chart_param.c read only the answer,
 * never the database, so a saved model never changes when the system's
 * parameters are edited later.
 *
 * The computing is models/expr; this file decodes requests, looks things up
 * and shapes JSON. It never lets NaN or inf into an answer: a grid value
 * that is not finite is null, a statistic without data is left out.
 */
#include "common/xalloc.h"
#include "core/method_param.h"
#include "db/catalog.h"
#include "db/history.h"
#include "db/select.h"
#include "formats/json.h"
#include "formats/limits.h"
#include "models/expr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PARAM_MAX_RANGES 2
#define PARAM_MIN_STEPS 2
#define PARAM_MAX_STEPS LIMIT_PARAM_STEPS
#define PARAM_STEPS_1D 50
#define PARAM_STEPS_2D 30
#define PARAM_MAX_RUNS LIMIT_PARAM_RUNS
#define PARAM_MAX_PARSED (4u << 20) /* bytes of the substituted expression */
#define PARAM_SIG_MAX (EXPR_MAX_NAME * (EXPR_MAX_ARGS + 1) + EXPR_MAX_ARGS + 4)

/* One variable of the request: a fixed value or a range. */
struct pvar {
    const char *name;
    int range;     /* 0: fixed at value; 1: lo..hi in steps */
    double value;  /* the fixed value */
    double lo, hi; /* the range */
    int steps;     /* grid points over the range, ends included */
    int np;        /* P or nprocs: compared with the runs' nprocs */
};

/* One resolved system parameter. */
struct pparam {
    const char *sig;  /* "MPISR(L)" as it is shown and stored in answers */
    const char *body; /* its expression */
    struct expr_param_head head;
};

/* Everything one request (or one saved answer) resolves to. */
struct pctx {
    arena *a;
    const char *expression, *template_name, *application, *kernel, *system;
    struct pparam *all; /* every parameter known: stored, then inline */
    size_t nall;
    struct expr_param *params; /* the ones the expression uses */
    const char **sigs;         /* their signatures */
    size_t nparams;
    struct pvar vars[EXPR_MAX_VARS];
    const char *names[EXPR_MAX_VARS];
    size_t nvars;
    size_t range[PARAM_MAX_RANGES]; /* indices into vars */
    int nranges;
    struct expr_names free_vars; /* the variables the expression needs, in order */
    expr *e;
};

static void ctx_free(struct pctx *c)
{
    expr_free(c->e);
    expr_names_free(&c->free_vars);
    arena_free(c->a);
}

/* ---- decoding -------------------------------------------------------------------- */

/* An optional name field (template, system, application): absent gives NULL. */
static int name_field(json_t *req, const char *key, arena *a, const char **out,
                      struct err *err)
{
    json_t *v = json_object_get(req, key);
    *out = NULL;
    if (v == NULL)
        return 0;
    if (!json_is_string(v))
        return err_invalid(err, key, "%s must be a name (a string)", key);
    if (json_check_name(json_string_value(v), json_string_length(v), key, LIMIT_NAME,
                        err) != 0)
        return -1;
    *out = arena_strdup(a, json_string_value(v));
    return *out ? 0 : err_nomem(err);
}

/* Adds (or, when a parameter of that name exists, replaces) one parameter.
 * field names the request field at fault for errors in sig or body. With
 * check set the body must parse now; a stored parameter's body was checked
 * when it was stored and is parsed again only if the expression uses it. */
static int add_param(struct pctx *c, const char *sig, const char *body, int check,
                     const char *field, struct err *err)
{
    struct pparam p;
    struct expr_param ep;
    struct buf b;
    size_t i, k;

    memset(&p, 0, sizeof p);
    if (expr_param_head_parse(sig, &p.head, err) != 0) {
        snprintf(err->field, sizeof err->field, "%s", field);
        return -1;
    }
    ep.name = p.head.name;
    ep.args = p.head.argv;
    ep.nargs = p.head.nargs;
    ep.body = body;
    if (check && expr_param_validate(&ep, err) != 0)
        return -1;
    /* The canonical signature: "MPISR(L)", "F(L,P)", "ADDM". */
    buf_init(&b, PARAM_SIG_MAX);
    buf_puts(&b, p.head.name);
    for (k = 0; k < p.head.nargs; k++)
        buf_printf(&b, "%s%s", k ? "," : "(", p.head.args[k]);
    if (p.head.nargs)
        buf_putc(&b, ')');
    p.sig = buf_failed(&b) ? NULL : arena_strdup(c->a, buf_str(&b));
    buf_free(&b);
    p.body = arena_strdup(c->a, body);
    if (p.sig == NULL || p.body == NULL)
        return err_nomem(err);
    for (i = 0; i < c->nall; i++)
        if (strcmp(c->all[i].head.name, p.head.name) == 0)
            break;
    if (i == c->nall) {
        if (c->nall == EXPR_MAX_PARAMS)
            return err_invalid(err, field, "more than %d system parameters",
                               EXPR_MAX_PARAMS);
        c->nall++;
    }
    c->all[i] = p;
    /* argv points into the copy's own args. */
    for (k = 0; k < c->all[i].head.nargs; k++)
        c->all[i].head.argv[k] = c->all[i].head.args[k];
    return 0;
}

/* Reads a parameter object {"SIG": "body" | number, ...} into c->all.
 * prefix names the object in errors ("parameters"). */
static int params_from_object(struct pctx *c, json_t *obj, const char *prefix,
                              struct err *err)
{
    const char *key;
    json_t *v;
    char field[ERR_FIELD_MAX], num[48];

    if (!json_is_object(obj))
        return err_invalid(err, prefix,
                           "%s must be an object such as {\"ADDM\": \"4.83e-8\", "
                           "\"MPISR(L)\": \"0.001*(15.94+0.0608*L)\"}",
                           prefix);
    json_object_foreach(obj, key, v)
    {
        const char *body;
        snprintf(field, sizeof field, "%s.%s", prefix, key);
        if (json_is_number(v)) {
            if (!isfinite(json_number_value(v)))
                return err_invalid(err, field, "%s must be finite", field);
            body = fmt_double(num, sizeof num, json_number_value(v));
        } else if (json_is_string(v) && json_string_length(v) > 0 &&
                   json_string_length(v) <= EXPR_MAX_LEN &&
                   strlen(json_string_value(v)) == json_string_length(v)) {
            body = json_string_value(v);
        } else {
            return err_invalid(err, field,
                               "%s must be an expression string of 1 to %d bytes or a "
                               "number",
                               field, EXPR_MAX_LEN);
        }
        if (add_param(c, key, body, 1, field, err) != 0)
            return -1;
    }
    return 0;
}

/* Decodes "vars": {name: number | [min, max] | [min, max, steps]}. */
static int decode_vars(struct pctx *c, json_t *vars, struct err *err)
{
    const char *key;
    json_t *v;
    char field[ERR_FIELD_MAX];
    int have_np = 0;

    c->nvars = 0;
    c->nranges = 0;
    if (vars == NULL)
        return 0;
    if (!json_is_object(vars))
        return err_invalid(
            err, "vars", "vars must be an object such as {\"N\": [100, 1000], \"P\": 8}");
    if (json_object_size(vars) > EXPR_MAX_VARS)
        return err_invalid(err, "vars", "more than %d variables", EXPR_MAX_VARS);
    json_object_foreach(vars, key, v)
    {
        struct pvar *pv = &c->vars[c->nvars];
        memset(pv, 0, sizeof *pv);
        snprintf(field, sizeof field, "vars.%s", key);
        pv->name = arena_strdup(c->a, key);
        if (pv->name == NULL)
            return err_nomem(err);
        if (json_is_number(v)) {
            if (json_get_number(v, field, &pv->value, err) != 0)
                return -1;
        } else if (json_is_array(v) &&
                   (json_array_size(v) == 2 || json_array_size(v) == 3)) {
            pv->range = 1;
            if (json_get_number(json_array_get(v, 0), field, &pv->lo, err) != 0 ||
                json_get_number(json_array_get(v, 1), field, &pv->hi, err) != 0)
                return -1;
            if (!(pv->lo < pv->hi))
                return err_invalid(err, field, "%s: the range [min, max] needs min < max",
                                   field);
            if (json_array_size(v) == 3) {
                json_t *s = json_array_get(v, 2);
                double st = json_is_number(s) ? json_number_value(s) : NAN;
                if (!(st >= PARAM_MIN_STEPS && st <= PARAM_MAX_STEPS) || st != floor(st))
                    return err_invalid(err, field,
                                       "%s: steps must be a whole number from %d to %d",
                                       field, PARAM_MIN_STEPS, PARAM_MAX_STEPS);
                pv->steps = (int)st;
            }
            if (c->nranges == PARAM_MAX_RANGES)
                return err_invalid(err, field,
                                   "at most %d variables may be ranges (one gives a "
                                   "curve, two a surface); %s is a third",
                                   PARAM_MAX_RANGES, key);
            c->range[c->nranges++] = c->nvars;
        } else {
            return err_invalid(err, field,
                               "%s must be a number, [min, max] or [min, max, steps]",
                               field);
        }
        pv->np = strcmp(key, "P") == 0 || strcmp(key, "nprocs") == 0;
        if (pv->np && have_np++)
            return err_invalid(err, field,
                               "P and nprocs both stand for the number of processes; "
                               "give one of them");
        c->names[c->nvars++] = pv->name;
    }
    for (int k = 0; k < c->nranges; k++) {
        struct pvar *pv = &c->vars[c->range[k]];
        if (pv->steps == 0)
            pv->steps = c->nranges == 1 ? PARAM_STEPS_1D : PARAM_STEPS_2D;
    }
    return 0;
}

static int var_index(const struct pctx *c, const char *name)
{
    size_t i;
    for (i = 0; i < c->nvars; i++)
        if (strcmp(c->names[i], name) == 0)
            return (int)i;
    return -1;
}

/* Keeps the parameters the expression uses (in their order in c->all). */
static int select_used(struct pctx *c, struct err *err)
{
    struct expr_param *all;
    unsigned char *used;
    size_t i;

    all = arena_alloc(c->a, (c->nall ? c->nall : 1) * sizeof *all);
    used = arena_alloc(c->a, c->nall ? c->nall : 1);
    c->params = arena_alloc(c->a, (c->nall ? c->nall : 1) * sizeof *c->params);
    c->sigs = arena_alloc(c->a, (c->nall ? c->nall : 1) * sizeof *c->sigs);
    if (all == NULL || used == NULL || c->params == NULL || c->sigs == NULL)
        return err_nomem(err);
    for (i = 0; i < c->nall; i++) {
        all[i].name = c->all[i].head.name;
        all[i].args = c->all[i].head.argv;
        all[i].nargs = c->all[i].head.nargs;
        all[i].body = c->all[i].body;
    }
    if (expr_free_vars(c->expression, all, c->nall, &c->free_vars, err) != 0 ||
        expr_used_params(c->expression, all, c->nall, used, err) != 0)
        return -1;
    c->nparams = 0;
    for (i = 0; i < c->nall; i++) {
        if (!used[i])
            continue;
        c->params[c->nparams] = all[i];
        c->sigs[c->nparams++] = c->all[i].sig;
    }
    return 0;
}

/* Checks the variables against what the expression needs, then compiles. */
static int check_and_compile(struct pctx *c, struct err *err)
{
    struct expr_env env;
    size_t i;
    int k;

    for (i = 0; i < c->free_vars.n; i++) {
        const char *name = c->free_vars.names[i];
        if (var_index(c, name) < 0) {
            char field[ERR_FIELD_MAX];
            snprintf(field, sizeof field, "vars.%s", name);
            return err_invalid(err, field,
                               "the expression uses the variable %s: give it a value or "
                               "a range in vars",
                               name);
        }
    }
    for (k = 0; k < c->nranges; k++) {
        const char *name = c->vars[c->range[k]].name;
        for (i = 0; i < c->free_vars.n; i++)
            if (strcmp(c->free_vars.names[i], name) == 0)
                break;
        if (i == c->free_vars.n) {
            char field[ERR_FIELD_MAX];
            snprintf(field, sizeof field, "vars.%s", name);
            return err_invalid(err, field,
                               "%s is given as a range but the expression does not use "
                               "it",
                               name);
        }
    }
    env.vars = c->names;
    env.nvars = c->nvars;
    env.params = c->params;
    env.nparams = c->nparams;
    c->e = expr_compile(c->expression, &env, err);
    return c->e ? 0 : -1;
}

/* ---- the answer ------------------------------------------------------------------ */

/* The values of every variable: fixed ones; ranges at their minimum. */
static void base_point(const struct pctx *c, double *x)
{
    size_t i;
    for (i = 0; i < c->nvars; i++)
        x[i] = c->vars[i].range ? c->vars[i].lo : c->vars[i].value;
}

/* Grid point i of a range: the ends are exact. */
static double grid_at(const struct pvar *v, int i)
{
    if (i == v->steps - 1)
        return v->hi;
    return v->lo + (v->hi - v->lo) * (double)i / (double)(v->steps - 1);
}

static json_t *num_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *vars_json(const struct pctx *c)
{
    json_t *o = json_object();
    size_t i;
    for (i = 0; i < c->nvars; i++) {
        const struct pvar *v = &c->vars[i];
        json_object_set_new(o, v->name,
                            v->range ? json_pack("[f, f, i]", v->lo, v->hi, v->steps)
                                     : json_real(v->value));
    }
    return o;
}

/* The grid of a 1- or 2-range request: {"x", "xs", "ys"} or
 * {"x", "y", "xs", "ys", "z"}; NULL with err when no value is finite. */
static json_t *grid_json(const struct pctx *c, struct err *err)
{
    double x[EXPR_MAX_VARS];
    const struct pvar *vx = &c->vars[c->range[0]];
    size_t sx = c->range[0];
    json_t *xs = json_array(), *ys = json_array(), *z = NULL, *g;
    int i, j, finite = 0;

    base_point(c, x);
    for (i = 0; i < vx->steps; i++)
        json_array_append_new(xs, json_real(grid_at(vx, i)));
    if (c->nranges == 1) {
        for (i = 0; i < vx->steps; i++) {
            x[sx] = grid_at(vx, i);
            double y = expr_eval(c->e, x);
            finite |= isfinite(y);
            json_array_append_new(ys, num_or_null(y));
        }
        g = json_pack("{s:s, s:o, s:o}", "x", vx->name, "xs", xs, "ys", ys);
    } else {
        const struct pvar *vy = &c->vars[c->range[1]];
        size_t sy = c->range[1];
        z = json_array();
        for (j = 0; j < vy->steps; j++) {
            json_t *row = json_array();
            x[sy] = grid_at(vy, j);
            json_array_append_new(ys, json_real(x[sy]));
            for (i = 0; i < vx->steps; i++) {
                x[sx] = grid_at(vx, i);
                double v = expr_eval(c->e, x);
                finite |= isfinite(v);
                json_array_append_new(row, num_or_null(v));
            }
            json_array_append_new(z, row);
        }
        g = json_pack("{s:s, s:s, s:o, s:o, s:o}", "x", vx->name, "y", vy->name, "xs", xs,
                      "ys", ys, "z", z);
    }
    if (g != NULL && !finite) {
        double dummy;
        json_decref(g);
        /* Reports the variables' values at the first grid point. */
        base_point(c, x);
        if (expr_eval_checked(c->e, x, &dummy, err) == 0)
            err_invalid(err, "vars",
                        "the expression is not finite anywhere in the range");
        return NULL;
    }
    if (g == NULL)
        err_nomem(err);
    return g;
}

/* {"variable", "degree", "coefficients": [a0, ..., ak]} for slot var, or
 * NULL when the expression is not a polynomial there (or a coefficient is
 * not finite at the fixed values). */
static json_t *alpha_in(const struct pctx *c, size_t var, int min_degree)
{
    double x[EXPR_MAX_VARS], coef[EXPR_POLY_MAX_DEGREE + 1];
    struct err local = {0};
    json_t *arr;
    int deg, k;

    base_point(c, x);
    if (expr_poly(c->e, var, x, coef, &deg, &local) != EXPR_POLY_OK || deg < min_degree)
        return NULL;
    arr = json_array();
    for (k = 0; k <= deg; k++)
        json_array_append_new(arr, json_real(coef[k]));
    return json_pack("{s:s, s:i, s:o}", "variable", c->names[var], "degree", deg,
                     "coefficients", arr);
}

/* Alpha coefficients: in the range variable for a curve; for a single
 * value, in the first variable of the expression (order of appearance) in
 * which it is a polynomial of degree >= 1; none for a surface. */
static json_t *alpha_json(const struct pctx *c)
{
    size_t i;
    if (c->nranges == 1)
        return alpha_in(c, c->range[0], 0);
    if (c->nranges == 2)
        return NULL;
    for (i = 0; i < c->free_vars.n; i++) {
        json_t *a = alpha_in(c, (size_t)var_index(c, c->free_vars.names[i]), 1);
        if (a != NULL)
            return a;
    }
    return NULL;
}

/* ---- the measured overlay ---------------------------------------------------------- */

struct mrun { /* one run: its range variables' values and its time */
    double key[PARAM_MAX_RANGES];
    double t;
};

/* Orders runs by their range variables' values (unused keys are all 0). */
static int cmp_mrun(const void *pa, const void *pb)
{
    const struct mrun *a = pa, *b = pb;
    for (int k = 0; k < PARAM_MAX_RANGES; k++) {
        if (a->key[k] != b->key[k])
            return a->key[k] < b->key[k] ? -1 : 1;
    }
    return 0;
}

static double tol(double v)
{
    return 1e-9 * (fabs(v) > 1 ? fabs(v) : 1);
}

/* The value of variable v in a run row, or NAN when the run lacks it. */
static double run_value(const struct pvar *v, const struct db_sel_row *row)
{
    json_t *x;
    if (v->np)
        return row->nprocs;
    x = json_object_get(row->inputs, v->name);
    return json_is_number(x) ? json_number_value(x) : NAN;
}

/* Adds "measured" and "error" to out: the runs of the application on the
 * system whose nprocs and inputs match the fixed variables and lie in the
 * ranges, one entry per configuration of the range variables. */
static int overlay(db *d, const struct pctx *c, json_t *out, struct err *err)
{
    json_t *filter = json_object(), *measured = json_array();
    struct db_sel_rows rows = {NULL, 0};
    long long np_lo = 1, np_hi = (long long)1 << 53;
    struct mrun *runs = NULL;
    double x[EXPR_MAX_VARS], sum_abs = 0, max_abs = 0;
    size_t i, n = 0, npoints = 0, ngood = 0;
    int rc = -1, capped = 0, k;

    if (filter == NULL || measured == NULL) {
        err_nomem(err);
        goto out;
    }
    for (i = 0; i < c->nvars; i++) {
        const struct pvar *v = &c->vars[i];
        double lo = v->range ? v->lo : v->value, hi = v->range ? v->hi : v->value;
        /* Inputs are stored as REAL: accept a relative 1e-9 either side
         * (unless that leaves the doubles, near DBL_MAX). */
        lo = isfinite(lo - tol(lo)) ? lo - tol(lo) : lo;
        hi = isfinite(hi + tol(hi)) ? hi + tol(hi) : hi;
        if (v->np) {
            double l = ceil(lo), h = floor(hi);
            if (l > (double)np_lo)
                np_lo = l > 9e15 ? (long long)9e15 : (long long)l;
            if (h < (double)np_hi)
                np_hi = h < 0 ? 0 : (long long)h;
        } else {
            json_object_set_new(filter, v->name, json_pack("[f, f]", lo, hi));
        }
    }
    if (np_lo <= np_hi) {
        struct db_sel_overlay q = {c->application, c->system, c->kernel,         np_lo,
                                   np_hi,          filter,    PARAM_MAX_RUNS + 1};
        if (db_select_overlay(d, &q, &rows, err) != 0)
            goto out;
        n = rows.n;
        if (n > PARAM_MAX_RUNS) {
            n = PARAM_MAX_RUNS;
            capped = 1;
        }
    }
    runs = xcalloc(n ? n : 1, sizeof *runs);
    if (runs == NULL) {
        err_nomem(err);
        goto out;
    }
    for (i = 0; i < n; i++) {
        const struct db_sel_row *row = &rows.row[i];
        struct mrun *m = &runs[ngood];
        int ok = row->has_y && isfinite(row->y);
        for (k = 0; k < PARAM_MAX_RANGES; k++) {
            m->key[k] = k < c->nranges ? run_value(&c->vars[c->range[k]], row) : 0;
            ok &= isfinite(m->key[k]);
        }
        if (ok) {
            m->t = row->y;
            ngood++;
        }
    }
    qsort(runs, ngood, sizeof *runs, cmp_mrun);
    base_point(c, x);
    for (i = 0; i < ngood;) {
        size_t j = i, cnt;
        double sum = 0, mn = runs[i].t, mx = runs[i].t, mean, model;
        json_t *xo = json_object(), *entry;
        while (j < ngood && cmp_mrun(&runs[i], &runs[j]) == 0) {
            sum += runs[j].t;
            mn = runs[j].t < mn ? runs[j].t : mn;
            mx = runs[j].t > mx ? runs[j].t : mx;
            j++;
        }
        cnt = j - i;
        mean = sum / (double)cnt;
        for (k = 0; k < c->nranges; k++)
            x[c->range[k]] = runs[i].key[k];
        for (size_t v = 0; v < c->nvars; v++)
            json_object_set_new(xo, c->names[v], json_real(x[v]));
        model = expr_eval(c->e, x);
        entry = json_pack("{s:o, s:f, s:f, s:f, s:I, s:o}", "x", xo, "runtime", mean,
                          "min", mn, "max", mx, "runs", (json_int_t)cnt, "model",
                          num_or_null(model));
        if (entry != NULL && isfinite(model) && mean > 0) {
            double pct = (model - mean) / mean * 100;
            if (isfinite(pct)) {
                json_object_set_new(entry, "error_pct", json_real(pct));
                sum_abs += fabs(pct);
                max_abs = fabs(pct) > max_abs ? fabs(pct) : max_abs;
                npoints++;
            }
        }
        json_array_append_new(measured, entry);
        i = j;
    }
    json_object_set(out, "measured", measured);
    {
        json_t *e = json_pack("{s:I, s:I, s:b}", "points", (json_int_t)npoints, "runs",
                              (json_int_t)ngood, "capped", capped);
        if (npoints > 0) {
            json_object_set_new(e, "mean_abs_pct", json_real(sum_abs / (double)npoints));
            json_object_set_new(e, "max_abs_pct", json_real(max_abs));
        }
        json_object_set_new(out, "error", e);
    }
    rc = 0;
out:
    xfree(runs);
    db_sel_rows_free(&rows);
    json_decref(filter);
    json_decref(measured);
    return rc;
}

/* ---- param_answer ------------------------------------------------------------------ */

/* Resolves the template and the system's parameters from the database. */
static int resolve_stored(db *d, struct pctx *c, struct err *err)
{
    json_t *tpl = NULL, *rows = NULL, *row;
    size_t i;
    int rc = -1;

    if ((c->template_name || c->system) && d == NULL)
        return err_set(err, ERR_INTERNAL, "internal", NULL, "no database connection");
    if (c->template_name) {
        struct err local = {0};
        /* Templates are scoped to an application: a request that names its
         * application picks that one's template; without it the name must be
         * unique (db_template_get answers ERR_CONFLICT when two applications share it).
         */
        tpl = c->application
                  ? db_template_get_in(d, c->template_name, c->application, &local)
                  : db_template_get(d, c->template_name, &local);
        if (tpl == NULL) {
            if (local.status == ERR_NOT_FOUND && c->application)
                err_set(err, ERR_NOT_FOUND, "not_found", "template",
                        "application %s has no template %s", c->application,
                        c->template_name);
            else if (local.status == ERR_NOT_FOUND)
                err_set(err, ERR_NOT_FOUND, "not_found", "template",
                        "template %s not found", c->template_name);
            else if (err->status == 0)
                *err = local;
            goto out;
        }
        {
            const char *app = json_string_value(json_object_get(tpl, "application"));
            const char *kernel = json_string_value(json_object_get(tpl, "kernel"));
            const char *text = json_string_value(json_object_get(tpl, "expression"));
            if (app == NULL || text == NULL) {
                err_set(err, ERR_INTERNAL, "internal", NULL, "template %s is incomplete",
                        c->template_name);
                goto out;
            }
            if (c->application && strcmp(c->application, app) != 0) {
                err_invalid(err, "application",
                            "template %s belongs to application %s, not %s; leave "
                            "application out",
                            c->template_name, app, c->application);
                goto out;
            }
            c->application = arena_strdup(c->a, app);
            c->expression = arena_strdup(c->a, text);
            c->kernel = kernel && *kernel ? arena_strdup(c->a, kernel) : NULL;
            if (c->application == NULL || c->expression == NULL) {
                err_nomem(err);
                goto out;
            }
        }
    } else if (c->application) {
        long long id = db_app_id(d, c->application, 0, err);
        if (id < 0)
            goto out;
        if (id == 0) {
            err_set(err, ERR_NOT_FOUND, "not_found", "application",
                    "application %s not found", c->application);
            goto out;
        }
    }
    if (c->system) {
        long long id = db_system_id(d, c->system, 0, err);
        if (id < 0)
            goto out;
        if (id == 0) {
            err_set(err, ERR_NOT_FOUND, "not_found", "system", "system %s not found",
                    c->system);
            goto out;
        }
        rows = db_params_list(d, c->system, err);
        if (rows == NULL)
            goto out;
        json_array_foreach(rows, i, row)
        {
            const char *sig = json_string_value(json_object_get(row, "signature"));
            const char *body = json_string_value(json_object_get(row, "expression"));
            char field[ERR_FIELD_MAX];
            if (sig == NULL || body == NULL)
                continue;
            snprintf(field, sizeof field, "system parameter %s", sig);
            if (add_param(c, sig, body, 0, field, err) != 0)
                goto out;
        }
    }
    rc = 0;
out:
    json_decref(tpl);
    json_decref(rows);
    return rc;
}

json_t *param_answer(db *d, json_t *request, struct err *err)
{
    static const char *const allowed[] = {
        "expression", "template", "system", "parameters", "vars", "application", NULL};
    struct pctx c;
    json_t *v, *out = NULL, *params, *alpha;
    const char *key;
    struct buf parsed;
    size_t i;

    memset(&c, 0, sizeof c);
    buf_init(&parsed, PARAM_MAX_PARSED);
    if (!json_is_object(request)) {
        err_invalid(err, NULL, "the body must be a JSON object");
        goto fail;
    }
    json_object_foreach(request, key, v)
    {
        int ok = 0;
        for (i = 0; allowed[i]; i++)
            ok |= strcmp(key, allowed[i]) == 0;
        if (!ok) {
            err_invalid(err, key, "unknown field %s", key);
            goto fail;
        }
    }
    c.a = arena_new();
    c.all = c.a ? arena_alloc(c.a, EXPR_MAX_PARAMS * sizeof *c.all) : NULL;
    if (c.all == NULL) {
        err_nomem(err);
        goto fail;
    }
    if (name_field(request, "template", c.a, &c.template_name, err) != 0 ||
        name_field(request, "system", c.a, &c.system, err) != 0 ||
        name_field(request, "application", c.a, &c.application, err) != 0)
        goto fail;
    v = json_object_get(request, "expression");
    if (v != NULL && c.template_name != NULL) {
        err_invalid(err, "expression", "give either expression or template, not both");
        goto fail;
    }
    if (v == NULL && c.template_name == NULL) {
        err_invalid(err, "expression",
                    "expression (a template expression) or template (a stored "
                    "template's name) is required");
        goto fail;
    }
    if (v != NULL) {
        if (!json_is_string(v) || json_string_length(v) == 0 ||
            json_string_length(v) > EXPR_MAX_LEN ||
            strlen(json_string_value(v)) != json_string_length(v)) {
            err_invalid(err, "expression", "expression must be a string of 1 to %d bytes",
                        EXPR_MAX_LEN);
            goto fail;
        }
        c.expression = arena_strdup(c.a, json_string_value(v));
        if (c.expression == NULL) {
            err_nomem(err);
            goto fail;
        }
    }
    if (decode_vars(&c, json_object_get(request, "vars"), err) != 0 ||
        resolve_stored(d, &c, err) != 0)
        goto fail;
    params = json_object_get(request, "parameters");
    if (params != NULL && params_from_object(&c, params, "parameters", err) != 0)
        goto fail;
    if (select_used(&c, err) != 0 || check_and_compile(&c, err) != 0)
        goto fail;

    expr_print_substituted(c.e, &parsed);
    if (buf_failed(&parsed)) {
        err_invalid(err, "expression",
                    "the expression with parameters substituted is longer than %u bytes",
                    PARAM_MAX_PARSED);
        goto fail;
    }
    params = json_object();
    for (i = 0; i < c.nparams; i++)
        json_object_set_new(params, c.sigs[i], json_string(c.params[i].body));
    out = json_pack("{s:s?, s:s?, s:s?, s:s, s:s, s:o, s:o}", "template", c.template_name,
                    "application", c.application, "system", c.system, "expression",
                    c.expression, "parsed", buf_str(&parsed), "parameters", params,
                    "vars", vars_json(&c));
    if (out == NULL) {
        err_nomem(err);
        goto fail;
    }
    if (c.kernel)
        json_object_set_new(out, "kernel", json_string(c.kernel));
    if (c.nranges == 0) {
        double x[EXPR_MAX_VARS], y;
        base_point(&c, x);
        if (expr_eval_checked(c.e, x, &y, err) != 0)
            goto fail;
        json_object_set_new(out, "value", json_real(y));
    } else {
        json_t *g = grid_json(&c, err);
        if (g == NULL)
            goto fail;
        json_object_set_new(out, "grid", g);
    }
    alpha = alpha_json(&c);
    if (alpha != NULL)
        json_object_set_new(out, "alpha", alpha);
    if (c.application && c.system && overlay(d, &c, out, err) != 0)
        goto fail;
    buf_free(&parsed);
    ctx_free(&c);
    return out;
fail:
    json_decref(out);
    buf_free(&parsed);
    ctx_free(&c);
    return NULL;
}

/* ---- saved answers: predict and plot -------------------------------------------------
 */

/* Rebuilds the compiled model from a saved answer. */
static int ctx_from_answer(struct pctx *c, json_t *answer, struct err *err)
{
    json_t *ex = json_object_get(answer, "expression");

    memset(c, 0, sizeof *c);
    c->a = arena_new();
    c->all = c->a ? arena_alloc(c->a, EXPR_MAX_PARAMS * sizeof *c->all) : NULL;
    if (c->all == NULL)
        return err_nomem(err);
    if (!json_is_object(answer) || !json_is_string(ex))
        return err_set(err, ERR_INTERNAL, "internal", NULL,
                       "the saved model has no expression");
    c->expression = json_string_value(ex);
    if (json_object_get(answer, "parameters") != NULL &&
        params_from_object(c, json_object_get(answer, "parameters"), "parameters", err) !=
            0)
        return -1;
    if (decode_vars(c, json_object_get(answer, "vars"), err) != 0 ||
        select_used(c, err) != 0)
        return -1;
    return check_and_compile(c, err);
}

/* The point's value for v, or NULL: P and nprocs name the same variable
 * (the number of processes), so a query may give either whichever the model
 * calls it; giving both with different values is an ERR_INVALID. */
static int point_value(json_t *point, const struct pvar *v, json_t **out, struct err *err)
{
    json_t *p, *q;
    if (point == NULL)
        return 0;
    *out = json_object_get(point, v->name);
    if (!v->np)
        return 0;
    p = json_object_get(point, "P");
    q = json_object_get(point, "nprocs");
    if (p != NULL && q != NULL && !json_equal(p, q))
        return err_invalid(err, "nprocs",
                           "P and nprocs both stand for the number of processes and "
                           "differ; give one of them");
    *out = p ? p : q;
    return 0;
}

json_t *param_predict_saved(json_t *answer, json_t *point, struct err *err)
{
    struct pctx c;
    double x[EXPR_MAX_VARS], y;
    json_t *xo = NULL, *out = NULL;
    size_t i;

    if (point != NULL && !json_is_object(point)) {
        err_invalid(err, NULL, "the point must map variable names to numbers");
        return NULL;
    }
    if (ctx_from_answer(&c, answer, err) != 0)
        goto out;
    base_point(&c, x);
    xo = json_object();
    for (i = 0; i < c.nvars; i++) {
        const struct pvar *v = &c.vars[i];
        json_t *p = NULL;
        if (point_value(point, v, &p, err) != 0)
            goto out;
        if (p != NULL) {
            if (json_get_number(p, v->name, &x[i], err) != 0)
                goto out;
        } else if (v->range) {
            err_invalid(err, v->name,
                        "%s varies in this model (%g to %g): give a value for %s",
                        v->name, v->lo, v->hi, v->name);
            goto out;
        }
        if (expr_uses_var(c.e, i))
            json_object_set_new(xo, v->name, json_real(x[i]));
    }
    if (expr_eval_checked(c.e, x, &y, err) != 0)
        goto out;
    out = json_pack("{s:O, s:f}", "x", xo, "y", y);
    if (out == NULL)
        err_nomem(err);
out:
    json_decref(xo);
    ctx_free(&c);
    return out;
}
