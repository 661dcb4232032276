/* fit_json: a fitted model (struct fit_model) to JSON and back.
 *
 * A saved model is its stored answer and is never re-fitted (modeling.h), so
 * whatever evaluates it later, prediction intervals included, must travel in
 * the JSON: these two functions write every field of struct fit_model and
 * read it back bit for bit (doubles are written with 17 significant digits,
 * which Jansson's reader turns back into the same double). Used by the
 * coupling method for each kernel's model and by saved curve fits.
 *
 * Shape (arrays of nvars or nterms entries; r is row-major nterms x nterms):
 *   {"nvars": 1, "nterms": 2, "graph": "inv1", "chosen": "inv1",
 *    "terms": [{"expo": [0], "logp": [0]}, {"expo": [-1], "logp": [0]}],
 *    "coef": [...], "scale": [...], "r": [...], "relative": false,
 *    "s2": ..., "dof": 3, "has_interval": true, "xmin": [...], "xmax": [...],
 *    "xunc": 0.05, "outliers": 0, "seg_x": 0, "positive": false}
 * xunc, outliers, seg_x and positive (the extrapolating `auto`, models/fit.h) are
 * optional on reading: models saved before them load with 0, which predicts
 * exactly as they did. A one-variable `auto` also carries "lean" (its fit's
 * weight toward the largest x; absent: 0). A two-variable `auto` also carries its forward
 * folds, "folds": [{"var": 0, "coef": [...]}, ...] (written only then; a model without
 * them predicts as before they existed).
 */
#ifndef PROPHECY_CORE_FIT_JSON_H
#define PROPHECY_CORE_FIT_JSON_H

#include <jansson.h>

#include "common/err.h"
#include "models/fit.h"

/* Returns a new JSON object holding m (caller json_decref's it), or NULL on
 * out of memory or when m holds a non-finite number or sizes out of range.
 * Thread-safe. */
json_t *fit_model_to_json(const struct fit_model *m);

/* Reads a model written by fit_model_to_json into *out and checks it with
 * fit_model_check. Every key but xunc, outliers, seg_x, positive, basis, folds and lean
 * is required and no other key is allowed; sizes are checked before any array is read
 * (nvars 1..FIT_MAX_VARS, nterms 1..FIT_MAX_TERMS, arrays of exactly the stated length).
 * Returns 0, or -1 with an ERR_INVALID "invalid" error whose field names the key at fault
 * ("model.coef"); *out is then zeroed. Thread-safe. */
int fit_model_from_json(json_t *v, struct fit_model *out /* OUT */, struct err *err);

/* A point of nvars coordinates as an answer writes it: a number for one
 * variable, else an array. NULL on out of memory. */
json_t *fit_x_json(const double *x, int nvars);

/* One prediction of m at x: {"x", "y", "lo", "hi", "interval",
 * "extrapolation", "warning"?}, or NULL with err. The interval includes the
 * uncertainty of the law itself beyond the data (fit_predict_ext);
 * "extrapolation" is 0 inside the measured range and log2 of the ratio to
 * the nearest measured end beyond it; "warning" is there when fit_warning
 * has a sentence. Thread-safe. */
json_t *fit_prediction_json(const struct fit_model *m, const double *x, struct err *err);

#endif
