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
/* The run's configuration, for the series index (migration 3), when the run
 * was not inserted with it (the configuration's first run; a run added
 * again), and the
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

int sq_summary_add_run_key(db *d, long long run_id, const char *key,
                           long long stored_config, long long at_ms, struct err *err)
{
    sqlite3_stmt *st;
    long long config_id = 0;

    if ((st = db_stmt(d, SQL_CONFIG_ADD, err)) != NULL) {
        sqlite3_bind_int64(st, 1, run_id);
        sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
    }
    if (returning(d, st, &config_id, err) != 0)
        return -1;
    if (config_id != stored_config) {
        if ((st = db_stmt(d, SQL_RUN_CONFIG, err)) != NULL) {
            sqlite3_bind_int64(st, 1, run_id);
            sqlite3_bind_int64(st, 2, config_id);
        }
        if (returning(d, st, &at_ms, err) != 0)
            return -1;
    }
    return dq_run(d, SQL_CHUNKS_STALE, err, "iii", config_id, at_ms, run_id) < 0 ? -1 : 0;
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
    if (rc == SQLITE_ROW) {
        rc = err_set(err, ERR_INTERNAL, "internal", NULL, "run %lld has too many inputs",
                     run_id);
    } else if (rc != SQLITE_DONE) {
        rc = db_fail(d, err);
    } else {
        struct buf key;
        buf_init(&key, DB_CONFIG_KEY_MAX);
        rc = db_config_key(kv, n, &key, err) != 0
                 ? -1
                 : sq_summary_add_run_key(d, run_id, buf_str(&key), 0, 0, err);
        buf_free(&key);
    }
    arena_free(a);
    return rc;
}
