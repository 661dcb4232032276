/* summary: configuration summaries and the dashboard's reads (db/summary.h),
 * written once for every engine on db/query.h, except what each engine
 * keeps its own way (adding a run: db/backend.h).
 *
 * Every statement here is bounded by the number of configurations or by one
 * page of runs; none reads all runs of an application. Sums over bigint
 * columns are numeric on PostgreSQL and come back as integers when whole.
 */
#include "db/summary.h"
#include "db/query.h"
#include "db/select.h"
#include "db/tally.h"
#include "common/buf.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *col_text(db *d, struct db_stmt *st, int i, arena *a)
{
    size_t n = 0;
    const char *t = dq_blob(d, st, i, &n);
    return t ? arena_strndup(a, t, n) : NULL;
}

int db_summary_add_run(db *d, long long run_id, struct err *err)
{
    return d->be->summary_add_run(d, run_id, err);
}

static int name_cmp(const void *pa, const void *pb)
{
    const struct db_name_row *a = pa, *b = pb;
    int ka = a->seq >= 0, kb = b->seq >= 0;
    if (ka != kb)
        return ka - kb;
    if (a->app_id != b->app_id)
        return a->app_id < b->app_id ? -1 : 1;
    return strcmp(a->name, b->name);
}

size_t db_names_sum(struct db_name_row *v, size_t n)
{
    size_t i, m = 0;
    if (n == 0) /* v may be NULL then, which qsort must not be given */
        return 0;
    qsort(v, n, sizeof *v, name_cmp);
    for (i = 0; i < n; i++) {
        struct db_name_row *last = m ? &v[m - 1] : NULL;
        if (last && name_cmp(last, &v[i]) == 0) {
            last->rows += v[i].rows;
            if (v[i].seq < last->seq)
                last->seq = v[i].seq;
        } else {
            v[m++] = v[i];
        }
    }
    return m;
}

/* ---- one page of runs ---------------------------------------------------- */

/* The id scans, one constant per order (the statement cache is keyed by the
 * address). The runtime and nprocs orders follow their covering index
 * (app_id, key, exe_id, system_id, id) exactly, ties broken by executable,
 * system, then id, so a deep page skips index entries without sorting and
 * the filters are read from the index; the filters short-circuit when 0. */
#define PAGE_IDS(order)                                                                  \
    "SELECT id FROM runs WHERE app_id = ?1 AND (?2 = 0 OR exe_id = ?2) AND "             \
    "(?3 = 0 OR system_id = ?3) ORDER BY " order " LIMIT ?4 OFFSET ?5"
/* In id order with a system: equalities on runs_by_system_app (system_id,
 * app_id, id), which is then in id order and covering. */
#define PAGE_IDS_SYSTEM(order)                                                           \
    "SELECT id FROM runs WHERE system_id = ?3 AND app_id = ?1 AND (?2 = 0 OR exe_id = "  \
    "?2) ORDER BY " order " LIMIT ?4 OFFSET ?5"
/* Without an executable or system filter (the common page), the same walk
 * without the two short-circuit tests, which SQLite evaluates on every
 * skipped entry: an old ?page=N link to the middle of 1,000,000 runs walks
 * 500,000 entries in about half the time. */
#define PAGE_IDS_ALL(order)                                                              \
    "SELECT id FROM runs WHERE app_id = ?1 ORDER BY " order " LIMIT ?4 OFFSET ?5"
/* The three orders (id, nprocs, runtime), each ascending and descending, of
 * one of the page statements above. */
#define PAGE_ORDERS(ids)                                                                 \
    {                                                                                    \
        {ids("id"), ids("id DESC")},                                                     \
            {ids("nprocs, exe_id, system_id, id"),                                       \
             ids("nprocs DESC, exe_id DESC, system_id DESC, id DESC")},                  \
            {ids("runtime, exe_id, system_id, id"),                                      \
             ids("runtime DESC, exe_id DESC, system_id DESC, id DESC")},                 \
    }
static const char *const page_ids_all_sql[3][2] = PAGE_ORDERS(PAGE_IDS_ALL);
static const char *const page_ids_system_sql[2] = {PAGE_IDS_SYSTEM("id"),
                                                   PAGE_IDS_SYSTEM("id DESC")};
static const char *const page_ids_sql[3][2] = PAGE_ORDERS(PAGE_IDS);

/* Keyset pages: the ids that follow a cursor run's key in one direction
 * (?4 rows). In id order that is one id range. In a key order it is first
 * the rest of the cursor's tie group (same key, executable and system: an
 * equality range of the covering index, in id order), then the groups past
 * it (a vector range of the same index), so neither walks the entries
 * before the cursor nor a whole group of ties. ?6 is the key (an integer for
 * nprocs, a double for the runtime), ?7 ?8 the executable and system, ?9 the
 * id; ?5 is not used. */
