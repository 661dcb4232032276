/* Classes of real files found by importing other producers' and versions'
 * outputs (impsweep): each case is a small file written here in the shape
 * the tool writes, with the exact record it must give. gbench: a file of
 * Google Benchmark before 1.5 (aggregates as rows named "_mean", "_BigO"),
 * NaN and Infinity numbers, fixture and captured benchmark names.
 * caliper-json: hatchet-region-profile's "Node order", adiak's
 * executablepath, Caliper 1.x's "annotation" records. bmf: the v1 draft's
 * grid points (entries of one parameter set are one run) and named values.
 * chrome-trace: PerfFlowAspect's adiak metadata (otherData), newer clang's
 * async "Source" spans, gzip-compressed files. */
#include "common/buf.h"
#include "common/err.h"
#include "common/xalloc.h"
#include "formats/formats.h"
#include "tests/harness.h"
#include "tests/unit/formats/run_line.h"

#include <stdio.h>
#include <string.h>
#include <zlib.h>

static int parse_len(const char *fmt, const char *name, const char *text, size_t len,
                     struct run_lines *g, struct err *e)
{
    struct fmt_sink sink = {run_lines_take, NULL, g, NULL, NULL, NULL, 0};
    struct fmt_file f = {name, text, len};
    run_lines_free(g);
    g->flags =
        RUN_LINE_KMETRICS; /* runs with kernel metrics; no counts, commit or tags */
    err_clear(e);
    return fmt_parse(fmt, &f, 1, NULL, &sink, e);
}

static int parse(const char *fmt, const char *name, const char *text, struct run_lines *g,
                 struct err *e)
{
    return parse_len(fmt, name, text, strlen(text), g, e);
}

/* Before 1.5 a row had no run_type: "BM_Sort/8_mean" was the mean of the
 * rows named "BM_Sort/8", "BM_Sort_BigO" and "BM_Sort_RMS" the complexity
 * fit (no real_time). Aggregates are not repetitions. */
static void test_gbench_legacy_aggregates(void)
{
    struct run_lines g = {0};
    struct err e = {0};
    const char *text =
        "{\n  \"context\": {\n    \"date\": \"2017-05-01 10:00:00\",\n"
        "    \"num_cpus\": 4,\n    \"library_build_type\": \"release\"\n  },\n"
        "  \"benchmarks\": [\n"
        "    {\"name\": \"BM_Sort/8\", \"iterations\": 100, \"real_time\": 10, "
        "\"cpu_time\": 9, \"time_unit\": \"ns\"},\n"
        "    {\"name\": \"BM_Sort/8\", \"iterations\": 100, \"real_time\": 12, "
        "\"cpu_time\": 11, \"time_unit\": \"ns\"},\n"
        "    {\"name\": \"BM_Sort/8_mean\", \"iterations\": 100, \"real_time\": 11, "
        "\"cpu_time\": 10, \"time_unit\": \"ns\"},\n"
        "    {\"name\": \"BM_Sort/8_stddev\", \"iterations\": 0, \"real_time\": 1, "
        "\"cpu_time\": 2, \"time_unit\": \"ns\"},\n"
        "    {\"name\": \"BM_Sort_BigO\", \"cpu_coefficient\": 1.25, "
        "\"real_coefficient\": 1.5, \"big_o\": \"N\", \"time_unit\": \"ns\"},\n"
        "    {\"name\": \"BM_Sort_RMS\", \"rms\": 0.02},\n"
        "    {\"name\": \"BM_Copy_mean\", \"iterations\": 5, \"real_time\": 3, "
        "\"cpu_time\": 3, \"time_unit\": \"us\"}\n"
        "  ]\n}\n";
    CHECK_INT(parse("gbench", "old.json", text, &g, &e), 0);
    CHECK_INT(g.n, 3);
    /* times in ns times 1e-9, as the importer converts them */
    CHECK_STR(g.line[0],
              "old|BM_Sort|unknown|np=1|rt=1e-08|in:arg1=8|m:iterations=100,cpu_time="
              "9.000000000000001e-09,real_time_mean=1.1000000000000001e-08,cpu_time_"
              "mean=1e-08,real_time_stddev=1e-09,cpu_time_stddev=2e-09,big_o_cpu_"
              "coefficient=1.25,big_o_real_coefficient=1.5,rms=0.02|k:");
    CHECK_STR(g.line[1],
              "old|BM_Sort|unknown|np=1|rt=1.2000000000000002e-08|in:arg1=8|m:"
              "iterations=100,cpu_time=1.1000000000000001e-08,real_time_mean=1."
              "1000000000000001e-08,cpu_time_mean=1e-08,real_time_stddev=1e-09,cpu_time_"
              "stddev=2e-09,big_o_cpu_coefficient=1.25,big_o_real_coefficient=1.5,rms="
              "0.02|k:");
    /* a name ending in _mean without the rows it would summarise is a
     * benchmark of that name */
    CHECK_STR(g.line[2], "old|BM_Copy_mean|unknown|np=1|rt=3e-06|in:|m:iterations=5,cpu_"
                         "time=3e-06|k:");
    run_lines_free(&g);
}

/* Google Benchmark writes NaN and Infinity for a number it could not compute;
 * such a number is not stored, the rest of the row is. The same words inside
 * a string stay as they are. */
