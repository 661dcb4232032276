/* Unit tests for db/: migrations, runs store, catalog, tokens, and the
 * group-commit writer (a failing job is rolled back alone). */
#include "common/sha256.h"
#include "common/xalloc.h"
#include "db/catalog.h"
#include "db/query.h"
#include "db/sqlite/sql.h" /* a test of the SQLite backend: its own toolkit */
#include "db/pool.h"
#include "db/runs.h"
#include "db/writer.h"
#include "tests/harness.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/prophecy-dbtest-XXXXXX";

static const char *path(const char *name)
{
    static char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

static struct run_record make_run(const char *uid, const char *app, long long np,
                                  double rt)
{
    static struct rec_kv in[1] = {{"N", 1000}};
    static struct rec_kernel k[2] = {{"a", 1.0, 1, NULL}, {"b", 2.0, 3, "{\"x\":1}"}};
    struct run_record r = {0};
    r.uid = uid;
    r.application = app;
    r.executable = "exe";
    r.system = "sys";
    r.nprocs = np;
    r.runtime = rt;
    r.inputs = in;
    r.ninputs = 1;
    r.kernels = k;
    r.nkernels = 2;
    return r;
}

static void test_migrate_and_version(void)
{
    struct err e = {0};
    db *d;
    json_t *v;
    CHECK_INT(db_open(&d, path("m.db"), NULL, &e), 0);
    CHECK_INT(db_schema_version(), 21);
    v = dq_one(d, "version", "PRAGMA user_version", &e, "");
    CHECK_INT(json_integer_value(json_object_get(v, "user_version")), 21);
    json_decref(v);
    db_close(d);
    /* Opening again applies nothing and keeps the data. */
    CHECK_INT(db_open(&d, path("m.db"), NULL, &e), 0);
    {
        char *problems = NULL;
        CHECK_INT(db_check(d, &problems, &e), 1); /* a sound database */
        CHECK(problems == NULL);
    }
    /* A database a newer prophecyd migrated is refused, not downgraded. */
    CHECK_INT(db_exec(d, "PRAGMA user_version = 99", &e), 0);
    db_close(d);
    CHECK_INT(db_open(&d, path("m.db"), NULL, &e), -1);
    CHECK_INT(e.status, ERR_INTERNAL);
    CHECK_STR(e.code, "schema");
    CHECK(strstr(e.message, "version 99 is newer") != NULL);
}

static void test_runs_insert_list_idempotent(void)
{
    struct err e = {0};
    struct run_record runs[3];
    long long ids[3];
    int existed[3];
    struct db_run_filter f = {0};
    struct db_run_row *rows, row;
    arena *a = arena_new();
    db *d;

    CHECK_INT(db_open(&d, path("r.db"), NULL, &e), 0);
    runs[0] = make_run("u1", "app", 4, 1.5);
    runs[1] = make_run(NULL, "app", 8, 0.75);
    runs[2] = make_run("u1", "app", 4, 1.5); /* repeat inside the batch */
    CHECK_INT(db_begin(d, &e), 0);
    CHECK_INT(db_runs_insert(d, runs, 3, ids, existed, &e), 0);
    CHECK_INT(db_commit(d, &e), 0);
    CHECK_INT(existed[0], 0);
    CHECK_INT(existed[1], 0);
    CHECK_INT(existed[2], 1);
    CHECK_INT(ids[2], ids[0]);
    f.application = "app";
    f.limit = 10;
    CHECK_INT(db_runs_list(d, &f, a, &rows, &e), 2);
    CHECK_STR(rows[0].run.uid, "u1");
    CHECK_INT(rows[0].run.nkernels, 2);
    CHECK_STR(rows[0].run.kernels[1].metrics_json, "{\"x\":1}");
    CHECK_INT(rows[0].run.kernels[1].calls, 3);
    CHECK_NEAR(rows[0].run.inputs[0].value, 1000, 0);
    f.nprocs = 8;
    CHECK_INT(db_runs_list(d, &f, a, &rows, &e), 1);
    CHECK_NEAR(rows[0].run.runtime, 0.75, 0);
    f.nprocs = 0;
    f.after = ids[0];
    CHECK_INT(db_runs_list(d, &f, a, &rows, &e), 1);
    CHECK_INT(db_run_get(d, ids[1], a, &row, &e), 1);
    CHECK_INT(db_run_get(d, 424242, a, &row, &e), 0);
    /* Same id, other content: a conflict, and the caller rolls back. */
    runs[0].runtime = 9.0;
    CHECK_INT(db_begin(d, &e), 0);
    CHECK_INT(db_runs_insert(d, runs, 1, ids, existed, &e), -1);
    CHECK_INT(e.status, ERR_CONFLICT);
    db_rollback(d);
    arena_free(a);
    db_close(d);
}

static void test_catalog_and_tokens(void)
{
    struct err e = {0};
    struct param_record p[2] = {{"ADDM", "", "4.83e-8", "t"},
                                {"MPISR", "L", "a+b*L", "t"}};
    uint8_t h1[32], h2[32];
    json_t *v;
    char *name;
    db *d;

    CHECK_INT(db_open(&d, path("c.db"), NULL, &e), 0);
    /* Catalog writes never create the system or application they name. */
    CHECK_INT(db_params_set(d, "sp2", p, 2, &e), -1);
    CHECK_INT(e.status, ERR_NOT_FOUND);
    CHECK_STR(e.message, "no system named sp2");
    err_clear(&e);
    CHECK(db_system_get(d, "sp2", &e) == NULL);
    err_clear(&e);
    CHECK_INT(db_template_put(d, "t", "noapp", NULL, "1", "", &e), -1);
    CHECK_INT(e.status, ERR_NOT_FOUND);
    CHECK_STR(e.message, "no application named noapp");
    err_clear(&e);
    CHECK_INT(db_system_upsert(d, "sp2", NULL, 0, &e), 0);
    CHECK_INT(db_params_set(d, "sp2", p, 2, &e), 0);
    v = db_params_list(d, "sp2", &e);
    CHECK_INT(json_array_size(v), 2);
    CHECK_STR(json_string_value(json_object_get(json_array_get(v, 1), "signature")),
              "MPISR(L)");
    json_decref(v);
    CHECK(db_system_get(d, "nope", &e) == NULL);
    CHECK_INT(e.status, ERR_NOT_FOUND);
    err_clear(&e);
    sha256("pt_one", 6, h1);
    sha256("pt_two", 6, h2);
    CHECK_INT(db_token_create(d, "one", h1, &e), 0);
    CHECK_INT(db_token_create(d, "one", h2, &e), -1);
    CHECK_INT(e.status, ERR_CONFLICT);
    err_clear(&e);
    name = db_token_check(d, h1, &e);
    CHECK_STR(name, "one");
    xfree(name);
    CHECK(db_token_check(d, h2, &e) == NULL);
    CHECK_INT(db_token_revoke(d, "one", &e), 0);
    CHECK(db_token_check(d, h1, &e) == NULL);
    db_close(d);
}

/* Jobs for the writer: even ids succeed, odd ids fail after writing. */
static int job_fn(db *d, void *arg, struct err *err)
{
    long i = (long)(intptr_t)arg;
    char app[32];
    snprintf(app, sizeof app, "app-%ld", i);
    if (db_app_id(d, app, 1, err) < 0)
        return -1;
    if (i % 2)
        return err_set(err, ERR_INVALID, "invalid", NULL, "job %ld fails", i);
    return 0;
}

static void *submitter(void *arg)
{
    db_writer *w = arg;
    static _Atomic long next;
    for (int k = 0; k < 50; k++) {
        struct db_job job = {0};
        long i = next++;
        job.fn = job_fn;
        job.arg = (void *)(intptr_t)i;
        db_writer_run(w, &job);
        if ((i % 2) != (job.rc != 0))
            abort();
    }
    return NULL;
}

static void test_writer_group_commit(void)
{
    struct err e = {0};
    db_writer *w;
    pthread_t th[8];
    long commits, jobs;
    json_t *apps;
    db *d;
    int t;

    CHECK_INT(db_writer_start(&w, path("w.db"), NULL, 100, &e), 0);
    for (t = 0; t < 8; t++)
        pthread_create(&th[t], NULL, submitter, w);
    for (t = 0; t < 8; t++)
        pthread_join(th[t], NULL);
    db_writer_stats(w, &commits, &jobs);
    CHECK_INT(jobs, 400);
    /* Batches of failed jobs commit nothing, so commits <= 200 always; fewer
     * commits than the 200 successful jobs means jobs shared a commit. */
    CHECK(commits < 200);
    db_writer_stop(w);
    CHECK_INT(db_open(&d, path("w.db"), NULL, &e), 0);
    apps = db_apps_list(d, &e);
    /* Only the 200 succeeding jobs left an application behind. */
    CHECK_INT(json_array_size(apps), 200);
    json_decref(apps);
    db_close(d);
}

/* A job that loses to another server's transaction (503 "busy") `busy`
 * times, writing first each time, then succeeds; counts its runs. */
struct busy_job {
    const char *app;
    int busy, calls;
    enum err_code status; /* the failure it reports while busy */
};

static int busy_fn(db *d, void *arg, struct err *err)
{
    struct busy_job *b = arg;
    if (db_app_id(d, b->app, 1, err) < 0)
        return -1;
    if (b->calls++ < b->busy)
        return err_set(err, b->status, b->status == ERR_UNAVAILABLE ? "busy" : "invalid",
                       NULL, "lost a race (%d)", b->calls);
    return 0;
}

static void test_writer_retries_busy_jobs(void)
{
    struct err e = {0};
    db_writer *w;
    struct busy_job twice = {"busy-twice", 2, 0, ERR_UNAVAILABLE},
                    always = {"busy-always", 99, 0, ERR_UNAVAILABLE},
                    invalid = {"invalid-once", 1, 0, ERR_INVALID};
    struct db_job job = {0};
    json_t *apps;
    db *d;

    CHECK_INT(db_writer_start(&w, path("busy.db"), NULL, 100, &e), 0);
    job.fn = busy_fn;
    job.arg = &twice;
    CHECK_INT(db_writer_run(w, &job), 0); /* two busy runs, then committed */
    CHECK_INT(twice.calls, 3);
    memset(&job, 0, sizeof job);
    job.fn = busy_fn;
    job.arg = &always;
    CHECK_INT(db_writer_run(w, &job), -1); /* the first run and four retries */
    CHECK_INT(always.calls, 5);
    CHECK_INT(job.err.status, ERR_UNAVAILABLE);
    memset(&job, 0, sizeof job);
    job.fn = busy_fn;
    job.arg = &invalid;
    CHECK_INT(db_writer_run(w, &job), -1); /* a refusal is final: no retry */
    CHECK_INT(invalid.calls, 1);
    db_writer_stop(w);
    CHECK_INT(db_open(&d, path("busy.db"), NULL, &e), 0);
    apps = db_apps_list(d, &e);
    /* Only the job that finally succeeded left its application behind. */
    CHECK_INT(json_array_size(apps), 1);
    CHECK_STR(json_string_value(json_object_get(json_array_get(apps, 0), "name")),
              "busy-twice");
    json_decref(apps);
    db_close(d);
}

/* A PostgreSQL URI is printed (serve's line, check) without its password. */
static void test_display_name(void)
{
    static const char *const cases[][2] = {
        {"/srv/prophecy.db", "/srv/prophecy.db"},
        {"postgresql://prophecy:s3cret@db.example:5432/prophecy",
         "postgresql://prophecy:***@db.example:5432/prophecy"},
        {"postgres://u:@h/d", "postgres://u:***@h/d"},
        {"postgresql://u@h/d", "postgresql://u@h/d"},
        {"postgresql:///d?host=/run/pg&password=x&sslmode=require",
         "postgresql:///d?host=/run/pg&password=***&sslmode=require"},
        {"postgresql://h/d?password=x", "postgresql://h/d?password=***"},
        {"postgresql://h:5432/d", "postgresql://h:5432/d"},
        /* libpq keyword strings are PostgreSQL too (issue 34) */
        {"host=h user=u password=s3cret dbname=d", "host=h user=u password=*** dbname=d"},
        {"host=h password = 'a b\\' c' dbname=d", "host=h password = *** dbname=d"},
    };
    char out[128], small[16];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK_STR(db_display_name(cases[i][0], out, sizeof out), cases[i][1]);
    CHECK(!db_is_file("host=h dbname=d") && !db_is_file(" dbname = d") &&
          db_is_file("hostname=x.db") && db_is_file("./host=x.db"));
    {
        /* libpq quotes an unparsable URI in its message: masked */
        char msg[128] = "missing \"]\" in URI: \"postgresql://bob:pw1234@[::1\"";
        db_mask_secrets("postgresql://bob:pw1234@[::1", msg, sizeof msg);
        CHECK_STR(msg, "missing \"]\" in URI: \"postgresql://bob:***@[::1\"");
    }
    /* truncated to fit, never the password */
    CHECK_STR(db_display_name("postgresql://u:secret@h/d", small, sizeof small),
              "postgresql://u:");
    CHECK_STR(db_display_name(NULL, out, sizeof out), "");
}

int main(void)
{
    if (mkdtemp(dir) == NULL)
        return 1;
    RUN(test_migrate_and_version);
    RUN(test_runs_insert_list_idempotent);
    RUN(test_catalog_and_tokens);
    RUN(test_writer_group_commit);
    RUN(test_writer_retries_busy_jobs);
    RUN(test_display_name);
    return harness_report_removing(dir);
}
