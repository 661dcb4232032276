/* catalog_read: the catalog's read answers and entity upserts, as the JSON
 * API and the pages receive them (SPEC §4).
 *
 * Each *_answer function reads through one connection and returns the whole
 * answer object (a new reference the caller decrefs), or NULL with err: ERR_NOT_FOUND
 * naming the application, system, template or model that does not exist.
 * Transport only chooses the connection and sends what comes back; the
 * answers' layout lives here. Thread-safe as the connection is.
 */
#ifndef PROPHECY_CORE_CATALOG_READ_H
#define PROPHECY_CORE_CATALOG_READ_H

#include <jansson.h>

#include "common/arena.h"
#include "common/err.h"
#include "db/db.h"
#include "db/runs.h"

/* {"applications": [...]} and {"systems": [...]}. */
json_t *catalog_apps_answer(db *d, struct err *err);
json_t *catalog_systems_answer(db *d, struct err *err);
/* One application or system (ERR_NOT_FOUND when absent). */
json_t *catalog_app_answer(db *d, const char *name, struct err *err);
json_t *catalog_system_answer(db *d, const char *name, struct err *err);
/* {"system": S, "benchmarks": [...]} (name NULL: every benchmark) and
 * {"system": S, "parameters": [...]}; ERR_NOT_FOUND when the system does not exist. */
json_t *catalog_benchmarks_answer(db *d, const char *system, const char *name,
                                  struct err *err);
json_t *catalog_params_answer(db *d, const char *system, struct err *err);
/* {"templates": [...]} of application app (NULL: all). */
json_t *catalog_templates_answer(db *d, const char *app, struct err *err);
/* One template; with app non-NULL the one of that application (two
 * applications may share a template name). */
json_t *catalog_template_answer(db *d, const char *name, const char *app,
                                struct err *err);
/* {"couplings": [...]} of app and system (either NULL: any). */
json_t *catalog_couplings_answer(db *d, const char *app, const char *sys,
                                 struct err *err);

/* {"models": [...]}: the newest 1,000 saved models. */
json_t *catalog_models_answer(db *d, struct err *err);
/* Saved model id; ERR_NOT_FOUND "no such model" when id is 0 (not an id) or nothing
 * is stored under it. */
json_t *catalog_model_answer(db *d, long long id, struct err *err);

/* {"runs": [...], "next_after": ID|null}: the runs that f selects, in id
 * order after f->after, at most f->limit (the cursor is the last id, stable
 * under concurrent inserts since new runs get larger ids). */
json_t *catalog_runs_answer(db *d, const struct db_run_filter *f, arena *a,
                            struct err *err);
/* Run id as its run document; ERR_NOT_FOUND "no run with id ID" when there is none. */
json_t *catalog_run_answer(db *d, long long id, arena *a, struct err *err);

/* PUT /api/v1/applications/{name} and /systems/{name}: writer jobs whose arg
 * is a struct catalog_upsert (fields validated by the caller). */
struct catalog_upsert {
    const char *name;
    json_t *fields;
};
int catalog_app_upsert_job(db *d, void *arg, struct err *err);
int catalog_system_upsert_job(db *d, void *arg, struct err *err);

/* A model to store (the one path of POST /api/v1/<method> with "save": true
 * and the forms' Save): the request and the answer as JSON text, with the
 * catalog's application and one-line formula read from them. */
struct catalog_model {
    const char *method;
    char *request_text, *answer_text;  /* xfree'd by catalog_model_release */
    const char *application, *formula; /* in the arena given to prepare, or NULL */
    const char *name;                  /* the model's optional name or NULL */
    long long id;                      /* the stored model's id once written */
};
/* Fills s from request and answer (both borrowed) and name (copied; NULL for
 * none). Returns 0, or -1 with err (out of memory; nothing to release). */
int catalog_model_prepare(struct catalog_model *s, const char *method, json_t *request,
                          json_t *answer, const char *name, arena *a, struct err *err);
/* Writer job (arg: struct catalog_model *): stores it and names it; s->id. */
int catalog_model_save_job(db *d, void *arg, struct err *err);
/* Frees the texts; safe to call twice. */
void catalog_model_release(struct catalog_model *s);

#endif
