/* fit_search: the candidate search of the `auto` selection (fit_cand.h;
 * fit_auto.c chooses among its classes); docs/models.md (curve fitting).
 *
 * Candidates are c0 + up to two normal-form terms x^i log2(x)^j (one
 * variable), or c0 + up to three products of such
 * factors (two variables, after screening each variable's factors on the
 * slices where the other is fixed). Each candidate is scored by its
 * leave-one-x-out error from PRESS, e_i / (1 - h_ii), which needs only the
 * residuals and the hat diagonal of one least-squares fit. Both come from an
 * orthonormal basis of the (weighted) columns built by Gram-Schmidt with
 * reorthogonalisation ("twice is enough"), so the search never forms normal
 * equations. The columns of every term are orthonormalised against the
 * constant once; a candidate then costs one or two more orthogonalisations of
 * length m, in preallocated workspace (no allocation in the inner loop).
 *
 * Candidates are grouped in classes (number of terms, complexity); the
 * simplest class whose best member passes the lack-of-fit test against the
 * repetitions' pure error wins (without repetitions: the one-standard-error
 * rule on PRESS). With all y > 0 the fits are relative least squares and laws
 * of two or more terms must have non-negative term coefficients. The chosen
 * law is refitted by fit_terms. Must not allocate per candidate, print, or
 * keep state between calls.
 */
#include "models/fit.h"
#include "common/xalloc.h"
#include "models/fit_cand.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Complexity classes: a term's complexity is its log power plus one for a
 * fractional exponent, summed over variables and terms. */
#define MAXCX 20
#define MAXDEPTH 6
/* A column whose part orthogonal to the previous ones is below this fraction
 * of its length adds no information (near-collinear pair): skip it. */
#define COLLINEAR 1e-7
/* Per variable, how many factors the two-variable screening keeps. */
#define FACTORS_2D 5
/* One-variable pair search: above this many (pairs x points), only pairs with
 * one of the best SCREEN_TOP single terms are tried (forward screening). */
#define FULL_PAIR_BUDGET 3000000.0
#define SCREEN_TOP 12

static const double pos_expo[] = {0,       0.25,    1.0 / 3, 0.5,     2.0 / 3, 0.75, 1,
                                  1.25,    4.0 / 3, 1.5,     5.0 / 3, 1.75,    2,    2.25,
                                  7.0 / 3, 2.5,     8.0 / 3, 2.75,    3};
#define NPOS (sizeof pos_expo / sizeof pos_expo[0])
#define MAX_FACTORS (2 * NPOS * 3)

struct factor {
    double e;
    int l;
};

/* Single-variable factors x^e log2(x)^l, all e in +-pos_expo, l in 0..2,
 * without the constant; only x, x^2, x^3 when some x <= 0. */
static int catalogue(int positive, struct factor *f)
{
    int n = 0, s, l;
    size_t i;

    for (s = 1; s >= -1; s -= 2)
        for (i = 0; i < NPOS; i++)
            for (l = 0; l <= 2; l++) {
                double e = s * pos_expo[i];
                if ((e == 0 && l == 0) || (s < 0 && i == 0))
                    continue;
                if (!positive && (l > 0 || e < 0 || e != floor(e)))
                    continue;
                f[n].e = e;
                f[n].l = l;
                n++;
            }
    return n;
}

/* x^e of a factor: integer exponents by repeated multiplication, others by
 * pow. */
static double xpow(double x, double e)
{
    double f = 1;
    int k;

    if (e == floor(e) && fabs(e) <= 16) {
        for (k = 0; k < (int)fabs(e); k++)
            f *= x;
        if (e < 0)
            f = 1 / f;
    } else {
        f = pow(x, e);
    }
    return f;
}

/* The values of the terms t[0..nt-1] (products of x^e log2(x)^l over the
 * variables) at the points pts[0..m-1]: term j's at out[j * m + i]. x^e is
 * computed once for a run of terms with the same exponent of a variable (the
 * catalogue lists the log powers of an exponent together) and log2(x) once
 * per point, with the same operations as term by term: the values are the
 * same, for a third of the pow calls. */
static void term_table(const struct fit_term *t, int nt, int nvars,
                       const struct fit_point *pts, size_t m, double *out)
{
    size_t i;
    int j, v, k;

    for (i = 0; i < m; i++) {
        const double *x = pts[i].x;
        double lg[FIT_MAX_VARS] = {0}, base[FIT_MAX_VARS] = {0}, at[FIT_MAX_VARS];
        int have_lg[FIT_MAX_VARS] = {0};
        for (v = 0; v < nvars; v++)
            at[v] = NAN;
        for (j = 0; j < nt; j++) {
            double f = 1;
            for (v = 0; v < nvars; v++) {
                double e = t[j].expo[v], g;
                if (e == 0 && t[j].logp[v] == 0)
                    continue;
                if (!(e == at[v])) {
                    base[v] = xpow(x[v], e);
                    at[v] = e;
                }
                if (t[j].logp[v] > 0 && !have_lg[v]) {
                    lg[v] = log2(x[v]);
                    have_lg[v] = 1;
                }
                g = base[v];
                for (k = 0; k < t[j].logp[v]; k++)
                    g *= lg[v];
                f *= g;
            }
            out[(size_t)j * m + i] = f;
        }
    }
}

