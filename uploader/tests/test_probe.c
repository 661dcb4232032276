/* test_probe: the probe library in a multi-threaded program.
 *
 * Four threads run nested kernels of known sleep and busy durations; the
 * written fragment must hold exact call counts, totals within tolerance
 * (never below the time slept), summed counters and value statistics, and
 * the mismatch count. Compiled a second time with -DPROBE_DISABLE, the same
 * source must build without any reference to probe_ (checked with nm by
 * check_disabled.sh), so that build only checks that the program runs.
 */
#include "probe.h"
#include "tests/harness.h"

#include <jansson.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define THREADS 4
#define ITERS 5
#define OUTER_MS 3 /* sleep in "outer" outside "inner" */
#define INNER_MS 2 /* sleep in "inner" */
#define BUSY_MS 2  /* busy loop in "busy" */

static void sleep_ms(int ms)
{
    struct timespec ts = {0, (long)ms * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

static void busy_ms(int ms)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do {
        clock_gettime(CLOCK_MONOTONIC, &b);
    } while ((b.tv_sec - a.tv_sec) * 1000.0 + (b.tv_nsec - a.tv_nsec) / 1e6 < ms);
}

/* Bounds of each kernel's true total, measured by the threads themselves
 * with the monotonic clock: "inside" from just after BEGIN to just before END,
 * "outside" from just before BEGIN to just after END. Whatever the load, the
 * probe's total must lie between the two sums, so the check needs no guess
 * about how long a sleep takes on a busy machine. */
enum { K_OUTER, K_INNER, K_BUSY, K_N };
static double inside[K_N], outside[K_N];
static pthread_mutex_t bounds_lock = PTHREAD_MUTEX_INITIALIZER;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void *worker(void *arg)
{
    int idx = (int)(intptr_t)arg, i;
    /* A name at another address with the same text is the same kernel. */
    char inner_copy[] = "inner";
    const char *inner = (idx % 2) ? inner_copy : "inner";
    double in[K_N] = {0}, out[K_N] = {0};

    for (i = 0; i < ITERS; i++) {
        double o0, o1, i0, i1, n0, n1, m0, m1, b0, b1, c0, c1;
        o0 = now_s();
        PROBE_BEGIN("outer");
        o1 = now_s();
        sleep_ms(OUTER_MS);
        n0 = now_s();
        PROBE_BEGIN(inner);
        n1 = now_s();
        sleep_ms(INNER_MS);
        m0 = now_s();
        PROBE_END(inner);
        m1 = now_s();
        i0 = now_s();
        PROBE_END("outer");
        i1 = now_s();
        in[K_OUTER] += i0 - o1;
        out[K_OUTER] += i1 - o0;
        in[K_INNER] += m0 - n1;
        out[K_INNER] += m1 - n0;
        b0 = now_s();
        PROBE_BEGIN("busy");
        b1 = now_s();
        busy_ms(BUSY_MS);
        c0 = now_s();
        PROBE_END("busy");
        c1 = now_s();
        in[K_BUSY] += c0 - b1;
        out[K_BUSY] += c1 - b0;
        PROBE_COUNT("items", 3);
        PROBE_VALUE("thread", idx);
    }
    pthread_mutex_lock(&bounds_lock);
    for (i = 0; i < K_N; i++) {
        inside[i] += in[i];
        outside[i] += out[i];
    }
    pthread_mutex_unlock(&bounds_lock);
    (void)inner;
    (void)idx;
    (void)in;
    (void)out;
    return NULL;
}

static void run_threads(void)
{
    pthread_t th[THREADS];
    int i;
    for (i = 0; i < THREADS; i++)
        CHECK(pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i) == 0);
    for (i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
}

#ifndef PROBE_DISABLE
static json_t *frag;

static json_t *kernel(const char *name)
{
    size_t i;
    json_t *k;
    json_array_foreach(json_object_get(frag, "kernels"), i, k)
    {
        if (strcmp(json_string_value(json_object_get(k, "name")), name) == 0)
            return k;
    }
    return NULL;
}

static double metric(const char *name)
{
    json_t *v = json_object_get(json_object_get(frag, "metrics"), name);
    return v ? json_number_value(v) : -1;
}

static void check_kernel(const char *name, double calls, int which)
{
    json_t *k = kernel(name);
    double t, lo = inside[which], hi = outside[which];
    CHECK(k != NULL);
    if (k == NULL)
        return;
    CHECK_INT(json_integer_value(json_object_get(k, "calls")), (long long)calls);
    t = json_number_value(json_object_get(k, "time"));
    /* The probe's own clock reads are a few ns on either side of ours. */
    if (!(t >= lo * 0.9999 && t <= hi * 1.0001 + 1e-6))
        fprintf(stderr, "kernel %s: time %.9f, measured between %.9f and %.9f\n", name, t,
                lo, hi);
    CHECK(t >= lo * 0.9999 && t <= hi * 1.0001 + 1e-6);
    /* and the threads really slept or spun as long as asked */
    CHECK(lo >= calls *
                    (which == K_OUTER   ? (OUTER_MS + INNER_MS) / 1e3
                     : which == K_INNER ? INNER_MS / 1e3
                                        : BUSY_MS / 1e3) *
                    0.999);
}

static void test_threads(void)
{
    char path[] = "/tmp/test_probe_XXXXXX";
    int fd = mkstemp(path);
    json_error_t jerr;

    CHECK(fd >= 0);
    close(fd);
    run_threads();
    /* Mismatches in the main thread: END of the outer while the inner is
     * open closes both (the inner is dropped), END with no BEGIN is ignored. */
    PROBE_BEGIN("a");
    PROBE_BEGIN("b");
    PROBE_END("a");
    PROBE_END("never-begun");
    CHECK(probe_write(path) == 0);
    frag = json_load_file(path, 0, &jerr);
    CHECK(frag != NULL);
    if (frag == NULL) {
        fprintf(stderr, "%s\n", jerr.text);
        return;
    }
    check_kernel("outer", THREADS * ITERS, K_OUTER);
    check_kernel("inner", THREADS * ITERS, K_INNER);
    check_kernel("busy", THREADS * ITERS, K_BUSY);
    CHECK(kernel("a") != NULL);
    CHECK(kernel("b") == NULL); /* never closed */
    CHECK(kernel("never-begun") == NULL);
    CHECK_INT(json_array_size(json_object_get(frag, "kernels")), 4);
    CHECK_NEAR(metric("items"), THREADS * ITERS * 3, 0);
    CHECK_NEAR(metric("thread"), (THREADS - 1) / 2.0, 1e-12);
    CHECK_NEAR(metric("thread.min"), 0, 0);
    CHECK_NEAR(metric("thread.max"), THREADS - 1, 0);
    CHECK_NEAR(metric("probe.mismatches"), 2, 0);
    json_decref(frag);
    unlink(path);
}

static void test_env_output_and_reset(void)
{
    char path[] = "/tmp/test_probe_XXXXXX";
    int fd = mkstemp(path);
    json_t *j;

    CHECK(fd >= 0);
    close(fd);
    probe_reset();
    PROBE_BEGIN("solo \"quoted\"\n");
    PROBE_END("solo \"quoted\"\n");
    setenv("PROBE_OUTPUT", path, 1);
    CHECK(probe_write(NULL) == 0);
    j = json_load_file(path, 0, NULL);
    CHECK(j != NULL);
    if (j) {
        json_t *k = json_array_get(json_object_get(j, "kernels"), 0);
        CHECK_INT(json_array_size(json_object_get(j, "kernels")), 1);
        CHECK_STR(json_string_value(json_object_get(k, "name")), "solo \"quoted\"\n");
        CHECK_INT(json_integer_value(json_object_get(k, "calls")), 1);
        CHECK(json_object_get(json_object_get(j, "metrics"), "items") == NULL);
        json_decref(j);
    }
    unsetenv("PROBE_OUTPUT");
    unlink(path);
}
#else
static void test_disabled_runs(void)
{
    run_threads();
    PROBE_BEGIN("a");
    PROBE_END("b");
    CHECK(1);
}
#endif

int main(void)
{
#ifndef PROBE_DISABLE
    RUN(test_threads);
    RUN(test_env_output_and_reset);
#else
    RUN(test_disabled_runs);
#endif
    return harness_report();
}
