/* reads: the PostgreSQL entries of the fast read paths (issue 17) — the
 * fit's selection streamed as aggregates (db/select.h db_select_begin ..
 * db_fit_nth), the history series streamed (db/history.h
 * db_history_series_each) and the application page's keyset cursors
 * (db/summary.h db_runs_rank, and pg_page_keyset for db_runs_page). The same
 * answers, order and errors as db/sqlite/select.c, history.c and summary.c. */
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/xalloc.h"
#include "db/pg/entries.h"
#include "db/pg/pg.h"

/* Appends ids (every stride bytes from p) as an array literal "{3,17}". */
static void id_array(const void *p, size_t stride, size_t n, struct buf *out)
{
    size_t i;
    buf_putc(out, '{');
    for (i = 0; i < n; i++)
        buf_printf(out, "%s%lld", i ? "," : "",
                   *(const long long *)(const void *)((const char *)p + i * stride));
    buf_putc(out, '}');
}

/* ---- the fit's selection streamed as aggregates --------------------------- */

int pg_select_begin(db *d, struct err *err)
{
    if (PQtransactionStatus(pg_conn(d)) != PQTRANS_IDLE)
        return 1; /* already in one: its snapshot holds */
    /* one snapshot for every read until db_select_end, as SQLite's read
     * transaction gives */
    return pg_exec(d, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", err);
}

void pg_select_end(db *d)
{
    pg_rollback(d);
}

/* The configurations: $1 application, $2 system, $3 executable or NULL,
 * $4..$5 the nprocs bounds, $6 the exact inputs as a JSON object (matched
 * against the configuration's latest run, whose inputs are its own), $7 the
 * limit; one row per configuration and input of its latest run (a NULL name
 * for a configuration without inputs), by configuration id then name. A
 * given value that is not a number matches no input (as SQLite compares). */
static const char fit_configs_sql[] =
    "WITH c AS (SELECT c.id, c.nprocs, c.last_run_id, c.runs, c.sum_runtime, "
    "c.min_runtime, c.max_runtime FROM applications a JOIN run_configs c ON c.app_id "
    "= a.id WHERE a.name = $1::text AND c.system_id = (SELECT s.id FROM systems s "
    "WHERE s.name = $2::text) AND ($3::text IS NULL OR c.exe_id = (SELECT e.id FROM "
    "executables e WHERE e.app_id = a.id AND e.name = $3::text)) AND c.nprocs BETWEEN "
    "$4::float8 AND $5::float8 AND NOT EXISTS (SELECT 1 FROM jsonb_each($6::jsonb) f "
    "WHERE NOT EXISTS (SELECT 1 FROM run_inputs i WHERE i.run_id = c.last_run_id AND "
    "i.name = f.key AND i.value = CASE WHEN jsonb_typeof(f.value) = 'number' THEN "
    "(f.value #>> '{}')::float8 END)) ORDER BY c.id LIMIT $7::bigint) "
    "SELECT c.id, c.nprocs, i.name, i.value, c.runs, c.sum_runtime, c.min_runtime, "
    "c.max_runtime FROM c LEFT JOIN run_inputs i ON i.run_id = c.last_run_id ORDER BY "
    "c.id, i.name COLLATE \"C\"";

int pg_select_fit_configs(db *d, const struct db_sel_fit *q, struct db_fit_configs *out,
                          struct err *err)
{
    json_t *empty = q->inputs ? NULL : json_object();
    char *inputs =
        json_dumps(q->inputs ? q->inputs : empty, JSON_COMPACT | JSON_REAL_PRECISION(17));
    PGresult *r;
    size_t cap = 0;
    int i, rows;

    out->c = NULL;
    out->n = 0;
    json_decref(empty);
    if (inputs == NULL)
        return err_nomem(err);
    r = pg_params(d, fit_configs_sql, err, "tttddti", q->application, q->system,
                  q->executable, q->np_lo, q->np_hi, inputs, (long long)q->limit + 1);
    free(inputs);
    if (r == NULL)
        return -1;
    rows = PQntuples(r);
    for (i = 0; i < rows; i++) {
        long long id = pg_ll(r, i, 0);
        struct db_fit_config *c;
        if (out->n == 0 || out->c[out->n - 1].id != id) {
            if (out->n == cap) {
                size_t ncap = cap ? cap * 2 : 16;
                struct db_fit_config *p = xrealloc(out->c, ncap * sizeof *p);
                if (p == NULL)
                    break;
                out->c = p;
                cap = ncap;
            }
            c = &out->c[out->n++];
            c->id = id;
            c->nprocs = pg_dbl(r, i, 1);
            c->runs = (size_t)pg_ll(r, i, 4);
            c->sum_runtime = pg_dbl(r, i, 5);
            c->min_runtime = pg_dbl(r, i, 6);
            c->max_runtime = pg_dbl(r, i, 7);
            if ((c->inputs = json_object()) == NULL) {
                out->n--;
                break;
            }
        }
        c = &out->c[out->n - 1];
        if (!pg_null(r, i, 2) && json_object_set_new(c->inputs, pg_text(r, i, 2),
                                                     json_real(pg_dbl(r, i, 3))) != 0)
            break;
    }
    PQclear(r);
    if (i < rows) {
        db_fit_configs_free(out);
        return err_nomem(err);
    }
    return 0;
}

/* The runs of the configurations $1 (an array of ids) as rows (cid, y), y by
 * kind: the runtime; the metric $2; the summed time of kernel $2;
 * $3 / runtime / (nprocs when $4, else 1). Each kind's statement names all
 * four parameters so that one binding serves them all. A zero runtime
 * scales to NULL (SQLite's division by zero) instead of failing. */
#define FIT_V(y)                                                                         \
    "(SELECT c.id AS cid, " y " AS y FROM run_configs c JOIN runs r ON r.config_id = "   \
    "c.id WHERE c.id = ANY($1::bigint[]) AND ($2::text IS NULL OR $2::text IS NOT "      \
    "NULL) "                                                                             \
    "AND $3::float8 IS NOT NULL AND $4::int IS NOT NULL) v"
#define FIT_V_RUNTIME FIT_V("r.runtime")
#define FIT_V_METRIC                                                                     \
    FIT_V("(SELECT m.value FROM run_metrics m WHERE m.run_id = r.id AND m.name = "       \
          "$2::text)")
#define FIT_V_KERNEL                                                                     \
    FIT_V("(SELECT sum(k.time) FROM kernels k WHERE k.run_id = r.id AND k.name = "       \
          "$2::text)")
#define FIT_V_SCALED                                                                     \
    FIT_V("$3::float8 / nullif(r.runtime, 0) / (CASE WHEN $4::int <> 0 THEN "            \
          "c.nprocs::float8 ELSE 1::float8 END)")
#define FIT_KINDS(pass)                                                                  \
    {                                                                                    \
        pass(FIT_V_RUNTIME), pass(FIT_V_METRIC), pass(FIT_V_KERNEL), pass(FIT_V_SCALED)  \
    }

/* Per configuration: count, sum, minimum, maximum. */
#define FIT_SUMS(v) "SELECT cid, count(y), sum(y), min(y), max(y) FROM " v " GROUP BY cid"
/* Over all: the sums of squares about $5 and $6. */
#define FIT_SPREAD(v)                                                                    \
    "SELECT sum((y - $5::float8) * (y - $5::float8)), sum((y - $6::float8) * (y - "      \
    "$6::float8)) FROM " v
/* Over all: $5 values from the $6-th smallest. */
#define FIT_NTH(v)                                                                       \
    "SELECT y FROM " v " WHERE y IS NOT NULL ORDER BY y LIMIT $5::bigint OFFSET "        \
    "$6::bigint"

static const char *const fit_sums_sql[] = FIT_KINDS(FIT_SUMS);
static const char *const fit_spread_sql[] = FIT_KINDS(FIT_SPREAD);
static const char *const fit_nth_sql[] = FIT_KINDS(FIT_NTH);

/* Runs y's kind of one of the passes (sql, by kind) over the configurations
 * (n ids, every stride bytes from ids), with more parameters (fmt: 'd' or
 * 'i', up to two) after the four of y. */
static PGresult *fit_query(db *d, const char *const *sql, const struct db_fit_y *y,
                           const void *ids, size_t stride, size_t n, struct err *err,
                           const char *more, double d5, double d6, long long i5,
                           long long i6)
{
    const char *name = y->y == DB_SEL_RUNTIME ? NULL : y->name;
    long long per_proc = y->per_proc != 0;
    struct buf b;
    PGresult *r = NULL;
    int kind;

    if ((unsigned)y->y > DB_SEL_KERNEL) {
        err_set(err, 500, "internal", NULL, "unknown kind of y");
        return NULL;
    }
    kind = y->y == DB_SEL_RUNTIME ? (y->scaled ? 3 : 0) : y->y == DB_SEL_METRIC ? 1 : 2;
    buf_init(&b, 32 * n + 16);
    id_array(ids, stride, n, &b);
    if (buf_failed(&b)) {
        buf_free(&b);
        err_nomem(err);
        return NULL;
    }
    if (more[0] == '\0')
        r = pg_params(d, sql[kind], err, "ttdi", buf_str(&b), name, y->scale, per_proc);
    else if (more[0] == 'd')
        r = pg_params(d, sql[kind], err, "ttdidd", buf_str(&b), name, y->scale, per_proc,
                      d5, d6);
    else
        r = pg_params(d, sql[kind], err, "ttdiii", buf_str(&b), name, y->scale, per_proc,
                      i5, i6);
    buf_free(&b);
    return r;
}

int pg_fit_sums(db *d, const struct db_fit_y *y, struct db_fit_sum *sums, size_t n,
                struct err *err)
{
    PGresult *r;
    size_t i, k = 0;
    int row;

    for (i = 0; i < n; i++) {
        sums[i].n = 0;
        sums[i].sum = sums[i].min = sums[i].max = 0;
    }
    if (n == 0)
        return 0;
    r = fit_query(d, fit_sums_sql, y, &sums[0].config, sizeof *sums, n, err, "", 0, 0, 0,
                  0);
    if (r == NULL)
        return -1;
    for (row = 0; row < PQntuples(r); row++) {
        long long id = pg_ll(r, row, 0);
        size_t t;
        for (t = 0; t < n && sums[(k + t) % n].config != id; t++)
            ;
        if (t == n)
            continue;
        k = (k + t) % n;
        sums[k].n = (size_t)pg_ll(r, row, 1);
        sums[k].sum = pg_dbl(r, row, 2);
        sums[k].min = pg_dbl(r, row, 3);
        sums[k].max = pg_dbl(r, row, 4);
    }
    PQclear(r);
    return 0;
}

int pg_fit_spread(db *d, const struct db_fit_y *y, const long long *configs,
                  size_t nconfig, double mean, double center, double *ss_mean,
                  double *ss_center, struct err *err)
{
    PGresult *r = fit_query(d, fit_spread_sql, y, configs, sizeof *configs, nconfig, err,
                            "d", mean, center, 0, 0);

    *ss_mean = *ss_center = 0;
    if (r == NULL)
        return -1;
    if (PQntuples(r) > 0) {
        *ss_mean = pg_dbl(r, 0, 0);
        *ss_center = pg_dbl(r, 0, 1);
    }
    PQclear(r);
    return 0;
}

int pg_fit_nth(db *d, const struct db_fit_y *y, const long long *configs, size_t nconfig,
               size_t k, int two, double *v, struct err *err)
{
    int want = two ? 2 : 1, got, i;
    PGresult *r = fit_query(d, fit_nth_sql, y, configs, sizeof *configs, nconfig, err,
                            "i", 0, 0, want, (long long)k);

    if (r == NULL)
        return -1;
    got = PQntuples(r) < want ? PQntuples(r) : want;
    for (i = 0; i < got; i++)
        v[i] = pg_dbl(r, i, 0);
    PQclear(r);
    if (got < want)
        return err_set(err, 422, "degenerate", NULL,
                       "the runs changed while the fit read them; fit again");
    return 0;
}

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
