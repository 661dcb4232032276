/* bench_ingest: upload throughput of prophecyd next to the machine's ceiling.
 *
 * For each synchronous setting asked (--sync full|normal|both; both by
 * default), --repeat times (3), in the same run:
 *   - the ceilings: the same rows (1 run, 3 inputs, 2 metrics, 10 kernels)
 *     inserted straight into SQLite through the store's prepared statements,
 *     one transaction per run, and 1,000 runs per transaction (batched);
 *   - the real server (build/bin/prophecyd, and --baseline PATH, an older
 *     binary, for a before/after in the same run) on a fresh database:
 *     single-run POSTs from 8 keep-alive libcurl clients (throughput, p50/p99
 *     latency), then batches of 1,000 runs.
 * Each line quotes the median of the repeats, its ratio to its ceiling, and
 * the CPU time per run of the server (from /proc) and of the clients (this
 * process): the clients share the machine's cores with the server, while the
 * ceiling has them to itself. Then the server's resident memory over
 * --mem-runs single-run uploads (100,000).
 * Usage: bench_ingest [--runs N] [--clients C] [--sync full|normal|both]
 *        [--repeat R] [--baseline PATH] [--prophecyd PATH] [--mem-runs N]
 *        [--db postgresql://...]
 *
 * --db URI measures on PostgreSQL: each server gets a fresh scratch database
 * bench_ingest_server on URI's server (URI names a database to connect to
 * for creating it, e.g. postgresql:///postgres), and the ceilings are
 * PostgreSQL's own for the same rows through libpq (bench/lib/benchpg.h), in
 * scratch database bench_ingest_ceiling: one transaction per run, and 1,000
 * runs per transaction, each with its statements pipelined (the fewest round
 * trips libpq allows), synchronous_commit off for sync=normal as the server
 * sets it.
 *
 * --watches N instead measures what regression detection adds to single-run
 * ingest (issue 14): the same runs stored one per transaction through
 * core/ingest (ingest_commit, the stored hook installed; sync=NORMAL, so
 * that fsync does not dilute the figure) into three databases side by side:
 * one with no watch, one with N statistical watches of one processor count
 * each, one with N that all cover every run (the worst case: each judges it
 * against its configuration's window); the watches are created once and the
 * windows warmed, then 9 alternating rounds of 3,200 runs go into each, and
 * the medians are quoted, with the median of each round's own ratio. The
 * watches ask four distinct questions (test and y), each by 25 of them;
 * --distinct gives each watch a threshold of its own, so that 100 watches
 * ask 100 questions. A fourth database has one changepoint watch covering
 * every run (SPEC §17: <= +10 %), its rounds alternating with the others'.
 * With --server the same through the server's HTTP path
 * (8 clients, a fresh server per mode and repeat).
 */
#include "bench/lib/benchlib.h"
#include "bench/lib/benchpg.h"
#include "common/arena.h"
#include "db/db.h"
#include "db/runs.h"
#include "core/ingest.h"
#include "core/watch.h"
#include "db/history.h"
#include "formats/limits.h"
#include "models/detect.h"
#include <jansson.h>

#include <curl/curl.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Values of the input N the runs cycle through: 64 x 1000 configurations for
 * the ingest figures; the watch bench uses 64 x 10, so that each
 * configuration has a history for the windows to read. */
static long input_values = 1000;

static void fill_run(struct run_record *r, struct rec_kernel *k, struct rec_kv *in,
                     struct rec_kv *m, char *uid, size_t uidsz, long i)
{
    static const char *kn[10] = {"init", "rhs",  "xsolve", "ysolve", "zsolve",
                                 "add",  "exch", "norm",   "io",     "final"};
    int j;
    snprintf(uid, uidsz, "ceil-%ld", i);
    memset(r, 0, sizeof *r);
    r->uid = uid;
    r->application = "bench";
    r->executable = "bench.x";
    r->system = "bench-system";
    r->nprocs = 1 + i % 64;
    r->runtime = 1.0 + (double)(i % 100) * 0.01;
    r->submitter = "bench";
    in[0] = (struct rec_kv){"N", (double)(i % input_values)};
    in[1] = (struct rec_kv){"M", 64};
    in[2] = (struct rec_kv){"iters", 200};
    m[0] = (struct rec_kv){"mflops", 1500.0};
    m[1] = (struct rec_kv){"bytes", 1e9};
    for (j = 0; j < 10; j++)
        k[j] = (struct rec_kernel){kn[j], 0.1 * (j + 1), 1, NULL};
    r->inputs = in;
    r->ninputs = 3;
    r->metrics = m;
    r->nmetrics = 2;
    r->kernels = k;
    r->nkernels = 10;
}

/* CPU seconds of this process (the ceiling's own, or the clients'). */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* --db: the PostgreSQL server the benchmark runs on (NULL: SQLite files). */
static const char *pg_base;

