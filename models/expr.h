/* expr: the template expression language of parameterization (SPEC §5.2).
 *
 * A hand-written recursive-descent parser turns text such as
 * "ADDM*N^3/(P-1)+2*N*MPISR(L)/(P-1)+N*MPIBC(L)" into a tree; compiling the
 * tree against an environment (application variables and system parameters)
 * substitutes every parameter's body, resolves each variable to an index into
 * a caller-supplied array of doubles and flattens the result into a postfix
 * program, so evaluating a 200x200 grid is a plain loop. The same compiled
 * object prints the "parsed" expression with the parameters substituted and
 * extracts polynomial (alpha) coefficients in one variable.
 *
 * This module only computes: it does no I/O, knows nothing of JSON or SQL,
 * and never hands any text to a shell or an interpreter. Every input has a
 * limit (length, nesting depth, node count) with a clear ERR_INVALID error, and
 * recursion is bounded so hostile input cannot overflow the stack.
 *
 * Errors: syntax and name errors are status ERR_INVALID, code "expression". Errors in
 * the template have err->field "expression"; errors inside a parameter's body
 * have err->field "parameters.NAME". When an error has a position its message
 * starts "column N: " (1-based byte column in the text at fault) or
 * "column N of parameter 'NAME': "; expr_err_column() reads N back.
 */
#ifndef PROPHECY_EXPR_H
#define PROPHECY_EXPR_H

#include <stddef.h>

#include "common/buf.h"
#include "common/err.h"

#define EXPR_MAX_LEN 4096      /* bytes of one expression (template or body) */
#define EXPR_MAX_DEPTH 64      /* nesting: parentheses, calls, unary signs, ^ */
#define EXPR_MAX_NODES 1024    /* tree nodes of one parsed expression */
#define EXPR_MAX_NAME 64       /* bytes of a variable, function or parameter name */
#define EXPR_MAX_ARGS 16       /* arguments of one call (min, max, parameters) */
#define EXPR_MAX_VARS 64       /* variables in one environment */
#define EXPR_MAX_PARAMS 256    /* system parameters in one environment */
#define EXPR_MAX_PROGRAM 65536 /* nodes after substituting parameter bodies */
#define EXPR_MAX_HEIGHT 1024   /* tree height after substituting parameter bodies */
#define EXPR_MAX_STACK 256     /* evaluation stack of the compiled program */
#define EXPR_POLY_MAX_DEGREE 12

/* A parsed expression, names not yet resolved. Opaque; immutable after
 * expr_parse, so it may be read from several threads at once. */
typedef struct expr_tree expr_tree;

/* A compiled expression: parameters substituted, variables resolved to slots.
 * Opaque; immutable after expr_compile, so expr_eval and the printers may be
 * called from several threads at once on the same object. */
typedef struct expr expr;

/* A system parameter: NAME(args...) = body. With nargs == 0 it is used as a
 * plain name (ADDM); otherwise as a call with exactly nargs arguments
 * (MPISR(L), MPISR(2*L)). The body may use its formal arguments, the
 * environment's variables (notably P) and other parameters (no cycles).
 * All strings are the caller's and only read. */
struct expr_param {
    const char *name;
    const char *const *args;
    size_t nargs;
    const char *body;
};

/* What names mean when compiling. vars[i] is the variable read from
 * vars[i] of the array given to expr_eval. Names resolve in this order:
 * formal argument (inside a parameter body), parameter, variable. */
struct expr_env {
    const char *const *vars;
    size_t nvars;
    const struct expr_param *params;
    size_t nparams;
};

/* A parameter head "MPISR(L)" or "ADDM" split into its parts, in fixed
 * storage (no allocation). argv[i] points into args[i]. */
struct expr_param_head {
    char name[EXPR_MAX_NAME + 1];
    char args[EXPR_MAX_ARGS][EXPR_MAX_NAME + 1];
    const char *argv[EXPR_MAX_ARGS];
    size_t nargs;
};

/* A list of names, owned by the list; free with expr_names_free. */
struct expr_names {
    char **names;
    size_t n;
};

/* Parses src (NUL-terminated) into a tree. Builtin functions are checked for
 * their number of arguments here; other names are resolved at compile time.
 * Returns the tree (free with expr_tree_free) or NULL with an ERR_INVALID "expression"
 * error (field "expression") naming the column, or ERR_NOMEM on out of memory.
 * Thread-safe. */
expr_tree *expr_parse(const char *src, struct err *err);

/* Frees a tree; NULL does nothing. */
void expr_tree_free(expr_tree *t);

/* Appends the canonical text of the tree to b: no spaces, numbers in the
 * shortest form that reads back exactly, parentheses only where needed for
 * the value. Check buf_failed(b) afterwards. */
void expr_print(const expr_tree *t, struct buf *b);

/* Appends v in the shortest form that reads back exactly, without an
 * exponent for whole numbers below 1e17 (1000, 0.0608, 4.83e-08, 1e+21); a
 * non-finite value is written as "0" (never nan/inf). Thread-safe. */
void expr_print_number(struct buf *b, double v);

