/* couple: coupling values, coefficients, composition and isocoupling choice;
 * see couple.h. Chains are normalised to (start position in the loop,
 * length) in loop order, which is what makes "the same chain" and "covers the
 * adjacency Kk -> Kk+1" simple index arithmetic. */
#include "models/couple.h"
#include "common/utf8.h"
#include "common/xalloc.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO_POS ((size_t)-1)

/* "[A, B, C]" of a measurement, truncated to fit out. */
static const char *chain_text(const struct couple_measurement *m, char *out, size_t size)
{
    size_t len = 0, j;
    int w;

    w = snprintf(out, size, "[");
    len = w > 0 ? (size_t)w : 0;
    for (j = 0; j < m->n && len < size; j++) {
        w = snprintf(out + len, size - len, "%s%s", j ? ", " : "",
                     m->kernel[j] ? m->kernel[j] : "");
        len += w > 0 ? (size_t)w : 0;
    }
    if (len < size)
        snprintf(out + len, size - len, "]");
    return out;
}

/* "A → B → C → A" of the loop, shortened with " → …" when long. Keeps
 * room for the ellipsis (8 bytes and the NUL) at every step, so a name is
 * never cut in the middle of a UTF-8 sequence. */
static const char *loop_text(const struct couple_kernel *k, const size_t *loop,
                             size_t nloop, char *out, size_t size)
{
    static const char arrow[] = " \xe2\x86\x92 ", more[] = " \xe2\x86\x92 \xe2\x80\xa6";
    size_t len = 0, j;

    out[0] = '\0';
    for (j = 0; j <= nloop && nloop > 0; j++) {
        const char *name = k[loop[j % nloop]].name;
        size_t need = (j ? sizeof arrow - 1 : 0) + strlen(name);
        if (len + need + sizeof more > size) {
            memcpy(out + len, more, sizeof more);
            return out;
        }
        snprintf(out + len, size - len, "%s%s", j ? arrow : "", name);
        len += need;
    }
    return out;
}

