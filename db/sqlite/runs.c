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
#include "db/tally.h"

#include <math.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

static const char SQL_UID_SEL[] = "SELECT id FROM runs WHERE uid = ?1";
/* A run goes in with its configuration (?13) when that exists already
 * (SQL_CONFIG_SEL, by db_inputs_key's text): setting it afterwards
 * (sq_summary_add_run_key, left for a configuration's first run) rewrote the
 * run's row and its series index entry. db_runs_insert of 8 runs a
 * transaction, 40,000 runs, median of 10 alternating rounds: 216 -> 207 us
 * of CPU a run. Read back by RETURNING from the insert instead, with the
 * configuration's id in a subquery, it cost more than it saved (216 us). */
static const char SQL_RUN_INS[] =
    "INSERT INTO runs (uid, app_id, exe_id, system_id, nprocs, runtime, started_at, "
    "submitter, created_at, vcs_commit, vcs_branch, at_ms, config_id) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)";
static const char SQL_CONFIG_SEL[] =
    "SELECT id FROM run_configs WHERE app_id = ?1 AND exe_id = ?2 AND system_id = ?3 "
    "AND nprocs = ?4 AND inputs = ?5";
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

/* What new runs add to their applications' kernel and metric names
 * (app_kernels: rows and least seq a name; app_metrics: the names), one
 * upsert a name per call in key order, with the application's id known:
 * the triggers that did it per kernel and metric row until migration 19
 * read the run again for each and ran a trigger program (about 40 of 140 us
 * of store CPU a run of 10 kernels and 2 metrics). */
static const char SQL_APP_KERNEL_ADD[] =
    "INSERT INTO app_kernels (app_id, name, records, first_seq) VALUES (?1, ?2, ?3, ?4) "
    "ON CONFLICT (app_id, name) DO UPDATE SET records = records + excluded.records, "
    "first_seq = min(first_seq, excluded.first_seq)";
static const char SQL_APP_METRIC_ADD[] =
    "INSERT INTO app_metrics (app_id, name) VALUES (?1, ?2) "
    "ON CONFLICT (app_id, name) DO NOTHING";

/* What a call's new runs add to the summaries the store keeps besides
 * their configurations': their kernel and metric names (db_names_sum) and
 * their page counts (db/tally.h), taken from what is inserted, in the call's
 * arena a. */
struct adds {
    arena *a;
    struct db_name_row *names;
    size_t nnames, cap;
    struct db_tally_row *tally; /* 3 a new run */
    size_t ntally;
};

static int add_name(struct adds *ad, long long app_id, const char *name, long long seq,
                    struct err *err)
{
    struct db_name_row *v =
        arena_grow(ad->a, ad->names, ad->nnames, &ad->cap, 64, sizeof *v);
    if (v == NULL)
        return err_nomem(err);
    ad->names = v;
    v[ad->nnames++] = (struct db_name_row){app_id, name, seq, 1};
    return 0;
}

