/* Tests of formats/import_chrome: the run and the trace record a Trace Event
 * file becomes — ranks in pid then tid order (numbers before strings),
 * nested events in begin order with the enclosing one first, B/E pairs, an
 * E without a B, a B never closed, names beyond the trace's name limit
 * sharing "(other events)" — and the stream's refusals by line. */
#include "formats/formats.h"
#include "formats/limits.h"
#include "models/trace.h"
#include "tests/harness.h"

#include <stdio.h>
#include <string.h>

#include "common/buf.h"

struct got {
    int runs;
    long long nprocs;
    double runtime;
    size_t nkernels;
    char kernel0[LIMIT_NAME + 1];
    double time0;
    long long calls0;
    struct trace *t;
};

static int take_runs(void *ctx, const struct run_record *r, size_t n, struct err *err)
{
    struct got *g = ctx;
    (void)err;
    g->runs += (int)n;
    g->nprocs = r[0].nprocs;
    g->runtime = r[0].runtime;
    g->nkernels = r[0].nkernels;
    snprintf(g->kernel0, sizeof g->kernel0, "%s", r[0].kernels[0].name);
    g->time0 = r[0].kernels[0].time;
    g->calls0 = r[0].kernels[0].calls;
    return 0;
}

static int take_trace(void *ctx, const char *uid, struct trace *t, struct err *err)
{
    struct got *g = ctx;
    (void)uid;
    (void)err;
    trace_free(g->t);
    g->t = t;
    return 0;
}

static int parse(const char *text, struct got *g, struct err *e)
{
    struct fmt_sink sink = {take_runs, NULL, g, take_trace, NULL, NULL, 0};
    struct fmt_file f = {"t.json", text, strlen(text)};
    memset(g, 0, sizeof *g);
    err_clear(e);
    return fmt_parse("chrome-trace", &f, 1, NULL, &sink, e);
}

static void test_ranks_and_nesting(void)
{
    struct got g;
    struct err e = {0};
    const char *text =
        "{\"traceEvents\": [\n"
        "{\"ph\": \"X\", \"pid\": 2, \"tid\": 1, \"ts\": 10, \"dur\": 5, \"name\": "
        "\"a\"},\n"
        "{\"ph\": \"X\", \"pid\": 1, \"tid\": \"b\", \"ts\": 0, \"dur\": 1, \"name\": "
        "\"a\"},\n"
        "{\"ph\": \"X\", \"pid\": 1, \"tid\": 3, \"ts\": 4, \"dur\": 2, \"name\": "
        "\"inner\"},\n"
        "{\"ph\": \"X\", \"pid\": 1, \"tid\": 3, \"ts\": 4, \"dur\": 6, \"name\": "
        "\"outer\"},\n"
        "{\"ph\": \"E\", \"pid\": 1, \"tid\": 3, \"ts\": 7},\n"
        "{\"ph\": \"B\", \"pid\": 2, \"tid\": 1, \"ts\": 11, \"name\": \"b\"},\n"
        "{\"ph\": \"E\", \"pid\": 2, \"tid\": 1, \"ts\": 13},\n"
        "{\"ph\": \"B\", \"pid\": 2, \"tid\": 1, \"ts\": 14, \"name\": \"open\"}\n"
        "], \"displayTimeUnit\": \"ns\"}";
    CHECK_INT(parse(text, &g, &e), 0);
    CHECK_INT(g.runs, 1);
    CHECK_INT((int)g.nprocs, 2);
    CHECK_NEAR(g.runtime, 15e-6, 1e-18);
    CHECK_INT((int)g.nkernels, 4); /* a, inner, outer, b; "open" never closed */
    CHECK_STR(g.kernel0, "a");
    CHECK_NEAR(g.time0, 6e-6, 1e-18);
    CHECK_INT((int)g.calls0, 2);
    CHECK(g.t != NULL);
    if (g.t == NULL)
        return;
    CHECK_INT(g.t->nranks, 3);
    /* rank 0 = (1, 3): outer before inner (same begin, longer first) */
    CHECK_INT((int)g.t->ranks[0].nevents, 2);
    CHECK_STR(g.t->names[g.t->ranks[0].ev[0].name], "outer");
    CHECK_STR(g.t->names[g.t->ranks[0].ev[1].name], "inner");
    CHECK_NEAR(g.t->ranks[0].ev[0].begin, 4e-6, 1e-18);
    CHECK_NEAR(g.t->ranks[0].ev[0].end, 10e-6, 1e-18);
    CHECK_NEAR(g.t->ranks[0].t_end, 10e-6, 1e-18);
    /* rank 1 = (1, "b"), rank 2 = (2, 1) with a and the B/E pair b */
    CHECK_INT((int)g.t->ranks[1].nevents, 1);
    CHECK_INT((int)g.t->ranks[2].nevents, 2);
    CHECK_STR(g.t->names[g.t->ranks[2].ev[1].name], "b");
    CHECK_NEAR(g.t->ranks[2].ev[1].end - g.t->ranks[2].ev[1].begin, 2e-6, 1e-15);
    CHECK_INT(g.t->ranks[2].ev[1].op, TRACE_OP_STATE);
    trace_free(g.t);
}

