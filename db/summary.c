/* summary: the engine-neutral entry points of db/summary.h; each dispatches to the
 * connection's backend (db/backend.h). */
#include "db/backend.h"

int db_summary_add_run(db *d, long long run_id, struct err *err)
{
    return d->be->summary_add_run(d, run_id, err);
}

int db_summary_configs(db *d, long long app_id, long long exe_id, long long system_id,
                       int limit, arena *a, struct db_config **out, struct err *err)
{
    return d->be->summary_configs(d, app_id, exe_id, system_id, limit, a, out, err);
}

json_t *db_summary_apps(db *d, struct err *err)
{
    return d->be->summary_apps(d, err);
}

json_t *db_summary_systems(db *d, struct err *err)
{
    return d->be->summary_systems(d, err);
}

json_t *db_summary_app(db *d, const char *name, struct err *err)
{
    return d->be->summary_app(d, name, err);
}

json_t *db_summary_system_apps(db *d, const char *system, struct err *err)
{
    return d->be->summary_system_apps(d, system, err);
}

json_t *db_recent_runs(db *d, int limit, struct err *err)
{
    return d->be->recent_runs(d, limit, err);
}

long long db_summary_count(db *d, long long app_id, long long exe_id, long long system_id,
                           struct err *err)
{
    return d->be->summary_count(d, app_id, exe_id, system_id, err);
}

json_t *db_kernels_of_runs(db *d, const char *ids_json, struct err *err)
{
    return d->be->kernels_of_runs(d, ids_json, err);
}

int db_runs_page(db *d, const struct db_page_query *q, arena *a,
                 struct db_page_row **rows, struct err *err)
{
    return d->be->runs_page(d, q, a, rows, err);
}

long long db_runs_rank(db *d, const struct db_page_query *q, struct err *err)
{
    return d->be->runs_rank(d, q, err);
}
