/* judged_fold: the watch counts. A run's judgements are counted into
 * watch_counts when stored at or below the mark, or by the fold (schema.sql
 * migration 10) that counts the runs after it; a deleted run's counted
 * judgements are taken back.
 */
#include "db/history.h"
#include "db/sqlite/entries.h"
#include "db/query.h"
#include "db/sqlite/judged.h"
#include "common/xalloc.h"

#include <sqlite3.h>
#include <string.h>

/* Adds to watch's counts; -1 when memory ran out (c unchanged). */
static int counts_add(struct sq_counts *c, long long watch, long long judged,
                      long long out)
{
    size_t i;
    if (2 * (c->n + 1) > c->cap) {
        struct sq_counts g = {xcalloc(c->cap ? 2 * c->cap : 256, sizeof *g.e), 0,
                              c->cap ? 2 * c->cap : 256};
        if (g.e == NULL)
            return -1;
        for (i = 0; i < c->cap; i++)
            if (c->e[i].watch) /* room enough: never grows */
                (void)counts_add(&g, c->e[i].watch, c->e[i].judged, c->e[i].out);
        xfree(c->e);
        *c = g;
    }
    for (i = (size_t)watch * 0x9E3779B97F4A7C15ull & (c->cap - 1);
         c->e[i].watch && c->e[i].watch != watch; i = (i + 1) & (c->cap - 1))
        ;
    if (!c->e[i].watch) {
        c->e[i].watch = watch;
        c->n++;
    }
    c->e[i].judged += judged;
    c->e[i].out += out;
    return 0;
}

const struct sq_count *sq_counts_get(const struct sq_counts *c, long long watch)
{
    size_t i;
    if (c->cap == 0)
        return NULL;
    for (i = (size_t)watch * 0x9E3779B97F4A7C15ull & (c->cap - 1); c->e[i].watch;
         i = (i + 1) & (c->cap - 1))
        if (c->e[i].watch == watch)
            return &c->e[i];
    return NULL;
}

static int count_run(void *ctx, sqlite3_stmt *st, const struct db_judged *u,
                     struct err *err)
{
    (void)st;
    for (size_t i = 0; i < u->n; i++)
        if (counts_add(ctx, u->j[i].watch_id, 1, u->j[i].out) != 0)
            return err_nomem(err);
    return 0;
}

const char SQ_JUDGED_AFTER[] =
    "SELECT run_id, data FROM run_judgements WHERE run_id > ?1 ORDER BY run_id";

/* The judgements of runs after run id `after`, counted per watch. */
int sq_counts_after(db *d, long long after, struct sq_counts *c, struct err *err)
{
    sqlite3_stmt *st = db_stmt(d, SQ_JUDGED_AFTER, err);
    if (st == NULL)
        return -1;
    sqlite3_bind_int64(st, 1, after);
    return sq_judged_rows(d, st, count_run, c, err);
}

const char SQ_JUDGED_UPTO[] = "SELECT run_id FROM watch_counts_upto";
/* A watch's counts grow by ?2 judged and ?3 out, if it is still a watch. */
static const char SQL_COUNT_ADD[] =
    "INSERT INTO watch_counts (watch_id, judged, out) SELECT id, ?2, ?3 FROM watches "
    "WHERE id = ?1 ON CONFLICT (watch_id) DO UPDATE SET judged = judged + "
    "excluded.judged, out = out + excluded.out";
static const char SQL_MARK[] =
    "UPDATE watch_counts_upto SET run_id = max(run_id, (SELECT coalesce(max(run_id), 0) "
    "FROM run_judgements))";

/* Adds every count of c to watch_counts. */
static int counts_store(db *d, const struct sq_counts *c, struct err *err)
{
    for (size_t i = 0; i < c->cap; i++)
        if (c->e[i].watch && dq_run(d, SQL_COUNT_ADD, err, "iii", c->e[i].watch,
                                    c->e[i].judged, c->e[i].out) < 0)
            return -1;
    return 0;
}

