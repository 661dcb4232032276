/* summary: configuration summaries and the dashboard's reads; see summary.h.
 *
 * Every statement here is bounded by the number of configurations or by one
 * page of runs; none reads all runs of an application.
 */
#include "db/summary.h"
#include "db/sqlite/entries.h"
#include "db/query.h"
#include "db/sqlite/sql.h"
#include "common/buf.h"
#include "db/catalog.h"
#include "formats/limits.h"

#include <sqlite3.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* The inputs key (?2) is db_inputs_key's text, which is what the
 * migration's backfill wrote with json_group_object (db/codec.c). */
static const char SQL_CONFIG_ADD[] =
    "INSERT INTO run_configs (app_id, exe_id, system_id, nprocs, inputs, runs, "
    "sum_runtime, min_runtime, max_runtime, last_run_id, timed) "
    "SELECT r.app_id, r.exe_id, r.system_id, r.nprocs, ?2, "
    "1, coalesce(r.runtime, 0), r.runtime, r.runtime, r.id, r.runtime IS NOT NULL "
    "FROM runs r WHERE r.id = ?1 "
    "ON CONFLICT (app_id, exe_id, system_id, nprocs, inputs) DO UPDATE SET "
    "runs = runs + 1, timed = timed + excluded.timed, "
    "sum_runtime = sum_runtime + excluded.sum_runtime, "
    "min_runtime = coalesce(min(min_runtime, excluded.min_runtime), min_runtime, "
    "excluded.min_runtime), "
    "max_runtime = coalesce(max(max_runtime, excluded.max_runtime), max_runtime, "
    "excluded.max_runtime), "
    "last_run_id = max(last_run_id, excluded.last_run_id) RETURNING id";
/* The run's configuration, for the series index (migration 3), and the
 * packed series chunks it makes stale (migration 10: those that end at or
 * after it in time order; none when it is the newest). Here rather than in
 * a trigger: a trigger on runs' inserts or on config_id cost every stored
 * run about 10 µs (bench_history's fill of 200,000 runs, 5.4 -> 7.5 s). */
static const char SQL_RUN_CONFIG[] =
    "UPDATE runs SET config_id = ?2 WHERE id = ?1 RETURNING at_ms";
static const char SQL_CHUNKS_STALE[] = "DELETE FROM series_chunks WHERE config_id = ?1 "
                                       "AND (last_at, last_id) >= (?2, ?3)";

/* Steps st (NULL: preparing it failed, err set), a bound write that returns
 * exactly one row, into that row's integer; resets st. 0 or -1. */
static int returning(db *d, sqlite3_stmt *st, long long *out, struct err *err)
{
    int rc;
    if (st == NULL)
        return -1;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int64(st, 0);
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW)
            rc = SQLITE_ERROR; /* more than one */
    } else if (rc == SQLITE_DONE) {
        rc = SQLITE_ERROR; /* none */
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : db_fail(d, err);
}

int sq_summary_add_run_inputs(db *d, long long run_id, struct rec_kv *inputs, size_t n,
                              struct err *err)
{
    sqlite3_stmt *st;
    long long config_id = 0, at_ms = 0;
    struct buf key;
    int rc;

    buf_init(&key, 64 * 1024);
    db_inputs_key(inputs, n, &key);
    if (buf_failed(&key)) {
        buf_free(&key);
        return err_nomem(err);
    }
    if ((st = db_stmt(d, SQL_CONFIG_ADD, err)) != NULL) {
        sqlite3_bind_int64(st, 1, run_id);
        sqlite3_bind_text(st, 2, buf_str(&key), (int)key.len, SQLITE_STATIC);
    }
    rc = returning(d, st, &config_id, err);
    buf_free(&key);
    if (rc != 0)
        return -1;
    if ((st = db_stmt(d, SQL_RUN_CONFIG, err)) != NULL) {
        sqlite3_bind_int64(st, 1, run_id);
        sqlite3_bind_int64(st, 2, config_id);
    }
    if (returning(d, st, &at_ms, err) != 0 ||
        dq_run(d, SQL_CHUNKS_STALE, err, "iii", config_id, at_ms, run_id) < 0)
        return -1;
    return 0;
}

static const char *col_text(arena *a, sqlite3_stmt *st, int i)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    return t ? arena_strndup(a, (const char *)t, (size_t)sqlite3_column_bytes(st, i))
             : NULL;
}

