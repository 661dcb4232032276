/* api_models: the generic layer over the three modeling methods
 * (server/modeling.h): building a model over HTTP, saving it, plots at stable
 * URLs, and predictions from saved models or in one call (SPEC §5, §5.4, §6).
 *
 *   POST /api/v1/{fit,parameterize,couple}   build; "save": true stores it (token)
 *   POST /api/v1/suggest                     where to measure next (a fit's request)
 *   GET  /api/v1/models, /api/v1/models/{id} saved models
 *   GET  /api/v1/models/{id}/predict?N=1200  evaluate a saved model
 *   GET  /api/v1/predict?method=fit&...      build and evaluate in one call
 *   GET  /plots/model-{id}.svg               the plot of a saved model
 *   GET  /plots/{method}.svg?request=JSON    the plot of an unsaved request
 *
 * A saved model is its request and its answer, both stored as JSON; it is
 * never re-fitted, so it answers the same tomorrow whatever runs arrive.
 */
#include "common/xalloc.h"
#include "formats/limits.h"
#include "formats/json.h"
#include "server/modeling.h"
#include "server/routes.h"
#include "web/html.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Longest request that is put into an unsaved model's plot URL; larger ones
 * get "plot": null (save the model to get a plot URL). */
#define PLOT_URL_MAX_REQUEST 6000
#define SAVED_PLOT_CACHE "public, max-age=86400"

/* Runs the method's answer on a pooled read connection. */
static json_t *build(struct req *r, const struct method *m, json_t *request,
                     struct err *e)
{
    db *d = db_pool_get(r->app->pool);
    json_t *ans = m->answer(d, request, e);
    db_pool_put(r->app->pool, d);
    return ans;
}

const char *model_plot_url(struct req *r, const struct method *m, json_t *request)
{
    char *text = json_dumps(request, JSON_COMPACT | JSON_SORT_KEYS);
    struct buf b;
    const char *url = NULL;

    if (text != NULL && strlen(text) <= PLOT_URL_MAX_REQUEST) {
        buf_init(&b, 4 * PLOT_URL_MAX_REQUEST);
        buf_printf(&b, "/plots/%s.svg?request=", m->name);
        web_url_encode(&b, text);
        if (!buf_failed(&b))
            url = arena_strdup(r->arena, buf_str(&b));
        buf_free(&b);
    }
    free(text);
    return url;
}

/* The string at v.k1(.k2), or NULL. */
static const char *str_at(json_t *v, const char *k1, const char *k2)
{
    json_t *x = json_object_get(v, k1);
    if (k2 != NULL)
        x = json_object_get(x, k2);
    return json_string_value(x);
}

/* Runs when the write is done: frees the texts, lets the caller answer, then
 * drops the answer. */
static int save_done(struct req *r)
{
    struct model_save *s = r->ctx;
    int rc;

    catalog_model_release(&s->c);
    rc = s->finish(r);
    json_decref(s->answer);
    s->answer = NULL;
    return rc;
}

int model_save(struct req *r, const struct method *m, json_t *request, json_t *answer,
               const char *name, handler_fn finish, void *user, struct err *err)
{
    struct model_save *s = arena_alloc(r->arena, sizeof *s);

    if (s == NULL) {
        json_decref(answer);
        return err_nomem(err);
    }
    memset(s, 0, sizeof *s);
    s->m = m;
    s->answer = answer;
    s->finish = finish;
    s->user = user;
    if (catalog_model_prepare(&s->c, m->name, request, answer, name, r->arena, err) !=
        0) {
        json_decref(answer);
        return -1;
    }
    r->ctx = s;
    return http_defer_write(r, catalog_model_save_job, &s->c, save_done);
}

/* The JSON API's answer once a model is stored: 201 with the answer, its id,
 * plot and page. */
static int api_saved(struct req *r)
{
    struct model_save *s = r->ctx;
    json_t *ans = s->answer;

    if (r->job.rc != 0)
        return http_error(r, &r->job.err);
    json_object_set_new(ans, "id", json_integer(s->c.id));
    json_object_set_new(
        ans, "plot",
        json_string(arena_printf(r->arena, "/plots/model-%lld.svg", s->c.id)));
    json_object_set_new(ans, "url",
                        json_string(arena_printf(r->arena, "/models/%lld", s->c.id)));
    return http_json(r, 201, json_incref(ans));
}

