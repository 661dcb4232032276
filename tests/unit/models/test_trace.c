/* Unit tests for models/trace against hand-computed examples: Lyon's ABCD
 * microstate trace (T1) → its macrostate table (T2) and mean node occupancy
 * (17 for A1); a three-rank late-sender case → its wait matrix and traffic; a
 * barrier with a known last arriver; clusters on an obvious two-group case. */
#include "common/err.h"
#include "common/xalloc.h"
#include "models/trace.h"
#include "tests/harness.h"

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
out:
    trace_profile_free(p);
    trace_timeline_free(tl);
    trace_load_free(l);
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
            CHECK(fabs(w->w[i * 3 + j] - want) < EPS);
        }
    CHECK(fabs(w->rank_wait[2] - 4) < EPS);
    CHECK(fabs(w->total - 6.5) < EPS);
    CHECK(fabs(w->exec[1] - 10) < EPS);
    CHECK_INT(w->unmatched, 0);
    CHECK_INT(tr->msgs[0 * 3 + 1], 1);
    CHECK_INT(tr->msgs[1 * 3 + 2], 1);
    CHECK_INT(tr->msgs[2 * 3 + 0], 0);
    CHECK_INT(tr->bytes[0 * 3 + 2], 200);
    /* 0 -> 1: both ready at 3, received at 3.2: 100 B in 0.2 s */
    CHECK(fabs(tr->rate[0 * 3 + 1] - 500) < 1e-6);
    /* 1 -> 2: sent at 3.3, receive posted at 5.2, done 5.3: 300 B in 0.1 s */
    CHECK(fabs(tr->rate[1 * 3 + 2] - 3000) < 1e-6);
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
        CHECK(fabs(w->w[j] - want[j]) < EPS);
    for (int i = 1; i < 4; i++)
        CHECK(fabs(w->rank_wait[i]) < EPS);
    CHECK(fabs(w->rank_wait[0] - 3.75) < EPS);
    CHECK(fabs(w->total - 3.75) < EPS);
    CHECK_INT(w->unmatched, 1);
    /* 2 -> 0: both ready at 2.5, completed at 6: 64 B in 3.5 s */
    CHECK(fabs(tr->rate[2 * 4 + 0] - 64 / 3.5) < 1e-9);
out:
    trace_wait_free(w);
    trace_traffic_free(tr);
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
    CHECK(fabs(w->w[0 * 3 + 1] - 3) < EPS); /* rank 0 waited 3 s for rank 1 */
    CHECK(fabs(w->w[2 * 3 + 1] - 2) < EPS);
    CHECK(fabs(w->total - 5) < EPS);
    CHECK(fabs(w->rank_wait[1]) < EPS);
    CHECK_INT(tr->coll_msgs[0 * 3 + 1], 1);
    CHECK_INT(tr->coll_bytes[0 * 3 + 2], 64);
    CHECK_INT(tr->coll_bytes[1 * 3 + 0], 0);
    CHECK_INT(tr->coll_calls[2], 2);
    CHECK_INT(tr->msgs[0 * 3 + 1], 0); /* kept apart from point-to-point */
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
            CHECK_INT(err.status, 500);
        }
        xalloc_fail_at(0);
    }
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
    RUN(test_late_sender);
    RUN(test_waitall_late_senders);
    RUN(test_collective_last_arriver);
    RUN(test_clusters_two_groups);
    RUN(test_occupancy_fit);
    RUN(test_out_of_memory);
    RUN(test_invalid);
    return harness_report();
}
