/* api_paramfit: POST /api/v1/systems/{name}/parameters/fit (SPEC §5.2): the
 * adapter of core/paramfit.h. Decodes nothing itself: the body goes to
 * paramfit_build on a pooled read connection; with "store" the fitted
 * parameter is written through the writer thread and the answer follows
 * only when the write succeeded. */
#include "core/paramfit.h"
#include "core/catalog.h"
#include "server/routes.h"

#include <stdlib.h>
#include <string.h>

/* The write: the fitted parameter, as POST .../parameters would store it. */
struct pfit_write {
    struct catalog_params set; /* first: the writer job's argument */
    struct param_record p;
    const char *answer; /* JSON text in the arena: nothing to free if the write fails */
};

/* Called only when the write succeeded (http.c answers the job's error). */
static int pfit_finish(struct req *r)
{
    struct pfit_write *w = r->ctx;
    if (r->job.rc != 0)
        return http_error(r, &r->job.err);
    return http_body(r, 201, "application/json", w->answer, strlen(w->answer));
}

int api_param_fit(struct req *r)
{
    struct err e = {0};
    struct paramfit pf;
    struct pfit_write *w;
    json_t *body = http_body_json(r, &e);
    char *text;
    db *d;
    int rc;

    if (body == NULL)
        return http_error(r, &e);
    d = db_pool_get(r->app->pool);
    rc = paramfit_build(d, r->params[0], body, r->arena, &pf, &e);
    db_pool_put(r->app->pool, d);
    json_decref(body);
    if (rc != 0)
        return http_error(r, &e);
    if (!pf.store)
        return http_json(r, 200, pf.answer);
    text = json_dumps(pf.answer, JSON_COMPACT | JSON_REAL_PRECISION(16));
    json_decref(pf.answer);
    w = arena_alloc(r->arena, sizeof *w);
    if (w != NULL)
        w->answer = text ? arena_strdup(r->arena, text) : NULL;
    free(text);
    if (w == NULL || w->answer == NULL) {
        err_nomem(&e);
        return http_error(r, &e);
    }
    memset(&w->set, 0, sizeof w->set);
    w->p = pf.param;
    w->set.system = r->params[0];
    w->set.p = &w->p;
    w->set.n = 1;
    r->ctx = w;
    return http_defer_write(r, catalog_params_job, &w->set, pfit_finish);
}
