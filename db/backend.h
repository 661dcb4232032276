/* backend: the table of engine functions behind the public db/ headers.
 *
 * For code inside db/ only. Every public function of db/ headers that takes a
 * connection is one entry here; the engine-neutral .c files of db/ dispatch
 * through the connection's table (d->be->fn), so nothing outside db/ knows
 * which engine runs (as SQLite's VFS or curl's protocol handlers). The SQLite
 * entries live in db/sqlite/ (table in db/sqlite/backend.c), the PostgreSQL
 * ones in db/pg/ (db/pg/backend.c). db_open picks the table from the path:
 * a postgresql:// or postgres:// URI selects PostgreSQL, anything else is an
 * SQLite file.
 *
 * Every backend's connection struct starts with a `struct db` (so a `db *`
 * points at both), and every entry of a table is set: an engine that lacks
 * an operation fails it with an error, never a NULL call.
 */
#ifndef PROPHECY_DB_BACKEND_H
#define PROPHECY_DB_BACKEND_H

#include "db/db.h"
#include "db/runs.h"
#include "db/catalog.h"
#include "db/summary.h"
#include "db/browse.h"
#include "db/select.h"
#include "db/history.h"
#include "db/trace.h"
#include "db/pool.h"
#include "db/writer.h"
#include "db/copy_backend.h"
#include "db/engine.h"

struct db_backend {
    const char *name; /* "sqlite", "postgresql" */

    /* db/runs.h */
    int (*runs_insert)(db *d, const struct run_record *runs, size_t n, long long *ids,
                       int *existed, struct err *err);

    /* db/summary.h */
    int (*summary_add_run)(db *d, long long run_id, struct err *err);

    /* db/select.h: the read snapshot of a fit (the selections themselves are
     * db/select.c's) */
    int (*select_begin)(db *d, struct err *err);
    void (*select_end)(db *d);

    /* db/history.h */
    int (*history_configs)(db *d, const struct db_history_filter *f, int max, arena *a,
                           struct db_history_config **out, struct err *err);
    int (*history_series)(db *d, long long config_id, const char *y, arena *a,
                          struct db_series_point **out, struct err *err);
    int (*history_series_each)(db *d, long long config_id, const char *y,
                               int (*fn)(void *ctx, const struct db_series_point *p,
                                         struct err *err),
                               void *ctx, struct err *err);
    int (*history_side)(db *d, const struct db_history_filter *f, const struct db_side *s,
                        arena *a, struct db_side_value **out, size_t *n, struct err *err);
    json_t *(*watches_list)(db *d, struct err *err);
    int (*history_window)(db *d, long long run_id, const char *y, double value,
                          long long window, double *hist, struct err *err);
    int (*judgement_add)(db *d, const struct db_judgement *j, long long *alert_id,
                         struct err *err);
    int (*judgements_add)(db *d, const struct db_judgement *j, size_t n,
                          long long *alert_ids, struct err *err);
    json_t *(*history_judgements)(db *d, long long config_id, json_t **watches,
                                  struct err *err);
    json_t *(*model_judgements)(db *d, long long model_id, struct err *err);
    json_t *(*alerts_list)(db *d, const char *state, long long id, struct err *err);
    json_t *(*alerts_query)(db *d, const struct db_alert_filter *f, struct err *err);

    /* what a run's delete does to its judgements (db_run_delete) */
    int (*judged_delete_run)(db *d, long long run_id, struct err *err);
};

/* The head of every backend's connection. */
struct db {
    const struct db_backend *be;
    const struct db_engine *eng;
    long long serial; /* db_serial: set by db_open */
    /* Transactions begun through db_begin, whether one is open, and
     * db_watches_version's value with the transaction it was read in (0:
     * none): read once per transaction, since the writer's group commit
     * stores many uploads in one and each asked again (a round trip on
     * PostgreSQL). A watch written through d, or a rollback to the job's
     * savepoint, forgets it. */
    long long txns, wv_txn, wv;
    int in_txn;
};

extern const struct db_backend db_sqlite;
extern const struct db_backend db_pg;
extern const struct db_engine db_sqlite_engine;
extern const struct db_engine db_pg_engine;

/* db_watches_version's statement, for an engine that reads it in the same
 * round trip as other work of the transaction (PostgreSQL's run insert
 * pipeline): whether the open transaction has not read it yet, and the value
 * read, which db_watches_version then answers without asking again. */
extern const char DB_SQL_WATCHES_VERSION[];
int db_watches_version_wanted(const db *d);
void db_watches_version_seen(db *d, long long n);

/* Sets, rolls back to or releases the savepoint of the writer's current job. */
int db_savepoint(db *d, enum db_savepoint op, struct err *err);

/* Whether path names a PostgreSQL database (a postgresql:// or postgres:// URI). */
int db_is_postgres(const char *path);

/* Brings a database at version `have` to db_schema_version(): every step of
 * schema (an engine's schema text, split into steps by its "-- migration N"
 * lines) numbered above `have` runs, in order, in its own transaction
 * (the engine's begin), followed in it by finish(d, N, err), the engine's
 * own work for step N (at least recording N as the database's version). A
 * database newer than this prophecyd is refused. Returns 0, or -1 with err
 * set. */
int db_migrate(db *d, const char *schema, int have,
               int (*finish)(db *d, int version, struct err *err), struct err *err);

/* The ids of a run's application, executable and system, created on first
 * use (db/runs.c); c remembers the last names, so a batch of runs of one
 * application looks them up once. 0 or -1. */
struct db_resolved {
    const char *app, *exe, *sys;
    long long app_id, exe_id, sys_id;
};
int db_resolve(db *d, struct db_resolved *c, const struct run_record *r, struct err *err);

/* Reading stored runs (db/runs.c; db_run_same for the engines' stores): one row
 * of the run columns (id, uid, application, executable, system, nprocs,
 * runtime, started_at, submitter, created_at, commit, branch) from st; a
 * run's inputs, metrics, kernels and tags; whether stored run id has
 * exactly r's content (1, 0, or -1 with err set). */
void db_run_row_read(db *d, struct db_stmt *st, arena *a, struct db_run_row *row);
int db_run_children(db *d, arena *a, struct db_run_row *row, struct err *err);
int db_run_same(db *d, long long id, const struct run_record *r, struct err *err);

/* y of a series or window: "runtime" -> 0; "metric:NAME" -> 1 and *name;
 * "kernel:NAME" -> 2 and *name; else -1 (db/history.c). db_bad_y is the
 * ERR_INVALID for a y that is none of those; returns -1. */
int db_y_kind(const char *y, const char **name);
int db_bad_y(const char *y, struct err *err);

/* A run's time as the at_ms column holds it (common/isotime.h): started_at,
 * else the store time now (db_now's text). */
long long db_run_at(const char *started_at, const char *now);

#endif
