/* validate: catalog write bodies; see validate.h. */
#include "formats/validate.h"
#include "models/expr.h"
#include "formats/rundoc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int validate_fields(json_t *obj, const char *const *allowed, struct err *err)
{
    const char *key;
    json_t *v;
    if (!json_is_object(obj))
        return err_invalid(err, NULL, "the body must be a JSON object");
    json_object_foreach(obj, key, v)
    {
        int ok = 0;
        for (int i = 0; allowed[i]; i++)
            ok |= strcmp(key, allowed[i]) == 0;
        if (!ok)
            return err_invalid(err, key, "unknown field %s", key);
        if (strcmp(key, "cores") == 0) {
            if (!json_is_integer(v) || json_integer_value(v) < 1)
                return err_invalid(err, key, "cores must be a positive integer");
        } else if (strcmp(key, "metadata") == 0) {
            if (!json_is_object(v))
                return err_invalid(err, key, "metadata must be an object");
        } else if (!json_is_string(v) || json_string_length(v) > LIMIT_DESCRIPTION) {
            return err_invalid(err, key, "%s must be a string of at most %d bytes", key,
                               LIMIT_DESCRIPTION);
        }
    }
    return 0;
}

int validate_ident(const char *s, const char *field, struct err *err)
{
    size_t i, n = strlen(s);
    if (n == 0 || n > LIMIT_IDENT)
        return err_invalid(err, field, "%s must be a name of 1 to %d characters", field,
                           LIMIT_IDENT);
    for (i = 0; i < n; i++) {
        char c = s[i];
        int ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
                 (i > 0 && c >= '0' && c <= '9');
        if (!ok)
            return err_invalid(
                err, field,
                "%s must start with a letter or '_' and contain only letters, "
                "digits and '_'",
                field);
    }
    return 0;
}

int validate_signature(const char *sig, arena *a, const char **name, const char **args,
                       const char *field, struct err *err)
{
    const char *open = strchr(sig, '(');
    char *nm, *list, *o;
    const char *p;

    if (open == NULL) {
        if (validate_ident(sig, field, err) != 0)
            return -1;
        *name = sig;
        *args = "";
        return 0;
    }
    nm = arena_strndup(a, sig, (size_t)(open - sig));
    list = arena_alloc(a, strlen(open) + 1);
    if (nm == NULL || list == NULL)
        return err_nomem(err);
    if (validate_ident(nm, field, err) != 0)
        return -1;
    if (sig[strlen(sig) - 1] != ')')
        return err_invalid(err, field, "%s: expected ')' at the end of %s", field, sig);
    o = list;
    for (p = open + 1; *p && *p != ')'; p++) {
        const char *start;
        char argname[80];
        while (*p == ' ')
            p++;
        start = p;
        while (*p && *p != ',' && *p != ')' && *p != ' ')
            p++;
        snprintf(argname, sizeof argname, "%.*s", (int)(p - start), start);
        if (validate_ident(argname, field, err) != 0)
            return -1;
        if (o != list)
            *o++ = ',';
        memcpy(o, argname, strlen(argname));
        o += strlen(argname);
        while (*p == ' ')
            p++;
        if (*p == ')')
            break;
        if (*p != ',')
            return err_invalid(err, field, "%s: malformed argument list in %s", field,
                               sig);
    }
    *o = '\0';
    if (list[0] == '\0')
        return err_invalid(err, field, "%s: empty argument list in %s", field, sig);
    *name = nm;
    *args = list;
    return 0;
}

int validate_expression(const char *src, const char *args, const char *field,
                        struct err *err)
{
    struct err le = {0};
    expr_tree *t;
    (void)args;
    t = expr_parse(src, &le);
    if (t == NULL) {
        if (err && err->status == 0) {
            *err = le;
            snprintf(err->field, sizeof err->field, "%s", field);
        }
        return -1;
    }
    expr_tree_free(t);
    return 0;
}

static int finite_number(json_t *v, const char *field, int nonneg, double *out,
                         struct err *err)
{
    if (!json_is_number(v) || !isfinite(json_number_value(v)))
        return err_invalid(err, field, "%s must be a finite number", field);
    if (nonneg && json_number_value(v) < 0)
        return err_invalid(err, field, "%s must not be negative", field);
    *out = json_number_value(v);
    return 0;
}

