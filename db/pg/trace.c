/* trace: the PostgreSQL implementation of db/trace.h, the same contract as
 * db/sqlite/trace.c. The per-rank files are bytea, sent and read as binary
 * parameters (no hex doubling on the wire for the large part); the bounds
 * on what a trace may hold are checked before it reaches here
 * (formats/limits.h), as for SQLite. A failed statement is an error, never
 * an absent trace.
 */
#include "db/trace.h"
#include "db/pg/entries.h"
#include "db/pg/pg.h"

#include <libpq-fe.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int run_exists(db *d, long long run_id, struct err *err)
{
    PGresult *r =
        pg_params(d, "SELECT 1 FROM runs WHERE id = $1::bigint", err, "i", run_id);
    int found;
    if (r == NULL)
        return -1;
    found = PQntuples(r) > 0;
    PQclear(r);
    return found;
}

int pg_trace_insert(db *d, const struct db_trace_info *info, const void *const *ranks,
                    const size_t *lens, const struct db_trace_analysis *an, size_t n,
                    struct err *err)
{
    char now[32];
    size_t i;
    int rc = run_exists(d, info->run_id, err);

    if (rc < 0)
        return -1;
    if (rc == 0)
        return err_set(err, 404, "not_found", NULL, "no run with id %lld", info->run_id);
    rc = pg_trace_info(d, info->run_id, NULL, NULL, err);
    if (rc < 0)
        return -1;
    if (rc == 1)
        return err_set(err, 409, "conflict", NULL, "run %lld already has a trace",
                       info->run_id);
    db_now(now);
    if (pg_run_sql(d,
                   "INSERT INTO traces (run_id, nranks, nevents, span, dropped, bytes, "
                   "created_at) VALUES ($1::bigint, $2::bigint, $3::bigint, $4::float8, "
                   "$5::bigint, $6::bigint, $7::text)",
                   err,
                   "iiidii"
                   "t",
                   info->run_id, (long long)info->nranks, info->nevents, info->span,
                   info->dropped, info->bytes, now) < 0)
        return -1;
    for (i = 0; i < (size_t)info->nranks; i++)
        if (pg_run_sql(d,
                       "INSERT INTO trace_ranks (run_id, rank, data) VALUES ($1::bigint, "
                       "$2::bigint, $3::bytea)",
                       err, "iib", info->run_id, (long long)i, ranks[i], lens[i]) < 0)
            return -1;
    for (i = 0; i < n; i++)
        if (pg_run_sql(d,
                       "INSERT INTO trace_analyses (run_id, name, answer, svg) VALUES "
                       "($1::bigint, $2::text, $3::text, $4::text)",
                       err, "ittt", info->run_id, an[i].name, an[i].answer,
                       an[i].svg) < 0)
            return -1;
    return 0;
}

int pg_trace_info(db *d, long long run_id, arena *a, struct db_trace_info *out,
                  struct err *err)
{
    PGresult *r = pg_params(d,
                            "SELECT nranks, nevents, span, dropped, bytes, created_at "
                            "FROM traces WHERE run_id = $1::bigint",
                            err, "i", run_id);
    int found;
    if (r == NULL)
        return -1;
    found = PQntuples(r) > 0;
    if (found && out != NULL) {
        out->run_id = run_id;
        out->nranks = (int)pg_ll(r, 0, 0);
        out->nevents = pg_ll(r, 0, 1);
        out->span = PQgetisnull(r, 0, 2) ? 0 : strtod(PQgetvalue(r, 0, 2), NULL);
        out->dropped = pg_ll(r, 0, 3);
        out->bytes = pg_ll(r, 0, 4);
        out->created_at = arena_strdup(a, PQgetvalue(r, 0, 5));
        if (out->created_at == NULL) {
            PQclear(r);
            return err_nomem(err);
        }
    }
    PQclear(r);
    return found;
}

int pg_trace_analysis(db *d, long long run_id, const char *name, int svg, arena *a,
                      const char **text, size_t *len, struct err *err)
{
    PGresult *r = pg_params(
        d,
        svg ? "SELECT svg FROM trace_analyses WHERE run_id = $1::bigint AND name = "
              "$2::text"
            : "SELECT answer FROM trace_analyses WHERE run_id = $1::bigint AND name = "
              "$2::text",
        err, "it", run_id, name);
    int found;
    if (r == NULL)
        return -1;
    found = PQntuples(r) > 0;
    if (found) {
        size_t n = (size_t)PQgetlength(r, 0, 0);
        char *copy = arena_alloc(a, n + 1);
        if (copy == NULL) {
            PQclear(r);
            return err_nomem(err);
        }
        if (n > 0)
            memcpy(copy, PQgetvalue(r, 0, 0), n);
        copy[n] = '\0';
        *text = copy;
        *len = n;
    }
    PQclear(r);
    return found;
}

