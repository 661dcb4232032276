/* Unit tests for common/: err, buf, arena, xalloc, isotime. */
#include "common/arena.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/isotime.h"
#include "common/sha256.h"
#include "common/utf8.h"
#include "common/xalloc.h"
#include "tests/harness.h"

#include <stdlib.h>
#include <stdint.h>
#include <string.h>

static void test_err_first_wins(void)
{
    struct err e = {0};
    CHECK_INT(err_set(&e, ERR_INVALID, "invalid", "nprocs", "nprocs must be >= 1"), -1);
    err_set(&e, ERR_INTERNAL, "other", NULL, "later");
    CHECK_INT(e.status, ERR_INVALID);
    CHECK_STR(e.code, "invalid");
    CHECK_STR(e.message, "nprocs must be >= 1");
    err_prefix_field(&e, "runs[3]");
    CHECK_STR(e.field, "runs[3].nprocs");
    CHECK_INT(err_set(NULL, ERR_BAD_REQUEST, "x", NULL, "ignored"), -1);
}

/* A message cut at the buffer's end never ends inside a UTF-8 sequence. */
static void test_err_truncation_keeps_utf8(void)
{
    char name[3 * ERR_MESSAGE_MAX];
    for (int shift = 0; shift < 4; shift++) {
        struct err e = {0};
        size_t i, n = 0;
        for (i = 0; i < (size_t)shift; i++)
            name[n++] = 'a';
        while (n + 4 < sizeof name) {
            memcpy(name + n, "\xe2\x82\xac", 3); /* U+20AC, 3 bytes */
            n += 3;
        }
        name[n] = '\0';
        err_set(&e, ERR_INVALID, "invalid", name, "kernel %s", name);
        CHECK(strlen(e.message) > ERR_MESSAGE_MAX - 5);
        CHECK(utf8_valid(e.message, strlen(e.message)));
        CHECK(utf8_valid(e.field, strlen(e.field)));
    }
}

static void test_buf_limit_is_sticky(void)
{
    struct buf b;
    buf_init(&b, 8);
    buf_puts(&b, "abcd");
    buf_printf(&b, "%d", 123);
    CHECK_STR(buf_str(&b), "abcd123");
    buf_puts(&b, "xy");
    CHECK_INT(buf_failed(&b), BUF_TOOBIG);
    buf_puts(&b, "z");
    CHECK_INT(b.len, 7);
    CHECK(buf_detach(&b, NULL) == NULL);
    buf_free(&b);
}

static void test_buf_num(void)
{
    struct buf b;
    buf_init(&b, 1024);
    buf_num(&b, 0.1);
    buf_putc(&b, ' ');
    buf_num(&b, 263.8402);
    buf_putc(&b, ' ');
    buf_num(&b, NAN);
    buf_putc(&b, ' ');
    buf_num(&b, -INFINITY);
    buf_putc(&b, ' ');
    buf_num(&b, 1e300);
    CHECK_STR(buf_str(&b), "0.1 263.8402 0 0 1e+300");
    buf_free(&b);
}

/* The shortest text that reads back, on both sides of the fast path (short
 * decimals where %g prints fixed) and of the %.15g..%.17g search. */
static void test_fmt_double(void)
{
    const double v[] = {-12.5,     0.0042,  1e-4,       9.99e-5,          1.0 / 3,
                        0.1 + 0.2, 3.001,   123456.789, 99999999999999.9, 1.5e15,
                        -0.0,      4.9e-324};
    const char *const want[] = {"-12.5",
                                "0.0042",
                                "0.0001",
                                "9.99e-05",
                                "0.3333333333333333",
                                "0.30000000000000004",
                                "3.001",
                                "123456.789",
                                "99999999999999.9",
                                "1.5e+15",
                                "-0",
                                "5e-324"};
    char out[40];
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        fmt_double(out, sizeof out, v[i]);
        CHECK_STR(out, want[i]);
        CHECK(strtod(out, NULL) == v[i]);
    }
}

static void test_buf_nomem(void)
{
    struct buf b;
    buf_init(&b, 1 << 20);
    xalloc_fail_at(1);
    buf_puts(&b, "hello");
    xalloc_fail_at(0);
    CHECK_INT(buf_failed(&b), BUF_NOMEM);
    buf_free(&b);
}

/* xgrow: room for need elements, doubling from 64; a failed allocation
 * or a size that overflows leaves the array and its capacity as they were. */
