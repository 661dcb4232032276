/* pending_history: the PostgreSQL entries of db/history.h that are
 * not ported yet (pg-rest ports them into db/pg/history.c). Each fails with a 500
 * "database" error naming the function, so a PostgreSQL server answers clearly instead of
 * calling through a NULL entry. This file goes away when the port lands. */
#include "db/pg/entries.h"

static void unported(const char *fn, struct err *err)
{
    err_set(err, 500, "database", NULL,
            "database error: %s is not yet available on PostgreSQL", fn);
}

int pg_history_configs(db *d, const struct db_history_filter *f, int max, arena *a,
                       struct db_history_config **out, struct err *err)
{
    (void)d;
    (void)f;
    (void)max;
    (void)a;
    (void)out;
    unported("db_history_configs", err);
    return -1;
}

int pg_history_series(db *d, long long config_id, const char *y, arena *a,
                      struct db_series_point **out, struct err *err)
{
    (void)d;
    (void)config_id;
    (void)y;
    (void)a;
    (void)out;
    unported("db_history_series", err);
    return -1;
}

int pg_history_side(db *d, const struct db_history_filter *f, const struct db_side *s,
                    arena *a, struct db_side_value **out, size_t *n, struct err *err)
{
    (void)d;
    (void)f;
    (void)s;
    (void)a;
    (void)out;
    (void)n;
    unported("db_history_side", err);
    return -1;
}

int pg_watch_add(db *d, const struct db_watch *w, const char *application,
                 const char *executable, const char *system, long long *id,
                 struct err *err)
{
    (void)d;
    (void)w;
    (void)application;
    (void)executable;
    (void)system;
    (void)id;
    unported("db_watch_add", err);
    return -1;
}

json_t *pg_watches_list(db *d, struct err *err)
{
    (void)d;
    unported("db_watches_list", err);
    return NULL;
}

int pg_watch_delete(db *d, long long id, struct err *err)
{
    (void)d;
    (void)id;
    unported("db_watch_delete", err);
    return -1;
}

long long pg_watches_count(db *d, struct err *err)
{
    (void)d;
    unported("db_watches_count", err);
    return -1;
}

int pg_watches_for_run(db *d, long long run_id, arena *a, struct db_watch **out,
                       struct err *err)
{
    (void)d;
    (void)run_id;
    (void)a;
    (void)out;
    unported("db_watches_for_run", err);
    return -1;
}

int pg_run_value(db *d, long long run_id, const char *y, double *value, struct err *err)
{
    (void)d;
    (void)run_id;
    (void)y;
    (void)value;
    unported("db_run_value", err);
    return -1;
}

int pg_history_window(db *d, long long run_id, const char *y, long long window,
                      double *hist, struct err *err)
{
    (void)d;
    (void)run_id;
    (void)y;
    (void)window;
    (void)hist;
    unported("db_history_window", err);
    return -1;
}

int pg_judgement_add(db *d, const struct db_judgement *j, long long *alert_id,
                     struct err *err)
{
    (void)d;
    (void)j;
    (void)alert_id;
    unported("db_judgement_add", err);
    return -1;
}

int pg_judgements_add(db *d, const struct db_judgement *j, size_t n, long long *alert_ids,
                      struct err *err)
{
    (void)d;
    (void)j;
    (void)n;
    (void)alert_ids;
    unported("db_judgements_add", err);
    return -1;
}

json_t *pg_history_judgements(db *d, long long config_id, json_t **watches,
                              struct err *err)
{
    (void)d;
    (void)config_id;
    (void)watches;
    unported("db_history_judgements", err);
    return NULL;
}

json_t *pg_model_judgements(db *d, long long model_id, struct err *err)
{
    (void)d;
    (void)model_id;
    unported("db_model_judgements", err);
    return NULL;
}

json_t *pg_alerts_list(db *d, const char *state, long long id, struct err *err)
{
    (void)d;
    (void)state;
    (void)id;
    unported("db_alerts_list", err);
    return NULL;
}

int pg_alert_set_state(db *d, long long id, const char *state, struct err *err)
{
    (void)d;
    (void)id;
    (void)state;
    unported("db_alert_set_state", err);
    return -1;
}

int pg_executable_put(db *d, const char *application, const char *name,
                      const char *compiler, const char *flags, const char *version,
                      struct err *err)
{
    (void)d;
    (void)application;
    (void)name;
    (void)compiler;
    (void)flags;
    (void)version;
    unported("db_executable_put", err);
    return -1;
}

int pg_model_name(db *d, long long id, const char *name, struct err *err)
{
    (void)d;
    (void)id;
    (void)name;
    unported("db_model_name", err);
    return -1;
}

int pg_run_delete(db *d, long long id, struct err *err)
{
    (void)d;
    (void)id;
    unported("db_run_delete", err);
    return -1;
}

int pg_app_delete(db *d, const char *name, struct err *err)
{
    (void)d;
    (void)name;
    unported("db_app_delete", err);
    return -1;
}

int pg_model_delete(db *d, long long id, struct err *err)
{
    (void)d;
    (void)id;
    unported("db_model_delete", err);
    return -1;
}

int pg_template_delete(db *d, const char *name, const char *application, struct err *err)
{
    (void)d;
    (void)name;
    (void)application;
    unported("db_template_delete", err);
    return -1;
}

json_t *pg_template_get_in(db *d, const char *name, const char *application,
                           struct err *err)
{
    (void)d;
    (void)name;
    (void)application;
    unported("db_template_get_in", err);
    return NULL;
}

int pg_demo_remove(db *d, struct err *err)
{
    (void)d;
    unported("db_demo_remove", err);
    return -1;
}
