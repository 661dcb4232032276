/* The PostgreSQL history and traces (db/pg/history.c, trace.c) answer as
 * SQLite's do: the same runs are stored in an SQLite file and in a new
 * PostgreSQL database, then every function of db/history.h and db/trace.h is
 * called on both with the same arguments — reads, writes (watches,
 * judgements, alerts, executables, deletes) and their errors — and what each
 * returns is written out as text; the two texts must be equal, byte for byte
 * (timestamps the functions set from the clock are left out).
 *
 * Needs the private PostgreSQL cluster of the test harness: PROPHECY_PG_URI
 * (a base URI ending in '/') or PROPHECY_TEST_PG (tests/pg/cluster.py's
 * state file, as ctest sets it); exits 77 (skipped) without one.
 */
#include "common/isotime.h"
#include "common/buf.h"
#include "db/db.h"
#include "db/history.h"
#include "db/runs.h"
#include "db/trace.h"
#include "tests/harness.h"
#include "tests/unit/db/run_times.h"

#include <jansson.h>
#include <libpq-fe.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char base[512];

/* The cluster's base URI, or 0 when there is none. */
static int find_cluster(void)
{
    const char *uri = getenv("PROPHECY_PG_URI"), *state = getenv("PROPHECY_TEST_PG");
    if (uri && *uri) {
        snprintf(base, sizeof base, "%s", uri);
        return 1;
    }
    if (state && access(state, R_OK) == 0) {
        json_t *j = json_load_file(state, 0, NULL);
        const char *u = json_string_value(json_object_get(j, "uri"));
        if (u)
            snprintf(base, sizeof base, "%s", u);
        json_decref(j);
        return u != NULL;
    }
    return 0;
}

/* A new empty database on the cluster: its URI in out. */
static int new_database(char *out, size_t n)
{
    char uri[600], sql[128], name[64];
    PGconn *c;
    PGresult *r;
    int ok;
    snprintf(name, sizeof name, "prophecy_unit_%ld", (long)getpid());
    snprintf(uri, sizeof uri, "%spostgres", base);
    c = PQconnectdb(uri);
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s", name);
    PQclear(PQexec(c, sql));
    snprintf(sql, sizeof sql, "CREATE DATABASE %s TEMPLATE template0 ENCODING 'UTF8'",
             name);
    r = PQexec(c, sql);
    ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!ok)
        fprintf(stderr, "%s: %s", sql, PQerrorMessage(c));
    PQclear(r);
    PQfinish(c);
    snprintf(out, n, "%s%s", base, name);
    return ok;
}

static void drop_database(void)
{
    char uri[600], sql[128];
    PGconn *c;
    snprintf(uri, sizeof uri, "%spostgres", base);
    c = PQconnectdb(uri);
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS prophecy_unit_%ld WITH (FORCE)",
             (long)getpid());
    PQclear(PQexec(c, sql));
    PQfinish(c);
}

/* ---- the data ------------------------------------------------------------- */

static const char *const KN[3] = {"solve", "halo", "io"};

/* 40 runs of two applications: three processor counts, two sizes, commits,
 * branches and tags, kernels (one repeated name) and metrics. */
