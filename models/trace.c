/* trace: the analyses of an MPI trace (see trace.h). Pure computation: no I/O,
 * no globals. Every analysis is linear or n log n in the number of events, so
 * that a 64-rank, 1,000,000-event trace answers well under a second. */
#include "models/trace.h"

#include "common/err.h"
#include "common/xalloc.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const op_names[TRACE_OP_COUNT] = {"state",
                                                     "MPI_Send",
                                                     "MPI_Ssend",
                                                     "MPI_Rsend",
                                                     "MPI_Bsend",
                                                     "MPI_Isend",
                                                     "MPI_Recv",
                                                     "MPI_Irecv",
                                                     "MPI_Sendrecv",
                                                     "MPI_Wait",
                                                     "MPI_Waitall",
                                                     "MPI_Waitany",
                                                     "MPI_Probe",
                                                     "MPI_Barrier",
                                                     "MPI_Bcast",
                                                     "MPI_Reduce",
                                                     "MPI_Allreduce",
                                                     "MPI_Gather",
                                                     "MPI_Allgather",
                                                     "MPI_Scatter",
                                                     "MPI_Alltoall",
                                                     "MPI_Issend",
                                                     "MPI_Ibsend",
                                                     "MPI_Irsend",
                                                     "MPI_Sendrecv_replace",
                                                     "MPI_Iprobe",
                                                     "MPI_Test",
                                                     "MPI_Testall",
                                                     "MPI_Testany",
                                                     "MPI_Testsome",
                                                     "MPI_Waitsome",
                                                     "MPI_Gatherv",
                                                     "MPI_Scatterv",
                                                     "MPI_Allgatherv",
                                                     "MPI_Alltoallv",
                                                     "MPI_Reduce_scatter",
                                                     "MPI_Reduce_scatter_block",
                                                     "MPI_Scan",
                                                     "MPI_Exscan",
                                                     "MPI_Ibarrier",
                                                     "MPI_Ibcast",
                                                     "MPI_Ireduce",
                                                     "MPI_Iallreduce",
                                                     "MPI_Igather",
                                                     "MPI_Igatherv",
                                                     "MPI_Iscatter",
                                                     "MPI_Iscatterv",
                                                     "MPI_Iallgather",
                                                     "MPI_Iallgatherv",
                                                     "MPI_Ialltoall",
                                                     "MPI_Ialltoallv"};

const char *trace_op_name(int op)
{
    return op >= 0 && op < TRACE_OP_COUNT ? op_names[op] : NULL;
}

int trace_op_class(int op)
{
    if (op <= TRACE_OP_STATE || op >= TRACE_OP_COUNT)
        return -1;
    if ((op >= TRACE_OP_SEND && op <= TRACE_OP_SENDRECV) ||
        (op >= TRACE_OP_ISSEND && op <= TRACE_OP_SENDRECV_REPLACE))
        return TRACE_CLASS_P2P;
    if ((op >= TRACE_OP_WAIT && op <= TRACE_OP_PROBE) ||
        (op >= TRACE_OP_IPROBE && op <= TRACE_OP_WAITSOME))
        return TRACE_CLASS_WAIT;
    return TRACE_CLASS_COLLECTIVE;
}

int trace_op_completes(int op)
{
    return op == TRACE_OP_WAITALL || op == TRACE_OP_WAITANY || op == TRACE_OP_WAITSOME ||
           trace_op_polls(op);
}

int trace_op_polls(int op)
{
    return op >= TRACE_OP_TEST && op <= TRACE_OP_TESTSOME;
}

int trace_op_blocking_collective(int op)
{
    return (op >= TRACE_OP_BARRIER && op <= TRACE_OP_ALLTOALL) ||
           (op >= TRACE_OP_GATHERV && op <= TRACE_OP_EXSCAN);
}

const char *trace_class_name(int cls)
{
    static const char *const n[] = {"compute", "p2p", "collective", "wait"};
    return cls >= 0 && cls < TRACE_CLASS_USER ? n[cls] : NULL;
}

int trace_nclasses(const struct trace *t)
{
    return TRACE_CLASS_USER + t->nnames;
}

void trace_free(struct trace *t)
{
    if (t == NULL)
        return;
    for (int i = 0; i < t->nnames && t->names; i++)
        xfree(t->names[i]);
    xfree(t->names);
    for (int r = 0; r < t->nranks && t->ranks; r++) {
        xfree(t->ranks[r].ev);
        xfree(t->ranks[r].done);
    }
    xfree(t->ranks);
    for (int c = 0; c < t->ncomms && t->comms; c++)
        xfree(t->comms[c].members);
    xfree(t->comms);
    xfree(t);
}

static int check_trace(const struct trace *t, struct err *err)
{
    if (t == NULL || t->nranks < 1 || t->ranks == NULL)
        return err_invalid(err, NULL, "a trace needs at least one rank");
    return 0;
}

/* Whether an event is an MPI call (not a user state, nor an unknown op). */
static int is_mpi_call(const struct trace_event *e)
{
    return e->op != TRACE_OP_STATE && e->op < TRACE_OP_COUNT;
}

long long trace_mpi_calls(const struct trace *t)
{
    long long n = 0;
    for (int r = 0; t != NULL && r < t->nranks; r++)
        for (size_t i = 0; i < t->ranks[r].nevents; i++)
            n += is_mpi_call(&t->ranks[r].ev[i]);
    return n;
}

struct seg;
static int rank_segments(const struct trace *t, int r, struct seg **out, size_t *nout);
static int add_class_time(const struct trace *t, int r, double *x);

static int is_send(int op)
{
    return op == TRACE_OP_SEND || op == TRACE_OP_SSEND || op == TRACE_OP_RSEND ||
           op == TRACE_OP_BSEND || op == TRACE_OP_ISEND || op == TRACE_OP_SENDRECV ||
           op == TRACE_OP_ISSEND || op == TRACE_OP_IBSEND || op == TRACE_OP_IRSEND ||
           op == TRACE_OP_SENDRECV_REPLACE;
}

/* A call that receives as MPI_Sendrecv does (source in peer2, tag in tag2). */
static int is_sendrecv(int op)
{
    return op == TRACE_OP_SENDRECV || op == TRACE_OP_SENDRECV_REPLACE;
}

static int is_rooted(int op)
{
    return op == TRACE_OP_BCAST || op == TRACE_OP_REDUCE || op == TRACE_OP_GATHER ||
           op == TRACE_OP_SCATTER || op == TRACE_OP_GATHERV || op == TRACE_OP_SCATTERV ||
           op == TRACE_OP_IBCAST || op == TRACE_OP_IREDUCE || op == TRACE_OP_IGATHER ||
           op == TRACE_OP_IGATHERV || op == TRACE_OP_ISCATTER || op == TRACE_OP_ISCATTERV;
}

/* A rooted collective whose data goes from the root to the ranks. */
static int is_from_root(int op)
{
    return op == TRACE_OP_BCAST || op == TRACE_OP_SCATTER || op == TRACE_OP_SCATTERV ||
           op == TRACE_OP_IBCAST || op == TRACE_OP_ISCATTER || op == TRACE_OP_ISCATTERV;
}