static void test_gbench_nonfinite(void)
{
    struct run_lines g = {0};
    struct err e = {0};
    const char *text =
        "{\n  \"context\": {\n    \"host_name\": \"NaN-host\",\n"
        "    \"library_build_type\": \"release\"\n  },\n"
        "  \"benchmarks\": [\n    {\n      \"name\": \"BM_Rate\",\n"
        "      \"run_name\": \"BM_Rate\",\n      \"run_type\": \"iteration\",\n"
        "      \"repetitions\": 1,\n      \"repetition_index\": 0,\n"
        "      \"threads\": 1,\n      \"iterations\": 1000,\n"
        "      \"real_time\": 2.5000000000000000e+00,\n"
        "      \"cpu_time\": 0.0000000000000000e+00,\n      \"time_unit\": \"ns\",\n"
        "      \"items_per_second\": Infinity,\n      \"ratio\": NaN,\n"
        "      \"delta\": -Infinity,\n      \"hits\": 4.0000000000000000e+00,\n"
        "      \"label\": \"NaN \\\"Infinity\\\"\"\n    }\n  ]\n}\n";
    CHECK_INT(parse("gbench", "rate.json", text, &g, &e), 0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0],
              "rate|BM_Rate|NaN-host|np=1|rt=2.5e-09|in:threads=1|m:iterations="
              "1000,cpu_time=0,hits=4|k:");
    run_lines_free(&g);
    /* auto-detection reads it as gbench too */
    CHECK_INT(parse("auto", "rate.json", text, &g, &e), 0);
    CHECK_INT(g.n, 1);
    run_lines_free(&g);
    /* a NaN run time is no run time: refused with the row */
    CHECK_INT(
        parse("gbench", "x.json",
              "{\"context\": {}, \"benchmarks\": [{\"name\": \"BM_A\", \"run_type\": "
              "\"iteration\", \"real_time\": NaN, \"time_unit\": \"ns\"}]}",
              &g, &e),
        -1);
    CHECK_STR(e.message, "x.json: benchmarks[0] has no real_time");
    CHECK_INT(g.n, 0);
}

/* Google Benchmark 1.8: a benchmark skipped with SkipWithMessage is written
 * with "skipped": true and zero times; it measured nothing, so it is no run
 * (an error, "error_occurred", is still refused). */
static void test_gbench_skipped(void)
{
    struct run_lines g = {0};
    struct err e = {0};
    const char *text =
        "{\"context\": {\"host_name\": \"h\"}, \"benchmarks\": [\n"
        "{\"name\": \"BM_Avx512/64\", \"family_index\": 0, "
        "\"per_family_instance_index\": 0, "
        "\"run_name\": \"BM_Avx512/64\", \"run_type\": \"iteration\", \"repetitions\": "
        "1, "
        "\"repetition_index\": 0, \"threads\": 1, \"skipped\": true, \"skip_message\": "
        "\"no AVX-512 on this CPU\", \"iterations\": 0, \"real_time\": 0.0, "
        "\"cpu_time\": "
        "0.0, \"time_unit\": \"ns\"},\n"
        "{\"name\": \"BM_Sse/64\", \"family_index\": 1, \"per_family_instance_index\": "
        "0, "
        "\"run_name\": \"BM_Sse/64\", \"run_type\": \"iteration\", \"repetitions\": 1, "
        "\"repetition_index\": 0, \"threads\": 1, \"iterations\": 100, \"real_time\": "
        "8.0, "
        "\"cpu_time\": 8.0, \"time_unit\": \"ns\"}\n]}";
    CHECK_INT(parse("gbench", "simd.json", text, &g, &e), 0);
    CHECK_INT(g.n, 1);
    if (g.n == 1)
        CHECK_STR(g.line[0], "simd|BM_Sse|h|np=1|rt=8e-09|in:arg1=64,threads=1|m:"
                             "iterations=100,cpu_time=8e-09|k:");
    run_lines_free(&g);
}

/* SkipWithError: a benchmark that reported an error is written with
 * "error_occurred" (and times of what ran); it is no run, and the others of
 * the file are stored. A file of errors only is refused with the first. */
static void test_gbench_error_rows(void)
{
    struct run_lines g = {0};
    struct err e = {0};
    const char *text =
        "{\"context\": {\"host_name\": \"h\"}, \"benchmarks\": [\n"
        "{\"name\": \"BM_Gpu/8\", \"run_name\": \"BM_Gpu/8\", \"run_type\": "
        "\"iteration\", \"repetitions\": 1, \"repetition_index\": 0, \"threads\": 1, "
        "\"error_occurred\": true, \"error_message\": \"no device\", \"iterations\": 0, "
        "\"real_time\": 0.0, \"cpu_time\": 0.0, \"time_unit\": \"ns\"},\n"
        "{\"name\": \"BM_Cpu/8\", \"run_name\": \"BM_Cpu/8\", \"run_type\": "
        "\"iteration\", \"repetitions\": 1, \"repetition_index\": 0, \"threads\": 1, "
        "\"iterations\": 10, \"real_time\": 5.0, \"cpu_time\": 5.0, \"time_unit\": "
        "\"us\"}\n]}";
    CHECK_INT(parse("gbench", "mixed.json", text, &g, &e), 0);
    CHECK_INT(g.n, 1);
    if (g.n == 1)
        CHECK_STR(g.line[0],
                  "mixed|BM_Cpu|h|np=1|rt=4.9999999999999996e-06|in:arg1=8,"
                  "threads=1|m:iterations=10,cpu_time=4.9999999999999996e-06|k:");
    run_lines_free(&g);
    CHECK_INT(
        parse("gbench", "x.json",
              "{\"context\": {}, \"benchmarks\": [{\"name\": \"BM_A\", \"run_type\": "
              "\"iteration\", \"error_occurred\": true, \"error_message\": \"one\"}, "
              "{\"name\": \"BM_B\", \"run_type\": \"iteration\", \"error_occurred\": "
              "true, \"error_message\": \"two\"}]}",
              &g, &e),
        -1);
    CHECK_STR(e.message, "x.json: benchmarks[0] (BM_A) reported an error: one");
    CHECK_INT(g.n, 0);
}

