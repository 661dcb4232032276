/* Unit tests for web/chart_trace: every trace chart renders a complete SVG
 * document, byte-identical on a second rendering, with the content its
 * answer fixes (one Gantt bar per stretch of equal state, the titles), and
 * too large an answer is refused with the output left as it was. */
#include "common/buf.h"
#include "common/err.h"
#include "common/xalloc.h"
#include "models/trace.h"
#include "tests/harness.h"
#include "web/chart_trace.h"
#include "web/svg.h"

#include <stdlib.h>
#include <string.h>

static void add(struct trace *t, int r, int op, double b, double e, int peer, int tag,
                long long bytes)
{
    struct trace_rank *rk = &t->ranks[r];
    rk->ev = xrealloc(rk->ev, (rk->nevents + 1) * sizeof *rk->ev);
    rk->ev[rk->nevents++] = (struct trace_event){.begin = b,
                                                 .end = e,
                                                 .bytes = bytes,
                                                 .peer = peer,
                                                 .peer2 = -1,
                                                 .tag = tag,
                                                 .comm_size = 3,
                                                 .op = (uint16_t)op};
}

/* The three-rank late-sender case of test_trace.c, plus a "solve" state. */
static struct trace *late_sender(void)
{
    struct trace *t = xcalloc(1, sizeof *t);
    t->nranks = 3;
    t->ranks = xcalloc(3, sizeof *t->ranks);
    t->nnames = 1;
    t->names = xcalloc(1, sizeof *t->names);
    t->names[0] = xstrdup("solve");
    for (int r = 0; r < 3; r++)
        t->ranks[r].t_end = 10;
    add(t, 0, TRACE_OP_STATE, 0, 2, -1, 0, 0);
    add(t, 0, TRACE_OP_SEND, 3, 3.1, 1, 7, 100);
    add(t, 0, TRACE_OP_SEND, 5, 5.1, 2, 0, 200);
    add(t, 1, TRACE_OP_RECV, 0.5, 3.2, 0, 7, 100);
    add(t, 1, TRACE_OP_SEND, 3.3, 3.4, 2, 0, 300);
    add(t, 2, TRACE_OP_RECV, 1, 5.2, 0, 0, 200);
    add(t, 2, TRACE_OP_RECV, 5.2, 5.3, 1, 0, 300);
    return t;
}

/* The fills of a timeline legend's swatches (10 x 10 squares), in order:
 * how many (at most max) went to fills. */
static size_t legend_fills(const char *svg, char fills[][8], size_t max)
{
    static const char sw[] = "width=\"10\" height=\"10\" fill=\"";
    size_t n = 0;
    for (const char *q = strstr(svg, sw); q != NULL && n < max; q = strstr(q + 1, sw)) {
        memcpy(fills[n], q + sizeof sw - 1, 7);
        fills[n++][7] = '\0';
    }
    return n;
}

/* 1 when no two of the n fills are the same colour. */
static int all_distinct(char fills[][8], size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (strcmp(fills[i], fills[j]) == 0)
                return 0;
    return 1;
}

static size_t count(const char *s, const char *sub)
{
    size_t n = 0;
    for (const char *p = strstr(s, sub); p; p = strstr(p + 1, sub))
        n++;
    return n;
}

typedef int (*render_fn)(struct buf *out, const struct trace *t, struct err *err);

static int r_profile(struct buf *out, const struct trace *t, struct err *err)
{
    struct trace_profile *p;
    int rc;
    if (trace_profile(t, &p, err) < 0)
        return -1;
    rc = chart_trace_profile(out, p, 0, 0, err);
    trace_profile_free(p);
    return rc;
}

static int r_load(struct buf *out, const struct trace *t, struct err *err)
{
    struct trace_load *l;
    int rc;
    if (trace_load(t, &l, err) < 0)
        return -1;
    rc = chart_trace_load(out, l, 0, 0, err);
    trace_load_free(l);
    return rc;
}

