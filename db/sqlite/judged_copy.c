/* judged_copy: every judgement of a watch that exists, in (run, watch)
 * order, for copy's judgements table.
 */
#include "db/history.h"
#include "db/sqlite/judged.h"

#include <sqlite3.h>

struct each_ctx {
    struct sq_live live;
    int (*fn)(void *ctx, const struct db_judgement *j, struct err *err);
    void *ctx;
};

static int each_run(void *ctx, sqlite3_stmt *st, const struct db_judged *u,
                    struct err *err)
{
    struct each_ctx *c = ctx;
    (void)st;
    for (size_t i = 0; i < u->n; i++)
        if (sq_live_find(&c->live, u->j[i].watch_id) >= 0 &&
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
    if (sq_live_load(d, 0, &c.live, err) == 0 &&
        (st = db_stmt(d, SQ_JUDGED_AFTER, err)) != NULL) {
        sqlite3_bind_int64(st, 1, 0);
        rc = sq_judged_rows(d, st, each_run, &c, err);
    }
    sq_live_free(&c.live);
    return rc;
}