#define PAGE_FILTER                                                                      \
    "app_id = ?1 AND (?2 = 0 OR exe_id = ?2) AND (?3 = 0 OR system_id = ?3)"
#define PAGE_FROM_ID(cmp, dir)                                                           \
    "SELECT id FROM runs WHERE " PAGE_FILTER " AND id " cmp " ?9 ORDER BY id" dir        \
    " LIMIT ?4"
#define PAGE_FROM_ID_SYSTEM(cmp, dir)                                                    \
    "SELECT id FROM runs WHERE system_id = ?3 AND app_id = ?1 AND (?2 = 0 OR exe_id = "  \
    "?2) AND id " cmp " ?9 ORDER BY id" dir " LIMIT ?4"
#define PAGE_FROM_TIE(key, cmp, dir)                                                     \
    "SELECT id FROM runs WHERE " PAGE_FILTER " AND " key " = ?6 AND exe_id = ?7 AND "    \
    "system_id = ?8 AND id " cmp " ?9 ORDER BY id" dir " LIMIT ?4"
#define PAGE_FROM_REST(key, cmp, dir)                                                    \
    "SELECT id FROM runs WHERE " PAGE_FILTER " AND (" key ", exe_id, system_id) " cmp    \
    " (?6, ?7, ?8) ORDER BY " key dir ", exe_id" dir ", system_id" dir ", id" dir        \
    " LIMIT ?4"
/* Runs without a runtime (SPEC §16) form one block in the runtime order,
 * where each engine sorts NULL: first ascending on SQLite, last on
 * PostgreSQL (both use the covering index). Inside it they follow
 * executable, system, id: the cursor's tie group (?7 ?8, past id ?9), then
 * the groups past (?7, ?8). ?6 is not used. */
#define PAGE_NULL_TIE(cmp, dir)                                                          \
    "SELECT id FROM runs WHERE " PAGE_FILTER " AND runtime IS NULL AND exe_id = ?7 AND " \
    "system_id = ?8 AND id " cmp " ?9 ORDER BY id" dir " LIMIT ?4"
#define PAGE_NULL_REST(cmp, dir)                                                         \
    "SELECT id FROM runs WHERE " PAGE_FILTER " AND runtime IS NULL AND (exe_id, "        \
    "system_id) " cmp " (?7, ?8) ORDER BY exe_id" dir ", system_id" dir ", id" dir       \
    " LIMIT ?4"
static const char *const page_null_sql[2][2] = {
    /* [descending][tie group, rest] */
    {PAGE_NULL_TIE(">", ""), PAGE_NULL_REST(">", "")},
    {PAGE_NULL_TIE("<", " DESC"), PAGE_NULL_REST("<", " DESC")},
};
static const char *const page_from_id_sql[2] = {PAGE_FROM_ID(">", ""),
                                                PAGE_FROM_ID("<", " DESC")};
static const char *const page_from_id_system_sql[2] = {PAGE_FROM_ID_SYSTEM(">", ""),
                                                       PAGE_FROM_ID_SYSTEM("<", " DESC")};
static const char *const page_from_sql[2][2][2] = {
    /* [sort - 1][descending][tie group, rest] */
    {{PAGE_FROM_TIE("nprocs", ">", ""), PAGE_FROM_REST("nprocs", ">", "")},
     {PAGE_FROM_TIE("nprocs", "<", " DESC"), PAGE_FROM_REST("nprocs", "<", " DESC")}},
    {{PAGE_FROM_TIE("runtime", ">", ""), PAGE_FROM_REST("runtime", ">", "")},
     {PAGE_FROM_TIE("runtime", "<", " DESC"), PAGE_FROM_REST("runtime", "<", " DESC")}},
};

/* A cursor run's place in every order. */
struct page_key {
    long long id, app_id, exe_id, system_id, nprocs;
    double runtime;
};

/* Reads run id's key into *k: 1, 0 when the run is not stored, or -1. */
static int page_key(db *d, long long id, struct page_key *k, struct err *err)
{
    struct db_stmt *st = dq_prepare(
        d, "SELECT app_id, exe_id, system_id, nprocs, runtime FROM runs WHERE id = ?1",
        err, "i", id);
    int rc = st ? dq_step(d, st, err) : -1;
    if (rc == 1) {
        k->id = id;
        k->app_id = dq_ll(d, st, 0);
        k->exe_id = dq_ll(d, st, 1);
        k->system_id = dq_ll(d, st, 2);
        k->nprocs = dq_ll(d, st, 3);
        k->runtime = dq_opt_dbl(d, st, 4);
        dq_reset(d, st);
    }
    return rc;
}