/* clang's -ftime-trace (LLVM's time profiler) ends its timeline with one
 * "Total NAME" complete event per name, each at ts 0 on a thread id of its
 * own with args {"count", "avg ms"}: sums over NAME's events (those too
 * short to be written included), not spans of time. They are kernels like
 * any event, never ranks of the trace nor its states; an event merely
 * named "Total ..." is an event. */
static void test_llvm_totals(void)
{
    struct got g;
    struct err e = {0};
    const char *text =
        "{\"traceEvents\": [\n"
        "{\"pid\": 7, \"tid\": 70, \"ph\": \"X\", \"ts\": 2, \"dur\": 3, \"name\": "
        "\"Source\"},\n"
        "{\"pid\": 7, \"tid\": 70, \"ph\": \"X\", \"ts\": 1, \"dur\": 9, \"name\": "
        "\"Frontend\"},\n"
        "{\"pid\": 7, \"tid\": 71, \"ph\": \"X\", \"ts\": 0, \"dur\": 9, \"name\": "
        "\"Total Frontend\", \"args\": {\"count\": 1, \"avg ms\": 0}},\n"
        "{\"pid\": 7, \"tid\": 72, \"ph\": \"X\", \"ts\": 0, \"dur\": 4, \"name\": "
        "\"Total Source\", \"args\": {\"count\": 2, \"avg ms\": 0}},\n"
        "{\"pid\": 7, \"tid\": 73, \"ph\": \"X\", \"ts\": 0, \"dur\": 6, \"name\": "
        "\"Total Lex\", \"args\": {\"count\": 40, \"avg ms\": 0}},\n"
        "{\"pid\": 7, \"tid\": 74, \"ph\": \"X\", \"ts\": 5, \"dur\": 1, \"name\": "
        "\"Total cost\"},\n"
        "{\"pid\": 7, \"tid\": 70, \"ph\": \"M\", \"name\": \"thread_name\", "
        "\"args\": {\"name\": \"clang\"}}\n"
        "]}";
    CHECK_INT(parse(text, &g, &e), 0);
    CHECK_INT(g.runs, 1);
    CHECK_INT((int)g.nprocs, 1);
    CHECK_NEAR(g.runtime, 10e-6, 1e-18);
    /* Source, Frontend, the three totals and "Total cost" */
    CHECK_INT((int)g.nkernels, 6);
    CHECK(g.t != NULL);
    if (g.t == NULL)
        return;
    /* tid 70 and tid 74, whose "Total cost" is no summary */
    CHECK_INT(g.t->nranks, 2);
    CHECK_INT((int)g.t->ranks[0].nevents, 2);
    CHECK_INT((int)g.t->ranks[1].nevents, 1);
    CHECK_INT(g.t->nnames, 3);
    CHECK_STR(g.t->names[0], "Source");
    CHECK_STR(g.t->names[1], "Frontend");
    CHECK_STR(g.t->names[2], "Total cost");
    CHECK_STR(g.t->names[g.t->ranks[0].ev[0].name], "Frontend");
    CHECK_NEAR(g.t->ranks[0].ev[0].begin, 1e-6, 1e-18);
    CHECK_NEAR(g.t->ranks[0].t_end, 10e-6, 1e-18);
    trace_free(g.t);
}

static void test_many_names(void)
{
    struct got g;
    struct err e = {0};
    struct buf b;
    int other = -1;
    buf_init(&b, 1 << 20);
    buf_puts(&b, "[");
    for (int i = 0; i < 300; i++) /* k0 runs longest */
        buf_printf(&b,
                   "%s{\"ph\": \"X\", \"pid\": 0, \"tid\": 0, \"ts\": %d, \"dur\": %d, "
                   "\"name\": \"k%d\"}",
                   i ? ",\n" : "", 1000 * i, 600 - i, i);
    buf_puts(&b, "]");
    CHECK_INT(parse(buf_str(&b), &g, &e), 0);
    CHECK_INT((int)g.nkernels, 300);
    CHECK(g.t != NULL);
    if (g.t != NULL) {
        CHECK_INT(g.t->nnames, LIMIT_TRACE_NAMES);
        for (int i = 0; i < g.t->nnames; i++)
            if (strcmp(g.t->names[i], "(other events)") == 0)
                other = i;
        CHECK_INT(other, LIMIT_TRACE_NAMES - 1);
        CHECK_STR(g.t->names[g.t->ranks[0].ev[0].name], "k0");
        CHECK_INT(g.t->ranks[0].ev[299].name, LIMIT_TRACE_NAMES - 1);
        trace_free(g.t);
    }
    buf_free(&b);
}