/* PostgreSQL's ceiling: the same rows through libpq, pipelined. */
static double pg_ceiling(long n, long per_txn, enum db_sync sync, double *cpu_us)
{
    char uri[1024];
    double c0 = cpu_now(), rate;
    benchpg_database(pg_base, "bench_ingest_ceiling", uri, sizeof uri);
    rate = benchpg_ceiling(uri, 0, n, per_txn > 1 ? BENCHPG_BATCHED : BENCHPG_PIPELINED,
                           (int)per_txn, sync != DB_SYNC_FULL);
    *cpu_us = (cpu_now() - c0) * 1e6 / (double)n;
    benchpg_drop(pg_base, "bench_ingest_ceiling");
    return rate;
}

/* Raw SQLite: n runs, per_txn runs in each transaction, at the given
 * synchronous setting, into a fresh file. Returns runs/s; *cpu_us gets the
 * CPU microseconds per run. */
static double ceiling(const char *dir, long n, long per_txn, enum db_sync sync,
                      double *cpu_us)
{
    char path[512];
    struct err e = {0};
    struct db_options opt = {sync, 0, 10000};
    db *d;
    double t0, c0, t;
    long i, j;

    if (pg_base != NULL)
        return pg_ceiling(n, per_txn, sync, cpu_us);
    snprintf(path, sizeof path, "%s/ceiling.db", dir);
    remove(path);
    snprintf(path + strlen(path), 8, "-wal");
    remove(path);
    path[strlen(path) - 4] = '\0';
    if (db_open(&d, path, &opt, &e) != 0) {
        fprintf(stderr, "ceiling: %s\n", e.message);
        exit(1);
    }
    t0 = now();
    c0 = cpu_now();
    for (i = 0; i < n; i += per_txn) {
        if (db_begin(d, &e) != 0)
            break;
        for (j = i; j < i + per_txn && j < n; j++) {
            struct run_record r;
            struct rec_kernel k[10];
            struct rec_kv in[3], m[2];
            char uid[32];
            long long id;
            int existed;
            fill_run(&r, k, in, m, uid, sizeof uid, j);
            if (db_runs_insert(d, &r, 1, &id, &existed, &e) != 0)
                break;
        }
        if (e.status != 0 || db_commit(d, &e) != 0)
            break;
    }
    if (e.status != 0) {
        fprintf(stderr, "ceiling: %s\n", e.message);
        exit(1);
    }
    t = now() - t0;
    *cpu_us = (cpu_now() - c0) / (double)n * 1e6;
    db_close(d);
    return (double)n / t;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Bytes this process has passed to write() so far (Linux /proc/self/io). */
static double written_now(void)
{
    FILE *f = fopen("/proc/self/io", "r");
    char line[128];
    double v = 0;
    while (f != NULL && fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, "wchar:", 6) == 0)
            v = strtod(line + 6, NULL);
    if (f != NULL)
        fclose(f);
    return v;
}

/* Bytes written by the last ingest_round. */
static double round_written;

/* CPU seconds of the last ingest_round, and the seconds its runs spent in
 * the judging hook (watch_judge, timed by timed_judge). */
static double round_cpu, round_hook;

/* The judging hook as watch_install() sets it, timed: judging the runs and
 * storing their judgements, inside the transaction (the commit's writing of
 * the pages they dirtied is not in it, so it bounds the cost from below). */
static int timed_judge(db *d, struct ingest *in, void *arg, struct err *err)
{
    double t0 = now();
    int rc = watch_judge(d, in, arg, err);
    round_hook += now() - t0;
    return rc;
}

/* Seconds for n single-run ingest_commit calls, runs numbered from first. */
static double ingest_round(db *d, long first, long n)
{
    struct err e = {0};
    double t0 = now(), c0 = cpu_now(), w0 = written_now();
    long i;
    round_hook = 0;
    for (i = first; i < first + n; i++) {
        struct run_record r;
        struct rec_kernel k[10];
        struct rec_kv in[3], m[2];
        struct ingest batch;
        char uid[32];
        arena *a = arena_new();
        fill_run(&r, k, in, m, uid, sizeof uid, i);
        if (a == NULL || ingest_records(&batch, &r, 1, NULL, a, &e) != 0 ||
            ingest_commit(d, &batch, &e) != 0) {
            fprintf(stderr, "watches: %s\n", e.message);
            exit(1);
        }
        arena_free(a);
    }
    round_cpu = cpu_now() - c0;
    round_written = written_now() - w0;
    return now() - t0;
}

static int distinct; /* --distinct */

/* Adds nwatches statistical watches covering every run, in one transaction. */
static int set_watches(db *d, int nwatches, int spread, long long *ids)
{
    static const char *const tests[4] = {"zscore", "ttest", "percent", "iqr"};
    struct err e = {0};
    int j;
    if (db_begin(d, &e) != 0)
        return -1;
    for (j = 0; j < nwatches; j++) {
        json_t *body;
        body =
            json_pack("{s:s, s:s, s:s, s:{s:s, s:i}}", "application", "bench", "system",
                      "bench-system", "y", j % 2 ? "runtime" : "kernel:xsolve",
                      "detector", "test", tests[j % 4], "window", 20);
        /* --distinct: each watch its own threshold, so that no two ask the
         * same question and none shares another's verdict */
        if (distinct) {
            enum detect_test t;
            detect_parse(tests[j % 4], &t, "test", &e);
            json_object_set_new(
                json_object_get(body, "detector"), "threshold",
                json_real(detect_default_threshold(t) * (1 + j / 1000.0)));
        }
        /* spread: watch j covers one processor count (runs use 1..64), so
         * a run is covered by one or two of the watches, not all. */
        if (spread)
            json_object_set_new(body, "nprocs", json_integer(1 + j % 64));
        if (watch_create(d, body, &ids[j], &e) != 0) {
            json_decref(body);
            break;
        }
        json_decref(body);
    }
    if (j < nwatches || db_commit(d, &e) != 0) {
        fprintf(stderr, "watches: %s\n", e.message);
        db_rollback(d);
        return -1;
    }
    return 0;
}

