/* page_upload: the upload pages (/upload): one run by form (POST /upload/run,
 * url-encoded) and many runs by CSV file (POST /upload/csv, multipart).
 *
 * Both validate with the API's rules (server/rundoc.c: the form becomes a run
 * document; the file goes to the CSV importer), need a write token (checked
 * as the Authorization header is) and store through the writer thread as one
 * all-or-nothing job, so a rejected form stores nothing. Errors are shown
 * next to the field the error names, with the values kept.
 *
 * Cross-site requests are refused by page_check_origin and page_check_csrf
 * (server/page.h, docs/web.md).
 */
#include "common/sha256.h"
#include "db/runs.h"
#include "server/form.h"
#include "server/page.h"
#include "server/routes.h"
#include "formats/rundoc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_LINES 10000 /* lines of one inputs/kernels/metrics box */
#define SHOW_IDS 100    /* stored runs listed after a CSV upload */

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

/* ---- the page ---------------------------------------------------------------------- */

struct field_def {
    const char *name, *label, *hint;
    int kind; /* 0 text, 1 textarea, 2 password */
    int required;
    const char *inputmode, *placeholder;
};

static const struct field_def run_fields[] = {
    {"application", "Application", NULL, 0, 1, NULL, "matmul"},
    {"executable", "Executable", NULL, 0, 1, NULL, "matmul_sgi"},
    {"system", "System", NULL, 0, 1, NULL, "SGI Origin2000"},
    {"nprocs", "Processors", NULL, 0, 1, "numeric", "8"},
    {"runtime", "Runtime (s)", NULL, 0, 1, "decimal", "12.5"},
    {"started_at", "Started at", "optional, ISO 8601", 0, 0, NULL,
     "2026-11-21T10:00:00Z"},
    {"inputs", "Inputs", "one name=value per line", 1, 0, NULL, "N=1000"},
    {"kernels", "Kernels", "optional, one name=time (s) per line", 1, 0, NULL,
     "multiply=11.2"},
    {"metrics", "Metrics", "optional, one name=value per line", 1, 0, NULL,
     "mflops=1596"},
};

/* The form field an error names: "inputs.N" -> inputs, "kernels[2].time"
 * -> kernels, "line 3: nprocs" (CSV) -> file. */
static int error_is_for(const struct err *e, const char *field, int csv)
{
    size_t n;
    if (e == NULL || e->status == 0)
        return 0;
    if (csv) {
        /* Every error of the importer concerns the file, whatever line it
         * names; the token's and the CSRF check's do not. */
        if (strcmp(field, "file") == 0)
            return e->status != 403 && strcmp(e->field, "token") != 0;
        return strcmp(e->field, field) == 0;
    }
    n = strcspn(e->field, ".[");
    return n == strlen(field) && strncmp(e->field, field, n) == 0;
}

static void field_error(struct page *p, const char *id, const struct err *e)
{
    page_printf(p, "<p class=\"field-error\" id=\"%s-error\">", id);
    page_text(p, e->message);
    page_puts(p, "</p>");
}

static void input_field(struct page *p, const char *form, const struct field_def *d,
                        const char *value, const struct err *e, int csv)
{
    int bad = error_is_for(e, d->name, csv);
    char id[64];
    snprintf(id, sizeof id, "%s-%s", form, d->name);
    page_printf(p, "<div class=\"field%s\"><label for=\"%s\">%s",
                d->kind == 1 ? " wide" : "", id, d->label);
    if (d->hint)
        page_printf(p, " <span class=\"hint\">%s</span>", d->hint);
    page_puts(p, "</label>");
    if (d->kind == 1) {
        page_printf(p, "<textarea id=\"%s\" name=\"%s\" rows=\"3\" placeholder=\"", id,
                    d->name);
        page_attr(p, d->placeholder);
        page_puts(p, "\"");
    } else {
        page_printf(p, "<input type=\"%s\" id=\"%s\" name=\"%s\"",
                    d->kind == 2 ? "password" : "text", id, d->name);
        if (d->inputmode)
            page_printf(p, " inputmode=\"%s\"", d->inputmode);
        if (d->placeholder) {
            page_puts(p, " placeholder=\"");
            page_attr(p, d->placeholder);
            page_puts(p, "\"");
        }
        if (d->kind == 2)
            page_puts(p, " autocomplete=\"off\"");
        else {
            page_puts(p, " value=\"");
            page_attr(p, value ? value : "");
            page_puts(p, "\"");
        }
    }
    if (d->required)
        page_puts(p, " required");
    if (bad)
        page_printf(p, " aria-invalid=\"true\" aria-describedby=\"%s-error\"", id);
    page_puts(p, ">");
    if (d->kind == 1) {
        page_text(p, value ? value : "");
        page_puts(p, "</textarea>");
    }
    if (bad)
        field_error(p, id, e);
    page_puts(p, "</div>\n");
}

