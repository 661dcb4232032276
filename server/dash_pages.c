/* dash_pages: the adapters of the dashboard's read-only pages: decode the
 * path and query, read the data through core/browse.h, render a view of
 * web/view.h. No markup here. */
#include "core/browse.h"
#include "core/trace.h"
#include "server/dash.h"
#include "server/routes.h"
#include "web/view.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* A positive id from a path segment, or -1 with a 404 naming what. */
static long long path_id(const char *seg, const char *what, struct err *e)
{
    char *end;
    long long id;
    errno = 0;
    id = strtoll(seg, &end, 10);
    if (*seg == '\0' || *end != '\0' || errno == ERANGE || id < 1)
        return err_set(e, ERR_NOT_FOUND, "not_found", NULL, "no %s with id %.40s", what,
                       seg);
    return id;
}

int page_overview(struct req *r)
{
    struct err e = {0};
    struct browse_overview o;
    struct view_overview v;
    struct page p;
    db *d = db_pool_get(r->app->pool);
    int rc = browse_overview(d, &o, &e);
    db_pool_put(r->app->pool, d);
    if (rc != 0)
        return dash_error(r, &e);
    v.counts = o.counts;
    v.apps = o.apps;
    v.systems = o.systems;
    v.recent = o.recent;
    dash_begin(&p, r, "Overview", "overview");
    view_overview(&p, &v);
    browse_overview_free(&o);
    return dash_end(r, &p, 200);
}

int page_apps(struct req *r)
{
    struct err e = {0};
    struct page p;
    db *d = db_pool_get(r->app->pool);
    json_t *apps = browse_apps(d, &e);
    db_pool_put(r->app->pool, d);
    if (apps == NULL)
        return dash_error(r, &e);
    dash_begin(&p, r, "Applications", "applications");
    view_apps(&p, apps);
    json_decref(apps);
    return dash_end(r, &p, 200);
}

int page_systems(struct req *r)
{
    struct err e = {0};
    struct page p;
    db *d = db_pool_get(r->app->pool);
    json_t *systems = browse_systems(d, &e);
    db_pool_put(r->app->pool, d);
    if (systems == NULL)
        return dash_error(r, &e);
    dash_begin(&p, r, "Systems", "systems");
    view_systems(&p, systems);
    json_decref(systems);
    return dash_end(r, &p, 200);
}

int page_run(struct req *r)
{
    struct err e = {0};
    struct db_run_row row;
    struct view_run v;
    struct page p;
    char title[48];
    long long id = path_id(r->params[0], "run", &e);
    int rc;
    db *d;

    if (id < 0)
        return dash_error(r, &e);
    d = db_pool_get(r->app->pool);
    rc = browse_run(d, id, r->arena, &row, &e);
    v.has_trace = rc == 0 ? run_trace_exists(d, id, &e) : 0;
    db_pool_put(r->app->pool, d);
    if (rc != 0 || v.has_trace < 0)
        return dash_error(r, &e);
    v.id = id;
    v.run = &row.run;
    v.created_at = row.created_at;
    v.stored = http_query(r, "stored") != NULL;
    snprintf(title, sizeof title, "Run %lld", id);
    dash_begin(&p, r, title, "applications");
    view_run(&p, &v);
    return dash_end(r, &p, 200);
}

int page_system(struct req *r)
{
    struct err e = {0};
    struct browse_system o;
    struct view_system v;
    struct page p;
    db *d = db_pool_get(r->app->pool);
    int rc = browse_system(d, r->params[0], &o, &e);
    db_pool_put(r->app->pool, d);
    if (rc != 0)
        return dash_error(r, &e);
    v.name = r->params[0];
    v.system = o.system;
    v.apps = o.apps;
    v.benchmarks = o.benchmarks;
    dash_begin(&p, r, r->params[0], "systems");
    view_system(&p, &v);
    browse_system_free(&o);
    return dash_end(r, &p, 200);
}
