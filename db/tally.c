/* tally: counts of runs by segments of each page order (db/tally.h),
 * written once for every engine on db/query.h. Where the engines are best
 * served differently (PostgreSQL: one statement, one row back, to save round
 * trips; SQLite: in-process steps that stop early) both ways are here, and
 * unit.test_summary and unit.test_pg run the same checks through each. */
#include "db/tally.h"
#include "db/query.h"
#include "db/summary.h"

#include <math.h>
#include <stdlib.h>

double db_tally_runtime_key(double runtime)
{
    int e;
    double m;
    if (!(runtime >= 0x1p-900))
        return 0;
    m = frexp(runtime, &e); /* runtime = m 2^e, 0.5 <= m < 1 */
    return ldexp(floor(ldexp(m, 9)), e - 9);
}

void db_tally_rows_of(long long id, long long app_id, long long exe_id,
                      long long system_id, long long nprocs, double runtime,
                      struct db_tally_row r[3])
{
    long long blk = id >> DB_TALLY_BLOCK_BITS;
    r[0] =
        (struct db_tally_row){app_id, DB_TALLY_ID, (double)blk, exe_id, system_id, 0, 1};
    r[1] = (struct db_tally_row){
        app_id, DB_TALLY_NPROCS, (double)nprocs, exe_id, system_id, blk, 1};
    if (isnan(runtime))
        r[2] =
            (struct db_tally_row){app_id, DB_TALLY_UNTIMED, 0, exe_id, system_id, blk, 1};
    else
        r[2] = (struct db_tally_row){
            app_id, DB_TALLY_TIMED, db_tally_runtime_key(runtime), exe_id, system_id, 0,
            1};
}

static int row_cmp(const void *pa, const void *pb)
{
    const struct db_tally_row *a = pa, *b = pb;
#define CMP(f)                                                                           \
    if (a->f != b->f)                                                                    \
        return a->f < b->f ? -1 : 1;
    CMP(app_id)
    CMP(kind)
    CMP(k)
    CMP(exe_id)
    CMP(system_id)
    CMP(blk)
#undef CMP
    return 0;
}

size_t db_tally_sum_rows(struct db_tally_row *rows, size_t n)
{
    size_t i, m;
    qsort(rows, n, sizeof *rows, row_cmp);
    for (i = 0, m = 0; i < n; i++) {
        if (m > 0 && row_cmp(&rows[m - 1], &rows[i]) == 0)
            rows[m - 1].runs += rows[i].runs;
        else
            rows[m++] = rows[i];
    }
    return m;
}

static const char SQL_ADD[] =
    "INSERT INTO run_tally (app_id, kind, k, exe_id, system_id, blk, runs) VALUES "
    "(?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (app_id, kind, k, exe_id, system_id, blk) "
    "DO UPDATE SET runs = run_tally.runs + excluded.runs";
/* A run's keys (for taking it out of its segments). */
static const char SQL_KEY[] =
    "SELECT app_id, exe_id, system_id, nprocs, runtime FROM runs WHERE id = ?1";

int db_tally_add(db *d, struct db_tally_row *rows, size_t n, struct err *err)
{
    size_t i, m = db_tally_sum_rows(rows, n); /* one write per segment row */
    for (i = 0; i < m; i++)
        if (dq_run(d, SQL_ADD, err, "iidiiii", rows[i].app_id, (long long)rows[i].kind,
                   rows[i].k, rows[i].exe_id, rows[i].system_id, rows[i].blk,
                   rows[i].runs) < 0)
            return -1;
    return 0;
}

#define TALLY_KEY                                                                        \
    "app_id = ?1 AND kind = ?2 AND k = ?3 AND exe_id = ?4 AND system_id = ?5 AND blk = " \
    "?6"
static const char SQL_TAKE[] = "UPDATE run_tally SET runs = runs - 1 WHERE " TALLY_KEY;
static const char SQL_EMPTY[] = "DELETE FROM run_tally WHERE " TALLY_KEY " AND runs <= 0";

int db_tally_drop_run(db *d, long long id, struct err *err)
{
    struct db_tally_row r[3];
    struct db_stmt *st = dq_prepare(d, SQL_KEY, err, "i", id);
    int rc = st ? dq_step(d, st, err) : -1, i;
    if (rc <= 0)
        return rc;
    db_tally_rows_of(id, dq_ll(d, st, 0), dq_ll(d, st, 1), dq_ll(d, st, 2),
                     dq_ll(d, st, 3), dq_opt_dbl(d, st, 4), r);
    dq_reset(d, st);
    for (i = 0; i < 3; i++)
        if (dq_run(d, SQL_TAKE, err, "iidiii", r[i].app_id, (long long)r[i].kind, r[i].k,
                   r[i].exe_id, r[i].system_id, r[i].blk) < 0 ||
            dq_run(d, SQL_EMPTY, err, "iidiii", r[i].app_id, (long long)r[i].kind, r[i].k,
                   r[i].exe_id, r[i].system_id, r[i].blk) < 0)
            return -1;
    return 0;
}

/* ---- reads --------------------------------------------------------------- */

#define TALLY_FILTER                                                                     \
    "app_id = ?1 AND kind = ?2 AND (?3 = 0 OR exe_id = ?3) AND (?4 = 0 OR system_id = "  \
    "?4)"
static const char SQL_COUNT[] =
    "SELECT coalesce(sum(runs), 0) FROM run_tally WHERE " TALLY_FILTER;
static const char SQL_ROWS[] =
    "SELECT k, exe_id, system_id, blk, runs FROM run_tally "
    "WHERE " TALLY_FILTER " ORDER BY k, exe_id, system_id, blk";
