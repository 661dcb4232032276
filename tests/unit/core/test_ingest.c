/* Unit tests for core/ingest: the one path every run takes. A hook that
 * counts its calls sees every stored batch inside the transaction and every
 * commit after it; a hook error rolls the whole batch back; the JSON and
 * CSV entry points store the same runs. */
#include "core/ingest.h"
#include "db/runs.h"
#include "db/writer.h"
#include "tests/harness.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/prophecy-ingesttest-XXXXXX";

static const char *path(const char *name)
{
    static char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

struct counts {
    int stored, committed;
    size_t runs_seen, created_seen;
    int fail; /* make the stored hook fail */
};

static int on_stored(db *d, struct ingest *in, void *arg, struct err *err)
{
    struct counts *c = arg;
    struct db_run_row row;
    arena *a = arena_new();
    int found;

    c->stored++;
    c->runs_seen += in->n;
    c->created_seen += in->created;
    /* Inside the transaction: the runs just stored are readable. */
    found = in->n ? db_run_get(d, in->ids[0], a, &row, err) : 1;
    arena_free(a);
    CHECK_INT(found, 1);
    if (c->fail)
        return err_set(err, ERR_INVALID, "rejected", NULL, "the hook rejects this batch");
    return 0;
}

static void on_committed(const struct ingest *in, void *arg)
{
    struct counts *c = arg;
    (void)in;
    c->committed++;
}

static long long count_runs(db *d)
{
    struct db_run_filter f = {0};
    struct db_run_row *rows;
    struct err e = {0};
    arena *a = arena_new();
    int n;
    f.limit = 1000;
    n = db_runs_list(d, &f, a, &rows, &e);
    arena_free(a);
    return n;
}

static const char DOC[] =
    "{\"runs\": [{\"id\": \"r1\", \"application\": \"app\", \"executable\": \"exe\", "
    "\"system\": \"sys\", \"nprocs\": 4, \"runtime\": 1.5, \"inputs\": {\"N\": 100}}, "
    "{\"application\": \"app\", \"executable\": \"exe\", \"system\": \"sys\", "
    "\"nprocs\": 8, \"runtime\": 0.75}]}";

static void test_hook_counts_calls(void)
{
    struct counts c = {0};
    struct ingest_hooks h = {on_stored, on_committed, &c};
    struct ingest in;
    struct err e = {0};
    arena *a = arena_new();
    json_t *body = json_loads(DOC, 0, NULL);
    db *d;

    CHECK_INT(db_open(&d, path("h.db"), NULL, &e), 0);
    ingest_set_hooks(&h);
    CHECK_INT(ingest_json(&in, body, "tester", a, &e), 0);
    CHECK_INT(in.n, 2);
    CHECK_STR(in.runs[1].submitter, "tester");
    CHECK_INT(ingest_commit(d, &in, &e), 0);
    CHECK_INT(c.stored, 1);
    CHECK_INT(c.committed, 1);
    CHECK_INT(c.runs_seen, 2);
    CHECK_INT(c.created_seen, 2);
    CHECK_INT(in.created, 2);
    CHECK_INT(count_runs(d), 2);
    /* The same batch again: the uid run exists, the other is new. */
    CHECK_INT(ingest_json(&in, body, "tester", a, &e), 0);
    CHECK_INT(ingest_commit(d, &in, &e), 0);
    CHECK_INT(c.stored, 2);
    CHECK_INT(c.committed, 2);
    CHECK_INT(in.created, 1);
    CHECK_INT(in.existed[0], 1);
    CHECK_INT(count_runs(d), 3);
    /* CSV takes the same path. */
    CHECK_INT(ingest_csv(&in,
                         "application,executable,system,nprocs,runtime,N\n"
                         "app,exe,sys,2,3.0,100\n",
                         strlen("application,executable,system,nprocs,runtime,N\n"
                                "app,exe,sys,2,3.0,100\n"),
                         "csv", a, &e),
              0);
    CHECK_INT(ingest_commit(d, &in, &e), 0);
    CHECK_INT(c.stored, 3);
    CHECK_INT(c.committed, 3);
    CHECK_INT(count_runs(d), 4);
    ingest_set_hooks(NULL);
    json_decref(body);
    arena_free(a);
    db_close(d);
}

static void test_hook_error_rolls_back(void)
{
    struct counts c = {0};
    struct ingest_hooks h = {on_stored, on_committed, &c};
    struct ingest in;
    struct err e = {0};
    arena *a = arena_new();
    json_t *body = json_loads(DOC, 0, NULL);
    db *d;

    CHECK_INT(db_open(&d, path("rb.db"), NULL, &e), 0);
    c.fail = 1;
    ingest_set_hooks(&h);
    CHECK_INT(ingest_json(&in, body, "tester", a, &e), 0);
    CHECK_INT(ingest_commit(d, &in, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    CHECK_STR(e.code, "rejected");
    CHECK_INT(c.stored, 1);
    CHECK_INT(c.committed, 0);
    /* Nothing of the batch is left, and a later batch still goes in. */
    CHECK_INT(count_runs(d), 0);
    c.fail = 0;
    err_clear(&e);
    CHECK_INT(ingest_json(&in, body, "tester", a, &e), 0);
    CHECK_INT(ingest_commit(d, &in, &e), 0);
    CHECK_INT(c.committed, 1);
    CHECK_INT(count_runs(d), 2);
    ingest_set_hooks(NULL);
    json_decref(body);
    arena_free(a);
    db_close(d);
}

/* The server's path: ingest_job as a group-commit writer job. A hook error
 * rolls back that job alone (its SAVEPOINT); a good job beside it commits. */
static void test_writer_job_rolls_back_on_hook_error(void)
{
    struct counts c = {0};
    struct ingest_hooks h = {on_stored, on_committed, &c};
    struct ingest in;
    struct db_job job;
    struct err e = {0};
    arena *a = arena_new();
    json_t *body = json_loads(DOC, 0, NULL);
    db_writer *w;
    db *d;

    CHECK_INT(db_writer_start(&w, path("w.db"), NULL, 8, &e), 0);
    ingest_set_hooks(&h);
    c.fail = 1;
    CHECK_INT(ingest_json(&in, body, "tester", a, &e), 0);
    memset(&job, 0, sizeof job);
    job.fn = ingest_job;
    job.arg = &in;
    CHECK_INT(db_writer_run(w, &job), -1);
    CHECK_STR(job.err.code, "rejected");
    c.fail = 0;
    CHECK_INT(ingest_json(&in, body, "tester", a, &e), 0);
    memset(&job, 0, sizeof job);
    job.fn = ingest_job;
    job.arg = &in;
    CHECK_INT(db_writer_run(w, &job), 0);
    ingest_committed(&in);
    CHECK_INT(c.stored, 2);
    CHECK_INT(c.committed, 1);
    db_writer_stop(w);
    CHECK_INT(db_open(&d, path("w.db"), NULL, &e), 0);
    CHECK_INT(count_runs(d), 2);
    db_close(d);
    ingest_set_hooks(NULL);
    json_decref(body);
    arena_free(a);
}

static void test_conflicting_id_fails_batch(void)
{
    struct ingest in;
    struct err e = {0};
    arena *a = arena_new();
    json_t *body = json_loads(DOC, 0, NULL);
    db *d;

    CHECK_INT(db_open(&d, path("c.db"), NULL, &e), 0);
    CHECK_INT(ingest_json(&in, body, "tester", a, &e), 0);
    CHECK_INT(ingest_commit(d, &in, &e), 0);
    json_decref(body);
    /* r1 again with another input value: 409 naming the id, nothing stored. */
    body =
        json_loads("{\"id\": \"r1\", \"application\": \"app\", \"executable\": \"exe\", "
                   "\"system\": \"sys\", \"nprocs\": 4, \"runtime\": 1.5, "
                   "\"inputs\": {\"N\": 200}}",
                   0, NULL);
    CHECK_INT(ingest_json(&in, body, "tester", a, &e), 0);
    CHECK_INT(ingest_commit(d, &in, &e), -1);
    CHECK_INT(e.status, ERR_CONFLICT);
    CHECK(strstr(e.message, "r1") != NULL);
    CHECK_INT(count_runs(d), 2);
    json_decref(body);
    arena_free(a);
    db_close(d);
}

int main(void)
{
    if (mkdtemp(dir) == NULL)
        return 1;
    RUN(test_hook_counts_calls);
    RUN(test_hook_error_rolls_back);
    RUN(test_writer_job_rolls_back_on_hook_error);
    RUN(test_conflicting_id_fails_batch);
    return harness_report_removing(dir);
}