/* Adds one changepoint watch (SPEC §17, its default threshold) covering
 * every run's runtime. */
static int set_changepoint_watch(db *d)
{
    struct err e = {0};
    long long id;
    json_t *body =
        json_pack("{s:s, s:s, s:s, s:{s:s}}", "application", "bench", "system",
                  "bench-system", "y", "runtime", "detector", "test", "changepoint");
    int rc = db_begin(d, &e) != 0 || watch_create(d, body, &id, &e) != 0 ? -1 : 0;
    json_decref(body);
    if (rc != 0 || db_commit(d, &e) != 0) {
        fprintf(stderr, "watches: %s\n", e.message);
        db_rollback(d);
        return -1;
    }
    return 0;
}

/* Alternating rounds of the in-process watch bench: the machine's speed
 * drifts between them by more than judging costs, so enough for a median. */
#define ROUNDS 9

static int watch_overhead(const char *dir, long n, int nwatches)
{
    char path[512];
    struct err e = {0};
    struct db_options opt = {DB_SYNC_NORMAL, 0, 10000};
    double t[4][ROUNDS], c[4][ROUNDS], med[4], cmed[4], paired[4][ROUNDS];
    long long ids[LIMIT_WATCHES];
    long next = 20000;
    db *d[4];
    int round, mode;

    struct ingest_hooks timed = {timed_judge, NULL, NULL, NULL, NULL};
    double hook[4][ROUNDS], hmed[4], bytes[4][ROUNDS], bmed[4];

    if (nwatches > LIMIT_WATCHES)
        nwatches = LIMIT_WATCHES;
    ingest_set_hooks(&timed);
    /* Three databases side by side, as the server bench's three servers:
     * none, N watches of one processor count each, N watches all covering
     * every run. Each gets the same 640 configurations with a full window
     * of history (20,000 runs, about 31 a configuration), its watches once,
     * and an untimed round, so that every window is warm as in a database
     * whose watches have been judging for a while. */
    input_values = 10;
    for (mode = 0; mode < 4; mode++) {
        snprintf(path, sizeof path, "%s/watches-%d.db", dir, mode);
        if (db_open(&d[mode], path, &opt, &e) != 0) {
            fprintf(stderr, "watches: %s\n", e.message);
            return 1;
        }
        ingest_round(d[mode], 0, next);
        if (mode > 0 && mode < 3 && set_watches(d[mode], nwatches, mode == 1, ids) != 0)
            return 1;
        if (mode == 3 && set_changepoint_watch(d[mode]) != 0)
            return 1;
        ingest_round(d[mode], next, n);
    }
    next += n;
    /* Alternating rounds, the same runs into each database. */
    for (round = 0; round < ROUNDS; round++) {
        for (mode = 0; mode < 4; mode++) {
            t[mode][round] = ingest_round(d[mode], next, n) / (double)n;
            c[mode][round] = round_cpu / (double)n;
            hook[mode][round] = round_hook / (double)n;
            bytes[mode][round] = round_written / (double)n;
        }
        next += n;
    }
    for (mode = 0; mode < 4; mode++)
        db_close(d[mode]);
    /* Each round's own ratio to the no-watch run just before it: the rounds
     * are minutes apart, and on a shared machine the speed drifts between
     * them more than judging costs. */
    for (mode = 1; mode < 4; mode++) {
        for (round = 0; round < ROUNDS; round++)
            paired[mode][round] = t[mode][round] / t[0][round] - 1;
        qsort(paired[mode], ROUNDS, sizeof paired[mode][0], cmp_double);
    }
    for (mode = 0; mode < 4; mode++) {
        qsort(t[mode], ROUNDS, sizeof t[mode][0], cmp_double);
        med[mode] = t[mode][ROUNDS / 2];
        qsort(c[mode], ROUNDS, sizeof c[mode][0], cmp_double);
        cmed[mode] = c[mode][ROUNDS / 2];
        qsort(hook[mode], ROUNDS, sizeof hook[mode][0], cmp_double);
        hmed[mode] = hook[mode][ROUNDS / 2];
        qsort(bytes[mode], ROUNDS, sizeof bytes[mode][0], cmp_double);
        bmed[mode] = bytes[mode][ROUNDS / 2];
    }
    printf(
        "single-run ingest (ingest_commit, sync=NORMAL), median of %d alternating rounds "
        "of %ld runs:\n",
        ROUNDS, n);
    printf("  (wall time; CPU time of this process in brackets: the disk's share is "
           "the rest)\n");
    printf("  no watch:                                %8.1f us/run [%6.1f]\n",
           med[0] * 1e6, cmed[0] * 1e6);
    printf(
        "  %4d watches, one processor count each:  %8.1f us/run [%6.1f] (%+.1f %% wall, "
        "%+.1f %% CPU; target <= +10 %%)\n",
        nwatches, med[1] * 1e6, cmed[1] * 1e6, (med[1] - med[0]) / med[0] * 100,
        (cmed[1] - cmed[0]) / cmed[0] * 100);
    printf("        (the median of each round's own wall ratio: %+.1f %%; rounds %+.1f … "
           "%+.1f %%)\n",
           paired[1][ROUNDS / 2] * 100, paired[1][0] * 100, paired[1][ROUNDS - 1] * 100);
    printf(
        "  %4d watches all covering every run:     %8.1f us/run [%6.1f] (%+.1f %% wall, "
        "%+.1f %% CPU; worst case)\n",
        nwatches, med[2] * 1e6, cmed[2] * 1e6, (med[2] - med[0]) / med[0] * 100,
        (cmed[2] - cmed[0]) / cmed[0] * 100);
    printf("        (the median of each round's own wall ratio: %+.1f %%; rounds %+.1f … "
           "%+.1f %%)\n",
           paired[2][ROUNDS / 2] * 100, paired[2][0] * 100, paired[2][ROUNDS - 1] * 100);
    printf("  one changepoint watch covering every run: %8.1f us/run [%6.1f] (%+.1f %% "
           "wall, "
           "%+.1f %% CPU; target <= +10 %%)\n",
           med[3] * 1e6, cmed[3] * 1e6, (med[3] - med[0]) / med[0] * 100,
           (cmed[3] - cmed[0]) / cmed[0] * 100);
    printf("        (the median of each round's own wall ratio: %+.1f %%; rounds %+.1f … "
           "%+.1f %%)\n",
           paired[3][ROUNDS / 2] * 100, paired[3][0] * 100, paired[3][ROUNDS - 1] * 100);
    /* The wall ratios swing by more than judging costs between runs of this
     * bench on a shared machine; the hook's own time does not, but leaves
     * out the commit's writing of what it stored. */
    printf("  time inside the judging hook (judging and storing, before the commit; "
           "median µs a run, and as a share of the no-watch run's wall time):\n");
    for (mode = 0; mode < 4; mode++)
        printf("    %-38s %6.1f us  %+.1f %%\n",
               mode == 0   ? "no watch (the watch set's version)"
               : mode == 1 ? "one processor count each"
               : mode == 2 ? "all covering every run"
                           : "one changepoint watch",
               hmed[mode] * 1e6, (hmed[mode] - hmed[0]) / med[0] * 100);
    printf("  bytes written a run (the WAL's frames and the checkpoints' pages): ");
    for (mode = 0; mode < 4; mode++)
        printf("%s%.0f", mode ? " / " : "", bmed[mode]);
    printf(" (no watch / one processor count each / all covering / changepoint)\n");
    return 0;
}

