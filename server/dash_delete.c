/* dash_delete: the dashboard's writes beside the API's (SPEC §17): deleting a
 * run, an application or a watch after a confirmation step, and adding a
 * watch from a history page.
 *   GET  /runs/{id}/delete, /applications/{name}/delete, /watches/{id}/delete
 *        the confirmation (what goes with it, Delete and Cancel)
 *   POST the same paths (csrf, token unless signed in): the delete of
 *        DELETE /api/v1/..., then 303 to the application, the applications or
 *        the page the delete was asked from
 *   POST /watches (csrf, token unless signed in, application, system, y,
 *        executable, test, threshold, window): POST /api/v1/watches's rules,
 *        then 303 back to the history page
 * Every POST passes the CSRF checks of the dashboard's forms. */
#include "core/browse.h"
#include "core/watch.h"
#include "core/catalog.h"
#include "formats/form.h"
#include "server/csrf.h"
#include "server/dash.h"
#include "server/routes.h"
#include "web/form.h"
#include "web/html.h"
#include "web/view.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum del_kind { DEL_RUN, DEL_APP, DEL_WATCH };

struct del_write {
    enum del_kind kind;
    long long id;
    const char *name, *next;
    json_t *body; /* POST /watches */
};

/* "/applications/NAME" + tail with NAME percent-encoded (arena), or NULL. */
static const char *app_path(struct req *r, const char *name, const char *tail)
{
    struct buf b;
    const char *out;
    buf_init(&b, 1 << 12);
    buf_puts(&b, "/applications/");
    web_url_encode(&b, name);
    buf_puts(&b, tail);
    out = buf_failed(&b) ? NULL : arena_strdup(r->arena, buf_str(&b));
    buf_free(&b);
    return out;
}

/* The same-origin page a request came from (its Referer's path), or NULL. */
static const char *came_from(struct req *r)
{
    const char *ref = http_header(r, "Referer"), *host = http_header(r, "Host"), *s;
    size_t n;
    if (ref == NULL || host == NULL)
        return NULL;
    if (strncmp(ref, "http://", 7) == 0)
        s = ref + 7;
    else if (strncmp(ref, "https://", 8) == 0)
        s = ref + 8;
    else
        return NULL;
    n = strlen(host);
    if (strncmp(s, host, n) != 0 || s[n] != '/' || s[n + 1] == '/')
        return NULL;
    return strpbrk(s + n, "\r\n") ? NULL : s + n;
}

static int parse_id(const char *s, long long *id)
{
    char *end;
    errno = 0;
    *id = strtoll(s, &end, 10);
    return *s == '\0' || *end != '\0' || errno == ERANGE || *id < 1 ? -1 : 0;
}

/* ---- the confirmation ------------------------------------------------------- */

int page_delete_confirm(struct req *r)
{
    struct err e = {0};
    struct view_confirm v = {0};
    struct page p;
    db *d;
    long long id = 0;

    d = db_pool_get(r->app->pool);
    if (strncmp(r->path, "/runs/", 6) == 0) {
        struct db_run_row row;
        int rc =
            parse_id(r->params[0], &id) != 0
                ? err_set(&e, ERR_NOT_FOUND, "not_found", NULL, "no run %s", r->params[0])
                : browse_run(d, id, r->arena, &row, &e);
        if (rc != 0) {
            db_pool_put(r->app->pool, d);
            return dash_error(r, &e);
        }
        v.title = arena_printf(r->arena, "Delete run %lld?", id);
        v.what = arena_printf(r->arena,
                              "Run %lld of %s (%s on %s, %lld process%s) goes, with its "
                              "inputs, metrics, kernels, trace, judgements and alerts. "
                              "This cannot be undone.",
                              id, row.run.application, row.run.executable, row.run.system,
                              row.run.nprocs, row.run.nprocs == 1 ? "" : "es");
        v.action = arena_printf(r->arena, "/runs/%lld/delete", id);
        v.cancel = arena_printf(r->arena, "/runs/%lld", id);
    } else if (strncmp(r->path, "/applications/", 14) == 0) {
        json_t *app = browse_app_summary(d, r->params[0], &e);
        if (app == NULL) {
            db_pool_put(r->app->pool, d);
            return dash_error(r, &e);
        }
        long long nruns = (long long)json_integer_value(json_object_get(app, "runs"));
        v.title = arena_printf(r->arena, "Delete the application %s?", r->params[0]);
        v.what = arena_printf(r->arena,
                              "%s goes with its %lld run%s, executables, templates, "
                              "couplings, models and watches. This cannot be undone.",
                              r->params[0], nruns, nruns == 1 ? "" : "s");
        json_decref(app);
        v.action = app_path(r, r->params[0], "/delete");
        v.cancel = app_path(r, r->params[0], "");
    } else {
        if (parse_id(r->params[0], &id) != 0) {
            db_pool_put(r->app->pool, d);
            err_set(&e, ERR_NOT_FOUND, "not_found", NULL, "no watch %s", r->params[0]);
            return dash_error(r, &e);
        }
        v.title = arena_printf(r->arena, "Delete watch %lld?", id);
        v.what = arena_printf(r->arena,
                              "Watch %lld goes with its judgements and alerts; runs "
                              "stored from now on are not judged by it.",
                              id);
        v.action = arena_printf(r->arena, "/watches/%lld/delete", id);
        v.cancel = came_from(r) ? came_from(r) : "/alerts";
    }
    db_pool_put(r->app->pool, d);
    if (v.title == NULL || v.what == NULL || v.action == NULL || v.cancel == NULL) {
        err_nomem(&e);
        return dash_error(r, &e);
    }
    dash_begin(&p, r, v.title, NULL);
    p.csrf = csrf_token(r);
    view_confirm(&p, &v);
    return dash_end(r, &p, 200);
}

