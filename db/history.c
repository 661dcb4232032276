/* history: series, watches, judgements, alerts and deletes (db/history.h).
 * What is written once for every engine is here, on db/query.h; the rest
 * dispatches to the connection's engine (db/backend.h), whose storage of
 * series and judgements differs (SQLite's packed chunks and blobs). */
#include "db/catalog.h"
#include "db/query.h"
#include "db/runs.h"
#include "db/tally.h"

#include <math.h>
#include <string.h>

/* dq_json of sql with ?1 = id and ?2 = limit, stored under key in obj:
 * 0, or -1 with err set. */
static int dq_attach2(db *d, json_t *obj, const char *key, const char *sql, long long id,
                      long long limit, struct err *err)
{
    json_t *v = dq_json(d, sql, err, "ii", id, limit);
    if (v == NULL)
        return -1;
    json_object_set_new(obj, key, v);
    return 0;
}

int db_y_kind(const char *y, const char **name)
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

int db_bad_y(const char *y, struct err *err)
{
    return err_set(err, ERR_INVALID, "invalid", "y",
                   "y must be runtime, metric:NAME or kernel:NAME, not %s", y);
}

long long db_watches_count(db *d, struct err *err)
{
    long long n = 0;
    return dq_scalar(d, &n, "SELECT count(*) FROM watches", err, "") < 0 ? -1 : n;
}

const char DB_SQL_WATCHES_VERSION[] = "SELECT coalesce((SELECT n FROM watch_version), 0)";

int db_watches_version_wanted(const db *d)
{
    return d->in_txn && d->wv_txn != d->txns;
}

void db_watches_version_seen(db *d, long long n)
{
    if (d->in_txn) {
        d->wv_txn = d->txns;
        d->wv = n;
    }
}

long long db_watches_version(db *d, struct err *err)
{
    long long n = 0;
    if (d->in_txn && d->wv_txn == d->txns)
        return d->wv;
    if (dq_scalar(d, &n, DB_SQL_WATCHES_VERSION, err, "") < 0)
        return -1;
    db_watches_version_seen(d, n);
    return n;
}

/* Every statement takes both parameters (typed: the runtime's leaves the
 * name unused). */
static const char *const SQL_VALUE[3] = {
    "SELECT runtime FROM runs WHERE id = ?1 AND runtime IS NOT NULL",
    "SELECT value FROM run_metrics WHERE run_id = ?1 AND name = ?2",
    /* a kernel whose records have no time (SPEC §16) gives no value */
    ("SELECT sum(time) FROM kernels WHERE run_id = ?1 AND name = ?2 AND time IS NOT NULL "
     "HAVING count(*) > 0"),
};

int db_run_value(db *d, long long run_id, const char *y, double *value, struct err *err)
{
    const char *name;
    int kind = db_y_kind(y, &name), rc;
    struct db_stmt *st;

    if (kind < 0)
        return db_bad_y(y, err);
    st = dq_prepare(d, SQL_VALUE[kind], err, "it", run_id, name);
    if (st == NULL)
        return -1;
    rc = dq_step(d, st, err);
    if (rc == 1) {
        *value = dq_dbl(d, st, 0);
        dq_reset(d, st);
    }
    return rc;
}

