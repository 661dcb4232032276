/* Unit tests for models/trace against hand-computed examples: Lyon's ABCD
 * microstate trace (T1) → its macrostate table (T2) and mean node occupancy
 * (17 for A1); a three-rank late-sender case → its wait matrix and traffic; a
 * barrier with a known last arriver; clusters on an obvious two-group case. */
#include "common/err.h"
#include "common/xalloc.h"
#include "models/trace.h"
#include "tests/harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EPS 1e-9

/* Appends an event to rank r of t (events must come in begin order). */
static void add(struct trace *t, int r, int op, double b, double e, int peer, int tag,
                long long bytes, int comm)
{
    struct trace_rank *rk = &t->ranks[r];
    rk->ev = realloc(rk->ev, (rk->nevents + 1) * sizeof *rk->ev);
    rk->ev[rk->nevents++] = (struct trace_event){.begin = b,
                                                 .end = e,
                                                 .bytes = bytes,
                                                 .peer = peer,
                                                 .peer2 = -1,
                                                 .tag = tag,
                                                 .comm_size = (uint32_t)comm,
                                                 .op = (uint16_t)op};
}

static struct trace *new_trace(int p, double t_end)
{
    struct trace *t = xcalloc(1, sizeof *t);
    t->nranks = p;
    t->ranks = xcalloc((size_t)p, sizeof *t->ranks);
    for (int r = 0; r < p; r++)
        t->ranks[r].t_end = t_end;
    return t;
}

/* Lyon's T1 with A1 = compute, A2 = point-to-point (MPI_Send to nobody),
 * A3 = collective (a barrier on a sub-communicator, so never matched). */
static struct trace *abcd(void)
{
    struct trace *t = new_trace(4, 29);
    static const double a2[4][6][2] = {
        {{13, 18}, {23, 24}, {28, 29}},
        {{3, 4}, {13, 18}, {18, 23}, {23, 24}, {26, 28}, {28, 29}},
        {{4, 6}, {8, 13}, {23, 24}, {26, 28}, {28, 29}},
        {{8, 13}, {18, 23}, {23, 24}, {26, 28}},
    };
    static const int na2[4] = {3, 6, 5, 4};
    for (int r = 0; r < 4; r++) {
        for (int i = 0; i < na2[r]; i++) {
            if (r == 1 && i == 1) /* b: A3 from 6 to 7 */
                add(t, r, TRACE_OP_BARRIER, 6, 7, -1, 0, 0, 2);
            add(t, r, TRACE_OP_SEND, a2[r][i][0], a2[r][i][1], -1, 0, 8, 4);
        }
        if (r == 3) /* d: A3 from 28 to 29 */
            add(t, r, TRACE_OP_BARRIER, 28, 29, -1, 0, 0, 2);
    }
    return t;
}

/* A trace without events (issue 34 item 14): no segments at all, so the
 * sort had a NULL array (qsort(NULL, 0, ...): UBSan stopped the sanitized
 * server on that upload). Empty occupancy, every mean 0. */
static void test_occupancy_without_events(void)
{
    struct trace *t = new_trace(2, 0);
    struct trace_occupancy *o = NULL;
    struct err err = {0};

    CHECK_INT(trace_occupancy(t, &o, &err), 0);
    CHECK(o != NULL);
    if (o != NULL) {
        CHECK_INT(o->nrows, 0);
        for (int c = 0; c < o->nclasses; c++)
            CHECK(o->mean[c] == 0 && o->fraction[c] == 0);
    }
    trace_occupancy_free(o);
    trace_free(t);
}

static void test_lyon_abcd(void)
{
    static const int want[9][3] = {{4, 0, 0}, {3, 1, 0}, {3, 0, 1}, {4, 0, 0}, {2, 2, 0},
                                   {0, 4, 0}, {4, 0, 0}, {1, 3, 0}, {0, 3, 1}};
    static const double dur[9] = {3, 3, 1, 1, 15, 1, 2, 2, 1};
    struct trace *t = abcd();
    struct trace_occupancy *o = NULL;
    struct err err = {0};

    CHECK_INT(trace_occupancy(t, &o, &err), 0);
    CHECK(o != NULL);
    if (o == NULL)
        goto out;
    CHECK_INT(o->nclasses, 4);
    CHECK_INT(o->nrows, 9);
    for (size_t i = 0; i < 9 && i < o->nrows; i++) {
        CHECK_INT(o->count[i * 4 + TRACE_CLASS_COMPUTE], want[i][0]);
        CHECK_INT(o->count[i * 4 + TRACE_CLASS_P2P], want[i][1]);
        CHECK_INT(o->count[i * 4 + TRACE_CLASS_COLLECTIVE], want[i][2]);
        CHECK_INT(o->count[i * 4 + TRACE_CLASS_WAIT], 0);
        CHECK(fabs(o->duration[i] - dur[i]) < EPS);
    }
    /* Lyon: 4/4*6 + 3/4*4 + 2/4*15 + 1/4*2 = 17 */
    CHECK(fabs(o->mean[TRACE_CLASS_COMPUTE] - 17) < EPS);
    CHECK(fabs(o->mean[TRACE_CLASS_COMPUTE] + o->mean[TRACE_CLASS_P2P] +
               o->mean[TRACE_CLASS_COLLECTIVE] - 29) < EPS);
    CHECK(fabs(o->fraction[TRACE_CLASS_COMPUTE] - 17.0 / 29) < EPS);
out:
    trace_occupancy_free(o);
    trace_free(t);
}

