/* catalog: writes to the catalog (system benchmarks and parameters,
 * templates, coupling measurements) from a request body to the store.
 *
 * Each write is parsed and validated first (formats/validate.h) into one of
 * the structs below — on the caller's thread, with the answer known before
 * anything is stored — then stored by its job function inside a transaction
 * (a group-commit writer job, db/writer.h). A job naming an application or
 * system that does not exist fails with ERR_NOT_FOUND naming it: only runs create them.
 */
#ifndef PROPHECY_CORE_CATALOG_H
#define PROPHECY_CORE_CATALOG_H

#include <jansson.h>
#include <stddef.h>

#include "common/arena.h"
#include "common/err.h"
#include "db/db.h"
#include "formats/record.h"

/* POST /api/v1/systems/{system}/benchmarks */
struct catalog_benchmarks {
    const char *system;
    struct bench_record *b;
    size_t n;
};
int catalog_benchmarks_parse(struct catalog_benchmarks *w, const char *system,
                             json_t *body, arena *a, struct err *err);
int catalog_benchmarks_job(db *d, void *arg, struct err *err);

/* POST /api/v1/systems/{system}/parameters (set) or DELETE .../{name}. */
struct catalog_params {
    const char *system;
    struct param_record *p;
    size_t n;
    const char *delete_name; /* non-NULL: delete this parameter instead */
};
int catalog_params_parse(struct catalog_params *w, const char *system, json_t *body,
                         arena *a, struct err *err);
/* The signature of parameter i as shown to users: NAME or NAME(args). */
const char *catalog_param_signature(const struct catalog_params *w, size_t i, arena *a);
int catalog_params_job(db *d, void *arg, struct err *err);

/* POST /api/v1/templates */
struct catalog_template {
    const char *name, *application, *kernel, *expression, *description;
};
int catalog_template_parse(struct catalog_template *t, json_t *body, arena *a,
                           struct err *err);
int catalog_template_job(db *d, void *arg, struct err *err);

/* POST /api/v1/couplings; ids[i] gets each stored measurement's id. */
struct catalog_couplings {
    struct coupling_record *c;
    size_t n;
    long long *ids;
};
int catalog_couplings_parse(struct catalog_couplings *w, json_t *body, arena *a,
                            struct err *err);
int catalog_couplings_job(db *d, void *arg, struct err *err);

/* DELETE /api/v1/watches/{id}, /runs/{id}, /models/{id},
 * /applications/{name} and /templates/{name}: the thing with everything that
 * hangs off it (db/history.h says what goes with each). Inside the caller's
 * transaction (a writer job). Returns 0, or -1 with err: ERR_NOT_FOUND when the thing
 * is not stored, ERR_CONFLICT for a template name that several applications share
 * when application is NULL. */
enum catalog_thing {
    CATALOG_WATCH,
    CATALOG_RUN,
    CATALOG_MODEL,
    CATALOG_APP,
    CATALOG_TEMPLATE
};
struct catalog_delete {
    enum catalog_thing what;
    long long id;                   /* watch, run, model */
    const char *name, *application; /* application (name); template (both) */
};
int catalog_delete(db *d, const struct catalog_delete *x, struct err *err);

#endif
