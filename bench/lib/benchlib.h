/* benchlib: what the whole-server benchmarks over HTTP share (bench_pages,
 * bench_scale): a monotonic clock, percentiles, the one synthetic data set
 * they both measure on, and a libcurl sink that counts the body's bytes.
 */
#ifndef PROPHECY_BENCH_LIB_H
#define PROPHECY_BENCH_LIB_H

#include <stddef.h>

/* Seconds on the monotonic clock. */
double bench_now(void);
/* The q-quantile (0..1) of v[0..n), nearest rank; sorts v. */
double bench_pct(double *v, int n, double q);
/* Stores n runs in the database at path through the store's batched path
 * (1000 runs per transaction): one application "bench app", executable
 * "bench.x", systems "system-a"/"system-b", processors 1..64 (7 values),
 * input N (10 values) and L, 5 kernels per run: 140 configurations.
 * Exits with a message prefixed by prog on failure. */
void bench_fill(const char *path, long n, const char *prog);

/* A libcurl write callback (CURLOPT_WRITEFUNCTION) that only counts bytes
 * into a struct bench_body (CURLOPT_WRITEDATA). */
struct bench_body {
    size_t len;
};
size_t bench_sink(char *p, size_t s, size_t n, void *u);

#endif
