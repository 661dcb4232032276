/* trace (core): storing a run's trace with its analyses; see trace.h. */
#include "core/trace.h"

#include "common/arena.h"
#include "common/xalloc.h"
#include "core/fit_json.h"
#include "core/ingest.h"
#include "db/runs.h"
#include "db/trace.h"
#include "formats/formats.h"
#include "formats/limits.h"
#include "formats/trace.h"

#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

static const char *const kind_names[RUN_TRACE_COUNT] = {
    "profile", "wait", "traffic", "load", "timeline", "occupancy", "clusters",
};

const char *run_trace_name(int kind)
{
    return kind >= 0 && kind < RUN_TRACE_COUNT ? kind_names[kind] : NULL;
}

int run_trace_find(const char *name)
{
    int k;
    for (k = 0; name != NULL && k < RUN_TRACE_COUNT; k++)
        if (strcmp(name, kind_names[k]) == 0)
            return k;
    return -1;
}

int run_trace_compute(struct run_trace_set *s, int kind, int width, struct err *err)
{
    const struct trace *t = s->t;
    switch (kind) {
    case RUN_TRACE_PROFILE:
        return s->profile ? 0 : trace_profile(t, &s->profile, err);
    case RUN_TRACE_WAIT:
        return s->wait ? 0 : trace_wait(t, &s->wait, err);
    case RUN_TRACE_TRAFFIC:
        return s->traffic ? 0 : trace_traffic(t, &s->traffic, err);
    case RUN_TRACE_LOAD:
        return s->load ? 0 : trace_load(t, &s->load, err);
    case RUN_TRACE_TIMELINE:
        trace_timeline_free(s->timeline);
        s->timeline = NULL;
        return trace_timeline(t, width, &s->timeline, err);
    case RUN_TRACE_OCCUPANCY:
        return s->occupancy ? 0 : trace_occupancy(t, &s->occupancy, err);
    case RUN_TRACE_CLUSTERS:
        return s->clusters ? 0 : trace_clusters(t, &s->clusters, err);
    default:
        return err_set(err, ERR_NOT_FOUND, "not_found", NULL, "no such trace analysis");
    }
}

void run_trace_set_free(struct run_trace_set *s)
{
    trace_profile_free(s->profile);
    trace_wait_free(s->wait);
    trace_traffic_free(s->traffic);
    trace_load_free(s->load);
    trace_timeline_free(s->timeline);
    trace_occupancy_free(s->occupancy);
    trace_clusters_free(s->clusters);
    s->profile = NULL;
    s->wait = NULL;
    s->traffic = NULL;
    s->load = NULL;
    s->timeline = NULL;
    s->occupancy = NULL;
    s->clusters = NULL;
}

/* ---- answers as JSON ---------------------------------------------------- */

/* A finite number, or 0 (JSON has no NaN; the analyses never make one). */
static json_t *num(double v)
{
    return json_real(isfinite(v) ? v : 0.0);
}

static json_t *dvec(const double *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; a && i < n; i++)
        json_array_append_new(a, num(v[i]));
    return a;
}

static json_t *ivec(const int64_t *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; a && i < n; i++)
        json_array_append_new(a, json_integer((json_int_t)v[i]));
    return a;
}

static json_t *llvec(const long long *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; a && i < n; i++)
        json_array_append_new(a, json_integer((json_int_t)v[i]));
    return a;
}

/* A p x p matrix as rows; rel (when > 0 per row: den[i], or one den) scales. */
static json_t *dmat(const double *m, int p, const double *den_row, double den_all)
{
    json_t *a = json_array();
    for (int i = 0; a && i < p; i++) {
        json_t *row = json_array();
        for (int j = 0; row && j < p; j++) {
            double v = m[(size_t)i * (size_t)p + (size_t)j];
            double d = den_row ? den_row[i] : den_all;
            json_array_append_new(row,
                                  num(d > 0 ? v / d : (den_row || den_all < 0 ? 0 : v)));
        }
        json_array_append_new(a, row);
    }
    return a;
}

static json_t *imat64(const int64_t *m, int p)
{
    json_t *a = json_array();
    for (int i = 0; a && i < p; i++)
        json_array_append_new(a, ivec(m + (size_t)i * (size_t)p, p));
    return a;
}

static json_t *llmat(const long long *m, int p)
{
    json_t *a = json_array();
    for (int i = 0; a && i < p; i++)
        json_array_append_new(a, llvec(m + (size_t)i * (size_t)p, p));
    return a;
}

/* The name of class c in answers: the built-in classes by name, user
 * states by theirs, "NAME (state)" when a state is named like a built-in
 * class (an OTF2 region called "compute"), so that names stay distinct. */
struct label {
    char s[320];
};
static const char *class_name_in(const struct trace *t, int c, struct label *l)
{
    const char *n = trace_class_name(c);
    if (n != NULL)
        return n;
    n = c - TRACE_CLASS_USER < t->nnames ? t->names[c - TRACE_CLASS_USER] : "state";
    for (int b = 0; b < TRACE_CLASS_USER; b++)
        if (strcmp(n, trace_class_name(b)) == 0) {
            snprintf(l->s, sizeof l->s, "%.300s (state)", n);
            return l->s;
        }
    return n;
}
#define class_name(t, c) class_name_in((t), (c), &(struct label){{0}})