/* Returns the array under key, or the body itself wrapped as one item. */
static json_t *items(json_t *body, const char *key, size_t max, struct err *err)
{
    json_t *arr;
    if (!json_is_object(body)) {
        err_invalid(err, NULL, "the body must be a JSON object");
        return NULL;
    }
    arr = json_object_get(body, key);
    if (arr == NULL) {
        arr = json_array();
        json_array_append(arr, body);
        return arr;
    }
    if (!json_is_array(arr) || json_array_size(arr) == 0) {
        err_invalid(err, key, "%s must be a non-empty array", key);
        return NULL;
    }
    if (json_array_size(arr) > max) {
        err_invalid(err, key, "more than %zu items in %s", max, key);
        return NULL;
    }
    return json_incref(arr);
}

/* A benchmark's optional text field (label, test): a string of at most max
 * bytes, one line (no control characters but tabs), copied to the arena;
 * absent is "". */
static int bench_text(json_t *b, const char *key, size_t max, arena *a, const char **out,
                      struct err *err)
{
    json_t *v = json_object_get(b, key);
    const char *s;
    *out = "";
    if (v == NULL)
        return 0;
    s = json_is_string(v) ? json_string_value(v) : NULL;
    if (s == NULL || json_string_length(v) > max || strlen(s) != json_string_length(v))
        return err_invalid(err, key, "%s must be a string of at most %zu bytes", key,
                           max);
    for (const char *c = s; *c; c++)
        if (((unsigned char)*c < 0x20 && *c != '\t') || *c == 0x7f)
            return err_invalid(err, key, "%s must be one line of text", key);
    *out = arena_strdup(a, s);
    return *out ? 0 : err_nomem(err);
}

int validate_benchmarks(json_t *body, arena *a, struct bench_record **out, size_t *n,
                        struct err *err)
{
    json_t *arr = items(body, "benchmarks", LIMIT_BENCHMARKS, err), *b;
    size_t i;
    char field[64];

    if (arr == NULL)
        return -1;
    *n = json_array_size(arr);
    *out = arena_alloc(a, *n * sizeof **out);
    if (*out == NULL) {
        json_decref(arr);
        return err_nomem(err);
    }
    json_array_foreach(arr, i, b)
    {
        struct bench_record *x = &(*out)[i];
        json_t *args = json_object_get(b, "args"), *v;
        const char *key;
        char *txt;
        snprintf(field, sizeof field, "benchmarks[%zu]", i);
        x->label = x->test = NULL;
        if (!json_is_object(b) || !json_is_string(json_object_get(b, "name"))) {
            json_decref(arr);
            return err_invalid(err, field, "%s needs a string name", field);
        }
        json_object_foreach(b, key, v)
        {
            if (strcmp(key, "name") && strcmp(key, "args") && strcmp(key, "time") &&
                strcmp(key, "stat") && strcmp(key, "label") && strcmp(key, "test")) {
                json_decref(arr);
                err_invalid(err, key, "unknown field %s", key);
                err_prefix_field(err, field);
                return -1;
            }
        }
        x->name = arena_strdup(a, json_string_value(json_object_get(b, "name")));
        if (validate_ident(x->name, "name", err) != 0 ||
            bench_text(b, "label", LIMIT_BENCH_LABEL, a, &x->label, err) != 0 ||
            bench_text(b, "test", LIMIT_BENCH_TEST, a, &x->test, err) != 0 ||
            finite_number(json_object_get(b, "time"), "time", 1, &x->time, err) != 0) {
            json_decref(arr);
            err_prefix_field(err, field);
            return -1;
        }
        if (args != NULL) {
            if (!json_is_object(args) || json_object_size(args) > LIMIT_BENCH_ARGS) {
                json_decref(arr);
                err_invalid(err, "args", "args must be an object of at most %d numbers",
                            LIMIT_BENCH_ARGS);
                err_prefix_field(err, field);
                return -1;
            }
            json_object_foreach(args, key, v)
            {
                double dummy;
                if (validate_ident(key, "args", err) != 0 ||
                    finite_number(v, "args", 0, &dummy, err) != 0) {
                    json_decref(arr);
                    err_prefix_field(err, field);
                    return -1;
                }
            }
        }
        /* no args: "{}" (a json_object() made here was never freed) */
        txt = args ? json_dumps(args,
                                JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17))
                   : NULL;
        x->args_json = arena_strdup(a, txt ? txt : "{}");
        free(txt);
        v = json_object_get(b, "stat");
        if (v != NULL && (!json_is_string(v) || json_string_length(v) > LIMIT_STAT)) {
            json_decref(arr);
            err_invalid(err, "stat", "stat must be a short string such as \"min\"");
            err_prefix_field(err, field);
            return -1;
        }
        x->stat = v ? arena_strdup(a, json_string_value(v)) : "";
    }
    json_decref(arr);
    return 0;
}

