/* Unit tests of the PostgreSQL backend (db/pg/) against a live private
 * cluster (the ctest fixture of tests/pg/cluster.py; PROPHECY_TEST_PG names
 * its state file): the cases only a second concurrent server can produce.
 *
 * - two connections storing the same client id at once store one run, and
 *   both get its id (the second waits for the first's commit);
 * - two connections creating the same new application at once make one;
 * - a writer job whose third run breaks a constraint rolls back all three
 *   while the other job of its batch commits, and the violation is a 409;
 * - single runs committed together add to their configurations' summaries
 *   and their applications' names once, at the commit, exactly what their
 *   runs say, also when a job of the group fails after storing its run;
 *   summed in C from what was inserted, with savepoints rolled back, runs
 *   repeated and names that need quoting, they equal what SQL recomputes
 *   from the stored rows;
 * - an application deleted by another connection after this one stored a
 *   run of it is looked up (and created) again for the next run;
 * - a transaction's watch version is read with its first runs, once;
 * - a run's doubles, names, kernels and tags read back exactly as sent;
 * - two servers starting together on a new database migrate it once;
 * - the canonical inputs text is SQLite's json_group_object text, byte for
 *   byte (the key of run_configs on both engines);
 * - deep offset pages found from run_tally are the plain OFFSET answer
 *   (tests/unit/db/deep_pages.h), and migration 17's backfill in
 *   PostgreSQL's SQL gives the counts the store kept.
 *
 * Without a cluster it prints why and exits 77 (ctest: skipped).
 */
#include "common/buf.h"
#include "common/xalloc.h"
#include "db/catalog.h"
#include "db/history.h"
#include "db/pg/pg.h"
#include "db/runs.h"
#include "db/summary.h"
#include "db/tally.h"
#include "db/writer.h"
#include "tests/harness.h"
#include "tests/writer_gate.h"
#include "tests/unit/db/deep_pages.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char base[512]; /* the cluster's URI up to the database name */

static int read_base(void)
{
    const char *state = getenv("PROPHECY_TEST_PG");
    char text[2048], *p, *q;
    size_t n;
    FILE *f;

    if (state == NULL || (f = fopen(state, "r")) == NULL)
        return -1;
    n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    p = strstr(text, "\"uri\": \"");
    if (p == NULL)
        return -1;
    p += strlen("\"uri\": \"");
    q = strchr(p, '"');
    if (q == NULL || (size_t)(q - p) >= sizeof base)
        return -1;
    memcpy(base, p, (size_t)(q - p));
    base[q - p] = '\0';
    return 0;
}

/* A new empty database; its URI into uri. */
static int new_database(char *uri, size_t size)
{
    static int count;
    char admin[600], sql[128], name[64];
    PGconn *c;
    PGresult *r;
    int ok;

    snprintf(name, sizeof name, "unit%ld_%d_%ld", (long)getpid(), ++count,
             (long)time(NULL) % 100000);
    snprintf(admin, sizeof admin, "%spostgres", base);
    c = PQconnectdb(admin);
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", name);
    r = PQexec(c, sql);
    ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!ok)
        fprintf(stderr, "CREATE DATABASE: %s", PQerrorMessage(c));
    PQclear(r);
    PQfinish(c);
    snprintf(uri, size, "%s%s", base, name);
    return ok ? 0 : -1;
}

static struct run_record make_run(const char *uid, const char *app, long long np,
                                  double rt)
{
    static struct rec_kv in[2] = {{"N", 1000}, {"L", 0.5}};
    static struct rec_kernel k[1] = {{"a", 1.0, 1, NULL}};
    struct run_record r = {0};
    r.uid = uid;
    r.application = app;
    r.executable = "exe";
    r.system = "sys";
    r.nprocs = np;
    r.runtime = rt;
    r.inputs = in;
    r.ninputs = 2;
    r.kernels = k;
    r.nkernels = 1;
    return r;
}

static long long count(db *d, const char *what)
{
    static const char runs[] = "SELECT count(*) FROM runs";
    static const char apps[] = "SELECT count(*) FROM applications";
    static const char configs[] =
        "SELECT coalesce(sum(runs), 0)::bigint FROM run_configs";
    struct err e = {0};
    long long n = -1;
    const char *sql = strcmp(what, "runs") == 0   ? runs
                      : strcmp(what, "apps") == 0 ? apps
                                                  : configs;
    if (pg_scalar(d, &n, sql, &e, "") < 0)
        fprintf(stderr, "count %s: %s\n", what, e.message);
    return n;
}

/* ---- two connections, one client id ------------------------------------- */

struct racer {
    const char *uri;
    const char *uid, *app;
    double runtime;
    int hold_ms; /* keep the transaction open this long after inserting */
    pthread_mutex_t *lock;
    pthread_cond_t *cond;
    int *inserted; /* set by the first racer once its insert is done */
    long long id;
    int existed, rc;
    struct err err;
};

static void *race(void *arg)
{
    struct racer *x = arg;
    struct run_record r = make_run(x->uid, x->app, 4, x->runtime);
    db *d = NULL;

    x->rc = -1;
    if (db_open(&d, x->uri, NULL, &x->err) != 0) {
        if (x->hold_ms > 0) { /* never leave the other racer waiting */
            pthread_mutex_lock(x->lock);
            *x->inserted = 1;
            pthread_cond_broadcast(x->cond);
            pthread_mutex_unlock(x->lock);
        }
        return NULL;
    }
    if (x->hold_ms == 0) { /* the second racer: start once the first inserted */
        pthread_mutex_lock(x->lock);
        while (!*x->inserted)
            pthread_cond_wait(x->cond, x->lock);
        pthread_mutex_unlock(x->lock);
    }
    if (db_begin(d, &x->err) == 0 &&
        db_runs_insert(d, &r, 1, &x->id, &x->existed, &x->err) == 0) {
        if (x->hold_ms > 0) {
            pthread_mutex_lock(x->lock);
            *x->inserted = 1;
            pthread_cond_broadcast(x->cond);
            pthread_mutex_unlock(x->lock);
            usleep((useconds_t)x->hold_ms * 1000);
        }
        x->rc = db_commit(d, &x->err);
    }
    if (x->rc != 0) {
        db_rollback(d);
        if (x->hold_ms > 0) { /* never leave the other racer waiting */
            pthread_mutex_lock(x->lock);
            *x->inserted = 1;
            pthread_cond_broadcast(x->cond);
            pthread_mutex_unlock(x->lock);
        }
    }
    db_close(d);
    return NULL;
}

static void run_race(const char *uri, const char *uid1, const char *uid2, const char *app,
                     struct racer *a, struct racer *b)
{
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
    pthread_t ta, tb;
    int inserted = 0;