/* The ids of q's filters that follow key k in q's sort, ascending or
 * descending (desc), past the first `skip` of them, at most want of them
 * (want < 0: all) into ids (NULL: only count them). Returns their number,
 * or -1 with err set. */
static long long keyset_ids(db *d, const struct db_page_query *q, int sort, int desc,
                            const struct page_key *k, long long *ids, long long want,
                            long long skip, struct err *err)
{
    /* up to three statements, each with the key it is run with */
    struct {
        const char *sql;
        double runtime;
        long long exe_id, system_id;
    } step[3];
    int untimed = sort == DB_SORT_RUNTIME && isnan(k->runtime);
    /* whether the runs without a runtime come before those with one in this
     * direction: SQLite sorts NULL first ascending, PostgreSQL last */
    int nulls_first = desc == DQ_SQL(d, 0, 1);
    long long n = 0;
    int s, nsteps = 0, rc = 0;

    for (s = 0; s < 3; s++) {
        step[s].sql = NULL;
        step[s].runtime = k->runtime;
        step[s].exe_id = k->exe_id;
        step[s].system_id = k->system_id;
    }
    if (sort == DB_SORT_ID)
        step[nsteps++].sql =
            q->system_id != 0 ? page_from_id_system_sql[desc] : page_from_id_sql[desc];
    else if (!untimed) {
        step[nsteps++].sql = page_from_sql[sort - 1][desc][0];
        step[nsteps++].sql = page_from_sql[sort - 1][desc][1];
        if (sort == DB_SORT_RUNTIME && !nulls_first) { /* then every run without one */
            step[nsteps].sql = page_null_sql[desc][1];
            step[nsteps].exe_id = step[nsteps].system_id = desc ? LLONG_MAX : LLONG_MIN;
            nsteps++;
        }
    } else {
        step[nsteps++].sql = page_null_sql[desc][0];
        step[nsteps++].sql = page_null_sql[desc][1];
        if (nulls_first) { /* then every run with a runtime */
            step[nsteps].sql = page_from_sql[sort - 1][desc][1];
            step[nsteps].runtime = desc ? INFINITY : -INFINITY;
            nsteps++;
        }
    }
    for (s = 0; s < nsteps && (want < 0 || n < want); s++) {
        long long lim = want < 0 ? LLONG_MAX : want + skip - n;
        double runtime = isnan(step[s].runtime) ? 0 : step[s].runtime;
        struct db_stmt *st;
        if (sort == DB_SORT_RUNTIME)
            st = dq_prepare(d, step[s].sql, err, "iiiiidiii", q->app_id, q->exe_id,
                            q->system_id, lim, 0LL, runtime, step[s].exe_id,
                            step[s].system_id, k->id);
        else
            st = dq_prepare(d, step[s].sql, err, "iiiiiiiii", q->app_id, q->exe_id,
                            q->system_id, lim, 0LL, k->nprocs, step[s].exe_id,
                            step[s].system_id, k->id);
        if (st == NULL)
            return -1;
        while ((want < 0 || n < want) && (rc = dq_step(d, st, err)) == 1) {
            if (skip > 0) { /* the first `skip` ids are passed over */
                skip--;
                continue;
            }
            if (ids != NULL)
                ids[n] = dq_ll(d, st, 0);
            n++;
        }
        if (rc < 0)
            return -1;
        if (rc == 1)
            dq_reset(d, st);
    }
    return n;
}

long long db_runs_rank(db *d, const struct db_page_query *q, struct err *err)
{
    int sort = q->sort >= DB_SORT_ID && q->sort <= DB_SORT_RUNTIME ? (int)q->sort : 0;
    long long cursor = q->after != 0 ? q->after : q->before, n;
    struct page_key k;
    int found;

    if (cursor == 0)
        return 0;
    if ((found = page_key(d, cursor, &k, err)) <= 0)
        return found;
    /* the runs before the cursor are those that follow it the other way */
    n = keyset_ids(d, q, sort, q->desc ? 0 : 1, &k, NULL, -1, 0, err);
    if (n >= 0 && q->after != 0 && k.app_id == q->app_id &&
        (q->exe_id == 0 || q->exe_id == k.exe_id) &&
        (q->system_id == 0 || q->system_id == k.system_id))
        n++; /* a page after the cursor starts past the cursor itself */
    return n;
}

/* The page's runs and inputs by the position of their id in ?1 (a list of
 * ids: a JSON array on SQLite, a bigint array on PostgreSQL), 0-based. */