/* Records an ERR_INVALID for measurement m: "coupling [A, B]: <message>". */
static int bad(struct err *err, const struct couple_measurement *m, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int bad(struct err *err, const struct couple_measurement *m, const char *fmt, ...)
{
    char chain[96], msg[ERR_MESSAGE_MAX], field[32];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(field, sizeof field, "couplings[%zu]", m->index);
    chain_text(m, chain, sizeof chain);
    utf8_cut(chain);
    return err_invalid(err, field, "coupling %s: %s", chain, msg);
}

/* Finds a kernel by name; NO_POS when absent. */
static size_t find(const struct couple_kernel *k, size_t nk, const char *name)
{
    size_t i;
    for (i = 0; i < nk; i++)
        if (strcmp(k[i].name, name) == 0)
            return i;
    return NO_POS;
}

/* Checks one measurement and normalises it: *start is the loop position of
 * its first kernel in loop order, *rev is 1 when it was written against the
 * loop's direction. */
static int normalise(const struct couple_kernel *k, size_t nk, const size_t *pos,
                     const size_t *loop, size_t nloop, const struct couple_measurement *m,
                     size_t *start, int *rev, struct err *err)
{
    size_t j, p[COUPLE_MAX_CHAIN], maxlen = nloop >= 2 ? nloop : 2;
    char lt[120];
    int dir;

    if (m->n < 2 || m->n > COUPLE_MAX_CHAIN)
        return bad(err, m, "a chain must hold 2 to %d kernels, not %zu", COUPLE_MAX_CHAIN,
                   m->n);
    for (j = 0; j < m->n; j++) {
        size_t i;
        if (m->kernel[j] == NULL || m->kernel[j][0] == '\0')
            return bad(err, m, "kernel names must not be empty");
        i = find(k, nk, m->kernel[j]);
        if (i == NO_POS)
            return bad(err, m, "no kernel named %s in the model", m->kernel[j]);
        if (!k[i].loop)
            return bad(err, m,
                       "%s is outside the loop; couplings are measured between "
                       "adjacent loop kernels",
                       m->kernel[j]);
        p[j] = pos[i];
        if (!isfinite(m->alone[j]) || m->alone[j] <= 0)
            return bad(err, m, "the alone time of %s must be a positive finite number",
                       m->kernel[j]);
    }
    if (!isfinite(m->together) || m->together <= 0)
        return bad(err, m, "the together time must be a positive finite number");
    if (m->n > maxlen)
        return bad(err, m, "the chain of %zu kernels is longer than the loop of %zu",
                   m->n, nloop);
    if (nloop == 1) {
        /* The only chain of a one-kernel loop: K followed by its next iteration. */
        *start = 0;
        *rev = 0;
        return 0;
    }
    /* The direction is set by the first step; every later step must follow it. */
    if (p[1] == (p[0] + 1) % nloop)
        dir = 1;
    else if (p[0] == (p[1] + 1) % nloop)
        dir = -1;
    else
        return bad(err, m, "%s and %s are not adjacent in the loop", m->kernel[0],
                   m->kernel[1]);
    for (j = 2; j < m->n; j++) {
        size_t want = dir > 0 ? (p[j - 1] + 1) % nloop : (p[j - 1] + nloop - 1) % nloop;
        if (p[j] != want)
            return bad(err, m, "%s and %s are not consecutive in the loop %s",
                       m->kernel[j - 1], m->kernel[j],
                       loop_text(k, loop, nloop, lt, sizeof lt));
    }
    if (nloop == 2) {
        /* One adjacency: [A, B] and [B, A] are the same pair. */
        *start = 0;
        *rev = p[0] != 0;
        return 0;
    }
    *rev = dir < 0;
    *start = dir > 0 ? p[0] : (p[0] + nloop - (m->n - 1)) % nloop;
    return 0;
}

void couple_result_free(struct couple_result *r)
{
    if (r == NULL)
        return;
    xfree(r->coef);
    xfree(r->chain);
    xfree(r->loop);
    memset(r, 0, sizeof *r);
}

int couple_coefficients(const struct couple_kernel *k, size_t nk,
                        const struct couple_measurement *m, size_t nm,
                        struct couple_result *out, struct err *err)
{
    size_t *pos = NULL, *map = NULL, *cstart = NULL, i, j, nloop = 0, nadj;
    struct couple_chain *ch = NULL;
    size_t nch = 0;
    char lt[120];

    memset(out, 0, sizeof *out);
    if (nk > COUPLE_MAX_KERNELS)
        return err_invalid(err, "kernels", "at most %d kernels in one model",
                           COUPLE_MAX_KERNELS);
    if (nm > COUPLE_MAX_MEASUREMENTS)
        return err_invalid(err, "couplings", "at most %d coupling measurements",
                           COUPLE_MAX_MEASUREMENTS);
    for (i = 0; i < nk; i++) {
        if (k[i].name == NULL || k[i].name[0] == '\0')
            return err_invalid(err, "kernels", "kernel %zu has an empty name", i);
        for (j = 0; j < i; j++)
            if (strcmp(k[i].name, k[j].name) == 0)
                return err_invalid(err, "kernels", "kernel %s is listed twice",
                                   k[i].name);
    }
    pos = xcalloc(nk + 1, sizeof *pos);
    out->loop = xcalloc(nk + 1, sizeof *out->loop);
    out->coef = xcalloc(nk + 1, sizeof *out->coef);
    if (pos == NULL || out->loop == NULL || out->coef == NULL)
        goto nomem;
    for (i = 0; i < nk; i++) {
        pos[i] = k[i].loop ? nloop : NO_POS;
        if (k[i].loop)
            out->loop[nloop++] = i;
        out->coef[i] = 1.0;
    }
    out->nloop = nloop;
    out->nkernels = nk;
    if (nm > 0 && nloop == 0) {
        bad(err, &m[0], "no kernel is marked as a loop kernel (\"loop\": true)");
        goto fail;
    }
    /* Distinct chains are keyed by (start, length). */
    map = xmalloc((nloop + 1) * (COUPLE_MAX_CHAIN + 1) * sizeof *map);
    ch = xcalloc(nm + 1, sizeof *ch);
    cstart = xcalloc(nm + 1, sizeof *cstart);
    if (map == NULL || ch == NULL || cstart == NULL)
        goto nomem;
    for (i = 0; i < (nloop + 1) * (COUPLE_MAX_CHAIN + 1); i++)
        map[i] = NO_POS;
    for (i = 0; i < nm; i++) {
        size_t start = 0, key, c;
        int rev = 0;
        if (normalise(k, nk, pos, out->loop, nloop, &m[i], &start, &rev, err) != 0)
            goto fail;
        key = start * (COUPLE_MAX_CHAIN + 1) + m[i].n;
        c = map[key];
        if (c == NO_POS) {
            c = map[key] = nch++;
            ch[c].n = m[i].n;
            ch[c].first = m[i].index;
            cstart[c] = start;
            for (j = 0; j < m[i].n; j++)
                ch[c].kernel[j] = out->loop[nloop == 1 ? 0 : (start + j) % nloop];
        }
        for (j = 0; j < m[i].n; j++)
            ch[c].alone[j] += m[i].alone[rev ? m[i].n - 1 - j : j];
        ch[c].together += m[i].together;
        ch[c].measurements++;
    }
    for (i = 0; i < nch; i++) {
        double sum = 0;
        for (j = 0; j < ch[i].n; j++) {
            ch[i].alone[j] /= ch[i].measurements;
            sum += ch[i].alone[j];
        }
        ch[i].together /= ch[i].measurements;
        ch[i].value = ch[i].together / sum;
        if (!isfinite(sum) || !isfinite(ch[i].together) || !isfinite(ch[i].value) ||
            ch[i].value <= 0) {
            struct couple_measurement tmp;
            memset(&tmp, 0, sizeof tmp);
            tmp.n = ch[i].n;
            tmp.index = ch[i].first;
            for (j = 0; j < ch[i].n; j++)
                tmp.kernel[j] = k[ch[i].kernel[j]].name;
            bad(err, &tmp, "the coupling value is out of range");
            goto fail;
        }
    }
    /* Every adjacency Kp -> Kp+1 must lie inside some chain: chain (s, n)
     * covers the adjacencies s .. s+n-2. Loops of one or two kernels have a
     * single adjacency. */
    nadj = nloop >= 3 ? nloop : nloop > 0 ? 1 : 0;
    for (i = 0; i < nadj; i++) {
        int covered = 0;
        for (j = 0; j < nch && !covered; j++)
            covered = nloop < 3 || (i + nloop - cstart[j]) % nloop + 1 < ch[j].n;
        if (!covered) {
            const char *a = k[out->loop[i]].name, *b = k[out->loop[(i + 1) % nloop]].name;
            if (nloop == 1)
                err_invalid(err, "couplings",
                            "loop kernel %s has no measured coupling with its own next "
                            "iteration: measure the pair [%s, %s]",
                            a, a, a);
            else if (nloop == 2)
                err_invalid(
                    err, "couplings",
                    "loop kernels %s and %s have no measured coupling: measure the "
                    "pair [%s, %s]",
                    a, b, a, b);
            else
                err_invalid(err, "couplings",
                            "loop kernel %s has no measured coupling with the next loop "
                            "kernel %s: measure the pair [%s, %s] (loop %s)",
                            a, b, a, b, loop_text(k, out->loop, nloop, lt, sizeof lt));
            goto fail;
        }
    }
    /* coef_p = sum C_S P_S / sum P_S over the chains S that contain p. */
    for (i = 0; i < nloop; i++) {
        double num = 0, den = 0;
        for (j = 0; j < nch; j++)
            if (nloop == 1 || (i + nloop - cstart[j]) % nloop < ch[j].n) {
                num += ch[j].value * ch[j].together;
                den += ch[j].together;
            }
        if (!(den > 0) || !isfinite(num) || !isfinite(num / den)) {
            err_invalid(err, "couplings",
                        "the coupling coefficient of %s is out of range (together times "
                        "too large)",
                        k[out->loop[i]].name);
            goto fail;
        }
        out->coef[out->loop[i]] = num / den;
    }
    out->chain = ch;
    out->nchains = nch;
    xfree(pos);
    xfree(map);
    xfree(cstart);
    return 0;
nomem:
    err_nomem(err);
fail:
    xfree(pos);
    xfree(map);
    xfree(ch);
    xfree(cstart);
    couple_result_free(out);
    return -1;
}

int couple_compose(const double *coef, const double *y, const double *half, size_t n,
                   double *ty, double *thalf, struct err *err)
{
    double s = 0, v = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        if (!isfinite(coef[i]) || !isfinite(y[i]) || !isfinite(half[i]) || half[i] < 0)
            return err_invalid(err, "kernels", "kernel %zu has a non-finite prediction",
                               i);
        s += coef[i] * y[i];
        v += (coef[i] * half[i]) * (coef[i] * half[i]);
    }
    if (!isfinite(s) || !isfinite(v))
        return err_invalid(err, "kernels", "the composed prediction overflows");
    *ty = s;
    *thalf = sqrt(v);
    return 0;
}

