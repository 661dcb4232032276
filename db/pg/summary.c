/* summary: configuration summaries and the dashboard's reads on PostgreSQL;
 * see db/summary.h.
 *
 * As on SQLite every statement is bounded by the number of configurations or
 * by one page of runs. A run joins its configuration with INSERT ... ON
 * CONFLICT DO UPDATE, which also serializes two servers adding runs to one
 * configuration (the second waits for the first's row lock), so counts and
 * sums stay exact under concurrent writers.
 */
#include "db/summary.h"
#include "common/buf.h"
#include "db/pg/entries.h"
#include "db/pg/pg.h"
#include "formats/limits.h"

#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

static const char SQL_CONFIG_ADD[] =
    "INSERT INTO run_configs (app_id, exe_id, system_id, nprocs, inputs, runs, "
    "sum_runtime, min_runtime, max_runtime, last_run_id, timed) "
    "SELECT r.app_id, r.exe_id, r.system_id, r.nprocs, $2, 1, coalesce(r.runtime, 0), "
    "r.runtime, r.runtime, r.id, (r.runtime IS NOT NULL)::int FROM runs r WHERE r.id = "
    "$1 "
    "ON CONFLICT (app_id, exe_id, system_id, nprocs, inputs) DO UPDATE SET "
    "runs = run_configs.runs + 1, timed = run_configs.timed + excluded.timed, "
    "sum_runtime = run_configs.sum_runtime + excluded.sum_runtime, "
    "min_runtime = least(run_configs.min_runtime, excluded.min_runtime), "
    "max_runtime = greatest(run_configs.max_runtime, excluded.max_runtime), "
    "last_run_id = greatest(run_configs.last_run_id, excluded.last_run_id) RETURNING id";
static const char SQL_RUN_CONFIG[] = "UPDATE runs SET config_id = $2 WHERE id = $1";

int pg_summary_add_run_inputs(db *d, long long run_id, struct rec_kv *inputs, size_t n,
                              struct err *err)
{
    struct buf text;
    long long config_id;
    int rc;

    buf_init(&text, 64 * 1024);
    db_inputs_key(inputs, n, &text);
    if (buf_failed(&text)) {
        buf_free(&text);
        return err_nomem(err);
    }
    rc = pg_scalar(d, &config_id, SQL_CONFIG_ADD, err, "it", run_id, buf_str(&text));
    buf_free(&text);
    if (rc <= 0)
        return rc < 0
                   ? -1
                   : err_set(err, 404, "not_found", NULL, "run %lld not found", run_id);
    return pg_run_sql(d, SQL_RUN_CONFIG, err, "ii", run_id, config_id) < 0 ? -1 : 0;
}

int pg_summary_add_run(db *d, long long run_id, struct err *err)
{
    struct rec_kv kv[LIMIT_INPUTS];
    PGresult *r = pg_params(d, "SELECT name, value FROM run_inputs WHERE run_id = $1",
                            err, "i", run_id);
    int i, n, rc;
    if (r == NULL)
        return -1;
    n = PQntuples(r);
    if (n > LIMIT_INPUTS) {
        PQclear(r);
        return err_set(err, 500, "internal", NULL, "run %lld has too many inputs",
                       run_id);
    }
    for (i = 0; i < n; i++) {
        kv[i].name = pg_text(r, i, 0);
        kv[i].value = pg_dbl(r, i, 1);
    }
    rc = pg_summary_add_run_inputs(d, run_id, kv, (size_t)n, err);
    PQclear(r);
    return rc;
}

static const char *dup(arena *a, const PGresult *r, int row, int col)
{
    const char *t = pg_text(r, row, col);
    return t ? arena_strndup(a, t, (size_t)PQgetlength(r, row, col)) : NULL;
}

/* ---- one page of runs ---------------------------------------------------- */

/* The id scans, one constant per order (the statement cache is keyed by the
 * address), following the covering indexes as on SQLite. */
#define PAGE_IDS(order)                                                                  \
    "SELECT id FROM runs WHERE app_id = $1 AND ($2::bigint = 0 OR exe_id = $2) AND "     \
    "($3::bigint = 0 OR system_id = $3) ORDER BY " order " LIMIT $4 OFFSET $5"
