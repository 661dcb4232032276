/* couple_build: the coupling method's request, decoded (core/ internal).
 *
 * core/couple_request.c reads a request in either form (inline kernels and
 * measurements, or a database selection through db/select.h) into a
 * struct build; core/method_couple.c fits each kernel and writes the answer.
 * For these two files only.
 */
#ifndef PROPHECY_CORE_COUPLE_BUILD_H
#define PROPHECY_CORE_COUPLE_BUILD_H

#include <jansson.h>

#include "common/arena.h"
#include "common/err.h"
#include "db/db.h"
#include "formats/limits.h"
#include "models/aggregate.h"
#include "models/couple.h"
#include "models/expr.h"

#define CP_MAX_PREDICT LIMIT_PREDICT
#define CP_MAX_RUNS LIMIT_COUPLE_RUNS
#define CP_MAX_KERNEL_ROWS LIMIT_COUPLE_KERNEL_ROWS
#define CP_MAX_MEASURED LIMIT_COUPLE_MEASURED
#define CP_MAX_NAME LIMIT_NAME
#define CP_FORMULA_MAX (1 << 20)

struct kin {
    const char *name;
    int loop;
    const char *graph;      /* fit graph; NULL for an expression kernel */
    const char *expression; /* template, or NULL */
    json_t *params;         /* the request's parameters object (borrowed), or NULL */
    double *x, *y;
    size_t n, cap;
    long long order;    /* database form: first position in the runs (seq) */
    long long last_run; /* database form: the run of the last point added */
    char field[64];     /* "kernels[3]" or "kernels" */
};

struct cin {
    json_t *values; /* configuration object (own reference) */
    char *key;      /* canonical text (xfree) */
    struct couple_measurement *m;
    size_t nm, cap;
};

struct build {
    arena *a;
    int dbform;
    const char *xname;
    json_t *fixed;  /* own reference */
    json_t *with_x; /* database form: names that change with x (a weak-scaling
                     * series, config_varies_with_x), own reference, or NULL */
    int has_range;
    double range[2];
    enum agg_kind agg;
    const char *application, *system, *executable;
    struct kin *k;
    size_t nk, kcap;
    struct cin *c;
    size_t nc;
    double *pred;
    size_t npred;
    double *mx, *my; /* measured totals */
    size_t nmeas;
    struct expr_param *sysparams; /* database form: the system's parameters */
    size_t nsysparams;
};

/* Helpers shared by the two files. */
json_t *cb_num(double v);
void cb_build_free(struct build *b);
char *cb_sdup(struct build *b, const char *s, struct err *err);
struct cin *cb_config_get(struct build *b, json_t *values, struct err *err);
int cb_parse_common(struct build *b, json_t *req, struct err *err);
int cb_parse_inline(struct build *b, json_t *req, struct err *err);
int cb_parse_db(struct build *b, db *d, json_t *req, struct err *err);

#endif