static int r_wait(struct buf *out, const struct trace *t, struct err *err)
{
    struct trace_wait *w;
    int rc;
    if (trace_wait(t, &w, err) < 0)
        return -1;
    rc = chart_trace_wait(out, w, 0, 0, err);
    trace_wait_free(w);
    return rc;
}

static int r_traffic(struct buf *out, const struct trace *t, struct err *err)
{
    struct trace_traffic *tr;
    int rc;
    if (trace_traffic(t, &tr, err) < 0)
        return -1;
    rc = chart_trace_traffic(out, tr, 0, 0, err);
    trace_traffic_free(tr);
    return rc;
}

static int r_timeline(struct buf *out, const struct trace *t, struct err *err)
{
    struct trace_timeline *tl;
    int rc;
    if (trace_timeline(t, 100, &tl, err) < 0)
        return -1;
    rc = chart_trace_timeline(out, tl, (const char *const *)t->names, t->nnames, NULL,
                              err);
    trace_timeline_free(tl);
    return rc;
}

static int r_occupancy(struct buf *out, const struct trace *t, struct err *err)
{
    struct trace_occupancy *o;
    int rc;
    if (trace_occupancy(t, &o, err) < 0)
        return -1;
    rc = chart_trace_occupancy(out, o, (const char *const *)t->names, NULL, 0, 0, err);
    trace_occupancy_free(o);
    return rc;
}

static int r_clusters(struct buf *out, const struct trace *t, struct err *err)
{
    struct trace_clusters *c;
    int rc;
    if (trace_clusters(t, &c, err) < 0)
        return -1;
    rc = chart_trace_clusters(out, c, (const char *const *)t->names, NULL, err);
    trace_clusters_free(c);
    return rc;
}

static void test_all_charts(void)
{
    static const struct {
        const char *name, *title;
        render_fn fn;
    } charts[] = {
        {"profile", "Time per routine per rank", r_profile},
        {"load", "Load: compute imbalance", r_load},
        {"wait", "Wait time: rank i waited for rank j", r_wait},
        {"traffic", "Point-to-point bytes from rank i to rank j", r_traffic},
        {"timeline", "Timeline: state of each rank", r_timeline},
        {"occupancy", "Mean node occupancy per state (Lyon)", r_occupancy},
        {"clusters", "Clusters: k = ", r_clusters},
    };
    struct trace *t = late_sender();

    for (size_t i = 0; i < sizeof charts / sizeof charts[0]; i++) {
        struct buf a, b;
        struct err err = {0};
        buf_init(&a, 1 << 22);
        buf_init(&b, 1 << 22);
        CHECK_INT(charts[i].fn(&a, t, &err), 0);
        CHECK_INT(charts[i].fn(&b, t, &err), 0);
        buf_putc(&a, '\0');
        buf_putc(&b, '\0');
        if (err.status)
            fprintf(stderr, "%s: %s\n", charts[i].name, err.message);
        CHECK(!buf_failed(&a) && a.data != NULL);
        if (a.data == NULL || b.data == NULL)
            continue;
        CHECK(strstr(a.data, "<svg") != NULL);
        CHECK(strstr(a.data, "</svg>") != NULL);
        CHECK(strstr(a.data, charts[i].title) != NULL);
        CHECK(strstr(a.data, "nan") == NULL && strstr(a.data, "inf") == NULL);
        CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
        if (strcmp(charts[i].name, "timeline") == 0) {
            /* rank 0: solve, compute, p2p, compute, p2p, compute = 6 bars;
             * rank 1: compute, recv, compute (3.2-3.3 s, one pixel), send,
             * compute = 5; rank 2: compute, two receives merged, compute = 3;
             * plus 5 legend squares */
            CHECK_INT(count(a.data, "<rect x="), 6 + 5 + 3 + 5);
            CHECK(strstr(a.data, ">solve<") != NULL);
        }
        if (strcmp(charts[i].name, "clusters") == 0) {
            /* 3 ranks in an n x n matrix: n(n-1) scatter panels of 3 points */
            size_t n = (size_t)sqrt((double)count(a.data, "<rect x="));
            CHECK(n >= 2 && n <= 4);
            CHECK_INT(count(a.data, "<circle"), 3 * n * (n - 1));
        }
        buf_free(&a);
        buf_free(&b);
    }
    trace_free(t);
}