static const char run_fmt[] =
    "{\"id\":\"%s-%ld\",\"application\":\"bench\",\"executable\":\"bench.x\","
    "\"system\":\"bench-system\",\"nprocs\":%ld,\"inputs\":{\"N\":%ld,\"M\":64,\"iters\":"
    "200},"
    "\"runtime\":%.2f,\"metrics\":{\"mflops\":1500.0,\"bytes\":1e9},\"kernels\":["
    "{\"name\":\"init\",\"time\":0.1},{\"name\":\"rhs\",\"time\":0.2},"
    "{\"name\":\"xsolve\",\"time\":0.3},{\"name\":\"ysolve\",\"time\":0.4},"
    "{\"name\":\"zsolve\",\"time\":0.5},{\"name\":\"add\",\"time\":0.6},"
    "{\"name\":\"exch\",\"time\":0.7},{\"name\":\"norm\",\"time\":0.8},"
    "{\"name\":\"io\",\"time\":0.9},{\"name\":\"final\",\"time\":1.0}]}";

struct client {
    pthread_t th;
    const char *url, *auth, *tag;
    long first, count, batch;
    double *lat;
    long failures;
};

static size_t sink(char *p, size_t s, size_t n, void *u)
{
    (void)p;
    (void)u;
    return s * n;
}

static void *client_main(void *arg)
{
    struct client *c = arg;
    CURL *h = curl_easy_init();
    struct curl_slist *hd = NULL;
    char *body = malloc((size_t)(c->batch * 700 + 64));
    long i, j, k = 0;

    hd = curl_slist_append(hd, "Content-Type: application/json");
    hd = curl_slist_append(hd, c->auth);
    curl_easy_setopt(h, CURLOPT_URL, c->url);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hd);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, sink);
    curl_easy_setopt(h, CURLOPT_TCP_NODELAY, 1L);
    for (i = 0; i < c->count; i += c->batch) {
        size_t len = 0;
        long code = 0;
        double t0;
        if (c->batch > 1)
            len += (size_t)snprintf(body, 16, "{\"runs\":[");
        for (j = 0; j < c->batch; j++) {
            long n = c->first + i + j;
            len += (size_t)snprintf(body + len, 700, run_fmt, c->tag, n, 1 + n % 64,
                                    n % input_values, 1.0 + (double)(n % 100) * 0.01);
            if (c->batch > 1)
                body[len++] = j + 1 < c->batch ? ',' : ']';
        }
        if (c->batch > 1)
            body[len++] = '}';
        body[len] = '\0';
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)len);
        t0 = now();
        if (curl_easy_perform(h) != CURLE_OK)
            c->failures++;
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
        if (code != 201)
            c->failures++;
        c->lat[k++] = now() - t0;
    }
    free(body);
    curl_slist_free_all(hd);
    curl_easy_cleanup(h);
    return NULL;
}

