/* Unit tests for formats/form: url-encoded and multipart decoding, limits and
 * malformed bodies. */
#include "formats/form.h"
#include "tests/harness.h"

#include <stdlib.h>

static void test_urlencoded(void)
{
    struct err e = {0};
    struct form f;
    arena *a = arena_new();
    const char *body = "application=matmul+%28example%29&nprocs=8&empty=&flag&"
                       "inputs=N%3D1000%0D%0AL%3D1024&&=ignored&application=second";
    CHECK_INT(
        form_parse("application/x-www-form-urlencoded", body, strlen(body), a, &f, &e),
        0);
    CHECK_INT(f.n, 6);
    CHECK_STR(form_get(&f, "application"), "matmul (example)"); /* the first wins */
    CHECK_STR(form_get(&f, "nprocs"), "8");
    CHECK_STR(form_get(&f, "empty"), "");
    CHECK_STR(form_get(&f, "flag"), "");
    CHECK_STR(form_get(&f, "inputs"), "N=1000\r\nL=1024");
    CHECK_INT(form_find(&f, "inputs")->len, 14);
    CHECK(form_get(&f, "missing") == NULL);
    CHECK(form_find(&f, "application")->filename == NULL);
    CHECK_STR(f.fields[5].value, "second");
    /* charset parameter and upper case are fine */
    CHECK_INT(form_parse("Application/X-WWW-Form-Urlencoded; charset=UTF-8", "a=1", 3, a,
                         &f, &e),
              0);
    CHECK_INT(f.n, 1);
    /* an empty body is an empty form */
    CHECK_INT(form_parse("application/x-www-form-urlencoded", "", 0, a, &f, &e), 0);
    CHECK_INT(f.n, 0);
    arena_free(a);
}

static void test_urlencoded_errors(void)
{
    struct err e = {0};
    struct form f;
    arena *a = arena_new();
    static const char *const bad[] = {"a=%zz", "a=%4", "a=%", "a=x%00y", "%g1=2"};
    size_t i;
    char *big;

    /* a raw NUL byte (not %00) in a name or a value */
    CHECK_INT(form_parse_urlencoded("a\0b=1", 5, a, &f, &e), -1);
    CHECK_STR(e.code, "bad_form");
    err_clear(&e);
    CHECK_INT(form_parse_urlencoded("a=1\0", 4, a, &f, &e), -1);
    CHECK_INT(e.status, ERR_BAD_REQUEST);
    err_clear(&e);
    {
        static const char nul_name[] =
            "--B\r\nContent-Disposition: form-data; name=\"a\0b\"\r\n\r\nx\r\n--B--";
        CHECK_INT(form_parse_multipart(nul_name, sizeof nul_name - 1, "B", a, &f, &e),
                  -1);
        CHECK_INT(e.status, ERR_BAD_REQUEST);
    }
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err_clear(&e);
        CHECK_INT(form_parse_urlencoded(bad[i], strlen(bad[i]), a, &f, &e), -1);
        CHECK_INT(e.status, ERR_BAD_REQUEST);
        CHECK_STR(e.code, "bad_form");
    }
    /* too many fields */
    big = malloc(FORM_MAX_FIELDS * 4 + 8);
    for (i = 0; i <= FORM_MAX_FIELDS; i++)
        memcpy(big + 4 * i, "a=1&", 4);
    big[4 * i] = '\0';
    err_clear(&e);
    CHECK_INT(form_parse_urlencoded(big, strlen(big), a, &f, &e), -1);
    CHECK_INT(e.status, ERR_TOO_LARGE);
    free(big);
    /* an over-long value names its field */
    big = malloc(FORM_MAX_TEXT + 16);
    memcpy(big, "text=", 5);
    memset(big + 5, 'x', FORM_MAX_TEXT + 1);
    err_clear(&e);
    CHECK_INT(form_parse_urlencoded(big, FORM_MAX_TEXT + 6, a, &f, &e), -1);
    CHECK_INT(e.status, ERR_TOO_LARGE);
    CHECK_STR(e.field, "text");
    /* exactly at the limit is fine */
    err_clear(&e);
    CHECK_INT(form_parse_urlencoded(big, FORM_MAX_TEXT + 5, a, &f, &e), 0);
    CHECK_INT(f.fields[0].len, FORM_MAX_TEXT);
    free(big);
    /* an over-long name */
    big = malloc(FORM_MAX_NAME + 8);
    memset(big, 'n', FORM_MAX_NAME + 1);
    memcpy(big + FORM_MAX_NAME + 1, "=1", 2);
    err_clear(&e);
    CHECK_INT(form_parse_urlencoded(big, FORM_MAX_NAME + 3, a, &f, &e), -1);
    CHECK_INT(e.status, ERR_TOO_LARGE);
    free(big);
    /* another content type */
    err_clear(&e);
    CHECK_INT(form_parse("application/json", "{}", 2, a, &f, &e), -1);
    CHECK_INT(e.status, ERR_BAD_REQUEST);
    CHECK_STR(e.code, "content_type");
    err_clear(&e);
    CHECK_INT(form_parse(NULL, "", 0, a, &f, &e), -1);
    CHECK_STR(e.code, "content_type");
    arena_free(a);
}

