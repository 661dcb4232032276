/* bench_history: GET /api/v1/series and /api/v1/compare as core computes
 * them (history_series_text: the query plus the JSON text the API sends;
 * history_series, the same as Jansson values, for the page; history_compare),
 * over a database of 100,000 runs (issue 14: a series within 20 ms).
 *
 * Two layouts of the same 100,000 runs: 100 configurations of 1,000 runs
 * (a group's database), and one configuration holding all of them (the worst
 * case: every run is a point). Medians of 21 calls. The large series is timed
 * first unpacked (its first read packs it, migration 10), then from its
 * chunks, next to two ceilings measured in the same run: the chunks read with
 * sqlite3 directly, and the index rows stepped as the read before packing. Usage:
 * bench_history
 * [--runs N] [--keep] [--db PATH]  (--keep leaves the database and prints its
 * path; --db measures one a --keep left instead of filling a new one;
 * --text-only measures only the answers the API sends, for a profile;
 * GET /api/v1/changes (history_changes) is timed over a third application,
 * one configuration of 10,000 runs, beside the series read of the same one.
 * --pg URI fills an empty PostgreSQL database instead and times the series
 * there, which reads runs_series every time)
 */
#include "common/arena.h"
#include "common/buf.h"
#include "core/history.h"
#include "core/ingest.h"
#include "db/db.h"

#include <jansson.h>
#include <sqlite3.h>
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
static void fill_from(db *d, const char *app, long i, long n, int nconf)
{
    struct err e = {0};
    n += i;
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

static void fill(db *d, const char *app, long n, int nconf)
{
    fill_from(d, app, 0, n, nconf);
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

/* The series as GET /api/v1/series answers it (history_series_text: the
 * read and the JSON text), median ms of 21; *bytes gets the answer's size. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double median_text_ms(db *d, json_t *q, size_t *bytes, double *cpu_ms)
{
    double t[21], c[21];
    struct buf b;
    int i;
    buf_init(&b, 1u << 30);
    for (i = 0; i < 21; i++) {
        struct err e = {0};
        double t0 = now(), c0 = cpu_now();
        buf_reset(&b);
        if (history_series_text(d, q, &b, &e) != 0) {
            fprintf(stderr, "query: %s\n", e.message);
            exit(1);
        }
        t[i] = (now() - t0) * 1e3;
        c[i] = (cpu_now() - c0) * 1e3;
        *bytes = b.len;
    }
    buf_free(&b);
    qsort(t, 21, sizeof t[0], cmp_double);
    qsort(c, 21, sizeof c[0], cmp_double);
    *cpu_ms = c[10];
    return t[10];
}

static volatile double sink;

static void sql_exec(const char *path, const char *sql)
{
    sqlite3 *h;
    if (sqlite3_open(path, &h) != SQLITE_OK ||
        sqlite3_exec(h, sql, NULL, NULL, NULL) != SQLITE_OK) {
        fprintf(stderr, "%s: %s\n", sql, sqlite3_errmsg(h));
        exit(1);
    }
    sqlite3_close(h);
}

/* One read as the API answers it, timed alone (the first, which packs). */
static double first_text_ms(db *d, json_t *q, size_t *bytes)
{
    struct err e = {0};
    struct buf b;
    double t0 = now(), ms;
    buf_init(&b, 1u << 30);
    if (history_series_text(d, q, &b, &e) != 0) {
        fprintf(stderr, "query: %s\n", e.message);
        exit(1);
    }
    ms = (now() - t0) * 1e3;
    *bytes = b.len;
    buf_free(&b);
    return ms;
}

/* Steps sql (?1 the application) with sqlite3 directly, 21 times, each row
 * passed to touch; median wall ms, *cpu_ms the median CPU ms. */
static double step_ms(const char *path, const char *sql, const char *app,
                      double (*touch)(sqlite3_stmt *st), double *cpu_ms)
{
    double t[21], c[21], sum = 0;
    sqlite3 *h;
    sqlite3_stmt *st;
    int i;
    if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "ceiling: %s\n", sqlite3_errmsg(h));
        exit(1);
    }
    sqlite3_bind_text(st, 1, app, -1, SQLITE_STATIC);
    for (i = 0; i < 21; i++) {
        double t0 = now(), c0 = cpu_now();
        while (sqlite3_step(st) == SQLITE_ROW)
            sum += touch(st);
        sqlite3_reset(st);
        t[i] = (now() - t0) * 1e3;
        c[i] = (cpu_now() - c0) * 1e3;
    }
    sqlite3_finalize(st);
    sqlite3_close(h);
    qsort(t, 21, sizeof t[0], cmp_double);
    qsort(c, 21, sizeof c[0], cmp_double);
    *cpu_ms = c[10];
    sink = sum; /* the reads are not optimised away */
    return t[10];
}

