/* fit_json: struct fit_model <-> JSON; see fit_json.h. */
#include "core/fit_json.h"
#include "common/buf.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Graph ids by enum value; fit_graph_name gives the canonical names. */
static int graph_from_name(const char *s, enum fit_graph *out)
{
    int g;
    for (g = FIT_POLY1; g <= FIT_BASIS; g++)
        if (strcmp(s, fit_graph_name((enum fit_graph)g)) == 0) {
            *out = (enum fit_graph)g;
            return 0;
        }
    return -1;
}

static json_t *reals(const double *v, int n)
{
    json_t *a = json_array();
    int i;
    if (a == NULL)
        return NULL;
    for (i = 0; i < n; i++)
        if (json_array_append_new(a, json_real(v[i])) != 0) {
            json_decref(a);
            return NULL;
        }
    return a;
}

json_t *fit_model_to_json(const struct fit_model *m)
{
    json_t *terms, *out;
    int j, v;

    if (m->nvars < 1 || m->nvars > FIT_MAX_VARS || m->nterms < 1 ||
        m->nterms > FIT_MAX_TERMS)
        return NULL;
    terms = json_array();
    if (terms == NULL)
        return NULL;
    for (j = 0; j < m->nterms; j++) {
        json_t *logp = json_array(), *t;
        for (v = 0; logp && v < m->nvars; v++)
            if (json_array_append_new(logp, json_integer(m->term[j].logp[v])) != 0) {
                json_decref(logp);
                logp = NULL;
            }
        t = json_pack("{s:o, s:o}", "expo", reals(m->term[j].expo, m->nvars), "logp",
                      logp);
        if (t == NULL || json_array_append_new(terms, t) != 0) {
            json_decref(terms);
            return NULL;
        }
    }
    out = json_pack("{s:i, s:i, s:s, s:s, s:o, s:o, s:o, s:o, s:b, s:o, s:i, s:b, s:o, "
                    "s:o}",
                    "nvars", m->nvars, "nterms", m->nterms, "graph",
                    fit_graph_name(m->graph), "chosen", fit_graph_name(m->chosen),
                    "terms", terms, "coef", reals(m->coef, m->nterms), "scale",
                    reals(m->scale, m->nterms), "r", reals(m->r, m->nterms * m->nterms),
                    "relative", m->relative, "s2", json_real(m->s2), "dof", m->dof,
                    "has_interval", m->has_interval, "xmin", reals(m->xmin, m->nvars),
                    "xmax", reals(m->xmax, m->nvars));
    /* The extrapolating `auto`'s fields (models/fit.h); models stored
     * before them have none and read back as 0. */
    if (out != NULL &&
        (json_object_set_new(out, "xunc", json_real(m->xunc)) != 0 ||
         json_object_set_new(out, "outliers", json_integer(m->outliers)) != 0 ||
         json_object_set_new(out, "seg_x", json_real(m->seg_x)) != 0 ||
         json_object_set_new(out, "positive", json_boolean(m->positive)) != 0)) {
        json_decref(out);
        return NULL;
    }
    /* A one-variable `auto` carries the lean of its fit (only then: other
     * models are written as before). */
    if (out != NULL && m->lean > 0 &&
        json_object_set_new(out, "lean", json_real(m->lean)) != 0) {
        json_decref(out);
        return NULL;
    }
    /* A two-variable `auto` carries its forward folds (only then: other
     * models are written as before). */
    if (out != NULL && m->fold_n > 0) {
        json_t *fs = json_array();
        int k;
        if (fs == NULL || m->fold_n > FIT_MAX_VARS ||
            json_object_set_new(out, "folds", fs) != 0) {
            json_decref(out);
            return NULL;
        }
        for (k = 0; k < m->fold_n; k++) {
            json_t *f = json_pack("{s:i, s:o}", "var", m->fold_v[k], "coef",
                                  reals(m->fold_coef[k], m->nterms));
            if (f == NULL || json_array_append_new(fs, f) != 0) {
                json_decref(out);
                return NULL;
            }
        }
    }
    /* A fit on a machine curve carries its curve (only then: other models
     * are written as before). */
    if (out != NULL && m->basis.n > 0) {
        const struct fit_basis *b = &m->basis;
        json_t *c;
        if (b->n > FIT_BASIS_MAX || strnlen(b->name, sizeof b->name) == sizeof b->name ||
            (c = json_pack("{s:s, s:o, s:o}", "name", b->name, "x", reals(b->x, b->n),
                           "t", reals(b->t, b->n))) == NULL ||
            json_object_set_new(out, "basis", c) != 0 ||
            /* read at scale * x^power: written only when not x itself */
            (b->scale != 1 &&
             json_object_set_new(c, "scale", json_real(b->scale)) != 0) ||
            (b->power != 1 &&
             json_object_set_new(c, "power", json_real(b->power)) != 0)) {
            json_decref(out);
            return NULL;
        }
    }
    return out;
}

