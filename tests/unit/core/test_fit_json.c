/* Tests of core/fit_json: every field of struct fit_model survives
 * to_json -> text -> from_json bit for bit, and malformed or oversized
 * saved models are rejected with a field. */
#include "core/fit_json.h"
#include "tests/harness.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int same_double(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Field-by-field bit equality (no memcmp of the struct: padding). */
static int same_model(const struct fit_model *a, const struct fit_model *b)
{
    int ok = a->nvars == b->nvars && a->nterms == b->nterms && a->graph == b->graph &&
             a->chosen == b->chosen && a->relative == b->relative &&
             same_double(a->s2, b->s2) && a->dof == b->dof &&
             a->has_interval == b->has_interval && same_double(a->xunc, b->xunc) &&
             a->outliers == b->outliers && same_double(a->seg_x, b->seg_x) &&
             a->positive == b->positive && a->fold_n == b->fold_n &&
             same_double(a->lean, b->lean);
    int j, v;
    for (j = 0; ok && j < a->nterms; j++) {
        ok = same_double(a->coef[j], b->coef[j]) && same_double(a->scale[j], b->scale[j]);
        for (v = 0; ok && v < a->nvars; v++)
            ok = same_double(a->term[j].expo[v], b->term[j].expo[v]) &&
                 a->term[j].logp[v] == b->term[j].logp[v];
    }
    for (j = 0; ok && j < a->nterms * a->nterms; j++)
        ok = same_double(a->r[j], b->r[j]);
    for (v = 0; ok && v < a->fold_n; v++) {
        ok = a->fold_v[v] == b->fold_v[v];
        for (j = 0; ok && j < a->nterms; j++)
            ok = same_double(a->fold_coef[v][j], b->fold_coef[v][j]);
    }
    for (v = 0; ok && v < a->nvars; v++)
        ok = same_double(a->xmin[v], b->xmin[v]) && same_double(a->xmax[v], b->xmax[v]);
    ok = ok && a->basis.n == b->basis.n && strcmp(a->basis.name, b->basis.name) == 0 &&
         (a->basis.n == 0 ||
          (a->basis.scale == b->basis.scale && a->basis.power == b->basis.power));
    for (j = 0; ok && j < a->basis.n; j++)
        ok = same_double(a->basis.x[j], b->basis.x[j]) &&
             same_double(a->basis.t[j], b->basis.t[j]);
    return ok;
}

/* to_json, dump to text, parse the text, from_json. */
static int round_trip(const struct fit_model *m, struct fit_model *back, struct err *e)
{
    json_t *j = fit_model_to_json(m), *again;
    char *text;
    int rc;
    if (j == NULL)
        return -2;
    text = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    if (text == NULL)
        return -2;
    again = json_loads(text, 0, NULL);
    free(text);
    if (again == NULL)
        return -2;
    rc = fit_model_from_json(again, back, e);
    json_decref(again);
    return rc;
}

static void fit_and_check(const char *graph, int nvars, const double *x, const double *y,
                          size_t n)
{
    struct fit_input in;
    struct fit_result res;
    struct fit_model back;
    struct err e = {0};

    memset(&in, 0, sizeof in);
    in.nvars = nvars;
    in.x = x;
    in.y = y;
    in.n = n;
    in.graph = graph;
    CHECK_INT(fit_run(&in, &res, &e), 0);
    if (e.status)
        fprintf(stderr, "fit %s: %s\n", graph, e.message);
    CHECK_INT(round_trip(&res.model, &back, &e), 0);
    CHECK(same_model(&res.model, &back));
    /* Evaluations agree exactly, interval included. */
    {
        double xs[2] = {x[0] * 1.7, nvars == 2 ? x[1] * 1.3 : 0};
        double y1, l1, h1, y2, l2, h2;
        CHECK_INT(fit_predict(&res.model, xs, &y1, &l1, &h1, &e), 0);
        CHECK_INT(fit_predict(&back, xs, &y2, &l2, &h2, &e), 0);
        CHECK(same_double(y1, y2) && same_double(l1, l2) && same_double(h1, h2));
        /* and the interval with the model choice's uncertainty, far beyond */
        xs[0] = x[0] * 1000;
        CHECK_INT(fit_predict_ext(&res.model, xs, &y1, &l1, &h1, &e), 0);
        CHECK_INT(fit_predict_ext(&back, xs, &y2, &l2, &h2, &e), 0);
        CHECK(same_double(y1, y2) && same_double(l1, l2) && same_double(h1, h2));
    }
    fit_result_free(&res);
}

