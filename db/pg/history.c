/* history: series, comparison sides, watches, judgements, alerts and
 * deletes in PostgreSQL; the same contract as db/sqlite/history.c (see
 * db/history.h): same answers, same order, same errors.
 *
 * Differences from the SQLite text, and why:
 * - JSON inputs are compared through jsonb_each (SQLite: json_each), numbers
 *   as doubles (INPUTS_MATCH), so {"N":1000} matches 1000.0 and 1e-05 matches
 *   1.0000000000000001e-05 as in SQLite.
 * - Ids come back with RETURNING instead of last_insert_rowid.
 * - Parameters are cast where PostgreSQL could not infer their type from
 *   the statement alone ($2::text IS NULL ...).
 * - A run's judgements go in as one INSERT ... SELECT FROM unnest(arrays),
 *   one statement for any number of watches.
 * - Text is ordered byte-wise (COLLATE "C"), as SQLite's BINARY collation,
 *   whatever locale the database was created with.
 */
#include "db/history.h"
#include "db/catalog.h"
#include "db/pg/entries.h"
#include "db/pg/pg.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"

/* ---- reading results -------------------------------------------------------- */

/* The text of a cell in a (NULL for SQL NULL); *ok = 0 when out of memory. */
static const char *get_text(arena *a, const PGresult *r, int row, int col, int *ok)
{
    const char *s;
    if (PQgetisnull(r, row, col))
        return NULL;
    s = arena_strndup(a, PQgetvalue(r, row, col), (size_t)PQgetlength(r, row, col));
    if (s == NULL)
        *ok = 0;
    return s;
}

/* "runtime" -> 0; "metric:NAME" -> 1 and *name; "kernel:NAME" -> 2; else -1. */
/* ---- configurations and series -------------------------------------------- */

/* Every input of the filter (a JSON object, NULL: any) equals the
 * configuration's, and one the filter holds as null (a fit's "fixed" of the
 * runs without it) is absent from them. Numbers compare as doubles, as
 * SQLite's json_each hands them: jsonb compares them as exact decimals, so
 * the filter's 17 digits (1.0000000000000001e-05) would miss the key's 15
 * (1e-05). */
#define INPUTS_MATCH(filter, inputs)                                                     \
    "(" filter " IS NULL OR NOT EXISTS (SELECT 1 FROM jsonb_each((" filter               \
    ")::jsonb) f WHERE CASE WHEN jsonb_typeof(f.value) = 'null' THEN EXISTS (SELECT 1 "  \
    "FROM jsonb_each((" inputs ")::jsonb) ci WHERE ci.key = f.key) ELSE NOT EXISTS "     \
    "(SELECT 1 FROM jsonb_each((" inputs ")::jsonb) ci WHERE ci.key = f.key AND CASE "   \
    "WHEN jsonb_typeof(ci.value) = 'number' AND jsonb_typeof(f.value) = 'number' THEN "  \
    "(ci.value #>> '{}')::float8 = (f.value #>> '{}')::float8 ELSE ci.value = f.value "  \
    "END) END))"

static const char SQL_CONFIGS[] =
    "SELECT c.id, e.name, s.name, c.nprocs, c.inputs FROM run_configs c "
    "JOIN executables e ON e.id = c.exe_id JOIN systems s ON s.id = c.system_id "
    "WHERE c.app_id = $1::bigint AND ($2::text IS NULL OR e.name = $2::text) AND "
    "($3::text IS NULL OR s.name = $3::text) AND ($4::bigint = 0 OR c.nprocs = "
    "$4::bigint) AND " INPUTS_MATCH("$5::text", "c.inputs") " ORDER BY e.name COLLATE "
                                                            "\"C\", s.name COLLATE "
                                                            "\"C\", c.inputs COLLATE "
                                                            "\"C\", c.nprocs LIMIT "
                                                            "$6::bigint";

int pg_history_configs(db *d, const struct db_history_filter *f, int max, arena *a,
                       struct db_history_config **out, struct err *err)
{
    long long app = db_app_id(d, f->application, 0, err);
    struct db_history_config *c;
    PGresult *r;
    int n, i, ok = 1;

