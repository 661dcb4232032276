/* pending_trace: the PostgreSQL entries of db/trace.h that are
 * not ported yet (pg-rest ports them into db/pg/trace.c). Each fails with a 500
 * "database" error naming the function, so a PostgreSQL server answers clearly instead of
 * calling through a NULL entry. This file goes away when the port lands. */
#include "db/pg/entries.h"

static void unported(const char *fn, struct err *err)
{
    err_set(err, 500, "database", NULL,
            "database error: %s is not yet available on PostgreSQL", fn);
}

int pg_trace_insert(db *d, const struct db_trace_info *info, const void *const *ranks,
                    const size_t *lens, const struct db_trace_analysis *an, size_t n,
                    struct err *err)
{
    (void)d;
    (void)info;
    (void)ranks;
    (void)lens;
    (void)an;
    (void)n;
    unported("db_trace_insert", err);
    return -1;
}

int pg_trace_info(db *d, long long run_id, arena *a, struct db_trace_info *out,
                  struct err *err)
{
    (void)d;
    (void)run_id;
    (void)a;
    (void)out;
    unported("db_trace_info", err);
    return -1;
}

int pg_trace_analysis(db *d, long long run_id, const char *name, int svg, arena *a,
                      const char **text, size_t *len, struct err *err)
{
    (void)d;
    (void)run_id;
    (void)name;
    (void)svg;
    (void)a;
    (void)text;
    (void)len;
    unported("db_trace_analysis", err);
    return -1;
}

int pg_trace_ranks(db *d, long long run_id, arena *a, const void ***ranks, size_t **lens,
                   int *n, struct err *err)
{
    (void)d;
    (void)run_id;
    (void)a;
    (void)ranks;
    (void)lens;
    (void)n;
    unported("db_trace_ranks", err);
    return -1;
}

int pg_trace_run_by_uid(db *d, const char *uid, long long *id, struct err *err)
{
    (void)d;
    (void)uid;
    (void)id;
    unported("db_trace_run_by_uid", err);
    return -1;
}

int pg_trace_runs_of_app(db *d, const char *application, const char *input, int max,
                         arena *a, struct db_trace_run **rows, struct err *err)
{
    (void)d;
    (void)application;
    (void)input;
    (void)max;
    (void)a;
    (void)rows;
    unported("db_trace_runs_of_app", err);
    return -1;
}
