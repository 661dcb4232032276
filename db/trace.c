/* trace: the engine-neutral entry points of db/trace.h; each dispatches to the
 * connection's backend (db/backend.h). */
#include "db/backend.h"

int db_trace_insert(db *d, const struct db_trace_info *info, const void *const *ranks,
                    const size_t *lens, const struct db_trace_analysis *an, size_t n,
                    struct err *err)
{
    return d->be->trace_insert(d, info, ranks, lens, an, n, err);
}

int db_trace_info(db *d, long long run_id, arena *a, struct db_trace_info *out,
                  struct err *err)
{
    return d->be->trace_info(d, run_id, a, out, err);
}

int db_trace_analysis(db *d, long long run_id, const char *name, int svg, arena *a,
                      const char **text, size_t *len, struct err *err)
{
    return d->be->trace_analysis(d, run_id, name, svg, a, text, len, err);
}

int db_trace_ranks(db *d, long long run_id, arena *a, const void ***ranks, size_t **lens,
                   int *n, struct err *err)
{
    return d->be->trace_ranks(d, run_id, a, ranks, lens, n, err);
}

int db_trace_run_by_uid(db *d, const char *uid, long long *id, struct err *err)
{
    return d->be->trace_run_by_uid(d, uid, id, err);
}

int db_trace_runs_of_app(db *d, const char *application, const char *input, int max,
                         arena *a, struct db_trace_run **rows, struct err *err)
{
    return d->be->trace_runs_of_app(d, application, input, max, a, rows, err);
}