/* A trace of 512 ranks (issue 34: over 256 could not be stored, "a heat map
 * must be 1x1 to 256x256") with 189 user states (a Score-P trace, issue 31:
 * "a stacked chart needs 1..100 components, not 189"): a ring of messages,
 * rank r in state r % 189 first. Every chart draws: bars per rank grouped
 * two by two, matrices in 2 x 2 blocks, a timeline of 256 sampled ranks, the
 * occupancy's 20 largest states and "other". */
static void test_many_ranks(void)
{
    enum { P = 512, NAMES = 189 };
    static const render_fn fns[] = {r_profile,  r_load,      r_wait,    r_traffic,
                                    r_timeline, r_occupancy, r_clusters};
    struct trace *t = xcalloc(1, sizeof *t);
    struct buf out;
    struct err err = {0};

    t->nranks = P;
    t->ranks = xcalloc(P, sizeof *t->ranks);
    t->nnames = NAMES;
    t->names = xcalloc(NAMES, sizeof *t->names);
    for (int k = 0; k < NAMES; k++) {
        char nm[16];
        snprintf(nm, sizeof nm, "region%d", k);
        t->names[k] = xstrdup(nm);
    }
    for (int r = 0; r < P; r++) {
        struct trace_event *e;
        t->ranks[r].t_end = 10;
        add(t, r, TRACE_OP_STATE, 0, 1 + r % 7, -1, 0, 0);
        e = &t->ranks[r].ev[t->ranks[r].nevents - 1];
        e->name = (uint16_t)(r % NAMES);
        add(t, r, TRACE_OP_SEND, 8, 8.1, (r + 1) % P, 0, 100);
        add(t, r, TRACE_OP_RECV, 8.2, 8.5, (r + P - 1) % P, 0, 100);
    }
    buf_init(&out, 64u << 20);
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
        buf_reset(&out);
        err_clear(&err);
        CHECK_INT(fns[i](&out, t, &err), 0);
        if (err.status)
            fprintf(stderr, "chart %zu: %s\n", i, err.message);
        buf_putc(&out, '\0');
        if (out.data == NULL)
            continue;
        CHECK(strstr(out.data, "</svg>") != NULL);
        CHECK(strstr(out.data, "nan") == NULL);
        switch (i) {
        case 0: /* profile: 512 ranks in 256 bars */
            CHECK(strstr(out.data,
                         "512 categories in 256 bars, each the mean of up to 2") != NULL);
            CHECK(strstr(out.data, ">0\xe2\x80\x93"
                                   "1</text>") != NULL);
            break;
        case 2: /* wait */
        case 3: /* traffic: 100 B from each rank to the next, in 2 x 2 blocks */
            CHECK(strstr(out.data, "512 x 512 values drawn in blocks of up to 2 x 2") !=
                  NULL);
            break;
        case 4:
            CHECK(strstr(out.data, "Per-rank state timeline of 256 of 512 ranks") !=
                  NULL);
            CHECK(strstr(out.data, ">510</text>") != NULL); /* the last sampled rank */
            CHECK(strstr(out.data, ">511</text>") == NULL);
            /* 191 classes with time: compute, p2p and the 7 states of the
             * most time keep a colour each (compute and p2p theirs), in
             * class order, the 182 others one grey, last */
            {
                char f[16][8];
                size_t n = legend_fills(out.data, f, 16);
                CHECK_INT((int)n, 10);
                CHECK(all_distinct(f, n));
                CHECK_STR(f[0], svg_palette(TRACE_CLASS_COMPUTE));
                CHECK_STR(f[1], svg_palette(TRACE_CLASS_P2P));
                CHECK_STR(f[9], "#b8b8b8");
                CHECK(strstr(out.data, ">compute</text>") <
                      strstr(out.data, ">p2p</text>"));
                CHECK(strstr(out.data, ">other (182 more)</text>") != NULL);
            }
            break;
        case 5: /* 4 classes + 189 states = 193, of which collective and wait
                 * are never occupied: 191, 9 and "other (182 more)", in the
                 * timeline's colours */
            CHECK(strstr(out.data, "1 bar of 10 components") != NULL);
            CHECK(strstr(out.data, ">other (182 more)</text>") != NULL);
            CHECK(strstr(out.data, "fill=\"#b8b8b8\"/><text") != NULL);
            break;
        }
    }
    buf_free(&out);
    trace_free(t);
}

