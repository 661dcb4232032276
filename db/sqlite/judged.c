/* judged: a run's judgements packed into one row of run_judgements (schema.sql
 * migration 11), and everything that reads them back: the series' and the
 * ledger's judgements, the alerts' values, the watch counts, copy's
 * judgements table and the migration that packed the rows.
 *
 * The blob's format is db/codec.c's. A deleted watch's entries stay in the
 * blobs and every reader skips ids that are not watches any more (watch ids
 * are never handed out again: watch_ids, migration 11).
 */
#include "db/history.h"
#include "db/sqlite/entries.h"
#include "db/query.h"
#include "db/sqlite/sql.h"
#include "common/xalloc.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- storing -------------------------------------------------------------- */

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
static const char SQL_GET[] = "SELECT data FROM run_judgements WHERE run_id = ?1";
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
    sqlite3_stmt *st = db_stmt(d, SQL_GET, err);
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

/* ---- the watches that exist ------------------------------------------------- */

/* The watches' ids (ascending) and models (0 for a statistical watch):
 * every watch, or those of one model. */
struct live {
    long long *id, *model;
    size_t n;
};

static void live_free(struct live *l)
{
    xfree(l->id);
    xfree(l->model);
    memset(l, 0, sizeof *l);
}

static const char SQL_LIVE[] =
    "SELECT id, coalesce(model_id, 0) FROM watches WHERE ?1 = 0 OR model_id = ?1 ORDER "
    "BY id";

/* Every watch (model_id 0), or the watches of model_id. */
static int live_load(db *d, long long model_id, struct live *l, struct err *err)
{
    sqlite3_stmt *st = db_stmt(d, SQL_LIVE, err);
    size_t cap = 0;
    int rc;

    memset(l, 0, sizeof *l);
    if (st == NULL)
        return -1;
    sqlite3_bind_int64(st, 1, model_id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (l->n == cap) {
            long long *id, *model;
            cap = cap ? 2 * cap : 64;
            id = xrealloc(l->id, cap * sizeof *l->id);
            if (id != NULL)
                l->id = id;
            model = id ? xrealloc(l->model, cap * sizeof *l->model) : NULL;
            if (model == NULL) {
                sqlite3_reset(st);
                live_free(l);
                return err_nomem(err);
            }
            l->model = model;
        }
        l->id[l->n] = sqlite3_column_int64(st, 0);
        l->model[l->n++] = sqlite3_column_int64(st, 1);
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
        live_free(l);
        return db_fail(d, err);
    }
    return 0;
}

