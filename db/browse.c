/* browse: the engine-neutral entry points of db/browse.h; each dispatches to the
 * connection's backend (db/backend.h). */
#include "db/backend.h"

int db_app_has_kernels(db *d, long long app_id, struct err *err)
{
    return d->be->app_has_kernels(d, app_id, err);
}

json_t *db_names_list(db *d, enum db_names which, const char *app, const char *sys,
                      struct err *err)
{
    return d->be->names_list(d, which, app, sys, err);
}

json_t *db_run_names(db *d, const long long *ids, size_t n, int kernels, struct err *err)
{
    return d->be->run_names(d, ids, n, kernels, err);
}
