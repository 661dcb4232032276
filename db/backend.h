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

/* The writer's per-job savepoint (one name, "job"). */
enum db_savepoint { DB_SAVEPOINT_SET, DB_SAVEPOINT_ROLLBACK, DB_SAVEPOINT_RELEASE };

struct db_backend {
    const char *name; /* "sqlite", "postgresql" */

    /* db/db.h */
    int (*open)(db **out, const char *path, const struct db_options *opt,
                struct err *err);
    int (*savepoint)(db *d, enum db_savepoint op, struct err *err);
    void (*close)(db *d);
    int (*begin)(db *d, struct err *err);
    int (*commit)(db *d, struct err *err);
    void (*rollback)(db *d);
    int (*backup)(db *d, const char *dest, struct err *err);
    int (*check)(db *d, char **problems, struct err *err);

    /* db/runs.h */
    int (*runs_insert)(db *d, const struct run_record *runs, size_t n, long long *ids,
                       int *existed, struct err *err);
    int (*runs_list)(db *d, const struct db_run_filter *f, arena *a,
                     struct db_run_row **rows, struct err *err);
    int (*runs_names)(db *d, arena *a, const char ***inputs, size_t *ninputs,
                      const char ***metrics, size_t *nmetrics, struct err *err);
    int (*runs_tag_names)(db *d, arena *a, const char ***tags, size_t *ntags,
                          struct err *err);
    int (*run_get)(db *d, long long id, arena *a, struct db_run_row *row,
                   struct err *err);

    /* db/catalog.h */
    long long (*app_id)(db *d, const char *name, int create, struct err *err);
    long long (*system_id)(db *d, const char *name, int create, struct err *err);
    json_t *(*apps_list)(db *d, struct err *err);
    json_t *(*app_get)(db *d, const char *name, struct err *err);
    json_t *(*systems_list)(db *d, struct err *err);
    json_t *(*system_get)(db *d, const char *name, struct err *err);
    json_t *(*counts)(db *d, struct err *err);
    int (*app_upsert)(db *d, const char *name, json_t *fields, int demo, struct err *err);
    int (*system_upsert)(db *d, const char *name, json_t *fields, int demo,
                         struct err *err);
    int (*benchmarks_add)(db *d, const char *system, const struct bench_record *b,
                          size_t n, struct err *err);
    int (*benchmarks_import)(db *d, const char *system, const struct bench_record *b,
                             size_t n, size_t *added, struct err *err);
    json_t *(*benchmarks_list)(db *d, const char *system, const char *name,
                               struct err *err);
    int (*params_set)(db *d, const char *system, const struct param_record *p, size_t n,
                      struct err *err);
    json_t *(*params_list)(db *d, const char *system, struct err *err);
    int (*param_delete)(db *d, const char *system, const char *name, struct err *err);
    int (*template_put)(db *d, const char *name, const char *application,
                        const char *kernel, const char *expression,
                        const char *description, struct err *err);
    json_t *(*templates_list)(db *d, const char *application, struct err *err);
    json_t *(*template_get)(db *d, const char *name, struct err *err);
    int (*couplings_add)(db *d, const struct coupling_record *c, size_t n, long long *ids,
                         struct err *err);
    json_t *(*couplings_list)(db *d, const char *application, const char *system,
                              struct err *err);
    int (*model_save)(db *d, const char *method, const char *application,
                      const char *formula, const char *request_json,
                      const char *result_json, long long *id, struct err *err);
    json_t *(*model_get)(db *d, long long id, struct err *err);
    json_t *(*models_list)(db *d, int limit, struct err *err);
    int (*token_create)(db *d, const char *name, const uint8_t hash[32], struct err *err);
    int (*token_revoke)(db *d, const char *name, struct err *err);
    json_t *(*tokens_list)(db *d, struct err *err);
    char *(*token_check)(db *d, const uint8_t hash[32], struct err *err);

    /* db/summary.h */
    int (*summary_add_run)(db *d, long long run_id, struct err *err);
    int (*summary_configs)(db *d, long long app_id, long long exe_id, long long system_id,
                           int limit, arena *a, struct db_config **out, struct err *err);
    json_t *(*summary_apps)(db *d, struct err *err);
    json_t *(*summary_systems)(db *d, struct err *err);
    json_t *(*summary_app)(db *d, const char *name, struct err *err);
    json_t *(*summary_system_apps)(db *d, const char *system, struct err *err);
    json_t *(*recent_runs)(db *d, int limit, struct err *err);
    long long (*summary_count)(db *d, long long app_id, long long exe_id,
                               long long system_id, struct err *err);
    json_t *(*kernels_of_runs)(db *d, const char *ids_json, struct err *err);
    int (*runs_page)(db *d, const struct db_page_query *q, arena *a,
                     struct db_page_row **rows, struct err *err);
    long long (*runs_rank)(db *d, const struct db_page_query *q, struct err *err);

