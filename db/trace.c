/* trace: a run's trace (db/trace.h), written once for every engine on
 * db/query.h. The per-rank files are blobs (bytea on PostgreSQL, sent in
 * binary); the bounds on what a trace may hold are checked before it
 * reaches here (formats/limits.h). A failed statement is an error, never an
 * absent trace. */
#include "db/trace.h"
#include "db/query.h"

#include <math.h>
#include <string.h>

static int run_exists(db *d, long long run_id, struct err *err)
{
    long long one;
    return dq_scalar(d, &one, "SELECT 1 FROM runs WHERE id = ?1", err, "i", run_id);
}

static int insert_analyses(db *d, long long run_id, const struct db_trace_analysis *an,
                           size_t n, struct err *err)
{
    for (size_t i = 0; i < n; i++)
        if (dq_run(d,
                   "INSERT INTO trace_analyses (run_id, name, answer, svg) "
                   "VALUES (?1, ?2, ?3, ?4)",
                   err, "ittt", run_id, an[i].name, an[i].answer, an[i].svg) < 0)
            return -1;
    return 0;
}

int db_trace_insert(db *d, const struct db_trace_info *info, const void *const *ranks,
                    const size_t *lens, const struct db_trace_analysis *an, size_t n,
                    struct err *err)
{
    char now[32];
    size_t i;
    int rc = run_exists(d, info->run_id, err);

    if (rc < 0)
        return -1;
    if (rc == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", NULL, "no run with id %lld",
                       info->run_id);
    rc = db_trace_info(d, info->run_id, NULL, NULL, err);
    if (rc < 0)
        return -1;
    if (rc == 1)
        return err_set(err, ERR_CONFLICT, "conflict", NULL,
                       "run %lld already has a trace", info->run_id);
    db_now(now);
    if (dq_run(d,
               "INSERT INTO traces (run_id, nranks, nevents, span, dropped, bytes, "
               "created_at, analysed) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
               err, "iiidiiti", info->run_id, (long long)info->nranks, info->nevents,
               info->span, info->dropped, info->bytes, now, info->analysed) < 0)
        return -1;
    for (i = 0; i < (size_t)info->nranks; i++)
        if (dq_run(d, "INSERT INTO trace_ranks (run_id, rank, data) VALUES (?1, ?2, ?3)",
                   err, "iib", info->run_id, (long long)i, ranks[i], lens[i]) < 0)
            return -1;
    return insert_analyses(d, info->run_id, an, n, err);
}

int db_trace_older(db *d, long long version, long long after, long long *ids, int max,
                   struct err *err)
{
    struct db_stmt *st =
        dq_prepare(d,
                   "SELECT run_id FROM traces WHERE analysed < ?1 AND run_id > ?2 "
                   "ORDER BY run_id LIMIT ?3",
                   err, "iii", version, after, (long long)max);
    int rc = 0, n = 0;
    if (st == NULL)
        return -1;
    while (n < max && (rc = dq_step(d, st, err)) == 1)
        ids[n++] = dq_ll(d, st, 0);
    if (n == max)
        dq_reset(d, st);
    else if (rc < 0)
        return -1;
    return n;
}

int db_trace_replace(db *d, long long run_id, long long version,
                     const struct db_trace_analysis *an, size_t n, struct err *err)
{
    /* The version moves first, on the condition: a trace another server has
     * renewed meanwhile, or whose run was deleted, changes no row and is
     * left alone. */
    long long changed = dq_run(d,
                               "UPDATE traces SET analysed = ?2 "
                               "WHERE run_id = ?1 AND analysed < ?2",
                               err, "ii", run_id, version);
    if (changed <= 0)
        return changed < 0 ? -1 : 0;
    if (dq_run(d, "DELETE FROM trace_analyses WHERE run_id = ?1", err, "i", run_id) < 0 ||
        insert_analyses(d, run_id, an, n, err) != 0)
        return -1;
    return 1;
}

int db_trace_info(db *d, long long run_id, arena *a, struct db_trace_info *out,
                  struct err *err)
{
    struct db_stmt *st = dq_prepare(d,
                                    "SELECT nranks, nevents, span, dropped, bytes, "
                                    "created_at, analysed FROM traces WHERE run_id = ?1",
                                    err, "i", run_id);
    int rc;
    if (st == NULL)
        return -1;
    rc = dq_step(d, st, err);
    if (rc == 1 && out != NULL) {
        const char *c = dq_text(d, st, 5);
        out->run_id = run_id;
        out->nranks = (int)dq_ll(d, st, 0);
        out->nevents = dq_ll(d, st, 1);
        out->span = dq_dbl(d, st, 2);
        out->dropped = dq_ll(d, st, 3);
        out->bytes = dq_ll(d, st, 4);
        out->analysed = dq_ll(d, st, 6);
        out->created_at = arena_strdup(a, c ? c : "");
        if (out->created_at == NULL) {
            dq_reset(d, st);
            return err_nomem(err);
        }
    }
    if (rc == 1)
        dq_reset(d, st);
    return rc;
}

