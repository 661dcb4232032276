/* changes: rank tests for change points as runs arrive; see changes.h. */
#include "models/changes.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int changes_check(struct changes_opts *o, const char *field, struct err *err)
{
    if (o->threshold == 0)
        o->threshold = 0.001;
    if (o->window == 0)
        o->window = 50;
    if (o->min_before == 0)
        o->min_before = 10;
    if (o->min_after == 0)
        o->min_after = 3;
    if (o->max_after == 0)
        o->max_after =
            o->min_after > CHANGES_MAX_AFTER ? o->min_after : CHANGES_MAX_AFTER;
    if (!(o->threshold > 0 && o->threshold < 1))
        return err_invalid(err, field, "%s: the threshold (a p value) must be in (0, 1)",
                           field ? field : "changes");
    if (o->min_before < 2 || o->window < o->min_before || o->window > CHANGES_MAX_WINDOW)
        return err_invalid(err, field,
                           "%s: the window must hold %zu to %d runs, at least min_before",
                           field ? field : "changes", o->min_before, CHANGES_MAX_WINDOW);
    if (o->min_after < 1 || o->min_after > o->max_after ||
        o->max_after > CHANGES_MAX_AFTER)
        return err_invalid(err, field, "%s: the newest runs tried must be 1 to %d",
                           field ? field : "changes", CHANGES_MAX_AFTER);
    return 0;
}

/* The upper tails of the permutation distribution of U for m after and k
 * before values: tail[d] = the number of placements with U >= d, d in
 * [0, m·k], tail[0] their total. The number of ways to place m after values
 * among m + k with U = v is the coefficient of q^v of the Gaussian binomial
 * [m+k choose m]_q = prod_{i=1..m} (1 - q^(k+i)) / (1 - q^i): built one
 * factor at a time, each step an exact polynomial with integer coefficients
 * (at most C(208, 8) < 2^53, exact in a double, and so are their sums). */
static void mw_tails(size_t m, size_t k, double *tail)
{
    double *c = tail;
    size_t i, d, deg = 0;

    memset(c, 0, sizeof *c * (m * k + 1));
    c[0] = 1;
    for (i = 1; i <= m; i++) {
        size_t a = k + i, ndeg = deg + k;
        /* times (1 - q^a): the product's degree deg + a, but the quotient's
         * is ndeg; coefficients above ndeg cancel in the division */
        for (d = ndeg; d >= a; d--)
            c[d] -= d - a <= deg ? c[d - a] : 0;
        /* divided by (1 - q^i): q[d] = p[d] + q[d - i] */
        for (d = i; d <= ndeg; d++)
            c[d] += c[d - i];
        deg = ndeg;
    }
    for (d = deg; d-- > 0;)
        tail[d] += tail[d + 1];
}

/* The two-sided p value of u from the tails: symmetric about m·k/2, the
 * upper tail of the farther side, counted from the whole number at or below
 * it (ties make halves). */
static double mw_p_of(double u, size_t m, size_t k, const double *tail)
{
    double hi = fmax(u, (double)(m * k) - u);
    return fmin(1.0, 2 * tail[(size_t)floor(hi)] / tail[0]);
}

double changes_mw_p(double u, size_t m, size_t k)
{
    double tail[CHANGES_MAX_AFTER * CHANGES_MAX_WINDOW + 1];
    if (m == 0 || k == 0 || m > CHANGES_MAX_AFTER || k > CHANGES_MAX_WINDOW)
        return 1;
    mw_tails(m, k, tail);
    return mw_p_of(u, m, k, tail);
}

/* The tails a scan has built, one table per (m, k) met, each built when
 * first needed: a scan of a long history meets few sizes many times. */
/* What a watch saw of one series: the key of its latest runs, and how
 * many runs back from the newest the last change point is. */
#define CHANGES_MEMO 4096
struct changes_memo {
    uint64_t key;
    size_t back;
};

struct changes_cache {
    size_t window, max_after;
    double **tails; /* [m * (window + 1) + k] */
    struct changes_memo memo[CHANGES_MEMO];
};
#define mw_cache changes_cache

struct changes_cache *changes_cache_new(const struct changes_opts *o)
{
    struct changes_opts opt = *o;
    struct changes_cache *c;
    if (changes_check(&opt, NULL, NULL) != 0)
        return NULL;
    c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->window = opt.window;
    c->max_after = opt.max_after;
    c->tails = calloc((opt.max_after + 1) * (opt.window + 1), sizeof *c->tails);
    if (c->tails == NULL) {
        free(c);
        return NULL;
    }
    return c;
}

void changes_cache_free(struct changes_cache *c)
{
    if (c == NULL)
        return;
    for (size_t i = 0; i < (c->max_after + 1) * (c->window + 1); i++)
        free(c->tails[i]);
    free(c->tails);
    free(c);
}

