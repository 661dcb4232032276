/* api_history: the adapters of SPEC §11 — series, compare, watches, the
 * ledger, alerts and deletes (docs/api.md). Each decodes the request, calls
 * core/history.h, core/watch.h or db/history.h, and encodes the answer;
 * writes go to the writer as one job.
 */
#include "common/buf.h"
#include "core/catalog.h"
#include "core/history.h"
#include "core/alerts.h"
#include "core/watch.h"
#include "db/history.h"
#include "formats/limits.h"
#include "server/routes.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* A read: fn(d, query) on a pooled connection, answered 200. */
static int read_query(struct req *r, json_t *(*fn)(db *, json_t *, struct err *))
{
    struct err e = {0};
    json_t *q = http_query_object(r, &e), *v = NULL;
    db *d;
    if (q == NULL)
        return http_error(r, &e);
    d = db_pool_get(r->app->pool);
    v = fn(d, q, &e);
    db_pool_put(r->app->pool, d);
    json_decref(q);
    if (v == NULL)
        return http_error(r, &e);
    return http_json(r, 200, v);
}

/* The series is written as JSON text straight from the read (its points
 * can be 100,000s): the same bytes http_json would send for history_series. */
int api_series(struct req *r)
{
    struct err e = {0};
    json_t *q = http_query_object(r, &e);
    struct buf out;
    int rc;
    db *d;
    if (q == NULL)
        return http_error(r, &e);
    buf_init(&out, LIMIT_SERIES_BYTES);
    d = db_pool_get(r->app->pool);
    rc = history_series_text(d, q, &out, &e);
    db_pool_put(r->app->pool, d);
    json_decref(q);
    if (rc != 0) {
        buf_free(&out);
        return http_error(r, &e);
    }
    return http_json_buf(r, &out);
}

int api_changes(struct req *r)
{
    return read_query(r, history_changes);
}

int api_compare(struct req *r)
{
    return read_query(r, history_compare);
}

/* A path id: a positive integer, else 404 (no such thing can exist). */
static int path_id(struct req *r, const char *what, long long *id, struct err *e)
{
    const char *s = r->params[0];
    char *end;
    errno = 0;
    *id = strtoll(s, &end, 10);
    if (*s == '\0' || *end != '\0' || errno == ERANGE || *id < 1)
        return err_set(e, ERR_NOT_FOUND, "not_found", NULL, "no %s %s", what, s);
    return 0;
}

/* ---- writes ---------------------------------------------------------------- */

/* One write job: its kind, the id or names it needs, the body, the result. */
struct hist_write {
    int (*fn)(db *d, struct hist_write *w, struct err *err);
    long long id;
    const char *name, *application, *state;
    struct history_build build;
    json_t *body;
    int status;
    json_t *answer; /* for a write whose answer is known before it runs */
};

static int write_job(db *d, void *arg, struct err *err)
{
    struct hist_write *w = arg;
    return w->fn(d, w, err);
}

static int write_finish(struct req *r)
{
    struct hist_write *w = r->ctx;
    json_t *answer = w->answer;
    json_decref(w->body);
    w->answer = NULL;
    if (r->job.rc != 0) {
        json_decref(answer);
        return http_error(r, &r->job.err);
    }
    if (answer == NULL)
        answer = json_pack("{s:I}", "id", (json_int_t)w->id);
    return http_json(r, w->status, answer);
}

static int defer(struct req *r, struct hist_write *w)
{
    r->ctx = w;
    return http_defer_write(r, write_job, w, write_finish);
}

static struct hist_write *
new_write(struct req *r, int (*fn)(db *, struct hist_write *, struct err *), int status)
{
    struct hist_write *w = arena_alloc(r->arena, sizeof *w);
    if (w != NULL) {
        memset(w, 0, sizeof *w);
        w->fn = fn;
        w->status = status;
    }
    return w;
}

static int nomem(struct req *r)
{
    struct err e = {0};
    err_nomem(&e);
    return http_error(r, &e);
}

static int watch_create_job(db *d, struct hist_write *w, struct err *err)
{
    return watch_create(d, w->body, &w->id, err);
}

