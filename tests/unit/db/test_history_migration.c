/* Migrations 3 to 14 on a database written by migration 2: every run gets its
 * configuration (config_id) and the series reads them in time order (the
 * instant, migration 8's at_ms, whatever offset from UTC the text carries),
 * templates keep their rows and ids (and may now share a name across
 * applications), the new tables start empty, and runtimes (13) and kernel
 * times (14) may then be absent beside the stored ones. The version-2 database is
 * built with the first two migrations of the embedded schema itself. Also
 * migration 18 on the schema before it: made-up call counts become NULL. */
#include "common/isotime.h"
#include "db/catalog.h"
#include "db/history.h"
#include "db/query.h"
#include "db/runs.h"
#include "db/sqlite/sql.h"
#include "tests/harness.h"
#include "tests/unit/db/run_times.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern const char db_schema_sql[];

static char dir[] = "/tmp/prophecy-migr3-XXXXXX";

static void make_v2(const char *path)
{
    const char *end = strstr(db_schema_sql, "-- migration 3");
    char *sql = strndup(db_schema_sql, (size_t)(end - db_schema_sql));
    sqlite3 *h;
    CHECK(sqlite3_open(path, &h) == SQLITE_OK);
    CHECK(sqlite3_exec(h, sql, NULL, NULL, NULL) == SQLITE_OK);
    CHECK(
        sqlite3_exec(
            h,
            "INSERT INTO applications (id, name) VALUES (1, 'a'), (2, 'b');"
            "INSERT INTO executables (id, app_id, name) VALUES (1, 1, 'x');"
            "INSERT INTO systems (id, name) VALUES (1, 's');"
            "INSERT INTO runs (id, app_id, exe_id, system_id, nprocs, runtime, "
            "started_at, created_at) VALUES "
            "(1, 1, 1, 1, 4, 3.0, '2026-01-03T00:00:00Z', '2026-02-01T00:00:00Z'),"
            "(2, 1, 1, 1, 4, 1.0, NULL, '2026-01-01T00:00:00Z'),"
            "(3, 1, 1, 1, 4, 2.0, '2026-01-02T00:00:00Z', '2026-02-01T00:00:00Z'),"
            "(4, 1, 1, 1, 8, 9.0, NULL, '2026-01-01T00:00:00Z');"
            "INSERT INTO run_inputs VALUES (1, 'N', 10), (2, 'N', 10), (3, 'N', 10),"
            "(4, 'N', 10);"
            "INSERT INTO kernels (run_id, seq, name, time) VALUES (3, 0, 'solve', 0.5);",
            NULL, NULL, NULL) == SQLITE_OK);
    for (size_t i = 0; i < NRUN_TIMES; i++) {
        char ins[400];
        snprintf(ins, sizeof ins,
                 "INSERT INTO runs (id, app_id, exe_id, system_id, nprocs, runtime, "
                 "started_at, created_at) VALUES (%zu, 1, 1, 1, 16, 1.0, '%s', "
                 "'2026-03-01T00:00:00Z'); INSERT INTO run_inputs VALUES (%zu, 'N', 10);",
                 10 + i, RUN_TIMES[i], 10 + i);
        CHECK(sqlite3_exec(h, ins, NULL, NULL, NULL) == SQLITE_OK);
    }
    CHECK(
        sqlite3_exec(
            h,
            "INSERT INTO templates (id, name, app_id, expression) VALUES (7, 't', 1, "
            "'a*N');"
            "INSERT INTO run_configs (app_id, exe_id, system_id, nprocs, inputs, runs, "
            "sum_runtime, min_runtime, max_runtime, last_run_id) SELECT app_id, exe_id, "
            "system_id, nprocs, '{\"N\":10.0}', count(*), sum(runtime), min(runtime), "
            "max(runtime), max(id) FROM runs GROUP BY nprocs;"
            "PRAGMA user_version = 2;",
            NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(h);
    free(sql);
}

/* A run of application a, executable x on system s. */
static struct run_record run_of(long long nprocs, double runtime, struct rec_kernel *k,
                                size_t nk)
{
    struct run_record r = {0};
    r.application = "a";
    r.executable = "x";
    r.system = "s";
    r.nprocs = nprocs;
    r.runtime = runtime;
    r.kernels = k;
    r.nkernels = nk;
    return r;
}

static void test_backfill(void)
{
    char path[256];
    struct err e = {0};
    struct db_history_filter f = {"a", NULL, "s", 4, NULL, 0};
    struct db_history_config *c;
    struct db_series_point *p;
    arena *a = arena_new();
    json_t *v;
    db *d;

    snprintf(path, sizeof path, "%s/v2.db", dir);
    make_v2(path);
    CHECK_INT(db_open(&d, path, NULL, &e), 0);
    v = dq_one(d, "n", "SELECT count(*) AS n FROM runs WHERE config_id IS NULL", &e, "");
    CHECK_INT(json_integer_value(json_object_get(v, "n")), 0);
    json_decref(v);
    v = dq_json(d, "SELECT id, coalesce(started_at, created_at) AS t, at_ms FROM runs",
                &e, "");
    CHECK_INT((long long)json_array_size(v), 4 + (long long)NRUN_TIMES);
    for (size_t i = 0; i < json_array_size(v); i++) {
        json_t *row = json_array_get(v, i);
        long long ms = 0;
        CHECK_INT(isotime_parse(json_string_value(json_object_get(row, "t")), &ms), 0);
        if (json_integer_value(json_object_get(row, "at_ms")) != ms)
            fprintf(stderr, "run %lld %s: at_ms %lld, parsed %lld\n",
                    json_integer_value(json_object_get(row, "id")),
                    json_string_value(json_object_get(row, "t")),
                    json_integer_value(json_object_get(row, "at_ms")), ms);
        CHECK(json_integer_value(json_object_get(row, "at_ms")) == ms);
    }
    json_decref(v);
    f.nprocs = 16;
    CHECK_INT(db_history_configs(d, &f, 10, a, &c, &e), 1);
    CHECK_INT(db_history_series(d, c[0].id, "runtime", a, &p, &e), (int)NRUN_TIMES);
    for (int i = 1; i < (int)NRUN_TIMES; i++)
        CHECK(p[i - 1].at <= p[i].at);
    /* 01:00 at +02:00 is 23:00 UTC: before 23:30Z, though its text sorts after */
    {
        int at10 = -1, at11 = -1;
        for (int i = 0; i < (int)NRUN_TIMES; i++) {
            at10 = p[i].run == 10 ? i : at10;
            at11 = p[i].run == 11 ? i : at11;
        }
        CHECK(at10 >= 0 && at10 < at11);
    }
    f.nprocs = 4;
    CHECK_INT(db_history_configs(d, &f, 10, a, &c, &e), 1);
    CHECK_INT(db_history_series(d, c[0].id, "runtime", a, &p, &e), 3);
    /* started_at, else created_at: run 2 (Jan 1), 3 (Jan 2), 1 (Jan 3) */
    CHECK_INT(p[0].run, 2);
    CHECK_INT(p[1].run, 3);
    CHECK_INT(p[2].run, 1);
    v = db_template_get(d, "t", &e);
    CHECK(v != NULL);
    CHECK_STR(json_string_value(json_object_get(v, "expression")), "a*N");
    json_decref(v);
    /* the same template name in another application is now allowed */
    CHECK_INT(db_template_put(d, "t", "b", "", "b*N", "", &e), 0);
    v = db_template_get(d, "t", &e);
    CHECK(v == NULL && e.status == ERR_CONFLICT);
    /* deleting a run keeps its configuration's summary right */
    memset(&e, 0, sizeof e);
    CHECK_INT(db_run_delete(d, 1, &e), 0);
    v = dq_one(d, "c",
               "SELECT runs, sum_runtime, max_runtime, last_run_id FROM run_configs "
               "WHERE nprocs = 4",
               &e, "");
    CHECK_INT(json_integer_value(json_object_get(v, "runs")), 2);
    CHECK_NEAR(json_real_value(json_object_get(v, "sum_runtime")), 3.0, 0);
    CHECK_NEAR(json_real_value(json_object_get(v, "max_runtime")), 2.0, 0);
    CHECK_INT(json_integer_value(json_object_get(v, "last_run_id")), 3);
    json_decref(v);
    CHECK_INT(db_run_delete(d, 4, &e), 0);
    v = dq_one(d, "c", "SELECT count(*) AS n FROM run_configs WHERE nprocs = 4", &e, "");
    CHECK_INT(json_integer_value(json_object_get(v, "n")), 1);
    json_decref(v);
    v = dq_one(d, "c", "SELECT count(*) AS n FROM run_configs WHERE nprocs = 8", &e, "");
    CHECK_INT(json_integer_value(json_object_get(v, "n")), 0);
    json_decref(v);
    /* migration 13: the stored runs keep their times and count as timed, and
     * a run without one is stored as NULL beside them */
    v = dq_one(d, "c", "SELECT timed, runs FROM run_configs WHERE nprocs = 4", &e, "");
    CHECK_INT(json_integer_value(json_object_get(v, "timed")), 2);
    json_decref(v);
    {
        static struct rec_kv in[1] = {{"N", 10}}, m[1] = {{"metr", 7.5}};
        struct rec_kernel k[1] = {{"solve", NAN, 3, "{\"visits\":3}"}};
        struct run_record r = run_of(4, NAN, k, 1);
        struct db_run_row row;
        long long id = 0;
        int existed = 0;
        r.inputs = in;
        r.ninputs = 1;
        r.metrics = m;
        r.nmetrics = 1;
        CHECK_INT(db_runs_insert(d, &r, 1, &id, &existed, &e), 0);
        v = dq_one(d, "c",
                   "SELECT runs, timed, sum_runtime, min_runtime, max_runtime FROM "
                   "run_configs WHERE nprocs = 4",
                   &e, "");
        CHECK_INT(json_integer_value(json_object_get(v, "runs")), 3);
        CHECK_INT(json_integer_value(json_object_get(v, "timed")), 2);
        CHECK_NEAR(json_real_value(json_object_get(v, "sum_runtime")), 3.0, 0);
        CHECK_NEAR(json_real_value(json_object_get(v, "min_runtime")), 1.0, 0);
        CHECK_NEAR(json_real_value(json_object_get(v, "max_runtime")), 2.0, 0);
        json_decref(v);
        v = dq_one(d, "n", "SELECT count(*) AS n FROM runs WHERE runtime IS NULL", &e,
                   "");
        CHECK_INT(json_integer_value(json_object_get(v, "n")), 1);
        json_decref(v);
        CHECK_INT(db_run_get(d, id, a, &row, &e), 1);
        CHECK(isnan(row.run.runtime));
        /* migration 14: the stored kernel keeps its time, the new one has none */
        v = dq_json(d, "SELECT run_id, time FROM kernels ORDER BY run_id", &e, "");
        CHECK_INT((long long)json_array_size(v), 2);
        CHECK_NEAR(json_real_value(json_object_get(json_array_get(v, 0), "time")), 0.5,
                   0);
        CHECK(json_is_null(json_object_get(json_array_get(v, 1), "time")));
        json_decref(v);
        CHECK_INT((long long)row.run.nkernels, 1);
        CHECK(isnan(row.run.kernels[0].time) && row.run.kernels[0].calls == 3);
        CHECK_INT(db_run_same(d, id, &r, &e), 1);
        /* the kernel's series has the timed run only */
        CHECK_INT(db_history_series(d, c[0].id, "kernel:solve", a, &p, &e), 1);
        CHECK_INT(p[0].run, 3);
        CHECK_NEAR(p[0].value, 0.5, 0);
        /* the series of runtime skips it; its metric's series has it */
        CHECK_INT(db_history_configs(d, &f, 10, a, &c, &e), 1);
        CHECK_INT(db_history_series(d, c[0].id, "runtime", a, &p, &e), 2);
        CHECK_INT(db_history_series(d, c[0].id, "metric:metr", a, &p, &e), 1);
        CHECK_INT(db_run_delete(d, id, &e), 0);
        v = dq_one(d, "c", "SELECT runs, timed FROM run_configs WHERE nprocs = 4", &e,
                   "");
        CHECK_INT(json_integer_value(json_object_get(v, "runs")), 2);
        CHECK_INT(json_integer_value(json_object_get(v, "timed")), 2);
        json_decref(v);
        v = dq_one(d, "ok", "PRAGMA integrity_check", &e, "");
        CHECK_STR(json_string_value(json_object_get(v, "integrity_check")), "ok");
        json_decref(v);
    }
    db_close(d);
    arena_free(a);
}

/* A store at schema version `version` (the schema up to the next
 * migration) holding application 1 "a", executable 1 "x", system 1 "s" and
 * the rows of sql; written, then opened again (a new connection reads the
 * table text as that version left it) for the rows. */
static void make_at(const char *path, int version, const char *sql)
{
    char mark[32], pragma[48];
    const char *end;
    char *schema;
    sqlite3 *h;

    snprintf(mark, sizeof mark, "-- migration %d", version + 1);
    end = strstr(db_schema_sql, mark);
    schema = strndup(db_schema_sql, (size_t)(end - db_schema_sql));
    CHECK(sqlite3_open(path, &h) == SQLITE_OK);
    CHECK(sqlite3_exec(h, schema, NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(h);
    free(schema);
    CHECK(sqlite3_open(path, &h) == SQLITE_OK);
    CHECK(sqlite3_exec(h,
                       "INSERT INTO applications (id, name) VALUES (1, 'a');"
                       "INSERT INTO executables (id, app_id, name) VALUES (1, 1, 'x');"
                       "INSERT INTO systems (id, name) VALUES (1, 's');",
                       NULL, NULL, NULL) == SQLITE_OK);
    CHECK(sqlite3_exec(h, sql, NULL, NULL, NULL) == SQLITE_OK);
    snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d;", version);
    CHECK(sqlite3_exec(h, pragma, NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(h);
}

/* Migration 14 on a database at 13: the kernels importers stored as 0 s for
 * files without a time metric (runs without a runtime, imported from
 * Extra-P or CUBE) get no time; a run sent with its own id and a timed run
 * keep their zeros, which were measured. */
static void test_untimed_kernels(void)
{
    char path[256];
    struct err e = {0};
    json_t *v;
    db *d;

    snprintf(path, sizeof path, "%s/v13.db", dir);
    make_at(path, 13,
            "INSERT INTO runs (id, uid, app_id, exe_id, system_id, nprocs, runtime, "
            "created_at, at_ms) VALUES "
            "(1, 'extrap-jsonl:aa', 1, 1, 1, 1, NULL, '2026-01-01T00:00:00Z', 0),"
            "(2, 'cube:bb', 1, 1, 1, 1, NULL, '2026-01-01T00:00:00Z', 0),"
            "(3, 'job-1', 1, 1, 1, 1, NULL, '2026-01-01T00:00:00Z', 0),"
            "(4, 'extrap-text:cc', 1, 1, 1, 1, 2.0, '2026-01-01T00:00:00Z', 0);"
            "INSERT INTO kernels (run_id, seq, name, time) VALUES (1, 0, 'k', 0), "
            "(1, 1, 'm', 0), (2, 0, 'k', 0), (3, 0, 'k', 0), (4, 0, 'k', 0), "
            "(4, 1, 'm', 1.5);");
    CHECK_INT(db_open(&d, path, NULL, &e), 0);
    if (d == NULL)
        return;
    v = dq_json(
        d,
        "SELECT run_id, seq, coalesce(time, -1) AS t FROM kernels ORDER BY run_id, "
        "seq",
        &e, "");
    CHECK_INT((long long)json_array_size(v), 6);
    {
        static const double want[6] = {-1, -1, -1, 0, 0, 1.5}; /* -1: NULL */
        for (size_t i = 0; i < 6 && i < json_array_size(v); i++)
            CHECK_NEAR(json_number_value(json_object_get(json_array_get(v, i), "t")),
                       want[i], 0);
    }
    json_decref(v);
    v = dq_one(d, "ok", "PRAGMA integrity_check", &e, "");
    CHECK_STR(json_string_value(json_object_get(v, "integrity_check")), "ok");
    json_decref(v);
    db_close(d);
}

/* Migration 18 on a database before it: the call counts importers made up
 * for files that count none (0 from Extra-P input files, Caliper and
 * HPCToolkit; 1 from Extra-P experiments; 0 from CUBE profiles without a
 * visits metric) become NULL; counts that were measured (a CUBE kernel with
 * visits, OTF2, a run sent with its own id) stay, 0 included. A kernel
 * without a count is then stored and read back as such. */
static void test_uncounted_kernels(void)
{
    char path[256];
    struct err e = {0};
    json_t *v;
    db *d;
    arena *a = arena_new();

    snprintf(path, sizeof path, "%s/v17.db", dir);
    make_at(path, 17,
            "INSERT INTO runs (id, uid, app_id, exe_id, system_id, nprocs, runtime, "
            "created_at, at_ms) VALUES "
            "(1, 'extrap-jsonl:aa', 1, 1, 1, 1, 2.0, '2026-01-01T00:00:00Z', 0),"
            "(2, 'extrap-experiment:bb', 1, 1, 1, 1, 2.0, '2026-01-01T00:00:00Z', 0),"
            "(3, 'cube:cc', 1, 1, 1, 1, 2.0, '2026-01-01T00:00:00Z', 0),"
            "(4, 'job-1', 1, 1, 1, 1, 2.0, '2026-01-01T00:00:00Z', 0),"
            "(5, 'caliper-json:dd', 1, 1, 1, 1, 2.0, '2026-01-01T00:00:00Z', 0),"
            "(6, 'hpctoolkit:ee', 1, 1, 1, 1, 2.0, '2026-01-01T00:00:00Z', 0),"
            "(7, 'otf2:ff', 1, 1, 1, 1, 2.0, '2026-01-01T00:00:00Z', 0),"
            "(8, 'extrap-text:gg', 1, 1, 1, 1, NULL, '2026-01-01T00:00:00Z', 0);"
            "INSERT INTO kernels (run_id, seq, name, time, calls, metrics) VALUES "
            "(1, 0, 'k', 1, 0, NULL), (1, 1, 'm', 1, 0, '{\"visits\": 4}'),"
            "(2, 0, 'k', 1, 1, NULL),"
            "(3, 0, 'k', 1, 0, NULL), (3, 1, 'm', 1, 0, '{\"visits\": 0}'),"
            "(3, 2, 'n', 1, 5, '{\"visits\": 5}'),"
            "(4, 0, 'k', 1, 0, NULL), (5, 0, 'k', 1, 0, NULL), (6, 0, 'k', 1, 0, NULL),"
            "(7, 0, 'k', 1, 0, NULL), (8, 0, 'k', NULL, 0, NULL);");
    CHECK_INT(db_open(&d, path, NULL, &e), 0);
    CHECK_STR(e.message, "");
    if (d == NULL)
        return;
    v = dq_json(d,
                "SELECT run_id, seq, coalesce(calls, -1) AS c FROM kernels ORDER BY "
                "run_id, seq",
                &e, "");
    CHECK_INT((long long)json_array_size(v), 11);
    {
        /* -1: NULL */
        static const long long want[11] = {-1, -1, -1, -1, 0, 5, 0, -1, -1, 0, -1};
        for (size_t i = 0; i < 11 && i < json_array_size(v); i++)
            CHECK_INT(json_integer_value(json_object_get(json_array_get(v, i), "c")),
                      want[i]);
    }
    json_decref(v);
    {
        struct rec_kernel k[2] = {{"solve", 1.5, KERNEL_NO_CALLS, NULL},
                                  {"halo", 0.5, 0, NULL}};
        struct run_record r = run_of(2, 2.0, k, 2);
        struct db_run_row row;
        long long id = 0;
        int existed = 0;
        CHECK_INT(db_runs_insert(d, &r, 1, &id, &existed, &e), 0);
        CHECK_STR(e.message, "");
        v = dq_one(d, "c",
                   "SELECT count(*) AS n FROM kernels WHERE run_id = ?1 AND calls "
                   "IS NULL",
                   &e, "i", id);
        CHECK_INT(json_integer_value(json_object_get(v, "n")), 1);
        json_decref(v);
        CHECK_INT(db_run_get(d, id, a, &row, &e), 1);
        CHECK_INT((long long)row.run.nkernels, 2);
        if (row.run.nkernels == 2) {
            CHECK_INT(row.run.kernels[0].calls, KERNEL_NO_CALLS);
            CHECK_INT(row.run.kernels[1].calls, 0);
        }
        CHECK_INT(db_run_same(d, id, &r, &e), 1);
    }
    v = dq_one(d, "ok", "PRAGMA integrity_check", &e, "");
    CHECK_STR(json_string_value(json_object_get(v, "integrity_check")), "ok");
    json_decref(v);
    db_close(d);
    arena_free(a);
}

int main(void)
{
    if (mkdtemp(dir) == NULL)
        return 1;
    RUN(test_backfill);
    RUN(test_untimed_kernels);
    RUN(test_uncounted_kernels);
    return harness_report_removing(dir);
}