/* A trace of user states only (Trace Event JSON): its lanes are threads
 * (chart_trace_lane of 0 MPI calls); the profile is drawn per state, each
 * state in its timeline colour in the profile, the occupancy and the
 * timeline, whose legend lists the states drawn, most pixels first, and
 * none of MPI's classes. Thread 0: "parse" over [0, 6] with "lex" over
 * [1, 3]; thread 1: "lex" over [0, 8] (of 10 s each). */
static void test_threads(void)
{
    struct trace *t = xcalloc(1, sizeof *t);
    struct trace_profile *p = NULL;
    struct trace_timeline *tl = NULL;
    struct trace_occupancy *o = NULL;
    struct trace_clusters *c = NULL;
    struct trace_load *l = NULL;
    const char *const *names;
    const char *lane = chart_trace_lane(0);
    struct buf out;
    struct err err = {0};

    CHECK_STR(lane, "thread");
    CHECK_STR(chart_trace_lane(3), "rank");
    t->nranks = 2;
    t->ranks = xcalloc(2, sizeof *t->ranks);
    t->nnames = 2;
    t->names = xcalloc(2, sizeof *t->names);
    t->names[0] = xstrdup("parse");
    t->names[1] = xstrdup("lex");
    names = (const char *const *)t->names;
    t->ranks[0].t_end = t->ranks[1].t_end = 10;
    add(t, 0, TRACE_OP_STATE, 0, 6, -1, 0, 0);
    add(t, 0, TRACE_OP_STATE, 1, 3, -1, 0, 0);
    t->ranks[0].ev[1].name = 1;
    add(t, 1, TRACE_OP_STATE, 0, 8, -1, 0, 0);
    t->ranks[1].ev[0].name = 1;
    CHECK_INT((int)trace_mpi_calls(t), 0);
    buf_init(&out, 1 << 22);
    if (trace_profile(t, &p, &err) < 0 || trace_timeline(t, 100, &tl, &err) < 0 ||
        trace_occupancy(t, &o, &err) < 0 || trace_clusters(t, &c, &err) < 0)
        goto out;
    /* profile: stacked seconds per state; parse is palette colour 4 (its
     * class), lex 5, compute 0; no MPI routine */
    CHECK_INT(chart_trace_states(&out, p, names, lane, 0, 0, &err), 0);
    buf_putc(&out, '\0');
    CHECK(strstr(out.data, "Time per state per thread") != NULL);
    CHECK(strstr(out.data, ">thread</text>") != NULL);
    CHECK(strstr(out.data, ">parse</text>") != NULL && strstr(out.data, ">lex</text>"));
    CHECK(strstr(out.data, svg_palette(TRACE_CLASS_USER)) != NULL);
    CHECK(strstr(out.data, ">p2p<") == NULL && strstr(out.data, "MPI_") == NULL);
    CHECK(strstr(out.data, ">outside any event</text>") != NULL);
    CHECK(strstr(out.data, "compute") == NULL);
    CHECK(strstr(out.data, "nan") == NULL);
    /* timeline: per thread; the legend is lex (10 s in all), the time
     * outside any event (6 s), parse (4 s), nothing of MPI */
    buf_reset(&out);
    CHECK_INT(chart_trace_timeline(&out, tl, names, t->nnames, lane, &err), 0);
    buf_putc(&out, '\0');
    CHECK(strstr(out.data, "Timeline: state of each thread") != NULL);
    CHECK(strstr(out.data, "Per-thread state timeline of 2 threads") != NULL);
    CHECK(strstr(out.data, ">lex</text>") != NULL);
    CHECK(strstr(out.data, ">lex</text>") <
          strstr(out.data, ">outside any event</text>"));
    CHECK(strstr(out.data, ">outside any event</text>") <
          strstr(out.data, ">parse</text>"));
    CHECK(strstr(out.data, "compute") == NULL);
    CHECK(strstr(out.data, ">p2p<") == NULL && strstr(out.data, ">wait<") == NULL);
    CHECK(strstr(out.data, ">collective<") == NULL);
    /* occupancy: the states in their timeline colours */
    buf_reset(&out);
    CHECK_INT(chart_trace_occupancy(&out, o, names, lane, 0, 0, &err), 0);
    buf_putc(&out, '\0');
    CHECK(strstr(out.data, svg_palette(TRACE_CLASS_USER + 1)) != NULL);
    CHECK(strstr(out.data, ">outside any event</text>") != NULL);
    CHECK(strstr(out.data, "compute") == NULL);
    /* load: a thread's time is all execution, none of it communication */
    buf_reset(&out);
    CHECK_INT(trace_load(t, &l, &err), 0);
    if (l != NULL)
        CHECK_INT(chart_trace_load(&out, l, 0, 0, &err), 0);
    buf_putc(&out, '\0');
    CHECK(strstr(out.data, "Load: execution time per thread, imbalance 1.00") != NULL);
    CHECK(strstr(out.data, ">execution</text>") != NULL);
    CHECK(strstr(out.data, "compute") == NULL &&
          strstr(out.data, "communication") == NULL);
    /* clusters: threads */
    buf_reset(&out);
    CHECK_INT(chart_trace_clusters(&out, c, names, lane, &err), 0);
    buf_putc(&out, '\0');
    CHECK(strstr(out.data, "Scatterplot matrix of the threads") != NULL);
    CHECK(strstr(out.data, "rank") == NULL);
out:
    CHECK_INT(err.status, 0);
    buf_free(&out);
    trace_profile_free(p);
    trace_timeline_free(tl);
    trace_occupancy_free(o);
    trace_clusters_free(c);
    trace_load_free(l);
    trace_free(t);
}

