/* upl_http: the uploader's one connection to the Prophecy server (libcurl).
 *
 * POSTs JSON with the bearer token and sorts every answer into what the
 * uploader must do with the document: delivered (2xx), retry later
 * (connection failure, timeout, 5xx, 408, 429) or rejected (any other status;
 * the server's {"error": {"code", "message", "field"}} is kept for the user).
 * One handle is reused so consecutive requests share a keep-alive connection.
 * Not thread-safe: one upl_http per thread.
 */
#ifndef PROPHECY_UPL_HTTP_H
#define PROPHECY_UPL_HTTP_H

#include "common/err.h"

#include <stddef.h>

typedef struct upl_http upl_http;

enum upl_outcome { UPL_DELIVERED = 0, UPL_RETRY = 1, UPL_REJECTED = 2 };

struct upl_reply {
    enum upl_outcome outcome;
    long status;       /* HTTP status, 0 when no answer came */
    int unreachable;   /* no answer at all: the server is down or unreachable */
    char code[64];     /* server error code, or "" */
    char message[512]; /* server's message, or the transport error */
    char field[256];   /* server's field path, or "" */
};

/* Process-wide libcurl set-up; call once before any upl_http_new() (not
 * thread-safe, as curl_global_init). Returns 0 or -1. */
int upl_http_global_init(void);

/* A client for `server` (e.g. "http://127.0.0.1:8080", no trailing path) with
 * bearer `token` (may be NULL). Strings are copied. `timeout_s` bounds each
 * request (connect at most 5 s of it). Free with upl_http_free(). NULL with
 * err when out of memory or curl cannot be set up. */
upl_http *upl_http_new(const char *server, const char *token, long timeout_s,
                       struct err *err);
void upl_http_free(upl_http *h);
/* Changes the per-request timeout (seconds, >= 1). */
void upl_http_set_timeout(upl_http *h, long timeout_s);

/* POSTs `len` bytes of JSON to server + path (path starts with '/'). Fills
 * *out (always, also on transport errors). Returns 0 when a classification was
 * made, -1 only when the request could not even be built. */
int upl_http_post(upl_http *h, const char *path, const char *body, size_t len,
                  struct upl_reply *out);

/* The same with another method sending a JSON body ("PUT"). */
int upl_http_send(upl_http *h, const char *method, const char *path, const char *body,
                  size_t len, struct upl_reply *out);

/* POSTs a tar archive (Content-Type: application/x-tar), classified as
 * upl_http_post. */
int upl_http_post_tar(upl_http *h, const char *path, const char *body, size_t len,
                      struct upl_reply *out);

/* GETs server + path (path starts with '/', query included). Fills *out as
 * upl_http_post does; the answer's body is then upl_http_body(). Returns 0
 * when a classification was made, -1 only when the request could not be built. */
int upl_http_get(upl_http *h, const char *path, struct upl_reply *out);

/* The body of the last answer (any status), NUL-terminated, owned by h and
 * valid until the next request; *len gets its length. Bodies over
 * UPL_HTTP_ANSWER_MAX_MIB MiB are cut short: then NULL. */
#define UPL_HTTP_ANSWER_MAX_MIB 256
const char *upl_http_body(upl_http *h, size_t *len);

/* URL-encodes s for one path segment into a new string (free with
 * upl_http_free_str), or NULL when out of memory. */
char *upl_http_escape(upl_http *h, const char *s);
void upl_http_free_str(char *s);

#endif
