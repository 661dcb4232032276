/* form: decoding HTML form submissions from a complete request body
 * (outside data -> fields; formats/, so that views and fuzzers use it
 * without the server).
 *
 * Two encodings, as browsers send them: application/x-www-form-urlencoded
 * (name=value&..., '+' for space, %XX escapes) and multipart/form-data
 * (RFC 7578: parts separated by a boundary, each with a Content-Disposition
 * naming the field and, for a file, its file name). The body has already been
 * read within the server's body limit; every count and length below has its
 * own limit with a clear error. Decoded names and values live in the caller's
 * arena. Pure parsing: no I/O, no globals, thread-safe.
 *
 * Errors: ERR_BAD_REQUEST "bad_form" for a body that does not follow its encoding,
 * ERR_BAD_REQUEST "content_type" for another content type, ERR_TOO_LARGE "too_large" when
 * a limit is exceeded; the message says what and where.
 */
#ifndef PROPHECY_FORM_H
#define PROPHECY_FORM_H

#include <stddef.h>

#include "common/arena.h"
#include "common/err.h"
#include "formats/limits.h"

/* The limits, by their formats/limits.h names. */
#define FORM_MAX_FIELDS LIMIT_FORM_FIELDS
#define FORM_MAX_NAME LIMIT_FORM_NAME
#define FORM_MAX_TEXT LIMIT_FORM_TEXT
#define FORM_MAX_BOUNDARY LIMIT_FORM_BOUNDARY
#define FORM_MAX_PART_HEADERS LIMIT_FORM_PART_HEADERS
#define FORM_MAX_HEADER_LINE LIMIT_FORM_HEADER_LINE
#define FORM_MAX_FILENAME LIMIT_FORM_FILENAME

struct form_field {
    const char *name;         /* NUL-terminated */
    const char *value;        /* NUL-terminated; a file may also contain NUL bytes */
    size_t len;               /* bytes of value */
    const char *filename;     /* file parts only, else NULL */
    const char *content_type; /* a part's own Content-Type, else NULL */
};

struct form {
    struct form_field *fields; /* in the order sent; names may repeat */
    size_t n;
};

/* Percent-decodes s[0..n) into the arena, and '+' as a space when plus is
 * set: the one decoder of URL paths, query strings and urlencoded forms.
 * Returns the NUL-terminated result (its length in *outlen unless NULL), or
 * NULL with *why saying what was wrong ("bad %-escape", a NUL byte raw or
 * as %00, which no C string can carry) or *why NULL on out of memory. */
char *form_url_decode(arena *a, const char *s, size_t n, int plus, size_t *outlen,
                      const char **why);

/* Decodes body according to content_type (the request's Content-Type header,
 * parameters included). Returns 0 and fills *out (arena), or -1 with err set. */
int form_parse(const char *content_type, const char *body, size_t len, arena *a,
               struct form *out /* OUT */, struct err *err);

/* The two decoders. form_parse_multipart takes the boundary without the
 * leading "--". */
int form_parse_urlencoded(const char *body, size_t len, arena *a,
                          struct form *out /* OUT */, struct err *err);
int form_parse_multipart(const char *body, size_t len, const char *boundary, arena *a,
                         struct form *out /* OUT */, struct err *err);

/* The first field named name, or NULL. */
const struct form_field *form_find(const struct form *f, const char *name);
/* The value of the first field named name, or NULL. */
const char *form_get(const struct form *f, const char *name);

#endif
