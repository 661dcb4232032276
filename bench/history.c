/* bench_history: GET /api/v1/series and /api/v1/compare as core computes
 * them (history_series, history_compare: the query plus the whole JSON
 * answer), over a database of 100,000 runs (issue 14: a series within 20 ms).
 *
 * Two layouts of the same 100,000 runs: 100 configurations of 1,000 runs
 * (a group's database), and one configuration holding all of them (the worst
 * case: every run is a point). Medians of 21 calls. Usage: bench_history
 * [--runs N] [--keep]  (--keep leaves the database and prints its path)
 */
#include "common/arena.h"
#include "core/history.h"
#include "core/ingest.h"
#include "db/db.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Stores n runs of application app over nconf processor counts, in
 * batches of 1,000, with commits c0..c9 and a day each. */
static void fill(db *d, const char *app, long n, int nconf)
{
    struct err e = {0};
    long i = 0;
    while (i < n) {
        arena *a = arena_new();
        long m = n - i < 1000 ? n - i : 1000, k;
        struct run_record *r = arena_alloc(a, (size_t)m * sizeof *r);
        struct ingest in;
        for (k = 0; k < m; k++, i++) {
            char *at = arena_alloc(a, 32), *commit = arena_alloc(a, 16);
            snprintf(at, 32, "2026-%02ld-%02ldT%02ld:%02ld:00Z", 1 + i / 40000 % 12,
                     1 + i / 1440 % 28, i / 60 % 24, i % 60);
            snprintf(commit, 16, "c%ld", i % 10);
            memset(&r[k], 0, sizeof r[k]);
            r[k].application = app;
            r[k].executable = "x";
            r[k].system = "sys";
            r[k].nprocs = 1 + i % nconf;
            r[k].runtime = 1.0 + (double)(i % 97) * 0.01;
            r[k].started_at = at;
            r[k].commit = commit;
        }
        if (ingest_records(&in, r, (size_t)m, "bench", a, &e) != 0 ||
            ingest_commit(d, &in, &e) != 0) {
            fprintf(stderr, "fill: %s\n", e.message);
            exit(1);
        }
        arena_free(a);
    }
}

static double median_ms(db *d, json_t *(*fn)(db *, json_t *, struct err *), json_t *q,
                        size_t *points)
{
    double t[21];
    int i;
    for (i = 0; i < 21; i++) {
        struct err e = {0};
        double t0 = now();
        json_t *v = fn(d, q, &e);
        t[i] = (now() - t0) * 1e3;
        if (v == NULL) {
            fprintf(stderr, "query: %s\n", e.message);
            exit(1);
        }
        *points = json_array_size(json_object_get(v, "points")) +
                  json_array_size(json_object_get(v, "rows"));
        json_decref(v);
    }
    qsort(t, 21, sizeof t[0], cmp_double);
    return t[10];
}

int main(int argc, char **argv)
{
    char dir[] = "/tmp/prophecy-bench-history-XXXXXX", path[600], cmd[700];
    struct db_options opt = {DB_SYNC_NORMAL, 0, 10000};
    struct err e = {0};
    long runs = 100000;
    size_t np;
    double ms;
    json_t *q;
    db *d;
    int i, keep = 0;

    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--keep") == 0)
            keep = 1;
    if (mkdtemp(dir) == NULL)
        return 1;
    snprintf(path, sizeof path, "%s/h.db", dir);
    if (db_open(&d, path, &opt, &e) != 0) {
        fprintf(stderr, "%s\n", e.message);
        return 1;
    }
    printf("bench_history: %ld runs in each of two applications\n", runs);
    fill(d, "spread", runs, 100);
    fill(d, "one", runs, 1);

    q = json_pack("{s:s, s:s, s:s, s:s}", "application", "spread", "system", "sys",
                  "nprocs", "7", "y", "runtime");
    ms = median_ms(d, history_series, q, &np);
    printf("  series, 1 of 100 configurations: %7zu points  %8.2f ms (target <= 20 ms)\n",
           np, ms);
    json_decref(q);
    q = json_pack("{s:s, s:s, s:s}", "application", "one", "system", "sys", "y",
                  "runtime");
    ms = median_ms(d, history_series, q, &np);
    printf("  series, the only configuration:  %7zu points  %8.2f ms (worst case)\n", np,
           ms);
    json_decref(q);
    q = json_pack("{s:s, s:s, s:s}", "application", "spread", "a", "commit:c1", "b",
                  "commit:c2");
    ms = median_ms(d, history_compare, q, &np);
    printf("  compare commit:c1 vs c2 (10,000 runs each side): %zu rows  %8.2f ms\n", np,
           ms);
    json_decref(q);
    db_close(d);
    if (keep) {
        printf("the database is kept: %s\n", path);
        return 0;
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return 0;
}