/* The fold (schema.sql migration 10): the judgements of runs after the mark
 * are counted into watch_counts and the mark moves to the newest judged
 * run. */
static int fold(db *d, long long upto, struct err *err)
{
    struct sq_counts c = {0};
    int rc = sq_counts_after(d, upto, &c, err) != 0 || counts_store(d, &c, err) != 0 ||
                     dq_run(d, SQL_MARK, err, "") < 0
                 ? -1
                 : 0;
    xfree(c.e);
    return rc;
}

int sq_judged_recount(db *d, struct err *err)
{
    return db_exec(d, "DELETE FROM watch_counts", err) != 0 ||
                   db_exec(d, "UPDATE watch_counts_upto SET run_id = 0", err) != 0 ||
                   fold(d, 0, err) != 0
               ? -1
               : 0;
}

static const char SQL_FORGET[] =
    "UPDATE watch_counts SET judged = judged - ?2, out = out - ?3 WHERE watch_id = ?1";

static int forget_run(void *ctx, sqlite3_stmt *st, const struct db_judged *u,
                      struct err *err)
{
    (void)st;
    for (size_t i = 0; i < u->n; i++)
        if (dq_run(ctx, SQL_FORGET, err, "iii", u->j[i].watch_id, 1LL,
                   (long long)u->j[i].out) < 0)
            return -1;
    return 0;
}

static const char SQL_RUN_FORGET[] =
    "SELECT run_id, data FROM run_judgements WHERE run_id = ?1 AND run_id <= (SELECT "
    "run_id FROM watch_counts_upto)";
static const char SQL_RUN_DROP[] = "DELETE FROM run_judgements WHERE run_id = ?1";

int sq_judged_delete_run(db *d, long long run_id, struct err *err)
{
    sqlite3_stmt *st = db_stmt(d, SQL_RUN_FORGET, err);
    if (st == NULL)
        return -1;
    /* the counts take back what they had counted (a run after the mark was
     * not counted yet) */
    sqlite3_bind_int64(st, 1, run_id);
    if (sq_judged_rows(d, st, forget_run, d, err) != 0)
        return -1;
    return dq_run(d, SQL_RUN_DROP, err, "i", run_id) < 0 ? -1 : 0;
}

/* ---- storing a run's judgements --------------------------------------------- */

static const char SQL_COUNT_NOW[] =
    "INSERT INTO watch_counts (watch_id, judged, out) VALUES (?, 1, ?) ON CONFLICT "
    "(watch_id) DO UPDATE SET judged = judged + 1, out = out + excluded.out";

int sq_judgements_add(db *d, const struct db_judgement *j, size_t n, long long *alert_ids,
                      struct err *err)
{
    long long upto;
    long *unfolded = sq_unfolded(d);
    size_t i;

    if (n == 0)
        return 0;
    upto = sq_scalar(d, SQ_JUDGED_UPTO, err);
    if (upto < 0 || sq_judged_put(d, j, n, err) != 0)
        return -1;
    /* A run at or below the mark is counted now (the fold would not see it). */
    for (i = 0; i < n && j[0].run_id <= upto; i++)
        if (dq_run(d, SQL_COUNT_NOW, err, "ii", j[i].watch_id, (long long)j[i].out) < 0)
            return -1;
    /* The first call on a connection folds, then one in FOLD_EVERY judged
     * runs: a rolled-back fold only leaves a longer rest. */
    *unfolded += 1;
    if (*unfolded >= FOLD_EVERY) {
        if (fold(d, upto, err) != 0)
            return -1;
        *unfolded = 0;
    }
    /* the alerts: db_judgements_add, engine-neutral (db/history.c) */
    (void)alert_ids;
    return 0;
}

int sq_judgement_add(db *d, const struct db_judgement *j, long long *alert_id,
                     struct err *err)
{
    return db_judgements_add(d, j, 1, alert_id, err);
}