static void test_epoch_timestamps(void)
{
    /* Kineto writes microseconds since the epoch with fractions: the
     * durations are the file's own, not differences of huge numbers */
    struct got g;
    struct err e = {0};
    CHECK_INT(parse("[{\"ph\": \"X\", \"pid\": 1, \"tid\": 1, "
                    "\"ts\": 1621401187223005.8, \"dur\": 1.4, \"name\": \"k\"}]",
                    &g, &e),
              0);
    CHECK_NEAR(g.time0, 1.4e-6, 0);
    CHECK(g.t != NULL);
    if (g.t != NULL) {
        CHECK_NEAR(g.t->ranks[0].ev[0].end - g.t->ranks[0].ev[0].begin, 1.4e-6, 1e-18);
        trace_free(g.t);
    }
}

static void test_uint64_args(void)
{
    /* Chromium 156 (toplevel category) writes a negative task delay as a
     * uint64 in an event's args (this event is verbatim from such a trace):
     * beyond int64 for Jansson, the file was refused; that event is read
     * with its integers as doubles, and is on the same rank as its
     * neighbour with the same pid and tid */
    struct got g;
    struct err e = {0};
    CHECK_INT(
        parse("{\"traceEvents\": [{\"args\":{\"chrome_task_annotator\":{"
              "\"delay_policy\":\"PRECISE\",\"task_delay_us\":18446744073709546541},"
              "\"src_file\":\"components/viz/service/display/display_scheduler.cc\","
              "\"src_func\":\"ScheduleBeginFrameDeadline\",\"src_line\":803},"
              "\"cat\":\"toplevel\",\"dur\":3,\"name\":\"ThreadControllerImpl::"
              "RunTask\",\"ph\":\"X\",\"pid\":31631,\"tdur\":2,\"tid\":31685,"
              "\"ts\":2910240727,\"tts\":18868},\n"
              "{\"cat\":\"toplevel\",\"dur\":5,\"name\":\"ThreadControllerImpl::"
              "RunTask\",\"ph\":\"X\",\"pid\":31631,\"tid\":31685,"
              "\"ts\":2910240737}]}",
              &g, &e),
        0);
    CHECK_INT(g.runs, 1);
    CHECK_STR(g.kernel0, "ThreadControllerImpl::RunTask");
    CHECK_NEAR(g.time0, 8e-6, 1e-18);
    CHECK_INT((int)g.calls0, 2);
    CHECK(g.t != NULL && g.t->nranks == 1);
    trace_free(g.t);
}

/* String tids that differ only after 40 bytes are two tracks, and one whose
 * 40th byte is inside a character imports (found by libFuzzer: the reader's
 * track index refused the cut key as "out of memory" and leaked the track's
 * pid and tid); so does a counter whose series name is cut inside one. */
static void test_long_string_ids(void)
{
    struct got g;
    struct err e = {0};
    char text[4096], tid[64], cname[200];
    memset(tid, 'a', 39);
    snprintf(tid + 39, sizeof tid - 39, "\xC3\xA9");
    memset(cname, 'n', 127);
    snprintf(cname + 127, sizeof cname - 127, "\xC3\xA9 bytes");
    snprintf(text, sizeof text,
             "[{\"ph\": \"X\", \"pid\": 1, \"tid\": \"%s1\", \"ts\": 0, \"dur\": 2, "
             "\"name\": \"a\"},\n"
             "{\"ph\": \"X\", \"pid\": 1, \"tid\": \"%s2\", \"ts\": 1, \"dur\": 2, "
             "\"name\": \"a\"},\n"
             "{\"ph\": \"C\", \"pid\": 1, \"ts\": 1, \"name\": \"%s\", "
             "\"args\": {\"x\": 1, \"y\": 2}}]",
             tid, tid, cname);
    CHECK_INT(parse(text, &g, &e), 0);
    CHECK_STR(e.message, "");
    CHECK_INT(g.runs, 1);
    CHECK_NEAR(g.time0, 4e-6, 1e-18);
    CHECK(g.t != NULL);
    if (g.t != NULL)
        CHECK_INT(g.t->nranks, 2);
    trace_free(g.t);
}

