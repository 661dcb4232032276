/* form_configs: what the forms offer, read through core/form_data.h: the
 * configurations, their variables and values, the run's names, the graph
 * types; see form.h. */
#include "web/form.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

json_t *forms_keep(struct fctx *c, json_t *v)
{
    if (v != NULL)
        json_array_append_new(c->keep, v);
    return v;
}

int forms_configs(struct fctx *c, long long app_id, long long system_id,
                  struct fconf **out, struct err *err)
{
    struct form_config *cfgs;
    struct fconf *f;
    int n = form_data_configs(c->store, app_id, system_id, FORMS_MAX_CONFIGS, c->arena,
                              &cfgs, err);
    int i;
    if (n < 0)
        return -1;
    f = arena_alloc(c->arena, ((size_t)n + 1) * sizeof *f);
    if (f == NULL)
        return err_nomem(err);
    for (i = 0; i < n; i++) {
        f[i].c = &cfgs[i];
        f[i].inputs = forms_keep(c, json_loads(cfgs[i].inputs_json, 0, NULL));
        if (!json_is_object(f[i].inputs))
            f[i].inputs = NULL;
    }
    *out = f;
    return n;
}

json_t *forms_list(struct fctx *c, enum form_list which, const char *app, const char *sys,
                   struct err *err)
{
    return forms_keep(c, form_data_list(c->store, which, app, sys, err));
}

int fconf_match(const struct fconf *f, const char *exe, const char *sys)
{
    return (exe == NULL || strcmp(f->c->executable, exe) == 0) &&
           (sys == NULL || strcmp(f->c->system, sys) == 0);
}

