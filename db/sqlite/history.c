/* history: series, comparison sides, watches, judgements, alerts and
 * deletes in SQLite; see history.h.
 *
 * A series reads one configuration's range of the runs_series index
 * (config_id, at_ms, id, runtime, commit: covering, migration 8), so its cost
 * is the configuration's runs, not the application's, and it never visits
 * the table. Windows are in window.c. Every step loop checks its final result.
 */
#include "db/history.h"
#include "db/catalog.h"
#include "db/sqlite/entries.h"
#include "db/sqlite/sql.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

static const char *col_text(arena *a, sqlite3_stmt *st, int i)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    return t ? arena_strndup(a, (const char *)t, (size_t)sqlite3_column_bytes(st, i))
             : NULL;
}

/* Grows an arena array of n elements of size sz to at least n + 1. */
static void *grow(arena *a, void *p, size_t n, size_t *cap, size_t sz)
{
    void *q;
    if (n < *cap)
        return p;
    *cap = *cap ? *cap * 2 : 64;
    q = arena_alloc(a, *cap * sz);
    if (q != NULL && n)
        memcpy(q, p, n * sz);
    return q;
}

int sq_y_kind(const char *y, const char **name)
{
    *name = NULL;
    if (strcmp(y, "runtime") == 0)
        return 0;
    if (strncmp(y, "metric:", 7) == 0 && y[7]) {
        *name = y + 7;
        return 1;
    }
    if (strncmp(y, "kernel:", 7) == 0 && y[7]) {
        *name = y + 7;
        return 2;
    }
    return -1;
}

int sq_bad_y(const char *y, struct err *err)
{
    return err_set(err, 422, "invalid", "y",
                   "y must be runtime, metric:NAME or kernel:NAME, not %s", y);
}

/* ---- configurations and series -------------------------------------------- */

static const char SQL_CONFIGS[] =
    "SELECT c.id, e.name, s.name, c.nprocs, c.inputs FROM run_configs c "
    "JOIN executables e ON e.id = c.exe_id JOIN systems s ON s.id = c.system_id "
    "WHERE c.app_id = ?1 AND (?2 IS NULL OR e.name = ?2) AND (?3 IS NULL OR s.name = ?3) "
    "AND (?4 = 0 OR c.nprocs = ?4) AND " SQ_INPUTS_MATCH(
        "?5", "c.inputs") " ORDER BY e.name, s.name, c.inputs, c.nprocs LIMIT ?6";

int sq_history_configs(db *d, const struct db_history_filter *f, int max, arena *a,
                       struct db_history_config **out, struct err *err)
{
    long long app = db_app_id(d, f->application, 0, err);
    sqlite3_stmt *st;
    struct db_history_config *c;
    int n = 0, rc = SQLITE_DONE;