static void test_profile_timeline_load(void)
{
    struct trace *t = abcd();
    struct trace_profile *p = NULL;
    struct trace_timeline *tl = NULL;
    struct trace_load *l = NULL;

    CHECK_INT(trace_profile(t, &p, NULL), 0);
    CHECK_INT(trace_timeline(t, 29, &tl, NULL), 0);
    CHECK_INT(trace_load(t, &l, NULL), 0);
    if (p == NULL || tl == NULL || l == NULL)
        goto out;
    /* a: sends 5 + 1 + 1 = 7 s, computes 22 s */
    CHECK(fabs(p->time[0 * TRACE_OP_COUNT + TRACE_OP_SEND] - 7) < EPS);
    CHECK_INT(p->calls[0 * TRACE_OP_COUNT + TRACE_OP_SEND], 3);
    CHECK(fabs(p->compute[0] - 22) < EPS);
    /* b: 1 + 5 + 5 + 1 + 2 + 1 = 15 s sending, 1 s in the barrier */
    CHECK(fabs(p->time[1 * TRACE_OP_COUNT + TRACE_OP_SEND] - 15) < EPS);
    CHECK(fabs(p->mpi[1] - 16) < EPS);
    /* timeline: one pixel per time unit */
    CHECK_INT(tl->cls[1 * 29 + 0], TRACE_CLASS_COMPUTE);
    CHECK_INT(tl->cls[1 * 29 + 3], TRACE_CLASS_P2P);
    CHECK_INT(tl->cls[1 * 29 + 6], TRACE_CLASS_COLLECTIVE);
    CHECK_INT(tl->cls[3 * 29 + 28], TRACE_CLASS_COLLECTIVE);
    /* load: compute a 22, b 13, c 18, d 15 -> mean 17; MPI 7, 16, 11, 14 -> mean 12 */
    CHECK(fabs(l->compute[2] - 18) < EPS);
    CHECK(fabs(l->compute_imbalance - 22.0 / 17) < EPS);
    CHECK(fabs(l->comm_imbalance - 16.0 / 12) < EPS);
    /* 18 sends and 2 barriers */
    CHECK_INT((int)l->mpi_calls, 20);
    CHECK_INT((int)trace_mpi_calls(t), 20);
    /* seconds per class: b computes 13, sends 15, is in a barrier 1 */
    CHECK_INT(p->nclasses, TRACE_CLASS_USER);
    CHECK(fabs(p->cls[1 * TRACE_CLASS_USER + TRACE_CLASS_COMPUTE] - 13) < EPS);
    CHECK(fabs(p->cls[1 * TRACE_CLASS_USER + TRACE_CLASS_P2P] - 15) < EPS);
    CHECK(fabs(p->cls[1 * TRACE_CLASS_USER + TRACE_CLASS_COLLECTIVE] - 1) < EPS);
out:
    trace_profile_free(p);
    trace_timeline_free(tl);
    trace_load_free(l);
    trace_free(t);
}

/* A trace of user states only (Trace Event JSON, a program that made no MPI
 * call): no MPI calls; each rank's time per state is its innermost state's,
 * so that nested states add up to its execution time. Rank 0: "outer" over
 * [0, 10] with "inner" over [2, 5], then nothing until 12; rank 1: "inner"
 * over [1, 4]. */