static double cached_p(struct mw_cache *c, double u, size_t m, size_t k, int *nomem)
{
    double **slot;
    if (c == NULL || m > c->max_after || k > c->window)
        return changes_mw_p(u, m, k);
    slot = &c->tails[m * (c->window + 1) + k];
    if (*slot == NULL) {
        *slot = malloc(sizeof **slot * (m * k + 1));
        if (*slot == NULL) {
            *nomem = 1;
            return 1;
        }
        mw_tails(m, k, *slot);
    }
    return mw_p_of(u, m, k, *slot);
}

/* U of after[0..m) against before[0..k): pairs after > before, ties 1/2. */
static double mw_u(const double *after, size_t m, const double *before, size_t k)
{
    double u = 0;
    size_t i, j;
    for (i = 0; i < m; i++)
        for (j = 0; j < k; j++)
            u += after[i] > before[j] ? 1 : after[i] == before[j] ? 0.5 : 0;
    return u;
}

static double mean(const double *y, size_t n)
{
    double s = 0;
    size_t i;
    for (i = 0; i < n; i++)
        s += y[i];
    return n ? s / (double)n : 0;
}

/* The share of the significance that the test of the newest m runs gets
 * (weighted Bonferroni): the sizes up to min_after + 2 share three
 * quarters, the larger ones the rest, so that a step is found within a few
 * runs at nearly the power of one test, and a step hidden at first (behind
 * an outlier among the runs before it) still before it becomes part of the
 * runs it is compared with. Renormalised over the sizes tried. */
static double weight(const struct changes_opts *o, size_t m, size_t top)
{
    size_t small_top = o->min_after + 2 < top ? o->min_after + 2 : top;
    size_t nsmall = small_top - o->min_after + 1, nlarge = top - small_top;
    double share = nlarge ? 0.75 : 1.0;
    return m <= small_top ? share / (double)nsmall : (1 - share) / (double)nlarge;
}

/* The median of v[0..n), n >= 1 (v is not changed). */
static double median(const double *v, size_t n)
{
    double s[CHANGES_MAX_WINDOW + CHANGES_MAX_AFTER];
    size_t i, j;
    if (n > sizeof s / sizeof *s)
        n = sizeof s / sizeof *s;
    for (i = 0; i < n; i++) { /* insertion sort: n is at most a few hundred */
        double x = v[i];
        for (j = i; j > 0 && s[j - 1] > x; j--)
            s[j] = s[j - 1];
        s[j] = x;
    }
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* Whether v is nearer the median of before[0..nb) than that of
 * after[0..na) (both sides non-empty). */
static int nearer_before(const double *before, size_t nb, double v, const double *after,
                         size_t na)
{
    return nb > 0 && na > 0 && fabs(v - median(before, nb)) < fabs(v - median(after, na));
}

/* The test of the newest run (see changes.h), on checked options. */
static int newest(const double *y, size_t n, size_t since, const struct changes_opts *o,
                  struct mw_cache *cache, int *nomem, struct changes_point *out)
{
    double p[CHANGES_MAX_AFTER + 1], best = INFINITY;
    size_t k[CHANGES_MAX_AFTER + 1], m, top = 0, best_m = 0, from;

    for (m = o->min_after; m <= o->max_after && m < n; m++) {
        size_t t = n - m;
        if (t < since + o->min_before)
            break;
        from = t > since + o->window ? t - o->window : since;
        k[m] = t - from;
        p[m] = cached_p(cache, mw_u(y + t, m, y + from, k[m]), m, k[m], nomem);
        top = m;
    }
    if (top == 0) /* no split had enough runs before it (min_after >= 1) */
        return 0;
    for (m = o->min_after; m <= top; m++) {
        double adj = p[m] / weight(o, m, top);
        if (adj < best) {
            best = adj;
            best_m = m;
        }
    }
    if (best >= o->threshold)
        return 0;
    memset(out, 0, sizeof *out);
    from = n - best_m - k[best_m];
    out->at = n - best_m;
    /* The test ranks the newest runs as one block: when the last run of the
     * old law is the most extreme of its window (the highest before a step
     * up), taking it into the newer side makes the test stronger still, and
     * the shift would be placed one run early, on the last good commit. The
     * first run of the newer side goes back to the older while it is nearer
     * the older side's median than the rest of the newer side's (which keeps
     * min_after runs). */
    while (n - out->at > o->min_after &&
           nearer_before(y + from, out->at - from, y[out->at], y + out->at + 1,
                         n - out->at - 1))
        out->at++;
    out->found = n - 1;
    out->p = fmin(1.0, best);
    out->before = mean(y + from, out->at - from);
    out->after = mean(y + out->at, n - out->at);
    return 1;
}

static int check_values(const double *y, size_t n, struct err *err)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (!isfinite(y[i]))
            return err_invalid(err, NULL, "value %zu of the series is not finite", i);
    return 0;
}

