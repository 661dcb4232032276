/* An OTF2 trace imported with its event list (formats/import_otf2.c through
 * the sink's `traces` callback) and stored with its analyses
 * (core/trace.h run_trace_import, the charts of server/trace_draw.h), the
 * way an import path wires it: the runs and then their traces in one
 * transaction. The fixture (tests/data/import/otf2, make_trace.c.txt): two
 * ranks, 1000 ticks/s; rank r (d = 0, 200 ticks) runs main [0, 1000+d],
 * compute [100, 600+d], MPI_Barrier [600+d, 900+d], compute [900+d, 950+d]. */
#include "common/xalloc.h"
#include "core/ingest.h"
#include "core/trace.h"
#include "db/db.h"
#include "formats/formats.h"
#include "server/trace_draw.h"
#include "tests/data_file.h"
#include "tests/harness.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ctx {
    db *d;
    arena *a;
    long long run_id;
    int traces;
};

static int take_runs(void *u, const struct run_record *runs, size_t n, struct err *err)
{
    struct ctx *c = u;
    struct ingest in;
    if (ingest_records(&in, (struct run_record *)runs, n, "test", c->a, err) != 0 ||
        ingest_store(c->d, &in, err) != 0)
        return -1;
    c->run_id = in.ids[0];
    return 0;
}

static int take_trace(void *u, const char *uid, struct trace *t, struct err *err)
{
    struct ctx *c = u;
    c->traces++;
    return run_trace_import(c->d, uid, t, c->a, trace_draw, err);
}

/* import/FIXTURE/REL (tests/data_file.h). */
static char *slurp_in(const char *fixture, const char *rel, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", fixture, rel);
    return data_file(path, len);
}

static char *slurp(const char *rel, size_t *len)
{
    return slurp_in("otf2", rel, len);
}

static json_t *stored(db *d, long long id, int kind, arena *a)
{
    struct err e = {0};
    const char *text;
    size_t len;
    if (run_trace_stored(d, id, kind, 0, a, &text, &len, &e) != 0) {
        fprintf(stderr, "%s\n", e.message);
        return NULL;
    }
    return json_loadb(text, len, 0, NULL);
}

static double at(json_t *m, size_t i, size_t j)
{
    return json_number_value(json_array_get(json_array_get(m, i), j));
}

static void test_otf2_trace_stored(void)
{
    static const char *const names[] = {"trace/traces.otf2",  "trace/traces.def",
                                        "trace/traces/0.def", "trace/traces/0.evt",
                                        "trace/traces/1.def", "trace/traces/1.evt"};
    char dbpath[] = "/tmp/test_trace_import_XXXXXX";
    struct fmt_file f[6];
    char *data[6];
    struct err e = {0};
    struct ctx c = {0};
    struct fmt_sink sink = {take_runs, NULL, &c, take_trace, NULL, NULL, 0};
    json_t *w, *p, *o;
    int fd = mkstemp(dbpath);

    CHECK(fd >= 0);
    close(fd);
    unlink(dbpath);
    for (size_t i = 0; i < 6; i++) {
        data[i] = slurp(names[i], &f[i].len);
        CHECK(data[i] != NULL);
        f[i].name = names[i];
        f[i].data = data[i];
    }
    CHECK_INT(db_open(&c.d, dbpath, NULL, &e), 0);
    c.a = arena_new();
    CHECK_INT(db_begin(c.d, &e), 0);
    CHECK_INT(fmt_parse("otf2", f, 6, NULL, &sink, &e), 0);
    CHECK_INT(db_commit(c.d, &e), 0);
    CHECK_INT(c.traces, 1);
    CHECK(c.run_id > 0);

    /* wait: rank 0 is in the barrier from 0.6 s, rank 1 arrives at 0.8 s */
    w = stored(c.d, c.run_id, RUN_TRACE_WAIT, c.a);
    CHECK(w != NULL);
    CHECK_INT(json_integer_value(json_object_get(w, "nranks")), 2);
    CHECK(fabs(at(json_object_get(w, "wait"), 0, 1) - 0.2) < 1e-9);
    CHECK(fabs(at(json_object_get(w, "wait"), 1, 0)) < 1e-9);
    CHECK(fabs(json_number_value(json_object_get(w, "total")) - 0.2) < 1e-9);
    /* profile: one barrier of 0.3 s per rank; execution 1.0 s and 1.2 s */
    p = stored(c.d, c.run_id, RUN_TRACE_PROFILE, c.a);
    CHECK(p != NULL);
    for (size_t r = 0; r < 2; r++) {
        json_t *rk = json_array_get(json_object_get(p, "ranks"), r);
        CHECK_INT(json_integer_value(
                      json_object_get(json_object_get(rk, "calls"), "MPI_Barrier")),
                  1);
        CHECK(fabs(json_number_value(
                       json_object_get(json_object_get(rk, "time"), "MPI_Barrier")) -
                   0.3) < 1e-9);
        CHECK(fabs(json_number_value(json_object_get(rk, "exec")) - (1.0 + 0.2 * r)) <
              1e-9);
    }
    /* occupancy: the user states main and compute, the latter kept apart
     * from the class compute; compute (state) held 0.55 + 0.75 s in all */
    o = stored(c.d, c.run_id, RUN_TRACE_OCCUPANCY, c.a);
    CHECK(o != NULL);
    CHECK(fabs(json_number_value(
                   json_object_get(json_object_get(o, "mean"), "compute (state)")) -
               (0.55 + 0.75) / 2) < 1e-9);
    CHECK(json_object_get(json_object_get(o, "mean"), "main") != NULL);

    /* importing the same trace again stores nothing new and fails nothing */
    CHECK_INT(db_begin(c.d, &e), 0);
    CHECK_INT(fmt_parse("otf2", f, 6, NULL, &sink, &e), 0);
    CHECK_INT(db_commit(c.d, &e), 0);

    json_decref(w);
    json_decref(p);
    json_decref(o);
    arena_free(c.a);
    db_close(c.d);
    unlink(dbpath);
    for (size_t i = 0; i < 6; i++)
        xfree(data[i]);
}

