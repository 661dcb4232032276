/* couple_saved: loading and evaluating a kernel-coupling answer; see
 * couple_saved.h. */
#include "core/couple_saved.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/utf8.h"
#include "common/xalloc.h"
#include "core/fit_json.h"
#include "models/couple.h"

/* Re-records an error from a lower layer as "<what> <name>: <message>" on
 * err ("kernel x_solve: ..."), keeping its status and code and replacing the
 * field. */
int couple_rewrap(struct err *err, const struct err *inner, const char *field,
                  const char *what, const char *name)
{
    return err_set(err, inner->status ? inner->status : ERR_INVALID,
                   inner->code[0] ? inner->code : "invalid", field, "%s %s: %s", what,
                   name, inner->message);
}

static int is_builtin(const char *s)
{
    static const char *const names[] = {"log", "log2", "log10", "sqrt",  "exp", "abs",
                                        "min", "max",  "ceil",  "floor", NULL};
    size_t i;
    for (i = 0; names[i]; i++)
        if (strcmp(s, names[i]) == 0)
            return 1;
    return 0;
}

/* A name an expression can use as a variable. */
static int usable_var(const char *s)
{
    size_t i, n = strlen(s);
    if (n == 0 || n > EXPR_MAX_NAME || is_builtin(s))
        return 0;
    for (i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
              (i > 0 && c >= '0' && c <= '9')))
            return 0;
    }
    return 1;
}

/* ---- the variables an expression kernel sees --------------------------------- */

static void env_add(struct couple_env *e, const char *name, double v, int isx)
{
    size_t i;
    if (!usable_var(name) || e->n == COUPLE_MAX_ENV)
        return;
    for (i = 0; i < e->n; i++)
        if (strcmp(e->name[i], name) == 0)
            return;
    e->name[e->n] = name;
    e->val[e->n] = v;
    e->isx[e->n] = isx;
    e->n++;
}

/* fixed is an object of finite numbers (checked by the caller). */
void couple_env_make(struct couple_env *e, const char *xname, json_t *fixed)
{
    const char *key;
    json_t *v;
    memset(e, 0, sizeof *e);
    env_add(e, xname, 0, 1);
    if (strcmp(xname, "nprocs") == 0)
        env_add(e, "P", 0, 1);
    json_object_foreach(fixed, key, v)
    {
        env_add(e, key, json_number_value(v), 0);
        if (strcmp(key, "nprocs") == 0)
            env_add(e, "P", json_number_value(v), 0);
    }
}

void couple_env_at(struct couple_env *e, double x)
{
    size_t i;
    for (i = 0; i < e->n; i++)
        if (e->isx[i])
            e->val[i] = x;
}

/* ==== the saved model: loading and evaluating an answer ============================ */

void couple_saved_free(struct couple_saved *s)
{
    size_t i;
    for (i = 0; s->k && i < s->nk; i++)
        expr_free(s->k[i].e);
    xfree(s->k);
    xfree(s->coef);
    xfree(s->coords);
    memset(s, 0, sizeof *s);
}

