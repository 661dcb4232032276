/* Unit tests for db/browse: the dashboard's own reads (whether an
 * application's runs record kernels, the modeling forms' name lists, the
 * metric and kernel names of runs) against a real temporary database. */
#include "db/browse.h"
#include "db/catalog.h"
#include "db/runs.h"
#include "tests/harness.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

static char dir[] = "/tmp/prophecy-browsetest-XXXXXX";
static char dbpath[300];

/* kernels: 0 none, 1 two with a time, 2 two without one (SPEC §16). */
static long long add(db *d, const char *app, const char *exe, const char *sys,
                     int kernels)
{
    struct err e = {0};
    struct rec_kernel k[2] = {{"solve", 2.0, 1, NULL}, {"init", 1.0, 1, NULL}};
    struct rec_kv m[2] = {{"mflops", 100}, {"cache_misses", 7}};
    struct run_record r = {0};
    long long id = 0;
    int existed;
    r.application = app;
    r.executable = exe;
    r.system = sys;
    r.nprocs = 4;
    r.runtime = 3.0;
    if (kernels == 2)
        k[0].time = k[1].time = NAN;
    r.kernels = k;
    r.nkernels = kernels ? 2 : 0;
    r.metrics = m;
    r.nmetrics = 2;
    CHECK_INT(db_begin(d, &e), 0);
    CHECK_INT(db_runs_insert(d, &r, 1, &id, &existed, &e), 0);
    CHECK_INT(db_commit(d, &e), 0);
    return id;
}

/* The names of a [{"name"}] list joined by commas (static). */
static const char *names(json_t *list)
{
    static char out[512];
    size_t i, n = 0;
    json_t *x;
    out[0] = '\0';
    json_array_foreach(list, i, x)
    {
        json_t *v = json_is_object(x) ? json_object_get(x, "name") : x;
        n += (size_t)snprintf(out + n, sizeof out - n, "%s%s", i ? "," : "",
                              json_string_value(v));
        if (n >= sizeof out)
            break;
    }
    json_decref(list);
    return out;
}

static void test_lists(void)
{
    struct err e = {0};
    db *d = NULL;
    long long k1, k2, m1, nt, ids[3];
    CHECK_INT(db_open(&d, dbpath, NULL, &e), 0);
    if (d == NULL)
        return;
    k1 = add(d, "bt", "bt.x", "sp2", 1);
    k2 = add(d, "bt", "bt.y", "origin", 1);
    m1 = add(d, "mm", "mm.x", "sp2", 0);
    add(d, "bt", "bt.z", "sp2", 0);
    /* kernels without a time: nothing to draw, couple or fit */
    nt = add(d, "nt", "nt.x", "sp2", 2);
    CHECK_INT(db_template_put(d, "mm-t", "mm", "", "N*2", "", &e), 0);

    CHECK_INT(db_app_has_kernels(d, db_app_id(d, "bt", 0, &e), &e), 1);
    CHECK_INT(db_app_has_kernels(d, db_app_id(d, "mm", 0, &e), &e), 0);
    CHECK_INT(db_app_has_kernels(d, 999, &e), 0);
    CHECK_INT(db_app_has_kernels(d, db_app_id(d, "nt", 0, &e), &e), 0);

    CHECK_STR(names(db_names_list(d, DB_NAMES_KERNEL_APPS, NULL, NULL, &e)), "bt");
    CHECK_STR(names(db_names_list(d, DB_NAMES_KERNEL_SYSTEMS, "bt", NULL, &e)),
              "origin,sp2");
    CHECK_STR(names(db_names_list(d, DB_NAMES_KERNEL_EXES, "bt", "sp2", &e)), "bt.x");
    CHECK_STR(names(db_names_list(d, DB_NAMES_TEMPLATE_APPS, NULL, NULL, &e)), "mm");
    CHECK_STR(names(db_names_list(d, DB_NAMES_APP_SYSTEMS, "mm", NULL, &e)), "sp2");
    CHECK_STR(names(db_names_list(d, DB_NAMES_APP_SYSTEMS, "nope", NULL, &e)), "");

    ids[0] = k1;
    ids[1] = k2;
    ids[2] = m1;
    /* kernels in the order the runs record them, metrics by name */
    CHECK_STR(names(db_run_names(d, ids, 3, 1, &e)), "solve,init");
    CHECK_STR(names(db_run_names(d, ids, 3, 0, &e)), "cache_misses,mflops");
    CHECK_STR(names(db_run_names(d, ids, 0, 1, &e)), "");
    CHECK_STR(names(db_run_names(d, &nt, 1, 1, &e)), "");
    CHECK_STR(names(db_run_names(d, &nt, 1, 0, &e)), "cache_misses,mflops");
    /* a configuration's latest repetition without the kernels: every run of
     * the configuration still names them (an Extra-P region measured in 5
     * of 6 repetitions) */
    ids[0] = add(d, "bt", "bt.x", "sp2", 0);
    CHECK_STR(names(db_run_names(d, ids, 1, 1, &e)), "");
    CHECK_STR(names(db_config_names(d, ids, 1, 1, &e)), "solve,init");
    CHECK_STR(names(db_config_names(d, ids, 1, 0, &e)), "cache_misses,mflops");
    CHECK_STR(names(db_config_names(d, &m1, 1, 1, &e)), "");
    CHECK_INT(e.status, 0);
    db_close(d);
}

int main(void)
{
    if (mkdtemp(dir) == NULL)
        return 1;
    snprintf(dbpath, sizeof dbpath, "%s/b.db", dir);
    RUN(test_lists);
    unlink(dbpath);
    {
        char p[320];
        snprintf(p, sizeof p, "%s-wal", dbpath);
        unlink(p);
        snprintf(p, sizeof p, "%s-shm", dbpath);
        unlink(p);
    }
    rmdir(dir);
    return harness_report();
}