int sq_summary_add_run(db *d, long long run_id, struct err *err)
{
    struct rec_kv kv[LIMIT_INPUTS];
    sqlite3_stmt *st =
        db_stmt(d, "SELECT name, value FROM run_inputs WHERE run_id = ?1", err);
    arena *a;
    size_t n = 0;
    int rc;

    if (st == NULL)
        return -1;
    if ((a = arena_new()) == NULL)
        return err_nomem(err);
    sqlite3_bind_int64(st, 1, run_id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < LIMIT_INPUTS) {
        kv[n].name = col_text(a, st, 0);
        kv[n++].value = sqlite3_column_double(st, 1);
    }
    sqlite3_reset(st);
    rc = rc == SQLITE_ROW
             ? err_set(err, 500, "internal", NULL, "run %lld has too many inputs", run_id)
         : rc != SQLITE_DONE ? db_fail(d, err)
                             : sq_summary_add_run_inputs(d, run_id, kv, n, err);
    arena_free(a);
    return rc;
}

/* ---- one page of runs ---------------------------------------------------- */

/* The id scans, one constant per order (the statement cache is keyed by the
 * address). The runtime and nprocs orders follow their covering index
 * (app_id, key, exe_id, system_id, rowid) exactly, ties broken by
 * executable, system, then id, so a deep page skips index entries without
 * sorting and the filters are read from the index; the filters
 * short-circuit when 0. */
#define PAGE_IDS(order)                                                                  \
    "SELECT id FROM runs WHERE app_id = ?1 AND (?2 = 0 OR exe_id = ?2) AND "             \
    "(?3 = 0 OR system_id = ?3) ORDER BY " order " LIMIT ?4 OFFSET ?5"
/* In id order with a system: equalities on runs_by_system_app (system_id,
 * app_id, rowid), which is then in id order and covering. */
#define PAGE_IDS_SYSTEM(order)                                                           \
    "SELECT id FROM runs WHERE system_id = ?3 AND app_id = ?1 AND (?2 = 0 OR exe_id = "  \
    "?2) ORDER BY " order " LIMIT ?4 OFFSET ?5"
/* Without an executable or system filter (the common page), the same walk
 * without the two short-circuit tests, which SQLite evaluates on every
 * skipped entry: an old ?page=N link to the middle of 1,000,000 runs walks
 * 500,000 entries in about half the time. */
#define PAGE_IDS_ALL(order)                                                              \
    "SELECT id FROM runs WHERE app_id = ?1 ORDER BY " order " LIMIT ?4 OFFSET ?5"
/* The three orders (id, nprocs, runtime), each ascending and descending, of
 * one of the page statements above. */
#define PAGE_ORDERS(ids)                                                                 \
    {                                                                                    \
        {ids("id"), ids("id DESC")},                                                     \
            {ids("nprocs, exe_id, system_id, id"),                                       \
             ids("nprocs DESC, exe_id DESC, system_id DESC, id DESC")},                  \
            {ids("runtime, exe_id, system_id, id"),                                      \
             ids("runtime DESC, exe_id DESC, system_id DESC, id DESC")},                 \
    }
static const char *const page_ids_all_sql[3][2] = PAGE_ORDERS(PAGE_IDS_ALL);
static const char *const page_ids_system_sql[2] = {PAGE_IDS_SYSTEM("id"),
                                                   PAGE_IDS_SYSTEM("id DESC")};
static const char *const page_ids_sql[3][2] = PAGE_ORDERS(PAGE_IDS);

/* Keyset pages: the ids that follow a cursor run's key in one direction
 * (?4 rows; -1 = all). In id order that is one rowid range. In a key order
 * it is first the rest of the cursor's tie group (same key, executable and
 * system: an equality range of the covering index, in id order), then the
 * groups past it (a vector range of the same index), so neither walks the
 * entries before the cursor nor a whole group of ties. */
#define PAGE_FILTER                                                                      \
    "app_id = ?1 AND (?2 = 0 OR exe_id = ?2) AND (?3 = 0 OR system_id = ?3)"
#define PAGE_FROM_ID(cmp, dir)                                                           \
    "SELECT id FROM runs WHERE " PAGE_FILTER " AND id " cmp " ?9 ORDER BY id" dir        \
    " LIMIT ?4"
#define PAGE_FROM_ID_SYSTEM(cmp, dir)                                                    \
    "SELECT id FROM runs WHERE system_id = ?3 AND app_id = ?1 AND (?2 = 0 OR exe_id = "  \
    "?2) AND id " cmp " ?9 ORDER BY id" dir " LIMIT ?4"
