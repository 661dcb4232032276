/* Fuzz target: the template expression parser, compiler, evaluator and
 * printers, with the paper's system parameters in scope. */
#include "common/buf.h"
#include "models/expr.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const vars[] = {"N", "P", "L"};
    static const char *const largs[] = {"L"};
    const struct expr_param params[] = {
        {"ADDM", NULL, 0, "4.83e-8"},
        {"MPISR", largs, 1, "0.001*(15.94+0.0608*L)"},
        {"MPIBC", largs, 1, "log2(P)*MPISR(L)"},
    };
    const struct expr_env env = {vars, 3, params, 3};
    double v[3] = {1000, 8, 1024}, coef[EXPR_POLY_MAX_DEGREE + 1];
    char src[EXPR_MAX_LEN + 2];
    struct err e = {0};
    struct buf b;
    int degree;
    expr *x;

    if (size > EXPR_MAX_LEN + 1)
        size = EXPR_MAX_LEN + 1;
    memcpy(src, data, size);
    src[size] = '\0';
    x = expr_compile(src, &env, &e);
    if (x == NULL) {
        if (e.status == 0)
            __builtin_trap();
        return 0;
    }
    (void)expr_eval(x, v);
    buf_init(&b, 1 << 20);
    expr_print_substituted(x, &b);
    buf_free(&b);
    err_clear(&e);
    (void)expr_poly(x, 0, v, coef, &degree, &e);
    expr_free(x);
    return 0;
}
