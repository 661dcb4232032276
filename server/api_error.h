/* api_error: the one place that turns a struct err into an HTTP status and
 * an HTTP error body.
 *
 * The body is {"error": {"code": ..., "message": ..., "field": ...}} with
 * "field" present only when one field is at fault (SPEC §4).
 */
#ifndef PROPHECY_API_ERROR_H
#define PROPHECY_API_ERROR_H

#include <stddef.h>

#include "common/err.h"

/* The HTTP status of an error code: 400 bad request, 401, 403, 404, 405,
 * 409 conflict, 413 too large, 422 invalid, 502 bad answer, 503 unavailable,
 * 507 no space; 500 for an internal error, out of memory and ERR_NONE (a
 * failure that recorded nothing). */
int api_error_status(enum err_code code);

/* Returns the HTTP status for e (500 when e holds no status) and writes a
 * malloc'd JSON body to *body (free with xfree; NULL on out of memory). */
int api_error_json(const struct err *e, char **body, size_t *len);

#endif
