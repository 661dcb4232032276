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
 * --alerts N times GET /api/v1/alert-groups (alert_groups and the JSON
 * text the server sends) over a fresh database of N alerts (default
 * 10,000; SPEC §17: <= 20 ms), five a commit, next to its query stepped
 * with sqlite3 directly, and exits; --keep before it keeps the database)
 */
#include "common/arena.h"
#include "common/buf.h"
#include "core/alerts.h"
#include "core/history.h"
#include "core/ingest.h"
#include "core/watch.h"
#include "db/history.h"
#include "db/db.h"
#include "formats/limits.h"

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

/* Stores runs i..i+n-1 of application app in batches of 1,000, each with a
 * start time (a day each); vary(r, commit, i, arg) sets the processor
 * count, the runtime and the text of the commit (24 bytes). */
static void fill_runs(db *d, const char *app, long i, long n,
                      void (*vary)(struct run_record *r, char *commit, long i, void *arg),
                      void *arg)
{
    struct err e = {0};
    n += i;
    while (i < n) {
        arena *a = arena_new();
        long m = n - i < 1000 ? n - i : 1000, k;
        struct run_record *r = arena_alloc(a, (size_t)m * sizeof *r);
        struct ingest in;
        for (k = 0; k < m; k++, i++) {
            char *at = arena_alloc(a, 32), *commit = arena_alloc(a, 24);
            snprintf(at, 32, "2026-%02ld-%02ldT%02ld:%02ld:00Z", 1 + i / 40000 % 12,
                     1 + i / 1440 % 28, i / 60 % 24, i % 60);
            memset(&r[k], 0, sizeof r[k]);
            r[k].application = app;
            r[k].executable = "x";
            r[k].system = "sys";
            r[k].started_at = at;
            r[k].commit = commit;
            vary(&r[k], commit, i, arg);
        }
        if (ingest_records(&in, r, (size_t)m, "bench", a, &e) != 0 ||
            ingest_commit(d, &in, &e) != 0) {
            fprintf(stderr, "fill: %s\n", e.message);
            exit(1);
        }
        arena_free(a);
    }
}

/* Over nconf processor counts, commits c0..c9. */
static void vary_series(struct run_record *r, char *commit, long i, void *arg)
{
    int nconf = *(const int *)arg;
    snprintf(commit, 24, "c%ld", i % 10);
    r->nprocs = 1 + i % nconf;
    r->runtime = 1.0 + (double)(i % 97) * 0.01;
}

/* Stores n runs of application app over nconf processor counts, with
 * commits c0..c9 and a day each. */