char **trace_state_labels(const struct trace *t)
{
    size_t n = t->nnames > 0 ? (size_t)t->nnames : 0, room = 0, at;
    struct label l;
    char **out, *s;

    for (size_t i = 0; i < n; i++)
        room += strlen(class_name_in(t, TRACE_CLASS_USER + (int)i, &l)) + 1;
    out = xmalloc((n + 1) * sizeof *out + room);
    if (out == NULL)
        return NULL;
    s = (char *)(out + n + 1);
    for (size_t i = 0; i < n; i++, s += at) {
        const char *name = class_name_in(t, TRACE_CLASS_USER + (int)i, &l);
        at = strlen(name) + 1;
        memcpy(s, name, at);
        out[i] = s;
    }
    out[n] = NULL;
    return out;
}

static json_t *class_names(const struct trace *t)
{
    json_t *a = json_array();
    for (int c = 0; a && c < trace_nclasses(t); c++)
        json_array_append_new(a, json_string(class_name(t, c)));
    return a;
}

static json_t *profile_json(const struct trace *t, const struct trace_profile *p)
{
    json_t *ranks = json_array(), *routines = json_array();
    for (int op = 1; op < TRACE_OP_COUNT; op++) {
        int used = 0;
        for (int i = 0; i < p->nranks; i++)
            used |= p->calls[(size_t)i * TRACE_OP_COUNT + (size_t)op] > 0;
        if (used)
            json_array_append_new(routines, json_string(trace_op_name(op)));
    }
    for (int i = 0; i < p->nranks; i++) {
        json_t *time = json_object(), *calls = json_object(), *cls = json_object();
        const double *ci = &p->cls[(size_t)i * (size_t)p->nclasses];
        for (int op = 1; op < TRACE_OP_COUNT; op++) {
            size_t at = (size_t)i * TRACE_OP_COUNT + (size_t)op;
            if (p->calls[at] == 0)
                continue;
            json_object_set_new(time, trace_op_name(op), num(p->time[at]));
            json_object_set_new(calls, trace_op_name(op), json_integer(p->calls[at]));
        }
        /* the seconds in each class the rank was in (the time per state
         * of a trace without MPI calls) */
        for (int c = 0; c < p->nclasses; c++)
            if (ci[c] != 0)
                json_object_set_new(cls, class_name(t, c), num(ci[c]));
        json_array_append_new(ranks,
                              json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o}", "rank", i,
                                        "exec", num(p->exec[i]), "mpi", num(p->mpi[i]),
                                        "compute", num(p->compute[i]), "time", time,
                                        "calls", calls, "classes", cls));
    }
    return json_pack("{s:i, s:o, s:o}", "nranks", p->nranks, "routines", routines,
                     "ranks", ranks);
}

/* The dense p x p matrices of traces up to LIMIT_TRACE_DENSE_RANKS ranks,
 * answered as they always were (sparse pairs filled into zeros). */
static double *dense_wait(const struct trace_wait *w)
{
    size_t p = (size_t)w->nranks;
    double *m = xcalloc(p * p, sizeof *m);
    for (size_t k = 0; m && k < w->npairs; k++)
        m[(size_t)w->pairs[k].i * p + (size_t)w->pairs[k].j] = w->pairs[k].s;
    return m;
}

struct dense_flows {
    long long *msgs;
    int64_t *bytes;
    double *rate;
};

static int dense_flows(const struct trace_flow *f, size_t n, int p, struct dense_flows *d)
{
    size_t pp = (size_t)p * (size_t)p;
    d->msgs = xcalloc(pp, sizeof *d->msgs);
    d->bytes = xcalloc(pp, sizeof *d->bytes);
    d->rate = xcalloc(pp, sizeof *d->rate);
    if (!d->msgs || !d->bytes || !d->rate)
        return -1;
    for (size_t k = 0; k < n; k++) {
        size_t at = (size_t)f[k].i * (size_t)p + (size_t)f[k].j;
        d->msgs[at] = f[k].msgs;
        d->bytes[at] = f[k].bytes;
        d->rate[at] = f[k].rate;
    }
    return 0;
}

static void dense_flows_free(struct dense_flows *d)
{
    xfree(d->msgs);
    xfree(d->bytes);
    xfree(d->rate);
}

static int wait_desc(const void *a, const void *b)
{
    const struct trace_wait_pair *x = a, *y = b;
    if (x->s != y->s)
        return x->s > y->s ? -1 : 1;
    if (x->i != y->i)
        return x->i < y->i ? -1 : 1;
    return x->j < y->j ? -1 : x->j > y->j;
}

static int flow_desc(const void *a, const void *b)
{
    const struct trace_flow *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes > y->bytes ? -1 : 1;
    if (x->msgs != y->msgs)
        return x->msgs > y->msgs ? -1 : 1;
    if (x->i != y->i)
        return x->i < y->i ? -1 : 1;
    return x->j < y->j ? -1 : x->j > y->j;
}

/* Over LIMIT_TRACE_DENSE_RANKS ranks: the pairs, largest wait first, at most
 * LIMIT_TRACE_PAIRS of them, each [i, j, wait, relative to exec[i],
 * relative to the total]; the rest as "other". */
