/* Unit tests for models/expr: parsing, precedence, functions, errors with
 * columns, limits, parameters (substitution, arity, cycles), the SPEC §5.2
 * worked check, substituted printing and polynomial coefficients. */
#include "common/buf.h"
#include "common/err.h"
#include "common/xalloc.h"
#include "models/expr.h"
#include "tests/harness.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const matmul_tpl = "ADDM*N^3/(P-1) + 2*N*MPISR(L)/(P-1) + N*MPIBC(L)";
static const char *const arg_L[] = {"L"};
static const struct expr_param sp2[] = {
    {"ADDM", NULL, 0, "4.83e-8"},
    {"MPISR", arg_L, 1, "0.001*(15.94+0.0608*L)"},
    {"MPIBC", arg_L, 1, "log2(P)*0.001*(15.94+0.0608*L)"},
};
static const char *const vars_NPL[] = {"N", "P", "L"};
static const struct expr_env env_sp2 = {vars_NPL, 3, sp2, 3};

/* Value of a numbers-only expression; NAN (and a failed check) on error. */
static double val(const char *src)
{
    struct err err = {0};
    expr *e = expr_compile(src, NULL, &err);
    double v;
    if (e == NULL) {
        fprintf(stderr, "compile \"%s\": %s\n", src, err.message);
        CHECK(e != NULL);
        return NAN;
    }
    v = expr_eval(e, NULL);
    expr_free(e);
    return v;
}

/* Compiles src against env expecting a 422 with the given message. */
static void check_error(const char *src, const struct expr_env *env, const char *msg)
{
    struct err err = {0};
    expr *e = expr_compile(src, env, &err);
    CHECK(e == NULL);
    expr_free(e);
    CHECK_INT(err.status, ERR_INVALID);
    CHECK_STR(err.code, "expression");
    CHECK_STR(err.message, msg);
}

static void test_precedence(void)
{
    CHECK_NEAR(val("2^3^2"), 512, 0);
    CHECK_NEAR(val("-2^2"), -4, 0);
    CHECK_NEAR(val("2*3+4"), 10, 0);
    CHECK_NEAR(val("2+3*4"), 14, 0);
    CHECK_NEAR(val("(2+3)*4"), 20, 0);
    CHECK_NEAR(val("10-4-3"), 3, 0);
    CHECK_NEAR(val("64/4/2"), 8, 0);
    CHECK_NEAR(val("2^-1"), 0.5, 0);
    CHECK_NEAR(val("--3"), 3, 0);
    CHECK_NEAR(val("+3 - +2"), 1, 0);
    CHECK_NEAR(val("2*-3"), -6, 0);
    CHECK_NEAR(val("-2^-2"), -0.25, 0);
    CHECK_NEAR(val("(-2)^2"), 4, 0);
    CHECK_NEAR(val("2^3*2"), 16, 0);
    CHECK_NEAR(val(" 1 +\t2\n* 3 "), 7, 0);
}

static void test_numbers(void)
{
    CHECK_NEAR(val("4.83e-8"), 4.83e-8, 1e-15);
    CHECK_NEAR(val(".5"), 0.5, 0);
    CHECK_NEAR(val("1e3"), 1000, 0);
    CHECK_NEAR(val("1E+3"), 1000, 0);
    CHECK_NEAR(val("5."), 5, 0);
    CHECK_NEAR(val("0.0608"), 0.0608, 0);
    CHECK_NEAR(val("1e-400"), 0, 0); /* underflow to zero is a value, not an error */
}

