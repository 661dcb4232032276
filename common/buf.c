/* buf: bounded growable buffer; see buf.h. */
#include "common/buf.h"
#include "common/xalloc.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void buf_init(struct buf *b, size_t max)
{
    memset(b, 0, sizeof *b);
    b->max = max;
}

void buf_free(struct buf *b)
{
    xfree(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = BUF_OK;
}

void buf_reset(struct buf *b)
{
    b->len = 0;
    b->failed = BUF_OK;
    if (b->data)
        b->data[0] = '\0';
}

/* Makes room for n more bytes plus the NUL; returns 0 or sets the error. */
static int reserve(struct buf *b, size_t n)
{
    size_t need, cap;
    char *p;

    if (b->failed)
        return -1;
    if (n > b->max - b->len) {
        b->failed = BUF_TOOBIG;
        return -1;
    }
    need = b->len + n + 1;
    if (need <= b->cap)
        return 0;
    cap = b->cap ? b->cap : 256;
    while (cap < need)
        cap *= 2;
    if (cap > b->max + 1)
        cap = b->max + 1;
    p = xrealloc(b->data, cap);
    if (p == NULL) {
        b->failed = BUF_NOMEM;
        return -1;
    }
    b->data = p;
    b->cap = cap;
    return 0;
}

void buf_append(struct buf *b, const void *p, size_t n)
{
    if (reserve(b, n) != 0)
        return;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void buf_puts(struct buf *b, const char *s)
{
    buf_append(b, s, strlen(s));
}

void buf_putc(struct buf *b, char c)
{
    buf_append(b, &c, 1);
}

void buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    int n;

    if (b->failed)
        return;
    va_copy(ap2, ap);
    n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0 || reserve(b, (size_t)n) != 0)
        return;
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(b, fmt, ap);
    va_end(ap);
}

/* Writes the decimal m / 10^k (m a whole number below 2^53, k >= 1) as %g
 * prints it in its fixed style: "-12.5", "0.0042", no trailing zeros. */
static void put_decimal(char *out, double m, int k)
{
    char d[24];
    unsigned long long u = (unsigned long long)fabs(m);
    int n = 0, o = 0;

    for (; u > 0 || n <= k; u /= 10)
        d[n++] = (char)('0' + u % 10); /* least significant first */
    if (m < 0)
        out[o++] = '-';
    while (n > k)
        out[o++] = d[--n];
    out[o++] = '.';
    while (n > 0)
        out[o++] = d[--n];
    while (out[o - 1] == '0')
        o--;
    out[o] = '\0';
}

/* The shortest decimal of at most 15 significant digits that reads back as
 * v, found without formatting: the first k with m = round(v * 10^k) and
 * m / 10^k == v (m and 10^k are exact, so the division rounds as strtod
 * does). Only where %.15g prints fixed (1e-4 <= |v| < 1e15); 0 elsewhere,
 * or when no such decimal exists. */
static int short_decimal(char *out, size_t outsz, double v)
{
    double a = fabs(v), p10 = 10;

    if (outsz < 32 || !(a >= 1e-4 && a < 1e15))
        return 0;
    for (int k = 1; k <= 19; k++, p10 *= 10) {
        double m = nearbyint(v * p10);
        if (fabs(m) >= 1e15) /* more than 15 digits */
            return 0;
        if (m / p10 == v) {
            put_decimal(out, m, k);
            return 1;
        }
    }
    return 0;
}

char *fmt_double(char *out, size_t outsz, double v)
{
    int prec;
    if (!isfinite(v)) {
        snprintf(out, outsz, "0");
        return out;
    }
    /* Whole numbers print plainly (100, not 1e+02) while exact in a double. */
    if (v == floor(v) && fabs(v) < 1e15) {
        snprintf(out, outsz, "%.0f", v);
        return out;
    }
    /* Shortest precision that round-trips, so 0.1 prints as 0.1: most
     * measured values are short decimals, found without snprintf. */
    if (short_decimal(out, outsz, v))
        return out;
    /* Otherwise start at 15: when a shorter p round-trips, "%.15g" prints
     * the same text (v lies within half a double's ulp of that p-digit
     * decimal, far inside half a 15th-digit unit; %g drops the trailing
     * zeros; and the style, fixed or exponent, only differs for whole
     * numbers below 1e15, printed above). Trying p = 1..14 first cost 15
     * snprintf+strtod pairs a number. Subnormals have fewer significant
     * bits: they still try every p. */
    for (prec = fabs(v) >= DBL_MIN ? 15 : 1; prec <= 17; prec++) {
        snprintf(out, outsz, "%.*g", prec, v);
        if (strtod(out, NULL) == v)
            break;
    }
    return out;
}

void buf_num(struct buf *b, double v)
{
    char tmp[40];
    buf_puts(b, fmt_double(tmp, sizeof tmp, v));
}

int buf_failed(const struct buf *b)
{
    return b->failed;
}

const char *buf_str(const struct buf *b)
{
    return b->data ? b->data : "";
}

char *buf_detach(struct buf *b, size_t *len_out)
{
    char *p;
    size_t max = b->max;

    if (b->failed) {
        buf_free(b);
        buf_init(b, max);
        return NULL;
    }
    if (b->data == NULL) {
        p = xstrdup("");
    } else {
        p = b->data;
    }
    if (len_out)
        *len_out = b->len;
    buf_init(b, max);
    return p;
}