static void test_xgrow(void)
{
    int *v = NULL;
    size_t cap = 0;
    CHECK_INT(xgrow((void **)&v, &cap, 1, sizeof *v), 0);
    CHECK_INT((long long)cap, 64);
    v[63] = 7;
    CHECK_INT(xgrow((void **)&v, &cap, 64, sizeof *v), 0); /* fits: unchanged */
    CHECK_INT((long long)cap, 64);
    CHECK_INT(xgrow((void **)&v, &cap, 300, sizeof *v), 0);
    CHECK_INT((long long)cap, 512);
    CHECK_INT(v[63], 7);
    xalloc_fail_at(1);
    CHECK_INT(xgrow((void **)&v, &cap, 513, sizeof *v), -1);
    xalloc_fail_at(0);
    CHECK_INT((long long)cap, 512);
    CHECK_INT(v[63], 7);
    CHECK_INT(xgrow((void **)&v, &cap, SIZE_MAX / 2, sizeof *v), -1);
    CHECK_INT((long long)cap, 512);
    xfree(v);
}

static void test_arena(void)
{
    arena *a = arena_new();
    char *s, *big;
    int i;
    CHECK(a != NULL);
    s = arena_printf(a, "%s-%d", "run", 42);
    CHECK_STR(s, "run-42");
    big = arena_alloc(a, 100000);
    CHECK(big != NULL && big[99999] == 0);
    for (i = 0; i < 1000; i++)
        CHECK(arena_alloc(a, 37) != NULL);
    CHECK_STR(s, "run-42");
    CHECK(arena_used(a) >= 100000 + 37000);
    {
        /* arena_grow: the same array while there is room, then a copy of
         * twice the capacity holding every element */
        size_t cap = 0, n;
        long *v = NULL, *before = NULL;
        for (n = 0; n < 100; n++) {
            before = v;
            v = arena_grow(a, v, n, &cap, 4, sizeof *v);
            CHECK(v != NULL);
            if (v == NULL)
                break;
            CHECK(cap == 4 || cap == 8 || cap == 16 || cap == 32 || cap == 64 ||
                  cap == 128);
            CHECK(n < cap);
            if (n != 4 && n != 8 && n != 16 && n != 32 && n != 64 && n != 0)
                CHECK(v == before);
            else
                CHECK(v != before);
            v[n] = (long)n * 7;
        }
        CHECK_INT(cap, 128);
        for (n = 0; v && n < 100; n++)
            CHECK_INT(v[n], (long long)n * 7);
    }
    arena_free(a);
    arena_free(NULL);
}