static void test_functions(void)
{
    CHECK_NEAR(val("log(exp(2))"), 2, 1e-15);
    CHECK_NEAR(val("log(10)"), 2.302585092994046, 1e-15);
    CHECK_NEAR(val("log2(1024)"), 10, 0);
    CHECK_NEAR(val("log10(1e5)"), 5, 1e-15);
    CHECK_NEAR(val("sqrt(2)^2"), 2, 1e-15);
    CHECK_NEAR(val("exp(1)"), 2.718281828459045, 1e-15);
    CHECK_NEAR(val("abs(-3.5)"), 3.5, 0);
    CHECK_NEAR(val("min(3, 1, 2)"), 1, 0);
    CHECK_NEAR(val("max(3, 7, 2)"), 7, 0);
    CHECK_NEAR(val("min(4,5)"), 4, 0);
    CHECK_NEAR(val("ceil(2.1)"), 3, 0);
    CHECK_NEAR(val("ceil(-2.1)"), -2, 0);
    CHECK_NEAR(val("floor(2.9)"), 2, 0);
    CHECK_NEAR(val("floor(-2.1)"), -3, 0);
    CHECK(isnan(val("max(1, log(-1), 2)")));
}

static void test_non_finite(void)
{
    static const char *const v[] = {"N", "P"};
    struct expr_env env = {v, 2, NULL, 0};
    struct err err = {0};
    double x[2] = {1000, 1}, out = 0;
    expr *e = expr_compile("N/(P-1)", &env, &err);

    CHECK(e != NULL);
    if (e == NULL)
        return;
    CHECK(isinf(expr_eval(e, x)));
    CHECK_INT(expr_eval_checked(e, x, &out, &err), -1);
    CHECK_INT(err.status, ERR_INVALID);
    CHECK_STR(err.message, "evaluates to a non-finite value at N=1000, P=1");
    x[1] = 5;
    err_clear(&err);
    CHECK_INT(expr_eval_checked(e, x, &out, &err), 0);
    CHECK_NEAR(out, 250, 0);
    expr_free(e);
    CHECK(isnan(val("log(-1)")));
    CHECK(isinf(val("1/0")));
}

static void test_syntax_errors(void)
{
    struct err err = {0};

    check_error("2*(3+4", NULL, "column 7: expected ')'");
    check_error("2**3", NULL, "column 3: expected a number, name or '(' but found '*'");
    check_error("1e", NULL, "column 3: expected digits in the exponent");
    check_error("1e+x", NULL, "column 4: expected digits in the exponent");
    check_error("max()", NULL, "column 1: 'max' takes at least 2 arguments, got 0");
    check_error("max(1)", NULL, "column 1: 'max' takes at least 2 arguments, got 1");
    check_error("sqrt(1,2)", NULL, "column 1: 'sqrt' takes 1 argument, got 2");
    check_error("1 + log", NULL, "column 5: function 'log' needs an argument list");
    check_error("", NULL, "column 1: empty expression");
    check_error("   ", NULL, "column 4: empty expression");
    check_error("2 3", NULL, "column 3: unexpected '3'");
    check_error("2+", NULL,
                "column 3: expected a number, name or '(' but found end of "
                "expression");
    check_error("(1))", NULL, "column 4: unexpected ')'");
    check_error("1.2.3", NULL, "column 4: unexpected '.'");
    check_error("2 $ 3", NULL, "column 3: unexpected '$'");
    check_error("max(1 2)", NULL, "column 7: expected ',' or ')' but found '2'");
    check_error("foo(2)", NULL, "column 1: unknown function 'foo'");
    check_error("1e999", NULL, "column 1: number 1e999 is out of range");

    /* The column is readable by the caller and the field names the input. */
    expr_free(expr_compile("2*(3+4", NULL, &err));
    CHECK_INT(expr_err_column(&err), 7);
    CHECK_STR(err.field, "expression");
    err_clear(&err);
    CHECK(expr_parse("N*(P", &err) == NULL);
    CHECK_INT(expr_err_column(&err), 5);
}

