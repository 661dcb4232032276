/* aggregate: grouping repeated measurements; see aggregate.h. */
#include "models/aggregate.h"
#include "common/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int agg_parse(const char *s, enum agg_kind *out, const char *field, struct err *err)
{
    if (s == NULL || *s == '\0' || strcmp(s, "mean") == 0)
        *out = AGG_MEAN;
    else if (strcmp(s, "median") == 0)
        *out = AGG_MEDIAN;
    else if (strcmp(s, "min") == 0)
        *out = AGG_MIN;
    else
        return err_invalid(err, field,
                           "aggregate must be \"mean\", \"median\" or \"min\"");
    return 0;
}

const char *agg_name(enum agg_kind k)
{
    return k == AGG_MEDIAN ? "median" : k == AGG_MIN ? "min" : "mean";
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double agg_reduce(double *v, size_t n, enum agg_kind kind)
{
    size_t i;
    double s = 0, m;

    if (kind == AGG_MEAN_SPIKE) {
        for (i = 0; i < n; i++)
            s += v[i];
        m = agg_reduce(v, n, AGG_MEDIAN);
        return agg_spiky(m, v[0], v[n - 1], (int)n) ? m : s / (double)n;
    }
    if (kind == AGG_MEDIAN) {
        qsort(v, n, sizeof *v, cmp_double);
        return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    }
    if (kind == AGG_MIN) {
        m = v[0];
        for (i = 1; i < n; i++)
            if (v[i] < m)
                m = v[i];
        return m;
    }
    for (i = 0; i < n; i++)
        s += v[i];
    return s / (double)n;
}

int agg_spiky(double med, double ymin, double ymax, int n)
{
    return n >= AGG_SPIKE_RUNS && med > 0 &&
           (ymax > AGG_SPIKE * med || ymin < med / AGG_SPIKE);
}

struct pair {
    double x, y;
};

static int cmp_pair(const void *a, const void *b)
{
    const struct pair *p = a, *q = b;
    if (p->x != q->x)
        return (p->x > q->x) - (p->x < q->x);
    return (p->y > q->y) - (p->y < q->y);
}

int agg_points(const double *x, const double *y, size_t n, enum agg_kind kind,
               struct agg_point *out, struct err *err)
{
    struct pair *p;
    double *tmp;
    size_t i, j, k, m = 0;

    if (n == 0)
        return 0;
    p = xmalloc(n * sizeof *p);
    tmp = xmalloc(n * sizeof *tmp);
    if (p == NULL || tmp == NULL) {
        xfree(p);
        xfree(tmp);
        return err_nomem(err);
    }
    for (i = 0; i < n; i++) {
        p[i].x = x[i];
        p[i].y = y[i];
    }
    qsort(p, n, sizeof *p, cmp_pair);
    for (i = 0; i < n; i = j) {
        double mean = 0, ss = 0;
        struct agg_point *a = &out[m++];
        for (j = i; j < n && p[j].x == p[i].x; j++)
            tmp[j - i] = p[j].y;
        k = j - i;
        for (size_t t = 0; t < k; t++)
            mean += tmp[t];
        mean /= (double)k;
        for (size_t t = 0; t < k; t++)
            ss += (tmp[t] - mean) * (tmp[t] - mean);
        a->x = p[i].x;
        a->ymin = p[i].y; /* sorted by y within the group */
        a->ymax = p[j - 1].y;
        a->sd = k > 1 ? sqrt(ss / (double)(k - 1)) : 0;
        a->n = (int)k;
        a->y = agg_reduce(tmp, k, kind);
    }
    xfree(p);
    xfree(tmp);
    return (int)m;
}
