/* pending: the PostgreSQL entries of db/runs.h, db/catalog.h, db/summary.h, db/browse.h,
 * db/select.h that are not ported yet (being ported in db/pg/). Each fails with a 500
 * "database" error naming the function, so a PostgreSQL server answers clearly instead of
 * calling through a NULL entry. This file goes away when the port lands. */
#include "db/pg/entries.h"

static void unported(const char *fn, struct err *err)
{
    err_set(err, 500, "database", NULL,
            "database error: %s is not yet available on PostgreSQL", fn);
}

int pg_runs_insert(db *d, const struct run_record *runs, size_t n, long long *ids,
                   int *existed, struct err *err)
{
    (void)d;
    (void)runs;
    (void)n;
    (void)ids;
    (void)existed;
    unported("db_runs_insert", err);
    return -1;
}

int pg_runs_list(db *d, const struct db_run_filter *f, arena *a, struct db_run_row **rows,
                 struct err *err)
{
    (void)d;
    (void)f;
    (void)a;
    (void)rows;
    unported("db_runs_list", err);
    return -1;
}

int pg_runs_names(db *d, arena *a, const char ***inputs, size_t *ninputs,
                  const char ***metrics, size_t *nmetrics, struct err *err)
{
    (void)d;
    (void)a;
    (void)inputs;
    (void)ninputs;
    (void)metrics;
    (void)nmetrics;
    unported("db_runs_names", err);
    return -1;
}

int pg_runs_tag_names(db *d, arena *a, const char ***tags, size_t *ntags, struct err *err)
{
    (void)d;
    (void)a;
    (void)tags;
    (void)ntags;
    unported("db_runs_tag_names", err);
    return -1;
}

int pg_run_get(db *d, long long id, arena *a, struct db_run_row *row, struct err *err)
{
    (void)d;
    (void)id;
    (void)a;
    (void)row;
    unported("db_run_get", err);
    return -1;
}

long long pg_app_id(db *d, const char *name, int create, struct err *err)
{
    (void)d;
    (void)name;
    (void)create;
    unported("db_app_id", err);
    return -1;
}

long long pg_system_id(db *d, const char *name, int create, struct err *err)
{
    (void)d;
    (void)name;
    (void)create;
    unported("db_system_id", err);
    return -1;
}

json_t *pg_apps_list(db *d, struct err *err)
{
    (void)d;
    unported("db_apps_list", err);
    return NULL;
}

json_t *pg_app_get(db *d, const char *name, struct err *err)
{
    (void)d;
    (void)name;
    unported("db_app_get", err);
    return NULL;
}

json_t *pg_systems_list(db *d, struct err *err)
{
    (void)d;
    unported("db_systems_list", err);
    return NULL;
}

json_t *pg_system_get(db *d, const char *name, struct err *err)
{
    (void)d;
    (void)name;
    unported("db_system_get", err);
    return NULL;
}

json_t *pg_counts(db *d, struct err *err)
{
    (void)d;
    unported("db_counts", err);
    return NULL;
}

int pg_app_upsert(db *d, const char *name, json_t *fields, int demo, struct err *err)
{
    (void)d;
    (void)name;
    (void)fields;
    (void)demo;
    unported("db_app_upsert", err);
    return -1;
}

int pg_system_upsert(db *d, const char *name, json_t *fields, int demo, struct err *err)
{
    (void)d;
    (void)name;
    (void)fields;
    (void)demo;
    unported("db_system_upsert", err);
    return -1;
}

int pg_benchmarks_add(db *d, const char *system, const struct bench_record *b, size_t n,
                      struct err *err)
{
    (void)d;
    (void)system;
    (void)b;
    (void)n;
    unported("db_benchmarks_add", err);
    return -1;
}

int pg_benchmarks_import(db *d, const char *system, const struct bench_record *b,
                         size_t n, size_t *added, struct err *err)
{
    (void)d;
    (void)system;
    (void)b;
    (void)n;
    (void)added;
    unported("db_benchmarks_import", err);
    return -1;
}

json_t *pg_benchmarks_list(db *d, const char *system, const char *name, struct err *err)
{
    (void)d;
    (void)system;
    (void)name;
    unported("db_benchmarks_list", err);
    return NULL;
}

int pg_params_set(db *d, const char *system, const struct param_record *p, size_t n,
                  struct err *err)
{
    (void)d;
    (void)system;
    (void)p;
    (void)n;
    unported("db_params_set", err);
    return -1;
}

json_t *pg_params_list(db *d, const char *system, struct err *err)
{
    (void)d;
    (void)system;
    unported("db_params_list", err);
    return NULL;
}

int pg_param_delete(db *d, const char *system, const char *name, struct err *err)
{
    (void)d;
    (void)system;
    (void)name;
    unported("db_param_delete", err);
    return -1;
}

int pg_template_put(db *d, const char *name, const char *application, const char *kernel,
                    const char *expression, const char *description, struct err *err)
{
    (void)d;
    (void)name;
    (void)application;
    (void)kernel;
    (void)expression;
    (void)description;
    unported("db_template_put", err);
    return -1;
}

json_t *pg_templates_list(db *d, const char *application, struct err *err)
{
    (void)d;
    (void)application;
    unported("db_templates_list", err);
    return NULL;
}

json_t *pg_template_get(db *d, const char *name, struct err *err)
{
    (void)d;
    (void)name;
    unported("db_template_get", err);
    return NULL;
}