    memset(a, 0, sizeof *a);
    memset(b, 0, sizeof *b);
    a->uri = b->uri = uri;
    a->uid = uid1;
    b->uid = uid2;
    a->app = b->app = app;
    a->runtime = b->runtime = 2.5;
    a->hold_ms = 300;
    a->lock = b->lock = &lock;
    a->cond = b->cond = &cond;
    a->inserted = b->inserted = &inserted;
    pthread_create(&ta, NULL, race, a);
    pthread_create(&tb, NULL, race, b);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
}

static void test_same_uid_from_two_connections(void)
{
    struct racer a, b;
    struct err e = {0};
    char uri[600];
    db *d;

    CHECK_INT(new_database(uri, sizeof uri), 0);
    run_race(uri, "race-1", "race-1", "racing", &a, &b);
    CHECK_INT(a.rc, 0);
    CHECK_INT(b.rc, 0);
    if (a.rc != 0 || b.rc != 0)
        fprintf(stderr, "racers: %s / %s\n", a.err.message, b.err.message);
    CHECK_INT(a.existed, 0);
    CHECK_INT(b.existed, 1); /* waited for a's commit, then found its run */
    CHECK_INT(b.id, a.id);
    CHECK_INT(db_open(&d, uri, NULL, &e), 0);
    CHECK_INT(count(d, "runs"), 1);
    CHECK_INT(count(d, "configs"), 1);
    db_close(d);
}

static void test_same_new_name_from_two_connections(void)
{
    struct racer a, b;
    struct err e = {0};
    char uri[600];
    db *d;

    CHECK_INT(new_database(uri, sizeof uri), 0);
    run_race(uri, "name-1", "name-2", "brand new", &a, &b);
    CHECK_INT(a.rc, 0);
    CHECK_INT(b.rc, 0);
    CHECK_INT(a.existed, 0);
    CHECK_INT(b.existed, 0);
    CHECK(a.id != b.id);
    CHECK_INT(db_open(&d, uri, NULL, &e), 0);
    CHECK_INT(count(d, "runs"), 2);
    CHECK_INT(count(d, "apps"), 1);
    CHECK_INT(count(d, "configs"), 2);
    CHECK_INT(db_summary_count(d, db_app_id(d, "brand new", 0, &e), 0, 0, &e), 2);
    db_close(d);
}

/* ---- all-or-nothing batches ---------------------------------------------- */

static int store_three(db *d, void *arg, struct err *err)
{
    struct run_record r[3];
    long long ids[3];
    int existed[3];
    int bad = arg != NULL;
    r[0] = make_run(bad ? "b-1" : "g-1", "batch", 2, 1.0);
    r[1] = make_run(bad ? "b-2" : "g-2", "batch", 4, 2.0);
    r[2] = make_run(bad ? "b-3" : "g-3", "batch", bad ? 0 : 8, 3.0); /* nprocs >= 1 */
    return db_runs_insert(d, r, 3, ids, existed, err);
}

static void test_batch_with_a_bad_run_rolls_back(void)
{
    struct db_job bad = {0}, good = {0};
    struct err e = {0};
    db_writer *w;
    char uri[600];
    arena *a;
    db *d;
    struct db_run_filter f = {0};
    struct db_run_row *rows;

    CHECK_INT(new_database(uri, sizeof uri), 0);
    CHECK_INT(db_writer_start(&w, uri, NULL, 10, &e), 0);
    bad.fn = store_three;
    bad.arg = &bad;
    bad.done = gate_job_done;
    good.fn = store_three;
    good.done = gate_job_done;
    /* Both queued before the thread wakes usually share one transaction;
     * either way the outcome is the same. */
    CHECK_INT(db_writer_submit(w, &bad), 0);
    CHECK_INT(db_writer_run(w, &good), 0);
    db_writer_stop(w);
    CHECK_INT(bad.rc, -1);
    CHECK_INT(bad.err.status, ERR_CONFLICT);
    CHECK_STR(bad.err.code, "conflict");
    CHECK_INT(good.rc, 0);

    CHECK_INT(db_open(&d, uri, NULL, &e), 0);
    a = arena_new();
    f.limit = 100;
    CHECK_INT(db_runs_list(d, &f, a, &rows, &e), 3);
    CHECK_STR(rows[0].run.uid, "g-1");
    CHECK_INT(count(d, "configs"), 3);
    arena_free(a);
    db_close(d);
}

/* ---- sums at the commit, names kept between runs -------------------------- */

/* Each configuration's summary and each application's kernel and metric
 * names against what the runs say (as tests/api/test_runs.py's queries). */
static const char SQL_MISMATCHES[] =
    "SELECT (SELECT count(*) FROM run_configs c WHERE "
    "c.runs <> (SELECT count(*) FROM runs r WHERE r.config_id = c.id) "
    "OR c.timed <> (SELECT count(r.runtime) FROM runs r WHERE r.config_id = c.id) "
    "OR abs(c.sum_runtime - (SELECT coalesce(sum(r.runtime), 0) FROM runs r "
    "WHERE r.config_id = c.id)) > 1e-9 * (1 + abs(c.sum_runtime)) "
    "OR c.min_runtime IS DISTINCT FROM (SELECT min(r.runtime) FROM runs r "
    "WHERE r.config_id = c.id) "
    "OR c.max_runtime IS DISTINCT FROM (SELECT max(r.runtime) FROM runs r "
    "WHERE r.config_id = c.id) "
    "OR c.last_run_id <> (SELECT max(r.id) FROM runs r WHERE r.config_id = c.id)) + "
    "(SELECT count(*) FROM app_kernels ak WHERE ak.records <> (SELECT count(*) "
    "FROM kernels k JOIN runs r ON r.id = k.run_id WHERE r.app_id = ak.app_id AND "
    "k.name = ak.name)) + "
    "(SELECT count(*) FROM (SELECT DISTINCT r.app_id, k.name FROM kernels k JOIN runs r "
    "ON r.id = k.run_id) x WHERE NOT EXISTS (SELECT 1 FROM app_kernels ak WHERE "
    "ak.app_id = x.app_id AND ak.name = x.name)) + "
    "(SELECT count(*) FROM runs WHERE config_id IS NULL)";

struct one_run {
    struct run_record r;
    char uid[32];
    long long id;
    int existed, fail_after; /* fail_after: the job fails once its run is stored */
    struct db_job job;
};

static int store_one(db *d, void *arg, struct err *err)
{
    struct one_run *o = arg;
    if (db_runs_insert(d, &o->r, 1, &o->id, &o->existed, err) != 0)
        return -1;
    if (o->fail_after)
        return err_set(err, ERR_INTERNAL, "internal", NULL, "a hook failed");
    return 0;
}

