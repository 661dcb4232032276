/* history: the engine-neutral entry points of db/history.h; each dispatches to the
 * connection's backend (db/backend.h). */
#include "db/backend.h"

int db_history_configs(db *d, const struct db_history_filter *f, int max, arena *a,
                       struct db_history_config **out, struct err *err)
{
    return d->be->history_configs(d, f, max, a, out, err);
}

int db_history_series(db *d, long long config_id, const char *y, arena *a,
                      struct db_series_point **out, struct err *err)
{
    return d->be->history_series(d, config_id, y, a, out, err);
}

int db_history_side(db *d, const struct db_history_filter *f, const struct db_side *s,
                    arena *a, struct db_side_value **out, size_t *n, struct err *err)
{
    return d->be->history_side(d, f, s, a, out, n, err);
}

int db_watch_add(db *d, const struct db_watch *w, const char *application,
                 const char *executable, const char *system, long long *id,
                 struct err *err)
{
    return d->be->watch_add(d, w, application, executable, system, id, err);
}

json_t *db_watches_list(db *d, struct err *err)
{
    return d->be->watches_list(d, err);
}

int db_watch_delete(db *d, long long id, struct err *err)
{
    return d->be->watch_delete(d, id, err);
}

long long db_watches_count(db *d, struct err *err)
{
    return d->be->watches_count(d, err);
}

long long db_watches_version(db *d, struct err *err)
{
    return d->be->watches_version(d, err);
}

int db_watches_all(db *d, arena *a, struct db_watch **out, struct err *err)
{
    return d->be->watches_all(d, a, out, err);
}

int db_run_value(db *d, long long run_id, const char *y, double *value, struct err *err)
{
    return d->be->run_value(d, run_id, y, value, err);
}

int db_history_window(db *d, long long run_id, const char *y, double value,
                      long long window, double *hist, struct err *err)
{
    return d->be->history_window(d, run_id, y, value, window, hist, err);
}

int db_judgement_add(db *d, const struct db_judgement *j, long long *alert_id,
                     struct err *err)
{
    return d->be->judgement_add(d, j, alert_id, err);
}

int db_judgements_add(db *d, const struct db_judgement *j, size_t n, long long *alert_ids,
                      struct err *err)
{
    return d->be->judgements_add(d, j, n, alert_ids, err);
}

json_t *db_history_judgements(db *d, long long config_id, json_t **watches,
                              struct err *err)
{
    return d->be->history_judgements(d, config_id, watches, err);
}

json_t *db_model_judgements(db *d, long long model_id, struct err *err)
{
    return d->be->model_judgements(d, model_id, err);
}

json_t *db_alerts_list(db *d, const char *state, long long id, struct err *err)
{
    return d->be->alerts_list(d, state, id, err);
}

json_t *db_alerts_query(db *d, const struct db_alert_filter *f, struct err *err)
{
    return d->be->alerts_query(d, f, err);
}

int db_alert_set_state(db *d, long long id, const char *state, struct err *err)
{
    return d->be->alert_set_state(d, id, state, err);
}

int db_executable_put(db *d, const char *application, const char *name,
                      const char *compiler, const char *flags, const char *version,
                      struct err *err)
{
    return d->be->executable_put(d, application, name, compiler, flags, version, err);
}

int db_model_name(db *d, long long id, const char *name, struct err *err)
{
    return d->be->model_name(d, id, name, err);
}

int db_run_delete(db *d, long long id, struct err *err)
{
    return d->be->run_delete(d, id, err);
}

int db_app_delete(db *d, const char *name, struct err *err)
{
    return d->be->app_delete(d, name, err);
}

int db_model_delete(db *d, long long id, struct err *err)
{
    return d->be->model_delete(d, id, err);
}

int db_template_delete(db *d, const char *name, const char *application, struct err *err)
{
    return d->be->template_delete(d, name, application, err);
}

json_t *db_template_get_in(db *d, const char *name, const char *application,
                           struct err *err)
{
    return d->be->template_get_in(d, name, application, err);
}

int db_demo_remove(db *d, struct err *err)
{
    return d->be->demo_remove(d, err);
}

int db_history_series_each(db *d, long long config_id, const char *y,
                           int (*fn)(void *ctx, const struct db_series_point *p,
                                     struct err *err),
                           void *ctx, struct err *err)
{
    return d->be->history_series_each(d, config_id, y, fn, ctx, err);
}