static json_t *wait_pairs_json(const struct trace_wait *w)
{
    size_t n = w->npairs, shown = n < LIMIT_TRACE_PAIRS ? n : LIMIT_TRACE_PAIRS;
    struct trace_wait_pair *q = xmalloc((n ? n : 1) * sizeof *q);
    json_t *pairs = json_array(), *out = NULL;
    double rest = 0;

    if (q == NULL || pairs == NULL)
        goto out;
    memcpy(q, w->pairs, n * sizeof *q);
    if (n > 1)
        qsort(q, n, sizeof *q, wait_desc);
    for (size_t k = 0; k < shown; k++) {
        double e = w->exec[q[k].i];
        if (json_array_append_new(
                pairs, json_pack("[i, i, o, o, o]", q[k].i, q[k].j, num(q[k].s),
                                 num(e > 0 ? q[k].s / e : 0),
                                 num(w->total > 0 ? q[k].s / w->total : 0))) != 0)
            goto out;
    }
    for (size_t k = shown; k < n; k++)
        rest += q[k].s;
    out = json_pack("{s:i, s:I, s:O, s:{s:I, s:o}, s:o, s:o, s:o, s:I}", "nranks",
                    w->nranks, "npairs", (json_int_t)n, "pairs", pairs, "other", "pairs",
                    (json_int_t)(n - shown), "wait", num(rest), "rank_wait",
                    dvec(w->rank_wait, w->nranks), "exec", dvec(w->exec, w->nranks),
                    "total", num(w->total), "unmatched", (json_int_t)w->unmatched);
out:
    json_decref(pairs);
    xfree(q);
    return out;
}

static json_t *wait_json(const struct trace_wait *w)
{
    int p = w->nranks;
    double *m;
    json_t *j;
    if (p > LIMIT_TRACE_DENSE_RANKS)
        return wait_pairs_json(w);
    if ((m = dense_wait(w)) == NULL)
        return NULL;
    j = json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:I}", "nranks", p, "wait",
                  dmat(m, p, NULL, 0), "relative_exec", dmat(m, p, w->exec, 0),
                  "relative_total", dmat(m, p, NULL, w->total > 0 ? w->total : -1),
                  "rank_wait", dvec(w->rank_wait, p), "exec", dvec(w->exec, p), "total",
                  num(w->total), "unmatched", (json_int_t)w->unmatched);
    xfree(m);
    return j;
}

/* The flows of one kind, largest bytes first (at most LIMIT_TRACE_PAIRS;
 * [i, j, msgs, bytes] and the rate for point-to-point), with "npairs" and
 * the rest as "other". */
static json_t *flows_json(const struct trace_flow *f, size_t n, int rate)
{
    size_t shown = n < LIMIT_TRACE_PAIRS ? n : LIMIT_TRACE_PAIRS;
    struct trace_flow *q = xmalloc((n ? n : 1) * sizeof *q);
    json_t *pairs = json_array(), *out = NULL;
    long long msgs = 0;
    int64_t bytes = 0;

    if (q == NULL || pairs == NULL)
        goto out;
    memcpy(q, f, n * sizeof *q);
    if (n > 1)
        qsort(q, n, sizeof *q, flow_desc);
    for (size_t k = 0; k < shown; k++) {
        json_t *e = json_pack("[i, i, I, I]", q[k].i, q[k].j, (json_int_t)q[k].msgs,
                              (json_int_t)q[k].bytes);
        if (e != NULL && rate)
            json_array_append_new(e, num(q[k].rate));
        if (json_array_append_new(pairs, e) != 0)
            goto out;
    }
    for (size_t k = shown; k < n; k++) {
        msgs += q[k].msgs;
        bytes += q[k].bytes;
    }
    out = json_pack("{s:I, s:O, s:{s:I, s:I, s:I}}", "npairs", (json_int_t)n, "pairs",
                    pairs, "other", "pairs", (json_int_t)(n - shown), "msgs",
                    (json_int_t)msgs, "bytes", (json_int_t)bytes);
out:
    json_decref(pairs);
    xfree(q);
    return out;
}

static json_t *traffic_json(const struct trace_traffic *tr)
{
    int p = tr->nranks;
    struct dense_flows d = {0}, c = {0};
    json_t *j = NULL;

    if (p > LIMIT_TRACE_DENSE_RANKS) {
        /* per rank, the point-to-point bytes sent and received: exact
         * whatever the pairs listed */
        int64_t *sent = xcalloc((size_t)p, sizeof *sent);
        int64_t *recv = xcalloc((size_t)p, sizeof *recv);
        json_t *coll = flows_json(tr->coll, tr->ncoll, 0);
        json_t *pp = flows_json(tr->p2p, tr->np2p, 1);
        if (coll != NULL) {
            json_object_set_new(coll, "calls", llvec(tr->coll_calls, p));
            json_object_set_new(coll, "sent", ivec(tr->coll_sent, p));
        }
        if (pp != NULL && sent != NULL && recv != NULL) {
            for (size_t k = 0; k < tr->np2p; k++) {
                sent[tr->p2p[k].i] += tr->p2p[k].bytes;
                recv[tr->p2p[k].j] += tr->p2p[k].bytes;
            }
            json_object_set_new(pp, "sent", ivec(sent, p));
            json_object_set_new(pp, "received", ivec(recv, p));
        } else {
            json_decref(pp);
            pp = NULL;
        }
        xfree(sent);
        xfree(recv);
        return json_pack("{s:i, s:o, s:o}", "nranks", p, "p2p", pp, "collective", coll);
    }
    if (dense_flows(tr->p2p, tr->np2p, p, &d) == 0 &&
        dense_flows(tr->coll, tr->ncoll, p, &c) == 0)
        j = json_pack("{s:i, s:{s:o, s:o, s:o}, s:{s:o, s:o, s:o, s:o}}", "nranks", p,
                      "p2p", "msgs", llmat(d.msgs, p), "bytes", imat64(d.bytes, p),
                      "rate", dmat(d.rate, p, NULL, 0), "collective", "msgs",
                      llmat(c.msgs, p), "bytes", imat64(c.bytes, p), "calls",
                      llvec(tr->coll_calls, p), "sent", ivec(tr->coll_sent, p));
    dense_flows_free(&d);
    dense_flows_free(&c);
    return j;
}

