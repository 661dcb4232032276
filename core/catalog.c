/* catalog: catalog writes from body to store; see catalog.h. */
#include "core/catalog.h"
#include "db/catalog.h"
#include "db/history.h"
#include "formats/rundoc.h"
#include "formats/validate.h"

#include <string.h>

int catalog_benchmarks_parse(struct catalog_benchmarks *w, const char *system,
                             json_t *body, arena *a, struct err *err)
{
    memset(w, 0, sizeof *w);
    w->system = system;
    if (rundoc_check_name(system, strlen(system), "system", err) != 0)
        return -1;
    return validate_benchmarks(body, a, &w->b, &w->n, err);
}

int catalog_benchmarks_job(db *d, void *arg, struct err *err)
{
    struct catalog_benchmarks *w = arg;
    return db_benchmarks_add(d, w->system, w->b, w->n, err);
}

int catalog_params_parse(struct catalog_params *w, const char *system, json_t *body,
                         arena *a, struct err *err)
{
    memset(w, 0, sizeof *w);
    w->system = system;
    if (rundoc_check_name(system, strlen(system), "system", err) != 0)
        return -1;
    return validate_parameters(body, a, &w->p, &w->n, err);
}

const char *catalog_param_signature(const struct catalog_params *w, size_t i, arena *a)
{
    const struct param_record *p = &w->p[i];
    return p->args[0] ? arena_printf(a, "%s(%s)", p->name, p->args) : p->name;
}

int catalog_params_job(db *d, void *arg, struct err *err)
{
    struct catalog_params *w = arg;
    if (w->delete_name)
        return db_param_delete(d, w->system, w->delete_name, err);
    return db_params_set(d, w->system, w->p, w->n, err);
}

int catalog_template_parse(struct catalog_template *t, json_t *body, arena *a,
                           struct err *err)
{
    memset(t, 0, sizeof *t);
    return validate_template(body, a, &t->name, &t->application, &t->kernel,
                             &t->expression, &t->description, err);
}

int catalog_template_job(db *d, void *arg, struct err *err)
{
    struct catalog_template *t = arg;
    return db_template_put(d, t->name, t->application, t->kernel, t->expression,
                           t->description, err);
}

int catalog_couplings_parse(struct catalog_couplings *w, json_t *body, arena *a,
                            struct err *err)
{
    memset(w, 0, sizeof *w);
    if (validate_couplings(body, a, &w->c, &w->n, err) != 0)
        return -1;
    w->ids = arena_alloc(a, (w->n ? w->n : 1) * sizeof *w->ids);
    return w->ids ? 0 : err_nomem(err);
}

int catalog_couplings_job(db *d, void *arg, struct err *err)
{
    struct catalog_couplings *w = arg;
    return db_couplings_add(d, w->c, w->n, w->ids, err);
}

int catalog_delete(db *d, const struct catalog_delete *x, struct err *err)
{
    switch (x->what) {
    case CATALOG_WATCH:
        return db_watch_delete(d, x->id, err);
    case CATALOG_RUN:
        return db_run_delete(d, x->id, err);
    case CATALOG_MODEL:
        return db_model_delete(d, x->id, err);
    case CATALOG_APP:
        return db_app_delete(d, x->name, err);
    case CATALOG_TEMPLATE:
        return db_template_delete(d, x->name, x->application, err);
    }
    return err_set(err, ERR_INTERNAL, "internal", NULL,
                   "nothing of kind %d can be deleted", (int)x->what);
}
