/* dash_history: the adapters of the history pages (SPEC §11, docs/history.md).
 *
 *   GET  /alerts?state=S          the alerts, with a triage form per alert
 *   POST /alerts/{id}             triage (csrf, state, token), back to /alerts
 *   POST /alert-groups/{id}       triage every alert of a group, the same way
 *   GET  /history?application=…   one configuration's series (the query of
 *                                 GET /api/v1/series) with its change points
 *   GET  /compare?a=SIDE&b=SIDE…  the comparison of GET /api/v1/compare
 *
 * Each reads through core/history.h or core/watch.h exactly as the JSON API
 * does (the same query, the same answer) and hands the answer to the views
 * of web/view_history.c. Nothing here knows SQL or HTML.
 */
#include "core/history.h"
#include "server/api_error.h"
#include "core/alerts.h"
#include "core/watch.h"
#include "db/history.h"
#include "formats/form.h"
#include "models/changes.h"
#include "server/csrf.h"
#include "server/dash.h"
#include "server/routes.h"
#include "web/chart_history.h"
#include "web/view.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CHANGES 16 /* change points marked on a history chart: the newest */

/* ---- alerts ------------------------------------------------------------------ */

static int alerts_page(struct req *r, int status, const struct err *error)
{
    struct err e = {0};
    struct page p;
    struct view_alerts v;
    const char *state = http_query(r, "state");
    db *d;

    if (state != NULL && *state == '\0')
        state = NULL;
    d = db_pool_get(r->app->pool);
    memset(&v, 0, sizeof v);
    v.alerts = alert_list(d, state, 0, &e);
    if (v.alerts != NULL) {
        v.groups = alert_groups(d, state, &e);
        if (v.groups == NULL) {
            json_decref(v.alerts);
            v.alerts = NULL;
        }
    }
    db_pool_put(r->app->pool, d);
    if (v.alerts == NULL)
        return dash_error(r, &e);
    v.state = state;
    v.error = error;
    dash_begin(&p, r, "Alerts", "alerts");
    p.csrf = csrf_token(r);
    view_alerts(&p, &v);
    json_decref(v.alerts);
    json_decref(v.groups);
    return dash_end(r, &p, status);
}

int page_alerts(struct req *r)
{
    return alerts_page(r, 200, NULL);
}

struct triage {
    long long id;
    const char *state;
    int group; /* the id is an alert group's */
};

static int triage_job(db *d, void *arg, struct err *err)
{
    struct triage *t = arg;
    json_t *answer;
    int rc = alert_triage(d, t->id, t->state, t->group, &answer, err);
    json_decref(answer); /* the page goes back to /alerts */
    return rc;
}

static int triage_finish(struct req *r)
{
    if (r->job.rc != 0)
        return alerts_page(r,
                           r->job.err.status ? api_error_status(r->job.err.status) : 500,
                           &r->job.err);
    return http_redirect(r, "/alerts");
}

/* POST /alerts/{id} (group 0) and /alert-groups/{id} (group 1). */
static int triage(struct req *r, int group)
{
    struct err e = {0};
    struct form f;
    struct triage *t = arena_alloc(r->arena, sizeof *t);
    json_t *body;
    const char *s = r->params[0], *state;
    char *end;

    if (t == NULL) {
        err_nomem(&e);
        return dash_error(r, &e);
    }
    errno = 0;
    t->group = group;
    t->id = strtoll(s, &end, 10);
    if (*s == '\0' || *end != '\0' || errno == ERANGE || t->id < 1) {
        err_set(&e, ERR_NOT_FOUND, "not_found", NULL,
                group ? "no alert group %s" : "no alert %s", s);
        return dash_error(r, &e);
    }
    if (csrf_check_origin(r, &e) != 0 ||
        form_parse(http_header(r, "Content-Type"), r->body.data, r->body.len, r->arena,
                   &f, &e) != 0)
        return dash_error(r, &e);
    if (csrf_check(r, form_get(&f, "csrf"), &e) != 0 ||
        http_check_token(r, form_get(&f, "token"), "token", &e) != 0)
        return alerts_page(r, api_error_status(e.status), &e);
    /* The same rule as PATCH /api/v1/alerts/{id}: one of the four states. */
    body = json_pack("{s:s?}", "state", form_get(&f, "state"));
    state = body ? alert_check_state(body, &e) : NULL;
    t->state = state ? arena_strdup(r->arena, state) : NULL;
    json_decref(body);
    if (t->state == NULL) {
        if (e.status == 0)
            err_nomem(&e);
        return alerts_page(r, api_error_status(e.status), &e);
    }
    r->ctx = t;
    return http_defer_write(r, triage_job, t, triage_finish);
}

