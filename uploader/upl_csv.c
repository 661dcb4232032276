/* upl_csv: strict CSV reader for run tables; see upl_csv.h.
 *
 * A small state machine over the bytes, one record at a time, so that every
 * error knows its physical line. It never guesses: a file that is not clean
 * CSV is refused with the line and reason rather than half-imported.
 */
#include "uploader/upl_csv.h"

#include "common/buf.h"
#include "common/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct rec {
    struct buf *fields; /* UPL_CSV_COLS_MAX buffers, reused across records */
    size_t n;           /* fields in the current record */
    size_t line;        /* physical line where the record starts */
};

struct reader {
    const char *p, *end;
    size_t line;    /* current physical line, from 1 */
    size_t linelen; /* bytes on the current physical line so far */
};

static int too_long(struct reader *r, struct err *err)
{
    return err_set(err, ERR_INVALID, "csv", NULL, "line %zu: longer than %d bytes",
                   r->line, UPL_CSV_LINE_MAX);
}

/* Consumes one byte, keeping line accounting; returns it. */
static int next(struct reader *r)
{
    int c = (unsigned char)*r->p++;
    if (c == '\n') {
        r->line++;
        r->linelen = 0;
    } else {
        r->linelen++;
    }
    return c;
}

/* Reads one record into rec. Returns 1 when a record was read, 0 at end of
 * input, -1 on error. Blank lines are skipped. */
static int read_record(struct reader *r, struct rec *rec, struct err *err)
{
    struct buf *f;

    /* skip empty lines (LF or CRLF) */
    while (r->p < r->end) {
        if (*r->p == '\n')
            next(r);
        else if (*r->p == '\r' && r->end - r->p >= 2 && r->p[1] == '\n') {
            next(r);
            next(r);
        } else
            break;
    }
    if (r->p >= r->end)
        return 0;
    rec->n = 0;
    rec->line = r->line;
    for (;;) { /* one field per iteration */
        if (rec->n == UPL_CSV_COLS_MAX)
            return err_set(err, ERR_INVALID, "csv", NULL,
                           "line %zu: more than %d columns", r->line, UPL_CSV_COLS_MAX);
        f = &rec->fields[rec->n++];
        buf_reset(f);
        if (r->p < r->end && *r->p == '"') {
            size_t qline = r->line;
            next(r);
            for (;;) {
                int c;
                if (r->p >= r->end)
                    return err_set(err, ERR_INVALID, "csv", NULL,
                                   "line %zu: quoted field never closed", qline);
                c = next(r);
                if (r->linelen > UPL_CSV_LINE_MAX)
                    return too_long(r, err);
                if (c == '"') {
                    if (r->p < r->end && *r->p == '"') {
                        next(r);
                        buf_putc(f, '"');
                        continue;
                    }
                    break;
                }
                buf_putc(f, (char)c);
            }
            if (r->p < r->end && *r->p != ',' && *r->p != '\n' && *r->p != '\r')
                return err_set(err, ERR_INVALID, "csv", NULL,
                               "line %zu: unexpected character after closing quote",
                               r->line);
        } else {
            while (r->p < r->end && *r->p != ',' && *r->p != '\n' && *r->p != '\r') {
                if (*r->p == '"')
                    return err_set(err, ERR_INVALID, "csv", NULL,
                                   "line %zu: quote inside an unquoted field (quote the "
                                   "whole field and double the quote)",
                                   r->line);
                buf_putc(f, (char)next(r));
                if (r->linelen > UPL_CSV_LINE_MAX)
                    return too_long(r, err);
            }
        }
        if (buf_failed(f))
            return err_nomem(err);
        if (r->p >= r->end)
            return 1;
        if (*r->p == ',') {
            next(r);
            continue;
        }
        if (*r->p == '\r') {
            if (r->end - r->p < 2 || r->p[1] != '\n')
                return err_set(err, ERR_INVALID, "csv", NULL,
                               "line %zu: carriage return not followed by a line feed",
                               r->line);
            next(r);
        }
        next(r); /* '\n' */
        return 1;
    }
}

static const char *const fixed_cols[] = {"application", "executable", "system", "nprocs",
                                         "runtime"};
#define NFIXED 5

static int parse_number(const char *s, size_t line, const char *col, double *out,
                        struct err *err)
{
    char *end;
    double v;

    if (*s == '\0')
        return err_set(err, ERR_INVALID, "csv", col, "line %zu: %s is empty", line, col);
    errno = 0;
    v = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v))
        return err_set(err, ERR_INVALID, "csv", col,
                       "line %zu: %s is not a finite number: \"%.40s\"", line, col, s);
    *out = v;
    return 0;
}

