/* browse: the data of the dashboard's pages; see browse.h. */
#include "core/browse.h"
#include "core/config_order.h"
#include "db/browse.h"
#include "db/catalog.h"
#include "common/buf.h"

#include <string.h>

int browse_overview(db *d, struct browse_overview *o, struct err *err)
{
    memset(o, 0, sizeof *o);
    if ((o->counts = db_counts(d, err)) == NULL ||
        (o->apps = db_summary_apps(d, err)) == NULL ||
        (o->systems = db_summary_systems(d, err)) == NULL ||
        (o->recent = db_recent_runs(d, BROWSE_RECENT_RUNS, err)) == NULL) {
        browse_overview_free(o);
        return -1;
    }
    return 0;
}

void browse_overview_free(struct browse_overview *o)
{
    json_decref(o->counts);
    json_decref(o->apps);
    json_decref(o->systems);
    json_decref(o->recent);
    memset(o, 0, sizeof *o);
}

json_t *browse_apps(db *d, struct err *err)
{
    return db_summary_apps(d, err);
}

json_t *browse_systems(db *d, struct err *err)
{
    return db_summary_systems(d, err);
}

int browse_run(db *d, long long id, arena *a, struct db_run_row *out, struct err *err)
{
    int found = db_run_get(d, id, a, out, err);
    if (found == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", NULL, "no run with id %lld", id);
    return found < 0 ? -1 : 0;
}

int browse_system(db *d, const char *name, struct browse_system *o, struct err *err)
{
    memset(o, 0, sizeof *o);
    if ((o->system = db_system_get(d, name, err)) == NULL ||
        (o->apps = db_summary_system_apps(d, name, err)) == NULL ||
        (o->benchmarks = db_benchmarks_list(d, name, NULL, err)) == NULL) {
        browse_system_free(o);
        return -1;
    }
    return 0;
}

void browse_system_free(struct browse_system *o)
{
    json_decref(o->system);
    json_decref(o->apps);
    json_decref(o->benchmarks);
    memset(o, 0, sizeof *o);
}

json_t *browse_app_summary(db *d, const char *name, struct err *err)
{
    return db_summary_app(d, name, err);
}

int browse_app(db *d, const struct browse_app_query *q, arena *a, struct browse_app *b,
               struct err *err)
{
    long long app_id = json_integer_value(json_object_get(b->app, "id"));
    int nc;

    if (q->commit != NULL || q->branch != NULL) {
        struct db_page_query pq = {app_id, q->exe_id,   q->sys_id, DB_SORT_ID, q->desc,
                                   0,      q->per_page, 0,         0,          0};
        b->page = q->page < 1 ? 1 : q->page;
        for (;;) {
            pq.offset = (b->page - 1) * q->per_page;
            b->nrows = db_runs_page_vcs(d, &pq, q->commit, q->branch, &b->total, a,
                                        &b->rows, err);
            if (b->nrows < 0)
                return -1;
            b->pages = b->total > 0 ? (b->total + q->per_page - 1) / q->per_page : 1;
            if (b->page <= b->pages)
                break;
            b->page = b->pages; /* past the end: the last page */
        }
        goto configs;
    }
    b->total = db_summary_count(d, app_id, q->exe_id, q->sys_id, err);
    if (b->total < 0)
        return -1;
    b->pages = b->total > 0 ? (b->total + q->per_page - 1) / q->per_page : 1;
    b->page = q->page > b->pages ? b->pages : q->page < 1 ? 1 : q->page;
    {
        struct db_page_query pq = {app_id,      q->exe_id,
                                   q->sys_id,   (enum db_sort)q->sort,
                                   q->desc,     (b->page - 1) * q->per_page,
                                   q->per_page, b->total,
                                   q->after,    q->after ? 0 : q->before};
        long long rank = 0;
        if ((pq.after || pq.before) && q->page < 1 &&
            (rank = db_runs_rank(d, &pq, err)) < 0)
            return -1;
        b->nrows = db_runs_page(d, &pq, a, &b->rows, err);
        if (b->nrows < 0)
            return -1;
        if ((pq.after || pq.before) && q->page < 1) {
            /* the page's first run's place: past the cursor, or the rows
             * read before it */
            long long first = pq.after ? rank : rank - b->nrows;
            b->page = (first > 0 ? first : 0) / q->per_page + 1;
            if (b->page > b->pages)
                b->page = b->pages;
        }
    }
configs:
    nc = db_summary_configs(d, app_id, q->exe_id, q->sys_id, q->max_configs + 1, a,
                            &b->configs, err);
    if (nc < 0)
        return -1;
    b->truncated = nc > q->max_configs;
    b->nconfigs = b->truncated ? q->max_configs : nc;
    if (config_sort(b->configs, (size_t)b->nconfigs, CONFIG_LAYOUT(struct db_config),
                    err) != 0)
        return -1;
    b->has_kernels = db_app_has_kernels(d, app_id, err);
    return b->has_kernels < 0 ? -1 : 0;
}

json_t *browse_kernels_of_runs(db *d, const long long *ids, size_t n, struct err *err)
{
    struct buf b;
    json_t *out;
    size_t i;
    if (n == 0)
        return json_array();
    buf_init(&b, 1 << 16);
    buf_putc(&b, '[');
    for (i = 0; i < n; i++)
        buf_printf(&b, "%s%lld", i ? "," : "", ids[i]);
    buf_putc(&b, ']');
    if (buf_failed(&b)) {
        buf_free(&b);
        err_nomem(err);
        return NULL;
    }
    out = db_kernels_of_runs(d, buf_str(&b), err);
    buf_free(&b);
    return out;
}
