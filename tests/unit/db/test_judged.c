/* SQLite's packed judgements (schema.sql migration 11, db/codec.c),
 * read here by the format's description and not by its code:
 * - migration 11 packs every judgement row exactly (each field, x or none,
 *   both directions) and keeps the alerts;
 * - a run judged again later merges, a watch judging a run twice is a 409
 *   that changes nothing, a deleted watch's id is never handed out again,
 *   and a damaged row is a 500 naming the run;
 * - the watch list's counts (judged, out) equal a count of the judgements
 *   themselves at every step, although SQLite counts the judgements of runs
 * after a mark only when the list is read and folds them in every
 * FOLD_EVERY judged runs (schema.sql migration 10): across folds, deletes on
 * both sides of the mark, run ids SQLite hands out again below the mark
 * after the newest runs were deleted, a rolled-back transaction that had
 * folded, a second connection, and a watch's delete. */
#include "common/xalloc.h"
#include "common/xalloc_json.h"
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

/* ---- the packed rows, read by the format's description (db/codec.c)
 * and not by its code: every judgement of every run, in (run, watch) order. */
struct tj {
    long long run, watch;
    int flags;   /* 1 ready, 2 out, 4 up, 8 down, 16 has x */
    double v[6]; /* value, expected, lo, hi, score, x */
};

static unsigned long long varint(const unsigned char *p, size_t *o)
{
    unsigned long long v = 0;
    int shift = 0;
    while (p[*o] & 0x80) {
        v |= (unsigned long long)(p[(*o)++] & 0x7f) << shift;
        shift += 7;
    }
    return v | (unsigned long long)p[(*o)++] << shift;
}

static double le_double(const unsigned char *p)
{
    unsigned long long u = 0;
    double d;
    for (int i = 7; i >= 0; i--)
        u = u << 8 | p[i];
    memcpy(&d, &u, 8);
    return d;
}

static size_t all_judgements(sqlite3 *h, struct tj **out)
{
    sqlite3_stmt *st;
    size_t n = 0, cap = 0;
    *out = NULL;
    CHECK_INT(
        sqlite3_prepare_v2(h, "SELECT run_id, data FROM run_judgements ORDER BY run_id",
                           -1, &st, NULL),
        SQLITE_OK);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const unsigned char *p = sqlite3_column_blob(st, 1);
        size_t len = (size_t)sqlite3_column_bytes(st, 1), o = 1, at[4096];
        unsigned long long k, m, r;
        long long id = 0;
        CHECK_INT(p[0], 1);
        k = varint(p, &o);
        for (r = 0; r < k && r < 4096; r++) {
            at[r] = o;
            o += 1 + 8 * (p[o] & 16 ? 6 : 5);
        }
        m = varint(p, &o);
        for (unsigned long long i = 0; i < m; i++) {
            struct tj *t;
            size_t v;
            if (n == cap) {
                cap = cap ? 2 * cap : 1024;
                *out = realloc(*out, cap * sizeof **out);
            }
            t = &(*out)[n++];
            id += (long long)varint(p, &o);
            v = at[varint(p, &o)];
            t->run = sqlite3_column_int64(st, 0);
            t->watch = id;
            t->flags = p[v];
            for (int f = 0; f < 6; f++)
                t->v[f] = f < 5 || (p[v] & 16) ? le_double(p + v + 1 + 8 * f) : 0;
        }
        CHECK(o == len);
    }
    sqlite3_finalize(st);
    return n;
}

