/* trace: the SQLite implementation of db/trace.h. Every step loop checks its
 * final result (SQLITE_DONE) and fails through db_fail otherwise, so a
 * damaged database never reads as an absent trace. */
#include "db/trace.h"
#include "db/sqlite/entries.h"
#include "db/sqlite/sql.h"

#include <math.h>
#include <string.h>

static int run_exists(db *d, long long run_id, struct err *err)
{
    sqlite3_stmt *st = db_stmt(d, "SELECT 1 FROM runs WHERE id = ?1", err);
    int rc;
    if (st == NULL)
        return -1;
    sqlite3_bind_int64(st, 1, run_id);
    rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc == SQLITE_ROW)
        return 1;
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    return 0;
}

int sq_trace_insert(db *d, const struct db_trace_info *info, const void *const *ranks,
                    const size_t *lens, const struct db_trace_analysis *an, size_t n,
                    struct err *err)
{
    sqlite3_stmt *st;
    char now[32];
    size_t i;
    int rc = run_exists(d, info->run_id, err);

    if (rc < 0)
        return -1;
    if (rc == 0)
        return err_set(err, 404, "not_found", NULL, "no run with id %lld", info->run_id);
    rc = db_trace_info(d, info->run_id, NULL, NULL, err);
    if (rc < 0)
        return -1;
    if (rc == 1)
        return err_set(err, 409, "conflict", NULL, "run %lld already has a trace",
                       info->run_id);
    db_now(now);
    st = db_stmt(d,
                 "INSERT INTO traces (run_id, nranks, nevents, span, dropped, bytes, "
                 "created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                 err);
    if (st == NULL)
        return -1;
    sqlite3_bind_int64(st, 1, info->run_id);
    sqlite3_bind_int(st, 2, info->nranks);
    sqlite3_bind_int64(st, 3, info->nevents);
    sqlite3_bind_double(st, 4, info->span);
    sqlite3_bind_int64(st, 5, info->dropped);
    sqlite3_bind_int64(st, 6, info->bytes);
    sqlite3_bind_text(st, 7, now, -1, SQLITE_TRANSIENT);
    rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    st = db_stmt(d, "INSERT INTO trace_ranks (run_id, rank, data) VALUES (?1, ?2, ?3)",
                 err);
    if (st == NULL)
        return -1;
    for (i = 0; i < (size_t)info->nranks; i++) {
        sqlite3_bind_int64(st, 1, info->run_id);
        sqlite3_bind_int(st, 2, (int)i);
        sqlite3_bind_blob64(st, 3, ranks[i], (sqlite3_uint64)lens[i], SQLITE_STATIC);
        rc = sqlite3_step(st);
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
        if (rc != SQLITE_DONE)
            return db_fail(d, err);
    }
    st = db_stmt(d,
                 "INSERT INTO trace_analyses (run_id, name, answer, svg) "
                 "VALUES (?1, ?2, ?3, ?4)",
                 err);
    if (st == NULL)
        return -1;
    for (i = 0; i < n; i++) {
        sqlite3_bind_int64(st, 1, info->run_id);
        sqlite3_bind_text(st, 2, an[i].name, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, an[i].answer, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 4, an[i].svg, -1, SQLITE_STATIC);
        rc = sqlite3_step(st);
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
        if (rc != SQLITE_DONE)
            return db_fail(d, err);
    }
    return 0;
}

int sq_trace_info(db *d, long long run_id, arena *a, struct db_trace_info *out,
                  struct err *err)
{
    sqlite3_stmt *st = db_stmt(d,
                               "SELECT nranks, nevents, span, dropped, bytes, created_at "
                               "FROM traces WHERE run_id = ?1",
                               err);
    int rc;
    if (st == NULL)
        return -1;
    sqlite3_bind_int64(st, 1, run_id);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW && out != NULL) {
        const char *c = (const char *)sqlite3_column_text(st, 5);
        out->run_id = run_id;
        out->nranks = sqlite3_column_int(st, 0);
        out->nevents = sqlite3_column_int64(st, 1);
        out->span = sqlite3_column_double(st, 2);
        out->dropped = sqlite3_column_int64(st, 3);
        out->bytes = sqlite3_column_int64(st, 4);
        out->created_at = arena_strdup(a, c ? c : "");
        if (out->created_at == NULL) {
            sqlite3_reset(st);
            return err_nomem(err);
        }
    }
    sqlite3_reset(st);
    if (rc == SQLITE_ROW)
        return 1;
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    return 0;
}