/* CPU seconds the process pid has used so far (all its threads). */
static double proc_cpu(pid_t pid)
{
    char path[64], line[1024], *p;
    unsigned long ut = 0, st = 0;
    FILE *f;
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    f = fopen(path, "r");
    if (f == NULL)
        return 0;
    if (fgets(line, sizeof line, f) == NULL || (p = strrchr(line, ')')) == NULL ||
        sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) !=
            2)
        ut = st = 0;
    fclose(f);
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* What one load measured. */
struct figures {
    double rate, p50, p99; /* runs/s, ms */
    double server_us;      /* server CPU per run */
    double client_us;      /* clients' CPU per run */
    long failures;
};

/* Runs nclients x per runs in requests of batch runs against the server pid. */
static void load(const char *url, const char *auth, const char *tag, long first,
                 int nclients, long per, long batch, pid_t pid, struct figures *fg)
{
    struct client *c = calloc((size_t)nclients, sizeof *c);
    long nreq = (per + batch - 1) / batch, total = 0, i;
    double *all = malloc(sizeof(double) * (size_t)(nreq * nclients)), t0, t, s0, c0;
    int w;

    t0 = now();
    s0 = proc_cpu(pid);
    c0 = cpu_now();
    for (w = 0; w < nclients; w++) {
        c[w].url = url;
        c[w].auth = auth;
        c[w].tag = tag;
        c[w].first = first + w * per;
        c[w].count = per;
        c[w].batch = batch;
        c[w].lat = all + w * nreq;
        pthread_create(&c[w].th, NULL, client_main, &c[w]);
    }
    fg->failures = 0;
    for (w = 0; w < nclients; w++) {
        pthread_join(c[w].th, NULL);
        fg->failures += c[w].failures;
        total += per;
    }
    t = now() - t0;
    fg->server_us = (proc_cpu(pid) - s0) / (double)total * 1e6;
    fg->client_us = (cpu_now() - c0) / (double)total * 1e6;
    qsort(all, (size_t)(nreq * nclients), sizeof *all, cmp_double);
    i = nreq * nclients;
    fg->p50 = all[i / 2] * 1e3;
    fg->p99 = all[(long)((double)i * 0.99)] * 1e3;
    fg->rate = (double)total / t;
    free(all);
    free(c);
}

static long rss_kb(pid_t pid)
{
    char path[64], line[256];
    long kb = -1;
    FILE *f;
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    f = fopen(path, "r");
    if (f == NULL)
        return -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld", &kb) == 1)
            break;
    fclose(f);
    return kb;
}

/* A running prophecyd on a fresh database. */
struct server {
    pid_t pid;
    char url[128], auth[200];
};

static size_t health_sink(char *p, size_t s, size_t n, void *u)
{
    (void)p;
    (void)u;
    return s * n;
}

/* Starts bin serve on a fresh database in dir at the sync setting; waits
 * until it answers. Returns 0 or -1. */
static int server_start(struct server *sv, const char *bin, const char *dir,
                        const char *sync, int port)
{
    char dbpath[600], cmd[1400], token[128], listen[64], health[128];
    FILE *p;
    int tries;

    if (pg_base != NULL) {
        benchpg_database(pg_base, "bench_ingest_server", dbpath, sizeof dbpath);
    } else {
        snprintf(cmd, sizeof cmd, "rm -f %s/server.db*", dir);
        if (system(cmd) != 0)
            return -1;
        snprintf(dbpath, sizeof dbpath, "%s/server.db", dir);
        /* token create refuses a missing database: create the new one on purpose. */
        p = fopen(dbpath, "a");
        if (p != NULL)
            fclose(p);
    }
    snprintf(cmd, sizeof cmd, "%s token create bench --db '%s'", bin, dbpath);
    p = popen(cmd, "r");
    if (p == NULL || fgets(token, sizeof token, p) == NULL) {
        fprintf(stderr, "cannot create a token with %s\n", bin);
        if (p)
            pclose(p);
        return -1;
    }
    pclose(p);
    token[strcspn(token, "\n")] = '\0';
    snprintf(sv->auth, sizeof sv->auth, "Authorization: Bearer %s", token);
    snprintf(listen, sizeof listen, "127.0.0.1:%d", port);
    sv->pid = fork();
    if (sv->pid == 0) {
        execl(bin, "prophecyd", "serve", "--db", dbpath, "--listen", listen, "--sync",
              sync, "--quiet", (char *)NULL);
        _exit(127);
    }
    snprintf(sv->url, sizeof sv->url, "http://127.0.0.1:%d/api/v1/runs", port);
    snprintf(health, sizeof health, "http://127.0.0.1:%d/api/v1/health", port);
    for (tries = 0; tries < 200; tries++) {
        CURL *h = curl_easy_init();
        long code = 0;
        usleep(50000);
        curl_easy_setopt(h, CURLOPT_URL, health);
        curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, health_sink);
        if (curl_easy_perform(h) == CURLE_OK)
            curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
        curl_easy_cleanup(h);
        if (code == 200)
            return 0;
    }
    fprintf(stderr, "%s did not answer on %s\n", bin, health);
    return -1;
}