int fconf_var(const struct fconf *f, const char *var, double *out)
{
    json_t *v;
    if (strcmp(var, "nprocs") == 0) {
        *out = (double)f->c->nprocs;
        return 1;
    }
    v = json_object_get(f->inputs, var);
    if (!json_is_number(v))
        return 0;
    *out = json_number_value(v);
    return 1;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

size_t forms_vars(const struct fconf *cf, int n, const char *exe, const char *sys,
                  const char **out, size_t max)
{
    size_t nv = 0, j;
    int i;
    const char *key;
    json_t *v;
    if (max == 0)
        return 0;
    out[nv++] = "nprocs";
    for (i = 0; i < n; i++) {
        if (!fconf_match(&cf[i], exe, sys))
            continue;
        json_object_foreach(cf[i].inputs, key, v)
        {
            for (j = 1; j < nv && strcmp(out[j], key) != 0; j++)
                ;
            if (j == nv && nv < max && strcmp(key, "nprocs") != 0)
                out[nv++] = key;
        }
    }
    qsort(out + 1, nv - 1, sizeof *out, cmp_str);
    return nv;
}

static int cmp_fval(const void *a, const void *b)
{
    const struct fval *x = a, *y = b;
    return x->v < y->v ? -1 : x->v > y->v ? 1 : 0;
}

size_t forms_values(const struct fconf *cf, int n, const char *exe, const char *sys,
                    const char *var, struct fval *out, size_t max, int *more)
{
    size_t nv = 0, j;
    int i;
    *more = 0;
    for (i = 0; i < n; i++) {
        double x;
        if (!fconf_match(&cf[i], exe, sys) || !fconf_var(&cf[i], var, &x))
            continue;
        for (j = 0; j < nv && out[j].v != x; j++)
            ;
        if (j < nv) {
            out[j].runs += cf[i].c->runs;
        } else if (nv < max) {
            out[nv].v = x;
            out[nv].runs = cf[i].c->runs;
            nv++;
        } else {
            *more = 1;
        }
    }
    qsort(out, nv, sizeof *out, cmp_fval);
    return nv;
}

int forms_axis_varies(struct fctx *c, const struct fconf *cf, int n, const char *exe,
                      const char *sys, const char *var, const char *field,
                      struct err *err)
{
    struct fval *vals = arena_alloc(c->arena, 2 * sizeof *vals);
    int more;
    if (vals == NULL)
        return err_nomem(err);
    if (forms_values(cf, n, exe, sys, var, vals, 2, &more) < 2)
        return err_invalid(err, field,
                           "these runs were measured at one value of %.200s only; an "
                           "axis needs two or more: choose a variable they vary",
                           var);
    return 0;
}

const char **forms_var_labels(struct fctx *c, const struct fconf *cf, int n,
                              const char *exe, const char *sys, const char *const *vars,
                              size_t nvars)
{
    const char **labels = arena_alloc(c->arena, (nvars + 1) * sizeof *labels);
    struct fval *vals = arena_alloc(c->arena, FORMS_MAX_VALUES * sizeof *vals);
    int more;
    if (labels == NULL || vals == NULL)
        return NULL;
    for (size_t i = 0; i < nvars; i++) {
        size_t nv = forms_values(cf, n, exe, sys, vars[i], vals, FORMS_MAX_VALUES, &more);
        labels[i] = arena_printf(c->arena, "%s (%s, %s%zu value%s)", vars[i],
                                 i == 0 ? "processors" : "input", more ? "over " : "", nv,
                                 nv == 1 && !more ? "" : "s");
    }
    return labels;
}

double forms_common(const struct fval *v, size_t n)
{
    size_t i, best = 0;
    if (n == 0)
        return NAN;
    for (i = 1; i < n; i++)
        if (v[i].runs > v[best].runs)
            best = i;
    return v[best].v;
}

json_t *forms_names(struct fctx *c, const struct fconf *cf, int n, const char *exe,
                    const char *sys, const char *what, struct err *err)
{
    long long *ids = arena_alloc(c->arena, ((size_t)n + 1) * sizeof *ids);
    size_t nids = 0;
    int k;

    if (ids == NULL) {
        err_nomem(err);
        return NULL;
    }
    for (k = 0; k < n; k++)
        if (fconf_match(&cf[k], exe, sys))
            ids[nids++] = cf[k].c->last_run_id;
    return forms_keep(c, form_data_names(c->store, ids, nids, what, err));
}

const char *const forms_graphs[FORMS_NGRAPHS] = {
    "unknown", "auto", "poly1", "poly2", "poly3", "poly4", "poly5",
    "poly6",   "inv1", "inv2",  "inv3",  "inv4",  "inv5",  "inv6"};
const char *const forms_graph_labels[FORMS_NGRAPHS] = {
    "unknown: the best of the 12 (least residual norm)",
    "auto: cross-validated normal form",
    "linear",
    "quadratic",
    "cubic",
    "4th degree",
    "5th degree",
    "6th degree",
    "inverse linear",
    "inverse quadratic",
    "inverse cubic",
    "inverse 4th",
    "inverse 5th",
    "inverse 6th"};

int forms_graph_ok(const char *g)
{
    int i;
    for (i = 0; g && i < FORMS_NGRAPHS; i++)
        if (strcmp(g, forms_graphs[i]) == 0)
            return 1;
    return 0;
}

static int word_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           (ch >= '0' && ch <= '9') || ch == '_';
}

int forms_mentions(const char *text, const char *word)
{
    size_t n = strlen(word);
    const char *p = text;
    if (n == 0)
        return 0;
    while ((p = strstr(p, word)) != NULL) {
        if ((p == text || !word_char(p[-1])) && !word_char(p[n]))
            return 1;
        p++;
    }
    return 0;
}

const char *forms_str(json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

int forms_in_list(json_t *list, const char *name)
{
    size_t i;
    json_t *x;
    json_array_foreach(list, i, x)
    {
        const char *n = forms_str(x, "name");
        if (name && n && strcmp(n, name) == 0)
            return 1;
    }
    return 0;
}

const char *forms_default_x(struct fctx *c, const struct fconf *cf, int n,
                            const char *exe, const char *sys, const char *const *vars,
                            size_t nvars)
{
    struct fval *vals = arena_alloc(c->arena, FORMS_MAX_VALUES * sizeof *vals);
    const char *best = "nprocs";
    size_t most = 0;
    int more;

    for (size_t i = 0; vals != NULL && i < nvars; i++) {
        size_t nv = forms_values(cf, n, exe, sys, vars[i], vals, FORMS_MAX_VALUES, &more);
        if (i == 0 && nv >= FORMS_CURVE_VALUES)
            return best;
        if (nv > most) {
            most = nv;
            best = vars[i];
        }
    }
    return best;
}