static double dot(const double *a, const double *b, size_t m)
{
    double s = 0;
    size_t i;

    for (i = 0; i < m; i++)
        s += a[i] * b[i];
    return s;
}

/* The scoring state for one set of points. */
struct cv {
    size_t m;
    const double *g; /* per point: 1/sqrt(w_i), turns weighted into plain errors */
    double *sw;      /* row weights: sqrt(n_i), divided by |y_i| when relative */
    double *q0;      /* unit constant column sw/|sw| */
    double *e0, *h0; /* residual and leverage of the constant-only model */
    double crit0;    /* PRESS of the constant model, 1 when that is 0 */
    double raw0;     /* PRESS of the constant model as computed */
    double se0;      /* its standard error */
    double rss0;     /* its weighted residual sum of squares */
    double ss_pe;    /* pure error: weighted sum of squares within repetitions */
    double dof_pe;   /* its degrees of freedom, sum of (n_i - 1) */
};

/* The standard error of the leave-one-out sum s that extend returned with st,
 * from the spread of the m squared errors. Three divisions and a square
 * root: only for the sums that are kept, not for every candidate. */
static double press_se(const struct cv *c, double s, const double *st)
{
    double mean, var;

    if (st[3] != 0)
        return INFINITY;
    mean = s / (double)c->m;
    var = (st[0] / (double)c->m - mean * mean) * (double)c->m / (double)(c->m - 1);
    return sqrt((var > 0 ? var : 0) * (double)c->m);
}

/* Sets v to src without its components along the k unit vectors in basis,
 * removed twice, and normalises it. Each removal is fused with the dot
 * product the next one needs (the last one's: the norm), in the same order
 * of operations as removing and then summing. known: NULL, or the first two
 * dot products, src . src and basis[0] . src, when the caller has them
 * already (the search: from prepare and first_row). OUT (if rc is not NULL):
 * rc[0..k-1], the components removed, and rc[k], the norm that was left:
 * src = sum rc[j] basis[j] + rc[k] v, one column of the R factor. Returns
 * 0, or -1 when what remains is below COLLINEAR (v is then undefined). */
static int orth(double *v, const double *src, double *const *basis, int k, size_t m,
                const double *known, double *rc)
{
    double n0 = sqrt(known != NULL ? known[0] : dot(src, src, m)), n, c;
    int step, j;
    size_t i;

    if (!(n0 > 0) || !isfinite(n0))
        return -1;
    c = known != NULL ? known[1] : dot(basis[0], src, m);
    for (j = 0; j < k && rc != NULL; j++)
        rc[j] = 0;
    for (step = 0; step < 2 * k; step++) {
        const double *b = basis[step % k], *from = step == 0 ? src : v;
        const double *next = step + 1 < 2 * k ? basis[(step + 1) % k] : v;
        double d = 0;
        for (i = 0; i < m; i++) {
            v[i] = from[i] - c * b[i];
            d += next[i] * v[i];
        }
        if (rc != NULL)
            rc[step % k] += c;
        c = d;
    }
    n = sqrt(c);
    if (!(n > COLLINEAR * n0))
        return -1;
    if (rc != NULL)
        rc[k] = n;
    for (i = 0; i < m; i++)
        v[i] /= n;
    return 0;
}

/* Adds unit vector q (orthogonal to everything before) to a model with
 * residual e_prev and leverage h_prev; writes the new ones e, h (may be
 * e_prev, h_prev) and returns the new model's leave-one-out sum of squares
 * (PRESS). OUT: st[0], the sum of the squares of the squared leave-one-out
 * errors (for press_se); st[1], the weighted residual sum of squares; st[2],
 * the coefficient of q; st[3], 1 when a leverage is 1 (PRESS infinite), else
 * 0. */
