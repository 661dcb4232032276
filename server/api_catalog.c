/* api_catalog: applications, systems, benchmarks, system parameters,
 * templates, couplings and saved models over the JSON API (SPEC §4).
 *
 * Each write validates its whole body first, then runs as one writer job, so
 * a rejected request stores nothing.
 */
#include "core/catalog.h"
#include "core/catalog_read.h"
#include "server/routes.h"
#include "formats/rundoc.h"
#include "formats/validate.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- shared helpers ---------------------------------------------------------- */

/* Runs a read of core/catalog_read with a pooled connection and answers
 * with its JSON. */
static int read_json(struct req *r, json_t *(*fn)(db *, struct req *, struct err *))
{
    struct err e = {0};
    db *d = db_pool_get(r->app->pool);
    json_t *v = fn(d, r, &e);
    db_pool_put(r->app->pool, d);
    if (v == NULL)
        return http_error(r, &e);
    return http_json(r, 200, v);
}

/* A write whose answer is known before it runs: ctx holds the answer. */
struct simple_write {
    int (*fn)(db *d, void *arg, struct err *err);
    void *arg;
    json_t *answer;
    int status;
};

static int simple_job(db *d, void *arg, struct err *err)
{
    struct simple_write *w = arg;
    return w->fn(d, w->arg, err);
}

static int simple_finish(struct req *r)
{
    struct simple_write *w = r->ctx;
    if (r->job.rc != 0) {
        json_decref(w->answer);
        return http_error(r, &r->job.err);
    }
    return http_json(r, w->status, w->answer);
}

static int defer_simple(struct req *r, int (*fn)(db *, void *, struct err *), void *arg,
                        int status, json_t *answer)
{
    struct simple_write *w = arena_alloc(r->arena, sizeof *w);
    struct err e = {0};
    if (w == NULL) {
        json_decref(answer);
        err_nomem(&e);
        return http_error(r, &e);
    }
    w->fn = fn;
    w->arg = arg;
    w->answer = answer;
    w->status = status;
    r->ctx = w;
    return http_defer_write(r, simple_job, w, simple_finish);
}

/* Parses the JSON body into a zeroed arena struct of `size` bytes with check.
 * Returns the struct, or NULL after answering the error (the handler then
 * returns 0). The body is released either way: check copies what it keeps
 * into the arena. */
static void *checked_body(struct req *r, size_t size,
                          int (*check)(json_t *body, struct req *r, void *out,
                                       struct err *err))
{
    struct err e = {0};
    json_t *body = http_body_json(r, &e);
    void *out = NULL;

    if (body != NULL) {
        out = arena_alloc(r->arena, size);
        if (out == NULL)
            err_nomem(&e);
        else if (check(body, r, out, &e) != 0)
            out = NULL;
        json_decref(body);
    }
    if (out == NULL)
        http_error(r, &e);
    return out;
}

/* ---- applications and systems -------------------------------------------------- */

static json_t *apps(db *d, struct req *r, struct err *err)
{
    (void)r;
    return catalog_apps_answer(d, err);
}

static json_t *systems(db *d, struct req *r, struct err *err)
{
    (void)r;
    return catalog_systems_answer(d, err);
}

static json_t *app(db *d, struct req *r, struct err *err)
{
    return catalog_app_answer(d, r->params[0], err);
}

static json_t *system_one(db *d, struct req *r, struct err *err)
{
    return catalog_system_answer(d, r->params[0], err);
}

int api_apps_list(struct req *r)
{
    return read_json(r, apps);
}

int api_app_get(struct req *r)
{
    return read_json(r, app);
}

int api_systems_list(struct req *r)
{
    return read_json(r, systems);
}

int api_system_get(struct req *r)
{
    return read_json(r, system_one);
}

/* Owns body: it is kept alive by the answer until the response is sent. */
static int put_entity(struct req *r, const char *const *allowed,
                      int (*job)(db *, void *, struct err *))
{
    struct err e = {0};
    json_t *body = http_body_json(r, &e);
    struct catalog_upsert *u;

    if (body == NULL)
        return http_error(r, &e);
    if (rundoc_check_name(r->params[0], strlen(r->params[0]), "name", &e) != 0 ||
        validate_fields(body, allowed, &e) != 0) {
        json_decref(body);
        return http_error(r, &e);
    }
    u = arena_alloc(r->arena, sizeof *u);
    if (u == NULL) {
        json_decref(body);
        err_nomem(&e);
        return http_error(r, &e);
    }
    u->name = r->params[0];
    u->fields = body;
    return defer_simple(r, job, u, 200,
                        json_pack("{s:s, s:o}", "name", r->params[0], "updated", body));
}

int api_app_put(struct req *r)
{
    static const char *const allowed[] = {"description", NULL};
    return put_entity(r, allowed, catalog_app_upsert_job);
}