int changes_newest(const double *y, size_t n, size_t since, const struct changes_opts *o,
                   struct changes_point *out, struct err *err)
{
    struct changes_opts opt = *o;
    size_t lo = n > CHANGES_MAX_WINDOW + CHANGES_MAX_AFTER
                    ? n - CHANGES_MAX_WINDOW - CHANGES_MAX_AFTER
                    : 0;
    if (changes_check(&opt, NULL, err) != 0 || check_values(y + lo, n - lo, err) != 0)
        return -1;
    int nomem = 0; /* stays 0: no cache to fill */
    return newest(y, n, since, &opt, NULL, &nomem, out);
}

/* The scan of y[0..n) on checked options with cache c: every change point
 * into out (at most max), *last the index of the run that found the last
 * one (n when none). Returns their number, or -1 (out of memory). */
static int scan(const double *y, size_t n, const struct changes_opts *opt,
                struct changes_cache *c, struct changes_point *out, size_t max,
                struct err *err)
{
    size_t i, since = 0, found = 0;
    int nomem = 0;
    for (i = 1; i <= n && found < max; i++) {
        struct changes_point cp;
        if (newest(y, i, since, opt, c, &nomem, &cp)) {
            out[found++] = cp;
            since = cp.at;
        }
        if (nomem)
            return err_nomem(err);
    }
    /* each change point's after side reaches to the next one */
    for (i = 0; i < found; i++) {
        size_t end = i + 1 < found ? out[i + 1].at : n;
        out[i].after = mean(y + out[i].at, end - out[i].at);
    }
    return (int)found;
}

int changes_scan(const double *y, size_t n, const struct changes_opts *o,
                 struct changes_point *out, size_t max, struct err *err)
{
    struct changes_opts opt = *o;
    struct changes_cache *c;
    int rc;

    if (changes_check(&opt, NULL, err) != 0 || check_values(y, n, err) != 0)
        return -1;
    c = changes_cache_new(&opt);
    if (c == NULL)
        return err_nomem(err);
    rc = scan(y, n, &opt, c, out, max, err);
    changes_cache_free(c);
    return rc;
}

size_t changes_watch_runs(const struct changes_opts *o)
{
    struct changes_opts opt = *o;
    if (changes_check(&opt, NULL, NULL) != 0)
        return 0;
    return opt.window + opt.max_after + opt.min_before;
}

/* The key of the last `len` values ending at y[n-1] for the threshold t. */
static uint64_t memo_key(const double *y, size_t n, size_t len, double t)
{
    uint64_t h = 0x9e3779b97f4a7c15u ^ len, b;
    memcpy(&b, &t, sizeof b);
    h = (h ^ b) * 0xbf58476d1ce4e5b9u;
    for (size_t i = n - len; i < n; i++) {
        memcpy(&b, &y[i], sizeof b);
        h = (h ^ b) * 0x94d049bb133111ebu;
        h ^= h >> 31;
    }
    return h | 1; /* 0 marks an empty slot */
}

int changes_watch(const double *y, size_t n, const struct changes_opts *o,
                  struct changes_cache *c, struct changes_point *out, struct err *err)
{
    struct changes_opts opt = *o;
    struct changes_point cp;
    size_t from, span, since = SIZE_MAX;
    struct changes_memo *m = NULL;
    int nomem = 0, found;

    if (changes_check(&opt, NULL, err) != 0)
        return -1;
    if (c != NULL && (c->window != opt.window || c->max_after != opt.max_after))
        c = NULL; /* tables of other sizes: compute without them */
    span = opt.window + opt.max_after + opt.min_before;
    from = n > span ? n - span : 0;
    y += from;
    n -= from;
    if (n == 0)
        return 0;
    if (check_values(y, n, err) != 0)
        return -1;
    if (c != NULL) {
        /* the last change point this watch saw, kept under the runs before
         * the new one: found when the previous judgement was of the run
         * just before it */
        uint64_t key = memo_key(y, n - 1, n - 1, opt.threshold);
        m = &c->memo[key % CHANGES_MEMO];
        if (m->key == key) /* before the runs it keeps: none among them */
            since = m->back <= n - 1 ? n - 1 - m->back : 0;
    }
    if (since == SIZE_MAX) {
        /* not seen: replayed from the runs before the new one */
        struct changes_point all[CHANGES_WATCH_MAX_RUNS / 2 + 1];
        int k = scan(y, n - 1, &opt, c, all, sizeof all / sizeof all[0], err);
        if (k < 0)
            return -1;
        since = k > 0 ? all[k - 1].at : 0;
    }
    found = newest(y, n, since, &opt, c, &nomem, &cp);
    if (nomem)
        return err_nomem(err);
    if (c != NULL) {
        size_t len = n < span ? n : span - 1;
        uint64_t key = memo_key(y, n, len, opt.threshold);
        m = &c->memo[key % CHANGES_MEMO];
        m->key = key;
        m->back = n - (found ? cp.at : since);
    }
    if (!found)
        return 0;
    *out = cp;
    out->at += from;
    out->found += from;
    return 1;
}
