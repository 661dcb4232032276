/* upl_run: run documents on the client side: reading input files, ids, times.
 *
 * Turns a file (JSON: one run object or {"runs": [...]}; or CSV) into an array
 * of run objects and makes sure each carries an "id" so that every later
 * retry is idempotent on the server. It checks only the outer shape; the
 * server validates the fields. No network, no spool.
 */
#ifndef PROPHECY_UPL_RUN_H
#define PROPHECY_UPL_RUN_H

#include "common/err.h"

#include <jansson.h>
#include <stddef.h>

#define UPL_FILE_MAX ((size_t)64 << 20) /* bytes per input file */
#define UPL_ID_LEN 32                   /* hex digits of a generated id */

/* Reads a whole regular file of at most `max` bytes. OUT: *data (NUL-terminated,
 * free with xfree), *len. Returns 0, or -1 with err: 413 "too_large" when over
 * `max`, 400 "io" when unreadable. */
int upl_read_file(const char *path, size_t max, char **data, size_t *len,
                  struct err *err);

/* Parses `len` bytes as JSON (csv = 0) or CSV (csv = 1) into a new array of
 * run objects (caller json_decref). Runs without an "id" get one derived from
 * the bytes of the file and the run's position, so uploading the same file
 * twice stores its runs once. NULL with err on malformed input (the message
 * names the line/column or the run index). */
json_t *upl_parse_runs(const char *data, size_t len, int csv, struct err *err);

/* Writes UPL_ID_LEN random hex digits and a NUL into out (at least
 * UPL_ID_LEN + 1 bytes) from /dev/urandom. Returns 0 or -1 with err. */
int upl_random_id(char *out, size_t outsz, struct err *err);

/* Writes the current UTC time as "YYYY-MM-DDTHH:MM:SSZ" into out (>= 21
 * bytes). Returns out. */
char *upl_iso8601_now(char *out, size_t outsz);

/* The body to POST for runs[from .. from+n): the run itself when n == 1,
 * otherwise {"runs": [...]}. New reference, NULL when out of memory. */
json_t *upl_batch_body(json_t *runs, size_t from, size_t n);

/* The runs inside a body made by upl_batch_body (or read from a spool
 * file): a new reference to an array. NULL if the body has neither shape. */
json_t *upl_body_runs(json_t *body);

#endif