static void test_states_only(void)
{
    struct trace *t = new_trace(2, 12);
    struct trace_profile *p = NULL;
    struct trace_load *l = NULL;
    struct trace_timeline *tl = NULL;
    struct trace_occupancy *oc = NULL;
    int o = TRACE_CLASS_USER, in = TRACE_CLASS_USER + 1, nc = TRACE_CLASS_USER + 2;

    t->nnames = 2;
    t->names = xcalloc(2, sizeof *t->names);
    t->names[0] = xstrdup("outer");
    t->names[1] = xstrdup("inner");
    add(t, 0, TRACE_OP_STATE, 0, 10, -1, 0, 0, 0);
    add(t, 0, TRACE_OP_STATE, 2, 5, -1, 0, 0, 0);
    t->ranks[0].ev[1].name = 1;
    add(t, 1, TRACE_OP_STATE, 1, 4, -1, 0, 0, 0);
    t->ranks[1].ev[0].name = 1;
    t->ranks[1].t_end = 4;
    CHECK_INT((int)trace_mpi_calls(t), 0);
    CHECK_INT(trace_profile(t, &p, NULL), 0);
    CHECK_INT(trace_load(t, &l, NULL), 0);
    if (p == NULL || l == NULL)
        goto out;
    CHECK_INT((int)l->mpi_calls, 0);
    CHECK(l->comm[0] == 0 && l->comm[1] == 0);
    CHECK_INT(p->nclasses, nc);
    CHECK(fabs(p->cls[o] - 7) < EPS);
    CHECK(fabs(p->cls[in] - 3) < EPS);
    CHECK(fabs(p->cls[TRACE_CLASS_COMPUTE] - 2) < EPS);
    CHECK(fabs(p->cls[nc + TRACE_CLASS_COMPUTE] - 1) < EPS);
    CHECK(fabs(p->cls[nc + in] - 3) < EPS);
    CHECK(p->cls[nc + o] == 0);
    /* the timeline's and the occupancy's time per class (all ranks) is the
     * profile's summed over its ranks, to the last bit: the charts rank
     * the classes by it alike */
    CHECK_INT(trace_timeline(t, 7, &tl, NULL), 0);
    CHECK_INT(trace_occupancy(t, &oc, NULL), 0);
    if (tl == NULL || oc == NULL)
        goto out;
    CHECK_INT(tl->nclasses, nc);
    for (int c = 0; c < nc; c++) {
        double sum = 0;
        for (int r = 0; r < 2; r++)
            sum += p->cls[r * nc + c];
        CHECK(tl->time[c] == sum && oc->time[c] == sum);
    }
    CHECK(fabs(tl->time[in] - 6) < EPS && fabs(tl->time[TRACE_CLASS_COMPUTE] - 3) < EPS);
out:
    trace_profile_free(p);
    trace_load_free(l);
    trace_timeline_free(tl);
    trace_occupancy_free(oc);
    trace_free(t);
}

static void test_late_sender(void)
{
    struct trace *t = new_trace(3, 10);
    struct trace_wait *w = NULL;
    struct trace_traffic *tr = NULL;

    add(t, 0, TRACE_OP_SEND, 3, 3.1, 1, 7, 100, 3);
    add(t, 0, TRACE_OP_SEND, 5, 5.1, 2, 0, 200, 3);
    add(t, 1, TRACE_OP_RECV, 0.5, 3.2, 0, 7, 100, 3);
    add(t, 1, TRACE_OP_SEND, 3.3, 3.4, 2, 0, 300, 3);
    add(t, 2, TRACE_OP_RECV, 1, 5.2, 0, 0, 200, 3);
    add(t, 2, TRACE_OP_RECV, 5.2, 5.3, 1, 0, 300, 3);
    CHECK_INT(trace_wait(t, &w, NULL), 0);
    CHECK_INT(trace_traffic(t, &tr, NULL), 0);
    if (w == NULL || tr == NULL)
        goto out;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double want = i == 1 && j == 0 ? 2.5 : i == 2 && j == 0 ? 4 : 0;
            CHECK(fabs(trace_wait_at(w, i, j) - want) < EPS);
        }
    CHECK(fabs(w->rank_wait[2] - 4) < EPS);
    CHECK(fabs(w->total - 6.5) < EPS);
    CHECK(fabs(w->exec[1] - 10) < EPS);
    CHECK_INT(w->unmatched, 0);
    CHECK_INT(trace_traffic_at(tr, 0, 0, 1).msgs, 1);
    CHECK_INT(trace_traffic_at(tr, 0, 1, 2).msgs, 1);
    CHECK_INT(trace_traffic_at(tr, 0, 2, 0).msgs, 0);
    CHECK_INT(trace_traffic_at(tr, 0, 0, 2).bytes, 200);
    /* 0 -> 1: both ready at 3, received at 3.2: 100 B in 0.2 s */
    CHECK(fabs(trace_traffic_at(tr, 0, 0, 1).rate - 500) < 1e-6);
    /* 1 -> 2: sent at 3.3, receive posted at 5.2, done 5.3: 300 B in 0.1 s */
    CHECK(fabs(trace_traffic_at(tr, 0, 1, 2).rate - 3000) < 1e-6);