    *out = NULL;
    if (app < 0)
        return -1;
    if (app == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", "application",
                       "no application named %s", f->application);
    if (max < 1)
        max = 1;
    c = arena_alloc(a, (size_t)max * sizeof *c);
    if (c == NULL)
        return err_nomem(err);
    r = pg_params(d, SQL_CONFIGS, err,
                  "itti"
                  "ti",
                  app, f->executable, f->system, f->nprocs, f->inputs_json,
                  (long long)max);
    if (r == NULL)
        return -1;
    n = PQntuples(r);
    if (n > max)
        n = max;
    for (i = 0; i < n; i++) {
        c[i].id = pg_ll(r, i, 0);
        c[i].executable = get_text(a, r, i, 1, &ok);
        c[i].system = get_text(a, r, i, 2, &ok);
        c[i].nprocs = pg_ll(r, i, 3);
        c[i].inputs_json = get_text(a, r, i, 4, &ok);
    }
    PQclear(r);
    if (!ok)
        return err_nomem(err);
    *out = c;
    return n;
}

#define AT "r.at_ms"

static const char *const SQL_SERIES[3] = {
    "SELECT r.id, " AT ", r.vcs_commit, r.runtime FROM runs r WHERE r.config_id = "
    "$1::bigint AND r.runtime IS NOT NULL ORDER BY " AT ", r.id",
    "SELECT r.id, " AT ", r.vcs_commit, m.value FROM runs r JOIN run_metrics m ON "
    "m.run_id = r.id AND m.name = $2::text WHERE r.config_id = $1::bigint ORDER "
    "BY " AT ", r.id",
    "SELECT id, at, vcs_commit, v FROM (SELECT r.id, " AT " AS at, r.vcs_commit, "
    "(SELECT sum(k.time) FROM kernels k WHERE k.run_id = r.id AND k.name = $2::text) AS "
    "v FROM runs r WHERE r.config_id = $1::bigint) s WHERE v IS NOT NULL ORDER BY at, id",
};

int pg_history_series(db *d, long long config_id, const char *y, arena *a,
                      struct db_series_point **out, struct err *err)
{
    const char *name;
    int kind = db_y_kind(y, &name), n, i, ok = 1;
    struct db_series_point *p;
    PGresult *r;

    *out = NULL;
    if (kind < 0)
        return db_bad_y(y, err);
    r = kind == 0 ? pg_params(d, SQL_SERIES[0], err, "i", config_id)
                  : pg_params(d, SQL_SERIES[kind], err, "it", config_id, name);
    if (r == NULL)
        return -1;
    n = PQntuples(r);
    p = arena_alloc(a, (size_t)(n > 0 ? n : 1) * sizeof *p);
    if (p == NULL) {
        PQclear(r);
        return err_nomem(err);
    }
    for (i = 0; i < n; i++) {
        p[i].run = pg_ll(r, i, 0);
        p[i].at = pg_ll(r, i, 1);
        p[i].commit = get_text(a, r, i, 2, &ok);
        p[i].value = pg_dbl(r, i, 3);
    }
    PQclear(r);
    if (!ok)
        return err_nomem(err);
    *out = n > 0 ? p : NULL;
    return n;
}

/* ---- comparison sides ----------------------------------------------------- */

/* One statement per kind of side, so that each reaches its runs through its
 * own index (primary key, runs_by_commit, runs_by_branch, run_tags_by_value). */
#define SIDE_SQL(cond)                                                                   \
    "WITH sel AS (SELECT r.id, r.config_id, r.runtime FROM runs r JOIN run_configs c "   \
    "ON c.id = r.config_id WHERE " cond " AND r.app_id = $1::bigint AND ($2::text IS "   \
    "NULL OR r.exe_id = (SELECT x.id FROM executables x WHERE x.app_id = $1::bigint "    \
    "AND x.name = $2::text)) AND ($3::text IS NULL OR r.system_id = (SELECT y.id FROM "  \
    "systems y WHERE y.name = $3::text)) AND ($4::bigint = 0 OR r.nprocs = $4::bigint) " \
    "AND " INPUTS_MATCH("$5::text", "c.inputs") ") " SIDE_PARTS

/* SQLite yields each part in run id order (and name order within a run):
 * the same order here, so that sums over a side add in the same order. */
