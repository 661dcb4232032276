/* Stored traces analysed again after an upgrade (core/trace_renew.h, with
 * the charts of server/trace_draw.h as the server wires it): three runs get
 * the same trace (tests/data/trace/v2-halo), stored as on arrival; then one
 * is made to look stored by an older version (version 0, a chart and an
 * answer that are not this version's), one keeps this version with an
 * altered chart, and one is older with damaged rank files. Renewing gives
 * the first back exactly what arrival stored, leaves the second as it is,
 * and reports the third and leaves it as it was. */
#include "common/xalloc.h"
#include "core/trace.h"
#include "core/trace_renew.h"
#include "db/db.h"
#include "db/query.h"
#include "db/runs.h"
#include "db/trace.h"
#include "db/writer.h"
#include "formats/trace.h"
#include "server/trace_draw.h"
#include "tests/harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/test_trace_renew_XXXXXX";
static char dbpath[64];

/* Stores a run of 4 processes with client id uid and the halo trace; its
 * run id. */
static long long store_traced(db *d, const char *uid, arena *a)
{
    const char *root = getenv("PROPHECY_TEST_DATA");
    char tdir[4096];
    struct run_record r = {0};
    struct trace *t = NULL;
    struct err e = {0};
    long long id = 0;
    int existed;

    snprintf(tdir, sizeof tdir, "%s/trace/v2-halo", root ? root : "tests/data");
    r.uid = uid;
    r.application = "halo";
    r.executable = "halo.x";
    r.system = "sys";
    r.nprocs = 4;
    r.runtime = 1.0;
    CHECK_INT(db_begin(d, &e), 0);
    CHECK_INT(db_runs_insert(d, &r, 1, &id, &existed, &e), 0);
    CHECK_INT(trace_read_dir(tdir, &t, &e), 0);
    if (t != NULL)
        CHECK_INT(run_trace_import(d, uid, t, a, trace_draw, &e), 0);
    CHECK_INT(db_commit(d, &e), 0);
    if (e.message[0])
        fprintf(stderr, "store: %s\n", e.message);
    return id;
}

/* Every stored text of run id's trace (answers then charts) in one string
 * (free with xfree). */
static char *texts(db *d, long long id)
{
    struct buf b;
    struct err e = {0};
    arena *a = arena_new();
    char *out;
    size_t n;
    buf_init(&b, 1u << 26);
    for (int svg = 0; svg < 2; svg++)
        for (int k = 0; k < RUN_TRACE_COUNT; k++) {
            const char *text;
            size_t len;
            CHECK_INT(run_trace_stored(d, id, k, svg, a, &text, &len, &e), 0);
            if (e.status == 0)
                buf_printf(&b, "%s %d %zu\n%s\n", run_trace_name(k), svg, len, text);
            memset(&e, 0, sizeof e);
        }
    arena_free(a);
    out = buf_detach(&b, &n);
    return out;
}

static long long version(db *d, long long id)
{
    struct db_trace_info info;
    struct err e = {0};
    arena *a = arena_new();
    CHECK_INT(db_trace_info(d, id, a, &info, &e), 1);
    arena_free(a);
    return info.analysed;
}

struct failures {
    int n;
    long long run_id;
    char message[256];
};

static void failed(void *ctx, long long run_id, const struct err *e)
{
    struct failures *f = ctx;
    f->n++;
    f->run_id = run_id;
    snprintf(f->message, sizeof f->message, "%s", e->message);
}

static void test_older_traces_renewed(void)
{
    struct db_options opt = {DB_SYNC_OFF, 0, 10000};
    struct err e = {0};
    struct failures f = {0};
    db_writer *w = NULL;
    db *d = NULL;
    arena *a = arena_new();
    char *fresh, *kept, *got;
    long long old, cur, bad;
    int nfailed = -1;

    CHECK(mkdtemp(dir) != NULL);
    snprintf(dbpath, sizeof dbpath, "%s/t.db", dir);
    CHECK_INT(db_open(&d, dbpath, &opt, &e), 0);
    old = store_traced(d, "old", a);
    cur = store_traced(d, "current", a);
    bad = store_traced(d, "damaged", a);
    CHECK_INT(version(d, old), RUN_TRACE_VERSION);
    fresh = texts(d, old);
    CHECK(strstr(fresh, "<svg") != NULL);
    /* as an older prophecyd left them */
    CHECK(dq_run(d, "UPDATE traces SET analysed = 0 WHERE run_id = ?1", &e, "i", old) ==
          1);
    CHECK(dq_run(d,
                 "UPDATE trace_analyses SET svg = '<svg>old</svg>', answer = '{}' "
                 "WHERE run_id = ?1 AND name = 'wait'",
                 &e, "i", old) == 1);
    CHECK(dq_run(d, "UPDATE trace_analyses SET svg = '<svg>kept</svg>' WHERE run_id = ?1",
                 &e, "i", cur) == RUN_TRACE_COUNT);
    kept = texts(d, cur);
    CHECK(dq_run(d, "UPDATE traces SET analysed = 0 WHERE run_id = ?1", &e, "i", bad) ==
          1);
    CHECK(dq_run(d, "UPDATE trace_ranks SET data = x'00' WHERE run_id = ?1 AND rank = 1",
                 &e, "i", bad) == 1);
    got = texts(d, old);
    CHECK(strcmp(got, fresh) != 0);
    xfree(got);
    db_close(d);
    d = NULL;

    CHECK_INT(db_writer_start(&w, dbpath, &opt, 16, &e), 0);
    CHECK_INT(db_open(&d, dbpath, &opt, &e), 0);
    CHECK_INT(run_trace_renew(d, w, trace_draw, failed, &f, &nfailed, &e), 1);
    CHECK_INT(nfailed, 1);
    CHECK_INT(f.n, 1);
    CHECK_INT(f.run_id, bad);
    /* the old one: what arrival stored, byte for byte, at this version */
    got = texts(d, old);
    CHECK(strcmp(got, fresh) == 0);
    xfree(got);
    CHECK_INT(version(d, old), RUN_TRACE_VERSION);
    /* one at this version: not computed again */
    got = texts(d, cur);
    CHECK(strcmp(got, kept) == 0);
    xfree(got);
    /* the damaged one: as it was, and tried again next time */
    CHECK_INT(version(d, bad), 0);
    got = texts(d, bad);
    CHECK(strcmp(got, fresh) == 0);
    xfree(got);
    f.n = 0;
    CHECK_INT(run_trace_renew(d, w, trace_draw, failed, &f, &nfailed, &e), 0);
    CHECK_INT(nfailed, 1);
    CHECK_INT(f.n, 1);

    db_writer_stop(w);
    db_close(d);
    xfree(fresh);
    xfree(kept);
    arena_free(a);
    unlink(dbpath);
    snprintf(dbpath, sizeof dbpath, "%s/t.db-wal", dir);
    unlink(dbpath);
    snprintf(dbpath, sizeof dbpath, "%s/t.db-shm", dir);
    unlink(dbpath);
    rmdir(dir);
}

int main(void)
{
    RUN(test_older_traces_renewed);
    return harness_report();
}
