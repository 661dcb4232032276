/* test_upl_csv: the strict CSV reader of prophecy-upload --csv, and the
 * shapes of JSON input files (ids added, batches, errors). */
#include "uploader/upl_csv.h"
#include "uploader/upl_run.h"

#include "tests/harness.h"

#include <stdlib.h>
#include <string.h>

#define HDR "application,executable,system,nprocs,runtime"

static json_t *parse(const char *text, struct err *e)
{
    err_clear(e);
    return upl_csv_parse(text, strlen(text), e);
}

/* Parses text that must fail; checks the message contains `want`. */
static void expect_error(const char *text, const char *want)
{
    struct err e;
    json_t *r = parse(text, &e);
    CHECK(r == NULL);
    CHECK(strstr(e.message, want) != NULL);
    if (r != NULL || strstr(e.message, want) == NULL)
        fprintf(stderr, "  input %s\n  got \"%s\", want \"%s\"\n", text, e.message, want);
    json_decref(r);
}

static void test_basic(void)
{
    struct err e;
    json_t *r = parse(HDR ",N,M\nmatmul,mm_gcc,sgi,8,12.5,1000,2\n"
                          "matmul,mm_gcc,sgi,16,6.5,1000,\n",
                      &e);
    json_t *a, *b;
    CHECK(r != NULL);
    if (r == NULL)
        return;
    CHECK_INT(json_array_size(r), 2);
    a = json_array_get(r, 0);
    b = json_array_get(r, 1);
    CHECK_STR(json_string_value(json_object_get(a, "application")), "matmul");
    CHECK_STR(json_string_value(json_object_get(a, "system")), "sgi");
    CHECK_INT(json_integer_value(json_object_get(a, "nprocs")), 8);
    CHECK_NEAR(json_number_value(json_object_get(a, "runtime")), 12.5, 0);
    CHECK_NEAR(json_number_value(json_object_get(json_object_get(a, "inputs"), "N")),
               1000, 0);
    CHECK_NEAR(json_number_value(json_object_get(json_object_get(a, "inputs"), "M")), 2,
               0);
    /* empty input cell: the input is absent for that run */
    CHECK(json_object_get(json_object_get(b, "inputs"), "M") == NULL);
    json_decref(r);
}

static void test_quotes_crlf_bom(void)
{
    struct err e;
    json_t *r =
        parse("\xEF\xBB\xBF" HDR "\r\n\"mat,mul\",\"say \"\"hi\"\"\",\"two\nlines\","
              "4,1e-3\r\n\r\n",
              &e);
    json_t *a;
    CHECK(r != NULL);
    if (r == NULL) {
        fprintf(stderr, "%s\n", e.message);
        return;
    }
    CHECK_INT(json_array_size(r), 1);
    a = json_array_get(r, 0);
    CHECK_STR(json_string_value(json_object_get(a, "application")), "mat,mul");
    CHECK_STR(json_string_value(json_object_get(a, "executable")), "say \"hi\"");
    CHECK_STR(json_string_value(json_object_get(a, "system")), "two\nlines");
    CHECK_NEAR(json_number_value(json_object_get(a, "runtime")), 1e-3, 0);
    json_decref(r);
    /* no final newline is fine */
    r = parse(HDR "\na,b,c,1,2", &e);
    CHECK(r != NULL && json_array_size(r) == 1);
    json_decref(r);
}

static void test_errors(void)
{
    char *big;
    size_t n = UPL_CSV_LINE_MAX + 100;

    expect_error("", "empty file");
    expect_error("app,executable,system,nprocs,runtime\n", "expected \"application\"");
    expect_error(HDR ",N,N\n", "repeated");
    expect_error(HDR "\na,b,c,1\n", "line 2: 4 fields, the header has 5");
    expect_error(HDR "\na,b,c,1,2\na,b,c,1,2,3\n", "line 3: 6 fields");
    expect_error(HDR "\na,b\"x,c,1,2\n", "line 2: quote inside an unquoted field");
    expect_error(HDR "\n\"a\"x,b,c,1,2\n",
                 "line 2: unexpected character after closing quote");
    expect_error(HDR "\n\"a,b,c,1,2\n", "line 2: quoted field never closed");
    expect_error(HDR "\na,b,c,1,2\rx\n", "line 2: carriage return");
    expect_error(HDR "\na,b,c,two,2\n", "line 2: nprocs is not a finite number");
    expect_error(HDR "\na,b,c,1.5,2\n", "line 2: nprocs must be a whole number");
    expect_error(HDR "\na,b,c,0,2\n", "nprocs must be a whole number >= 1");
    expect_error(HDR "\na,b,c,1,-2\n", "line 2: runtime is negative");
    expect_error(HDR "\na,b,c,1,nan\n", "not a finite number");
    expect_error(HDR "\na,b,c,1,1e999\n", "not a finite number");
    expect_error(HDR "\na,b,c,1,2x\n", "not a finite number");
    expect_error(HDR "\n,b,c,1,2\n", "line 2: application is empty");
    expect_error(HDR ",N\n\na,b,c,1,2,abc\n", "line 3: N is not a finite number");
    expect_error(HDR "\na,\"b\n\nc\",\"x\",1,zz\n", "line 2: runtime");
    expect_error(HDR "\n\xff,b,c,1,2\n", "not valid UTF-8");
    big = malloc(n + 64);
    CHECK(big != NULL);
    if (big) {
        size_t off = (size_t)snprintf(big, 64, "%s\n", HDR);
        memset(big + off, 'x', n);
        big[off + n] = '\0';
        expect_error(big, "line 2: longer than");
        free(big);
    }
}