static void test_names_and_parameters_errors(void)
{
    static const char *const v[] = {"N", "P", "L"};
    static const char *const argsA[] = {"x"};
    static const struct expr_param cyc[] = {
        {"A", argsA, 1, "B*x"},
        {"B", NULL, 0, "2+C"},
        {"C", NULL, 0, "A(3)"},
    };
    static const struct expr_param badbody[] = {{"Z", NULL, 0, "1+Q"}};
    static const struct expr_param badsyntax[] = {{"Z", NULL, 0, "1+(2"}};
    struct expr_env env = {v, 3, sp2, 3};
    struct expr_env ecyc = {v, 3, cyc, 3};
    struct expr_env ebody = {v, 3, badbody, 1};
    struct expr_env esyn = {v, 3, badsyntax, 1};
    struct err err = {0};

    check_error("N*Q", &env, "column 3: unknown name 'Q'");
    check_error("N+MPISR(L, 2)", &env,
                "column 3: parameter 'MPISR' takes 1 argument, got 2");
    check_error("N*MPISR", &env,
                "column 3: parameter 'MPISR' takes 1 argument; write MPISR(...)");
    check_error("ADDM(3)", &env, "column 1: parameter 'ADDM' takes 0 arguments, got 1");
    check_error("ADDM()", &env,
                "column 1: empty argument list of 'ADDM' (a parameter without arguments "
                "is written without parentheses)");
    check_error("1+A(2)", &ecyc,
                "column 1 of parameter 'C': parameter cycle: A -> B -> C -> A");
    check_error("Z*N", &ebody, "column 3 of parameter 'Z': unknown name 'Q'");
    check_error("Z*N", &esyn, "column 5 of parameter 'Z': expected ')'");
    expr_free(expr_compile("Z*N", &esyn, &err));
    CHECK_STR(err.field, "parameters.Z");
    CHECK_INT(expr_err_column(&err), 5);

    /* A self-reference is the shortest cycle. */
    {
        static const struct expr_param self[] = {{"S", NULL, 0, "1+S"}};
        struct expr_env es = {v, 3, self, 1};
        check_error("S", &es, "column 3 of parameter 'S': parameter cycle: S -> S");
    }
    /* Bad environments. */
    {
        static const char *const dup[] = {"N", "N"};
        static const char *const fnv[] = {"log"};
        static const char *const clash[] = {"ADDM"};
        static const struct expr_param twice[] = {{"A", NULL, 0, "1"},
                                                  {"A", NULL, 0, "2"}};
        struct expr_env e1 = {dup, 2, NULL, 0}, e2 = {fnv, 1, NULL, 0};
        struct expr_env e3 = {clash, 1, sp2, 3}, e4 = {NULL, 0, twice, 2};
        err_clear(&err);
        CHECK(expr_compile("N", &e1, &err) == NULL);
        CHECK_STR(err.message, "variable 'N' given twice");
        err_clear(&err);
        CHECK(expr_compile("1", &e2, &err) == NULL);
        CHECK_STR(err.message, "variable name 'log' is not a valid name");
        err_clear(&err);
        CHECK(expr_compile("1", &e3, &err) == NULL);
        CHECK_STR(err.message, "'ADDM' is both a variable and a system parameter");
        err_clear(&err);
        CHECK(expr_compile("A", &e4, &err) == NULL);
        CHECK_STR(err.message, "parameter 'A' defined twice");
    }
}

