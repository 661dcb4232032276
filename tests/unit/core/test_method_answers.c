/* Tests of the modeling methods' answer schemas (core/method_fit.h,
 * core/method_param.h): an answer written to text (as a saved model is
 * stored) and read back is the same thing as the fresh one — equal JSON,
 * bit-equal predictions — and the decoders' refusals name their field. */
#include "core/method_fit.h"
#include "core/method_param.h"
#include "tests/harness.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The answer through text and back, as model_save stores it. */
static json_t *stored(json_t *ans)
{
    char *text = json_dumps(ans, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_t *back;
    if (text == NULL)
        return NULL;
    back = json_loads(text, 0, NULL);
    free(text);
    return back;
}

static int same_double(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static json_t *request(const char *text)
{
    json_t *r = json_loads(text, 0, NULL);
    if (r == NULL)
        fprintf(stderr, "bad test request: %s\n", text);
    return r;
}

/* Every prediction of a fresh answer, asked again of the stored answer. */
static void check_fit_round_trip(const char *req_text, const char *const *names)
{
    struct err e = {0};
    json_t *req = request(req_text), *ans, *back, *p;
    struct fit_model m1, m2;
    const char *n1[FIT_MAX_VARS], *n2[FIT_MAX_VARS];
    size_t i;

    ans = fit_answer(NULL, req, &e);
    CHECK(ans != NULL);
    if (ans == NULL) {
        fprintf(stderr, "%s\n", e.message);
        json_decref(req);
        return;
    }
    back = stored(ans);
    CHECK(back != NULL && json_equal(ans, back));
    CHECK_INT(fit_answer_read(ans, &m1, n1, &e), 0);
    CHECK_INT(fit_answer_read(back, &m2, n2, &e), 0);
    CHECK_INT(m1.nvars, m2.nvars);
    for (int k = 0; k < m1.nterms; k++)
        CHECK(same_double(m1.coef[k], m2.coef[k]));
    json_array_foreach(json_object_get(ans, "predictions"), i, p)
    {
        json_t *x = json_object_get(p, "x"), *point = json_object(), *q;
        if (json_is_number(x))
            json_object_set(point, names[0], x);
        else
            for (int v = 0; v < m1.nvars; v++)
                json_object_set(point, names[v], json_array_get(x, (size_t)v));
        q = fit_predict_saved(back, point, &e);
        CHECK(q != NULL);
        if (q != NULL) {
            CHECK(same_double(json_number_value(json_object_get(q, "y")),
                              json_number_value(json_object_get(p, "y"))));
            CHECK(same_double(json_number_value(json_object_get(q, "lo")),
                              json_number_value(json_object_get(p, "lo"))));
            CHECK(same_double(json_number_value(json_object_get(q, "hi")),
                              json_number_value(json_object_get(p, "hi"))));
        }
        json_decref(q);
        json_decref(point);
    }
    json_decref(back);
    json_decref(ans);
    json_decref(req);
}

static void test_fit_answer_round_trip(void)
{
    static const char *const n1[] = {"N"}, *const n2[] = {"N", "P"};
    check_fit_round_trip("{\"x\": \"N\", \"data\": [[100, 0.0321], [200, 0.0903], [300, "
                         "0.0854], [400, 0.2121], [500, 0.3077]], \"graph\": \"cubic\", "
                         "\"predict\": [1200, 0.1, 333.3]}",
                         n1);
    check_fit_round_trip("{\"vars\": [\"N\", \"P\"], \"data\": [[200, 2, 0.13], [200, 4, "
                         "0.11], [400, 2, 0.5], [400, 4, 0.3], [800, 2, 2.1], [800, 4, "
                         "1.2], [600, 8, 0.7]], \"graph\": \"auto\", \"predict\": "
                         "[[2000, 64], [300, 3]]}",
                         n2);
}

static void check_refused(json_t *(*answer)(db *, json_t *, struct err *),
                          const char *req_text, enum err_code status, const char *field)
{
    struct err e = {0};
    json_t *req = request(req_text), *ans = answer(NULL, req, &e);
    CHECK(ans == NULL);
    CHECK_INT(e.status, status);
    CHECK_STR(e.field, field);
    json_decref(ans);
    json_decref(req);
}

static void test_fit_refusals(void)
{
    check_refused(fit_answer, "{\"x\": \"N+1\", \"data\": [[1, 2], [2, 4], [3, 5]]}",
                  ERR_INVALID, "x");
    check_refused(fit_answer, "{\"vars\": [\"N\", \"2P\"], \"data\": [[1, 2, 3]]}",
                  ERR_INVALID, "vars");
    check_refused(fit_answer,
                  "{\"data\": [[1, 1e154], [2, -1e154], [3, 1e154], [4, -1e154]], "
                  "\"graph\": \"linear\"}",
                  ERR_INVALID, "data");
    check_refused(fit_answer, "{\"data\": [[1, 2]], \"colour\": 1}", ERR_INVALID,
                  "colour");
    check_refused(fit_answer, "{\"data\": [[1, 2], [2, \"3\"]]}", ERR_INVALID, "data[1]");
}

/* The candidates the form proposes: the measured end nearest the target, the
 * powers of two towards it, the target. */
static void test_suggest_candidates(void)
{
    struct fit_model m;
    double c[10], t;
    memset(&m, 0, sizeof m);
    m.nvars = 1;
    m.xmin[0] = 2;
    m.xmax[0] = 64;
    CHECK_INT((int)fit_suggest_candidates(&m, (double[]){1000, 0}, c, 10), 5);
    CHECK(c[0] == 64 && c[1] == 128 && c[2] == 256 && c[3] == 512 && c[4] == 1000);
    CHECK_INT((int)fit_suggest_candidates(&m, (double[]){1000, 0}, c, 3),
              3); /* room kept for the target */
    CHECK(c[0] == 64 && c[1] == 128 && c[2] == 1000);
    CHECK_INT((int)fit_suggest_candidates(&m, (double[]){0.25, 0}, c, 10), 4);
    CHECK(c[0] == 2 && c[1] == 1 && c[2] == 0.5 && c[3] == 0.25);
    CHECK_INT((int)fit_suggest_candidates(&m, (double[]){10, 0}, c, 10), 1);
    CHECK(c[0] == 10);
    m.xmax[0] = 1000; /* not a power of two: the next one */
    CHECK_INT((int)fit_suggest_candidates(&m, (double[]){4096, 0}, c, 10), 4);
    CHECK(c[0] == 1000 && c[1] == 1024 && c[2] == 2048 && c[3] == 4096);
    t = NAN;
    CHECK_INT((int)fit_suggest_candidates(&m, &t, c, 10), 0);
    /* two variables: along N alone, along P alone, along both, the target */
    m.nvars = 2;
    m.xmin[0] = 100;
    m.xmax[0] = 400;
    m.xmin[1] = 1;
    m.xmax[1] = 4;
    {
        double c2[20], t2[2] = {1600, 16};
        const double want[] = {400, 4,   512, 4,   1024, 4,    1600, 4,    400,
                               8,   400, 16,  512, 8,    1024, 16,   1600, 16};
        size_t k;
        CHECK_INT((int)fit_suggest_candidates(&m, t2, c2, 10), 9);
        for (k = 0; k < 18; k++)
            CHECK(c2[k] == want[k]);
        CHECK_INT((int)fit_suggest_candidates(&m, t2, c2, 3), 3); /* target kept */
        CHECK(c2[4] == 1600 && c2[5] == 16);
        t2[0] = 200; /* inside on N: only P moves */
        CHECK_INT((int)fit_suggest_candidates(&m, t2, c2, 10), 3);
        CHECK(c2[0] == 200 && c2[1] == 4 && c2[2] == 200 && c2[3] == 8 && c2[4] == 200 &&
              c2[5] == 16);
    }
}

/* The form's ranking (from an answer, fresh or stored) is the API's. */
static void test_suggest_from_answer_is_the_api_one(void)
{
    static const char fit_req[] =
        "{\"x\": \"p\", \"graph\": \"auto\", \"data\": [[2, 103], [4, 52.5], "
        "[8, 27.1], [16, 15.9], [32, 9.6], [64, 7.3], [64, 7.1]]}";
    static const char sug_req[] =
        "{\"x\": \"p\", \"graph\": \"auto\", \"data\": [[2, 103], [4, 52.5], "
        "[8, 27.1], [16, 15.9], [32, 9.6], [64, 7.3], [64, 7.1]], \"target\": 1000, "
        "\"candidates\": [64, 128, 256, 512, 1000]}";
    const double cand[] = {64, 128, 256, 512, 1000}, target = 1000;
    struct err e = {0};
    json_t *rq = request(fit_req), *rs = request(sug_req), *ans, *back, *a, *b, *c;
    size_t i;

    ans = fit_answer(NULL, rq, &e);
    CHECK(ans != NULL);
    a = fit_suggest_answer(NULL, rs, &e);
    CHECK(a != NULL);
    back = stored(ans);
    b = fit_suggest_saved(ans, &target, cand, 5, &e);
    c = fit_suggest_saved(back, &target, cand, 5, &e);
    CHECK(b != NULL && c != NULL);
    for (i = 0; a && b && c && i < 5; i++) {
        json_t *sa = json_array_get(json_object_get(a, "suggestions"), i);
        json_t *sb = json_array_get(json_object_get(b, "suggestions"), i);
        json_t *sc = json_array_get(json_object_get(c, "suggestions"), i);
        double na = json_number_value(json_object_get(sa, "narrowing"));
        CHECK(json_equal(json_object_get(sa, "x"), json_object_get(sb, "x")));
        CHECK(json_equal(json_object_get(sa, "x"), json_object_get(sc, "x")));
        CHECK(same_double(na, json_number_value(json_object_get(sb, "narrowing"))));
        CHECK(same_double(na, json_number_value(json_object_get(sc, "narrowing"))));
    }
    CHECK(a && b &&
          json_equal(json_object_get(a, "target"), json_object_get(b, "target")));
    /* refusals */
    CHECK(fit_suggest_saved(ans, &target, cand, 0, &e) == NULL);
    CHECK_STR(e.field, "candidates");
    json_decref(a);
    json_decref(b);
    json_decref(c);
    json_decref(back);
    json_decref(ans);
    json_decref(rq);
    json_decref(rs);
}

static void test_param_answer_round_trip(void)
{
    struct err e = {0};
    json_t *req = request("{\"expression\": \"2*N+P\", \"vars\": {\"N\": [1, 10], \"P\": "
                          "8}}"),
           *ans = param_answer(NULL, req, &e), *back, *point, *p;

    CHECK(ans != NULL);
    if (ans == NULL) {
        fprintf(stderr, "%s\n", e.message);
        json_decref(req);
        return;
    }
    back = stored(ans);
    CHECK(back != NULL && json_equal(ans, back));
    /* The range variable is required; the fixed one keeps its value. */
    point = json_pack("{s:f}", "N", 5.0);
    p = param_predict_saved(back, point, &e);
    CHECK(p != NULL && json_number_value(json_object_get(p, "y")) == 18.0);
    json_decref(p);
    json_decref(point);
    /* nprocs is P. */
    point = json_pack("{s:f, s:f}", "N", 5.0, "nprocs", 4.0);
    p = param_predict_saved(back, point, &e);
    CHECK(p != NULL && json_number_value(json_object_get(p, "y")) == 14.0);
    json_decref(p);
    json_decref(point);
    /* Both, differing: refused. Missing N: refused, naming N. */
    memset(&e, 0, sizeof e);
    point = json_pack("{s:f, s:f, s:f}", "N", 5.0, "nprocs", 4.0, "P", 8.0);
    CHECK(param_predict_saved(back, point, &e) == NULL);
    CHECK_STR(e.field, "nprocs");
    json_decref(point);
    memset(&e, 0, sizeof e);
    point = json_pack("{s:f}", "P", 4.0);
    CHECK(param_predict_saved(back, point, &e) == NULL);
    CHECK_STR(e.field, "N");
    json_decref(point);
    json_decref(back);
    json_decref(ans);
    json_decref(req);
}

int main(void)
{
    gsl_set_error_handler_off();
    RUN(test_fit_answer_round_trip);
    RUN(test_fit_refusals);
    RUN(test_suggest_candidates);
    RUN(test_suggest_from_answer_is_the_api_one);
    RUN(test_param_answer_round_trip);
    return harness_report();
}
