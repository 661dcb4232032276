/* export: run records as CSV or JSON text; see export.h. */
#include "formats/export.h"
#include "formats/rundoc.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One field; with guard, a leading ' before a text a spreadsheet would run
 * as a formula. */
static void csv_field(struct buf *b, const char *s, int guard)
{
    int formula;
    if (s == NULL)
        return;
    formula = guard && (*s == '=' || *s == '+' || *s == '-' || *s == '@' || *s == '\t');
    if (!formula && strpbrk(s, ",\"\r\n") == NULL) {
        buf_puts(b, s);
        return;
    }
    buf_putc(b, '"');
    if (formula)
        buf_putc(b, '\'');
    for (; *s; s++) {
        if (*s == '"')
            buf_putc(b, '"');
        buf_putc(b, *s);
    }
    buf_putc(b, '"');
}

void export_csv_field(struct buf *b, const char *s)
{
    csv_field(b, s, 0);
}

void export_csv_cell(struct buf *b, const char *s)
{
    csv_field(b, s, 1);
}

void export_csv_num(struct buf *b, double v)
{
    if (isfinite(v))
        buf_num(b, v);
}

static void csv_values(struct buf *b, const char *const *names, size_t nnames,
                       const struct rec_kv *kv, size_t n)
{
    size_t i, k;
    for (i = 0; i < nnames; i++) {
        buf_putc(b, ',');
        for (k = 0; k < n; k++)
            if (strcmp(kv[k].name, names[i]) == 0)
                buf_num(b, kv[k].value);
    }
}

void export_csv_header(const struct export_columns *c, struct buf *out)
{
    size_t k;
    buf_puts(out, "id,application,executable,system,nprocs,runtime,started_at");
    for (k = 0; k < c->ninputs; k++) {
        buf_putc(out, ',');
        export_csv_field(out, c->inputs[k]);
    }
    for (k = 0; k < c->nmetrics; k++) {
        buf_puts(out, ",metric.");
        export_csv_field(out, c->metrics[k]);
    }
    if (c->provenance) {
        buf_puts(out, ",commit,branch");
        for (k = 0; k < c->ntags; k++) {
            buf_puts(out, ",tag.");
            export_csv_field(out, c->tags[k]);
        }
    }
    buf_puts(out, "\r\n");
}

void export_csv_row(const struct export_columns *c, const struct run_record *run,
                    struct buf *b)
{
    export_csv_field(b, run->uid ? run->uid : "");
    buf_putc(b, ',');
    export_csv_field(b, run->application);
    buf_putc(b, ',');
    export_csv_field(b, run->executable);
    buf_putc(b, ',');
    export_csv_field(b, run->system);
    buf_printf(b, ",%lld,", run->nprocs);
    export_csv_num(b, run->runtime); /* empty: the run has none (SPEC §16) */
    buf_putc(b, ',');
    export_csv_field(b, run->started_at ? run->started_at : "");
    csv_values(b, c->inputs, c->ninputs, run->inputs, run->ninputs);
    csv_values(b, c->metrics, c->nmetrics, run->metrics, run->nmetrics);
    if (c->provenance) {
        size_t i, k;
        buf_putc(b, ',');
        export_csv_field(b, run->commit ? run->commit : "");
        buf_putc(b, ',');
        export_csv_field(b, run->branch ? run->branch : "");
        for (i = 0; i < c->ntags; i++) {
            buf_putc(b, ',');
            for (k = 0; k < run->ntags; k++)
                if (strcmp(run->tags[k].key, c->tags[i]) == 0)
                    export_csv_field(b, run->tags[k].value);
        }
    }
    buf_puts(b, "\r\n");
}

void export_json_begin(struct buf *out)
{
    buf_puts(out, "{\"runs\": [\n");
}

void export_json_row(const struct run_record *run, int first, struct buf *out)
{
    json_t *o = rundoc_export_json(run);
    char *s = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17)) : NULL;
    json_decref(o);
    if (!first)
        buf_puts(out, ",\n");
    if (s == NULL) { /* out of memory: make the buffer report it */
        out->failed = BUF_NOMEM;
        return;
    }
    buf_puts(out, s);
    free(s);
}

void export_json_end(struct buf *out)
{
    buf_puts(out, "\n]}\n");
}
