/* The watch list's counts (judged, out) equal a count of the judgements
 * themselves at every step, although SQLite counts the judgements of runs
 * after a mark only when the list is read and folds them in every
 * FOLD_EVERY judgements (schema.sql migration 10): across folds, deletes on
 * both sides of the mark, run ids SQLite hands out again below the mark
 * after the newest runs were deleted, a rolled-back transaction that had
 * folded, a second connection, and a watch's delete. */
#include "db/db.h"
#include "db/history.h"
#include "db/runs.h"
#include "tests/harness.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char db_schema_sql[];

static char dir[] = "/tmp/prophecy-watch-counts-XXXXXX";
static char path[128];
static long long watch[3];
static int nwatch = 3;
static unsigned long long rng = 0x9E3779B97F4A7C15ull;

static unsigned next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng >> 11);
}

/* One run of the one configuration. */
static long long one_run(db *d)
{
    struct err e = {0};
    struct run_record r = {0};
    long long id = 0;
    int existed;

    r.application = "app";
    r.executable = "a.x";
    r.system = "sys";
    r.nprocs = 4;
    r.runtime = 1.0;
    r.submitter = "";
    CHECK_INT(db_runs_insert(d, &r, 1, &id, &existed, &e), 0);
    return id;
}

/* n runs, each judged by every watch (one in three out), inside the
 * caller's transaction when one is open. */
static void judged_runs(db *d, int n)
{
    struct err e = {0};
    for (int i = 0; i < n; i++) {
        struct db_judgement j[3];
        long long id = one_run(d), alerts[3];

        for (int k = 0; k < nwatch; k++) {
            memset(&j[k], 0, sizeof j[k]);
            j[k].watch_id = watch[k];
            j[k].run_id = id;
            j[k].value = 1.0;
            j[k].hi = 2.0;
            j[k].ready = 1;
            j[k].out = next() % 3 == 0;
        }
        CHECK_INT(db_judgements_add(d, j, (size_t)nwatch, alerts, &e), 0);
    }
}

static void committed(db *d, int n)
{
    struct err e = {0};
    CHECK_INT(db_begin(d, &e), 0);
    judged_runs(d, n);
    CHECK_INT(db_commit(d, &e), 0);
}

static int checks;

/* Every watch's judged and out in the list equal the judgements' own. */
static void counts_right(db *d, sqlite3 *h, const char *when)
{
    struct err e = {0};
    json_t *list = db_watches_list(d, &e), *w;
    sqlite3_stmt *st;
    size_t i;
    int bad = 0, seen = 0;

    CHECK(list != NULL);
    sqlite3_prepare_v2(h,
                       "SELECT count(*), coalesce(sum(out), 0) FROM judgements WHERE "
                       "watch_id = ?1",
                       -1, &st, NULL);
    json_array_foreach(list, i, w)
    {
        long long id = json_integer_value(json_object_get(w, "id"));
        sqlite3_bind_int64(st, 1, id);
        sqlite3_step(st);
        if (json_integer_value(json_object_get(w, "judged")) !=
                sqlite3_column_int64(st, 0) ||
            json_integer_value(json_object_get(w, "out")) !=
                sqlite3_column_int64(st, 1)) {
            fprintf(stderr, "%s: watch %lld lists %lld / %lld, has %lld / %lld\n", when,
                    id, json_integer_value(json_object_get(w, "judged")),
                    json_integer_value(json_object_get(w, "out")),
                    sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1));
            bad++;
        }
        sqlite3_reset(st);
        seen++;
    }
    sqlite3_finalize(st);
    CHECK_INT(bad, 0);
    CHECK_INT(seen, nwatch);
    checks++;
    json_decref(list);
}