/* ---- profile -------------------------------------------------------------- */

void trace_profile_free(struct trace_profile *p)
{
    if (p == NULL)
        return;
    xfree(p->time);
    xfree(p->calls);
    xfree(p->mpi);
    xfree(p->compute);
    xfree(p->exec);
    xfree(p->cls);
    xfree(p);
}

int trace_profile(const struct trace *t, struct trace_profile **out, struct err *err)
{
    struct trace_profile *p = NULL;
    int n;

    *out = NULL;
    if (check_trace(t, err) < 0)
        return -1;
    n = t->nranks;
    p = xcalloc(1, sizeof *p);
    if (p == NULL)
        return err_nomem(err);
    p->nranks = n;
    p->nclasses = trace_nclasses(t);
    p->time = xcalloc((size_t)n * TRACE_OP_COUNT, sizeof *p->time);
    p->calls = xcalloc((size_t)n * TRACE_OP_COUNT, sizeof *p->calls);
    p->mpi = xcalloc((size_t)n, sizeof *p->mpi);
    p->compute = xcalloc((size_t)n, sizeof *p->compute);
    p->exec = xcalloc((size_t)n, sizeof *p->exec);
    p->cls = xcalloc((size_t)n * (size_t)p->nclasses, sizeof *p->cls);
    if (!p->time || !p->calls || !p->mpi || !p->compute || !p->exec || !p->cls) {
        trace_profile_free(p);
        return err_nomem(err);
    }
    for (int r = 0; r < n; r++) {
        if (add_class_time(t, r, &p->cls[(size_t)r * (size_t)p->nclasses]) < 0) {
            trace_profile_free(p);
            return err_nomem(err);
        }
        const struct trace_rank *rk = &t->ranks[r];
        for (size_t i = 0; i < rk->nevents; i++) {
            const struct trace_event *e = &rk->ev[i];
            double d = e->end - e->begin;
            if (e->op >= TRACE_OP_COUNT)
                continue;
            p->time[(size_t)r * TRACE_OP_COUNT + e->op] += d;
            p->calls[(size_t)r * TRACE_OP_COUNT + e->op]++;
            if (is_mpi_call(e))
                p->mpi[r] += d;
        }
        p->exec[r] = rk->t_end;
        p->compute[r] = rk->t_end - p->mpi[r];
    }
    *out = p;
    return 0;
}

/* ---- sparse pairs ------------------------------------------------------------
 * The wait and traffic matrices are accumulated per pair of ranks in a hash
 * table of the pairs met, never as nranks^2 cells: a 4,096-rank trace of a
 * halo exchange has a few thousand pairs, not 16.7 million (the dense
 * matrices took 1 GB here and 2.3 GB as answers). Entries keep their order of
 * insertion; pm_sorted sorts them by (i, j) at the end. A failed allocation
 * is sticky (pm.failed), checked once by the caller. */
struct acc {
    int32_t i, j;
    long long msgs;
    int64_t bytes, xbytes;
    double s, xfer;
};

struct pairmap {
    struct acc *e;
    size_t n, cap;
    uint32_t *slot; /* hcap slots: entry index + 1, 0 = empty */
    size_t hcap;
    int failed;
};

static size_t pm_hash(int32_t i, int32_t j, size_t hcap)
{
    uint64_t k = (uint64_t)(uint32_t)i << 32 | (uint32_t)j;
    k ^= k >> 33; /* MurmurHash3's finaliser: every bit of both ranks counts */
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return (size_t)k & (hcap - 1);
}

static int pm_grow(struct pairmap *m)
{
    size_t hcap = m->hcap ? m->hcap * 2 : 1024;
    uint32_t *slot = xcalloc(hcap, sizeof *slot);
    if (slot == NULL)
        return -1;
    for (size_t k = 0; k < m->n; k++) {
        size_t h = pm_hash(m->e[k].i, m->e[k].j, hcap);
        while (slot[h] != 0)
            h = (h + 1) & (hcap - 1);
        slot[h] = (uint32_t)(k + 1);
    }
    xfree(m->slot);
    m->slot = slot;
    m->hcap = hcap;
    return 0;
}

/* The entry of (i, j), added (zeroed) when new; NULL once out of memory. */
static struct acc *pm_get(struct pairmap *m, int32_t i, int32_t j)
{
    size_t h;
    if (m->failed)
        return NULL;
    if ((m->n + 1) * 4 > m->hcap * 3 && pm_grow(m) != 0)
        goto fail;
    for (h = pm_hash(i, j, m->hcap); m->slot[h] != 0; h = (h + 1) & (m->hcap - 1)) {
        struct acc *a = &m->e[m->slot[h] - 1];
        if (a->i == i && a->j == j)
            return a;
    }
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 256;
        struct acc *e = xrealloc(m->e, cap * sizeof *e);
        if (e == NULL)
            goto fail;
        m->e = e;
        m->cap = cap;
    }
    m->e[m->n] = (struct acc){i, j, 0, 0, 0, 0, 0};
    m->slot[h] = (uint32_t)(m->n + 1);
    return &m->e[m->n++];
fail:
    m->failed = 1;
    return NULL;
}

static int acc_cmp(const void *a, const void *b)
{
    const struct acc *x = a, *y = b;
    if (x->i != y->i)
        return x->i < y->i ? -1 : 1;
    return x->j < y->j ? -1 : x->j > y->j;
}

/* Drops the table and sorts the entries by (i, j). */
static void pm_sorted(struct pairmap *m)
{
    xfree(m->slot);
    m->slot = NULL;
    m->hcap = 0;
    if (m->n > 1)
        qsort(m->e, m->n, sizeof *m->e, acc_cmp);
}

static void pm_free(struct pairmap *m)
{
    xfree(m->e);
    xfree(m->slot);
    memset(m, 0, sizeof *m);
}

/* ---- message matching ----------------------------------------------------- */

/* One side of a point-to-point message: sender's begin, or a completing
 * receive's [begin, end]. `idx` keeps each rank's program order, `sub` the
 * order of the receives one Waitall completes; `multi` marks those. */
struct side {
    int32_t src, dst, tag;
    uint32_t idx;
    double begin, end;
    uint32_t sub;
    int multi;
};

static int side_cmp(const void *a, const void *b)
{
    const struct side *x = a, *y = b;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    if (x->tag != y->tag)
        return x->tag < y->tag ? -1 : 1;
    if (x->idx != y->idx)
        return x->idx < y->idx ? -1 : 1;
    return x->sub < y->sub ? -1 : x->sub > y->sub;
}

/* A receive completed by a Waitall/Waitany that names a call of its rank. */
static int done_valid(const struct trace *t, int r, const struct trace_done *d)
{
    return d->peer >= 0 && d->peer < t->nranks && d->event < t->ranks[r].nevents;
}

/* A matched message: receiver side r waiting from rb to re for sender s, whose
 * send began at sb. */
typedef void (*match_fn)(void *ctx, const struct side *send, const struct side *recv);

