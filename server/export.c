/* export: paged CSV/JSON export; see export.h. */
#include "server/export.h"
#include "common/xalloc.h"
#include "db/catalog.h"
#include "db/sqlite/sql.h" /* transitional: SQL still outside db/ (issue 11) */
#include "db/runs.h"
#include "server/rundoc.h"

#include <stdlib.h>
#include <string.h>

struct exporter {
    int csv;
    int started;
    int count;
    long long after;
    json_t *inputs, *metrics; /* distinct names, fixed at the start */
};

struct exporter *export_new(int csv)
{
    struct exporter *x = xcalloc(1, sizeof *x);
    if (x)
        x->csv = csv;
    return x;
}

void export_free(struct exporter *x)
{
    if (x == NULL)
        return;
    json_decref(x->inputs);
    json_decref(x->metrics);
    xfree(x);
}

static void csv_field(struct buf *b, const char *s)
{
    if (strpbrk(s, ",\"\r\n") == NULL) {
        buf_puts(b, s);
        return;
    }
    buf_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"')
            buf_putc(b, '"');
        buf_putc(b, *s);
    }
    buf_putc(b, '"');
}

static void csv_values(struct buf *b, json_t *names, const struct rec_kv *kv, size_t n)
{
    size_t i, k;
    json_t *v;
    json_array_foreach(names, i, v)
    {
        const char *name = json_string_value(json_object_get(v, "name"));
        buf_putc(b, ',');
        for (k = 0; k < n; k++)
            if (strcmp(kv[k].name, name) == 0)
                buf_num(b, kv[k].value);
    }
}

static void csv_row(struct exporter *x, const struct db_run_row *row, struct buf *b)
{
    const struct run_record *run = &row->run;
    csv_field(b, run->uid ? run->uid : "");
    buf_putc(b, ',');
    csv_field(b, run->application);
    buf_putc(b, ',');
    csv_field(b, run->executable);
    buf_putc(b, ',');
    csv_field(b, run->system);
    buf_printf(b, ",%lld,", run->nprocs);
    buf_num(b, run->runtime);
    buf_putc(b, ',');
    csv_field(b, run->started_at ? run->started_at : "");
    csv_values(b, x->inputs, run->inputs, run->ninputs);
    csv_values(b, x->metrics, run->metrics, run->nmetrics);
    buf_puts(b, "\r\n");
}

static int start(struct exporter *x, db *d, struct buf *out)
{
    struct err e = {0};
    size_t k;
    json_t *v;

    x->inputs =
        db_query_json(d, "SELECT DISTINCT name FROM run_inputs ORDER BY name", &e, "");
    x->metrics =
        db_query_json(d, "SELECT DISTINCT name FROM run_metrics ORDER BY name", &e, "");
    if (x->inputs == NULL || x->metrics == NULL)
        return -1;
    if (!x->csv) {
        buf_puts(out, "{\"runs\": [\n");
        return 0;
    }
    buf_puts(out, "id,application,executable,system,nprocs,runtime,started_at");
    json_array_foreach(x->inputs, k, v)
    {
        buf_putc(out, ',');
        csv_field(out, json_string_value(json_object_get(v, "name")));
    }
    json_array_foreach(x->metrics, k, v)
    {
        buf_puts(out, ",metric.");
        csv_field(out, json_string_value(json_object_get(v, "name")));
    }
    buf_puts(out, "\r\n");
    return 0;
}

int export_page(struct exporter *x, db *d, struct buf *out)
{
    struct db_run_filter f = {0};
    struct db_run_row *rows;
    struct err e = {0};
    arena *a;
    int n, i;

    if (!x->started) {
        if (start(x, d, out) != 0)
            return -1;
        x->started = 1;
    }
    a = arena_new();
    if (a == NULL)
        return -1;
    f.after = x->after;
    f.limit = 500;
    n = db_runs_list(d, &f, a, &rows, &e);
    if (n < 0) {
        arena_free(a);
        return -1;
    }
    for (i = 0; i < n; i++) {
        if (x->csv) {
            csv_row(x, &rows[i], out);
        } else {
            json_t *o = rundoc_export_json(&rows[i]);
            char *s = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
            json_decref(o);
            if (x->count++ > 0)
                buf_puts(out, ",\n");
            buf_puts(out, s ? s : "null");
            free(s);
        }
    }
    if (n > 0)
        x->after = rows[n - 1].id;
    arena_free(a);
    if (n < f.limit) {
        if (!x->csv)
            buf_puts(out, "\n]}\n");
        return buf_failed(out) ? -1 : 0;
    }
    return buf_failed(out) ? -1 : 1;
}