#define PAGE_FROM_TIE(key, cmp, dir)                                                     \
    "SELECT id FROM runs WHERE " PAGE_FILTER " AND " key " IS ?6 AND exe_id = ?7 AND "   \
    "system_id = ?8 AND id " cmp " ?9 ORDER BY id" dir " LIMIT ?4"
#define PAGE_FROM_REST(key, cmp, dir)                                                    \
    "SELECT id FROM runs WHERE " PAGE_FILTER " AND (" key ", exe_id, system_id) " cmp    \
    " (?6, ?7, ?8) ORDER BY " key dir ", exe_id" dir ", system_id" dir ", id" dir        \
    " LIMIT ?4"
/* Runs without a runtime (SPEC §16) sort first ascending and last
 * descending, as SQLite orders NULL: their group past (?7, ?8). */
#define PAGE_NULL_REST(cmp, dir)                                                         \
    "SELECT id FROM runs WHERE " PAGE_FILTER " AND runtime IS NULL AND (exe_id, "        \
    "system_id) " cmp " (?7, ?8) ORDER BY exe_id" dir ", system_id" dir ", id" dir       \
    " LIMIT ?4"
static const char *const page_null_rest_sql[2] = {PAGE_NULL_REST(">", ""),
                                                  PAGE_NULL_REST("<", " DESC")};
static const char *const page_from_id_sql[2] = {PAGE_FROM_ID(">", ""),
                                                PAGE_FROM_ID("<", " DESC")};
static const char *const page_from_id_system_sql[2] = {PAGE_FROM_ID_SYSTEM(">", ""),
                                                       PAGE_FROM_ID_SYSTEM("<", " DESC")};
static const char *const page_from_sql[2][2][2] = {
    /* [sort - 1][descending][tie group, rest] */
    {{PAGE_FROM_TIE("nprocs", ">", ""), PAGE_FROM_REST("nprocs", ">", "")},
     {PAGE_FROM_TIE("nprocs", "<", " DESC"), PAGE_FROM_REST("nprocs", "<", " DESC")}},
    {{PAGE_FROM_TIE("runtime", ">", ""), PAGE_FROM_REST("runtime", ">", "")},
     {PAGE_FROM_TIE("runtime", "<", " DESC"), PAGE_FROM_REST("runtime", "<", " DESC")}},
};

/* A cursor run's place in every order. */
struct page_key {
    long long id, app_id, exe_id, system_id, nprocs;
    double runtime;
};

/* Reads run id's key into *k: 1, 0 when the run is not stored, or -1. */
static int page_key(db *d, long long id, struct page_key *k, struct err *err)
{
    sqlite3_stmt *st = db_stmt(
        d, "SELECT app_id, exe_id, system_id, nprocs, runtime FROM runs WHERE id = ?1",
        err);
    int rc;
    if (st == NULL)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        k->id = id;
        k->app_id = sqlite3_column_int64(st, 0);
        k->exe_id = sqlite3_column_int64(st, 1);
        k->system_id = sqlite3_column_int64(st, 2);
        k->nprocs = sqlite3_column_int64(st, 3);
        k->runtime = sqlite3_column_type(st, 4) == SQLITE_NULL
                         ? NAN
                         : sqlite3_column_double(st, 4);
    }
    sqlite3_reset(st);
    if (rc == SQLITE_ROW)
        return 1;
    return rc == SQLITE_DONE ? 0 : db_fail(d, err);
}

/* The ids of q's filters that follow key k in q's sort, ascending or
 * descending (desc), at most want of them (want < 0: all) into ids (NULL:
 * only count them). Returns their number, or -1 with err set. */
static long long keyset_ids(db *d, const struct db_page_query *q, int sort, int desc,
                            const struct page_key *k, long long *ids, long long want,
                            struct err *err)
{
    /* up to three statements; key: the cursor's own, or -1 (every run
     * with a runtime, which is >= 0); past: the (executable, system) the
     * NULL group continues after (the cursor's, or beyond every one) */
    struct {
        const char *sql;
        int all_timed, beyond;
    } step[3] = {{NULL, 0, 0}, {NULL, 0, 0}, {NULL, 0, 0}};
    int untimed = sort == DB_SORT_RUNTIME && isnan(k->runtime);
    long long n = 0;
    int s;