static void server_stop(struct server *sv)
{
    kill(sv->pid, SIGTERM);
    waitpid(sv->pid, NULL, 0);
}

#define MAX_REPEAT 9

/* Medians of the repeats of one line of the table. */
struct line {
    struct figures f[MAX_REPEAT];
    int n;
};

static double median_of(const struct line *l, size_t off)
{
    double v[MAX_REPEAT];
    int i;
    for (i = 0; i < l->n; i++)
        v[i] = *(const double *)((const char *)&l->f[i] + off);
    qsort(v, (size_t)l->n, sizeof v[0], cmp_double);
    return l->n ? v[l->n / 2] : 0;
}

#define MED(l, field) median_of(l, offsetof(struct figures, field))

static void print_line(const char *name, const struct line *l, const struct line *ceil)
{
    long fails = 0;
    int i;
    for (i = 0; i < l->n; i++)
        fails += l->f[i].failures;
    printf("  %-40s %9.0f %6.2fx", name, MED(l, rate),
           ceil ? MED(l, rate) / MED(ceil, rate) : 1.0);
    if (ceil == NULL) {
        printf(" %7s %7s %8.1f %8s %5s\n", "-", "-", MED(l, server_us), "-", "-");
        return;
    }
    printf(" %7.2f %7.2f %8.1f %8.1f %5ld\n", MED(l, p50), MED(l, p99), MED(l, server_us),
           MED(l, client_us), fails);
}

/* POSTs body to the server's path with its token; returns the HTTP status. */
static long post_json(const struct server *sv, const char *path, const char *body)
{
    char url[256];
    long code = 0;
    CURL *h = curl_easy_init();
    struct curl_slist *hd = NULL;
    snprintf(url, sizeof url, "%.*s%s", (int)(strstr(sv->url, "/api/") - sv->url),
             sv->url, path);
    hd = curl_slist_append(hd, "Content-Type: application/json");
    hd = curl_slist_append(hd, sv->auth);
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hd);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, sink);
    if (curl_easy_perform(h) == CURLE_OK)
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
    curl_slist_free_all(hd);
    curl_easy_cleanup(h);
    return code;
}

/* --watches N --server: what regression detection adds to the server's
 * single-run ingest as bench_ingest measures it (8 keep-alive clients POSTing
 * one run each, group commit): a fresh server with no watch, with N
 * statistical watches of one processor count each, and with N watches that
 * all cover every run, alternated over the repeats, medians quoted. The runs
 * cycle through 640 configurations, and each server first stores 20,000 of
 * them (about 31 a configuration), so every window of 20 is full: each
 * statistical judgement reads a real history, as in a CI database. */