/* Collects both sides, sorts them and pairs the n-th send with the n-th receive
 * of each (src, dst, tag). Returns the number of unmatched receives, or -1. */
static long long match_messages(const struct trace *t, match_fn fn, void *ctx)
{
    size_t ns = 0, nr = 0, is = 0, ir = 0;
    struct side *s = NULL, *rv = NULL;
    long long unmatched = 0;
    int p = t->nranks;

    for (int r = 0; r < p; r++)
        for (size_t i = 0; i < t->ranks[r].nevents; i++) {
            const struct trace_event *e = &t->ranks[r].ev[i];
            if (is_send(e->op) && e->peer >= 0 && e->peer < p)
                ns++;
            if ((e->op == TRACE_OP_RECV || e->op == TRACE_OP_WAIT) && e->peer >= 0 &&
                e->peer < p)
                nr++;
            if (is_sendrecv(e->op) && e->peer2 >= 0 && e->peer2 < p)
                nr++;
        }
    for (int r = 0; r < p; r++)
        for (size_t k = 0; k < t->ranks[r].ndone; k++)
            if (done_valid(t, r, &t->ranks[r].done[k]))
                nr++;
    s = xmalloc((ns ? ns : 1) * sizeof *s);
    rv = xmalloc((nr ? nr : 1) * sizeof *rv);
    if (s == NULL || rv == NULL) {
        xfree(s);
        xfree(rv);
        return -1;
    }
    ns = nr = 0;
    for (int r = 0; r < p; r++)
        for (size_t i = 0; i < t->ranks[r].nevents; i++) {
            const struct trace_event *e = &t->ranks[r].ev[i];
            if (is_send(e->op) && e->peer >= 0 && e->peer < p)
                s[ns++] = (struct side){r,        e->peer, e->tag, (uint32_t)i,
                                        e->begin, e->end,  0,      0};
            if ((e->op == TRACE_OP_RECV || e->op == TRACE_OP_WAIT) && e->peer >= 0 &&
                e->peer < p)
                rv[nr++] = (struct side){e->peer,  r,      e->tag, (uint32_t)i,
                                         e->begin, e->end, 0,      0};
            if (is_sendrecv(e->op) && e->peer2 >= 0 && e->peer2 < p)
                rv[nr++] = (struct side){e->peer2, r,      e->tag2, (uint32_t)i,
                                         e->begin, e->end, 0,       0};
        }
    for (int r = 0; r < p; r++)
        for (size_t k = 0; k < t->ranks[r].ndone; k++) {
            const struct trace_done *d = &t->ranks[r].done[k];
            const struct trace_event *e;
            if (!done_valid(t, r, d))
                continue;
            e = &t->ranks[r].ev[d->event];
            rv[nr++] = (struct side){d->peer,  r,      d->tag,      (uint32_t)d->event,
                                     e->begin, e->end, (uint32_t)k, 1};
        }
    if (ns > 1)
        qsort(s, ns, sizeof *s, side_cmp);
    if (nr > 1)
        qsort(rv, nr, sizeof *rv, side_cmp);
    while (ir < nr) {
        int c = 1;
        if (is < ns) {
            struct side a = s[is], b = rv[ir];
            a.idx = b.idx = 0;
            a.sub = b.sub = 0;
            c = side_cmp(&a, &b);
        }
        if (c < 0) {
            is++;
        } else if (c > 0) {
            unmatched++;
            ir++;
        } else {
            fn(ctx, &s[is], &rv[ir]);
            is++;
            ir++;
        }
    }
    xfree(s);
    xfree(rv);
    return unmatched;
}

/* The blocking collectives, matched by communicator and order: calls back
 * with the k-th such call of every member of one communicator (calls[i] made
 * by world rank members[i]). A call names its communicator (version 3); one
 * that does not (versions 1 and 2) is matched with the other unnamed ones
 * over all ranks when its communicator had every rank. Within one
 * communicator, matching stops at the first call whose routine differs
 * between members (the rest cannot be matched reliably). Linear in the
 * events: a counting sort by communicator, each rank's calls in order. */
typedef void (*coll_fn)(void *ctx, const struct trace_event *const *calls,
                        const int *members, int n);

/* 0: unnamed over all ranks; 1..ncomms: trace.comms; -1: not matched. */
static int coll_key(const struct trace *t, const struct trace_event *e)
{
    if (!trace_op_blocking_collective(e->op))
        return -1;
    if (e->comm >= 1 && e->comm <= (uint32_t)t->ncomms)
        return (int)e->comm;
    return e->comm == 0 && e->comm_size == (uint32_t)t->nranks ? 0 : -1;
}

struct coll_ref {
    int32_t rank;
    uint32_t idx;
};

static int match_collectives(const struct trace *t, coll_fn fn, void *ctx)
{
    int p = t->nranks, nk = t->ncomms + 1, rc = -1;
    size_t *off = xcalloc((size_t)nk + 1, sizeof *off), total;
    size_t *beg = xcalloc((size_t)p, sizeof *beg), *cnt = xcalloc((size_t)p, sizeof *cnt);
    const struct trace_event **calls = xcalloc((size_t)p, sizeof *calls);
    int *all = xcalloc((size_t)p, sizeof *all);
    struct coll_ref *ref = NULL;

    if (off == NULL || beg == NULL || cnt == NULL || calls == NULL || all == NULL)
        goto out;
    for (int r = 0; r < p; r++) {
        all[r] = r;
        for (size_t i = 0; i < t->ranks[r].nevents; i++) {
            int k = coll_key(t, &t->ranks[r].ev[i]);
            if (k >= 0)
                off[k + 1]++;
        }
    }
    for (int k = 0; k < nk; k++)
        off[k + 1] += off[k];
    total = off[nk];
    ref = xmalloc((total ? total : 1) * sizeof *ref);
    if (ref == NULL)
        goto out;
    {
        size_t *fill = xmalloc((size_t)nk * sizeof *fill);
        if (fill == NULL)
            goto out;
        memcpy(fill, off, (size_t)nk * sizeof *fill);
        for (int r = 0; r < p; r++)
            for (size_t i = 0; i < t->ranks[r].nevents; i++) {
                int k = coll_key(t, &t->ranks[r].ev[i]);
                if (k >= 0)
                    ref[fill[k]++] = (struct coll_ref){r, (uint32_t)i};
            }
        xfree(fill);
    }
    for (int k = 0; k < nk; k++) {
        const struct trace_comm *cm = k > 0 ? &t->comms[k - 1] : NULL;
        const int *mem = cm && cm->members ? (const int *)cm->members : all;
        int n = cm ? cm->size : p, ok = n > 0 && n <= p;
        size_t m = SIZE_MAX;
        if (off[k] == off[k + 1])
            continue;
        for (size_t q = off[k]; q < off[k + 1]; q++)
            if (cnt[ref[q].rank]++ == 0)
                beg[ref[q].rank] = q;
        for (int i = 0; ok && i < n; i++) {
            ok = mem[i] >= 0 && mem[i] < p && cnt[mem[i]] > 0;
            if (ok && cnt[mem[i]] < m)
                m = cnt[mem[i]];
        }
        for (size_t j = 0; ok && j < m; j++) {
            for (int i = 0; ok && i < n; i++) {
                const struct coll_ref *c = &ref[beg[mem[i]] + j];
                calls[i] = &t->ranks[c->rank].ev[c->idx];
                ok = calls[i]->op == calls[0]->op;
            }
            if (ok)
                fn(ctx, calls, mem, n);
        }
        for (size_t q = off[k]; q < off[k + 1]; q++)
            cnt[ref[q].rank] = 0;
    }
    rc = 0;
out:
    xfree(off);
    xfree(beg);
    xfree(cnt);
    xfree(calls);
    xfree(all);
    xfree(ref);
    return rc;
}