/* A timeline wider than a plot may be (?width=10000) is drawn at the widest,
 * each pixel narrower: nothing refused, the output a whole document. */
static void test_wide_timeline(void)
{
    struct trace_timeline tl = {.nranks = 3, .width = 10000, .span = 1};
    struct buf out;
    struct err err = {0};

    tl.cls = xcalloc(30000, sizeof *tl.cls);
    for (int r = 0; r < 3; r++)
        for (int x = 5000; x < 10000; x++)
            tl.cls[r * 10000 + x] = 1; /* compute, then p2p from the middle */
    buf_init(&out, 1 << 20);
    CHECK_INT(chart_trace_timeline(&out, &tl, NULL, 0, NULL, &err), 0);
    buf_putc(&out, '\0');
    /* 3920 px drawn: the p2p half starts at 60 + 1960 and is 1960 wide */
    CHECK(strstr(out.data, "<svg") != NULL && strstr(out.data, "width=\"4000\"") != NULL);
    CHECK_INT(count(out.data, "<rect x=\"2020\" y=\"40\" width=\"1960\""), 1);
    buf_free(&out);
    xfree(tl.cls);
}

int main(void)
{
    RUN(test_all_charts);
    RUN(test_many_ranks);
    RUN(test_wide_timeline);
    RUN(test_threads);
    return harness_report();
}
