/* summary: configuration summaries and the dashboard's reads (db/summary.h),
 * written once for every engine on db/query.h, except what each engine
 * keeps its own way (adding a run, one page of runs: db/backend.h).
 *
 * Every statement here is bounded by the number of configurations or by one
 * page of runs; none reads all runs of an application. Sums over bigint
 * columns are numeric on PostgreSQL and come back as integers when whole.
 */
#include "db/summary.h"
#include "db/query.h"

static const char *col_text(db *d, struct db_stmt *st, int i, arena *a)
{
    size_t n = 0;
    const char *t = dq_blob(d, st, i, &n);
    return t ? arena_strndup(a, t, n) : NULL;
}

int db_summary_add_run(db *d, long long run_id, struct err *err)
{
    return d->be->summary_add_run(d, run_id, err);
}

int db_runs_page(db *d, const struct db_page_query *q, arena *a,
                 struct db_page_row **rows, struct err *err)
{
    return d->be->runs_page(d, q, a, rows, err);
}

long long db_runs_rank(db *d, const struct db_page_query *q, struct err *err)
{
    return d->be->runs_rank(d, q, err);
}

static const char SQL_CONFIGS[] =
    "SELECT c.exe_id, e.name, c.system_id, s.name, c.nprocs, c.inputs, c.runs, "
    "c.last_run_id, c.sum_runtime, c.min_runtime, c.max_runtime, c.timed FROM "
    "run_configs c "
    "JOIN executables e ON e.id = c.exe_id JOIN systems s ON s.id = c.system_id "
    "WHERE c.app_id = ?1 AND (?2 = 0 OR c.exe_id = ?2) AND (?3 = 0 OR c.system_id = ?3) "
    "ORDER BY c.exe_id, c.system_id, c.inputs, c.nprocs LIMIT ?4";

int db_summary_configs(db *d, long long app_id, long long exe_id, long long system_id,
                       int limit, arena *a, struct db_config **out, struct err *err)
{
    struct db_stmt *st;
    struct db_config *c;
    int n = 0, rc = 0;

    *out = NULL;
    if (limit < 1)
        limit = 1;
    c = arena_alloc(a, (size_t)limit * sizeof *c);
    if (c == NULL)
        return err_nomem(err);
    st = dq_prepare(d, SQL_CONFIGS, err, "iiii", app_id, exe_id, system_id,
                    (long long)limit);
    if (st == NULL)
        return -1;
    while (n < limit && (rc = dq_step(d, st, err)) == 1) {
        struct db_config *x = &c[n++];
        x->exe_id = dq_ll(d, st, 0);
        x->executable = col_text(d, st, 1, a);
        x->system_id = dq_ll(d, st, 2);
        x->system = col_text(d, st, 3, a);
        x->nprocs = dq_ll(d, st, 4);
        x->inputs_json = col_text(d, st, 5, a);
        x->runs = dq_ll(d, st, 6);
        x->last_run_id = dq_ll(d, st, 7);
        x->sum_runtime = dq_dbl(d, st, 8);
        x->min_runtime = dq_opt_dbl(d, st, 9);
        x->max_runtime = dq_opt_dbl(d, st, 10);
        x->timed = dq_ll(d, st, 11);
        if (x->executable == NULL || x->system == NULL || x->inputs_json == NULL) {
            dq_reset(d, st);
            return err_nomem(err);
        }
    }
    if (rc < 0)
        return -1;
    if (n == limit)
        dq_reset(d, st);
    *out = c;
    return n;
}

json_t *db_summary_apps(db *d, struct err *err)
{
    return dq_json(
        d,
        "SELECT a.name, a.description, a.demo, "
        "(SELECT count(*) FROM executables e WHERE e.app_id = a.id) AS executables, "
        "(SELECT coalesce(sum(c.runs), 0) FROM run_configs c WHERE c.app_id = a.id) "
        "AS runs, "
        "(SELECT count(DISTINCT c.system_id) FROM run_configs c WHERE c.app_id = a.id) "
        "AS systems, "
        "(SELECT max(c.last_run_id) FROM run_configs c WHERE c.app_id = a.id) AS "
        "last_run FROM applications a ORDER BY a.name",
        err, "");
}

