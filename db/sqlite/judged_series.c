/* judged_series: a configuration's judgements for its series, per run,
 * each with the alert it raised.
 */
#include "db/history.h"
#include "db/sqlite/entries.h"
#include "db/query.h"
#include "db/sqlite/judged.h"

#include <sqlite3.h>
#include <stdio.h>

struct config_ctx {
    struct sq_live live;
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
        long at = sq_live_find(&c->live, j->watch_id);
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
    if (c.by_run == NULL || sq_live_load(d, 0, &c.live, err) != 0 ||
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
    sq_live_free(&c.live);
    if (rc != 0) {
        json_decref(c.by_run);
        json_decref(*watches);
        *watches = NULL;
        return NULL;
    }
    return c.by_run;
}
