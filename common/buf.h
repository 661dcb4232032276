/* buf: a growable byte buffer with a hard maximum (curl's dynbuf).
 *
 * Writes return void; the first failure (out of memory or over the maximum)
 * sets a sticky flag and later writes do nothing, so a renderer writes freely
 * and checks buf_failed() once before using the result (as SQLite's string builder does).
 * The contents are always NUL-terminated when non-empty.
 */
#ifndef PROPHECY_BUF_H
#define PROPHECY_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct buf {
    char *data; /* owned; NULL until the first write */
    size_t len; /* bytes written, excluding the terminating NUL */
    size_t cap; /* bytes allocated */
    size_t max; /* hard limit on len */
    int failed; /* BUF_OK, BUF_NOMEM or BUF_TOOBIG; sticky */
};

enum { BUF_OK = 0, BUF_NOMEM = 1, BUF_TOOBIG = 2 };

/* Initialises an empty buffer that may grow to `max` bytes. */
void buf_init(struct buf *b, size_t max);
/* Frees the contents; the buffer may be reused after buf_init(). */
void buf_free(struct buf *b);
/* Forgets the contents but keeps the allocation and clears the error. */
void buf_reset(struct buf *b);

void buf_append(struct buf *b, const void *p, size_t n);
void buf_puts(struct buf *b, const char *s);
void buf_putc(struct buf *b, char c);
void buf_printf(struct buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void buf_vprintf(struct buf *b, const char *fmt, va_list ap);
/* Appends a finite double in the shortest form that reads back exactly
 * ("%.17g" trimmed); a non-finite value is written as "0" (never nan/inf). */
void buf_num(struct buf *b, double v);

/* Returns BUF_OK or the sticky error. */
int buf_failed(const struct buf *b);
/* Returns the contents ("" when empty); valid until the next write. */
const char *buf_str(const struct buf *b);
/* Hands the contents to the caller (free with xfree) and re-initialises the
 * buffer empty with the same maximum. Returns NULL if the buffer failed. */
char *buf_detach(struct buf *b, size_t *len_out);

/* Formats a finite double as the shortest decimal that reads back to the same
 * value into out (at least 32 bytes); non-finite values give "0". Returns out. */
char *fmt_double(char *out, size_t outsz, double v);

#endif