/* The segment holding position ?5 of one kind (0-based, from the kind's
 * first run) and the position of its first run: the running sum of the
 * counts in key order, summed by k first where a segment spans one k's rows
 * (SQL_FIND_K), one row a segment otherwise. One row comes back, whatever
 * the number of segments before it. */
static const char SQL_FIND_ROW[] =
    "SELECT k, exe_id, system_id, blk, upto - runs FROM (SELECT k, exe_id, system_id, "
    "blk, runs, sum(runs) OVER (ORDER BY k, exe_id, system_id, blk ROWS UNBOUNDED "
    "PRECEDING) AS upto FROM run_tally WHERE " TALLY_FILTER ") t WHERE upto > ?5 "
    "ORDER BY k, exe_id, system_id, blk LIMIT 1";
static const char SQL_FIND_K[] =
    "SELECT k, 0, 0, 0, upto - runs FROM (SELECT k, runs, sum(runs) OVER (ORDER BY k "
    "ROWS UNBOUNDED PRECEDING) AS upto FROM (SELECT k, sum(runs) AS runs FROM run_tally "
    "WHERE " TALLY_FILTER " GROUP BY k) g) t WHERE upto > ?5 ORDER BY k LIMIT 1";

/* The kinds of sort's order, ascending, into kinds; returns their number. */
static int kinds_of(db *d, int sort, int kinds[2])
{
    if (sort == DB_SORT_NPROCS) {
        kinds[0] = DB_TALLY_NPROCS;
        return 1;
    }
    if (sort != DB_SORT_RUNTIME) {
        kinds[0] = DB_TALLY_ID;
        return 1;
    }
    /* SQLite sorts NULL first ascending, PostgreSQL last */
    kinds[0] = DQ_SQL(d, DB_TALLY_UNTIMED, DB_TALLY_TIMED);
    kinds[1] = DQ_SQL(d, DB_TALLY_TIMED, DB_TALLY_UNTIMED);
    return 2;
}

long long db_tally_count(db *d, long long app_id, long long exe_id, long long system_id,
                         int sort, struct err *err)
{
    int kinds[2], nk = kinds_of(d, sort, kinds), i;
    long long total = 0;
    for (i = 0; i < nk; i++) {
        long long n = 0;
        if (dq_scalar(d, &n, SQL_COUNT, err, "iiii", app_id, (long long)kinds[i], exe_id,
                      system_id) < 0)
            return -1;
        total += n;
    }
    return total;
}

/* SQLite: the counts stepped in key order in this process, stopping at the
 * segment (no round trip to save; its window functions would sum every row). */
static int find_by_walk(db *d, long long app_id, long long exe_id, long long system_id,
                        int kind, long long pos, struct db_tally_seg *seg,
                        struct err *err)
{
    int by_k = kind == DB_TALLY_ID || kind == DB_TALLY_TIMED, first = 1, rc;
    long long cum = 0;
    struct db_stmt *st =
        dq_prepare(d, SQL_ROWS, err, "iiii", app_id, (long long)kind, exe_id, system_id);
    if (st == NULL)
        return -1;
    while ((rc = dq_step(d, st, err)) == 1) {
        double k = dq_dbl(d, st, 0);
        if (!by_k || first || k != seg->k) {
            seg->k = k;
            seg->exe_id = dq_ll(d, st, 1);
            seg->system_id = dq_ll(d, st, 2);
            seg->blk = dq_ll(d, st, 3);
            seg->start = cum;
            first = 0;
        }
        cum += dq_ll(d, st, 4);
        if (cum > pos) {
            dq_reset(d, st);
            return 1;
        }
    }
    return rc;
}

/* PostgreSQL: one row back from the running sums (no row of counts crosses
 * the network but the segment's). */
static int find_by_sum(db *d, long long app_id, long long exe_id, long long system_id,
                       int kind, long long pos, struct db_tally_seg *seg, struct err *err)
{
    int by_k = kind == DB_TALLY_ID || kind == DB_TALLY_TIMED, rc;
    struct db_stmt *st = dq_prepare(d, by_k ? SQL_FIND_K : SQL_FIND_ROW, err, "iiiii",
                                    app_id, (long long)kind, exe_id, system_id, pos);
    if ((rc = st ? dq_step(d, st, err) : -1) <= 0)
        return rc;
    seg->k = dq_dbl(d, st, 0);
    seg->exe_id = dq_ll(d, st, 1);
    seg->system_id = dq_ll(d, st, 2);
    seg->blk = dq_ll(d, st, 3);
    seg->start = dq_ll(d, st, 4);
    dq_reset(d, st);
    return 1;
}

int db_tally_find(db *d, long long app_id, long long exe_id, long long system_id,
                  int sort, long long pos, struct db_tally_seg *seg, struct err *err)
{
    int kinds[2], nk = kinds_of(d, sort, kinds), i, rc;
    long long before = 0;

    for (i = 0; i < nk; i++) {
        if (i + 1 < nk) { /* a kind before another: is pos in it? */
            long long n = 0;
            if (dq_scalar(d, &n, SQL_COUNT, err, "iiii", app_id, (long long)kinds[i],
                          exe_id, system_id) < 0)
                return -1;
            if (pos - before >= n) {
                before += n;
                continue;
            }
        }
        rc = (d->eng->pg ? find_by_sum : find_by_walk)(d, app_id, exe_id, system_id,
                                                       kinds[i], pos - before, seg, err);
        if (rc <= 0)
            return rc;
        seg->kind = (enum db_tally_kind)kinds[i];
        seg->start += before;
        return 1;
    }
    return 0;
}