/* The bytes of a bytea cell into a: raw in a binary result, decoded from
 * PostgreSQL's hex text otherwise. NULL when out of memory or malformed. */
static void *bytea_copy(arena *a, const PGresult *r, int row, int col, size_t *len)
{
    const char *v = PQgetvalue(r, row, col);
    size_t n = (size_t)PQgetlength(r, row, col), i;
    unsigned char *out;

    if (PQfformat(r, col) == 1) {
        out = arena_alloc(a, n ? n : 1);
        if (out != NULL && n > 0)
            memcpy(out, v, n);
        *len = n;
        return out;
    }
    if (n < 2 || v[0] != '\\' || v[1] != 'x' || (n - 2) % 2 != 0)
        return NULL;
    *len = (n - 2) / 2;
    out = arena_alloc(a, *len ? *len : 1);
    for (i = 0; out != NULL && i < *len; i++) {
        int hi = v[2 + 2 * i], lo = v[3 + 2 * i];
        hi = hi <= '9' ? hi - '0' : (hi | 32) - 'a' + 10;
        lo = lo <= '9' ? lo - '0' : (lo | 32) - 'a' + 10;
        if (hi < 0 || hi > 15 || lo < 0 || lo > 15)
            return NULL;
        out[i] = (unsigned char)(hi << 4 | lo);
    }
    return out;
}

int pg_trace_ranks(db *d, long long run_id, arena *a, const void ***ranks, size_t **lens,
                   int *n, struct err *err)
{
    struct db_trace_info info;
    PGresult *r;
    int rc = pg_trace_info(d, run_id, a, &info, err), rows, i;

    if (rc <= 0)
        return rc;
    *ranks = arena_alloc(a, (size_t)info.nranks * sizeof **ranks);
    *lens = arena_alloc(a, (size_t)info.nranks * sizeof **lens);
    if (*ranks == NULL || *lens == NULL)
        return err_nomem(err);
    r = pg_params(d,
                  "SELECT data FROM trace_ranks WHERE run_id = $1::bigint ORDER BY rank",
                  err, "i", run_id);
    if (r == NULL)
        return -1;
    rows = PQntuples(r);
    if (rows > info.nranks) {
        PQclear(r);
        return err_set(err, 500, "database", NULL,
                       "run %lld: more rank files than the trace's %d ranks", run_id,
                       info.nranks);
    }
    for (i = 0; i < rows; i++) {
        (*ranks)[i] = bytea_copy(a, r, i, 0, &(*lens)[i]);
        if ((*ranks)[i] == NULL) {
            PQclear(r);
            return err_set(err, 500, "database", NULL,
                           "run %lld: rank %d's file could not be read", run_id, i);
        }
    }
    PQclear(r);
    *n = rows;
    return 1;
}

int pg_trace_runs_of_app(db *d, const char *application, const char *input, int max,
                         arena *a, struct db_trace_run **rows, struct err *err)
{
    PGresult *r = pg_params(d,
                            "SELECT r.id, r.nprocs, (SELECT i.value FROM run_inputs i "
                            "WHERE i.run_id = r.id AND i.name = $2::text) FROM traces t "
                            "JOIN runs r ON r.id = t.run_id JOIN applications ap ON "
                            "ap.id = r.app_id WHERE ap.name = $1::text ORDER BY r.id "
                            "LIMIT $3::bigint",
                            err, "tti", application, input, (long long)max);
    int n, i;
    if (r == NULL)
        return -1;
    *rows = arena_alloc(a, (size_t)(max > 0 ? max : 1) * sizeof **rows);
    if (*rows == NULL) {
        PQclear(r);
        return err_nomem(err);
    }
    n = PQntuples(r);
    if (n > max)
        n = max;
    for (i = 0; i < n; i++) {
        (*rows)[i].run_id = pg_ll(r, i, 0);
        (*rows)[i].nprocs = pg_ll(r, i, 1);
        (*rows)[i].input = PQgetisnull(r, i, 2) ? NAN : strtod(PQgetvalue(r, i, 2), NULL);
    }
    PQclear(r);
    return n < 0 ? 0 : n;
}

int pg_trace_run_by_uid(db *d, const char *uid, long long *id, struct err *err)
{
    PGresult *r = pg_params(d, "SELECT id FROM runs WHERE uid = $1::text", err, "t", uid);
    int found;
    if (r == NULL)
        return -1;
    found = PQntuples(r) > 0;
    if (found)
        *id = pg_ll(r, 0, 0);
    PQclear(r);
    return found;
}
