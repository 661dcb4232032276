/* copy_backend: what each engine provides to db/copy.c (internal to db/;
 * reached through the backend table, db/backend.h, as `be->copy`).
 *
 * db/copy.c knows the tables and their order; an engine knows how to list
 * its tables and columns, read one table's rows as typed values in key order
 * from a snapshot, and load rows into one table fast (SQLite: one prepared
 * INSERT; PostgreSQL: COPY FROM STDIN). No SQL crosses this interface: only
 * table and column names, which come from the schema.
 */
#ifndef PROPHECY_DB_COPY_BACKEND_H
#define PROPHECY_DB_COPY_BACKEND_H

#include <stddef.h>

#include "common/err.h"
#include "db/db.h"

/* One value of one column, as the engine stores it. */
enum db_value_type { DBV_NULL, DBV_INT, DBV_REAL, DBV_TEXT, DBV_BLOB };
struct db_value {
    enum db_value_type type;
    long long i;   /* DBV_INT */
    double r;      /* DBV_REAL */
    const void *p; /* DBV_TEXT (not NUL-terminated) and DBV_BLOB */
    size_t n;      /* bytes at p */
};

/* The longest table or column name, and the most columns of one table. */
#define DB_COPY_NAME 64
#define DB_COPY_COLS 32

/* Called once per row with ncols values (valid until it returns); 0 to go
 * on, -1 (err set) to stop. */
typedef int (*db_copy_row_fn)(void *ctx, const struct db_value *v, int ncols,
                              struct err *err);

struct db_copy_ops {
    /* Starts a read-only snapshot for the copy's reads (ended by
     * db_rollback). */
    int (*snapshot)(db *d, struct err *err);
    /* The user tables (never the engine's own bookkeeping, such as a schema
     * version table): writes at most max names; returns the count or -1. */
    int (*tables)(db *d, char (*names)[DB_COPY_NAME], int max, struct err *err);
    /* The columns of table in their declared order; count, or -1. */
    int (*columns)(db *d, const char *table, char (*names)[DB_COPY_NAME], int max,
                   struct err *err);
    /* The number of rows of table (emptiness of a target); -1 on error. */
    long long (*count)(db *d, const char *table, struct err *err);
    /* Reads every row of table, the given columns, ordered by the key
     * columns (NULL-terminated), calling fn per row. 0 or -1. */
    int (*read)(db *d, const char *table, const char (*cols)[DB_COPY_NAME], int ncols,
                const char *const *key, db_copy_row_fn fn, void *ctx, struct err *err);
    /* Opens a loader into table's given columns (inside the caller's
     * transaction): *w for the calls below. clear: delete the table's rows
     * first (rows triggers made while children were loaded). */
    int (*load_open)(db *d, const char *table, const char (*cols)[DB_COPY_NAME],
                     int ncols, int clear, void **w, struct err *err);
    int (*load_row)(void *w, const struct db_value *v, int ncols, struct err *err);
    /* Finishes (ok = 1) or abandons (ok = 0) the loader and frees it; 0 or -1. */
    int (*load_close)(void *w, int ok, struct err *err);
    /* After every table: whatever makes new ids follow the copied ones
     * (PostgreSQL's identity sequences; nothing for SQLite). 0 or -1. */
    int (*finish)(db *d, struct err *err);
};

#endif
