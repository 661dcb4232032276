/* Unit tests for core/ingest: the one path every run takes. A hook that
 * counts its calls sees every stored batch inside the transaction and every
 * commit after it; a hook error rolls the whole batch back; the JSON and
 * CSV entry points store the same runs. */
#include "core/ingest.h"
#include "db/runs.h"
#include "db/writer.h"
#include "tests/harness.h"
#include "tests/writer_gate.h"

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
    struct ingest_hooks h = {on_stored, on_committed, &c, NULL, NULL};
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
    struct ingest_hooks h = {on_stored, on_committed, &c, NULL, NULL};
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
    struct ingest_hooks h = {on_stored, on_committed, &c, NULL, NULL};
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

/* What the stored hook saw of the store when it was called, and the idle
 * hook when it was asked. */
struct seen {
    long long runs[8];  /* runs in the store at each call */
    int calls, idle;    /* idle: what the idle hook answers */
    int known;          /* what idle_known answers */
    int asked;          /* idle's calls */
    long long asked_at; /* runs in the store at idle's last call */
};

static int seen_stored(db *d, struct ingest *in, void *arg, struct err *err)
{
    struct seen *s = arg;
    (void)in, (void)err;
    if (s->calls < 8)
        s->runs[s->calls] = count_runs(d);
    s->calls++;
    return 0;
}

static int seen_idle(db *d, void *arg, struct err *err)
{
    struct seen *s = arg;
    (void)err;
    s->asked++;
    s->asked_at = count_runs(d);
    return s->idle;
}

static int seen_known(db *d, void *arg)
{
    (void)d;
    return ((struct seen *)arg)->known;
}

/* Single-run uploads queued together go in through one ingest_group call
 * when the stored hook is idle: each keeps its own ids, existed and created
 * as if stored alone, in the order they queued; one whose id conflicts
 * fails alone (the batch is run again job by job); when the hook is not
 * idle, each upload's runs are judged before the next one's are stored.
 * With idle_known, idle is asked only after the group is stored (then
 * seeing all five runs), unless idle_known knows nothing (asked before,
 * seeing none) or knows the hook busy (not asked: each alone); when idle
 * says "busy" after all (a watch set meanwhile), the group is undone and
 * each upload stored and judged alone, as if idle had said so first. */
