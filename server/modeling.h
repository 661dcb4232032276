/* modeling: the three modeling methods behind one interface (SPEC §5).
 *
 * Each method (curve fitting, parameterization, kernel coupling) provides
 * three functions over JSON values; the JSON API (POST /api/v1/<method>,
 * saved models, predictions, plots) and the web forms all go through them,
 * so a model built in a form and one built over the API are the same thing.
 *
 *   answer:  builds the whole answer from a request body (database or inline
 *            form). d is a pooled read connection. The answer must hold
 *            everything predict and plot need (coefficients, resolved
 *            parameters, points), because a saved model is its stored
 *            request and answer and is never re-fitted.
 *   predict: evaluates a saved answer at one point. `point` is an object
 *            mapping variable names to numbers (from the query string of
 *            GET /api/v1/models/{id}/predict); variables the model does not
 *            use are ignored; a variable it needs and that is missing is a
 *            422 naming it. Returns {"x": ..., "y": ..., "lo": ..., "hi": ...}
 *            ("lo"/"hi" only where the method has an interval) or NULL.
 *   plot:    renders the answer's SVG plot into b (deterministic).
 *
 * All three return NULL / -1 with err set on failure and never produce NaN
 * or inf in a JSON answer.
 */
#ifndef PROPHECY_MODELING_H
#define PROPHECY_MODELING_H

#include <jansson.h>

#include "common/buf.h"
#include "common/err.h"
#include "db/db.h"

struct method {
    const char *name; /* "fit", "parameterize", "couple": the models.method column */
    json_t *(*answer)(db *d, json_t *request, struct err *err);
    json_t *(*predict)(json_t *answer, json_t *point, struct err *err);
    int (*plot)(json_t *answer, struct buf *b, struct err *err);
};

/* The method named name, or NULL. */
const struct method *method_find(const char *name);

/* The methods (defined in the file of each). */
json_t *fit_answer(db *d, json_t *request, struct err *err);
json_t *fit_predict_saved(json_t *answer, json_t *point, struct err *err);
int fit_plot(json_t *answer, struct buf *b, struct err *err);

json_t *param_answer(db *d, json_t *request, struct err *err);
json_t *param_predict_saved(json_t *answer, json_t *point, struct err *err);
int param_plot(json_t *answer, struct buf *b, struct err *err);

json_t *couple_answer(db *d, json_t *request, struct err *err);
json_t *couple_predict_saved(json_t *answer, json_t *point, struct err *err);
int couple_plot(json_t *answer, struct buf *b, struct err *err);
/* The coupling method's second plot: the per-kernel breakdown (coefficient x
 * kernel model) stacked per x, at the measured and predicted x values. */
int couple_plot_breakdown(json_t *answer, struct buf *b, struct err *err);

/* ---- saving (server/api_models.c) ------------------------------------------
 *
 * The one path by which a model is stored, shared by POST /api/v1/<method>
 * with "save": true and the Save button of the modeling forms (docs/web.md):
 * the request and the answer are stored as JSON through the writer thread
 * (models table; application and one-line formula for the catalog). */

struct req;
struct model_save {
    const struct method *m;
    json_t *answer; /* owned; dropped after finish returns */
    char *request_text, *answer_text;
    const char *application, *formula;
    long long id; /* the stored model's id once the write succeeded */
    int (*finish)(struct req *r);
    void *user; /* the caller's */
};

/* Stores request (borrowed: serialized before return) and answer (taken)
 * through http_defer_write. When the write is done, finish(r) runs with
 * r->ctx pointing at the struct model_save: r->job.rc != 0 means nothing was
 * stored (r->job.err says why), else s->id is the new model. Returns 0 once
 * deferred (the handler must return at once), or -1 with err set when
 * nothing could be queued (the answer is then released). */
int model_save(struct req *r, const struct method *m, json_t *request, json_t *answer,
               int (*finish)(struct req *r), void *user, struct err *err);

/* The /plots URL of an unsaved request (the "plot" field of an unsaved
 * answer), in the request's arena; NULL when the request is too long to
 * travel in a URL. */
const char *model_plot_url(struct req *r, const struct method *m, json_t *request);

#endif