/* ---- reading ---- */

static int fail(struct err *err, const char *key, const char *what)
{
    char field[64];
    snprintf(field, sizeof field, "model.%s", key);
    return err_invalid(err, field, "saved model: %s %s", key, what);
}

static int get_int(json_t *o, const char *key, int lo, int hi, int *out, struct err *err)
{
    json_t *v = json_object_get(o, key);
    char what[64];
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
        snprintf(what, sizeof what, "must be an integer from %d to %d", lo, hi);
        return fail(err, key, what);
    }
    *out = (int)json_integer_value(v);
    return 0;
}

static int get_bool(json_t *o, const char *key, int *out, struct err *err)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_boolean(v))
        return fail(err, key, "must be true or false");
    *out = json_is_true(v);
    return 0;
}

static int get_num(json_t *v, const char *key, double *out, struct err *err)
{
    if (!json_is_number(v) || !isfinite(json_number_value(v)))
        return fail(err, key, "must hold finite numbers");
    *out = json_number_value(v);
    return 0;
}

static int get_reals(json_t *o, const char *key, int n, double *out, struct err *err)
{
    json_t *a = json_object_get(o, key);
    char what[64];
    int i;
    if (!json_is_array(a) || json_array_size(a) != (size_t)n) {
        snprintf(what, sizeof what, "must be an array of %d numbers", n);
        return fail(err, key, what);
    }
    for (i = 0; i < n; i++)
        if (get_num(json_array_get(a, (size_t)i), key, &out[i], err) != 0)
            return -1;
    return 0;
}

static int get_graph(json_t *o, const char *key, enum fit_graph *out, struct err *err)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_string(v) || graph_from_name(json_string_value(v), out) != 0)
        return fail(err, key,
                    "must be a graph id (poly1..poly6, inv1..inv6, unknown, "
                    "auto, normal, basis)");
    return 0;
}

/* Every key of keys must be present; those of optional may be; no other. */
static int only_keys(json_t *o, const char *const *keys, const char *const *optional,
                     const char *where, struct err *err)
{
    const char *k;
    json_t *v;
    size_t i;
    json_object_foreach(o, k, v)
    {
        int ok = 0;
        for (i = 0; keys[i] && !ok; i++)
            ok = strcmp(k, keys[i]) == 0;
        for (i = 0; optional != NULL && optional[i] && !ok; i++)
            ok = strcmp(k, optional[i]) == 0;
        if (!ok)
            return err_invalid(err, where, "saved model: unknown key %s in %s",
                               strlen(k) <= 40 ? k : "(over 40 bytes)", where);
    }
    for (i = 0; keys[i]; i++)
        if (json_object_get(o, keys[i]) == NULL) {
            char field[64];
            snprintf(field, sizeof field, "%s.%s", where, keys[i]);
            return err_invalid(err, field, "saved model: %s is missing in %s", keys[i],
                               where);
        }
    return 0;
}