    /* db/browse.h */
    int (*app_has_kernels)(db *d, long long app_id, struct err *err);
    json_t *(*names_list)(db *d, enum db_names which, const char *app, const char *sys,
                          struct err *err);
    json_t *(*run_names)(db *d, const long long *ids, size_t n, int kernels,
                         struct err *err);

    /* db/select.h */
    int (*select_runs)(db *d, const struct db_sel_fit *q, struct db_sel_rows *out,
                       struct err *err);
    int (*select_begin)(db *d, struct err *err);
    void (*select_end)(db *d);
    int (*select_fit_configs)(db *d, const struct db_sel_fit *q,
                              struct db_fit_configs *out, struct err *err);
    int (*fit_sums)(db *d, const struct db_fit_y *y, struct db_fit_sum *sums, size_t n,
                    struct err *err);
    int (*fit_spread)(db *d, const struct db_fit_y *y, const long long *configs,
                      size_t nconfig, double mean, double center, double *ss_mean,
                      double *ss_center, struct err *err);
    int (*fit_nth)(db *d, const struct db_fit_y *y, const long long *configs,
                   size_t nconfig, size_t k, int two, double *v, struct err *err);
    int (*select_overlay)(db *d, const struct db_sel_overlay *q, struct db_sel_rows *out,
                          struct err *err);
    int (*select_couple)(db *d, const struct db_sel_couple *q, arena *a,
                         struct db_couple_rows *out, struct err *err);

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
    int (*watch_add)(db *d, const struct db_watch *w, const char *application,
                     const char *executable, const char *system, long long *id,
                     struct err *err);
    json_t *(*watches_list)(db *d, struct err *err);
    int (*watch_delete)(db *d, long long id, struct err *err);
    long long (*watches_count)(db *d, struct err *err);
    long long (*watches_version)(db *d, struct err *err);
    int (*watches_all)(db *d, arena *a, struct db_watch **out, struct err *err);
    int (*run_value)(db *d, long long run_id, const char *y, double *value,
                     struct err *err);
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
    int (*alert_set_state)(db *d, long long id, const char *state, struct err *err);
    int (*executable_put)(db *d, const char *application, const char *name,
                          const char *compiler, const char *flags, const char *version,
                          struct err *err);
    int (*model_name)(db *d, long long id, const char *name, struct err *err);
    int (*run_delete)(db *d, long long id, struct err *err);
    int (*app_delete)(db *d, const char *name, struct err *err);
    int (*model_delete)(db *d, long long id, struct err *err);
    int (*template_delete)(db *d, const char *name, const char *application,
                           struct err *err);
    json_t *(*template_get_in)(db *d, const char *name, const char *application,
                               struct err *err);
    int (*demo_remove)(db *d, struct err *err);

    /* db/trace.h */
    int (*trace_insert)(db *d, const struct db_trace_info *info, const void *const *ranks,
                        const size_t *lens, const struct db_trace_analysis *an, size_t n,
                        struct err *err);
    int (*trace_info)(db *d, long long run_id, arena *a, struct db_trace_info *out,
                      struct err *err);
    int (*trace_analysis)(db *d, long long run_id, const char *name, int svg, arena *a,
                          const char **text, size_t *len, struct err *err);
    int (*trace_ranks)(db *d, long long run_id, arena *a, const void ***ranks,
                       size_t **lens, int *n, struct err *err);
    int (*trace_run_by_uid)(db *d, const char *uid, long long *id, struct err *err);
    int (*trace_runs_of_app)(db *d, const char *application, const char *input, int max,
                             arena *a, struct db_trace_run **rows, struct err *err);

    /* db/copy.h: the engine's side of a whole-database copy (db/copy_backend.h) */
    const struct db_copy_ops *copy;
};

/* The head of every backend's connection. */
struct db {
    const struct db_backend *be;
    long long serial; /* db_serial: set by db_open */
};

extern const struct db_backend db_sqlite;
extern const struct db_backend db_pg;

/* Sets, rolls back to or releases the savepoint of the writer's current job. */
int db_savepoint(db *d, enum db_savepoint op, struct err *err);

/* Whether path names a PostgreSQL database (a postgresql:// or postgres:// URI). */
int db_is_postgres(const char *path);

/* Brings a database at version `have` to db_schema_version(): every step of
 * schema (a backend's schema text, split into steps by its "-- migration N"
 * lines) numbered above `have` goes, in order, to step(d, N, sql, err), which
 * runs sql and records N in one transaction. A database newer than this
 * prophecyd is refused. Returns 0, or -1 with err set. */
int db_migrate(db *d, const char *schema, int have,
               int (*step)(db *d, int version, const char *sql, struct err *err),
               struct err *err);

/* A run's time as the at_ms column holds it (common/isotime.h): started_at,
 * else the store time now (db_now's text). */
long long db_run_at(const char *started_at, const char *now);

#endif