static json_t *load_json(const struct trace_load *l)
{
    return json_pack("{s:i, s:o, s:o, s:o, s:o, s:I}", "nranks", l->nranks, "compute",
                     dvec(l->compute, l->nranks), "comm", dvec(l->comm, l->nranks),
                     "compute_imbalance", num(l->compute_imbalance), "comm_imbalance",
                     num(l->comm_imbalance), "mpi_calls", (json_int_t)l->mpi_calls);
}

/* Each rank's pixels as runs [class, first pixel, pixels] (-1: ended). */
static json_t *timeline_json(const struct trace *t, const struct trace_timeline *tl)
{
    json_t *ranks = json_array();
    for (int r = 0; ranks && r < tl->nranks; r++) {
        const int16_t *row = &tl->cls[(size_t)r * (size_t)tl->width];
        json_t *runs = json_array();
        for (int x = 0; runs && x < tl->width;) {
            int x1 = x + 1;
            while (x1 < tl->width && row[x1] == row[x])
                x1++;
            json_array_append_new(runs, json_pack("[i, i, i]", row[x], x, x1 - x));
            x = x1;
        }
        json_array_append_new(ranks, runs);
    }
    return json_pack("{s:i, s:i, s:o, s:o, s:o}", "nranks", tl->nranks, "width",
                     tl->width, "span", num(tl->span), "classes", class_names(t), "ranks",
                     ranks);
}

static json_t *occupancy_json(const struct trace *t, const struct trace_occupancy *o)
{
    json_t *mean = json_object(), *frac = json_object(), *rows = json_array();
    size_t shown = o->nrows < LIMIT_TRACE_TABLE_ROWS ? o->nrows : LIMIT_TRACE_TABLE_ROWS;
    for (int c = 0; c < o->nclasses; c++) {
        json_object_set_new(mean, class_name(t, c), num(o->mean[c]));
        json_object_set_new(frac, class_name(t, c), num(o->fraction[c]));
    }
    for (size_t i = 0; rows && i < shown; i++) {
        json_t *count = json_array();
        for (int c = 0; count && c < o->nclasses; c++)
            json_array_append_new(
                count, json_integer(o->count[i * (size_t)o->nclasses + (size_t)c]));
        json_array_append_new(rows, json_pack("{s:o, s:o}", "count", count, "duration",
                                              num(o->duration[i])));
    }
    return json_pack("{s:i, s:o, s:o, s:o, s:o, s:I, s:o}", "nranks", o->nranks,
                     "classes", class_names(t), "span", num(o->span), "mean", mean,
                     "fraction", frac, "nrows", (json_int_t)o->nrows, "rows", rows);
}

static const char *dim_name(const struct trace *t, int d, struct label *l)
{
    if (d < TRACE_OP_COUNT - 1)
        return trace_op_name(d + 1);
    return class_name_in(t, d - (TRACE_OP_COUNT - 1), l);
}

/* The dimensions listed: every routine of format versions 1 and 2 and every
 * class, a routine added since only when some rank spent time in it (so an
 * old trace answers as it did). */
static int dim_listed(const struct trace_clusters *c, int d)
{
    if (d >= TRACE_OP_COUNT - 1 || d + 1 < TRACE_OP_COUNT_V2)
        return 1;
    for (int r = 0; r < c->nranks; r++)
        if (c->x[(size_t)r * (size_t)c->ndims_all + (size_t)d] != 0)
            return 1;
    return 0;
}

static json_t *clusters_json(const struct trace *t, const struct trace_clusters *c)
{
    json_t *dims = json_array(), *main = json_array(), *ranks = json_array();
    struct label l;
    char listed[TRACE_OP_COUNT + TRACE_CLASS_USER + LIMIT_TRACE_NAMES];
    for (int d = 0; d < c->ndims_all; d++)
        listed[d] = (char)dim_listed(c, d);
    for (int d = 0; d < c->ndims_all; d++)
        if (listed[d])
            json_array_append_new(dims, json_string(dim_name(t, d, &l)));
    for (int d = 0; d < c->ndims; d++)
        json_array_append_new(main, json_string(dim_name(t, c->dims[d], &l)));
    for (int r = 0; r < c->nranks; r++) {
        json_t *x = json_array();
        for (int d = 0; x && d < c->ndims_all; d++)
            if (listed[d])
                json_array_append_new(
                    x, num(c->x[(size_t)r * (size_t)c->ndims_all + (size_t)d]));
        json_array_append_new(ranks, json_pack("{s:i, s:i, s:o}", "rank", r, "cluster",
                                               c->label[r], "x", x));
    }
    return json_pack("{s:i, s:i, s:o, s:o, s:o, s:o}", "nranks", c->nranks, "k", c->k,
                     "silhouette", num(c->silhouette), "dimensions", dims, "main", main,
                     "ranks", ranks);
}

/* The timeline straight into text, byte for byte as json_dumps writes
 * timeline_json's value: a Jansson array per run took about 170 bytes each,
 * 250 MB for 4,096 ranks of busy timelines at 800 pixels (and ten times that
 * at ?width=10000). The head (nranks, width, span, classes) goes through
 * Jansson; the runs are integers. */