static void hidden_fields(struct page *p, struct req *r, int with_id)
{
    page_puts(p, "<input type=\"hidden\" name=\"csrf\" value=\"");
    page_attr(p, page_csrf_token(r));
    page_puts(p, "\">");
    if (with_id) {
        /* A fresh client id per rendered form: submitting the same form twice
         * (double click, back and resend) stores the run once. */
        uint8_t raw[12];
        char h[25];
        if (random_bytes(raw, sizeof raw) == 0) {
            hex(raw, sizeof raw, h);
            page_printf(p, "<input type=\"hidden\" name=\"id\" value=\"web-%s\">", h);
        }
    }
    page_puts(p, "\n");
}

static const struct field_def token_field = {
    "token", "Write token", "from prophecyd token create NAME", 2, 1, NULL, "pt_…"};

/* Renders /upload. which: 0 none, 1 the run form, 2 the CSV form is the one
 * submitted (values and error belong to it). */
static int upload_page(struct req *r, int status, int which, const struct form *f,
                       const struct err *e)
{
    struct page p;
    size_t i;
    const struct err *run_err = which == 1 ? e : NULL, *csv_err = which == 2 ? e : NULL;

    page_begin(&p, r, "Upload", "upload");
    page_puts(&p, "<h1>Upload results</h1>\n<p class=\"lead\">Store one run by hand, or "
                  "many from a CSV file. Both need a write token and follow the rules of "
                  "<code>POST /api/v1/runs</code>; a rejected upload stores nothing. "
                  "Jobs upload with <code>prophecy-upload</code>.</p>\n");
    if (e && e->status) {
        int fielded = 0;
        if (which == 1) {
            for (i = 0; i < sizeof run_fields / sizeof run_fields[0]; i++)
                fielded |= error_is_for(e, run_fields[i].name, 0);
            fielded |= error_is_for(e, "token", 0);
        } else if (which == 2) {
            fielded = error_is_for(e, "file", 1) || error_is_for(e, "token", 1);
        }
        page_puts(&p, "<div class=\"notice bad\" role=\"alert\" id=\"upload-error\">");
        page_puts(&p, fielded ? "Nothing was stored: see the field marked below. "
                              : "Nothing was stored: ");
        if (!fielded)
            page_text(&p, e->message);
        page_puts(&p, "</div>\n");
    }

    page_puts(&p, "<h2 id=\"one\">One run</h2>\n<form class=\"card\" id=\"run-form\" "
                  "method=\"post\" action=\"/upload/run\" "
                  "enctype=\"application/x-www-form-urlencoded\">\n");
    hidden_fields(&p, r, 1);
    page_puts(&p, "<div class=\"fields\">\n");
    for (i = 0; i < sizeof run_fields / sizeof run_fields[0]; i++)
        input_field(&p, "run", &run_fields[i],
                    which == 1 && f ? form_get(f, run_fields[i].name) : NULL, run_err, 0);
    input_field(&p, "run", &token_field, NULL, run_err, 0);
    page_puts(&p, "</div>\n<button type=\"submit\">Store the run</button>\n</form>\n");

    page_puts(
        &p, "<h2 id=\"csv\">Many runs from a CSV file</h2>\n<p>A header row naming the "
            "columns <code>application,executable,system,nprocs,runtime</code> (any "
            "order), optionally <code>id</code>, <code>started_at</code> and "
            "<code>metric.NAME</code>; every other column is a numeric input such as "
            "<code>N</code>. Up to 10,000 runs per file, stored all or nothing.</p>\n"
            "<form class=\"card\" id=\"csv-form\" method=\"post\" action=\"/upload/csv\" "
            "enctype=\"multipart/form-data\">\n");
    hidden_fields(&p, r, 0);
    page_puts(
        &p, "<div class=\"fields\">\n<div class=\"field wide\">"
            "<label for=\"csv-file\">CSV file</label>"
            "<input type=\"file\" id=\"csv-file\" name=\"file\" accept=\".csv,text/csv\" "
            "required");
    if (error_is_for(csv_err, "file", 1))
        page_puts(&p, " aria-invalid=\"true\" aria-describedby=\"csv-file-error\">");
    else
        page_puts(&p, ">");
    if (error_is_for(csv_err, "file", 1))
        field_error(&p, "csv-file", csv_err);
    page_puts(&p, "</div>\n");
    input_field(&p, "csv", &token_field, NULL, csv_err, 1);
    page_puts(&p, "</div>\n<button type=\"submit\">Upload the file</button>\n</form>\n");
    return page_end(&p, status);
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
};

static int store_job(db *d, void *arg, struct err *err)
{
    struct web_upload *u = arg;
    return db_runs_insert(d, u->runs, u->n, u->ids, u->existed, err);
}

