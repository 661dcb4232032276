/* judged_live: the watches that exist, loaded once per reader so that
 * every reader of the packed rows skips a deleted watch's entries (watch ids
 * are never handed out again: watch_ids, migration 11).
 */
#include "db/sqlite/judged.h"
#include "common/xalloc.h"

#include <sqlite3.h>
#include <string.h>

void sq_live_free(struct sq_live *l)
{
    xfree(l->id);
    xfree(l->model);
    memset(l, 0, sizeof *l);
}

static const char SQL_LIVE[] =
    "SELECT id, coalesce(model_id, 0) FROM watches WHERE ?1 = 0 OR model_id = ?1 ORDER "
    "BY id";

/* Every watch (model_id 0), or the watches of model_id. */
int sq_live_load(db *d, long long model_id, struct sq_live *l, struct err *err)
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
                sq_live_free(l);
                return err_nomem(err);
            }
            l->model = model;
        }
        l->id[l->n] = sqlite3_column_int64(st, 0);
        l->model[l->n++] = sqlite3_column_int64(st, 1);
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
        sq_live_free(l);
        return db_fail(d, err);
    }
    return 0;
}

/* The position of watch id in l, or -1. */
long sq_live_find(const struct sq_live *l, long long id)
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
