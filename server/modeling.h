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

#endif
