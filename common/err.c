/* err: first-error-wins error records; see err.h. */
#include "common/err.h"

#include <stdio.h>
#include <string.h>

/* Cuts an incomplete UTF-8 sequence off the end of s (left by truncating a
 * formatted message), so the message stays valid UTF-8 for JSON. */
static void trim_partial_utf8(char *s)
{
    size_t n = strlen(s), i = n, need;
    unsigned char lead;

    while (i > 0 && n - i < 4 && ((unsigned char)s[i - 1] & 0xc0) == 0x80)
        i--;
    if (i == 0)
        return;
    lead = (unsigned char)s[i - 1];
    need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (lead >= 0x80 && (i - 1) + need > n)
        s[i - 1] = '\0';
}

int err_setv(struct err *e, int status, const char *code, const char *field,
             const char *fmt, va_list ap)
{
    if (e == NULL || e->status != 0)
        return -1;
    e->status = status;
    snprintf(e->code, sizeof e->code, "%s", code ? code : "error");
    if (vsnprintf(e->message, sizeof e->message, fmt, ap) >= (int)sizeof e->message)
        trim_partial_utf8(e->message);
    if (snprintf(e->field, sizeof e->field, "%s", field ? field : "") >=
        (int)sizeof e->field)
        trim_partial_utf8(e->field);
    return -1;
}

int err_set(struct err *e, int status, const char *code, const char *field,
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
