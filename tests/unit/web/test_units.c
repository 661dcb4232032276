/* Unit tests for common/units: values in readable units, the same on every
 * page and chart (SPEC §16): seconds from ns to s, binary byte prefixes,
 * rates, plain numbers without float noise or needless exponents, "—" for
 * an absent value, and the units of metrics by their names. */
#include "tests/harness.h"
#include "common/units.h"

#include <math.h>
#include <string.h>

#define MU "\xc2\xb5"

static void fmt_is(double v, const char *unit, const char *want)
{
    char s[UNITS_MAX];
    units_fmt(s, sizeof s, v, unit);
    if (strcmp(s, want) != 0)
        fprintf(stderr, "units_fmt(%.17g, %s) = \"%s\", want \"%s\"\n", v,
                unit ? unit : "NULL", s, want);
    CHECK_STR(s, want);
}

static void test_seconds(void)
{
    fmt_is(2.1499e-07, "s", "215 ns"); /* Google Benchmark's runtime, issue 31 */
    fmt_is(3e-10, "s", "0.3 ns");
    fmt_is(1e-6, "s", "1 " MU "s");
    fmt_is(2.5e-5, "s", "25 " MU "s");
    fmt_is(0.0123456, "s", "12.35 ms");
    fmt_is(1, "s", "1 s");
    fmt_is(406.5, "s", "406.5 s");
    fmt_is(1977.9, "s", "1978 s");
    fmt_is(0, "s", "0 s");
    fmt_is(-0.002, "s", "-2 ms");
    fmt_is(NAN, "s", "\xe2\x80\x94"); /* an absent runtime */
    fmt_is(INFINITY, "s", "\xe2\x80\x94");
}

static void test_bytes_and_rates(void)
{
    fmt_is(1, "B", "1 B");
    fmt_is(1023, "B", "1023 B");
    fmt_is(1024, "B", "1 KiB");
    fmt_is(1536, "B", "1.5 KiB");
    fmt_is(4194304, "B", "4 MiB");
    fmt_is(3.5 * 1073741824.0, "B", "3.5 GiB");
    fmt_is(2048, "B/s", "2 KiB/s");
    fmt_is(12000.5, "MB/s", "12 GB/s"); /* OSU's bandwidth, decimal as measured */
    fmt_is(0.5, "MB/s", "500 kB/s");
    fmt_is(250, "MB/s", "250 MB/s");
}

static void test_plain(void)
{
    char s[UNITS_MAX];
    fmt_is(0.1 + 0.2, NULL, "0.3"); /* no float noise */
    fmt_is(12, "", "12");
    fmt_is(123456789, NULL, "123456789");
    fmt_is(7, "ops", "7 ops");
    CHECK_STR(units_num(s, sizeof s, 2.1499e-07), "2.15e-07");
    CHECK_STR(units_num(s, sizeof s, 1e16), "1e+16");
    CHECK_STR(units_num(s, sizeof s, 0.000125), "0.000125");
    CHECK_STR(units_num(s, sizeof s, -0.0), "0");
    /* rounding at the edges of a decade */
    CHECK_STR(units_num(s, sizeof s, 9.99996), "10");
    CHECK_STR(units_num(s, sizeof s, 999.94), "999.9");
    CHECK_STR(units_num(s, sizeof s, 999.96), "1000");
    CHECK_STR(units_num(s, sizeof s, 0.00099996), "0.001");
    CHECK_STR(units_num(s, sizeof s, 123.456), "123.5");
    CHECK_STR(units_num(s, sizeof s, -2.5), "-2.5");
    CHECK_STR(units_num(s, sizeof s, 0.0001), "0.0001");
    CHECK_STR(units_num(s, sizeof s, 1234567.8), "1234568");
}

static void test_pick(void)
{
    double div = 0;
    CHECK_STR(units_pick("s", 3e-4, &div), MU "s");
    CHECK(div == 1e-6);
    CHECK_STR(units_pick("B", 5e6, &div), "MiB");
    CHECK(div == 1048576.0);
    CHECK_STR(units_pick("furlongs", 5e6, &div), "furlongs");
    CHECK(div == 1);
    CHECK_STR(units_pick(NULL, 5, &div), "");
}

static void test_metric_units(void)
{
    CHECK_STR(units_of_metric("time"), "s");
    CHECK_STR(units_of_metric("inclusive"), "s");
    CHECK_STR(units_of_metric("real_time"), "s");
    CHECK_STR(units_of_metric("compile_time"), "s");
    CHECK_STR(units_of_metric("bytes_per_second"), "B/s");
    CHECK_STR(units_of_metric("Total Bytes"), "B");
    CHECK_STR(units_of_metric("visits"), "");
    CHECK_STR(units_of_metric("PAPI_FP_OPS"), "");
    /* statistics of times (CUBE, TAU, Google Benchmark), not of counters */
    CHECK_STR(units_of_metric("inclusive_mean"), "s");
    CHECK_STR(units_of_metric("exclusive_max"), "s");
    CHECK_STR(units_of_metric("cpu_time_median"), "s");
    CHECK_STR(units_of_metric("real_time_cv"), "");
    CHECK_STR(units_of_metric("PAPI_TOT_CYC_inclusive_mean"), "");
    /* TAU's MPI user events: sizes in bytes, their count a count */
    CHECK_STR(units_of_metric("Message size for broadcast.max"), "B");
    CHECK_STR(units_of_metric("Message size for broadcast.count"), "");
    /* Bencher's measures as import_bmf stores them (latency in seconds),
     * with their bounds and named values; rates per second */
    CHECK_STR(units_of_metric("latency"), "s");
    CHECK_STR(units_of_metric("latency_upper"), "s");
    CHECK_STR(units_of_metric("latency_p99"), "s");
    CHECK_STR(units_of_metric("build-time"), "s");
    CHECK_STR(units_of_metric("file-size_lower"), "B");
    CHECK_STR(units_of_metric("throughput"), "/s");
    CHECK_STR(units_of_metric("items_per_second"), "/s");
    CHECK_STR(units_of_metric("items_per_second_mean"), "/s");
    CHECK_STR(units_of_metric("bytes_per_second_stddev"), "B/s");
    CHECK_STR(units_of_metric("bytes_per_second_cv"), "");
    CHECK_STR(units_of_metric("latency_cv"), "");
    CHECK_STR(units_of_metric("latencyish"), "");
}

static void test_rates(void)
{
    char out[UNITS_MAX];
    CHECK_STR(units_fmt(out, sizeof out, 41506113.51794211, "/s"), "41.51 M/s");
    CHECK_STR(units_fmt(out, sizeof out, 100, "/s"), "100 /s");
    CHECK_STR(units_fmt(out, sizeof out, 1814670038.689065, "/s"), "1.815 G/s");
    CHECK_STR(units_fmt(out, sizeof out, 3e-9, units_of_metric("latency")), "3 ns");
}

int main(void)
{
    RUN(test_seconds);
    RUN(test_bytes_and_rates);
    RUN(test_plain);
    RUN(test_pick);
    RUN(test_metric_units);
    RUN(test_rates);
    return harness_report();
}