/* A body as Chromium sends it, with a file whose content has CRLFs, a NUL
 * byte and a line that starts like the boundary but is not it. */
static void test_multipart(void)
{
    static const char body[] = "--XyZ\r\n"
                               "Content-Disposition: form-data; name=\"token\"\r\n"
                               "\r\n"
                               "pt_abc\r\n"
                               "--XyZ\r\n"
                               "Content-Disposition: form-data; name=\"file\"; "
                               "filename=\"runs \\\"1\\\".csv\"\r\n"
                               "Content-Type: text/csv\r\n"
                               "\r\n"
                               "application,executable\r\n--XyZa\r\nx\0y\r\n"
                               "--XyZ\r\n"
                               "content-disposition: FORM-DATA;name=empty\r\n"
                               "\r\n"
                               "\r\n"
                               "--XyZ--\r\n"
                               "epilogue is ignored";
    struct err e = {0};
    struct form f;
    const struct form_field *file;
    arena *a = arena_new();

    CHECK_INT(
        form_parse("multipart/form-data; boundary=XyZ", body, sizeof body - 1, a, &f, &e),
        0);
    CHECK_INT(f.n, 3);
    CHECK_STR(form_get(&f, "token"), "pt_abc");
    file = form_find(&f, "file");
    CHECK(file != NULL);
    if (file) {
        CHECK_STR(file->filename, "runs \"1\".csv");
        CHECK_STR(file->content_type, "text/csv");
        CHECK_INT(file->len, 35);
        CHECK(memcmp(file->value, "application,executable\r\n--XyZa\r\nx\0y", 35) == 0);
        CHECK_INT(file->value[file->len], 0);
    }
    CHECK_STR(form_get(&f, "empty"), "");
    /* quoted boundary parameter, with a preamble before the first boundary */
    {
        static const char b2[] = "preamble\r\n--a b\r\n"
                                 "Content-Disposition: form-data; name=\"x\"\r\n\r\n"
                                 "1\r\n--a b--";
        err_clear(&e);
        CHECK_INT(form_parse("multipart/form-data; charset=utf-8; boundary=\"a b\"", b2,
                             sizeof b2 - 1, a, &f, &e),
                  0);
        CHECK_INT(f.n, 1);
        CHECK_STR(form_get(&f, "x"), "1");
    }
    arena_free(a);
}