static void hex(const uint8_t *d, char *out)
{
    for (int i = 0; i < SHA256_LEN; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* FIPS 180-4 test vectors, including the two-block padding case. */
static void test_sha256(void)
{
    uint8_t d[SHA256_LEN], e[SHA256_LEN];
    char h[65];
    sha256("", 0, d);
    hex(d, h);
    CHECK_STR(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    sha256("abc", 3, d);
    hex(d, h);
    CHECK_STR(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, d);
    hex(d, h);
    CHECK_STR(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    sha256("abc", 3, e);
    CHECK(!ct_equal(d, e, SHA256_LEN));
    sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, e);
    CHECK(ct_equal(d, e, SHA256_LEN));
}

/* RFC 4231 test cases 1, 2 and 6 (a key longer than the block is hashed). */
static void test_hmac_sha256(void)
{
    uint8_t key[131], d[SHA256_LEN];
    const char *m6 = "Test Using Larger Than Block-Size Key - Hash Key First";
    char h[65];
    memset(key, 0x0b, 20);
    CHECK_INT(hmac_sha256(key, 20, "Hi There", 8, d), 0);
    hex(d, h);
    CHECK_STR(h, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    CHECK_INT(hmac_sha256("Jefe", 4, "what do ya want for nothing?", 28, d), 0);
    hex(d, h);
    CHECK_STR(h, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    memset(key, 0xaa, sizeof key);
    CHECK_INT(hmac_sha256(key, sizeof key, m6, strlen(m6), d), 0);
    hex(d, h);
    CHECK_STR(h, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

static void test_utf8(void)
{
    unsigned cp = 0;
    CHECK(utf8_valid("plain ascii", 11));
    CHECK(utf8_valid("\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x9a\x80", 14));
    CHECK_INT(utf8_seq((const unsigned char *)"\xf0\x9f\x9a\x80", 4, &cp), 4);
    CHECK_INT(cp, 0x1f680);
    CHECK(!utf8_valid("\xc0\xaf", 2));         /* overlong '/' */
    CHECK(!utf8_valid("\xe0\x80\xaf", 3));     /* overlong, 3 bytes */
    CHECK(!utf8_valid("\xed\xa0\x80", 3));     /* surrogate U+D800 */
    CHECK(!utf8_valid("\xf4\x90\x80\x80", 4)); /* above U+10FFFF */
    CHECK(!utf8_valid("\xe2\x82", 2));         /* truncated */
    CHECK(!utf8_valid("\x80", 1));             /* lone continuation */
    CHECK(!utf8_valid("\xff", 1));
    CHECK(utf8_valid("\xef\xbf\xbf", 3)); /* U+FFFF is valid UTF-8 */
}

/* Milliseconds since the epoch (values from Python's calendar.timegm), the
 * offsets read as local = UTC + offset, fractions cut to milliseconds, and
 * every formatted time read back to the same instant. */
static void test_isotime(void)
{
    static const struct {
        const char *in;
        long long ms;
        const char *out;
    } ok[] = {
        {"2026-11-21T10:00:00Z", 1795255200000LL, "2026-11-21T10:00:00Z"},
        {"2026-11-21T10:00:00", 1795255200000LL, "2026-11-21T10:00:00Z"},
        {"2026-11-21T12:00:00+02:00", 1795255200000LL, "2026-11-21T10:00:00Z"},
        {"2026-11-21T00:30:00-23:59", 1795307340000LL, "2026-11-22T00:29:00Z"},
        {"2026-11-21T10:00:00.125Z", 1795255200125LL, "2026-11-21T10:00:00.125Z"},
        {"2026-11-21T10:00:00.1Z", 1795255200100LL, "2026-11-21T10:00:00.100Z"},
        {"2026-11-21T10:00:00.123499+00:00", 1795255200123LL, "2026-11-21T10:00:00.123Z"},
        {"2026-11-21T10:00:59.9996Z", 1795255260000LL, "2026-11-21T10:01:00Z"},
        {"2026-11-21T23:59:60Z", 1795305600000LL, "2026-11-22T00:00:00Z"},
        {"1970-01-01T00:00:00Z", 0, "1970-01-01T00:00:00Z"},
        {"1969-12-31T23:59:59Z", -1000, "1969-12-31T23:59:59Z"},
        {"2000-02-29T23:59:59Z", 951868799000LL, "2000-02-29T23:59:59Z"},
        {"0001-01-01T00:00:00Z", -62135596800000LL, "0001-01-01T00:00:00Z"},
        {"9999-12-31T23:59:59Z", 253402300799000LL, "9999-12-31T23:59:59Z"},
    };
    static const char *const bad[] = {"",
                                      "2026-11-21",
                                      "2026-11-21 10:00:00Z",
                                      "2026-13-01T00:00:00Z",
                                      "2026-11-00T00:00:00Z",
                                      "2026-11-21T24:00:00Z",
                                      "2026-11-21T10:60:00Z",
                                      "2026-11-21T10:00:61Z",
                                      "2026-11-21T10:00:00.Z",
                                      "2026-11-21T10:00:00+99:99",
                                      "2026-11-21T10:00:00+02",
                                      "2026-11-21T10:00:00ZZ",
                                      "2026-11-21T10:00:00 ",
                                      "2026-11-21T10:00:00.0000000000000000000000Z",
                                      "x026-11-21T10:00:00Z"};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        long long ms = 42, back;
        char text[32];
        CHECK_INT(isotime_parse(ok[i].in, &ms), 0);
        CHECK(ms == ok[i].ms);
        CHECK_INT((long long)isotime_format(ms, text), (long long)strlen(ok[i].out));
        CHECK_STR(text, ok[i].out);
        CHECK_INT(isotime_parse(text, &back), 0);
        CHECK(back == ms);
    }
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        long long ms = 42;
        CHECK_INT(isotime_parse(bad[i], &ms), -1);
        CHECK(ms == 42);
    }
}

int main(void)
{
    RUN(test_utf8);
    RUN(test_isotime);
    RUN(test_sha256);
    RUN(test_hmac_sha256);
    RUN(test_err_first_wins);
    RUN(test_err_truncation_keeps_utf8);
    RUN(test_buf_limit_is_sticky);
    RUN(test_buf_num);
    RUN(test_fmt_double);
    RUN(test_buf_nomem);
    RUN(test_arena);
    RUN(test_xgrow);
    return harness_report();
}