#define PAGE_IDS_SYSTEM(order)                                                           \
    "SELECT id FROM runs WHERE system_id = $3 AND app_id = $1 AND ($2::bigint = 0 OR "   \
    "exe_id = $2) ORDER BY " order " LIMIT $4 OFFSET $5"
static const char *const page_ids_system_sql[2] = {PAGE_IDS_SYSTEM("id"),
                                                   PAGE_IDS_SYSTEM("id DESC")};
static const char *const page_ids_sql[3][2] = {
    {PAGE_IDS("id"), PAGE_IDS("id DESC")},
    {PAGE_IDS("nprocs, exe_id, system_id, id"),
     PAGE_IDS("nprocs DESC, exe_id DESC, system_id DESC, id DESC")},
    {PAGE_IDS("runtime, exe_id, system_id, id"),
     PAGE_IDS("runtime DESC, exe_id DESC, system_id DESC, id DESC")},
};

/* Keyset pages (as db/sqlite/summary.c): the ids that follow a cursor run's
 * key in one direction ($4 rows; NULL = all). In id order one id range; in a
 * key order first the rest of the cursor's tie group, then the groups past
 * it. Each statement numbers only the parameters it uses. */
#define PAGE_FILTER                                                                      \
    "app_id = $1 AND ($2::bigint = 0 OR exe_id = $2) AND ($3::bigint = 0 OR "            \
    "system_id = $3)"
#define PAGE_FROM_ID(cmp, dir)                                                           \
    "SELECT id FROM runs WHERE " PAGE_FILTER " AND id " cmp " $5 ORDER BY id" dir        \
    " LIMIT $4::bigint"
#define PAGE_FROM_ID_SYSTEM(cmp, dir)                                                    \
    "SELECT id FROM runs WHERE system_id = $3 AND app_id = $1 AND ($2::bigint = 0 OR "   \
    "exe_id = $2) AND id " cmp " $5 ORDER BY id" dir " LIMIT $4::bigint"
#define PAGE_FROM_TIE(key, type, cmp, dir)                                               \
    "SELECT id FROM runs WHERE " PAGE_FILTER " AND " key " = $5::" type                  \
    " AND exe_id = $6 AND system_id = $7 AND id " cmp " $8 ORDER BY id" dir              \
    " LIMIT $4::bigint"
#define PAGE_FROM_REST(key, type, cmp, dir)                                              \
    "SELECT id FROM runs WHERE " PAGE_FILTER " AND (" key ", exe_id, system_id) " cmp    \
    " ($5::" type ", $6::bigint, $7::bigint) ORDER BY " key dir ", exe_id" dir           \
    ", system_id" dir ", id" dir " LIMIT $4::bigint"
/* Runs without a runtime (SPEC §16) sort last ascending and first
 * descending, as PostgreSQL orders NULL: their tie group ($5 executable, $6
 * system, past id $7) and their groups past ($5, $6). */
#define PAGE_NULL_TIE(cmp, dir)                                                          \
    "SELECT id FROM runs WHERE " PAGE_FILTER " AND runtime IS NULL AND exe_id = $5 AND " \
    "system_id = $6 AND id " cmp " $7 ORDER BY id" dir " LIMIT $4::bigint"
#define PAGE_NULL_REST(cmp, dir)                                                         \
    "SELECT id FROM runs WHERE " PAGE_FILTER " AND runtime IS NULL AND (exe_id, "        \
    "system_id) " cmp " ($5::bigint, $6::bigint) ORDER BY exe_id" dir ", system_id" dir  \
    ", id" dir " LIMIT $4::bigint"
static const char *const page_null_tie_sql[2] = {PAGE_NULL_TIE(">", ""),
                                                 PAGE_NULL_TIE("<", " DESC")};
