/* rundoc: validating run documents from outside into run records (formats/record.h).
 *
 * One set of rules for every way a run arrives (JSON API, CSV import, web
 * form, prophecyd import): required fields, types, limits (SPEC §4). All
 * strings and arrays are allocated in the caller's arena. On the first rule
 * broken the error names the field ("runs[3].kernels[2].time").
 */
#ifndef PROPHECY_FORMATS_RUNDOC_H
#define PROPHECY_FORMATS_RUNDOC_H

#include <jansson.h>

#include "common/arena.h"
#include "common/err.h"
#include "formats/limits.h"
#include "formats/record.h"

/* Validates a body that is one run document or {"runs": [...]}. Sets *runs
 * (arena) and *n. Returns 0, or -1 with an ERR_INVALID error naming the field. */
int rundoc_parse_body(json_t *body, arena *a, struct run_record **runs, size_t *n,
                      struct err *err);

/* Validates one run document object into *out. */
int rundoc_parse(json_t *doc, arena *a, struct run_record *out, struct err *err);

/* Checks a name: non-empty, at most LIMIT_NAME bytes, valid UTF-8, no
 * control characters. Returns 0 or -1 with an ERR_INVALID error naming field. */
int rundoc_check_name(const char *s, size_t len, const char *field, struct err *err);
/* Checks a run's provenance (SPEC §11): commit 1-LIMIT_COMMIT bytes, branch a
 * name, at most LIMIT_TAGS tags with distinct names of at most LIMIT_IDENT
 * bytes and name-like values. Returns 0 or -1 with an ERR_INVALID error. */
int rundoc_check_provenance(const struct run_record *r, struct err *err);

/* Parses a CSV document (header application,executable,system,nprocs,runtime,
 * then input columns) into runs. Returns 0 or -1 with an ERR_INVALID error naming the
 * line and column. */
int rundoc_parse_csv(const char *text, size_t len, arena *a, struct run_record **runs,
                     size_t *n, struct err *err);

/* Returns 1 for "YYYY-MM-DDTHH:MM:SS[.fff][Z|+hh:mm]", else 0. */
int rundoc_valid_timestamp(const char *s);

/* Returns a JSON object for a stored run (its id, the record, when it was
 * stored) as the API shows it (new reference). */
json_t *rundoc_to_json(long long id, const struct run_record *run,
                       const char *created_at);

/* Returns the run as an import-compatible run document (new reference): what
 * rundoc_parse accepts, so an export can be imported elsewhere. */
json_t *rundoc_export_json(const struct run_record *run);

#endif
