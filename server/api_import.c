/* api_import: POST /api/v1/import (SPEC §12) — a thin adapter onto
 * core/import.
 *
 * The body is the file, or a tar archive of a directory format's files (TAU,
 * OTF2; any tar is read as one), either of them possibly gzip-compressed
 * (core/import.h import_unpack, bounded by the request body limit). Query: format
 * (default auto), application, executable, system, nprocs, and filename (the file's name
 * for messages and the default application). The parse runs inside the writer's job so
 * that each batch of runs is stored as it is read and released (memory bounded) and the
 * whole import commits or nothing does; a costly format (OTF2) is parsed before, on the
 * model worker that runs this handler (R_COSTLY), and the job only stores it
 * (core/import.h import_prepare). 201 when something new was stored, 200 when everything
 * was there already.
 */
#include "core/import.h"
#include "server/routes.h"
#include "server/trace_draw.h"

#include <string.h>

static int import_finish(struct req *r)
{
    struct import *im = r->ctx;
    json_t *ids, *out;
    int created;

    if (r->job.rc != 0) {
        import_free(im);
        return http_error(r, &r->job.err);
    }
    ids = json_array();
    for (size_t i = 0; i < im->runs; i++)
        json_array_append_new(ids, json_integer(im->ids[i]));
    out = json_pack("{s:s, s:I, s:I, s:I, s:o}", "format", im->format_used, "runs",
                    (json_int_t)im->runs, "created", (json_int_t)im->created, "existing",
                    (json_int_t)(im->runs - im->created), "ids", ids);
    if (im->benchmarks > 0)
        json_object_set_new(
            out, "benchmarks",
            json_pack("{s:s, s:I, s:I, s:I}", "system", im->system, "read",
                      (json_int_t)im->benchmarks, "created",
                      (json_int_t)im->benchmarks_created, "existing",
                      (json_int_t)(im->benchmarks - im->benchmarks_created)));
    /* the alerts the runs raised, as POST /api/v1/runs lists them */
    json_object_set_new(out, "alerts", api_upload_alerts(r, im->alerts, im->nalerts));
    if (im->nnotes > 0) {
        json_t *notes = json_array();
        for (size_t i = 0; i < im->nnotes; i++)
            json_array_append_new(notes, json_string(im->notes[i]));
        json_object_set_new(out, "notes", notes);
    }
    created = im->created > 0 || im->benchmarks_created > 0;
    import_free(im);
    return http_json(r, created ? 201 : 200, out);
}

/* input.NAME=NUMBER: an input of every run */
static int add_inputs(struct req *r, struct import *im, struct err *err)
{
    json_t *q = http_query_object(r, err), *v;
    const char *key;
    int rc = q ? 0 : -1;

    json_object_foreach(q, key, v)
    {
        if (rc == 0 && strncmp(key, "input.", 6) == 0)
            rc = import_add_input(im, key + 6, strlen(key + 6), json_string_value(v),
                                  json_string_length(v), err);
    }
    json_decref(q);
    return rc;
}

int api_import_post(struct req *r)
{
    struct err e = {0};
    struct import *im = arena_alloc(r->arena, sizeof *im);
    struct fmt_options opt = {0};
    struct fmt_file *files = NULL;
    size_t nfiles = 0;
    long long nprocs = 0;
    const char *set_name = NULL;
    const char *format = http_query(r, "format");
    const char *filename = http_query(r, "filename");

    if (im == NULL) {
        err_nomem(&e);
        return http_error(r, &e);
    }
    if (http_query_int(r, "nprocs", 1, 100000000, &nprocs, &e) != 0)
        return http_error(r, &e);
    opt.application = http_query(r, "application");
    opt.executable = http_query(r, "executable");
    opt.system = http_query(r, "system");
    opt.nprocs = nprocs;
    if (r->body.len == 0) {
        err_set(&e, ERR_INVALID, "invalid_import", "body",
                "the body is empty: send the file (or a tar archive of a directory)");
        return http_error(r, &e);
    }
    /* an inflated body may not exceed what a plain one may */
    if (import_unpack(filename, r->body.data, r->body.len, format, r->app->cfg->max_body,
                      r->arena, &files, &nfiles, &set_name, &e) != 0)
        return http_error(r, &e);
    import_init(im, format, files, nfiles, &opt, r->token_name);
    import_set_source(im, set_name); /* an archive's name names the set */
    im->commit = http_query(r, "commit");
    im->branch = http_query(r, "branch");
    im->trace_draw = trace_draw; /* OTF2: the run's trace too */
    if (add_inputs(r, im, &e) != 0)
        return http_error(r, &e);
    /* a costly format (OTF2) is parsed here, on a model worker, so that the
     * writer's job only stores what it gave */
    if (import_check(im, &e) != 0 || import_prepare(im, &e) != 0)
        return http_error(r, &e);
    r->ctx = im;
    return http_defer_write(r, import_job, im, import_finish);
}
