/* csv: CSV run import (RFC 4180 quoting) into run records; declared in
 * rundoc.h so that every way a run arrives shares one set of rules.
 *
 * Columns: application, executable, system, nprocs, runtime are required (in
 * any order); "id" and "started_at" are optional; a column "metric.NAME"
 * becomes a metric; every other column is a numeric input (e.g. N).
 */
#include "formats/rundoc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct csv {
    const char *p, *end;
    int line;
};

/* Reads one record into fields (arena strings). Returns the number of fields,
 * 0 at end of input, -1 on a syntax error. */
static int read_record(struct csv *c, arena *a, char **fields, struct err *err)
{
    int nf = 0;
    if (c->p >= c->end)
        return 0;
    for (;;) {
        char buf[LIMIT_CSV_FIELD];
        size_t len = 0;
        if (nf == LIMIT_CSV_COLS)
            return err_invalid(err, NULL, "line %d: more than %d columns", c->line,
                               LIMIT_CSV_COLS);
        if (c->p < c->end && *c->p == '"') {
            c->p++;
            for (;;) {
                if (c->p >= c->end)
                    return err_invalid(err, NULL, "line %d: unterminated quoted field",
                                       c->line);
                if (*c->p == '"') {
                    if (c->p + 1 < c->end && c->p[1] == '"') {
                        c->p++;
                    } else {
                        c->p++;
                        break;
                    }
                }
                if (*c->p == '\0')
                    return err_invalid(
                        err, NULL,
                        "line %d, column %d: a NUL byte is not allowed in a "
                        "CSV field",
                        c->line, nf + 1);
                if (*c->p == '\n')
                    c->line++;
                if (len == sizeof buf - 1)
                    return err_invalid(err, NULL, "line %d: field longer than %d bytes",
                                       c->line, LIMIT_CSV_FIELD - 1);
                buf[len++] = *c->p++;
            }
            if (c->p < c->end && *c->p != ',' && *c->p != '\n' && *c->p != '\r')
                return err_invalid(err, NULL, "line %d: text after a closing quote",
                                   c->line);
        } else {
            while (c->p < c->end && *c->p != ',' && *c->p != '\n' && *c->p != '\r') {
                if (*c->p == '"')
                    return err_invalid(
                        err, NULL, "line %d: quote inside an unquoted field", c->line);
                if (*c->p == '\0')
                    return err_invalid(
                        err, NULL,
                        "line %d, column %d: a NUL byte is not allowed in a "
                        "CSV field",
                        c->line, nf + 1);

                if (len == sizeof buf - 1)
                    return err_invalid(err, NULL, "line %d: field longer than %d bytes",
                                       c->line, LIMIT_CSV_FIELD - 1);
                buf[len++] = *c->p++;
            }
        }
        fields[nf] = arena_strndup(a, buf, len);
        if (fields[nf] == NULL)
            return err_nomem(err);
        nf++;
        if (c->p < c->end && *c->p == ',') {
            c->p++;
            continue;
        }
        if (c->p < c->end && *c->p == '\r')
            c->p++;
        if (c->p < c->end && *c->p == '\n')
            c->p++;
        c->line++;
        return nf;
    }
}

static int parse_num(const char *s, double *out)
{
    char *end;
    errno = 0;
    if (*s == '\0')
        return -1;
    *out = strtod(s, &end);
    if (*end != '\0' || errno == ERANGE || !isfinite(*out))
        return -1;
    return 0;
}

enum {
    C_APP,
    C_EXE,
    C_SYS,
    C_NP,
    C_RT,
    C_ID,
    C_START,
    C_COMMIT,
    C_BRANCH,
    C_INPUT,
    C_METRIC,
    C_TAG
};