static double extend(const struct cv *c, const double *e_prev, const double *h_prev,
                     const double *q, double *e, double *h, double *st)
{
    double b = dot(q, e_prev, c->m), s = 0, s2 = 0, rss = 0;
    size_t i;
    int bad = 0;

    st[2] = b;
    for (i = 0; i < c->m; i++) {
        double d, r;
        e[i] = e_prev[i] - b * q[i];
        h[i] = h_prev[i] + q[i] * q[i];
        d = 1 - h[i];
        bad |= !(d > 1e-10);
        rss += e[i] * e[i];
        r = c->g[i] * e[i] / d;
        r *= r;
        s += r;
        s2 += r * r;
    }
    st[0] = bad ? INFINITY : s2;
    st[1] = bad ? INFINITY : rss;
    st[3] = bad;
    return bad ? INFINITY : s;
}

/* The search over subsets of nt columns. */
struct search {
    struct cv c;
    int rel; /* relative least squares (all y > 0) */
    int nt;
    double **q;      /* nt unit columns orthogonal to q0, or NULL if invalid */
    double **qstore; /* the storage behind q (q[j] is reset from it) */
    double *qe0;     /* per column: q[j] . e0 (for the pair bound) */
    double *qn;      /* per column: q[j] . q[j] */
    double *qt;      /* the columns transposed (m rows of nt), for first_row */
    double *row;     /* per column j: q[f] . q[j] of the current first term f */
    int row_ok;      /* whether row holds them (else computed per pair) */
    double *vals;    /* term_table of the terms at all nall points */
    size_t nall;
    double gmin2;    /* least g_i^2 (PRESS >= gmin2 * weighted RSS) */
    double rss1, b1; /* of the current first term: weighted RSS, q . e0 */
    int maxdepth;    /* most non-constant terms in a candidate */
    int prune;       /* skip pairs whose PRESS bound cannot beat their class */
    double *lq[4];   /* per depth 1..3: basis vector, residual, leverage */
    double *le[4], *lh[4];
    const unsigned char *allow1; /* optional: single terms allowed as first of a pair */
    const int *cx;               /* complexity of each term */
    double r[4][4];              /* R factor of the current terms, levels 1..3 */
    double gam[4];               /* coordinates of y in the current basis */
    /* best PRESS (and its standard error and terms) per number of
     * non-constant terms and complexity */
    double best[MAXDEPTH + 1][MAXCX];
    double bse[MAXDEPTH + 1][MAXCX];
    double brss[MAXDEPTH + 1][MAXCX];
    int bidx[MAXDEPTH + 1][MAXCX][3];
    /* optional accumulation of PRESS/crit0 for singles and pairs (screening) */
    double *acc1, *acc2;
};

/* Counts candidate idx[0..depth-1] of PRESS crit (extend's, or INFINITY)
 * and st (extend's) in its class. */
static void record(struct search *s, int depth, const int *idx, double crit,
                   const double *st)
{
    int k, cx = 0;

    if (s->acc1 != NULL && depth == 1)
        s->acc1[idx[0]] += isfinite(crit) ? crit / s->c.crit0 : 1;
    if (s->acc2 != NULL && depth == 2)
        s->acc2[idx[0] * s->nt + idx[1]] += isfinite(crit) ? crit / s->c.crit0 : 1;
    for (k = 0; k < depth; k++)
        cx += s->cx[idx[k]];
    cx = cx < MAXCX ? cx : MAXCX - 1;
    if (crit < s->best[depth][cx]) {
        s->best[depth][cx] = crit;
        s->bse[depth][cx] = press_se(&s->c, crit, st);
        s->brss[depth][cx] = st[1];
        memcpy(s->bidx[depth][cx], idx, (size_t)depth * sizeof *idx);
    }
}

/* Whether the law of the current L terms has a negative term coefficient:
 * solves R beta = gam by back substitution (the columns are positive
 * multiples of the terms, so the signs are those of the coefficients). */
static int has_negative(const struct search *s, int L)
{
    double beta[4];
    int k, j;

    if (L > 3) /* levels 1..3, as search_rec */
        return 0;
    for (k = L; k >= 1; k--) {
        double t = s->gam[k];
        for (j = k + 1; j <= L; j++)
            t -= s->r[k][j] * beta[j];
        beta[k] = t / s->r[k][k];
        if (beta[k] < 0)
            return 1;
    }
    return 0;
}

/* A lower bound of the PRESS of the pair (first term, q) from O(m) work
 * instead of the pair's orthogonalisation: with c = q1 . q (both unit and
 * orthogonal to the constant) the pair's weighted RSS is
 * rss1 - (q . e0 - b1 c)^2 / (1 - c^2), and PRESS >= gmin2 * RSS because
 * every 1 / (1 - h_i) >= 1. NaN (no bound) when q is nearly collinear with
 * q1, where the orthogonalisation decides. Measured: 10-point `auto` 3x
 * faster (bench_fit), the selections bit-identical (test_fit). */
