/* The wait and traffic answers of a trace over LIMIT_TRACE_DENSE_RANKS ranks
 * (core/trace.h run_trace_json): the pairs, largest first, at most
 * LIMIT_TRACE_PAIRS of them, the rest summed as "other" — here 400 ranks
 * each sending to the next 300 (120,000 pairs, every receive posted before
 * its send: a late sender per pair), so 20,000 pairs go to "other". And a
 * trace of LIMIT_TRACE_DENSE_RANKS ranks still answers with the matrices. */
#include "common/err.h"
#include "common/xalloc.h"
#include "core/trace.h"
#include "formats/limits.h"
#include "tests/harness.h"

#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PEERS 300

static void add(struct trace *t, int r, int op, double b, double e, int peer,
                long long bytes)
{
    struct trace_rank *rk = &t->ranks[r];
    rk->ev[rk->nevents++] = (struct trace_event){.begin = b,
                                                 .end = e,
                                                 .bytes = bytes,
                                                 .peer = peer,
                                                 .peer2 = -1,
                                                 .tag = 1,
                                                 .comm_size = (uint32_t)t->nranks,
                                                 .op = (uint16_t)op};
}

/* The bytes i sends to j, and how long j's receive waited for it beyond
 * 0.15 s (distinct enough to order the pairs). */
static long long bytes_of(int i, int j)
{
    return 1 + (i * 7 + j * 13) % 1000;
}
static double extra_of(int i, int j)
{
    return (double)((i * 31 + j) % 997) * 1e-5;
}

/* p ranks; rank i sends to i+1+k at [1+k, 1.5+k] (k < peers < p), and
 * receives from i-1-k at [0.75+k-d, 0.9+k]: it waits the whole receive,
 * 0.15 + d. */
static struct trace *ring(int p, int peers)
{
    struct trace *t = xcalloc(1, sizeof *t);
    t->nranks = p;
    t->ranks = xcalloc((size_t)p, sizeof *t->ranks);
    for (int r = 0; r < p; r++) {
        t->ranks[r].t_end = 1000;
        t->ranks[r].ev = xcalloc(2 * (size_t)peers, sizeof *t->ranks[r].ev);
        for (int k = 0; k < peers; k++) {
            int from = ((r - 1 - k) % p + p) % p, to = (r + 1 + k) % p;
            add(t, r, TRACE_OP_RECV, 0.75 + k - extra_of(from, r), 0.9 + k, from,
                bytes_of(from, r));
            add(t, r, TRACE_OP_SEND, 1.0 + k, 1.5 + k, to, bytes_of(r, to));
        }
    }
    return t;
}

