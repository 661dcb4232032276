/* dash_upload: the adapters of the upload pages (/upload): one run by form (POST
 * /upload/run, url-encoded), many runs by CSV file (POST /upload/csv, multipart)
 * and another tool's file imported (POST /upload/import, multipart: core/import).
 *
 * Both validate with the API's rules (server/rundoc.c: the form becomes a run
 * document; the file goes to the CSV importer), need a write token (checked
 * as the Authorization header is) and store through the writer thread as one
 * all-or-nothing job, so a rejected form stores nothing. Errors are shown
 * next to the field the error names, with the values kept.
 *
 * Cross-site requests are refused by csrf_check_origin and csrf_check
 * (server/csrf.h, docs/web.md). The pages are web/view_upload.c.
 */
#include "common/sha256.h"
#include "server/api_error.h"
#include "core/import.h"
#include "core/ingest.h"
#include "server/trace_draw.h"
#include "db/runs.h"
#include "formats/form.h"
#include "server/csrf.h"
#include "server/dash.h"
#include "server/routes.h"
#include "web/view.h"
#include "formats/rundoc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void hex(const uint8_t *d, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    size_t i;
    for (i = 0; i < n; i++) {
        out[2 * i] = digits[d[i] >> 4];
        out[2 * i + 1] = digits[d[i] & 15];
    }
    out[2 * n] = '\0';
}

/* Renders /upload. which: 0 none, 1 the run form, 2 the CSV form, 3 the
 * import form is the one submitted (values and error belong to it). */
static int upload_page(struct req *r, int status, int which, const struct form *f,
                       const struct err *e)
{
    struct view_upload v = {0};
    struct page p;
    /* A fresh client id per rendered form: submitting the same form twice
     * (double click, back and resend) stores the run once. */
    uint8_t raw[12];
    char h[25];
    if (random_bytes(raw, sizeof raw) == 0) {
        hex(raw, sizeof raw, h);
        v.client_id = arena_printf(r->arena, "web-%s", h);
    }
    v.which = which;
    v.form = f;
    v.error = e;
    {
        size_t n;
        const struct fmt_format *t = fmt_table(&n);
        struct view_choice *c = arena_alloc(r->arena, n * sizeof *c);
        for (size_t i = 0; c && i < n; i++) {
            c[i].value = t[i].name;
            c[i].label = t[i].summary;
        }
        v.formats = c;
        v.nformats = c ? n : 0;
    }
    dash_begin(&p, r, "Upload", "upload");
    p.csrf = csrf_token(r);
    view_upload(&p, &v);
    return dash_end(r, &p, status);
}

int page_upload(struct req *r)
{
    return upload_page(r, 200, 0, NULL, NULL);
}

/* ---- storing ------------------------------------------------------------------------
 */

struct web_upload {
    struct run_record *runs;
    size_t n;
    long long *ids;
    int *existed;
    int which;
    struct form form;
    struct ingest in; /* the one ingest path (core/ingest.h) */
};

static int run_finish(struct req *r)
{
    struct web_upload *u = r->ctx;
    if (r->job.rc != 0) {
        struct err e = r->job.err;
        if (e.status == ERR_CONFLICT)
            snprintf(e.message, sizeof e.message, "%s",
                     "this form was already submitted with other values; the form below "
                     "is new: submit it again");
        return upload_page(r, e.status ? api_error_status(e.status) : 500, 1, &u->form,
                           &e);
    }
    ingest_committed(&u->in);
    return http_redirect(r, arena_printf(r->arena, "/runs/%lld?stored=1", u->ids[0]));
}

static int csv_finish(struct req *r)
{
    struct web_upload *u = r->ctx;
    struct page p;
    if (r->job.rc != 0)
        return upload_page(r,
                           r->job.err.status ? api_error_status(r->job.err.status) : 500,
                           2, &u->form, &r->job.err);
    ingest_committed(&u->in);
    dash_begin(&p, r, "Upload", "upload");
    view_upload_done(&p, u->runs, u->ids, u->existed, u->n, u->in.nalerts);
    return dash_end(r, &p, 200);
}

/* Parses "name=value" lines of a text box into obj (numbers) or, for
 * kernels, into an array of {"name", "time"}. Errors name the box. */