int validate_parameters(json_t *body, arena *a, struct param_record **out, size_t *n,
                        struct err *err)
{
    json_t *params, *src, *v;
    const char *key;
    size_t i = 0;
    char field[ERR_FIELD_MAX];

    if (!json_is_object(body))
        return err_invalid(err, NULL, "the body must be a JSON object");
    json_object_foreach(body, key, v)
    {
        if (strcmp(key, "parameters") && strcmp(key, "source"))
            return err_invalid(err, key, "unknown field %s", key);
    }
    params = json_object_get(body, "parameters");
    src = json_object_get(body, "source");
    if (!json_is_object(params) || json_object_size(params) == 0)
        return err_invalid(err, "parameters",
                           "parameters must be an object such as {\"MPISR(L)\": "
                           "\"0.001*(15.94+0.0608*L)\", \"ADDM\": \"4.83e-8\"}");
    if (json_object_size(params) > LIMIT_PARAMS)
        return err_invalid(err, "parameters", "more than %d parameters", LIMIT_PARAMS);
    if (src != NULL && (!json_is_string(src) || json_string_length(src) > LIMIT_NAME))
        return err_invalid(err, "source", "source must be a string of at most %d bytes",
                           LIMIT_NAME);
    *n = json_object_size(params);
    *out = arena_alloc(a, *n * sizeof **out);
    if (*out == NULL)
        return err_nomem(err);
    json_object_foreach(params, key, v)
    {
        struct param_record *p = &(*out)[i++];
        snprintf(field, sizeof field, "parameters.%s", key);
        if (validate_signature(arena_strdup(a, key), a, &p->name, &p->args, field, err) !=
            0)
            return -1;
        if (json_is_number(v)) {
            char num[40];
            if (!isfinite(json_number_value(v)))
                return err_invalid(err, field, "%s must be finite", field);
            p->expression =
                arena_strdup(a, fmt_double(num, sizeof num, json_number_value(v)));
        } else if (json_is_string(v) && json_string_length(v) > 0 &&
                   json_string_length(v) <= LIMIT_EXPR) {
            p->expression = arena_strdup(a, json_string_value(v));
        } else {
            return err_invalid(err, field,
                               "%s must be an expression string of 1 to %d bytes", field,
                               LIMIT_EXPR);
        }
        if (validate_expression(p->expression, p->args, field, err) != 0)
            return -1;
        p->source = src ? arena_strdup(a, json_string_value(src)) : "api";
    }
    return 0;
}

int validate_template(json_t *body, arena *a, const char **name, const char **application,
                      const char **kernel, const char **expression,
                      const char **description, struct err *err)
{
    static const char *const allowed[] = {"name",       "application", "kernel",
                                          "expression", "description", NULL};
    json_t *v;
    if (validate_fields(body, allowed, err) != 0)
        return -1;
#define STR(key, out, required)                                                          \
    v = json_object_get(body, key);                                                      \
    if (v == NULL && required)                                                           \
        return err_invalid(err, key, "%s is required", key);                             \
    *out = v ? arena_strdup(a, json_string_value(v)) : "";
    STR("name", name, 1)
    STR("application", application, 1)
    STR("kernel", kernel, 0)
    STR("expression", expression, 1)
    STR("description", description, 0)
#undef STR
    if (rundoc_check_name(*name, strlen(*name), "name", err) != 0 ||
        rundoc_check_name(*application, strlen(*application), "application", err) != 0 ||
        (**kernel && rundoc_check_name(*kernel, strlen(*kernel), "kernel", err) != 0))
        return -1;
    if (**expression == '\0' || strlen(*expression) > LIMIT_EXPR)
        return err_invalid(err, "expression", "expression must be 1 to %d bytes",
                           LIMIT_EXPR);
    return validate_expression(*expression, NULL, "expression", err);
}

int validate_couplings(json_t *body, arena *a, struct coupling_record **out, size_t *n,
                       struct err *err)
{
    json_t *arr = items(body, "couplings", LIMIT_COUPLINGS, err), *c;
    size_t i;
    char field[64];