out:
    trace_wait_free(w);
    trace_traffic_free(tr);
    trace_free(t);
}

/* Records that the last event of rank r (a Waitall or Waitany) completed a
 * receive from `peer` with `tag`. */
static void add_done(struct trace *t, int r, int peer, int tag, long long bytes)
{
    struct trace_rank *rk = &t->ranks[r];
    rk->done = realloc(rk->done, (rk->ndone + 1) * sizeof *rk->done);
    rk->done[rk->ndone++] = (struct trace_done){
        .event = rk->nevents - 1, .bytes = bytes, .peer = peer, .tag = tag};
}

/* A halo step: rank 0 posts three Irecv (from 1, 2, 3) and waits in one
 * Waitall over [1, 6]; rank 2's send begins at 2.5, rank 1's at 4.5, rank 3's
 * at 0.5 (early). The Waitall waits until 4.5: [1, 2.5] for rank 2 (the first
 * awaited), [2.5, 4.5] for rank 1, nothing for rank 3. Then a Waitany over
 * [7, 8] completes one receive from rank 3, sent at 7.25: 0.25 for rank 3, as
 * a Wait would. A completion with no send (tag 99) counts as unmatched. */
static void test_waitall_late_senders(void)
{
    struct trace *t = new_trace(4, 10);
    struct trace_wait *w = NULL;
    struct trace_traffic *tr = NULL;
    static const double want[4] = {0, 2.0, 1.5, 0.25};

    add(t, 0, TRACE_OP_IRECV, 0.1, 0.11, 1, 5, 0, 4);
    add(t, 0, TRACE_OP_IRECV, 0.2, 0.21, 2, 5, 0, 4);
    add(t, 0, TRACE_OP_IRECV, 0.3, 0.31, 3, 9, 0, 4);
    add(t, 0, TRACE_OP_WAITALL, 1, 6, -1, 0, 0, 4);
    add_done(t, 0, 1, 5, 64);
    add_done(t, 0, 2, 5, 64);
    add_done(t, 0, 3, 9, 64);
    add(t, 0, TRACE_OP_IRECV, 6.5, 6.51, 3, 1, 0, 4);
    add(t, 0, TRACE_OP_IRECV, 6.6, 6.61, 2, 99, 0, 4);
    add(t, 0, TRACE_OP_WAITANY, 7, 8, -1, 0, 0, 4);
    add_done(t, 0, 3, 1, 8);
    add(t, 0, TRACE_OP_WAITANY, 8, 9, -1, 0, 0, 4);
    add_done(t, 0, 2, 99, 8);
    add(t, 1, TRACE_OP_ISEND, 4.5, 4.6, 0, 5, 64, 4);
    add(t, 2, TRACE_OP_SEND, 2.5, 2.6, 0, 5, 64, 4);
    add(t, 3, TRACE_OP_SEND, 0.5, 0.6, 0, 9, 64, 4);
    add(t, 3, TRACE_OP_SEND, 7.25, 7.3, 0, 1, 8, 4);
    CHECK_INT(trace_wait(t, &w, NULL), 0);
    CHECK_INT(trace_traffic(t, &tr, NULL), 0);
    if (w == NULL || tr == NULL)
        goto out;
    for (int j = 0; j < 4; j++)
        CHECK(fabs(trace_wait_at(w, 0, j) - want[j]) < EPS);
    for (int i = 1; i < 4; i++)
        CHECK(fabs(w->rank_wait[i]) < EPS);
    CHECK(fabs(w->rank_wait[0] - 3.75) < EPS);
    CHECK(fabs(w->total - 3.75) < EPS);
    CHECK_INT(w->unmatched, 1);
    /* 2 -> 0: both ready at 2.5, completed at 6: 64 B in 3.5 s */
    CHECK(fabs(trace_traffic_at(tr, 0, 2, 0).rate - 64 / 3.5) < 1e-9);
out:
    trace_wait_free(w);
    trace_traffic_free(tr);
    trace_free(t);
}

/* Records that the last event of rank r (a Test call) completed a receive
 * first polled by the Test call at index `first`. */
static void add_polled(struct trace *t, int r, int peer, int tag, size_t first)
{
    add_done(t, r, peer, tag, 8);
    t->ranks[r].done[t->ranks[r].ndone - 1].first = first;
}