static void test_uploads_grouped(void)
{
    enum { N = 6 };
    static const char *const doc[N] = {
        "{\"id\": \"g1\", \"application\": \"app\", \"executable\": \"exe\", "
        "\"system\": \"sys\", \"nprocs\": 4, \"runtime\": 1.5}",
        "{\"runs\": [{\"application\": \"app\", \"executable\": \"exe\", "
        "\"system\": \"sys\", \"nprocs\": 8, \"runtime\": 0.5}, {\"id\": \"g2\", "
        "\"application\": \"app\", \"executable\": \"exe\", \"system\": \"sys\", "
        "\"nprocs\": 8, \"runtime\": 0.75}]}",
        /* g1 again, the same: existing */
        "{\"id\": \"g1\", \"application\": \"app\", \"executable\": \"exe\", "
        "\"system\": \"sys\", \"nprocs\": 4, \"runtime\": 1.5}",
        /* g2 again with another runtime: a conflict */
        "{\"id\": \"g2\", \"application\": \"app\", \"executable\": \"exe\", "
        "\"system\": \"sys\", \"nprocs\": 8, \"runtime\": 9}",
        "{\"application\": \"other\", \"executable\": \"exe\", \"system\": \"sys\", "
        "\"nprocs\": 2, \"runtime\": 3}",
        "{\"id\": \"g3\", \"application\": \"app\", \"executable\": \"exe\", "
        "\"system\": \"sys\", \"nprocs\": 16, \"runtime\": 0.25}"};
    /* idle's answer, idle_known's (-2: no such hook), and what the passes
     * must see: idle asked (and with how many runs stored), grouped */
    static const int idle[7] = {1, 1, 0, 0, 1, 1, 1},
                     known[7] = {-2, -2, -2, 1, 1, -1, 0};
    static const int asked[7] = {1, 1, 1, 1, 1, 1, 0},
                     asked_at[7] = {0, 0, 0, 5, 5, 0, -1};
    static const int grouped[7] = {1, 0, 0, 0, 1, 1, 0};
    for (int pass = 0; pass < 7; pass++) {
        /* pass 0: the hook idle, the conflict left out; 1: idle, with the
         * conflict (the group fails on it before any hook runs, then each
         * job runs alone); 2: the hook not idle, the conflict left out;
         * 3-6: with idle_known, the conflict left out: 3 known idle but
         * busy when asked after the group was stored; 4 known idle and
         * idle; 5 unknown, asked before; 6 known busy */
        struct seen s = {{0}, 0, idle[pass], known[pass], 0, -1};
        struct ingest_hooks h = {seen_stored, NULL, &s, seen_idle,
                                 known[pass] == -2 ? NULL : seen_known};
        struct ingest in[N];
        struct db_job job[N], gate;
        struct err e = {0};
        arena *a = arena_new();
        char name[32];
        db_writer *w;
        long long first;
        int k;

        snprintf(name, sizeof name, "group%d.db", pass);
        CHECK_INT(db_writer_start(&w, path(name), NULL, 64, &e), 0);
        ingest_set_hooks(&h);
        CHECK_INT(gate_submit(w, &gate), 0);
        for (k = 0; k < N; k++) {
            json_t *body = json_loads(doc[k], 0, NULL);
            CHECK_INT(ingest_json(&in[k], body, "tester", a, &e), 0);
            json_decref(body);
            memset(&job[k], 0, sizeof job[k]);
            job[k].fn = ingest_job;
            job[k].group = ingest_group;
            job[k].arg = &in[k];
            job[k].done = gate_job_done;
            if (pass != 1 && k == 3)
                continue;
            if (k < N - 1)
                CHECK_INT(db_writer_submit(w, &job[k]), 0);
        }
        CHECK_INT(db_writer_run(w, &job[N - 1]), 0); /* done in order: all are */
        db_writer_stop(w);
        ingest_set_hooks(NULL);
        first = in[0].ids[0];
        /* ids in the order the uploads queued, as one by one */
        CHECK_INT(job[0].rc, 0);
        CHECK_INT(in[0].created, 1);
        CHECK_INT(job[1].rc, 0);
        CHECK_INT(in[1].created, 2);
        CHECK_INT(in[1].ids[0], first + 1);
        CHECK_INT(in[1].ids[1], first + 2);
        CHECK_INT(job[2].rc, 0);
        CHECK_INT(in[2].created, 0);
        CHECK_INT(in[2].existed[0], 1);
        CHECK_INT(in[2].ids[0], first);
        if (pass == 1) {
            CHECK_INT(job[3].rc, -1);
            CHECK_INT(job[3].err.status, ERR_CONFLICT);
            CHECK(strstr(job[3].err.message, "g2") != NULL);
        }
        CHECK_INT(job[4].rc, 0);
        CHECK_INT(in[4].created, 1);
        CHECK_INT(job[5].rc, 0);
        CHECK_INT(in[5].ids[0], in[4].ids[0] + 1);
        /* what the hook saw: after all five stored when grouped; after each
         * upload's own runs otherwise */
        CHECK_INT(s.calls, 5);
        CHECK_INT(s.asked, asked[pass]);
        CHECK_INT(s.asked_at, asked_at[pass]);
        if (grouped[pass]) {
            for (k = 0; k < 5; k++)
                CHECK_INT(s.runs[k], 5);
        } else {
            static const long long want[5] = {1, 3, 3, 4, 5};
            for (k = 0; k < 5; k++)
                CHECK_INT(s.runs[k], want[k]);
        }
        {
            db *d;
            CHECK_INT(db_open(&d, path(name), NULL, &e), 0);
            CHECK_INT(count_runs(d), 5);
            db_close(d);
        }
        arena_free(a);
    }
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
    RUN(test_uploads_grouped);
    RUN(test_conflicting_id_fails_batch);
    return harness_report_removing(dir);
}
