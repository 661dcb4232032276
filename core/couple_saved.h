/* couple_saved: a kernel-coupling answer, loaded and evaluated (SPEC §5.3).
 *
 * One loader and one evaluator for the coupling method's answer, used by the
 * method itself (its predictions and couple_predict_saved), and by the
 * charts (web/chart_couple.c), so the answer, a saved model's predict and
 * the plots cannot disagree. Answer schema: docs/api.md "Kernel coupling"
 * (kernels[].model.state is core/fit_json.h).
 */
#ifndef PROPHECY_CORE_COUPLE_SAVED_H
#define PROPHECY_CORE_COUPLE_SAVED_H

#include <jansson.h>
#include <stddef.h>

#include "common/err.h"
#include "formats/limits.h"
#include "models/expr.h"
#include "models/fit.h"

#define COUPLE_MAX_ENV (2 + 2 * LIMIT_COUPLE_FIXED)

/* Names and values of the expression environment: the x variable (and P as
 * its alias when x is nprocs), then the fixed variables (nprocs also as P).
 * Names that cannot be expression variables are left out. isx[i] marks the
 * slots that take the x value. */
struct couple_env {
    const char *name[COUPLE_MAX_ENV];
    double val[COUPLE_MAX_ENV];
    int isx[COUPLE_MAX_ENV];
    size_t n;
};

/* fixed is an object of finite numbers (checked by the caller). */
void couple_env_make(struct couple_env *e, const char *xname, json_t *fixed);
/* Sets the x slots to x. */
void couple_env_at(struct couple_env *e, double x);

/* Re-records an error from a lower layer as "<what> <name>: <message>" on
 * err ("kernel x_solve: ..."), keeping its status and code and replacing the
 * field. Returns -1. */
int couple_rewrap(struct err *err, const struct err *inner, const char *field,
                  const char *what, const char *name);

struct couple_skernel {
    const char *name;
    int loop;
    int is_expr;
    struct fit_model fm;
    expr *e;
    const char *formula, *expression; /* the kernel's own, from the answer */
};

struct couple_saved {
    const char *xname;
    json_t *fixed;
    size_t nk;
    struct couple_skernel *k;
    size_t nconf;
    json_t *confs; /* the answer's configurations (borrowed) */
    double *coef;  /* nconf * nk */
    size_t nvars;
    const char *vars[1 + LIMIT_COUPLE_FIXED];
    double target[1 + LIMIT_COUPLE_FIXED];
    double *coords; /* nconf * nvars */
    struct couple_env env;
    int interval; /* some kernel has an interval */
};

/* Loads an answer (borrowed; s points into it). 0, or -1 with an ERR_INVALID
 * "coupling model: ..." (field "model"); s is then empty. */
int couple_saved_load(json_t *ans, struct couple_saved *s, struct err *err);
void couple_saved_free(struct couple_saved *s);

/* The configuration used at x (isocoupling). */
size_t couple_saved_nearest(struct couple_saved *s, double x);

/* An interval is y - dn .. y + up: each side composed from the kernels' own
 * sides (couple_compose), so multiplicative kernel intervals of positive
 * times keep the composed one above 0 (SPEC §18). */
struct couple_eval {
    double y, dn, up, sum, sum_dn, sum_up;
    size_t conf;
    size_t modeled; /* configurations whose coefficients were modeled over
                       x (couple_saved_predict), 0: the nearest one's used */
    double near_y, near_dn, near_up; /* the value with the nearest configuration's
                                        coefficients (= y, dn, up when not modeled) */
    double reach;      /* largest fit_extrapolation of the fitted kernels at x */
    char warning[640]; /* "kernel A: <fit_warning>" of the first kernel that
                          has one, or "" */
};

/* Evaluates the composed model at x with configuration conf. contrib (nk
 * entries, may be NULL) gets coef_k * model_k(x). Fitted kernels are
 * evaluated with fit_predict_ext (their intervals include the law's own
 * uncertainty beyond the data); out->reach and out->warning say how far x
 * reaches beyond the kernels' data. */
int couple_saved_eval(struct couple_saved *s, double x, size_t conf,
                      struct couple_eval *out, double *contrib, struct err *err);

/* Coupling across configurations: where the configurations that match the
 * fixed variables best (as couple_nearest ranks them) were measured at two or
 * more distinct x, each loop kernel's coefficient is modeled over x from them
 * (couple_model_value: a line in log2 x, held at the measured ends, used
 * with three or more configurations only when its slope is significant,
 * else their median) and
 * evaluated at x into coef (nk entries). Returns the number of configurations
 * used, or 0 when the coefficients cannot be modeled (one x only). */
size_t couple_saved_modeled(struct couple_saved *s, double x, double *coef);

/* The prediction at x: with modeled coefficients where couple_saved_modeled
 * can give them (out->modeled > 0), else with the nearest configuration's;
 * out->conf is the nearest configuration and out->near_y / near_dn / near_up its
 * value either way. The default of the answer, saved predict and plots
 * (docs/models.md, kernel coupling §5: measured on eval/). */
int couple_saved_predict(struct couple_saved *s, double x, struct couple_eval *out,
                         double *contrib, struct err *err);

#endif