static int timeline_text(const struct trace *t, const struct trace_timeline *tl,
                         struct buf *b)
{
    json_t *head = json_pack("{s:i, s:i, s:o, s:o}", "nranks", tl->nranks, "width",
                             tl->width, "span", num(tl->span), "classes", class_names(t));
    char *h = head ? json_dumps(head, JSON_COMPACT | JSON_REAL_PRECISION(17)) : NULL;
    size_t n = h ? strlen(h) : 0;

    json_decref(head);
    if (n < 2) {
        xfree(h);
        return -1;
    }
    buf_append(b, h, n - 1); /* without its '}' */
    xfree(h);
    buf_puts(b, ",\"ranks\":[");
    for (int r = 0; r < tl->nranks && !buf_failed(b); r++) {
        const int16_t *row = &tl->cls[(size_t)r * (size_t)tl->width];
        if (r > 0)
            buf_putc(b, ',');
        buf_putc(b, '[');
        for (int x = 0; x < tl->width;) {
            int x1 = x + 1;
            while (x1 < tl->width && row[x1] == row[x])
                x1++;
            buf_printf(b, "%s[%d,%d,%d]", x > 0 ? "," : "", row[x], x, x1 - x);
            x = x1;
        }
        buf_putc(b, ']');
    }
    buf_puts(b, "]}");
    return 0;
}

int run_trace_text(const struct run_trace_set *s, int kind, struct buf *out,
                   struct err *err)
{
    if (kind == RUN_TRACE_TIMELINE && s->timeline != NULL) {
        if (timeline_text(s->t, s->timeline, out) != 0)
            return err_nomem(err);
    } else {
        json_t *j = run_trace_json(s, kind);
        char *d = j ? json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(17)) : NULL;
        json_decref(j);
        if (d == NULL)
            return err_nomem(err);
        buf_append(out, d, strlen(d));
        xfree(d);
    }
    if (buf_failed(out) == BUF_TOOBIG)
        return err_set(err, ERR_TOO_LARGE, "too_large", NULL,
                       "the %s answer is larger than %zu MiB", run_trace_name(kind),
                       out->max >> 20);
    if (buf_failed(out))
        return err_nomem(err);
    return 0;
}

json_t *run_trace_json(const struct run_trace_set *s, int kind)
{
    switch (kind) {
    case RUN_TRACE_PROFILE:
        return s->profile ? profile_json(s->t, s->profile) : NULL;
    case RUN_TRACE_WAIT:
        return s->wait ? wait_json(s->wait) : NULL;
    case RUN_TRACE_TRAFFIC:
        return s->traffic ? traffic_json(s->traffic) : NULL;
    case RUN_TRACE_LOAD:
        return s->load ? load_json(s->load) : NULL;
    case RUN_TRACE_TIMELINE:
        return s->timeline ? timeline_json(s->t, s->timeline) : NULL;
    case RUN_TRACE_OCCUPANCY:
        return s->occupancy ? occupancy_json(s->t, s->occupancy) : NULL;
    case RUN_TRACE_CLUSTERS:
        return s->clusters ? clusters_json(s->t, s->clusters) : NULL;
    default:
        return NULL;
    }
}

/* ---- arrival -------------------------------------------------------------- */

void run_trace_upload_free(struct run_trace_upload *up)
{
    for (int k = 0; k < RUN_TRACE_COUNT; k++) {
        xfree(up->answer[k]);
        xfree(up->svg[k]);
        up->answer[k] = up->svg[k] = NULL;
    }
    trace_free(up->t);
    up->t = NULL;
}

int run_trace_analyse(struct run_trace_upload *up, run_trace_draw_fn draw,
                      struct err *err)
{
    struct run_trace_set s = {0};
    struct buf svg, txt;
    int k;

    s.t = up->t;
    buf_init(&svg, RUN_TRACE_TEXT_MAX);
    buf_init(&txt, RUN_TRACE_TEXT_MAX);
    for (k = 0; k < RUN_TRACE_COUNT; k++) {
        size_t len;
        if (run_trace_compute(&s, k, RUN_TRACE_WIDTH, err) != 0 ||
            run_trace_text(&s, k, &txt, err) != 0)
            goto fail;
        if ((up->answer[k] = buf_detach(&txt, &len)) == NULL) {
            err_nomem(err);
            goto fail;
        }
        buf_reset(&svg);
        if (draw(&s, k, &svg, err) != 0)
            goto fail;
        up->svg[k] = xstrndup(svg.data ? svg.data : "", svg.len);
        if (up->svg[k] == NULL) {
            err_nomem(err);
            goto fail;
        }
        /* each analysis is dropped once stored as text: the peak is the
         * largest one's, not their sum */
        run_trace_set_free(&s);
    }
    buf_free(&svg);
    buf_free(&txt);
    run_trace_set_free(&s);
    return 0;
fail:
    buf_free(&svg);
    buf_free(&txt);
    run_trace_set_free(&s);
    return -1;
}

static long long count_events(const struct trace *t)
{
    long long n = 0;
    for (int r = 0; r < t->nranks; r++)
        n += (long long)t->ranks[r].nevents;
    return n;
}

/* The rank a checked trace file names (header offset 12, little-endian). */
static int file_rank(const unsigned char *b)
{
    return (int)((uint32_t)b[12] | (uint32_t)b[13] << 8 | (uint32_t)b[14] << 16 |
                 (uint32_t)b[15] << 24);
}

static const char *base_name(const char *s)
{
    const char *slash = strrchr(s, '/');
    return slash ? slash + 1 : s;
}

static int too_many_ranks(size_t nfiles, struct err *err)
{
    return err_set(err, ERR_TOO_LARGE, "too_large", NULL,
                   "a trace has at most %d rank files, the archive holds %zu",
                   LIMIT_TRACE_RANKS, nfiles);
}