static double distance(double a, double b)
{
    if (isnan(a) || isnan(b))
        return 0;
    if (a > 0 && b > 0)
        return fabs(log(a) - log(b));
    return fabs(a - b);
}

size_t couple_nearest(const double *conf, size_t nconf, size_t nvars,
                      const double *target, size_t xvar, double *dx)
{
    size_t best = 0, c, v;
    double best_fixed = INFINITY, best_x = INFINITY;

    for (c = 0; c < nconf; c++) {
        double fixed = 0, x = 0;
        for (v = 0; v < nvars; v++) {
            double d = distance(conf[c * nvars + v], target[v]);
            if (v == xvar)
                x = d;
            else
                fixed += d;
        }
        if (fixed < best_fixed || (fixed == best_fixed && x < best_x)) {
            best = c;
            best_fixed = fixed;
            best_x = x;
        }
    }
    if (dx != NULL)
        *dx = nconf > 0 ? best_x : 0;
    return best;
}

static int cmp_double(const void *a, const void *b)
{
    double p = *(const double *)a, q = *(const double *)b;
    return (p > q) - (p < q);
}

static double median_of(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The least-squares line of c over u = log2 x (or x), its slope b, the means
 * and the range of u; *s2 gets the residual variance (n > 2) or 0. */
struct couple_line {
    double su, sc, suu, b, umin, umax, s2;
    int logx;
};

static int line_fit(const double *x, const double *c, size_t n, double xt,
                    struct couple_line *l, struct err *err)
{
    double suc = 0, u, ss = 0;
    size_t i;

    if (n == 0)
        return err_invalid(err, "couplings", "no coupling values to model");
    if (!isfinite(xt))
        return err_invalid(err, "x", "x must be finite");
    memset(l, 0, sizeof *l);
    l->logx = xt > 0;
    l->umin = INFINITY;
    l->umax = -INFINITY;
    for (i = 0; i < n; i++) {
        if (!isfinite(x[i]) || !isfinite(c[i]))
            return err_invalid(err, "couplings", "coupling value %zu is not finite", i);
        l->logx &= x[i] > 0;
    }
    for (i = 0; i < n; i++) {
        u = l->logx ? log2(x[i]) : x[i];
        l->su += u;
        l->sc += c[i];
        l->umin = u < l->umin ? u : l->umin;
        l->umax = u > l->umax ? u : l->umax;
    }
    l->su /= (double)n;
    l->sc /= (double)n;
    for (i = 0; i < n; i++) {
        u = (l->logx ? log2(x[i]) : x[i]) - l->su;
        l->suu += u * u;
        suc += u * (c[i] - l->sc);
    }
    l->b = l->suu > 0 ? suc / l->suu : 0;
    for (i = 0; i < n && n > 2; i++) {
        double r = c[i] - l->sc - l->b * ((l->logx ? log2(x[i]) : x[i]) - l->su);
        ss += r * r;
    }
    l->s2 = n > 2 ? ss / (double)(n - 2) : 0;
    return 0;
}

static int line_at(const struct couple_line *l, double xt, double *out, struct err *err)
{
    double u = l->logx ? log2(xt) : xt;

    u = u < l->umin ? l->umin : u > l->umax ? l->umax : u;
    *out = l->sc + l->b * (u - l->su);
    if (!isfinite(*out))
        return err_invalid(err, "x", "the modeled coupling overflows at this x");
    return 0;
}

int couple_model_line(const double *x, const double *c, size_t n, double xt, double *out,
                      struct err *err)
{
    struct couple_line l;

    if (line_fit(x, c, n, xt, &l, err) < 0)
        return -1;
    return line_at(&l, xt, out, err);
}

int couple_model_value(const double *x, const double *c, size_t n, double xt, double *out,
                       struct err *err)
{
    struct couple_line l;

    if (line_fit(x, c, n, xt, &l, err) < 0)
        return -1;
    if (n > 2 && l.suu > 0 &&
        !(fabs(l.b) > gsl_cdf_tdist_Pinv(0.975, (double)(n - 2)) * sqrt(l.s2 / l.suu))) {
        /* no trend the noise does not explain: the median of the values
         * (robust to the one configuration that sits on a cache cliff or
         * was measured in a burst of load) */
        double *v = xmalloc(n * sizeof *v);
        memcpy(v, c, n * sizeof *v);
        l.b = 0;
        l.sc = median_of(v, n);
        xfree(v);
    }
    return line_at(&l, xt, out, err);
}

double couple_spread(const double *c, size_t n)
{
    double *v, med, mad;
    size_t i;

    if (n < 2)
        return 0;
    v = xmalloc(n * sizeof *v);
    memcpy(v, c, n * sizeof *v);
    med = median_of(v, n);
    for (i = 0; i < n; i++)
        v[i] = fabs(c[i] - med);
    mad = median_of(v, n);
    xfree(v);
    return 1.2533 * 1.4826 * mad / sqrt((double)n);
}

double couple_shrink(double c, double se)
{
    double d = c - 1, f;

    if (!(se > 0) || !isfinite(se) || d == 0)
        return c;
    f = 1 - se * se / (d * d);
    return 1 + d * (f > 0 ? f : 0);
}
