/* err: first-error-wins error records; see err.h. */
#include "common/err.h"
#include "common/utf8.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

int err_setv(struct err *e, enum err_code status, const char *code, const char *field,
             const char *fmt, va_list ap)
{
    /* an HTTP number here is a caller written for the old record */
    assert(status > ERR_NONE && status < ERR_CODE_COUNT);
    if (e == NULL || e->status != 0)
        return -1;
    e->status = status;
    snprintf(e->code, sizeof e->code, "%s", code ? code : "error");
    if (vsnprintf(e->message, sizeof e->message, fmt, ap) >= (int)sizeof e->message)
        utf8_cut(e->message);
    if (snprintf(e->field, sizeof e->field, "%s", field ? field : "") >=
        (int)sizeof e->field)
        utf8_cut(e->field);
    return -1;
}

int err_set(struct err *e, enum err_code status, const char *code, const char *field,
            const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err_setv(e, status, code, field, fmt, ap);
    va_end(ap);
    return -1;
}

void err_prefix_field(struct err *e, const char *prefix)
{
    char tmp[ERR_FIELD_MAX];
    size_t n;
    if (e == NULL || e->status == 0)
        return;
    n = strlen(prefix);
    if (n >= sizeof tmp)
        n = sizeof tmp - 1;
    memcpy(tmp, prefix, n);
    if (e->field[0] != '\0' && e->field[0] != '[' && n + 1 < sizeof tmp)
        tmp[n++] = '.';
    for (const char *f = e->field; *f && n + 1 < sizeof tmp; f++)
        tmp[n++] = *f;
    tmp[n] = '\0';
    memcpy(e->field, tmp, n + 1);
}

void err_clear(struct err *e)
{
    if (e != NULL)
        memset(e, 0, sizeof *e);
}