int db_alert_set_state(db *d, long long id, const char *state, struct err *err)
{
    char now[32];
    long long n;
    db_now(now);
    n = dq_run(d, "UPDATE alerts SET state = ?2, updated_at = ?3 WHERE id = ?1", err,
               "itt", id, state, now);
    if (n < 0)
        return -1;
    if (n == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", NULL, "no alert %lld", id);
    return 0;
}

int db_executable_put(db *d, const char *application, const char *name,
                      const char *compiler, const char *flags, const char *version,
                      struct err *err)
{
    long long app = db_app_id(d, application, 0, err);
    if (app < 0)
        return -1;
    if (app == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", NULL, "no application named %s",
                       application);
    return dq_run(d,
                  "INSERT INTO executables (app_id, name, compiler, flags, version) "
                  "VALUES (?1, ?2, coalesce(?3, ''), coalesce(?4, ''), coalesce(?5, '')) "
                  "ON CONFLICT (app_id, name) DO UPDATE SET "
                  "compiler = coalesce(?3, executables.compiler), "
                  "flags = coalesce(?4, executables.flags), "
                  "version = coalesce(?5, executables.version)",
                  err,
                  "ittt"
                  "t",
                  app, name, compiler, flags, version) < 0
               ? -1
               : 0;
}

int db_model_name(db *d, long long id, const char *name, struct err *err)
{
    return dq_run(d, "UPDATE models SET name = ?2 WHERE id = ?1", err, "it", id, name) < 0
               ? -1
               : 0;
}

int db_history_configs(db *d, const struct db_history_filter *f, int max, arena *a,
                       struct db_history_config **out, struct err *err)
{
    return d->be->history_configs(d, f, max, a, out, err);
}

int db_history_series(db *d, long long config_id, const char *y, arena *a,
                      struct db_series_point **out, struct err *err)
{
    return d->be->history_series(d, config_id, y, a, out, err);
}

int db_history_side(db *d, const struct db_history_filter *f, const struct db_side *s,
                    arena *a, struct db_side_value **out, size_t *n, struct err *err)
{
    return d->be->history_side(d, f, s, a, out, n, err);
}

json_t *db_history_refs(db *d, const char *app, int limit, struct err *err)
{
    json_t *a, *out = NULL;
    long long id;
    a = dq_one(d, "application", "SELECT id FROM applications WHERE name = ?1", err, "t",
               app);
    if (a == NULL)
        return NULL;
    id = json_integer_value(json_object_get(a, "id"));
    json_decref(a);
    out = json_object();
    if (out == NULL) {
        err_nomem(err);
        return NULL;
    }
    if (dq_attach2(d, out, "branches",
                   "SELECT vcs_branch AS name, count(*) AS runs, "
                   "max(created_at) AS last FROM runs WHERE app_id = ?1 AND "
                   "vcs_branch IS NOT NULL GROUP BY vcs_branch ORDER BY "
                   "max(at_ms) DESC, max(id) DESC LIMIT ?2",
                   id, limit, err) != 0 ||
        dq_attach2(d, out, "commits",
                   "SELECT vcs_commit AS name, min(vcs_branch) AS branch, count(*) AS "
                   "runs, max(created_at) AS last FROM runs WHERE app_id = ?1 AND "
                   "vcs_commit IS NOT NULL GROUP BY vcs_commit ORDER BY max(at_ms) "
                   "DESC, max(id) DESC LIMIT ?2",
                   id, limit, err) != 0) {
        json_decref(out);
        return NULL;
    }
    return out;
}

json_t *db_watches_list(db *d, struct err *err)
{
    return d->be->watches_list(d, err);
}

/* A text column into the arena: NULL stays NULL; *ok = 0 when memory ran
 * out. */
static const char *text_in(db *d, struct db_stmt *st, int col, arena *a, int *ok)
{
    const char *s;
    if (dq_null(d, st, col))
        return NULL;
    s = arena_strdup(a, dq_text(d, st, col));
    *ok &= s != NULL;
    return s;
}

int db_watches_all(db *d, arena *a, struct db_watch **out, struct err *err)
{
    struct db_watch *w = NULL;
    size_t n = 0, cap = 0;
    int rc, ok = 1;
    struct db_stmt *st = dq_prepare(
        d,
        "SELECT w.id, coalesce(w.model_id, 0), w.app_id, coalesce(w.exe_id, 0), "
        "coalesce(w.system_id, 0), coalesce(w.nprocs, 0), w.inputs, w.y, w.test, "
        "coalesce(w.threshold, 0), coalesce(w.history, 0), a.name, e.name, s.name, "
        "coalesce(w.confirm, 0), w.x, coalesce(w.target, 0), w.baseline "
        "FROM watches w JOIN applications a ON a.id = w.app_id LEFT JOIN executables e "
        "ON e.id = w.exe_id LEFT JOIN systems s ON s.id = w.system_id ORDER BY w.id",
        err, "");

    *out = NULL;
    if (st == NULL)
        return -1;
    while ((rc = dq_step(d, st, err)) == 1) {
        struct db_watch *more = arena_grow(a, w, n, &cap, 64, sizeof *w);
        if (more == NULL) {
            dq_reset(d, st);
            return err_nomem(err);
        }
        w = more;
        w[n] = (struct db_watch){
            .id = dq_ll(d, st, 0),
            .model_id = dq_ll(d, st, 1),
            .app_id = dq_ll(d, st, 2),
            .exe_id = dq_ll(d, st, 3),
            .system_id = dq_ll(d, st, 4),
            .nprocs = dq_ll(d, st, 5),
            .inputs_json = text_in(d, st, 6, a, &ok),
            .y = text_in(d, st, 7, a, &ok),
            .test = text_in(d, st, 8, a, &ok),
            .threshold = dq_dbl(d, st, 9),
            .window = dq_ll(d, st, 10),
            .application = text_in(d, st, 11, a, &ok),
            .executable = text_in(d, st, 12, a, &ok),
            .system = text_in(d, st, 13, a, &ok),
            .confirm = dq_ll(d, st, 14),
            .x = text_in(d, st, 15, a, &ok),
            .target = dq_dbl(d, st, 16),
            .baseline = text_in(d, st, 17, a, &ok),
        };
        n++;
        if (!ok) {
            dq_reset(d, st);
            return err_nomem(err);
        }
    }
    if (rc < 0)
        return -1;
    *out = w;
    return (int)n;
}

/* ---- the scaling watch ------------------------------------------------------ */

/* A scaling watch's runs of one side (db_law_runs): the side's condition,
 * then the selection; y per kind as SQL_VALUE's. Every statement takes the
 * same parameters: ?1 the side's value, ?2 the commit left out, ?3 the
 * application, ?4 the system, ?5 the executable, ?6 the limit, ?7 the
 * metric's or kernel's name (unused for the runtime). */
#define LAW_RUNS(yexpr, side)                                                            \
    "SELECT nprocs, inputs, y FROM (SELECT r.id, r.nprocs, c.inputs, " yexpr " AS y "    \
    "FROM runs r JOIN run_configs c ON c.id = r.config_id WHERE " side " AND "           \
    "r.app_id = ?3 AND r.system_id = (SELECT s.id FROM systems s WHERE s.name = ?4) "    \
    "AND r.exe_id = (SELECT e.id FROM executables e WHERE e.app_id = ?3 AND e.name = "   \
    "?5)) t WHERE y IS NOT NULL ORDER BY id DESC LIMIT ?6"
#define LAW_Y_RUNTIME "r.runtime"
#define LAW_Y_METRIC                                                                     \
    "(SELECT m.value FROM run_metrics m WHERE m.run_id = r.id AND m.name = ?7)"
#define LAW_Y_KERNEL                                                                     \
    "(SELECT sum(k.time) FROM kernels k WHERE k.run_id = r.id AND k.name = ?7)"
#define LAW_COMMIT "r.vcs_commit = ?1 AND ?2 IS NULL"
#define LAW_BRANCH                                                                       \
    "r.vcs_branch = ?1 AND (?2 IS NULL OR r.vcs_commit IS NULL OR r.vcs_commit <> ?2)"
static const char *const SQL_LAW_RUNS[2][3] = {
    {LAW_RUNS(LAW_Y_RUNTIME, LAW_COMMIT), LAW_RUNS(LAW_Y_METRIC, LAW_COMMIT),
     LAW_RUNS(LAW_Y_KERNEL, LAW_COMMIT)},
    {LAW_RUNS(LAW_Y_RUNTIME, LAW_BRANCH), LAW_RUNS(LAW_Y_METRIC, LAW_BRANCH),
     LAW_RUNS(LAW_Y_KERNEL, LAW_BRANCH)},
};

long db_law_runs(db *d, const struct db_law_side *q, arena *a, struct db_law_run **out,
                 struct err *err)
{
    const char *name;
    int yk = db_y_kind(q->y, &name), ok = 1, rc;
    struct db_law_run *v = NULL;
    size_t n = 0, cap = 0;
    struct db_stmt *st;

    *out = NULL;
    if (yk < 0)
        return db_bad_y(q->y, err);
    if (q->kind != DB_SIDE_COMMIT && q->kind != DB_SIDE_BRANCH)
        return err_invalid(err, "baseline", "a baseline is branch:NAME or commit:SHA");
    st = dq_prepare(d, SQL_LAW_RUNS[q->kind == DB_SIDE_BRANCH][yk], err, "ttittit",
                    q->value, q->kind == DB_SIDE_BRANCH ? q->except : NULL, q->app_id,
                    q->system, q->executable, (long long)q->max, name ? name : "");
    if (st == NULL)
        return -1;
    while ((rc = dq_step(d, st, err)) == 1) {
        struct db_law_run *more = arena_grow(a, v, n, &cap, 64, sizeof *v);
        if (more == NULL) {
            dq_reset(d, st);
            return err_nomem(err);
        }
        v = more;
        v[n].nprocs = dq_ll(d, st, 0);
        v[n].inputs_json = text_in(d, st, 1, a, &ok);
        v[n].y = dq_dbl(d, st, 2);
        n++;
        if (!ok) {
            dq_reset(d, st);
            return err_nomem(err);
        }
    }
    if (rc < 0)
        return -1;
    *out = v;
    return (long)n;
}

json_t *db_watch_ids(db *d, const char *test, struct err *err)
{
    json_t *rows = dq_json(d, "SELECT id FROM watches WHERE test = ?1 ORDER BY id", err,
                           "t", test),
           *ids, *row;
    size_t i;
    if (rows == NULL)
        return NULL;
    ids = json_array();
    json_array_foreach(rows, i, row)
    {
        if (ids != NULL && json_array_append(ids, json_object_get(row, "id")) != 0) {
            json_decref(ids);
            ids = NULL;
        }
    }
    json_decref(rows);
    if (ids == NULL)
        err_nomem(err);
    return ids;
}

long db_alerts_of_commit(db *d, long long watch_id, const char *commit, arena *a,
                         struct db_commit_alert **out, struct err *err)
{
    struct db_commit_alert *v = NULL;
    size_t n = 0, cap = 0;
    int rc, ok = 1;
    struct db_stmt *st = dq_prepare(
        d,
        "SELECT al.id, e.name, s.name, r.nprocs, c.inputs FROM alerts al JOIN "
        "alert_groups g ON g.id = al.group_id JOIN runs r ON r.id = al.run_id JOIN "
        "executables e ON e.id = r.exe_id JOIN systems s ON s.id = r.system_id LEFT JOIN "
        "run_configs c ON c.id = r.config_id WHERE al.watch_id = ?1 AND g.vcs_commit = "
        "?2 ORDER BY al.id",
        err, "it", watch_id, commit);

    *out = NULL;
    if (st == NULL)
        return -1;
    while ((rc = dq_step(d, st, err)) == 1) {
        struct db_commit_alert *more = arena_grow(a, v, n, &cap, 8, sizeof *v);
        if (more == NULL) {
            dq_reset(d, st);
            return err_nomem(err);
        }
        v = more;
        v[n] = (struct db_commit_alert){
            .id = dq_ll(d, st, 0),
            .executable = text_in(d, st, 1, a, &ok),
            .system = text_in(d, st, 2, a, &ok),
            .nprocs = dq_ll(d, st, 3),
            .inputs_json = text_in(d, st, 4, a, &ok),
        };
        n++;
        if (!ok) {
            dq_reset(d, st);
            return err_nomem(err);
        }
    }
    if (rc < 0)
        return -1;
    *out = v;
    return (long)n;
}

int db_alert_law(db *d, long long id, const struct db_alert_law *law, struct err *err)
{
    double ratio =
        law->baseline_predicted != 0 ? law->predicted / law->baseline_predicted : NAN;
    char now[32];
    long long n;
    db_now(now);
    n = dq_run(d,
               "UPDATE alerts SET target = ?2, formula = ?3, baseline_formula = ?4, "
               "predicted = ?5, baseline_predicted = ?6, baseline_lo = ?7, baseline_hi = "
               "?8, ratio = CASE WHEN ?10 = 1 THEN ?9 END, state = CASE WHEN ?11 = 0 AND "
               "state = 'open' THEN 'resolved' WHEN ?11 = 1 AND state = 'resolved' AND "
               "reason = 'not confirmed' THEN 'open' ELSE state END, reason = CASE WHEN "
               "?11 = 0 AND state = 'open' THEN 'not confirmed' WHEN ?11 = 1 AND state = "
               "'resolved' AND reason = 'not confirmed' THEN NULL ELSE reason END, "
               "updated_at = ?12 WHERE id = ?1",
               err, "idttdddddiit", id, law->target, law->formula, law->baseline_formula,
               law->predicted, law->baseline_predicted, law->baseline_lo,
               law->baseline_hi, isfinite(ratio) ? ratio : 0.0,
               (long long)isfinite(ratio), (long long)law->out, now);
    return n < 0 ? -1 : 0;
}

int db_history_window(db *d, long long run_id, const char *y, double value,
                      long long window, double *hist, struct err *err)
{
    return d->be->history_window(d, run_id, y, value, window, hist, err);
}

int db_judgement_add(db *d, const struct db_judgement *j, long long *alert_id,
                     struct err *err)
{
    return db_judgements_add(d, j, 1, alert_id, err);
}

/* The group of the alerts of run_id's commit (of the run alone when it has
 * none), created on first use. 0 and *id, or -1. */
static int alert_group(db *d, long long run_id, const char *now, long long *id,
                       struct err *err)
{
    for (int k = 0; k < 2; k++) {
        int rc =
            dq_scalar(d, id,
                      "SELECT g.id FROM runs r JOIN alert_groups g ON (g.vcs_commit = "
                      "r.vcs_commit OR (r.vcs_commit IS NULL AND g.run_id = r.id)) "
                      "WHERE r.id = ?1",
                      err, "i", run_id);
        if (rc != 0)
            return rc < 0 ? -1 : 0;
        /* the insert that loses a race with another server's does nothing
         * and the read after it sees the winner's row */
        if (dq_run(d,
                   "INSERT INTO alert_groups (vcs_commit, run_id, created_at) SELECT "
                   "r.vcs_commit, CASE WHEN r.vcs_commit IS NULL THEN r.id END, ?2 FROM "
                   "runs r WHERE r.id = ?1 ON CONFLICT DO NOTHING",
                   err, "it", run_id, now) < 0)
            return -1;
    }
    return err_set(err, ERR_INTERNAL, "database", NULL,
                   "cannot create the alert group of run %lld", run_id);
}

/* The alerts of the judgements that are out, in their commit's group. */
static int raise_alerts(db *d, const struct db_judgement *j, size_t n, long long *ids,
                        struct err *err)
{
    char now[32];
    long long group = 0;
    db_now(now);
    for (size_t i = 0; i < n; i++) {
        double ratio = j[i].expected != 0 ? j[i].value / j[i].expected : NAN;
        ids[i] = 0;
        if (!j[i].out || j[i].raise == DB_RAISE_NONE)
            continue;
        if (group == 0 && alert_group(d, j[i].run_id, now, &group, err) != 0)
            return -1;
        if (dq_scalar(
                d, &ids[i],
                "INSERT INTO alerts (run_id, watch_id, state, group_id, ratio, "
                "created_at, updated_at, config_id) VALUES (?1, ?2, ?3, ?4, CASE "
                "WHEN ?6 = 1 THEN ?5 END, ?7, ?7, (SELECT config_id FROM runs WHERE "
                "id = ?1)) RETURNING id",
                err, "iitidit", j[i].run_id, j[i].watch_id,
                j[i].raise == DB_RAISE_SUSPECTED ? "suspected" : "open", group,
                isfinite(ratio) ? ratio : 0.0, (long long)isfinite(ratio), now) <= 0)
            return -1;
    }
    return 0;
}

int db_judgements_add(db *d, const struct db_judgement *j, size_t n, long long *alert_ids,
                      struct err *err)
{
    if (d->be->judgements_add(d, j, n, alert_ids, err) != 0)
        return -1;
    return raise_alerts(d, j, n, alert_ids, err);
}

int db_alert_suspected(db *d, long long watch_id, long long run_id, long long *id,
                       long long *confirmations, struct err *err)
{
    json_t *rows =
        dq_json(d,
                "SELECT al.id, al.confirmations FROM alerts al JOIN runs r ON "
                "r.id = al.run_id WHERE al.state = 'suspected' AND al.watch_id "
                "= ?1 AND r.config_id = (SELECT config_id FROM runs WHERE id = "
                "?2) ORDER BY al.id DESC LIMIT 1",
                err, "ii", watch_id, run_id);
    json_t *row;
    if (rows == NULL)
        return -1;
    row = json_array_get(rows, 0);
    if (row != NULL) {
        *id = json_integer_value(json_object_get(row, "id"));
        *confirmations = json_integer_value(json_object_get(row, "confirmations"));
    }
    json_decref(rows);
    return row != NULL;
}

int db_alert_confirm(db *d, long long id, long long confirmations, const char *state,
                     const char *reason, struct err *err)
{
    char now[32];
    db_now(now);
    return dq_run(d,
                  "UPDATE alerts SET confirmations = ?2, state = coalesce(?3, state), "
                  "reason = coalesce(?4, reason), updated_at = ?5 WHERE id = ?1",
                  err, "iittt", id, confirmations, state, reason, now) < 0
               ? -1
               : 0;
}

long db_alert_group_rows(db *d, const char *state, long long limit, arena *a,
                         struct db_alert_group_row **out, struct err *err)
{
    struct db_alert_group_row *v = NULL;
    size_t n = 0, cap = 0;
    int rc, ok = 1;
    /* One backward range of alerts_group_list (migration 15), from the
     * newest group down to the limit-th holding an alert in state: no row of
     * alerts or runs is read, nothing is sorted; each group's alerts come
     * newest first and are turned around below. */
    struct db_stmt *st = dq_prepare(
        d,
        "SELECT al.group_id, g.vcs_commit, al.id, al.config_id, al.ratio FROM alerts al "
        "JOIN alert_groups g ON g.id = al.group_id WHERE al.group_id >= (SELECT "
        "coalesce(min(group_id), 0) FROM (SELECT DISTINCT group_id FROM alerts WHERE "
        "group_id IS NOT NULL AND (?1 IS NULL OR state = ?1) ORDER BY group_id DESC "
        "LIMIT ?2) s) AND (?1 IS NULL OR al.state = ?1) ORDER BY al.group_id DESC, "
        "al.id DESC",
        err, "ti", state, limit);
    *out = NULL;
    if (st == NULL)
        return -1;
    while ((rc = dq_step(d, st, err)) == 1) {
        struct db_alert_group_row *more = arena_grow(a, v, n, &cap, 256, sizeof *v);
        if (more == NULL) {
            dq_reset(d, st);
            return err_nomem(err);
        }
        v = more;
        v[n].group = dq_ll(d, st, 0);
        v[n].commit = text_in(d, st, 1, a, &ok);
        v[n].alert = dq_ll(d, st, 2);
        v[n].config = dq_ll(d, st, 3);
        v[n].ratio = dq_null(d, st, 4) ? NAN : dq_dbl(d, st, 4);
        n++;
    }
    if (rc < 0)
        return -1;
    if (!ok) /* a commit's text lost to memory exhaustion would read as none */
        return err_nomem(err);
    /* each group's alerts by id, as the list shows them */
    for (size_t i = 0, k; i < n; i = k) {
        for (k = i + 1; k < n && v[k].group == v[i].group; k++)
            ;
        for (size_t lo = i, hi = k - 1; lo < hi; lo++, hi--) {
            struct db_alert_group_row t = v[lo];
            v[lo] = v[hi];
            v[hi] = t;
        }
    }
    *out = v;
    return (long)n;
}

int db_alert_group_set_state(db *d, long long id, const char *state, struct err *err)
{
    char now[32];
    long long n;
    db_now(now);
    n = dq_run(d, "UPDATE alerts SET state = ?2, updated_at = ?3 WHERE group_id = ?1",
               err, "itt", id, state, now);
    if (n < 0)
        return -1;
    if (n == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", NULL, "no alert group %lld", id);
    return 0;
}

json_t *db_history_judgements(db *d, long long config_id, json_t **watches,
                              struct err *err)
{
    return d->be->history_judgements(d, config_id, watches, err);
}

json_t *db_model_judgements(db *d, long long model_id, struct err *err)
{
    return d->be->model_judgements(d, model_id, err);
}

json_t *db_alerts_list(db *d, const char *state, long long id, struct err *err)
{
    return d->be->alerts_list(d, state, id, err);
}

json_t *db_alerts_query(db *d, const struct db_alert_filter *f, struct err *err)
{
    return d->be->alerts_query(d, f, err);
}

int db_history_series_each(db *d, long long config_id, const char *y,
                           int (*fn)(void *ctx, const struct db_series_point *p,
                                     struct err *err),
                           void *ctx, struct err *err)
{
    return d->be->history_series_each(d, config_id, y, fn, ctx, err);
}

int db_watch_add(db *d, const struct db_watch *w, const char *application,
                 const char *executable, const char *system, long long *id,
                 struct err *err)
{
    long long app, exe = 0, sys = 0;
    char now[32];

    /* A watch may name an application, executable or system that has no
     * run yet (SPEC §17): it judges the runs stored from then on, so the
     * names are created here as a run would create them. */
    app = db_app_id(d, application, 1, err);
    if (app <= 0)
        return -1;
    if (executable && (exe = db_exe_id(d, app, executable, err)) < 0)
        return -1;
    if (system) {
        sys = db_system_id(d, system, 1, err);
        if (sys <= 0)
            return -1;
    }
    db_now(now);
    d->wv_txn = 0; /* db_watches_version changes */
    /* On SQLite never the id of a deleted watch, whose judgements the runs'
     * packed rows still hold: watch_ids.last is the highest id ever used
     * (kept by a trigger on every insert, schema.sql migration 11). */
    return dq_scalar(
               d, id,
               DQ_SQL(
                   d,
                   "INSERT INTO watches (id, model_id, app_id, exe_id, system_id, "
                   "nprocs, inputs, y, test, threshold, history, created_at, confirm, x, "
                   "target, baseline) "
                   "VALUES ((SELECT last + 1 FROM watch_ids), nullif(?1, 0), ?2, "
                   "nullif(?3, 0), nullif(?4, 0), nullif(?5, 0), ?6, ?7, ?8, ?9, "
                   "nullif(?10, 0), ?11, nullif(?12, 0), ?13, nullif(?14, 0), ?15) "
                   "RETURNING id",
                   "INSERT INTO watches (model_id, app_id, exe_id, system_id, nprocs, "
                   "inputs, y, test, threshold, history, created_at, confirm, x, target, "
                   "baseline) VALUES "
                   "(nullif(?1, 0), ?2, nullif(?3, 0), nullif(?4, 0), nullif(?5, 0), "
                   "?6, ?7, ?8, ?9, nullif(?10, 0), ?11, nullif(?12, 0), ?13, "
                   "nullif(?14, 0), ?15) RETURNING id"),
               err,
               "iiiiitttdi"
               "titdt",
               w->model_id, app, exe, sys, w->nprocs, w->inputs_json, w->y, w->test,
               w->threshold, w->window, now, w->confirm, w->x, w->target,
               w->baseline) <= 0
               ? -1
               : 0;
}

int db_template_delete(db *d, const char *name, const char *application, struct err *err)
{
    json_t *rows = dq_json(d,
                           "SELECT t.id FROM templates t JOIN applications a ON a.id = "
                           "t.app_id WHERE t.name = ?1 AND (?2 IS NULL OR a.name = ?2) "
                           "ORDER BY t.id LIMIT 2",
                           err, "tt", name, application);
    size_t n = rows ? json_array_size(rows) : 0;
    long long id;
    if (rows == NULL)
        return -1;
    id = n ? json_integer_value(json_object_get(json_array_get(rows, 0), "id")) : 0;
    json_decref(rows);
    if (n == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", NULL, "no template named %s",
                       name);
    if (n > 1)
        return err_set(
            err, ERR_CONFLICT, "conflict", "application",
            "template %s exists in several applications: add ?application=", name);
    return dq_run(d, "DELETE FROM templates WHERE id = ?1", err, "i", id) < 0 ? -1 : 0;
}

json_t *db_template_get_in(db *d, const char *name, const char *application,
                           struct err *err)
{
    return dq_one(d, "template",
                  "SELECT t.name, a.name AS application, t.kernel, t.expression, "
                  "t.description, t.created_at FROM templates t JOIN applications "
                  "a ON a.id = t.app_id WHERE t.name = ?1 AND a.name = ?2",
                  err, "tt", name, application);
}

/* ---- deletes -------------------------------------------------------------- */

/* Deleting watches: alerts, then the counts, then (PostgreSQL) the
 * judgements, then the watches, each chosen by one selection of watch ids
 * with ?1 = the id given. SQLite keeps a run's judgements packed in one row
 * (db/codec.c), where every reader skips a watch id that is gone. */
#define WATCH_DELETES(sel)                                                               \
    {                                                                                    \
        "DELETE FROM alerts WHERE watch_id IN (" sel ")",                                \
            "DELETE FROM watch_counts WHERE watch_id IN (" sel ")",                      \
            "DELETE FROM judgements WHERE watch_id IN (" sel ")",                        \
            "DELETE FROM watches WHERE id IN (" sel ")"                                  \
    }

enum { BY_ID, BY_MODEL, BY_APP };
static const char *const SQL_WATCH_DELETE[3][4] = {
    [BY_ID] = WATCH_DELETES("SELECT ?1"),
    [BY_MODEL] = WATCH_DELETES("SELECT id FROM watches WHERE model_id = ?1"),
    [BY_APP] = WATCH_DELETES("SELECT id FROM watches WHERE app_id = ?1 OR model_id IN "
                             "(SELECT id FROM models WHERE app_id = ?1)"),
};

/* The number of watches deleted, or -1. */
static long long delete_watches(db *d, int by, long long id, struct err *err)
{
    long long n = 0;
    d->wv_txn = 0; /* db_watches_version changes */
    for (int i = 0; i < 4; i++) {
        const char *sql =
            i == 2 ? DQ_SQL(d, NULL, SQL_WATCH_DELETE[by][i]) : SQL_WATCH_DELETE[by][i];
        if (sql != NULL && (n = dq_run(d, sql, err, "i", id)) < 0)
            return -1;
    }
    return n;
}

int db_watch_delete(db *d, long long id, struct err *err)
{
    long long n = delete_watches(d, BY_ID, id, err);
    if (n < 0)
        return -1;
    if (n == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", NULL, "no watch %lld", id);
    return 0;
}

/* Recomputes a configuration's summary from its runs, and drops it when it
 * has none left. */
static int config_refresh(db *d, long long config_id, struct err *err)
{
    if (dq_run(d,
               "UPDATE run_configs SET runs = (SELECT count(*) FROM runs WHERE "
               "config_id = ?1), timed = (SELECT count(runtime) FROM runs WHERE "
               "config_id = ?1), sum_runtime = coalesce((SELECT sum(runtime) FROM runs "
               "WHERE config_id = ?1), 0), min_runtime = (SELECT min(runtime) "
               "FROM runs WHERE config_id = ?1), max_runtime = (SELECT "
               "max(runtime) FROM runs WHERE config_id = ?1), last_run_id = "
               "coalesce((SELECT max(id) FROM runs WHERE config_id = ?1), 0) WHERE id "
               "= ?1",
               err, "i", config_id) < 0 ||
        dq_run(d, "DELETE FROM run_configs WHERE id = ?1 AND runs = 0", err, "i",
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
    if (dq_run(d,
               "UPDATE app_kernels SET records = records - (SELECT count(*) FROM "
               "kernels k WHERE k.run_id = ?1 AND k.name = app_kernels.name) WHERE "
               "app_id = (SELECT app_id FROM runs WHERE id = ?1) AND name IN (SELECT "
               "name FROM kernels WHERE run_id = ?1)",
               err, "i", id) < 0 ||
        dq_run(d, "DELETE FROM app_kernels WHERE records <= 0", err, "") < 0 ||
        dq_run(d,
               "DELETE FROM app_metrics WHERE app_id = (SELECT app_id FROM runs WHERE "
               "id = ?1) AND name IN (SELECT name FROM run_metrics WHERE run_id = ?1) "
               "AND NOT EXISTS (SELECT 1 FROM runs r JOIN run_metrics m ON m.run_id = "
               "r.id WHERE r.app_id = app_metrics.app_id AND r.id <> ?1 AND m.name = "
               "app_metrics.name)",
               err, "i", id) < 0)
        return -1;
    return 0;
}

int db_run_delete(db *d, long long id, struct err *err)
{
    json_t *row =
        dq_one(d, "run", "SELECT config_id FROM runs WHERE id = ?1", err, "i", id);
    long long config_id;
    if (row == NULL)
        return -1;
    config_id = json_integer_value(json_object_get(row, "config_id"));
    json_decref(row);
    if (dq_run(d, "DELETE FROM alerts WHERE run_id = ?1", err, "i", id) < 0 ||
        d->be->judged_delete_run(d, id, err) != 0 ||
        app_names_forget_run(d, id, err) != 0 || db_tally_drop_run(d, id, err) != 0 ||
        dq_run(d, "DELETE FROM runs WHERE id = ?1", err, "i", id) < 0)
        return -1;
    return config_refresh(d, config_id, err);
}

static int app_delete_id(db *d, long long app, struct err *err)
{
    /* The application's runs were judged by its watches alone (a watch
     * covers one application), whose counts go with them. */
    const char *const sql[] = {
        "DELETE FROM alerts WHERE run_id IN (SELECT id FROM runs WHERE app_id = ?1)",
        DQ_SQL(d,
               "DELETE FROM run_judgements WHERE run_id IN (SELECT id FROM runs WHERE "
               "app_id = ?1)",
               "DELETE FROM judgements WHERE run_id IN (SELECT id FROM runs WHERE "
               "app_id = ?1)"),
        "DELETE FROM models WHERE app_id = ?1",
        "DELETE FROM templates WHERE app_id = ?1",
        "DELETE FROM couplings WHERE app_id = ?1",
        "DELETE FROM runs WHERE app_id = ?1",
        "DELETE FROM run_configs WHERE app_id = ?1",
        "DELETE FROM run_tally WHERE app_id = ?1",
        "DELETE FROM app_kernels WHERE app_id = ?1",
        "DELETE FROM app_metrics WHERE app_id = ?1",
        "DELETE FROM executables WHERE app_id = ?1",
        "DELETE FROM applications WHERE id = ?1",
    };
    if (delete_watches(d, BY_APP, app, err) < 0)
        return -1;
    for (size_t i = 0; i < sizeof sql / sizeof *sql; i++)
        if (dq_run(d, sql[i], err, "i", app) < 0)
            return -1;
    return 0;
}

int db_app_delete(db *d, const char *name, struct err *err)
{
    long long app = db_app_id(d, name, 0, err);
    if (app < 0)
        return -1;
    if (app == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", NULL, "no application named %s",
                       name);
    return app_delete_id(d, app, err);
}

int db_model_delete(db *d, long long id, struct err *err)
{
    long long n;
    if (delete_watches(d, BY_MODEL, id, err) < 0)
        return -1;
    n = dq_run(d, "DELETE FROM models WHERE id = ?1", err, "i", id);
    if (n < 0)
        return -1;
    if (n == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", NULL, "no model %lld", id);
    return 0;
}

/* A demo system goes only when nothing of the user's still refers to it. */
#define DEMO_SYSTEM_UNUSED(s)                                                            \
    s ".demo = 1 AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.system_id = " s            \
      ".id) AND NOT EXISTS (SELECT 1 FROM couplings c WHERE c.system_id = " s            \
      ".id) AND NOT EXISTS (SELECT 1 FROM watches w WHERE w.system_id = " s              \
      ".id) AND NOT EXISTS (SELECT 1 FROM models m WHERE m.system_id = " s ".id)"

int db_demo_remove(db *d, struct err *err)
{
    json_t *apps =
        dq_json(d, "SELECT id FROM applications WHERE demo = 1 ORDER BY id", err, "");
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
    if (dq_run(d,
               "DELETE FROM system_benchmarks WHERE system_id IN (SELECT s.id FROM "
               "systems s WHERE " DEMO_SYSTEM_UNUSED("s") ")",
               err, "") < 0 ||
        dq_run(d,
               "DELETE FROM system_parameters WHERE system_id IN (SELECT s.id FROM "
               "systems s WHERE " DEMO_SYSTEM_UNUSED("s") ")",
               err, "") < 0 ||
        dq_run(d, "DELETE FROM systems WHERE " DEMO_SYSTEM_UNUSED("systems"), err, "") <
            0)
        return -1;
    return (int)i;
}
