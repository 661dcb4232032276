/* The writer's windows in memory (db/sqlite/window.c) answer as the store
 * does, through everything that could make them disagree: a rollback that
 * takes back a run whose id the next run gets again, a run's delete (on this
 * connection and on another one), a back-dated run, and runs stored without
 * being judged. Each judgement's window is compared with the store's answer
 * (a NAN value reads the store without memory). */
#include "db/db.h"
#include "db/history.h"
#include "db/runs.h"
#include "tests/harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/prophecy-window-XXXXXX";

/* Stores one run of the one configuration inside the caller's transaction
 * (kernel < 0: without the kernel "solve"). */
static long long put(db *d, int day, double runtime, double kernel)
{
    struct err e = {0};
    struct rec_kernel k = {"solve", kernel, 1, NULL};
    struct rec_kv in = {"N", 100};
    struct run_record r = {0};
    char at[32];
    long long id = 0;
    int existed;

    snprintf(at, sizeof at, "2026-10-%02dT10:00:00Z", day);
    r.application = "app";
    r.executable = "a.x";
    r.system = "sys";
    r.nprocs = 4;
    r.runtime = runtime;
    r.started_at = at;
    r.submitter = "";
    r.inputs = &in;
    r.ninputs = 1;
    r.kernels = &k;
    r.nkernels = kernel < 0 ? 0 : 1;
    CHECK_INT(db_runs_insert(d, &r, 1, &id, &existed, &e), 0);
    return id;
}

static long long add(db *d, int day, double runtime, double kernel)
{
    struct err e = {0};
    long long id;
    CHECK_INT(db_begin(d, &e), 0);
    id = put(d, day, runtime, kernel);
    CHECK_INT(db_commit(d, &e), 0);
    return id;
}

static int checks;

/* Judges run (its values runtime and kernel) as the hook does and checks
 * both windows against the store's. */
static void judge(db *d, long long run, double runtime, double kernel)
{
    static const char *const ys[2] = {"runtime", "kernel:solve"};
    for (int k = 0; k < 2; k++) {
        struct err e = {0};
        double mem[8], store[8], v = k == 0 ? runtime : kernel;
        int n, m;
        if (v < 0)
            continue; /* the run lacks it: not judged */
        n = db_history_window(d, run, ys[k], v, 4, mem, &e);
        m = db_history_window(d, run, ys[k], NAN, 4, store, &e);
        CHECK(n >= 0 && n == m);
        if (n != m || n < 0) {
            fprintf(stderr, "run %lld %s: %d values from memory, %d in the store\n", run,
                    ys[k], n, m);
            continue;
        }
        for (int i = 0; i < n; i++)
            CHECK(mem[i] == store[i]);
        checks++;
    }
}

static long long step(db *d, int day, double runtime, double kernel)
{
    long long id = add(d, day, runtime, kernel);
    judge(d, id, runtime, kernel);
    return id;
}

static void test_windows_agree_with_the_store(void)
{
    struct err e = {0};
    char path[256];
    long long r6, r7, r7b;
    db *d, *other;

    snprintf(path, sizeof path, "%s/w.db", dir);
    CHECK_INT(db_open(&d, path, NULL, &e), 0);
    CHECK_INT(db_open(&other, path, NULL, &e), 0);
    step(d, 1, 1.0, 0.1);
    step(d, 2, 2.0, 0.2);
    step(d, 3, 3.0, 0.3);
    step(d, 4, 4.0, 0.4);
    step(d, 5, 5.0, 0.5);
    r6 = step(d, 6, 6.0, 0.6);

    /* a judged run rolled back; the next run gets its id again, without the
     * kernel, so the window of kernels must not hold the rolled-back value */
    CHECK_INT(db_begin(d, &e), 0);
    r7 = put(d, 7, 70.0, 70.0);
    judge(d, r7, 70.0, 70.0);
    db_rollback(d);
    r7b = step(d, 7, 7.0, -1);
    CHECK(r7b == r7); /* SQLite gives the id again: the case that matters */
    step(d, 8, 8.0, 0.8);

    /* a delete in the middle of the window, on this connection */
    CHECK_INT(db_begin(d, &e), 0);
    CHECK_INT(db_run_delete(d, r6, &e), 0);
    CHECK_INT(db_commit(d, &e), 0);
    step(d, 9, 9.0, 0.9);

    /* and on another connection */
    CHECK_INT(db_begin(other, &e), 0);
    CHECK_INT(db_run_delete(other, r7b, &e), 0);
    CHECK_INT(db_commit(other, &e), 0);
    step(d, 10, 10.0, 1.0);

    /* a back-dated run, then the next one */
    step(d, 2, 2.5, 0.25);
    step(d, 11, 11.0, 1.1);

    /* runs stored without being judged (no watch at the time) */
    add(d, 12, 12.0, 1.2);
    add(d, 13, 13.0, 1.3);
    step(d, 14, 14.0, 1.4);
    step(d, 15, 15.0, 1.5);

    /* a run stored by the other connection between two judged ones */
    add(other, 16, 16.0, 1.6);
    step(d, 17, 17.0, 1.7);
    CHECK(checks >= 25);
    db_close(other);
    db_close(d);
}

int main(void)
{
    if (mkdtemp(dir) == NULL)
        return 1;
    RUN(test_windows_agree_with_the_store);
    return harness_report_removing(dir);
}
