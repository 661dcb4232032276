/* select: PostgreSQL's read snapshot for a fit (db/select.h; the selections
 * are db/select.c's). */
#include "db/select.h"
#include "db/pg/entries.h"
#include "db/pg/pg.h"

int pg_select_begin(db *d, struct err *err)
{
    if (pg_in_txn(d))
        return 1; /* already in one: its snapshot holds */
    /* REPEATABLE READ: every read of the fit sees one snapshot. */
    return pg_exec(d, "BEGIN ISOLATION LEVEL REPEATABLE READ", err);
}

void pg_select_end(db *d)
{
    pg_rollback(d);
}