/* The position of watch id in l, or -1. */
static long live_find(const struct live *l, long long id)
{
    size_t lo = 0, hi = l->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->id[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < l->n && l->id[lo] == id ? (long)lo : -1;
}

/* ---- the watch counts ------------------------------------------------------- */

/* Judged and out per watch id: open addressing, a power-of-two table. */
struct counts {
    struct count {
        long long watch, judged, out;
    } * e;
    size_t n, cap;
};

/* Adds to watch's counts; -1 when memory ran out (c unchanged). */
static int counts_add(struct counts *c, long long watch, long long judged, long long out)
{
    size_t i;
    if (2 * (c->n + 1) > c->cap) {
        struct counts g = {xcalloc(c->cap ? 2 * c->cap : 256, sizeof *g.e), 0,
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

static const struct count *counts_get(const struct counts *c, long long watch)
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

static const char SQL_AFTER[] =
    "SELECT run_id, data FROM run_judgements WHERE run_id > ?1 ORDER BY run_id";

/* The judgements of runs after run id `after`, counted per watch. */
static int counts_after(db *d, long long after, struct counts *c, struct err *err)
{
    sqlite3_stmt *st = db_stmt(d, SQL_AFTER, err);
    if (st == NULL)
        return -1;
    sqlite3_bind_int64(st, 1, after);
    return sq_judged_rows(d, st, count_run, c, err);
}

static const char SQL_UPTO[] = "SELECT run_id FROM watch_counts_upto";
/* A watch's counts grow by ?2 judged and ?3 out, if it is still a watch. */
static const char SQL_COUNT_ADD[] =
    "INSERT INTO watch_counts (watch_id, judged, out) SELECT id, ?2, ?3 FROM watches "
    "WHERE id = ?1 ON CONFLICT (watch_id) DO UPDATE SET judged = judged + "
    "excluded.judged, out = out + excluded.out";
static const char SQL_MARK[] =
    "UPDATE watch_counts_upto SET run_id = max(run_id, (SELECT coalesce(max(run_id), 0) "
    "FROM run_judgements))";

/* Adds every count of c to watch_counts. */
static int counts_store(db *d, const struct counts *c, struct err *err)
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
    struct counts c = {0};
    int rc = counts_after(d, upto, &c, err) != 0 || counts_store(d, &c, err) != 0 ||
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
    upto = sq_scalar(d, SQL_UPTO, err);
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

/* ---- the watch list ---------------------------------------------------------- */

json_t *sq_watches_list(db *d, struct err *err)
{
    struct counts c = {0};
    json_t *rows, *row;
    long long upto = sq_scalar(d, SQL_UPTO, err);
    size_t i;

    if (upto < 0)
        return NULL;
    rows = dq_json(
        d,
        "SELECT w.id, w.model_id AS model, a.name AS application, e.name AS executable, "
        "s.name AS system, w.nprocs, w.inputs AS inputs_json, w.y, w.test, w.threshold, "
        "w.history AS window, w.confirm, w.created_at, coalesce(n.judged, 0) AS judged, "
        "coalesce(n.out, 0) AS out FROM watches w JOIN applications a ON a.id = w.app_id "
        "LEFT JOIN executables e ON e.id = w.exe_id LEFT JOIN systems s ON s.id = "
        "w.system_id LEFT JOIN watch_counts n ON n.watch_id = w.id ORDER BY w.id",
        err, "");
    /* the judgements after the mark, not folded in yet */
    if (rows == NULL || counts_after(d, upto, &c, err) != 0) {
        json_decref(rows);
        xfree(c.e);
        return NULL;
    }
    json_array_foreach(rows, i, row)
    {
        const struct count *k =
            counts_get(&c, json_integer_value(json_object_get(row, "id")));
        if (k == NULL)
            continue;
        json_object_set_new(
            row, "judged",
            json_integer(json_integer_value(json_object_get(row, "judged")) + k->judged));
        json_object_set_new(
            row, "out",
            json_integer(json_integer_value(json_object_get(row, "out")) + k->out));
    }
    xfree(c.e);
    return rows;
}

/* ---- a configuration's judgements (the series) ------------------------------ */

struct config_ctx {
    struct live live;
    sqlite3_stmt *alerts; /* (run_id, watch_id, id) of the configuration, in order */
    int alerts_rc;
    json_t *by_run;
};

/* The alert of (run, watch), stepping ctx->alerts along: both walk in
 * (run, watch) order. 0 when none. */
static long long alert_of(struct config_ctx *c, long long run, long long watch)
{
    while (c->alerts_rc == SQLITE_ROW) {
        long long ar = sqlite3_column_int64(c->alerts, 0),
                  aw = sqlite3_column_int64(c->alerts, 1);
        if (ar > run || (ar == run && aw > watch))
            return 0;
        if (ar == run && aw == watch)
            return sqlite3_column_int64(c->alerts, 2);
        c->alerts_rc = sqlite3_step(c->alerts);
    }
    return 0;
}

static int config_run(void *ctx, sqlite3_stmt *st, const struct db_judged *u,
                      struct err *err)
{
    struct config_ctx *c = ctx;
    json_t *list = NULL;
    char key[32];
    (void)st;

    for (size_t i = 0; i < u->n; i++) {
        const struct db_judgement *j = &u->j[i];
        long at = live_find(&c->live, j->watch_id);
        long long alert;
        json_t *o;
        if (at < 0)
            continue; /* a deleted watch's */
        alert = alert_of(c, j->run_id, j->watch_id);
        o = json_pack("{s:I, s:o, s:f, s:f, s:f, s:i, s:i, s:i, s:o}", "watch",
                      (json_int_t)j->watch_id, "model",
                      c->live.model[at] ? json_integer(c->live.model[at]) : json_null(),
                      "expected", j->expected, "lo", j->lo, "hi", j->hi, "ready",
                      j->ready, "out", j->out, "direction", j->direction, "alert",
                      alert ? json_integer(alert) : json_null());
        if (o == NULL)
            return err_nomem(err);
        if (list == NULL) {
            list = json_array();
            snprintf(key, sizeof key, "%lld", j->run_id);
            json_object_set_new(c->by_run, key, list);
        }
        json_array_append_new(list, o);
    }
    return 0;
}

static const char SQL_CONFIG_RUNS[] =
    "SELECT r.id, p.data FROM runs r JOIN run_judgements p ON p.run_id = r.id WHERE "
    "r.config_id = ?1 ORDER BY r.id";
static const char SQL_CONFIG_ALERTS[] =
    "SELECT a.run_id, a.watch_id, a.id FROM alerts a JOIN runs r ON r.id = a.run_id "
    "WHERE r.config_id = ?1 ORDER BY a.run_id, a.watch_id";

json_t *sq_history_judgements(db *d, long long config_id, json_t **watches,
                              struct err *err)
{
    struct config_ctx c = {0};
    sqlite3_stmt *st;
    json_t *row;
    size_t i;
    int rc = -1;

    *watches = dq_json(
        d,
        "SELECT w.id FROM watches w, run_configs c WHERE c.id = ?1 AND " SQ_WATCH_COVERS(
            "w", "c") " ORDER BY w.id",
        err, "i", config_id);
    if (*watches == NULL)
        return NULL;
    json_array_foreach(*watches, i, row) json_array_set_new(
        *watches, i, json_integer(json_integer_value(json_object_get(row, "id"))));
    c.by_run = json_object();
    if (c.by_run == NULL || live_load(d, 0, &c.live, err) != 0 ||
        (c.alerts = db_stmt(d, SQL_CONFIG_ALERTS, err)) == NULL ||
        (st = db_stmt(d, SQL_CONFIG_RUNS, err)) == NULL)
        goto out;
    sqlite3_bind_int64(c.alerts, 1, config_id);
    c.alerts_rc = sqlite3_step(c.alerts);
    sqlite3_bind_int64(st, 1, config_id);
    rc = sq_judged_rows(d, st, config_run, &c, err);
    if (rc == 0 && c.alerts_rc != SQLITE_ROW && c.alerts_rc != SQLITE_DONE)
        rc = db_fail(d, err);
out:
    if (c.alerts)
        sqlite3_reset(c.alerts);
    live_free(&c.live);
    if (rc != 0) {
        json_decref(c.by_run);
        json_decref(*watches);
        *watches = NULL;
        return NULL;
    }
    return c.by_run;
}

/* ---- a model's ledger ------------------------------------------------------- */

struct ledger_ctx {
    struct live mine; /* the model's watches */
    json_t *rows;
};

static int ledger_run(void *ctx, sqlite3_stmt *st, const struct db_judged *u,
                      struct err *err)
{
    struct ledger_ctx *c = ctx;
    for (size_t i = 0; i < u->n; i++) {
        const struct db_judgement *j = &u->j[i];
        const char *commit = (const char *)sqlite3_column_text(st, 3);
        json_t *o;
        if (!j->ready || !j->has_x || live_find(&c->mine, j->watch_id) < 0)
            continue;
        o = json_pack("{s:I, s:I, s:I, s:o, s:f, s:f, s:f, s:f, s:f, s:i}", "run",
                      (json_int_t)j->run_id, "watch", (json_int_t)j->watch_id, "at",
                      (json_int_t)sqlite3_column_int64(st, 2), "commit",
                      commit ? json_string(commit) : json_null(), "x", j->x, "predicted",
                      j->expected, "lo", j->lo, "hi", j->hi, "actual", j->value, "out",
                      j->out);
        if (o == NULL || json_array_append_new(c->rows, o) != 0)
            return err_nomem(err);
    }
    return 0;
}

/* The runs the model's watches may have judged: those of the configurations
 * they cover, through runs_series (config_id first). */
static const char SQL_LEDGER_RUNS[] =
    "SELECT r.id, p.data, r.at_ms, r.vcs_commit FROM runs r JOIN run_judgements p ON "
    "p.run_id = r.id WHERE r.config_id IN (SELECT c.id FROM watches w, run_configs c "
    "WHERE w.model_id = ?1 AND " SQ_WATCH_COVERS("w", "c") ") ORDER BY r.id";

json_t *sq_model_judgements(db *d, long long model_id, struct err *err)
{
    struct ledger_ctx c = {{0}, json_array()};
    sqlite3_stmt *st;
    int rc = -1;

    if (c.rows == NULL) {
        err_nomem(err);
        return NULL;
    }
    if (live_load(d, model_id, &c.mine, err) == 0 &&
        (st = db_stmt(d, SQL_LEDGER_RUNS, err)) != NULL) {
        sqlite3_bind_int64(st, 1, model_id);
        rc = c.mine.n ? sq_judged_rows(d, st, ledger_run, &c, err) : 0;
    }
    live_free(&c.mine);
    if (rc != 0) {
        json_decref(c.rows);
        return NULL;
    }
    return c.rows;
}

/* ---- alerts ------------------------------------------------------------------ */

/* The columns of an alert as the API shows it; the judgement's values are
 * filled in from the run's packed row by alerts_fill. */
#define SQ_ALERT_ROWS                                                                    \
    "SELECT al.id, al.state, al.run_id AS run, al.watch_id AS watch, w.model_id AS "     \
    "model, a.name AS application, e.name AS executable, s.name AS system, r.nprocs, "   \
    "c.inputs AS inputs_json, w.y, r.vcs_commit AS \"commit\", r.vcs_branch AS "         \
    "branch, NULL AS value, NULL AS expected, NULL AS lo, NULL AS hi, NULL AS "          \
    "direction, al.reason, al.group_id AS \"group\", al.created_at, al.updated_at, "     \
    "w.x, al.target, al.formula, al.baseline_formula, al.predicted, "                    \
    "al.baseline_predicted, al.baseline_lo, al.baseline_hi "                             \
    "FROM alerts al JOIN watches w ON w.id = "                                           \
    "al.watch_id JOIN runs r ON r.id = al.run_id JOIN applications a ON a.id = "         \
    "r.app_id JOIN executables e ON e.id = r.exe_id JOIN systems s ON s.id = "           \
    "r.system_id LEFT JOIN run_configs c ON c.id = r.config_id "

/* Fills each row's value, expected, lo, hi and direction from its run's
 * packed judgements. 0, or -1 with err set (rows untouched by the caller). */
static int alerts_fill(db *d, json_t *rows, struct err *err)
{
    struct db_judged u = {0};
    json_t *row;
    size_t i;
    int rc = -1;

    json_array_foreach(rows, i, row)
    {
        long long run = json_integer_value(json_object_get(row, "run")),
                  watch = json_integer_value(json_object_get(row, "watch"));
        sqlite3_stmt *st = db_stmt(d, SQL_GET, err);
        size_t k;
        int got;
        if (st == NULL)
            goto out;
        sqlite3_bind_int64(st, 1, run);
        got = sqlite3_step(st);
        if (got == SQLITE_ROW)
            got = db_judged_decode(sqlite3_column_blob(st, 0),
                                   (size_t)sqlite3_column_bytes(st, 0), run, &u, err);
        else
            got = got == SQLITE_DONE ? db_judged_damaged(run, err) : db_fail(d, err);
        sqlite3_reset(st);
        if (got != 0)
            goto out;
        for (k = 0; k < u.n && u.j[k].watch_id != watch; k++)
            ;
        if (k == u.n) {
            db_judged_damaged(run, err);
            goto out;
        }
        json_object_set_new(row, "value", json_real(u.j[k].value));
        json_object_set_new(row, "expected", json_real(u.j[k].expected));
        json_object_set_new(row, "lo", json_real(u.j[k].lo));
        json_object_set_new(row, "hi", json_real(u.j[k].hi));
        json_object_set_new(row, "direction", json_integer(u.j[k].direction));
    }
    rc = 0;
out:
    db_judged_free(&u);
    return rc;
}

json_t *sq_alerts_list(db *d, const char *state, long long id, struct err *err)
{
    json_t *rows = dq_json(d,
                           SQ_ALERT_ROWS "WHERE (?1 IS NULL OR al.state = ?1) AND "
                                         "(?2 = 0 OR al.id = ?2) ORDER BY al.id "
                                         "DESC LIMIT 1000",
                           err, "ti", state, id);
    if (rows != NULL && alerts_fill(d, rows, err) != 0) {
        json_decref(rows);
        return NULL;
    }
    return rows;
}

/* The filters after the commit's (?2) of sq_alerts_query. */
#define SQ_ALERT_FILTERS                                                                 \
    "AND (?1 IS NULL OR al.state = ?1) AND (?3 IS NULL OR a.name = ?3) AND (?4 = 0 OR "  \
    "al.id < ?4) AND (?5 = 0 OR al.id >= ?5) AND (?6 = 0 OR al.id <= ?6) AND (?8 = 0 "   \
    "OR r.config_id = ?8) AND (?9 IS NULL OR w.y = ?9) ORDER BY al.id DESC LIMIT ?7"

json_t *sq_alerts_query(db *d, const struct db_alert_filter *f, struct err *err)
{
    /* A commit's alerts are found from its runs (runs_by_commit, then the
     * alerts' (run_id, watch_id) index): written as "?2 IS NULL OR ..." the
     * filter is opaque to SQLite's planner, which then walks every alert. */
    json_t *rows = dq_json(d,
                           f->commit != NULL
                               ? SQ_ALERT_ROWS "WHERE r.vcs_commit = ?2 " SQ_ALERT_FILTERS
                               : SQ_ALERT_ROWS "WHERE ?2 IS NULL " SQ_ALERT_FILTERS,
                           err, "tttiiiiit", f->state, f->commit, f->application,
                           f->before, f->from, f->to, f->limit, f->config_id, f->y);
    if (rows != NULL && alerts_fill(d, rows, err) != 0) {
        json_decref(rows);
        return NULL;
    }
    return rows;
}

/* ---- the migration ------------------------------------------------------------ */

int sq_judged_migrate(db *d, struct err *err)
{
    sqlite3_stmt *st;
    struct db_judgement *j = NULL;
    size_t n = 0, cap = 0;
    int rc;

    if (sqlite3_prepare_v2(
            db_handle(d),
            "SELECT run_id, watch_id, x, value, expected, lo, hi, score, "
            "ready, out, direction FROM judgements ORDER BY run_id, watch_id",
            -1, &st, NULL) != SQLITE_OK)
        return db_fail(d, err);
    for (;;) {
        rc = sqlite3_step(st);
        if (n > 0 && (rc != SQLITE_ROW || sqlite3_column_int64(st, 0) != j[0].run_id)) {
            if (sq_judged_put(d, j, n, err) != 0)
                break;
            n = 0;
        }
        if (rc != SQLITE_ROW)
            break;
        if (n == cap) {
            struct db_judgement *more = xrealloc(j, (cap ? 2 * cap : 256) * sizeof *j);
            if (more == NULL) {
                err_nomem(err);
                break;
            }
            j = more;
            cap = cap ? 2 * cap : 256;
        }
        j[n] = (struct db_judgement){
            .run_id = sqlite3_column_int64(st, 0),
            .watch_id = sqlite3_column_int64(st, 1),
            .has_x = sqlite3_column_type(st, 2) != SQLITE_NULL,
            .x = sqlite3_column_double(st, 2),
            .value = sqlite3_column_double(st, 3),
            .expected = sqlite3_column_double(st, 4),
            .lo = sqlite3_column_double(st, 5),
            .hi = sqlite3_column_double(st, 6),
            .score = sqlite3_column_double(st, 7),
            .ready = sqlite3_column_int(st, 8),
            .out = sqlite3_column_int(st, 9),
            .direction = sqlite3_column_int(st, 10),
        };
        n++;
    }
    sqlite3_finalize(st);
    xfree(j);
    if (err->status != 0)
        return -1;
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    return db_exec(d, "DROP TABLE judgements", err);
}

/* ---- every judgement (copy) ---------------------------------------------------- */

struct each_ctx {
    struct live live;
    int (*fn)(void *ctx, const struct db_judgement *j, struct err *err);
    void *ctx;
};

static int each_run(void *ctx, sqlite3_stmt *st, const struct db_judged *u,
                    struct err *err)
{
    struct each_ctx *c = ctx;
    (void)st;
    for (size_t i = 0; i < u->n; i++)
        if (live_find(&c->live, u->j[i].watch_id) >= 0 &&
            c->fn(c->ctx, &u->j[i], err) != 0)
            return -1;
    return 0;
}

int sq_judged_each(db *d,
                   int (*fn)(void *ctx, const struct db_judgement *j, struct err *err),
                   void *ctx, struct err *err)
{
    struct each_ctx c = {{0}, fn, ctx};
    sqlite3_stmt *st;
    int rc = -1;
    if (live_load(d, 0, &c.live, err) == 0 && (st = db_stmt(d, SQL_AFTER, err)) != NULL) {
        sqlite3_bind_int64(st, 1, 0);
        rc = sq_judged_rows(d, st, each_run, &c, err);
    }
    live_free(&c.live);
    return rc;
}