static double pair_bound(const struct search *s, double c, int j)
{
    double d = 1 - c * c, r;

    if (!(d > 1e-8))
        return NAN;
    /* r carries the rounding of its two products (~1e-16 of each); the
     * margin keeps the bound below the PRESS when the fit is exact and rss1
     * itself is rounding. */
    r = fabs(s->qe0[j] - s->b1 * c) + 1e-12 * (fabs(s->qe0[j]) + fabs(s->b1));
    return s->gmin2 * (s->rss1 - r * r / d);
}

/* The dot products of the first term f's column with every later one, for
 * the pair bound and the first step of orth at depth 1 and 2: the same sums
 * as dot(q[f], q[j]), all j at once (the loop over j vectorises). Only for
 * a first term whose pairs are all tried (allow1). */
static void first_row(struct search *s, int f)
{
    size_t m = s->c.m, i;
    int j, nt = s->nt;
    const double *q1 = s->q[f];

    s->row_ok = s->allow1 == NULL || s->allow1[f];
    if (!s->row_ok)
        return;
    for (j = f + 1; j < nt; j++)
        s->row[j] = 0;
    for (i = 0; i < m; i++) {
        const double *qt = s->qt + i * (size_t)nt;
        double a = q1[i];
        for (j = f + 1; j < nt; j++)
            s->row[j] += a * qt[j];
    }
}

static void search_rec(struct search *s, int depth, int start, int *idx)
{
    size_t m = s->c.m;
    int j;

    /* maxdepth <= 3 (fit_search_*): levels 1..3 are all lq, le, lh and r
     * hold. Said here so that no compiler unrolling the recursion sees an
     * index past them (gcc -O3 warned of one). */
    if (depth >= 3)
        return;

    for (j = start; j < s->nt; j++) {
        double *v = s->lq[depth + 1], crit, st[4], rc[4], known[2];
        int L = depth + 1, k;
        const double *ep = depth == 0 ? s->c.e0 : s->le[depth];
        const double *hp = depth == 0 ? s->c.h0 : s->lh[depth];

        if (s->q[j] == NULL)
            continue;
        if (depth == 1 && s->allow1 != NULL && !s->allow1[idx[0]] && !s->allow1[j])
            continue;
        if (depth > 0) {
            known[0] = s->qn[j];
            known[1] = s->row_ok ? s->row[j] : dot(s->lq[1], s->q[j], m);
        }
        /* A last pair that cannot beat its class's best is not computed
         * (the bound is below the PRESS, so the classes come out the same;
         * not while screening, which sums every pair). */
        if (depth == 1 && s->maxdepth == 2 && s->acc2 == NULL && s->prune) {
            int cx = s->cx[idx[0]] + s->cx[j];
            double lb = pair_bound(s, known[1], j);
            cx = cx < MAXCX ? cx : MAXCX - 1;
            if (lb > s->best[2][cx] * (1 + 1e-9))
                continue;
        }
        idx[depth] = j;
        rc[0] = 1;
        if (depth == 0)
            memcpy(v, s->q[j], m * sizeof *v);
        else if (orth(v, s->q[j], s->lq + 1, depth, m, known, rc) < 0) {
            if (s->acc2 != NULL && depth == 1)
                s->acc2[idx[0] * s->nt + j] += 1;
            continue;
        }
        for (k = 0; k < L; k++)
            s->r[k + 1][L] = rc[k];
        crit = extend(&s->c, ep, hp, v, s->le[L], s->lh[L], st);
        s->gam[L] = st[2];
        if (L >= 2 && s->rel && has_negative(s, L))
            crit = INFINITY;
        record(s, L, idx, crit, st);
        if (depth == 0) {
            s->rss1 = st[1];
            s->b1 = st[2];
        }
        if (depth == 0 && s->maxdepth > 1)
            first_row(s, j);
        if (depth + 1 < s->maxdepth)
            search_rec(s, depth + 1, j + 1, idx);
    }
}

/* Workspace for one search over up to nt columns of m points. */
struct work {
    double *mem;
    double **qp;
};

static int work_init(struct work *w, struct search *s, struct cv *c, size_t m, int nt,
                     struct err *err)
{
    size_t need = m * (size_t)(5 + 3 * nt + 9) + 3 * (size_t)nt;
    double *p;
    int d;

