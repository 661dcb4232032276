/* pg: the PostgreSQL backend's internal toolkit — connection, prepared
 * statement cache, execution, error mapping and rows as JSON (the libpq
 * counterpart of db/sqlite/sql.h).
 *
 * For code inside db/pg/ only: nothing outside db/ may include this header
 * (../shared/tools/check-layout checks that db/ headers stay engine-neutral).
 *
 * SQL is written with $1..$n placeholders. Parameters are passed from a
 * format string, one letter each:
 *   't'  const char *, NULL binds NULL (text)
 *   'i'  long long
 *   'd'  double (sent as shortest round-trip text, so values come back exact)
 *   'b'  bytes: const void *, then size_t (bytea, sent in binary)
 * Statements are prepared once per connection on first use and cached by the
 * address of the SQL constant (as db_stmt), so `sql` must be a string
 * constant. Results come back in text format; pg_ll / pg_dbl / pg_text read
 * one field.
 *
 * Errors map as SQLite's do: an integrity violation (SQLSTATE class 23) is an
 * ERR_CONFLICT "conflict", disk full (53100) an ERR_NO_SPACE "disk_full", a lock wait
 * that timed out, a deadlock or a serialization failure an ERR_UNAVAILABLE "busy",
 * anything else an ERR_INTERNAL "database" ("database error: ..."). A connection that
 * broke is reset before its next statement.
 */
#ifndef PROPHECY_DB_PG_PG_H
#define PROPHECY_DB_PG_PG_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdarg.h>
#include <stddef.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/err.h"
#include "db/backend.h"
#include "db/codec.h"

/* Type OIDs of pg_type (stable across versions; the server's pg_type.h is
 * not installed with libpq): the parameter types statements are prepared
 * with and the column types results are read by. */
enum {
    OID_BOOL = 16,
    OID_BYTEA = 17,
    OID_INT8 = 20,
    OID_INT2 = 21,
    OID_INT4 = 23,
    OID_TEXT = 25,
    OID_FLOAT4 = 700,
    OID_FLOAT8 = 701,
    OID_NUMERIC = 1700
};

/* The libpq connection of d (a PostgreSQL connection). */
PGconn *pg_conn(db *d);

/* The number of times d's connection was reset (after it broke, which
 * loses its prepared statements); resets a broken connection first. */
long pg_generation(db *d);
/* The typed statements of db/engine.h (db/pg/engine.c), kept with d. */
struct pg_stmts;
struct pg_stmts **pg_stmts_slot(db *d);
void pg_stmts_free(struct pg_stmts *c);

/* Runs sql, which may hold several statements, without parameters or rows
 * (BEGIN, SAVEPOINT, a migration). Returns 0 or -1 with err set. */
int pg_exec(db *d, const char *sql, struct err *err);

/* A transaction's BEGIN is not sent on its own (pg_begin): it goes out in
 * the same round trip as the transaction's first statement, so that a
 * writer's transaction of a few single-run uploads costs one round trip
 * less. Every path that sends a statement sends it first: pg_exec and
 * pg_exec_prepared by themselves; a path in pipeline mode with
 * pg_send_begin; any other with pg_flush_begin. */
/* 1 when d is in a transaction, its BEGIN sent or not. */
int pg_in_txn(db *d);
/* In pipeline mode: queues the pending BEGIN, if any. Returns the number of
 * results it adds to the pipeline (0 or 1), or -1 when it cannot be sent. */
int pg_send_begin(db *d);
/* Sends the pending BEGIN, if any, on its own. 0, or -1 with err set. */
int pg_flush_begin(db *d, struct err *err);
/* PQexecPrepared, with the pending BEGIN in the same round trip. The
 * statement's result (PQclear it), or NULL, or the BEGIN's failure. */
PGresult *pg_exec_prepared(db *d, const char *name, int n, const char *const *values,
                           const int *lengths, const int *formats);

/* Records the failure in r (or, r NULL, the connection's last error) in err
 * as described above, clears r and returns -1. */
int pg_fail(db *d, PGresult *r, struct err *err);

