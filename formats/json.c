/* json: decoding JSON requests into typed values; see json.h. */
#include "formats/json.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/utf8.h"
#include "formats/limits.h"

int json_get_number(json_t *v, const char *path, double *out, struct err *err)
{
    if (!json_is_number(v) || !isfinite(json_number_value(v)))
        return err_invalid(err, path, "%s must be a finite number", path);
    *out = json_number_value(v);
    return 0;
}

int json_get_numbers(json_t *v, const char *path, size_t n, size_t max, double *out,
                     size_t *count, struct err *err)
{
    size_t i, len;

    if (!json_is_array(v) || (n > 0 && json_array_size(v) != n) ||
        json_array_size(v) > max) {
        if (n > 0)
            return err_invalid(err, path, "%s must be an array of %zu numbers", path, n);
        return err_invalid(err, path, "%s must be an array of at most %zu numbers", path,
                           max);
    }
    len = json_array_size(v);
    for (i = 0; i < len; i++) {
        json_t *x = json_array_get(v, i);
        if (!json_is_number(x) || !isfinite(json_number_value(x)))
            return err_invalid(err, path, "%s[%zu] must be a finite number", path, i);
        out[i] = json_number_value(x);
    }
    if (count != NULL)
        *count = len;
    return 0;
}

int json_check_name(const char *s, size_t len, const char *path, size_t max,
                    struct err *err)
{
    size_t i;
    if (len == 0 || len > max)
        return err_invalid(err, path, "%s must be a string of 1 to %zu bytes", path, max);
    if (!utf8_valid(s, len))
        return err_invalid(err, path, "%s is not valid UTF-8", path);
    for (i = 0; i < len; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return err_invalid(err, path, "%s contains a control character", path);
    return 0;
}

const char *json_get_name(json_t *v, const char *path, size_t max, arena *a,
                          struct err *err)
{
    const char *s;
    if (!json_is_string(v)) {
        err_invalid(err, path, "%s must be a string of 1 to %zu bytes", path, max);
        return NULL;
    }
    if (json_check_name(json_string_value(v), json_string_length(v), path, max, err) != 0)
        return NULL;
    if ((s = arena_strndup(a, json_string_value(v), json_string_length(v))) == NULL)
        err_nomem(err);
    return s;
}

static int ident_start(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

int json_check_ident(const char *s, const char *path, struct err *err)
{
    size_t i, len = s ? strlen(s) : 0;
    int ok = len > 0 && len <= LIMIT_NAME && ident_start(s[0]);
    for (i = 1; ok && i < len; i++)
        ok = ident_start(s[i]) || (s[i] >= '0' && s[i] <= '9');
    if (!ok)
        return err_invalid(err, path,
                           "%s must name a variable: a letter or _ then letters, digits "
                           "or _ (at most %d bytes)",
                           path, LIMIT_NAME);
    return 0;
}

int json_only_fields(json_t *obj, const char *const *allowed, const char *what,
                     struct err *err)
{
    const char *key;
    json_t *v;
    if (!json_is_object(obj))
        return err_invalid(err, NULL, "the %s must be a JSON object", what);
    json_object_foreach(obj, key, v)
    {
        int ok = 0;
        for (size_t i = 0; allowed[i] && !ok; i++)
            ok = strcmp(key, allowed[i]) == 0;
        if (!ok)
            return err_invalid(err, strlen(key) <= 64 ? key : NULL,
                               "unknown field %s in the %s",
                               strlen(key) <= 64 ? key : "(over 64 bytes)", what);
    }
    return 0;
}

int json_only_fields_at(json_t *obj, const char *const *allowed, const char *path,
                        struct err *err)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v)
    {
        int ok = 0;
        for (size_t i = 0; allowed[i] && !ok; i++)
            ok = strcmp(key, allowed[i]) == 0;
        if (!ok)
            return err_invalid(err, path[0] ? path : key, "unknown field %s%s%s",
                               strlen(key) <= 64 ? key : "(over 64 bytes)",
                               path[0] ? " in " : "", path);
    }
    return 0;
}

int json_finite_number(json_t *v, double *out)
{
    if (!json_is_number(v) || !isfinite(json_number_value(v)))
        return -1;
    *out = json_number_value(v);
    return 0;
}

static const char *digits(const char *p, size_t *n)
{
    *n = 0;
    while (*p >= '0' && *p <= '9') {
        p++;
        (*n)++;
    }
    return p;
}

size_t json_decimal_len(const char *s)
{
    const char *p = s;
    size_t whole, frac = 0, ex;

    if (s == NULL)
        return 0;
    if (*p == '+' || *p == '-')
        p++;
    p = digits(p, &whole);
    if (*p == '.')
        p = digits(p + 1, &frac);
    if (whole + frac == 0)
        return 0;
    if (*p == 'e' || *p == 'E') {
        const char *e = p + 1;
        if (*e == '+' || *e == '-')
            e++;
        e = digits(e, &ex);
        if (ex == 0)
            return 0;
        p = e;
    }
    return (size_t)(p - s);
}

int json_parse_decimal(const char *s, const char *path, double *out, struct err *err)
{
    return json_parse_decimal_n(s, s ? strlen(s) : 0, path, out, err);
}

int json_parse_decimal_n(const char *s, size_t n, const char *path, double *out,
                         struct err *err)
{
    size_t len = json_decimal_len(s);
    const char *p = s ? s + len : NULL;
    char *end;
    double x;

    if (len == 0 || len != n)
        return err_invalid(err, path,
                           "%s must be a number, written in decimal (1200, 1.5e3)", path);
    errno = 0;
    x = strtod(s, &end);
    if (end != p || !isfinite(x))
        return err_invalid(err, path, "%s must be a number within the range of a double",
                           path);
    *out = x;
    return 0;
}
