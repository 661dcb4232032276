/* Unit tests for formats/trace without MPI: a hand-made two-rank trace
 * survives encode → parse to the nanosecond (events put back in begin order,
 * state names merged across ranks), and damaged inputs get their messages. */
#include "common/err.h"
#include "common/xalloc.h"
#include "formats/limits.h"
#include "formats/trace.h"
#include "tests/harness.h"

#include <stdlib.h>
#include <string.h>

static struct trace *two_ranks(const char *name1)
{
    struct trace *t = xcalloc(1, sizeof *t);
    t->nranks = 2;
    t->nnames = 1;
    t->names = xcalloc(1, sizeof *t->names);
    t->names[0] = xstrdup(name1);
    t->ranks = xcalloc(2, sizeof *t->ranks);
    for (int r = 0; r < 2; r++) {
        struct trace_rank *rk = &t->ranks[r];
        rk->t_end = 2.5;
        rk->nevents = 2;
        rk->ev = xcalloc(2, sizeof *rk->ev);
        /* a state written when it ended, after the call it contains */
        rk->ev[0] = (struct trace_event){.begin = 1.000000001,
                                         .end = 1.5,
                                         .bytes = 64,
                                         .peer = 1 - r,
                                         .peer2 = -1,
                                         .tag = 7,
                                         .comm_size = 2,
                                         .op = TRACE_OP_SEND};
        rk->ev[1] = (struct trace_event){
            .begin = 0.25, .end = 2, .peer = -1, .peer2 = -1, .op = TRACE_OP_STATE};
    }
    return t;
}

static void test_round_trip(void)
{
    struct trace *t = two_ranks("solve"), *u = NULL, *other = two_ranks("io");
    unsigned char *b[2] = {NULL, NULL};
    size_t len[2];
    struct err err = {0};

    /* rank 1's file names its state "io": names merge into one table */
    CHECK_INT(trace_encode(t, 0, &b[0], &len[0], &err), 0);
    CHECK_INT(trace_encode(other, 1, &b[1], &len[1], &err), 0);
    CHECK_INT(len[0], TRACE_HEADER_SIZE + 2 + 5 + 2 * TRACE_EVENT_SIZE);
    CHECK_INT(trace_parse((const void *const *)b, len, 2, &u, &err), 0);
    if (u == NULL)
        goto out;
    CHECK_INT(u->nranks, 2);
    CHECK_INT(u->nnames, 2);
    CHECK_STR(u->names[0], "solve");
    CHECK_STR(u->names[1], "io");
    CHECK(u->ranks[0].ev[0].op == TRACE_OP_STATE); /* sorted by begin */
    CHECK(fabs(u->ranks[0].ev[1].begin - 1.000000001) < 1e-12);
    CHECK_INT(u->ranks[0].ev[1].peer, 1);
    CHECK_INT(u->ranks[0].ev[1].bytes, 64);
    CHECK_INT(u->ranks[0].ev[1].tag, 7);
    CHECK_INT(u->ranks[1].ev[0].name, 1);
    CHECK(fabs(u->ranks[1].t_end - 2.5) < 1e-12);
out:
    trace_free(u);
    trace_free(t);
    trace_free(other);
    xfree(b[0]);
    xfree(b[1]);
}

static const char *refused(unsigned char **b, size_t *len, int n)
{
    static struct err err;
    struct trace *u = NULL;
    err_clear(&err);
    if (trace_parse((const void *const *)b, len, n, &u, &err) == 0) {
        trace_free(u);
        return "";
    }
    CHECK_INT(err.status, 422);
    return err.message;
}

static void test_hostile(void)
{
    struct trace *t = two_ranks("solve");
    unsigned char *b[2] = {NULL, NULL}, save;
    size_t len[2];

    CHECK_INT(trace_encode(t, 0, &b[0], &len[0], NULL), 0);
    CHECK_INT(trace_encode(t, 1, &b[1], &len[1], NULL), 0);
    if (b[0] == NULL || b[1] == NULL)
        goto out;
    CHECK_STR(refused(b, len, 2), "");
    len[1]--;
    CHECK_STR(refused(b, len, 2), "rank 1 is truncated: 2 events announced, room for 1");
    len[1]++;
    CHECK_STR(refused(b, len, 1), "rank files disagree with the run: 1 files for a "
                                  "2-rank run");
    save = b[1][TRACE_HEADER_SIZE + 7 + 44]; /* first event's routine */
    b[1][TRACE_HEADER_SIZE + 7 + 44] = 200;
    CHECK_STR(refused(b, len, 2), "rank 1 event 0: unknown routine 200");
    b[1][TRACE_HEADER_SIZE + 7 + 44] = save;
    b[1][TRACE_HEADER_SIZE + 7 + 24] = 9; /* peer 9 of 2 */
    CHECK_STR(refused(b, len, 2), "rank 1 event 0: peer outside the 2 ranks");
    b[1][TRACE_HEADER_SIZE + 7 + 24] = 0;
    b[0][32] = 0; /* t_end earlier than the events */
    b[0][33] = 0;
    b[0][34] = 0;
    b[0][35] = 0;
    CHECK(strstr(refused(b, len, 2), "out of order or after the end") != NULL);
out:
    xfree(b[0]);
    xfree(b[1]);
    trace_free(t);
}

int main(void)
{
    RUN(test_round_trip);
    RUN(test_hostile);
    return harness_report();
}
