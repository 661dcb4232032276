/* Unit tests for formats/formats (the table, detection, tar) and every
 * importer: exact records from the fixtures in tests/data/import/, the
 * upload rules (stable uids, all or nothing, exact messages for truncated
 * and malformed files). A sink writes each run as one line of text so a
 * whole record is checked in one comparison. */
#include "common/arena.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/xalloc.h"
#include "formats/formats.h"
#include "formats/limits.h"
#include "tests/data_file.h"
#include "tests/harness.h"
#include "tests/unit/formats/run_line.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXREC 64

struct got {
    char *line[MAXREC];
    char *uid[MAXREC];
    size_t n;
    size_t calls; /* sink calls */
    char *system;
    char note[512]; /* the last note */
};

static void take_note(void *ctx, const char *text)
{
    struct got *g = ctx;
    snprintf(g->note, sizeof g->note, "%s", text);
}

static int take_runs(void *ctx, const struct run_record *r, size_t n, struct err *err)
{
    struct got *g = ctx;
    (void)err;
    g->calls++;
    for (size_t i = 0; i < n && g->n < MAXREC; i++) {
        struct buf b;
        buf_init(&b, 1 << 20);
        run_line(&b, &r[i],
                 RUN_LINE_CALLS | RUN_LINE_KMETRICS | RUN_LINE_VCS | RUN_LINE_TAGS);
        g->line[g->n] = xstrdup(buf_str(&b));
        g->uid[g->n++] = xstrdup(r[i].uid ? r[i].uid : "(none)");
        buf_free(&b);
    }
    return 0;
}

static int take_benchmarks(void *ctx, const char *system, const struct bench_record *r,
                           size_t n, struct err *err)
{
    struct got *g = ctx;
    (void)err;
    g->calls++;
    xfree(g->system);
    g->system = xstrdup(system);
    for (size_t i = 0; i < n && g->n < MAXREC; i++) {
        struct buf b;
        buf_init(&b, 4096);
        buf_printf(&b, "%s %s %s ", r[i].name, r[i].args_json, r[i].stat);
        buf_num(&b, r[i].time);
        g->line[g->n] = xstrdup(buf_str(&b));
        g->uid[g->n++] = xstrdup("");
        buf_free(&b);
    }
    return 0;
}

static void got_free(struct got *g)
{
    for (size_t i = 0; i < g->n; i++) {
        xfree(g->line[i]);
        xfree(g->uid[i]);
    }
    xfree(g->system);
    memset(g, 0, sizeof *g);
}

/* Imports fixture `rel` (named by its base name) with format `fmt`. */
static int import(const char *fmt, const char *rel, const struct fmt_options *opt,
                  struct got *g, struct err *e)
{
    struct fmt_sink sink = {take_runs, take_benchmarks, g, NULL, take_note, NULL, 0};
    struct fmt_file f;
    size_t len = 0;
    char *data = data_file(rel, &len);
    const char *slash = strrchr(rel, '/');
    int rc;

    f.name = slash ? slash + 1 : rel;
    f.data = data;
    f.len = len;
    if (data == NULL)
        return -2;
    rc = fmt_parse(fmt, &f, 1, opt, &sink, e);
    xfree(data);
    return rc;
}

static void test_table(void)
{
    size_t n;
    const struct fmt_format *t = fmt_table(&n);
    static const char *const names[] = {
        "extrap-text", "extrap-json", "extrap-jsonl", "caliper-json", "tau",  "osu",
        "lnt-json",    "bmf",         "gbench",       "otf2",         "json", "csv"};
    CHECK_INT(
        n, 17); /* and cube, extrap-experiment, chrome-trace, hpctoolkit, nsys-sqlite */
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const struct fmt_format *f = fmt_find(names[i]);
        CHECK(f != NULL);
        if (f) {
            CHECK(f->media_type && f->summary && f->sniff && f->parse);
            CHECK(f >= t && f < t + n);
        }
    }
    CHECK(fmt_find("nope") == NULL);
    CHECK_INT(fmt_find("tau")->directory, 1);
    CHECK_INT(fmt_find("osu")->directory, 0);
}

static void test_unknown_format(void)
{
    struct got g = {0};
    struct err e = {0};
    CHECK_INT(import("excel", "csv/runs.csv", NULL, &g, &e), -1);
    CHECK_STR(
        e.message,
        "unknown format excel (one of otf2, tau, extrap-text, cube, extrap-experiment, "
        "nsys-sqlite, hpctoolkit, osu, chrome-trace, gbench, lnt-json, caliper-json, "
        "extrap-json, extrap-jsonl, json, bmf, csv)");
    CHECK_INT(e.status, ERR_INVALID);
    CHECK_INT(g.n, 0);
}

