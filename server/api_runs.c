/* api_runs: uploading, listing and exporting runs (SPEC §4).
 *
 * An upload is validated completely on the pool thread, then handed to the
 * writer as one job: the whole request commits or nothing does, and it shares
 * its commit (and fsync) with whatever else is queued (group commit).
 */
#include "common/xalloc.h"
#include "core/catalog_read.h"
#include "core/ingest.h"
#include "db/runs.h"
#include "core/export.h"
#include "server/routes.h"
#include "formats/rundoc.h"

#include <errno.h>
#include <microhttpd.h>
#include <stdlib.h>
#include <string.h>

int api_health(struct req *r)
{
    return http_json(r, 200,
                     json_pack("{s:s, s:s, s:i}", "status", "ok", "version",
                               PROPHECY_VERSION, "schema", db_schema_version()));
}

static int upload_finish(struct req *r)
{
    struct ingest *in = r->ctx;
    json_t *ids, *list;
    size_t i;

    if (r->job.rc != 0)
        return http_error(r, &r->job.err);
    ingest_committed(in);
    ids = json_array();
    list = json_array();
    for (i = 0; i < in->n; i++) {
        json_array_append_new(ids, json_integer(in->ids[i]));
        json_array_append_new(list,
                              json_pack("{s:I, s:s?, s:s}", "id", (json_int_t)in->ids[i],
                                        "uid", in->runs[i].uid, "status",
                                        in->existed[i] ? "existing" : "created"));
    }
    return http_json(r, in->created ? 201 : 200,
                     json_pack("{s:o, s:I, s:I, s:o, s:o}", "ids", ids, "created",
                               (json_int_t)in->created, "existing",
                               (json_int_t)(in->n - in->created), "runs", list, "alerts",
                               api_upload_alerts(r, in->alerts, in->nalerts)));
}

/* An upload (JSON or CSV) is validated completely here, on the pool thread,
 * then stored by the writer as one job (core/ingest.h). */
int api_runs_post(struct req *r)
{
    const char *ct = http_header(r, "Content-Type");
    struct err e = {0};
    struct ingest *in = arena_alloc(r->arena, sizeof *in);
    int rc;

    if (in == NULL) {
        err_nomem(&e);
        return http_error(r, &e);
    }
    if (ct && strncmp(ct, "text/csv", 8) == 0) {
        rc = ingest_csv(in, r->body.data, r->body.len, r->token_name, r->arena, &e);
    } else {
        json_t *body = http_body_json(r, &e);
        if (body == NULL)
            return http_error(r, &e);
        rc = ingest_json(in, body, r->token_name, r->arena, &e);
        json_decref(body);
    }
    if (rc != 0)
        return http_error(r, &e);
    r->ctx = in;
    return http_defer_write_group(r, ingest_job, ingest_group, in, upload_finish);
}

/* The one tag.KEY=VALUE filter of a run listing, if any. */
static int query_tag(struct req *r, const char **key, const char **value, struct err *e)
{
    json_t *q = http_query_object(r, e), *v;
    const char *name;
    int n = 0;

    *key = *value = NULL;
    if (q == NULL)
        return -1;
    json_object_foreach(q, name, v)
    {
        if (strncmp(name, "tag.", 4) != 0)
            continue;
        if (n++ > 0 || name[4] == '\0') {
            /* name belongs to q: record the error before releasing it */
            err_set(e, ERR_BAD_REQUEST, "bad_parameter", name,
                    "give one tag.KEY=VALUE filter with a non-empty KEY");
            json_decref(q);
            return -1;
        }
        *key = arena_strdup(r->arena, name + 4);
        *value = arena_strdup(r->arena, json_string_value(v));
    }
    json_decref(q);
    return 0;
}

int api_runs_list(struct req *r)
{
    struct db_run_filter f = {0};
    struct err e = {0};
    long long limit = 100, after = 0, nprocs = 0;
    json_t *out;
    db *d;

    if (http_query_int(r, "limit", 1, 1000, &limit, &e) != 0 ||
        http_query_int(r, "after", 0, (1LL << 62), &after, &e) != 0 ||
        http_query_int(r, "nprocs", 1, 100000000, &nprocs, &e) != 0)
        return http_error(r, &e);
    f.application = http_query(r, "application");
    f.executable = http_query(r, "executable");
    f.system = http_query(r, "system");
    f.nprocs = nprocs;
    f.commit = http_query(r, "commit");
    f.branch = http_query(r, "branch");
    if (query_tag(r, &f.tag_key, &f.tag_value, &e) != 0)
        return http_error(r, &e);
    f.after = after;
    f.limit = (int)limit;
    d = db_pool_get(r->app->pool);
    out = catalog_runs_answer(d, &f, r->arena, &e);
    db_pool_put(r->app->pool, d);
    if (out == NULL)
        return http_error(r, &e);
    return http_json(r, 200, out);
}

int api_run_get(struct req *r)
{
    struct err e = {0};
    char *end;
    long long id;
    json_t *v;
    db *d;

    errno = 0;
    id = strtoll(r->params[0], &end, 10);
    if (*end != '\0' || errno == ERANGE || id < 1) {
        err_set(&e, ERR_NOT_FOUND, "not_found", NULL, "no run with id %s", r->params[0]);
        return http_error(r, &e);
    }
    d = db_pool_get(r->app->pool);
    v = catalog_run_answer(d, id, r->arena, &e);
    db_pool_put(r->app->pool, d);
    if (v == NULL)
        return http_error(r, &e);
    return http_json(r, 200, v);
}

/* ---- export: streamed in pages so memory stays flat ------------------------ */

struct export_stream {
    struct app *app;
    struct exporter *x;
};

/* One page: one pooled connection per page, returned between pages, so a
 * slow client never holds a reader. */
static int export_next(void *ctx, struct buf *out, struct err *err)
{
    struct export_stream *st = ctx;
    db *d = db_pool_get(st->app->pool);
    int more = export_page(st->x, d, out, err);
    db_pool_put(st->app->pool, d);
    return more;
}

static void export_release(void *ctx)
{
    struct export_stream *st = ctx;
    export_free(st->x);
    xfree(st);
}

int api_export(struct req *r)
{
    const char *fmt = http_query(r, "format");
    struct export_stream *st;
    struct err e = {0};
    int csv = fmt && strcmp(fmt, "csv") == 0;

    if (fmt && !csv && strcmp(fmt, "json") != 0) {
        err_set(&e, ERR_BAD_REQUEST, "bad_parameter", "format",
                "format must be csv or json");
        return http_error(r, &e);
    }
    st = xcalloc(1, sizeof *st);
    if (st == NULL || (st->x = export_new(csv)) == NULL) {
        xfree(st);
        err_nomem(&e);
        return http_error(r, &e);
    }
    st->app = r->app;
    return http_stream(r, csv ? "text/csv; charset=utf-8" : "application/json", 64u << 20,
                       export_next, export_release, st);
}
