/* select: SQLite's read snapshot for a fit (db/select.h; the selections are
 * db/select.c's). */
#include "db/select.h"
#include "db/sqlite/entries.h"
#include "db/sqlite/sql.h"

int sq_select_begin(db *d, struct err *err)
{
    if (!sqlite3_get_autocommit(db_handle(d)))
        return 1; /* already in one: its snapshot holds */
    return db_exec(d, "BEGIN", err);
}

void sq_select_end(db *d)
{
    db_rollback(d);
}
