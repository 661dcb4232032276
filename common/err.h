/* err: the one error record passed down every call chain.
 *
 * Functions return 0 on success or a negative value on failure and take an
 * optional caller-owned `struct err *` as their last argument. The first error
 * recorded wins (as jansson's json_error_t): later err_set() calls on an
 * already-set record do nothing, so the innermost, most specific message is
 * the one the user sees.
 *
 * The record says what kind of failure it is (enum err_code, as CURLcode and
 * SQLite's result codes do), never a protocol's number: server/ turns it into
 * an HTTP status in one function (server/api_error.c, api_error_status) and
 * into a JSON body or a page; nothing below server/ knows about HTTP.
 */
#ifndef PROPHECY_ERR_H
#define PROPHECY_ERR_H

#include <stdarg.h>

#define ERR_CODE_MAX 32
#define ERR_MESSAGE_MAX 256
#define ERR_FIELD_MAX 128

/* The kinds of failure. ERR_NONE is 0, so `if (e.status)` asks whether an
 * error was recorded. */
enum err_code {
    ERR_NONE = 0,
    ERR_BAD_REQUEST,  /* malformed: not JSON, not UTF-8, a bad parameter */
    ERR_UNAUTHORIZED, /* no token, or an unknown or revoked one */
    ERR_FORBIDDEN,    /* not allowed for this token or form (CSRF) */
    ERR_NOT_FOUND,    /* the thing named is not stored */
    ERR_NOT_ALLOWED,  /* the method is not allowed on the path */
    ERR_CONFLICT,     /* clashes with what is stored */
    ERR_TOO_LARGE,    /* over a limit of formats/limits.h */
    ERR_INVALID,      /* well-formed but breaks a rule (the field at fault) */
    ERR_INTERNAL,     /* our side failed: a bug, a damaged store, a call */
    ERR_NOMEM,        /* out of memory */
    ERR_BAD_ANSWER,   /* another component answered something unusable */
    ERR_UNAVAILABLE,  /* busy or shutting down: try again later */
    ERR_NO_SPACE,     /* the disk or the database is full */
    ERR_CODE_COUNT    /* not a code: one past the last */
};

struct err {
    enum err_code status;          /* ERR_NONE = no error recorded */
    char code[ERR_CODE_MAX];       /* short machine code, e.g. "invalid_field" */
    char message[ERR_MESSAGE_MAX]; /* one line for people */
    char field[ERR_FIELD_MAX];     /* JSON path of the field at fault, or "" */
};

/* Records an error unless `e` is NULL or already holds one. status is an
 * enum err_code other than ERR_NONE (asserted). `field` may be NULL. Always
 * returns -1 so callers can write `return err_set(...)`. */
int err_set(struct err *e, enum err_code status, const char *code, const char *field,
            const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Like err_set with a va_list. */
int err_setv(struct err *e, enum err_code status, const char *code, const char *field,
             const char *fmt, va_list ap);

/* Sets e->field to "prefix" + old field when an error is recorded, so that a
 * nested validator reporting "nprocs" becomes "runs[3].nprocs". */
void err_prefix_field(struct err *e, const char *prefix);

/* Clears the record. */
void err_clear(struct err *e);

/* Shorthands for the common cases. All return -1. */
#define err_nomem(e) err_set((e), ERR_NOMEM, "out_of_memory", NULL, "out of memory")
#define err_invalid(e, field, ...)                                                       \
    err_set((e), ERR_INVALID, "invalid", (field), __VA_ARGS__)

#endif