/* Splits a parameter head: "ADDM" (no arguments) or "MPISR(L)" / "F(L, P)"
 * (distinct argument names). Spaces are allowed around names. Returns 0, or
 * -1 with an ERR_INVALID "expression" error (field "parameters") on a malformed head
 * or a name that is a builtin function. Thread-safe. */
int expr_param_head_parse(const char *head, struct expr_param_head *out /* OUT */,
                          struct err *err);

/* Checks one parameter on its own: valid unique names, body that parses.
 * References to other parameters or variables are not checked (they depend
 * on the environment). Returns 0 or -1 with an ERR_INVALID "expression" error. */
int expr_param_validate(const struct expr_param *p, struct err *err);

/* Lists the variables a template needs given a parameter set: every name
 * that is neither a formal argument, a parameter nor a function, following
 * parameter bodies, in order of first appearance. Checks everything
 * expr_compile checks except that the variables exist. Returns 0 and fills
 * out (free with expr_names_free), or -1 with an error. Thread-safe. */
int expr_free_vars(const char *src, const struct expr_param *params, size_t nparams,
                   struct expr_names *out /* OUT */, struct err *err);

/* Marks the parameters a template uses, directly or through other
 * parameters' bodies: used[i] = 1 when params[i] is used, else 0 (used
 * holds nparams entries). Checks what expr_free_vars checks. Returns 0, or
 * -1 with an error (used is then unspecified). Thread-safe. */
int expr_used_params(const char *src, const struct expr_param *params, size_t nparams,
                     unsigned char *used /* OUT */, struct err *err);

/* Frees the names held by a list and empties it; NULL does nothing. */
void expr_names_free(struct expr_names *n);

/* Parses src and every parameter it uses (directly or through other
 * parameters), substitutes bodies with formal arguments replaced by the
 * actual argument expressions, resolves variables to env->vars indices and
 * builds the evaluation program. Errors (ERR_INVALID "expression"): syntax, unknown
 * name ("column 5: unknown name 'Q'"), unknown function, wrong number of
 * arguments (naming the parameter), a parameter cycle ("parameter cycle:
 * A -> B -> A"), a duplicate parameter or variable, and the limits above.
 * Returns the compiled expression (free with expr_free) or NULL. env may be
 * NULL for an expression of numbers only. Thread-safe. */
expr *expr_compile(const char *src, const struct expr_env *env, struct err *err);

/* Frees a compiled expression; NULL does nothing. */
void expr_free(expr *e);

/* Evaluates the program with vars[i] the value of env->vars[i] (the array
 * must have at least the compiled env's nvars entries). Returns the value;
 * division by zero, log of a negative number and the like give inf or nan
 * as IEEE arithmetic does. No allocation; thread-safe. */
double expr_eval(const expr *e, const double *vars);

/* Like expr_eval but a non-finite result is an error: returns 0 and stores
 * the value in *out, or -1 with an ERR_INVALID "expression" error
 * "evaluates to a non-finite value at N=1000, P=1, L=1024" (the variables
 * the expression uses). */
int expr_eval_checked(const expr *e, const double *vars, double *out /* OUT */,
                      struct err *err);

/* Number of variable slots the expression was compiled against, and whether
 * it reads slot i at all (after substituting parameters). */
size_t expr_nvars(const expr *e);
int expr_uses_var(const expr *e, size_t slot);

/* Appends the template with every parameter replaced by its body and formal
 * arguments replaced by the actual arguments (the paper's "parsed"
 * expression), printed as expr_print does. Check buf_failed(b) afterwards. */
void expr_print_substituted(const expr *e, struct buf *b);

enum { EXPR_POLY_OK = 0, EXPR_NOT_POLY = 1 };

/* With every variable except slot `var` fixed at vars[], and parameters
 * substituted, writes the coefficients of the expression as a polynomial in
 * variable `var`: coef[0] + coef[1]*x + ... + coef[*degree]*x^degree; coef
 * must hold EXPR_POLY_MAX_DEGREE + 1 entries, all of which are written
 * (zeros above the degree; *degree is the highest non-zero index, 0 for the
 * zero polynomial). Works on the tree: +, -, *, unary minus, ^ with a
 * non-negative integer constant exponent, division by a subexpression free of
 * x; subexpressions free of x (functions of other variables) are evaluated.
 * Returns EXPR_POLY_OK; EXPR_NOT_POLY (err untouched, nothing for the user
 * to fix) when the expression is not a polynomial of degree <= 12 in that
 * variable, e.g. it divides by x or takes log(x); or -1 with an ERR_INVALID
 * "expression" error when a coefficient is not finite (e.g. division by
 * zero at the fixed values). No allocation; thread-safe. */
int expr_poly(const expr *e, size_t var, const double *vars,
              double coef[EXPR_POLY_MAX_DEGREE + 1] /* OUT */, int *degree /* OUT */,
              struct err *err);

/* Returns the column recorded in an "expression" error message ("column N"
 * at its start), or 0 when the error has no position. */
int expr_err_column(const struct err *err);

#endif
