/* expr: parser, compiler, evaluator and printers of template expressions;
 * see expr.h.
 *
 * Pipeline: text --parse--> tree (names unresolved) --expand--> tree with
 * parameter bodies substituted and variables resolved to slots --emit-->
 * postfix program. Trees live in arenas; the expanded tree shares the
 * (already expanded) actual-argument subtrees wherever a formal argument is
 * used, so it is a DAG, which every reader treats as read-only. Recursion
 * over trees is bounded by EXPR_MAX_DEPTH while parsing and EXPR_MAX_HEIGHT
 * after expansion, so no input can exhaust the stack.
 */
#include "models/expr.h"
#include "common/arena.h"
#include "common/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind {
    K_NUM,
    K_VAR,
    K_NAME,
    K_CALL,
    K_FUNC,
    K_NEG,
    K_ADD,
    K_SUB,
    K_MUL,
    K_DIV,
    K_POW
};

enum fn { F_LOG, F_LOG2, F_LOG10, F_SQRT, F_EXP, F_ABS, F_CEIL, F_FLOOR, F_MIN, F_MAX };

static const struct builtin {
    const char *name;
    int minargs, maxargs;
} builtins[] = {
    [F_LOG] = {"log", 1, 1},
    [F_LOG2] = {"log2", 1, 1},
    [F_LOG10] = {"log10", 1, 1},
    [F_SQRT] = {"sqrt", 1, 1},
    [F_EXP] = {"exp", 1, 1},
    [F_ABS] = {"abs", 1, 1},
    [F_CEIL] = {"ceil", 1, 1},
    [F_FLOOR] = {"floor", 1, 1},
    [F_MIN] = {"min", 2, EXPR_MAX_ARGS},
    [F_MAX] = {"max", 2, EXPR_MAX_ARGS},
};
#define NBUILTINS ((int)(sizeof builtins / sizeof builtins[0]))

struct node {
    unsigned char kind;
    unsigned char fn;      /* K_FUNC: enum fn */
    unsigned char nargs;   /* number of kids */
    unsigned char hasvar;  /* reads a variable (expanded trees) */
    int col;               /* 1-based column in the text it came from */
    unsigned size, height; /* nodes in the subtree (as a tree) and its height */
    size_t slot;           /* K_VAR */
    double num;            /* K_NUM */
    const char *name;      /* K_VAR, K_NAME, K_CALL */
    struct node **kid;
};

struct expr_tree {
    arena *a;
    struct node *root;
};

/* One postfix instruction. */
enum op {
    OP_NUM,
    OP_VAR,
    OP_NEG,
    OP_ADD,
    OP_SUB,
    OP_MUL,
    OP_DIV,
    OP_POW,
    OP_POWI,
    OP_FN
};

/* Integer powers up to this exponent are computed by multiplication (N^3 is
 * the common case and pow() costs several times more). */
#define POWI_MAX 16

struct insn {
    unsigned char op;
    unsigned char fn;    /* OP_FN */
    unsigned short argc; /* OP_FN */
    unsigned slot;       /* OP_VAR: variable slot; OP_POWI: the exponent */
    double num;          /* OP_NUM */
};

struct expr {
    arena *a;          /* expanded tree and variable names */
    struct node *root; /* expanded tree, for printing and polynomials */
    struct insn *prog; /* xmalloc'd */
    size_t nprog;
    size_t nvars;
    const char **vars;   /* nvars names, in the arena */
    unsigned char *used; /* nvars flags, in the arena */
};

/* ---------------------------------------------------------------- errors */

/* Records a positioned ERR_INVALID error; pname is the parameter whose body the
 * column refers to, or NULL for the template itself. */