static void test_detect(void)
{
    static const struct {
        const char *rel, *fmt;
    } cases[] = {
        {"extrap-text/lulesh.txt", "extrap-text"},
        {"extrap-json/input.json", "extrap-json"},
        {"extrap-json/old.json", "extrap-json"},
        {"extrap-jsonl/input.jsonl", "extrap-jsonl"},
        {"caliper-json/query.json", "caliper-json"},
        {"caliper-json/split.json", "caliper-json"},
        {"tau/run/profile.0.0.0", "tau"},
        {"osu/latency.txt", "osu"},
        {"osu/bcast.txt", "osu"},
        {"lnt-json/report.json", "lnt-json"},
        {"bmf/results.json", "bmf"},
        {"gbench/out.json", "gbench"},
        {"json/runs.json", "json"},
        {"csv/runs.csv", "csv"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len;
        char *data = data_file(cases[i].rel, &len);
        struct fmt_file f = {strrchr(cases[i].rel, '/') + 1, data, len};
        const struct fmt_format *fmt;
        if (strncmp(cases[i].rel, "tau/", 4) == 0)
            f.name = cases[i].rel; /* TAU knows its files by name */
        fmt = fmt_detect(&f, 1, NULL);
        CHECK(fmt != NULL);
        if (fmt && strcmp(fmt->name, cases[i].fmt) != 0)
            fprintf(stderr, "%s detected as %s\n", cases[i].rel, fmt->name);
        CHECK(fmt && strcmp(fmt->name, cases[i].fmt) == 0);
        xfree(data);
    }
    {
        struct fmt_file f = {"notes.txt", "hello world\n", 12};
        struct err e = {0};
        CHECK(fmt_detect(&f, 1, &e) == NULL);
        CHECK_STR(e.code, "unknown_format");
    }
}

static void test_extrap_text(void)
{
    struct got g = {0}, again = {0};
    struct err e = {0};
    CHECK_INT(import("auto", "extrap-text/lulesh.txt", NULL, &g, &e), 0);
    CHECK_INT(g.n, 6);
    /* call paths nest (SPEC §16): main/solve is inside main, main's time is
     * exclusive, the run time main's inclusive time */
    CHECK_STR(g.line[0],
              "lulesh|lulesh|unknown|np=8|rt=1.5|in:size=10|m:|k:main=0.5{"
              "\"inclusive\": 1.5, \"visits\": 10};main/solve=1{\"inclusive\": 1}");
    CHECK_STR(g.line[1], "lulesh|lulesh|unknown|np=8|rt=1.7|in:size=10|m:|k:main="
                         "0.5999999999999999{\"inclusive\": 1.7, \"visits\": 10};main/"
                         "solve=1.1{\"inclusive\": 1.1}");
    CHECK_STR(g.line[4],
              "lulesh|lulesh|unknown|np=8|rt=3|in:size=20|m:|k:main=0.5{"
              "\"inclusive\": 3, \"visits\": 30};main/solve=2.5{\"inclusive\": "
              "2.5}");
    CHECK_INT(strncmp(g.uid[0], "extrap-text:", 12), 0);
    CHECK_INT(strlen(g.uid[0]), 12 + 64);
    for (size_t i = 0; i < g.n; i++)
        for (size_t j = i + 1; j < g.n; j++)
            CHECK(strcmp(g.uid[i], g.uid[j]) != 0);
    /* idempotent: the same file gives the same ids */
    CHECK_INT(import("extrap-text", "extrap-text/lulesh.txt", NULL, &again, &e), 0);
    CHECK_INT(again.n, g.n);
    for (size_t i = 0; i < g.n && i < again.n; i++)
        CHECK_STR(again.uid[i], g.uid[i]);
    got_free(&g);
    got_free(&again);
}

static void test_extrap_text_options(void)
{
    struct got g = {0};
    struct err e = {0};
    struct fmt_options o = {"lulesh2", "lulesh2.x", "cluster-a", 0, NULL};
    CHECK_INT(import("extrap-text", "extrap-text/one.txt", &o, &g, &e), 0);
    CHECK_INT(g.n, 3);
    CHECK_STR(g.line[2], "lulesh2|lulesh2.x|cluster-a|np=1|rt=2|in:x=4|m:|k:reg=2");
    got_free(&g);
}

static void test_extrap_text_errors(void)
{
    struct got g = {0};
    struct err e = {0};
    CHECK_INT(import("extrap-text", "extrap-text/truncated.txt", NULL, &g, &e), -1);
    CHECK_STR(e.message,
              "truncated.txt:5: the file ends after 2 DATA lines for 3 points");
    CHECK_STR(e.field, "truncated.txt:5");
    CHECK_INT(g.n, 0);
    err_clear(&e);
    CHECK_INT(import("extrap-text", "extrap-text/malformed.txt", NULL, &g, &e), -1);
    CHECK_STR(e.message, "malformed.txt:5: value \"one\" is not a number");
    CHECK_INT(g.n, 0);
    got_free(&g);
}

static void test_extrap_json(void)
{
    struct got g = {0};
    struct err e = {0};
    CHECK_INT(import("extrap-json", "extrap-json/input.json", NULL, &g, &e), 0);
    CHECK_INT(g.n, 4);
    CHECK_STR(g.line[0],
              "input|input|unknown|np=2|rt=0.5|in:n=100|m:|k:compute=0.5{\"flops\": "
              "1000}");
    CHECK_STR(g.line[3],
              "input|input|unknown|np=4|rt=0.35|in:n=100|m:|k:compute=0.35{\"flops\": "
              "1000}");
    got_free(&g);
    CHECK_INT(import("extrap-json", "extrap-json/old.json", NULL, &g, &e), 0);
    CHECK_INT(g.n, 2);
    CHECK_STR(g.line[0], "old|old|unknown|np=2|rt=4|in:|m:|k:work=4");
    CHECK_STR(g.line[1], "old|old|unknown|np=4|rt=2.5|in:|m:|k:work=2.5");
    got_free(&g);
    CHECK_INT(import("extrap-json", "extrap-json/truncated.json", NULL, &g, &e), -1);
    CHECK_STR(e.message, "truncated.json:1: column 83: ']' expected near end of file");
    CHECK_INT(g.n, 0);
}

/* Issue 34 item 11: the blanks around REGION and METRIC names are not part
 * of them: 300 regions each with its "METRIC  time" line import, and a
 * region listed again for another metric is the same kernel. */
static void test_extrap_text_blanks(void)
{
    struct buf b;
    struct got g = {0};
    struct err e = {0};
    struct fmt_sink sink = {take_runs, take_benchmarks, &g, NULL, NULL, NULL, 0};
    struct fmt_file f;

    buf_init(&b, 1 << 20);
    buf_puts(&b, "PARAMETER p\nPOINTS 1 2\n");
    for (int i = 0; i < 300; i++)
        buf_printf(&b, "REGION  r%d\nMETRIC  time \nDATA 1\nDATA 2\n", i);
    buf_puts(&b, "REGION r0 \nMETRIC flops\nDATA 5\nDATA 6\n");
    f = (struct fmt_file){"many.txt", b.data, b.len};
    CHECK_INT(fmt_parse("extrap-text", &f, 1, NULL, &sink, &e), 0);
    CHECK_INT(g.n, 2);
    CHECK_INT(strncmp(g.line[0],
                      "many|many|unknown|np=1|rt=300|in:|m:|k:r0=1{\"flops\": 5};r1=1;",
                      59),
              0);
    CHECK_INT(strncmp(g.line[1], "many|many|unknown|np=2|rt=600|", 30), 0);
    got_free(&g);
    buf_free(&b);
    /* a call path longer than a name: its root, a hash mark and its end */
    buf_init(&b, 1 << 20);
    buf_puts(&b, "PARAMETER p\nPOINTS 1\nREGION main\nDATA 10\nREGION main");
    for (int i = 1; i < 40; i++)
        buf_printf(&b, "->function_number_%d", i);
    buf_puts(&b, "\nDATA 4\n");
    f = (struct fmt_file){"deep.txt", b.data, b.len};
    CHECK_INT(fmt_parse("extrap-text", &f, 1, NULL, &sink, &e), 0);
    CHECK_INT(g.n, 1);
    {
        static const char want[] =
            "deep|deep|unknown|np=1|rt=10|in:|m:|k:main=6{\"inclusive\": "
            "10};main/\xe2\x80\xa6";
        CHECK_INT(strncmp(g.line[0], want, sizeof want - 1), 0);
    }
    CHECK_INT(strstr(g.line[0], "/function_number_39=4{\"inclusive\": 4}") != NULL, 1);
    got_free(&g);
    buf_free(&b);
}

static void test_extrap_jsonl(void)
{
    struct got g = {0};
    struct err e = {0};
    CHECK_INT(import("extrap-jsonl", "extrap-jsonl/input.jsonl", NULL, &g, &e), 0);
    CHECK_INT(g.n, 3);
    CHECK_STR(g.line[0], "input|input|unknown|np=4|rt=2|in:N=1000|m:|k:main=1.5{"
                         "\"inclusive\": 2};main/io=0.5{\"inclusive\": 0.5}");
    CHECK_STR(g.line[1], "input|input|unknown|np=4|rt=2.5|in:N=1000|m:|k:main=2.25{"
                         "\"inclusive\": 2.5};main/io=0.25{\"inclusive\": 0.25}");
    CHECK_STR(
        g.line[2],
        "input|input|unknown|np=8|rt=1.25|in:N=1000|m:|k:main=1.25{\"inclusive\": 1.25}");
    got_free(&g);
    CHECK_INT(import("extrap-jsonl", "extrap-jsonl/truncated.jsonl", NULL, &g, &e), -1);
    CHECK_INT(strncmp(e.message, "truncated.jsonl:3: column ", 26), 0);
    CHECK_STR(e.field, "truncated.jsonl:3");
    CHECK_INT(g.n, 0);
    err_clear(&e);
    CHECK_INT(import("extrap-jsonl", "extrap-jsonl/malformed.jsonl", NULL, &g, &e), -1);
    CHECK_STR(e.message, "malformed.jsonl:2: params.x is missing or not a number");
    CHECK_INT(g.n, 0);
}

/* A long JSON-lines file goes to the sink in batches, not in one piece. */
static void test_extrap_jsonl_batches(void)
{
    struct buf b;
    struct got g = {0};
    struct err e = {0};
    struct fmt_sink sink = {take_runs, NULL, &g, NULL, NULL, NULL, 0};
    struct fmt_file f;
    buf_init(&b, 1 << 24);
    for (int i = 1; i <= 600; i++)
        buf_printf(&b,
                   "{\"params\": {\"p\": %d}, \"callpath\": \"k\", \"value\": %d.5}\n", i,
                   i);
    f = (struct fmt_file){"big.jsonl", b.data, b.len};
    CHECK_INT(fmt_parse("extrap-jsonl", &f, 1, NULL, &sink, &e), 0);
    CHECK_INT(g.calls, 3); /* 256 + 256 + 88 */
    CHECK_INT(g.n, MAXREC);
    got_free(&g);
    buf_free(&b);
}

/* SPEC §16: a file without a time metric imports; its runs have no runtime,
 * the kernels carry the metrics and no time, and each metric summed over the root paths
 * (never nested ones) is a run metric. */
static void test_extrap_no_time(void)
{
    static const char text[] =
        "{\"parameters\": [\"p\"], \"measurements\": {"
        "\"main\": {\"visits\": [{\"point\": [2], \"values\": [5]}]},"
        "\"main->solve\": {\"visits\": [{\"point\": [2], \"values\": [3]}]},"
        "\"io\": {\"visits\": [{\"point\": [2], \"values\": [1]}]}}}";
    struct got g = {0};
    struct err e = {0};
    struct fmt_sink sink = {take_runs, take_benchmarks, &g, NULL, NULL, NULL, 0};
    struct fmt_file f = {"x.json", text, strlen(text)};
    CHECK_INT(fmt_parse("extrap-json", &f, 1, NULL, &sink, &e), 0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0],
              "x|x|unknown|np=2|rt=none|in:|m:visits=6|k:main=none{\"visits\": "
              "5};main/solve=none{\"visits\": 3};io=none{\"visits\": 1}");
    got_free(&g);
}

/* LNT tests measuring no time (a code-size suite): runs without a runtime,
 * one per sample of their measures (SPEC §16). */
static void test_lnt_no_time(void)
{
    static const char text[] =
        "{\"format_version\": \"2\", \"machine\": {\"name\": \"m\"}, "
        "\"run\": {}, \"tests\": [{\"name\": \"t\", \"code_size\": [7, 9], "
        "\"mem_bytes\": 3}]}";
    struct got g = {0};
    struct err e = {0};
    struct fmt_sink sink = {take_runs, take_benchmarks, &g, NULL, NULL, NULL, 0};
    struct fmt_file f = {"x.json", text, strlen(text)};
    CHECK_INT(fmt_parse("lnt-json", &f, 1, NULL, &sink, &e), 0);
    CHECK_INT(g.n, 2);
    CHECK_STR(g.line[0], "nts|t|m|np=1|rt=none|in:|m:code_size=7,mem_bytes=3|k:");
    CHECK_STR(g.line[1], "nts|t|m|np=1|rt=none|in:|m:code_size=9,mem_bytes=3|k:");
    got_free(&g);
}

static void test_caliper(void)
{
    struct got g = {0};
    struct err e = {0};
    CHECK_INT(import("caliper-json", "caliper-json/query.json", NULL, &g, &e), 0);
    CHECK_INT(g.n, 1);
    /* SPEC §16: time is exclusive, "inclusive" a metric, the run time the
     * root's inclusive time */
    CHECK_STR(g.line[0], "query|query|unknown|np=1|rt=3|in:|m:|k:main=0.5{\"inclusive\": "
                         "3, \"count\": 1};main/solve=2{\"inclusive\": 2, \"count\": "
                         "10};main/io=0.5{\"inclusive\": 0.5, \"count\": 2}");
    got_free(&g);
    CHECK_INT(import("caliper-json", "caliper-json/split.json", NULL, &g, &e), 0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0],
              "split|split|unknown|np=16|rt=3|in:|m:|k:main=0.5{\"inclusive\": "
              "3};main/solve=2{\"inclusive\": 2};main/io=0.5{\"inclusive\": 0.5}");
    got_free(&g);
    /* json(object): globals give nprocs; per-rank records: the largest time,
     * mean and min over the ranks */
    CHECK_INT(import("auto", "caliper-json/object.json", NULL, &g, &e), 0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0],
              "object|object|unknown|np=2|rt=2.5|in:|m:|k:main=2.5{\"inclusive\": "
              "2.5, \"mean\": 2.25, \"min\": 2}");
    got_free(&g);
    /* a key with blanks is a column as spelled (found by libFuzzer: its
     * values were once added at index -1); a time of 1.0 is in seconds (an
     * integer would be Caliper 1.x's microseconds) */
    {
        static const char text[] =
            "[{\"path\": \"main\", \"time.duration\": 1.0, \" count \": 2}]";
        struct fmt_sink sink = {take_runs, take_benchmarks, &g, NULL, NULL, NULL, 0};
        struct fmt_file f = {"blank.json", text, strlen(text)};
        CHECK_INT(fmt_parse("caliper-json", &f, 1, NULL, &sink, &e), 0);
        CHECK_STR(g.line[0],
                  "blank|blank|unknown|np=1|rt=1|in:|m:|k:main=1{\"inclusive\": "
                  "1, \" count \": 2}");
        got_free(&g);
    }
    /* adiak's metadata name the program, the machine and the job size */
    CHECK_INT(import("auto", "caliper-json/adiak.json", NULL, &g, &e), 0);
    CHECK_STR(g.line[0], "lulesh2.0|lulesh2.0|quartz|np=64|rt=1.5|in:|m:|k:main=1.5{"
                         "\"inclusive\": 1.5}");
    got_free(&g);
    CHECK_INT(import("caliper-json", "caliper-json/truncated.json", NULL, &g, &e), -1);
    CHECK_INT(strncmp(e.message, "truncated.json:3: column ", 25), 0);
    CHECK_INT(g.n, 0);
}

/* Inputs taken from the files (fmt_sink.inputs_from): from a run's input,
 * tag or metadata (Caliper's globals, node 0's TAU metadata), added after
 * the uid is made (core tags the uid with them, as with a value given); a
 * name the file does not say, or says in words, refuses the import. */
