/* bench_probe: cost of one PROBE_BEGIN/PROBE_END pair, next to the machine's
 * ceiling (a bare pair of clock_gettime(CLOCK_MONOTONIC) calls, which any
 * interval timer must pay).
 *
 * Each figure is the median over many runs of a loop of pairs; the loop body
 * of the baseline keeps its results alive so the compiler cannot drop the
 * calls. A benchmark, not a unit test: it prints figures and asserts nothing.
 * Usage: bench_probe [pairs-per-run [runs]]
 */
#include "probe.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static volatile uint64_t sink;

/* ns per iteration of a bare clock_gettime pair. */
static double run_clock(long n)
{
    uint64_t t0 = now_ns(), acc = 0;
    long i;
    for (i = 0; i < n; i++) {
        uint64_t a = now_ns();
        uint64_t b = now_ns();
        acc += b - a;
    }
    sink = acc;
    return (double)(now_ns() - t0) / (double)n;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <x86intrin.h>
/* ns per iteration of a bare rdtsc pair: the ceiling when probe uses the TSC. */
static double run_tsc(long n)
{
    uint64_t t0 = now_ns(), acc = 0;
    long i;
    for (i = 0; i < n; i++) {
        uint64_t a = __rdtsc();
        uint64_t b = __rdtsc();
        acc += b - a;
    }
    sink = acc;
    return (double)(now_ns() - t0) / (double)n;
}
#define HAVE_TSC 1
#endif

/* ns per BEGIN/END pair of one kernel. */
static double run_probe(long n)
{
    uint64_t t0 = now_ns();
    long i;
    for (i = 0; i < n; i++) {
        PROBE_BEGIN("bench.kernel");
        PROBE_END("bench.kernel");
    }
    return (double)(now_ns() - t0) / (double)n;
}

static const char *const names[16] = {"k0",  "k1",  "k2",  "k3", "k4",  "k5",
                                      "k6",  "k7",  "k8",  "k9", "k10", "k11",
                                      "k12", "k13", "k14", "k15"};

/* ns per pair with 16 kernels, two levels deep (outer kernel around inner). */
static double run_probe_nested(long n)
{
    uint64_t t0 = now_ns();
    long i;
    for (i = 0; i < n; i += 2) {
        const char *outer = names[i & 15], *inner = names[(i + 7) & 15];
        PROBE_BEGIN(outer);
        PROBE_BEGIN(inner);
        PROBE_END(inner);
        PROBE_END(outer);
    }
    return (double)(now_ns() - t0) / (double)n;
}

static double median(double (*fn)(long), long n, int runs)
{
    double *v = malloc((size_t)runs * sizeof *v), m;
    int r;
    if (v == NULL)
        return 0;
    fn(n / 10); /* warm up: first-touch of tables, page faults */
    for (r = 0; r < runs; r++)
        v[r] = fn(n);
    qsort(v, (size_t)runs, sizeof *v, cmp_double);
    m = v[runs / 2];
    free(v);
    return m;
}

static long arg_long(const char *s, long dflt)
{
    char *end;
    long v;
    if (s == NULL)
        return dflt;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || *end || v <= 0) {
        fprintf(stderr, "bench_probe: not a positive number: %s\n", s);
        exit(64);
    }
    return v;
}

int main(int argc, char **argv)
{
    long n = arg_long(argc > 1 ? argv[1] : NULL, 1000000);
    int runs = (int)arg_long(argc > 2 ? argv[2] : NULL, 21);
    double clk = median(run_clock, n, runs);
    double one = median(run_probe, n, runs);
    double nested = median(run_probe_nested, n, runs);

    printf(
        "probe BEGIN/END pair, one kernel:        %6.1f ns  (median of %d runs x %ld)\n",
        one, runs, n);
    printf("probe BEGIN/END pair, 16 kernels nested: %6.1f ns\n", nested);
    printf("ceiling: bare clock_gettime pair:        %6.1f ns\n", clk);
#ifdef HAVE_TSC
    {
        double tsc = median(run_tsc, n, runs);
        printf(
            "ceiling: bare rdtsc pair:                %6.1f ns (probe's timer on x86-64 "
            "with an invariant TSC unless PROBE_TIMER=clock)\n",
            tsc);
    }
#endif
    probe_reset();
    return 0;
}