static int pos_err(struct err *err, const char *pname, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int pos_err(struct err *err, const char *pname, int col, const char *fmt, ...)
{
    char msg[ERR_MESSAGE_MAX], field[ERR_FIELD_MAX];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (pname) {
        snprintf(field, sizeof field, "parameters.%s", pname);
        return err_set(err, ERR_INVALID, "expression", field,
                       "column %d of parameter '%s': %s", col, pname, msg);
    }
    return err_set(err, ERR_INVALID, "expression", "expression", "column %d: %s", col,
                   msg);
}

int expr_err_column(const struct err *err)
{
    const char *m;
    char *end;
    long v;

    if (err == NULL || strncmp(err->message, "column ", 7) != 0)
        return 0;
    m = err->message + 7;
    errno = 0;
    v = strtol(m, &end, 10);
    if (end == m || errno != 0 || v < 1 || v > EXPR_MAX_LEN + 1)
        return 0;
    return (int)v;
}

/* Describes the character at s for a message: 'c' or byte 0xHH. */
static const char *describe_char(char *out, size_t outsz, const char *s)
{
    unsigned char c = (unsigned char)*s;
    if (c == '\0')
        snprintf(out, outsz, "end of expression");
    else if (c >= 0x20 && c < 0x7f)
        snprintf(out, outsz, "'%c'", c);
    else
        snprintf(out, outsz, "byte 0x%02X", c);
    return out;
}

/* ---------------------------------------------------------------- names */

static int is_alpha(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int find_builtin(const char *name, size_t len)
{
    int i;
    for (i = 0; i < NBUILTINS; i++)
        if (strlen(builtins[i].name) == len && memcmp(builtins[i].name, name, len) == 0)
            return i;
    return -1;
}

/* 1 when s is a valid identifier of at most EXPR_MAX_NAME bytes. */
static int valid_name(const char *s)
{
    size_t i;
    if (s == NULL || !is_alpha((unsigned char)s[0]))
        return 0;
    for (i = 1; s[i]; i++)
        if (!is_alpha((unsigned char)s[i]) && !is_digit((unsigned char)s[i]))
            return 0;
    return i <= EXPR_MAX_NAME;
}

/* ---------------------------------------------------------------- parser */

struct parser {
    const char *src;
    size_t pos;
    int depth;
    unsigned nodes;
    arena *a;
    const char *pname; /* parameter whose body this is, or NULL */
    struct err *err;
};

static struct node *parse_sum(struct parser *p);
static struct node *parse_unary(struct parser *p);

static int col_of(const struct parser *p)
{
    return (int)p->pos + 1;
}

static char peek(struct parser *p)
{
    while (is_space((unsigned char)p->src[p->pos]))
        p->pos++;
    return p->src[p->pos];
}

static struct node *new_node(struct parser *p, int kind, int col, int nargs)
{
    struct node *n;

    if (++p->nodes > EXPR_MAX_NODES) {
        pos_err(p->err, p->pname, col, "expression has more than %d nodes",
                EXPR_MAX_NODES);
        return NULL;
    }
    n = arena_alloc(p->a, sizeof *n);
    if (n == NULL ||
        (nargs && (n->kid = arena_alloc(p->a, (size_t)nargs * sizeof *n->kid)) == NULL)) {
        err_nomem(p->err);
        return NULL;
    }
    n->kind = (unsigned char)kind;
    n->col = col;
    n->nargs = (unsigned char)nargs;
    return n;
}

/* Bounds recursion: every construct that makes the parser recurse passes here. */
static int enter(struct parser *p, int col)
{
    if (++p->depth > EXPR_MAX_DEPTH)
        return pos_err(p->err, p->pname, col, "nesting deeper than %d levels",
                       EXPR_MAX_DEPTH);
    return 0;
}

static struct node *binary(struct parser *p, int kind, int col, struct node *l,
                           struct node *r)
{
    struct node *n;
    if (l == NULL || r == NULL)
        return NULL;
    n = new_node(p, kind, col, 2);
    if (n == NULL)
        return NULL;
    n->kid[0] = l;
    n->kid[1] = r;
    return n;
}

/* number: digits [ '.' digits ] [ (e|E) [+|-] digits ], or '.' digits ... */
static struct node *parse_number(struct parser *p)
{
    const char *s = p->src;
    size_t start = p->pos, i = p->pos;
    int digits = 0;
    char *text, *end;
    double v;
    struct node *n;

    while (is_digit((unsigned char)s[i]))
        i++, digits++;
    if (s[i] == '.') {
        i++;
        while (is_digit((unsigned char)s[i]))
            i++, digits++;
    }
    if (digits == 0) {
        pos_err(p->err, p->pname, (int)start + 1, "'.' is not a number");
        return NULL;
    }
    if (s[i] == 'e' || s[i] == 'E') {
        i++;
        if (s[i] == '+' || s[i] == '-')
            i++;
        if (!is_digit((unsigned char)s[i])) {
            pos_err(p->err, p->pname, (int)i + 1, "expected digits in the exponent");
            return NULL;
        }
        while (is_digit((unsigned char)s[i]))
            i++;
    }
    text = arena_strndup(p->a, s + start, i - start);
    if (text == NULL) {
        err_nomem(p->err);
        return NULL;
    }
    errno = 0;
    v = strtod(text, &end);
    if (*end != '\0' || !isfinite(v)) {
        pos_err(p->err, p->pname, (int)start + 1, "number %s is out of range", text);
        return NULL;
    }
    n = new_node(p, K_NUM, (int)start + 1, 0);
    if (n == NULL)
        return NULL;
    n->num = v;
    p->pos = i;
    return n;
}

/* Parses '(' args ')' after a name; fills kids and the count. */
static int parse_args(struct parser *p, struct node **kids, int *nargs)
{
    struct node *k;
    char what[32];

    *nargs = 0;
    p->pos++; /* '(' */
    if (peek(p) == ')') {
        p->pos++;
        return 0;
    }
    for (;;) {
        if (*nargs == EXPR_MAX_ARGS)
            return pos_err(p->err, p->pname, col_of(p), "more than %d arguments",
                           EXPR_MAX_ARGS);
        k = parse_sum(p);
        if (k == NULL)
            return -1;
        kids[(*nargs)++] = k;
        if (peek(p) == ',') {
            p->pos++;
            continue;
        }
        if (peek(p) == ')') {
            p->pos++;
            return 0;
        }
        return pos_err(p->err, p->pname, col_of(p), "expected ',' or ')' but found %s",
                       describe_char(what, sizeof what, p->src + p->pos));
    }
}

static struct node *parse_name(struct parser *p)
{
    const char *s = p->src;
    size_t start = p->pos, len;
    int col = (int)start + 1, bi, nargs, i;
    struct node *kids[EXPR_MAX_ARGS], *n;
    char *name;

    while (is_alpha((unsigned char)s[p->pos]) || is_digit((unsigned char)s[p->pos]))
        p->pos++;
    len = p->pos - start;
    if (len > EXPR_MAX_NAME) {
        pos_err(p->err, p->pname, col, "name longer than %d bytes", EXPR_MAX_NAME);
        return NULL;
    }
    name = arena_strndup(p->a, s + start, len);
    if (name == NULL) {
        err_nomem(p->err);
        return NULL;
    }
    bi = find_builtin(name, len);
    if (peek(p) != '(') {
        if (bi >= 0) {
            pos_err(p->err, p->pname, col, "function '%s' needs an argument list", name);
            return NULL;
        }
        n = new_node(p, K_NAME, col, 0);
        if (n)
            n->name = name;
        return n;
    }
    if (enter(p, col_of(p)) != 0 || parse_args(p, kids, &nargs) != 0)
        return NULL;
    p->depth--;
    if (bi >= 0) {
        if (nargs < builtins[bi].minargs || nargs > builtins[bi].maxargs) {
            if (builtins[bi].minargs == builtins[bi].maxargs)
                pos_err(p->err, p->pname, col, "'%s' takes 1 argument, got %d", name,
                        nargs);
            else
                pos_err(p->err, p->pname, col, "'%s' takes at least %d arguments, got %d",
                        name, builtins[bi].minargs, nargs);
            return NULL;
        }
    } else if (nargs == 0) {
        pos_err(p->err, p->pname, col,
                "empty argument list of '%s' (a parameter without arguments is "
                "written without parentheses)",
                name);
        return NULL;
    }
    n = new_node(p, bi >= 0 ? K_FUNC : K_CALL, col, nargs);
    if (n == NULL)
        return NULL;
    n->fn = (unsigned char)(bi >= 0 ? bi : 0);
    n->name = name;
    for (i = 0; i < nargs; i++)
        n->kid[i] = kids[i];
    return n;
}

/* primary: number | name | name '(' args ')' | '(' sum ')' */
static struct node *parse_primary(struct parser *p)
{
    char c = peek(p), what[32];
    struct node *n;
    int col = col_of(p);

    if (is_digit((unsigned char)c) || c == '.')
        return parse_number(p);
    if (is_alpha((unsigned char)c))
        return parse_name(p);
    if (c == '(') {
        if (enter(p, col) != 0)
            return NULL;
        p->pos++;
        n = parse_sum(p);
        if (n == NULL)
            return NULL;
        if (peek(p) != ')') {
            pos_err(p->err, p->pname, col_of(p), "expected ')'");
            return NULL;
        }
        p->pos++;
        p->depth--;
        return n;
    }
    pos_err(p->err, p->pname, col, "expected a number, name or '(' but found %s",
            describe_char(what, sizeof what, p->src + p->pos));
    return NULL;
}

/* power: primary [ '^' unary ]  (right-associative through unary) */
static struct node *parse_power(struct parser *p)
{
    struct node *base = parse_primary(p), *ex;
    int col;

    if (base == NULL || peek(p) != '^')
        return base;
    col = col_of(p);
    p->pos++;
    if (enter(p, col) != 0)
        return NULL;
    ex = parse_unary(p);
    p->depth--;
    return binary(p, K_POW, col, base, ex);
}

/* unary: ('-' | '+') unary | power */
static struct node *parse_unary(struct parser *p)
{
    char c = peek(p);
    int col = col_of(p);
    struct node *k, *n;

    if (c != '-' && c != '+')
        return parse_power(p);
    p->pos++;
    if (enter(p, col) != 0)
        return NULL;
    k = parse_unary(p);
    p->depth--;
    if (k == NULL || c == '+')
        return k;
    n = new_node(p, K_NEG, col, 1);
    if (n)
        n->kid[0] = k;
    return n;
}

/* term: unary { ('*' | '/') unary } */
static struct node *parse_term(struct parser *p)
{
    struct node *n = parse_unary(p);
    char c;
    int col;

    while (n && ((c = peek(p)) == '*' || c == '/')) {
        col = col_of(p);
        p->pos++;
        n = binary(p, c == '*' ? K_MUL : K_DIV, col, n, parse_unary(p));
    }
    return n;
}

/* sum: term { ('+' | '-') term } */
static struct node *parse_sum(struct parser *p)
{
    struct node *n = parse_term(p);
    char c;
    int col;

    while (n && ((c = peek(p)) == '+' || c == '-')) {
        col = col_of(p);
        p->pos++;
        n = binary(p, c == '+' ? K_ADD : K_SUB, col, n, parse_term(p));
    }
    return n;
}

/* Parses src into arena a. */
static struct node *parse_into(arena *a, const char *src, const char *pname,
                               struct err *err)
{
    struct parser p = {0};
    struct node *root;
    size_t len;
    char what[32];

    if (src == NULL)
        return pos_err(err, pname, 1, "empty expression"), NULL;
    len = strnlen(src, EXPR_MAX_LEN + 1);
    if (len > EXPR_MAX_LEN)
        return pos_err(err, pname, EXPR_MAX_LEN + 1, "expression longer than %d bytes",
                       EXPR_MAX_LEN),
               NULL;
    p.src = src;
    p.a = a;
    p.pname = pname;
    p.err = err;
    if (peek(&p) == '\0')
        return pos_err(err, pname, col_of(&p), "empty expression"), NULL;
    root = parse_sum(&p);
    if (root == NULL)
        return NULL;
    if (peek(&p) != '\0')
        return pos_err(err, pname, col_of(&p), "unexpected %s",
                       describe_char(what, sizeof what, p.src + p.pos)),
               NULL;
    return root;
}

expr_tree *expr_parse(const char *src, struct err *err)
{
    expr_tree *t = xcalloc(1, sizeof *t);

    if (t == NULL || (t->a = arena_new()) == NULL) {
        xfree(t);
        err_nomem(err);
        return NULL;
    }
    t->root = parse_into(t->a, src, NULL, err);
    if (t->root == NULL) {
        expr_tree_free(t);
        return NULL;
    }
    return t;
}

void expr_tree_free(expr_tree *t)
{
    if (t == NULL)
        return;
    arena_free(t->a);
    xfree(t);
}

/* ------------------------------------------------------------ evaluation */

static double apply_fn(int fn, const double *v, int n)
{
    double r;
    int i;

    switch (fn) {
    case F_LOG:
        return log(v[0]);
    case F_LOG2:
        return log2(v[0]);
    case F_LOG10:
        return log10(v[0]);
    case F_SQRT:
        return sqrt(v[0]);
    case F_EXP:
        return exp(v[0]);
    case F_ABS:
        return fabs(v[0]);
    case F_CEIL:
        return ceil(v[0]);
    case F_FLOOR:
        return floor(v[0]);
    default:
        /* min/max propagate NaN (fmin/fmax would hide it). */
        r = v[0];
        for (i = 1; i < n; i++) {
            if (isnan(v[i]) || isnan(r))
                r = NAN;
            else if (fn == F_MIN ? v[i] < r : v[i] > r)
                r = v[i];
        }
        return r;
    }
}

static double apply_bin(int kind, double a, double b)
{
    switch (kind) {
    case K_ADD:
        return a + b;
    case K_SUB:
        return a - b;
    case K_MUL:
        return a * b;
    case K_DIV:
        return a / b;
    default:
        return pow(a, b);
    }
}

/* Evaluates an expanded tree (used to fold constants). */
static double tree_eval(const struct node *n, const double *vars)
{
    double v[EXPR_MAX_ARGS];
    int i;

    switch (n->kind) {
    case K_NUM:
        return n->num;
    case K_VAR:
        return vars ? vars[n->slot] : NAN;
    case K_NEG:
        return -tree_eval(n->kid[0], vars);
    case K_FUNC:
        for (i = 0; i < n->nargs; i++)
            v[i] = tree_eval(n->kid[i], vars);
        return apply_fn(n->fn, v, n->nargs);
    default:
        return apply_bin(n->kind, tree_eval(n->kid[0], vars), tree_eval(n->kid[1], vars));
    }
}

/* x^k for 0 <= k <= POWI_MAX by binary exponentiation. */
static double powi(double x, unsigned k)
{
    double r = 1;
    while (k) {
        if (k & 1)
            r *= x;
        x *= x;
        k >>= 1;
    }
    return r;
}

double expr_eval(const expr *e, const double *vars)
{
    double st[EXPR_MAX_STACK];
    size_t sp = 0, i;
    const struct insn *in;

    for (i = 0; i < e->nprog; i++) {
        in = &e->prog[i];
        switch (in->op) {
        case OP_NUM:
            st[sp++] = in->num;
            break;
        case OP_VAR:
            st[sp++] = vars[in->slot];
            break;
        case OP_NEG:
            st[sp - 1] = -st[sp - 1];
            break;
        case OP_ADD:
            sp--;
            st[sp - 1] += st[sp];
            break;
        case OP_SUB:
            sp--;
            st[sp - 1] -= st[sp];
            break;
        case OP_MUL:
            sp--;
            st[sp - 1] *= st[sp];
            break;
        case OP_DIV:
            sp--;
            st[sp - 1] /= st[sp];
            break;
        case OP_POW:
            sp--;
            st[sp - 1] = pow(st[sp - 1], st[sp]);
            break;
        case OP_POWI:
            st[sp - 1] = powi(st[sp - 1], in->slot);
            break;
        default:
            sp -= (size_t)in->argc - 1;
            st[sp - 1] = apply_fn(in->fn, &st[sp - 1], in->argc);
            break;
        }
    }
    return st[0];
}

int expr_eval_checked(const expr *e, const double *vars, double *out, struct err *err)
{
    struct buf b;
    size_t i;
    int first = 1;
    double v = expr_eval(e, vars);

    *out = v;
    if (isfinite(v))
        return 0;
    buf_init(&b, ERR_MESSAGE_MAX - 1);
    for (i = 0; i < e->nvars; i++) {
        if (!e->used[i])
            continue;
        if (b.len > ERR_MESSAGE_MAX - 80) {
            buf_puts(&b, ", ...");
            break;
        }
        buf_puts(&b, first ? " at " : ", ");
        buf_puts(&b, e->vars[i]);
        buf_putc(&b, '=');
        expr_print_number(&b, vars[i]);
        first = 0;
    }
    err_set(err, ERR_INVALID, "expression", "expression",
            "evaluates to a non-finite value%s", buf_failed(&b) ? "" : buf_str(&b));
    buf_free(&b);
    return -1;
}

size_t expr_nvars(const expr *e)
{
    return e->nvars;
}

int expr_uses_var(const expr *e, size_t slot)
{
    return slot < e->nvars && e->used[slot];
}

/* ------------------------------------------------------------- expansion */

/* What the names inside one parameter body (or the template) mean. */
struct scope {
    const struct expr_param *param; /* NULL for the template */
    struct node **actuals;          /* param->nargs expanded arguments */
};

struct build {
    const struct expr_env *env;
    arena *a;
    struct err *err;
    struct node **bodies;  /* nparams lazily parsed bodies */
    unsigned char *active; /* nparams: being expanded (cycle check) */
    size_t *chain;         /* the parameters being expanded, outermost first */
    size_t nchain;
    size_t allocated; /* nodes created, bounded by EXPR_MAX_PROGRAM */
    int collect;      /* expr_free_vars: unknown names become variables */
    struct expr_names *names;
    unsigned char used[EXPR_MAX_VARS];
};

static const char *scope_name(const struct scope *s)
{
    return s->param ? s->param->name : NULL;
}

/* Creates an expanded node from kids, computing size, height and hasvar. */
static struct node *mk(struct build *b, const struct scope *s, int kind, int col,
                       int nargs, struct node *const *kids)
{
    struct node *n;
    unsigned long size = 1, height = 0;
    int i, hasvar = kind == K_VAR;

    for (i = 0; i < nargs; i++) {
        size += kids[i]->size;
        if (kids[i]->height > height)
            height = kids[i]->height;
        hasvar |= kids[i]->hasvar;
    }
    height++;
    if (size > EXPR_MAX_PROGRAM || ++b->allocated > EXPR_MAX_PROGRAM) {
        pos_err(b->err, scope_name(s), col,
                "more than %d nodes after substituting parameters", EXPR_MAX_PROGRAM);
        return NULL;
    }
    if (height > EXPR_MAX_HEIGHT) {
        pos_err(b->err, scope_name(s), col,
                "nested deeper than %d levels after substituting parameters",
                EXPR_MAX_HEIGHT);
        return NULL;
    }
    n = arena_alloc(b->a, sizeof *n);
    if (n == NULL ||
        (nargs && (n->kid = arena_alloc(b->a, (size_t)nargs * sizeof *n->kid)) == NULL)) {
        err_nomem(b->err);
        return NULL;
    }
    n->kind = (unsigned char)kind;
    n->col = col;
    n->nargs = (unsigned char)nargs;
    n->size = (unsigned)size;
    n->height = (unsigned)height;
    n->hasvar = (unsigned char)hasvar;
    for (i = 0; i < nargs; i++)
        n->kid[i] = kids[i];
    return n;
}

static long find_param(const struct expr_env *env, const char *name)
{
    size_t i;
    for (i = 0; env && i < env->nparams; i++)
        if (strcmp(env->params[i].name, name) == 0)
            return (long)i;
    return -1;
}

/* Returns the slot of variable `name`, -1 if unknown, -2 on error (collect mode). */
static long find_var(struct build *b, const struct scope *s, const struct node *at)
{
    size_t i;
    char *copy, **grown;
    struct expr_names *nm = b->names;

    if (!b->collect) {
        for (i = 0; b->env && i < b->env->nvars; i++)
            if (strcmp(b->env->vars[i], at->name) == 0)
                return (long)i;
        return -1;
    }
    for (i = 0; i < nm->n; i++)
        if (strcmp(nm->names[i], at->name) == 0)
            return (long)i;
    if (nm->n == EXPR_MAX_VARS) {
        pos_err(b->err, scope_name(s), at->col, "more than %d variables", EXPR_MAX_VARS);
        return -2;
    }
    grown = xrealloc(nm->names, (nm->n + 1) * sizeof *grown);
    if (grown == NULL) {
        err_nomem(b->err);
        return -2;
    }
    nm->names = grown;
    copy = xstrdup(at->name);
    if (copy == NULL) {
        err_nomem(b->err);
        return -2;
    }
    nm->names[nm->n] = copy;
    return (long)nm->n++;
}

static struct node *expand(struct build *b, const struct node *n, const struct scope *s);

/* Expands parameter pi at a use (plain name or call) with expanded actuals. */
static struct node *expand_param(struct build *b, size_t pi, struct node **actuals,
                                 const struct scope *s, int col)
{
    const struct expr_param *prm = &b->env->params[pi];
    struct scope inner = {prm, actuals};
    struct node *r;
    char chain[ERR_MESSAGE_MAX];
    size_t i, len = 0;

    if (b->active[pi]) {
        chain[0] = '\0';
        for (i = 0; i < b->nchain && len < sizeof chain; i++)
            len += (size_t)snprintf(chain + len, sizeof chain - len, "%s -> ",
                                    b->env->params[b->chain[i]].name);
        if (len < sizeof chain)
            snprintf(chain + len, sizeof chain - len, "%s", prm->name);
        pos_err(b->err, scope_name(s), col, "parameter cycle: %s", chain);
        return NULL;
    }
    if (b->bodies[pi] == NULL) {
        b->bodies[pi] = parse_into(b->a, prm->body, prm->name, b->err);
        if (b->bodies[pi] == NULL)
            return NULL;
    }
    b->active[pi] = 1;
    b->chain[b->nchain++] = pi;
    r = expand(b, b->bodies[pi], &inner);
    b->nchain--;
    b->active[pi] = 0;
    return r;
}

static struct node *expand(struct build *b, const struct node *n, const struct scope *s)
{
    struct node *kids[EXPR_MAX_ARGS], *r;
    long pi, slot;
    size_t i;
    int k;
    const char *pn = scope_name(s);

    switch (n->kind) {
    case K_NUM:
        r = mk(b, s, K_NUM, n->col, 0, NULL);
        if (r)
            r->num = n->num;
        return r;
    case K_NAME:
        if (s->param) {
            for (i = 0; i < s->param->nargs; i++)
                if (strcmp(s->param->args[i], n->name) == 0)
                    return s->actuals[i]; /* shared: the DAG is read-only */
        }
        pi = find_param(b->env, n->name);
        if (pi >= 0) {
            if (b->env->params[pi].nargs != 0)
                return pos_err(b->err, pn, n->col,
                               "parameter '%s' takes %zu argument%s; write %s(...)",
                               n->name, b->env->params[pi].nargs,
                               b->env->params[pi].nargs == 1 ? "" : "s", n->name),
                       NULL;
            return expand_param(b, (size_t)pi, NULL, s, n->col);
        }
        slot = find_var(b, s, n);
        if (slot == -2)
            return NULL;
        if (slot < 0)
            return pos_err(b->err, pn, n->col, "unknown name '%s'", n->name), NULL;
        r = mk(b, s, K_VAR, n->col, 0, NULL);
        if (r) {
            /* Printing reads the compiled expression's own copy of the
             * names, never this pointer into the caller's environment. */
            r->slot = (size_t)slot;
            r->name = b->collect ? b->names->names[slot] : b->env->vars[slot];
            b->used[slot] = 1;
        }
        return r;
    case K_CALL:
        pi = find_param(b->env, n->name);
        if (pi < 0)
            return pos_err(b->err, pn, n->col, "unknown function '%s'", n->name), NULL;
        if (b->env->params[pi].nargs != n->nargs)
            return pos_err(b->err, pn, n->col,
                           "parameter '%s' takes %zu argument%s, got %d", n->name,
                           b->env->params[pi].nargs,
                           b->env->params[pi].nargs == 1 ? "" : "s", n->nargs),
                   NULL;
        for (k = 0; k < n->nargs; k++)
            if ((kids[k] = expand(b, n->kid[k], s)) == NULL)
                return NULL;
        {
            struct node **actuals = arena_alloc(b->a, (size_t)n->nargs * sizeof *actuals);
            if (actuals == NULL)
                return err_nomem(b->err), NULL;
            memcpy(actuals, kids, (size_t)n->nargs * sizeof *actuals);
            return expand_param(b, (size_t)pi, actuals, s, n->col);
        }
    default:
        for (k = 0; k < n->nargs; k++)
            if ((kids[k] = expand(b, n->kid[k], s)) == NULL)
                return NULL;
        r = mk(b, s, n->kind, n->col, n->nargs, kids);
        if (r) {
            r->fn = n->fn;
            r->name = n->name;
        }
        return r;
    }
}

/* Checks names and limits of an environment before anything uses it. */
static int check_env(const struct expr_env *env, int collect, struct err *err)
{
    size_t i, j;

    if (env == NULL)
        return 0;
    if (!collect) {
        if (env->nvars > EXPR_MAX_VARS)
            return err_set(err, ERR_INVALID, "expression", "vars",
                           "more than %d variables", EXPR_MAX_VARS);
        for (i = 0; i < env->nvars; i++) {
            const char *v = env->vars[i];
            if (!valid_name(v) || find_builtin(v, strlen(v)) >= 0)
                return err_set(err, ERR_INVALID, "expression", "vars",
                               "variable name '%.64s' is not a valid name", v ? v : "");
            for (j = 0; j < i; j++)
                if (strcmp(env->vars[j], v) == 0)
                    return err_set(err, ERR_INVALID, "expression", "vars",
                                   "variable '%s' given twice", v);
            if (find_param(env, v) >= 0)
                return err_set(err, ERR_INVALID, "expression", "vars",
                               "'%s' is both a variable and a system parameter", v);
        }
    }
    if (env->nparams > EXPR_MAX_PARAMS)
        return err_set(err, ERR_INVALID, "expression", "parameters",
                       "more than %d parameters", EXPR_MAX_PARAMS);
    for (i = 0; i < env->nparams; i++) {
        const struct expr_param *p = &env->params[i];
        if (!valid_name(p->name) || find_builtin(p->name, strlen(p->name)) >= 0)
            return err_set(err, ERR_INVALID, "expression", "parameters",
                           "parameter name '%.64s' is not a valid name",
                           p->name ? p->name : "");
        if (p->nargs > EXPR_MAX_ARGS)
            return err_set(err, ERR_INVALID, "expression", "parameters",
                           "parameter '%s' has more than %d arguments", p->name,
                           EXPR_MAX_ARGS);
        for (j = 0; j < p->nargs; j++) {
            size_t k;
            const char *a = p->args[j];
            if (!valid_name(a) || find_builtin(a, strlen(a)) >= 0)
                return err_set(err, ERR_INVALID, "expression", "parameters",
                               "argument '%.64s' of parameter '%s' is not a valid name",
                               a ? a : "", p->name);
            for (k = 0; k < j; k++)
                if (strcmp(p->args[k], a) == 0)
                    return err_set(err, ERR_INVALID, "expression", "parameters",
                                   "argument '%s' of parameter '%s' given twice", a,
                                   p->name);
        }
        for (j = 0; j < i; j++)
            if (strcmp(env->params[j].name, p->name) == 0)
                return err_set(err, ERR_INVALID, "expression", "parameters",
                               "parameter '%s' defined twice", p->name);
    }
    return 0;
}

/* Parses and expands src in arena a. Returns the expanded root or NULL. */
static struct node *build_tree(arena *a, const char *src, const struct expr_env *env,
                               int collect, struct expr_names *names,
                               unsigned char used[EXPR_MAX_VARS], unsigned char *pused,
                               struct err *err)
{
    struct build b = {0};
    struct scope top = {NULL, NULL};
    struct node *tree, *root = NULL;
    size_t np = env ? env->nparams : 0;

    if (check_env(env, collect, err) != 0)
        return NULL;
    tree = parse_into(a, src, NULL, err);
    if (tree == NULL)
        return NULL;
    b.env = env;
    b.a = a;
    b.err = err;
    b.collect = collect;
    b.names = names;
    b.bodies = arena_alloc(a, (np ? np : 1) * sizeof *b.bodies);
    b.active = arena_alloc(a, np ? np : 1);
    b.chain = arena_alloc(a, (np ? np : 1) * sizeof *b.chain);
    if (b.bodies == NULL || b.active == NULL || b.chain == NULL)
        return err_nomem(err), NULL;
    root = expand(&b, tree, &top);
    if (root && used)
        memcpy(used, b.used, sizeof b.used);
    /* A body is parsed the first time its parameter is expanded, so the
     * parsed bodies are exactly the parameters the template uses. */
    for (size_t i = 0; root && pused && i < np; i++)
        pused[i] = b.bodies[i] != NULL;
    return root;
}

/* The collect-mode pass behind expr_free_vars and expr_used_params. */
static int collect(const char *src, const struct expr_param *params, size_t nparams,
                   struct expr_names *out, unsigned char *pused, struct err *err)
{
    struct expr_env env = {NULL, 0, params, nparams};
    arena *a = arena_new();
    struct node *root;

    out->names = NULL;
    out->n = 0;
    if (a == NULL)
        return err_nomem(err);
    root = build_tree(a, src, &env, 1, out, NULL, pused, err);
    arena_free(a);
    if (root == NULL) {
        expr_names_free(out);
        return -1;
    }
    return 0;
}

int expr_free_vars(const char *src, const struct expr_param *params, size_t nparams,
                   struct expr_names *out, struct err *err)
{
    return collect(src, params, nparams, out, NULL, err);
}

int expr_used_params(const char *src, const struct expr_param *params, size_t nparams,
                     unsigned char *used, struct err *err)
{
    struct expr_names names;
    int rc;

    if (nparams)
        memset(used, 0, nparams);
    rc = collect(src, params, nparams, &names, used, err);
    expr_names_free(&names);
    return rc;
}

void expr_names_free(struct expr_names *n)
{
    size_t i;
    if (n == NULL)
        return;
    for (i = 0; i < n->n; i++)
        xfree(n->names[i]);
    xfree(n->names);
    n->names = NULL;
    n->n = 0;
}

/* --------------------------------------------------------------- program */

struct emitter {
    struct insn *prog;
    size_t n, sp, maxsp;
};

/* Emits postfix code; subtrees that read no variable are folded to one number. */
static void emit(struct emitter *em, const struct node *n)
{
    struct insn *in;
    int k;

    if (!n->hasvar || n->kind == K_VAR) {
        in = &em->prog[em->n++];
        memset(in, 0, sizeof *in);
        if (n->kind == K_VAR) {
            in->op = OP_VAR;
            in->slot = (unsigned)n->slot;
        } else {
            in->op = OP_NUM;
            in->num = n->kind == K_NUM ? n->num : tree_eval(n, NULL);
        }
        if (++em->sp > em->maxsp)
            em->maxsp = em->sp;
        return;
    }
    if (n->kind == K_POW && !n->kid[1]->hasvar) {
        double ex = tree_eval(n->kid[1], NULL);
        if (ex >= 0 && ex <= POWI_MAX && ex == floor(ex)) {
            emit(em, n->kid[0]);
            in = &em->prog[em->n++];
            memset(in, 0, sizeof *in);
            in->op = OP_POWI;
            in->slot = (unsigned)ex;
            return;
        }
    }
    for (k = 0; k < n->nargs; k++)
        emit(em, n->kid[k]);
    in = &em->prog[em->n++];
    memset(in, 0, sizeof *in);
    switch (n->kind) {
    case K_NEG:
        in->op = OP_NEG;
        return;
    case K_FUNC:
        in->op = OP_FN;
        in->fn = n->fn;
        in->argc = n->nargs;
        em->sp -= (size_t)n->nargs - 1;
        return;
    case K_ADD:
        in->op = OP_ADD;
        break;
    case K_SUB:
        in->op = OP_SUB;
        break;
    case K_MUL:
        in->op = OP_MUL;
        break;
    case K_DIV:
        in->op = OP_DIV;
        break;
    default:
        in->op = OP_POW;
        break;
    }
    em->sp--;
}

expr *expr_compile(const char *src, const struct expr_env *env, struct err *err)
{
    expr *e = xcalloc(1, sizeof *e);
    unsigned char used[EXPR_MAX_VARS] = {0};
    struct emitter em = {0};
    size_t i;

    if (e == NULL || (e->a = arena_new()) == NULL) {
        xfree(e);
        err_nomem(err);
        return NULL;
    }
    e->root = build_tree(e->a, src, env, 0, NULL, used, NULL, err);
    if (e->root == NULL)
        goto fail;
    e->nvars = env ? env->nvars : 0;
    e->vars = arena_alloc(e->a, (e->nvars ? e->nvars : 1) * sizeof *e->vars);
    e->used = arena_alloc(e->a, e->nvars ? e->nvars : 1);
    em.prog = xmalloc(e->root->size * sizeof *em.prog);
    if (e->vars == NULL || e->used == NULL || em.prog == NULL) {
        err_nomem(err);
        goto fail;
    }
    for (i = 0; i < e->nvars; i++) {
        e->vars[i] = arena_strdup(e->a, env->vars[i]);
        if (e->vars[i] == NULL) {
            err_nomem(err);
            goto fail;
        }
        e->used[i] = used[i];
    }
    emit(&em, e->root);
    e->prog = em.prog;
    e->nprog = em.n;
    em.prog = NULL;
    if (em.maxsp > EXPR_MAX_STACK) {
        err_set(err, ERR_INVALID, "expression", "expression",
                "expression needs more than %d evaluation stack entries; use fewer "
                "nested right-hand operands",
                EXPR_MAX_STACK);
        goto fail;
    }
    return e;
fail:
    xfree(em.prog);
    expr_free(e);
    return NULL;
}

void expr_free(expr *e)
{
    if (e == NULL)
        return;
    xfree(e->prog);
    arena_free(e->a);
    xfree(e);
}

/* -------------------------------------------------------------- printing */

enum { PREC_ADD = 1, PREC_MUL = 2, PREC_NEG = 3, PREC_POW = 4, PREC_ATOM = 5 };

static int prec(const struct node *n)
{
    switch (n->kind) {
    case K_ADD:
    case K_SUB:
        return PREC_ADD;
    case K_MUL:
    case K_DIV:
        return PREC_MUL;
    case K_NEG:
        return PREC_NEG;
    case K_POW:
        return PREC_POW;
    default:
        return PREC_ATOM;
    }
}

static void print_node(struct buf *b, const struct node *n, const char *const *vars);

static void print_wrapped(struct buf *b, const struct node *n, const char *const *vars,
                          int paren)
{
    if (paren)
        buf_putc(b, '(');
    print_node(b, n, vars);
    if (paren)
        buf_putc(b, ')');
}

void expr_print_number(struct buf *b, double v)
{
    char tmp[64], *e;
    int prec, ex;

    if (!isfinite(v)) {
        buf_putc(b, '0');
        return;
    }
    /* Shortest precision that reads back exactly ... */
    for (prec = 1; prec < 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, v);
        if (strtod(tmp, NULL) == v)
            break;
    }
    /* ... but whole numbers below 1e17 without an exponent: 1000, not 1e+03. */
    snprintf(tmp, sizeof tmp, "%.*e", prec - 1, v);
    e = strchr(tmp, 'e');
    ex = e ? (int)strtol(e + 1, NULL, 10) : 0;
    if (ex >= prec && ex < 17)
        prec = ex + 1;
    buf_printf(b, "%.*g", prec, v);
}

/* Parentheses only where the value needs them: + and * are associative, so
 * their right operand needs none at the same level (a*(b*c) prints a*b*c);
 * - and / need them for a right operand at the same level; ^ is
 * right-associative and binds tighter than unary minus. A negation as the
 * right operand of + - * / is parenthesized for readability (a*(-b)). */
static void print_node(struct buf *b, const struct node *n, const char *const *vars)
{
    int k, p, lp, rp;
    static const char opchar[] = {
        [K_ADD] = '+', [K_SUB] = '-', [K_MUL] = '*', [K_DIV] = '/', [K_POW] = '^'};

    if (buf_failed(b))
        return;
    switch (n->kind) {
    case K_NUM:
        expr_print_number(b, n->num);
        return;
    case K_VAR:
        buf_puts(b, vars ? vars[n->slot] : n->name);
        return;
    case K_NAME:
        buf_puts(b, n->name);
        return;
    case K_CALL:
    case K_FUNC:
        buf_puts(b, n->kind == K_FUNC ? builtins[n->fn].name : n->name);
        buf_putc(b, '(');
        for (k = 0; k < n->nargs; k++) {
            if (k)
                buf_putc(b, ',');
            print_node(b, n->kid[k], vars);
        }
        buf_putc(b, ')');
        return;
    case K_NEG:
        buf_putc(b, '-');
        print_wrapped(b, n->kid[0], vars, prec(n->kid[0]) < PREC_NEG);
        return;
    default:
        break;
    }
    p = prec(n);
    lp = prec(n->kid[0]);
    rp = prec(n->kid[1]);
    if (n->kind == K_POW) {
        print_wrapped(b, n->kid[0], vars, lp <= PREC_POW);
        buf_putc(b, '^');
        print_wrapped(b, n->kid[1], vars, rp < PREC_NEG);
        return;
    }
    print_wrapped(b, n->kid[0], vars, lp < p);
    buf_putc(b, opchar[n->kind]);
    if (n->kind == K_ADD || n->kind == K_MUL)
        print_wrapped(b, n->kid[1], vars, rp < p || rp == PREC_NEG);
    else
        print_wrapped(b, n->kid[1], vars, rp <= p || rp == PREC_NEG);
}

void expr_print(const expr_tree *t, struct buf *b)
{
    print_node(b, t->root, NULL);
}

void expr_print_substituted(const expr *e, struct buf *b)
{
    print_node(b, e->root, e->vars);
}

/* ----------------------------------------------------------- polynomials */

#define PMAX (EXPR_POLY_MAX_DEGREE + 1)

/* Highest index with a non-zero coefficient (0 for the zero polynomial). */
static int poly_degree(const double *c)
{
    int d;
    for (d = PMAX - 1; d > 0; d--)
        if (c[d] != 0)
            return d;
    return 0;
}

/* out = a * b; returns EXPR_NOT_POLY when the degree would exceed the maximum. */
static int poly_mul(const double *a, const double *b, double *out)
{
    double r[PMAX] = {0};
    int da = poly_degree(a), db = poly_degree(b), i, j;

    if (da + db > EXPR_POLY_MAX_DEGREE)
        return EXPR_NOT_POLY;
    for (i = 0; i <= da; i++)
        for (j = 0; j <= db; j++)
            r[i + j] += a[i] * b[j];
    memcpy(out, r, sizeof r);
    return EXPR_POLY_OK;
}

static int poly(const struct node *n, size_t x, const double *vars, double *out)
{
    double a[PMAX], c[PMAX], v[EXPR_MAX_ARGS];
    int k, i, rc;
    double ex;

    memset(out, 0, PMAX * sizeof *out);
    switch (n->kind) {
    case K_NUM:
        out[0] = n->num;
        return EXPR_POLY_OK;
    case K_VAR:
        if (n->slot == x)
            out[1] = 1;
        else
            out[0] = vars[n->slot];
        return EXPR_POLY_OK;
    case K_NEG:
        if ((rc = poly(n->kid[0], x, vars, a)) != EXPR_POLY_OK)
            return rc;
        for (i = 0; i < PMAX; i++)
            out[i] = -a[i];
        return EXPR_POLY_OK;
    case K_FUNC:
        /* A function of x is not a polynomial; of anything else, a constant. */
        for (k = 0; k < n->nargs; k++) {
            if ((rc = poly(n->kid[k], x, vars, a)) != EXPR_POLY_OK)
                return rc;
            if (poly_degree(a) > 0)
                return EXPR_NOT_POLY;
            v[k] = a[0];
        }
        out[0] = apply_fn(n->fn, v, n->nargs);
        return EXPR_POLY_OK;
    default:
        break;
    }
    if ((rc = poly(n->kid[0], x, vars, a)) != EXPR_POLY_OK ||
        (rc = poly(n->kid[1], x, vars, c)) != EXPR_POLY_OK)
        return rc;
    switch (n->kind) {
    case K_ADD:
    case K_SUB:
        for (i = 0; i < PMAX; i++)
            out[i] = n->kind == K_ADD ? a[i] + c[i] : a[i] - c[i];
        return EXPR_POLY_OK;
    case K_MUL:
        return poly_mul(a, c, out);
    case K_DIV:
        if (poly_degree(c) > 0)
            return EXPR_NOT_POLY;
        for (i = 0; i < PMAX; i++)
            out[i] = a[i] / c[0];
        return EXPR_POLY_OK;
    default: /* K_POW */
        if (poly_degree(c) > 0)
            return EXPR_NOT_POLY;
        ex = c[0];
        if (poly_degree(a) == 0) {
            out[0] = pow(a[0], ex);
            return EXPR_POLY_OK;
        }
        if (!(ex >= 0 && ex <= EXPR_POLY_MAX_DEGREE && ex == floor(ex)))
            return EXPR_NOT_POLY;
        out[0] = 1;
        for (i = 0; i < (int)ex; i++)
            if (poly_mul(out, a, out) != EXPR_POLY_OK)
                return EXPR_NOT_POLY;
        return EXPR_POLY_OK;
    }
}

int expr_poly(const expr *e, size_t var, const double *vars,
              double coef[EXPR_POLY_MAX_DEGREE + 1], int *degree, struct err *err)
{
    int rc, i;

    *degree = 0;
    if (var >= e->nvars) {
        memset(coef, 0, PMAX * sizeof *coef);
        return EXPR_NOT_POLY;
    }
    rc = poly(e->root, var, vars, coef);
    if (rc != EXPR_POLY_OK) {
        memset(coef, 0, PMAX * sizeof *coef);
        return rc;
    }
    for (i = 0; i < PMAX; i++)
        if (!isfinite(coef[i]))
            return err_set(err, ERR_INVALID, "expression", "expression",
                           "the coefficient of %s^%d is not finite (division by zero?)",
                           e->vars[var], i);
    *degree = poly_degree(coef);
    return EXPR_POLY_OK;
}

/* --------------------------------------------------------- parameter heads */

int expr_param_head_parse(const char *head, struct expr_param_head *out, struct err *err)
{
    size_t i = 0, start, len;
    char what[32];

    memset(out, 0, sizeof *out);
    if (head == NULL)
        head = "";
    while (is_space((unsigned char)head[i]))
        i++;
    for (;;) {
        char *dst = out->nargs == 0 && out->name[0] == '\0' ? out->name : NULL;
        start = i;
        if (!is_alpha((unsigned char)head[i]))
            return err_set(
                err, ERR_INVALID, "expression", "parameters",
                "column %zu: expected a name in parameter '%.64s' but found %s", i + 1,
                head, describe_char(what, sizeof what, head + i));
        while (is_alpha((unsigned char)head[i]) || is_digit((unsigned char)head[i]))
            i++;
        len = i - start;
        if (len > EXPR_MAX_NAME)
            return err_set(err, ERR_INVALID, "expression", "parameters",
                           "column %zu: name longer than %d bytes", start + 1,
                           EXPR_MAX_NAME);
        if (find_builtin(head + start, len) >= 0)
            return err_set(err, ERR_INVALID, "expression", "parameters",
                           "column %zu: '%.*s' is a function name", start + 1, (int)len,
                           head + start);
        if (dst == NULL) {
            size_t k;
            if (out->nargs == EXPR_MAX_ARGS)
                return err_set(err, ERR_INVALID, "expression", "parameters",
                               "column %zu: more than %d arguments", start + 1,
                               EXPR_MAX_ARGS);
            dst = out->args[out->nargs];
            for (k = 0; k < out->nargs; k++)
                if (strlen(out->args[k]) == len &&
                    memcmp(out->args[k], head + start, len) == 0)
                    return err_set(err, ERR_INVALID, "expression", "parameters",
                                   "column %zu: argument '%.*s' given twice", start + 1,
                                   (int)len, head + start);
            out->argv[out->nargs] = dst;
            out->nargs++;
        }
        memcpy(dst, head + start, len);
        dst[len] = '\0';
        while (is_space((unsigned char)head[i]))
            i++;
        if (dst == out->name) {
            if (head[i] == '\0')
                return 0;
            if (head[i] != '(')
                return err_set(err, ERR_INVALID, "expression", "parameters",
                               "column %zu: expected '(' or end but found %s", i + 1,
                               describe_char(what, sizeof what, head + i));
        } else if (head[i] == ')') {
            i++;
            while (is_space((unsigned char)head[i]))
                i++;
            if (head[i] != '\0')
                return err_set(err, ERR_INVALID, "expression", "parameters",
                               "column %zu: unexpected %s after ')'", i + 1,
                               describe_char(what, sizeof what, head + i));
            return 0;
        } else if (head[i] != ',') {
            return err_set(err, ERR_INVALID, "expression", "parameters",
                           "column %zu: expected ',' or ')' but found %s", i + 1,
                           describe_char(what, sizeof what, head + i));
        }
        i++;
        while (is_space((unsigned char)head[i]))
            i++;
    }
}

int expr_param_validate(const struct expr_param *p, struct err *err)
{
    struct expr_env env = {NULL, 0, p, 1};
    arena *a;
    struct node *root;

    if (check_env(&env, 1, err) != 0)
        return -1;
    a = arena_new();
    if (a == NULL)
        return err_nomem(err);
    root = parse_into(a, p->body, p->name, err);
    arena_free(a);
    return root ? 0 : -1;
}