static int make_run(struct rec *rec, struct rec *hdr, json_t *runs, struct err *err)
{
    json_t *run = NULL, *inputs = NULL;
    double nprocs, runtime, v;
    size_t i;
    int rc = -1;

    if (rec->n != hdr->n)
        return err_set(err, ERR_INVALID, "csv", NULL,
                       "line %zu: %zu fields, the header has %zu", rec->line, rec->n,
                       hdr->n);
    for (i = 0; i < 3; i++)
        if (rec->fields[i].len == 0)
            return err_set(err, ERR_INVALID, "csv", fixed_cols[i],
                           "line %zu: %s is empty", rec->line, fixed_cols[i]);
    if (parse_number(buf_str(&rec->fields[3]), rec->line, "nprocs", &nprocs, err) != 0 ||
        parse_number(buf_str(&rec->fields[4]), rec->line, "runtime", &runtime, err) != 0)
        return -1;
    if (nprocs != floor(nprocs) || nprocs < 1 || nprocs > 1e9)
        return err_set(err, ERR_INVALID, "csv", "nprocs",
                       "line %zu: nprocs must be a whole number >= 1", rec->line);
    if (runtime < 0)
        return err_set(err, ERR_INVALID, "csv", "runtime",
                       "line %zu: runtime is negative", rec->line);
    run = json_object();
    inputs = json_object();
    if (run == NULL || inputs == NULL)
        goto nomem;
    for (i = 0; i < 3; i++) {
        json_t *name = json_stringn(rec->fields[i].data, rec->fields[i].len);
        if (name == NULL) { /* Jansson refuses invalid UTF-8 and NUL bytes */
            err_set(err, ERR_INVALID, "csv", fixed_cols[i],
                    "line %zu: %s is not valid UTF-8 text", rec->line, fixed_cols[i]);
            goto out;
        }
        if (json_object_set_new(run, fixed_cols[i], name) != 0)
            goto nomem;
    }
    if (json_object_set_new(run, "nprocs", json_integer((json_int_t)nprocs)) != 0 ||
        json_object_set_new(run, "runtime", json_real(runtime)) != 0)
        goto nomem;
    for (i = NFIXED; i < rec->n; i++) {
        if (rec->fields[i].len == 0)
            continue;
        if (parse_number(buf_str(&rec->fields[i]), rec->line, buf_str(&hdr->fields[i]),
                         &v, err) != 0)
            goto out;
        if (json_object_set_new(inputs, buf_str(&hdr->fields[i]), json_real(v)) != 0)
            goto nomem;
    }
    if (json_object_set(run, "inputs", inputs) != 0 || json_array_append(runs, run) != 0)
        goto nomem;
    rc = 0;
    goto out;
nomem:
    err_nomem(err);
out:
    json_decref(run);
    json_decref(inputs);
    return rc;
}

static int check_header(struct rec *hdr, struct err *err)
{
    size_t i, j;

    if (hdr->n < NFIXED)
        return err_set(err, ERR_INVALID, "csv", NULL,
                       "line %zu: header must start with "
                       "application,executable,system,nprocs,runtime",
                       hdr->line);
    for (i = 0; i < NFIXED; i++)
        if (strcmp(buf_str(&hdr->fields[i]), fixed_cols[i]) != 0)
            return err_set(err, ERR_INVALID, "csv", NULL,
                           "line %zu: header column %zu is \"%.40s\", expected \"%s\" "
                           "(header: application,executable,system,nprocs,runtime,"
                           "<inputs...>)",
                           hdr->line, i + 1, buf_str(&hdr->fields[i]), fixed_cols[i]);
    for (i = NFIXED; i < hdr->n; i++) {
        if (hdr->fields[i].len == 0 || hdr->fields[i].len > 256)
            return err_set(err, ERR_INVALID, "csv", NULL,
                           "line %zu: input column %zu has an empty or too long name",
                           hdr->line, i + 1);
        {
            json_t *name = json_stringn(hdr->fields[i].data, hdr->fields[i].len);
            if (name == NULL)
                return err_set(err, ERR_INVALID, "csv", NULL,
                               "line %zu: input column %zu is not valid UTF-8 text",
                               hdr->line, i + 1);
            json_decref(name);
        }
        for (j = 0; j < i; j++)
            if (strcmp(buf_str(&hdr->fields[i]), buf_str(&hdr->fields[j])) == 0)
                return err_set(err, ERR_INVALID, "csv", NULL,
                               "line %zu: column \"%.40s\" repeated", hdr->line,
                               buf_str(&hdr->fields[i]));
    }
    return 0;
}

json_t *upl_csv_parse(const char *data, size_t len, struct err *err)
{
    struct reader r = {data, data + len, 1, 0};
    struct rec rec = {NULL, 0, 0}, hdr = {NULL, 0, 0};
    json_t *runs = NULL;
    size_t i;
    int got;

    rec.fields = xcalloc(UPL_CSV_COLS_MAX, sizeof *rec.fields);
    hdr.fields = xcalloc(UPL_CSV_COLS_MAX, sizeof *hdr.fields);
    runs = json_array();
    if (rec.fields == NULL || hdr.fields == NULL || runs == NULL) {
        err_nomem(err);
        goto fail;
    }
    for (i = 0; i < UPL_CSV_COLS_MAX; i++) {
        buf_init(&rec.fields[i], UPL_CSV_LINE_MAX * 4);
        buf_init(&hdr.fields[i], 1024);
    }
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
        r.p += 3; /* UTF-8 byte order mark from spreadsheet exports */
    got = read_record(&r, &hdr, err);
    if (got < 0)
        goto fail;
    if (got == 0) {
        err_set(err, ERR_INVALID, "csv", NULL,
                "line 1: empty file, expected a header row");
        goto fail;
    }
    for (i = 0; i < hdr.n; i++)
        if (buf_failed(&hdr.fields[i])) {
            err_set(err, ERR_INVALID, "csv", NULL, "line %zu: header column %zu too long",
                    hdr.line, i + 1);
            goto fail;
        }
    if (check_header(&hdr, err) != 0)
        goto fail;
    while ((got = read_record(&r, &rec, err)) == 1)
        if (make_run(&rec, &hdr, runs, err) != 0)
            goto fail;
    if (got < 0)
        goto fail;
    goto out;
fail:
    json_decref(runs);
    runs = NULL;
out:
    if (rec.fields)
        for (i = 0; i < UPL_CSV_COLS_MAX; i++)
            buf_free(&rec.fields[i]);
    if (hdr.fields)
        for (i = 0; i < UPL_CSV_COLS_MAX; i++)
            buf_free(&hdr.fields[i]);
    xfree(rec.fields);
    xfree(hdr.fields);
    return runs;
}
