/* runs: run storage; see runs.h.
 *
 * Inserts reuse cached statements and remember the last application,
 * executable and system resolved, since a batch almost always names the same
 * ones. Listing builds its WHERE clause from a fixed set of variants (one per
 * combination of filters), made once, so every variant is a cached prepared
 * statement that can use the right index.
 */
#include "db/runs.h"
#include "db/sqlite/entries.h"
#include "db/sqlite/sql.h"
#include "common/buf.h"
#include "db/catalog.h"
#include "common/xalloc.h"
#include "db/summary.h"
#include "formats/limits.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

static const char SQL_UID_SEL[] = "SELECT id FROM runs WHERE uid = ?1";
static const char SQL_RUN_INS[] =
    "INSERT INTO runs (uid, app_id, exe_id, system_id, nprocs, runtime, started_at, "
    "submitter, created_at, vcs_commit, vcs_branch, at_ms) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)";
static const char SQL_TAG_INS[] =
    "INSERT INTO run_tags (run_id, key, value) VALUES (?1, ?2, ?3)";
static const char SQL_INPUT_INS[] =
    "INSERT INTO run_inputs (run_id, name, value) VALUES (?1, ?2, ?3)";
static const char SQL_METRIC_INS[] =
    "INSERT INTO run_metrics (run_id, name, value) VALUES (?1, ?2, ?3)";
static const char SQL_KERNEL_INS[] =
    "INSERT INTO kernels (run_id, seq, name, time, calls, metrics) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6)";

static int step_done(db *d, sqlite3_stmt *st, struct err *err)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    return 0;
}

static int insert_kvs(db *d, const char *sql, long long run_id, const struct rec_kv *kv,
                      size_t n, struct err *err)
{
    size_t i;
    for (i = 0; i < n; i++) {
        sqlite3_stmt *st = db_stmt(d, sql, err);
        if (st == NULL)
            return -1;
        sqlite3_bind_int64(st, 1, run_id);
        sqlite3_bind_text(st, 2, kv[i].name, -1, SQLITE_STATIC);
        sqlite3_bind_double(st, 3, kv[i].value);
        if (step_done(d, st, err) != 0)
            return -1;
    }
    return 0;
}