static void test_limits(void)
{
    struct err err = {0};
    size_t depth = 10000, i;
    char *s = xmalloc(2 * depth + 2);
    expr_tree *t;

    /* 10,000 nested parentheses: a clear 422, no stack overflow. */
    for (i = 0; i < depth; i++) {
        s[i] = '(';
        s[depth + 1 + i] = ')';
    }
    s[depth] = '1';
    s[2 * depth + 1] = '\0';
    check_error(s, NULL, "column 4097: expression longer than 4096 bytes");
    s[2000] = '1';
    s[2001] = '\0';
    check_error(s, NULL, "column 65: nesting deeper than 64 levels");
    t = expr_parse(s, &err);
    CHECK(t == NULL);
    CHECK_INT(err.status, ERR_INVALID);
    CHECK_INT(expr_err_column(&err), 65);

    /* Exactly 64 levels are fine. */
    for (i = 0; i < 64; i++) {
        s[i] = '(';
        s[65 + i] = ')';
    }
    s[64] = '7';
    s[129] = '\0';
    CHECK_NEAR(val(s), 7, 0);

    /* Unary minus and ^ chains count as nesting too. */
    memset(s, '-', 100);
    s[100] = '1';
    s[101] = '\0';
    check_error(s, NULL, "column 65: nesting deeper than 64 levels");

    /* Node limit: 1+1+...+1 with 600 ones has 1199 nodes. */
    for (i = 0; i < 600; i++) {
        s[2 * i] = '1';
        s[2 * i + 1] = '+';
    }
    s[2 * 600 - 1] = '\0';
    err_clear(&err);
    CHECK(expr_compile(s, NULL, &err) == NULL);
    CHECK_INT(err.status, ERR_INVALID);
    CHECK(strstr(err.message, "more than 1024 nodes") != NULL);

    /* A long name. */
    memset(s, 'a', 65);
    s[65] = '\0';
    check_error(s, NULL, "column 1: name longer than 64 bytes");
    xfree(s);

    /* Parameters that double at every level hit the expansion limit cleanly. */
    {
        static const char *const ax[] = {"x"};
        struct expr_param chain[20];
        char names[20][8], bodies[20][32];
        static const char *const v[] = {"N"};
        struct expr_env env = {v, 1, chain, 20};
        for (i = 0; i < 20; i++) {
            snprintf(names[i], sizeof names[i], "F%zu", i);
            if (i + 1 < 20)
                snprintf(bodies[i], sizeof bodies[i], "F%zu(x)+F%zu(x)", i + 1, i + 1);
            else
                snprintf(bodies[i], sizeof bodies[i], "x*2");
            chain[i].name = names[i];
            chain[i].args = ax;
            chain[i].nargs = 1;
            chain[i].body = bodies[i];
        }
        err_clear(&err);
        CHECK(expr_compile("F0(N)", &env, &err) == NULL);
        CHECK_INT(err.status, ERR_INVALID);
        CHECK(strstr(err.message, "after substituting parameters") != NULL);
    }
}

/* SPEC §5.2 worked check (the paper's Figure 8, IBM SP2). */
static void test_worked_check(void)
{
    struct err err = {0};
    double x[3] = {1000, 8, 1024}, v = 0;
    expr *e = expr_compile(matmul_tpl, &env_sp2, &err);
    expr *t1, *t2, *t3;

    CHECK(e != NULL);
    if (e == NULL) {
        fprintf(stderr, "%s\n", err.message);
        return;
    }
    CHECK_INT(expr_eval_checked(e, x, &v, &err), 0);
    CHECK(fabs(v - 263.8402) < 0.5e-4);
    CHECK_INT(expr_nvars(e), 3);
    CHECK(expr_uses_var(e, 0) && expr_uses_var(e, 1) && expr_uses_var(e, 2));
    expr_free(e);

    t1 = expr_compile("ADDM*N^3/(P-1)", &env_sp2, &err);
    t2 = expr_compile("2*N*MPISR(L)/(P-1)", &env_sp2, &err);
    t3 = expr_compile("N*MPIBC(L)", &env_sp2, &err);
    CHECK(t1 && t2 && t3);
    if (t1 && t2 && t3) {
        CHECK(fabs(expr_eval(t1, x) - 6.9) < 0.5e-4);
        CHECK(fabs(expr_eval(t2, x) - 22.3426) < 0.5e-4);
        CHECK(fabs(expr_eval(t3, x) - 234.5976) < 0.5e-4);
    }
    expr_free(t1);
    expr_free(t2);
    expr_free(t3);
}

