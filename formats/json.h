/* json: the one toolkit for decoding JSON requests into typed values.
 *
 * Every reader of a JSON body (the modeling methods' requests and saved
 * answers, and any later adopter) takes its numbers, names and field checks
 * from here, so that the same mistake gets the same ERR_INVALID everywhere. Errors
 * are err_invalid (ERR_INVALID "invalid") whose field is the path given by the
 * caller ("data[3]", "vars", "model.coef"); messages name that path.
 * Bounds come from formats/limits.h (LIMIT_NAME for names).
 *
 * All functions are thread-safe and touch nothing but their arguments.
 */
#ifndef PROPHECY_FORMATS_JSON_H
#define PROPHECY_FORMATS_JSON_H

#include <jansson.h>
#include <stddef.h>

#include "common/arena.h"
#include "common/err.h"

/* v as a finite number into *out; else ERR_INVALID "PATH must be a finite number". */
int json_get_number(json_t *v, const char *path, double *out, struct err *err);

/* An array of exactly n finite numbers (n == 0: any length up to max) into
 * out (room for max); *count gets the length when count is not NULL. The
 * error's field is path; the message names the entry ("range[1]"). */
int json_get_numbers(json_t *v, const char *path, size_t n, size_t max, double *out,
                     size_t *count, struct err *err);

/* A name: a string of 1 to max bytes (max <= LIMIT_NAME for catalog names),
 * valid UTF-8, without control characters. Returns a copy in a, or NULL with
 * an ERR_INVALID whose field is path. */
const char *json_get_name(json_t *v, const char *path, size_t max, arena *a,
                          struct err *err);

/* The same test on a C string of len bytes (0 or -1 with err). */
int json_check_name(const char *s, size_t len, const char *path, size_t max,
                    struct err *err);

/* A variable name that may appear in formula text: [A-Za-z_][A-Za-z0-9_]*,
 * at most LIMIT_NAME bytes. 0 or -1 with an ERR_INVALID whose field is path. */
int json_check_ident(const char *s, const char *path, struct err *err);

/* Strict objects: every key of obj must be one of allowed (NULL-terminated);
 * else ERR_INVALID "unknown field KEY in the WHAT" with field KEY (a key over 64
 * bytes is not echoed). obj must be an object (else ERR_INVALID, field NULL). */
int json_only_fields(json_t *obj, const char *const *allowed, const char *what,
                     struct err *err);

/* Strict nested objects: every key of obj must be one of allowed; else ERR_INVALID
 * "unknown field KEY in PATH" whose field is path ("kernels[2]"), or, with
 * path "", "unknown field KEY" whose field is the key. */
int json_only_fields_at(json_t *obj, const char *const *allowed, const char *path,
                        struct err *err);

/* v as a finite number into *out: 0, or -1 without recording an error (for
 * callers that word their own, naming more than one field). */
int json_finite_number(json_t *v, double *out);

/* A decimal number in text, as the query strings of predictions carry it:
 * [+-]? digits [. digits] [(e|E) [+-]? digits], with at least one digit
 * before the exponent and no space, no hex, no inf or nan. The value must be
 * finite. 0 with *out set, or -1 with an ERR_INVALID "PATH must be a decimal number"
 * (field path). */
int json_parse_decimal(const char *s, const char *path, double *out, struct err *err);
/* The same for the first n bytes of s, which may go on after them (a list's
 * "N=1000,p=4"): the number must end exactly there. */
int json_parse_decimal_n(const char *s, size_t n, const char *path, double *out,
                         struct err *err);

/* The length of the decimal number (the grammar above) at the start of s, 0
 * when s does not start with one: for readers of numbers inside a longer
 * text (the forms' lists), so that they take what the API takes. */
size_t json_decimal_len(const char *s);

#endif