/* ---- wait ------------------------------------------------------------------ */

void trace_wait_free(struct trace_wait *w)
{
    if (w == NULL)
        return;
    xfree(w->pairs);
    xfree(w->rank_wait);
    xfree(w->exec);
    xfree(w);
}

/* A receive completed among others by one Waitall: settled once all are
 * matched (wait_multi). */
struct pending {
    int32_t rank, src;
    uint32_t idx;
    double send, begin, end;
    size_t first; /* Test family: the first poll (trace_done.first) */
};

struct wait_ctx {
    const struct trace *t;
    struct pairmap m; /* the pairs' waits (acc.s) */
    struct pending *pend;
    size_t npend;
};

/* Charges rank i `s` seconds of waiting for rank j. */
static void charge(struct wait_ctx *c, int32_t i, int32_t j, double s)
{
    struct acc *e = pm_get(&c->m, i, j);
    if (e != NULL)
        e->s += s;
}

static int pending_cmp(const void *a, const void *b)
{
    const struct pending *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    if (x->idx != y->idx)
        return x->idx < y->idx ? -1 : 1;
    return x->send < y->send ? -1 : x->send > y->send;
}

/* The rule of trace_wait for one Waitall: its receives' sends sorted by begin,
 * each peer charged from the previous send's begin (or the call's) to its own,
 * clipped to the call. For a Test call, the same rule in each Test call of
 * the loop (from the first poll of any of its receives, a receive counting
 * from its own first poll on), no Test call visited twice. */
static void wait_multi(struct wait_ctx *c)
{
    int32_t rank = -1;
    size_t scan = 0;
    if (c->npend > 1)
        qsort(c->pend, c->npend, sizeof *c->pend, pending_cmp);
    for (size_t i = 0; i < c->npend;) {
        const struct trace_rank *rk = &c->t->ranks[c->pend[i].rank];
        size_t j = i, idx = c->pend[i].idx, lo = idx;
        double from = c->pend[i].begin;
        while (j < c->npend && c->pend[j].rank == c->pend[i].rank &&
               c->pend[j].idx == c->pend[i].idx)
            j++;
        if (c->pend[i].rank != rank) {
            rank = c->pend[i].rank;
            scan = 0;
        }
        if (!trace_op_polls(rk->ev[idx].op)) {
            for (size_t q = i; q < j; q++) {
                const struct pending *d = &c->pend[q];
                double to = d->send < d->end ? d->send : d->end;
                if (to > from) {
                    charge(c, d->rank, d->src, to - from);
                    from = to;
                }
            }
            i = j;
            continue;
        }
        for (size_t q = i; q < j; q++)
            if (c->pend[q].first < lo)
                lo = c->pend[q].first;
        if (lo < scan)
            lo = scan;
        for (size_t k = lo; k <= idx; k++) {
            const struct trace_event *e = &rk->ev[k];
            if (!trace_op_polls(e->op))
                continue;
            from = e->begin;
            for (size_t q = i; q < j; q++) {
                const struct pending *d = &c->pend[q];
                double to = d->send < e->end ? d->send : e->end;
                if (d->first <= k && to > from) {
                    charge(c, d->rank, d->src, to - from);
                    from = to;
                }
            }
        }
        scan = idx + 1;
        i = j;
    }
}

static void wait_p2p(void *ctx, const struct side *s, const struct side *r)
{
    struct wait_ctx *c = ctx;
    double late, len;
    if (r->multi) {
        size_t first = c->t->ranks[r->dst].done[r->sub].first;
        c->pend[c->npend++] = (struct pending){r->dst,
                                               r->src,
                                               r->idx,
                                               s->begin,
                                               r->begin,
                                               r->end,
                                               first <= r->idx ? first : r->idx};
        return;
    }
    late = s->begin - r->begin;
    len = r->end - r->begin;
    if (late > len)
        late = len;
    if (late > 0)
        charge(c, r->dst, r->src, late);
}

static void wait_coll(void *ctx, const struct trace_event *const *c, const int *members,
                      int n)
{
    struct wait_ctx *w = ctx;
    int last = 0;
    for (int i = 1; i < n; i++)
        if (c[i]->begin > c[last]->begin)
            last = i;
    for (int i = 0; i < n; i++) {
        double d = c[last]->begin - c[i]->begin, len = c[i]->end - c[i]->begin;
        if (d > len)
            d = len;
        if (i != last && d > 0)
            charge(w, members[i], members[last], d);
    }
}

int trace_wait(const struct trace *t, struct trace_wait **out, struct err *err)
{
    struct trace_wait *w;
    struct wait_ctx c = {0};
    size_t ndone = 0;
    long long um;
    int p;

    *out = NULL;
    if (check_trace(t, err) < 0)
        return -1;
    p = t->nranks;
    w = xcalloc(1, sizeof *w);
    if (w == NULL)
        return err_nomem(err);
    w->nranks = p;
    w->rank_wait = xcalloc((size_t)p, sizeof *w->rank_wait);
    w->exec = xcalloc((size_t)p, sizeof *w->exec);
    for (int r = 0; r < p; r++)
        ndone += t->ranks[r].ndone;
    c.t = t;
    c.pend = xmalloc((ndone ? ndone : 1) * sizeof *c.pend);
    if (!w->rank_wait || !w->exec || !c.pend)
        goto nomem;
    um = match_messages(t, wait_p2p, &c);
    if (um < 0 || match_collectives(t, wait_coll, &c) < 0)
        goto nomem;
    wait_multi(&c);
    xfree(c.pend);
    c.pend = NULL;
    if (c.m.failed)
        goto nomem;
    pm_sorted(&c.m);
    w->unmatched = um;
    w->pairs = xmalloc((c.m.n ? c.m.n : 1) * sizeof *w->pairs);
    if (w->pairs == NULL)
        goto nomem;
    for (size_t k = 0; k < c.m.n; k++) {
        const struct acc *e = &c.m.e[k];
        w->pairs[k] = (struct trace_wait_pair){e->i, e->j, e->s};
        w->rank_wait[e->i] += e->s;
    }
    w->npairs = c.m.n;
    pm_free(&c.m);
    for (int i = 0; i < p; i++) {
        w->exec[i] = t->ranks[i].t_end;
        w->total += w->rank_wait[i];
    }
    *out = w;
    return 0;
nomem:
    xfree(c.pend);
    pm_free(&c.m);
    trace_wait_free(w);
    return err_nomem(err);
}