int sq_trace_analysis(db *d, long long run_id, const char *name, int svg, arena *a,
                      const char **text, size_t *len, struct err *err)
{
    sqlite3_stmt *st =
        db_stmt(d,
                svg ? "SELECT svg FROM trace_analyses WHERE run_id = ?1 AND name = ?2"
                    : "SELECT answer FROM trace_analyses WHERE run_id = ?1 AND name = ?2",
                err);
    int rc;
    if (st == NULL)
        return -1;
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        const char *s = (const char *)sqlite3_column_text(st, 0);
        size_t n = (size_t)sqlite3_column_bytes(st, 0);
        char *copy = arena_alloc(a, n + 1);
        if (copy == NULL) {
            sqlite3_reset(st);
            return err_nomem(err);
        }
        if (n > 0)
            memcpy(copy, s, n);
        copy[n] = '\0';
        *text = copy;
        *len = n;
    }
    sqlite3_reset(st);
    if (rc == SQLITE_ROW)
        return 1;
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    return 0;
}

int sq_trace_ranks(db *d, long long run_id, arena *a, const void ***ranks, size_t **lens,
                   int *n, struct err *err)
{
    struct db_trace_info info;
    sqlite3_stmt *st;
    int rc = db_trace_info(d, run_id, a, &info, err), i = 0;

    if (rc <= 0)
        return rc;
    *ranks = arena_alloc(a, (size_t)info.nranks * sizeof **ranks);
    *lens = arena_alloc(a, (size_t)info.nranks * sizeof **lens);
    if (*ranks == NULL || *lens == NULL)
        return err_nomem(err);
    st = db_stmt(d, "SELECT data FROM trace_ranks WHERE run_id = ?1 ORDER BY rank", err);
    if (st == NULL)
        return -1;
    sqlite3_bind_int64(st, 1, run_id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        size_t len = (size_t)sqlite3_column_bytes(st, 0);
        const void *data = sqlite3_column_blob(st, 0);
        void *copy;
        if (i == info.nranks) {
            sqlite3_reset(st);
            return err_set(err, 500, "database", NULL,
                           "run %lld: more rank files than the trace's %d ranks", run_id,
                           info.nranks);
        }
        copy = arena_alloc(a, len ? len : 1);
        if (copy == NULL) {
            sqlite3_reset(st);
            return err_nomem(err);
        }
        if (len > 0)
            memcpy(copy, data, len);
        (*ranks)[i] = copy;
        (*lens)[i] = len;
        i++;
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    *n = i;
    return 1;
}

int sq_trace_runs_of_app(db *d, const char *application, const char *input, int max,
                         arena *a, struct db_trace_run **rows, struct err *err)
{
    sqlite3_stmt *st =
        db_stmt(d,
                "SELECT r.id, r.nprocs, (SELECT i.value FROM run_inputs i "
                "WHERE i.run_id = r.id AND i.name = ?2) FROM traces t "
                "JOIN runs r ON r.id = t.run_id JOIN applications ap ON "
                "ap.id = r.app_id WHERE ap.name = ?1 ORDER BY r.id LIMIT ?3",
                err);
    int rc, n = 0;
    if (st == NULL)
        return -1;
    *rows = arena_alloc(a, (size_t)(max > 0 ? max : 1) * sizeof **rows);
    if (*rows == NULL)
        return err_nomem(err);
    sqlite3_bind_text(st, 1, application, -1, SQLITE_STATIC);
    if (input != NULL)
        sqlite3_bind_text(st, 2, input, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, max);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < max) {
        (*rows)[n].run_id = sqlite3_column_int64(st, 0);
        (*rows)[n].nprocs = sqlite3_column_int64(st, 1);
        (*rows)[n].input = sqlite3_column_type(st, 2) == SQLITE_NULL
                               ? NAN
                               : sqlite3_column_double(st, 2);
        n++;
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return db_fail(d, err);
    return n;
}

int sq_trace_run_by_uid(db *d, const char *uid, long long *id, struct err *err)
{
    sqlite3_stmt *st = db_stmt(d, "SELECT id FROM runs WHERE uid = ?1", err);
    int rc;
    if (st == NULL)
        return -1;
    sqlite3_bind_text(st, 1, uid, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *id = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (rc == SQLITE_ROW)
        return 1;
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    return 0;
}
