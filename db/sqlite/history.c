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
        return err_set(err, ERR_NOT_FOUND, "not_found", "application",
                       "no application named %s", f->application);
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
    int kind = db_y_kind(y, &name);
    long long n = 0;
    sqlite3_stmt *st;

    if (kind < 0)
        return db_bad_y(y, err);
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
    c->p = arena_grow(c->a, c->p, c->n, &c->cap, 64, sizeof *c->p);
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
        "?5", "c.inputs") ") SELECT config_id, 'runtime', runtime FROM sel WHERE "       \
                          "runtime IS NOT NULL "                                         \
                          "UNION ALL SELECT s.config_id, 'kernel:' || k.name, "          \
                          "sum(k.time) FROM sel s JOIN "                                 \
                          "kernels k ON k.run_id = s.id AND k.time IS NOT NULL "         \
                          "GROUP BY s.id, k.name "                                       \
                          "UNION ALL SELECT s.config_id, 'metric:' || m.name, m.value "  \
                          "FROM sel s JOIN "                                             \
                          "run_metrics m ON m.run_id = s.id"

static const char *const SQL_SIDE[4] = {
    [DB_SIDE_RUN] = SIDE_SQL("r.id = ?7"),
    [DB_SIDE_COMMIT] = SIDE_SQL("r.vcs_commit = ?8"),
    [DB_SIDE_BRANCH] =
        SIDE_SQL("r.vcs_branch = ?8 AND (?10 IS NULL OR r.vcs_commit IS NULL "
                 "OR r.vcs_commit NOT IN (SELECT value FROM json_each(?10)))"),
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
        return err_set(err, ERR_NOT_FOUND, "not_found", "application",
                       "no application named %s", f->application);
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
    if (s->kind == DB_SIDE_BRANCH && s->except_commits)
        sqlite3_bind_text(st, 10, s->except_commits, -1, SQLITE_STATIC);
    while ((f->max_values == 0 || *n < f->max_values) &&
           (rc = sqlite3_step(st)) == SQLITE_ROW) {
        v = arena_grow(a, v, *n, &cap, 64, sizeof *v);
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

/* ---- alerts --------------------------------------------------------------- */

/* ---- executables' build settings ------------------------------------------- */

/* ---- deletes -------------------------------------------------------------- */