static void test_inputs_from(void)
{
    static const char *const jobsize[] = {"jobsize"},
                             *const version[] = {"cali.caliper.version"},
                             *const nodes[] = {"nodes"},
                             *const tau_in[] = {"problem_size", "threads"};
    static const char p0[] =
        "1 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls # "
        "<metadata><attribute><name>Node Name</name><value>n001</value></attribute>"
        "<attribute><name>problem_size</name><value>30</value></attribute></metadata>\n"
        "\".TAU application\" 1 0 1000 1000 0 GROUP=\"TAU_DEFAULT\"\n0 aggregates\n";
    static const char p1[] =
        "1 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls # "
        "<metadata><attribute><name>problem_size</name><value>99</value></attribute>"
        "</metadata>\n\".TAU application\" 1 0 2000 2000 0 GROUP=\"TAU_DEFAULT\"\n"
        "0 aggregates\n";
    struct fmt_file tau[2] = {{"profile.0.0.0", p0, sizeof p0 - 1},
                              {"profile.1.0.0", p1, sizeof p1 - 1}};
    struct got g = {0}, plain = {0};
    struct err e = {0};
    struct fmt_sink sink = {take_runs, NULL, &g, NULL, NULL, jobsize, 1};
    struct fmt_file f;
    size_t len;
    char *data = data_file("caliper-json/adiak.json", &len);

    f = (struct fmt_file){"adiak.json", data, len};
    CHECK_INT(fmt_parse("caliper-json", &f, 1, NULL, &sink, &e), 0);
    CHECK_STR(g.line[0],
              "lulesh2.0|lulesh2.0|quartz|np=64|rt=1.5|in:jobsize=64|m:|k:main=1.5{"
              "\"inclusive\": 1.5}");
    CHECK_INT(import("caliper-json", "caliper-json/adiak.json", NULL, &plain, &e), 0);
    CHECK_STR(g.uid[0], plain.uid[0]); /* the content's uid */
    got_free(&g);
    got_free(&plain);
    sink.inputs_from = version;
    CHECK_INT(fmt_parse("caliper-json", &f, 1, NULL, &sink, &e), -1);
    CHECK_STR(e.message,
              "adiak.json: file: cali.caliper.version is \"2.9.0\", not a number");
    CHECK_STR(e.field, "input.cali.caliper.version");
    err_clear(&e);
    sink.inputs_from = nodes;
    CHECK_INT(fmt_parse("caliper-json", &f, 1, NULL, &sink, &e), -1);
    CHECK_STR(
        e.message,
        "adiak.json: file: no input, tag or metadata named nodes to take the input from");
    CHECK_INT(g.n, 0);
    err_clear(&e);
    xfree(data);
    /* TAU: node 0's metadata; threads, an input the import gives, stays */
    sink.inputs_from = tau_in;
    sink.ninputs_from = 2;
    CHECK_INT(fmt_parse("tau", tau, 2, NULL, &sink, &e), 0);
    CHECK_STR(e.message, "");
    CHECK(strstr(g.line[0], "|in:threads=1,problem_size=30|") != NULL);
    got_free(&g);
}

/* Issue 34: a json-split chain of 50,000 nodes. No full path is built
 * beyond a name's length: the deepest node's kernel keeps its root, a hash
 * mark and the trailing labels (at most LIMIT_NAME bytes); a row for every
 * node is refused at the kernel limit. The region path column may be one
 * of nested nodes (a sampled profile's call path), rows of one path and
 * rank are summed. */
static void test_caliper_chain(void)
{
    struct buf b;
    struct got g = {0};
    struct err e = {0};
    struct fmt_sink sink = {take_runs, take_benchmarks, &g, NULL, NULL, NULL, 0};
    struct fmt_file f;
    const char *k;
    const int n = 50000;

    buf_init(&b, 64u << 20);
    buf_puts(&b, "{\"columns\": [\"time\", \"path\"], \"nodes\": [{\"label\": \"main\"}");
    for (int i = 1; i < n; i++)
        buf_printf(&b, ", {\"label\": \"f%d\", \"parent\": %d}", i, i - 1);
    buf_printf(&b, "], \"data\": [[1.5, %d], [0.5, 0]]}", n - 1);
    f = (struct fmt_file){"chain.json", b.data, b.len};
    CHECK_INT(fmt_parse("caliper-json", &f, 1, NULL, &sink, &e), 0);
    CHECK_INT(g.n, 1);
    CHECK_INT(strstr(g.line[0], ";main=0.5{\"inclusive\": 2}") != NULL, 1);
    k = strstr(g.line[0], "|k:main/\xe2\x80\xa6");
    CHECK_INT(k != NULL && strstr(k, "/f49999=1.5{") != NULL, 1);
    CHECK_INT(k != NULL && (size_t)(strstr(k, "=1.5{") - (k + 3)) <= LIMIT_NAME, 1);
    got_free(&g);
    buf_free(&b);

    buf_init(&b, 64u << 20);
    buf_puts(&b, "{\"columns\": [\"time\", \"path\"], \"nodes\": [{\"label\": \"main\"}");
    for (int i = 1; i < n; i++)
        buf_printf(&b, ", {\"label\": \"f%d\", \"parent\": %d}", i, i - 1);
    buf_puts(&b, "], \"data\": [[1, 0]");
    for (int i = 1; i < n; i++)
        buf_printf(&b, ", [1, %d]", i);
    buf_puts(&b, "]}");
    f = (struct fmt_file){"chain.json", b.data, b.len};
    CHECK_INT(fmt_parse("caliper-json", &f, 1, NULL, &sink, &e), -1);
    CHECK_STR(e.message, "chain.json: more than 10000 region paths");
    CHECK_INT(g.n, 0);
    buf_free(&b);

    {
        static const char text[] =
            "{\"columns\": [\"count\", \"mpi.rank\", \"fn#callpath\", \"loc\", "
            "\"sum#time.duration\"], \"nodes\": [{\"label\": \"main\", \"column\": "
            "\"fn#callpath\"}, {\"label\": \"solve\", \"column\": \"fn#callpath\", "
            "\"parent\": 0}, {\"label\": \"a.c:1\", \"column\": \"loc\"}, {\"label\": "
            "\"a.c:2\", \"column\": \"loc\"}], \"data\": [[2, 0, 1, 2, 10], [3, 0, 1, 3, "
            "20], "
            "[1, 1, 1, 2, 40], [1, 0, 0, 2, 5], [1, 1, 0, 2, 5]]}";
        err_clear(&e);
        f = (struct fmt_file){"cpi.json", text, strlen(text)};
        CHECK_INT(fmt_parse("auto", &f, 1, NULL, &sink, &e), 0);
        CHECK_INT(g.n, 1);
        /* no version: Caliper 1.x, microseconds; rank 0's solve is 10 + 20 */
        CHECK_STR(g.line[0],
                  "cpi|cpi|unknown|np=2|rt=4.5e-05|in:|m:|k:main/solve=4e-05{"
                  "\"inclusive\": 4e-05, \"mean\": 3.5000000000000004e-05, \"min\": "
                  "3e-05, \"count\": 5};main=5e-06{\"inclusive\": 4.5e-05, \"mean\": "
                  "5e-06, \"min\": 5e-06, \"count\": 1}");
        got_free(&g);
    }
}

/* A call-path profile of 2 threads with a counter directory and user
 * events: one kernel per function over the threads, the call path A => B as
 * A/B and its flat function left out, the counter as counts, the threads
 * as an input, the application from the Executable metadata. */
static void test_tau_multi(void)
{
    static const char *const names[] = {
        "MULTI__PAPI_FP_OPS/profile.0.0.0", "MULTI__PAPI_FP_OPS/profile.0.0.1",
        "MULTI__TIME/profile.0.0.0", "MULTI__TIME/profile.0.0.1"};
    struct got g = {0};
    struct err e = {0};
    struct fmt_sink sink = {take_runs, NULL, &g, NULL, NULL, NULL, 0};
    struct fmt_file f[4];
    char path[128];
    for (int i = 0; i < 4; i++) {
        size_t len;
        snprintf(path, sizeof path, "tau/multi/%s", names[i]);
        f[i].data = data_file(path, &len);
        f[i].len = len;
        f[i].name = names[i];
    }
    CHECK_INT(fmt_parse("auto", f, 4, NULL, &sink, &e), 0);
    CHECK_STR(e.message, "");
    CHECK_INT(g.n, 1);
    CHECK_STR(
        g.line[0],
        "solver|solver|unknown|np=1|rt=4|in:threads=2|m:Message size.count=5,Message "
        "size.max=80,Message size.min=8,Message size.mean=33.6|k:.TAU application=1x1{"
        "\"mean\": 0.75, \"min\": 0.5, \"inclusive\": 4, \"inclusive_mean\": 3, "
        "\"inclusive_min\": 2, \"PAPI_FP_OPS\": 20, \"PAPI_FP_OPS_inclusive\": 1000, "
        "\"PAPI_FP_OPS_inclusive_mean\": 760, \"PAPI_FP_OPS_inclusive_min\": "
        "520};.TAU application/solve()=3x2{\"mean\": 2.25, \"min\": 1.5, "
        "\"inclusive\": 3, \"inclusive_mean\": 2.25, \"inclusive_min\": 1.5, "
        "\"PAPI_FP_OPS\": 990, \"PAPI_FP_OPS_inclusive\": 990, "
        "\"PAPI_FP_OPS_inclusive_mean\": 745, \"PAPI_FP_OPS_inclusive_min\": 500}");
    got_free(&g);
    for (int i = 0; i < 4; i++)
        xfree((char *)f[i].data);
}

/* Counters alone, no TIME metric (SPEC §16): the kernels have no time (never a
 * made-up 0), each keeps the counter, and the run has no runtime. */
static void test_tau_counters_only(void)
{
    static const char *const names[] = {"MULTI__PAPI_FP_OPS/profile.0.0.0",
                                        "MULTI__PAPI_FP_OPS/profile.0.0.1"};
    struct got g = {0};
    struct err e = {0};
    struct fmt_sink sink = {take_runs, NULL, &g, NULL, NULL, NULL, 0};
    struct fmt_file f[2];
    char path[128];
    for (int i = 0; i < 2; i++) {
        size_t len;
        snprintf(path, sizeof path, "tau/multi/%s", names[i]);
        f[i].data = data_file(path, &len);
        f[i].len = len;
        f[i].name = names[i];
    }
    CHECK_INT(fmt_parse("tau", f, 2, NULL, &sink, &e), 0);
    CHECK_STR(e.message, "");
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0],
              "tau|tau|unknown|np=1|rt=none|in:threads=2|m:|k:.TAU application=nonex1{"
              "\"PAPI_FP_OPS\": 20, \"PAPI_FP_OPS_inclusive\": 1000, "
              "\"PAPI_FP_OPS_inclusive_mean\": 760, \"PAPI_FP_OPS_inclusive_min\": "
              "520};.TAU application/solve()=nonex2{\"PAPI_FP_OPS\": 990, "
              "\"PAPI_FP_OPS_inclusive\": 990, \"PAPI_FP_OPS_inclusive_mean\": 745, "
              "\"PAPI_FP_OPS_inclusive_min\": 500}");
    got_free(&g);
    for (int i = 0; i < 2; i++)
        xfree((char *)f[i].data);
}