static void test_round_trip_fitted(void)
{
    double x[12], y[12], x2[24], y2[12];
    int i;
    for (i = 0; i < 12; i++) {
        x[i] = 1 + i * 3;
        y[i] = 120.0 / x[i] + 1.2 + 0.01 * ((i * 7919) % 13 - 6);
    }
    fit_and_check("poly3", 1, x, y, 12);
    fit_and_check("inv2", 1, x, y, 12);
    fit_and_check("unknown", 1, x, y, 12);
    fit_and_check("auto", 1, x, y, 12);
    fit_and_check("poly1", 1, x, y, 2); /* exact fit: no interval */
    for (i = 0; i < 12; i++) {
        x2[2 * i] = 100 * (1 + i % 4);
        x2[2 * i + 1] = 1 << (i / 4);
        y2[i] = 1e-6 * x2[2 * i] * x2[2 * i] / x2[2 * i + 1] + 0.1 +
                0.001 * ((i * 31) % 7 - 3);
    }
    fit_and_check("auto", 2, x2, y2, 12);
}

static struct fit_model odd_model(void);

/* The extrapolating `auto`'s own fields travel too: the law's uncertainty
 * (xunc), a point left out as an outlier, and a regime change (seg_x); the
 * saved model then predicts, interval included, what the fresh one did. */
static void test_round_trip_extrapolating_auto(void)
{
    double x[10], y[10];
    struct fit_input in;
    struct fit_result res;
    struct err e = {0};
    int i;

    for (i = 0; i < 8; i++) {
        x[i] = 2 * pow(2, i);
        y[i] = (200 / x[i] + 0.5 * log2(x[i]) + 1) * (1 + 0.01 * sin(3.0 * i));
    }
    y[5] *= 2;
    memset(&in, 0, sizeof in);
    in.nvars = 1;
    in.x = x;
    in.y = y;
    in.n = 8;
    in.graph = "auto";
    CHECK_INT(fit_run(&in, &res, &e), 0);
    CHECK_INT(res.model.outliers, 1);
    CHECK(res.model.xunc > 0);
    fit_result_free(&res);
    fit_and_check("auto", 1, x, y, 8);
    for (i = 0; i < 10; i++) {
        x[i] = pow(2, i);
        y[i] = (x[i] < 32 ? 5 + 0.01 * x[i] : 0.5 * x[i]) * (1 + 0.01 * sin(7.0 * i));
    }
    in.n = 10;
    CHECK_INT(fit_run(&in, &res, &e), 0);
    CHECK(res.model.seg_x >= 32);
    fit_result_free(&res);
    fit_and_check("auto", 1, x, y, 10);
}

/* A model saved before xunc, outliers, seg_x and positive existed loads with 0 in
 * them and predicts exactly as fit_predict (the classical interval). */
/* A fit on a machine curve carries its curve: predictions beyond the data
 * and beyond the curve agree bit for bit after the round trip; a curve
 * that does not match "chosen", or is malformed, is refused. */