double trace_wait_at(const struct trace_wait *w, int i, int j)
{
    size_t lo = 0, hi = w->npairs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct trace_wait_pair *q = &w->pairs[mid];
        if (q->i < i || (q->i == i && q->j < j))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < w->npairs && w->pairs[lo].i == i && w->pairs[lo].j == j ? w->pairs[lo].s
                                                                        : 0;
}

/* ---- traffic --------------------------------------------------------------- */

void trace_traffic_free(struct trace_traffic *tr)
{
    if (tr == NULL)
        return;
    xfree(tr->p2p);
    xfree(tr->coll);
    xfree(tr->coll_calls);
    xfree(tr->coll_sent);
    xfree(tr);
}

struct traffic_ctx {
    const struct trace *t;
    struct pairmap *m;
};

static void traffic_p2p(void *vctx, const struct side *s, const struct side *r)
{
    struct traffic_ctx *c = vctx;
    struct acc *a = pm_get(c->m, s->src, s->dst);
    const struct trace_event *e = &c->t->ranks[s->src].ev[s->idx];
    double from = s->begin > r->begin ? s->begin : r->begin;
    double d = r->end - from;
    /* below the clocks' agreement, the sender's own call bounds the transfer */
    if (d < s->end - s->begin)
        d = s->end - s->begin;
    if (a != NULL) {
        a->xfer += d;
        a->xbytes += e->bytes;
    }
}

/* The entries of m as flows (rates from the matched transfers). */
static struct trace_flow *flows(const struct pairmap *m)
{
    struct trace_flow *f = xmalloc((m->n ? m->n : 1) * sizeof *f);
    for (size_t k = 0; f != NULL && k < m->n; k++) {
        const struct acc *e = &m->e[k];
        f[k] = (struct trace_flow){e->i, e->j, e->msgs, e->bytes,
                                   e->xfer > 0 ? (double)e->xbytes / e->xfer : 0};
    }
    return f;
}

int trace_traffic(const struct trace *t, struct trace_traffic **out, struct err *err)
{
    struct trace_traffic *tr;
    struct pairmap pm = {0}, cm = {0};
    struct traffic_ctx c = {t, &pm};
    int p;

    *out = NULL;
    if (check_trace(t, err) < 0)
        return -1;
    p = t->nranks;
    tr = xcalloc(1, sizeof *tr);
    if (tr == NULL)
        return err_nomem(err);
    tr->nranks = p;
    tr->coll_calls = xcalloc((size_t)p, sizeof *tr->coll_calls);
    tr->coll_sent = xcalloc((size_t)p, sizeof *tr->coll_sent);
    if (!tr->coll_calls || !tr->coll_sent)
        goto nomem;
    for (int r = 0; r < p; r++)
        for (size_t i = 0; i < t->ranks[r].nevents; i++) {
            const struct trace_event *e = &t->ranks[r].ev[i];
            struct acc *a;
            if (is_send(e->op) && e->peer >= 0 && e->peer < p) {
                if ((a = pm_get(&pm, r, e->peer)) != NULL) {
                    a->msgs++;
                    a->bytes += e->bytes;
                }
            } else if (trace_op_class(e->op) == TRACE_CLASS_COLLECTIVE) {
                tr->coll_calls[r]++;
                tr->coll_sent[r] += e->bytes;
                if (is_rooted(e->op) && e->peer >= 0 && e->peer < p && e->peer != r) {
                    int from = is_from_root(e->op) ? e->peer : r;
                    int to = from == r ? e->peer : r;
                    if ((a = pm_get(&cm, from, to)) != NULL) {
                        a->msgs++;
                        a->bytes += e->bytes;
                    }
                }
            }
        }
    if (match_messages(t, traffic_p2p, &c) < 0 || pm.failed || cm.failed)
        goto nomem;
    pm_sorted(&pm);
    pm_sorted(&cm);
    tr->p2p = flows(&pm);
    tr->coll = flows(&cm);
    if (tr->p2p == NULL || tr->coll == NULL)
        goto nomem;
    tr->np2p = pm.n;
    tr->ncoll = cm.n;
    for (size_t k = 0; k < tr->ncoll; k++)
        tr->coll[k].rate = 0;
    pm_free(&pm);
    pm_free(&cm);
    *out = tr;
    return 0;
nomem:
    pm_free(&pm);
    pm_free(&cm);
    trace_traffic_free(tr);
    return err_nomem(err);
}

struct trace_flow trace_traffic_at(const struct trace_traffic *tr, int coll, int i, int j)
{
    const struct trace_flow *f = coll ? tr->coll : tr->p2p;
    size_t lo = 0, hi = coll ? tr->ncoll : tr->np2p, n = hi;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f[mid].i < i || (f[mid].i == i && f[mid].j < j))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < n && f[lo].i == i && f[lo].j == j)
        return f[lo];
    return (struct trace_flow){i, j, 0, 0, 0};
}

/* ---- load ------------------------------------------------------------------- */

void trace_load_free(struct trace_load *l)
{
    if (l == NULL)
        return;
    xfree(l->compute);
    xfree(l->comm);
    xfree(l);
}

static double imbalance(const double *v, int n)
{
    double max = 0, sum = 0;
    for (int i = 0; i < n; i++) {
        sum += v[i];
        if (v[i] > max)
            max = v[i];
    }
    return sum > 0 ? max / (sum / n) : 0;
}

int trace_load(const struct trace *t, struct trace_load **out, struct err *err)
{
    struct trace_load *l;
    int n;

    *out = NULL;
    if (check_trace(t, err) < 0)
        return -1;
    n = t->nranks;
    l = xcalloc(1, sizeof *l);
    if (l == NULL)
        return err_nomem(err);
    l->nranks = n;
    l->compute = xcalloc((size_t)n, sizeof *l->compute);
    l->comm = xcalloc((size_t)n, sizeof *l->comm);
    if (l->compute == NULL || l->comm == NULL) {
        trace_load_free(l);
        return err_nomem(err);
    }
    /* the profile's mpi and compute, without its classes */
    for (int r = 0; r < n; r++) {
        const struct trace_rank *rk = &t->ranks[r];
        for (size_t i = 0; i < rk->nevents; i++)
            if (is_mpi_call(&rk->ev[i])) {
                l->comm[r] += rk->ev[i].end - rk->ev[i].begin;
                l->mpi_calls++;
            }
        l->compute[r] = rk->t_end - l->comm[r];
    }
    l->compute_imbalance = imbalance(l->compute, l->nranks);
    l->comm_imbalance = imbalance(l->comm, l->nranks);
    *out = l;
    return 0;
}

/* ---- states ----------------------------------------------------------------- */

struct seg {
    double t0, t1;
    int cls;
};

struct point {
    double t;
    int kind; /* 0 = end of MPI, 1 = end of state, 2 = begin of state, 3 = begin MPI */
    int val;
};

