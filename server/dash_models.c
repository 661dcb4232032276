/* dash_models: the adapters of saved models (/models, /models/{id}). A
 * saved model is its stored request and answer (server/modeling.h); the page
 * never re-fits. The prediction asked in the query comes from the method's
 * predict function, method_find(method)->predict, as GET
 * /api/v1/models/{id}/predict does; whether the model has a plot (the <img>
 * of /plots/model-{id}.svg, when the route table serves that URL) is known by
 * rendering it once here, so the page never links an image that would fail.
 * The page itself is web/view_models.c. */
#include "common/utf8.h"
#include "core/watch.h"
#include "core/catalog_read.h"
#include "formats/json.h"
#include "server/api_error.h"
#include "server/dash.h"
#include "server/modeling.h"
#include "server/routes.h"
#include "web/view.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_VARS 8

static const char *str(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : "";
}

int page_models(struct req *r)
{
    struct err e = {0};
    struct page p;
    json_t *list;
    db *d = db_pool_get(r->app->pool);

    list = catalog_models_answer(d, &e);
    db_pool_put(r->app->pool, d);
    if (list == NULL)
        return dash_error(r, &e);
    dash_begin(&p, r, "Saved models", "models");
    view_models(&p, json_object_get(list, "models"));
    json_decref(list);
    return dash_end(r, &p, 200);
}

/* The variables a saved model is evaluated over: the answer's "vars" (an
 * array of names), else the request's "vars" (object keys or names), else
 * its "x", else "x". */
static size_t model_vars(json_t *request, json_t *answer, const char **out)
{
    json_t *v = json_object_get(answer, "vars"), *x;
    const char *key;
    size_t n = 0, i;
    if (!json_is_array(v))
        v = json_object_get(request, "vars");
    if (json_is_array(v)) {
        json_array_foreach(v, i, x) if (json_is_string(x) && n < MAX_VARS) out[n++] =
            json_string_value(x);
    } else if (json_is_object(v)) {
        json_object_foreach(v, key, x) if (n < MAX_VARS) out[n++] = key;
    }
    if (n == 0)
        out[n++] = json_is_string(json_object_get(request, "x"))
                       ? json_string_value(json_object_get(request, "x"))
                       : "x";
    return n;
}

/* Reads the point from the query string. Returns 1 when every variable was
 * given, 0 when none was (no prediction asked), -1 with err naming the
 * variable at fault. */
static int query_point(struct req *r, const char **vars, size_t nv, json_t *point,
                       struct err *err)
{
    size_t i, given = 0;
    for (i = 0; i < nv; i++) {
        const char *s = http_query(r, vars[i]);
        double x;
        if (s == NULL || *s == '\0')
            continue;
        /* the API's own rule (GET /api/v1/models/{id}/predict): a decimal
         * number, no hex, inf or nan; strtod took 0x10 for 16 */
        if (json_parse_decimal(s, vars[i], &x, err) != 0)
            return -1;
        json_object_set_new(point, vars[i], json_real(x));
        given++;
    }
    if (given == 0)
        return 0;
    if (given < nv) {
        for (i = 0; i < nv && json_object_get(point, vars[i]); i++)
            ;
        return err_invalid(err, vars[i], "give a value for %.64s too", vars[i]);
    }
    return 1;
}

/* Why the answer cannot be plotted (arena), or NULL when it can. */
static const char *plot_error(struct req *r, const struct method *m, json_t *answer)
{
    struct err e = {0};
    struct buf svg;
    int ok;
    buf_init(&svg, 16u << 20);
    ok = m->plot(answer, &svg, &e) == 0;
    buf_free(&svg);
    return ok ? NULL : arena_strdup(r->arena, e.message);
}

int page_model(struct req *r)
{
    struct err e = {0}, pe = {0};
    struct view_model v = {0};
    struct page p;
    const struct method *meth;
    const char *vars[MAX_VARS], *values[MAX_VARS];
    json_t *m, *request, *answer, *point = NULL;
    char *end, title[96], url[64];
    long long id;
    size_t i;
    db *d;

    errno = 0;
    id = strtoll(r->params[0], &end, 10);
    if (*end != '\0' || errno == ERANGE || id < 1) {
        err_set(&e, ERR_NOT_FOUND, "not_found", NULL, "no model with id %.40s",
                r->params[0]);
        return dash_error(r, &e);
    }
    d = db_pool_get(r->app->pool);
    m = catalog_model_answer(d, id, &e);
    /* The ledger is part of the page when it can be read; a model that has
     * never watched anything gets an empty one (and the hint to watch it). */
    v.ledger = m ? watch_ledger(d, id, &pe) : NULL;
    memset(&pe, 0, sizeof pe);
    db_pool_put(r->app->pool, d);
    if (m == NULL)
        return dash_error(r, &e);
    request = json_object_get(m, "request");
    answer = json_object_get(m, "result");
    meth = method_find(str(m, "method"));
    v.id = id;
    v.model = m;
    snprintf(url, sizeof url, "/plots/model-%lld.svg", id);
    if (meth != NULL && meth->plot != NULL && routes_serves("GET", url)) {
        v.plot_error = plot_error(r, meth, answer);
        if (v.plot_error == NULL)
            v.plot_url = url;
    }
    if (meth != NULL && meth->predict != NULL) {
        v.predictable = 1;
        v.nvars = model_vars(request, answer, vars);
        for (i = 0; i < v.nvars; i++)
            values[i] = http_query(r, vars[i]);
        v.vars = vars;
        v.values = values;
        point = json_object();
        v.asked = query_point(r, vars, v.nvars, point, &pe) == 1;
        if (v.asked)
            v.prediction = meth->predict(answer, point, &pe);
        v.error = pe.status ? &pe : NULL;
    }
    if (json_is_string(json_object_get(m, "name"))) {
        char name[61];
        snprintf(name, sizeof name, "%s", json_string_value(json_object_get(m, "name")));
        utf8_cut(name); /* a long name is cut between characters */
        snprintf(title, sizeof title, "%s (model %lld)", name, id);
    } else
        snprintf(title, sizeof title, "Model %lld", id);
    dash_begin(&p, r, title, "models");
    view_model(&p, &v);
    json_decref(v.prediction);
    json_decref(v.ledger);
    json_decref(point);
    json_decref(m);
    /* a prediction that cannot be made answers the status the API's predict
     * answers (422), as the modeling forms' errors do, the page still shown */
    return dash_end(r, &p, v.error ? api_error_status(v.error->status) : 200);
}