static const char SQ_PAGE_ROWS[] =
    "SELECT j.key, r.id, e.name, s.name, r.nprocs, r.runtime, r.started_at, "
    "r.created_at, (SELECT count(*) FROM kernels k WHERE k.run_id = r.id), "
    "r.vcs_commit, r.vcs_branch FROM json_each(?1) j JOIN runs r ON r.id = j.value JOIN "
    "executables e ON "
    "e.id = r.exe_id JOIN systems s ON s.id = r.system_id";
static const char PG_PAGE_ROWS[] =
    "SELECT j.ord - 1, r.id, e.name, s.name, r.nprocs, r.runtime, r.started_at, "
    "r.created_at, (SELECT count(*) FROM kernels k WHERE k.run_id = r.id), "
    "r.vcs_commit, r.vcs_branch FROM unnest(?1::bigint[]) WITH ORDINALITY j(id, ord) "
    "JOIN runs r ON r.id = j.id "
    "JOIN executables e ON e.id = r.exe_id JOIN systems s ON s.id = r.system_id";
static const char SQ_PAGE_INPUTS[] =
    "SELECT j.key, i.name, i.value FROM json_each(?1) j JOIN run_inputs i ON "
    "i.run_id = j.value ORDER BY j.key, i.name";
static const char PG_PAGE_INPUTS[] =
    "SELECT j.ord - 1, i.name, i.value FROM unnest(?1::bigint[]) WITH ORDINALITY "
    "j(id, ord) JOIN run_inputs i ON i.run_id = j.id ORDER BY j.ord, i.name";

/* Reads the rows and inputs of the n runs out[i].id. */
static int page_rows(db *d, arena *a, struct db_page_row *out, int n, struct err *err)
{
    /* Inputs arrive grouped by row; each row's are copied once complete. */
    struct rec_kv tmp[DB_PAGE_MAX_INPUTS];
    long long cur = -1;
    size_t nt = 0;
    struct db_stmt *st;
    struct buf ids;
    int i, rc = -1;

    buf_init(&ids, 64 * 1024);
    buf_putc(&ids, DQ_SQL(d, '[', '{'));
    for (i = 0; i < n; i++)
        buf_printf(&ids, "%s%lld", i ? "," : "", out[i].id);
    buf_putc(&ids, DQ_SQL(d, ']', '}'));
    if (buf_failed(&ids)) {
        buf_free(&ids);
        return err_nomem(err);
    }
    st = dq_prepare(d, DQ_SQL(d, SQ_PAGE_ROWS, PG_PAGE_ROWS), err, "t", buf_str(&ids));
    while (st != NULL && (rc = dq_step(d, st, err)) == 1) {
        long long k = dq_ll(d, st, 0);
        struct db_page_row *r;
        if (k < 0 || k >= n)
            continue;
        r = &out[k];
        r->id = dq_ll(d, st, 1);
        r->executable = col_text(d, st, 2, a);
        r->system = col_text(d, st, 3, a);
        r->nprocs = dq_ll(d, st, 4);
        r->runtime = dq_opt_dbl(d, st, 5);
        r->started_at = col_text(d, st, 6, a);
        r->created_at = col_text(d, st, 7, a);
        r->nkernels = dq_ll(d, st, 8);
        r->commit = col_text(d, st, 9, a);
        r->branch = col_text(d, st, 10, a);
    }
    st = rc == 0 ? dq_prepare(d, DQ_SQL(d, SQ_PAGE_INPUTS, PG_PAGE_INPUTS), err, "t",
                              buf_str(&ids))
                 : NULL;
    rc = st ? 1 : -1;
    while (rc == 1) {
        long long k = -2;
        rc = dq_step(d, st, err);
        if (rc == 1)
            k = dq_ll(d, st, 0);
        if (k != cur && cur >= 0 && cur < n && nt > 0) {
            out[cur].inputs = arena_alloc(a, nt * sizeof *out[cur].inputs);
            if (out[cur].inputs == NULL) {
                if (rc == 1)
                    dq_reset(d, st);
                rc = err_nomem(err);
                break;
            }
            memcpy(out[cur].inputs, tmp, nt * sizeof *tmp);
            out[cur].ninputs = nt;
        }
        if (rc != 1)
            break;
        if (k != cur) {
            cur = k;
            nt = 0;
        }
        if (nt < DB_PAGE_MAX_INPUTS) {
            tmp[nt].name = col_text(d, st, 1, a);
            tmp[nt].value = dq_dbl(d, st, 2);
            nt++;
        }
    }
    buf_free(&ids);
    return rc;
}

