/* sql: the SQLite backend's internal toolkit — statement cache, execution,
 * error mapping and rows as JSON.
 *
 * For code inside db/sqlite/ only: nothing outside db/ may include this
 * header (../shared/tools/check-layout checks it), so that the public db/
 * headers stay engine-neutral and a second backend (db/pg/) can implement
 * them without any caller knowing.
 */
#ifndef PROPHECY_DB_SQLITE_SQL_H
#define PROPHECY_DB_SQLITE_SQL_H

#include <jansson.h>
#include <sqlite3.h>

#include "common/err.h"
#include "db/db.h"

/* Returns the cached prepared statement for sql, reset and with bindings
 * cleared. `sql` must be a string constant: the cache is keyed by its address.
 * Returns NULL with err set (500) when preparing fails. The statement belongs to
 * the connection; do not finalize it. */
sqlite3_stmt *db_stmt(db *d, const char *sql, struct err *err);

/* Executes SQL without results (BEGIN, SAVEPOINT, ...). Returns 0 or -1. */
int db_exec(db *d, const char *sql, struct err *err);

/* The first column of the one row of sql (a constant without parameters, run
 * through the statement cache) as an integer, or -1 with err set. */
long long sq_scalar(db *d, const char *sql, struct err *err);

/* Records a SQLite failure of the last call on d as a 500 "database" error
 * (or 409 for a constraint violation) and returns -1. */
int db_fail(db *d, struct err *err);

/* The underlying handle. */
sqlite3 *db_handle(db *d);

/* Runs sql with parameters bound from fmt ('t' const char *, NULL binds NULL;
 * 'i' long long; 'd' double) and returns an array with one object per row,
 * keyed by column name. INTEGER, REAL, TEXT and NULL map to JSON; a column
 * whose name ends in "_json" is parsed as JSON and stored without the
 * suffix. Returns a new reference, or NULL with err set. */
json_t *db_query_json(db *d, const char *sql, struct err *err, const char *fmt, ...);
/* Like db_query_json but returns the first row (new reference), or NULL with
 * a 404 "not_found" error naming `what` when there is none. */
json_t *db_query_one(db *d, const char *what, const char *sql, struct err *err,
                     const char *fmt, ...);
/* Runs a statement without results with the same binding rules; returns the
 * number of rows changed, or -1 with err set. */
int db_run_sql(db *d, const char *sql, struct err *err, const char *fmt, ...);

/* Runs sql with ?1 bound to id and stores its rows (db_query_json) under
 * key in obj. Returns 1, or 0 with err set. */
int db_attach_rows(db *d, json_t *obj, const char *key, const char *sql, long long id,
                   struct err *err);
/* y of a series or window: "runtime" -> 0; "metric:NAME" -> 1 and *name;
 * "kernel:NAME" -> 2 and *name; else -1 (db/sqlite/history.c). */
int sq_y_kind(const char *y, const char **name);
/* The 422 for a y that is none of those; returns -1. */
int sq_bad_y(const char *y, struct err *err);

/* Judgements between two folds of the watch counts (schema.sql migration
 * 10), and this connection's count of them since its last. */
#define FOLD_EVERY 4096
long *sq_unfolded(db *d);

/* wait 0: a lock held by another connection fails at once (SQLITE_BUSY);
 * wait 1: waits for it up to the connection's busy timeout again. */
void sq_busy_wait(db *d, int wait);

/* The runtime series of config_id from its packed chunks and the rest of
 * runs_series (db/sqlite/series.c); as sq_history_series_each. */
struct db_series_point;
int sq_series_runtime_each(db *d, long long config_id,
                           int (*fn)(void *ctx, const struct db_series_point *p,
                                     struct err *err),
                           void *ctx, struct err *err);
/* Steps st, whose rows are (run id, at_ms, commit, value), calling fn for
 * each as a point and counting them in *n; resets st. 0 or -1. */
int sq_series_rows(db *d, sqlite3_stmt *st,
                   int (*fn)(void *ctx, const struct db_series_point *p, struct err *err),
                   void *ctx, long long *n, struct err *err);

/* The windows the writer's connection keeps in memory (db/sqlite/window.c).
 * sq_windows_forget drops them all: on a rollback (whole or to a savepoint)
 * and on any run's delete (db/sqlite/db.c's hooks). */
struct sq_windows;
struct sq_windows **sq_windows_slot(db *d);
void sq_windows_forget(db *d);
void sq_windows_free(struct sq_windows *w);

#endif