int run_trace_from_tar(struct run_trace_upload *up, long long run_id, const char *data,
                       size_t len, arena *a, run_trace_draw_fn draw, struct err *err)
{
    return run_trace_from_archive(up, run_id, data, len, NULL, a, draw, err);
}

int run_trace_from_archive(struct run_trace_upload *up, long long run_id,
                           const char *data, size_t len, struct fmt_file *doc, arena *a,
                           run_trace_draw_fn draw, struct err *err)
{
    struct fmt_file *files;
    size_t nfiles, i;
    const void **bufs;
    size_t *lens;
    unsigned long long total = 0;

    memset(up, 0, sizeof *up);
    up->run_id = run_id;
    if ((unsigned long long)len > LIMIT_TRACE_BYTES + (LIMIT_TRACE_RANKS + 2ull) * 1024)
        return err_set(err, ERR_TOO_LARGE, "too_large", NULL,
                       "a trace is at most %llu bytes",
                       (unsigned long long)LIMIT_TRACE_BYTES);
    if (fmt_tar_read(data, len, a, &files, &nfiles, err) != 0) {
        /* the archive's fault is the trace's: one code for every refusal */
        err->status = ERR_INVALID;
        snprintf(err->code, sizeof err->code, "invalid_trace");
        return -1;
    }
    if (nfiles == 0)
        return err_set(err, ERR_INVALID, "invalid_trace", NULL,
                       "the archive holds no trace.RANK file");
    /* run.json, when one is expected, is not a rank file: the rank files
     * are counted once it is set apart */
    if (nfiles > LIMIT_TRACE_RANKS + (doc != NULL ? 1u : 0u))
        return too_many_ranks(nfiles - (doc != NULL ? 1u : 0u), err);
    bufs = arena_alloc(a, nfiles * sizeof *bufs);
    lens = arena_alloc(a, nfiles * sizeof *lens);
    up->ranks = arena_alloc(a, nfiles * sizeof *up->ranks);
    up->lens = arena_alloc(a, nfiles * sizeof *up->lens);
    if (bufs == NULL || lens == NULL || up->ranks == NULL || up->lens == NULL)
        return err_nomem(err);
    if (doc != NULL) {
        /* the run document travels as run.json, once */
        size_t k = 0;
        memset(doc, 0, sizeof *doc);
        for (i = 0; i < nfiles; i++) {
            if (strcmp(base_name(files[i].name), "run.json") != 0) {
                files[k++] = files[i];
                continue;
            }
            if (doc->name != NULL)
                return err_set(err, ERR_INVALID, "invalid_trace", files[i].name,
                               "the archive holds run.json twice");
            *doc = files[i];
        }
        if (doc->name == NULL)
            return err_set(err, ERR_INVALID, "invalid_trace", NULL,
                           "the archive holds no run.json (the run document)");
        nfiles = k;
        if (nfiles == 0)
            return err_set(err, ERR_INVALID, "invalid_trace", NULL,
                           "the archive holds no trace.RANK file");
        if (nfiles > LIMIT_TRACE_RANKS)
            return too_many_ranks(nfiles, err);
    }
    for (i = 0; i < nfiles; i++) {
        const char *b = base_name(files[i].name), *end;
        if (strncmp(b, "trace.", 6) != 0 || b[6] < '0' || b[6] > '9' ||
            (end = b + 6 + strspn(b + 6, "0123456789"), *end != '\0'))
            return err_set(err, ERR_INVALID, "invalid_trace", files[i].name,
                           "%s is not a trace file: the archive must hold only the "
                           "recorder's trace.RANK files",
                           files[i].name);
        bufs[i] = files[i].data;
        lens[i] = files[i].len;
        total += files[i].len;
    }
    if (total > LIMIT_TRACE_BYTES)
        return err_set(err, ERR_TOO_LARGE, "too_large", NULL,
                       "a trace is at most %llu bytes",
                       (unsigned long long)LIMIT_TRACE_BYTES);
    if (trace_parse(bufs, lens, (int)nfiles, &up->t, err) != 0)
        return -1;
    /* trace_parse checked that the files name the ranks 0..n-1 once each. */
    for (i = 0; i < nfiles; i++) {
        int r = file_rank((const unsigned char *)bufs[i]);
        up->ranks[r] = bufs[i];
        up->lens[r] = lens[i];
    }
    up->nranks = (int)nfiles;
    up->nevents = count_events(up->t);
    up->bytes = (size_t)total;
    if (run_trace_analyse(up, draw, err) != 0) {
        run_trace_upload_free(up);
        return -1;
    }
    return 0;
}

int run_trace_from_trace(struct run_trace_upload *up, long long run_id, struct trace *t,
                         arena *a, run_trace_draw_fn draw, struct err *err)
{
    memset(up, 0, sizeof *up);
    up->run_id = run_id;
    up->t = t;
    up->nranks = t->nranks;
    up->ranks = arena_alloc(a, (size_t)t->nranks * sizeof *up->ranks);
    up->lens = arena_alloc(a, (size_t)t->nranks * sizeof *up->lens);
    if (up->ranks == NULL || up->lens == NULL) {
        run_trace_upload_free(up);
        return err_nomem(err);
    }
    for (int r = 0; r < t->nranks; r++) {
        unsigned char *b;
        size_t n;
        void *copy;
        if (trace_encode(t, r, &b, &n, err) != 0) {
            run_trace_upload_free(up);
            return -1;
        }
        copy = arena_alloc(a, n);
        if (copy != NULL)
            memcpy(copy, b, n);
        xfree(b);
        if (copy == NULL) {
            run_trace_upload_free(up);
            return err_nomem(err);
        }
        up->ranks[r] = copy;
        up->lens[r] = n;
        up->bytes += n;
    }
    /* What is stored must read back: check the encoding with the reader,
     * and analyse what it reads. */
    {
        struct trace *checked;
        if (trace_parse(up->ranks, up->lens, t->nranks, &checked, err) != 0) {
            run_trace_upload_free(up);
            return -1;
        }
        trace_free(up->t);
        up->t = checked;
    }
    up->nevents = count_events(up->t);
    if (run_trace_analyse(up, draw, err) != 0) {
        run_trace_upload_free(up);
        return -1;
    }
    return 0;
}

