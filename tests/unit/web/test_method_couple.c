/* Tests of the coupling method (core/method_couple.h) and its charts
 * (web/chart_couple.c) without HTTP; here in the web layer's tests because
 * the plots are web/:
 * couple_answer on inline requests, couple_predict_saved on the answer (also
 * after a round trip through text, as a saved model is stored), both plots,
 * and rejection of a malformed saved answer. The database form and the HTTP
 * errors are covered by tests/api/test_couple.py. */
#include "common/xalloc.h"
#include "common/xalloc_json.h"
#include "core/method_couple.h"
#include "web/chart.h"
#include "tests/harness.h"

#include <gsl/gsl_errno.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

static const char SPEC[] =
    "{\"kernels\": ["
    " {\"name\": \"init\", \"loop\": false, \"data\": [[4, 2.0], [9, 1.1], [16, 0.8]]},"
    " {\"name\": \"A\", \"loop\": true, \"data\": [[4, 10.0], [9, 4.6], [16, 2.7]],"
    "  \"graph\": \"inv1\"},"
    " {\"name\": \"B\", \"loop\": true, \"data\": [[4, 6.0], [9, 2.9], [16, 1.8]],"
    "  \"graph\": \"inv1\"},"
    " {\"name\": \"C\", \"loop\": true, \"expression\": \"k/P+0.1\","
    "  \"parameters\": {\"k\": \"11.6\"}}],"
    " \"couplings\": ["
    " {\"kernels\": [\"A\", \"B\"], \"alone\": [10.0, 6.0], \"together\": 14.9},"
    " {\"kernels\": [\"B\", \"C\"], \"alone\": [6.0, 3.0], \"together\": 9.4},"
    " {\"kernels\": [\"C\", \"A\"], \"alone\": [3.0, 10.0], \"together\": 12.1}],"
    " \"measured\": [[4, 20.1], [9, 9.8], [16, 6.4], [25, 4.9]],"
    " \"predict\": [81, 25]}";

static json_t *answer_of(const char *text, struct err *e)
{
    json_t *req = json_loads(text, 0, NULL), *a;
    CHECK(req != NULL);
    a = couple_answer(NULL, req, e);
    json_decref(req);
    return a;
}

static double get(json_t *o, const char *path)
{
    /* "a.b" only, enough here */
    const char *dot = strchr(path, '.');
    if (dot) {
        char head[64];
        snprintf(head, sizeof head, "%.*s", (int)(dot - path), path);
        return get(json_object_get(o, head), dot + 1);
    }
    return json_number_value(json_object_get(o, path));
}

static void test_answer_and_saved_predict_agree(void)
{
    struct err e = {0};
    json_t *a = answer_of(SPEC, &e), *p0, *pt, *q, *again;
    char *text;
    double psi = (14.9 / 16 * 14.9 + 12.1 / 13 * 12.1) / (14.9 + 12.1);

    CHECK(a != NULL);
    if (a == NULL) {
        fprintf(stderr, "%s (%s)\n", e.message, e.field);
        return;
    }
    CHECK_NEAR(get(a, "coefficients.A"), psi, 1e-15);
    CHECK_NEAR(get(a, "coefficients.init"), 1.0, 0);
    p0 = json_array_get(json_object_get(a, "predictions"), 0);
    /* C is a parameterization: 11.6/81 + 0.1 exactly, coefficient kappa */
    CHECK_NEAR(get(p0, "kernels.C"), get(a, "coefficients.C") * (11.6 / 81 + 0.1), 1e-15);
    /* measured at 25: actual and both errors */
    q = json_array_get(json_object_get(a, "predictions"), 1);
    CHECK_NEAR(get(q, "actual"), 4.9, 0);
    CHECK_NEAR(get(q, "error_pct"), 100 * (get(q, "y") - 4.9) / 4.9, 1e-12);
    CHECK_NEAR(get(q, "summation_error_pct"), 100 * (get(q, "summation.y") - 4.9) / 4.9,
               1e-12);
    CHECK(json_object_get(p0, "actual") == NULL);

    /* predict from the answer, and from the answer stored as text */
    text = json_dumps(a, JSON_COMPACT);
    again = json_loads(text, 0, NULL);
    free(text);
    pt = json_pack("{s:f}", "P", 81.0);
    q = couple_predict_saved(again, pt, &e);
    CHECK(q != NULL);
    if (q != NULL) {
        CHECK(get(q, "y") == get(p0, "y"));
        CHECK(get(q, "lo") == get(p0, "lo"));
        CHECK(get(q, "hi") == get(p0, "hi"));
        CHECK(get(q, "summation.y") == get(p0, "summation.y"));
    }
    json_decref(q);
    json_decref(pt);
    pt = json_pack("{s:s}", "nprocs", "81");
    q = couple_predict_saved(again, pt, &e);
    CHECK(q != NULL && get(q, "y") == get(p0, "y"));
    json_decref(q);
    json_decref(pt);
    pt = json_pack("{s:f}", "N", 81.0);
    CHECK(couple_predict_saved(again, pt, &e) == NULL);
    CHECK_INT(e.status, ERR_INVALID);
    CHECK_STR(e.field, "nprocs");
    CHECK_STR(e.message, "the model needs nprocs, a finite number");
    json_decref(pt);
    json_decref(again);
    json_decref(a);
}

