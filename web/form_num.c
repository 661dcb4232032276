/* form_num: the numbers a form reads from its fields and writes in its
 * pages and requests; see form.h. */
#include "web/form.h"
#include "formats/json.h"
#include "models/expr.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fnum(const char *s, const char *field, const char *what, double *out, struct err *err)
{
    char *end;
    const char *rest;
    size_t len;
    double v;
    while (s && (*s == ' ' || *s == '\t'))
        s++;
    if (s == NULL || *s == '\0')
        return 1;
    /* decimal as the API reads numbers (json_decimal_len): strtod alone
     * also takes hex (0x10), inf and nan */
    len = json_decimal_len(s);
    for (rest = s + len; *rest == ' ' || *rest == '\t'; rest++)
        ;
    errno = 0;
    v = strtod(s, &end);
    if (len == 0 || end != s + len || *rest != '\0' || errno == ERANGE || !isfinite(v))
        return err_invalid(err, field, "%s must be a number (got %.40s)", what, s);
    *out = v;
    return 0;
}

int fnums(const char *s, const char *field, double *out, int max, struct err *err)
{
    int n = 0;
    const char *p = s ? s : "";
    while (*p) {
        char *end;
        double v;
        while (*p == ' ' || *p == ',' || *p == ';' || *p == '\t')
            p++;
        if (*p == '\0')
            break;
        errno = 0;
        v = strtod(p, &end);
        if (end == p || json_decimal_len(p) != (size_t)(end - p) || errno == ERANGE ||
            !isfinite(v) || (*end != '\0' && !strchr(" ,;\t", *end)))
            return err_invalid(err, field,
                               "predict takes numbers separated by commas or spaces "
                               "(got %.40s)",
                               p);
        if (n == max)
            return err_invalid(err, field, "at most %d prediction points", max);
        out[n++] = v;
        p = end;
    }
    return n;
}

json_t *forms_jnum(double v)
{
    if (v == floor(v) && fabs(v) < 1e15)
        return json_integer((json_int_t)v);
    return json_real(v);
}

const char *fnumtext(struct fctx *c, double v)
{
    struct buf b;
    const char *s;
    buf_init(&b, 64);
    expr_print_number(&b, v);
    s = arena_strdup(c->arena, buf_str(&b));
    buf_free(&b);
    return s ? s : "0";
}