static void test_multipart_errors(void)
{
    static const struct {
        const char *body;
        enum err_code status;
    } bad[] = {
        {"no boundary here", ERR_BAD_REQUEST},
        {"--B\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nunterminated",
         ERR_BAD_REQUEST},
        {"--B\r\nContent-Type: text/plain\r\n\r\nx\r\n--B--", ERR_BAD_REQUEST},
        {"--B\r\nContent-Disposition: attachment; name=\"x\"\r\n\r\nx\r\n--B--",
         ERR_BAD_REQUEST},
        {"--B\r\nContent-Disposition: form-data; filename=\"f\"\r\n\r\nx\r\n--B--",
         ERR_BAD_REQUEST},
        {"--B\r\nContent-Disposition: form-data; name=\"x\r\n\r\nx\r\n--B--",
         ERR_BAD_REQUEST},
        {"--B\r\nContent-Disposition: form-data; name=\"x\"\r\nbroken "
         "header\r\n\r\nx\r\n--B--",
         ERR_BAD_REQUEST},
        {"--Bjunk\r\n", ERR_BAD_REQUEST},
        {"--B\r\nContent-Disposition: form-data; name=\"x\"", ERR_BAD_REQUEST},
    };
    struct err e = {0};
    struct form f;
    arena *a = arena_new();
    size_t i;
    char *big;

    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err_clear(&e);
        CHECK_INT(form_parse("multipart/form-data; boundary=B", bad[i].body,
                             strlen(bad[i].body), a, &f, &e),
                  -1);
        if (e.status != bad[i].status)
            fprintf(stderr, "case %zu: status %d %s\n", i, e.status, e.message);
        CHECK_INT(e.status, bad[i].status);
        CHECK(e.message[0] != '\0');
    }
    /* missing or over-long boundary parameter */
    err_clear(&e);
    CHECK_INT(form_parse("multipart/form-data", "", 0, a, &f, &e), -1);
    CHECK_STR(e.code, "bad_form");
    err_clear(&e);
    CHECK_INT(
        form_parse("multipart/form-data; boundary="
                   "0123456789012345678901234567890123456789012345678901234567890123456"
                   "789",
                   "", 0, a, &f, &e),
        -1);
    CHECK_STR(e.code, "bad_form");
    /* too many header lines in one part */
    big = malloc(4096);
    {
        size_t n = (size_t)snprintf(
            big, 4096, "--B\r\nContent-Disposition: form-data; name=\"x\"\r\n");
        for (i = 0; i < FORM_MAX_PART_HEADERS; i++)
            n += (size_t)snprintf(big + n, 4096 - n, "X-A: 1\r\n");
        snprintf(big + n, 4096 - n, "\r\nx\r\n--B--");
    }
    err_clear(&e);
    CHECK_INT(form_parse_multipart(big, strlen(big), "B", a, &f, &e), -1);
    CHECK_INT(e.status, ERR_TOO_LARGE);
    free(big);
    /* a text part over the limit; a file part of the same size is fine */
    big = malloc(FORM_MAX_TEXT + 256);
    {
        size_t n = (size_t)snprintf(
            big, 256, "--B\r\nContent-Disposition: form-data; name=\"t\"\r\n\r\n");
        memset(big + n, 'x', FORM_MAX_TEXT + 1);
        memcpy(big + n + FORM_MAX_TEXT + 1, "\r\n--B--", 7);
        err_clear(&e);
        CHECK_INT(form_parse_multipart(big, n + FORM_MAX_TEXT + 8, "B", a, &f, &e), -1);
        CHECK_INT(e.status, ERR_TOO_LARGE);
        CHECK_STR(e.field, "t");
        n = (size_t)snprintf(
            big, 256,
            "--B\r\nContent-Disposition: form-data; name=\"t\"; filename=\"f\"\r\n\r\n");
        memset(big + n, 'x', FORM_MAX_TEXT + 1);
        memcpy(big + n + FORM_MAX_TEXT + 1, "\r\n--B--", 7);
        err_clear(&e);
        CHECK_INT(form_parse_multipart(big, n + FORM_MAX_TEXT + 8, "B", a, &f, &e), 0);
        CHECK_INT(f.fields[0].len, FORM_MAX_TEXT + 1);
    }
    free(big);
    arena_free(a);
}

int main(void)
{
    RUN(test_urlencoded);
    RUN(test_urlencoded_errors);
    RUN(test_multipart);
    RUN(test_multipart_errors);
    return harness_report();
}