static void test_plots(void)
{
    struct err e = {0};
    json_t *a = answer_of(SPEC, &e);
    struct buf b1, b2;

    CHECK(a != NULL);
    if (a == NULL)
        return;
    buf_init(&b1, 1 << 22);
    buf_init(&b2, 1 << 22);
    CHECK_INT(couple_plot(a, &b1, &e), 0);
    CHECK_INT(couple_plot(a, &b2, &e), 0);
    CHECK(strcmp(buf_str(&b1), buf_str(&b2)) == 0); /* deterministic */
    CHECK(strstr(buf_str(&b1), "<svg") != NULL);
    CHECK(strstr(buf_str(&b1), "coupled model") != NULL);
    CHECK(strstr(buf_str(&b1), "summation of kernel models") != NULL);
    CHECK(strstr(buf_str(&b1), "measured runtime") != NULL);
    CHECK(strstr(buf_str(&b1), "nan") == NULL && strstr(buf_str(&b1), "inf") == NULL);
    if (getenv("COUPLE_SVG_OUT")) {
        FILE *f = fopen(getenv("COUPLE_SVG_OUT"), "w");
        if (f) {
            fputs(buf_str(&b1), f);
            fclose(f);
        }
    }
    buf_reset(&b1);
    CHECK_INT(couple_plot_breakdown(a, &b1, &e), 0);
    if (getenv("COUPLE_SVG_BREAKDOWN")) {
        FILE *f = fopen(getenv("COUPLE_SVG_BREAKDOWN"), "w");
        if (f) {
            fputs(buf_str(&b1), f);
            fclose(f);
        }
    }
    CHECK(strstr(buf_str(&b1), "<svg") != NULL);
    CHECK(strstr(buf_str(&b1), ">init<") != NULL);
    CHECK(strstr(buf_str(&b1), ">C<") != NULL);
    CHECK(strstr(buf_str(&b1), "nan") == NULL);
    buf_free(&b1);
    buf_free(&b2);
    json_decref(a);
}

/* Two measured configurations: each prediction uses the nearest (log x). */
static void test_isocoupling_inline(void)
{
    static const char req[] =
        "{\"kernels\": ["
        " {\"name\": \"A\", \"loop\": true, \"data\": [[4, 10], [9, 4.6], [16, 2.7]],"
        "  \"graph\": \"inv1\"},"
        " {\"name\": \"B\", \"loop\": true, \"data\": [[4, 6], [9, 2.9], [16, 1.8]],"
        "  \"graph\": \"inv1\"}],"
        " \"couplings\": ["
        " {\"kernels\": [\"A\", \"B\"], \"alone\": [2, 2], \"together\": 3.6,"
        "  \"configuration\": {\"nprocs\": 16}},"
        " {\"kernels\": [\"A\", \"B\"], \"alone\": [1, 1], \"together\": 1.6,"
        "  \"configuration\": {\"nprocs\": 64}}],"
        " \"predict\": [20, 30, 40, 100]}";
    struct err e = {0};
    json_t *a = answer_of(req, &e), *p;
    size_t i;
    /* nearest: |ln x - ln 16| vs |ln x - ln 64|, the switch is at sqrt(16*64) = 32 */
    const double want[] = {0.9, 0.9, 0.8, 0.8};

    CHECK(a != NULL);
    if (a == NULL) {
        fprintf(stderr, "%s\n", e.message);
        return;
    }
    json_array_foreach(json_object_get(a, "predictions"), i, p)
    {
        double c = want[i], x = get(p, "x");
        /* modeled over x: the line through (log2 16, 0.9) and (log2 64, 0.8),
         * held at 0.8 beyond 64 */
        double m = x >= 64 ? 0.8 : 0.9 - 0.05 * (log2(x) - 4);
        CHECK_NEAR(get(p, "configuration.nprocs"), c == 0.9 ? 16 : 64, 0);
        CHECK_NEAR(get(p, "nearest.y"), c * get(p, "summation.y"), 1e-14);
        CHECK_NEAR(get(p, "y"), m * get(p, "summation.y"), 1e-13);
        CHECK_STR(json_string_value(json_object_get(p, "coupling")), "modeled");
        CHECK_NEAR(get(p, "nearest.configurations"), 2, 0);
    }
    CHECK_INT(json_array_size(json_object_get(a, "configurations")), 2);
    CHECK_NEAR(get(a, "configuration.nprocs"), 16, 0); /* that of the first prediction */
    json_decref(a);
}

