/* method: a modeling method is one row (SPEC §5, docs/architecture.md
 * "Adding a modeling method").
 *
 * Each method (curve fitting, parameterization, kernel coupling) is a set of
 * functions over JSON values; the JSON API (POST /api/v1/<method>, saved
 * models, predictions, plots) and the web forms all go through the row, so a
 * model built in a form and one built over the API are the same thing.
 *
 *   answer:  decodes a request (database or inline form), computes, and
 *            writes the whole answer. d is a pooled read connection. The
 *            answer holds everything predict and plot need (coefficients,
 *            resolved parameters, points), because a saved model is its
 *            stored request and answer and is never re-fitted; the code that
 *            writes an answer is the code that reads it back.
 *   predict: evaluates a saved answer at one point. `point` is an object
 *            mapping variable names to numbers; variables the model does not
 *            use are ignored; a variable it needs and that is missing is a
 *            ERR_INVALID naming it. Returns {"x": ..., "y": ..., "lo": ..., "hi": ...}
 *            ("lo"/"hi" only where the method has an interval) or NULL.
 *   plot:    renders the answer's SVG plot into b (deterministic; web/chart_*.c).
 *
 * All return NULL / -1 with err set on failure and never produce NaN or inf
 * in a JSON answer.
 *
 * core/ defines the row type and the computing functions; the table of rows
 * (which also names the charts of web/) is assembled in web/methods.c, the
 * one place that sees both, and method_find (web/methods.h) reads it.
 */
#ifndef PROPHECY_CORE_METHOD_H
#define PROPHECY_CORE_METHOD_H

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

#endif