static void store(db *d)
{
    struct err e = {0};
    CHECK(db_begin(d, &e) == 0);
    for (int i = 0; i < 40; i++) {
        struct run_record r = {0};
        struct rec_kv in[2] = {{"N", i % 2 ? 1000 : 2000}, {"L", 64.5}};
        struct rec_kv m[1] = {{"gflops", 1.25 + i}};
        struct rec_kernel k[4];
        struct rec_tag t[2] = {{"compiler", i % 3 ? "gcc" : "clang"}, {"k", "v"}};
        char uid[32], at[32], commit[16];
        long long id;
        int existed;
        snprintf(uid, sizeof uid, "u%d", i);
        snprintf(at, sizeof at, "2026-10-%02dT%02d:00:00Z", 1 + i % 20, i % 24);
        snprintf(commit, sizeof commit, "c%d", i % 5);
        for (int j = 0; j < 4; j++)
            k[j] = (struct rec_kernel){KN[j % 3], 0.1 * (i + 1) * (j + 1) / 3.0, 1 + j,
                                       NULL};
        r.uid = uid;
        r.application = i < 30 ? "alpha" : "beta";
        r.executable = i % 4 ? "a.x" : "b.x";
        r.system = "sys";
        r.nprocs = 1 << (i % 3);
        r.runtime = 1.0 / 3.0 + i * 0.1 + (i == 33 ? 50 : 0);
        r.started_at = i % 7 ? at : NULL; /* some by their stored time */
        r.submitter = "t";
        r.inputs = in;
        r.ninputs = 2;
        r.metrics = m;
        r.nmetrics = i % 2;
        r.kernels = k;
        r.nkernels = (size_t)(i % 5);
        r.commit = commit;
        r.branch = i % 2 ? "main" : "dev";
        r.tags = t;
        r.ntags = (size_t)(i % 3);
        CHECK(db_runs_insert(d, &r, 1, &id, &existed, &e) == 0);
        CHECK_INT(id, i + 1);
    }
    CHECK(db_commit(d, &e) == 0);
    if (e.message[0])
        fprintf(stderr, "store: %s\n", e.message);
}

/* ---- writing out what the functions return --------------------------------- */

/* Ids PostgreSQL may number differently (an upsert takes an identity value
 * even when it updates, so configurations, applications, executables and
 * systems may have gaps that SQLite does not make): written as their order
 * of first appearance per kind instead. */
enum { K_CONFIG, K_APP, K_EXE, K_SYSTEM, NKINDS };
static long long seen[NKINDS][64];
static int nseen[NKINDS];

static int norm(int kind, long long id)
{
    if (id == 0)
        return 0;
    for (int i = 0; i < nseen[kind]; i++)
        if (seen[kind][i] == id)
            return i + 1;
    if (nseen[kind] == 64)
        return -1;
    seen[kind][nseen[kind]++] = id;
    return nseen[kind];
}

static void out_err(struct buf *o, int rc, struct err *e)
{
    buf_printf(o, " -> %d", rc);
    /* our own messages must match; a constraint's words are the engine's */
    if (rc < 0)
        buf_printf(o, " [%d %s %s %s]", e->status, e->code, e->field,
                   strcmp(e->code, "conflict") == 0 && strstr(e->message, "constraint")
                       ? "(the engine's words)"
                       : e->message);
    buf_putc(o, '\n');
    memset(e, 0, sizeof *e);
}

/* JSON with the clock's fields removed. */
static void out_json(struct buf *o, const char *what, json_t *j, struct err *e)
{
    char *s;
    if (j == NULL) {
        buf_printf(o, "%s: NULL [%d %s]\n", what, e->status, e->message);
        memset(e, 0, sizeof *e);
        return;
    }
    if (json_is_array(j)) {
        size_t i;
        json_t *row;
        json_array_foreach(j, i, row) if (json_is_object(row))
        {
            json_object_del(row, "created_at");
            json_object_del(row, "updated_at");
        }
    }
    s = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT | JSON_REAL_PRECISION(17));
    buf_printf(o, "%s: %s\n", what, s);
    free(s);
    json_decref(j);
}

/* The stored traces' versions (db_trace_older, db_trace_replace): run 3's
 * trace is at version 2 (ti), run 4's is stored at 0; each result is checked
 * and written out. */