int rundoc_parse_csv(const char *text, size_t len, arena *a, struct run_record **runs,
                     size_t *n, struct err *err)
{
    static const char *const names[] = {"application", "executable", "system",
                                        "nprocs",      "runtime",    "id",
                                        "started_at",  "commit",     "branch"};
    struct csv c = {text, text + len, 1};
    char *hdr[LIMIT_CSV_COLS], *f[LIMIT_CSV_COLS];
    int kind[LIMIT_CSV_COLS], nh, nf, i, have[C_INPUT] = {0};
    size_t cap = 64, ninputs = 0, nmetrics = 0, ntags = 0;
    struct run_record *out;
    char field[64];

    *runs = NULL;
    *n = 0;
    nh = read_record(&c, a, hdr, err);
    if (nh < 0)
        return -1;
    if (nh == 0)
        return err_invalid(err, NULL, "the CSV file is empty (a header row is required)");
    for (i = 0; i < nh; i++) {
        int k;
        for (k = 0; k < C_INPUT; k++)
            if (strcmp(hdr[i], names[k]) == 0)
                break;
        if (k < C_INPUT) {
            if (have[k]++)
                return err_invalid(err, NULL, "line 1: column %s appears twice", hdr[i]);
        } else if (strncmp(hdr[i], "metric.", 7) == 0) {
            k = C_METRIC;
            nmetrics++;
            if (rundoc_check_name(hdr[i] + 7, strlen(hdr[i] + 7), "metric", err) != 0)
                return -1;
        } else if (strncmp(hdr[i], "tag.", 4) == 0) {
            k = C_TAG;
            ntags++;
            if (rundoc_check_name(hdr[i] + 4, strlen(hdr[i] + 4), "tag", err) != 0)
                return -1;
        } else {
            k = C_INPUT;
            ninputs++;
            if (rundoc_check_name(hdr[i], strlen(hdr[i]), "input column", err) != 0)
                return -1;
        }
        kind[i] = k;
    }
    for (i = 0; i < C_ID; i++)
        if (!have[i])
            return err_invalid(err, NULL,
                               "line 1: the header lacks the column %s (required: "
                               "application,executable,system,nprocs,runtime)",
                               names[i]);
    out = arena_alloc(a, cap * sizeof *out);
    if (out == NULL)
        return err_nomem(err);
    while ((nf = read_record(&c, a, f, err)) != 0) {
        struct run_record *r;
        int line = c.line - 1;
        if (nf < 0)
            return -1;
        if (nf == 1 && f[0][0] == '\0')
            continue; /* blank line */
        if (nf != nh)
            return err_invalid(err, NULL, "line %d: %d fields, the header has %d", line,
                               nf, nh);
        if (*n == LIMIT_BATCH)
            return err_invalid(err, NULL, "more than %d runs in one CSV file",
                               LIMIT_BATCH);
        if (*n == cap) {
            struct run_record *bigger = arena_alloc(a, 2 * cap * sizeof *bigger);
            if (bigger == NULL)
                return err_nomem(err);
            memcpy(bigger, out, cap * sizeof *out);
            out = bigger;
            cap *= 2;
        }
        r = &out[*n];
        memset(r, 0, sizeof *r);
        r->inputs = arena_alloc(a, (ninputs + 1) * sizeof *r->inputs);
        r->metrics = arena_alloc(a, (nmetrics + 1) * sizeof *r->metrics);
        r->tags = arena_alloc(a, (ntags + 1) * sizeof *r->tags);
        if (r->inputs == NULL || r->metrics == NULL || r->tags == NULL)
            return err_nomem(err);
        for (i = 0; i < nh; i++) {
            double v;
            snprintf(field, sizeof field, "line %d: %.40s", line, hdr[i]);
            switch (kind[i]) {
            case C_APP:
            case C_EXE:
            case C_SYS:
            case C_ID:
                if (kind[i] == C_ID && f[i][0] == '\0')
                    break;
                if (rundoc_check_name(f[i], strlen(f[i]), field, err) != 0)
                    return -1;
                if (kind[i] == C_APP)
                    r->application = f[i];
                else if (kind[i] == C_EXE)
                    r->executable = f[i];
                else if (kind[i] == C_SYS)
                    r->system = f[i];
                else
                    r->uid = f[i];
                break;
            case C_NP: {
                char *end;
                long long np;
                errno = 0;
                np = strtoll(f[i], &end, 10);
                if (f[i][0] == '\0' || *end != '\0' || errno == ERANGE)
                    return err_invalid(err, field, "%s: nprocs must be an integer",
                                       field);
                if (np < 1 || np > 100000000)
                    return err_invalid(err, field, "%s: nprocs must be at least 1",
                                       field);
                r->nprocs = np;
                break;
            }
            case C_RT:
                if (f[i][0] == '\0') {
                    r->runtime = NAN; /* none: the run's metrics carry it (below) */
                    break;
                }
                if (parse_num(f[i], &v) != 0)
                    return err_invalid(err, field, "%s: runtime must be a finite number",
                                       field);
                if (v < 0)
                    return err_invalid(err, field, "%s: runtime must not be negative",
                                       field);
                r->runtime = v;
                break;
            case C_START:
                if (f[i][0] != '\0' && !rundoc_valid_timestamp(f[i]))
                    return err_invalid(err, field, "%s: not an ISO 8601 time", field);
                r->started_at = f[i][0] ? f[i] : NULL;
                break;
            case C_COMMIT:
                r->commit = f[i][0] ? f[i] : NULL;
                break;
            case C_BRANCH:
                r->branch = f[i][0] ? f[i] : NULL;
                break;
            case C_TAG:
                if (f[i][0] == '\0')
                    break; /* an empty cell: the run has no such tag */
                r->tags[r->ntags].key = hdr[i] + 4;
                r->tags[r->ntags++].value = f[i];
                break;
            case C_INPUT:
            case C_METRIC:
                if (f[i][0] == '\0')
                    break; /* an empty cell means "not measured" */
                if (parse_num(f[i], &v) != 0)
                    return err_invalid(err, field, "%s: not a finite number: %.40s",
                                       field, f[i]);
                if (kind[i] == C_INPUT) {
                    r->inputs[r->ninputs].name = hdr[i];
                    r->inputs[r->ninputs++].value = v;
                } else {
                    r->metrics[r->nmetrics].name = hdr[i] + 7;
                    r->metrics[r->nmetrics++].value = v;
                }
                break;
            }
        }
        if (!RUN_HAS_RUNTIME(r->runtime) && r->nmetrics == 0) {
            snprintf(field, sizeof field, "line %d: runtime", line);
            return err_invalid(err, field,
                               "%s: runtime is empty and the run has no metric", field);
        }
        if (rundoc_check_provenance(r, err) != 0) {
            snprintf(field, sizeof field, "line %d", line);
            err_prefix_field(err, field);
            return -1;
        }
        (*n)++;
    }
    if (*n == 0)
        return err_invalid(err, NULL, "the CSV file has a header but no runs");
    *runs = out;
    return 0;
}