    w->mem = xcalloc(need, sizeof *w->mem);
    w->qp = xcalloc(2 * (size_t)nt + 1, sizeof *w->qp);
    if (w->mem == NULL || w->qp == NULL) {
        xfree(w->mem);
        xfree(w->qp);
        return err_nomem(err);
    }
    p = w->mem;
    memset(c, 0, sizeof *c);
    memset(s, 0, sizeof *s);
    c->m = m;
    c->q0 = p, p += m;
    c->e0 = p, p += m;
    c->h0 = p, p += m;
    c->g = p, p += m;
    c->sw = p, p += m;
    for (d = 1; d <= 3; d++) {
        s->lq[d] = p, p += m;
        s->le[d] = p, p += m;
        s->lh[d] = p, p += m;
    }
    for (d = 0; d < nt; d++)
        w->qp[d] = p, p += m;
    s->qstore = w->qp;
    s->q = w->qp + nt;
    s->qe0 = p, p += nt;
    s->qn = p, p += nt;
    s->row = p, p += nt;
    s->qt = p, p += m * (size_t)nt;
    s->vals = p;
    s->nall = m;
    return 0;
}

static void work_free(struct work *w)
{
    xfree(w->mem);
    xfree(w->qp);
}

/* Sets up the constant model and the orthonormal columns of the nt terms of
 * s->vals for the points sel[0..m-1] of pts (sel NULL: all). */
static void prepare(struct search *s, const struct fit_point *pts, const size_t *sel,
                    int nt)
{
    struct cv *c = &s->c;
    size_t i, m = c->m;
    double *g = (double *)c->g, nq = 0, st[4];
    int j;

    /* g turns a weighted residual back into a (relative) error per point. */
    c->ss_pe = c->dof_pe = 0;
    for (i = 0; i < m; i++) {
        const struct fit_point *p = &pts[sel ? sel[i] : i];
        double sn = sqrt((double)(p->n > 0 ? p->n : 1));
        double sw = s->rel ? sn / fabs(p->y) : sn;
        c->sw[i] = c->q0[i] = sw;
        g[i] = 1 / sn;
        c->ss_pe += s->rel ? p->ss / (p->y * p->y) : p->ss;
        c->dof_pe += (double)(p->n > 0 ? p->n - 1 : 0);
        c->e0[i] = sw * p->y;
        c->h0[i] = 0;
        nq += sw * sw;
    }
    nq = sqrt(nq);
    for (i = 0; i < m; i++)
        c->q0[i] /= nq;
    c->crit0 = c->raw0 = extend(c, c->e0, c->h0, c->q0, c->e0, c->h0, st);
    c->se0 = press_se(c, c->raw0, st);
    c->rss0 = st[1];
    if (!(c->crit0 > 0) || !isfinite(c->crit0))
        c->crit0 = 1;
    s->nt = nt;
    for (j = 0; j < nt; j++) {
        double *v = s->q[j] = s->qstore[j];
        int ok = 1;
        const double *tv = s->vals + (size_t)j * s->nall;
        for (i = 0; i < m; i++) {
            v[i] = c->sw[i] * tv[sel ? sel[i] : i];
            ok &= isfinite(v[i]);
        }
        if (!ok || orth(v, v, &c->q0, 1, m, NULL, NULL) < 0)
            s->q[j] = NULL;
        else
            s->qe0[j] = dot(v, c->e0, m);
        if (s->q[j] != NULL)
            s->qn[j] = dot(v, v, m);
        for (i = 0; i < m; i++)
            s->qt[i * (size_t)nt + (size_t)j] = s->q[j] != NULL ? v[i] : 0;
    }
    s->gmin2 = INFINITY;
    for (i = 0; i < m; i++)
        s->gmin2 = fmin(s->gmin2, g[i] * g[i]);
    for (j = 0; j <= MAXDEPTH; j++)
        for (i = 0; i < MAXCX; i++)
            s->best[j][i] = INFINITY;
}

/* Whether a candidate with p parameters and weighted residual sum of squares
 * rss passes the lack-of-fit F test against the pure error of the
 * repetitions at the 5 % level. */
static int cmp_term(const void *a, const void *b)
{
    const struct fit_term *p = a, *q = b;
    int v;

    for (v = 0; v < FIT_MAX_VARS; v++) {
        if (p->expo[v] != q->expo[v])
            return p->expo[v] > q->expo[v] ? -1 : 1;
        if (p->logp[v] != q->logp[v])
            return p->logp[v] > q->logp[v] ? -1 : 1;
    }
    return 0;
}

static int factor_cx(double e, int l)
{
    return l + (e != floor(e));
}

/* Writes the representative of every class of up to maxd non-constant terms
 * (the constant model first) to cands; returns how many. */
static int collect(const struct search *s, const struct fit_term *t, int maxd,
                   struct fit_cands *cands)
{
    int d, k, j, n = 0;

