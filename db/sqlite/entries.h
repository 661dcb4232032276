/* entries: the SQLite backend's entries of the backend table (db/backend.h),
 * one per public db/ function, named sq_ + the public name without db_.
 * For db/sqlite/ only; the table itself is db/sqlite/backend.c. */
#ifndef PROPHECY_DB_SQLITE_ENTRIES_H
#define PROPHECY_DB_SQLITE_ENTRIES_H

#include "db/backend.h"

/* db/db.h */
int sq_open(db **out, const char *path, const struct db_options *opt, struct err *err);
int sq_savepoint(db *d, enum db_savepoint op, struct err *err);
void sq_close(db *d);
int sq_begin(db *d, struct err *err);
int sq_commit(db *d, struct err *err);
void sq_rollback(db *d);
int sq_backup(db *d, const char *dest, struct err *err);
int sq_check(db *d, char **problems, struct err *err);

/* db/runs.h */
int sq_runs_insert(db *d, const struct run_record *runs, size_t n, long long *ids,
                   int *existed, struct err *err);
int sq_runs_list(db *d, const struct db_run_filter *f, arena *a, struct db_run_row **rows,
                 struct err *err);
int sq_runs_names(db *d, arena *a, const char ***inputs, size_t *ninputs,
                  const char ***metrics, size_t *nmetrics, struct err *err);
int sq_runs_tag_names(db *d, arena *a, const char ***tags, size_t *ntags,
                      struct err *err);
int sq_run_get(db *d, long long id, arena *a, struct db_run_row *row, struct err *err);

/* db/catalog.h */
long long sq_app_id(db *d, const char *name, int create, struct err *err);
long long sq_system_id(db *d, const char *name, int create, struct err *err);
json_t *sq_apps_list(db *d, struct err *err);
json_t *sq_app_get(db *d, const char *name, struct err *err);
json_t *sq_systems_list(db *d, struct err *err);
json_t *sq_system_get(db *d, const char *name, struct err *err);
json_t *sq_counts(db *d, struct err *err);
int sq_app_upsert(db *d, const char *name, json_t *fields, int demo, struct err *err);
int sq_system_upsert(db *d, const char *name, json_t *fields, int demo, struct err *err);
int sq_benchmarks_add(db *d, const char *system, const struct bench_record *b, size_t n,
                      struct err *err);
int sq_benchmarks_import(db *d, const char *system, const struct bench_record *b,
                         size_t n, size_t *added, struct err *err);
json_t *sq_benchmarks_list(db *d, const char *system, const char *name, struct err *err);
int sq_params_set(db *d, const char *system, const struct param_record *p, size_t n,
                  struct err *err);
json_t *sq_params_list(db *d, const char *system, struct err *err);
int sq_param_delete(db *d, const char *system, const char *name, struct err *err);
int sq_template_put(db *d, const char *name, const char *application, const char *kernel,
                    const char *expression, const char *description, struct err *err);
json_t *sq_templates_list(db *d, const char *application, struct err *err);
json_t *sq_template_get(db *d, const char *name, struct err *err);
int sq_couplings_add(db *d, const struct coupling_record *c, size_t n, long long *ids,
                     struct err *err);
json_t *sq_couplings_list(db *d, const char *application, const char *system,
                          struct err *err);
int sq_model_save(db *d, const char *method, const char *application, const char *formula,
                  const char *request_json, const char *result_json, long long *id,
                  struct err *err);
json_t *sq_model_get(db *d, long long id, struct err *err);
json_t *sq_models_list(db *d, int limit, struct err *err);
int sq_token_create(db *d, const char *name, const uint8_t hash[32], struct err *err);
int sq_token_revoke(db *d, const char *name, struct err *err);
json_t *sq_tokens_list(db *d, struct err *err);
char *sq_token_check(db *d, const uint8_t hash[32], struct err *err);

/* db/summary.h */
int sq_summary_add_run(db *d, long long run_id, struct err *err);
int sq_summary_configs(db *d, long long app_id, long long exe_id, long long system_id,
                       int limit, arena *a, struct db_config **out, struct err *err);
json_t *sq_summary_apps(db *d, struct err *err);
json_t *sq_summary_systems(db *d, struct err *err);
json_t *sq_summary_app(db *d, const char *name, struct err *err);
json_t *sq_summary_system_apps(db *d, const char *system, struct err *err);
json_t *sq_recent_runs(db *d, int limit, struct err *err);
long long sq_summary_count(db *d, long long app_id, long long exe_id, long long system_id,
                           struct err *err);
json_t *sq_kernels_of_runs(db *d, const char *ids_json, struct err *err);
int sq_runs_page(db *d, const struct db_page_query *q, arena *a,
                 struct db_page_row **rows, struct err *err);
long long sq_runs_rank(db *d, const struct db_page_query *q, struct err *err);