static const char *const page_null_rest_sql[2] = {PAGE_NULL_REST(">", ""),
                                                  PAGE_NULL_REST("<", " DESC")};
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
    PGresult *r = pg_params(
        d, "SELECT app_id, exe_id, system_id, nprocs, runtime FROM runs WHERE id = $1",
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
        k->runtime = pg_opt_dbl(r, 0, 4);
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
    long long n = 0;
    int s;

    int untimed = sort == DB_SORT_RUNTIME && isnan(k->runtime);
    /* the steps: 0 tie group, 1 rest, 2 the NULL groups past the cursor's
     * (all of them after a timed cursor ascending), 3 the NULL tie group,
     * 4 every timed run (descending, after the NULL groups) */
    int steps[3], nsteps = 0;

    if (sort == DB_SORT_ID)
        steps[nsteps++] = 0;
    else if (!untimed) {
        steps[nsteps++] = 0;
        steps[nsteps++] = 1;
        if (sort == DB_SORT_RUNTIME && !desc)
            steps[nsteps++] = 2;
    } else {
        steps[nsteps++] = 3;
        steps[nsteps++] = 2;
        if (desc)
            steps[nsteps++] = 4;
    }
    for (s = 0; s < nsteps && (want < 0 || n < want); s++) {
        char lim[24], key[40];
        const char *lp;
        PGresult *r;
        int i, st = steps[s];
        snprintf(lim, sizeof lim, "%lld", want - n);
        lp = want < 0 ? NULL : lim;
        if (sort == DB_SORT_RUNTIME)
            snprintf(key, sizeof key, "%.17g", k->runtime);
        else
            snprintf(key, sizeof key, "%lld", k->nprocs);
        if (st == 2)
            r = pg_params(d, page_null_rest_sql[desc], err, "iiitii", q->app_id,
                          q->exe_id, q->system_id, lp, untimed ? k->exe_id : LLONG_MIN,
                          untimed ? k->system_id : LLONG_MIN);
        else if (st == 3)
            r = pg_params(d, page_null_tie_sql[desc], err, "iiitiii", q->app_id,
                          q->exe_id, q->system_id, lp, k->exe_id, k->system_id, k->id);
        else if (st == 4)
            r = pg_params(d, page_from_sql[sort - 1][desc][1], err, "iiittii", q->app_id,
                          q->exe_id, q->system_id, lp, "Infinity", k->exe_id,
                          k->system_id);
        else if (sort == DB_SORT_ID)
            r = pg_params(d,
                          q->system_id != 0 ? page_from_id_system_sql[desc]
                                            : page_from_id_sql[desc],
                          err, "iiiti", q->app_id, q->exe_id, q->system_id, lp, k->id);
        else if (st == 0)
            r = pg_params(d, page_from_sql[sort - 1][desc][0], err, "iiittiii", q->app_id,
                          q->exe_id, q->system_id, lp, key, k->exe_id, k->system_id,
                          k->id);
        else
            r = pg_params(d, page_from_sql[sort - 1][desc][1], err, "iiittii", q->app_id,
                          q->exe_id, q->system_id, lp, key, k->exe_id, k->system_id);
        if (r == NULL)
            return -1;
        for (i = 0; i < PQntuples(r) && (want < 0 || n < want); i++) {
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

static const char SQL_PAGE_ROWS[] =
    "SELECT j.ord - 1, r.id, e.name, s.name, r.nprocs, r.runtime, r.started_at, "
    "r.created_at, (SELECT count(*) FROM kernels k WHERE k.run_id = r.id) "
    "FROM unnest($1::bigint[]) WITH ORDINALITY j(id, ord) JOIN runs r ON r.id = j.id "
    "JOIN executables e ON e.id = r.exe_id JOIN systems s ON s.id = r.system_id";
static const char SQL_PAGE_INPUTS[] =
    "SELECT j.ord - 1, i.name, i.value FROM unnest($1::bigint[]) WITH ORDINALITY "
    "j(id, ord) JOIN run_inputs i ON i.run_id = j.id ORDER BY j.ord, i.name";

/* Stores the page's inputs (rows grouped by page row, in name order). */
static int page_inputs(const PGresult *r, arena *a, struct db_page_row *out, int n,
                       struct err *err)
{
    int i = 0, rows = PQntuples(r);
    while (i < rows) {
        long long k = pg_ll(r, i, 0);
        int end = i, m;
        while (end < rows && pg_ll(r, end, 0) == k)
            end++;
        if (k >= 0 && k < n) {
            int cnt = end - i > DB_PAGE_MAX_INPUTS ? DB_PAGE_MAX_INPUTS : end - i;
            struct rec_kv *kv = arena_alloc(a, (size_t)cnt * sizeof *kv);
            if (kv == NULL)
                return err_nomem(err);
            for (m = 0; m < cnt; m++) {
                kv[m].name = dup(a, r, i + m, 1);
                kv[m].value = pg_dbl(r, i + m, 2);
            }
            out[k].inputs = kv;
            out[k].ninputs = (size_t)cnt;
        }
        i = end;
    }
    return 0;
}

int pg_runs_page(db *d, const struct db_page_query *q, arena *a,
                 struct db_page_row **rows, struct err *err)
{
    int sort = q->sort >= DB_SORT_ID && q->sort <= DB_SORT_RUNTIME ? (int)q->sort : 0;
    int limit = q->limit >= 1 && q->limit <= 1000 ? q->limit : 50, want = limit;
    long long offset = q->offset > 0 ? q->offset : 0;
    int flip = 0, i, n;
    struct db_page_row *out;
    long long *idv;
    struct buf ids;
    PGresult *r;

    *rows = NULL;
    /* A page past the middle is read backwards from the other end. */
    if (q->total > 0 && offset < q->total && offset + limit / 2 > q->total / 2) {
        flip = 1;
        offset = q->total - offset - limit;
        if (offset < 0) {
            want = limit + (int)offset;
            offset = 0;
        }
    }
    out = arena_alloc(a, (size_t)limit * sizeof *out);
    idv = arena_alloc(a, (size_t)limit * sizeof *idv);
    if (out == NULL || idv == NULL)
        return err_nomem(err);
    memset(out, 0, (size_t)limit * sizeof *out);
    if (q->after != 0 || q->before != 0) {
        /* A cursor: the page is read from its run's key, backwards for a
         * page before it (then reversed); no offset is walked. */
        struct page_key k;
        int found = page_key(d, q->after ? q->after : q->before, &k, err);
        if (found < 0)
            return -1;
        if (found) {
            long long *tmp = arena_alloc(a, (size_t)limit * sizeof *tmp);
            long long got;
            if (tmp == NULL)
                return err_nomem(err);
            flip = q->after == 0;
            got = keyset_ids(d, q, sort, (q->desc ? 1 : 0) ^ flip, &k, tmp, limit, err);
            if (got < 0)
                return -1;
            n = (int)got;
            for (i = 0; i < n; i++)
                idv[i] = tmp[flip ? n - 1 - i : i];
            goto have_ids;
        }
    }
    r = pg_params(d,
                  sort == DB_SORT_ID && q->system_id != 0
                      ? page_ids_system_sql[(q->desc ? 1 : 0) ^ flip]
                      : page_ids_sql[sort][(q->desc ? 1 : 0) ^ flip],
                  err, "iiiii", q->app_id, q->exe_id, q->system_id, (long long)want,
                  offset);
    if (r == NULL)
        return -1;
    n = PQntuples(r) < want ? PQntuples(r) : want;
    for (i = 0; i < n; i++)
        idv[flip ? n - 1 - i : i] = pg_ll(r, i, 0);
    PQclear(r);
have_ids:
    for (i = 0; i < n; i++)
        out[i].id = idv[i];
    if (n == 0) {
        *rows = out;
        return 0;
    }
    buf_init(&ids, 64 * 1024);
    pg_id_array(idv, (size_t)n, &ids);
    if (buf_failed(&ids)) {
        buf_free(&ids);
        return err_nomem(err);
    }
    r = pg_params(d, SQL_PAGE_ROWS, err, "t", buf_str(&ids));
    if (r == NULL)
        goto fail;
    for (i = 0; i < PQntuples(r); i++) {
        long long k = pg_ll(r, i, 0);
        struct db_page_row *p;
        if (k < 0 || k >= n)
            continue;
        p = &out[k];
        p->id = pg_ll(r, i, 1);
        p->executable = dup(a, r, i, 2);
        p->system = dup(a, r, i, 3);
        p->nprocs = pg_ll(r, i, 4);
        p->runtime = pg_opt_dbl(r, i, 5);
        p->started_at = dup(a, r, i, 6);
        p->created_at = dup(a, r, i, 7);
        p->nkernels = pg_ll(r, i, 8);
    }
    PQclear(r);
    r = pg_params(d, SQL_PAGE_INPUTS, err, "t", buf_str(&ids));
    if (r == NULL)
        goto fail;
    if (page_inputs(r, a, out, n, err) != 0) {
        PQclear(r);
        goto fail;
    }
    PQclear(r);
    buf_free(&ids);
    *rows = out;
    return n;
fail:
    buf_free(&ids);
    return -1;
}