/* The names and page counts of ad, summed by key and written. */
static int adds_write(db *d, struct adds *ad, struct err *err)
{
    size_t i, m = db_names_sum(ad->names, ad->nnames);
    for (i = 0; i < m; i++) {
        const struct db_name_row *r = &ad->names[i];
        sqlite3_stmt *st =
            db_stmt(d, r->seq >= 0 ? SQL_APP_KERNEL_ADD : SQL_APP_METRIC_ADD, err);
        if (st == NULL)
            return -1;
        sqlite3_bind_int64(st, 1, r->app_id);
        sqlite3_bind_text(st, 2, r->name, -1, SQLITE_STATIC);
        if (r->seq >= 0) {
            sqlite3_bind_int64(st, 3, r->rows);
            sqlite3_bind_int64(st, 4, r->seq);
        }
        if (step_done(d, st, err) != 0)
            return -1;
    }
    return db_tally_add(d, ad->tally, ad->ntally, err);
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

/* sq_runs_insert with key, a buffer for each run's configuration key. */
static int insert_runs(db *d, const struct run_record *runs, size_t n, long long *ids,
                       int *existed, struct buf *key, struct adds *ad, struct err *err)
{
    struct db_resolved c = {0};
    char now[32];
    size_t i, k;

    db_now(now);
    for (i = 0; i < n; i++) {
        const struct run_record *r = &runs[i];
        sqlite3_stmt *st;
        long long id = 0, config = 0, at_ms;
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
                    return err_set(err, ERR_CONFLICT, "conflict", "id",
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
        if (db_config_key(r->inputs, r->ninputs, key, err) != 0)
            return -1;
        st = db_stmt(d, SQL_CONFIG_SEL, err);
        if (st == NULL)
            return -1;
        sqlite3_bind_int64(st, 1, c.app_id);
        sqlite3_bind_int64(st, 2, c.exe_id);
        sqlite3_bind_int64(st, 3, c.sys_id);
        sqlite3_bind_int64(st, 4, r->nprocs);
        sqlite3_bind_text(st, 5, buf_str(key), (int)key->len, SQLITE_STATIC);
        rc = sqlite3_step(st);
        config = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
        sqlite3_reset(st);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            return db_fail(d, err);
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
        at_ms = db_run_at(r->started_at, now);
        sqlite3_bind_int64(st, 12, at_ms);
        if (config)
            sqlite3_bind_int64(st, 13, config);
        else
            sqlite3_bind_null(st, 13);
        if (step_done(d, st, err) != 0)
            return -1;
        id = sqlite3_last_insert_rowid(db_handle(d));
        ids[i] = id;
        if (insert_kvs(d, SQL_INPUT_INS, id, r->inputs, r->ninputs, err) != 0 ||
            insert_kvs(d, SQL_METRIC_INS, id, r->metrics, r->nmetrics, err) != 0)
            return -1;
        db_tally_rows_of(id, c.app_id, c.exe_id, c.sys_id, r->nprocs,
                         RUN_HAS_RUNTIME(r->runtime) ? r->runtime : NAN,
                         ad->tally + ad->ntally);
        ad->ntally += 3;
        for (k = 0; k < r->nmetrics; k++)
            if (add_name(ad, c.app_id, r->metrics[k].name, -1, err) != 0)
                return -1;
        for (k = 0; k < r->nkernels; k++) {
            const struct rec_kernel *kr = &r->kernels[k];
            st = db_stmt(d, SQL_KERNEL_INS, err);
            if (st == NULL)
                return -1;
            sqlite3_bind_int64(st, 1, id);
            sqlite3_bind_int64(st, 2, (long long)k);
            sqlite3_bind_text(st, 3, kr->name, -1, SQLITE_STATIC);
            if (KERNEL_HAS_TIME(kr->time))
                sqlite3_bind_double(st, 4, kr->time);
            else
                sqlite3_bind_null(st, 4);
            if (KERNEL_HAS_CALLS(kr->calls))
                sqlite3_bind_int64(st, 5, kr->calls);
            else
                sqlite3_bind_null(st, 5);
            if (kr->metrics_json)
                sqlite3_bind_text(st, 6, kr->metrics_json, -1, SQLITE_STATIC);
            if (step_done(d, st, err) != 0 ||
                add_name(ad, c.app_id, kr->name, (long long)k, err) != 0)
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
        if (sq_summary_add_run_key(d, id, buf_str(key), config, at_ms, err) != 0)
            return -1;
    }
    return 0;
}

int sq_runs_insert(db *d, const struct run_record *runs, size_t n, long long *ids,
                   int *existed, struct err *err)
{
    struct buf key;
    struct adds ad = {NULL, NULL, 0, 0, NULL, 0};
    int rc;
    if (n == 0)
        return 0;
    ad.a = arena_new();
    if (ad.a == NULL ||
        (ad.tally = arena_alloc(ad.a, 3 * n * sizeof *ad.tally)) == NULL) {
        arena_free(ad.a);
        return err_nomem(err);
    }
    buf_init(&key, DB_CONFIG_KEY_MAX);
    rc = insert_runs(d, runs, n, ids, existed, &key, &ad, err);
    if (rc == 0)
        rc = adds_write(d, &ad, err);
    buf_free(&key);
    arena_free(ad.a);
    return rc;
}
