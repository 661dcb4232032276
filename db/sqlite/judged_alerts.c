/* judged_alerts: the alerts as the API lists them, their judgement's
 * values read from the run's packed row.
 */
#include "db/history.h"
#include "db/sqlite/entries.h"
#include "db/query.h"
#include "db/sqlite/judged.h"

#include <sqlite3.h>

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
        sqlite3_stmt *st = db_stmt(d, SQ_JUDGED_GET, err);
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
