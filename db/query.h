/* query: running SQL on any engine (db/engine.h), for the engine-neutral .c
 * files of db/ only.
 *
 * `sql` is a string constant with numbered "?N" placeholders (the cache key
 * is its address); fmt gives one letter per parameter, which is also its
 * type: 't' const char * (NULL binds NULL), 'i' long long, 'd' double,
 * 'b' const void * then size_t. The same constant is always run with the
 * same fmt. Where the engines' dialects truly differ, DQ_SQL(d, sqlite, pg)
 * picks one of two constants.
 */
#ifndef PROPHECY_DB_QUERY_H
#define PROPHECY_DB_QUERY_H

#include <jansson.h>
#include <stddef.h>

#include "db/backend.h"

#define DQ_SQL(d, sqlite_text, pg_text) ((d)->eng->pg ? (pg_text) : (sqlite_text))

/* Prepares sql (from the connection's cache) and binds the parameters.
 * NULL with err set. */
struct db_stmt *dq_prepare(db *d, const char *sql, struct err *err, const char *fmt, ...);
/* 1 with a row, 0 when done (st reset), -1 with err set (st reset). */
int dq_step(db *d, struct db_stmt *st, struct err *err);
void dq_reset(db *d, struct db_stmt *st);

/* Columns of the current row: NULL reads as 0 / NULL. dq_blob sets *len. */
long long dq_ll(db *d, struct db_stmt *st, int col);
double dq_dbl(db *d, struct db_stmt *st, int col);
const char *dq_text(db *d, struct db_stmt *st, int col);
const void *dq_blob(db *d, struct db_stmt *st, int col, size_t *len);
int dq_null(db *d, struct db_stmt *st, int col);
/* A number that may be absent (a run's runtime, SPEC §16): NULL reads NAN. */
double dq_opt_dbl(db *d, struct db_stmt *st, int col);

/* Every row as an array of objects keyed by column name: integers, reals,
 * texts and NULL map to JSON (PostgreSQL's whole numerics and booleans to
 * integers); a column named "*_json" is parsed as JSON and stored without
 * the suffix. New reference, or NULL with err set. */
json_t *dq_json(db *d, const char *sql, struct err *err, const char *fmt, ...);
/* The first row, or NULL with an ERR_NOT_FOUND "not_found" error naming `what`. */
json_t *dq_one(db *d, const char *what, const char *sql, struct err *err, const char *fmt,
               ...);
/* Runs a statement; the number of rows it changed, or -1 with err set. */
long long dq_run(db *d, const char *sql, struct err *err, const char *fmt, ...);
/* The first column of the first row as an integer: 1 and *v, 0 when there
 * is no row or it is NULL, -1 with err set. */
int dq_scalar(db *d, long long *v, const char *sql, struct err *err, const char *fmt,
              ...);
/* dq_json with ?1 bound to id, stored under key in obj: 1, or 0 with err. */
int dq_attach(db *d, json_t *obj, const char *key, const char *sql, long long id,
              struct err *err);

/* A JSON object as a parameter's text (17 significant digits, so that the
 * doubles read back exact; NULL is {}): malloc'd, free with free(); NULL
 * with err set when memory ran out. */
char *dq_object_text(json_t *o, struct err *err);

#endif