static void versions(db *d, struct buf *o, struct db_trace_info *ti,
                     const void *const *ranks, const size_t *lens)
{
    struct db_trace_analysis an[2] = {{"wait", "{\"w\":[1,2]}", "<svg>w</svg>"},
                                      {"load", "{}", "<svg/>"}},
                             now = {"wait", "{\"w\":[3]}", "<svg>new</svg>"};
    struct db_trace_info got;
    struct err e = {0};
    arena *a = arena_new();
    long long old[4];
    const char *text;
    size_t len;
    int n;

    ti->run_id = 4;
    ti->analysed = 0;
    CHECK(db_begin(d, &e) == 0);
    out_err(o, db_trace_insert(d, ti, ranks, lens, an, 2, &e), &e);
    CHECK(db_commit(d, &e) == 0);
    n = db_trace_older(d, 2, 0, old, 4, &e);
    CHECK(n == 1 && old[0] == 4);
    buf_printf(o, "older than 2: %d %lld\n", n, old[0]);
    n = db_trace_older(d, 3, 0, old, 4, &e);
    CHECK(n == 2 && old[0] == 3 && old[1] == 4);
    buf_printf(o, "older than 3: %d %lld %lld\n", n, old[0], old[1]);
    n = db_trace_older(d, 3, 3, old, 4, &e);
    CHECK(n == 1 && old[0] == 4);
    n = db_trace_older(d, 3, 0, old, 1, &e);
    CHECK(n == 1 && old[0] == 3);
    CHECK_INT(db_trace_older(d, 0, 0, old, 4, &e), 0);
    CHECK(db_begin(d, &e) == 0);
    /* run 4's once; again at the same version, run 3's (newer) and a run
     * without a trace change nothing */
    CHECK_INT(db_trace_replace(d, 4, 2, &now, 1, &e), 1);
    CHECK_INT(db_trace_replace(d, 4, 2, an, 2, &e), 0);
    CHECK_INT(db_trace_replace(d, 3, 1, &now, 1, &e), 0);
    CHECK_INT(db_trace_replace(d, 9999, 5, &now, 1, &e), 0);
    CHECK(db_commit(d, &e) == 0);
    CHECK_INT(db_trace_info(d, 4, a, &got, &e), 1);
    CHECK_INT(got.analysed, 2);
    buf_printf(o, "run 4 at %lld", got.analysed);
    CHECK_INT(db_trace_info(d, 3, a, &got, &e), 1);
    CHECK_INT(got.analysed, 2);
    CHECK_INT(db_trace_analysis(d, 4, "wait", 1, a, &text, &len, &e), 1);
    CHECK_STR(text, "<svg>new</svg>");
    buf_printf(o, ", svg %s", text);
    CHECK_INT(db_trace_analysis(d, 4, "wait", 0, a, &text, &len, &e), 1);
    CHECK_STR(text, "{\"w\":[3]}");
    /* the set is replaced whole: an analysis not computed again is gone */
    CHECK_INT(db_trace_analysis(d, 4, "load", 0, a, &text, &len, &e), 0);
    CHECK_INT(db_trace_analysis(d, 3, "wait", 1, a, &text, &len, &e), 1);
    CHECK_STR(text, "<svg>w</svg>");
    CHECK_INT(db_trace_older(d, 2, 0, old, 4, &e), 0);
    buf_printf(o, ", run 3's %s\n", text);
    arena_free(a);
}