/* Every watch's judged and out in the list equal the judgements' own. */
static void counts_right(db *d, sqlite3 *h, const char *when)
{
    struct err e = {0};
    json_t *list = db_watches_list(d, &e), *w;
    struct tj *all;
    size_t i, nall = all_judgements(h, &all);
    int bad = 0, seen = 0;

    CHECK(list != NULL);
    json_array_foreach(list, i, w)
    {
        long long id = json_integer_value(json_object_get(w, "id")), judged = 0, out = 0;
        for (size_t k = 0; k < nall; k++)
            if (all[k].watch == id) {
                judged++;
                out += (all[k].flags & 2) != 0;
            }
        if (json_integer_value(json_object_get(w, "judged")) != judged ||
            json_integer_value(json_object_get(w, "out")) != out) {
            fprintf(stderr, "%s: watch %lld lists %lld / %lld, has %lld / %lld\n", when,
                    id, json_integer_value(json_object_get(w, "judged")),
                    json_integer_value(json_object_get(w, "out")), judged, out);
            bad++;
        }
        seen++;
    }
    free(all);
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
    /* the first judged run folds at once, then every FOLD_EVERY (4,096) runs */
    committed(d, 1);
    counts_right(d, h, "one run");
    CHECK_INT(scalar(h, "SELECT run_id FROM watch_counts_upto"), 2);
    for (int round = 0; round < 10; round++) {
        committed(d, 500);
        counts_right(d, h, "after 500 more runs");
    }
    upto = scalar(h, "SELECT run_id FROM watch_counts_upto");
    CHECK(upto > 2);                                                   /* it folded */
    CHECK(upto < scalar(h, "SELECT max(run_id) FROM run_judgements")); /* a rest */

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
    judged_runs(d, 4100); /* more than FOLD_EVERY: it folds inside */
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
/* A database written before `migration` (its schema.sql up to there) with
 * one configuration of nruns runs (ids 1..nruns), then the statements of
 * more; its user_version is set to the version before. */
static sqlite3 *old_database(const char *file, const char *migration, int nruns,
                             const char *more)
{
    const char *end = strstr(db_schema_sql, migration);
    char *sql = strndup(db_schema_sql, (size_t)(end - db_schema_sql)), fill[1024];
    sqlite3 *h;
    CHECK_INT(sqlite3_open(file, &h), SQLITE_OK);
    CHECK_INT(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
    free(sql);
    snprintf(fill, sizeof fill,
             "INSERT INTO applications (id, name) VALUES (1, 'app');"
             "INSERT INTO executables (id, app_id, name) VALUES (1, 1, 'a.x');"
             "INSERT INTO systems (id, name) VALUES (1, 'sys');"
             "INSERT INTO run_configs (id, app_id, exe_id, system_id, nprocs, "
             "inputs, runs, sum_runtime, min_runtime, max_runtime, last_run_id) "
             "VALUES (1, 1, 1, 1, 4, '{}', %d, %d, 1, 1, %d);"
             "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE "
             "i < %d) INSERT INTO runs (id, app_id, exe_id, system_id, nprocs, "
             "runtime, created_at, config_id, at_ms) SELECT i, 1, 1, 1, 4, 1.0, "
             "'2026-01-01T00:00:00Z', 1, 1767225600000 + i FROM r;"
             "PRAGMA user_version = %d;",
             nruns, nruns, nruns, nruns, atoi(migration + strlen("-- migration ")) - 1);
    CHECK_INT(sqlite3_exec(h, fill, NULL, NULL, NULL), SQLITE_OK);
    CHECK_INT(sqlite3_exec(h, more, NULL, NULL, NULL), SQLITE_OK);
    return h;
}

static void test_migration_10(void)
{
    char v9[200];
    struct err e = {0};
    sqlite3 *h;
    db *d;

    snprintf(v9, sizeof v9, "%s/v9.db", dir);
    h = old_database(
        v9, "-- migration 10", 60,
        "INSERT INTO watches (id, app_id, y, test, threshold, history) VALUES "
        "(1, 1, 'runtime', 'zscore', 3, 10), (2, 1, 'runtime', 'iqr', 1.5, 10);"
        "INSERT INTO judgements (run_id, watch_id, value, expected, lo, hi, "
        "ready, out, direction) SELECT r.id, w.id, 1, 1, 0, 2, 1, (r.id + w.id) "
        "% 5 = 0, 0 FROM runs r, watches w WHERE r.id <= 50;"
        "INSERT INTO watch_counts (watch_id, judged, out) SELECT watch_id, "
        "count(*), sum(out) FROM judgements GROUP BY watch_id;");
    CHECK_INT(db_open(&d, v9, NULL, &e), 0);
    CHECK_INT(scalar(h, "PRAGMA user_version"), db_schema_version());
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

/* A database at version 10 holding judgement rows of every shape. */
static sqlite3 *version_10(const char *file)
{
    return old_database(
        file, "-- migration 11", 40,
        "INSERT INTO watches (id, app_id, y, test, threshold, history) VALUES "
        "(2, 1, 'runtime', 'zscore', 3, 10), (5, 1, 'runtime', 'iqr', 1.5, 10),"
        "(300, 1, 'runtime', 'percent', 10, 10);"
        /* distinct values per run and watch; x on watch 300 only; a run
         * (7) judged by one watch, runs over 30 by none */
        "INSERT INTO judgements (run_id, watch_id, x, value, expected, lo, hi, "
        "score, ready, out, direction) SELECT r.id, w.id, CASE WHEN w.id = 300 "
        "THEN r.id * 0.5 END, r.id / 3.0, w.id + r.id / 7.0, -1e-300, 1e300, "
        "(r.id - w.id) / 9.0, r.id % 4 <> 0, (r.id + w.id) % 3 = 0, CASE (r.id + "
        "w.id) % 3 WHEN 0 THEN (r.id % 2) * 2 - 1 ELSE 0 END FROM runs r, watches w "
        "WHERE r.id <= 30 AND (r.id <> 7 OR w.id = 5);"
        "INSERT INTO watch_counts (watch_id, judged, out) SELECT watch_id, "
        "count(*), sum(out) FROM judgements GROUP BY watch_id;"
        "UPDATE watch_counts_upto SET run_id = 30;"
        "INSERT INTO alerts (id, run_id, watch_id, state, created_at, updated_at) "
        "SELECT run_id * 1000 + watch_id, run_id, watch_id, 'open', 'c', 'u' FROM "
        "judgements WHERE out = 1;");
}

/* Migration 11 packs the rows exactly: every field of every judgement, in
 * (run, watch) order, and the alerts stay as they were. */
static void test_migration_11(void)
{
    char file[200];
    struct err e = {0};
    struct tj *got;
    sqlite3_stmt *st;
    sqlite3 *h;
    size_t n, k = 0;
    long long alerts;
    db *d;

    snprintf(file, sizeof file, "%s/v10.db", dir);
    h = version_10(file);
    CHECK_INT(sqlite3_exec(h, "CREATE TEMP TABLE was AS SELECT * FROM judgements", NULL,
                           NULL, NULL),
              SQLITE_OK);
    alerts = scalar(h, "SELECT count(*) FROM alerts");
    CHECK(alerts > 10);
    CHECK_INT(db_open(&d, file, NULL, &e), 0);
    CHECK_INT(scalar(h, "PRAGMA user_version"), db_schema_version());
    CHECK_INT(scalar(h, "SELECT count(*) FROM sqlite_schema WHERE name = 'judgements'"),
              0);
    CHECK_INT(scalar(h, "SELECT last FROM watch_ids"), 300);
    CHECK_INT(scalar(h, "SELECT count(*) FROM alerts"), alerts);
    /* migration 12: every alert kept, each in its commit's (or run's) group */
    CHECK_INT(scalar(h, "SELECT count(*) FROM alerts WHERE group_id IS NULL"), 0);
    CHECK_INT(scalar(h, "SELECT count(*) FROM alert_groups"),
              scalar(h, "SELECT count(DISTINCT coalesce(r.vcs_commit, 'run' || r.id)) "
                        "FROM alerts al JOIN runs r ON r.id = al.run_id"));
    n = all_judgements(h, &got);
    CHECK_INT((long long)n, scalar(h, "SELECT count(*) FROM temp.was"));
    CHECK_INT(sqlite3_prepare_v2(h,
                                 "SELECT run_id, watch_id, x, value, expected, lo, hi, "
                                 "score, ready, out, direction FROM temp.was ORDER BY "
                                 "run_id, watch_id",
                                 -1, &st, NULL),
              SQLITE_OK);
    while (sqlite3_step(st) == SQLITE_ROW && k < n) {
        const struct tj *t = &got[k++];
        int sign = sqlite3_column_int(st, 10);
        int flags = (sqlite3_column_int(st, 8) ? 1 : 0) |
                    (sqlite3_column_int(st, 9) ? 2 : 0) | (sign > 0 ? 4 : 0) |
                    (sign < 0 ? 8 : 0) |
                    (sqlite3_column_type(st, 2) != SQLITE_NULL ? 16 : 0);
        CHECK_INT(t->run, sqlite3_column_int64(st, 0));
        CHECK_INT(t->watch, sqlite3_column_int64(st, 1));
        CHECK_INT(t->flags, flags);
        for (int f = 0; f < 5; f++)
            CHECK(t->v[f] == sqlite3_column_double(st, 3 + f));
        CHECK(t->v[5] == sqlite3_column_double(st, 2));
    }
    sqlite3_finalize(st);
    CHECK_INT((long long)k, (long long)n);
    free(got);
    watch[0] = 2;
    watch[1] = 5;
    watch[2] = 300;
    nwatch = 3;
    counts_right(d, h, "migration 11");
    sqlite3_close(h);
    db_close(d);
}

/* A run judged again merges with its row; a watch twice is a 409 that
 * leaves the row as it was; a deleted watch's id is not used again and its
 * judgements show nowhere; a damaged row is a 500 naming the run. */
static void test_merge_ids_and_damage(void)
{
    char file[200];
    struct err e = {0};
    struct db_judgement j = {0};
    struct db_watch w = {0};
    json_t *by_run, *cover = NULL, *list;
    sqlite3_stmt *st;
    unsigned char before[4096];
    int nbefore;
    long long alert, id;
    sqlite3 *h;
    db *d;

    snprintf(file, sizeof file, "%s/merge.db", dir);
    sqlite3_close(version_10(file));
    CHECK_INT(db_open(&d, file, NULL, &e), 0);
    CHECK_INT(sqlite3_open(file, &h), SQLITE_OK);

    /* run 7 had watch 5's judgement alone: watch 2 judges it now */
    j.run_id = 7;
    j.watch_id = 2;
    j.value = 42;
    j.ready = 1;
    CHECK_INT(db_begin(d, &e), 0);
    CHECK_INT(db_judgement_add(d, &j, &alert, &e), 0);
    CHECK_INT(db_commit(d, &e), 0);
    by_run = db_history_judgements(d, 1, &cover, &e);
    CHECK(by_run != NULL);
    CHECK_INT((long long)json_array_size(json_object_get(by_run, "7")), 2);
    CHECK_INT(json_integer_value(json_object_get(
                  json_array_get(json_object_get(by_run, "7"), 0), "watch")),
              2);
    json_decref(by_run);
    json_decref(cover);

    /* twice: 409, and the row unchanged */
    st = NULL;
    sqlite3_prepare_v2(h, "SELECT data FROM run_judgements WHERE run_id = 7", -1, &st,
                       NULL);
    CHECK_INT(sqlite3_step(st), SQLITE_ROW);
    nbefore = sqlite3_column_bytes(st, 0);
    memcpy(before, sqlite3_column_blob(st, 0), (size_t)nbefore);
    sqlite3_reset(st);
    j.value = 43;
    CHECK_INT(db_begin(d, &e), 0);
    CHECK_INT(db_judgement_add(d, &j, &alert, &e), -1);
    CHECK_INT(e.status, 409);
    CHECK_INT(db_commit(d, &e), 0);
    memset(&e, 0, sizeof e);
    CHECK_INT(sqlite3_step(st), SQLITE_ROW);
    CHECK_INT(sqlite3_column_bytes(st, 0), nbefore);
    CHECK(memcmp(sqlite3_column_blob(st, 0), before, (size_t)nbefore) == 0);
    sqlite3_finalize(st);

    /* the newest watch deleted: the next gets a new id and none of its
     * judgements (the list counts none, the series shows none) */
    CHECK_INT(db_watch_delete(d, 300, &e), 0);
    w.y = "runtime";
    w.test = "zscore";
    w.threshold = 3;
    w.window = 10;
    CHECK_INT(db_watch_add(d, &w, "app", NULL, NULL, &id, &e), 0);
    CHECK_INT(id, 301);
    list = db_watches_list(d, &e);
    CHECK(list != NULL);
    CHECK_INT(json_integer_value(json_object_get(json_array_get(list, 2), "id")), 301);
    CHECK_INT(json_integer_value(json_object_get(json_array_get(list, 2), "judged")), 0);
    json_decref(list);
    by_run = db_history_judgements(d, 1, &cover, &e);
    CHECK(by_run != NULL);
    CHECK_INT((long long)json_array_size(json_object_get(by_run, "1")), 2); /* 2 and 5 */
    json_decref(by_run);
    json_decref(cover);

    /* a damaged row */
    CHECK_INT(sqlite3_exec(h, "UPDATE run_judgements SET data = x'0102' WHERE run_id = 9",
                           NULL, NULL, NULL),
              SQLITE_OK);
    CHECK(db_history_judgements(d, 1, &cover, &e) == NULL);
    CHECK_INT(e.status, 500);
    CHECK(strstr(e.message, "judgements of run 9 are damaged") != NULL);

    /* any damage (a byte changed, the row cut short or made longer) answers
     * or is that 500, never a read outside the row (the sanitizer build
     * runs this too) */
    {
        sqlite3_stmt *get, *put;
        unsigned char good[4096], bad[4200];
        int len, answered = 0, refused = 0;
        CHECK_INT(sqlite3_exec(h, "DELETE FROM run_judgements WHERE run_id = 9", NULL,
                               NULL, NULL),
                  SQLITE_OK);
        sqlite3_prepare_v2(h, "SELECT data FROM run_judgements WHERE run_id = 10", -1,
                           &get, NULL);
        CHECK_INT(sqlite3_step(get), SQLITE_ROW);
        len = sqlite3_column_bytes(get, 0);
        CHECK(len > 20 && len < 4000);
        memcpy(good, sqlite3_column_blob(get, 0), (size_t)len);
        sqlite3_finalize(get);
        sqlite3_prepare_v2(h, "UPDATE run_judgements SET data = ?1 WHERE run_id = 10", -1,
                           &put, NULL);
        for (int i = 0; i < 3000; i++) {
            int n = len;
            memcpy(bad, good, (size_t)len);
            if (i % 3 == 0)
                bad[next() % (unsigned)len] = (unsigned char)next();
            else if (i % 3 == 1)
                n = (int)(next() % (unsigned)len);
            else
                for (int k = 0; k < 1 + (int)(next() % 64); k++)
                    bad[n++] = (unsigned char)next();
            sqlite3_bind_blob(put, 1, bad, n, SQLITE_STATIC);
            CHECK_INT(sqlite3_step(put), SQLITE_DONE);
            sqlite3_reset(put);
            memset(&e, 0, sizeof e);
            by_run = db_history_judgements(d, 1, &cover, &e);
            if (by_run != NULL) {
                answered++;
                json_decref(by_run);
                json_decref(cover);
            } else {
                refused++;
                CHECK_INT(e.status, 500);
            }
        }
        sqlite3_finalize(put);
        fprintf(stderr, "damaged rows: %d answered, %d refused\n", answered, refused);
        CHECK(refused > 1000);
    }
    sqlite3_close(h);
    db_close(d);
}

/* Every allocation of storing, merging and reading packed rows failing in
 * turn: an error (never a crash), and a failed store leaves the database as
 * it was (the sanitizer build also checks nothing leaks). */
static void test_out_of_memory(void)
{
    char file[200];
    struct err e = {0};
    db *d;
    sqlite3 *h;
    int fails = 0;

    snprintf(file, sizeof file, "%s/oom.db", dir);
    sqlite3_close(version_10(file));
    CHECK_INT(db_open(&d, file, NULL, &e), 0);
    CHECK_INT(sqlite3_open(file, &h), SQLITE_OK);
    for (long nth = 1; nth < 200; nth++) {
        /* run 35 gets watches 300 and 2 (unsorted: the sorting copy), then
         * 5 merges into it */
        struct db_judgement j[2] = {
            {.watch_id = 300, .run_id = 35, .value = 1, .ready = 1},
            {.watch_id = 2, .run_id = 35, .value = 2, .ready = 1}};
        struct db_judgement m = {.watch_id = 5, .run_id = 35, .value = 3, .ready = 1};
        long long alerts[2], n0 = scalar(h, "SELECT count(*) FROM run_judgements");
        json_t *cover = NULL, *by_run, *list;
        int rc;

        memset(&e, 0, sizeof e);
        CHECK_INT(db_begin(d, &e), 0);
        xalloc_fail_at(nth);
        rc = db_judgements_add(d, j, 2, alerts, &e);
        if (rc == 0)
            rc = db_judgements_add(d, &m, 1, alerts, &e);
        by_run = rc == 0 ? db_history_judgements(d, 1, &cover, &e) : NULL;
        list = by_run != NULL ? db_watches_list(d, &e) : NULL;
        xalloc_fail_at(0);
        db_rollback(d);
        CHECK_INT(scalar(h, "SELECT count(*) FROM run_judgements"), n0);
        if (list == NULL) {
            fails++;
            CHECK(e.status != 0);
        }
        json_decref(by_run);
        json_decref(cover);
        json_decref(list);
        if (list != NULL)
            break;
    }
    fprintf(stderr, "%d allocations failed in turn\n", fails);
    CHECK(fails > 5);
    sqlite3_close(h);
    db_close(d);
}

int main(void)
{
    xalloc_json(); /* fault injection reaches Jansson too */
    if (mkdtemp(dir) == NULL)
        return 1;
    snprintf(path, sizeof path, "%s/w.db", dir);
    RUN(test_counts_through_folds_deletes_and_rollbacks);
    RUN(test_migration_10);
    RUN(test_migration_11);
    RUN(test_merge_ids_and_damage);
    RUN(test_out_of_memory);
    return harness_report_removing(dir);
}
