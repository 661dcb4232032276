/* trace: the reader of the per-rank binary trace files (format in trace.h).
 * Checks before it trusts: every count against the bytes present and the
 * limits, every field against the world it claims. */
#include "formats/trace.h"

#include "common/err.h"
#include "common/xalloc.h"
#include "formats/limits.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint16_t get16(const unsigned char *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static uint64_t get64(const unsigned char *p)
{
    return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

#define BAD(...) err_set(err, ERR_INVALID, "invalid_trace", NULL, __VA_ARGS__)

struct hdr {
    uint32_t version, rank, nranks, nnames, evsize, ncomms;
    uint64_t nevents, t_end, dropped, ndone;
};

static int parse_header(const unsigned char *b, size_t len, int file, struct hdr *h,
                        struct err *err)
{
    if (len < TRACE_HEADER_SIZE)
        return BAD(
            "trace file %d is truncated: %zu bytes, shorter than the %d-byte header",
            file, len, TRACE_HEADER_SIZE);
    if (memcmp(b, TRACE_MAGIC, 8) != 0)
        return BAD("trace file %d is not a Prophecy trace (wrong magic)", file);
    h->version = get32(b + 8);
    if (h->version < 1 || h->version > TRACE_FORMAT_VERSION)
        return BAD("trace file %d has format version %u; this reader knows versions 1 "
                   "to %d",
                   file, h->version, TRACE_FORMAT_VERSION);
    h->rank = get32(b + 12);
    h->nranks = get32(b + 16);
    h->nnames = get32(b + 20);
    h->nevents = get64(b + 24);
    h->t_end = get64(b + 32);
    h->dropped = get64(b + 40);
    h->evsize = get32(b + 48);
    h->ndone = h->version >= 2 ? get64(b + 56) : 0;  /* version 1: reserved */
    h->ncomms = h->version >= 3 ? get32(b + 52) : 0; /* before 3: reserved */
    if (h->evsize != TRACE_EVENT_SIZE)
        return BAD("trace file %d has %u-byte events; expected %d", file, h->evsize,
                   TRACE_EVENT_SIZE);
    if (h->nranks < 1 || h->nranks > LIMIT_TRACE_RANKS)
        return BAD("trace file %d claims %u ranks; a trace has 1 to %d", file, h->nranks,
                   LIMIT_TRACE_RANKS);
    if (h->rank >= h->nranks)
        return BAD("trace file %d is rank %u of a %u-rank run", file, h->rank, h->nranks);
    if (h->nnames > LIMIT_TRACE_NAMES)
        return BAD("rank %u has %u state names; the limit is %d", h->rank, h->nnames,
                   LIMIT_TRACE_NAMES);
    if (h->nevents > LIMIT_TRACE_EVENTS_RANK)
        return BAD("rank %u has %llu events; the limit is %d per rank", h->rank,
                   (unsigned long long)h->nevents, LIMIT_TRACE_EVENTS_RANK);
    if (h->ncomms > LIMIT_TRACE_COMMS)
        return BAD("rank %u names %u communicators; the limit is %d", h->rank, h->ncomms,
                   LIMIT_TRACE_COMMS);
    if (h->ndone > LIMIT_TRACE_EVENTS_RANK)
        return BAD("rank %u has %llu completed receives; the limit is %d per rank",
                   h->rank, (unsigned long long)h->ndone, LIMIT_TRACE_EVENTS_RANK);
    return 0;
}

/* Finds or adds a state name to the trace's global table; returns its index,
 * -1 out of memory, -2 when the table is full (LIMIT_TRACE_NAMES). */
static int intern(struct trace *t, const char *s, size_t n, int *cap)
{
    for (int i = 0; i < t->nnames; i++)
        if (strlen(t->names[i]) == n && memcmp(t->names[i], s, n) == 0)
            return i;
    if (t->nnames == LIMIT_TRACE_NAMES)
        return -2;
    if (t->nnames == *cap) {
        int nc = *cap ? *cap * 2 : 16;
        char **nn = xrealloc(t->names, (size_t)nc * sizeof *nn);
        if (nn == NULL)
            return -1;
        t->names = nn;
        *cap = nc;
    }
    t->names[t->nnames] = xstrndup(s, n);
    if (t->names[t->nnames] == NULL)
        return -1;
    return t->nnames++;
}

/* What the parse of one trace keeps across its rank files: the capacity of
 * the names table, the communicators (hashed by members and seq) and a stamp
 * per world rank to find repeated members. */
struct pctx {
    int names_cap, comms_cap;
    uint32_t *hash; /* 1 + index into t->comms, 0 empty; hcap slots */
    size_t hcap;
    uint32_t *stamp, epoch;
};

static uint64_t comm_hash(uint32_t seq, int size, const int32_t *m)
{
    uint64_t h = 1469598103934665603ull ^ seq ^ ((uint64_t)(uint32_t)size << 32);
    for (int i = 0; m && i < size; i++)
        h = (h ^ (uint32_t)m[i]) * 1099511628211ull;
    return h * 1099511628211ull;
}

static int comm_eq(const struct trace_comm *c, uint32_t seq, int size, const int32_t *m)
{
    if (c->seq != seq || c->size != size || (c->members == NULL) != (m == NULL))
        return 0;
    return m == NULL || memcmp(c->members, m, (size_t)size * sizeof *m) == 0;
}

/* Finds or adds a communicator; takes m (xmalloc'd or NULL) in every case.
 * Returns its number (1 + index into t->comms), or 0 out of memory. */
static uint32_t intern_comm(struct trace *t, struct pctx *pc, uint32_t seq, int size,
                            int32_t *m)
{
    size_t at;
    if ((size_t)t->ncomms * 2 >= pc->hcap) {
        size_t nc = pc->hcap ? pc->hcap * 2 : 64;
        uint32_t *nh = xcalloc(nc, sizeof *nh);
        if (nh == NULL)
            goto nomem;
        for (int i = 0; i < t->ncomms; i++) {
            const struct trace_comm *c = &t->comms[i];
            size_t k = comm_hash(c->seq, c->size, c->members) & (nc - 1);
            while (nh[k] != 0)
                k = (k + 1) & (nc - 1);
            nh[k] = (uint32_t)i + 1;
        }
        xfree(pc->hash);
        pc->hash = nh;
        pc->hcap = nc;
    }
    at = comm_hash(seq, size, m) & (pc->hcap - 1);
    for (; pc->hash[at] != 0; at = (at + 1) & (pc->hcap - 1))
        if (comm_eq(&t->comms[pc->hash[at] - 1], seq, size, m)) {
            xfree(m);
            return pc->hash[at];
        }
    if (t->ncomms == pc->comms_cap) {
        int nc = pc->comms_cap ? pc->comms_cap * 2 : 16;
        struct trace_comm *n2 = xrealloc(t->comms, (size_t)nc * sizeof *n2);
        if (n2 == NULL)
            goto nomem;
        t->comms = n2;
        pc->comms_cap = nc;
    }
    t->comms[t->ncomms] = (struct trace_comm){size, seq, m};
    pc->hash[at] = (uint32_t)++t->ncomms;
    return pc->hash[at];
nomem:
    xfree(m);
    return 0;
}

/* Reads rank r's communicator table at b + *off into map[] (trace.comms
 * numbers), checking every member against the world. */
static int parse_comms(struct trace *t, struct pctx *pc, const unsigned char *b,
                       size_t len, size_t *off, const struct hdr *h, uint32_t *map,
                       struct err *err)
{
    unsigned r = h->rank;
    for (uint32_t i = 0; i < h->ncomms; i++) {
        uint32_t n, seq, self = 0;
        int32_t *m = NULL;
        if (len - *off < 8)
            return BAD("rank %u is truncated in its communicators", r);
        n = get32(b + *off);
        seq = get32(b + *off + 4);
        *off += 8;
        if (n > h->nranks || (len - *off) / 4 < n)
            return BAD("rank %u communicator %u has %u members in a %u-rank run or is "
                       "truncated",
                       r, i, n, h->nranks);
        if (n > 0) {
            int world = n == h->nranks;
            m = xmalloc((size_t)n * sizeof *m);
            if (m == NULL)
                return err_nomem(err);
            if (++pc->epoch == 0) {
                memset(pc->stamp, 0, (size_t)h->nranks * sizeof *pc->stamp);
                pc->epoch = 1;
            }
            for (uint32_t k = 0; k < n; k++) {
                uint32_t v = get32(b + *off + 4 * (size_t)k);
                if (v >= h->nranks || pc->stamp[v] == pc->epoch) {
                    xfree(m);
                    return BAD("rank %u communicator %u: member %u is outside the %u "
                               "ranks or repeated",
                               r, i, v, h->nranks);
                }
                pc->stamp[v] = pc->epoch;
                self |= v == r;
                world &= v == k;
                m[k] = (int32_t)v;
            }
            if (!self) {
                xfree(m);
                return BAD("rank %u communicator %u does not have rank %u as a member", r,
                           i, r);
            }
            if (world) { /* the world's group in order: one name for it */
                xfree(m);
                m = NULL;
            }
            *off += 4 * (size_t)n;
        }
        map[i] = intern_comm(t, pc, seq, n ? (int)n : (int)h->nranks, m);
        if (map[i] == 0)
            return err_nomem(err);
    }
    return 0;
}

static int ev_cmp(const void *a, const void *b)
{
    const struct trace_event *x = a, *y = b;
    return x->begin < y->begin ? -1 : x->begin > y->begin;
}

/* Reads the completed receives (version 2), which name their completing
 * call (and, version 3, the loop's first Test) by index in the file, while
 * rk->ev is still in file order; at[2k], at[2k+1] keep the begins of both, to
 * find them again after the sort. */
static int parse_done(struct trace_rank *rk, const unsigned char *p, const struct hdr *h,
                      double *at, struct err *err)
{
    unsigned r = h->rank;
    size_t rec = h->version >= 3 ? TRACE_DONE_SIZE : TRACE_DONE_SIZE_V2;
    for (size_t k = 0; k < rk->ndone; k++, p += rec) {
        struct trace_done *d = &rk->done[k];
        uint64_t ev = get64(p), first = h->version >= 3 ? get64(p + 24) : ev;
        d->bytes = (int64_t)get64(p + 8);
        d->peer = (int32_t)get32(p + 16);
        d->tag = (int32_t)get32(p + 20);
        if (ev >= rk->nevents || !trace_op_completes(rk->ev[ev].op))
            return BAD("rank %u completed receive %zu: event %llu is not a Waitall, "
                       "Waitany, Waitsome or Test call",
                       r, k, (unsigned long long)ev);
        if (first > ev || (first != ev && (!trace_op_polls(rk->ev[first].op) ||
                                           rk->ev[first].begin > rk->ev[ev].begin)))
            return BAD("rank %u completed receive %zu: its first poll, event %llu, is "
                       "not a Test call before event %llu",
                       r, k, (unsigned long long)first, (unsigned long long)ev);
        if (k > 0 && ev < rk->done[k - 1].event)
            return BAD("rank %u completed receive %zu is out of order", r, k);
        if (d->peer < 0 || d->peer >= (int32_t)h->nranks || d->bytes < 0)
            return BAD("rank %u completed receive %zu: peer outside the %u ranks or "
                       "negative bytes",
                       r, k, h->nranks);
        d->event = (size_t)ev;
        d->first = (size_t)first;
        at[2 * k] = rk->ev[ev].begin;
        at[2 * k + 1] = rk->ev[first].begin;
    }
    return 0;
}

/* The index, after the sort, of the call of kind `want` (trace_op_completes
 * or trace_op_polls) that begins at `begin` (a rank's calls never tie; a
 * state may, hence the routine check). */
static size_t find_call(const struct trace_rank *rk, double begin, int (*want)(int))
{
    size_t lo = 0, hi = rk->nevents;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (rk->ev[mid].begin < begin)
            lo = mid + 1;
        else
            hi = mid;
    }
    while (lo + 1 < rk->nevents && !want(rk->ev[lo].op))
        lo++;
    return lo;
}