/* Every byte of a chunk's points. */
static double touch_chunk(sqlite3_stmt *st)
{
    const unsigned char *p = sqlite3_column_blob(st, 1);
    int n = sqlite3_column_bytes(st, 1);
    unsigned sum = 0;
    for (int k = 0; k < n; k++)
        sum += p[k];
    return sum;
}

/* Every column of an index row. */
static double touch_row(sqlite3_stmt *st)
{
    return (double)sqlite3_column_int64(st, 0) + sqlite3_column_double(st, 3) +
           (double)sqlite3_column_int64(st, 1) + (double)sqlite3_column_bytes(st, 2) +
           (sqlite3_column_text(st, 2) != NULL);
}

/* The ceiling of a packed read: the configuration's chunks stepped with
 * sqlite3 directly and every byte of their points touched. */
static double chunks_ms(const char *path, const char *app, double *cpu_ms)
{
    return step_ms(path,
                   "SELECT n, points FROM series_chunks WHERE config_id = (SELECT c.id "
                   "FROM run_configs c JOIN applications a ON a.id = c.app_id WHERE "
                   "a.name = ?1) ORDER BY last_at, last_id",
                   app, touch_chunk, cpu_ms);
}

/* The read before packing: the same rows stepped with sqlite3 directly (the
 * series statement, every column read, nothing written). */
static double ceiling_ms(const char *path, const char *app, double *cpu_ms)
{
    return step_ms(path,
                   "SELECT r.id, r.at_ms, r.vcs_commit, r.runtime FROM runs r WHERE "
                   "r.config_id = (SELECT c.id FROM run_configs c JOIN applications a ON "
                   "a.id = c.app_id WHERE a.name = ?1) ORDER BY r.at_ms, r.id",
                   app, touch_row, cpu_ms);
}