/* ---- the writes --------------------------------------------------------------- */

static int del_job(db *d, void *arg, struct err *err)
{
    struct del_write *w = arg;
    struct catalog_delete x = {CATALOG_WATCH, w->id, NULL, NULL};
    if (w->body != NULL)
        return watch_create(d, w->body, &w->id, err);
    if (w->kind == DEL_RUN)
        x.what = CATALOG_RUN;
    else if (w->kind == DEL_APP) {
        x.what = CATALOG_APP;
        x.name = w->name;
    }
    return catalog_delete(d, &x, err);
}

static int del_finish(struct req *r)
{
    struct del_write *w = r->ctx;
    json_decref(w->body);
    w->body = NULL;
    if (r->job.rc != 0)
        return dash_error(r, &r->job.err);
    return http_redirect(r, w->next);
}

/* The checks of every form that writes; the form into f. 0, or -1 after
 * answering. */
static int form_checks(struct req *r, struct form *f)
{
    struct err e = {0};
    if (csrf_check_origin(r, &e) != 0 ||
        form_parse(http_header(r, "Content-Type"), r->body.data ? r->body.data : "",
                   r->body.len, r->arena, f, &e) != 0 ||
        csrf_check(r, form_get(f, "csrf"), &e) != 0 ||
        http_check_token(r, form_get(f, "token"), "token", &e) != 0) {
        dash_error(r, &e);
        return -1;
    }
    return 0;
}

int page_delete(struct req *r)
{
    struct err e = {0};
    struct form f;
    struct del_write *w = arena_alloc(r->arena, sizeof *w);
    if (w == NULL) {
        err_nomem(&e);
        return dash_error(r, &e);
    }
    memset(w, 0, sizeof *w);
    if (form_checks(r, &f) != 0)
        return 0;
    if (strncmp(r->path, "/applications/", 14) == 0) {
        w->kind = DEL_APP;
        w->name = r->params[0];
        w->next = "/applications";
    } else {
        w->kind = strncmp(r->path, "/runs/", 6) == 0 ? DEL_RUN : DEL_WATCH;
        if (parse_id(r->params[0], &w->id) != 0) {
            err_set(&e, ERR_NOT_FOUND, "not_found", NULL, "no %s %s",
                    w->kind == DEL_RUN ? "run" : "watch", r->params[0]);
            return dash_error(r, &e);
        }
        w->next = "/alerts";
        if (w->kind == DEL_RUN) {
            /* back to the run's application */
            struct db_run_row row;
            db *d = db_pool_get(r->app->pool);
            int rc = browse_run(d, w->id, r->arena, &row, &e);
            db_pool_put(r->app->pool, d);
            if (rc != 0)
                return dash_error(r, &e);
            w->next = app_path(r, row.run.application, "");
            if (w->next == NULL) {
                err_nomem(&e);
                return dash_error(r, &e);
            }
        }
    }
    r->ctx = w;
    return http_defer_write(r, del_job, w, del_finish);
}

int page_watch_add(struct req *r)
{
    struct err e = {0};
    struct form f;
    struct del_write *w = arena_alloc(r->arena, sizeof *w);
    json_t *det = NULL, *set = NULL; /* the detector, and where its settings go */
    const char *s;
    double v;
    int scaling;

    if (w == NULL) {
        err_nomem(&e);
        return dash_error(r, &e);
    }
    memset(w, 0, sizeof *w);
    if (form_checks(r, &f) != 0)
        return 0;
    w->kind = DEL_WATCH;
    w->body = json_object();
    if (w->body != NULL) {
        static const char *const keys[] = {"application", "system", "executable", "y"};
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            if ((s = form_get(&f, keys[k])) != NULL && *s)
                json_object_set_new(w->body, keys[k], json_string(s));
    }
    /* the scaling-law watch (SPEC §17) nests its settings under "scaling" */
    s = form_get(&f, "test");
    scaling = s != NULL && strcmp(s, "scaling") == 0;
    set = scaling ? json_object() : json_pack("{s:s?}", "test", s);
    det = scaling && set ? json_pack("{s:O}", "scaling", set) : json_incref(set);
    if (w->body == NULL || det == NULL) {
        err_nomem(&e);
        goto fail;
    }
    /* the numbers as typed: blank is the test's default */
    if (fnum(form_get(&f, "threshold"), "threshold", "threshold", &v, &e) == 0)
        json_object_set_new(set, "threshold", json_real(v));
    else if (e.status)
        goto fail;
    if ((s = form_get(&f, "window")) != NULL && *s) {
        long long n;
        if (parse_id(s, &n) != 0) {
            err_set(&e, ERR_INVALID, "invalid", "window",
                    "window must be a whole number of runs (got %.40s)", s);
            goto fail;
        }
        json_object_set_new(set, "window", json_integer(n));
    }
    if (scaling) {
        const char *x = form_get(&f, "x"), *base = form_get(&f, "baseline");
        json_object_set_new(set, "x", json_string(x && *x ? x : "nprocs"));
        if (base != NULL && *base)
            json_object_set_new(set, "baseline", json_string(base));
        if (fnum(form_get(&f, "target"), "target", "target", &v, &e) == 0)
            json_object_set_new(set, "target", json_real(v));
        else if (e.status)
            goto fail;
    }
    json_decref(set);
    json_object_set_new(w->body, "detector", det);
    if (watch_check(w->body, &e) != 0) {
        json_decref(w->body);
        return dash_error(r, &e);
    }
    w->next = came_from(r) ? came_from(r) : "/alerts";
    r->ctx = w;
    return http_defer_write(r, del_job, w, del_finish);
fail:
    json_decref(w->body);
    json_decref(det);
    json_decref(set);
    return dash_error(r, &e);
}