static int watch_server(const char *dir, const char *bin, const char *sync, long runs,
                        int clients, int nwatches, int repeat, int *port)
{
    static const char *const tests[4] = {"zscore", "ttest", "percent", "iqr"};
    static const char *const names[3] = {"no watch", "watches, one processor count each",
                                         "watches all covering every run"};
    struct line l[3];
    int rep, mode, j;

    memset(l, 0, sizeof l);
    input_values = 10;
    for (rep = 0; rep < repeat; rep++)
        for (mode = 0; mode < 3; mode++) {
            struct server sv;
            struct figures warm;
            if (server_start(&sv, bin, dir, sync, (*port)++) != 0)
                return 1;
            load(sv.url, sv.auth, "warm", 0, clients, 20000 / clients, 1, sv.pid, &warm);
            for (j = 0; mode > 0 && j < nwatches; j++) {
                char body[400], np[32] = "";
                if (mode == 1)
                    snprintf(np, sizeof np, "\"nprocs\": %d, ", 1 + j % 64);
                snprintf(
                    body, sizeof body,
                    "{\"application\": \"bench\", \"system\": \"bench-system\", %s"
                    "\"y\": \"%s\", \"detector\": {\"test\": \"%s\", \"window\": 20}}",
                    np, j % 2 ? "runtime" : "kernel:xsolve", tests[j % 4]);
                if (post_json(&sv, "/api/v1/watches", body) != 201) {
                    fprintf(stderr, "bench_ingest: cannot create watch %d\n", j);
                    server_stop(&sv);
                    return 1;
                }
            }
            load(sv.url, sv.auth, "single", 100000, clients, runs / clients, 1, sv.pid,
                 &l[mode].f[l[mode].n++]);
            server_stop(&sv);
        }
    printf(
        "\nsync=%s: %ld single-run POSTs from %d keep-alive clients into a fresh server "
        "(20,000 runs of 640 configurations stored first); median of %d alternating "
        "runs\n",
        sync, runs, clients, repeat);
    printf("  %-44s %9s %8s %7s %7s %8s %5s\n", "", "runs/s", "vs none", "p50 ms",
           "p99 ms", "srv us/r", "fails");
    for (mode = 0; mode < 3; mode++) {
        long fails = 0;
        char name[80];
        for (j = 0; j < l[mode].n; j++)
            fails += l[mode].f[j].failures;
        if (mode)
            snprintf(name, sizeof name, "%d %s", nwatches, names[mode]);
        else
            snprintf(name, sizeof name, "%s", names[0]);
        printf("  %-44s %9.0f %+7.1f%% %7.2f %7.2f %8.1f %5ld\n", name,
               MED(&l[mode], rate), (MED(&l[0], rate) / MED(&l[mode], rate) - 1) * 100,
               MED(&l[mode], p50), MED(&l[mode], p99), MED(&l[mode], server_us), fails);
    }
    printf("  (vs none: time per run added, from the rates; target <= +10 %%)\n");
    /* Each repeat's own ratio to the no-watch server started just before it:
     * the machine's speed drifts between repeats more than judging costs. */
    for (mode = 1; mode < 3; mode++) {
        double r[64];
        int n = l[mode].n < l[0].n ? l[mode].n : l[0].n;
        for (j = 0; j < n && j < 64; j++)
            r[j] = (l[0].f[j].rate / l[mode].f[j].rate - 1) * 100;
        if (n > 64)
            n = 64;
        if (n == 0)
            continue;
        qsort(r, (size_t)n, sizeof r[0], cmp_double);
        printf("  %-44s median of each repeat's own ratio %+.1f %% (%+.1f … %+.1f %%)\n",
               names[mode], r[n / 2], r[0], r[n - 1]);
    }
    return 0;
}

static int measure_sync(const char *dir, const char *sync_name, enum db_sync sync,
                        const char *bin, const char *baseline, long runs, int clients,
                        int repeat, int *port)
{
    enum { CEIL, CEIL_B, BASE, CUR, BASE_B, CUR_B, NLINES };
    struct line l[NLINES];
    const long batch = 1000;
    long batch_runs = (long)clients * 4 * batch;
    int rep, k, v;

    memset(l, 0, sizeof l);
    for (rep = 0; rep < repeat; rep++) {
        struct figures *f;
        /* The ceilings in the same run; with FULL a quarter of the runs
         * suffices (each commit is an fsync). */
        f = &l[CEIL].f[l[CEIL].n++];
        f->rate =
            ceiling(dir, sync == DB_SYNC_FULL ? runs / 4 : runs, 1, sync, &f->server_us);
        f = &l[CEIL_B].f[l[CEIL_B].n++];
        f->rate = ceiling(dir, batch_runs, batch, sync, &f->server_us);
        for (v = 0; v < 2; v++) {
            const char *b = v == 0 ? baseline : bin;
            struct server sv;
            if (b == NULL)
                continue;
            if (server_start(&sv, b, dir, sync_name, (*port)++) != 0)
                return -1;
            load(sv.url, sv.auth, "single", 0, clients, runs / clients, 1, sv.pid,
                 &l[v == 0 ? BASE : CUR].f[l[v == 0 ? BASE : CUR].n++]);
            load(sv.url, sv.auth, "batch", 10000000, clients, batch_runs / clients, batch,
                 sv.pid, &l[v == 0 ? BASE_B : CUR_B].f[l[v == 0 ? BASE_B : CUR_B].n++]);
            server_stop(&sv);
        }
        fprintf(stderr, "  [sync=%s: run %d of %d done]\n", sync_name, rep + 1, repeat);
    }
    printf(
        "\nsync=%s: %ld single-run POSTs and %ld runs in batches of %ld, %d keep-alive "
        "clients; median of %d runs\n",
        sync_name, runs, batch_runs, batch, clients, repeat);
    printf("  %-40s %9s %7s %7s %7s %8s %8s %5s\n", "", "runs/s", "ratio", "p50 ms",
           "p99 ms", "srv us/r", "cli us/r", "fails");
    print_line(pg_base ? "ceiling: libpq, 1 txn/run, pipelined"
                       : "ceiling: raw SQLite, 1 txn/run",
               &l[CEIL], NULL);
    if (baseline)
        print_line("baseline prophecyd: single-run POSTs", &l[BASE], &l[CEIL]);
    print_line("prophecyd: single-run POSTs", &l[CUR], &l[CEIL]);
    print_line(pg_base ? "ceiling: libpq, 1000 runs/txn, pipelined"
                       : "ceiling: raw SQLite, 1000 runs/txn",
               &l[CEIL_B], NULL);
    if (baseline)
        print_line("baseline prophecyd: batches of 1000", &l[BASE_B], &l[CEIL_B]);
    print_line("prophecyd: batches of 1000", &l[CUR_B], &l[CEIL_B]);
    printf(
        "  (ratio: to the ceiling above it; srv us/r: CPU per run of the server, or "
        "of the ceiling loop;\n   cli us/r: CPU per run of the %d clients, which share "
        "the %ld cores with the server)\n",
        clients, sysconf(_SC_NPROCESSORS_ONLN));
    for (k = BASE; k <= CUR; k++)
        if (l[k].n && MED(&l[k], p99) > 20)
            printf("  !! p99 over 20 ms\n");
    return 0;
}