int api_model_post(struct req *r)
{
    struct err e = {0};
    const char *slash = strrchr(r->path, '/');
    const struct method *m = method_find(slash ? slash + 1 : NULL);
    json_t *body = http_body_json(r, &e), *save, *ans, *name;
    const char *url, *name_text;
    int rc;

    if (m == NULL) /* the route table only sends the three methods here */
        err_set(&e, ERR_NOT_FOUND, "not_found", NULL, "no such modeling method");
    if (body == NULL || m == NULL)
        return http_error(r, &e);
    save = json_object_get(body, "save");
    if (save != NULL && !json_is_boolean(save)) {
        json_decref(body);
        err_invalid(&e, "save", "save must be true or false");
        return http_error(r, &e);
    }
    if (json_is_true(save) && http_require_token(r, &e) != 0) {
        json_decref(body);
        return http_error(r, &e);
    }
    /* "name" (optional, with save) names the stored model; like "save" it
     * is not part of the modeling request. */
    name = json_object_get(body, "name");
    if (name != NULL &&
        (!json_is_string(name) || !json_is_true(save) ||
         json_check_name(json_string_value(name), json_string_length(name), "name",
                         LIMIT_NAME, &e) != 0)) {
        json_decref(body);
        err_invalid(&e, "name", "name must be a string of 1 to %d bytes, with save",
                    LIMIT_NAME);
        return http_error(r, &e);
    }
    name_text = name ? arena_strdup(r->arena, json_string_value(name)) : NULL;
    json_object_del(body, "name");
    save = json_incref(save);
    json_object_del(body, "save");
    ans = build(r, m, body, &e);
    if (ans == NULL) {
        json_decref(save);
        json_decref(body);
        return http_error(r, &e);
    }
    if (!json_is_true(save)) {
        url = model_plot_url(r, m, body);
        json_object_set_new(ans, "plot", url ? json_string(url) : json_null());
        json_decref(save);
        json_decref(body);
        return http_json(r, 200, ans);
    }
    json_decref(save);
    rc = model_save(r, m, body, ans, name_text, api_saved, NULL, &e);
    json_decref(body);
    return rc == 0 ? 0 : http_error(r, &e);
}

/* POST /api/v1/suggest: where to measure next (core/method_fit.h). */
int api_suggest(struct req *r)
{
    struct err e = {0};
    json_t *body = http_body_json(r, &e), *ans;
    db *d;

    if (body == NULL)
        return http_error(r, &e);
    d = db_pool_get(r->app->pool);
    ans = fit_suggest_answer(d, body, &e);
    db_pool_put(r->app->pool, d);
    json_decref(body);
    return ans ? http_json(r, 200, ans) : http_error(r, &e);
}

/* ---- saved models ------------------------------------------------------------ */

int api_models_list(struct req *r)
{
    struct err e = {0};
    db *d = db_pool_get(r->app->pool);
    json_t *v = catalog_models_answer(d, &e);
    db_pool_put(r->app->pool, d);
    if (v == NULL)
        return http_error(r, &e);
    return http_json(r, 200, v);
}

/* Parses a model id ("12"); 0 when it is not one. */
static long long model_id(const char *s)
{
    char *end;
    long long id;
    errno = 0;
    id = strtoll(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE || id < 1)
        return 0;
    return id;
}

/* Loads saved model `id` (new reference), or NULL with err (404 when absent). */
static json_t *load_model(struct req *r, long long id, struct err *e)
{
    db *d = db_pool_get(r->app->pool);
    json_t *v = catalog_model_answer(d, id, e);
    db_pool_put(r->app->pool, d);
    return v;
}

int api_model_get(struct req *r)
{
    struct err e = {0};
    json_t *v = load_model(r, model_id(r->params[0]), &e);
    if (v == NULL)
        return http_error(r, &e);
    json_object_set_new(
        v, "plot",
        json_string(arena_printf(r->arena, "/plots/model-%s.svg", r->params[0])));
    return http_json(r, 200, v);
}

/* Converts the query object's values to numbers (the point of a prediction),
 * skipping the keys in `skip` (NULL-terminated). */
static json_t *point_of(json_t *query, const char *const *skip, struct err *e)
{
    json_t *point = json_object(), *v;
    const char *key;

    json_object_foreach(query, key, v)
    {
        const char *s = json_string_value(v);
        double x;
        int skipped = 0;
        for (size_t i = 0; skip && skip[i]; i++)
            skipped |= strcmp(key, skip[i]) == 0;
        if (skipped)
            continue;
        if (json_parse_decimal(s, key, &x, e) != 0) {
            json_decref(point);
            return NULL;
        }
        json_object_set_new(point, key, json_real(x));
    }
    return point;
}

