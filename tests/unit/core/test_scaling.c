/* Unit tests for core/scaling: a whole application's scaling over a real
 * SQLite database. Kernels with exact laws fix the shares and the
 * bottleneck; every refusal names its field; the page's flags choose a
 * curve and answer the selection alone; and an allocation failing at any
 * point gives an error, never a crash or a half answer (leaks show under
 * the sanitizer build). */
#include "common/xalloc.h"
#include "common/xalloc_json.h"
#include "core/ingest.h"
#include "core/scaling.h"
#include "tests/harness.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/prophecy-scalingtest-XXXXXX";
static db *D;

static const char *path(const char *name)
{
    static char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

/* Stores runs of app at nprocs ps with input N, kernels 100/p + 1,
 * 0.05 p and log2 p. */
static void store(const char *app, const char *system, double n, const int *ps,
                  size_t nps)
{
    json_t *runs = json_array(), *body;
    struct ingest in;
    struct err e = {0};
    arena *a = arena_new();
    size_t i;
    for (i = 0; i < nps; i++) {
        double p = ps[i];
        json_array_append_new(
            runs,
            json_pack("{s:s, s:s, s:s, s:i, s:{s:f}, s:f, s:[{s:s, s:f}, {s:s, s:f}, "
                      "{s:s, s:f}]}",
                      "application", app, "executable", "e", "system", system, "nprocs",
                      ps[i], "inputs", "N", n, "runtime",
                      100 / p + 1 + 0.05 * p + log2(p), "kernels", "name", "solve",
                      "time", 100 / p + 1, "name", "exchange", "time", 0.05 * p, "name",
                      "reduce", "time", log2(p)));
    }
    body = json_pack("{s:o}", "runs", runs);
    CHECK_INT(ingest_json(&in, body, "tester", a, &e), 0);
    CHECK_INT(ingest_commit(D, &in, &e), 0);
    json_decref(body);
    arena_free(a);
}

static json_t *ask(const char *app, int flags, struct err *e, const char *query)
{
    json_t *q = json_loads(query, 0, NULL), *out;
    CHECK(q != NULL);
    out = scaling_answer(D, app, q, flags, e);
    json_decref(q);
    return out;
}

static double num(json_t *o, const char *key)
{
    return json_number_value(json_object_get(o, key));
}

static void test_exact_laws(void)
{
    struct err e = {0};
    json_t *b = ask("laws", 0, &e, "{\"target\": \"256\"}"), *k;
    double tm = 2.5625 + 3.2 + 6, tt = 1.390625 + 12.8 + 8;
    CHECK(b != NULL);
    if (b == NULL)
        return;
    CHECK_STR(json_string_value(json_object_get(b, "bottleneck")), "exchange");
    CHECK_NEAR(num(json_object_get(b, "total"), "measured"), tm, 1e-9);
    CHECK_NEAR(num(json_object_get(b, "total"), "target"), tt, 1e-9);
    k = json_array_get(json_object_get(b, "kernels"), 0);
    CHECK_STR(json_string_value(json_object_get(k, "name")), "exchange");
    CHECK_NEAR(num(k, "share_measured"), 3.2 / tm, 1e-9);
    CHECK_NEAR(num(k, "share_target"), 12.8 / tt, 1e-9);
    CHECK(json_is_true(json_object_get(k, "worse_than_whole")));
    k = json_array_get(json_object_get(b, "kernels"), 2);
    CHECK_STR(json_string_value(json_object_get(k, "name")), "solve");
    CHECK_NEAR(num(k, "y"), 1.390625, 1e-9);
    CHECK(json_is_false(json_object_get(k, "worse_than_whole")));
    CHECK_INT((int)json_array_size(json_object_get(b, "skipped")), 0);
    json_decref(b);
}

static void test_refusals(void)
{
    static const struct {
        const char *app, *query;
        enum err_code status;
        const char *field;
    } cases[] = {
        {"nope", "{}", ERR_NOT_FOUND, "application"},
        {"laws", "{\"system\": \"zz\"}", ERR_NOT_FOUND, "system"},
        {"laws", "{\"executable\": \"zz\"}", ERR_NOT_FOUND, "executable"},
        {"laws", "{\"x\": \"bogus\"}", ERR_INVALID, "x"},
        {"laws", "{\"target\": \"0\"}", ERR_INVALID, "target"},
        {"laws", "{\"target\": \"nan\"}", ERR_INVALID, "target"},
        {"laws", "{\"input.N\": \"x\"}", ERR_INVALID, "input.N"},
        {"laws", "{\"input.\": \"1\"}", ERR_INVALID, "input."},
        {"laws", "{\"nprocs\": \"4\"}", ERR_INVALID, "nprocs"},
        {"few", "{}", ERR_INVALID, "x"},
        {"mixed", "{}", ERR_INVALID, "system"},
        {"mixed", "{\"system\": \"s\"}", ERR_INVALID, "input.N"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct err e = {0};
        json_t *b = ask(cases[i].app, 0, &e, cases[i].query);
        CHECK(b == NULL);
        json_decref(b);
        if (e.status != cases[i].status || strcmp(e.field, cases[i].field) != 0)
            fprintf(stderr, "case %zu: %d %s (%s)\n", i, e.status, e.field, e.message);
        CHECK_INT(e.status, cases[i].status);
        CHECK_STR(e.field, cases[i].field);
    }
}

static void test_page_flags(void)
{
    struct err e = {0};
    json_t *b = ask("mixed", SCALING_CHOOSE | SCALING_SELECT_ONLY, &e, "{}");
    CHECK(b != NULL);
    if (b == NULL)
        return;
    /* the group measured at the most values: system s, N = 1000 */
    CHECK_STR(
        json_string_value(json_object_get(json_object_get(b, "selection"), "system")),
        "s");
    CHECK_NEAR(num(json_object_get(json_object_get(b, "selection"), "fixed"), "N"), 1000,
               0);
    CHECK(json_object_get(b, "kernels") == NULL);
    CHECK_NEAR(num(b, "target"), 256, 0);
    json_decref(b);
    b = ask("mixed", SCALING_CHOOSE, &e, "{}");
    CHECK(b != NULL && json_array_size(json_object_get(b, "kernels")) == 3);
    json_decref(b);
}

/* An answer is whole: every kernel with its law and shares, the runtime. */
static int whole(json_t *b)
{
    json_t *k;
    size_t i;
    if (json_array_size(json_object_get(b, "kernels")) != 3 ||
        json_array_size(json_object_get(b, "skipped")) != 0 ||
        !json_is_object(json_object_get(b, "runtime")) ||
        !json_is_string(json_object_get(b, "bottleneck")))
        return 0;
    json_array_foreach(json_object_get(b, "kernels"), i,
                       k) if (!json_is_string(json_object_get(k, "formula")) ||
                              !json_is_number(json_object_get(k, "share_target")) ||
                              !json_is_number(json_object_get(k, "hi"))) return 0;
    return 1;
}

/* The allocations of one answer failing one at a time (every one up to 400,
 * then a sample): each gives an error or a whole answer, never a part. */
static void test_allocation_failures(void)
{
    long nth, total, fails = 0;
    struct err e = {0};
    json_t *q = json_pack("{s:s}", "target", "256"), *b;
    CHECK(q != NULL);
    xalloc_fail_at(0);
    b = scaling_answer(D, "laws", q, 0, &e);
    total = xalloc_count();
    CHECK(b != NULL && whole(b));
    json_decref(b);
    for (nth = 1; nth <= total; nth += nth < 400 ? 1 : 97) {
        err_clear(&e);
        xalloc_fail_at(nth);
        b = scaling_answer(D, "laws", q, 0, &e);
        xalloc_fail_at(0);
        if (b == NULL) {
            fails++;
            if (e.status == 0)
                fprintf(stderr, "allocation %ld failing: no error set\n", nth);
            CHECK(e.status != 0);
        } else if (!whole(b)) {
            fprintf(stderr, "allocation %ld failing gave a partial answer\n", nth);
            CHECK(0);
        }
        json_decref(b);
    }
    CHECK(fails > 50);
    json_decref(q);
}

int main(void)
{
    static const int ps[] = {2, 4, 8, 16, 32, 64};
    struct err e = {0};
    xalloc_json(); /* fault injection reaches Jansson too */
    gsl_set_error_handler_off();
    if (mkdtemp(dir) == NULL || db_open(&D, path("s.db"), NULL, &e) != 0)
        return 1;
    store("laws", "s", 1000, ps, 6);
    store("few", "s", 1000, ps, 2);
    store("mixed", "s", 1000, ps, 6);
    store("mixed", "s", 2000, ps, 4);
    store("mixed", "t", 1000, ps, 3);
    RUN(test_exact_laws);
    RUN(test_refusals);
    RUN(test_page_flags);
    RUN(test_allocation_failures);
    db_close(D);
    return harness_report_removing(dir);
}