int sq_runs_insert(db *d, const struct run_record *runs, size_t n, long long *ids,
                   int *existed, struct err *err)
{
    struct db_resolved c = {0};
    struct rec_kv sorted[LIMIT_INPUTS];
    char now[32];
    size_t i, k;

    db_now(now);
    for (i = 0; i < n; i++) {
        const struct run_record *r = &runs[i];
        sqlite3_stmt *st;
        long long id;
        int rc, same;

        existed[i] = 0;
        if (r->uid != NULL) {
            st = db_stmt(d, SQL_UID_SEL, err);
            if (st == NULL)
                return -1;
            sqlite3_bind_text(st, 1, r->uid, -1, SQLITE_STATIC);
            rc = sqlite3_step(st);
            if (rc == SQLITE_ROW) {
                id = sqlite3_column_int64(st, 0);
                sqlite3_reset(st);
                /* A repeat must be the same run: the same id with other
                 * content is a client bug that must not pass silently. */
                same = db_run_same(d, id, r, err);
                if (same < 0)
                    return -1;
                if (!same)
                    return err_set(err, 409, "conflict", "id",
                                   "run id %s is already stored with different content",
                                   r->uid);
                ids[i] = id;
                existed[i] = 1;
                continue;
            }
            sqlite3_reset(st);
            if (rc != SQLITE_DONE)
                return db_fail(d, err);
        }
        if (db_resolve(d, &c, r, err) != 0)
            return -1;
        st = db_stmt(d, SQL_RUN_INS, err);
        if (st == NULL)
            return -1;
        if (r->uid)
            sqlite3_bind_text(st, 1, r->uid, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 2, c.app_id);
        sqlite3_bind_int64(st, 3, c.exe_id);
        sqlite3_bind_int64(st, 4, c.sys_id);
        sqlite3_bind_int64(st, 5, r->nprocs);
        if (RUN_HAS_RUNTIME(r->runtime))
            sqlite3_bind_double(st, 6, r->runtime);
        else
            sqlite3_bind_null(st, 6);
        if (r->started_at)
            sqlite3_bind_text(st, 7, r->started_at, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 8, r->submitter ? r->submitter : "", -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 9, now, -1, SQLITE_STATIC);
        if (r->commit)
            sqlite3_bind_text(st, 10, r->commit, -1, SQLITE_STATIC);
        if (r->branch)
            sqlite3_bind_text(st, 11, r->branch, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 12, db_run_at(r->started_at, now));
        if (step_done(d, st, err) != 0)
            return -1;
        id = sqlite3_last_insert_rowid(db_handle(d));
        ids[i] = id;
        if (insert_kvs(d, SQL_INPUT_INS, id, r->inputs, r->ninputs, err) != 0 ||
            insert_kvs(d, SQL_METRIC_INS, id, r->metrics, r->nmetrics, err) != 0)
            return -1;
        for (k = 0; k < r->nkernels; k++) {
            const struct rec_kernel *kr = &r->kernels[k];
            st = db_stmt(d, SQL_KERNEL_INS, err);
            if (st == NULL)
                return -1;
            sqlite3_bind_int64(st, 1, id);
            sqlite3_bind_int64(st, 2, (long long)k);
            sqlite3_bind_text(st, 3, kr->name, -1, SQLITE_STATIC);
            sqlite3_bind_double(st, 4, kr->time);
            sqlite3_bind_int64(st, 5, kr->calls);
            if (kr->metrics_json)
                sqlite3_bind_text(st, 6, kr->metrics_json, -1, SQLITE_STATIC);
            if (step_done(d, st, err) != 0)
                return -1;
        }
        for (k = 0; k < r->ntags; k++) {
            st = db_stmt(d, SQL_TAG_INS, err);
            if (st == NULL)
                return -1;
            sqlite3_bind_int64(st, 1, id);
            sqlite3_bind_text(st, 2, r->tags[k].key, -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 3, r->tags[k].value, -1, SQLITE_STATIC);
            if (step_done(d, st, err) != 0)
                return -1;
        }
        if (r->ninputs > LIMIT_INPUTS)
            return err_set(err, 500, "internal", NULL, "too many inputs");
        if (r->ninputs)
            memcpy(sorted, r->inputs, r->ninputs * sizeof *sorted);
        if (sq_summary_add_run_inputs(d, id, sorted, r->ninputs, err) != 0)
            return -1;
    }
    return 0;
}

/* ---- reading ---------------------------------------------------------- */

enum {
    F_APP = 1,
    F_EXE = 2,
    F_SYS = 4,
    F_NP = 8,
    F_COMMIT = 16,
    F_BRANCH = 32,
    F_TAG = 64,
    NVARIANT = 128
};

static char *variants[NVARIANT];
static pthread_once_t variants_once = PTHREAD_ONCE_INIT;

/* Parameters are always bound by number: ?1 app, ?2 exe, ?3 system, ?4
 * nprocs, ?5 cursor, ?6 limit, ?7 commit, ?8 branch, ?9 tag key, ?10 tag
 * value; a variant uses only those it names. */