/* db/browse.h */
int sq_app_has_kernels(db *d, long long app_id, struct err *err);
json_t *sq_names_list(db *d, enum db_names which, const char *app, const char *sys,
                      struct err *err);
json_t *sq_run_names(db *d, const long long *ids, size_t n, int kernels, struct err *err);

/* db/select.h */
int sq_select_runs(db *d, const struct db_sel_fit *q, struct db_sel_rows *out,
                   struct err *err);
int sq_select_begin(db *d, struct err *err);
void sq_select_end(db *d);
int sq_select_fit_configs(db *d, const struct db_sel_fit *q, struct db_fit_configs *out,
                          struct err *err);
int sq_fit_sums(db *d, const struct db_fit_y *y, struct db_fit_sum *sums, size_t n,
                struct err *err);
int sq_fit_spread(db *d, const struct db_fit_y *y, const long long *configs,
                  size_t nconfig, double mean, double center, double *ss_mean,
                  double *ss_center, struct err *err);
int sq_fit_nth(db *d, const struct db_fit_y *y, const long long *configs, size_t nconfig,
               size_t k, int two, double *v, struct err *err);
int sq_select_overlay(db *d, const struct db_sel_overlay *q, struct db_sel_rows *out,
                      struct err *err);
int sq_select_couple(db *d, const struct db_sel_couple *q, arena *a,
                     struct db_couple_rows *out, struct err *err);

/* db/history.h */
int sq_history_configs(db *d, const struct db_history_filter *f, int max, arena *a,
                       struct db_history_config **out, struct err *err);
int sq_history_series(db *d, long long config_id, const char *y, arena *a,
                      struct db_series_point **out, struct err *err);
int sq_history_series_each(db *d, long long config_id, const char *y,
                           int (*fn)(void *ctx, const struct db_series_point *p,
                                     struct err *err),
                           void *ctx, struct err *err);
int sq_history_side(db *d, const struct db_history_filter *f, const struct db_side *s,
                    arena *a, struct db_side_value **out, size_t *n, struct err *err);
int sq_watch_add(db *d, const struct db_watch *w, const char *application,
                 const char *executable, const char *system, long long *id,
                 struct err *err);
json_t *sq_watches_list(db *d, struct err *err);
int sq_watch_delete(db *d, long long id, struct err *err);
long long sq_watches_count(db *d, struct err *err);
long long sq_watches_version(db *d, struct err *err);
int sq_watches_all(db *d, arena *a, struct db_watch **out, struct err *err);
int sq_run_value(db *d, long long run_id, const char *y, double *value, struct err *err);
int sq_history_window(db *d, long long run_id, const char *y, double value,
                      long long window, double *hist, struct err *err);
int sq_judgement_add(db *d, const struct db_judgement *j, long long *alert_id,
                     struct err *err);
int sq_judgements_add(db *d, const struct db_judgement *j, size_t n, long long *alert_ids,
                      struct err *err);
json_t *sq_history_judgements(db *d, long long config_id, json_t **watches,
                              struct err *err);
json_t *sq_model_judgements(db *d, long long model_id, struct err *err);
json_t *sq_alerts_list(db *d, const char *state, long long id, struct err *err);
json_t *sq_alerts_query(db *d, const struct db_alert_filter *f, struct err *err);
int sq_alert_set_state(db *d, long long id, const char *state, struct err *err);
int sq_executable_put(db *d, const char *application, const char *name,
                      const char *compiler, const char *flags, const char *version,
                      struct err *err);
int sq_model_name(db *d, long long id, const char *name, struct err *err);
int sq_run_delete(db *d, long long id, struct err *err);
int sq_app_delete(db *d, const char *name, struct err *err);
int sq_model_delete(db *d, long long id, struct err *err);
int sq_template_delete(db *d, const char *name, const char *application, struct err *err);
json_t *sq_template_get_in(db *d, const char *name, const char *application,
                           struct err *err);
int sq_demo_remove(db *d, struct err *err);

/* db/trace.h */
int sq_trace_insert(db *d, const struct db_trace_info *info, const void *const *ranks,
                    const size_t *lens, const struct db_trace_analysis *an, size_t n,
                    struct err *err);
int sq_trace_info(db *d, long long run_id, arena *a, struct db_trace_info *out,
                  struct err *err);
int sq_trace_analysis(db *d, long long run_id, const char *name, int svg, arena *a,
                      const char **text, size_t *len, struct err *err);
int sq_trace_ranks(db *d, long long run_id, arena *a, const void ***ranks, size_t **lens,
                   int *n, struct err *err);
int sq_trace_run_by_uid(db *d, const char *uid, long long *id, struct err *err);
int sq_trace_runs_of_app(db *d, const char *application, const char *input, int max,
                         arena *a, struct db_trace_run **rows, struct err *err);

/* db/copy_backend.h (db/sqlite/copy.c) */
extern const struct db_copy_ops db_sqlite_copy;

#endif