int api_watches_post(struct req *r)
{
    struct err e = {0};
    json_t *body = http_body_json(r, &e);
    struct hist_write *w;
    if (body == NULL)
        return http_error(r, &e);
    if (watch_check(body, &e) != 0) {
        json_decref(body);
        return http_error(r, &e);
    }
    w = new_write(r, watch_create_job, 201);
    if (w == NULL) {
        json_decref(body);
        return nomem(r);
    }
    w->body = body;
    return defer(r, w);
}

int api_watches_list(struct req *r)
{
    struct err e = {0};
    db *d = db_pool_get(r->app->pool);
    json_t *v = watch_list(d, &e);
    db_pool_put(r->app->pool, d);
    if (v == NULL)
        return http_error(r, &e);
    return http_json(r, 200, v);
}

static int watch_delete_job(db *d, struct hist_write *w, struct err *err)
{
    return catalog_delete(d, &(struct catalog_delete){CATALOG_WATCH, w->id, NULL, NULL},
                          err);
}
static int run_delete_job(db *d, struct hist_write *w, struct err *err)
{
    return catalog_delete(d, &(struct catalog_delete){CATALOG_RUN, w->id, NULL, NULL},
                          err);
}
static int model_delete_job(db *d, struct hist_write *w, struct err *err)
{
    return catalog_delete(d, &(struct catalog_delete){CATALOG_MODEL, w->id, NULL, NULL},
                          err);
}
static int app_delete_job(db *d, struct hist_write *w, struct err *err)
{
    return catalog_delete(d, &(struct catalog_delete){CATALOG_APP, 0, w->name, NULL},
                          err);
}
static int template_delete_job(db *d, struct hist_write *w, struct err *err)
{
    return catalog_delete(
        d, &(struct catalog_delete){CATALOG_TEMPLATE, 0, w->name, w->application}, err);
}

/* DELETE of a thing named by a numeric id. */
static int delete_by_id(struct req *r, const char *what,
                        int (*fn)(db *, struct hist_write *, struct err *))
{
    struct err e = {0};
    struct hist_write *w;
    long long id;
    if (path_id(r, what, &id, &e) != 0)
        return http_error(r, &e);
    w = new_write(r, fn, 200);
    if (w == NULL)
        return nomem(r);
    w->id = id;
    w->answer = json_pack("{s:I}", "deleted", (json_int_t)id);
    return defer(r, w);
}

int api_watch_delete(struct req *r)
{
    return delete_by_id(r, "watch", watch_delete_job);
}

int api_run_delete(struct req *r)
{
    return delete_by_id(r, "run", run_delete_job);
}

int api_model_delete(struct req *r)
{
    return delete_by_id(r, "model", model_delete_job);
}

/* DELETE of a thing named by its name. */
static int delete_by_name(struct req *r,
                          int (*fn)(db *, struct hist_write *, struct err *))
{
    struct hist_write *w = new_write(r, fn, 200);
    if (w == NULL)
        return nomem(r);
    w->name = r->params[0];
    w->application = http_query(r, "application");
    w->answer = json_pack("{s:s}", "deleted", w->name);
    return defer(r, w);
}

int api_app_delete(struct req *r)
{
    return delete_by_name(r, app_delete_job);
}

int api_template_delete(struct req *r)
{
    return delete_by_name(r, template_delete_job);
}

/* ---- the ledger and alerts ------------------------------------------------- */

int api_model_ledger(struct req *r)
{
    struct err e = {0};
    json_t *v;
    long long id;
    db *d;
    if (path_id(r, "model", &id, &e) != 0)
        return http_error(r, &e);
    d = db_pool_get(r->app->pool);
    v = watch_ledger(d, id, &e);
    db_pool_put(r->app->pool, d);
    if (v == NULL)
        return http_error(r, &e);
    return http_json(r, 200, v);
}