static int point_cmp(const void *a, const void *b)
{
    const struct point *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->kind - y->kind;
}

#define STATE_DEPTH 64 /* deeper probe nesting is attributed to the 64th level */

/* The rank's state as segments covering [0, t_end), adjacent equal classes
 * merged. *out is xmalloc'd; the caller frees it. */
static int rank_segments(const struct trace *t, int r, struct seg **out, size_t *nout)
{
    const struct trace_rank *rk = &t->ranks[r];
    struct point *pt = xmalloc((2 * rk->nevents + 1) * sizeof *pt);
    struct seg *sg = xmalloc((2 * rk->nevents + 2) * sizeof *sg);
    int stack[STATE_DEPTH], depth = 0, over = 0, mpi = -1;
    size_t np = 0, ns = 0;
    double prev = 0;

    if (pt == NULL || sg == NULL) {
        xfree(pt);
        xfree(sg);
        return -1;
    }
    for (size_t i = 0; i < rk->nevents; i++) {
        const struct trace_event *e = &rk->ev[i];
        int st = e->op == TRACE_OP_STATE;
        int cls = st ? TRACE_CLASS_USER + e->name : trace_op_class(e->op);
        if (cls < 0)
            continue;
        pt[np++] = (struct point){e->begin, st ? 2 : 3, cls};
        pt[np++] = (struct point){e->end, st ? 1 : 0, cls};
    }
    if (np > 1)
        qsort(pt, np, sizeof *pt, point_cmp);
    for (size_t i = 0; i <= np; i++) {
        double now = i < np ? pt[i].t : rk->t_end;
        int cur = mpi >= 0 ? mpi : depth > 0 ? stack[depth - 1] : TRACE_CLASS_COMPUTE;
        if (now > rk->t_end)
            now = rk->t_end;
        if (now > prev) {
            if (ns > 0 && sg[ns - 1].cls == cur && sg[ns - 1].t1 == prev)
                sg[ns - 1].t1 = now;
            else
                sg[ns++] = (struct seg){prev, now, cur};
            prev = now;
        }
        if (i == np)
            break;
        switch (pt[i].kind) {
        case 0:
            mpi = -1;
            break;
        case 3:
            mpi = pt[i].val;
            break;
        case 2:
            if (depth < STATE_DEPTH)
                stack[depth++] = pt[i].val;
            else
                over++;
            break;
        case 1:
            if (over > 0) {
                over--;
            } else {
                /* close the innermost open state of that name */
                for (int k = depth - 1; k >= 0; k--)
                    if (stack[k] == pt[i].val) {
                        memmove(&stack[k], &stack[k + 1],
                                (size_t)(depth - k - 1) * sizeof *stack);
                        depth--;
                        break;
                    }
            }
            break;
        }
    }
    xfree(pt);
    *out = sg;
    *nout = ns;
    return 0;
}

/* Adds the rank's seconds in each class to x[class] (its segments' lengths,
 * in time order). 0, or -1 out of memory. */
static int add_class_time(const struct trace *t, int r, double *x)
{
    struct seg *sg;
    size_t ns;
    if (rank_segments(t, r, &sg, &ns) < 0)
        return -1;
    for (size_t i = 0; i < ns; i++)
        x[sg[i].cls] += sg[i].t1 - sg[i].t0;
    xfree(sg);
    return 0;
}

/* Adds the rank's segments' seconds per class to total[class] as the
 * profile's cls and its sum over ranks do (row first, then the row to the
 * total): every analysis' per-class time is the same to the last bit.
 * row: nc scratch doubles. */
static void add_rank_time(const struct seg *sg, size_t ns, double *row, int nc,
                          double *total)
{
    memset(row, 0, (size_t)nc * sizeof *row);
    for (size_t i = 0; i < ns; i++)
        row[sg[i].cls] += sg[i].t1 - sg[i].t0;
    for (int c = 0; c < nc; c++)
        total[c] += row[c];
}

static double span_of(const struct trace *t)
{
    double s = 0;
    for (int r = 0; r < t->nranks; r++)
        if (t->ranks[r].t_end > s)
            s = t->ranks[r].t_end;
    return s;
}

/* ---- timeline --------------------------------------------------------------- */

void trace_timeline_free(struct trace_timeline *tl)
{
    if (tl == NULL)
        return;
    xfree(tl->cls);
    xfree(tl->time);
    xfree(tl);
}

int trace_timeline(const struct trace *t, int width, struct trace_timeline **out,
                   struct err *err)
{
    struct trace_timeline *tl;
    double *acc = NULL, *row = NULL;
    int nc;

    *out = NULL;
    if (check_trace(t, err) < 0)
        return -1;
    if (width < 1 || width > TRACE_MAX_WIDTH)
        return err_invalid(err, "width", "the width must be between 1 and %d pixels",
                           TRACE_MAX_WIDTH);
    nc = trace_nclasses(t);
    tl = xcalloc(1, sizeof *tl);
    if (tl == NULL)
        return err_nomem(err);
    tl->nranks = t->nranks;
    tl->width = width;
    tl->span = span_of(t);
    tl->nclasses = nc;
    tl->cls = xmalloc((size_t)t->nranks * (size_t)width * sizeof *tl->cls);
    tl->time = xcalloc((size_t)nc, sizeof *tl->time);
    acc = xmalloc((size_t)width * (size_t)nc * sizeof *acc);
    row = xmalloc((size_t)nc * sizeof *row);
    if (tl->cls == NULL || tl->time == NULL || acc == NULL || row == NULL)
        goto nomem;
    for (int r = 0; r < t->nranks; r++) {
        struct seg *sg;
        size_t ns;
        double px = tl->span > 0 ? tl->span / width : 1;
        if (rank_segments(t, r, &sg, &ns) < 0)
            goto nomem;
        add_rank_time(sg, ns, row, nc, tl->time);
        memset(acc, 0, (size_t)width * (size_t)nc * sizeof *acc);
        for (size_t i = 0; i < ns; i++) {
            int x0 = (int)(sg[i].t0 / px), x1 = (int)(sg[i].t1 / px);
            if (x1 >= width)
                x1 = width - 1;
            for (int x = x0; x <= x1 && x < width; x++) {
                double a = sg[i].t0 > x * px ? sg[i].t0 : x * px;
                double b = sg[i].t1 < (x + 1) * px ? sg[i].t1 : (x + 1) * px;
                if (b > a)
                    acc[(size_t)x * (size_t)nc + (size_t)sg[i].cls] += b - a;
            }
        }
        xfree(sg);
        for (int x = 0; x < width; x++) {
            int best = -1;
            double bv = 0;
            for (int c = 0; c < nc; c++)
                if (acc[(size_t)x * (size_t)nc + (size_t)c] > bv) {
                    bv = acc[(size_t)x * (size_t)nc + (size_t)c];
                    best = c;
                }
            tl->cls[(size_t)r * (size_t)width + (size_t)x] = (int16_t)best;
        }
    }
    xfree(acc);
    xfree(row);
    *out = tl;
    return 0;
nomem:
    xfree(acc);
    xfree(row);
    trace_timeline_free(tl);
    return err_nomem(err);
}

