/* The database form of curve fitting (core/method_fit.c) reads its points
 * as aggregates per configuration (db_select_fit_configs, db_fit_*); this
 * checks it against the per-run reference on realistic data: every selected
 * run read by db_select_runs, filtered and transformed as the database form
 * did per run, and fitted through the inline form (fit_run aggregates the
 * rows itself). Runtimes carry noise, so sums taken in another order may
 * differ in the last bits: the points' x, counts, minima and maxima must be
 * equal, their values and the fitted model equal to rounding. Many
 * configurations, repetitions of 1 to 6 runs, two executables at each x,
 * runs without the metric or kernel, and runs that a fixed input excludes.
 * tests/api/test_fit_stream.py checks exact equality on exact data. */
#include "core/method_fit.h"
#include "db/runs.h"
#include "db/select.h"
#include "tests/harness.h"

#include <float.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/prophecy-fitstream-XXXXXX";
static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static double uniform(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (double)((rng * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

static void fill(db *d)
{
    static const char *const exes[] = {"a.x", "b.x"};
    static const long long procs[] = {1, 2, 4, 8, 16, 32};
    static const double sizes[] = {100, 200, 400, 800};
    struct err e = {0};
    size_t x, p, s, r;

    CHECK_INT(db_begin(d, &e), 0);
    for (x = 0; x < 2; x++)
        for (p = 0; p < 6; p++)
            for (s = 0; s < 4; s++) {
                size_t reps = 1 + (size_t)(uniform() * 6);
                for (r = 0; r < reps + (x == 0 && p == 1 && s == 0); r++) {
                    /* The extra run of (a.x, 2, 100) has L = 9. */
                    int odd = r == reps;
                    double t = (0.2 + 3e-6 * sizes[s] * sizes[s] / (double)procs[p] +
                                0.01 * (double)procs[p]) *
                               (1 + 0.05 * (uniform() - 0.5)) * (x ? 1.1 : 1.0);
                    struct rec_kv in[2] = {{"N", sizes[s]}, {"L", odd ? 9 : 7}};
                    struct rec_kv met[1] = {{"flops", sizes[s] * (1 + uniform())}};
                    struct rec_kernel k[3] = {{"k", 0.6 * t, 1, NULL},
                                              {"other", 0.1 * t, 1, NULL},
                                              {"k", 0.05 * t * uniform(), 1, NULL}};
                    struct run_record rec = {0};
                    long long id;
                    int existed;
                    rec.application = "app";
                    rec.executable = exes[x];
                    rec.system = "sys";
                    rec.nprocs = procs[p];
                    rec.runtime = t;
                    rec.submitter = "";
                    rec.inputs = in;
                    rec.ninputs = 2;
                    rec.metrics = met;
                    rec.nmetrics = uniform() < 0.8;
                    rec.kernels = uniform() < 0.85 ? k : k + 1;
                    rec.nkernels = rec.kernels == k ? (uniform() < 0.5 ? 2 : 3) : 1;
                    CHECK_INT(db_runs_insert(d, &rec, 1, &id, &existed, &e), 0);
                }
            }
    CHECK_INT(db_commit(d, &e), 0);
}

/* A variable of a selected run. */
static int var(const struct db_sel_row *r, const char *name, double *out)
{
    json_t *v;
    if (strcmp(name, "nprocs") == 0) {
        *out = r->nprocs;
        return 0;
    }
    v = json_object_get(r->inputs, name);
    *out = json_number_value(v);
    return json_is_number(v) ? 0 : -1;
}

/* The per-run reference: the inline request of the selected runs. */
static json_t *reference(db *d, json_t *req)
{
    const char *y = json_string_value(json_object_get(req, "y")), *key;
    json_t *fixed = json_object_get(req, "fixed"), *xs = json_object_get(req, "x"), *v;
    json_t *data = json_array(), *out;
    const char *names[2];
    int nv = json_is_array(xs) ? (int)json_array_size(xs) : 1, j;
    struct db_sel_fit q;
    struct db_sel_rows rows = {NULL, 0};
    struct err e = {0};
    size_t i;
    int rel = strcmp(y, "speedup") == 0 || strcmp(y, "efficiency") == 0;

    for (j = 0; j < nv; j++)
        names[j] = json_string_value(nv == 1 ? xs : json_array_get(xs, (size_t)j));
    memset(&q, 0, sizeof q);
    q.application = "app";
    q.system = "sys";
    q.executable = json_string_value(json_object_get(req, "executable"));
    q.y = strncmp(y, "metric:", 7) == 0   ? DB_SEL_METRIC
          : strncmp(y, "kernel:", 7) == 0 ? DB_SEL_KERNEL
                                          : DB_SEL_RUNTIME;
    q.y_name = q.y == DB_SEL_RUNTIME ? NULL : y + 7;
    q.np_lo = -DBL_MAX;
    q.np_hi = DBL_MAX;
    q.inputs = json_object();
    q.limit = 100001;
    json_object_foreach(fixed, key, v)
    {
        if (strcmp(key, "nprocs") != 0)
            json_object_set(q.inputs, key, v);
    }
    CHECK_INT(db_select_runs(d, &q, &rows, &e), 0);
    json_decref(q.inputs);
    for (i = 0; i < rows.n; i++) {
        json_t *row = json_array();
        double val;
        int ok = rows.row[i].has_y;
        for (j = 0; ok && j < nv; j++) {
            ok = var(&rows.row[i], names[j], &val) == 0;
            json_array_append_new(row, json_real(val));
        }
        json_object_foreach(fixed, key, v)
        {
            ok = ok && var(&rows.row[i], key, &val) == 0 && val == json_number_value(v);
        }
        json_array_append_new(row, json_real(rows.row[i].y));
        if (ok)
            json_array_append(data, row);
        json_decref(row);
    }
    db_sel_rows_free(&rows);
    if (rel) { /* speedup and efficiency, run by run */
        double pmin = INFINITY, tref = 0;
        int nref = 0;
        json_t *row;
        json_array_foreach(data, i, row)
        {
            double p = json_number_value(json_array_get(row, 0));
            pmin = p < pmin ? p : pmin;
        }
        json_array_foreach(data, i, row)
        {
            if (json_number_value(json_array_get(row, 0)) == pmin) {
                tref += json_number_value(json_array_get(row, 1));
                nref++;
            }
        }
        tref /= nref;
        json_array_foreach(data, i, row)
        {
            double p = json_number_value(json_array_get(row, 0));
            double t = json_number_value(json_array_get(row, 1));
            json_array_set_new(
                row, 1,
                json_real(pmin * tref / t / (strcmp(y, "efficiency") == 0 ? p : 1.0)));
        }
    }
    out = json_pack("{s:O, s:o, s:O, s:O}", nv == 1 ? "x" : "vars", xs, "data", data,
                    "graph", json_object_get(req, "graph"), "aggregate",
                    json_object_get(req, "aggregate"));
    return out;
}

static int near(double a, double b, double tol)
{
    return fabs(a - b) <= tol * (fabs(b) > 1e-300 ? fabs(b) : 1);
}

static void check_request(db *d, const char *text)
{
    json_t *req = json_loads(text, 0, NULL), *inl, *got, *want, *pg, *pw;
    struct err e1 = {0}, e2 = {0};
    size_t i, k;

    CHECK(req != NULL);
    if (req == NULL)
        return;
    inl = reference(d, req);
    got = fit_answer(d, req, &e1);
    want = fit_answer(NULL, inl, &e2);
    CHECK(got != NULL && want != NULL);
    if (got == NULL || want == NULL) {
        fprintf(stderr, "%s: %s / %s\n", text, e1.message, e2.message);
        goto out;
    }
    CHECK_INT((int)json_integer_value(
                  json_object_get(json_object_get(got, "selection"), "runs")),
              (int)json_array_size(json_object_get(inl, "data")));
    pg = json_object_get(got, "points");
    pw = json_object_get(want, "points");
    CHECK_INT((int)json_array_size(pg), (int)json_array_size(pw));
    for (i = 0; i < json_array_size(pg) && i < json_array_size(pw); i++) {
        json_t *a = json_array_get(pg, i), *b = json_array_get(pw, i);
        CHECK(json_equal(json_object_get(a, "x"), json_object_get(b, "x")));
        CHECK(json_equal(json_object_get(a, "n"), json_object_get(b, "n")));
        CHECK(json_equal(json_object_get(a, "ymin"), json_object_get(b, "ymin")));
        CHECK(json_equal(json_object_get(a, "ymax"), json_object_get(b, "ymax")));
        CHECK(near(json_number_value(json_object_get(a, "y")),
                   json_number_value(json_object_get(b, "y")), 1e-12));
    }
    pg = json_object_get(json_object_get(got, "model"), "coefficients");
    pw = json_object_get(json_object_get(want, "model"), "coefficients");
    CHECK_INT((int)json_array_size(pg), (int)json_array_size(pw));
    for (k = 0; k < json_array_size(pg) && k < json_array_size(pw); k++)
        CHECK(near(json_number_value(json_array_get(pg, k)),
                   json_number_value(json_array_get(pw, k)), 1e-8));
    {
        static const char *const stats[] = {"rss", "r2", "rmse", "smape"};
        json_t *mg = json_object_get(got, "model"), *mw = json_object_get(want, "model");
        /* An interpolating fit leaves residuals of rounding size: those
         * agree in magnitude, not digits. */
        for (k = 0; k < 4; k++)
            CHECK(near(json_number_value(json_object_get(mg, stats[k])),
                       json_number_value(json_object_get(mw, stats[k])), 1e-8) ||
                  fabs(json_number_value(json_object_get(mg, stats[k])) -
                       json_number_value(json_object_get(mw, stats[k]))) < 1e-9);
        CHECK(json_equal(json_object_get(mg, "chosen"), json_object_get(mw, "chosen")));
        CHECK(near(json_number_value(json_object_get(json_object_get(mg, "state"), "s2")),
                   json_number_value(json_object_get(json_object_get(mw, "state"), "s2")),
                   1e-8));
    }
out:
    json_decref(req);
    json_decref(inl);
    json_decref(got);
    json_decref(want);
}

static void test_streamed_like_per_run(void)
{
    static const char *const reqs[] = {
        "{\"x\": \"nprocs\", \"fixed\": {\"N\": 400, \"L\": 7}, \"y\": \"runtime\"",
        "{\"x\": \"nprocs\", \"fixed\": {\"N\": 200, \"L\": 7}, \"y\": \"speedup\"",
        "{\"x\": \"nprocs\", \"fixed\": {\"N\": 800, \"L\": 7}, \"y\": \"efficiency\"",
        "{\"x\": \"N\", \"fixed\": {\"nprocs\": 4, \"L\": 7}, \"y\": \"metric:flops\"",
        "{\"x\": \"N\", \"fixed\": {\"nprocs\": 2, \"L\": 7}, \"y\": \"kernel:k\"",
        "{\"x\": \"N\", \"executable\": \"b.x\", \"fixed\": {\"nprocs\": 16, \"L\": "
        "7}, \"y\": \"runtime\"",
        "{\"x\": [\"nprocs\", \"N\"], \"fixed\": {\"L\": 7}, \"y\": \"runtime\"",
    };
    static const char *const graphs[] = {"linear", "inv1", "unknown", "auto"};
    static const char *const aggs[] = {"mean", "median", "min"};
    char text[512];
    db *d = NULL;
    struct err e = {0};
    size_t i, g, k;

    snprintf(text, sizeof text, "%s/f.db", dir);
    CHECK_INT(db_open(&d, text, NULL, &e), 0);
    if (d == NULL)
        return;
    fill(d);
    for (i = 0; i < sizeof reqs / sizeof reqs[0]; i++)
        for (g = 0; g < 4; g++)
            for (k = 0; k < 3; k++) {
                if (strstr(reqs[i], "[") != NULL && g != 3)
                    continue; /* two variables: auto only */
                snprintf(text, sizeof text,
                         "%s, \"application\": \"app\", \"system\": \"sys\", "
                         "\"graph\": \"%s\", \"aggregate\": \"%s\"}",
                         reqs[i], graphs[g], aggs[k]);
                check_request(d, text);
            }
    db_close(d);
}

int main(void)
{
    gsl_set_error_handler_off();
    if (mkdtemp(dir) == NULL)
        return 1;
    RUN(test_streamed_like_per_run);
    return harness_report_removing(dir);
}