    if (arr == NULL)
        return -1;
    *n = json_array_size(arr);
    *out = arena_alloc(a, *n * sizeof **out);
    if (*out == NULL) {
        json_decref(arr);
        return err_nomem(err);
    }
    json_array_foreach(arr, i, c)
    {
        struct coupling_record *x = &(*out)[i];
        json_t *k = json_object_get(c, "kernels"), *al = json_object_get(c, "alone");
        json_t *inputs = json_object_get(c, "inputs"), *np = json_object_get(c, "nprocs"),
               *v;
        const char *key;
        size_t j;
        char *txt;

        snprintf(field, sizeof field, "couplings[%zu]", i);
#define FAIL(f, ...)                                                                     \
    do {                                                                                 \
        err_invalid(err, f, __VA_ARGS__);                                                \
        if (json_object_get(body, "couplings"))                                          \
            err_prefix_field(err, field);                                                \
        json_decref(arr);                                                                \
        return -1;                                                                       \
    } while (0)
        if (!json_is_object(c))
            FAIL(NULL, "each coupling must be an object");
        json_object_foreach(c, key, v)
        {
            if (strcmp(key, "application") && strcmp(key, "system") &&
                strcmp(key, "nprocs") && strcmp(key, "inputs") &&
                strcmp(key, "kernels") && strcmp(key, "alone") && strcmp(key, "together"))
                FAIL(key, "unknown field %s", key);
        }
        v = json_object_get(c, "application");
        if (!json_is_string(v) ||
            rundoc_check_name(json_string_value(v), json_string_length(v), "application",
                              err) != 0)
            FAIL("application", "application is required");
        x->application = arena_strdup(a, json_string_value(v));
        v = json_object_get(c, "system");
        if (!json_is_string(v) ||
            rundoc_check_name(json_string_value(v), json_string_length(v), "system",
                              err) != 0)
            FAIL("system", "system is required");
        x->system = arena_strdup(a, json_string_value(v));
        if (!json_is_integer(np) || json_integer_value(np) < 1)
            FAIL("nprocs", "nprocs must be an integer of at least 1");
        x->nprocs = json_integer_value(np);
        if (inputs != NULL && !json_is_object(inputs))
            FAIL("inputs", "inputs must be an object of name: number");
        if (!json_is_array(k) || json_array_size(k) < 2 ||
            json_array_size(k) > LIMIT_CHAIN)
            FAIL("kernels", "kernels must list 2 to %d adjacent kernel names",
                 LIMIT_CHAIN);
        if (!json_is_array(al) || json_array_size(al) != json_array_size(k))
            FAIL("alone", "alone must give one time per kernel (%zu)",
                 json_array_size(k));
        for (j = 0; j < json_array_size(k); j++) {
            json_t *kn = json_array_get(k, j), *t = json_array_get(al, j);
            if (!json_is_string(kn) ||
                rundoc_check_name(json_string_value(kn), json_string_length(kn),
                                  "kernels", err) != 0)
                FAIL("kernels", "kernel names must be non-empty strings");
            if (!json_is_number(t) || !isfinite(json_number_value(t)) ||
                json_number_value(t) <= 0)
                FAIL("alone", "alone times must be positive numbers (kernel %s)",
                     json_string_value(kn));
        }
        v = json_object_get(c, "together");
        if (!json_is_number(v) || !isfinite(json_number_value(v)) ||
            json_number_value(v) <= 0)
            FAIL("together", "together must be a positive number");
        x->together = json_number_value(v);
        if (inputs) {
            json_object_foreach(inputs, key, v)
            {
                if (!json_is_number(v) || !isfinite(json_number_value(v)))
                    FAIL("inputs", "inputs.%s must be a finite number", key);
            }
        }
#undef FAIL
        txt = inputs ? json_dumps(inputs, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
        x->inputs_json = arena_strdup(a, txt ? txt : "{}");
        free(txt);
        txt = json_dumps(k, JSON_COMPACT);
        x->kernels_json = arena_strdup(a, txt ? txt : "[]");
        free(txt);
        txt = json_dumps(al, JSON_COMPACT | JSON_REAL_PRECISION(17));
        x->alone_json = arena_strdup(a, txt ? txt : "[]");
        free(txt);
    }
    json_decref(arr);
    return 0;
}
