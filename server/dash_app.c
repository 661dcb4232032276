/* dash_app: the adapter of an application's page (/applications/{name}):
 * decodes the view state (?sort=runtime&dir=desc&page=2, the pager's cursor
 * ?after= or ?before= a run id, ?executable= and ?system= filters,
 * ?axes=linear|log), reads the summaries, one page of runs
 * and the kernel records the breakdown needs through core/browse.h, and
 * renders web/view_app.c. With ?format=csv it answers every run of the
 * table's filter, in the table's order, as CSV (view_app_csv). */
#include "core/browse.h"
#include "server/api_error.h"
#include "core/scaling.h"
#include "formats/limits.h"
#include "formats/rundoc.h"
#include "server/dash.h"
#include "server/routes.h"
#include "web/view.h"

#include <limits.h>
#include <string.h>

/* Finds name in the list (executables or systems of the app); returns its id. */
static long long id_in(json_t *list, const char *name)
{
    size_t i;
    json_t *x;
    json_array_foreach(list, i, x)
    {
        const char *n = json_string_value(json_object_get(x, "name"));
        if (n && strcmp(n, name) == 0)
            return json_integer_value(json_object_get(x, "id"));
    }
    return 0;
}

static int parse_view(struct req *r, struct view_app *v, json_t *app, struct err *e)
{
    const char *sort = http_query(r, "sort"), *dir = http_query(r, "dir");
    long long page = 1;
    size_t i;

    v->sort = 0;
    if (sort && *sort) {
        for (i = 0; i < 3 && strcmp(sort, view_app_sorts[i]) != 0; i++)
            ;
        if (i == 3)
            return err_set(e, ERR_BAD_REQUEST, "bad_parameter", "sort",
                           "sort must be run, nprocs or runtime");
        v->sort = (int)i;
    }
    v->desc = v->sort == 0;
    if (dir && *dir) {
        if (strcmp(dir, "asc") != 0 && strcmp(dir, "desc") != 0)
            return err_set(e, ERR_BAD_REQUEST, "bad_parameter", "dir",
                           "dir must be asc or desc");
        v->desc = strcmp(dir, "desc") == 0;
    }
    /* ?after= / ?before= (the pager's links): the page that follows or
     * precedes that run in this order, read from its key; ?page= is then
     * the number shown (worked out when absent). */
    if (http_query_int(r, "page", 1, 1000000000, &page, e) != 0 ||
        http_query_int(r, "after", 1, LLONG_MAX, &v->after, e) != 0 ||
        http_query_int(r, "before", 1, LLONG_MAX, &v->before, e) != 0)
        return -1;
    if (v->after && v->before)
        return err_set(e, ERR_BAD_REQUEST, "bad_parameter", "before",
                       "give after or before, not both");
    if ((v->after || v->before) && !http_query(r, "page"))
        page = 0;
    {
        const char *axes = http_query(r, "axes");
        v->axes = 0;
        if (axes && *axes) {
            for (i = 1; i < 3 && strcmp(axes, view_app_axes[i]) != 0; i++)
                ;
            if (i == 3)
                return err_set(e, ERR_BAD_REQUEST, "bad_parameter", "axes",
                               "axes must be linear or log (or absent: automatic)");
            v->axes = (int)i;
        }
    }
    v->page = page;
    v->exe = http_query(r, "executable");
    v->sys = http_query(r, "system");
    if (v->exe && *v->exe == '\0')
        v->exe = NULL;
    if (v->sys && *v->sys == '\0')
        v->sys = NULL;
    if (v->exe && (v->exe_id = id_in(json_object_get(app, "executables"), v->exe)) == 0)
        return err_set(e, ERR_NOT_FOUND, "not_found", "executable",
                       "%.200s has no executable %.200s", v->name, v->exe);
    if (v->sys && (v->sys_id = id_in(json_object_get(app, "systems"), v->sys)) == 0)
        return err_set(e, ERR_NOT_FOUND, "not_found", "system",
                       "%.200s has no runs on %.200s", v->name, v->sys);
    /* ?commit= / ?branch= (SPEC §17): provenance filters, checked as an
     * upload's provenance is */
    v->commit = http_query(r, "commit");
    v->branch = http_query(r, "branch");
    if (v->commit && *v->commit == '\0')
        v->commit = NULL;
    if (v->branch && *v->branch == '\0')
        v->branch = NULL;
    if (v->commit || v->branch) {
        struct run_record pr = {0};
        pr.commit = v->commit;
        pr.branch = v->branch;
        if (rundoc_check_provenance(&pr, e) != 0) {
            e->status = ERR_BAD_REQUEST;
            return -1;
        }
        v->sort = 0; /* a filtered table is in run order */
    }
    v->many_exe = json_array_size(json_object_get(app, "executables")) > 1 && !v->exe;
    v->many_sys = json_array_size(json_object_get(app, "systems")) > 1 && !v->sys;
    return 0;
}