static int parse_lines(const char *text, const char *box, json_t *out, struct err *err)
{
    const char *p = text ? text : "";
    int line = 0;
    while (*p) {
        size_t len = strcspn(p, "\n");
        const char *s = p, *e = p + len, *eq;
        char name[LIMIT_NAME + 1], num[64], *end;
        double v;
        size_t nlen;
        line++;
        p = *e ? e + 1 : e;
        if (line > LIMIT_FORM_LINES)
            return err_invalid(err, box, "%s: more than %d lines", box, LIMIT_FORM_LINES);
        while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
            s++;
        while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
            e--;
        if (s == e || *s == '#')
            continue;
        eq = memchr(s, '=', (size_t)(e - s));
        if (eq == NULL)
            return err_invalid(err, box, "%s, line %d: write name=value", box, line);
        nlen = (size_t)(eq - s);
        while (nlen > 0 && (s[nlen - 1] == ' ' || s[nlen - 1] == '\t'))
            nlen--;
        if (nlen == 0 || nlen > LIMIT_NAME)
            return err_invalid(err, box, "%s, line %d: the name must be 1 to %d bytes",
                               box, line, LIMIT_NAME);
        memcpy(name, s, nlen);
        name[nlen] = '\0';
        eq++;
        while (eq < e && (*eq == ' ' || *eq == '\t'))
            eq++;
        if ((size_t)(e - eq) >= sizeof num || e == eq)
            return err_invalid(err, box, "%s, line %d: %s needs a number after '='", box,
                               line, name);
        memcpy(num, eq, (size_t)(e - eq));
        num[e - eq] = '\0';
        errno = 0;
        v = strtod(num, &end);
        if (*end != '\0' || errno == ERANGE || !isfinite(v))
            return err_invalid(err, box, "%s, line %d: %.64s is not a finite number", box,
                               line, num);
        /* Names are added unchecked: the run validator reports invalid UTF-8
         * with the field, where a checked setter would drop the entry. */
        if (json_is_array(out)) {
            json_t *k = json_object();
            json_object_set_new(k, "name", json_string_nocheck(name));
            json_object_set_new(k, "time", json_real(v));
            json_array_append_new(out, k);
        } else {
            if (json_object_get(out, name))
                return err_invalid(err, box, "%s, line %d: %.64s is given twice", box,
                                   line, name);
            json_object_set_new_nocheck(out, name, json_real(v));
        }
    }
    return 0;
}

/* The tags box: one name=value per line, each value a text (blank lines and
 * lines starting with # skipped); the run validator checks names and
 * values. */
static int parse_tags(const char *text, json_t *out, struct err *err)
{
    const char *p = text ? text : "";
    int line = 0;
    while (*p) {
        size_t len = strcspn(p, "\n");
        const char *s = p, *e = p + len, *eq, *v;
        char name[LIMIT_IDENT + 1];
        size_t nlen;
        line++;
        p = *e ? e + 1 : e;
        if (line > LIMIT_FORM_LINES)
            return err_invalid(err, "tags", "tags: more than %d lines", LIMIT_FORM_LINES);
        while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
            s++;
        while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
            e--;
        if (s == e || *s == '#')
            continue;
        eq = memchr(s, '=', (size_t)(e - s));
        if (eq == NULL)
            return err_invalid(err, "tags", "tags, line %d: write name=value", line);
        nlen = (size_t)(eq - s);
        while (nlen > 0 && (s[nlen - 1] == ' ' || s[nlen - 1] == '\t'))
            nlen--;
        if (nlen == 0 || nlen > LIMIT_IDENT)
            return err_invalid(err, "tags",
                               "tags, line %d: the name must be 1 to %d bytes", line,
                               LIMIT_IDENT);
        memcpy(name, s, nlen);
        name[nlen] = '\0';
        for (v = eq + 1; v < e && (*v == ' ' || *v == '\t'); v++)
            ;
        if (json_object_get(out, name))
            return err_invalid(err, "tags", "tags, line %d: %.64s is given twice", line,
                               name);
        json_object_set_new_nocheck(out, name, json_stringn_nocheck(v, (size_t)(e - v)));
    }
    return 0;
}

/* Builds the run document from the form fields; the API's validator then
 * applies every rule. */
