/* method_param: parameterization as a modeling method (SPEC §5.2;
 * core/method.h).
 *
 * A request names a template expression (inline, or a stored template), the
 * system parameters it is evaluated with and a fixed value or a range for
 * every variable (docs/api.md "Parameterization"). The answer schema,
 * written by param_answer and read back by param_predict_saved (and by
 * web/chart_param.c):
 *
 *   {"template", "application", "system" (null when not given), "kernel"?,
 *    "expression", "parsed", "parameters": {signature: text},
 *    "vars": {name: number | [min, max, steps]},
 *    "value"? (all fixed) | "grid"?: {"x", "xs", "ys"} or
 *                                    {"x", "y", "xs", "ys", "z": [[...]]},
 *    "alpha"?: {"variable", "degree", "coefficients"},
 *    "measured"?: [{"x", "runtime", "min", "max", "runs", "model",
 *                   "error_pct"?}],
 *    "error"?: {"points", "runs", "capped", "mean_abs_pct"?, "max_abs_pct"?}}
 *
 * A saved answer never reads the database again: the expression is parsed
 * anew from "expression" and "parameters".
 */
#ifndef PROPHECY_CORE_METHOD_PARAM_H
#define PROPHECY_CORE_METHOD_PARAM_H

#include <jansson.h>

#include "common/err.h"
#include "db/db.h"

/* The answer to a parameterization request (new reference), or NULL. */
json_t *param_answer(db *d, json_t *request, struct err *err);

/* A saved answer at point ({name: number}): the variables given as ranges
 * are required (ERR_INVALID naming the first missing); fixed ones keep their saved
 * value unless point gives another; P and nprocs are one variable. */
json_t *param_predict_saved(json_t *answer, json_t *point, struct err *err);

#endif