    memset(&cands->c[0], 0, sizeof cands->c[0]);
    cands->c[n].nterms = 1;
    cands->c[n].press = s->c.raw0;
    cands->c[n].se = s->c.se0;
    cands->c[n].rss = s->c.rss0;
    n++;
    for (d = 1; d <= maxd && d <= 3; d++)
        for (k = 0; k < MAXCX && n < FIT_MAX_CANDS; k++) {
            if (!isfinite(s->best[d][k]))
                continue;
            memset(&cands->c[n], 0, sizeof cands->c[n]);
            cands->c[n].nterms = d + 1;
            cands->c[n].cx = k;
            cands->c[n].press = s->best[d][k];
            cands->c[n].se = s->bse[d][k];
            cands->c[n].rss = s->brss[d][k];
            for (j = 0; j < d; j++)
                cands->c[n].term[j + 1] = t[s->bidx[d][k][j]];
            qsort(cands->c[n].term + 1, (size_t)d, sizeof *t, cmp_term);
            n++;
        }
    cands->n = n;
    cands->ss_pe = s->c.ss_pe;
    cands->dof_pe = s->c.dof_pe;
    return n;
}

static int select_1d(const struct fit_point *pts, size_t m, int rel, int prune,
                     struct fit_cands *cands, struct err *err)
{
    struct factor f[MAX_FACTORS];
    struct fit_term t[MAX_FACTORS];
    struct search s;
    struct work w;
    unsigned char allow[MAX_FACTORS];
    int idx[3], cx[MAX_FACTORS], nt, positive = 1, j, k;
    int pmax = (int)m - 1;
    size_t i;
    double st[4];

    for (i = 0; i < m; i++)
        positive &= pts[i].x[0] > 0;
    nt = catalogue(positive, f);
    memset(t, 0, sizeof t);
    for (j = 0; j < nt; j++) {
        t[j].expo[0] = f[j].e;
        t[j].logp[0] = f[j].l;
        cx[j] = factor_cx(f[j].e, f[j].l);
    }
    if (work_init(&w, &s, &s.c, m, nt, err) < 0)
        return -1;
    s.rel = rel;
    s.prune = prune;
    term_table(t, nt, 1, pts, m, s.vals);
    prepare(&s, pts, NULL, nt);
    s.cx = cx;
    s.maxdepth = pmax - 1 < 2 ? pmax - 1 : 2;
    if (s.maxdepth == 2 && 0.5 * nt * (nt - 1) * (double)m > FULL_PAIR_BUDGET) {
        /* Forward screening for many points: only pairs containing one of
         * the best single terms. */
        double crit1[MAX_FACTORS];
        for (j = 0; j < nt; j++) {
            crit1[j] = INFINITY;
            if (s.q[j] != NULL)
                crit1[j] = extend(&s.c, s.c.e0, s.c.h0, s.q[j], s.le[1], s.lh[1], st);
        }
        for (j = 0; j < nt; j++) {
            int better = 0;
            for (k = 0; k < nt; k++)
                better += crit1[k] < crit1[j];
            allow[j] = better < SCREEN_TOP;
        }
        s.allow1 = allow;
    }
    if (s.maxdepth >= 1)
        search_rec(&s, 0, 0, idx);
    /* poly3..6 and inv3..6 stay explicit graph types only. */
    collect(&s, t, s.maxdepth, cands);
    work_free(&w);
    return 0;
}

struct keyed {
    double key;
    size_t i;
};

static int cmp_key(const void *a, const void *b)
{
    const struct keyed *p = a, *q = b;
    if (p->key != q->key)
        return p->key < q->key ? -1 : 1;
    return (p->i > q->i) - (p->i < q->i);
}

/* Two variables: screen the factors of each variable on the slices where the
 * other variable is fixed, then search sums of up to three products. */
static int screen_var(const struct fit_point *pts, size_t m, int rel, int v, int positive,
                      struct factor *out, int *nout, size_t *sel, struct err *err)
{
    struct factor f[MAX_FACTORS];
    struct fit_term tv[MAX_FACTORS];
    int cx[MAX_FACTORS];
    struct search s;
    struct work w;
    struct keyed *keys = NULL;
    double *acc1 = NULL, *acc2 = NULL;
    int nt, j, k, idx[3], slices = 0, rc = -1, pass;
    size_t a, b, i, ns;