/* A Test loop: rank 1 posts an Irecv from rank 0 and polls it with MPI_Test
 * over [1, 1.1], [2, 2.1] (a send to rank 2 in between, not a poll) and
 * [3, 3.1], which completes it; rank 0's send begins at 2.5. The loop waited
 * in its Test calls until 2.5: 0.1 + 0.1 = 0.2 s for rank 0 (the third Test
 * began after the send). Then a Testsome loop over receives from ranks 0 and
 * 2, polled from [5, 5.5], [6, 6.5] and completed in [7, 7.5]; rank 2 sends
 * at 5.25, rank 0 at 6.25. In [5, 5.5]: [5, 5.25] for rank 2, [5.25, 5.5]
 * for rank 0; in [6, 6.5]: [6, 6.25] for rank 0: rank 0 0.7 s, rank 2 0.25 s
 * in all, no Test second counted twice. */
static void test_test_loop_late_sender(void)
{
    struct trace *t = new_trace(3, 10);
    struct trace_wait *w = NULL;
    struct trace_profile *p = NULL;

    add(t, 1, TRACE_OP_IRECV, 0, 0.01, 0, 7, 8, 3);
    add(t, 1, TRACE_OP_TEST, 1, 1.1, -1, 0, 0, 0);
    add(t, 1, TRACE_OP_SEND, 1.5, 1.6, 2, 3, 8, 3);
    add(t, 1, TRACE_OP_TEST, 2, 2.1, -1, 0, 0, 0);
    add(t, 1, TRACE_OP_TEST, 3, 3.1, -1, 0, 0, 0);
    add_polled(t, 1, 0, 7, 1);
    add(t, 1, TRACE_OP_IRECV, 4, 4.01, 0, 8, 8, 3);
    add(t, 1, TRACE_OP_IRECV, 4.02, 4.03, 2, 8, 8, 3);
    add(t, 1, TRACE_OP_TESTSOME, 5, 5.5, -1, 0, 0, 0);
    add(t, 1, TRACE_OP_TESTSOME, 6, 6.5, -1, 0, 0, 0);
    add(t, 1, TRACE_OP_TESTSOME, 7, 7.5, -1, 0, 0, 0);
    add_polled(t, 1, 0, 8, 7);
    add_polled(t, 1, 2, 8, 7);
    add(t, 0, TRACE_OP_SEND, 2.5, 2.6, 1, 7, 8, 3);
    add(t, 0, TRACE_OP_SEND, 6.25, 6.3, 1, 8, 8, 3);
    add(t, 2, TRACE_OP_RECV, 1.4, 1.6, 1, 3, 8, 3);
    add(t, 2, TRACE_OP_SEND, 5.25, 5.3, 1, 8, 8, 3);
    CHECK_INT(trace_wait(t, &w, NULL), 0);
    CHECK_INT(trace_profile(t, &p, NULL), 0);
    if (w == NULL || p == NULL)
        goto out;
    CHECK(fabs(trace_wait_at(w, 1, 0) - 0.7) < EPS);
    CHECK(fabs(trace_wait_at(w, 1, 2) - 0.25) < EPS);
    CHECK(fabs(w->rank_wait[1] - 0.95) < EPS);
    CHECK(fabs(trace_wait_at(w, 2, 1) - 0.1) <
          EPS); /* rank 2's Recv: rank 1 sent at 1.5 */
    CHECK(fabs(w->total - 1.05) < EPS);
    CHECK_INT(w->unmatched, 0);
    CHECK_INT(p->calls[1 * TRACE_OP_COUNT + TRACE_OP_TEST], 3);
    CHECK(fabs(p->time[1 * TRACE_OP_COUNT + TRACE_OP_TESTSOME] - 1.5) < EPS);
    CHECK_INT(trace_op_class(TRACE_OP_TEST), TRACE_CLASS_WAIT);
    CHECK_INT(trace_op_class(TRACE_OP_IALLREDUCE), TRACE_CLASS_COLLECTIVE);
    CHECK_INT(trace_op_class(TRACE_OP_ISSEND), TRACE_CLASS_P2P);
    CHECK_STR(trace_op_name(TRACE_OP_IALLTOALLV), "MPI_Ialltoallv");
out:
    trace_wait_free(w);
    trace_profile_free(p);
    trace_free(t);
}

/* Adds communicator {members} (seq) to t; returns its number for events. */
static uint32_t add_comm(struct trace *t, const int *members, int n, uint32_t seq)
{
    int32_t *m = NULL;
    if (members != NULL) {
        m = xcalloc((size_t)n, sizeof *m);
        for (int i = 0; i < n; i++)
            m[i] = members[i];
    }
    t->comms = realloc(t->comms, (size_t)(t->ncomms + 1) * sizeof *t->comms);
    t->comms[t->ncomms] = (struct trace_comm){n, seq, m};
    return (uint32_t)++t->ncomms;
}