    if (sort == DB_SORT_ID)
        step[0].sql =
            q->system_id != 0 ? page_from_id_system_sql[desc] : page_from_id_sql[desc];
    else if (!untimed) {
        step[0].sql = page_from_sql[sort - 1][desc][0];
        step[1].sql = page_from_sql[sort - 1][desc][1];
        if (sort == DB_SORT_RUNTIME && desc) /* then the runs without one */
            step[2].sql = page_null_rest_sql[1], step[2].beyond = 1;
    } else {
        step[0].sql = page_from_sql[sort - 1][desc][0];
        step[1].sql = page_null_rest_sql[desc];
        if (!desc) /* then every run with a runtime */
            step[2].sql = page_from_sql[sort - 1][0][1], step[2].all_timed = 1;
    }
    for (s = 0; s < 3 && step[s].sql != NULL && (want < 0 || n < want); s++) {
        sqlite3_stmt *st = db_stmt(d, step[s].sql, err);
        int rc = SQLITE_DONE;
        if (st == NULL)
            return -1;
        sqlite3_bind_int64(st, 1, q->app_id);
        sqlite3_bind_int64(st, 2, q->exe_id);
        sqlite3_bind_int64(st, 3, q->system_id);
        sqlite3_bind_int64(st, 4, want < 0 ? -1 : want - n);
        if (sort == DB_SORT_RUNTIME && step[s].all_timed)
            sqlite3_bind_double(st, 6, -1);
        else if (sort == DB_SORT_RUNTIME && untimed)
            sqlite3_bind_null(st, 6);
        else if (sort == DB_SORT_RUNTIME)
            sqlite3_bind_double(st, 6, k->runtime);
        else
            sqlite3_bind_int64(st, 6, k->nprocs);
        sqlite3_bind_int64(st, 7, step[s].beyond ? INT64_MAX : k->exe_id);
        sqlite3_bind_int64(st, 8, step[s].beyond ? INT64_MAX : k->system_id);
        sqlite3_bind_int64(st, 9, k->id);
        while ((want < 0 || n < want) && (rc = sqlite3_step(st)) == SQLITE_ROW) {
            if (ids != NULL)
                ids[n] = sqlite3_column_int64(st, 0);
            n++;
        }
        sqlite3_reset(st);
        if (rc != SQLITE_DONE && rc != SQLITE_ROW)
            return db_fail(d, err);
    }
    return n;
}

long long sq_runs_rank(db *d, const struct db_page_query *q, struct err *err)
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
    "SELECT j.key, r.id, e.name, s.name, r.nprocs, r.runtime, r.started_at, "
    "r.created_at, (SELECT count(*) FROM kernels k WHERE k.run_id = r.id) "
    "FROM json_each(?1) j JOIN runs r ON r.id = j.value JOIN executables e ON "
    "e.id = r.exe_id JOIN systems s ON s.id = r.system_id";
static const char SQL_PAGE_INPUTS[] =
    "SELECT j.key, i.name, i.value FROM json_each(?1) j JOIN run_inputs i ON "
    "i.run_id = j.value ORDER BY j.key, i.name";

int sq_runs_page(db *d, const struct db_page_query *q, arena *a,
                 struct db_page_row **rows, struct err *err)
{
    int sort = q->sort >= DB_SORT_ID && q->sort <= DB_SORT_RUNTIME ? (int)q->sort : 0;
    int limit = q->limit >= 1 && q->limit <= 1000 ? q->limit : 50, want = limit;
    long long offset = q->offset > 0 ? q->offset : 0;
    int flip = 0, i;
    sqlite3_stmt *st;
    struct db_page_row *out;
    struct buf ids;
    int n = 0, rc = SQLITE_DONE;

