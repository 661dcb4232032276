/* entries: the PostgreSQL backend's entries of the backend table (db/backend.h),
 * one per public db/ function, named pg_ + the public name without db_.
 * For db/pg/ only; the table itself is db/pg/backend.c. */
#ifndef PROPHECY_DB_PG_ENTRIES_H
#define PROPHECY_DB_PG_ENTRIES_H

#include "db/backend.h"

/* db/db.h */
int pg_open(db **out, const char *path, const struct db_options *opt, struct err *err);
int pg_savepoint(db *d, enum db_savepoint op, struct err *err);
void pg_close(db *d);
int pg_begin(db *d, struct err *err);
int pg_commit(db *d, struct err *err);
void pg_rollback(db *d);
int pg_backup(db *d, const char *dest, struct err *err);
int pg_check(db *d, char **problems, struct err *err);

/* db/runs.h */
int pg_runs_insert(db *d, const struct run_record *runs, size_t n, long long *ids,
                   int *existed, struct err *err);
int pg_runs_list(db *d, const struct db_run_filter *f, arena *a, struct db_run_row **rows,
                 struct err *err);
int pg_runs_names(db *d, arena *a, const char ***inputs, size_t *ninputs,
                  const char ***metrics, size_t *nmetrics, struct err *err);
int pg_runs_tag_names(db *d, arena *a, const char ***tags, size_t *ntags,
                      struct err *err);
int pg_run_get(db *d, long long id, arena *a, struct db_run_row *row, struct err *err);

/* db/catalog.h */
long long pg_app_id(db *d, const char *name, int create, struct err *err);
long long pg_system_id(db *d, const char *name, int create, struct err *err);
json_t *pg_apps_list(db *d, struct err *err);
json_t *pg_app_get(db *d, const char *name, struct err *err);
json_t *pg_systems_list(db *d, struct err *err);
json_t *pg_system_get(db *d, const char *name, struct err *err);
json_t *pg_counts(db *d, struct err *err);
int pg_app_upsert(db *d, const char *name, json_t *fields, int demo, struct err *err);
int pg_system_upsert(db *d, const char *name, json_t *fields, int demo, struct err *err);
int pg_benchmarks_add(db *d, const char *system, const struct bench_record *b, size_t n,
                      struct err *err);
int pg_benchmarks_import(db *d, const char *system, const struct bench_record *b,
                         size_t n, size_t *added, struct err *err);
json_t *pg_benchmarks_list(db *d, const char *system, const char *name, struct err *err);
int pg_params_set(db *d, const char *system, const struct param_record *p, size_t n,
                  struct err *err);
json_t *pg_params_list(db *d, const char *system, struct err *err);
int pg_param_delete(db *d, const char *system, const char *name, struct err *err);
int pg_template_put(db *d, const char *name, const char *application, const char *kernel,
                    const char *expression, const char *description, struct err *err);
json_t *pg_templates_list(db *d, const char *application, struct err *err);
json_t *pg_template_get(db *d, const char *name, struct err *err);
int pg_couplings_add(db *d, const struct coupling_record *c, size_t n, long long *ids,
                     struct err *err);
json_t *pg_couplings_list(db *d, const char *application, const char *system,
                          struct err *err);
int pg_model_save(db *d, const char *method, const char *application, const char *formula,
                  const char *request_json, const char *result_json, long long *id,
                  struct err *err);
json_t *pg_model_get(db *d, long long id, struct err *err);
json_t *pg_models_list(db *d, int limit, struct err *err);
int pg_token_create(db *d, const char *name, const uint8_t hash[32], struct err *err);
int pg_token_revoke(db *d, const char *name, struct err *err);
json_t *pg_tokens_list(db *d, struct err *err);
char *pg_token_check(db *d, const uint8_t hash[32], struct err *err);

/* db/summary.h */
int pg_summary_add_run(db *d, long long run_id, struct err *err);
int pg_summary_configs(db *d, long long app_id, long long exe_id, long long system_id,
                       int limit, arena *a, struct db_config **out, struct err *err);
json_t *pg_summary_apps(db *d, struct err *err);
json_t *pg_summary_systems(db *d, struct err *err);
json_t *pg_summary_app(db *d, const char *name, struct err *err);
json_t *pg_summary_system_apps(db *d, const char *system, struct err *err);
json_t *pg_recent_runs(db *d, int limit, struct err *err);
long long pg_summary_count(db *d, long long app_id, long long exe_id, long long system_id,
                           struct err *err);
json_t *pg_kernels_of_runs(db *d, const char *ids_json, struct err *err);
int pg_runs_page(db *d, const struct db_page_query *q, arena *a,
                 struct db_page_row **rows, struct err *err);
long long pg_runs_rank(db *d, const struct db_page_query *q, struct err *err);