/* A fixture's benchmarks (BENCHMARK_F: "Fixture/Method/8") and captured
 * ones (BENCHMARK_CAPTURE: "BM_Parse/small/8") are distinct benchmarks: the
 * executable is the name up to its first argument. */
static void test_gbench_fixture_names(void)
{
    struct run_lines g = {0};
    struct err e = {0};
    const char *names[] = {"Store/Get/8",
                           "Store/Put/8/real_time",
                           "BM_Parse/small_doc/threads:2",
                           "BM_Parse/large_doc/min_time:0.500/repeats:3",
                           "BM_Big_BigO/size:64",
                           "BM_Opt/min_time:0.500s"};
    struct buf b;
    buf_init(&b, 1 << 16);
    buf_puts(&b, "{\"context\": {}, \"benchmarks\": [");
    for (int i = 0; i < 6; i++) {
        buf_puts(&b, i ? ", " : "");
        buf_printf(&b,
                   "{\"name\": \"%s\", \"run_name\": \"%s\", \"run_type\": "
                   "\"iteration\", \"iterations\": 10, \"real_time\": %d, "
                   "\"time_unit\": \"us\"}",
                   names[i], names[i], i + 1);
    }
    /* the complexity fit of the fixture's Get family names the family */
    buf_puts(&b,
             ", {\"name\": \"Store/Get_BigO\", \"run_name\": \"Store/Get\", "
             "\"run_type\": \"aggregate\", \"aggregate_name\": \"BigO\", "
             "\"cpu_coefficient\": 0.5, \"real_coefficient\": 0.25, \"big_o\": \"N\", "
             "\"time_unit\": \"us\"}]}");
    CHECK_INT(parse("gbench", "fix.json", buf_str(&b), &g, &e), 0);
    CHECK_INT(g.n, 6);
    if (g.n == 6) {
        CHECK_STR(g.line[0],
                  "fix|Store/Get|unknown|np=1|rt=1e-06|in:arg1=8|m:iterations="
                  "10,big_o_cpu_coefficient=0.5,big_o_real_coefficient=0.25|k:");
        CHECK_STR(g.line[1], "fix|Store/Put|unknown|np=1|rt=2e-06|in:arg1=8|m:iterations="
                             "10|k:");
        CHECK_STR(g.line[2], "fix|BM_Parse/small_doc|unknown|np=1|rt=3e-06|in:threads=2|"
                             "m:iterations=10|k:");
        CHECK_STR(g.line[3], "fix|BM_Parse/large_doc|unknown|np=1|rt=4e-06|in:|m:"
                             "iterations=10|k:");
        CHECK_STR(g.line[4],
                  "fix|BM_Big_BigO|unknown|np=1|rt=4.9999999999999996e-06|in:size=64|m:"
                  "iterations=10|k:");
        /* a run option with a unit is not part of the name */
        CHECK_STR(g.line[5], "fix|BM_Opt|unknown|np=1|rt=6e-06|in:|m:iterations=10|k:");
    }
    buf_free(&b);
    run_lines_free(&g);
}

/* Caliper 2.10's hatchet-region-profile (hatchet's caliper-ordered-json):
 * a "Node order" column (the order regions were entered: not a measurement)
 * and adiak's executablepath without executable. */
static void test_caliper_node_order_executablepath(void)
{
    struct run_lines g = {0};
    struct err e = {0};
    const char *text =
        "{\n  \"data\": [\n    [ 0, 0, 0.5, null ],\n    [ 1, 0, 0.25, 0 ],\n"
        "    [ 2, 0, 0.125, 1 ],\n    [ 1, 1, 0.375, 0 ],\n    [ 2, 1, 0.0625, 1 ]\n"
        "  ],\n  \"columns\": [ \"Node order\", \"mpi.rank\", \"time\", \"path\" ],\n"
        "  \"column_metadata\": [ { \"is_value\": true, \"attribute.alias\": \"Node "
        "order\" }, { \"is_value\": true }, { \"is_value\": true, \"attribute.alias\": "
        "\"time\", \"attribute.unit\": \"sec\" }, { \"is_value\": false }  ],\n"
        "  \"nodes\": [ { \"label\": \"main\", \"column\": \"path\" }, { \"label\": "
        "\"solve\", \"column\": \"path\", \"parent\": 0 } ],\n"
        "  \"mpi.world.size\": \"2\",\n  \"cali.caliper.version\": \"2.10.0-dev\",\n"
        "  \"cluster\": \"quartz\",\n"
        "  \"executablepath\": \"/usr/WS2/apps/LULESH/build/lulesh2.0\",\n"
        "  \"cali.channel\": \"hatchet-region-profile\"\n}\n";
    CHECK_INT(parse("caliper-json", "profile.json", text, &g, &e), 0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0],
              "lulesh2.0|lulesh2.0|quartz|np=2|rt=0.4375|in:|m:|k:main=0.375{"
              "\"inclusive\": 0.4375, \"mean\": 0.3125, \"min\": 0.25};main/solve=0.125{"
              "\"inclusive\": 0.125, \"mean\": 0.09375, \"min\": 0.0625}");
    run_lines_free(&g);
}

/* cali-query's json of Caliper 1.x: regions are "annotation" values (nested
 * ones joined with "/"); a sampled profile's records name their call path
 * by source.function#callpath.address. */
