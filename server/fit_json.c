/* fit_json: struct fit_model <-> JSON; see fit_json.h. */
#include "server/fit_json.h"

#include <math.h>
#include <string.h>

static json_t *reals(const double *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_real(v[i]));
    return a;
}

json_t *fit_model_to_json(const struct fit_model *m)
{
    json_t *terms = json_array();
    int j, v;

    for (j = 0; j < m->nterms; j++) {
        json_t *expo = reals(m->term[j].expo, m->nvars), *logp = json_array();
        for (v = 0; v < m->nvars; v++)
            json_array_append_new(logp, json_integer(m->term[j].logp[v]));
        json_array_append_new(terms, json_pack("{s:o, s:o}", "expo", expo, "log", logp));
    }
    return json_pack("{s:i, s:s, s:s, s:o, s:o, s:o, s:o, s:b, s:f, s:i, s:b, s:o, s:o}",
                     "nvars", m->nvars, "graph", fit_graph_name(m->graph), "chosen",
                     fit_graph_name(m->chosen), "terms", terms, "coef",
                     reals(m->coef, m->nterms), "scale", reals(m->scale, m->nterms), "r",
                     reals(m->r, m->nterms * m->nterms), "relative", m->relative, "s2",
                     m->s2, "dof", m->dof, "has_interval", m->has_interval, "xmin",
                     reals(m->xmin, m->nvars), "xmax", reals(m->xmax, m->nvars));
}

/* Reads exactly n finite numbers from the array a into out. */
static int read_reals(json_t *a, size_t n, double *out)
{
    size_t i;
    if (!json_is_array(a) || json_array_size(a) != n)
        return -1;
    for (i = 0; i < n; i++) {
        json_t *x = json_array_get(a, i);
        if (!json_is_number(x) || !isfinite(json_number_value(x)))
            return -1;
        out[i] = json_number_value(x);
    }
    return 0;
}

static int read_graph(json_t *v, enum fit_graph *g)
{
    struct err ignored = {0};
    if (!json_is_string(v))
        return -1;
    if (strcmp(json_string_value(v), "normal") == 0) {
        *g = FIT_NORMAL;
        return 0;
    }
    return fit_graph_parse(json_string_value(v), g, &ignored);
}

int fit_model_from_json(json_t *v, struct fit_model *m, struct err *err)
{
    json_t *terms, *t, *x;
    size_t j, k;
    int n;

    memset(m, 0, sizeof *m);
    if (!json_is_object(v))
        goto bad;
    x = json_object_get(v, "nvars");
    terms = json_object_get(v, "terms");
    if (!json_is_integer(x) || json_integer_value(x) < 1 ||
        json_integer_value(x) > FIT_MAX_VARS || !json_is_array(terms) ||
        json_array_size(terms) < 1 || json_array_size(terms) > FIT_MAX_TERMS)
        goto bad;
    m->nvars = (int)json_integer_value(x);
    m->nterms = n = (int)json_array_size(terms);
    json_array_foreach(terms, j, t)
    {
        json_t *logp = json_object_get(t, "log");
        if (read_reals(json_object_get(t, "expo"), (size_t)m->nvars, m->term[j].expo) ||
            !json_is_array(logp) || json_array_size(logp) != (size_t)m->nvars)
            goto bad;
        for (k = 0; k < (size_t)m->nvars; k++) {
            json_t *p = json_array_get(logp, k);
            if (!json_is_integer(p) || json_integer_value(p) < 0 ||
                json_integer_value(p) > 8)
                goto bad;
            m->term[j].logp[k] = (int)json_integer_value(p);
        }
    }
    if (read_graph(json_object_get(v, "graph"), &m->graph) ||
        read_graph(json_object_get(v, "chosen"), &m->chosen) ||
        read_reals(json_object_get(v, "coef"), (size_t)n, m->coef) ||
        read_reals(json_object_get(v, "scale"), (size_t)n, m->scale) ||
        read_reals(json_object_get(v, "r"), (size_t)(n * n), m->r) ||
        read_reals(json_object_get(v, "xmin"), (size_t)m->nvars, m->xmin) ||
        read_reals(json_object_get(v, "xmax"), (size_t)m->nvars, m->xmax))
        goto bad;
    x = json_object_get(v, "s2");
    if (!json_is_number(x))
        goto bad;
    m->s2 = json_number_value(x);
    x = json_object_get(v, "dof");
    if (!json_is_integer(x) || json_integer_value(x) < 0 || json_integer_value(x) > 1e9)
        goto bad;
    m->dof = (int)json_integer_value(x);
    if (!json_is_boolean(json_object_get(v, "relative")) ||
        !json_is_boolean(json_object_get(v, "has_interval")))
        goto bad;
    m->relative = json_is_true(json_object_get(v, "relative"));
    m->has_interval = json_is_true(json_object_get(v, "has_interval"));
    return fit_model_check(m, err);
bad:
    return err_invalid(err, "model", "the stored model state is malformed");
}