#define SIDE_PARTS                                                                       \
    "SELECT config_id, y, v FROM (SELECT 0 AS part, id, config_id, 'runtime' AS y, "     \
    "runtime AS v FROM sel WHERE runtime IS NOT NULL UNION ALL SELECT 1, s.id, "         \
    "s.config_id, 'kernel:' || k.name, "                                                 \
    "sum(k.time) FROM sel s JOIN kernels k ON k.run_id = s.id AND k.time IS NOT NULL "   \
    "GROUP BY s.id, "                                                                    \
    "s.config_id, k.name UNION ALL SELECT 2, s.id, s.config_id, 'metric:' || m.name, "   \
    "m.value FROM sel s JOIN run_metrics m ON m.run_id = s.id) u ORDER BY part, id, y "  \
    "COLLATE \"C\" LIMIT $9::bigint"

static const char *const SQL_SIDE[4] = {
    [DB_SIDE_RUN] = SIDE_SQL("r.id = $6::bigint AND $7::text IS NULL AND $8::text IS "
                             "NULL AND $10::text IS NULL"),
    [DB_SIDE_COMMIT] = SIDE_SQL("r.vcs_commit = $7::text AND $6::bigint IS NOT NULL AND "
                                "$8::text IS NULL AND $10::text IS NULL"),
    [DB_SIDE_BRANCH] = SIDE_SQL(
        "r.vcs_branch = $7::text AND $6::bigint IS NOT NULL AND $8::text IS NULL AND "
        "($10::text IS NULL OR r.vcs_commit IS NULL OR r.vcs_commit <> ALL (SELECT "
        "jsonb_array_elements_text($10::jsonb)))"),
    [DB_SIDE_TAG] =
        SIDE_SQL("$6::bigint IS NOT NULL AND $10::text IS NULL AND r.id IN "
                 "(SELECT t.run_id FROM run_tags t WHERE t.key = $7::text AND "
                 "t.value = $8::text)"),
};

int pg_history_side(db *d, const struct db_history_filter *f, const struct db_side *s,
                    arena *a, struct db_side_value **out, size_t *n, struct err *err)
{
    long long app = db_app_id(d, f->application, 0, err);
    struct db_side_value *v;
    PGresult *r;
    char limit[32];
    int rows, i, ok = 1;

    *out = NULL;
    *n = 0;
    if (app < 0)
        return -1;
    if (app == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", "application",
                       "no application named %s", f->application);
    /* Every statement names all ten parameters (PostgreSQL wants each one
     * typed); the ones a kind does not use are bound but constant. */
    if (f->max_values > 0)
        snprintf(limit, sizeof limit, "%zu", f->max_values);
    r = pg_params(d, SQL_SIDE[s->kind], err,
                  "ittit"
                  "itttt",
                  app, f->executable, f->system, f->nprocs, f->inputs_json, s->run,
                  s->kind == DB_SIDE_RUN ? NULL : s->value,
                  s->kind == DB_SIDE_TAG ? s->tag_value : NULL,
                  f->max_values > 0 ? limit : NULL, /* LIMIT NULL: all */
                  s->kind == DB_SIDE_BRANCH ? s->except_commits : NULL);
    if (r == NULL)
        return -1;
    rows = PQntuples(r);
    v = arena_alloc(a, (size_t)(rows > 0 ? rows : 1) * sizeof *v);
    if (v == NULL) {
        PQclear(r);
        return err_nomem(err);
    }
    for (i = 0; i < rows; i++) {
        v[i].config_id = pg_ll(r, i, 0);
        v[i].y = get_text(a, r, i, 1, &ok);
        v[i].value = pg_dbl(r, i, 2);
    }
    PQclear(r);
    if (!ok)
        return err_nomem(err);
    *out = rows > 0 ? v : NULL;
    *n = (size_t)rows;
    return 0;
}

/* ---- watches -------------------------------------------------------------- */

json_t *pg_watches_list(db *d, struct err *err)
{
    return pg_query_json(
        d,
        "SELECT w.id, w.model_id AS model, a.name AS application, e.name AS executable, "
        "s.name AS system, w.nprocs, w.inputs AS inputs_json, w.y, w.test, w.threshold, "
        "w.history AS \"window\", w.confirm, w.created_at, coalesce(n.judged, 0) AS "
        "judged, "
        "coalesce(n.out, 0) AS out FROM watches w JOIN applications a ON a.id = w.app_id "
        "LEFT JOIN executables e ON e.id = w.exe_id LEFT JOIN systems s ON s.id = "
        "w.system_id LEFT JOIN watch_counts n ON n.watch_id = w.id ORDER BY w.id",
        err, "");
}

