/* validate: checking the bodies of catalog writes (benchmarks, parameters,
 * templates, couplings, entity fields) before anything is stored. Each
 * returns 0 or -1 with an ERR_INVALID error naming the field; results live in the
 * arena. */
#ifndef PROPHECY_FORMATS_VALIDATE_H
#define PROPHECY_FORMATS_VALIDATE_H

#include <jansson.h>

#include "common/arena.h"
#include "common/err.h"
#include "formats/limits.h"
#include "formats/record.h"

/* Rejects keys of obj not in allowed (NULL-terminated) and non-string values
 * except "cores" (integer) and "metadata" (object). */
int validate_fields(json_t *obj, const char *const *allowed, struct err *err);

/* An identifier: [A-Za-z_][A-Za-z0-9_]*, at most 64 bytes. */
int validate_ident(const char *s, const char *field, struct err *err);

/* Parses a parameter signature "NAME" or "NAME(a, b)" into name and a
 * comma-separated argument list ("a,b"). */
int validate_signature(const char *sig, arena *a, const char **name, const char **args,
                       const char *field, struct err *err);

/* Checks that an expression parses (template or parameter body; args is the
 * parameter's comma-separated formal arguments or NULL). The error keeps the
 * parser's column and names `field`. */
int validate_expression(const char *src, const char *args, const char *field,
                        struct err *err);

int validate_benchmarks(json_t *body, arena *a, struct bench_record **out, size_t *n,
                        struct err *err);
int validate_parameters(json_t *body, arena *a, struct param_record **out, size_t *n,
                        struct err *err);
int validate_template(json_t *body, arena *a, const char **name, const char **application,
                      const char **kernel, const char **expression,
                      const char **description, struct err *err);
int validate_couplings(json_t *body, arena *a, struct coupling_record **out, size_t *n,
                       struct err *err);

#endif
