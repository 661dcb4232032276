/* dash_compare: the compare page without both sides (GET /compare,
 * GET /compare?application=A[&a=SIDE|&b=SIDE]): a picker of the
 * application's branches and commits (SPEC §17), never a 422. */
#include "core/browse.h"
#include "core/history.h"
#include "server/dash.h"
#include "server/routes.h"
#include "web/view.h"

#include <string.h>

int page_compare_pick(struct req *r, json_t *q)
{
    struct view_compare_pick v = {0};
    struct err e = {0};
    struct page p;
    db *d = db_pool_get(r->app->pool);

    v.application = json_string_value(json_object_get(q, "application"));
    if (v.application && *v.application == '\0')
        v.application = NULL;
    v.a = json_string_value(json_object_get(q, "a"));
    v.b = json_string_value(json_object_get(q, "b"));
    v.apps = browse_apps(d, &e);
    if (v.apps != NULL && v.application != NULL)
        v.refs = history_refs(d, v.application, &e);
    db_pool_put(r->app->pool, d);
    if (v.apps == NULL || (v.application != NULL && v.refs == NULL)) {
        json_decref(v.apps);
        return dash_error(r, &e);
    }
    dash_begin(&p, r, "Compare", "compare");
    view_compare_pick(&p, &v);
    json_decref(v.apps);
    json_decref(v.refs);
    return dash_end(r, &p, 200);
}