int main(int argc, char **argv)
{
    const char *prophecyd = NULL, *baseline = NULL, *sync = "both";
    char dir[] = "/tmp/prophecy-bench-XXXXXX", cmd[1400], exe[512];
    long runs = 20000, mem_runs = 100000;
    int clients = 8, port, i, watches = -1, repeat = 3, rc = 0, server = 0;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--clients") == 0 && i + 1 < argc)
            clients = (int)strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--prophecyd") == 0 && i + 1 < argc)
            prophecyd = argv[++i];
        else if (strcmp(argv[i], "--baseline") == 0 && i + 1 < argc)
            baseline = argv[++i];
        else if (strcmp(argv[i], "--sync") == 0 && i + 1 < argc)
            sync = argv[++i];
        else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
            repeat = (int)strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--mem-runs") == 0 && i + 1 < argc)
            mem_runs = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--watches") == 0 && i + 1 < argc)
            watches = (int)strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--distinct") == 0)
            distinct = 1;
        else if (strcmp(argv[i], "--server") == 0)
            server = 1;
        else if (strcmp(argv[i], "--db") == 0 && i + 1 < argc)
            pg_base = argv[++i];
        else {
            fprintf(stderr, "usage: bench_ingest [--runs N] [--clients C] [--sync "
                            "full|normal|both] [--repeat R] [--baseline PATH] "
                            "[--prophecyd PATH] [--mem-runs N] [--db postgresql://...] | "
                            "--watches N [--server | --distinct]\n");
            return 2;
        }
    }
    if (repeat < 1 || repeat > MAX_REPEAT || clients < 1 || runs < clients ||
        (strcmp(sync, "both") != 0 && strcmp(sync, "full") != 0 &&
         strcmp(sync, "normal") != 0)) {
        fprintf(stderr, "bench_ingest: bad --repeat, --clients, --runs or --sync\n");
        return 2;
    }
    if (prophecyd == NULL) {
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 20);
        exe[n > 0 ? n : 0] = '\0';
        *(strrchr(exe, '/') ? strrchr(exe, '/') : exe) = '\0';
        snprintf(exe + strlen(exe), 20, "/prophecyd");
        prophecyd = exe;
    }
    if (mkdtemp(dir) == NULL)
        return 1;
    if (watches >= 0 && server) {
        signal(SIGPIPE, SIG_IGN);
        curl_global_init(CURL_GLOBAL_ALL);
        port = bench_first_port();
        if (watches > LIMIT_WATCHES)
            watches = LIMIT_WATCHES;
        rc = watch_server(dir, prophecyd, strcmp(sync, "full") == 0 ? "full" : "normal",
                          runs, clients, watches, repeat, &port);
    } else if (watches >= 0) {
        rc = watch_overhead(dir, runs < 3200 ? runs : 3200, watches);
    }
    if (watches >= 0) {
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", dir);
        return rc;
    }
    signal(SIGPIPE, SIG_IGN);
    curl_global_init(CURL_GLOBAL_ALL);
    port = bench_first_port();
    printf("bench_ingest: prophecyd %s%s%s\n", prophecyd, baseline ? ", baseline " : "",
           baseline ? baseline : "");
    if (strcmp(sync, "full") != 0)
        rc |= measure_sync(dir, "normal", DB_SYNC_NORMAL, prophecyd, baseline, runs,
                           clients, repeat, &port);
    if (rc == 0 && strcmp(sync, "normal") != 0)
        rc |= measure_sync(dir, "full", DB_SYNC_FULL, prophecyd, baseline, runs, clients,
                           repeat, &port);

    /* Memory over a long stream of uploads: resident size every 25,000. */
    if (rc == 0 && mem_runs > 0) {
        struct server sv;
        struct figures fg;
        long done = 0;
        const char *s = strcmp(sync, "full") == 0 ? "full" : "normal";
        if (server_start(&sv, prophecyd, dir, s, port++) != 0)
            return 1;
        printf("\nserver RSS over %ld single-run uploads, sync=%s (kB): %ld", mem_runs, s,
               rss_kb(sv.pid));
        while (done < mem_runs) {
            long chunk = mem_runs - done < 25000 ? mem_runs - done : 25000;
            load(sv.url, sv.auth, "mem", 20000000 + done, clients, chunk / clients, 1,
                 sv.pid, &fg);
            done += chunk / clients * clients;
            printf(" %ld", rss_kb(sv.pid));
            if (fg.failures)
                printf(" (!! %ld failed)", fg.failures);
            fflush(stdout);
        }
        printf("\n");
        server_stop(&sv);
    }
    if (pg_base != NULL)
        benchpg_drop(pg_base, "bench_ingest_server");
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    curl_global_cleanup();
    return rc ? 1 : 0;
}