json_t *db_summary_systems(db *d, struct err *err)
{
    return dq_json(
        d,
        "SELECT s.name, s.description, s.processor, s.cores, s.network, s.demo, "
        "(SELECT coalesce(sum(c.runs), 0) FROM run_configs c WHERE c.system_id = s.id) "
        "AS runs, "
        "(SELECT count(DISTINCT c.app_id) FROM run_configs c WHERE c.system_id = s.id) "
        "AS applications, "
        "(SELECT count(*) FROM system_benchmarks b WHERE b.system_id = s.id) AS "
        "benchmarks, "
        "(SELECT count(*) FROM system_parameters p WHERE p.system_id = s.id) AS "
        "parameters FROM systems s ORDER BY s.name",
        err, "");
}

json_t *db_summary_app(db *d, const char *name, struct err *err)
{
    json_t *app;
    long long id;
    int ok = 1;

    app = dq_one(d, "application",
                 "SELECT a.id, a.name, a.description, a.demo, a.created_at, "
                 "(SELECT coalesce(sum(c.runs), 0) FROM run_configs c WHERE "
                 "c.app_id = a.id) AS runs FROM applications a WHERE a.name = ?1",
                 err, "t", name);
    if (app == NULL)
        return NULL;
    id = json_integer_value(json_object_get(app, "id"));
    ok =
        ok &&
        dq_attach(
            d, app, "executables",
            "SELECT e.id, e.name, e.compiler, e.flags, e.version, "
            "(SELECT coalesce(sum(c.runs), 0) FROM run_configs c WHERE c.app_id = ?1 AND "
            "c.exe_id = e.id) AS runs FROM executables e WHERE e.app_id = ?1 ORDER BY "
            "e.name",
            id, err);
    ok = ok &&
         dq_attach(d, app, "systems",
                   "SELECT s.id, s.name, sum(c.runs) AS runs, min(c.nprocs) AS "
                   "min_nprocs, max(c.nprocs) AS max_nprocs FROM run_configs c JOIN "
                   "systems s ON s.id = c.system_id WHERE c.app_id = ?1 GROUP BY s.id "
                   "ORDER BY s.name",
                   id, err);
    ok = ok && dq_attach(d, app, "templates",
                         "SELECT name, kernel, expression, description FROM templates "
                         "WHERE app_id = ?1 ORDER BY name",
                         id, err);
    if (!ok) {
        json_decref(app);
        return NULL;
    }
    return app;
}

json_t *db_summary_system_apps(db *d, const char *system, struct err *err)
{
    return dq_json(
        d,
        "SELECT a.name, sum(c.runs) AS runs, min(c.nprocs) AS min_nprocs, "
        "max(c.nprocs) AS max_nprocs FROM run_configs c JOIN applications a ON "
        "a.id = c.app_id WHERE c.system_id = (SELECT id FROM systems WHERE name = ?1) "
        "GROUP BY a.id ORDER BY a.name",
        err, "t", system);
}

json_t *db_recent_runs(db *d, int limit, struct err *err)
{
    return dq_json(
        d,
        "SELECT r.id, a.name AS application, e.name AS executable, s.name AS system, "
        "r.nprocs, r.runtime, r.created_at FROM runs r JOIN applications a ON "
        "a.id = r.app_id JOIN executables e ON e.id = r.exe_id JOIN systems s ON "
        "s.id = r.system_id ORDER BY r.id DESC LIMIT ?1",
        err, "i", (long long)limit);
}

long long db_summary_count(db *d, long long app_id, long long exe_id, long long system_id,
                           struct err *err)
{
    long long n = 0;
    int rc =
        dq_scalar(d, &n,
                  "SELECT coalesce(sum(runs), 0) FROM run_configs WHERE app_id = ?1 AND "
                  "(?2 = 0 OR exe_id = ?2) AND (?3 = 0 OR system_id = ?3)",
                  err, "iii", app_id, exe_id, system_id);
    return rc < 0 ? -1 : n;
}

json_t *db_kernels_of_runs(db *d, const char *ids_json, struct err *err)
{
    return dq_json(
        d,
        DQ_SQL(d,
               "SELECT k.run_id, k.name, k.time FROM json_each(?1) j "
               "JOIN kernels k ON k.run_id = j.value ORDER BY j.key, k.seq",
               "SELECT k.run_id, k.name, k.time FROM "
               "jsonb_array_elements_text(?1::jsonb) WITH ORDINALITY j(v, ord) "
               "JOIN kernels k ON k.run_id = j.v::bigint ORDER BY j.ord, k.seq"),
        err, "t", ids_json);
}