static int read_model(json_t *v, struct fit_model *m, struct err *err)
{
    static const char *const keys[] = {
        "nvars",    "nterms", "graph", "chosen",       "terms", "coef", "scale", "r",
        "relative", "s2",     "dof",   "has_interval", "xmin",  "xmax", NULL};
    static const char *const optional[] = {"xunc",  "outliers", "seg_x", "positive",
                                           "basis", "folds",    "lean",  NULL};
    static const char *const fold_keys[] = {"var", "coef", NULL};
    static const char *const basis_keys[] = {"name", "x", "t", NULL};
    static const char *const basis_optional[] = {"scale", "power", NULL};
    static const char *const term_keys[] = {"expo", "logp", NULL};
    json_t *terms, *o;
    int j, k;

    if (!json_is_object(v))
        return err_invalid(err, "model", "saved model must be an object");
    if (only_keys(v, keys, optional, "model", err) != 0 ||
        get_int(v, "nvars", 1, FIT_MAX_VARS, &m->nvars, err) != 0 ||
        get_int(v, "nterms", 1, FIT_MAX_TERMS, &m->nterms, err) != 0 ||
        get_graph(v, "graph", &m->graph, err) != 0 ||
        get_graph(v, "chosen", &m->chosen, err) != 0 ||
        get_reals(v, "coef", m->nterms, m->coef, err) != 0 ||
        get_reals(v, "scale", m->nterms, m->scale, err) != 0 ||
        get_reals(v, "r", m->nterms * m->nterms, m->r, err) != 0 ||
        get_bool(v, "relative", &m->relative, err) != 0 ||
        get_num(json_object_get(v, "s2"), "s2", &m->s2, err) != 0 ||
        get_int(v, "dof", 0, INT_MAX, &m->dof, err) != 0 ||
        get_bool(v, "has_interval", &m->has_interval, err) != 0 ||
        get_reals(v, "xmin", m->nvars, m->xmin, err) != 0 ||
        get_reals(v, "xmax", m->nvars, m->xmax, err) != 0)
        return -1;
    if ((o = json_object_get(v, "xunc")) != NULL &&
        (get_num(o, "xunc", &m->xunc, err) != 0 || m->xunc < 0))
        return fail(err, "xunc", "must be a finite number >= 0");
    if (json_object_get(v, "outliers") != NULL &&
        get_int(v, "outliers", 0, FIT_MAX_POINTS, &m->outliers, err) != 0)
        return -1;
    if ((o = json_object_get(v, "seg_x")) != NULL &&
        (get_num(o, "seg_x", &m->seg_x, err) != 0 || m->seg_x < 0))
        return fail(err, "seg_x", "must be a finite number >= 0");
    if ((o = json_object_get(v, "lean")) != NULL &&
        (get_num(o, "lean", &m->lean, err) != 0 || m->lean < 0 ||
         m->lean > FIT_LEAN_MAX || m->nvars != 1))
        return fail(err, "lean", "must be a number from 0 to 8, with one variable");
    _Static_assert(FIT_LEAN_MAX == 8, "the message above says 8");
    if (json_object_get(v, "positive") != NULL &&
        get_bool(v, "positive", &m->positive, err) != 0)
        return -1;
    if ((o = json_object_get(v, "folds")) != NULL) {
        struct err e2 = {0}; /* the key at fault is folds */
        size_t fi;
        if (!json_is_array(o) || json_array_size(o) < 1 ||
            json_array_size(o) > (size_t)m->nvars || m->nvars < 2)
            return fail(err, "folds",
                        "must be an array of 1 or 2 folds of a model of two "
                        "variables");
        for (fi = 0; fi < json_array_size(o); fi++) {
            json_t *f = json_array_get(o, fi);
            if (!json_is_object(f) ||
                only_keys(f, fold_keys, NULL, "model.folds", &e2) != 0 ||
                get_int(f, "var", 0, m->nvars - 1, &m->fold_v[fi], &e2) != 0 ||
                get_reals(f, "coef", m->nterms, m->fold_coef[fi], &e2) != 0)
                return fail(err, "folds",
                            "must hold {\"var\": 0 or 1, \"coef\": one number per term}");
        }
        m->fold_n = (int)json_array_size(o);
    }
    if ((o = json_object_get(v, "basis")) != NULL) {
        json_t *x = json_object_get(o, "x");
        const char *name = json_string_value(json_object_get(o, "name"));
        if (!json_is_object(o) ||
            only_keys(o, basis_keys, basis_optional, "model.basis", err) != 0)
            return fail(err, "basis", "must hold {\"name\", \"x\": [...], \"t\": [...]}");
        if (!json_is_array(x) || json_array_size(x) < 2 ||
            json_array_size(x) > FIT_BASIS_MAX)
            return fail(err, "basis", "must hold 2 to 64 points");
        m->basis.n = (int)json_array_size(x);
        if (name == NULL || strlen(name) == 0 || strlen(name) >= sizeof m->basis.name)
            return fail(err, "basis", "name must be a short identifier");
        memcpy(m->basis.name, name, strlen(name) + 1);
        if (get_reals(o, "x", m->basis.n, m->basis.x, err) != 0 ||
            get_reals(o, "t", m->basis.n, m->basis.t, err) != 0)
            return -1;
        m->basis.scale = m->basis.power = 1; /* absent: the curve at x itself */
        if (json_object_get(o, "scale") != NULL &&
            get_num(json_object_get(o, "scale"), "basis.scale", &m->basis.scale, err) !=
                0)
            return -1;
        if (json_object_get(o, "power") != NULL &&
            get_num(json_object_get(o, "power"), "basis.power", &m->basis.power, err) !=
                0)
            return -1;
    }
    terms = json_object_get(v, "terms");
    if (!json_is_array(terms) || json_array_size(terms) != (size_t)m->nterms)
        return fail(err, "terms", "must be an array of nterms terms");
    for (j = 0; j < m->nterms; j++) {
        json_t *t = json_array_get(terms, (size_t)j), *logp;
        if (!json_is_object(t) ||
            only_keys(t, term_keys, NULL, "model.terms", err) != 0 ||
            get_reals(t, "expo", m->nvars, m->term[j].expo, err) != 0)
            return fail(err, "terms", "must hold {\"expo\": [...], \"logp\": [...]}");
        logp = json_object_get(t, "logp");
        if (!json_is_array(logp) || json_array_size(logp) != (size_t)m->nvars)
            return fail(err, "terms", "logp must hold nvars integers");
        for (k = 0; k < m->nvars; k++) {
            json_t *x = json_array_get(logp, (size_t)k);
            if (!json_is_integer(x) || json_integer_value(x) < 0 ||
                json_integer_value(x) > 8)
                return fail(err, "terms", "logp must hold integers from 0 to 8");
            m->term[j].logp[k] = (int)json_integer_value(x);
        }
    }
    if (m->chosen == FIT_UNKNOWN || m->chosen == FIT_AUTO)
        return fail(err, "chosen", "must be one of the 12 graph types, normal or basis");
    if ((m->chosen == FIT_BASIS) != (m->basis.n > 0))
        return fail(err, "chosen", "is basis exactly when the model has a machine curve");
    return fit_model_check(m, err);
}