static long long scalar(sqlite3 *h, const char *sql)
{
    sqlite3_stmt *st;
    long long v = -1;
    if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

static void test_counts_through_folds_deletes_and_rollbacks(void)
{
    struct err e = {0};
    sqlite3 *h;
    db *d, *other;
    long long upto, id;
    const char *tests[3] = {"zscore", "percent", "iqr"};

    CHECK_INT(db_open(&d, path, NULL, &e), 0);
    CHECK_INT(sqlite3_open(path, &h), SQLITE_OK);
    one_run(d); /* the application exists once it has a run */
    for (int k = 0; k < 3; k++) {
        struct db_watch w = {0};
        w.y = "runtime";
        w.test = tests[k];
        w.threshold = 3;
        w.window = 10;
        CHECK_INT(db_watch_add(d, &w, "app", NULL, NULL, &watch[k], &e), 0);
    }
    counts_right(d, h, "no judgement yet");
    /* the first judgements fold at once, then every 4,096 (1,366 runs) */
    committed(d, 1);
    counts_right(d, h, "one run");
    CHECK_INT(scalar(h, "SELECT run_id FROM watch_counts_upto"), 2);
    for (int round = 0; round < 8; round++) {
        committed(d, 500);
        counts_right(d, h, "after 500 more runs");
    }
    upto = scalar(h, "SELECT run_id FROM watch_counts_upto");
    CHECK(upto > 2);                                               /* it folded */
    CHECK(upto < scalar(h, "SELECT max(run_id) FROM judgements")); /* and has a rest */

    /* deletes on both sides of the mark */
    CHECK_INT(db_run_delete(d, upto - 7, &e), 0);
    CHECK_INT(db_run_delete(d, upto + 3, &e), 0);
    CHECK_INT(db_run_delete(d, 5, &e), 0);
    counts_right(d, h, "after deletes");

    /* the newest runs deleted down below the mark: SQLite hands their ids
     * out again, and the judgements of those runs count at once */
    id = scalar(h, "SELECT max(id) FROM runs");
    while (id > upto - 20) {
        CHECK_INT(db_run_delete(d, id, &e), 0);
        id = scalar(h, "SELECT max(id) FROM runs");
    }
    counts_right(d, h, "after the newest runs were deleted");
    committed(d, 10);
    CHECK(scalar(h, "SELECT max(id) FROM runs") < upto);
    counts_right(d, h, "runs below the mark");
    committed(d, 3000);
    counts_right(d, h, "past the mark again");

    /* a transaction that folded, rolled back */
    CHECK_INT(db_begin(d, &e), 0);
    judged_runs(d, 2000);
    db_rollback(d);
    counts_right(d, h, "after a rollback");
    committed(d, 700);
    counts_right(d, h, "after the rollback, more runs");

    /* another connection: its first judgements fold what this one left */
    CHECK_INT(db_open(&other, path, NULL, &e), 0);
    id = scalar(h, "SELECT max(id) FROM runs");
    committed(other, 5);
    counts_right(d, h, "another connection");
    CHECK_INT(scalar(h, "SELECT run_id FROM watch_counts_upto"), id + 1);
    db_close(other);

    /* a watch's delete */
    CHECK_INT(db_watch_delete(d, watch[1], &e), 0);
    watch[1] = watch[2];
    nwatch = 2;
    counts_right(d, h, "a watch deleted");
    committed(d, 50);
    counts_right(d, h, "a watch deleted, more runs");
    fprintf(stderr, "%d checks of the counts\n", checks);
    sqlite3_close(h);
    db_close(d);
}

/* Migration 10 on a database written at version 9, whose watch_counts
 * counted every judgement: the mark goes to the newest judged run, and the
 * counts stay right through new judgements and a delete of an old one. */
static void test_migration_10(void)
{
    const char *end = strstr(db_schema_sql, "-- migration 10");
    char *sql = strndup(db_schema_sql, (size_t)(end - db_schema_sql)), v9[200];
    struct err e = {0};
    sqlite3 *h;
    db *d;

    snprintf(v9, sizeof v9, "%s/v9.db", dir);
    CHECK_INT(sqlite3_open(v9, &h), SQLITE_OK);
    CHECK_INT(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
    CHECK_INT(
        sqlite3_exec(
            h,
            "INSERT INTO applications (id, name) VALUES (1, 'app');"
            "INSERT INTO executables (id, app_id, name) VALUES (1, 1, 'a.x');"
            "INSERT INTO systems (id, name) VALUES (1, 'sys');"
            "INSERT INTO run_configs (id, app_id, exe_id, system_id, nprocs, "
            "inputs, runs, sum_runtime, min_runtime, max_runtime, last_run_id) "
            "VALUES (1, 1, 1, 1, 4, '{}', 60, 60, 1, 1, 60);"
            "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE "
            "i < 60) INSERT INTO runs (id, app_id, exe_id, system_id, nprocs, "
            "runtime, created_at, config_id, at_ms) SELECT i, 1, 1, 1, 4, 1.0, "
            "'2026-01-01T00:00:00Z', 1, 1767225600000 + i FROM r;"
            "INSERT INTO watches (id, app_id, y, test, threshold, history) VALUES "
            "(1, 1, 'runtime', 'zscore', 3, 10), (2, 1, 'runtime', 'iqr', 1.5, 10);"
            "INSERT INTO judgements (run_id, watch_id, value, expected, lo, hi, "
            "ready, out, direction) SELECT r.id, w.id, 1, 1, 0, 2, 1, (r.id + w.id) "
            "% 5 = 0, 0 FROM runs r, watches w WHERE r.id <= 50;"
            "INSERT INTO watch_counts (watch_id, judged, out) SELECT watch_id, "
            "count(*), sum(out) FROM judgements GROUP BY watch_id;"
            "PRAGMA user_version = 9;",
            NULL, NULL, NULL),
        SQLITE_OK);
    free(sql);
    CHECK_INT(db_open(&d, v9, NULL, &e), 0);
    CHECK_INT(scalar(h, "PRAGMA user_version"), 10);
    CHECK_INT(scalar(h, "SELECT run_id FROM watch_counts_upto"), 50);
    watch[0] = 1;
    watch[1] = 2;
    nwatch = 2;
    counts_right(d, h, "migrated");
    committed(d, 30);
    counts_right(d, h, "migrated, more runs");
    CHECK_INT(db_run_delete(d, 7, &e), 0);
    CHECK_INT(db_run_delete(d, 50, &e), 0);
    counts_right(d, h, "migrated, old runs deleted");
    sqlite3_close(h);
    db_close(d);
}

int main(void)
{
    char cmd[200];
    int rc;
    if (mkdtemp(dir) == NULL)
        return 1;
    snprintf(path, sizeof path, "%s/w.db", dir);
    RUN(test_counts_through_folds_deletes_and_rollbacks);
    RUN(test_migration_10);
    rc = harness_report();
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        return 1;
    return rc;
}