/* After the sort: points each done at its calls' new indexes. */
static void renumber_done(struct trace_rank *rk, const double *at)
{
    for (size_t k = 0; k < rk->ndone; k++) {
        struct trace_done *d = &rk->done[k];
        int same = d->first == d->event;
        d->event = find_call(rk, at[2 * k], trace_op_completes);
        d->first = same ? d->event : find_call(rk, at[2 * k + 1], trace_op_polls);
        if (d->first > d->event) /* ties in begin */
            d->first = d->event;
    }
}

/* The events of rank h->rank at b + off, checked; cmap maps the rank's
 * communicator numbers to the trace's, map its state names. */
static int parse_events(struct trace *t, struct trace_rank *rk, const unsigned char *b,
                        size_t len, size_t off, const struct hdr *h, int nops,
                        const uint32_t *cmap, const int *map, struct err *err)
{
    unsigned r = h->rank;
    size_t rec = h->version >= 3 ? TRACE_DONE_SIZE : TRACE_DONE_SIZE_V2;
    if ((len - off) / TRACE_EVENT_SIZE < h->nevents)
        return BAD("rank %u is truncated: %llu events announced, room for %zu", r,
                   (unsigned long long)h->nevents, (len - off) / TRACE_EVENT_SIZE);
    if ((len - off - (size_t)h->nevents * TRACE_EVENT_SIZE) / rec < h->ndone)
        return BAD("rank %u is truncated: %llu completed receives announced, room for "
                   "%zu",
                   r, (unsigned long long)h->ndone,
                   (len - off - (size_t)h->nevents * TRACE_EVENT_SIZE) / rec);
    if (len - off != h->nevents * TRACE_EVENT_SIZE + h->ndone * rec)
        return BAD("rank %u has %zu bytes after its last record", r,
                   len - off - (size_t)h->nevents * TRACE_EVENT_SIZE -
                       (size_t)h->ndone * rec);
    rk->t_end = (double)h->t_end * 1e-9;
    rk->nevents = (size_t)h->nevents;
    rk->ev = xmalloc((rk->nevents ? rk->nevents : 1) * sizeof *rk->ev);
    if (rk->ev == NULL)
        return err_nomem(err);
    for (size_t i = 0; i < rk->nevents; i++, off += TRACE_EVENT_SIZE) {
        const unsigned char *p = b + off;
        struct trace_event *e = &rk->ev[i];
        uint64_t tb = get64(p), te = get64(p + 8);
        int32_t peer = (int32_t)get32(p + 24), peer2 = (int32_t)get32(p + 28);
        uint16_t op = get16(p + 44), name = get16(p + 46);
        if (tb > te || te > h->t_end)
            return BAD("rank %u event %zu: its times are out of order or after the end",
                       r, i);
        if (op >= nops)
            return BAD("rank %u event %zu: unknown routine %u", r, i, op);
        if (peer < -1 || peer >= (int32_t)h->nranks || peer2 < -1 ||
            peer2 >= (int32_t)h->nranks)
            return BAD("rank %u event %zu: peer outside the %u ranks", r, i, h->nranks);
        if (op == TRACE_OP_STATE && name >= h->nnames)
            return BAD("rank %u event %zu: state name %u is not in its table", r, i,
                       name);
        if (op != TRACE_OP_STATE && name > h->ncomms)
            return BAD("rank %u event %zu: communicator %u is not in its table", r, i,
                       name);
        e->begin = (double)tb * 1e-9;
        e->end = (double)te * 1e-9;
        e->bytes = (int64_t)get64(p + 16);
        e->peer = peer;
        e->peer2 = peer2;
        e->tag = (int32_t)get32(p + 32);
        e->tag2 = (int32_t)get32(p + 36);
        e->comm_size = get32(p + 40);
        e->op = op;
        e->name = op == TRACE_OP_STATE ? (uint16_t)map[name] : 0;
        e->comm = op != TRACE_OP_STATE && name > 0 ? cmap[name - 1] : 0;
        if (e->bytes < 0 || e->comm_size > h->nranks)
            return BAD("rank %u event %zu: negative bytes or a communicator larger "
                       "than the world",
                       r, i);
        if (e->comm > 0 && e->comm_size != (uint32_t)t->comms[e->comm - 1].size)
            return BAD("rank %u event %zu: communicator size %u, but its communicator "
                       "has %d members",
                       r, i, e->comm_size, t->comms[e->comm - 1].size);
    }
    return 0;
}