static void add_on(struct trace *t, int r, int op, double b, double e, uint32_t comm)
{
    add(t, r, op, b, e, -1, 0, 0, t->comms[comm - 1].size);
    t->ranks[r].ev[t->ranks[r].nevents - 1].comm = comm;
}

/* Four ranks split in two: A = {2, 0} (rank 2 is A's rank 0) and B = {1, 3}.
 * A barrier on A: rank 0 arrives at 1, rank 2 at 3 (last): rank 0 waited 2 s
 * for rank 2. On B: rank 1 at 2 (last), rank 3 at 1.5: 0.5 s of rank 3 for
 * rank 1. An Allgatherv on A, rank 0 last at 3.6, rank 2 at 3.5: 0.1 s of
 * rank 2 for rank 0. Then a barrier on the world (all members, in order):
 * 4, 4.5 (rank 1 last), 4.2, 4.1: 0.5, 0.3 and 0.4 s for rank 1. A dup of A
 * (same members, seq 1) is another communicator: its barrier (rank 0 at 5,
 * rank 2 at 5.5) is not mixed with A's and charges 0.5 s to rank 2. The
 * nonblocking Iallreduce on B is not a wait. */
static void test_subcomm_collectives(void)
{
    static const int a[2] = {2, 0}, bm[2] = {1, 3};
    struct trace *t = new_trace(4, 10);
    struct trace_wait *w = NULL;
    uint32_t ca = add_comm(t, a, 2, 0), cb = add_comm(t, bm, 2, 0),
             cw = add_comm(t, NULL, 4, 0), ca2 = add_comm(t, a, 2, 1);
    static const double world_arrive[4] = {4, 4.5, 4.2, 4.1};

    add_on(t, 0, TRACE_OP_BARRIER, 1, 3.05, ca);
    add_on(t, 2, TRACE_OP_BARRIER, 3, 3.05, ca);
    add_on(t, 1, TRACE_OP_BARRIER, 2, 2.05, cb);
    add_on(t, 3, TRACE_OP_BARRIER, 1.5, 2.05, cb);
    add_on(t, 0, TRACE_OP_ALLGATHERV, 3.6, 3.7, ca);
    add_on(t, 2, TRACE_OP_ALLGATHERV, 3.5, 3.7, ca);
    add_on(t, 1, TRACE_OP_IALLREDUCE, 3, 3.01, cb);
    add_on(t, 3, TRACE_OP_IALLREDUCE, 3.5, 3.51, cb);
    for (int r = 0; r < 4; r++)
        add_on(t, r, TRACE_OP_BARRIER, world_arrive[r], 4.6, cw);
    add_on(t, 0, TRACE_OP_BARRIER, 5, 5.6, ca2);
    add_on(t, 2, TRACE_OP_BARRIER, 5.5, 5.6, ca2);
    CHECK_INT(trace_wait(t, &w, NULL), 0);
    if (w == NULL)
        goto out;
    CHECK(fabs(trace_wait_at(w, 0, 2) - 2.5) < EPS); /* A's barrier and A2's */
    CHECK(fabs(trace_wait_at(w, 3, 1) - (0.5 + 0.4)) < EPS);
    CHECK(fabs(trace_wait_at(w, 2, 0) - 0.1) < EPS);
    CHECK(fabs(trace_wait_at(w, 0, 1) - 0.5) < EPS);
    CHECK(fabs(trace_wait_at(w, 2, 1) - 0.3) < EPS);
    CHECK(fabs(w->rank_wait[1]) < EPS);
    CHECK(fabs(w->total - (2.5 + 0.9 + 0.1 + 0.5 + 0.3)) < EPS);
out:
    trace_wait_free(w);
    trace_free(t);
}