static struct fmt_file *tau_files(size_t *n, char **a, char **b)
{
    static struct fmt_file f[2];
    size_t la, lb;
    *a = data_file("tau/run/profile.0.0.0", &la);
    *b = data_file("tau/run/profile.1.0.0", &lb);
    f[0] = (struct fmt_file){"run/profile.0.0.0", *a, la};
    f[1] = (struct fmt_file){"run/profile.1.0.0", *b, lb};
    *n = 2;
    return f;
}

static const char tau_expected[] =
    "app|app|unknown|np=2|rt=5|in:threads=1|m:|k:.TAU application=0.001x1{\"mean\": "
    "0.001, "
    "\"min\": 0.001, \"inclusive\": 5, \"inclusive_mean\": 4.5, \"inclusive_min\": "
    "4};int "
    "main(int, char **) C=0.5x1{\"mean\": 0.45, \"min\": 0.4, \"inclusive\": 4.999, "
    "\"inclusive_mean\": 4.499, \"inclusive_min\": "
    "3.999};MPI_Allreduce()=1.5x12{\"mean\": "
    "1, \"min\": 0.5, \"inclusive\": 1.5, \"inclusive_mean\": 1, \"inclusive_min\": 0.5}";

static void test_tau(void)
{
    struct got g = {0};
    struct err e = {0};
    struct fmt_sink sink = {take_runs, NULL, &g, NULL, NULL, NULL, 0};
    struct fmt_options o = {"app", NULL, NULL, 0, NULL};
    char *a, *b;
    size_t n;
    struct fmt_file *f = tau_files(&n, &a, &b);
    CHECK_INT(fmt_parse("auto", f, n, &o, &sink, &e), 0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0], tau_expected);
    CHECK_STR(g.uid[0], g.uid[0]);
    got_free(&g);
    xfree(a);
    xfree(b);
    {
        size_t len;
        char *d = data_file("tau/bad/profile.0.0.0", &len);
        struct fmt_file bad = {"bad/profile.0.0.0", d, len};
        CHECK_INT(fmt_parse("tau", &bad, 1, &o, &sink, &e), -1);
        CHECK_STR(e.message,
                  "bad/profile.0.0.0:5: the profile ends after 2 of 3 functions "
                  "(truncated?)");
        CHECK_INT(g.n, 0);
        xfree(d);
    }
    {
        /* a negative number is named as such, not as a missing field */
        static const char neg[] =
            "2 templated_functions_MULTI_TIME\n"
            "# Name Calls Subrs Excl Incl ProfileCalls #\n"
            "\".TAU application\" 1 1 -19 335849084 0 GROUP=\"TAU_USER\"\n"
            "\"main\" 1 0 335849103 335849103 0 GROUP=\"TAU_DEFAULT\"\n"
            "0 aggregates\n";
        struct fmt_file nf = {"neg/profile.0.0.0", neg, sizeof neg - 1};
        err_clear(&e);
        CHECK_INT(fmt_parse("tau", &nf, 1, &o, &sink, &e), -1);
        CHECK_STR(e.message,
                  "neg/profile.0.0.0:3: a function's calls, excl and incl must "
                  "not be negative (1, -19, 3.35849e+08)");
        CHECK_INT(g.n, 0);
    }
}

static void test_tar(void)
{
    struct got g = {0};
    struct err e = {0};
    struct fmt_sink sink = {take_runs, NULL, &g, NULL, NULL, NULL, 0};
    struct fmt_options o = {"app", NULL, NULL, 0, NULL};
    struct fmt_file *files;
    size_t n, len;
    char *tar = data_file("tau/run.tar", &len);
    arena *a = arena_new();
    CHECK_INT(fmt_tar_read(tar, len, a, &files, &n, &e), 0);
    CHECK_INT(n, 2);
    CHECK_STR(files[0].name, "profile.0.0.0");
    CHECK_STR(files[1].name, "profile.1.0.0");
    CHECK_INT(fmt_parse(NULL, files, n, &o, &sink, &e), 0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0], tau_expected);
    got_free(&g);
    xfree(tar);
    tar = data_file("tau/truncated.tar", &len);
    CHECK_INT(fmt_tar_read(tar, len, a, &files, &n, &e), -1);
    CHECK_STR(e.message, "tar: member 1 is truncated (355 bytes announced)");
    err_clear(&e);
    CHECK_INT(fmt_tar_read("not a tar archive", 17, a, &files, &n, &e), -1);
    CHECK_STR(e.message, "tar: the archive is truncated at byte 0 (member 1)");
    xfree(tar);
    arena_free(a);
}

static void test_osu(void)
{
    struct got g = {0};
    struct err e = {0};
    struct fmt_options o = {NULL, NULL, "cluster-b", 8, NULL};
    CHECK_INT(import("osu", "osu/latency.txt", &o, &g, &e), 0);
    CHECK_INT(g.n, 2);
    CHECK_STR(g.system, "cluster-b");
    CHECK_STR(g.line[0], "MPISR {\"L\":1,\"P\":2} mean 1.5e-06");
    CHECK_STR(g.line[1], "MPISR {\"L\":1024,\"P\":2} mean 3.25e-06");
    got_free(&g);
    CHECK_INT(import("auto", "osu/bcast.txt", &o, &g, &e), 0);
    CHECK_INT(g.n, 6);
    CHECK_STR(g.line[0], "MPIBC {\"L\":1,\"P\":8} mean 2e-06");
    CHECK_STR(g.line[1], "MPIBC {\"L\":1,\"P\":8} min 1e-06");
    CHECK_STR(g.line[5], "MPIBC {\"L\":4096,\"P\":8} max 1.2e-05");
    got_free(&g);
    CHECK_INT(import("osu", "osu/bw.txt", NULL, &g, &e), 0);
    CHECK_STR(g.system, "unknown");
    /* bandwidth as measured (MB/s) beside the time per message */
    CHECK_INT(g.n, 4);
    CHECK_STR(g.line[0], "MPIBW_MBS {\"L\":1,\"P\":2} mean 2");
    CHECK_STR(g.line[1], "MPIBW {\"L\":1,\"P\":2} mean 5e-07");
    CHECK_STR(g.line[2], "MPIBW_MBS {\"L\":1000000,\"P\":2} mean 1000");
    CHECK_STR(g.line[3], "MPIBW {\"L\":1000000,\"P\":2} mean 0.001");
    got_free(&g);
    /* a launcher's preamble and a job's words among the tables; one-sided
     * tests; a multi-pair test's P is twice its pairs; messages per second */
    CHECK_INT(import("auto", "osu/onesided.txt", &o, &g, &e), 0);
    CHECK_INT(g.n, 5);
    CHECK_STR(g.line[0], "MPIGET {\"L\":1,\"P\":2} mean 1.25e-06");
    CHECK_STR(g.line[1], "MPIGET {\"L\":8,\"P\":2} mean 2.5e-06");
    CHECK_STR(g.line[2], "MPIMBW_MBS {\"L\":4,\"P\":8} mean 8");
    CHECK_STR(g.line[3], "MPIMBW {\"L\":4,\"P\":8} mean 5e-07");
    CHECK_STR(g.line[4], "MPIMBW_MSGS {\"L\":4,\"P\":8} mean 2000000");
    got_free(&g);
    /* Open MPI's words after a crash start with a number: text, not a row;
     * the rows measured before it are kept */
    CHECK_INT(import("osu", "osu/crashed.txt", &o, &g, &e), 0);
    CHECK_INT(g.n, 2);
    CHECK_STR(g.line[1], "MPISR {\"L\":1024,\"P\":2} mean 3.25e-06");
    got_free(&g);
    CHECK_INT(import("osu", "osu/truncated.txt", &o, &g, &e), -1);
    CHECK_STR(e.message, "truncated.txt:3: 2 values for 4 columns (truncated?)");
    CHECK_INT(g.n, 0);
    err_clear(&e);
    /* a value that is a word of its own is a measurement gone wrong */
    CHECK_INT(import("osu", "osu/nan.txt", &o, &g, &e), -1);
    CHECK_STR(e.message, "nan.txt:4: \"nan\" is not a number");
    CHECK_INT(g.n, 0);
    err_clear(&e);
    /* OSU 7's --validation: a size that failed it is left out, with a note */
    CHECK_INT(import("osu", "osu/validation.txt", &o, &g, &e), 0);
    CHECK_INT(g.n, 4);
    CHECK_STR(g.line[0], "MPISR {\"L\":1,\"P\":2} mean 3.825e-05");
    CHECK_STR(g.line[1], "MPISR {\"L\":4,\"P\":2} mean 3.849e-05");
    CHECK_STR(g.line[2], "MPIBW_MBS {\"L\":1,\"P\":2} mean 0.14");
    CHECK_STR(g.note, "validation.txt: 2 message sizes failed OSU's validation "
                      "(\"Fail\") and were left out (the first: MPISR at 2 B)");
    got_free(&g);
    CHECK_INT(import("osu", "osu/all_failed.txt", &o, &g, &e), -1);
    CHECK_STR(e.message, "all_failed.txt: every message size failed OSU's validation "
                         "(\"Fail\"; the first: MPISR at 1 B): nothing to store");
    CHECK_INT(g.n, 0);
}