static void test_group_commit_adds_sums_once(void)
{
    enum { N = 24 };
    static struct rec_kernel k[3] = {
        {"a", 1.0, 1, NULL}, {"b", 2.0, 1, NULL}, {"a", 0.5, 2, NULL}};
    struct one_run *o = xcalloc(N, sizeof *o);
    struct db_job gate;
    struct err e = {0};
    long commits, jobs;
    long long bad = -1, n = -1, runs = -1, recs = -1;
    db_writer *w;
    char uri[600];
    db *d;
    int i;

    CHECK(o != NULL);
    CHECK_INT(new_database(uri, sizeof uri), 0);
    CHECK_INT(db_writer_start(&w, uri, NULL, 64, &e), 0);
    CHECK_INT(gate_submit(w, &gate), 0);
    for (i = 0; i < N; i++) {
        /* three configurations; every fifth run without a runtime; the one
         * before last repeats run 1 (stored in the same transaction) */
        int like = i == N - 2 ? 1 : i;
        snprintf(o[i].uid, sizeof o[i].uid, "grp-%d", like);
        o[i].r = make_run(o[i].uid, like % 2 ? "group" : "group2", 1 << (like % 3),
                          like % 5 == 0 ? NAN : 0.25 * like);
        o[i].r.kernels = k;
        o[i].r.nkernels = 3;
        o[i].fail_after = i == 7;
        o[i].job.fn = store_one;
        o[i].job.arg = &o[i];
        o[i].job.done = gate_job_done;
        if (i < N - 1)
            CHECK_INT(db_writer_submit(w, &o[i].job), 0);
    }
    CHECK_INT(db_writer_run(w, &o[N - 1].job), 0); /* done in order: all are */
    db_writer_stats(w, &commits, &jobs);
    db_writer_stop(w);
    CHECK_INT(jobs, N + 1);
    CHECK(commits <= 3); /* the gate, then the others together */
    for (i = 0; i < N; i++)
        CHECK_INT(o[i].job.rc, i == 7 ? -1 : 0);
    CHECK_INT(o[N - 2].existed, 1);
    CHECK_INT(o[N - 2].id, o[1].id);

    CHECK_INT(db_open(&d, uri, NULL, &e), 0);
    CHECK_INT(pg_scalar(d, &bad, SQL_MISMATCHES, &e, ""), 1);
    CHECK_INT(bad, 0);
    CHECK_INT(pg_scalar(d, &n, "SELECT count(*) FROM runs", &e, ""), 1);
    CHECK_INT(n, N - 2);
    CHECK_INT(pg_scalar(d, &runs, "SELECT sum(runs)::bigint FROM run_configs", &e, ""),
              1);
    CHECK_INT(runs, N - 2);
    /* kernel "a" twice a run: 22 runs, 44 records */
    CHECK_INT(pg_scalar(d, &recs,
                        "SELECT sum(records)::bigint FROM app_kernels WHERE name = 'a'",
                        &e, ""),
              1);
    CHECK_INT(recs, 2 * (N - 2));
    db_close(d);
    xfree(o);
}

/* The name of the writer connection's prepared statement whose text starts
 * with head (no quote in it), or "" */
static void statement_named(db *d, const char *head, char *name, size_t size)
{
    char sql[256];
    PGresult *r;
    snprintf(sql, sizeof sql,
             "SELECT name FROM pg_prepared_statements WHERE statement LIKE '%s%%'", head);
    r = PQexec(pg_conn(d), sql);
    snprintf(name, size, "%s",
             PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1
                 ? PQgetvalue(r, 0, 0)
                 : "");
    PQclear(r);
}

/* What a transaction's runs add to the sums (four statements at its commit,
 * from arrays summed in C) is planned once per connection, not at every
 * commit (a custom plan each time was 30 % of the writer backend's CPU when
 * they read the new runs; the UPDATE of run_configs, a join, would still be
 * planned anew), and the plan made on a new, nearly empty database finds
 * the configurations by key; none of them reads runs, kernels or metrics. */
static void test_sums_are_planned_once_by_key(void)
{
    static const char *const heads[4] = {
        "UPDATE run_configs", "INSERT INTO app_kernels", "INSERT INTO app_metrics",
        "INSERT INTO run_tally (app_id, kind, k, exe_id, system_id, blk, runs) SELECT"};
    static const char *const args[4] = {
        "('{1}', '{1}', '{1}', '{1.5}', '{1.5}', '{1.5}', "
        "'{1}')",
        "('{1}', '{a}', '{1}', '{0}')", "('{1}', '{m}')",
        "('{1}', '{0}', '{0}', '{1}', '{1}', '{0}', '{1}')"};
    struct err e = {0};
    long long custom = -1, generic = -1;
    char uri[600], uid[32], name[64], settings[64], sql[512];
    db *d;
    int i;

    CHECK_INT(new_database(uri, sizeof uri), 0);
    CHECK_INT(db_open(&d, uri, NULL, &e), 0);
    for (i = 0; i < 12; i++) {
        static struct rec_kv m[1] = {{"m", 1}};
        struct run_record r;
        long long id;
        int existed;
        snprintf(uid, sizeof uid, "plan-%d", i);
        r = make_run(uid, "plans", 1 + i % 2, 1.0 + i);
        r.metrics = m;
        r.nmetrics = 1;
        CHECK_INT(db_begin(d, &e), 0);
        CHECK_INT(db_runs_insert(d, &r, 1, &id, &existed, &e), 0);
        CHECK_INT(db_commit(d, &e), 0);
    }
    CHECK_INT(
        pg_scalar(d, &custom,
                  "SELECT coalesce(sum(custom_plans), -1)::bigint FROM "
                  "pg_prepared_statements WHERE statement LIKE 'UPDATE run_configs%' "
                  "OR statement LIKE 'INSERT INTO app_kernels%' OR statement LIKE "
                  "'INSERT INTO app_metrics%' OR statement LIKE 'INSERT INTO "
                  "run_tally (app_id, kind, k, exe_id, system_id, blk, runs) SELECT%'",
                  &e, ""),
        1);
    CHECK_INT(custom, 0);
    CHECK_INT(pg_scalar(d, &generic,
                        "SELECT min(generic_plans)::bigint FROM pg_prepared_statements "
                        "WHERE statement LIKE 'UPDATE run_configs%' OR statement LIKE "
                        "'INSERT INTO app_kernels%' OR statement LIKE "
                        "'INSERT INTO app_metrics%'",
                        &e, ""),
              1);
    CHECK_INT(generic, 12);
    /* the plans made: under the same settings, as each commit runs them */
    statement_named(d, "SELECT set_config(", settings, sizeof settings);
    CHECK(settings[0] != '\0');
    for (i = 0; i < 4; i++) {
        PGresult *r;
        struct buf plan;
        const char *p;
        int row;
        statement_named(d, heads[i], name, sizeof name);
        CHECK(name[0] != '\0');
        snprintf(sql, sizeof sql, "BEGIN; EXECUTE %s; EXPLAIN EXECUTE %s%s", settings,
                 name, args[i]);
        r = PQexec(pg_conn(d), sql);
        CHECK_INT(PQresultStatus(r), PGRES_TUPLES_OK);
        buf_init(&plan, 1 << 16);
        for (row = 0; row < PQntuples(r); row++)
            buf_printf(&plan, "%s\n", PQgetvalue(r, row, 0));
        p = buf_str(&plan);
        if (i == 0)
            CHECK(strstr(p, "Index Scan using run_configs_pkey") ||
                  strstr(p, "Bitmap Index Scan on run_configs_pkey"));
        CHECK(strstr(p, "Function Scan on unnest") || strstr(p, "Function Scan on x"));
        if (strstr(p, "Seq Scan") || strstr(p, "Hash Join") || strstr(p, " on runs") ||
            strstr(p, " on kernels") || strstr(p, " on run_metrics"))
            fprintf(stderr, "%s", p);
        CHECK(strstr(p, "Seq Scan") == NULL);
        CHECK(strstr(p, "Hash Join") == NULL);
        CHECK(strstr(p, " on runs") == NULL);
        CHECK(strstr(p, " on kernels") == NULL);
        CHECK(strstr(p, " on run_metrics") == NULL);
        buf_free(&plan);
        PQclear(r);
        PQclear(PQexec(pg_conn(d), "ROLLBACK"));
    }
    db_close(d);
}

