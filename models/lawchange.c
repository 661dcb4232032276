/* lawchange: a commit's law against its baseline's at a target; see
 * lawchange.h. */
#include "models/lawchange.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

size_t lawchange_distinct(const double *x, size_t n)
{
    double *s;
    size_t i, k = 0;
    if (n == 0)
        return 0;
    s = malloc(n * sizeof *s);
    if (s == NULL) { /* counted the slow way rather than failing */
        for (i = 0; i < n; i++) {
            size_t j;
            for (j = 0; j < i && x[j] != x[i]; j++)
                ;
            k += j == i;
        }
        return k;
    }
    memcpy(s, x, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    for (i = 0; i < n; i++)
        k += i == 0 || s[i] != s[i - 1];
    free(s);
    return k;
}

/* Fits one side and predicts at target: 1, 0 when it cannot (degenerate
 * data, a law that cannot be evaluated there), -1 with err (bad values,
 * out of memory). */
static int side(const double *x, const double *y, size_t n, double target,
                struct lawchange_side *s, struct err *err)
{
    struct fit_input in = {.nvars = 1, .x = x, .y = y, .n = n, .agg = AGG_MEAN};
    struct fit_result r;
    struct err local = {0};

    if (fit_run(&in, &r, &local) != 0) {
        if (local.status == 422 && strcmp(local.code, "degenerate") == 0)
            return 0;
        return err_set(err, local.status, local.code, local.field[0] ? local.field : NULL,
                       "%s", local.message);
    }
    s->law = r.model;
    fit_result_free(&r);
    if (fit_predict_ext(&s->law, &target, &s->y, &s->lo, &s->hi, &local) != 0 ||
        !isfinite(s->y) || !isfinite(s->lo) || !isfinite(s->hi))
        return 0;
    return 1;
}

int lawchange_compare(const double *xn, const double *yn, size_t nn, const double *xb,
                      const double *yb, size_t nb, double target, double threshold,
                      struct lawchange *out, struct err *err)
{
    int a, b;

    memset(out, 0, sizeof *out);
    if (!(isfinite(target) && target > 0))
        return err_invalid(err, "target", "the target must be a number greater than 0");
    if (threshold == 0)
        threshold = LAWCHANGE_THRESHOLD;
    if (!(isfinite(threshold) && threshold > 0))
        return err_invalid(err, "threshold", "the threshold must be greater than 0");
    out->now.nx = lawchange_distinct(xn, nn);
    out->base.nx = lawchange_distinct(xb, nb);
    if (out->now.nx < LAWCHANGE_MIN_X || out->base.nx < LAWCHANGE_MIN_X)
        return 0;
    a = side(xn, yn, nn, target, &out->now, err);
    if (a <= 0)
        return a;
    b = side(xb, yb, nb, target, &out->base, err);
    if (b <= 0)
        return b;
    out->ratio = out->base.y != 0 ? out->now.y / out->base.y : 0;
    /* beyond both intervals, and by more than the threshold */
    out->out = (out->now.y < out->base.lo || out->now.y > out->base.hi) &&
               (out->base.y < out->now.lo || out->base.y > out->now.hi) &&
               out->base.y != 0 && fabs(out->ratio - 1) > threshold;
    return 1;
}