static void test_lnt(void)
{
    struct got g = {0};
    struct err e = {0};
    CHECK_INT(import("lnt-json", "lnt-json/report.json", NULL, &g, &e), 0);
    CHECK_INT(g.n, 3);
    CHECK_STR(g.line[0],
              "nts|SingleSource/Benchmarks/Misc/himenobmtxpa|buildbot-x86|np=1|"
              "rt=0.5|in:|m:compile_time=1.25,code_size=4096|k:|c=a1b2c3d|t=2026-11-"
              "20T10:00:00|tag=nts");
    CHECK_STR(g.line[1],
              "nts|SingleSource/Benchmarks/Misc/himenobmtxpa|buildbot-x86|np=1|"
              "rt=0.52|in:|m:compile_time=1.25,code_size=4096|k:|c="
              "a1b2c3d|t=2026-11-20T10:00:00|tag=nts");
    CHECK_STR(g.line[2],
              "nts|SingleSource/Benchmarks/Misc/oourafft|buildbot-x86|np=1|rt=0.75|"
              "in:|m:|k:|c=a1b2c3d|t=2026-11-20T10:00:00|tag=nts");
    got_free(&g);
    /* version 1: entries grouped into tests by their metric suffix; a
     * hash-only test is left out; Run.Info.run_order is the commit */
    CHECK_INT(import("lnt-json", "lnt-json/v1.json", NULL, &g, &e), 0);
    CHECK_INT(g.n, 2);
    CHECK_STR(g.line[0],
              "nts|nts.a|m|np=1|rt=1.5|in:|m:compile_time=0.5|k:|c=42|t=2026-11-"
              "20T10:00:00|tag=nts");
    CHECK_STR(g.line[1],
              "nts|nts.a|m|np=1|rt=1.25|in:|m:compile_time=0.5|k:|c=42|t=2026-11-"
              "20T10:00:00|tag=nts");
    got_free(&g);
}

static void test_bmf(void)
{
    struct got g = {0};
    struct err e = {0};
    CHECK_INT(import("bmf", "bmf/results.json", NULL, &g, &e), 0);
    CHECK_INT(g.n, 2);
    CHECK_STR(g.line[0],
              "results|bench_sort/1000|unknown|np=1|rt=1.5e-06|in:|m:latency=1.5e-06,"
              "latency_lower=1.4e-06,latency_upper=1.6e-06,"
              "throughput="
              "666666|k:");
    CHECK_STR(g.line[1], "results|build|unknown|np=1|rt=42.5|in:|m:build-time=42.5|k:");
    got_free(&g);
    /* no latency or build-time (SPEC §16): a run without a runtime, its
     * measures its metrics */
    CHECK_INT(import("bmf", "bmf/malformed.json", NULL, &g, &e), 0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0], "malformed|bench_a|unknown|np=1|rt=none|in:|m:throughput=10|k:");
    got_free(&g);
    /* the v1 draft: a list of {parameters, measures}; numbers are inputs,
     * words name the executable; measures of any name, every number kept */
    err_clear(&e);
    CHECK_INT(import("auto", "bmf/v1.json", NULL, &g, &e), 0);
    CHECK_INT(g.n, 2);
    CHECK_STR(g.line[0],
              "v1|bench::read{op=read}|unknown|np=1|rt=4.2e-08|in:size_mb=16|m:"
              "latency=4.2e-08,latency_p99=9.7e-08,Total Bytes=16777216|k:");
    CHECK_STR(g.line[1],
              "v1|bench::read{op=read}|unknown|np=1|rt=5.5e-08|in:size_mb=32|m:"
              "latency=5.5e-08|k:");
    got_free(&g);
}

static void test_gbench(void)
{
    struct got g = {0};
    struct err e = {0};
    CHECK_INT(import("gbench", "gbench/out.json", NULL, &g, &e), 0);
    CHECK_INT(g.n, 3);
    CHECK_STR(
        g.line[0],
        "bench_set|BM_SetInsert|bench-host|np=1|rt=2.5e-06|in:arg1=1024,arg2=8,"
        "threads=1|m:iterations=1000,cpu_time=2.4000000000000003e-06,items_per_"
        "second=400000,real_time_mean=2.55e-06,cpu_time_mean=2.4500000000000003e-06|"
        "k:|c=deadbeef|t=2026-11-21T09:15:00+01:00|library_build_type=release");
    CHECK_STR(g.line[2],
              "bench_set|BM_Copy|bench-host|np=1|rt=0.0015|in:size=64,threads=4|m:"
              "iterations=50,cpu_time=0.00125,bytes_per_second=1000000000|k:|c="
              "deadbeef|t=2026-11-21T09:15:00+01:00|library_build_type=release");
    got_free(&g);
    /* a.out names the directory it was built in; reported by aggregates
     * only: one run of the mean; the cv is a ratio; the family's complexity
     * fit on its runs; min_time is how it ran, not an input; the mean row's
     * "iterations" (3) is its number of repetitions, not a metric */
    CHECK_INT(import("auto", "gbench/aout.json", NULL, &g, &e), 0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0],
              "sorter|BM_Sort|unknown|np=1|rt=3e-06|in:arg1=8,threads=4|m:"
              "cpu_time=2e-06,real_time_mean=3e-06,cpu_time_mean=2e-"
              "06,real_time_cv=0.25,cpu_time_cv=0.5,big_o_real_coefficient=0.5,big_"
              "o_cpu_coefficient=0.25|k:|c=|t=2026-11-21T09:15:00|library_build_type="
              "release");
    got_free(&g);
}

/* Before Google Benchmark 1.2 an argument was written in its
 * AppendHumanReadable form, powers of 1024 to six digits (a 2016 file of a
 * project's benchmark reads "BM_TC1Acceleration/100/1.95312k/10"): numbers
 * of the benchmark, not parts of its family's name. */
static void test_gbench_human_readable_arguments(void)
{
    static const char text[] =
        "{\"context\": {\"date\": \"2016-08-28 22:39:12\"}, \"benchmarks\": ["
        "{\"name\": \"BM_Acc/100/1.95312k/10\", \"iterations\": 1, \"real_time\": 5, "
        "\"cpu_time\": 4, \"time_unit\": \"ns\"},"
        "{\"name\": \"BM_memcpy/8k/1M\", \"iterations\": 1, \"real_time\": 5, "
        "\"cpu_time\": 4, \"time_unit\": \"ns\"}]}";
    struct got g = {0};
    struct err e = {0};
    struct fmt_sink sink = {take_runs, take_benchmarks, &g, NULL, NULL, NULL, 0};
    struct fmt_file f = {"old.json", text, strlen(text)};
    CHECK_INT(fmt_parse("gbench", &f, 1, NULL, &sink, &e), 0);
    CHECK_INT(g.n, 2);
    CHECK_STR(g.line[0],
              "old|BM_Acc|unknown|np=1|rt=5e-09|in:arg1=100,arg2=2000,arg3=10|m:"
              "iterations=1,cpu_time=4e-09|k:|c=|t=2016-08-28T22:39:12");
    CHECK_STR(g.line[1],
              "old|BM_memcpy|unknown|np=1|rt=5e-09|in:arg1=8192,arg2=1048576|m:"
              "iterations=1,cpu_time=4e-09|k:|c=|t=2016-08-28T22:39:12");
    got_free(&g);
}

static void test_rundoc_rows(void)
{
    struct got g = {0}, again = {0};
    struct err e = {0};
    CHECK_INT(import("auto", "json/runs.json", NULL, &g, &e), 0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0], "app|app.x|sys|np=4|rt=1.5|in:N=100|m:|k:");
    CHECK_INT(strncmp(g.uid[0], "json:", 5), 0);
    CHECK_INT(import("auto", "csv/runs.csv", NULL, &again, &e), 0);
    CHECK_INT(again.n, 1);
    CHECK_STR(again.line[0], "app|app.x|sys|np=4|rt=1.5|in:N=100|m:|k:");
    got_free(&g);
    got_free(&again);
}

/* A sink that refuses stops the import with its error. */
static int refuse(void *ctx, const struct run_record *r, size_t n, struct err *err)
{
    (void)ctx;
    (void)r;
    (void)n;
    return err_set(err, ERR_UNAVAILABLE, "busy", NULL, "the store is busy");
}

static void test_sink_error(void)
{
    struct fmt_sink sink = {refuse, NULL, NULL, NULL, NULL, NULL, 0};
    struct err e = {0};
    struct fmt_file f = {"x.txt", "PARAMETER x\nPOINTS 1\nREGION r\nDATA 1\n", 36};
    CHECK_INT(fmt_parse("extrap-text", &f, 1, NULL, &sink, &e), -1);
    CHECK_INT(e.status, ERR_UNAVAILABLE);
    CHECK_STR(e.message, "the store is busy");
    err_clear(&e);
    sink.runs = NULL;
    CHECK_INT(fmt_parse("extrap-text", &f, 1, NULL, &sink, &e), -1);
    CHECK_STR(e.message,
              "x.txt: extrap-text holds runs, which this import does not take");
}

/* A real trace written by Debian's OTF2 library (tests/data/import/otf2/
 * make_trace.c.txt): two ranks, main > compute, MPI_Barrier, 1000 ticks/s. */
static void test_otf2(void)
{
    static const char *const names[] = {"trace/traces.otf2",  "trace/traces.def",
                                        "trace/traces/0.def", "trace/traces/0.evt",
                                        "trace/traces/1.def", "trace/traces/1.evt"};
    struct fmt_file f[6];
    char *data[6];
    struct got g = {0};
    struct err e = {0};
    struct fmt_sink sink = {take_runs, NULL, &g, NULL, NULL, NULL, 0};
    int rc;

    for (size_t i = 0; i < 6; i++) {
        char rel[128];
        snprintf(rel, sizeof rel, "otf2/%s", names[i]);
        data[i] = data_file(rel, &f[i].len);
        f[i].name = names[i];
        f[i].data = data[i];
    }
    CHECK(fmt_detect(f, 6, NULL) == fmt_find("otf2"));
    rc = fmt_parse("auto", f, 6, NULL, &sink, &e);
#ifdef PROPHECY_HAVE_OTF2
    CHECK_INT(rc, 0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0],
              /* main's time is exclusive (1.2 - 0.75 - 0.3 on rank 1), its
                 inclusive time a metric (SPEC §16) */
              "traces|traces|unknown|np=2|rt=1.2|in:|m:|k:main=0.15x1{\"mean\": 0.15, "
              "\"min\": 0.15, \"inclusive\": 1.2, \"inclusive_mean\": 1.1, "
              "\"inclusive_min\": 1};compute=0.75x2{\"mean\": 0.65, \"min\": 0.55, "
              "\"inclusive\": 0.75, \"inclusive_mean\": 0.65, \"inclusive_min\": "
              "0.55};MPI_Barrier=0.3x1{\"mean\": 0.3, \"min\": 0.3, \"inclusive\": 0.3, "
              "\"inclusive_mean\": 0.3, \"inclusive_min\": 0.3}");
    /* a trace without its event files is refused, saying what is missing */
    got_free(&g);
    CHECK_INT(fmt_parse("otf2", f, 2, NULL, &sink, &e), -1);
    CHECK_STR(e.message, "trace/traces.otf2: traces/ (the per-location event files) is "
                         "missing: send the trace's whole directory, not its anchor "
                         "file alone");
    CHECK_STR(e.field, "files");
    CHECK_INT(g.n, 0);
    /* An anchor file whose magic is damaged: the OTF2 library's open fails
     * and leaks what it had allocated (LeakSanitizer saw it in
     * fuzz_import_otf2); the read is tried in a child process first, so
     * nothing of it reaches this one (the sanitized run checks that). */
    {
        char *anchor = xmalloc(f[0].len);
        memcpy(anchor, f[0].data, f[0].len);
        anchor[2] ^= 0x55; /* "OTF2" -> garbage */
        f[0].data = anchor;
        err_clear(&e);
        CHECK_INT(fmt_parse("otf2", f, 6, NULL, &sink, &e), -1);
        CHECK_INT(e.status, ERR_INVALID);
        CHECK_STR(e.message, "trace/traces.otf2: the OTF2 library cannot open the trace");
        CHECK_INT(g.n, 0);
        f[0].data = data[0];
        xfree(anchor);
    }
