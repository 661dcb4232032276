/* csrf: cross-site protection of the dashboard's forms that write
 * (docs/web.md "Saving and uploading from the browser"). A form carries a
 * token made here in a hidden field "csrf"; the POST handler checks it and
 * the browser's Sec-Fetch-Site / Origin headers before reading anything.
 * Transport only: no HTML (the views write the token they are given).
 */
#ifndef PROPHECY_CSRF_H
#define PROPHECY_CSRF_H

#include "common/err.h"
#include "server/http.h"

/* A CSRF token for a hidden field named "csrf": "TIME.HMAC", HMAC-SHA256
 * under the server's random per-process secret (struct app). Arena string. */
const char *csrf_token(struct req *r);
/* Checks a submitted CSRF token: made by this server process, at most 24 h
 * old. Returns 0, or -1 with a 403 "forbidden" error. */
int csrf_check(struct req *r, const char *token, struct err *err);
/* Refuses a request the browser marks as cross-site: Sec-Fetch-Site other
 * than same-origin, or an Origin other than http(s):// + Host, when sent.
 * Returns 0, or -1 with a 403 "forbidden" error. */
int csrf_check_origin(struct req *r, struct err *err);

#endif