/* The name of sql's prepared statement (a string constant), prepared on
 * first use; NULL with err set. For sending it in pipeline mode. */
const char *pg_prepared(db *d, const char *sql, struct err *err);

/* Runs the cached prepared statement sql with parameters from fmt. Returns
 * its result (rows or a command's outcome; PQclear it), or NULL with err
 * set. */
PGresult *pg_params(db *d, const char *sql, struct err *err, const char *fmt, ...);
PGresult *pg_paramsv(db *d, const char *sql, struct err *err, const char *fmt,
                     va_list ap);

/* Like pg_params with n parameters given as text (NULL binds NULL), for
 * statements whose parameter list is built at run time. */
PGresult *pg_params_text(db *d, const char *sql, int n, const char *const *values,
                         struct err *err);

/* Field readers of a text-format result: pg_ll and pg_dbl give 0 for NULL,
 * pg_text gives NULL for NULL (the text belongs to r). pg_null says whether
 * the field is NULL. pg_bytes unescapes a bytea field into arena a (*len
 * bytes; NULL with len 0 when it is NULL or memory ran out). */
long long pg_ll(const PGresult *r, int row, int col);
double pg_dbl(const PGresult *r, int row, int col);
const char *pg_text(const PGresult *r, int row, int col);
int pg_null(const PGresult *r, int row, int col);
const void *pg_bytes(const PGresult *r, int row, int col, arena *a, size_t *len);

/* The rows of r as an array of objects keyed by column name: int2/int4/int8
 * map to integers, float4/float8 to reals, numeric to an integer when it is
 * whole and a real otherwise, bool to 0/1, NULL to null, anything else to a
 * string; a column named "*_json" is parsed as JSON and stored without the
 * suffix. Does not clear r. New reference, or NULL with err set. */
json_t *pg_rows_json(const PGresult *r, struct err *err);

/* pg_params + pg_rows_json. New reference, or NULL with err set. */
json_t *pg_query_json(db *d, const char *sql, struct err *err, const char *fmt, ...);
/* Like pg_query_json but the first row (new reference), or NULL with an ERR_NOT_FOUND
 * "not_found" error naming `what` ("what not found") when there is none. */
json_t *pg_query_one(db *d, const char *what, const char *sql, struct err *err,
                     const char *fmt, ...);
/* Runs a statement without rows; returns the number of rows it changed, or
 * -1 with err set. */
long long pg_run_sql(db *d, const char *sql, struct err *err, const char *fmt, ...);
/* Runs sql with $1 bound to id and stores its rows (pg_query_json) under key
 * in obj. Returns 1, or 0 with err set. */
int pg_attach_rows(db *d, json_t *obj, const char *key, const char *sql, long long id,
                   struct err *err);

/* A single bigint or NULL from the first column of the first row: returns 1
 * and *v, 0 when there is no row or the value is NULL, -1 with err set. */
int pg_scalar(db *d, long long *v, const char *sql, struct err *err, const char *fmt,
              ...);

/* Adds stored run run_id, whose inputs are the n given, to its
 * configuration summary and sets its config_id (db/pg/summary.c; the key is
 * db_config_key's). Returns 0 or -1 with err set. */
int pg_summary_add_run_inputs(db *d, long long run_id, const struct rec_kv *inputs,
                              size_t n, struct err *err);

/* What db/pg/runs.c keeps with a connection (the new runs of the open
 * transaction, whose configuration summaries and application names are
 * added at its commit, and the last names resolved), and the transaction's
 * events it follows: pg_begin, pg_savepoint and pg_rollback report them,
 * pg_commit is pg_runs_commit: the sums and the COMMIT in one round trip
 * (0, or -1 with err set: the transaction must then be rolled back). */
struct pg_runs_state;
struct pg_runs_state **pg_runs_slot(db *d);
void pg_runs_state_free(struct pg_runs_state *s);
enum pg_txn_event { PG_TXN_BEGIN, PG_TXN_SAVEPOINT, PG_TXN_ROLLBACK_TO, PG_TXN_ROLLBACK };
void pg_runs_txn(db *d, enum pg_txn_event ev);
int pg_runs_commit(db *d, struct err *err);

#endif
