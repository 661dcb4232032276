/* json_text: see json_text.h. */
#include "formats/json_text.h"
#include "common/utf8.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define API_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(16) | JSON_ENCODE_ANY)

static const uint64_t pow10_u64[20] = {1ull,
                                       10ull,
                                       100ull,
                                       1000ull,
                                       10000ull,
                                       100000ull,
                                       1000000ull,
                                       10000000ull,
                                       100000000ull,
                                       1000000000ull,
                                       10000000000ull,
                                       100000000000ull,
                                       1000000000000ull,
                                       10000000000000ull,
                                       100000000000000ull,
                                       1000000000000000ull,
                                       10000000000000000ull,
                                       100000000000000000ull,
                                       1000000000000000000ull,
                                       10000000000000000000ull};

/* a * b as a 128-bit (hi, lo) pair, in portable C. */
static void mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    *lo = (mid << 32) | (p00 & 0xffffffffu);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* m * 10^k / 2^s truncated to an integer (*q), and whether rounding it to
 * the nearest, ties to even, adds one (*round_up): the exact binary value
 * x = m / 2^s scaled by 10^k, as printf rounds it; for m < 2^53,
 * 0 <= k <= 22, 1 <= s <= 127. Returns 0, or -1 when the quotient does not
 * fit 64 bits. */
static int scaled(uint64_t m, int k, int s, uint64_t *q, int *round_up)
{
    uint64_t hi, lo, r, half, below;
    int up;
    if (k <= 19) {
        mul64(m, pow10_u64[k], &hi, &lo);
    } else {
        uint64_t t1, t0, h;
        mul64(pow10_u64[19], pow10_u64[k - 19], &t1, &t0);
        mul64(m, t0, &h, &lo);
        hi = h + m * t1; /* < 2^127 in total: no carry out */
    }
    if (s >= 64) {
        int t = s - 64;
        *q = t ? hi >> t : hi;
        if (t == 0) {
            up = (lo >> 63) & 1;
            below = lo & ~(1ull << 63);
        } else {
            up = (int)((hi >> (t - 1)) & 1);
            below = (hi & ((1ull << (t - 1)) - 1)) | lo;
        }
    } else {
        if (hi >> s)
            return -1;
        *q = (hi << (64 - s)) | (lo >> s);
        r = lo & ((1ull << s) - 1);
        half = 1ull << (s - 1);
        up = r >= half;
        below = r & (half - 1);
    }
    *round_up = up && (below != 0 || (*q & 1));
    return 0;
}

/* The 16 significant digits of |x| (N in [10^15, 10^16)) and the decimal
 * exponent of the first, exactly as "%.16g" rounds. 0, or -1 when x is
 * outside the range done here. */
static int digits16(double x, uint64_t *n, int *exp10)
{
    int e2, X, k, tries;
    double f = frexp(x, &e2); /* x = f * 2^e2, 0.5 <= f < 1 */
    uint64_t m = (uint64_t)ldexp(f, 53);
    int s = 53 - e2; /* x = m / 2^s */

    if (!(x >= 1e-7 && x < 1e16) || s < 1 || s > 127)
        return -1;
    /* log10(x) lies in [(e2 - 1) log10 2, e2 log10 2): start low, step up */
    X = (int)floor((e2 - 1) * 0.30102999566398120);
    for (tries = 0; tries < 4; tries++) {
        uint64_t q;
        int up;
        k = 15 - X;
        if (k < 0 || k > 22 || scaled(m, k, s, &q, &up) != 0)
            return -1;
        if (q < pow10_u64[15]) { /* before rounding: X is one too high */
            X--;
            continue;
        }
        if (q >= pow10_u64[16]) {
            X++;
            continue;
        }
        q += (uint64_t)up;
        if (q == pow10_u64[16]) { /* rounded up to the next decade */
            q = pow10_u64[15];
            X++;
        }
        *n = q;
        *exp10 = X;
        return 0;
    }
    return -1;
}

