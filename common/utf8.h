/* utf8: strict UTF-8 decoding (no overlong forms, no surrogates, nothing
 * above U+10FFFF), shared by input validation and the XML/HTML escaper. */
#ifndef PROPHECY_UTF8_H
#define PROPHECY_UTF8_H

#include <stddef.h>

/* Returns the length (1..4) of the valid UTF-8 sequence at s, with n bytes
 * available (n >= 1), and its code point in *cp (may be NULL); 0 when the
 * bytes are not valid UTF-8. */
size_t utf8_seq(const unsigned char *s, size_t n, unsigned *cp);

/* Returns 1 when s[0..n) is entirely valid UTF-8, else 0. */
int utf8_valid(const char *s, size_t n);

/* Cuts the NUL-terminated s at the end of its longest valid UTF-8 prefix (a
 * message truncated by snprintf may end inside a sequence, and JSON strings
 * must be valid). */
void utf8_cut(char *s);

#endif