/* The db rows as the view's (arena). */
static struct view_run_row *rows_of(arena *a, const struct db_page_row *r, int n)
{
    struct view_run_row *out = arena_alloc(a, ((size_t)n + 1) * sizeof *out);
    int i;
    for (i = 0; out && i < n; i++) {
        struct view_run_row x = {r[i].id,       r[i].executable, r[i].system,
                                 r[i].nprocs,   r[i].runtime,    r[i].created_at,
                                 r[i].nkernels, r[i].inputs,     r[i].ninputs,
                                 r[i].commit,   r[i].branch};
        out[i] = x;
    }
    return out;
}

/* ?format=csv: all the filtered runs, read a page of 1000 at a time, each
 * from the last run of the one before (a cursor: no offset walked). */
static int app_csv(struct req *r, db *d, struct view_app *v, struct browse_app *b,
                   struct err *e)
{
    struct browse_app_query q = {v->exe_id, v->sys_id, v->sort, v->desc,   1,        1000,
                                 1,         0,         0,       v->commit, v->branch};
    struct view_run_row *all = NULL;
    size_t n = 0, cap = 0;
    struct buf out;
    int rc;

    for (;;) {
        if (browse_app(d, &q, r->arena, b, e) != 0)
            return -1;
        if (b->total > LIMIT_TABLE_CSV_RUNS)
            return err_set(e, ERR_TOO_LARGE, "too_large", NULL,
                           "%lld runs are more than one CSV download holds (%d): filter "
                           "by executable or system, or use GET /api/v1/export",
                           b->total, LIMIT_TABLE_CSV_RUNS);
        if (cap == 0) {
            cap = (size_t)b->total + 1;
            all = arena_alloc(r->arena, cap * sizeof *all);
            if (all == NULL)
                return err_nomem(e);
        }
        {
            struct view_run_row *page = rows_of(r->arena, b->rows, b->nrows);
            if (page == NULL)
                return err_nomem(e);
            /* runs stored meanwhile: the count read first bounds the file */
            for (rc = 0; rc < b->nrows && n < cap - 1; rc++)
                all[n++] = page[rc];
        }
        if (b->page >= b->pages || b->nrows == 0 || n >= cap - 1)
            break;
        q.page = b->page + 1;
        q.after = b->rows[b->nrows - 1].id;
    }
    buf_init(&out, 512u << 20);
    if (view_app_csv(&out, r->arena, all, n) != 0 || buf_failed(&out)) {
        buf_free(&out);
        return err_nomem(e);
    }
    {
        size_t len;
        char *text = buf_detach(&out, &len);
        buf_free(&out);
        if (text == NULL)
            return err_nomem(e);
        r->status = 200;
        r->content_type = "text/csv; charset=utf-8";
        r->resp = text; /* freed with the request, as dash_end's pages */
        r->resp_len = len;
        r->resp_free = 1;
    }
    return 0;
}

/* Unasked, the page scales over nprocs; where the runs were measured at
 * too few process counts for a law, over the first input of the
 * configurations that varies enough (a series over problem_size imported
 * from Caliper profiles), of those the picker offers: its name, or NULL
 * to keep nprocs. At most SCALING_PAGE_TRIES inputs are tried, each a
 * selection only. */
#define SCALING_PAGE_TRIES 8
static const char *varied_input(struct req *r, db *d, const struct view_app *v)
{
    json_t *names = json_array(), *val;
    const char *found = NULL;
    size_t k;

    if (names == NULL)
        return NULL;
    view_scaling_x_choices(v, names); /* the picker's: nprocs first */
    json_array_foreach(names, k, val)
    {
        struct err ignored = {0};
        json_t *q, *sel;
        if (k > SCALING_PAGE_TRIES)
            break;
        if (k == 0) /* nprocs, already asked */
            continue;
        q = json_pack("{s:O, s:s?, s:s?}", "x", val, "executable", v->exe, "system",
                      v->sys);
        sel = q ? scaling_answer(d, v->name, q, SCALING_CHOOSE | SCALING_SELECT_ONLY,
                                 &ignored)
                : NULL;
        if (sel != NULL)
            found = arena_strdup(r->arena, json_string_value(val));
        json_decref(sel);
        json_decref(q);
        if (found)
            break;
    }
    json_decref(names);
    return found;
}

/* "Scaling at …" (core/scaling.h, SPEC §18) for the page's filters and
 * ?x= and ?target=: the answer in v->scaling, or why there is none in
 * v->scaling_error (se). -1 only for a server error. */