static void test_parameter_calls(void)
{
    static const char *const args2[] = {"a", "b"};
    static const struct expr_param ps[] = {
        {"MPISR", arg_L, 1, "0.001*(15.94+0.0608*L)"},
        {"TWO", args2, 2, "a*10+b+P"}, /* P comes from the outer environment */
        {"NEST", arg_L, 1, "MPISR(L)+TWO(L,1)"},
    };
    struct expr_env env = {vars_NPL, 3, ps, 3};
    struct err err = {0};
    double x[3] = {0, 5, 100};
    expr *e = expr_compile("MPISR(2*L)", &env, &err);
    struct buf b;

    CHECK(e != NULL);
    if (e) {
        CHECK_NEAR(expr_eval(e, x), 0.001 * (15.94 + 0.0608 * 200), 1e-15);
        CHECK(!expr_uses_var(e, 0) && !expr_uses_var(e, 1) && expr_uses_var(e, 2));
        buf_init(&b, 1024);
        expr_print_substituted(e, &b);
        CHECK_STR(buf_str(&b), "0.001*(15.94+0.0608*2*L)");
        buf_free(&b);
    }
    expr_free(e);
    e = expr_compile("TWO(L, 3) - NEST(L-1)", &env, &err);
    CHECK(e != NULL);
    if (e) {
        CHECK_NEAR(expr_eval(e, x),
                   (100 * 10 + 3 + 5) - (0.001 * (15.94 + 0.0608 * 99) + 99 * 10 + 1 + 5),
                   1e-12);
        buf_init(&b, 1024);
        expr_print_substituted(e, &b);
        CHECK_STR(buf_str(&b), "L*10+3+P-(0.001*(15.94+0.0608*(L-1))+(L-1)*10+1+P)");
        buf_free(&b);
    }
    expr_free(e);
}

static void test_print_canonical(void)
{
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"ADDM*N^3/(P-1) + 2*N*MPISR(L)/(P-1) + N*MPIBC(L)",
         "ADDM*N^3/(P-1)+2*N*MPISR(L)/(P-1)+N*MPIBC(L)"},
        {"((a+b))+(c+d)", "a+b+c+d"},
        {"a-(b-c)", "a-(b-c)"},
        {"a-(b+c)", "a-(b+c)"},
        {"(a-b)-c", "a-b-c"},
        {"a/(b*c)", "a/(b*c)"},
        {"a*(b/c)", "a*b/c"},
        {"(a^b)^c", "(a^b)^c"},
        {"a^(b^c)", "a^b^c"},
        {"-a^2", "-a^2"},
        {"(-a)^2", "(-a)^2"},
        {"2^-1", "2^-1"},
        {"a*(-b)", "a*(-b)"},
        {"-(a+b)*c", "-(a+b)*c"},
        {"--3", "--3"},
        {"+x", "x"},
        {"max( 1 , a , 2.50 )", "max(1,a,2.5)"},
        {"4.83e-8*N", "4.83e-08*N"},
        {"(a*b)^(c+1)", "(a*b)^(c+1)"},
        {"1e21", "1e+21"},
    };
    size_t i;
    struct buf b;
    struct err err = {0};

    buf_init(&b, 4096);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        expr_tree *t = expr_parse(cases[i].in, &err);
        CHECK(t != NULL);
        if (t == NULL)
            continue;
        buf_reset(&b);
        expr_print(t, &b);
        CHECK_INT(buf_failed(&b), BUF_OK);
        CHECK_STR(buf_str(&b), cases[i].out);
        expr_tree_free(t);
    }
    buf_free(&b);
}

/* The printed form reads back to the same value (round trip). */
static void test_print_round_trip(void)
{
    static const char *const srcs[] = {
        "2^3^2",
        "-2^2",
        "10-4-3",
        "64/4/2",
        "2^-1",
        "--3",
        "(1-2)-(3-4)*5/(6/7)",
        "min(1,2)-max(-3,4)^2",
        "log2(8)/-2",
        "(-(2))^(-(3))",
        "1/(2/(3/(4/5)))",
    };
    size_t i;
    struct buf b;
    struct err err = {0};

    buf_init(&b, 4096);
    for (i = 0; i < sizeof srcs / sizeof srcs[0]; i++) {
        expr_tree *t = expr_parse(srcs[i], &err);
        CHECK(t != NULL);
        if (t == NULL)
            continue;
        buf_reset(&b);
        expr_print(t, &b);
        CHECK_NEAR(val(buf_str(&b)), val(srcs[i]), 1e-15);
        expr_tree_free(t);
    }
    buf_free(&b);
}

