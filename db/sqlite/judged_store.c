/* judged_store: a run's judgements stored into its one packed row of
 * run_judgements (merged in watch order when the run has a row already), and
 * the walk that decodes the rows a statement returns. The blob's format is
 * db/codec.c's.
 */
#include "db/history.h"
#include "db/sqlite/judged.h"
#include "common/xalloc.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

static int by_watch(const void *a, const void *b)
{
    const struct db_judgement *x = a, *y = b;
    return (x->watch_id > y->watch_id) - (x->watch_id < y->watch_id);
}

static int conflict(struct err *err)
{
    /* the words of a constraint, as the row per judgement gave them */
    return err_set(err, 409, "conflict", NULL,
                   "conflict: UNIQUE constraint failed: judgements.run_id, "
                   "judgements.watch_id");
}

static const char SQL_PUT[] = "INSERT INTO run_judgements (run_id, data) VALUES (?1, ?2)";
const char SQ_JUDGED_GET[] = "SELECT data FROM run_judgements WHERE run_id = ?1";
static const char SQL_SET[] = "UPDATE run_judgements SET data = ?2 WHERE run_id = ?1";

/* Runs SQL_PUT or SQL_SET. Returns the step's result code. */
static int write_blob(db *d, const char *sql, long long run_id, const unsigned char *p,
                      size_t len, struct err *err)
{
    sqlite3_stmt *st = db_stmt(d, sql, err);
    int rc;
    if (st == NULL)
        return SQLITE_ERROR;
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_blob64(st, 2, p, (sqlite3_uint64)len, SQLITE_STATIC);
    rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc;
}

/* A run judged again (more watches later): its stored judgements and the
 * new ones, merged in watch order; one watch twice is a conflict. */
static int merge(db *d, long long run_id, const struct db_judgement *j, size_t n,
                 struct err *err)
{
    sqlite3_stmt *st = db_stmt(d, SQ_JUDGED_GET, err);
    struct db_judged u = {0};
    struct db_judgement *all;
    unsigned char *out;
    size_t len, i;
    int rc;

    if (st == NULL)
        return -1;
    sqlite3_bind_int64(st, 1, run_id);
    if ((rc = sqlite3_step(st)) != SQLITE_ROW) {
        sqlite3_reset(st);
        return db_fail(d, err);
    }
    rc = db_judged_decode(sqlite3_column_blob(st, 0), (size_t)sqlite3_column_bytes(st, 0),
                          run_id, &u, err);
    sqlite3_reset(st);
    if (rc != 0) {
        db_judged_free(&u);
        return -1;
    }
    if ((all = xmalloc((u.n + n) * sizeof *all)) == NULL) {
        db_judged_free(&u);
        return err_nomem(err);
    }
    memcpy(all, u.j, u.n * sizeof *all);
    memcpy(all + u.n, j, n * sizeof *all);
    qsort(all, u.n + n, sizeof *all, by_watch);
    for (i = 1; i < u.n + n; i++)
        if (all[i].watch_id == all[i - 1].watch_id)
            break;
    rc = -1;
    if (i < u.n + n) {
        conflict(err);
    } else {
        out = xmalloc(db_judged_bound(u.n + n));
        len = out ? db_judged_pack(all, u.n + n, out) : 0;
        if (len == 0)
            err_nomem(err);
        else if (write_blob(d, SQL_SET, run_id, out, len, err) == SQLITE_DONE)
            rc = 0;
        else if (err->status == 0)
            db_fail(d, err);
        xfree(out);
    }
    xfree(all);
    db_judged_free(&u);
    return rc;
}

int sq_judged_put(db *d, const struct db_judgement *j, size_t n, struct err *err)
{
    struct db_judgement *sorted = NULL;
    unsigned char small[4096], *out;
    size_t len, i;
    int rc;

    if (n == 0)
        return 0;
    for (i = 1; i < n; i++) {
        if (j[i].run_id != j[0].run_id)
            return err_set(err, 500, "internal", NULL,
                           "judgements of runs %lld and %lld stored together",
                           j[0].run_id, j[i].run_id);
        if (j[i].watch_id <= j[i - 1].watch_id && sorted == NULL) {
            if ((sorted = xmalloc(n * sizeof *sorted)) == NULL)
                return err_nomem(err);
            memcpy(sorted, j, n * sizeof *sorted);
            qsort(sorted, n, sizeof *sorted, by_watch);
        }
    }
    if (sorted != NULL) {
        j = sorted;
        for (i = 1; i < n; i++)
            if (j[i].watch_id == j[i - 1].watch_id) {
                xfree(sorted);
                return conflict(err);
            }
    }
    if (j[0].watch_id < 1) {
        xfree(sorted);
        return err_set(err, 500, "internal", NULL, "a judgement of no watch");
    }
    out = db_judged_bound(n) <= sizeof small ? small : xmalloc(db_judged_bound(n));
    len = out ? db_judged_pack(j, n, out) : 0;
    rc = len ? write_blob(d, SQL_PUT, j[0].run_id, out, len, err) : SQLITE_NOMEM;
    if (out != small)
        xfree(out);
    if (len == 0)
        rc = err_nomem(err);
    else if (rc == SQLITE_DONE)
        rc = 0;
    else if (err->status != 0)
        rc = -1;
    else if (sqlite3_extended_errcode(db_handle(d)) == SQLITE_CONSTRAINT_PRIMARYKEY)
        rc = merge(d, j[0].run_id, j, n, err);
    else
        rc = db_fail(d, err);
    xfree(sorted);
    return rc;
}

int sq_judged_rows(db *d, sqlite3_stmt *st,
                   int (*fn)(void *ctx, sqlite3_stmt *st, const struct db_judged *u,
                             struct err *err),
                   void *ctx, struct err *err)
{
    struct db_judged u = {0};
    int rc;

    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        long long run = sqlite3_column_int64(st, 0);
        if (db_judged_decode(sqlite3_column_blob(st, 1),
                             (size_t)sqlite3_column_bytes(st, 1), run, &u, err) != 0 ||
            fn(ctx, st, &u, err) != 0) {
            sqlite3_reset(st);
            db_judged_free(&u);
            return -1;
        }
    }
    sqlite3_reset(st);
    db_judged_free(&u);
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    return 0;
}