static void test_round_trip_machine_curve(void)
{
    double cx[] = {3, 64, 1024, 4096, 65536, 1048576},
           ct[] = {1e-6, 1.1e-6, 1.3e-6, 5e-6, 2.1e-5, 3.1e-4};
    double x[15], y[15];
    struct fit_basis b;
    struct fit_input in;
    struct fit_result res;
    struct fit_model back;
    struct err e = {0};
    json_t *j, *c;
    int i;

    CHECK_INT(fit_basis_make("MPISR", cx, ct, 6, &b, &e), 0);
    for (i = 0; i < 15; i++) {
        x[i] = 64 << (i / 3);
        y[i] = (2e-7 + 1.5 * fit_basis_at(&b, x[i])) * (1 + 0.01 * (i % 3 - 1));
    }
    memset(&in, 0, sizeof in);
    in.nvars = 1;
    in.x = x;
    in.y = y;
    in.n = 15;
    in.graph = "auto";
    in.basis = &b;
    CHECK_INT(fit_run(&in, &res, &e), 0);
    CHECK_INT(round_trip(&res.model, &back, &e), 0);
    CHECK(same_model(&res.model, &back));
    CHECK_INT(back.chosen, FIT_BASIS);
    for (i = 0; i < 3; i++) {
        double xs = i == 0 ? 100 : i == 1 ? 500000 : 8388608, y1, l1, h1, y2, l2, h2;
        CHECK_INT(fit_predict_ext(&res.model, &xs, &y1, &l1, &h1, &e), 0);
        CHECK_INT(fit_predict_ext(&back, &xs, &y2, &l2, &h2, &e), 0);
        CHECK(same_double(y1, y2) && same_double(l1, l2) && same_double(h1, h2));
    }
    j = fit_model_to_json(&res.model);
    c = json_object_get(j, "basis");
    CHECK_STR(json_string_value(json_object_get(c, "name")), "MPISR");
    CHECK_INT(json_array_size(json_object_get(c, "t")), 6);
    /* x out of order */
    json_array_set_new(json_object_get(c, "x"), 1, json_real(4096));
    err_clear(&e);
    CHECK_INT(fit_model_from_json(j, &back, &e), -1);
    CHECK_STR(e.field, "model");
    json_array_set_new(json_object_get(c, "x"), 1, json_real(64));
    /* a key it does not know */
    json_object_set_new(c, "y", json_integer(1));
    err_clear(&e);
    CHECK_INT(fit_model_from_json(j, &back, &e), -1);
    json_object_del(c, "y");
    /* chosen basis without a curve, and a curve under another chosen */
    json_object_set_new(j, "chosen", json_string("poly1"));
    err_clear(&e);
    CHECK_INT(fit_model_from_json(j, &back, &e), -1);
    CHECK_STR(e.field, "model.chosen");
    json_object_set_new(j, "chosen", json_string("basis"));
    CHECK_INT(fit_model_from_json(j, &back, &e), 0);
    json_object_del(j, "basis");
    err_clear(&e);
    CHECK_INT(fit_model_from_json(j, &back, &e), -1);
    CHECK_STR(e.field, "model.chosen");
    json_decref(j);
    /* the curve read at 24 * x (a working set of 24 bytes per element):
     * "scale" is written, "power" (1) is not, and both come back */
    res.model.basis.scale = 24;
    j = fit_model_to_json(&res.model);
    c = json_object_get(j, "basis");
    CHECK(json_real_value(json_object_get(c, "scale")) == 24);
    CHECK(json_object_get(c, "power") == NULL);
    json_decref(j);
    CHECK_INT(round_trip(&res.model, &back, &e), 0);
    CHECK(same_model(&res.model, &back));
    CHECK(back.basis.scale == 24 && back.basis.power == 1);
    /* out of range: the model check refuses it */
    res.model.basis.power = 5;
    j = fit_model_to_json(&res.model);
    err_clear(&e);
    CHECK_INT(fit_model_from_json(j, &back, &e), -1);
    CHECK_STR(e.field, "model");
    json_decref(j);
    fit_result_free(&res);
}

static void test_old_saved_model_loads(void)
{
    struct fit_model m = odd_model(), back;
    struct err e = {0};
    json_t *j;
    double x[2] = {3e6, 100}, y1, l1, h1, y2, l2, h2;

    m.xunc = 0.25;
    m.outliers = 2;
    m.seg_x = 0.5;
    m.positive = 1;
    j = fit_model_to_json(&m);
    CHECK(j != NULL);
    CHECK(json_object_get(j, "xunc") != NULL && json_object_get(j, "seg_x") != NULL);
    CHECK(json_is_true(json_object_get(j, "positive")));
    CHECK_INT(fit_model_from_json(j, &back, &e), 0);
    CHECK(back.positive == 1);
    json_object_set_new(j, "positive", json_string("yes"));
    CHECK_INT(fit_model_from_json(j, &back, &e), -1);
    CHECK_STR(e.field, "model.positive");
    memset(&e, 0, sizeof e);
    json_object_del(j, "xunc");
    json_object_del(j, "outliers");
    json_object_del(j, "seg_x");
    json_object_del(j, "positive");
    CHECK_INT(fit_model_from_json(j, &back, &e), 0);
    CHECK(back.xunc == 0 && back.outliers == 0 && back.seg_x == 0 && back.positive == 0);
    CHECK_INT(fit_predict(&back, x, &y1, &l1, &h1, &e), 0);
    CHECK_INT(fit_predict_ext(&back, x, &y2, &l2, &h2, &e), 0);
    CHECK(same_double(y1, y2) && same_double(l1, l2) && same_double(h1, h2));
    json_object_set_new(j, "xunc", json_real(-1));
    CHECK_INT(fit_model_from_json(j, &back, &e), -1);
    CHECK_STR(e.field, "model.xunc");
    json_decref(j);
}