static void test_print_number(void)
{
    static const struct {
        double v;
        const char *out;
    } cases[] = {
        {1000, "1000"},
        {10, "10"},
        {0.1, "0.1"},
        {4.83e-8, "4.83e-08"},
        {1e21, "1e+21"},
        {2.5, "2.5"},
        {1e16, "10000000000000000"},
        {123456.75, "123456.75"},
        {0, "0"},
        {-3, "-3"},
        {1.0 / 3, "0.3333333333333333"},
        {NAN, "0"},
    };
    size_t i;
    struct buf b;

    buf_init(&b, 256);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        buf_reset(&b);
        expr_print_number(&b, cases[i].v);
        CHECK_STR(buf_str(&b), cases[i].out);
        if (isfinite(cases[i].v))
            CHECK(strtod(buf_str(&b), NULL) == cases[i].v);
    }
    buf_free(&b);
}

static void test_print_substituted(void)
{
    struct err err = {0};
    struct buf b;
    expr *e = expr_compile(matmul_tpl, &env_sp2, &err);

    CHECK(e != NULL);
    if (e == NULL)
        return;
    buf_init(&b, 4096);
    expr_print_substituted(e, &b);
    CHECK_STR(buf_str(&b), "4.83e-08*N^3/(P-1)+2*N*0.001*(15.94+0.0608*L)/(P-1)+"
                           "N*log2(P)*0.001*(15.94+0.0608*L)");
    /* The parsed form is itself an expression with the same value. */
    {
        double x[3] = {1000, 8, 1024};
        static const struct expr_env plain = {vars_NPL, 3, NULL, 0};
        expr *p = expr_compile(buf_str(&b), &plain, &err);
        CHECK(p != NULL);
        if (p)
            CHECK_NEAR(expr_eval(p, x), expr_eval(e, x), 1e-12);
        expr_free(p);
    }
    buf_free(&b);
    expr_free(e);
}