size_t json_text_fmt_real(char *out, double x)
{
    char dig[17];
    uint64_t n;
    int X, nd, i, o = 0;
    double ax = fabs(x);

    if (!isfinite(x) || digits16(ax, &n, &X) != 0) {
        json_t *v = json_real(isfinite(x) ? x : 0);
        char *s = v ? json_dumps(v, API_FLAGS) : NULL;
        size_t len = s ? strlen(s) : 0;
        if (s == NULL || len >= JSON_TEXT_NUM) {
            memcpy(out, "0.0", 3);
            len = 3;
        } else {
            memcpy(out, s, len);
        }
        free(s);
        json_decref(v);
        return len;
    }
    for (i = 15; i >= 0; i--) {
        dig[i] = (char)('0' + n % 10);
        n /= 10;
    }
    for (nd = 16; nd > 1 && dig[nd - 1] == '0'; nd--)
        ;
    if (x < 0)
        out[o++] = '-';
    if (X < -4) { /* %e style, exponent as Jansson trims it */
        out[o++] = dig[0];
        if (nd > 1) {
            out[o++] = '.';
            for (i = 1; i < nd; i++)
                out[o++] = dig[i];
        }
        out[o++] = 'e';
        out[o++] = '-';
        out[o++] = (char)('0' + (-X) % 10); /* -X is 5..7 here */
    } else if (X < 0) {
        out[o++] = '0';
        out[o++] = '.';
        for (i = 0; i < -X - 1; i++)
            out[o++] = '0';
        for (i = 0; i < nd; i++)
            out[o++] = dig[i];
    } else {
        for (i = 0; i <= X; i++)
            out[o++] = dig[i];
        out[o++] = '.';
        if (nd > X + 1)
            for (i = X + 1; i < nd; i++)
                out[o++] = dig[i];
        else
            out[o++] = '0'; /* Jansson's ".0" */
    }
    return (size_t)o;
}

void json_text_real(struct buf *b, double x)
{
    char out[JSON_TEXT_NUM];
    buf_append(b, out, json_text_fmt_real(out, x));
}

size_t json_text_fmt_int(char *out, long long v)
{
    char t[24];
    int o = (int)sizeof t;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do {
        t[--o] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        t[--o] = '-';
    memcpy(out, t + o, sizeof t - (size_t)o);
    return sizeof t - (size_t)o;
}

void json_text_int(struct buf *b, long long v)
{
    char out[JSON_TEXT_NUM];
    buf_append(b, out, json_text_fmt_int(out, v));
}

size_t json_text_fmt_plain(char *out, size_t room, const char *s)
{
    size_t i;
    if (s == NULL) {
        if (room < 4)
            return 0;
        memcpy(out, "null", 4);
        return 4;
    }
    for (i = 0; s[i]; i++) {
        unsigned char c = (unsigned char)s[i];
        if (i + 2 >= room || c < 0x20 || c >= 0x80 || c == '"' || c == '\\')
            return 0;
        out[i + 1] = (char)c;
    }
    if (i + 2 > room)
        return 0;
    out[0] = '"';
    out[i + 1] = '"';
    return i + 2;
}

int json_text_str(struct buf *b, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    const unsigned char *p = (const unsigned char *)s, *run;
    size_t len;
    if (s == NULL) {
        buf_puts(b, "null");
        return 0;
    }
    len = strlen(s);
    for (run = p; *run; run++)
        if (*run >= 0x80)
            break;
    if (*run && !utf8_valid(s, len))
        return -1;
    buf_putc(b, '"');
    for (run = p; *p; p++) {
        const char *esc = NULL;
        char u[6];
        if (*p >= 0x20 && *p != '"' && *p != '\\')
            continue;
        buf_append(b, run, (size_t)(p - run));
        switch (*p) {
        case '"':
            esc = "\\\"";
            break;
        case '\\':
            esc = "\\\\";
            break;
        case '\b':
            esc = "\\b";
            break;
        case '\f':
            esc = "\\f";
            break;
        case '\n':
            esc = "\\n";
            break;
        case '\r':
            esc = "\\r";
            break;
        case '\t':
            esc = "\\t";
            break;
        default:
            u[0] = '\\';
            u[1] = 'u';
            u[2] = '0';
            u[3] = '0';
            u[4] = hex[*p >> 4];
            u[5] = hex[*p & 15];
            buf_append(b, u, 6);
        }
        if (esc != NULL)
            buf_puts(b, esc);
        run = p + 1;
    }
    buf_append(b, run, (size_t)(p - run));
    buf_putc(b, '"');
    return 0;
}

int json_text_value(struct buf *b, const json_t *v)
{
    char *s = json_dumps(v, API_FLAGS);
    if (s == NULL)
        return -1;
    buf_puts(b, s);
    free(s);
    return 0;
}
