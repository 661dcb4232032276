/* api_error: the one place that turns a struct err into an HTTP error body.
 *
 * The body is {"error": {"code": ..., "message": ..., "field": ...}} with
 * "field" present only when one field is at fault (SPEC §4).
 */
#ifndef PROPHECY_API_ERROR_H
#define PROPHECY_API_ERROR_H

#include <stddef.h>

#include "common/err.h"

/* Returns the HTTP status for e (500 when e holds no status) and writes a
 * malloc'd JSON body to *body (free with xfree; NULL on out of memory). */
int api_error_json(const struct err *e, char **body, size_t *len);

#endif
