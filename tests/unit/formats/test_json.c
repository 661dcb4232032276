/* Tests of formats/json, the JSON decoding toolkit: decimal text, names,
 * identifiers, strict fields and the field paths of their errors. */
#include "common/xalloc.h"
#include "common/xalloc_json.h"
#include "formats/json.h"
#include "formats/limits.h"
#include "tests/harness.h"

#include <stdlib.h>
#include <string.h>

static void test_decimal(void)
{
    static const char *const good[] = {"16",    "-2",   "+16", "16.0", ".5", "5.",
                                       "1.6e1", "1E-3", "0",   "-0.0", NULL};
    static const double want[] = {16, -2, 16, 16, 0.5, 5, 16, 1e-3, 0, -0.0};
    static const char *const bad[] = {"",      "0x10", "0X10", "inf", "nan", "1e",
                                      "+",     ".",    "1,5",  " 16", "16 ", "0x1p4",
                                      "1e999", "--1",  "e3",   NULL};
    size_t i;
    for (i = 0; good[i]; i++) {
        struct err e = {0};
        double x = -1;
        CHECK_INT(json_parse_decimal(good[i], "N", &x, &e), 0);
        CHECK(x == want[i]);
    }
    for (i = 0; bad[i]; i++) {
        struct err e = {0};
        double x = -1;
        CHECK_INT(json_parse_decimal(bad[i], "N", &x, &e), -1);
        CHECK_INT(e.status, ERR_INVALID);
        CHECK_STR(e.field, "N");
        CHECK(x == -1);
    }
    /* the same grammar at the start of a longer text (the forms' lists) */
    CHECK_INT((int)json_decimal_len("1200, 16"), 4);
    CHECK_INT((int)json_decimal_len("1.5e3 "), 5);
    CHECK_INT((int)json_decimal_len("0x10"), 1);
    CHECK_INT((int)json_decimal_len("1e+"), 0);
    CHECK_INT((int)json_decimal_len("inf"), 0);
    CHECK_INT((int)json_decimal_len(NULL), 0);
}

static void test_names_and_identifiers(void)
{
    char longest[LIMIT_NAME + 2];
    arena *a = arena_new();
    struct err e = {0};
    json_t *v;

    memset(longest, 'n', LIMIT_NAME);
    longest[LIMIT_NAME] = '\0';
    CHECK_INT(json_check_ident(longest, "x", &e), 0);
    v = json_string(longest);
    CHECK(json_get_name(v, "x", LIMIT_NAME, a, &e) != NULL);
    json_decref(v);
    longest[LIMIT_NAME] = 'n';
    longest[LIMIT_NAME + 1] = '\0';
    CHECK_INT(json_check_ident(longest, "x", &e), -1);
    CHECK_STR(e.field, "x");
    memset(&e, 0, sizeof e);
    CHECK_INT(json_check_ident("N+1", "vars", &e), -1);
    CHECK_STR(e.field, "vars");
    memset(&e, 0, sizeof e);
    CHECK_INT(json_check_ident("1N", "x", &e), -1);
    memset(&e, 0, sizeof e);
    CHECK_INT(json_check_ident("_N_1", "x", &e), 0);
    CHECK_INT(json_check_name("a\tb", 3, "system", LIMIT_NAME, &e), -1);
    CHECK_STR(e.field, "system");
    memset(&e, 0, sizeof e);
    CHECK_INT(json_check_name("\xff", 1, "system", LIMIT_NAME, &e), -1);
    memset(&e, 0, sizeof e);
    v = json_integer(3);
    CHECK(json_get_name(v, "system", LIMIT_NAME, a, &e) == NULL);
    CHECK_INT(e.status, ERR_INVALID);
    json_decref(v);
    arena_free(a);
}

static void test_fields_and_numbers(void)
{
    static const char *const allowed[] = {"a", "b", NULL};
    struct err e = {0};
    json_t *o = json_pack("{s:i, s:i}", "a", 1, "c", 2), *arr;
    double out[4];
    size_t n = 0;

    CHECK_INT(json_only_fields(o, allowed, "inline form", &e), -1);
    CHECK_STR(e.field, "c");
    memset(&e, 0, sizeof e);
    CHECK_INT(json_only_fields_at(o, allowed, "kernels[2]", &e), -1);
    CHECK_STR(e.field, "kernels[2]");
    CHECK(strstr(e.message, "unknown field c in kernels[2]") != NULL);
    json_decref(o);
    memset(&e, 0, sizeof e);
    arr = json_pack("[f, i, f]", 1.5, 2, 3.5);
    CHECK_INT(json_get_numbers(arr, "range", 0, 4, out, &n, &e), 0);
    CHECK_INT(n, 3);
    CHECK(out[1] == 2.0);
    CHECK_INT(json_get_numbers(arr, "range", 2, 4, out, &n, &e), -1);
    CHECK_STR(e.field, "range");
    json_decref(arr);
    memset(&e, 0, sizeof e);
    arr = json_pack("[f, s]", 1.5, "2");
    CHECK_INT(json_get_numbers(arr, "range", 2, 4, out, NULL, &e), -1);
    CHECK(strstr(e.message, "range[1]") != NULL);
    json_decref(arr);
}

/* With xalloc_json() every allocation Jansson makes goes through xalloc:
 * they are counted, and an injected failure at each one in turn makes the
 * parse fail cleanly (NULL with an error text), never crash or half-build. */
static void test_jansson_through_xalloc(void)
{
    static const char doc[] = "{\"kernels\": [{\"name\": \"solve\", \"time\": 1.5}], "
                              "\"application\": \"matmul\"}";
    json_error_t je;
    json_t *v;
    long n, total;

    xalloc_fail_at(0);
    v = json_loads(doc, 0, &je);
    total = xalloc_count();
    CHECK(v != NULL);
    json_decref(v);
    CHECK(total >= 6); /* object, array, object, 2 strings, keys... */
    for (n = 1; n <= total; n++) {
        xalloc_fail_at(n);
        v = json_loads(doc, 0, &je);
        CHECK(v == NULL);
        json_decref(v);
    }
    xalloc_fail_at(0);
    v = json_loads(doc, 0, &je);
    CHECK(v != NULL);
    json_decref(v);
}

int main(void)
{
    xalloc_json();
    RUN(test_jansson_through_xalloc);
    RUN(test_decimal);
    RUN(test_names_and_identifiers);
    RUN(test_fields_and_numbers);
    return harness_report();
}
