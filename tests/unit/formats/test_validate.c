/* Unit tests for formats/validate: catalog write bodies (benchmarks,
 * parameters, templates, couplings) into records, errors naming the field. */
#include "formats/validate.h"
#include "tests/harness.h"

#include <string.h>

static json_t *doc(const char *text)
{
    json_t *j = json_loads(text, 0, NULL);
    CHECK(j != NULL);
    return j;
}

static void test_benchmarks(void)
{
    struct bench_record *b;
    struct err e = {0};
    arena *a = arena_new();
    size_t n;
    json_t *j =
        doc("{\"benchmarks\": [{\"name\": \"MPISR\", \"args\": {\"P\": 2, \"L\": 1024}, "
            "\"time\": 7.8e-5, \"stat\": \"min\"}, {\"name\": \"ADDM\", \"time\": "
            "4.83e-8}]}");

    CHECK_INT(validate_benchmarks(j, a, &b, &n, &e), 0);
    CHECK_INT(n, 2);
    CHECK_STR(b[0].name, "MPISR");
    CHECK_STR(b[0].args_json, "{\"L\":1024,\"P\":2}"); /* canonical */
    CHECK_STR(b[0].stat, "min");
    CHECK_STR(b[1].args_json, "{}");
    json_decref(j);
    j = doc("{\"benchmarks\": [{\"name\": \"ADDM\", \"time\": 1}, {\"name\": \"2bad\", "
            "\"time\": 1}]}");
    CHECK_INT(validate_benchmarks(j, a, &b, &n, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    CHECK_STR(e.field, "benchmarks[1].name");
    json_decref(j);
    arena_free(a);
}

static void test_parameters(void)
{
    struct param_record *p;
    struct err e = {0};
    arena *a = arena_new();
    size_t n;
    json_t *j = doc("{\"parameters\": {\"ADDM\": 4.83e-8, \"MPISR(L)\": "
                    "\"0.001*(15.94+0.0608*L)\"}, \"source\": \"hand\"}");

    CHECK_INT(validate_parameters(j, a, &p, &n, &e), 0);
    CHECK_INT(n, 2);
    CHECK_STR(p[1].name, "MPISR");
    CHECK_STR(p[1].args, "L");
    CHECK_STR(p[1].source, "hand");
    json_decref(j);
    j = doc("{\"parameters\": {\"MPISR(L)\": \"0.001*(15.94+\"}}");
    CHECK_INT(validate_parameters(j, a, &p, &n, &e), -1);
    CHECK_STR(e.field, "parameters.MPISR(L)");
    json_decref(j);
    memset(&e, 0, sizeof e);
    j = doc("{\"parameters\": {\"ADDM\": 1}, \"colour\": 1}");
    CHECK_INT(validate_parameters(j, a, &p, &n, &e), -1);
    CHECK_STR(e.field, "colour");
    json_decref(j);
    arena_free(a);
}

static void test_template_and_couplings(void)
{
    const char *name, *app, *kernel, *expr, *desc;
    struct coupling_record *c;
    struct err e = {0};
    arena *a = arena_new();
    size_t n;
    json_t *j = doc("{\"name\": \"t\", \"application\": \"matmul\", \"expression\": "
                    "\"ADDM*N^3/(P-1)\"}");

    CHECK_INT(validate_template(j, a, &name, &app, &kernel, &expr, &desc, &e), 0);
    CHECK_STR(app, "matmul");
    CHECK_STR(expr, "ADDM*N^3/(P-1)");
    json_decref(j);
    j = doc("{\"name\": \"t\", \"application\": \"matmul\", \"expression\": \"N^\"}");
    CHECK_INT(validate_template(j, a, &name, &app, &kernel, &expr, &desc, &e), -1);
    CHECK_STR(e.field, "expression");
    json_decref(j);

    memset(&e, 0, sizeof e);
    j = doc("{\"application\": \"bt\", \"system\": \"sp2\", \"nprocs\": 16, \"inputs\": "
            "{\"class_size\": 64}, \"kernels\": [\"x\", \"y\"], \"alone\": [10, 6], "
            "\"together\": 14.9}");
    CHECK_INT(validate_couplings(j, a, &c, &n, &e), 0);
    CHECK_INT(n, 1);
    CHECK_STR(c[0].kernels_json, "[\"x\",\"y\"]");
    CHECK_NEAR(c[0].together, 14.9, 0);
    json_decref(j);
    j = doc(
        "{\"couplings\": [{\"application\": \"bt\", \"system\": \"sp2\", \"nprocs\": 16, "
        "\"inputs\": {}, \"kernels\": [\"x\", \"y\"], \"alone\": [10], \"together\": "
        "1}]}");
    CHECK_INT(validate_couplings(j, a, &c, &n, &e), -1);
    CHECK_STR(e.field, "couplings[0].alone");
    json_decref(j);
    arena_free(a);
}

int main(void)
{
    RUN(test_benchmarks);
    RUN(test_parameters);
    RUN(test_template_and_couplings);
    return harness_report();
}
