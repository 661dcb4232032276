/* api_scaling: GET /api/v1/applications/{name}/scaling (SPEC §18,
 * docs/api.md): decodes the path and query, calls core/scaling.h on a
 * pooled connection, answers its JSON. Runs on the model workers (R_COSTLY):
 * it fits every kernel of the selection. */
#include "core/scaling.h"
#include "server/routes.h"

int api_app_scaling(struct req *r)
{
    struct err e = {0};
    json_t *q = http_query_object(r, &e), *v;
    db *d;
    if (q == NULL)
        return http_error(r, &e);
    d = db_pool_get(r->app->pool);
    v = scaling_answer(d, r->params[0], q, 0, &e);
    db_pool_put(r->app->pool, d);
    json_decref(q);
    if (v == NULL)
        return http_error(r, &e);
    return http_json(r, 200, v);
}