static void test_poly(void)
{
    struct err err = {0};
    double x[3] = {1000, 8, 1024}, c[EXPR_POLY_MAX_DEGREE + 1], sum;
    double mpisr = 0.001 * (15.94 + 0.0608 * 1024), mpibc = 3 * mpisr;
    int deg = -1, i;
    expr *e = expr_compile(matmul_tpl, &env_sp2, &err);

    CHECK(e != NULL);
    if (e == NULL)
        return;
    CHECK_INT(expr_poly(e, 0, x, c, &deg, &err), EXPR_POLY_OK);
    CHECK_INT(deg, 3);
    CHECK_NEAR(c[3], 4.83e-8 / 7, 1e-12);
    CHECK_NEAR(c[2], 0, 0);
    CHECK_NEAR(c[1], 2 * mpisr / 7 + mpibc, 1e-12);
    CHECK_NEAR(c[0], 0, 0);
    for (i = 4; i <= EXPR_POLY_MAX_DEGREE; i++)
        CHECK_NEAR(c[i], 0, 0);
    /* The coefficients give back the value. */
    sum = c[0] + c[1] * 1000 + c[2] * 1e6 + c[3] * 1e9;
    CHECK(fabs(sum - 263.8402) < 0.5e-4);

    /* In P it is not a polynomial (division by P-1, log2(P)). */
    CHECK_INT(expr_poly(e, 1, x, c, &deg, &err), EXPR_NOT_POLY);
    /* In L it is linear. */
    CHECK_INT(expr_poly(e, 2, x, c, &deg, &err), EXPR_POLY_OK);
    CHECK_INT(deg, 1);
    CHECK_NEAR(c[1], 2 * 1000 * 0.001 * 0.0608 / 7 + 1000 * 3 * 0.001 * 0.0608, 1e-12);
    CHECK_INT(err.status, 0);
    expr_free(e);

    {
        static const char *const v[] = {"x", "y"};
        struct expr_env env = {v, 2, NULL, 0};
        double xy[2] = {0, 2};
        static const struct {
            const char *src;
            int rc, deg;
            double c0, c1, c2;
        } cases[] = {
            {"(x+1)^2", EXPR_POLY_OK, 2, 1, 2, 1},
            {"(x-y)*(x+y)", EXPR_POLY_OK, 2, -4, 0, 1},
            {"-(x*y)/4 + sqrt(y*8)", EXPR_POLY_OK, 1, 4, -0.5, 0},
            {"x^y", EXPR_POLY_OK, 2, 0, 0, 1},
            {"x - x", EXPR_POLY_OK, 0, 0, 0, 0},
            {"1/x", EXPR_NOT_POLY, 0, 0, 0, 0},
            {"x^0.5", EXPR_NOT_POLY, 0, 0, 0, 0},
            {"log(x)", EXPR_NOT_POLY, 0, 0, 0, 0},
            {"x^13", EXPR_NOT_POLY, 0, 0, 0, 0},
            {"x^x", EXPR_NOT_POLY, 0, 0, 0, 0},
            {"max(x,1)", EXPR_NOT_POLY, 0, 0, 0, 0},
        };
        size_t k;
        for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            expr *p = expr_compile(cases[k].src, &env, &err);
            CHECK(p != NULL);
            if (p == NULL)
                continue;
            CHECK_INT(expr_poly(p, 0, xy, c, &deg, &err), cases[k].rc);
            if (cases[k].rc == EXPR_POLY_OK) {
                CHECK_INT(deg, cases[k].deg);
                CHECK_NEAR(c[0], cases[k].c0, 1e-15);
                CHECK_NEAR(c[1], cases[k].c1, 1e-15);
                CHECK_NEAR(c[2], cases[k].c2, 1e-15);
            }
            expr_free(p);
        }
        /* Division by zero at the fixed values is an error. */
        {
            expr *p = expr_compile("x/(y-2)", &env, &err);
            CHECK(p != NULL);
            if (p) {
                CHECK_INT(expr_poly(p, 0, xy, c, &deg, &err), -1);
                CHECK_INT(err.status, ERR_INVALID);
            }
            expr_free(p);
        }
    }
}

static void test_free_vars(void)
{
    struct expr_names names = {0};
    struct err err = {0};

    CHECK_INT(expr_free_vars(matmul_tpl, sp2, 3, &names, &err), 0);
    CHECK_INT(names.n, 3);
    if (names.n == 3) {
        CHECK_STR(names.names[0], "N");
        CHECK_STR(names.names[1], "P");
        CHECK_STR(names.names[2], "L");
    }
    expr_names_free(&names);
    /* P is needed only through MPIBC's body. */
    CHECK_INT(expr_free_vars("MPIBC(1024)*x", sp2, 3, &names, &err), 0);
    CHECK_INT(names.n, 2);
    if (names.n == 2) {
        CHECK_STR(names.names[0], "P");
        CHECK_STR(names.names[1], "x");
    }
    expr_names_free(&names);
    CHECK_INT(expr_free_vars("MPISR(1, 2)", sp2, 3, &names, &err), -1);
    CHECK_INT(err.status, ERR_INVALID);
    CHECK_INT(names.n, 0);
    CHECK(names.names == NULL);
}

static void test_used_params(void)
{
    static const char *const arg_x[] = {"x"};
    /* B is used only through A's body; C not at all (its body would not even
     * parse, and nothing reads it). */
    const struct expr_param chain[] = {
        {"A", arg_x, 1, "2*B+x"}, {"B", NULL, 0, "3"}, {"C", NULL, 0, "1+*"}};
    unsigned char used[3] = {9, 9, 9};
    struct err err = {0};

    CHECK_INT(expr_used_params(matmul_tpl, sp2, 3, used, &err), 0);
    CHECK(used[0] == 1 && used[1] == 1 && used[2] == 1);
    CHECK_INT(expr_used_params("ADDM*N", sp2, 3, used, &err), 0);
    CHECK(used[0] == 1 && used[1] == 0 && used[2] == 0);
    CHECK_INT(expr_used_params("A(N)", chain, 3, used, &err), 0);
    CHECK(used[0] == 1 && used[1] == 1 && used[2] == 0);
    CHECK_INT(expr_used_params("N+1", chain, 3, used, &err), 0);
    CHECK(used[0] == 0 && used[1] == 0 && used[2] == 0);
    CHECK_INT(expr_used_params("C", chain, 3, used, &err), -1);
    CHECK_INT(err.status, ERR_INVALID);
}