    nt = catalogue(positive, f);
    for (j = 0; j < nt; j++)
        cx[j] = factor_cx(f[j].e, f[j].l);
    acc1 = xcalloc((size_t)nt, sizeof *acc1);
    acc2 = xcalloc((size_t)nt * (size_t)nt, sizeof *acc2);
    keys = xmalloc(m * sizeof *keys);
    if (acc1 == NULL || acc2 == NULL || keys == NULL) {
        err_nomem(err);
        goto out;
    }
    if (work_init(&w, &s, &s.c, m, nt, err) < 0)
        goto out;
    s.rel = rel;
    /* Slices: points sharing the other variable's value, as runs of the
     * points sorted by that value. */
    for (i = 0; i < m; i++) {
        keys[i].key = pts[i].x[1 - v];
        keys[i].i = i;
    }
    qsort(keys, m, sizeof *keys, cmp_key);
    memset(tv, 0, sizeof tv);
    for (j = 0; j < nt; j++) {
        tv[j].expo[v] = f[j].e;
        tv[j].logp[v] = f[j].l;
    }
    term_table(tv, nt, 2, pts, m, s.vals);
    s.acc1 = acc1;
    s.acc2 = acc2;
    for (pass = 0; pass < 2 && slices == 0; pass++)
        for (a = 0; a < m; a = b) {
            if (pass == 0) {
                for (b = a + 1; b < m && keys[b].key == keys[a].key; b++)
                    ;
                for (ns = 0, i = a; i < b; i++)
                    sel[ns++] = keys[i].i;
            } else { /* no slice of 4 points: all points, ignoring x[1-v] */
                for (ns = 0; ns < m; ns++)
                    sel[ns] = ns;
                b = m;
            }
            /* A slice of 3 points (a 3 x 3 grid) can still rank single
             * factors; pairs need 4. Without this a small grid fell back to
             * screening all points at once, where the other variable's
             * spread hides the shape (a constant law for N^3 log2 P). */
            if (ns < 3)
                continue;
            s.c.m = ns;
            prepare(&s, pts, sel, nt);
            s.cx = cx;
            if (!(s.c.raw0 > 0))
                continue; /* a constant slice says nothing about the shape */
            s.maxdepth = ns >= 4 ? 2 : 1;
            search_rec(&s, 0, 0, idx);
            slices++;
        }
    /* Factors of the best pair overall, of the best pairs of complexity at
     * most 1 and 0 (the parsimony rule of the final search needs the simple
     * alternatives to be present), then of the best single term. */
    *nout = 0;
    for (k = 0; k < 4 && *nout < FACTORS_2D; k++) {
        double best = INFINITY;
        int bi = -1, bj = -1, maxcx = k == 0 ? MAXCX : k == 1 ? 1 : 0;
        if (k < 3) {
            for (i = 0; i < (size_t)nt * (size_t)nt; i++) {
                int a0 = (int)(i / (size_t)nt), b0 = (int)(i % (size_t)nt);
                if (acc2[i] > 0 && acc2[i] < best && cx[a0] + cx[b0] <= maxcx) {
                    best = acc2[i];
                    bi = a0;
                    bj = b0;
                }
            }
        } else {
            for (j = 0; j < nt; j++)
                if (acc1[j] > 0 && acc1[j] < best) {
                    best = acc1[j];
                    bi = j;
                }
        }
        for (pass = 0; pass < 2; pass++) {
            int c = pass == 0 ? bi : bj, dup = 0;
            if (c < 0 || *nout >= FACTORS_2D)
                continue;
            for (j = 0; j < *nout; j++)
                dup |= out[j].e == f[c].e && out[j].l == f[c].l;
            if (!dup)
                out[(*nout)++] = f[c];
        }
    }
    rc = 0;
    work_free(&w);
out:
    xfree(keys);
    xfree(acc1);
    xfree(acc2);
    return rc;
}

static int select_2d(const struct fit_point *pts, size_t m, int rel, int prune,
                     struct fit_cands *cands, struct err *err)
{
    struct factor fv[2][FACTORS_2D + 1];
    struct fit_term t[(FACTORS_2D + 1) * (FACTORS_2D + 1)];
    int nf[2], v, a, b, nt = 0, idx[3], j, pmax = (int)m - 1;
    int cx[(FACTORS_2D + 1) * (FACTORS_2D + 1)];
    size_t *sel, i;
    struct search s;
    struct work w;

    sel = xmalloc(m * sizeof *sel);
    if (sel == NULL)
        return err_nomem(err);
    for (v = 0; v < 2; v++) {
        int positive = 1;
        for (i = 0; i < m; i++)
            positive &= pts[i].x[v] > 0;
        if (screen_var(pts, m, rel, v, positive, fv[v] + 1, &nf[v], sel, err) < 0) {
            xfree(sel);
            return -1;
        }
        fv[v][0].e = 0;
        fv[v][0].l = 0;
    }
    xfree(sel);
    memset(t, 0, sizeof t);
    for (a = 0; a <= nf[0]; a++)
        for (b = 0; b <= nf[1]; b++) {
            if (a == 0 && b == 0)
                continue;
            t[nt].expo[0] = fv[0][a].e;
            t[nt].logp[0] = fv[0][a].l;
            t[nt].expo[1] = fv[1][b].e;
            t[nt].logp[1] = fv[1][b].l;
            nt++;
        }
    for (j = 0; j < nt; j++)
        cx[j] =
            factor_cx(t[j].expo[0], t[j].logp[0]) + factor_cx(t[j].expo[1], t[j].logp[1]);
    if (work_init(&w, &s, &s.c, m, nt, err) < 0)
        return -1;
    s.rel = rel;
    s.prune = prune;
    term_table(t, nt, 2, pts, m, s.vals);
    prepare(&s, pts, NULL, nt);
    s.cx = cx;
    s.maxdepth = pmax - 1 < 3 ? pmax - 1 : 3;
    if (s.maxdepth >= 1)
        search_rec(&s, 0, 0, idx);
    collect(&s, t, s.maxdepth, cands);
    work_free(&w);
    return 0;
}

