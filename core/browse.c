/* browse: the data of the dashboard's pages; see browse.h. */
#include "core/browse.h"
#include "db/catalog.h"

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
        return err_set(err, 404, "not_found", NULL, "no run with id %lld", id);
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
