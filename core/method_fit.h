/* method_fit: curve fitting as a modeling method (SPEC §5.1; core/method.h).
 *
 * Requests: the inline form {"data": [[x, y], ...], "x": "N", ...} or the
 * database form {"application", "system", "x", "fixed", "range", "y", ...}
 * (docs/api.md "Curve fitting"). The answer schema, written by fit_answer
 * and read back by fit_answer_read / fit_predict_saved:
 *
 *   {"model": {"graph", "chosen", "formula", "expression", "coefficients",
 *              "rss", "resnorm", "r2", "adj_r2", "rmse", "smape", "cv_rmse",
 *              "points", "observations", "state": <core/fit_json.h>},
 *    "points": [{"x", "y", "ymin", "ymax", "n", "fit", "residual"}],
 *    "predictions": [{"x", "y", "lo", "hi", "interval"}],
 *    "vars": [names], "y": "runtime" | ..., "aggregate": "mean" | ...,
 *    "application"?: label, "selection"?: {"application", "system",
 *    "executable"?, "fixed", "runs"}}
 *
 * ("x" is a number with one variable, [x1, x2] with two.)
 */
#ifndef PROPHECY_CORE_METHOD_FIT_H
#define PROPHECY_CORE_METHOD_FIT_H

#include <jansson.h>

#include "common/err.h"
#include "db/db.h"
#include "models/fit.h"

/* The answer to a fit request (new reference), or NULL with err set. */
json_t *fit_answer(db *d, json_t *request, struct err *err);

/* POST /api/v1/suggest (SPEC §14): the request of fit_answer (either form)
 * without "predict", plus "target" (a point) and "candidates" (1 to
 * LIMIT_SUGGEST points). Fits, then ranks the candidates by how much one more
 * measurement there is expected to narrow the 95 % interval at the target
 * (fit_suggest). Answer: {"suggestions": [{"x", "narrowing"}, ...] largest
 * narrowing first, "target": <a prediction as in "predictions">, "model":
 * {"graph", "chosen", "formula"}}. NULL with an ERR_INVALID for a missing or
 * non-finite target, no or too many candidates, a target or candidate out of
 * the law's domain (x <= 0 under a log or inverse term), or a fit without an
 * interval. */
json_t *fit_suggest_answer(db *d, json_t *request, struct err *err);

/* The same ranking from an answer alone (a fresh or saved fit answer: its
 * model state and points), as the form's "Measure next" table uses it:
 * target (nvars values), ncand (1..LIMIT_SUGGEST) candidate points.
 * {"suggestions": [...], "target": <prediction>} or NULL with err. */
json_t *fit_suggest_saved(json_t *answer, const double *target, const double *cand,
                          size_t ncand, struct err *err);

/* A saved (or fresh) answer evaluated at point ({name: number}). */
json_t *fit_predict_saved(json_t *answer, json_t *point, struct err *err);

/* Reads the fitted model and its variable names (borrowed from answer,
 * FIT_MAX_VARS of room) back from an answer. 0, or -1 with an ERR_INVALID. */
int fit_answer_read(json_t *answer, struct fit_model *m, const char **names,
                    struct err *err);

#endif