/* db/browse.h */
int pg_app_has_kernels(db *d, long long app_id, struct err *err);
json_t *pg_names_list(db *d, enum db_names which, const char *app, const char *sys,
                      struct err *err);
json_t *pg_run_names(db *d, const long long *ids, size_t n, int kernels, struct err *err);

/* db/select.h */
int pg_select_runs(db *d, const struct db_sel_fit *q, struct db_sel_rows *out,
                   struct err *err);
int pg_select_begin(db *d, struct err *err);
void pg_select_end(db *d);
int pg_select_fit_configs(db *d, const struct db_sel_fit *q, struct db_fit_configs *out,
                          struct err *err);
int pg_fit_sums(db *d, const struct db_fit_y *y, struct db_fit_sum *sums, size_t n,
                struct err *err);
int pg_fit_spread(db *d, const struct db_fit_y *y, const long long *configs,
                  size_t nconfig, double mean, double center, double *ss_mean,
                  double *ss_center, struct err *err);
int pg_fit_nth(db *d, const struct db_fit_y *y, const long long *configs, size_t nconfig,
               size_t k, int two, double *v, struct err *err);
int pg_select_overlay(db *d, const struct db_sel_overlay *q, struct db_sel_rows *out,
                      struct err *err);
int pg_select_couple(db *d, const struct db_sel_couple *q, arena *a,
                     struct db_couple_rows *out, struct err *err);

/* db/history.h */
int pg_history_configs(db *d, const struct db_history_filter *f, int max, arena *a,
                       struct db_history_config **out, struct err *err);
int pg_history_series(db *d, long long config_id, const char *y, arena *a,
                      struct db_series_point **out, struct err *err);
int pg_history_series_each(db *d, long long config_id, const char *y,
                           int (*fn)(void *ctx, const struct db_series_point *p,
                                     struct err *err),
                           void *ctx, struct err *err);
int pg_history_side(db *d, const struct db_history_filter *f, const struct db_side *s,
                    arena *a, struct db_side_value **out, size_t *n, struct err *err);
int pg_watch_add(db *d, const struct db_watch *w, const char *application,
                 const char *executable, const char *system, long long *id,
                 struct err *err);
json_t *pg_watches_list(db *d, struct err *err);
int pg_watch_delete(db *d, long long id, struct err *err);
long long pg_watches_count(db *d, struct err *err);
long long pg_watches_version(db *d, struct err *err);
int pg_watches_all(db *d, arena *a, struct db_watch **out, struct err *err);
int pg_run_value(db *d, long long run_id, const char *y, double *value, struct err *err);
int pg_history_window(db *d, long long run_id, const char *y, double value,
                      long long window, double *hist, struct err *err);
int pg_judgement_add(db *d, const struct db_judgement *j, long long *alert_id,
                     struct err *err);
int pg_judgements_add(db *d, const struct db_judgement *j, size_t n, long long *alert_ids,
                      struct err *err);
json_t *pg_history_judgements(db *d, long long config_id, json_t **watches,
                              struct err *err);
json_t *pg_model_judgements(db *d, long long model_id, struct err *err);
json_t *pg_alerts_list(db *d, const char *state, long long id, struct err *err);
json_t *pg_alerts_query(db *d, const struct db_alert_filter *f, struct err *err);
int pg_alert_set_state(db *d, long long id, const char *state, struct err *err);
int pg_executable_put(db *d, const char *application, const char *name,
                      const char *compiler, const char *flags, const char *version,
                      struct err *err);
int pg_model_name(db *d, long long id, const char *name, struct err *err);
int pg_run_delete(db *d, long long id, struct err *err);
int pg_app_delete(db *d, const char *name, struct err *err);
int pg_model_delete(db *d, long long id, struct err *err);
int pg_template_delete(db *d, const char *name, const char *application, struct err *err);
json_t *pg_template_get_in(db *d, const char *name, const char *application,
                           struct err *err);
int pg_demo_remove(db *d, struct err *err);

/* db/trace.h */
int pg_trace_insert(db *d, const struct db_trace_info *info, const void *const *ranks,
                    const size_t *lens, const struct db_trace_analysis *an, size_t n,
                    struct err *err);
int pg_trace_info(db *d, long long run_id, arena *a, struct db_trace_info *out,
                  struct err *err);
int pg_trace_analysis(db *d, long long run_id, const char *name, int svg, arena *a,
                      const char **text, size_t *len, struct err *err);
int pg_trace_ranks(db *d, long long run_id, arena *a, const void ***ranks, size_t **lens,
                   int *n, struct err *err);
int pg_trace_run_by_uid(db *d, const char *uid, long long *id, struct err *err);
int pg_trace_runs_of_app(db *d, const char *application, const char *input, int max,
                         arena *a, struct db_trace_run **rows, struct err *err);

/* db/copy_backend.h (db/pg/copy.c) */
extern const struct db_copy_ops db_pg_copy;

#endif
