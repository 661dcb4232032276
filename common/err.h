/* err: the one error record passed down every call chain.
 *
 * Functions return 0 on success or a negative value on failure and take an
 * optional caller-owned `struct err *` as their last argument. The first error
 * recorded wins (as jansson's json_error_t): later err_set() calls on an
 * already-set record do nothing, so the innermost, most specific message is
 * the one the user sees. server/ turns the record into an HTTP status and a
 * JSON body; nothing below server/ knows about HTTP beyond the status number.
 */
#ifndef PROPHECY_ERR_H
#define PROPHECY_ERR_H

#include <stdarg.h>

#define ERR_CODE_MAX 32
#define ERR_MESSAGE_MAX 256
#define ERR_FIELD_MAX 128

struct err {
    int status;                    /* HTTP-style status; 0 = no error recorded */
    char code[ERR_CODE_MAX];       /* short machine code, e.g. "invalid_field" */
    char message[ERR_MESSAGE_MAX]; /* one line for people */
    char field[ERR_FIELD_MAX];     /* JSON path of the field at fault, or "" */
};

/* Records an error unless `e` is NULL or already holds one. `field` may be
 * NULL. Always returns -1 so callers can write `return err_set(...)`. */
int err_set(struct err *e, int status, const char *code, const char *field,
            const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Like err_set with a va_list. */
int err_setv(struct err *e, int status, const char *code, const char *field,
             const char *fmt, va_list ap);

/* Sets e->field to "prefix" + old field when an error is recorded, so that a
 * nested validator reporting "nprocs" becomes "runs[3].nprocs". */
void err_prefix_field(struct err *e, const char *prefix);

/* Clears the record. */
void err_clear(struct err *e);

/* Shorthands for the common cases. All return -1. */
#define err_nomem(e) err_set((e), 500, "out_of_memory", NULL, "out of memory")
#define err_invalid(e, field, ...) err_set((e), 422, "invalid", (field), __VA_ARGS__)

#endif