/* ---- occupancy ----------------------------------------------------------- */

void trace_occupancy_free(struct trace_occupancy *o)
{
    if (o == NULL)
        return;
    xfree(o->count);
    xfree(o->duration);
    xfree(o->mean);
    xfree(o->fraction);
    xfree(o->time);
    xfree(o);
}

struct delta {
    double t;
    int cls, d;
};

static int delta_cmp(const void *a, const void *b)
{
    const struct delta *x = a, *y = b;
    return x->t < y->t ? -1 : x->t > y->t;
}

int trace_occupancy(const struct trace *t, struct trace_occupancy **out, struct err *err)
{
    struct trace_occupancy *o;
    struct delta *dl = NULL;
    double *row = NULL;
    int *cur = NULL;
    size_t nd = 0, cap = 0, rows_cap = 0;
    int nc;

    *out = NULL;
    if (check_trace(t, err) < 0)
        return -1;
    nc = trace_nclasses(t);
    o = xcalloc(1, sizeof *o);
    if (o == NULL)
        return err_nomem(err);
    o->nranks = t->nranks;
    o->nclasses = nc;
    o->span = span_of(t);
    o->mean = xcalloc((size_t)nc, sizeof *o->mean);
    o->fraction = xcalloc((size_t)nc, sizeof *o->fraction);
    o->time = xcalloc((size_t)nc, sizeof *o->time);
    cur = xcalloc((size_t)nc, sizeof *cur);
    row = xmalloc((size_t)nc * sizeof *row);
    if (!o->mean || !o->fraction || !o->time || !cur || !row)
        goto nomem;
    /* Room for every rank's deltas at once (two per segment, at most
     * 2 * nevents + 2 segments a rank): growing by doubling held up to twice
     * that, and the old and the new array together while copying (105 MB
     * for 819,200 events). */
    for (int r = 0; r < t->nranks; r++)
        cap += 2 * (2 * t->ranks[r].nevents + 2);
    if ((dl = xmalloc(cap * sizeof *dl)) == NULL)
        goto nomem;
    for (int r = 0; r < t->nranks; r++) {
        struct seg *sg;
        size_t ns;
        if (rank_segments(t, r, &sg, &ns) < 0)
            goto nomem;
        add_rank_time(sg, ns, row, nc, o->time);
        if (nd + 2 * ns > cap) {
            size_t nc2 = (nd + 2 * ns) * 2;
            struct delta *n2 = xrealloc(dl, nc2 * sizeof *dl);
            if (n2 == NULL) {
                xfree(sg);
                goto nomem;
            }
            dl = n2;
            cap = nc2;
        }
        for (size_t i = 0; i < ns; i++) {
            dl[nd++] = (struct delta){sg[i].t0, sg[i].cls, 1};
            dl[nd++] = (struct delta){sg[i].t1, sg[i].cls, -1};
        }
        xfree(sg);
    }
    if (nd > 1) /* a trace without events has no deltas */
        qsort(dl, nd, sizeof *dl, delta_cmp);
    for (size_t i = 0; i < nd;) {
        double now = dl[i].t, next;
        while (i < nd && dl[i].t == now) {
            cur[dl[i].cls] += dl[i].d;
            i++;
        }
        if (i == nd)
            break;
        next = dl[i].t;
        if (o->nrows > 0 && memcmp(&o->count[(o->nrows - 1) * (size_t)nc], cur,
                                   (size_t)nc * sizeof *cur) == 0) {
            o->duration[o->nrows - 1] += next - now;
        } else {
            if (o->nrows == rows_cap) {
                size_t rc = rows_cap ? rows_cap * 2 : 64;
                if ((o->nrows + 1) * (size_t)nc > TRACE_MAX_OCCUPANCY_CELLS) {
                    xfree(dl);
                    xfree(cur);
                    xfree(row);
                    trace_occupancy_free(o);
                    return err_set(err, ERR_TOO_LARGE, "too_large", NULL,
                                   "more than %u macrostate cells (rows x states)",
                                   TRACE_MAX_OCCUPANCY_CELLS);
                }
                if (rc * (size_t)nc > TRACE_MAX_OCCUPANCY_CELLS)
                    rc = TRACE_MAX_OCCUPANCY_CELLS / (size_t)nc;
                int *c2 = xrealloc(o->count, rc * (size_t)nc * sizeof *c2);
                double *d2;
                if (c2 == NULL)
                    goto nomem;
                o->count = c2;
                d2 = xrealloc(o->duration, rc * sizeof *d2);
                if (d2 == NULL)
                    goto nomem;
                o->duration = d2;
                rows_cap = rc;
            }
            memcpy(&o->count[o->nrows * (size_t)nc], cur, (size_t)nc * sizeof *cur);
            o->duration[o->nrows++] = next - now;
        }
        for (int c = 0; c < nc; c++)
            o->mean[c] += (double)cur[c] / t->nranks * (next - now);
    }
    for (int c = 0; c < nc; c++)
        o->fraction[c] = o->span > 0 ? o->mean[c] / o->span : 0;
    xfree(dl);
    xfree(cur);
    xfree(row);
    *out = o;
    return 0;
nomem:
    xfree(dl);
    xfree(cur);
    xfree(row);
    trace_occupancy_free(o);
    return err_nomem(err);
}

int trace_occupancy_fit(const double *x, const double *frac, size_t nruns, int stride,
                        int c, const char *graph, struct fit_result *out, struct err *err)
{
    struct fit_input in = {0};
    double *y;
    int rc;

    memset(out, 0, sizeof *out);
    if (c < 0 || c >= stride)
        return err_invalid(err, "class", "class %d is not among the %d classes", c,
                           stride);
    if (nruns > FIT_MAX_POINTS)
        return err_set(err, ERR_TOO_LARGE, "too_large", NULL,
                       "at most %d runs can be fitted", FIT_MAX_POINTS);
    y = xmalloc((nruns ? nruns : 1) * sizeof *y);
    if (y == NULL)
        return err_nomem(err);
    for (size_t i = 0; i < nruns; i++)
        y[i] = frac[i * (size_t)stride + (size_t)c];
    in.nvars = 1;
    in.x = x;
    in.y = y;
    in.n = nruns;
    in.graph = graph;
    in.agg = AGG_MEAN;
    rc = fit_run(&in, out, err);
    xfree(y);
    return rc;
}

/* ---- clusters ---------------------------------------------------------------- */

void trace_clusters_free(struct trace_clusters *c)
{
    if (c == NULL)
        return;
    xfree(c->label);
    xfree(c->x);
    xfree(c);
}

static double dist2(const double *a, const double *b, int d)
{
    double s = 0;
    for (int i = 0; i < d; i++)
        s += (a[i] - b[i]) * (a[i] - b[i]);
    return s;
}