static void scenario(db *d, struct buf *o)
{
    static const char *const ys[] = {"runtime", "kernel:solve", "metric:gflops",
                                     "kernel:none", "speed"};
    struct err e = {0};
    arena *a = arena_new();
    struct db_history_filter f = {"alpha", NULL, NULL, 0, NULL, 0};
    struct db_history_filter fin = {"alpha", "a.x", "sys", 2, "{\"N\":1000}", 0};
    struct db_history_filter none = {"nope", NULL, NULL, 0, NULL, 0};
    struct db_history_config *c;
    struct db_watch *w;
    int n, rc, nw;
    long long wid = 0, ids[3];

    struct db_history_config *all;
    int nall;
    struct db_history_filter fb = {"beta", NULL, NULL, 0, NULL, 0};

    memset(nseen, 0, sizeof nseen);
    nall = db_history_configs(d, &f, 100, a, &all, &e);
    buf_printf(o, "configs %d\n", nall);
    for (int i = 0; i < nall; i++)
        buf_printf(o, "  %d %s %s %lld %s\n", norm(K_CONFIG, all[i].id),
                   all[i].executable, all[i].system, all[i].nprocs, all[i].inputs_json);
    n = db_history_configs(d, &fb, 100, a, &c, &e);
    for (int i = 0; i < n; i++)
        buf_printf(o, "  beta %d %s %lld %s\n", norm(K_CONFIG, c[i].id), c[i].executable,
                   c[i].nprocs, c[i].inputs_json);
    n = db_history_configs(d, &fin, 100, a, &c, &e);
    buf_printf(o, "configs filtered %d %d\n", n, n > 0 ? norm(K_CONFIG, c[0].id) : 0);
    out_err(o, db_history_configs(d, &none, 10, a, &c, &e), &e);
    n = db_history_configs(d, &f, 2, a, &c, &e);
    buf_printf(o, "configs max 2: %d\n", n);
    for (int ci = 0; ci < nall; ci++)
        for (size_t k = 0; k < sizeof ys / sizeof *ys; k++) {
            struct db_series_point *p;
            rc = db_history_series(d, all[ci].id, ys[k], a, &p, &e);
            buf_printf(o, "series %d %s:", ci, ys[k]);
            for (int i = 0; i < rc; i++) {
                char at[32];
                isotime_format(p[i].at, at);
                buf_printf(o, " (%lld %s %s %.17g)", p[i].run,
                           strncmp(at, "2026-10-", 8) == 0 ? at : "(stored)",
                           p[i].commit ? p[i].commit : "-", p[i].value);
            }
            out_err(o, rc, &e);
        }
    {
        /* the last two (filter f, as side 2): a branch without the runs of
         * a commit on it, and a list that names no commit of its runs */
        struct db_side sides[] = {{DB_SIDE_RUN, 7, NULL, NULL, NULL},
                                  {DB_SIDE_COMMIT, 0, "c2", NULL, NULL},
                                  {DB_SIDE_BRANCH, 0, "main", NULL, NULL},
                                  {DB_SIDE_TAG, 0, "compiler", "gcc", NULL},
                                  {DB_SIDE_TAG, 0, "k", "nope", NULL},
                                  {DB_SIDE_BRANCH, 0, "main", NULL, "[\"c2\"]"},
                                  {DB_SIDE_BRANCH, 0, "main", NULL, "[\"zz\", \"c9\"]"}};
        size_t counts[sizeof sides / sizeof *sides] = {0};
        for (size_t s = 0; s < sizeof sides / sizeof *sides; s++) {
            struct db_side_value *v;
            size_t nv;
            rc =
                db_history_side(d, s % 2 && s < 5 ? &fin : &f, &sides[s], a, &v, &nv, &e);
            counts[s] = nv;
            buf_printf(o, "side %zu (%zu):", s, nv);
            for (size_t i = 0; i < nv; i++)
                buf_printf(o, " (%d %s %.17g)", norm(K_CONFIG, v[i].config_id), v[i].y,
                           v[i].value);
            out_err(o, rc, &e);
        }
        /* main's runs of commit c2 (runs 7, 17 and 27 of alpha) left out;
         * commits that are not there leave every run in */
        CHECK(counts[5] > 0 && counts[5] < counts[2]);
        CHECK_INT((long long)counts[6], (long long)counts[2]);
        out_err(o,
                db_history_side(d, &none, &sides[0], a, &(struct db_side_value *){0},
                                &(size_t){0}, &e),
                &e);
    }
    /* watches and judgements, inside a transaction as the writer does */
    CHECK(db_begin(d, &e) == 0);
    {
        struct db_watch w1 = {0,         0,        0, 0,   0,    0,    "{\"N\":1000}",
                              "runtime", "zscore", 3, 5,   NULL, NULL, NULL,
                              0,         NULL,     0, NULL};
        struct db_watch w2 = {0,         0,   0, 0,    0,    2,    NULL, "kernel:solve",
                              "percent", 10,  3, NULL, NULL, NULL, 0,    NULL,
                              0,         NULL};
        struct db_watch w3 = {0,         0,     0, 0,   0,    0,    "{\"N\":\"x\"}",
                              "runtime", "iqr", 1, 4,   NULL, NULL, NULL,
                              0,         NULL,  0, NULL};
        out_err(o, db_watch_add(d, &w1, "alpha", NULL, NULL, &wid, &e), &e);
        buf_printf(o, "watch %lld\n", wid);
        out_err(o, db_watch_add(d, &w2, "alpha", "a.x", "sys", &wid, &e), &e);
        out_err(o, db_watch_add(d, &w3, "alpha", NULL, NULL, &wid, &e), &e);
        out_err(o, db_watch_add(d, &w1, "nope", NULL, NULL, &wid, &e), &e);
        out_err(o, db_watch_add(d, &w1, "alpha", "nope", NULL, &wid, &e), &e);
        out_err(o, db_watch_add(d, &w1, "alpha", NULL, "nope", &wid, &e), &e);
        buf_printf(o, "count %lld\n", db_watches_count(d, &e));
        buf_printf(o, "version moved %d\n", db_watches_version(d, &e) > 0);
    }
    nw = db_watches_all(d, a, &w, &e);
    buf_printf(o, "watches %d:", nw);
    for (int i = 0; i < nw; i++)
        buf_printf(o, " [%lld %lld %d %d %d %lld %s %s %s %.17g %lld %s %s %s]", w[i].id,
                   w[i].model_id, norm(K_APP, w[i].app_id), norm(K_EXE, w[i].exe_id),
                   norm(K_SYSTEM, w[i].system_id), w[i].nprocs,
                   w[i].inputs_json ? w[i].inputs_json : "-", w[i].y,
                   w[i].test ? w[i].test : "-", w[i].threshold, w[i].window,
                   w[i].application, w[i].executable ? w[i].executable : "-",
                   w[i].system ? w[i].system : "-");
    buf_printf(o, "\n");
    for (long long run = 1; run <= 40; run++) {
        struct db_judgement j[3];
        long long alerts[3];
        double v, hist[8];
        int nj;
        buf_printf(o, "run %lld:", run);
        for (size_t k = 0; k < sizeof ys / sizeof *ys; k++) {
            rc = db_run_value(d, run, ys[k], &v, &e);
            buf_printf(o, " %s=%d:%.17g", ys[k], rc, rc == 1 ? v : 0.0);
            memset(&e, 0, sizeof e);
            /* the run's own value moves the SQLite writer's window on */
            rc = db_history_window(d, run, ys[k], rc == 1 ? v : NAN, 4, hist, &e);
            buf_printf(o, " w%d", rc);
            for (int i = 0; i < rc; i++)
                buf_printf(o, ",%.17g", hist[i]);
            memset(&e, 0, sizeof e);
        }
        /* every watch judges every run, but watch 1 not run 40 (added below) */
        nj = 0;
        for (int i = run == 40 ? 1 : 0; i < nw && i < 3; i++)
            j[nj++] = (struct db_judgement){
                w[i].id, run, i == 1, 0.1 * (double)run,         1.0 / 3, 2.0 / 3, 0,
                1,       0.5, 1,      (int)((run + i) % 3 == 0), i - 1,   0};
        rc = db_judgements_add(d, j, (size_t)nj, alerts, &e);
        for (int i = 0; i < nj; i++)
            buf_printf(o, " alert %lld", alerts[i]);
        out_err(o, rc, &e);
    }
    {
        long long al;
        struct db_judgement j = {1, 40, 0, 0, 5, 4, 3, 6, 2.5, 1, 1, 1, 0};
        out_err(o, db_judgement_add(d, &j, &al, &e), &e);
        buf_printf(o, "alert %lld\n", al);
        CHECK(db_commit(d, &e) == 0);
        /* twice: a conflict (alone in its transaction: PostgreSQL aborts it) */
        CHECK(db_begin(d, &e) == 0);
        out_err(o, db_judgement_add(d, &j, &al, &e), &e);
        db_rollback(d);
    }
    out_json(o, "watches", db_watches_list(d, &e), &e);
    for (int ci = 0; ci < nall; ci++) {
        json_t *cw = NULL, *j = db_history_judgements(d, all[ci].id, &cw, &e);
        out_json(o, "judgements", j, &e);
        out_json(o, "covering", cw, &e);
    }
    out_json(o, "alerts", db_alerts_list(d, NULL, 0, &e), &e);
    out_json(o, "alerts open", db_alerts_list(d, "open", 0, &e), &e);
    out_json(o, "alert 2", db_alerts_list(d, NULL, 2, &e), &e);
    out_json(o, "model judgements", db_model_judgements(d, 1, &e), &e);
    CHECK(db_begin(d, &e) == 0);
    out_err(o, db_alert_set_state(d, 1, "acknowledged", &e), &e);
    out_err(o, db_alert_set_state(d, 999, "resolved", &e), &e);
    out_err(o, db_executable_put(d, "alpha", "c.x", "gcc", NULL, "12", &e), &e);
    out_err(o, db_executable_put(d, "alpha", "c.x", NULL, "-O3", NULL, &e), &e);
    out_err(o, db_executable_put(d, "nope", "c.x", NULL, "-O3", NULL, &e), &e);
    out_err(o, db_model_name(d, 1, "m", &e), &e);
    out_err(o, db_watch_delete(d, 2, &e), &e);
    out_err(o, db_watch_delete(d, 2, &e), &e);
    out_err(o, db_run_delete(d, 5, &e), &e);
    out_err(o, db_run_delete(d, 5, &e), &e);
    out_err(o, db_model_delete(d, 77, &e), &e);
    out_err(o, db_template_delete(d, "t", NULL, &e), &e);
    out_json(o, "template", db_template_get_in(d, "t", "alpha", &e), &e);
    out_err(o, db_app_delete(d, "beta", &e), &e);
    out_err(o, db_app_delete(d, "beta", &e), &e);
    out_err(o, db_demo_remove(d, &e), &e);
    CHECK(db_commit(d, &e) == 0);
    out_json(o, "watches after", db_watches_list(d, &e), &e);
    out_json(o, "alerts after", db_alerts_list(d, NULL, 0, &e), &e);
    for (int ci = 0; ci < nall; ci++) {
        struct db_series_point *p;
        rc = db_history_series(d, all[ci].id, "kernel:solve", a, &p, &e);
        buf_printf(o, "series after %d:", ci);
        for (int i = 0; i < rc; i++)
            buf_printf(o, " (%lld %.17g)", p[i].run, p[i].value);
        out_err(o, rc, &e);
    }
    /* traces: a run's ranks as bytes (with NUL and high bytes), analyses */
    {
        static const unsigned char r0[] = {0, 1, 2, 255, 0, 128, 'x'}, r1[] = {7};
        const void *ranks[2] = {r0, r1};
        size_t lens[2] = {sizeof r0, sizeof r1}, *gl;
        struct db_trace_info ti = {3, 2, 99, 1.0 / 7, 1, 8, NULL, 2}, got;
        struct db_trace_analysis an[2] = {{"wait", "{\"w\":[1,2]}", "<svg>w</svg>"},
                                          {"load", "{}", "<svg/>"}};
        struct db_trace_run *tr;
        const void **gr;
        const char *text;
        size_t len;
        int nr;
        CHECK(db_begin(d, &e) == 0);
        out_err(o, db_trace_insert(d, &ti, ranks, lens, an, 2, &e), &e);
        out_err(o, db_trace_insert(d, &ti, ranks, lens, an, 2, &e), &e);
        ti.run_id = 9999;
        out_err(o, db_trace_insert(d, &ti, ranks, lens, an, 2, &e), &e);
        CHECK(db_commit(d, &e) == 0);
        db_rollback(d);
        memset(&e, 0, sizeof e);
        rc = db_trace_info(d, 3, a, &got, &e);
        buf_printf(o, "info %d %lld %d %lld %.17g %lld %lld\n", rc, got.run_id,
                   got.nranks, got.nevents, got.span, got.dropped, got.bytes);
        buf_printf(o, "info none %d\n", db_trace_info(d, 4, a, &got, &e));
        rc = db_trace_analysis(d, 3, "wait", 0, a, &text, &len, &e);
        buf_printf(o, "answer %d %zu %s\n", rc, len, text);
        rc = db_trace_analysis(d, 3, "wait", 1, a, &text, &len, &e);
        buf_printf(o, "svg %d %zu %s\n", rc, len, text);
        buf_printf(o, "none %d\n",
                   db_trace_analysis(d, 3, "nope", 0, a, &text, &len, &e));
        rc = db_trace_ranks(d, 3, a, &gr, &gl, &nr, &e);
        buf_printf(o, "ranks %d %d:", rc, nr);
        for (int i = 0; i < nr; i++) {
            buf_printf(o, " %zu", gl[i]);
            for (size_t k = 0; k < gl[i]; k++)
                buf_printf(o, ".%u", ((const unsigned char *)gr[i])[k]);
        }
        buf_printf(o, "\nranks none %d\n", db_trace_ranks(d, 4, a, &gr, &gl, &nr, &e));
        n = db_trace_runs_of_app(d, "alpha", "N", 10, a, &tr, &e);
        buf_printf(o, "of app %d", n);
        for (int i = 0; i < n; i++)
            buf_printf(o, " %lld %lld %.17g", tr[i].run_id, tr[i].nprocs, tr[i].input);
        n = db_trace_runs_of_app(d, "alpha", "nope", 10, a, &tr, &e);
        buf_printf(o, " / %d %g", n, n > 0 ? tr[0].input : 0.0);
        n = db_trace_runs_of_app(d, "alpha", NULL, 0, a, &tr, &e);
        buf_printf(o, " / %d\n", n);
        buf_printf(o, "uid %d", db_trace_run_by_uid(d, "u3", &ids[0], &e));
        buf_printf(o, " %lld %d\n", ids[0], db_trace_run_by_uid(d, "none", &ids[1], &e));
        versions(d, o, &ti, ranks, lens);
    }
    arena_free(a);
}

