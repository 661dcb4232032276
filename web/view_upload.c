/* view_upload: the upload page (/upload) with its three forms, one run by
 * hand, many runs by CSV file and a file of another tool imported (SPEC
 * §12), errors shown next to the field they name with the values kept; and
 * the pages after a CSV upload and an import listing what was stored. See view.h; the
 * adapter is server/dash_upload.c.
 */
#include "web/view.h"

#include <stdio.h>
#include <string.h>

#define SHOW_IDS 100 /* stored runs listed after a CSV upload */

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
    {"commit", "Commit", "optional, the source revision measured", 0, 0, NULL,
     "9fceb02d0ae5"},
    {"branch", "Branch", "optional", 0, 0, NULL, "main"},
    {"tags", "Tags", "optional, one name=value per line", 1, 0, NULL, "compiler=gcc-14"},
};

static const struct field_def import_fields[] = {
    {"application", "Application", "optional: overrides the file's", 0, 0, NULL, NULL},
    {"executable", "Executable", "optional", 0, 0, NULL, NULL},
    {"system", "System", "needed for OSU output", 0, 0, NULL, NULL},
    {"commit", "Commit", "optional: for runs the file names none", 0, 0, NULL, NULL},
    {"branch", "Branch", "optional: for runs the file names none", 0, 0, NULL, NULL},
    {"inputs", "Inputs", "optional: N=1000, or N from the file", 0, 0, NULL,
     "N=1000, p=4"},
};

/* The form field an error names: "inputs.N" -> inputs, "kernels[2].time"
 * -> kernels, "line 3: nprocs" (CSV) -> file. */
