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
    CHECK_INT(err.status, ERR_INVALID);
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

/* Version 3: the communicators. Three ranks; a sub-communicator {2, 0} and a
 * dup of the world (seq 1) named by the calls, a Test loop's receive: they
 * survive encode -> parse (each rank writes the communicators it uses; the
 * reader merges them into one table by members and seq), and a damaged table
 * is refused with its message. The same file as version 2 (no table, calls'
 * communicator field zero) reads; a version-2 file cannot hold a routine of
 * version 3. */
static struct trace *with_comms(void)
{
    struct trace *t = xcalloc(1, sizeof *t);
    t->nranks = 3;
    t->ranks = xcalloc(3, sizeof *t->ranks);
    t->ncomms = 2;
    t->comms = xcalloc(2, sizeof *t->comms);
    t->comms[0] = (struct trace_comm){2, 0, xcalloc(2, sizeof(int32_t))};
    t->comms[0].members[0] = 2;
    t->comms[0].members[1] = 0;
    t->comms[1] = (struct trace_comm){3, 1, NULL};
    for (int r = 0; r < 3; r++) {
        struct trace_rank *rk = &t->ranks[r];
        rk->t_end = 9;
        rk->ev = xcalloc(4, sizeof *rk->ev);
        rk->ev[rk->nevents++] = (struct trace_event){.begin = 1,
                                                     .end = 2,
                                                     .peer = -1,
                                                     .peer2 = -1,
                                                     .comm_size = 3,
                                                     .op = TRACE_OP_BARRIER,
                                                     .comm = 2};
        if (r != 1)
            rk->ev[rk->nevents++] = (struct trace_event){.begin = 3,
                                                         .end = 4,
                                                         .peer = -1,
                                                         .peer2 = -1,
                                                         .comm_size = 2,
                                                         .op = TRACE_OP_ALLGATHERV,
                                                         .comm = 1};
    }
    /* rank 1: a Test loop completing a receive from rank 0 */
    {
        struct trace_rank *rk = &t->ranks[1];
        rk->ev[rk->nevents++] = (struct trace_event){
            .begin = 5, .end = 5.1, .peer = -1, .peer2 = -1, .op = TRACE_OP_TEST};
        rk->ev[rk->nevents++] = (struct trace_event){
            .begin = 6, .end = 6.1, .peer = -1, .peer2 = -1, .op = TRACE_OP_TEST};
        rk->done = xcalloc(1, sizeof *rk->done);
        rk->done[0] =
            (struct trace_done){.event = 2, .bytes = 8, .peer = 0, .tag = 4, .first = 1};
        rk->ndone = 1;
    }
    return t;
}