static void make_variants(void)
{
    int m;
    for (m = 0; m < NVARIANT; m++) {
        struct buf b;
        buf_init(&b, 4096);
        buf_puts(&b, "SELECT r.id, r.uid, a.name, e.name, s.name, r.nprocs, r.runtime, "
                     "r.started_at, r.submitter, r.created_at, r.vcs_commit, "
                     "r.vcs_branch FROM runs r JOIN applications a ON a.id = r.app_id "
                     "JOIN executables e ON e.id = r.exe_id "
                     "JOIN systems s ON s.id = r.system_id WHERE 1");
        if (m & F_APP)
            buf_puts(&b, " AND r.app_id = (SELECT id FROM applications WHERE name = ?1)");
        if (m & F_EXE) {
            if (m & F_APP)
                buf_puts(&b, " AND r.exe_id = (SELECT x.id FROM executables x JOIN "
                             "applications y ON y.id = x.app_id WHERE y.name = ?1 AND "
                             "x.name = ?2)");
            else
                buf_puts(&b,
                         " AND r.exe_id IN (SELECT id FROM executables WHERE name = ?2)");
        }
        if (m & F_SYS)
            buf_puts(&b, " AND r.system_id = (SELECT id FROM systems WHERE name = ?3)");
        if (m & F_NP)
            buf_puts(&b, " AND r.nprocs = ?4");
        if (m & F_COMMIT)
            buf_puts(&b, " AND r.vcs_commit = ?7");
        if (m & F_BRANCH)
            buf_puts(&b, " AND r.vcs_branch = ?8");
        if (m & F_TAG)
            buf_puts(&b, " AND r.id IN (SELECT run_id FROM run_tags WHERE key = ?9 AND "
                         "value = ?10)");
        buf_puts(&b, " AND r.id > ?5 ORDER BY r.id LIMIT ?6");
        variants[m] = buf_detach(&b, NULL);
    }
}

static const char *variant(const struct db_run_filter *f)
{
    int m = 0;
    pthread_once(&variants_once, make_variants);
    if (f->application)
        m |= F_APP;
    if (f->executable)
        m |= F_EXE;
    if (f->system)
        m |= F_SYS;
    if (f->nprocs > 0)
        m |= F_NP;
    if (f->commit)
        m |= F_COMMIT;
    if (f->branch)
        m |= F_BRANCH;
    if (f->tag_key && f->tag_value)
        m |= F_TAG;
    return variants[m];
}

static void bind_filter(sqlite3_stmt *st, const struct db_run_filter *f)
{
    if (f->application)
        sqlite3_bind_text(st, 1, f->application, -1, SQLITE_STATIC);
    if (f->executable)
        sqlite3_bind_text(st, 2, f->executable, -1, SQLITE_STATIC);
    if (f->system)
        sqlite3_bind_text(st, 3, f->system, -1, SQLITE_STATIC);
    if (f->nprocs > 0)
        sqlite3_bind_int64(st, 4, f->nprocs);
    if (f->commit)
        sqlite3_bind_text(st, 7, f->commit, -1, SQLITE_STATIC);
    if (f->branch)
        sqlite3_bind_text(st, 8, f->branch, -1, SQLITE_STATIC);
    if (f->tag_key && f->tag_value) {
        sqlite3_bind_text(st, 9, f->tag_key, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 10, f->tag_value, -1, SQLITE_STATIC);
    }
}

int sq_runs_list(db *d, const struct db_run_filter *f, arena *a, struct db_run_row **rows,
                 struct err *err)
{
    sqlite3_stmt *st = db_stmt(d, variant(f), err);
    int limit = f->limit > 0 && f->limit <= 1000 ? f->limit : 100;
    int n = 0, i, rc = SQLITE_DONE;
    struct db_run_row *out;

    *rows = NULL;
    if (st == NULL)
        return -1;
    out = arena_alloc(a, (size_t)limit * sizeof *out);
    if (out == NULL)
        return err_nomem(err);
    bind_filter(st, f);
    sqlite3_bind_int64(st, 5, f->after);
    sqlite3_bind_int(st, 6, limit);
    while (n < limit && (rc = sqlite3_step(st)) == SQLITE_ROW)
        db_run_row_read(d, (struct db_stmt *)st, a, &out[n++]);
    sqlite3_reset(st);
    if (n < limit && rc != SQLITE_DONE)
        return db_fail(d, err);
    /* Children are read after the main statement is reset: one statement at a
     * time per connection keeps the statement cache simple. */
    for (i = 0; i < n; i++)
        if (db_run_children(d, a, &out[i], err) != 0)
            return -1;
    *rows = out;
    return n;
}