/* The runs of x's configuration before x in (time, id) order, latest first. */
#define BEFORE                                                                           \
    "FROM runs r, runs x WHERE x.id = $1::bigint AND r.config_id = x.config_id AND "     \
    "(" AT ", r.id) < (x.at_ms, x.id)"

static const char *const SQL_WINDOW[3] = {
    "SELECT v FROM (SELECT r.runtime AS v, " AT " AS at, r.id AS id " BEFORE
    " ORDER BY " AT
    " DESC, r.id DESC LIMIT $3::bigint) s WHERE v IS NOT NULL ORDER BY at DESC, id DESC "
    "LIMIT $2::bigint",
    "SELECT v FROM (SELECT (SELECT m.value FROM run_metrics m WHERE m.run_id = r.id AND "
    "m.name = $3::text) AS v, " AT " AS at, r.id AS id " BEFORE " ORDER BY " AT
    " DESC, r.id DESC LIMIT $4::bigint) s WHERE v IS NOT NULL ORDER BY at DESC, id DESC "
    "LIMIT $2::bigint",
    "SELECT v FROM (SELECT (SELECT sum(k.time) FROM kernels k WHERE k.run_id = r.id AND "
    "k.name = $3::text) AS v, " AT " AS at, r.id AS id " BEFORE " ORDER BY " AT
    " DESC, r.id DESC LIMIT $4::bigint) s WHERE v IS NOT NULL ORDER BY at DESC, id DESC "
    "LIMIT $2::bigint",
};

int pg_history_window(db *d, long long run_id, const char *y, double value,
                      long long window, double *hist, struct err *err)
{
    const char *name;
    int kind = db_y_kind(y, &name), n, i;
    PGresult *r;

    (void)value; /* other servers store runs too: the window is read each time */
    if (kind < 0)
        return db_bad_y(y, err);
    r = kind == 0 ? pg_params(d, SQL_WINDOW[0], err, "iii", run_id, window,
                              window * DB_WINDOW_LOOKBACK)
                  : pg_params(d, SQL_WINDOW[kind], err, "iiti", run_id, window, name,
                              window * DB_WINDOW_LOOKBACK);
    if (r == NULL)
        return -1;
    n = PQntuples(r);
    if (n > window)
        n = (int)window;
    for (i = 0; i < n; i++)
        hist[i] = pg_dbl(r, i, 0);
    PQclear(r);
    return n;
}

/* A run's judgements in one statement: each column is a PostgreSQL array
 * literal ({1,2,3}) unnested into rows. Doubles print with 17 significant
 * digits so that the stored value is the judged one, bit for bit. */
static const char SQL_JUDGE_INS[] =
    "INSERT INTO judgements (watch_id, run_id, value, expected, lo, hi, score, ready, "
    "out, direction, x) SELECT * FROM unnest($1::bigint[], $2::bigint[], "
    "$3::float8[], $4::float8[], $5::float8[], $6::float8[], $7::float8[], "
    "$8::bigint[], $9::bigint[], $10::bigint[], $11::float8[])";
/* Each judged watch's counts (the watch list's), from the same arrays; the
 * rows come in watch order, so two servers judging at once lock them in one
 * order. */
static const char SQL_COUNT_INS[] =
    "INSERT INTO watch_counts (watch_id, judged, out) SELECT w, 1, o FROM "
    "unnest($1::bigint[], $2::bigint[]) AS t(w, o) ORDER BY w ON CONFLICT (watch_id) "
    "DO UPDATE SET judged = watch_counts.judged + 1, out = watch_counts.out + "
    "excluded.out";

enum {
    J_WATCH,
    J_RUN,
    J_VALUE,
    J_EXPECTED,
    J_LO,
    J_HI,
    J_SCORE,
    J_READY,
    J_OUT,
    J_DIR,
    J_X,
    J_COLS
};

