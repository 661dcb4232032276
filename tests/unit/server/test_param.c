/* Unit tests of the parameterization method (core/method_param.c, its chart
 * web/chart_param.c): param_answer on the demo database, and the parts no
 * route of this branch reaches: param_predict_saved and param_plot, which
 * must work from a saved answer alone. */
#include "core/method_param.h"
#include "db/catalog.h"
#include "server/demo.h" /* the example data set (server/ until it moves) */
#include "web/chart.h"
#include "tests/harness.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/prophecy-paramtest-XXXXXX";
static char dbpath[128];
static db *d;

/* The worked check of SPEC §5.2, computed here from the formula. */
static double matmul_sp2(double N, double P, double L)
{
    double sr = 0.001 * (15.94 + 0.0608 * L);
    return 4.83e-8 * N * N * N / (P - 1) + 2 * N * sr / (P - 1) + N * log2(P) * sr;
}

static json_t *request(const char *text)
{
    json_error_t je;
    json_t *v = json_loads(text, 0, &je);
    if (v == NULL)
        fprintf(stderr, "bad test JSON: %s\n", je.text);
    return v;
}

static json_t *answer_of(const char *text, struct err *e)
{
    json_t *req = request(text), *ans;
    memset(e, 0, sizeof *e);
    ans = param_answer(d, req, e);
    json_decref(req);
    return ans;
}

static void test_inline_needs_no_database(void)
{
    struct err e = {0};
    json_t *req =
        request("{\"expression\": \"ADDM*N^3/(P-1)+2*N*MPISR(L)/(P-1)+N*MPIBC(L)\","
                " \"parameters\": {\"ADDM\": \"4.83e-8\", \"MPISR(L)\": "
                "\"0.001*(15.94+0.0608*L)\","
                " \"MPIBC(L)\": \"log2(P)*0.001*(15.94+0.0608*L)\"},"
                " \"vars\": {\"N\": 1000, \"P\": 8, \"L\": 1024}}");
    json_t *ans = param_answer(NULL, req, &e);
    CHECK(ans != NULL);
    if (ans) {
        CHECK_NEAR(json_real_value(json_object_get(ans, "value")),
                   matmul_sp2(1000, 8, 1024), 1e-13);
        CHECK(json_object_get(ans, "measured") == NULL); /* no application, system */
    }
    json_decref(ans);
    json_decref(req);
}

static void test_predict_from_saved_answer(void)
{
    struct err e;
    json_t *ans = answer_of("{\"template\": \"matmul master/slave\", \"system\": "
                            "\"IBM SP2 (example)\", \"vars\": {\"N\": [100, 2000, 20], "
                            "\"P\": 8, \"L\": 1024}}",
                            &e);
    json_t *pt, *out;
    struct param_record p = {"ADDM", "", "1", "test"};

    CHECK(ans != NULL);
    if (ans == NULL) {
        fprintf(stderr, "%s\n", e.message);
        return;
    }
    /* Editing the system afterwards must not change the saved model. */
    CHECK_INT(db_params_set(d, "IBM SP2 (example)", &p, 1, &e), 0);

    pt = request("{\"N\": 1000}");
    out = param_predict_saved(ans, pt, &e);
    CHECK(out != NULL);
    if (out) {
        CHECK_NEAR(json_real_value(json_object_get(out, "y")), matmul_sp2(1000, 8, 1024),
                   1e-13);
        CHECK_NEAR(json_real_value(json_object_get(json_object_get(out, "x"), "P")), 8,
                   0);
        CHECK_INT(json_object_size(json_object_get(out, "x")), 3);
    }
    json_decref(out);
    json_decref(pt);

    /* A point overrides a fixed variable; unknown names are ignored. */
    pt = request("{\"N\": 500, \"P\": 16, \"Q\": 3}");
    out = param_predict_saved(ans, pt, &e);
    CHECK(out != NULL);
    if (out)
        CHECK_NEAR(json_real_value(json_object_get(out, "y")), matmul_sp2(500, 16, 1024),
                   1e-13);
    json_decref(out);
    json_decref(pt);

    /* The range variable is required. */
    pt = request("{\"P\": 16}");
    memset(&e, 0, sizeof e);
    CHECK(param_predict_saved(ans, pt, &e) == NULL);
    CHECK_INT(e.status, ERR_INVALID);
    CHECK_STR(e.field, "N");
    json_decref(pt);

    pt = request("{\"N\": \"many\"}");
    memset(&e, 0, sizeof e);
    CHECK(param_predict_saved(ans, pt, &e) == NULL);
    CHECK_INT(e.status, ERR_INVALID);
    CHECK_STR(e.field, "N");
    json_decref(pt);

    /* Division by zero at P = 1: an error, never inf in JSON. */
    pt = request("{\"N\": 10, \"P\": 1}");
    memset(&e, 0, sizeof e);
    CHECK(param_predict_saved(ans, pt, &e) == NULL);
    CHECK_INT(e.status, ERR_INVALID);
    json_decref(pt);

    p.expression = "4.83e-8";
    p.source = "example";
    CHECK_INT(db_params_set(d, "IBM SP2 (example)", &p, 1, &e), 0);
    json_decref(ans);
}

