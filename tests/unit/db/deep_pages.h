/* deep_pages: the deep offset pages test (db/tally.h) on a database of
 * either engine, shared by test_summary (SQLite) and test_pg (PostgreSQL). */
#ifndef PROPHECY_TEST_DEEP_PAGES_H
#define PROPHECY_TEST_DEEP_PAGES_H

#include "db/catalog.h"
#include "db/history.h"
#include "db/query.h"
#include "db/runs.h"
#include "db/summary.h"
#include "tests/harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The offset of a page of q's order read by a plain OFFSET walk: what
 * db_runs_page must answer whichever way it finds the page. */
static int offset_page(db *d, const struct db_page_query *q, long long *ids)
{
    static const char *const sql[3][2] = {
#define REF(order)                                                                       \
    "SELECT id FROM runs WHERE app_id = ?1 AND (?2 = 0 OR exe_id = ?2) AND (?3 = 0 OR "  \
    "system_id = ?3) ORDER BY " order " LIMIT ?4 OFFSET ?5"
        {REF("id"), REF("id DESC")},
        {REF("nprocs, exe_id, system_id, id"),
         REF("nprocs DESC, exe_id DESC, system_id DESC, id DESC")},
        {REF("runtime, exe_id, system_id, id"),
         REF("runtime DESC, exe_id DESC, system_id DESC, id DESC")},
#undef REF
    };
    struct err e = {0};
    struct db_stmt *st =
        dq_prepare(d, sql[q->sort][q->desc], &e, "iiiii", q->app_id, q->exe_id,
                   q->system_id, (long long)q->limit, q->offset);
    int n = 0, rc;
    CHECK(st != NULL);
    while (st != NULL && (rc = dq_step(d, st, &e)) == 1)
        ids[n++] = dq_ll(d, st, 0);
    return n;
}

/* Pages reached by offset deep enough to be found from run_tally (migration
 * 17) are the plain OFFSET answer: every order, direction and filter, with
 * or without the total, around segment edges, on runs of two applications
 * whose ids interleave, with many ties of runtime and nprocs, runs without a
 * runtime, and deleted runs (whole id blocks of one executable among them).
 * d is a new, empty database of either engine. */
static void deep_pages(db *d)
{
    static const char *const exes[2] = {"a.x", "b.x"}, *const systems[2] = {"s1", "s2"};
    struct err e = {0};
    arena *a = arena_new();
    long long app, exe[2], sys[2], id, *want = malloc(1000 * sizeof *want), del = 0;
    unsigned seed = 7;
    int i, j;

    for (i = 0; i < 44000;) {
        struct run_record r[500];
        long long ids[500];
        int existed[500], m = i < 100 ? 1 : 500; /* some runs one at a time */
        memset(r, 0, sizeof r);
        for (j = 0; j < m; j++, i++) {
            seed = seed * 1103515245u + 12345u;
            r[j].application = i % 11 == 5 ? "other" : "deep";
            r[j].executable = exes[(seed >> 9) & 1];
            r[j].system = systems[(seed >> 11) % 3 == 0];
            r[j].nprocs = 1LL << ((seed >> 13) % 5);
            switch ((seed >> 16) % 8) {
            case 0: /* no runtime */
                r[j].runtime = NAN;
                break;
            case 1:
            case 2:
            case 3: /* a few values, each shared by thousands */
                r[j].runtime = 0.25 * ((seed >> 20) % 6);
                break;
            case 4: /* powers of two and their neighbours: segment edges */
                r[j].runtime = ldexp(1.0, (int)((seed >> 20) % 9) - 4) *
                               (1 + ((int)((seed >> 24) % 3) - 1) * 0x1p-52);
                break;
            default: /* spread over six octaves */
                r[j].runtime = 0.01 * (1 + ((seed >> 8) & 0xffff) / 1024.0);
            }
        }
        CHECK_INT(db_begin(d, &e), 0);
        CHECK_INT(db_runs_insert(d, r, (size_t)m, ids, existed, &e), 0);
        CHECK_INT(db_commit(d, &e), 0);
    }
    app = db_app_id(d, "deep", 0, &e);
    for (j = 0; j < 2; j++) {
        exe[j] = db_exe_id(d, app, exes[j], &e);
        sys[j] = db_system_id(d, systems[j], 0, &e);
    }
    /* deletes: every run of a.x on one processor in ids 8192..12287 (whole
     * segments of the nprocs order), and one run in 211 elsewhere */
    {
        long long *gone = malloc(44000 * sizeof *gone);
        struct db_stmt *st =
            dq_prepare(d,
                       "SELECT id FROM runs WHERE (exe_id = ?1 AND nprocs = 1 AND id "
                       ">= 8192 AND id < 12288) OR id % 211 = 0",
                       &e, "i", exe[0]);
        while (st != NULL && dq_step(d, st, &e) == 1)
            gone[del++] = dq_ll(d, st, 0);
        CHECK_INT(db_begin(d, &e), 0);
        for (id = 0; id < del; id++)
            CHECK_INT(db_run_delete(d, gone[id], &e), 0);
        free(gone);
    }
    CHECK_INT(db_commit(d, &e), 0);
    CHECK(del > 400);
    {
        long long empty = -1;
        CHECK_INT(dq_scalar(d, &empty, "SELECT count(*) FROM run_tally WHERE runs <= 0",
                            &e, ""),
                  1);
        CHECK_INT(empty, 0);
    }
    for (int sort = DB_SORT_ID; sort <= DB_SORT_RUNTIME; sort++)
        for (int desc = 0; desc < 2; desc++)
            for (int f = 0; f < 4; f++) {
                struct db_page_query q = {app,
                                          f & 1 ? exe[1] : 0,
                                          f & 2 ? sys[0] : 0,
                                          (enum db_sort)sort,
                                          desc,
                                          0,
                                          50,
                                          0,
                                          0,
                                          0};
                long long total = db_summary_count(d, app, q.exe_id, q.system_id, &e);
                long long offs[40];
                int no = 0, t;
                CHECK(total > 8192 + 200);
                /* the walk's edge, segment edges (4,096 ids), the middle,
                 * the end and past it, and a few between */
                offs[no++] = 8192;
                offs[no++] = 8193;
                offs[no++] = total / 2;
                offs[no++] = total - 1;
                offs[no++] = total - 50;
                offs[no++] = total - 51;
                offs[no++] = total;
                offs[no++] = total + 7;
                for (long long o = 8200; o < total && no < 40; o += 2473)
                    offs[no++] = o;
                for (int o = 0; o < no; o++)
                    for (t = 0; t < 2; t++) {
                        struct db_page_row *rows;
                        int n, nw;
                        q.offset = offs[o];
                        q.limit = o % 3 == 0 ? 1 : o % 3 == 1 ? 50 : 300;
                        q.total = t ? total : 0;
                        n = db_runs_page(d, &q, a, &rows, &e);
                        nw = offset_page(d, &q, want);
                        CHECK_INT(n, nw);
                        for (i = 0; i < n && i < nw; i++)
                            if (rows[i].id != want[i]) {
                                CHECK_INT(rows[i].id, want[i]);
                                break;
                            }
                        if (n > 0)
                            CHECK_INT(rows[0].ninputs, 0);
                    }
            }
    free(want);
    arena_free(a);
}

/* run_tally's rows in key order, as JSON (new reference). */
static json_t *deep_tally_rows(db *d)
{
    struct err e = {0};
    return dq_json(d,
                   "SELECT app_id, kind, k, exe_id, system_id, blk, runs FROM run_tally "
                   "ORDER BY app_id, kind, k, exe_id, system_id, blk",
                   &e, "");
}

#endif