int api_model_predict(struct req *r)
{
    struct err e = {0};
    long long id = model_id(r->params[0]);
    json_t *model = load_model(r, id, &e), *query = NULL, *point = NULL, *out = NULL;
    const struct method *m = NULL;

    if (model != NULL && (m = method_find(str_at(model, "method", NULL))) == NULL)
        err_set(&e, ERR_INTERNAL, "internal", NULL, "model %lld has an unknown method",
                id);
    if (m != NULL && (query = http_query_object(r, &e)) != NULL &&
        (point = point_of(query, NULL, &e)) != NULL)
        out = m->predict(json_object_get(model, "result"), point, &e);
    json_decref(point);
    json_decref(query);
    json_decref(model);
    if (out == NULL)
        return http_error(r, &e);
    json_object_set_new(out, "model", json_integer(id));
    json_object_set_new(out, "method", json_string(m->name));
    return http_json(r, 200, out);
}

/* ---- build and predict in one call ------------------------------------------------ */

/* The string-valued query keys of each method's request; every other key is
 * a variable: its value is the prediction point when it is the model's x,
 * else a fixed value (fit, couple) or a variable (parameterize). */
/* The string parameters of each method's one-call form, in the order
 * fit, parameterize, couple (method_index). */
static const char *const string_keys[][10] = {
    {"method", "range", "application", "executable", "system", "x", "graph", "y",
     "aggregate", NULL},
    {"method", "range", "template", "expression", "system", "application", NULL},
    {"method", "range", "application", "executable", "system", "x", NULL},
};

static size_t method_index(const struct method *m)
{
    return strcmp(m->name, "fit") == 0 ? 0 : strcmp(m->name, "parameterize") == 0 ? 1 : 2;
}

/* "range=100,1000" -> [100, 1000]; NULL with err when malformed. */
static json_t *range_of(const char *s, struct err *e)
{
    const char *comma = strchr(s, ',');
    struct err ignored = {0};
    char lo_text[64];
    double lo, hi;

    /* Decimal numbers only, like every other number of the query. */
    if (comma == NULL || (size_t)(comma - s) >= sizeof lo_text)
        goto bad;
    memcpy(lo_text, s, (size_t)(comma - s));
    lo_text[comma - s] = '\0';
    if (json_parse_decimal(lo_text, "range", &lo, &ignored) != 0 ||
        json_parse_decimal(comma + 1, "range", &hi, &ignored) != 0)
        goto bad;
    return json_pack("[f, f]", lo, hi);
bad:
    err_invalid(e, "range", "range must be MIN,MAX");
    return NULL;
}

/* Builds the method's request from the query string. */
static json_t *request_of(const struct method *m, json_t *query, struct err *e)
{
    size_t mi = method_index(m);
    const char *x = str_at(query, "x", NULL);
    json_t *req = json_object(), *point, *v;

    for (size_t i = 2; string_keys[mi][i]; i++)
        if ((v = json_object_get(query, string_keys[mi][i])) != NULL)
            json_object_set(req, string_keys[mi][i], v);
    if ((v = json_object_get(query, "range")) != NULL) {
        json_t *range = mi == 1 ? NULL : range_of(json_string_value(v), e);
        if (range == NULL) {
            if (mi == 1)
                err_invalid(e, "range", "parameterize takes ranges in vars, not range");
            json_decref(req);
            return NULL;
        }
        json_object_set_new(req, "range", range);
    }
    if ((point = point_of(query, string_keys[mi], e)) == NULL) {
        json_decref(req);
        return NULL;
    }
    if (mi == 1) { /* parameterize: every number is a variable */
        json_object_set_new(req, "vars", point);
        return req;
    }
    if (x == NULL)
        x = "nprocs";
    if ((v = json_object_get(point, x)) == NULL) {
        json_decref(point);
        json_decref(req);
        err_invalid(e, x, "give the value of %s to predict at", x);
        return NULL;
    }
    json_object_set_new(req, "predict", json_pack("[O]", v));
    json_object_del(point, x);
    if (json_object_size(point) > 0)
        json_object_set(req, "fixed", point);
    json_decref(point);
    return req;
}