int pg_couplings_add(db *d, const struct coupling_record *c, size_t n, long long *ids,
                     struct err *err)
{
    (void)d;
    (void)c;
    (void)n;
    (void)ids;
    unported("db_couplings_add", err);
    return -1;
}

json_t *pg_couplings_list(db *d, const char *application, const char *system,
                          struct err *err)
{
    (void)d;
    (void)application;
    (void)system;
    unported("db_couplings_list", err);
    return NULL;
}

int pg_model_save(db *d, const char *method, const char *application, const char *formula,
                  const char *request_json, const char *result_json, long long *id,
                  struct err *err)
{
    (void)d;
    (void)method;
    (void)application;
    (void)formula;
    (void)request_json;
    (void)result_json;
    (void)id;
    unported("db_model_save", err);
    return -1;
}

json_t *pg_model_get(db *d, long long id, struct err *err)
{
    (void)d;
    (void)id;
    unported("db_model_get", err);
    return NULL;
}

json_t *pg_models_list(db *d, int limit, struct err *err)
{
    (void)d;
    (void)limit;
    unported("db_models_list", err);
    return NULL;
}

int pg_token_create(db *d, const char *name, const uint8_t hash[32], struct err *err)
{
    (void)d;
    (void)name;
    (void)hash;
    unported("db_token_create", err);
    return -1;
}

int pg_token_revoke(db *d, const char *name, struct err *err)
{
    (void)d;
    (void)name;
    unported("db_token_revoke", err);
    return -1;
}

json_t *pg_tokens_list(db *d, struct err *err)
{
    (void)d;
    unported("db_tokens_list", err);
    return NULL;
}

char *pg_token_check(db *d, const uint8_t hash[32], struct err *err)
{
    (void)d;
    (void)hash;
    unported("db_token_check", err);
    return NULL;
}

int pg_summary_add_run(db *d, long long run_id, struct err *err)
{
    (void)d;
    (void)run_id;
    unported("db_summary_add_run", err);
    return -1;
}

int pg_summary_configs(db *d, long long app_id, long long exe_id, long long system_id,
                       int limit, arena *a, struct db_config **out, struct err *err)
{
    (void)d;
    (void)app_id;
    (void)exe_id;
    (void)system_id;
    (void)limit;
    (void)a;
    (void)out;
    unported("db_summary_configs", err);
    return -1;
}

json_t *pg_summary_apps(db *d, struct err *err)
{
    (void)d;
    unported("db_summary_apps", err);
    return NULL;
}

json_t *pg_summary_systems(db *d, struct err *err)
{
    (void)d;
    unported("db_summary_systems", err);
    return NULL;
}

json_t *pg_summary_app(db *d, const char *name, struct err *err)
{
    (void)d;
    (void)name;
    unported("db_summary_app", err);
    return NULL;
}

json_t *pg_summary_system_apps(db *d, const char *system, struct err *err)
{
    (void)d;
    (void)system;
    unported("db_summary_system_apps", err);
    return NULL;
}

json_t *pg_recent_runs(db *d, int limit, struct err *err)
{
    (void)d;
    (void)limit;
    unported("db_recent_runs", err);
    return NULL;
}

long long pg_summary_count(db *d, long long app_id, long long exe_id, long long system_id,
                           struct err *err)
{
    (void)d;
    (void)app_id;
    (void)exe_id;
    (void)system_id;
    unported("db_summary_count", err);
    return -1;
}

json_t *pg_kernels_of_runs(db *d, const char *ids_json, struct err *err)
{
    (void)d;
    (void)ids_json;
    unported("db_kernels_of_runs", err);
    return NULL;
}

int pg_runs_page(db *d, const struct db_page_query *q, arena *a,
                 struct db_page_row **rows, struct err *err)
{
    (void)d;
    (void)q;
    (void)a;
    (void)rows;
    unported("db_runs_page", err);
    return -1;
}

int pg_app_has_kernels(db *d, long long app_id, struct err *err)
{
    (void)d;
    (void)app_id;
    unported("db_app_has_kernels", err);
    return -1;
}

json_t *pg_names_list(db *d, enum db_names which, const char *app, const char *sys,
                      struct err *err)
{
    (void)d;
    (void)which;
    (void)app;
    (void)sys;
    unported("db_names_list", err);
    return NULL;
}

json_t *pg_run_names(db *d, const long long *ids, size_t n, int kernels, struct err *err)
{
    (void)d;
    (void)ids;
    (void)n;
    (void)kernels;
    unported("db_run_names", err);
    return NULL;
}

int pg_select_runs(db *d, const struct db_sel_fit *q, struct db_sel_rows *out,
                   struct err *err)
{
    (void)d;
    (void)q;
    (void)out;
    unported("db_select_runs", err);
    return -1;
}

int pg_select_overlay(db *d, const struct db_sel_overlay *q, struct db_sel_rows *out,
                      struct err *err)
{
    (void)d;
    (void)q;
    (void)out;
    unported("db_select_overlay", err);
    return -1;
}

int pg_select_couple(db *d, const struct db_sel_couple *q, arena *a,
                     struct db_couple_rows *out, struct err *err)
{
    (void)d;
    (void)q;
    (void)a;
    (void)out;
    unported("db_select_couple", err);
    return -1;
}