/* The fixture tests/data/import/otf2-split (make_trace.c.txt there): four
 * ranks, a communicator "split" whose rank 0 is world rank 3 and rank 1
 * world rank 1. Its barrier: rank 3 from 0.1 s, rank 1 (last) from 0.4 s:
 * rank 3 waited 0.3 s for rank 1, nothing is charged to ranks 0 and 2, which
 * are not members. Rank 1's MPI_Recv [0.46, 0.7] from split rank 0 (world
 * rank 3), whose send began at 0.5: 0.04 s for rank 3. The world barrier,
 * entered at 0.8, 0.85, 0.9 and 0.95 s: 0.15, 0.1 and 0.05 s for rank 3.
 * Then rank 2's MPI_Irecv from rank 0, completed in an MPI_Waitall from 1.03 s
 * (its MpiIrecv record: a completed receive), rank 0's send began at 1.06 s:
 * 0.03 s of rank 2 for rank 0. */
static void test_otf2_split_communicator(void)
{
    static const char *const names[] = {"trace/traces.otf2",  "trace/traces.def",
                                        "trace/traces/0.def", "trace/traces/0.evt",
                                        "trace/traces/1.def", "trace/traces/1.evt",
                                        "trace/traces/2.def", "trace/traces/2.evt",
                                        "trace/traces/3.def", "trace/traces/3.evt"};
    static const double want[4][4] = {
        {0, 0, 0, 0.15}, {0, 0, 0, 0.14}, {0.03, 0, 0, 0.05}, {0, 0.3, 0, 0}};
    char dbpath[] = "/tmp/test_trace_import_XXXXXX";
    struct fmt_file f[10];
    char *data[10];
    struct err e = {0};
    struct ctx c = {0};
    struct fmt_sink sink = {take_runs, NULL, &c, take_trace, NULL, NULL, 0};
    json_t *w = NULL, *tr = NULL;
    int fd = mkstemp(dbpath);

    CHECK(fd >= 0);
    close(fd);
    unlink(dbpath);
    for (size_t i = 0; i < 10; i++) {
        data[i] = slurp_in("otf2-split", names[i], &f[i].len);
        CHECK(data[i] != NULL);
        f[i].name = names[i];
        f[i].data = data[i];
    }
    CHECK_INT(db_open(&c.d, dbpath, NULL, &e), 0);
    c.a = arena_new();
    CHECK_INT(db_begin(c.d, &e), 0);
    CHECK_INT(fmt_parse("otf2", f, 10, NULL, &sink, &e), 0);
    CHECK_INT(db_commit(c.d, &e), 0);
    CHECK_INT(c.traces, 1);
    w = stored(c.d, c.run_id, RUN_TRACE_WAIT, c.a);
    CHECK(w != NULL);
    if (w == NULL)
        goto out;
    CHECK_INT(json_integer_value(json_object_get(w, "nranks")), 4);
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 4; j++)
            if (!(fabs(at(json_object_get(w, "wait"), i, j) - want[i][j]) < 1e-9)) {
                fprintf(stderr, "wait[%zu][%zu] = %g, expected %g\n", i, j,
                        at(json_object_get(w, "wait"), i, j), want[i][j]);
                CHECK(0);
            }
    CHECK(fabs(json_number_value(json_object_get(w, "total")) - 0.67) < 1e-9);
    CHECK_INT(json_integer_value(json_object_get(w, "unmatched")), 0);
    /* the message went from world rank 3 to world rank 1 */
    tr = stored(c.d, c.run_id, RUN_TRACE_TRAFFIC, c.a);
    CHECK(tr != NULL);
    if (tr != NULL) {
        json_t *p2p = json_object_get(tr, "p2p");
        CHECK_INT(json_integer_value(
                      json_array_get(json_array_get(json_object_get(p2p, "msgs"), 3), 1)),
                  1);
        CHECK_INT(json_integer_value(json_array_get(
                      json_array_get(json_object_get(p2p, "bytes"), 3), 1)),
                  64);
        CHECK_INT(json_integer_value(
                      json_array_get(json_array_get(json_object_get(p2p, "msgs"), 0), 2)),
                  1);
        /* both had posted at 1.06 s, the Waitall ended at 1.09 s: 32 B in 0.03 s */
        CHECK(fabs(json_number_value(json_array_get(
                       json_array_get(json_object_get(p2p, "rate"), 0), 2)) -
                   32 / 0.03) < 1e-6);
    }
out:
    json_decref(w);
    json_decref(tr);
    arena_free(c.a);
    db_close(c.d);
    unlink(dbpath);
    for (size_t i = 0; i < 10; i++)
        xfree(data[i]);
}

int main(void)
{
#ifdef PROPHECY_HAVE_OTF2
    RUN(test_otf2_trace_stored);
    RUN(test_otf2_split_communicator);
#else
    (void)test_otf2_trace_stored;
    (void)test_otf2_split_communicator;
    printf("built without OTF2: nothing to check\n");
#endif
    return harness_report();
}
