/* export: paged run export; see export.h. */
#include "core/export.h"
#include "common/arena.h"
#include "common/xalloc.h"
#include "db/runs.h"
#include "formats/export.h"

enum { EXPORT_PAGE = 500 };

struct exporter {
    int csv;
    int started;
    int count;
    long long after;
    arena *names; /* the CSV's columns, fixed at the start */
    struct export_columns cols;
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
    arena_free(x->names);
    xfree(x);
}

static int start(struct exporter *x, db *d, struct buf *out, struct err *err)
{
    const char **inputs, **metrics, **tags;

    if (!x->csv) {
        export_json_begin(out);
        return 0;
    }
    x->names = arena_new();
    if (x->names == NULL)
        return err_nomem(err);
    if (db_runs_names(d, x->names, &inputs, &x->cols.ninputs, &metrics, &x->cols.nmetrics,
                      err) != 0)
        return -1;
    x->cols.inputs = inputs;
    x->cols.metrics = metrics;
    x->cols.provenance = db_runs_tag_names(d, x->names, &tags, &x->cols.ntags, err);
    if (x->cols.provenance < 0)
        return -1;
    x->cols.tags = tags;
    export_csv_header(&x->cols, out);
    return 0;
}

int export_page(struct exporter *x, db *d, struct buf *out, struct err *err)
{
    struct db_run_filter f = {0};
    struct db_run_row *rows;
    struct err local = {0};
    arena *a;
    int n, i;

    if (err == NULL)
        err = &local;
    if (!x->started) {
        if (start(x, d, out, err) != 0)
            return -1;
        x->started = 1;
    }
    a = arena_new();
    if (a == NULL)
        return err_nomem(err);
    f.after = x->after;
    f.limit = EXPORT_PAGE;
    n = db_runs_list(d, &f, a, &rows, err);
    if (n < 0) {
        arena_free(a);
        return -1;
    }
    for (i = 0; i < n; i++) {
        if (x->csv)
            export_csv_row(&x->cols, &rows[i].run, out);
        else
            export_json_row(&rows[i].run, x->count++ == 0, out);
    }
    if (n > 0)
        x->after = rows[n - 1].id;
    arena_free(a);
    if (n == f.limit && !buf_failed(out))
        return 1;
    if (!x->csv)
        export_json_end(out);
    if (buf_failed(out))
        return err_nomem(err);
    return 0;
}