static json_t *run_document(const struct form *f, struct err *err)
{
    static const char *const names[] = {
        "id", "application", "executable", "system", "started_at", "commit", "branch"};
    json_t *doc = json_object(), *inputs = json_object(), *metrics = json_object(),
           *kernels = json_array();
    const char *s;
    size_t i;

    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        s = form_get(f, names[i]);
        if (s && *s)
            json_object_set_new(doc, names[i], json_string_nocheck(s));
    }
    s = form_get(f, "nprocs");
    if (s && *s) {
        char *end;
        long long np;
        errno = 0;
        np = strtoll(s, &end, 10);
        if (*end != '\0' || errno == ERANGE) {
            err_invalid(err, "nprocs", "nprocs must be a whole number (got %.40s)", s);
            goto fail;
        }
        json_object_set_new(doc, "nprocs", json_integer(np));
    }
    s = form_get(f, "runtime");
    if (s && *s) {
        char *end;
        double v;
        errno = 0;
        v = strtod(s, &end);
        if (*end != '\0' || errno == ERANGE || !isfinite(v)) {
            err_invalid(err, "runtime", "runtime must be a number of seconds (got %.40s)",
                        s);
            goto fail;
        }
        json_object_set_new(doc, "runtime", json_real(v));
    }
    if (parse_lines(form_get(f, "inputs"), "inputs", inputs, err) != 0 ||
        parse_lines(form_get(f, "kernels"), "kernels", kernels, err) != 0 ||
        parse_lines(form_get(f, "metrics"), "metrics", metrics, err) != 0)
        goto fail;
    json_object_set_new(doc, "inputs", inputs);
    json_object_set_new(doc, "metrics", metrics);
    json_object_set_new(doc, "kernels", kernels);
    s = form_get(f, "tags");
    if (s && *s) {
        json_t *tags = json_object();
        if (tags == NULL || parse_tags(s, tags, err) != 0) {
            json_decref(tags);
            json_decref(doc);
            return NULL;
        }
        json_object_set_new(doc, "tags", tags);
    }
    return doc;
fail:
    json_decref(doc);
    json_decref(inputs);
    json_decref(metrics);
    json_decref(kernels);
    return NULL;
}

/* The checks both forms share. Returns the upload (arena) or NULL after
 * answering. */
static struct web_upload *begin_upload(struct req *r, int which)
{
    struct web_upload *u = arena_alloc(r->arena, sizeof *u);
    struct err e = {0};

    if (u == NULL) {
        err_nomem(&e);
        dash_error(r, &e);
        return NULL;
    }
    u->which = which;
    if (csrf_check_origin(r, &e) != 0) {
        dash_error(r, &e);
        return NULL;
    }
    if (form_parse(http_header(r, "Content-Type"), r->body.data, r->body.len, r->arena,
                   &u->form, &e) != 0) {
        dash_error(r, &e);
        return NULL;
    }
    if (csrf_check(r, form_get(&u->form, "csrf"), &e) != 0 ||
        http_check_token(r, form_get(&u->form, "token"), "token", &e) != 0) {
        upload_page(r, api_error_status(e.status), which, &u->form, &e);
        return NULL;
    }
    return u;
}

static int defer_store(struct req *r, struct web_upload *u, handler_fn finish)
{
    struct err e = {0};
    if (ingest_records(&u->in, u->runs, u->n, r->token_name, r->arena, &e) != 0)
        return dash_error(r, &e);
    u->ids = u->in.ids;
    u->existed = u->in.existed;
    r->ctx = u;
    return http_defer_write(r, ingest_job, &u->in, finish);
}

int page_upload_run(struct req *r)
{
    struct web_upload *u = begin_upload(r, 1);
    struct err e = {0};
    json_t *doc;
    int rc;

    if (u == NULL)
        return 0;
    doc = run_document(&u->form, &e);
    if (doc == NULL)
        return upload_page(r, api_error_status(e.status), 1, &u->form, &e);
    u->runs = arena_alloc(r->arena, sizeof *u->runs);
    if (u->runs == NULL) {
        json_decref(doc);
        err_nomem(&e);
        return dash_error(r, &e);
    }
    u->n = 1;
    rc = rundoc_parse(doc, r->arena, &u->runs[0], &e);
    json_decref(doc);
    if (rc != 0)
        return upload_page(r, api_error_status(e.status), 1, &u->form, &e);
    return defer_store(r, u, run_finish);
}