/* An offset page whose walk over index entries (from the nearer end when the
 * total is known) would pass more runs than this is found from the counts
 * of run_tally instead: about 0.4 ms of walking on SQLite, about what
 * finding a segment and walking into it costs. */
#define PAGE_WALK_MAX 8192

/* The ids of the page at q's offset, from the counts of run_tally
 * (db/tally.h), inside the caller's snapshot: the page's runs are positions
 * [pos, end) of the ascending order (a descending page's counted from the
 * other end, then reversed); the segment holding pos gives a key that
 * precedes its first run, and the keyset read from that key passes over
 * the runs of the segment before pos (fewer than a segment holds). Returns
 * the number of ids in out[].id, or -1 with err set. */
static int tally_page(db *d, const struct db_page_query *q, int sort, int limit, arena *a,
                      struct db_page_row *out, struct err *err)
{
    long long total = db_tally_count(d, q->app_id, q->exe_id, q->system_id, sort, err);
    long long pos, end, got, *ids;
    struct db_tally_seg seg;
    struct page_key k;
    int found, i;

    if (total < 0)
        return -1;
    if (q->offset >= total)
        return 0;
    if (q->desc) {
        end = total - q->offset;
        pos = end > limit ? end - limit : 0;
    } else {
        pos = q->offset;
        end = total - pos > limit ? pos + limit : total;
    }
    found = db_tally_find(d, q->app_id, q->exe_id, q->system_id, sort, pos, &seg, err);
    if (found <= 0)
        return found;
    memset(&k, 0, sizeof k);
    k.app_id = q->app_id;
    switch (seg.kind) {
    case DB_TALLY_ID:
        k.id = ((long long)seg.k << DB_TALLY_BLOCK_BITS) - 1;
        break;
    case DB_TALLY_NPROCS:
        k.nprocs = (long long)seg.k;
        k.exe_id = seg.exe_id;
        k.system_id = seg.system_id;
        k.id = (seg.blk << DB_TALLY_BLOCK_BITS) - 1;
        break;
    case DB_TALLY_TIMED: /* before every run of runtime k */
        k.runtime = seg.k;
        k.exe_id = k.system_id = k.id = LLONG_MIN;
        break;
    case DB_TALLY_UNTIMED:
        k.runtime = NAN;
        k.exe_id = seg.exe_id;
        k.system_id = seg.system_id;
        k.id = (seg.blk << DB_TALLY_BLOCK_BITS) - 1;
        break;
    }
    ids = arena_alloc(a, (size_t)(end - pos) * sizeof *ids);
    if (ids == NULL)
        return err_nomem(err);
    got = keyset_ids(d, q, sort, 0, &k, ids, end - pos, pos - seg.start, err);
    if (got < 0)
        return -1;
    for (i = 0; i < (int)got; i++)
        out[i].id = ids[q->desc ? got - 1 - i : i];
    return (int)got;
}

int db_runs_page(db *d, const struct db_page_query *q, arena *a,
                 struct db_page_row **rows, struct err *err)
{
    int sort = q->sort >= DB_SORT_ID && q->sort <= DB_SORT_RUNTIME ? (int)q->sort : 0;
    int limit = q->limit >= 1 && q->limit <= 1000 ? q->limit : 50, want = limit;
    long long offset = q->offset > 0 ? q->offset : 0;
    int flip = 0, i, n = 0, rc = 0;
    struct db_page_row *out;
    struct db_stmt *st;