int page_alert_triage(struct req *r)
{
    return triage(r, 0);
}

int page_alert_group_triage(struct req *r)
{
    return triage(r, 1);
}

/* ---- a configuration's history ------------------------------------------------- */

int page_history(struct req *r)
{
    struct err e = {0};
    struct page p;
    struct view_series v;
    struct chart_hist_point *pts = NULL;
    json_t *q, *series = NULL, *alerts = NULL, *watches = NULL;
    size_t *changes = NULL;
    double *y = NULL;
    long n;
    int rc;
    db *d;

    q = http_query_object(r, &e);
    if (q == NULL)
        return dash_error(r, &e);
    d = db_pool_get(r->app->pool);
    series = history_series(d, q, &e);
    if (series != NULL) /* only this configuration's (SPEC §17) */
        alerts = history_series_alerts(d, q, &e);
    if (alerts != NULL && (watches = watch_list(d, &e)) == NULL) {
        json_decref(alerts);
        alerts = NULL;
    }
    db_pool_put(r->app->pool, d);
    memset(&v, 0, sizeof v);
    if (series == NULL || alerts == NULL)
        goto fail;
    n = view_series_points(r->arena, series, &pts, &v.model, &e);
    if (n < 0)
        goto fail;
    /* Where the series shifted: the change points of GET /api/v1/changes
     * (models/changes.h, its default options), the newest marked. */
    {
        struct changes_opts o = {0};
        struct changes_point *cp =
            arena_alloc(r->arena, (size_t)(n / 2 + 1) * sizeof *cp);
        double *before, *after;
        changes = arena_alloc(r->arena, MAX_CHANGES * sizeof *changes);
        before = arena_alloc(r->arena, MAX_CHANGES * sizeof *before);
        after = arena_alloc(r->arena, MAX_CHANGES * sizeof *after);
        y = arena_alloc(r->arena, (size_t)(n > 0 ? n : 1) * sizeof *y);
        if (cp == NULL || changes == NULL || before == NULL || after == NULL ||
            y == NULL) {
            err_nomem(&e);
            goto fail;
        }
        for (long i = 0; i < n; i++)
            y[i] = pts[i].y;
        rc = changes_scan(y, (size_t)n, &o, cp, (size_t)(n / 2 + 1), &e);
        if (rc < 0)
            goto fail;
        for (int k = rc > MAX_CHANGES ? rc - MAX_CHANGES : 0, j = 0; k < rc; k++, j++) {
            changes[j] = cp[k].at;
            before[j] = cp[k].before;
            after[j] = cp[k].after;
        }
        if (rc > MAX_CHANGES)
            rc = MAX_CHANGES;
        v.change_before = before;
        v.change_after = after;
    }
    v.config = series; /* the answer names its configuration at the top */
    v.y = http_query(r, "y") ? http_query(r, "y") : "runtime";
    v.points = pts;
    v.n = (size_t)n;
    v.changes = changes;
    v.nchanges = (size_t)rc;
    v.alerts = alerts;
    v.watches = watches;
    dash_begin(&p, r, "History", "applications");
    p.csrf = csrf_token(r); /* the watch form */
    view_series(&p, &v);
    json_decref(series);
    json_decref(alerts);
    json_decref(watches);
    json_decref(q);
    return dash_end(r, &p, 200);
fail:
    json_decref(watches);
    json_decref(series);
    json_decref(alerts);
    json_decref(q);
    return dash_error(r, &e);
}

/* ---- compare -------------------------------------------------------------------- */

int page_compare(struct req *r)
{
    static const char *const names[] = {"a", "b", "c", "d", "e", "f", "g", "h"};
    const char *sides[sizeof names / sizeof names[0]];
    struct err e = {0};
    struct page p;
    struct view_compare v;
    json_t *q, *answer;
    size_t n = 0;
    db *d;

    q = http_query_object(r, &e);
    if (q == NULL)
        return dash_error(r, &e);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *s = json_string_value(json_object_get(q, names[i]));
        if (s == NULL)
            break;
        sides[n++] = s;
    }
    if (n < 2) { /* no sides yet: the picker (SPEC §17) */
        int rc = page_compare_pick(r, q);
        json_decref(q);
        return rc;
    }
    d = db_pool_get(r->app->pool);
    answer = history_compare(d, q, &e);
    db_pool_put(r->app->pool, d);
    if (answer == NULL) {
        json_decref(q);
        return dash_error(r, &e);
    }
    memset(&v, 0, sizeof v);
    v.compare = answer;
    v.sides = sides;
    v.nsides = n;
    dash_begin(&p, r, "Compare", "compare");
    view_compare(&p, &v);
    json_decref(answer);
    json_decref(q);
    return dash_end(r, &p, 200);
}
