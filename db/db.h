/* db: the database connection, migrations, statement cache and transactions.
 *
 * db/ is the only code that speaks SQL. A `db` is one SQLite connection with
 * its own cache of prepared statements (re-preparing costs ~1.6 µs a
 * statement, FACTS.md). A connection is used by one thread at a time: the
 * server keeps one writer connection (db_writer) and a pool of readers
 * (db_pool). Store modules (runs.h, catalog.h, ...) take a `db *`.
 */
#ifndef PROPHECY_DB_H
#define PROPHECY_DB_H

#include <stddef.h>

#include "common/err.h"

typedef struct db db;
typedef struct sqlite3_stmt sqlite3_stmt;

enum db_sync { DB_SYNC_FULL = 0, DB_SYNC_NORMAL = 1, DB_SYNC_OFF = 2 };

struct db_options {
    enum db_sync sync; /* durability of a commit; FULL fsyncs every commit */
    int readonly;      /* open for reading only (query_only) */
    int busy_ms;       /* busy timeout, default 10000 */
};

/* Opens (creating if needed) the database at path, in WAL mode with foreign
 * keys on, and applies pending migrations from schema.sql unless readonly.
 * Returns 0 and sets *out (close with db_close), or -1 with err set. */
int db_open(db **out, const char *path, const struct db_options *opt, struct err *err);
/* Finalizes cached statements and closes; NULL does nothing. */
void db_close(db *d);

/* Returns the schema version (PRAGMA user_version) the embedded schema.sql
 * brings a database to. */
int db_schema_version(void);

/* Returns the cached prepared statement for sql, reset and with bindings
 * cleared. `sql` must be a string constant: the cache is keyed by its address.
 * Returns NULL with err set (500) when preparing fails. The statement belongs to
 * the connection; do not finalize it. */
sqlite3_stmt *db_stmt(db *d, const char *sql, struct err *err);

/* Executes SQL without results (BEGIN, SAVEPOINT, ...). Returns 0 or -1. */
int db_exec(db *d, const char *sql, struct err *err);

/* Records a SQLite failure of the last call on d as a 500 "database" error
 * (or 409 for a constraint violation) and returns -1. */
int db_fail(db *d, struct err *err);

/* The underlying handle, for store modules inside db/ only. */
struct sqlite3 *db_handle(db *d);

/* Begins / commits / rolls back a transaction (BEGIN IMMEDIATE for writes). */
int db_begin(db *d, struct err *err);
int db_commit(db *d, struct err *err);
void db_rollback(db *d);

/* Writes a consistent online copy of the database to dest (SQLite backup
 * API; readers and writers continue meanwhile). Returns 0 or -1. */
int db_backup(db *d, const char *dest, struct err *err);

/* Current UTC time as ISO 8601 ("2026-11-21T10:00:00Z") into out[32]. */
void db_now(char out[32]);

#endif