    *rows = NULL;
    out = arena_alloc(a, (size_t)limit * sizeof *out);
    if (out == NULL)
        return err_nomem(err);
    memset(out, 0, (size_t)limit * sizeof *out);
    if (q->after != 0 || q->before != 0) {
        /* A cursor: the page is read from its run's key, backwards for a
         * page before it (then reversed); no offset is walked. */
        struct page_key k;
        long long *tmp = arena_alloc(a, (size_t)limit * sizeof *tmp);
        int found = tmp ? page_key(d, q->after ? q->after : q->before, &k, err) : -1;
        long long got;
        if (tmp == NULL)
            return err_nomem(err);
        if (found < 0)
            return -1;
        if (found) {
            flip = q->after == 0;
            got =
                keyset_ids(d, q, sort, (q->desc ? 1 : 0) ^ flip, &k, tmp, limit, 0, err);
            if (got < 0)
                return -1;
            n = (int)got;
            for (i = 0; i < n; i++)
                out[i].id = tmp[flip ? n - 1 - i : i];
            goto have_ids;
        }
    }
    if ((q->total > 0 && offset < q->total && offset + limit / 2 > q->total / 2
             ? q->total - offset - limit
             : offset) > PAGE_WALK_MAX) {
        /* counts and runs from one snapshot, so that a page never shows a
         * run twice nor skips one while runs are being added */
        int began = db_select_begin(d, err);
        if (began < 0)
            return -1;
        n = tally_page(d, q, sort, limit, a, out, err);
        if (n > 0 && page_rows(d, a, out, n, err) != 0)
            n = -1;
        if (began == 0)
            db_select_end(d);
        if (n < 0)
            return -1;
        *rows = out;
        return n;
    }
    /* Each order is total (ties end on id), so a page past the middle is the
     * same rows read backwards from the other end: the walk over skipped
     * index entries is never longer than half the runs. */
    if (q->total > 0 && offset < q->total && offset + limit / 2 > q->total / 2) {
        flip = 1;
        offset = q->total - offset - limit;
        if (offset < 0) {
            want = limit + (int)offset;
            offset = 0;
        }
    }
    st = dq_prepare(d,
                    sort == DB_SORT_ID && q->system_id != 0
                        ? page_ids_system_sql[(q->desc ? 1 : 0) ^ flip]
                    : q->exe_id == 0 && q->system_id == 0
                        ? page_ids_all_sql[sort][(q->desc ? 1 : 0) ^ flip]
                        : page_ids_sql[sort][(q->desc ? 1 : 0) ^ flip],
                    err, "iiiii", q->app_id, q->exe_id, q->system_id, (long long)want,
                    offset);
    if (st == NULL)
        return -1;
    while (n < want && (rc = dq_step(d, st, err)) == 1)
        out[n++].id = dq_ll(d, st, 0);
    if (n == want)
        dq_reset(d, st);
    else if (rc < 0)
        return -1;
    for (i = 0; flip && i < n / 2; i++) {
        long long t = out[i].id;
        out[i].id = out[n - 1 - i].id;
        out[n - 1 - i].id = t;
    }
have_ids:
    if (n > 0 && page_rows(d, a, out, n, err) != 0)
        return -1;
    *rows = out;
    return n;
}

static const char SQL_CONFIGS[] =
    "SELECT c.exe_id, e.name, c.system_id, s.name, c.nprocs, c.inputs, c.runs, "
    "c.last_run_id, c.sum_runtime, c.min_runtime, c.max_runtime, c.timed FROM "
    "run_configs c "
    "JOIN executables e ON e.id = c.exe_id JOIN systems s ON s.id = c.system_id "
    "WHERE c.app_id = ?1 AND (?2 = 0 OR c.exe_id = ?2) AND (?3 = 0 OR c.system_id = ?3) "
    "ORDER BY c.exe_id, c.system_id, c.inputs, c.nprocs LIMIT ?4";

int db_summary_configs(db *d, long long app_id, long long exe_id, long long system_id,
                       int limit, arena *a, struct db_config **out, struct err *err)
{
    struct db_stmt *st;
    struct db_config *c;
    int n = 0, rc = 0;

    *out = NULL;
    if (limit < 1)
        limit = 1;
    c = arena_alloc(a, (size_t)limit * sizeof *c);
    if (c == NULL)
        return err_nomem(err);
    st = dq_prepare(d, SQL_CONFIGS, err, "iiii", app_id, exe_id, system_id,
                    (long long)limit);
    if (st == NULL)
        return -1;
    while (n < limit && (rc = dq_step(d, st, err)) == 1) {
        struct db_config *x = &c[n++];
        x->exe_id = dq_ll(d, st, 0);
        x->executable = col_text(d, st, 1, a);
        x->system_id = dq_ll(d, st, 2);
        x->system = col_text(d, st, 3, a);
        x->nprocs = dq_ll(d, st, 4);
        x->inputs_json = col_text(d, st, 5, a);
        x->runs = dq_ll(d, st, 6);
        x->last_run_id = dq_ll(d, st, 7);
        x->sum_runtime = dq_dbl(d, st, 8);
        x->min_runtime = dq_opt_dbl(d, st, 9);
        x->max_runtime = dq_opt_dbl(d, st, 10);
        x->timed = dq_ll(d, st, 11);
        if (x->executable == NULL || x->system == NULL || x->inputs_json == NULL) {
            dq_reset(d, st);
            return err_nomem(err);
        }
    }
    if (rc < 0)
        return -1;
    if (n == limit)
        dq_reset(d, st);
    *out = c;
    return n;
}

