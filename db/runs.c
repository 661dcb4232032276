/* runs: the engine-neutral entry points of db/runs.h; each dispatches to the
 * connection's backend (db/backend.h). */
#include "db/backend.h"

int db_runs_insert(db *d, const struct run_record *runs, size_t n, long long *ids,
                   int *existed, struct err *err)
{
    return d->be->runs_insert(d, runs, n, ids, existed, err);
}

int db_runs_list(db *d, const struct db_run_filter *f, arena *a, struct db_run_row **rows,
                 struct err *err)
{
    return d->be->runs_list(d, f, a, rows, err);
}

int db_runs_names(db *d, arena *a, const char ***inputs, size_t *ninputs,
                  const char ***metrics, size_t *nmetrics, struct err *err)
{
    return d->be->runs_names(d, a, inputs, ninputs, metrics, nmetrics, err);
}

int db_runs_tag_names(db *d, arena *a, const char ***tags, size_t *ntags, struct err *err)
{
    return d->be->runs_tag_names(d, a, tags, ntags, err);
}

int db_run_get(db *d, long long id, arena *a, struct db_run_row *row, struct err *err)
{
    return d->be->run_get(d, id, a, row, err);
}
