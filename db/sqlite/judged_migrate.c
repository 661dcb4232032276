/* judged_migrate: migration 11's C part, the row per judgement packed into
 * a row per run.
 */
#include "db/history.h"
#include "db/sqlite/judged.h"
#include "common/xalloc.h"

#include <sqlite3.h>

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
