/* api_trace: a run's MPI trace over HTTP (SPEC §13, docs/traces.md) — the
 * upload, each analysis as JSON and as SVG, the trace page and the occupancy
 * estimator across runs. Thin adapters over core/trace.h; the charts are
 * web/chart_trace.h's. */
#include "common/xalloc.h"
#include "core/browse.h"
#include "core/trace.h"
#include "server/dash.h"
#include "server/routes.h"
#include "server/trace_draw.h"
#include "web/chart_trace.h"
#include "web/view_trace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int draw(const struct run_trace_set *s, int kind, const char *const *names,
                struct buf *out, struct err *err)
{
    long long mpi_calls = trace_mpi_calls(s->t);
    const char *lane = chart_trace_lane(mpi_calls);
    switch (kind) {
    case RUN_TRACE_PROFILE:
        /* a trace without MPI calls is profiled by its states */
        if (mpi_calls == 0)
            return chart_trace_states(out, s->profile, names, lane, 0, 0, err);
        return chart_trace_profile(out, s->profile, 0, 0, err);
    case RUN_TRACE_WAIT:
        return chart_trace_wait(out, s->wait, 0, 0, err);
    case RUN_TRACE_TRAFFIC:
        return chart_trace_traffic(out, s->traffic, 0, 0, err);
    case RUN_TRACE_LOAD:
        return chart_trace_load(out, s->load, 0, 0, err);
    case RUN_TRACE_TIMELINE:
        return chart_trace_timeline(out, s->timeline, names, s->t->nnames, lane, err);
    case RUN_TRACE_OCCUPANCY:
        return chart_trace_occupancy(out, s->occupancy, names, lane, 0, 0, err);
    case RUN_TRACE_CLUSTERS:
        return chart_trace_clusters(out, s->clusters, names, lane, err);
    default:
        return err_set(err, ERR_NOT_FOUND, "not_found", NULL, "no such trace analysis");
    }
}

int trace_draw(const struct run_trace_set *s, int kind, struct buf *out, struct err *err)
{
    /* the states by the names the JSON gives them: one called "compute" is
     * "compute (state)", never a second "compute" in a legend */
    char **names = trace_state_labels(s->t);
    int rc;
    if (names == NULL)
        return err_nomem(err);
    rc = draw(s, kind, (const char *const *)names, out, err);
    xfree(names);
    return rc;
}

/* A run id from a path segment, or -1 with a 404. */
static long long run_id(const char *seg, struct err *e)
{
    char *end;
    long long id;
    errno = 0;
    id = strtoll(seg, &end, 10);
    if (*seg == '\0' || *end != '\0' || errno == ERANGE || id < 1)
        return err_set(e, ERR_NOT_FOUND, "not_found", NULL, "no run with id %.40s", seg);
    return id;
}

static int post_finish(struct req *r)
{
    struct run_trace_upload *up = r->ctx;
    json_t *names;
    int rc;

    if (r->job.rc != 0) {
        run_trace_upload_free(up);
        return http_error(r, &r->job.err);
    }
    names = json_array();
    for (int k = 0; k < RUN_TRACE_COUNT; k++)
        json_array_append_new(names, json_string(run_trace_name(k)));
    rc = http_json(r, 201,
                   json_pack("{s:I, s:i, s:I, s:I, s:I, s:o}", "run_id",
                             (json_int_t)up->run_id, "nranks", up->nranks, "nevents",
                             (json_int_t)up->nevents, "bytes", (json_int_t)up->bytes,
                             "dropped", (json_int_t)up->t->dropped, "analyses", names));
    run_trace_upload_free(up);
    return rc;
}

/* POST /api/v1/runs/{id}/trace: a tar of the recorder's trace.RANK files.
 * Parsed, checked and analysed here (on a model worker), stored by the
 * writer in one job: the trace with every analysis, or nothing. */
int api_trace_post(struct req *r)
{
    struct err e = {0};
    struct run_trace_upload *up = arena_alloc(r->arena, sizeof *up);
    long long id = run_id(r->params[0], &e);

    if (id < 0)
        return http_error(r, &e);
    if (up == NULL) {
        err_nomem(&e);
        return http_error(r, &e);
    }
    if (run_trace_from_tar(up, id, r->body.data, r->body.len, r->arena, trace_draw, &e) !=
        0)
        return http_error(r, &e);
    r->ctx = up;
    return http_defer_write(r, run_trace_store, up, post_finish);
}