int main(int argc, char **argv)
{
    char dir[] = "/tmp/prophecy-bench-history-XXXXXX", path[600], cmd[700];
    struct db_options opt = {DB_SYNC_NORMAL, 0, 10000};
    struct err e = {0};
    long runs = 100000;
    size_t np;
    double ms, cpu;
    json_t *q;
    db *d;
    int i, keep = 0, text_only = 0;
    const char *reuse = NULL, *pg = NULL;

    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--keep") == 0)
            keep = 1;
        else if (strcmp(argv[i], "--text-only") == 0)
            text_only = 1;
        else if (strcmp(argv[i], "--db") == 0 && i + 1 < argc)
            reuse = argv[++i];
        else if (strcmp(argv[i], "--pg") == 0 && i + 1 < argc)
            pg = argv[++i];
    if (pg != NULL)
        snprintf(path, sizeof path, "%s", pg);
    else if (reuse != NULL)
        snprintf(path, sizeof path, "%s", reuse);
    else if (mkdtemp(dir) == NULL)
        return 1;
    else
        snprintf(path, sizeof path, "%s/h.db", dir);
    if (db_open(&d, path, &opt, &e) != 0) {
        fprintf(stderr, "%s\n", e.message);
        return 1;
    }
    printf("bench_history: %ld runs in each of two applications%s\n", runs,
           pg ? ", on PostgreSQL" : "");
    if (reuse == NULL) {
        double t0 = now(), c0 = cpu_now();
        fill(d, "spread", runs, 100);
        fill(d, "one", runs, 1);
        fill(d, "ten", 10000, 1);
        printf(
            "  stored %ld runs through core/ingest in batches of 1,000: %.1f us a run, "
            "CPU %.1f us\n",
            2 * runs, (now() - t0) * 1e6 / (double)(2 * runs),
            (cpu_now() - c0) * 1e6 / (double)(2 * runs));
    }

    q = json_pack("{s:s, s:s, s:s, s:s}", "application", "spread", "system", "sys",
                  "nprocs", "7", "y", "runtime");
    ms = median_text_ms(d, q, &np, &cpu);
    printf("  series, 1 of 100 configurations (1,000 points, %zu bytes): %8.2f ms, CPU "
           "%.2f ms\n",
           np, ms, cpu);
    json_decref(q);
    /* GET /api/v1/changes over one configuration of 10,000 runs (SPEC §17:
     * <= 100 ms), next to the series read of the same configuration */
    q = json_pack("{s:s, s:s, s:s}", "application", "ten", "system", "sys", "y",
                  "runtime");
    ms = median_text_ms(d, q, &np, &cpu);
    {
        double cms = median_ms(d, history_changes, q, &np);
        struct err ce = {0};
        json_t *v = history_changes(d, q, &ce);
        printf("  changes over one configuration of 10,000 runs: %8.2f ms (target <= 100 "
               "ms; %zu change points; the bare series read in this run: %.2f ms)\n",
               cms, json_array_size(json_object_get(v, "changes")), ms);
        json_decref(v);
    }
    json_decref(q);
    q = json_pack("{s:s, s:s, s:s}", "application", "one", "system", "sys", "y",
                  "runtime");
    if (pg != NULL) {
        /* no chunks there: every read steps runs_series */
        ms = median_text_ms(d, q, &np, &cpu);
        printf("  the only configuration, 100,000 points as the API answers them: %8.2f "
               "ms, CPU of this process %.2f ms\n",
               ms, cpu);
        json_decref(q);
        db_close(d);
        return 0;
    }
    /* From the rows alone first: the read that meets the whole series
     * unpacked (a database migrated to version 10, or --db of an older one)
     * answers from runs_series and packs it afterwards. */
    sql_exec(path, "DELETE FROM series_chunks");
    ms = first_text_ms(d, q, &np);
    printf("  the only configuration, 100,000 points as the API answers them:\n"
           "    first read, nothing packed (reads the index, then packs): %8.2f ms\n",
           ms);
    ms = median_text_ms(d, q, &np, &cpu);
    printf("    later reads (JSON text, %zu bytes): %8.2f ms, CPU %.2f ms (target <= 20 "
           "ms)\n",
           np, ms, cpu);
    ms = chunks_ms(path, "one", &cpu);
    printf(
        "    ceiling: its packed chunks read with sqlite3 directly: %8.2f ms, CPU %.2f "
        "ms\n",
        ms, cpu);
    ms = ceiling_ms(path, "one", &cpu);
    printf("    the index rows stepped with sqlite3 directly (the read before packing): "
           "%8.2f ms, CPU %.2f ms\n",
           ms, cpu);
    if (!text_only) {
        ms = median_ms(d, history_series, q, &np);
        printf("    as Jansson values (the page's read): %8.2f ms\n", ms);
    }
    fill_from(d, "one", runs, 2000, 1);
    ms = median_text_ms(d, q, &np, &cpu);
    printf(
        "    with 2,000 newer runs not yet packed (packing starts at 2,048): %8.2f ms, "
        "CPU %.2f ms\n",
        ms, cpu);
    json_decref(q);
    q = json_pack("{s:s, s:s, s:s}", "application", "spread", "a", "commit:c1", "b",
                  "commit:c2");
    if (!text_only) {
        ms = median_ms(d, history_compare, q, &np);
        printf("  compare commit:c1 vs c2 (10,000 runs each side): %zu rows  %8.2f ms\n",
               np, ms);
    }
    json_decref(q);
    db_close(d);
    if (keep || reuse != NULL) {
        printf("the database is kept: %s\n", path);
        return 0;
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return 0;
}
