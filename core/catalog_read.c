/* catalog_read: the catalog's read answers and entity upserts; see
 * catalog_read.h. No HTTP here: errors are struct err records. */
#include "core/catalog_read.h"

#include "common/xalloc.h"
#include "db/catalog.h"
#include "db/history.h"
#include "formats/rundoc.h"

#include <string.h>

/* {key: list} from a list read, or NULL (list's error kept). */
static json_t *wrap(const char *key, json_t *list)
{
    return list ? json_pack("{s:o}", key, list) : NULL;
}

/* {"system": system, key: list()} once the system is known to exist. */
static json_t *of_system(const char *system, const char *key, json_t *list)
{
    return list ? json_pack("{s:s, s:o}", "system", system, key, list) : NULL;
}

/* 1 when the system exists, 0 after setting ERR_NOT_FOUND, -1 on a read error. */
static int system_exists(db *d, const char *system, struct err *err)
{
    long long id = db_system_id(d, system, 0, err);
    if (id == 0)
        err_set(err, ERR_NOT_FOUND, "not_found", NULL, "system %s not found", system);
    return id > 0 ? 1 : id == 0 ? 0 : -1;
}

json_t *catalog_apps_answer(db *d, struct err *err)
{
    return wrap("applications", db_apps_list(d, err));
}

json_t *catalog_systems_answer(db *d, struct err *err)
{
    return wrap("systems", db_systems_list(d, err));
}

json_t *catalog_app_answer(db *d, const char *name, struct err *err)
{
    return db_app_get(d, name, err);
}

json_t *catalog_system_answer(db *d, const char *name, struct err *err)
{
    return db_system_get(d, name, err);
}

json_t *catalog_benchmarks_answer(db *d, const char *system, const char *name,
                                  struct err *err)
{
    if (system_exists(d, system, err) != 1)
        return NULL;
    return of_system(system, "benchmarks", db_benchmarks_list(d, system, name, err));
}

json_t *catalog_params_answer(db *d, const char *system, struct err *err)
{
    if (system_exists(d, system, err) != 1)
        return NULL;
    return of_system(system, "parameters", db_params_list(d, system, err));
}

json_t *catalog_templates_answer(db *d, const char *app, struct err *err)
{
    return wrap("templates", db_templates_list(d, app, err));
}

json_t *catalog_template_answer(db *d, const char *name, const char *app, struct err *err)
{
    return app ? db_template_get_in(d, name, app, err) : db_template_get(d, name, err);
}

json_t *catalog_couplings_answer(db *d, const char *app, const char *sys, struct err *err)
{
    return wrap("couplings", db_couplings_list(d, app, sys, err));
}

json_t *catalog_models_answer(db *d, struct err *err)
{
    return wrap("models", db_models_list(d, 1000, err));
}

json_t *catalog_model_answer(db *d, long long id, struct err *err)
{
    if (id == 0) {
        err_set(err, ERR_NOT_FOUND, "not_found", NULL, "no such model");
        return NULL;
    }
    return db_model_get(d, id, err);
}

json_t *catalog_runs_answer(db *d, const struct db_run_filter *f, arena *a,
                            struct err *err)
{
    struct db_run_row *rows;
    json_t *arr, *out;
    int n = db_runs_list(d, f, a, &rows, err), i;

    if (n < 0)
        return NULL;
    arr = json_array();
    for (i = 0; i < n; i++)
        json_array_append_new(
            arr, rundoc_to_json(rows[i].id, &rows[i].run, rows[i].created_at));
    out = json_pack("{s:o, s:o}", "runs", arr, "next_after",
                    n == f->limit ? json_integer(rows[n - 1].id) : json_null());
    if (out == NULL)
        err_nomem(err);
    return out;
}

json_t *catalog_run_answer(db *d, long long id, arena *a, struct err *err)
{
    struct db_run_row row;
    int found = db_run_get(d, id, a, &row, err);
    json_t *v;

    if (found <= 0) {
        if (found == 0)
            err_set(err, ERR_NOT_FOUND, "not_found", NULL, "no run with id %lld", id);
        return NULL;
    }
    if ((v = rundoc_to_json(row.id, &row.run, row.created_at)) == NULL)
        err_nomem(err);
    return v;
}

int catalog_app_upsert_job(db *d, void *arg, struct err *err)
{
    struct catalog_upsert *u = arg;
    return db_app_upsert(d, u->name, u->fields, 0, err);
}

int catalog_system_upsert_job(db *d, void *arg, struct err *err)
{
    struct catalog_upsert *u = arg;
    return db_system_upsert(d, u->name, u->fields, 0, err);
}

/* The string at v.k1(.k2), or NULL. */
static const char *str_at(json_t *v, const char *k1, const char *k2)
{
    json_t *x = json_object_get(v, k1);
    if (k2 != NULL)
        x = json_object_get(x, k2);
    return json_string_value(x);
}

int catalog_model_prepare(struct catalog_model *s, const char *method, json_t *request,
                          json_t *answer, const char *name, arena *a, struct err *err)
{
    memset(s, 0, sizeof *s);
    s->method = method;
    s->name = name ? arena_strdup(a, name) : NULL;
    /* 17 digits: the stored answer round-trips bit-exactly (fit_json.h). */
    s->request_text = json_dumps(request, JSON_COMPACT | JSON_REAL_PRECISION(17));
    s->answer_text = json_dumps(answer, JSON_COMPACT | JSON_REAL_PRECISION(17));
    s->application = str_at(request, "application", NULL);
    if (s->application == NULL)
        s->application = str_at(answer, "application", NULL);
    s->application = s->application ? arena_strdup(a, s->application) : NULL;
    /* The formula of each method's answer: a fit's model, a parameterized
     * template's formula, a coupling's parsed expression. */
    s->formula = str_at(answer, "model", "formula");
    if (s->formula == NULL)
        s->formula = str_at(answer, "formula", NULL);
    if (s->formula == NULL)
        s->formula = str_at(answer, "parsed", NULL);
    s->formula = s->formula ? arena_strdup(a, s->formula) : NULL;
    if (s->request_text == NULL || s->answer_text == NULL) {
        catalog_model_release(s);
        return err_nomem(err);
    }
    return 0;
}

int catalog_model_save_job(db *d, void *arg, struct err *err)
{
    struct catalog_model *s = arg;
    if (db_model_save(d, s->method, s->application, s->formula, s->request_text,
                      s->answer_text, &s->id, err) != 0)
        return -1;
    return s->name ? db_model_name(d, s->id, s->name, err) : 0;
}

void catalog_model_release(struct catalog_model *s)
{
    xfree(s->request_text);
    xfree(s->answer_text);
    s->request_text = s->answer_text = NULL;
}