/* ---- the commit's sums, added up in C from what was inserted ----------- */

/* The rows of run_configs, app_kernels and app_metrics that differ from
 * what the stored runs say, recomputed here by SQL (sum_runtime exactly:
 * the test's runtimes are sums of powers of two, exact in any order). */
static const char SQL_SUMS_DIFFER[] =
    "SELECT (SELECT count(*) FROM run_configs c FULL JOIN (SELECT config_id, count(*) "
    "AS n, count(runtime) AS timed, coalesce(sum(runtime), 0) AS total, min(runtime) "
    "AS lo, max(runtime) AS hi, max(id) AS last FROM runs GROUP BY config_id) x ON "
    "x.config_id = c.id WHERE (c.runs, c.timed, c.sum_runtime, c.min_runtime, "
    "c.max_runtime, c.last_run_id) IS DISTINCT FROM (coalesce(x.n, 0), "
    "coalesce(x.timed, 0), coalesce(x.total, 0), x.lo, x.hi, coalesce(x.last, 0))) + "
    "(SELECT count(*) FROM app_kernels a FULL JOIN (SELECT r.app_id, k.name, count(*) "
    "AS n, min(k.seq) AS first FROM kernels k JOIN runs r ON r.id = k.run_id GROUP BY "
    "r.app_id, k.name) x ON x.app_id = a.app_id AND x.name = a.name WHERE "
    "(a.records, a.first_seq) IS DISTINCT FROM (x.n, x.first)) + "
    "(SELECT count(*) FROM app_metrics a FULL JOIN (SELECT DISTINCT r.app_id, m.name "
    "FROM run_metrics m JOIN runs r ON r.id = m.run_id) x ON x.app_id = a.app_id AND "
    "x.name = a.name WHERE a.name IS NULL OR x.name IS NULL)";

/* Stores runs[n] in one call; the ids into ids. */
static void store(db *d, struct run_record *runs, size_t n, long long *ids, int *existed)
{
    struct err e = {0};
    if (db_runs_insert(d, runs, n, ids, existed, &e) != 0)
        fprintf(stderr, "store: %s\n", e.message);
    CHECK_INT(e.status, 0);
}

/* Stores runs[n] in one call between a savepoint and its release, rolled
 * back to the savepoint first with rollback (a writer job's failure). */
static void store_job(db *d, struct run_record *runs, size_t n, long long *ids,
                      int *existed, int rollback)
{
    struct err e = {0};
    CHECK_INT(db_savepoint(d, DB_SAVEPOINT_SET, &e), 0);
    store(d, runs, n, ids, existed);
    if (rollback)
        CHECK_INT(db_savepoint(d, DB_SAVEPOINT_ROLLBACK, &e), 0);
    CHECK_INT(db_savepoint(d, DB_SAVEPOINT_RELEASE, &e), 0);
}

/* Configuration (app, nprocs)'s summary is n[3] (runs, timed, last_run_id)
 * and v[3] (sum, min and max runtime; NAN for NULL), exactly. */
static void check_config(db *d, const char *app, long long nprocs, const long long n[3],
                         const double v[3])
{
    struct err e = {0};
    PGresult *r = pg_params(d,
                            "SELECT c.runs, c.timed, c.last_run_id, c.sum_runtime, "
                            "c.min_runtime, c.max_runtime FROM run_configs c JOIN "
                            "applications a ON a.id = c.app_id WHERE a.name = $1 AND "
                            "c.nprocs = $2",
                            &e, "ti", app, nprocs);
    CHECK(r != NULL && PQntuples(r) == 1);
    for (int k = 0; r != NULL && PQntuples(r) == 1 && k < 3; k++) {
        double got = pg_null(r, 0, 3 + k) ? NAN : pg_dbl(r, 0, 3 + k);
        CHECK_INT(pg_ll(r, 0, k), n[k]);
        if (!(got == v[k] || (isnan(got) && isnan(v[k]))))
            CHECK_NEAR(got, v[k], 0);
    }
    PQclear(r);
}

/* A kernel name's records and first_seq in app are records and first
 * (records 0: it has no row). */
static void check_kernel(db *d, const char *app, const char *name, long long records,
                         long long first)
{
    struct err e = {0};
    PGresult *r = pg_params(d,
                            "SELECT k.records, k.first_seq FROM app_kernels k JOIN "
                            "applications a ON a.id = k.app_id WHERE a.name = $1 AND "
                            "k.name = $2",
                            &e, "tt", app, name);
    CHECK(r != NULL);
    CHECK_INT(r ? PQntuples(r) : -1, records > 0);
    if (r != NULL && PQntuples(r) == 1) {
        CHECK_INT(pg_ll(r, 0, 0), records);
        CHECK_INT(pg_ll(r, 0, 1), first);
    }
    PQclear(r);
}

/* run_tally as the store kept it equals what migration 17's backfill
 * recomputes in SQL from the stored runs: back to version 16 without the
 * table, *d opened again runs migration 17. */
static void tally_is_backfills(db **d, const char *uri)
{
    struct err e = {0};
    json_t *kept = deep_tally_rows(*d), *again;
    CHECK(kept != NULL && json_array_size(kept) > 0);
    CHECK(dq_run(*d, "DROP TABLE run_tally", &e, "") >= 0);
    CHECK(dq_run(*d, "UPDATE prophecy_schema SET version = 16", &e, "") >= 0);
    db_close(*d);
    CHECK_INT(db_open(d, uri, NULL, &e), 0);
    again = deep_tally_rows(*d);
    CHECK(again != NULL && json_equal(kept, again));
    json_decref(kept);
    json_decref(again);
}