#else
    CHECK_INT(rc, -1);
#endif
    got_free(&g);
    for (size_t i = 0; i < 6; i++)
        xfree(data[i]);
}

/* Caliper without a time column (SPEC §16): the regions are kernels with
 * their columns and no time (never a made-up 0), the run has no runtime. */
static void test_caliper_no_time(void)
{
    static const char text[] = "[{\"path\": \"main\", \"count\": 3, \"bytes\": 10},"
                               "{\"path\": \"main/solve\", \"count\": 2, \"bytes\": 4}]";
    struct got g = {0};
    struct err e = {0};
    struct fmt_sink sink = {take_runs, take_benchmarks, &g, NULL, NULL, NULL, 0};
    struct fmt_file f = {"x.json", text, strlen(text)};
    CHECK_INT(fmt_parse("caliper-json", &f, 1, NULL, &sink, &e), 0);
    CHECK_STR(e.message, "");
    CHECK_INT(g.n, 1);
    if (g.n == 1)
        CHECK_STR(g.line[0],
                  "x|x|unknown|np=1|rt=none|in:|m:|k:main=none{\"count\": 3, "
                  "\"bytes\": 10};main/solve=none{\"count\": 2, \"bytes\": 4}");
    got_free(&g);
}

/* Call counts (SPEC §16): a file that counts no calls gives kernels whose
 * count is unknown (stored as NULL), never a made-up 0 or 1; a file that
 * counts them keeps its counts. The first run's uid is the one the same
 * file had before (when the count was stored as 0, or 1 from an Extra-P
 * experiment), so that importing it again after migration 18 stores nothing
 * new: the uids below were computed by the importers of main at 7e8ec71. */
struct calls_seen {
    long long kernels, unknown, sum;
    char uid[128];
};

static int calls_of(void *ctx, const struct run_record *r, size_t n, struct err *err)
{
    struct calls_seen *c = ctx;
    (void)err;
    for (size_t i = 0; i < n; i++) {
        if (c->uid[0] == '\0')
            snprintf(c->uid, sizeof c->uid, "%s", r[i].uid);
        for (size_t k = 0; k < r[i].nkernels; k++) {
            c->kernels++;
            if (KERNEL_HAS_CALLS(r[i].kernels[k].calls))
                c->sum += r[i].kernels[k].calls;
            else
                c->unknown++;
        }
    }
    return 0;
}