json_t *db_summary_apps(db *d, struct err *err)
{
    return dq_json(
        d,
        "SELECT a.name, a.description, a.demo, "
        "(SELECT count(*) FROM executables e WHERE e.app_id = a.id) AS executables, "
        "(SELECT coalesce(sum(c.runs), 0) FROM run_configs c WHERE c.app_id = a.id) "
        "AS runs, "
        "(SELECT count(DISTINCT c.system_id) FROM run_configs c WHERE c.app_id = a.id) "
        "AS systems, "
        "(SELECT max(c.last_run_id) FROM run_configs c WHERE c.app_id = a.id) AS "
        "last_run FROM applications a ORDER BY a.name",
        err, "");
}

json_t *db_summary_systems(db *d, struct err *err)
{
    return dq_json(
        d,
        "SELECT s.name, s.description, s.processor, s.cores, s.network, s.demo, "
        "(SELECT coalesce(sum(c.runs), 0) FROM run_configs c WHERE c.system_id = s.id) "
        "AS runs, "
        "(SELECT count(DISTINCT c.app_id) FROM run_configs c WHERE c.system_id = s.id) "
        "AS applications, "
        "(SELECT count(*) FROM system_benchmarks b WHERE b.system_id = s.id) AS "
        "benchmarks, "
        "(SELECT count(*) FROM system_parameters p WHERE p.system_id = s.id) AS "
        "parameters FROM systems s ORDER BY s.name",
        err, "");
}

json_t *db_summary_app(db *d, const char *name, struct err *err)
{
    json_t *app;
    long long id;
    int ok = 1;

    app = dq_one(d, "application",
                 "SELECT a.id, a.name, a.description, a.demo, a.created_at, "
                 "(SELECT coalesce(sum(c.runs), 0) FROM run_configs c WHERE "
                 "c.app_id = a.id) AS runs FROM applications a WHERE a.name = ?1",
                 err, "t", name);
    if (app == NULL)
        return NULL;
    id = json_integer_value(json_object_get(app, "id"));
    ok =
        ok &&
        dq_attach(
            d, app, "executables",
            "SELECT e.id, e.name, e.compiler, e.flags, e.version, "
            "(SELECT coalesce(sum(c.runs), 0) FROM run_configs c WHERE c.app_id = ?1 AND "
            "c.exe_id = e.id) AS runs FROM executables e WHERE e.app_id = ?1 ORDER BY "
            "e.name",
            id, err);
    ok = ok &&
         dq_attach(d, app, "systems",
                   "SELECT s.id, s.name, sum(c.runs) AS runs, min(c.nprocs) AS "
                   "min_nprocs, max(c.nprocs) AS max_nprocs FROM run_configs c JOIN "
                   "systems s ON s.id = c.system_id WHERE c.app_id = ?1 GROUP BY s.id "
                   "ORDER BY s.name",
                   id, err);
    ok = ok && dq_attach(d, app, "templates",
                         "SELECT name, kernel, expression, description FROM templates "
                         "WHERE app_id = ?1 ORDER BY name",
                         id, err);
    if (!ok) {
        json_decref(app);
        return NULL;
    }
    return app;
}

json_t *db_summary_system_apps(db *d, const char *system, struct err *err)
{
    return dq_json(
        d,
        "SELECT a.name, sum(c.runs) AS runs, min(c.nprocs) AS min_nprocs, "
        "max(c.nprocs) AS max_nprocs FROM run_configs c JOIN applications a ON "
        "a.id = c.app_id WHERE c.system_id = (SELECT id FROM systems WHERE name = ?1) "
        "GROUP BY a.id ORDER BY a.name",
        err, "t", system);
}

json_t *db_recent_runs(db *d, int limit, struct err *err)
{
    return dq_json(
        d,
        "SELECT r.id, a.name AS application, e.name AS executable, s.name AS system, "
        "r.nprocs, r.runtime, r.created_at FROM runs r JOIN applications a ON "
        "a.id = r.app_id JOIN executables e ON e.id = r.exe_id JOIN systems s ON "
        "s.id = r.system_id ORDER BY r.id DESC LIMIT ?1",
        err, "i", (long long)limit);
}

long long db_summary_count(db *d, long long app_id, long long exe_id, long long system_id,
                           struct err *err)
{
    long long n = 0;
    int rc =
        dq_scalar(d, &n,
                  "SELECT coalesce(sum(runs), 0) FROM run_configs WHERE app_id = ?1 AND "
                  "(?2 = 0 OR exe_id = ?2) AND (?3 = 0 OR system_id = ?3)",
                  err, "iii", app_id, exe_id, system_id);
    return rc < 0 ? -1 : n;
}

