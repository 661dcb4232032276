/* benchlib: what the whole-server benchmarks over HTTP share (bench_pages,
 * bench_scale, bench_scale_pg): a monotonic clock, percentiles, the one
 * synthetic data set they measure on, a libcurl sink that counts the body's
 * bytes, and the table line of one read next to its ceiling.
 */
#ifndef PROPHECY_BENCH_LIB_H
#define PROPHECY_BENCH_LIB_H

#include <curl/curl.h>
#include <stddef.h>
#include <unistd.h>

/* Seconds on the monotonic clock. */
double bench_now(void);
/* The first port a benchmark's servers listen on (one more for each), by
 * process id: below Linux's ephemeral range (32768 up), where a client
 * socket (libcurl's, libpq's, PostgreSQL's) may hold it; a server there once
 * could not listen. */
static inline int bench_first_port(void)
{
    return 20000 + (int)(getpid() % 10000);
}
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

/* One line of a read table: the median and p90 of GETs (or POSTs of post) of
 * base+path on the keep-alive handle c (at least 5 samples over 2 s, at most
 * reps_max; a request of seconds is not repeated past 10 s), next to
 * ceiling(sql)'s median (no ceiling when sql is NULL) and the body's bytes.
 * Exits with a message prefixed by prog when a request fails. */
void bench_measure(CURL *c, const char *base, const char *path, const char *post,
                   const char *sql, const char *label, double (*ceiling)(const char *sql),
                   int reps_max, const char *prog);
/* Single-run POSTs of a bench_fill-like run into base for about s seconds with
 * the write token: runs/s. */
double bench_ingest_rate(CURL *c, const char *base, const char *token, double s,
                         const char *prog);

#endif