int couple_saved_load(json_t *ans, struct couple_saved *s, struct err *err)
{
    json_t *ks = json_object_get(ans, "kernels"), *x = json_object_get(ans, "x"), *o, *v;
    const char *key;
    size_t i, c;

    memset(s, 0, sizeof *s);
    if (!json_is_object(ans) || !json_is_string(x) || !json_is_array(ks) ||
        json_array_size(ks) == 0 || json_array_size(ks) > COUPLE_MAX_KERNELS)
        return err_invalid(err, "model", "not a coupling model answer");
    s->xname = json_string_value(x);
    s->fixed = json_object_get(ans, "fixed");
    if (!json_is_object(s->fixed) || json_object_size(s->fixed) > LIMIT_COUPLE_FIXED)
        return err_invalid(err, "model", "coupling model: fixed must be an object");
    json_object_foreach(s->fixed, key, v)
    {
        if (!json_is_number(v))
            return err_invalid(err, "model",
                               "coupling model: fixed values must be numbers");
    }
    s->nk = json_array_size(ks);
    s->k = xcalloc(s->nk, sizeof *s->k);
    if (s->k == NULL)
        return err_nomem(err);
    couple_env_make(&s->env, s->xname, s->fixed);
    json_array_foreach(ks, i, o)
    {
        struct couple_skernel *k = &s->k[i];
        json_t *m = json_object_get(o, "model");
        const char *type = json_string_value(json_object_get(m, "type"));
        k->name = json_string_value(json_object_get(o, "name"));
        k->loop = json_is_true(json_object_get(o, "loop"));
        k->formula = json_string_value(json_object_get(m, "formula"));
        k->expression = json_string_value(json_object_get(m, "expression"));
        if (k->name == NULL || type == NULL || k->formula == NULL ||
            k->expression == NULL)
            goto bad;
        if (strcmp(type, "fit") == 0) {
            if (fit_model_from_json(json_object_get(m, "state"), &k->fm, err) != 0)
                goto bad;
            if (k->fm.nvars != 1)
                goto bad;
            s->interval |= k->fm.has_interval;
        } else if (strcmp(type, "expression") == 0) {
            struct expr_env ee;
            memset(&ee, 0, sizeof ee);
            ee.vars = s->env.name;
            ee.nvars = s->env.n;
            k->is_expr = 1;
            k->e = expr_compile(k->expression, &ee, err);
            if (k->e == NULL)
                goto bad;
        } else {
            goto bad;
        }
    }
    s->confs = json_object_get(ans, "configurations");
    if (!json_is_array(s->confs) || json_array_size(s->confs) == 0 ||
        json_array_size(s->confs) > LIMIT_COUPLE_CONFIGS)
        goto bad;
    s->nconf = json_array_size(s->confs);
    s->vars[s->nvars++] = s->xname;
    json_object_foreach(s->fixed, key, v)
    {
        s->target[s->nvars] = json_number_value(v);
        s->vars[s->nvars++] = key;
    }
    s->coef = xcalloc(s->nconf * s->nk, sizeof *s->coef);
    s->coords = xcalloc(s->nconf * s->nvars, sizeof *s->coords);
    if (s->coef == NULL || s->coords == NULL) {
        couple_saved_free(s);
        return err_nomem(err);
    }
    for (c = 0; c < s->nconf; c++) {
        json_t *conf = json_array_get(s->confs, c);
        json_t *vals = json_object_get(conf, "configuration"),
               *coefs = json_object_get(conf, "coefficients");
        if (!json_is_object(vals) || !json_is_object(coefs))
            goto bad;
        for (i = 0; i < s->nvars; i++) {
            json_t *cv = json_object_get(vals, s->vars[i]);
            s->coords[c * s->nvars + i] =
                json_is_number(cv) ? json_number_value(cv) : NAN;
        }
        for (i = 0; i < s->nk; i++) {
            json_t *cv = json_object_get(coefs, s->k[i].name);
            if (!json_is_number(cv) || !isfinite(json_number_value(cv)))
                goto bad;
            s->coef[c * s->nk + i] = json_number_value(cv);
        }
    }
    return 0;
bad:
    couple_saved_free(s);
    return err_invalid(err, "model", "coupling model: the saved answer is malformed");
}

/* The configuration used at x (isocoupling). */
size_t couple_saved_nearest(struct couple_saved *s, double x)
{
    s->target[0] = x;
    return couple_nearest(s->coords, s->nconf, s->nvars, s->target, 0, NULL);
}

/* Evaluates the composed model at x with the coefficients coef (nk
 * entries). contrib (nk entries, may be NULL) gets coef_k * model_k(x). */
static int eval_coef(struct couple_saved *s, double x, const double *coef,
                     struct couple_eval *out, double *contrib, struct err *err)
{
    double *y = xcalloc(s->nk + 1, 4 * sizeof *y), *dn, *up, *one;
    size_t i;
    int rc = -1;