int api_predict(struct req *r)
{
    struct err e = {0};
    json_t *query = http_query_object(r, &e), *req = NULL, *ans = NULL, *out = NULL, *p;
    const char *name = query ? str_at(query, "method", NULL) : NULL;
    const struct method *m = method_find(name ? name : "fit");

    if (query != NULL && m == NULL)
        err_invalid(&e, "method", "method must be fit, parameterize or couple");
    if (m != NULL && query != NULL && (req = request_of(m, query, &e)) != NULL)
        ans = build(r, m, req, &e);
    if (ans != NULL) {
        p = json_array_get(json_object_get(ans, "predictions"), 0);
        if (p != NULL)
            out = json_deep_copy(p);
        else if (json_is_number(json_object_get(ans, "value")))
            out = json_pack("{s:O, s:O}", "x", json_object_get(req, "vars"), "y",
                            json_object_get(ans, "value"));
        else
            err_invalid(&e, NULL, "the request gives no point to predict at");
    }
    if (out != NULL) {
        const char *f = str_at(ans, "model", "formula");
        json_object_set_new(out, "method", json_string(m->name));
        f = f ? f : str_at(ans, "formula", NULL);
        f = f ? f : str_at(ans, "parsed", NULL);
        if (f != NULL)
            json_object_set_new(out, "formula", json_string(f));
        json_object_set_new(out, "request", json_incref(req));
    }
    json_decref(ans);
    json_decref(req);
    json_decref(query);
    if (out == NULL)
        return http_error(r, &e);
    return http_json(r, 200, out);
}

/* ---- plots ------------------------------------------------------------------- */

static int svg_answer(struct req *r, const struct method *m, json_t *ans, int saved)
{
    struct err e = {0};
    struct buf b;
    char *text;
    size_t len;

    buf_init(&b, 16u << 20);
    if (m->plot(ans, &b, &e) != 0) {
        buf_free(&b);
        return http_error(r, &e);
    }
    text = buf_detach(&b, &len);
    if (text == NULL) {
        err_nomem(&e);
        return http_error(r, &e);
    }
    if (saved) {
        r->extra_header[0] = "Cache-Control";
        r->extra_header[1] = SAVED_PLOT_CACHE;
    }
    http_body(r, 200, "image/svg+xml", text, len);
    r->resp_free = 1; /* text is malloc'd */
    return 0;
}

int api_plot(struct req *r)
{
    struct err e = {0};
    const char *seg = r->params[0], *dot = strrchr(seg, '.');
    json_t *model, *req, *ans;
    const struct method *m;
    const char *text;
    char name[32];
    int rc;

    if (dot == NULL || strcmp(dot, ".svg") != 0 || (size_t)(dot - seg) >= sizeof name) {
        err_set(&e, ERR_NOT_FOUND, "not_found", NULL, "no such plot");
        return http_error(r, &e);
    }
    memcpy(name, seg, (size_t)(dot - seg));
    name[dot - seg] = '\0';
    if (strncmp(name, "run-", 4) == 0)
        return api_trace_plot(r, name + 4);
    if (http_query(r, "width") != NULL) {
        err_set(&e, ERR_BAD_REQUEST, "bad_parameter", "width",
                "width is a trace timeline's parameter");
        return http_error(r, &e);
    }
    if (strncmp(name, "model-", 6) == 0) {
        if ((model = load_model(r, model_id(name + 6), &e)) == NULL)
            return http_error(r, &e);
        m = method_find(str_at(model, "method", NULL));
        if (m == NULL) {
            json_decref(model);
            err_set(&e, ERR_INTERNAL, "internal", NULL,
                    "the model has an unknown method");
            return http_error(r, &e);
        }
        rc = svg_answer(r, m, json_object_get(model, "result"), 1);
        json_decref(model);
        return rc;
    }
    if ((m = method_find(name)) == NULL) {
        err_set(&e, ERR_NOT_FOUND, "not_found", NULL, "no such plot");
        return http_error(r, &e);
    }
    text = http_query(r, "request");
    if (text == NULL || strlen(text) > PLOT_URL_MAX_REQUEST) {
        err_invalid(&e, "request",
                    "request must be the model request as JSON (at most %d "
                    "bytes)",
                    PLOT_URL_MAX_REQUEST);
        return http_error(r, &e);
    }
    req = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
    if (!json_is_object(req) || json_object_get(req, "save") != NULL) {
        json_decref(req);
        err_invalid(&e, "request", "request must be a JSON object without \"save\"");
        return http_error(r, &e);
    }
    ans = build(r, m, req, &e);
    json_decref(req);
    if (ans == NULL)
        return http_error(r, &e);
    rc = svg_answer(r, m, ans, 0);
    json_decref(ans);
    return rc;
}
