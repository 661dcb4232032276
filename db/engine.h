/* engine: the narrow interface every storage engine gives db/ (internal to
 * db/; the shape of SQLite's VFS io methods or curl's struct Curl_ssl).
 *
 * The public db_* functions are written once, in the engine-neutral .c files
 * of db/, on these calls: a statement is prepared from one SQL text (numbered
 * "?N" placeholders, which the PostgreSQL engine rewrites to "$N") with the
 * types of its parameters (so PostgreSQL prepares it typed and the SQL needs
 * no casts), its parameters are bound, it is stepped row by row and its
 * columns read as typed values (struct db_value, db/copy_backend.h).
 *
 * Parameter types, one letter each (the same letters as the values passed
 * to dq_* in db/query.h):
 *   't'  text          (const char *, NULL binds NULL)
 *   'i'  64-bit integer (long long)
 *   'd'  double
 *   'b'  bytes         (const void *, size_t; NULL binds NULL)
 *
 * A statement belongs to its connection, which caches it by the address of
 * its SQL text (a string constant): prepare returns it reset with its
 * parameters cleared, and it stays prepared until the connection closes.
 */
#ifndef PROPHECY_DB_ENGINE_H
#define PROPHECY_DB_ENGINE_H

#include "common/err.h"
#include "db/copy_backend.h"
#include "db/db.h"

/* The writer's per-job savepoint (one name, "job"). */
enum db_savepoint { DB_SAVEPOINT_SET, DB_SAVEPOINT_ROLLBACK, DB_SAVEPOINT_RELEASE };

/* An engine's prepared statement (SQLite's own; a named PostgreSQL one). */
struct db_stmt;

/* The most parameters of one statement. */
#define DB_MAX_PARAMS 64

struct db_engine {
    const char *name; /* "sqlite", "postgresql" */
    int pg;           /* the dialect of the texts that truly differ (DQ_SQL) */

    /* connection */
    int (*open)(db **out, const char *path, const struct db_options *opt,
                struct err *err);
    void (*close)(db *d);

    /* statements: sql a string constant, types as above */
    struct db_stmt *(*prepare)(db *d, const char *sql, const char *types,
                               struct err *err);
    /* Binds parameter i (1-based) to v (DBV_NULL, DBV_INT, DBV_REAL,
     * DBV_TEXT with n = strlen or DBV_BLOB); the value is copied. */
    void (*bind)(struct db_stmt *st, int i, const struct db_value *v);
    /* 1 with a row, 0 when done, -1 with err set. */
    int (*step)(db *d, struct db_stmt *st, struct err *err);
    /* The columns of the result (known after the first step). */
    int (*column_count)(struct db_stmt *st);
    const char *(*column_name)(struct db_stmt *st, int i);
    /* Column i of the current row (0-based); texts and bytes stay valid
     * until the next step or reset. */
    void (*column)(struct db_stmt *st, int i, struct db_value *v);
    void (*reset)(struct db_stmt *st);
    /* Rows changed by st's last step. */
    long long (*changes)(db *d, struct db_stmt *st);
    /* Runs sql (several statements, no parameters, no rows). */
    int (*exec)(db *d, const char *sql, struct err *err);

    /* transactions and savepoints; durability is db_options.sync at open */
    int (*begin)(db *d, struct err *err);
    int (*commit)(db *d, struct err *err);
    void (*rollback)(db *d);
    int (*savepoint)(db *d, enum db_savepoint op, struct err *err);

    /* whole-database operations */
    int (*backup)(db *d, const char *dest, struct err *err);
    int (*check)(db *d, char **problems, struct err *err);
    const struct db_copy_ops *copy;
};

#endif
