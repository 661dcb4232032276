/* reads: the PostgreSQL entries of reads-pages' read paths (issues 14, 17) —
 * the history series streamed (db/history.h db_history_series_each) and the
 * application page's keyset cursors (db/summary.h db_runs_rank, and
 * pg_page_keyset for db_runs_page). The same answers, order and errors as
 * db/sqlite/history.c and summary.c. */
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "db/pg/entries.h"
#include "db/pg/pg.h"

/* ---- the history series streamed ------------------------------------------ */

/* y: "runtime", "metric:NAME" or "kernel:NAME" (0, 1, 2; *name the NAME), -1
 * for anything else (as db/sqlite/history.c). */
static int y_kind(const char *y, const char **name)
{
    *name = NULL;
    if (strcmp(y, "runtime") == 0)
        return 0;
    if (strncmp(y, "metric:", 7) == 0 && y[7] != '\0') {
        *name = y + 7;
        return 1;
    }
    if (strncmp(y, "kernel:", 7) == 0 && y[7] != '\0') {
        *name = y + 7;
        return 2;
    }
    return -1;
}

#define AT "coalesce(r.started_at, r.created_at)"

/* A run's points in time order (its stored start, else its upload; then id),
 * as db/sqlite/history.c's SQL_SERIES. */
static const char *const series_sql[3] = {
    "SELECT r.id, " AT ", r.vcs_commit, r.runtime FROM runs r WHERE r.config_id = "
    "$1::bigint ORDER BY " AT " COLLATE \"C\", r.id",
    "SELECT r.id, " AT ", r.vcs_commit, m.value FROM runs r JOIN run_metrics m ON "
    "m.run_id = r.id AND m.name = $2::text WHERE r.config_id = $1::bigint ORDER BY " AT
    " COLLATE \"C\", r.id",
    "SELECT id, at, vcs_commit, v FROM (SELECT r.id, " AT " AS at, r.vcs_commit, "
    "(SELECT sum(k.time) FROM kernels k WHERE k.run_id = r.id AND k.name = $2::text) AS "
    "v FROM runs r WHERE r.config_id = $1::bigint) s WHERE v IS NOT NULL ORDER BY at "
    "COLLATE \"C\", id",
};

int pg_history_series_each(db *d, long long config_id, const char *y,
                           int (*fn)(void *ctx, const struct db_series_point *p,
                                     struct err *err),
                           void *ctx, struct err *err)
{
    const char *name;
    int kind = y_kind(y, &name), i, n;
    PGresult *r;

    if (kind < 0)
        return err_set(err, 422, "invalid", "y",
                       "y must be runtime, metric:NAME or kernel:NAME, not %s", y);
    r = kind == 0 ? pg_params(d, series_sql[0], err, "i", config_id)
                  : pg_params(d, series_sql[kind], err, "it", config_id, name);
    if (r == NULL)
        return -1;
    n = PQntuples(r);
    for (i = 0; i < n; i++) {
        /* the texts in place: valid until the result is cleared */
        struct db_series_point p = {pg_ll(r, i, 0), pg_text(r, i, 1), pg_text(r, i, 2),
                                    pg_dbl(r, i, 3)};
        if (fn(ctx, &p, err) != 0) {
            PQclear(r);
            return -1;
        }
    }
    PQclear(r);
    return 0;
}

/* ---- the application page's keyset cursors -------------------------------- */

/* The ids that follow a cursor run's key in one direction ($4 rows; NULL =
 * all). In id order that is one id range. In a key order it is first the
 * rest of the cursor's tie group (same key, executable and system, in id
 * order), then the groups past it (a row comparison over the order's
 * covering index), so neither walks the entries before the cursor. */
#define PAGE_FILTER                                                                      \
    "app_id = $1::bigint AND ($2::bigint = 0 OR exe_id = $2::bigint) AND ($3::bigint "   \
    "= 0 OR system_id = $3::bigint)"
/* $5 the key, $6 executable, $7 system, $8 id; the id orders name the key's
 * parameters too (every statement binds all eight). */
#define PAGE_KEY_UNUSED                                                                  \
    " AND $5::bigint IS NOT NULL AND $6::bigint IS NOT NULL AND $7::bigint IS NOT NULL"
#define PAGE_FROM_ID(cmp, dir)                                                           \
    "SELECT id FROM runs WHERE " PAGE_FILTER PAGE_KEY_UNUSED " AND id " cmp              \
    " $8::bigint ORDER BY id" dir " LIMIT $4::bigint"
#define PAGE_FROM_ID_SYSTEM(cmp, dir)                                                    \
    "SELECT id FROM runs WHERE system_id = $3::bigint AND app_id = $1::bigint AND "      \
    "($2::bigint = 0 OR exe_id = $2::bigint)" PAGE_KEY_UNUSED " AND id " cmp             \
    " $8::bigint ORDER BY id" dir " LIMIT $4::bigint"
#define PAGE_FROM_TIE(key, type, cmp, dir)                                               \
    "SELECT id FROM runs WHERE " PAGE_FILTER " AND " key " = $5::" type " AND exe_id = " \
    "$6::bigint AND system_id = $7::bigint AND id " cmp " $8::bigint ORDER BY id" dir    \
    " LIMIT $4::bigint"
#define PAGE_FROM_REST(key, type, cmp, dir)                                              \
    "SELECT id FROM runs WHERE " PAGE_FILTER " AND (" key ", exe_id, system_id) " cmp    \
    " ($5::" type                                                                        \
    ", $6::bigint, $7::bigint) AND $8::bigint IS NOT NULL ORDER BY " key dir             \
    ", exe_id" dir ", system_id" dir ", id" dir " LIMIT $4::bigint"