static int run_finish(struct req *r)
{
    struct web_upload *u = r->ctx;
    if (r->job.rc != 0) {
        struct err e = r->job.err;
        if (e.status == 409)
            snprintf(e.message, sizeof e.message, "%s",
                     "this form was already submitted with other values; the form below "
                     "is new: submit it again");
        return upload_page(r, e.status ? e.status : 500, 1, &u->form, &e);
    }
    return http_redirect(r, arena_printf(r->arena, "/runs/%lld?stored=1", u->ids[0]));
}

static int csv_finish(struct req *r)
{
    struct web_upload *u = r->ctx;
    struct page p;
    size_t i, created = 0;
    if (r->job.rc != 0)
        return upload_page(r, r->job.err.status ? r->job.err.status : 500, 2, &u->form,
                           &r->job.err);
    for (i = 0; i < u->n; i++)
        created += !u->existed[i];
    page_begin(&p, r, "Upload", "upload");
    page_printf(&p,
                "<h1>Upload results</h1>\n<p class=\"notice good\" role=\"status\" "
                "id=\"upload-result\">Stored %zu new run%s from the file (%zu already "
                "stored).</p>\n",
                created, created == 1 ? "" : "s", u->n - created);
    page_table_open(&p, "Stored runs");
    page_puts(&p,
              "<thead><tr><th class=\"num\">Run</th><th>Application</th>"
              "<th>System</th><th class=\"num\">Processors</th>"
              "<th class=\"num\">Runtime (s)</th><th>Status</th></tr></thead><tbody>\n");
    for (i = 0; i < u->n && i < SHOW_IDS; i++) {
        page_printf(&p, "<tr><td class=\"num\"><a href=\"/runs/%lld\">%lld</a></td><td>",
                    u->ids[i], u->ids[i]);
        page_link(&p, "/applications/", u->runs[i].application, NULL);
        page_puts(&p, "</td><td>");
        page_text(&p, u->runs[i].system);
        page_printf(&p, "</td><td class=\"num\">%lld</td><td class=\"num\">",
                    u->runs[i].nprocs);
        page_num(&p, u->runs[i].runtime);
        page_printf(&p, "</td><td>%s</td></tr>\n",
                    u->existed[i] ? "already stored" : "new");
    }
    page_puts(&p, "</tbody>");
    page_table_close(&p);
    if (u->n > SHOW_IDS)
        page_printf(&p, "<p class=\"muted\">The first %d of %zu runs.</p>\n", SHOW_IDS,
                    u->n);
    page_puts(&p, "<p><a href=\"/upload\">Upload more</a></p>\n");
    return page_end(&p, 200);
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
        if (line > MAX_LINES)
            return err_invalid(err, box, "%s: more than %d lines", box, MAX_LINES);
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

/* Builds the run document from the form fields; the API's validator then
 * applies every rule. */
static json_t *run_document(const struct form *f, struct err *err)
{
    static const char *const names[] = {"id", "application", "executable", "system",
                                        "started_at"};
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
        page_error(r, &e);
        return NULL;
    }
    u->which = which;
    if (page_check_origin(r, &e) != 0) {
        page_error(r, &e);
        return NULL;
    }
    if (form_parse(http_header(r, "Content-Type"), r->body.data, r->body.len, r->arena,
                   &u->form, &e) != 0) {
        page_error(r, &e);
        return NULL;
    }
    if (page_check_csrf(r, form_get(&u->form, "csrf"), &e) != 0 ||
        http_check_token(r, form_get(&u->form, "token"), "token", &e) != 0) {
        upload_page(r, e.status, which, &u->form, &e);
        return NULL;
    }
    return u;
}

static int defer_store(struct req *r, struct web_upload *u, handler_fn finish)
{
    struct err e = {0};
    size_t i;
    u->ids = arena_alloc(r->arena, (u->n + 1) * sizeof *u->ids);
    u->existed = arena_alloc(r->arena, (u->n + 1) * sizeof *u->existed);
    if (u->ids == NULL || u->existed == NULL) {
        err_nomem(&e);
        return page_error(r, &e);
    }
    for (i = 0; i < u->n; i++)
        u->runs[i].submitter = r->token_name;
    r->ctx = u;
    return http_defer_write(r, store_job, u, finish);
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
        return upload_page(r, e.status, 1, &u->form, &e);
    u->runs = arena_alloc(r->arena, sizeof *u->runs);
    if (u->runs == NULL) {
        json_decref(doc);
        err_nomem(&e);
        return page_error(r, &e);
    }
    u->n = 1;
    rc = rundoc_parse(doc, r->arena, &u->runs[0], &e);
    json_decref(doc);
    if (rc != 0)
        return upload_page(r, e.status, 1, &u->form, &e);
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
        return upload_page(r, e.status, 2, &u->form, &e);
    return defer_store(r, u, csv_finish);
}
