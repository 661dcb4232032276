/* fit_json: a fitted model (struct fit_model) to JSON and back.
 *
 * Saved models are stored as their JSON answer and evaluated again later, so
 * the whole state of a fit — terms, coefficients, column scales, the R factor
 * and the residual variance behind the prediction intervals — travels as a
 * JSON object. With 17 significant digits (JSON_REAL_PRECISION(17)) the round
 * trip is bit-exact. Reading checks every field and the model as a whole
 * (fit_model_check), because a stored answer is outside input too.
 */
#ifndef PROPHECY_FIT_JSON_H
#define PROPHECY_FIT_JSON_H

#include <jansson.h>

#include "common/err.h"
#include "models/fit.h"

/* Returns a new object holding every field of m, or NULL on out of memory. */
json_t *fit_model_to_json(const struct fit_model *m);

/* Reads what fit_model_to_json wrote into *m. Returns 0, or -1 with 422
 * "invalid" (field "model") for a missing, mistyped or out-of-range field. */
int fit_model_from_json(json_t *v, struct fit_model *m, struct err *err);

#endif