/* What a transaction's new runs add to run_configs, app_kernels,
 * app_metrics and run_tally is summed in C from what the store inserted
 * (db/pg/runs.c sums_text): several runs of several configurations in
 * jobs with savepoints, one job rolled back, a run repeated, kernels
 * repeated in and across runs, names that need quoting in an array; then
 * a second transaction adding to the same rows, and a run stored outside
 * any transaction. Everything equals what SQL recomputes from the stored
 * rows, and the figures worked out here by hand. */
static void test_commit_sums_are_the_stored_runs(void)
{
    static struct rec_kernel k1[4] = {
        {"a", 1, 1, NULL}, {"b", 1, 1, NULL}, {"a", 1, 1, NULL}, {"d", 1, 1, NULL}};
    static struct rec_kernel k2[2] = {{"q\"u,o\\te {NULL}", 1, 1, NULL},
                                      {"b", 1, 1, NULL}};
    static struct rec_kernel k3[1] = {{"c", 1, 1, NULL}};
    static struct rec_kernel k4[2] = {{"z", 1, 1, NULL}, {"a", 1, 1, NULL}};
    static struct rec_kernel k6[2] = {{"c", 1, 1, NULL}, {"d", 1, 1, NULL}};
    static struct rec_kernel k8[2] = {{"a", 1, 1, NULL}, {"c", 1, 1, NULL}};
    static struct rec_kernel k9[1] = {{"d", 1, 1, NULL}};
    static struct rec_kv m1[2] = {{"m1", 1}, {"m2", 2}}, m2[1] = {{"m1", 3}},
                         m3[1] = {{"NULL", 4}}, m4[1] = {{"gone", 5}};
    struct run_record r[12];
    long long id[12] = {0}, bad = -1;
    int existed[12] = {0};
    char uri[600];
    struct err e = {0};
    db *d;

    r[1] = make_run("sum-1", "sums", 2, 1.25);
    r[1].kernels = k1, r[1].nkernels = 4, r[1].metrics = m1, r[1].nmetrics = 2;
    r[2] = make_run("sum-2", "sums", 2, NAN);
    r[2].kernels = k2, r[2].nkernels = 2, r[2].metrics = m2, r[2].nmetrics = 1;
    r[3] = make_run("sum-3", "sums", 4, 0.5);
    r[3].kernels = k3, r[3].nkernels = 1, r[3].metrics = m3, r[3].nmetrics = 1;
    r[4] = make_run("sum-4", "sums", 4, 8); /* rolled back, with r[5] */
    r[4].kernels = k4, r[4].nkernels = 2, r[4].metrics = m4, r[4].nmetrics = 1;
    r[5] = make_run("sum-5", "sums-gone", 2, 3);
    r[6] = make_run("sum-6", "sums", 4, 0.75);
    r[6].kernels = k6, r[6].nkernels = 2;
    r[7] = r[1]; /* the same run again: stored once, counted once */
    r[8] = make_run("sum-8", "sums-other", 2, 2);
    r[8].kernels = k8, r[8].nkernels = 2, r[8].metrics = m2, r[8].nmetrics = 1;
    r[9] = make_run("sum-9", "sums", 2, 0.25);
    r[9].kernels = k9, r[9].nkernels = 1;
    r[10] = make_run("sum-10", "sums", 2, 4);
    r[11] = make_run("sum-11", "sums", 4, NAN);

    CHECK_INT(new_database(uri, sizeof uri), 0);
    CHECK_INT(db_open(&d, uri, NULL, &e), 0);
    CHECK_INT(db_begin(d, &e), 0);
    store_job(d, r + 1, 3, id + 1, existed + 1, 0);
    store_job(d, r + 4, 2, id + 4, existed + 4, 1);
    store_job(d, r + 6, 2, id + 6, existed + 6, 0);
    store_job(d, r + 8, 1, id + 8, existed + 8, 0);
    CHECK_INT(db_commit(d, &e), 0);
    CHECK_INT(existed[7], 1);
    CHECK_INT(id[7], id[1]);

    CHECK_INT(pg_scalar(d, &bad, SQL_SUMS_DIFFER, &e, ""), 1);
    CHECK_INT(bad, 0);
    /* runs 1 and 2; runs 3 and 6 */
    check_config(d, "sums", 2, (long long[3]){2, 1, id[2]},
                 (double[3]){1.25, 1.25, 1.25});
    check_config(d, "sums", 4, (long long[3]){2, 2, id[6]}, (double[3]){1.25, 0.5, 0.75});
    check_kernel(d, "sums", "a", 2, 0); /* twice in run 1 (run 4 rolled back) */
    check_kernel(d, "sums", "b", 2, 1); /* seq 1 in runs 1 and 2 */
    check_kernel(d, "sums", "c", 2, 0);
    check_kernel(d, "sums", "d", 2, 1); /* seq 3 in run 1, 1 in run 6 */
    check_kernel(d, "sums", "q\"u,o\\te {NULL}", 1, 0);
    check_kernel(d, "sums", "z", 0, 0);
    check_kernel(d, "sums-other", "c", 1, 1);
    CHECK_INT(pg_scalar(d, &bad,
                        "SELECT count(*) FROM app_metrics m JOIN applications a ON "
                        "a.id = m.app_id WHERE a.name = 'sums'",
                        &e, ""),
              1);
    CHECK_INT(bad, 3); /* m1, m2, NULL; not gone */
    CHECK_INT(db_app_id(d, "sums-gone", 0, &e), 0);
    err_clear(&e);

    /* a second transaction adds to the same rows */
    CHECK_INT(db_begin(d, &e), 0);
    store_job(d, r + 9, 2, id + 9, existed + 9, 0);
    CHECK_INT(db_commit(d, &e), 0);
    /* outside a transaction: summed at once */
    store(d, r + 11, 1, id + 11, existed + 11);
    CHECK_INT(pg_scalar(d, &bad, SQL_SUMS_DIFFER, &e, ""), 1);
    CHECK_INT(bad, 0);
    /* runs 1, 2, 9, 10; runs 3, 6, 11 */
    check_config(d, "sums", 2, (long long[3]){4, 3, id[10]}, (double[3]){5.5, 0.25, 4});
    check_config(d, "sums", 4, (long long[3]){3, 2, id[11]},
                 (double[3]){1.25, 0.5, 0.75});
    check_kernel(d, "sums", "d", 3, 0); /* and seq 0 in run 9 */

    /* the page counts: as migration 17's backfill recomputes them in SQL */
    CHECK_INT(pg_scalar(d, &bad,
                        "SELECT ((SELECT sum(runs) FROM run_tally WHERE kind = 0) * 10 + "
                        "(SELECT sum(runs) FROM run_tally WHERE kind = 3))::bigint",
                        &e, ""),
              1);
    CHECK_INT(bad, 8 * 10 + 2); /* 8 runs, 2 of them untimed (runs 2 and 11) */
    tally_is_backfills(&d, uri);
    db_close(d);
}

