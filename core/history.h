/* history: series and comparisons of stored runs (SPEC §11).
 *
 * Both take the request's query parameters as a JSON object of decoded
 * strings (what the adapter read off the URL) and answer the JSON of
 * docs/api.md ("History, comparison and regression detection"). They read
 * through db/history.h and compute with models/detect.h; no HTTP, no SQL.
 */
#ifndef PROPHECY_CORE_HISTORY_H
#define PROPHECY_CORE_HISTORY_H

#include <jansson.h>

#include "common/arena.h"
#include "common/err.h"
#include "db/db.h"

/* GET /api/v1/series: one configuration's values of y in time order, with
 * the judgements of the watches covering it. Errors: ERR_BAD_REQUEST bad_parameter for
 * a malformed value, ERR_INVALID for a missing parameter or several matching
 * configurations ("ambiguous"), ERR_NOT_FOUND for none. Returns a new reference or
 * NULL with err set. */
json_t *history_series(db *d, json_t *query, struct err *err);

/* The same answer written as JSON text into out: byte for byte what
 * json_dumps(history_series(...), JSON_COMPACT | JSON_REAL_PRECISION(16))
 * writes (the API's encoding), streamed from the read without a JSON value
 * per point (a 100,000-point series in milliseconds). Same errors; out's
 * overflow is ERR_TOO_LARGE too_large. Returns 0, or -1 with err set (out is then
 * reset). */
struct buf;
int history_series_text(db *d, json_t *query, struct buf *out, struct err *err);
/* The alerts of the one configuration and y a series query names (newest
 * first, at most LIMIT_ALERTS_PAGE), in GET /api/v1/alerts' shape: what the
 * history page lists (SPEC §17). New reference or NULL with err set. */
json_t *history_series_alerts(db *d, json_t *query, struct err *err);

/* GET /api/v1/changes: the change points (models/changes.h, default
 * options) of y (default runtime) over the whole history of every
 * configuration the filter matches: {"changes": [{"configuration":
 * {executable, system, nprocs, inputs}, "y", "run", "commit", "from_commit",
 * "to_commit", "before", "after", "ratio", "p_value"}]} in configuration
 * order, then time order. Errors as history_series, ERR_TOO_LARGE for more than
 * LIMIT_CHANGES_CONFIGS configurations. */
json_t *history_changes(db *d, json_t *query, struct err *err);

/* GET /api/v1/compare: sides a, b, ... h, per configuration and quantity:
 * n, mean, spread, ratio to side a, Welch's significance at 5 %. */
json_t *history_compare(db *d, json_t *query, struct err *err);
/* The compare page's picker (SPEC §17): application app's branches and
 * commits, the newest first, at most HISTORY_REFS of each, as
 * db_history_refs answers them. */
#define HISTORY_REFS 200
json_t *history_refs(db *d, const char *app, struct err *err);

/* An executable's build settings as PUT /api/v1/applications/{app}/
 * executables/{name} takes them: {"compiler", "flags", "version"}, each an
 * optional string of at most LIMIT_NAME bytes (omitted: unchanged). */
struct history_build {
    const char *compiler, *flags, *version;
};
/* Checks body into out (strings borrowed from body). 0 or -1 (ERR_INVALID). */
int history_build_check(json_t *body, struct history_build *out, struct err *err);

/* Reads the configuration filter of a query (application, executable,
 * system, nprocs, input.NAME) into f, with inputs_json in a. Returns 0 or
 * -1 (ERR_BAD_REQUEST for a malformed nprocs or input value). For core/watch.c too. */
struct db_history_filter;
int history_query_filter(json_t *query, arena *a, struct db_history_filter *f,
                         struct err *err);

#endif
