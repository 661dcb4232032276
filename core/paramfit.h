/* paramfit: a system parameter fitted from the system's stored benchmarks
 * (SPEC §5.2; docs/api.md "Fitting a system parameter").
 *
 * The request {"parameter", "benchmark"?, "form": "hockney" | "broadcast" |
 * "constant", "weighting"?, "aggregate"?, "stat"?, "store"?} is decoded, the
 * benchmarks are read through db/catalog.h and fitted by models/sysparam.
 */
#ifndef PROPHECY_CORE_PARAMFIT_H
#define PROPHECY_CORE_PARAMFIT_H

#include <jansson.h>

#include "common/arena.h"
#include "common/err.h"
#include "db/catalog.h"
#include "db/db.h"

struct paramfit {
    json_t *answer;            /* owned: {"system", "parameter", "expression", ...} */
    struct param_record param; /* the parameter to store (strings in the arena) */
    int store;                 /* the request asked to store it */
};

/* Decodes body, fits the benchmarks of `system` read through d (a read
 * connection) and fills out. 0, or -1 with err set (ERR_INVALID for the request or
 * the data, ERR_NOT_FOUND for an unknown system); nothing is written. */
int paramfit_build(db *d, const char *system, json_t *body, arena *a,
                   struct paramfit *out, struct err *err);

/* The statistic label of a benchmark's rows to use (rows of db_benchmarks_list):
 * want when given; else the only label present (NULL when the rows carry
 * none); else dflt when some row has it. Otherwise -1 with an ERR_INVALID at field
 * naming bench. *out points into rows or is want or dflt. */
int paramfit_stat(json_t *rows, const char *want, const char *dflt, const char *bench,
                  const char *field, const char **out, struct err *err);

#endif