static int error_is_for(const struct err *e, const char *field, int csv)
{
    size_t n;
    if (e == NULL || e->status == 0)
        return 0;
    if (csv == 2) {
        /* An import's errors name a field of the form (format, token, the
         * fields of import_fields) or else the file ("lulesh.txt:5"). */
        int named = strcmp(e->field, "format") == 0 || strcmp(e->field, "token") == 0;
        int input = strncmp(e->field, "input.", 6) == 0; /* input.N: inputs */
        for (size_t i = 0; i < sizeof import_fields / sizeof import_fields[0]; i++)
            named |= strcmp(e->field, import_fields[i].name) == 0;
        if (strcmp(field, "file") == 0)
            return !named && !input && e->status != ERR_FORBIDDEN;
        return strcmp(e->field, field) == 0 || (input && strcmp(field, "inputs") == 0);
    }
    if (csv) {
        /* Every error of the importer concerns the file, whatever line it
         * names; the token's and the CSRF check's do not. */
        if (strcmp(field, "file") == 0)
            return e->status != ERR_FORBIDDEN && strcmp(e->field, "token") != 0;
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

static void hidden_fields(struct page *p, const char *client_id)
{
    page_puts(p, "<input type=\"hidden\" name=\"csrf\" value=\"");
    page_attr(p, p->csrf);
    page_puts(p, "\">");
    if (client_id) {
        page_puts(p, "<input type=\"hidden\" name=\"id\" value=\"");
        page_attr(p, client_id);
        page_puts(p, "\">");
    }
    page_puts(p, "\n");
}

static const struct field_def token_field = {
    "token", "Write token", "from prophecyd token create NAME", 2, 1, NULL, "pt_…"};

/* The token field, unless signed in (the session's token then stores it)
 * and the token was not refused. */
static void token_input(struct page *p, const char *form, const struct err *e, int kind)
{
    if (p->user != NULL && !(e && e->status == ERR_UNAUTHORIZED))
        return;
    input_field(p, form, &token_field, NULL, e, kind);
}

/* The third form: a file of another tool (docs/import.md), its format from
 * the table of formats, names that override the file's. */
static void import_form(struct page *p, const struct view_upload *d, const struct err *e)
{
    const struct form *f = d->which == 3 ? d->form : NULL;
    const char *chosen = f ? form_get(f, "format") : NULL;
    int bad;

    page_puts(p,
              "<h2 id=\"import\">Import a file</h2>\n<p>Output of Score-P (CUBE), "
              "Extra-P, Caliper, TAU, HPCToolkit, Nsight Systems, OSU "
              "micro-benchmarks, LLVM LNT, Bencher, Google Benchmark, a Trace Event "
              "JSON or an OTF2 trace: one file, or a tar archive of a directory (a TAU "
              "profile, an HPCToolkit database, an OTF2 trace). Importing a file twice "
              "stores nothing new. See "
              "<code>docs/import.md</code>.</p>\n"
              "<form class=\"card\" id=\"import-form\" method=\"post\" "
              "action=\"/upload/import\" enctype=\"multipart/form-data\">\n");
    hidden_fields(p, NULL);
    page_puts(p, "<div class=\"fields\">\n<div class=\"field wide\">"
                 "<label for=\"import-file\">File</label>"
                 "<input type=\"file\" id=\"import-file\" name=\"file\" required");
    bad = error_is_for(e, "file", 2);
    page_puts(p, bad ? " aria-invalid=\"true\" aria-describedby=\"import-file-error\">"
                     : ">");
    if (bad)
        field_error(p, "import-file", e);
    /* wide: a format's label names its files, up to ~90 characters */
    page_puts(
        p, "</div>\n<div class=\"field wide\"><label for=\"import-format\">Format</label>"
           "<select id=\"import-format\" name=\"format\"");
    bad = error_is_for(e, "format", 2);
    if (bad)
        page_puts(p, " aria-invalid=\"true\" aria-describedby=\"import-format-error\"");
    page_puts(p, "><option value=\"auto\">auto (recognise it)</option>");
    for (size_t i = 0; i < d->nformats; i++) {
        page_puts(p, "<option value=\"");
        page_attr(p, d->formats[i].value);
        page_puts(p, "\"");
        if (chosen && strcmp(chosen, d->formats[i].value) == 0)
            page_puts(p, " selected");
        page_puts(p, ">");
        page_text(p, d->formats[i].value);
        page_puts(p, " — ");
        page_text(p, d->formats[i].label);
        page_puts(p, "</option>");
    }
    page_puts(p, "</select>");
    if (bad)
        field_error(p, "import-format", e);
    page_puts(p, "</div>\n");
    for (size_t i = 0; i < sizeof import_fields / sizeof import_fields[0]; i++)
        input_field(p, "import", &import_fields[i],
                    f ? form_get(f, import_fields[i].name) : NULL, e, 2);
    token_input(p, "import", e, 2);
    page_puts(p, "</div>\n<button type=\"submit\">Import the file</button>\n</form>\n");
}

void view_upload(struct page *p, const struct view_upload *d)
{
    size_t i;
    int which = d->which;
    const struct form *f = d->form;
    const struct err *e = d->error;
    const struct err *run_err = which == 1 ? e : NULL, *csv_err = which == 2 ? e : NULL;
    const struct err *imp_err = which == 3 ? e : NULL;

    page_puts(p, "<h1>Upload results</h1>\n<p class=\"lead\">Store one run by hand, "
                 "many from a CSV file, or import another tool's file. All need a write "
                 "token and follow the rules of <code>POST /api/v1/runs</code>; a "
                 "rejected upload stores nothing. Jobs upload with "
                 "<code>prophecy-upload</code>.</p>\n");
    if (e && e->status) {
        int fielded = 0;
        if (which == 1) {
            for (i = 0; i < sizeof run_fields / sizeof run_fields[0]; i++)
                fielded |= error_is_for(e, run_fields[i].name, 0);
            fielded |= error_is_for(e, "token", 0);
        } else if (which == 2) {
            fielded = error_is_for(e, "file", 1) || error_is_for(e, "token", 1);
        } else if (which == 3) {
            fielded = e->status != ERR_FORBIDDEN;
        }
        page_puts(p, "<div class=\"notice bad\" role=\"alert\" id=\"upload-error\">");
        page_puts(p, fielded ? "Nothing was stored: see the field marked below. "
                             : "Nothing was stored: ");
        if (!fielded)
            page_text(p, e->message);
        page_puts(p, "</div>\n");
    }

    page_puts(p, "<h2 id=\"one\">One run</h2>\n<form class=\"card\" id=\"run-form\" "
                 "method=\"post\" action=\"/upload/run\" "
                 "enctype=\"application/x-www-form-urlencoded\">\n");
    hidden_fields(p, d->client_id);
    page_puts(p, "<div class=\"fields\">\n");
    for (i = 0; i < sizeof run_fields / sizeof run_fields[0]; i++)
        input_field(p, "run", &run_fields[i],
                    which == 1 && f ? form_get(f, run_fields[i].name) : NULL, run_err, 0);
    token_input(p, "run", run_err, 0);
    page_puts(p, "</div>\n<button type=\"submit\">Store the run</button>\n</form>\n");

    page_puts(
        p, "<h2 id=\"csv\">Many runs from a CSV file</h2>\n<p>A header row naming the "
           "columns <code>application,executable,system,nprocs,runtime</code> (any "
           "order), optionally <code>id</code>, <code>started_at</code>, "
           "<code>metric.NAME</code> and the provenance <code>commit</code>, "
           "<code>branch</code> and <code>tag.KEY</code>; every other column is a "
           "numeric input such as "
           "<code>N</code>. Up to 10,000 runs per file, stored all or nothing.</p>\n"
           "<form class=\"card\" id=\"csv-form\" method=\"post\" action=\"/upload/csv\" "
           "enctype=\"multipart/form-data\">\n");
    hidden_fields(p, NULL);
    page_puts(
        p, "<div class=\"fields\">\n<div class=\"field wide\">"
           "<label for=\"csv-file\">CSV file</label>"
           "<input type=\"file\" id=\"csv-file\" name=\"file\" accept=\".csv,text/csv\" "
           "required");
    if (error_is_for(csv_err, "file", 1))
        page_puts(p, " aria-invalid=\"true\" aria-describedby=\"csv-file-error\">");
    else
        page_puts(p, ">");
    if (error_is_for(csv_err, "file", 1))
        field_error(p, "csv-file", csv_err);
    page_puts(p, "</div>\n");
    token_input(p, "csv", csv_err, 1);
    page_puts(p, "</div>\n<button type=\"submit\">Upload the file</button>\n</form>\n");
    import_form(p, d, imp_err);
}

/* The alerts the watches raised on an upload's runs, where they are triaged. */
static void alerts_raised(struct page *p, size_t nalerts)
{
    if (nalerts == 0)
        return;
    page_printf(p,
                "<p class=\"notice bad\" id=\"upload-alerts\">The watches raised %zu "
                "alert%s on these runs: <a href=\"/alerts\">Alerts</a>.</p>\n",
                nalerts, nalerts == 1 ? "" : "s");
}

void view_upload_done(struct page *p, const struct run_record *runs, const long long *ids,
                      const int *existed, size_t n, size_t nalerts)
{
    size_t i, created = 0;
    for (i = 0; i < n; i++)
        created += !existed[i];
    page_printf(p,
                "<h1>Upload results</h1>\n<p class=\"notice good\" role=\"status\" "
                "id=\"upload-result\">Stored %zu new run%s from the file (%zu already "
                "stored).</p>\n",
                created, created == 1 ? "" : "s", n - created);
    alerts_raised(p, nalerts);
    page_table_open(p, "Stored runs");
    page_puts(p,
              "<thead><tr><th class=\"num\">Run</th><th>Application</th>"
              "<th>System</th><th class=\"num\">Processors</th>"
              "<th class=\"num\">Runtime (s)</th><th>Status</th></tr></thead><tbody>\n");
    for (i = 0; i < n && i < SHOW_IDS; i++) {
        page_printf(p, "<tr><td class=\"num\"><a href=\"/runs/%lld\">%lld</a></td><td>",
                    ids[i], ids[i]);
        page_link(p, "/applications/", runs[i].application, NULL);
        page_puts(p, "</td><td>");
        page_text(p, runs[i].system);
        page_printf(p, "</td><td class=\"num\">%lld</td><td class=\"num\">",
                    runs[i].nprocs);
        page_num(p, runs[i].runtime);
        page_printf(p, "</td><td>%s</td></tr>\n", existed[i] ? "already stored" : "new");
    }
    page_puts(p, "</tbody>");
    page_table_close(p);
    if (n > SHOW_IDS)
        page_printf(p, "<p class=\"muted\">The first %d of %zu runs.</p>\n", SHOW_IDS, n);
    page_puts(p, "<p><a href=\"/upload\">Upload more</a></p>\n");
}

void view_import_done(struct page *p, const struct view_import_done *d)
{
    size_t i;

    page_puts(p, "<h1>Upload results</h1>\n<p class=\"notice good\" role=\"status\" "
                 "id=\"import-result\">");
    if (d->runs > 0 || d->benchmarks == 0)
        page_printf(p, "Imported %zu new run%s (%zu already stored)", d->created,
                    d->created == 1 ? "" : "s", d->runs - d->created);
    if (d->benchmarks > 0) {
        page_printf(p, "%sImported %zu new system benchmark%s of ",
                    d->runs > 0 ? "; " : "", d->benchmarks_created,
                    d->benchmarks_created == 1 ? "" : "s");
        page_link(p, "/systems/", d->system, NULL);
        page_printf(p, " (%zu already stored)", d->benchmarks - d->benchmarks_created);
    }
    page_puts(p, " from the ");
    page_text(p, d->format);
    page_puts(p, " file.</p>\n");
    alerts_raised(p, d->nalerts);
    for (i = 0; i < d->nnotes; i++) {
        /* what the file held that was left out */
        page_puts(p, "<p class=\"notice import-note\">");
        page_text(p, d->notes[i]);
        page_puts(p, "</p>\n");
    }
    if (d->runs > 0) {
        page_puts(p, "<p>Runs: ");
        for (i = 0; i < d->runs && i < SHOW_IDS; i++)
            page_printf(p, "%s<a href=\"/runs/%lld\">%lld</a>", i ? ", " : "", d->ids[i],
                        d->ids[i]);
        if (d->runs > SHOW_IDS)
            page_printf(p, " … (the first %d of %zu)", SHOW_IDS, d->runs);
        page_puts(p, "</p>\n");
    }
    page_puts(p, "<p><a href=\"/upload#import\">Import more</a></p>\n");
}