static void test_deleted_application_is_made_again(void)
{
    struct one_run first = {0}, second = {0};
    struct err e = {0};
    long long bad = -1, app = -1, n = -1;
    db_writer *w;
    char uri[600];
    db *d;

    CHECK_INT(new_database(uri, sizeof uri), 0);
    CHECK_INT(db_writer_start(&w, uri, NULL, 8, &e), 0);
    first.r = make_run("gone-1", "gone", 2, 1.0);
    first.job.fn = store_one;
    first.job.arg = &first;
    CHECK_INT(db_writer_run(w, &first.job), 0);
    /* another server deletes the application the writer just stored into */
    CHECK_INT(db_open(&d, uri, NULL, &e), 0);
    CHECK_INT(db_begin(d, &e), 0);
    CHECK_INT(db_app_delete(d, "gone", &e), 0);
    CHECK_INT(db_commit(d, &e), 0);
    second.r = make_run("gone-2", "gone", 4, 2.0);
    second.job.fn = store_one;
    second.job.arg = &second;
    if (db_writer_run(w, &second.job) != 0)
        fprintf(stderr, "second: %s %s\n", second.job.err.code, second.job.err.message);
    CHECK_INT(second.job.rc, 0);
    db_writer_stop(w);
    CHECK_INT(second.existed, 0);
    CHECK_INT(pg_scalar(d, &app, "SELECT app_id FROM runs WHERE uid = 'gone-2'", &e, ""),
              1);
    CHECK_INT(app, db_app_id(d, "gone", 0, &e));
    CHECK_INT(pg_scalar(d, &n, "SELECT count(*) FROM runs", &e, ""), 1);
    CHECK_INT(n, 1);
    CHECK_INT(pg_scalar(d, &bad, SQL_MISMATCHES, &e, ""), 1);
    CHECK_INT(bad, 0);
    db_close(d);
}

/* A transaction's BEGIN goes out with its first statement (db/pg/pg.h):
 * whichever way that statement is sent (a typed statement, a cached one
 * with parameters, the runs' pipeline, a savepoint), it is inside the
 * transaction, so a rollback undoes it and a commit keeps it; a
 * transaction with no statement sends nothing. */
static void test_first_statement_opens_the_transaction(void)
{
    static const uint8_t hash[32] = {4, 5, 6};
    struct err e = {0};
    char uri[600], name[32];
    long long id = 0, n = -1;
    int existed = 0;
    db *d;

    CHECK_INT(new_database(uri, sizeof uri), 0);
    CHECK_INT(db_open(&d, uri, NULL, &e), 0);
    for (int commit = 0; commit < 2; commit++) {
        for (int way = 0; way < 4; way++) {
            struct run_record r;
            snprintf(name, sizeof name, "first-%d-%d", commit, way);
            r = make_run(name, name, 4, 1.0);
            CHECK_INT(db_begin(d, &e), 0);
            if (way == 0)
                CHECK_INT(db_token_create(d, name, hash, &e), 0);
            else if (way == 1)
                CHECK_INT(pg_run_sql(d, "INSERT INTO applications (name) VALUES ($1)", &e,
                                     "t", name),
                          1);
            else if (way == 2)
                CHECK_INT(db_runs_insert(d, &r, 1, &id, &existed, &e), 0);
            else {
                CHECK_INT(db_savepoint(d, DB_SAVEPOINT_SET, &e), 0);
                CHECK_INT(db_token_create(d, name, hash, &e), 0);
                CHECK_INT(db_savepoint(d, DB_SAVEPOINT_RELEASE, &e), 0);
            }
            CHECK_INT(PQtransactionStatus(pg_conn(d)), PQTRANS_INTRANS);
            if (commit)
                CHECK_INT(db_commit(d, &e), 0);
            else
                db_rollback(d);
            CHECK_INT(PQtransactionStatus(pg_conn(d)), PQTRANS_IDLE);
        }
        /* tokens of ways 0 and 3, the application of way 1, the run of 2 */
        CHECK_INT(pg_scalar(d, &n, "SELECT count(*) FROM tokens WHERE name LIKE $1", &e,
                            "t", commit ? "first-1-%" : "first-0-%"),
                  1);
        CHECK_INT(n, commit ? 2 : 0);
        CHECK_INT(pg_scalar(d, &n, "SELECT count(*) FROM applications WHERE name LIKE $1",
                            &e, "t", commit ? "first-1-%" : "first-0-%"),
                  1);
        CHECK_INT(n, commit ? 2 : 0); /* way 1's, and way 2's run's */
        CHECK_INT(count(d, "runs"), commit ? 1 : 0);
    }
    /* nothing in it: nothing sent, nothing to end */
    CHECK_INT(db_begin(d, &e), 0);
    CHECK_INT(db_commit(d, &e), 0);
    CHECK_INT(db_begin(d, &e), 0);
    db_rollback(d);
    CHECK_INT(PQtransactionStatus(pg_conn(d)), PQTRANS_IDLE);
    /* a first statement that fails: rolled back, and the next one works */
    CHECK_INT(db_begin(d, &e), 0);
    CHECK_INT(pg_run_sql(d, "INSERT INTO applications (name) VALUES ($1)", &e, "t",
                         "first-1-1"),
              -1);
    CHECK_INT(e.status, ERR_CONFLICT);
    err_clear(&e);
    db_rollback(d);
    CHECK_INT(db_begin(d, &e), 0);
    CHECK_INT(db_token_create(d, "after", hash, &e), 0);
    CHECK_INT(db_commit(d, &e), 0);
    CHECK_INT(
        pg_scalar(d, &n, "SELECT count(*) FROM tokens WHERE name = 'after'", &e, ""), 1);
    CHECK_INT(n, 1);
    db_close(d);
}

/* The open transaction's watch version rides in the pipeline that stores
 * its first runs (a round trip fewer a transaction): db_watches_version
 * then answers what another connection had committed before the runs went
 * in, without asking again, so not a version committed after them; the
 * next transaction reads afresh, and runs stored outside a transaction keep
 * nothing. */