static void test_collective_last_arriver(void)
{
    struct trace *t = new_trace(3, 5);
    struct trace_wait *w = NULL;
    struct trace_traffic *tr = NULL;
    static const double arrive[3] = {1, 4, 2};

    for (int r = 0; r < 3; r++) {
        add(t, r, TRACE_OP_BARRIER, arrive[r], 4.1, -1, 0, 0, 3);
        add(t, r, TRACE_OP_BCAST, 4.2, 4.3, 0, 0, 64, 3);
    }
    CHECK_INT(trace_wait(t, &w, NULL), 0);
    CHECK_INT(trace_traffic(t, &tr, NULL), 0);
    if (w == NULL || tr == NULL)
        goto out;
    CHECK(fabs(trace_wait_at(w, 0, 1) - 3) < EPS); /* rank 0 waited 3 s for rank 1 */
    CHECK(fabs(trace_wait_at(w, 2, 1) - 2) < EPS);
    CHECK(fabs(w->total - 5) < EPS);
    CHECK(fabs(w->rank_wait[1]) < EPS);
    CHECK_INT(trace_traffic_at(tr, 1, 0, 1).msgs, 1);
    CHECK_INT(trace_traffic_at(tr, 1, 0, 2).bytes, 64);
    CHECK_INT(trace_traffic_at(tr, 1, 1, 0).bytes, 0);
    CHECK_INT(tr->coll_calls[2], 2);
    CHECK_INT(trace_traffic_at(tr, 0, 0, 1).msgs, 0); /* kept apart from point-to-point */
out:
    trace_wait_free(w);
    trace_traffic_free(tr);
    trace_free(t);
}

static void test_clusters_two_groups(void)
{
    struct trace *t = new_trace(6, 20);
    struct trace_clusters *c = NULL;

    for (int r = 0; r < 6; r++) {
        double j = 0.01 * r; /* small jitter */
        if (r % 2 == 0)
            add(t, r, TRACE_OP_SEND, 1, 2 + j, -1, 0, 8, 6);
        else
            add(t, r, TRACE_OP_RECV, 1, 9 + j, -1, 0, 8, 6);
    }
    CHECK_INT(trace_clusters(t, &c, NULL), 0);
    if (c == NULL)
        goto out;
    CHECK_INT(c->k, 2);
    CHECK(c->silhouette > 0.9);
    for (int r = 2; r < 6; r++)
        CHECK_INT(c->label[r], c->label[r % 2]);
    CHECK(c->label[0] != c->label[1]);
    CHECK(c->ndims >= 1);
out:
    trace_clusters_free(c);
    trace_free(t);
}

/* Lyon's estimator: a class whose occupancy fraction is 0.1 + 0.05 p across
 * four runs is recovered exactly by a first-degree fit over nprocs. */
static void test_occupancy_fit(void)
{
    double x[4] = {2, 4, 8, 16}, frac[4 * 5];
    struct fit_result f;
    struct err err = {0};

    for (int i = 0; i < 4; i++)
        for (int c = 0; c < 5; c++)
            frac[i * 5 + c] = c == TRACE_CLASS_WAIT ? 0.1 + 0.05 * x[i] : 0.2;
    CHECK_INT(trace_occupancy_fit(x, frac, 4, 5, TRACE_CLASS_WAIT, "poly1", &f, &err), 0);
    CHECK(fabs(f.model.coef[0] - 0.1) < 1e-9);
    CHECK(fabs(f.model.coef[1] - 0.05) < 1e-9);
    fit_result_free(&f);
    CHECK_INT(trace_occupancy_fit(x, frac, 4, 5, 5, NULL, &f, &err), -1);
    CHECK_STR(err.field, "class");
}

/* Every analysis under fault injection: each of its allocations failing in
 * turn gives -1, "out of memory" and no answer, never a crash. */
static int run_analysis(int which, const struct trace *t, struct err *err)
{
    void *a = NULL;
    int rc = -1;
    switch (which) {
    case 0:
        rc = trace_profile(t, (struct trace_profile **)&a, err);
        trace_profile_free(a);
        break;
    case 1:
        rc = trace_wait(t, (struct trace_wait **)&a, err);
        trace_wait_free(a);
        break;
    case 2:
        rc = trace_traffic(t, (struct trace_traffic **)&a, err);
        trace_traffic_free(a);
        break;
    case 3:
        rc = trace_load(t, (struct trace_load **)&a, err);
        trace_load_free(a);
        break;
    case 4:
        rc = trace_timeline(t, 29, (struct trace_timeline **)&a, err);
        trace_timeline_free(a);
        break;
    case 5:
        rc = trace_occupancy(t, (struct trace_occupancy **)&a, err);
        trace_occupancy_free(a);
        break;
    case 6:
        rc = trace_clusters(t, (struct trace_clusters **)&a, err);
        trace_clusters_free(a);
        break;
    }
    return rc;
}

static void test_out_of_memory(void)
{
    struct trace *t = abcd();
    for (int which = 0; which < 7; which++) {
        struct err err = {0};
        long n;
        xalloc_fail_at(0);
        CHECK_INT(run_analysis(which, t, &err), 0);
        n = xalloc_count();
        CHECK(n > 0);
        for (long k = 1; k <= n; k++) {
            err_clear(&err);
            xalloc_fail_at(k);
            CHECK_INT(run_analysis(which, t, &err), -1);
            CHECK_INT(err.status, ERR_NOMEM);
        }
        xalloc_fail_at(0);
    }
    trace_free(t);
}

