/* judged_ledger: a model's ledger, the ready judgements of its watches with
 * the run's time and commit.
 */
#include "db/history.h"
#include "db/sqlite/entries.h"
#include "db/sqlite/judged.h"
#include "common/xalloc.h"

#include <sqlite3.h>

struct ledger_ctx {
    struct sq_live mine; /* the model's watches */
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
        if (!j->ready || !j->has_x || sq_live_find(&c->mine, j->watch_id) < 0)
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
    if (sq_live_load(d, model_id, &c.mine, err) == 0 &&
        (st = db_stmt(d, SQL_LEDGER_RUNS, err)) != NULL) {
        sqlite3_bind_int64(st, 1, model_id);
        rc = c.mine.n ? sq_judged_rows(d, st, ledger_run, &c, err) : 0;
    }
    sq_live_free(&c.mine);
    if (rc != 0) {
        json_decref(c.rows);
        return NULL;
    }
    return c.rows;
}