static int app_scaling(struct req *r, db *d, struct view_app *v, struct err *se,
                       struct err *e)
{
    json_t *q, *all, *val;
    const char *key, *xname;
    v->scaling_x = http_query(r, "x");
    v->scaling_target = http_query(r, "target");
    q = json_pack("{s:s?, s:s?, s:s?, s:s?}", "x", v->scaling_x, "target",
                  v->scaling_target, "executable", v->exe, "system", v->sys);
    if (q == NULL || (v->scaling_fixed = json_object()) == NULL) {
        json_decref(q);
        return err_nomem(e);
    }
    /* the slice: ?nprocs= and ?input.NAME= as the API takes them; a value
     * the picker kept for the variable now chosen as x is no longer fixed */
    if ((all = http_query_object(r, e)) == NULL) {
        json_decref(q);
        return -1;
    }
    xname = v->scaling_x && *v->scaling_x ? v->scaling_x : "nprocs";
    json_object_foreach(all, key, val)
    {
        const char *name = strncmp(key, "input.", 6) == 0 ? key + 6 : key;
        if ((name == key && strcmp(key, "nprocs") != 0) || !*json_string_value(val) ||
            strcmp(name, xname) == 0)
            continue;
        json_object_set(q, key, val);
        json_object_set(v->scaling_fixed, name, val);
    }
    json_decref(all);
    /* Unasked, only a selection cheap to model: the page stays fast however
     * many runs the application has (docs/web.md "Performance"). */
    if (v->scaling_x == NULL && v->scaling_target == NULL &&
        json_object_size(v->scaling_fixed) == 0) {
        json_t *sel =
            scaling_answer(d, v->name, q, SCALING_CHOOSE | SCALING_SELECT_ONLY, se);
        const char *x;
        if (sel == NULL && strcmp(se->code, "degenerate") == 0 &&
            strcmp(se->field, "x") == 0 && (x = varied_input(r, d, v)) != NULL) {
            v->scaling_x = x;
            json_object_set_new(q, "x", json_string(x));
            err_clear(se);
            sel = scaling_answer(d, v->name, q, SCALING_CHOOSE | SCALING_SELECT_ONLY, se);
        }
        long long runs = json_integer_value(
            json_object_get(json_object_get(sel, "selection"), "runs"));
        if (sel == NULL || runs > SCALING_PAGE_RUNS) {
            json_decref(q);
            v->scaling = sel;
            if (sel == NULL && api_error_status(se->status) >= 500) {
                *e = *se;
                return -1;
            }
            v->scaling_error = sel ? NULL : se;
            return 0;
        }
        json_decref(sel);
    }
    v->scaling = scaling_answer(d, v->name, q, SCALING_CHOOSE, se);
    json_decref(q);
    if (v->scaling == NULL && api_error_status(se->status) >= 500) {
        *e = *se;
        return -1;
    }
    v->scaling_error = v->scaling ? NULL : se;
    return 0;
}

int page_app(struct req *r)
{
    struct err e = {0};
    struct view_app v = {0};
    struct browse_app b = {0};
    struct page p;
    struct err se = {0};
    long long ids[2 * VIEW_APP_MAX_BARS];
    size_t nids;
    const char *fmt;
    db *d;

    v.name = r->params[0];
    v.history = 1; /* /history answers each configuration's series */
    fmt = http_query(r, "format");
    if (fmt && *fmt && strcmp(fmt, "csv") != 0 && strcmp(fmt, "html") != 0) {
        err_set(&e, ERR_BAD_REQUEST, "bad_parameter", "format",
                "format must be csv or html");
        return dash_error(r, &e);
    }
    d = db_pool_get(r->app->pool);
    if ((b.app = browse_app_summary(d, v.name, &e)) == NULL ||
        parse_view(r, &v, b.app, &e) != 0)
        goto fail;
    if (fmt && strcmp(fmt, "csv") == 0) {
        if (app_csv(r, d, &v, &b, &e) != 0)
            goto fail;
        db_pool_put(r->app->pool, d);
        json_decref(b.app);
        return 0;
    }
    {
        struct browse_app_query q = {v.exe_id,
                                     v.sys_id,
                                     v.sort,
                                     v.desc,
                                     v.page,
                                     VIEW_APP_PER_PAGE,
                                     VIEW_APP_MAX_CONFIGS,
                                     v.after,
                                     v.before,
                                     v.commit,
                                     v.branch};
        if (browse_app(d, &q, r->arena, &b, &e) != 0)
            goto fail;
    }
    v.app = b.app;
    v.total = b.total;
    v.pages = b.pages;
    v.page = b.page;
    v.configs = dash_configs(r->arena, b.configs, b.nconfigs);
    v.nconfigs = b.nconfigs;
    v.truncated = b.truncated;
    v.rows = rows_of(r->arena, b.rows, b.nrows);
    v.nrows = b.nrows;
    v.has_kernels = b.has_kernels;
    if (v.configs == NULL || v.rows == NULL) {
        err_nomem(&e);
        goto fail;
    }
    if (v.nconfigs > 0 && app_scaling(r, d, &v, &se, &e) != 0)
        goto fail;
    nids = view_app_kernel_runs(r->arena, v.configs, v.nconfigs, ids);
    if ((v.kernels = browse_kernels_of_runs(d, ids, nids, &e)) == NULL)
        goto fail;
    db_pool_put(r->app->pool, d);
    dash_begin(&p, r, v.name, "applications");
    view_app(&p, &v);
    json_decref(v.kernels);
    json_decref(v.scaling);
    json_decref(v.scaling_fixed);
    json_decref(b.app);
    return dash_end(r, &p, 200);
fail:
    db_pool_put(r->app->pool, d);
    json_decref(v.scaling);
    json_decref(v.scaling_fixed);
    json_decref(b.app);
    return dash_error(r, &e);
}