int fit_model_from_json(json_t *v, struct fit_model *out, struct err *err)
{
    memset(out, 0, sizeof *out);
    if (read_model(v, out, err) != 0) {
        memset(out, 0, sizeof *out);
        return -1;
    }
    return 0;
}

json_t *fit_x_json(const double *x, int nvars)
{
    json_t *a;
    if (nvars == 1)
        return json_real(x[0]);
    a = json_array();
    for (int v = 0; v < nvars; v++)
        json_array_append_new(a, json_real(x[v]));
    return a;
}

json_t *fit_prediction_json(const struct fit_model *m, const double *x, struct err *err)
{
    double y, lo, hi, reach;
    struct buf w;
    json_t *p;

    if (fit_predict_ext(m, x, &y, &lo, &hi, err) != 0)
        return NULL;
    reach = fit_extrapolation(m, x);
    p = json_pack("{s:o, s:f, s:f, s:f, s:b, s:f}", "x", fit_x_json(x, m->nvars), "y", y,
                  "lo", lo, "hi", hi, "interval", m->has_interval, "extrapolation",
                  isfinite(reach) ? reach : 0.0);
    if (p == NULL)
        return NULL;
    buf_init(&w, 4096);
    if (fit_warning(m, x, y, lo, hi, &w) > 0)
        json_object_set_new(p, "warning", json_string(buf_str(&w)));
    buf_free(&w);
    return p;
}