static int parse_rank(struct trace *t, const unsigned char *b, size_t len,
                      const struct hdr *h, struct pctx *pc, struct err *err)
{
    size_t off = TRACE_HEADER_SIZE;
    int map[LIMIT_TRACE_NAMES];
    uint32_t *cmap = NULL;
    int nops = h->version >= 3 ? TRACE_OP_COUNT : TRACE_OP_COUNT_V2;
    struct trace_rank *rk = &t->ranks[h->rank];
    unsigned r = h->rank;
    double *at;

    for (uint32_t i = 0; i < h->nnames; i++) {
        size_t n;
        if (len - off < 2)
            return BAD("rank %u is truncated in its state names", r);
        n = get16(b + off);
        off += 2;
        if (n == 0 || n > LIMIT_NAME || len - off < n)
            return BAD("rank %u: state name %u is empty, too long or truncated", r, i);
        map[i] = intern(t, (const char *)b + off, n, &pc->names_cap);
        if (map[i] == -2)
            return BAD("the trace has more than %d distinct state names",
                       LIMIT_TRACE_NAMES);
        if (map[i] < 0)
            return err_nomem(err);
        off += n;
    }
    if (h->ncomms > 0) {
        cmap = xmalloc((size_t)h->ncomms * sizeof *cmap);
        if (cmap == NULL)
            return err_nomem(err);
        if (parse_comms(t, pc, b, len, &off, h, cmap, err) < 0) {
            xfree(cmap);
            return -1;
        }
    }
    if (parse_events(t, rk, b, len, off, h, nops, cmap, map, err) < 0) {
        xfree(cmap);
        return -1;
    }
    xfree(cmap);
    off += (size_t)h->nevents * TRACE_EVENT_SIZE;
    rk->ndone = (size_t)h->ndone;
    rk->done = xmalloc((rk->ndone ? rk->ndone : 1) * sizeof *rk->done);
    at = xmalloc((rk->ndone ? 2 * rk->ndone : 1) * sizeof *at);
    if (rk->done == NULL || at == NULL) {
        xfree(at);
        return err_nomem(err);
    }
    if (parse_done(rk, b + off, h, at, err) < 0) {
        xfree(at);
        return -1;
    }
    /* the recorder writes states when they end: put everything in begin order
     * (qsort is not stable, but ties between a rank's calls cannot occur) */
    qsort(rk->ev, rk->nevents, sizeof *rk->ev, ev_cmp);
    renumber_done(rk, at);
    xfree(at);
    return 0;
}