/* A two-variable `auto` carries the laws of its forward folds (fit.h,
 * eval/RECORD.md §15, §17): written, read back bit for bit, the prediction
 * and the warning beyond the data the same after the round trip. The folds
 * feed the warning only: a model saved before them (no "folds") loads with
 * none and predicts the same value and interval, log half-width
 * sqrt(2 nz^2 + (0.5 d)^2), nz the classical interval's half width over y.
 * Malformed folds are refused; one-variable models carry none. */
static void test_folds_saved(void)
{
    double x[50], y[25], at[2] = {64 * 4, 64 * 4}, yp, lo, hi, y1, l1, h1, yc, lc, hc, z,
                         tq;
    struct fit_input in;
    struct fit_result res;
    struct fit_model back;
    struct err e = {0};
    json_t *j, *f;
    int i;

    for (i = 0; i < 25; i++) {
        x[2 * i] = 4 << (i % 5);
        x[2 * i + 1] = 4 << (i / 5);
        y[i] = (0.5 + 1e-3 * x[2 * i] * x[2 * i + 1]) * (1 + 0.01 * sin(5.0 * i));
    }
    memset(&in, 0, sizeof in);
    in.nvars = 2;
    in.x = x;
    in.y = y;
    in.n = 25;
    in.graph = "auto";
    CHECK_INT(fit_run(&in, &res, &e), 0);
    CHECK_INT(res.model.fold_n, 2);
    j = fit_model_to_json(&res.model);
    f = json_object_get(j, "folds");
    CHECK(json_array_size(f) == 2 &&
          json_integer_value(json_object_get(json_array_get(f, 1), "var")) == 1 &&
          json_array_size(json_object_get(json_array_get(f, 0), "coef")) ==
              (size_t)res.model.nterms);
    CHECK_INT(round_trip(&res.model, &back, &e), 0);
    CHECK(same_model(&res.model, &back));
    CHECK_NEAR(fit_extrapolation(&res.model, at), 2, 1e-12);
    CHECK_INT(fit_predict_ext(&res.model, at, &yp, &lo, &hi, &e), 0);
    CHECK_INT(fit_predict_ext(&back, at, &y1, &l1, &h1, &e), 0);
    CHECK(same_double(yp, y1) && same_double(lo, l1) && same_double(hi, h1));
    /* the folds agree within the 1 % noise: 2 doublings out, g·d <= 0.2 */
    CHECK(fit_fold_spread(&back, at, y1) * 2 <= 0.2);
    {
        struct buf wb;
        buf_init(&wb, 256);
        CHECK(fit_warning(&back, at, y1, l1, h1, &wb) >= 0);
        CHECK(strstr(buf_str(&wb), "Fitted again") == NULL);
        buf_free(&wb);
    }
    /* saved before the folds: the same value and interval */
    json_object_del(j, "folds");
    CHECK_INT(fit_model_from_json(j, &back, &e), 0);
    CHECK_INT(back.fold_n, 0);
    CHECK_INT(fit_predict(&back, at, &yc, &lc, &hc, &e), 0);
    CHECK_INT(fit_predict_ext(&back, at, &y1, &l1, &h1, &e), 0);
    /* log half-width sqrt(2 t^2 ln(1 + n2) + 1), n2 the classical relative
     * variance ((hc - yc) / (t yc))^2 (fit.c, eval/RECORD.md §52) */
    tq = gsl_cdf_tdist_Pinv(0.975, (double)back.dof);
    z = sqrt(2 * tq * tq * log1p(pow((hc - yc) / (tq * yc), 2)) + 1);
    CHECK(same_double(yp, y1) && same_double(yc, y1));
    CHECK_NEAR(l1, y1 * exp(-z), 1e-12 * y1);
    CHECK_NEAR(h1, y1 * exp(z), 1e-12 * y1);
    CHECK(same_double(l1, lo) && same_double(h1, hi));
    /* malformed */
    {
        static const char *const bad[] = {
            "3",
            "[]",
            "[{\"var\": 2, \"coef\": [1, 1]}]",
            "[{\"var\": 0}]",
            "[{\"var\": 0, \"coef\": [1, 1, 1]}]",
            "[{\"var\": 0, \"coef\": [1, 1], \"x\": 1}]",
            "[{\"var\": 0, \"coef\": [1, 1]}, {\"var\": 1, \"coef\": [1, 1]}, "
            "{\"var\": 1, \"coef\": [1, 1]}]"};
        size_t b;
        for (b = 0; b < sizeof bad / sizeof bad[0]; b++) {
            json_t *v = json_loads(bad[b], JSON_DECODE_ANY, NULL);
            CHECK(v != NULL);
            if (res.model.nterms != 2)
                break; /* the texts are written for two terms */
            json_object_set_new(j, "folds", v);
            memset(&e, 0, sizeof e);
            CHECK_INT(fit_model_from_json(j, &back, &e), -1);
            CHECK_STR(e.field, "model.folds");
        }
        CHECK_INT(res.model.nterms, 2);
        /* the same variable twice: fit_model_check */
        json_object_set_new(
            j, "folds",
            json_loads("[{\"var\": 1, \"coef\": [1, 1]}, {\"var\": 1, \"coef\": [1, 1]}]",
                       0, NULL));
        memset(&e, 0, sizeof e);
        CHECK_INT(fit_model_from_json(j, &back, &e), -1);
        CHECK_STR(e.field, "model");
    }
    json_decref(j);
    fit_result_free(&res);
    /* one variable: none */
    for (i = 0; i < 8; i++) {
        x[i] = 2 << i;
        y[i] = (3 + 0.2 * x[i]) * (1 + 0.01 * sin(3.0 * i));
    }
    in.nvars = 1;
    in.n = 8;
    memset(&e, 0, sizeof e);
    CHECK_INT(fit_run(&in, &res, &e), 0);
    CHECK(res.model.xunc > 0 && res.model.fold_n == 0);
    j = fit_model_to_json(&res.model);
    CHECK(j != NULL && json_object_get(j, "folds") == NULL);
    json_object_set_new(j, "folds",
                        json_loads("[{\"var\": 0, \"coef\": [1, 1]}]", 0, NULL));
    memset(&e, 0, sizeof e);
    CHECK_INT(fit_model_from_json(j, &back, &e), -1);
    CHECK_STR(e.field, "model.folds");
    json_decref(j);
    fit_result_free(&res);
}