static int bundle_finish(struct req *r)
{
    struct run_trace_bundle *b = r->ctx;
    int rc;
    if (r->job.rc != 0) {
        run_trace_upload_free(&b->up);
        return http_error(r, &r->job.err);
    }
    ingest_committed(&b->in);
    rc = http_json(r, b->trace_existed ? 200 : 201,
                   json_pack("{s:I, s:s, s:s, s:i, s:I}", "run_id",
                             (json_int_t)b->up.run_id, "run",
                             b->in.existed[0] ? "existing" : "created", "trace",
                             b->trace_existed ? "existing" : "created", "nranks",
                             b->up.nranks, "nevents", (json_int_t)b->up.nevents));
    run_trace_upload_free(&b->up);
    return rc;
}

/* POST /api/v1/traces: a tar of run.json (one run document) and the
 * trace.RANK files; the run and its trace are stored together or not at
 * all. */
int api_traces_post(struct req *r)
{
    struct err e = {0};
    struct run_trace_bundle *b = arena_alloc(r->arena, sizeof *b);
    struct fmt_file doc;
    json_error_t je;
    json_t *body;

    if (b == NULL) {
        err_nomem(&e);
        return http_error(r, &e);
    }
    memset(b, 0, sizeof *b);
    if (run_trace_from_archive(&b->up, 0, r->body.data, r->body.len, &doc, r->arena,
                               trace_draw, &e) != 0)
        return http_error(r, &e);
    body = json_loadb(doc.data, doc.len, JSON_REJECT_DUPLICATES, &je);
    if (body == NULL) {
        err_set(&e, ERR_INVALID, "invalid", "run.json",
                "run.json is not JSON: line %d: %s", je.line, je.text);
    } else if (ingest_json(&b->in, body, r->token_name, r->arena, &e) == 0 &&
               b->in.n != 1) {
        err_set(&e, ERR_INVALID, "invalid", "run.json",
                "run.json must hold one run, not %zu", b->in.n);
    }
    json_decref(body);
    if (e.status != 0) {
        run_trace_upload_free(&b->up);
        return http_error(r, &e);
    }
    r->ctx = b;
    return http_defer_write(r, run_trace_bundle_job, b, bundle_finish);
}

/* The timeline at another width than the stored one, from the stored files. */
static int timeline_at(struct req *r, long long id, int width, int svg)
{
    struct err e = {0};
    struct run_trace_set s = {0};
    struct trace *t;
    struct buf b;
    char *text;
    size_t len;
    db *d = db_pool_get(r->app->pool);
    int rc = run_trace_load(d, id, r->arena, &t, &e);

    db_pool_put(r->app->pool, d);
    if (rc != 0)
        return http_error(r, &e);
    s.t = t;
    buf_init(&b, RUN_TRACE_TEXT_MAX);
    if (run_trace_compute(&s, RUN_TRACE_TIMELINE, width, &e) != 0)
        goto fail;
    if (svg ? trace_draw(&s, RUN_TRACE_TIMELINE, &b, &e) != 0
            : run_trace_text(&s, RUN_TRACE_TIMELINE, &b, &e) != 0)
        goto fail;
    run_trace_set_free(&s);
    trace_free(t);
    text = buf_detach(&b, &len);
    if (text == NULL) {
        err_nomem(&e);
        return http_error(r, &e);
    }
    http_body(r, 200, svg ? "image/svg+xml" : "application/json", text, len);
    r->resp_free = 1;
    return 0;
fail:
    buf_free(&b);
    run_trace_set_free(&s);
    trace_free(t);
    return http_error(r, &e);
}

static int answer(struct req *r, long long id, const char *name, int svg)
{
    struct err e = {0};
    const char *text;
    size_t len;
    long long width = RUN_TRACE_WIDTH;
    int kind = run_trace_find(name), rc;
    db *d;

    if (kind < 0) {
        err_set(&e, ERR_NOT_FOUND, "not_found", NULL,
                "no trace analysis %.40s (profile, wait, traffic, load, timeline, "
                "occupancy, clusters)",
                name);
        return http_error(r, &e);
    }
    if (kind == RUN_TRACE_TIMELINE &&
        http_query_int(r, "width", 1, TRACE_MAX_WIDTH, &width, &e) != 0)
        return http_error(r, &e);
    if (kind != RUN_TRACE_TIMELINE && http_query(r, "width") != NULL) {
        err_set(&e, ERR_BAD_REQUEST, "bad_parameter", "width",
                "width is a timeline's parameter");
        return http_error(r, &e);
    }
    if (width != RUN_TRACE_WIDTH)
        return timeline_at(r, id, (int)width, svg);
    d = db_pool_get(r->app->pool);
    rc = run_trace_stored(d, id, kind, svg, r->arena, &text, &len, &e);
    db_pool_put(r->app->pool, d);
    if (rc != 0)
        return http_error(r, &e);
    return http_body(r, 200, svg ? "image/svg+xml" : "application/json", text, len);
}