static const char *const page_from_id_sql[2] = {PAGE_FROM_ID(">", ""),
                                                PAGE_FROM_ID("<", " DESC")};
static const char *const page_from_id_system_sql[2] = {PAGE_FROM_ID_SYSTEM(">", ""),
                                                       PAGE_FROM_ID_SYSTEM("<", " DESC")};
static const char *const page_from_sql[2][2][2] = {
    /* [sort - 1][descending][tie group, rest] */
    {{PAGE_FROM_TIE("nprocs", "bigint", ">", ""),
      PAGE_FROM_REST("nprocs", "bigint", ">", "")},
     {PAGE_FROM_TIE("nprocs", "bigint", "<", " DESC"),
      PAGE_FROM_REST("nprocs", "bigint", "<", " DESC")}},
    {{PAGE_FROM_TIE("runtime", "float8", ">", ""),
      PAGE_FROM_REST("runtime", "float8", ">", "")},
     {PAGE_FROM_TIE("runtime", "float8", "<", " DESC"),
      PAGE_FROM_REST("runtime", "float8", "<", " DESC")}},
};

/* A cursor run's place in every order. */
struct page_key {
    long long id, app_id, exe_id, system_id, nprocs;
    double runtime;
};

/* Reads run id's key into *k: 1, 0 when the run is not stored, or -1. */
static int page_key(db *d, long long id, struct page_key *k, struct err *err)
{
    PGresult *r = pg_params(d,
                            "SELECT app_id, exe_id, system_id, nprocs, runtime FROM runs "
                            "WHERE id = $1::bigint",
                            err, "i", id);
    int found;
    if (r == NULL)
        return -1;
    found = PQntuples(r) > 0;
    if (found) {
        k->id = id;
        k->app_id = pg_ll(r, 0, 0);
        k->exe_id = pg_ll(r, 0, 1);
        k->system_id = pg_ll(r, 0, 2);
        k->nprocs = pg_ll(r, 0, 3);
        k->runtime = pg_dbl(r, 0, 4);
    }
    PQclear(r);
    return found;
}

/* The ids of q's filters that follow key k in q's sort, ascending or
 * descending (desc), at most want of them (want < 0: all) into ids (NULL:
 * only count them). Returns their number, or -1 with err set. */
static long long keyset_ids(db *d, const struct db_page_query *q, int sort, int desc,
                            const struct page_key *k, long long *ids, long long want,
                            struct err *err)
{
    const char *sql[2] = {NULL, NULL};
    long long n = 0;
    int s;

    if (sort == DB_SORT_ID)
        sql[0] =
            q->system_id != 0 ? page_from_id_system_sql[desc] : page_from_id_sql[desc];
    else {
        sql[0] = page_from_sql[sort - 1][desc][0];
        sql[1] = page_from_sql[sort - 1][desc][1];
    }
    for (s = 0; s < 2 && sql[s] != NULL && (want < 0 || n < want); s++) {
        const char *limit = NULL;
        char lim[32];
        PGresult *r;
        int i, rows;
        if (want >= 0) {
            snprintf(lim, sizeof lim, "%lld", want - n);
            limit = lim;
        }
        if (sort == DB_SORT_RUNTIME)
            r = pg_params(d, sql[s], err, "iiitdiii", q->app_id, q->exe_id, q->system_id,
                          limit, k->runtime, k->exe_id, k->system_id, k->id);
        else
            r = pg_params(d, sql[s], err, "iiitiiii", q->app_id, q->exe_id, q->system_id,
                          limit, k->nprocs, k->exe_id, k->system_id, k->id);
        if (r == NULL)
            return -1;
        rows = PQntuples(r);
        for (i = 0; i < rows && (want < 0 || n < want); i++) {
            if (ids != NULL)
                ids[n] = pg_ll(r, i, 0);
            n++;
        }
        PQclear(r);
    }
    return n;
}

long long pg_runs_rank(db *d, const struct db_page_query *q, struct err *err)
{
    int sort = q->sort >= DB_SORT_ID && q->sort <= DB_SORT_RUNTIME ? (int)q->sort : 0;
    long long cursor = q->after != 0 ? q->after : q->before, n;
    struct page_key k;
    int found;

    if (cursor == 0)
        return 0;
    if ((found = page_key(d, cursor, &k, err)) <= 0)
        return found;
    /* the runs before the cursor are those that follow it the other way */
    n = keyset_ids(d, q, sort, q->desc ? 0 : 1, &k, NULL, -1, err);
    if (n >= 0 && q->after != 0 && k.app_id == q->app_id &&
        (q->exe_id == 0 || q->exe_id == k.exe_id) &&
        (q->system_id == 0 || q->system_id == k.system_id))
        n++; /* a page after the cursor starts past the cursor itself */
    return n;
}

int pg_page_keyset(db *d, const struct db_page_query *q, long long *ids, int limit,
                   struct err *err)
{
    int sort = q->sort >= DB_SORT_ID && q->sort <= DB_SORT_RUNTIME ? (int)q->sort : 0;
    int flip = q->after == 0, found, i;
    long long *tmp = xmalloc((size_t)limit * sizeof *tmp), got;
    struct page_key k;

    if (tmp == NULL)
        return err_nomem(err);
    found = page_key(d, q->after ? q->after : q->before, &k, err);
    if (found <= 0) {
        free(tmp);
        return found < 0 ? -1 : -2;
    }
    /* backwards for a page before the cursor, then reversed */
    got = keyset_ids(d, q, sort, (q->desc ? 1 : 0) ^ flip, &k, tmp, limit, err);
    if (got < 0) {
        free(tmp);
        return -1;
    }
    for (i = 0; i < (int)got; i++)
        ids[i] = tmp[flip ? (int)got - 1 - i : i];
    free(tmp);
    return (int)got;
}
