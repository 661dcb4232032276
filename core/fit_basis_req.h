/* fit_basis_req: the "basis" of a fit or suggest request (core/method_fit),
 * a machine curve the law follows: y = c0 + c1 * B(x) (docs/models.md §12).
 *
 * Inline: {"name": "MPISR", "data": [[x, t], ...]}. Stored: a system's
 * benchmark, {"benchmark": "MPISR", "system"?, "label"?, "test"?, "arg"?,
 * "at"?, "stat"?} ("system" defaults to the request's in the database form;
 * "label" and "test": the series, one of those the benchmark has on the
 * system (an OSU log's placements, docs/import.md), needed when it has
 * several, never pooled; "stat": the rows' statistic label, default the
 * only one, else "min"; "arg": the curve's
 * argument, default the one that varies over the rows; "at": values fixing
 * the other arguments that vary). Arguments <= 0 (OSU's 0-byte line) are
 * left out of a stored curve. Either may add "scale" and "power": the curve
 * is read at scale * x^power, the application's working set at x (defaults
 * 1 and 1). Limits: formats/limits.h LIMIT_BASIS_*.
 */
#ifndef PROPHECY_CORE_FIT_BASIS_REQ_H
#define PROPHECY_CORE_FIT_BASIS_REQ_H

#include <jansson.h>

#include "common/arena.h"
#include "common/err.h"
#include "core/bench_series.h"
#include "db/db.h"
#include "models/fit.h"

struct basis_req {
    json_t *stored;          /* a stored curve to read (borrowed), or NULL */
    struct fit_basis *curve; /* the curve (arena), or NULL: no basis (yet) */
    double scale, power;     /* "scale", "power": read at scale * x^power */
    /* a stored curve's series ("label", "test"): as asked once decoded, as
     * read once resolved (arena; "" for none); NULL for an inline curve */
    struct bench_series series;
};

/* Decodes body's "basis" into *out (zeroed first; no "basis": both NULL).
 * An inline curve is built now; a stored one is checked and left to
 * basis_resolve. from_db: the request is of the database form (a stored
 * curve may omit "system"). 0, or -1 with an ERR_INVALID (ERR_TOO_LARGE over the limits)
 * whose field is basis.*. */
int basis_decode(json_t *body, int from_db, arena *a, struct basis_req *out,
                 struct err *err);

/* Reads a stored curve through d (a read connection) from system (its
 * "system", else system_default); nothing to do without one. Sets b->series
 * to the series read. 0, or -1 with ERR_NOT_FOUND for an unknown
 * system, ERR_INVALID for rows that make no curve, for a label or test the
 * benchmark does not have (fields basis.label, basis.test) and for a
 * benchmark of several series the request does not choose among (field
 * basis.label, or basis.test when only the tests differ; the message lists
 * the choices), ERR_TOO_LARGE for too many. */
int basis_resolve(db *d, const char *system_default, arena *a, struct basis_req *b,
                  struct err *err);

/* Adds what names a stored curve's series to an answer's "model.basis"
 * (model_basis): its "label" and its "test" when it has them (not "").
 * Nothing for an inline curve. 0, or -1 on out of memory. */
int basis_describe(const struct basis_req *b, json_t *model_basis);

#endif