static void test_malformed_saved(void)
{
    struct err e = {0};
    json_t *a = answer_of(SPEC, &e), *pt = json_pack("{s:i}", "nprocs", 8), *k;
    struct buf b;
    CHECK(a != NULL);
    if (a == NULL)
        return;
    k = json_array_get(json_object_get(a, "kernels"), 1);
    json_object_set_new(json_object_get(json_object_get(k, "model"), "state"), "nterms",
                        json_integer(99));
    CHECK(couple_predict_saved(a, pt, &e) == NULL);
    CHECK_INT(e.status, ERR_INVALID);
    CHECK_STR(e.field, "model.nterms");
    err_clear(&e);
    buf_init(&b, 1 << 20);
    CHECK_INT(couple_plot(a, &b, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    buf_free(&b);
    err_clear(&e);
    json_object_set_new(a, "kernels", json_array());
    CHECK(couple_predict_saved(a, pt, &e) == NULL);
    CHECK_STR(e.message, "not a coupling model answer");
    json_decref(pt);
    json_decref(a);
}

/* Every allocation of ours that fails (the nth, for each n until none is
 * left) gives a clean error, never a crash, a leak (ASan) or a half answer. */
static void test_allocation_failures(void)
{
    json_t *req = json_loads(SPEC, 0, NULL), *a, *pt = json_pack("{s:i}", "nprocs", 50);
    json_t *good;
    struct err e = {0};
    long n, last = 0;
    int done = 0;

    good = couple_answer(NULL, req, &e);
    CHECK(good != NULL);
    for (n = 1; n < 100000 && !done; n++) {
        struct buf b;
        int rc1, rc2;
        json_t *q;
        err_clear(&e);
        xalloc_fail_at(n);
        a = couple_answer(NULL, req, &e);
        q = good ? couple_predict_saved(good, pt, &e) : NULL;
        buf_init(&b, 1 << 22);
        rc1 = good ? couple_plot(good, &b, &e) : -1;
        buf_reset(&b);
        rc2 = good ? couple_plot_breakdown(good, &b, &e) : -1;
        buf_free(&b);
        done = xalloc_count() < n; /* the nth allocation never happened: all ran */
        xalloc_fail_at(0);
        if (a == NULL || q == NULL || rc1 != 0 || rc2 != 0)
            CHECK(e.status == ERR_NOMEM || e.status == ERR_INTERNAL ||
                  e.status == ERR_INVALID);
        if (done)
            CHECK(a != NULL && q != NULL && rc1 == 0 && rc2 == 0);
        json_decref(a);
        json_decref(q);
        last = n;
    }
    CHECK(done);
    CHECK(last > 10);
    printf("     %ld allocation failures injected\n", last - 1);
    json_decref(good);
    json_decref(pt);
    json_decref(req);
}

int main(void)
{
    xalloc_json(); /* fault injection reaches Jansson too */
    gsl_set_error_handler_off();
    RUN(test_answer_and_saved_predict_agree);
    RUN(test_plots);
    RUN(test_isocoupling_inline);
    RUN(test_malformed_saved);
    RUN(test_allocation_failures);
    return harness_report();
}