    *rows = NULL;
    out = arena_alloc(a, (size_t)limit * sizeof *out);
    if (out == NULL)
        return err_nomem(err);
    if (q->after != 0 || q->before != 0) {
        /* A cursor: the page is read from its run's key, backwards for a
         * page before it (then reversed); no offset is walked. */
        struct page_key k;
        long long *tmp = arena_alloc(a, (size_t)limit * sizeof *tmp);
        int found = tmp ? page_key(d, q->after ? q->after : q->before, &k, err) : -1;
        long long got;
        if (tmp == NULL)
            return err_nomem(err);
        if (found < 0)
            return -1;
        if (found) {
            flip = q->after == 0;
            got = keyset_ids(d, q, sort, (q->desc ? 1 : 0) ^ flip, &k, tmp, limit, err);
            if (got < 0)
                return -1;
            n = (int)got;
            for (i = 0; i < n; i++)
                out[i].id = tmp[flip ? n - 1 - i : i];
            goto have_ids;
        }
    }
    /* Each order is total (ties end on id), so a page past the middle is the
     * same rows read backwards from the other end: the walk over skipped
     * index entries is never longer than half the runs. */
    if (q->total > 0 && offset < q->total && offset + limit / 2 > q->total / 2) {
        flip = 1;
        offset = q->total - offset - limit;
        if (offset < 0) {
            want = limit + (int)offset;
            offset = 0;
        }
    }
    st = db_stmt(d,
                 sort == DB_SORT_ID && q->system_id != 0
                     ? page_ids_system_sql[(q->desc ? 1 : 0) ^ flip]
                 : q->exe_id == 0 && q->system_id == 0
                     ? page_ids_all_sql[sort][(q->desc ? 1 : 0) ^ flip]
                     : page_ids_sql[sort][(q->desc ? 1 : 0) ^ flip],
                 err);
    if (st == NULL)
        return -1;
    sqlite3_bind_int64(st, 1, q->app_id);
    sqlite3_bind_int64(st, 2, q->exe_id);
    sqlite3_bind_int64(st, 3, q->system_id);
    sqlite3_bind_int(st, 4, want);
    sqlite3_bind_int64(st, 5, offset);
    while (n < want && (rc = sqlite3_step(st)) == SQLITE_ROW)
        out[n++].id = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    if (n < want && rc != SQLITE_DONE)
        return db_fail(d, err);
    for (i = 0; flip && i < n / 2; i++) {
        long long t = out[i].id;
        out[i].id = out[n - 1 - i].id;
        out[n - 1 - i].id = t;
    }
have_ids:
    buf_init(&ids, 64 * 1024);
    buf_putc(&ids, '[');
    for (i = 0; i < n; i++)
        buf_printf(&ids, "%s%lld", i ? "," : "", out[i].id);
    buf_putc(&ids, ']');
    if (buf_failed(&ids)) {
        buf_free(&ids);
        return err_nomem(err);
    }
    if (n == 0) {
        buf_free(&ids);
        *rows = out;
        return 0;
    }

    st = db_stmt(d, SQL_PAGE_ROWS, err);
    if (st == NULL)
        goto fail;
    sqlite3_bind_text(st, 1, buf_str(&ids), (int)ids.len, SQLITE_STATIC);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        long long k = sqlite3_column_int64(st, 0);
        struct db_page_row *r;
        if (k < 0 || k >= n)
            continue;
        r = &out[k];
        r->id = sqlite3_column_int64(st, 1);
        r->executable = col_text(a, st, 2);
        r->system = col_text(a, st, 3);
        r->nprocs = sqlite3_column_int64(st, 4);
        r->runtime = sqlite3_column_type(st, 5) == SQLITE_NULL
                         ? NAN
                         : sqlite3_column_double(st, 5);
        r->started_at = col_text(a, st, 6);
        r->created_at = col_text(a, st, 7);
        r->nkernels = sqlite3_column_int64(st, 8);
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
        db_fail(d, err);
        goto fail;
    }

    st = db_stmt(d, SQL_PAGE_INPUTS, err);
    if (st == NULL)
        goto fail;
    sqlite3_bind_text(st, 1, buf_str(&ids), (int)ids.len, SQLITE_STATIC);
    {
        /* Inputs arrive grouped by row; each row's are copied once complete. */
        struct rec_kv tmp[DB_PAGE_MAX_INPUTS];
        long long cur = -1;
        size_t nt = 0;
        for (;;) {
            long long k = -2;
            rc = sqlite3_step(st);
            if (rc == SQLITE_ROW)
                k = sqlite3_column_int64(st, 0);
            if (k != cur && cur >= 0 && cur < n && nt > 0) {
                out[cur].inputs = arena_alloc(a, nt * sizeof *out[cur].inputs);
                if (out[cur].inputs == NULL) {
                    sqlite3_reset(st);
                    err_nomem(err);
                    goto fail;
                }
                memcpy(out[cur].inputs, tmp, nt * sizeof *tmp);
                out[cur].ninputs = nt;
            }
            if (rc != SQLITE_ROW)
                break;
            if (k != cur) {
                cur = k;
                nt = 0;
            }
            if (nt < DB_PAGE_MAX_INPUTS) {
                tmp[nt].name = col_text(a, st, 1);
                tmp[nt].value = sqlite3_column_double(st, 2);
                nt++;
            }
        }
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
        db_fail(d, err);
        goto fail;
    }
    buf_free(&ids);
    *rows = out;
    return n;
fail:
    buf_free(&ids);
    return -1;
}