int page_upload_csv(struct req *r)
{
    struct web_upload *u = begin_upload(r, 2);
    const struct form_field *file;
    struct err e = {0};

    if (u == NULL)
        return 0;
    file = form_find(&u->form, "file");
    if (file == NULL || file->filename == NULL || file->len == 0) {
        err_invalid(&e, "file", "choose a CSV file (it must not be empty)");
        return upload_page(r, 422, 2, &u->form, &e);
    }
    if (rundoc_parse_csv(file->value, file->len, r->arena, &u->runs, &u->n, &e) != 0)
        return upload_page(r, api_error_status(e.status), 2, &u->form, &e);
    return defer_store(r, u, csv_finish);
}

/* ---- import ---------------------------------------------------------------------- */

struct web_import {
    struct form form;
    struct import im;
};

static int import_finish(struct req *r)
{
    struct web_import *w = r->ctx;
    struct view_import_done d = {0};
    struct page p;
    int rc;

    if (r->job.rc != 0) {
        import_free(&w->im);
        return upload_page(r,
                           r->job.err.status ? api_error_status(r->job.err.status) : 500,
                           3, &w->form, &r->job.err);
    }
    d.format = w->im.format_used;
    d.runs = w->im.runs;
    d.created = w->im.created;
    d.ids = w->im.ids;
    d.system = w->im.system;
    d.benchmarks = w->im.benchmarks;
    d.benchmarks_created = w->im.benchmarks_created;
    d.nalerts = w->im.nalerts;
    for (size_t i = 0; i < w->im.nnotes && d.nnotes < sizeof d.notes / sizeof d.notes[0];
         i++)
        d.notes[d.nnotes++] = w->im.notes[i];
    dash_begin(&p, r, "Upload", "upload");
    view_import_done(&p, &d);
    rc = dash_end(r, &p, 200);
    import_free(&w->im);
    return rc;
}

/* An empty form field is "not given" (the file's own names apply). */
static const char *given(const struct form *f, const char *name)
{
    const char *s = form_get(f, name);
    return s && *s ? s : NULL;
}

int page_upload_import(struct req *r)
{
    struct web_upload *u = begin_upload(r, 3);
    struct web_import *w;
    const struct form_field *file;
    struct fmt_options opt = {0};
    struct fmt_file *files = NULL;
    size_t nfiles = 0;
    const char *format;
    struct err e = {0};
    const char *set_name = NULL;

    if (u == NULL)
        return 0;
    w = arena_alloc(r->arena, sizeof *w);
    if (w == NULL) {
        err_nomem(&e);
        return dash_error(r, &e);
    }
    w->form = u->form;
    file = form_find(&w->form, "file");
    if (file == NULL || file->filename == NULL || file->len == 0) {
        err_invalid(&e, "file", "choose a file to import (it must not be empty)");
        return upload_page(r, 422, 3, &w->form, &e);
    }
    format = given(&w->form, "format");
    /* as the API reads its body (core/import.h): gzip inflated (at most the
     * request body limit), a tar archive read as its files */
    if (import_unpack(file->filename, file->value, file->len, format,
                      r->app->cfg->max_body, r->arena, &files, &nfiles, &set_name,
                      &e) != 0)
        return upload_page(r, api_error_status(e.status), 3, &w->form, &e);
    opt.application = given(&w->form, "application");
    opt.executable = given(&w->form, "executable");
    opt.system = given(&w->form, "system");
    import_init(&w->im, format, files, nfiles, &opt, r->token_name);
    import_set_source(&w->im, set_name); /* an archive's name names the set */
    w->im.commit = given(&w->form, "commit");
    w->im.branch = given(&w->form, "branch");
    w->im.trace_draw = trace_draw; /* OTF2: the run's trace too */
    if (import_add_inputs(&w->im, given(&w->form, "inputs"), &e) != 0 ||
        import_check(&w->im, &e) != 0 || import_prepare(&w->im, &e) != 0)
        return upload_page(r, api_error_status(e.status), 3, &w->form, &e);
    r->ctx = w;
    return http_defer_write(r, import_job, &w->im, import_finish);
}
