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
#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "db/codec.h"
#include "db/db.h"

/* Returns the cached prepared statement for sql, reset and with bindings
 * cleared. `sql` must be a string constant: the cache is keyed by its address.
 * Returns NULL with err set (ERR_INTERNAL) when preparing fails. The statement belongs to
 * the connection; do not finalize it. */
sqlite3_stmt *db_stmt(db *d, const char *sql, struct err *err);

/* Executes SQL without results (BEGIN, SAVEPOINT, ...). Returns 0 or -1. */
int db_exec(db *d, const char *sql, struct err *err);

/* The first column of the one row of sql (a constant without parameters, run
 * through the statement cache) as an integer, or -1 with err set. */
long long sq_scalar(db *d, const char *sql, struct err *err);

/* Records a SQLite failure of the last call on d as an ERR_INTERNAL "database" error
 * (or ERR_CONFLICT for a constraint violation) and returns -1. */
int db_fail(db *d, struct err *err);

/* The underlying handle. */
sqlite3 *db_handle(db *d);

/* Configures the SQLite library once for the process, before its first
 * connection: every connection is opened SQLITE_OPEN_NOMUTEX and used by
 * one thread at a time, and nothing reads SQLite's memory statistics, so
 * they are not kept (SQLITE_CONFIG_MEMSTATUS 0: no global mutex around
 * each of SQLite's allocations). Called by every open; later calls do
 * nothing. */
void sq_library_init(void);

/* Judged runs between two folds of the watch counts (schema.sql migrations
 * 10 and 11: the list decodes the packed rows of the runs not folded yet),
 * and this connection's count of them since its last. */
#define FOLD_EVERY 4096
long *sq_unfolded(db *d);

/* Adds stored run run_id to the summary of its configuration, keyed by key
 * (db_inputs_key's text; db/sqlite/summary.c). stored_config is the
 * configuration id the run was inserted with (0: none yet) and at_ms its
 * at_ms: when it is the summary's, the run row is left as it is. 0 or -1. */
int sq_summary_add_run_key(db *d, long long run_id, const char *key,
                           long long stored_config, long long at_ms, struct err *err);

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

/* Every input of the filter (a JSON object, or NULL) equals the
 * configuration's inputs, and an input the filter holds as null (a fit's
 * "fixed" of the runs without it) is absent from them (SQL texts naming the
 * two columns). */
#define SQ_INPUTS_MATCH(filter, inputs)                                                  \
    "(" filter " IS NULL OR NOT EXISTS (SELECT 1 FROM json_each(" filter                 \
    ") f WHERE CASE WHEN f.type = 'null' THEN EXISTS (SELECT 1 FROM json_each(" inputs   \
    ") ci WHERE ci.key = f.key) ELSE NOT EXISTS (SELECT 1 FROM json_each(" inputs        \
    ") ci WHERE ci.key = f.key AND ci.value = f.value) END))"
/* Watch w covers run configuration c (table aliases), as core/watch.c's
 * covers() decides for a run. */
#define SQ_WATCH_COVERS(w, c)                                                            \
    w ".app_id = " c ".app_id AND (" w ".exe_id IS NULL OR " w ".exe_id = " c            \
      ".exe_id) AND (" w ".system_id IS NULL OR " w ".system_id = " c                    \
      ".system_id) AND (" w ".nprocs IS NULL OR " w ".nprocs = " c                       \
      ".nprocs) AND " SQ_INPUTS_MATCH(w ".inputs", c ".inputs")

/* A run's judgements packed into one row of run_judgements (schema.sql
 * migration 11; db/sqlite/judged.h). */
struct db_judgement;
struct db_judged; /* db/codec.h */
/* Stores the n judgements of one run (any watch order; merged into the
 * run's row when it has one; a watch judging the run twice is an ERR_CONFLICT). */
int sq_judged_put(db *d, const struct db_judgement *j, size_t n, struct err *err);
/* Steps st, whose first two columns are a run's id and its packed row,
 * calling fn with each run's judgements decoded; resets st. 0 or -1. */
int sq_judged_rows(db *d, sqlite3_stmt *st,
                   int (*fn)(void *ctx, sqlite3_stmt *st, const struct db_judged *u,
                             struct err *err),
                   void *ctx, struct err *err);
/* Deletes a run's packed row, taking its counted judgements back from the
 * watch counts. 0 or -1. */
int sq_judged_delete_run(db *d, long long run_id, struct err *err);
/* Counts every judgement afresh into watch_counts (copy's target). */
int sq_judged_recount(db *d, struct err *err);
/* Calls fn for every judgement of a watch that exists, in (run, watch)
 * order (copy's judgements table). 0 or -1. */
int sq_judged_each(db *d,
                   int (*fn)(void *ctx, const struct db_judgement *j, struct err *err),
                   void *ctx, struct err *err);
/* Migration 11's C part: packs the judgements table and drops it. */
int sq_judged_migrate(db *d, struct err *err);

#endif