static void test_caliper_record_paths(void)
{
    struct run_lines g = {0};
    struct err e = {0};
    const char *v1 = "[{\"annotation\":\"main\",\"count\":3},\n"
                     "{\"annotation\":\"main/init\",\"count\":1},\n"
                     "{\"count\":7},\n"
                     "{\"annotation\":\"main/loop\",\"count\":2}\n]";
    const char *sampled =
        "[{\"source.function#callpath.address\":\"main/solve\",\"count\":5,"
        "\"mpi.rank\":0},\n"
        "{\"source.function#callpath.address\":\"main\",\"count\":2,\"mpi.rank\":0}]";
    CHECK_INT(parse("caliper-json", "v1.json", v1, &g, &e), 0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0], "v1|v1|unknown|np=1|rt=none|in:|m:|k:main=none{\"count\": "
                         "3};main/init=none{\"count\": 1};main/loop=none{\"count\": 2}");
    run_lines_free(&g);
    CHECK_INT(parse("auto", "v1.json", v1, &g, &e), 0);
    CHECK_INT(g.n, 1);
    run_lines_free(&g);
    CHECK_INT(parse("caliper-json", "sampled.json", sampled, &g, &e), 0);
    CHECK_INT(g.n, 1);
    CHECK_STR(g.line[0], "sampled|sampled|unknown|np=1|rt=none|in:|m:|k:main/solve="
                         "none{\"count\": 5};main=none{\"count\": 2}");
    run_lines_free(&g);
}

/* The BMF v1 draft as Bencher's adapter reads it: entries whose parameters
 * differ only in key order or number spelling, and an absent "parameters"
 * and {}, are one grid point whose measures are the union (a value named
 * twice: the later entry's); a measure may carry named values only. */
static void test_bmf_v1_grid_points(void)
{
    struct run_lines g = {0};
    struct err e = {0};
    const char *text =
        "{\n  \"bench::scan\": [\n"
        "    {\"parameters\": {\"rows\": 16, \"mode\": \"seq\"},\n"
        "     \"measures\": {\"latency\": {\"value\": 10.0, \"p50\": 9.0}}},\n"
        "    {\"parameters\": {\"mode\": \"seq\", \"rows\": 1.6e1},\n"
        "     \"measures\": {\"latency\": {\"value\": 12.0, \"p99\": 30.0},\n"
        "                  \"throughput\": {\"value\": 5.0}}},\n"
        "    {\"parameters\": {\"rows\": 32, \"mode\": \"seq\"},\n"
        "     \"measures\": {\"latency\": {\"p99\": 40.0}}}\n  ],\n"
        "  \"bench::idle\": [\n"
        "    {\"measures\": {\"latency\": {\"value\": 1.0}}},\n"
        "    {\"parameters\": {}, \"measures\": {\"instructions\": {\"value\": 7}}}\n"
        "  ]\n}\n";
    CHECK_INT(parse("bmf", "grid.json", text, &g, &e), 0);
    CHECK_INT(g.n, 3);
    if (g.n == 3) {
        CHECK_STR(g.line[0], "grid|bench::scan{mode=seq}|unknown|np=1|rt=1.2e-08|in:rows="
                             "16|m:latency=1.2e-08,latency_p50=9e-09,latency_p99=3e-08,"
                             "throughput=5|k:");
        /* named values only: no value, so no run time */
        CHECK_STR(g.line[1], "grid|bench::scan{mode=seq}|unknown|np=1|rt=none|in:rows=32|"
                             "m:latency_p99=4e-08|k:");
        CHECK_STR(g.line[2], "grid|bench::idle|unknown|np=1|rt=1e-09|in:|m:latency=1e-09,"
                             "instructions=7|k:");
    }
    run_lines_free(&g);
    /* recognised by its shape, a measure of named values only included */
    CHECK_INT(parse("auto", "named.json",
                    "{\"t::p\": [{\"measures\": {\"latency\": {\"p99\": 97.0}}}]}", &g,
                    &e),
              0);
    CHECK_INT(g.n, 1);
    if (g.n == 1)
        CHECK_STR(g.line[0],
                  "named|t::p|unknown|np=1|rt=none|in:|m:latency_p99=9.7e-08|k:");
    run_lines_free(&g);
    /* a v1 measure without any number, and a v0 measure without value, are
     * refused with the measure */
    CHECK_INT(parse("bmf", "x.json",
                    "{\"t::p\": [{\"measures\": {\"latency\": {\"note\": \"slow\"}}}]}",
                    &g, &e),
              -1);
    CHECK_STR(e.message, "x.json: t::p.latency holds no number");
    CHECK_INT(
        parse("bmf", "x.json", "{\"t::p\": {\"latency\": {\"p99\": 97.0}}}", &g, &e), -1);
    CHECK_STR(e.message, "x.json: t::p.latency.value must be a number");
    CHECK_INT(g.n, 0);
    /* an empty v1 list (found by fuzz_import_bmf: it leaked) */
    CHECK_INT(parse("bmf", "x.json", "{\"t::p\": []}", &g, &e), -1);
    CHECK_STR(e.message, "x.json: benchmark t::p lists no entries");
}

/* A UTF-8 byte-order mark before the JSON (PowerShell's Out-File -Encoding
 * utf8, Notepad): recognised and read like the same file without it. */
