/* copy: moving a whole database from one store to another (`prophecyd
 * copy`), in either direction between SQLite and PostgreSQL.
 *
 * Engine-neutral: the caller opens both databases with db_open (the same
 * schema version: db_open migrates both) and gets back counts.
 */
#ifndef PROPHECY_DB_COPY_H
#define PROPHECY_DB_COPY_H

#include "common/err.h"
#include "db/db.h"

struct db_copy_stats {
    int tables;     /* tables copied */
    long long rows; /* rows copied, all tables together */
};

/* Copies every row of every table of src into dst, parents before children,
 * preserving ids, inside one transaction on dst (all or nothing) and one
 * consistent snapshot of src (a server may keep writing to src meanwhile;
 * what it commits after the snapshot is not copied). Afterwards new rows
 * in dst get ids after the copied ones. Refuses (ERR_CONFLICT "conflict", nothing
 * written) a dst that holds any row, and (ERR_INTERNAL "database") two databases
 * whose tables or columns differ. Returns 0 with *st filled (st may be
 * NULL), or -1 with err set. */
int db_copy(db *src, db *dst, struct db_copy_stats *st, struct err *err);

#endif