static void judge_arrays(struct buf *col, const struct db_judgement *j, size_t n)
{
    for (int c = 0; c < J_COLS; c++)
        buf_putc(&col[c], '{');
    for (size_t i = 0; i < n; i++) {
        const char *sep = i ? "," : "";
        buf_printf(&col[J_WATCH], "%s%lld", sep, j[i].watch_id);
        buf_printf(&col[J_RUN], "%s%lld", sep, j[i].run_id);
        buf_printf(&col[J_VALUE], "%s%.17g", sep, j[i].value);
        buf_printf(&col[J_EXPECTED], "%s%.17g", sep, j[i].expected);
        buf_printf(&col[J_LO], "%s%.17g", sep, j[i].lo);
        buf_printf(&col[J_HI], "%s%.17g", sep, j[i].hi);
        buf_printf(&col[J_SCORE], "%s%.17g", sep, j[i].score);
        buf_printf(&col[J_READY], "%s%d", sep, j[i].ready);
        buf_printf(&col[J_OUT], "%s%d", sep, j[i].out);
        buf_printf(&col[J_DIR], "%s%d", sep, j[i].direction);
        if (j[i].has_x)
            buf_printf(&col[J_X], "%s%.17g", sep, j[i].x);
        else
            buf_printf(&col[J_X], "%sNULL", sep);
    }
    for (int c = 0; c < J_COLS; c++)
        buf_putc(&col[c], '}');
}

int pg_judgements_add(db *d, const struct db_judgement *j, size_t n, long long *alert_ids,
                      struct err *err)
{
    struct buf col[J_COLS];
    int rc = 0;

    if (n == 0)
        return 0;
    for (int c = 0; c < J_COLS; c++)
        buf_init(&col[c], 64 + n * 40);
    judge_arrays(col, j, n);
    for (int c = 0; c < J_COLS; c++)
        if (buf_failed(&col[c]))
            rc = err_nomem(err);
    if (rc == 0 &&
        pg_run_sql(d, SQL_JUDGE_INS, err,
                   "ttttt"
                   "ttttt"
                   "t",
                   buf_str(&col[0]), buf_str(&col[1]), buf_str(&col[2]), buf_str(&col[3]),
                   buf_str(&col[4]), buf_str(&col[5]), buf_str(&col[6]), buf_str(&col[7]),
                   buf_str(&col[8]), buf_str(&col[9]), buf_str(&col[10])) < 0)
        rc = -1;
    if (rc == 0 && pg_run_sql(d, SQL_COUNT_INS, err, "tt", buf_str(&col[J_WATCH]),
                              buf_str(&col[J_OUT])) < 0)
        rc = -1;
    for (int c = 0; c < J_COLS; c++)
        buf_free(&col[c]);
    if (rc != 0)
        return -1;
    /* the alerts: db_judgements_add, engine-neutral (db/history.c) */
    (void)alert_ids;
    return 0;
}

int pg_judgement_add(db *d, const struct db_judgement *j, long long *alert_id,
                     struct err *err)
{
    return pg_judgements_add(d, j, 1, alert_id, err);
}

json_t *pg_history_judgements(db *d, long long config_id, json_t **watches,
                              struct err *err)
{
    json_t *rows, *by_run, *row;
    size_t i;

    *watches = pg_query_json(
        d,
        "SELECT w.id FROM watches w, run_configs c WHERE c.id = $1::bigint AND w.app_id "
        "= c.app_id AND (w.exe_id IS NULL OR w.exe_id = c.exe_id) AND (w.system_id IS "
        "NULL OR w.system_id = c.system_id) AND (w.nprocs IS NULL OR w.nprocs = "
        "c.nprocs) AND " INPUTS_MATCH("w.inputs", "c.inputs") " ORDER BY w.id",
        err, "i", config_id);
    if (*watches == NULL)
        return NULL;
    json_array_foreach(*watches, i, row) json_array_set_new(
        *watches, i, json_integer(json_integer_value(json_object_get(row, "id"))));
    rows = pg_query_json(
        d,
        "SELECT j.run_id, j.watch_id AS watch, w.model_id AS model, j.expected, j.lo, "
        "j.hi, j.ready, j.out, j.direction, a.id AS alert FROM runs r JOIN judgements j "
        "ON j.run_id = r.id JOIN watches w ON w.id = j.watch_id LEFT JOIN alerts a ON "
        "a.run_id = j.run_id AND a.watch_id = j.watch_id WHERE r.config_id = $1::bigint "
        "ORDER BY j.run_id, j.watch_id",
        err, "i", config_id);
    if (rows == NULL) {
        json_decref(*watches);
        *watches = NULL;
        return NULL;
    }
    by_run = json_object();
    json_array_foreach(rows, i, row)
    {
        char key[32];
        json_t *list;
        snprintf(key, sizeof key, "%lld",
                 (long long)json_integer_value(json_object_get(row, "run_id")));
        list = json_object_get(by_run, key);
        if (list == NULL) {
            list = json_array();
            json_object_set_new(by_run, key, list);
        }
        json_object_del(row, "run_id");
        json_array_append(list, row);
    }
    json_decref(rows);
    return by_run;
}