/* A hand-made model with awkward doubles: -0, a subnormal, 17-digit values. */
static struct fit_model odd_model(void)
{
    struct fit_model m;
    memset(&m, 0, sizeof m);
    m.nvars = 2;
    m.nterms = 3;
    m.graph = FIT_AUTO;
    m.chosen = FIT_NORMAL;
    m.term[1].expo[0] = 1.0 / 3;
    m.term[1].logp[0] = 2;
    m.term[2].expo[1] = -2.5;
    m.term[2].logp[1] = 1;
    m.coef[0] = -0.0;
    m.coef[1] = 4.9406564584124654e-324;
    m.coef[2] = 0.1 + 0.2;
    m.scale[0] = 1;
    m.scale[1] = 1e300;
    m.scale[2] = 3.0000000000000004;
    m.r[0] = 1;
    m.r[1] = -2.2250738585072014e-308;
    m.r[4] = 2.5;
    m.r[8] = -7;
    m.relative = 1;
    m.s2 = 1.2345678901234567e-5;
    m.dof = 9;
    m.has_interval = 1;
    m.xmin[0] = 0.001;
    m.xmax[0] = 1e6;
    m.xmin[1] = 2;
    m.xmax[1] = 64;
    return m;
}

static void test_round_trip_odd_doubles(void)
{
    struct fit_model m = odd_model(), back;
    struct err e = {0};
    CHECK_INT(round_trip(&m, &back, &e), 0);
    CHECK(same_model(&m, &back));
    CHECK(signbit(back.coef[0]));
}