static void test_byte_order_mark(void)
{
    static const struct {
        const char *fmt, *text, *line;
    } cases[] = {
        {"gbench",
         "\xef\xbb\xbf{\"context\": {\"host_name\": \"win\"}, \"benchmarks\": "
         "[{\"name\": "
         "\"BM_A\", \"run_name\": \"BM_A\", \"run_type\": \"iteration\", \"iterations\": "
         "3, "
         "\"real_time\": 2, \"time_unit\": \"us\"}]}",
         "bom|BM_A|win|np=1|rt=2e-06|in:|m:iterations=3|k:"},
        {"bmf", "\xef\xbb\xbf{\"b\": {\"latency\": {\"value\": 5.0}}}",
         "bom|b|unknown|np=1|rt=5e-09|in:|m:latency=5e-09|k:"},
        {"caliper-json",
         "\xef\xbb\xbf{\"data\": [[0.5, 0]], \"columns\": [\"time\", \"path\"], "
         "\"column_metadata\": [{\"is_value\": true, \"attribute.unit\": \"sec\"}, "
         "{\"is_value\": false}], \"nodes\": [{\"label\": \"main\", \"column\": "
         "\"path\"}]}",
         "bom|bom|unknown|np=1|rt=0.5|in:|m:|k:main=0.5{\"inclusive\": 0.5}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct run_lines g = {0};
        struct err e = {0};
        CHECK_INT(parse(cases[i].fmt, "bom.json", cases[i].text, &g, &e), 0);
        CHECK_INT(g.n, 1);
        if (g.n == 1)
            CHECK_STR(g.line[0], cases[i].line);
        CHECK_INT(parse("auto", "bom.json", cases[i].text, &g, &e), 0);
        CHECK_INT(g.n, 1);
        run_lines_free(&g);
    }
}

/* PerfFlowAspect's Trace Event files carry adiak's metadata in otherData:
 * the program is the application and the cluster the system (a
 * process_name shared by every process still names the application). */
static void test_chrome_adiak_other_data(void)
{
    struct run_lines g = {0};
    struct err e = {0};
    const char *text =
        "{\n  \"displayTimeUnit\": \"us\",\n  \"otherData\": {\n"
        "    \"walltime\": {\"tv_sec\": 0, \"tv_usec\": 11082},\n    \"jobsize\": 1,\n"
        "    \"cluster\": \"tuolumne\",\n    \"hostname\": \"tuolumne1001\",\n"
        "    \"executablepath\": \"/g/apps/test/smoketest\",\n"
        "    \"executable\": \"smoketest\"\n  },\n  \"traceEvents\": [\n"
        "{\"name\": \"bar\", \"cat\": \"smoketest.cpp\", \"pid\": 9, \"tid\": 9, \"ts\": "
        "1764826266480348.0, \"ph\": \"X\", \"dur\": 1138.0},\n"
        "{\"name\": \"foo\", \"cat\": \"smoketest.cpp\", \"pid\": 9, \"tid\": 9, \"ts\": "
        "1764826266479206.0, \"ph\": \"X\", \"dur\": 2293.0}]}\n";
    CHECK_INT(parse("chrome-trace", "perfflow.tuolumne1001.9.pfw", text, &g, &e), 0);
    CHECK_INT(g.n, 1);
    if (g.n == 1)
        CHECK_STR(g.line[0], "smoketest|smoketest|tuolumne|np=1|rt=0.002293|in:|m:|k:bar="
                             "0.001138{\"count\": 1, \"max\": 0.001138};foo=0.002293{"
                             "\"count\": 1, \"max\": 0.002293}");
    run_lines_free(&g);
}

/* Newer clang's -ftime-trace writes "Source" (a header being
 * parsed) as nestable async b/e pairs of one category and id: durations of
 * their name, nested ones included; an e closing nothing is skipped, and
 * legacy async S/F steps stay skipped. */
static void test_chrome_async_spans(void)
{
    struct run_lines g = {0};
    struct err e = {0};
    const char *text =
        "{\"traceEvents\":[\n"
        "{\"pid\":7,\"tid\":7,\"ph\":\"X\",\"ts\":0,\"dur\":100,\"cat\":\"\",\"name\":"
        "\"ExecuteCompiler\",\"args\":{}},\n"
        "{\"pid\":7,\"tid\":7,\"ph\":\"b\",\"ts\":10,\"cat\":\"Source\",\"id\":0,"
        "\"name\":"
        "\"Source\",\"args\":{\"detail\":\"a.h\"}},\n"
        "{\"pid\":7,\"tid\":7,\"ph\":\"b\",\"ts\":12,\"cat\":\"Source\",\"id\":0,"
        "\"name\":"
        "\"Source\",\"args\":{\"detail\":\"b.h\"}},\n"
        "{\"pid\":7,\"tid\":7,\"ph\":\"e\",\"ts\":15,\"cat\":\"Source\",\"id\":0,"
        "\"name\":"
        "\"Source\"},\n"
        "{\"pid\":7,\"tid\":7,\"ph\":\"b\",\"ts\":40,\"cat\":\"io\",\"id2\":{\"local\":"
        "\"0x1\"},"
        "\"name\":\"read\"},\n"
        "{\"pid\":7,\"tid\":7,\"ph\":\"e\",\"ts\":30,\"cat\":\"Source\",\"id\":0,"
        "\"name\":"
        "\"Source\"},\n"
        "{\"pid\":7,\"tid\":8,\"ph\":\"e\",\"ts\":46,\"cat\":\"io\",\"id2\":{\"local\":"
        "\"0x1\"},"
        "\"name\":\"read\"},\n"
        "{\"pid\":7,\"tid\":7,\"ph\":\"e\",\"ts\":31,\"cat\":\"Source\",\"id\":0,"
        "\"name\":"
        "\"Source\"},\n"
        "{\"pid\":7,\"tid\":7,\"ph\":\"S\",\"ts\":50,\"cat\":\"x\",\"id\":3,\"name\":"
        "\"step\"},\n"
        "{\"pid\":7,\"tid\":7,\"ph\":\"F\",\"ts\":90,\"cat\":\"x\",\"id\":3,\"name\":"
        "\"step\"}\n"
        "],\"beginningOfTime\":1700000000000000}";
    CHECK_INT(parse("chrome-trace", "main.json", text, &g, &e), 0);
    CHECK_INT(g.n, 1);
    if (g.n == 1)
        CHECK_STR(g.line[0],
                  "main|main|unknown|np=1|rt=0.0001|in:|m:|k:ExecuteCompiler=0.0001{"
                  "\"count\": 1, \"max\": 0.0001};Source=2.3e-05{\"count\": 2, \"max\": "
                  "2e-05};read=6e-06{\"count\": 1, \"max\": 6e-06}");
    run_lines_free(&g);
    /* spans of one id that overlap under different names: an e closes the
     * open b of its own name */
    CHECK_INT(parse("chrome-trace", "net.json",
                    "[{\"pid\":1,\"tid\":1,\"ph\":\"X\",\"ts\":0,\"dur\":100,\"name\":"
                    "\"main\"},\n{\"pid\":1,\"tid\":1,\"ph\":\"b\",\"ts\":10,\"cat\":"
                    "\"net\",\"id\":\"0x5\",\"name\":\"request\"},\n{\"pid\":1,\"tid\":1,"
                    "\"ph\":\"b\",\"ts\":20,\"cat\":\"net\",\"id\":\"0x5\",\"name\":"
                    "\"dns\"},\n{\"pid\":1,\"tid\":1,\"ph\":\"e\",\"ts\":30,\"cat\":"
                    "\"net\",\"id\":\"0x5\",\"name\":\"request\"},\n{\"pid\":1,\"tid\":1,"
                    "\"ph\":\"e\",\"ts\":45,\"cat\":\"net\",\"id\":\"0x5\",\"name\":"
                    "\"dns\"}]",
                    &g, &e),
              0);
    CHECK_INT(g.n, 1);
    if (g.n == 1)
        CHECK_STR(g.line[0],
                  "net|net|unknown|np=1|rt=0.0001|in:|m:|k:main=0.0001{"
                  "\"count\": 1, \"max\": 0.0001};request=2e-05{\"count\": 1, "
                  "\"max\": 2e-05};dns=2.5e-05{\"count\": 1, \"max\": 2.5e-05}");
    run_lines_free(&g);
}

/* Google Benchmark on Windows: context.executable is a path with
 * backslashes; the application is the program's name (MinGW's a.exe: the
 * directory it was built in, as for a.out). */
static void test_gbench_windows_executable(void)
{
    static const struct {
        const char *exe, *app;
    } cases[] = {
        {"C:\\\\Users\\\\dev\\\\sorter\\\\build\\\\Release\\\\bench_sort.exe",
         "bench_sort"},
        {"C:\\\\Users\\\\dev\\\\sorter\\\\build\\\\Release\\\\a.exe", "sorter"},
        {"./a.exe", "win"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct run_lines g = {0};
        struct err e = {0};
        char text[512], want[128];
        snprintf(
            text, sizeof text,
            "{\"context\": {\"executable\": \"%s\", \"host_name\": \"DESKTOP-1\"}, "
            "\"benchmarks\": [{\"name\": \"BM_A\", \"run_name\": \"BM_A\", "
            "\"run_type\": \"iteration\", \"real_time\": 1, \"time_unit\": \"ms\"}]}",
            cases[i].exe);
        snprintf(want, sizeof want,
                 "%s|BM_A|DESKTOP-1|np=1|rt=0.001|in:|m:|k:", cases[i].app);
        CHECK_INT(parse("gbench", "win.json", text, &g, &e), 0);
        CHECK_INT(g.n, 1);
        if (g.n == 1)
            CHECK_STR(g.line[0], want);
        run_lines_free(&g);
    }
}

/* Windows PowerShell 5 writes a redirected --benchmark_format=json as UTF-16
 * (little-endian, with a byte-order mark): read as its UTF-8, a character
 * beyond the BMP (a surrogate pair) included; a broken UTF-16 file is
 * refused with what is wrong. */
static void test_gbench_utf16(void)
{
    const char *head = "{\"context\": {\"host_name\": \"PC-";
    const char *tail =
        "\"}, \"benchmarks\": [{\"name\": \"BM_A\", \"run_name\": \"BM_A\", "
        "\"run_type\": \"iteration\", \"real_time\": 4, \"time_unit\": "
        "\"us\"}]}\r\n";
    char text[1024];
    size_t n = 0;
    struct run_lines g = {0};
    struct err e = {0};
    text[n++] = '\xff';
    text[n++] = '\xfe';
    for (const char *c = head; *c; c++)
        text[n++] = *c, text[n++] = '\0';
    /* U+1F600 as the pair D83D DE00, little-endian */
    text[n++] = '\x3d', text[n++] = '\xd8', text[n++] = '\x00', text[n++] = '\xde';
    for (const char *c = tail; *c; c++)
        text[n++] = *c, text[n++] = '\0';
    CHECK_INT(parse_len("gbench", "ps.json", text, n, &g, &e), 0);
    CHECK_INT(g.n, 1);
    if (g.n == 1)
        CHECK_STR(g.line[0], "ps|BM_A|PC-\xf0\x9f\x98\x80|np=1|rt=4e-06|in:|m:|k:");
    CHECK_INT(parse_len("auto", "ps.json", text, n, &g, &e), 0);
    CHECK_INT(g.n, 1);
    /* a lone low surrogate */
    text[n - 4] = '\x00', text[n - 3] = '\xdc';
    CHECK_INT(parse_len("gbench", "ps.json", text, n, &g, &e), -1);
    CHECK_STR(e.message, "ps.json: the file starts as UTF-16 but is not valid UTF-16");
    CHECK_INT(g.n, 0);
    run_lines_free(&g);
}

/* gzip-compressed Trace Event files (PyTorch's and TensorFlow's .json.gz,
 * Bazel's profile): recognised and read as their text, the run the same as
 * the plain file's (its application without ".gz"); a damaged one is
 * refused as such. */
static void test_chrome_gzip(void)
{
    const char *text =
        "{\"traceEvents\": [{\"ph\": \"X\", \"pid\": 1, \"tid\": 1, \"ts\": 10, "
        "\"dur\": 5, \"name\": \"step\"}, {\"ph\": \"X\", \"pid\": 1, \"tid\": "
        "1, \"ts\": 20, \"dur\": 7, \"name\": \"step\"}]}";
    unsigned char gz[512];
    z_stream z;
    struct run_lines g = {0}, plain = {0};
    struct err e = {0};
    size_t n;
    memset(&z, 0, sizeof z);
    CHECK_INT(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY),
              Z_OK);
    z.next_in = (Bytef *)text;
    z.avail_in = (uInt)strlen(text);
    z.next_out = gz;
    z.avail_out = sizeof gz;
    CHECK_INT(deflate(&z, Z_FINISH), Z_STREAM_END);
    n = sizeof gz - z.avail_out;
    deflateEnd(&z);
    CHECK_INT(parse("chrome-trace", "trace.json", text, &plain, &e), 0);
    CHECK_INT(parse_len("chrome-trace", "trace.json.gz", (const char *)gz, n, &g, &e), 0);
    CHECK_INT(g.n, 1);
    CHECK_INT(plain.n, 1);
    if (g.n == 1 && plain.n == 1) {
        CHECK_STR(g.line[0], "trace|trace|unknown|np=1|rt=1.7e-05|in:|m:|k:step=1.2e-05{"
                             "\"count\": 2, \"max\": 7e-06}");
        CHECK_STR(g.line[0], plain.line[0]);
    }
    CHECK_INT(parse_len("auto", "trace.json.gz", (const char *)gz, n, &g, &e), 0);
    CHECK_INT(g.n, 1);
    /* cut short */
    CHECK_INT(
        parse_len("chrome-trace", "trace.json.gz", (const char *)gz, n - 12, &g, &e), -1);
    CHECK_STR(e.message,
              "trace.json.gz: the gzip-compressed file is damaged or truncated");
    CHECK_INT(g.n, 0);
    run_lines_free(&plain);
    run_lines_free(&g);
}

/* A flat json-split profile (cali-query ... group by
 * source.function#cali.sampler.pc, or by any one string attribute): its
 * nodes have no parents and there is no "path" column; the node column
 * names the regions. */
static void test_caliper_flat_split(void)
{
    struct run_lines g = {0};
    struct err e = {0};
    const char *text =
        "{\n  \"data\": [\n    [ 3, 0, 0 ],\n    [ 5, 1, 0 ],\n    [ 2, 0, 0 ],\n"
        "    [ 4, 0, 1 ]\n  ],\n"
        "  \"columns\": [ \"count\", \"source.function#cali.sampler.pc\", \"mpi.rank\" "
        "],\n"
        "  \"column_metadata\": [ { \"is_value\": true }, { \"is_value\": false }, { "
        "\"is_value\": true } ],\n"
        "  \"nodes\": [ { \"label\": \"main\", \"column\": "
        "\"source.function#cali.sampler.pc\" }, { \"label\": \"solve\", \"column\": "
        "\"source.function#cali.sampler.pc\" } ],\n"
        "  \"cali.caliper.version\": \"2.9.0\"\n}\n";
    CHECK_INT(parse("caliper-json", "flat.json", text, &g, &e), 0);
    CHECK_INT(g.n, 1);
    if (g.n == 1)
        CHECK_STR(g.line[0],
                  /* per rank summed, the largest over the ranks (main: 3 + 2 at
                   * rank 0, 4 at rank 1) */
                  "flat|flat|unknown|np=2|rt=none|in:|m:|k:main=none{\"count\": "
                  "5};solve=none{\"count\": 5}");
    run_lines_free(&g);
}

/* hatchet writes json-split itself (its PerfFlowAspect converters) with the
 * rank in a column named "rank": where a row was measured, as mpi.rank, not
 * a metric. */
static void test_caliper_rank_column(void)
{
    struct run_lines g = {0};
    struct err e = {0};
    const char *text =
        "{\n \"data\": [\n  [0.5, 0, 0],\n  [0.25, 0, 1],\n  [0.75, 1, 0],\n"
        "  [0.125, 1, 1]\n ],\n \"columns\": [\"time\", \"rank\", \"path\"],\n"
        " \"column_metadata\": [{\"is_value\": true}, {\"is_value\": true}, "
        "{\"is_value\": false}],\n \"nodes\": [{\"column\": \"path\", \"label\": "
        "\"main\"}, {\"column\": \"path\", \"label\": \"solve\", \"parent\": "
        "0}]\n}";
    CHECK_INT(parse("caliper-json", "ranks.json", text, &g, &e), 0);
    CHECK_INT(g.n, 1);
    if (g.n == 1)
        /* main: exclusive 0.5 at rank 0, 0.75 at rank 1; inclusive 0.75, 0.875 */
        CHECK_STR(g.line[0], "ranks|ranks|unknown|np=2|rt=0.875|in:|m:|k:main=0.75{"
                             "\"inclusive\": 0.875, \"mean\": 0.625, \"min\": 0.5};main/"
                             "solve=0.25{\"inclusive\": 0.25, \"mean\": 0.1875, \"min\": "
                             "0.125}");
    run_lines_free(&g);
}

/* Times aggregated across ranks as avg then sum (the columns hatchet's
 * reader maps to "time" and "time (inc)") are the exclusive and inclusive
 * times. */
static void test_caliper_sum_avg_columns(void)
{
    struct run_lines g = {0};
    struct err e = {0};
    const char *text =
        "{\"data\": [[0.25, 1.0, 0], [0.75, 0.75, 1]], \"columns\": "
        "[\"sum#avg#sum#time.duration\", \"sum#avg#inclusive#sum#time.duration\", "
        "\"path\"], \"column_metadata\": [{\"is_value\": true}, {\"is_value\": true}, "
        "{\"is_value\": false}], \"nodes\": [{\"label\": \"main\", \"column\": "
        "\"path\"}, "
        "{\"label\": \"loop\", \"column\": \"path\", \"parent\": 0}], "
        "\"cali.caliper.version\": \"2.4.0\"}";
    CHECK_INT(parse("caliper-json", "avg.json", text, &g, &e), 0);
    CHECK_INT(g.n, 1);
    if (g.n == 1)
        CHECK_STR(g.line[0],
                  "avg|avg|unknown|np=1|rt=1|in:|m:|k:main=0.25{\"inclusive\": "
                  "1};main/loop=0.75{\"inclusive\": 0.75}");
    run_lines_free(&g);
}

/* Caliper 1.x's timer wrote time.duration and time.inclusive.duration as
 * integer microseconds (sweep 3, Caliper's own OutputFormats example): in a
 * json-split without cali.caliper.version and in cali-query's list json
 * whose time values are all integers. Later versions write doubles in
 * seconds (cali-query's sum#time.inclusive.duration among them), and a
 * versioned list stays in seconds whatever its numbers look like. */
static void test_caliper_v1_microseconds(void)
{
    static const struct {
        const char *file, *text, *want;
    } cases[] = {
        {"split.json",
         "{\"data\": [[1, 3000000, 0], [100, 1000000, 1]], \"columns\": [\"count\", "
         "\"time.inclusive.duration\", \"path\"], \"column_metadata\": [{\"is_value\": "
         "true}, {\"is_value\": true}, {\"is_value\": false}], \"nodes\": [{\"label\": "
         "\"main\"}, {\"label\": \"solve\", \"parent\": 0}]}",
         "split|split|unknown|np=1|rt=3|in:|m:|k:main=2{\"inclusive\": 3, \"count\": "
         "1};main/solve=1{\"inclusive\": 1, \"count\": 100}"},
        {"list.json",
         "[{\"function\":\"main\",\"count\":1,\"time.inclusive.duration\":3000000},\n"
         "{\"function\":\"main/"
         "solve\",\"count\":100,\"time.inclusive.duration\":1000000}]",
         "list|list|unknown|np=1|rt=3|in:|m:|k:main=2{\"inclusive\": 3, \"count\": "
         "1};main/solve=1{\"inclusive\": 1, \"count\": 100}"},
        {"secs.json",
         "[{\"path\":\"A\",\"count\":19,\"sum#time.inclusive.duration\":0.25},\n"
         "{\"path\":\"A/B\",\"count\":4,\"sum#time.inclusive.duration\":0.125}]",
         "secs|secs|unknown|np=1|rt=0.25|in:|m:|k:A=0.125{\"inclusive\": 0.25, "
         "\"count\": "
         "19};A/B=0.125{\"inclusive\": 0.125, \"count\": 4}"},
        {"versioned.json",
         "{\"globals\": {\"cali.caliper.version\": \"2.11.0\"}, \"records\": "
         "[{\"path\":\"A\",\"sum#time.duration\":2}]}",
         "versioned|versioned|unknown|np=1|rt=2|in:|m:|k:A=2{\"inclusive\": 2}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct run_lines g = {0};
        struct err e = {0};
        CHECK_INT(parse("caliper-json", cases[i].file, cases[i].text, &g, &e), 0);
        CHECK_INT(g.n, 1);
        if (g.n == 1)
            CHECK_STR(g.line[0], cases[i].want);
        run_lines_free(&g);
    }
}

int main(void)
{
    RUN(test_gbench_legacy_aggregates);
    RUN(test_gbench_nonfinite);
    RUN(test_gbench_fixture_names);
    RUN(test_gbench_skipped);
    RUN(test_gbench_error_rows);
    RUN(test_gbench_windows_executable);
    RUN(test_gbench_utf16);
    RUN(test_caliper_node_order_executablepath);
    RUN(test_caliper_record_paths);
    RUN(test_caliper_flat_split);
    RUN(test_caliper_rank_column);
    RUN(test_caliper_sum_avg_columns);
    RUN(test_caliper_v1_microseconds);
    RUN(test_bmf_v1_grid_points);
    RUN(test_byte_order_mark);
    RUN(test_chrome_adiak_other_data);
    RUN(test_chrome_async_spans);
    RUN(test_chrome_gzip);
    return harness_report();
}