int api_alerts_list(struct req *r)
{
    struct err e = {0};
    struct db_alert_filter f = {.limit = LIMIT_ALERTS_PAGE};
    json_t *v;
    db *d;

    f.state = http_query(r, "state");
    f.commit = http_query(r, "commit");
    f.application = http_query(r, "application");
    if (http_query_int(r, "limit", 1, LIMIT_ALERTS_PAGE, &f.limit, &e) != 0 ||
        http_query_int(r, "before", 1, LLONG_MAX, &f.before, &e) != 0)
        return http_error(r, &e);
    d = db_pool_get(r->app->pool);
    v = alert_page(d, &f, &e);
    db_pool_put(r->app->pool, d);
    if (v == NULL)
        return http_error(r, &e);
    return http_json(r, 200, v);
}

/* Both read back inside the job: the answer is the alert (group) as now
 * stored; the job may run twice (db/writer.h). */
static int alert_state_job(db *d, struct hist_write *w, struct err *err)
{
    json_decref(w->answer);
    return alert_triage(d, w->id, w->state, 0, &w->answer, err);
}

static int group_state_job(db *d, struct hist_write *w, struct err *err)
{
    json_decref(w->answer);
    return alert_triage(d, w->id, w->state, 1, &w->answer, err);
}

/* PATCH of an alert's or a group's state ({"state": ...}): what (in
 * messages), then the job that sets it. */
static int state_patch(struct req *r, const char *what,
                       int (*job)(db *, struct hist_write *, struct err *))
{
    struct err e = {0};
    struct hist_write *w;
    json_t *body;
    const char *state;
    long long id;

    if (path_id(r, what, &id, &e) != 0)
        return http_error(r, &e);
    body = http_body_json(r, &e);
    if (body == NULL)
        return http_error(r, &e);
    state = alert_check_state(body, &e);
    if (state == NULL) {
        json_decref(body);
        return http_error(r, &e);
    }
    w = new_write(r, job, 200);
    if (w == NULL) {
        json_decref(body);
        return nomem(r);
    }
    w->id = id;
    w->state = state; /* borrowed from body, released in write_finish */
    w->body = body;
    return defer(r, w);
}

int api_alert_patch(struct req *r)
{
    return state_patch(r, "alert", alert_state_job);
}

int api_alert_groups(struct req *r)
{
    struct err e = {0};
    struct buf out;
    int rc;
    db *d;
    /* the text written directly (alert_groups_text): 10,000 alerts within
     * 20 ms (bench_history --alerts) */
    buf_init(&out, (size_t)1 << 30);
    d = db_pool_get(r->app->pool);
    rc = alert_groups_text(d, http_query(r, "state"), &out, &e);
    db_pool_put(r->app->pool, d);
    if (rc != 0) {
        buf_free(&out);
        return http_error(r, &e);
    }
    return http_json_buf(r, &out);
}

int api_alert_group_patch(struct req *r)
{
    return state_patch(r, "alert group", group_state_job);
}

/* The alerts an upload raised, for its answer (core/ingest.h's in->alerts). */
json_t *api_upload_alerts(struct req *r, const long long *ids, size_t n)
{
    struct err e = {0};
    json_t *out;
    db *d;
    if (n == 0)
        return json_array();
    d = db_pool_get(r->app->pool);
    out = alert_batch(d, ids, n, &e);
    db_pool_put(r->app->pool, d);
    return out ? out : json_array(); /* the runs are stored: the answer says so */
}

/* ---- executables' build settings -------------------------------------------- */

static int executable_put_job(db *d, struct hist_write *w, struct err *err)
{
    return db_executable_put(d, w->application, w->name, w->build.compiler,
                             w->build.flags, w->build.version, err);
}

int api_executable_put(struct req *r)
{
    struct err e = {0};
    json_t *body = http_body_json(r, &e);
    struct hist_write *w;
    if (body == NULL)
        return http_error(r, &e);
    w = new_write(r, executable_put_job, 200);
    if (w == NULL) {
        json_decref(body);
        return nomem(r);
    }
    if (history_build_check(body, &w->build, &e) != 0) {
        json_decref(body);
        return http_error(r, &e);
    }
    w->body = body; /* the strings of w->build live in it until the answer */
    w->application = r->params[0];
    w->name = r->params[1];
    w->answer =
        json_pack("{s:s, s:s}", "application", w->application, "executable", w->name);
    return defer(r, w);
}