/* Parses text and expects a rejection naming field. */
static void rejects(const char *text, const char *field)
{
    struct fit_model m;
    struct err e = {0};
    json_t *v = json_loads(text, JSON_DECODE_ANY, NULL);
    CHECK(v != NULL);
    m.nterms = 99;
    CHECK_INT(fit_model_from_json(v, &m, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    CHECK_STR(e.field, field);
    CHECK_INT(m.nterms, 0); /* zeroed on failure */
    json_decref(v);
}

/* A one-variable `auto` carries the lean of its fit (eval/RECORD.md §18):
 * written only when > 0, read back bit for bit with the same predictions;
 * a model saved before it loads with 0; out of range or with two variables
 * it is refused by name. */
static void test_lean_saved(void)
{
    double x[7] = {1, 2, 4, 8, 16, 32, 64}, y[7], at = 256, y1, l1, h1, y2, l2, h2;
    struct fit_input in;
    struct fit_result res;
    struct fit_model back;
    struct err e = {0};
    json_t *j;
    int i;

    for (i = 0; i < 7; i++)
        y[i] = (2 + 100 / x[i]) * (1 + 0.01 * sin(3.0 * i));
    memset(&in, 0, sizeof in);
    in.nvars = 1;
    in.x = x;
    in.y = y;
    in.n = 7;
    in.graph = "auto";
    CHECK_INT(fit_run(&in, &res, &e), 0);
    CHECK(res.model.lean == 1.5);
    j = fit_model_to_json(&res.model);
    CHECK(json_real_value(json_object_get(j, "lean")) == 1.5);
    CHECK_INT(round_trip(&res.model, &back, &e), 0);
    CHECK(same_model(&res.model, &back));
    CHECK_INT(fit_predict_ext(&res.model, &at, &y1, &l1, &h1, &e), 0);
    CHECK_INT(fit_predict_ext(&back, &at, &y2, &l2, &h2, &e), 0);
    CHECK(same_double(y1, y2) && same_double(l1, l2) && same_double(h1, h2));
    json_object_del(j, "lean");
    CHECK_INT(fit_model_from_json(j, &back, &e), 0);
    CHECK(back.lean == 0);
    json_object_set_new(j, "lean", json_real(-0.5));
    CHECK_INT(fit_model_from_json(j, &back, &e), -1);
    CHECK_STR(e.field, "model.lean");
    err_clear(&e);
    json_object_set_new(j, "lean", json_real(9));
    CHECK_INT(fit_model_from_json(j, &back, &e), -1);
    CHECK_STR(e.field, "model.lean");
    json_decref(j);
    fit_result_free(&res);
    /* two variables cannot lean */
    {
        struct fit_model two = odd_model();
        CHECK_INT(two.nvars, 2);
        j = fit_model_to_json(&two);
        json_object_set_new(j, "lean", json_real(1));
        err_clear(&e);
        CHECK_INT(fit_model_from_json(j, &back, &e), -1);
        CHECK_STR(e.field, "model.lean");
        json_decref(j);
    }
    /* other graph types lean nowhere: nothing written */
    in.graph = "linear";
    CHECK_INT(fit_run(&in, &res, &e), 0);
    CHECK(res.model.lean == 0);
    j = fit_model_to_json(&res.model);
    CHECK(json_object_get(j, "lean") == NULL);
    json_decref(j);
    fit_result_free(&res);
}

static void test_rejects_malformed(void)
{
    struct fit_model m = odd_model();
    json_t *good = fit_model_to_json(&m), *v;
    char *text;
    struct {
        const char *key;
        json_t *value; /* NULL: delete the key */
        const char *field;
    } cases[] = {
        {"nvars", json_integer(3), "model.nvars"},
        {"nvars", json_real(2.0), "model.nvars"},
        {"nterms", json_integer(FIT_MAX_TERMS + 1), "model.nterms"},
        {"nterms", json_integer(0), "model.nterms"},
        {"coef", json_pack("[f,f]", 1.0, 2.0), "model.coef"},
        {"coef", json_pack("[f,s,f]", 1.0, "x", 2.0), "model.coef"},
        {"r", json_pack("[f,f,f]", 1.0, 0.0, 1.0), "model.r"},
        {"graph", json_string("poly7"), "model.graph"},
        {"chosen", json_string("auto"), "model.chosen"},
        {"dof", json_integer(-1), "model.dof"},
        {"dof", json_integer(1LL << 40), "model.dof"},
        {"relative", json_integer(1), "model.relative"},
        {"s2", json_string("0.1"), "model.s2"},
        {"s2", json_real(-1), "model"}, /* fit_model_check: negative variance */
        {"scale", json_pack("[f,f,f]", 1.0, 0.0, 1.0), "model"},
        {"xmax", NULL, "model.xmax"},
        {"extra", json_true(), "model"},
        {"terms", json_pack("[{s:[f,f],s:[i,i]}]", "expo", 0.0, 0.0, "logp", 0, 0),
         "model.terms"},
        {"terms",
         json_pack("[{s:[f,f],s:[i,i]},{s:[f,f],s:[i,i]},{s:[f,f],s:[i,i]}]", "expo", 0.0,
                   0.0, "logp", 0, 0, "expo", 1.0, 0.0, "logp", 9, 0, "expo", 0.0, -1.0,
                   "logp", 0, 0),
         "model.terms"},
        {"terms",
         json_pack("[{s:[f,f],s:[i,i],s:i},{s:[f,f],s:[i,i]},{s:[f,f],s:[i,i]}]", "expo",
                   0.0, 0.0, "logp", 0, 0, "x", 1, "expo", 1.0, 0.0, "logp", 0, 0, "expo",
                   0.0, -1.0, "logp", 0, 0),
         "model.terms"},
    };
    size_t i;

    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        v = json_deep_copy(good);
        if (cases[i].value)
            json_object_set_new(v, cases[i].key, cases[i].value);
        else
            json_object_del(v, cases[i].key);
        text = json_dumps(v, JSON_COMPACT);
        rejects(text, cases[i].field);
        if (harness_cur_failed)
            fprintf(stderr, "  case %zu (%s)\n", i, cases[i].key);
        free(text);
        json_decref(v);
    }
    /* Singular R: fit_model_check. */
    v = json_deep_copy(good);
    json_array_set_new(json_object_get(v, "r"), 4, json_real(0));
    text = json_dumps(v, JSON_COMPACT);
    rejects(text, "model");
    free(text);
    json_decref(v);
    json_decref(good);

    rejects("[]", "model");
    rejects("null", "model");
    rejects("{}", "model.nvars");
    /* Oversized: a million coefficients are refused by the length check. */
    {
        struct buf b;
        int k;
        buf_init(&b, 1 << 24);
        buf_puts(&b, "{\"nvars\":1,\"nterms\":2,\"graph\":\"poly1\",\"chosen\":\"poly1\","
                     "\"terms\":[],\"coef\":[");
        for (k = 0; k < 1000000; k++)
            buf_puts(&b, k ? ",1" : "1");
        buf_puts(&b, "],\"scale\":[1,1],\"r\":[1,0,0,1],\"relative\":false,\"s2\":0,"
                     "\"dof\":0,\"has_interval\":false,\"xmin\":[1],\"xmax\":[2]}");
        CHECK(!buf_failed(&b));
        rejects(buf_str(&b), "model.coef");
        buf_free(&b);
    }
}

static void test_to_json_refuses_bad_models(void)
{
    struct fit_model m = odd_model();
    m.nterms = FIT_MAX_TERMS + 1;
    CHECK(fit_model_to_json(&m) == NULL);
    m = odd_model();
    m.s2 = NAN;
    CHECK(fit_model_to_json(&m) == NULL);
}

int main(void)
{
    gsl_set_error_handler_off();
    RUN(test_round_trip_fitted);
    RUN(test_round_trip_odd_doubles);
    RUN(test_round_trip_extrapolating_auto);
    RUN(test_round_trip_machine_curve);
    RUN(test_old_saved_model_loads);
    RUN(test_folds_saved);
    RUN(test_lean_saved);
    RUN(test_rejects_malformed);
    RUN(test_to_json_refuses_bad_models);
    return harness_report();
}