int trace_check_ranks(long long n, struct err *err)
{
    if (n > LIMIT_TRACE_RANKS)
        return BAD("a trace has at most %d rank files; got %lld", LIMIT_TRACE_RANKS, n);
    return 0;
}

int trace_parse(const void *const *bufs, const size_t *lens, int n, struct trace **out,
                struct err *err)
{
    struct trace *t = NULL;
    struct hdr h0, h;
    unsigned long long total_ev = 0, total_bytes = 0;
    char *seen = NULL;
    struct pctx pc = {0};

    *out = NULL;
    if (n < 1)
        return BAD("a trace needs at least one rank file");
    if (trace_check_ranks(n, err) != 0)
        return -1;
    for (int i = 0; i < n; i++) {
        total_bytes += lens[i];
        if (total_bytes > LIMIT_TRACE_BYTES)
            return BAD("the trace is larger than %llu bytes",
                       (unsigned long long)LIMIT_TRACE_BYTES);
    }
    if (parse_header(bufs[0], lens[0], 0, &h0, err) < 0)
        return -1;
    if (h0.nranks != (uint32_t)n)
        return BAD("rank files disagree with the run: %d files for a %u-rank run", n,
                   h0.nranks);
    t = xcalloc(1, sizeof *t);
    seen = xcalloc((size_t)n, 1);
    if (t == NULL || seen == NULL)
        goto nomem;
    t->nranks = n;
    t->ranks = xcalloc((size_t)n, sizeof *t->ranks);
    pc.stamp = xcalloc((size_t)n, sizeof *pc.stamp);
    if (t->ranks == NULL || pc.stamp == NULL)
        goto nomem;
    for (int i = 0; i < n; i++) {
        if (parse_header(bufs[i], lens[i], i, &h, err) < 0)
            goto fail;
        if (h.nranks != h0.nranks) {
            BAD("inconsistent rank counts: file 0 says %u ranks, file %d says %u",
                h0.nranks, i, h.nranks);
            goto fail;
        }
        if (seen[h.rank]) {
            BAD("rank %u appears twice", h.rank);
            goto fail;
        }
        seen[h.rank] = 1;
        total_ev += h.nevents;
        if (total_ev > LIMIT_TRACE_EVENTS) {
            BAD("the trace has more than %d events", LIMIT_TRACE_EVENTS);
            goto fail;
        }
        t->dropped += (long long)h.dropped;
        if (parse_rank(t, bufs[i], lens[i], &h, &pc, err) < 0)
            goto fail;
    }
    xfree(seen);
    xfree(pc.hash);
    xfree(pc.stamp);
    *out = t;
    return 0;
nomem:
    err_nomem(err);
fail:
    xfree(seen);
    xfree(pc.hash);
    xfree(pc.stamp);
    trace_free(t);
    return -1;
}