static void fill_from(db *d, const char *app, long i, long n, int nconf)
{
    fill_runs(d, app, i, n, vary_series, &nconf);
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

/* Five runs a commit g0, g1, ... (one per processor count), runtime 1 or 2 s
 * from commit to commit. */
static void vary_alerts(struct run_record *r, char *commit, long i, void *arg)
{
    (void)arg;
    snprintf(commit, 24, "g%ld", i / 5);
    r->nprocs = 1 + i % 5;
    r->runtime = 1.0 + (double)(i / 5 % 2);
}

/* N runs of application "alerts", five a commit (one per processor count),
 * every one judged out by a percent watch of window 1 (runtime alternates
 * between 1 and 2 s from commit to commit): N alerts but the first five,
 * in N / 5 groups. */
static void fill_alerts(db *d, long n)
{
    struct err e = {0};
    long long wid;
    json_t *w =
        json_pack("{s:s, s:s, s:{s:s, s:f, s:i}}", "application", "alerts", "system",
                  "sys", "detector", "test", "percent", "threshold", 1.0, "window", 1);
    watch_install();
    if (db_begin(d, &e) != 0 || watch_create(d, w, &wid, &e) != 0 ||
        db_commit(d, &e) != 0) {
        fprintf(stderr, "watch: %s\n", e.message);
        exit(1);
    }
    json_decref(w);
    fill_runs(d, "alerts", 0, n, vary_alerts, NULL);
}

/* GET /api/v1/alert-groups?state= as the server answers it: alert_groups
 * and the JSON text (http_json's dump); median wall ms of 21, *cpu_ms the
 * median CPU, *bytes the answer's size, *groups its groups. */
static double groups_ms(db *d, const char *state, double *cpu_ms, size_t *bytes,
                        size_t *groups)
{
    double t[21], c[21];
    for (int i = 0; i < 21; i++) {
        struct err e = {0};
        double t0 = now(), c0 = cpu_now();
        json_t *v = alert_groups(d, state, &e);
        char *s = v ? json_dumps(v, JSON_COMPACT | JSON_REAL_PRECISION(16)) : NULL;
        t[i] = (now() - t0) * 1e3;
        c[i] = (cpu_now() - c0) * 1e3;
        if (s == NULL) {
            fprintf(stderr, "alert groups: %s\n", e.message);
            exit(1);
        }
        *bytes = strlen(s);
        *groups = json_array_size(json_object_get(v, "groups"));
        free(s);
        json_decref(v);
    }
    qsort(t, 21, sizeof t[0], cmp_double);
    qsort(c, 21, sizeof c[0], cmp_double);
    *cpu_ms = c[10];
    return t[10];
}

/* The same answer written as text (alert_groups_text, what the server
 * sends since): median wall ms of 21, *cpu_ms the median CPU; *same says
 * whether its bytes are alert_groups' dumped. */
static double groups_text_ms(db *d, const char *state, double *cpu_ms, size_t *bytes,
                             int *same)
{
    double t[21], c[21];
    struct buf b;
    buf_init(&b, (size_t)1 << 30);
    for (int i = 0; i < 21; i++) {
        struct err e = {0};
        double t0 = now(), c0 = cpu_now();
        buf_reset(&b);
        if (alert_groups_text(d, state, &b, &e) != 0) {
            fprintf(stderr, "alert groups: %s\n", e.message);
            exit(1);
        }
        t[i] = (now() - t0) * 1e3;
        c[i] = (cpu_now() - c0) * 1e3;
    }
    {
        struct err e = {0};
        json_t *v = alert_groups(d, state, &e);
        char *s = v ? json_dumps(v, JSON_COMPACT | JSON_REAL_PRECISION(16)) : NULL;
        *same = s != NULL && strcmp(s, buf_str(&b)) == 0;
        free(s);
        json_decref(v);
    }
    *bytes = b.len;
    buf_free(&b);
    qsort(t, 21, sizeof t[0], cmp_double);
    qsort(c, 21, sizeof c[0], cmp_double);
    *cpu_ms = c[10];
    return t[10];
}

/* Every column of a group row. */
static double touch_group_row(sqlite3_stmt *st)
{
    return (double)sqlite3_column_int64(st, 0) + (double)sqlite3_column_bytes(st, 1) +
           (double)sqlite3_column_int64(st, 2) + (double)sqlite3_column_int64(st, 3) +
           sqlite3_column_double(st, 4);
}

static int bench_alerts(long n, int keep)
{
    char dir[] = "/tmp/prophecy-bench-alerts-XXXXXX", path[600], cmd[700];
    struct db_options opt = {DB_SYNC_NORMAL, 0, 10000};
    struct err e = {0};
    double ms, cpu, t0;
    size_t bytes, groups;
    long long nalerts = 0;
    db *d;

    if (mkdtemp(dir) == NULL)
        return 1;
    snprintf(path, sizeof path, "%s/a.db", dir);
    if (db_open(&d, path, &opt, &e) != 0) {
        fprintf(stderr, "%s\n", e.message);
        return 1;
    }
    t0 = now();
    fill_alerts(d, n);
    {
        json_t *all = alert_groups(d, NULL, &e), *g;
        size_t i;
        json_array_foreach(json_object_get(all, "groups"), i, g) nalerts +=
            (long long)json_array_size(json_object_get(g, "alerts"));
        json_decref(all);
    }
    printf("bench_history --alerts: %ld runs stored and judged in %.1f s; the answer "
           "lists the newest %d groups\n",
           n, now() - t0, LIMIT_ALERT_GROUPS);
    {
        int same;
        ms = groups_text_ms(d, NULL, &cpu, &bytes, &same);
        printf("  GET /api/v1/alert-groups as the server answers it (the JSON text "
               "written directly; %zu bytes, %s alert_groups' dump): %8.2f ms, CPU %.2f "
               "ms (target <= 20 ms)\n",
               bytes, same ? "the same as" : "DIFFERENT FROM", ms, cpu);
    }
    ms = groups_ms(d, NULL, &cpu, &bytes, &groups);
    printf("  the same as Jansson values, dumped (%zu groups, %lld alerts, %zu bytes): "
           "%8.2f ms, CPU %.2f ms\n",
           groups, nalerts, bytes, ms, cpu);
    {
        int same;
        ms = groups_text_ms(d, "open", &cpu, &bytes, &same);
        (void)same;
    }
    printf("  GET /api/v1/alert-groups?state=open:                        %8.2f ms, "
           "CPU %.2f ms\n",
           ms, cpu);
    {
        double t[21], c[21];
        long rows = 0;
        for (int k = 0; k < 21; k++) {
            arena *a = arena_new();
            struct db_alert_group_row *v;
            double t1 = now(), c1 = cpu_now();
            rows = db_alert_group_rows(d, NULL, LIMIT_ALERT_GROUPS, a, &v, &e);
            t[k] = (now() - t1) * 1e3;
            c[k] = (cpu_now() - c1) * 1e3;
            arena_free(a);
            if (rows < 0) {
                fprintf(stderr, "group rows: %s\n", e.message);
                return 1;
            }
        }
        qsort(t, 21, sizeof t[0], cmp_double);
        qsort(c, 21, sizeof c[0], cmp_double);
        printf("    of which the store's rows (db_alert_group_rows, %ld rows): %8.2f ms, "
               "CPU %.2f ms\n",
               rows, t[10], c[10]);
    }
    ms = step_ms(
        path,
        "SELECT al.group_id, g.vcs_commit, al.id, al.config_id, al.ratio FROM alerts al "
        "JOIN alert_groups g ON g.id = al.group_id WHERE al.group_id >= (SELECT "
        "coalesce(min(group_id), 0) FROM (SELECT DISTINCT group_id FROM alerts WHERE "
        "group_id IS NOT NULL ORDER BY group_id DESC LIMIT 1000) s) AND ?1 IS NOT NULL "
        "ORDER BY al.group_id DESC, al.id DESC",
        "-", touch_group_row, &cpu);
    printf("  ceiling: the store's statement stepped with sqlite3 directly: %8.2f "
           "ms, CPU %.2f ms\n",
           ms, cpu);
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
        else if (strcmp(argv[i], "--alerts") == 0)
            return bench_alerts(i + 1 < argc && argv[i + 1][0] != '-'
                                    ? strtol(argv[++i], NULL, 10)
                                    : 10000,
                                keep);
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
