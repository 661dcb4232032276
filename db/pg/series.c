/* series: db_history_series_each on PostgreSQL, over db_history_series (the
 * series is read whole into an arena, then handed out point by point).
 * SQLite streams it from its covering index; on PostgreSQL the rows arrive
 * in one result anyway, so one copy more is all this costs. */
#include "db/pg/entries.h"

int pg_history_series_each(db *d, long long config_id, const char *y,
                           int (*fn)(void *ctx, const struct db_series_point *p,
                                     struct err *err),
                           void *ctx, struct err *err)
{
    struct db_series_point *pts;
    arena *a = arena_new();
    int n, i, rc = 0;

    if (a == NULL)
        return err_nomem(err);
    n = pg_history_series(d, config_id, y, a, &pts, err);
    if (n < 0)
        rc = -1;
    for (i = 0; rc == 0 && i < n; i++)
        rc = fn(ctx, &pts[i], err) != 0 ? -1 : 0;
    arena_free(a);
    return rc;
}