static void test_predict_malformed_answer(void)
{
    struct err e = {0};
    json_t *bad = request("{\"vars\": {\"N\": 1}}"), *pt = request("{}");
    CHECK(param_predict_saved(bad, pt, &e) == NULL);
    CHECK_INT(e.status, ERR_INTERNAL);
    json_decref(bad);
    json_decref(pt);
}

/* Renders twice; checks both are the same complete SVG document. */
static void check_plot(json_t *ans, const char *must_contain)
{
    struct buf a, b;
    struct err e = {0};

    buf_init(&a, 16u << 20);
    buf_init(&b, 16u << 20);
    CHECK_INT(param_plot(ans, &a, &e), 0);
    CHECK_INT(param_plot(ans, &b, &e), 0);
    CHECK(a.len > 1000);
    CHECK(a.len == b.len && memcmp(buf_str(&a), buf_str(&b), a.len) == 0);
    CHECK(strncmp(buf_str(&a), "<?xml", 5) == 0 && strstr(buf_str(&a), "<svg") != NULL);
    CHECK(strstr(buf_str(&a), "<title>") != NULL);
    CHECK(strstr(buf_str(&a), "</svg>") != NULL);
    CHECK(strstr(buf_str(&a), must_contain) != NULL);
    CHECK(strstr(buf_str(&a), "nan") == NULL && strstr(buf_str(&a), "inf") == NULL);
    buf_free(&a);
    buf_free(&b);
}

static void test_plots(void)
{
    struct err e;
    struct buf b;
    json_t *curve = answer_of("{\"template\": \"matmul master/slave\", \"system\": "
                              "\"IBM SP2 (example)\", \"vars\": {\"N\": 1000, "
                              "\"P\": [2, 64], \"L\": 1024}}",
                              &e);
    json_t *surface =
        answer_of("{\"template\": \"matmul master/slave\", \"system\": "
                  "\"IBM SP2 (example)\", \"vars\": {\"N\": [500, 1500, 20], "
                  "\"P\": [2, 64, 25], \"L\": 1024}}",
                  &e);
    json_t *point = answer_of("{\"template\": \"matmul master/slave\", \"system\": "
                              "\"IBM SP2 (example)\", \"vars\": {\"N\": 1000, \"P\": 8, "
                              "\"L\": 1024}}",
                              &e);

    CHECK(curve != NULL && surface != NULL && point != NULL);
    if (curve) {
        /* The 6 measured configurations (P = 2 .. 64) are drawn. */
        CHECK_INT(json_array_size(json_object_get(curve, "measured")), 6);
        check_plot(curve, "measured");
    }
    if (surface)
        check_plot(surface, "measured");
    if (point) {
        buf_init(&b, 1 << 20);
        memset(&e, 0, sizeof e);
        CHECK_INT(param_plot(point, &b, &e), -1);
        CHECK_INT(e.status, ERR_INVALID);
        CHECK(strstr(e.message, "a plot needs a range") != NULL);
        CHECK_INT(b.len, 0);
        buf_free(&b);
    }
    json_decref(curve);
    json_decref(surface);
    json_decref(point);
}

static void test_plot_malformed_grid(void)
{
    struct err e = {0};
    struct buf b;
    json_t *bad = request("{\"expression\": \"N\", \"vars\": {\"N\": [1, 2, 3]}, "
                          "\"grid\": {\"x\": \"N\", \"xs\": [1, 2, 3], \"ys\": [1, 2]}}");
    buf_init(&b, 1 << 20);
    CHECK_INT(param_plot(bad, &b, &e), -1);
    CHECK_INT(e.status, ERR_INTERNAL);
    buf_free(&b);
    json_decref(bad);
}

int main(void)
{
    struct err e = {0};

    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(dbpath, sizeof dbpath, "%s/p.db", dir);
    if (db_open(&d, dbpath, NULL, &e) != 0 || db_begin(d, &e) != 0 ||
        demo_write(d, &e) != 0 || db_commit(d, &e) != 0) {
        fprintf(stderr, "setup: %s\n", e.message);
        return 1;
    }
    RUN(test_inline_needs_no_database);
    RUN(test_predict_from_saved_answer);
    RUN(test_predict_malformed_answer);
    RUN(test_plots);
    RUN(test_plot_malformed_grid);
    db_close(d);
    return harness_report_removing(dir);
}
