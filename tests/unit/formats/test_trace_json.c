/* Tests of formats/trace_json: a hand-built two-rank trace (an MPI_Send with
 * its peer and bytes, a nested state, a Sendrecv) written as Trace Event JSON
 * in one piece and in pieces of one byte: the same text, valid JSON, exact
 * microseconds (to the nanosecond), metadata naming each rank. */
#include "formats/trace_json.h"
#include "tests/harness.h"

#include <jansson.h>
#include <string.h>

static void build(struct trace *t, struct trace_rank *rk, struct trace_event *e0,
                  struct trace_event *e1, char **names)
{
    memset(t, 0, sizeof *t);
    names[0] = "sleep";
    t->nranks = 2;
    t->nnames = 1;
    t->names = names;
    t->ranks = rk;
    e0[0] = (struct trace_event){.begin = 0,
                                 .end = 0.000001,
                                 .op = TRACE_OP_SEND,
                                 .peer = 1,
                                 .peer2 = -1,
                                 .tag = 7,
                                 .bytes = 4096,
                                 .comm_size = 2};
    e0[1] = (struct trace_event){.begin = 0.5,
                                 .end = 1.25,
                                 .op = TRACE_OP_STATE,
                                 .name = 0,
                                 .peer = -1,
                                 .peer2 = -1};
    e1[0] = (struct trace_event){.begin = 0.000000123,
                                 .end = 2.0,
                                 .op = TRACE_OP_SENDRECV,
                                 .peer = 0,
                                 .peer2 = 0,
                                 .tag = 1,
                                 .tag2 = 2,
                                 .bytes = 8};
    rk[0] = (struct trace_rank){.t_end = 1.25, .nevents = 2, .ev = e0};
    rk[1] = (struct trace_rank){.t_end = 2.0, .nevents = 1, .ev = e1};
}

static void test_document(void)
{
    struct trace t;
    struct trace_rank rk[2];
    struct trace_event e0[2], e1[1];
    char *names[1];
    struct trace_json_pos pos = {0}, pos1 = {0};
    struct buf whole, bytes;
    json_error_t je;
    json_t *doc, *ev, *x;
    int rc, pieces = 0;

    build(&t, rk, e0, e1, names);
    buf_init(&whole, 1 << 20);
    buf_init(&bytes, 1 << 20);
    CHECK_INT(trace_json_write(&t, &pos, &whole, 1 << 20), 0);
    while ((rc = trace_json_write(&t, &pos1, &bytes, 1)) == 1)
        pieces++;
    CHECK_INT(rc, 0);
    CHECK(pieces > 5); /* one event a piece at least */
    CHECK_STR(buf_str(&bytes), buf_str(&whole));
    doc = json_loads(buf_str(&whole), 0, &je);
    CHECK(doc != NULL);
    if (doc == NULL)
        goto out;
    CHECK_STR(json_string_value(json_object_get(doc, "displayTimeUnit")), "ms");
    CHECK_INT((int)json_integer_value(
                  json_object_get(json_object_get(doc, "otherData"), "nranks")),
              2);
    ev = json_object_get(doc, "traceEvents");
    CHECK_INT((int)json_array_size(ev), 6 + 3);
    CHECK_STR(json_string_value(json_object_get(json_array_get(ev, 3), "name")),
              "process_name");
    CHECK_STR(json_string_value(json_object_get(
                  json_object_get(json_array_get(ev, 3), "args"), "name")),
              "rank 1");
    x = json_array_get(ev, 6); /* rank 0's MPI_Send */
    CHECK_STR(json_string_value(json_object_get(x, "ph")), "X");
    CHECK_STR(json_string_value(json_object_get(x, "name")), "MPI_Send");
    CHECK_STR(json_string_value(json_object_get(x, "cat")), "p2p");
    CHECK(json_is_integer(json_object_get(x, "ts")));
    CHECK_INT((int)json_integer_value(json_object_get(x, "dur")), 1);
    CHECK_INT(
        (int)json_integer_value(json_object_get(json_object_get(x, "args"), "bytes")),
        4096);
    CHECK_INT(
        (int)json_integer_value(json_object_get(json_object_get(x, "args"), "peer")), 1);
    x = json_array_get(ev, 7); /* the state */
    CHECK_STR(json_string_value(json_object_get(x, "name")), "sleep");
    CHECK_STR(json_string_value(json_object_get(x, "cat")), "state");
    CHECK_INT((int)json_integer_value(json_object_get(x, "ts")), 500000);
    CHECK_INT((int)json_integer_value(json_object_get(x, "dur")), 750000);
    CHECK(json_object_get(x, "args") == NULL);
    x = json_array_get(ev, 8); /* rank 1's Sendrecv, 123 ns in */
    CHECK_INT((int)json_integer_value(json_object_get(x, "pid")), 1);
    CHECK_NEAR(json_real_value(json_object_get(x, "ts")), 0.123, 0);
    CHECK_NEAR(json_real_value(json_object_get(x, "dur")), 1999999.877, 0);
    CHECK_INT(
        (int)json_integer_value(json_object_get(json_object_get(x, "args"), "tag2")), 2);
    CHECK(strstr(buf_str(&whole), "\"ts\": 0.123,") != NULL);
out:
    json_decref(doc);
    buf_free(&whole);
    buf_free(&bytes);
}

static void test_full_buffer(void)
{
    struct trace t;
    struct trace_rank rk[2];
    struct trace_event e0[2], e1[1];
    char *names[1];
    struct trace_json_pos pos = {0};
    struct buf small;
    build(&t, rk, e0, e1, names);
    buf_init(&small, 64);
    CHECK_INT(trace_json_write(&t, &pos, &small, 1 << 20), -1);
    buf_free(&small);
}

int main(void)
{
    RUN(test_document);
    RUN(test_full_buffer);
    return harness_report();
}