static void test_watch_version_read_with_the_runs(void)
{
    static const char bump[] = "INSERT INTO watch_version (one, n) VALUES (1, 1) ON "
                               "CONFLICT (one) DO UPDATE SET n = watch_version.n + 1";
    struct err e = {0};
    char uri[600];
    long long id = 0;
    int existed = 0;
    struct run_record r = make_run("wv-1", "wv", 4, 1.0),
                      r2 = make_run("wv-2", "wv", 4, 2.0);
    db *d, *o;

    CHECK_INT(new_database(uri, sizeof uri), 0);
    CHECK_INT(db_open(&d, uri, NULL, &e), 0);
    CHECK_INT(db_open(&o, uri, NULL, &e), 0);
    CHECK_INT(pg_run_sql(o, bump, &e, ""), 1); /* version 1 */
    CHECK_INT(db_begin(d, &e), 0);
    CHECK_INT(db_runs_insert(d, &r, 1, &id, &existed, &e), 0);
    CHECK_INT(pg_run_sql(o, bump, &e, ""), 1); /* 2, after the runs */
    CHECK_INT(db_watches_version(d, &e), 1);
    CHECK_INT(db_commit(d, &e), 0);
    CHECK_INT(db_begin(d, &e), 0);
    CHECK_INT(db_watches_version(d, &e), 2);
    db_rollback(d);
    CHECK_INT(db_runs_insert(d, &r2, 1, &id, &existed, &e), 0); /* no transaction */
    CHECK_INT(pg_run_sql(o, bump, &e, ""), 1);                  /* 3 */
    CHECK_INT(db_watches_version(d, &e), 3);
    CHECK_INT(count(d, "runs"), 2);
    db_close(o);
    db_close(d);
}

static void test_conflicts_are_409(void)
{
    static const uint8_t hash[32] = {1, 2, 3};
    struct err e = {0};
    char uri[600];
    db *d;

    CHECK_INT(new_database(uri, sizeof uri), 0);
    CHECK_INT(db_open(&d, uri, NULL, &e), 0);
    CHECK_INT(db_token_create(d, "t", hash, &e), 0);
    CHECK_INT(db_token_create(d, "t", hash, &e), -1);
    CHECK_INT(e.status, ERR_CONFLICT);
    err_clear(&e);
    /* A raw unique violation maps to 409 through pg_fail. */
    CHECK_INT(pg_run_sql(d, "INSERT INTO applications (name) VALUES ($1)", &e, "t", "x"),
              1);
    CHECK_INT(pg_run_sql(d, "INSERT INTO applications (name) VALUES ($1)", &e, "t", "x"),
              -1);
    CHECK_INT(e.status, ERR_CONFLICT);
    CHECK_STR(e.code, "conflict");
    err_clear(&e);
    {
        char *tok = db_token_check(d, hash, &e);
        CHECK_STR(tok, "t");
        xfree(tok);
    }
    db_close(d);
}

/* ---- a run reads back exactly as sent ------------------------------------ */

static void test_run_reads_back_exactly(void)
{
    static struct rec_kv in[3] = {
        {"N", 0.1}, {"L \"q\"", 1e-300}, {"M", 9007199254740993.0}};
    /* texts that PostgreSQL's array and JSON forms must quote: quotes,
     * backslashes, commas, braces, spaces, the word NULL */
    static struct rec_kv met[2] = {{"mflops", 123456.789}, {"x,y", -2.5e-7}};
    /* the last two have no time (SPEC §16): NULL in the store, NAN again;
     * the last no call count either */
    static struct rec_kernel k[5] = {{"b", 1.0 / 3, 2, "{\"a\": [1, 2.5]}"},
                                     {"a", 0.0, 0, NULL},
                                     {"b", 11.2, 1, NULL},
                                     {"c", NAN, 3, "{\"visits\": 3}"},
                                     {"NULL", NAN, KERNEL_NO_CALLS, "{\"p\\\\q\": 1}"}};
    static struct rec_tag tags[3] = {
        {"env", "prod"}, {"k\"1", "v{1}"}, {"z \\b ", "NULL"}};
    struct run_record r = make_run("exact-1", "exact", 16, 0.30000000000000004), *s;
    struct db_run_row row;
    struct err e = {0};
    long long id;
    int existed;
    char uri[600];
    arena *a;
    db *d;
    size_t i;

    r.inputs = in;
    r.ninputs = 3;
    r.metrics = met;
    r.nmetrics = 2;
    r.kernels = k;
    r.nkernels = 5;
    r.tags = tags;
    r.ntags = 3;
    r.commit = "abc123";
    r.started_at = "2026-11-21T10:00:00Z";
    CHECK_INT(new_database(uri, sizeof uri), 0);
    CHECK_INT(db_open(&d, uri, NULL, &e), 0);
    CHECK_INT(db_runs_insert(d, &r, 1, &id, &existed, &e), 0);
    a = arena_new();
    CHECK_INT(db_run_get(d, id, a, &row, &e), 1);
    s = &row.run;
    CHECK(s->runtime == r.runtime);
    CHECK_INT(s->ninputs, 3);
    for (i = 0; i < s->ninputs; i++) {
        size_t j;
        for (j = 0; j < 3 && strcmp(in[j].name, s->inputs[i].name) != 0; j++)
            ;
        CHECK(j < 3 && in[j].value == s->inputs[i].value);
    }
    CHECK_INT(s->nmetrics, 2);
    CHECK_INT(s->nkernels, 5);
    for (i = 0; i < 5 && i < s->nkernels; i++) {
        CHECK_STR(s->kernels[i].name, k[i].name);
        CHECK(s->kernels[i].time == k[i].time ||
              (isnan(s->kernels[i].time) && isnan(k[i].time)));
        CHECK_INT(s->kernels[i].calls, k[i].calls);
        CHECK((s->kernels[i].metrics_json == NULL) == (k[i].metrics_json == NULL));
    }
    CHECK_STR(s->kernels[0].metrics_json, k[0].metrics_json);
    CHECK(s->nkernels == 5 && s->kernels[4].metrics_json != NULL);
    if (s->nkernels == 5 && s->kernels[4].metrics_json != NULL)
        CHECK_STR(s->kernels[4].metrics_json, k[4].metrics_json);
    CHECK_INT(s->ntags, 3);
    CHECK_STR(s->tags[1].key, "k\"1");
    CHECK_STR(s->tags[1].value, "v{1}");
    for (i = 0; i < s->ntags && strcmp(s->tags[i].key, tags[2].key) != 0; i++)
        ;
    CHECK(i < s->ntags);
    if (i < s->ntags)
        CHECK_STR(s->tags[i].value, "NULL");
    {
        /* a listing reads each run's children as db_run_get does */
        struct run_record bare = make_run("exact-2", "exact", 2, 1.0);
        struct db_run_filter f = {0};
        struct db_run_row *list;
        long long id2;
        bare.ninputs = 0;
        bare.nkernels = 0;
        CHECK_INT(db_runs_insert(d, &bare, 1, &id2, &existed, &e), 0);
        f.application = "exact";
        f.limit = 10;
        CHECK_INT(db_runs_list(d, &f, a, &list, &e), 2);
        CHECK_INT(list[0].run.ninputs, 3);
        CHECK_INT(list[0].run.nmetrics, 2);
        CHECK_INT(list[0].run.nkernels, 5);
        CHECK_INT(list[0].run.ntags, 3);
        for (i = 0; i < 3 && i < list[0].run.nkernels; i++)
            CHECK(list[0].run.kernels[i].time == s->kernels[i].time);
        CHECK(list[0].run.nkernels == 5 && isnan(list[0].run.kernels[3].time));
        for (i = 0; i < 3 && i < list[0].run.ninputs; i++) {
            CHECK_STR(list[0].run.inputs[i].name, s->inputs[i].name);
            CHECK(list[0].run.inputs[i].value == s->inputs[i].value);
        }
        CHECK_STR(list[0].run.tags[1].value, "v{1}");
        CHECK_INT(list[1].run.ninputs, 0);
        CHECK_INT(list[1].run.nkernels, 0);
        CHECK_INT(list[1].run.ntags, 0);
    }
    /* the same content again is the same run; other content is a 409 */
    CHECK_INT(db_runs_insert(d, &r, 1, &id, &existed, &e), 0);
    CHECK_INT(existed, 1);
    r.kernels = k + 1;
    r.nkernels = 2;
    CHECK_INT(db_runs_insert(d, &r, 1, &id, &existed, &e), -1);
    CHECK_INT(e.status, ERR_CONFLICT);
    arena_free(a);
    db_close(d);
}

