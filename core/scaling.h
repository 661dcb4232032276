/* scaling: a whole application's scaling at once (SPEC §18, Extra-P's main
 * view, Calotoiu et al.'s scalability bugs): every kernel, every run metric
 * and the runtime of one selection of an application's runs modelled over
 * one x with `auto`, each kernel's share of the modelled runtime at the
 * largest measured x and at a target, the bottleneck at the target, and the
 * kernels that scale worse than the whole.
 *
 * Each series is fitted by curve fitting's database form (core/method_fit.h,
 * y = kernel:NAME, metric:NAME or runtime, graph auto), so a row's formula,
 * prediction, interval, extrapolation and warning are those POST
 * /api/v1/fit answers for the same selection. The modelled runtime is the
 * sum of the kernels' laws (a prediction below 0 counts as 0). No HTTP,
 * SQL or HTML here.
 */
#ifndef PROPHECY_CORE_SCALING_H
#define PROPHECY_CORE_SCALING_H

#include <jansson.h>

#include "common/err.h"
#include "db/db.h"

/* A law needs at least this many distinct values of x (auto's minimum). */
#define SCALING_MIN_POINTS 3
/* A kernel scales worse than the whole when its share of the modelled
 * runtime at the target is at least this times its share at the largest
 * measured x (it grows by a tenth more than the sum of all kernels). */
#define SCALING_WORSE 1.1
/* ... and is at least this part of it at the target: a kernel of 1e-6 % of
 * the runtime that grows to 2e-6 % is noise, not a scalability bug. */
#define SCALING_WORSE_SHARE 0.001
/* The application page models at most this many runs (the selection's)
 * without being asked: more, and it shows the picker to ask (each fit reads
 * its runs' values in SQL; docs/web.md "Performance"). */
#define SCALING_PAGE_RUNS 2000

/* The answer of GET /api/v1/applications/{name}/scaling (docs/api.md):
 * query holds the query parameters as strings (borrowed): "x" (nprocs or an
 * input; default nprocs), "target" (a number > 0; default 4 times the
 * largest measured x), "executable", "system", "input.NAME" (fixed inputs).
 * Other names are the caller's to refuse.
 *
 * {"application", "x", "target", "measured": largest x, "selection":
 *  {"system", "executable"?, "executables"? (SCALING_CHOOSE: of how many
 *   executables, each a curve of its own, "executable" was chosen as the one
 *   measured at the most values of x), "fixed": {...} (null: the runs without
 *   that input),
 *   "values": [x...], "runs": N, "varies_with_x"?: [names at one value per x]},
 *  "kernels": [{"name", "formula", "measured", "y", "lo", "hi",
 *    "extrapolation", "warning"?, "share_measured", "share_target",
 *    "worse_than_whole", "points"}] (largest share at the target first),
 *  "bottleneck": NAME | null, "total": {"measured", "target"},
 *  "runtime": {"formula", "measured", "y", "lo", "hi", "extrapolation",
 *    "warning"?, "points"} | null, "metrics": [rows as "runtime"'s with "name"],
 *  "skipped": [{"kind": "kernel" | "metric" | "runtime", "name", "reason"}]}
 *
 * flags: without SCALING_CHOOSE (the API) a selection that spans several
 * systems or whose runs differ in an input other than x is an ERR_INVALID naming the
 * field to fix ("system", "input.NAME"); with it (the application page) the
 * group of runs measured at the most values of x is taken, and "selection"
 * says which. SCALING_SELECT_ONLY answers the selection alone (the members
 * up to "selection", no fit: a read of the configuration summaries), so a
 * page can tell what the fits would cost before it makes them. Errors: ERR_NOT_FOUND for
 * an unknown application, executable or system; ERR_INVALID "invalid" for a bad x, target
 * or input.NAME (field named); ERR_INVALID "degenerate" when the selection has fewer than
 * SCALING_MIN_POINTS values of x; ERR_TOO_LARGE for more than LIMIT_SCALING_CONFIGS
 * configurations; ERR_INTERNAL on a database failure. A series that cannot be fitted (too
 * few points) is listed in "skipped" with the reason, never dropped. New reference, or
 * NULL with err set. d is used by one thread at a time. */
#define SCALING_CHOOSE 1
#define SCALING_SELECT_ONLY 2
json_t *scaling_answer(db *d, const char *application, json_t *query, int flags,
                       struct err *err);

#endif