/* A trace is of its run: at least one rank per process (a 2-rank trace for
 * a 64-process run was stored, and every analysis of it was wrong); more
 * ranks than processes are the threads of a threaded trace (OTF2 locations,
 * Trace Event pid/tid pairs). 0, or -1 with an ERR_INVALID (ERR_NOT_FOUND for an unknown
 * run). */
static int ranks_match_run(db *d, const struct run_trace_upload *up, struct err *err)
{
    struct db_run_row row;
    arena *a = arena_new();
    int rc;
    if (a == NULL)
        return err_nomem(err);
    rc = db_run_get(d, up->run_id, a, &row, err);
    if (rc == 0)
        err_set(err, ERR_NOT_FOUND, "not_found", NULL, "no run %lld", up->run_id);
    else if (rc > 0 && (long long)up->nranks < row.run.nprocs)
        err_set(err, ERR_INVALID, "invalid", "trace",
                "the trace has %d ranks but run %lld ran on %lld processes", up->nranks,
                up->run_id, row.run.nprocs);
    else if (rc > 0)
        rc = 0;
    arena_free(a);
    return rc == 0 && err->status == 0 ? 0 : -1;
}

int run_trace_store(db *d, void *arg, struct err *err)
{
    struct run_trace_upload *up = arg;
    struct db_trace_analysis an[RUN_TRACE_COUNT];
    struct db_trace_info info = {0};
    double span = 0;

    if (ranks_match_run(d, up, err) != 0)
        return -1;

    for (int r = 0; r < up->t->nranks; r++)
        if (up->t->ranks[r].t_end > span)
            span = up->t->ranks[r].t_end;
    info.run_id = up->run_id;
    info.nranks = up->nranks;
    info.nevents = up->nevents;
    info.span = span;
    info.dropped = up->t->dropped;
    info.bytes = (long long)up->bytes;
    info.analysed = RUN_TRACE_VERSION;
    for (int k = 0; k < RUN_TRACE_COUNT; k++) {
        an[k].name = kind_names[k];
        an[k].answer = up->answer[k];
        an[k].svg = up->svg[k];
    }
    return db_trace_insert(d, &info, up->ranks, up->lens, an, RUN_TRACE_COUNT, err);
}

int run_trace_store_uid(db *d, const char *uid, struct run_trace_upload *up, int *existed,
                        struct err *err)
{
    long long id;
    int rc = db_trace_run_by_uid(d, uid, &id, err);

    *existed = 0;
    if (rc <= 0) {
        if (rc == 0)
            err_set(err, ERR_NOT_FOUND, "not_found", NULL, "no run with client id %.80s",
                    uid);
        return -1;
    }
    if ((rc = db_trace_info(d, id, NULL, NULL, err)) != 0) {
        *existed = rc > 0;
        return rc < 0 ? -1 : 0; /* already traced: an import repeated */
    }
    up->run_id = id;
    return run_trace_store(d, up, err);
}

int run_trace_import(db *d, const char *uid, struct trace *t, arena *a,
                     run_trace_draw_fn draw, struct err *err)
{
    struct run_trace_upload up;
    long long id;
    int rc = db_trace_run_by_uid(d, uid, &id, err), existed;

    if (rc <= 0) {
        trace_free(t);
        if (rc == 0)
            err_set(err, ERR_NOT_FOUND, "not_found", NULL, "no run with client id %.80s",
                    uid);
        return -1;
    }
    if ((rc = db_trace_info(d, id, NULL, NULL, err)) != 0) {
        trace_free(t);
        return rc < 0 ? -1 : 0; /* already traced: an import repeated */
    }
    if (run_trace_from_trace(&up, id, t, a, draw, err) != 0)
        return -1;
    rc = run_trace_store_uid(d, uid, &up, &existed, err);
    run_trace_upload_free(&up);
    return rc;
}

int run_trace_bundle_job(db *d, void *arg, struct err *err)
{
    struct run_trace_bundle *b = arg;
    int rc;
    if (ingest_store(d, &b->in, err) != 0)
        return -1;
    b->up.run_id = b->in.ids[0];
    rc = db_trace_info(d, b->up.run_id, NULL, NULL, err);
    if (rc < 0)
        return -1;
    b->trace_existed = rc == 1;
    if (b->trace_existed && b->in.existed[0])
        return 0; /* the same run and a trace again: nothing new */
    if (b->trace_existed)
        return err_set(err, ERR_CONFLICT, "conflict", NULL,
                       "run %lld already has a trace", b->up.run_id);
    return run_trace_store(d, &b->up, err);
}

/* ---- reading -------------------------------------------------------------- */

int run_trace_exists(db *d, long long run_id, struct err *err)
{
    return db_trace_info(d, run_id, NULL, NULL, err);
}