static void test_param_head(void)
{
    struct expr_param_head h;
    struct err err = {0};
    struct expr_param p;

    CHECK_INT(expr_param_head_parse("MPISR(L)", &h, &err), 0);
    CHECK_STR(h.name, "MPISR");
    CHECK_INT(h.nargs, 1);
    CHECK_STR(h.argv[0], "L");
    CHECK_INT(expr_param_head_parse(" ADDM ", &h, &err), 0);
    CHECK_STR(h.name, "ADDM");
    CHECK_INT(h.nargs, 0);
    CHECK_INT(expr_param_head_parse("F( L , P )", &h, &err), 0);
    CHECK_INT(h.nargs, 2);
    CHECK_STR(h.argv[1], "P");
    CHECK_INT(expr_param_head_parse("F(L,L)", &h, &err), -1);
    CHECK_STR(err.message, "column 5: argument 'L' given twice");
    err_clear(&err);
    CHECK_INT(expr_param_head_parse("F(L", &h, &err), -1);
    CHECK_STR(err.message, "column 4: expected ',' or ')' but found end of expression");
    err_clear(&err);
    CHECK_INT(expr_param_head_parse("log(x)", &h, &err), -1);
    CHECK_STR(err.message, "column 1: 'log' is a function name");
    err_clear(&err);
    CHECK_INT(expr_param_head_parse("F()", &h, &err), -1);
    err_clear(&err);
    CHECK_INT(expr_param_head_parse("F(x) y", &h, &err), -1);

    /* A head and a body make a parameter that validates. */
    CHECK_INT(expr_param_head_parse("MPIBC(L)", &h, &err), 0);
    p.name = h.name;
    p.args = h.argv;
    p.nargs = h.nargs;
    p.body = "log2(P)*0.001*(15.94+0.0608*L)";
    err_clear(&err);
    CHECK_INT(expr_param_validate(&p, &err), 0);
    p.body = "log2(P)*(";
    CHECK_INT(expr_param_validate(&p, &err), -1);
    CHECK_STR(err.field, "parameters.MPIBC");
    CHECK_STR(err.message,
              "column 10 of parameter 'MPIBC': expected a number, name or '(' "
              "but found end of expression");
}

/* Every allocation failure is reported, never a crash or a leak. */
static void test_out_of_memory(void)
{
    long n;
    int ok = 0;

    for (n = 1; n < 200 && !ok; n++) {
        struct err err = {0};
        expr *e;
        xalloc_fail_at(n);
        e = expr_compile(matmul_tpl, &env_sp2, &err);
        xalloc_fail_at(0);
        if (e) {
            ok = 1;
            expr_free(e);
        } else {
            CHECK_INT(err.status, ERR_NOMEM);
        }
    }
    CHECK(ok);
}

int main(void)
{
    gsl_set_error_handler_off();
    RUN(test_precedence);
    RUN(test_numbers);
    RUN(test_functions);
    RUN(test_non_finite);
    RUN(test_syntax_errors);
    RUN(test_names_and_parameters_errors);
    RUN(test_limits);
    RUN(test_worked_check);
    RUN(test_parameter_calls);
    RUN(test_print_canonical);
    RUN(test_print_round_trip);
    RUN(test_print_number);
    RUN(test_print_substituted);
    RUN(test_poly);
    RUN(test_free_vars);
    RUN(test_used_params);
    RUN(test_param_head);
    RUN(test_out_of_memory);
    return harness_report();
}