static void test_refusals(void)
{
    struct got g;
    struct err e = {0};
    CHECK_INT(parse("[{\"ph\": \"X\", \"ts\": 1, \"dur\": 1, \"name\": \"a\"},]", &g, &e),
              -1);
    CHECK(strstr(e.message, "comma") != NULL);
    CHECK_INT(parse("{\"traceEvents\": [\n{\"ph\": \"X\", \"ts\": 1}\n", &g, &e), -1);
    CHECK_STR(e.message, "t.json:3: the file ends inside traceEvents (truncated?)");
    /* in time order, the E at 4 closes nothing and the B at 5 stays open */
    CHECK_INT(parse("{\"traceEvents\": [{\"ph\": \"B\", \"ts\": 5, \"name\": \"a\"}, "
                    "{\"ph\": \"E\", \"ts\": 4}]}",
                    &g, &e),
              -1);
    CHECK_STR(e.message,
              "t.json: no duration events (complete \"X\" events or B/E pairs)");
    CHECK_INT(parse("\"just a string\"", &g, &e), -1);
    CHECK_INT(e.status, ERR_INVALID);
    /* no pid: the run, no trace */
    CHECK_INT(parse("[{\"ph\": \"X\", \"ts\": 1, \"dur\": 2, \"name\": \"a\"}]", &g, &e),
              0);
    CHECK(g.t == NULL);
    CHECK_INT((int)g.nprocs, 1);
}

/* "The events do not have to be in timestamp-sorted order": B/E events of a
 * thread written out of time order (newest first, as a small profiler does)
 * pair as in time order; at equal times a thread written backwards keeps its
 * reverse order (an E at 10 written before the B at 10 that follows it). */
static void test_unordered_begin_end(void)
{
    static const char *const forward =
        "[{\"ph\": \"B\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"name\": \"main\"},"
        "{\"ph\": \"B\", \"pid\": 1, \"tid\": 1, \"ts\": 2, \"name\": \"f\"},"
        "{\"ph\": \"E\", \"pid\": 1, \"tid\": 1, \"ts\": 10},"
        "{\"ph\": \"B\", \"pid\": 1, \"tid\": 1, \"ts\": 10, \"name\": \"g\"},"
        "{\"ph\": \"X\", \"pid\": 1, \"tid\": 2, \"ts\": 1, \"dur\": 3, \"name\": \"h\"},"
        "{\"ph\": \"E\", \"pid\": 1, \"tid\": 1, \"ts\": 13},"
        "{\"ph\": \"E\", \"pid\": 1, \"tid\": 1, \"ts\": 20}]";
    static const char *const backward =
        "[{\"ph\": \"E\", \"pid\": 1, \"tid\": 1, \"ts\": 20},"
        "{\"ph\": \"E\", \"pid\": 1, \"tid\": 1, \"ts\": 13},"
        "{\"ph\": \"X\", \"pid\": 1, \"tid\": 2, \"ts\": 1, \"dur\": 3, \"name\": \"h\"},"
        "{\"ph\": \"B\", \"pid\": 1, \"tid\": 1, \"ts\": 10, \"name\": \"g\"},"
        "{\"ph\": \"E\", \"pid\": 1, \"tid\": 1, \"ts\": 10},"
        "{\"ph\": \"B\", \"pid\": 1, \"tid\": 1, \"ts\": 2, \"name\": \"f\"},"
        "{\"ph\": \"B\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"name\": \"main\"}]";
    const char *texts[] = {forward, backward};
    for (int i = 0; i < 2; i++) {
        struct got g;
        struct err e = {0};
        CHECK_INT(parse(texts[i], &g, &e), 0);
        CHECK_INT(g.runs, 1);
        CHECK_NEAR(g.runtime, 20e-6, 1e-18);
        CHECK_INT((int)g.nkernels, 4); /* main, f, g, h */
        CHECK(g.t != NULL);
        if (g.t == NULL)
            continue;
        CHECK_INT(g.t->nranks, 2);
        CHECK_INT((int)g.t->ranks[0].nevents, 3);
        if (g.t->ranks[0].nevents == 3) {
            /* main 0..20, f 2..10, g 10..13 */
            CHECK_STR(g.t->names[g.t->ranks[0].ev[0].name], "main");
            CHECK_NEAR(g.t->ranks[0].ev[0].end, 20e-6, 1e-18);
            CHECK_STR(g.t->names[g.t->ranks[0].ev[1].name], "f");
            CHECK_NEAR(g.t->ranks[0].ev[1].end - g.t->ranks[0].ev[1].begin, 8e-6, 1e-15);
            CHECK_STR(g.t->names[g.t->ranks[0].ev[2].name], "g");
            CHECK_NEAR(g.t->ranks[0].ev[2].end - g.t->ranks[0].ev[2].begin, 3e-6, 1e-15);
        }
        trace_free(g.t);
    }
}

int main(void)
{
    RUN(test_unordered_begin_end);
    RUN(test_ranks_and_nesting);
    RUN(test_llvm_totals);
    RUN(test_many_names);
    RUN(test_epoch_timestamps);
    RUN(test_uint64_args);
    RUN(test_long_string_ids);
    RUN(test_refusals);
    return harness_report();
}