int run_trace_info(db *d, long long run_id, arena *a, struct db_trace_info *out,
                   struct err *err)
{
    int rc = db_trace_info(d, run_id, a, out, err);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", NULL, "run %lld has no trace",
                       run_id);
    return 0;
}

int run_trace_stored(db *d, long long run_id, int kind, int svg, arena *a,
                     const char **text, size_t *len, struct err *err)
{
    int rc;
    if (run_trace_name(kind) == NULL)
        return err_set(err, ERR_NOT_FOUND, "not_found", NULL, "no such trace analysis");
    rc = db_trace_analysis(d, run_id, kind_names[kind], svg, a, text, len, err);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", NULL, "run %lld has no trace",
                       run_id);
    return 0;
}

int run_trace_load(db *d, long long run_id, arena *a, struct trace **t, struct err *err)
{
    const void **ranks;
    size_t *lens;
    int n, rc = db_trace_ranks(d, run_id, a, &ranks, &lens, &n, err);
    *t = NULL;
    if (rc < 0)
        return -1;
    if (rc == 0)
        return err_set(err, ERR_NOT_FOUND, "not_found", NULL, "run %lld has no trace",
                       run_id);
    if (trace_parse(ranks, lens, n, t, err) != 0) {
        /* What was checked on the way in no longer reads: damage. */
        err->status = ERR_INTERNAL;
        return -1;
    }
    return 0;
}

/* ---- Lyon's estimator across runs ----------------------------------------- */

json_t *run_trace_occupancy_fit(db *d, const char *application, const char *x,
                                const char *graph, arena *a, struct err *err)
{
    struct db_trace_run *rows;
    int n = db_trace_runs_of_app(d, application, strcmp(x, "nprocs") ? x : NULL,
                                 LIMIT_TRACE_FIT_RUNS, a, &rows, err);
    json_t *classes, *states, *out = NULL;
    double *xs = NULL, *frac = NULL;
    int used = 0, stride = 0;

    if (n < 0)
        return NULL;
    if (n == 0) {
        err_set(err, ERR_NOT_FOUND, "not_found", NULL, "application %s has no traced run",
                application);
        return NULL;
    }
    classes = json_array();
    xs = xcalloc((size_t)n, sizeof *xs);
    /* Fractions by class name: user states differ between runs, so the
     * columns are the union of names, in first-seen order. */
    frac = xcalloc((size_t)n * (TRACE_CLASS_USER + LIMIT_TRACE_NAMES), sizeof *frac);
    if (classes == NULL || xs == NULL || frac == NULL) {
        err_nomem(err);
        goto done;
    }
    stride = TRACE_CLASS_USER + LIMIT_TRACE_NAMES;
    for (int c = 0; c < TRACE_CLASS_USER; c++)
        json_array_append_new(classes, json_string(trace_class_name(c)));
    for (int i = 0; i < n; i++) {
        const char *text;
        size_t len;
        json_t *occ, *fr, *v;
        const char *key;
        double xv =
            x && strcmp(x, "nprocs") == 0 ? (double)rows[i].nprocs : rows[i].input;
        if (!isfinite(xv))
            continue;
        if (run_trace_stored(d, rows[i].run_id, RUN_TRACE_OCCUPANCY, 0, a, &text, &len,
                             err) != 0)
            goto done;
        occ = json_loadb(text, len, 0, NULL);
        fr = json_object_get(occ, "fraction");
        if (!json_is_object(fr)) {
            json_decref(occ);
            err_set(err, ERR_INTERNAL, "database", NULL,
                    "a stored occupancy answer is damaged");
            goto done;
        }
        for (int c = 0; c < stride; c++)
            frac[(size_t)used * (size_t)stride + (size_t)c] = 0;
        json_object_foreach(fr, key, v)
        {
            size_t c, nc = json_array_size(classes);
            for (c = 0; c < nc; c++)
                if (strcmp(json_string_value(json_array_get(classes, c)), key) == 0)
                    break;
            if (c == nc) {
                if (nc >= (size_t)stride)
                    continue;
                json_array_append_new(classes, json_string(key));
            }
            frac[(size_t)used * (size_t)stride + c] = json_number_value(v);
        }
        json_decref(occ);
        xs[used++] = xv;
    }
    states = json_array();
    for (size_t c = 0; states && c < json_array_size(classes); c++) {
        struct fit_result fr;
        struct err fe = {0};
        json_t *pts = json_array(), *row;
        for (int i = 0; pts && i < used; i++)
            json_array_append_new(pts,
                                  json_pack("[o, o]", num(xs[i]),
                                            num(frac[(size_t)i * (size_t)stride + c])));
        row = json_pack("{s:O, s:o}", "state", json_array_get(classes, c), "points", pts);
        if (trace_occupancy_fit(xs, frac, (size_t)used, stride, (int)c, graph, &fr,
                                &fe) == 0) {
            json_object_set_new(row, "model", fit_model_to_json(&fr.model));
            json_object_set_new(row, "r2", num(fr.stats.r2));
            json_object_set_new(row, "graph",
                                json_string(fit_graph_name(fr.model.chosen)));
            fit_result_free(&fr);
        } else {
            json_object_set_new(row, "model", json_null());
            json_object_set_new(row, "error", json_string(fe.message));
        }
        json_array_append_new(states, row);
    }
    out = json_pack("{s:s, s:s, s:i, s:o}", "application", application, "x", x, "runs",
                    used, "states", states);
    if (out == NULL)
        err_nomem(err);
done:
    json_decref(classes);
    xfree(xs);
    xfree(frac);
    return out;
}
