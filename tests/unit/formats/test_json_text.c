/* Tests of formats/json_text: every number and string it writes is the text
 * Jansson writes for the same value with the API's flags (COMPACT, 16
 * significant digits), checked on chosen edge cases and on a million
 * pseudo-random doubles over the whole range. */
#include "formats/json_text.h"
#include "tests/harness.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(16) | JSON_ENCODE_ANY)

static int failures_shown;

/* Whether json_text_real(x) equals Jansson's text for x. */
static int same_real(double x)
{
    struct buf b;
    json_t *v = json_real(x);
    char *want = json_dumps(v, FLAGS);
    int ok;
    buf_init(&b, 1024);
    json_text_real(&b, x);
    ok = want != NULL && !buf_failed(&b) && strcmp(buf_str(&b), want) == 0;
    if (!ok && failures_shown++ < 10)
        fprintf(stderr, "  %.17g: wrote %s, Jansson %s\n", x, buf_str(&b),
                want ? want : "(null)");
    free(want);
    json_decref(v);
    buf_free(&b);
    return ok;
}

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void test_reals(void)
{
    static const double cases[] = {0.0,
                                   -0.0,
                                   1.0,
                                   -1.0,
                                   0.1,
                                   0.30000000000000004,
                                   11.2,
                                   12.5,
                                   1596.0,
                                   1e-7,
                                   1.5e-5,
                                   9.999999999999999e-5,
                                   1e-4,
                                   0.00012345678901234567,
                                   123456789012345.6,
                                   1234567890123456.5, /* a tie at the 17th digit */
                                   1234567890123457.5,
                                   9999999999999999.0,
                                   9999999999999998.0,
                                   1e15,
                                   1e16,
                                   1e17,
                                   1e22,
                                   1e300,
                                   5e-324,
                                   2.2250738585072014e-308,
                                   1.7976931348623157e308,
                                   4503599627370496.5,
                                   0.5,
                                   0.95,
                                   1.005,
                                   2.675,
                                   1e-5,
                                   1e-6,
                                   9.5e-7,
                                   123.456,
                                   -98765.4321};
    size_t i;
    long bad = 0, n;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK(same_real(cases[i]));
    /* Random bit patterns (every magnitude), and random values in the range
     * runtimes and inputs take, where the exact path is used. */
    for (n = 0; n < 400000; n++) {
        uint64_t u = next();
        double x;
        memcpy(&x, &u, sizeof x);
        if (isfinite(x) && !same_real(x))
            bad++;
    }
    for (n = 0; n < 600000; n++) {
        double m = (double)(next() >> 11) / 9007199254740992.0; /* [0, 1) */
        int e = (int)(next() % 30) - 10;
        double x = m * pow(10, e);
        if (n % 3 == 0) /* short decimals: 1.07, 0.25, 1234.5 */
            x = (double)(long long)(x * 1000) / 1000;
        if (!same_real(n % 2 ? x : -x))
            bad++;
    }
    CHECK_INT(bad, 0);
}

static void test_ints_and_strings(void)
{
    static const long long ints[] = {
        0, 1, -1, 42, 1234567890123LL, -9223372036854775807LL - 1, 9223372036854775807LL};
    static const char *const strs[] = {"",
                                       "plain",
                                       "quote \" back \\ slash /",
                                       "tab\tnl\ncr\rbs\bff\f",
                                       "\x01\x1f ctl",
                                       "\x7f del",
                                       "Zürich – 東京 😀",
                                       NULL};
    struct buf b;
    size_t i;
    buf_init(&b, 4096);
    for (i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        json_t *v = json_integer(ints[i]);
        char *want = json_dumps(v, FLAGS);
        buf_reset(&b);
        json_text_int(&b, ints[i]);
        CHECK_STR(buf_str(&b), want);
        free(want);
        json_decref(v);
    }
    for (i = 0; strs[i]; i++) {
        json_t *v = json_string(strs[i]);
        char *want = json_dumps(v, FLAGS);
        buf_reset(&b);
        CHECK_INT(json_text_str(&b, strs[i]), 0);
        CHECK_STR(buf_str(&b), want);
        free(want);
        json_decref(v);
    }
    buf_reset(&b);
    CHECK_INT(json_text_str(&b, NULL), 0);
    CHECK_STR(buf_str(&b), "null");
    buf_reset(&b);
    CHECK_INT(json_text_str(&b, "bad \xff utf-8"), -1);
    CHECK_INT(json_text_str(&b, "\xed\xa0\x80 surrogate"), -1);
    CHECK_INT((int)b.len, 0);
    buf_free(&b);
}

int main(void)
{
    RUN(test_reals);
    RUN(test_ints_and_strings);
    return harness_report();
}