static void test_pairs_over_the_limit(void)
{
    const int p = 400;
    const long long n = (long long)p * PEERS;
    struct trace *t = ring(p, PEERS);
    struct run_trace_set s = {0};
    struct err e = {0};
    json_t *w = NULL, *tr = NULL, *pairs, *p2p;
    double total = 0, shown = 0, prev = INFINITY;
    long long bytes = 0, shown_bytes = 0, prev_bytes = LLONG_MAX;

    s.t = t;
    CHECK_INT(run_trace_compute(&s, RUN_TRACE_WAIT, RUN_TRACE_WIDTH, &e), 0);
    CHECK_INT(run_trace_compute(&s, RUN_TRACE_TRAFFIC, RUN_TRACE_WIDTH, &e), 0);
    w = run_trace_json(&s, RUN_TRACE_WAIT);
    tr = run_trace_json(&s, RUN_TRACE_TRAFFIC);
    CHECK(w != NULL && tr != NULL);
    if (w == NULL || tr == NULL)
        goto out;
    CHECK(json_object_get(w, "wait") == NULL);
    CHECK_INT(json_integer_value(json_object_get(w, "npairs")), n);
    pairs = json_object_get(w, "pairs");
    CHECK_INT(json_array_size(pairs), LIMIT_TRACE_PAIRS);
    CHECK_INT(json_integer_value(json_object_get(json_object_get(w, "other"), "pairs")),
              n - LIMIT_TRACE_PAIRS);
    for (int i = 0; i < p; i++)
        for (int k = 0; k < PEERS; k++)
            total += 0.15 + extra_of(i, (i + 1 + k) % p);
    for (size_t k = 0; k < json_array_size(pairs); k++) {
        json_t *q = json_array_get(pairs, k);
        int i = (int)json_integer_value(json_array_get(q, 0));
        int j = (int)json_integer_value(json_array_get(q, 1));
        double v = json_real_value(json_array_get(q, 2));
        CHECK(fabs(v - (0.15 + extra_of(j, i))) < 1e-9); /* i waited for j */
        CHECK(v <= prev);                                /* largest first */
        prev = v;
        shown += v;
    }
    CHECK_NEAR(json_real_value(json_object_get(json_object_get(w, "other"), "wait")),
               total - shown, 1e-6);
    CHECK_NEAR(json_real_value(json_object_get(w, "total")), total, 1e-6);

    p2p = json_object_get(tr, "p2p");
    CHECK_INT(json_integer_value(json_object_get(p2p, "npairs")), n);
    pairs = json_object_get(p2p, "pairs");
    CHECK_INT(json_array_size(pairs), LIMIT_TRACE_PAIRS);
    for (int i = 0; i < p; i++)
        for (int k = 0; k < PEERS; k++)
            bytes += bytes_of(i, (i + 1 + k) % p);
    for (size_t k = 0; k < json_array_size(pairs); k++) {
        json_t *q = json_array_get(pairs, k);
        int i = (int)json_integer_value(json_array_get(q, 0));
        int j = (int)json_integer_value(json_array_get(q, 1));
        long long b = json_integer_value(json_array_get(q, 3));
        CHECK(b == bytes_of(i, j) && json_integer_value(json_array_get(q, 2)) == 1);
        CHECK(b <= prev_bytes);
        prev_bytes = b;
        shown_bytes += b;
    }
    CHECK_INT(json_integer_value(json_object_get(json_object_get(p2p, "other"), "bytes")),
              bytes - shown_bytes);
    CHECK_INT(json_integer_value(json_object_get(json_object_get(p2p, "other"), "msgs")),
              n - LIMIT_TRACE_PAIRS);
    {
        long long sent = 0;
        for (int k = 0; k < PEERS; k++)
            sent += bytes_of(7, (7 + 1 + k) % p);
        CHECK_INT(json_integer_value(json_array_get(json_object_get(p2p, "sent"), 7)),
                  sent);
    }
out:
    json_decref(w);
    json_decref(tr);
    run_trace_set_free(&s);
    trace_free(t);
}

/* LIMIT_TRACE_DENSE_RANKS ranks: the matrices, as always. */
static void test_dense_up_to_the_limit(void)
{
    const int p = LIMIT_TRACE_DENSE_RANKS;
    struct trace *t = ring(p, 10);
    struct run_trace_set s = {0};
    struct err e = {0};
    json_t *w;

    s.t = t;
    CHECK_INT(run_trace_compute(&s, RUN_TRACE_WAIT, RUN_TRACE_WIDTH, &e), 0);
    w = run_trace_json(&s, RUN_TRACE_WAIT);
    CHECK(w != NULL && json_object_get(w, "pairs") == NULL);
    /* the timeline's text, written without Jansson (21 runs a rank):
     * json_dumps' bytes */
    CHECK_INT(run_trace_compute(&s, RUN_TRACE_TIMELINE, 2000, &e), 0);
    {
        json_t *tl = run_trace_json(&s, RUN_TRACE_TIMELINE);
        char *want = tl ? json_dumps(tl, JSON_COMPACT | JSON_REAL_PRECISION(17)) : NULL;
        struct buf b;
        buf_init(&b, RUN_TRACE_TEXT_MAX);
        CHECK_INT(run_trace_text(&s, RUN_TRACE_TIMELINE, &b, &e), 0);
        CHECK(want != NULL && b.len > 40000 && strcmp(buf_str(&b), want) == 0);
        buf_free(&b);
        free(want);
        json_decref(tl);
    }
    CHECK_INT(json_array_size(json_object_get(w, "wait")), p);
    CHECK_NEAR(
        json_real_value(json_array_get(json_array_get(json_object_get(w, "wait"), 5), 4)),
        0.15 + extra_of(4, 5), 1e-9);
    json_decref(w);
    run_trace_set_free(&s);
    trace_free(t);
}

int main(void)
{
    RUN(test_pairs_over_the_limit);
    RUN(test_dense_up_to_the_limit);
    return harness_report();
}