static int check_m(size_t m, struct err *err)
{
    if (m < 3)
        return err_set(err, ERR_INVALID, "degenerate", "data",
                       "auto selection needs at least 3 distinct x values (got %zu); "
                       "choose a graph type",
                       m);
    return 0;
}

int fit_search_cands(const struct fit_point *pts, size_t m, int nvars, int rel, int prune,
                     struct fit_cands *out, struct err *err)
{
    if (check_m(m, err) < 0)
        return -1;
    out->n = 0;
    if (nvars == 2)
        return select_2d(pts, m, rel, prune, out, err);
    return select_1d(pts, m, rel, prune, out, err);
}

/* Laws of one term and no constant, y = c f(x) (fit_cand.h): f every factor
 * of the catalogue, with two variables every product of a factor of each
 * or of either alone. Relative least squares in closed form, weights
 * w = n / y^2: c = sum w f y / sum w f^2, leverages w f^2 / sum w f^2, so
 * PRESS needs no factorisation. */
int fit_search_pure(const struct fit_point *pts, size_t m, int nvars,
                    struct fit_cands *cands)
{
    struct factor f[MAX_FACTORS + 1];
    struct fit_cand best[MAXCX];
    double *v, *w;
    int nf, a, b, k, added = 0;
    size_t i;

    for (i = 0; i < m; i++)
        for (a = 0; a < nvars; a++)
            if (!(pts[i].x[a] > 0) || !(pts[i].y > 0))
                return 0;
    if ((v = xmalloc(2 * m * sizeof *v)) == NULL)
        return 0;
    w = v + m; /* the weights n / y^2, the same for every f */
    for (i = 0; i < m; i++)
        w[i] = (double)(pts[i].n > 0 ? pts[i].n : 1) / (pts[i].y * pts[i].y);
    nf = catalogue(1, f);
    f[nf].e = 0; /* the factor 1: with two variables, one variable alone */
    f[nf].l = 0;
    for (k = 0; k < MAXCX; k++)
        best[k].press = INFINITY;
    for (a = 0; a <= nf; a++)
        for (b = nvars == 2 ? 0 : nf; b <= nf; b++) {
            struct fit_term t = {{0}, {0}};
            double swf = 0, sfy = 0, c, press = 0, rss = 0;
            int cx = factor_cx(f[a].e, f[a].l);
            if (a == nf && b == nf)
                continue;
            t.expo[0] = f[a].e;
            t.logp[0] = f[a].l;
            if (nvars == 2) {
                t.expo[1] = f[b].e;
                t.logp[1] = f[b].l;
                cx += factor_cx(f[b].e, f[b].l);
            }
            cx = cx < MAXCX ? cx : MAXCX - 1;
            term_table(&t, 1, nvars, pts, m, v);
            for (i = 0; i < m; i++) {
                swf += w[i] * v[i] * v[i];
                sfy += w[i] * v[i] * pts[i].y;
            }
            if (!(swf > 0) || !isfinite(swf) || !((c = sfy / swf) > 0) || !isfinite(c))
                continue;
            for (i = 0; i < m; i++) {
                double h = w[i] * v[i] * v[i] / swf, e = (pts[i].y - c * v[i]) / pts[i].y;
                if (!(h < 1 - 1e-10)) {
                    press = INFINITY; /* the law goes through the point */
                    break;
                }
                rss += (double)(pts[i].n > 0 ? pts[i].n : 1) * e * e;
                press += e * e / ((1 - h) * (1 - h));
            }
            if (press < best[cx].press) {
                memset(&best[cx], 0, sizeof best[cx]);
                best[cx].term[0] = t;
                best[cx].nterms = 1;
                best[cx].cx = cx;
                best[cx].press = press;
                best[cx].rss = rss;
            }
        }
    xfree(v);
    for (k = 0; k < MAXCX && cands->n < FIT_MAX_CANDS; k++)
        if (isfinite(best[k].press)) {
            cands->c[cands->n++] = best[k];
            added++;
        }
    return added;
}