static void test_communicators(void)
{
    struct trace *t = with_comms(), *u = NULL;
    unsigned char *b[3] = {NULL, NULL, NULL};
    size_t len[3];
    struct err err = {0};

    for (int r = 0; r < 3; r++)
        CHECK_INT(trace_encode(t, r, &b[r], &len[r], &err), 0);
    if (b[0] == NULL || b[1] == NULL || b[2] == NULL)
        goto out;
    /* rank 0: both communicators (8 + 2 members, then 8); rank 1 only the dup */
    CHECK_INT(len[0], TRACE_HEADER_SIZE + 16 + 8 + 2 * TRACE_EVENT_SIZE);
    CHECK_INT(len[1], TRACE_HEADER_SIZE + 8 + 3 * TRACE_EVENT_SIZE + TRACE_DONE_SIZE);
    CHECK_INT(trace_parse((const void *const *)b, len, 3, &u, &err), 0);
    if (u == NULL)
        goto out;
    CHECK_INT(u->ncomms, 2);
    for (int r = 0; r < 3; r++) {
        const struct trace_comm *c = &u->comms[u->ranks[r].ev[0].comm - 1];
        CHECK_INT(c->size, 3);
        CHECK_INT(c->seq, 1);
        CHECK(c->members == NULL);
    }
    CHECK_INT(u->ranks[0].ev[1].comm, u->ranks[2].ev[1].comm);
    {
        const struct trace_comm *c = &u->comms[u->ranks[0].ev[1].comm - 1];
        CHECK_INT(c->size, 2);
        CHECK(c->members != NULL && c->members[0] == 2 && c->members[1] == 0);
    }
    CHECK_INT(u->ranks[1].done[0].event, 2);
    CHECK_INT(u->ranks[1].done[0].first, 1);
    /* damaged: a member outside the world, repeated, a rank not a member of a
     * communicator it names, a size that disagrees, a number past the table */
    {
        /* the table in the order of first use: the dup, then {2, seq 0, 2, 0} */
        unsigned char *c = b[0] + TRACE_HEADER_SIZE + 8;
        c[8] = 7;
        CHECK_STR(refused(b, len, 3),
                  "rank 0 communicator 1: member 7 is outside the 3 ranks or repeated");
        c[8] = 0;
        CHECK_STR(refused(b, len, 3),
                  "rank 0 communicator 1: member 0 is outside the 3 ranks or repeated");
        c[8] = 1, c[12] = 2;
        CHECK_STR(refused(b, len, 3),
                  "rank 0 communicator 1 does not have rank 0 as a member");
        c[8] = 2, c[12] = 0;
        CHECK_STR(refused(b, len, 3), "");
        b[0][TRACE_HEADER_SIZE + 24 + 40] = 2; /* the barrier's size: 2, not 3 */
        CHECK_STR(refused(b, len, 3), "rank 0 event 0: communicator size 2, but its "
                                      "communicator has 3 members");
        b[0][TRACE_HEADER_SIZE + 24 + 40] = 3;
        b[0][TRACE_HEADER_SIZE + 24 + 46] = 3;
        CHECK_STR(refused(b, len, 3),
                  "rank 0 event 0: communicator 3 is not in its table");
        b[0][TRACE_HEADER_SIZE + 24 + 46] = 1;
        b[1][TRACE_HEADER_SIZE + 8 + 3 * TRACE_EVENT_SIZE + 24] = 0; /* first = 0 */
        CHECK_STR(refused(b, len, 3), "rank 1 completed receive 0: its first poll, event "
                                      "0, is not a Test call before event 2");
        b[1][TRACE_HEADER_SIZE + 8 + 3 * TRACE_EVENT_SIZE + 24] = 1;
        CHECK_STR(refused(b, len, 3), "");
    }
out:
    trace_free(u);
    trace_free(t);
    for (int r = 0; r < 3; r++)
        xfree(b[r]);
}

static void test_version2(void)
{
    struct trace *t = two_ranks("solve"), *u = NULL;
    unsigned char *b[2] = {NULL, NULL};
    size_t len[2];

    CHECK_INT(trace_encode(t, 0, &b[0], &len[0], NULL), 0);
    CHECK_INT(trace_encode(t, 1, &b[1], &len[1], NULL), 0);
    if (b[0] == NULL || b[1] == NULL)
        goto out;
    /* without communicators or completed receives, version 3 is version 2 */
    b[0][8] = b[1][8] = 2;
    CHECK_STR(refused(b, len, 2), "");
    b[1][TRACE_HEADER_SIZE + 7 + 44] = TRACE_OP_TEST;
    CHECK_STR(refused(b, len, 2), "rank 1 event 0: unknown routine 26");
    b[1][8] = 3;
    CHECK_STR(refused(b, len, 2), "");
    b[1][TRACE_HEADER_SIZE + 7 + 44] = TRACE_OP_SEND;
    b[1][TRACE_HEADER_SIZE + 7 + 46] = 1; /* a communicator number, no table */
    CHECK_STR(refused(b, len, 2), "rank 1 event 0: communicator 1 is not in its table");
    b[1][8] = 2;
    CHECK_STR(refused(b, len, 2), "rank 1 event 0: communicator 1 is not in its table");
out:
    trace_free(u);
    trace_free(t);
    xfree(b[0]);
    xfree(b[1]);
}

int main(void)
{
    RUN(test_round_trip);
    RUN(test_hostile);
    RUN(test_communicators);
    RUN(test_version2);
    return harness_report();
}