/* k-means on z[n][d] with farthest-point seeding from point 0 (deterministic). */
static void kmeans(const double *z, int n, int d, int k, int *label, double *cent)
{
    memcpy(cent, z, (size_t)d * sizeof *cent);
    for (int c = 1; c < k; c++) {
        int far = 0;
        double fd = -1;
        for (int i = 0; i < n; i++) {
            double m = DBL_MAX;
            for (int j = 0; j < c; j++) {
                double v = dist2(&z[(size_t)i * d], &cent[(size_t)j * d], d);
                if (v < m)
                    m = v;
            }
            if (m > fd) {
                fd = m;
                far = i;
            }
        }
        memcpy(&cent[(size_t)c * d], &z[(size_t)far * d], (size_t)d * sizeof *cent);
    }
    for (int it = 0; it < 100; it++) {
        int moved = 0;
        for (int i = 0; i < n; i++) {
            int best = 0;
            double bv = DBL_MAX;
            for (int c = 0; c < k; c++) {
                double v = dist2(&z[(size_t)i * d], &cent[(size_t)c * d], d);
                if (v < bv) {
                    bv = v;
                    best = c;
                }
            }
            if (it == 0 || label[i] != best)
                moved = 1;
            label[i] = best;
        }
        if (!moved)
            break;
        for (int c = 0; c < k; c++) {
            int cnt = 0;
            double *m = &cent[(size_t)c * d];
            memset(m, 0, (size_t)d * sizeof *m);
            for (int i = 0; i < n; i++)
                if (label[i] == c) {
                    cnt++;
                    for (int j = 0; j < d; j++)
                        m[j] += z[(size_t)i * d + j];
                }
            for (int j = 0; j < d && cnt > 0; j++)
                m[j] /= cnt;
        }
    }
}

/* Mean silhouette of a labelling (Rousseeuw): s(i) = (b - a) / max(a, b). */
static double silhouette(const double *z, int n, int d, int k, const int *label,
                         double *sum)
{
    double total = 0;
    int *cnt = (int *)(sum + k);
    for (int i = 0; i < n; i++) {
        double a, b = DBL_MAX;
        memset(sum, 0, (size_t)k * sizeof *sum);
        memset(cnt, 0, (size_t)k * sizeof *cnt);
        for (int j = 0; j < n; j++) {
            sum[label[j]] += sqrt(dist2(&z[(size_t)i * d], &z[(size_t)j * d], d));
            cnt[label[j]]++;
        }
        if (cnt[label[i]] <= 1)
            continue; /* s(i) = 0 for a singleton */
        a = sum[label[i]] / (cnt[label[i]] - 1);
        for (int c = 0; c < k; c++)
            if (c != label[i] && cnt[c] > 0 && sum[c] / cnt[c] < b)
                b = sum[c] / cnt[c];
        if (b == DBL_MAX)
            continue;
        if (a > 0 || b > 0)
            total += (b - a) / (a > b ? a : b);
    }
    return total / n;
}

int trace_clusters(const struct trace *t, struct trace_clusters **out, struct err *err)
{
    struct trace_profile *pr = NULL;
    struct trace_clusters *cl = NULL;
    double *z = NULL, *cent = NULL, *scratch = NULL, *var = NULL;
    int *lab = NULL, *keep = NULL;
    int n, nc, nd, dz = 0, nops = TRACE_OP_COUNT - 1;

    *out = NULL;
    if (trace_profile(t, &pr, err) < 0)
        return -1;
    n = t->nranks;
    nc = trace_nclasses(t);
    nd = nops + nc;
    cl = xcalloc(1, sizeof *cl);
    if (cl == NULL)
        goto nomem;
    cl->nranks = n;
    cl->ndims_all = nd;
    cl->label = xcalloc((size_t)n, sizeof *cl->label);
    cl->x = xcalloc((size_t)n * (size_t)nd, sizeof *cl->x);
    z = xcalloc((size_t)n * (size_t)nd, sizeof *z);
    cent = xcalloc((size_t)8 * (size_t)nd, sizeof *cent);
    scratch = xcalloc(16, sizeof *scratch);
    var = xcalloc((size_t)nd, sizeof *var);
    lab = xcalloc((size_t)n, sizeof *lab);
    keep = xcalloc((size_t)nd, sizeof *keep);
    if (!cl->label || !cl->x || !z || !cent || !scratch || !var || !lab || !keep)
        goto nomem;
    for (int r = 0; r < n; r++) {
        double *x = &cl->x[(size_t)r * nd];
        for (int op = 1; op < TRACE_OP_COUNT; op++)
            x[op - 1] = pr->time[(size_t)r * TRACE_OP_COUNT + op];
        memcpy(x + nops, &pr->cls[(size_t)r * (size_t)nc], (size_t)nc * sizeof *x);
    }
    /* z-score each dimension that varies */
    for (int j = 0; j < nd; j++) {
        double m = 0, v = 0;
        for (int r = 0; r < n; r++)
            m += cl->x[(size_t)r * nd + j];
        m /= n;
        for (int r = 0; r < n; r++)
            v += (cl->x[(size_t)r * nd + j] - m) * (cl->x[(size_t)r * nd + j] - m);
        var[j] = v / n;
        if (var[j] > 1e-24) {
            for (int r = 0; r < n; r++)
                z[(size_t)r * nd + dz] = (cl->x[(size_t)r * nd + j] - m) / sqrt(var[j]);
            keep[dz++] = j;
        }
    }
    /* compact z to dz columns */
    for (int r = 0; r < n; r++)
        for (int j = 0; j < dz; j++)
            z[(size_t)r * dz + j] = z[(size_t)r * nd + j];
    cl->k = 1;
    if (n >= 3 && dz > 0) {
        int kmax = n - 1 < 8 ? n - 1 : 8;
        for (int k = 2; k <= kmax; k++) {
            double s;
            kmeans(z, n, dz, k, lab, cent);
            s = silhouette(z, n, dz, k, lab, scratch);
            if (s > cl->silhouette + 1e-12) {
                cl->silhouette = s;
                cl->k = k;
                memcpy(cl->label, lab, (size_t)n * sizeof *lab);
            }
        }
        if (cl->silhouette < 0.25) {
            cl->k = 1;
            cl->silhouette = 0;
            memset(cl->label, 0, (size_t)n * sizeof *cl->label);
        }
    }
    /* main dimensions: largest variance of the unscaled vectors first */
    for (int m = 0; m < 4 && m < dz; m++) {
        int best = -1;
        for (int j = 0; j < dz; j++) {
            int used = 0;
            for (int q = 0; q < m; q++)
                used |= cl->dims[q] == keep[j];
            if (!used && (best < 0 || var[keep[j]] > var[best]))
                best = keep[j];
        }
        cl->dims[m] = best;
        cl->ndims = m + 1;
    }
    trace_profile_free(pr);
    xfree(z);
    xfree(cent);
    xfree(scratch);
    xfree(var);
    xfree(lab);
    xfree(keep);
    *out = cl;
    return 0;
nomem:
    trace_profile_free(pr);
    xfree(z);
    xfree(cent);
    xfree(scratch);
    xfree(var);
    xfree(lab);
    xfree(keep);
    trace_clusters_free(cl);
    return err_nomem(err);
}
