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

int lawchange_side(const double *x, const double *y, size_t n, double target,
                   struct lawchange_side *s, struct err *err)
{
    struct fit_input in = {.nvars = 1, .x = x, .y = y, .n = n, .agg = AGG_MEAN};
    struct fit_result r;
    struct err local = {0};

    memset(s, 0, sizeof *s);
    if (!(isfinite(target) && target > 0))
        return err_invalid(err, "target", "the target must be a number greater than 0");
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]) || !isfinite(y[i]))
            return err_invalid(err, NULL, "measurement %zu is not a finite number", i);
    s->nx = lawchange_distinct(x, n);
    if (s->nx < LAWCHANGE_MIN_X)
        return 0;
    if (fit_run(&in, &r, &local) != 0) {
        /* data auto refuses ("degenerate", "invalid"): never a change */
        if (strcmp(local.code, "degenerate") == 0 || strcmp(local.code, "invalid") == 0)
            return 0;
        if (err != NULL && err->status == 0)
            *err = local; /* out of memory, or too many points */
        return -1;
    }
    s->law = r.model;
    fit_result_free(&r);
    if (fit_predict_ext(&s->law, &target, &s->y, &s->lo, &s->hi, &local) != 0 ||
        !isfinite(s->y) || !isfinite(s->lo) || !isfinite(s->hi))
        return 0;
    return 1;
}

void lawchange_decide(const struct lawchange_side *now, const struct lawchange_side *base,
                      double threshold, struct lawchange *out)
{
    if (!(threshold > 0))
        threshold = LAWCHANGE_THRESHOLD;
    out->now = *now;
    out->base = *base;
    out->ratio = base->y != 0 ? now->y / base->y : 0;
    /* beyond both intervals, and by more than the threshold */
    out->out = (now->y < base->lo || now->y > base->hi) &&
               (base->y < now->lo || base->y > now->hi) && base->y != 0 &&
               fabs(out->ratio - 1) > threshold;
}

int lawchange_compare(const double *xn, const double *yn, size_t nn, const double *xb,
                      const double *yb, size_t nb, double target, double threshold,
                      struct lawchange *out, struct err *err)
{
    struct lawchange_side now, base;
    int a, b;

    memset(out, 0, sizeof *out);
    if (threshold != 0 && !(isfinite(threshold) && threshold > 0))
        return err_invalid(err, "threshold", "the threshold must be greater than 0");
    a = lawchange_side(xn, yn, nn, target, &now, err);
    out->now.nx = now.nx;
    if (a < 0)
        return -1;
    b = lawchange_side(xb, yb, nb, target, &base, err);
    out->base.nx = base.nx;
    if (b < 0)
        return -1;
    if (a == 0 || b == 0)
        return 0;
    lawchange_decide(&now, &base, threshold, out);
    return 1;
}