/* GET /api/v1/runs/{id}/trace/{name} */
int api_trace_get(struct req *r)
{
    struct err e = {0};
    long long id = run_id(r->params[0], &e);
    if (id < 0)
        return http_error(r, &e);
    return answer(r, id, r->params[1], 0);
}

int api_trace_plot(struct req *r, const char *name)
{
    struct err e = {0};
    char idtext[24];
    const char *dash = strchr(name, '-');
    long long id;

    if (dash == NULL || (size_t)(dash - name) >= sizeof idtext) {
        err_set(&e, ERR_NOT_FOUND, "not_found", NULL, "no such plot");
        return http_error(r, &e);
    }
    memcpy(idtext, name, (size_t)(dash - name));
    idtext[dash - name] = '\0';
    if ((id = run_id(idtext, &e)) < 0)
        return http_error(r, &e);
    return answer(r, id, dash + 1, 1);
}

/* GET /api/v1/applications/{name}/occupancy?x=nprocs|INPUT&graph=G */
int api_trace_occupancy_fit(struct req *r)
{
    struct err e = {0};
    const char *x = http_query(r, "x"), *graph = http_query(r, "graph");
    json_t *ans;
    db *d;

    if (x == NULL || *x == '\0')
        x = "nprocs";
    d = db_pool_get(r->app->pool);
    ans =
        run_trace_occupancy_fit(d, r->params[0], x, graph ? graph : "auto", r->arena, &e);
    db_pool_put(r->app->pool, d);
    if (ans == NULL)
        return http_error(r, &e);
    return http_json(r, 200, ans);
}

/* The trace's MPI calls from its load answer; a trace stored before the
 * answer counted them: 0 when no rank spent time in MPI, else -1 (not
 * known: the page shows it as an MPI trace). */
static long long page_mpi_calls(json_t *load)
{
    json_t *n = json_object_get(load, "mpi_calls"), *v;
    size_t i;
    if (json_is_integer(n))
        return (long long)json_integer_value(n);
    if (!json_is_array(json_object_get(load, "comm")))
        return -1;
    json_array_foreach(json_object_get(load, "comm"), i, v)
    {
        if (json_number_value(v) != 0)
            return -1;
    }
    return 0;
}

/* GET /runs/{id}/trace */
int page_trace(struct req *r)
{
    struct err e = {0};
    struct view_trace v = {0};
    struct db_trace_info info;
    struct db_run_row row;
    struct page p;
    char title[48];
    long long id = run_id(r->params[0], &e);
    int rc = 0;
    db *d;

    if (id < 0)
        return dash_error(r, &e);
    d = db_pool_get(r->app->pool);
    rc = browse_run(d, id, r->arena, &row, &e);
    if (rc == 0)
        rc = run_trace_info(d, id, r->arena, &info, &e);
    for (int k = 0; rc == 0 && k < RUN_TRACE_COUNT; k++) {
        const char *text;
        size_t len;
        v.name[k] = run_trace_name(k);
        if (k == RUN_TRACE_PROFILE || k == RUN_TRACE_TRAFFIC || k == RUN_TRACE_TIMELINE) {
            /* their key figure is the rank count: their answers are not
             * read (a 4,096-rank timeline's is tens of MB, ten times that
             * as Jansson values: 460 MB for one page view) */
            v.answer[k] = json_pack("{s:i}", "nranks", info.nranks);
        } else {
            rc = run_trace_stored(d, id, k, 0, r->arena, &text, &len, &e);
            if (rc == 0)
                v.answer[k] = json_loadb(text, len, 0, NULL);
        }
        if (rc == 0)
            rc = run_trace_stored(d, id, k, 1, r->arena, &v.svg[k], &v.svg_len[k], &e);
    }
    db_pool_put(r->app->pool, d);
    if (rc == 0) {
        v.mpi_calls = page_mpi_calls(v.answer[RUN_TRACE_LOAD]);
        v.run_id = id;
        v.application = row.run.application;
        v.nranks = info.nranks;
        v.nevents = info.nevents;
        v.dropped = info.dropped;
        v.bytes = info.bytes;
        v.span = info.span;
        v.created_at = info.created_at;
        snprintf(title, sizeof title, "Trace of run %lld", id);
        dash_begin(&p, r, title, "applications");
        view_trace(&p, &v);
        rc = dash_end(r, &p, 200);
    } else {
        rc = dash_error(r, &e);
    }
    for (int k = 0; k < RUN_TRACE_COUNT; k++)
        json_decref(v.answer[k]);
    return rc;
}
