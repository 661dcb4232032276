/* catalog: the engine-neutral entry points of db/catalog.h; each dispatches to the
 * connection's backend (db/backend.h). */
#include "db/backend.h"

long long db_app_id(db *d, const char *name, int create, struct err *err)
{
    return d->be->app_id(d, name, create, err);
}

long long db_system_id(db *d, const char *name, int create, struct err *err)
{
    return d->be->system_id(d, name, create, err);
}

json_t *db_apps_list(db *d, struct err *err)
{
    return d->be->apps_list(d, err);
}

json_t *db_app_get(db *d, const char *name, struct err *err)
{
    return d->be->app_get(d, name, err);
}

json_t *db_systems_list(db *d, struct err *err)
{
    return d->be->systems_list(d, err);
}

json_t *db_system_get(db *d, const char *name, struct err *err)
{
    return d->be->system_get(d, name, err);
}

json_t *db_counts(db *d, struct err *err)
{
    return d->be->counts(d, err);
}

int db_app_upsert(db *d, const char *name, json_t *fields, int demo, struct err *err)
{
    return d->be->app_upsert(d, name, fields, demo, err);
}

int db_system_upsert(db *d, const char *name, json_t *fields, int demo, struct err *err)
{
    return d->be->system_upsert(d, name, fields, demo, err);
}

int db_benchmarks_add(db *d, const char *system, const struct bench_record *b, size_t n,
                      struct err *err)
{
    return d->be->benchmarks_add(d, system, b, n, err);
}

int db_benchmarks_import(db *d, const char *system, const struct bench_record *b,
                         size_t n, size_t *added, struct err *err)
{
    return d->be->benchmarks_import(d, system, b, n, added, err);
}

json_t *db_benchmarks_list(db *d, const char *system, const char *name, struct err *err)
{
    return d->be->benchmarks_list(d, system, name, err);
}

int db_params_set(db *d, const char *system, const struct param_record *p, size_t n,
                  struct err *err)
{
    return d->be->params_set(d, system, p, n, err);
}

json_t *db_params_list(db *d, const char *system, struct err *err)
{
    return d->be->params_list(d, system, err);
}

int db_param_delete(db *d, const char *system, const char *name, struct err *err)
{
    return d->be->param_delete(d, system, name, err);
}

int db_template_put(db *d, const char *name, const char *application, const char *kernel,
                    const char *expression, const char *description, struct err *err)
{
    return d->be->template_put(d, name, application, kernel, expression, description,
                               err);
}

json_t *db_templates_list(db *d, const char *application, struct err *err)
{
    return d->be->templates_list(d, application, err);
}

json_t *db_template_get(db *d, const char *name, struct err *err)
{
    return d->be->template_get(d, name, err);
}

int db_couplings_add(db *d, const struct coupling_record *c, size_t n, long long *ids,
                     struct err *err)
{
    return d->be->couplings_add(d, c, n, ids, err);
}

json_t *db_couplings_list(db *d, const char *application, const char *system,
                          struct err *err)
{
    return d->be->couplings_list(d, application, system, err);
}

int db_model_save(db *d, const char *method, const char *application, const char *formula,
                  const char *request_json, const char *result_json, long long *id,
                  struct err *err)
{
    return d->be->model_save(d, method, application, formula, request_json, result_json,
                             id, err);
}

json_t *db_model_get(db *d, long long id, struct err *err)
{
    return d->be->model_get(d, id, err);
}

json_t *db_models_list(db *d, int limit, struct err *err)
{
    return d->be->models_list(d, limit, err);
}

int db_token_create(db *d, const char *name, const uint8_t hash[32], struct err *err)
{
    return d->be->token_create(d, name, hash, err);
}

int db_token_revoke(db *d, const char *name, struct err *err)
{
    return d->be->token_revoke(d, name, err);
}

json_t *db_tokens_list(db *d, struct err *err)
{
    return d->be->tokens_list(d, err);
}

char *db_token_check(db *d, const uint8_t hash[32], struct err *err)
{
    return d->be->token_check(d, hash, err);
}