int api_system_put(struct req *r)
{
    static const char *const allowed[] = {"description", "processor", "cores",
                                          "network",     "metadata",  NULL};
    return put_entity(r, allowed, catalog_system_upsert_job);
}

/* ---- benchmarks ------------------------------------------------------------------ */

static int check_benchmarks(json_t *body, struct req *r, void *out, struct err *err)
{
    return catalog_benchmarks_parse(out, r->params[0], body, r->arena, err);
}

int api_benchmarks_post(struct req *r)
{
    struct catalog_benchmarks *w = checked_body(r, sizeof *w, check_benchmarks);
    if (w == NULL)
        return 0;
    return defer_simple(
        r, catalog_benchmarks_job, w, 201,
        json_pack("{s:s, s:I}", "system", w->system, "stored", (json_int_t)w->n));
}

static json_t *benchmarks_of(db *d, struct req *r, struct err *err)
{
    return catalog_benchmarks_answer(d, r->params[0], http_query(r, "name"), err);
}

int api_benchmarks_list(struct req *r)
{
    return read_json(r, benchmarks_of);
}

/* ---- parameters ------------------------------------------------------------------- */

static int check_parameters(json_t *body, struct req *r, void *out, struct err *err)
{
    return catalog_params_parse(out, r->params[0], body, r->arena, err);
}

int api_params_post(struct req *r)
{
    struct catalog_params *w = checked_body(r, sizeof *w, check_parameters);
    json_t *answer;
    size_t i;

    if (w == NULL)
        return 0;
    answer = json_object();
    for (i = 0; i < w->n; i++)
        json_object_set_new(answer, catalog_param_signature(w, i, r->arena),
                            json_string(w->p[i].expression));
    return defer_simple(
        r, catalog_params_job, w, 201,
        json_pack("{s:s, s:o}", "system", w->system, "parameters", answer));
}

static json_t *params_of(db *d, struct req *r, struct err *err)
{
    return catalog_params_answer(d, r->params[0], err);
}

int api_params_list(struct req *r)
{
    return read_json(r, params_of);
}

int api_param_delete(struct req *r)
{
    struct catalog_params *w = arena_alloc(r->arena, sizeof *w);
    struct err e = {0};
    if (w == NULL) {
        err_nomem(&e);
        return http_error(r, &e);
    }
    memset(w, 0, sizeof *w);
    w->system = r->params[0];
    w->delete_name = r->params[1];
    return defer_simple(
        r, catalog_params_job, w, 200,
        json_pack("{s:s, s:s}", "system", r->params[0], "deleted", r->params[1]));
}

/* ---- templates -------------------------------------------------------------------- */

static json_t *templates(db *d, struct req *r, struct err *err)
{
    return catalog_templates_answer(d, http_query(r, "application"), err);
}

/* Templates are scoped to an application (two may share a name). */
static json_t *template_one(db *d, struct req *r, struct err *err)
{
    return catalog_template_answer(d, r->params[0], http_query(r, "application"), err);
}

int api_templates_list(struct req *r)
{
    return read_json(r, templates);
}

int api_template_get(struct req *r)
{
    return read_json(r, template_one);
}

static int check_template(json_t *body, struct req *r, void *out, struct err *err)
{
    return catalog_template_parse(out, body, r->arena, err);
}

int api_templates_post(struct req *r)
{
    struct catalog_template *t = checked_body(r, sizeof *t, check_template);
    if (t == NULL)
        return 0;
    return defer_simple(r, catalog_template_job, t, 201,
                        json_pack("{s:s, s:s, s:s, s:s}", "name", t->name, "application",
                                  t->application, "kernel", t->kernel, "expression",
                                  t->expression));
}

/* ---- couplings -------------------------------------------------------------------- */

static int coupling_finish(struct req *r)
{
    struct catalog_couplings *w = r->ctx;
    json_t *ids;
    size_t i;
    if (r->job.rc != 0)
        return http_error(r, &r->job.err);
    ids = json_array();
    for (i = 0; i < w->n; i++)
        json_array_append_new(ids, json_integer(w->ids[i]));
    return http_json(r, 201,
                     json_pack("{s:o, s:I}", "ids", ids, "stored", (json_int_t)w->n));
}

static int check_couplings(json_t *body, struct req *r, void *out, struct err *err)
{
    return catalog_couplings_parse(out, body, r->arena, err);
}

int api_couplings_post(struct req *r)
{
    struct catalog_couplings *w = checked_body(r, sizeof *w, check_couplings);
    if (w == NULL)
        return 0;
    r->ctx = w;
    return http_defer_write(r, catalog_couplings_job, w, coupling_finish);
}

static json_t *couplings(db *d, struct req *r, struct err *err)
{
    return catalog_couplings_answer(d, http_query(r, "application"),
                                    http_query(r, "system"), err);
}

int api_couplings_list(struct req *r)
{
    return read_json(r, couplings);
}