    *out = NULL;
    if (app < 0)
        return -1;
    if (app == 0)
        return err_set(err, 404, "not_found", "application", "no application named %s",
                       f->application);
    if (max < 1)
        max = 1;
    c = arena_alloc(a, (size_t)max * sizeof *c);
    st = c ? db_stmt(d, SQL_CONFIGS, err) : NULL;
    if (c == NULL)
        return err_nomem(err);
    if (st == NULL)
        return -1;
    sqlite3_bind_int64(st, 1, app);
    if (f->executable)
        sqlite3_bind_text(st, 2, f->executable, -1, SQLITE_STATIC);
    if (f->system)
        sqlite3_bind_text(st, 3, f->system, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, f->nprocs);
    if (f->inputs_json)
        sqlite3_bind_text(st, 5, f->inputs_json, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 6, max);
    while (n < max && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        c[n].id = sqlite3_column_int64(st, 0);
        c[n].executable = col_text(a, st, 1);
        c[n].system = col_text(a, st, 2);
        c[n].nprocs = sqlite3_column_int64(st, 3);
        c[n].inputs_json = col_text(a, st, 4);
        if (!c[n].executable || !c[n].system || !c[n].inputs_json) {
            sqlite3_reset(st);
            return err_nomem(err);
        }
        n++;
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return db_fail(d, err);
    *out = c;
    return n;
}

#define AT "r.at_ms"

/* [0], the runtime, is read from its packed chunks and the rest (series.c) */
static const char *const SQL_SERIES[3] = {
    NULL,
    "SELECT r.id, " AT ", r.vcs_commit, m.value FROM runs r JOIN run_metrics m ON "
    "m.run_id = r.id AND m.name = ?2 WHERE r.config_id = ?1 ORDER BY " AT ", r.id",
    "SELECT id, at, vcs_commit, v FROM (SELECT r.id, " AT " AS at, r.vcs_commit, "
    "(SELECT sum(k.time) FROM kernels k WHERE k.run_id = r.id AND k.name = ?2) AS v "
    "FROM runs r WHERE r.config_id = ?1 ORDER BY " AT ", r.id) WHERE v IS NOT NULL",
};

int sq_history_series_each(db *d, long long config_id, const char *y,
                           int (*fn)(void *ctx, const struct db_series_point *p,
                                     struct err *err),
                           void *ctx, struct err *err)
{
    const char *name;
    int kind = sq_y_kind(y, &name);
    long long n = 0;
    sqlite3_stmt *st;

    if (kind < 0)
        return sq_bad_y(y, err);
    if (kind == 0)
        return sq_series_runtime_each(d, config_id, fn, ctx, err);
    st = db_stmt(d, SQL_SERIES[kind], err);
    if (st == NULL)
        return -1;
    sqlite3_bind_int64(st, 1, config_id);
    if (name)
        sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    return sq_series_rows(d, st, fn, ctx, &n, err);
}

struct series_copy {
    arena *a;
    struct db_series_point *p;
    size_t n, cap;
};

static int series_copy(void *ctx, const struct db_series_point *pt, struct err *err)
{
    struct series_copy *c = ctx;
    c->p = grow(c->a, c->p, c->n, &c->cap, sizeof *c->p);
    if (c->p == NULL)
        return err_nomem(err);
    c->p[c->n] = *pt;
    c->p[c->n].commit = pt->commit ? arena_strdup(c->a, pt->commit) : NULL;
    if (pt->commit && !c->p[c->n].commit)
        return err_nomem(err);
    c->n++;
    return 0;
}

int sq_history_series(db *d, long long config_id, const char *y, arena *a,
                      struct db_series_point **out, struct err *err)
{
    struct series_copy c = {a, NULL, 0, 0};
    *out = NULL;
    if (sq_history_series_each(d, config_id, y, series_copy, &c, err) != 0)
        return -1;
    *out = c.p;
    return (int)c.n;
}

/* ---- comparison sides ----------------------------------------------------- */

/* One statement per kind of side, so that each reaches its runs through its
 * own index (primary key, runs_by_commit, runs_by_branch, run_tags_by_value)
 * instead of scanning the application. */
#define SIDE_SQL(cond)                                                                   \
    "WITH sel AS (SELECT r.id, r.config_id, r.runtime FROM runs r JOIN run_configs c "   \
    "ON "                                                                                \
    "c.id = r.config_id WHERE " cond " AND r.app_id = ?1 AND (?2 IS NULL OR r.exe_id = " \
    "(SELECT x.id FROM executables x WHERE x.app_id = ?1 AND x.name = ?2)) AND (?3 IS "  \
    "NULL OR r.system_id = (SELECT y.id FROM systems y WHERE y.name = ?3)) AND (?4 = 0 " \
    "OR r.nprocs = ?4) AND " SQ_INPUTS_MATCH(                                            \
        "?5", "c.inputs") ") SELECT config_id, 'runtime', runtime FROM sel "             \
                          "UNION ALL SELECT s.config_id, 'kernel:' || k.name, "          \
                          "sum(k.time) FROM sel s JOIN "                                 \
                          "kernels k ON k.run_id = s.id GROUP BY s.id, k.name "          \
                          "UNION ALL SELECT s.config_id, 'metric:' || m.name, m.value "  \
                          "FROM sel s JOIN "                                             \
                          "run_metrics m ON m.run_id = s.id"

static const char *const SQL_SIDE[4] = {
    [DB_SIDE_RUN] = SIDE_SQL("r.id = ?7"),
    [DB_SIDE_COMMIT] = SIDE_SQL("r.vcs_commit = ?8"),
    [DB_SIDE_BRANCH] = SIDE_SQL("r.vcs_branch = ?8"),
    [DB_SIDE_TAG] = SIDE_SQL("r.id IN (SELECT t.run_id FROM run_tags t WHERE t.key = ?8 "
                             "AND t.value = ?9)"),
};

int sq_history_side(db *d, const struct db_history_filter *f, const struct db_side *s,
                    arena *a, struct db_side_value **out, size_t *n, struct err *err)
{
    long long app = db_app_id(d, f->application, 0, err);
    sqlite3_stmt *st;
    struct db_side_value *v = NULL;
    size_t cap = 0;
    int rc = SQLITE_DONE;

    *out = NULL;
    *n = 0;
    if (app < 0)
        return -1;
    if (app == 0)
        return err_set(err, 404, "not_found", "application", "no application named %s",
                       f->application);
    st = db_stmt(d, SQL_SIDE[s->kind], err);
    if (st == NULL)
        return -1;
    sqlite3_bind_int64(st, 1, app);
    if (f->executable)
        sqlite3_bind_text(st, 2, f->executable, -1, SQLITE_STATIC);
    if (f->system)
        sqlite3_bind_text(st, 3, f->system, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, f->nprocs);
    if (f->inputs_json)
        sqlite3_bind_text(st, 5, f->inputs_json, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 7, s->run);
    if (s->value)
        sqlite3_bind_text(st, 8, s->value, -1, SQLITE_STATIC);
    if (s->tag_value)
        sqlite3_bind_text(st, 9, s->tag_value, -1, SQLITE_STATIC);
    while ((f->max_values == 0 || *n < f->max_values) &&
           (rc = sqlite3_step(st)) == SQLITE_ROW) {
        v = grow(a, v, *n, &cap, sizeof *v);
        if (v == NULL) {
            sqlite3_reset(st);
            return err_nomem(err);
        }
        v[*n].config_id = sqlite3_column_int64(st, 0);
        v[*n].y = col_text(a, st, 1);
        v[*n].value = sqlite3_column_double(st, 2);
        if (v[*n].y == NULL) {
            sqlite3_reset(st);
            return err_nomem(err);
        }
        (*n)++;
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return db_fail(d, err);
    *out = v;
    return 0;
}

/* ---- watches -------------------------------------------------------------- */

int sq_watch_add(db *d, const struct db_watch *w, const char *application,
                 const char *executable, const char *system, long long *id,
                 struct err *err)
{
    long long app = db_app_id(d, application, 0, err), exe = 0, sys = 0;
    json_t *row;

    if (app < 0)
        return -1;
    if (app == 0)
        return err_set(err, 404, "not_found", "application", "no application named %s",
                       application);
    if (executable) {
        row =
            db_query_json(d, "SELECT id FROM executables WHERE app_id = ?1 AND name = ?2",
                          err, "it", app, executable);
        if (row == NULL)
            return -1;
        exe = json_integer_value(json_object_get(json_array_get(row, 0), "id"));
        json_decref(row);
        if (exe == 0)
            return err_set(err, 404, "not_found", "executable",
                           "no executable named %s in %s", executable, application);
    }
    if (system) {
        sys = db_system_id(d, system, 0, err);
        if (sys < 0)
            return -1;
        if (sys == 0)
            return err_set(err, 404, "not_found", "system", "no system named %s", system);
    }
    /* never the id of a deleted watch, whose judgements the runs' packed
     * rows still hold: watch_ids.last is the highest id ever used (kept by a
     * trigger on every insert, schema.sql migration 11) */
    if (db_run_sql(
            d,
            "INSERT INTO watches (id, model_id, app_id, exe_id, system_id, nprocs, "
            "inputs, y, test, threshold, history, created_at) VALUES ((SELECT last + 1 "
            "FROM watch_ids), nullif(?1, 0), ?2, nullif(?3, 0), nullif(?4, 0), "
            "nullif(?5, 0), ?6, ?7, ?8, ?9, "
            "nullif(?10, 0), strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
            err, "iiiiitttdi", w->model_id, app, exe, sys, w->nprocs, w->inputs_json,
            w->y, w->test, w->threshold, w->window) < 0)
        return -1;
    *id = sqlite3_last_insert_rowid(db_handle(d));
    return 0;
}

static int delete_watches(db *d, const char *where, long long id, struct err *err)
{
    /* where selects watch ids with ?1 = id; the three statements share it.
     * The watches' judgements stay in the runs' packed rows, where every
     * reader skips a watch id that is gone (db/sqlite/judged.c). */
    char sql[3][512];
    snprintf(sql[0], sizeof sql[0], "DELETE FROM alerts WHERE watch_id IN (%s)", where);
    snprintf(sql[1], sizeof sql[1], "DELETE FROM watch_counts WHERE watch_id IN (%s)",
             where);
    snprintf(sql[2], sizeof sql[2], "DELETE FROM watches WHERE id IN (%s)", where);
    for (int i = 0; i < 3; i++) {
        /* Not cached (db_stmt keys by address): deletes are rare. */
        sqlite3_stmt *st;
        int rc;
        if (sqlite3_prepare_v2(db_handle(d), sql[i], -1, &st, NULL) != SQLITE_OK)
            return db_fail(d, err);
        sqlite3_bind_int64(st, 1, id);
        rc = sqlite3_step(st);
        sqlite3_finalize(st);
        if (rc != SQLITE_DONE)
            return db_fail(d, err);
    }
    return 0;
}

int sq_watch_delete(db *d, long long id, struct err *err)
{
    int n;
    if (delete_watches(d, "SELECT ?1", id, err) != 0)
        return -1;
    n = sqlite3_changes(db_handle(d));
    if (n == 0)
        return err_set(err, 404, "not_found", NULL, "no watch %lld", id);
    return 0;
}

long long sq_watches_count(db *d, struct err *err)
{
    return sq_scalar(d, "SELECT count(*) FROM watches", err);
}

static const char SQL_WATCHES_ALL[] =
    "SELECT w.id, coalesce(w.model_id, 0), w.app_id, coalesce(w.exe_id, 0), "
    "coalesce(w.system_id, 0), coalesce(w.nprocs, 0), w.inputs, w.y, w.test, "
    "coalesce(w.threshold, 0), coalesce(w.history, 0), a.name, e.name, s.name "
    "FROM watches w JOIN applications a ON a.id = w.app_id LEFT JOIN executables e ON "
    "e.id = w.exe_id LEFT JOIN systems s ON s.id = w.system_id ORDER BY w.id";

int sq_watches_all(db *d, arena *a, struct db_watch **out, struct err *err)
{
    sqlite3_stmt *st = db_stmt(d, SQL_WATCHES_ALL, err);
    struct db_watch *w = NULL;
    size_t n = 0, cap = 0;
    int rc;

    *out = NULL;
    if (st == NULL)
        return -1;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        w = grow(a, w, n, &cap, sizeof *w);
        if (w == NULL) {
            sqlite3_reset(st);
            return err_nomem(err);
        }
        w[n].id = sqlite3_column_int64(st, 0);
        w[n].model_id = sqlite3_column_int64(st, 1);
        w[n].app_id = sqlite3_column_int64(st, 2);
        w[n].exe_id = sqlite3_column_int64(st, 3);
        w[n].system_id = sqlite3_column_int64(st, 4);
        w[n].nprocs = sqlite3_column_int64(st, 5);
        w[n].inputs_json = col_text(a, st, 6);
        w[n].y = col_text(a, st, 7);
        w[n].test = col_text(a, st, 8);
        w[n].threshold = sqlite3_column_double(st, 9);
        w[n].window = sqlite3_column_int64(st, 10);
        w[n].application = col_text(a, st, 11);
        w[n].executable = col_text(a, st, 12);
        w[n].system = col_text(a, st, 13);
        if (w[n].y == NULL || w[n].application == NULL) {
            sqlite3_reset(st);
            return err_nomem(err);
        }
        n++;
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    *out = w;
    return (int)n;
}

long long sq_watches_version(db *d, struct err *err)
{
    return sq_scalar(d, "SELECT coalesce((SELECT n FROM watch_version), 0)", err);
}

static const char *const SQL_VALUE[3] = {
    "SELECT runtime FROM runs WHERE id = ?1",
    "SELECT value FROM run_metrics WHERE run_id = ?1 AND name = ?2",
    "SELECT sum(time) FROM kernels WHERE run_id = ?1 AND name = ?2 HAVING count(*) > 0",
};

int sq_run_value(db *d, long long run_id, const char *y, double *value, struct err *err)
{
    const char *name;
    int kind = sq_y_kind(y, &name), rc;
    sqlite3_stmt *st;

    if (kind < 0)
        return sq_bad_y(y, err);
    st = db_stmt(d, SQL_VALUE[kind], err);
    if (st == NULL)
        return -1;
    sqlite3_bind_int64(st, 1, run_id);
    if (name)
        sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *value = sqlite3_column_double(st, 0);
    sqlite3_reset(st);
    if (rc == SQLITE_ROW)
        return 1;
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    return 0;
}

/* ---- alerts --------------------------------------------------------------- */

int sq_alert_set_state(db *d, long long id, const char *state, struct err *err)
{
    char now[32];
    int n;
    db_now(now);
    n = db_run_sql(d, "UPDATE alerts SET state = ?2, updated_at = ?3 WHERE id = ?1", err,
                   "itt", id, state, now);
    if (n < 0)
        return -1;
    if (n == 0)
        return err_set(err, 404, "not_found", NULL, "no alert %lld", id);
    return 0;
}

/* ---- executables' build settings ------------------------------------------- */

int sq_executable_put(db *d, const char *application, const char *name,
                      const char *compiler, const char *flags, const char *version,
                      struct err *err)
{
    long long app = db_app_id(d, application, 0, err);
    if (app < 0)
        return -1;
    if (app == 0)
        return err_set(err, 404, "not_found", NULL, "no application named %s",
                       application);
    return db_run_sql(d,
                      "INSERT INTO executables (app_id, name, compiler, flags, version) "
                      "VALUES (?1, ?2, coalesce(?3, ''), coalesce(?4, ''), coalesce(?5, "
                      "'')) ON CONFLICT (app_id, name) DO UPDATE SET compiler = "
                      "coalesce(?3, compiler), flags = coalesce(?4, flags), version = "
                      "coalesce(?5, version)",
                      err,
                      "ittt"
                      "t",
                      app, name, compiler, flags, version) < 0
               ? -1
               : 0;
}

int sq_model_name(db *d, long long id, const char *name, struct err *err)
{
    return db_run_sql(d, "UPDATE models SET name = ?2 WHERE id = ?1", err, "it", id,
                      name) < 0
               ? -1
               : 0;
}

/* ---- deletes -------------------------------------------------------------- */

/* Recomputes a configuration's summary from its runs, and drops it when it
 * has none left. */
static int config_refresh(db *d, long long config_id, struct err *err)
{
    if (db_run_sql(
            d,
            "UPDATE run_configs SET runs = (SELECT count(*) FROM runs WHERE "
            "config_id = ?1), sum_runtime = coalesce((SELECT sum(runtime) FROM runs "
            "WHERE config_id = ?1), 0), min_runtime = coalesce((SELECT min(runtime) "
            "FROM runs WHERE config_id = ?1), 0), max_runtime = coalesce((SELECT "
            "max(runtime) FROM runs WHERE config_id = ?1), 0), last_run_id = "
            "coalesce((SELECT max(id) FROM runs WHERE config_id = ?1), 0) WHERE id "
            "= ?1",
            err, "i", config_id) < 0 ||
        db_run_sql(d, "DELETE FROM run_configs WHERE id = ?1 AND runs = 0", err, "i",
                   config_id) < 0)
        return -1;
    return 0;
}

/* The application's kernel and metric names (migration 5, kept by triggers on
 * insert) follow a deleted run: its kernel records are subtracted and a name
 * no run of the application records any more is dropped; a metric name goes
 * when no other run of the application has it. Runs inside the transaction,
 * before the run (and by cascade its kernels and metrics) is deleted. */
static int app_names_forget_run(db *d, long long id, struct err *err)
{
    if (db_run_sql(d,
                   "UPDATE app_kernels SET records = records - (SELECT count(*) FROM "
                   "kernels k WHERE k.run_id = ?1 AND k.name = app_kernels.name) WHERE "
                   "app_id = (SELECT app_id FROM runs WHERE id = ?1) AND name IN (SELECT "
                   "name FROM kernels WHERE run_id = ?1)",
                   err, "i", id) < 0 ||
        db_run_sql(d, "DELETE FROM app_kernels WHERE records <= 0", err, "") < 0 ||
        db_run_sql(
            d,
            "DELETE FROM app_metrics WHERE app_id = (SELECT app_id FROM runs WHERE "
            "id = ?1) AND name IN (SELECT name FROM run_metrics WHERE run_id = ?1) "
            "AND NOT EXISTS (SELECT 1 FROM runs r JOIN run_metrics m ON m.run_id = "
            "r.id WHERE r.app_id = app_metrics.app_id AND r.id <> ?1 AND m.name = "
            "app_metrics.name)",
            err, "i", id) < 0)
        return -1;
    return 0;
}

int sq_run_delete(db *d, long long id, struct err *err)
{
    json_t *row =
        db_query_one(d, "run", "SELECT config_id FROM runs WHERE id = ?1", err, "i", id);
    long long config_id;
    if (row == NULL)
        return -1;
    config_id = json_integer_value(json_object_get(row, "config_id"));
    json_decref(row);
    if (db_run_sql(d, "DELETE FROM alerts WHERE run_id = ?1", err, "i", id) < 0 ||
        sq_judged_delete_run(d, id, err) != 0 || app_names_forget_run(d, id, err) != 0 ||
        db_run_sql(d, "DELETE FROM runs WHERE id = ?1", err, "i", id) < 0)
        return -1;
    return config_refresh(d, config_id, err);
}

static const char APP_WATCHES[] =
    "SELECT id FROM watches WHERE app_id = ?1 OR model_id IN (SELECT id FROM models "
    "WHERE app_id = ?1)";

static int app_delete_id(db *d, long long app, struct err *err)
{
    /* The application's runs were judged by its watches alone (a watch
     * covers one application), whose counts go with them. */
    if (delete_watches(d, APP_WATCHES, app, err) != 0 ||
        db_run_sql(
            d,
            "DELETE FROM alerts WHERE run_id IN (SELECT id FROM runs WHERE app_id = ?1)",
            err, "i", app) < 0 ||
        db_run_sql(d,
                   "DELETE FROM run_judgements WHERE run_id IN (SELECT id FROM runs "
                   "WHERE app_id = ?1)",
                   err, "i", app) < 0 ||
        db_run_sql(d, "DELETE FROM models WHERE app_id = ?1", err, "i", app) < 0 ||
        db_run_sql(d, "DELETE FROM templates WHERE app_id = ?1", err, "i", app) < 0 ||
        db_run_sql(d, "DELETE FROM couplings WHERE app_id = ?1", err, "i", app) < 0 ||
        db_run_sql(d, "DELETE FROM runs WHERE app_id = ?1", err, "i", app) < 0 ||
        db_run_sql(d, "DELETE FROM run_configs WHERE app_id = ?1", err, "i", app) < 0 ||
        db_run_sql(d, "DELETE FROM app_kernels WHERE app_id = ?1", err, "i", app) < 0 ||
        db_run_sql(d, "DELETE FROM app_metrics WHERE app_id = ?1", err, "i", app) < 0 ||
        db_run_sql(d, "DELETE FROM executables WHERE app_id = ?1", err, "i", app) < 0 ||
        db_run_sql(d, "DELETE FROM applications WHERE id = ?1", err, "i", app) < 0)
        return -1;
    return 0;
}

int sq_app_delete(db *d, const char *name, struct err *err)
{
    long long app = db_app_id(d, name, 0, err);
    if (app < 0)
        return -1;
    if (app == 0)
        return err_set(err, 404, "not_found", NULL, "no application named %s", name);
    return app_delete_id(d, app, err);
}

int sq_model_delete(db *d, long long id, struct err *err)
{
    int n;
    if (delete_watches(d, "SELECT id FROM watches WHERE model_id = ?1", id, err) != 0)
        return -1;
    n = db_run_sql(d, "DELETE FROM models WHERE id = ?1", err, "i", id);
    if (n < 0)
        return -1;
    if (n == 0)
        return err_set(err, 404, "not_found", NULL, "no model %lld", id);
    return 0;
}

int sq_template_delete(db *d, const char *name, const char *application, struct err *err)
{
    json_t *rows = db_query_json(
        d,
        "SELECT t.id FROM templates t JOIN applications a ON a.id = t.app_id WHERE "
        "t.name = ?1 AND (?2 IS NULL OR a.name = ?2) LIMIT 2",
        err, "tt", name, application);
    size_t n = rows ? json_array_size(rows) : 0;
    long long id;
    if (rows == NULL)
        return -1;
    id = n ? json_integer_value(json_object_get(json_array_get(rows, 0), "id")) : 0;
    json_decref(rows);
    if (n == 0)
        return err_set(err, 404, "not_found", NULL, "no template named %s", name);
    if (n > 1)
        return err_set(
            err, 409, "conflict", "application",
            "template %s exists in several applications: add ?application=", name);
    return db_run_sql(d, "DELETE FROM templates WHERE id = ?1", err, "i", id) < 0 ? -1
                                                                                  : 0;
}

json_t *sq_template_get_in(db *d, const char *name, const char *application,
                           struct err *err)
{
    return db_query_one(d, "template",
                        "SELECT t.name, a.name AS application, t.kernel, t.expression, "
                        "t.description, t.created_at FROM templates t JOIN applications "
                        "a ON a.id = t.app_id WHERE t.name = ?1 AND a.name = ?2",
                        err, "tt", name, application);
}

int sq_demo_remove(db *d, struct err *err)
{
    json_t *apps =
        db_query_json(d, "SELECT id FROM applications WHERE demo = 1", err, "");
    json_t *row;
    size_t i;

    if (apps == NULL)
        return -1;
    json_array_foreach(apps, i, row)
    {
        if (app_delete_id(d, json_integer_value(json_object_get(row, "id")), err) != 0) {
            json_decref(apps);
            return -1;
        }
    }
    json_decref(apps);
    /* A demo system goes only when nothing of the user's still refers to it. */
    if (db_run_sql(
            d,
            "DELETE FROM system_benchmarks WHERE system_id IN (SELECT s.id FROM "
            "systems s WHERE s.demo = 1 AND NOT EXISTS (SELECT 1 FROM runs r WHERE "
            "r.system_id = s.id) AND NOT EXISTS (SELECT 1 FROM couplings c WHERE "
            "c.system_id = s.id) AND NOT EXISTS (SELECT 1 FROM watches w WHERE "
            "w.system_id = s.id) AND NOT EXISTS (SELECT 1 FROM models m WHERE "
            "m.system_id = s.id))",
            err, "") < 0 ||
        db_run_sql(
            d,
            "DELETE FROM system_parameters WHERE system_id IN (SELECT s.id FROM "
            "systems s WHERE s.demo = 1 AND NOT EXISTS (SELECT 1 FROM runs r WHERE "
            "r.system_id = s.id) AND NOT EXISTS (SELECT 1 FROM couplings c WHERE "
            "c.system_id = s.id) AND NOT EXISTS (SELECT 1 FROM watches w WHERE "
            "w.system_id = s.id) AND NOT EXISTS (SELECT 1 FROM models m WHERE "
            "m.system_id = s.id))",
            err, "") < 0 ||
        db_run_sql(
            d,
            "DELETE FROM systems WHERE demo = 1 AND NOT EXISTS (SELECT 1 FROM runs "
            "r WHERE r.system_id = systems.id) AND NOT EXISTS (SELECT 1 FROM "
            "couplings c WHERE c.system_id = systems.id) AND NOT EXISTS (SELECT 1 "
            "FROM watches w WHERE w.system_id = systems.id) AND NOT EXISTS (SELECT "
            "1 FROM models m WHERE m.system_id = systems.id)",
            err, "") < 0)
        return -1;
    return (int)i;
}