int db_trace_analysis(db *d, long long run_id, const char *name, int svg, arena *a,
                      const char **text, size_t *len, struct err *err)
{
    struct db_stmt *st = dq_prepare(
        d,
        svg ? "SELECT svg FROM trace_analyses WHERE run_id = ?1 AND name = ?2"
            : "SELECT answer FROM trace_analyses WHERE run_id = ?1 AND name = ?2",
        err, "it", run_id, name);
    int rc;
    if (st == NULL)
        return -1;
    rc = dq_step(d, st, err);
    if (rc == 1) {
        size_t n = 0;
        const char *s = dq_blob(d, st, 0, &n);
        char *copy = arena_alloc(a, n + 1);
        if (copy != NULL && n > 0)
            memcpy(copy, s, n);
        dq_reset(d, st);
        if (copy == NULL)
            return err_nomem(err);
        copy[n] = '\0';
        *text = copy;
        *len = n;
    }
    return rc;
}

int db_trace_ranks(db *d, long long run_id, arena *a, const void ***ranks, size_t **lens,
                   int *n, struct err *err)
{
    struct db_trace_info info;
    struct db_stmt *st;
    int rc = db_trace_info(d, run_id, a, &info, err), i = 0;

    if (rc <= 0)
        return rc;
    *ranks = arena_alloc(a, (size_t)info.nranks * sizeof **ranks);
    *lens = arena_alloc(a, (size_t)info.nranks * sizeof **lens);
    if (*ranks == NULL || *lens == NULL)
        return err_nomem(err);
    st = dq_prepare(d, "SELECT data FROM trace_ranks WHERE run_id = ?1 ORDER BY rank",
                    err, "i", run_id);
    if (st == NULL)
        return -1;
    while ((rc = dq_step(d, st, err)) == 1) {
        size_t len = 0;
        const void *data = dq_blob(d, st, 0, &len);
        void *copy;
        if (i == info.nranks) {
            dq_reset(d, st);
            return err_set(err, ERR_INTERNAL, "database", NULL,
                           "run %lld: more rank files than the trace's %d ranks", run_id,
                           info.nranks);
        }
        copy = arena_alloc(a, len ? len : 1);
        if (copy == NULL) {
            dq_reset(d, st);
            return err_nomem(err);
        }
        if (len > 0)
            memcpy(copy, data, len);
        (*ranks)[i] = copy;
        (*lens)[i] = len;
        i++;
    }
    if (rc < 0)
        return -1;
    *n = i;
    return 1;
}

int db_trace_runs_of_app(db *d, const char *application, const char *input, int max,
                         arena *a, struct db_trace_run **rows, struct err *err)
{
    struct db_stmt *st;
    int rc, n = 0;

    *rows = arena_alloc(a, (size_t)(max > 0 ? max : 1) * sizeof **rows);
    if (*rows == NULL)
        return err_nomem(err);
    st = dq_prepare(d,
                    "SELECT r.id, r.nprocs, (SELECT i.value FROM run_inputs i "
                    "WHERE i.run_id = r.id AND i.name = ?2) FROM traces t "
                    "JOIN runs r ON r.id = t.run_id JOIN applications ap ON "
                    "ap.id = r.app_id WHERE ap.name = ?1 ORDER BY r.id LIMIT ?3",
                    err, "tti", application, input, (long long)max);
    if (st == NULL)
        return -1;
    while (n < max && (rc = dq_step(d, st, err)) == 1) {
        (*rows)[n].run_id = dq_ll(d, st, 0);
        (*rows)[n].nprocs = dq_ll(d, st, 1);
        (*rows)[n].input = dq_null(d, st, 2) ? NAN : dq_dbl(d, st, 2);
        n++;
    }
    if (n == max)
        dq_reset(d, st);
    else if (rc < 0)
        return -1;
    return n;
}

int db_trace_run_by_uid(db *d, const char *uid, long long *id, struct err *err)
{
    return dq_scalar(d, id, "SELECT id FROM runs WHERE uid = ?1", err, "t", uid);
}