    if (y == NULL)
        return err_nomem(err);
    dn = y + s->nk + 1;
    up = dn + s->nk + 1;
    one = up + s->nk + 1;
    out->reach = 0;
    out->warning[0] = '\0';
    couple_env_at(&s->env, x);
    for (i = 0; i < s->nk; i++) {
        struct couple_skernel *k = &s->k[i];
        struct err e2 = {0};
        one[i] = 1;
        if (k->is_expr) {
            if (expr_eval_checked(k->e, s->env.val, &y[i], &e2) != 0)
                goto fail;
        } else {
            double lo, hi, reach;
            if (fit_predict_ext(&k->fm, &x, &y[i], &lo, &hi, &e2) != 0)
                goto fail;
            /* each side of the kernel's own interval, which is
             * multiplicative for a positive time: composing the sides
             * apart keeps the total's lower end above 0 (SPEC §18), where
             * the mean half-width 0.5 (hi - lo) took it below */
            dn[i] = fmax(y[i] - lo, 0);
            up[i] = fmax(hi - y[i], 0);
            reach = fit_extrapolation(&k->fm, &x);
            if (isfinite(reach) && reach > out->reach)
                out->reach = reach;
            if (out->warning[0] == '\0') {
                struct buf w;
                buf_init(&w, 4096);
                buf_printf(&w, "kernel %s: ", k->name);
                if (fit_warning(&k->fm, &x, y[i], lo, hi, &w) > 0 && !buf_failed(&w)) {
                    snprintf(out->warning, sizeof out->warning, "%s", buf_str(&w));
                    utf8_cut(out->warning);
                }
                buf_free(&w);
            }
        }
        if (contrib != NULL)
            contrib[i] = coef[i] * y[i];
        continue;
    fail:
        couple_rewrap(err, &e2, s->xname, "kernel", k->name);
        goto out;
    }
    if (couple_compose(coef, y, dn, s->nk, &out->y, &out->dn, err) != 0 ||
        couple_compose(coef, y, up, s->nk, &out->y, &out->up, err) != 0 ||
        couple_compose(one, y, dn, s->nk, &out->sum, &out->sum_dn, err) != 0 ||
        couple_compose(one, y, up, s->nk, &out->sum, &out->sum_up, err) != 0)
        goto out;
    rc = 0;
out:
    xfree(y);
    return rc;
}

int couple_saved_eval(struct couple_saved *s, double x, size_t conf,
                      struct couple_eval *out, double *contrib, struct err *err)
{
    if (eval_coef(s, x, s->coef + conf * s->nk, out, contrib, err) != 0)
        return -1;
    out->conf = conf;
    out->modeled = 0;
    out->near_y = out->y;
    out->near_dn = out->dn;
    out->near_up = out->up;
    return 0;
}

/* The distance of models/couple.h (couple_nearest): |ln a - ln b| when both
 * are > 0, else |a - b|; an unrecorded value (NaN) matches anything. */
static double distance(double a, double b)
{
    if (isnan(a) || isnan(b))
        return 0;
    return a > 0 && b > 0 ? fabs(log(a) - log(b)) : fabs(a - b);
}

size_t couple_saved_modeled(struct couple_saved *s, double x, double *coef)
{
    double best = INFINITY, *xs, *cs, x0 = NAN;
    size_t c, i, k, n = 0, used = 0;
    int distinct = 0;

    if (s->nconf < 2)
        return 0;
    /* The configurations that match the fixed variables best, as
     * couple_nearest ranks them, with a recorded x. */
    for (c = 0; c < s->nconf; c++) {
        double d = 0;
        for (i = 1; i < s->nvars; i++)
            d += distance(s->coords[c * s->nvars + i], s->target[i]);
        if (!isnan(s->coords[c * s->nvars]) && d < best)
            best = d;
    }
    xs = xcalloc(2 * s->nconf + 1, sizeof *xs);
    if (xs == NULL)
        return 0;
    cs = xs + s->nconf;
    for (k = 0; k < s->nk; k++) {
        n = 0;
        for (c = 0; c < s->nconf; c++) {
            double d = 0, xc = s->coords[c * s->nvars];
            for (i = 1; i < s->nvars; i++)
                d += distance(s->coords[c * s->nvars + i], s->target[i]);
            if (isnan(xc) || d != best)
                continue;
            if (k == 0 && n > 0 && xc != x0)
                distinct = 1;
            x0 = n == 0 ? xc : x0;
            xs[n] = xc;
            cs[n++] = s->coef[c * s->nk + k];
        }
        if (k == 0 && !distinct)
            break;
        if (couple_model_value(xs, cs, n, x, &coef[k], NULL) != 0)
            break;
        used = n;
    }
    xfree(xs);
    return k == s->nk && distinct ? used : 0;
}

int couple_saved_predict(struct couple_saved *s, double x, struct couple_eval *out,
                         double *contrib, struct err *err)
{
    size_t conf = couple_saved_nearest(s, x), n;
    double *coef = xcalloc(s->nk + 1, sizeof *coef);
    struct couple_eval near;
    int rc = -1;

    if (coef == NULL)
        return err_nomem(err);
    if (couple_saved_eval(s, x, conf, &near, contrib, err) != 0)
        goto out;
    *out = near;
    n = couple_saved_modeled(s, x, coef);
    if (n >= 2) {
        if (eval_coef(s, x, coef, out, contrib, err) != 0)
            goto out;
        out->conf = conf;
        out->modeled = n;
        out->near_y = near.y;
        out->near_dn = near.dn;
        out->near_up = near.up;
    }
    rc = 0;
out:
    xfree(coef);
    return rc;
}
