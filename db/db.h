/* db: the store contract — opening a database, transactions, backup.
 *
 * db/ is the only code that speaks SQL, and its public headers (the .h files of db/) say
 * nothing about which engine runs: no SQL text goes in or out and no engine
 * type is visible. The SQLite backend lives in db/sqlite/ (its internal SQL
 * toolkit is db/sqlite/sql.h, for code inside db/ only), the PostgreSQL
 * backend in db/pg/ (toolkit db/pg/pg.h); db_open picks one from the path.
 *
 * A `db` is one connection with its own cache of prepared statements. A
 * connection is used by one thread at a time: the server keeps one writer
 * connection (db_writer) and a pool of readers (db_pool). Store modules
 * (runs.h, catalog.h, ...) take a `db *`.
 */
#ifndef PROPHECY_DB_H
#define PROPHECY_DB_H

#include <stddef.h>

#include "common/err.h"

typedef struct db db;

enum db_sync { DB_SYNC_FULL = 0, DB_SYNC_NORMAL = 1, DB_SYNC_OFF = 2 };

struct db_options {
    enum db_sync sync; /* durability of a commit; FULL fsyncs every commit */
    int readonly;      /* open for reading only (query_only) */
    int busy_ms;       /* busy timeout, default 10000 */
};

/* Opens the database named by path: a PostgreSQL database when path is a
 * libpq URI (postgresql://... or postgres://...) or keyword string
 * ("host=... dbname=..."; the standard PG* environment
 * variables fill in what it leaves out), else the SQLite file at path. Either
 * way the same schema version is applied and every function of db/ behaves
 * the same.
 *
 * For an SQLite file: opens (creating if needed) the database at path, in WAL mode with
 * foreign keys on, and applies pending migrations from schema.sql unless readonly.
 * Returns 0 and sets *out (close with db_close), or -1 with err set. */
int db_open(db **out, const char *path, const struct db_options *opt, struct err *err);
/* Whether path names a database file on this machine (SQLite) rather than a
 * database server (a postgresql:// or postgres:// URI, or a libpq keyword
 * string such as "host=h dbname=d"). Files need what
 * servers do not: one prophecyd per file (serve's lock), a check that the
 * file exists before an administrative command, file backups. */
int db_is_file(const char *path);

/* The database as it may be printed: a PostgreSQL URI with its password (the
 * part after "user:" before "@", and any password=... parameter) replaced by
 * "***", so that a serve line or an error in a log does not give it away; a
 * file path unchanged. Truncates to fit n bytes; returns out. */
const char *db_display_name(const char *path, char *out, size_t n);
/* Masks, in a message of n bytes at text (a libpq error may quote the URI),
 * every occurrence of the passwords path holds, as db_display_name does. */
void db_mask_secrets(const char *path, char *text, size_t n);

/* Finalizes cached statements and closes; NULL does nothing. */
void db_close(db *d);

/* A number no other connection opened by this process has had: a key for
 * what a caller keeps in memory about the database behind d. */
long long db_serial(db *d);

/* Returns the schema version (PRAGMA user_version) the embedded schema.sql
 * brings a database to. */
int db_schema_version(void);

/* Begins / commits / rolls back a transaction (BEGIN IMMEDIATE for writes). */
int db_begin(db *d, struct err *err);
int db_commit(db *d, struct err *err);
void db_rollback(db *d);

/* Writes a consistent online copy of the database to dest (SQLite backup
 * API; readers and writers continue meanwhile), then checks the copy as
 * db_check does: a copy that fails (the database is damaged) is removed
 * and -1 returned with the first problem. Returns 0 or -1. A
 * PostgreSQL database is backed up with pg_dump: this fails with an ERR_BAD_REQUEST
 * "unsupported" saying so. */
int db_backup(db *d, const char *dest, struct err *err);

/* Checks the whole database for damage (every page, index and record;
 * SQLite's integrity check). Returns 1 when sound; 0 when damaged, with
 * *problems (malloc'd text, one problem a line, at most 100; free with
 * xfree) saying what is wrong; or -1 with err set when the check could not
 * run at all. On PostgreSQL (whose server keeps its own pages sound) it
 * checks that the connection works and the schema version is this
 * prophecyd's. */
int db_check(db *d, char **problems, struct err *err);

/* Current UTC time as ISO 8601 ("2026-11-21T10:00:00Z") into out[32]. */
void db_now(char out[32]);

#endif