static void test_json_shapes(void)
{
    struct err e = {0};
    const char *one = "{\"application\":\"a\",\"runtime\":1}";
    const char *batch = "{\"runs\":[{\"id\":\"keep\"},{\"application\":\"b\"}]}";
    json_t *r, *r2, *body, *back;
    const char *id1;

    r = upl_parse_runs(one, strlen(one), 0, &e);
    CHECK(r != NULL && json_array_size(r) == 1);
    id1 = json_string_value(json_object_get(json_array_get(r, 0), "id"));
    CHECK(id1 != NULL && strlen(id1) > 30);
    /* Same bytes, same ids: re-uploading a file is idempotent. */
    r2 = upl_parse_runs(one, strlen(one), 0, &e);
    CHECK_STR(json_string_value(json_object_get(json_array_get(r2, 0), "id")), id1);
    json_decref(r2);
    json_decref(r);

    r = upl_parse_runs(batch, strlen(batch), 0, &e);
    CHECK(r != NULL && json_array_size(r) == 2);
    CHECK_STR(json_string_value(json_object_get(json_array_get(r, 0), "id")), "keep");
    CHECK(json_object_get(json_array_get(r, 1), "id") != NULL);
    body = upl_batch_body(r, 0, 2);
    CHECK(json_array_size(json_object_get(body, "runs")) == 2);
    back = upl_body_runs(body);
    CHECK(json_array_size(back) == 2);
    json_decref(back);
    json_decref(body);
    body = upl_batch_body(r, 1, 1);
    CHECK(json_object_get(body, "runs") == NULL); /* a single run goes as itself */
    back = upl_body_runs(body);
    CHECK(json_array_size(back) == 1);
    json_decref(back);
    json_decref(body);
    json_decref(r);

    err_clear(&e);
    CHECK(upl_parse_runs("[1]", 3, 0, &e) == NULL);
    CHECK(strstr(e.message, "run object") != NULL);
    err_clear(&e);
    CHECK(upl_parse_runs("{\"runs\":[1]}", 12, 0, &e) == NULL);
    CHECK(strstr(e.message, "run 0 is not a JSON object") != NULL);
    err_clear(&e);
    CHECK(upl_parse_runs("{\"a\":", 5, 0, &e) == NULL);
    CHECK(strstr(e.message, "line 1") != NULL);
    err_clear(&e);
    CHECK(upl_parse_runs("{\"runs\":[], \"x\":1}", 18, 0, &e) == NULL);
}

static void test_ids_and_time(void)
{
    char a[UPL_ID_LEN + 1], b[UPL_ID_LEN + 1], t[32];
    CHECK(upl_random_id(a, sizeof a, NULL) == 0);
    CHECK(upl_random_id(b, sizeof b, NULL) == 0);
    CHECK_INT(strlen(a), UPL_ID_LEN);
    CHECK(strspn(a, "0123456789abcdef") == UPL_ID_LEN);
    CHECK(strcmp(a, b) != 0);
    upl_iso8601_now(t, sizeof t);
    CHECK_INT(strlen(t), 20);
    CHECK(t[4] == '-' && t[10] == 'T' && t[19] == 'Z');
}

int main(void)
{
    RUN(test_basic);
    RUN(test_quotes_crlf_bom);
    RUN(test_errors);
    RUN(test_json_shapes);
    RUN(test_ids_and_time);
    return harness_report();
}
