/* Unit tests for db/summary: configuration summaries kept on insert and
 * backfilled by the migration, and one page of runs in each order. */
#include "db/catalog.h"
#include "db/history.h"
#include "db/runs.h"
#include "db/query.h"
#include "db/sqlite/sql.h"
#include "db/summary.h"
#include "tests/harness.h"
#include "tests/unit/db/deep_pages.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/prophecy-sumtest-XXXXXX";

static const char *path(const char *name)
{
    static char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

static void add(db *d, const char *exe, long long np, double rt, double N,
                int with_inputs)
{
    struct err e = {0};
    struct rec_kv in[2] = {{"N", N}, {"L", 64}};
    struct run_record r = {0};
    long long id;
    int existed;
    r.application = "app";
    r.executable = exe;
    r.system = "sys";
    r.nprocs = np;
    r.runtime = rt;
    r.inputs = in;
    r.ninputs = with_inputs ? 2 : 0;
    CHECK_INT(db_begin(d, &e), 0);
    CHECK_INT(db_runs_insert(d, &r, 1, &id, &existed, &e), 0);
    CHECK_INT(db_commit(d, &e), 0);
}

static void check_configs(db *d)
{
    struct err e = {0};
    struct db_config *c;
    arena *a = arena_new();
    long long app = db_app_id(d, "app", 0, &e);
    int n = db_summary_configs(d, app, 0, 0, 100, a, &c, &e);

    /* (a.x, 2, N=100) x2, (a.x, 4, N=100), (a.x, 2, N=200), (b.x, 2, none) */
    CHECK_INT(n, 4);
    if (n == 4) {
        CHECK_STR(c[0].executable, "a.x");
        CHECK_STR(c[0].inputs_json, "{\"L\":64.0,\"N\":100.0}");
        CHECK_INT(c[0].nprocs, 2);
        CHECK_INT(c[0].runs, 2);
        CHECK_NEAR(c[0].sum_runtime, 3.0, 1e-12);
        CHECK_NEAR(c[0].min_runtime, 1.0, 0);
        CHECK_NEAR(c[0].max_runtime, 2.0, 0);
        CHECK_INT(c[0].last_run_id, 2);
        CHECK_INT(c[1].nprocs, 4);
        CHECK_STR(c[2].inputs_json, "{\"L\":64.0,\"N\":200.0}");
        CHECK_STR(c[3].executable, "b.x");
        CHECK_STR(c[3].inputs_json, "{}");
    }
    CHECK_INT(db_summary_count(d, app, 0, 0, &e), 5);
    CHECK_INT(db_summary_count(d, app, db_app_id(d, "nothing", 0, &e), 0, &e), 5);
    arena_free(a);
}

/* How many runs of file name the configuration of their own names,
 * processes and inputs (the key as json_group_object writes it). */
static long long runs_in_their_config(const char *name)
{
    sqlite3 *h;
    sqlite3_stmt *st;
    long long n = -1;
    CHECK_INT(sqlite3_open(path(name), &h), SQLITE_OK);
    CHECK_INT(sqlite3_prepare_v2(
                  h,
                  "SELECT count(*) FROM runs r JOIN run_configs c ON c.id = r.config_id "
                  "AND c.app_id = r.app_id AND c.exe_id = r.exe_id AND c.system_id = "
                  "r.system_id AND c.nprocs = r.nprocs AND c.inputs = (SELECT "
                  "coalesce(json_group_object(name, value), '{}') FROM (SELECT name, "
                  "value FROM run_inputs WHERE run_id = r.id ORDER BY name))",
                  -1, &st, NULL),
              SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(h);
    return n;
}

static void test_summary_on_insert(void)
{
    struct err e = {0};
    db *d;
    CHECK_INT(db_open(&d, path("s.db"), NULL, &e), 0);
    add(d, "a.x", 2, 1.0, 100, 1);
    add(d, "a.x", 2, 2.0, 100, 1);
    add(d, "a.x", 4, 0.5, 100, 1);
    add(d, "a.x", 2, 4.0, 200, 1);
    add(d, "b.x", 2, 7.0, 0, 0);
    check_configs(d);
    /* the first run of each configuration is given it after its insert,
     * the next ones are inserted with it: every run has its own */
    add(d, "b.x", 2, 8.0, 0, 0);
    CHECK_INT(runs_in_their_config("s.db"), 6);
    db_close(d);
}

/* The application read (db_app_get) answers from the summaries what the
 * runs say: kernels (name:records in run order) and metric names as given,
 * and the counts and input ranges recomputed here from every run. */
static void check_app_read(db *d, const char *kernels, const char *metrics)
{
    struct err e = {0};
    json_t *app = db_app_get(d, "app", &e), *v, *want;
    char got[512] = "";
    size_t i, len = 0;

    CHECK(app != NULL);
    if (app == NULL)
        return;
    json_array_foreach(json_object_get(app, "kernels"), i, v) len +=
        (size_t)snprintf(got + len, sizeof got - len, "%s%s:%lld", i ? "," : "",
                         json_string_value(json_object_get(v, "name")),
                         (long long)json_integer_value(json_object_get(v, "records")));
    CHECK_STR(got, kernels);
    /* the same as aggregating every run's kernels */
    want = dq_json(d,
                   "SELECT k.name, count(*) AS records FROM kernels k JOIN runs r ON "
                   "r.id = k.run_id WHERE r.app_id = 1 GROUP BY k.name ORDER BY "
                   "min(k.seq)",
                   &e, "");
    CHECK(json_equal(want, json_object_get(app, "kernels")));
    json_decref(want);
    len = 0;
    got[0] = '\0';
    json_array_foreach(json_object_get(app, "metrics"), i, v) len +=
        (size_t)snprintf(got + len, sizeof got - len, "%s%s", i ? "," : "",
                         json_string_value(json_object_get(v, "name")));
    CHECK_STR(got, metrics);
    want = dq_one(
        d, "app",
        "SELECT (SELECT count(*) FROM runs) AS runs, (SELECT count(DISTINCT nprocs) "
        "FROM runs) AS nprocs, (SELECT count(DISTINCT value) FROM run_inputs WHERE name "
        "= 'N') AS n_values, (SELECT max(value) FROM run_inputs WHERE name = 'N') AS "
        "n_max",
        &e, "");
    CHECK(want != NULL);
    CHECK_INT(json_integer_value(json_object_get(app, "runs")),
              json_integer_value(json_object_get(want, "runs")));
    CHECK_INT((long long)json_array_size(json_object_get(app, "nprocs")),
              json_integer_value(json_object_get(want, "nprocs")));
    for (i = 0; i < json_array_size(json_object_get(app, "inputs")); i++) {
        v = json_array_get(json_object_get(app, "inputs"), i);
        if (strcmp(json_string_value(json_object_get(v, "name")), "N") != 0)
            continue;
        CHECK_INT(json_integer_value(json_object_get(v, "values_count")),
                  json_integer_value(json_object_get(want, "n_values")));
        CHECK_NEAR(json_number_value(json_object_get(v, "max")),
                   json_number_value(json_object_get(want, "n_max")), 0);
    }
    json_decref(want);
    json_decref(app);
}

/* A version-1 database with runs gets its summaries from the migration. */
/* app_kernels and app_metrics after one insert call of several runs: a
 * kernel twice in a run, names in other orders and in two applications, a
 * repeated run that adds nothing; both equal to the aggregate of every
 * stored run's rows (the store sums a call's names before writing them). */
static void check_names_batch(db *d)
{
    struct rec_kernel ka[3] = {
        {"halo", 0.1, 1, NULL}, {"comm", 0.1, 1, NULL}, {"comm", 0.2, 1, NULL}};
    struct rec_kernel kb[2] = {{"comm", 0.3, 1, NULL}, {"solve", 0.4, 1, NULL}};
    struct rec_kv ma[2] = {{"power", 1}, {"energy", 2}}, mb[1] = {{"power", 3}};
    struct run_record r[4] = {{0}};
    long long ids[4], n = -1;
    int existed[4], i;
    struct err e = {0};
    json_t *got, *want;

    for (i = 0; i < 4; i++) {
        r[i].application = i == 2 ? "other" : "app";
        r[i].executable = "a.x";
        r[i].system = "sys";
        r[i].nprocs = 4;
        r[i].runtime = 1 + i;
        r[i].kernels = i % 2 ? kb : ka;
        r[i].nkernels = i % 2 ? 2 : 3;
        r[i].metrics = i % 2 ? mb : ma;
        r[i].nmetrics = i % 2 ? 1 : 2;
    }
    r[0].uid = r[3].uid = "names-1"; /* the fourth repeats the first */
    r[3].kernels = ka;
    r[3].nkernels = 3;
    r[3].metrics = ma;
    r[3].nmetrics = 2;
    r[3].runtime = 1;
    CHECK_INT(db_begin(d, &e), 0);
    CHECK_INT(db_runs_insert(d, r, 4, ids, existed, &e), 0);
    CHECK_INT(db_commit(d, &e), 0);
    CHECK_INT(existed[3], 1);
    CHECK_INT(ids[3], ids[0]);
    got = dq_json(
        d, "SELECT app_id, name, records, first_seq FROM app_kernels ORDER BY 1, 2", &e,
        "");
    want =
        dq_json(d,
                "SELECT r.app_id, k.name, count(*) AS records, min(k.seq) AS first_seq "
                "FROM kernels k JOIN runs r ON r.id = k.run_id GROUP BY 1, 2 "
                "ORDER BY 1, 2",
                &e, "");
    CHECK(got != NULL && want != NULL && json_equal(got, want));
    json_decref(got);
    json_decref(want);
    got = dq_json(d, "SELECT app_id, name FROM app_metrics ORDER BY 1, 2", &e, "");
    want = dq_json(d,
                   "SELECT DISTINCT r.app_id, m.name FROM run_metrics m JOIN runs r ON "
                   "r.id = m.run_id ORDER BY 1, 2",
                   &e, "");
    CHECK(got != NULL && want != NULL && json_equal(got, want));
    json_decref(got);
    json_decref(want);
    /* comm: twice in the first run and once in the second, first at seq 0 */
    CHECK_INT(dq_scalar(d, &n,
                        "SELECT records * 10 + first_seq FROM app_kernels k JOIN "
                        "applications a ON a.id = k.app_id WHERE a.name = 'app' AND "
                        "k.name = 'comm'",
                        &e, ""),
              1);
    CHECK_INT(n, 30);
}

static void test_migration_backfills(void)
{
    struct err e = {0};
    sqlite3 *h;
    db *d;
    char *schema = NULL, *cut;
    size_t len = 0;
    FILE *f;
    char sp[512];

    snprintf(sp, sizeof sp, "%s/../../schema.sql", getenv("PROPHECY_TEST_DATA"));
    f = fopen(sp, "rb");
    CHECK(f != NULL);
    if (f == NULL)
        return;
    schema = malloc(1 << 20);
    len = fread(schema, 1, (1 << 20) - 1, f);
    fclose(f);
    schema[len] = '\0';
    cut = strstr(schema, "\n-- migration 2");
    CHECK(cut != NULL);
    if (cut)
        *cut = '\0';
    CHECK_INT(sqlite3_open(path("v1.db"), &h), SQLITE_OK);
    CHECK_INT(sqlite3_exec(h, schema, NULL, NULL, NULL), SQLITE_OK);
    CHECK_INT(
        sqlite3_exec(
            h,
            "PRAGMA user_version = 1;"
            "INSERT INTO applications (id, name) VALUES (1, 'app');"
            "INSERT INTO systems (id, name) VALUES (1, 'sys');"
            "INSERT INTO executables (id, app_id, name) VALUES (1, 1, 'a.x'), (2, 1, "
            "'b.x');"
            "INSERT INTO runs (id, app_id, exe_id, system_id, nprocs, runtime, "
            "created_at) "
            "VALUES (1, 1, 1, 1, 2, 1.0, 'x'), (2, 1, 1, 1, 2, 2.0, 'x'), "
            "(3, 1, 1, 1, 4, 0.5, 'x'), (4, 1, 1, 1, 2, 4.0, 'x'), (5, 1, 2, 1, 2, 7.0, "
            "'x');"
            "INSERT INTO run_inputs (run_id, name, value) VALUES (1, 'N', 100), (1, 'L', "
            "64), "
            "(2, 'L', 64), (2, 'N', 100), (3, 'N', 100), (3, 'L', 64), (4, 'N', 200), "
            "(4, 'L', 64);"
            "INSERT INTO kernels (run_id, seq, name, time) VALUES (1, 0, 'setup', 0.1), "
            "(1, 1, 'solve', 0.5), (1, 2, 'solve', 0.3), (2, 0, 'setup', 0.1), "
            "(5, 0, 'io', 0.2);"
            "INSERT INTO run_metrics (run_id, name, value) VALUES (1, 'flops', 1e9), "
            "(3, 'flops', 2e9), (3, 'bytes', 5);",
            NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(h);
    free(schema);
    CHECK_INT(db_open(&d, path("v1.db"), NULL, &e), 0);
    check_configs(d);
    check_app_read(d, "io:1,setup:2,solve:2", "bytes,flops");
    /* and new runs join the backfilled rows */
    add(d, "a.x", 2, 0.5, 100, 1);
    {
        struct db_config *c;
        arena *a = arena_new();
        CHECK_INT(db_summary_configs(d, 1, 1, 0, 100, a, &c, &e), 3);
        CHECK_INT(c[0].runs, 3);
        CHECK_NEAR(c[0].min_runtime, 0.5, 0);
        CHECK_INT(c[0].last_run_id, 6);
        arena_free(a);
    }
    /* kernels and metrics of new runs join the backfilled summaries */
    {
        struct rec_kernel k[2] = {{"solve", 0.2, 1, NULL}, {"halo", 0.1, 1, NULL}};
        struct rec_kv m[1] = {{"energy", 3}};
        struct rec_kv in[2] = {{"N", 300}, {"L", 64}};
        struct run_record r = {0};
        long long id;
        int existed;
        r.application = "app";
        r.executable = "a.x";
        r.system = "sys";
        r.nprocs = 8;
        r.runtime = 1;
        r.inputs = in;
        r.ninputs = 2;
        r.metrics = m;
        r.nmetrics = 1;
        r.kernels = k;
        r.nkernels = 2;
        CHECK_INT(db_begin(d, &e), 0);
        CHECK_INT(db_runs_insert(d, &r, 1, &id, &existed, &e), 0);
        CHECK_INT(db_commit(d, &e), 0);
    }
    check_app_read(d, "io:1,setup:2,solve:3,halo:1", "bytes,energy,flops");
    check_names_batch(d);
    db_close(d);
}

static void test_runs_page(void)
{
    struct err e = {0};
    struct db_page_row *rows;
    arena *a = arena_new();
    db *d;
    int i, n;
    long long app;

    CHECK_INT(db_open(&d, path("p.db"), NULL, &e), 0);
    for (i = 0; i < 30; i++)
        add(d, i % 2 ? "a.x" : "b.x", 1 + i % 4, (double)((i * 7) % 10), 100 + i, 1);
    app = db_app_id(d, "app", 0, &e);
    {
        struct db_page_query q = {app, 0, 0, DB_SORT_ID, 1, 0, 10, 0, 0, 0};
        n = db_runs_page(d, &q, a, &rows, &e);
        CHECK_INT(n, 10);
        for (i = 0; i < n; i++)
            CHECK_INT(rows[i].id, 30 - i);
        CHECK_STR(rows[0].executable, "a.x");
        CHECK_STR(rows[0].system, "sys");
        CHECK_INT(rows[0].ninputs, 2);
        CHECK_STR(rows[0].inputs[0].name, "L");
        CHECK_NEAR(rows[0].inputs[1].value, 129, 0);
    }
    {
        /* Given the total, pages past the middle are read from the other end:
         * the same rows in the same order, every order, filter and offset. */
        long long exe = 1; /* b.x, the first stored: 15 of the 30 runs */
        int sort, desc, f, off;
        CHECK_INT(db_summary_count(d, app, exe, 0, &e), 15);
        for (sort = DB_SORT_ID; sort <= DB_SORT_RUNTIME; sort++)
            for (desc = 0; desc < 2; desc++)
                for (f = 0; f < 3; f++) /* no filter, b.x, the system (all runs) */
                    for (off = 0; off < 32; off += 3) {
                        struct db_page_query q = {app,  f == 1 ? exe : 0,
                                                  0,    (enum db_sort)sort,
                                                  desc, off,
                                                  7,    0,
                                                  0,    0};
                        struct db_page_row *r0, *r1;
                        int n0 = db_runs_page(d, &q, a, &r0, &e), k;
                        q.total = f == 1 ? 15 : 30;
                        q.system_id = f == 2 ? db_system_id(d, "sys", 0, &e) : 0;
                        CHECK_INT(db_runs_page(d, &q, a, &r1, &e), n0);
                        for (k = 0; k < n0; k++)
                            CHECK_INT(r1[k].id, r0[k].id);
                        if (n0 > 0)
                            CHECK_NEAR(r1[n0 - 1].runtime, r0[n0 - 1].runtime, 0);
                    }
    }
    {
        /* runtime ascending with ties by id: runtimes (i*7)%10 */
        struct db_page_query q = {app, 0, 0, DB_SORT_RUNTIME, 0, 3, 5, 0, 0, 0};
        double prev = -1;
        long long previd = 0;
        n = db_runs_page(d, &q, a, &rows, &e);
        CHECK_INT(n, 5);
        for (i = 0; i < n; i++) {
            CHECK(rows[i].runtime > prev ||
                  (rows[i].runtime == prev && rows[i].id > previd));
            prev = rows[i].runtime;
            previd = rows[i].id;
        }
        /* runtime 0 for i = 0, 10, 20 (ids 1, 11, 21); runtime 1 for i = 3, 13,
         * 23 (ids 4, 14, 24): offset 3 starts at id 4 */
        CHECK_INT(rows[0].id, 4);
        CHECK_NEAR(rows[0].runtime, 1, 0);
    }
    {
        /* filtered: only b.x (even i), nprocs descending */
        long long exe = 0;
        json_t *app_json = db_summary_app(d, "app", &e);
        json_t *x;
        size_t k;
        json_array_foreach(
            json_object_get(app_json, "executables"), k,
            x) if (strcmp(json_string_value(json_object_get(x, "name")), "b.x") == 0)
            exe = json_integer_value(json_object_get(x, "id"));
        json_decref(app_json);
        struct db_page_query q = {app, exe, 0, DB_SORT_NPROCS, 1, 0, 100, 0, 0, 0};
        n = db_runs_page(d, &q, a, &rows, &e);
        CHECK_INT(n, 15);
        CHECK_INT(db_summary_count(d, app, exe, 0, &e), 15);
        for (i = 0; i < n; i++)
            CHECK_STR(rows[i].executable, "b.x");
        CHECK_INT(rows[0].nprocs, 3);
        CHECK_INT(rows[n - 1].nprocs, 1);
    }
    {
        struct db_page_query q = {app, 0, 0, DB_SORT_ID, 0, 1000, 10, 0, 0, 0};
        CHECK_INT(db_runs_page(d, &q, a, &rows, &e), 0);
    }
    {
        /* A cursor reads the same page as its offset: the page after the run
         * just before it, and the page before the run just after it, in every
         * order, direction and filter (ties of runtime and nprocs span
         * executables and cursors fall inside tie groups); db_runs_rank
         * places the cursor. A cursor run that is not stored falls back to
         * the offset. */
        long long exe = 1;
        int sort, desc, f, off, k;
        for (sort = DB_SORT_ID; sort <= DB_SORT_RUNTIME; sort++)
            for (desc = 0; desc < 2; desc++)
                for (f = 0; f < 3; f++) {
                    struct db_page_query all = {
                        app, f == 1 ? exe : 0, 0, (enum db_sort)sort, desc, 0, 100, 0, 0,
                        0};
                    struct db_page_row *every;
                    int total;
                    all.system_id = f == 2 ? db_system_id(d, "sys", 0, &e) : 0;
                    total = db_runs_page(d, &all, a, &every, &e);
                    CHECK_INT(total, f == 1 ? 15 : 30);
                    for (off = 0; off <= total; off++) {
                        struct db_page_query q = all;
                        struct db_page_row *r0, *r1;
                        int n0, n1;
                        q.limit = 7;
                        q.offset = off;
                        n0 = db_runs_page(d, &q, a, &r0, &e);
                        q.offset = 0;
                        if (off > 0) {
                            q.after = every[off - 1].id;
                            CHECK_INT(db_runs_rank(d, &q, &e), off);
                            n1 = db_runs_page(d, &q, a, &r1, &e);
                            CHECK_INT(n1, n0);
                            for (k = 0; k < n0 && k < n1; k++)
                                CHECK_INT(r1[k].id, r0[k].id);
                            q.after = 0;
                        }
                        if (off + 7 < total) {
                            q.before = every[off + 7].id;
                            CHECK_INT(db_runs_rank(d, &q, &e), off + 7);
                            n1 = db_runs_page(d, &q, a, &r1, &e);
                            CHECK_INT(n1, n0);
                            for (k = 0; k < n0 && k < n1; k++)
                                CHECK_INT(r1[k].id, r0[k].id);
                        }
                    }
                    {
                        struct db_page_query q = all;
                        struct db_page_row *r0, *r1;
                        q.limit = 5;
                        q.offset = 10;
                        CHECK_INT(db_runs_page(d, &q, a, &r0, &e), 5);
                        q.after = 999999;
                        CHECK_INT(db_runs_rank(d, &q, &e), 0);
                        CHECK_INT(db_runs_page(d, &q, a, &r1, &e), 5);
                        CHECK_INT(r1[0].id, r0[0].id);
                    }
                }
    }
    arena_free(a);
    db_close(d);
}

/* Tallies equal to a recount of the runs (the migration's own backfill). */
static void check_tally_recount(db *d, const char *file)
{
    struct err e = {0};
    json_t *kept, *again;
    sqlite3 *h;
    kept = deep_tally_rows(d);
    CHECK(kept != NULL && json_array_size(kept) > 0);
    db_close(d);
    /* back to version 16 without the table: opening runs migration 17 */
    CHECK_INT(sqlite3_open(path(file), &h), SQLITE_OK);
    CHECK_INT(sqlite3_exec(h, "DROP TABLE run_tally; PRAGMA user_version = 16", NULL,
                           NULL, NULL),
              SQLITE_OK);
    sqlite3_close(h);
    CHECK_INT(db_open(&d, path(file), NULL, &e), 0);
    again = deep_tally_rows(d);
    CHECK(again != NULL && json_equal(kept, again));
    json_decref(kept);
    json_decref(again);
    db_close(d);
}

static void test_offset_pages(void)
{
    struct err e = {0};
    db *d;
    CHECK_INT(db_open(&d, path("deep.db"), NULL, &e), 0);
    deep_pages(d);
    check_tally_recount(d, "deep.db");
}

int main(void)
{
    if (mkdtemp(dir) == NULL)
        return 1;
    RUN(test_summary_on_insert);
    RUN(test_migration_backfills);
    RUN(test_runs_page);
    RUN(test_offset_pages);
    return harness_report_removing(dir);
}