/* 4,096 ranks in a ring, each odd rank's send 0.05 s late: the matrices are
 * the pairs met (2,048 waits, 4,096 flows), never 4,096 x 4,096 cells (the
 * dense ones took 1 GB of the server per analysis at the limit). */
static void test_sparse_4096_ranks(void)
{
    const int p = 4096;
    struct trace *t = new_trace(p, 2);
    struct trace_wait *w = NULL;
    struct trace_traffic *tr = NULL;
    struct err err = {0};

    for (int r = 0; r < p; r++) {
        int to = (r + 1) % p, from = (r + p - 1) % p;
        if (r % 2 == 0) {
            add(t, r, TRACE_OP_SEND, 0.1, 0.2, to, 7, 64, p);
            add(t, r, TRACE_OP_RECV, 0.3, 0.5, from, 7, 64, p);
        } else {
            add(t, r, TRACE_OP_RECV, 0.1, 0.3, from, 7, 64, p);
            add(t, r, TRACE_OP_SEND, 0.35, 0.4, to, 7, 64, p);
        }
    }
    CHECK_INT(trace_wait(t, &w, &err), 0);
    CHECK_INT(trace_traffic(t, &tr, &err), 0);
    if (w == NULL || tr == NULL)
        goto out;
    CHECK_INT(w->npairs, p / 2);
    CHECK(fabs(w->total - p / 2 * 0.05) < 1e-9);
    for (size_t k = 0; k < w->npairs; k++) {
        const struct trace_wait_pair *q = &w->pairs[k];
        CHECK(q->i == 2 * (int)k && q->j == (q->i + p - 1) % p); /* sorted */
        CHECK(fabs(q->s - 0.05) < EPS);
    }
    CHECK(fabs(trace_wait_at(w, 0, p - 1) - 0.05) < EPS);
    CHECK(fabs(trace_wait_at(w, 2, 1) - 0.05) < EPS);
    CHECK(trace_wait_at(w, 1, 0) == 0 && trace_wait_at(w, 2, 3) == 0);
    CHECK(trace_wait_at(w, p - 1, p - 2) == 0);
    CHECK(fabs(w->rank_wait[p - 2] - 0.05) < EPS && w->rank_wait[p - 1] == 0);
    CHECK_INT(tr->np2p, p);
    CHECK_INT(tr->ncoll, 0);
    for (size_t k = 0; k < tr->np2p; k++) {
        const struct trace_flow *f = &tr->p2p[k];
        CHECK(f->i == (int)k && f->j == ((int)k + 1) % p && f->msgs == 1 &&
              f->bytes == 64 && f->rate > 0);
    }
    /* 1 -> 2: both ready at 0.35, received at 0.5: 64 B in 0.15 s */
    CHECK(fabs(trace_traffic_at(tr, 0, 1, 2).rate - 64 / 0.15) < 1e-6);
    CHECK_INT(trace_traffic_at(tr, 0, 2, 1).msgs, 0);
    CHECK_INT(trace_traffic_at(tr, 1, 0, 1).msgs, 0);
out:
    trace_wait_free(w);
    trace_traffic_free(tr);
    trace_free(t);
}

static void test_invalid(void)
{
    struct trace empty = {0};
    struct trace_wait *w = NULL;
    struct trace_timeline *tl = NULL;
    struct trace *t = new_trace(2, 1);
    struct err err = {0};

    CHECK_INT(trace_wait(&empty, &w, &err), -1);
    CHECK(w == NULL);
    CHECK_STR(err.message, "a trace needs at least one rank");
    err_clear(&err);
    CHECK_INT(trace_timeline(t, 0, &tl, &err), -1);
    CHECK_STR(err.field, "width");
    trace_free(t);
}

int main(void)
{
    RUN(test_lyon_abcd);
    RUN(test_profile_timeline_load);
    RUN(test_states_only);
    RUN(test_late_sender);
    RUN(test_waitall_late_senders);
    RUN(test_test_loop_late_sender);
    RUN(test_subcomm_collectives);
    RUN(test_collective_last_arriver);
    RUN(test_clusters_two_groups);
    RUN(test_occupancy_fit);
    RUN(test_occupancy_without_events);
    RUN(test_out_of_memory);
    RUN(test_sparse_4096_ranks);
    RUN(test_invalid);
    return harness_report();
}
