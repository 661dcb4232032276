/* browse: the SQLite implementation of db/browse.h. Every step loop checks
 * its final result (SQLITE_DONE) and fails through db_fail otherwise, so a
 * damaged database never reads as an empty answer. */
#include "db/browse.h"
#include "db/sqlite/sql.h"

int db_app_has_kernels(db *d, long long app_id, struct err *err)
{
    sqlite3_stmt *st = db_stmt(d,
                               "SELECT 1 FROM run_configs c JOIN kernels k ON "
                               "k.run_id = c.last_run_id WHERE c.app_id = ?1 LIMIT 1",
                               err);
    int rc;
    if (st == NULL)
        return -1;
    sqlite3_bind_int64(st, 1, app_id);
    rc = sqlite3_step(st);
    sqlite3_reset(st); /* ends the read: the statement stays cached */
    if (rc == SQLITE_ROW)
        return 1;
    if (rc != SQLITE_DONE)
        return db_fail(d, err);
    return 0;
}
