/* method_couple: kernel coupling as a modeling method (SPEC §5.3;
 * core/method.h).
 *
 * Requests: inline kernels, measurements and couplings, or a database
 * selection of runs' kernel records and stored couplings (docs/api.md
 * "Kernel coupling", which also gives the answer). The answer is written by
 * couple_answer and read back, for predictions and the charts, by the one
 * loader and evaluator of core/couple_saved.h; each fitted kernel's state is
 * core/fit_json.h.
 */
#ifndef PROPHECY_CORE_METHOD_COUPLE_H
#define PROPHECY_CORE_METHOD_COUPLE_H

#include <jansson.h>

#include "common/err.h"
#include "db/db.h"

/* The answer to a coupling request (new reference), or NULL with err set. */
json_t *couple_answer(db *d, json_t *request, struct err *err);

/* A saved answer at point: x (or P for nprocs) is required. */
json_t *couple_predict_saved(json_t *answer, json_t *point, struct err *err);

#endif