static void test_same_answers(void)
{
    struct db_options opt = {DB_SYNC_OFF, 0, 10000};
    struct err e = {0};
    struct buf sq, pg;
    char dir[] = "/tmp/prophecy-pgh-XXXXXX", path[128], uri[700];
    db *d;

    buf_init(&sq, 1u << 24);
    buf_init(&pg, 1u << 24);
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/h.db", dir);
    CHECK(new_database(uri, sizeof uri));
    CHECK(db_open(&d, path, &opt, &e) == 0);
    store(d);
    scenario(d, &sq);
    db_close(d);
    CHECK(db_open(&d, uri, &opt, &e) == 0);
    if (e.message[0])
        fprintf(stderr, "open: %s\n", e.message);
    store(d);
    scenario(d, &pg);
    db_close(d);
    CHECK(!buf_failed(&sq) && !buf_failed(&pg));
    CHECK(sq.len > 5000);
    if (strcmp(buf_str(&sq), buf_str(&pg)) != 0) {
        /* the first line that differs */
        const char *s = buf_str(&sq), *p = buf_str(&pg);
        size_t i = 0, line = 0;
        while (s[i] && s[i] == p[i])
            i++;
        while (i > 0 && s[i - 1] != '\n')
            i--;
        for (size_t k = 0; k < i; k++)
            line += s[k] == '\n';
        fprintf(stderr, "line %zu differs:\nsqlite:     %.400s\npostgresql: %.400s\n",
                line + 1, s + i, p + i);
        if (getenv("PROPHECY_TEST_DUMP") != NULL) {
            FILE *f = fopen("/tmp/pgh-sqlite.txt", "w"),
                 *g = fopen("/tmp/pgh-pg.txt", "w");
            if (f != NULL)
                fputs(s, f);
            if (g != NULL)
                fputs(p, g);
            if (f != NULL)
                fclose(f);
            if (g != NULL)
                fclose(g);
        }
        CHECK(0);
    }
    buf_free(&sq);
    buf_free(&pg);
    unlink(path);
    snprintf(path, sizeof path, "%s/h.db-wal", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/h.db-shm", dir);
    unlink(path);
    rmdir(dir);
    drop_database();
}

extern const char db_schema_pg_sql[];

/* Migration 8 on a PostgreSQL database written at version 7: every run's
 * at_ms is the C parser's instant of its time text, for the texts
 * PostgreSQL's own parser refuses too (offsets past 15:59, 60.5 seconds,
 * February 31) — the same texts as unit.test_history_migration's. */
static void test_migration_8(void)
{
    const char *end = strstr(db_schema_pg_sql, "-- migration 8");
    char uri[700], *v7 = strndup(db_schema_pg_sql, (size_t)(end - db_schema_pg_sql));
    struct err e = {0};
    PGconn *c;
    PGresult *r;
    db *d;
    size_t i;

    CHECK(new_database(uri, sizeof uri));
    c = PQconnectdb(uri);
    r = PQexec(c, v7);
    CHECK(PQresultStatus(r) == PGRES_COMMAND_OK);
    PQclear(r);
    r = PQexec(c, "UPDATE prophecy_schema SET version = 7;"
                  "INSERT INTO applications (id, name) VALUES (1, 'a');"
                  "INSERT INTO executables (id, app_id, name) VALUES (1, 1, 'x');"
                  "INSERT INTO systems (id, name) VALUES (1, 's');");
    CHECK(PQresultStatus(r) == PGRES_COMMAND_OK);
    PQclear(r);
    for (i = 0; i < NRUN_TIMES; i++) {
        char sql[300];
        snprintf(sql, sizeof sql,
                 "INSERT INTO runs (app_id, exe_id, system_id, nprocs, runtime, "
                 "started_at, created_at) VALUES (1, 1, 1, 4, 1.0, '%s', "
                 "'2026-03-01T00:00:00Z')",
                 RUN_TIMES[i]);
        r = PQexec(c, sql);
        CHECK(PQresultStatus(r) == PGRES_COMMAND_OK);
        PQclear(r);
    }
    PQfinish(c);
    free(v7);
    CHECK_INT(db_open(&d, uri, NULL, &e), 0);
    db_close(d);
    c = PQconnectdb(uri);
    r = PQexec(c, "SELECT started_at, at_ms FROM runs ORDER BY id");
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == (int)i);
    for (int k = 0; k < PQntuples(r); k++) {
        long long ms = 0, got = strtoll(PQgetvalue(r, k, 1), NULL, 10);
        CHECK_INT(isotime_parse(PQgetvalue(r, k, 0), &ms), 0);
        if (got != ms)
            fprintf(stderr, "%s: at_ms %lld, parsed %lld\n", PQgetvalue(r, k, 0), got,
                    ms);
        CHECK(got == ms);
    }
    PQclear(r);
    PQfinish(c);
    drop_database();
}

int main(void)
{
    if (!find_cluster()) {
        printf("SKIP: no PostgreSQL cluster (PROPHECY_PG_URI or PROPHECY_TEST_PG)\n");
        return 77;
    }
    RUN(test_same_answers);
    RUN(test_migration_8);
    return harness_report();
}