json_t *pg_model_judgements(db *d, long long model_id, struct err *err)
{
    return pg_query_json(
        d,
        "SELECT j.run_id AS run, j.watch_id AS watch, r.at_ms AS at, "
        "r.vcs_commit AS \"commit\", j.x, j.expected AS predicted, "
        "j.lo, j.hi, j.value AS actual, j.out FROM judgements j JOIN runs r ON r.id = "
        "j.run_id WHERE j.watch_id IN (SELECT id FROM watches WHERE model_id = "
        "$1::bigint) AND j.ready = 1 AND j.x IS NOT NULL ORDER BY j.run_id, j.watch_id",
        err, "i", model_id);
}

/* ---- alerts --------------------------------------------------------------- */

/* The columns of an alert as the API shows it. */
#define PG_ALERT_ROWS                                                                    \
    "SELECT al.id, al.state, j.run_id AS run, j.watch_id AS watch, w.model_id AS "       \
    "model, a.name AS application, e.name AS executable, s.name AS system, r.nprocs, "   \
    "c.inputs AS inputs_json, w.y, r.vcs_commit AS \"commit\", r.vcs_branch AS "         \
    "branch, j.value, j.expected, j.lo, j.hi, j.direction, al.reason, al.group_id AS "   \
    "\"group\", al.created_at, al.updated_at, w.x, al.target, al.formula, "              \
    "al.baseline_formula, al.predicted, al.baseline_predicted, al.baseline_lo, "         \
    "al.baseline_hi FROM alerts al JOIN judgements j ON j.run_id = al.run_id AND "       \
    "j.watch_id = al.watch_id JOIN watches w ON w.id = j.watch_id JOIN runs r ON "       \
    "r.id = j.run_id JOIN applications a ON a.id = r.app_id JOIN executables e ON "      \
    "e.id = r.exe_id JOIN systems s ON s.id = r.system_id LEFT JOIN run_configs c ON "   \
    "c.id = r.config_id "

json_t *pg_alerts_list(db *d, const char *state, long long id, struct err *err)
{
    return pg_query_json(d,
                         PG_ALERT_ROWS "WHERE ($1::text IS NULL OR al.state = $1::text) "
                                       "AND ($2::bigint = 0 OR al.id = $2::bigint) ORDER "
                                       "BY al.id DESC LIMIT 1000",
                         err, "ti", state, id);
}

/* The filters after the commit's ($2) of pg_alerts_query. */
#define PG_ALERT_FILTERS                                                                 \
    "AND ($1::text IS NULL OR al.state = $1::text) AND ($3::text IS NULL OR a.name = "   \
    "$3::text) AND ($4::bigint = 0 OR al.id < $4::bigint) AND ($5::bigint = 0 OR al.id " \
    ">= $5::bigint) AND ($6::bigint = 0 OR al.id <= $6::bigint) AND ($8::bigint = 0 OR " \
    "r.config_id = $8::bigint) AND ($9::text IS NULL OR w.y = $9::text) ORDER BY al.id " \
    "DESC LIMIT $7::bigint"

json_t *pg_alerts_query(db *d, const struct db_alert_filter *f, struct err *err)
{
    /* As sq_alerts_query: a commit's alerts from its runs (runs_by_commit);
     * the statement is prepared once, and a generic plan of "$2 IS NULL OR
     * ..." could not use the index. */
    return pg_query_json(d,
                         f->commit != NULL ? PG_ALERT_ROWS
                             "WHERE r.vcs_commit = $2::text " PG_ALERT_FILTERS
                                           : PG_ALERT_ROWS
                             "WHERE $2::text IS NULL " PG_ALERT_FILTERS,
                         err, "tttiiiiit", f->state, f->commit, f->application, f->before,
                         f->from, f->to, f->limit, f->config_id, f->y);
}

/* ---- executables' build settings ------------------------------------------- */

/* ---- deletes -------------------------------------------------------------- */

/* An application's dependents, children first. */
/* A demo system goes only when nothing of the user's still refers to it. */

int pg_judged_delete_run(db *d, long long run_id, struct err *err)
{
    return pg_run_sql(d, "DELETE FROM judgements WHERE run_id = $1::bigint", err, "i",
                      run_id) < 0
               ? -1
               : 0;
}
