/* Unit tests for fmt_gunzip (formats/formats.h): what every upload's gzip
 * stream goes through. Exact bytes back, into an arena or xmalloc'd; the
 * bound (`max`) refused with ERR_TOO_LARGE at one byte over and kept at
 * exactly max; concatenated members read as one stream; zero padding after
 * the last member read, anything else refused; a truncated or damaged
 * stream refused with ERR_INVALID; an allocation that fails reported as
 * out of memory at every point, nothing leaked. */
#include "common/arena.h"
#include "common/err.h"
#include "common/xalloc.h"
#include "formats/formats.h"
#include "tests/harness.h"
#include "tests/gzip_of.h"

#include <string.h>
#include <zlib.h>

/* A text of n bytes that compresses well but not to nothing. */
static char *text_of(size_t n)
{
    char *t = xmalloc(n + 1);
    CHECK(t != NULL);
    for (size_t i = 0; i < n; i++)
        t[i] = (char)('a' + (i * 7 + i / 13) % 26);
    t[n] = '\0';
    return t;
}

static void test_round_trip(void)
{
    size_t len = 200000, n, got;
    char *text = text_of(len), *z = gzip_of(text, len, &n), *out;
    arena *a = arena_new();
    struct err e = {0};

    CHECK(fmt_is_gzip(z, n));
    CHECK(!fmt_is_gzip(text, len));
    CHECK(!fmt_is_gzip(z, 1));
    CHECK_INT(fmt_gunzip("t.gz", z, n, len, NULL, &out, &got, &e), 0);
    CHECK_INT(got, len);
    CHECK(memcmp(out, text, len) == 0);
    CHECK_INT(out[len], '\0');
    xfree(out);
    CHECK_INT(fmt_gunzip("t.gz", z, n, len, a, &out, &got, &e), 0);
    CHECK_INT(got, len);
    CHECK(memcmp(out, text, len) == 0);
    /* the arena holds exactly the inflated bytes (and the NUL), not a
     * doubling buffer's spare room */
    CHECK(arena_used(a) < len + 64);
    arena_free(a);
    xfree(z);
    xfree(text);
    /* an empty file's stream is no bytes */
    z = gzip_of("", 0, &n);
    CHECK_INT(fmt_gunzip("e.gz", z, n, 10, NULL, &out, &got, &e), 0);
    CHECK_INT(got, 0);
    CHECK_STR(out, "");
    xfree(out);
    xfree(z);
}

static void test_limit(void)
{
    size_t len = 100000, n, got = 7;
    char *text = text_of(len), *z = gzip_of(text, len, &n), *out = (char *)"x";
    struct err e = {0};

    CHECK_INT(fmt_gunzip("big.gz", z, n, len - 1, NULL, &out, &got, &e), -1);
    CHECK_INT(e.status, ERR_TOO_LARGE);
    CHECK_STR(e.code, "too_large");
    CHECK_STR(e.field, "file");
    CHECK_STR(e.message,
              "big.gz: the gzip-compressed data inflates to more than 99999 bytes");
    CHECK(out == NULL && got == 0);
    err_clear(&e);
    CHECK_INT(fmt_gunzip("big.gz", z, n, len, NULL, &out, &got, &e), 0);
    CHECK_INT(got, len);
    xfree(out);
    xfree(z);
    xfree(text);
}

static void test_members(void)
{
    size_t n1, n2, got;
    char *a = gzip_of("first member\n", 13, &n1), *b = gzip_of("second\n", 7, &n2), *out;
    char cat[256], pad[300];
    struct err e = {0};

    memcpy(cat, a, n1);
    memcpy(cat + n1, b, n2);
    CHECK_INT(fmt_gunzip("cat.gz", cat, n1 + n2, 1000, NULL, &out, &got, &e), 0);
    CHECK_STR(out, "first member\nsecond\n");
    xfree(out);
    /* the bound counts every member */
    CHECK_INT(fmt_gunzip("cat.gz", cat, n1 + n2, 19, NULL, &out, &got, &e), -1);
    CHECK_INT(e.status, ERR_TOO_LARGE);
    err_clear(&e);
    /* zero padding after the last member (a tape's blocks) is read */
    memcpy(pad, cat, n1 + n2);
    memset(pad + n1 + n2, 0, 20);
    CHECK_INT(fmt_gunzip("pad.gz", pad, n1 + n2 + 20, 1000, NULL, &out, &got, &e), 0);
    CHECK_STR(out, "first member\nsecond\n");
    xfree(out);
    /* other bytes after it are not */
    memcpy(pad + n1 + n2 + 20, "junk", 4);
    CHECK_INT(fmt_gunzip("junk.gz", pad, n1 + n2 + 24, 1000, NULL, &out, &got, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    CHECK_STR(e.code, "invalid_import");
    CHECK(strstr(e.message, "junk.gz: bytes that are not gzip data follow") != NULL);
    err_clear(&e);
    xfree(a);
    xfree(b);
}

static void test_damaged(void)
{
    size_t len = 50000, n, got;
    char *text = text_of(len), *z = gzip_of(text, len, &n), *out;
    struct err e = {0};

    /* cut anywhere: truncated */
    for (size_t cut = 0; cut < n; cut += n / 7 + 1) {
        CHECK_INT(fmt_gunzip("cut.gz", z, cut, len, NULL, &out, &got, &e), -1);
        CHECK_INT(e.status, ERR_INVALID);
        CHECK(strncmp(e.message, "cut.gz: the gzip-compressed data is truncated", 45) ==
              0);
        err_clear(&e);
    }
    /* the last byte of the trailer missing */
    CHECK_INT(fmt_gunzip("cut.gz", z, n - 1, len, NULL, &out, &got, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    err_clear(&e);
    /* a changed byte of the CRC: damaged */
    z[n - 6] ^= 0x55;
    CHECK_INT(fmt_gunzip("crc.gz", z, n, len, NULL, &out, &got, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    CHECK_STR(e.message,
              "crc.gz: the gzip-compressed data is damaged (incorrect data check)");
    err_clear(&e);
    /* not gzip at all */
    CHECK_INT(fmt_gunzip("text", text, len, len, NULL, &out, &got, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    CHECK(out == NULL);
    err_clear(&e);
    xfree(z);
    xfree(text);
}

/* Every allocation (zlib's through xalloc too) failing in turn: out of
 * memory or success, never a crash or a leak. */
static void test_fault_injection(void)
{
    size_t len = 70000, n, got;
    char *text = text_of(len), *z = gzip_of(text, len, &n), *out;
    int failed = 0, done = 0;

    for (long nth = 1; nth < 100 && !done; nth++) {
        struct err e = {0};
        arena *a = arena_new();
        int rc;
        CHECK(a != NULL);
        xalloc_fail_at(nth);
        rc = fmt_gunzip("f.gz", z, n, len, nth % 2 ? a : NULL, &out, &got, &e);
        xalloc_fail_at(0);
        if (rc == 0) {
            CHECK_INT(got, len);
            if (nth % 2 == 0)
                xfree(out);
            done = 1;
        } else {
            CHECK_INT(e.status, ERR_NOMEM);
            failed++;
        }
        arena_free(a);
    }
    CHECK(done);
    CHECK(failed >= 2); /* zlib's state and the output at least */
    xfree(z);
    xfree(text);
}

int main(void)
{
    RUN(test_round_trip);
    RUN(test_limit);
    RUN(test_members);
    RUN(test_damaged);
    RUN(test_fault_injection);
    return harness_report();
}