/* ---- migrations from several servers at once ---------------------------- */

struct opener {
    const char *uri;
    int rc;
    struct err err;
};

static void *open_one(void *arg)
{
    struct opener *o = arg;
    db *d = NULL;
    o->rc = db_open(&d, o->uri, NULL, &o->err);
    db_close(d);
    return NULL;
}

static void test_concurrent_migrations(void)
{
    struct opener o[4];
    pthread_t t[4];
    struct err e = {0};
    char uri[600], *problems = NULL;
    long long v = 0;
    db *d;
    int i;

    CHECK_INT(new_database(uri, sizeof uri), 0);
    for (i = 0; i < 4; i++) {
        memset(&o[i], 0, sizeof o[i]);
        o[i].uri = uri;
        pthread_create(&t[i], NULL, open_one, &o[i]);
    }
    for (i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        CHECK_INT(o[i].rc, 0);
        if (o[i].rc != 0)
            fprintf(stderr, "open %d: %s\n", i, o[i].err.message);
    }
    CHECK_INT(db_open(&d, uri, NULL, &e), 0);
    CHECK_INT(pg_scalar(d, &v, "SELECT version FROM prophecy_schema", &e, ""), 1);
    CHECK_INT(v, db_schema_version());
    CHECK_INT(db_check(d, &problems, &e), 1);
    CHECK_INT(db_backup(d, "/tmp/never-written.db", &e), -1);
    CHECK_INT(e.status, ERR_BAD_REQUEST);
    db_close(d);
}

/* ---- canonical inputs ---------------------------------------------------- */

static void test_inputs_text_is_sqlites(void)
{
    /* SQLite 3.40's json_group_object over these values (ORDER BY name). */
    struct rec_kv kv[] = {{"l", 123456.789}, {"k\"/", 2.5e-05},
                          {"j", 0.3},        {"h", 1e15},
                          {"f", 1.0 / 3},    {"e", 123456789012345678.0},
                          {"d", 1.5e-7},     {"c", 1e100},
                          {"b", 0.1},        {"a", 1024.0}};
    struct buf b;
    buf_init(&b, 4096);
    db_inputs_key(kv, sizeof kv / sizeof kv[0], &b);
    CHECK_STR(buf_str(&b),
              "{\"a\":1024.0,\"b\":0.1,\"c\":1.0e+100,\"d\":1.5e-07,"
              "\"e\":1.23456789012346e+17,\"f\":0.333333333333333,"
              "\"h\":1.0e+15,\"j\":0.3,\"k\\\"/\":2.5e-05,\"l\":123456.789}");
    buf_reset(&b);
    db_inputs_key(NULL, 0, &b);
    CHECK_STR(buf_str(&b), "{}");
    buf_free(&b);
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The runtime cuts PostgreSQL's store wrote (in SQL) are db_tally_runtime_key's
 * (in C, which a run's delete and a copy from SQLite use): the distinct cuts
 * of the stored runtimes, both ways. */
static void same_runtime_keys(db *d)
{
    struct err e = {0};
    double *c = malloc(50000 * sizeof *c), *s = malloc(50000 * sizeof *s);
    size_t nc = 0, ns = 0, i, m = 0;
    struct db_stmt *st = dq_prepare(
        d, "SELECT DISTINCT runtime FROM runs WHERE runtime IS NOT NULL", &e, "");
    while (st != NULL && dq_step(d, st, &e) == 1 && nc < 50000)
        c[nc++] = db_tally_runtime_key(dq_dbl(d, st, 0));
    st = dq_prepare(d, "SELECT DISTINCT k FROM run_tally WHERE kind = 2 ORDER BY k", &e,
                    "");
    while (st != NULL && dq_step(d, st, &e) == 1 && ns < 50000)
        s[ns++] = dq_dbl(d, st, 0);
    qsort(c, nc, sizeof *c, cmp_dbl);
    for (i = 0; i < nc; i++)
        if (m == 0 || c[m - 1] != c[i])
            c[m++] = c[i];
    CHECK(m > 500);
    CHECK_INT((long long)m, (long long)ns);
    for (i = 0; i < m && i < ns; i++)
        if (c[i] != s[i]) {
            CHECK_NEAR(c[i], s[i], 0);
            break;
        }
    free(c);
    free(s);
}

static void test_deep_offset_pages(void)
{
    char uri[700];
    struct err e = {0};
    db *d;
    CHECK_INT(new_database(uri, sizeof uri), 0);
    CHECK_INT(db_open(&d, uri, NULL, &e), 0);
    deep_pages(d);
    same_runtime_keys(d);
    tally_is_backfills(&d, uri);
    db_close(d);
}

int main(void)
{
    RUN(test_inputs_text_is_sqlites);
    if (read_base() != 0) {
        printf("SKIP: no PostgreSQL test cluster (PROPHECY_TEST_PG); the live cases "
               "did not run\n");
        return harness_report() != 0 ? 1 : 77;
    }
    RUN(test_same_uid_from_two_connections);
    RUN(test_same_new_name_from_two_connections);
    RUN(test_batch_with_a_bad_run_rolls_back);
    RUN(test_group_commit_adds_sums_once);
    RUN(test_sums_are_planned_once_by_key);
    RUN(test_commit_sums_are_the_stored_runs);
    RUN(test_deleted_application_is_made_again);
    RUN(test_conflicts_are_409);
    RUN(test_first_statement_opens_the_transaction);
    RUN(test_watch_version_read_with_the_runs);
    RUN(test_run_reads_back_exactly);
    RUN(test_concurrent_migrations);
    RUN(test_deep_offset_pages);
    return harness_report();
}