json_t *db_kernels_of_runs(db *d, const char *ids_json, struct err *err)
{
    return dq_json(
        d,
        DQ_SQL(d,
               "SELECT k.run_id, k.name, k.time FROM json_each(?1) j "
               "JOIN kernels k ON k.run_id = j.value ORDER BY j.key, k.seq",
               "SELECT k.run_id, k.name, k.time FROM "
               "jsonb_array_elements_text(?1::jsonb) WITH ORDINALITY j(v, ord) "
               "JOIN kernels k ON k.run_id = j.v::bigint ORDER BY j.ord, k.seq"),
        err, "t", ids_json);
}

/* ---- a page of runs filtered by provenance ------------------------------ */

#define VCS_FILTER                                                                       \
    "r.app_id = ?1 AND (?2 = 0 OR r.exe_id = ?2) AND (?3 = 0 OR r.system_id = ?3) AND "  \
    "(?4 = '' OR r.vcs_commit = ?4) AND (?5 = '' OR r.vcs_branch = ?5)"
static const char SQL_VCS_COUNT[] = "SELECT count(*) FROM runs r WHERE " VCS_FILTER;
#define VCS_ROWS(dir)                                                                    \
    "SELECT r.id, e.name, s.name, r.nprocs, r.runtime, r.started_at, r.created_at, "     \
    "(SELECT count(*) FROM kernels k WHERE k.run_id = r.id), r.vcs_commit, "             \
    "r.vcs_branch FROM runs r JOIN executables e ON e.id = r.exe_id JOIN systems s ON "  \
    "s.id = r.system_id WHERE " VCS_FILTER " ORDER BY r.id" dir " LIMIT ?6 OFFSET ?7"
static const char SQL_VCS_ROWS[] = VCS_ROWS("");
static const char SQL_VCS_ROWS_DESC[] = VCS_ROWS(" DESC");
static const char SQL_VCS_INPUTS[] =
    "SELECT name, value FROM run_inputs WHERE run_id = ?1 ORDER BY name";

int db_runs_page_vcs(db *d, const struct db_page_query *q, const char *commit,
                     const char *branch, long long *total, arena *a,
                     struct db_page_row **rows, struct err *err)
{
    int limit = q->limit >= 1 && q->limit <= 1000 ? q->limit : 50, n = 0, i, rc;
    const char *c = commit ? commit : "", *b = branch ? branch : "";
    struct db_page_row *out;
    struct db_stmt *st;

    *rows = NULL;
    if (dq_scalar(d, total, SQL_VCS_COUNT, err, "iiitt", q->app_id, q->exe_id,
                  q->system_id, c, b) < 0)
        return -1;
    out = arena_alloc(a, (size_t)limit * sizeof *out);
    if (out == NULL)
        return err_nomem(err);
    st = dq_prepare(d, q->desc ? SQL_VCS_ROWS_DESC : SQL_VCS_ROWS, err, "iiittii",
                    q->app_id, q->exe_id, q->system_id, c, b, (long long)limit,
                    q->offset > 0 ? q->offset : 0LL);
    if (st == NULL)
        return -1;
    while (n < limit && (rc = dq_step(d, st, err)) == 1) {
        struct db_page_row *r = &out[n++];
        memset(r, 0, sizeof *r);
        r->id = dq_ll(d, st, 0);
        r->executable = col_text(d, st, 1, a);
        r->system = col_text(d, st, 2, a);
        r->nprocs = dq_ll(d, st, 3);
        r->runtime = dq_null(d, st, 4) ? NAN : dq_dbl(d, st, 4);
        r->started_at = col_text(d, st, 5, a);
        r->created_at = col_text(d, st, 6, a);
        r->nkernels = dq_ll(d, st, 7);
        r->commit = col_text(d, st, 8, a);
        r->branch = col_text(d, st, 9, a);
    }
    if (n == limit)
        dq_reset(d, st);
    else if (rc < 0)
        return -1;
    for (i = 0; i < n; i++) {
        size_t cap = 0;
        st = dq_prepare(d, SQL_VCS_INPUTS, err, "i", out[i].id);
        if (st == NULL)
            return -1;
        while ((rc = dq_step(d, st, err)) == 1) {
            struct rec_kv *grown = arena_grow(a, out[i].inputs, out[i].ninputs, &cap, 8,
                                              sizeof *out[i].inputs);
            if (grown == NULL) {
                dq_reset(d, st);
                return err_nomem(err);
            }
            out[i].inputs = grown;
            out[i].inputs[out[i].ninputs].name = col_text(d, st, 0, a);
            out[i].inputs[out[i].ninputs].value = dq_dbl(d, st, 1);
            out[i].ninputs++;
        }
        if (rc < 0)
            return -1;
    }
    *rows = out;
    return n;
}