static void put16(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v)
{
    put16(p, v & 0xffff);
    put16(p + 2, v >> 16);
}

static void put64(unsigned char *p, uint64_t v)
{
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

static uint64_t to_ns(double s)
{
    return (uint64_t)(s * 1e9 + 0.5);
}

/* 1 when world rank r is a member of c. */
static int comm_has(const struct trace_comm *c, int r)
{
    if (c->members == NULL)
        return r >= 0 && r < c->size;
    for (int i = 0; i < c->size; i++)
        if (c->members[i] == r)
            return 1;
    return 0;
}

int trace_encode(const struct trace *t, int rank, unsigned char **buf, size_t *len,
                 struct err *err)
{
    const struct trace_rank *rk;
    size_t sz = TRACE_HEADER_SIZE;
    unsigned char *b, *p;
    uint32_t *local = NULL, nlocal = 0; /* trace.comms number -> 1 + file index */

    *buf = NULL;
    if (t == NULL || rank < 0 || rank >= t->nranks)
        return BAD("rank %d is not in the trace", rank);
    rk = &t->ranks[rank];
    if (!(rk->t_end >= 0) || t->nnames > LIMIT_TRACE_NAMES)
        return BAD("rank %d cannot be encoded", rank);
    for (int i = 0; i < t->nnames; i++)
        sz += 2 + strlen(t->names[i]);
    for (size_t i = 0; i < rk->nevents; i++)
        if (!(rk->ev[i].begin >= 0) || !(rk->ev[i].end >= rk->ev[i].begin) ||
            rk->ev[i].op >= TRACE_OP_COUNT ||
            (rk->ev[i].op != TRACE_OP_STATE && rk->ev[i].comm > (uint32_t)t->ncomms))
            return BAD("rank %d event %zu cannot be encoded", rank, i);
    for (size_t k = 0; k < rk->ndone; k++) {
        const struct trace_done *d = &rk->done[k];
        if (d->event >= rk->nevents || d->peer < 0 || d->peer >= t->nranks ||
            d->bytes < 0 || (k > 0 && d->event < rk->done[k - 1].event) ||
            !trace_op_completes(rk->ev[d->event].op) ||
            (trace_op_polls(rk->ev[d->event].op) && d->first < d->event &&
             !trace_op_polls(rk->ev[d->first].op)))
            return BAD("rank %d completed receive %zu cannot be encoded", rank, k);
    }
    if (t->ncomms > 0) {
        local = xcalloc((size_t)t->ncomms, sizeof *local);
        if (local == NULL)
            return err_nomem(err);
        for (size_t i = 0; i < rk->nevents; i++) {
            uint32_t c = rk->ev[i].op != TRACE_OP_STATE ? rk->ev[i].comm : 0;
            const struct trace_comm *cm = c ? &t->comms[c - 1] : NULL;
            if (cm == NULL || local[c - 1] != 0)
                continue;
            if (!comm_has(cm, rank) || cm->size < 1 || cm->size > t->nranks ||
                nlocal == LIMIT_TRACE_COMMS) {
                xfree(local);
                return BAD("rank %d event %zu names a communicator it cannot be "
                           "encoded with",
                           rank, i);
            }
            local[c - 1] = ++nlocal;
            sz += 8 + (cm->members ? 4 * (size_t)cm->size : 0);
        }
    }
    sz += rk->nevents * TRACE_EVENT_SIZE + rk->ndone * TRACE_DONE_SIZE;
    b = xcalloc(1, sz);
    if (b == NULL) {
        xfree(local);
        return err_nomem(err);
    }
    memcpy(b, TRACE_MAGIC, 8);
    put32(b + 8, TRACE_FORMAT_VERSION);
    put32(b + 12, (uint32_t)rank);
    put32(b + 16, (uint32_t)t->nranks);
    put32(b + 20, (uint32_t)t->nnames);
    put64(b + 24, rk->nevents);
    put64(b + 32, to_ns(rk->t_end));
    put32(b + 48, TRACE_EVENT_SIZE);
    put32(b + 52, nlocal);
    put64(b + 56, rk->ndone);
    p = b + TRACE_HEADER_SIZE;
    for (int i = 0; i < t->nnames; i++) {
        size_t n = strlen(t->names[i]);
        put16(p, (uint32_t)n);
        memcpy(p + 2, t->names[i], n);
        p += 2 + n;
    }
    /* the communicators in the order of their file numbers */
    for (uint32_t want = 1; want <= nlocal; want++)
        for (int c = 0; c < t->ncomms; c++)
            if (local[c] == want) {
                const struct trace_comm *cm = &t->comms[c];
                put32(p, cm->members ? (uint32_t)cm->size : 0);
                put32(p + 4, cm->seq);
                p += 8;
                for (int i = 0; cm->members && i < cm->size; i++, p += 4)
                    put32(p, (uint32_t)cm->members[i]);
                break;
            }
    for (size_t i = 0; i < rk->nevents; i++, p += TRACE_EVENT_SIZE) {
        const struct trace_event *e = &rk->ev[i];
        put64(p, to_ns(e->begin));
        put64(p + 8, to_ns(e->end));
        put64(p + 16, (uint64_t)e->bytes);
        put32(p + 24, (uint32_t)e->peer);
        put32(p + 28, (uint32_t)e->peer2);
        put32(p + 32, (uint32_t)e->tag);
        put32(p + 36, (uint32_t)e->tag2);
        put32(p + 40, e->comm_size);
        put16(p + 44, e->op);
        put16(p + 46, e->op == TRACE_OP_STATE ? e->name
                      : e->comm > 0           ? local[e->comm - 1]
                                              : 0);
    }
    for (size_t k = 0; k < rk->ndone; k++, p += TRACE_DONE_SIZE) {
        const struct trace_done *d = &rk->done[k];
        int polls = trace_op_polls(rk->ev[d->event].op) && d->first < d->event;
        put64(p, d->event);
        put64(p + 8, (uint64_t)d->bytes);
        put32(p + 16, (uint32_t)d->peer);
        put32(p + 20, (uint32_t)d->tag);
        put64(p + 24, polls ? d->first : d->event);
    }
    xfree(local);
    *buf = b;
    *len = sz;
    return 0;
}

/* Reads a whole file of at most `max` bytes into *buf (xmalloc'd). */
static int slurp(const char *path, unsigned long long max, unsigned char **buf,
                 size_t *len, struct err *err)
{
    FILE *f = fopen(path, "rb");
    long sz;
    *buf = NULL;
    if (f == NULL)
        return err_set(err, errno == ENOENT ? ERR_NOT_FOUND : ERR_INVALID,
                       "invalid_trace", NULL, "cannot open %s: %s", path,
                       strerror(errno));
    if (fseek(f, 0, SEEK_END) != 0 || (sz = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return BAD("cannot read %s", path);
    }
    if ((unsigned long long)sz > max) {
        fclose(f);
        return BAD("the trace is larger than %llu bytes",
                   (unsigned long long)LIMIT_TRACE_BYTES);
    }
    *buf = xmalloc(sz ? (size_t)sz : 1);
    if (*buf == NULL) {
        fclose(f);
        return err_nomem(err);
    }
    if (fread(*buf, 1, (size_t)sz, f) != (size_t)sz) {
        fclose(f);
        xfree(*buf);
        *buf = NULL;
        return BAD("cannot read %s", path);
    }
    fclose(f);
    *len = (size_t)sz;
    return 0;
}

int trace_read_dir(const char *dir, struct trace **out, struct err *err)
{
    unsigned char **bufs = NULL;
    size_t *lens = NULL;
    unsigned long long left = LIMIT_TRACE_BYTES;
    char path[4096];
    struct hdr h;
    int n = 0, rc = -1;
    FILE *extra;

    *out = NULL;
    bufs = xcalloc(1, sizeof *bufs);
    lens = xcalloc(1, sizeof *lens);
    if (bufs == NULL || lens == NULL)
        goto nomem;
    snprintf(path, sizeof path, "%s/trace.0", dir);
    if (slurp(path, left, &bufs[0], &lens[0], err) < 0)
        goto out;
    if (parse_header(bufs[0], lens[0], 0, &h, err) < 0)
        goto out;
    n = (int)h.nranks;
    {
        unsigned char **b2 = xrealloc(bufs, (size_t)n * sizeof *b2);
        size_t *l2;
        if (b2 == NULL)
            goto nomem;
        bufs = b2;
        memset(bufs + 1, 0, (size_t)(n - 1) * sizeof *bufs);
        l2 = xrealloc(lens, (size_t)n * sizeof *l2);
        if (l2 == NULL)
            goto nomem;
        lens = l2;
    }
    left -= lens[0];
    for (int i = 1; i < n; i++) {
        snprintf(path, sizeof path, "%s/trace.%d", dir, i);
        if (slurp(path, left, &bufs[i], &lens[i], err) < 0) {
            err_clear(err);
            BAD("rank file trace.%d of a %d-rank run is missing or unreadable", i, n);
            goto out;
        }
        left -= lens[i];
    }
    snprintf(path, sizeof path, "%s/trace.%d", dir, n);
    extra = fopen(path, "rb");
    if (extra != NULL) {
        fclose(extra);
        BAD("trace.%d exists but trace.0 says the run had %d ranks", n, n);
        goto out;
    }
    rc = trace_parse((const void *const *)bufs, lens, n, out, err);
    goto out;
nomem:
    err_nomem(err);
out:
    for (int i = 0; i < (n ? n : 1) && bufs; i++)
        xfree(bufs[i]);
    xfree(bufs);
    xfree(lens);
    return rc;
}
