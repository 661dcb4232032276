/* json_text: JSON answers written straight into a buffer, byte for byte as
 * Jansson's json_dumps(v, JSON_COMPACT | JSON_REAL_PRECISION(16)) writes the
 * same values (the API's encoding, server/http.c), for answers too large to
 * build as one Jansson value per element (a series of 100,000 points would
 * be half a million objects, and the number formatting through printf alone
 * costs more than the read).
 *
 * Numbers: integers as "%lld"; reals rounded to 16 significant digits as
 * "%.16g" does, then as Jansson: ".0" appended when the text has neither a
 * '.' nor an 'e', and no '+' or leading zeros in an exponent. The common
 * range (1e-7 <= |x| < 1e16) is formatted exactly with integer arithmetic;
 * the rest goes through Jansson itself. Strings: as Jansson escapes them
 * (\" \\ \b \f \n \r \t, other control characters \u00XX, everything else
 * as is); text that is not valid UTF-8 is refused, as json_string refuses it.
 *
 * Writes follow struct buf's rule: they never fail on their own; a full or
 * failed buffer shows as buf_failed. Thread-safe; no state.
 */
#ifndef PROPHECY_FORMATS_JSON_TEXT_H
#define PROPHECY_FORMATS_JSON_TEXT_H

#include <jansson.h>

#include "common/buf.h"

/* Appends x as the API writes a real (x must be finite: a caller writes
 * null for a non-finite value, as json_real refuses one). */
void json_text_real(struct buf *b, double x);
/* Appends v as "%lld". */
void json_text_int(struct buf *b, long long v);

/* The same into out (room for JSON_TEXT_NUM bytes, not NUL-terminated), for
 * a writer that assembles a record on the stack; they return the length. */
#define JSON_TEXT_NUM 40
size_t json_text_fmt_real(char *out, double x);
size_t json_text_fmt_int(char *out, long long v);
/* s as a JSON string into out (room bytes) when s is plain (printable
 * ASCII but '"' and '\\') and fits, or null when s is NULL; returns the
 * length, or 0 when s must go through json_text_str instead. */
size_t json_text_fmt_plain(char *out, size_t room, const char *s);
/* Appends s as a JSON string, or null when s is NULL (json_pack's "s?").
 * Returns 0, or -1 (nothing written) when s is not valid UTF-8. */
int json_text_str(struct buf *b, const char *s);
/* Appends any Jansson value with the API's flags (for the small parts of an
 * answer). Returns 0, or -1 when Jansson cannot encode it. */
int json_text_value(struct buf *b, const json_t *v);

#endif
