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

/* db/summary.h */
int pg_summary_add_run(db *d, long long run_id, struct err *err);

/* db/select.h */
int pg_select_begin(db *d, struct err *err);
void pg_select_end(db *d);

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
json_t *pg_watches_list(db *d, struct err *err);
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

/* db/copy_backend.h (db/pg/copy.c) */
extern const struct db_copy_ops db_pg_copy;

/* The judgements of a run, deleted with it (its packed row on SQLite). */
int pg_judged_delete_run(db *d, long long run_id, struct err *err);

#endif
