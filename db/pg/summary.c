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

int pg_summary_add_run_inputs(db *d, long long run_id, const struct rec_kv *inputs,
                              size_t n, struct err *err)
{
    struct buf text;
    long long config_id;
    int rc;

    buf_init(&text, DB_CONFIG_KEY_MAX);
    if (db_config_key(inputs, n, &text, err) != 0) {
        buf_free(&text);
        return -1;
    }
    rc = pg_scalar(d, &config_id, SQL_CONFIG_ADD, err, "it", run_id, buf_str(&text));
    buf_free(&text);
    if (rc <= 0)
        return rc < 0 ? -1
                      : err_set(err, ERR_NOT_FOUND, "not_found", NULL,
                                "run %lld not found", run_id);
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
        return err_set(err, ERR_INTERNAL, "internal", NULL,
                       "run %lld has too many inputs", run_id);
    }
    for (i = 0; i < n; i++) {
        kv[i].name = pg_text(r, i, 0);
        kv[i].value = pg_dbl(r, i, 1);
    }
    rc = pg_summary_add_run_inputs(d, run_id, kv, (size_t)n, err);
    PQclear(r);
    return rc;
}