static void test_calls_unknown(void)
{
    static const struct {
        const char *fmt, *rel;
        long long kernels, unknown, sum;
        const char *uid;
    } cases[] = {
        {"extrap-jsonl", "extrap-jsonl/input.jsonl", 5, 5, 0,
         "extrap-jsonl:494c4fda069a6dd6f660b64c515e1ba9e09e46cd6a292b5cb09bcb46911b9f02"},
        {"extrap-json", "extrap-json/input.json", 4, 4, 0, NULL},
        {"extrap-text", "extrap-text/lulesh.txt", 12, 12, 0,
         "extrap-text:8988497fc5b39752921c9acbda87283279eab4fbc030efc052eae26959b1ada2"},
        {"caliper-json", "caliper-json/query.json", 3, 3, 0,
         "caliper-json:ded41854bbc5b46bef978c27d08da436c078595c3482724323443eaa747d3a46"},
        {"caliper-json", "caliper-json/split.json", 3, 3, 0,
         "caliper-json:6346cba335948e08ce413f905dbd58ad5026b431f5cde8d490752b234520139f"},
        {"extrap-experiment", "extrap-experiment/solver.extra-p", 12, 12, 0,
         "extrap-experiment:"
         "30a4635c9ca0932ea59109b05f3d43a45cffd5b95f04e14f2c1aaab4ae0bb797"},
        /* a CUBE profile without visits; one with them counts */
        {"cube", "cube/kinds.cubex", 2, 2, 0,
         "cube:9acef49975b24bc0e87f19eed6a38bb426d3cc219acca159dcc4225ff6218c57"},
        {"cube", "cube/solver.cubex", 6, 0, 28, NULL},
        /* counted: TAU's calls column */
        {"tau", "tau/run/profile.0.0.0", 3, 0, 12, NULL}, /* 1 + 1 + 10 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct calls_seen c = {0, 0, 0, ""};
        struct fmt_sink sink = {calls_of, NULL, &c, NULL, NULL, NULL, 0};
        struct err e = {0};
        size_t len;
        char *data = data_file(cases[i].rel, &len);
        struct fmt_file f = {strrchr(cases[i].rel, '/') + 1, data, len};
        CHECK_INT(fmt_parse(cases[i].fmt, &f, 1, NULL, &sink, &e), 0);
        CHECK_STR(e.message, "");
        if (c.kernels != cases[i].kernels || c.unknown != cases[i].unknown ||
            c.sum != cases[i].sum)
            fprintf(stderr, "%s: %lld kernels, %lld without a count, %lld calls\n",
                    cases[i].rel, c.kernels, c.unknown, c.sum);
        CHECK_INT(c.kernels, cases[i].kernels);
        CHECK_INT(c.unknown, cases[i].unknown);
        CHECK_INT(c.sum, cases[i].sum);
        if (cases[i].uid)
            CHECK_STR(c.uid, cases[i].uid);
        xfree(data);
    }
}

/* A file of a tool Prophecy reads, in a form it does not (Caliper's .cali,
 * an Nsight Systems report, HPCToolkit measurements), is refused with what
 * to import instead, not as an unknown format; an unknown name keeps the
 * list of formats. */
static void test_other_forms_say_what_to_import(void)
{
    static const struct {
        const char *name, *said;
    } cases[] = {
        {"run/lulesh.cali", "run/lulesh.cali: Caliper's own .cali format is not read: "
                            "import Caliper's JSON (json or json-split, as "
                            "CALI_CONFIG=hatchet-region-profile writes it), or convert "
                            "the file with cali-query (... FORMAT json-split)"},
        {"report1.nsys-rep", "report1.nsys-rep: an Nsight Systems report is read as its "
                             "SQLite export: nsys export --type sqlite FILE.nsys-rep, "
                             "then import the .sqlite file"},
        {"m/a.hpcrun", "m/a.hpcrun: HPCToolkit measurements are not a database: run "
                       "hpcprof on the measurements directory and import the database "
                       "it writes"},
    };
    static const char body[] = "\x01\x02 binary";
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct fmt_file f = {cases[i].name, body, sizeof body - 1};
        struct err e = {0};
        CHECK(fmt_detect(&f, 1, &e) == NULL);
        CHECK_STR(e.message, cases[i].said);
        CHECK_STR(e.code, "unknown_format");
    }
    {
        struct fmt_file f = {"x.dat", body, sizeof body - 1};
        struct err e = {0};
        CHECK(fmt_detect(&f, 1, &e) == NULL);
        CHECK(strstr(e.message, "x.dat: the format is not recognised; name it with "
                                "format= (one of otf2, tau, ") == e.message);
    }
}

/* A Caliper list of records is recognised by its shape (flat records that
 * name regions), not by a time column: `cali-query -j` of counts or bytes
 * alone, plain or as json(object), is caliper-json under --format auto.
 * Lists of another shape are not. */
static void test_caliper_detect_without_time(void)
{
    static const struct {
        const char *text, *fmt; /* fmt NULL: not recognised */
    } cases[] = {
        {"[{\"path\": \"main\", \"count\": 3, \"bytes\": 10},"
         "{\"path\": \"main/solve\", \"count\": 2, \"bytes\": 4}]",
         "caliper-json"},
        {"\xef\xbb\xbf [\n{\"function\":\"main\",\"papi.PAPI_TOT_CYC\":1200}\n]",
         "caliper-json"},
        /* records outside any region first, as cali-query writes them */
        {"[{\"count\": 1}, {\"mpi.rank\": 0, \"count\": 4},"
         " {\"region\": \"solve\", \"count\": 2}]",
         "caliper-json"},
        {"{\"records\": [{\"region\": \"solve\", \"sum#count\": 7}], "
         "\"globals\": {\"cali.caliper.version\": \"2.9.0\"}}",
         "caliper-json"},
        {"{\"globals\": {\"cali.channel\": \"default\"}, \"records\" : "
         "[ {\"path\": \"main\", \"alloc.total_size\": 64} ]}",
         "caliper-json"},
        /* not Caliper: no region named, or records that are not flat */
        {"[{\"a\": 1}, {\"b\": 2}]", NULL},
        {"[{\"path\": \"main\", \"args\": {\"n\": 1}}]", NULL},
        {"[[\"path\", \"main\"]]", NULL},
        {"{\"records\": [{\"name\": \"x\"}]}", NULL},
        /* Trace Event JSON stays itself */
        {"[{\"name\": \"f\", \"function\": \"f\", \"ph\": \"X\", \"ts\": 1, "
         "\"dur\": 2, \"pid\": 1, \"tid\": 1}]",
         "chrome-trace"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct fmt_file f = {"q.json", cases[i].text, strlen(cases[i].text)};
        struct err e = {0};
        const struct fmt_format *fmt = fmt_detect(&f, 1, &e);
        const char *got = fmt ? fmt->name : NULL;
        if ((got == NULL) != (cases[i].fmt == NULL) ||
            (got && strcmp(got, cases[i].fmt) != 0))
            fprintf(stderr, "case %zu detected as %s\n", i, got ? got : "(none)");
        if (cases[i].fmt == NULL)
            CHECK(got == NULL);
        else
            CHECK(got != NULL && strcmp(got, cases[i].fmt) == 0);
    }
    {
        /* and imports as such: kernels without time or calls, counts kept */
        static const char text[] = "[{\"count\": 1},"
                                   "{\"path\": \"main\", \"count\": 3},"
                                   "{\"path\": \"main/solve\", \"count\": 2}]";
        struct got g = {0};
        struct err e = {0};
        struct fmt_sink sink = {take_runs, take_benchmarks, &g, NULL, NULL, NULL, 0};
        struct fmt_file f = {"counts.json", text, strlen(text)};
        CHECK_INT(fmt_parse("auto", &f, 1, NULL, &sink, &e), 0);
        CHECK_STR(e.message, "");
        CHECK_INT(g.n, 1);
        if (g.n == 1)
            CHECK_STR(g.line[0], "counts|counts|unknown|np=1|rt=none|in:|m:|k:main=none{"
                                 "\"count\": 3};main/solve=none{\"count\": 2}");
        got_free(&g);
    }
}

/* TAU with a TIME metric (SPEC §16): a function that only a counter metric
 * measured is kept, without a time (never a made-up 0) and with the calls
 * its counter profile gives; the run time stays the root's. */
static void test_tau_counter_only_function(void)
{
    static const char time0[] =
        "2 templated_functions_MULTI_TIME\n"
        "# Name Calls Subrs Excl Incl ProfileCalls #\n"
        "\".TAU application\" 1 1 1000000 3000000 0 GROUP=\"TAU_DEFAULT\"\n"
        "\"solve()\" 2 0 2000000 2000000 0 GROUP=\"TAU_DEFAULT\"\n"
        "0 aggregates\n0 userevents\n";
    static const char ops0[] =
        "3 templated_functions_MULTI_PAPI_FP_OPS\n"
        "# Name Calls Subrs Excl Incl ProfileCalls #\n"
        "\".TAU application\" 1 2 10 1000 0 GROUP=\"TAU_DEFAULT\"\n"
        "\"solve()\" 2 0 900 900 0 GROUP=\"TAU_DEFAULT\"\n"
        "\"hw_only()\" 7 0 90 90 0 GROUP=\"TAU_DEFAULT\"\n"
        "0 aggregates\n0 userevents\n";
    struct fmt_file f[2] = {{"MULTI__PAPI_FP_OPS/profile.0.0.0", ops0, sizeof ops0 - 1},
                            {"MULTI__TIME/profile.0.0.0", time0, sizeof time0 - 1}};
    struct got g = {0};
    struct err e = {0};
    struct fmt_sink sink = {take_runs, NULL, &g, NULL, NULL, NULL, 0};
    CHECK_INT(fmt_parse("auto", f, 2, NULL, &sink, &e), 0);
    CHECK_STR(e.message, "");
    CHECK_INT(g.n, 1);
    if (g.n == 1)
        CHECK_STR(
            g.line[0],
            "tau|tau|unknown|np=1|rt=3|in:threads=1|m:|k:.TAU application=1x1{"
            "\"mean\": 1, \"min\": 1, \"inclusive\": 3, \"inclusive_mean\": 3, "
            "\"inclusive_min\": 3, \"PAPI_FP_OPS\": 10, \"PAPI_FP_OPS_inclusive\": "
            "1000, \"PAPI_FP_OPS_inclusive_mean\": 1000, \"PAPI_FP_OPS_inclusive_min\": "
            "1000};solve()=2x2{\"mean\": 2, \"min\": 2, \"inclusive\": 2, "
            "\"inclusive_mean\": 2, \"inclusive_min\": 2, \"PAPI_FP_OPS\": 900, "
            "\"PAPI_FP_OPS_inclusive\": 900, \"PAPI_FP_OPS_inclusive_mean\": 900, "
            "\"PAPI_FP_OPS_inclusive_min\": 900};hw_only()=nonex7{\"PAPI_FP_OPS\": "
            "90, \"PAPI_FP_OPS_inclusive\": 90, \"PAPI_FP_OPS_inclusive_mean\": 90, "
            "\"PAPI_FP_OPS_inclusive_min\": 90}");
    got_free(&g);
}

/* Malformed inputs of the JSON formats: each refused with the field at fault,
 * and nothing handed to the sink. */
static void test_malformed_json_formats(void)
{
    static const struct {
        const char *fmt, *text, *message;
    } cases[] = {
        {"caliper-json",
         "{\"nodes\": [{\"label\": \"a\", \"parent\": 0}], \"columns\": "
         "[\"path\", \"time\"], \"data\": []}",
         "x.json: nodes[0] needs a label and an earlier parent"},
        {"gbench",
         "{\"context\": {}, \"benchmarks\": [{\"name\": \"BM_A\", "
         "\"run_type\": \"iteration\", \"error_occurred\": true, "
         "\"error_message\": \"boom\"}]}",
         "x.json: benchmarks[0] (BM_A) reported an error: boom"},
        {"gbench",
         "{\"context\": {}, \"benchmarks\": [{\"name\": \"BM_A\", "
         "\"real_time\": 1, \"time_unit\": \"fortnights\"}]}",
         "x.json: benchmarks[0] has an unknown time_unit"},
        {"lnt-json",
         "{\"format_version\": \"3\", \"machine\": {}, \"run\": {}, "
         "\"tests\": []}",
         "x.json: format_version must be \"2\" (or a version 1 report with \"Machine\", "
         "\"Run\" and \"Tests\")"},
        /* the run rules of POST /api/v1/runs (issue 34 item 7) */
        {"lnt-json",
         "{\"format_version\": \"2\", \"machine\": {\"name\": \"m\"}, \"run\": "
         "{\"llvm_project_revision\": "
         "\"0123456789012345678901234567890123456789012345678901234567890123X\"}, "
         "\"tests\": [{\"name\": \"t\", \"execution_time\": 1}]}",
         "x.json: tests[0] sample 0: commit is longer than 64 bytes"},
        {"lnt-json",
         "{\"format_version\": \"2\", \"machine\": {\"name\": \"m\"}, \"run\": "
         "{\"start_time\": \"9999-99-99T99:99:99\"}, "
         "\"tests\": [{\"name\": \"t\", \"execution_time\": 1}]}",
         "x.json: tests[0] sample 0: 9999-99-99T99:99:99 is not a valid ISO 8601 time"},
        {"gbench",
         "{\"context\": {\"commit\": "
         "\"ccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"
         "ccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"
         "cccccccccccccccccccccccccccccccccccccccccccc\"}, \"benchmarks\": "
         "[{\"name\": \"BM_A\", \"run_type\": \"iteration\", \"real_time\": 1, "
         "\"time_unit\": \"ns\"}]}",
         "x.json: benchmarks[0]: commit is longer than 64 bytes"},
        {"gbench",
         "{\"context\": "
         "{\"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"
         "kkkkkkkkkkkkkkkkkkkkkkkk\": \"v\"}, \"benchmarks\": "
         "[{\"name\": \"BM_A\", \"run_type\": \"iteration\", \"real_time\": 1, "
         "\"time_unit\": \"ns\"}]}",
         "x.json: benchmarks[0]: a tag name is longer than 64 bytes"},
        {"extrap-json",
         "{\"parameters\": [\"p\"], \"measurements\": {\"a\": {\"time\": "
         "[{\"point\": [1, 2], \"values\": [1]}]}}}",
         "x.json: measurements.a.time[0].point must hold 1 coordinates"},
        {"extrap-json",
         "{\"parameters\": [\"p\"], \"measurements\": {\"a\": {\"time\": "
         "[{\"point\": [0.5], \"values\": [1]}]}}}",
         "x.json: parameter p is the process count and must be a positive integer"},
        {"bmf", "{\"b\": {\"latency\": {\"value\": \"fast\"}}}",
         "x.json: b.latency.value must be a number"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct got g = {0};
        struct err e = {0};
        struct fmt_sink sink = {take_runs, take_benchmarks, &g, NULL, NULL, NULL, 0};
        struct fmt_file f = {"x.json", cases[i].text, strlen(cases[i].text)};
        CHECK_INT(fmt_parse(cases[i].fmt, &f, 1, NULL, &sink, &e), -1);
        CHECK_STR(e.message, cases[i].message);
        CHECK_INT(e.status, ERR_INVALID);
        CHECK_INT(g.n, 0);
    }
}

/* A tar whose header checksum is wrong, and one with a symbolic link. */
static void test_tar_malformed(void)
{
    char block[1536];
    struct fmt_file *files;
    size_t n, len;
    struct err e = {0};
    arena *a = arena_new();
    char *tar = data_file("tau/run.tar", &len);
    memcpy(block, tar, sizeof block);
    block[0] ^= 1; /* the name changes, the checksum does not */
    CHECK_INT(fmt_tar_read(block, sizeof block, a, &files, &n, &e), -1);
    CHECK_STR(e.message, "tar: member 1 has a bad header checksum (not a tar archive?)");
    err_clear(&e);
    memcpy(block, tar, sizeof block);
    block[156] = '2'; /* a symbolic link: fix the checksum */
    {
        unsigned sum = 0;
        memset(block + 148, ' ', 8);
        for (int i = 0; i < 512; i++)
            sum += (unsigned char)block[i];
        snprintf(block + 148, 8, "%06o", sum);
    }
    CHECK_INT(fmt_tar_read(block, sizeof block, a, &files, &n, &e), -1);
    CHECK_STR(e.message,
              "tar: member profile.0.0.0 is not a regular file or directory (type 2)");
    xfree(tar);
    arena_free(a);
}

/* "auto" over several files of different single-file formats. */
static void test_auto_several(void)
{
    size_t l1, l2;
    char *a = data_file("extrap-text/one.txt", &l1), *b = data_file("csv/runs.csv", &l2);
    struct fmt_file f[2] = {{"one.txt", a, l1}, {"runs.csv", b, l2}};
    struct got g = {0};
    struct err e = {0};
    struct fmt_sink sink = {take_runs, NULL, &g, NULL, NULL, NULL, 0};
    CHECK_INT(fmt_parse("auto", f, 2, NULL, &sink, &e), 0);
    CHECK_INT(g.n, 4);
    CHECK_STR(g.line[3], "app|app.x|sys|np=4|rt=1.5|in:N=100|m:|k:");
    got_free(&g);
    xfree(a);
    xfree(b);
}

/* Extra-P's JSON reader (extrap --json) reads JSON Lines too (import trial C2,
 * Extra-P's tests/data/input/json_test_input.jsonl): extrap-json given such a
 * file reads it as extrap-jsonl, with the same runs and uids, instead of
 * refusing it at line 2; a JSON document is still read as before. */
static void test_extrap_json_reads_lines(void)
{
    static const char lines[] =
        "{\"params\":{\"x\":20},\"metric\":\"metr\",\"value\":82.5}\n"
        "{\"params\":{\"x\":20},\"metric\":\"metr\",\"value\":81.25}\n"
        "{\"params\":{\"x\":30},\"metric\":\"metr\",\"value\":184}\n";
    struct fmt_file f = {"lines.json", lines, sizeof lines - 1};
    struct got as_json = {0}, as_lines = {0};
    struct err e = {0};
    struct fmt_sink s1 = {take_runs, NULL, &as_json, NULL, NULL, NULL, 0};
    struct fmt_sink s2 = {take_runs, NULL, &as_lines, NULL, NULL, NULL, 0};
    CHECK_INT(fmt_parse("extrap-json", &f, 1, NULL, &s1, &e), 0);
    CHECK_INT(fmt_parse("extrap-jsonl", &f, 1, NULL, &s2, &e), 0);
    CHECK_INT(as_json.n, 3);
    CHECK_INT(as_lines.n, 3);
    for (size_t i = 0; i < as_json.n && i < as_lines.n; i++) {
        CHECK_STR(as_json.line[i], as_lines.line[i]);
        CHECK_STR(as_json.uid[i], as_lines.uid[i]);
    }
    CHECK_STR(as_json.line[1], "lines|lines|unknown|np=1|rt=none|in:x=20|m:metr=81.25|"
                               "k:<root>=none{\"metr\": 81.25}");
    got_free(&as_json);
    got_free(&as_lines);
    CHECK_INT(import("extrap-json", "extrap-json/input.json", NULL, &as_json, &e), 0);
    CHECK(as_json.n > 0);
    got_free(&as_json);
}

/* A point that POINTS lists twice is measured twice, as Extra-P's text
 * reader takes DATA lines in the order of the listed points (its
 * coordinates keep duplicates): its values are more repetitions of that
 * point, not a "more DATA lines than the points" refusal. */
static void test_extrap_text_point_listed_twice(void)
{
    static const char text[] = "PARAMETER p\nPOINTS (2) (4) (2)\nREGION a\n"
                               "DATA 1 1.5\nDATA 2\nDATA 3\n";
    struct fmt_file f = {"dup.txt", text, sizeof text - 1};
    struct got g = {0};
    struct err e = {0};
    struct fmt_sink sink = {take_runs, NULL, &g, NULL, NULL, NULL, 0};
    static const char *const want[] = {"dup|dup|unknown|np=2|rt=1|in:|m:|k:a=1",
                                       "dup|dup|unknown|np=2|rt=1.5|in:|m:|k:a=1.5",
                                       "dup|dup|unknown|np=2|rt=3|in:|m:|k:a=3",
                                       "dup|dup|unknown|np=4|rt=2|in:|m:|k:a=2"};
    CHECK_INT(fmt_parse("extrap-text", &f, 1, NULL, &sink, &e), 0);
    CHECK_INT(g.n, 4); /* p=2: 1, 1.5 (its first DATA line), 3 (its second) */
    for (size_t i = 0; i < g.n && i < 4; i++)
        CHECK_STR(g.line[i], want[i]);
    got_free(&g);
}

/* TAU entries that are not timers of their own (import trial C1): event-based
 * samples ("[CONTEXT] t", "[SAMPLE] f", flat and as call paths) are kernels
 * without a time, their total as `sampled`; a parameter entry
 * "F [ <n> = <8> ]" is the kernel F/[ <n> = <8> ] and F keeps the rest of its
 * exclusive time; a flat "f [THROTTLED]" that a call path ends in as "f" is
 * inside that call path. Nothing is counted twice: the timed kernels sum to
 * at most the run time. */
static void test_tau_samples_params_throttled(void)
{
    struct got g = {0};
    struct err e = {0};
    CHECK_INT(import("tau", "tau/samples/profile.0.0.0", NULL, &g, &e), 0);
    CHECK_STR(e.message, "");
    CHECK_STR(g.n == 1 ? g.line[0] : "",
              "tau|tau|unknown|np=1|rt=20|in:threads=1|m:|k:.TAU application=1x1{"
              "\"mean\": 1, \"min\": 1, \"inclusive\": 20, \"inclusive_mean\": 20, "
              "\"inclusive_min\": 20};F()=4x2{\"mean\": 4, \"min\": 4, \"inclusive\": "
              "10, \"inclusive_mean\": 10, \"inclusive_min\": 10};F()/[ <n> = <8> ]=6x1{"
              "\"mean\": 6, \"min\": 6, \"inclusive\": 6, \"inclusive_mean\": 6, "
              "\"inclusive_min\": 6};.TAU application/g()=2x100001{\"mean\": 2, "
              "\"min\": 2, \"inclusive\": 2, \"inclusive_mean\": 2, "
              "\"inclusive_min\": 2};.TAU application/[CONTEXT] .TAU "
              "application=nonex3{\"sampled\": 3};.TAU application/[CONTEXT] .TAU "
              "application/[SAMPLE] f [{} {0}]=nonex3{\"sampled\": 3}");
    got_free(&g);
}

/* A timer TAU throttled on one rank ("f [THROTTLED]", found in a 16-rank
 * pbmpi run: hw16471/pbmpi @ec5625d8 data/tau_profile/, `double
 * Random::sExpo()` throttled on rank 0 and not on rank 15) is one kernel f
 * over both ranks, not two kernels that each hold a part of it. */
/* Parses fixture profiles tau/DIR/NAME... (at most 4) as one TAU import. */
static int tau_fixture(const char *dir, const char *const *names, size_t n, struct got *g,
                       struct err *e)
{
    struct fmt_sink sink = {take_runs, NULL, g, NULL, NULL, NULL, 0};
    struct fmt_file f[4];
    char path[128];
    int rc;
    n = n < 4 ? n : 4;
    for (size_t i = 0; i < n; i++) {
        snprintf(path, sizeof path, "tau/%s/%s", dir, names[i]);
        f[i].name = names[i];
        f[i].data = data_file(path, &f[i].len);
    }
    rc = fmt_parse("tau", f, n, NULL, &sink, e);
    for (size_t i = 0; i < n; i++)
        xfree((char *)f[i].data);
    return rc;
}

static void test_tau_throttled_on_one_rank(void)
{
    static const char *const ranks[] = {"profile.0.0.0", "profile.1.0.0"};
    struct got g = {0};
    struct err e = {0};
    CHECK_INT(tau_fixture("throttled", ranks, 2, &g, &e), 0);
    CHECK_STR(
        g.n == 1 ? g.line[0] : e.message,
        "tau|tau|unknown|np=2|rt=10|in:threads=1|m:|k:.TAU application=2x1{\"mean\": "
        "1.5, \"min\": 1, \"inclusive\": 10, \"inclusive_mean\": 10, "
        "\"inclusive_min\": 10};MPI_Recv()=6x10{\"mean\": 6, \"min\": 6, "
        "\"inclusive\": 6, \"inclusive_mean\": 6, \"inclusive_min\": 6};double "
        "Random::sExpo() [{Random.cpp} {389,1}-{391,1}]=3x100001{\"mean\": 2, "
        "\"min\": 1, \"inclusive\": 3, \"inclusive_mean\": 2, \"inclusive_min\": "
        "1};MPI_Bcast()=7x5{\"mean\": 7, \"min\": 7, \"inclusive\": 7, "
        "\"inclusive_mean\": 7, \"inclusive_min\": 7}");
    got_free(&g);
}

/* Single TAU profiles that were refused or misread:
 * - as APEX's converter writes one (apex-summary.py --tau): the header
 *   "N templated_functions_TIME" without MULTI, each line's group as a bare
 *   '"TAU_USER"' without "GROUP=", times with decimals;
 * - the user events of a TAU 2.25 pthread (tau2's
 *   examples/workflow_consolidation/profiles_xmain/profile.0.0.1): "(null)"
 *   events of uninitialised numbers, subnormal ones among them. An
 *   underflowing number is a tiny value, not a broken line, and the event TAU
 *   had no name for is left out. */
static void test_tau_single_profiles(void)
{
    static const char *const cases[][2] = {
        /* fixture, the run it is */
        {"tau/apex/profile.0.0.0",
         "tau|tau|unknown|np=1|rt=0.004|in:threads=1|m:status:VmRSS.count=3,"
         "status:VmRSS.max=120,status:VmRSS.min=100,status:VmRSS.mean=110|k:APEX "
         "MAIN=0.0015x1{\"mean\": 0.0015, \"min\": 0.0015, \"inclusive\": 0.004, "
         "\"inclusive_mean\": 0.004, \"inclusive_min\": 0.004};foo=0.0025x10{\"mean\": "
         "0.0025, \"min\": 0.0025, \"inclusive\": 0.0025, \"inclusive_mean\": 0.0025, "
         "\"inclusive_min\": 0.0025}"},
        {"tau/null_events/profile.0.0.0",
         "tau|tau|unknown|np=1|rt=2|in:threads=1|m:Bytes.count=2,Bytes.max=8,"
         "Bytes.min=5e-324,Bytes.mean=4|k:.TAU application=2x1{\"mean\": 2, \"min\": 2, "
         "\"inclusive\": 2, \"inclusive_mean\": 2, \"inclusive_min\": 2}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct got g = {0};
        struct err e = {0};
        CHECK_INT(import("tau", cases[i][0], NULL, &g, &e), 0);
        CHECK_STR(g.n == 1 ? g.line[0] : e.message, cases[i][1]);
        got_free(&g);
    }
}

int main(void)
{
    RUN(test_table);
    RUN(test_unknown_format);
    RUN(test_detect);
    RUN(test_extrap_text);
    RUN(test_extrap_text_options);
    RUN(test_extrap_text_errors);
    RUN(test_extrap_json);
    RUN(test_extrap_text_blanks);
    RUN(test_extrap_jsonl);
    RUN(test_extrap_jsonl_batches);
    RUN(test_extrap_no_time);
    RUN(test_lnt_no_time);
    RUN(test_caliper);
    RUN(test_caliper_chain);
    RUN(test_tau);
    RUN(test_tau_multi);
    RUN(test_tau_counters_only);
    RUN(test_caliper_no_time);
    RUN(test_calls_unknown);
    RUN(test_caliper_detect_without_time);
    RUN(test_tau_counter_only_function);
    RUN(test_tar);
    RUN(test_osu);
    RUN(test_inputs_from);
    RUN(test_lnt);
    RUN(test_bmf);
    RUN(test_gbench);
    RUN(test_gbench_human_readable_arguments);
    RUN(test_rundoc_rows);
    RUN(test_sink_error);
    RUN(test_otf2);
    RUN(test_malformed_json_formats);
    RUN(test_tar_malformed);
    RUN(test_auto_several);
    RUN(test_extrap_json_reads_lines);
    RUN(test_extrap_text_point_listed_twice);
    RUN(test_tau_samples_params_throttled);
    RUN(test_tau_throttled_on_one_rank);
    RUN(test_tau_single_profiles);
    RUN(test_other_forms_say_what_to_import);
    return harness_report();
}
